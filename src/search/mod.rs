//! Iterative deepening with principal-variation search over any [`Game`].
//!
//! The search knows no variant by name. What it relies on: the side to move
//! may stay the same after a move (the score is negated only when it changes,
//! and such a move costs no depth, which extends extra-turn chains to their
//! end); positions that can repeat are checked against the game's history and
//! scored by the variant's repetition rule; a score is "proven" when the tree
//! behind it reached no horizon, that is every line ended in a finished game.

pub mod bench;
pub mod book;
pub mod level;
mod settings;
pub mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game, Outcome, Side};
use crate::interrupt::Deadline;
pub use settings::{
    Exact, ExactFn, Probe, ProbeFn, ProgressFn, Report, SearchResult, Settings, Solved,
};
pub use time::{Clock, Limits};
use tt::{Bound, TranspositionTable, TtEntry};

/// Larger than any score.
pub const INF: i32 = 1_000_000_000;
/// A won game that is not decided by counting (Bao): `WIN - ply`.
pub const WIN: i32 = 100_000_000;
/// Deepest line the search follows (extra-turn chains included).
pub const MAX_PLY: usize = 512;
/// Deepest nominal depth of an iteration.
pub const MAX_DEPTH: u32 = 200;

/// What the search shares between its threads and with the protocol: the
/// table and the stop signal. `stop` belongs to the caller: set it to end a
/// search early, clear it before the next one. The search itself never
/// writes it (its own limits end it through a flag of its own). It is an
/// `Arc` because the search also hands it to [`crate::interrupt`], so that a
/// long computation inside the rules sees it too.
pub struct Shared {
    pub tt: TranspositionTable,
    pub stop: Arc<AtomicBool>,
    nodes: AtomicU64,
    tbhits: AtomicU64,
    /// The running search's hard deadline. A pondering search has none
    /// until `ponderhit`; it is set then, from the thread that read the
    /// command, and every search thread (and a long computation inside the
    /// rules, through [`crate::interrupt`]) sees it at once.
    deadline: Arc<Deadline>,
    /// When `ponderhit` came for the pondering search under way.
    ponderhit: Deadline,
}

impl Shared {
    pub fn new(hash_mib: usize) -> Arc<Shared> {
        Arc::new(Shared {
            tt: TranspositionTable::new(hash_mib),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            deadline: Arc::new(Deadline::default()),
            ponderhit: Deadline::default(),
        })
    }

    /// Before a pondering search starts: no `ponderhit` yet, no deadline.
    pub fn start_pondering(&self) {
        self.ponderhit.set(None);
        self.deadline.set(None);
    }

    /// `ponderhit`: the opponent played the expected move, so the
    /// pondering search (started with `limits`, `side` to move) becomes
    /// the timed search of its `go`, its clock counted from now. Its work
    /// so far is kept.
    pub fn ponderhit(&self, limits: &Limits, side: Side, overhead: Duration) {
        let now = Instant::now();
        let (_, hard) = limits.budget(side, overhead, now);
        self.deadline.set(hard);
        self.ponderhit.set(Some(now));
    }

    /// When `ponderhit` came, if it has.
    fn ponderhit_at(&self) -> Option<Instant> {
        self.ponderhit.get()
    }
}

/// The share of a move's soft time limit the exact solver may take before
/// the search gets the rest.
const EXACT_SHARE: u32 = 2;

/// The score of a finished game for `side`, `ply` moves from the root.
pub fn terminal_score(outcome: &Outcome, side: Side, ply: usize) -> i32 {
    match outcome.margin_for(side) {
        Some(m) => 100 * m,
        None => match outcome.result.winner() {
            Some(w) if w == side => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
            None => 0,
        },
    }
}

/// Decisive scores are stored relative to the node so that they stay right
/// wherever the position recurs in the tree.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - MAX_PLY as i32 {
        score + ply as i32
    } else if score < -(WIN - MAX_PLY as i32) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - MAX_PLY as i32 {
        score - ply as i32
    } else if score < -(WIN - MAX_PLY as i32) {
        score + ply as i32
    } else {
        score
    }
}

