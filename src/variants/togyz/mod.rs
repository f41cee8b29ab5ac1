//! Togyz Kumalak (Kazakh; Toguz Korgool in Kyrgyz), as `protocol/RULES.md`
//! states it from the federation's rules.
//!
//! The otaus are one array in sowing order: South's `0..m`, North's `m..2m`
//! (m = 9 on the tournament board). A tuzdyk is remembered as the cell it
//! sits on; a kumalak sown into it goes straight to its owner's kazan, so
//! the cell itself is always empty.

use crate::game::{
    Board, Cell, CellKind, EndReason, Game, MoveError, NotationError, Outcome, Side, StoreSite,
    TraceStep, Words,
};
use crate::options::{RuleOption, RuleOptions};

mod db;
mod eval;

pub use eval::{TOGYZ_NET_INPUTS, TogyzEval};

/// Most otaus a row can have: the tournament board's nine.
pub const MAX_PITS: u8 = 9;
/// Fewest otaus a row can have (three: a tuzdyk needs a place besides the
/// last otau, and Bestemshe's five fit).
pub const MIN_PITS: u8 = 3;
/// Most kumalaks an otau starts with (9 × 18 = 162: every count fits a byte).
pub const MAX_SEEDS: u8 = 9;
const CELLS: usize = 2 * MAX_PITS as usize;
/// No tuzdyk.
const NONE: u8 = u8::MAX;

/// What happens when the player to move has no kumalak (atsyz kalu).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atsyz {
    /// The game ends and the kumalaks left, all on the opponent's side, go
    /// to the opponent (Wikipedia, PlayStrategy, PlayOK, Ludii).
    End,
    /// The opponent makes one more move; if it puts kumalaks on the empty
    /// side the game goes on, else it ends as under `End` (the Kazakh
    /// rules text of Yernar Shambayev's app).
    ExtraMove,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TogyzRules {
    pub pits: u8,
    pub seeds: u8,
    /// Whether tuzdyks are made (not in Bestemshe).
    pub tuzdyks: bool,
    pub atsyz: Atsyz,
}

impl Default for TogyzRules {
    fn default() -> Self {
        TogyzRules {
            pits: 9,
            seeds: 9,
            tuzdyks: true,
            atsyz: Atsyz::End,
        }
    }
}

impl TogyzRules {
    /// Bestemshe, the children's game: five otaus of five a side, no
    /// tuzdyk.
    pub fn bestemshe() -> TogyzRules {
        TogyzRules {
            pits: 5,
            seeds: 5,
            tuzdyks: false,
            atsyz: Atsyz::End,
        }
    }
}

