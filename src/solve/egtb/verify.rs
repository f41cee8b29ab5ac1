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
    /// The longest distance to a capture, where the game keeps distances.
    pub longest: Option<u8>,
}

impl std::fmt::Display for LevelStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "n={} positions={} wins={} draws={} losses={} sum={}",
            self.seeds, self.positions, self.wins, self.draws, self.losses, self.sum
        )?;
        match self.longest {
            Some(d) => write!(f, " longest={d}"),
            None => Ok(()),
        }
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
                longest: db.has_distances().then_some(0),
                ..Default::default()
            };
            let mut board = [0u8; DB_BOARD];
            ix.unrank(n, 0, &mut board[..p]);
            for (idx, v) in db.level(n).iter().enumerate() {
                if counted(&board[..p]) {
                    if let Some(l) = s.longest.as_mut() {
                        *l = (*l).max(db.distance_at(n, idx as u64));
                    }
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
    /// Where the value is right but its distance to the capture is not:
    /// the stored distance and the one its moves give.
    pub distance: Option<(u8, u8)>,
}

/// The value every position of `db` must hold given the others: the best
/// over its moves. For Kalah this determines the database (no cycles); for
/// Oware it is the fixed point the build computes, which also has every
/// value in range. With it, where the game keeps distances, the distance
/// the position must hold if its value is `stored` (see [`expected_distance`]).
fn expected_value<G: DbSpec>(
    db: &Egtb,
    rules: &G::Rules,
    (board, n): (&[u8], usize),
    stored: i32,
) -> (i32, u8) {
    let pos = G::from_db_board(rules, board);
    let mut moves = Vec::with_capacity(8);
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        // The stores are empty: the final margin is the game's own count.
        let margin = pos
            .outcome()
            .and_then(|o| o.margin_for(Side::South))
            .expect("a database game counts seeds at its end");
        return (margin, 0);
    }
    let p = board.len();
    let mut b = [0u8; DB_BOARD];
    let mut children = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let child = pos.play(mv);
        let rest = child.db_board(&mut b);
        let (value, distance) = if rest == 0 {
            (0, 0)
        } else {
            let idx = db.indexer().rank(&b[..p], rest);
            (db.value_at(rest, idx) as i32, db.distance_at(rest, idx))
        };
        // The child's margin from its mover's view, then South's.
        let v = child.banked() + value;
        let margin = if child.side_to_move() == Side::South {
            v
        } else {
            -v
        };
        children.push((margin, rest == n, distance));
    }
    let value = children.iter().map(|c| c.0).max().expect("moves exist");
    let distance = if db.has_distances() {
        expected_distance(&children, stored)
    } else {
        0
    };
    (value, distance)
}

/// The distance a position worth `v` must hold, given each move's margin,
/// whether it stays within the seed count, and its child's distance: the
/// round of threshold `|v|` in which the build decides it. A winner (`v >
/// 0`) is 0 plies from a capture worth `v`, or one more than the nearest
/// child within the count worth `v` to it; a loser is 0 if no move within
/// the count gives the opponent exactly `-v` (the rest give more), or one
/// more than the farthest that does. A draw has none (0). 255 is the most.
fn expected_distance(children: &[(i32, bool, u8)], v: i32) -> u8 {
    let same = children.iter().filter(|c| c.1 && c.0 == v).map(|c| c.2);
    let next = match v.cmp(&0) {
        std::cmp::Ordering::Equal => return 0,
        std::cmp::Ordering::Greater if children.iter().any(|c| !c.1 && c.0 >= v) => return 0,
        std::cmp::Ordering::Greater => same.min(),
        std::cmp::Ordering::Less => same.max(),
    };
    next.map_or(0, |d| d.saturating_add(1))
}

/// [`expected_value`] for the game of `db`, chosen once.
type Expected<'a> = Box<dyn Fn(&[u8], usize, i32) -> (i32, u8) + Sync + 'a>;

fn expected_for(db: &Egtb) -> Expected<'_> {
    struct For<'a>(&'a Egtb);
    impl<'a> DbVisitor for For<'a> {
        type Output = Expected<'a>;
        fn visit<G: DbSpec>(self, rules: G::Rules) -> Expected<'a> {
            let db = self.0;
            Box::new(move |board, n, stored| expected_value::<G>(db, &rules, (board, n), stored))
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
                let (expected, distance) = expected(board, n, stored);
                let in_range = stored.unsigned_abs() as usize <= n;
                let value_wrong = stored != expected || !in_range;
                let stored_distance = db.distance_at(n, idx);
                let distance_wrong = !value_wrong && stored_distance != distance;
                if (value_wrong || distance_wrong) && count.fetch_add(1, Ordering::Relaxed) < limit
                {
                    bad.lock().push(Mismatch {
                        seeds: n,
                        index: idx,
                        board: board.to_vec(),
                        stored,
                        expected,
                        distance: distance_wrong.then_some((stored_distance, distance)),
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

#[cfg(test)]
mod tests {
    use super::expected_distance;

    #[test]
    fn a_distance_is_the_winners_nearest_and_the_losers_farthest() {
        // (margin, stays within the count, child's distance)
        let won = [(2, true, 7), (2, true, 3), (1, true, 0), (1, false, 0)];
        assert_eq!(expected_distance(&won, 2), 4, "the nearest child worth 2");
        let banks = [(2, true, 3), (2, false, 9)];
        assert_eq!(expected_distance(&banks, 2), 0, "a capture worth 2 now");
        let lost = [(-2, true, 3), (-2, true, 8), (-3, true, 0), (-2, false, 0)];
        assert_eq!(
            expected_distance(&lost, -2),
            9,
            "the farthest child giving 2"
        );
        let forced = [(-3, true, 5), (-2, false, 0)];
        assert_eq!(
            expected_distance(&forced, -2),
            0,
            "only the capture keeps -2"
        );
        assert_eq!(expected_distance(&won, 0), 0, "a draw has none");
        assert_eq!(expected_distance(&[(1, true, 255)], 1), 255, "the most");
    }
}
