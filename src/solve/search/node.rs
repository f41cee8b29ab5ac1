//! The alpha-beta search of one node to the end of the game: where the game
//! ends (a finished game, a repetition), what ends the node before any move
//! is searched (futility, the database, the graph's and the table's bounds,
//! an open component's own games), then its moves in order and what the
//! table keeps of it.

use super::busy::DEFER_PLIES;
use super::key::Line;
use super::searcher::{Child, Searcher};
use crate::game::{Side, SolveGame};
use crate::solve::margin;

/// What [`Searcher::search_at`] knows of its node once it has read the
/// line, for the parts of its search.
#[derive(Clone, Copy)]
pub(super) struct At {
    /// The node's position in the graph, where the graph is built.
    pub(super) node: Option<usize>,
    pub(super) side: Side,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) ply: usize,
    /// The margin banked so far (side to move's view) and the seeds still
    /// in play, which bound what is left.
    pub(super) banked: i32,
    pub(super) spread: i32,
    /// The node's group for the repetition rule ([`Searcher::group`]).
    pub(super) group: u32,
    /// The threshold (South's view) a null-window node tests.
    pub(super) t: Option<i32>,
    /// What of the line the node's table key holds, and the key.
    pub(super) line: Line,
    pub(super) key: u64,
}

impl<'a, G: SolveGame> Searcher<'a, G> {
    /// Fail-soft alpha-beta to the end of the game. Returns the value (side
    /// to move's view) given the line that led here: the table is keyed on
    /// the position and the positions of the line it could still repeat.
    pub(super) fn search(&mut self, pos: &G, alpha: i32, beta: i32, ply: usize) -> i32 {
        let node = if G::CAN_REPEAT {
            self.node_of(pos)
        } else {
            None
        };
        self.search_at(pos, node, alpha, beta, ply)
    }

    /// [`Searcher::search`] of a position whose graph node (where the
    /// graph is built) the caller knows: a child's is read off its parent's
    /// moves, a look-up in the graph's index less per node.
    pub(super) fn search_at(
        &mut self,
        pos: &G,
        node: Option<usize>,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.stopped {
            return alpha;
        }
        if self.nodes & 0x3FF == 0 && self.should_stop() {
            self.stopped = true;
            return alpha;
        }
        self.nodes += 1;
        if self.nodes & 0xF_FFFF == 0 && self.progress.is_some() && self.reports.due() {
            self.report(false);
        }
        if let Some(value) = self.game_end(pos, node, ply) {
            return value;
        }
        let side = pos.side_to_move();
        let banked = pos.banked();
        let spread = pos.seeds_in_play() as i32;
        let group = if G::CAN_REPEAT {
            self.group(pos, node)
        } else {
            0
        };
        let t = (beta == alpha + 1).then(|| Self::threshold(side, alpha));
        let line = if G::CAN_REPEAT {
            self.line_at(node, group, t)
        } else {
            Line::Empty
        };
        if ply > 0
            && let Some(value) = self.cut_early(pos, alpha, beta, banked, spread)
        {
            return value;
        }
        let at = At {
            node,
            side,
            alpha,
            beta,
            ply,
            banked,
            spread,
            group,
            t,
            line,
            key: line.key(pos.solve_key()),
        };
        let (lo, hi, tt_move) = self.known_bounds(&at);
        if ply > 0 {
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
        }
        let nodes_before = self.nodes;
        if ply > 0
            && let Some(value) = self.decided_by_residual(&at)
        {
            return value;
        }
        self.search_moves(pos, &at, tt_move, nodes_before)
    }

    /// The value of a node where the game ends: a finished game, or, below
    /// the root, a position already on the line, which ends it by
    /// repetition.
    fn game_end(&self, pos: &G, node: Option<usize>, ply: usize) -> Option<i32> {
        let side = pos.side_to_move();
        if let Some(o) = pos.outcome() {
            return Some(margin(o, side));
        }
        if G::CAN_REPEAT && ply > 0 {
            let repeated = match node {
                Some(v) => self.on_line[v],
                None => {
                    let h = pos.hash();
                    self.history.iter().any(|&(x, _)| x == h)
                }
            };
            if repeated {
                // A game without a repetition rule (En Dodoi) could go round
                // for ever: endless play shares the seeds left, the databases'
                // convention.
                let value = pos
                    .repetition_outcome()
                    .map_or(pos.banked(), |o| margin(o, side));
                return Some(value);
            }
        }
        None
    }

    /// A value that ends a node below the root before its table entry is
    /// read: the seeds in play cannot carry the value across the window
    /// (futility), or the database has the position.
    fn cut_early(
        &mut self,
        pos: &G,
        alpha: i32,
        beta: i32,
        banked: i32,
        spread: i32,
    ) -> Option<i32> {
        // Futility: the seeds in play cannot carry the value across the
        // window.
        if banked + spread <= alpha {
            return Some(banked + spread);
        }
        if banked - spread >= beta {
            return Some(banked - spread);
        }
        if let Some(tb) = self.sh.tb
            && let Some(v) = tb.probe(pos)
        {
            self.tbhits += 1;
            return Some(banked + v);
        }
        None
    }

    /// Bounds (side to move's view) on the node's value from the seeds in
    /// play, the graph and the table, and the table's move.
    fn known_bounds(&self, at: &At) -> (i32, i32, Option<usize>) {
        let (alpha, beta, banked, spread) = (at.alpha, at.beta, at.banked, at.spread);
        let mut tt_move = None;
        let (mut lo, mut hi) = (banked - spread, banked + spread);
        if let Some(v) = at.node {
            let (l, h) = self.graph_bounds(v, at.side, at.line);
            lo = lo.max(l);
            hi = hi.min(h);
        }
        if let Some(p) = self.sh.tt.probe(at.key) {
            if at.line.only_threshold() {
                // Only whether the value reaches the window holds here.
                if p.lo + banked >= beta {
                    lo = lo.max(beta);
                }
                if p.hi + banked <= alpha {
                    hi = hi.min(alpha);
                }
            } else {
                lo = lo.max(p.lo + banked);
                hi = hi.min(p.hi + banked);
            }
            tt_move = p.mv;
        }
        (lo, hi, tt_move)
    }