impl RuleOptions for TogyzRules {
    const OPTIONS: &'static [RuleOption<Self>] = &[
        crate::spin_option!(TogyzRules, "Pits", pits, MIN_PITS, MAX_PITS, aliases: ["otaus"],
            flag: "pits", label: "Otaus per side", help: "otaus per row"),
        crate::spin_option!(TogyzRules, "Seeds", seeds, 1, MAX_SEEDS, aliases: ["kumalaks"],
            flag: "seeds", label: "Kumalaks per otau", help: "kumalaks per otau at the start"),
        crate::combo_option!(TogyzRules, "Tuzdyk", tuzdyks,
            ["on" ("a last kumalak making three takes the otau for good") => true,
             "off" ("no tuzdyks, as in Bestemshe") => false],
            flag: "tuzdyk", label: "Tuzdyks", help: "whether tuzdyks are made"),
        crate::combo_option!(TogyzRules, "Atsyz", atsyz,
            ["end" ("the game ends; the opponent takes his kumalaks") => Atsyz::End,
             "extra-move" ("the opponent moves once more; if that feeds, play goes on") => Atsyz::ExtraMove],
            flag: "atsyz", label: "When a player cannot move",
            help: "what happens when the player to move has no kumalak"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Togyz {
    cells: [u8; CELLS],
    kazans: [u8; 2],
    /// The cell of each side's tuzdyk (on the opponent's row), or [`NONE`].
    tuzdyks: [u8; 2],
    /// The side to move makes the additional move of the extra-move rule:
    /// his opponent has no kumalak.
    extra: bool,
    pits: u8,
    seeds: u8,
    make_tuzdyks: bool,
    atsyz: Atsyz,
    side: Side,
}

/// A move: the otau sown from, 0-based from the mover's own left (otau 1
/// is 0).
pub type OtauMove = u8;

impl Togyz {
    fn m(&self) -> usize {
        self.pits as usize
    }

    fn row(&self, side: Side) -> std::ops::Range<usize> {
        let m = self.m();
        side.index() * m..side.index() * m + m
    }

    /// Kumalaks in `side`'s otau `index` (0-based from that side's left).
    pub fn otau(&self, side: Side, index: usize) -> u8 {
        self.cells[self.row(side).start + index]
    }

    /// Kumalaks in `side`'s kazan.
    pub fn kazan(&self, side: Side) -> u32 {
        self.kazans[side.index()] as u32
    }

    /// The otau (0-based on the opponent's row, from the opponent's left)
    /// that is `side`'s tuzdyk.
    pub fn tuzdyk(&self, side: Side) -> Option<usize> {
        let t = self.tuzdyks[side.index()];
        (t != NONE).then(|| t as usize - self.row(side.other()).start)
    }

    pub fn row_seeds(&self, side: Side) -> u32 {
        self.cells[self.row(side)].iter().map(|&v| v as u32).sum()
    }

    /// The otaus in sowing order from South's first.
    pub fn board(&self) -> Vec<u8> {
        self.cells[..2 * self.m()].to_vec()
    }

    fn total(&self) -> u32 {
        2 * self.m() as u32 * self.seeds as u32
    }

    /// The owner of the tuzdyk on cell `c`, if there is one.
    fn tuzdyk_owner(&self, c: usize) -> Option<Side> {
        [Side::South, Side::North]
            .into_iter()
            .find(|s| self.tuzdyks[s.index()] as usize == c)
    }

    /// Whether `side`, whose last kumalak made cell `c` of the opponent's
    /// row hold three, turns it into his tuzdyk: he has none yet, it is not
    /// the opponent's last otau, and the opponent's tuzdyk (on `side`'s
    /// row) does not have the same number.
    fn can_make_tuzdyk(&self, side: Side, c: usize) -> bool {
        let them = self.row(side.other());
        let index = c - them.start;
        self.make_tuzdyks
            && self.tuzdyks[side.index()] == NONE
            && index + 1 < self.m()
            && self.tuzdyk(side.other()) != Some(index)
    }

    /// The cells the kumalaks of `mv` fall into, in order (a tuzdyk
    /// included), for the sowing and its telling seed by seed: the first
    /// back into the otau emptied, unless it held a single kumalak, which
    /// moves on to the next otau.
    fn drops(&self, mv: OtauMove) -> impl Iterator<Item = usize> {
        let ring = 2 * self.m();
        let from = self.row(self.side).start + mv as usize;
        let n = self.cells[from] as usize;
        let first = if n == 1 { 1 } else { 0 };
        (first..first + n).map(move |k| (from + k) % ring)
    }

    /// What the last kumalak, in cell `last`, does: a capture of an even
    /// count, or a tuzdyk, on the opponent's row.
    fn settle(&mut self, last: usize) -> Settled {
        let me = self.side;
        if !self.row(me.other()).contains(&last) || self.tuzdyk_owner(last).is_some() {
            return Settled::Nothing;
        }
        let v = self.cells[last];
        if v.is_multiple_of(2) {
            self.cells[last] = 0;
            self.kazans[me.index()] += v;
            Settled::Capture(v)
        } else if v == 3 && self.can_make_tuzdyk(me, last) {
            self.cells[last] = 0;
            self.kazans[me.index()] += 3;
            self.tuzdyks[me.index()] = last as u8;
            Settled::Tuzdyk
        } else {
            Settled::Nothing
        }
    }

    fn candidates(&self) -> impl Iterator<Item = OtauMove> + '_ {
        self.cells[self.row(self.side)]
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0)
            .map(|(i, _)| i as OtauMove)
    }

    /// The number (1-based on its owner's row) of the otau the last
    /// kumalak of `mv` falls into.
    fn landing(&self, mv: OtauMove) -> usize {
        let mut next = *self;
        let last = next.sow(mv);
        last % self.m() + 1
    }

    /// Whether `mv` (legal here) makes a tuzdyk.
    pub fn makes_tuzdyk(&self, mv: OtauMove) -> bool {
        self.play(mv).tuzdyks[self.side.index()] != self.tuzdyks[self.side.index()]
    }

