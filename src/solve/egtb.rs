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
//!   published databases). Retrograde analysis by thresholds: for `t`
//!   from `n` down to 1, the positions whose mover can force a gain of `t`
//!   or more, or cannot avoid a loss of `t` or more, are found by working
//!   back from the moves that bank seeds (their values are known from the
//!   smaller counts) through the moves that bank nothing; each position is
//!   decided once, at the threshold of its value, and tells its
//!   predecessors once. Positions never decided can force neither: 0.
//!
//! Values of the rules' own game ends: a mover with no seeds cannot move
//! and the opponent takes what is left (−n); in Oware, a move that must
//! leave the opponent without seeds ends the game and the mover takes
//! what is left. The builders play the moves with the variants' own
//! `play`, so no rule is written twice.

use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
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
    /// Positions of that count done: in the first stage, those whose moves
    /// were looked at; in later stages (Oware), those decided so far.
    pub done: u64,
    pub total: u64,
    /// The stage (1-based) of `stages`. A Kalah count and a check have
    /// one; Oware looks at every position's moves in stage 1, then works
    /// back from threshold `n` in stage 2 down to threshold 1 in stage
    /// `n + 1`.
    pub stage: u32,
    pub stages: u32,
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
    check_request(game, max_seeds)?;
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

/// Whether [`build`] can build a database of `game` up to `max_seeds`
/// seeds (not whether it fits in memory).
pub fn check_request(game: DbGame, max_seeds: usize) -> Result<(), DbError> {
    if game.pits() > 8 {
        return Err(DbError::Unsupported("at most 8 pits per row".into()));
    }
    if matches!(game, DbGame::Oware { .. }) && max_seeds > OWARE_MAX_SEEDS {
        return Err(DbError::Unsupported(format!(
            "oware databases go up to {OWARE_MAX_SEEDS} seeds (all of Awari's), asked for {max_seeds}"
        )));
    }
    Egtb::check_size(max_seeds)
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

impl BuildProgress {
    fn at(
        seeds: usize,
        total: u64,
        (stage, stages): (u32, u32),
        done: u64,
        finished: bool,
        start: Instant,
    ) -> Self {
        BuildProgress {
            seeds,
            done,
            total,
            stage,
            stages,
            finished,
            elapsed: start.elapsed(),
        }
    }
}

/// What [`each_board`] calls: the board's index, the board, and a scratch
/// list for moves that lives as long as the thread's chunk.
type BoardVisitor<'a> = dyn Fn(u64, &[u8], &mut Vec<u8>) + Sync + 'a;

/// Calls `visit(index, board, scratch)` for every board of `n` seeds on the
/// build threads, reporting as stage `stage.0` of `stage.1` of that count.
fn each_board(
    db: &Egtb,
    n: usize,
    opts: &BuildOptions,
    (stage, start): ((u32, u32), Instant),
    progress: &mut dyn FnMut(&BuildProgress),
    visit: &BoardVisitor<'_>,
) {
    let p = 2 * db.game().pits();
    let ix = db.indexer();
    let total = ix.count(n);
    let done = AtomicU64::new(0);
    run_reporting(
        threads(opts),
        total,
        opts.report_every,
        &done,
        |d| progress(&BuildProgress::at(n, total, stage, d, false, start)),
        &|a, b| {
            let mut board = [0u8; 16];
            let mut scratch = Vec::with_capacity(8);
            ix.unrank(n, a, &mut board[..p]);
            for idx in a..b {
                visit(idx, &board[..p], &mut scratch);
                ix.next(&mut board[..p]);
            }
        },
    );
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

// ---------------------------------------------------------------- Oware

/// What a board of `n` seeds (South to move) offers before the positions of
/// its own count are known: the best that a move banking seeds gets (its
/// seeds minus what the opponent then makes of the smaller count, or what
/// the rules' game end gives), `NO_EXIT` if no move banks any, and the
/// number of legal moves that bank nothing and so stay within the count.
fn oware_exits(
    db: &Egtb,
    rules: &OwareRules,
    board: &[u8],
    n: usize,
    moves: &mut Vec<u8>,
) -> (i32, u8) {
    let m = rules.houses as usize;
    let pos = Oware::from_houses(rules, board, [0, 0], Side::South);
    pos.legal_moves(moves);
    let mut exit = NO_EXIT;
    let mut inside = 0;
    let mut b = [0u8; 16];
    for &mv in moves.iter() {
        let child = pos.play(mv);
        let won = child.store(Side::South) as usize;
        if won == 0 {
            inside += 1;
            continue;
        }
        let rest = n - won;
        let after = if rest == 0 {
            0
        } else {
            let h = child.houses();
            b[..m].copy_from_slice(&h[m..]);
            b[m..2 * m].copy_from_slice(&h[..m]);
            db.value(&b[..2 * m], rest) as i32
        };
        exit = exit.max(won as i32 - after);
    }
    (exit, inside)
}

/// The largest Oware database: every seed of Awari. It also keeps values
/// and pending codes apart in a byte during the build.
const OWARE_MAX_SEEDS: usize = 48;

/// No move leaves the count: below every value, so that such a position
/// is lost by the largest margin its moves allow (−n when it has none).
const NO_EXIT: i32 = -(OWARE_MAX_SEEDS as i32) - 1;

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
    (PENDING + NO_EXIT..=PENDING + OWARE_MAX_SEEDS as i32)
        .contains(&u)
        .then_some(u - PENDING)
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

/// Small counters (0..=15), two to a byte, shared by the build threads.
struct Nibbles(Vec<AtomicU8>);

impl Nibbles {
    fn new(n: u64) -> Nibbles {
        Nibbles((0..n.div_ceil(2)).map(|_| AtomicU8::new(0)).collect())
    }

    fn shift(i: u64) -> u32 {
        4 * (i % 2) as u32
    }

    fn set(&self, i: u64, v: u8) {
        debug_assert!(v < 16);
        self.0[(i / 2) as usize].fetch_or(v << Self::shift(i), Ordering::Relaxed);
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

/// Builds one seed count of Oware by retrograde analysis in rounds of
/// thresholds, from `t = n` down to 1: a position is worth at least `t` if
/// a move banks `t` or more, or reaches a position of the count worth at
/// most `-t`; at most `-t` if every move banks at most `-t` and every move
/// within the count reaches a position worth at least `t`. Each threshold
/// only adds positions to these two sets, so a position is decided once
/// (its value is the threshold where it joins) and its predecessors are
/// told once: a count per position of the moves not yet known to reach
/// a position worth at least `t` does the "every move" test. Positions
/// never decided cannot force a gain or a loss: 0.
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
    let inside = Nibbles::new(total);
    let stages = 1 + n as u32;
    // Stage 1: every position's exits and moves within the count.
    each_board(
        db,
        n,
        opts,
        ((1, stages), start),
        progress,
        &|idx, board, scratch| {
            let (exit, moves) = oware_exits(db, &rules, board, n, scratch);
            level[idx as usize].store(pending(exit), Ordering::Relaxed);
            // Chunks hold an even number of positions: no other thread writes
            // this byte now.
            inside.set(idx, moves);
        },
    );
    let mut fresh = Bits::new(total);
    let mut next = Bits::new(total);
    let decided = AtomicU64::new(0);
    let decide = |idx: u64, v: i32, into: &Bits| -> bool {
        let cell = &level[idx as usize];
        let code = cell.load(Ordering::Relaxed);
        if exit_of(code).is_some()
            && cell
                .compare_exchange(code, v as i8, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            into.set(idx);
            decided.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        false
    };
    for t in (1..=n as i32).rev() {
        // Positions that join at this threshold by their own exits.
        parallel_chunks(threads(opts), total, &|a, b| {
            for idx in a..b {
                if let Some(exit) = exit_of(level[idx as usize].load(Ordering::Relaxed)) {
                    if exit >= t {
                        decide(idx, t, &fresh);
                    } else if exit <= -t && inside.get(idx) == 0 {
                        decide(idx, -t, &fresh);
                    }
                }
            }
        });
        // And the positions that reach them, until no more join.
        while !fresh.is_empty() {
            parallel_chunks(threads(opts), total, &|a, b| {
                let mut board = [0u8; 16];
                let mut preds = Vec::new();
                fresh.drain(a, b, |q| {
                    let lost = level[q as usize].load(Ordering::Relaxed) < 0;
                    ix.unrank(n, q, &mut board[..p]);
                    oware_predecessors(&rules, &board[..p], &mut preds);
                    for pb in &preds {
                        let idx = ix.rank(&pb[..p], n);
                        if lost {
                            decide(idx, t, &next);
                        } else if inside.decrement(idx) == 0
                            && exit_of(level[idx as usize].load(Ordering::Relaxed))
                                .is_some_and(|e| e <= -t)
                        {
                            decide(idx, -t, &next);
                        }
                    }
                });
            });
            std::mem::swap(&mut fresh, &mut next);
        }
        let decided = decided.load(Ordering::Relaxed);
        let stage = (2 + n as u32 - t as u32, stages);
        progress(&BuildProgress::at(n, total, stage, decided, false, start));
    }
    parallel_chunks(threads(opts), total, &|a, b| {
        for cell in &level[a as usize..b as usize] {
            if exit_of(cell.load(Ordering::Relaxed)).is_some() {
                cell.store(0, Ordering::Relaxed);
            }
        }
    });
    progress(&BuildProgress::at(
        n,
        total,
        (stages, stages),
        total,
        true,
        start,
    ));
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

impl std::fmt::Display for LevelStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "n={} positions={} wins={} draws={} losses={} sum={}",
            self.seeds, self.positions, self.wins, self.draws, self.losses, self.sum
        )
    }
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
/// `progress` hears of each seed count as a one-stage build.
pub fn verify(
    db: &Egtb,
    opts: &BuildOptions,
    limit: usize,
    progress: &mut dyn FnMut(&BuildProgress),
) -> (u64, Vec<Mismatch>) {
    let ix: &Indexer = db.indexer();
    let bad = parking_lot::Mutex::new(Vec::new());
    let count = AtomicUsize::new(0);
    let mut checked = 0;
    let start = Instant::now();
    for n in 0..=db.max_seeds() {
        let total = ix.count(n);
        checked += total;
        each_board(db, n, opts, ((1, 1), start), progress, &|idx, board, _| {
            let stored = db.value_at(n, idx) as i32;
            let expected = expected_value(db, board, n);
            let in_range = stored.unsigned_abs() as usize <= n;
            if (stored != expected || !in_range) && count.fetch_add(1, Ordering::Relaxed) < limit {
                bad.lock().push(Mismatch {
                    seeds: n,
                    index: idx,
                    board: board.to_vec(),
                    stored,
                    expected,
                });
            }
        });
        progress(&BuildProgress::at(n, total, (1, 1), total, true, start));
    }
    let mut bad = bad.into_inner();
    bad.sort_by_key(|m| (m.seeds, m.index));
    (checked, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_codes_never_look_like_values() {
        for v in -(OWARE_MAX_SEEDS as i32)..=OWARE_MAX_SEEDS as i32 {
            assert_eq!(exit_of(v as i8), None, "value {v}");
        }
        for exit in NO_EXIT..=OWARE_MAX_SEEDS as i32 {
            assert_eq!(exit_of(pending(exit)), Some(exit));
        }
    }

    #[test]
    fn nibbles_count_apart() {
        let c = Nibbles::new(5);
        for i in 0..5 {
            c.set(i, i as u8 + 10);
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

    #[test]
    fn oware_databases_stop_at_all_of_awaris_seeds() {
        let err = build(
            DbGame::Oware { houses: 6 },
            49,
            &BuildOptions::default(),
            &mut |_| {},
        )
        .unwrap_err();
        assert!(err.to_string().contains("up to 48 seeds"), "{err}");
    }
}
