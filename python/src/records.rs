//! kete-arena's records (`games.jsonl`) as Python objects, read by the
//! arena's own reader ([`kete::arena::record::read`]) and replayed through
//! [`Position`]; games played in Python written by the arena's own writer
//! ([`kete::arena::record::RecordFile`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use kete::arena::record::{GameLine, MoveLine, OpeningLine, RecordFile, Termination};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::RecordError;
use crate::position::{DynPos, Position, PyGame, move_error_at};
use crate::results::{Score, side_name};

/// One move of a recorded game, as the arena wrote it.
#[pyclass(module = "kete", frozen, get_all, from_py_object)]
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RecordedMove {
    /// The move in the variant's notation.
    pub r#move: String,
    /// `"south"` or `"north"` (`None` in records that did not say).
    pub side: Option<String>,
    /// Milliseconds from `go` to `bestmove`.
    pub ms: f64,
    /// The engine's last score before the move, from the mover's view, as
    /// the engine said it (`None` if it said none).
    pub score: Option<Score>,
    /// The depth the engine reported with it.
    pub depth: Option<u32>,
    /// The longest the move could take without being late, in ms.
    pub limit_ms: Option<f64>,
}

#[pymethods]
impl RecordedMove {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "RecordedMove", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "RecordedMove('{}', side={}, score={}, ms={})",
            self.r#move,
            crate::results::py_opt(self.side.as_deref()),
            self.score
                .as_ref()
                .map_or("None".to_string(), |s| format!("'{}'", s.__str__())),
            self.ms
        )
    }
}

impl RecordedMove {
    fn of(m: &MoveLine) -> RecordedMove {
        RecordedMove {
            r#move: m.mv.clone(),
            side: m.side.and_then(|c| match c {
                'S' => Some("south".to_string()),
                'N' => Some("north".to_string()),
                _ => None,
            }),
            ms: m.ms,
            score: m
                .score
                .as_deref()
                .and_then(|s| Score::parse(s, false, None)),
            depth: m.depth,
            limit_ms: m.limit_ms,
        }
    }
}

/// One game of a kete-arena record: who played, the opening, every move
/// with its time and score, and how it ended. `positions()` replays it.
#[pyclass(module = "kete", frozen, get_all, from_py_object)]
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RecordedGame {
    /// The game's place in the tournament's schedule.
    pub id: usize,
    /// The round of the schedule it was played in.
    pub round: usize,
    /// The pair of games (one opening, colours swapped) it belongs to.
    pub pair: usize,
    /// The engine playing South (player 1, moves first).
    pub south: String,
    /// The engine playing North.
    pub north: String,
    /// The variant's canonical name.
    pub variant: String,
    /// Every rule option with its value.
    pub options: BTreeMap<String, String>,
    /// The start position's token, when not the variant's own.
    pub start_fen: Option<String>,
    /// The opening's moves, played before the engines took over.
    pub opening: Vec<String>,
    /// The engines' moves.
    pub moves: Vec<RecordedMove>,
    /// `"p1win"`, `"p2win"` or `"draw"`.
    pub result: String,
    /// `"rules"`, `"adjudication"`, `"crash"`, `"timeout"`, `"illegal"` or
    /// `"handshake"`.
    pub termination: String,
    /// Why the rules ended it, in one word, if they did.
    pub end: Option<String>,
    /// The result explained.
    pub reason: String,
    /// The engine whose failure decided the game, if one did.
    pub offender: Option<String>,
    /// The final seeds (South, North) where the game counts them.
    pub seeds: Option<(u32, u32)>,
    /// The token of the last position.
    pub final_fen: String,
}

impl RecordedGame {
    fn of(g: GameLine) -> RecordedGame {
        RecordedGame {
            id: g.id,
            round: g.round,
            pair: g.pair,
            south: g.south,
            north: g.north,
            variant: g.variant,
            options: g.options,
            start_fen: g.opening.fen,
            opening: g.opening.moves,
            moves: g.moves.iter().map(RecordedMove::of).collect(),
            result: g.result,
            termination: g.termination.as_str().to_string(),
            end: g.end,
            reason: g.reason,
            offender: g.offender,
            seeds: g.seeds,
            final_fen: g.final_position,
        }
    }

    fn fail(&self, what: String) -> PyErr {
        RecordError::new_err(format!("game {}: {what}", self.id))
    }
}

