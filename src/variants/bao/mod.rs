//! Bao la Kiswahili and Bao la Kujifunza, as `shared/rules/bao.md`.
//!
//! Each player's 16 pits are one loop, `[u8; 16]` indexed so that clockwise
//! is `+1`: index `i < 8` is front pit `i+1` (A1..A8), index `i ≥ 8` is back
//! pit `16-i` (B8 at 8 .. B1 at 15). South's front `i` faces North's front
//! `7-i`, and the same holds the other way round, so one table serves both.
//!
//! A move is simulated whole, lap by lap ([`Bao::run`]); legality needs the
//! whole move anyway (never-ending moves, a takasa that empties the front
//! row, the stop/safari choice), so move generation runs every candidate.

mod eval;
mod laps;
mod notation;
mod rules;
mod sow;

pub use eval::BaoEval;
pub use rules::{
    BaoRules, Dormant, FrontRow, Kind, MtajiTakasaNyumba, SingletonRule, TakasiaCheck,
    TakasiaNyumbaLap, TakasiaObligation, TakasiaSingleton,
};
pub use sow::Refusal;

use crate::game::{
    Board, Cell, CellKind, EndReason, Game, MoveError, NotationError, Outcome, Side, TraceStep,
};

/// Index of the nyumba in a loop (front pit 5).
pub const NYUMBA: usize = 4;

/// The length of a position's observation ([`Game::observe`]).
const OBSERVATION_LEN: usize = 53;

/// A move: the pit it starts from (loop index, see the module text), the
/// direction of its first sowing (for a namua capture: of the sowing of the
/// captured seeds, so `cw` means entry at the left kichwa) and whether the
/// player takes the safari when offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaoMove {
    pub pit: u8,
    pub cw: bool,
    pub safari: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bao {
    /// Each side's loop, indexed by `Side::index()`.
    pits: [[u8; 16]; 2],
    hand: [u8; 2],
    /// The nyumba has not been lost (emptied, captured, or its privileges
    /// ended by the first mtaji capture).
    owned: [bool; 2],
    side: Side,
    /// A front pit of the side to move that is takasia'd for this move.
    takasia: Option<u8>,
    /// Under `TakasiaObligation::Clear` (D4): the opponent's front pit that
    /// the side to move takasia'd on his previous move, which his captures
    /// must take if one of them can.
    clear: Option<u8>,
    /// The mtaji stage has seen its first capture (nyumba privileges over).
    mtaji_captured: bool,
    rules: BaoRules,
}

impl Bao {
    /// Seeds in a pit of `side`: `row` 0 = front, 1 = back; `number` 1..8
    /// from that side's own left.
    pub fn pit(&self, side: Side, row: usize, number: usize) -> u8 {
        self.pits[side.index()][loop_index(row, number)]
    }

    /// The whole loop of `side` (see the module text for the order).
    pub fn loop_of(&self, side: Side) -> [u8; 16] {
        self.pits[side.index()]
    }

    pub fn hand(&self, side: Side) -> u8 {
        self.hand[side.index()]
    }

    /// Whether `side` still owns his nyumba (it may be dormant).
    pub fn nyumba_owned(&self, side: Side) -> bool {
        self.owned[side.index()]
    }

    /// Owned, privileges not ended, and holding 6 or more seeds.
    pub fn nyumba_functional(&self, side: Side) -> bool {
        self.owned[side.index()] && !self.mtaji_captured && self.pits[side.index()][NYUMBA] >= 6
    }

    /// The front pit (0-based from its owner's left) takasia'd for the side
    /// to move.
    pub fn takasia(&self) -> Option<u8> {
        self.takasia
    }

    /// The opponent's front pit (0-based from its owner's left) that the
    /// side to move must capture if he can (D4, `TakasiaObligation=clear`).
    pub fn must_clear(&self) -> Option<u8> {
        self.clear
    }

    pub fn mtaji_captured(&self) -> bool {
        self.mtaji_captured
    }

    fn front_empty(&self, side: Side) -> bool {
        self.pits[side.index()][..8].iter().all(|&v| v == 0)
    }

    /// The same position with `side` to move and no takasia: for asking what
    /// a player could do if it were his turn.
    pub(super) fn as_mover(&self, side: Side) -> Bao {
        let mut p = *self;
        p.side = side;
        p.takasia = None;
        p.clear = None;
        p
    }
}

/// Loop index of `row` (0 front, 1 back) and `number` (1..8 from the owner's
/// left).
pub fn loop_index(row: usize, number: usize) -> usize {
    if row == 0 { number - 1 } else { 16 - number }
}

