//! Move ordering: the order in which a node searches its children, best
//! first, so that a cutoff comes as early as it can.

use super::node::At;
use super::searcher::{Child, Searcher};
use crate::game::SolveGame;

impl<'a, G: SolveGame> Searcher<'a, G> {
    /// The children of `pos` into `children`, one for each of its `moves`,
    /// each with its graph node and its place in the order of search: the
    /// table's move first, then extra turns, then by what the move banks at
    /// once; where the graph gives bounds, they come first.
    pub(super) fn order_children(
        &self,
        pos: &G,
        at: &At,
        tt_move: Option<usize>,
        moves: &[G::Move],
        children: &mut Vec<Child<G>>,
    ) {
        let sh = self.sh;
        let (node, side, alpha, beta, banked) = (at.node, at.side, at.alpha, at.beta, at.banked);
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
            children.push(Child {
                pos: child,
                order,
                index: i,
                node: child_node,
            });
        }
    }
}
