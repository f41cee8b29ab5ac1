//! Databases chosen and kept for the user: which database a solve should
//! use when none is named, and a folder that keeps the ones built so far
//! (by default the user's cache folder), so that each is built once.
//!
//! A cached database is an ordinary database file named after its game and
//! size, `<game>-<seeds>.egtb` (e.g. `kalah-6-standard-20.egtb`); a larger
//! one of the same game answers for a smaller request too.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::db::{DbError, Egtb, load};
use super::egtb::{BuildOptions, BuildProgress, build};
use crate::game::{DbGame, DbSpec};

/// The folder `kete solve` and `go solve` keep databases in unless told
/// otherwise: `$KETE_EGTB_DIR`, else `$XDG_CACHE_HOME/kete/egtb`, else
/// `~/.cache/kete/egtb`; `None` where none of these is set.
pub fn default_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("KETE_EGTB_DIR") {
        return Some(PathBuf::from(d));
    }
    let cache = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(cache.join("kete").join("egtb"))
}

pub use super::memory::{available_memory, total_memory};

fn file_name(game: DbGame, seeds: usize) -> String {
    format!("{}-{seeds}.egtb", game.slug())
}

/// The cached databases of `game` in `dir`, by their seeds.
fn cached(dir: &Path, game: DbGame) -> Vec<(usize, PathBuf)> {
    let prefix = format!("{}-", game.slug());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(usize, PathBuf)> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?;
            let seeds = name.strip_prefix(&prefix)?.strip_suffix(".egtb")?;
            Some((seeds.parse().ok()?, path))
        })
        .collect();
    found.sort();
    found
}

/// Where a database came from, for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Loaded from this cached file.
    Cached(PathBuf),
    /// Built now and written to this file.
    Built(PathBuf),
    /// Built now, but the folder could not keep it (the reason).
    NotKept(String),
}

/// A database of `game` of at least `seeds` seeds from `dir`, or built now
/// and kept there. A cached one may be larger, up to `max_boards`: the
/// largest such is taken, since its build is already paid for. A cached
/// file that does not load (damaged, another version) is built again.
pub fn open_or_build(
    dir: Option<&Path>,
    game: DbGame,
    seeds: usize,
    max_boards: u64,
    opts: &BuildOptions,
    progress: &mut dyn FnMut(&BuildProgress),
    note: &mut dyn FnMut(&str),
) -> Result<(Egtb, Source), DbError> {
    if let Some(dir) = dir {
        for (n, path) in cached(dir, game).into_iter().rev() {
            if n < seeds || game.boards(n) > max_boards {
                continue;
            }
            let t = Instant::now();
            match load(&path) {
                Ok(db) if db.game() == game && db.max_seeds() == n => {
                    note(&format!(
                        "egtb: {} up to {n} seeds from {} in {:.1} s",
                        game.describe(),
                        path.display(),
                        t.elapsed().as_secs_f64()
                    ));
                    return Ok((db, Source::Cached(path)));
                }
                Ok(_) => note(&format!(
                    "egtb: {} is not the database its name says; building one",
                    path.display()
                )),
                Err(e) => note(&format!(
                    "egtb: {} cannot be used ({e}); building it again",
                    path.display()
                )),
            }
        }
    }
    note(&format!(
        "egtb: building {} up to {seeds} seeds ({} boards) once{}",
        game.describe(),
        game.boards(seeds),
        dir.map_or(String::new(), |d| format!(", to keep in {}", d.display()))
    ));
    let db = build(game, seeds, opts, progress)?;
    let Some(dir) = dir else {
        return Ok((db, Source::NotKept("no cache folder is known".into())));
    };
    let path = dir.join(file_name(game, seeds));
    let kept = std::fs::create_dir_all(dir)
        .map_err(DbError::from)
        .and_then(|_| {
            // Whole or not at all: another process may be reading the
            // folder, and a half-written file must never pass for a
            // database (loading checks the checksum too).
            let tmp = path.with_extension(format!("tmp{}", std::process::id()));
            db.save(&tmp)?;
            std::fs::rename(&tmp, &path).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                DbError::from(e)
            })
        });
    Ok(match kept {
        Ok(()) => (db, Source::Built(path)),
        Err(e) => {
            let why = format!("cannot write {}: {e}", path.display());
            note(&format!("egtb: {why}; the database is used but not kept"));
            (db, Source::NotKept(why))
        }
    })
}

