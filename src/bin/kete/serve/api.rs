//! The JSON API: requests name a game (variant, options, start, moves);
//! answers come from the variant's rules through [`Board`] and from kete's
//! search.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use kete::draw;
use kete::game::SolveGame;
use kete::game::{Board, Game, GameRecord, Side, TraceStep, Words};

use super::words::{evaluation, external_eval, outcome_words, seeds_text, side_title};
use kete::protocol::text::{line_text, score_text};
use kete::search::level::{self, Player};
use kete::search::{self, Settings, Shared, time::Limits};
use kete::solve::{Egtb, SolveOptions, Tablebase, solve_with_tablebase};
use kete::variants::{
    BoardVisitor, OptionKind, SolveVisitor, Variant, VariantVisitor, variant_names,
};

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// The longest search the page may ask for.
pub const MAX_SEARCH_MS: u64 = 30_000;
/// The largest `games.jsonl` accepted for a replay, in bytes.
pub const MAX_GAMES: usize = 32 * 1024 * 1024;
/// Most moves a request may carry.
const MAX_MOVES: usize = 2000;

/// A refused request: an HTTP status and a message naming the problem.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }
}

/// A game as the page holds it.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct GameRequest {
    variant: String,
    #[serde(default)]
    options: BTreeMap<String, String>,
    /// A position token; the variant's start when absent.
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// `/api/move`: the move to play and trace.
    #[serde(default, rename = "move")]
    mv: Option<String>,
    /// `/api/search`: limits and lines.
    #[serde(default)]
    movetime_ms: Option<u64>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    multipv: Option<usize>,
    /// `/api/search`: the level kete plays at (`Level`'s names; full
    /// strength when absent). A level's answer waits for `movetime_ms`.
    #[serde(default)]
    level: Option<String>,
    /// `/api/solve`: how long the solver may try.
    #[serde(default)]
    solve_ms: Option<u64>,
    /// How to draw the board (`/api/state`, `/api/move`): turned (North at
    /// the bottom), stood up for a narrow screen, a hint's cell marked, and
    /// the players' names beside their sides (South, North).
    #[serde(default)]
    flipped: bool,
    #[serde(default)]
    portrait: bool,
    #[serde(default)]
    hint: Option<usize>,
    #[serde(default)]
    players: Option<[String; 2]>,
    /// Which sides (South, North) a person plays on this page: the legal
    /// moves are marked, and can be reached with Tab, only on their turns.
    #[serde(default)]
    people: Option<[bool; 2]>,
    /// `/api/move`: the move was typed, so a letter of the other side's
    /// case ("a" when South is to move) is refused instead of read as the
    /// mover's.
    #[serde(default)]
    typed: bool,
}

impl GameRequest {
    fn parse(body: &str) -> Result<GameRequest, ApiError> {
        let r: GameRequest =
            serde_json::from_str(body).map_err(|e| ApiError::bad(format!("bad request: {e}")))?;
        if r.moves.len() > MAX_MOVES {
            return Err(ApiError::bad(format!(
                "{} moves: at most {MAX_MOVES}",
                r.moves.len()
            )));
        }
        Ok(r)
    }

    fn variant(&self) -> Result<Variant, ApiError> {
        let mut v = Variant::by_name(&self.variant).map_err(ApiError::bad)?;
        for (name, value) in &self.options {
            v.set_option(name, value).map_err(ApiError::bad)?;
        }
        Ok(v)
    }
}

/// Every variant with its options, for the page's menus.
pub fn variants() -> Value {
    let list: Vec<Value> = variant_names()
        .into_iter()
        .map(|name| {
            let v = Variant::by_name(name).expect("a registered variant");
            let options: Vec<Value> = v
                .options()
                .iter()
                .map(|o| {
                    let mut j = match o.kind {
                        OptionKind::Spin { min, max, default } => json!({
                            "kind": "spin", "min": min, "max": max,
                            "default": default.to_string(),
                        }),
                        OptionKind::Combo {
                            values,
                            labels,
                            default,
                        } => json!({
                            "kind": "combo", "values": values, "labels": labels,
                            "default": default,
                        }),
                    };
                    j["name"] = json!(o.name);
                    j["label"] = json!(o.label);
                    j["help"] = json!(o.help);
                    j["advanced"] = json!(o.advanced);
                    j
                })
                .collect();
            let mut j = json!({
                "name": name,
                "title": v.title(),
                "options": options,
                "levels": v.visit(Levels),
                // The game's own words for its things, for the page's
                // labels and hints (Togyz Kumalak's kumalaks).
                "words": v.visit(WordsOf),
                // Its other names, as the address may give them.
                "aliases": kete::variants::aliases_of(name),
            });
            if let Variant::Described(_) = v {
                j["described"] = json!(true);
            }
            j
        })
        .collect();
    json!({ "variants": list, "elo_scale": level::SCALE_WORDS })
}

