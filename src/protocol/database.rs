//! The database the engine's search plays with when its user names none
//! (`EgtbPath`): each game with databases chooses one for its rules
//! ([`DbSpec::play_db_seeds`]). It comes from `EgtbDir`'s folder (the
//! user's cache by default), where `kete egtb prepare` leaves a large one;
//! where the folder has none, a small one that builds in about a second is
//! built there at `isready` or `uginewgame` — where UCI expects slow setup,
//! never inside a timed `go` — and kept for the next start.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::output::Output;
use crate::game::{DbGame, DbSpec, Game, SolveGame};
use crate::solve::Egtb;
use crate::solve::cache::{Choice, Source, choose_for_play};
use crate::variants::{SolveVisitor, Variant};

/// The database in play and where it came from.
#[derive(Clone, Debug)]
pub struct InPlay {
    pub db: Arc<Egtb>,
    /// The file it was read from or written to; `None` when it was built
    /// but could not be kept.
    pub file: Option<PathBuf>,
}

impl InPlay {
    /// How `query option EgtbInUse` shows it: the file, or the database's
    /// name where it is in memory only.
    pub fn shown(&self) -> String {
        match &self.file {
            Some(f) => f.display().to_string(),
            None => format!(
                "{}-{} (in memory)",
                self.db.game().slug(),
                self.db.max_seeds()
            ),
        }
    }
}

/// The database `variant` plays with under its rules: the small one built
/// on demand, or with `prepared` the one `kete egtb prepare` builds.
pub fn choice(variant: &Variant, prepared: bool) -> Option<Choice> {
    struct Play(bool);
    impl SolveVisitor for Play {
        type Output = Option<Choice>;
        fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Option<Choice> {
            choose_for_play::<G>(&rules, self.0)
        }
        fn solvable<G: SolveGame>(self, _: G::Rules) -> Option<Choice> {
            None
        }
        fn unsolvable<G: Game>(self, _: G::Rules, _: &'static str) -> Option<Choice> {
            None
        }
    }
    variant.visit_solver(Play(prepared))
}

/// Opens the database of `choice` from `dir` — the largest of its game
/// cached there, within the memory — or builds the chosen one and keeps
/// it there, telling `out` what it did in `info string` lines. `None` (with
/// an error line) where neither works.
pub fn open(dir: &Path, choice: Choice, threads: usize, out: &Output) -> Option<InPlay> {
    let start = Instant::now();
    let opened = choice.open_or_build(dir, threads, &mut |m| out.line(&format!("info string {m}")));
    match opened {
        Ok((db, source)) => {
            let file = match source {
                Source::Cached(f) | Source::Built(f) => Some(f),
                Source::NotKept(_) => None,
            };
            out.line(&format!(
                "info string egtb: in play: {} up to {} seeds ({:.1} s)",
                db.game().describe(),
                db.max_seeds(),
                start.elapsed().as_secs_f64()
            ));
            Some(InPlay {
                db: Arc::new(db),
                file,
            })
        }
        Err(e) => {
            out.error(&format!("egtb: no database in play: {e}"));
            None
        }
    }
}

/// Whether `in_play` is a database of `game`.
pub fn serves(in_play: &Option<InPlay>, game: DbGame) -> bool {
    in_play.as_ref().is_some_and(|p| p.db.game() == game)
}
