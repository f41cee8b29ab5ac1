//! What a solve is asked and what it answers: its options, its progress
//! reports and its result.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The first guess of MTD(f); a good guess saves passes.
    pub guess: Option<i32>,
    /// Also test every other root move and list all that reach the value.
    pub all_best: bool,
    /// Enhanced transposition cutoffs (look the children up in the table
    /// before searching any of them) at nodes with at least this many seeds
    /// in play; `u32::MAX` turns them off, `None` takes the game's
    /// [`SolveGame::ETC_MIN_SEEDS`](crate::game::SolveGame::ETC_MIN_SEEDS).
    pub etc_min_seeds: Option<u32>,
    /// Depth (in moves) of the quick search that makes the first guess
    /// when `guess` is not given.
    pub guess_depth: u32,
    /// Time between progress reports inside a long pass.
    pub report_every: Duration,
    /// Set by someone else to give up (the protocol's `stop`): the result is
    /// then marked incomplete.
    pub stop: Option<Arc<AtomicBool>>,
    /// The positions of the game before the one solved, oldest first, as
    /// (hash, seeds in play): the repetition rule looks back at them (a
    /// split solve's job carries the line from the split's root).
    pub history: Vec<(u64, u32)>,
    /// For games whose positions repeat: the most positions reachable from
    /// the root for which the solver first builds their graph
    /// ([`crate::solve::graph`]), to key its table on less of the line or, where
    /// every cycle pays the same, to solve without searching; 0 never
    /// builds one.
    pub graph_budget: usize,
    /// Where the graph is built, take a bigger table than `hash_mb` if the
    /// graph wants one ([`crate::solve::resources::graph_table_mb`]); for callers whose table size
    /// is a default, not the user's choice.
    pub table_fits_graph: bool,
    /// Threads searching each pass together (at least one).
    pub threads: usize,
    /// Open components of at least this many positions get their own
    /// threshold games below a line (see [`RESIDUAL_MIN`]).
    pub residual_min: usize,
}

/// The size from which an open component's positions below a line are
/// first tried by the threshold games of what is left of the component.
pub const RESIDUAL_MIN: usize = 256;

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            hash_mb: 512,
            guess: None,
            all_best: false,
            etc_min_seeds: None,
            guess_depth: 12,
            report_every: Duration::from_secs(10),
            stop: None,
            history: Vec::new(),
            graph_budget: 4_000_000,
            table_fits_graph: false,
            residual_min: RESIDUAL_MIN,
            threads: 1,
        }
    }
}

/// A progress report: after each MTD(f) pass, and now and then inside one.
#[derive(Clone, Debug)]
pub struct SolveProgress {
    /// The pass (1-based).
    pub pass: u32,
    /// The null window `[beta-1, beta]` of the pass.
    pub beta: i32,
    /// What is proven so far: `lower <= value <= upper` (side to move).
    pub lower: i32,
    pub upper: i32,
    /// `false` for a report from inside a pass.
    pub pass_done: bool,
    pub nodes: u64,
    /// Positions whose value came from a database.
    pub tbhits: u64,
    /// The root moves of the pass searched so far (the one under way
    /// included) and all of them: how far a long pass has got.
    pub root_moves: (usize, usize),
    pub elapsed: Duration,
    /// Set for a report of a phase of the repetition graph's work (then
    /// `pass_done` is false, and `pass` 0 before the first pass): on Oware
    /// 4x3 the graph takes tens of seconds with nothing else to show.
    pub graph: Option<GraphStage>,
}

/// A phase of the repetition graph's work that has just ended, or, every
/// [`SolveOptions::report_every`], one under way (`Building`, `Playing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphStage {
    /// The graph is being built: `positions` found so far (once all are
    /// found, the components follow).
    Building { positions: usize },
    /// The threshold games are being played: `done` of `positions` have
    /// their bounds.
    Playing { done: usize, positions: usize },
    /// Every reachable position is a node; `components` are its strongly
    /// connected components (where a position can recur).
    Built { positions: usize, components: usize },
    /// The threshold games are played at the thresholds `window` (South
    /// gets at least `k`, for `k` in `a..=b`), or at every one (`None`).
    Bounds { window: Option<(i32, i32)> },
}

/// As `kete solve` and `go solve` show it: `graph positions N components
/// C`, `bounds thresholds [a,b]` (South's view) or `bounds thresholds all`;
/// under way, `graph building positions N` and `bounds playing positions D
/// of N`.
impl std::fmt::Display for GraphStage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraphStage::Building { positions } => {
                write!(f, "graph building positions {positions}")
            }
            GraphStage::Playing { done, positions } => {
                write!(f, "bounds playing positions {done} of {positions}")
            }
            GraphStage::Built {
                positions,
                components,
            } => write!(f, "graph positions {positions} components {components}"),
            GraphStage::Bounds {
                window: Some((a, b)),
            } => write!(f, "bounds thresholds [{a:+},{b:+}]"),
            GraphStage::Bounds { window: None } => write!(f, "bounds thresholds all"),
        }
    }
}

/// The solution of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult<M> {
    /// The final margin with perfect play, from the side to move's view.
    pub value: i32,
    /// A best move; with [`SolveOptions::all_best`] every move that reaches
    /// the value, in the order of the legal moves. Empty if the game is over.
    pub best: Vec<M>,
    pub nodes: u64,
    pub tbhits: u64,
    /// False when [`SolveOptions::stop`] ended the solve early: `value` is
    /// then only the best estimate so far and `best` a reasonable move.
    pub complete: bool,
    /// The bounds the solve proved on the value (side to move's view):
    /// both equal to `value` when complete.
    pub lower: i32,
    pub upper: i32,
}
