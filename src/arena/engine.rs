//! Engines as child processes: their settings, the handshake, and one search
//! at a time, each bounded by a deadline so that no engine can stall the
//! tournament.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::ArenaError;
use super::record::Termination;
use crate::variants::Variant;

/// Which dialect an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UGI: `ugi`, `uginewgame`, `p1time`…, the variant sent as options.
    Ugi,
    /// Plain UCI: `uci`, `ucinewgame`, `wtime`…, and nothing a chess-minded
    /// program would not understand (no variant options unless given).
    Uci,
}

/// A clock: the time at the start and the increment after every move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub inc: Duration,
}

fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{what} must be a number of seconds, got '{text}'"))
}

impl TimeControl {
    /// Reads `<seconds>[+<increment>]`, e.g. `10+0.1` or `60`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let tc = TimeControl {
            base: seconds(base, "tc")?,
            inc: seconds(inc, "tc increment")?,
        };
        if tc.base.is_zero() {
            return Err(format!("tc '{text}' gives no time"));
        }
        Ok(tc)
    }
}

/// How to start an engine and how it searches in this tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// `setoption` lines sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    pub proto: Proto,
    /// Joins the moves of `position … moves`: a space, or nothing for
    /// engines that read `FfE`.
    pub movesep: String,
    pub tc: Option<TimeControl>,
    /// Fixed time per move (`go movetime`).
    pub st: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Grace beyond the clock (or `st`) before a move counts as late.
    pub margin: Duration,
    /// Longest wait for a move when no clock bounds it (depth or nodes
    /// only): past it the engine is taken to hang.
    pub timeout: Duration,
    /// Whether the engine thinks on its opponent's time (`ponder=on`): after
    /// `bestmove X ponder Y` it is sent `go ponder` on the position after
    /// Y, then `ponderhit` if the opponent plays Y, else `stop`.
    pub ponder: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            proto: Proto::Ugi,
            movesep: " ".into(),
            tc: None,
            st: None,
            depth: None,
            nodes: None,
            margin: Duration::from_millis(100),
            timeout: Duration::from_secs(60),
            ponder: false,
        }
    }
}

/// The keys `--engine` and `--each` accept, for messages.
pub const ENGINE_KEYS: &str = "cmd, name, args, dir, proto, movesep, option.<Name>, tc, st, depth, nodes, timemargin, timeout, ponder";

