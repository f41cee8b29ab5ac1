//! kete-arena: the tournament runner's command line. Everything it does is in
//! `kete::arena`; this file turns fastchess/cutechess-style arguments into a
//! `TournamentConfig`.

#[path = "common/variant_args.rs"]
mod variant_args;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use kete::arena::{self, EngineConfig, OpeningSource, Sprt, TournamentConfig};
use kete::game::Game;
use kete::variants::{Variant, VariantVisitor};
use variant_args::VariantArgs;

#[derive(Parser)]
#[command(
    name = "kete-arena",
    version,
    about = "Tournaments between mancala engines that speak UGI or UCI; the runner referees with kete's rules",
    args_conflicts_with_subcommands = true,
    after_help = ENGINE_KEYS
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Print distinct random openings, one move list per line (how the files
    /// in tournaments/openings/ were made).
    #[command(after_help = "Example:\n  \
kete-arena openings --variant oware --plies 2 --count 20 > oware-2ply.txt\n  \
kete-arena openings --variant kalah --plies 4 --count 50 --within 1 --depth 12 > even.txt")]
    Openings {
        #[command(flatten)]
        variant: VariantArgs,
        /// Moves per opening.
        #[arg(long, default_value_t = 4)]
        plies: usize,
        /// Openings to print (fewer if there are not that many distinct ones).
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// Seed of the random moves (SplitMix64: the same list in every
        /// version).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep only openings that a search of --depth scores within SEEDS
        /// of even for either side (the score follows each line as a
        /// comment).
        #[arg(long, value_name = "SEEDS")]
        within: Option<f64>,
        /// The depth of the search that scores the openings for --within (a
        /// depth, not a time: the same openings on every machine).
        #[arg(long, default_value_t = 10, requires = "within")]
        depth: u32,
    },
    /// Join the folders of a sharded tournament (`--shard K/N`) into one
    /// `games.jsonl` and report, as one machine would have written them.
    #[command(after_help = "Example:\n  kete-arena merge run/shard-1 run/shard-2 --out run/merged")]
    Merge {
        /// The shards' output folders.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Folder for the merged games.jsonl, report.md and report.html.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Judge every move of a tournament's games by the exact solver: per
    /// engine, the moves judged, the share that kept the exact margin, the
    /// outcome errors (a proven win given up, a draw lost) and the seeds
    /// lost. Only games decided by counting seeds (Kalah, Oware, En Dodoi).
    #[command(
        after_help = "Example:\n  kete-arena accuracy tournaments/kalah-vs-cmancala-st500 --time 2"
    )]
    Accuracy {
        /// A tournament's output folder (its games.jsonl), or a games.jsonl.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Seconds the solver may take for one position; moves from and to
        /// positions it does not settle in that time are not judged.
        #[arg(long, default_value_t = 5.0)]
        time: f64,
        /// Solver threads (0: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Where the solver keeps the databases it chooses (default: the
        /// user's cache folder, as kete solve).
        #[arg(long, value_name = "DIR")]
        egtb_dir: Option<PathBuf>,
        /// Solve without endgame databases.
        #[arg(long)]
        no_egtb: bool,
    },
    /// Print a shell completion script for kete-arena (e.g. `kete-arena
    /// completions bash`).
    #[command(after_help = "Example:\n  \
kete-arena completions bash > ~/.local/share/bash-completion/completions/kete-arena")]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// An engine: cmd=PATH [name=N] [args="A B"] [dir=D] [proto=ugi|uci]
    /// [movesep=S] [option.X=Y] [tc=S+I] [st=S] [depth=D] [nodes=N]
    /// [timemargin=MS] [timeout=S] [ponder=on]. Give it once per engine.
    #[arg(id = "engine", long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Append)]
    engine_tokens: Vec<String>,
    /// The `--engine` tokens grouped by occurrence (clap's derive flattens
    /// them; `main` fills this from the matches).
    #[arg(skip)]
    engines: Vec<Vec<String>>,
    /// Settings for every engine (an engine's own settings win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// Games per pairing per round; each opening is played twice, colours
    /// swapped.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Rounds; each takes the next opening(s), the same for every pairing.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// `file=PATH` or `random plies=K seed=S` (default: the shipped
    /// tournaments/openings/<variant>.txt if it is there and the options are
    /// the defaults, else random plies=4 seed=1).
    #[arg(long, value_name = "SPEC", num_args = 1..)]
    openings: Vec<String>,
    /// elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]: stop when the test decides
    /// (two engines only).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Vec<String>,
    /// The first engine plays each of the others (instead of round-robin).
    #[arg(long)]
    gauntlet: bool,
    /// Folder for games.jsonl, report.md and report.html; running again
    /// with the same folder resumes.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Games still going after this many plies are adjudicated by the seed
    /// count (store plus own side).
    #[arg(long, default_value_t = 400)]
    maxplies: usize,
    /// Seconds to wait for ugiok/uciok and for each readyok.
    #[arg(long, default_value_t = 10.0)]
    handshake_timeout: f64,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
    /// Play only shard K of N: the game pairs whose number leaves K-1 when
    /// divided by N (into this shard's own --out; `merge` joins them).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
}

