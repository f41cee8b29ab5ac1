//! Bounds on the values of the first-repetition game when a repetition pays
//! by the position repeated (Oware's default `own-side` rule: each player
//! takes the seeds on his side of the repeated position).
//!
//! One threshold `k` at a time: may South get at least `k`? Inside a
//! component, call `W` its positions whose repetition pays South at least
//! `k`, and an exit good for South if the value it leads to is known to be
//! at least `k`. Suppose South has a positional strategy `σ` that, in the
//! endless game on the component, always either leaves by a good exit or
//! from some point on stays in `W` for ever (a co-Büchi objective). Every
//! cycle of the graph that `σ` leaves (North keeps all his moves) then lies
//! in `W`: North could otherwise go round a cycle with a position outside
//! `W` for ever. In the real game, from a line that holds nothing of the
//! component, play by `σ` either leaves by a good exit or ends at its first
//! repetition, which closes such a cycle at a position of `W`: South gets at
//! least `k` whatever North does. North's side is the same with the
//! positions and exits worth less than `k`. Where neither wins its co-Büchi
//! game at some threshold the value stays open between the two bounds (and
//! really depends on the line: the search finishes the job).
//!
//! Co-Büchi games are determined with positional strategies and are solved
//! by nested attractors (the complement: the opponent's Büchi game).
//!
//! With some positions `H` of the component already on the line, the same
//! strategy still ends every play at a good exit, at a position of `W`, or
//! at a position of `H` (the first repetition may close on the line): South
//! gets at least `min(k, min over H of its repetition pay)`; and since the
//! strategy keeps the play inside South's winning region, only the nodes of
//! `H` in that region count, which is how the search uses these bounds
//! below a line ([`line_bounds`]).

use super::{Graph, SolveGame, Stop, is_set, margin};
use crate::game::Side;

/// The thresholds (South's view) at which
/// [`Graph::repetition_bounds_reporting`] plays its games: every one
/// (`None`), or those of `lo..=hi`.
///
/// A game at threshold `k` needs of an exit only whether its value is
/// known to be at least `k`, which the exit's own game at `k` says. So
/// bounds whose games were played only at the thresholds of a window are
/// exact there: for `k` in it, `lo[v] >= k` exactly where South wins his
/// game at `k`, and `hi[v] < k` where North wins his. Elsewhere they are
/// still sound, only weaker: South's bound is the hardest threshold he was
/// seen to win (at least the least repetition pay or exit bound of the
/// component, which he wins everywhere), North's the mirror image. And
/// [`line_bounds`] stays sound on them, since for the threshold `k0 =
/// lo[v]` its games were played on the whole of `v`'s component, so every
/// node `h` there with `lo[h] >= k0` is in South's region at `k0` and
/// every node of that region has `lo[h] >= k0`. A null-window search at
/// `t` asks of each node only whether South gets `t`: with `t` in the
/// window it meets exactly the decided and open positions of the full
/// bounds, for a fraction of their cost.
pub(crate) type Window = Option<(i32, i32)>;

