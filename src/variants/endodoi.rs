//! En Dodoi, the Kenyan relay game, as `shared/rules/endodoi.md`.
//!
//! Up to 10 holes per row, so the rows are one byte array in sowing order
//! (South's holes `0..m`, North's `m..2m`) rather than the 8-byte row words of
//! Kalah. South's hole `i` faces cell `2m-1-i`. Captured seeds are kept in two
//! counters and are never sown.

use super::cycle::{self, CycleCheck, Doomed, DoomedTable, LapState};
use super::net::Network;
use super::two_row;
use crate::game::SolveGame;
use crate::game::{
    Board, Cell, EndReason, Evaluator, Game, MoveError, NotationError, Outcome, PHASE, Side,
    TraceStep, linear_value, linear_value_terms,
};
use crate::options::{RuleOption, RuleOptions};
use std::sync::LazyLock;

pub const MIN_PITS: u8 = 6;
pub const MAX_PITS: u8 = 10;
pub const MIN_SEEDS: u8 = 3;
pub const MAX_SEEDS: u8 = 6;
const CELLS: usize = 2 * MAX_PITS as usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnDodoiRules {
    pub pits: u8,
    pub seeds: u8,
}

impl Default for EnDodoiRules {
    fn default() -> Self {
        EnDodoiRules { pits: 6, seeds: 4 }
    }
}

/// The sizes the tradition plays.
impl RuleOptions for EnDodoiRules {
    const OPTIONS: &'static [RuleOption<Self>] = &[
        crate::spin_option!(EnDodoiRules, "Pits", pits, MIN_PITS, MAX_PITS, aliases: ["holes"],
            flag: "pits", label: "Holes per side", help: "pits (houses, holes) per row"),
        crate::spin_option!(EnDodoiRules, "Seeds", seeds, MIN_SEEDS, MAX_SEEDS, aliases: [],
            flag: "seeds", label: "Seeds per hole", help: "seeds per pit at the start"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnDodoi {
    cells: [u8; CELLS],
    captured: [u8; 2],
    pits: u8,
    seeds: u8,
    side: Side,
}

/// The in-move state at a lap's end, up to rotation: the holes of the ring
/// from the current one on. Relay sowing treats every hole of the ring
/// alike (rows only matter once the move has ended), so rotated states have
/// rotated futures; if a state comes back rotated, applying the same
/// rotation again and again brings the state itself back after at most
/// `ring` turns: the move never ends either way.
#[derive(Clone, PartialEq, Eq, Hash)]
struct DodoiLap {
    cells: [u8; CELLS],
    ring: u8,
}

impl LapState for DodoiLap {
    fn digest(&self) -> u64 {
        let c = &self.cells;
        let lo = u64::from_le_bytes(c[..8].try_into().unwrap());
        let mid = u64::from_le_bytes(c[8..16].try_into().unwrap());
        let hi = u32::from_le_bytes(c[16..20].try_into().unwrap()) as u64;
        cycle::mix(lo ^ cycle::mix(mid ^ cycle::mix(hi | (self.ring as u64) << 32)))
    }
}

static DOOMED: DoomedTable<DodoiLap> = LazyLock::new(Doomed::new);

/// A move: the hole index (0-based from the mover's own left).
pub type HoleMove = u8;

/// How a sowing from one hole turns out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sowing {
    /// The move ends; the position after it.
    Ends(EnDodoi),
    /// Relay sowing repeats an in-move state: the move would never end.
    NeverEnds,
    /// The caller ran out of time before the move was judged
    /// ([`crate::interrupt`]).
    Interrupted,
}

impl EnDodoi {
    fn m(&self) -> usize {
        self.pits as usize
    }

    fn row(&self, side: Side) -> std::ops::Range<usize> {
        let m = self.m();
        if side == Side::South { 0..m } else { m..2 * m }
    }

    /// Seeds in `side`'s hole `index` (0-based from that side's left).
    pub fn hole(&self, side: Side, index: usize) -> u8 {
        self.cells[self.row(side).start + index]
    }

    /// Seeds `side` has captured.
    pub fn captured(&self, side: Side) -> u32 {
        self.captured[side.index()] as u32
    }

    pub fn row_seeds(&self, side: Side) -> u32 {
        self.cells[self.row(side)].iter().map(|&v| v as u32).sum()
    }

