//! What the threads of a parallel pass tell each other: the nodes each is
//! searching, so that the others search other moves first.

use std::sync::atomic::{AtomicU64, Ordering};

/// The nodes a thread of a parallel pass marks while it searches them, so
/// that the other threads search other moves first (simplified ABDADA):
/// one word a slot, the key of the position under way. A collision only
/// makes a thread defer a move it need not have deferred, or not defer
/// one; every move is searched in the end either way.
pub(super) struct Busy {
    slots: Vec<AtomicU64>,
    mask: u64,
}

impl Busy {
    pub(super) fn new(threads: usize) -> Busy {
        let n = if threads > 1 { 1 << 16 } else { 1 };
        Busy {
            slots: (0..n).map(|_| AtomicU64::new(0)).collect(),
            mask: n as u64 - 1,
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key & self.mask) as usize]
    }

    pub(super) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    pub(super) fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    pub(super) fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Plies from the root within which the threads of a parallel pass defer
/// the moves another thread is searching: deeper down a subtree is too
/// small to be worth the marking.
pub(super) const DEFER_PLIES: usize = 24;
