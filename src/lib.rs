//! kete: an engine for the mancala family of sowing games.
//!
//! The rules of every game ([`variants`]) sit behind one trait
//! ([`game::Game`]); on it are built perft, the search ([`search`]), the text
//! protocol ([`protocol`]), the bench and the
//! tournament runner ([`arena`]).

pub mod arena;
pub mod bench;
pub mod cli;
pub mod game;
pub mod interrupt;
pub mod options;
pub mod perft;
pub mod play;
pub mod protocol;
pub mod search;
pub mod serve;
pub mod solve;
pub mod tune;
pub mod variants;

pub use game::{
    EndReason, Evaluator, Game, GameRecord, GameResult, MoveError, NotationError, Outcome, Side,
};
pub use variants::{Variant, VariantVisitor};