    /// The holes in sowing order from South's first.
    pub fn board(&self) -> Vec<u8> {
        self.cells[..2 * self.m()].to_vec()
    }

    /// Plays the whole relay move from the mover's hole `mv` (non-empty).
    pub fn sow(&self, mv: HoleMove) -> Sowing {
        self.sow_counting(mv).0
    }

    /// [`EnDodoi::sow`], also giving the number of laps sown (for a
    /// never-ending move: until the repeat was recognised).
    pub fn sow_counting(&self, mv: HoleMove) -> (Sowing, u64) {
        let mut next = *self;
        let ring = 2 * self.m();
        let b = &mut next.cells;
        let mut at = self.row(self.side).start + mv as usize;
        let mut check = CycleCheck::with_table(&DOOMED);
        loop {
            let seeds = b[at] as usize;
            b[at] = 0;
            // Whole laps round the board first: the origin is not skipped.
            let (full, rest) = (seeds / ring, seeds % ring);
            if full > 0 {
                for c in b[..ring].iter_mut() {
                    *c += full as u8;
                }
            }
            for _ in 0..rest {
                at += 1;
                if at == ring {
                    at = 0;
                }
                b[at] += 1;
            }
            // With a whole number of laps (`rest == 0`) the last seed fell
            // back into the hole it came from, which `at` still names.
            if b[at] == 1 {
                break;
            }
            let state = || {
                let mut cells = [0; CELLS];
                cells[..ring - at].copy_from_slice(&b[at..ring]);
                cells[ring - at..ring].copy_from_slice(&b[..at]);
                DodoiLap {
                    cells,
                    ring: ring as u8,
                }
            };
            if check.repeats(state) {
                let verdict = if check.interrupted() {
                    Sowing::Interrupted
                } else {
                    Sowing::NeverEnds
                };
                return (verdict, check.laps());
            }
        }
        let own = self.row(self.side);
        if own.contains(&at) {
            let facing = 2 * self.m() - 1 - at;
            if b[facing] > 0 {
                next.captured[self.side.index()] += 1 + b[facing];
                b[at] = 0;
                b[facing] = 0;
            }
        }
        next.side = self.side.other();
        (Sowing::Ends(next), check.laps() + 1)
    }

    fn candidates(&self) -> impl Iterator<Item = HoleMove> + '_ {
        self.cells[self.row(self.side)]
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0)
            .map(|(i, _)| i as u8)
    }

    fn can_move(&self) -> bool {
        self.candidates()
            .any(|mv| matches!(self.sow(mv), Sowing::Ends(_)))
    }
}

impl Board for EnDodoi {
    fn cells(&self) -> Vec<Cell> {
        two_row::cells(
            &self.board(),
            [self.captured(Side::South), self.captured(Side::North)],
        )
    }

    fn move_cell(&self, mv: HoleMove) -> usize {
        self.row(self.side).start + mv as usize
    }

    /// Sows seed by seed, lifting again wherever the last seed falls in an
    /// occupied hole (a second telling of `sow`). The move must be legal,
    /// so it ends.
    fn play_traced(&self, mv: HoleMove) -> (EnDodoi, Vec<TraceStep>) {
        let ring = 2 * self.m();
        let (me, them) = (self.side, self.side.other());
        let captured = [self.captured(Side::South), self.captured(Side::North)];
        let mut t = two_row::Tracer::new(&self.board(), captured);
        let mut at = t.pit(me, mv as usize);
        let mut laps = 0u64;
        loop {
            if laps > 0 {
                t.note(format!("relay lap {}", laps + 1));
            }
            laps += 1;
            let mut hand = t.lift(at);
            while hand > 0 {
                at = (at + 1) % ring;
                t.drop_seed(at);
                hand -= 1;
            }
            if t.cells[at] == 1 {
                break;
            }
        }
        if let Some((side, i)) = t.owner(at)
            && side == me
        {
            let facing = t.pit(them, self.m() - 1 - i);
            if t.cells[facing] > 0 {
                t.note(format!(
                    "capture: the last seed and the seeds of hole {}",
                    two_row::pit_letter(them, self.m() - 1 - i)
                ));
                t.take(facing, t.store(me));
                t.take(at, t.store(me));
            }
        }
        let next = EnDodoi::from_notation(&self.rules(), &t.token(them))
            .expect("a traced move keeps every seed");
        (next, t.steps)
    }
}

