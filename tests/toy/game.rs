//! The toy game of `tests/toy_game.rs`: three pits a side and a store
//! each, no captures and no extra turns. This file is everything about the
//! game, written as a module of `src/variants/` would be (it names kete's
//! items by `crate::` paths): the test crate includes it as a module, and
//! with the `toy` feature the library does too (`src/variants/mod.rs`
//! registers it in its table, one row).
//!
//! Rules: South owns pits 0..2 (from his left) and his store, North pits
//! 3..5 and his. A move takes all seeds of an own pit and sows them one by
//! one counter-clockwise into the following pits and the own store,
//! skipping the opponent's store. When the player to move has no seeds the
//! game ends and each player adds the seeds on his side to his store.
//! Every move either banks a seed or moves the mover's seeds toward his
//! store, so no position repeats.

use crate::game::{
    Board, Cell, CellKind, EndReason, Evaluator, Game, MoveError, NotationError, Outcome, Side,
    SolveGame, TraceStep,
};
use crate::options::{RuleOption, RuleOptions};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToyRules {
    pub seeds: u8,
}

impl Default for ToyRules {
    fn default() -> Self {
        ToyRules { seeds: 2 }
    }
}

/// The options table: one number option, set by `--seeds` too.
impl RuleOptions for ToyRules {
    const OPTIONS: &'static [RuleOption<Self>] = &[crate::spin_option!(
        ToyRules, "Seeds", seeds, 1, 6, aliases: [], flag: "seeds",
        label: "Seeds per pit", help: "seeds per pit at the start"
    )];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Toy {
    pits: [u8; 6],
    stores: [u8; 2],
    side: Side,
    seeds: u8,
}

/// The sowing ring: South's pits, his store (6), North's pits, his store (7).
const RING: [usize; 8] = [0, 1, 2, 6, 3, 4, 5, 7];