    /// The most kumalaks the mover takes with one move now (a tuzdyk's three
    /// counted, the kumalaks sown into tuzdyks not).
    fn best_capture(&self) -> u32 {
        let me = self.side;
        self.candidates()
            .map(|mv| {
                let mut next = *self;
                let last = next.sow(mv);
                let before = next.kazan(me);
                next.settle(last);
                next.kazan(me) - before
            })
            .max()
            .unwrap_or(0)
    }

    /// Sows `mv` and returns the cell of the last kumalak; captures are not
    /// taken yet ([`Togyz::settle`]) and the side to move is unchanged.
    fn sow(&mut self, mv: OtauMove) -> usize {
        let ring = 2 * self.m();
        let from = self.row(self.side).start + mv as usize;
        let n = std::mem::take(&mut self.cells[from]);
        // As `drops`, without a list: the first kumalak back into the otau
        // emptied, a single one on to the next.
        let mut c = if n == 1 { (from + 1) % ring } else { from };
        for k in 0..n {
            if k > 0 {
                c = if c + 1 == ring { 0 } else { c + 1 };
            }
            match self.tuzdyk_owner(c) {
                Some(owner) => self.kazans[owner.index()] += 1,
                None => self.cells[c] += 1,
            }
        }
        c
    }
}

impl Togyz {
    /// Gives the turn to whoever moves after `before`'s mover: his
    /// opponent, unless the extra-move rule gives the mover the additional
    /// move because the opponent has no kumalak left (and the game is not
    /// already won). After the additional move the turn passes whatever it
    /// did: an opponent still without a kumalak then ends the game.
    fn pass_turn(&mut self, before: &Togyz) {
        let them = before.side.other();
        let half = self.total() / 2;
        self.extra = self.atsyz == Atsyz::ExtraMove
            && !before.extra
            && self.row_seeds(them) == 0
            && self.row_seeds(before.side) > 0
            && self.kazan(before.side) <= half
            && self.kazan(them) <= half;
        self.side = if self.extra { before.side } else { them };
    }
}

/// What the last kumalak of a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Settled {
    Nothing,
    Capture(u8),
    Tuzdyk,
}

impl Board for Togyz {
    fn cells(&self) -> Vec<Cell> {
        let m = self.m();
        let mut cells: Vec<Cell> = (0..2 * m)
            .map(|c| {
                let (side, col) = if c < m {
                    (Side::South, c)
                } else {
                    (Side::North, c - m)
                };
                Cell {
                    side,
                    kind: CellKind::Pit,
                    row: 0,
                    col: col as u8,
                    name: (col + 1).to_string(),
                    seeds: self.cells[c] as u32,
                    // A tuzdyk, with whose it is (the player across).
                    marks: match self.tuzdyk_owner(c) {
                        Some(Side::South) => vec!["tuzdyk", "owner-south"],
                        Some(Side::North) => vec!["tuzdyk", "owner-north"],
                        None => Vec::new(),
                    },
                }
            })
            .collect();
        for side in [Side::South, Side::North] {
            cells.push(Cell {
                side,
                kind: CellKind::Store,
                row: 0,
                col: m as u8,
                name: format!("{}-kazan", side.letter()),
                seeds: self.kazan(side),
                marks: Vec::new(),
            });
        }
        cells
    }

    /// The kazans lie between the rows, end to end, each at its owner's
    /// right (as on a Kazakh board and in Ludii's Toguz Kumalak).
    fn store_site(&self) -> StoreSite {
        StoreSite::BetweenRows
    }

    fn move_cell(&self, mv: OtauMove) -> usize {
        self.row(self.side).start + mv as usize
    }

