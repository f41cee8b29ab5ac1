//! MTD(f) over null-window alpha-beta searches that run to the end of the
//! game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::graph::{Graph, GraphError, line_bounds};
use super::tt::Tt;
use super::{SolveGame, Tablebase, margin};

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The first guess of MTD(f); a good guess saves passes.
    pub guess: Option<i32>,
    /// Also test every other root move and list all that reach the value.
    pub all_best: bool,
    /// Enhanced transposition cutoffs (look the children up in the table
    /// before searching any of them) at nodes with at least this many seeds
    /// in play; `u32::MAX` turns them off.
    pub etc_min_seeds: u32,
    /// Depth (in moves) of the quick search that makes the first guess
    /// when `guess` is not given.
    pub guess_depth: u32,
    /// Time between progress reports inside a long pass.
    pub report_every: Duration,
    /// Set by someone else to give up (the protocol's `stop`): the result is
    /// then marked incomplete.
    pub stop: Option<Arc<AtomicBool>>,
    /// The positions of the game before the one solved, oldest first, as
    /// (hash, seeds in play): the repetition rule looks back at them (a
    /// split solve's job carries the line from the split's root).
    pub history: Vec<(u64, u32)>,
    /// For games whose positions repeat: the most positions reachable from
    /// the root for which the solver first builds their graph
    /// ([`super::graph`]), to key its table on less of the line or, where
    /// every cycle pays the same, to solve without searching; 0 never
    /// builds one.
    pub graph_budget: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            hash_mb: 512,
            guess: None,
            all_best: false,
            etc_min_seeds: 8,
            guess_depth: 12,
            report_every: Duration::from_secs(10),
            stop: None,
            history: Vec::new(),
            graph_budget: 4_000_000,
        }
    }
}

/// A progress report: after each MTD(f) pass, and now and then inside one.
#[derive(Clone, Debug)]
pub struct SolveProgress {
    /// The pass (1-based).
    pub pass: u32,
    /// The null window `[beta-1, beta]` of the pass.
    pub beta: i32,
    /// What is proven so far: `lower <= value <= upper` (side to move).
    pub lower: i32,
    pub upper: i32,
    /// `false` for a report from inside a pass.
    pub pass_done: bool,
    pub nodes: u64,
    /// Positions whose value came from a database.
    pub tbhits: u64,
    /// The root moves of the pass searched so far (the one under way
    /// included) and all of them: how far a long pass has got.
    pub root_moves: (usize, usize),
    pub elapsed: Duration,
}

