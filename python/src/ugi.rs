//! `kete.UgiEngine`: any UGI or UCI mancala engine as a child process,
//! driven by kete-arena's engine code ([`kete::arena::engine`]), so that
//! its handshake, its time-outs and its crashes follow the arena's rules,
//! and its moves are checked by kete's rules as the arena's referee checks
//! them.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kete::arena::engine::{EngineConfig, EngineProcess, Failure, Info, Proto};
use kete::arena::play::{go_command, position_command};
use kete::arena::record::Termination;
use kete::variants::Variant;
use parking_lot::Mutex;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::position::{Position, expected_reply};
use crate::results::{Analysis, Line, Score};
use crate::{EngineError, OptionError, option_text};

/// The engine's failure as an `EngineError` whose `termination` says how
/// the arena would score it (`"handshake"`, `"crash"`, `"timeout"`,
/// `"illegal"`).
fn engine_error(py: Python<'_>, name: &str, kind: Termination, detail: &str) -> PyErr {
    let err = EngineError::new_err(format!("engine {name}: {}: {detail}", kind.phrase()));
    let _ = err.value(py).setattr("termination", kind.as_str());
    err
}

fn failure(py: Python<'_>, name: &str, f: Failure) -> PyErr {
    engine_error(py, name, f.kind, &f.detail)
}

/// An external engine speaking UGI (or plain UCI) on its standard input
/// and output: `UgiEngine.popen(["kete"])`. `analyse` and `play` answer as
/// `Engine`'s do. As in kete-arena, it must answer its handshake and each
/// `isready` within `handshake_timeout` seconds, a move with `movetime`
/// within that time plus `margin`, and one bounded only by depth or nodes
/// within `timeout`; otherwise `EngineError` says it lost on time, and a
/// closed pipe that it crashed. Its moves are checked by kete's rules.
#[pyclass(module = "kete")]
pub struct UgiEngine {
    process: Mutex<Option<EngineProcess>>,
    cfg: EngineConfig,
    setup: Duration,
    /// The variant (with its rules) the engine was last set to.
    current: Option<Variant>,
    /// The MultiPV last sent.
    multipv: usize,
    /// The engine thinks on the opponent's time (`play(…, ponder=True)`).
    pondering: Option<Pondering>,
}

/// What the engine ponders: the `position` command of the game after the
/// reply it expects, which the next search must match for a `ponderhit`.
struct Pondering {
    position: String,
    variant: Variant,
}

/// How long an engine may take to answer `stop` after pondering.
const STOP_GRACE: Duration = Duration::from_secs(5);

impl UgiEngine {
    fn gone(&self, py: Python<'_>) -> PyErr {
        engine_error(
            py,
            &self.cfg.name,
            Termination::Crash,
            "the engine is no longer running",
        )
    }

    /// Runs `f` on the process; a failure drops the process (killing it),
    /// as the arena does with an engine that failed.
    fn with_process<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut EngineProcess) -> Result<R, Failure>,
    ) -> PyResult<R> {
        let mut slot = self.process.lock();
        let Some(p) = slot.as_mut() else {
            return Err(self.gone(py));
        };
        match f(p) {
            Ok(r) => Ok(r),
            Err(e) => {
                *slot = None;
                Err(failure(py, &self.cfg.name, e))
            }
        }
    }

    /// Ends a ponder search that is not wanted any more: `stop`, and its
    /// answer thrown away.
    fn stop_pondering(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.pondering.take().is_none() {
            return Ok(());
        }
        let limit = self.cfg.margin + STOP_GRACE;
        self.with_process(py, |p| p.stop_pondering(limit))
    }

    /// Sets the engine to the variant and rules of `position` (UGI only:
    /// a plain UCI engine is told nothing of the game, as in the arena).
    fn set_variant(&mut self, py: Python<'_>, variant: Variant) -> PyResult<()> {
        if self.current == Some(variant) {
            return Ok(());
        }
        let setup = self.setup;
        let ugi = self.cfg.proto == Proto::Ugi;
        let own = self.cfg.options.clone();
        self.with_process(py, |p| {
            if ugi {
                p.set_option("Variant", variant.name())?;
                for (name, value) in variant.option_values() {
                    // The user's own settings win, as in the handshake.
                    if !own.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                        p.set_option(name, &value)?;
                    }
                }
            }
            p.new_game(setup)
        })?;
        self.current = Some(variant);
        Ok(())
    }
}

