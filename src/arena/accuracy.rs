//! How well the engines of a tournament played, judged by the exact solver:
//! every position of every game that the solver settles in the time given
//! gets its exact value (the final seed margin with perfect play), and each
//! move is judged by what it kept of it. A move keeps the margin when the
//! position it leads to is worth as much to its mover; it is an outcome
//! error when it turns a won position into a draw or a loss, or a drawn one
//! into a loss. Only games decided by counting seeds can be judged.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::ArenaError;
use super::record::GameLine;
use crate::game::{DbSpec, Game, GameRecord, Side, SolveGame};
use crate::solve::cache::choose;
use crate::solve::{Deadline, Egtb, SolveOptions, Tablebase, solve_with_tablebase};
use crate::variants::{SolveVisitor, Variant};

/// How to judge.
#[derive(Clone, Debug)]
pub struct JudgeOptions {
    /// The longest the solver may take for one position; a position it
    /// does not settle in it leaves its moves unjudged.
    pub time: Duration,
    /// Solver threads (0: one per core).
    pub threads: usize,
    /// Where the databases the solver chooses are kept (built once there);
    /// `None` solves without.
    pub egtb_dir: Option<PathBuf>,
}

/// One move that threw away a proven result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeError {
    /// The game's id in the records.
    pub game: usize,
    /// The move's place among the moves played after the opening (from 1).
    pub ply: usize,
    pub mv: String,
    /// Seeds in play in the position moved from.
    pub seeds: u32,
    /// The exact margin before the move and after it, the mover's view.
    pub before: i32,
    pub after: i32,
}

/// What one engine's moves were worth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accuracy {
    pub engine: String,
    /// Moves the engine played after the openings.
    pub moves: usize,
    /// Moves whose position and result were both settled by the solver.
    pub judged: usize,
    /// Judged moves that kept the exact margin.
    pub exact: usize,
    pub outcome_errors: Vec<OutcomeError>,
    /// Seeds of margin given away, over the judged moves.
    pub seeds_lost: i64,
}

impl Accuracy {
    /// The share of judged moves that kept the exact margin, in percent.
    pub fn exact_percent(&self) -> f64 {
        if self.judged == 0 {
            0.0
        } else {
            100.0 * self.exact as f64 / self.judged as f64
        }
    }
}

/// What the judge tells as it goes: games done of all.
pub type Progress<'a> = dyn FnMut(usize, usize) + 'a;

/// Judges every move of `games`, per engine, in the order the engines first
/// appear.
pub fn judge(
    games: &[GameLine],
    opts: &JudgeOptions,
    progress: &mut Progress<'_>,
) -> Result<Vec<Accuracy>, ArenaError> {
    let mut by_engine: BTreeMap<String, Accuracy> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut databases: Vec<Arc<Egtb>> = Vec::new();
    for (done, g) in games.iter().enumerate() {
        let variant = variant_of(g)?;
        let values = variant.visit_solver(Values {
            game: g,
            opts,
            databases: &mut databases,
        })?;
        for (k, judged) in values.into_iter().enumerate() {
            let engine = if judged.mover == Side::South {
                &g.south
            } else {
                &g.north
            };
            if !order.contains(engine) {
                order.push(engine.clone());
            }
            let acc = by_engine.entry(engine.clone()).or_insert_with(|| Accuracy {
                engine: engine.clone(),
                ..Accuracy::default()
            });
            acc.moves += 1;
            let (Some(before), Some(after)) = (judged.before, judged.after) else {
                continue;
            };
            acc.judged += 1;
            if after == before {
                acc.exact += 1;
            }
            acc.seeds_lost += i64::from(before - after).max(0);
            if before.signum() > after.signum() {
                acc.outcome_errors.push(OutcomeError {
                    game: g.id,
                    ply: k + 1,
                    mv: judged.mv,
                    seeds: judged.seeds,
                    before,
                    after,
                });
            }
        }
        progress(done + 1, games.len());
    }
    Ok(order
        .into_iter()
        .map(|e| {
            by_engine
                .remove(&e)
                .expect("every engine named has a tally")
        })
        .collect())
}

/// The variant and rules a game was played under.
fn variant_of(g: &GameLine) -> Result<Variant, ArenaError> {
    let bad = |m: String| ArenaError::Config(format!("game {}: {m}", g.id));
    let mut v = Variant::by_name(&g.variant).map_err(bad)?;
    for (name, value) in &g.options {
        v.set_option(name, value).map_err(bad)?;
    }
    Ok(v)
}

/// One move with its judged values, the mover's view.
struct Judged {
    mover: Side,
    mv: String,
    seeds: u32,
    before: Option<i32>,
    after: Option<i32>,
}

