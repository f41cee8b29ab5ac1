//! A position of a described game: the seeds of every place as four
//! words, the big pieces, the side to move and the compiled rules, with
//! the accessors every other file of the game reads it through.

use super::rules::{MAX_CELLS, Place, Rules};
use super::spec::{MAX_PITS, Opening};
use crate::game::{Game, Side};

/// Where the opening's record starts in the last word of a board: the
/// places end before it.
const OPENED_SHIFT: u32 = 32;
const _: () = assert!(2 * MAX_PITS + 4 <= 24 + OPENED_SHIFT as usize / 8);

/// A position of a described game.
#[derive(Clone, Copy)]
pub struct Described {
    /// The seeds of every place, place `c` in byte `c % 8` of word `c / 8`:
    /// a sowing from the tables is four word additions, and a row's sum a
    /// few masks and one multiplication.
    pub(super) w: [u64; MAX_CELLS / 8],
    /// The big pieces still in the end pits (bit 0 the right one).
    pub(super) big: u8,
    pub(super) side: Side,
    pub(super) rules: &'static Rules,
}

impl PartialEq for Described {
    fn eq(&self, o: &Self) -> bool {
        self.w == o.w
            && self.side == o.side
            && self.big == o.big
            && std::ptr::eq(self.rules, o.rules)
    }
}

impl Eq for Described {}

impl std::hash::Hash for Described {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(Game::hash(self));
    }
}

impl std::fmt::Debug for Described {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({})", self.rules.spec.game.name, self.to_notation())
    }
}

/// A board of bytes as words, byte `c` of `bytes` in byte `c % 8` of word
/// `c / 8`.
pub fn words(bytes: &[u8; MAX_CELLS]) -> [u64; MAX_CELLS / 8] {
    let mut w = [0u64; MAX_CELLS / 8];
    for (k, x) in w.iter_mut().enumerate() {
        *x = u64::from_le_bytes(bytes[8 * k..8 * k + 8].try_into().expect("eight bytes"));
    }
    w
}

/// A move: the pit (0-based from the mover's left) in the low bits; for a
/// clockwise sowing where the mover chooses, [`super::sow::CLOCKWISE`] set and the
/// pits per row in the high byte (so that its action index needs no
/// rules).
pub type DescribedMove = u16;