/// What a variant's players call its things.
struct WordsOf;

impl VariantVisitor for WordsOf {
    type Output = Value;
    fn visit<G: Game>(self, rules: G::Rules) -> Value {
        json!(G::start(&rules).words())
    }
}

/// A variant's playing levels for the page's menu: name, title and the
/// Elo measured in this variant (none for full strength, whose Elo
/// depends on the time it is given).
struct Levels;

impl VariantVisitor for Levels {
    type Output = Value;
    fn visit<G: Game>(self, rules: G::Rules) -> Value {
        let list: Vec<Value> = level::LEVELS
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let elo = (i + 1 < level::LEVELS.len() && level::measured::<G>(&rules))
                    .then(|| level::level_elo::<G>(&rules, i));
                json!({ "name": l.name, "title": l.title, "words": l.words, "elo": elo })
            })
            .collect();
        json!(list)
    }
}

/// `/api/state` and `/api/move`.
pub fn answer(path: &str, body: &str) -> Result<Value, ApiError> {
    let req = GameRequest::parse(body)?;
    let variant = req.variant()?;
    let traced = path == "/api/move";
    if traced && req.mv.is_none() {
        return Err(ApiError::bad("/api/move needs \"move\""));
    }
    variant.visit_board(Answer { req, traced })
}

/// Replays the request's game under `rules`.
fn replay<G: Game>(rules: &G::Rules, req: &GameRequest) -> Result<GameRecord<G>, ApiError> {
    let start = match &req.start {
        Some(t) if !t.trim().is_empty() => {
            G::from_notation(rules, t).map_err(|e| ApiError::bad(format!("start: {e}")))?
        }
        _ => G::start(rules),
    };
    let mut record = GameRecord::new(start);
    for (i, text) in req.moves.iter().enumerate() {
        record
            .play_text(text)
            .map_err(|e| ApiError::bad(format!("move {} '{text}': {e}", i + 1)))?;
    }
    Ok(record)
}

