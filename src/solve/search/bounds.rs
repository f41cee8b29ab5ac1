//! The graph's bounds as the search reads them: per node and per root
//! move, exact in a window of thresholds around the pass's, and the open
//! components of each threshold the passes test.

use super::super::graph::{Graph, NOT_KEPT, OpenArena, Stop, Window};
use crate::game::SolveGame;

/// How far on either side of the first guess's threshold the graph's
/// bounds are first made exact ([`Window`]). A wider window costs more
/// games; a pass whose threshold falls outside it plays them again on a
/// window widened to take it in
/// ([`Searcher::bounds_exact_at`](super::searcher::Searcher::bounds_exact_at)).
pub(super) const WINDOW_SPREAD: i32 = 2;

/// The graph's bounds, as the search reads them.
#[derive(Default)]
pub(super) struct Bounds {
    /// South's view, per node, for a line that holds nothing of its
    /// component ([`Graph::repetition_bounds_reporting`]).
    pub(super) lo: Vec<i32>,
    pub(super) hi: Vec<i32>,
    /// South's view, per root move in the order of the legal moves, for
    /// the line that holds only the root ([`Graph::root_move_bounds`]).
    pub(super) root_moves: Vec<(i32, i32)>,
    /// The thresholds at which they are exact (elsewhere only sound).
    pub(super) window: Window,
}

impl Bounds {
    /// The bounds of `g` exact at the thresholds of `window`; `None` once
    /// `stop` is set.
    pub(super) fn of<G: SolveGame>(
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

    pub(super) fn exact_at(&self, t: i32) -> bool {
        self.window.is_none_or(|(a, b)| a <= t && t <= b)
    }
}

/// The open components of one threshold: each graph node's label, and the
/// large ones as games of their own.
pub(super) struct OpenLevel {
    pub(super) labels: Vec<u32>,
    pub(super) arenas: rustc_hash::FxHashMap<u32, OpenArena>,
}

/// The open components of at least `min` positions among `labels`, as
/// games of their own.
pub(super) fn large_open_arenas<G: SolveGame>(
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
