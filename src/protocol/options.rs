//! The engine's own options, declared once: [`ENGINE_OPTIONS`] is read by
//! `ugi`/`uci` (the `option name …` lines), `setoption`, `query option(s)`,
//! and by whatever else lists them (the web board, the docs). The rule
//! options of the games come from their own tables (`crate::options`).

use crate::game::{Evaluator, Game};
use crate::variants::{VARIANT_NAMES, Variant, VariantVisitor};

/// What kind of value an option takes, with its default, as `ugi` declares
/// it.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Spin {
        min: i64,
        max: i64,
        default: i64,
    },
    Check {
        default: bool,
    },
    /// The values are known at run time (the evaluators of every variant).
    Combo {
        default: &'static str,
        values: fn() -> Vec<&'static str>,
    },
    String {
        default: &'static str,
    },
}

/// What a setting changes beyond its own value, for the engine to carry
/// out: the option table only holds values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    /// The hash table takes the new size.
    Resize,
    /// Load the database at this path.
    LoadDatabase(String),
    /// No database is named any more.
    DropDatabase,
    /// The folder of chosen databases changed: forget the one chosen.
    ForgetChosen,
}

/// The engine options' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub hash_mib: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub eval: String,
    pub ponder: bool,
    /// Whether a small enough position is solved exactly inside `go`.
    pub solve_endgames: bool,
    /// Whether a game on the clock plays the book's move where it has one.
    pub own_book: bool,
    /// The playing level or reference player (`Level`), by name.
    pub level: String,
    /// Whether `UCI_Elo` chooses the level (`UCI_LimitStrength`).
    pub limit_strength: bool,
    /// The strength asked for on the levels' Elo scale (`UCI_Elo`).
    pub elo: i64,
    /// Whether lines of one-letter moves are written together (`JoinMoves`).
    pub join_moves: bool,
    /// `EgtbPath` as given; `None` for `<empty>`.
    pub egtb_path: Option<String>,
    /// `EgtbDir` as given: a folder, [`CACHE`] or [`EMPTY`].
    pub egtb_dir: String,
}

/// `EgtbDir`'s default: the user's cache folder.
pub const CACHE: &str = "<cache>";
/// A string option's "nothing".
pub const EMPTY: &str = "<empty>";

pub const MAX_HASH_MIB: i64 = 16 * 1024;
pub const MAX_THREADS: i64 = 256;
pub const MAX_MULTIPV: i64 = 64;
pub const MAX_MOVE_OVERHEAD_MS: i64 = 10_000;
/// `UCI_Elo`'s range: every game's levels as measured (docs/PERFORMANCE.md,
/// "Playing levels"), from the weakest `first-game` (En Dodoi's, about 850)
/// to the strongest full strength (Oware's, about 3600), rounded out.
pub const MIN_ELO: i64 = 800;
pub const MAX_ELO: i64 = 3700;

/// One engine option: its name, kind, a line of help, and how it reads and
/// writes [`Settings`].
pub struct EngineOption {
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    /// Stores a value already checked against `kind` (numbers in range,
    /// a combo's value lower-cased, a check's `true`/`false`).
    set: fn(&mut Settings, Value) -> Effect,
    get: fn(&Settings) -> String,
}

/// A value read for an option, by its kind.
pub enum Value {
    Number(i64),
    Flag(bool),
    Text(String),
}

fn text(v: Value) -> String {
    match v {
        Value::Text(t) => t,
        Value::Number(n) => n.to_string(),
        Value::Flag(f) => f.to_string(),
    }
}

fn number(v: Value) -> i64 {
    match v {
        Value::Number(n) => n,
        _ => unreachable!("a spin option is set with a number"),
    }
}

