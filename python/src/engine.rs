//! `kete.Engine`: kete's search and solver in process, set up as the
//! engine's protocol sets them up (its options table, the database in play,
//! the exact solver inside a search), answering with Python objects.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use kete::game::{DbSpec, Evaluator, Game, GameRecord, SolveGame};
use kete::protocol::database::{self, InPlay};
use kete::protocol::options::{
    CACHE, EMPTY, ENGINE_OPTIONS, Effect, MAX_HASH_MIB, MAX_MULTIPV, Settings,
};
use kete::search::tt::Bound as TtBound;
use kete::search::{self, Exact, Limits, Report, Shared};
use kete::solve::pns::{ProveOptions, Verdict, prove};
use kete::solve::{Deadline, Egtb, SolveOptions, Tablebase, solve_with_tablebase};
use kete::variants::Variant;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::interrupt::Log;
use crate::position::{Caps, Position, side_name};
use crate::results::{Analysis, Line, Score, Solution};
use crate::{OptionError, UnsolvableError, whole_opt};

/// The engine's state between calls: its options, its table and its
/// databases.
pub struct Core {
    settings: Settings,
    shared: Arc<Shared>,
    /// The database of `EgtbPath`.
    egtb: Option<Arc<Egtb>>,
    /// The database the search plays with when `EgtbPath` names none.
    in_play: Option<InPlay>,
    /// The databases solves chose, kept for the next ones.
    chosen: Vec<Arc<Egtb>>,
    /// The variant (with its rules) searched last: the table is cleared
    /// when it changes, as the engine clears it.
    last: Option<Variant>,
    log: Log,
}

impl Core {
    fn new() -> Core {
        let settings = Settings::default();
        Core {
            shared: Shared::new(settings.hash_mib),
            settings,
            egtb: None,
            in_play: None,
            chosen: Vec::new(),
            last: None,
            log: Log::default(),
        }
    }

