//! Proof-number search for games that are won or lost without counting
//! seeds (Bao): depth-first proof-number search (df-pn) with a table of
//! bounded size.
//!
//! A position is *proven* for the attacker when he can force a finished
//! game that he wins, whatever the defender plays. [`prove`] tries both
//! ways from the position: the side to move as attacker (a win) and his
//! opponent as attacker (a loss), giving each search a node budget that
//! doubles from round to round, so that whichever is easier ends first.
//!
//! * **Repetitions.** A position that comes back on the line searched ends
//!   nothing (the game has no repetition rule here) but cannot be part of a
//!   forced win either: it counts as "not won" for the attacker on that
//!   line. Such a verdict depends on the line and may be stored in the table
//!   and reused on another line (the graph-history interaction): that can
//!   only hide a win, never make one up, because every proven value stands
//!   on finished games alone. So a proven win or loss is sound, and a "no
//!   forced win" is reported as unproven.
//! * **Never-ending moves** are whatever the game says they are: a move the
//!   game does not list is not played, a player the game says has lost has
//!   lost.
//! * **The distance.** A proof says the winner wins within the plies of its
//!   own tree; a full-width search bounded in plies ([`win_within`]) then
//!   looks for a shorter win, so that the reported distance is the exact one
//!   with best play on both sides (the winner hurrying, the loser holding
//!   out), while its own budget lasts.
//! * **Memory.** The table has a fixed size. When a bucket is full, the
//!   entry that cost least is overwritten, solved entries last; the search
//!   then only has to redo what it forgot.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::game::{Game, Side};

/// A proof or disproof number that stands for "infinite": a disproven
/// (or proven) position.
pub const INF: u32 = u32::MAX;

/// Deepest line the search follows: a line this long counts as not won,
/// like a repetition.
pub const MAX_PLY: u32 = 1000;

/// The table's default size in MiB.
pub const DEFAULT_HASH_MB: usize = 256;

/// How to prove.
#[derive(Clone, Debug)]
pub struct ProveOptions {
    /// Table size in MiB.
    pub hash_mb: usize,
    /// Give up after this many nodes (positions generated).
    pub nodes: Option<u64>,
    /// Give up after this long.
    pub time: Option<Duration>,
    /// Set by someone else to give up (the protocol's `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// Time between progress reports.
    pub report_every: Duration,
    /// Nodes the search for a shorter win may spend after a proof.
    pub shorten_nodes: u64,
}

impl Default for ProveOptions {
    fn default() -> Self {
        ProveOptions {
            hash_mb: DEFAULT_HASH_MB,
            nodes: None,
            time: None,
            stop: None,
            report_every: Duration::from_secs(10),
            shorten_nodes: 20_000_000,
        }
    }
}

/// What was proven about the position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins by force.
    Win,
    /// The side to move loses by force.
    Loss,
    /// Neither proven (stopped, or no forced win was found for either
    /// side).
    Unproven,
}

/// Why an unproven search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It did not end: the position was decided.
    Decided,
    /// `stop` was set.
    Stopped,
    /// The node budget was spent.
    Nodes,
    /// The time was up.
    Time,
    /// Both searches came back without a win for their attacker: neither
    /// side could be shown to force a win (repetitions and lines longer
    /// than [`MAX_PLY`] count as not won).
    NoForcedWin,
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Ended::Decided => "decided",
            Ended::Stopped => "stopped",
            Ended::Nodes => "the node limit was reached",
            Ended::Time => "the time limit was reached",
            Ended::NoForcedWin => {
                "no forced win for either side was found (a repeated position counts as not won)"
            }
        })
    }
}

/// Proof and disproof numbers of the position for one attacker: `pn` is
/// 0 when his win is proven, `dn` 0 when it is refuted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub pn: u32,
    pub dn: u32,
}

impl Bounds {
    const UNKNOWN: Bounds = Bounds { pn: 1, dn: 1 };
}