/// What the page draws: the position and its picture, its legal moves,
/// who played each move, what the last turn did, the outcome in words.
fn state<G: Board>(record: &GameRecord<G>, req: &GameRequest) -> Value {
    let pos = record.position();
    let mut moves = Vec::new();
    record.legal_moves(&mut moves);
    let cells = pos.cells();
    let legal: Vec<(String, usize, Option<usize>)> = moves
        .iter()
        .map(|&mv| {
            let cell = pos.move_cell(mv);
            (pos.format_move(mv), cell, toward(pos, mv, cell))
        })
        .collect();
    let arrows = arrows(&legal, &cells);
    // The seeds each move captures before it sows them on (Bao: the
    // direction chosen is the capture's, from a kichwa).
    let captures: Vec<Option<u32>> = moves.iter().map(|&mv| captures(pos, mv)).collect();
    let history = record.positions();
    let movers: Vec<Side> = history[..history.len() - 1]
        .iter()
        .map(|p| p.side_to_move())
        .collect();
    let played = record.moves();
    let first = record.last_turn_start();
    let turn_moves: Vec<(G, G::Move)> = (first..played.len())
        .map(|k| (history[k].clone(), played[k]))
        .collect();
    let turn = draw::Turn::read(&turn_moves);
    let players = req.players.clone().unwrap_or_default();
    let view = draw::View {
        flipped: req.flipped,
        portrait: req.portrait,
        legal: if req.people.is_none_or(|p| p[pos.side_to_move().index()]) {
            legal.iter().map(|(_, c, _)| *c).collect()
        } else {
            Vec::new()
        },
        hint: req.hint.filter(|h| *h < cells.len()),
        players: players.clone(),
        arrows: arrows.clone(),
        ..draw::View::default()
    }
    .with_turn(&turn);
    let banked = (pos.gained(Side::South), pos.gained(Side::North));
    let outcome = record.outcome().map(|o| {
        outcome_words(
            o,
            record.end_reason(),
            &players,
            banked,
            pos.seed_count(),
            &pos.words(),
        )
    });
    json!({
        "token": pos.to_notation(),
        "side": pos.side_to_move(),
        "cells": cells,
        "legal": legal
            .iter()
            .zip(&captures)
            .map(|((text, cell, to), taken)| json!({ "text": text, "cell": cell, "toward": to, "captures": taken }))
            .collect::<Vec<_>>(),
        "arrows": arrows
            .iter()
            .map(|a| json!({
                "from": a.from,
                "to": a.to,
                "moves": a.moves.split(' ').collect::<Vec<_>>(),
                "label": a.label,
            }))
            .collect::<Vec<_>>(),
        "movers": movers,
        "last_turn": {
            "moves": (first..played.len())
                .map(|k| history[k].format_move(played[k]))
                .collect::<Vec<_>>(),
            "side": movers.last(),
            "started": turn.started,
            "sown": turn.sown,
            "ended": turn.ended,
            "captured": turn.captured,
            "laps": turn.laps,
            "notes": turn.notes,
            // Each sowing of the turn with what the rules said of it.
            "each": turn_moves
                .iter()
                .map(|(p, m)| {
                    let (_, steps) = p.play_traced(*m);
                    let notes: Vec<&String> = steps
                        .iter()
                        .filter_map(|s| match s {
                            TraceStep::Note { text } => Some(text),
                            _ => None,
                        })
                        .collect();
                    json!({ "move": p.format_move(*m), "notes": notes })
                })
                .collect::<Vec<_>>(),
        },
        "outcome": outcome,
        "diagram": pos.diagram(),
        "svg": draw::svg(pos, &view),
    })
}

/// Arrows for the pits that offer several moves: one a direction, each
/// with the moves that go that way (Bao's stop and safari go one way).
fn arrows(
    legal: &[(String, usize, Option<usize>)],
    cells: &[kete::game::Cell],
) -> Vec<draw::Arrow> {
    let mut arrows: Vec<draw::Arrow> = Vec::new();
    for (text, cell, to) in legal {
        if legal.iter().filter(|(_, c, _)| c == cell).count() < 2 {
            continue;
        }
        let Some(to) = *to else { continue };
        match arrows.iter_mut().find(|a| a.from == *cell && a.to == to) {
            Some(a) => {
                a.moves.push(' ');
                a.moves.push_str(text);
            }
            None => arrows.push(draw::Arrow {
                from: *cell,
                to,
                moves: text.clone(),
                label: String::new(),
            }),
        }
    }
    for a in &mut arrows {
        a.label = format!(
            "sow from {} toward {} ({})",
            cells[a.from].name,
            cells[a.to].name,
            a.moves.replace(' ', " or ")
        );
    }
    arrows
}

/// The first cell a move sows into past its own: where its arrow points.
fn toward<G: Board>(pos: &G, mv: G::Move, cell: usize) -> Option<usize> {
    let (_, steps) = pos.play_traced(mv);
    steps.iter().find_map(|s| match s {
        TraceStep::Drop { cell: c } if *c != cell => Some(*c),
        _ => None,
    })
}

/// The seeds a move takes from the opponent's pits before its sowing goes
/// on from another cell than the one clicked: a capture whose seeds are
/// then sown (Bao), so its direction is the capture's.
fn captures<G: Board>(pos: &G, mv: G::Move) -> Option<u32> {
    let cell = pos.move_cell(mv);
    let cells = pos.cells();
    let mover = pos.side_to_move();
    let (_, steps) = pos.play_traced(mv);
    for s in &steps {
        match s {
            TraceStep::Drop { cell: c } if *c != cell => return None,
            TraceStep::Lift { cell: c, seeds }
                if cells
                    .get(*c)
                    .is_some_and(|x| x.side != mover && x.kind == kete::game::CellKind::Pit) =>
            {
                return Some(*seeds);
            }
            _ => {}
        }
    }
    None
}

