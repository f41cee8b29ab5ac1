//! The exact values where every repetition inside each component pays the
//! same (Oware under `split`): the endless game on each component, solved
//! sinks first by attractors (see [`super`]).

use super::Graph;
use crate::game::{Side, SolveGame};
use crate::solve::margin;

impl<G: SolveGame> Graph<G> {
    /// Whether every repetition inside each component is worth the same
    /// (South's view): then [`Graph::values`] is exact.
    pub fn cycles_pay_constant(&self) -> bool {
        let mut pay: Vec<Option<i32>> = vec![None; self.comp_size.len()];
        for v in 0..self.nodes.len() {
            let c = self.comp[v] as usize;
            if self.comp_size[c] < 2 {
                continue;
            }
            let r = self.repetition_south(v);
            match pay[c] {
                None => pay[c] = Some(r),
                Some(p) if p != r => return false,
                Some(_) => {}
            }
        }
        true
    }

    /// The value (South's view) of every node for a line that starts there,
    /// when [`Graph::cycles_pay_constant`].
    pub fn values(&self) -> Vec<i32> {
        let mut value = vec![0i32; self.nodes.len()];
        let comps = self.comp_size.len();
        let (first, members) = self.members();
        let mut work = Work::default();
        for c in 0..comps {
            let nodes = &members[first[c] as usize..first[c + 1] as usize];
            let v = nodes[0] as usize;
            if nodes.len() == 1 && !self.children(v).contains(&nodes[0]) {
                value[v] = self.minimax(v, &value);
            } else {
                let pay = self.repetition_south(nodes[0] as usize);
                self.solve_component(c, nodes, None, pay, &mut value, &mut work);
            }
        }
        value
    }

