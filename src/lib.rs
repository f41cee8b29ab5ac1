//! kete: an engine for the mancala family of sowing games.
//!
//! The library is the rules of every game ([`variants`]) behind one trait
//! ([`game::Game`]), and what is built on it: perft, and in later rooms the
//! search, the solver, the protocol and the tournament runner.

pub mod game;
pub mod perft;
pub mod solve;
pub mod variants;

pub use game::{Evaluator, Game, GameRecord, GameResult, MoveError, NotationError, Outcome, Side};
pub use variants::{Variant, VariantVisitor};