impl Toy {
    fn row(&self, side: Side) -> &[u8] {
        let s = 3 * side.index();
        &self.pits[s..s + 3]
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToyEval {
    #[default]
    Stores,
}

impl Evaluator<Toy> for ToyEval {
    const TABLE: &'static [(Self, &'static [&'static str])] = &[(ToyEval::Stores, &["stores"])];

    fn evaluate(&self, pos: &Toy) -> i32 {
        self.terms(pos).iter().map(|t| t.1).sum()
    }

    fn terms(&self, pos: &Toy) -> Vec<(&'static str, i32)> {
        let me = pos.side_to_move().index();
        vec![(
            "stores",
            100 * (pos.stores[me] as i32 - pos.stores[1 - me] as i32),
        )]
    }
}

impl Game for Toy {
    type Move = u8;
    type Eval = ToyEval;
    type Rules = ToyRules;
    const CAN_REPEAT: bool = false;

    fn start(rules: &ToyRules) -> Toy {
        Toy {
            pits: [rules.seeds; 6],
            stores: [0, 0],
            side: Side::South,
            seeds: rules.seeds,
        }
    }

    fn rules(&self) -> ToyRules {
        ToyRules { seeds: self.seeds }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((0..3u8).filter(|&i| self.row(self.side)[i as usize] > 0));
    }

    fn play(&self, mv: u8) -> Toy {
        let mut next = *self;
        let s = self.side.index();
        let skip = 7 - s;
        let mut at = RING.iter().position(|&c| c == 3 * s + mv as usize).unwrap();
        let mut n = std::mem::take(&mut next.pits[3 * s + mv as usize]);
        while n > 0 {
            at = (at + 1) % 8;
            match RING[at] {
                c if c == skip => continue,
                c @ 6..=7 => next.stores[c - 6] += 1,
                c => next.pits[c] += 1,
            }
            n -= 1;
        }
        next.side = self.side.other();
        next
    }

    fn action_count(_: &ToyRules) -> usize {
        3
    }

    fn action_of(mv: u8) -> usize {
        mv as usize
    }

    fn move_of_action(_: &ToyRules, action: usize) -> Option<u8> {
        (action < 3).then_some(action as u8)
    }

    fn observation_len(_: &ToyRules) -> usize {
        8
    }

    fn observe(&self, view: Side, out: &mut [f32]) {
        let s = view.index();
        for i in 0..3 {
            out[i] = f32::from(self.pits[3 * s + i]);
            out[3 + i] = f32::from(self.pits[3 * (1 - s) + i]);
        }
        out[6] = f32::from(self.stores[s]);
        out[7] = f32::from(self.stores[1 - s]);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.row(self.side).iter().any(|&v| v > 0) {
            return None;
        }
        let own = |side: Side| {
            self.stores[side.index()] as u32 + self.row(side).iter().map(|&v| v as u32).sum::<u32>()
        };
        Some(Outcome::by_count(own(Side::South), own(Side::North)))
    }

    fn end_reason(&self) -> Option<EndReason> {
        self.outcome().map(|_| EndReason::EmptyRow(self.side))
    }

    fn gained(&self, side: Side) -> u32 {
        self.stores[side.index()] as u32
    }

    fn seed_count(&self) -> Option<(u32, u32)> {
        let own = |side: Side| {
            self.stores[side.index()] as u32 + self.row(side).iter().map(|&v| v as u32).sum::<u32>()
        };
        Some((own(Side::South), own(Side::North)))
    }

    fn total_seeds(&self) -> u32 {
        let (s, n) = self.seed_count().unwrap();
        s + n
    }

    fn hash(&self) -> u64 {
        let mut h = 0xCBF2_9CE4_8422_2325u64;
        let bytes = self.pits.iter().chain(&self.stores);
        for &b in bytes.chain(&[self.side.index() as u8, self.seeds]) {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let base = if self.side == Side::South { 'A' } else { 'a' };
        let mut chars = text.trim().chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(MoveError::Syntax(text.to_string()));
        };
        let i = (c as u32).wrapping_sub(base as u32);
        if i >= 3 {
            return Err(MoveError::Syntax(text.to_string()));
        }
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if self.row(self.side)[i as usize] == 0 {
            return Err(MoveError::Illegal(format!("{text}: the pit is empty")));
        }
        Ok(i as u8)
    }

    fn format_move(&self, mv: u8) -> String {
        let base = if self.side == Side::South { b'A' } else { b'a' };
        ((base + mv) as char).to_string()
    }

    fn from_notation(rules: &ToyRules, text: &str) -> Result<Toy, NotationError> {
        let f: Vec<&str> = text.trim().split('-').collect();
        if f.len() != 9 {
            return Err(NotationError(format!("{} fields, not 9", f.len())));
        }
        let mut v = [0u8; 8];
        for (i, x) in f[..8].iter().enumerate() {
            v[i] = x
                .parse()
                .map_err(|_| NotationError(format!("field {} is '{x}'", i + 1)))?;
        }
        let side = match f[8] {
            "S" => Side::South,
            "N" => Side::North,
            x => return Err(NotationError(format!("field 9 is '{x}', not S or N"))),
        };
        let toy = Toy {
            pits: v[..6].try_into().unwrap(),
            stores: [v[6], v[7]],
            side,
            seeds: rules.seeds,
        };
        if toy.total_seeds() != 6 * rules.seeds as u32 {
            return Err(NotationError("wrong number of seeds".into()));
        }
        Ok(toy)
    }

    fn to_notation(&self) -> String {
        let v: Vec<String> = self
            .pits
            .iter()
            .chain(&self.stores)
            .map(|x| x.to_string())
            .collect();
        format!("{}-{}", v.join("-"), self.side.letter())
    }

    fn diagram(&self) -> String {
        format!(
            "  {:?}\n{} {}\n  {:?}",
            self.row(Side::North),
            self.stores[1],
            self.stores[0],
            self.row(Side::South)
        )
    }
}

impl SolveGame for Toy {
    const MARGIN_PARITY: bool = true;

    fn banked(&self) -> i32 {
        let me = self.side.index();
        self.stores[me] as i32 - self.stores[1 - me] as i32
    }

    fn seeds_in_play(&self) -> u32 {
        self.pits.iter().map(|&v| v as u32).sum()
    }
}

/// The board a drawing shows: the six pits (South's first, each from its
/// owner's left), then South's store and North's, the cell numbers the
/// sowing ring uses.
impl Board for Toy {
    fn cells(&self) -> Vec<Cell> {
        let cell = |side: Side, kind: CellKind, col: u8, name: String, seeds: u8| Cell {
            side,
            kind,
            row: 0,
            col,
            name,
            seeds: seeds as u32,
            marks: Vec::new(),
        };
        let mut cells: Vec<Cell> = (0..6)
            .map(|i| {
                let side = if i < 3 { Side::South } else { Side::North };
                let col = (i % 3) as u8;
                let base = if side == Side::South { b'A' } else { b'a' };
                let name = ((base + col) as char).to_string();
                cell(side, CellKind::Pit, col, name, self.pits[i])
            })
            .collect();
        for side in [Side::South, Side::North] {
            let name = format!("{}-store", side.letter());
            cells.push(cell(
                side,
                CellKind::Store,
                3,
                name,
                self.stores[side.index()],
            ));
        }
        cells
    }

    fn move_cell(&self, mv: u8) -> usize {
        3 * self.side.index() + mv as usize
    }

    /// The sowing of `play`, one step per seed.
    fn play_traced(&self, mv: u8) -> (Toy, Vec<TraceStep>) {
        let s = self.side.index();
        let from = 3 * s + mv as usize;
        let skip = 7 - s;
        let mut steps = vec![TraceStep::Lift {
            cell: from,
            seeds: self.pits[from] as u32,
        }];
        let mut at = RING.iter().position(|&c| c == from).unwrap();
        let mut n = self.pits[from];
        while n > 0 {
            at = (at + 1) % 8;
            if RING[at] == skip {
                continue;
            }
            steps.push(TraceStep::Drop { cell: RING[at] });
            n -= 1;
        }
        (self.play(mv), steps)
    }
}
