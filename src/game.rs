//! The `Game` trait: everything the search, the solver, the protocol and the
//! tournament runner know about a game. Variants implement it in
//! `crate::variants`; nothing outside that folder knows a rule.

use std::fmt;

/// A player. South moves first and is "player 1" on the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    South,
    North,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: an index into per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter used by the position notation.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

/// How a finished game ended, as `query result` spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    P1Win,
    P2Win,
    Draw,
}

impl GameResult {
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::P1Win => Some(Side::South),
            GameResult::P2Win => Some(Side::North),
            GameResult::Draw => None,
        }
    }

    pub fn from_winner(winner: Option<Side>) -> GameResult {
        match winner {
            Some(Side::South) => GameResult::P1Win,
            Some(Side::North) => GameResult::P2Win,
            None => GameResult::Draw,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::P1Win => "p1win",
            GameResult::P2Win => "p2win",
            GameResult::Draw => "draw",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The end of a game: who won and, for the counting games, the final seeds
/// of each player (South, North).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub result: GameResult,
    /// Final seed counts (South, North); `None` for games decided without
    /// counting (Bao).
    pub seeds: Option<(u32, u32)>,
}

impl Outcome {
    /// Outcome of a counting game: more seeds wins.
    pub fn by_count(south: u32, north: u32) -> Outcome {
        let result = match south.cmp(&north) {
            std::cmp::Ordering::Greater => GameResult::P1Win,
            std::cmp::Ordering::Less => GameResult::P2Win,
            std::cmp::Ordering::Equal => GameResult::Draw,
        };
        Outcome {
            result,
            seeds: Some((south, north)),
        }
    }

    /// Outcome of a game decided without counting seeds.
    pub fn win(winner: Side) -> Outcome {
        Outcome {
            result: GameResult::from_winner(Some(winner)),
            seeds: None,
        }
    }

    /// Final margin in seeds from `side`'s point of view, if seeds are counted.
    pub fn margin_for(&self, side: Side) -> Option<i32> {
        self.seeds.map(|(s, n)| {
            let south = s as i32 - n as i32;
            if side == Side::South { south } else { -south }
        })
    }
}

/// Why a game ended, as the variant's rules say. Each variant names its own
/// ending (`Game::end_reason`); a repeated position is the referee's
/// (`GameRecord::end_reason`), since only the history can see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// This player's row is empty: the player to move has no seeds to sow
    /// (Oware, En Dodoi).
    EmptyRow(Side),
    /// A row was emptied and each player banked the seeds on his side
    /// (Kalah: the position no longer shows whose row it was).
    RowEmptied,
    /// This player has captured more than half of the seeds (Oware: 25 of 48).
    Majority(Side),
    /// This player, to move, cannot give his opponent's empty row a seed
    /// (Oware under the abapa rules).
    CannotFeed(Side),
    /// A position occurred for the second time (Oware).
    Repetition,
    /// This player, to move, has no legal move (Bao).
    NoLegalMove(Side),
    /// Every move this player could start never ends, so none is legal (Bao,
    /// En Dodoi).
    NeverEndingMoves(Side),
    /// This player's front row is empty (Bao).
    FrontRowEmpty(Side),
}

impl EndReason {
    /// One word for machines (`query reason`).
    pub fn code(self) -> &'static str {
        match self {
            EndReason::EmptyRow(_) | EndReason::RowEmptied => "empty-row",
            EndReason::Majority(_) => "majority",
            EndReason::CannotFeed(_) => "cannot-feed",
            EndReason::Repetition => "repetition",
            EndReason::NoLegalMove(_) => "no-legal-move",
            EndReason::NeverEndingMoves(_) => "never-ending-moves",
            EndReason::FrontRowEmpty(_) => "front-row-empty",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |s: Side| match s {
            Side::South => "South",
            Side::North => "North",
        };
        match *self {
            EndReason::EmptyRow(s) => write!(f, "{}'s row is empty", name(s)),
            EndReason::RowEmptied => {
                f.write_str("a row is empty and each player took the seeds on his side")
            }
            EndReason::Majority(s) => {
                write!(f, "{} has captured more than half of the seeds", name(s))
            }
            EndReason::CannotFeed(s) => write!(
                f,
                "{} cannot give a seed to {}'s empty row",
                name(s),
                name(s.other())
            ),
            EndReason::Repetition => f.write_str("a position was repeated"),
            EndReason::NoLegalMove(s) => write!(f, "{} has no legal move", name(s)),
            EndReason::NeverEndingMoves(s) => {
                write!(f, "{} has only moves that never end", name(s))
            }
            EndReason::FrontRowEmpty(s) => write!(f, "{}'s front row is empty", name(s)),
        }
    }
}

