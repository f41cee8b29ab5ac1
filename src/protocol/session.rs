//! The game side of the protocol: one session per variant, generic over the
//! game, behind an object-safe trait so that the command loop can switch
//! variants at run time.

use std::fmt::Write as _;
use std::sync::Arc;
use std::thread::JoinHandle;

use super::exact::Attempts;
use super::output::Output;
use super::text::{line_text_joined, score_text};
use crate::game::DbSpec;
use crate::game::SolveGame;
use crate::game::{Evaluator, Game, GameRecord};
use crate::perft::perft_divide_until;
use crate::search::book::Book;
use crate::search::level::{self, Player};
use crate::search::tt::Bound;
use crate::search::{self, Exact, Limits, Probe, Report, Settings, Shared};
use crate::solve::{Egtb, Tablebase};
use crate::variants::SolveVisitor;

/// The queries a session answers (`query <what>`), for error messages.
pub const QUERIES: &str = "gameover, p1turn, result, moves, fen, reason, option <name>, options";

/// Whether `query <what>` asks about the position (and so has no answer
/// while the engine holds none).
pub fn is_position_query(what: &str) -> bool {
    matches!(
        what,
        "gameover" | "p1turn" | "result" | "moves" | "fen" | "position" | "reason"
    )
}

/// Search settings as the protocol's options set them (the evaluator by name).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub eval: String,
    pub ponder: bool,
    /// The loaded endgame database (`EgtbPath`); a session probes it where
    /// it fits the session's game and rules.
    pub egtb: Option<Arc<crate::solve::Egtb>>,
    /// Whether a small enough position is solved exactly before the search
    /// (`SolveEndgames`).
    pub solve_endgames: bool,
    /// Whether a game on the clock plays the book's move (`OwnBook`).
    pub own_book: bool,
    /// `Level` by name, and `UCI_LimitStrength` with `UCI_Elo`.
    pub level: String,
    pub limit_strength: bool,
    pub elo: i64,
    /// Whether `info … pv` writes one-letter moves together (`JoinMoves`).
    pub join_moves: bool,
}

impl SearchOptions {
    /// Who plays in the game `G`: `UCI_Elo`'s level when
    /// `UCI_LimitStrength` is on, else `Level`'s player.
    pub fn player<G: Game>(&self, rules: &G::Rules) -> Player {
        Player::from_options::<G>(rules, &self.level, self.limit_strength, self.elo)
    }
}

