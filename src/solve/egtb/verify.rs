//! Checking a database against the moves of its positions, and counting
//! its wins, draws and losses.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::{BuildOptions, BuildProgress, each_board, kalah, oware};
use crate::game::{Game, Side};
use crate::solve::db::{DbGame, DbSpec, Egtb};
use crate::solve::index::Indexer;
use crate::variants::kalah::Kalah;
use crate::variants::oware::Oware;

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
            let rules = kalah::rules(pits, capture);
            let pos = Kalah::from_rows(
                &rules,
                kalah::row_word(&board[..m]),
                kalah::row_word(&board[m..]),
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
                    child.db_board(&mut b);
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
            let rules = oware::rules(houses);
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
                    child.db_board(&mut b);
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
