//! The builder for games whose positions of one seed count form cycles
//! ([`DbBuild::Retrograde`], Oware under either rule set): retrograde
//! analysis by thresholds, working back through the moves that bank
//! nothing with the game's own backward move generation. Game ends are the
//! variant's own `outcome`, so the same code builds the Awari and the Abapa
//! databases. The players must alternate (no move gives its mover another).

use std::sync::atomic::{AtomicI8, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use super::{BuildOptions, BuildProgress, parallel_chunks, run_reporting, threads};
#[cfg(doc)]
use crate::game::DbBuild;
use crate::game::{DB_BOARD, DbBoard, DbIndex, DbSpec};
use crate::solve::db::Egtb;

/// The game's backward moves ([`DbBuild::Retrograde`]).
type Predecessors<R> = fn(&R, &[u8], &mut Vec<DbBoard>);

/// What a board of `n` seeds (South to move) offers before the positions of
/// its own count are known: the best that a move banking seeds gets (its
/// seeds minus what the opponent then makes of the smaller count, or what
/// the rules' game end gives), `NO_EXIT` if no move banks any, and the
/// number of legal moves that bank nothing and so stay within the count.
/// A board on which the game is over (under Abapa, say, the mover cannot
/// feed an opponent who has none) has the rules' own margin as its exit and
/// no moves.
///
/// It comes in two steps so that the values of the banking moves, misses
/// at random in the smaller counts, load while the next boards' moves are
/// played: [`Outlook::look`] plays the moves and prefetches the values,
/// [`Outlook::exit`] reads them.
struct Outlook<'a> {
    /// The rules' margin of a finished game: the whole exit.
    over: Option<i32>,
    /// Legal moves that bank nothing.
    inside: u8,
    /// Each banking move's seeds and its child's value (`None`: no seeds
    /// left, worth 0).
    banks: [(i32, Option<&'a AtomicI8>); 16],
    len: usize,
}

impl<'a> Outlook<'a> {
    fn new() -> Self {
        Outlook {
            over: None,
            inside: 0,
            banks: [(0, None); 16],
            len: 0,
        }
    }

    fn look<G: DbSpec>(
        &mut self,
        db: &'a Egtb,
        rules: &G::Rules,
        board: &[u8],
        n: usize,
        moves: &mut Vec<G::Move>,
    ) {
        self.over = None;
        self.inside = 0;
        self.len = 0;
        let pos = G::from_db_board(rules, board);
        if let Some(o) = pos.outcome() {
            // The stores are empty: the margin is the rules' share of the board.
            let margin = o
                .margin_for(crate::game::Side::South)
                .expect("a game with databases counts seeds at its end");
            self.over = Some(margin);
            return;
        }
        pos.legal_moves(moves);
        let mut b = [0u8; DB_BOARD];
        for &mv in moves.iter() {
            let child = pos.play(mv);
            // The child's board from its mover's (the opponent's) view.
            let rest = child.db_board(&mut b);
            if rest == n {
                self.inside += 1;
                continue;
            }
            let slot = (rest != 0).then(|| {
                let slot = &db.level(rest)[db.indexer().rank(&b, rest) as usize];
                crate::solve::prefetch(slot);
                slot
            });
            self.banks[self.len] = (child.banked(), slot);
            self.len += 1;
        }
    }

    fn exit(&self) -> i32 {
        if let Some(margin) = self.over {
            return margin;
        }
        self.banks[..self.len]
            .iter()
            .map(|&(banked, slot)| -banked - slot.map_or(0, |v| v.load(Ordering::Relaxed) as i32))
            .fold(NO_EXIT, i32::max)
    }
}

/// Boards whose banking moves' values are on their way in stage 1.
const DEPTH: usize = 4;

/// The most seeds this builder handles (every seed of Awari): it keeps
/// values and pending codes apart in a byte during the build.
pub(crate) const MAX_SEEDS: usize = 48;

/// No move leaves the count: below every value, so that such a position
/// is lost by the largest margin its moves allow. (A position without moves
/// has its game end's margin as its exit instead.)
const NO_EXIT: i32 = -(MAX_SEEDS as i32) - 1;

/// While a count is built, a position not yet decided holds `PENDING + exit`
/// in its byte, a code no value can take: values lie in −48..=48, which as
/// bytes are 0..=48 and 208..=255.
const PENDING: i32 = 100;

fn pending(exit: i32) -> i8 {
    (PENDING + exit) as u8 as i8
}

/// The exit of a position not yet decided, or `None` if it is decided.
fn exit_of(code: i8) -> Option<i32> {
    let u = code as u8 as i32;
    (PENDING + NO_EXIT..=PENDING + MAX_SEEDS as i32)
        .contains(&u)
        .then_some(u - PENDING)
}

/// How many predecessors the propagation prefetches before it updates them.
const BATCH: usize = 32;

/// How far on in rank the propagation steps a board instead of unranking.
const NEAR: u64 = 6;

/// A set of positions of one seed count, shared by the build threads.
struct Bits(Vec<AtomicU64>);

/// A zeroed vector of `n` atomics, on huge pages where the kernel can: the
/// build reads and writes its working sets at random, and with 4 KiB pages
/// nearly every access also missed the TLB.
fn zeroed<T>(n: u64, zero: impl Fn() -> T) -> Vec<T> {
    let mut v = Vec::with_capacity(n as usize);
    crate::solve::advise_huge_pages(&v);
    v.resize_with(n as usize, zero);
    v
}

impl Bits {
    fn new(n: u64) -> Bits {
        Bits(zeroed(n.div_ceil(64), || AtomicU64::new(0)))
    }

    fn set(&self, i: u64) {
        self.0[(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
    }

    /// Calls `f` on every member in `[a, b)` (multiples of 64) and empties
    /// that range.
    ///
    /// `ahead(w)` hears of the next word `w` with members before the members
    /// of this one are handed out, to prefetch what they will read.
    fn drain(&self, a: u64, b: u64, ahead: impl Fn(u64), mut f: impl FnMut(u64)) {
        let end = b.div_ceil(64);
        for w in a / 64..end {
            let word = &self.0[w as usize];
            // Late in a threshold most words are empty: a plain read spares
            // them the locked swap.
            if word.load(Ordering::Relaxed) == 0 {
                continue;
            }
            if w + 1 < end && self.0[w as usize + 1].load(Ordering::Relaxed) != 0 {
                ahead(w + 1);
            }
            let mut bits = word.swap(0, Ordering::Relaxed);
            while bits != 0 {
                let i = bits.trailing_zeros() as u64;
                bits &= bits - 1;
                f(w * 64 + i);
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|w| w.load(Ordering::Relaxed) == 0)
    }
}

/// Small counters (0..=15), two to a byte, shared by the build threads.
struct Nibbles(Vec<AtomicU8>);

impl Nibbles {
    fn new(n: u64) -> Nibbles {
        Nibbles(zeroed(n.div_ceil(2), || AtomicU8::new(0)))
    }

    fn shift(i: u64) -> u32 {
        4 * (i % 2) as u32
    }

    /// Sets a counter that is 0, while no other thread writes its byte (a
    /// plain read and write: no locked instruction).
    fn set_alone(&self, i: u64, v: u8) {
        debug_assert!(v < 16);
        let cell = &self.0[(i / 2) as usize];
        cell.store(
            cell.load(Ordering::Relaxed) | v << Self::shift(i),
            Ordering::Relaxed,
        );
    }

    fn byte(&self, i: u64) -> &AtomicU8 {
        &self.0[(i / 2) as usize]
    }

    fn get(&self, i: u64) -> u8 {
        self.0[(i / 2) as usize].load(Ordering::Relaxed) >> Self::shift(i) & 15
    }

    /// Lowers a counter that is above 0 and returns its new value.
    fn decrement(&self, i: u64) -> u8 {
        let old = self.0[(i / 2) as usize].fetch_sub(1 << Self::shift(i), Ordering::Relaxed);
        let was = old >> Self::shift(i) & 15;
        debug_assert!(was > 0);
        was - 1
    }
}

/// Builds one seed count by retrograde analysis in rounds of
/// thresholds, from `t = n` down to 1: a position is worth at least `t` if
/// a move banks `t` or more, or reaches a position of the count worth at
/// most `-t`; at most `-t` if every move banks at most `-t` and every move
/// within the count reaches a position worth at least `t`. Each threshold
/// only adds positions to these two sets, so a position is decided once
/// (its value is the threshold where it joins) and its predecessors are
/// told once: a count per position of the moves not yet known to reach
/// a position worth at least `t` does the "every move" test. Positions
/// never decided cannot force a gain or a loss: 0.
pub(super) fn build_level<G: DbSpec>(
    db: &Egtb,
    rules: &G::Rules,
    predecessors: Predecessors<G::Rules>,
    n: usize,
    opts: &BuildOptions,
    start: Instant,
    progress: &mut dyn FnMut(&BuildProgress),
) {
    let ix = db.indexer();
    let total = ix.count(n);
    let count = Count::<G> {
        db,
        rules,
        predecessors,
        n,
        p: ix.board_len(),
        ix,
        total,
        level: db.level(n),
        distances: db.distance_level(n),
        inside: Nibbles::new(total),
        decided: AtomicU64::new(0),
    };
    let stages = 1 + n as u32;
    // Stage 1: every position's exits and moves within the count.
    count.look_at_moves(opts, |d| {
        progress(&BuildProgress::at(n, total, (1, stages), d, false, start))
    });
    let mut fresh = Bits::new(total);
    let mut next = Bits::new(total);
    for t in (1..=n as i32).rev() {
        // Positions that join at this threshold by their own exits.
        count.join_by_exits(t, &fresh, opts);
        // And the positions that reach them, until no more join. A
        // position that joins in round `r` is `r` plies from its exit:
        // the winner's quickest, the loser's slowest (its distance).
        let mut round = 0u8;
        while !fresh.is_empty() {
            round = round.saturating_add(1);
            count.tell_predecessors(t, round, &fresh, &next, opts);
            std::mem::swap(&mut fresh, &mut next);
        }
        let decided = count.decided.load(Ordering::Relaxed);
        let stage = (2 + n as u32 - t as u32, stages);
        progress(&BuildProgress::at(n, total, stage, decided, false, start));
    }
    count.zero_undecided(opts);
    progress(&BuildProgress::at(
        n,
        total,
        (stages, stages),
        total,
        true,
        start,
    ));
}

/// One seed count while [`build_level`] builds it: what its stages read of
/// the game and the smaller counts, the bytes of its positions (values, or
/// pending codes), and what the thresholds keep between rounds.
struct Count<'a, G: DbSpec> {
    db: &'a Egtb,
    rules: &'a G::Rules,
    predecessors: Predecessors<G::Rules>,
    /// The seeds of the count.
    n: usize,
    /// The bytes of a board: both rows (and the layout).
    p: usize,
    ix: &'a DbIndex,
    /// Positions of the count.
    total: u64,
    level: &'a [AtomicI8],
    /// Per position, the round of its threshold in which it joined (its
    /// distance), where the game keeps distances.
    distances: Option<&'a [AtomicU8]>,
    /// Per position, its moves within the count not yet known to reach a
    /// position worth at least the threshold.
    inside: Nibbles,
    /// Positions decided so far.
    decided: AtomicU64,
}

impl<G: DbSpec> Count<'_, G> {
    /// Stage 1: every position's exit and moves within the count
    /// ([`Outlook`]), its exit kept as its pending code. `report` hears now
    /// and then how many positions are done.
    fn look_at_moves(&self, opts: &BuildOptions, report: impl FnMut(u64)) {
        let (db, rules, n, p, ix, total) =
            (self.db, self.rules, self.n, self.p, self.ix, self.total);
        let (level, inside) = (self.level, &self.inside);
        let done = AtomicU64::new(0);
        run_reporting(
            threads(opts),
            total,
            opts.report_every,
            &done,
            report,
            &|a, b| {
                let mut board = [0u8; DB_BOARD];
                let mut moves = Vec::with_capacity(8);
                let mut ring: [Outlook; DEPTH] = std::array::from_fn(|_| Outlook::new());
                let finish = |idx: u64, o: &Outlook| {
                    level[idx as usize].store(pending(o.exit()), Ordering::Relaxed);
                    // Chunks hold an even number of positions: no other thread
                    // writes this byte now.
                    inside.set_alone(idx, o.inside);
                };
                ix.unrank(n, a, &mut board[..p]);
                for idx in a..b {
                    let slot = (idx % DEPTH as u64) as usize;
                    if idx >= a + DEPTH as u64 {
                        finish(idx - DEPTH as u64, &ring[slot]);
                    }
                    ring[slot].look::<G>(db, rules, &board[..p], n, &mut moves);
                    ix.next(&mut board[..p]);
                }
                for idx in b.saturating_sub(DEPTH as u64).max(a)..b {
                    finish(idx, &ring[(idx % DEPTH as u64) as usize]);
                }
            },
        );
    }

    /// Decides position `idx` at `v` in round `round` and marks it in
    /// `into`, unless it is decided already (by another thread, say).
    fn decide(&self, idx: u64, v: i32, round: u8, into: &Bits) -> bool {
        let cell = &self.level[idx as usize];
        let code = cell.load(Ordering::Relaxed);
        if exit_of(code).is_some()
            && cell
                .compare_exchange(code, v as i8, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            if let Some(d) = self.distances {
                d[idx as usize].store(round, Ordering::Relaxed);
            }
            into.set(idx);
            self.decided.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// The positions that join at threshold `t` by their own exits, into
    /// `fresh`: an exit worth `t` or more, or one worth `-t` or less and no
    /// move within the count.
    fn join_by_exits(&self, t: i32, fresh: &Bits, opts: &BuildOptions) {
        let (level, inside) = (self.level, &self.inside);
        parallel_chunks(threads(opts), self.total, &|a, b| {
            for idx in a..b {
                if let Some(exit) = exit_of(level[idx as usize].load(Ordering::Relaxed)) {
                    if exit >= t {
                        self.decide(idx, t, 0, fresh);
                    } else if exit <= -t && inside.get(idx) == 0 {
                        self.decide(idx, -t, 0, fresh);
                    }
                }
            }
        });
    }

    /// One round of threshold `t`: the predecessors of the positions that
    /// joined last round (`fresh`, emptied) are told, and those that join
    /// now go into `next`. A predecessor of a position lost for its mover
    /// is won at `t`; one whose every move within the count now reaches a
    /// position worth at least `t`, and whose exit is worth `-t` or less,
    /// is lost at `-t`.
    fn tell_predecessors(&self, t: i32, round: u8, fresh: &Bits, next: &Bits, opts: &BuildOptions) {
        let (rules, predecessors, n, p, ix, total) = (
            self.rules,
            self.predecessors,
            self.n,
            self.p,
            self.ix,
            self.total,
        );
        let (level, inside) = (self.level, &self.inside);
        parallel_chunks(threads(opts), total, &|a, b| {
            let mut board = [0u8; DB_BOARD];
            let mut preds = Vec::new();
            // Predecessors (and whether their successor is lost) whose
            // cache lines are on their way: each is a miss somewhere in
            // the level, and the locked updates below would otherwise
            // wait for them one by one. Within a round the order of the
            // updates does not change which positions join.
            let mut batch: Vec<(u64, bool)> = Vec::with_capacity(BATCH + 64);
            let settle = |batch: &mut Vec<(u64, bool)>| {
                for &(idx, lost) in batch.iter() {
                    if lost {
                        self.decide(idx, t, round, next);
                    } else if inside.decrement(idx) == 0
                        && exit_of(level[idx as usize].load(Ordering::Relaxed))
                            .is_some_and(|e| e <= -t)
                    {
                        self.decide(idx, -t, round, next);
                    }
                }
                batch.clear();
            };
            // The board of the last position drained: the next one is
            // often a few ranks on, and stepping there is cheaper than
            // unranking.
            let mut at = u64::MAX;
            // A word's 64 positions lie on one or two cache lines of the
            // level.
            let ahead = |w: u64| {
                crate::solve::prefetch(&level[(w * 64) as usize]);
                crate::solve::prefetch(&level[((w * 64 + 63).min(total - 1)) as usize]);
            };
            fresh.drain(a, b, ahead, |q| {
                let lost = level[q as usize].load(Ordering::Relaxed) < 0;
                if at < q && q - at <= NEAR {
                    for _ in at..q {
                        ix.next(&mut board[..p]);
                    }
                } else {
                    ix.unrank(n, q, &mut board[..p]);
                }
                at = q;
                predecessors(rules, &board[..p], &mut preds);
                for pb in &preds {
                    let idx = ix.rank(&pb[..p], n);
                    crate::solve::prefetch(&level[idx as usize]);
                    if !lost {
                        crate::solve::prefetch(inside.byte(idx));
                    }
                    batch.push((idx, lost));
                }
                if batch.len() >= BATCH {
                    settle(&mut batch);
                }
            });
            settle(&mut batch);
        });
    }

    /// The positions never decided can force neither a gain nor a loss: 0.
    fn zero_undecided(&self, opts: &BuildOptions) {
        let level = self.level;
        parallel_chunks(threads(opts), self.total, &|a, b| {
            for cell in &level[a as usize..b as usize] {
                if exit_of(cell.load(Ordering::Relaxed)).is_some() {
                    cell.store(0, Ordering::Relaxed);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_codes_never_look_like_values() {
        for v in -(MAX_SEEDS as i32)..=MAX_SEEDS as i32 {
            assert_eq!(exit_of(v as i8), None, "value {v}");
        }
        for exit in NO_EXIT..=MAX_SEEDS as i32 {
            assert_eq!(exit_of(pending(exit)), Some(exit));
        }
    }

    #[test]
    fn nibbles_count_apart() {
        let c = Nibbles::new(5);
        for i in 0..5 {
            c.set_alone(i, i as u8 + 10);
        }
        assert_eq!(c.decrement(2), 11);
        assert_eq!(c.decrement(3), 12);
        for (i, want) in [10, 11, 11, 12, 14].into_iter().enumerate() {
            assert_eq!(c.get(i as u64), want);
        }
        for _ in 0..11 {
            c.decrement(1);
        }
        assert_eq!((c.get(0), c.get(1)), (10, 0));
    }
}