impl Game for EnDodoi {
    type Move = HoleMove;
    type Eval = EnDodoiEval;
    type Rules = EnDodoiRules;

    // Relay sowing moves seeds both ways round the board, so a position can
    // come back; the rules have no repetition rule, but searches must know.
    const CAN_REPEAT: bool = true;

    // The playing levels' depths and spreads, tuned in development matches
    // (docs/PERFORMANCE.md, "Playing levels"), and their Elo at the default
    // rules as the tournaments of tournaments/levels/ measured it
    // (tests/levels.rs checks the numbers against the games).
    fn level_play(_: &EnDodoiRules) -> &'static [(u32, i32)] {
        &[
            (1, 700),
            (1, 200),
            (1, 80),
            (3, 40),
            (4, 40),
            (6, 25),
            (8, 10),
        ]
    }

    fn level_elo(rules: &EnDodoiRules) -> &'static [i32] {
        if *rules == EnDodoiRules::default() {
            &[780, 923, 1058, 1471, 1759, 1959, 2146, 2397]
        } else {
            &[]
        }
    }

    fn start(rules: &EnDodoiRules) -> EnDodoi {
        let mut cells = [0u8; CELLS];
        cells[..2 * rules.pits as usize].fill(rules.seeds);
        EnDodoi {
            cells,
            captured: [0, 0],
            pits: rules.pits,
            seeds: rules.seeds,
            side: Side::South,
        }
    }

    fn rules(&self) -> EnDodoiRules {
        EnDodoiRules {
            pits: self.pits,
            seeds: self.seeds,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<HoleMove>) {
        out.clear();
        out.extend(
            self.candidates()
                .filter(|&mv| matches!(self.sow(mv), Sowing::Ends(_))),
        );
    }

    fn play(&self, mv: HoleMove) -> EnDodoi {
        match self.sow(mv) {
            Sowing::Ends(next) => next,
            Sowing::NeverEnds => panic!("play: a never-ending move is not legal"),
            // Thrown away by the interrupted caller.
            Sowing::Interrupted => *self,
        }
    }

    // An action is a hole of the mover's row, numbered from his left (A = 0).
    fn action_count(rules: &EnDodoiRules) -> usize {
        rules.pits as usize
    }

    fn action_of(mv: HoleMove) -> usize {
        mv as usize
    }

    fn move_of_action(rules: &EnDodoiRules, action: usize) -> Option<HoleMove> {
        (action < rules.pits as usize).then_some(action as HoleMove)
    }

    fn observation_len(rules: &EnDodoiRules) -> usize {
        2 * rules.pits as usize + 2
    }

    fn observe(&self, view: Side, out: &mut [f32]) {
        two_row::observe(
            out,
            self.m(),
            view,
            |s, i| self.hole(s, i),
            |s| self.captured(s),
        );
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.can_move() {
            return None;
        }
        // The player to move cannot: what is left goes to the one who moved last.
        let mut counts = [self.captured(Side::South), self.captured(Side::North)];
        counts[self.side.other().index()] +=
            self.row_seeds(Side::South) + self.row_seeds(Side::North);
        Some(Outcome::by_count(counts[0], counts[1]))
    }

    fn total_seeds(&self) -> u32 {
        let (s, n) = self.seed_count().expect("a counting game");
        s + n
    }

    fn end_reason(&self) -> Option<EndReason> {
        if self.can_move() {
            return None;
        }
        Some(if self.row_seeds(self.side) == 0 {
            EndReason::EmptyRow(self.side)
        } else {
            EndReason::NeverEndingMoves(self.side)
        })
    }

    fn gained(&self, side: Side) -> u32 {
        self.captured(side)
    }

    fn seed_count(&self) -> Option<(u32, u32)> {
        Some((
            self.captured(Side::South) + self.row_seeds(Side::South),
            self.captured(Side::North) + self.row_seeds(Side::North),
        ))
    }

    fn hash(&self) -> u64 {
        let mut words = [0u64; 4];
        for (i, &c) in self.cells.iter().enumerate() {
            words[i / 8] |= (c as u64) << (8 * (i % 8));
        }
        words[3] |= (self.captured[0] as u64) << 32
            | (self.captured[1] as u64) << 40
            | (self.side as u64) << 48
            | (self.pits as u64) << 52
            | (self.seeds as u64) << 58;
        crate::game::mix_words(&words)
    }

    fn split_joined(text: &str) -> Option<Vec<(String, Side)>> {
        two_row::split_letters(text)
    }

    fn parse_move(&self, text: &str) -> Result<HoleMove, MoveError> {
        let i = two_row::parse_pit(text, self.side, self.m())?;
        let letter = two_row::pit_letter(self.side, i);
        if self.hole(self.side, i) == 0 {
            return Err(MoveError::Illegal(format!("hole {letter} is empty")));
        }
        match self.sow(i as u8) {
            Sowing::Ends(_) => Ok(i as u8),
            Sowing::NeverEnds => Err(MoveError::Illegal(format!(
                "the relay sowing from {letter} never ends"
            ))),
            Sowing::Interrupted => Err(MoveError::Illegal(format!(
                "the relay sowing from {letter} was not judged: interrupted"
            ))),
        }
    }

    fn format_move(&self, mv: HoleMove) -> String {
        two_row::pit_letter(self.side, mv as usize).to_string()
    }

    fn from_notation(rules: &EnDodoiRules, text: &str) -> Result<EnDodoi, NotationError> {
        let f = two_row::parse_fields_upto(text, MAX_PITS as usize)?;
        if f.pits < MIN_PITS as usize {
            return Err(NotationError(format!(
                "{} holes per row: endodoi is played with {MIN_PITS}..{MAX_PITS}",
                f.pits
            )));
        }
        f.check_total("endodoi", rules.seeds as u32)?;
        let mut cells = [0u8; CELLS];
        for (c, &v) in cells.iter_mut().zip(&f.board) {
            *c = v as u8;
        }
        Ok(EnDodoi {
            cells,
            captured: [f.stores[0] as u8, f.stores[1] as u8],
            pits: f.pits as u8,
            seeds: rules.seeds,
            side: f.side,
        })
    }

    fn to_notation(&self) -> String {
        two_row::format_fields(
            &self.board(),
            [self.captured(Side::South), self.captured(Side::North)],
            self.side,
        )
    }

    fn diagram(&self) -> String {
        two_row::diagram(
            &self.board(),
            [self.captured(Side::South), self.captured(Side::North)],
        )
    }
}

