//! What a search is given (its settings, an endgame database's probe, an
//! exact solver to try first) and what it gives back (its progress reports
//! and its result).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::tt::Bound;
use crate::game::Game;

/// Exact values from an endgame database: the score (centiseeds, side to
/// move) of a position the database holds, and where the game has no
/// repetition rule, the root moves that bring a won value nearer. The
/// caller builds it for its own game, so the search stays generic and
/// nothing is downcast.
pub struct Probe<G: Game> {
    pub score: Arc<ProbeFn<G>>,
    pub progress: Option<Arc<ProgressFn<G>>>,
}

/// The closure behind [`Probe::score`].
pub type ProbeFn<G> = dyn Fn(&G) -> Option<i32> + Send + Sync;

/// The closure behind [`Probe::progress`]: keeps, of the root's legal
/// moves, those that keep a won value and come nearest to realising it (a
/// capture, or the position the database counts fewest plies from one),
/// and says whether it did; it leaves the list alone where the database
/// does not hold the root or the root is not won. Every move that keeps
/// the value looks alike to the search, so without it a won endgame can be
/// shuffled for ever where no rule ends a cycle.
pub type ProgressFn<G> = dyn Fn(&G, &mut Vec<<G as Game>::Move>) -> bool + Send + Sync;

impl<G: Game> Clone for Probe<G> {
    fn clone(&self) -> Self {
        Probe {
            score: self.score.clone(),
            progress: self.progress.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Probe<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Probe")
    }
}

/// An exact solver the search may hand its root to first, when the move has
/// a time limit: given the root, the time it may take (until the instant)
/// and the search's stop flag, it returns the root's exact value and a best
/// move, or `None` where it did not settle the root in time or did not try
/// (it decides whether the root is small enough). The search is generic
/// over games; the caller, who knows the game can be solved, builds it.
pub struct Exact<G: Game>(pub Arc<ExactFn<G>>);

/// The closure behind an [`Exact`].
pub type ExactFn<G> =
    dyn Fn(&G, Instant, &AtomicBool) -> Option<Solved<<G as Game>::Move>> + Send + Sync;

/// A root settled by an [`Exact`] solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// The exact score: centiseeds, the side to move's view.
    pub score: i32,
    pub best: M,
    pub nodes: u64,
}

impl<G: Game> Clone for Exact<G> {
    fn clone(&self) -> Self {
        Exact(self.0.clone())
    }
}

impl<G: Game> std::fmt::Debug for Exact<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Exact")
    }
}

/// Settings of one search of the game `G`.
#[derive(Clone, Debug)]
pub struct Settings<G: Game> {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub eval: G::Eval,
    /// An endgame database to take exact values from, if any.
    pub tablebase: Option<Probe<G>>,
    /// An exact solver to try on the root first, if any.
    pub exact: Option<Exact<G>>,
}

impl<G: Game> Default for Settings<G> {
    fn default() -> Self {
        Settings {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            eval: G::Eval::default(),
            tablebase: None,
            exact: None,
        }
    }
}

/// One line of progress: what an `info` line says.
#[derive(Clone, Debug)]
pub struct Report<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number for MultiPV.
    pub multipv: usize,
    pub score: i32,
    /// `Some` when the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    pub proven: bool,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Positions whose value came from the endgame database.
    pub tbhits: u64,
    pub pv: Vec<M>,
}

/// What a finished search decided.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the game is over.
    pub best: Option<M>,
    pub score: i32,
    pub proven: bool,
    pub depth: u32,
    pub pv: Vec<M>,
    pub nodes: u64,
    /// Under MultiPV, every line of the last finished iteration with its
    /// score, best first (what a playing level chooses from).
    pub lines: Vec<(i32, Vec<M>)>,
}
