//! Cooperative interruption of long computations inside the rules.
//!
//! Most calls into a [`Game`](crate::game::Game) take microseconds, but a
//! few can take far longer: recognising that a Bao relay move never ends may
//! need millions of laps. A search with a deadline cannot wait for that, and
//! the rules must not know about searches. So the caller *arms* the current
//! thread with a deadline and stop flags ([`arm`]); the rules' long loops
//! call [`poll`] every few thousand steps and, once it says so, give up and
//! return at once with some result that need not be right. The caller asks
//! [`tripped`] after each call into the game and throws away whatever a
//! tripped call returned.
//!
//! The state is per thread: each search thread arms itself, and a thread
//! that never arms (perft, the tests, the tournament referee) is never
//! interrupted, so the rules stay exact there.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// An instant that can be set after a computation started and read from
/// any thread: a pondering search gets its deadline only when `ponderhit`
/// comes, while it runs, and whatever the rules are computing then must
/// see it at once.
#[derive(Debug)]
pub struct Deadline {
    base: Instant,
    /// Microseconds after `base`, plus one; 0 while unset.
    at: AtomicU64,
}

impl Default for Deadline {
    fn default() -> Self {
        Deadline {
            base: Instant::now(),
            at: AtomicU64::new(0),
        }
    }
}

impl Deadline {
    pub fn set(&self, at: Option<Instant>) {
        let v = at.map_or(0, |t| {
            t.saturating_duration_since(self.base).as_micros() as u64 + 1
        });
        self.at.store(v, Ordering::Relaxed);
    }

    pub fn get(&self) -> Option<Instant> {
        match self.at.load(Ordering::Relaxed) {
            0 => None,
            v => Some(self.base + Duration::from_micros(v - 1)),
        }
    }
}

#[derive(Clone)]
struct Armed {
    deadline: Option<Instant>,
    /// A deadline that may be set later (see [`Deadline`]).
    late: Option<Arc<Deadline>>,
    flags: Vec<Arc<AtomicBool>>,
}

thread_local! {
    static ARMED: RefCell<Option<Armed>> = const { RefCell::new(None) };
    static TRIPPED: Cell<bool> = const { Cell::new(false) };
}

/// Keeps the thread armed; dropping it restores what was there before.
#[must_use = "the thread is disarmed when the guard is dropped"]
pub struct Guard {
    previous: Option<Armed>,
    was_tripped: bool,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        ARMED.with_borrow_mut(|a| *a = previous);
        TRIPPED.set(self.was_tripped);
    }
}

/// Arms the current thread: from now on [`poll`] says stop once `deadline`
/// has passed or any of `flags` is set.
pub fn arm(deadline: Option<Instant>, flags: &[Arc<AtomicBool>]) -> Guard {
    arm_late(deadline, None, flags)
}

/// [`arm`] with also a deadline that may be set while the thread is armed.
pub fn arm_late(
    deadline: Option<Instant>,
    late: Option<Arc<Deadline>>,
    flags: &[Arc<AtomicBool>],
) -> Guard {
    let armed = Armed {
        deadline,
        late,
        flags: flags.to_vec(),
    };
    let previous = ARMED.with_borrow_mut(|a| a.replace(armed));
    Guard {
        previous,
        was_tripped: TRIPPED.replace(false),
    }
}

/// Disarms the current thread until the guard is dropped: for work whose
/// result must be exact whatever the clock says.
pub fn disarm() -> Guard {
    let previous = ARMED.with_borrow_mut(|a| a.take());
    Guard {
        previous,
        was_tripped: TRIPPED.replace(false),
    }
}

/// Whether the computation under way should be abandoned. Looks at the
/// clock, so call it every few thousand cheap steps, not every step. Once
/// true it stays true until the thread is armed anew.
pub fn poll() -> bool {
    if TRIPPED.get() {
        return true;
    }
    let stop = ARMED.with_borrow(|a| {
        a.as_ref().is_some_and(|a| {
            let past = |d: Instant| Instant::now() >= d;
            a.flags.iter().any(|f| f.load(Ordering::Relaxed))
                || a.deadline.is_some_and(past)
                || a.late.as_ref().and_then(|l| l.get()).is_some_and(past)
        })
    });
    if stop {
        TRIPPED.set(true);
    }
    stop
}

/// Whether a [`poll`] on this thread has said stop since it was armed: the
/// results of calls into the game since then may be wrong.
#[inline]
pub fn tripped() -> bool {
    TRIPPED.get()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_thread_that_is_not_armed_is_never_interrupted() {
        assert!(!poll());
        assert!(!tripped());
    }

    #[test]
    fn the_deadline_and_the_flags_trip_it_and_the_guard_restores_the_thread() {
        let flag = Arc::new(AtomicBool::new(false));
        {
            let _g = arm(
                Some(Instant::now() + Duration::from_secs(3600)),
                std::slice::from_ref(&flag),
            );
            assert!(!poll());
            flag.store(true, Ordering::Relaxed);
            assert!(poll());
            assert!(tripped());
            {
                let _exact = disarm();
                assert!(!tripped());
                assert!(!poll());
            }
            assert!(tripped());
        }
        assert!(!tripped());
        assert!(!poll());
        let _g = arm(Some(Instant::now()), &[]);
        assert!(poll());
    }

    #[test]
    fn a_late_deadline_trips_the_thread_once_it_is_set_and_past() {
        let late = Arc::new(Deadline::default());
        let _g = arm_late(None, Some(late.clone()), &[]);
        assert!(!poll());
        late.set(Some(Instant::now() + Duration::from_secs(3600)));
        assert!(!poll());
        late.set(Some(Instant::now()));
        assert!(poll());
        late.set(None);
        assert_eq!(late.get(), None);
    }
}