/// A refusal of `text` that names it once: the rules' own words often
/// quote it already.
fn quoted(text: &str, why: &str) -> String {
    if why.contains(&format!("'{}'", text.trim())) {
        why.to_string()
    } else {
        format!("'{text}': {why}")
    }
}

/// A typed move whose first letter is of another case than the move it was
/// read as names the other side's pit: refused, saying so.
fn same_case(typed: &str, read: &str, side: Side) -> Result<(), ApiError> {
    let first = |t: &str| t.chars().find(|c| c.is_alphabetic());
    match (first(typed), first(read)) {
        (Some(a), Some(b)) if a != b && a.eq_ignore_ascii_case(&b) => Err(ApiError::bad(format!(
            "'{typed}' names {}'s pit; {} is to move: type {read}",
            side_title(side.other()),
            side_title(side)
        ))),
        _ => Ok(()),
    }
}

struct Answer {
    req: GameRequest,
    traced: bool,
}

impl BoardVisitor for Answer {
    type Output = Result<Value, ApiError>;

    fn visit<G: Board>(self, rules: G::Rules) -> Result<Value, ApiError> {
        let mut record = replay::<G>(&rules, &self.req)?;
        if !self.traced {
            return Ok(state(&record, &self.req));
        }
        let text = self.req.mv.as_deref().unwrap_or_default();
        let before = record.position().clone();
        if record.outcome().is_some() {
            return Err(ApiError::bad("the game is over"));
        }
        let mv = before
            .parse_move(text)
            .map_err(|e| ApiError::bad(quoted(text, &e.to_string())))?;
        if self.req.typed {
            same_case(text, &before.format_move(mv), before.side_to_move())?;
        }
        let (_, trace) = before.play_traced(mv);
        let played = before.format_move(mv);
        record.play(mv);
        Ok(json!({
            "move": played,
            "before": before.cells(),
            "trace": trace,
            "state": state(&record, &self.req),
        }))
    }
}

/// A search asked for by the page, checked before the stream starts.
pub struct SearchJob {
    req: GameRequest,
    variant: Variant,
    engine: Option<Arc<kete::arena::EngineConfig>>,
    egtb: Option<Arc<Egtb>>,
    hash_mb: usize,
}

impl SearchJob {
    pub fn new(
        body: &str,
        engine: Option<Arc<kete::arena::EngineConfig>>,
        egtb: Option<Arc<Egtb>>,
        hash_mb: usize,
    ) -> Result<SearchJob, ApiError> {
        let req = GameRequest::parse(body)?;
        let variant = req.variant()?;
        if req.movetime_ms.is_none() && req.depth.is_none() {
            return Err(ApiError::bad("a search needs movetime_ms or depth"));
        }
        if req
            .movetime_ms
            .is_some_and(|ms| ms == 0 || ms > MAX_SEARCH_MS)
        {
            return Err(ApiError::bad(format!(
                "movetime_ms must be 1..{MAX_SEARCH_MS}"
            )));
        }
        if req.depth.is_some_and(|d| !(1..=64).contains(&d)) {
            return Err(ApiError::bad("depth must be 1..64"));
        }
        if req.multipv.is_some_and(|m| !(1..=8).contains(&m)) {
            return Err(ApiError::bad("multipv must be 1..8"));
        }
        if let Some(l) = &req.level
            && Player::by_name(l).is_none()
        {
            return Err(ApiError::bad(format!(
                "level must be one of {}, got '{l}'",
                level::names().join(", ")
            )));
        }
        // The game itself is checked here too, so that a bad one gets its
        // 400 before any event is sent.
        variant.visit_board(Check(&req))?;
        Ok(SearchJob {
            req,
            variant,
            engine,
            egtb,
            hash_mb,
        })
    }

