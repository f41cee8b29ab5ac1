//! `kete solve` and `kete egtb`: the command lines over [`super::solve`] and
//! [`super::egtb`]. The binary only parses the variant options and hands
//! over.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use super::db::{DbGame, DbSpec, Egtb, Tablebase};
use super::egtb::{BuildOptions, BuildProgress};
use super::{SolveGame, SolveOptions, SolveProgress};
use crate::game::{Game, Side};
use crate::variants::{SolveVisitor, Variant};

/// The options of `kete solve` besides the variant.
#[derive(Args, Clone, Debug)]
pub struct SolveArgs {
    /// Solve this position instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Transposition table size in MiB (default: sized to the position,
    /// at most 512).
    #[arg(long)]
    pub hash: Option<usize>,
    /// Probe this endgame database (built by `kete egtb build`).
    #[arg(long)]
    pub egtb: Option<PathBuf>,
    /// Build a database of up to this many seeds in memory first (Kalah,
    /// and Oware under the rules chosen); its build time is part of the
    /// solve.
    #[arg(long)]
    pub egtb_seeds: Option<usize>,
    /// List every best move, not just one.
    #[arg(long)]
    pub all_best: bool,
    /// Threads for building a database (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Enhanced transposition cutoffs at nodes with at least this many
    /// seeds in play (they cost a table probe per child).
    #[arg(long)]
    pub etc_seeds: Option<u32>,
    /// Games whose positions repeat (Oware): build the graph of the
    /// positions reachable from the one solved when there are at most this
    /// many (about 80 bytes each), to solve the split rule without a search
    /// and to key the table on less of the line; 0 never builds it.
    #[arg(long, default_value_t = 4_000_000)]
    pub graph_positions: usize,
    /// The first guess of MTD(f) (South's view); by default a quick search
    /// makes one.
    #[arg(long, allow_hyphen_values = true)]
    pub guess: Option<i32>,
}

/// Runs `kete solve`: progress on stderr, then one stdout line
/// `value <margin for South> best <moves>`.
pub fn run_solve(variant: Variant, args: &SolveArgs) -> Result<()> {
    struct Solve<'a>(&'a SolveArgs, &'static str);
    impl SolveVisitor for Solve<'_> {
        type Output = Result<()>;
        fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Result<()> {
            let args = self.0;
            let pos = position::<G>(&rules, args)?;
            let db = database(args, || G::db_game(&rules).map_err(|e| anyhow!(e)))?;
            if let Some(db) = &db {
                db.check::<G>(&rules)?;
                if let Some(note) = G::db_note(db) {
                    eprintln!("note: {note}");
                }
            }
            solve_and_print(
                &pos,
                pos.pits_per_row(),
                args,
                db.as_ref().map(|d| d as &dyn Tablebase<G>),
            )
        }
        fn solvable<G: SolveGame>(self, rules: G::Rules) -> Result<()> {
            let args = self.0;
            if args.egtb.is_some() || args.egtb_seeds.is_some() {
                bail!("there are no endgame databases for {}", self.1);
            }
            let pos = position::<G>(&rules, args)?;
            solve_and_print(&pos, pos.pits_per_row(), args, None)
        }
        fn unsolvable<G: Game>(self, _: G::Rules, why: &'static str) -> Result<()> {
            bail!("kete solve cannot solve {}: {why}", self.1)
        }
    }
    variant.visit_solver(Solve(args, variant.name()))
}

fn position<G: Game>(rules: &G::Rules, args: &SolveArgs) -> Result<G> {
    match &args.fen {
        Some(fen) => G::from_notation(rules, fen).with_context(|| format!("bad --fen '{fen}'")),
        None => Ok(G::start(rules)),
    }
}

fn database(args: &SolveArgs, game: impl FnOnce() -> Result<DbGame>) -> Result<Option<Egtb>> {
    match (&args.egtb, args.egtb_seeds) {
        (Some(_), Some(_)) => bail!("give --egtb or --egtb-seeds, not both"),
        (Some(path), None) => {
            let t = Instant::now();
            let db = super::load(path).with_context(|| format!("loading {}", path.display()))?;
            eprintln!(
                "egtb: loaded {} up to {} seeds in {:.1} s",
                db.game().describe(),
                db.max_seeds(),
                t.elapsed().as_secs_f64()
            );
            Ok(Some(db))
        }
        (None, Some(n)) => {
            let game = game()?;
            super::egtb::check_request(game, n)?;
            let shown = BuildReporter::new(game, n);
            let db = super::egtb::build(game, n, &shown.options(args.threads), &mut |p| {
                shown.report(p)
            })?;
            shown.finish();
            Ok(Some(db))
        }
        (None, None) => Ok(None),
    }
}

