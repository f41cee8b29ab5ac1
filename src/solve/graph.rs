//! The graph of every position a solve can reach, for games whose positions
//! can repeat (Oware), split into strongly connected components.
//!
//! Under a first-repetition rule the value of a position depends on the
//! line that led to it, but only on a small part of it. A play that leaves
//! a strongly connected component (SCC) can never come back to it, so the
//! positions of the line in *other* components can never recur: the value
//! of a position `p` reached by the line `h` depends on `h ∩ scc(p)` alone.
//! Two consequences make the solver exact and still able to share its
//! table:
//!
//! * The search keys its table on the position together with the positions
//!   of the line that lie in the position's own component ([`Graph::comp_of`]).
//!   On entering a component that set is empty, so every position that
//!   starts a component, and every position of a trivial one, has one entry
//!   whatever the line.
//! * Where every repetition inside each component is worth the same (Oware
//!   under `split`: the stores, which only a capture changes, and a capture
//!   always leaves the component), every cycle pays the same, and the
//!   theorem of Ehrenfeucht and Mycielski (1979) on games that stop at the
//!   first cycle says the value from a position with an empty line equals
//!   that of the endless game in which a play that goes round for ever pays
//!   the component's constant. That game needs no history: [`Graph::values`]
//!   solves it component by component, sinks first, by attractors.

mod first_repetition;

pub(crate) use first_repetition::{OpenArena, PlayOut, Window, line_bounds};

use super::margin;
use crate::game::Side;
use crate::game::SolveGame;

/// A flag someone else sets to stop the graph's work (the protocol's
/// `stop`), if any: what was found then is thrown away.
pub(crate) type Stop<'a> = Option<&'a std::sync::atomic::AtomicBool>;

fn is_set(stop: Stop) -> bool {
    stop.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
}

/// The positions reachable from a root, their moves and components.
pub(crate) struct Graph<G> {
    pub nodes: Vec<G>,
    /// The children of node `v` are `targets[starts[v]..starts[v + 1]]`, in
    /// the order of its legal moves.
    pub starts: Vec<u32>,
    pub targets: Vec<u32>,
    /// Component of each node; numbered sinks first (every move leads to
    /// the same component or to one with a smaller number).
    pub comp: Vec<u32>,
    pub comp_size: Vec<u32>,
    /// Node of each position hash. Building fails on two positions with one
    /// hash, so a hash names one reachable position.
    index: NodeIndex,
}

/// Why no graph was built.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum GraphError {
    /// More reachable positions than allowed.
    TooLarge,
    /// Two different positions share a hash (the table could not tell them
    /// apart).
    Collision,
    /// Asked to stop.
    Stopped,
}

/// One thread's share of a step of [`Graph::build_reporting`]: the
/// children of its nodes in order, each with its hash and its node (`NodeIndex::EMPTY` if
/// the index did not hold it), and where each parent's children end.
struct Expanded<G: crate::game::Game> {
    kids: Vec<(G, u64, u32)>,
    ends: Vec<usize>,
    moves: Vec<<G as crate::game::Game>::Move>,
    /// Whether some move led to a higher [`level`] than its parent's.
    rises: bool,
}

impl<G: crate::game::Game> Default for Expanded<G> {
    fn default() -> Self {
        Expanded {
            kids: Vec::new(),
            ends: Vec::new(),
            moves: Vec::new(),
            rises: false,
        }
    }
}

impl<G: SolveGame> Expanded<G> {
    /// Expands `parents`, looking each child up in `index` (which names
    /// nodes of `nodes`), in batches whose memory is asked for before any
    /// of it is read.
    fn look_up(&mut self, parents: &[G], nodes: &[G], index: &NodeIndex) -> Result<(), GraphError> {
        const BATCH: usize = 256;
        self.kids.clear();
        self.ends.clear();
        for batch in parents.chunks(BATCH) {
            let first = self.kids.len();
            for pos in batch {
                pos.legal_moves(&mut self.moves);
                let up = level(pos);
                for &mv in &self.moves {
                    let child = pos.play(mv);
                    let h = child.hash();
                    index.prefetch(h);
                    self.rises |= level(&child) > up;
                    self.kids.push((child, h, NodeIndex::EMPTY));
                }
                self.ends.push(self.kids.len());
            }
            for kid in &mut self.kids[first..] {
                if let Some(id) = index.find(kid.1) {
                    kid.2 = id;
                    super::prefetch(&nodes[id as usize]);
                }
            }
            for (child, _, id) in &self.kids[first..] {
                if *id != NodeIndex::EMPTY && nodes[*id as usize] != *child {
                    return Err(GraphError::Collision);
                }
            }
        }
        Ok(())
    }
}