    /// Below a line of open positions, the answer of the node's open
    /// component's own games where they decide it ([`Searcher::residual`]):
    /// `beta` if the side to move reaches the window, else `alpha`, kept in
    /// the table as only that answer.
    fn decided_by_residual(&mut self, at: &At) -> Option<i32> {
        let (Line::Open(_, t), Some(v)) = (at.line, at.node) else {
            return None;
        };
        let south_wins = self.residual(v, t, at.ply)?;
        let wins = south_wins == (at.side == Side::South);
        let value = if wins { at.beta } else { at.alpha };
        if wins {
            self.sh
                .tt
                .store(at.key, at.beta - at.banked, i32::MAX, None, 1);
        } else {
            self.sh
                .tt
                .store(at.key, i32::MIN, at.alpha - at.banked, None, 1);
        }
        Some(value)
    }

    /// Searches the node's moves: a child the table already proves good
    /// enough ends it at once ([`Searcher::transposition_cut`]), else the
    /// children are searched in order ([`Searcher::order_children`]) and
    /// the value is kept in the table. `nodes_before` is the node count
    /// before the node's own work, which the table weighs its entry by.
    fn search_moves(&mut self, pos: &G, at: &At, tt_move: Option<usize>, nodes_before: u64) -> i32 {
        let ply = at.ply;
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Default::default);
        }
        let (mut moves, mut children, mut deferred) = std::mem::take(&mut self.buffers[ply]);
        pos.legal_moves(&mut moves);
        self.order_children(pos, at, tt_move, &moves, &mut children);
        if ply > 0
            && at.spread as u32 >= self.sh.etc_min_seeds
            && let Some((v, i)) = self.transposition_cut(pos, at, &children)
        {
            let stored = if at.line.only_threshold() { at.beta } else { v };
            self.sh
                .tt
                .store(at.key, stored - at.banked, i32::MAX, Some(i), 1);
            self.buffers[ply] = (moves, children, deferred);
            return v;
        }
        children.sort_by_key(|c| std::cmp::Reverse(c.order));
        self.enter(pos, at.node);
        let (best, best_move) = self.search_children(&children, &mut deferred, at);
        self.leave();
        self.buffers[ply] = (moves, children, deferred);
        if self.stopped {
            // A value of a pass given up is no bound at all.
            return at.alpha;
        }
        if ply == 0 && best >= at.beta {
            self.root_best = best_move;
        }
        self.store(at, best, best_move, self.nodes - nodes_before);
        best
    }

    /// The alpha-beta loop over the children, in order, until one reaches
    /// `beta`: the best value and the index of its move.
    fn search_children(
        &mut self,
        children: &[Child<G>],
        deferred: &mut Vec<usize>,
        at: &At,
    ) -> (i32, Option<usize>) {
        let sh = self.sh;
        let (side, beta, ply) = (at.side, at.beta, at.ply);
        let defer = sh.threads > 1 && ply < DEFER_PLIES;
        deferred.clear();
        let mut best = i32::MIN;
        let mut best_move = None;
        let mut a = at.alpha;
        let (mut next, mut next_deferred, mut searched) = (0, 0, 0);
        loop {
            // Every child in order, except that one another thread is
            // searching waits (the first never does) until all the others
            // are done.
            let j = if next < children.len() {
                next += 1;
                let j = next - 1;
                if defer && j > 0 && sh.busy.is_busy(children[j].pos.solve_key()) {
                    deferred.push(j);
                    continue;
                }
                j
            } else if next_deferred < deferred.len() {
                next_deferred += 1;
                deferred[next_deferred - 1]
            } else {
                break;
            };
            let child = &children[j];
            searched += 1;
            if ply == 0 {
                self.root_moves = (searched, children.len());
            }
            let busy_key = child.pos.solve_key();
            if defer {
                sh.busy.enter(busy_key);
            }
            let v = if child.pos.side_to_move() == side {
                self.search_at(&child.pos, child.node, a, beta, ply + 1)
            } else {
                -self.search_at(&child.pos, child.node, -beta, -a, ply + 1)
            };
            if defer {
                sh.busy.leave(busy_key);
            }
            if v > best {
                best = v;
                best_move = Some(child.index);
                if v > a {
                    a = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        (best, best_move)
    }

    /// Keeps the node's value in the table, weighed by the `work` it took.
    /// The key holds the positions this one could repeat, so the value
    /// holds wherever the key comes back (under `Line::Open` only as an
    /// answer to the pass's question).
    fn store(&self, at: &At, best: i32, best_move: Option<usize>, work: u64) {
        let (alpha, beta, banked, key) = (at.alpha, at.beta, at.banked, at.key);
        let tt = &self.sh.tt;
        if at.line.only_threshold() {
            if best >= beta {
                tt.store(key, beta - banked, i32::MAX, best_move, work);
            } else {
                tt.store(key, i32::MIN, alpha - banked, best_move, work);
            }
        } else if best >= beta {
            tt.store(key, best - banked, i32::MAX, best_move, work);
        } else if best <= alpha {
            tt.store(key, i32::MIN, best - banked, best_move, work);
        } else {
            tt.store(key, best - banked, best - banked, best_move, work);
        }
    }
}
