//! Labels for every move of many positions at once: `kete.analyse_many`
//! (the search's score of each legal move) and `kete.solve_many` (the
//! exact value of each legal move), worked out by one engine per worker
//! thread, without the GIL, in the order of the input whatever the
//! number of workers.
//!
//! They are module functions, not methods of `kete.Engine`: an engine is
//! one search with its own table and threads, and these make one engine
//! per worker (from the same options), so that the answers do not depend
//! on which worker took which position.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use kete::game::Side;
use kete::protocol::options::MAX_MULTIPV;
use kete::search::{self, Limits};
use parking_lot::Mutex;
use pyo3::exceptions::{PyKeyError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::core::{Core, SearchJob, SolveJob};
use crate::engine::seconds;
use crate::position::{DynPos, Position};
use crate::results::{Score, py_list, side_name};
use crate::{OptionError, UnsolvableError, option_text, whole, whole_opt};

/// How often the calling thread looks for a signal and reports progress.
const WATCH: Duration = Duration::from_millis(50);
/// The least time between two calls of a progress callable.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// A value for every legal move of one position: what `analyse_many` or
/// `solve_many` found.
///
/// `moves` are the legal moves in the order of the pits (as
/// `Position.moves()`), `scores` their scores in the same order, each from
/// the side to move's view (`None` where the search gave a move no line);
/// `score` is the position's value and `best_moves` the moves that reach
/// it. `m[move]` is a move's score, `dict(m.items())` all of them. A
/// finished game's position has no moves, no scores and `score` `None`.
#[pyclass(module = "kete", frozen, get_all, from_py_object)]
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MoveValues {
    /// The position's token (`Position.fen`).
    pub fen: String,
    /// The side to move: `"south"` or `"north"`.
    pub side: String,
    /// `"search"` (`analyse_many`) or `"solve"` (`solve_many`).
    pub method: String,
    /// The legal moves, in the order of the pits.
    pub moves: Vec<String>,
    /// Each move's score, the side to move's view, in the order of `moves`.
    pub scores: Vec<Option<Score>>,
    /// The position's value: the best line's score (search) or the best of
    /// the moves' values (solve); `None` once the game is over.
    pub score: Option<Score>,
    /// The search's best move, or every move whose value is the position's
    /// (solve).
    pub best_moves: Vec<String>,
    /// The depth of the search (`None` for a solve).
    pub depth: Option<u32>,
    /// Positions searched or solved for this one.
    pub nodes: u64,
    /// Whether every move's score is exact (proven).
    pub proven: bool,
}

#[pymethods]
impl MoveValues {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        crate::pickle::reduce(py, "MoveValues", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The score of the legal move `move` (`KeyError` for any other text).
    fn __getitem__(&self, r#move: &str) -> PyResult<Option<Score>> {
        self.moves
            .iter()
            .position(|m| m == r#move)
            .map(|i| self.scores[i].clone())
            .ok_or_else(|| PyKeyError::new_err(format!("'{move}' is not a legal move here")))
    }

    fn __contains__(&self, r#move: &str) -> bool {
        self.moves.iter().any(|m| m == r#move)
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    /// `(move, score)` pairs, in the order of `moves`.
    fn items(&self) -> Vec<(String, Option<Score>)> {
        self.moves
            .iter()
            .cloned()
            .zip(self.scores.iter().cloned())
            .collect()
    }

    /// Equal values: every field the same.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<MoveValues>().is_ok_and(|o| *o.get() == *self)
    }

    fn __repr__(&self) -> String {
        let scores: Vec<String> = self
            .items()
            .iter()
            .map(|(m, s)| {
                format!(
                    "'{m}': {}",
                    s.as_ref()
                        .map_or("None".to_string(), |s| format!("'{}'", s.__str__()))
                )
            })
            .collect();
        format!(
            "MoveValues({}, {{{}}}, best_moves={}{})",
            self.method,
            scores.join(", "),
            py_list(&self.best_moves),
            if self.proven { ", proven" } else { "" }
        )
    }
}

/// A score as plain numbers, before it becomes a [`Score`]: centiseeds or
/// moves to a won (lost) game, the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Raw {
    cp: Option<i64>,
    mate: Option<i64>,
    proven: bool,
}

impl Raw {
    /// The other side's view.
    fn turned(self) -> Raw {
        Raw {
            cp: self.cp.map(|c| -c),
            mate: self.mate.map(|m| -m),
            proven: self.proven,
        }
    }

    /// Orders scores from worst to best for the side whose view they are:
    /// a longer loss is better than a shorter one, a shorter win better
    /// than a longer one.
    fn key(self) -> i64 {
        const WON: i64 = 1 << 40;
        match (self.mate, self.cp) {
            (Some(m), _) if m > 0 => WON - m,
            (Some(m), _) => -WON - m,
            (None, Some(c)) => c,
            (None, None) => i64::MIN,
        }
    }

    fn score(self) -> Option<Score> {
        let text = match (self.mate, self.cp) {
            (Some(m), _) => format!("mate {m}"),
            (None, Some(c)) => format!("cp {c}"),
            (None, None) => return None,
        };
        Score::parse(&text, self.proven, None)
    }
}

/// What the calling thread does with the progress.
enum Progress {
    None,
    Print,
    Call(Py<PyAny>),
}

impl Progress {
    fn of(value: Option<&Bound<'_, PyAny>>) -> PyResult<Progress> {
        let Some(v) = value else {
            return Ok(Progress::None);
        };
        if v.is_none() {
            return Ok(Progress::None);
        }
        if let Ok(b) = v.extract::<bool>() {
            return Ok(if b { Progress::Print } else { Progress::None });
        }
        if v.is_callable() {
            return Ok(Progress::Call(v.clone().unbind()));
        }
        Err(PyTypeError::new_err(format!(
            "progress must be None, True or a callable progress(done, total), got {}",
            v.get_type().name()?
        )))
    }

    fn show(&self, py: Python<'_>, done: usize, total: usize, last: bool) -> PyResult<()> {
        match self {
            Progress::None => Ok(()),
            Progress::Print => {
                let err = py.import("sys")?.getattr("stderr")?;
                let end = if last { "\n" } else { "" };
                err.call_method1("write", (format!("\rkete: {done}/{total} positions{end}"),))?;
                err.call_method0("flush")?;
                Ok(())
            }
            Progress::Call(f) => f.call1(py, (done, total)).map(drop),
        }
    }
}

/// The positions of a Python iterable, or a `TypeError` naming the first
/// item that is not a `kete.Position`.
fn positions_of(positions: &Bound<'_, PyAny>) -> PyResult<Vec<Box<dyn DynPos>>> {
    if positions.cast::<Position>().is_ok() {
        return Err(PyTypeError::new_err(
            "positions must be a list (or any iterable) of kete.Position, not one position: pass [position]",
        ));
    }
    let items = positions.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "positions must be a list (or any iterable) of kete.Position, got {}",
            positions
                .get_type()
                .name()
                .map_or("?".to_string(), |n| n.to_string())
        ))
    })?;
    let mut out = Vec::new();
    for (i, item) in items.enumerate() {
        let item = item?;
        let p = item.cast::<Position>().map_err(|_| {
            PyTypeError::new_err(format!(
                "positions[{i}] is a {}, not a kete.Position",
                item.get_type()
                    .name()
                    .map_or("?".to_string(), |n| n.to_string())
            ))
        })?;
        out.push(p.get().inner.clone_box());
    }
    Ok(out)
}