/// Every engine option, in the order `ugi` lists them (after `Variant` and
/// the games' rule options).
pub const ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MIB,
            default: 16,
        },
        help: "transposition table size in MiB",
        set: |s, v| {
            s.hash_mib = number(v) as usize;
            Effect::Resize
        },
        get: |s| s.hash_mib.to_string(),
    },
    EngineOption {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS,
            default: 1,
        },
        help: "search threads",
        set: |s, v| {
            s.threads = number(v) as usize;
            Effect::None
        },
        get: |s| s.threads.to_string(),
    },
    EngineOption {
        name: "MultiPV",
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV,
            default: 1,
        },
        help: "best lines reported",
        set: |s, v| {
            s.multipv = number(v) as usize;
            Effect::None
        },
        get: |s| s.multipv.to_string(),
    },
    EngineOption {
        name: "Move Overhead",
        kind: Kind::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
            default: 30,
        },
        help: "milliseconds kept back from every move's time for the GUI and the pipe",
        set: |s, v| {
            s.move_overhead_ms = number(v) as u64;
            Effect::None
        },
        get: |s| s.move_overhead_ms.to_string(),
    },
    EngineOption {
        name: "Eval",
        kind: Kind::Combo {
            default: "default",
            values: all_eval_names,
        },
        help: "the static evaluation; a name the variant lacks means its default",
        set: |s, v| {
            s.eval = text(v);
            Effect::None
        },
        get: |s| s.eval.clone(),
    },
    EngineOption {
        name: "Ponder",
        kind: Kind::Check { default: false },
        help: "bestmove names the reply kete expects (ponder <move>); kete thinks on the opponent's time whenever a GUI sends go ponder",
        set: |s, v| {
            s.ponder = matches!(v, Value::Flag(true));
            Effect::None
        },
        get: |s| s.ponder.to_string(),
    },
    EngineOption {
        name: "SolveEndgames",
        kind: Kind::Check { default: false },
        help: "solve a small enough position exactly inside go (games decided by counting)",
        set: |s, v| {
            s.solve_endgames = matches!(v, Value::Flag(true));
            Effect::None
        },
        get: |s| s.solve_endgames.to_string(),
    },
    EngineOption {
        name: "OwnBook",
        kind: Kind::Check { default: false },
        help: "play the book compiled in where it knows the position (go with a clock or movetime)",
        set: |s, v| {
            s.own_book = matches!(v, Value::Flag(true));
            Effect::None
        },
        get: |s| s.own_book.to_string(),
    },
    EngineOption {
        name: "Level",
        kind: Kind::Combo {
            default: "full",
            values: crate::search::level::names,
        },
        help: "how well kete plays: a level for people (first-game … expert, full) or a reference player (random, greedy)",
        set: |s, v| {
            s.level = text(v);
            Effect::None
        },
        get: |s| s.level.clone(),
    },
    EngineOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
        help: "play at the level UCI_Elo names instead of Level",
        set: |s, v| {
            s.limit_strength = matches!(v, Value::Flag(true));
            Effect::None
        },
        get: |s| s.limit_strength.to_string(),
    },
    EngineOption {
        name: "UCI_Elo",
        kind: Kind::Spin {
            min: MIN_ELO,
            max: MAX_ELO,
            default: 1500,
        },
        help: "with UCI_LimitStrength: the strongest level whose Elo in the variant is not above this",
        set: |s, v| {
            s.elo = number(v);
            Effect::None
        },
        get: |s| s.elo.to_string(),
    },
    EngineOption {
        name: "JoinMoves",
        kind: Kind::Check { default: false },
        help: "write the moves of a line together (pv BdFe), as Aualé and Aalina read them; two-row games",
        set: |s, v| {
            s.join_moves = matches!(v, Value::Flag(true));
            Effect::None
        },
        get: |s| s.join_moves.to_string(),
    },
    EngineOption {
        name: "EgtbPath",
        kind: Kind::String { default: EMPTY },
        help: "an endgame database file to probe",
        set: |s, v| {
            let path = text(v);
            if path.is_empty() || path == EMPTY {
                s.egtb_path = None;
                Effect::DropDatabase
            } else {
                Effect::LoadDatabase(path)
            }
        },
        get: |s| s.egtb_path.clone().unwrap_or_else(|| EMPTY.to_string()),
    },
    EngineOption {
        name: "EgtbDir",
        kind: Kind::String { default: CACHE },
        help: "the folder of databases chosen for you; <cache> the user's cache, <empty> none",
        set: |s, v| {
            let dir = text(v);
            s.egtb_dir = if dir.is_empty() {
                EMPTY.to_string()
            } else {
                dir
            };
            Effect::ForgetChosen
        },
        get: |s| s.egtb_dir.clone(),
    },
];

impl Default for Settings {
    fn default() -> Self {
        let spin = |name: &str| match find(name).map(|o| o.kind) {
            Some(Kind::Spin { default, .. }) => default,
            _ => unreachable!("{name} is a spin option of the table"),
        };
        let check = |name: &str| match find(name).map(|o| o.kind) {
            Some(Kind::Check { default }) => default,
            _ => unreachable!("{name} is a check option of the table"),
        };
        Settings {
            hash_mib: spin("Hash") as usize,
            threads: spin("Threads") as usize,
            multipv: spin("MultiPV") as usize,
            move_overhead_ms: spin("Move Overhead") as u64,
            eval: "default".into(),
            ponder: false,
            solve_endgames: false,
            own_book: check("OwnBook"),
            level: "full".into(),
            limit_strength: check("UCI_LimitStrength"),
            elo: spin("UCI_Elo"),
            join_moves: check("JoinMoves"),
            egtb_path: None,
            egtb_dir: CACHE.to_string(),
        }
    }
}

