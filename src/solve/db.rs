//! Endgame databases in memory and on disk, and the [`Tablebase`] trait
//! through which searches probe them.
//!
//! A database holds, for every board with at most `max_seeds` seeds, the
//! best net number of the seeds on the board that the side to move can
//! still win (−n..+n), whatever the stores hold: one signed byte per board.
//! Boards are seen from the side to move: his pits first (from his left),
//! then the opponent's, numbered by [`Indexer`] within each seed count.
//!
//! File format (little-endian): the 8 bytes `KETEEGTB`, then the format
//! version (1), the game (0 Kalah, 1 Oware), pits per row, the rule (Kalah:
//! 0 standard, 1 empty capture; Oware: 0 Awari), the largest seed count and
//! three zero bytes; then the values of every seed count from 0 up, in rank
//! order; then a 64-bit checksum of the values.

use std::fmt;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicI8, Ordering};

use super::index::Indexer;
use crate::game::{Game, Side};
use crate::variants::kalah::{Capture, Kalah, KalahRules};
use crate::variants::oware::{Oware, OwareRules, RuleSet};

/// Something that knows the exact value of some positions.
pub trait Tablebase<G: Game>: Send + Sync {
    /// The best net number of the seeds still on the board that the side to
    /// move can win with perfect play, if the position is in the database
    /// (the same game and rules, few enough seeds). Stores do not matter.
    fn probe(&self, pos: &G) -> Option<i32>;

    /// Starts loading what [`Tablebase::probe`] of `pos` will read, for a
    /// search that knows its next positions before it visits them.
    fn prefetch(&self, _pos: &G) {}
}

/// Why a database could not be read, written or used.
#[derive(Debug)]
pub enum DbError {
    Io(std::io::Error),
    /// The file is not a kete database, or is damaged.
    Format(String),
    /// The database does not fit the request (game, rules, size).
    Unsupported(String),
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Io(e) => write!(f, "{e}"),
            DbError::Format(m) => write!(f, "not a valid kete database: {m}"),
            DbError::Unsupported(m) => f.write_str(m),
        }
    }
}

// No `source()`: the message is the I/O error's own, and anyhow's `{:#}`
// would print it a second time.
impl std::error::Error for DbError {}

impl From<std::io::Error> for DbError {
    fn from(e: std::io::Error) -> Self {
        DbError::Io(e)
    }
}

/// Which game a database is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbGame {
    Kalah {
        pits: u8,
        capture: Capture,
    },
    /// Awari rules: the only rules whose databases kete builds.
    Oware {
        houses: u8,
    },
}

impl DbGame {
    pub fn pits(&self) -> usize {
        match *self {
            DbGame::Kalah { pits, .. } => pits as usize,
            DbGame::Oware { houses } => houses as usize,
        }
    }

    fn code(&self) -> [u8; 3] {
        match *self {
            DbGame::Kalah { pits, capture } => [0, pits, (capture == Capture::Empty) as u8],
            DbGame::Oware { houses } => [1, houses, 0],
        }
    }

    fn from_code(c: [u8; 3]) -> Result<DbGame, DbError> {
        let pits = c[1];
        if !(1..=crate::variants::two_row::MAX_PITS as u8).contains(&pits) {
            return Err(DbError::Format(format!("{pits} pits per row")));
        }
        match c {
            [0, _, 0] => Ok(DbGame::Kalah {
                pits,
                capture: Capture::Standard,
            }),
            [0, _, 1] => Ok(DbGame::Kalah {
                pits,
                capture: Capture::Empty,
            }),
            [1, _, 0] => Ok(DbGame::Oware { houses: pits }),
            _ => Err(DbError::Format(format!("unknown game or rule {c:?}"))),
        }
    }

    pub fn describe(&self) -> String {
        match *self {
            DbGame::Kalah { pits, capture } => format!(
                "kalah, {pits} pits, {} capture",
                if capture == Capture::Empty {
                    "empty"
                } else {
                    "standard"
                }
            ),
            DbGame::Oware { houses } => format!("oware (awari rules), {houses} houses"),
        }
    }
}

const MAGIC: &[u8; 8] = b"KETEEGTB";
const VERSION: u8 = 1;

/// An endgame database in memory. The values are atomics so that the
/// builder's threads can fill one table together without locks; reading
/// one costs what reading a byte costs.
pub struct Egtb {
    game: DbGame,
    max_seeds: usize,
    indexer: Indexer,
    /// Where each seed count's values start; one more entry at the end.
    offsets: Vec<u64>,
    values: Box<[AtomicI8]>,
}