    /// Sows kumalak by kumalak (one falling into a tuzdyk goes on to its
    /// owner's kazan), then takes what the last one decides.
    fn play_traced(&self, mv: OtauMove) -> (Togyz, Vec<TraceStep>) {
        let m = self.m();
        let kazan = |s: Side| 2 * m + s.index();
        let from = self.move_cell(mv);
        let mut steps = vec![TraceStep::Lift {
            cell: from,
            seeds: self.cells[from] as u32,
        }];
        for c in self.drops(mv) {
            steps.push(TraceStep::Drop { cell: c });
            if let Some(owner) = self.tuzdyk_owner(c) {
                steps.push(TraceStep::Take {
                    from: c,
                    to: kazan(owner),
                    seeds: 1,
                });
            }
        }
        let mut next = *self;
        let last = next.sow(mv);
        let before = next.cells[last];
        let settled = next.settle(last);
        next.pass_turn(self);
        match settled {
            Settled::Nothing => {}
            Settled::Capture(v) => {
                steps.push(TraceStep::Note {
                    text: format!("an even count: capture of {v} kumalaks"),
                });
                steps.push(TraceStep::Take {
                    from: last,
                    to: kazan(self.side),
                    seeds: v as u32,
                });
            }
            Settled::Tuzdyk => {
                steps.push(TraceStep::Note {
                    text: format!(
                        "three kumalaks: otau {} becomes a tuzdyk",
                        last - self.row(self.side.other()).start + 1
                    ),
                });
                steps.push(TraceStep::Take {
                    from: last,
                    to: kazan(self.side),
                    seeds: before as u32,
                });
            }
        }
        if next.extra {
            steps.push(TraceStep::Note {
                text: "the opponent has no kumalak: one more move".into(),
            });
        }
        (next, steps)
    }
}

impl Game for Togyz {
    type Move = OtauMove;
    type Eval = TogyzEval;
    type Rules = TogyzRules;

    // Kumalaks travel round the ring without a capture for a while, so a
    // position can come back; the rules have no repetition rule.
    const CAN_REPEAT: bool = true;

