//! One component as a game: its moves inside (both ways), each node's
//! repetition pay and the range of its exits' bounds, and the solver of the
//! co-Büchi game played on it at one threshold (nested attractors).

use super::super::{Graph, Stop, is_set};
use super::Window;
use crate::game::{Side, SolveGame};

/// One component as a game: its moves inside (both ways) and, per node,
/// the range of the bounds of its exits.
#[derive(Default)]
pub(super) struct Arena<'a> {
    /// Local index of each node of the graph in the component loaded.
    pub(super) local: Vec<u32>,
    /// Whether a large component may take two threads.
    pub(super) two_threads: bool,
    /// Set when the games should stop (what they found is then not used).
    pub(super) stop: Stop<'a>,
    /// The thresholds played.
    pub(super) window: Window,
    pub(super) south: Vec<bool>,
    pub(super) pay: Vec<i32>,
    pub(super) succ_start: Vec<u32>,
    pub(super) succ: Vec<u32>,
    pub(super) pred_start: Vec<u32>,
    pub(super) pred: Vec<u32>,
    /// Least and most of the exits' lower and upper bounds (MAX/MIN: none).
    pub(super) exit_lo_min: Vec<i32>,
    pub(super) exit_lo_max: Vec<i32>,
    pub(super) exit_hi_min: Vec<i32>,
    pub(super) exit_hi_max: Vec<i32>,
}