/// Bounds (South's view) on the value of node `v` reached by a line whose
/// positions in its component are `run` (node, repetition pay), from the
/// entry bounds `lo`, `hi` ([`Graph::repetition_bounds_reporting`]). South's
/// strategy for a threshold `k <= lo[v]` keeps the play inside its winning
/// region, the nodes `h` with `lo[h] >= k`, so the play can only end on a
/// node of the line that lies there: `k` holds unless some such `h` pays
/// less, `pay(h) < k <= lo[h]`. The largest `k` that no node of the run
/// forbids so is the lower bound; North's side is the mirror image.
pub(crate) fn line_bounds(lo: &[i32], hi: &[i32], v: usize, run: &[(u32, i32)]) -> (i32, i32) {
    let mut k = lo[v];
    'down: loop {
        for &(h, pay) in run {
            if pay < k && k <= lo[h as usize] {
                k = pay;
                continue 'down;
            }
        }
        break;
    }
    let mut q = hi[v];
    'up: loop {
        for &(h, pay) in run {
            if hi[h as usize] <= q && q < pay {
                q = pay;
                continue 'up;
            }
        }
        break;
    }
    (k, q)
}

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
    fn repetition_bounds_by(
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
    fn root_move_bounds_by(
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

/// One component as a game: its moves inside (both ways) and, per node,
/// the range of the bounds of its exits.
#[derive(Default)]
struct Arena<'a> {
    /// Local index of each node of the graph in the component loaded.
    local: Vec<u32>,
    /// Whether a large component may take two threads.
    two_threads: bool,
    /// Set when the games should stop (what they found is then not used).
    stop: Stop<'a>,
    /// The thresholds played.
    window: Window,
    south: Vec<bool>,
    pay: Vec<i32>,
    succ_start: Vec<u32>,
    succ: Vec<u32>,
    pred_start: Vec<u32>,
    pred: Vec<u32>,
    /// Least and most of the exits' lower and upper bounds (MAX/MIN: none).
    exit_lo_min: Vec<i32>,
    exit_lo_max: Vec<i32>,
    exit_hi_min: Vec<i32>,
    exit_hi_max: Vec<i32>,
}

impl Arena<'_> {
    /// Whether the games were asked to stop.
    fn stopped(&self) -> bool {
        is_set(self.stop)
    }

    /// Loads `nodes`, the members of component `c` but `sink` (if given):
    /// a move into the sink is an exit like those out of the component.
    fn load<G: SolveGame>(
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
                    super::super::prefetch(&g.comp[x as usize]);
                    super::super::prefetch(&self.local[x as usize]);
                }
            }
            if let Some(&a) = nodes.get(r + AHEAD) {
                super::super::prefetch(&g.nodes[a as usize]);
                for &x in g.children(a as usize) {
                    let x = x as usize;
                    if g.comp[x] as usize != c {
                        super::super::prefetch(&lo[x]);
                        super::super::prefetch(&hi[x]);
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
    fn fill_preds(&mut self) {
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

    fn len(&self) -> usize {
        self.south.len()
    }

    fn succs(&self, i: usize) -> &[u32] {
        &self.succ[self.succ_start[i] as usize..self.succ_start[i + 1] as usize]
    }

    fn preds(&self, i: usize) -> &[u32] {
        &self.pred[self.pred_start[i] as usize..self.pred_start[i + 1] as usize]
    }

    /// Writes the component's bounds: the lower bound is the largest
    /// threshold South's co-Büchi game wins, the upper the least North's
    /// keeps South under, plus one. Both regions shrink (grow) with the
    /// threshold and change only where it passes a repetition pay or an
    /// exit's bound, so only those thresholds are tried.
    ///
    /// With `split`, the thresholds are split in halves ([`Arena::split`]):
    /// each node then takes part in about log2 of their number of games
    /// instead of one per threshold it wins. Without, every threshold's game
    /// is played on the whole component; the bounds are the same either
    /// way, which a test checks. South's and North's sides are independent
    /// and, for a large component, run on two threads if allowed.
    fn solve(&self, nodes: &[u32], lo: &mut [i32], hi: &mut [i32], split: bool) {
        let mut tries: Vec<i32> = self.pay.clone();
        tries.extend(
            self.exit_lo_min
                .iter()
                .chain(&self.exit_lo_max)
                .filter(|&&e| e != i32::MAX && e != i32::MIN),
        );
        tries.sort_unstable();
        tries.dedup();
        // South at threshold k: stay where repetitions pay at least k, or
        // leave by an exit worth at least k.
        let south = |i: usize, k: i32| {
            (
                self.pay[i] >= k,
                self.exit_lo_max[i] != i32::MIN && self.exit_lo_max[i] >= k,
                self.exit_lo_min[i] != i32::MAX && self.exit_lo_min[i] < k,
            )
        };
        let mut ups: Vec<i32> = self.pay.clone();
        ups.extend(
            self.exit_hi_min
                .iter()
                .chain(&self.exit_hi_max)
                .filter(|&&e| e != i32::MAX && e != i32::MIN),
        );
        ups.sort_unstable();
        ups.dedup();
        // North keeps South under k = q + 1, the largest q first (the
        // easiest for North).
        let ks: Vec<i32> = ups.iter().rev().map(|&q| q + 1).collect();
        let north = |i: usize, k: i32| {
            (
                self.pay[i] < k,
                self.exit_hi_min[i] != i32::MAX && self.exit_hi_min[i] < k,
                self.exit_hi_max[i] != i32::MIN && self.exit_hi_max[i] >= k,
            )
        };
        let (tries, ks) = match self.window {
            None => (tries, ks),
            Some(w) => (in_window(&tries, w, true), in_window(&ks, w, false)),
        };
        let (south_best, north_best) = if self.two_threads && self.len() >= PARALLEL_ARENA {
            std::thread::scope(|scope| {
                let n = scope.spawn(|| self.hardest_won(false, &ks, &north, split));
                let s = self.hardest_won(true, &tries, &south, split);
                (s, n.join().expect("the bounds thread does not panic"))
            })
        } else {
            (
                self.hardest_won(true, &tries, &south, split),
                self.hardest_won(false, &ks, &north, split),
            )
        };
        for (i, &v) in nodes.iter().enumerate() {
            lo[v as usize] = tries[south_best[i]];
            hi[v as usize] = ks[north_best[i]] - 1;
        }
    }

    /// For each node, the index of the hardest of the thresholds `ks`
    /// (easiest first; the first is won everywhere) at which the player `p`
    /// (South if `south`) wins his co-Büchi game; `flags(i, k)` says
    /// whether node `i` is safe for `p` at `k`, has an exit good for `p`,
    /// and one bad for him.
    fn hardest_won(
        &self,
        south: bool,
        ks: &[i32],
        flags: &dyn Fn(usize, i32) -> (bool, bool, bool),
        split: bool,
    ) -> Vec<usize> {
        let len = self.len();
        let mut s = Scratch::default();
        let mut best = vec![0usize; len];
        let mut flag = Flags {
            safe: vec![false; len],
            good: vec![false; len],
            bad: vec![false; len],
        };
        let all: Vec<u32> = (0..len as u32).collect();
        if split {
            let mut status = vec![IN_PLAY; len];
            self.split(
                south,
                ks,
                flags,
                (0, ks.len()),
                all,
                &mut status,
                &mut best,
                &mut flag,
                &mut s,
            );
            return best;
        }
        for (t, &k) in ks.iter().enumerate().skip(1) {
            if self.stopped() {
                break;
            }
            for i in 0..len {
                (flag.safe[i], flag.good[i], flag.bad[i]) = flags(i, k);
            }
            s.region.clone_from(&all);
            if self.cobuchi(south, &flag, &mut s) == 0 {
                break;
            }
            for (b, &w) in best.iter_mut().zip(&s.won) {
                if w {
                    *b = t;
                }
            }
        }
        best
    }

    /// [`Arena::hardest_won`] for the nodes of `region`, which all win at
    /// `ks[a]` and lose at `ks[b]` (`b` past the end: at nothing harder):
    /// the game at the middle threshold splits them into those that win it
    /// and those that lose it, and each part is solved again in its half.
    /// `status` marks the nodes outside `region` as won or lost at every
    /// threshold of `a..b`. A move into one is worth that to whoever makes
    /// it: a move of `p` to a node he wins is a good exit, one of his
    /// opponent's to a node `p` loses a bad one. Co-Büchi objectives do
    /// not depend on a finite prefix, so `p` wins a node of `region` in the
    /// game so cut down exactly where he wins it in the whole.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &self,
        south: bool,
        ks: &[i32],
        flags: &dyn Fn(usize, i32) -> (bool, bool, bool),
        (a, b): (usize, usize),
        region: Vec<u32>,
        status: &mut [u8],
        best: &mut [usize],
        flag: &mut Flags,
        s: &mut Scratch,
    ) {
        if region.is_empty() || self.stopped() {
            return;
        }
        if b - a == 1 {
            for &i in &region {
                best[i as usize] = a;
            }
            return;
        }
        let mid = (a + b) / 2;
        for &i in &region {
            let i = i as usize;
            let (safe, good, bad) = flags(i, ks[mid]);
            let mine = self.south[i] == south;
            flag.safe[i] = safe;
            flag.good[i] = good || mine && self.succs(i).iter().any(|&j| status[j as usize] == WON);
            flag.bad[i] = bad || !mine && self.succs(i).iter().any(|&j| status[j as usize] == LOST);
        }
        s.region.clone_from(&region);
        self.cobuchi(south, flag, s);
        let (won, lost): (Vec<u32>, Vec<u32>) =
            region.into_iter().partition(|&i| s.won[i as usize]);
        for &i in &lost {
            status[i as usize] = LOST;
        }
        self.split(
            south,
            ks,
            flags,
            (mid, b),
            won.clone(),
            status,
            best,
            flag,
            s,
        );
        for &i in &won {
            status[i as usize] = WON;
        }
        for &i in &lost {
            status[i as usize] = IN_PLAY;
        }
        self.split(south, ks, flags, (a, mid), lost, status, best, flag, s);
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
    fn cobuchi(&self, south: bool, flag: &Flags, s: &mut Scratch) -> usize {
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
                super::super::prefetch(&s.count[j as usize]);
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
                super::super::prefetch(&s.count[p as usize]);
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
                    super::super::prefetch(&self.pred_start[p as usize]);
                }
            }
        }
    }
}

/// The thresholds of `ks` (its first won everywhere, the others harder and
/// harder: ascending for South, descending for North) whose games are those
/// of the thresholds of `window`. The flags of South's game at `k` are those
/// at the least threshold of `ks` at least `k` (they change only where `k`
/// passes a repetition pay or an exit's bound), North's at the greatest at
/// most `k`; a threshold past the hardest of `ks` is won nowhere, one
/// before its first everywhere. The first is always kept.
fn in_window(ks: &[i32], (a, b): (i32, i32), south: bool) -> Vec<i32> {
    let mut keep = vec![0];
    for k in a..=b {
        let i = if south {
            ks.partition_point(|&x| x < k)
        } else {
            ks.partition_point(|&x| x > k)
        };
        if i < ks.len() && keep.last() != Some(&i) {
            keep.push(i);
        }
    }
    if !south {
        // Descending thresholds, walked from the easiest for North.
        keep[1..].reverse();
    }
    keep.dedup();
    keep.into_iter().map(|i| ks[i]).collect()
}

/// An open component of one threshold (see [`Graph::open_components`]) as
/// a game of its own, once the search knows the answers of its exits.
///
/// The entry bounds leave a component open at `t` partly because some of
/// its exits are open too: positions whose own bounds straddle `t`. Below
/// a line whose positions are all open at `t`, an exit's answer does not
/// depend on the line (see `Searcher::line_at`), so the search finds it
/// once; with every exit's answer known, the co-Büchi games of `t` on the
/// component alone ([`OpenArena::resolve`]) decide more of its positions
/// than the entry bounds did, for every line by the argument of
/// [`line_bounds`] ([`OpenArena::decide`]).
pub(crate) struct OpenArena {
    arena: Arena<'static>,
    /// The local index of each member.
    local: rustc_hash::FxHashMap<u32, u32>,
    /// Whether a repetition of the node pays South at least the threshold.
    pays: Vec<bool>,
    /// Whether the node has a move out of the component that the entry
    /// bounds prove won for South, one they prove won for North (South
    /// below the threshold).
    exits: Vec<[bool; 2]>,
    /// The node's moves to positions the entry bounds leave open, as graph
    /// nodes: `open_exit[open_exit_start[i]..open_exit_start[i + 1]]`.
    open_exit_start: Vec<u32>,
    open_exit: Vec<u32>,
    /// Where South's and North's games are won, once resolved.
    won: parking_lot::Mutex<Option<std::sync::Arc<Won>>>,
    /// The answers [`OpenArena::play_out`] has found, by node and line.
    lines: parking_lot::Mutex<rustc_hash::FxHashMap<u64, bool>>,
}

