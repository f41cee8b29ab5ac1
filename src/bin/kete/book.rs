//! `kete book`: builds an opening book ([`kete::search::book`]) and shows
//! what a book says of a position.
//!
//! Two ways to build one. By the solver (the default, for games decided by
//! counting): the positions a few moves from the start are solved as the
//! jobs of a split ([`kete::solve::split`]; the folder `--jobs` keeps their
//! results, so a stopped build resumes, and a cluster can solve them with
//! `kete solve --job`), and their values are backed up to every position
//! above them: the book lists each move's exact value. By deep searches
//! (`--movetime` or `--depth`): every position above the split is searched
//! and the book keeps its best move.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};

use kete::game::{DbSpec, Game, SolveGame};
use kete::search::book::{Book, BookMove};
use kete::search::{Limits, Settings};
use kete::solve::db::Tablebase;
use kete::solve::split::JobsFile;
use kete::variants::{SolveVisitor, Variant, VariantVisitor};

use crate::solve::{self, SolveArgs};
use crate::variant_args::VariantArgs;

#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Build a book of the positions fewer than PLIES moves from the start.
    #[command(
        after_help = "Example: Kalah(6,4)'s book, exact values by the solver\n  \
kete book build --variant kalah --plies 4 --jobs kalah-book-jobs --out kalah.book"
    )]
    Build(BuildArgs),
    /// Show the moves the book gives a position (the start position unless
    /// --fen or --moves say otherwise).
    #[command(after_help = "Example:\n  kete book show --variant kalah --moves C")]
    Show(ShowArgs),
}

#[derive(Args)]
struct BuildArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// Moves from the start: the book holds every position fewer than this
    /// many moves from it (a move that keeps the turn counts as one).
    #[arg(long)]
    plies: usize,
    /// Where the book is written.
    #[arg(long)]
    out: PathBuf,
    /// By the solver: the split's folder, where each solved position's
    /// result is kept (a build run again resumes from them).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["movetime", "depth"])]
    jobs: Option<PathBuf>,
    /// By deep searches: milliseconds for each position's search.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// By deep searches: the depth of each position's search.
    #[arg(long)]
    depth: Option<u32>,
    /// By the solver: another split of the same start (e.g. one move
    /// deep) whose solved jobs give the values of positions above a
    /// `--jobs` split that is not solved to the end; repeatable.
    #[arg(long, value_name = "DIR", requires = "jobs")]
    also: Vec<PathBuf>,
    /// By the solver: solve nothing more, write the book of the jobs solved
    /// so far (a position with an unsolved job below it is left out).
    #[arg(long, requires = "jobs")]
    solved_only: bool,
    /// Threads: positions solved at once (by the solver), or the threads of
    /// each search (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Transposition table of each search or solve in MiB (default: 256 for
    /// a search, sized to the position for a solve).
    #[arg(long)]
    hash: Option<usize>,
    /// Where the solver's database is kept (default: `$KETE_EGTB_DIR`, else
    /// the user's cache folder).
    #[arg(long, value_name = "DIR")]
    egtb_dir: Option<PathBuf>,
}

#[derive(Args)]
struct ShowArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// The position to look up (default: the start).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from there to the position, e.g. "C f".
    #[arg(long)]
    moves: Option<String>,
    /// Read this book file instead of the one compiled in.
    #[arg(long)]
    book: Option<PathBuf>,
}

pub fn run(args: &BookArgs, command_line: String) -> Result<()> {
    match &args.command {
        BookCommand::Build(b) => build(b, command_line),
        BookCommand::Show(s) => {
            let variant = s.variant.variant().map_err(|e| anyhow!(e))?;
            variant.visit(Show(s))
        }
    }
}

/// What a book file says about itself: the variant, its options and how
/// it was made.
fn heading(variant: &Variant, how: &str, command_line: &str) -> String {
    let options: Vec<String> = variant
        .option_values()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!(
        "kete opening book: {} {}\n{how}\nbuilt by: {command_line}",
        variant.name(),
        options.join(" ")
    )
}

