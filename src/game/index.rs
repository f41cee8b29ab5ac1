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

/// The numbering of a database's boards: one [`Indexer`] where every cell
/// of the board can hold seeds, or several layouts where some cells never
/// do (Togyz Kumalak's tuzdyks, whose kumalaks go straight to a kazan).
///
/// A board of a game with layouts carries its layout's number in the byte
/// after its cells; the layouts of one seed count are numbered one after
/// the other, each by the [`Indexer`] of its free cells.
#[derive(Clone, Debug)]
pub struct DbIndex {
    cells: usize,
    /// Whether there is one layout with every cell free: then `whole`
    /// numbers every board (the databases' hot paths test this first).
    plain: bool,
    /// The numbering of boards with every cell free.
    whole: Indexer,
    layouts: Vec<Layout>,
    /// `offsets[n][l]`: the number of layout `l`'s first board among the
    /// boards of `n` seeds; one more entry, the count of them all.
    offsets: Vec<Vec<u64>>,
}

#[derive(Clone, Debug)]
struct Layout {
    /// The cells that can hold seeds, in order.
    free: Vec<u8>,
    ix: Indexer,
}

/// Most cells a board of a game with layouts has.
const MOST_CELLS: usize = 32;

impl DbIndex {
    /// The numbering of boards of `cells` cells and up to `max_seeds`
    /// seeds: with no `blocked` lists, every cell free; else one layout per
    /// list, whose cells never hold seeds. `None` when a count does not fit
    /// in 64 bits, a list names a cell off the board, or there are more
    /// than 256 layouts or 32 cells with layouts.
    pub fn new(cells: usize, max_seeds: usize, blocked: &[Vec<u8>]) -> Option<DbIndex> {
        let plain = [Vec::new()];
        let lists = if blocked.is_empty() {
            &plain[..]
        } else {
            blocked
        };
        // A layout's number is a byte; its free cells are gathered on the
        // stack.
        if lists.len() > 1 && (cells > MOST_CELLS || lists.len() > 256) {
            return None;
        }
        let mut layouts = Vec::with_capacity(lists.len());
        for list in lists {
            if list.iter().any(|&c| c as usize >= cells) {
                return None;
            }
            let free: Vec<u8> = (0..cells as u8).filter(|c| !list.contains(c)).collect();
            let ix = Indexer::try_new(free.len(), max_seeds)?;
            layouts.push(Layout { free, ix });
        }
        let mut offsets = Vec::with_capacity(max_seeds + 1);
        for n in 0..=max_seeds {
            let mut row = vec![0u64];
            for l in &layouts {
                let last = *row.last().expect("starts with 0");
                row.push(last.checked_add(l.ix.count(n))?);
            }
            offsets.push(row);
        }
        Some(DbIndex {
            cells,
            plain: layouts.len() == 1 && layouts[0].free.len() == cells,
            whole: Indexer::try_new(cells, max_seeds)?,
            layouts,
            offsets,
        })
    }

    /// The bytes of a board: its cells, and its layout's number where
    /// there are several.
    pub fn board_len(&self) -> usize {
        self.cells + !self.plain as usize
    }

    pub fn layouts(&self) -> usize {
        self.layouts.len()
    }

    pub fn max_seeds(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of boards holding `n` seeds.
    pub fn count(&self, n: usize) -> u64 {
        *self.offsets[n].last().expect("one entry a layout, and one")
    }

    /// The number of `board` (which holds `n` seeds) among the boards with
    /// `n` seeds.
    #[inline(always)]
    pub fn rank(&self, board: &[u8], n: usize) -> u64 {
        if self.plain {
            return self.whole.rank(&board[..self.cells], n);
        }
        let l = board[self.cells] as usize;
        let layout = &self.layouts[l];
        let mut free = [0u8; MOST_CELLS];
        for (f, &c) in free.iter_mut().zip(&layout.free) {
            *f = board[c as usize];
        }
        self.offsets[n][l] + layout.ix.rank(&free[..layout.free.len()], n)
    }

    /// The board numbered `idx` among those with `n` seeds.
    #[inline(always)]
    pub fn unrank(&self, n: usize, idx: u64, board: &mut [u8]) {
        if self.plain {
            return self.whole.unrank(n, idx, &mut board[..self.cells]);
        }
        // The last layout starting at or before `idx`: layouts without a
        // board of `n` seeds start where the next one does.
        let l = self.offsets[n].partition_point(|&o| o <= idx) - 1;
        let layout = &self.layouts[l];
        let mut free = [0u8; MOST_CELLS];
        let k = layout.free.len();
        layout
            .ix
            .unrank(n, idx - self.offsets[n][l], &mut free[..k]);
        self.scatter(l, &free[..k], board);
    }

    fn scatter(&self, l: usize, free: &[u8], board: &mut [u8]) {
        board[..self.cells].fill(0);
        for (&c, &v) in self.layouts[l].free.iter().zip(free) {
            board[c as usize] = v;
        }
        board[self.cells] = l as u8;
    }

    /// Steps `board` to the next board with the same seeds in rank order;
    /// `false` after the last one.
    #[inline(always)]
    pub fn next(&self, board: &mut [u8]) -> bool {
        if self.plain {
            return self.whole.next(&mut board[..self.cells]);
        }
        let l = board[self.cells] as usize;
        let layout = &self.layouts[l];
        let k = layout.free.len();
        let mut free = [0u8; MOST_CELLS];
        for (f, &c) in free.iter_mut().zip(&layout.free) {
            *f = board[c as usize];
        }
        if layout.ix.next(&mut free[..k]) {
            self.scatter(l, &free[..k], board);
            return true;
        }
        // The first board of the next layout that has one.
        let n: usize = free[..k].iter().map(|&v| v as usize).sum();
        let Some(next) = (l + 1..self.layouts.len()).find(|&m| self.layouts[m].ix.count(n) > 0)
        else {
            return false;
        };
        let k = self.layouts[next].free.len();
        self.layouts[next].ix.unrank(n, 0, &mut free[..k]);
        self.scatter(next, &free[..k], board);
        true
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

    #[test]
    fn layouts_number_every_board_once_in_order() {
        // Five cells; layouts with cell 1 blocked, nothing blocked, and
        // cells 0 and 4 blocked.
        let blocked = [vec![1], vec![], vec![0, 4]];
        let ix = DbIndex::new(5, 4, &blocked).unwrap();
        assert_eq!(ix.board_len(), 6);
        for n in 0..=4 {
            let want = Indexer::new(4, n).count(n)
                + Indexer::new(5, n).count(n)
                + Indexer::new(3, n).count(n);
            assert_eq!(ix.count(n), want);
            let mut b = [0u8; 6];
            ix.unrank(n, 0, &mut b);
            let mut seen = std::collections::BTreeSet::new();
            for idx in 0..ix.count(n) {
                let mut u = [0u8; 6];
                ix.unrank(n, idx, &mut u);
                assert_eq!(u, b, "n={n} idx={idx}");
                assert_eq!(ix.rank(&b, n), idx);
                let l = b[5] as usize;
                assert!(blocked[l].iter().all(|&c| b[c as usize] == 0));
                assert_eq!(b[..5].iter().map(|&v| v as usize).sum::<usize>(), n);
                assert!(seen.insert(b));
                assert_eq!(ix.next(&mut b), idx + 1 < ix.count(n));
            }
        }
        // One layout with nothing blocked is the plain numbering, no
        // layout byte.
        let plain = DbIndex::new(5, 4, &[]).unwrap();
        assert_eq!(plain.board_len(), 5);
        assert_eq!(plain.count(4), Indexer::new(5, 4).count(4));
    }
}