/// The keys of `--engine` and `--each`, and an example: the end of
/// `kete-arena --help`.
const ENGINE_KEYS: &str = "\
Engine keys (--engine and --each):
  cmd=PATH          the program (required)
  name=N            its name in records and reports (default: the file name); names must differ
  args=\"A B\"        arguments, split at white space
  dir=D             working folder
  proto=ugi|uci     ugi (default) sends the variant and its rule options; uci sends only option.X
  movesep=S         joins the moves of `position ... moves` (default a space)
  option.X=Y        setoption name X value Y, after the variant's options
  tc=S+I            a clock of S seconds plus I a move, kept by the runner
  st=S              fixed time per move (go movetime)
  depth=D, nodes=N  go depth, go nodes (they combine with a clock)
  timemargin=MS     grace beyond the clock or st before a move is late (default
                    100); time taken over the clock is owed on the next moves
  timeout=S         longest wait for a move when no clock bounds it (default 60)
  ponder=on         think on the opponent's time: go ponder on the reply the
                    engine named, then ponderhit or stop (set its Ponder option too)

Example: a 2-game tournament, depth 6 against depth 2
  kete-arena --variant kalah --engine cmd=kete name=depth6 depth=6 \\
    --engine cmd=kete name=depth2 depth=2 --games 2 --out /tmp/duel";

fn key_values<'a>(tokens: &'a [String], what: &str) -> Result<Vec<(&'a str, &'a str)>> {
    tokens
        .iter()
        .map(|t| {
            t.split_once('=')
                .ok_or_else(|| anyhow!("{what} setting '{t}' is not key=value"))
        })
        .collect()
}

fn number<T: std::str::FromStr>(value: &str, what: &str) -> Result<T> {
    value
        .parse()
        .map_err(|_| anyhow!("{what} '{value}' is not a number"))
}

fn openings(args: &RunArgs, variant: &Variant) -> Result<OpeningSource> {
    let tokens = &args.openings;
    if tokens.is_empty() {
        let shipped = Path::new("tournaments/openings").join(format!("{}.txt", variant.name()));
        let defaults = Variant::by_name(variant.name()).map_err(|e| anyhow!(e))?;
        if shipped.is_file() && defaults == *variant {
            return Ok(OpeningSource::File(shipped));
        }
        return Ok(OpeningSource::Random { plies: 4, seed: 1 });
    }
    let rest: &[String] = if tokens[0] == "random" {
        &tokens[1..]
    } else {
        tokens
    };
    let mut file = None;
    let (mut plies, mut seed) = (4, 1);
    for (k, v) in key_values(rest, "--openings")? {
        match k {
            "file" => file = Some(PathBuf::from(v)),
            "plies" => plies = number(v, "plies")?,
            "seed" => seed = number(v, "seed")?,
            _ => bail!("--openings takes file=PATH or random plies=K seed=S, not '{k}'"),
        }
    }
    match file {
        Some(f) if tokens[0] != "random" => Ok(OpeningSource::File(f)),
        Some(_) => bail!("--openings random does not take a file"),
        None => Ok(OpeningSource::Random { plies, seed }),
    }
}

fn sprt(tokens: &[String]) -> Result<Option<Sprt>> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for (k, v) in key_values(tokens, "--sprt")? {
        let x: f64 = number(v, k)?;
        match k {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = x,
            "beta" => beta = x,
            _ => bail!("--sprt takes elo0= elo1= alpha= beta=, not '{k}'"),
        }
    }
    let (Some(e0), Some(e1)) = (elo0, elo1) else {
        bail!("--sprt needs elo0= and elo1=");
    };
    Sprt::new(e0, e1, alpha, beta)
        .map(Some)
        .map_err(|e| anyhow!(e))
}