/// A progress report, now and then during a long proof.
#[derive(Clone, Debug)]
pub struct ProveProgress {
    /// The side whose win is being tried now.
    pub attacker: Side,
    /// The numbers of the position for the side to move winning, and for
    /// his opponent winning.
    pub win: Bounds,
    pub loss: Bounds,
    pub nodes: u64,
    /// The longest line looked at, in plies.
    pub max_ply: u32,
    /// Permille of the table in use.
    pub hashfull: u32,
    pub elapsed: Duration,
}

/// What [`prove`] found.
#[derive(Clone, Debug)]
pub struct ProveResult<M> {
    pub verdict: Verdict,
    pub ended: Ended,
    /// For a proven win or loss: plies to the end of the game along `pv`.
    pub plies: u32,
    /// Whether `plies` is the shortest win (the loser holding out longest)
    /// or only what the proof found.
    pub shortest: bool,
    /// For a proven win or loss: the positions of its proof tree, counted
    /// by walking it again from the table and the rules alone (every reply
    /// of the loser, one move of the winner, each line ending in a game the
    /// game itself says the winner has won); `None` if the table lost part
    /// of the proof, or the walk was stopped.
    pub proof_size: Option<u64>,
    /// A winning line for a proven position (the loser's moves holding out
    /// longest); for an unproven one the most promising first move.
    pub pv: Vec<M>,
    pub win: Bounds,
    pub loss: Bounds,
    /// Nodes of the whole run, and of them those of the search for a
    /// shorter win.
    pub nodes: u64,
    pub shorten_nodes: u64,
    pub max_ply: u32,
    pub hashfull: u32,
    pub elapsed: Duration,
}

impl<M> ProveResult<M> {
    /// The moves of the winner to the end of the game, as `score mate N`
    /// counts them (`(plies + 1) / 2`).
    pub fn winner_moves(&self) -> u32 {
        self.plies.div_ceil(2)
    }
}

// ---------------------------------------------------------------- table

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// For a proven position: plies to the win along its proof.
    dist: u16,
    /// log2 of the nodes spent below the entry: what replacement keeps.
    work: u8,
    used: bool,
}

const WAYS: usize = 4;

struct Table {
    buckets: Vec<[Entry; WAYS]>,
    mask: u64,
}

impl Table {
    fn new(megabytes: usize) -> Table {
        let buckets: Vec<[Entry; WAYS]> = super::table_buckets(megabytes);
        Table {
            mask: buckets.len() as u64 - 1,
            buckets,
        }
    }

    fn get(&self, key: u64) -> Option<(Bounds, u32)> {
        self.buckets[(key & self.mask) as usize]
            .iter()
            .find(|e| e.used && e.key == key)
            .map(|e| (Bounds { pn: e.pn, dn: e.dn }, e.dist as u32))
    }

    fn put(&mut self, key: u64, b: Bounds, dist: u32, nodes: u64) {
        let work = (64 - nodes.leading_zeros()) as u8;
        let entry = Entry {
            key,
            pn: b.pn,
            dn: b.dn,
            dist: dist.min(u16::MAX as u32) as u16,
            work,
            used: true,
        };
        let bucket = &mut self.buckets[(key & self.mask) as usize];
        if let Some(e) = bucket.iter_mut().find(|e| e.used && e.key == key) {
            *e = Entry {
                work: work.max(e.work),
                ..entry
            };
            return;
        }
        // Solved entries are kept before any open one: they are final and
        // hold the proof that the winning line is read from.
        let keep = |e: &Entry| {
            if !e.used {
                0
            } else if e.pn == 0 || e.dn == 0 {
                e.work as u32 + 100
            } else {
                e.work as u32 + 1
            }
        };
        let victim = bucket
            .iter_mut()
            .min_by_key(|e| keep(e))
            .expect("a bucket has entries");
        *victim = entry;
    }

    fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(250);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| b.iter().filter(|e| e.used).count())
            .sum();
        (used * 1000 / (n * WAYS)) as u32
    }
}

// ---------------------------------------------------------------- search

/// Why a search gave up before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Abort {
    /// This round's node budget is spent: the other attacker's turn.
    Round,
    /// The whole proof ends unproven.
    End(Ended),
}

/// Keys of the two searches differ, so that both share one table.
fn salt(attacker: Side) -> u64 {
    match attacker {
        Side::South => 0,
        Side::North => 0x9e37_79b9_7f4a_7c15,
    }
}

fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        (a as u64 + b as u64).min(INF as u64 - 1) as u32
    }
}

/// The threshold a best child gets from its sibling's number: a little
/// more than that number (the "1 + ε" trick), so that the search does not
/// hop between two children of nearly equal numbers.
fn past(second: u32) -> u32 {
    if second == INF {
        INF
    } else {
        add(second, 1).max(add(second, second / 4))
    }
}

struct Prover<'a, G: Game> {
    tt: Table,
    attacker: Side,
    /// Hashes of the positions on the line being searched.
    path: FxHashSet<u64>,
    nodes: u64,
    round_end: u64,
    limit_nodes: Option<u64>,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    start: Instant,
    last_report: Instant,
    report_every: Duration,
    progress: &'a mut dyn FnMut(&ProveProgress),
    max_ply: u32,
    /// The root's numbers for the side to move winning (index 0) and his
    /// opponent winning (1).
    root: [Bounds; 2],
    root_side: Side,
    moves_buf: Vec<G::Move>,
    /// For the search for a shorter win: only wins within this many plies
    /// count. The table then keys a position with the plies left, and no
    /// line is checked for repetitions (none can go on forever).
    bound: Option<u32>,
}

