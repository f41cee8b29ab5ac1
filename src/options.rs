//! Rule options: each game declares its options once, in a table of
//! [`RuleOption`]s ([`RuleOptions::OPTIONS`]), and everything that lists,
//! sets, reads or checks them — the protocol's `option` lines, `setoption`,
//! `query options`, both command lines and the arena's records — works from
//! that table through the functions here. Nothing here knows a game.

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
        /// Each value in words, in the order of `values`.
        labels: &'static [&'static str],
        default: &'static str,
    },
}

/// One option of a variant, as the protocol lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantOption {
    pub name: &'static str,
    pub kind: OptionKind,
    /// The command-line flag that sets it besides `--option NAME=VALUE`.
    pub flag: Option<&'static str>,
    /// What it is, for the flag's help.
    pub help: &'static str,
    /// Its name as a person reads it, for menus ("Seeds per pit").
    pub label: &'static str,
    /// A rule variant most players leave alone (a board folds it away).
    pub advanced: bool,
}

/// How an option reads and writes a rules value.
pub enum Access<R: 'static> {
    /// A whole number `min..=max`.
    Spin {
        min: i64,
        max: i64,
        get: fn(&R) -> i64,
        set: fn(&mut R, i64),
    },
    /// One of `values`, by its index there; `labels` says each in words.
    Combo {
        values: &'static [&'static str],
        labels: &'static [&'static str],
        get: fn(&R) -> usize,
        set: fn(&mut R, usize),
    },
}

/// One rule option of a game: the row of its table.
pub struct RuleOption<R: 'static> {
    /// The name the protocol lists (`option name Pits ...`).
    pub name: &'static str,
    /// Other names that set it (case-insensitive), e.g. `Houses`.
    pub aliases: &'static [&'static str],
    /// The command-line flag (`--pits`), if it has one.
    pub flag: Option<&'static str>,
    /// What it is, in one line (the flag's help, a menu's explanation).
    pub help: &'static str,
    /// Its name as a person reads it ("Seeds per pit"); `name` stays the
    /// protocol's.
    pub label: &'static str,
    /// A rule variant most players leave alone: a board folds it under
    /// "Advanced rules".
    pub advanced: bool,
    pub access: Access<R>,
}

/// A game's rule options. The default of each option is its value in the
/// rules a variant starts with, so defaults are not written twice.
pub trait RuleOptions: Sized + 'static {
    const OPTIONS: &'static [RuleOption<Self>];
}

/// A combo row of an options table: `values` pairs each text with the value
/// it sets `field` to (and, in brackets, the text in words, e.g.
/// `"split" ("the seeds left are shared") => Repetition::Split`); the first
/// pair whose value equals the field's is read. `label` is the option's
/// name as a person reads it; `advanced` folds it away on a board.
#[macro_export]
macro_rules! combo_option {
    ($rules:ty, $name:literal, $field:ident,
     [$($text:literal $(($words:literal))? => $value:expr),+ $(,)?]
     $(, flag: $flag:literal)?, label: $label:literal $(, help: $help:literal)?
     $(, advanced: $advanced:literal)? $(,)?) => {
        $crate::options::RuleOption {
            name: $name,
            aliases: &[],
            flag: $crate::combo_option!(@flag $($flag)?),
            help: $crate::combo_option!(@help $($help)?),
            label: $label,
            advanced: $crate::combo_option!(@advanced $($advanced)?),
            access: $crate::options::Access::Combo {
                values: &[$($text),+],
                labels: &[$($crate::combo_option!(@words $text $(, $words)?)),+],
                get: |r: &$rules| {
                    [$($value),+]
                        .iter()
                        .position(|v| *v == r.$field)
                        .expect("every value of the field is listed")
                },
                set: |r: &mut $rules, i| r.$field = [$($value),+][i],
            },
        }
    };
    (@flag $flag:literal) => { Some($flag) };
    (@flag) => { None };
    (@help $help:literal) => { $help };
    (@help) => { "" };
    (@advanced $advanced:literal) => { $advanced };
    (@advanced) => { false };
    (@words $text:literal, $words:literal) => { $words };
    (@words $text:literal) => { $text };
}

/// A number row of an options table: `field` (a `u8`) in `min..=max`;
/// `label` is its name as a person reads it.
#[macro_export]
macro_rules! spin_option {
    ($rules:ty, $name:literal, $field:ident, $min:expr, $max:expr,
     aliases: [$($alias:literal),*], flag: $flag:literal, label: $label:literal,
     help: $help:literal $(,)?) => {
        $crate::options::RuleOption {
            name: $name,
            aliases: &[$($alias),*],
            flag: Some($flag),
            help: $help,
            label: $label,
            advanced: false,
            access: $crate::options::Access::Spin {
                min: $min as i64,
                max: $max as i64,
                get: |r: &$rules| r.$field as i64,
                set: |r: &mut $rules, v| r.$field = v as u8,
            },
        }
    };
}