/// What an [`OpenArena`] knows once resolved.
struct Won {
    /// Where South's co-Büchi game is won.
    south: Vec<bool>,
    /// Where North's is.
    north: Vec<bool>,
    /// Whether the node has a move out of the component won for South, one
    /// won for North (every exit's answer known).
    exits: Vec<[bool; 2]>,
}

/// What [`OpenArena::play_out`] keeps between calls, so that a call costs
/// what it looks at rather than the size of the component.
#[derive(Default)]
pub(crate) struct PlayOut {
    /// Whether each local node is on the line.
    on: Vec<bool>,
    stack: Vec<Frame>,
    flags: Flags,
    games: Scratch,
    regions: Vec<Regions>,
    /// Marks for the walk that finds the positions a replay plays on.
    seen: Vec<bool>,
    met: Vec<u32>,
}

/// A node of [`OpenArena::play_out`]'s walk: its next move to try, the
/// line's set before it, the plies since the games were last replayed
/// below the line, and whether they were at this node.
struct Frame {
    v: u32,
    next: u32,
    set: u64,
    since: u32,
    regions: bool,
    /// The set of the positions of the line the play from here can meet
    /// first, where the regions were replayed here ([`Walk::met_first`]).
    met: Option<u64>,
}

/// How many answers an [`OpenArena`] keeps before it forgets them all
/// (about 32 MiB).
const LINES_KEPT: usize = 1 << 20;

/// A random word for local node `i`, for the sets of a line (XOR).
fn node_word(i: u32) -> u64 {
    let mut h = (u64::from(i) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// The key of local node `v` below a line whose set is `set`.
fn line_key(v: u32, set: u64) -> u64 {
    crate::game::mix_words(&[u64::from(v), set])
}

impl OpenArena {
    /// The open component whose graph nodes are `members` (its label's);
    /// `lo`, `hi` the entry bounds, `t` the threshold.
    pub fn new<G: SolveGame>(
        g: &Graph<G>,
        members: Vec<u32>,
        lo: &[i32],
        hi: &[i32],
        t: i32,
    ) -> OpenArena {
        let len = members.len();
        let local: rustc_hash::FxHashMap<u32, u32> = members
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, i as u32))
            .collect();
        let mut arena = Arena::default();
        let mut pays = Vec::with_capacity(len);
        let mut exits = Vec::with_capacity(len);
        let (mut open_exit_start, mut open_exit) = (vec![0], Vec::new());
        arena.succ_start.push(0);
        arena.pred_start.resize(len + 1, 0);
        for &v in &members {
            let v = v as usize;
            arena.south.push(g.nodes[v].side_to_move() == Side::South);
            pays.push(g.repetition_south(v) >= t);
            let mut e = [false; 2];
            for &w in g.children(v) {
                if let Some(&j) = local.get(&w) {
                    arena.succ.push(j);
                    arena.pred_start[j as usize + 1] += 1;
                } else if lo[w as usize] >= t {
                    e[0] = true;
                } else if hi[w as usize] < t {
                    e[1] = true;
                } else {
                    open_exit.push(w);
                }
            }
            arena.succ_start.push(arena.succ.len() as u32);
            open_exit_start.push(open_exit.len() as u32);
            exits.push(e);
        }
        arena.fill_preds();
        OpenArena {
            arena,
            local,
            pays,
            exits,
            open_exit_start,
            open_exit,
            won: Default::default(),
            lines: Default::default(),
        }
    }

    /// What a walk found under `key`, if the table is not busy.
    fn remembered(&self, key: u64) -> Option<bool> {
        self.lines.try_lock()?.get(&key).copied()
    }

    /// The local index of graph node `v`, if a member.
    pub fn local(&self, v: u32) -> Option<u32> {
        self.local.get(&v).copied()
    }

    /// The exits the entry bounds leave open (graph nodes, maybe repeated).
    pub fn open_exits(&self) -> &[u32] {
        &self.open_exit
    }

    pub fn is_resolved(&self) -> bool {
        self.won.lock().is_some()
    }

    /// Plays South's and North's co-Büchi games of the threshold on the
    /// component, the open exits' answers given by `south_wins` (one per
    /// entry of [`OpenArena::open_exits`]).
    pub fn resolve(&self, south_wins: &[bool]) {
        let a = &self.arena;
        let len = a.len();
        let mut has = self.exits.clone();
        for (i, h) in has.iter_mut().enumerate() {
            for k in self.open_exit_start[i]..self.open_exit_start[i + 1] {
                h[usize::from(!south_wins[k as usize])] = true;
            }
        }
        let mut flag = Flags {
            safe: vec![false; len],
            good: vec![false; len],
            bad: vec![false; len],
        };
        let mut s = Scratch::default();
        let mut won = Vec::new();
        for south in [true, false] {
            let (mine_wins, theirs_wins) = if south { (0, 1) } else { (1, 0) };
            for (i, h) in has.iter().enumerate() {
                let mine = a.south[i] == south;
                flag.safe[i] = self.pays[i] == south;
                flag.good[i] = mine && h[mine_wins];
                flag.bad[i] = !mine && h[theirs_wins];
            }
            s.region = (0..len as u32).collect();
            a.cobuchi(south, &flag, &mut s);
            won.push(std::mem::take(&mut s.won));
        }
        let north = won.pop().expect("two games");
        let south = won.pop().expect("two games");
        *self.won.lock() = Some(std::sync::Arc::new(Won {
            south,
            north,
            exits: has,
        }));
    }

    /// Whether South reaches the threshold from local node `v` when the
    /// line holds the local nodes `line` of this component (and nothing
    /// else of it), if the resolved games decide it: `Some(true)` if South
    /// wins, `Some(false)` if North keeps him below. South's positional
    /// strategy keeps the play inside his winning region, so a first
    /// repetition there is either at a position paying him enough or at a
    /// position of the line inside that region: he wins unless one of those
    /// pays too little. North's side is the mirror image.
    pub fn decide(&self, v: usize, line: &[u32]) -> Option<bool> {
        let won = self.won.lock().clone()?;
        for (south, w) in [(true, &won.south), (false, &won.north)] {
            if w[v]
                && line
                    .iter()
                    .all(|&h| !w[h as usize] || self.pays[h as usize] == south)
            {
                return Some(south);
            }
        }
        None
    }

    /// Whether South reaches the threshold from local node `v` when the
    /// line holds the local nodes `line` of this component (and nothing
    /// else of it), found by playing the first-cycle game on the component
    /// out: every line from `v` through it, each ending where it leaves by
    /// an exit (whose answer is known) or comes back to a position of the
    /// line (paying by that position). Exact, and exponential in the worst
    /// case; cut wherever the resolved games decide ([`OpenArena::decide`])
    /// or the same games replayed below the line walked so far do (every
    /// [`PLAY_OUT_REGIONS`] plies, [`Walk::push_regions`]), with what it
    /// finds kept by node and line for later calls. With `reverse` (a
    /// second thread) the first nodes' moves are tried in the opposite
    /// order, and either walk ends once the table holds the answer. `None`
    /// if the component is not resolved or `stop` says so first; with the number
    /// of nodes walked.
    pub fn play_out(
        &self,
        v: usize,
        line: &[u32],
        scratch: &mut PlayOut,
        reverse: bool,
        stop: &dyn Fn() -> bool,
    ) -> (Option<bool>, u64) {
        let Some(won) = self.won.lock().clone() else {
            return (None, 0);
        };
        let a = &self.arena;
        let PlayOut {
            on,
            stack,
            flags,
            games,
            regions,
            seen,
            met,
        } = scratch;
        if on.len() < a.len() {
            on.resize(a.len(), false);
            seen.resize(a.len(), false);
            for f in [&mut flags.safe, &mut flags.good, &mut flags.bad] {
                f.resize(a.len(), false);
            }
        }
        let mut walk = Walk {
            open: self,
            won: &won,
            on,
            spoil: [0; 2],
            set: 0,
            flags,
            games,
            regions,
            seen,
            met,
            used: 0,
            reverse,
        };
        for &h in line {
            walk.toggle(h, true);
        }
        // The threads of a pass often ask the same question at once: a
        // thread with `reverse` walks the first moves in the opposite
        // order, both share what they find through the table, and each
        // stops as soon as the table holds the answer.
        let root = line_key(v as u32, walk.set);
        let answered = || self.remembered(root);
        let stop_or_answered = || stop() || answered().is_some();
        // Most calls end in a few nodes without the games: try that first,
        // then walk again replaying them (what the first walk found is kept).
        let mut nodes = 0;
        let mut result = None;
        for every in [0, PLAY_OUT_REGIONS] {
            let budget = if every == 0 { PLAIN_WALK } else { u64::MAX };
            match walk.walk(
                v as u32,
                every,
                budget,
                stack,
                &mut nodes,
                &stop_or_answered,
            ) {
                Walked::Done(r) => {
                    result = Some(r);
                    break;
                }
                Walked::Stopped if stop() => break,
                Walked::Stopped => {
                    // The other thread found it (waiting for the table this
                    // once: a busy one must not hide it). Only a table
                    // cleared meanwhile loses it: the replaying walk then
                    // runs, or the search goes on from the node.
                    result = self.lines.lock().get(&root).copied();
                    if result.is_some() {
                        break;
                    }
                }
                Walked::Budget => {}
            }
        }
        for &h in line {
            walk.toggle(h, false);
        }
        (result, nodes)
    }
}

