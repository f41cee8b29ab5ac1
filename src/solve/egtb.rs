//! Building, verifying and counting endgame databases.
//!
//! Both games are built one seed count at a time, from 0 up: a move that
//! banks seeds leads to a smaller count, already done, and only moves that
//! bank nothing stay within the count being built.
//!
//! * Kalah: a move that banks nothing moves seeds to the right within the
//!   mover's own row, so within one count the moves form no cycle and a
//!   memoised recursion computes each value once.
//! * Oware (Awari rules): seeds go round, so positions of one count form
//!   cycles, and endless play is worth 0 to both (the convention of the
//!   published databases). The value is the least fixed point of
//!   "best over the moves" in the order that makes endless play 0: each
//!   position holds what the mover can *force* so far — a gain `g > 0`, a
//!   loss `-l < 0`, or 0 while neither is forced — and sweeps over the
//!   count raise these until nothing changes. A gain is forced when some
//!   move banks it or reaches a position where the opponent's loss of it is
//!   forced; a loss when every move does so. Positions whose values never
//!   became forced are those where neither side can avoid endless play or
//!   an even split: 0.
//!
//! Values of the rules' own game ends: a mover with no seeds cannot move
//! and the opponent takes what is left (−n); in Oware, a move that must
//! leave the opponent without seeds ends the game and the mover takes
//! what is left. The builders play the moves with the variants' own
//! `play`, so no rule is written twice.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::db::{DbError, DbGame, Egtb, UNKNOWN};
use super::index::Indexer;
use crate::game::{Game, Side};
use crate::variants::kalah::{Capture, Kalah, KalahRules};
use crate::variants::oware::{Oware, OwareRules, Repetition, RuleSet};

/// How a build reports.
#[derive(Clone, Debug)]
pub struct BuildProgress {
    /// The seed count being built.
    pub seeds: usize,
    /// Positions of that count done (in the current sweep for Oware); once
    /// `finished`, the positions evaluated in all (Oware evaluates some
    /// more than once).
    pub done: u64,
    pub total: u64,
    /// Oware: the sweep over this count (1-based); Kalah: 1.
    pub sweep: u32,
    /// `true` once the count is complete.
    pub finished: bool,
    pub elapsed: Duration,
}

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Time between progress reports.
    pub report_every: Duration,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            threads: 0,
            report_every: Duration::from_secs(2),
        }
    }
}

fn threads(opts: &BuildOptions) -> usize {
    if opts.threads > 0 {
        opts.threads
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// Positions are handed to threads in chunks of this many.
const CHUNK: u64 = 1 << 14;

/// The rules under which a database's positions are played: the same board
/// size, stores that start empty. `seeds` only sets the half-of-all-seeds
/// test of Oware, which must never fire with empty stores.
fn kalah_rules(pits: u8, capture: Capture) -> KalahRules {
    KalahRules {
        pits,
        seeds: 1,
        capture,
    }
}

fn oware_rules(houses: u8) -> OwareRules {
    OwareRules {
        houses,
        seeds: crate::variants::oware::MAX_SEEDS,
        rules: RuleSet::Awari,
        repetition: Repetition::Split,
    }
}

/// Runs `work(start, end)` over `0..total` in chunks on `n` threads.
fn parallel_chunks(n: usize, total: u64, work: &(dyn Fn(u64, u64) + Sync)) {
    let next = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..n {
            std::thread::Builder::new()
                // Kalah's recursion follows chains of moves within a count.
                .stack_size(256 << 20)
                .spawn_scoped(s, || {
                    loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= total {
                            break;
                        }
                        work(start, (start + CHUNK).min(total));
                    }
                })
                .expect("spawning a build thread");
        }
    });
}

/// Builds a database of `game` up to `max_seeds` seeds.
pub fn build(
    game: DbGame,
    max_seeds: usize,
    opts: &BuildOptions,
    progress: &mut dyn FnMut(&BuildProgress),
) -> Result<Egtb, DbError> {
    if game.pits() > 8 {
        return Err(DbError::Unsupported("at most 8 pits per row".into()));
    }
    let db = Egtb::empty(game, max_seeds)?;
    let start = Instant::now();
    for n in 0..=max_seeds {
        match game {
            DbGame::Kalah { pits, capture } => {
                build_kalah_level(&db, kalah_rules(pits, capture), n, opts, start, progress)
            }
            DbGame::Oware { houses } => {
                build_oware_level(&db, oware_rules(houses), n, opts, start, progress)
            }
        }
    }
    Ok(db)
}