impl<G: SolveGame> Graph<G> {
    /// [`Graph::build_reporting`] without the progress (for tests).
    #[cfg(test)]
    pub fn build(
        root: &G,
        budget: usize,
        threads: usize,
        stop: Stop,
    ) -> Result<Graph<G>, GraphError> {
        Self::build_reporting(root, budget, threads, stop, &mut |_| {})
    }

    /// Every position reachable from `root` (breadth first), if there are
    /// at most `budget`, on up to `threads` threads.
    ///
    /// Nearly all of the time goes to cache misses: for each move the index
    /// slot, and for a position seen before also the node to compare it
    /// with. So the nodes are expanded in steps of many at once. In each,
    /// the threads first look every child up in the index as it stood
    /// before the step (reading only, each a share of the step's nodes, the
    /// memory of a small batch asked for before any of it is read, so the
    /// misses overlap); then one thread numbers the children not found, in
    /// order. A child met twice in one step is numbered at its first
    /// meeting and found at the second, so the graph is the same as a
    /// serial build's, node for node, whatever the number of threads.
    ///
    /// `tick` is told how many positions have been found after each step
    /// (the last time, all of them, before the components are found).
    pub fn build_reporting(
        root: &G,
        budget: usize,
        threads: usize,
        stop: Stop,
        tick: &mut dyn FnMut(usize),
    ) -> Result<Graph<G>, GraphError> {
        // Nodes expanded per step, and by each thread before a thread of
        // its own pays (starting one costs some tens of microseconds).
        const STEP: usize = 1 << 14;
        const PER_THREAD: usize = 1 << 12;
        let mut nodes = vec![root.clone()];
        let mut levels = vec![level(root)];
        let mut index = NodeIndex::new();
        index.find_or_insert(root.hash(), 0);
        let mut starts = vec![0u32];
        let mut targets = Vec::new();
        let mut shares: Vec<Expanded<G>> =
            (0..threads.max(1)).map(|_| Expanded::default()).collect();
        let mut i = 0;
        while i < nodes.len() {
            if is_set(stop) {
                return Err(GraphError::Stopped);
            }
            let end = nodes.len().min(i + STEP);
            let parts = shares.len().min((end - i).div_ceil(PER_THREAD)).max(1);
            let chunk = (end - i).div_ceil(parts);
            {
                let (nodes, index) = (&nodes, &index);
                let mut jobs = shares[..parts].iter_mut().enumerate().map(|(k, share)| {
                    let from = i + k * chunk;
                    let to = end.min(from + chunk);
                    move || share.look_up(&nodes[from..to], nodes, index)
                });
                if parts == 1 {
                    (jobs.next().expect("one part"))()?;
                } else {
                    std::thread::scope(|scope| {
                        let handles: Vec<_> = jobs.map(|job| scope.spawn(job)).collect();
                        handles
                            .into_iter()
                            .try_for_each(|h| h.join().expect("looking children up does not panic"))
                    })?;
                }
            }
            for share in &mut shares[..parts] {
                for (child, h, id) in &mut share.kids {
                    if *id == NodeIndex::EMPTY {
                        let next = nodes.len() as u32;
                        *id = index.find_or_insert(*h, next);
                        if *id == next {
                            if nodes.len() >= budget {
                                return Err(GraphError::TooLarge);
                            }
                            nodes.push(child.clone());
                            levels.push(level(child));
                        } else if nodes[*id as usize] != *child {
                            return Err(GraphError::Collision);
                        }
                    }
                }
                let mut k = 0;
                for &e in &share.ends {
                    targets.extend(share.kids[k..e].iter().map(|&(_, _, id)| id));
                    starts.push(targets.len() as u32);
                    k = e;
                }
            }
            i = end;
            tick(nodes.len());
        }
        let rises = shares.iter().any(|s| s.rises);
        let (comp, comp_size) = if rises || threads < 2 {
            components_where(&starts, &targets, |_| true, stop)
        } else {
            components_by_level(&starts, &targets, &levels, stop)
        }
        .ok_or(GraphError::Stopped)?;
        Ok(Graph {
            nodes,
            starts,
            targets,
            comp,
            comp_size,
            index,
        })
    }

