//! What a search or a solve answers, as Python objects: [`Score`],
//! [`Line`], [`Analysis`] and [`Solution`]. The in-process engine and an
//! external one answer with the same objects.

use kete::game::Side;
use pyo3::prelude::*;

/// `'text'`, as Python shows a string.
pub fn py_str(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// A string or `None`, as Python shows it.
pub fn py_opt(s: Option<&str>) -> String {
    s.map_or("None".to_string(), py_str)
}

/// A list of strings, as Python shows it.
pub fn py_list(v: &[String]) -> String {
    format!(
        "[{}]",
        v.iter().map(|s| py_str(s)).collect::<Vec<_>>().join(", ")
    )
}

/// A score as the protocol states it: `cp N` (centiseeds, the side to
/// move's view) or `mate N` (moves to a won game, negative when lost).
#[pyclass(module = "kete", frozen, from_py_object)]
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Score {
    text: String,
    cp: Option<i64>,
    mate: Option<i64>,
    /// Whether the score is the game's exact value (every line searched
    /// to the end of the game), not an estimate.
    #[pyo3(get)]
    pub(crate) proven: bool,
    /// `"lower"` or `"upper"` when the score is only a bound, else `None`.
    #[pyo3(get)]
    bound: Option<String>,
}

impl Score {
    /// Reads `cp N` or `mate N`; `None` for anything else.
    pub fn parse(text: &str, proven: bool, bound: Option<&str>) -> Option<Score> {
        let mut words = text.split_whitespace();
        let (unit, value) = (words.next()?, words.next()?.parse::<i64>().ok()?);
        let (cp, mate) = match unit {
            "cp" => (Some(value), None),
            "mate" => (None, Some(value)),
            _ => return None,
        };
        Some(Score {
            text: format!("{unit} {value}"),
            cp,
            mate,
            proven,
            bound: bound.map(str::to_string),
        })
    }

    /// A score of kete's search or solver, as the protocol would say it.
    pub fn of_engine(score: i32, proven: bool, bound: Option<&str>) -> Score {
        let text = kete::protocol::text::score_text(score);
        Score::parse(&text, proven, bound).expect("kete's own score text reads back")
    }
}

#[pymethods]
impl Score {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "Score", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// `"seeds"` for a score in seeds, `"mate"` for a won or lost game.
    #[getter]
    fn kind(&self) -> &'static str {
        if self.mate.is_some() { "mate" } else { "seeds" }
    }

    /// The score in centiseeds (100 = one seed of final margin), or `None`
    /// for a mate score.
    #[getter]
    fn cp(&self) -> Option<i64> {
        self.cp
    }

    /// The score in seeds (`cp / 100`), or `None` for a mate score.
    #[getter]
    fn seeds(&self) -> Option<f64> {
        self.cp.map(|c| c as f64 / 100.0)
    }

    /// Moves to the end of a won (positive) or lost (negative) game, or
    /// `None` for a score in seeds.
    #[getter]
    fn mate(&self) -> Option<i64> {
        self.mate
    }

    pub fn __str__(&self) -> String {
        self.text.clone()
    }

    pub fn __repr__(&self) -> String {
        let mut s = format!("Score('{}'", self.text);
        if self.proven {
            s.push_str(", proven");
        }
        if let Some(b) = &self.bound {
            s.push_str(&format!(", {b} bound"));
        }
        s.push(')');
        s
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Score>().is_ok_and(|o| *o.get() == *self)
    }
}

/// One line of an analysis (one per `multipv`).
#[pyclass(module = "kete", frozen, get_all, from_py_object)]
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Line {
    /// The line's rank, from 1.
    pub multipv: usize,
    /// The line's score (`None` if an external engine gave none).
    pub score: Option<Score>,
    /// The depth of the iteration that found it, in plies.
    pub depth: Option<u32>,
    /// The longest line looked at.
    pub seldepth: Option<u32>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Seconds since the search started.
    pub time: Option<f64>,
    /// Positions whose value came from an endgame database.
    pub tbhits: Option<u64>,
    /// The moves of the line, the first one first.
    pub pv: Vec<String>,
}

#[pymethods]
impl Line {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "Line", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Line(multipv={}, score={}, depth={}, pv={})",
            self.multipv,
            self.score.as_ref().map_or("None".into(), |s| s.__repr__()),
            self.depth.map_or("None".into(), |d| d.to_string()),
            py_list(&self.pv)
        )
    }
}

/// What a search found: the move to play and its lines.
#[pyclass(module = "kete", frozen, get_all, from_py_object)]
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Analysis {
    /// The move the engine would play; `None` when the game is over.
    pub best_move: Option<String>,
    /// The lines, best first (more than one with `multipv`).
    pub lines: Vec<Line>,
    /// Whether `Ctrl-C` (or `stop`) ended the search early.
    pub stopped: bool,
    /// Seconds the call took.
    pub elapsed: f64,
    /// The opponent's reply the engine expects (`bestmove … ponder …`),
    /// checked by the rules; `None` where it named none, or its move keeps
    /// the turn.
    pub ponder: Option<String>,
}

