//! What a solve prepares before its passes where positions repeat and no
//! line comes before the root: the graph of the positions reachable from
//! the root, which solves the position outright where every cycle pays the
//! same ([`solve_by_graph`]), and otherwise gives the search its bounds,
//! played at the thresholds around the first guess.

use std::time::Instant;

use super::bounds::{Bounds, WINDOW_SPREAD};
use super::options::{GraphStage, SolveOptions, SolveProgress, SolveResult};
use super::report::{Throttle, stage_report};
use super::searcher::Searcher;
use crate::game::SolveGame;
use crate::solve::graph::{Graph, GraphError};
use crate::solve::tt::Tt;

/// What the graph's work leaves a solve.
pub(super) enum Setup<G: SolveGame> {
    /// Every cycle pays the same: the graph has solved the position.
    Solved(SolveResult<G::Move>),
    /// The passes are to search, with what was prepared (boxed: it is
    /// far larger than a result).
    Search(Box<Prepared<G>>),
}

/// What the passes start from.
pub(super) struct Prepared<G> {
    /// The graph and its bounds, where built and played.
    pub(super) graph: Option<Graph<G>>,
    pub(super) bounds: Bounds,
    /// A table sized to the graph, being zeroed beside the bounds
    /// ([`SolveOptions::table_fits_graph`]).
    pub(super) table: Option<std::thread::JoinHandle<Tt>>,
    /// Whether a stop came during the graph's work.
    pub(super) stopped: bool,
}

impl<G> Prepared<G> {
    /// Nothing prepared: no graph, no table, not stopped.
    pub(super) fn none() -> Self {
        Prepared {
            graph: None,
            bounds: Bounds::default(),
            table: None,
            stopped: false,
        }
    }
}

/// Builds the graph of `pos` (whose legal moves are `moves`) and, unless
/// every cycle pays the same (then it solves the position), plays its
/// bounds at the thresholds around `guess`, reporting each phase.
pub(super) fn prepare<G: SolveGame>(
    pos: &G,
    moves: &[G::Move],
    opts: &SolveOptions,
    guess: i32,
    start: Instant,
    progress: &mut dyn FnMut(&SolveProgress),
) -> Setup<G> {
    let mut prepared = Prepared::none();
    let flag = opts.stop.as_deref();
    // Before any pass the value lies within the seeds in play.
    let (banked, spread) = (pos.banked(), pos.seeds_in_play() as i32);
    let report = |stage| stage_report(start.elapsed(), banked - spread, banked + spread, stage);
    let mut throttle = Throttle::new(opts.report_every);
    let built = Graph::build_reporting(
        pos,
        opts.graph_budget,
        opts.threads.max(1),
        flag,
        &mut |positions| {
            if throttle.due() {
                progress(&report(GraphStage::Building { positions }));
            }
        },
    );
    if let Ok(g) = &built {
        progress(&report(GraphStage::Built {
            positions: g.nodes.len(),
            components: g.comp_size.len(),
        }));
        throttle.restart();
    }
    // A line before the root (`opts.history`) changes a value only where
    // one of its positions can recur, that is, where it is reachable from
    // the root (then it lies in the root's component). Where none is, the
    // graph's history-free answers are the line's too; where one is, the
    // graph cannot give them, and the passes search without it.
    if let Ok(g) = &built
        && opts.history.iter().any(|&(h, _)| g.reaches_hash(h))
    {
        return Setup::Search(Box::new(prepared));
    }
    match built {
        Ok(graph) if graph.cycles_pay_constant() => {
            return Setup::Solved(solve_by_graph(pos, &graph, moves, opts, start, progress));
        }
        Ok(g) => {
            // A table of gigabytes takes the kernel many seconds to
            // hand over zeroed: that runs beside the bounds.
            if opts.table_fits_graph {
                let mb = opts.hash_mb.max(crate::solve::resources::graph_table_mb(
                    g.nodes.len(),
                    crate::solve::cache::available_memory(),
                ));
                prepared.table = Some(std::thread::spawn(move || Tt::new(mb)));
            }
            let t = Searcher::<G>::threshold(pos.side_to_move(), guess - 1);
            let window = Some((t - WINDOW_SPREAD, t + WINDOW_SPREAD));
            let mut tick = |done| {
                if throttle.due() {
                    progress(&report(GraphStage::Playing {
                        done,
                        positions: g.nodes.len(),
                    }));
                }
            };
            match Bounds::of(&g, window, opts.threads.max(1), flag, &mut tick) {
                Some(b) => {
                    progress(&report(GraphStage::Bounds { window }));
                    prepared.bounds = b;
                    prepared.graph = Some(g);
                }
                None => prepared.stopped = true,
            }
        }
        Err(GraphError::Stopped) => prepared.stopped = true,
        Err(GraphError::TooLarge | GraphError::Collision) => {}
    }
    Setup::Search(Box::new(prepared))
}

/// Solves `pos` on its graph when every cycle pays the same (see
/// [`crate::solve::graph`]): the root's value is that of the endless game, and a
/// root move's is the same game's with the root already played (a sink that
/// ends the game by repetition).
fn solve_by_graph<G: SolveGame>(
    pos: &G,
    graph: &Graph<G>,
    moves: &[G::Move],
    opts: &SolveOptions,
    start: Instant,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveResult<G::Move> {
    let side = pos.side_to_move();
    let mine = |v: i32| {
        if side == crate::game::Side::South {
            v
        } else {
            -v
        }
    };
    let values = graph.values();
    let value = mine(values[0]);
    let after = graph.root_move_values(&values);
    let reaching: Vec<G::Move> = moves
        .iter()
        .zip(after)
        .filter(|&(_, v)| mine(v) == value)
        .map(|(&mv, _)| mv)
        .collect();
    assert!(
        !reaching.is_empty(),
        "a best move reaches the value of the position"
    );
    let best = if opts.all_best {
        reaching
    } else {
        vec![reaching[0]]
    };
    let nodes = graph.nodes.len() as u64;
    progress(&SolveProgress {
        pass: 1,
        beta: value,
        lower: value,
        upper: value,
        pass_done: true,
        nodes,
        tbhits: 0,
        root_moves: (0, 0),
        elapsed: start.elapsed(),
        graph: None,
    });
    SolveResult {
        value,
        best,
        nodes,
        tbhits: 0,
        complete: true,
        lower: value,
        upper: value,
    }
}