/// The default table for a position of `seeds` seeds in play on `pits`
/// pits a row: one 16-byte entry for every board those seeds can make
/// (the tables key on the board seen from the side to move; far fewer are
/// reached), rounded up to a power of two; at most the old fixed 512 MiB.
/// Small solves then start at once instead of clearing half a gigabyte.
pub fn fitted_hash_mb(seeds: u32, pits: u32) -> usize {
    const CAP: usize = 512;
    let holes = 2 * pits as u64;
    // C(seeds + holes - 1, holes - 1), stopping once it is past the cap.
    let mut boards: u64 = 1;
    for i in 1..holes {
        boards = boards.saturating_mul(seeds as u64 + i) / i;
        if boards > 1 << 40 {
            return CAP;
        }
    }
    let bytes = boards.saturating_mul(16);
    let mb = bytes.div_ceil(1 << 20).max(1).next_power_of_two();
    (mb as usize).min(CAP)
}

fn solve_and_print<G: SolveGame>(
    pos: &G,
    pits: u32,
    args: &SolveArgs,
    db: Option<&dyn Tablebase<G>>,
) -> Result<()> {
    let side = pos.side_to_move();
    let hash_mb = args
        .hash
        .unwrap_or_else(|| fitted_hash_mb(pos.seeds_in_play(), pits));
    eprintln!("table: {hash_mb} MiB");
    let mut opts = SolveOptions {
        hash_mb,
        all_best: args.all_best,
        graph_budget: args.graph_positions,
        guess: args.guess.map(|g| if side == Side::South { g } else { -g }),
        ..Default::default()
    };
    if let Some(e) = args.etc_seeds {
        opts.etc_min_seeds = e;
    }
    let south = |v: i32| if side == Side::South { v } else { -v };
    let mut report = |p: &SolveProgress| {
        // The bounds are shown for South, like the final line.
        let (lo, hi) = if side == Side::South {
            (p.lower, p.upper)
        } else {
            (-p.upper, -p.lower)
        };
        eprintln!(
            "{} {:>3} window [{},{}] value in [{lo:+},{hi:+}]{} nodes {} tbhits {} time {:.2} s ({:.1} M nodes/s)",
            if p.pass_done { "pass" } else { "  .." },
            p.pass,
            p.beta - 1,
            p.beta,
            if p.pass_done {
                String::new()
            } else {
                format!(" root move {}/{}", p.root_moves.0, p.root_moves.1)
            },
            p.nodes,
            p.tbhits,
            p.elapsed.as_secs_f64(),
            p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9) / 1e6
        );
    };
    let r = super::solve_with_tablebase(pos, &opts, db, &mut report);
    let moves: Vec<String> = r.best.iter().map(|&m| pos.format_move(m)).collect();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "value {:+} best {}",
        south(r.value),
        if moves.is_empty() {
            "-".to_string()
        } else {
            moves.join(" ")
        }
    )?;
    Ok(())
}

/// Shows a database build on stderr: a progress bar over all its positions
/// when stderr is a terminal, plain lines otherwise (logs, scripts, tests).
struct BuildReporter {
    bar: Option<ProgressBar>,
    /// Positions per seed count, and of all counts below each.
    counts: Vec<u64>,
    below: Vec<u64>,
    max_seeds: usize,
}