#[pymethods]
impl Analysis {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "Analysis", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The best line's score.
    #[getter]
    fn score(&self) -> Option<Score> {
        self.lines.first().and_then(|l| l.score.clone())
    }

    /// The best line's depth.
    #[getter]
    fn depth(&self) -> Option<u32> {
        self.lines.first().and_then(|l| l.depth)
    }

    /// Nodes searched.
    #[getter]
    fn nodes(&self) -> Option<u64> {
        self.lines.first().and_then(|l| l.nodes)
    }

    /// The best line's moves.
    #[getter]
    fn pv(&self) -> Vec<String> {
        self.lines.first().map(|l| l.pv.clone()).unwrap_or_default()
    }

    fn __repr__(&self) -> String {
        format!(
            "Analysis(best_move={}, score={}, depth={}, pv={}{})",
            py_opt(self.best_move.as_deref()),
            self.score().map_or("None".into(), |s| s.__repr__()),
            self.depth().map_or("None".into(), |d| d.to_string()),
            py_list(&self.pv()),
            if self.stopped { ", stopped" } else { "" }
        )
    }
}

/// What the exact solver proved about a position.
///
/// In a game decided by counting seeds (Kalah, Oware, En Dodoi) `value` is
/// the final seed margin with perfect play, from the side to move's view,
/// and `best_moves` the moves that keep it. In Bao, won or lost without
/// counting, the solver proves a forced win or loss: `verdict` and `mate`.
#[pyclass(module = "kete", frozen, get_all, from_py_object)]
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Solution {
    /// Whether the answer is exact: the value (or verdict) is proven and,
    /// with `all_best`, so is every best move. A solve stopped once the
    /// value was pinned (`lower == upper`) but before every best move was
    /// is not `proven`: its value is, its `best_moves` may lack some.
    pub proven: bool,
    /// The exact margin (proven), else the best estimate so far; `None` in
    /// Bao.
    pub value: Option<i64>,
    /// The lower bound proved on the value (equal to it when proven).
    pub lower: Option<i64>,
    /// The upper bound proved on the value (equal to it when proven).
    pub upper: Option<i64>,
    /// Every move that keeps the value (with `all_best`), else one; in Bao
    /// the first move of the winning line.
    pub best_moves: Vec<String>,
    /// Bao: `"win"` or `"loss"` for the side to move, or `None` unproven.
    pub verdict: Option<String>,
    /// Bao: moves to the end of a proven game (negative: lost).
    pub mate: Option<i64>,
    /// Bao: the proof's winning line.
    pub pv: Vec<String>,
    /// The side to move: `"south"` or `"north"`.
    pub side: String,
    /// Positions the solve looked at.
    pub nodes: u64,
    /// Positions whose value came from the database.
    pub tbhits: u64,
    /// The endgame database the solve probed, if any.
    pub database: Option<String>,
    /// Whether `Ctrl-C` or the time limit ended the solve first.
    pub stopped: bool,
    /// Seconds the call took.
    pub elapsed: f64,
}

#[pymethods]
impl Solution {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "Solution", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The value from South's view (`value` turned for North to move).
    #[getter]
    fn value_for_south(&self) -> Option<i64> {
        self.value
            .map(|v| if self.side == "south" { v } else { -v })
    }

    /// The solver's answer as a [`Score`] (proven or not).
    #[getter]
    fn score(&self) -> Option<Score> {
        if let Some(m) = self.mate {
            return Score::parse(&format!("mate {m}"), self.proven, None);
        }
        self.value
            .and_then(|v| Score::parse(&format!("cp {}", 100 * v), self.proven, None))
    }

    fn __repr__(&self) -> String {
        match (&self.verdict, self.value) {
            (_, Some(v)) => format!(
                "Solution(value={v:+}, best_moves={}, {})",
                py_list(&self.best_moves),
                match (self.proven, self.lower, self.upper) {
                    (true, _, _) => "proven".to_string(),
                    (false, Some(lo), Some(hi)) if lo == hi => {
                        "value proven, not every best move".to_string()
                    }
                    _ => format!(
                        "unproven: value in [{}, {}]",
                        self.lower.unwrap_or(v),
                        self.upper.unwrap_or(v)
                    ),
                }
            ),
            (Some(verdict), None) => format!(
                "Solution(verdict='{verdict}', mate={}, pv={})",
                self.mate.map_or("None".into(), |m| m.to_string()),
                py_list(&self.pv)
            ),
            (None, None) => format!(
                "Solution(unproven, best_moves={})",
                py_list(&self.best_moves)
            ),
        }
    }
}

/// A side's name as Python code spells it.
pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::South => "south",
        Side::North => "north",
    }
}
