//! Exact recognition of never-ending relay moves.
//!
//! A relay move is a deterministic walk through in-move states (board, current
//! pit, what the rules still remember of the move). The walk either ends or
//! enters a cycle, and it cycles exactly when some state repeats. Brent's
//! algorithm finds such a repeat with one saved state and one comparison per
//! lap, without a table and without any cap on the number of laps.

/// Laps sown before the detector starts comparing states. Ordinary moves end
/// well before this, so they pay one counter increment per lap; a cycle is
/// still found exactly, only a few laps later.
pub const QUIET_LAPS: u64 = 48;

/// Brent's cycle detector over the states a move passes through at lap ends.
pub struct CycleCheck<S> {
    laps: u64,
    saved: Option<S>,
    power: u64,
    since: u64,
}

impl<S: PartialEq> CycleCheck<S> {
    pub fn new() -> Self {
        CycleCheck {
            laps: 0,
            saved: None,
            power: 1,
            since: 0,
        }
    }

    /// Laps seen so far.
    pub fn laps(&self) -> u64 {
        self.laps
    }

    /// Records the state at the end of one more lap; true once a state has
    /// been seen before, i.e. the move never ends. `state` is only built
    /// after [`QUIET_LAPS`].
    #[inline]
    pub fn repeats(&mut self, state: impl FnOnce() -> S) -> bool {
        self.laps += 1;
        if self.laps < QUIET_LAPS {
            return false;
        }
        let s = state();
        match &self.saved {
            Some(saved) if *saved == s => return true,
            Some(_) if self.since < self.power => {}
            _ => {
                self.saved = Some(s);
                self.power *= 2;
                self.since = 0;
            }
        }
        self.since += 1;
        false
    }
}

impl<S: PartialEq> Default for CycleCheck<S> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_cycle_after_a_long_tail_and_never_a_false_one() {
        // x -> x+1 up to 1000, then a cycle of length 37.
        let next = |x: u64| if x < 1036 { x + 1 } else { 1000 };
        let mut c = CycleCheck::new();
        let mut x = 0;
        let mut steps = 0;
        while !c.repeats(|| x) {
            x = next(x);
            steps += 1;
            assert!(steps < 10_000);
        }
        assert!(steps > 1000);
        let mut c = CycleCheck::new();
        for x in 0..100_000u64 {
            assert!(!c.repeats(|| x));
        }
    }
}