    /// Runs the search, sending `(event, json)` pairs: `info` for each line
    /// of progress, then `done` (or `error`). Stops when `stop` is set.
    pub fn run(self, stop: Arc<AtomicBool>, tx: Sender<(String, String)>) {
        if let Some(cfg) = &self.engine {
            let (name, data) = match external(cfg, &self.variant, &self.req, &stop, &tx) {
                Ok(done) => ("done", done),
                Err(e) => ("error", json!({ "error": e.message })),
            };
            let _ = tx.send((name.into(), data.to_string()));
            return;
        }
        let variant = self.variant;
        variant.visit_board(Search {
            req: self.req,
            variant: self.variant,
            egtb: self.egtb,
            hash_mb: self.hash_mb,
            stop,
            tx,
        })
    }
}

struct Check<'a>(&'a GameRequest);

impl BoardVisitor for Check<'_> {
    type Output = Result<(), ApiError>;
    fn visit<G: Board>(self, rules: G::Rules) -> Result<(), ApiError> {
        let record = replay::<G>(&rules, self.0)?;
        if record.outcome().is_some() {
            return Err(ApiError::bad("the game is over: nothing to search"));
        }
        Ok(())
    }
}

struct Search {
    req: GameRequest,
    variant: Variant,
    egtb: Option<Arc<Egtb>>,
    hash_mb: usize,
    stop: Arc<AtomicBool>,
    tx: Sender<(String, String)>,
}

impl BoardVisitor for Search {
    type Output = ();

    fn visit<G: Board>(self, rules: G::Rules) {
        let record = match replay::<G>(&rules, &self.req) {
            Ok(r) => r,
            Err(e) => {
                let _ = self
                    .tx
                    .send(("error".into(), json!({ "error": e.message }).to_string()));
                return;
            }
        };
        let root = record.position().clone();
        let history: Vec<u64> = record.positions().iter().map(|p| p.hash()).collect();
        // Always a time cap: a depth the page asks for may take too long.
        let limits = Limits {
            depth: self.req.depth,
            movetime: Some(Duration::from_millis(
                self.req.movetime_ms.unwrap_or(MAX_SEARCH_MS),
            )),
            ..Limits::default()
        };
        let settings = Settings::<G> {
            multipv: self.req.multipv.unwrap_or(1),
            tablebase: self
                .egtb
                .as_ref()
                .and_then(|db| probe_for::<G>(&self.variant, db)),
            ..Settings::default()
        };
        let mut shared = Shared::new(self.hash_mb);
        // The page's stop flag is the search's: a closed page stops it.
        if let Some(s) = Arc::get_mut(&mut shared) {
            s.stop = self.stop.clone();
        }
        let tx = self.tx.clone();
        let player = self
            .req
            .level
            .as_deref()
            .and_then(Player::by_name)
            .unwrap_or(Player::Full);
        // The last report of each line, for the answer.
        let mut lines = BTreeMap::new();
        let mut report = |r: &search::Report<G::Move>| {
            let pv: Vec<String> = line_text(&root, &r.pv)
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let info = json!({
                "depth": r.depth,
                "multipv": r.multipv,
                "score": score_text(r.score),
                "cp": r.score,
                "eval": evaluation(r.score, root.side_to_move(), &root.words()),
                "nodes": r.nodes,
                "tbhits": r.tbhits,
                "ms": r.time.as_millis() as u64,
                "pv": pv,
            });
            let _ = tx.send(("info".into(), info.to_string()));
            lines.insert(r.multipv, info);
        };
        let result = level::play(
            &root,
            &history,
            &limits,
            &settings,
            &shared,
            player,
            None,
            &mut report,
        );
        if player != Player::Full {
            // A level's lines are every move it weighed, not advice.
            lines.clear();
        }
        let best = result.best.map(|m| root.format_move(m));
        let done = json!({
            "best": best,
            "cell": result.best.map(|m| root.move_cell(m)),
            "score": score_text(result.score),
            "cp": result.score,
            "eval": evaluation(result.score, root.side_to_move(), &root.words()),
            "depth": result.depth,
            "nodes": result.nodes,
            "pv": line_text(&root, &result.pv),
            "lines": lines.into_values().collect::<Vec<_>>(),
        });
        let _ = self.tx.send(("done".into(), done.to_string()));
    }
}