/// A position-notation token that could not be read. The message names the
/// field (1-based, as written) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

/// Why a move text was refused in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move of this variant at all.
    Syntax(String),
    /// The text names a move that the rules forbid here.
    Illegal(String),
    /// The game is already over.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(m) => write!(f, "not a move: {m}"),
            MoveError::Illegal(m) => write!(f, "illegal move: {m}"),
            MoveError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}

/// One game of the mancala family, seen as a sequence of positions.
///
/// Positions are small values and `play` is copy-make: it returns the next
/// position and leaves `self` alone. The side to move may stay the same after a
/// move (Kalah's extra turn), so a searcher must compare sides rather than
/// assume alternation.
///
/// A position holds everything the rules need except the history of the game;
/// rules that depend on history (Oware's repetition) are described by
/// [`Game::repetition_outcome`] and applied by whoever keeps the history
/// ([`GameRecord`], the search).
///
/// **Interruption.** A call may take long where the rules need a long
/// computation (Bao's never-ending relay moves). Such computations poll
/// [`crate::interrupt::poll`] every few microseconds and give up once it
/// says stop: the call then returns quickly with an answer that may be wrong
/// (a shortened move list, any position, any outcome) and must not panic.
/// The caller arms its thread with a deadline and stop flags
/// ([`crate::interrupt::arm`]), asks [`crate::interrupt::tripped`] after
/// each call and throws away what a tripped call returned; the one answer
/// it may still use is [`Game::legal_moves`]'s (a subset of the legal
/// moves). A thread that never arms gets exact answers, however long they
/// take.
pub trait Game: Clone + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// A move as the rules see it. Bao's moves carry a pit, a direction and a
    /// safari flag; the two-row games only need a pit.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;
    /// The variant's static evaluations, chosen by name (the `Eval` option).
    type Eval: Evaluator<Self>;
    /// The variant's size and rule options.
    type Rules: Clone + fmt::Debug + PartialEq + Send + Sync + crate::options::RuleOptions;

    /// Whether a position can ever occur twice in one game. Searches and perft
    /// keep a history only where it can.
    const CAN_REPEAT: bool;

    /// Late-move reductions: from which place in the ordered move list a
    /// move is searched one ply shallower first, and from which two plies
    /// (at depth 6 and more). A game with few moves a turn reduces earlier.
    const LATE_MOVES: (usize, usize) = (3, 6);

    /// The start position under `rules`.
    fn start(rules: &Self::Rules) -> Self;

    /// The rules this position is played under.
    fn rules(&self) -> Self::Rules;

    fn side_to_move(&self) -> Side;

    /// Writes the legal moves into `out` (cleared first). Empty exactly when
    /// the game is over.
    ///
    /// Interrupted (see below), it writes only moves it knows to be legal,
    /// possibly none: the searcher may play the first of them.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves; variants override it where counting is
    /// cheaper than listing (perft's bulk counting).
    fn count_legal_moves(&self) -> usize {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len()
    }

    /// The position after `mv`, which must be legal here.
    fn play(&self, mv: Self::Move) -> Self;

    /// `Some` once the game is over (ignoring history: see
    /// [`Game::repetition_outcome`]).
    fn outcome(&self) -> Option<Outcome>;

    /// Why the game is over: `Some` exactly when [`Game::outcome`] is
    /// (ignoring history, like it).
    fn end_reason(&self) -> Option<EndReason>;

    /// The outcome if this position has occurred before in the same game and
    /// the rules end the game on repetition; `None` where repetition has no
    /// rule.
    fn repetition_outcome(&self) -> Option<Outcome> {
        None
    }

    /// The seeds each player would count if the game stopped here — his
    /// store (captures) plus the seeds on his own side — for adjudicating a
    /// game that runs too long; `None` where the variant does not count
    /// seeds (such a game is adjudicated a draw).
    fn seed_count(&self) -> Option<(u32, u32)> {
        None
    }

    /// Every seed of the game: on the board, in stores and in hands. No
    /// rule creates or destroys a seed, so it is the same all game long
    /// (the generic test battery checks that).
    fn total_seeds(&self) -> u32;

    /// A 64-bit hash of the whole position (board, stores or hands, side to
    /// move and any state the rules keep). Equal positions hash equally.
    fn hash(&self) -> u64;

    /// Reads a move in this position and checks that it is legal, with a
    /// reason if it is not.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The canonical text of a move played from this position.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a position token under `rules`.
    fn from_notation(rules: &Self::Rules, text: &str) -> Result<Self, NotationError>;

    /// The position token; `from_notation` reads it back to an equal position.
    fn to_notation(&self) -> String;

    /// A multi-line text drawing of the board for people.
    fn diagram(&self) -> String;
}

