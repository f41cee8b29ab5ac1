//! `kete play`: a game against the engine on a terminal (or through a pipe),
//! for people rather than programs. The board is drawn after every move;
//! the person types a move or one of a few commands (`help` lists them).

use std::io::{BufRead, Write};
use std::time::Duration;

use clap::Args;

use crate::variant_args::VariantArgs;
use kete::game::{Game, GameRecord, GameResult, Side, in_move_order};
use kete::protocol::text::score_text;
use kete::search::{self, Limits, Settings, Shared};
use kete::variants::VariantVisitor;

/// The options of `kete play` besides the variant.
#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// The side you play: south (moves first) or north.
    #[arg(long, default_value = "south")]
    pub side: String,
    /// The engine's strength: the depth it searches each move to.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Instead of a depth, the time the engine takes for each move (ms).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Start from this position instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
}

const HELP: &str = "\
Type a move (its pit letter, e.g. C; in Bao e.g. A6> or a3<) or:
  undo   take back your last move (and the engine's reply)
  hint   the engine's best move for you, with its score
  new    start a new game (same side, variant and strength)
  fen    the position token (for `position fen` or --fen)
  moves  the legal moves
  help   this text
  quit   leave";

/// Plays games on `input`/`output` until `quit` or the end of input. With
/// `echo` (input that is not a terminal) each line read is written after
/// its prompt, so that a transcript reads like the session on a terminal.
pub fn run(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    echo: bool,
) -> anyhow::Result<()> {
    let human = match args.side.to_ascii_lowercase().as_str() {
        "south" | "s" | "p1" | "first" => Side::South,
        "north" | "n" | "p2" | "second" => Side::North,
        other => anyhow::bail!("--side must be south or north, got '{other}'"),
    };
    if !(1..=search::MAX_DEPTH).contains(&args.depth) {
        anyhow::bail!(
            "--depth must be 1..{}, got {}",
            search::MAX_DEPTH,
            args.depth
        );
    }
    let variant = args.variant.variant().map_err(|e| anyhow::anyhow!(e))?;
    let describe = variant
        .option_values()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ");
    let strength = match args.movetime {
        Some(ms) => format!("{ms} ms a move"),
        None => format!("depth {}", args.depth),
    };
    writeln!(
        output,
        "kete play: {} ({describe}); you are {}, kete plays {} at {strength}. Type help for the commands.",
        variant.name(),
        side_name(human),
        side_name(human.other()),
    )?;
    variant.visit(Play {
        args,
        human,
        input,
        output,
        echo,
    })
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::South => "South",
        Side::North => "North",
    }
}

struct Play<'a> {
    args: &'a PlayArgs,
    human: Side,
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
    echo: bool,
}