impl<G: Game> Prover<'_, G> {
    fn key(&self, pos: &G, ply: u32) -> u64 {
        let key = pos.hash() ^ salt(self.attacker);
        match self.bound {
            None => key,
            Some(b) => key ^ (b.saturating_sub(ply) as u64 + 1).wrapping_mul(0xff51_afd7_ed55_8ccd),
        }
    }

    fn tripped(&self) -> Result<(), Abort> {
        if crate::interrupt::tripped() {
            Err(Abort::End(self.why_stopped()))
        } else {
            Ok(())
        }
    }

    fn why_stopped(&self) -> Ended {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Ended::Time
        } else {
            Ended::Stopped
        }
    }

    fn check(&mut self) -> Result<(), Abort> {
        if self.limit_nodes.is_some_and(|n| self.nodes >= n) {
            return Err(Abort::End(Ended::Nodes));
        }
        if self.nodes >= self.round_end {
            return Err(Abort::Round);
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(Abort::End(Ended::Stopped));
        }
        self.tripped()?;
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            return Err(Abort::End(Ended::Time));
        }
        if now.duration_since(self.last_report) >= self.report_every {
            self.last_report = now;
            let p = self.report();
            (self.progress)(&p);
        }
        Ok(())
    }

    fn report(&self) -> ProveProgress {
        ProveProgress {
            attacker: self.attacker,
            win: self.root[0],
            loss: self.root[1],
            nodes: self.nodes,
            max_ply: self.max_ply,
            hashfull: self.tt.hashfull(),
            elapsed: self.start.elapsed(),
        }
    }

    /// The numbers of a child `ply` plies from the root, from the table or
    /// by generating its moves (a new position's numbers count its moves:
    /// a defender with many replies is harder to prove a win against).
    ///
    /// `known` is what a search of the child returned: used when the table
    /// has already given up its entry, so that a full table does not send
    /// the parent back to the child's first numbers (and into the same
    /// search again).
    fn look(
        &mut self,
        child: &G,
        ply: u32,
        known: Option<(Bounds, u32)>,
    ) -> Result<(Bounds, u32), Abort> {
        if self.bound.is_none()
            && (ply >= MAX_PLY || (G::CAN_REPEAT && self.path.contains(&child.hash())))
        {
            return Ok((Bounds { pn: INF, dn: 0 }, 0));
        }
        let key = self.key(child, ply);
        if let Some(found) = self.tt.get(key) {
            return Ok(found);
        }
        if let Some((b, d)) = known {
            self.tt.put(key, b, d, 1);
            return Ok((b, d));
        }
        self.max_ply = self.max_ply.max(ply);
        let mut moves = std::mem::take(&mut self.moves_buf);
        child.legal_moves(&mut moves);
        self.nodes += 1;
        let n = moves.len() as u32;
        self.moves_buf = moves;
        self.tripped()?;
        let b = if n == 0 {
            let o = child.outcome();
            self.tripped()?;
            if o.and_then(|o| o.result.winner()) == Some(self.attacker) {
                Bounds { pn: 0, dn: INF }
            } else {
                Bounds { pn: INF, dn: 0 }
            }
        } else if self.bound.is_some_and(|b| ply >= b) {
            // Not over, and no plies left for a win.
            Bounds { pn: INF, dn: 0 }
        } else if child.side_to_move() == self.attacker {
            Bounds { pn: 1, dn: n }
        } else {
            Bounds { pn: n, dn: 1 }
        };
        self.tt.put(key, b, 0, 1);
        Ok((b, 0))
    }

    /// Searches `pos` (not over, not on the line) until its numbers reach
    /// the thresholds or it is solved, and stores them.
    fn mid(&mut self, pos: &G, th: Bounds, ply: u32) -> Result<(Bounds, u32), Abort> {
        self.check()?;
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        self.tripped()?;
        let mut children = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let c = pos.play(mv);
            self.tripped()?;
            children.push(c);
        }
        let h = pos.hash();
        self.path.insert(h);
        let r = self.mid_loop(pos, &children, th, ply);
        self.path.remove(&h);
        r
    }

    fn mid_loop(
        &mut self,
        pos: &G,
        children: &[G],
        th: Bounds,
        ply: u32,
    ) -> Result<(Bounds, u32), Abort> {
        let or = pos.side_to_move() == self.attacker;
        let key = self.key(pos, ply);
        let nodes_before = self.nodes;
        let mut known: Vec<Option<(Bounds, u32)>> = vec![None; children.len()];
        loop {
            // The node's numbers from its children's; the child to search.
            let (mut pn, mut dn) = if or { (INF, 0) } else { (0, INF) };
            let (mut best, mut best_n, mut second_n) = (0usize, INF, INF);
            let mut best_other = 0;
            let mut dist = if or { u32::MAX } else { 0 };
            for (i, c) in children.iter().enumerate() {
                let (b, d) = self.look(c, ply + 1, known[i])?;
                // OR: the attacker picks the child easiest to prove; AND:
                // the defender the one easiest to refute.
                let (mine, other) = if or { (b.pn, b.dn) } else { (b.dn, b.pn) };
                if mine < best_n {
                    second_n = best_n;
                    best_n = mine;
                    best = i;
                    best_other = other;
                } else if mine < second_n {
                    second_n = mine;
                }
                if or {
                    pn = pn.min(b.pn);
                    dn = add(dn, b.dn);
                    if b.pn == 0 {
                        dist = dist.min(d + 1);
                    }
                } else {
                    pn = add(pn, b.pn);
                    dn = dn.min(b.dn);
                    dist = dist.max(d + 1);
                }
            }
            if children.is_empty() {
                // Not reached: the caller only searches positions that go on.
                (pn, dn) = (INF, 0);
            }
            if pn != 0 {
                dist = 0;
            }
            let b = Bounds { pn, dn };
            if ply == 0 && self.bound.is_none() {
                let i = (self.attacker != self.root_side) as usize;
                self.root[i] = b;
            }
            if pn == 0 || dn == 0 || pn >= th.pn || dn >= th.dn {
                self.tt.put(key, b, dist, self.nodes - nodes_before + 1);
                return Ok((b, dist));
            }
            let child_th = if or {
                Bounds {
                    pn: th.pn.min(past(second_n)),
                    dn: if th.dn == INF {
                        INF
                    } else {
                        th.dn - dn + best_other
                    },
                }
            } else {
                Bounds {
                    pn: if th.pn == INF {
                        INF
                    } else {
                        th.pn - pn + best_other
                    },
                    dn: th.dn.min(past(second_n)),
                }
            };
            known[best] = Some(self.mid(&children[best], child_th, ply + 1)?);
        }
    }

    /// Walks the proof of a proven `root` again (see
    /// [`ProveResult::proof_size`]) and returns it: each position with the
    /// plies to the win along the walked tree. `None` if the table lost
    /// part of it or the walk was stopped.
    fn check_proof(&mut self, root: &G) -> Option<Checked<G>> {
        let mut tree = FxHashMap::default();
        let mut line = FxHashSet::default();
        let plies = self.check_node(root, 0, &mut tree, &mut line)?;
        Some(Checked { tree, plies })
    }

    /// The plies to the win from `pos` along a proof read from the table
    /// and checked against the rules: every move of the loser, one of the
    /// winner (the nearest the table proves that checks), each line ending
    /// in a game the game itself says is won.
    fn check_node(
        &self,
        pos: &G,
        ply: u32,
        tree: &mut FxHashMap<u64, (u32, Option<G::Move>)>,
        line: &mut FxHashSet<u64>,
    ) -> Option<u32> {
        let h = pos.hash();
        let k = self.key(pos, ply);
        if let Some(&(d, _)) = tree.get(&k) {
            return Some(d);
        }
        if ply > self.bound.unwrap_or(MAX_PLY) || line.contains(&h) || crate::interrupt::poll() {
            return None;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let done = if moves.is_empty() {
            let won = pos.outcome().and_then(|o| o.result.winner()) == Some(self.attacker);
            won.then_some((0, None))
        } else {
            line.insert(h);
            let found = if pos.side_to_move() == self.attacker {
                let mut proven: Vec<(u32, G::Move, G)> = moves
                    .iter()
                    .filter_map(|&mv| {
                        let c = pos.play(mv);
                        match self.tt.get(self.key(&c, ply + 1)) {
                            Some((b, d)) if b.pn == 0 => Some((d, mv, c)),
                            _ => None,
                        }
                    })
                    .collect();
                proven.sort_by_key(|&(d, _, _)| d);
                proven.iter().find_map(|(_, mv, c)| {
                    let d = self.check_node(c, ply + 1, tree, line)?;
                    Some((d + 1, Some(*mv)))
                })
            } else {
                let mut worst: Option<(u32, Option<G::Move>)> = Some((0, None));
                for &mv in &moves {
                    let Some(d) = self.check_node(&pos.play(mv), ply + 1, tree, line) else {
                        worst = None;
                        break;
                    };
                    if worst.is_some_and(|(w, m)| m.is_none() || d + 1 > w) {
                        worst = Some((d + 1, Some(mv)));
                    }
                }
                worst
            };
            line.remove(&h);
            found
        };
        if crate::interrupt::tripped() {
            return None;
        }
        let (d, mv) = done?;
        tree.insert(k, (d, mv));
        Some(d)
    }

    /// A move of the root that the table proves (the nearest win for the
    /// winner, the longest defence for the loser).
    fn proven_move(&self, root: &G) -> Option<G::Move> {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let or = root.side_to_move() == self.attacker;
        let proven =
            moves
                .iter()
                .filter_map(|&mv| match self.tt.get(self.key(&root.play(mv), 1)) {
                    Some((b, d)) if b.pn == 0 => Some((d, mv)),
                    _ => None,
                });
        let pick = if or {
            proven.min_by_key(|&(d, _)| d)
        } else {
            proven.max_by_key(|&(d, _)| d)
        };
        pick.map(|(_, mv)| mv).or(moves.first().copied())
    }

    /// The winning line of a checked proof: the winner's move the walk
    /// took, the loser's reply that holds out longest.
    fn proof_line(&self, root: &G, proof: &Checked<G>) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut pos = root.clone();
        let mut ply = 0;
        while let Some(&(_, Some(mv))) = proof.tree.get(&self.key(&pos, ply)) {
            line.push(mv);
            pos = pos.play(mv);
            ply += 1;
        }
        line
    }
}

