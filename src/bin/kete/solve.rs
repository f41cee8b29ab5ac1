//! `kete solve` and `kete egtb`: the command lines over [`kete::solve::solve`] and
//! [`kete::solve::egtb`]. The binary only parses the variant options and hands
//! over.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use kete::game::SolveGame;
use kete::game::{DbGame, DbSpec};
use kete::game::{Game, Side};
use kete::solve::db::{Egtb, Tablebase};
use kete::solve::egtb::{BuildOptions, BuildProgress};
use kete::solve::resources::{fitted_graph_positions, fitted_hash_mb_within};
use kete::solve::split::{Job, JobResult, JobsFile};
use kete::solve::{SolveOptions, SolveProgress};
use kete::variants::{SolveVisitor, Variant};

/// The options of `kete solve` besides the variant.
#[derive(Args, Clone, Debug, Default)]
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
    /// Where databases chosen for the solve are kept, built the first time
    /// and loaded afterwards (default: `$KETE_EGTB_DIR`, else the user's
    /// cache folder, `~/.cache/kete/egtb`).
    #[arg(long, value_name = "DIR")]
    pub egtb_dir: Option<PathBuf>,
    /// Use no database, not even the one the solve would choose.
    #[arg(long, conflicts_with_all = ["egtb", "egtb_seeds", "egtb_dir"])]
    pub no_egtb: bool,
    /// List every best move, not just one.
    #[arg(long)]
    pub all_best: bool,
    /// Threads for the solve and for building a database (0: one per
    /// core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Enhanced transposition cutoffs at nodes with at least this many
    /// seeds in play (they cost a table probe per child).
    #[arg(long)]
    pub etc_seeds: Option<u32>,
    /// Games whose positions repeat (Oware): build the graph of the
    /// positions reachable from the one solved when there are at most this
    /// many (about 120 bytes each with all the solve keeps of them), to
    /// solve the split rule without a search and to key the table on less
    /// of the line; 0 never builds it. Default: one position for every 160
    /// bytes of free memory, between 4 and 40 million (Oware 4x3 has 31.7
    /// million).
    #[arg(long)]
    pub graph_positions: Option<usize>,
    /// The first guess of MTD(f) (South's view); by default a quick search
    /// makes one.
    #[arg(long, allow_hyphen_values = true)]
    pub guess: Option<i32>,
    /// Split the solve for a cluster: write the distinct positions PLIES
    /// moves from the position as jobs into `--jobs DIR`.
    #[arg(long, value_name = "PLIES", requires = "jobs")]
    pub split: Option<usize>,
    /// Where `--split` writes its jobs.
    #[arg(long, value_name = "DIR", requires = "split")]
    pub jobs: Option<PathBuf>,
    /// Solve job I of the split in DIR (the variant, its options and the
    /// position come from DIR/jobs.json) and write its value there.
    #[arg(long, num_args = 2, value_names = ["DIR", "I"], conflicts_with_all = ["split", "combine", "fen"])]
    pub job: Option<Vec<String>>,
    /// Back the values of the solved jobs in DIR up to the split's root and
    /// print its value and best moves, like a plain solve.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["split", "fen", "egtb", "egtb_seeds"])]
    pub combine: Option<PathBuf>,
    /// Bao: give up after this many nodes, unproven.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Give up after this many seconds: Bao's proof search ends unproven,
    /// a solve by counting prints the bounds it has proved
    #[arg(long)]
    pub time: Option<f64>,
}

/// What `kete solve` is asked to do.
#[derive(Clone, Copy)]
enum Mode<'a> {
    Plain,
    Split(usize, &'a std::path::Path, &'a Variant),
    Job(&'a std::path::Path, usize, &'a JobsFile),
    Combine(&'a std::path::Path, &'a JobsFile),
}