fn build(args: &BuildArgs, command_line: String) -> Result<()> {
    if args.plies == 0 {
        bail!("--plies takes at least 1 move");
    }
    if let Some(d) = args.depth
        && !(1..=kete::search::MAX_DEPTH).contains(&d)
    {
        bail!(
            "--depth {d} is not a depth from 1 to {}",
            kete::search::MAX_DEPTH
        );
    }
    if args.movetime == Some(0) {
        bail!("--movetime takes at least 1 ms");
    }
    if args.hash == Some(0) {
        bail!("--hash takes at least 1 MiB");
    }
    // Said before hours of solving or searching, not after.
    let folder = args.out.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(folder) = folder
        && !folder.is_dir()
    {
        bail!(
            "cannot write {}: {} is not a folder",
            args.out.display(),
            folder.display()
        );
    }
    let variant = args.variant.variant().map_err(|e| anyhow!(e))?;
    let t = Instant::now();
    let text = if args.movetime.is_some() || args.depth.is_some() {
        variant.visit(BySearch(args, &variant, command_line))?
    } else {
        let Some(dir) = &args.jobs else {
            bail!(
                "give --jobs DIR to build the book by the solver, or --movetime/--depth to build it by searches"
            );
        };
        let also = args
            .also
            .iter()
            .map(|d| solve::read_jobs(d))
            .collect::<Result<Vec<_>>>()?;
        variant.visit_solver(BySolver(args, &variant, dir, command_line, &also))?
    };
    let positions = text.lines().filter(|l| !l.starts_with('#')).count();
    std::fs::write(&args.out, &text)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "book: {positions} positions, {} bytes in {} ({:.1} s)",
        text.len(),
        args.out.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

struct BySearch<'a>(&'a BuildArgs, &'a Variant, String);

impl VariantVisitor for BySearch<'_> {
    type Output = Result<String>;
    fn visit<G: Game>(self, rules: G::Rules) -> Result<String> {
        let args = self.0;
        let limits = Limits {
            movetime: args.movetime.map(Duration::from_millis),
            depth: args.depth,
            ..Limits::default()
        };
        let settings = Settings::<G> {
            threads: kete::solve::egtb::threads_or_cores(args.threads),
            ..Settings::default()
        };
        let root = G::start(&rules);
        let book = kete::search::book::build_by_search(
            &root,
            args.plies,
            &limits,
            &settings,
            args.hash.unwrap_or(256),
            &mut |i, n, pos, found| {
                eprintln!(
                    "book: {}/{n} {} {} score {:+}",
                    i + 1,
                    pos.to_notation(),
                    pos.format_move(found.mv),
                    found.score
                )
            },
        );
        let how = match (args.movetime, args.depth) {
            (Some(ms), None) => {
                format!("best moves of searches of {ms} ms each (score: centiseeds)")
            }
            (None, Some(d)) => format!("best moves of searches to depth {d} (score: centiseeds)"),
            _ => "best moves of searches (score: centiseeds)".to_string(),
        };
        Ok(book.to_text(&rules, &heading(self.1, &how, &self.2)))
    }
}

/// The build by the solver: the arguments, the variant, the jobs folder,
/// the command line, and the `--also` splits read.
struct BySolver<'a>(
    &'a BuildArgs,
    &'a Variant,
    &'a PathBuf,
    String,
    &'a [JobsFile],
);

