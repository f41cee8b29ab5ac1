//! Endgame databases in memory and on disk, and the [`Tablebase`] trait
//! through which searches probe them.
//!
//! A database holds, for every board with at most `max_seeds` seeds, the
//! best net number of the seeds on the board that the side to move can
//! still win (−n..+n), whatever the stores hold: one signed byte per board.
//! Boards are seen from the side to move: his pits first (from his left),
//! then the opponent's (and the layout's number in games with layouts),
//! numbered by [`DbIndex`] within each seed count.
//!
//! File format (little-endian): the 8 bytes `KETEEGTB`, then the format
//! version (1), the game (0 Kalah, 1 Oware), pits per row, the rule (Kalah:
//! 0 standard, 1 empty capture; Oware: 0 Awari, 1 Abapa), the largest seed count and
//! a flags byte (1: distances follow the values) and two zero bytes; then the values
//! of every seed count from 0 up, in rank order; in games that keep them
//! ([`crate::game::DbFamily::distances`]), the distances in the same order;
//! then a 64-bit checksum of both.
//!
//! A distance is how many plies perfect play takes from the position to
//! the move that captures (its value's threshold reached), the winner
//! hurrying and the loser delaying, counted within its seed count; 255
//! stands for 255 or more. A game without a repetition rule needs it to
//! play a won value out: every move that keeps the value looks alike.

use std::fmt;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering};

use crate::game::{DB_BOARD, DbGame, DbIndex, DbSpec, Game};

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

const MAGIC: &[u8; 8] = b"KETEEGTB";
const VERSION: u8 = 1;