/// Runs `kete solve`: progress on stderr, then one stdout line
/// `value <margin for South> best <moves>`.
pub fn run_solve(variant: Variant, args: &SolveArgs) -> Result<()> {
    struct Solve<'a>(&'a SolveArgs, &'static str, Mode<'a>);
    impl SolveVisitor for Solve<'_> {
        type Output = Result<()>;
        fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Result<()> {
            let args = self.0;
            counting_only(args, self.1, &self.2)?;
            if (args.egtb.is_some() || args.egtb_seeds.is_some())
                && let Some(why) = G::db_refused(&rules)
            {
                bail!("no database for this solve: {why}");
            }
            if !matches!(self.2, Mode::Plain | Mode::Job(..)) {
                return run_mode::<G>(&rules, args, self.2, None);
            }
            // A bad --fen is named before any database is built; the
            // database chosen by default fits the position solved (a job's:
            // its split's root).
            let pos = match self.2 {
                Mode::Job(dir, _, file) => G::from_notation(&rules, &file.root)
                    .map_err(|e| anyhow!("the root of {}: {e}", dir.display()))?,
                _ => position::<G>(&rules, args)?,
            };
            // A job starts after a line, and a database's values hold for
            // a position whatever came before it only where nothing
            // repeats: jobs of games that repeat take one only when named.
            let seeds = match self.2 {
                Mode::Job(..) if G::CAN_REPEAT => None,
                _ => Some(pos.seeds_in_play() as usize),
            };
            let db = database::<G>(args, &rules, seeds)?;
            if let Some(db) = &db {
                db.check::<G>(&rules)?;
                if let Some(note) = G::db_note(db.max_seeds()) {
                    eprintln!("note: {note}");
                }
            }
            run_mode(
                &rules,
                args,
                self.2,
                db.as_ref().map(|d| d as &dyn Tablebase<G>),
            )
        }
        fn solvable<G: SolveGame>(self, rules: G::Rules) -> Result<()> {
            let args = self.0;
            counting_only(args, self.1, &self.2)?;
            if args.egtb.is_some() || args.egtb_seeds.is_some() {
                bail!("there are no endgame databases for {}", self.1);
            }
            run_mode::<G>(&rules, args, self.2, None)
        }
        fn provable<G: Game>(self, rules: G::Rules) -> Result<()> {
            let args = self.0;
            if !matches!(self.2, Mode::Plain) {
                bail!(
                    "--split, --job and --combine split solves by counting; {} is proved won or lost as a whole",
                    self.1
                );
            }
            let pos = position::<G>(&rules, args)?;
            prove_and_print(&pos, args, self.1)
        }
        fn unsolvable<G: Game>(self, _: G::Rules, why: &'static str) -> Result<()> {
            bail!("kete solve cannot solve {}: {why}", self.1)
        }
    }
    if let Some(dir) = &args.combine {
        let file = read_jobs(dir)?;
        let v = jobs_variant(&file)?;
        return v.visit_solver(Solve(args, v.name(), Mode::Combine(dir, &file)));
    }
    if let Some(job) = &args.job {
        let dir = std::path::Path::new(&job[0]);
        let file = read_jobs(dir)?;
        let id: usize = job[1]
            .parse()
            .ok()
            .filter(|&i| i < file.jobs.len())
            .ok_or_else(|| {
                anyhow!(
                    "job '{}' is not a job number of {} (0 to {})",
                    job[1],
                    dir.display(),
                    file.jobs.len().saturating_sub(1)
                )
            })?;
        let v = jobs_variant(&file)?;
        return v.visit_solver(Solve(args, v.name(), Mode::Job(dir, id, &file)));
    }
    let mode = match (args.split, &args.jobs) {
        (Some(0), _) => bail!("--split takes at least 1 move"),
        (Some(plies), Some(dir)) => {
            if args.egtb.is_some() || args.egtb_seeds.is_some() {
                bail!(
                    "--egtb and --egtb-seeds go with --job (each job probes the database), not --split"
                );
            }
            Mode::Split(plies, dir, &variant)
        }
        _ => Mode::Plain,
    };
    variant.visit_solver(Solve(args, variant.name(), mode))
}

/// Refuses the limit that only the proof-number search has, and a time
/// limit where nothing is searched: a solve by counting runs to its end
/// unless `--time` stops it first.
fn counting_only(args: &SolveArgs, name: &str, mode: &Mode) -> Result<()> {
    if args.nodes.is_some() {
        bail!(
            "--nodes limits only the proof search of a game won or lost without counting (Bao); {name} is solved by counting: limit it with --time"
        );
    }
    time_limit(args)?;
    if args.time.is_some() && matches!(mode, Mode::Split(..) | Mode::Combine(..)) {
        bail!(
            "--time limits a solve (a plain one or a --job); --split and --combine search nothing"
        );
    }
    Ok(())
}

