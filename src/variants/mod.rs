//! One module per game. Rules live here and nowhere else; the rest of kete
//! reaches a game through [`crate::game::Game`] and picks one with [`Variant`].

pub mod bao;
pub mod cycle;
pub mod described;
pub mod endodoi;
pub mod kalah;
pub mod net;
pub mod oware;
pub mod togyz;
pub mod two_row;

#[cfg(feature = "toy")]
#[path = "../../tests/toy/game.rs"]
pub mod toy;

use crate::game::{Board, DB_BOARD, DbFamily, DbGame, DbSpec, DbVisitor, Game, SolveGame};
use crate::options::{self, RuleOptions};
use bao::{Bao, BaoRules};
use described::{Described, DescribedRules};
use endodoi::{EnDodoi, EnDodoiRules};
use kalah::{Kalah, KalahRules};
use oware::{Oware, OwareRules};
use togyz::{Togyz, TogyzRules};

pub use crate::options::{OptionKind, VariantOption};
pub use net::{MAX_HIDDEN_WEIGHT, NetFile, QA, QB};

/// Something to do with a game type chosen at run time: the generic code gets
/// the concrete `Game` through `visit`.
pub trait VariantVisitor {
    type Output;
    fn visit<G: Game>(self, rules: G::Rules) -> Self::Output;
}

/// Something to do with a variant's game type that also draws its board and
/// traces its moves ([`Variant::visit_board`]).
pub trait BoardVisitor {
    type Output;
    fn visit<G: Board>(self, rules: G::Rules) -> Self::Output;
}

/// Something to do with a variant's game type that depends on what the
/// solver can do with it: [`Variant::visit_solver`] says, for every variant,
/// whether it can be solved exactly and whether it has endgame databases.
pub trait SolveVisitor: Sized {
    type Output;
    /// Solvable, and endgame databases describe its positions (whether one
    /// exists for particular rules, [`DbSpec::db_game`] says).
    fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Self::Output;
    /// Solvable by counting seeds, without databases.
    fn solvable<G: SolveGame>(self, rules: G::Rules) -> Self::Output;
    /// Not solvable by kete's solver: `why`.
    fn unsolvable<G: Game>(self, rules: G::Rules, why: &'static str) -> Self::Output;
    /// Won or lost without counting seeds: a forced win or loss can be
    /// proved (the solver's proof-number search), no value computed. Visitors that
    /// only solve by counting treat it as [`SolveVisitor::unsolvable`].
    fn provable<G: Game>(self, rules: G::Rules) -> Self::Output {
        self.unsolvable::<G>(rules, NOT_COUNTED)
    }
}

/// A variant's rules seen through its options table, whatever their type.
trait DynRules {
    fn list(&self) -> Vec<VariantOption>;
    fn values(&self) -> Vec<(&'static str, String)>;
    fn set(&mut self, name: &str, value: &str) -> Result<bool, String>;
}

impl<R: RuleOptions> DynRules for R {
    fn list(&self) -> Vec<VariantOption> {
        options::list(self)
    }
    fn values(&self) -> Vec<(&'static str, String)> {
        options::values(self)
    }
    fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        options::set(self, name, value)
    }
}

/// Declares the registration table: one row per variant, giving its entry
/// in [`Variant`], the rules type that entry holds, its `Game` type, its
/// names (canonical first), its title as a person writes it, the rules it
/// starts with, and what the solver can do with it (`databases`,
/// `solvable`, `provable` or `unsolvable(why)`). Every `match` on `Variant`
/// is generated from the rows, so a game is added by its module and one
/// row.
macro_rules! registry {
    ($(
        $(#[$attr:meta])*
        $entry:ident($rules:ty) = $game:ty,
            names [$first:literal $(, $alias:literal)*],
            title $title:literal,
            starts $default:expr,
            solver $solver:ident $(($why:expr))?;
    )+
    @described $dentry:ident($drules:ty) = $dgame:ty, solver $dsolver:ident;
    ) => {
        /// A variant with its size and rule options: what the `Variant`
        /// option and the `--variant` flag choose.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Variant {
            $( $(#[$attr])* $entry($rules), )+
            /// A game from a description file: a built-in one
            /// (`described/games/`) or a user's.
            $dentry($drules),
        }

        /// The names of the games kete plays by its own modules, the
        /// canonical ones; [`variant_names`] adds the described games.
        pub const VARIANT_NAMES: &[&str] = &[$( $(#[$attr])* $first, )+];

        /// Every name the games of kete's own modules answer to, aliases
        /// included (for guesses at a mistyped name).
        const VARIANT_ALIASES: &[&[&str]] = &[$( $(#[$attr])* &[$first $(, $alias)*], )+];

        impl Variant {
            fn by_exact_name(name: &str) -> Option<Variant> {
                match name {
                    $( $(#[$attr])* $first $(| $alias)* => Some(Variant::$entry($default)), )+
                    _ => None,
                }
            }

            pub fn name(&self) -> &'static str {
                match self {
                    $( $(#[$attr])* Variant::$entry(_) => $first, )+
                    Variant::$dentry(r) => r.name(),
                }
            }

            /// The game's name as a person writes it ("Bao la Kiswahili").
            pub fn title(&self) -> &'static str {
                match self {
                    $( $(#[$attr])* Variant::$entry(_) => $title, )+
                    Variant::$dentry(r) => r.title(),
                }
            }

            /// Runs `visitor` with this variant's game type and rules.
            pub fn visit<V: VariantVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) => visitor.visit::<$game>(*r), )+
                    Variant::$dentry(r) => visitor.visit::<$dgame>(*r),
                }
            }

            /// Runs `visitor` with this variant's game type and rules, as a
            /// board.
            pub fn visit_board<V: BoardVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) => visitor.visit::<$game>(*r), )+
                    Variant::$dentry(r) => visitor.visit::<$dgame>(*r),
                }
            }

            /// Runs `visitor` with this variant's game type, rules and what
            /// the solver can do with it: the table's `solver` column, which
            /// no row can leave out.
            pub fn visit_solver<V: SolveVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) =>
                        registry!(@solver visitor, $game, *r, $solver $(($why))?), )+
                    Variant::$dentry(r) => registry!(@solver visitor, $dgame, *r, $dsolver),
                }
            }

            fn rules(&self) -> &dyn DynRules {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) => r, )+
                    Variant::$dentry(r) => r,
                }
            }