/// A static evaluation of a variant's positions, in centiseeds (100 × the
/// expected final seed margin) from the side to move's point of view.
///
/// Each variant has an enum of evaluators; `Default` is the strongest.
pub trait Evaluator<G>:
    Clone + Copy + Default + PartialEq + fmt::Debug + Send + Sync + 'static
{
    /// Every evaluator with its names, the default first: its canonical
    /// name, then any aliases `by_name` also accepts. The one list that
    /// `by_name`, `name`, `names` and the protocol's `Eval` option read.
    const TABLE: &'static [(Self, &'static [&'static str])];

    /// The evaluator called `name` (or an alias), in any case.
    fn by_name(name: &str) -> Option<Self> {
        Self::TABLE
            .iter()
            .find(|(_, names)| names.iter().any(|n| n.eq_ignore_ascii_case(name.trim())))
            .map(|(e, _)| *e)
    }

    /// The canonical name.
    fn name(&self) -> &'static str {
        Self::TABLE
            .iter()
            .find(|(e, _)| e == self)
            .map_or("?", |(_, names)| names[0])
    }

    /// The canonical names, the default first.
    fn names() -> Vec<&'static str> {
        Self::TABLE.iter().map(|(_, names)| names[0]).collect()
    }

    /// The evaluation of a position whose game is not over.
    fn evaluate(&self, pos: &G) -> i32;

    /// The terms that add up to `evaluate`, named, for the `eval` command.
    fn terms(&self, pos: &G) -> Vec<(&'static str, i32)>;

    /// The features of the variant's linear evaluation, which `kete tune`
    /// fits to game results; empty where the variant has none.
    const FEATURES: &'static [&'static str] = &[];

    /// The weights of those features now, (opening, endgame) each: where
    /// `kete tune` starts from.
    const WEIGHTS: &'static [(i32, i32)] = &[];

    /// Writes the features of `pos` (a game not over), seen from the side to
    /// move, into `out` (as long as [`Evaluator::FEATURES`]) and returns the
    /// game's phase, from [`PHASE`] (every seed in play) down to 0.
    fn features(_pos: &G, _out: &mut [i32]) -> i32 {
        PHASE
    }
}

/// The phase of a game at its start: a linear evaluation blends a weight for
/// the opening (`phase == PHASE`) with one for the bare board (`phase == 0`).
pub const PHASE: i32 = 256;

/// Most features a linear evaluation may have.
pub const MAX_FEATURES: usize = 64;

/// The value of `E`'s linear evaluation of `pos`: its features times its
/// weights.
pub fn linear_value<G, E: Evaluator<G>>(pos: &G) -> i32 {
    let mut f = [0; MAX_FEATURES];
    let f = &mut f[..E::FEATURES.len()];
    let phase = E::features(pos, f);
    linear_eval(E::WEIGHTS, f, phase)
}