/// The loaded database's probe for the search in a game of `G`, if the
/// database fits `variant`'s rules. Only [`Variant::visit_solver`] knows
/// whether a game has databases, and only [`Variant::visit_board`] gives a
/// [`Board`]; both name the same type for one variant, so the probe made in
/// the first is handed to the second through `Any`.
fn probe_for<G: Game>(variant: &Variant, db: &Arc<Egtb>) -> Option<search::Probe<G>> {
    struct Find<'a>(&'a Arc<Egtb>);
    impl SolveVisitor for Find<'_> {
        type Output = Option<Box<dyn std::any::Any>>;
        fn with_databases<H: kete::game::DbSpec>(self, rules: H::Rules) -> Self::Output {
            let probe = kete::protocol::solve::probe::<H>(self.0, &rules)?;
            Some(Box::new(probe))
        }
        fn solvable<H: SolveGame>(self, _: H::Rules) -> Self::Output {
            None
        }
        fn unsolvable<H: Game>(self, _: H::Rules, _: &'static str) -> Self::Output {
            None
        }
    }
    let probe = variant.visit_solver(Find(db))?;
    probe.downcast::<search::Probe<G>>().ok().map(|p| *p)
}

/// The games of a kete-arena `games.jsonl`, for replaying: each with its
/// variant and options, start, every move (the opening's first) and, beside
/// the engines' moves, the score and depth they reported.
pub fn replay_games(text: &str) -> Result<Value, ApiError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let g: kete::arena::GameLine = serde_json::from_str(line)
            .map_err(|e| ApiError::bad(format!("games.jsonl line {}: {e}", i + 1)))?;
        let opening: Vec<Value> = g
            .opening
            .moves
            .iter()
            .map(|m| json!({ "move": m, "opening": true }))
            .collect();
        let moves: Vec<Value> = g
            .moves
            .iter()
            .map(|m| json!({ "move": m.mv, "score": m.score, "depth": m.depth, "ms": m.ms }))
            .collect();
        games.push(json!({
            "id": g.id,
            "south": g.south,
            "north": g.north,
            "variant": g.variant,
            "options": g.options,
            "start": g.opening.fen,
            "moves": opening.into_iter().chain(moves).collect::<Vec<_>>(),
            "result": g.result,
            "reason": g.reason,
        }));
    }
    Ok(json!({ "games": games }))
}

/// `/api/solve`, checked before the answer starts: the exact value and best
/// moves of a counting game's position, if kete's solver proves them within
/// the time given (at most [`MAX_SEARCH_MS`]); otherwise its estimate,
/// marked not exact, and the bounds it proved (`lower`, `upper`). The
/// endgame database, when one is loaded and fits the game's rules, answers
/// for the positions it holds.
pub struct SolveJob {
    req: GameRequest,
    variant: Variant,
    ms: u64,
    egtb: Option<Arc<Egtb>>,
    hash_mb: usize,
}

impl SolveJob {
    pub fn new(body: &str, egtb: Option<Arc<Egtb>>, hash_mb: usize) -> Result<SolveJob, ApiError> {
        let req = GameRequest::parse(body)?;
        let variant = req.variant()?;
        let ms = req.solve_ms.unwrap_or(5000);
        if ms == 0 || ms > MAX_SEARCH_MS {
            return Err(ApiError::bad(format!(
                "solve_ms must be 1..{MAX_SEARCH_MS}"
            )));
        }
        variant.visit_solver(Solve {
            req: &req,
            ms,
            egtb: None,
            hash_mb,
            stop: None,
        })?;
        Ok(SolveJob {
            req,
            variant,
            ms,
            egtb,
            hash_mb,
        })
    }

    /// Solves; `stop` (set when the page goes away) ends it early.
    pub fn run(self, stop: Arc<AtomicBool>) -> Value {
        let solve = Solve {
            req: &self.req,
            ms: self.ms,
            egtb: self.egtb,
            hash_mb: self.hash_mb,
            stop: Some(stop),
        };
        self.variant
            .visit_solver(solve)
            .unwrap_or_else(|e| json!({ "error": e.message }))
    }
}

/// Without `stop`, only checks the request.
struct Solve<'a> {
    req: &'a GameRequest,
    ms: u64,
    egtb: Option<Arc<Egtb>>,
    hash_mb: usize,
    stop: Option<Arc<AtomicBool>>,
}

