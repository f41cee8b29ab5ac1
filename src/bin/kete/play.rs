//! `kete play`: a game against the engine on a terminal (or through a pipe),
//! for people rather than programs. The board is drawn after every move;
//! the person types a move or one of a few commands (`help` lists them).

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::variant_args::VariantArgs;
use kete::game::{Game, GameRecord, GameResult, Outcome, Side, Words, in_move_order};
use kete::protocol::text::{margin_words, score_text};
use kete::search::level::{self, Player};
use kete::search::{self, Limits, Settings, Shared};
use kete::variants::{Variant, VariantVisitor};

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
    /// Play against a level instead: first-game, beginner, novice, casual,
    /// club, strong, expert or full (or a reference player: random,
    /// greedy). It thinks --movetime ms a move (1000 if not given); hints
    /// stay at full strength.
    #[arg(long)]
    pub level: Option<String>,
    /// Start from this position instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
}

const HELP: &str = "\
Type a move as the legal moves list it: a pit's letter (Kalah, Oware, En Dodoi
and the described games: C), a pit and a direction in Bao (A6> or a3<), the
otau and where its last kumalak falls in Togyz Kumalak (54: from otau 5, the
last kumalak in otau 4). Or:
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
    let values = variant.option_values();
    // A described game has no options: its title says what it is.
    let describe = if values.is_empty() {
        variant.title().to_string()
    } else {
        values
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let player = match &args.level {
        Some(name) => Some(Player::by_name(name).ok_or_else(|| {
            anyhow::anyhow!(
                "--level must be one of {}, got '{name}'",
                level::names().join(", ")
            )
        })?),
        None => None,
    };
    let strength = match (player, args.movetime) {
        (Some(p), _) => level_name(&variant, p),
        (None, Some(ms)) => format!("{ms} ms a move"),
        (None, None) => format!("depth {}", args.depth),
    };
    writeln!(
        output,
        "kete play: {} ({describe}); you are {}, kete plays {} at {strength}. Type help for the commands.",
        variant.name(),
        side_name(human),
        side_name(human.other()),
    )?;
    if let Some(p) = player {
        writeln!(output, "{}", level_words(p))?;
    }
    variant.visit(Play {
        args,
        player,
        human,
        input,
        output,
        echo,
    })
}

/// A score from the mover's side in the game's words: "+6 seeds", "-1.5
/// kumalaks", "a win in 3", "a loss in 2", "even".
fn score_words(score: i32, words: &Words) -> String {
    let text = score_text(score);
    if let Some(m) = text.strip_prefix("mate ") {
        let m: i32 = m.parse().unwrap_or(0);
        let moves = |n: i32| format!("{n} move{}", if n == 1 { "" } else { "s" });
        return if m > 0 {
            format!("a win in {}", moves(m))
        } else {
            format!("a loss in {}", moves(-m))
        };
    }
    match margin_words(score, words) {
        None => "even".into(),
        Some(m) => format!("{}{m}", if score > 0 { "+" } else { "-" }),
    }
}

/// A level by name, with its Elo in this game where it was measured (full
/// strength's depends on its time: none is shown).
fn level_name(variant: &Variant, p: Player) -> String {
    let elo = match p {
        Player::Level(i) => variant.visit(LevelElo(i)),
        Player::Greedy => Some(1000),
        _ => None,
    };
    match elo {
        Some(e) => format!("level {} (Elo {e})", p.name()),
        None => format!("level {}", p.name()),
    }
}

/// A level in words: who it suits, and what its Elo means.
fn level_words(p: Player) -> String {
    let who = match p {
        Player::Level(i) => level::LEVELS[i].words,
        Player::Full => level::LEVELS[level::LEVELS.len() - 1].words,
        Player::Random => "any legal move, each as likely",
        Player::Greedy => "the move that takes the most at once",
    };
    format!(
        "Level {}: {who}. Its Elo is on {}.",
        p.name(),
        level::SCALE_WORDS
    )
}

/// The Elo of level `i` in a game, where it was measured.
struct LevelElo(usize);

