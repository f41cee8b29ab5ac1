//! What the exact solver needs of a game beyond [`Game`].

use super::Game;

/// What the solver needs to know of a game beyond [`Game`].
///
/// The defaults are always correct: key on the whole position, nothing
/// banked. A variant overrides them to let transpositions that differ only
/// in already decided seeds share one table entry.
pub trait SolveGame: Game {
    /// Whether the final margin always has the parity of `banked() +
    /// seeds_in_play()` (every seed ends in one store): MTD(f) then skips
    /// the windows between possible values.
    const MARGIN_PARITY: bool = false;

    /// Seeds in play of a position the engine's solver settles in about 50 ms
    /// on one core (with the database in play): inside `go` it solves a
    /// position that size or, with more time, a few seeds larger exactly
    /// before it searches; 0 never. A position the solver does not settle in
    /// its share of the time is searched as usual.
    const SOLVE_IN_GO: u32 = 0;

    /// Enhanced transposition cutoffs pay for their table probe of every
    /// child only at nodes with at least this many seeds in play (see
    /// the solver's `etc_min_seeds` option).
    const ETC_MIN_SEEDS: u32 = 8;

    /// The key of the transposition table. Two positions with equal keys
    /// must have final margins that differ exactly by their [`banked`]
    /// margins.
    ///
    /// [`banked`]: SolveGame::banked
    fn solve_key(&self) -> u64 {
        self.hash()
    }

    /// The part of the final margin (side to move's view) that is already
    /// decided, e.g. the store difference.
    fn banked(&self) -> i32 {
        0
    }

    /// Seeds whose owner is still open: the final margin lies within
    /// `banked() ± seeds_in_play()`.
    fn seeds_in_play(&self) -> u32;

    /// Pits in a row, for sizing the default table to the boards the seeds
    /// in play can make; the default of 8 (the most any two-row game here
    /// has) only makes the table larger than needed.
    fn pits_per_row(&self) -> u32 {
        8
    }
}