impl Arena<'_> {
    /// Whether the games were asked to stop.
    pub(super) fn stopped(&self) -> bool {
        is_set(self.stop)
    }

    /// Loads `nodes`, the members of component `c` but `sink` (if given):
    /// a move into the sink is an exit like those out of the component.
    pub(super) fn load<G: SolveGame>(
        &mut self,
        g: &Graph<G>,
        c: usize,
        nodes: &[u32],
        sink: Option<usize>,
        lo: &[i32],
        hi: &[i32],
    ) {
        let len = nodes.len();
        for (i, &v) in nodes.iter().enumerate() {
            self.local[v as usize] = i as u32;
        }
        self.south.clear();
        self.pay.clear();
        self.succ_start.clear();
        self.succ.clear();
        for v in [
            &mut self.exit_lo_min,
            &mut self.exit_lo_max,
            &mut self.exit_hi_min,
            &mut self.exit_hi_max,
        ] {
            v.clear();
        }
        self.pred_start.clear();
        self.pred_start.resize(len + 1, 0);
        self.succ_start.push(0);
        for (r, &v) in nodes.iter().enumerate() {
            // The children lie anywhere in the graph: ask for their
            // component and local index two steps ahead, and for the
            // bounds of those that leave it one step ahead, so that the
            // misses overlap.
            if let Some(&a) = nodes.get(r + 2 * AHEAD) {
                for &x in g.children(a as usize) {
                    crate::solve::prefetch(&g.comp[x as usize]);
                    crate::solve::prefetch(&self.local[x as usize]);
                }
            }
            if let Some(&a) = nodes.get(r + AHEAD) {
                crate::solve::prefetch(&g.nodes[a as usize]);
                for &x in g.children(a as usize) {
                    let x = x as usize;
                    if g.comp[x] as usize != c {
                        crate::solve::prefetch(&lo[x]);
                        crate::solve::prefetch(&hi[x]);
                    }
                }
            }
            let v = v as usize;
            self.south.push(g.nodes[v].side_to_move() == Side::South);
            self.pay.push(g.repetition_south(v));
            let (mut lmin, mut lmax, mut hmin, mut hmax) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
            for &x in g.children(v) {
                let x = x as usize;
                if g.comp[x] as usize == c && Some(x) != sink {
                    let j = self.local[x];
                    self.succ.push(j);
                    self.pred_start[j as usize + 1] += 1;
                } else {
                    lmin = lmin.min(lo[x]);
                    lmax = lmax.max(lo[x]);
                    hmin = hmin.min(hi[x]);
                    hmax = hmax.max(hi[x]);
                }
            }
            self.succ_start.push(self.succ.len() as u32);
            self.exit_lo_min.push(lmin);
            self.exit_lo_max.push(lmax);
            self.exit_hi_min.push(hmin);
            self.exit_hi_max.push(hmax);
        }
        self.fill_preds();
    }

    /// The moves backwards, from the moves (`succ`) and, in
    /// `pred_start[j + 1]`, how many of them lead to node `j`.
    pub(super) fn fill_preds(&mut self) {
        let len = self.succ_start.len() - 1;
        for j in 0..len {
            self.pred_start[j + 1] += self.pred_start[j];
        }
        self.pred.clear();
        self.pred.resize(self.succ.len(), 0);
        let mut fill = self.pred_start.clone();
        for i in 0..len {
            for &j in &self.succ[self.succ_start[i] as usize..self.succ_start[i + 1] as usize] {
                self.pred[fill[j as usize] as usize] = i as u32;
                fill[j as usize] += 1;
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        self.south.len()
    }

    pub(super) fn succs(&self, i: usize) -> &[u32] {
        &self.succ[self.succ_start[i] as usize..self.succ_start[i + 1] as usize]
    }

    fn preds(&self, i: usize) -> &[u32] {
        &self.pred[self.pred_start[i] as usize..self.pred_start[i + 1] as usize]
    }

    /// Where the player `p` (South if `south`) wins the endless game in
    /// which he must leave by an exit good for him (`good[i]`: node `i` has
    /// one) or from some point on stay in `safe` for ever, and loses by
    /// leaving by a bad one: `s.won`; returns how many nodes that is.
    /// The opponent's Büchi game (visit outside `safe` infinitely often, or
    /// leave badly for `p`), solved by its classic fixed point: the nodes
    /// outside the opponent's attractor to his targets are `p`'s, so is
    /// their attractor for `p`; remove it and repeat until the opponent
    /// reaches his targets from everywhere left.
    ///
    /// The game is played on the nodes of `s.region` only: a move of `p`
    /// out of it counts as lost for `p` (a move he has into a node he wins
    /// must be marked as a good exit), and a move of the opponent out of it
    /// as won for `p` (one into a node `p` loses must be marked as a bad
    /// exit), which is how [`Arena::split`] uses it. `s.region` is left
    /// holding what the opponent wins in it.
    pub(super) fn cobuchi(&self, south: bool, flag: &Flags, s: &mut Scratch) -> usize {
        let (safe, good, bad) = (&flag.safe, &flag.good, &flag.bad);
        let len = self.len();
        let mine = |i: usize| self.south[i] == south;
        // A node outside the region counts as gone: every node is DEAD
        // between two games, and only the region's are set here.
        s.won.resize(len, false);
        s.count.resize(len, DEAD);
        for &i in &s.region {
            s.won[i as usize] = false;
            s.count[i as usize] = 1;
        }
        let mut total = 0;
        loop {
            // The opponent's attractor to his targets, inside what is left
            // (a trap for p: p's nodes there have all their moves inside).
            // A count is DEAD for a node gone and for no other, so a node
            // already counted in this loop still reads as there.
            s.queue.clear();
            for r in 0..s.region.len() {
                self.prefetch_succ_counts(s, r + AHEAD);
                let i = s.region[r] as usize;
                let count = if !safe[i] {
                    0
                } else if mine(i) {
                    if good[i] {
                        NEVER
                    } else {
                        self.succs(i)
                            .iter()
                            .filter(|&&j| s.count[j as usize] != DEAD)
                            .count() as u32
                    }
                } else if bad[i] {
                    0
                } else {
                    1
                };
                s.count[i] = count;
                if count == 0 {
                    s.queue.push(i as u32);
                }
            }
            self.attract(s);
            // What is outside it p keeps out of the targets for ever; then
            // p's attractor to that.
            s.queue.clear();
            for r in 0..s.region.len() {
                self.prefetch_succ_counts(s, r + AHEAD);
                let i = s.region[r] as usize;
                let count = if s.count[i] != 0 || mine(i) && good[i] {
                    0
                } else if mine(i) {
                    1
                } else if bad[i] {
                    NEVER
                } else {
                    // 0 when every move leaves by a good exit.
                    self.succs(i)
                        .iter()
                        .filter(|&&j| s.count[j as usize] != DEAD)
                        .count() as u32
                };
                s.count[i] = count;
                if count == 0 {
                    s.queue.push(i as u32);
                }
            }
            if s.queue.is_empty() {
                for &i in &s.region {
                    s.count[i as usize] = DEAD;
                }
                return total;
            }
            self.attract(s);
            let mut kept = 0;
            for r in 0..s.region.len() {
                let i = s.region[r] as usize;
                if s.count[i] == 0 {
                    s.count[i] = DEAD;
                    s.won[i] = true;
                    total += 1;
                } else {
                    s.region[kept] = i as u32;
                    kept += 1;
                }
            }
            s.region.truncate(kept);
        }
    }

    /// Asks for the counts of the moves of the region's `r`-th node, which
    /// a scan of the region reads [`AHEAD`] nodes later.
    #[inline]
    fn prefetch_succ_counts(&self, s: &Scratch, r: usize) {
        if let Some(&i) = s.region.get(r) {
            for &j in self.succs(i as usize) {
                crate::solve::prefetch(&s.count[j as usize]);
            }
        }
    }

    /// Backward induction from `s.queue` over the nodes still there: a node
    /// joins when its count of moves still needed reaches 0.
    fn attract(&self, s: &mut Scratch) {
        while let Some(i) = s.queue.pop() {
            let preds = self.preds(i as usize);
            // The counts lie anywhere in a large arena: ask for all of
            // them before reading one, so that their misses overlap.
            for &p in preds {
                crate::solve::prefetch(&s.count[p as usize]);
            }
            for &p in preds {
                let c = &mut s.count[p as usize];
                // Joined already, never joins, or gone.
                if *c == 0 || *c >= DEAD {
                    continue;
                }
                *c -= 1;
                if *c == 0 {
                    s.queue.push(p);
                    crate::solve::prefetch(&self.pred_start[p as usize]);
                }
            }
        }
    }
}

#[derive(Default)]
pub(super) struct Scratch {
    pub(super) won: Vec<bool>,
    /// Per node of the arena: the moves it still needs to join the
    /// attractor under way (0: joined), [`NEVER`], or [`DEAD`] (outside
    /// the game, or removed as won). One array, so that following a move
    /// backwards reads one place.
    count: Vec<u32>,
    queue: Vec<u32>,
    /// The nodes the next co-Büchi game is played on.
    pub(super) region: Vec<u32>,
}

/// What [`Arena::cobuchi`] knows of each node at one threshold: whether
/// its repetition is safe for the player, whether he has a good exit there,
/// and whether his opponent has a bad one for him.
#[derive(Default)]
pub(super) struct Flags {
    pub(super) safe: Vec<bool>,
    pub(super) good: Vec<bool>,
    pub(super) bad: Vec<bool>,
}

/// Counts of [`Scratch`]: a node that joins no attractor, and one that is
/// not in the game.
const NEVER: u32 = u32::MAX;
const DEAD: u32 = u32::MAX - 1;

/// How many nodes ahead a scan of a region asks for the counts it will read.
const AHEAD: usize = 8;