            fn rules_mut(&mut self) -> &mut dyn DynRules {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) => r, )+
                    Variant::$dentry(r) => r,
                }
            }
        }

        /// The families of the databases of the variants whose `solver`
        /// column says `databases`.
        const DB_FAMILIES: &[Option<&DbFamily>] = &[
            $( $(#[$attr])* registry!(@family $game, $solver), )+
        ];

        /// Runs `visitor` with the game type of the database `game` and the
        /// rules of its positions ([`DbSpec::db_rules`]).
        pub fn visit_db<V: DbVisitor>(game: DbGame, visitor: V) -> V::Output {
            $( $(#[$attr])* registry!(@db visitor, game, $game, $solver); )+
            unreachable!("{} is the database family of no registered game", game.family.name)
        }
    };
    (@family $g:ty, databases) => { Some(<$g as DbSpec>::DB_FAMILY) };
    (@family $g:ty, $other:ident) => { None };
    (@db $v:ident, $game:ident, $g:ty, databases) => {
        if $game.family.code == <$g as DbSpec>::DB_FAMILY.code {
            return $v.visit::<$g>(<$g as DbSpec>::db_rules($game));
        }
    };
    (@db $v:ident, $game:ident, $g:ty, $other:ident) => {};
    (@solver $v:ident, $g:ty, $r:expr, databases) => { $v.with_databases::<$g>($r) };
    (@solver $v:ident, $g:ty, $r:expr, solvable) => { $v.solvable::<$g>($r) };
    (@solver $v:ident, $g:ty, $r:expr, provable) => { $v.provable::<$g>($r) };
    (@solver $v:ident, $g:ty, $r:expr, unsolvable($why:expr)) => { $v.unsolvable::<$g>($r, $why) };
}

const NOT_COUNTED: &str = "it is decided without counting seeds";

// The registration table.
registry! {
    Kalah(KalahRules) = Kalah,
        names ["kalah", "mancala"],
        title "Kalah",
        starts KalahRules::default(),
        solver databases;
    Oware(OwareRules) = Oware,
        names ["oware", "awari", "awale"],
        title "Oware",
        starts OwareRules::default(),
        solver databases;
    EnDodoi(EnDodoiRules) = EnDodoi,
        names ["endodoi", "en-dodoi"],
        title "En Dodoi",
        starts EnDodoiRules::default(),
        solver solvable;
    BaoKujifunza(BaoRules) = Bao,
        names ["bao-kujifunza", "kujifunza"],
        title "Bao la Kujifunza",
        starts BaoRules::kujifunza(),
        solver provable;
    BaoKiswahili(BaoRules) = Bao,
        names ["bao-kiswahili", "bao", "kiswahili"],
        title "Bao la Kiswahili",
        starts BaoRules::kiswahili(),
        solver provable;
    TogyzKumalak(TogyzRules) = Togyz,
        names ["togyz-kumalak", "togyz", "togyzkumalak", "togyz-qumalaq", "toguz-korgool"],
        title "Togyz Kumalak",
        starts TogyzRules::default(),
        solver databases;
    Bestemshe(TogyzRules) = Togyz,
        names ["bestemshe"],
        title "Bestemshe",
        starts TogyzRules::bestemshe(),
        solver databases;
    // A test-only game (tests/toy/game.rs), registered like the others when
    // the `toy` feature is on: see tests/toy_game.rs.
    #[cfg(feature = "toy")]
    Toy(toy::ToyRules) = toy::Toy,
        names ["toy"],
        title "Toy",
        starts toy::ToyRules::default(),
        solver solvable;
    // Every described game, built in or loaded from a file.
    @described Described(DescribedRules) = Described, solver solvable;
}

impl Default for Variant {
    fn default() -> Self {
        Variant::Kalah(KalahRules::default())
    }
}

/// Every game name the build knows, canonical ones: the games of kete's
/// own modules, then the built-in described games.
pub fn variant_names() -> Vec<&'static str> {
    VARIANT_NAMES
        .iter()
        .copied()
        .chain(described_names())
        .collect()
}

/// The names of the built-in described games.
pub fn described_names() -> impl Iterator<Item = &'static str> {
    described::catalogue::built_in()
        .iter()
        .map(|r| r.spec.game.name.as_str())
}