/// A proof walked again ([`Prover::check_proof`]): per position (its table
/// key) the plies to the win and the move the line follows.
struct Checked<G: Game> {
    tree: FxHashMap<u64, (u32, Option<G::Move>)>,
    plies: u32,
}

/// Proves `pos` won or lost for the side to move, or says how far it got.
/// `progress` is called every [`ProveOptions::report_every`].
///
/// The caller's thread is armed with the stop flag and the time limit
/// ([`crate::interrupt`]), so that a long move generation inside the rules
/// stops with the proof.
pub fn prove<G: Game>(
    pos: &G,
    opts: &ProveOptions,
    progress: &mut dyn FnMut(&ProveProgress),
) -> ProveResult<G::Move> {
    let start = Instant::now();
    let deadline = opts.time.map(|t| start + t);
    let flags: Vec<Arc<AtomicBool>> = opts.stop.iter().cloned().collect();
    let _armed = crate::interrupt::arm(deadline, &flags);
    let mover = pos.side_to_move();
    let mut p = Prover::<G> {
        tt: Table::new(opts.hash_mb),
        attacker: mover,
        path: FxHashSet::default(),
        nodes: 0,
        round_end: 0,
        limit_nodes: opts.nodes,
        deadline,
        stop: opts.stop.clone(),
        start,
        last_report: start,
        report_every: opts.report_every,
        progress,
        max_ply: 0,
        root: [Bounds::UNKNOWN; 2],
        root_side: mover,
        moves_buf: Vec::new(),
        bound: None,
    };
    let mut result = ProveResult {
        verdict: Verdict::Unproven,
        ended: Ended::Decided,
        plies: 0,
        shortest: false,
        pv: Vec::new(),
        win: Bounds::UNKNOWN,
        loss: Bounds::UNKNOWN,
        proof_size: None,
        nodes: 0,
        shorten_nodes: 0,
        max_ply: 0,
        hashfull: 0,
        elapsed: Duration::ZERO,
    };
    if let Some(o) = pos.outcome() {
        // Over before any move: nothing to search, no line.
        let won = o.result.winner() == Some(mover);
        result.verdict = if won { Verdict::Win } else { Verdict::Loss };
        result.shortest = true;
        (result.win, result.loss) = if won {
            (Bounds { pn: 0, dn: INF }, Bounds { pn: INF, dn: 0 })
        } else {
            (Bounds { pn: INF, dn: 0 }, Bounds { pn: 0, dn: INF })
        };
        result.elapsed = start.elapsed();
        return result;
    }
    let sides = [mover, mover.other()];
    let mut done = [false; 2];
    let mut round: u64 = 4096;
    let ended = 'rounds: loop {
        for i in 0..2 {
            if done[i] {
                continue;
            }
            p.attacker = sides[i];
            p.round_end = p.nodes.saturating_add(round);
            p.path.clear();
            match p.mid(pos, Bounds { pn: INF, dn: INF }, 0) {
                Ok((b, _)) => {
                    p.root[i] = b;
                    if b.pn == 0 {
                        break 'rounds Ended::Decided;
                    }
                    if b.dn == 0 {
                        done[i] = true;
                    }
                }
                Err(Abort::Round) => {}
                Err(Abort::End(why)) => break 'rounds why,
            }
        }
        if done == [true, true] {
            break Ended::NoForcedWin;
        }
        round = round.saturating_mul(2);
    };
    p.path.clear();
    result.ended = ended;
    result.win = p.root[0];
    result.loss = p.root[1];
    if ended == Ended::Decided {
        let won = p.root[0].pn == 0;
        result.verdict = if won { Verdict::Win } else { Verdict::Loss };
        p.attacker = if won { mover } else { mover.other() };
        let (_, dist) = p.tt.get(p.key(pos, 0)).unwrap_or((p.root[0], 0));
        result.plies = dist;
        if let Some(proof) = p.check_proof(pos) {
            result.plies = proof.plies;
            result.pv = p.proof_line(pos, &proof);
            result.proof_size = Some(proof.tree.len() as u64);
        } else {
            // The table lost part of the proof: a first move it proves.
            result.pv = p.proven_move(pos).into_iter().collect();
        }
        // A shorter win: a search that counts only wins within one ply
        // less than the shortest known, until it fails or its budget ends.
        let before = p.nodes;
        let budget = p.nodes.saturating_add(opts.shorten_nodes);
        p.limit_nodes = Some(opts.nodes.unwrap_or(u64::MAX).min(budget));
        p.round_end = u64::MAX;
        result.shortest = loop {
            if result.plies <= 1 {
                break true;
            }
            p.bound = Some(result.plies - 1);
            match p.mid(pos, Bounds { pn: INF, dn: INF }, 0) {
                Ok((b, _)) if b.pn == 0 => match p.check_proof(pos) {
                    Some(proof) => {
                        result.plies = proof.plies;
                        result.pv = p.proof_line(pos, &proof);
                        result.proof_size = Some(proof.tree.len() as u64);
                    }
                    // A proof the table could not keep whole: the longer
                    // one checked stands.
                    None => break false,
                },
                Ok(_) => break true,
                Err(_) => break false,
            }
        };
        p.bound = None;
        result.shorten_nodes = p.nodes - before;
    } else if let Some(mv) = promising(&mut p, pos) {
        result.pv = vec![mv];
    }
    result.nodes = p.nodes;
    result.max_ply = p.max_ply;
    result.hashfull = p.tt.hashfull();
    result.elapsed = start.elapsed();
    result
}