    /// The node of a reachable position.
    pub fn node_of(&self, pos: &G) -> Option<u32> {
        self.index.find(pos.hash())
    }

    /// The nodes sorted by component, sinks first: component `c` is
    /// `members[first[c]..first[c + 1]]`, in increasing order.
    fn members(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.nodes.len();
        let comps = self.comp_size.len();
        let mut first = vec![0u32; comps + 1];
        for c in 0..comps {
            first[c + 1] = first[c] + self.comp_size[c];
        }
        let mut members = vec![0u32; n];
        let mut fill = first.clone();
        for v in 0..n {
            let c = self.comp[v] as usize;
            members[fill[c] as usize] = v as u32;
            fill[c] += 1;
        }
        (first, members)
    }

    /// The strongly connected components of the positions whose bounds
    /// (`lo`, `hi`, South's view) leave open whether South gets at least
    /// `t`, with only the moves between such positions: [`NOT_KEPT`] for
    /// the others. A null-window search at `t` stops at every other
    /// position (see `Searcher::line_at`), so of a line of open positions
    /// only those in the current one's open component can still recur.
    pub fn open_components(&self, lo: &[i32], hi: &[i32], t: i32) -> Vec<u32> {
        let open = |v: usize| lo[v] < t && t <= hi[v];
        components_where(&self.starts, &self.targets, open, None)
            .expect("never stopped")
            .0
    }

    pub fn children(&self, v: usize) -> &[u32] {
        &self.targets[self.starts[v] as usize..self.starts[v + 1] as usize]
    }

    /// What a repetition of node `v` ends the game with, South's view.
    pub fn repetition_south(&self, v: usize) -> i32 {
        let pos = &self.nodes[v];
        let south = |m: i32| {
            if pos.side_to_move() == Side::South {
                m
            } else {
                -m
            }
        };
        south(
            pos.repetition_outcome()
                .map_or(pos.banked(), |o| margin(o, pos.side_to_move())),
        )
    }

    /// Whether every repetition inside each component is worth the same
    /// (South's view): then [`Graph::values`] is exact.
    pub fn cycles_pay_constant(&self) -> bool {
        let mut pay: Vec<Option<i32>> = vec![None; self.comp_size.len()];
        for v in 0..self.nodes.len() {
            let c = self.comp[v] as usize;
            if self.comp_size[c] < 2 {
                continue;
            }
            let r = self.repetition_south(v);
            match pay[c] {
                None => pay[c] = Some(r),
                Some(p) if p != r => return false,
                Some(_) => {}
            }
        }
        true
    }

    /// The value (South's view) of every node for a line that starts there,
    /// when [`Graph::cycles_pay_constant`].
    pub fn values(&self) -> Vec<i32> {
        let mut value = vec![0i32; self.nodes.len()];
        let comps = self.comp_size.len();
        let (first, members) = self.members();
        let mut work = Work::default();
        for c in 0..comps {
            let nodes = &members[first[c] as usize..first[c + 1] as usize];
            let v = nodes[0] as usize;
            if nodes.len() == 1 && !self.children(v).contains(&nodes[0]) {
                value[v] = self.minimax(v, &value);
            } else {
                let pay = self.repetition_south(nodes[0] as usize);
                self.solve_component(c, nodes, None, pay, &mut value, &mut work);
            }
        }
        value
    }

