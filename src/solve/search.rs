//! MTD(f) over null-window alpha-beta searches that run to the end of the
//! game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::graph::{Graph, GraphError, NOT_KEPT, OpenArena, PlayOut, Stop, Window, line_bounds};
use super::tt::Tt;
use super::{Tablebase, margin};
use crate::game::SolveGame;

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
    /// [`SolveGame::ETC_MIN_SEEDS`].
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
    /// ([`super::graph`]), to key its table on less of the line or, where
    /// every cycle pays the same, to solve without searching; 0 never
    /// builds one.
    pub graph_budget: usize,
    /// Where the graph is built, take a bigger table than `hash_mb` if the
    /// graph wants one ([`super::resources::graph_table_mb`]); for callers whose table size
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

/// Solves `pos` exactly. `progress` is called after every pass and now and
/// then inside long ones.
///
/// Positions that can repeat (Oware) are solved under the game's own
/// repetition rule: a position that recurs on the line searched ends the
/// game with [`crate::game::Game::repetition_outcome`]. A position's value
/// then depends on the positions since the last capture on the line that
/// led to it (only they can recur), so the table is keyed on the position
/// and that set of positions.
pub fn solve<G: SolveGame>(
    pos: &G,
    opts: &SolveOptions,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveResult<G::Move> {
    solve_with_tablebase(pos, opts, None, progress)
}

/// [`solve`] with an endgame database probed wherever it has the position.
/// The database's values are margins of the seeds in play added to
/// [`SolveGame::banked`], so it must follow the same rules as `pos`.
pub fn solve_with_tablebase<G: SolveGame>(
    pos: &G,
    opts: &SolveOptions,
    tablebase: Option<&dyn Tablebase<G>>,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveResult<G::Move> {
    let start = Instant::now();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        let value = pos.outcome().map_or(0, |o| margin(o, pos.side_to_move()));
        return SolveResult {
            value,
            best: Vec::new(),
            nodes: 0,
            tbhits: 0,
            complete: true,
            lower: value,
            upper: value,
        };
    }
    let mut graph = None;
    let mut bounds = Bounds::default();
    let mut table = None;
    let mut stopped = false;
    // The first guess comes before the graph: its bounds are played only
    // at the thresholds around it, where the passes will test.
    let guess = opts
        .guess
        .unwrap_or_else(|| estimate(pos, opts.guess_depth));
    // A solve that starts after a line (a split solve's job) keys on seeds
    // in play, as that line was recorded, and cannot use the graph's
    // history-free answers.
    if G::CAN_REPEAT && tablebase.is_none() && opts.graph_budget > 0 && opts.history.is_empty() {
        let flag = opts.stop.as_deref();
        // Before any pass the value lies within the seeds in play.
        let (banked, spread) = (pos.banked(), pos.seeds_in_play() as i32);
        let report = |stage| stage_report(start.elapsed(), banked - spread, banked + spread, stage);
        let mut throttle = Throttle::new(opts.report_every);
        let built = Graph::build_reporting(
            pos,
            opts.graph_budget,
            opts.threads.max(1),
            flag,
            &mut |positions| {
                if throttle.due() {
                    progress(&report(GraphStage::Building { positions }));
                }
            },
        );
        if let Ok(g) = &built {
            progress(&report(GraphStage::Built {
                positions: g.nodes.len(),
                components: g.comp_size.len(),
            }));
            throttle.restart();
        }
        match built {
            Ok(graph) if graph.cycles_pay_constant() => {
                return solve_by_graph(pos, &graph, &moves, opts, start, progress);
            }
            Ok(g) => {
                // A table of gigabytes takes the kernel many seconds to
                // hand over zeroed: that runs beside the bounds.
                if opts.table_fits_graph {
                    let mb = opts.hash_mb.max(super::resources::graph_table_mb(
                        g.nodes.len(),
                        super::cache::available_memory(),
                    ));
                    table = Some(std::thread::spawn(move || Tt::new(mb)));
                }
                let t = Searcher::<G>::threshold(pos.side_to_move(), guess - 1);
                let window = Some((t - WINDOW_SPREAD, t + WINDOW_SPREAD));
                let mut tick = |done| {
                    if throttle.due() {
                        progress(&report(GraphStage::Playing {
                            done,
                            positions: g.nodes.len(),
                        }));
                    }
                };
                match Bounds::of(&g, window, opts.threads.max(1), flag, &mut tick) {
                    Some(b) => {
                        progress(&report(GraphStage::Bounds { window }));
                        bounds = b;
                        graph = Some(g);
                    }
                    None => stopped = true,
                }
            }
            Err(GraphError::Stopped) => stopped = true,
            Err(GraphError::TooLarge | GraphError::Collision) => {}
        }
    }
    let threads = opts.threads.max(1);
    let tt = match table {
        Some(t) => t.join().expect("allocating the table does not panic"),
        None => Tt::new(opts.hash_mb),
    };
    let shared = Shared {
        tt,
        tb: tablebase,
        graph,
        bounds: parking_lot::Mutex::new(Arc::new(bounds)),
        open: Default::default(),
        residual_min: opts.residual_min,
        busy: Busy::new(threads),
        abort: AtomicBool::new(false),
        stop: opts.stop.clone(),
        helper_nodes: AtomicU64::new(0),
        helper_tbhits: AtomicU64::new(0),
        etc_min_seeds: opts.etc_min_seeds.unwrap_or(G::ETC_MIN_SEEDS),
        threads,
        start,
    };
    let mut s = Searcher::new(&shared, 0, opts.history.clone(), Some(progress));
    s.reports = Throttle::new(opts.report_every);
    s.stopped = stopped;
    let spread = pos.seeds_in_play() as i32;
    let banked = pos.banked();
    s.lower = banked - spread;
    s.upper = banked + spread;
    if let Some(v) = s.node_of(pos) {
        let (lo, hi) = s.entry_bounds(v, pos.side_to_move());
        s.lower = s.lower.max(lo);
        s.upper = s.upper.min(hi);
    }
    let mut g = guess.clamp(s.lower, s.upper);
    let mut best = None;
    while s.lower < s.upper && !s.stopped {
        let beta = if g == s.lower { g + 1 } else { g };
        if !s.bounds_exact_at(Searcher::<G>::threshold(pos.side_to_move(), beta - 1)) {
            s.stopped = true;
            break;
        }
        s.pass += 1;
        s.beta = beta;
        s.root_best = None;
        let v = s.pass(pos, beta);
        if s.stopped {
            break;
        }
        if v < beta {
            s.upper = v;
        } else {
            s.lower = v;
            best = s.root_best;
        }
        if G::MARGIN_PARITY {
            // Values of the wrong parity cannot occur: skip the passes
            // that would test them.
            let odd = (banked + spread).rem_euclid(2);
            if (s.lower - odd).rem_euclid(2) != 0 {
                s.lower += 1;
            }
            if (s.upper - odd).rem_euclid(2) != 0 {
                s.upper -= 1;
            }
        }
        g = v;
        s.report(true);
    }
    let mut complete = !s.stopped;
    let value = if complete {
        s.lower
    } else {
        g.clamp(s.lower, s.upper)
    };
    // No pass failed high: either every move reached only the lowest
    // possible value (any is best), or the graph's bounds decided the value
    // before any pass (then a move that reaches it is looked for).
    let proven = (0..moves.len()).find(|&i| s.root_move_proven(pos, i, value));
    if complete && (opts.all_best || best.is_none() && proven.is_none()) {
        // The searches below test the value itself. A stop meanwhile
        // leaves the bounds as they were, which are still sound, but the
        // moves then found are not proven.
        if !s.bounds_exact_at(Searcher::<G>::threshold(pos.side_to_move(), value - 1)) {
            s.stopped = true;
        }
    }
    let first = match best {
        Some(i) => i,
        None if complete && value > banked - spread => {
            match proven.or_else(|| (0..moves.len()).find(|&i| s.reaches(pos, moves[i], value))) {
                Some(i) => i,
                None => {
                    // Some move reaches the value: only a stop during these
                    // searches leaves none found (the answer is then not
                    // complete, below).
                    debug_assert!(s.stopped, "a move reaches the value of the position");
                    0
                }
            }
        }
        None => 0,
    };
    let mut best = vec![moves[first]];
    if opts.all_best && complete {
        best.clear();
        for (i, &mv) in moves.iter().enumerate() {
            if i == first || s.reaches(pos, mv, value) {
                best.push(mv);
            }
        }
    }
    // A stop during the searches for the best moves leaves the value as
    // found, but the moves unproven (a stopped search may say anything).
    complete &= !s.stopped;
    SolveResult {
        value,
        best,
        nodes: s.total_nodes(),
        tbhits: s.total_tbhits(),
        complete,
        lower: s.lower,
        upper: s.upper,
    }
}

/// The report of a graph phase just ended (no pass under way): the value
/// is known to lie in `lower..=upper`.
/// Says when `every` has passed since it last said so.
struct Throttle {
    last: Instant,
    every: Duration,
}

impl Throttle {
    fn new(every: Duration) -> Throttle {
        Throttle {
            last: Instant::now(),
            every,
        }
    }

    fn due(&mut self) -> bool {
        let due = self.last.elapsed() >= self.every;
        if due {
            self.restart();
        }
        due
    }

    fn restart(&mut self) {
        self.last = Instant::now();
    }
}

fn stage_report(elapsed: Duration, lower: i32, upper: i32, stage: GraphStage) -> SolveProgress {
    SolveProgress {
        pass: 0,
        beta: 0,
        lower,
        upper,
        pass_done: false,
        nodes: 0,
        tbhits: 0,
        root_moves: (0, 0),
        elapsed,
        graph: Some(stage),
    }
}

/// Solves `pos` on its graph when every cycle pays the same (see
/// [`super::graph`]): the root's value is that of the endless game, and a
/// root move's is the same game's with the root already played (a sink that
/// ends the game by repetition).
fn solve_by_graph<G: SolveGame>(
    pos: &G,
    graph: &Graph<G>,
    moves: &[G::Move],
    opts: &SolveOptions,
    start: Instant,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveResult<G::Move> {
    let side = pos.side_to_move();
    let mine = |v: i32| {
        if side == crate::game::Side::South {
            v
        } else {
            -v
        }
    };
    let values = graph.values();
    let value = mine(values[0]);
    let after = graph.root_move_values(&values);
    let reaching: Vec<G::Move> = moves
        .iter()
        .zip(after)
        .filter(|&(_, v)| mine(v) == value)
        .map(|(&mv, _)| mv)
        .collect();
    assert!(
        !reaching.is_empty(),
        "a best move reaches the value of the position"
    );
    let best = if opts.all_best {
        reaching
    } else {
        vec![reaching[0]]
    };
    let nodes = graph.nodes.len() as u64;
    progress(&SolveProgress {
        pass: 1,
        beta: value,
        lower: value,
        upper: value,
        pass_done: true,
        nodes,
        tbhits: 0,
        root_moves: (0, 0),
        elapsed: start.elapsed(),
        graph: None,
    });
    SolveResult {
        value,
        best,
        nodes,
        tbhits: 0,
        complete: true,
        lower: value,
        upper: value,
    }
}

/// A first guess for MTD(f): alpha-beta to `depth` moves that scores the
/// banked margin at its leaves. A guess near the value saves the passes
/// that would climb to it one window at a time.
fn estimate<G: SolveGame>(pos: &G, depth: u32) -> i32 {
    fn ab<G: SolveGame>(pos: &G, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(o) = pos.outcome() {
            return margin(o, pos.side_to_move());
        }
        if depth == 0 {
            return pos.banked();
        }
        let mut moves = Vec::with_capacity(8);
        pos.legal_moves(&mut moves);
        let mut best = i32::MIN;
        for mv in moves {
            let child = pos.play(mv);
            let v = if child.side_to_move() == pos.side_to_move() {
                ab(&child, depth - 1, alpha, beta)
            } else {
                -ab(&child, depth - 1, -beta, -alpha)
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
    ab(pos, depth, i32::MIN + 1, i32::MAX)
}

/// The nodes a thread of a parallel pass marks while it searches them, so
/// that the other threads search other moves first (simplified ABDADA):
/// one word a slot, the key of the position under way. A collision only
/// makes a thread defer a move it need not have deferred, or not defer
/// one; every move is searched in the end either way.
struct Busy {
    slots: Vec<AtomicU64>,
    mask: u64,
}

impl Busy {
    fn new(threads: usize) -> Busy {
        let n = if threads > 1 { 1 << 16 } else { 1 };
        Busy {
            slots: (0..n).map(|_| AtomicU64::new(0)).collect(),
            mask: n as u64 - 1,
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key & self.mask) as usize]
    }

    fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Plies from the root within which the threads of a parallel pass defer
/// the moves another thread is searching: deeper down a subtree is too
/// small to be worth the marking.
const DEFER_PLIES: usize = 24;

/// How far on either side of the first guess's threshold the graph's
/// bounds are first made exact ([`Window`]). A wider window costs more
/// games; a pass whose threshold falls outside it plays them again on a
/// window widened to take it in ([`Searcher::bounds_exact_at`]).
const WINDOW_SPREAD: i32 = 2;

/// The graph's bounds, as the search reads them.
#[derive(Default)]
struct Bounds {
    /// South's view, per node, for a line that holds nothing of its
    /// component ([`Graph::repetition_bounds_reporting`]).
    lo: Vec<i32>,
    hi: Vec<i32>,
    /// South's view, per root move in the order of the legal moves, for
    /// the line that holds only the root ([`Graph::root_move_bounds`]).
    root_moves: Vec<(i32, i32)>,
    /// The thresholds at which they are exact (elsewhere only sound).
    window: Window,
}

impl Bounds {
    /// The bounds of `g` exact at the thresholds of `window`; `None` once
    /// `stop` is set.
    fn of<G: SolveGame>(
        g: &Graph<G>,
        window: Window,
        threads: usize,
        stop: Stop,
        tick: &mut dyn FnMut(usize),
    ) -> Option<Self> {
        let (lo, hi) = g.repetition_bounds_reporting(window, threads, stop, tick)?;
        let root_moves = g.root_move_bounds(&lo, &hi, window, threads, stop)?;
        Some(Bounds {
            lo,
            hi,
            root_moves,
            window,
        })
    }

    fn exact_at(&self, t: i32) -> bool {
        self.window.is_none_or(|(a, b)| a <= t && t <= b)
    }
}

/// What the threads of one solve share.
struct Shared<'a, G: SolveGame> {
    tt: Tt,
    tb: Option<&'a dyn Tablebase<G>>,
    /// The positions reachable from the root and their components, when
    /// built: a line's positions in other components than the current
    /// position's can never recur.
    graph: Option<Graph<G>>,
    /// The graph's bounds: each searcher takes the latest when it starts,
    /// and a pass whose threshold they are not exact at makes new ones.
    bounds: parking_lot::Mutex<Arc<Bounds>>,
    /// [`Graph::open_components`] of each threshold a pass has tested.
    open: parking_lot::Mutex<rustc_hash::FxHashMap<i32, Arc<OpenLevel>>>,
    /// Open components of at least this many positions are decided below a
    /// line by their own threshold games ([`OpenArena::decide`]).
    residual_min: usize,
    busy: Busy,
    /// Set when one thread has finished the pass: the others give up theirs.
    abort: AtomicBool,
    stop: Option<Arc<AtomicBool>>,
    /// The work of the threads other than the first, added as they go.
    helper_nodes: AtomicU64,
    helper_tbhits: AtomicU64,
    etc_min_seeds: u32,
    threads: usize,
    start: Instant,
}

impl<G: SolveGame> Shared<'_, G> {
    /// A stop, or another thread has finished the pass.
    fn stop_asked(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

struct Searcher<'a, G: SolveGame> {
    sh: &'a Shared<'a, G>,
    /// The graph's bounds this searcher reads ([`Shared::bounds`]).
    bounds: Arc<Bounds>,
    /// 0 for the thread that reports; the others are helpers.
    id: usize,
    /// Hashes of the positions on the line searched, with their group (the
    /// component, or without a graph the seeds in play), for the
    /// repetition rule.
    history: Vec<(u64, u32)>,
    /// With a graph, what a repetition of each position of the line since
    /// the graph's root pays (South's view): the latest entries of
    /// `history`, with its node, for the bounds below a line
    /// ([`line_bounds`]).
    line_pay: Vec<(u32, i32)>,
    /// The threshold (South's view) of the pass being searched and its
    /// open components, once the graph is built.
    open: Option<(i32, Arc<OpenLevel>)>,
    /// With a graph, per entry of the line, what finds a node's key in
    /// constant time however long the line ([`Searcher::line_at`]).
    marks: Vec<Mark>,
    /// With a graph, whether each node is on the line.
    on_line: Vec<bool>,
    /// With a graph, the line's positions in each open component of the
    /// pass's threshold, folded.
    open_sets: rustc_hash::FxHashMap<u32, u64>,
    nodes: u64,
    tbhits: u64,
    /// What a helper has already added to the shared counts.
    flushed: (u64, u64),
    /// When the next report inside a pass is due.
    reports: Throttle,
    pass: u32,
    beta: i32,
    lower: i32,
    upper: i32,
    progress: Option<&'a mut dyn FnMut(&SolveProgress)>,
    /// The root move that failed high in the current pass.
    root_best: Option<usize>,
    /// See [`SolveProgress::root_moves`].
    root_moves: (usize, usize),
    /// Move, child and deferred-child lists per ply, reused so that nodes
    /// do not allocate.
    buffers: Vec<Buffers<G>>,
    /// The table keys of a node's children for its transposition cutoffs
    /// (none for a finished game), and whether each holds only a threshold.
    etc_keys: Vec<Option<(u64, bool)>>,
    /// Once set, every node returns at once and the pass is thrown away:
    /// a stop, or another thread's finishing the pass.
    stopped: bool,
    /// What [`OpenArena::play_out`] reuses from call to call.
    play: PlayOut,
}

type Buffers<G> = (
    Vec<<G as crate::game::Game>::Move>,
    Vec<(G, i32, usize, Option<usize>)>,
    Vec<usize>,
);

/// The open components of one threshold: each graph node's label, and the
/// large ones as games of their own.
struct OpenLevel {
    labels: Vec<u32>,
    arenas: rustc_hash::FxHashMap<u32, OpenArena>,
}

/// The open components of at least `min` positions among `labels`, as
/// games of their own.
fn large_open_arenas<G: SolveGame>(
    g: &Graph<G>,
    labels: &[u32],
    lo: &[i32],
    hi: &[i32],
    t: i32,
    min: usize,
) -> rustc_hash::FxHashMap<u32, OpenArena> {
    let mut size: rustc_hash::FxHashMap<u32, usize> = Default::default();
    for &l in labels {
        if l != NOT_KEPT {
            *size.entry(l).or_insert(0) += 1;
        }
    }
    let mut members: rustc_hash::FxHashMap<u32, Vec<u32>> = size
        .into_iter()
        .filter(|&(_, n)| n >= min)
        .map(|(l, n)| (l, Vec::with_capacity(n)))
        .collect();
    if members.is_empty() {
        return Default::default();
    }
    for (v, l) in labels.iter().enumerate() {
        if let Some(m) = members.get_mut(l) {
            m.push(v as u32);
        }
    }
    members
        .into_iter()
        .map(|(l, m)| (l, OpenArena::new(g, m, lo, hi, t)))
        .collect()
}

/// What [`Searcher::enter`] notes of each entry of the line where the
/// graph is built.
#[derive(Clone, Copy, Default)]
struct Mark {
    /// The first entry of its run (its component's latest positions).
    run_start: u32,
    /// How many entries up to this one are decided at the pass's
    /// threshold (not in an open component).
    decided: u32,
    /// The hashes of the entries up to this one, folded.
    folded: u64,
    /// Its open component at the pass's threshold.
    label: u32,
}

impl<'a, G: SolveGame> Searcher<'a, G> {
    fn new(
        sh: &'a Shared<'a, G>,
        id: usize,
        history: Vec<(u64, u32)>,
        progress: Option<&'a mut dyn FnMut(&SolveProgress)>,
    ) -> Self {
        Searcher {
            sh,
            bounds: sh.bounds.lock().clone(),
            id,
            history,
            line_pay: Vec::new(),
            open: None,
            marks: Vec::new(),
            on_line: sh
                .graph
                .as_ref()
                .map_or(Vec::new(), |g| vec![false; g.nodes.len()]),
            open_sets: Default::default(),
            nodes: 0,
            tbhits: 0,
            flushed: (0, 0),
            reports: Throttle::new(Duration::from_secs(10)),
            pass: 0,
            beta: 0,
            lower: 0,
            upper: 0,
            progress,
            root_best: None,
            root_moves: (0, 0),
            buffers: Vec::new(),
            etc_keys: Vec::new(),
            stopped: false,
            play: PlayOut::default(),
        }
    }

    fn total_nodes(&self) -> u64 {
        self.nodes + self.sh.helper_nodes.load(Ordering::Relaxed)
    }

    fn total_tbhits(&self) -> u64 {
        self.tbhits + self.sh.helper_tbhits.load(Ordering::Relaxed)
    }

    /// Adds a helper's work since the last call to the shared counts.
    fn flush(&mut self) {
        if self.id > 0 {
            let sh = self.sh;
            sh.helper_nodes
                .fetch_add(self.nodes - self.flushed.0, Ordering::Relaxed);
            sh.helper_tbhits
                .fetch_add(self.tbhits - self.flushed.1, Ordering::Relaxed);
            self.flushed = (self.nodes, self.tbhits);
        }
    }

    fn report(&mut self, pass_done: bool) {
        self.reports.restart();
        let p = SolveProgress {
            pass: self.pass,
            beta: self.beta,
            lower: self.lower,
            upper: self.upper,
            pass_done,
            nodes: self.total_nodes(),
            tbhits: self.total_tbhits(),
            root_moves: self.root_moves,
            elapsed: self.sh.start.elapsed(),
            graph: None,
        };
        if let Some(progress) = &mut self.progress {
            progress(&p);
        }
    }

    /// One MTD(f) pass with the null window `[beta - 1, beta]`, on every
    /// thread: they share the table and defer what another is searching;
    /// the first to finish gives the pass its value and best move, and the
    /// others give up.
    fn pass(&mut self, pos: &G, beta: i32) -> i32 {
        let sh = self.sh;
        let t = Self::threshold(pos.side_to_move(), beta - 1);
        self.open_for(t);
        if sh.threads == 1 {
            return self.search(pos, beta - 1, beta, 0);
        }
        let found: parking_lot::Mutex<Option<(i32, Option<usize>)>> = Default::default();
        let finish = |v: i32, best: Option<usize>| {
            let mut f = found.lock();
            if f.is_none() {
                *f = Some((v, best));
            }
            sh.abort.store(true, Ordering::Relaxed);
        };
        std::thread::scope(|scope| {
            for id in 1..sh.threads {
                let history = self.history.clone();
                let finish = &finish;
                // Lines run hundreds of plies deep in games that repeat:
                // the stack of the solving thread.
                std::thread::Builder::new()
                    .stack_size(super::resources::STACK)
                    .spawn_scoped(scope, move || {
                        let mut h = Searcher::new(sh, id, history, None);
                        h.open_for(t);
                        let v = h.search(pos, beta - 1, beta, 0);
                        h.flush();
                        if !h.stopped {
                            finish(v, h.root_best);
                        }
                    })
                    .expect("the system gives the solver its threads");
            }
            let v = self.search(pos, beta - 1, beta, 0);
            if !self.stopped {
                finish(v, self.root_best);
            }
        });
        sh.abort.store(false, Ordering::Relaxed);
        match found.into_inner() {
            Some((v, best)) => {
                self.stopped = false;
                self.root_best = best;
                v
            }
            None => {
                self.stopped = true;
                beta - 1
            }
        }
    }

    /// Whether the root move `mv` reaches `value`.
    fn reaches(&mut self, pos: &G, mv: G::Move, value: i32) -> bool {
        let child = pos.play(mv);
        self.open_for(Self::threshold(pos.side_to_move(), value - 1));
        self.enter(pos, self.node_of(pos));
        let v = if child.side_to_move() == pos.side_to_move() {
            self.search(&child, value - 1, value, 1)
        } else {
            -self.search(&child, -value, -value + 1, 1)
        };
        self.leave();
        v >= value
    }

    /// Whether the graph's bounds alone prove that root move `i` reaches
    /// `value`.
    fn root_move_proven(&self, pos: &G, i: usize, value: i32) -> bool {
        self.bounds.root_moves.get(i).is_some_and(|&(lo, hi)| {
            if pos.side_to_move() == crate::game::Side::South {
                lo >= value
            } else {
                -hi >= value
            }
        })
    }

    /// Puts `pos` (graph node `node`, where the graph is built) on the line.
    fn enter(&mut self, pos: &G, node: Option<usize>) {
        if !G::CAN_REPEAT {
            return;
        }
        let hash = pos.hash();
        let group = self.group(pos, node);
        let same_run = self.history.last().is_some_and(|&(_, c)| c == group);
        self.history.push((hash, group));
        if let (Some(g), Some(v)) = (&self.sh.graph, node) {
            self.line_pay.push((v as u32, g.repetition_south(v)));
            let label = self.open.as_ref().map_or(NOT_KEPT, |(_, l)| l.labels[v]);
            let i = self.marks.len() as u32;
            let before = self.marks.last().copied().unwrap_or_default();
            self.marks.push(Mark {
                run_start: if same_run { before.run_start } else { i },
                decided: before.decided + u32::from(label == NOT_KEPT),
                folded: before.folded ^ hash,
                label,
            });
            if label != NOT_KEPT {
                *self.open_sets.entry(label).or_insert(0) ^= hash;
            }
            self.on_line[v] = true;
        }
    }

    /// The part of the line a position could still repeat is the line's
    /// latest run of positions in the same group as it: its component of
    /// the graph, or without a graph its seeds in play (a capture takes
    /// seeds out of play for good, so nothing before it recurs).
    fn group(&self, pos: &G, node: Option<usize>) -> u32 {
        match (&self.sh.graph, node) {
            (Some(g), Some(v)) => g.comp[v],
            _ => pos.seeds_in_play(),
        }
    }

    /// The graph's node of a position, where the graph is built.
    fn node_of(&self, pos: &G) -> Option<usize> {
        let g = self.sh.graph.as_ref()?;
        Some(
            g.node_of(pos)
                .expect("the graph holds every position reachable from the root")
                as usize,
        )
    }

    /// Bounds (side to move's view) on the value of node `v` of the graph
    /// for a line that holds nothing of its component.
    fn entry_bounds(&self, v: usize, side: crate::game::Side) -> (i32, i32) {
        let (lo, hi) = (self.bounds.lo[v], self.bounds.hi[v]);
        if side == crate::game::Side::South {
            (lo, hi)
        } else {
            (-hi, -lo)
        }
    }

    /// The positions on the line before a position of `group` that it could
    /// still repeat, folded into one word (XOR: they are a set, each
    /// position occurs at most once on a line). The value of a position
    /// depends on exactly this set, so it is part of the key.
    fn repeatable(&self, group: u32) -> u64 {
        let mut set = 0;
        for &(h, g) in self.history.iter().rev() {
            if g != group {
                break;
            }
            set ^= h;
        }
        set
    }

    /// The threshold (South's view) a null-window node tests: South to move
    /// asks whether he gets `alpha + 1`, North whether South stays below
    /// `-alpha`.
    fn threshold(side: crate::game::Side, alpha: i32) -> i32 {
        if side == crate::game::Side::South {
            alpha + 1
        } else {
            -alpha
        }
    }

    /// Makes the graph's bounds exact at threshold `t` if they are not
    /// ([`Window`]): plays the games again on the window widened to take
    /// in `t` and the thresholds around it, for this searcher and those
    /// started after it. What was worked out from the old bounds is only
    /// weaker than from the new, but the open components of each threshold
    /// are worked out again. False, and the bounds unchanged, if asked to
    /// stop meanwhile.
    fn bounds_exact_at(&mut self, t: i32) -> bool {
        let Some(g) = &self.sh.graph else {
            return true;
        };
        if self.bounds.exact_at(t) {
            return true;
        }
        let window = self
            .bounds
            .window
            .map(|(a, b)| (a.min(t - WINDOW_SPREAD), b.max(t + WINDOW_SPREAD)));
        let stop = self.sh.stop.as_deref();
        let Some(b) = Bounds::of(g, window, self.sh.threads, stop, &mut |_| {}) else {
            return false;
        };
        self.bounds = Arc::new(b);
        *self.sh.bounds.lock() = self.bounds.clone();
        let p = SolveProgress {
            pass: self.pass,
            beta: self.beta,
            nodes: self.total_nodes(),
            tbhits: self.total_tbhits(),
            ..stage_report(
                self.sh.start.elapsed(),
                self.lower,
                self.upper,
                GraphStage::Bounds { window },
            )
        };
        if let Some(progress) = &mut self.progress {
            progress(&p);
        }
        self.sh.open.lock().clear();
        self.open = None;
        true
    }

    /// Makes [`Searcher::open`] that of threshold `t`, computing it the
    /// first time any thread needs it.
    fn open_for(&mut self, t: i32) {
        let Some(g) = &self.sh.graph else { return };
        if self.open.as_ref().is_some_and(|(ot, _)| *ot == t) {
            return;
        }
        let labels = self
            .sh
            .open
            .lock()
            .entry(t)
            .or_insert_with(|| {
                let (lo, hi) = (&self.bounds.lo, &self.bounds.hi);
                let labels = g.open_components(lo, hi, t);
                let arenas = large_open_arenas(g, &labels, lo, hi, t, self.sh.residual_min);
                Arc::new(OpenLevel { labels, arenas })
            })
            .clone();
        self.open = Some((t, labels));
    }

    /// What of the line a node (graph node `node`, in `group`) at
    /// threshold `t` (a null-window node of the pass) could still repeat,
    /// as it goes into the table key.
    ///
    /// Where every position of the line's run in the node's component is
    /// open at `t` ([`Graph::open_components`]), the search below never
    /// goes on from a position the bounds decide: with such a line
    /// [`line_bounds`] gives every decided position its bound unchanged
    /// (no position of the run can lower it), so it is cut at once, and
    /// the positions the search goes on from are open too. So the play it
    /// looks at stays among open positions until it stops, and a position
    /// `h` of the run that it reaches again lies in the node's own open
    /// component: the run from `h` to the node is made of open positions,
    /// so each reaches the other. Whether the value reaches `t` therefore
    /// depends on the run's positions in that open component alone
    /// (`Line::Open`); only that yes or no holds for every line with the
    /// same ones, so it is all the table keeps. Otherwise the whole run is
    /// the key (`Line::Run`), exact for every bound.
    fn line_at(&self, node: Option<usize>, group: u32, t: Option<i32>) -> Line {
        let Some(v) = node else {
            return match self.repeatable(group) {
                0 => Line::Empty,
                set => Line::Run(set),
            };
        };
        if self.history.last().is_none_or(|&(_, c)| c != group) {
            return Line::Empty;
        }
        let last = *self.marks.last().expect("the graph's line is marked");
        let before = match last.run_start {
            0 => Mark::default(),
            i => self.marks[i as usize - 1],
        };
        let open = self
            .open
            .as_ref()
            .filter(|(ot, _)| Some(*ot) == t && last.decided == before.decided);
        match open {
            Some((t, labels)) => {
                let set = match labels.labels[v] {
                    NOT_KEPT => 0,
                    l => self.open_sets.get(&l).copied().unwrap_or(0),
                };
                Line::Open(set, *t)
            }
            None => Line::Run(last.folded ^ before.folded),
        }
    }

    /// Whether South reaches `t` from graph node `v` below the current
    /// line, if `v`'s open component is a large one whose own threshold
    /// games decide it ([`OpenArena::decide`]); the first time, the
    /// answers of its open exits are searched and the games played. Only
    /// for a line whose run is all open at `t` (`Line::Open`): then no
    /// position of the run outside `v`'s open component can come back, an
    /// exit's answer does not depend on the line, and the exits the entry
    /// bounds decide keep their bounds (see [`Searcher::line_at`]). Where
    /// those games leave `v` open below the line, the first-cycle game on
    /// the component is played out ([`OpenArena::play_out`]). `None` when
    /// the search is stopped meanwhile.
    fn residual(&mut self, v: usize, t: i32, ply: usize) -> Option<bool> {
        let level = self.open.as_ref().map(|(_, l)| l.clone())?;
        let label = level.labels[v];
        let arena = level.arenas.get(&label)?;
        if !arena.is_resolved() {
            let g = self
                .sh
                .graph
                .as_ref()
                .expect("open arenas come from the graph");
            let mut answers = Vec::with_capacity(arena.open_exits().len());
            for &w in arena.open_exits() {
                let pos = g.nodes[w as usize].clone();
                let south = pos.side_to_move() == crate::game::Side::South;
                let (alpha, beta) = if south { (t - 1, t) } else { (-t, -t + 1) };
                let value = self.search_at(&pos, Some(w as usize), alpha, beta, ply + 1);
                if self.stopped {
                    return None;
                }
                answers.push((value >= beta) == south);
            }
            arena.resolve(&answers);
        }
        let run = self.marks.len() - self.marks.last().map_or(0, |m| m.run_start as usize);
        let first = self.marks.len() - run;
        let line: Vec<u32> = (first..self.marks.len())
            .filter(|&i| self.marks[i].label == label)
            .filter_map(|i| arena.local(self.line_pay[i].0))
            .collect();
        let local = arena.local(v as u32)? as usize;
        if let Some(d) = arena.decide(local, &line) {
            return Some(d);
        }
        // Below the resolved games, the first-cycle game on the component
        // itself, which no table of positions can hold.
        let sh = self.sh;
        let stop = || sh.stop_asked();
        let (answer, nodes) = arena.play_out(local, &line, &mut self.play, self.id % 2 == 1, &stop);
        self.nodes += nodes;
        if answer.is_none() && stop() {
            self.stopped = true;
        }
        answer
    }

    fn leave(&mut self) {
        if !G::CAN_REPEAT {
            return;
        }
        let (hash, _) = self.history.pop().expect("leave follows enter");
        if self.sh.graph.is_some() {
            let (v, _) = self.line_pay.pop().expect("the graph's line has its nodes");
            let mark = self.marks.pop().expect("the graph's line is marked");
            if mark.label != NOT_KEPT {
                *self.open_sets.entry(mark.label).or_insert(0) ^= hash;
            }
            self.on_line[v as usize] = false;
        }
    }

    /// Whether to give up the pass: a stop, or another thread has
    /// finished it.
    fn should_stop(&mut self) -> bool {
        self.flush();
        self.sh.stop_asked()
    }

    /// Bounds (side to move's view) on the value of graph node `v`, given
    /// what its key holds of the line. Below a run that holds a position
    /// the pass's threshold decides, [`line_bounds`] widens the entry bounds
    /// by what the run could pay by repeating; below a run of open
    /// positions it leaves them as they are wherever they decide the
    /// threshold (see [`Searcher::line_at`]), and elsewhere they decide
    /// nothing, so the entry bounds serve.
    fn graph_bounds(&self, v: usize, side: crate::game::Side, line: Line) -> (i32, i32) {
        let (mut lo, mut hi) = (self.bounds.lo[v], self.bounds.hi[v]);
        if let Line::Run(_) = line {
            let run = self.marks.len() - self.marks.last().map_or(0, |m| m.run_start as usize);
            (lo, hi) = line_bounds(
                &self.bounds.lo,
                &self.bounds.hi,
                v,
                &self.line_pay[self.line_pay.len() - run..],
            );
        }
        if line != Line::Empty && self.line_pay.len() == 1 {
            // A root move (or an exit searched for an open component's
            // games with only the root on the line, which may be one too):
            // its own bounds hold as well.
            let g = self.sh.graph.as_ref().expect("graph bounds need the graph");
            if let Some(i) = g.children(0).iter().position(|&w| w as usize == v) {
                let (l, h) = self.bounds.root_moves[i];
                lo = lo.max(l);
                hi = hi.min(h);
            }
        }
        if side == crate::game::Side::South {
            (lo, hi)
        } else {
            (-hi, -lo)
        }
    }

    /// Fail-soft alpha-beta to the end of the game. Returns the value (side
    /// to move's view) given the line that led here: the table is keyed on
    /// the position and the positions of the line it could still repeat.
    fn search(&mut self, pos: &G, alpha: i32, beta: i32, ply: usize) -> i32 {
        let node = if G::CAN_REPEAT {
            self.node_of(pos)
        } else {
            None
        };
        self.search_at(pos, node, alpha, beta, ply)
    }

    /// [`Searcher::search`] of a position whose graph node (where the
    /// graph is built) the caller knows: a child's is read off its parent's
    /// moves, a look-up in the graph's index less per node.
    fn search_at(
        &mut self,
        pos: &G,
        node: Option<usize>,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.stopped {
            return alpha;
        }
        if self.nodes & 0x3FF == 0 && self.should_stop() {
            self.stopped = true;
            return alpha;
        }
        self.nodes += 1;
        if self.nodes & 0xF_FFFF == 0 && self.progress.is_some() && self.reports.due() {
            self.report(false);
        }
        let sh = self.sh;
        let side = pos.side_to_move();
        if let Some(o) = pos.outcome() {
            return margin(o, side);
        }
        if G::CAN_REPEAT && ply > 0 {
            let repeated = match node {
                Some(v) => self.on_line[v],
                None => {
                    let h = pos.hash();
                    self.history.iter().any(|&(x, _)| x == h)
                }
            };
            if repeated {
                // A game without a repetition rule (En Dodoi) could go round
                // for ever: endless play shares the seeds left, the databases'
                // convention.
                let value = pos
                    .repetition_outcome()
                    .map_or(pos.banked(), |o| margin(o, side));
                return value;
            }
        }
        let banked = pos.banked();
        let spread = pos.seeds_in_play() as i32;
        let group = if G::CAN_REPEAT {
            self.group(pos, node)
        } else {
            0
        };
        let t = (beta == alpha + 1).then(|| Self::threshold(side, alpha));
        let line = if G::CAN_REPEAT {
            self.line_at(node, group, t)
        } else {
            Line::Empty
        };
        if ply > 0 {
            // Futility: the seeds in play cannot carry the value across the
            // window.
            if banked + spread <= alpha {
                return banked + spread;
            }
            if banked - spread >= beta {
                return banked - spread;
            }
            if let Some(tb) = sh.tb
                && let Some(v) = tb.probe(pos)
            {
                self.tbhits += 1;
                return banked + v;
            }
        }
        let key = line.key(pos.solve_key());
        let mut tt_move = None;
        let (mut lo, mut hi) = (banked - spread, banked + spread);
        if let Some(v) = node {
            let (l, h) = self.graph_bounds(v, side, line);
            lo = lo.max(l);
            hi = hi.min(h);
        }
        if let Some(p) = sh.tt.probe(key) {
            if line.only_threshold() {
                // Only whether the value reaches the window holds here.
                if p.lo + banked >= beta {
                    lo = lo.max(beta);
                }
                if p.hi + banked <= alpha {
                    hi = hi.min(alpha);
                }
            } else {
                lo = lo.max(p.lo + banked);
                hi = hi.min(p.hi + banked);
            }
            tt_move = p.mv;
        }
        if ply > 0 {
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
        }
        let nodes_before = self.nodes;
        if let (Line::Open(_, t), Some(v)) = (line, node)
            && ply > 0
            && let Some(south_wins) = self.residual(v, t, ply)
        {
            let wins = south_wins == (side == crate::game::Side::South);
            let value = if wins { beta } else { alpha };
            if wins {
                sh.tt.store(key, beta - banked, i32::MAX, None, 1);
            } else {
                sh.tt.store(key, i32::MIN, alpha - banked, None, 1);
            }
            return value;
        }

        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Default::default);
        }
        let (mut moves, mut children, mut deferred) = std::mem::take(&mut self.buffers[ply]);
        pos.legal_moves(&mut moves);
        children.clear();
        for (i, &mv) in moves.iter().enumerate() {
            let child = pos.play(mv);
            // Start the database reads of the children now, so that their
            // cache misses overlap with each other and with this node's
            // work. (Prefetching their table entries too measured slower:
            // ETC reads those at once anyway.)
            if let Some(tb) = sh.tb
                && child.outcome().is_none()
            {
                tb.prefetch(&child);
            }
            let same = child.side_to_move() == side;
            // Extra turns first, then by what the move banks at once.
            let gain = if same {
                child.banked() - banked + 1000
            } else {
                -child.banked() - banked
            };
            let order = if Some(i) == tt_move { 1 << 20 } else { gain };
            // Where the graph gives bounds: a move they already prove good
            // enough first (it ends the node without a search), one they
            // prove too weak last, the others by their bounds.
            // The graph lists a node's children in the order of its legal
            // moves.
            let child_node = match (&sh.graph, node) {
                (Some(g), Some(v)) => Some(g.children(v)[i] as usize),
                _ => None,
            };
            let order = match child_node {
                Some(w) => {
                    // A move back to the line ends the game: its bounds are
                    // what that repetition pays.
                    let (l, h) = if self.on_line[w] {
                        let pay = sh.graph.as_ref().map_or(0, |g| g.repetition_south(w));
                        let pay = if side == crate::game::Side::South {
                            pay
                        } else {
                            -pay
                        };
                        (pay, pay)
                    } else {
                        self.entry_bounds(w, side)
                    };
                    let tier = if l >= beta {
                        2
                    } else if h <= alpha {
                        0
                    } else {
                        1
                    };
                    (tier << 24) + (order << 2) + (l + h).clamp(-3, 3)
                }
                None => order,
            };
            children.push((child, order, i, child_node));
        }

        if ply > 0 && spread as u32 >= sh.etc_min_seeds {
            // Enhanced transposition cutoff: a child the table already
            // proves good enough ends the node before any search.
            // With the graph the children's keys come from the line with
            // this node on it; without, a child in this node's group adds
            // it to the node's own set.
            if node.is_some() {
                self.enter(pos, node);
            }
            // All the children's keys first, their table reads started at
            // once so that the misses overlap, then the probes.
            let mut keys = std::mem::take(&mut self.etc_keys);
            keys.clear();
            for (child, _, _, child_node) in &children {
                if child.outcome().is_some() {
                    keys.push(None);
                    continue;
                }
                let child_line = match (line, *child_node) {
                    (_, Some(_)) => self.line_at(*child_node, self.group(child, *child_node), t),
                    (Line::Run(set), None) if self.group(child, None) == group => {
                        Line::Run(set ^ pos.hash())
                    }
                    (Line::Empty, None) if G::CAN_REPEAT && self.group(child, None) == group => {
                        Line::Run(pos.hash())
                    }
                    _ => Line::Empty,
                };
                let k = child_line.key(child.solve_key());
                sh.tt.prefetch(k);
                keys.push(Some((k, child_line.only_threshold())));
            }
            let mut cut = None;
            for ((child, _, i, _), &k) in children.iter().zip(&keys) {
                let Some((k, only_threshold)) = k else {
                    continue;
                };
                if let Some(p) = sh.tt.probe(k) {
                    let cb = child.banked();
                    let v = if child.side_to_move() == side {
                        p.lo + cb
                    } else {
                        -(p.hi + cb)
                    };
                    if v >= beta {
                        cut = Some((if only_threshold { beta } else { v }, *i));
                        break;
                    }
                }
            }
            self.etc_keys = keys;
            if node.is_some() {
                self.leave();
            }
            if let Some((v, i)) = cut {
                let stored = if line.only_threshold() { beta } else { v };
                sh.tt.store(key, stored - banked, i32::MAX, Some(i), 1);
                self.buffers[ply] = (moves, children, deferred);
                return v;
            }
        }

        children.sort_by_key(|c| std::cmp::Reverse(c.1));
        self.enter(pos, node);
        let defer = sh.threads > 1 && ply < DEFER_PLIES;
        deferred.clear();
        let mut best = i32::MIN;
        let mut best_move = None;
        let mut a = alpha;
        let (mut next, mut next_deferred, mut searched) = (0, 0, 0);
        loop {
            // Every child in order, except that one another thread is
            // searching waits (the first never does) until all the others
            // are done.
            let j = if next < children.len() {
                next += 1;
                let j = next - 1;
                if defer && j > 0 && sh.busy.is_busy(children[j].0.solve_key()) {
                    deferred.push(j);
                    continue;
                }
                j
            } else if next_deferred < deferred.len() {
                next_deferred += 1;
                deferred[next_deferred - 1]
            } else {
                break;
            };
            let (child, _, i, child_node) = &children[j];
            searched += 1;
            if ply == 0 {
                self.root_moves = (searched, children.len());
            }
            let busy_key = child.solve_key();
            if defer {
                sh.busy.enter(busy_key);
            }
            let v = if child.side_to_move() == side {
                self.search_at(child, *child_node, a, beta, ply + 1)
            } else {
                -self.search_at(child, *child_node, -beta, -a, ply + 1)
            };
            if defer {
                sh.busy.leave(busy_key);
            }
            if v > best {
                best = v;
                best_move = Some(*i);
                if v > a {
                    a = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        self.leave();
        self.buffers[ply] = (moves, children, deferred);
        if self.stopped {
            // A value of a pass given up is no bound at all.
            return alpha;
        }
        if ply == 0 && best >= beta {
            self.root_best = best_move;
        }
        // The key holds the positions this one could repeat, so the value
        // holds wherever the key comes back (under `Line::Open` only as an
        // answer to the pass's question).
        let work = self.nodes - nodes_before;
        if line.only_threshold() {
            if best >= beta {
                sh.tt.store(key, beta - banked, i32::MAX, best_move, work);
            } else {
                sh.tt.store(key, i32::MIN, alpha - banked, best_move, work);
            }
        } else if best >= beta {
            sh.tt.store(key, best - banked, i32::MAX, best_move, work);
        } else if best <= alpha {
            sh.tt.store(key, i32::MIN, best - banked, best_move, work);
        } else {
            sh.tt
                .store(key, best - banked, best - banked, best_move, work);
        }
        best
    }
}

/// What of the line a node's table key holds (see [`Searcher::line_key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// Nothing of the node's group: its value does not depend on the line.
    Empty,
    /// The positions of the line's run in its group, folded.
    Run(u64),
    /// The run's positions in the node's open component at threshold `t`,
    /// folded (0 when there are none): the table then holds only whether
    /// the value reaches `t`.
    Open(u64, i32),
}

impl Line {
    fn key(self, key: u64) -> u64 {
        match self {
            Line::Empty | Line::Open(0, _) => key,
            Line::Run(set) => with_set(key, set),
            Line::Open(set, t) => key ^ crate::game::mix_words(&[set, t as u32 as u64, OPEN_TAG]),
        }
    }

    fn only_threshold(self) -> bool {
        matches!(self, Line::Open(..))
    }
}

/// Keeps the keys of [`Line::Open`] apart from those of [`Line::Run`].
const OPEN_TAG: u64 = 0x6F70_656E_5F6C_696E;

/// The table key of a position reached with `set` (see
/// [`Searcher::repeatable`]) before it: the position's own key when the set
/// is empty (after a capture, and always in games that cannot repeat).
fn with_set(key: u64, set: u64) -> u64 {
    if set == 0 {
        key
    } else {
        key ^ crate::game::mix_words(&[set])
    }
}