impl fmt::Debug for Egtb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Egtb({}, up to {} seeds)",
            self.game.describe(),
            self.max_seeds
        )
    }
}

/// The value every position holds before it is computed.
pub(crate) const UNKNOWN: i8 = i8::MIN;

impl Egtb {
    /// An empty database (every value [`UNKNOWN`]) for boards of up to
    /// `max_seeds` seeds.
    pub(crate) fn empty(game: DbGame, max_seeds: usize) -> Result<Egtb, DbError> {
        Self::check_size(max_seeds)?;
        let indexer = Indexer::new(2 * game.pits(), max_seeds);
        let mut offsets = vec![0u64];
        for n in 0..=max_seeds {
            offsets.push(offsets[n] + indexer.count(n));
        }
        let total = offsets[max_seeds + 1] as usize;
        let mut values = Vec::with_capacity(total);
        super::advise_huge_pages(&values);
        values.resize_with(total, || AtomicI8::new(UNKNOWN));
        let values = values.into_boxed_slice();
        Ok(Egtb {
            game,
            max_seeds,
            indexer,
            offsets,
            values,
        })
    }

    /// Whether values of boards of up to `max_seeds` seeds fit the format.
    pub(crate) fn check_size(max_seeds: usize) -> Result<(), DbError> {
        if max_seeds > 120 {
            return Err(DbError::Unsupported(format!(
                "at most 120 seeds fit a byte per position, asked for {max_seeds}"
            )));
        }
        Ok(())
    }

    pub fn game(&self) -> DbGame {
        self.game
    }

    pub fn max_seeds(&self) -> usize {
        self.max_seeds
    }

    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// The values of the boards with `n` seeds, in rank order.
    pub(crate) fn level(&self, n: usize) -> &[AtomicI8] {
        &self.values[self.offsets[n] as usize..self.offsets[n + 1] as usize]
    }

    /// The value of a board (side to move's pits first) holding `n` seeds.
    #[inline]
    pub fn value(&self, board: &[u8], n: usize) -> i8 {
        let i = self.offsets[n] + self.indexer.rank(board, n);
        self.values[i as usize].load(Ordering::Relaxed)
    }

    /// The value of the board numbered `idx` among those with `n` seeds.
    pub fn value_at(&self, n: usize, idx: u64) -> i8 {
        self.level(n)[idx as usize].load(Ordering::Relaxed)
    }

    fn checksum(&self) -> u64 {
        let mut h = 0xCBF2_9CE4_8422_2325u64;
        for chunk in self.values.chunks(1 << 16) {
            let mut w = 0u64;
            for (i, v) in chunk.iter().enumerate() {
                w = w.rotate_left(5) ^ (v.load(Ordering::Relaxed) as u8 as u64) ^ i as u64;
            }
            h = (h ^ w).wrapping_mul(0x0000_0100_0000_01B3);
        }
        h
    }

    /// Writes the database to `path`.
    pub fn save(&self, path: &Path) -> Result<(), DbError> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        f.write_all(MAGIC)?;
        let c = self.game.code();
        f.write_all(&[VERSION, c[0], c[1], c[2], self.max_seeds as u8, 0, 0, 0])?;
        let mut buf = Vec::with_capacity(1 << 20);
        for chunk in self.values.chunks(1 << 20) {
            buf.clear();
            buf.extend(chunk.iter().map(|v| v.load(Ordering::Relaxed) as u8));
            f.write_all(&buf)?;
        }
        f.write_all(&self.checksum().to_le_bytes())?;
        f.flush()?;
        Ok(())
    }

    /// Whether this database answers for positions of `rules`.
    fn fits_kalah(&self, rules: &KalahRules) -> bool {
        self.game
            == DbGame::Kalah {
                pits: rules.pits,
                capture: rules.capture,
            }
    }

    fn fits_oware(&self, rules: &OwareRules) -> bool {
        rules.rules == RuleSet::Awari
            && self.game
                == DbGame::Oware {
                    houses: rules.houses,
                }
    }

    /// Checks that this database can answer for `rules`, with the reason if
    /// not.
    pub fn check_kalah(&self, rules: &KalahRules) -> Result<(), DbError> {
        if self.fits_kalah(rules) {
            Ok(())
        } else {
            Err(DbError::Unsupported(format!(
                "the database is for {}, not for kalah with {} pits and {:?} capture",
                self.game.describe(),
                rules.pits,
                rules.capture
            )))
        }
    }

    pub fn check_oware(&self, rules: &OwareRules) -> Result<(), DbError> {
        if self.fits_oware(rules) {
            Ok(())
        } else {
            Err(DbError::Unsupported(format!(
                "the database is for {}, not for oware with {} houses and {:?} rules",
                self.game.describe(),
                rules.houses,
                rules.rules
            )))
        }
    }
}