/// Every name the game called `name` (canonical) answers to besides it,
/// as written: its aliases.
pub fn aliases_of(name: &str) -> Vec<&'static str> {
    if let Some(names) = VARIANT_ALIASES.iter().find(|n| n[0] == name) {
        return names[1..].to_vec();
    }
    described::catalogue::built_in()
        .iter()
        .find(|r| r.spec.game.name == name)
        .map(|r| r.spec.game.aliases.iter().map(|a| a.as_str()).collect())
        .unwrap_or_default()
}

/// The prefix of a game named by its description file.
pub const FILE_PREFIX: &str = "file:";

impl Variant {
    /// The variant called `name` (or an alias) with its default options: a
    /// game of kete's own modules, a described game by any of its names, or
    /// `file:PATH`, a description file (loaded and kept).
    pub fn by_name(name: &str) -> Result<Variant, String> {
        let trimmed = name.trim();
        if let Some(path) = trimmed.strip_prefix(FILE_PREFIX) {
            return Variant::from_file(path);
        }
        // Any case, spaces or underscores for hyphens ("Togyz Kumalak").
        let name = described::catalogue::normalise(trimmed);
        if let Some(v) = Variant::by_exact_name(&name) {
            return Ok(v);
        }
        if let Some(r) = described::catalogue::by_name(&name) {
            return Ok(Variant::Described(DescribedRules(r)));
        }
        let described_aliases: Vec<&'static str> = described::catalogue::built_in()
            .iter()
            .flat_map(|r| {
                std::iter::once(r.spec.game.name.as_str())
                    .chain(r.spec.game.aliases.iter().map(|a| a.as_str()))
            })
            .collect();
        let guess = crate::options::suggestion(
            &name,
            VARIANT_ALIASES
                .iter()
                .flat_map(|names| names.iter().copied())
                .chain(described_aliases),
        );
        Err(format!(
            "unknown variant '{trimmed}'{guess} (known: {}; or file:PATH for a description file)",
            variant_names().join(", ")
        ))
    }