impl UgiEngine {
    /// A search of `position` within the limits (see `analyse`), taking
    /// a ponder search's `ponderhit` where it pondered this position, and
    /// pondering after it with `ponder`.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        py: Python<'_>,
        position: &Position,
        movetime: Option<f64>,
        depth: Option<i64>,
        nodes: Option<i64>,
        multipv: Option<i64>,
        ponder: bool,
    ) -> PyResult<Analysis> {
        let depth = crate::whole_opt("depth", depth, 1, u32::MAX as i64)?;
        let nodes = crate::whole_opt("nodes", nodes, 1, i64::MAX)?;
        let multipv = crate::whole_opt("multipv", multipv, 1, 256)?.map(|m| m as usize);
        if movetime.is_none() && depth.is_none() && nodes.is_none() {
            return Err(OptionError::new_err(
                "an external engine needs a limit: movetime, depth or nodes",
            ));
        }
        let mut go = EngineConfig {
            proto: self.cfg.proto,
            ..EngineConfig::default()
        };
        if let Some(t) = movetime {
            go.set("st", &t.to_string())
                .map_err(|e| OptionError::new_err(format!("movetime: {e}")))?;
        }
        if let Some(d) = depth {
            go.set("depth", &d.to_string())
                .map_err(|e| OptionError::new_err(e.to_string()))?;
        }
        if let Some(n) = nodes {
            go.set("nodes", &n.to_string())
                .map_err(|e| OptionError::new_err(e.to_string()))?;
        }
        let base = if position.inner.starts_at_start() {
            "position startpos".to_string()
        } else {
            format!("position fen {}", position.inner.start_fen())
        };
        let history = position.inner.history();
        let position_cmd = position_command(&base, &history, &self.cfg.movesep);
        let variant = position.inner.variant();
        let multipv = multipv.unwrap_or(1).max(1);
        // The engine pondered this very position: ponderhit. Anything else
        // stops its pondering first.
        let hit = self.pondering.as_ref().is_some_and(|p| {
            p.position == position_cmd && p.variant == variant && multipv == self.multipv
        });
        if hit {
            self.pondering = None;
        } else {
            self.stop_pondering(py)?;
        }
        if position.inner.outcome().is_some() {
            return Ok(Analysis {
                best_move: None,
                lines: Vec::new(),
                stopped: false,
                elapsed: 0.0,
                ponder: None,
            });
        }
        if !hit {
            self.set_variant(py, variant)?;
            if multipv != self.multipv && self.offers("MultiPV") {
                self.with_process(py, |p| p.set_option("MultiPV", &multipv.to_string()))?;
                self.multipv = multipv;
            }
        }
        let go_cmd = go_command(&go, &[None, None], &[Duration::ZERO; 2]);
        // The arena's bound on a move: the hang time-out, and for a fixed
        // time the time plus the margin.
        let mut limit = self.cfg.timeout;
        if let Some(st) = go.st {
            limit = limit.min(st + self.cfg.margin);
        }
        let started = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let mut slot = self.process.lock();
        let Some(process) = slot.as_mut() else {
            return Err(self.gone(py));
        };
        let flag = stop.clone();
        let go_text = go_cmd.clone();
        let (reply, interrupted) = crate::interrupt::run(py, &stop, move || {
            let mut infos: BTreeMap<usize, Info> = BTreeMap::new();
            let mut keep = |i: &Info| {
                if i.score.is_some() || !i.pv.is_empty() {
                    infos.insert(i.multipv.unwrap_or(1), i.clone());
                }
            };
            let reply = if hit {
                process.ponderhit_watched(limit, Some(&flag), &mut keep)
            } else {
                process.go_watched(&position_cmd, &go_text, limit, Some(&flag), &mut keep)
            };
            reply.map(|r| (r, infos))
        })?;
        let (reply, infos) = match reply {
            Ok(r) => r,
            Err(f) => {
                *slot = None;
                return Err(failure(py, &self.cfg.name, f));
            }
        };
        drop(slot);
        // The referee's check: the move must be legal here.
        let mut after = position.inner.clone_box();
        if let Err(e) = after.play(&reply.mv) {
            let shown: String = reply.mv.chars().take(40).collect();
            let detail = match (&reply.error, shown.as_str()) {
                (Some(why), "0000") => {
                    format!("answered bestmove 0000 in {}: {why}", position.inner.fen())
                }
                (_, "") => "sent bestmove without a move".to_string(),
                _ => format!("played '{shown}' in {}: {e}", position.inner.fen()),
            };
            return Err(engine_error(
                py,
                &self.cfg.name,
                Termination::Illegal,
                &detail,
            ));
        }
        let best = after.history().last().cloned();
        let line = |multipv: usize, i: &Info| Line {
            multipv,
            score: i
                .score
                .as_deref()
                .and_then(|s| Score::parse(s, false, None)),
            depth: i.depth,
            seldepth: None,
            nodes: i.nodes,
            time: i.time_ms.map(|t| t as f64 / 1000.0),
            tbhits: i.tbhits,
            pv: i.pv.clone(),
        };
        let mut lines: Vec<Line> = infos.iter().map(|(k, i)| line(*k, i)).collect();
        if lines.is_empty() {
            lines.push(Line {
                multipv: 1,
                score: reply
                    .score
                    .as_deref()
                    .and_then(|s| Score::parse(s, false, None)),
                depth: reply.depth,
                seldepth: None,
                nodes: None,
                time: Some(reply.elapsed.as_secs_f64()),
                tbhits: None,
                pv: best.iter().cloned().collect(),
            });
        }
        let expected = match (&best, &reply.ponder) {
            (Some(b), Some(p)) => expected_reply(&*position.inner, b, p),
            _ => None,
        };
        if ponder
            && !interrupted
            && let (Some(b), Some(p)) = (&best, &expected)
        {
            let mut line = history.clone();
            line.push(b.clone());
            line.push(p.clone());
            let ponder_cmd = position_command(&base, &line, &self.cfg.movesep);
            self.with_process(py, |proc| proc.start_pondering(&ponder_cmd, &go_cmd))?;
            self.pondering = Some(Pondering {
                position: ponder_cmd,
                variant,
            });
        }
        Ok(Analysis {
            best_move: best,
            lines,
            stopped: interrupted,
            elapsed: started.elapsed().as_secs_f64(),
            ponder: expected,
        })
    }
}