/// An endgame database in memory. The values are atomics so that the
/// builder's threads can fill one table together without locks; reading
/// one costs what reading a byte costs.
pub struct Egtb {
    game: DbGame,
    max_seeds: usize,
    indexer: DbIndex,
    /// Where each seed count's values start; one more entry at the end.
    offsets: Vec<u64>,
    values: Box<[AtomicI8]>,
    /// Each position's distance to its capture, in the values' order, in
    /// games that keep them; empty otherwise.
    distances: Box<[AtomicU8]>,
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
        let indexer = Self::indexer_for(game, max_seeds)?;
        let mut offsets = vec![0u64];
        for n in 0..=max_seeds {
            offsets.push(offsets[n] + indexer.count(n));
        }
        let total = offsets[max_seeds + 1] as usize;
        let mut values = Vec::with_capacity(total);
        super::advise_huge_pages(&values);
        values.resize_with(total, || AtomicI8::new(UNKNOWN));
        let values = values.into_boxed_slice();
        let mut distances = Vec::new();
        if game.family.distances {
            distances.reserve_exact(total);
            super::advise_huge_pages(&distances);
            distances.resize_with(total, || AtomicU8::new(0));
        }
        let distances = distances.into_boxed_slice();
        Ok(Egtb {
            game,
            max_seeds,
            indexer,
            offsets,
            values,
            distances,
        })
    }

    /// The numbering of `game`'s boards of up to `max_seeds` seeds, if
    /// their count fits in 64 bits.
    fn indexer_for(game: DbGame, max_seeds: usize) -> Result<DbIndex, DbError> {
        game.index(max_seeds).ok_or_else(|| {
            DbError::Unsupported(format!(
                "{} with up to {max_seeds} seeds has more than 2^64 positions",
                game.describe()
            ))
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

    pub fn indexer(&self) -> &DbIndex {
        &self.indexer
    }

    /// The values of the boards with `n` seeds, in rank order.
    pub(crate) fn level(&self, n: usize) -> &[AtomicI8] {
        &self.values[self.offsets[n] as usize..self.offsets[n + 1] as usize]
    }

    /// The distances of the boards with `n` seeds, in rank order, if the
    /// game keeps them.
    pub(crate) fn distance_level(&self, n: usize) -> Option<&[AtomicU8]> {
        (!self.distances.is_empty())
            .then(|| &self.distances[self.offsets[n] as usize..self.offsets[n + 1] as usize])
    }

    /// Whether the database keeps distances to the next capture.
    pub fn has_distances(&self) -> bool {
        !self.distances.is_empty()
    }

    /// The distance of the board numbered `idx` among those with `n`
    /// seeds: plies to its capture (see the module's notes), 0 where the
    /// game keeps none.
    pub fn distance_at(&self, n: usize, idx: u64) -> u8 {
        self.distance_level(n)
            .map_or(0, |l| l[idx as usize].load(Ordering::Relaxed))
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

    /// A hash of the values, then the distances, in chunks of 64 KiB (the
    /// files of games without distances kept their checksum).
    fn checksum(&self) -> u64 {
        const CHUNK: u64 = 1 << 16;
        let mix = |h: u64, w: u64| (h ^ w).wrapping_mul(0x0000_0100_0000_01B3);
        let values = self.values.iter().map(|v| v.load(Ordering::Relaxed) as u8);
        let distances = self.distances.iter().map(|d| d.load(Ordering::Relaxed));
        let (mut h, mut w, mut i) = (0xCBF2_9CE4_8422_2325u64, 0u64, 0u64);
        for b in values.chain(distances) {
            w = w.rotate_left(5) ^ b as u64 ^ i;
            i += 1;
            if i == CHUNK {
                h = mix(h, w);
                (w, i) = (0, 0);
            }
        }
        if i > 0 {
            h = mix(h, w);
        }
        h
    }

    /// Writes the database to `path`.
    pub fn save(&self, path: &Path) -> Result<(), DbError> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        f.write_all(MAGIC)?;
        let c = self.game.code();
        let flags = self.has_distances() as u8;
        f.write_all(&[VERSION, c[0], c[1], c[2], self.max_seeds as u8, flags, 0, 0])?;
        let mut buf = Vec::with_capacity(1 << 20);
        for chunk in self.values.chunks(1 << 20) {
            buf.clear();
            buf.extend(chunk.iter().map(|v| v.load(Ordering::Relaxed) as u8));
            f.write_all(&buf)?;
        }
        for chunk in self.distances.chunks(1 << 20) {
            buf.clear();
            buf.extend(chunk.iter().map(|d| d.load(Ordering::Relaxed)));
            f.write_all(&buf)?;
        }
        f.write_all(&self.checksum().to_le_bytes())?;
        f.flush()?;
        Ok(())
    }

    /// Checks that this database can answer for positions of `G` under
    /// `rules`, with the reason if not.
    pub fn check<G: DbSpec>(&self, rules: &G::Rules) -> Result<(), DbError> {
        match G::db_game(rules) {
            Ok(game) if game == self.game => Ok(()),
            Ok(game) => Err(DbError::Unsupported(format!(
                "the database is for {}, not for {}",
                self.game.describe(),
                game.describe()
            ))),
            Err(why) => Err(DbError::Unsupported(why)),
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
    let game = crate::variants::db_game([head[9], head[10], head[11]]).map_err(DbError::Format)?;
    let max_seeds = head[12] as usize;
    Egtb::check_size(max_seeds)?;
    let distances = match head[13] {
        0 => false,
        1 => true,
        f => return Err(DbError::Format(format!("unknown flags {f}"))),
    };
    if distances != game.family.distances {
        return Err(DbError::Format(if distances {
            format!(
                "{} keeps no distances, but the file has them",
                game.describe()
            )
        } else {
            format!(
                "it has no distances to the next capture, which {} needs \
                 (built by an older kete: build it again)",
                game.describe()
            )
        }));
    }
    // The size the header promises, checked before the table is made: a
    // damaged header can promise more memory than the machine has.
    let indexer = Egtb::indexer_for(game, max_seeds)?;
    let expected = (0..=max_seeds)
        .try_fold(16 + 8, |size: u64, n| {
            size.checked_add(indexer.count(n).checked_mul(1 + distances as u64)?)
        })
        .ok_or_else(|| DbError::Format("its header promises more than 2^64 bytes".into()))?;
    let actual = std::fs::metadata(path)?.len();
    if actual != expected {
        return Err(DbError::Format(format!(
            "{actual} bytes, but its header promises {expected}"
        )));
    }
    let db = Egtb::empty(game, max_seeds)?;
    let mut buf = vec![0u8; 1 << 20];
    for chunk in db.values.chunks(1 << 20) {
        let b = &mut buf[..chunk.len()];
        f.read_exact(b)?;
        for (v, &x) in chunk.iter().zip(b.iter()) {
            v.store(x as i8, Ordering::Relaxed);
        }
    }
    for chunk in db.distances.chunks(1 << 20) {
        let b = &mut buf[..chunk.len()];
        f.read_exact(b)?;
        for (d, &x) in chunk.iter().zip(b.iter()) {
            d.store(x, Ordering::Relaxed);
        }
    }
    let mut sum = [0u8; 8];
    f.read_exact(&mut sum)?;
    if u64::from_le_bytes(sum) != db.checksum() {
        return Err(DbError::Format("checksum mismatch".into()));
    }
    Ok(db)
}

impl Egtb {
    /// Where the value of `pos` is in `values`, if it is here.
    #[inline]
    fn index_of<G: DbSpec>(&self, pos: &G) -> Option<usize> {
        let mut b = [0u8; DB_BOARD];
        let n = pos.db_board(&mut b);
        if n > self.max_seeds || G::db_game(&pos.rules()).ok() != Some(self.game) {
            return None;
        }
        Some((self.offsets[n] + self.indexer.rank(&b, n)) as usize)
    }

    /// Where the value of `pos` is, if it is here.
    #[inline]
    fn slot<G: DbSpec>(&self, pos: &G) -> Option<&AtomicI8> {
        self.index_of(pos).map(|i| &self.values[i])
    }
}

impl Egtb {
    /// The value of `pos` and its distance to the next capture (0 where the
    /// game keeps none), if it is here.
    pub fn probe_distance<G: DbSpec>(&self, pos: &G) -> Option<(i32, u8)> {
        let i = self.index_of(pos)?;
        let v = self.values[i].load(Ordering::Relaxed);
        if v == UNKNOWN {
            return None;
        }
        let d = self
            .distances
            .get(i)
            .map_or(0, |d| d.load(Ordering::Relaxed));
        Some((v as i32, d))
    }
}

impl<G: DbSpec> Tablebase<G> for Egtb {
    fn probe(&self, pos: &G) -> Option<i32> {
        let v = self.slot(pos)?.load(Ordering::Relaxed);
        (v != UNKNOWN).then_some(v as i32)
    }

    fn prefetch(&self, pos: &G) {
        if let Some(slot) = self.slot(pos) {
            super::prefetch(slot);
        }
    }
}