/// The root move whose position is closest to a win for the side to move
/// (least proof number), or the first legal move.
fn promising<G: Game>(p: &mut Prover<'_, G>, pos: &G) -> Option<G::Move> {
    p.attacker = p.root_side;
    // Interrupted, the rules still list moves known to be legal (and a
    // child played then only misses the table); with none listed, the
    // exact list, however long it takes.
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        let _exact = crate::interrupt::disarm();
        pos.legal_moves(&mut moves);
    }
    moves
        .iter()
        .map(|&mv| {
            let c = pos.play(mv);
            let pn = p.tt.get(p.key(&c, 1)).map_or(INF - 1, |(b, _)| b.pn);
            (pn, mv)
        })
        .min_by_key(|&(pn, _)| pn)
        .map(|(_, mv)| mv)
        .or(moves.first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::bao::{Bao, BaoRules};

    fn kujifunza(token: &str) -> Bao {
        Bao::from_notation(&BaoRules::kujifunza(), token).unwrap()
    }

    fn small() -> ProveOptions {
        ProveOptions {
            hash_mb: 1,
            ..ProveOptions::default()
        }
    }

    #[test]
    fn numbers_saturate_below_infinity_and_infinity_absorbs() {
        assert_eq!(add(INF - 5, 10), INF - 1);
        assert_eq!(add(INF, 0), INF);
        assert_eq!(add(3, 4), 7);
        // The threshold a best child gets lies above its sibling's number.
        for n in [0, 1, 2, 7, 1000, INF - 2] {
            assert!(past(n) > n, "{n}");
        }
        assert_eq!(past(INF), INF);
    }

    #[test]
    fn a_full_bucket_gives_up_an_open_entry_before_a_solved_one() {
        let mut t = Table::new(1);
        let n = t.buckets.len() as u64;
        // Five keys of one bucket: the first solved, all with little work.
        let keys: Vec<u64> = (0..5).map(|i| 7 + i * n).collect();
        t.put(keys[0], Bounds { pn: 0, dn: INF }, 3, 1);
        for &k in &keys[1..4] {
            t.put(k, Bounds { pn: 2, dn: 2 }, 0, 1 << 20);
        }
        t.put(keys[4], Bounds { pn: 1, dn: 1 }, 0, 1);
        assert_eq!(t.get(keys[0]).map(|(b, d)| (b.pn, d)), Some((0, 3)));
        assert!(t.get(keys[4]).is_some(), "the newest is stored");
        let kept = keys[1..4].iter().filter(|&&k| t.get(k).is_some()).count();
        assert_eq!(kept, 2, "one open entry made room");
    }

    #[test]
    fn a_finished_game_is_decided_without_a_move() {
        // North's front row is empty: South has won, North is to move.
        let pos = kujifunza(
            "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,2,0,0,0,0,0,0/0,0,0,0,0,0,0,0-0-0-LL-N-x-0",
        );
        let r = prove(&pos, &small(), &mut |_| {});
        assert_eq!(r.verdict, Verdict::Loss);
        assert_eq!((r.plies, r.pv.len(), r.nodes), (0, 0, 0));
    }

    #[test]
    fn a_win_in_one_and_no_shorter_one() {
        // South's only move captures North's last front seeds.
        let pos = kujifunza(
            "0,0,0,0,0,0,0,0/3,0,1,0,0,0,0,1/1,0,0,1,0,3,0,0/0,2,0,0,0,0,0,0-0-0-LL-S-x-0",
        );
        let r = prove(&pos, &small(), &mut |_| {});
        assert_eq!((r.verdict, r.plies, r.shortest), (Verdict::Win, 1, true));
        assert_eq!(r.winner_moves(), 1);
        let end = pos.play(r.pv[0]);
        assert_eq!(
            end.outcome().and_then(|o| o.result.winner()),
            Some(Side::South)
        );
        assert_eq!(r.proof_size, Some(2), "the root and the won game");
    }

    #[test]
    fn the_search_bounded_in_plies_refutes_a_win_longer_than_its_bound() {
        // A win in 3 plies (tests/bao_prove.rs checks it by brute force):
        // within 2 plies there is none, within 3 there is.
        let pos = kujifunza(
            "0,0,0,0,0,0,0,0/0,0,1,0,1,3,0,0/0,0,0,3,0,0,0,3/0,0,0,0,2,3,0,3-0-0-LL-S-x-0",
        );
        for (bound, won) in [(1, false), (2, false), (3, true), (6, true)] {
            let mut report = |_: &ProveProgress| {};
            let mut p = Prover::<Bao> {
                tt: Table::new(1),
                attacker: Side::South,
                path: FxHashSet::default(),
                nodes: 0,
                round_end: u64::MAX,
                limit_nodes: None,
                deadline: None,
                stop: None,
                start: Instant::now(),
                last_report: Instant::now(),
                report_every: Duration::from_secs(3600),
                progress: &mut report,
                max_ply: 0,
                root: [Bounds::UNKNOWN; 2],
                root_side: Side::South,
                moves_buf: Vec::new(),
                bound: Some(bound),
            };
            let (b, d) = p.mid(&pos, Bounds { pn: INF, dn: INF }, 0).unwrap();
            assert_eq!(b.pn == 0, won, "within {bound} plies");
            assert_eq!(b.dn == 0, !won, "within {bound} plies");
            if won {
                assert!(d <= bound && d == 3, "{d}");
            }
        }
    }
}