/// The terms of `E`'s linear evaluation of `pos`, as [`linear_terms`].
pub fn linear_value_terms<G, E: Evaluator<G>>(pos: &G) -> Vec<(&'static str, i32)> {
    let mut f = [0; MAX_FEATURES];
    let f = &mut f[..E::FEATURES.len()];
    let phase = E::features(pos, f);
    linear_terms(E::FEATURES, E::WEIGHTS, f, phase)
}

/// The terms of a linear evaluation for the `eval` command: each feature
/// that is not zero with its share, and the remainder of the one rounding
/// in [`linear_eval`] as `rounding`, so that the terms add up to it.
pub fn linear_terms(
    names: &[&'static str],
    weights: &[(i32, i32)],
    features: &[i32],
    phase: i32,
) -> Vec<(&'static str, i32)> {
    let mut terms: Vec<(&'static str, i32)> = names
        .iter()
        .zip(weights.iter().zip(features))
        .filter(|(_, (_, f))| **f != 0)
        .map(|(&name, (&w, &f))| (name, linear_eval(&[w], &[f], phase)))
        .collect();
    let rest = linear_eval(weights, features, phase) - terms.iter().map(|t| t.1).sum::<i32>();
    if rest != 0 {
        terms.push(("rounding", rest));
    }
    terms
}

/// A linear evaluation: each feature times its weight, the weight blended
/// between its opening and its endgame value by `phase`.
pub fn linear_eval(weights: &[(i32, i32)], features: &[i32], phase: i32) -> i32 {
    let (mut open, mut end) = (0i32, 0i32);
    for (&(o, e), &f) in weights.iter().zip(features) {
        open += o * f;
        end += e * f;
    }
    (open * phase + end * (PHASE - phase)) / PHASE
}

/// `moves` (played from `pos`) with their texts, in the order people read
/// them: by pit, `A` before `B` (`A1<` before `A1>` before `A2<` in Bao).
/// The generators list moves in whatever order suits the search; lists for
/// people (`d`, `query moves`, perft's divide) use this one.
pub fn in_move_order<G: Game>(pos: &G, moves: &[G::Move]) -> Vec<(G::Move, String)> {
    let mut named: Vec<(G::Move, String)> =
        moves.iter().map(|&m| (m, pos.format_move(m))).collect();
    named.sort_by(|a, b| a.1.cmp(&b.1));
    named
}

/// A game in progress with its history: the referee's view. It applies the
/// rules that need history (repetition) on top of the position's own.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    start: G,
    positions: Vec<G>,
    moves: Vec<G::Move>,
    repetition_end: Option<Outcome>,
}

impl<G: Game> GameRecord<G> {
    pub fn new(start: G) -> Self {
        GameRecord {
            positions: vec![start.clone()],
            start,
            moves: Vec::new(),
            repetition_end: None,
        }
    }

    pub fn start(&self) -> &G {
        &self.start
    }

    pub fn position(&self) -> &G {
        self.positions
            .last()
            .expect("a record always holds its start")
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The positions from the start to the current one.
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// The outcome if the game ended by a repeated position.
    pub fn ended_by_repetition(&self) -> Option<Outcome> {
        self.repetition_end
    }

    /// The outcome of the game so far, repetition included.
    pub fn outcome(&self) -> Option<Outcome> {
        self.repetition_end.or_else(|| self.position().outcome())
    }

    /// Why the game ended, repetition included.
    pub fn end_reason(&self) -> Option<EndReason> {
        if self.repetition_end.is_some() {
            Some(EndReason::Repetition)
        } else {
            self.position().end_reason()
        }
    }

    /// Legal moves of the current position, none once the game has ended.
    pub fn legal_moves(&self, out: &mut Vec<G::Move>) {
        out.clear();
        if self.outcome().is_none() {
            self.position().legal_moves(out);
        }
    }

    /// Reads and plays one move, refusing it with a reason if it is illegal.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays a move already known to be legal.
    pub fn play(&mut self, mv: G::Move) {
        let next = self.position().play(mv);
        if G::CAN_REPEAT && self.positions.contains(&next) {
            self.repetition_end = next.repetition_outcome();
        }
        self.positions.push(next);
        self.moves.push(mv);
    }
}

/// What a place on the board is, for drawing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellKind {
    Pit,
    /// Captured seeds (the two-row games' stores).
    Store,
    /// Seeds not yet sown (Bao's stores in hand).
    Hand,
}

/// One place of the board as a board drawing shows it: whose it is, where it
/// stands, its name in the move notation and how many seeds it holds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    pub side: Side,
    pub kind: CellKind,
    /// 0 for the front (or only) row, 1 for Bao's back row.
    pub row: u8,
    /// 0-based from the owner's own left.
    pub col: u8,
    pub name: String,
    pub seeds: u32,
    /// Rule marks worth drawing (Bao: "nyumba", "takasia").
    pub marks: Vec<&'static str>,
}

