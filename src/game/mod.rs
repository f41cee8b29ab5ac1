//! The ground floor: what every game offers the rest of kete. The [`Game`]
//! trait is everything the search, the protocol and the tournament runner
//! know about a game; [`SolveGame`] and [`DbSpec`] are what the solver and
//! the endgame databases need of one; [`Board`] is what a drawing needs.
//! Variants implement them in `crate::variants`; nothing outside that
//! folder knows a rule, and nothing here knows a variant.

mod board;
mod db;
mod eval;
mod hash;
mod index;
mod record;
mod solve;

pub use board::{Board, Cell, CellKind, StoreSite, TraceStep, Words, apply_trace};
pub use db::{DB_BOARD, DbBoard, DbBuild, DbFamily, DbGame, DbSpec, DbVisitor};
pub use eval::{
    Evaluator, MAX_FEATURES, MAX_NET_ACTIVE, PHASE, linear_eval, linear_terms, linear_value,
    linear_value_terms,
};
pub use hash::mix_words;
pub use index::{DbIndex, Indexer};
pub use record::GameRecord;
pub use solve::SolveGame;

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
    /// Both end pits have been captured (Ô ăn quan).
    EndPitsTaken,
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
            EndReason::EndPitsTaken => "end-pits-taken",
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
            EndReason::EndPitsTaken => f.write_str("both end pits have been captured"),
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

    /// Whether the search spends no depth on a move after which the same
    /// player moves again (an extra turn), so that a turn of several
    /// sowings is searched whole. A game whose extra turns come in long
    /// chains (relay sowing that often ends in the store) spends depth on
    /// each, or its searches would never reach their depth.
    fn free_extra_turns(_rules: &Self::Rules) -> bool {
        true
    }

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

    /// The size of the action space under `rules`: every move the game can
    /// ever have gets a fixed index below it ([`Game::action_of`]), the same
    /// for either side (its own pits), so that a learning agent's outputs
    /// and a mask of the legal moves are arrays of one length.
    fn action_count(rules: &Self::Rules) -> usize;

    /// The index of `mv` in the action space, below [`Game::action_count`].
    fn action_of(mv: Self::Move) -> usize;

    /// The move whose index is `action`, legal here or not; `None` past the
    /// action space.
    fn move_of_action(rules: &Self::Rules, action: usize) -> Option<Self::Move>;

    /// How many numbers [`Game::observe`] writes under `rules`.
    fn observation_len(rules: &Self::Rules) -> usize;

    /// Writes the position as [`Game::observation_len`] numbers into `out`,
    /// as `view` sees it (his places first, each row from its owner's left),
    /// so that one network plays both sides: what a learning program reads.
    /// Seed counts are counts, flags 0 or 1; the flags about the move to be
    /// made (Bao's takasia) are set only when `view` is to move. History is
    /// not in it (Oware's repetition is judged by whoever keeps the game).
    fn observe(&self, view: Side, out: &mut [f32]);

    /// `Some` once the game is over (ignoring history: see
    /// [`Game::repetition_outcome`]).
    fn outcome(&self) -> Option<Outcome>;

    /// Why the game is over: `Some` exactly when [`Game::outcome`] is
    /// (ignoring history, like it).
    fn end_reason(&self) -> Option<EndReason>;

    /// The outcome if this position has occurred before in the same game and
    /// the rules end the game on repetition; `None` where repetition has no
    /// rule. It is `Some` for every position of a rule set or for none
    /// (perft keeps a history only for rules that have the rule).
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

    /// The seeds `side` has won so far, as a player counts his gains: his
    /// store or captures in the games decided by counting; in Bao, where
    /// captured seeds stay in play, the seeds on his side of the board and
    /// in his hand. The greedy reference player
    /// ([`crate::search::level`]) takes the move that raises it most.
    fn gained(&self, side: Side) -> u32;

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

    /// What the game's players call its things (pits, seeds, stores).
    fn words(&self) -> Words {
        Words::default()
    }

    /// A run of moves written together, as Aalina and its GUI Aualé write
    /// a move list (`FbCe`): one text per move with the side its spelling
    /// names, where the notation can split it (every move one letter, its
    /// case the side); `None` where it cannot (Bao) or `text` is no such
    /// run. The caller checks each side against the mover
    /// ([`GameRecord::play_list`]).
    fn split_joined(_text: &str) -> Option<Vec<(String, Side)>> {
        None
    }

    /// How each playing level below full strength plays under `rules`
    /// ([`crate::search::level::LEVELS`], weakest first): the deepest
    /// nominal depth it searches and the spread of its choice among its
    /// moves, in centiseeds. A game tunes them so that each level is clearly
    /// stronger than the one below it.
    fn level_play(_rules: &Self::Rules) -> &'static [(u32, i32)] {
        &DEFAULT_LEVEL_PLAY
    }

    /// The evaluation the playing levels below full strength search with
    /// while the `Eval` option is left at its default: the default, unless
    /// the game's levels cannot be spaced with it.
    fn level_eval(_rules: &Self::Rules) -> Self::Eval {
        Self::Eval::default()
    }

    /// The Elo of each playing level under `rules`, weakest first (the
    /// last, full strength, at 300 ms a move), on the scale whose anchor is
    /// the greedy reference player at 1000, as tournaments measured it;
    /// `UCI_Elo` picks a level by it. Empty where nothing was measured.
    fn level_elo(_rules: &Self::Rules) -> &'static [i32] {
        &[]
    }

    /// The opening book compiled in for `rules` (the text
    /// [`crate::search::book`] reads), or `""` where these rules have none.
    /// A book is built for one rule set; other sizes and rules get none.
    fn book(_rules: &Self::Rules) -> &'static str {
        ""
    }
}

/// The playing levels' depths and spreads where a game has not tuned its
/// own ([`Game::level_play`]).
pub const DEFAULT_LEVEL_PLAY: [(u32, i32); 7] = [
    (1, 400),
    (1, 150),
    (2, 100),
    (3, 60),
    (4, 40),
    (6, 25),
    (8, 10),
];

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

/// `text` without the spaces at the ends of its lines, which a diagram's
/// padded cells leave (a terminal shows nothing there, a copy keeps them).
pub fn trim_lines(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect()
}