impl EngineConfig {
    /// Why the engine's program cannot be started, if it is plainly
    /// missing: a path that names no file, or a name found on no folder of
    /// `PATH`. (A program that is found may still fail; its games say why.)
    pub fn missing_program(&self) -> Option<String> {
        let cmd = std::path::Path::new(&self.cmd);
        if self.cmd.contains('/') {
            let at = match &self.dir {
                Some(d) if cmd.is_relative() => d.join(cmd),
                _ => cmd.to_path_buf(),
            };
            return (!at.is_file()).then(|| format!("'{}' is no file", at.display()));
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        let found = std::env::split_paths(&path).any(|d| d.join(cmd).is_file());
        (!found).then(|| format!("'{}' is on no folder of PATH", self.cmd))
    }

    /// Sets one `key=value` of `--engine`/`--each`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ArenaError> {
        let bad = |m: String| ArenaError::Config(m);
        let whole = |what: &str| -> Result<u64, ArenaError> {
            value.parse::<u64>().ok().filter(|v| *v > 0).ok_or_else(|| {
                bad(format!(
                    "{what} must be a positive whole number, got '{value}'"
                ))
            })
        };
        match key {
            "cmd" => self.cmd = value.to_string(),
            "name" => self.name = value.to_string(),
            "args" => self.args = value.split_whitespace().map(str::to_string).collect(),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "proto" => {
                self.proto = match value.to_ascii_lowercase().as_str() {
                    "ugi" => Proto::Ugi,
                    "uci" => Proto::Uci,
                    _ => return Err(bad(format!("proto must be ugi or uci, got '{value}'"))),
                }
            }
            "movesep" => self.movesep = value.to_string(),
            "tc" => self.tc = Some(TimeControl::parse(value).map_err(bad)?),
            "st" => {
                let st = seconds(value, "st").map_err(bad)?;
                if st.is_zero() {
                    return Err(bad("st must be more than 0 seconds".into()));
                }
                self.st = Some(st);
            }
            "depth" => self.depth = Some(whole("depth")?.min(u32::MAX as u64) as u32),
            "nodes" => self.nodes = Some(whole("nodes")?),
            "timemargin" => {
                self.margin =
                    Duration::from_millis(value.parse::<u64>().map_err(|_| {
                        bad(format!("timemargin is in milliseconds, got '{value}'"))
                    })?)
            }
            "timeout" => self.timeout = seconds(value, "timeout").map_err(bad)?,
            "ponder" => {
                self.ponder = match value.to_ascii_lowercase().as_str() {
                    "on" | "true" => true,
                    "off" | "false" => false,
                    _ => return Err(bad(format!("ponder must be on or off, got '{value}'"))),
                }
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                    self.options.push((name.to_string(), value.to_string()));
                }
                _ => {
                    return Err(bad(format!(
                        "unknown engine setting '{key}' (known: {ENGINE_KEYS})"
                    )));
                }
            },
        }
        Ok(())
    }

    /// An engine from the `--each` settings followed by its own `key=value`
    /// tokens (its own win).
    pub fn from_tokens<S: AsRef<str>>(each: &[S], own: &[S]) -> Result<EngineConfig, ArenaError> {
        let mut cfg = EngineConfig::default();
        for token in each.iter().chain(own) {
            let token = token.as_ref();
            let (key, value) = token.split_once('=').ok_or_else(|| {
                ArenaError::Config(format!(
                    "engine setting '{token}' is not key=value (keys: {ENGINE_KEYS})"
                ))
            })?;
            cfg.set(key.trim(), value)?;
        }
        if cfg.cmd.is_empty() {
            return Err(ArenaError::Config(format!(
                "an engine needs cmd=PATH (got: {})",
                own.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(" ")
            )));
        }
        if cfg.name.is_empty() {
            cfg.name = std::path::Path::new(&cfg.cmd)
                .file_name()
                .map_or(cfg.cmd.clone(), |f| f.to_string_lossy().into_owned());
        }
        Ok(cfg)
    }

    /// A short description of how the engine searches, for the report.
    /// Everything that decides how this engine plays, as `key=value` pairs
    /// in the command line's spelling (`option.Hash`, `depth`, …), except its
    /// name: what a resumed tournament must find unchanged.
    pub fn settings(&self) -> std::collections::BTreeMap<String, String> {
        let mut m = std::collections::BTreeMap::new();
        m.insert("cmd".to_string(), self.cmd.clone());
        if !self.args.is_empty() {
            m.insert("args".to_string(), self.args.join(" "));
        }
        if let Some(d) = &self.dir {
            m.insert("dir".to_string(), d.display().to_string());
        }
        let proto = match self.proto {
            Proto::Ugi => "ugi",
            Proto::Uci => "uci",
        };
        m.insert("proto".to_string(), proto.to_string());
        m.insert("movesep".to_string(), self.movesep.clone());
        for (k, v) in &self.options {
            m.insert(format!("option.{k}"), v.clone());
        }
        if let Some(tc) = self.tc {
            m.insert(
                "tc".to_string(),
                format!("{}+{}", tc.base.as_secs_f64(), tc.inc.as_secs_f64()),
            );
        }
        if let Some(st) = self.st {
            m.insert("st".to_string(), st.as_secs_f64().to_string());
        }
        if let Some(d) = self.depth {
            m.insert("depth".to_string(), d.to_string());
        }
        if let Some(n) = self.nodes {
            m.insert("nodes".to_string(), n.to_string());
        }
        m.insert(
            "timemargin".to_string(),
            self.margin.as_millis().to_string(),
        );
        m.insert(
            "timeout".to_string(),
            self.timeout.as_secs_f64().to_string(),
        );
        if self.ponder {
            m.insert("ponder".to_string(), "on".to_string());
        }
        m
    }

    /// The `option.` settings, as the report lists them.
    pub fn options_text(&self) -> String {
        self.options
            .iter()
            .map(|(k, v)| format!("option.{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn limits_text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!(
                "tc={}+{}",
                tc.base.as_secs_f64(),
                tc.inc.as_secs_f64()
            ));
        }
        if let Some(st) = self.st {
            parts.push(format!("st={}", st.as_secs_f64()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if self.ponder {
            parts.push("ponder=on".into());
        }
        if parts.is_empty() {
            parts.push("no limit".into());
        }
        parts.join(" ")
    }
}

/// Why an engine lost a game without the rules deciding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: Termination,
    pub detail: String,
}