impl Board for Bao {
    /// South's loop, North's loop (in loop order), then South's and North's
    /// hand.
    fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::with_capacity(34);
        for side in [Side::South, Side::North] {
            let s = side.index();
            for i in 0..16 {
                let (row, number) = if i < 8 { (0, i + 1) } else { (1, 16 - i) };
                let (letter, _) = notation::pit_name(side, i);
                let mut marks = Vec::new();
                if i == NYUMBA && self.owned[s] {
                    marks.push("nyumba");
                    if self.nyumba_functional(side) {
                        marks.push("functional");
                    }
                }
                if side == self.side && self.takasia == Some(i as u8) {
                    marks.push("takasia");
                }
                // The ends of the front row (kichwa) and their neighbours
                // (with them, the kimbi) decide where captured seeds enter.
                if row == 0 && matches!(number, 1 | 8) {
                    marks.push("kichwa");
                }
                if row == 0 && matches!(number, 1 | 2 | 7 | 8) {
                    marks.push("kimbi");
                }
                out.push(Cell {
                    side,
                    kind: CellKind::Pit,
                    row,
                    col: (number - 1) as u8,
                    name: format!("{letter}{number}"),
                    seeds: self.pits[s][i] as u32,
                    marks,
                });
            }
        }
        for side in [Side::South, Side::North] {
            out.push(Cell {
                side,
                kind: CellKind::Hand,
                row: 0,
                col: 8,
                name: format!("{}-hand", side.letter()),
                seeds: self.hand[side.index()] as u32,
                marks: Vec::new(),
            });
        }
        out
    }

    fn move_cell(&self, mv: BaoMove) -> usize {
        sow::cell(self.side.index(), mv.pit as usize)
    }

    fn play_traced(&self, mv: BaoMove) -> (Bao, Vec<TraceStep>) {
        match self.play_traced_checked(mv) {
            Ok(done) => done,
            // As `play`: an interrupted caller throws the answer away.
            Err(Refusal::Interrupted) => (*self, Vec::new()),
            Err(r) => panic!("play_traced: {mv:?} is not legal here ({r})"),
        }
    }
}

impl Game for Bao {
    type Move = BaoMove;
    type Eval = BaoEval;
    type Rules = BaoRules;

    // In the mtaji stage seeds only go round, so a position can come back.
    const CAN_REPEAT: bool = true;