fn run(args: RunArgs) -> Result<()> {
    let variant = args.variant.variant().map_err(|e| anyhow!(e))?;
    let Some(out_dir) = args.out.clone() else {
        bail!("--out DIR is required: the records and the report go there");
    };
    if args.engines.len() < 2 {
        bail!("give at least two --engine cmd=PATH name=N ...");
    }
    let engines = args
        .engines
        .iter()
        .map(|own| EngineConfig::from_tokens(&args.each, own))
        .collect::<Result<Vec<_>, _>>()?;
    if !(args.handshake_timeout > 0.0 && args.handshake_timeout < 1e6) {
        bail!("--handshake-timeout must be a positive number of seconds");
    }
    // Said before the first game, whatever --quiet says: such an engine
    // loses every game it plays, and the records are the only other place
    // that tells why.
    for e in &engines {
        if let Some(why) = e.missing_program() {
            eprintln!(
                "kete-arena: warning: engine {} cannot be started: {why}; it will lose every game",
                e.name
            );
        }
    }
    let config = TournamentConfig {
        openings: openings(&args, &variant)?,
        variant,
        engines,
        gauntlet: args.gauntlet,
        games: args.games,
        rounds: args.rounds,
        concurrency: args.concurrency,
        sprt: sprt(&args.sprt)?,
        out_dir,
        max_plies: args.maxplies,
        handshake_timeout: Duration::from_secs_f64(args.handshake_timeout),
        progress: !args.quiet,
        shard: args
            .shard
            .as_deref()
            .map(arena::Shard::parse)
            .transpose()
            .map_err(|e| anyhow!(e))?,
    };
    if !args.quiet {
        let sched = kete::arena::schedule::schedule(
            config.engines.len(),
            config.gauntlet,
            config.rounds,
            config.games,
        );
        let share = match config.shard {
            Some(sh) => format!(
                " (shard {sh}: {} of them)",
                sched.iter().filter(|g| sh.plays(g.pair)).count()
            ),
            None => String::new(),
        };
        eprintln!(
            "kete-arena: {} games of {}{share}, openings: {}",
            sched.len(),
            config.variant.name(),
            config.openings.describe()
        );
    }
    let summary = arena::run(&config)?;
    let report = std::fs::read_to_string(&summary.report)
        .with_context(|| format!("cannot read back {}", summary.report.display()))?;
    print!("{report}");
    eprintln!(
        "kete-arena: {} games in {}, report in {} and report.html",
        summary.games.len(),
        summary.records.display(),
        summary.report.display()
    );
    Ok(())
}

struct PrintOpenings {
    plies: usize,
    count: usize,
    seed: u64,
    /// Keep only openings scored within this many centiseeds at `depth`.
    within: Option<(i32, u32)>,
}

impl VariantVisitor for PrintOpenings {
    type Output = Vec<String>;
    fn visit<G: Game>(self, rules: G::Rules) -> Vec<String> {
        let Some((within, depth)) = self.within else {
            return arena::openings::distinct_random::<G>(
                &rules, self.plies, self.seed, self.count,
            )
            .into_iter()
            .map(|o| o.moves.join(" "))
            .collect();
        };
        arena::openings::balanced_random::<G>(
            &rules, self.plies, self.seed, self.count, depth, within,
        )
        .into_iter()
        .map(|(o, score)| {
            let seeds = score as f64 / 100.0;
            format!("{} # {seeds:+.2}", o.moves.join(" "))
        })
        .collect()
    }
}

/// Errors end the program with one line on stderr naming the problem (no
/// backtrace, whatever RUST_BACKTRACE says) and exit status 2.
fn main() {
    if let Err(e) = real_main() {
        eprintln!("kete-arena: {e:#}");
        std::process::exit(2);
    }
}