impl Failure {
    fn new(kind: Termination, detail: impl Into<String>) -> Failure {
        Failure {
            kind,
            detail: detail.into(),
        }
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The first word after `bestmove`, unchecked.
    pub mv: String,
    /// Wall time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last `score` the engine reported (`cp 25`, `mate -3`).
    pub score: Option<String>,
    pub depth: Option<u32>,
    /// The reply the engine expects (`bestmove X ponder Y`), unchecked.
    pub ponder: Option<String>,
    /// The last `info string error: …` the engine printed while this
    /// search ran (what a `bestmove 0000` answer means).
    pub error: Option<String>,
}

/// One `info` line of an engine's search, as far as it could be read (a
/// field the engine left out, or wrote badly, is `None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    /// The line's number under MultiPV (`None`: the engine did not say).
    pub multipv: Option<usize>,
    /// `cp 25` or `mate -3`.
    pub score: Option<String>,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
    pub tbhits: Option<u64>,
    /// The moves after `pv`, split at white space.
    pub pv: Vec<String>,
}

impl Info {
    /// Reads an `info` line; `None` for any other line and for `info
    /// string`, which carries no search.
    pub fn parse(line: &str) -> Option<Info> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
            return None;
        }
        let mut info = Info::default();
        let num = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
        for (i, w) in words.iter().enumerate() {
            match *w {
                "depth" => info.depth = num(i).map(|d| d.min(u32::MAX as u64) as u32),
                "multipv" => info.multipv = num(i).map(|m| m as usize),
                "nodes" => info.nodes = num(i),
                "time" => info.time_ms = num(i),
                "tbhits" => info.tbhits = num(i),
                "score" => {
                    if let (Some(unit), Some(v)) = (words.get(i + 1), words.get(i + 2))
                        && (*unit == "cp" || *unit == "mate")
                        && v.parse::<i64>().is_ok()
                    {
                        info.score = Some(format!("{unit} {v}"));
                    }
                }
                // The rest of the line is the variation.
                "pv" => {
                    info.pv = words[i + 1..].iter().map(|m| m.to_string()).collect();
                    break;
                }
                _ => {}
            }
        }
        Some(info)
    }
}

enum Event {
    Line(String),
    Closed,
}

/// A running engine. Dropping it kills the process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    proto: Proto,
    closed: bool,
    /// The options the engine offered in its handshake (`option name …`).
    offered: Vec<String>,
}

