//! `kete tune`: fits a variant's linear evaluation to the results of games.
//!
//! Two steps, both generic over [`Game`]. [`generate`] plays kete against
//! itself (a few random moves first, then short searches) and writes every
//! position with the result the side to move went on to get. [`fit`] computes
//! each position's features once and fits the weights by minimising the
//! squared distance between the result and a logistic curve of the
//! evaluation (Texel's method). The curve's scale is fixed first, as the one
//! under which the starting weights fit best, so that the tuned weights stay
//! in centiseeds.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::game::DbSpec;
use crate::game::{Evaluator, Game, GameRecord, GameResult, PHASE, Side};
use crate::search::{self, Limits, Settings, Shared};
use crate::solve::Tablebase;

pub mod net;
pub use net::{EpochLoss, NetData, NetLabels, NetOptions, NetTraining, load_net, train_net};

/// How the training games are played.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub games: usize,
    /// Nodes per search.
    pub nodes: u64,
    /// The random moves at the start of a game: between these two, inclusive.
    pub random_plies: (usize, usize),
    /// A game this long is adjudicated by the seeds each side holds.
    pub max_plies: usize,
    pub seed: u64,
    pub threads: usize,
    /// The index of the first game: games are numbered, and each one's
    /// random opening depends only on the seed and its number, so a long run
    /// can be split into ranges whose files, joined, equal the whole.
    pub first: usize,
    /// Write each position's search score too (centiseeds for the side to
    /// move), as a third field: the label `kete tune net` blends in.
    pub scores: bool,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            games: 1000,
            nodes: 20_000,
            random_plies: (4, 10),
            max_plies: 300,
            seed: 1,
            threads: 1,
            first: 0,
            scores: false,
        }
    }
}

/// What the training games came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    pub games: usize,
    pub positions: usize,
    /// Wins of South, wins of North, draws.
    pub results: [usize; 3],
}

