//! Exact solving and endgame databases.
//!
//! * [`solve`] finds the exact value of a position — the final seed margin
//!   with perfect play, from the side to move's point of view — and a best
//!   move, by MTD(f): a series of null-window alpha-beta searches to the end
//!   of the game, sharing a transposition table ([`SolveOptions`]).
//! * [`egtb`] builds endgame databases by seeds on the board (retrograde
//!   analysis), and [`load`] reads one back as a [`Tablebase`] that the
//!   solver (and later the engine) probes.
//! * [`resources`] sizes a solve's table, graph and stack to the machine.
//!
//! A game takes part through [`SolveGame`], which says what of a position
//! the table may forget: Kalah's value depends on the stores only through
//! the margin already banked, so its table is keyed on the seeds in play and
//! holds the margin of those seeds alone.

pub mod cache;
pub mod db;
pub mod egtb;
mod graph;
pub mod memory;
pub mod pns;
pub mod resources;
mod search;
pub mod split;
mod tt;

pub use db::{DbError, Egtb, Tablebase, load};
pub use search::{
    GraphStage, SolveOptions, SolveProgress, SolveResult, solve, solve_with_tablebase,
};

use crate::game::Side;

/// A time limit on a solve: sets its stop flag once `limit` has passed,
/// unless dropped first (the solve ended), which also ends its thread.
pub struct Deadline {
    _alive: std::sync::mpsc::Sender<()>,
    reached: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Deadline {
    pub fn start(
        limit: std::time::Duration,
        stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Deadline {
        use std::sync::atomic::Ordering;
        let (alive, dropped) = std::sync::mpsc::channel::<()>();
        let reached = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mark = reached.clone();
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = dropped.recv_timeout(limit) {
                mark.store(true, Ordering::Relaxed);
                stop.store(true, Ordering::Relaxed);
            }
        });
        Deadline {
            _alive: alive,
            reached,
        }
    }

    /// Whether the limit passed (and so set the stop flag).
    pub fn reached(&self) -> bool {
        self.reached.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Asks the kernel to back the spare capacity of `v` with huge pages, before
/// anything touches it. The databases and the transposition table are read
/// at random over gigabytes: with 4 KiB pages nearly every probe also
/// misses the TLB, and huge pages made probing-heavy runs markedly faster.
/// Only a hint: where it fails or is not supported nothing changes.
pub(crate) fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * std::mem::size_of::<T>();
        // Only whole huge pages inside the allocation can be huge.
        let first = start.next_multiple_of(HUGE);
        if end > first + HUGE {
            let len = (end - first) / HUGE * HUGE;
            // SAFETY: madvise only changes how the kernel backs pages of a
            // range that lies inside our own live allocation; it does not
            // touch their contents or our access to them.
            unsafe {
                libc::madvise(first as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// The buckets of a hash table of about `megabytes`: a power of two of
/// them (rounded down, at least one), zeroed, backed by huge pages where the
/// kernel can.
pub(crate) fn table_buckets<B: Default>(megabytes: usize) -> Vec<B> {
    let bytes = megabytes.max(1) << 20;
    let n = (bytes / std::mem::size_of::<B>()).max(1);
    let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
    let mut buckets = Vec::with_capacity(n);
    advise_huge_pages(&buckets);
    buckets.resize_with(n, B::default);
    buckets
}

/// Starts loading the cache line of `x` without waiting for it: searches
/// and builds that know their next random reads early overlap the misses.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it reads nothing into the program
    // and cannot fault, and SSE is part of every x86-64 CPU.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(x as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// The final margin from `side`'s point of view of a finished game, or
/// what a repetition ends it with.
fn margin(o: crate::game::Outcome, side: Side) -> i32 {
    o.margin_for(side)
        .expect("the two-row games count seeds at the end")
}
