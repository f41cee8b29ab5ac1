//! Building, verifying and counting endgame databases.
//!
//! Both games are built one seed count at a time, from 0 up: a move that
//! banks seeds leads to a smaller count, already done, and only moves that
//! bank nothing stay within the count being built.
//!
//! * Kalah: a move that banks nothing moves seeds to the right within the
//!   mover's own row, so within one count the moves form no cycle and a
//!   memoised recursion computes each value once.
//! * Oware (Awari or Abapa rules, one database each): seeds go round, so
//!   positions of one count form cycles, and endless play is worth 0 to
//!   both (the convention of the published Awari databases, kept for
//!   Abapa). Retrograde analysis by thresholds: for `t`
//!   from `n` down to 1, the positions whose mover can force a gain of `t`
//!   or more, or cannot avoid a loss of `t` or more, are found by working
//!   back from the moves that bank seeds (their values are known from the
//!   smaller counts) through the moves that bank nothing; each position is
//!   decided once, at the threshold of its value, and tells its
//!   predecessors once. Positions never decided can force neither: 0.
//!
//! Values of the rules' own game ends: a mover with no seeds cannot move
//! and the opponent takes what is left (−n); in Oware under Awari rules, a
//! move that must leave the opponent without seeds ends the game and the
//! mover takes what is left (a capture of n); under Abapa, a mover who
//! cannot feed an opponent without seeds takes what is left (+n), and a
//! grand slam is a move that captures nothing. The builders play the moves
//! and read the game ends with the variants' own `play` and `outcome`, so
//! no rule is written twice.

mod acyclic;
mod retrograde;
mod verify;

pub use verify::{LevelStats, Mismatch, stats, verify};

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::db::{DbError, Egtb};
use crate::game::{DB_BOARD, DbBuild, DbGame, DbSpec, DbVisitor};
use crate::variants::visit_db;

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

pub(super) fn threads(opts: &BuildOptions) -> usize {
    threads_or_cores(opts.threads)
}

/// `n` threads, or one per core for 0.
pub fn threads_or_cores(n: usize) -> usize {
    if n > 0 {
        n
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// Positions are handed to threads in chunks of this many.
const CHUNK: u64 = 1 << 14;

/// Runs `work(start, end)` over `0..total` in chunks on `n` threads.
pub(super) fn parallel_chunks(n: usize, total: u64, work: &(dyn Fn(u64, u64) + Sync)) {
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
    struct Build<'a> {
        db: &'a Egtb,
        opts: &'a BuildOptions,
        progress: &'a mut dyn FnMut(&BuildProgress),
    }
    impl DbVisitor for Build<'_> {
        type Output = ();
        fn visit<G: DbSpec>(self, rules: G::Rules) {
            let start = Instant::now();
            for n in 0..=self.db.max_seeds() {
                match G::DB_BUILD {
                    DbBuild::Acyclic => acyclic::build_level::<G>(
                        self.db,
                        &rules,
                        n,
                        self.opts,
                        start,
                        self.progress,
                    ),
                    DbBuild::Retrograde(predecessors) => retrograde::build_level::<G>(
                        self.db,
                        &rules,
                        predecessors,
                        n,
                        self.opts,
                        start,
                        self.progress,
                    ),
                }
            }
        }
    }
    visit_db(
        game,
        Build {
            db: &db,
            opts,
            progress,
        },
    );
    Ok(db)
}

/// Whether [`build`] can build a database of `game` up to `max_seeds`
/// seeds (not whether it fits in memory).
pub fn check_request(game: DbGame, max_seeds: usize) -> Result<(), DbError> {
    if game.index(0).is_none_or(|ix| ix.board_len() > DB_BOARD) {
        return Err(DbError::Unsupported(format!(
            "{}: a board has more than {DB_BOARD} cells",
            game.describe()
        )));
    }
    struct Limit;
    impl DbVisitor for Limit {
        type Output = Option<(usize, &'static str)>;
        fn visit<G: DbSpec>(self, _: G::Rules) -> Self::Output {
            let builder = match G::DB_BUILD {
                DbBuild::Acyclic => None,
                DbBuild::Retrograde(_) => Some((
                    retrograde::MAX_SEEDS,
                    "the retrograde builder's values and marks share a byte",
                )),
            };
            [G::db_max_seeds(), builder]
                .into_iter()
                .flatten()
                .min_by_key(|&(most, _)| most)
        }
    }
    if let Some((most, why)) = visit_db(game, Limit)
        && max_seeds > most
    {
        return Err(DbError::Unsupported(format!(
            "databases of {} go up to {most} seeds ({why}), asked for {max_seeds}",
            game.describe()
        )));
    }
    Egtb::check_size(max_seeds)?;
    // A byte a position: a table larger than the machine's memory cannot
    // be built, and asking for it would end the process.
    let boards = game.boards(max_seeds);
    if let Some(memory) = crate::solve::memory::total_memory()
        && boards > memory
    {
        let count = if boards == u64::MAX {
            "more than 2^64".to_string()
        } else {
            boards.to_string()
        };
        return Err(DbError::Unsupported(format!(
            "{} with up to {max_seeds} seeds has {count} positions, a byte each: \
             more than this machine's {} MiB of memory",
            game.describe(),
            memory >> 20
        )));
    }
    Ok(())
}

/// Reports from the worker threads through the caller's callback, which
/// only the calling thread may run: the workers count, the caller reports.
pub(super) fn run_reporting(
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
    pub(crate) fn at(
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

/// What [`each_board`] calls: the board's index, the board, and scratch
/// space that lives as long as the thread's chunk.
type BoardVisitor<'a, S> = dyn Fn(u64, &[u8], &mut S) + Sync + 'a;

/// Calls `visit(index, board, scratch)` for every board of `n` seeds on the
/// build threads, reporting as stage `stage.0` of `stage.1` of that count.
pub(super) fn each_board<S: Default>(
    db: &Egtb,
    n: usize,
    opts: &BuildOptions,
    (stage, start): ((u32, u32), Instant),
    progress: &mut dyn FnMut(&BuildProgress),
    visit: &BoardVisitor<'_, S>,
) {
    let ix = db.indexer();
    let p = ix.board_len();
    let total = ix.count(n);
    let done = AtomicU64::new(0);
    run_reporting(
        threads(opts),
        total,
        opts.report_every,
        &done,
        |d| progress(&BuildProgress::at(n, total, stage, d, false, start)),
        &|a, b| {
            let mut board = [0u8; DB_BOARD];
            let mut scratch = S::default();
            ix.unrank(n, a, &mut board[..p]);
            for idx in a..b {
                visit(idx, &board[..p], &mut scratch);
                ix.next(&mut board[..p]);
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oware_databases_stop_at_all_of_the_seeds() {
        use crate::game::DbSpec;
        use crate::variants::oware::{Oware, OwareRules, RuleSet};
        let game = Oware::db_game(&OwareRules {
            rules: RuleSet::Abapa,
            ..OwareRules::default()
        })
        .unwrap();
        let err = build(game, 49, &BuildOptions::default(), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("up to 48 seeds"), "{err}");
    }
}