impl Described {
    pub fn rules_ref(&self) -> &'static Rules {
        self.rules
    }

    /// Seeds at place `c`.
    #[inline(always)]
    pub fn cell(&self, c: usize) -> u8 {
        (self.w[c / 8] >> (8 * (c % 8))) as u8
    }

    #[inline(always)]
    pub(super) fn set_cell(&mut self, c: usize, v: u8) {
        let sh = 8 * (c % 8);
        self.w[c / 8] = self.w[c / 8] & !(0xFF << sh) | (v as u64) << sh;
    }

    /// Adds `n` seeds at place `c` (or takes them, with wrapping `n`).
    #[inline(always)]
    pub(super) fn add_cell(&mut self, c: usize, n: u8) {
        self.w[c / 8] = self.w[c / 8].wrapping_add((n as u64) << (8 * (c % 8)));
    }

    #[inline(always)]
    pub(super) fn sub_cell(&mut self, c: usize, n: u8) {
        self.w[c / 8] = self.w[c / 8].wrapping_sub((n as u64) << (8 * (c % 8)));
    }

    /// Every place's seeds as bytes.
    pub fn bytes(&self) -> [u8; MAX_CELLS] {
        let mut b = [0u8; MAX_CELLS];
        for (k, w) in self.w.iter().enumerate() {
            b[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// Whether `side`'s row holds no seed: a few masks, no sum.
    #[inline(always)]
    pub fn row_empty(&self, side: Side) -> bool {
        let mask = &self.rules.row_masks[side.index()];
        (self.w[0] & mask[0])
            | (self.w[1] & mask[1])
            | (self.w[2] & mask[2])
            | (self.w[3] & mask[3])
            == 0
    }

    /// `side`'s row as one word, pit `i` in byte `i`, on a board of at
    /// most eight pits a row (both rows then lie in the first two words).
    #[inline(always)]
    pub(super) fn row_word(&self, side: Side) -> u64 {
        let r = self.rules;
        let both = self.w[0] as u128 | (self.w[1] as u128) << 64;
        let row = (both >> (8 * r.row(side).start)) as u64;
        row & r.row_masks[0][0]
    }

    /// Seeds in `side`'s pit `index` (from his left).
    pub fn pit(&self, side: Side, index: usize) -> u8 {
        self.cell(self.rules.row(side).start + index)
    }

    /// Seeds in `side`'s store (his captures).
    pub fn store(&self, side: Side) -> u32 {
        self.cell(self.rules.store(side)) as u32
    }

    #[inline]
    pub fn row_seeds(&self, side: Side) -> u32 {
        // The row's bytes of each word, added: no count and no row sum
        // passes 255 (a game has at most 255 seeds), so the sums stay in
        // their bytes and one multiplication adds them up.
        const ONES: u64 = u64::from_le_bytes([1; 8]);
        let mask = &self.rules.row_masks[side.index()];
        let sum = (self.w[0] & mask[0])
            + (self.w[1] & mask[1])
            + (self.w[2] & mask[2])
            + (self.w[3] & mask[3]);
        (sum.wrapping_mul(ONES) >> 56) as u32
    }

    /// What `side` owes for the seeds a refill borrowed (0 where the
    /// rules do not borrow).
    #[inline]
    pub fn debt(&self, side: Side) -> u32 {
        let r = self.rules;
        if r.borrow {
            self.cell(r.debt_cell(side)) as u32
        } else {
            0
        }
    }

    /// The refill of `side`'s empty row, one seed a pit from his store,
    /// borrowing the seeds the store lacks where the rules say so.
    pub(super) fn refill_row(&mut self, side: Side) {
        let r = self.rules;
        let store = r.store(side);
        for c in r.row(side) {
            if self.cell(store) > 0 {
                self.sub_cell(store, 1);
            } else {
                self.add_cell(r.debt_cell(side), 1);
            }
            self.add_cell(c, 1);
        }
    }

    /// Captures pay a debt back first: what a player owes and what his
    /// store holds are never both above 0.
    pub(super) fn settle_debts(&mut self) {
        let r = self.rules;
        for side in [Side::South, Side::North] {
            let (store, debt) = (r.store(side), r.debt_cell(side));
            let paid = self.cell(store).min(self.cell(debt));
            self.sub_cell(store, paid);
            self.sub_cell(debt, paid);
        }
    }

    /// Seeds in the end pits, big pieces at their value.
    pub(super) fn end_seeds(&self) -> u32 {
        let r = self.rules;
        if !r.has_ends() {
            return 0;
        }
        self.cell(2 * r.m + 2) as u32
            + self.cell(2 * r.m + 3) as u32
            + self.big.count_ones() * r.big_value as u32
    }

    /// The pits `side` has played in the opening (bit `i` his pit `i` from
    /// his left), kept in the bytes after every place: South's in bits
    /// 32..48 of the last word, North's in bits 48..64 (bytes 28..31,
    /// which no board reaches).
    #[inline]
    pub(super) fn opened(&self, side: Side) -> u16 {
        (self.w[3] >> (OPENED_SHIFT + 16 * side.index() as u32)) as u16
    }

    /// Writes down that `side` played his pit `pit` in the opening.
    pub(super) fn mark_opened(&mut self, side: Side, pit: usize) {
        self.w[3] |= 1 << (OPENED_SHIFT as usize + 16 * side.index() + pit);
    }

    /// Whether the player to move is still in the game's opening.
    #[inline]
    pub(super) fn in_opening(&self) -> bool {
        let r = self.rules;
        match r.opening {
            Opening::None => false,
            Opening::Transfer => self.opened(self.side) == 0,
            Opening::EachPitOnce => self.opened(self.side) != (1u16 << r.m) - 1,
        }
    }

    pub(super) fn big_bit(r: &Rules, c: usize) -> u8 {
        if c == 2 * r.m + 2 { 1 } else { 2 }
    }

    pub(super) fn big_at(&self, c: usize) -> bool {
        let r = self.rules;
        r.place[c] == Place::End && self.big & Self::big_bit(r, c) != 0
    }
}