impl BuildReporter {
    fn new(game: DbGame, max_seeds: usize) -> BuildReporter {
        let ix = super::index::Indexer::new(2 * game.pits(), max_seeds);
        let counts: Vec<u64> = (0..=max_seeds).map(|n| ix.count(n)).collect();
        let below = counts
            .iter()
            .scan(0, |sum, &c| {
                let b = *sum;
                *sum += c;
                Some(b)
            })
            .collect();
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(counts.iter().sum());
            bar.set_style(
                ProgressStyle::with_template(
                    "egtb [{elapsed_precise}] [{wide_bar}] {percent:>3}% eta {eta} {msg}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        });
        BuildReporter {
            bar,
            counts,
            below,
            max_seeds,
        }
    }

    fn options(&self, threads: usize) -> BuildOptions {
        BuildOptions {
            threads,
            report_every: if self.bar.is_some() {
                Duration::from_millis(250)
            } else {
                Duration::from_secs(2)
            },
        }
    }

    fn report(&self, p: &BuildProgress) {
        let Some(bar) = &self.bar else {
            return print_build_line(p);
        };
        // A count built in stages (Oware) looks at every position in the
        // first and decides them in the later ones: half its share each.
        let done = p.done.min(p.total);
        let part = if p.finished {
            p.total
        } else if p.stages == 1 {
            done
        } else if p.stage == 1 {
            done / 2
        } else {
            p.total / 2 + done / 2
        };
        bar.set_position(self.below[p.seeds] + part.min(self.counts[p.seeds]));
        bar.set_message(if p.stages > 1 && !p.finished {
            format!(
                "{}/{} seeds, stage {}/{}",
                p.seeds, self.max_seeds, p.stage, p.stages
            )
        } else {
            format!("{}/{} seeds", p.seeds, self.max_seeds)
        });
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn print_build_line(p: &BuildProgress) {
    if p.finished {
        eprintln!(
            "egtb: {:>2} seeds done: {} positions, {:.1} s",
            p.seeds,
            p.total,
            p.elapsed.as_secs_f64()
        );
    } else {
        eprintln!(
            "egtb: {:>2} seeds, stage {}/{}: {} of {} ({:.1} s)",
            p.seeds,
            p.stage,
            p.stages,
            p.done,
            p.total,
            p.elapsed.as_secs_f64(),
        );
    }
}

/// `kete egtb …`.
#[derive(Args, Clone, Debug)]
pub struct EgtbArgs {
    #[command(subcommand)]
    pub command: EgtbCommand,
}

#[derive(Subcommand, Clone, Debug)]
pub enum EgtbCommand {
    /// Build a database of all positions with up to N seeds on the board.
    Build {
        /// The variant and its rules, as everywhere (a variant with
        /// databases: kalah, or oware under either rule set).
        #[command(flatten)]
        variant: crate::cli::VariantArgs,
        #[arg(long)]
        max_seeds: usize,
        #[arg(long)]
        out: PathBuf,
        /// Worker threads (0: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// Check every value of a database against the moves of its position.
    Verify {
        file: PathBuf,
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// One line per seed count: positions, wins, draws, losses, sum.
    Stats { file: PathBuf },
}

/// Runs `kete egtb …`.
pub fn run_egtb(args: &EgtbArgs) -> Result<()> {
    match &args.command {
        EgtbCommand::Build {
            variant,
            max_seeds,
            out,
            threads,
        } => {
            // The options are read and checked by the variant, as everywhere.
            let v = variant.variant().map_err(|e| anyhow!(e))?;
            let game = v.visit_solver(DbOf)?;
            super::egtb::check_request(game, *max_seeds)?;
            let shown = BuildReporter::new(game, *max_seeds);
            let t = Instant::now();
            let db = super::egtb::build(game, *max_seeds, &shown.options(*threads), &mut |p| {
                shown.report(p)
            })?;
            shown.finish();
            let secs = t.elapsed().as_secs_f64();
            let positions: u64 = (0..=*max_seeds).map(|n| db.indexer().count(n)).sum();
            let cores = if *threads > 0 {
                *threads
            } else {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            };
            eprintln!(
                "egtb: built {positions} positions in {secs:.1} s: {:.0} positions/s, {:.0} per thread ({cores} threads)",
                positions as f64 / secs,
                positions as f64 / secs / cores as f64
            );
            db.save(out)
                .with_context(|| format!("writing {}", out.display()))?;
            eprintln!("egtb: wrote {}", out.display());
            Ok(())
        }
        EgtbCommand::Verify { file, threads } => {
            let db = super::load(file).with_context(|| format!("loading {}", file.display()))?;
            let shown = BuildReporter::new(db.game(), db.max_seeds());
            let (checked, bad) =
                super::egtb::verify(&db, &shown.options(*threads), 10, &mut |p| shown.report(p));
            shown.finish();
            for m in &bad {
                eprintln!(
                    "mismatch: {} seeds, index {}, board {:?}: stored {}, its moves give {}",
                    m.seeds, m.index, m.board, m.stored, m.expected
                );
            }
            if !bad.is_empty() {
                bail!("{} is not consistent", file.display());
            }
            println!(
                "ok: {checked} positions of {} up to {} seeds are consistent with their moves",
                db.game().describe(),
                db.max_seeds()
            );
            Ok(())
        }
        EgtbCommand::Stats { file } => {
            let db = super::load(file).with_context(|| format!("loading {}", file.display()))?;
            let mut out = std::io::stdout().lock();
            for s in super::egtb::stats(&db) {
                writeln!(out, "{s}")?;
            }
            Ok(())
        }
    }
}

/// The database of a variant under its rules, or why it has none.
struct DbOf;

impl SolveVisitor for DbOf {
    type Output = Result<DbGame>;
    fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Result<DbGame> {
        G::db_game(&rules).map_err(|e| anyhow!(e))
    }
    fn solvable<G: SolveGame>(self, _: G::Rules) -> Result<DbGame> {
        bail!("this variant has no endgame databases (it is solved without them)")
    }
    fn unsolvable<G: Game>(self, _: G::Rules, why: &'static str) -> Result<DbGame> {
        bail!("this variant has no endgame databases: {why}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_table_fits_the_position() {
        // Kalah(4,3): 24 seeds on 8 pits, C(31,7) = 2,629,575 boards, 42 MB.
        assert_eq!(super::fitted_hash_mb(24, 4), 64);
        // 18 seeds on 6 pits: C(23,5) = 33,649 boards, 0.5 MB.
        assert_eq!(super::fitted_hash_mb(18, 3), 1);
        assert_eq!(super::fitted_hash_mb(2, 1), 1);
        // The start of Kalah(6,4): C(59,11) boards, capped.
        assert_eq!(super::fitted_hash_mb(48, 6), 512);
    }
}