/// The solution of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult<M> {
    /// The final margin with perfect play, from the side to move's view.
    pub value: i32,
    /// A best move; with [`SolveOptions::all_best`] every move that reaches
    /// the value, in the order of the legal moves. Empty if the game is over.
    pub best: Vec<M>,
    pub nodes: u64,
    pub tbhits: u64,
    /// False when [`SolveOptions::stop`] ended the solve early: `value` is
    /// then only the best estimate so far and `best` a reasonable move.
    pub complete: bool,
}

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
    let mut s = Searcher {
        tt: Tt::new(opts.hash_mb),
        tb: tablebase,
        graph: None,
        entry_bounds: (Vec::new(), Vec::new()),
        root_move_bounds: Vec::new(),
        history: opts.history.clone(),
        line_pay: Vec::new(),
        nodes: 0,
        tbhits: 0,
        etc_min_seeds: opts.etc_min_seeds,
        start: Instant::now(),
        last_report: Instant::now(),
        report_every: opts.report_every,
        pass: 0,
        beta: 0,
        lower: 0,
        upper: 0,
        progress,
        root_best: None,
        root_moves: (0, 0),
        buffers: Vec::new(),
        stop: opts.stop.clone(),
        stopped: false,
    };
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
        };
    }
    // A solve that starts after a line (a split solve's job) keys on seeds
    // in play, as that line was recorded, and cannot use the graph's
    // history-free answers.
    if G::CAN_REPEAT && tablebase.is_none() && opts.graph_budget > 0 && opts.history.is_empty() {
        let stop = || {
            opts.stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        };
        match Graph::build(pos, opts.graph_budget, &stop) {
            Ok(graph) if graph.cycles_pay_constant() => {
                return solve_by_graph(pos, &graph, &moves, opts, &mut s);
            }
            Ok(graph) => {
                s.entry_bounds = graph.repetition_bounds();
                s.root_move_bounds = graph.root_move_bounds(&s.entry_bounds.0, &s.entry_bounds.1);
                s.graph = Some(graph);
            }
            Err(GraphError::Stopped) => {
                s.stopped = true;
            }
            Err(GraphError::TooLarge | GraphError::Collision) => {}
        }
    }
    let spread = pos.seeds_in_play() as i32;
    let banked = pos.banked();
    s.lower = banked - spread;
    s.upper = banked + spread;
    if let Some((lo, hi)) = s.entry_bounds(pos) {
        s.lower = s.lower.max(lo);
        s.upper = s.upper.min(hi);
    }
    let mut g = opts
        .guess
        .unwrap_or_else(|| estimate(pos, opts.guess_depth))
        .clamp(s.lower, s.upper);
    let mut best = None;
    while s.lower < s.upper {
        let beta = if g == s.lower { g + 1 } else { g };
        s.pass += 1;
        s.beta = beta;
        s.root_best = None;
        let v = s.search(pos, beta - 1, beta, 0);
        if s.stopped {
            break;
        }
        if v < beta {
            s.upper = v;
        } else {
            s.lower = v;
            best = s.root_best;
        }
        if G::MARGIN_PARITY {
            // Values of the wrong parity cannot occur: skip the passes
            // that would test them.
            let odd = (banked + spread).rem_euclid(2);
            if (s.lower - odd).rem_euclid(2) != 0 {
                s.lower += 1;
            }
            if (s.upper - odd).rem_euclid(2) != 0 {
                s.upper -= 1;
            }
        }
        g = v;
        s.report(true);
    }
    let complete = !s.stopped;
    let value = if complete {
        s.lower
    } else {
        g.clamp(s.lower, s.upper)
    };
    // No pass failed high: either every move reached only the lowest
    // possible value (any is best), or the graph's bounds decided the value
    // before any pass (then a move that reaches it is looked for).
    let first = match best {
        Some(i) => i,
        None if complete && value > banked - spread => (0..moves.len())
            .find(|&i| s.root_move_proven(pos, i, value))
            .or_else(|| (0..moves.len()).find(|&i| s.reaches(pos, moves[i], value)))
            .expect("a move reaches the value of the position"),
        None => 0,
    };
    let mut best = vec![moves[first]];
    if opts.all_best && complete {
        best.clear();
        for (i, &mv) in moves.iter().enumerate() {
            if i == first || s.reaches(pos, mv, value) {
                best.push(mv);
            }
        }
    }
    SolveResult {
        value,
        best,
        nodes: s.nodes,
        tbhits: s.tbhits,
        complete,
    }
}