fn real_main() -> Result<()> {
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    cli.run.engines = matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|g| g.cloned().collect()).collect())
        .unwrap_or_default();
    match cli.command {
        Some(Command::Openings {
            variant,
            plies,
            count,
            seed,
            within,
            depth,
        }) => {
            let v = variant.variant().map_err(|e| anyhow!(e))?;
            let centiseeds = match within {
                Some(w) if w.is_finite() && w >= 0.0 => Some(((w * 100.0).round() as i32, depth)),
                Some(w) => bail!("--within takes a number of seeds, 0 or more, not {w}"),
                None => None,
            };
            if depth == 0 {
                bail!("--depth must be 1 or more");
            }
            let lines = v.visit(PrintOpenings {
                plies,
                count,
                seed,
                within: centiseeds,
            });
            let opts: Vec<String> = v
                .option_values()
                .iter()
                .map(|(k, x)| format!("{k}={x}"))
                .collect();
            let (what, flags) = match within {
                Some(w) => (
                    format!(
                        " scored within {w} seeds of even by a depth-{depth} search (score for South after each)"
                    ),
                    format!(" --within {w} --depth {depth}"),
                ),
                None => (String::new(), String::new()),
            };
            // The rule options that differ from the variant's defaults, so
            // that the command below makes the same file again.
            let defaults = Variant::by_name(v.name())
                .map_err(|e| anyhow!(e))?
                .option_values();
            let rule_flags: String = v
                .option_values()
                .iter()
                .filter(|o| !defaults.contains(o))
                .map(|(k, x)| format!(" -o {k}={x}"))
                .collect();
            println!(
                "# {} ({}): {} distinct random openings of {plies} plies, seed {seed}{what}",
                v.name(),
                opts.join(", "),
                lines.len()
            );
            println!(
                "# made by: kete-arena openings --variant {}{rule_flags} --plies {plies} --count {count} --seed {seed}{flags}",
                v.name()
            );
            for l in lines {
                println!("{l}");
            }
            Ok(())
        }
        Some(Command::Merge { dirs, out }) => {
            let merged = arena::merge(&dirs, &out)?;
            let report = std::fs::read_to_string(&merged.report)
                .with_context(|| format!("cannot read back {}", merged.report.display()))?;
            print!("{report}");
            eprintln!(
                "kete-arena: merged {} shards, {} games in {}, report in {} and report.html",
                merged.shards,
                merged.games,
                merged.records.display(),
                merged.report.display()
            );
            Ok(())
        }
        Some(Command::Accuracy {
            dir,
            time,
            threads,
            egtb_dir,
            no_egtb,
        }) => accuracy(&dir, time, threads, egtb_dir, no_egtb),
        Some(Command::Completions { shell }) => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "kete-arena",
                &mut std::io::stdout(),
            );
            Ok(())
        }
        None => run(cli.run),
    }
}

/// `kete-arena accuracy`: the table per engine, then every outcome error.
fn accuracy(
    dir: &Path,
    time: f64,
    threads: usize,
    egtb_dir: Option<PathBuf>,
    no_egtb: bool,
) -> Result<()> {
    if !(time > 0.0 && time < 1e6) {
        bail!("--time must be a positive number of seconds");
    }
    let records = if dir.is_dir() {
        dir.join(arena::folder::RECORDS)
    } else {
        dir.to_path_buf()
    };
    if !records.exists() {
        bail!(
            "{} holds no games ({} is missing)",
            dir.display(),
            records.display()
        );
    }
    let games = arena::record::read(&records)?;
    let opts = arena::accuracy::JudgeOptions {
        time: Duration::from_secs_f64(time),
        threads,
        egtb_dir: if no_egtb {
            None
        } else {
            egtb_dir.or_else(kete::solve::cache::default_dir)
        },
    };
    let start = std::time::Instant::now();
    let table = arena::accuracy::judge(&games, &opts, &mut |done, all| {
        eprint!(
            "\rkete-arena: judged {done}/{all} games, {:.0} s",
            start.elapsed().as_secs_f64()
        );
    })?;
    eprintln!();
    println!(
        "{:<16} {:>6} {:>7} {:>8} {:>15} {:>11}",
        "engine", "moves", "judged", "exact", "outcome errors", "seeds lost"
    );
    for a in &table {
        println!(
            "{:<16} {:>6} {:>7} {:>7.1}% {:>15} {:>11}",
            a.engine,
            a.moves,
            a.judged,
            a.exact_percent(),
            a.outcome_errors.len(),
            a.seeds_lost
        );
    }
    for a in &table {
        for e in &a.outcome_errors {
            println!(
                "outcome error: {} in game {}, move {} ({}, {} seeds in play): {:+} before, {:+} after",
                a.engine, e.game, e.ply, e.mv, e.seeds, e.before, e.after
            );
        }
    }
    Ok(())
}
