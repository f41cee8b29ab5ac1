//! Exact recognition of never-ending relay moves.
//!
//! A relay move is a deterministic walk through in-move states (board, current
//! pit, what the rules still remember of the move). The walk either ends or
//! enters a cycle, and it cycles exactly when some state repeats. Brent's
//! algorithm finds such a repeat with one saved state and one comparison per
//! lap, without a table and without any cap on the number of laps.
//!
//! Some cycles are very long (Bao la Kujifunza has cycles of 6·10^7 laps a
//! few moves from the start), and many different positions run into the same
//! one. So a long move also leaves *marks*: the rare states whose hash has
//! its top [`MARK_BITS`] bits zero. When the move turns out never to end,
//! its marks go into a process-wide table of doomed states (shared by every
//! search thread and kept from one search to the next); a later move that
//! reaches one of them never ends either, by determinism, since a state holds
//! everything the rest of the move depends on. A table entry is a whole
//! state compared in full, never just a hash, so the verdict stays exact; the
//! table only makes a repeat known sooner, and forgetting it (it is cleared
//! when full) only costs time.
//!
//! A long move polls [`crate::interrupt`] every few thousand laps and stops
//! with [`CycleCheck::interrupted`] set when its caller has run out of time.

use std::hash::Hash;
use std::sync::LazyLock;

use parking_lot::RwLock;
use rustc_hash::FxHashSet;

/// Laps sown before the detector starts comparing states. Ordinary moves end
/// well before this, so they pay one counter increment per lap; a cycle is
/// still found exactly, only a few laps later.
pub const QUIET_LAPS: u64 = 48;

/// Laps after which a move starts leaving marks. Far above any move that
/// ends in ordinary play, so those pay nothing for the table.
pub const MARK_LAPS: u64 = 1024;

/// One state in 2^MARK_BITS is a mark: a move reaching a known cycle is
/// recognised about that many laps later.
pub const MARK_BITS: u32 = 14;

/// Doomed states kept before the table starts afresh.
pub const DOOMED_CAPACITY: usize = 1 << 18;

/// Laps between two looks at the clock ([`crate::interrupt::poll`]): a few
/// microseconds.
pub const POLL_LAPS: u64 = 1 << 12;

/// An in-move state.
pub trait LapState: Eq + Hash + Clone + Send + Sync + 'static {
    /// A cheap digest that mixes every field into its top bits: the state is
    /// a mark when the top [`MARK_BITS`] bits are zero. Equal for states that
    /// [`LapState::canonical`] makes equal.
    fn digest(&self) -> u64;

    /// The representative of the state's symmetry class: a state whose
    /// future is the mirror image (or another symmetry) of this one's, hence
    /// that never ends exactly when this one never ends.
    fn canonical(&self) -> Self {
        self.clone()
    }
}

/// Mixes `x` so that every bit reaches the top bits.
#[inline]
pub fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

/// States known to lead into a cycle. Looked at only at marks (one lap in
/// thousands), so one lock for all threads costs nothing measurable.
pub struct Doomed<S> {
    states: RwLock<FxHashSet<S>>,
}

impl<S> Doomed<S> {
    pub fn new() -> Self {
        Doomed {
            states: RwLock::new(FxHashSet::default()),
        }
    }
}

impl<S> Default for Doomed<S> {
    fn default() -> Self {
        Self::new()
    }
}

/// The process-wide table of doomed states of one kind of move: a `static`.
pub type DoomedTable<S> = LazyLock<Doomed<S>>;

/// Brent's cycle detector over the states a move passes through at lap ends.
pub struct CycleCheck<S: 'static> {
    laps: u64,
    saved: Option<S>,
    power: u64,
    since: u64,
    /// Made when the move reaches [`MARK_LAPS`]: most moves never do.
    marks: Option<Box<FxHashSet<S>>>,
    doomed: Option<&'static Doomed<S>>,
    interrupted: bool,
}

impl<S: LapState> CycleCheck<S> {
    /// A detector without the table of doomed states.
    pub fn new() -> Self {
        CycleCheck {
            laps: 0,
            saved: None,
            power: 1,
            since: 0,
            marks: None,
            doomed: None,
            interrupted: false,
        }
    }