/// The level `UCI_Elo` = `elo` chooses in the game of `variant`, with
/// that level's Elo where kete measured its levels in the game.
pub fn level_for_elo(variant: &crate::variants::Variant, elo: i64) -> (&'static str, Option<i32>) {
    struct ByElo(i64);
    impl crate::variants::VariantVisitor for ByElo {
        type Output = (&'static str, Option<i32>);
        fn visit<G: Game>(self, rules: G::Rules) -> Self::Output {
            level::chosen_by_elo::<G>(&rules, self.0)
        }
    }
    variant.visit(ByElo(elo))
}

/// Where a `position` command starts.
pub enum Start<'a> {
    StartPos,
    Fen(&'a str),
}

/// What the command loop can do with the current game.
pub trait Session: Send {
    /// Sets the position; on any error the previous one stays (the
    /// command loop then holds no position: see `Engine::no_position`).
    fn set_position(&mut self, start: Start<'_>, moves: &[&str]) -> Result<(), String>;
    /// Starts a search in a thread that prints `info` lines and one `bestmove`.
    fn go(
        &self,
        limits: Limits,
        options: &SearchOptions,
        shared: Arc<Shared>,
        out: Output,
    ) -> JoinHandle<()>;
    /// `go perft N` in a thread: one line per move and the total, or a note
    /// if `stop` came first.
    fn perft(&self, depth: u32, shared: Arc<Shared>, out: Output) -> JoinHandle<()>;
    /// The `d` command.
    fn display(&self) -> String;
    /// The `eval` command (an evaluator name the variant lacks means its
    /// default, and the text says so).
    fn eval(&self, eval: &str) -> String;
    /// `query gameover|p1turn|result|moves|fen|reason`.
    fn query(&self, what: &str) -> Result<String, String>;
    /// The evaluator names of this variant, the default first.
    fn eval_names(&self) -> Vec<&'static str>;
    /// The current position's token (what `d` shows after `Fen:`).
    fn position_token(&self) -> String;
    /// The legal moves' texts, in the order of the pits (`d`, `query moves`).
    fn move_texts(&self) -> Vec<String>;
}

/// Builds the session of a variant (through [`Variant::visit_solver`], so
/// that a game with endgame databases gets a way to probe them).
///
/// [`Variant::visit_solver`]: crate::variants::Variant::visit_solver
pub struct NewSession;

/// How a session turns the loaded database into its game's probe.
type ProbeOf<G> = fn(&Arc<Egtb>, &<G as Game>::Rules) -> Option<Probe<G>>;

/// How a session makes the exact solver its searches try first (for the
/// games decided by counting): from the database in play, the game so far,
/// what the solver could not do earlier in it, and the threads.
type ExactOf<G> = fn(
    Option<&Arc<Egtb>>,
    &<G as Game>::Rules,
    &[G],
    Arc<parking_lot::Mutex<Attempts>>,
    usize,
) -> Option<Exact<G>>;

impl NewSession {
    fn make<G: Game>(
        rules: G::Rules,
        probe_of: ProbeOf<G>,
        exact_of: ExactOf<G>,
    ) -> Box<dyn Session> {
        let book = Book::compiled(&rules);
        Box::new(GameSession::<G> {
            record: GameRecord::new(G::start(&rules)),
            book: Arc::new(book),
            rules,
            probe_of,
            exact_of,
            attempts: Arc::default(),
        })
    }
}

/// The exact solver of a game with databases: with the database in play
/// where it answers these rules exactly.
fn exact_with_db<G: DbSpec>(
    db: Option<&Arc<Egtb>>,
    rules: &G::Rules,
    line: &[G],
    attempts: Arc<parking_lot::Mutex<Attempts>>,
    threads: usize,
) -> Option<Exact<G>> {
    let table = db
        .filter(|db| db.check::<G>(rules).is_ok() && G::db_refused(rules).is_none())
        .map(|db| db.clone() as Arc<dyn Tablebase<G>>);
    super::exact::exact(table, line, attempts, threads)
}

impl SolveVisitor for NewSession {
    type Output = Box<dyn Session>;
    fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Box<dyn Session> {
        Self::make::<G>(rules, super::solve::probe::<G>, exact_with_db::<G>)
    }
    fn solvable<G: SolveGame>(self, rules: G::Rules) -> Box<dyn Session> {
        Self::make::<G>(
            rules,
            |_, _| None,
            |_, _, line, attempts, threads| super::exact::exact(None, line, attempts, threads),
        )
    }
    fn unsolvable<G: Game>(self, rules: G::Rules, _: &'static str) -> Box<dyn Session> {
        Self::make::<G>(rules, |_, _| None, |_, _, _, _, _| None)
    }
}

struct GameSession<G: Game> {
    rules: G::Rules,
    record: GameRecord<G>,
    probe_of: ProbeOf<G>,
    exact_of: ExactOf<G>,
    /// What the exact solver could not settle in this game.
    attempts: Arc<parking_lot::Mutex<Attempts>>,
    /// The opening book compiled in for these rules (empty if none).
    book: Arc<Book<G>>,
}

fn info_line<G: Game>(
    root: &G,
    r: &Report<G::Move>,
    multipv: bool,
    tbhits: bool,
    joined: bool,
) -> String {
    let ms = r.time.as_millis().max(1) as u64;
    let mut s = format!("info depth {} seldepth {}", r.depth, r.seldepth);
    if multipv {
        let _ = write!(s, " multipv {}", r.multipv);
    }
    let _ = write!(s, " score {}", score_text(r.score));
    match r.bound {
        Some(Bound::Lower) => s.push_str(" lowerbound"),
        Some(Bound::Upper) => s.push_str(" upperbound"),
        _ => {}
    }
    let _ = write!(
        s,
        " nodes {} nps {} time {} hashfull {}",
        r.nodes,
        r.nodes * 1000 / ms,
        r.time.as_millis(),
        r.hashfull,
    );
    if tbhits {
        let _ = write!(s, " tbhits {}", r.tbhits);
    }
    let _ = write!(s, " pv {}", line_text_joined(root, &r.pv, joined));
    s
}

impl<G: Game> Session for GameSession<G> {
    fn set_position(&mut self, start: Start<'_>, moves: &[&str]) -> Result<(), String> {
        let pos = match start {
            Start::StartPos => G::start(&self.rules),
            Start::Fen(text) => G::from_notation(&self.rules, text)
                .map_err(|e| format!("bad position '{text}': {e}"))?,
        };
        let mut record = GameRecord::new(pos);
        record.play_list(moves)?;
        self.record = record;
        Ok(())
    }

    fn go(
        &self,
        limits: Limits,
        options: &SearchOptions,
        shared: Arc<Shared>,
        out: Output,
    ) -> JoinHandle<()> {
        let root = self.record.position().clone();
        // The end by the rules is the search's to find (an empty move list,
        // paid from the move's time): only a repetition is the record's.
        let repeated = self.record.ended_by_repetition().is_some();
        let history: Vec<u64> = self.record.positions().iter().map(|p| p.hash()).collect();
        let settings = Settings {
            threads: options.threads,
            multipv: options.multipv,
            move_overhead: std::time::Duration::from_millis(options.move_overhead_ms),
            eval: G::Eval::by_name(&options.eval).unwrap_or_default(),
            tablebase: options
                .egtb
                .as_ref()
                .and_then(|db| (self.probe_of)(db, &self.rules)),
            exact: if options.solve_endgames {
                (self.exact_of)(
                    options.egtb.as_ref(),
                    &self.rules,
                    self.record.positions(),
                    self.attempts.clone(),
                    options.threads,
                )
            } else {
                None
            },
        };
        let show_tbhits = settings.tablebase.is_some();
        let ponder = options.ponder;
        let player = options.player::<G>(&self.rules);
        let join_moves = options.join_moves;
        let book = (player == Player::Full
            && options.own_book
            && !repeated
            && crate::search::book::plays_from_book(&limits, options.multipv))
        .then(|| self.book.choose_at_random(&root))
        .flatten();
        std::thread::spawn(move || {
            if let Some(b) = book {
                out.line(&format!(
                    "info string book move {} score {}",
                    root.format_move(b.mv),
                    score_text(b.score)
                ));
                out.line(&format!("bestmove {}", root.format_move(b.mv)));
                return;
            }
            if repeated {
                // The game is over (by the rules or by repetition): nothing to play.
                search::wait_for_the_word(&limits, &shared);
                out.line("bestmove 0000");
                return;
            }
            let multipv = settings.multipv > 1 || player != Player::Full;
            let mut report = |r: &Report<G::Move>| {
                out.line(&info_line(&root, r, multipv, show_tbhits, join_moves));
                if r.proven && r.bound.is_none() {
                    out.line(&format!("info string proven score {}", score_text(r.score)));
                }
            };
            let result = level::play(
                &root,
                &history,
                &limits,
                &settings,
                &shared,
                player,
                None,
                &mut report,
            );
            match result.best {
                None => out.line("bestmove 0000"),
                Some(mv) => {
                    let mut line = format!("bestmove {}", root.format_move(mv));
                    if ponder
                        && let Some(reply) = search::ponder_move(&root, mv, &result.pv, &shared)
                    {
                        let next = root.play(mv);
                        let _ = write!(line, " ponder {}", next.format_move(reply));
                    }
                    out.line(&line);
                }
            }
        })
    }

    fn perft(&self, depth: u32, shared: Arc<Shared>, out: Output) -> JoinHandle<()> {
        let pos = self.record.position().clone();
        let over = self.record.outcome().is_some();
        std::thread::spawn(move || {
            // `stop` also ends a long move generation (counts made after
            // it are wrong and never printed).
            let _armed = crate::interrupt::arm(None, std::slice::from_ref(&shared.stop));
            let counts = if over {
                Some(Vec::new())
            } else {
                perft_divide_until(&pos, depth, true, Some(&shared.stop))
                    .filter(|_| !crate::interrupt::tripped())
            };
            let Some(counts) = counts else {
                out.line("info string perft stopped before it finished");
                return;
            };
            let mut text = String::new();
            let mut total = if depth == 0 { 1 } else { 0 };
            let moves: Vec<G::Move> = counts.iter().map(|(mv, _)| *mv).collect();
            for (mv, name) in crate::game::in_move_order(&pos, &moves) {
                let c = counts
                    .iter()
                    .find(|(m, _)| *m == mv)
                    .map_or(0, |(_, c)| c.sequences);
                let _ = writeln!(text, "{name}: {c}");
                total += c;
            }
            let _ = write!(text, "Nodes searched: {total}");
            out.lines(&text);
        })
    }

    fn display(&self) -> String {
        let pos = self.record.position();
        let mut s = pos.diagram();
        let _ = writeln!(s, "Fen: {}", pos.to_notation());
        let _ = writeln!(
            s,
            "Side to move: {}",
            match pos.side_to_move() {
                crate::game::Side::South => "South (p1)",
                crate::game::Side::North => "North (p2)",
            }
        );
        let moves = self.move_texts();
        let moves = if moves.is_empty() {
            "none".to_string()
        } else {
            moves.join(" ")
        };
        let _ = writeln!(s, "Legal moves: {moves}");
        match (self.record.outcome(), self.record.end_reason()) {
            (Some(o), reason) => {
                let _ = write!(s, "Game over: {}", o.result);
                if let Some((south, north)) = o.seeds {
                    let _ = write!(s, " ({south}-{north})");
                }
                if let Some(r) = reason {
                    let _ = write!(s, "; {r}");
                }
            }
            (None, _) => s.push_str("Game over: no"),
        }
        s
    }

    fn eval(&self, eval: &str) -> String {
        let (e, note) = match G::Eval::by_name(eval) {
            Some(e) => (e, String::new()),
            None => (
                G::Eval::default(),
                format!("; '{eval}' is not an evaluator of this variant"),
            ),
        };
        let pos = self.record.position();
        if let Some(o) = self.record.outcome() {
            return format!(
                "game over: {} (score {} for the side to move)",
                o.result,
                score_text(search::terminal_score(&o, pos.side_to_move(), 0))
            );
        }
        let mut s = format!(
            "eval {} (centiseeds for the side to move){note}\n",
            e.name()
        );
        for (name, v) in e.terms(pos) {
            let _ = writeln!(s, "  {name:<12} {v:>7}");
        }
        let _ = write!(s, "  {:<12} {:>7}", "total", e.evaluate(pos));
        s
    }

    fn query(&self, what: &str) -> Result<String, String> {
        let outcome = self.record.outcome();
        Ok(match what {
            "gameover" => (outcome.is_some()).to_string(),
            "p1turn" => {
                (self.record.position().side_to_move() == crate::game::Side::South).to_string()
            }
            "result" => outcome.map_or("none".to_string(), |o| o.result.to_string()),
            "moves" => {
                let moves = self.move_texts();
                if moves.is_empty() {
                    "none".to_string()
                } else {
                    moves.join(" ")
                }
            }
            "fen" | "position" => self.record.position().to_notation(),
            "reason" => self
                .record
                .end_reason()
                .map_or("none".to_string(), |r| format!("{} ({r})", r.code())),
            other => {
                return Err(format!("unknown query '{other}' ({QUERIES})"));
            }
        })
    }

    fn position_token(&self) -> String {
        self.record.position().to_notation()
    }

    fn move_texts(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.record.legal_moves(&mut moves);
        crate::game::in_move_order(self.record.position(), &moves)
            .into_iter()
            .map(|(_, text)| text)
            .collect()
    }

    fn eval_names(&self) -> Vec<&'static str> {
        <G::Eval as Evaluator<G>>::names()
    }
}
