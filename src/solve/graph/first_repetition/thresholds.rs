//! Which thresholds a component's games are played at, and how: the
//! thresholds where a bound can change, cut to a [`Window`](super::Window),
//! halved so that a node takes part in about log2 of their games, South's
//! and North's sides on two threads for a large component.

use super::arena::{Arena, Flags, Scratch};

impl Arena<'_> {
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
    pub(super) fn solve(&self, nodes: &[u32], lo: &mut [i32], hi: &mut [i32], split: bool) {
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

/// A node of the region [`Arena::split`] is solving, or one outside it
/// known to be won or lost at every threshold left.
const IN_PLAY: u8 = 0;
const WON: u8 = 1;
const LOST: u8 = 2;

/// Components of at least this many nodes have South's and North's bounds
/// found on two threads.
pub(super) const PARALLEL_ARENA: usize = 50_000;
