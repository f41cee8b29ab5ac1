//! A seeded generator for random games and positions: the same seed gives
//! the same games on every run (with the locked `rand` version).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

pub struct Rng(StdRng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(StdRng::seed_from_u64(seed))
    }

    /// A number in `0..n`; `n` must not be 0.
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    pub fn next(&mut self) -> u64 {
        self.0.random()
    }
}