/// How many nodes from its start a walk with `reverse` tries the moves of
/// in the opposite order. On Oware 2×9 (two threads, 2–3 runs each): 1
/// node 14.7 s, 2 13.6 s, 3 11.1 s, 5 12.6 s, 8 13.1 s, every node 18.4 s,
/// against 16.6 s with one order.
const REVERSED_PLIES: usize = 3;

/// The `i`-th move of `succs` to try, from the last if `reverse`.
fn next_move(succs: &[u32], i: usize, reverse: bool) -> Option<&u32> {
    if reverse {
        succs.len().checked_sub(i + 1).map(|j| &succs[j])
    } else {
        succs.get(i)
    }
}

/// How [`Walk::walk`] ended.
enum Walked {
    Done(bool),
    Budget,
    Stopped,
}

/// How many nodes [`OpenArena::play_out`] walks without replaying the
/// games before it starts again with them.
const PLAIN_WALK: u64 = 4096;

/// How many plies [`OpenArena::play_out`]'s second walk goes between two
/// replays of the games below its line. Replays cost what the component
/// left holds; on Oware 2×8 (Abapa) one every ply took 26 s, one every 16
/// plies 2.1 s (the search before this walk: 3.6 s), and on 3×4, 3×5 and
/// 2×9 the spacing changed nothing measurable.
const PLAY_OUT_REGIONS: u32 = 16;

/// The regions South's and North's co-Büchi games win below one line of
/// [`OpenArena::play_out`], and how many positions put on the line since
/// spoil each (see [`Walk`]).
#[derive(Default)]
struct Regions {
    /// Per local node (false outside `members`).
    south: Vec<bool>,
    north: Vec<bool>,
    /// The positions the games were played on.
    members: Vec<u32>,
    spoil: [u32; 2],
}

/// The radii of the replays [`Walk::visit`] tries, the last unbounded.
const REPLAY_RADII: [u32; 3] = [6, 24, u32::MAX];

/// At most this many flags of replayed games are kept at once (or 64
/// replays, if more), two per node of the component in each [`Regions`]:
/// a walk deeper than that replays no more. On 5×2's hard component of 859
/// positions the lines run hundreds of plies deep.
const REGIONS_KEPT: usize = 1 << 25;

/// The state of one [`OpenArena::play_out`]: which nodes are on the line,
/// how many of them spoil each player's winning region (a node of South's
/// region whose repetition pays North, and the mirror image), the line's
/// set for the keys, and the regions of the games replayed below parts of
/// the line (`regions[..used]`, the latest last).
struct Walk<'a> {
    open: &'a OpenArena,
    won: &'a Won,
    on: &'a mut [bool],
    spoil: [u32; 2],
    set: u64,
    flags: &'a mut Flags,
    games: &'a mut Scratch,
    regions: &'a mut Vec<Regions>,
    seen: &'a mut [bool],
    met: &'a mut Vec<u32>,
    used: usize,
    /// Whether the moves of the walk's first [`REVERSED_PLIES`] nodes are
    /// tried last first.
    reverse: bool,
}

