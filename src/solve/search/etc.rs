//! Enhanced transposition cutoffs: before a node searches any child, a
//! child the table already proves good enough ends it.

use super::key::Line;
use super::node::At;
use super::searcher::{Child, Searcher};
use crate::game::SolveGame;

impl<'a, G: SolveGame> Searcher<'a, G> {
    /// Enhanced transposition cutoff: a child the table already proves good
    /// enough ends the node before any search. Its value (side to move's
    /// view, `beta` where its entry only answers the pass's question) and
    /// the index of its move, if there is one.
    ///
    /// Part of [`Searcher::search_at`]'s work at every node, so inlined
    /// there: out of line (the compiler's choice) it cost 6% more
    /// instructions on Kalah 6x3 (cachegrind) and some 4% of the time.
    #[inline(always)]
    pub(super) fn transposition_cut(
        &mut self,
        pos: &G,
        at: &At,
        children: &[Child<G>],
    ) -> Option<(i32, usize)> {
        let sh = self.sh;
        let (node, line, group, t, side, beta) =
            (at.node, at.line, at.group, at.t, at.side, at.beta);
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
        for c in children {
            let (child, child_node) = (&c.pos, c.node);
            if child.outcome().is_some() {
                keys.push(None);
                continue;
            }
            let child_line = match (line, child_node) {
                (_, Some(_)) => self.line_at(child_node, self.group(child, child_node), t),
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
        for (c, &k) in children.iter().zip(&keys) {
            let Some((k, only_threshold)) = k else {
                continue;
            };
            if let Some(p) = sh.tt.probe(k) {
                let cb = c.pos.banked();
                let v = if c.pos.side_to_move() == side {
                    p.lo + cb
                } else {
                    -(p.hi + cb)
                };
                if v >= beta {
                    cut = Some((if only_threshold { beta } else { v }, c.index));
                    break;
                }
            }
        }
        self.etc_keys = keys;
        if node.is_some() {
            self.leave();
        }
        cut
    }
}
