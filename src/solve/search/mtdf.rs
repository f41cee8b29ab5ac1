//! The driver of a solve: a first guess, then MTD(f), a series of
//! null-window passes at the root that narrow the value's bounds until they
//! meet, then the best moves.

use std::time::Instant;

use super::options::{SolveOptions, SolveProgress, SolveResult};
use super::report::Throttle;
use super::searcher::{Searcher, Shared};
use super::setup::{Prepared, Setup, prepare};
use crate::game::SolveGame;
use crate::solve::tt::Tt;
use crate::solve::{Tablebase, margin};

/// Solves `pos` exactly. `progress` is called after every pass and now and
/// then inside long ones.
///
/// Positions that can repeat (Oware) are solved under the game's own
/// repetition rule: a position that recurs on the line searched ends the
/// game with [`crate::game::Game::repetition_outcome`]. A position's value
/// then depends on the positions since the last capture on the line that
/// led to it (only they can recur), so the table is keyed on the position
/// and that set of positions.
pub fn solve<G: SolveGame>(
    pos: &G,
    opts: &SolveOptions,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveResult<G::Move> {
    solve_with_tablebase(pos, opts, None, progress)
}

/// [`solve`] with an endgame database probed wherever it has the position.
/// The database's values are margins of the seeds in play added to
/// [`SolveGame::banked`], so it must follow the same rules as `pos`.
pub fn solve_with_tablebase<G: SolveGame>(
    pos: &G,
    opts: &SolveOptions,
    tablebase: Option<&dyn Tablebase<G>>,
    progress: &mut dyn FnMut(&SolveProgress),
) -> SolveResult<G::Move> {
    let start = Instant::now();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        let value = pos.outcome().map_or(0, |o| margin(o, pos.side_to_move()));
        return SolveResult {
            value,
            best: Vec::new(),
            nodes: 0,
            tbhits: 0,
            complete: true,
            lower: value,
            upper: value,
        };
    }
    // The first guess comes before the graph: its bounds are played only
    // at the thresholds around it, where the passes will test.
    let guess = opts
        .guess
        .unwrap_or_else(|| estimate(pos, opts.guess_depth));
    // A solve that starts after a line (a split solve's job, a game's
    // position) builds the graph too, and keeps it only where no position
    // of the line is reachable (`prepare`): then the line cannot recur and
    // the graph's history-free answers are its own.
    let graph_first = G::CAN_REPEAT && tablebase.is_none() && opts.graph_budget > 0;
    let prepared = if graph_first {
        match prepare(pos, &moves, opts, guess, start, progress) {
            Setup::Solved(result) => return result,
            Setup::Search(prepared) => *prepared,
        }
    } else {
        Prepared::none()
    };
    let tt = match prepared.table {
        Some(t) => t.join().expect("allocating the table does not panic"),
        None => Tt::new(opts.hash_mb),
    };
    let shared = Shared::new(tt, tablebase, prepared.graph, prepared.bounds, opts, start);
    // With the graph, no position of the line can recur: the search
    // starts from an empty line, as the graph's keys and bounds assume.
    let line = if shared.graph.is_some() {
        Vec::new()
    } else {
        opts.history.clone()
    };
    let mut s = Searcher::new(&shared, 0, line, Some(progress));
    s.reports = Throttle::new(opts.report_every);
    s.stopped = prepared.stopped;
    let (g, best) = s.mtdf(pos, guess);
    let mut complete = !s.stopped;
    let value = if complete {
        s.lower
    } else {
        g.clamp(s.lower, s.upper)
    };
    let best = s.best_moves(pos, &moves, value, best, complete, opts.all_best);
    // A stop during the searches for the best moves leaves the value as
    // found, but the moves unproven (a stopped search may say anything).
    complete &= !s.stopped;
    SolveResult {
        value,
        best,
        nodes: s.total_nodes(),
        tbhits: s.total_tbhits(),
        complete,
        lower: s.lower,
        upper: s.upper,
    }
}