impl BySolver<'_> {
    /// Every `--also` split is one of the book's start, its game and rules.
    fn check_also<G: Game>(&self, root: &G) -> Result<()> {
        let options = solve::jobs_options(self.1);
        let start = root.to_notation();
        for (dir, split) in self.0.also.iter().zip(self.4) {
            if split.variant != self.1.name() || split.options != options || split.root != start {
                bail!(
                    "{} is a split of {} {}, not of the book's start {} {}",
                    dir.display(),
                    split.variant,
                    split.root,
                    self.1.name(),
                    start
                );
            }
        }
        Ok(())
    }

    fn run<G: SolveGame>(self, rules: G::Rules, db: Option<&dyn Tablebase<G>>) -> Result<String> {
        let (args, variant, dir) = (self.0, self.1, self.2);
        let root = G::start(&rules);
        self.check_also(&root)?;
        let file = solve::jobs_file(&root, args.plies, variant);
        solve::write_jobs(dir, &file)?;
        let (_, mut missing, _, _) = solve::job_values(&root, dir, &file)?;
        if args.solved_only {
            missing.clear();
        }
        let workers = kete::solve::egtb::threads_or_cores(args.threads).min(missing.len().max(1));
        let solve_args = SolveArgs {
            threads: 1,
            hash: args.hash,
            ..SolveArgs::default()
        };
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let failed = parking_lot::Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&id) = missing.get(i) else { break };
                        if failed.lock().is_some() {
                            break;
                        }
                        match solve::solve_job(&root, &solve_args, dir, &file.jobs[id], db, false) {
                            Ok(r) => {
                                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                                eprintln!(
                                    "book: solved {n}/{} (job {id}, {}) value {:+} in {:.2} s",
                                    missing.len(),
                                    r.fen,
                                    r.value,
                                    r.seconds
                                );
                            }
                            Err(e) => {
                                failed.lock().get_or_insert(e);
                            }
                        }
                    }
                });
            }
        });
        if let Some(e) = failed.into_inner() {
            return Err(e);
        }
        let (mut values, missing, _, _) = solve::job_values(&root, dir, &file)?;
        for (other, split) in args.also.iter().zip(self.4) {
            let (more, _, _, _) = solve::job_values(&root, other, split)?;
            values.extend(more);
        }
        if !missing.is_empty() && !args.solved_only {
            bail!("{} jobs of {} have no result", missing.len(), dir.display());
        }
        let (above, unsolved) =
            kete::solve::split::known_values_above(&root, args.plies, &|k| values.get(k).copied());
        if !unsolved.is_empty() {
            eprintln!(
                "book: {} of the {} jobs are not solved yet: the positions above them are left out",
                unsolved.len(),
                file.jobs.len()
            );
        }
        let mut book = Book::<G>::default();
        for (pos, moves) in &above {
            let moves = moves
                .iter()
                .map(|&(mv, v)| BookMove { mv, score: 100 * v })
                .collect();
            book.insert(pos, moves);
        }
        let solved = if unsolved.is_empty() {
            format!("the {} positions", file.jobs.len())
        } else {
            format!(
                "{} of the {} positions (the positions above the others are left out)",
                file.jobs.len() - unsolved.len(),
                file.jobs.len()
            )
        };
        let also: Vec<String> = args.also.iter().map(|d| d.display().to_string()).collect();
        let how = format!(
            "exact values by the solver: each move's score is 100 x the final margin in seeds \
(side to move's view) with perfect play; {solved} {} moves from the start solved{}",
            args.plies,
            if also.is_empty() {
                String::new()
            } else {
                format!(", and the positions of the splits in {}", also.join(", "))
            }
        );
        Ok(book.to_text(&rules, &heading(variant, &how, &self.3)))
    }
}

impl SolveVisitor for BySolver<'_> {
    type Output = Result<String>;
    fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Result<String> {
        let start = G::start(&rules);
        // Refused before a database is built or loaded for nothing.
        self.check_also(&start)?;
        let solve_args = SolveArgs {
            egtb_dir: self.0.egtb_dir.clone(),
            threads: self.0.threads,
            ..SolveArgs::default()
        };
        // A book's positions repeat nothing yet, so the database chosen
        // for the start position holds for every job.
        let db = if G::CAN_REPEAT {
            None
        } else {
            solve::database::<G>(&solve_args, &rules, Some(start.seeds_in_play() as usize))?
        };
        if let Some(db) = &db {
            db.check::<G>(&rules)?;
        }
        self.run::<G>(rules, db.as_ref().map(|d| d as &dyn Tablebase<G>))
    }
    fn solvable<G: SolveGame>(self, rules: G::Rules) -> Result<String> {
        self.run::<G>(rules, None)
    }
    fn unsolvable<G: Game>(self, _: G::Rules, why: &'static str) -> Result<String> {
        bail!(
            "{} cannot be solved ({why}): build its book by searches (--movetime or --depth)",
            self.1.name()
        )
    }
}

struct Show<'a>(&'a ShowArgs);

impl VariantVisitor for Show<'_> {
    type Output = Result<()>;
    fn visit<G: Game>(self, rules: G::Rules) -> Result<()> {
        let args = self.0;
        let (text, source) = match &args.book {
            Some(path) => (
                std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?,
                path.display().to_string(),
            ),
            None => (
                G::book(&rules).to_string(),
                "the book compiled in".to_string(),
            ),
        };
        let book = Book::<G>::parse(&rules, &text).with_context(|| source.clone())?;
        if book.is_empty() {
            bail!("{source} has no positions for these rules");
        }
        let mut pos = match &args.fen {
            Some(fen) => {
                G::from_notation(&rules, fen).map_err(|e| anyhow!("bad --fen '{fen}': {e}"))?
            }
            None => G::start(&rules),
        };
        for (i, m) in args
            .moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .enumerate()
        {
            let mv = pos
                .parse_move(m)
                .map_err(|e| anyhow!("--moves: move {} '{m}': {e}", i + 1))?;
            pos = pos.play(mv);
        }
        println!("{}: {} positions", source, book.len());
        println!("position {}", pos.to_notation());
        let moves = book.moves(&pos);
        if moves.is_empty() {
            println!("not in the book");
        }
        for m in moves {
            println!("  {:<4} {:+}", pos.format_move(m.mv), m.score);
        }
        Ok(())
    }
}
