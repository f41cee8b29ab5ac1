//! kete-arena's records (`games.jsonl`) as Python objects, read by the
//! arena's own reader ([`kete::arena::record::read`]) and replayed through
//! [`Position`].

use std::collections::BTreeMap;
use std::path::PathBuf;

use kete::arena::record::{GameLine, MoveLine};
use pyo3::prelude::*;

use crate::RecordError;
use crate::position::{Position, move_error_at};
use crate::results::Score;

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
