//! What the two-row games (Kalah, Oware, En Dodoi) share: pit-letter moves and
//! the position token `pits-…-store-store-side`. Only notation lives here; each
//! game keeps its own rules.

use crate::game::{Cell, CellKind, MoveError, NotationError, Side, TraceStep};

/// Most pits per row any two-row variant supports.
pub const MAX_PITS: usize = 8;

/// One row of a board as a word: pit `i` (from the owner's left) is byte `i`.
/// Rows of at most 8 pits fit, and whole-row tests become word tests.
pub const ONES: u64 = 0x0101_0101_0101_0101;

/// The pits a network of a two-row game sees: 6 a side (a network compiled
/// in knows one board).
pub const NET_PITS: usize = 12;

/// A network's inputs for a pit: one for each count from 0 to 22, one for 23
/// or more.
pub const NET_PIT_COUNTS: usize = 24;

/// A network's inputs for a store: one for each count from 0 to 23, one for
/// 24 or more (with 48 seeds, a store of 25 has won).
pub const NET_STORE_COUNTS: usize = 25;

/// A two-row game's network inputs: the mover's pits in sowing order, the
/// opponent's in his, then the mover's store and the opponent's.
pub const NET_INPUTS: usize = NET_PITS * NET_PIT_COUNTS + 2 * NET_STORE_COUNTS;

/// Writes the network inputs that are on for a board of [`NET_PITS`] pits
/// seen from the side to move, one a pit and one a store, and returns how
/// many: `pits` the counts of the mover's row then the opponent's, each from
/// its owner's first pit; `stores` the mover's and the opponent's.
pub fn net_inputs(pits: impl Iterator<Item = u8>, stores: [u32; 2], out: &mut [u16]) -> usize {
    let mut n = 0;
    for (k, v) in pits.take(NET_PITS).enumerate() {
        out[k] = (k * NET_PIT_COUNTS + (v as usize).min(NET_PIT_COUNTS - 1)) as u16;
        n += 1;
    }
    let base = NET_PITS * NET_PIT_COUNTS;
    for (k, v) in stores.into_iter().enumerate() {
        let v = (v as usize).min(NET_STORE_COUNTS - 1);
        out[n + k] = (base + k * NET_STORE_COUNTS + v) as u16;
    }
    n + 2
}

/// Checks that `active` holds one input a pit, in the pit's own range, then
/// one a store, in its own: the shape [`net_inputs`] promises.
#[cfg(test)]
pub fn assert_one_input_a_cell(active: &[u16]) {
    assert_eq!(active.len(), NET_PITS + 2);
    for (k, &i) in active.iter().enumerate() {
        let i = i as usize;
        if k < NET_PITS {
            assert_eq!(i / NET_PIT_COUNTS, k, "{active:?}");
        } else {
            let s = i - NET_PITS * NET_PIT_COUNTS;
            assert_eq!(s / NET_STORE_COUNTS, k - NET_PITS, "{active:?}");
        }
        assert!(i < NET_INPUTS);
    }
}

/// A mask of the bytes `0..n` (n = 0..=8).
#[inline]
pub fn low_bytes(n: u32) -> u64 {
    u64::MAX.checked_shr(64 - 8 * n).unwrap_or(0)
}

/// Bit 7 of every byte of `w` that is not zero.
#[inline]
pub fn nonzero_bytes(w: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    (((w & LOW7) + LOW7) | w) & !LOW7
}

/// The sum of the bytes of `w`, which must be below 256.
#[inline]
pub fn byte_sum(w: u64) -> u32 {
    (w.wrapping_mul(ONES) >> 56) as u32
}

#[inline]
pub fn byte(w: u64, i: u32) -> u32 {
    ((w >> (8 * i)) & 0xFF) as u32
}

/// The pit indices of the non-zero bytes of a row, right to left.
#[inline]
pub fn occupied_right_to_left(w: u64) -> impl Iterator<Item = u8> {
    let mut bits = nonzero_bytes(w);
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let top = 63 - bits.leading_zeros();
        bits &= !(1u64 << top);
        Some((top / 8) as u8)
    })
}

/// A two-row position token, read but not yet checked against a variant's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fields {
    /// Pits per row.
    pub pits: usize,
    /// Both rows in sowing order from South's first pit (2 × `pits` values).
    pub board: Vec<u32>,
    /// South's and North's store (captured seeds).
    pub stores: [u32; 2],
    pub side: Side,
}

impl Fields {
    pub fn total(&self) -> u32 {
        self.board.iter().sum::<u32>() + self.stores[0] + self.stores[1]
    }