/// How many plies shallower the `k`-th move (from 0) of a node `depth`
/// deep is searched first: late moves of a well-ordered list rarely
/// matter, so they are looked at less deeply first. Extra turns are never
/// reduced.
#[inline(always)]
fn late_move_reduction<G: Game>(depth: i32, k: usize, same: bool) -> i32 {
    let (once, twice) = G::LATE_MOVES;
    if depth >= 3 && k >= once && !same {
        1 + (depth >= 6 && k >= twice) as i32
    } else {
        0
    }
}

struct RootMove<G: Game> {
    mv: G::Move,
    child: G,
    score: i32,
    previous: i32,
    pv: Vec<G::Move>,
}

/// One search thread.
struct Worker<'a, G: Game> {
    shared: &'a Shared,
    tablebase: Option<Probe<G>>,
    /// Set when this search is over: a limit was reached or the main thread
    /// finished (helpers then stop too).
    done: &'a Arc<AtomicBool>,
    eval: G::Eval,
    limits: &'a Limits,
    start: Instant,
    main: bool,
    /// Hashes of the game so far and of the current line (for repetitions).
    path: Vec<u64>,
    history: Vec<i32>,
    pv: Vec<Vec<G::Move>>,
    buffers: Vec<Vec<G::Move>>,
    children: Vec<Vec<(G, i32, u8)>>,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    /// Leaves cut by depth (or by an unproven table entry) so far.
    horizons: u64,
    aborted: bool,
    /// The best root move found so far in the iteration under way, with its
    /// score and line: a move that beat the first move's score at the new
    /// depth is better than what the last finished iteration knew.
    iter_best: Option<(i32, Vec<G::Move>)>,
    /// Whether an extra turn costs no depth ([`Game::free_extra_turns`]),
    /// for the rules of the root.
    free_extra: bool,
}

const HISTORY_SIZE: usize = 2048;

/// What every thread of one search shares.
struct Context<'a, G: Game> {
    shared: &'a Shared,
    done: &'a Arc<AtomicBool>,
    settings: &'a Settings<G>,
    limits: &'a Limits,
    start: Instant,
    /// Hashes of the game up to and including the root.
    history: &'a [u64],
}

impl<'a, G: Game> Worker<'a, G> {
    fn new(ctx: &Context<'a, G>, main: bool) -> Self {
        Worker {
            shared: ctx.shared,
            tablebase: ctx.settings.tablebase.clone(),
            done: ctx.done,
            eval: ctx.settings.eval,
            limits: ctx.limits,
            start: ctx.start,
            main,
            path: ctx.history.to_vec(),
            history: vec![0; 2 * HISTORY_SIZE],
            pv: vec![Vec::new(); MAX_PLY + 1],
            buffers: vec![Vec::new(); MAX_PLY + 1],
            children: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            horizons: 0,
            aborted: false,
            iter_best: None,
            free_extra: true,
        }
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
    }

    /// Arms this thread's [`crate::interrupt`] with the search's deadline and
    /// flags, so that a long computation inside the rules stops with it.
    fn arm(&self) -> crate::interrupt::Guard {
        crate::interrupt::arm_late(
            None,
            Some(self.shared.deadline.clone()),
            &[self.shared.stop.clone(), self.done.clone()],
        )
    }

    /// Whether the search is over, also because a call into the game was
    /// interrupted (its answer is then wrong and must not be used: every
    /// caller of the game checks this before using what it got).
    #[inline]
    fn interrupted(&mut self) -> bool {
        if !self.aborted && crate::interrupt::tripped() {
            self.aborted = true;
            if self.main {
                self.done.store(true, Ordering::Relaxed);
            }
        }
        self.aborted
    }

    fn check_limits(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        if self.main {
            let out_of_time = self
                .shared
                .deadline
                .get()
                .is_some_and(|d| Instant::now() >= d);
            let out_of_nodes = self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
            if out_of_time || out_of_nodes {
                self.done.store(true, Ordering::Relaxed);
            }
        }
        if self.done.load(Ordering::Relaxed) || self.shared.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
    }

    fn history_slot(side: Side, mv: &G::Move) -> usize {
        use std::hash::BuildHasher;
        let h = rustc_hash::FxBuildHasher.hash_one(mv);
        side.index() * HISTORY_SIZE + (h as usize & (HISTORY_SIZE - 1))
    }

    fn evaluate(&mut self, pos: &G) -> i32 {
        self.eval.evaluate(pos)
    }

