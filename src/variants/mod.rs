//! One module per game. Rules live here and nowhere else; the rest of kete
//! reaches a game through [`crate::game::Game`] and picks one with [`Variant`].

pub mod bao;
pub mod cycle;
pub mod endodoi;
pub mod kalah;
pub mod oware;
pub mod two_row;

#[cfg(feature = "toy")]
#[path = "../../tests/toy/game.rs"]
pub mod toy;

use crate::game::{Board, Game};
use crate::options::{self, RuleOptions};
use crate::solve::SolveGame;
use crate::solve::db::{DbError, DbSpec};
use bao::{Bao, BaoRules};
use endodoi::{EnDodoi, EnDodoiRules};
use kalah::{Capture, Kalah, KalahRules};
use oware::{Oware, OwareRules, Repetition, RuleSet};

pub use crate::options::{OptionKind, VariantOption};

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
    /// proved ([`crate::solve::pns`]), no value computed. Visitors that
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
/// names (canonical first), the rules it starts with, and what the solver
/// can do with it (`databases`, `solvable`, `provable` or `unsolvable(why)`). Every
/// `match` on `Variant` is generated from the rows, so a game is added by
/// its module and one row.
macro_rules! registry {
    ($(
        $(#[$attr:meta])*
        $entry:ident($rules:ty) = $game:ty,
            names [$first:literal $(, $alias:literal)*],
            starts $default:expr,
            solver $solver:ident $(($why:expr))?;
    )+) => {
        /// A variant with its size and rule options: what the `Variant`
        /// option and the `--variant` flag choose.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Variant {
            $( $(#[$attr])* $entry($rules), )+
        }

        /// The variant names the build knows, the canonical ones.
        pub const VARIANT_NAMES: &[&str] = &[$( $(#[$attr])* $first, )+];

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
                }
            }

            /// Runs `visitor` with this variant's game type and rules.
            pub fn visit<V: VariantVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) => visitor.visit::<$game>(*r), )+
                }
            }

            /// Runs `visitor` with this variant's game type and rules, as a
            /// board.
            pub fn visit_board<V: BoardVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) => visitor.visit::<$game>(*r), )+
                }
            }

            /// Runs `visitor` with this variant's game type, rules and what
            /// the solver can do with it: the table's `solver` column, which
            /// no row can leave out.
            pub fn visit_solver<V: SolveVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) =>
                        registry!(@solver visitor, $game, *r, $solver $(($why))?), )+
                }
            }

            fn rules(&self) -> &dyn DynRules {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) => r, )+
                }
            }

            fn rules_mut(&mut self) -> &mut dyn DynRules {
                match self {
                    $( $(#[$attr])* Variant::$entry(r) => r, )+
                }
            }
        }
    };
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
        starts KalahRules::default(),
        solver databases;
    Oware(OwareRules) = Oware,
        names ["oware", "awari", "awale"],
        starts OwareRules::default(),
        solver databases;
    EnDodoi(EnDodoiRules) = EnDodoi,
        names ["endodoi", "en-dodoi"],
        starts EnDodoiRules::default(),
        solver solvable;
    BaoKujifunza(BaoRules) = Bao,
        names ["bao-kujifunza", "kujifunza"],
        starts BaoRules::kujifunza(),
        solver provable;
    BaoKiswahili(BaoRules) = Bao,
        names ["bao-kiswahili", "bao", "kiswahili"],
        starts BaoRules::kiswahili(),
        solver provable;
    // A test-only game (tests/toy/game.rs), registered like the others when
    // the `toy` feature is on: see tests/toy_game.rs.
    #[cfg(feature = "toy")]
    Toy(toy::ToyRules) = toy::Toy,
        names ["toy"],
        starts toy::ToyRules::default(),
        solver solvable;
}

impl Default for Variant {
    fn default() -> Self {
        Variant::Kalah(KalahRules::default())
    }
}

impl Variant {
    /// The variant called `name` (or an alias) with its default options.
    pub fn by_name(name: &str) -> Result<Variant, String> {
        let name = name.trim().to_ascii_lowercase();
        Variant::by_exact_name(&name).ok_or_else(|| {
            format!(
                "unknown variant '{name}' (known: {})",
                VARIANT_NAMES.join(", ")
            )
        })
    }

