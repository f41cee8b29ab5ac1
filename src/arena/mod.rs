//! kete-arena, the tournament runner, as a library: engines as child
//! processes, the referee, schedules, openings, records, statistics and the
//! report. The binary `kete-arena` only reads the command line.
//!
//! The runner owns the rules: every move an engine sends is checked with the
//! kete library, the runner decides whose turn it is (a Kalah extra turn asks
//! the same engine again) and when and how a game ends. An engine's claims
//! (`info` scores, `bestmove 0000`) are recorded, never believed.

pub mod accuracy;
pub mod engine;
pub mod folder;
pub mod html;
pub mod merge;
pub mod openings;
pub mod play;
pub mod record;
pub mod report;
pub mod schedule;
pub mod stats;
pub mod tournament;

use std::fmt;
use std::path::PathBuf;

pub use engine::{EngineConfig, Proto, TimeControl};
pub use merge::{Merged, merge};
pub use openings::{Opening, OpeningSource};
pub use record::{GameLine, Termination};
pub use schedule::Shard;
pub use stats::{EloEstimate, Sprt, SprtState, Wdl};
pub use tournament::{Summary, TournamentConfig, run};

/// What can stop a tournament (as opposed to a game, which an engine's
/// failure only decides).
#[derive(Debug)]
pub enum ArenaError {
    /// The settings do not make a tournament; the message says why.
    Config(String),
    /// A file could not be read or written.
    Io {
        what: String,
        source: std::io::Error,
    },
    /// The record file holds something that is not a record of this
    /// tournament.
    Records {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// An opening cannot be played under the tournament's rules.
    Opening {
        source: String,
        line: usize,
        message: String,
    },
}

impl ArenaError {
    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> ArenaError {
        ArenaError::Io {
            what: what.into(),
            source,
        }
    }
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Config(m) => f.write_str(m),
            ArenaError::Io { what, source } => write!(f, "{what}: {source}"),
            ArenaError::Records {
                path,
                line,
                message,
            } => write!(f, "{}, line {line}: {message}", path.display()),
            ArenaError::Opening {
                source,
                line,
                message,
            } => write!(f, "opening {line} of {source}: {message}"),
        }
    }
}

// No `source()`: the message already ends with the I/O error's, and anyhow's
// `{:#}` would print it a second time.
impl std::error::Error for ArenaError {}