/// `--time` as a duration, refused unless a positive number of seconds.
fn time_limit(args: &SolveArgs) -> Result<Option<Duration>> {
    match args.time {
        Some(t) if !(t > 0.0 && t.is_finite() && t < 1e9) => {
            bail!("--time {t} is not a positive number of seconds")
        }
        Some(t) => Ok(Some(Duration::from_secs_f64(t))),
        None => Ok(None),
    }
}

/// Runs the proof-number search on `pos` (`kete solve` for a game won or
/// lost without counting): progress on stderr, then one stdout line,
/// `mate N best M pv …` (N > 0: the side to move wins in N of his moves;
/// N < 0: he loses, his opponent winning in -N) or `unproven …` with the
/// proof and disproof numbers reached.
fn prove_and_print<G: Game>(pos: &G, args: &SolveArgs, name: &str) -> Result<()> {
    let refused = [
        (args.egtb.is_some(), "--egtb"),
        (args.egtb_seeds.is_some(), "--egtb-seeds"),
        (args.all_best, "--all-best"),
        (args.etc_seeds.is_some(), "--etc-seeds"),
        (args.guess.is_some(), "--guess"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        bail!("{flag} does not apply to {name}: it is proved won or lost, not solved by counting");
    }
    let time = time_limit(args)?;
    if args.nodes == Some(0) {
        bail!("--nodes 0 leaves nothing to search");
    }
    let hash_mb = args.hash.unwrap_or(kete::solve::pns::DEFAULT_HASH_MB);
    eprintln!("table: {hash_mb} MiB");
    let opts = kete::solve::pns::ProveOptions {
        hash_mb,
        nodes: args.nodes,
        time,
        ..Default::default()
    };
    let mover = pos.side_to_move();
    let name_of = |s: Side| if s == Side::South { "South" } else { "North" };
    let report = move |p: &kete::solve::pns::ProveProgress| {
        eprintln!(
            "  .. {} to move: win pn {} dn {} / loss pn {} dn {}; nodes {} max-ply {} hashfull {} time {:.1} s ({:.0} nodes/s)",
            name_of(mover),
            number(p.win.pn),
            number(p.win.dn),
            number(p.loss.pn),
            number(p.loss.dn),
            p.nodes,
            p.max_ply,
            p.hashfull,
            p.elapsed.as_secs_f64(),
            p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9)
        );
    };
    // The proof recurses once per ply of its line: a thread with the
    // stack the protocol's solving thread has.
    let r = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(kete::solve::resources::STACK)
            .spawn_scoped(s, || {
                let mut report = report;
                kete::solve::pns::prove(pos, &opts, &mut report)
            })
            .context("starting the proof's thread")?
            .join()
            .map_err(|_| anyhow!("the proof's thread failed"))
    })?;
    let mut out = std::io::stdout().lock();
    let stats = format!(
        "nodes {} (shorter win {}) max-ply {} hashfull {} time {:.2} s",
        r.nodes,
        r.shorten_nodes,
        r.max_ply,
        r.hashfull,
        r.elapsed.as_secs_f64()
    );
    use kete::solve::pns::Verdict;
    match r.verdict {
        Verdict::Win | Verdict::Loss => {
            let n = r.winner_moves() as i64;
            let (winner, n) = if r.verdict == Verdict::Win {
                (mover, n)
            } else {
                (mover.other(), -n)
            };
            eprintln!(
                "proven: {} wins in {} moves{}; proof tree {}; {stats}",
                name_of(winner),
                n.abs(),
                if r.shortest {
                    " (the shortest win against the longest defence)"
                } else {
                    " (the proof's line: a shorter win was not ruled out within the budget, or the table could not keep a shorter proof whole; try a larger --hash)"
                },
                r.proof_size.map_or(
                    "not checked (the table lost part of it, or stopped)".to_string(),
                    |n| format!("of {n} positions checked against the rules")
                )
            );
            let best = first_move(pos, &r.pv);
            writeln!(
                out,
                "mate {n} best {best} pv {}",
                kete::protocol::text::line_text(pos, &r.pv)
            )?;
        }
        Verdict::Unproven => {
            eprintln!("unproven: {}; {stats}", r.ended);
            let best = first_move(pos, &r.pv);
            writeln!(
                out,
                "unproven win pn {} dn {} loss pn {} dn {} max-ply {} nodes {} best {best}",
                number(r.win.pn),
                number(r.win.dn),
                number(r.loss.pn),
                number(r.loss.dn),
                r.max_ply,
                r.nodes
            )?;
        }
    }
    Ok(())
}