impl Walk<'_> {
    fn toggle(&mut self, i: u32, put: bool) {
        let u = i as usize;
        self.on[u] = put;
        self.set ^= node_word(i);
        let pays = self.open.pays[u];
        let step = |c: &mut u32| {
            if put { *c += 1 } else { *c -= 1 }
        };
        if self.won.south[u] && !pays {
            step(&mut self.spoil[0]);
        }
        if self.won.north[u] && pays {
            step(&mut self.spoil[1]);
        }
        if let Some(r) = self.used.checked_sub(1).map(|k| &mut self.regions[k]) {
            if r.south[u] && !pays {
                step(&mut r.spoil[0]);
            }
            if r.north[u] && pays {
                step(&mut r.spoil[1]);
            }
        }
    }

    /// Walks the lines from `v` (not on the line) to their ends, replaying
    /// the games every `every` plies (0: never), for at most `budget`
    /// nodes, and leaves the line as it found it.
    fn walk(
        &mut self,
        v: u32,
        every: u32,
        budget: u64,
        stack: &mut Vec<Frame>,
        nodes: &mut u64,
        stop: &dyn Fn() -> bool,
    ) -> Walked {
        let a = &self.open.arena;
        let start = *nodes;
        stack.clear();
        let mut result = match self.visit(v, every > 0) {
            Ok(r) => Some(r),
            Err(f) => {
                stack.push(f);
                None
            }
        };
        let mut end = None;
        while !stack.is_empty() {
            let depth = stack.len();
            let top = stack.last_mut().expect("not empty");
            let u = top.v as usize;
            let owner = a.south[u];
            let done = match result.take() {
                Some(r) if r == owner => Some(r),
                _ => match next_move(
                    a.succs(u),
                    top.next as usize,
                    self.reverse && depth <= REVERSED_PLIES,
                ) {
                    Some(&w) => {
                        top.next += 1;
                        if self.on[w as usize] {
                            result = Some(self.open.pays[w as usize]);
                        } else {
                            *nodes += 1;
                            if *nodes - start > budget {
                                end = Some(Walked::Budget);
                                break;
                            }
                            if *nodes & 0x3FF == 0 && stop() {
                                end = Some(Walked::Stopped);
                                break;
                            }
                            let since = top.since + 1;
                            match self.visit(w, every > 0 && since >= every) {
                                Ok(r) => result = Some(r),
                                Err(mut f) => {
                                    if !f.regions {
                                        f.since = since;
                                    }
                                    stack.push(f);
                                }
                            }
                        }
                        None
                    }
                    // Every move tried loses: so do the exits, or the
                    // quick look would have taken one.
                    None => Some(!owner),
                },
            };
            if let Some(r) = done {
                let f = stack.pop().expect("a node is being walked");
                self.leave(&f);
                // Two threads walking one component would wait on each
                // other at every node: a busy table is passed by.
                if let Some(mut lines) = self.open.lines.try_lock() {
                    if lines.len() >= LINES_KEPT {
                        lines.clear();
                    }
                    lines.insert(line_key(f.v, f.set), r);
                    if let Some(met) = f.met {
                        lines.insert(line_key(f.v, met), r);
                    }
                }
                result = Some(r);
            }
        }
        while let Some(f) = stack.pop() {
            self.leave(&f);
        }
        end.unwrap_or_else(|| {
            Walked::Done(result.expect("a walk not cut short ends with its answer"))
        })
    }

    /// The answer from `w` (not on the line) if it needs no walk, else `w`
    /// put on the line with its frame; with `regions`, after the games
    /// replayed below the line have had their say.
    fn visit(&mut self, w: u32, regions: bool) -> Result<bool, Frame> {
        if let Some(r) = self.quick(w) {
            return Ok(r);
        }
        let regions =
            regions && (self.used + 1) * 2 * self.on.len() <= REGIONS_KEPT.max(128 * self.on.len());
        if regions {
            // Games on the positions near `w` first: they cost what they
            // look at, and most decisions need no more.
            for radius in REPLAY_RADII {
                let whole = self.push_regions(w, radius);
                if let Some(r) = self.regions_decide(w) {
                    self.pop_regions();
                    return Ok(r);
                }
                if whole {
                    break;
                }
                self.pop_regions();
            }
        }
        // The play from `w` can only end at a position of the line that it
        // meets first, past positions off the line: the answer depends on
        // those alone, and on no other position of the line. So it is kept
        // under them too, which joins many lines into one key. (The line of
        // exactly those positions has the same key, and the same answer.)
        let met = regions.then(|| self.met_first());
        if let Some(met) = met
            && let Some(r) = self.open.remembered(line_key(w, met))
        {
            self.pop_regions();
            return Ok(r);
        }
        let f = Frame {
            v: w,
            next: 0,
            set: self.set,
            since: 0,
            regions,
            met,
        };
        self.toggle(w, true);
        Err(f)
    }

    /// Takes the node of `f` off the line again.
    fn leave(&mut self, f: &Frame) {
        self.toggle(f.v, false);
        if f.regions {
            self.pop_regions();
        }
    }

    /// The set of the positions of the line that the play from the latest
    /// regions' node can meet first: those a move leads to from a position
    /// the regions were played on (all that the play from it can reach).
    fn met_first(&mut self) -> u64 {
        let a = &self.open.arena;
        let r = &self.regions[self.used - 1];
        let mut set = 0;
        self.met.clear();
        for &m in &r.members {
            for &j in a.succs(m as usize) {
                if self.on[j as usize] && !self.seen[j as usize] {
                    self.seen[j as usize] = true;
                    self.met.push(j);
                    set ^= node_word(j);
                }
            }
        }
        for &j in self.met.iter() {
            self.seen[j as usize] = false;
        }
        set
    }

    fn pop_regions(&mut self) {
        self.used -= 1;
        let r = &mut self.regions[self.used];
        for &m in &r.members {
            r.south[m as usize] = false;
            r.north[m as usize] = false;
        }
    }

    /// The answer from `w` (not on the line) if it needs no walk: its
    /// player leaves by a winning exit, a resolved game decides it below
    /// this line, a move of his closes a cycle that pays him, or an
    /// earlier walk found it.
    fn quick(&self, w: u32) -> Option<bool> {
        let u = w as usize;
        let owner = self.open.arena.south[u];
        if self.won.exits[u][usize::from(!owner)] {
            return Some(owner);
        }
        if self.won.south[u] && self.spoil[0] == 0 {
            return Some(true);
        }
        if self.won.north[u] && self.spoil[1] == 0 {
            return Some(false);
        }
        if self.used > 0 {
            let d = self.regions_decide(w);
            if d.is_some() {
                return d;
            }
        }
        let pays = &self.open.pays;
        if self
            .open
            .arena
            .succs(u)
            .iter()
            .any(|&x| (x == w || self.on[x as usize]) && pays[x as usize] == owner)
        {
            return Some(owner);
        }
        self.open.remembered(line_key(w, self.set))
    }

    /// What the latest regions say of `w`.
    fn regions_decide(&self, w: u32) -> Option<bool> {
        let r = &self.regions[self.used - 1];
        let u = w as usize;
        if r.south[u] && r.spoil[0] == 0 {
            Some(true)
        } else if r.north[u] && r.spoil[1] == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// Plays South's and North's co-Büchi games again on the positions not
    /// on the line, each position of the line a cycle's end that pays by
    /// its repetition: a move of a player to one that pays him is a good
    /// exit, one to a position that pays his opponent a bad one. By the
    /// argument of [`OpenArena::decide`], whoever wins his game from a
    /// position below this line (or below a longer one whose positions
    /// added since in his region all pay him) wins the first-cycle game.
    ///
    /// Within `radius` moves of `w` only, if the play can go further: a move
    /// of the player out of those positions then counts as lost for him, as
    /// a move of his opponent does (he may lose there, for all these games
    /// know), so whoever wins still wins the whole game. Returns whether
    /// the games were played on every position play from `w` can reach.
    fn push_regions(&mut self, w: u32, radius: u32) -> bool {
        let a = &self.open.arena;
        let pays = &self.open.pays;
        let len = a.len();
        if self.regions.len() == self.used {
            self.regions.push(Regions {
                south: vec![false; len],
                north: vec![false; len],
                ..Default::default()
            });
        }
        // The positions play from `w` can reach before it ends.
        let r = &mut self.regions[self.used];
        if r.south.len() < len {
            r.south.resize(len, false);
            r.north.resize(len, false);
        }
        r.members.clear();
        r.members.push(w);
        self.seen[w as usize] = true;
        let (mut k, mut depth, mut layer_end) = (0, 0, 1);
        let mut whole = true;
        while k < r.members.len() {
            if k == layer_end {
                depth += 1;
                layer_end = r.members.len();
            }
            let i = r.members[k] as usize;
            k += 1;
            for &j in a.succs(i) {
                if !self.on[j as usize] && !self.seen[j as usize] {
                    if depth >= radius {
                        whole = false;
                        continue;
                    }
                    self.seen[j as usize] = true;
                    r.members.push(j);
                }
            }
        }
        for south in [true, false] {
            let (wins, loses) = if south { (0, 1) } else { (1, 0) };
            self.games
                .region
                .clone_from(&self.regions[self.used].members);
            for &i in &self.games.region {
                let i = i as usize;
                let mine = a.south[i] == south;
                let exits = self.won.exits[i];
                let (mut good, mut bad) = (mine && exits[wins], !mine && exits[loses]);
                for &j in a.succs(i) {
                    if self.on[j as usize] {
                        if pays[j as usize] == south {
                            good |= mine;
                        } else {
                            bad |= !mine;
                        }
                    } else if !self.seen[j as usize] {
                        // Beyond the radius: unknown, so lost.
                        bad |= !mine;
                    }
                }
                self.flags.safe[i] = pays[i] == south;
                self.flags.good[i] = good;
                self.flags.bad[i] = bad;
            }
            a.cobuchi(south, self.flags, self.games);
            let r = &mut self.regions[self.used];
            let dst = if south { &mut r.south } else { &mut r.north };
            for &m in &r.members {
                dst[m as usize] = self.games.won[m as usize];
            }
        }
        for &m in &self.regions[self.used].members {
            self.seen[m as usize] = false;
        }
        self.regions[self.used].spoil = [0; 2];
        self.used += 1;
        whole
    }
}

#[derive(Default)]
struct Scratch {
    won: Vec<bool>,
    /// Per node of the arena: the moves it still needs to join the
    /// attractor under way (0: joined), [`NEVER`], or [`DEAD`] (outside
    /// the game, or removed as won). One array, so that following a move
    /// backwards reads one place.
    count: Vec<u32>,
    queue: Vec<u32>,
    /// The nodes the next co-Büchi game is played on.
    region: Vec<u32>,
}

/// What [`Arena::cobuchi`] knows of each node at one threshold: whether
/// its repetition is safe for the player, whether he has a good exit there,
/// and whether his opponent has a bad one for him.
#[derive(Default)]
struct Flags {
    safe: Vec<bool>,
    good: Vec<bool>,
    bad: Vec<bool>,
}

/// Counts of [`Scratch`]: a node that joins no attractor, and one that is
/// not in the game.
const NEVER: u32 = u32::MAX;
const DEAD: u32 = u32::MAX - 1;

/// How many nodes ahead a scan of a region asks for the counts it will read.
const AHEAD: usize = 8;