impl Solve<'_> {
    /// `note`: how the database's values read, when one is used.
    fn run<G: SolveGame>(
        self,
        rules: G::Rules,
        tb: Option<&dyn Tablebase<G>>,
        note: Option<String>,
    ) -> Result<Value, ApiError> {
        let record = replay::<G>(&rules, self.req)?;
        if record.outcome().is_some() {
            return Err(ApiError::bad("the game is over: nothing to solve"));
        }
        let Some(stop) = self.stop else {
            return Ok(Value::Null);
        };
        let pos = record.position().clone();
        // The time cap: the solver gives up on its own at its next poll.
        let _deadline = kete::solve::Deadline::start(Duration::from_millis(self.ms), stop.clone());
        // The job's share of the server's memory holds the table and, in a
        // game whose positions repeat, the graph of the positions (160
        // bytes each): half each. The solver's own default graph budget (4
        // million positions) would take several times that share.
        let share = (self.hash_mb as u64) << 20;
        let opts = SolveOptions {
            hash_mb: (self.hash_mb / 2).max(1),
            graph_budget: (share / 2 / 160) as usize,
            all_best: true,
            stop: Some(stop),
            ..SolveOptions::default()
        };
        let started = std::time::Instant::now();
        let r = solve_with_tablebase(&pos, &opts, tb, &mut |_| {});
        let best: Vec<String> = r.best.iter().map(|&m| pos.format_move(m)).collect();
        let side = pos.side_to_move();
        let sign = if side == Side::South { 1 } else { -1 };
        let south = |v: i32| v * sign;
        let (lower, upper) = if sign > 0 {
            (r.lower, r.upper)
        } else {
            (-r.upper, -r.lower)
        };
        let game_words = pos.words();
        let words = if r.complete {
            let v = south(r.value);
            match v.cmp(&0) {
                std::cmp::Ordering::Equal => "a draw with best play".to_string(),
                _ => format!(
                    "{} wins by {} with best play",
                    side_title(if v > 0 { Side::South } else { Side::North }),
                    game_words.count(v.unsigned_abs()),
                ),
            }
        } else {
            // The bounds in the evaluation's words: "+4 seeds for North".
            format!(
                "not solved in time: between {} and {}",
                seeds_text(100 * lower, &game_words),
                seeds_text(100 * upper, &game_words)
            )
        };
        Ok(json!({
            "south": south(r.value),
            "south_lower": lower,
            "south_upper": upper,
            "words": words,
            "exact": r.complete,
            "value": r.value,
            "lower": r.lower,
            "upper": r.upper,
            "side": pos.side_to_move(),
            "best": best,
            "nodes": r.nodes,
            "egtb": tb.is_some(),
            "tbhits": r.tbhits,
            "note": note,
            "ms": started.elapsed().as_millis() as u64,
        }))
    }
}

impl SolveVisitor for Solve<'_> {
    type Output = Result<Value, ApiError>;
    fn with_databases<G: kete::game::DbSpec>(self, rules: G::Rules) -> Self::Output {
        // A database for other rules or another game is left out, and so
        // is any where its values are of another game than the rules'.
        let refused = G::db_refused(&rules);
        let db = self.egtb.clone();
        let tb = db
            .as_deref()
            .filter(|db| refused.is_none() && db.check::<G>(&rules).is_ok());
        let note = match (tb, refused) {
            (Some(db), _) => G::db_note(db.max_seeds()),
            (None, Some(why)) if db.is_some() => Some(format!("no database: {why}")),
            _ => None,
        };
        self.run::<G>(rules, tb.map(|d| d as &dyn Tablebase<G>), note)
    }
    fn solvable<G: SolveGame>(self, rules: G::Rules) -> Self::Output {
        self.run::<G>(rules, None, None)
    }
    fn unsolvable<G: Game>(self, _: G::Rules, why: &'static str) -> Self::Output {
        Err(ApiError::bad(format!("this game cannot be solved: {why}")))
    }
}