    /// Checks that the seed total is the one the variant starts with.
    pub fn check_total(&self, variant: &str, seeds_per_pit: u32) -> Result<(), NotationError> {
        let expected = 2 * self.pits as u32 * seeds_per_pit;
        let total = self.total();
        if total != expected {
            return Err(NotationError(format!(
                "seed total is {total}, but {variant} with {} pits and {seeds_per_pit} seeds per pit \
                 has {expected} (the board size follows from the number of fields; the seeds per \
                 pit come from the Seeds option)",
                self.pits
            )));
        }
        Ok(())
    }
}

/// Reads `h1-…-h2m-s1-s2-S|N`: 2m pits, two stores and the side to move.
pub fn parse_fields(text: &str) -> Result<Fields, NotationError> {
    parse_fields_upto(text, MAX_PITS)
}

/// [`parse_fields`] for a game with up to `max_pits` pits per row (En Dodoi
/// has 10).
pub fn parse_fields_upto(text: &str, max_pits: usize) -> Result<Fields, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError("empty position".into()));
    }
    if let Some(c) = text.chars().find(|c| c.is_whitespace()) {
        return Err(NotationError(format!(
            "a position is one token without spaces, found {c:?}"
        )));
    }
    let fields: Vec<&str> = text.split('-').collect();
    let last = fields[fields.len() - 1];
    let side = match last {
        "S" | "s" => Side::South,
        "N" | "n" => Side::North,
        _ if !last.is_empty() && last.chars().all(|c| c.is_ascii_digit()) => {
            return Err(NotationError(format!(
                "the side to move is missing: field {} is '{last}', expected S or N",
                fields.len()
            )));
        }
        _ => {
            return Err(NotationError(format!(
                "field {} (side to move) is '{last}', expected S or N",
                fields.len()
            )));
        }
    };
    let n = fields.len();
    if n < 5 || n.is_multiple_of(2) || (n - 3) / 2 > max_pits {
        return Err(NotationError(format!(
            "{n} fields: a two-row position has 2m pits, two stores and the side to move \
             (2m+3 fields, m = 1..{max_pits})"
        )));
    }
    let mut values = Vec::with_capacity(n - 1);
    for (i, f) in fields[..n - 1].iter().enumerate() {
        let what = if i < n - 3 {
            "pit"
        } else if i == n - 3 {
            "South's store"
        } else {
            "North's store"
        };
        if f.is_empty() {
            return Err(NotationError(format!("field {} ({what}) is empty", i + 1)));
        }
        if !f.chars().all(|c| c.is_ascii_digit()) {
            return Err(NotationError(format!(
                "field {} ({what}) is '{f}', not a number of seeds",
                i + 1
            )));
        }
        let v: u32 = f.parse().ok().filter(|v| *v <= 255).ok_or_else(|| {
            NotationError(format!("field {} ({what}) is {f}: too many seeds", i + 1))
        })?;
        values.push(v);
    }
    let pits = (n - 3) / 2;
    Ok(Fields {
        pits,
        stores: [values[2 * pits], values[2 * pits + 1]],
        board: values[..2 * pits].to_vec(),
        side,
    })
}

/// Writes the token `parse_fields` reads.
pub fn format_fields(board: &[u8], stores: [u32; 2], side: Side) -> String {
    let mut s = String::with_capacity(4 * board.len() + 8);
    for v in board {
        s.push_str(&v.to_string());
        s.push('-');
    }
    s.push_str(&format!("{}-{}-{}", stores[0], stores[1], side.letter()));
    s
}

/// The letter of pit `index` (0-based from its owner's left).
pub fn pit_letter(side: Side, index: usize) -> char {
    let base = if side == Side::South { b'A' } else { b'a' };
    (base + index as u8) as char
}

/// A run of pit letters written together (`FbCe`), each letter one move
/// and its case its side (capitals South's); `None` unless every character
/// is a letter. The Game trait's `split_joined` of the two-row games.
pub fn split_letters(text: &str) -> Option<Vec<(String, Side)>> {
    let t = text.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(
        t.chars()
            .map(|c| {
                let side = if c.is_ascii_uppercase() {
                    Side::South
                } else {
                    Side::North
                };
                (c.to_string(), side)
            })
            .collect(),
    )
}

/// Reads a pit letter of the side to move; either case is accepted because
/// only the mover's pits can be meant.
pub fn parse_pit(text: &str, side: Side, pits: usize) -> Result<usize, MoveError> {
    let t = text.trim();
    let mut chars = t.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return Err(MoveError::Syntax(format!(
            "'{t}': a move is one pit letter ({}..{})",
            pit_letter(side, 0),
            pit_letter(side, pits - 1)
        )));
    };
    if !c.is_ascii_alphabetic() {
        return Err(MoveError::Syntax(format!(
            "'{t}': a move is one pit letter ({}..{})",
            pit_letter(side, 0),
            pit_letter(side, pits - 1)
        )));
    }
    let index = (c.to_ascii_lowercase() as u8 - b'a') as usize;
    if index >= pits {
        return Err(MoveError::Illegal(format!(
            "'{t}': there is no pit {} on a board of {pits} pits per side",
            pit_letter(side, index)
        )));
    }
    Ok(index)
}

