//! The engine's state between calls ([`Core`]) and what a search or a
//! solve of one game type does with it; [`Caps`] holds those functions
//! for a game, so that a [`Position`](crate::position::Position) of any
//! variant can call them through its trait object.

use std::any::Any;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kete::game::{DbSpec, Evaluator, Game, GameRecord, SolveGame};
use kete::protocol::database::{self, InPlay};
use kete::protocol::options::{CACHE, EMPTY, ENGINE_OPTIONS, Effect, Settings};
use kete::search::level::{self, Player};
use kete::search::tt::Bound as TtBound;
use kete::search::{self, Exact, Limits, Probe, Report, Shared};
use kete::solve::pns::{ProveOptions, Verdict, prove};
use kete::solve::{Deadline, Egtb, SolveOptions, Tablebase, solve_with_tablebase};
use kete::variants::{SolveVisitor, Variant};

use crate::interrupt::Log;
use crate::results::side_name;
use crate::results::{Line, Score, Solution};

/// The engine's state between calls: its options, its table and its
/// databases.
pub struct Core {
    pub(crate) settings: Settings,
    pub(crate) shared: Arc<Shared>,
    /// The database of `EgtbPath`.
    pub(crate) egtb: Option<Arc<Egtb>>,
    /// The database the search plays with when `EgtbPath` names none.
    pub(crate) in_play: Option<InPlay>,
    /// The databases solves chose, kept for the next ones.
    pub(crate) chosen: Vec<Arc<Egtb>>,
    /// The variant (with its rules) searched last: the table is cleared
    /// when it changes, as the engine clears it.
    pub(crate) last: Option<Variant>,
    pub(crate) log: Log,
    /// The seed of the levels' choices (`seed=`): with one, a level plays
    /// the same move in the same position every time; without, it draws
    /// from the operating system's randomness.
    pub(crate) seed: Option<u64>,
}

impl Core {
    pub(crate) fn new() -> Core {
        // No database unless asked for (`egtb_dir=`): the engine's default,
        // the user's cache, holds whatever `kete egtb prepare` left there,
        // and a search that plays with it answers differently from one
        // machine to the next.
        let settings = Settings {
            egtb_dir: EMPTY.to_string(),
            ..Settings::default()
        };
        Core {
            shared: Shared::new(settings.hash_mib),
            settings,
            egtb: None,
            in_play: None,
            chosen: Vec::new(),
            last: None,
            log: Log::default(),
            seed: None,
        }
    }

