//! Kalah's database builder: within one seed count the moves that bank nothing
//! form no cycle, so a memoised recursion computes each value once.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{Kalah, KalahRules};
use crate::game::{Game, Side};
use crate::solve::db::{Egtb, UNKNOWN};
use crate::solve::egtb::{BuildOptions, BuildProgress, each_board};
use crate::solve::index::Indexer;

/// Ranks Kalah boards straight from their row words: the same numbers as
/// [`Indexer::rank`], without copying the board out into bytes first. The
/// builder ranks every child of every position, so this is its inner loop.
struct RowRanker {
    pits: usize,
    stride: usize,
    /// `ways[k * stride + s]`: [`Indexer::count_in`] flattened.
    ways: Vec<u64>,
}

impl RowRanker {
    fn new(ix: &Indexer) -> RowRanker {
        let stride = ix.max_seeds() + 1;
        let mut ways = Vec::with_capacity((ix.pits() + 1) * stride);
        for k in 0..=ix.pits() {
            ways.extend((0..stride).map(|s| ix.count_in(k, s)));
        }
        RowRanker {
            pits: ix.pits() / 2,
            stride,
            ways,
        }
    }

    /// The rank of the board `own` then `opp` (row words, the side to
    /// move's first) among the boards with `n` seeds.
    #[inline]
    fn rank(&self, own: u64, opp: u64, n: usize) -> u64 {
        let m = self.pits;
        let k = 2 * m;
        let mut r = n;
        let mut idx = 0;
        for i in 0..k - 1 {
            let a = if i < m {
                (own >> (8 * i)) & 0xFF
            } else {
                (opp >> (8 * (i - m))) & 0xFF
            } as usize;
            let row = (k - i) * self.stride;
            idx += self.ways[row + r] - self.ways[row + r - a];
            r -= a;
        }
        idx
    }
}

/// The value of the Kalah board `own`/`opp` (row words, stores empty, the
/// side to move's row first) with `n` seeds and rank `idx`, computing the
/// boards of the same count it leads to on the way.
fn kalah_value(
    db: &Egtb,
    rk: &RowRanker,
    rules: &KalahRules,
    own: u64,
    opp: u64,
    n: usize,
    idx: u64,
) -> i8 {
    let level = db.level(n);
    let known = level[idx as usize].load(Ordering::Relaxed);
    if known != UNKNOWN {
        return known;
    }
    let v = kalah_moves_value(db, rk, rules, own, opp, n);
    level[idx as usize].store(v, Ordering::Relaxed);
    v
}

/// The best of the moves of `own`/`opp`; boards of lower counts must be
/// complete.
fn kalah_moves_value(
    db: &Egtb,
    rk: &RowRanker,
    rules: &KalahRules,
    own: u64,
    opp: u64,
    n: usize,
) -> i8 {
    use crate::variants::two_row::byte_sum;
    if own == 0 || opp == 0 {
        // A row is empty: each player banks the seeds on his side.
        let mine = byte_sum(own) as i32;
        return (mine - (n as i32 - mine)) as i8;
    }
    let pos = Kalah::from_rows(rules, own, opp, [0, 0], Side::South);
    // First every child and where its value lies, then the reads: the
    // values are scattered over gigabytes, and asking for all of them
    // before using any lets their cache misses overlap.
    struct Child {
        gain: i32,
        rest: usize,
        same: bool,
        own: u64,
        opp: u64,
        rank: u64,
    }
    let mut kids: [Option<Child>; 8] = Default::default();
    let mut pits = own;
    let mut k = 0;
    while pits != 0 {
        let i = pits.trailing_zeros() / 8;
        pits &= !(0xFF << (8 * i));
        let child = pos.play(i as u8);
        let (s, nn) = (child.store(Side::South), child.store(Side::North));
        let rest = n - (s + nn) as usize;
        let same = child.side_to_move() == Side::South;
        let (cown, copp) = if same {
            (child.row(Side::South), child.row(Side::North))
        } else {
            (child.row(Side::North), child.row(Side::South))
        };
        let rank = if rest == 0 {
            0
        } else {
            let r = rk.rank(cown, copp, rest);
            crate::solve::prefetch(&db.level(rest)[r as usize]);
            r
        };
        kids[k] = Some(Child {
            gain: s as i32 - nn as i32,
            rest,
            same,
            own: cown,
            opp: copp,
            rank,
        });
        k += 1;
    }
    let mut best = i32::MIN;
    for c in kids[..k].iter().flatten() {
        let v = if c.rest == 0 {
            c.gain
        } else {
            let cv = if c.rest < n {
                db.level(c.rest)[c.rank as usize].load(Ordering::Relaxed) as i32
            } else {
                kalah_value(db, rk, rules, c.own, c.opp, n, c.rank) as i32
            };
            c.gain + if c.same { cv } else { -cv }
        };
        best = best.max(v);
    }
    best as i8
}

fn row_word(pits: &[u8]) -> u64 {
    pits.iter().rev().fold(0u64, |w, &v| w << 8 | v as u64)
}

pub(crate) fn build_level(
    db: &Egtb,
    rules: KalahRules,
    n: usize,
    opts: &BuildOptions,
    start: Instant,
    progress: &mut dyn FnMut(&BuildProgress),
) {
    let m = rules.pits as usize;
    let rk = RowRanker::new(db.indexer());
    each_board(db, n, opts, ((1, 1), start), progress, &|idx, board, _| {
        let own = row_word(&board[..m]);
        let opp = row_word(&board[m..]);
        kalah_value(db, &rk, &rules, own, opp, n, idx);
    });
    let total = db.indexer().count(n);
    progress(&BuildProgress::at(n, total, (1, 1), total, true, start));
}

#[cfg(test)]
mod kalah_tests {
    use super::*;

    #[test]
    fn row_ranker_numbers_boards_like_the_indexer() {
        // 4 pits a row, every board of up to 7 seeds.
        let ix = Indexer::new(8, 7);
        let rk = RowRanker::new(&ix);
        for n in 0..=7 {
            let mut b = [0u8; 8];
            ix.unrank(n, 0, &mut b);
            for idx in 0..ix.count(n) {
                let (own, opp) = (row_word(&b[..4]), row_word(&b[4..]));
                assert_eq!(rk.rank(own, opp, n), idx, "board {b:?}");
                ix.next(&mut b);
            }
        }
    }
}