/// En Dodoi's evaluators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EnDodoiEval {
    /// The network ([`EnDodoiEval::Net`]): it won its SPRT against the
    /// hand-picked evaluation on even openings
    /// (`tournaments/endodoi-sprt-net-vs-classic-even/`).
    #[default]
    Default,
    /// A small network trained by `kete tune net` (`weights/endodoi.net`):
    /// the seeds of every hole and the captured seeds of each side, seen
    /// from the side to move, one input for each count (the two-row inputs
    /// Oware's network has), 32 hidden units. For the board it was trained
    /// on, 6 holes of 4 seeds; on other boards it is the hand-picked
    /// evaluation.
    Net,
    /// The first, hand-picked evaluation: captured seeds, the seeds each
    /// side still has on the board, and the captures the mover can make.
    Classic,
    /// The linear evaluation over [`EnDodoiEval::FEATURES`] with the weights
    /// `kete tune` fitted to game results (`weights/endodoi.rs`). Not the
    /// default yet: its SPRT passed on few decisive pairs, and depth 4 of it
    /// beat depth 2 less clearly than the hand-picked one does
    /// (`tests/selfplay.rs`).
    Tuned,
    /// The difference of captured seeds alone.
    Captured,
}

/// The tuned weights, one (opening, endgame) pair per feature.
#[path = "weights/endodoi.rs"]
mod weights;

/// The network's hidden units.
const NET_HIDDEN: usize = 32;

/// The network compiled in.
static NET: Network<{ two_row::NET_INPUTS }, NET_HIDDEN> =
    Network::from_bytes(include_bytes!("weights/endodoi.net"));

/// Features per side, in the order of [`EnDodoiEval::FEATURES`] after the
/// first two.
const SIDE_FEATURES: usize = 5;

