//! An open component's own games at a node of the search: the first time,
//! its open exits are searched and its co-Büchi games played; then they,
//! or the first-cycle game played out, answer for the node below the line.

use super::searcher::Searcher;
use crate::game::SolveGame;
#[cfg(doc)]
use crate::solve::graph::OpenArena;

impl<'a, G: SolveGame> Searcher<'a, G> {
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
    pub(super) fn residual(&mut self, v: usize, t: i32, ply: usize) -> Option<bool> {
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
}
