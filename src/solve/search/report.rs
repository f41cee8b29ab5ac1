//! The solve's progress reports: how often, and those of the graph's
//! phases.

use std::time::{Duration, Instant};

use super::options::{GraphStage, SolveProgress};

/// Says when `every` has passed since it last said so.
pub(super) struct Throttle {
    last: Instant,
    every: Duration,
}

impl Throttle {
    pub(super) fn new(every: Duration) -> Throttle {
        Throttle {
            last: Instant::now(),
            every,
        }
    }

    pub(super) fn due(&mut self) -> bool {
        let due = self.last.elapsed() >= self.every;
        if due {
            self.restart();
        }
        due
    }

    pub(super) fn restart(&mut self) {
        self.last = Instant::now();
    }
}

/// The report of a graph phase just ended (no pass under way): the value
/// is known to lie in `lower..=upper`.
pub(super) fn stage_report(
    elapsed: Duration,
    lower: i32,
    upper: i32,
    stage: GraphStage,
) -> SolveProgress {
    SolveProgress {
        pass: 0,
        beta: 0,
        lower,
        upper,
        pass_done: false,
        nodes: 0,
        tbhits: 0,
        root_moves: (0, 0),
        elapsed,
        graph: Some(stage),
    }
}