/// Draws a two-row board: North's row on top (his left at the right), the
/// stores at the ends, South's row below. (Whose turn it is, and the
/// position token, are for the caller: `d` prints them on lines of their own.)
pub fn diagram(board: &[u8], stores: [u32; 2]) -> String {
    let m = board.len() / 2;
    let cell = |v: u8| format!("{v:>3} ");
    let mut out = String::new();
    out.push_str("      ");
    for j in (0..m).rev() {
        out.push_str(&format!("  {} ", pit_letter(Side::North, j)));
    }
    out.push('\n');
    out.push_str("      ");
    for j in (0..m).rev() {
        out.push_str(&cell(board[m + j]));
    }
    out.push('\n');
    out.push_str(&format!(
        "{:>4}  {}{:>4}\n",
        stores[1],
        " ".repeat(4 * m),
        stores[0]
    ));
    out.push_str("      ");
    for v in &board[..m] {
        out.push_str(&cell(*v));
    }
    out.push('\n');
    out.push_str("      ");
    for i in 0..m {
        out.push_str(&format!("  {} ", pit_letter(Side::South, i)));
    }
    out.push('\n');
    crate::game::trim_lines(&out)
}

/// The cells of a two-row board as [`crate::game::Board`] lists them: the
/// pits in sowing order from South's first, then South's and North's store.
pub fn cells(board: &[u8], stores: [u32; 2]) -> Vec<Cell> {
    let m = board.len() / 2;
    let pit = |i: usize| {
        let (side, col) = if i < m {
            (Side::South, i)
        } else {
            (Side::North, i - m)
        };
        Cell {
            side,
            kind: CellKind::Pit,
            row: 0,
            col: col as u8,
            name: pit_letter(side, col).to_string(),
            seeds: board[i] as u32,
            marks: Vec::new(),
        }
    };
    let store = |side: Side| Cell {
        side,
        kind: CellKind::Store,
        row: 0,
        col: m as u8,
        name: format!("{}-store", side.letter()),
        seeds: stores[side.index()],
        marks: Vec::new(),
    };
    (0..2 * m)
        .map(pit)
        .chain([store(Side::South), store(Side::North)])
        .collect()
}

/// A two-row board played seed by seed, writing down each step: the slow
/// second telling of a move that a traced `play` is made of. Cells are
/// numbered as [`cells`] numbers them.
pub struct Tracer {
    pub cells: Vec<u32>,
    pub steps: Vec<TraceStep>,
    pub m: usize,
}

impl Tracer {
    pub fn new(board: &[u8], stores: [u32; 2]) -> Tracer {
        let mut cells: Vec<u32> = board.iter().map(|&v| v as u32).collect();
        cells.extend(stores);
        Tracer {
            cells,
            steps: Vec::new(),
            m: board.len() / 2,
        }
    }

    pub fn pit(&self, side: Side, index: usize) -> usize {
        side.index() * self.m + index
    }

    pub fn store(&self, side: Side) -> usize {
        2 * self.m + side.index()
    }

    /// The side whose row holds cell `c`, and its index there; `None` for a
    /// store.
    pub fn owner(&self, c: usize) -> Option<(Side, usize)> {
        match c {
            _ if c < self.m => Some((Side::South, c)),
            _ if c < 2 * self.m => Some((Side::North, c - self.m)),
            _ => None,
        }
    }

    pub fn row_seeds(&self, side: Side) -> u32 {
        let start = side.index() * self.m;
        self.cells[start..start + self.m].iter().sum()
    }

    /// Lifts every seed of cell `c` into the hand; returns how many.
    pub fn lift(&mut self, c: usize) -> u32 {
        let seeds = std::mem::take(&mut self.cells[c]);
        self.steps.push(TraceStep::Lift { cell: c, seeds });
        seeds
    }

    pub fn drop_seed(&mut self, c: usize) {
        self.cells[c] += 1;
        self.steps.push(TraceStep::Drop { cell: c });
    }

    /// Moves every seed of `from` to `to` (nothing if `from` is empty).
    pub fn take(&mut self, from: usize, to: usize) {
        let seeds = std::mem::take(&mut self.cells[from]);
        if seeds > 0 {
            self.cells[to] += seeds;
            self.steps.push(TraceStep::Take { from, to, seeds });
        }
    }