/// Reports from the worker threads through the caller's callback, which
/// only the calling thread may run: the workers count, the caller reports.
fn run_reporting(
    n_threads: usize,
    total: u64,
    report_every: Duration,
    done: &AtomicU64,
    mut report: impl FnMut(u64),
    work: &(dyn Fn(u64, u64) + Sync),
) {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            parallel_chunks(n_threads, total, &|a, b| {
                work(a, b);
                done.fetch_add(b - a, Ordering::Relaxed);
            });
            // Dropping the sender wakes the reporting loop at once.
            drop(tx);
        });
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(report_every) {
            report(done.load(Ordering::Relaxed));
        }
    });
}

// ---------------------------------------------------------------- Kalah

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
            super::prefetch(&db.level(rest)[r as usize]);
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

fn build_kalah_level(
    db: &Egtb,
    rules: KalahRules,
    n: usize,
    opts: &BuildOptions,
    start: Instant,
    progress: &mut dyn FnMut(&BuildProgress),
) {
    let m = rules.pits as usize;
    let ix = db.indexer();
    let rk = RowRanker::new(ix);
    let total = ix.count(n);
    let done = AtomicU64::new(0);
    let work = |a: u64, b: u64| {
        let mut board = [0u8; 16];
        ix.unrank(n, a, &mut board[..2 * m]);
        for idx in a..b {
            let own = row_word(&board[..m]);
            let opp = row_word(&board[m..2 * m]);
            kalah_value(db, &rk, &rules, own, opp, n, idx);
            ix.next(&mut board[..2 * m]);
        }
    };
    let report = |d: u64| {
        progress(&BuildProgress {
            seeds: n,
            done: d,
            total,
            sweep: 1,
            finished: false,
            elapsed: start.elapsed(),
        })
    };
    run_reporting(
        threads(opts),
        total,
        opts.report_every,
        &done,
        report,
        &work,
    );
    progress(&BuildProgress {
        seeds: n,
        done: total,
        total,
        sweep: 1,
        finished: true,
        elapsed: start.elapsed(),
    });
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

// ---------------------------------------------------------------- Oware

/// One step of the Oware fixed point for `board` with `n` seeds (South to
/// move): what the mover can force given the current values of the
/// positions of the same count (lower counts are complete).
fn oware_step(db: &Egtb, rules: &OwareRules, board: &[u8], n: usize) -> i8 {
    let m = rules.houses as usize;
    let pos = Oware::from_houses(rules, board, [0, 0], Side::South);
    let mut moves = Vec::with_capacity(8);
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        // No seeds to move: the opponent takes what is left.
        return -(n as i8);
    }
    let mut plus = 0i32;
    let mut minus = i32::MAX;
    let mut b = [0u8; 16];
    for mv in moves {
        let child = pos.play(mv);
        let won = child.store(Side::South) as usize;
        let rest = n - won;
        let h = child.houses();
        if won > 0 {
            let e = won as i32
                - if rest == 0 {
                    0
                } else {
                    b[..m].copy_from_slice(&h[m..]);
                    b[m..2 * m].copy_from_slice(&h[..m]);
                    db.value(&b[..2 * m], rest) as i32
                };
            plus = plus.max(e);
            minus = minus.min(-e);
        } else {
            b[..m].copy_from_slice(&h[m..]);
            b[m..2 * m].copy_from_slice(&h[..m]);
            let cv = db.value(&b[..2 * m], n) as i32;
            plus = plus.max((-cv).max(0));
            minus = minus.min(cv.max(0));
        }
    }
    if plus > 0 {
        plus as i8
    } else {
        -(minus.max(0) as i8)
    }
}

/// The positions of the same seed count that reach `q` (South to move, `n`
/// seeds) by a move that captures nothing, each as a board from its own
/// mover's view. Every candidate is confirmed by playing its move forward,
/// so the rules stay those of [`Oware::play`].
fn oware_predecessors(rules: &OwareRules, q: &[u8], out: &mut Vec<[u8; 16]>) {
    out.clear();
    let m = rules.houses as usize;
    let ring = 2 * m;
    // The last mover (North in q's frame) cannot have left South without
    // seeds, or the game would have ended instead.
    if q[..m].iter().all(|&v| v == 0) {
        return;
    }
    for j in 0..m {
        let origin = m + j;
        if q[origin] != 0 {
            // A sowing always leaves its origin house empty.
            continue;
        }
        let mut rest = [0i32; 16];
        for (r, &v) in rest.iter_mut().zip(q) {
            *r = v as i32;
        }
        let mut at = origin;
        let mut s = 0u32;
        loop {
            at = (at + 1) % ring;
            if at == origin {
                at = (at + 1) % ring;
            }
            rest[at] -= 1;
            s += 1;
            if rest[at] < 0 || s > 255 {
                // Sowing more seeds only takes more from every house.
                break;
            }
            // The position before the move, in its mover's frame (the
            // mover's row first).
            let mut p = [0u8; 16];
            for i in 0..ring {
                p[(i + m) % ring] = rest[i] as u8;
            }
            p[j] = s as u8;
            let before = Oware::from_houses(rules, &p[..ring], [0, 0], Side::South);
            let after = before.play(j as u8);
            if after.store(Side::South) != 0 {
                continue;
            }
            let h = after.houses();
            if h[m..] == q[..m] && h[..m] == q[m..ring] {
                out.push(p);
            }
        }
    }
}

