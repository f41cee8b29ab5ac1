//! One module per game. Rules live here and nowhere else; the rest of kete
//! reaches a game through [`crate::game::Game`] and picks one with [`Variant`].

pub mod bao;
pub mod cycle;
pub mod endodoi;
pub mod kalah;
pub mod oware;
pub mod two_row;

use crate::game::{Board, Game};
use crate::solve::SolveGame;
use crate::solve::db::{DbError, DbSpec};
use bao::{Bao, BaoRules};
use endodoi::{EnDodoi, EnDodoiRules};
use kalah::{Capture, Kalah, KalahRules};
use oware::{Oware, OwareRules, Repetition, RuleSet};

/// A variant with its size and rule options: what the `Variant` option and
/// the `--variant` flag choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Kalah(KalahRules),
    Oware(OwareRules),
    EnDodoi(EnDodoiRules),
    BaoKujifunza(BaoRules),
    BaoKiswahili(BaoRules),
}

/// The variant names the build knows, first the canonical ones.
pub const VARIANT_NAMES: &[&str] = &[
    "kalah",
    "oware",
    "endodoi",
    "bao-kujifunza",
    "bao-kiswahili",
];

/// How a variant option is set: what `setoption` and the command line accept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        min: i64,
        max: i64,
        default: i64,
    },
    Combo {
        values: &'static [&'static str],
        default: &'static str,
    },
}