/// The result for `side` as a number: 1 won, 0.5 drawn, 0 lost.
fn points(result: GameResult, side: Side) -> f32 {
    match result.winner() {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// One training game: the positions after the random opening, each with the
/// result for its side to move, as lines `<position> <points>`, or
/// `<position> <points> <score>` with the score of the search that chose
/// the move there when `opts.scores` is set.
fn play_game<G: Game>(
    rules: &G::Rules,
    eval: G::Eval,
    opts: &GenOptions,
    index: usize,
) -> (String, GameResult) {
    let mut rng =
        StdRng::seed_from_u64(opts.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = GameRecord::new(G::start(rules));
    let mut moves = Vec::new();
    let (lo, hi) = opts.random_plies;
    let random = rng.random_range(lo..=hi.max(lo));
    for _ in 0..random {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.random_range(0..moves.len())]);
    }
    let shared = Shared::new(8);
    let limits = Limits {
        nodes: Some(opts.nodes),
        ..Limits::default()
    };
    let settings = Settings::<G> {
        eval,
        ..Settings::default()
    };
    let mut seen = Vec::new();
    while game.outcome().is_none() && game.moves().len() < opts.max_plies {
        let pos = game.position().clone();
        let history: Vec<u64> = game.positions().iter().map(|p| p.hash()).collect();
        let r = search::search(&pos, &history, &limits, &settings, &shared, &mut |_| {});
        seen.push((pos, r.score));
        match r.best {
            Some(mv) => game.play(mv),
            None => break,
        }
    }
    let result = match game.outcome() {
        Some(o) => o.result,
        None => match game.position().seed_count() {
            Some((s, n)) => crate::game::Outcome::by_count(s, n).result,
            None => GameResult::Draw,
        },
    };
    let mut text = String::new();
    for (pos, score) in seen {
        let p = points(result, pos.side_to_move());
        if opts.scores {
            let _ = writeln!(text, "{} {p} {score}", pos.to_notation());
        } else {
            let _ = writeln!(text, "{} {p}", pos.to_notation());
        }
    }
    (text, result)
}

/// Plays `opts.games` training games with the evaluator `eval` on
/// `opts.threads` threads and writes their positions to `out` in the order
/// of the games, so that the file depends only on the options. `progress`
/// hears of each finished game.
pub fn generate<G: Game>(
    rules: &G::Rules,
    eval: G::Eval,
    opts: &GenOptions,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(usize) + Sync),
) -> std::io::Result<GenStats> {
    let next = AtomicUsize::new(0);
    // Finished games wait here until every earlier one is written.
    let state = Mutex::new((
        0usize,
        std::collections::BTreeMap::new(),
        GenStats::default(),
    ));
    let out = Mutex::new(out);
    let error = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= opts.games {
                        break;
                    }
                    let (text, result) = play_game::<G>(rules, eval, opts, opts.first + index);
                    let mut st = state.lock().expect("no thread panics holding it");
                    st.1.insert(index, (text, result));
                    loop {
                        let first = st.0;
                        let Some((text, result)) = st.1.remove(&first) else {
                            break;
                        };
                        st.0 += 1;
                        st.2.games += 1;
                        st.2.positions += text.lines().count();
                        st.2.results[match result {
                            GameResult::P1Win => 0,
                            GameResult::P2Win => 1,
                            GameResult::Draw => 2,
                        }] += 1;
                        if let Err(e) = out.lock().expect("unpoisoned").write_all(text.as_bytes()) {
                            error.lock().expect("unpoisoned").get_or_insert(e);
                            next.store(opts.games, Ordering::Relaxed);
                        }
                        progress(st.2.games);
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().expect("unpoisoned") {
        return Err(e);
    }
    out.into_inner().expect("unpoisoned").flush()?;
    Ok(state.into_inner().expect("unpoisoned").2)
}

/// Training positions as the fit sees them: each position's features split
/// into an opening and an endgame part by its phase, and its result.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Features per position; the model has twice as many weights.
    pub features: usize,
    /// `2 * features` values per position: feature × phase share, opening
    /// and endgame interleaved.
    pub x: Vec<f32>,
    pub result: Vec<f32>,
}

impl Dataset {
    pub fn new(features: usize) -> Self {
        Dataset {
            features,
            ..Dataset::default()
        }
    }

    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Adds a position with its raw features, phase and result.
    pub fn push(&mut self, features: &[i32], phase: i32, result: f32) {
        let open = phase as f32 / PHASE as f32;
        for &f in features {
            self.x.push(f as f32 * open);
            self.x.push(f as f32 * (1.0 - open));
        }
        self.result.push(result);
    }

    fn row(&self, i: usize) -> &[f32] {
        &self.x[2 * self.features * i..2 * self.features * (i + 1)]
    }
}

/// A line of a training file that could not be read.
#[derive(Debug)]
pub struct DataError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DataError {}

/// Reads lines `<position> <points>` of the variant `rules` into a dataset;
/// positions whose game is over are skipped (their value is exact).
pub fn load<G: Game>(rules: &G::Rules, input: impl BufRead) -> Result<Dataset, DataError> {
    load_labelled(rules, input, &|_: &G| None).map(|(data, _)| data)
}

/// The fields of a line of a training file: `<position> <points>`, or
/// `<position> <points> <score>` as `kete tune gen --scores` writes it.
pub fn parse_line(line: &str) -> Result<(&str, f32, Option<i32>), String> {
    let mut fields = line.split_whitespace();
    let (Some(token), Some(result)) = (fields.next(), fields.next()) else {
        return Err("expected '<position> <points> [<score>]'".into());
    };
    let points: f32 = result
        .parse()
        .ok()
        .filter(|r: &f32| (0.0..=1.0).contains(r))
        .ok_or_else(|| format!("points must be 0, 0.5 or 1, got '{result}'"))?;
    let score = match fields.next() {
        Some(s) => Some(
            s.parse()
                .map_err(|_| format!("a score is a whole number of centiseeds, got '{s}'"))?,
        ),
        None => None,
    };
    if fields.next().is_some() {
        return Err("expected '<position> <points> [<score>]'".into());
    }
    Ok((token, points, score))
}

