//! Kalah(m,n), as `shared/rules/kalah.md`.
//!
//! The board is one array in sowing order: South's pits `0..m`, South's store
//! `m`, North's pits `m+1..=2m`, North's store `2m+1`. South's pit `i` faces
//! cell `2m - i`, which works for both sides.

use super::two_row::{self, MAX_PITS};
use crate::game::{Game, MoveError, NotationError, Outcome, Side};

/// Most seeds per pit at the start (so that every count fits a byte).
pub const MAX_SEEDS: u8 = 15;

/// What happens when the last seed lands in an empty own pit opposite an empty pit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// Nothing: the seed stays (the seeds' rule).
    Standard,
    /// The single seed is banked (Irving et al. 2000, Board Game Arena).
    Empty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahRules {
    pub pits: u8,
    pub seeds: u8,
    pub capture: Capture,
}

impl Default for KalahRules {
    fn default() -> Self {
        KalahRules {
            pits: 6,
            seeds: 4,
            capture: Capture::Standard,
        }
    }
}

/// A Kalah position. 24 cells so that the board hashes as three words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kalah {
    cells: [u8; 24],
    pits: u8,
    seeds: u8,
    capture: Capture,
    side: Side,
}

/// A move: the pit index (0-based from the mover's own left).
pub type PitMove = u8;

impl Kalah {
    fn m(&self) -> usize {
        self.pits as usize
    }

    fn own_start(&self, side: Side) -> usize {
        if side == Side::South { 0 } else { self.m() + 1 }
    }

    fn store_index(&self, side: Side) -> usize {
        if side == Side::South {
            self.m()
        } else {
            2 * self.m() + 1
        }
    }

    fn row(&self, side: Side) -> &[u8] {
        let s = self.own_start(side);
        &self.cells[s..s + self.m()]
    }

    fn row_seeds(&self, side: Side) -> u32 {
        self.row(side).iter().map(|&v| v as u32).sum()
    }

    pub fn store(&self, side: Side) -> u32 {
        self.cells[self.store_index(side)] as u32
    }

    /// Seeds in `side`'s pit `index` (0-based from that side's left).
    pub fn pit(&self, side: Side, index: usize) -> u8 {
        self.cells[self.own_start(side) + index]
    }

    /// The board in sowing order from South's first pit, stores left out.
    pub fn board(&self) -> Vec<u8> {
        let mut b = self.row(Side::South).to_vec();
        b.extend_from_slice(self.row(Side::North));
        b
    }

    fn over(&self) -> bool {
        self.row_empty(Side::South) || self.row_empty(Side::North)
    }

    fn row_empty(&self, side: Side) -> bool {
        self.row(side).iter().all(|&v| v == 0)
    }
}

impl Game for Kalah {
    type Move = PitMove;
    type Rules = KalahRules;

    // Seeds only move forward and stores never shrink, so no position recurs.
    const CAN_REPEAT: bool = false;

    fn start(rules: &KalahRules) -> Kalah {
        let mut cells = [0u8; 24];
        let m = rules.pits as usize;
        for i in 0..m {
            cells[i] = rules.seeds;
            cells[m + 1 + i] = rules.seeds;
        }
        Kalah {
            cells,
            pits: rules.pits,
            seeds: rules.seeds,
            capture: rules.capture,
            side: Side::South,
        }
    }