    // The playing levels' depths and spreads, tuned in development matches
    // (docs/PERFORMANCE.md, "Playing levels"), and their Elo at the default
    // rules as the tournaments of tournaments/levels/ measured it
    // (tests/levels.rs checks the numbers against the games).
    fn level_play(rules: &BaoRules) -> &'static [(u32, i32)] {
        match rules.kind {
            Kind::Kiswahili => &[
                (1, 700),
                (2, 700),
                (2, 150),
                (3, 80),
                (4, 30),
                (7, 12),
                (10, 5),
            ],
            Kind::Kujifunza => &[
                (1, 400),
                (1, 60),
                (2, 60),
                (3, 60),
                (4, 40),
                (6, 35),
                (8, 12),
            ],
        }
    }

    // Bao la Kujifunza's levels keep the linear evaluation. With the
    // network a deeper search gains so little in this short game that seven
    // levels could not stand 100 Elo apart between the greedy player and
    // full strength (docs/PERFORMANCE.md, "Playing levels").
    fn level_eval(rules: &BaoRules) -> BaoEval {
        match rules.kind {
            Kind::Kiswahili => BaoEval::Default,
            Kind::Kujifunza => BaoEval::Classic,
        }
    }

    fn level_elo(rules: &BaoRules) -> &'static [i32] {
        if *rules == BaoRules::kiswahili() {
            &[922, 1268, 1499, 1762, 1909, 2333, 2464, 2705]
        } else if *rules == BaoRules::kujifunza() {
            &[965, 1088, 1329, 1476, 1584, 1715, 1822, 1937]
        } else {
            &[]
        }
    }

    fn start(rules: &BaoRules) -> Bao {
        let mut pits = [[0u8; 16]; 2];
        let (hand, owned) = match rules.kind {
            Kind::Kujifunza => {
                pits = [[2; 16]; 2];
                ([0, 0], [false, false])
            }
            Kind::Kiswahili => {
                for row in pits.iter_mut() {
                    row[NYUMBA] = 6;
                    row[5] = 2;
                    row[6] = 2;
                }
                ([22, 22], [true, true])
            }
        };
        Bao {
            pits,
            hand,
            owned,
            side: Side::South,
            takasia: None,
            clear: None,
            mtaji_captured: false,
            rules: *rules,
        }
    }

    fn rules(&self) -> BaoRules {
        self.rules
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<BaoMove>) {
        out.clear();
        if self.front_empty(Side::South) || self.front_empty(Side::North) {
            return;
        }
        self.generate(out);
    }

    fn play(&self, mv: BaoMove) -> Bao {
        match self.play_checked(mv) {
            Ok(next) => next,
            // The caller ran out of time and throws the answer away.
            Err(Refusal::Interrupted) => *self,
            Err(r) => panic!("play: {mv:?} is not legal here ({r})"),
        }
    }

    // An action is a pit of the mover's 16 (as `BaoMove::pit` numbers them),
    // times the two directions, times the safari choice: 64 in all.
    fn action_count(_: &BaoRules) -> usize {
        16 * 4
    }

    fn action_of(mv: BaoMove) -> usize {
        mv.pit as usize * 4 + usize::from(mv.cw) * 2 + usize::from(mv.safari)
    }

    fn move_of_action(_: &BaoRules, action: usize) -> Option<BaoMove> {
        (action < 16 * 4).then_some(BaoMove {
            pit: (action / 4) as u8,
            cw: action & 2 != 0,
            safari: action & 1 != 0,
        })
    }

    fn observation_len(_: &BaoRules) -> usize {
        OBSERVATION_LEN
    }

    /// Both players' front rows and back rows (pits 1..8 from the owner's
    /// left), the hands, whether each still owns his nyumba, whether the
    /// mtaji stage's first capture has ended the nyumba's privileges, the
    /// mover's takasia'd front pit and the opponent's front pit he must
    /// clear, each one-hot over 8 pits (zero when `view` is not to move).
    fn observe(&self, view: Side, out: &mut [f32]) {
        let out = &mut out[..OBSERVATION_LEN];
        out.fill(0.0);
        let me = view;
        for (k, side) in [me, me.other()].into_iter().enumerate() {
            for row in 0..2 {
                for n in 1..=8 {
                    out[16 * k + 8 * row + n - 1] = f32::from(self.pit(side, row, n));
                }
            }
            out[32 + k] = f32::from(self.hand(side));
            out[34 + k] = f32::from(u8::from(self.nyumba_owned(side)));
        }
        out[36] = f32::from(u8::from(self.mtaji_captured));
        if view != self.side {
            return;
        }
        if let Some(p) = self.takasia {
            out[37 + p as usize] = 1.0;
        }
        if let Some(p) = self.clear {
            out[45 + p as usize] = 1.0;
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.front_empty(Side::South) {
            return Some(Outcome::win(Side::North));
        }
        if self.front_empty(Side::North) {
            return Some(Outcome::win(Side::South));
        }
        let mut moves = Vec::new();
        self.generate(&mut moves);
        if moves.is_empty() {
            return Some(Outcome::win(self.side.other()));
        }
        None
    }

    fn gained(&self, side: Side) -> u32 {
        let own: u32 = self.pits[side.index()].iter().map(|&v| v as u32).sum();
        own + self.hand[side.index()] as u32
    }

    fn total_seeds(&self) -> u32 {
        let on_board: u32 = self.pits.iter().flatten().map(|&v| v as u32).sum();
        on_board + self.hand.iter().map(|&v| v as u32).sum::<u32>()
    }

    fn end_reason(&self) -> Option<EndReason> {
        // The same tests, in the same order, as `outcome`.
        for side in [Side::South, Side::North] {
            if self.front_empty(side) {
                return Some(EndReason::FrontRowEmpty(side));
            }
        }
        let mut moves = Vec::new();
        self.generate(&mut moves);
        if !moves.is_empty() {
            return None;
        }
        Some(if self.has_never_ending_move() {
            EndReason::NeverEndingMoves(self.side)
        } else {
            EndReason::NoLegalMove(self.side)
        })
    }

    fn hash(&self) -> u64 {
        let mut words = [0u64; 5];
        for (s, row) in self.pits.iter().enumerate() {
            for (i, &v) in row.iter().enumerate() {
                words[2 * s + i / 8] |= (v as u64) << (8 * (i % 8));
            }
        }
        words[4] = self.hand[0] as u64
            | (self.hand[1] as u64) << 8
            | (self.owned[0] as u64) << 16
            | (self.owned[1] as u64) << 17
            | (self.side as u64) << 18
            | (self.mtaji_captured as u64) << 19
            | (self.takasia.map_or(0, |t| t as u64 + 1)) << 20
            | (self.clear.map_or(0, |t| t as u64 + 1)) << 24
            | self.rules.code() << 32;
        crate::game::mix_words(&words)
    }

    fn parse_move(&self, text: &str) -> Result<BaoMove, MoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: BaoMove) -> String {
        notation::format_move(self, mv)
    }

    fn from_notation(rules: &BaoRules, text: &str) -> Result<Bao, NotationError> {
        notation::parse_position(rules, text)
    }

    fn to_notation(&self) -> String {
        notation::format_position(self)
    }

    fn diagram(&self) -> String {
        notation::diagram(self)
    }
}
