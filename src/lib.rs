//! kete: an engine for the mancala family of sowing games.
//!
//! The library is the engine; the binaries (`kete`, `kete-arena`) are its
//! front ends. It is built in floors, each using only the floors below it
//! (`tests/layers.rs` holds them; `docs/design/layers.md` draws them):
//!
//! 1. [`game`], [`options`], [`interrupt`], [`cpu`]: what every game offers
//!    — the [`game::Game`] trait, what the solver and the databases need of
//!    a game, rule options, interruption, the CPU's features.
//! 2. [`variants`]: one module per game, and the registry that names them.
//! 3. [`search`], [`solve`], [`perft`], [`draw`]: generic over `Game`; they
//!    reach games only through the ground floor's traits and the registry.
//! 4. [`protocol`], [`arena`], [`tune`]: the text protocol, the tournament
//!    runner and the evaluation fitter.

pub mod arena;
pub mod cpu;
pub mod draw;
pub mod game;
pub mod interrupt;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod solve;
pub mod tune;
pub mod variants;

pub use game::{
    EndReason, Evaluator, Game, GameRecord, GameResult, MoveError, NotationError, Outcome, Side,
};
pub use variants::{Variant, VariantVisitor};
