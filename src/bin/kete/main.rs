//! `kete`: the engine. With no subcommand it speaks the text protocol on
//! stdin/stdout; subcommands run perft, bench and the other tools. The
//! front ends live here, in the binary: the library knows no command line.

#[path = "../common/variant_args.rs"]
mod variant_args;

mod book;
mod play;
mod serve;
mod solve;
mod tune;

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use clap::{Args, CommandFactory, Parser, Subcommand};
use kete::game::Game;
use kete::perft::{perft, perft_divide};
use kete::protocol::{Engine, Output};
use kete::variants::VariantVisitor;
use variant_args::VariantArgs;

#[derive(Parser)]
#[command(
    name = "kete",
    version,
    about = "An engine for the mancala family of sowing games; without a subcommand it speaks \
UGI/UCI on stdin/stdout (type `help`)",
    long_about = "An engine for the mancala family of sowing games: Kalah, Oware, En Dodoi, Bao la \
Kujifunza, Bao la Kiswahili, Togyz Kumalak and Bestemshe.\n\n\
Without a subcommand, kete is the engine: it speaks UGI and UCI on stdin/stdout \
(type `help` there for the commands; the specification is protocol/README.md).",
    after_help = "Examples:\n  \
the best move at depth 10 after South's C, from a script:\n    \
printf 'position startpos moves C\\ngo depth 10\\n' | kete | tail -1\n  \
the engine set to Oware under the Abapa rules, with pondering, for a GUI's engine field:\n    \
kete --variant oware --rules abapa -o Ponder=true"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The engine's game and options, set before the first command as if
    /// sent with `setoption` (for GUIs whose engine field takes arguments
    /// but sends no options).
    #[command(flatten)]
    engine: VariantArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of exactly DEPTH moves from a position.
    #[command(after_help = "Example:\n  kete perft --variant oware --depth 6 --divide")]
    Perft(PerftArgs),
    /// Search fixed positions of every variant; prints `<N> nodes <M> nps`.
    #[command(after_help = "Example: the node count is the build's bench signature\n  kete bench")]
    Bench {
        /// Nominal depth of every search.
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Solve a position exactly: `value <margin for South> best <moves>`.
    #[command(
        after_help = "Example: prints `value +6 best B` (the margin is South's, whoever moves)\n  \
kete solve --variant kalah --pits 4 --seeds 3"
    )]
    Solve(SolveCmd),
    /// Build, verify and count endgame databases.
    #[command(
        after_help = "Example: every 3-house Oware board of up to 12 seeds\n  \
kete egtb build --variant oware --pits 3 --max-seeds 12 --out oware3.db"
    )]
    Egtb(solve::EgtbArgs),
    /// Fit the evaluation to game results: `tune gen`, then `tune fit`.
    #[command(after_help = "Example:\n  \
kete tune gen --variant kalah --eval classic --games 100 --out k.txt\n  \
kete tune fit --variant kalah --data k.txt --out weights.rs")]
    Tune(tune::TuneArgs),
    /// Build an opening book, or show what one says of a position.
    #[command(after_help = "Example:\n  kete book show --variant kalah --moves C")]
    Book(book::BookArgs),
    /// Print a shell completion script for kete (e.g. `kete completions bash`).
    #[command(
        after_help = "Example:\n  kete completions bash > ~/.local/share/bash-completion/completions/kete"
    )]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Play a game against the engine on the terminal.
    #[command(
        after_help = "Example: Oware, you move first, the engine searches 10 plies\n  \
kete play --variant oware --depth 10"
    )]
    Play(play::PlayArgs),
    /// Serve a board in the browser: play, hints and analysis.
    #[command(after_help = "Example: then open http://127.0.0.1:8080/\n  kete serve --port 8080")]
    Serve(serve::ServeArgs),
    /// List the games: kete's own, then the described ones with their sources.
    #[command(after_help = "Example: the names alone, one a line\n  kete variants --names")]
    Variants {
        /// Print only the names, one a line.
        #[arg(long)]
        names: bool,
        /// Describe the game in this description file instead (checks it).
        #[arg(long, value_name = "PATH")]
        file: Option<String>,
    },
}

#[derive(Args)]
struct SolveCmd {
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    solve: solve::SolveArgs,
}

#[derive(Args)]
struct PerftArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// Start from this position instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Count the sequences of exactly this many moves (one sowing is one
    /// move, so a Kalah extra turn is a move of its own).
    #[arg(long)]
    depth: u32,
    /// Print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Count the last ply without playing it.
    #[arg(long)]
    bulk: bool,
}

struct RunPerft<'a>(&'a PerftArgs);