/// The evaluator names of every variant, merged: `Eval` keeps a name that
/// the current variant lacks (it then uses its default) so that the order of
/// `setoption` commands does not matter.
pub fn all_eval_names() -> Vec<&'static str> {
    struct Names;
    impl VariantVisitor for Names {
        type Output = Vec<&'static str>;
        fn visit<G: Game>(self, _: G::Rules) -> Self::Output {
            <G::Eval as Evaluator<G>>::names()
        }
    }
    let mut all: Vec<&'static str> = Vec::new();
    for name in VARIANT_NAMES {
        for e in Variant::by_name(name).expect("known variant").visit(Names) {
            if !all.contains(&e) {
                all.push(e);
            }
        }
    }
    all
}

/// The option called `name`, in any case.
pub fn find(name: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
}

impl EngineOption {
    /// The `option name …` line `ugi` prints.
    pub fn declaration(&self) -> String {
        let default = match self.kind {
            Kind::Spin { default, .. } => default.to_string(),
            Kind::Check { default } => default.to_string(),
            Kind::Combo { default, .. } | Kind::String { default } => default.to_string(),
        };
        self.declaration_with(&default)
    }

    /// The `option name …` line with `value` as its default (the value the
    /// engine was started with, which a GUI shows).
    pub fn declaration_with(&self, value: &str) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin { min, max, .. } => {
                format!("option name {name} type spin default {value} min {min} max {max}")
            }
            Kind::Check { .. } => format!("option name {name} type check default {value}"),
            Kind::Combo { values, .. } => {
                let vars: String = values().iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {value}{vars}")
            }
            Kind::String { .. } => format!("option name {name} type string default {value}"),
        }
    }

    /// The value now, as `query option` answers.
    pub fn value(&self, settings: &Settings) -> String {
        (self.get)(settings)
    }

    /// Checks `value` against the option's kind and stores it; the error
    /// names the option and what is wrong with the value.
    pub fn set(&self, settings: &mut Settings, value: &str) -> Result<Effect, String> {
        let name = self.name;
        let v = match self.kind {
            Kind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Value::Number(n),
                Ok(n) => return Err(format!("{name} {n} is out of range {min}..{max}")),
                Err(_) => {
                    return Err(format!(
                        "{name} '{value}' is not a whole number in {min}..{max}"
                    ));
                }
            },
            Kind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Value::Flag(true),
                "false" => Value::Flag(false),
                _ => return Err(format!("{name} must be true or false, got '{value}'")),
            },
            Kind::Combo { values, .. } => {
                let v = value.to_ascii_lowercase();
                let all = values();
                if !all.contains(&v.as_str()) {
                    return Err(format!(
                        "{name} must be one of {}, got '{value}'{}",
                        all.join(", "),
                        crate::options::suggestion(value, all.iter().copied())
                    ));
                }
                Value::Text(v)
            }
            Kind::String { .. } => Value::Text(value.to_string()),
        };
        Ok((self.set)(settings, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_by_kind_and_read_back() {
        let mut s = Settings::default();
        let hash = find("hash").unwrap();
        assert_eq!(hash.set(&mut s, "64"), Ok(Effect::Resize));
        assert_eq!(hash.value(&s), "64");
        assert_eq!(
            hash.set(&mut s, "0").unwrap_err(),
            "Hash 0 is out of range 1..16384"
        );
        assert_eq!(
            hash.set(&mut s, "x").unwrap_err(),
            "Hash 'x' is not a whole number in 1..16384"
        );
        assert_eq!(
            hash.set(&mut s, "").unwrap_err(),
            "Hash '' is not a whole number in 1..16384"
        );
        let ponder = find("PONDER").unwrap();
        assert_eq!(ponder.set(&mut s, "TRUE"), Ok(Effect::None));
        assert_eq!(ponder.value(&s), "true");
        assert!(ponder.set(&mut s, "yes").is_err());
        let dir = find("EgtbDir").unwrap();
        assert_eq!(dir.set(&mut s, ""), Ok(Effect::ForgetChosen));
        assert_eq!(dir.value(&s), EMPTY);
        assert_eq!(
            find("egtbpath").unwrap().set(&mut s, "a.egtb"),
            Ok(Effect::LoadDatabase("a.egtb".into()))
        );
        assert_eq!(
            find("Hash").unwrap().declaration(),
            "option name Hash type spin default 16 min 1 max 16384"
        );
    }
}