    // The default depths and spreads (`DEFAULT_LEVEL_PLAY`) already keep
    // each level well above the one below it on the tournament board.
    fn level_elo(rules: &TogyzRules) -> &'static [i32] {
        if *rules == TogyzRules::default() {
            &LEVEL_ELO
        } else {
            &[]
        }
    }

    fn start(rules: &TogyzRules) -> Togyz {
        let mut cells = [0u8; CELLS];
        cells[..2 * rules.pits as usize].fill(rules.seeds);
        Togyz {
            cells,
            kazans: [0, 0],
            tuzdyks: [NONE, NONE],
            extra: false,
            pits: rules.pits,
            seeds: rules.seeds,
            make_tuzdyks: rules.tuzdyks,
            atsyz: rules.atsyz,
            side: Side::South,
        }
    }

    fn rules(&self) -> TogyzRules {
        TogyzRules {
            pits: self.pits,
            seeds: self.seeds,
            tuzdyks: self.make_tuzdyks,
            atsyz: self.atsyz,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<OtauMove>) {
        out.clear();
        if self.outcome().is_none() {
            out.extend(self.candidates());
        }
    }

    fn play(&self, mv: OtauMove) -> Togyz {
        let mut next = *self;
        let last = next.sow(mv);
        next.settle(last);
        next.pass_turn(self);
        next
    }

    // An action is an otau of the mover's row, numbered from his left
    // (otau 1 = 0).
    fn action_count(rules: &TogyzRules) -> usize {
        rules.pits as usize
    }

    fn action_of(mv: OtauMove) -> usize {
        mv as usize
    }

    fn move_of_action(rules: &TogyzRules, action: usize) -> Option<OtauMove> {
        (action < rules.pits as usize).then_some(action as OtauMove)
    }

    // The otaus (the viewer's from his left, then the opponent's from
    // his), the two kazans, then a flag for each otau that is a tuzdyk (in
    // the same order).
    fn observation_len(rules: &TogyzRules) -> usize {
        4 * rules.pits as usize + 2
    }

    fn observe(&self, view: Side, out: &mut [f32]) {
        let m = self.m();
        for (k, side) in [view, view.other()].into_iter().enumerate() {
            for i in 0..m {
                let c = self.row(side).start + i;
                out[k * m + i] = f32::from(self.cells[c]);
                out[2 * m + 2 + k * m + i] = f32::from(self.tuzdyk_owner(c).is_some() as u8);
            }
        }
        out[2 * m] = self.kazan(view) as f32;
        out[2 * m + 1] = self.kazan(view.other()) as f32;
    }

    fn outcome(&self) -> Option<Outcome> {
        let (s, n) = (self.kazan(Side::South), self.kazan(Side::North));
        let half = self.total() / 2;
        if s > half || n > half {
            return Some(Outcome::by_count(s, n));
        }
        if self.row_seeds(self.side) > 0 {
            return None;
        }
        // The player to move cannot (atsyz kalu): the kumalaks left, all on
        // his opponent's row, go to the opponent.
        let mut counts = [s, n];
        counts[self.side.other().index()] += self.row_seeds(self.side.other());
        Some(Outcome::by_count(counts[0], counts[1]))
    }

    fn end_reason(&self) -> Option<EndReason> {
        // The same tests, in the same order, as `outcome`.
        let half = self.total() / 2;
        for side in [Side::South, Side::North] {
            if self.kazan(side) > half {
                return Some(EndReason::Majority(side));
            }
        }
        (self.row_seeds(self.side) == 0).then_some(EndReason::EmptyRow(self.side))
    }

    fn total_seeds(&self) -> u32 {
        let (s, n) = self.seed_count().expect("a counting game");
        s + n
    }

    fn gained(&self, side: Side) -> u32 {
        self.kazan(side)
    }

    fn seed_count(&self) -> Option<(u32, u32)> {
        Some((
            self.kazan(Side::South) + self.row_seeds(Side::South),
            self.kazan(Side::North) + self.row_seeds(Side::North),
        ))
    }

    fn hash(&self) -> u64 {
        let mut words = [0u64; 4];
        for (i, &c) in self.cells.iter().enumerate() {
            words[i / 8] |= (c as u64) << (8 * (i % 8));
        }
        words[2] |= (self.kazans[0] as u64) << 16
            | (self.kazans[1] as u64) << 24
            | (self.tuzdyks[0] as u64) << 32
            | (self.tuzdyks[1] as u64) << 40
            | (self.side as u64) << 48
            | (self.extra as u64) << 49;
        words[3] = (self.pits as u64)
            | (self.seeds as u64) << 8
            | (self.make_tuzdyks as u64) << 16
            | (self.atsyz as u64) << 17;
        crate::game::mix_words(&words)
    }

    /// Reads a move as players write it: the otau played, then the otau
    /// the last kumalak falls into (`76`), an `x` if it makes a tuzdyk
    /// (`36x`; Kazakh `Х` too), and PlayOK's mover's kazan after a capture
    /// (`76(10)`). The otau alone (`7`) is enough; what is written besides it
    /// must be what the move does.
    fn parse_move(&self, text: &str) -> Result<OtauMove, MoveError> {
        let t = text.trim();
        let m = self.m();
        let syntax = || {
            MoveError::Syntax(format!(
                "'{t}': a move is the otau played (1..{m}), then the otau its last kumalak \
                 falls into, and an x if it makes a tuzdyk (e.g. 76, 36x)"
            ))
        };
        let (rest, kazan) = match t.strip_suffix(')').and_then(|r| r.split_once('(')) {
            Some((r, k)) => (r, Some(k.parse::<u32>().map_err(|_| syntax())?)),
            None => (t, None),
        };
        let (digits, marked) = match rest.strip_suffix(['x', 'X', '\u{425}', '\u{445}']) {
            Some(d) => (d, true),
            None => (rest, false),
        };
        let numbers: Vec<usize> = digits
            .chars()
            .map(|c| c.to_digit(10).map(|d| d as usize))
            .collect::<Option<_>>()
            .ok_or_else(syntax)?;
        let (n, landing) = match numbers[..] {
            [n] => (n, None),
            [n, y] => (n, Some(y)),
            _ => return Err(syntax()),
        };
        if n == 0 || n > m {
            return Err(MoveError::Illegal(format!(
                "'{t}': there is no otau {n} on a board of {m} otaus a side"
            )));
        }
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = (n - 1) as OtauMove;
        if self.otau(self.side, n - 1) == 0 {
            let why = if self.tuzdyk(self.side.other()) == Some(n - 1) {
                "is the opponent's tuzdyk"
            } else {
                "is empty"
            };
            return Err(MoveError::Illegal(format!("otau {n} {why}")));
        }
        let y = self.landing(mv);
        if landing.is_some_and(|l| l != y) {
            return Err(MoveError::Illegal(format!(
                "'{t}': the last kumalak from otau {n} falls into otau {y}"
            )));
        }
        if marked && !self.makes_tuzdyk(mv) {
            return Err(MoveError::Illegal(format!(
                "'{t}': sowing otau {n} makes no tuzdyk (write {n}{y})"
            )));
        }
        if let Some(k) = kazan {
            let after = self.play(mv).kazan(self.side);
            if k != after {
                return Err(MoveError::Illegal(format!(
                    "'{t}': the mover's kazan holds {after} after otau {n}, not {k}"
                )));
            }
        }
        Ok(mv)
    }

    /// As players write it: the otau played, the otau the last kumalak
    /// falls into, and `x` where the move makes a tuzdyk (`36x`).
    fn format_move(&self, mv: OtauMove) -> String {
        let (n, y) = (mv as usize + 1, self.landing(mv));
        if self.makes_tuzdyk(mv) {
            format!("{n}{y}x")
        } else {
            format!("{n}{y}")
        }
    }

    fn from_notation(rules: &TogyzRules, text: &str) -> Result<Togyz, NotationError> {
        parse_token(rules, text)
    }

    fn to_notation(&self) -> String {
        let mut s = String::with_capacity(64);
        for c in 0..2 * self.m() {
            if self.tuzdyk_owner(c).is_some() {
                s.push('X');
            } else {
                s.push_str(&self.cells[c].to_string());
            }
            s.push('-');
        }
        s.push_str(&format!(
            "{}-{}-{}{}",
            self.kazans[0],
            self.kazans[1],
            self.side.letter(),
            if self.extra { "+" } else { "" }
        ));
        s
    }

    /// North's otaus above (his first at the right), the kazans between
    /// the rows (each at its owner's right), South's otaus below. A tuzdyk
    /// is written with its owner's letter, `[S]`, and a key says so.
    fn diagram(&self) -> String {
        let m = self.m();
        let cell = |c: usize| match self.tuzdyk_owner(c) {
            Some(owner) => format!(" [{}]", owner.letter()),
            None => format!("{:>3} ", self.cells[c]),
        };
        let mut out = String::from("      ");
        for j in (0..m).rev() {
            out.push_str(&format!("  {} ", j + 1));
        }
        out.push_str("\n      ");
        for j in (0..m).rev() {
            out.push_str(&cell(m + j));
        }
        out.push_str(&format!(
            "\n      North's kazan {:>3} | South's kazan {:>3}\n      ",
            self.kazan(Side::North),
            self.kazan(Side::South)
        ));
        for i in 0..m {
            out.push_str(&cell(i));
        }
        out.push_str("\n      ");
        for i in 0..m {
            out.push_str(&format!("  {} ", i + 1));
        }
        out.push('\n');
        for side in [Side::South, Side::North] {
            if self.tuzdyk(side).is_some() {
                let name = if side == Side::South {
                    "South"
                } else {
                    "North"
                };
                out.push_str(&format!(
                    "[{}] {name}'s tuzdyk: kumalaks falling there go to {name}'s kazan\n",
                    side.letter()
                ));
            }
        }
        crate::game::trim_lines(&out)
    }

    fn words(&self) -> Words {
        Words {
            pit: "otau".into(),
            pits: "otaus".into(),
            seed: "kumalak".into(),
            seeds: "kumalaks".into(),
            store: "kazan".into(),
            ..Words::default()
        }
    }
}