    /// The values (South's view) of the root's moves, `values` being
    /// [`Graph::values`]: those of the same game with the root already
    /// played, a node whose repetition ends the game. Only the root's
    /// component can reach the root, so only it changes.
    pub fn root_move_values(&self, values: &[i32]) -> Vec<i32> {
        let c = self.comp[0];
        let nodes: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&v| self.comp[v as usize] == c)
            .collect();
        let mut value = values.to_vec();
        let pay = self.repetition_south(0);
        self.solve_component(
            c as usize,
            &nodes,
            Some(0),
            pay,
            &mut value,
            &mut Work::default(),
        );
        self.children(0)
            .iter()
            .map(|&w| value[w as usize])
            .collect()
    }

    /// The value of a node without cycles through it, from its children's.
    fn minimax(&self, v: usize, value: &[i32]) -> i32 {
        let pos = &self.nodes[v];
        if let Some(o) = pos.outcome() {
            return margin(o, Side::South);
        }
        let kids = self.children(v).iter().map(|&w| value[w as usize]);
        let best = if pos.side_to_move() == Side::South {
            kids.max()
        } else {
            kids.min()
        };
        best.expect("a game not over has a move")
    }

    /// Solves one component whose cycles all pay the same, given the values
    /// of every component below it; `sink`, if given, is a node of it that
    /// has already been played (reaching it ends the game by repetition).
    /// South's value at a node is the largest `k` such that South can force
    /// an exit worth at least `k`, or, when the endless play is worth at
    /// least `k`, North cannot force an exit worth less. Each candidate `k`
    /// is one attractor computation over the component's moves reversed.
    fn solve_component(
        &self,
        c: usize,
        nodes: &[u32],
        sink: Option<usize>,
        endless: i32,
        value: &mut [i32],
        w: &mut Work,
    ) {
        let len = nodes.len();
        w.clear(len);
        let local = |x: usize| nodes.binary_search(&(x as u32)).ok();
        let mut candidates = vec![endless];
        // Moves inside, counted, then the reverse lists (compressed rows).
        for (i, &v) in nodes.iter().enumerate() {
            let v = v as usize;
            if Some(v) == sink {
                continue;
            }
            for &x in self.children(v) {
                let x = x as usize;
                let exit = if Some(x) == sink {
                    Some(endless)
                } else if self.comp[x] as usize != c {
                    Some(value[x])
                } else {
                    None
                };
                match exit {
                    Some(e) => {
                        w.min_exit[i] = w.min_exit[i].min(e);
                        w.max_exit[i] = w.max_exit[i].max(e);
                        candidates.push(e);
                    }
                    None => {
                        w.inside[i] += 1;
                        let j = local(x).expect("a member of the component");
                        w.rev_start[j + 1] += 1;
                    }
                }
            }
        }
        for j in 0..len {
            w.rev_start[j + 1] += w.rev_start[j];
        }
        w.rev.resize(w.rev_start[len] as usize, 0);
        let mut fill = w.rev_start.clone();
        for (i, &v) in nodes.iter().enumerate() {
            let v = v as usize;
            if Some(v) == sink {
                continue;
            }
            for &x in self.children(v) {
                let x = x as usize;
                if Some(x) != sink && self.comp[x] as usize == c {
                    let j = local(x).expect("a member of the component");
                    w.rev[fill[j] as usize] = i as u32;
                    fill[j] += 1;
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut best = vec![candidates[0]; len];
        let mut count = vec![0u32; len];
        let mut queue = Vec::new();
        for &k in &candidates[1..] {
            // The player who needs an exit: South when the endless play
            // does not reach k, else North (to keep South below k).
            let south_attacks = endless < k;
            let attacker = if south_attacks {
                Side::South
            } else {
                Side::North
            };
            // Whether an exit worth e is good for the attacker.
            let good = |e: i32| if south_attacks { e >= k } else { e < k };
            queue.clear();
            for (i, &v) in nodes.iter().enumerate() {
                let v = v as usize;
                if Some(v) == sink {
                    // Never entered (moves into it count as exits).
                    count[i] = u32::MAX;
                    continue;
                }
                let has_exit = w.min_exit[i] <= w.max_exit[i];
                let (any_good, any_bad) = if !has_exit {
                    (false, false)
                } else if south_attacks {
                    (good(w.max_exit[i]), !good(w.min_exit[i]))
                } else {
                    (good(w.min_exit[i]), !good(w.max_exit[i]))
                };
                count[i] = if self.nodes[v].side_to_move() == attacker {
                    if any_good { 0 } else { 1 }
                } else if any_bad {
                    // The defender leaves by an exit bad for the attacker.
                    u32::MAX
                } else {
                    w.inside[i]
                };
                if count[i] == 0 {
                    queue.push(i as u32);
                }
            }
            while let Some(i) = queue.pop() {
                let i = i as usize;
                for &p in &w.rev[w.rev_start[i] as usize..w.rev_start[i + 1] as usize] {
                    let p = p as usize;
                    if count[p] == 0 || count[p] == u32::MAX {
                        continue;
                    }
                    count[p] -= 1;
                    if count[p] == 0 {
                        queue.push(p as u32);
                    }
                }
            }
            // South reaches k where South's attack wins, or North's fails.
            for i in 0..len {
                if (count[i] == 0) == south_attacks {
                    best[i] = k;
                }
            }
        }
        for (i, &v) in nodes.iter().enumerate() {
            value[v as usize] = best[i];
        }
    }
}

/// The graph's index: node of each position hash, by open addressing in a
/// power-of-two array of slots at most half full. One slot (16 bytes) is
/// one cache line's read, where a general hash map reads two (control bytes
/// and bucket); the slots take huge pages, as the index is read at random
/// over gigabytes.
struct NodeIndex {
    slots: Vec<Slot>,
    len: usize,
}

#[derive(Clone, Copy)]
struct Slot {
    hash: u64,
    /// `EMPTY` for an unused slot.
    node: u32,
}

impl NodeIndex {
    const EMPTY: u32 = u32::MAX;

    fn new() -> NodeIndex {
        NodeIndex {
            slots: Self::empty_slots(1 << 12),
            len: 0,
        }
    }

    fn empty_slots(n: usize) -> Vec<Slot> {
        let mut slots = Vec::with_capacity(n);
        super::advise_huge_pages(&slots);
        slots.resize(
            n,
            Slot {
                hash: 0,
                node: Self::EMPTY,
            },
        );
        slots
    }

    /// The first slot to look at: the hash's top bits (positions' hashes
    /// are mixed already).
    #[inline]
    fn home(&self, hash: u64) -> usize {
        (hash >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    #[inline]
    fn prefetch(&self, hash: u64) {
        super::prefetch(&self.slots[self.home(hash)]);
    }

    fn find(&self, hash: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let s = self.slots[i];
            if s.node == Self::EMPTY {
                return None;
            }
            if s.hash == hash {
                return Some(s.node);
            }
            i = (i + 1) & mask;
        }
    }

    /// The node of `hash`, after making it `node` if it had none.
    fn find_or_insert(&mut self, hash: u64, node: u32) -> u32 {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let s = &mut self.slots[i];
            if s.node == Self::EMPTY {
                *s = Slot { hash, node };
                self.len += 1;
                return node;
            }
            if s.hash == hash {
                return s.node;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bigger = Self::empty_slots(2 * self.slots.len());
        let old = std::mem::replace(&mut self.slots, bigger);
        self.len = 0;
        for s in old {
            if s.node != Self::EMPTY {
                self.find_or_insert(s.hash, s.node);
            }
        }
    }
}

/// The component of a node left out of [`components_where`].
pub(crate) const NOT_KEPT: u32 = u32::MAX;

/// Scratch space of [`Graph::solve_component`], reused across components.
#[derive(Default)]
struct Work {
    inside: Vec<u32>,
    min_exit: Vec<i32>,
    max_exit: Vec<i32>,
    rev_start: Vec<u32>,
    rev: Vec<u32>,
}

impl Work {
    fn clear(&mut self, len: usize) {
        self.inside.clear();
        self.inside.resize(len, 0);
        self.min_exit.clear();
        self.min_exit.resize(len, i32::MAX);
        self.max_exit.clear();
        self.max_exit.resize(len, i32::MIN);
        self.rev_start.clear();
        self.rev_start.resize(len + 1, 0);
        self.rev.clear();
    }
}

/// A key of a position that no move raises where seeds leave the board
/// only by captures into the stores, as in Oware: the seeds on the board,
/// then the store difference (South's view), which only a capture
/// changes, and a capture takes seeds off the board. A play that leaves a
/// level then never comes back to it, so no component spans two levels,
/// and levels with no move between them can be split into components
/// independently ([`components_by_level`]). Other games need not keep the
/// key: [`Graph::build_reporting`] checks on every move that it does not
/// rise, and finds the components in one piece where it does.
fn level<G: SolveGame>(pos: &G) -> u64 {
    let banked = if pos.side_to_move() == Side::South {
        pos.banked()
    } else {
        -pos.banked()
    };
    (u64::from(pos.seeds_in_play()) << 32) | u64::from((banked as u32) ^ (1 << 31))
}

/// [`components`] of a graph where no move raises `levels` (one key per
/// node, see [`level`]), found on two threads: the levels are dealt to two
/// groups of about equal size, each thread runs Tarjan's algorithm on its
/// group's nodes alone (a move to the other group's leads to a lower level,
/// so it is already done as far as this group is concerned), and the
/// components are numbered by level, lowest first, then in the order their
/// thread found them. That is sinks first: a move between components goes
/// either to a lower level, or inside one level (one thread), to one its
/// thread found before.
fn components_by_level(
    starts: &[u32],
    targets: &[u32],
    levels: &[u64],
    stop: Stop,
) -> Option<(Vec<u32>, Vec<u32>)> {
    let mut sizes: rustc_hash::FxHashMap<u64, usize> = Default::default();
    for &l in levels {
        *sizes.entry(l).or_default() += 1;
    }
    let mut by_size: Vec<(usize, u64)> = sizes.iter().map(|(&l, &n)| (n, l)).collect();
    by_size.sort_unstable_by(|a, b| b.cmp(a));
    let mut load = [0usize; 2];
    let mut group_of: rustc_hash::FxHashMap<u64, u8> = Default::default();
    for (n, l) in by_size {
        let g = usize::from(load[1] < load[0]);
        load[g] += n;
        group_of.insert(l, g as u8);
    }
    let group: Vec<u8> = levels.iter().map(|l| group_of[l]).collect();
    let found: Vec<(Vec<u32>, Vec<u32>)> = std::thread::scope(|scope| {
        let group = &group;
        let threads: Vec<_> = (0..2u8)
            .map(|g| {
                scope.spawn(move || components_where(starts, targets, |v| group[v] == g, stop))
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("Tarjan's algorithm does not panic"))
            .collect::<Option<_>>()
    })?;
    // Each group's components by (level, number), then all of them.
    let mut order: Vec<(u64, u8, u32)> = Vec::new();
    for (g, (comp, local_sizes)) in found.iter().enumerate() {
        let mut level_of = vec![0u64; local_sizes.len()];
        for (v, &c) in comp.iter().enumerate() {
            if c != NOT_KEPT {
                level_of[c as usize] = levels[v];
            }
        }
        order.extend(
            level_of
                .iter()
                .enumerate()
                .map(|(c, &l)| (l, g as u8, c as u32)),
        );
    }
    order.sort_unstable();
    let mut id: [Vec<u32>; 2] = [vec![0; found[0].1.len()], vec![0; found[1].1.len()]];
    let mut comp_size = Vec::with_capacity(order.len());
    for (k, &(_, g, c)) in order.iter().enumerate() {
        id[g as usize][c as usize] = k as u32;
        comp_size.push(found[g as usize].1[c as usize]);
    }
    let comp = (0..levels.len())
        .map(|v| {
            let g = group[v] as usize;
            id[g][found[g].0[v] as usize]
        })
        .collect();
    Some((comp, comp_size))
}

/// Strongly connected components of a graph given as adjacency lists
/// (`starts`, `targets`), by Tarjan's algorithm without recursion: each
/// node's component (numbered in the order they complete, so every edge
/// goes to the same component or a smaller one) and each component's size.
#[cfg(test)]
fn components(starts: &[u32], targets: &[u32]) -> (Vec<u32>, Vec<u32>) {
    components_where(starts, targets, |_| true, None).expect("never stopped")
}

/// [`components`] of the subgraph induced on the nodes `keep` holds; the
/// others get [`NOT_KEPT`]. `None` once `stop` is set (it is read every
/// million nodes: Oware 4x3's 31.7 M take some seconds).
///
/// A node's Tarjan index, low link and component share one 16-byte record,
/// and "on the stack" is "visited, no component yet": following a move then
/// reads one cache line, where separate arrays read three (the graphs run
/// to tens of millions of nodes, visited in no useful order).
fn components_where(
    starts: &[u32],
    targets: &[u32],
    keep: impl Fn(usize) -> bool,
    stop: Stop,
) -> Option<(Vec<u32>, Vec<u32>)> {
    const NONE: u32 = u32::MAX;
    // Visited and on the stack: no component yet.
    const ON_STACK: u32 = u32::MAX - 1;
    #[derive(Clone, Copy)]
    #[repr(align(16))]
    struct Node {
        index: u32,
        low: u32,
        comp: u32,
    }
    let n = starts.len() - 1;
    let mut nodes: Vec<Node> = Vec::with_capacity(n);
    super::advise_huge_pages(&nodes);
    // A node left out counts as visited and done.
    nodes.extend((0..n).map(|v| {
        let kept = keep(v);
        Node {
            index: if kept { NONE } else { 0 },
            low: 0,
            comp: if kept { NONE } else { NOT_KEPT },
        }
    }));
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    let mut next = 0u32;
    // (node, next edge to look at)
    let mut calls: Vec<(u32, u32)> = Vec::new();
    for root in 0..n {
        if nodes[root].index != NONE {
            continue;
        }
        if next.is_multiple_of(1 << 20) && is_set(stop) {
            return None;
        }
        calls.push((root as u32, starts[root]));
        nodes[root] = Node {
            index: next,
            low: next,
            comp: ON_STACK,
        };
        next += 1;
        stack.push(root as u32);
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            let v = v as usize;
            if *e < starts[v + 1] {
                let w = targets[*e as usize] as usize;
                *e += 1;
                let to = nodes[w];
                if to.index == NONE {
                    if next.is_multiple_of(1 << 20) && is_set(stop) {
                        return None;
                    }
                    nodes[w] = Node {
                        index: next,
                        low: next,
                        comp: ON_STACK,
                    };
                    next += 1;
                    stack.push(w as u32);
                    let (a, b) = (starts[w] as usize, starts[w + 1] as usize);
                    // The first child is read at once, the others once its
                    // subtree is done: ask for all their records (and where
                    // their moves start) now, so the misses overlap.
                    for &x in &targets[a..b] {
                        super::prefetch(&nodes[x as usize]);
                        super::prefetch(&starts[x as usize]);
                    }
                    calls.push((w as u32, a as u32));
                } else if to.comp == ON_STACK {
                    nodes[v].low = nodes[v].low.min(to.index);
                }
                continue;
            }
            calls.pop();
            let (low, index) = (nodes[v].low, nodes[v].index);
            if let Some(&(p, _)) = calls.last() {
                let p = &mut nodes[p as usize];
                p.low = p.low.min(low);
            }
            if low == index {
                let id = sizes.len() as u32;
                let mut size = 0;
                loop {
                    let w = stack.pop().expect("Tarjan's stack holds the component") as usize;
                    nodes[w].comp = id;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                sizes.push(size);
            }
        }
    }
    Some((nodes.iter().map(|x| x.comp).collect(), sizes))
}

#[cfg(test)]
mod tests {
    use super::{NOT_KEPT, NodeIndex, components, components_where};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn the_node_index_finds_every_hash_through_its_growth_and_collisions() {
        let mut index = NodeIndex::new();
        // Hashes sharing their top bits land on one home slot and probe on;
        // far more than the first 4,096 slots make the index grow.
        let hash = |i: u64| {
            if i.is_multiple_of(3) {
                i
            } else {
                i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            }
        };
        let n = 20_000u64;
        for i in 0..n {
            assert_eq!(index.find_or_insert(hash(i), i as u32), i as u32);
        }
        assert!(index.slots.len() >= 2 * n as usize);
        for i in 0..n {
            // A second insertion keeps the first node.
            assert_eq!(index.find_or_insert(hash(i), 7), i as u32);
            assert_eq!(index.find(hash(i)), Some(i as u32));
        }
        assert_eq!(index.len, n as usize);
        assert_eq!(index.find(hash(n) ^ 1 << 40), None);
    }

    #[test]
    fn a_build_on_two_threads_is_the_serial_build_node_for_node() {
        use super::{Graph, GraphError};
        use crate::game::Game;
        use crate::variants::oware::{Oware, OwareRules, RuleSet};
        for (houses, seeds) in [(3, 3), (4, 2)] {
            let start = Oware::start(&OwareRules {
                houses,
                seeds,
                rules: RuleSet::Abapa,
                ..OwareRules::default()
            });
            let serial = Graph::build(&start, 1 << 22, 1, None).unwrap();
            let two = Graph::build(&start, 1 << 22, 2, None).unwrap();
            // Far more nodes than one step expands, so the steps split.
            assert!(serial.nodes.len() > 100_000, "{}", serial.nodes.len());
            assert!(serial.nodes == two.nodes);
            assert!(serial.starts == two.starts);
            assert!(serial.targets == two.targets);
            // Found level by level on two threads, the components are the
            // same sets, numbered sinks first.
            assert_eq!(serial.comp_size.len(), two.comp_size.len());
            let mut pairs: Vec<(u32, u32)> = serial
                .comp
                .iter()
                .copied()
                .zip(two.comp.iter().copied())
                .collect();
            pairs.sort_unstable();
            pairs.dedup();
            assert_eq!(pairs.len(), serial.comp_size.len());
            for (v, &c) in two.comp.iter().enumerate() {
                for &w in two.children(v) {
                    assert!(two.comp[w as usize] <= c);
                }
            }
            for &(a, b) in &pairs {
                assert_eq!(serial.comp_size[a as usize], two.comp_size[b as usize]);
            }
            for (v, pos) in serial.nodes.iter().enumerate() {
                assert_eq!(two.node_of(pos), Some(v as u32));
            }
            // One position short of the budget is too large, on any number
            // of threads.
            let n = serial.nodes.len();
            for threads in [1, 2] {
                let small = Graph::build(&start, n - 1, threads, None);
                assert!(matches!(small, Err(GraphError::TooLarge)));
            }
        }
    }

    #[test]
    fn components_where_leave_out_the_nodes_not_kept() {
        // The cycle 0 -> 1 -> 2 -> 0, then without node 1.
        let starts = [0, 1, 2, 3];
        let targets = [1, 2, 0];
        let (all, sizes) = components(&starts, &targets);
        assert!(all[0] == all[1] && all[1] == all[2]);
        assert_eq!(sizes, [3]);
        let (some, sizes) = components_where(&starts, &targets, |v| v != 1, None).unwrap();
        assert_eq!(some[1], NOT_KEPT);
        assert_ne!(some[0], some[2]);
        assert!(some[0] != NOT_KEPT && some[2] != NOT_KEPT);
        assert_eq!(sizes, [1, 1]);
    }

    #[test]
    fn a_stop_ends_tarjan_and_an_unset_flag_changes_nothing() {
        // A path of 1.5 M nodes, one component each, found in one walk.
        let n = 1_500_000u32;
        let starts: Vec<u32> = (0..=n).map(|v| v.min(n - 1)).collect();
        let targets: Vec<u32> = (1..n).collect();
        let set = AtomicBool::new(true);
        assert!(components_where(&starts, &targets, |_| true, Some(&set)).is_none());
        let unset = AtomicBool::new(false);
        let found = components_where(&starts, &targets, |_| true, Some(&unset)).unwrap();
        assert!(found == components(&starts, &targets));
        let (comp, sizes) = found;
        assert_eq!(sizes.len(), n as usize);
        // The last node is a sink: its component is found first.
        assert_eq!((comp[n as usize - 1], comp[0]), (0, n - 1));
    }

    #[test]
    fn components_are_numbered_sinks_first() {
        // 0 -> 1 <-> 2 -> 3, 3 -> 3 has no self loop here; 4 alone.
        let starts = [0, 1, 3, 4, 4, 4];
        let targets = [1, 2, 3, 1];
        let (comp, sizes) = components(&starts, &targets);
        assert_eq!(comp[1], comp[2]);
        assert_ne!(comp[0], comp[1]);
        assert!(comp[3] < comp[1] && comp[1] < comp[0]);
        assert_eq!(sizes[comp[1] as usize], 2);
        assert_eq!(sizes.iter().sum::<u32>(), 5);
    }
}