    /// The values (South's view) of the root's moves, `values` being
    /// [`Graph::values`]: those of the same game with the root already
    /// played, a node whose repetition ends the game. Only the root's
    /// component can reach the root, so only it changes.
    pub fn root_move_values(&self, values: &[i32]) -> Vec<i32> {
        let c = self.comp[0];
        let nodes: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&v| self.comp[v as usize] == c)
            .collect();
        let mut value = values.to_vec();
        let pay = self.repetition_south(0);
        self.solve_component(
            c as usize,
            &nodes,
            Some(0),
            pay,
            &mut value,
            &mut Work::default(),
        );
        self.children(0)
            .iter()
            .map(|&w| value[w as usize])
            .collect()
    }

    /// The value of a node without cycles through it, from its children's.
    pub(super) fn minimax(&self, v: usize, value: &[i32]) -> i32 {
        let pos = &self.nodes[v];
        if let Some(o) = pos.outcome() {
            return margin(o, Side::South);
        }
        let kids = self.children(v).iter().map(|&w| value[w as usize]);
        let best = if pos.side_to_move() == Side::South {
            kids.max()
        } else {
            kids.min()
        };
        best.expect("a game not over has a move")
    }

    /// Solves one component whose cycles all pay the same, given the values
    /// of every component below it; `sink`, if given, is a node of it that
    /// has already been played (reaching it ends the game by repetition).
    /// South's value at a node is the largest `k` such that South can force
    /// an exit worth at least `k`, or, when the endless play is worth at
    /// least `k`, North cannot force an exit worth less. Each candidate `k`
    /// is one attractor computation over the component's moves reversed.
    pub(super) fn solve_component(
        &self,
        c: usize,
        nodes: &[u32],
        sink: Option<usize>,
        endless: i32,
        value: &mut [i32],
        w: &mut Work,
    ) {
        let len = nodes.len();
        w.clear(len);
        let local = |x: usize| nodes.binary_search(&(x as u32)).ok();
        let mut candidates = vec![endless];
        // Moves inside, counted, then the reverse lists (compressed rows).
        for (i, &v) in nodes.iter().enumerate() {
            let v = v as usize;
            if Some(v) == sink {
                continue;
            }
            for &x in self.children(v) {
                let x = x as usize;
                let exit = if Some(x) == sink {
                    Some(endless)
                } else if self.comp[x] as usize != c {
                    Some(value[x])
                } else {
                    None
                };
                match exit {
                    Some(e) => {
                        w.min_exit[i] = w.min_exit[i].min(e);
                        w.max_exit[i] = w.max_exit[i].max(e);
                        candidates.push(e);
                    }
                    None => {
                        w.inside[i] += 1;
                        let j = local(x).expect("a member of the component");
                        w.rev_start[j + 1] += 1;
                    }
                }
            }
        }
        for j in 0..len {
            w.rev_start[j + 1] += w.rev_start[j];
        }
        w.rev.resize(w.rev_start[len] as usize, 0);
        let mut fill = w.rev_start.clone();
        for (i, &v) in nodes.iter().enumerate() {
            let v = v as usize;
            if Some(v) == sink {
                continue;
            }
            for &x in self.children(v) {
                let x = x as usize;
                if Some(x) != sink && self.comp[x] as usize == c {
                    let j = local(x).expect("a member of the component");
                    w.rev[fill[j] as usize] = i as u32;
                    fill[j] += 1;
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut best = vec![candidates[0]; len];
        let mut count = vec![0u32; len];
        let mut queue = Vec::new();
        for &k in &candidates[1..] {
            // The player who needs an exit: South when the endless play
            // does not reach k, else North (to keep South below k).
            let south_attacks = endless < k;
            let attacker = if south_attacks {
                Side::South
            } else {
                Side::North
            };
            // Whether an exit worth e is good for the attacker.
            let good = |e: i32| if south_attacks { e >= k } else { e < k };
            queue.clear();
            for (i, &v) in nodes.iter().enumerate() {
                let v = v as usize;
                if Some(v) == sink {
                    // Never entered (moves into it count as exits).
                    count[i] = u32::MAX;
                    continue;
                }
                let has_exit = w.min_exit[i] <= w.max_exit[i];
                let (any_good, any_bad) = if !has_exit {
                    (false, false)
                } else if south_attacks {
                    (good(w.max_exit[i]), !good(w.min_exit[i]))
                } else {
                    (good(w.min_exit[i]), !good(w.max_exit[i]))
                };
                count[i] = if self.nodes[v].side_to_move() == attacker {
                    if any_good { 0 } else { 1 }
                } else if any_bad {
                    // The defender leaves by an exit bad for the attacker.
                    u32::MAX
                } else {
                    w.inside[i]
                };
                if count[i] == 0 {
                    queue.push(i as u32);
                }
            }
            while let Some(i) = queue.pop() {
                let i = i as usize;
                for &p in &w.rev[w.rev_start[i] as usize..w.rev_start[i + 1] as usize] {
                    let p = p as usize;
                    if count[p] == 0 || count[p] == u32::MAX {
                        continue;
                    }
                    count[p] -= 1;
                    if count[p] == 0 {
                        queue.push(p as u32);
                    }
                }
            }
            // South reaches k where South's attack wins, or North's fails.
            for i in 0..len {
                if (count[i] == 0) == south_attacks {
                    best[i] = k;
                }
            }
        }
        for (i, &v) in nodes.iter().enumerate() {
            value[v as usize] = best[i];
        }
    }
}

/// Scratch space of [`Graph::solve_component`], reused across components.
#[derive(Default)]
pub(super) struct Work {
    inside: Vec<u32>,
    min_exit: Vec<i32>,
    max_exit: Vec<i32>,
    rev_start: Vec<u32>,
    rev: Vec<u32>,
}

impl Work {
    fn clear(&mut self, len: usize) {
        self.inside.clear();
        self.inside.resize(len, 0);
        self.min_exit.clear();
        self.min_exit.resize(len, i32::MAX);
        self.max_exit.clear();
        self.max_exit.resize(len, i32::MIN);
        self.rev_start.clear();
        self.rev_start.resize(len + 1, 0);
        self.rev.clear();
    }
}