/// A set of positions of one seed count, shared by the build threads.
struct Bits(Vec<AtomicU64>);

impl Bits {
    fn new(n: u64) -> Bits {
        Bits((0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }

    fn set(&self, i: u64) {
        self.0[(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
    }

    /// Calls `f` on every member in `[a, b)` (multiples of 64) and empties
    /// that range.
    fn drain(&self, a: u64, b: u64, mut f: impl FnMut(u64)) {
        for w in a / 64..b.div_ceil(64) {
            let mut bits = self.0[w as usize].swap(0, Ordering::Relaxed);
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

/// Builds one seed count of Oware: a first sweep over every position, then
/// rounds that revisit only the positions with a move to one whose value
/// changed in the round before (found by unplaying the moves), until no
/// value changes.
fn build_oware_level(
    db: &Egtb,
    rules: OwareRules,
    n: usize,
    opts: &BuildOptions,
    start: Instant,
    progress: &mut dyn FnMut(&BuildProgress),
) {
    let m = rules.houses as usize;
    let p = 2 * m;
    let ix = db.indexer();
    let total = ix.count(n);
    let level = db.level(n);
    // Nothing is forced before the first sweep.
    for v in level {
        v.store(0, Ordering::Relaxed);
    }
    let changed = Bits::new(total);
    let dirty = Bits::new(total);
    let updates = AtomicU64::new(0);
    let update = |idx: u64, board: &[u8]| {
        updates.fetch_add(1, Ordering::Relaxed);
        let v = oware_step(db, &rules, board, n);
        let cell = &level[idx as usize];
        if cell.load(Ordering::Relaxed) != v {
            cell.store(v, Ordering::Relaxed);
            changed.set(idx);
        }
    };
    let mut sweep = 1;
    let done = AtomicU64::new(0);
    let work = |a: u64, b: u64| {
        let mut board = [0u8; 16];
        ix.unrank(n, a, &mut board[..p]);
        for idx in a..b {
            update(idx, &board[..p]);
            ix.next(&mut board[..p]);
        }
    };
    let mut report = |sweep: u32, d: u64, finished: bool| {
        progress(&BuildProgress {
            seeds: n,
            done: d,
            total,
            sweep,
            finished,
            elapsed: start.elapsed(),
        })
    };
    run_reporting(
        threads(opts),
        total,
        opts.report_every,
        &done,
        |d| report(1, d, false),
        &work,
    );
    // Chunks are multiples of 64, so no two threads share a word of bits.
    while !changed.is_empty() {
        sweep += 1;
        parallel_chunks(threads(opts), total, &|a, b| {
            let mut board = [0u8; 16];
            let mut preds = Vec::new();
            changed.drain(a, b, |q| {
                ix.unrank(n, q, &mut board[..p]);
                oware_predecessors(&rules, &board[..p], &mut preds);
                for pb in &preds {
                    dirty.set(ix.rank(&pb[..p], n));
                }
            });
        });
        let done = AtomicU64::new(0);
        run_reporting(
            threads(opts),
            total,
            opts.report_every,
            &done,
            |d| report(sweep, d, false),
            &|a, b| {
                let mut board = [0u8; 16];
                dirty.drain(a, b, |idx| {
                    ix.unrank(n, idx, &mut board[..p]);
                    update(idx, &board[..p]);
                });
            },
        );
    }
    report(sweep, updates.load(Ordering::Relaxed), true);
}

// ---------------------------------------------------------------- checks

/// One line of `kete egtb stats`: values from the side to move's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelStats {
    pub seeds: usize,
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub sum: i64,
}

/// Whether a board of `pits_per_row` pits a side can occur with its first
/// row to move: in Oware the player who just moved always left his origin
/// house empty, so a position whose opponent row is full never arises
/// (except the start). The published counts leave those out.
fn counted(game: DbGame, board: &[u8]) -> bool {
    match game {
        DbGame::Kalah { .. } => true,
        DbGame::Oware { houses } => board[houses as usize..].contains(&0),
    }
}

/// Counts wins, draws and losses per seed count. Oware counts only the
/// positions that can occur (an empty house on the opponent's side):
/// C(n+11,11) − C(n+5,11) of them for 6 houses.
pub fn stats(db: &Egtb) -> Vec<LevelStats> {
    let p = 2 * db.game().pits();
    let ix = db.indexer();
    (0..=db.max_seeds())
        .map(|n| {
            let mut s = LevelStats {
                seeds: n,
                ..Default::default()
            };
            let mut board = [0u8; 16];
            ix.unrank(n, 0, &mut board[..p]);
            for v in db.level(n) {
                if counted(db.game(), &board[..p]) {
                    let v = v.load(Ordering::Relaxed);
                    s.positions += 1;
                    s.sum += v as i64;
                    match v.cmp(&0) {
                        std::cmp::Ordering::Greater => s.wins += 1,
                        std::cmp::Ordering::Equal => s.draws += 1,
                        std::cmp::Ordering::Less => s.losses += 1,
                    }
                }
                ix.next(&mut board[..p]);
            }
            s
        })
        .collect()
}

/// A position whose stored value does not follow from its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub seeds: usize,
    pub index: u64,
    pub board: Vec<u8>,
    pub stored: i32,
    pub expected: i32,
}

/// The value every position of `db` must hold given the others: the best
/// over its moves. For Kalah this determines the database (no cycles); for
/// Oware it is the fixed point the build computes, which also has every
/// value in range.
fn expected_value(db: &Egtb, board: &[u8], n: usize) -> i32 {
    let mut moves = Vec::with_capacity(8);
    let mut b = [0u8; 16];
    let p = board.len();
    let m = p / 2;
    let lookup = |b: &[u8], rest: usize| -> i32 {
        if rest == 0 {
            0
        } else {
            db.value(b, rest) as i32
        }
    };
    match db.game() {
        DbGame::Kalah { pits, capture } => {
            let rules = kalah_rules(pits, capture);
            let pos = Kalah::from_rows(
                &rules,
                row_word(&board[..m]),
                row_word(&board[m..]),
                [0, 0],
                Side::South,
            );
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                let own: i32 = board[..m].iter().map(|&v| v as i32).sum();
                return own - (n as i32 - own);
            }
            moves
                .iter()
                .map(|&mv| {
                    let child = pos.play(mv);
                    let (s, nn) = (child.store(Side::South), child.store(Side::North));
                    let rest = n - (s + nn) as usize;
                    super::db::kalah_board(&child, &mut b);
                    let cv = lookup(&b[..p], rest);
                    let sign = if child.side_to_move() == Side::South {
                        1
                    } else {
                        -1
                    };
                    s as i32 - nn as i32 + sign * cv
                })
                .max()
                .expect("moves exist")
        }
        DbGame::Oware { houses } => {
            let rules = oware_rules(houses);
            let pos = Oware::from_houses(&rules, board, [0, 0], Side::South);
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                return -(n as i32);
            }
            moves
                .iter()
                .map(|&mv| {
                    let child = pos.play(mv);
                    let won = child.store(Side::South) as usize;
                    super::db::oware_board(&child, &mut b);
                    won as i32 - lookup(&b[..p], n - won)
                })
                .max()
                .expect("moves exist")
        }
    }
}

/// Checks every position of `db` against its moves, on all cores. Returns
/// the positions checked and the first mismatches found (at most `limit`).
pub fn verify(db: &Egtb, opts: &BuildOptions, limit: usize) -> (u64, Vec<Mismatch>) {
    let p = 2 * db.game().pits();
    let ix: &Indexer = db.indexer();
    let bad = parking_lot::Mutex::new(Vec::new());
    let count = AtomicUsize::new(0);
    let mut checked = 0;
    for n in 0..=db.max_seeds() {
        let total = ix.count(n);
        checked += total;
        parallel_chunks(threads(opts), total, &|a, b| {
            let mut board = [0u8; 16];
            ix.unrank(n, a, &mut board[..p]);
            for idx in a..b {
                let stored = db.value_at(n, idx) as i32;
                let expected = expected_value(db, &board[..p], n);
                let in_range = stored.unsigned_abs() as usize <= n;
                if (stored != expected || !in_range)
                    && count.fetch_add(1, Ordering::Relaxed) < limit
                {
                    bad.lock().push(Mismatch {
                        seeds: n,
                        index: idx,
                        board: board[..p].to_vec(),
                        stored,
                        expected,
                    });
                }
                ix.next(&mut board[..p]);
            }
        });
    }
    let mut bad = bad.into_inner();
    bad.sort_by_key(|m| (m.seeds, m.index));
    (checked, bad)
}
