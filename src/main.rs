//! `kete`: the engine. With no subcommand it speaks the text protocol on
//! stdin/stdout; subcommands run perft and the other tools.

use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use clap::{Args, Parser, Subcommand};
use kete::game::Game;
use kete::perft::{perft, perft_divide};
use kete::variants::{Variant, VariantVisitor};

#[derive(Parser)]
#[command(
    name = "kete",
    version,
    about = "An engine for the mancala family of sowing games"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of exactly DEPTH moves from a position.
    Perft(PerftArgs),
    /// Solve a position exactly: `value <margin for South> best <moves>`.
    Solve(SolveCmd),
    /// Build, verify and count endgame databases.
    Egtb(kete::solve::cli::EgtbArgs),
}

#[derive(Args)]
struct SolveCmd {
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    solve: kete::solve::cli::SolveArgs,
}

/// The options that choose a variant, the same wherever a variant is chosen.
#[derive(Args, Clone, Debug)]
struct VariantArgs {
    /// kalah (alias mancala) or oware (alias awari).
    #[arg(long, default_value = "kalah")]
    variant: String,
    /// Pits (houses) per row.
    #[arg(long)]
    pits: Option<String>,
    /// Seeds per pit at the start.
    #[arg(long)]
    seeds: Option<String>,
    /// Kalah: standard or empty.
    #[arg(long)]
    capture: Option<String>,
    /// Oware: awari or abapa.
    #[arg(long)]
    rules: Option<String>,
    /// Oware: own-side or split.
    #[arg(long)]
    repetition: Option<String>,
}

impl VariantArgs {
    fn variant(&self) -> Result<Variant> {
        let mut v = Variant::by_name(&self.variant).map_err(|e| anyhow!(e))?;
        let given = [
            ("Pits", &self.pits),
            ("Seeds", &self.seeds),
            ("Capture", &self.capture),
            ("Rules", &self.rules),
            ("Repetition", &self.repetition),
        ];
        for (name, value) in given {
            if let Some(value) = value {
                v.set_option(name, value).map_err(|e| anyhow!(e))?;
            }
        }
        Ok(v)
    }
}

#[derive(Args)]
struct PerftArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// Start from this position instead of the start position.
    #[arg(long)]
    fen: Option<String>,
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
            for (mv, c) in perft_divide(&pos, args.depth, args.bulk) {
                writeln!(out, "{}: {}", pos.format_move(mv), c.sequences)?;
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

/// The protocol loop. For now it greets, lists the commands and quits; the
/// full protocol is the engine issue's work.
fn protocol_loop() -> Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "kete {} by the kete developers (type 'help')",
        env!("CARGO_PKG_VERSION")
    )?;
    out.flush()?;
    let mut line = Vec::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&line);
        match text.split_whitespace().next() {
            None => {}
            Some("quit") => return Ok(()),
            Some("help") => {
                writeln!(out, "commands: help, quit")?;
                writeln!(out, "tools: kete perft --help")?;
            }
            Some(other) => writeln!(out, "info string error: unknown command '{other}'")?,
        }
        out.flush()?;
    }
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None => protocol_loop(),
        Some(Command::Perft(args)) => args.variant.variant()?.visit(RunPerft(&args)),
        Some(Command::Solve(a)) => kete::solve::cli::run_solve(a.variant.variant()?, &a.solve),
        Some(Command::Egtb(a)) => kete::solve::cli::run_egtb(&a),
    }
}