/// One option of a variant, as the protocol lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantOption {
    pub name: &'static str,
    pub kind: OptionKind,
}

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
pub trait SolveVisitor {
    type Output;
    /// Solvable, and endgame databases describe its positions (whether one
    /// exists for particular rules, [`DbSpec::db_game`] says).
    fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Self::Output;
    /// Solvable by counting seeds, without databases.
    fn solvable<G: SolveGame>(self, rules: G::Rules) -> Self::Output;
    /// Not solvable by kete's solver: `why`.
    fn unsolvable<G: Game>(self, rules: G::Rules, why: &'static str) -> Self::Output;
}

impl Default for Variant {
    fn default() -> Self {
        Variant::Kalah(KalahRules::default())
    }
}

impl Variant {
    /// The variant called `name` (or an alias) with its default options.
    pub fn by_name(name: &str) -> Result<Variant, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "kalah" | "mancala" => Ok(Variant::Kalah(KalahRules::default())),
            "oware" | "awari" | "awale" => Ok(Variant::Oware(OwareRules::default())),
            "endodoi" | "en-dodoi" => Ok(Variant::EnDodoi(EnDodoiRules::default())),
            "bao-kujifunza" | "kujifunza" => Ok(Variant::BaoKujifunza(BaoRules::kujifunza())),
            "bao-kiswahili" | "bao" | "kiswahili" => {
                Ok(Variant::BaoKiswahili(BaoRules::kiswahili()))
            }
            other => Err(format!(
                "unknown variant '{other}' (known: {})",
                VARIANT_NAMES.join(", ")
            )),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Variant::Kalah(_) => "kalah",
            Variant::Oware(_) => "oware",
            Variant::EnDodoi(_) => "endodoi",
            Variant::BaoKujifunza(_) => "bao-kujifunza",
            Variant::BaoKiswahili(_) => "bao-kiswahili",
        }
    }

    /// The options of this variant with their ranges and defaults.
    pub fn options(&self) -> Vec<VariantOption> {
        let size = |seeds_max: u8| {
            vec![
                VariantOption {
                    name: "Pits",
                    kind: OptionKind::Spin {
                        min: 1,
                        max: two_row::MAX_PITS as i64,
                        default: 6,
                    },
                },
                VariantOption {
                    name: "Seeds",
                    kind: OptionKind::Spin {
                        min: 1,
                        max: seeds_max as i64,
                        default: 4,
                    },
                },
            ]
        };
        match self {
            Variant::Kalah(_) => {
                let mut o = size(kalah::MAX_SEEDS);
                o.push(VariantOption {
                    name: "Capture",
                    kind: OptionKind::Combo {
                        values: &["standard", "empty"],
                        default: "standard",
                    },
                });
                o
            }
            Variant::Oware(_) => {
                let mut o = size(oware::MAX_SEEDS);
                o.push(VariantOption {
                    name: "Rules",
                    kind: OptionKind::Combo {
                        values: &["awari", "abapa"],
                        default: "awari",
                    },
                });
                o.push(VariantOption {
                    name: "Repetition",
                    kind: OptionKind::Combo {
                        values: &["own-side", "split"],
                        default: "own-side",
                    },
                });
                o
            }
            Variant::EnDodoi(_) => vec![
                VariantOption {
                    name: "Pits",
                    kind: OptionKind::Spin {
                        min: endodoi::MIN_PITS as i64,
                        max: endodoi::MAX_PITS as i64,
                        default: 6,
                    },
                },
                VariantOption {
                    name: "Seeds",
                    kind: OptionKind::Spin {
                        min: endodoi::MIN_SEEDS as i64,
                        max: endodoi::MAX_SEEDS as i64,
                        default: 4,
                    },
                },
            ],
            Variant::BaoKujifunza(_) | Variant::BaoKiswahili(_) => BaoRules::option_choices()
                .iter()
                .map(|(name, values)| VariantOption {
                    name,
                    kind: OptionKind::Combo {
                        values,
                        default: values[0],
                    },
                })
                .collect(),
        }
    }

    /// Sets one option by name (case-insensitive); the message of an error
    /// names the option and what is wrong with the value.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let key = name.trim().to_ascii_lowercase();
        let value = value.trim();
        // The ranges are those `options` lists: one table for the protocol's
        // list and for what is accepted.
        let options = self.options();
        let spin = |option: &str| -> Result<u8, String> {
            let (min, max) = options
                .iter()
                .find_map(|o| match o.kind {
                    OptionKind::Spin { min, max, .. } if o.name == option => Some((min, max)),
                    _ => None,
                })
                .expect("a number option of this variant");
            value
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .map(|v| v as u8)
                .ok_or_else(|| format!("{name} must be a whole number {min}..{max}, got '{value}'"))
        };
        let lower = value.to_ascii_lowercase();
        match (self, key.as_str()) {
            (Variant::Kalah(r), "pits") => r.pits = spin("Pits")?,
            (Variant::Kalah(r), "seeds") => r.seeds = spin("Seeds")?,
            (Variant::Kalah(r), "capture") => {
                r.capture = match lower.as_str() {
                    "standard" => Capture::Standard,
                    "empty" => Capture::Empty,
                    _ => return Err(format!("Capture must be standard or empty, got '{value}'")),
                }
            }
            (Variant::Oware(r), "pits" | "houses") => r.houses = spin("Pits")?,
            (Variant::Oware(r), "seeds") => r.seeds = spin("Seeds")?,
            (Variant::Oware(r), "rules") => {
                r.rules = match lower.as_str() {
                    "awari" => RuleSet::Awari,
                    "abapa" => RuleSet::Abapa,
                    _ => return Err(format!("Rules must be awari or abapa, got '{value}'")),
                }
            }
            (Variant::Oware(r), "repetition") => {
                r.repetition = match lower.as_str() {
                    "own-side" | "ownside" => Repetition::OwnSide,
                    "split" => Repetition::Split,
                    _ => {
                        return Err(format!(
                            "Repetition must be own-side or split, got '{value}'"
                        ));
                    }
                }
            }
            (Variant::EnDodoi(r), "pits" | "holes") => r.pits = spin("Pits")?,
            (Variant::EnDodoi(r), "seeds") => r.seeds = spin("Seeds")?,
            (Variant::BaoKujifunza(r) | Variant::BaoKiswahili(r), _)
                if BaoRules::option_choices()
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case(key.as_str())) =>
            {
                r.set_option(name, value)?;
            }
            (v, _) => {
                return Err(format!(
                    "option '{name}' does not apply to {} (its options: {})",
                    v.name(),
                    v.options()
                        .iter()
                        .map(|o| o.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        Ok(())
    }

    /// The current value of every option, as `set_option` reads it.
    pub fn option_values(&self) -> Vec<(&'static str, String)> {
        match self {
            Variant::Kalah(r) => vec![
                ("Pits", r.pits.to_string()),
                ("Seeds", r.seeds.to_string()),
                (
                    "Capture",
                    match r.capture {
                        Capture::Standard => "standard",
                        Capture::Empty => "empty",
                    }
                    .to_string(),
                ),
            ],
            Variant::Oware(r) => vec![
                ("Pits", r.houses.to_string()),
                ("Seeds", r.seeds.to_string()),
                (
                    "Rules",
                    match r.rules {
                        RuleSet::Awari => "awari",
                        RuleSet::Abapa => "abapa",
                    }
                    .to_string(),
                ),
                (
                    "Repetition",
                    match r.repetition {
                        Repetition::OwnSide => "own-side",
                        Repetition::Split => "split",
                    }
                    .to_string(),
                ),
            ],
            Variant::EnDodoi(r) => {
                vec![("Pits", r.pits.to_string()), ("Seeds", r.seeds.to_string())]
            }
            Variant::BaoKujifunza(r) | Variant::BaoKiswahili(r) => r.option_values(),
        }
    }

    /// Runs `visitor` with this variant's game type, rules and what the
    /// solver can do with it. The one place that says so: the match has no
    /// catch-all arm, so a new variant does not compile until it is placed.
    pub fn visit_solver<V: SolveVisitor>(&self, visitor: V) -> V::Output {
        const NOT_COUNTED: &str = "it is decided without counting seeds";
        match self {
            Variant::Kalah(r) => visitor.with_databases::<Kalah>(*r),
            Variant::Oware(r) => visitor.with_databases::<Oware>(*r),
            Variant::EnDodoi(r) => visitor.solvable::<EnDodoi>(*r),
            Variant::BaoKujifunza(r) | Variant::BaoKiswahili(r) => {
                visitor.unsolvable::<Bao>(*r, NOT_COUNTED)
            }
        }
    }

    /// Runs `visitor` with this variant's game type and rules, as a board.
    pub fn visit_board<V: BoardVisitor>(&self, visitor: V) -> V::Output {
        match self {
            Variant::Kalah(r) => visitor.visit::<Kalah>(*r),
            Variant::Oware(r) => visitor.visit::<Oware>(*r),
            Variant::EnDodoi(r) => visitor.visit::<EnDodoi>(*r),
            Variant::BaoKujifunza(r) | Variant::BaoKiswahili(r) => visitor.visit::<Bao>(*r),
        }
    }

    /// Runs `visitor` with this variant's game type and rules.
    pub fn visit<V: VariantVisitor>(&self, visitor: V) -> V::Output {
        match self {
            Variant::Kalah(r) => visitor.visit::<Kalah>(*r),
            Variant::Oware(r) => visitor.visit::<Oware>(*r),
            Variant::EnDodoi(r) => visitor.visit::<EnDodoi>(*r),
            Variant::BaoKujifunza(r) | Variant::BaoKiswahili(r) => visitor.visit::<Bao>(*r),
        }
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

    pub(crate) fn code(&self) -> [u8; 3] {
        match *self {
            DbGame::Kalah { pits, capture } => [0, pits, (capture == Capture::Empty) as u8],
            DbGame::Oware { houses } => [1, houses, 0],
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
            // All of Awari's seeds, so that the half-of-all-seeds end never
            // fires with empty stores; a repetition never ends a database line.
            DbGame::Oware { houses } => visitor.visit::<Oware>(OwareRules {
                houses,
                seeds: oware::MAX_SEEDS,
                rules: RuleSet::Awari,
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
