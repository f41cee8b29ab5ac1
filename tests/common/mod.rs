//! Helpers shared by the integration tests: the engine over pipes, a seeded
//! random generator, the board helpers of the two-row and the Bao tests, and
//! the battery of checks every game must pass.
#![allow(dead_code)]

pub mod bao;
pub mod battery;
pub mod described;
pub mod engine;
pub mod http;
pub mod rng;
pub mod two_row;

#[allow(unused_imports)]
pub use engine::*;
