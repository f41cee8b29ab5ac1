//! The graph of every position a solve can reach, for games whose positions
//! can repeat (Oware), split into strongly connected components.
//!
//! Under a first-repetition rule the value of a position depends on the
//! line that led to it, but only on a small part of it. A play that leaves
//! a strongly connected component (SCC) can never come back to it, so the
//! positions of the line in *other* components can never recur: the value
//! of a position `p` reached by the line `h` depends on `h ∩ scc(p)` alone.
//! Two consequences make the solver exact and still able to share its
//! table:
//!
//! * The search keys its table on the position together with the positions
//!   of the line that lie in the position's own component ([`Graph::comp`]).
//!   On entering a component that set is empty, so every position that
//!   starts a component, and every position of a trivial one, has one entry
//!   whatever the line.
//! * Where every repetition inside each component is worth the same (Oware
//!   under `split`: the stores, which only a capture changes, and a capture
//!   always leaves the component), every cycle pays the same, and the
//!   theorem of Ehrenfeucht and Mycielski (1979) on games that stop at the
//!   first cycle says the value from a position with an empty line equals
//!   that of the endless game in which a play that goes round for ever pays
//!   the component's constant. That game needs no history: [`Graph::values`]
//!   solves it component by component, sinks first, by attractors.
//!
//! The graph's files, one concern each: `build` finds the positions and
//! their moves (with `index`, the node of each position hash),
//! `components` its strongly connected components, `values` the exact
//! values where every cycle pays the same, and `first_repetition` the
//! bounds where the pay depends on the position repeated.

mod build;
mod components;
mod first_repetition;
mod index;
mod values;

pub(crate) use components::NOT_KEPT;
pub(crate) use first_repetition::{OpenArena, PlayOut, Window, line_bounds};

use super::margin;
use crate::game::Side;
use crate::game::SolveGame;
use index::NodeIndex;

/// A flag someone else sets to stop the graph's work (the protocol's
/// `stop`), if any: what was found then is thrown away.
pub(crate) type Stop<'a> = Option<&'a std::sync::atomic::AtomicBool>;

fn is_set(stop: Stop) -> bool {
    stop.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
}

/// The positions reachable from a root, their moves and components.
pub(crate) struct Graph<G> {
    pub nodes: Vec<G>,
    /// The children of node `v` are `targets[starts[v]..starts[v + 1]]`, in
    /// the order of its legal moves.
    pub starts: Vec<u32>,
    pub targets: Vec<u32>,
    /// Component of each node; numbered sinks first (every move leads to
    /// the same component or to one with a smaller number).
    pub comp: Vec<u32>,
    pub comp_size: Vec<u32>,
    /// Node of each position hash. Building fails on two positions with one
    /// hash, so a hash names one reachable position.
    index: NodeIndex,
}

/// Why no graph was built.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum GraphError {
    /// More reachable positions than allowed.
    TooLarge,
    /// Two different positions share a hash (the table could not tell them
    /// apart).
    Collision,
    /// Asked to stop.
    Stopped,
}

impl<G: SolveGame> Graph<G> {
    /// The node of a reachable position.
    pub fn node_of(&self, pos: &G) -> Option<u32> {
        self.index.find(pos.hash())
    }

    /// Whether a reachable position has hash `hash`.
    pub fn reaches_hash(&self, hash: u64) -> bool {
        self.index.find(hash).is_some()
    }

    /// The nodes sorted by component, sinks first: component `c` is
    /// `members[first[c]..first[c + 1]]`, in increasing order.
    fn members(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.nodes.len();
        let comps = self.comp_size.len();
        let mut first = vec![0u32; comps + 1];
        for c in 0..comps {
            first[c + 1] = first[c] + self.comp_size[c];
        }
        let mut members = vec![0u32; n];
        let mut fill = first.clone();
        for v in 0..n {
            let c = self.comp[v] as usize;
            members[fill[c] as usize] = v as u32;
            fill[c] += 1;
        }
        (first, members)
    }

    pub fn children(&self, v: usize) -> &[u32] {
        &self.targets[self.starts[v] as usize..self.starts[v + 1] as usize]
    }

    /// What a repetition of node `v` ends the game with, South's view.
    pub fn repetition_south(&self, v: usize) -> i32 {
        let pos = &self.nodes[v];
        let south = |m: i32| {
            if pos.side_to_move() == Side::South {
                m
            } else {
                -m
            }
        };
        south(
            pos.repetition_outcome()
                .map_or(pos.banked(), |o| margin(o, pos.side_to_move())),
        )
    }
}
