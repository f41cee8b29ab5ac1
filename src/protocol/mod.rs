//! The text protocol: UGI (the game-agnostic UCI of the cutegames runner) with
//! UCI's habits. `protocol/README.md` is its specification; this module is the
//! command loop, the options and the output.
//!
//! Searches run in their own thread, so `isready`, `stop` and the queries are
//! answered while a search runs; commands that change the state stop the
//! running search first (its `bestmove` is printed before anything else).

pub mod database;
pub mod exact;
pub mod options;
pub mod output;
pub mod session;
pub mod solve;
pub mod text;

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::search::{Clock, Limits, Shared};
use crate::variants::{OptionKind, VARIANT_NAMES, Variant, VariantOption, variant_names};
use options::{CACHE, EMPTY, ENGINE_OPTIONS, Effect, Settings};
pub use output::Output;
use session::{NewSession, SearchOptions, Session, Start};

/// Longest input line read; a longer one is refused whole.
pub const MAX_LINE: usize = 64 * 1024;

/// The name under which `query options` tells which database the search
/// uses (it is not an option to set).
const IN_USE: &str = "EgtbInUse";

pub const HELP: &str = "\
kete speaks UGI (and UCI). Commands:
  ugi | uci                 identify, list the options, end with ugiok | uciok
  isready                   answered with readyok at once, also while searching
  setoption name N [value V]  set an option (names are case-insensitive)
  uginewgame | ucinewgame   forget the previous game (clears the hash table)
  position startpos|fen <token> [moves m1 m2 ...]
  go [p1time T p2time T p1inc I p2inc I | wtime btime winc binc] [movestogo N]
     [movetime MS] [depth D] [nodes N] [infinite] [ponder]   search; ends with bestmove
  go perft D                per-move counts and 'Nodes searched: N'
  go solve                  the exact value (games decided by counting), proven;
                            Bao: a proven forced win or loss (score mate N)
  stop                      end the search now; bestmove follows
  ponderhit                 the pondered reply came: the go's clock starts now
  query gameover|p1turn|result|moves|fen|reason   answered with 'response ...'
  query option N | options  the current value of an option, of every option
  d                         draw the board, its Fen, side to move, legal moves
  eval                      the static evaluation and its terms
  bench [depth]             fixed searches of every variant: '<N> nodes <M> nps'
  help                      this text
  quit                      leave at once (at the end of input a search with
                            a limit finishes and prints its bestmove first)
Positions and moves of each variant: see protocol/README.md.";

/// The state of the engine between commands.
pub struct Engine {
    out: Output,
    variant: Variant,
    /// The description file `VariantFile` loaded the game from, while that
    /// game is played.
    variant_file: Option<String>,
    /// Variant option values as last set, by lower-case name; applied to
    /// whichever variant has an option of that name.
    variant_settings: Vec<(String, String)>,
    session: Box<dyn Session>,
    /// The engine options' values ([`options::ENGINE_OPTIONS`]).
    settings: Settings,
    shared: Arc<Shared>,
    running: Option<JoinHandle<()>>,
    /// Whether the running job ends by itself (a depth, node, time or clock
    /// limit, a perft, a solve): at the end of input it is let finish.
    running_bounded: bool,
    /// The stop flag of a running `go solve`.
    solve_stop: Arc<AtomicBool>,
    /// The endgame database loaded with `EgtbPath`.
    egtb: Option<Arc<crate::solve::Egtb>>,
    /// The database `go solve` chose last, kept for the next one.
    chosen_egtb: Arc<parking_lot::Mutex<Option<Arc<crate::solve::Egtb>>>>,
    /// Whether the first `go` since the database, the variant or a variant
    /// option last changed has said why the database does not fit.
    egtb_fit_told: bool,
    /// The database the search plays with when `EgtbPath` names none,
    /// opened or built at `isready`/`uginewgame` ([`database`]).
    in_play: Option<database::InPlay>,
    /// Why the engine holds no position, if it holds none: the last
    /// `position` command was refused, or the game changed under the
    /// position it set. A `go` then answers `bestmove 0000` with the
    /// reason, never a move for a position the client did not send.
    no_position: Option<String>,
    /// Whether the position held came from a `position` command (a change
    /// of the game then drops it) rather than the engine's own start.
    position_sent: bool,
    /// The limits and the side to move of the pondering search under way,
    /// until `ponderhit` (or the next command) ends its pondering.
    pondering: Option<(Limits, crate::game::Side)>,
    /// Rule settings that were refused, by lower-case option name (or
    /// `variant`), with the error: while one names the variant or an
    /// option of the current variant, the game the client asked for is
    /// not known, and positions and searches are refused.
    refused_rules: Vec<Refused>,
}

/// The option that loads a game from its description file.
pub const VARIANT_FILE: &str = "VariantFile";