/// What relabelling did to a file of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relabelled {
    /// Positions whose points came from `label` instead of the game.
    pub labelled: usize,
    /// Those of them whose points changed.
    pub changed: usize,
}

/// [`load`], with the points of every position that `label` knows exactly
/// (an endgame database: [`database_label`]) replaced by its answer: the
/// game's result says what the players did, the database what perfect play
/// gets, which is the cleaner target.
pub fn load_labelled<G: Game>(
    rules: &G::Rules,
    input: impl BufRead,
    label: &dyn Fn(&G) -> Option<f32>,
) -> Result<(Dataset, Relabelled), DataError> {
    let mut relabelled = Relabelled::default();
    let names = <G::Eval as Evaluator<G>>::FEATURES;
    if names.is_empty() {
        return Err(DataError {
            line: 0,
            message: "this variant's evaluation has no features to tune".into(),
        });
    }
    let mut data = Dataset::new(names.len());
    let mut f = vec![0; names.len()];
    read_lines::<G>(rules, input, |pos, result, _score| {
        if pos.outcome().is_some() {
            return;
        }
        let result = match label(&pos) {
            Some(exact) => {
                relabelled.labelled += 1;
                relabelled.changed += (exact != result) as usize;
                exact
            }
            None => result,
        };
        let phase = <G::Eval as Evaluator<G>>::features(&pos, &mut f);
        data.push(&f, phase, result);
    })?;
    Ok((data, relabelled))
}

/// Calls `each` with every line `<position> <points> [<score>]` of `input`,
/// its position read as one of `rules`; blank lines and `#` comments are
/// passed over. The first line that cannot be read stops it with an error
/// naming the line.
pub fn read_lines<G: Game>(
    rules: &G::Rules,
    input: impl BufRead,
    mut each: impl FnMut(G, f32, Option<i32>),
) -> Result<(), DataError> {
    for (n, line) in input.lines().enumerate() {
        let fail = |message: String| DataError {
            line: n + 1,
            message,
        };
        let line = line.map_err(|e| fail(e.to_string()))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (token, points, score) = parse_line(line).map_err(fail)?;
        let pos = G::from_notation(rules, token).map_err(|e| fail(e.to_string()))?;
        each(pos, points, score);
    }
    Ok(())
}

/// The points perfect play gets the side to move of a position the database
/// holds: 1, 0.5 or 0 by the sign of the banked margin plus the database's
/// value of the seeds in play.
pub fn database_label<G: DbSpec>(db: &dyn Tablebase<G>, pos: &G) -> Option<f32> {
    let v = db.probe(pos)?;
    Some(match (pos.banked() + v).signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    })
}

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct FitOptions {
    pub iterations: usize,
    /// Adam's step, in centiseeds.
    pub rate: f64,
    /// The logistic curve's scale in centiseeds; fitted to the starting
    /// weights when `None`.
    pub scale: Option<f64>,
    pub threads: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            iterations: 2000,
            rate: 1.0,
            scale: None,
            threads: 1,
        }
    }
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    /// (opening, endgame) per feature.
    pub weights: Vec<(f64, f64)>,
    pub scale: f64,
    pub loss_before: f64,
    pub loss_after: f64,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean squared error of the model `w` (interleaved) with scale `k`, and
