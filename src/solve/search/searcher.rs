//! What one thread of a solve keeps ([`Searcher`]) and what the threads
//! share ([`Shared`]), with the counts and reports every part of the
//! search reads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::bounds::{Bounds, OpenLevel};
use super::busy::Busy;
use super::key::Mark;
use super::options::{SolveOptions, SolveProgress};
use super::report::Throttle;
use crate::game::SolveGame;
use crate::solve::Tablebase;
use crate::solve::graph::{Graph, PlayOut};
#[cfg(doc)]
use crate::solve::graph::{OpenArena, line_bounds};
use crate::solve::tt::Tt;

/// What the threads of one solve share.
pub(super) struct Shared<'a, G: SolveGame> {
    pub(super) tt: Tt,
    pub(super) tb: Option<&'a dyn Tablebase<G>>,
    /// The positions reachable from the root and their components, when
    /// built: a line's positions in other components than the current
    /// position's can never recur.
    pub(super) graph: Option<Graph<G>>,
    /// The graph's bounds: each searcher takes the latest when it starts,
    /// and a pass whose threshold they are not exact at makes new ones.
    pub(super) bounds: parking_lot::Mutex<Arc<Bounds>>,
    /// [`Graph::open_components`] of each threshold a pass has tested.
    pub(super) open: parking_lot::Mutex<rustc_hash::FxHashMap<i32, Arc<OpenLevel>>>,
    /// Open components of at least this many positions are decided below a
    /// line by their own threshold games ([`OpenArena::decide`]).
    pub(super) residual_min: usize,
    pub(super) busy: Busy,
    /// Set when one thread has finished the pass: the others give up theirs.
    pub(super) abort: AtomicBool,
    pub(super) stop: Option<Arc<AtomicBool>>,
    /// The work of the threads other than the first, added as they go.
    pub(super) helper_nodes: AtomicU64,
    pub(super) helper_tbhits: AtomicU64,
    pub(super) etc_min_seeds: u32,
    pub(super) threads: usize,
    pub(super) start: Instant,
}

impl<'a, G: SolveGame> Shared<'a, G> {
    /// What the threads of a solve with `opts` share: the table `tt`, the
    /// database `tb` if any, and the graph with its bounds where built.
    pub(super) fn new(
        tt: Tt,
        tb: Option<&'a dyn Tablebase<G>>,
        graph: Option<Graph<G>>,
        bounds: Bounds,
        opts: &SolveOptions,
        start: Instant,
    ) -> Self {
        let threads = opts.threads.max(1);
        Shared {
            tt,
            tb,
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
        }
    }

    /// A stop, or another thread has finished the pass.
    pub(super) fn stop_asked(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// One thread's search of a solve: the line it is on, its counts, and what
/// it reuses from node to node. The first (`id` 0) also reports and drives
/// the passes ([`super::mtdf`]).
pub(super) struct Searcher<'a, G: SolveGame> {
    pub(super) sh: &'a Shared<'a, G>,
    /// The graph's bounds this searcher reads ([`Shared::bounds`]).
    pub(super) bounds: Arc<Bounds>,
    /// 0 for the thread that reports; the others are helpers.
    pub(super) id: usize,
    /// Hashes of the positions on the line searched, with their group (the
    /// component, or without a graph the seeds in play), for the
    /// repetition rule.
    pub(super) history: Vec<(u64, u32)>,
    /// With a graph, what a repetition of each position of the line since
    /// the graph's root pays (South's view): the latest entries of
    /// `history`, with its node, for the bounds below a line
    /// ([`line_bounds`]).
    pub(super) line_pay: Vec<(u32, i32)>,
    /// The threshold (South's view) of the pass being searched and its
    /// open components, once the graph is built.
    pub(super) open: Option<(i32, Arc<OpenLevel>)>,
    /// With a graph, per entry of the line, what finds a node's key in
    /// constant time however long the line ([`Searcher::line_at`]).
    pub(super) marks: Vec<Mark>,
    /// With a graph, whether each node is on the line.
    pub(super) on_line: Vec<bool>,
    /// With a graph, the line's positions in each open component of the
    /// pass's threshold, folded.
    pub(super) open_sets: rustc_hash::FxHashMap<u32, u64>,
    pub(super) nodes: u64,
    pub(super) tbhits: u64,
    /// What a helper has already added to the shared counts.
    pub(super) flushed: (u64, u64),
    /// When the next report inside a pass is due.
    pub(super) reports: Throttle,
    pub(super) pass: u32,
    pub(super) beta: i32,
    pub(super) lower: i32,
    pub(super) upper: i32,
    pub(super) progress: Option<&'a mut dyn FnMut(&SolveProgress)>,
    /// The root move that failed high in the current pass.
    pub(super) root_best: Option<usize>,
    /// See [`SolveProgress::root_moves`].
    pub(super) root_moves: (usize, usize),
    /// Move, child and deferred-child lists per ply, reused so that nodes
    /// do not allocate.
    pub(super) buffers: Vec<Buffers<G>>,
    /// The table keys of a node's children for its transposition cutoffs
    /// (none for a finished game), and whether each holds only a threshold.
    pub(super) etc_keys: Vec<Option<(u64, bool)>>,
    /// Once set, every node returns at once and the pass is thrown away:
    /// a stop, or another thread's finishing the pass.
    pub(super) stopped: bool,
    /// What [`OpenArena::play_out`] reuses from call to call.
    pub(super) play: PlayOut,
}

/// A child of a node, as the node searches it.
pub(super) struct Child<G> {
    pub(super) pos: G,
    /// Its place in the order of search, highest first
    /// ([`Searcher::order_children`]).
    pub(super) order: i32,
    /// The index of its move among the node's legal moves.
    pub(super) index: usize,
    /// Its graph node, where the graph is built.
    pub(super) node: Option<usize>,
}

/// A node's legal moves, its children and the children it defers.
pub(super) type Buffers<G> = (
    Vec<<G as crate::game::Game>::Move>,
    Vec<Child<G>>,
    Vec<usize>,
);

impl<'a, G: SolveGame> Searcher<'a, G> {
    pub(super) fn new(
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

    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes + self.sh.helper_nodes.load(Ordering::Relaxed)
    }

    pub(super) fn total_tbhits(&self) -> u64 {
        self.tbhits + self.sh.helper_tbhits.load(Ordering::Relaxed)
    }

    /// Adds a helper's work since the last call to the shared counts.
    pub(super) fn flush(&mut self) {
        if self.id > 0 {
            let sh = self.sh;
            sh.helper_nodes
                .fetch_add(self.nodes - self.flushed.0, Ordering::Relaxed);
            sh.helper_tbhits
                .fetch_add(self.tbhits - self.flushed.1, Ordering::Relaxed);
            self.flushed = (self.nodes, self.tbhits);
        }
    }

    pub(super) fn report(&mut self, pass_done: bool) {
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

    /// Whether to give up the pass: a stop, or another thread has
    /// finished it.
    pub(super) fn should_stop(&mut self) -> bool {
        self.flush();
        self.sh.stop_asked()
    }

    /// The threshold (South's view) a null-window node tests: South to move
    /// asks whether he gets `alpha + 1`, North whether South stays below
    /// `-alpha`.
    pub(super) fn threshold(side: crate::game::Side, alpha: i32) -> i32 {
        if side == crate::game::Side::South {
            alpha + 1
        } else {
            -alpha
        }
    }
}