    /// A detector that consults and feeds `doomed`.
    pub fn with_table(doomed: &'static DoomedTable<S>) -> Self {
        CycleCheck {
            doomed: Some(LazyLock::force(doomed)),
            ..Self::new()
        }
    }

    /// Laps seen so far.
    pub fn laps(&self) -> u64 {
        self.laps
    }

    /// Counts laps that another detector looked after.
    pub fn add_laps(&mut self, laps: u64) {
        self.laps += laps;
    }

    /// Whether [`CycleCheck::repeats`] said true because the caller ran out
    /// of time ([`crate::interrupt`]), not because a state repeated.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// Tells the detector that the states from now on are of another kind
    /// than those before (they will never equal them): the marks so far are
    /// dropped, since they may not be doomed in the sense of the new ones.
    pub fn taint(&mut self) {
        self.marks = None;
        self.saved = None;
        self.power = 1;
        self.since = 0;
    }

    /// Records the state at the end of one more lap; true once a state has
    /// been seen before (or is known to lead into a cycle), i.e. the move
    /// never ends, or once the caller is out of time (then
    /// [`CycleCheck::interrupted`] is set). `state` is only built after
    /// [`QUIET_LAPS`].
    #[inline]
    pub fn repeats(&mut self, state: impl FnOnce() -> S) -> bool {
        self.laps += 1;
        if self.laps < QUIET_LAPS {
            return false;
        }
        self.check(state())
    }

    #[inline]
    fn check(&mut self, s: S) -> bool {
        if self.laps.is_multiple_of(POLL_LAPS) && crate::interrupt::poll() {
            self.interrupted = true;
            return true;
        }
        if self.laps >= MARK_LAPS
            && let Some(table) = self.doomed
            && s.digest() >> (64 - MARK_BITS) == 0
        {
            let c = s.canonical();
            if table.states.read().contains(&c) {
                return true;
            }
            // A mark met twice in this move is a repeated state (up to
            // symmetry): found after one turn of the cycle, where Brent may
            // need two.
            if !self.marks.get_or_insert_default().insert(c) {
                self.remember();
                return true;
            }
        }
        match &self.saved {
            Some(saved) if *saved == s => {
                self.remember();
                return true;
            }
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

    /// Every state of a never-ending move leads into its cycle: its marks
    /// are doomed.
    fn remember(&mut self) {
        let (Some(table), Some(marks)) = (self.doomed, self.marks.take()) else {
            return;
        };
        let mut t = table.states.write();
        if t.len() + marks.len() > DOOMED_CAPACITY {
            t.clear();
        }
        t.extend(*marks);
    }
}

impl<S: LapState> Default for CycleCheck<S> {
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

    impl LapState for u64 {
        fn digest(&self) -> u64 {
            mix(*self)
        }
    }

    static TEST_DOOMED: DoomedTable<u64> = LazyLock::new(Doomed::new);

    #[test]
    fn a_walk_into_a_known_cycle_is_recognised_early_and_an_ending_one_never() {
        // x -> x+1, from 10^6 on a cycle of 3·10^6 states: the first walk
        // needs Brent's millions of steps; a second walk that joins the same
        // cycle elsewhere meets one of the first walk's marks much sooner.
        const CYCLE: u64 = 3_000_000;
        let next = |x: u64| {
            if x + 1 < 1_000_000 + CYCLE {
                x + 1
            } else {
                1_000_000
            }
        };
        let walk = |mut x: u64| {
            let mut c = CycleCheck::with_table(&TEST_DOOMED);
            while !c.repeats(|| x) {
                x = next(x);
            }
            c.laps()
        };
        let first = walk(0);
        assert!(first > CYCLE);
        let second = walk(2_500_000);
        assert!(
            second < 1 << (MARK_BITS + 6),
            "second walk took {second} steps"
        );
        // A walk that ends is never taken for a doomed one, however many
        // marks it meets.
        let mut c = CycleCheck::with_table(&TEST_DOOMED);
        for x in (1u64 << 40)..(1u64 << 40) + 1_000_000 {
            assert!(!c.repeats(|| x));
        }
    }
}
