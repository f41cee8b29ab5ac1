//! Playing an open component's first-cycle game out, below a line, where
//! its resolved games leave a position undecided: a walk through every
//! line of the component, cut wherever its co-Büchi games, replayed below
//! the line walked so far, decide; the answers kept by node and line and
//! shared by the solver's threads.

use super::arena::{Flags, Scratch};
use super::open::{OpenArena, Won};

/// What [`OpenArena::play_out`] keeps between calls, so that a call costs
/// what it looks at rather than the size of the component.
#[derive(Default)]
pub(crate) struct PlayOut {
    /// Whether each local node is on the line.
    on: Vec<bool>,
    stack: Vec<Frame>,
    flags: Flags,
    games: Scratch,
    regions: Vec<Regions>,
    /// Marks for the walk that finds the positions a replay plays on.
    seen: Vec<bool>,
    met: Vec<u32>,
}

/// A node of [`OpenArena::play_out`]'s walk: its next move to try, the
/// line's set before it, the plies since the games were last replayed
/// below the line, and whether they were at this node.
struct Frame {
    v: u32,
    next: u32,
    set: u64,
    since: u32,
    regions: bool,
    /// The set of the positions of the line the play from here can meet
    /// first, where the regions were replayed here ([`Walk::met_first`]).
    met: Option<u64>,
}

/// How many answers an [`OpenArena`] keeps before it forgets them all
/// (about 32 MiB).
const LINES_KEPT: usize = 1 << 20;