    /// Sets an engine option by its protocol name or a Python spelling of
    /// it (`move_overhead` for `Move Overhead`, any case).
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let squash = |s: &str| s.replace([' ', '_'], "").to_ascii_lowercase();
        let option = ENGINE_OPTIONS
            .iter()
            .find(|o| squash(o.name) == squash(key))
            .ok_or_else(|| {
                format!(
                    "unknown engine option '{key}' (known: {})",
                    ENGINE_OPTIONS
                        .iter()
                        .map(|o| o.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        match option.set(&mut self.settings, value)? {
            Effect::None => {}
            Effect::Resize => self.shared = Shared::new(self.settings.hash_mib),
            Effect::DropDatabase => self.egtb = None,
            Effect::ForgetChosen => {
                self.chosen.clear();
                self.in_play = None;
            }
            Effect::LoadDatabase(path) => {
                let db = kete::solve::load(&path).map_err(|e| format!("EgtbPath '{path}': {e}"))?;
                self.egtb = Some(Arc::new(db));
                self.settings.egtb_path = Some(path);
            }
        }
        Ok(())
    }

    /// The folder `EgtbDir` names, if any.
    fn egtb_folder(&self) -> Option<PathBuf> {
        match self.settings.egtb_dir.as_str() {
            CACHE => kete::solve::cache::default_dir(),
            EMPTY => None,
            dir => Some(dir.into()),
        }
    }

    /// Opens or builds the database `variant` plays with (as the engine
    /// does at `isready`), unless `EgtbPath` names one or `EgtbDir` none.
    fn prepare_database(&mut self, variant: &Variant) {
        if self.egtb.is_some() {
            return;
        }
        let Some(dir) = self.egtb_folder() else {
            self.in_play = None;
            return;
        };
        let Some(choice) = database::choice(variant, false) else {
            return;
        };
        if database::serves(&self.in_play, choice.game) {
            return;
        }
        self.in_play = database::open(&dir, choice, 0, &self.log.output());
    }

    /// The database the search probes: `EgtbPath`'s, or the one in play.
    fn database_for_search(&self) -> Option<Arc<Egtb>> {
        match &self.egtb {
            Some(db) => Some(db.clone()),
            None => self.in_play.as_ref().map(|p| p.db.clone()),
        }
    }

    /// The database a solve of `seeds` seeds in play chooses under `rules`
    /// in `EgtbDir` (built and kept there the first time), if any.
    fn chosen_database<G: DbSpec>(&mut self, rules: &G::Rules, seeds: u32) -> Option<Arc<Egtb>> {
        let dir = self.egtb_folder()?;
        let choice = kete::solve::cache::choose::<G>(rules, seeds as usize)?;
        if let Some(db) = self.chosen.iter().find(|db| choice.served_by(db)) {
            return Some(db.clone());
        }
        let opts = kete::solve::egtb::BuildOptions {
            threads: self.settings.threads,
            report_every: Duration::from_secs(2),
        };
        let out = self.log.output();
        match kete::solve::cache::open_or_build(
            Some(&dir),
            choice.game,
            choice.seeds,
            choice.max_boards,
            &opts,
            &mut |_| {},
            &mut |m| out.line(m),
        ) {
            Ok((db, _)) => {
                let db = Arc::new(db);
                self.chosen.push(db.clone());
                Some(db)
            }
            Err(e) => {
                out.error(&format!("no database: {e}"));
                None
            }
        }
    }
}

/// One search: the engine, the limits and the stop flag.
pub struct SearchJob<'a> {
    pub core: &'a mut Core,
    pub variant: Variant,
    pub limits: Limits,
    pub multipv: usize,
}

/// What a search found, before it becomes an [`Analysis`].
pub struct SearchOut {
    pub best: Option<String>,
    pub lines: Vec<Line>,
}

fn pv_texts<G: Game>(root: &G, pv: &[G::Move]) -> Vec<String> {
    kete::protocol::text::line_text(root, pv)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn bound_word(b: Option<TtBound>) -> Option<&'static str> {
    match b {
        Some(TtBound::Lower) => Some("lower"),
        Some(TtBound::Upper) => Some("upper"),
        _ => None,
    }
}

/// The search of the position a record ends in, set up as the engine's
/// `go` sets it up: the history for repetitions, the database in play as
/// its probe, the exact solver first where the game allows it.
pub fn search_record<G: Game>(
    record: &GameRecord<G>,
    caps: &Caps<G>,
    job: &mut SearchJob<'_>,
) -> SearchOut {
    let root = record.position().clone();
    if let Some(o) = record.ended_by_repetition() {
        let score = search::terminal_score(&o, root.side_to_move(), 0);
        return SearchOut {
            best: None,
            lines: vec![Line {
                multipv: 1,
                score: Some(Score::of_engine(score, true, None)),
                depth: Some(0),
                seldepth: None,
                nodes: Some(0),
                time: Some(0.0),
                tbhits: None,
                pv: Vec::new(),
            }],
        };
    }
    if job.core.last != Some(job.variant) {
        job.core.shared.tt.clear();
        job.core.last = Some(job.variant);
    }
    job.core.prepare_database(&job.variant);
    let core = &*job.core;
    let rules = root.rules();
    let db = core.database_for_search();
    let threads = core.settings.threads;
    let settings = search::Settings::<G> {
        threads,
        multipv: job.multipv,
        move_overhead: Duration::from_millis(core.settings.move_overhead_ms),
        eval: G::Eval::by_name(&core.settings.eval).unwrap_or_default(),
        tablebase: db.as_ref().and_then(|db| (caps.probe)(db, &rules)),
        exact: if core.settings.solve_endgames {
            (caps.exact)(
                db.as_ref(),
                &rules,
                record.positions(),
                Arc::default(),
                threads,
            )
        } else {
            None
        },
    };
    let history: Vec<u64> = record.positions().iter().map(|p| p.hash()).collect();
    let mut reports: BTreeMap<usize, Report<G::Move>> = BTreeMap::new();
    let result = search::search(
        &root,
        &history,
        &job.limits,
        &settings,
        &core.shared,
        &mut |r| {
            reports.insert(r.multipv, r.clone());
        },
    );
    let line = |r: &Report<G::Move>| Line {
        multipv: r.multipv,
        score: Some(Score::of_engine(r.score, r.proven, bound_word(r.bound))),
        depth: Some(r.depth),
        seldepth: Some(r.seldepth),
        nodes: Some(r.nodes),
        time: Some(r.time.as_secs_f64()),
        tbhits: Some(r.tbhits),
        pv: pv_texts(&root, &r.pv),
    };
    let first = reports.get(&1);
    let mut lines = vec![Line {
        multipv: 1,
        score: Some(Score::of_engine(result.score, result.proven, None)),
        depth: Some(result.depth),
        seldepth: first.map(|r| r.seldepth),
        nodes: Some(result.nodes),
        time: first.map(|r| r.time.as_secs_f64()),
        tbhits: first.map(|r| r.tbhits),
        pv: pv_texts(&root, &result.pv),
    }];
    lines.extend(reports.values().filter(|r| r.multipv > 1).map(line));
    SearchOut {
        best: result.best.map(|m| root.format_move(m)),
        lines,
    }
}

/// The exact solver inside a search, for a game with databases: with the
/// database in play where it answers these rules exactly (as the engine).
pub fn exact_with_db<G: DbSpec>(
    db: Option<&Arc<Egtb>>,
    rules: &G::Rules,
    line: &[G],
    attempts: Arc<parking_lot::Mutex<kete::protocol::exact::Attempts>>,
    threads: usize,
) -> Option<Exact<G>> {
    let table = db
        .filter(|db| db.check::<G>(rules).is_ok() && G::db_refused(rules).is_none())
        .map(|db| db.clone() as Arc<dyn Tablebase<G>>);
    kete::protocol::exact::exact(table, line, attempts, threads)
}

/// One solve: the engine, its limits and the stop flag.
pub struct SolveJob<'a> {
    pub core: &'a mut Core,
    pub time: Option<Duration>,
    /// Bao's proof search: a node budget.
    pub nodes: Option<u64>,
    pub hash_mb: Option<usize>,
    pub all_best: bool,
    pub stop: Arc<AtomicBool>,
}

/// What a solve proved, before it becomes a [`Solution`].
pub type SolveOut = Solution;

fn check_not_over<G: Game>(record: &GameRecord<G>) -> Result<(), String> {
    if record.outcome().is_some() {
        return Err("the game is over: nothing to solve".into());
    }
    Ok(())
}

/// A solve by counting in a game with databases: `EgtbPath`'s database
/// where it fits, else the one the game chooses for the position in
/// `EgtbDir` (as `go solve`).
pub fn solve_with_databases<G: DbSpec>(
    record: &GameRecord<G>,
    _: &Caps<G>,
    job: &mut SolveJob<'_>,
) -> Result<SolveOut, String> {
    check_not_over(record)?;
    // A database built for the solve counts against its time.
    let deadline = job.time.map(|t| Deadline::start(t, job.stop.clone()));
    let pos = record.position();
    let rules = pos.rules();
    let refused = G::db_refused(&rules);
    let named = job
        .core
        .egtb
        .clone()
        .filter(|db| refused.is_none() && db.check::<G>(&rules).is_ok());
    let db = match named {
        Some(db) => Some(db),
        None if refused.is_none() => job.core.chosen_database::<G>(&rules, pos.seeds_in_play()),
        None => None,
    };
    let name = db
        .as_ref()
        .map(|d| format!("{}-{}", d.game().slug(), d.max_seeds()));
    let tb = db.as_deref().map(|d| d as &dyn Tablebase<G>);
    let mut s = solve_table::<G>(record, job, tb);
    drop(deadline);
    s.database = name;
    Ok(s)
}

/// A solve by counting without databases.
pub fn solve_counting<G: SolveGame>(
    record: &GameRecord<G>,
    _: &Caps<G>,
    job: &mut SolveJob<'_>,
) -> Result<SolveOut, String> {
    check_not_over(record)?;
    let _deadline = job.time.map(|t| Deadline::start(t, job.stop.clone()));
    Ok(solve_table::<G>(record, job, None))
}

/// A game the solver cannot take.
pub fn solve_refused<G: Game>(
    _: &GameRecord<G>,
    caps: &Caps<G>,
    _: &mut SolveJob<'_>,
) -> Result<SolveOut, String> {
    Err(format!(
        "this variant cannot be solved: {}",
        caps.unsolvable.unwrap_or("the solver does not take it")
    ))
}

fn solve_table<G: SolveGame>(
    record: &GameRecord<G>,
    job: &mut SolveJob<'_>,
    tb: Option<&dyn Tablebase<G>>,
) -> Solution {
    let pos = record.position();
    let positions = record.positions();
    let history: Vec<(u64, u32)> = positions[..positions.len() - 1]
        .iter()
        .map(|p| (p.hash(), p.seeds_in_play()))
        .collect();
    let opts = SolveOptions {
        // The table `kete solve` takes when its user names none.
        hash_mb: job.hash_mb.unwrap_or_else(|| {
            kete::solve::resources::fitted_hash_mb(pos.seeds_in_play(), pos.pits_per_row())
        }),
        table_fits_graph: job.hash_mb.is_none(),
        all_best: job.all_best,
        threads: job.core.settings.threads,
        history,
        stop: Some(job.stop.clone()),
        graph_budget: kete::solve::resources::fitted_graph_positions(
            kete::solve::cache::available_memory(),
        ),
        ..SolveOptions::default()
    };
    let r = solve_with_tablebase(pos, &opts, tb, &mut |_| {});
    let best: Vec<String> = r.best.iter().map(|&m| pos.format_move(m)).collect();
    Solution {
        proven: r.complete,
        value: Some(r.value as i64),
        lower: Some(r.lower as i64),
        upper: Some(r.upper as i64),
        best_moves: best,
        verdict: None,
        mate: None,
        pv: Vec::new(),
        side: side_name(pos.side_to_move()).into(),
        nodes: r.nodes,
        tbhits: r.tbhits,
        database: None,
        stopped: !r.complete,
        elapsed: 0.0,
    }
}

/// A proof in a game won or lost without counting (Bao), as `go solve`.
pub fn solve_proof<G: Game>(
    record: &GameRecord<G>,
    _: &Caps<G>,
    job: &mut SolveJob<'_>,
) -> Result<SolveOut, String> {
    check_not_over(record)?;
    let pos = record.position();
    let opts = ProveOptions {
        hash_mb: job.hash_mb.unwrap_or(kete::solve::pns::DEFAULT_HASH_MB),
        nodes: job.nodes,
        time: job.time,
        stop: Some(job.stop.clone()),
        ..ProveOptions::default()
    };
    let r = prove(pos, &opts, &mut |_| {});
    let pv = pv_texts(pos, &r.pv);
    let (verdict, mate) = match r.verdict {
        Verdict::Win => (Some("win"), Some(r.plies.div_ceil(2) as i64)),
        Verdict::Loss => (Some("loss"), Some(-(r.plies.div_ceil(2) as i64))),
        Verdict::Unproven => (None, None),
    };
    Ok(Solution {
        proven: verdict.is_some(),
        value: None,
        lower: None,
        upper: None,
        best_moves: pv.first().cloned().into_iter().collect(),
        verdict: verdict.map(str::to_string),
        mate,
        pv,
        side: side_name(pos.side_to_move()).into(),
        nodes: r.nodes,
        tbhits: 0,
        database: None,
        stopped: verdict.is_none() && r.ended != kete::solve::pns::Ended::NoForcedWin,
        elapsed: 0.0,
    })
}

/// A Python value as an option's text: `True` → `true`, `None` →
/// `<empty>`, a path → its text.
pub fn option_text(val: &Bound<'_, PyAny>) -> PyResult<String> {
    if val.is_none() {
        return Ok(EMPTY.to_string());
    }
    if let Ok(b) = val.extract::<bool>() {
        return Ok(b.to_string());
    }
    Ok(val.str()?.to_string())
}

fn seconds(what: &str, s: Option<f64>) -> PyResult<Option<Duration>> {
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
/// (`kete` then `ugi` lists them), in any case, `_` for a space. As the
/// engine, it plays Kalah and Oware with the database in play: the one
/// `kete egtb prepare` left in `egtb_dir` (the user's cache folder by
/// default), else a small one it builds there once, in about a second.
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
        Ok(Analysis {
            best_move: out.best,
            lines: out.lines,
            stopped: interrupted,
            elapsed: started.elapsed().as_secs_f64(),
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