/// A proof or disproof number, `inf` for the infinite one.
fn number(n: u32) -> String {
    if n == kete::solve::pns::INF {
        "inf".to_string()
    } else {
        n.to_string()
    }
}

fn position<G: Game>(rules: &G::Rules, args: &SolveArgs) -> Result<G> {
    match &args.fen {
        Some(fen) => G::from_notation(rules, fen).with_context(|| format!("bad --fen '{fen}'")),
        None => Ok(G::start(rules)),
    }
}

const JOBS: &str = "jobs.json";

pub(crate) fn read_jobs(dir: &std::path::Path) -> Result<JobsFile> {
    let path = dir.join(JOBS);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read {} (made by kete solve --split)",
            path.display()
        )
    })?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a jobs file", path.display()))
}

/// The variant and options a split was made with.
fn jobs_variant(file: &JobsFile) -> Result<Variant> {
    let mut v = Variant::by_name(&file.variant).map_err(|e| anyhow!(e))?;
    for (k, x) in &file.options {
        v.set_option(k, x).map_err(|e| anyhow!(e))?;
    }
    Ok(v)
}

fn result_path(dir: &std::path::Path, id: usize) -> PathBuf {
    dir.join("results").join(format!("job-{id}.json"))
}

/// The moves of a job's line, read in the positions they are played in.
fn job_moves<G: Game>(root: &G, job: &Job) -> Result<Vec<G::Move>> {
    let mut pos = root.clone();
    let mut moves = Vec::new();
    for m in &job.moves {
        let mv = pos
            .parse_move(m)
            .map_err(|e| anyhow!("job {}: move '{m}': {e}", job.id))?;
        pos = pos.play(mv);
        moves.push(mv);
    }
    if pos.to_notation() != job.fen {
        bail!(
            "job {}: its moves reach {}, not the {} the jobs file says",
            job.id,
            pos.to_notation(),
            job.fen
        );
    }
    Ok(moves)
}

fn run_mode<G: SolveGame>(
    rules: &G::Rules,
    args: &SolveArgs,
    mode: Mode,
    db: Option<&dyn Tablebase<G>>,
) -> Result<()> {
    match mode {
        Mode::Plain => {
            let pos = &position::<G>(rules, args)?;
            let r = solve_reporting(pos, args, db, Vec::new(), true);
            if r.complete {
                print_result(pos, r.value, &r.best)
            } else {
                print_unproven(pos, args, &r)
            }
        }
        Mode::Split(plies, dir, variant) => {
            let pos = &position::<G>(rules, args)?;
            let file = jobs_file(pos, plies, variant);
            write_jobs(dir, &file)?;
            println!("jobs {}", file.jobs.len());
            Ok(())
        }
        Mode::Job(dir, id, file) => {
            let root = G::from_notation(rules, &file.root)
                .map_err(|e| anyhow!("the root of {}: {e}", dir.display()))?;
            let r = solve_job(&root, args, dir, &file.jobs[id], db, true)?;
            let p = G::from_notation(rules, &r.fen).expect("a job's position reads back");
            let best: Vec<G::Move> = r.best.iter().filter_map(|m| p.parse_move(m).ok()).collect();
            print!("job {id} ");
            print_result(&p, r.value, &best)
        }
        Mode::Combine(dir, file) => {
            let root = G::from_notation(rules, &file.root)
                .map_err(|e| anyhow!("the root of {}: {e}", dir.display()))?;
            let (values, missing, nodes, seconds) = job_values(&root, dir, file)?;
            if !missing.is_empty() {
                let shown: Vec<String> = missing.iter().take(12).map(|i| i.to_string()).collect();
                bail!(
                    "{} of the {} jobs in {} have no result yet ({}{}): run kete solve --job {} I for each",
                    missing.len(),
                    file.jobs.len(),
                    dir.display(),
                    shown.join(", "),
                    if missing.len() > 12 { ", …" } else { "" },
                    dir.display()
                );
            }
            let (value, best) =
                kete::solve::split::combine(&root, file.plies, &|k| values.get(k).copied())
                    .map_err(|_| {
                        anyhow!("{} does not hold every job of its split", dir.display())
                    })?;
            eprintln!(
                "combine: {} jobs at {} moves, {nodes} nodes and {seconds:.1} s in all",
                file.jobs.len(),
                file.plies
            );
            print_result(&root, value, &best)
        }
    }
}