/// A random word for local node `i`, for the sets of a line (XOR).
fn node_word(i: u32) -> u64 {
    let mut h = (u64::from(i) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// The key of local node `v` below a line whose set is `set`.
pub(super) fn line_key(v: u32, set: u64) -> u64 {
    crate::game::mix_words(&[u64::from(v), set])
}

impl OpenArena {
    /// What a walk found under `key`, if the table is not busy.
    fn remembered(&self, key: u64) -> Option<bool> {
        self.lines.try_lock()?.get(&key).copied()
    }

    /// Whether South reaches the threshold from local node `v` when the
    /// line holds the local nodes `line` of this component (and nothing
    /// else of it), found by playing the first-cycle game on the component
    /// out: every line from `v` through it, each ending where it leaves by
    /// an exit (whose answer is known) or comes back to a position of the
    /// line (paying by that position). Exact, and exponential in the worst
    /// case; cut wherever the resolved games decide ([`OpenArena::decide`])
    /// or the same games replayed below the line walked so far do (every
    /// [`PLAY_OUT_REGIONS`] plies, [`Walk::push_regions`]), with what it
    /// finds kept by node and line for later calls. With `reverse` (a
    /// second thread) the first nodes' moves are tried in the opposite
    /// order, and either walk ends once the table holds the answer. `None`
    /// if the component is not resolved or `stop` says so first; with the number
    /// of nodes walked.
    pub fn play_out(
        &self,
        v: usize,
        line: &[u32],
        scratch: &mut PlayOut,
        reverse: bool,
        stop: &dyn Fn() -> bool,
    ) -> (Option<bool>, u64) {
        let Some(won) = self.won.lock().clone() else {
            return (None, 0);
        };
        let a = &self.arena;
        let PlayOut {
            on,
            stack,
            flags,
            games,
            regions,
            seen,
            met,
        } = scratch;
        if on.len() < a.len() {
            on.resize(a.len(), false);
            seen.resize(a.len(), false);
            for f in [&mut flags.safe, &mut flags.good, &mut flags.bad] {
                f.resize(a.len(), false);
            }
        }
        let mut walk = Walk {
            open: self,
            won: &won,
            on,
            spoil: [0; 2],
            set: 0,
            flags,
            games,
            regions,
            seen,
            met,
            used: 0,
            reverse,
        };
        for &h in line {
            walk.toggle(h, true);
        }
        // The threads of a pass often ask the same question at once: a
        // thread with `reverse` walks the first moves in the opposite
        // order, both share what they find through the table, and each
        // stops as soon as the table holds the answer.
        let root = line_key(v as u32, walk.set);
        let answered = || self.remembered(root);
        let stop_or_answered = || stop() || answered().is_some();
        // Most calls end in a few nodes without the games: try that first,
        // then walk again replaying them (what the first walk found is kept).
        let mut nodes = 0;
        let mut result = None;
        for every in [0, PLAY_OUT_REGIONS] {
            let budget = if every == 0 { PLAIN_WALK } else { u64::MAX };
            match walk.walk(
                v as u32,
                every,
                budget,
                stack,
                &mut nodes,
                &stop_or_answered,
            ) {
                Walked::Done(r) => {
                    result = Some(r);
                    break;
                }
                Walked::Stopped if stop() => break,
                Walked::Stopped => {
                    // The other thread found it (waiting for the table this
                    // once: a busy one must not hide it). Only a table
                    // cleared meanwhile loses it: the replaying walk then
                    // runs, or the search goes on from the node.
                    result = self.lines.lock().get(&root).copied();
                    if result.is_some() {
                        break;
                    }
                }
                Walked::Budget => {}
            }
        }
        for &h in line {
            walk.toggle(h, false);
        }
        (result, nodes)
    }
}

/// How many nodes from its start a walk with `reverse` tries the moves of
/// in the opposite order. On Oware 2×9 (two threads, 2–3 runs each): 1
/// node 14.7 s, 2 13.6 s, 3 11.1 s, 5 12.6 s, 8 13.1 s, every node 18.4 s,
/// against 16.6 s with one order.
const REVERSED_PLIES: usize = 3;

/// The `i`-th move of `succs` to try, from the last if `reverse`.
fn next_move(succs: &[u32], i: usize, reverse: bool) -> Option<&u32> {
    if reverse {
        succs.len().checked_sub(i + 1).map(|j| &succs[j])
    } else {
        succs.get(i)
    }
}

/// How [`Walk::walk`] ended.
enum Walked {
    Done(bool),
    Budget,
    Stopped,
}

/// How many nodes [`OpenArena::play_out`] walks without replaying the
/// games before it starts again with them.
const PLAIN_WALK: u64 = 4096;

/// How many plies [`OpenArena::play_out`]'s second walk goes between two
/// replays of the games below its line. Replays cost what the component
/// left holds; on Oware 2×8 (Abapa) one every ply took 26 s, one every 16
/// plies 2.1 s (the search before this walk: 3.6 s), and on 3×4, 3×5 and
/// 2×9 the spacing changed nothing measurable.
const PLAY_OUT_REGIONS: u32 = 16;

/// The regions South's and North's co-Büchi games win below one line of
/// [`OpenArena::play_out`], and how many positions put on the line since
/// spoil each (see [`Walk`]).
#[derive(Default)]
struct Regions {
    /// Per local node (false outside `members`).
    south: Vec<bool>,
    north: Vec<bool>,
    /// The positions the games were played on.
    members: Vec<u32>,
    spoil: [u32; 2],
}

/// The radii of the replays [`Walk::visit`] tries, the last unbounded.
const REPLAY_RADII: [u32; 3] = [6, 24, u32::MAX];

/// At most this many flags of replayed games are kept at once (or 64
/// replays, if more), two per node of the component in each [`Regions`]:
/// a walk deeper than that replays no more. On 5×2's hard component of 859
/// positions the lines run hundreds of plies deep.
const REGIONS_KEPT: usize = 1 << 25;

/// The state of one [`OpenArena::play_out`]: which nodes are on the line,
/// how many of them spoil each player's winning region (a node of South's
/// region whose repetition pays North, and the mirror image), the line's
/// set for the keys, and the regions of the games replayed below parts of
/// the line (`regions[..used]`, the latest last).
struct Walk<'a> {
    open: &'a OpenArena,
    won: &'a Won,
    on: &'a mut [bool],
    spoil: [u32; 2],
    set: u64,
    flags: &'a mut Flags,
    games: &'a mut Scratch,
    regions: &'a mut Vec<Regions>,
    seen: &'a mut [bool],
    met: &'a mut Vec<u32>,
    used: usize,
    /// Whether the moves of the walk's first [`REVERSED_PLIES`] nodes are
    /// tried last first.
    reverse: bool,
}

impl Walk<'_> {
    fn toggle(&mut self, i: u32, put: bool) {
        let u = i as usize;
        self.on[u] = put;
        self.set ^= node_word(i);
        let pays = self.open.pays[u];
        let step = |c: &mut u32| {
            if put { *c += 1 } else { *c -= 1 }
        };
        if self.won.south[u] && !pays {
            step(&mut self.spoil[0]);
        }
        if self.won.north[u] && pays {
            step(&mut self.spoil[1]);
        }
        if let Some(r) = self.used.checked_sub(1).map(|k| &mut self.regions[k]) {
            if r.south[u] && !pays {
                step(&mut r.spoil[0]);
            }
            if r.north[u] && pays {
                step(&mut r.spoil[1]);
            }
        }
    }

    /// Walks the lines from `v` (not on the line) to their ends, replaying
    /// the games every `every` plies (0: never), for at most `budget`
    /// nodes, and leaves the line as it found it.
    fn walk(
        &mut self,
        v: u32,
        every: u32,
        budget: u64,
        stack: &mut Vec<Frame>,
        nodes: &mut u64,
        stop: &dyn Fn() -> bool,
    ) -> Walked {
        let a = &self.open.arena;
        let start = *nodes;
        stack.clear();
        let mut result = match self.visit(v, every > 0) {
            Ok(r) => Some(r),
            Err(f) => {
                stack.push(f);
                None
            }
        };
        let mut end = None;
        while !stack.is_empty() {
            let depth = stack.len();
            let top = stack.last_mut().expect("not empty");
            let u = top.v as usize;
            let owner = a.south[u];
            let done = match result.take() {
                Some(r) if r == owner => Some(r),
                _ => match next_move(
                    a.succs(u),
                    top.next as usize,
                    self.reverse && depth <= REVERSED_PLIES,
                ) {
                    Some(&w) => {
                        top.next += 1;
                        if self.on[w as usize] {
                            result = Some(self.open.pays[w as usize]);
                        } else {
                            *nodes += 1;
                            if *nodes - start > budget {
                                end = Some(Walked::Budget);
                                break;
                            }
                            if *nodes & 0x3FF == 0 && stop() {
                                end = Some(Walked::Stopped);
                                break;
                            }
                            let since = top.since + 1;
                            match self.visit(w, every > 0 && since >= every) {
                                Ok(r) => result = Some(r),
                                Err(mut f) => {
                                    if !f.regions {
                                        f.since = since;
                                    }
                                    stack.push(f);
                                }
                            }
                        }
                        None
                    }
                    // Every move tried loses: so do the exits, or the
                    // quick look would have taken one.
                    None => Some(!owner),
                },
            };
            if let Some(r) = done {
                let f = stack.pop().expect("a node is being walked");
                self.leave(&f);
                // Two threads walking one component would wait on each
                // other at every node: a busy table is passed by.
                if let Some(mut lines) = self.open.lines.try_lock() {
                    if lines.len() >= LINES_KEPT {
                        lines.clear();
                    }
                    lines.insert(line_key(f.v, f.set), r);
                    if let Some(met) = f.met {
                        lines.insert(line_key(f.v, met), r);
                    }
                }
                result = Some(r);
            }
        }
        while let Some(f) = stack.pop() {
            self.leave(&f);
        }
        end.unwrap_or_else(|| {
            Walked::Done(result.expect("a walk not cut short ends with its answer"))
        })
    }

    /// The answer from `w` (not on the line) if it needs no walk, else `w`
    /// put on the line with its frame; with `regions`, after the games
    /// replayed below the line have had their say.
    fn visit(&mut self, w: u32, regions: bool) -> Result<bool, Frame> {
        if let Some(r) = self.quick(w) {
            return Ok(r);
        }
        let regions =
            regions && (self.used + 1) * 2 * self.on.len() <= REGIONS_KEPT.max(128 * self.on.len());
        if regions {
            // Games on the positions near `w` first: they cost what they
            // look at, and most decisions need no more.
            for radius in REPLAY_RADII {
                let whole = self.push_regions(w, radius);
                if let Some(r) = self.regions_decide(w) {
                    self.pop_regions();
                    return Ok(r);
                }
                if whole {
                    break;
                }
                self.pop_regions();
            }
        }
        // The play from `w` can only end at a position of the line that it
        // meets first, past positions off the line: the answer depends on
        // those alone, and on no other position of the line. So it is kept
        // under them too, which joins many lines into one key. (The line of
        // exactly those positions has the same key, and the same answer.)
        let met = regions.then(|| self.met_first());
        if let Some(met) = met
            && let Some(r) = self.open.remembered(line_key(w, met))
        {
            self.pop_regions();
            return Ok(r);
        }
        let f = Frame {
            v: w,
            next: 0,
            set: self.set,
            since: 0,
            regions,
            met,
        };
        self.toggle(w, true);
        Err(f)
    }

    /// Takes the node of `f` off the line again.
    fn leave(&mut self, f: &Frame) {
        self.toggle(f.v, false);
        if f.regions {
            self.pop_regions();
        }
    }

    /// The set of the positions of the line that the play from the latest
    /// regions' node can meet first: those a move leads to from a position
    /// the regions were played on (all that the play from it can reach).
    fn met_first(&mut self) -> u64 {
        let a = &self.open.arena;
        let r = &self.regions[self.used - 1];
        let mut set = 0;
        self.met.clear();
        for &m in &r.members {
            for &j in a.succs(m as usize) {
                if self.on[j as usize] && !self.seen[j as usize] {
                    self.seen[j as usize] = true;
                    self.met.push(j);
                    set ^= node_word(j);
                }
            }
        }
        for &j in self.met.iter() {
            self.seen[j as usize] = false;
        }
        set
    }

    fn pop_regions(&mut self) {
        self.used -= 1;
        let r = &mut self.regions[self.used];
        for &m in &r.members {
            r.south[m as usize] = false;
            r.north[m as usize] = false;
        }
    }

    /// The answer from `w` (not on the line) if it needs no walk: its
    /// player leaves by a winning exit, a resolved game decides it below
    /// this line, a move of his closes a cycle that pays him, or an
    /// earlier walk found it.
    fn quick(&self, w: u32) -> Option<bool> {
        let u = w as usize;
        let owner = self.open.arena.south[u];
        if self.won.exits[u][usize::from(!owner)] {
            return Some(owner);
        }
        if self.won.south[u] && self.spoil[0] == 0 {
            return Some(true);
        }
        if self.won.north[u] && self.spoil[1] == 0 {
            return Some(false);
        }
        if self.used > 0 {
            let d = self.regions_decide(w);
            if d.is_some() {
                return d;
            }
        }
        let pays = &self.open.pays;
        if self
            .open
            .arena
            .succs(u)
            .iter()
            .any(|&x| (x == w || self.on[x as usize]) && pays[x as usize] == owner)
        {
            return Some(owner);
        }
        self.open.remembered(line_key(w, self.set))
    }

    /// What the latest regions say of `w`.
    fn regions_decide(&self, w: u32) -> Option<bool> {
        let r = &self.regions[self.used - 1];
        let u = w as usize;
        if r.south[u] && r.spoil[0] == 0 {
            Some(true)
        } else if r.north[u] && r.spoil[1] == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// Plays South's and North's co-Büchi games again on the positions not
    /// on the line, each position of the line a cycle's end that pays by
    /// its repetition: a move of a player to one that pays him is a good
    /// exit, one to a position that pays his opponent a bad one. By the
    /// argument of [`OpenArena::decide`], whoever wins his game from a
    /// position below this line (or below a longer one whose positions
    /// added since in his region all pay him) wins the first-cycle game.
    ///
    /// Within `radius` moves of `w` only, if the play can go further: a move
    /// of the player out of those positions then counts as lost for him, as
    /// a move of his opponent does (he may lose there, for all these games
    /// know), so whoever wins still wins the whole game. Returns whether
    /// the games were played on every position play from `w` can reach.
    fn push_regions(&mut self, w: u32, radius: u32) -> bool {
        let a = &self.open.arena;
        let pays = &self.open.pays;
        let len = a.len();
        if self.regions.len() == self.used {
            self.regions.push(Regions {
                south: vec![false; len],
                north: vec![false; len],
                ..Default::default()
            });
        }
        // The positions play from `w` can reach before it ends.
        let r = &mut self.regions[self.used];
        if r.south.len() < len {
            r.south.resize(len, false);
            r.north.resize(len, false);
        }
        r.members.clear();
        r.members.push(w);
        self.seen[w as usize] = true;
        let (mut k, mut depth, mut layer_end) = (0, 0, 1);
        let mut whole = true;
        while k < r.members.len() {
            if k == layer_end {
                depth += 1;
                layer_end = r.members.len();
            }
            let i = r.members[k] as usize;
            k += 1;
            for &j in a.succs(i) {
                if !self.on[j as usize] && !self.seen[j as usize] {
                    if depth >= radius {
                        whole = false;
                        continue;
                    }
                    self.seen[j as usize] = true;
                    r.members.push(j);
                }
            }
        }
        for south in [true, false] {
            let (wins, loses) = if south { (0, 1) } else { (1, 0) };
            self.games
                .region
                .clone_from(&self.regions[self.used].members);
            for &i in &self.games.region {
                let i = i as usize;
                let mine = a.south[i] == south;
                let exits = self.won.exits[i];
                let (mut good, mut bad) = (mine && exits[wins], !mine && exits[loses]);
                for &j in a.succs(i) {
                    if self.on[j as usize] {
                        if pays[j as usize] == south {
                            good |= mine;
                        } else {
                            bad |= !mine;
                        }
                    } else if !self.seen[j as usize] {
                        // Beyond the radius: unknown, so lost.
                        bad |= !mine;
                    }
                }
                self.flags.safe[i] = pays[i] == south;
                self.flags.good[i] = good;
                self.flags.bad[i] = bad;
            }
            a.cobuchi(south, self.flags, self.games);
            let r = &mut self.regions[self.used];
            let dst = if south { &mut r.south } else { &mut r.north };
            for &m in &r.members {
                dst[m as usize] = self.games.won[m as usize];
            }
        }
        for &m in &self.regions[self.used].members {
            self.seen[m as usize] = false;
        }
        self.regions[self.used].spoil = [0; 2];
        self.used += 1;
        whole
    }
}