    /// Sets an engine option by its protocol name or a Python spelling of
    /// it (`move_overhead` for `Move Overhead`, any case).
    pub(crate) fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let squash = |s: &str| s.replace([' ', '_'], "").to_ascii_lowercase();
        // `level=` and `elo=`: a level by name, or by strength on the
        // levels' Elo scale (`UCI_LimitStrength` with `UCI_Elo`).
        match squash(key).as_str() {
            "level" => {
                self.set_one("Level", value)?;
                self.set_one("UCI_LimitStrength", "false")
            }
            "elo" => {
                self.set_one("UCI_Elo", value)?;
                self.set_one("UCI_LimitStrength", "true")
            }
            "seed" => {
                self.seed = match value.trim() {
                    "" | EMPTY | "None" | "none" => None,
                    v => Some(v.parse::<u64>().map_err(|_| {
                        format!("seed '{v}' is not a whole number in 0..{}", u64::MAX)
                    })?),
                };
                Ok(())
            }
            _ => self.set_one(key, value),
        }
    }

    /// Sets the engine option `key` (any spelling [`Core::set`] takes but
    /// the `level`/`elo` shorthands).
    fn set_one(&mut self, key: &str, value: &str) -> Result<(), String> {
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
    pub(crate) fn prepare_database(&mut self, variant: &Variant) {
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
    let player = Player::from_options::<G>(
        &root.rules(),
        &job.core.settings.level,
        job.core.settings.limit_strength,
        job.core.settings.elo,
    );
    // A game on the clock takes the book's move, as the engine's `go` does.
    if player == Player::Full
        && job.core.settings.own_book
        && search::book::plays_from_book(&job.limits, job.multipv)
    {
        let book = search::book::Book::<G>::compiled(&root.rules());
        if let Some(b) = book.choose_at_random(&root) {
            let text = root.format_move(b.mv);
            return SearchOut {
                best: Some(text.clone()),
                lines: vec![Line {
                    multipv: 1,
                    score: Some(Score::of_engine(b.score, false, None)),
                    depth: Some(0),
                    seldepth: None,
                    nodes: Some(0),
                    time: Some(0.0),
                    tbhits: None,
                    pv: vec![text],
                }],
            };
        }
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
    let mut keep = |r: &Report<G::Move>| {
        reports.insert(r.multipv, r.clone());
    };
    let result = level::play(
        &root,
        &history,
        &job.limits,
        &settings,
        &core.shared,
        player,
        // One seed for the game, mixed with the position: the same move in
        // the same position, whatever came before.
        job.core.seed.map(|s| s ^ root.hash()),
        &mut keep,
    );
    if player != Player::Full {
        // A level's lines are every move it weighed; the answer is the
        // one it chose.
        reports.clear();
    }
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

/// How the engine turns a loaded database into its game's probe.
pub type ProbeOf<G> = fn(&Arc<Egtb>, &<G as Game>::Rules) -> Option<Probe<G>>;

/// How the engine makes the exact solver its searches try first.
pub type ExactOf<G> = fn(
    Option<&Arc<Egtb>>,
    &<G as Game>::Rules,
    &[G],
    Arc<parking_lot::Mutex<kete::protocol::exact::Attempts>>,
    usize,
) -> Option<Exact<G>>;

/// How the engine solves a position of the game.
pub type SolveOf<G> = fn(&GameRecord<G>, &Caps<G>, &mut SolveJob<'_>) -> Result<SolveOut, String>;

/// What the solver can do with a game: the functions that need more of it
/// than [`Board`] ([`DbSpec`], [`SolveGame`]), chosen by the registry's
/// `solver` column.
pub struct Caps<G: Game> {
    pub probe: ProbeOf<G>,
    pub exact: ExactOf<G>,
    pub solve: SolveOf<G>,
    /// Why the solver cannot take the game, where it cannot.
    pub unsolvable: Option<&'static str>,
}

impl<G: Game> Clone for Caps<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Caps<G> {}

/// Builds [`Caps`] for the variant, boxed: the registry's two visitors name
/// the same game type, so [`MakePos`] gets it back by its type.
pub struct MakeCaps;

impl SolveVisitor for MakeCaps {
    type Output = Box<dyn Any + Send>;
    fn with_databases<G: DbSpec>(self, _: G::Rules) -> Self::Output {
        Box::new(Caps::<G> {
            probe: kete::protocol::solve::probe::<G>,
            exact: exact_with_db::<G>,
            solve: solve_with_databases::<G>,
            unsolvable: None,
        })
    }
    fn solvable<G: SolveGame>(self, _: G::Rules) -> Self::Output {
        Box::new(Caps::<G> {
            probe: |_, _| None,
            exact: |_, _, line, attempts, threads| {
                kete::protocol::exact::exact(None, line, attempts, threads)
            },
            solve: solve_counting::<G>,
            unsolvable: None,
        })
    }
    fn unsolvable<G: Game>(self, _: G::Rules, why: &'static str) -> Self::Output {
        Box::new(Caps::<G> {
            probe: |_, _| None,
            exact: |_, _, _, _, _| None,
            solve: solve_refused::<G>,
            unsolvable: Some(why),
        })
    }
    fn provable<G: Game>(self, _: G::Rules) -> Self::Output {
        Box::new(Caps::<G> {
            probe: |_, _| None,
            exact: |_, _, _, _, _| None,
            solve: solve_proof::<G>,
            unsolvable: None,
        })
    }
}