/// Reads `o1-…-o2m-kS-kN-S|N`: the otaus in sowing order from South's
/// first (a tuzdyk written `X`, belonging to the player across), the two
/// kazans and the side to move.
fn parse_token(rules: &TogyzRules, text: &str) -> Result<Togyz, NotationError> {
    let err = |m: String| Err(NotationError(m));
    let text = text.trim();
    if text.is_empty() {
        return err("empty position".into());
    }
    if let Some(c) = text.chars().find(|c| c.is_whitespace()) {
        return err(format!(
            "a position is one token without spaces, found {c:?}"
        ));
    }
    let fields: Vec<&str> = text.split('-').collect();
    let n = fields.len();
    let (side_field, extra) = match fields[n - 1].strip_suffix('+') {
        Some(f) => (f, true),
        None => (fields[n - 1], false),
    };
    let side = match side_field {
        "S" | "s" => Side::South,
        "N" | "n" => Side::North,
        _ => {
            return err(format!(
                "field {n} (side to move) is '{}', expected S or N (S+ or N+: the additional \
                 move of Atsyz=extra-move)",
                fields[n - 1]
            ));
        }
    };
    if n < 2 * MIN_PITS as usize + 3 || n.is_multiple_of(2) || (n - 3) / 2 > MAX_PITS as usize {
        return err(format!(
            "{n} fields: a position has 2m otaus, two kazans and the side to move \
             (2m+3 fields, m = {MIN_PITS}..{MAX_PITS})"
        ));
    }
    let m = (n - 3) / 2;
    let mut pos = Togyz::start(&TogyzRules {
        pits: m as u8,
        ..*rules
    });
    pos.side = side;
    pos.extra = extra;
    let most = pos.total();
    let number = |i: usize, f: &str, what: &str| -> Result<u8, NotationError> {
        if f.is_empty() || !f.chars().all(|c| c.is_ascii_digit()) {
            return Err(NotationError(format!(
                "field {} ({what}) is '{f}', not a number of kumalaks",
                i + 1
            )));
        }
        f.parse::<u8>()
            .ok()
            .filter(|&v| v as u32 <= most)
            .ok_or_else(|| NotationError(format!("field {} ({what}) is {f}: too many", i + 1)))
    };
    for (c, f) in fields[..2 * m].iter().enumerate() {
        if f.eq_ignore_ascii_case("x") {
            if !rules.tuzdyks {
                return err(format!("field {}: a tuzdyk, but Tuzdyk=off", c + 1));
            }
            let owner = if c < m { Side::North } else { Side::South };
            if pos.tuzdyks[owner.index()] != NONE {
                return err(format!(
                    "field {}: a second tuzdyk of {owner:?} (a player has at most one)",
                    c + 1
                ));
            }
            pos.tuzdyks[owner.index()] = c as u8;
            pos.cells[c] = 0;
        } else {
            pos.cells[c] = number(c, f, "otau")?;
        }
    }
    pos.kazans = [
        number(2 * m, fields[2 * m], "South's kazan")?,
        number(2 * m + 1, fields[2 * m + 1], "North's kazan")?,
    ];
    for owner in [Side::South, Side::North] {
        if let Some(i) = pos.tuzdyk(owner)
            && i + 1 == m
        {
            return err(format!(
                "{owner:?}'s tuzdyk is on otau {m}, the last, where none can be made"
            ));
        }
    }
    if let (Some(a), Some(b)) = (pos.tuzdyk(Side::South), pos.tuzdyk(Side::North))
        && a == b
    {
        return err(format!(
            "both tuzdyks are on otau {}: a tuzdyk cannot face the opponent's",
            a + 1
        ));
    }
    if extra && (rules.atsyz != Atsyz::ExtraMove || pos.row_seeds(side.other()) > 0) {
        return err(format!(
            "field {n}: '+' (an additional move) is only for Atsyz=extra-move when the \
             opponent has no kumalak"
        ));
    }
    let total = pos.row_seeds(Side::South)
        + pos.row_seeds(Side::North)
        + pos.kazan(Side::South)
        + pos.kazan(Side::North);
    if total != pos.total() {
        return err(format!(
            "kumalak total is {total}, but {m} otaus a side of {} have {} (the board size \
             follows from the number of fields; the kumalaks per otau come from the Seeds option)",
            rules.seeds,
            pos.total()
        ));
    }
    Ok(pos)
}