/// A rule setting that was refused ([`Engine::game_unknown`]).
struct Refused {
    /// The option's name in lower case, or `variant`.
    key: String,
    why: String,
    /// Whether the value was kept but does not fit the current variant
    /// (checked anew whenever the variant changes).
    misfit: bool,
}

/// Every option a variant of this build has, merged by name.
fn variant_options() -> Vec<VariantOption> {
    let mut all: Vec<VariantOption> = Vec::new();
    for name in VARIANT_NAMES {
        let v = Variant::by_name(name).expect("known variant");
        for o in v.options() {
            match all.iter_mut().find(|x| x.name == o.name) {
                None => all.push(o),
                Some(x) => {
                    if let (
                        OptionKind::Spin { min, max, .. },
                        OptionKind::Spin {
                            min: min2,
                            max: max2,
                            ..
                        },
                    ) = (&mut x.kind, &o.kind)
                    {
                        *min = (*min).min(*min2);
                        *max = (*max).max(*max2);
                    }
                }
            }
        }
    }
    all
}

enum Parsed<T> {
    Value(T),
    Missing,
    Bad(String),
}

fn number(token: Option<&str>, what: &str, min: i64, max: i64) -> Parsed<i64> {
    let Some(t) = token else {
        return Parsed::Missing;
    };
    match t.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Parsed::Value(v),
        Ok(v) => Parsed::Bad(format!("{what} {v} is out of range {min}..{max}")),
        Err(_) => Parsed::Bad(format!(
            "{what} '{t}' is not a whole number in {min}..{max}"
        )),
    }
}

/// A search limit: a whole number below the range is raised to its bottom
/// (with a note), so that `go depth 0` searches depth 1; one above it, or
/// text that is not a number, is refused (the `go` then falls back to a
/// bounded search, see `Engine::go`).
fn clamped(token: Option<&str>, what: &str, min: i64, max: i64, out: &Output) -> Parsed<i64> {
    let Some(t) = token else {
        return Parsed::Missing;
    };
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Parsed::Bad(format!(
            "go {what} '{t}' is not a whole number in {min}..{max}"
        ));
    }
    // Too many digits for i64 still says which end was meant.
    let v = t.parse::<i64>().unwrap_or(if t.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    });
    if v > max {
        // Clamping to the top would be the same as no limit at all.
        return Parsed::Bad(format!("go {what} {t} is out of range {min}..{max}"));
    }
    if v < min {
        out.error(&format!(
            "go {what} {t} is out of range {min}..{max}; using {what} {min}"
        ));
        return Parsed::Value(min);
    }
    Parsed::Value(v)
}

impl Engine {
    pub fn new(out: Output) -> Engine {
        let variant = Variant::default();
        let settings = Settings::default();
        Engine {
            session: variant.visit_solver(NewSession),
            out,
            variant,
            variant_file: None,
            variant_settings: Vec::new(),
            shared: Shared::new(settings.hash_mib),
            settings,
            running: None,
            running_bounded: false,
            solve_stop: Arc::new(AtomicBool::new(false)),
            egtb: None,
            chosen_egtb: Default::default(),
            egtb_fit_told: false,
            in_play: None,
            no_position: None,
            position_sent: false,
            pondering: None,
            refused_rules: Vec::new(),
        }
    }

    /// Reads commands until `quit` or the end of input. `quit` stops a running
    /// search at once; at the end of input a search that ends by itself is
    /// let finish and print its `bestmove`, so that a piped script gets the
    /// search it asked for.
    pub fn run(&mut self, input: impl Read) {
        let mut reader = BufReader::new(input);
        let mut line = Vec::new();
        loop {
            line.clear();
            match read_line(&mut reader, &mut line) {
                Ok(LineRead::Eof) => {
                    self.finish_bounded_job();
                    break;
                }
                Ok(LineRead::TooLong(n)) => self.out.error(&format!(
                    "line too long ({n} bytes; the limit is {MAX_LINE}): ignored"
                )),
                Ok(LineRead::Line) => match std::str::from_utf8(&line) {
                    Ok(text) => {
                        if !self.command(text) {
                            break;
                        }
                    }
                    Err(e) => self.out.error(&format!(
                        "line is not valid UTF-8 (byte {}): ignored",
                        e.valid_up_to()
                    )),
                },
                Err(e) => {
                    self.out.error(&format!("cannot read input: {e}"));
                    break;
                }
            }
        }
        self.stop_search();
    }

