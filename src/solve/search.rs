//! MTD(f) over null-window alpha-beta searches that run to the end of the
//! game.
//!
//! Its files, one concern each:
//!
//! * `mtdf`: the driver, [`solve`]: the first guess, the MTD(f) passes and
//!   the best moves; `setup` what it prepares first where positions repeat
//!   (the graph, solved outright or giving bounds); `pass` one pass on
//!   every thread.
//! * `node`: the alpha-beta search of one node, with `ordering` (the order
//!   of its moves) and `etc` (enhanced transposition cutoffs).
//! * `line`: the line searched, for the repetition rule, and what of it a
//!   node's table key holds (`key`); `graph_bounds` and `residual`: what
//!   the graph's bounds and an open component's own games tell a node.
//! * `searcher`: what one thread keeps and what the threads share; `busy`
//!   the nodes a thread of a parallel pass is searching; `bounds` the
//!   graph's bounds as the search reads them; `report` the progress
//!   reports; `options` the solve's options and results.

mod bounds;
mod busy;
mod etc;
mod graph_bounds;
mod key;
mod line;
mod mtdf;
mod node;
mod options;
mod ordering;
mod pass;
mod report;
mod residual;
mod searcher;
mod setup;

pub use mtdf::{solve, solve_with_tablebase};
pub use options::{GraphStage, SolveOptions, SolveProgress, SolveResult};
