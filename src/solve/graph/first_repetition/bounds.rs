//! The bounds of every position of the graph under a first-repetition rule
//! that pays by the position repeated, for a line that holds nothing of its
//! component, and those of the root's moves: the components taken sinks
//! first, each solved as an [`Arena`].

use super::super::{Graph, Stop, is_set};
use super::Window;
use super::arena::Arena;
use crate::game::{Side, SolveGame};
use crate::solve::margin;

impl<G: SolveGame> Graph<G> {
    /// The bounds without the progress (for tests).
    #[cfg(test)]
    pub fn repetition_bounds(
        &self,
        window: Window,
        threads: usize,
        stop: Stop,
    ) -> Option<(Vec<i32>, Vec<i32>)> {
        self.repetition_bounds_by(true, window, threads, stop, &mut |_| {})
    }

    /// Bounds (South's view) on the value of every node for a line that
    /// holds nothing of its component, under a first-repetition rule whose
    /// pay depends on the position repeated ([`Graph::repetition_south`]);
    /// exact where they meet. Components are solved sinks first, each exit
    /// with the bounds already found for where it leads. With `threads`
    /// above 1, a large component's two sides run on two threads. `None`
    /// once `stop` is set (it is read between two threshold games).
    /// Only the thresholds of `window` are played ([`Window`]).
    ///
    /// `tick` is told now and then how many positions (of the components
    /// taken sinks first) have their bounds.
    pub fn repetition_bounds_reporting(
        &self,
        window: Window,
        threads: usize,
        stop: Stop,
        tick: &mut dyn FnMut(usize),
    ) -> Option<(Vec<i32>, Vec<i32>)> {
        self.repetition_bounds_by(true, window, threads, stop, tick)
    }

    /// [`Graph::repetition_bounds_reporting`], the thresholds split in halves
    /// (`split`) or each threshold's game played on the whole component.
    pub(super) fn repetition_bounds_by(
        &self,
        split: bool,
        window: Window,
        threads: usize,
        stop: Stop,
        tick: &mut dyn FnMut(usize),
    ) -> Option<(Vec<i32>, Vec<i32>)> {
        // Components of fewer positions are told in batches.
        const TOLD: usize = 1 << 16;
        let n = self.nodes.len();
        let mut lo = vec![0i32; n];
        let mut hi = vec![0i32; n];
        let (first, members) = self.members();
        let mut arena = Arena {
            local: vec![u32::MAX; n],
            two_threads: threads > 1,
            stop,
            window,
            ..Arena::default()
        };
        let mut told = 0;
        for c in 0..self.comp_size.len() {
            let nodes = &members[first[c] as usize..first[c + 1] as usize];
            if first[c] as usize >= told + TOLD {
                told = first[c] as usize;
                tick(told);
            }
            let v = nodes[0] as usize;
            if nodes.len() == 1 && !self.children(v).contains(&nodes[0]) {
                let pos = &self.nodes[v];
                if let Some(o) = pos.outcome() {
                    lo[v] = margin(o, Side::South);
                    hi[v] = lo[v];
                    continue;
                }
                let kids = self.children(v);
                let (l, h) = if pos.side_to_move() == Side::South {
                    (
                        kids.iter().map(|&w| lo[w as usize]).max(),
                        kids.iter().map(|&w| hi[w as usize]).max(),
                    )
                } else {
                    (
                        kids.iter().map(|&w| lo[w as usize]).min(),
                        kids.iter().map(|&w| hi[w as usize]).min(),
                    )
                };
                lo[v] = l.expect("a game not over has a move");
                hi[v] = h.expect("a game not over has a move");
                continue;
            }
            arena.load(self, c, nodes, None, &lo, &hi);
            arena.solve(nodes, &mut lo, &mut hi, split);
            if arena.stopped() {
                return None;
            }
        }
        Some((lo, hi))
    }

    /// Bounds (South's view) on the value of each root move for the line
    /// that holds only the root, given
    /// [`Graph::repetition_bounds_reporting`]: the
    /// root's component without the root is solved the same way, the root
    /// an exit worth what its repetition pays (nothing else of the line
    /// can recur). The co-Büchi argument needs no strong connection, so the
    /// rest of the component is one arena.
    /// `None` once `stop` is set.
    /// Only the thresholds of `window` are played, as for the bounds
    /// `lo`, `hi` ([`Window`]).
    pub fn root_move_bounds(
        &self,
        lo: &[i32],
        hi: &[i32],
        window: Window,
        threads: usize,
        stop: Stop,
    ) -> Option<Vec<(i32, i32)>> {
        self.root_move_bounds_by(lo, hi, true, window, threads, stop)
    }

    /// [`Graph::root_move_bounds`], split or not as in
    /// [`Graph::repetition_bounds_by`].
    pub(super) fn root_move_bounds_by(
        &self,
        lo: &[i32],
        hi: &[i32],
        split: bool,
        window: Window,
        threads: usize,
        stop: Stop,
    ) -> Option<Vec<(i32, i32)>> {
        if is_set(stop) {
            return None;
        }
        let c = self.comp[0];
        let nodes: Vec<u32> = (1..self.nodes.len() as u32)
            .filter(|&v| self.comp[v as usize] == c)
            .collect();
        let (mut lo, mut hi) = (lo.to_vec(), hi.to_vec());
        if !nodes.is_empty() {
            let mut arena = Arena {
                local: vec![u32::MAX; self.nodes.len()],
                two_threads: threads > 1,
                stop,
                window,
                ..Arena::default()
            };
            let pay = self.repetition_south(0);
            lo[0] = pay;
            hi[0] = pay;
            arena.load(self, c as usize, &nodes, Some(0), &lo, &hi);
            arena.solve(&nodes, &mut lo, &mut hi, split);
            if arena.stopped() {
                return None;
            }
        }
        Some(
            self.children(0)
                .iter()
                .map(|&w| (lo[w as usize], hi[w as usize]))
                .collect(),
        )
    }
}