/// One engine per worker, each searching with one thread, set up with the
/// engine options given (as `kete.Engine`'s keywords).
fn engines(workers: usize, options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<Core>> {
    let squash = |s: &str| s.replace([' ', '_'], "").to_ascii_lowercase();
    let mut settings: Vec<(String, String)> = Vec::new();
    if let Some(o) = options {
        for (k, v) in o.iter() {
            let key: String = k.extract()?;
            let key = match squash(&key).as_str() {
                "threads" => {
                    return Err(OptionError::new_err(
                        "threads= is the number of workers here; each worker's engine searches with one thread",
                    ));
                }
                "hashmb" => "Hash".to_string(),
                _ => key,
            };
            settings.push((key, option_text(&v)?));
        }
    }
    (0..workers)
        .map(|_| {
            let mut core = Core::new();
            core.set("Threads", "1").map_err(OptionError::new_err)?;
            for (k, v) in &settings {
                core.set(k, v).map_err(OptionError::new_err)?;
            }
            Ok(core)
        })
        .collect()
}

/// The number of workers: `threads`, else every core, never more than the
/// positions.
fn workers(threads: Option<i64>, positions: usize) -> PyResult<usize> {
    let n = match threads {
        Some(t) => whole("threads", t, 1, 1024)? as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    Ok(n.min(positions).max(1))
}

fn panic_text(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "no message".into())
}

/// Runs `work(state, i)` for every `i` in `0..total`, each worker thread
/// with a state of its own (`states`), taking the next position as it
/// finishes one. The calling thread, without the GIL between looks, reports
/// `progress` and watches for signals: `Ctrl-C` (or any exception a signal
/// handler or the progress callable raises) sets every flag of `stops`,
/// waits for the workers and is raised. The answers are in the order of
/// `i`.
fn run_pool<W: Send, R: Send>(
    py: Python<'_>,
    states: &mut [W],
    total: usize,
    progress: &Progress,
    stops: &[Arc<AtomicBool>],
    work: impl Fn(&mut W, usize) -> R + Sync,
) -> PyResult<Vec<R>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..total).map(|_| None).collect());
    let halt = stops[0].clone();
    let stop_all = || {
        for s in stops {
            s.store(true, Ordering::Relaxed);
        }
    };
    let (tx, rx) = channel::<Result<(), String>>();
    std::thread::scope(|s| -> PyResult<()> {
        let mut failure: Option<PyErr> = None;
        for state in states.iter_mut() {
            let tx = tx.clone();
            let (next, results, work, halt) = (&next, &results, &work, &halt);
            let spawned = std::thread::Builder::new()
                .name("kete-bulk".into())
                .stack_size(kete::solve::resources::STACK)
                .spawn_scoped(s, move || {
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        while !halt.load(Ordering::Relaxed) {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= total {
                                break;
                            }
                            let out = work(state, i);
                            results.lock()[i] = Some(out);
                            let _ = tx.send(Ok(()));
                        }
                    }));
                    if let Err(p) = r {
                        let _ = tx.send(Err(panic_text(p)));
                    }
                });
            if let Err(e) = spawned {
                stop_all();
                failure = Some(PyRuntimeError::new_err(format!(
                    "kete: cannot start a thread: {e}"
                )));
                break;
            }
        }
        drop(tx);
        let mut done = 0usize;
        let mut shown: Option<usize> = None;
        let mut last_call: Option<Instant> = None;
        let mut rx = rx;
        loop {
            let (got, back) = py.detach(move || (rx.recv_timeout(WATCH), rx));
            rx = back;
            match got {
                Ok(Ok(())) => done += 1,
                Ok(Err(why)) => {
                    stop_all();
                    failure.get_or_insert_with(|| {
                        PyRuntimeError::new_err(format!(
                            "kete failed inside (a bug: please report it): {why}"
                        ))
                    });
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
            if failure.is_some() {
                continue;
            }
            if let Err(e) = py.check_signals() {
                stop_all();
                failure = Some(e);
                continue;
            }
            let due = last_call.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
            if shown != Some(done) && done < total && due {
                if let Err(e) = progress.show(py, done, total, false) {
                    stop_all();
                    failure = Some(e);
                    continue;
                }
                shown = Some(done);
                last_call = Some(Instant::now());
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        progress.show(py, done, total, true)
    })?;
    results
        .into_inner()
        .into_iter()
        .map(|r| r.ok_or_else(|| PyRuntimeError::new_err("kete: a position was left out")))
        .collect()
}

/// The values of a finished game's position: none.
fn over(pos: &dyn DynPos, method: &str) -> MoveValues {
    MoveValues {
        fen: pos.fen(),
        side: side_name(pos.side_to_move()).into(),
        method: method.into(),
        moves: Vec::new(),
        scores: Vec::new(),
        score: None,
        best_moves: Vec::new(),
        depth: None,
        nodes: 0,
        proven: true,
    }
}

/// One position's search with a line for every legal move, as
/// `Engine.analyse(position, multipv=len(moves))` after `new_game()`.
fn label_search(core: &mut Core, pos: &dyn DynPos, limits: &Limits) -> MoveValues {
    let moves = pos.moves();
    if pos.outcome().is_some() || moves.is_empty() {
        return over(pos, "search");
    }
    // Each position from an empty table, as a fresh engine: the answer
    // does not depend on what the worker searched before.
    core.shared.tt.clear();
    let out = pos.search(&mut SearchJob {
        core,
        variant: pos.variant(),
        limits: limits.clone(),
        multipv: moves.len().min(MAX_MULTIPV as usize),
    });
    let scores: Vec<Option<Score>> = moves
        .iter()
        .map(|m| {
            out.lines
                .iter()
                .find(|l| l.pv.first() == Some(m))
                .and_then(|l| l.score.clone())
        })
        .collect();
    let first = out.lines.first();
    MoveValues {
        fen: pos.fen(),
        side: side_name(pos.side_to_move()).into(),
        method: "search".into(),
        proven: scores.iter().all(|s| s.as_ref().is_some_and(|s| s.proven)),
        moves,
        scores,
        score: first.and_then(|l| l.score.clone()),
        best_moves: out.best.into_iter().collect(),
        depth: first.and_then(|l| l.depth),
        nodes: first.and_then(|l| l.nodes).unwrap_or(0),
    }
}

/// The value of a finished game for `mover`: the final margin where the
/// game counts seeds, else a won or lost game at once (or a draw).
fn final_value(o: &kete::Outcome, mover: Side) -> Raw {
    let (cp, mate) = match (o.seeds, o.result.winner()) {
        (Some((s, n)), _) => {
            let south = s as i64 - n as i64;
            let m = if mover == Side::South { south } else { -south };
            (Some(100 * m), None)
        }
        (None, Some(w)) => (None, Some(if w == mover { 1 } else { -1 })),
        (None, None) => (Some(0), None),
    };
    Raw {
        cp,
        mate,
        proven: true,
    }
}

/// One position's moves, each valued by the exact solver: the position
/// after the move solved (as `Engine.solve`), its value turned to the
/// mover's view unless the move keeps the turn; a move that ends the game
/// is worth the final margin.
fn label_solve(
    core: &mut Core,
    pos: &dyn DynPos,
    time: Option<Duration>,
    nodes: Option<u64>,
    stop: &Arc<AtomicBool>,
) -> Result<MoveValues, String> {
    let moves = pos.moves();
    if pos.outcome().is_some() || moves.is_empty() {
        return Ok(over(pos, "solve"));
    }
    let mover = pos.side_to_move();
    let mut raws: Vec<Option<Raw>> = Vec::with_capacity(moves.len());
    let mut searched = 0u64;
    for m in &moves {
        let child = pos
            .after(m)
            .map_err(|e| format!("move '{m}' of the position's own list: {e}"))?;
        if let Some((o, _)) = child.outcome() {
            raws.push(Some(final_value(&o, mover)));
            continue;
        }
        let s = child.solve(&mut SolveJob {
            core: &mut *core,
            time,
            nodes,
            hash_mb: None,
            all_best: false,
            stop: stop.clone(),
        })?;
        searched += s.nodes;
        let raw = (s.value.is_some() || s.mate.is_some()).then_some(Raw {
            cp: s.value.map(|v| 100 * v),
            mate: s.mate,
            proven: s.proven,
        });
        let keeps_turn = child.side_to_move() == mover;
        raws.push(raw.map(|r| if keeps_turn { r } else { r.turned() }));
    }
    let best = if raws.iter().all(Option::is_some) {
        raws.iter().flatten().map(|r| r.key()).max()
    } else {
        None
    };
    let proven = raws.iter().all(|r| r.is_some_and(|r| r.proven));
    let best_raw = best.and_then(|k| raws.iter().flatten().find(|r| r.key() == k).copied());
    Ok(MoveValues {
        fen: pos.fen(),
        side: side_name(mover).into(),
        method: "solve".into(),
        best_moves: moves
            .iter()
            .zip(&raws)
            .filter(|(_, r)| best.is_some() && r.map(|r| r.key()) == best)
            .map(|(m, _)| m.clone())
            .collect(),
        moves,
        scores: raws.iter().map(|r| r.and_then(Raw::score)).collect(),
        score: best_raw.and_then(|r| Raw { proven, ..r }.score()),
        depth: None,
        nodes: searched,
        proven,
    })
}

/// Searches every position and scores every legal move: a list of
/// `MoveValues`, in the order of `positions`.
///
/// Each position's values are those of `Engine(threads=1,
/// **engine_options)` after `new_game()`, `analyse(position, depth=…,
/// multipv=len(position.moves()))`: each move's score is its line's.
/// One limit at least (`depth` plies, `movetime` seconds or `nodes` a
/// position) bounds each search; with `depth` or `nodes` the answers are
/// the same whatever the number of workers. `threads` workers (default:
/// every core), each with an engine of its own searching with one thread,
/// take the positions in turn. The GIL is released; `Ctrl-C` stops every
/// worker and raises `KeyboardInterrupt`. `progress`: a callable
/// `progress(done, total)`, called from the calling thread now and then
/// and once at the end, or `True` for a counter on stderr.
#[pyfunction]
#[pyo3(signature = (positions, *, depth = None, movetime = None, nodes = None, threads = None, progress = None, **engine_options))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    depth: Option<i64>,
    movetime: Option<f64>,
    nodes: Option<i64>,
    threads: Option<i64>,
    progress: Option<&Bound<'_, PyAny>>,
    engine_options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<MoveValues>> {
    let limits = Limits {
        depth: whole_opt("depth", depth, 1, search::MAX_DEPTH as i64)?.map(|d| d as u32),
        nodes: whole_opt("nodes", nodes, 1, i64::MAX)?.map(|n| n as u64),
        movetime: seconds("movetime", movetime)?,
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        return Err(OptionError::new_err(
            "analyse_many needs a limit for each search: depth, movetime or nodes",
        ));
    }
    let progress = Progress::of(progress)?;
    let positions = positions_of(positions)?;
    let n = workers(threads, positions.len())?;
    let mut cores = engines(n, engine_options)?;
    if positions.is_empty() {
        return Ok(Vec::new());
    }
    let mut stops = vec![Arc::new(AtomicBool::new(false))];
    stops.extend(cores.iter().map(|c| c.shared.stop.clone()));
    let out = run_pool(
        py,
        &mut cores,
        positions.len(),
        &progress,
        &stops,
        |core, i| label_search(core, positions[i].as_ref(), &limits),
    );
    for c in &cores {
        c.log.flush(py)?;
    }
    out
}

/// Solves the position after every legal move of every position: a list
/// of `MoveValues`, in the order of `positions`.
///
/// A move's value is `Engine(threads=1, **engine_options).solve(
/// position.play(move), time=…, nodes=…, all_best=False)`'s (the value
/// alone: not every best move of the position after it), from the
/// mover's view: turned where the move hands
/// the turn over, kept where it gives the mover another turn (Kalah's
/// store), the final margin where it ends the game. `score` is the best of
/// them (the position's exact value: `Engine.solve(position).value`) and
/// `best_moves` the moves that keep it. `time` (seconds) and `nodes` (Bao)
/// bound each of those solves; a value not proven by then is the estimate
/// (`proven` is then false). In Bao a value is a won or lost game
/// (`mate`). `threads` workers (default: every core), each with an engine
/// of its own solving with one thread, take the positions in turn; the
/// answers do not depend on their number. The GIL is released; `Ctrl-C`
/// stops every worker and raises `KeyboardInterrupt`. `progress` as in
/// `analyse_many`. A variant the solver cannot take raises
/// `UnsolvableError`.
#[pyfunction]
#[pyo3(signature = (positions, *, time = None, nodes = None, threads = None, progress = None, **engine_options))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    time: Option<f64>,
    nodes: Option<i64>,
    threads: Option<i64>,
    progress: Option<&Bound<'_, PyAny>>,
    engine_options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<MoveValues>> {
    let time = seconds("time", time)?;
    let nodes = whole_opt("nodes", nodes, 1, i64::MAX)?.map(|n| n as u64);
    let progress = Progress::of(progress)?;
    let positions = positions_of(positions)?;
    let n = workers(threads, positions.len())?;
    let mut cores = engines(n, engine_options)?;
    if positions.is_empty() {
        return Ok(Vec::new());
    }
    let stops = vec![Arc::new(AtomicBool::new(false))];
    let stop = stops[0].clone();
    let out = run_pool(
        py,
        &mut cores,
        positions.len(),
        &progress,
        &stops,
        |core, i| label_solve(core, positions[i].as_ref(), time, nodes, &stop),
    );
    for c in &cores {
        c.log.flush(py)?;
    }
    out?.into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| UnsolvableError::new_err(format!("positions[{i}]: {e}"))))
        .collect()
}