/// Replays a game and solves its positions.
struct Values<'a> {
    game: &'a GameLine,
    opts: &'a JudgeOptions,
    databases: &'a mut Vec<Arc<Egtb>>,
}

/// The database to probe for a position, if any.
type TableOf<'a, G> = dyn FnMut(&G) -> Option<Arc<dyn Tablebase<G>>> + 'a;

/// Replays `g` and judges its moves, probing what `table_of` gives.
fn judge_game<G: SolveGame>(
    g: &GameLine,
    opts: &JudgeOptions,
    rules: G::Rules,
    table_of: &mut TableOf<'_, G>,
) -> Result<Vec<Judged>, ArenaError> {
    let bad = |m: String| ArenaError::Config(format!("game {}: {m}", g.id));
    let start = match &g.opening.fen {
        Some(f) => G::from_notation(&rules, f).map_err(|e| bad(e.to_string()))?,
        None => G::start(&rules),
    };
    let mut record = GameRecord::new(start);
    for m in &g.opening.moves {
        record
            .play_text(m)
            .map_err(|e| bad(format!("opening move '{m}': {e}")))?;
    }
    let first = record.positions().len() - 1;
    for m in &g.moves {
        record
            .play_text(&m.mv)
            .map_err(|e| bad(format!("move '{}': {e}", m.mv)))?;
    }
    let positions = record.positions();
    // The value of every position from the first the engines played, the
    // side to move's view; `None` where the solver did not settle it.
    let mut values: Vec<Option<i32>> = Vec::with_capacity(positions.len() - first);
    for (i, pos) in positions.iter().enumerate().skip(first) {
        let history: Vec<(u64, u32)> = positions[..i]
            .iter()
            .map(|p| (p.hash(), p.seeds_in_play()))
            .collect();
        let table = table_of(pos);
        values.push(value_of(pos, history, table.as_deref(), opts));
    }
    Ok(g.moves
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let (pos, next) = (&positions[first + k], &positions[first + k + 1]);
            let mover = pos.side_to_move();
            // The next position's value is its side to move's: the mover's
            // own where he moves again (Kalah), else negated.
            let after = values[k + 1].map(|v| if next.side_to_move() == mover { v } else { -v });
            Judged {
                mover,
                mv: m.mv.clone(),
                seeds: pos.seeds_in_play(),
                before: values[k],
                after,
            }
        })
        .collect())
}

/// The exact value of `pos`, if the solver settles it within the time.
fn value_of<G: SolveGame>(
    pos: &G,
    history: Vec<(u64, u32)>,
    table: Option<&dyn Tablebase<G>>,
    opts: &JudgeOptions,
) -> Option<i32> {
    if let Some(o) = pos.outcome() {
        return o.margin_for(pos.side_to_move());
    }
    let stop = Arc::new(AtomicBool::new(false));
    let _deadline = Deadline::start(opts.time, stop.clone());
    let solve_opts = SolveOptions {
        hash_mb: crate::solve::resources::fitted_hash_mb(pos.seeds_in_play(), pos.pits_per_row()),
        threads: crate::solve::egtb::threads_or_cores(opts.threads),
        history,
        stop: Some(stop),
        ..SolveOptions::default()
    };
    let r = solve_with_tablebase(pos, &solve_opts, table, &mut |_| {});
    r.complete.then_some(r.value)
}

impl SolveVisitor for Values<'_> {
    type Output = Result<Vec<Judged>, ArenaError>;

    fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Self::Output {
        let dir = self.opts.egtb_dir.clone();
        let threads = self.opts.threads;
        let refused = G::db_refused(&rules).is_some();
        let kept = self.databases;
        let mut table_of = |pos: &G| -> Option<Arc<dyn Tablebase<G>>> {
            let dir = dir.as_ref().filter(|_| !refused)?;
            let choice = choose::<G>(&pos.rules(), pos.seeds_in_play() as usize)?;
            if let Some(db) = kept.iter().find(|db| choice.served_by(db)) {
                return Some(db.clone() as Arc<dyn Tablebase<G>>);
            }
            let (db, _) = choice.open_or_build(dir, threads, &mut |_| {}).ok()?;
            let db = Arc::new(db);
            kept.push(db.clone());
            Some(db as Arc<dyn Tablebase<G>>)
        };
        judge_game::<G>(self.game, self.opts, rules, &mut table_of)
    }

    fn solvable<G: SolveGame>(self, rules: G::Rules) -> Self::Output {
        judge_game::<G>(self.game, self.opts, rules, &mut |_| None)
    }

    fn unsolvable<G: Game>(self, _: G::Rules, why: &'static str) -> Self::Output {
        Err(ArenaError::Config(format!(
            "game {}: {} cannot be judged by the solver: {why}",
            self.game.id, self.game.variant
        )))
    }
}