impl VariantVisitor for RunPerft<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, rules: G::Rules) -> Result<()> {
        let args = self.0;
        let pos = match &args.fen {
            Some(fen) => {
                G::from_notation(&rules, fen).with_context(|| format!("bad --fen '{fen}'"))?
            }
            None => G::start(&rules),
        };
        let t = Instant::now();
        let mut out = std::io::stdout().lock();
        let count = if args.divide {
            let mut total = kete::perft::PerftCount::default();
            let counts = perft_divide(&pos, args.depth, args.bulk);
            let moves: Vec<G::Move> = counts.iter().map(|(mv, _)| *mv).collect();
            for (mv, name) in kete::game::in_move_order(&pos, &moves) {
                let c = counts
                    .iter()
                    .find(|(m, _)| *m == mv)
                    .map_or_else(Default::default, |(_, c)| *c);
                writeln!(out, "{name}: {}", c.sequences)?;
                total += c;
            }
            total
        } else {
            perft(&pos, args.depth, args.bulk)
        };
        let secs = t.elapsed().as_secs_f64().max(1e-9);
        writeln!(out, "total: {}", count.sequences)?;
        writeln!(out, "time: {secs:.3} s")?;
        writeln!(
            out,
            "played: {} moves, {:.2} M moves/s",
            count.played,
            count.played as f64 / secs / 1e6
        )?;
        writeln!(
            out,
            "sequences/s: {:.2} M",
            count.sequences as f64 / secs / 1e6
        )?;
        Ok(())
    }
}

/// Errors end the program with one line on stderr naming the problem (no
/// backtrace, whatever RUST_BACKTRACE says) and exit status 2.
/// `kete variants`: every game, the described ones with their board,
/// names and sources.
fn variants(names: bool, file: Option<&str>) -> Result<()> {
    use kete::variants::{VARIANT_NAMES, Variant, described_names};
    let mut out = String::new();
    if let Some(path) = file {
        let v = Variant::from_file(path).map_err(|e| anyhow!(e))?;
        let Variant::Described(r) = v else {
            unreachable!("a file is a described game")
        };
        out.push_str(&r.rules().about());
        print!("{out}");
        return Ok(());
    }
    if names {
        for n in VARIANT_NAMES.iter().copied().chain(described_names()) {
            out.push_str(n);
            out.push('\n');
        }
        print!("{out}");
        return Ok(());
    }
    out.push_str("kete's own games (protocol/RULES.md):\n");
    for n in VARIANT_NAMES {
        let v = Variant::by_name(n).expect("a registered name");
        out.push_str(&format!("  {n:<16} {}\n", v.title()));
    }
    out.push_str("\nDescribed games (--variant NAME; a file of your own: --variant file:PATH):\n");
    for r in kete::variants::described::catalogue::built_in() {
        out.push('\n');
        for line in r.about().lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    print!("{out}");
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("kete: {e:#}");
        std::process::exit(2);
    }
}

fn run() -> Result<()> {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            let settings = cli.engine.settings().map_err(|e| anyhow!(e))?;
            let out = Output::stdout();
            let mut engine = Engine::new(out.clone());
            engine.configure(&settings).map_err(|e| anyhow!(e))?;
            out.line(&format!(
                "kete {} by the kete developers: mancala engine (UGI/UCI); type 'help'",
                env!("CARGO_PKG_VERSION")
            ));
            engine.run(std::io::stdin().lock());
            Ok(())
        }
        Some(Command::Perft(args)) => args
            .variant
            .variant()
            .map_err(|e| anyhow!(e))?
            .visit(RunPerft(&args)),
        Some(Command::Bench { depth }) => {
            let r = kete::search::bench::run(depth, &mut |line| eprintln!("{line}"));
            println!("{}", r.summary());
            Ok(())
        }
        Some(Command::Solve(a)) => {
            solve::run_solve(a.variant.variant().map_err(|e| anyhow!(e))?, &a.solve)
        }
        Some(Command::Egtb(a)) => solve::run_egtb(&a),
        Some(Command::Tune(a)) => {
            let line: Vec<String> = std::env::args().skip(1).collect();
            tune::run(&a, format!("kete {}", line.join(" ")))
        }
        Some(Command::Book(a)) => {
            let line: Vec<String> = std::env::args().skip(1).collect();
            book::run(&a, format!("kete {}", line.join(" ")))
        }
        Some(Command::Completions { shell }) => {
            clap_complete::generate(shell, &mut Cli::command(), "kete", &mut std::io::stdout());
            Ok(())
        }
        Some(Command::Serve(a)) => serve::run(&a),
        Some(Command::Variants { names, file }) => variants(names, file.as_deref()),
        Some(Command::Play(a)) => {
            use std::io::IsTerminal;
            let echo = !std::io::stdin().is_terminal();
            play::run(
                &a,
                &mut std::io::stdin().lock(),
                &mut std::io::stdout().lock(),
                echo,
            )
        }
    };
    // A reader that closed the pipe early (`| head`) is not a failure.
    if let Err(e) = &result
        && let Some(io) = e.downcast_ref::<std::io::Error>()
        && io.kind() == std::io::ErrorKind::BrokenPipe
    {
        return Ok(());
    }
    result
}