impl VariantVisitor for LevelElo {
    type Output = Option<i32>;
    fn visit<G: Game>(self, rules: G::Rules) -> Option<i32> {
        level::measured::<G>(&rules).then(|| level::level_elo::<G>(&rules, self.0))
    }
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::South => "South",
        Side::North => "North",
    }
}

struct Play<'a> {
    args: &'a PlayArgs,
    /// The level asked for (`--level`), if any.
    player: Option<Player>,
    human: Side,
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
    echo: bool,
}

impl VariantVisitor for Play<'_> {
    type Output = anyhow::Result<()>;

    fn visit<G: Game>(self, rules: G::Rules) -> anyhow::Result<()> {
        let start = match &self.args.fen {
            Some(f) => {
                G::from_notation(&rules, f).map_err(|e| anyhow::anyhow!("bad --fen '{f}': {e}"))?
            }
            None => G::start(&rules),
        };
        Session::new(self, start).run()
    }
}

/// The games of one `kete play`: the person's side, the engine, the game
/// under way and the moves it went through (for undo).
struct Session<'a, G: Game> {
    human: Side,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
    echo: bool,
    start: G,
    shared: Arc<Shared>,
    limits: Limits,
    /// Who plays kete's moves (full strength unless `--level` says).
    player: Player,
    moves: Vec<G::Move>,
    record: GameRecord<G>,
    /// The end of the game under way has been said.
    announced: bool,
}

impl<'a, G: Game> Session<'a, G> {
    fn new(play: Play<'a>, start: G) -> Self {
        let Play {
            args,
            player,
            human,
            input,
            output,
            echo,
        } = play;
        // A level thinks for a person's while; full strength keeps the
        // depth or time asked for.
        let limits = match player {
            Some(_) => Limits {
                movetime: Some(Duration::from_millis(args.movetime.unwrap_or(1000))),
                ..Limits::default()
            },
            None => Limits {
                depth: args.movetime.is_none().then_some(args.depth),
                movetime: args.movetime.map(Duration::from_millis),
                ..Limits::default()
            },
        };
        Session {
            human,
            input,
            out: output,
            echo,
            record: GameRecord::new(start.clone()),
            start,
            shared: Shared::new(16),
            limits,
            player: player.unwrap_or(Player::Full),
            moves: Vec::new(),
            announced: false,
        }
    }

    /// The turns: the engine moves on its own, the person is asked, until
    /// `quit` or the end of input.
    fn run(mut self) -> anyhow::Result<()> {
        draw(self.out, &self.record)?;
        loop {
            if let Some(o) = self.record.outcome() {
                self.announce(o)?;
            } else if self.record.position().side_to_move() != self.human {
                self.engine_moves()?;
                continue;
            }
            let Some(text) = self.read_command()? else {
                return Ok(());
            };
            if !self.obey(&text)? {
                return Ok(());
            }
        }
    }

    /// The engine's move in the position under way as `player` plays it
    /// (kete's moves at its level, hints at full strength).
    fn think(&self, player: Player) -> search::SearchResult<G::Move> {
        let record = &self.record;
        let history: Vec<u64> = record.positions().iter().map(|p| p.hash()).collect();
        self.shared
            .stop
            .store(false, std::sync::atomic::Ordering::Relaxed);
        level::play(
            record.position(),
            &history,
            &self.limits,
            &Settings::default(),
            &self.shared,
            player,
            None,
            &mut |_| {},
        )
    }

    /// Says once how the game ended, and what the person can do next.
    fn announce(&mut self, o: Outcome) -> anyhow::Result<()> {
        if self.announced {
            return Ok(());
        }
        let who = match o.result {
            GameResult::P1Win => "South wins",
            GameResult::P2Win => "North wins",
            GameResult::Draw => "a draw",
        };
        let you = match o.result.winner() {
            Some(s) if s == self.human => " (you win)",
            Some(_) => " (kete wins)",
            None => "",
        };
        let seeds = o
            .seeds
            .map(|(s, n)| format!(" {s}-{n}"))
            .unwrap_or_default();
        let why = self
            .record
            .end_reason()
            .map(|r| format!(": {r}"))
            .unwrap_or_default();
        writeln!(self.out, "Game over: {who}{seeds}{you}{why}.")?;
        writeln!(self.out, "Type new for another game, undo, fen or quit.")?;
        self.announced = true;
        Ok(())
    }

