//! Checking a database against the moves of its positions, and counting
//! its wins, draws and losses.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::{BuildOptions, BuildProgress, each_board};
use crate::game::Side;
use crate::game::{DB_BOARD, DbIndex, DbSpec, DbVisitor};
use crate::solve::db::Egtb;
use crate::variants::visit_db;

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

/// Whether a board can occur with its first row to move
/// ([`DbSpec::db_reachable`]) for the game of `db`.
fn reachable(db: &Egtb) -> fn(&[u8]) -> bool {
    struct Reachable;
    impl DbVisitor for Reachable {
        type Output = fn(&[u8]) -> bool;
        fn visit<G: DbSpec>(self, _: G::Rules) -> fn(&[u8]) -> bool {
            G::db_reachable
        }
    }
    visit_db(db.game(), Reachable)
}

/// Counts wins, draws and losses per seed count. Oware counts only the
/// positions that can occur (an empty house on the opponent's side):
/// C(n+11,11) − C(n+5,11) of them for 6 houses.
pub fn stats(db: &Egtb) -> Vec<LevelStats> {
    let ix = db.indexer();
    let p = ix.board_len();
    let counted = reachable(db);
    (0..=db.max_seeds())
        .map(|n| {
            let mut s = LevelStats {
                seeds: n,
                ..Default::default()
            };
            let mut board = [0u8; DB_BOARD];
            ix.unrank(n, 0, &mut board[..p]);
            for v in db.level(n) {
                if counted(&board[..p]) {
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
fn expected_value<G: DbSpec>(db: &Egtb, rules: &G::Rules, board: &[u8]) -> i32 {
    let pos = G::from_db_board(rules, board);
    let mut moves = Vec::with_capacity(8);
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        // The stores are empty: the final margin is the game's own count.
        return pos
            .outcome()
            .and_then(|o| o.margin_for(Side::South))
            .expect("a database game counts seeds at its end");
    }
    let p = board.len();
    let mut b = [0u8; DB_BOARD];
    moves
        .iter()
        .map(|&mv| {
            let child = pos.play(mv);
            let rest = child.db_board(&mut b);
            let value = if rest == 0 {
                0
            } else {
                db.value(&b[..p], rest) as i32
            };
            // The child's margin from its mover's view, then South's.
            let v = child.banked() + value;
            if child.side_to_move() == Side::South {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("moves exist")
}

/// [`expected_value`] for the game of `db`, chosen once.
type Expected<'a> = Box<dyn Fn(&[u8]) -> i32 + Sync + 'a>;

fn expected_for(db: &Egtb) -> Expected<'_> {
    struct For<'a>(&'a Egtb);
    impl<'a> DbVisitor for For<'a> {
        type Output = Expected<'a>;
        fn visit<G: DbSpec>(self, rules: G::Rules) -> Expected<'a> {
            let db = self.0;
            Box::new(move |board| expected_value::<G>(db, &rules, board))
        }
    }
    visit_db(db.game(), For(db))
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
    let ix: &DbIndex = db.indexer();
    let bad = parking_lot::Mutex::new(Vec::new());
    let count = AtomicUsize::new(0);
    let mut checked = 0;
    let start = Instant::now();
    let expected = expected_for(db);
    for n in 0..=db.max_seeds() {
        let total = ix.count(n);
        checked += total;
        each_board(
            db,
            n,
            opts,
            ((1, 1), start),
            progress,
            &|idx, board, _: &mut ()| {
                let stored = db.value_at(n, idx) as i32;
                let expected = expected(board);
                let in_range = stored.unsigned_abs() as usize <= n;
                if (stored != expected || !in_range)
                    && count.fetch_add(1, Ordering::Relaxed) < limit
                {
                    bad.lock().push(Mismatch {
                        seeds: n,
                        index: idx,
                        board: board.to_vec(),
                        stored,
                        expected,
                    });
                }
            },
        );
        progress(&BuildProgress::at(n, total, (1, 1), total, true, start));
    }
    let mut bad = bad.into_inner();
    bad.sort_by_key(|m| (m.seeds, m.index));
    (checked, bad)
}