#[pymethods]
impl RecordedGame {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "RecordedGame", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The position the game started from, before its opening.
    fn start(&self) -> PyResult<Position> {
        let mut v = kete::variants::Variant::by_name(&self.variant).map_err(|e| self.fail(e))?;
        for (k, val) in &self.options {
            v.set_option(k, val).map_err(|e| self.fail(e))?;
        }
        Position::build(v, self.start_fen.as_deref())
            .map_err(|e| Python::attach(|py| self.fail(e.value(py).to_string())))
    }

    /// The position before each engine move, then the final one
    /// (`len(moves) + 1` positions; the first is the opening's end).
    fn positions(&self) -> PyResult<Vec<Position>> {
        let start = self.start()?;
        let mut pos = start.inner.clone_box();
        for (i, m) in self.opening.iter().enumerate() {
            pos.play(m).map_err(|e| {
                let err = move_error_at(e, "");
                Python::attach(|py| {
                    self.fail(format!("opening move {} '{m}': {}", i + 1, err.value(py)))
                })
            })?;
        }
        let mut out = vec![Position::of(pos.clone_box())];
        for (i, m) in self.moves.iter().enumerate() {
            pos.play(&m.r#move)
                .map_err(|e| self.fail(format!("move {} '{}': {e}", i + 1, m.r#move)))?;
            out.push(Position::of(pos.clone_box()));
        }
        Ok(out)
    }

    /// Every ply from the start, the opening's included: the position
    /// before it and its move, `len(all_moves)` pairs in order (training
    /// pairs; `positions()` starts after the opening).
    fn plies(&self) -> PyResult<Vec<(Position, String)>> {
        let start = self.start()?;
        let mut pos = start.inner.clone_box();
        let mut out = Vec::with_capacity(self.opening.len() + self.moves.len());
        let moves = self
            .opening
            .iter()
            .map(|m| ("opening move", m))
            .chain(self.moves.iter().map(|m| ("move", &m.r#move)));
        for (i, (what, m)) in moves.enumerate() {
            out.push((Position::of(pos.clone_box()), m.clone()));
            pos.play(m)
                .map_err(|e| self.fail(format!("{what} '{m}' (ply {}): {e}", i + 1)))?;
        }
        Ok(out)
    }

    /// Every move from the start: the opening's, then the engines'.
    #[getter]
    fn all_moves(&self) -> Vec<String> {
        self.opening
            .iter()
            .cloned()
            .chain(self.moves.iter().map(|m| m.r#move.clone()))
            .collect()
    }

    /// A game played in Python (a `kete.Game`, or a `kete.Position` with
    /// the moves that led to it) as kete-arena records a game: every move
    /// from its start with its side (no time or score), the first
    /// `opening` moves as the opening. A game the rules ended has their
    /// result and reason; one still going is adjudicated by the seed count,
    /// as kete-arena adjudicates a game at `--maxplies`. `south` and
    /// `north` name the players; `pair` defaults to `id`.
    #[staticmethod]
    #[pyo3(signature = (game, *, south = "python", north = "python", id = 0, round = 0, pair = None, opening = 0))]
    fn from_game(
        game: &Bound<'_, PyAny>,
        south: &str,
        north: &str,
        id: usize,
        round: usize,
        pair: Option<usize>,
        opening: usize,
    ) -> PyResult<RecordedGame> {
        let inner = played(game)?;
        RecordedGame::of_position(inner.as_ref(), (south, north), id, round, pair, opening)
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "RecordedGame(id={}, {} vs {}, {}, {} moves, {})",
            self.id,
            self.south,
            self.north,
            self.variant,
            self.moves.len(),
            self.result
        )
    }
}

/// Reads a kete-arena record file (`games.jsonl`) with the arena's own
/// reader: every finished game, in the order written.
#[pyfunction]
pub fn read_games(path: PathBuf) -> PyResult<Vec<RecordedGame>> {
    if !path.exists() {
        return Err(RecordError::new_err(format!(
            "{}: no such file",
            path.display()
        )));
    }
    let games =
        kete::arena::record::read(&path).map_err(|e| RecordError::new_err(e.to_string()))?;
    Ok(games.into_iter().map(RecordedGame::of).collect())
}

impl RecordedGame {
    /// The arena's line for this game (what `read_games` reads back as it).
    fn to_line(&self) -> PyResult<GameLine> {
        let termination: Termination =
            serde_json::from_value(serde_json::Value::String(self.termination.clone())).map_err(
                |_| {
                    self.fail(format!(
                        "termination '{}' is not one of rules, adjudication, crash, timeout, illegal, handshake",
                        self.termination
                    ))
                },
            )?;
        if !matches!(self.result.as_str(), "p1win" | "p2win" | "draw") {
            return Err(self.fail(format!(
                "result '{}' is not p1win, p2win or draw",
                self.result
            )));
        }
        let side = |s: &Option<String>| match s.as_deref() {
            Some("south") => Ok(Some('S')),
            Some("north") => Ok(Some('N')),
            None => Ok(None),
            Some(other) => Err(self.fail(format!("side '{other}' is not south or north"))),
        };
        let moves = self
            .moves
            .iter()
            .map(|m| {
                Ok(MoveLine {
                    mv: m.r#move.clone(),
                    ms: m.ms,
                    score: m.score.as_ref().map(|s| s.__str__()),
                    depth: m.depth,
                    side: side(&m.side)?,
                    limit_ms: m.limit_ms,
                    ponderhit: false,
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(GameLine {
            id: self.id,
            round: self.round,
            pair: self.pair,
            south: self.south.clone(),
            north: self.north.clone(),
            variant: self.variant.clone(),
            options: self.options.clone(),
            opening: OpeningLine {
                index: 0,
                fen: self.start_fen.clone(),
                moves: self.opening.clone(),
            },
            moves,
            result: self.result.clone(),
            termination,
            end: self.end.clone(),
            reason: self.reason.clone(),
            offender: self.offender.clone(),
            seeds: self.seeds,
            final_position: self.final_fen.clone(),
            engines: None,
        })
    }

    /// A game played in Python as the arena records it: `inner`'s moves
    /// from its start, the first `opening` of them as the opening.
    fn of_position(
        inner: &dyn DynPos,
        names: (&str, &str),
        id: usize,
        round: usize,
        pair: Option<usize>,
        opening: usize,
    ) -> PyResult<RecordedGame> {
        let variant = inner.variant();
        let history = inner.history();
        if opening > history.len() {
            return Err(RecordError::new_err(format!(
                "opening={opening}: the game has only {} moves",
                history.len()
            )));
        }
        let start_fen = (!inner.starts_at_start()).then(|| inner.start_fen());
        let mut pos = Position::build(variant, start_fen.as_deref())?.inner;
        let mut moves = Vec::new();
        for (i, m) in history.iter().enumerate() {
            let side = side_name(pos.side_to_move()).to_string();
            pos.play(m)
                .map_err(|e| RecordError::new_err(format!("move {} '{m}': {e}", i + 1)))?;
            if i >= opening {
                moves.push(RecordedMove {
                    r#move: m.clone(),
                    side: Some(side),
                    ms: 0.0,
                    score: None,
                    depth: None,
                    limit_ms: None,
                });
            }
        }
        let seeds_text =
            |s: Option<(u32, u32)>| s.map_or(String::new(), |(s, n)| format!(" {s}-{n}"));
        // As kete-arena: a game the rules ended, else one stopped where it
        // stands, adjudicated by the seed count.
        let (outcome, termination, end, reason) = match inner.outcome() {
            Some((o, why)) => (
                o,
                Termination::Rules,
                why.map(|r| r.code().to_string()),
                format!(
                    "game over by the rules: {}:{} ({})",
                    why.map_or_else(|| "game over".to_string(), |r| r.to_string()),
                    seeds_text(o.seeds),
                    o.result
                ),
            ),
            None => {
                let o = match inner.seed_count() {
                    Some((s, n)) => kete::Outcome::by_count(s, n),
                    None => kete::Outcome {
                        result: kete::game::GameResult::Draw,
                        seeds: None,
                    },
                };
                let how = if o.seeds.is_some() {
                    format!("by the seed count{}", seeds_text(o.seeds))
                } else {
                    "as a draw (the variant counts no seeds)".to_string()
                };
                let plies = history.len();
                let reason = format!("adjudicated after {plies} plies {how} ({})", o.result);
                (o, Termination::Adjudication, None, reason)
            }
        };
        Ok(RecordedGame {
            id,
            round,
            pair: pair.unwrap_or(id),
            south: names.0.to_string(),
            north: names.1.to_string(),
            variant: variant.name().to_string(),
            options: variant
                .option_values()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            start_fen,
            opening: history[..opening].to_vec(),
            moves,
            result: outcome.result.as_str().to_string(),
            termination: termination.as_str().to_string(),
            end,
            reason,
            offender: None,
            seeds: outcome.seeds,
            final_fen: inner.fen(),
        })
    }
}

/// The position (with its moves) of a `kete.Game` or a `kete.Position`.
fn played(game: &Bound<'_, PyAny>) -> PyResult<Box<dyn DynPos>> {
    if let Ok(p) = game.cast::<Position>() {
        return Ok(p.get().inner.clone_box());
    }
    if game.cast::<PyGame>().is_ok() {
        let p = game.getattr("position")?;
        return Ok(p.cast::<Position>()?.get().inner.clone_box());
    }
    Err(PyTypeError::new_err(format!(
        "a game to write is a kete.Game, a kete.Position (with its moves) or a kete.RecordedGame, not a {}",
        game.get_type().name()?
    )))
}

fn arena_error(e: kete::arena::ArenaError) -> PyErr {
    match e {
        kete::arena::ArenaError::Io { .. } => PyOSError::new_err(e.to_string()),
        e => RecordError::new_err(e.to_string()),
    }
}

/// A kete-arena record file (`games.jsonl`) open for writing games played
/// in Python, one line each, written and flushed at once with the arena's
/// own writer (`kete::arena::record::RecordFile`), so that `read_games`,
/// `kete-arena accuracy` and `merge` read them.
///
/// `GameWriter(path, append=True)`: with `append`, the games already in
/// the file stay (a torn last line is cut, as the arena does) and new ids
/// follow theirs; without, the file starts empty. Use it as a context
/// manager, or `close()` it.
#[pyclass(module = "kete")]
pub struct GameWriter {
    file: Option<RecordFile>,
    path: PathBuf,
    next_id: usize,
    written: usize,
}

impl GameWriter {
    fn open(path: PathBuf, append: bool) -> PyResult<GameWriter> {
        if !append {
            std::fs::File::create(&path)
                .map_err(|e| PyOSError::new_err(format!("cannot write {}: {e}", path.display())))?;
        }
        let (file, games) = RecordFile::open(&path).map_err(arena_error)?;
        Ok(GameWriter {
            file: Some(file),
            next_id: games.iter().map(|g| g.id + 1).max().unwrap_or(0),
            path,
            written: 0,
        })
    }

    fn put(
        &mut self,
        game: &Bound<'_, PyAny>,
        names: (&str, &str),
        opening: usize,
    ) -> PyResult<RecordedGame> {
        let Some(file) = self.file.as_mut() else {
            return Err(PyValueError::new_err(format!(
                "{}: the writer is closed",
                self.path.display()
            )));
        };
        let record = match game.cast::<RecordedGame>() {
            Ok(r) => r.get().clone(),
            Err(_) => {
                let inner = played(game)?;
                RecordedGame::of_position(inner.as_ref(), names, self.next_id, 0, None, opening)?
            }
        };
        file.append(&record.to_line()?).map_err(arena_error)?;
        self.next_id = self.next_id.max(record.id + 1);
        self.written += 1;
        Ok(record)
    }
}

#[pymethods]
impl GameWriter {
    #[new]
    #[pyo3(signature = (path, *, append = true))]
    fn new(path: PathBuf, append: bool) -> PyResult<GameWriter> {
        GameWriter::open(path, append)
    }

    /// Writes one game: a `kete.RecordedGame` as it is, or a `kete.Game`
    /// (`kete.Position`) as `RecordedGame.from_game` makes it, with the
    /// next id. Returns the record written.
    #[pyo3(signature = (game, *, south = "python", north = "python", opening = 0))]
    fn write(
        &mut self,
        game: &Bound<'_, PyAny>,
        south: &str,
        north: &str,
        opening: usize,
    ) -> PyResult<RecordedGame> {
        self.put(game, (south, north), opening)
    }

    /// Closes the file (every game is already written).
    fn close(&mut self) {
        self.file = None;
    }

    /// The file written to.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// Games written by this writer.
    #[getter]
    fn written(&self) -> usize {
        self.written
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.file.is_none()
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &mut self,
        _ty: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    fn __repr__(&self) -> String {
        format!(
            "GameWriter('{}', {} written{})",
            self.path.display(),
            self.written,
            if self.file.is_none() { ", closed" } else { "" }
        )
    }
}

/// Writes `games` (each a `kete.Game`, a `kete.Position` with its moves or
/// a `kete.RecordedGame`) to the kete-arena record file `path`, as
/// `GameWriter(path, append=append).write(game, south=…, north=…)` does
/// for each; returns how many were written.
#[pyfunction]
#[pyo3(signature = (path, games, *, append = true, south = "python", north = "python"))]
pub fn write_games(
    path: PathBuf,
    games: &Bound<'_, PyAny>,
    append: bool,
    south: &str,
    north: &str,
) -> PyResult<usize> {
    let mut w = GameWriter::open(path, append)?;
    for g in games.try_iter()? {
        w.put(&g?, (south, north), 0)?;
    }
    Ok(w.written)
}