    /// Handles one line; false once the engine should quit.
    pub fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut tokens = line.split_whitespace();
        let Some(cmd) = tokens.next() else {
            return true;
        };
        let rest: Vec<&str> = tokens.collect();
        match cmd {
            "ugi" => self.identify("ugiok"),
            "uci" => self.identify("uciok"),
            "isready" => {
                // Setup waits for readyok; a search in progress does not.
                if self.running.is_none() {
                    self.prepare_database();
                }
                self.out.line("readyok")
            }
            "setoption" => {
                self.stop_search();
                self.set_option(&rest);
            }
            "uginewgame" | "ucinewgame" => {
                self.stop_search();
                self.shared.tt.clear();
                self.session = self.variant.visit_solver(NewSession);
                self.no_position = None;
                self.position_sent = false;
                self.prepare_database();
            }
            "position" => {
                self.stop_search();
                self.position(&rest);
            }
            "go" => {
                self.stop_search();
                self.go(&rest);
            }
            "stop" => self.stop_search(),
            "ponderhit" => self.ponderhit(),
            "query" => match rest.first() {
                None => self
                    .out
                    .error(&format!("query needs one of {}", session::QUERIES)),
                Some(&"options") => {
                    let all: Vec<String> = self
                        .option_values()
                        .into_iter()
                        .map(|(n, v)| format!("{n}={v}"))
                        .collect();
                    self.out.line(&format!("response {}", all.join(", ")));
                }
                Some(&"option") => {
                    let name = rest[1..].join(" ");
                    match self
                        .option_values()
                        .into_iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(&name))
                    {
                        Some((_, v)) => self.out.line(&format!("response {v}")),
                        None if name.is_empty() => self.out.error("query option needs a name"),
                        None => {
                            let known = self.option_values();
                            let guess =
                                crate::options::suggestion(&name, known.iter().map(|(n, _)| &**n));
                            self.out.error(&format!("unknown option '{name}'{guess}"))
                        }
                    }
                }
                Some(q) => match self.nothing_to_search() {
                    Some(why) if session::is_position_query(q) => {
                        self.out.error(&format!("query {q}: no position: {why}"))
                    }
                    _ => match self.session.query(q) {
                        Ok(answer) => self.out.line(&format!("response {answer}")),
                        Err(e) => self.out.error(&e),
                    },
                },
            },
            "d" | "eval" if let Some(why) = self.nothing_to_search() => {
                self.out.error(&format!("{cmd}: no position: {why}"))
            }
            "d" => self.out.lines(&self.session.display()),
            "eval" => self.out.lines(&self.session.eval(&self.settings.eval)),
            "bench" => {
                self.stop_search();
                let depth = match number(rest.first().copied(), "bench depth", 1, 30) {
                    Parsed::Value(d) => Some(d as u32),
                    Parsed::Missing => None,
                    Parsed::Bad(e) => {
                        self.out.error(&e);
                        return true;
                    }
                };
                let r = crate::search::bench::run(depth, &mut |_| {});
                self.out.line(&r.summary());
            }
            "help" => self.out.lines(HELP),
            "quit" => return false,
            "debug" | "register" => {}
            other => {
                let shown: String = other.chars().take(40).collect();
                self.out
                    .error(&format!("unknown command '{shown}' (type help)"))
            }
        }
        true
    }

    /// The current value of every option, in the order `ugi` lists them. A
    /// variant option the current variant lacks shows the value it will
    /// have in the variants that have it.
    fn option_values(&self) -> Vec<(String, String)> {
        let current = self.variant.option_values();
        let mut all = vec![
            ("Variant".to_string(), self.variant.name().to_string()),
            (
                VARIANT_FILE.to_string(),
                self.variant_file
                    .clone()
                    .unwrap_or_else(|| options::EMPTY.to_string()),
            ),
        ];
        for o in variant_options() {
            let value = current
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(o.name))
                .map(|(_, v)| v.clone())
                .or_else(|| {
                    let key = o.name.to_ascii_lowercase();
                    self.variant_settings
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map(|(_, v)| v.clone())
                })
                .unwrap_or_else(|| match o.kind {
                    OptionKind::Spin { default, .. } => default.to_string(),
                    OptionKind::Combo { default, .. } => default.to_string(),
                });
            all.push((o.name.to_string(), value));
        }
        for o in ENGINE_OPTIONS {
            if o.name == "Level" && self.settings.limit_strength {
                // UCI_Elo chooses the level: the one it chose is in play.
                all.push((
                    o.name.to_string(),
                    session::level_for_elo(&self.variant, self.settings.elo)
                        .0
                        .to_string(),
                ));
                continue;
            }
            all.push((o.name.to_string(), o.value(&self.settings)));
        }
        all.push((IN_USE.to_string(), self.database_in_use()));
        all
    }

    /// The folder `EgtbDir` names, if any.
    fn egtb_folder(&self) -> Option<std::path::PathBuf> {
        match self.settings.egtb_dir.as_str() {
            CACHE => crate::solve::cache::default_dir(),
            EMPTY => None,
            dir => Some(dir.into()),
        }
    }

    fn identify(&self, ok: &str) {
        let mut s = format!(
            "id name kete {}\nid author the kete developers\n",
            env!("CARGO_PKG_VERSION")
        );
        let mut names = variant_names();
        if !names.contains(&self.variant.name()) {
            // A game from a user's description file.
            names.push(self.variant.name());
        }
        let vars: Vec<String> = names.iter().map(|v| format!(" var {v}")).collect();
        s.push_str(&format!(
            "option name Variant type combo default {}{}\n",
            self.variant.name(),
            vars.concat()
        ));
        s.push_str(&format!(
            "option name {VARIANT_FILE} type string default {}\n",
            self.variant_file.as_deref().unwrap_or(options::EMPTY)
        ));
        // Each option's `default` is its value now: what the command line
        // (`kete --variant oware -o Hash=64`) or earlier `setoption`s set, so
        // that a GUI shows the values the engine will play with.
        let now = self.option_values();
        let value_of = |name: &str| {
            now.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        for o in variant_options() {
            let default = value_of(o.name);
            match o.kind {
                OptionKind::Spin { min, max, .. } => s.push_str(&format!(
                    "option name {} type spin default {default} min {min} max {max}\n",
                    o.name
                )),
                OptionKind::Combo { values, .. } => {
                    let vars: Vec<String> = values.iter().map(|v| format!(" var {v}")).collect();
                    s.push_str(&format!(
                        "option name {} type combo default {default}{}\n",
                        o.name,
                        vars.concat()
                    ));
                }
            }
        }
        for o in ENGINE_OPTIONS {
            s.push_str(&o.declaration_with(&o.value(&self.settings)));
            s.push('\n');
        }
        s.push_str(ok);
        self.out.lines(&s);
    }

    /// Waits for a running job that has a limit; an unbounded one is left to
    /// `stop_search`.
    fn finish_bounded_job(&mut self) {
        if self.running_bounded
            && let Some(handle) = self.running.take()
            && handle.join().is_err()
        {
            self.out.error("the search thread failed");
        }
    }

    fn stop_search(&mut self) {
        self.pondering = None;
        if let Some(handle) = self.running.take() {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.solve_stop.store(true, Ordering::Relaxed);
            if handle.join().is_err() {
                self.out.error("the search thread failed");
            }
        }
    }

    fn set_option(&mut self, args: &[&str]) {
        // setoption name <words...> [value <words...>]
        if args.first() != Some(&"name") {
            self.out
                .error("usage: setoption name <name> [value <value>]");
            return;
        }
        let value_at = args.iter().position(|t| *t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        if name.is_empty() {
            self.out.error("setoption needs a name");
            return;
        }
        let (result, misfits) = self.set_option_value(&name, &value);
        if result.is_ok()
            && let Some(why) = self.not_applying(&name, &value)
        {
            // Kept, so that a client may set the game after its rules.
            self.out
                .line(&format!("info string {why}; kept for a game that has it"));
        }
        let strength = ["uci_elo", "uci_limitstrength", "variant", "variantfile"];
        if result.is_ok()
            && self.settings.limit_strength
            && strength.contains(&name.to_ascii_lowercase().as_str())
        {
            let (level, elo) = session::level_for_elo(&self.variant, self.settings.elo);
            let game = self.variant.name();
            let elo = match elo {
                Some(e) => {
                    format!(" (Elo {e} in {game} on kete's scale of levels: greedy play 1000)")
                }
                None => String::new(),
            };
            self.out.line(&format!(
                "info string UCI_Elo {} plays level {level}{elo}",
                self.settings.elo
            ));
        }
        for (option, m) in misfits {
            self.out.error(&format!(
                "{m}; no game is played until {option} is set again"
            ));
        }
        match result {
            Err(e) if self.game_unknown().is_some() && self.is_rule(&name) => self
                .out
                .error(&format!("{e}; no game is played until {name} is set again")),
            Err(e) => self.out.error(&e),
            Ok(()) => {}
        }
    }

    /// Why the rule option `name` does not apply to the game being played,
    /// in the words every front end uses, if it does not (it is kept for
    /// a game that has it).
    fn not_applying(&self, name: &str, value: &str) -> Option<String> {
        let option = variant_options()
            .into_iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))?;
        let has = self
            .variant
            .options()
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name));
        if has {
            return None;
        }
        let mut v = self.variant;
        v.set_option(option.name, value).err()
    }

    /// Whether `name` is `Variant`, `VariantFile` or a rule option of some
    /// variant.
    fn is_rule(&self, name: &str) -> bool {
        name.eq_ignore_ascii_case("variant")
            || name.eq_ignore_ascii_case(VARIANT_FILE)
            || variant_options()
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Sets options before the first command, as if each came with
    /// `setoption` (the command line's `--variant`, rule flags and `-o`);
    /// the first one refused, or a rule that does not fit the variant, is
    /// the error.
    pub fn configure(&mut self, settings: &[(String, String)]) -> Result<(), String> {
        for (name, value) in settings {
            let (result, misfits) = self.set_option_value(name, value);
            result.map_err(|e| format!("{name}={value}: {e}"))?;
            if let Some((_, m)) = misfits.into_iter().next() {
                return Err(m);
            }
        }
        // The command line names the game and its rules at once: a rule
        // the game lacks is an error, as in every other front end.
        for (name, value) in settings {
            if let Some(why) = self.not_applying(name, value) {
                return Err(why);
            }
        }
        match self.game_unknown() {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    /// Sets one option; the error names it and what is wrong, and the
    /// second value lists kept rule settings that the variant now refuses
    /// (each option's name with the error).
    fn set_option_value(
        &mut self,
        name: &str,
        value: &str,
    ) -> (Result<(), String>, Vec<(String, String)>) {
        let (name, value) = (name.to_string(), value.to_string());
        let mut misfits = Vec::new();
        let key = name.to_ascii_lowercase();
        let rule = self.is_rule(&name);
        if rule {
            // A new value replaces whatever was refused of this option.
            self.refused_rules.retain(|r| r.key != key);
        }
        let result: Result<(), String> = match key.as_str() {
            _ if key == IN_USE.to_ascii_lowercase() => Err(format!(
                "{IN_USE} is not set: it says which database the search uses (EgtbPath names one, EgtbDir <empty> turns them off)"
            )),
            "variant" => Variant::by_name(&value).map(|v| {
                self.variant_file = value
                    .trim()
                    .strip_prefix(crate::variants::FILE_PREFIX)
                    .map(|p| p.to_string());
                misfits = self.apply_variant_settings(v.name());
            }),
            _ if key == VARIANT_FILE.to_ascii_lowercase() => {
                if value.trim() == options::EMPTY {
                    // No file: the game stays what it is.
                    Ok(())
                } else {
                    Variant::from_file(value.trim()).map(|v| {
                        self.variant_file = Some(value.trim().to_string());
                        misfits = self.apply_variant_settings(v.name());
                    })
                }
            }
            _ if let Some(option) = options::find(&name) => option
                .set(&mut self.settings, &value)
                .and_then(|effect| self.carry_out(effect)),
            _ if variant_options()
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(&name)) =>
            {
                self.set_variant_option(&name, &value).map(|m| misfits = m)
            }
            _ => {
                let known = self.option_values();
                let guess = crate::options::suggestion(&name, known.iter().map(|(n, _)| &**n));
                Err(format!("unknown option '{name}'{guess}"))
            }
        };
        let result = match result {
            Ok(()) => Ok(()),
            Err(e) if key == "variant" || key == VARIANT_FILE.to_ascii_lowercase() => {
                // A game name or file that names no game changes nothing:
                // the game being played goes on.
                Err(format!("{e}; the game stays {}", self.variant.name()))
            }
            Err(e) if rule => {
                // The game the client wants is not the one kete would play:
                // nothing is played until the setting is given again.
                self.refused_rules.push(Refused {
                    key,
                    why: format!("setoption name {name} value {value}: {e}"),
                    misfit: false,
                });
                Err(e)
            }
            Err(e) => Err(e),
        };
        (result, misfits)
    }

    /// Why the game the client asked for is not known, if it is not: a
    /// refused `Variant`, or a refused rule option of the current variant.
    fn game_unknown(&self) -> Option<String> {
        let has = |key: &str| {
            key == "variant"
                || key == VARIANT_FILE.to_ascii_lowercase()
                || self
                    .variant
                    .options()
                    .iter()
                    .any(|o| o.name.eq_ignore_ascii_case(key))
        };
        self.refused_rules
            .iter()
            .find(|r| has(&r.key))
            .map(|r| format!("the game is not known ({})", r.why))
    }

    /// Why a `go` has nothing to search, if it has not.
    fn nothing_to_search(&self) -> Option<String> {
        self.game_unknown().or_else(|| self.no_position.clone())
    }

    /// The database the search probes now, as `query option EgtbInUse`
    /// shows it: `EgtbPath`'s file, the one in play, or `<none>`.
    fn database_in_use(&self) -> String {
        let fits = |db: &crate::solve::Egtb| solve::egtb_fits(&self.variant, db).is_ok();
        match (&self.egtb, &self.in_play) {
            (Some(db), _) if fits(db) => self.settings.egtb_path.clone().unwrap_or_default(),
            (Some(_), _) => "<none>".to_string(),
            (None, Some(p)) if fits(&p.db) => p.shown(),
            _ => "<none>".to_string(),
        }
    }

    /// The database the search probes in this game: `EgtbPath`'s, or the
    /// one in play.
    fn database_for_search(&self) -> Option<Arc<crate::solve::Egtb>> {
        match &self.egtb {
            Some(db) => Some(db.clone()),
            None => self.in_play.as_ref().map(|p| p.db.clone()),
        }
    }

    /// Opens or builds the database the variant plays with, unless one is
    /// named (`EgtbPath`), none is wanted (`EgtbDir` `<empty>`), or the one
    /// in play already serves.
    fn prepare_database(&mut self) {
        if self.egtb.is_some() {
            return;
        }
        let Some(dir) = self.egtb_folder() else {
            self.in_play = None;
            return;
        };
        let Some(choice) = database::choice(&self.variant, false) else {
            return;
        };
        if database::serves(&self.in_play, choice.game) {
            return;
        }
        self.in_play = database::open(&dir, choice, 0, &self.out);
    }

    /// Does what a changed engine option asks beyond its value.
    fn carry_out(&mut self, effect: Effect) -> Result<(), String> {
        match effect {
            Effect::None => {}
            Effect::Resize => self.shared = Shared::new(self.settings.hash_mib),
            Effect::DropDatabase => self.egtb = None,
            Effect::ForgetChosen => {
                *self.chosen_egtb.lock() = None;
                self.in_play = None;
            }
            Effect::LoadDatabase(path) => {
                let db =
                    crate::solve::load(&path).map_err(|e| format!("EgtbPath '{path}': {e}"))?;
                self.out.line(&format!(
                    "info string EgtbPath: {} up to {} seeds loaded",
                    db.game().describe(),
                    db.max_seeds()
                ));
                self.egtb = Some(Arc::new(db));
                self.settings.egtb_path = Some(path);
                self.egtb_fit_told = false;
            }
        }
        Ok(())
    }

    /// A variant option is checked against the current variant when it has
    /// that option, and kept for the variants that have it either way, so
    /// that the order of `setoption` commands does not matter.
    fn set_variant_option(
        &mut self,
        name: &str,
        value: &str,
    ) -> Result<Vec<(String, String)>, String> {
        let accepts = |v: &mut Variant| {
            v.options()
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(name))
                && v.set_option(name, value).is_ok()
        };
        let somewhere = VARIANT_NAMES
            .iter()
            .any(|n| accepts(&mut Variant::by_name(n).expect("known variant")));
        if !somewhere {
            // No variant takes the value: say why in the words of the
            // current variant when it has the option, else of the variants
            // that have it (the value is the problem, not the variant).
            let has = |v: &Variant| {
                v.options()
                    .iter()
                    .any(|o| o.name.eq_ignore_ascii_case(name))
            };
            let mut v = self.variant;
            if has(&v) {
                return Err(match v.set_option(name, value) {
                    Err(e) => e,
                    Ok(()) => format!("no variant accepts {name} = '{value}'"),
                });
            }
            let owners: Vec<Variant> = VARIANT_NAMES
                .iter()
                .map(|n| Variant::by_name(n).expect("known variant"))
                .filter(has)
                .collect();
            let names: Vec<&str> = owners.iter().map(|v| v.name()).collect();
            let mut first = owners[0];
            let why = match first.set_option(name, value) {
                Err(e) => e,
                Ok(()) => format!("no variant accepts {name} = '{value}'"),
            };
            return Err(format!(
                "{why} ({name} is an option of {}; the value was not kept)",
                names.join(", ")
            ));
        }
        let key = name.to_ascii_lowercase();
        self.variant_settings.retain(|(k, _)| *k != key);
        self.variant_settings.push((key, value.to_string()));
        Ok(self.apply_variant_settings(self.variant.name()))
    }

    /// Makes the variant called `name` with the kept rule settings the
    /// game, and gives the errors of settings it cannot take (each leaves
    /// the game unknown).
    fn apply_variant_settings(&mut self, name: &str) -> Vec<(String, String)> {
        let mut errors = Vec::new();
        // Kept settings are checked against the variant anew.
        self.refused_rules.retain(|r| !r.misfit);
        let mut v = Variant::by_name(name).expect("known variant");
        for (key, value) in &self.variant_settings {
            let canonical = v
                .options()
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(key))
                .map(|o| o.name);
            if let Some(name) = canonical
                && let Err(e) = v.set_option(name, value)
            {
                errors.push((
                    name.to_string(),
                    format!("{e}; {} cannot be played with it", v.name()),
                ));
                self.refused_rules.push(Refused {
                    key: key.clone(),
                    why: format!("{name} = {value} does not fit {}: {e}", v.name()),
                    misfit: true,
                });
            }
        }
        if v == self.variant {
            // The same game again (a client that sends its options before
            // every game): the position and the table stay.
            return errors;
        }
        self.variant = v;
        self.session = v.visit_solver(NewSession);
        self.shared.tt.clear();
        self.egtb_fit_told = false;
        if self.position_sent {
            self.no_position = Some(format!(
                "the game changed to {} after the last position command; send a position",
                v.name()
            ));
            self.position_sent = false;
        }
        errors
    }

    /// A database that does not fit the variant and its rules (another game,
    /// board or rule set) is not used: the first `go` after either changed
    /// says so, since the options may be set in any order before it.
    fn tell_egtb_misfit(&mut self) {
        if self.egtb_fit_told {
            return;
        }
        self.egtb_fit_told = true;
        if let (Some(db), Some(path)) = (&self.egtb, &self.settings.egtb_path)
            && let Err(why) = solve::egtb_fits(&self.variant, db)
        {
            self.out
                .error(&format!("EgtbPath '{path}': {why}; it is not used"));
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|t| *t == "moves");
        let head = &args[..moves_at.unwrap_or(args.len())];
        let moves = moves_at.map_or(&[][..], |i| &args[i + 1..]);
        let start = match head {
            ["startpos"] => Ok(Start::StartPos),
            ["fen", token] => Ok(Start::Fen(token)),
            ["fen"] => Err("position fen needs a position token".to_string()),
            ["fen", ..] => Err("position fen takes one token without spaces".to_string()),
            _ => Err("usage: position startpos|fen <token> [moves ...]".to_string()),
        };
        if let Some(why) = self.game_unknown() {
            self.out.error(&format!("position refused: {why}"));
            return;
        }
        match start.and_then(|start| self.session.set_position(start, moves)) {
            Ok(()) => {
                self.no_position = None;
                self.position_sent = true;
            }
            Err(e) => {
                self.out.error(&format!(
                    "{e}; no position is held until a valid one is sent"
                ));
                self.no_position = Some(format!("the last position command was refused ({e})"));
            }
        }
    }

    fn go(&mut self, args: &[&str]) {
        if let Some(why) = self.nothing_to_search() {
            self.out.error(&format!("go: no position to search: {why}"));
            self.out.line("bestmove 0000");
            return;
        }
        let mut limits = Limits {
            since: Some(std::time::Instant::now()),
            ..Limits::default()
        };
        let mut clocks: [Clock; 2] = Default::default();
        let mut has_clock = [false; 2];
        let mut solve = false;
        // A parameter that could not be read may have been the limit the
        // client meant: the search must not become unbounded because of it.
        let mut unread = false;
        let mut i = 0;
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        while i < args.len() {
            let key = args[i];
            let next = args.get(i + 1).copied();
            let mut takes_value = true;
            let parsed = match key {
                "p1time" | "wtime" | "p2time" | "btime" | "p1inc" | "winc" | "p2inc" | "binc"
                | "movetime" => match number(next, key, i64::MIN, i64::MAX) {
                    Parsed::Bad(_) => Parsed::Bad(format!(
                        "go {key} '{}' is not a whole number of milliseconds",
                        next.unwrap_or_default()
                    )),
                    other => other,
                },
                "movestogo" => number(next, key, 0, 100_000),
                "depth" => clamped(next, key, 1, crate::search::MAX_DEPTH as i64, &self.out),
                "nodes" => clamped(next, key, 1, i64::MAX, &self.out),
                "perft" => number(next, key, 0, 64),
                "solve" => {
                    takes_value = false;
                    solve = true;
                    Parsed::Missing
                }
                "infinite" => {
                    takes_value = false;
                    limits.infinite = true;
                    Parsed::Missing
                }
                "ponder" => {
                    takes_value = false;
                    limits.ponder = true;
                    Parsed::Missing
                }
                _ => {
                    takes_value = false;
                    Parsed::Bad(format!(
                        "unknown go parameter '{}'",
                        key.chars().take(40).collect::<String>()
                    ))
                }
            };
            match parsed {
                Parsed::Value(v) => match key {
                    "p1time" | "wtime" => {
                        clocks[0].time = ms(v);
                        has_clock[0] = true;
                    }
                    "p2time" | "btime" => {
                        clocks[1].time = ms(v);
                        has_clock[1] = true;
                    }
                    "p1inc" | "winc" => clocks[0].inc = ms(v),
                    "p2inc" | "binc" => clocks[1].inc = ms(v),
                    "movetime" => limits.movetime = Some(ms(v)),
                    "movestogo" => limits.movestogo = (v > 0).then_some(v as u32),
                    "depth" => limits.depth = Some(v as u32),
                    "nodes" => limits.nodes = Some(v as u64),
                    "perft" => {
                        self.shared.stop.store(false, Ordering::Relaxed);
                        let handle =
                            self.session
                                .perft(v as u32, self.shared.clone(), self.out.clone());
                        self.running = Some(handle);
                        self.running_bounded = true;
                        return;
                    }
                    _ => unreachable!("every key with a value is handled"),
                },
                Parsed::Missing if takes_value => {
                    unread = true;
                    self.out.error(&format!("go {key} needs a value"))
                }
                Parsed::Missing => {}
                Parsed::Bad(e) => {
                    unread = true;
                    self.out.error(&format!("{e}; ignored"))
                }
            }
            i += if takes_value && next.is_some() { 2 } else { 1 };
        }
        for s in 0..2 {
            if has_clock[s] {
                limits.clocks[s] = Some(clocks[s]);
            }
        }
        let bounded = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || has_clock.iter().any(|&c| c);
        if limits.ponder && (limits.infinite || solve) {
            // Pondering needs a search that ends by itself after ponderhit.
            limits.ponder = false;
        }
        if unread && !bounded && !limits.infinite && !limits.ponder && !solve {
            self.out
                .error("go: a parameter was ignored, so the search is limited to depth 1");
            limits.depth = Some(1);
        }
        self.tell_egtb_misfit();
        if solve {
            if solve::solvable(&self.variant) {
                self.go_solve(&limits);
                return;
            }
            self.out.error(&format!(
                "go solve: {} is not decided by counting seeds; searching instead",
                self.variant.name()
            ));
        }
        self.start_search(limits);
    }

    /// `go solve` in a game decided by counting: the exact solver in a
    /// thread of its own.
    fn go_solve(&mut self, limits: &Limits) {
        self.solve_stop = Arc::new(AtomicBool::new(false));
        let handle = solve::spawn(
            self.variant,
            self.session.position_token(),
            solve::Resources {
                hash_mib: self.settings.hash_mib,
                threads: self.settings.threads,
                egtb: self.egtb.clone(),
                egtb_dir: self.egtb_folder(),
                chosen: self.chosen_egtb.clone(),
            },
            self.solve_stop.clone(),
            limits.nodes,
            limits.movetime,
            self.out.clone(),
        );
        self.running = Some(handle);
        self.running_bounded = true;
    }

    /// `ponderhit`: the pondering search becomes the timed search of its
    /// `go`, its clock counted from now (ignored when nothing ponders).
    fn ponderhit(&mut self) {
        let Some((limits, side)) = self.pondering.take() else {
            return;
        };
        if self.running.is_none() {
            return;
        }
        self.shared.ponderhit(
            &limits,
            side,
            Duration::from_millis(self.settings.move_overhead_ms),
        );
        self.running_bounded = bounded(&limits, side);
    }

    /// Starts the search of a `go` in its thread.
    fn start_search(&mut self, limits: Limits) {
        self.shared.stop.store(false, Ordering::Relaxed);
        if limits.ponder {
            self.shared.start_pondering();
        }
        let search = SearchOptions {
            threads: self.settings.threads,
            multipv: self.settings.multipv,
            move_overhead_ms: self.settings.move_overhead_ms,
            eval: self.settings.eval.clone(),
            ponder: self.settings.ponder,
            egtb: self.database_for_search(),
            solve_endgames: self.settings.solve_endgames,
            own_book: self.settings.own_book,
            level: self.settings.level.clone(),
            limit_strength: self.settings.limit_strength,
            elo: self.settings.elo,
            join_moves: self.settings.join_moves,
        };
        let mover = if self.session.query("p1turn").as_deref() == Ok("true") {
            crate::game::Side::South
        } else {
            crate::game::Side::North
        };
        // A pondering search waits for ponderhit or stop: at the end of
        // input it is stopped, as an infinite one is.
        self.running_bounded = !limits.ponder && bounded(&limits, mover);
        self.pondering = limits.ponder.then(|| (limits.clone(), mover));
        let handle = self
            .session
            .go(limits, &search, self.shared.clone(), self.out.clone());
        self.running = Some(handle);
    }
}

/// Whether a search with `limits`, `side` to move, ends by itself.
fn bounded(limits: &Limits, side: crate::game::Side) -> bool {
    !limits.infinite
        && (limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || limits.clocks[side.index()].is_some())
}

enum LineRead {
    Line,
    TooLong(usize),
    Eof,
}

/// Reads one line (without its end) into `buf`, keeping at most `MAX_LINE`
/// bytes: a longer line is drained and reported, never held in memory.
fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<LineRead> {
    let mut seen = 0usize;
    let mut any = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if !any {
                LineRead::Eof
            } else if seen > MAX_LINE {
                LineRead::TooLong(seen)
            } else {
                LineRead::Line
            });
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        seen += part.len();
        if seen <= MAX_LINE {
            buf.extend_from_slice(part);
        } else {
            buf.clear();
        }
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(if seen > MAX_LINE {
                LineRead::TooLong(seen)
            } else {
                LineRead::Line
            });
        }
    }
}
