//! Search limits and the time budget drawn from a clock.

use std::time::{Duration, Instant};

use crate::game::Side;

/// A player's clock as `go` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub inc: Duration,
}

/// What `go` asked for. Nothing set means "search until stopped or proven".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// South's and North's clocks.
    pub clocks: [Option<Clock>; 2],
    pub movestogo: Option<u32>,
    pub infinite: bool,
    /// `go ponder`: the search thinks on the opponent's time, without a
    /// limit, until `ponderhit` ([`super::Shared::ponderhit`]) starts the
    /// clock (and the other limits) or `stop` ends it.
    pub ponder: bool,
    /// When the time started to run (the arrival of `go`); `None`: when the
    /// search starts. Whatever happens in between is paid from the budget.
    pub since: Option<Instant>,
}

impl Limits {
    /// The soft limit (no new iteration after it) and the hard deadline (the
    /// search stops wherever it is) for a search started at `start` by `side`.
    pub fn budget(
        &self,
        side: Side,
        overhead: Duration,
        start: Instant,
    ) -> (Option<Duration>, Option<Instant>) {
        if self.infinite {
            return (None, None);
        }
        let floor = Duration::from_millis(1);
        if let Some(mt) = self.movetime {
            let hard = mt.saturating_sub(overhead).max(floor);
            return (Some(hard), Some(start + hard));
        }
        let Some(clock) = self.clocks[side.index()] else {
            return (None, None);
        };
        // Keep the overhead in reserve, spread the rest over the moves still
        // to play (a mancala game rarely lasts more than about 30 more turns
        // of one player once it is under way), and spend most of the
        // increment now. The hard limit lets one iteration run long but never
        // takes more than a fifth of what is left.
        let left = clock.time.saturating_sub(overhead);
        let moves = self.movestogo.unwrap_or(30).clamp(1, 60);
        let soft = left / moves + clock.inc * 3 / 4;
        let hard = (soft * 4).min(left / 5).max(floor);
        let soft = (soft / 2).min(hard).max(floor);
        (Some(soft), Some(start + hard))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_never_spends_more_than_a_fifth_of_the_clock() {
        let now = Instant::now();
        let limits = Limits {
            clocks: [
                Some(Clock {
                    time: Duration::from_millis(1000),
                    inc: Duration::from_millis(5000),
                }),
                None,
            ],
            ..Limits::default()
        };
        let (soft, hard) = limits.budget(Side::South, Duration::from_millis(50), now);
        let hard = hard.unwrap() - now;
        assert!(hard <= Duration::from_millis(190), "{hard:?}");
        assert!(soft.unwrap() <= hard);
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let now = Instant::now();
        let limits = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let (_, hard) = limits.budget(Side::North, Duration::from_millis(30), now);
        assert_eq!(hard.unwrap() - now, Duration::from_millis(470));
    }

    #[test]
    fn no_clock_for_the_mover_means_no_deadline() {
        let limits = Limits {
            clocks: [None, Some(Clock::default())],
            ..Limits::default()
        };
        assert_eq!(
            limits.budget(Side::South, Duration::ZERO, Instant::now()),
            (None, None)
        );
    }
}