    /// The engine's turn: it searches, says its move and plays it.
    fn engine_moves(&mut self) -> anyhow::Result<()> {
        let r = self.think(self.player);
        let Some(mv) = r.best else {
            anyhow::bail!("the engine found no move in a game that is not over");
        };
        writeln!(
            self.out,
            "kete plays {} ({} for kete, depth {})",
            self.record.position().format_move(mv),
            score_words(r.score, &self.record.position().words()),
            r.depth
        )?;
        self.record.play(mv);
        self.moves.push(mv);
        draw(self.out, &self.record)?;
        Ok(())
    }

    /// Prompts the person and reads a line, written back when `echo`;
    /// `None` at the end of input.
    fn read_command(&mut self) -> anyhow::Result<Option<String>> {
        write!(self.out, "you ({})> ", side_name(self.human))?;
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            writeln!(self.out)?;
            return Ok(None);
        }
        let text = line.trim().to_string();
        if self.echo {
            writeln!(self.out, "{text}")?;
        }
        Ok(Some(text))
    }

    /// Does what the person typed: a command or a move. `false` to quit.
    fn obey(&mut self, text: &str) -> anyhow::Result<bool> {
        match text {
            "" => {}
            "quit" | "exit" | "q" => return Ok(false),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "fen" => writeln!(self.out, "{}", self.record.position().to_notation())?,
            "moves" => self.list_moves()?,
            "new" => self.new_game()?,
            "undo" => self.undo()?,
            "hint" => self.hint()?,
            _ => match self.record.play_text(text) {
                Ok(mv) => {
                    self.moves.push(mv);
                    draw(self.out, &self.record)?;
                }
                Err(e) => writeln!(self.out, "{e} (type help for the commands)")?,
            },
        }
        Ok(true)
    }

    /// `moves`: the legal moves in move order.
    fn list_moves(&mut self) -> anyhow::Result<()> {
        let mut legal = Vec::new();
        self.record.legal_moves(&mut legal);
        let names: Vec<String> = in_move_order(self.record.position(), &legal)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        if names.is_empty() {
            writeln!(self.out, "Legal moves: none (the game is over)")?;
        } else {
            writeln!(self.out, "Legal moves: {}", names.join(" "))?;
        }
        Ok(())
    }

    /// `new`: the start again, with a fresh table.
    fn new_game(&mut self) -> anyhow::Result<()> {
        self.moves.clear();
        self.record = GameRecord::new(self.start.clone());
        self.announced = false;
        self.shared.tt.clear();
        writeln!(self.out, "New game.")?;
        draw(self.out, &self.record)?;
        Ok(())
    }

    /// `undo`: back to the person's previous turn, his last move and every
    /// engine move after it (Kalah's extra turns too).
    fn undo(&mut self) -> anyhow::Result<()> {
        let mut replay = GameRecord::new(self.start.clone());
        let mut sides = Vec::with_capacity(self.moves.len());
        for &mv in &self.moves {
            sides.push(replay.position().side_to_move());
            replay.play(mv);
        }
        match sides.iter().rposition(|&s| s == self.human) {
            None => writeln!(self.out, "Nothing of yours to take back.")?,
            Some(k) => {
                self.moves.truncate(k);
                self.record = GameRecord::new(self.start.clone());
                for &mv in &self.moves {
                    self.record.play(mv);
                }
                self.announced = false;
                writeln!(self.out, "Taken back.")?;
                draw(self.out, &self.record)?;
            }
        }
        Ok(())
    }

    /// `hint`: the engine's choice for the person, with its score.
    fn hint(&mut self) -> anyhow::Result<()> {
        if self.record.outcome().is_some() {
            writeln!(self.out, "The game is over.")?;
            return Ok(());
        }
        let r = self.think(Player::Full);
        if let Some(mv) = r.best {
            writeln!(
                self.out,
                "hint: {} ({} for you, depth {})",
                self.record.position().format_move(mv),
                score_words(r.score, &self.record.position().words()),
                r.depth
            )?;
        }
        Ok(())
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
