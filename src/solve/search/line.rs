//! The line searched, for the repetition rule: the positions put on it and
//! taken off as the search goes, and what of it a node's table key holds.

use super::key::{Line, Mark};
use super::searcher::Searcher;
use crate::game::SolveGame;
use crate::solve::graph::NOT_KEPT;
#[cfg(doc)]
use crate::solve::graph::{Graph, line_bounds};

impl<'a, G: SolveGame> Searcher<'a, G> {
    /// Puts `pos` (graph node `node`, where the graph is built) on the line.
    pub(super) fn enter(&mut self, pos: &G, node: Option<usize>) {
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

    pub(super) fn leave(&mut self) {
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

    /// The part of the line a position could still repeat is the line's
    /// latest run of positions in the same group as it: its component of
    /// the graph, or without a graph its seeds in play (a capture takes
    /// seeds out of play for good, so nothing before it recurs).
    pub(super) fn group(&self, pos: &G, node: Option<usize>) -> u32 {
        match (&self.sh.graph, node) {
            (Some(g), Some(v)) => g.comp[v],
            _ => pos.seeds_in_play(),
        }
    }

    /// The graph's node of a position, where the graph is built.
    pub(super) fn node_of(&self, pos: &G) -> Option<usize> {
        let g = self.sh.graph.as_ref()?;
        Some(
            g.node_of(pos)
                .expect("the graph holds every position reachable from the root")
                as usize,
        )
    }

    /// The positions on the line before a position of `group` that it could
    /// still repeat, folded into one word (XOR: they are a set, each
    /// position occurs at most once on a line). The value of a position
    /// depends on exactly this set, so it is part of the key.
    pub(super) fn repeatable(&self, group: u32) -> u64 {
        let mut set = 0;
        for &(h, g) in self.history.iter().rev() {
            if g != group {
                break;
            }
            set ^= h;
        }
        set
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
    pub(super) fn line_at(&self, node: Option<usize>, group: u32, t: Option<i32>) -> Line {
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
}