/// its gradient if `grad` is given; split over `threads`.
fn loss(data: &Dataset, w: &[f64], k: f64, threads: usize, grad: Option<&mut [f64]>) -> f64 {
    let n = data.len();
    let chunk = n.div_ceil(threads.max(1)).max(1);
    let want_grad = grad.is_some();
    let parts: Vec<(f64, Vec<f64>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|from| {
                scope.spawn(move || {
                    let mut sum = 0.0;
                    let mut g = vec![0.0; if want_grad { w.len() } else { 0 }];
                    for i in from..(from + chunk).min(n) {
                        let x = data.row(i);
                        let e: f64 = x.iter().zip(w).map(|(&a, &b)| a as f64 * b).sum();
                        let s = sigmoid(e / k);
                        let d = data.result[i] as f64 - s;
                        sum += d * d;
                        if want_grad {
                            let c = -2.0 * d * s * (1.0 - s) / k;
                            for (gj, &xj) in g.iter_mut().zip(x) {
                                *gj += c * xj as f64;
                            }
                        }
                    }
                    (sum, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a loss thread does not panic"))
            .collect()
    });
    let total: f64 = parts.iter().map(|p| p.0).sum();
    if let Some(grad) = grad {
        grad.fill(0.0);
        for (_, g) in &parts {
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b / n as f64;
            }
        }
    }
    total / n as f64
}

/// The scale under which `w` fits best (a golden-section search over 10 to
/// 10 000 centiseeds, on a log scale).
fn best_scale(data: &Dataset, w: &[f64], threads: usize) -> f64 {
    let f = |lk: f64| loss(data, w, lk.exp(), threads, None);
    let (mut a, mut b) = (10f64.ln(), 10_000f64.ln());
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// Fits the weights to `data`, starting from `start`, with Adam.
pub fn fit(data: &Dataset, start: &[(i32, i32)], opts: &FitOptions) -> Fit {
    let mut w: Vec<f64> = start
        .iter()
        .flat_map(|&(o, e)| [o as f64, e as f64])
        .collect();
    w.resize(2 * data.features, 0.0);
    let k = opts
        .scale
        .unwrap_or_else(|| best_scale(data, &w, opts.threads));
    let loss_before = loss(data, &w, k, opts.threads, None);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut g = vec![0.0; w.len()];
    for t in 1..=opts.iterations {
        loss(data, &w, k, opts.threads, Some(&mut g));
        for j in 0..w.len() {
            m[j] = b1 * m[j] + (1.0 - b1) * g[j];
            v[j] = b2 * v[j] + (1.0 - b2) * g[j] * g[j];
            let mh = m[j] / (1.0 - b1.powi(t as i32));
            let vh = v[j] / (1.0 - b2.powi(t as i32));
            w[j] -= opts.rate * mh / (vh.sqrt() + eps);
        }
    }
    let loss_after = loss(data, &w, k, opts.threads, None);
    Fit {
        weights: w.chunks(2).map(|c| (c[0], c[1])).collect(),
        scale: k,
        loss_before,
        loss_after,
    }
}

/// The weights as the Rust source file a variant includes.
pub fn weights_source(names: &[&str], weights: &[(f64, f64)], header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        let _ = writeln!(s, "//! {line}");
    }
    // One line a feature as written here, whatever rustfmt would align.
    let _ = writeln!(s, "#[rustfmt::skip]");
    let _ = writeln!(s, "pub const WEIGHTS: [(i32, i32); {}] = [", names.len());
    for (name, &(o, e)) in names.iter().zip(weights) {
        let _ = writeln!(
            s,
            "    ({}, {}), // {name}",
            o.round() as i32,
            e.round() as i32
        );
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions with three random features whose results are drawn from a
    /// logistic curve of known weights: the fit must find those weights.
    #[test]
    fn fit_recovers_known_weights() {
        let truth = [(120.0, 40.0), (-60.0, -60.0), (0.0, 90.0)];
        let k = 200.0;
        let mut rng = StdRng::seed_from_u64(7);
        let mut data = Dataset::new(3);
        for _ in 0..60_000 {
            let f: Vec<i32> = (0..3).map(|_| rng.random_range(-3..=3)).collect();
            let phase = rng.random_range(0..=PHASE);
            let open = phase as f64 / PHASE as f64;
            let e: f64 = f
                .iter()
                .zip(&truth)
                .map(|(&x, &(o, en))| x as f64 * (o * open + en * (1.0 - open)))
                .sum();
            let p = sigmoid(e / k);
            let r = if rng.random::<f64>() < p { 1.0 } else { 0.0 };
            data.push(&f, phase, r);
        }
        let fit = fit(
            &data,
            &[(0, 0); 3],
            &FitOptions {
                iterations: 1500,
                rate: 2.0,
                scale: Some(k),
                threads: 2,
            },
        );
        assert!(fit.loss_after < fit.loss_before);
        for (got, want) in fit.weights.iter().zip(&truth) {
            assert!(
                (got.0 - want.0).abs() < 15.0 && (got.1 - want.1).abs() < 15.0,
                "fitted {:?}, true {:?}",
                fit.weights,
                truth
            );
        }
    }

    #[test]
    fn best_scale_finds_the_scale_of_the_data() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut data = Dataset::new(1);
        for _ in 0..40_000 {
            let f = rng.random_range(-5..=5);
            let p = sigmoid(100.0 * f as f64 / 300.0);
            let r = if rng.random::<f64>() < p { 1.0 } else { 0.0 };
            data.push(&[f], PHASE, r);
        }
        let k = best_scale(&data, &[100.0, 100.0], 2);
        assert!((k - 300.0).abs() < 30.0, "scale {k}");
    }

    /// Points relabelled from a database are the signs of the exact values:
    /// a file whose points are all wrong (0 for every position) comes back
    /// with the solver's results for the positions the database holds.
    #[test]
    fn database_labels_are_the_solved_results() {
        use crate::solve::{SolveOptions, solve};
        use crate::variants::oware::{Oware, OwareRules, Repetition, RuleSet};
        // The split rule: the databases' convention for endless play.
        let rules = OwareRules {
            houses: 3,
            seeds: 2,
            rules: RuleSet::Abapa,
            repetition: Repetition::Split,
        };
        let game = Oware::db_game(&rules).expect("Oware has databases");
        let db = crate::solve::egtb::build(game, 12, &Default::default(), &mut |_| {})
            .expect("a small database");
        // The start and the positions one and two moves on.
        let start = Oware::start(&rules);
        let mut positions = vec![start];
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        for &m in &moves {
            let p = start.play(m);
            positions.push(p);
            let mut replies = Vec::new();
            p.legal_moves(&mut replies);
            positions.extend(replies.iter().map(|&r| p.play(r)));
        }
        positions.retain(|p| p.outcome().is_none());
        let text: String = positions
            .iter()
            .map(|p| format!("{} 0\n", p.to_notation()))
            .collect();
        let label = |p: &Oware| database_label(&db, p);
        let (data, r) = load_labelled(&rules, text.as_bytes(), &label).expect("a valid file");
        assert_eq!(r.labelled, positions.len());
        let opts = SolveOptions {
            hash_mb: 4,
            ..Default::default()
        };
        let mut changed = 0;
        for (i, p) in positions.iter().enumerate() {
            let exact = match solve(p, &opts, &mut |_| {}).value.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            assert_eq!(data.result[i], exact, "{}", p.to_notation());
            changed += (exact != 0.0) as usize;
        }
        assert!(changed > 0, "the test needs positions that are not lost");
        assert_eq!(r.changed, changed);
        // A board the database is not for keeps its game's points.
        let four = OwareRules { houses: 4, ..rules };
        assert_eq!(database_label(&db, &Oware::start(&four)), None);
    }

    #[test]
    fn weights_source_lists_each_feature() {
        let s = weights_source(&["a", "b"], &[(1.4, -2.6), (0.0, 3.0)], "made by a test");
        assert!(s.starts_with("//! made by a test\n"));
        assert!(s.contains("#[rustfmt::skip]\npub const WEIGHTS: [(i32, i32); 2] = ["));
        assert!(s.contains("    (1, -3), // a\n"));
        assert!(s.contains("    (0, 3), // b\n"));
    }
}