    /// The options of this variant with their ranges and defaults (the
    /// values of the rules it starts with): its rules' table.
    pub fn options(&self) -> Vec<VariantOption> {
        Variant::by_exact_name(self.name())
            .expect("a variant's own name")
            .rules()
            .list()
    }

    /// Sets one option by name (case-insensitive); the message of an error
    /// names the option and what is wrong with the value.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if self.rules_mut().set(name, value)? {
            return Ok(());
        }
        Err(format!(
            "option '{name}' does not apply to {} (its options: {})",
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

/// Which game a database is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbGame {
    Kalah {
        pits: u8,
        capture: Capture,
    },
    /// Oware under either rule set: the rules decide which moves are legal
    /// and how a game ends, so each has its own databases.
    Oware {
        houses: u8,
        rules: RuleSet,
    },
}

impl DbGame {
    pub fn pits(&self) -> usize {
        match *self {
            DbGame::Kalah { pits, .. } => pits as usize,
            DbGame::Oware { houses, .. } => houses as usize,
        }
    }

    pub(crate) fn code(&self) -> [u8; 3] {
        match *self {
            DbGame::Kalah { pits, capture } => [0, pits, (capture == Capture::Empty) as u8],
            DbGame::Oware { houses, rules } => [1, houses, (rules == RuleSet::Abapa) as u8],
        }
    }

    pub(crate) fn from_code(c: [u8; 3]) -> Result<DbGame, DbError> {
        let pits = c[1];
        if !(1..=two_row::MAX_PITS as u8).contains(&pits) {
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
            [1, _, 0] => Ok(DbGame::Oware {
                houses: pits,
                rules: RuleSet::Awari,
            }),
            [1, _, 1] => Ok(DbGame::Oware {
                houses: pits,
                rules: RuleSet::Abapa,
            }),
            _ => Err(DbError::Format(format!("unknown game or rule {c:?}"))),
        }
    }

    /// The rule that tells this game's databases apart, as a word.
    fn rule_word(&self) -> &'static str {
        match *self {
            DbGame::Kalah {
                capture: Capture::Empty,
                ..
            } => "empty",
            DbGame::Kalah { .. } => "standard",
            DbGame::Oware { rules, .. } => match rules {
                RuleSet::Awari => "awari",
                RuleSet::Abapa => "abapa",
            },
        }
    }

    /// The database's game in a file name: `kalah-6-standard`,
    /// `oware-6-abapa`.
    pub fn slug(&self) -> String {
        let game = match self {
            DbGame::Kalah { .. } => "kalah",
            DbGame::Oware { .. } => "oware",
        };
        format!("{game}-{}-{}", self.pits(), self.rule_word())
    }

    pub fn describe(&self) -> String {
        match *self {
            DbGame::Kalah { pits, .. } => {
                format!("kalah, {pits} pits, {} capture", self.rule_word())
            }
            DbGame::Oware { houses, .. } => {
                format!("oware ({} rules), {houses} houses", self.rule_word())
            }
        }
    }
}

/// Something to do with the game of a database: [`DbGame::visit`] gives it
/// the game's type and the rules its database positions are played under.
pub trait DbVisitor {
    type Output;
    fn visit<G: DbSpec>(self, rules: G::Rules) -> Self::Output;
}

impl DbGame {
    /// Runs `visitor` with the game type of this database and the rules of
    /// its positions: the same board and rule, stores that start empty.
    pub fn visit<V: DbVisitor>(&self, visitor: V) -> V::Output {
        match *self {
            // Seeds only sizes the start position, which a database never uses.
            DbGame::Kalah { pits, capture } => visitor.visit::<Kalah>(KalahRules {
                pits,
                seeds: 1,
                capture,
            }),
            // The most seeds a house may start with, so that the
            // half-of-all-seeds end never fires with empty stores; a
            // repetition never ends a database line.
            DbGame::Oware { houses, rules } => visitor.visit::<Oware>(OwareRules {
                houses,
                seeds: oware::MAX_SEEDS,
                rules,
                repetition: Repetition::Split,
            }),
        }
    }
}

/// Folds a few words into a 64-bit hash: cheap, and mixes well enough for
/// transposition tables (every input bit reaches every output bit).
pub(crate) fn mix_words(words: &[u64]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &w in words {
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}

/// `text` without the spaces at the ends of its lines, which a diagram's
/// padded cells leave (a terminal shows nothing there, a copy keeps them).
pub(crate) fn trim_lines(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
