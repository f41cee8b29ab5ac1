//! What the graph's bounds tell a node of the search: its bounds for a line
//! that holds nothing of its component, or below the line searched; made
//! exact at a pass's threshold, and the open components of that threshold.

use std::sync::Arc;

use super::bounds::{Bounds, OpenLevel, WINDOW_SPREAD, large_open_arenas};
use super::key::Line;
use super::options::{GraphStage, SolveProgress};
use super::report::stage_report;
use super::searcher::Searcher;
use crate::game::SolveGame;
use crate::solve::graph::line_bounds;
#[cfg(doc)]
use crate::solve::graph::{Graph, Window};

impl<'a, G: SolveGame> Searcher<'a, G> {
    /// Bounds (side to move's view) on the value of node `v` of the graph
    /// for a line that holds nothing of its component.
    pub(super) fn entry_bounds(&self, v: usize, side: crate::game::Side) -> (i32, i32) {
        let (lo, hi) = (self.bounds.lo[v], self.bounds.hi[v]);
        if side == crate::game::Side::South {
            (lo, hi)
        } else {
            (-hi, -lo)
        }
    }

    /// Bounds (side to move's view) on the value of graph node `v`, given
    /// what its key holds of the line. Below a run that holds a position
    /// the pass's threshold decides, [`line_bounds`] widens the entry bounds
    /// by what the run could pay by repeating; below a run of open
    /// positions it leaves them as they are wherever they decide the
    /// threshold (see [`Searcher::line_at`]), and elsewhere they decide
    /// nothing, so the entry bounds serve.
    pub(super) fn graph_bounds(&self, v: usize, side: crate::game::Side, line: Line) -> (i32, i32) {
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

    /// Makes the graph's bounds exact at threshold `t` if they are not
    /// ([`Window`]): plays the games again on the window widened to take
    /// in `t` and the thresholds around it, for this searcher and those
    /// started after it. What was worked out from the old bounds is only
    /// weaker than from the new, but the open components of each threshold
    /// are worked out again. False, and the bounds unchanged, if asked to
    /// stop meanwhile.
    pub(super) fn bounds_exact_at(&mut self, t: i32) -> bool {
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
    pub(super) fn open_for(&mut self, t: i32) {
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
}