    /// The score of `child` for the player who moved into it.
    fn child_score(
        &mut self,
        child: &G,
        same: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if same {
            self.negamax(child, depth, ply, alpha, beta)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha)
        }
    }

    /// Searches `child` with a null window first and again with the full one
    /// when it may improve alpha (principal-variation search). A late move
    /// is first searched `reduction` plies shallower; only if that beats
    /// alpha is it searched to full depth.
    #[allow(clippy::too_many_arguments)]
    fn pvs_child(
        &mut self,
        child: &G,
        same: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        first: bool,
        reduction: i32,
    ) -> i32 {
        if G::CAN_REPEAT {
            self.path.push(child.hash());
        }
        let score = if first {
            self.child_score(child, same, depth, ply, alpha, beta)
        } else {
            let mut s = alpha + 1;
            if reduction > 0 {
                s = self.child_score(child, same, depth - reduction, ply, alpha, alpha + 1);
            }
            if s > alpha && !self.interrupted() {
                s = self.child_score(child, same, depth, ply, alpha, alpha + 1);
            }
            if s > alpha && s < beta && !self.interrupted() {
                self.child_score(child, same, depth, ply, alpha, beta)
            } else {
                s
            }
        };
        if G::CAN_REPEAT {
            self.path.pop();
        }
        score
    }

    /// The score of `pos` for the side to move, searched `depth` plies deep
    /// in the window `(alpha, beta)`: the leaves and the table first, then
    /// the moves in order, the result kept in the table.
    fn negamax(&mut self, pos: &G, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if !self.enter(ply) {
            return 0;
        }
        if let Some(score) = self.leaf_score(pos, depth, ply) {
            return score;
        }
        // Near the leaves a table probe costs a cache miss to save a handful of
        // cheap nodes: measured on the bench, skipping it halves the time.
        let use_tt = depth > 2;
        let key = if use_tt { pos.hash() } else { 0 };
        let entry = if use_tt {
            self.shared.tt.probe(key)
        } else {
            None
        };
        if let Some(score) = self.tt_cutoff(entry, depth, ply, alpha, beta) {
            return score;
        }
        // Inside the tree the move list tells whether the game is over (it is
        // empty exactly then), which spares a second look at the rules.
        let moves = match self.node_moves(pos, ply) {
            Ok(moves) => moves,
            Err(score) => return score,
        };
        let mut children = std::mem::take(&mut self.children[ply]);
        self.order_children(pos, &moves, depth, entry, &mut children);
        if self.interrupted() {
            self.buffers[ply] = moves;
            self.children[ply] = children;
            return 0;
        }
        let horizons0 = self.horizons;
        let (best, best_index) =
            self.search_children(pos, &moves, &mut children, depth, ply, alpha, beta);
        self.buffers[ply] = moves;
        self.children[ply] = children;
        if self.interrupted() {
            return 0;
        }
        if use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                key,
                TtEntry {
                    score: to_tt(best, ply),
                    depth: depth.min(255) as u8,
                    bound,
                    proven: self.horizons == horizons0,
                    best: Some(best_index),
                },
            );
        }
        best
    }

    /// Counts a node at `ply` and looks at the limits now and then; `false`
    /// when the search is over.
    #[inline(always)]
    fn enter(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.check_limits();
        }
        if self.interrupted() {
            return false;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        true
    }

    /// The score of a node that is not searched: a repetition, a position
    /// of the endgame database, or the horizon (a finished game or the
    /// evaluation).
    #[inline(always)]
    fn leaf_score(&mut self, pos: &G, depth: i32, ply: usize) -> Option<i32> {
        let side = pos.side_to_move();
        // A repetition ends the game before anything else, as in GameRecord.
        if G::CAN_REPEAT
            && let Some((last, earlier)) = self.path.split_last()
            && earlier.contains(last)
            && let Some(o) = pos.repetition_outcome()
        {
            return Some(terminal_score(&o, side, ply));
        }
        if ply > 0
            && let Some(tb) = &self.tablebase
            && let Some(v) = (tb.score)(pos)
        {
            // Exact: no horizon behind it.
            self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
            return Some(v);
        }
        if depth <= 0 || ply >= MAX_PLY {
            if let Some(o) = pos.outcome() {
                return Some(terminal_score(&o, side, ply));
            }
            self.horizons += 1;
            return Some(self.evaluate(pos));
        }
        None
    }

    /// The table's score when its entry settles the node: deep enough, and
    /// exact or a bound outside the window (never at a PV node).
    #[inline(always)]
    fn tt_cutoff(
        &mut self,
        entry: Option<TtEntry>,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let e = entry?;
        let pv_node = beta - alpha > 1;
        if pv_node || (e.depth as i32) < depth {
            return None;
        }
        let s = from_tt(e.score, ply);
        let usable = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        if !usable {
            return None;
        }
        if !e.proven {
            self.horizons += 1;
        }
        Some(s)
    }

    /// The legal moves of `pos` in the buffer of `ply`; `Err` with the
    /// node's score when there are none (the game is over) or the rules
    /// were interrupted (the buffer is then given back).
    #[inline(always)]
    fn node_moves(&mut self, pos: &G, ply: usize) -> Result<Vec<G::Move>, i32> {
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        pos.legal_moves(&mut moves);
        if self.interrupted() {
            self.buffers[ply] = moves;
            return Err(0);
        }
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return Err(match pos.outcome() {
                Some(o) => terminal_score(&o, pos.side_to_move(), ply),
                None => self.evaluate(pos),
            });
        }
        Ok(moves)
    }

    /// Plays every move into `children` with its ordering key: the table's
    /// move first, then extra turns, the evaluation (not near the leaves)
    /// and the history.
    #[inline(always)]
    fn order_children(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        depth: i32,
        entry: Option<TtEntry>,
        children: &mut Vec<(G, i32, u8)>,
    ) {
        let side = pos.side_to_move();
        children.clear();
        let tt_best = entry.and_then(|e| e.best);
        for (i, &mv) in moves.iter().enumerate() {
            let child = pos.play(mv);
            let same = child.side_to_move() == side;
            let order = if tt_best == Some(i as u8) {
                INF
            } else {
                // Near the leaves the evaluation would be computed twice;
                // history and extra turns order well enough there.
                let e = if depth < 3 {
                    0
                } else if same {
                    self.eval.evaluate(&child)
                } else {
                    -self.eval.evaluate(&child)
                };
                e + if same { 10_000 } else { 0 } + self.history[Self::history_slot(side, &mv)]
            };
            children.push((child, order, i as u8));
        }
    }

    /// Searches the children best-ordered first until one fails high;
    /// gives the best score and the index of its move.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_children(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        children: &mut [(G, i32, u8)],
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let side = pos.side_to_move();
        let mut best = -INF;
        let mut best_index = 0u8;
        for k in 0..children.len() {
            let pick = (k..children.len())
                .max_by_key(|&j| children[j].1)
                .unwrap_or(k);
            children.swap(k, pick);
            let (child, _, index) = &children[k];
            let same = child.side_to_move() == side;
            let new_depth = if same && self.free_extra {
                depth
            } else {
                depth - 1
            };
            let child = child.clone();
            let index = *index;
            let reduction = late_move_reduction::<G>(depth, k, same);
            let score = self.pvs_child(
                &child,
                same,
                new_depth,
                ply + 1,
                alpha,
                beta,
                k == 0,
                reduction,
            );
            if self.interrupted() {
                break;
            }
            if score > best {
                best = score;
                best_index = index;
                if score > alpha {
                    alpha = score;
                    let mv = moves[index as usize];
                    self.update_pv(ply, mv);
                    if score >= beta {
                        self.reward_history(side, &mv, depth);
                        break;
                    }
                }
            }
        }
        (best, best_index)
    }

    /// The line of `ply`: `mv` and the line below it.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// A move that failed high is tried earlier next time; all the history
    /// is halved before its values grow out of scale with the evaluation.
    #[inline(always)]
    fn reward_history(&mut self, side: Side, mv: &G::Move, depth: i32) {
        let slot = Self::history_slot(side, mv);
        self.history[slot] += depth * depth;
        if self.history[slot] > 8_000 {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// Searches the root moves `from..` in a window; returns the best score.
    /// Moves that did not reach the window keep `-INF` so that sorting puts
    /// them after the real lines.
    fn search_root(
        &mut self,
        root: &G,
        moves: &mut [RootMove<G>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let side = root.side_to_move();
        let mut best = -INF;
        self.nodes += 1;
        self.free_extra = G::free_extra_turns(&root.rules());
        for (k, rm) in moves.iter_mut().enumerate() {
            let child = rm.child.clone();
            let same = child.side_to_move() == side;
            let new_depth = if same && self.free_extra {
                depth
            } else {
                depth - 1
            };
            let score = self.pvs_child(&child, same, new_depth, 1, alpha, beta, k == 0, 0);
            if self.interrupted() {
                break;
            }
            if k == 0 || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(rm.mv);
                rm.pv.extend_from_slice(&self.pv[1]);
                if score > alpha {
                    self.iter_best = Some((score, rm.pv.clone()));
                }
            } else {
                rm.score = -INF;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// Searches `root` (whose game went through the positions hashed in
/// `game_history`, the root last) within `limits`, calling `report` after each
/// iteration. Never returns `None` while the game goes on: if stopped at once
/// it plays the best-ordered legal move.
///
/// The limits hold wherever the search is, also inside a long call into the
/// game: every search thread arms [`crate::interrupt`] with the deadline,
/// `shared.stop` and the search's own end flag. If the root's moves are
/// interrupted, the first move known to be legal is played; only if none is
/// known yet are they made whole unarmed, since the answer must be legal.
pub fn search<G: Game>(
    root: &G,
    game_history: &[u64],
    limits: &Limits,
    settings: &Settings<G>,
    shared: &Shared,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    let start = limits.since.unwrap_or_else(Instant::now);
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tbhits.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    // A pondering search has no time limit until `ponderhit` sets one
    // (whose clock then starts); the caller cleared it before
    // (`Shared::start_pondering`), since `ponderhit` may come before this.
    let (soft, deadline) = if limits.ponder {
        (None, shared.deadline.get())
    } else {
        let (soft, deadline) = limits.budget(root.side_to_move(), settings.move_overhead, start);
        shared.deadline.set(deadline);
        (soft, deadline)
    };

    let mut moves = Vec::new();
    {
        let _armed = crate::interrupt::arm_late(
            deadline,
            Some(shared.deadline.clone()),
            std::slice::from_ref(&shared.stop),
        );
        root.legal_moves(&mut moves);
        if crate::interrupt::tripped() {
            // Out of time before the root's moves were all known: the first
            // one known to be legal, if any, is the answer.
            if let Some(&mv) = moves.first() {
                return SearchResult {
                    best: Some(mv),
                    score: 0,
                    proven: false,
                    depth: 0,
                    pv: vec![mv],
                    nodes: 0,
                    lines: Vec::new(),
                };
            }
        }
    }
    if moves.is_empty() {
        // Interrupted before any move was known: the answer must be a legal
        // move, so the list is made whole (and exact: unarmed).
        root.legal_moves(&mut moves);
    }
    // The list is empty exactly when the game is over (see `Game`).
    if moves.is_empty() {
        wait_for_the_word(limits, shared);
        return SearchResult {
            best: None,
            score: root
                .outcome()
                .map_or(0, |o| terminal_score(&o, root.side_to_move(), 0)),
            proven: true,
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
            lines: Vec::new(),
        };
    }
    // A won database position is played towards its capture: the search
    // then only chooses among the moves that get there soonest (and the
    // exact solver, which knows no distances, is not asked).
    let mut settled = false;
    if settings.multipv == 1
        && let Some(progress) = settings
            .tablebase
            .as_ref()
            .and_then(|t| t.progress.as_ref())
    {
        let all = moves.clone();
        settled = progress(root, &mut moves);
        if moves.is_empty() {
            moves = all;
        }
    }
    if !settled
        && let Some(result) = solve_first(root, limits, settings, shared, start, soft, report)
    {
        return result;
    }
    let mut history = game_history.to_vec();
    if history.last() != Some(&root.hash()) {
        history.push(root.hash());
    }
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);

    let done = Arc::new(AtomicBool::new(false));
    let ctx = Context {
        shared,
        done: &done,
        settings,
        limits,
        start,
        history: &history,
    };
    std::thread::scope(|scope| {
        for t in 1..settings.threads.max(1) {
            let moves = &moves;
            let ctx = &ctx;
            scope.spawn(move || {
                let mut w = Worker::<G>::new(ctx, false);
                let _armed = w.arm();
                let mut rms = root_moves(root, moves);
                // Helpers start one ply deeper every other thread, so that the
                // threads do not all walk the same tree in step.
                let mut depth = 1 + (t as u32 % 2);
                while depth <= max_depth && !w.aborted {
                    w.search_root(root, &mut rms, depth as i32, -INF, INF);
                    rms.sort_by_key(|r| -r.score);
                    depth += 1;
                }
                w.check_limits();
            });
        }
        let result = main_search(root, &moves, &ctx, max_depth, report);
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// Hands the root to the exact solver first, when there is one and the move
/// has a time limit (fixed depths and nodes stay plain searches, so that
/// they are repeatable), with a share of the soft limit; its answer, when
/// it settles the root, is the search's.
fn solve_first<G: Game>(
    root: &G,
    limits: &Limits,
    settings: &Settings<G>,
    shared: &Shared,
    start: Instant,
    soft: Option<Duration>,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> Option<SearchResult<G::Move>> {
    let exact = settings.exact.as_ref()?;
    let soft = soft.filter(|_| !limits.infinite && !limits.ponder && settings.multipv == 1)?;
    let solved = (exact.0)(root, start + soft / EXACT_SHARE, &shared.stop)?;
    report(&Report {
        depth: 1,
        seldepth: 1,
        multipv: 1,
        score: solved.score,
        bound: None,
        proven: true,
        nodes: solved.nodes,
        time: start.elapsed(),
        hashfull: 0,
        tbhits: 0,
        pv: vec![solved.best],
    });
    Some(SearchResult {
        best: Some(solved.best),
        score: solved.score,
        proven: true,
        depth: 1,
        pv: vec![solved.best],
        nodes: solved.nodes,
        lines: Vec::new(),
    })
}

fn root_moves<G: Game>(root: &G, moves: &[G::Move]) -> Vec<RootMove<G>> {
    moves
        .iter()
        .map(|&mv| RootMove {
            mv,
            child: root.play(mv),
            score: -INF,
            previous: -INF,
            pv: vec![mv],
        })
        .collect()
}

fn main_search<G: Game>(
    root: &G,
    moves: &[G::Move],
    ctx: &Context<'_, G>,
    max_depth: u32,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    let (settings, shared, limits, start) = (ctx.settings, ctx.shared, ctx.limits, ctx.start);
    let mut w = Worker::<G>::new(ctx, true);
    let _armed = w.arm();
    // Played (and ordered) armed: an interrupted child is never searched,
    // and the move itself is legal whatever its child says.
    let mut rms = root_moves(root, moves);
    // Order the first iteration by the static evaluation.
    let side = root.side_to_move();
    rms.sort_by_cached_key(|r| {
        let e = settings.eval.evaluate(&r.child);
        if r.child.outcome().is_some() {
            0
        } else if r.child.side_to_move() == side {
            -e - 10_000
        } else {
            e
        }
    });
    let multipv = settings.multipv.clamp(1, rms.len());
    let mut completed: Option<(u32, i32, Vec<G::Move>)> = None;
    let mut lines = Vec::new();
    let mut root_proven = false;

    for depth in 1..=max_depth {
        w.seldepth = 0;
        w.iter_best = None;
        let h0 = w.horizons;
        for pv_index in 0..multipv {
            let prev = rms[pv_index].previous;
            let mut delta = 40;
            let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < WIN / 2 {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
            loop {
                let score = w.search_root(root, &mut rms[pv_index..], depth as i32, alpha, beta);
                if w.interrupted() {
                    break;
                }
                rms[pv_index..].sort_by_key(|r| -r.score);
                let bound = if score <= alpha {
                    Some(Bound::Upper)
                } else if score >= beta {
                    Some(Bound::Lower)
                } else {
                    None
                };
                if bound.is_some() && start.elapsed() > Duration::from_secs(1) {
                    report(&make_report(
                        &w,
                        shared,
                        depth,
                        pv_index,
                        &rms[pv_index],
                        bound,
                    ));
                }
                match bound {
                    Some(Bound::Upper) => alpha = (score - delta).max(-INF),
                    Some(Bound::Lower) => beta = (score + delta).min(INF),
                    _ => break,
                }
                delta *= 3;
                if delta > 5_000 {
                    alpha = -INF;
                    beta = INF;
                }
            }
            if w.aborted {
                break;
            }
        }
        if w.aborted && completed.is_some() {
            // Stopped inside an iteration: a move that already beat the
            // previous best at the new depth is the better choice.
            if multipv == 1
                && let Some((score, pv)) = w.iter_best.take()
                && let Some(c) = completed.as_mut()
            {
                *c = (c.0, score, pv);
            }
            break;
        }
        if w.aborted {
            // Not even depth 1 finished: the ordering's best move it is.
            break;
        }
        root_proven = w.horizons == h0;
        for r in rms.iter_mut() {
            r.previous = r.score;
        }
        for (i, r) in rms.iter().take(multipv).enumerate() {
            let mut line = make_report(&w, shared, depth, i, r, None);
            line.proven = root_proven;
            report(&line);
        }
        completed = Some((depth, rms[0].score, rms[0].pv.clone()));
        lines = rms
            .iter()
            .take(multipv)
            .map(|r| (r.score, r.pv.clone()))
            .collect();
        if !limits.infinite {
            if root_proven || depth == max_depth && limits.depth.is_some() {
                break;
            }
            if soft_reached(limits, shared, settings, root.side_to_move(), start) {
                break;
            }
        }
    }
    wait_for_the_word(limits, shared);
    w.check_limits();
    let nodes = w.total_nodes();
    match completed {
        Some((depth, score, pv)) => SearchResult {
            best: pv.first().copied(),
            score,
            proven: root_proven,
            depth,
            pv,
            nodes,
            lines,
        },
        None => SearchResult {
            best: Some(rms[0].mv),
            score: 0,
            proven: false,
            depth: 0,
            pv: vec![rms[0].mv],
            nodes,
            lines,
        },
    }
}

/// When the soft limit of a search started at `start` passes (no new
/// iteration after it): counted from `start`, or for a pondering search
/// from `ponderhit` (`None` before it, and where nothing limits the time).
pub(crate) fn soft_deadline(
    limits: &Limits,
    shared: &Shared,
    side: Side,
    overhead: Duration,
    start: Instant,
) -> Option<Instant> {
    if limits.infinite {
        return None;
    }
    let from = if limits.ponder {
        shared.ponderhit_at()?
    } else {
        start
    };
    let (soft, _) = limits.budget(side, overhead, from);
    soft.map(|s| from + s)
}

/// Whether the soft limit has passed ([`soft_deadline`]).
fn soft_reached<G: Game>(
    limits: &Limits,
    shared: &Shared,
    settings: &Settings<G>,
    side: Side,
    start: Instant,
) -> bool {
    soft_deadline(limits, shared, side, settings.move_overhead, start)
        .is_some_and(|d| Instant::now() >= d)
}

/// The opponent's expected reply to `best`, for `bestmove … ponder`: the
/// line's second move when the line starts with `best`, else the table's
/// best move in the position after it. `None` where `best` keeps the turn
/// (the engine moves again: there is no opponent's time to ponder on) or
/// ends the game, or nothing is known.
pub fn ponder_move<G: Game>(
    root: &G,
    best: G::Move,
    pv: &[G::Move],
    shared: &Shared,
) -> Option<G::Move> {
    let child = root.play(best);
    if child.side_to_move() == root.side_to_move() || child.outcome().is_some() {
        return None;
    }
    if pv.len() >= 2 && pv[0] == best {
        return Some(pv[1]);
    }
    let index = shared.tt.probe(child.hash())?.best?;
    let mut moves = Vec::new();
    child.legal_moves(&mut moves);
    moves.get(index as usize).copied()
}

/// A search that may not answer by itself waits here with its answer:
/// `go infinite` until `stop`, `go ponder` until `stop` or `ponderhit`
/// (after which the answer is due at once, the search being over).
pub fn wait_for_the_word(limits: &Limits, shared: &Shared) {
    let waits = |s: &Shared| {
        if limits.infinite {
            true
        } else {
            limits.ponder && s.ponderhit_at().is_none()
        }
    };
    while waits(shared) && !shared.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn make_report<G: Game>(
    w: &Worker<G>,
    shared: &Shared,
    depth: u32,
    pv_index: usize,
    rm: &RootMove<G>,
    bound: Option<Bound>,
) -> Report<G::Move> {
    Report {
        depth,
        seldepth: w.seldepth.max(1) as u32,
        multipv: pv_index + 1,
        score: rm.score,
        bound,
        proven: false,
        nodes: w.total_nodes(),
        time: w.start.elapsed(),
        hashfull: shared.tt.hashfull(),
        tbhits: shared.tbhits.load(Ordering::Relaxed),
        pv: rm.pv.clone(),
    }
}

#[cfg(test)]
mod tests;