/// A variant's options as a jobs file names them.
pub(crate) fn jobs_options(variant: &Variant) -> Vec<(String, String)> {
    variant
        .option_values()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// The split of `pos` into the distinct positions `plies` moves on.
pub(crate) fn jobs_file<G: SolveGame>(pos: &G, plies: usize, variant: &Variant) -> JobsFile {
    JobsFile {
        variant: variant.name().to_string(),
        options: jobs_options(variant),
        root: pos.to_notation(),
        plies,
        jobs: kete::solve::split::split(pos, plies)
            .iter()
            .enumerate()
            .map(|(id, line)| {
                let mut p = pos.clone();
                let moves = line
                    .iter()
                    .map(|&m| {
                        let text = p.format_move(m);
                        p = p.play(m);
                        text
                    })
                    .collect();
                Job {
                    id,
                    moves,
                    fen: p.to_notation(),
                }
            })
            .collect(),
    }
}

/// Solves one job of a split (`root` is the split's) and writes its result
/// file whole; the solve's progress goes to stderr if `verbose`.
pub(crate) fn solve_job<G: SolveGame>(
    root: &G,
    args: &SolveArgs,
    dir: &std::path::Path,
    job: &Job,
    db: Option<&dyn Tablebase<G>>,
    verbose: bool,
) -> Result<JobResult> {
    let id = job.id;
    let moves = job_moves(root, job)?;
    let (p, history, _) = kete::solve::split::replay(root, &moves);
    let path = result_path(dir, id);
    let t = Instant::now();
    let r = solve_reporting(&p, args, db, history, verbose);
    if !r.complete {
        let (lo, hi) = south_bounds(&p, &r);
        bail!(
            "job {id} was not solved within --time {} s: its value (South's view) lies in [{lo:+},{hi:+}]; no result was written",
            args.time.unwrap_or_default()
        );
    }
    let result = JobResult {
        id,
        fen: job.fen.clone(),
        value: r.value,
        best: r.best.iter().map(|&m| p.format_move(m)).collect(),
        nodes: r.nodes,
        seconds: t.elapsed().as_secs_f64(),
    };
    let parent = path.parent().expect("results/ in the jobs folder");
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    // Whole or not at all: the combine step must never read half a
    // result.
    let tmp = path.with_extension(format!("tmp{}-{id}", std::process::id()));
    std::fs::write(&tmp, serde_json::to_string(&result)? + "\n")
        .and_then(|_| std::fs::rename(&tmp, &path))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(result)
}

/// The values of a split's solved jobs by key, the ids of those not solved
/// yet, and the nodes and seconds the solved ones took.
#[allow(clippy::type_complexity)]
pub(crate) fn job_values<G: SolveGame>(
    root: &G,
    dir: &std::path::Path,
    file: &JobsFile,
) -> Result<(
    std::collections::HashMap<kete::solve::split::JobKey, i32>,
    Vec<usize>,
    u64,
    f64,
)> {
    let mut values = std::collections::HashMap::new();
    let mut missing = Vec::new();
    let (mut nodes, mut seconds) = (0u64, 0f64);
    for job in &file.jobs {
        let path = result_path(dir, job.id);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                missing.push(job.id);
                continue;
            }
            Err(e) => {
                return Err(e).with_context(|| format!("cannot read {}", path.display()));
            }
        };
        let r: JobResult = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a job result", path.display()))?;
        if r.id != job.id || r.fen != job.fen {
            bail!(
                "{} is the result of job {} ({}), not of job {} ({})",
                path.display(),
                r.id,
                r.fen,
                job.id,
                job.fen
            );
        }
        let moves = job_moves(root, job)?;
        values.insert(kete::solve::split::replay(root, &moves).2, r.value);
        nodes += r.nodes;
        seconds += r.seconds;
    }
    Ok((values, missing, nodes, seconds))
}