/// Reads a database written by [`Egtb::save`] (`kete egtb build`).
pub fn load(path: impl AsRef<Path>) -> Result<Egtb, DbError> {
    let path = path.as_ref();
    let mut f = std::io::BufReader::new(std::fs::File::open(path)?);
    let mut head = [0u8; 16];
    f.read_exact(&mut head)
        .map_err(|_| DbError::Format("shorter than its header".into()))?;
    if &head[..8] != MAGIC {
        return Err(DbError::Format("wrong magic bytes".into()));
    }
    if head[8] != VERSION {
        return Err(DbError::Format(format!("format version {}", head[8])));
    }
    let game = DbGame::from_code([head[9], head[10], head[11]])?;
    let db = Egtb::empty(game, head[12] as usize)?;
    let expected = 16 + db.values.len() as u64 + 8;
    let actual = std::fs::metadata(path)?.len();
    if actual != expected {
        return Err(DbError::Format(format!(
            "{actual} bytes, but its header promises {expected}"
        )));
    }
    let mut buf = vec![0u8; 1 << 20];
    for chunk in db.values.chunks(1 << 20) {
        let b = &mut buf[..chunk.len()];
        f.read_exact(b)?;
        for (v, &x) in chunk.iter().zip(b.iter()) {
            v.store(x as i8, Ordering::Relaxed);
        }
    }
    let mut sum = [0u8; 8];
    f.read_exact(&mut sum)?;
    if u64::from_le_bytes(sum) != db.checksum() {
        return Err(DbError::Format("checksum mismatch".into()));
    }
    Ok(db)
}

/// A Kalah board from the side to move's view: his pits, then the
/// opponent's, and the seeds on it.
#[inline]
pub(crate) fn kalah_board(pos: &Kalah, out: &mut [u8; 16]) -> usize {
    let me = pos.side_to_move();
    let m = pos.pits();
    let (own, opp) = (pos.row(me).to_le_bytes(), pos.row(me.other()).to_le_bytes());
    out[..m].copy_from_slice(&own[..m]);
    out[m..2 * m].copy_from_slice(&opp[..m]);
    out[..2 * m].iter().map(|&v| v as usize).sum()
}

/// An Oware board from the side to move's view.
#[inline]
pub(crate) fn oware_board(pos: &Oware, out: &mut [u8; 16]) -> usize {
    let h = pos.houses();
    let m = h.len() / 2;
    if pos.side_to_move() == Side::South {
        out[..2 * m].copy_from_slice(h);
    } else {
        out[..m].copy_from_slice(&h[m..]);
        out[m..2 * m].copy_from_slice(&h[..m]);
    }
    h.iter().map(|&v| v as usize).sum()
}

impl Egtb {
    /// Where the value of the Kalah position `pos` is, if it is here.
    #[inline]
    fn kalah_slot(&self, pos: &Kalah) -> Option<&AtomicI8> {
        let mut b = [0u8; 16];
        let n = kalah_board(pos, &mut b);
        if n > self.max_seeds || !self.fits_kalah(&pos.rules()) {
            return None;
        }
        let i = self.offsets[n] + self.indexer.rank(&b[..2 * pos.pits()], n);
        Some(&self.values[i as usize])
    }
}

impl Tablebase<Kalah> for Egtb {
    fn probe(&self, pos: &Kalah) -> Option<i32> {
        let v = self.kalah_slot(pos)?.load(Ordering::Relaxed);
        (v != UNKNOWN).then_some(v as i32)
    }

    fn prefetch(&self, pos: &Kalah) {
        if let Some(slot) = self.kalah_slot(pos) {
            super::prefetch(slot);
        }
    }
}

impl Tablebase<Oware> for Egtb {
    fn probe(&self, pos: &Oware) -> Option<i32> {
        let mut b = [0u8; 16];
        let n = oware_board(pos, &mut b);
        if n > self.max_seeds || !self.fits_oware(&pos.rules()) {
            return None;
        }
        let v = self.value(&b[..pos.houses().len()], n);
        (v != UNKNOWN).then_some(v as i32)
    }
}