impl Evaluator<EnDodoi> for EnDodoiEval {
    const TABLE: &'static [(Self, &'static [&'static str])] = &[
        (EnDodoiEval::Default, &["default"]),
        (EnDodoiEval::Net, &["net"]),
        (EnDodoiEval::Classic, &["classic"]),
        (EnDodoiEval::Tuned, &["tuned"]),
        (EnDodoiEval::Captured, &["captured", "plain"]),
    ];

    const FEATURES: &'static [&'static str] = &[
        "captured",
        "capture_now",
        "seeds_me",
        "empty_me",
        "single_me",
        "big_me",
        "exposed_me",
        "seeds_opp",
        "empty_opp",
        "single_opp",
        "big_opp",
        "exposed_opp",
    ];

    const WEIGHTS: &'static [(i32, i32)] = &weights::WEIGHTS;

    fn evaluate(&self, pos: &EnDodoi) -> i32 {
        match self {
            EnDodoiEval::Tuned => linear_value::<_, Self>(pos),
            EnDodoiEval::Default | EnDodoiEval::Net => NET
                .value::<_, Self>(pos)
                .unwrap_or_else(|| EnDodoiEval::Classic.evaluate(pos)),
            _ => self.terms(pos).iter().map(|t| t.1).sum(),
        }
    }

    fn terms(&self, pos: &EnDodoi) -> Vec<(&'static str, i32)> {
        let me = pos.side;
        let opp = me.other();
        let captured = 100 * (pos.captured(me) as i32 - pos.captured(opp) as i32);
        match self {
            EnDodoiEval::Tuned => return linear_value_terms::<_, Self>(pos),
            EnDodoiEval::Captured => return vec![("captured", captured)],
            EnDodoiEval::Default | EnDodoiEval::Net => {
                if let Some(v) = NET.value::<_, Self>(pos) {
                    return vec![("network", v)];
                }
            }
            EnDodoiEval::Classic => {}
        }
        // Seeds on the board go to whoever moves last, and relays carry them
        // across, so a seed on one's own side is worth only a little.
        let side = 20 * (pos.row_seeds(me) as i32 - pos.row_seeds(opp) as i32);
        vec![
            ("captured", captured),
            ("side", side),
            ("threat", 50 * pos.best_capture() as i32),
        ]
    }

    fn features(pos: &EnDodoi, out: &mut [i32]) -> i32 {
        let me = pos.side;
        out[0] = pos.captured(me) as i32 - pos.captured(me.other()) as i32;
        out[1] = pos.best_capture() as i32;
        pos.side_features(me, &mut out[2..2 + SIDE_FEATURES]);
        pos.side_features(me.other(), &mut out[2 + SIDE_FEATURES..]);
        let board = (pos.row_seeds(Side::South) + pos.row_seeds(Side::North)) as i32;
        let total = 2 * pos.m() as i32 * pos.seeds as i32;
        (PHASE * board / total.max(1)).min(PHASE)
    }

    // The board of the default rules, 6 holes of 4 seeds, is Oware's: the
    // two-row inputs, the captured seeds in the stores' place.
    const NET_INPUTS: usize = two_row::NET_INPUTS;

    fn net_inputs(pos: &EnDodoi, out: &mut [u16]) -> Option<usize> {
        if pos.m() != two_row::NET_PITS / 2 || pos.seeds != 4 {
            return None;
        }
        let me = pos.side;
        let rows = pos.cells[pos.row(me)]
            .iter()
            .chain(&pos.cells[pos.row(me.other())]);
        let stores = [pos.captured(me), pos.captured(me.other())];
        Some(two_row::net_inputs(rows.copied(), stores, out))
    }
}

impl EnDodoi {
    /// The most seeds the mover captures with one move now (relays played
    /// out; a never-ending move captures nothing).
    fn best_capture(&self) -> u32 {
        let mut best = 0;
        for mv in self.candidates() {
            if let Sowing::Ends(next) = self.sow(mv) {
                best = best.max(next.captured(self.side) - self.captured(self.side));
            }
        }
        best
    }