impl VariantVisitor for Play<'_> {
    type Output = anyhow::Result<()>;

    fn visit<G: Game>(self, rules: G::Rules) -> anyhow::Result<()> {
        let Play {
            args,
            human,
            input,
            output: out,
            echo,
        } = self;
        let start = match &args.fen {
            Some(f) => {
                G::from_notation(&rules, f).map_err(|e| anyhow::anyhow!("bad --fen '{f}': {e}"))?
            }
            None => G::start(&rules),
        };
        let shared = Shared::new(16);
        let limits = Limits {
            depth: args.movetime.is_none().then_some(args.depth),
            movetime: args.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        let think = |record: &GameRecord<G>| {
            let history: Vec<u64> = record.positions().iter().map(|p| p.hash()).collect();
            shared
                .stop
                .store(false, std::sync::atomic::Ordering::Relaxed);
            search::search(
                record.position(),
                &history,
                &limits,
                &Settings::default(),
                &shared,
                &mut |_| {},
            )
        };
        let mut moves: Vec<G::Move> = Vec::new();
        let mut record = GameRecord::new(start.clone());
        let mut announced = false;
        draw(out, &record)?;
        let mut line = String::new();
        loop {
            if let Some(o) = record.outcome() {
                if !announced {
                    let who = match o.result {
                        GameResult::P1Win => "South wins",
                        GameResult::P2Win => "North wins",
                        GameResult::Draw => "a draw",
                    };
                    let you = match o.result.winner() {
                        Some(s) if s == human => " (you win)",
                        Some(_) => " (kete wins)",
                        None => "",
                    };
                    let seeds = o
                        .seeds
                        .map(|(s, n)| format!(" {s}-{n}"))
                        .unwrap_or_default();
                    let why = record
                        .end_reason()
                        .map(|r| format!(": {r}"))
                        .unwrap_or_default();
                    writeln!(out, "Game over: {who}{seeds}{you}{why}.")?;
                    writeln!(out, "Type new for another game, undo, fen or quit.")?;
                    announced = true;
                }
            } else if record.position().side_to_move() != human {
                let r = think(&record);
                let Some(mv) = r.best else {
                    anyhow::bail!("the engine found no move in a game that is not over");
                };
                writeln!(
                    out,
                    "kete plays {} (score {} for kete, depth {})",
                    record.position().format_move(mv),
                    score_text(r.score),
                    r.depth
                )?;
                record.play(mv);
                moves.push(mv);
                draw(out, &record)?;
                continue;
            }
            write!(out, "you ({})> ", side_name(human))?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            let text = line.trim();
            if echo {
                writeln!(out, "{text}")?;
            }
            match text {
                "" => {}
                "quit" | "exit" | "q" => return Ok(()),
                "help" | "?" => writeln!(out, "{HELP}")?,
                "fen" => writeln!(out, "{}", record.position().to_notation())?,
                "moves" => {
                    let mut legal = Vec::new();
                    record.legal_moves(&mut legal);
                    let names: Vec<String> = in_move_order(record.position(), &legal)
                        .into_iter()
                        .map(|(_, t)| t)
                        .collect();
                    if names.is_empty() {
                        writeln!(out, "Legal moves: none (the game is over)")?;
                    } else {
                        writeln!(out, "Legal moves: {}", names.join(" "))?;
                    }
                }
                "new" => {
                    moves.clear();
                    record = GameRecord::new(start.clone());
                    announced = false;
                    shared.tt.clear();
                    writeln!(out, "New game.")?;
                    draw(out, &record)?;
                }
                "undo" => {
                    // Back to the person's previous turn: his last move and
                    // every engine move after it (Kalah's extra turns too).
                    let mut replay = GameRecord::new(start.clone());
                    let mut sides = Vec::with_capacity(moves.len());
                    for &mv in &moves {
                        sides.push(replay.position().side_to_move());
                        replay.play(mv);
                    }
                    match sides.iter().rposition(|&s| s == human) {
                        None => writeln!(out, "Nothing of yours to take back.")?,
                        Some(k) => {
                            moves.truncate(k);
                            record = GameRecord::new(start.clone());
                            for &mv in &moves {
                                record.play(mv);
                            }
                            announced = false;
                            writeln!(out, "Taken back.")?;
                            draw(out, &record)?;
                        }
                    }
                }
                "hint" => {
                    if record.outcome().is_some() {
                        writeln!(out, "The game is over.")?;
                    } else {
                        let r = think(&record);
                        if let Some(mv) = r.best {
                            writeln!(
                                out,
                                "hint: {} (score {} for you, depth {})",
                                record.position().format_move(mv),
                                score_text(r.score),
                                r.depth
                            )?;
                        }
                    }
                }
                _ => match record.play_text(text) {
                    Ok(mv) => {
                        moves.push(mv);
                        draw(out, &record)?;
                    }
                    Err(e) => writeln!(out, "{e} (type help for the commands)")?,
                },
            }
        }
    }
}

fn draw<G: Game>(out: &mut dyn Write, record: &GameRecord<G>) -> std::io::Result<()> {
    let pos = record.position();
    writeln!(out)?;
    write!(out, "{}", pos.diagram())?;
    if record.outcome().is_none() {
        let mut legal = Vec::new();
        record.legal_moves(&mut legal);
        let names: Vec<String> = in_move_order(pos, &legal)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        writeln!(
            out,
            "{} to move; legal moves: {}",
            side_name(pos.side_to_move()),
            names.join(" ")
        )?;
    }
    Ok(())
}