#[pymethods]
impl UgiEngine {
    /// Refused, saying why: an external engine is a running process. Pickle its settings and the
    /// positions, and make an engine in each process.
    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "cannot pickle a kete.UgiEngine: an external engine is a running process; pickle the positions (and the engine's settings) and make an engine in each process",
        ))
    }

    /// Starts the engine `command` (a program, or a list of the program
    /// and its arguments) and goes through its handshake: `ugi` (or `uci`
    /// with `proto="uci"`), the variant's options and `options` (sent as
    /// `setoption`), `isready`. `cwd` is the folder it runs in.
    #[classmethod]
    #[pyo3(signature = (command, *, proto = "ugi", options = None, variant = "kalah", name = None, cwd = None, timeout = 60.0, margin = 0.1, handshake_timeout = 10.0))]
    #[allow(clippy::too_many_arguments)]
    fn popen(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        command: &Bound<'_, PyAny>,
        proto: &str,
        options: Option<&Bound<'_, PyDict>>,
        variant: &str,
        name: Option<String>,
        cwd: Option<PathBuf>,
        timeout: f64,
        margin: f64,
        handshake_timeout: f64,
    ) -> PyResult<UgiEngine> {
        let argv: Vec<String> = if let Ok(s) = command.extract::<String>() {
            vec![s]
        } else {
            command.extract::<Vec<String>>().map_err(|_| {
                OptionError::new_err("command must be a program or a list of strings")
            })?
        };
        let Some((cmd, args)) = argv.split_first() else {
            return Err(OptionError::new_err("command is empty"));
        };
        let mut cfg = EngineConfig {
            cmd: cmd.clone(),
            args: args.to_vec(),
            dir: cwd,
            ..EngineConfig::default()
        };
        cfg.set("proto", proto)
            .map_err(|e| OptionError::new_err(e.to_string()))?;
        let secs = |what: &str, s: f64| {
            if s.is_finite() && s > 0.0 && s < 1e9 {
                Ok(Duration::from_secs_f64(s))
            } else {
                Err(OptionError::new_err(format!(
                    "{what} must be a positive number of seconds, got {s}"
                )))
            }
        };
        cfg.timeout = secs("timeout", timeout)?;
        cfg.margin = if margin == 0.0 {
            Duration::ZERO
        } else {
            secs("margin", margin)?
        };
        let setup = secs("handshake_timeout", handshake_timeout)?;
        if let Some(o) = options {
            for (k, v) in o.iter() {
                cfg.options.push((k.extract::<String>()?, option_text(&v)?));
            }
        }
        cfg.name = name.unwrap_or_else(|| {
            std::path::Path::new(&cfg.cmd)
                .file_name()
                .map_or(cfg.cmd.clone(), |f| f.to_string_lossy().into_owned())
        });
        let v = crate::position::variant_with(variant, None)?;
        let started = py.detach(|| {
            let mut p = EngineProcess::start(&cfg)?;
            p.handshake(&cfg, &v, setup)?;
            p.new_game(setup)?;
            Ok::<_, Failure>(p)
        });
        let process = started.map_err(|f| failure(py, &cfg.name, f))?;
        Ok(UgiEngine {
            process: Mutex::new(Some(process)),
            current: Some(v),
            cfg,
            setup,
            multipv: 1,
            pondering: None,
        })
    }

    /// The engine's name (the program's file name unless `name` was given).
    #[getter]
    fn name(&self) -> String {
        self.cfg.name.clone()
    }

    /// Whether the engine offered the option `name` in its handshake.
    fn offers(&self, name: &str) -> bool {
        self.process.lock().as_ref().is_some_and(|p| p.offers(name))
    }

    /// Sends `setoption` for each option (names as the engine spells them;
    /// a dict for names with spaces), then waits for `isready`.
    #[pyo3(signature = (options = None, **kwargs))]
    fn configure(
        &mut self,
        py: Python<'_>,
        options: Option<&Bound<'_, PyDict>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let mut all = Vec::new();
        for d in [options, kwargs].into_iter().flatten() {
            for (k, v) in d.iter() {
                all.push((k.extract::<String>()?, option_text(&v)?));
            }
        }
        self.stop_pondering(py)?;
        let setup = self.setup;
        self.with_process(py, |p| {
            for (k, v) in &all {
                p.set_option(k, v)?;
            }
            p.new_game(setup)
        })?;
        for (k, v) in all {
            self.cfg
                .options
                .retain(|(n, _)| !n.eq_ignore_ascii_case(&k));
            self.cfg.options.push((k, v));
        }
        Ok(())
    }

    /// Forgets the game so far (`uginewgame`, `isready`).
    fn new_game(&mut self, py: Python<'_>) -> PyResult<()> {
        self.stop_pondering(py)?;
        let setup = self.setup;
        self.with_process(py, |p| p.new_game(setup))
    }

    /// Asks the engine to search `position` and returns an `Analysis`,
    /// the engine's `info` lines read as `Engine.analyse` answers: give
    /// `movetime` (seconds), `depth` or `nodes`. `Ctrl-C` sends `stop`;
    /// the engine's answer is returned (`stopped` true).
    #[pyo3(signature = (position, *, movetime = None, depth = None, nodes = None, multipv = None))]
    fn analyse(
        &mut self,
        py: Python<'_>,
        position: &Position,
        movetime: Option<f64>,
        depth: Option<i64>,
        nodes: Option<i64>,
        multipv: Option<i64>,
    ) -> PyResult<Analysis> {
        self.search(py, position, movetime, depth, nodes, multipv, false)
    }

    /// The engine's move in `position` (its `analyse`), checked by the
    /// rules; `None` when the game is over.
    #[pyo3(signature = (position, *, movetime = None, depth = None, nodes = None))]
    fn best_move(
        &mut self,
        py: Python<'_>,
        position: &Position,
        movetime: Option<f64>,
        depth: Option<i64>,
        nodes: Option<i64>,
    ) -> PyResult<Option<String>> {
        Ok(self
            .search(py, position, movetime, depth, nodes, Some(1), false)?
            .best_move)
    }

    /// `analyse` for the move to play: the same `Analysis`. With `ponder`,
    /// the engine then thinks on the opponent's time (`go ponder` after
    /// the reply it expects, `Analysis.ponder`), as python-chess's engines
    /// do: the next `play` or `analyse` of the position after that reply
    /// sends `ponderhit` (its limits are those of the call that started
    /// the pondering), any other call `stop`s it first.
    #[pyo3(signature = (position, *, movetime = None, depth = None, nodes = None, ponder = false))]
    fn play(
        &mut self,
        py: Python<'_>,
        position: &Position,
        movetime: Option<f64>,
        depth: Option<i64>,
        nodes: Option<i64>,
        ponder: bool,
    ) -> PyResult<Analysis> {
        self.search(py, position, movetime, depth, nodes, Some(1), ponder)
    }

    /// Sends `quit` and makes sure the engine has left (killing it if
    /// not). Also done when the object is collected.
    fn quit(&mut self, py: Python<'_>) {
        // A pondering engine is told to stop first, as a GUI does.
        let _ = self.stop_pondering(py);
        if let Some(p) = self.process.lock().take() {
            py.detach(|| p.quit());
        }
    }

    /// Whether the engine process is still there to be asked.
    #[getter]
    fn alive(&self) -> bool {
        self.process.lock().is_some()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &mut self,
        py: Python<'_>,
        _t: &Bound<'_, PyAny>,
        _v: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) {
        self.quit(py);
    }

    fn __repr__(&self) -> String {
        format!(
            "UgiEngine('{}', {})",
            self.cfg.name,
            if self.alive() { "running" } else { "gone" }
        )
    }
}