    pub fn note(&mut self, text: impl Into<String>) {
        self.steps.push(TraceStep::Note { text: text.into() });
    }

    /// Every seed left in a row goes to its owner's store.
    pub fn bank_rows(&mut self) {
        for side in [Side::South, Side::North] {
            for i in 0..self.m {
                let c = self.pit(side, i);
                self.take(c, self.store(side));
            }
        }
    }

    /// The position token of the board now, `side` to move.
    pub fn token(&self, side: Side) -> String {
        let board: Vec<u8> = self.cells[..2 * self.m].iter().map(|&v| v as u8).collect();
        format_fields(
            &board,
            [self.cells[2 * self.m], self.cells[2 * self.m + 1]],
            side,
        )
    }
}

/// The observation of a two-row game ([`crate::game::Game::observe`]) as
/// `view` sees it: his pits from his left, the opponent's from the
/// opponent's, then his store and the opponent's. `row(side, i)` is the seeds in
/// `side`'s pit `i` from that side's left.
pub fn observe(
    out: &mut [f32],
    m: usize,
    view: Side,
    row: impl Fn(Side, usize) -> u8,
    store: impl Fn(Side) -> u32,
) {
    let (own, theirs) = out[..2 * m + 2].split_at_mut(m);
    for (i, o) in own.iter_mut().enumerate() {
        *o = f32::from(row(view, i));
    }
    for (i, o) in theirs[..m].iter_mut().enumerate() {
        *o = f32::from(row(view.other(), i));
    }
    theirs[m] = store(view) as f32;
    theirs[m + 1] = store(view.other()) as f32;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_errors_name_the_field_and_problem() {
        let e = parse_fields("4-4-x-4-4-4-4-4-4-4-4-4-0-0-S").unwrap_err();
        assert!(e.0.contains("field 3") && e.0.contains("'x'"), "{e}");
        let e = parse_fields("4-4-4-4-4-4-4-4-4-4-4-4-0-0").unwrap_err();
        assert!(e.0.contains("side to move is missing"), "{e}");
        let e = parse_fields("4-4-4-4-4-4-4-4-4-4-4-4-0-0-X").unwrap_err();
        assert!(e.0.contains("field 15") && e.0.contains("'X'"), "{e}");
        let e = parse_fields("4-4-4-4-4-4-4-4-4-4-4-0-0-S").unwrap_err();
        assert!(e.0.contains("14 fields"), "{e}");
        let e = parse_fields("4--4-4-4-4-4-4-4-4-4-4-0-0-S").unwrap_err();
        assert!(e.0.contains("field 2") && e.0.contains("empty"), "{e}");
        let e = parse_fields("4-4-4-4-4-4-4-4-4-4-4-4-99999999999999999999-0-S").unwrap_err();
        assert!(e.0.contains("field 13") && e.0.contains("too many"), "{e}");
        let e = parse_fields("").unwrap_err();
        assert!(e.0.contains("empty"), "{e}");
    }

    #[test]
    fn word_helpers() {
        assert_eq!(low_bytes(0), 0);
        assert_eq!(low_bytes(3), 0xFF_FFFF);
        assert_eq!(low_bytes(8), u64::MAX);
        assert_eq!(nonzero_bytes(0x0080_0001_0000_FF00), 0x0080_0080_0000_8000);
        assert_eq!(byte_sum(0x0102_0304_0506_0708), 36);
        assert_eq!(byte(0x0102_0304_0506_0708, 1), 7);
        let v: Vec<u8> = occupied_right_to_left(0x0000_0300_0001_0200).collect();
        assert_eq!(v, vec![5, 2, 1]);
    }

    #[test]
    fn fields_round_trip() {
        let f = parse_fields("1-2-3-4-5-6-0-S").unwrap_err();
        assert!(f.0.contains("fields"), "{f}");
        let f = parse_fields("1-2-3-4-5-6-N").unwrap();
        assert_eq!(f.pits, 2);
        assert_eq!(f.board, vec![1, 2, 3, 4]);
        assert_eq!(f.stores, [5, 6]);
        assert_eq!(f.side, Side::North);
        assert_eq!(
            format_fields(&[1, 2, 3, 4], [5, 6], Side::North),
            "1-2-3-4-5-6-N"
        );
    }

    #[test]
    fn pit_letters_accept_either_case() {
        assert_eq!(parse_pit("c", Side::South, 6), Ok(2));
        assert_eq!(parse_pit("C", Side::North, 6), Ok(2));
        assert!(matches!(
            parse_pit("G", Side::South, 6),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            parse_pit("CC", Side::South, 6),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            parse_pit("3", Side::South, 6),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            parse_pit("", Side::South, 6),
            Err(MoveError::Syntax(_))
        ));
    }
}