/// The Elo of each playing level on the tournament board, weakest first
/// (`tournaments/levels/togyz-kumalak/`, checked by `tests/levels.rs`).
const LEVEL_ELO: [i32; 8] = [919, 1114, 1751, 2229, 2504, 2867, 3131, 3555];

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn pos(token: &str) -> Togyz {
        Togyz::from_notation(&TogyzRules::default(), token).unwrap()
    }

    /// At least `n` positions of random games under `rules` (a fixed seed).
    pub(super) fn random_positions(rules: &TogyzRules, n: usize) -> Vec<Togyz> {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut out = Vec::new();
        let mut moves = Vec::new();
        while out.len() < n {
            let mut pos = Togyz::start(rules);
            loop {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                out.push(pos);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        out
    }

    #[test]
    fn a_token_reads_back_to_itself() {
        let start = Togyz::start(&TogyzRules::default());
        assert_eq!(
            start.to_notation(),
            "9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-0-0-S"
        );
        assert_eq!(pos(&start.to_notation()), start);
        let t = "10-0-X-12-1-2-3-4-5-6-7-8-X-10-11-12-13-3-20-35-N";
        let p = pos(t);
        assert_eq!(p.to_notation(), t);
        assert_eq!(p.tuzdyk(Side::North), Some(2));
        assert_eq!(p.tuzdyk(Side::South), Some(3));
    }
}
