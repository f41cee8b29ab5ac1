//! `kete.Engine`: kete's search and solver in process, set up as the
//! engine's protocol sets them up (its options table, the database in play,
//! the exact solver inside a search), answering with Python objects.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use kete::protocol::options::{ENGINE_OPTIONS, MAX_HASH_MIB, MAX_MULTIPV};
use kete::search::{self, Limits};
use kete::solve::Egtb;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::core::{Core, SearchJob, SolveJob};
use crate::position::Position;
use crate::results::{Analysis, Solution};
use crate::{OptionError, UnsolvableError, option_text, whole_opt};

/// A number of seconds as Python gives it: positive and finite, or none.
pub fn seconds(what: &str, s: Option<f64>) -> PyResult<Option<Duration>> {
    match s {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(OptionError::new_err(format!(
            "{what} must be a positive number of seconds, got {s}"
        ))),
    }
}

/// kete's engine in process: `analyse` and `best_move` search,
/// `solve` solves exactly.
///
/// `Engine(hash_mb=64, threads=2, eval="classic", solve_endgames=False,
/// egtb_path=..., egtb_dir=...)`: the options are the engine's own
/// (`kete` then `ugi` lists them), in any case, `_` for a space, but for
/// one: it uses no endgame database unless `egtb_dir` names a folder
/// (`"<cache>"` for the user's cache folder, as the engine), so that a
/// search answers the same on every machine. Given a folder, it plays
/// Kalah and Oware with the database in play: the one `kete egtb prepare`
/// left there, else a small one it builds there once, in about a second.
/// An engine answers one call at a time: give each Python thread its own.
#[pyclass(module = "kete")]
pub struct Engine {
    core: Core,
}

impl Engine {
    fn flush_log(&self, py: Python<'_>) -> PyResult<()> {
        self.core.log.flush(py)
    }
}

