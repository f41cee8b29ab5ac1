//! What a board drawing needs of a game: its places and, seed by seed,
//! what a move does.

use super::{Game, Side};

/// What a place on the board is, for drawing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellKind {
    Pit,
    /// Captured seeds (the two-row games' stores).
    Store,
    /// Seeds not yet sown (Bao's stores in hand).
    Hand,
    /// A pit at an end of the board, between the rows, that nobody owns
    /// (Ô ăn quan's quan): sown into and captured, never sown from.
    End,
}

/// One place of the board as a board drawing shows it: whose it is, where it
/// stands, its name in the move notation and how many seeds it holds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    pub side: Side,
    pub kind: CellKind,
    /// 0 for the front (or only) row, 1 for Bao's back row.
    pub row: u8,
    /// 0-based from the owner's own left.
    pub col: u8,
    pub name: String,
    pub seeds: u32,
    /// Rule marks worth drawing (Bao: "nyumba", "takasia").
    pub marks: Vec<&'static str>,
}

/// One step of a move as a board drawing animates it. Cells are indices
/// into [`Board::cells`]; the mover's hand is implicit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "step", rename_all = "lowercase")]
pub enum TraceStep {
    /// Seeds lifted from a cell into the mover's hand, to be sown.
    Lift { cell: usize, seeds: u32 },
    /// One seed from the hand into a cell.
    Drop { cell: usize },
    /// Seeds moved straight from one cell to another: a capture into a
    /// store, or the seeds banked when the game ends.
    Take { from: usize, to: usize, seeds: u32 },
    /// What the rules decided at this point, in words (a relay lap, a
    /// capture, a stop in the nyumba, a safari).
    Note { text: String },
}

/// What a game's players call its things, singular and plural, for every
/// word kete shows them (a board's labels, hints, evaluations): Togyz
/// Kumalak's otaus, kumalaks and kazans, a described game's own.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Words {
    #[serde(default = "Words::pit")]
    pub pit: String,
    #[serde(default = "Words::pits")]
    pub pits: String,
    #[serde(default = "Words::seed")]
    pub seed: String,
    #[serde(default = "Words::seeds")]
    pub seeds: String,
    #[serde(default = "Words::store")]
    pub store: String,
    #[serde(default = "Words::end_pit")]
    pub end_pit: String,
}

impl Words {
    /// `n` seeds in these words: "1 kumalak", "5 kumalaks".
    pub fn count(&self, n: u32) -> String {
        format!("{n} {}", if n == 1 { &self.seed } else { &self.seeds })
    }

    fn pit() -> String {
        "pit".into()
    }
    fn pits() -> String {
        "pits".into()
    }
    fn seed() -> String {
        "seed".into()
    }
    fn seeds() -> String {
        "seeds".into()
    }
    fn store() -> String {
        "store".into()
    }
    fn end_pit() -> String {
        "end pit".into()
    }
}

impl Default for Words {
    fn default() -> Self {
        Words {
            pit: Words::pit(),
            pits: Words::pits(),
            seed: Words::seed(),
            seeds: Words::seeds(),
            store: Words::store(),
            end_pit: Words::end_pit(),
        }
    }
}

/// Where a board keeps its stores: at its ends, each at its owner's right
/// (Kalah, Oware), or between the rows (Togyz Kumalak's kazans, end to end,
/// each at its owner's right).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreSite {
    #[default]
    Ends,
    BetweenRows,
}

/// A game that can be drawn as places holding seeds and can tell, seed by
/// seed, what a move does: what a board drawing needs, given by the
/// variant's own rules so that the drawing implements none.
pub trait Board: Game {
    /// Every place of the board, in a fixed order for the rules in force.
    fn cells(&self) -> Vec<Cell>;

    /// The cell a player clicks to make `mv` (legal here).
    fn move_cell(&self, mv: Self::Move) -> usize;

    /// [`Game::play`] with its steps: the position returned equals
    /// `play(mv)`, and the steps applied to `cells()` give its cells.
    fn play_traced(&self, mv: Self::Move) -> (Self, Vec<TraceStep>);

    /// Where the stores stand.
    fn store_site(&self) -> StoreSite {
        StoreSite::Ends
    }
}

/// Applies `steps` to the seed counts of `cells`: what a board drawing does
/// with a trace. `Err` names the first step that takes seeds a cell does not
/// hold or leaves seeds in hand.
pub fn apply_trace(cells: &mut [u32], steps: &[TraceStep]) -> Result<(), String> {
    let mut hand = 0u32;
    let cell = |cells: &mut [u32], i: usize, at: usize| -> Result<(), String> {
        if i < cells.len() {
            Ok(())
        } else {
            Err(format!("step {at}: no cell {i}"))
        }
    };
    for (at, s) in steps.iter().enumerate() {
        match *s {
            TraceStep::Lift { cell: c, seeds } => {
                cell(cells, c, at)?;
                cells[c] = cells[c].checked_sub(seeds).ok_or_else(|| {
                    format!("step {at}: lifts {seeds} from cell {c} of {}", cells[c])
                })?;
                hand += seeds;
            }
            TraceStep::Drop { cell: c } => {
                cell(cells, c, at)?;
                hand = hand
                    .checked_sub(1)
                    .ok_or_else(|| format!("step {at}: drops a seed from an empty hand"))?;
                cells[c] += 1;
            }
            TraceStep::Take { from, to, seeds } => {
                cell(cells, from, at)?;
                cell(cells, to, at)?;
                cells[from] = cells[from].checked_sub(seeds).ok_or_else(|| {
                    format!(
                        "step {at}: takes {seeds} from cell {from} of {}",
                        cells[from]
                    )
                })?;
                cells[to] += seeds;
            }
            TraceStep::Note { .. } => {}
        }
    }
    if hand != 0 {
        return Err(format!("{hand} seeds left in hand"));
    }
    Ok(())
}