/// The database of a solve: the file named, one built in memory of the
/// seeds asked for, or by default the one the variant chooses for a
/// position of `seeds` seeds in play (`None`: none by default), from the
/// cache folder, built and kept there the first time.
pub(crate) fn database<G: DbSpec>(
    args: &SolveArgs,
    rules: &G::Rules,
    seeds: Option<usize>,
) -> Result<Option<Egtb>> {
    match (&args.egtb, args.egtb_seeds) {
        (None, None) => {
            let Some(c) = seeds
                .filter(|_| !args.no_egtb)
                .and_then(|s| kete::solve::cache::choose::<G>(rules, s))
            else {
                return Ok(None);
            };
            let dir = args
                .egtb_dir
                .clone()
                .or_else(kete::solve::cache::default_dir);
            let shown = BuildReporter::new(c.game, c.seeds);
            let (db, _) = kete::solve::cache::open_or_build(
                dir.as_deref(),
                c.game,
                c.seeds,
                c.max_boards,
                &shown.options(args.threads),
                &mut |p| shown.report(p),
                &mut |m| eprintln!("{m}"),
            )?;
            shown.finish();
            Ok(Some(db))
        }
        (Some(_), Some(_)) => bail!("give --egtb or --egtb-seeds, not both"),
        (Some(path), None) => {
            let t = Instant::now();
            let db =
                kete::solve::load(path).with_context(|| format!("loading {}", path.display()))?;
            eprintln!(
                "egtb: loaded {} up to {} seeds in {:.1} s",
                db.game().describe(),
                db.max_seeds(),
                t.elapsed().as_secs_f64()
            );
            Ok(Some(db))
        }
        (None, Some(n)) => {
            let game = G::db_game(rules).map_err(|e| anyhow!(e))?;
            kete::solve::egtb::check_request(game, n)?;
            let shown = BuildReporter::new(game, n);
            let db = kete::solve::egtb::build(game, n, &shown.options(args.threads), &mut |p| {
                shown.report(p)
            })?;
            shown.finish();
            Ok(Some(db))
        }
    }
}