impl<R> RuleOption<R> {
    fn is_called(&self, name: &str) -> bool {
        let name = name.trim();
        self.name.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// The option as the protocol lists it, with its value in `defaults`
    /// as the default.
    pub fn listed(&self, defaults: &R) -> VariantOption {
        let kind = match self.access {
            Access::Spin { min, max, get, .. } => OptionKind::Spin {
                min,
                max,
                default: get(defaults),
            },
            Access::Combo {
                values,
                labels,
                get,
                ..
            } => OptionKind::Combo {
                values,
                labels,
                default: values[get(defaults)],
            },
        };
        VariantOption {
            name: self.name,
            kind,
            flag: self.flag,
            help: self.help,
            label: self.label,
            advanced: self.advanced,
        }
    }

    /// The option's value in `rules`, as [`set`] reads it.
    pub fn value(&self, rules: &R) -> String {
        match self.access {
            Access::Spin { get, .. } => get(rules).to_string(),
            Access::Combo { values, get, .. } => values[get(rules)].to_string(),
        }
    }
}

/// Every option of `R`, with its value in `defaults` as the default.
pub fn list<R: RuleOptions>(defaults: &R) -> Vec<VariantOption> {
    R::OPTIONS.iter().map(|o| o.listed(defaults)).collect()
}

/// The current value of every option of `rules`.
pub fn values<R: RuleOptions>(rules: &R) -> Vec<(&'static str, String)> {
    R::OPTIONS
        .iter()
        .map(|o| (o.name, o.value(rules)))
        .collect()
}

/// Sets the option `name` (its name or an alias, any case) to `value`:
/// `Ok(false)` if `R` has no such option, an error naming the option and
/// what it accepts if the value does not fit. A combo value matches any
/// case and with or without its hyphens (`own-side`, `ownside`).
pub fn set<R: RuleOptions>(rules: &mut R, name: &str, value: &str) -> Result<bool, String> {
    let Some(option) = R::OPTIONS.iter().find(|o| o.is_called(name)) else {
        return Ok(false);
    };
    let value = value.trim();
    match option.access {
        Access::Spin { min, max, set, .. } => {
            let v = value
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .ok_or_else(|| {
                    format!("{name} must be a whole number {min}..{max}, got '{value}'")
                })?;
            set(rules, v);
        }
        Access::Combo { values, set, .. } => {
            let bare = |s: &str| s.replace('-', "").to_ascii_lowercase();
            let i = values
                .iter()
                .position(|v| bare(v) == bare(value))
                .ok_or_else(|| {
                    format!(
                        "{} must be {}, got '{value}'{}",
                        option.name,
                        values.join(" or "),
                        suggestion(value, values.iter().copied())
                    )
                })?;
            set(rules, i);
        }
    }
    Ok(true)
}

/// Checks that every number option of `rules` lies in its range: for rules
/// built in code rather than through [`set`].
pub fn check<R: RuleOptions>(rules: &R) -> Result<(), String> {
    for o in R::OPTIONS {
        if let Access::Spin { min, max, get, .. } = o.access {
            let v = get(rules);
            if !(min..=max).contains(&v) {
                return Err(format!("{} must be {min}..{max}, got {v}", o.name));
            }
        }
    }
    Ok(())
}

/// The candidate a mistyped `word` most likely meant, if one is close
/// enough to guess: the fewest letters to change, add or drop (case, spaces,
/// hyphens and underscores aside), at most one for a short word and a third
/// of the word's length for a long one. Ties go to the first candidate.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let bare = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let w = bare(word);
    if w.is_empty() {
        return None;
    }
    let most = (w.len() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&w, &bare(c)), c))
        .filter(|&(d, _)| d <= most)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// The distance between two words: letters changed, added, dropped, or
/// two neighbours swapped (the commonest slip), each counting one.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let mut best = (d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1)
                    .min(d[(i - 1) * w + j - 1] + usize::from(a[i - 1] != b[j - 1]));
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * w + b.len()]
}

/// `; did you mean 'X'?` for a mistyped `word`, or nothing.
pub fn suggestion<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(word, candidates).map_or(String::new(), |c| format!("; did you mean '{c}'?"))
}

#[cfg(test)]
mod guess_tests {
    use super::*;

    #[test]
    fn a_misspelled_word_is_guessed_and_a_stranger_is_not() {
        let names = ["Variant", "VariantFile", "Pits", "Seeds", "Hash"];
        assert_eq!(did_you_mean("Varient", names), Some("Variant"));
        assert_eq!(did_you_mean("varaint", names), Some("Variant"));
        assert_eq!(did_you_mean("seed", names), Some("Seeds"));
        assert_eq!(did_you_mean("Variant File", names), Some("VariantFile"));
        assert_eq!(did_you_mean("Foo", names), None);
        assert_eq!(did_you_mean("", names), None);
        assert_eq!(suggestion("Hsah", names), "; did you mean 'Hash'?");
        assert_eq!(suggestion("chess", names), "");
    }
}