/// One step of a move as a board drawing animates it. Cells are indices
/// into [`Board::cells`]; the mover's hand is implicit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "step", rename_all = "lowercase")]
pub enum TraceStep {
    /// Seeds lifted from a cell into the mover's hand, to be sown.
    Lift { cell: usize, seeds: u32 },
    /// One seed from the hand into a cell.
    Drop { cell: usize },
    /// Seeds moved straight from one cell to another: a capture into a
    /// store, or the seeds banked when the game ends.
    Take { from: usize, to: usize, seeds: u32 },
    /// What the rules decided at this point, in words (a relay lap, a
    /// capture, a stop in the nyumba, a safari).
    Note { text: String },
}

/// A game that can be drawn as places holding seeds and can tell, seed by
/// seed, what a move does: what a board drawing needs, given by the
/// variant's own rules so that the drawing implements none.
pub trait Board: Game {
    /// Every place of the board, in a fixed order for the rules in force.
    fn cells(&self) -> Vec<Cell>;

    /// The cell a player clicks to make `mv` (legal here).
    fn move_cell(&self, mv: Self::Move) -> usize;

    /// [`Game::play`] with its steps: the position returned equals
    /// `play(mv)`, and the steps applied to `cells()` give its cells.
    fn play_traced(&self, mv: Self::Move) -> (Self, Vec<TraceStep>);
}

/// Applies `steps` to the seed counts of `cells`: what a board drawing does
/// with a trace. `Err` names the first step that takes seeds a cell does not
/// hold or leaves seeds in hand.
pub fn apply_trace(cells: &mut [u32], steps: &[TraceStep]) -> Result<(), String> {
    let mut hand = 0u32;
    let cell = |cells: &mut [u32], i: usize, at: usize| -> Result<(), String> {
        if i < cells.len() {
            Ok(())
        } else {
            Err(format!("step {at}: no cell {i}"))
        }
    };
    for (at, s) in steps.iter().enumerate() {
        match *s {
            TraceStep::Lift { cell: c, seeds } => {
                cell(cells, c, at)?;
                cells[c] = cells[c].checked_sub(seeds).ok_or_else(|| {
                    format!("step {at}: lifts {seeds} from cell {c} of {}", cells[c])
                })?;
                hand += seeds;
            }
            TraceStep::Drop { cell: c } => {
                cell(cells, c, at)?;
                hand = hand
                    .checked_sub(1)
                    .ok_or_else(|| format!("step {at}: drops a seed from an empty hand"))?;
                cells[c] += 1;
            }
            TraceStep::Take { from, to, seeds } => {
                cell(cells, from, at)?;
                cell(cells, to, at)?;
                cells[from] = cells[from].checked_sub(seeds).ok_or_else(|| {
                    format!(
                        "step {at}: takes {seeds} from cell {from} of {}",
                        cells[from]
                    )
                })?;
                cells[to] += seeds;
            }
            TraceStep::Note { .. } => {}
        }
    }
    if hand != 0 {
        return Err(format!("{hand} seeds left in hand"));
    }
    Ok(())
}