impl<'a, G: SolveGame> Searcher<'a, G> {
    /// The MTD(f) passes: from the bounds the seeds in play and the graph
    /// give, each pass tests the latest value (one above it where it is the
    /// lower bound) with a null window and moves a bound to what it found,
    /// until they meet or a stop ends them. Returns the last value found and
    /// the root move of the last pass that failed high.
    fn mtdf(&mut self, pos: &G, guess: i32) -> (i32, Option<usize>) {
        let spread = pos.seeds_in_play() as i32;
        let banked = pos.banked();
        self.lower = banked - spread;
        self.upper = banked + spread;
        if let Some(v) = self.node_of(pos) {
            let (lo, hi) = self.entry_bounds(v, pos.side_to_move());
            self.lower = self.lower.max(lo);
            self.upper = self.upper.min(hi);
        }
        let mut g = guess.clamp(self.lower, self.upper);
        let mut best = None;
        while self.lower < self.upper && !self.stopped {
            let beta = if g == self.lower { g + 1 } else { g };
            if !self.bounds_exact_at(Self::threshold(pos.side_to_move(), beta - 1)) {
                self.stopped = true;
                break;
            }
            self.pass += 1;
            self.beta = beta;
            self.root_best = None;
            let v = self.pass(pos, beta);
            if self.stopped {
                break;
            }
            if v < beta {
                self.upper = v;
            } else {
                self.lower = v;
                best = self.root_best;
            }
            if G::MARGIN_PARITY {
                // Values of the wrong parity cannot occur: skip the passes
                // that would test them.
                let odd = (banked + spread).rem_euclid(2);
                if (self.lower - odd).rem_euclid(2) != 0 {
                    self.lower += 1;
                }
                if (self.upper - odd).rem_euclid(2) != 0 {
                    self.upper -= 1;
                }
            }
            g = v;
            self.report(true);
        }
        (g, best)
    }

    /// The best root moves once the passes are done: the one of the last
    /// pass that failed high (`best`), else one the graph's bounds prove or
    /// a search finds to reach `value`; with `all_best`, every move that
    /// reaches it. Searches here that a stop cuts short set `stopped`.
    fn best_moves(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        value: i32,
        best: Option<usize>,
        complete: bool,
        all_best: bool,
    ) -> Vec<G::Move> {
        let least = pos.banked() - pos.seeds_in_play() as i32;
        // No pass failed high: either every move reached only the lowest
        // possible value (any is best), or the graph's bounds decided the value
        // before any pass (then a move that reaches it is looked for).
        let proven = (0..moves.len()).find(|&i| self.root_move_proven(pos, i, value));
        if complete && (all_best || best.is_none() && proven.is_none()) {
            // The searches below test the value itself. A stop meanwhile
            // leaves the bounds as they were, which are still sound, but the
            // moves then found are not proven.
            if !self.bounds_exact_at(Self::threshold(pos.side_to_move(), value - 1)) {
                self.stopped = true;
            }
        }
        let first = match best {
            Some(i) => i,
            None if complete && value > least => {
                match proven
                    .or_else(|| (0..moves.len()).find(|&i| self.reaches(pos, moves[i], value)))
                {
                    Some(i) => i,
                    None => {
                        // Some move reaches the value: only a stop during these
                        // searches leaves none found (the answer is then not
                        // complete, below).
                        debug_assert!(self.stopped, "a move reaches the value of the position");
                        0
                    }
                }
            }
            None => 0,
        };
        let mut best = vec![moves[first]];
        if all_best && complete {
            best.clear();
            for (i, &mv) in moves.iter().enumerate() {
                if i == first || self.reaches(pos, mv, value) {
                    best.push(mv);
                }
            }
        }
        best
    }

    /// Whether the root move `mv` reaches `value`.
    fn reaches(&mut self, pos: &G, mv: G::Move, value: i32) -> bool {
        let child = pos.play(mv);
        self.open_for(Self::threshold(pos.side_to_move(), value - 1));
        self.enter(pos, self.node_of(pos));
        let v = if child.side_to_move() == pos.side_to_move() {
            self.search(&child, value - 1, value, 1)
        } else {
            -self.search(&child, -value, -value + 1, 1)
        };
        self.leave();
        v >= value
    }

    /// Whether the graph's bounds alone prove that root move `i` reaches
    /// `value`.
    fn root_move_proven(&self, pos: &G, i: usize, value: i32) -> bool {
        self.bounds.root_moves.get(i).is_some_and(|&(lo, hi)| {
            if pos.side_to_move() == crate::game::Side::South {
                lo >= value
            } else {
                -hi >= value
            }
        })
    }
}

/// A first guess for MTD(f): alpha-beta to `depth` moves that scores the
/// banked margin at its leaves. A guess near the value saves the passes
/// that would climb to it one window at a time.
fn estimate<G: SolveGame>(pos: &G, depth: u32) -> i32 {
    fn ab<G: SolveGame>(pos: &G, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(o) = pos.outcome() {
            return margin(o, pos.side_to_move());
        }
        if depth == 0 {
            return pos.banked();
        }
        let mut moves = Vec::with_capacity(8);
        pos.legal_moves(&mut moves);
        let mut best = i32::MIN;
        for mv in moves {
            let child = pos.play(mv);
            let v = if child.side_to_move() == pos.side_to_move() {
                ab(&child, depth - 1, alpha, beta)
            } else {
                -ab(&child, depth - 1, -beta, -alpha)
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
    ab(pos, depth, i32::MIN + 1, i32::MAX)
}