    /// The described game of the description file at `path`.
    pub fn from_file(path: &str) -> Result<Variant, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the description {path}: {e}"))?;
        Variant::check_own_name(&text, path)?;
        let r = described::catalogue::load_file(path)?;
        Ok(Variant::Described(DescribedRules(r)))
    }

    /// The described game of a description's text (`origin` names it in
    /// messages). Its name must be its own: not one of kete's games.
    pub fn from_description(text: &str, origin: &str) -> Result<Variant, String> {
        Variant::check_own_name(text, origin)?;
        let r = described::catalogue::load(text, origin)?;
        Ok(Variant::Described(DescribedRules(r)))
    }

    /// Refuses a description that takes the name of one of kete's own
    /// games.
    fn check_own_name(text: &str, origin: &str) -> Result<(), String> {
        let spec_name = described::spec::Spec::parse(text)
            .map_err(|e| format!("{origin}: {e}"))?
            .game
            .name;
        if Variant::by_exact_name(&spec_name).is_some() {
            return Err(format!(
                "{origin}: [game] name = \"{spec_name}\" is the name of one of kete's games; give the file's game a name of its own"
            ));
        }
        Ok(())
    }

    /// The description file a user's described game was loaded from.
    pub fn description_file(&self) -> Option<&'static str> {
        match self {
            Variant::Described(r) => r.rules().file.as_deref(),
            _ => None,
        }
    }

    /// Whether this is a game from a description.
    pub fn is_described(&self) -> bool {
        matches!(self, Variant::Described(_))
    }

    /// The options of this variant with their ranges and defaults (the
    /// values of the rules it starts with): its rules' table.
    pub fn options(&self) -> Vec<VariantOption> {
        match self {
            Variant::Described(r) => r.list(),
            _ => Variant::by_exact_name(self.name())
                .expect("a variant's own name")
                .rules()
                .list(),
        }
    }

    /// Sets one option by name (case-insensitive); the message of an error
    /// names the option and what is wrong with the value.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if self.rules_mut().set(name, value)? {
            return Ok(());
        }
        // Named as the game that has it names it, however it was typed
        // (Python's `rules=` is `Rules`), so every front end says the same.
        let shown = VARIANT_NAMES
            .iter()
            .filter_map(|v| Variant::by_exact_name(v))
            .flat_map(|v| v.options().iter().map(|o| o.name).collect::<Vec<_>>())
            .find(|o| o.eq_ignore_ascii_case(name.trim()))
            .unwrap_or(name);
        Err(format!(
            "option '{shown}' does not apply to {} (its options: {})",
            self.name(),
            self.options()
                .iter()
                .map(|o| o.name)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// The current value of every option, as `set_option` reads it.
    pub fn option_values(&self) -> Vec<(&'static str, String)> {
        self.rules().values()
    }
}

/// The database family whose code is `code[0]`, with its pits and rule: the
/// game a database file's header names, or why it names none of this
/// build's games.
pub fn db_game(code: [u8; 3]) -> Result<DbGame, String> {
    let [family, pits, rule] = code;
    let family = DB_FAMILIES
        .iter()
        .flatten()
        .find(|f| f.code == family)
        .filter(|f| (rule as usize) < f.rules.len())
        .ok_or_else(|| format!("unknown game or rule {code:?}"))?;
    // A database board holds two rows (and a layout's number) in
    // `DB_BOARD` bytes; the size is checked before a family's layouts are
    // made for it.
    let game = DbGame { family, pits, rule };
    if pits == 0
        || 2 * pits as usize >= DB_BOARD
        || game.index(0).is_none_or(|ix| ix.board_len() > DB_BOARD)
    {
        return Err(format!("{pits} pits per row"));
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah::Capture;

    #[test]
    fn options_are_case_insensitive_and_checked() {
        let mut v = Variant::by_name("Mancala").unwrap();
        v.set_option("PITS", "4").unwrap();
        v.set_option("capture", "EMPTY").unwrap();
        assert_eq!(
            v,
            Variant::Kalah(KalahRules {
                pits: 4,
                seeds: 4,
                capture: Capture::Empty
            })
        );
        assert!(v.set_option("Pits", "9").unwrap_err().contains("1..8"));
        assert!(v.set_option("Seeds", "-1").unwrap_err().contains("Seeds"));
        assert!(
            v.set_option("Rules", "abapa")
                .unwrap_err()
                .contains("does not apply")
        );
        let mut o = Variant::by_name("awari").unwrap();
        o.set_option("rules", "abapa").unwrap();
        o.set_option("repetition", "split").unwrap();
        assert_eq!(o.option_values()[2].1, "abapa");
        assert_eq!(o.option_values()[3].1, "split");
        assert!(
            Variant::by_name("chess")
                .unwrap_err()
                .contains("unknown variant")
        );
    }
}