    /// One side's features: seeds in its row; empty holes; holes of one
    /// seed; holes that sow a whole lap; and the seeds in its holes that face
    /// an empty hole of the opponent (a move of his ending there takes them).
    fn side_features(&self, side: Side, out: &mut [i32]) {
        let m = self.m();
        let (mut seeds, mut empty, mut single, mut big, mut exposed) = (0, 0, 0, 0, 0);
        for at in self.row(side) {
            let v = self.cells[at] as i32;
            seeds += v;
            empty += (v == 0) as i32;
            single += (v == 1) as i32;
            big += (v as usize >= 2 * m) as i32;
            if self.cells[2 * m - 1 - at] == 0 {
                exposed += v;
            }
        }
        out.copy_from_slice(&[seeds, empty, single, big, exposed]);
    }
}

impl SolveGame for EnDodoi {
    fn pits_per_row(&self) -> u32 {
        self.rules().pits as u32
    }

    fn banked(&self) -> i32 {
        let me = self.side_to_move();
        self.captured(me) as i32 - self.captured(me.other()) as i32
    }

    fn seeds_in_play(&self) -> u32 {
        self.row_seeds(Side::South) + self.row_seeds(Side::North)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MAX_NET_ACTIVE;

    /// Positions of random games on the default board, and their mirrors
    /// (rows and captures swapped, the other side to move).
    fn random_positions(n: usize) -> Vec<(EnDodoi, EnDodoi)> {
        let rules = EnDodoiRules::default();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut out = Vec::new();
        let mut moves = Vec::new();
        while out.len() < n {
            let mut pos = EnDodoi::start(&rules);
            loop {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = pos.m();
                let mut mirror = pos;
                mirror.cells[..m].copy_from_slice(&pos.cells[m..2 * m]);
                mirror.cells[m..2 * m].copy_from_slice(&pos.cells[..m]);
                mirror.captured = [pos.captured[1], pos.captured[0]];
                mirror.side = pos.side.other();
                out.push((pos, mirror));
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        out
    }

    #[test]
    fn network_inputs_are_the_movers_holes_then_the_opponents_then_the_captures() {
        let rules = EnDodoiRules::default();
        // North to move: its holes 7 0 1 2 3 4 first, then South's.
        let pos = EnDodoi::from_notation(&rules, "0-1-2-3-4-5-7-0-1-2-3-4-6-10-N").unwrap();
        let mut active = [0u16; MAX_NET_ACTIVE];
        assert_eq!(EnDodoiEval::net_inputs(&pos, &mut active), Some(14));
        let counts = [7, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5];
        let mut want: Vec<u16> = counts
            .iter()
            .enumerate()
            .map(|(k, &v)| (k * two_row::NET_PIT_COUNTS + v) as u16)
            .collect();
        let stores = 12 * two_row::NET_PIT_COUNTS;
        want.push((stores + 10) as u16);
        want.push((stores + two_row::NET_STORE_COUNTS + 6) as u16);
        assert_eq!(active[..14], want[..]);
    }

    /// The network sees the side to move's view only: a position and its
    /// mirror have the same inputs and value.
    #[test]
    fn the_network_does_not_depend_on_the_colour_to_move() {
        let (mut a, mut b) = ([0u16; MAX_NET_ACTIVE], [0u16; MAX_NET_ACTIVE]);
        for (pos, mirror) in random_positions(2_000) {
            assert_eq!(EnDodoiEval::net_inputs(&pos, &mut a), Some(14));
            assert_eq!(EnDodoiEval::net_inputs(&mirror, &mut b), Some(14));
            assert_eq!(a[..14], b[..14]);
            two_row::assert_one_input_a_cell(&a[..14]);
            assert_eq!(
                EnDodoiEval::Net.evaluate(&pos),
                EnDodoiEval::Net.evaluate(&mirror)
            );
        }
    }

    #[test]
    fn other_boards_are_evaluated_by_the_classic_evaluation() {
        let big = EnDodoi::start(&EnDodoiRules { pits: 8, seeds: 4 });
        let mut active = [0u16; MAX_NET_ACTIVE];
        assert_eq!(EnDodoiEval::net_inputs(&big, &mut active), None);
        for e in [EnDodoiEval::Default, EnDodoiEval::Net] {
            assert_eq!(e.evaluate(&big), EnDodoiEval::Classic.evaluate(&big));
            assert_eq!(e.terms(&big), EnDodoiEval::Classic.terms(&big));
        }
    }
}