/// A search by an external engine, started for this one request and driven
/// through kete-arena's engine code: its `info` lines go to the page as the
/// in-process search's do, a hint's lines are asked for with `MultiPV` when
/// the engine offers it, and its move is checked by the rules.
fn external(
    cfg: &kete::arena::EngineConfig,
    variant: &Variant,
    req: &GameRequest,
    stop: &AtomicBool,
    tx: &Sender<(String, String)>,
) -> Result<Value, ApiError> {
    use kete::arena::engine::EngineProcess;
    let fail = |f: kete::arena::engine::Failure| {
        ApiError::new(502, format!("engine {}: {}", cfg.name, f.detail))
    };
    let setup = Duration::from_secs(10);
    let mut engine = EngineProcess::start(cfg).map_err(fail)?;
    engine.handshake(cfg, variant, setup).map_err(fail)?;
    if let Some(l) = req
        .level
        .as_deref()
        .filter(|l| Player::by_name(l) != Some(Player::Full))
        && engine.offers("Level")
    {
        engine.set_option("Level", l).map_err(fail)?;
    }
    let multipv = req.multipv.unwrap_or(1);
    if multipv > 1 && engine.offers("MultiPV") {
        engine
            .set_option("MultiPV", &multipv.to_string())
            .map_err(fail)?;
    }
    engine.new_game(setup).map_err(fail)?;
    let base = match &req.start {
        Some(t) if !t.trim().is_empty() => format!("position fen {t}"),
        _ => "position startpos".to_string(),
    };
    let position = kete::arena::play::position_command(&base, &req.moves, &cfg.movesep);
    let ms = req.movetime_ms.unwrap_or(MAX_SEARCH_MS);
    let go = match req.depth {
        Some(d) => format!("go depth {d} movetime {ms}"),
        None => format!("go movetime {ms}"),
    };
    let (side, words) = variant.visit_board(ToMove(req))?;
    let mut lines = BTreeMap::new();
    let reply = engine
        .go_watched(
            &position,
            &go,
            Duration::from_millis(ms) + setup,
            Some(stop),
            &mut |i| {
                // Lines without a score or variation say nothing to show.
                if i.score.is_none() && i.pv.is_empty() {
                    return;
                }
                let score = i.score.as_deref();
                let info = json!({
                    "depth": i.depth,
                    "multipv": i.multipv.unwrap_or(1),
                    "eval": score.and_then(|s| external_eval(s, side, &words)),
                    "score": score,
                    // Centiseeds; a mate's distance is only in `score`.
                    "cp": score.and_then(|s| s.strip_prefix("cp ")?.parse::<i64>().ok()),
                    "nodes": i.nodes,
                    "tbhits": i.tbhits,
                    "ms": i.time_ms,
                    "pv": i.pv,
                });
                let _ = tx.send(("info".into(), info.to_string()));
                lines.insert(i.multipv.unwrap_or(1), info);
            },
        )
        .map_err(fail)?;
    engine.quit();
    let cell = variant.visit_board(MoveCell(req, &reply.mv))?;
    Ok(json!({
        "best": reply.mv,
        "cell": cell,
        "eval": reply.score.as_deref().and_then(|s| external_eval(s, side, &words)),
        "score": reply.score,
        "depth": reply.depth,
        "engine": cfg.name,
        "ms": reply.elapsed.as_millis() as u64,
        "lines": lines.into_values().collect::<Vec<_>>(),
    }))
}

/// The side to move in the request's position.
struct ToMove<'a>(&'a GameRequest);

impl BoardVisitor for ToMove<'_> {
    type Output = Result<(Side, Words), ApiError>;
    fn visit<G: Board>(self, rules: G::Rules) -> Result<(Side, Words), ApiError> {
        let record = replay::<G>(&rules, self.0)?;
        let pos = record.position();
        Ok((pos.side_to_move(), pos.words()))
    }
}

/// The cell of a move text in the request's position, refusing an illegal
/// one.
struct MoveCell<'a>(&'a GameRequest, &'a str);

impl BoardVisitor for MoveCell<'_> {
    type Output = Result<usize, ApiError>;
    fn visit<G: Board>(self, rules: G::Rules) -> Result<usize, ApiError> {
        let record = replay::<G>(&rules, self.0)?;
        let pos = record.position();
        let mv = pos
            .parse_move(self.1)
            .map_err(|e| ApiError::new(502, format!("the engine's move '{}': {e}", self.1)))?;
        Ok(pos.move_cell(mv))
    }
}