/// Solves `pos` (after the positions `history`) with the command line's
/// table and guesses, the progress on stderr if `verbose`.
fn solve_reporting<G: SolveGame>(
    pos: &G,
    args: &SolveArgs,
    db: Option<&dyn Tablebase<G>>,
    history: Vec<(u64, u32)>,
    verbose: bool,
) -> kete::solve::SolveResult<G::Move> {
    let side = pos.side_to_move();
    let hash_mb = args.hash.unwrap_or_else(|| {
        fitted_hash_mb_within(pos.seeds_in_play(), pos.pits_per_row(), args.time)
    });
    if verbose {
        let graph = G::CAN_REPEAT && db.is_none() && args.hash.is_none();
        let note = if graph {
            " (4 bytes a position if a graph of more than 4 M is built)"
        } else {
            ""
        };
        eprintln!("table: {hash_mb} MiB{note}");
    }
    let mut opts = SolveOptions {
        hash_mb,
        all_best: args.all_best,
        graph_budget: args
            .graph_positions
            .unwrap_or_else(|| fitted_graph_positions(kete::solve::cache::available_memory())),
        table_fits_graph: args.hash.is_none(),
        guess: args.guess.map(|g| if side == Side::South { g } else { -g }),
        history,
        threads: kete::solve::egtb::threads_or_cores(args.threads),
        ..Default::default()
    };
    if let Some(e) = args.etc_seeds {
        opts.etc_min_seeds = Some(e);
    }
    // The same stop as the protocol's: the solve ends at its next poll with
    // the bounds it has proved.
    let _deadline = args.time.map(|t| {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        opts.stop = Some(stop.clone());
        kete::solve::Deadline::start(Duration::from_secs_f64(t), stop)
    });
    let mut report = |p: &SolveProgress| {
        if !verbose {
            return;
        }
        if let Some(stage) = p.graph {
            eprintln!("{stage} time {:.2} s", p.elapsed.as_secs_f64());
            return;
        }
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
    // Lines run hundreds of plies deep in games that repeat: the solve gets
    // the stack of the protocol's solving thread (the main thread's 8 MiB
    // overflowed on Oware 6x2).
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(kete::solve::resources::STACK)
            .spawn_scoped(s, || {
                kete::solve::solve_with_tablebase(pos, &opts, db, &mut report)
            })
            .expect("the system gives the solver its thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// The answer line: `value <margin for South> best <moves>` (`-` for none).
fn print_result<G: Game>(pos: &G, value: i32, best: &[G::Move]) -> Result<()> {
    let south = if pos.side_to_move() == Side::South {
        value
    } else {
        -value
    };
    let moves: Vec<String> = best.iter().map(|&m| pos.format_move(m)).collect();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "value {south:+} best {}",
        if moves.is_empty() {
            "-".to_string()
        } else {
            moves.join(" ")
        }
    )?;
    Ok(())
}

/// The first of `moves` (played from `pos`) as text, `-` for none.
fn first_move<G: Game>(pos: &G, moves: &[G::Move]) -> String {
    moves
        .first()
        .map_or("-".to_string(), |&m| pos.format_move(m))
}

/// The bounds of a solve stopped early, South's view.
fn south_bounds<G: Game>(pos: &G, r: &kete::solve::SolveResult<G::Move>) -> (i32, i32) {
    if pos.side_to_move() == Side::South {
        (r.lower, r.upper)
    } else {
        (-r.upper, -r.lower)
    }
}

/// The stdout line of a solve that `--time` stopped:
/// `unproven value in [<lower>,<upper>] best <move>` (South's view), the
/// move the best found so far; on stderr, what was proven in words and what
/// to try next.
fn print_unproven<G: Game>(
    pos: &G,
    args: &SolveArgs,
    r: &kete::solve::SolveResult<G::Move>,
) -> Result<()> {
    let (lo, hi) = south_bounds(pos, r);
    let best = first_move(pos, &r.best);
    eprintln!(
        "stopped by --time {} s: {}; {best} is the best move found so far, not proven. \
         To prove more, give it more --time{}.",
        args.time.unwrap_or_default(),
        kete::protocol::text::margin_bounds_words(lo, hi, &pos.words()),
        if args.egtb.is_none() && args.egtb_seeds.is_none() {
            " or a database of the endings (--egtb-seeds N, `kete egtb build`)"
        } else {
            ""
        }
    );
    writeln!(
        std::io::stdout().lock(),
        "unproven value in [{lo:+},{hi:+}] best {best}"
    )?;
    Ok(())
}

/// Writes a split's jobs file; a folder that already holds the same split
/// is left as it is (its results stay), another split is refused.
pub(crate) fn write_jobs(dir: &std::path::Path, file: &JobsFile) -> Result<()> {
    let path = dir.join(JOBS);
    if path.exists() {
        let old = read_jobs(dir)?;
        if old != *file {
            bail!(
                "{} already holds another split ({} {} at {} moves): use another --jobs folder",
                dir.display(),
                old.variant,
                old.root,
                old.plies
            );
        }
    } else {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let tmp = dir.join(format!("{JOBS}.tmp"));
        std::fs::write(&tmp, serde_json::to_string_pretty(file)? + "\n")
            .and_then(|_| std::fs::rename(&tmp, &path))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    eprintln!(
        "split: {} jobs at {} moves from {} in {}",
        file.jobs.len(),
        file.plies,
        file.root,
        path.display()
    );
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
        let ix = game.index(max_seeds).expect("the request was checked");
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
    #[command(
        after_help = "Example: every 3-house Oware board of up to 12 seeds\n  \
kete egtb build --variant oware --pits 3 --max-seeds 12 --out oware3.db"
    )]
    Build {
        /// The variant and its rules, as everywhere (a variant with
        /// databases: kalah, or oware under either rule set).
        #[command(flatten)]
        variant: crate::variant_args::VariantArgs,
        /// The most seeds on the board of a position in the database (N).
        #[arg(long)]
        max_seeds: usize,
        /// The database file to write (written whole: a temporary file
        /// renamed).
        #[arg(long)]
        out: PathBuf,
        /// Worker threads (0: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// Build, once, the databases the engine plays with, sized to the memory
    /// free, into the folder the engine reads them from (its cache folder:
    /// `$KETE_EGTB_DIR`, else `~/.cache/kete/egtb`). Without a variant: every
    /// variant that has databases, under its default rules.
    #[command(after_help = "Example:\n  kete egtb prepare --variant oware --rules abapa")]
    Prepare {
        #[command(flatten)]
        variant: crate::variant_args::VariantArgs,
        /// The folder (default: the engine's cache folder).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Worker threads (0: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// Check every value (and distance) of a database against the moves of its position.
    #[command(after_help = "Example:\n  kete egtb verify oware3.db")]
    Verify {
        /// A database file made by `kete egtb build`.
        file: PathBuf,
        /// Worker threads (0: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// One line per seed count: positions, wins, draws, losses, sum (longest distance where kept)
    #[command(after_help = "Example:\n  kete egtb stats oware3.db")]
    Stats {
        /// A database file made by `kete egtb build`.
        file: PathBuf,
    },
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
            kete::solve::egtb::check_request(game, *max_seeds)?;
            let shown = BuildReporter::new(game, *max_seeds);
            let t = Instant::now();
            let db =
                kete::solve::egtb::build(game, *max_seeds, &shown.options(*threads), &mut |p| {
                    shown.report(p)
                })?;
            shown.finish();
            let secs = t.elapsed().as_secs_f64();
            let positions: u64 = (0..=*max_seeds).map(|n| db.indexer().count(n)).sum();
            let cores = kete::solve::egtb::threads_or_cores(*threads);
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
        EgtbCommand::Prepare {
            variant,
            dir,
            threads,
        } => prepare(variant, dir.clone(), *threads),
        EgtbCommand::Verify { file, threads } => {
            let db =
                kete::solve::load(file).with_context(|| format!("loading {}", file.display()))?;
            let shown = BuildReporter::new(db.game(), db.max_seeds());
            let (checked, bad) =
                kete::solve::egtb::verify(&db, &shown.options(*threads), 10, &mut |p| {
                    shown.report(p)
                });
            shown.finish();
            for m in &bad {
                let (what, stored, expected) = match m.distance {
                    Some((s, e)) => ("distance", s as i32, e as i32),
                    None => ("value", m.stored, m.expected),
                };
                eprintln!(
                    "mismatch: {} seeds, index {}, board {:?}: stored {what} {stored}, its moves give {expected}",
                    m.seeds, m.index, m.board
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
            let db =
                kete::solve::load(file).with_context(|| format!("loading {}", file.display()))?;
            let mut out = std::io::stdout().lock();
            for s in kete::solve::egtb::stats(&db) {
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

/// `kete egtb prepare`: the database each variant plays with, built into
/// the engine's folder unless a large enough one is there already.
fn prepare(
    variant: &crate::variant_args::VariantArgs,
    dir: Option<PathBuf>,
    threads: usize,
) -> Result<()> {
    let dir = dir
        .or_else(kete::solve::cache::default_dir)
        .ok_or_else(|| {
            anyhow!("no cache folder is known (set KETE_EGTB_DIR or HOME), and --dir names none")
        })?;
    let variants: Vec<Variant> = if variant.given {
        vec![variant.variant().map_err(|e| anyhow!(e))?]
    } else {
        kete::variants::VARIANT_NAMES
            .iter()
            .map(|n| Variant::by_name(n).expect("a registered name"))
            .collect()
    };
    let mut prepared = 0;
    for v in variants {
        let Some(choice) = kete::protocol::database::choice(&v, true) else {
            if variant.given {
                // A game with databases may still play with none by default
                // (Togyz Kumalak: no database won its SPRT).
                if v.visit_solver(DbOf).is_ok() {
                    bail!(
                        "{} plays with no endgame database unless EgtbPath names one, so there \
                         is none to prepare; build one with `kete egtb build --variant {}`",
                        v.name(),
                        v.name()
                    );
                }
                bail!("{} has no endgame databases under these rules", v.name());
            }
            continue;
        };
        let shown = BuildReporter::new(choice.game, choice.seeds);
        let t = Instant::now();
        let (db, source) = kete::solve::cache::open_or_build(
            Some(&dir),
            choice.game,
            choice.seeds,
            choice.max_boards,
            &shown.options(threads),
            &mut |p| shown.report(p),
            &mut |m| eprintln!("{m}"),
        )?;
        shown.finish();
        let (how, file) = match source {
            kete::solve::cache::Source::Cached(f) => ("already there", f.display().to_string()),
            kete::solve::cache::Source::Built(f) => ("built", f.display().to_string()),
            kete::solve::cache::Source::NotKept(why) => {
                bail!("the database could not be kept: {why}")
            }
        };
        println!(
            "{}: {} up to {} seeds, {how} ({:.1} s): {file}",
            v.name(),
            db.game().describe(),
            db.max_seeds(),
            t.elapsed().as_secs_f64()
        );
        prepared += 1;
    }
    if prepared == 0 {
        bail!("no variant has endgame databases");
    }
    Ok(())
}