/// A node of the region [`Arena::split`] is solving, or one outside it
/// known to be won or lost at every threshold left.
const IN_PLAY: u8 = 0;
const WON: u8 = 1;
const LOST: u8 = 2;

/// Components of at least this many nodes have South's and North's bounds
/// found on two threads.
const PARALLEL_ARENA: usize = 50_000;

#[cfg(test)]
mod tests {
    use super::super::Graph;
    use super::super::values::Work;
    use super::line_bounds;
    use crate::game::{Game, Side};
    use crate::variants::oware::{Oware, OwareRules, Repetition, RuleSet};

    /// The literal rule: South's final margin from `line`'s last position,
    /// the game ending where a position occurs a second time; `None` past
    /// `budget` positions. Alpha-beta failing hard in `alpha..beta`.
    fn brute(line: &mut Vec<Oware>, alpha: i32, beta: i32, budget: &mut u64) -> Option<i32> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let pos = *line.last().unwrap();
        let v = if let Some(o) = pos.outcome() {
            o.margin_for(Side::South)?
        } else if line[..line.len() - 1].contains(&pos) {
            pos.repetition_outcome()?.margin_for(Side::South)?
        } else {
            let south = pos.side_to_move() == Side::South;
            let (mut a, mut b) = (alpha, beta);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            for mv in moves {
                line.push(pos.play(mv));
                let v = brute(line, a, b, budget);
                line.pop();
                let v = v?;
                if south {
                    a = a.max(v);
                } else {
                    b = b.min(v);
                }
                if a >= b {
                    break;
                }
            }
            return Some(if south { a } else { b });
        };
        Some(v.clamp(alpha, beta))
    }

    /// The graph of every position reachable from the start of Oware with
    /// `houses` houses of `seeds` under the own-side repetition rule.
    fn own_side_graph(houses: u8, seeds: u8, rules: RuleSet) -> Graph<Oware> {
        let start = Oware::start(&OwareRules {
            houses,
            seeds,
            rules,
            repetition: Repetition::OwnSide,
        });
        Graph::build(&start, 1 << 21, 2, None).unwrap()
    }

    /// Calls `visit(line, w)` for every line of one to three positions of
    /// one component that `keep` holds, each a move from the one before,
    /// and every move `w` from its last to another position of that
    /// component not on it.
    fn for_each_line(
        g: &Graph<Oware>,
        keep: impl Fn(usize) -> bool,
        mut visit: impl FnMut(&[usize], usize),
    ) {
        for u in (0..g.nodes.len()).filter(|&u| keep(u)) {
            let mut stack = vec![vec![u]];
            while let Some(line) = stack.pop() {
                let last = *line.last().unwrap();
                for &w in g.children(last) {
                    let w = w as usize;
                    if g.comp[w] != g.comp[u] || line.contains(&w) {
                        continue;
                    }
                    visit(&line, w);
                    if line.len() < 3 && keep(w) {
                        let mut longer = line.clone();
                        longer.push(w);
                        stack.push(longer);
                    }
                }
            }
        }
    }

    /// The search keys a null-window node below a line of open positions
    /// on the part of the line in the node's open component alone
    /// (`Searcher::line_at`): the brute force's answer from every line of
    /// up to three such positions of one component must not change when
    /// the line's other positions are dropped.
    #[test]
    fn a_line_of_open_positions_counts_only_in_its_open_component() {
        use super::super::NOT_KEPT;
        let (mut compared, mut dropped) = (0, 0);
        for (houses, seeds) in [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1)] {
            for rules in [RuleSet::Awari, RuleSet::Abapa] {
                let g = own_side_graph(houses, seeds, rules);
                let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
                let (least, most) = (*lo.iter().min().unwrap(), *hi.iter().max().unwrap());
                for t in least + 1..=most {
                    let labels = g.open_components(&lo, &hi, t);
                    for_each_line(
                        &g,
                        |v| labels[v] != NOT_KEPT,
                        |line, w| {
                            let answer = |line: &[usize]| {
                                let mut path: Vec<Oware> =
                                    line.iter().map(|&h| g.nodes[h]).collect();
                                path.push(g.nodes[w]);
                                brute(&mut path, t - 1, t, &mut 2_000).map(|x| x >= t)
                            };
                            let kept: Vec<usize> = line
                                .iter()
                                .copied()
                                .filter(|&h| labels[h] == labels[w])
                                .collect();
                            if let (Some(a), Some(b)) = (answer(line), answer(&kept)) {
                                assert_eq!(
                                    a, b,
                                    "{houses}x{seeds} {rules:?} at {t}: line {line:?} then {w}, kept {kept:?}"
                                );
                                compared += 1;
                                dropped += usize::from(kept.len() < line.len());
                            }
                        },
                    );
                }
            }
        }
        eprintln!("{compared} lines compared, {dropped} with positions dropped");
        assert!(dropped > 100, "only {dropped} lines had positions to drop");
    }

    /// One question to an open component: whether South reaches the
    /// threshold from its local node `local` below a line of its local nodes
    /// `kept`, with the brute force's answer for the whole line (`None`
    /// where it gave up) and the line as graph nodes, for messages.
    struct Question {
        label: u32,
        local: usize,
        kept: Vec<u32>,
        brute: Option<bool>,
        what: String,
    }

    /// For every board of the brute force, both rule sets and every
    /// threshold: the open components, resolved with their open exits
    /// answered by the brute force, and every question from a line of up
    /// to three open positions (or none) of one of them.
    fn open_component_questions(
        mut f: impl FnMut(&std::collections::BTreeMap<u32, super::OpenArena>, &[Question]),
    ) {
        use super::super::NOT_KEPT;
        use super::OpenArena;
        for (houses, seeds) in [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1)] {
            for rules in [RuleSet::Awari, RuleSet::Abapa] {
                let g = own_side_graph(houses, seeds, rules);
                let (lo, hi) = g.repetition_bounds(None, 1, None).unwrap();
                let (least, most) = (*lo.iter().min().unwrap(), *hi.iter().max().unwrap());
                for t in least + 1..=most {
                    let labels = g.open_components(&lo, &hi, t);
                    let answer = |line: &[usize], w: usize| {
                        let mut path: Vec<Oware> = line.iter().map(|&h| g.nodes[h]).collect();
                        path.push(g.nodes[w]);
                        brute(&mut path, t - 1, t, &mut 2_000).map(|x| x >= t)
                    };
                    let mut members: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
                    for (v, &l) in labels.iter().enumerate() {
                        if l != NOT_KEPT {
                            members.entry(l).or_default().push(v as u32);
                        }
                    }
                    let mut arenas = std::collections::BTreeMap::new();
                    for (l, m) in members {
                        let arena = OpenArena::new(&g, m, &lo, &hi, t);
                        let exits: Option<Vec<bool>> = arena
                            .open_exits()
                            .iter()
                            .map(|&w| answer(&[], w as usize))
                            .collect();
                        if let Some(exits) = exits {
                            arena.resolve(&exits);
                            arenas.insert(l, arena);
                        }
                    }
                    let mut questions = Vec::new();
                    let mut ask = |line: &[usize], w: usize| {
                        let Some(arena) = arenas.get(&labels[w]) else {
                            return;
                        };
                        let kept = line
                            .iter()
                            .filter(|&&h| labels[h] == labels[w])
                            .map(|&h| arena.local(h as u32).unwrap())
                            .collect();
                        questions.push(Question {
                            label: labels[w],
                            local: arena.local(w as u32).unwrap() as usize,
                            kept,
                            brute: answer(line, w),
                            what: format!(
                                "{houses}x{seeds} {rules:?} at {t}: line {line:?} then {w}"
                            ),
                        });
                    };
                    for w in (0..g.nodes.len()).filter(|&w| labels[w] != NOT_KEPT) {
                        ask(&[], w);
                    }
                    for_each_line(
                        &g,
                        |v| labels[v] != NOT_KEPT,
                        |line, w| {
                            if labels[w] != NOT_KEPT {
                                ask(line, w)
                            }
                        },
                    );
                    f(&arenas, &questions);
                }
            }
        }
    }

    /// An open component's own threshold games, its open exits answered
    /// (here by the brute force), decide a position below a line of the
    /// component only as the literal rule does: every answer of
    /// [`OpenArena::decide`] from a line of up to three open positions (or
    /// none) is compared with the brute force's, and so is every answer of
    /// [`OpenArena::play_out`], which answers them all.
    #[test]
    fn a_resolved_open_component_decides_and_plays_out_as_the_brute_force() {
        use super::PlayOut;
        let (mut compared, mut decided, mut played) = (0, 0, 0);
        let mut scratch = PlayOut::default();
        open_component_questions(|arenas, questions| {
            for q in questions {
                let arena = &arenas[&q.label];
                if let (Some(d), Some(a)) = (arena.decide(q.local, &q.kept), q.brute) {
                    assert_eq!(d, a, "{}", q.what);
                    decided += 1;
                }
                // Every other call walks as a second thread does.
                let reverse = compared % 2 == 1;
                let (out, _) = arena.play_out(q.local, &q.kept, &mut scratch, reverse, &|| false);
                let out = out.expect("a resolved arena plays out");
                if let Some(a) = q.brute {
                    assert_eq!(out, a, "{}: played out", q.what);
                    played += 1;
                }
                compared += 1;
            }
        });
        eprintln!(
            "{compared} lines looked at, {decided} decided and compared, {played} played out and compared"
        );
        assert!(decided > 1_000, "only {decided} lines decided");
        assert!(played > 2 * decided, "only {played} lines played out");
    }

    /// The solver's two threads walk one component's first-cycle game at
    /// once, one of them with its first moves reversed, and share what
    /// they find through the component's table (each reads the other's
    /// answers below its own line, and stops once the table holds the
    /// answer it was asked for). Two threads asking every question of
    /// the brute-force boards together, in the same order, on components
    /// whose tables start empty, must each answer as the brute force does.
    #[test]
    fn two_threads_playing_out_one_component_answer_as_the_brute_force() {
        use super::PlayOut;
        let (mut compared, mut at_once) = (0, 0);
        open_component_questions(|arenas, questions| {
            for arena in arenas.values() {
                arena.lines.lock().clear();
            }
            let start = std::sync::Barrier::new(2);
            let answers: Vec<Vec<(Option<bool>, u64)>> = std::thread::scope(|scope| {
                let threads: Vec<_> = [false, true]
                    .into_iter()
                    .map(|reverse| {
                        let start = &start;
                        scope.spawn(move || {
                            let mut scratch = PlayOut::default();
                            start.wait();
                            questions
                                .iter()
                                .map(|q| {
                                    let arena = &arenas[&q.label];
                                    arena.play_out(q.local, &q.kept, &mut scratch, reverse, &|| {
                                        false
                                    })
                                })
                                .collect()
                        })
                    })
                    .collect();
                threads.into_iter().map(|t| t.join().unwrap()).collect()
            });
            for (i, q) in questions.iter().enumerate() {
                for (thread, answers) in answers.iter().enumerate() {
                    let out = answers[i].0.expect("a resolved arena plays out");
                    if let Some(a) = q.brute {
                        assert_eq!(out, a, "{}: played out by thread {thread}", q.what);
                        compared += 1;
                    }
                }
                // A call that walked no node was answered by a quick look
                // (an exit, a resolved game, the table).
                at_once += answers.iter().filter(|a| a[i].1 == 0).count();
            }
            for arena in arenas.values() {
                arena.lines.lock().clear();
            }
        });
        eprintln!("{compared} answers compared, {at_once} without a walk");
        assert!(compared > 10_000, "only {compared} answers compared");
    }

    /// A walk polls the component's table as it goes (every 1,024 nodes)
    /// and, once another thread has put the answer it was asked for
    /// there, stops and gives that answer. Here "the other thread" is the
    /// poll itself, which puts the answer a whole walk found into the
    /// emptied table; the same walk asked again (in the same order, so
    /// that it reaches the poll) must end sooner, with that answer. The
    /// boards of the brute force have no walk long enough to poll, so this
    /// is 2x5's longest (its exits given fixed answers: the first-cycle
    /// game on the component is a game whatever they are).
    #[test]
    fn a_walk_stops_with_the_answer_another_thread_put_in_the_table() {
        use super::super::NOT_KEPT;
        use super::{OpenArena, PlayOut, line_key};
        let g = own_side_graph(2, 5, RuleSet::Awari);
        let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
        let (least, most) = (*lo.iter().min().unwrap(), *hi.iter().max().unwrap());
        let mut scratch = PlayOut::default();
        // The longest walk: its arena, node, answer and length.
        let mut longest: Option<(OpenArena, usize, bool, u64)> = None;
        for t in least + 1..=most {
            let labels = g.open_components(&lo, &hi, t);
            let mut members: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
            for (v, &l) in labels.iter().enumerate() {
                if l != NOT_KEPT {
                    members.entry(l).or_default().push(v as u32);
                }
            }
            for m in members.into_values() {
                let len = m.len();
                let arena = OpenArena::new(&g, m, &lo, &hi, t);
                let exits: Vec<bool> = arena.open_exits().iter().map(|&w| w % 2 == 0).collect();
                arena.resolve(&exits);
                let mut best = None;
                for v in 0..len {
                    arena.lines.lock().clear();
                    let (r, n) = arena.play_out(v, &[], &mut scratch, false, &|| false);
                    let r = r.expect("a resolved arena plays out");
                    if best.is_none_or(|(_, _, m)| n > m) {
                        best = Some((v, r, n));
                    }
                }
                if let Some((v, r, n)) = best
                    && longest.as_ref().is_none_or(|l| n > l.3)
                {
                    longest = Some((arena, v, r, n));
                }
            }
        }
        let (arena, v, answer, whole) = longest.expect("2x5 has open components");
        assert!(
            whole > 1_024,
            "the longest walk, {whole} nodes, never polls"
        );
        arena.lines.lock().clear();
        let polls = std::cell::Cell::new(0);
        let other_thread = || {
            if polls.get() == 0 {
                arena.lines.lock().insert(line_key(v as u32, 0), answer);
            }
            polls.set(polls.get() + 1);
            false
        };
        let (got, nodes) = arena.play_out(v, &[], &mut scratch, false, &other_thread);
        eprintln!(
            "walk of {whole} nodes stopped after {nodes}, {} polls",
            polls.get()
        );
        assert_eq!(got, Some(answer));
        assert!(nodes < whole, "walked {nodes} of {whole} nodes");
        assert!(polls.get() >= 1);
    }

    #[test]
    fn split_thresholds_give_the_bounds_of_every_threshold() {
        // Boards too large for the brute force, with components of many
        // thousands of positions (and 4x2's, of more than the two threads
        // take): the halving must find what every threshold's own game does.
        let mut largest = 0;
        for (houses, seeds, rules) in [(3, 3, RuleSet::Abapa), (4, 2, RuleSet::Awari)] {
            let g = own_side_graph(houses, seeds, rules);
            let biggest = *g.comp_size.iter().max().unwrap() as usize;
            largest = largest.max(biggest);
            let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
            assert!(
                g.repetition_bounds(None, 1, None).unwrap() == (lo.clone(), hi.clone()),
                "one thread"
            );
            let (lo_all, hi_all) = g
                .repetition_bounds_by(false, None, 1, None, &mut |_| {})
                .unwrap();
            let differ = (0..lo.len()).filter(|&v| lo[v] != lo_all[v] || hi[v] != hi_all[v]);
            assert_eq!(differ.count(), 0, "{houses}x{seeds} {rules:?}");
            assert_eq!(
                g.root_move_bounds_by(&lo, &hi, true, None, 2, None)
                    .unwrap(),
                g.root_move_bounds_by(&lo, &hi, false, None, 1, None)
                    .unwrap(),
                "{houses}x{seeds} {rules:?}"
            );
            let open = (0..lo.len()).filter(|&v| lo[v] < hi[v]).count();
            eprintln!(
                "{houses}x{seeds} {rules:?}: {} nodes, largest component {biggest}, {open} open",
                g.nodes.len()
            );
            assert!(open > 0 && biggest > 1_000, "{houses}x{seeds} {rules:?}");
        }
        assert!(
            largest >= super::PARALLEL_ARENA,
            "no component took two threads"
        );
    }

    #[test]
    fn windowed_bounds_are_exact_in_their_window_and_weaker_outside() {
        // What a null-window search at `k` reads of a node is whether its
        // bounds reach `k`: inside the window that must be what the bounds
        // of every threshold say, node by node and root move by root move;
        // outside they may only be weaker.
        let (mut windows, mut weaker) = (0, Vec::new());
        for (houses, seeds, rules) in [
            (2, 2, RuleSet::Awari),
            (3, 2, RuleSet::Abapa),
            (3, 3, RuleSet::Abapa),
            (4, 2, RuleSet::Awari),
        ] {
            let g = own_side_graph(houses, seeds, rules);
            let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
            let moves = g.root_move_bounds(&lo, &hi, None, 2, None).unwrap();
            let total = 2 * houses as i32 * seeds as i32;
            for (a, b) in [(-3, 1), (0, 0), (-1, 0), (2, 6), (-total - 3, -total + 1)] {
                let w = Some((a, b));
                let (wlo, whi) = g.repetition_bounds(w, 2, None).unwrap();
                let wmoves = g.root_move_bounds(&wlo, &whi, w, 2, None).unwrap();
                let what = format!("{houses}x{seeds} {rules:?} window {a}..={b}");
                let pairs = (0..lo.len())
                    .map(|v| ((lo[v], hi[v]), (wlo[v], whi[v])))
                    .chain(moves.iter().copied().zip(wmoves.iter().copied()));
                for ((l, h), (wl, wh)) in pairs {
                    assert!(wl <= l && h <= wh, "{what}: [{wl},{wh}] inside [{l},{h}]");
                    for k in a..=b {
                        assert_eq!(wl >= k, l >= k, "{what}: South at {k}");
                        assert_eq!(wh < k, h < k, "{what}: North at {k}");
                    }
                }
                windows += 1;
            }
            // On the larger boards a window of one threshold really leaves
            // some bounds weaker, so the comparison above is not vacuous.
            let (wlo, whi) = g.repetition_bounds(Some((0, 0)), 2, None).unwrap();
            if (0..lo.len()).any(|v| wlo[v] < lo[v] || whi[v] > hi[v]) {
                weaker.push((houses, seeds));
            }
        }
        assert_eq!(windows, 20);
        assert!(
            weaker.contains(&(3, 3)) && weaker.contains(&(4, 2)),
            "{weaker:?}"
        );
    }

    #[test]
    fn a_stop_ends_the_threshold_games_without_bounds() {
        use std::sync::atomic::AtomicBool;
        let g = own_side_graph(3, 3, RuleSet::Abapa);
        let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
        let moves = g.root_move_bounds(&lo, &hi, None, 2, None).unwrap();
        // A flag that is never set changes nothing.
        let unset = AtomicBool::new(false);
        assert!(g.repetition_bounds(None, 2, Some(&unset)).unwrap() == (lo.clone(), hi.clone()));
        assert_eq!(
            g.root_move_bounds(&lo, &hi, None, 2, Some(&unset)).unwrap(),
            moves
        );
        // A set one gives no bounds at all: half-played games prove nothing.
        let set = AtomicBool::new(true);
        for threads in [1, 2] {
            assert!(g.repetition_bounds(None, threads, Some(&set)).is_none());
            assert!(
                g.root_move_bounds(&lo, &hi, None, threads, Some(&set))
                    .is_none()
            );
        }
    }

    impl Graph<Oware> {
        /// The bounds of the games in which every repetition of a component
        /// pays its least (most) repetition pay: what the co-Büchi bounds
        /// must never be looser than.
        fn least_most(&self) -> (Vec<i32>, Vec<i32>) {
            let (first, members) = self.members();
            let mut out = Vec::new();
            for most in [false, true] {
                let mut value = vec![0; self.nodes.len()];
                let mut work = Work::default();
                for c in 0..self.comp_size.len() {
                    let nodes = &members[first[c] as usize..first[c + 1] as usize];
                    let v = nodes[0] as usize;
                    if nodes.len() == 1 && !self.children(v).contains(&nodes[0]) {
                        value[v] = self.minimax(v, &value);
                    } else {
                        let pays = nodes.iter().map(|&v| self.repetition_south(v as usize));
                        let pay = if most { pays.max() } else { pays.min() }.unwrap();
                        self.solve_component(c, nodes, None, pay, &mut value, &mut work);
                    }
                }
                out.push(value);
            }
            let hi = out.pop().unwrap();
            (out.pop().unwrap(), hi)
        }
    }

    #[test]
    fn bounds_hold_the_literal_value_and_beat_least_and_most() {
        for (houses, seeds) in [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)] {
            for rules in [RuleSet::Awari, RuleSet::Abapa] {
                let g = own_side_graph(houses, seeds, rules);
                let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
                // Each threshold's game on the region won at the one before
                // gives the same bounds as on the whole component.
                let (lo_all, hi_all) = g
                    .repetition_bounds_by(false, None, 1, None, &mut |_| {})
                    .unwrap();
                assert!(lo == lo_all && hi == hi_all, "{houses}x{seeds} {rules:?}");
                assert_eq!(
                    g.root_move_bounds_by(&lo, &hi, true, None, 2, None)
                        .unwrap(),
                    g.root_move_bounds_by(&lo, &hi, false, None, 1, None)
                        .unwrap(),
                    "{houses}x{seeds} {rules:?}"
                );
                let (least, most) = g.least_most();
                let (mut checked, mut exact) = (0, 0);
                for v in 0..g.nodes.len() {
                    let what = format!("{houses}x{seeds} {rules:?} {}", g.nodes[v].to_notation());
                    assert!(
                        least[v] <= lo[v] && lo[v] <= hi[v] && hi[v] <= most[v],
                        "{what}: [{}, {}] against [{}, {}]",
                        lo[v],
                        hi[v],
                        least[v],
                        most[v]
                    );
                    if lo[v] == hi[v] {
                        exact += 1;
                    }
                    // The brute force is too slow for every position of 3x2.
                    let mut budget = if g.nodes.len() > 5_000 { 0 } else { 20_000 };
                    if let Some(x) = brute(&mut vec![g.nodes[v]], -100, 100, &mut budget) {
                        assert!(
                            lo[v] <= x && x <= hi[v],
                            "{what}: {x} outside [{}, {}]",
                            lo[v],
                            hi[v]
                        );
                        checked += 1;
                    }
                }
                // Lines of up to three positions of one component before a
                // node: line_bounds against the brute force from that line.
                let mut lines = 0;
                if g.nodes.len() <= 5_000 {
                    for_each_line(
                        &g,
                        |_| true,
                        |line, w| {
                            let run: Vec<(u32, i32)> = line
                                .iter()
                                .map(|&h| (h as u32, g.repetition_south(h)))
                                .collect();
                            let (l, h) = line_bounds(&lo, &hi, w, &run);
                            let mut path: Vec<Oware> = line.iter().map(|&h| g.nodes[h]).collect();
                            path.push(g.nodes[w]);
                            let mut budget = 2_000;
                            if let Some(x) = brute(&mut path, -100, 100, &mut budget) {
                                assert!(
                                    l <= x && x <= h,
                                    "{houses}x{seeds} {rules:?} line {line:?} then {w}: {x} outside [{l}, {h}]"
                                );
                                lines += 1;
                            }
                        },
                    );
                }
                eprintln!(
                    "{houses}x{seeds} {rules:?}: {} nodes, {exact} exact, {checked} checked, {lines} lines",
                    g.nodes.len()
                );
                assert!(checked >= 100.min(g.nodes.len()) / 2 || g.nodes.len() > 5_000);
            }
        }
    }
}