    fn rules(&self) -> KalahRules {
        KalahRules {
            pits: self.pits,
            seeds: self.seeds,
            capture: self.capture,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<PitMove>) {
        out.clear();
        if self.over() {
            return;
        }
        // Right to left: moves near the store tend to be the extra turns.
        for (i, &v) in self.row(self.side).iter().enumerate().rev() {
            if v > 0 {
                out.push(i as u8);
            }
        }
    }

    fn count_legal_moves(&self) -> usize {
        if self.over() {
            return 0;
        }
        self.row(self.side).iter().filter(|&&v| v > 0).count()
    }

    fn play(&self, mv: PitMove) -> Kalah {
        let mut next = *self;
        let m = self.m();
        let side = self.side;
        let b = &mut next.cells;
        let from = self.own_start(side) + mv as usize;
        let own_store = self.store_index(side);
        let skip = self.store_index(side.other());
        let ring = 2 * m + 2;
        let lap = (2 * m + 1) as u8;

        let seeds = b[from];
        debug_assert!(seeds > 0, "move from an empty pit");
        b[from] = 0;
        // Whole laps put one seed in every place but the opponent's store; the
        // origin is one of the places, so a full lap ends there.
        let full = seeds / lap;
        let rem = seeds % lap;
        if full > 0 {
            for (j, c) in b[..ring].iter_mut().enumerate() {
                if j != skip {
                    *c += full;
                }
            }
        }
        let mut last = from;
        for _ in 0..rem {
            last += 1;
            if last == ring {
                last = 0;
            }
            if last == skip {
                last += 1;
                if last == ring {
                    last = 0;
                }
            }
            b[last] += 1;
        }

        let own_start = self.own_start(side);
        let extra_turn = last == own_store;
        if !extra_turn && last >= own_start && last < own_start + m && b[last] == 1 {
            let opposite = 2 * m - last;
            if b[opposite] > 0 || self.capture == Capture::Empty {
                b[own_store] += b[opposite] + 1;
                b[opposite] = 0;
                b[last] = 0;
            }
        }

        if next.over() {
            // The game ends at once, even on an extra turn: each player banks
            // the seeds on his own side.
            for s in [Side::South, Side::North] {
                let start = next.own_start(s);
                let seeds = next.row_seeds(s) as u8;
                let store = next.store_index(s);
                next.cells[store] += seeds;
                next.cells[start..start + m].fill(0);
            }
        }
        if !extra_turn {
            next.side = side.other();
        }
        next
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        Some(Outcome::by_count(
            self.store(Side::South) + self.row_seeds(Side::South),
            self.store(Side::North) + self.row_seeds(Side::North),
        ))
    }

    fn hash(&self) -> u64 {
        let w = |k: usize| u64::from_le_bytes(self.cells[8 * k..8 * k + 8].try_into().unwrap());
        let meta = (self.side as u64)
            | (self.pits as u64) << 8
            | (self.capture as u64) << 16
            | (self.seeds as u64) << 24;
        super::mix_words(&[w(0), w(1), w(2), meta])
    }

    fn parse_move(&self, text: &str) -> Result<PitMove, MoveError> {
        if self.over() {
            return Err(MoveError::GameOver);
        }
        let i = two_row::parse_pit(text, self.side, self.m())?;
        if self.pit(self.side, i) == 0 {
            return Err(MoveError::Illegal(format!(
                "pit {} is empty",
                two_row::pit_letter(self.side, i)
            )));
        }
        Ok(i as u8)
    }

    fn format_move(&self, mv: PitMove) -> String {
        two_row::pit_letter(self.side, mv as usize).to_string()
    }

    fn from_notation(rules: &KalahRules, text: &str) -> Result<Kalah, NotationError> {
        let f = two_row::parse_fields(text)?;
        f.check_total("kalah", rules.seeds as u32)?;
        let m = f.pits;
        let mut cells = [0u8; 24];
        cells[..m]
            .iter_mut()
            .zip(&f.board[..m])
            .for_each(|(c, &v)| *c = v as u8);
        cells[m] = f.stores[0] as u8;
        cells[m + 1..2 * m + 1]
            .iter_mut()
            .zip(&f.board[m..])
            .for_each(|(c, &v)| *c = v as u8);
        cells[2 * m + 1] = f.stores[1] as u8;
        Ok(Kalah {
            cells,
            pits: m as u8,
            seeds: rules.seeds,
            capture: rules.capture,
            side: f.side,
        })
    }

    fn to_notation(&self) -> String {
        two_row::format_fields(
            &self.board(),
            [self.store(Side::South), self.store(Side::North)],
            self.side,
        )
    }

    fn diagram(&self) -> String {
        two_row::diagram(
            &self.board(),
            [self.store(Side::South), self.store(Side::North)],
            self.side,
        )
    }
}

/// Checks a rules value against the sizes kete supports.
pub fn check_rules(rules: &KalahRules) -> Result<(), String> {
    if !(1..=MAX_PITS as u8).contains(&rules.pits) {
        return Err(format!(
            "kalah pits must be 1..{MAX_PITS}, got {}",
            rules.pits
        ));
    }
    if !(1..=MAX_SEEDS).contains(&rules.seeds) {
        return Err(format!(
            "kalah seeds must be 1..{MAX_SEEDS}, got {}",
            rules.seeds
        ));
    }
    Ok(())
}