#[pymethods]
impl Engine {
    /// Refused, saying why: an engine holds a search, its table and its threads. Pickle its settings and the
    /// positions, and make an engine in each process.
    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "cannot pickle a kete.Engine: an engine holds a search, its table and its threads; pickle the positions (and the engine's settings) and make an engine in each process",
        ))
    }

    #[new]
    #[pyo3(signature = (hash_mb = None, threads = None, **options))]
    fn new(
        hash_mb: Option<i64>,
        threads: Option<i64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Engine> {
        let mut core = Core::new();
        if let Some(h) = hash_mb {
            core.set("Hash", &h.to_string())
                .map_err(OptionError::new_err)?;
        }
        if let Some(t) = threads {
            core.set("Threads", &t.to_string())
                .map_err(OptionError::new_err)?;
        }
        let mut e = Engine { core };
        if let Some(o) = options {
            e.configure(Some(o))?;
        }
        Ok(e)
    }

    /// Sets engine options, as the constructor's keywords.
    #[pyo3(signature = (**options))]
    fn configure(&mut self, options: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        if let Some(o) = options {
            for (k, v) in o.iter() {
                let key: String = k.extract()?;
                let value = option_text(&v)?;
                self.core.set(&key, &value).map_err(OptionError::new_err)?;
            }
        }
        Ok(())
    }

    /// Every engine option with its value, by its protocol name.
    #[getter]
    fn options(&self) -> BTreeMap<String, String> {
        ENGINE_OPTIONS
            .iter()
            .map(|o| (o.name.to_string(), o.value(&self.core.settings)))
            .collect()
    }

    /// Forgets what earlier searches learnt (the engine's `uginewgame`).
    fn new_game(&mut self) {
        self.core.shared.tt.clear();
    }

    /// The database a search of `position` probes (a file, or a name where
    /// it is in memory only), opening or building the one in play first;
    /// `None` where there is none.
    fn database(&mut self, py: Python<'_>, position: &Position) -> PyResult<Option<String>> {
        let variant = position.inner.variant();
        let core = &mut self.core;
        py.detach(|| core.prepare_database(&variant));
        self.flush_log(py)?;
        let fits = |db: &Egtb| kete::protocol::solve::egtb_fits(&variant, db).is_ok();
        Ok(match (&self.core.egtb, &self.core.in_play) {
            (Some(db), _) if fits(db) => self.core.settings.egtb_path.clone(),
            (None, Some(p)) if fits(&p.db) => Some(p.shown()),
            _ => None,
        })
    }

    /// Searches `position` and returns an `Analysis`: the best move and
    /// its line(s), each with its score, depth, nodes and moves.
    ///
    /// Limits: `movetime` in seconds, `depth` in plies, `nodes`; none
    /// given searches until the result is proven or `Ctrl-C`. `multipv`
    /// lines (default: the engine's `MultiPV`). The GIL is released while
    /// it runs; `Ctrl-C` stops it and the analysis so far is returned
    /// (`stopped` is then true).
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
        let limits = Limits {
            depth: whole_opt("depth", depth, 1, search::MAX_DEPTH as i64)?.map(|d| d as u32),
            nodes: whole_opt("nodes", nodes, 1, i64::MAX)?.map(|n| n as u64),
            movetime: seconds("movetime", movetime)?,
            ..Limits::default()
        };
        let multipv = match whole_opt("multipv", multipv, 1, MAX_MULTIPV)? {
            Some(m) => m as usize,
            None => self.core.settings.multipv,
        };
        let started = Instant::now();
        let stop = self.core.shared.stop.clone();
        stop.store(false, Ordering::Relaxed);
        let variant = position.inner.variant();
        let inner = &position.inner;
        let core = &mut self.core;
        let (out, interrupted) = crate::interrupt::run(py, &stop, move || {
            inner.search(&mut SearchJob {
                core,
                variant,
                limits,
                multipv,
            })
        })?;
        stop.store(false, Ordering::Relaxed);
        self.flush_log(py)?;
        let ponder = ponder_of(&*position.inner, out.best.as_deref(), &out.lines);
        Ok(Analysis {
            best_move: out.best,
            lines: out.lines,
            stopped: interrupted,
            elapsed: started.elapsed().as_secs_f64(),
            ponder,
        })
    }

    /// The move the engine plays in `position` (`analyse`'s `best_move`);
    /// `None` when the game is over.
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
            .analyse(py, position, movetime, depth, nodes, Some(1))?
            .best_move)
    }

    /// `analyse` with the move: the same `Analysis` (`best_move` is the
    /// move played).
    #[pyo3(signature = (position, *, movetime = None, depth = None, nodes = None))]
    fn play(
        &mut self,
        py: Python<'_>,
        position: &Position,
        movetime: Option<f64>,
        depth: Option<i64>,
        nodes: Option<i64>,
    ) -> PyResult<Analysis> {
        self.analyse(py, position, movetime, depth, nodes, Some(1))
    }

    /// Solves `position` exactly and returns a `Solution`: in a game
    /// decided by counting, its value (the final seed margin with perfect
    /// play, the side to move's view) and every best move; in Bao a
    /// proven forced win or loss. `time` (seconds) bounds it: an answer
    /// not proven by then carries the bounds proved. `nodes` bounds Bao's
    /// proof; `hash_mb` sets the table (by default sized to the position,
    /// as `kete solve`). Databases: `egtb_path`'s where it fits, else the
    /// one the game chooses, from `egtb_dir` (built there once). The GIL
    /// is released; `Ctrl-C` stops it with what it has.
    #[pyo3(signature = (position, *, time = None, nodes = None, hash_mb = None, all_best = true))]
    fn solve(
        &mut self,
        py: Python<'_>,
        position: &Position,
        time: Option<f64>,
        nodes: Option<i64>,
        hash_mb: Option<i64>,
        all_best: bool,
    ) -> PyResult<Solution> {
        let time = seconds("time", time)?;
        let nodes = whole_opt("nodes", nodes, 1, i64::MAX)?.map(|n| n as u64);
        let hash_mb = whole_opt("hash_mb", hash_mb, 1, MAX_HASH_MIB)?.map(|h| h as usize);
        let started = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let inner = &position.inner;
        let core = &mut self.core;
        let job_stop = stop.clone();
        let (out, interrupted) = crate::interrupt::run(py, &stop, move || {
            inner.solve(&mut SolveJob {
                core,
                time,
                nodes,
                hash_mb,
                all_best,
                stop: job_stop,
            })
        })?;
        self.flush_log(py)?;
        let mut s = out.map_err(UnsolvableError::new_err)?;
        s.stopped = s.stopped || interrupted;
        s.elapsed = started.elapsed().as_secs_f64();
        Ok(s)
    }

    fn __repr__(&self) -> String {
        format!(
            "Engine(hash_mb={}, threads={})",
            self.core.settings.hash_mib, self.core.settings.threads
        )
    }
}

/// The reply a line expects after `best`: the line's second move, where
/// `best` hands the turn to the opponent and the reply is legal then.
pub fn ponder_of(
    position: &dyn crate::position::DynPos,
    best: Option<&str>,
    lines: &[crate::results::Line],
) -> Option<String> {
    let best = best?;
    let pv = &lines.first()?.pv;
    let reply = pv
        .get(1)
        .filter(|_| pv.first().map(String::as_str) == Some(best))?;
    crate::position::expected_reply(position, best, reply)
}