/// Solves `pos` on its graph when every cycle pays the same (see
/// [`super::graph`]): the root's value is that of the endless game, and a
/// root move's is the same game's with the root already played (a sink that
/// ends the game by repetition).
fn solve_by_graph<G: SolveGame>(
    pos: &G,
    graph: &Graph<G>,
    moves: &[G::Move],
    opts: &SolveOptions,
    s: &mut Searcher<'_, G>,
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
    s.nodes = graph.nodes.len() as u64;
    s.pass = 1;
    s.lower = value;
    s.upper = value;
    s.beta = value;
    s.report(true);
    SolveResult {
        value,
        best,
        nodes: s.nodes,
        tbhits: 0,
        complete: true,
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

struct Searcher<'a, G: SolveGame> {
    tt: Tt,
    tb: Option<&'a dyn Tablebase<G>>,
    /// The positions reachable from the root and their components, when
    /// built: a line's positions in other components than the current
    /// position's can never recur.
    graph: Option<Graph<G>>,
    /// Bounds (South's view) on the value of each node of the graph for a
    /// line that holds nothing of its component
    /// ([`Graph::repetition_bounds`]).
    entry_bounds: (Vec<i32>, Vec<i32>),
    /// Bounds (South's view) on the value of each root move, in the order
    /// of the legal moves, for the line that holds only the root
    /// ([`Graph::root_move_bounds`]).
    root_move_bounds: Vec<(i32, i32)>,
    /// Hashes of the positions on the line searched, with their group (the
    /// component, or without a graph the seeds in play), for the
    /// repetition rule.
    history: Vec<(u64, u32)>,
    /// With a graph, what a repetition of each position of the line since
    /// the graph's root pays (South's view): the latest entries of
    /// `history`, with its node, for the bounds below a line
    /// ([`line_bounds`]).
    line_pay: Vec<(u32, i32)>,
    nodes: u64,
    tbhits: u64,
    etc_min_seeds: u32,
    start: Instant,
    last_report: Instant,
    report_every: Duration,
    pass: u32,
    beta: i32,
    lower: i32,
    upper: i32,
    progress: &'a mut dyn FnMut(&SolveProgress),
    /// The root move that failed high in the current pass.
    root_best: Option<usize>,
    /// See [`SolveProgress::root_moves`].
    root_moves: (usize, usize),
    /// Move and child lists per ply, reused so that nodes do not allocate.
    buffers: Vec<Buffers<G>>,
    stop: Option<Arc<AtomicBool>>,
    /// Once set, every node returns at once and the pass is thrown away.
    stopped: bool,
}

type Buffers<G> = (Vec<<G as crate::game::Game>::Move>, Vec<(G, i32, usize)>);

impl<G: SolveGame> Searcher<'_, G> {
    fn report(&mut self, pass_done: bool) {
        self.last_report = Instant::now();
        (self.progress)(&SolveProgress {
            pass: self.pass,
            beta: self.beta,
            lower: self.lower,
            upper: self.upper,
            pass_done,
            nodes: self.nodes,
            tbhits: self.tbhits,
            root_moves: self.root_moves,
            elapsed: self.start.elapsed(),
        });
    }

    /// Whether the root move `mv` reaches `value`.
    fn reaches(&mut self, pos: &G, mv: G::Move, value: i32) -> bool {
        let child = pos.play(mv);
        self.enter(pos);
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
        self.root_move_bounds.get(i).is_some_and(|&(lo, hi)| {
            if pos.side_to_move() == crate::game::Side::South {
                lo >= value
            } else {
                -hi >= value
            }
        })
    }

    fn enter(&mut self, pos: &G) {
        if G::CAN_REPEAT {
            self.history.push((pos.hash(), self.group(pos)));
            if let Some(g) = &self.graph {
                let v = self.node(g, pos);
                self.line_pay.push((v as u32, g.repetition_south(v)));
            }
        }
    }

    /// The part of the line a position could still repeat is the line's
    /// latest run of positions in the same group as it: its component of
    /// the graph, or without a graph its seeds in play (a capture takes
    /// seeds out of play for good, so nothing before it recurs).
    fn group(&self, pos: &G) -> u32 {
        match &self.graph {
            Some(g) => g.comp[self.node(g, pos)],
            None => pos.seeds_in_play(),
        }
    }

    fn node(&self, g: &Graph<G>, pos: &G) -> usize {
        g.node_of(pos)
            .expect("the graph holds every position reachable from the root") as usize
    }

    /// Bounds (side to move's view) on the value of a position whose line
    /// holds nothing of its component, where the graph is built.
    fn entry_bounds(&self, pos: &G) -> Option<(i32, i32)> {
        let g = self.graph.as_ref()?;
        let v = self.node(g, pos);
        let (lo, hi) = (self.entry_bounds.0[v], self.entry_bounds.1[v]);
        Some(if pos.side_to_move() == crate::game::Side::South {
            (lo, hi)
        } else {
            (-hi, -lo)
        })
    }

    /// The positions on the line before a position of `group` that it could
    /// still repeat, folded into one word (XOR: they are a set, each
    /// position occurs at most once on a line). The value of a position
    /// depends on exactly this set, so it is part of the key.
    fn repeatable(&self, group: u32) -> u64 {
        let mut set = 0;
        for &(h, g) in self.history.iter().rev() {
            if g != group {
                break;
            }
            set ^= h;
        }
        set
    }

    fn leave(&mut self) {
        if G::CAN_REPEAT {
            self.history.pop();
            if self.graph.is_some() {
                self.line_pay.pop();
            }
        }
    }

    /// [`Searcher::entry_bounds`] of a position whose line holds positions
    /// of its component (`group`, `set` not 0): what the line's latest run
    /// in that component could pay by repeating widens them.
    fn graph_bounds(&self, pos: &G, group: u32, set: u64) -> Option<(i32, i32)> {
        if set == 0 {
            return self.entry_bounds(pos);
        }
        let g = self.graph.as_ref()?;
        let v = self.node(g, pos);
        if self.line_pay.len() == 1 {
            // A root move, its own line.
            let (lo, hi) = g
                .children(0)
                .iter()
                .position(|&w| w as usize == v)
                .map(|i| self.root_move_bounds[i])
                .expect("a position after one move is a root move");
            return Some(if pos.side_to_move() == crate::game::Side::South {
                (lo, hi)
            } else {
                (-hi, -lo)
            });
        }
        let run = self
            .history
            .iter()
            .rev()
            .zip(self.line_pay.iter().rev())
            .take_while(|&(&(_, c), _)| c == group)
            .count();
        let (lo, hi) = line_bounds(
            &self.entry_bounds.0,
            &self.entry_bounds.1,
            v,
            &self.line_pay[self.line_pay.len() - run..],
        );
        Some(if pos.side_to_move() == crate::game::Side::South {
            (lo, hi)
        } else {
            (-hi, -lo)
        })
    }

    /// Fail-soft alpha-beta to the end of the game. Returns the value (side
    /// to move's view) given the line that led here: the table is keyed on
    /// the position and the positions of the line it could still repeat.
    fn search(&mut self, pos: &G, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.stopped {
            return alpha;
        }
        if self.nodes & 0xFFF == 0
            && let Some(stop) = &self.stop
            && stop.load(Ordering::Relaxed)
        {
            self.stopped = true;
            return alpha;
        }
        self.nodes += 1;
        if self.nodes & 0xF_FFFF == 0 && self.last_report.elapsed() >= self.report_every {
            self.report(false);
        }
        let side = pos.side_to_move();
        if let Some(o) = pos.outcome() {
            return margin(o, side);
        }
        if G::CAN_REPEAT && ply > 0 {
            let h = pos.hash();
            if self.history.iter().any(|&(x, _)| x == h) {
                // A game without a repetition rule (En Dodoi) could go round
                // for ever: endless play shares the seeds left, the databases'
                // convention.
                let value = pos
                    .repetition_outcome()
                    .map_or(pos.banked(), |o| margin(o, side));
                return value;
            }
        }
        let banked = pos.banked();
        let spread = pos.seeds_in_play() as i32;
        let group = if G::CAN_REPEAT { self.group(pos) } else { 0 };
        let set = if G::CAN_REPEAT {
            self.repeatable(group)
        } else {
            0
        };
        if ply > 0 {
            // Futility: the seeds in play cannot carry the value across the
            // window.
            if banked + spread <= alpha {
                return banked + spread;
            }
            if banked - spread >= beta {
                return banked - spread;
            }
            if let Some(tb) = self.tb
                && let Some(v) = tb.probe(pos)
            {
                self.tbhits += 1;
                return banked + v;
            }
        }
        let key = with_set(pos.solve_key(), set);
        let mut tt_move = None;
        let (mut lo, mut hi) = (banked - spread, banked + spread);
        if G::CAN_REPEAT
            && let Some((l, h)) = self.graph_bounds(pos, group, set)
        {
            lo = lo.max(l);
            hi = hi.min(h);
        }
        if let Some(p) = self.tt.probe(key) {
            lo = lo.max(p.lo + banked);
            hi = hi.min(p.hi + banked);
            tt_move = p.mv;
        }
        if ply > 0 {
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
        }
        let nodes_before = self.nodes;

        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Default::default);
        }
        let (mut moves, mut children) = std::mem::take(&mut self.buffers[ply]);
        pos.legal_moves(&mut moves);
        children.clear();
        for (i, &mv) in moves.iter().enumerate() {
            let child = pos.play(mv);
            // Start the database reads of the children now, so that their
            // cache misses overlap with each other and with this node's
            // work. (Prefetching their table entries too measured slower:
            // ETC reads those at once anyway.)
            if let Some(tb) = self.tb
                && child.outcome().is_none()
            {
                tb.prefetch(&child);
            }
            let same = child.side_to_move() == side;
            // Extra turns first, then by what the move banks at once.
            let gain = if same {
                child.banked() - banked + 1000
            } else {
                -child.banked() - banked
            };
            let order = if Some(i) == tt_move { i32::MAX } else { gain };
            children.push((child, order, i));
        }

        if ply > 0 && spread as u32 >= self.etc_min_seeds {
            // Enhanced transposition cutoff: a child the table already
            // proves good enough ends the node before any search.
            for (child, _, i) in &children {
                if child.outcome().is_some() {
                    continue;
                }
                let child_set = if G::CAN_REPEAT && self.group(child) == group {
                    set ^ pos.hash()
                } else {
                    0
                };
                if let Some(p) = self.tt.probe(with_set(child.solve_key(), child_set)) {
                    let cb = child.banked();
                    let v = if child.side_to_move() == side {
                        p.lo + cb
                    } else {
                        -(p.hi + cb)
                    };
                    if v >= beta {
                        self.tt.store(key, v - banked, i32::MAX, Some(*i), 1);
                        self.buffers[ply] = (moves, children);
                        return v;
                    }
                }
            }
        }

        children.sort_by_key(|c| std::cmp::Reverse(c.1));
        self.enter(pos);
        let mut best = i32::MIN;
        let mut best_move = None;
        let mut a = alpha;
        for (ord, (child, _, i)) in children.iter().enumerate() {
            if ply == 0 {
                self.root_moves = (ord + 1, children.len());
            }
            let v = if child.side_to_move() == side {
                self.search(child, a, beta, ply + 1)
            } else {
                -self.search(child, -beta, -a, ply + 1)
            };
            if v > best {
                best = v;
                best_move = Some(*i);
                if v > a {
                    a = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        self.leave();
        self.buffers[ply] = (moves, children);
        if ply == 0 && best >= beta {
            self.root_best = best_move;
        }
        // The key holds the positions this one could repeat, so the value
        // holds wherever the key comes back.
        let work = self.nodes - nodes_before;
        if best >= beta {
            self.tt.store(key, best - banked, i32::MAX, best_move, work);
        } else if best <= alpha {
            self.tt.store(key, i32::MIN, best - banked, best_move, work);
        } else {
            self.tt
                .store(key, best - banked, best - banked, best_move, work);
        }
        best
    }
}

/// The table key of a position reached with `set` (see
/// [`Searcher::repeatable`]) before it: the position's own key when the set
/// is empty (after a capture, and always in games that cannot repeat).
fn with_set(key: u64, set: u64) -> u64 {
    if set == 0 {
        key
    } else {
        key ^ crate::variants::mix_words(&[set])
    }
}
