//! Solving inside `go`: in a game decided by counting seeds, a position small
//! enough is solved exactly before the search (with the database in play),
//! so that a proven result is never given away. The search hands its root to
//! the solver with half of its soft time limit; what the solver settles is
//! played, what it does not is searched as usual in the time left.
//!
//! Small enough: the game's [`SolveGame::SOLVE_IN_GO`] seeds in play are
//! solved in about [`BASE_MS`] milliseconds, and each seed more takes about
//! twice as long, so a share of `t` ms takes up to `SOLVE_IN_GO + log2(t /
//! BASE_MS)` seeds. A root the solver could not settle in its time is not
//! tried again until [`RETRY_GAP`] seeds have left the board (a later root
//! of the same game is no larger); a root with more seeds than the one that
//! failed starts a new game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::game::SolveGame;
use crate::search::{Exact, Solved};
use crate::solve::{SolveOptions, Tablebase, solve_with_tablebase};

/// The time in which a position of [`SolveGame::SOLVE_IN_GO`] seeds in play
/// is solved, in milliseconds.
pub const BASE_MS: f64 = 50.0;

/// The most seeds in play worth handing to the solver with `share` of the
/// time, for a game whose `base` seeds solve in [`BASE_MS`].
pub fn most_seeds(base: u32, share: Duration) -> u32 {
    let ms = share.as_secs_f64() * 1000.0;
    if ms < BASE_MS / 2.0 {
        return base.saturating_sub(1);
    }
    (base as f64 + (ms / BASE_MS).log2()).floor().max(0.0) as u32
}

/// Seeds in play that must leave the board before a root is tried again
/// after a root of the game was not settled in time.
pub const RETRY_GAP: u32 = 3;

/// What the solver could not do in this game: the fewest seeds in play of a
/// root it did not settle in its time.
#[derive(Debug, Default)]
pub struct Attempts {
    failed: Option<u32>,
}

impl Attempts {
    /// Whether a root with `seeds` seeds in play is worth handing over.
    fn worth_trying(&self, seeds: u32, most: u32) -> bool {
        seeds <= most
            && match self.failed {
                None => true,
                Some(f) => seeds > f || seeds + RETRY_GAP <= f,
            }
    }
}

/// The exact solver for the search of a game whose positions so far are
/// `line` (the root last), probing `table` where it has the position.
pub fn exact<G: SolveGame>(
    table: Option<Arc<dyn Tablebase<G>>>,
    line: &[G],
    attempts: Arc<Mutex<Attempts>>,
    threads: usize,
) -> Option<Exact<G>> {
    if G::SOLVE_IN_GO == 0 {
        return None;
    }
    // The positions before the root, for the repetition rule.
    let history: Vec<(u64, u32)> = line[..line.len().saturating_sub(1)]
        .iter()
        .map(|p| (p.hash(), p.seeds_in_play()))
        .collect();
    Some(Exact(Arc::new(
        move |root: &G, until: Instant, stop: &AtomicBool| {
            let seeds = root.seeds_in_play();
            let most = most_seeds(
                G::SOLVE_IN_GO,
                until.saturating_duration_since(Instant::now()),
            );
            if !attempts.lock().worth_trying(seeds, most) {
                return None;
            }
            let mine = Arc::new(AtomicBool::new(false));
            let opts = SolveOptions {
                hash_mb: crate::solve::resources::fitted_hash_mb(seeds, root.pits_per_row())
                    .min(64),
                threads,
                history: history.clone(),
                stop: Some(mine.clone()),
                ..SolveOptions::default()
            };
            // The solve stops at `until`, or at once when the search is stopped.
            let done = AtomicBool::new(false);
            let r = std::thread::scope(|s| {
                s.spawn(|| {
                    while !done.load(Ordering::Relaxed)
                        && Instant::now() < until
                        && !stop.load(Ordering::Relaxed)
                    {
                        std::thread::sleep(Duration::from_micros(500));
                    }
                    mine.store(true, Ordering::Relaxed);
                });
                let r = solve_with_tablebase(root, &opts, table.as_deref(), &mut |_| {});
                done.store(true, Ordering::Relaxed);
                r
            });
            let settled = r.complete && !r.best.is_empty();
            let mut a = attempts.lock();
            if !settled {
                a.failed = Some(seeds);
                return None;
            }
            if a.failed.is_some_and(|f| seeds > f) {
                a.failed = None;
            }
            Some(Solved {
                score: 100 * r.value,
                best: r.best[0],
                nodes: r.nodes,
            })
        },
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_time_takes_larger_positions() {
        let ms = Duration::from_millis;
        assert_eq!(most_seeds(36, ms(50)), 36);
        assert_eq!(most_seeds(36, ms(100)), 37);
        assert_eq!(most_seeds(36, ms(235)), 38);
        assert_eq!(most_seeds(36, ms(1000)), 40);
        assert_eq!(most_seeds(36, ms(35)), 35);
        assert_eq!(most_seeds(36, ms(10)), 35);
    }

    #[test]
    fn a_root_is_tried_again_only_once_seeds_have_left_the_board() {
        let mut a = Attempts::default();
        assert!(a.worth_trying(30, 30));
        assert!(!a.worth_trying(31, 30), "too many seeds for the game");
        a.failed = Some(30);
        assert!(!a.worth_trying(30, 40));
        assert!(!a.worth_trying(28, 40));
        assert!(a.worth_trying(27, 40), "{RETRY_GAP} seeds fewer");
        assert!(a.worth_trying(36, 40), "a larger root: a new game");
    }
}
