//! Ranking of boards: a board of `k` pits holding `n` seeds in all is one of
//! C(n+k-1, k-1) compositions, numbered in lexicographic order of the pit
//! counts (first pit most significant). The databases store one value per
//! number.

/// Rank and unrank tables for boards of a fixed number of pits.
#[derive(Clone, Debug)]
pub struct Indexer {
    pits: usize,
    max_seeds: usize,
    /// `ways[k][s]`: the boards of `k` pits holding `s` seeds, C(s+k-1, k-1).
    ways: Vec<Vec<u64>>,
}

impl Indexer {
    /// Tables for boards of `pits` pits and up to `max_seeds` seeds; the
    /// counts must fit in 64 bits (see [`Indexer::try_new`]).
    pub fn new(pits: usize, max_seeds: usize) -> Indexer {
        Self::try_new(pits, max_seeds).expect("the board counts fit in 64 bits")
    }

    /// [`Indexer::new`], or `None` when some count of boards does not fit
    /// in 64 bits (sizes read from a file or a command line).
    pub fn try_new(pits: usize, max_seeds: usize) -> Option<Indexer> {
        let mut ways = vec![vec![0u64; max_seeds + 1]; pits + 1];
        ways[0][0] = 1;
        for k in 1..=pits {
            // Boards of k pits with s seeds: the last k-1 pits take s-v for
            // each count v of the first, a running sum over s.
            let prev = ways[k - 1].clone();
            let mut sum = 0u64;
            for (w, p) in ways[k].iter_mut().zip(prev) {
                sum = sum.checked_add(p)?;
                *w = sum;
            }
        }
        Some(Indexer {
            pits,
            max_seeds,
            ways,
        })
    }

    pub fn pits(&self) -> usize {
        self.pits
    }

    pub fn max_seeds(&self) -> usize {
        self.max_seeds
    }

    /// The number of boards holding `n` seeds.
    pub fn count(&self, n: usize) -> u64 {
        self.ways[self.pits][n]
    }

    /// The boards holding `n` seeds in the first `pits` pits.
    pub fn count_in(&self, pits: usize, n: usize) -> u64 {
        self.ways[pits][n]
    }

    /// The number of `board` (which holds `n` seeds) among the boards with
    /// `n` seeds.
    #[inline]
    pub fn rank(&self, board: &[u8], n: usize) -> u64 {
        debug_assert_eq!(board.len(), self.pits);
        let mut r = n;
        let mut idx = 0;
        for (i, &a) in board[..self.pits - 1].iter().enumerate() {
            let k = self.pits - i;
            let a = a as usize;
            // The boards whose pit i holds fewer than a seeds come first:
            // sum over v < a of ways[k-1][r-v], a difference of ways[k].
            idx += self.ways[k][r] - self.ways[k][r - a];
            r -= a;
        }
        idx
    }

    /// The board numbered `idx` among those with `n` seeds.
    pub fn unrank(&self, n: usize, mut idx: u64, board: &mut [u8]) {
        let mut r = n;
        for (i, out) in board[..self.pits - 1].iter_mut().enumerate() {
            let w = &self.ways[self.pits - i][..=r];
            // Find the largest a with w[r] - w[r-a] <= idx, that is with
            // w[r-a] >= w[r] - idx: one load per step (the endgame builder
            // unranks every position it decides).
            let floor = w[r] - idx;
            let mut a = 0;
            while a < r && w[r - a - 1] >= floor {
                a += 1;
            }
            idx -= w[r] - w[r - a];
            *out = a as u8;
            r -= a;
        }
        board[self.pits - 1] = r as u8;
    }

    /// Steps `board` to the next board with the same seeds in rank order;
    /// `false` after the last one.
    pub fn next(&self, board: &mut [u8]) -> bool {
        // The last pit only holds what is left, so the rightmost pit before
        // it that can grow grows by one, taking a seed from the tail, and the
        // tail restarts with every seed in the last pit.
        let k = self.pits;
        let mut tail = board[k - 1] as u32;
        for i in (0..k - 1).rev() {
            if tail > 0 {
                board[i] += 1;
                for c in &mut board[i + 1..k] {
                    *c = 0;
                }
                board[k - 1] = (tail - 1) as u8;
                return true;
            }
            tail += board[i] as u32;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_unrank_and_next_agree() {
        let ix = Indexer::new(5, 6);
        for n in 0..=6 {
            let mut b = [0u8; 5];
            ix.unrank(n, 0, &mut b);
            for idx in 0..ix.count(n) {
                let mut u = [0u8; 5];
                ix.unrank(n, idx, &mut u);
                assert_eq!(u, b, "n={n} idx={idx}");
                assert_eq!(ix.rank(&b, n), idx);
                let more = ix.next(&mut b);
                assert_eq!(more, idx + 1 < ix.count(n));
            }
        }
        assert_eq!(Indexer::new(12, 24).count(24), 417_225_900);
    }
}