impl EngineProcess {
    /// Starts the process; a command that cannot be run is a broken
    /// handshake.
    pub fn start(cfg: &EngineConfig) -> Result<EngineProcess, Failure> {
        let mut cmd = Command::new(&cfg.cmd);
        cmd.args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &cfg.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            Failure::new(
                Termination::Handshake,
                format!("could not start '{}': {e}", cfg.cmd),
            )
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = channel();
        // A thread per engine turns the blocking pipe into a channel that can
        // be read with a deadline.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Event::Closed);
                        return;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            stdin: child.stdin.take(),
            child,
            events: rx,
            proto: cfg.proto,
            closed: false,
            offered: Vec::new(),
        })
    }

    /// How the process ended, for a message, if it has (waiting briefly,
    /// since its output closes just before it exits).
    fn exit_text(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(300);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("exited ({status})"),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return "closed its output".into(),
            }
        }
    }

    fn send(&mut self, line: &str, kind: Termination) -> Result<(), Failure> {
        let ok = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|_| stdin.write_all(b"\n"))
                .and_then(|_| stdin.flush())
                .is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            let how = self.exit_text();
            Err(Failure::new(
                kind,
                format!("could not send '{line}': the engine {how}"),
            ))
        }
    }

    /// The next line before `deadline`: `Ok(None)` on time-out, `Err` when
    /// the engine's output has closed.
    fn next_line(&mut self, deadline: Instant) -> Result<Option<String>, ()> {
        if self.closed {
            return Err(());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(left) {
            Ok(Event::Line(l)) => Ok(Some(l)),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(())
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// Reads lines until one is `want`, for at most `timeout`; the lines
    /// before it.
    fn expect(
        &mut self,
        want: &str,
        timeout: Duration,
        after: &str,
    ) -> Result<Vec<String>, Failure> {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            match self.next_line(deadline) {
                Ok(Some(l)) if l.trim() == want => return Ok(before),
                Ok(Some(l)) => before.push(l),
                Ok(None) => {
                    return Err(Failure::new(
                        Termination::Handshake,
                        format!(
                            "no '{want}' within {:.1} s after '{after}'",
                            timeout.as_secs_f64()
                        ),
                    ));
                }
                Err(()) => {
                    let how = self.exit_text();
                    return Err(Failure::new(
                        Termination::Handshake,
                        format!("the engine {how} before '{want}' (after '{after}')"),
                    ));
                }
            }
        }
    }

    /// `ugi`/`uci` and its `…ok`, the options, and `isready`.
    pub fn handshake(
        &mut self,
        cfg: &EngineConfig,
        variant: &Variant,
        timeout: Duration,
    ) -> Result<(), Failure> {
        let (hello, ok) = match self.proto {
            Proto::Ugi => ("ugi", "ugiok"),
            Proto::Uci => ("uci", "uciok"),
        };
        self.send(hello, Termination::Handshake)?;
        let told = self.expect(ok, timeout, hello)?;
        // `option name <words> type …`: the name may hold spaces.
        self.offered = told
            .iter()
            .filter_map(|l| {
                let rest = l.trim().strip_prefix("option name ")?;
                let name = rest.split(" type ").next()?.trim();
                (!name.is_empty()).then(|| name.to_string())
            })
            .collect();
        let mut options: Vec<(String, String)> = Vec::new();
        if self.proto == Proto::Ugi {
            // The whole variant is spelled out, defaults included, so that an
            // engine's own defaults cannot change the game.
            match variant.description_file() {
                // A user's described game: the engine loads the same file.
                Some(path) => options.push(("VariantFile".into(), path.into())),
                None => options.push(("Variant".into(), variant.name().into())),
            }
            for (name, value) in variant.option_values() {
                options.push((name.into(), value));
            }
        }
        for (name, value) in &cfg.options {
            options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            options.push((name.clone(), value.clone()));
        }
        for (name, value) in options {
            self.send(
                &format!("setoption name {name} value {value}"),
                Termination::Handshake,
            )?;
        }
        self.send("isready", Termination::Handshake)?;
        self.expect("readyok", timeout, "isready").map(drop)
    }

    /// Whether the engine offered the option `name` in its handshake
    /// (compared without case, as engines read option names).
    pub fn offers(&self, name: &str) -> bool {
        self.offered.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Sets an option after the handshake; the next `isready` (as
    /// [`EngineProcess::new_game`] sends) waits for it to take effect.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        self.send(
            &format!("setoption name {name} value {value}"),
            Termination::Handshake,
        )
    }

    /// The new-game command and `isready`, before every game.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Failure> {
        let cmd = match self.proto {
            Proto::Ugi => "uginewgame",
            Proto::Uci => "ucinewgame",
        };
        self.send(cmd, Termination::Handshake)?;
        self.send("isready", Termination::Handshake)?;
        self.expect("readyok", timeout, "isready").map(drop)
    }

    /// Sends the position and `go`, and waits at most `limit` for
    /// `bestmove`.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<Reply, Failure> {
        self.go_watched(position, go, limit, None, &mut |_| {})
    }

    /// [`EngineProcess::go`], showing each `info` line to `on_info` as it
    /// comes; once `stop` is set the engine is sent `stop` (and still has
    /// until `limit` to answer with its move).
    pub fn go_watched(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
        stop: Option<&AtomicBool>,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Reply, Failure> {
        self.send(position, Termination::Crash)?;
        let start = Instant::now();
        self.send(go, Termination::Crash)?;
        self.await_bestmove(start, limit, stop, on_info)
    }

    /// Starts thinking on the opponent's time: `position` (the game after
    /// the expected reply) and `go` with `ponder` added. Nothing is read:
    /// [`EngineProcess::ponderhit`] or [`EngineProcess::stop_pondering`]
    /// follows.
    pub fn start_pondering(&mut self, position: &str, go: &str) -> Result<(), Failure> {
        self.send(position, Termination::Crash)?;
        let go = match go.strip_prefix("go") {
            Some(rest) => format!("go ponder{rest}"),
            None => format!("go ponder {go}"),
        };
        self.send(&go, Termination::Crash)
    }

    /// The opponent played the expected move: `ponderhit`, and the engine's
    /// `bestmove` within `limit`, timed from now.
    pub fn ponderhit(&mut self, limit: Duration) -> Result<Reply, Failure> {
        self.ponderhit_watched(limit, None, &mut |_| {})
    }

    /// [`EngineProcess::ponderhit`], showing each `info` line (those of the
    /// pondering first) to `on_info` and sending `stop` once `stop` is set,
    /// as [`EngineProcess::go_watched`] does.
    pub fn ponderhit_watched(
        &mut self,
        limit: Duration,
        stop: Option<&AtomicBool>,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Reply, Failure> {
        let start = Instant::now();
        self.send("ponderhit", Termination::Crash)?;
        self.await_bestmove(start, limit, stop, on_info)
    }

    /// The opponent played another move (or the game ended): `stop`, and
    /// the `bestmove` that answers it, thrown away, read within `limit`.
    pub fn stop_pondering(&mut self, limit: Duration) -> Result<(), Failure> {
        let start = Instant::now();
        self.send("stop", Termination::Crash)?;
        self.await_bestmove(start, limit, None, &mut |_| {})
            .map(drop)
    }

    /// Reads the engine's lines until `bestmove`, at most until `start +
    /// limit`.
    fn await_bestmove(
        &mut self,
        start: Instant,
        limit: Duration,
        stop: Option<&AtomicBool>,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Reply, Failure> {
        let deadline = start + limit;
        let mut score = None;
        let mut depth = None;
        let mut error = None;
        let mut stopped = false;
        loop {
            // A short wait when there is a stop flag to watch.
            let wake = match stop {
                Some(_) if !stopped => deadline.min(Instant::now() + Duration::from_millis(50)),
                _ => deadline,
            };
            if let Some(flag) = stop
                && !stopped
                && flag.load(Ordering::Relaxed)
            {
                stopped = true;
                self.send("stop", Termination::Crash)?;
            }
            match self.next_line(wake) {
                Ok(Some(line)) => {
                    if let Some(info) = Info::parse(&line) {
                        // The reply is the first line's, whatever MultiPV.
                        if info.multipv.unwrap_or(1) == 1 {
                            score = info.score.clone().or(score);
                            depth = info.depth.or(depth);
                        }
                        on_info(&info);
                        continue;
                    }
                    if let Some(e) = line.strip_prefix("info string error: ") {
                        error = Some(e.to_string());
                    }
                    let mut words = line.split_whitespace();
                    if words.next() == Some("bestmove") {
                        let mv = words.next().unwrap_or("").to_string();
                        let ponder = match (words.next(), words.next()) {
                            (Some("ponder"), Some(p)) => Some(p.to_string()),
                            _ => None,
                        };
                        return Ok(Reply {
                            mv,
                            elapsed: start.elapsed(),
                            score,
                            depth,
                            ponder,
                            error,
                        });
                    }
                }
                Ok(None) if Instant::now() < deadline => {}
                Ok(None) => {
                    return Err(Failure::new(
                        Termination::Timeout,
                        format!("no bestmove within {} ms", limit.as_millis()),
                    ));
                }
                Err(()) => {
                    let how = self.exit_text();
                    return Err(Failure::new(
                        Termination::Crash,
                        format!("the engine {how} while thinking"),
                    ));
                }
            }
        }
    }

    /// Asks the engine to leave, and makes sure it has.
    pub fn quit(mut self) {
        if self.send("quit", Termination::Crash).is_ok() {
            drop(self.stdin.take());
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Drop kills what did not leave.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        drop(self.stdin.take());
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_settings_are_read_and_checked() {
        let each = ["tc=10+0.1", "option.Hash=8"];
        let own = [
            "cmd=/bin/kete",
            "name=A",
            "args=--x y",
            "depth=4",
            "option.hash=32",
            "proto=UCI",
            "movesep=",
        ];
        let c = EngineConfig::from_tokens(&each, &own).unwrap();
        assert_eq!(c.name, "A");
        assert_eq!(c.args, ["--x", "y"]);
        assert_eq!(c.depth, Some(4));
        assert_eq!(c.options, [("hash".to_string(), "32".to_string())]);
        assert_eq!(c.proto, Proto::Uci);
        assert_eq!(c.movesep, "");
        assert_eq!(
            c.tc,
            Some(TimeControl {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            })
        );
        let unnamed = EngineConfig::from_tokens::<&str>(&[], &["cmd=/usr/bin/kete"]).unwrap();
        assert_eq!(unnamed.name, "kete");
        assert!(EngineConfig::from_tokens::<&str>(&[], &["name=x"]).is_err());
        assert!(EngineConfig::from_tokens::<&str>(&[], &["cmd=x", "speed=3"]).is_err());
        assert!(EngineConfig::from_tokens::<&str>(&[], &["cmd=x", "depth=0"]).is_err());
        assert!(TimeControl::parse("0+1").is_err());
        assert!(TimeControl::parse("x").is_err());
    }

    #[test]
    fn info_lines_are_read_field_by_field() {
        let i = Info::parse(
            "info depth 7 seldepth 9 multipv 2 score mate -3 nodes 1200 nps 5 time 40 tbhits 8 pv A b C",
        )
        .unwrap();
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.multipv, Some(2));
        assert_eq!(i.score.as_deref(), Some("mate -3"));
        assert_eq!(
            (i.nodes, i.time_ms, i.tbhits),
            (Some(1200), Some(40), Some(8))
        );
        assert_eq!(i.pv, ["A", "b", "C"]);
        let bare = Info::parse("info depth x score cp").unwrap();
        assert_eq!(bare, Info::default());
        assert!(Info::parse("info string hello").is_none());
        assert!(Info::parse("bestmove A").is_none());
    }
}