/// The database a solve takes when its user names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub game: DbGame,
    pub seeds: usize,
    /// The most boards a database may hold in this machine's memory (a
    /// quarter of what is free): a larger cached one is not loaded.
    pub max_boards: u64,
}

impl Choice {
    /// [`open_or_build`] of this choice in `dir`, built on `threads` threads
    /// (0: one per core) without progress reports; `note` hears what is done.
    pub fn open_or_build(
        &self,
        dir: &Path,
        threads: usize,
        note: &mut dyn FnMut(&str),
    ) -> Result<(Egtb, Source), DbError> {
        let opts = BuildOptions {
            threads,
            ..BuildOptions::default()
        };
        open_or_build(
            Some(dir),
            self.game,
            self.seeds,
            self.max_boards,
            &opts,
            &mut |_| {},
            note,
        )
    }

    /// Whether `db`, already in memory, serves as well.
    pub fn served_by(&self, db: &Egtb) -> bool {
        db.game() == self.game && db.max_seeds() >= self.seeds
    }
}

/// The database the variant chooses for a position of `seeds` seeds in play
/// under `rules` ([`DbSpec::default_db_seeds`]), with fewer seeds where
/// memory is short; `None` where the solve is better off without one.
pub fn choose<G: DbSpec>(rules: &G::Rules, seeds: usize) -> Option<Choice> {
    let wanted = G::default_db_seeds(rules, seeds)?;
    let game = G::db_game(rules).ok()?;
    let max_boards = available_memory() / 4;
    let seeds = game.largest_within(wanted, max_boards);
    (seeds > 0).then_some(Choice {
        game,
        seeds,
        max_boards,
    })
}

/// The database the engine's search plays with under `rules` when its user
/// names none ([`DbSpec::play_db_seeds`]): the small one, or with
/// `prepared` the one `kete egtb prepare` builds, with fewer seeds where
/// memory is short. [`open_or_build`] with it takes the largest database of
/// the game already cached (a prepared one), else builds this one.
pub fn choose_for_play<G: DbSpec>(rules: &G::Rules, prepared: bool) -> Option<Choice> {
    let wanted = G::play_db_seeds(rules, !prepared)?;
    let game = G::db_game(rules).ok()?;
    let max_boards = available_memory() / 4;
    let seeds = game.largest_within(wanted, max_boards);
    (seeds > 0).then_some(Choice {
        game,
        seeds,
        max_boards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::kalah::{Kalah, KalahRules};

    fn kalah4() -> DbGame {
        Kalah::db_game(&KalahRules {
            pits: 4,
            ..KalahRules::default()
        })
        .unwrap()
    }

    #[test]
    fn a_database_is_built_once_then_loaded_and_a_larger_one_serves() {
        let dir = std::env::temp_dir().join(format!("kete-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let get = |seeds, max_boards| {
            let opts = BuildOptions::default();
            open_or_build(
                Some(&dir),
                kalah4(),
                seeds,
                max_boards,
                &opts,
                &mut |_| {},
                &mut |_| {},
            )
        };
        let (db, src) = get(6, u64::MAX).expect("builds");
        assert_eq!(db.max_seeds(), 6);
        let file = dir.join("kalah-4-standard-6.egtb");
        assert_eq!(src, Source::Built(file.clone()));
        let (again, src) = get(4, u64::MAX).expect("loads");
        assert_eq!(src, Source::Cached(file.clone()));
        assert_eq!(again.max_seeds(), 6, "the larger cached database serves");
        // Too large for the memory allowed: a smaller one is built.
        let (small, src) = get(4, kalah4().boards(5)).expect("builds");
        assert_eq!(small.max_seeds(), 4);
        assert!(matches!(src, Source::Built(_)));
        // A damaged file is built again, not trusted.
        std::fs::write(&file, b"KETEEGTB garbage").expect("write");
        let (db, src) = get(6, u64::MAX).expect("rebuilds");
        assert_eq!(src, Source::Built(file.clone()));
        assert_eq!(db.max_seeds(), 6);
        assert!(
            load(&file).is_ok(),
            "the rebuilt file replaces the damaged one"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
