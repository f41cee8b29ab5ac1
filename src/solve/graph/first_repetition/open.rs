//! An open component of one threshold as a game of its own: once the
//! search knows the answers of its open exits, its co-Büchi games decide
//! more of its positions below a line than the entry bounds did.

use super::super::Graph;
use super::arena::{Arena, Flags, Scratch};
use crate::game::{Side, SolveGame};

/// An open component of one threshold (see [`Graph::open_components`]) as
/// a game of its own, once the search knows the answers of its exits.
///
/// The entry bounds leave a component open at `t` partly because some of
/// its exits are open too: positions whose own bounds straddle `t`. Below
/// a line whose positions are all open at `t`, an exit's answer does not
/// depend on the line (see `Searcher::line_at`), so the search finds it
/// once; with every exit's answer known, the co-Büchi games of `t` on the
/// component alone ([`OpenArena::resolve`]) decide more of its positions
/// than the entry bounds did, for every line by the argument of
/// [`line_bounds`](super::line_bounds) ([`OpenArena::decide`]).
pub(crate) struct OpenArena {
    pub(super) arena: Arena<'static>,
    /// The local index of each member.
    local: rustc_hash::FxHashMap<u32, u32>,
    /// Whether a repetition of the node pays South at least the threshold.
    pub(super) pays: Vec<bool>,
    /// Whether the node has a move out of the component that the entry
    /// bounds prove won for South, one they prove won for North (South
    /// below the threshold).
    exits: Vec<[bool; 2]>,
    /// The node's moves to positions the entry bounds leave open, as graph
    /// nodes: `open_exit[open_exit_start[i]..open_exit_start[i + 1]]`.
    open_exit_start: Vec<u32>,
    open_exit: Vec<u32>,
    /// Where South's and North's games are won, once resolved.
    pub(super) won: parking_lot::Mutex<Option<std::sync::Arc<Won>>>,
    /// The answers [`OpenArena::play_out`] has found, by node and line.
    pub(super) lines: parking_lot::Mutex<rustc_hash::FxHashMap<u64, bool>>,
}

/// What an [`OpenArena`] knows once resolved.
pub(super) struct Won {
    /// Where South's co-Büchi game is won.
    pub(super) south: Vec<bool>,
    /// Where North's is.
    pub(super) north: Vec<bool>,
    /// Whether the node has a move out of the component won for South, one
    /// won for North (every exit's answer known).
    pub(super) exits: Vec<[bool; 2]>,
}

impl OpenArena {
    /// The open component whose graph nodes are `members` (its label's);
    /// `lo`, `hi` the entry bounds, `t` the threshold.
    pub fn new<G: SolveGame>(
        g: &Graph<G>,
        members: Vec<u32>,
        lo: &[i32],
        hi: &[i32],
        t: i32,
    ) -> OpenArena {
        let len = members.len();
        let local: rustc_hash::FxHashMap<u32, u32> = members
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, i as u32))
            .collect();
        let mut arena = Arena::default();
        let mut pays = Vec::with_capacity(len);
        let mut exits = Vec::with_capacity(len);
        let (mut open_exit_start, mut open_exit) = (vec![0], Vec::new());
        arena.succ_start.push(0);
        arena.pred_start.resize(len + 1, 0);
        for &v in &members {
            let v = v as usize;
            arena.south.push(g.nodes[v].side_to_move() == Side::South);
            pays.push(g.repetition_south(v) >= t);
            let mut e = [false; 2];
            for &w in g.children(v) {
                if let Some(&j) = local.get(&w) {
                    arena.succ.push(j);
                    arena.pred_start[j as usize + 1] += 1;
                } else if lo[w as usize] >= t {
                    e[0] = true;
                } else if hi[w as usize] < t {
                    e[1] = true;
                } else {
                    open_exit.push(w);
                }
            }
            arena.succ_start.push(arena.succ.len() as u32);
            open_exit_start.push(open_exit.len() as u32);
            exits.push(e);
        }
        arena.fill_preds();
        OpenArena {
            arena,
            local,
            pays,
            exits,
            open_exit_start,
            open_exit,
            won: Default::default(),
            lines: Default::default(),
        }
    }

    /// The local index of graph node `v`, if a member.
    pub fn local(&self, v: u32) -> Option<u32> {
        self.local.get(&v).copied()
    }

    /// The exits the entry bounds leave open (graph nodes, maybe repeated).
    pub fn open_exits(&self) -> &[u32] {
        &self.open_exit
    }

    pub fn is_resolved(&self) -> bool {
        self.won.lock().is_some()
    }

    /// Plays South's and North's co-Büchi games of the threshold on the
    /// component, the open exits' answers given by `south_wins` (one per
    /// entry of [`OpenArena::open_exits`]).
    pub fn resolve(&self, south_wins: &[bool]) {
        let a = &self.arena;
        let len = a.len();
        let mut has = self.exits.clone();
        for (i, h) in has.iter_mut().enumerate() {
            for k in self.open_exit_start[i]..self.open_exit_start[i + 1] {
                h[usize::from(!south_wins[k as usize])] = true;
            }
        }
        let mut flag = Flags {
            safe: vec![false; len],
            good: vec![false; len],
            bad: vec![false; len],
        };
        let mut s = Scratch::default();
        let mut won = Vec::new();
        for south in [true, false] {
            let (mine_wins, theirs_wins) = if south { (0, 1) } else { (1, 0) };
            for (i, h) in has.iter().enumerate() {
                let mine = a.south[i] == south;
                flag.safe[i] = self.pays[i] == south;
                flag.good[i] = mine && h[mine_wins];
                flag.bad[i] = !mine && h[theirs_wins];
            }
            s.region = (0..len as u32).collect();
            a.cobuchi(south, &flag, &mut s);
            won.push(std::mem::take(&mut s.won));
        }
        let north = won.pop().expect("two games");
        let south = won.pop().expect("two games");
        *self.won.lock() = Some(std::sync::Arc::new(Won {
            south,
            north,
            exits: has,
        }));
    }

    /// Whether South reaches the threshold from local node `v` when the
    /// line holds the local nodes `line` of this component (and nothing
    /// else of it), if the resolved games decide it: `Some(true)` if South
    /// wins, `Some(false)` if North keeps him below. South's positional
    /// strategy keeps the play inside his winning region, so a first
    /// repetition there is either at a position paying him enough or at a
    /// position of the line inside that region: he wins unless one of those
    /// pays too little. North's side is the mirror image.
    pub fn decide(&self, v: usize, line: &[u32]) -> Option<bool> {
        let won = self.won.lock().clone()?;
        for (south, w) in [(true, &won.south), (false, &won.north)] {
            if w[v]
                && line
                    .iter()
                    .all(|&h| !w[h as usize] || self.pays[h as usize] == south)
            {
                return Some(south);
            }
        }
        None
    }
}
