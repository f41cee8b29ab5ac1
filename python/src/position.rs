//! `kete.Position`: a game of any variant, as a trait object over the
//! library's generic code.
//!
//! A position is a [`GameRecord`] (the start and the moves played since,
//! so that Oware's repetition rule applies as the referee applies it) of
//! the variant's game type. [`DynPos`] is its object-safe face, implemented
//! once for every `G: Board` by [`PosImpl`]; the registry builds it
//! ([`Variant::visit_board`]), with what the solver can do with the game
//! ([`Caps`], from [`Variant::visit_solver`], which names the same type).

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use kete::game::{
    Board, CellKind, EndReason, GameRecord, MoveError, Side, in_move_order, trim_lines,
};
use kete::variants::{BoardVisitor, Variant};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::core::{Caps, MakeCaps, SearchJob, SearchOut, SolveJob, SolveOut};
use crate::results::side_name;
use crate::{
    GameOverError, IllegalMoveError, InvalidMoveError, KeteValueError, NotationError, OptionError,
    UnknownVariantError,
};

/// A position of some variant, whatever its game type.
pub trait DynPos: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn clone_box(&self) -> Box<dyn DynPos>;
    fn variant(&self) -> Variant;
    /// The legal moves' texts in the order of the pits; none once over.
    fn moves(&self) -> Vec<String>;
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    /// The position after `text`, `self` left alone.
    fn after(&self, text: &str) -> Result<Box<dyn DynPos>, MoveError>;
    fn fen(&self) -> String;
    /// The token of the position the record starts from.
    fn start_fen(&self) -> String;
    /// Whether the record starts from the variant's start position.
    fn starts_at_start(&self) -> bool;
    /// The moves played since the start, as texts.
    fn history(&self) -> Vec<String>;
    /// How many moves were played since the start.
    fn plies(&self) -> usize;
    fn side_to_move(&self) -> Side;
    fn outcome(&self) -> Option<(kete::Outcome, Option<EndReason>)>;
    fn seed_count(&self) -> Option<(u32, u32)>;
    fn total_seeds(&self) -> u32;
    fn cells(&self) -> Vec<kete::game::Cell>;
    /// The cells of the legal moves.
    fn legal_cells(&self) -> Vec<usize>;
    /// The cell the last move played started from, if a move was played.
    /// What the last turn did (the moves the last mover made in a row).
    fn last_turn(&self) -> kete::draw::Turn;
    fn diagram(&self) -> String;
    fn svg(&self, view: &kete::draw::View) -> String;
    /// Perft from this position alone (as `kete perft --fen`); `None` when
    /// `stop` ended it.
    fn perft(&self, depth: u32, bulk: bool, stop: &Arc<AtomicBool>) -> Option<u64>;
    fn hash64(&self) -> u64;
    fn same(&self, other: &dyn DynPos) -> bool;
    fn search(&self, job: &mut SearchJob<'_>) -> SearchOut;
    fn solve(&self, job: &mut SolveJob<'_>) -> Result<SolveOut, String>;
    /// The size of the variant's action space ([`kete::game::Game::action_count`]).
    fn action_count(&self) -> usize;
    /// The legal moves' actions, in increasing order; none once over.
    fn legal_actions(&self) -> Vec<usize>;
    /// The action of the legal move `text`.
    fn action_of_text(&self, text: &str) -> Result<usize, MoveError>;
    /// The text of the legal move whose action is `action`; `None` when no
    /// legal move has it.
    fn text_of_action(&self, action: usize) -> Option<String>;
    fn observation_len(&self) -> usize;
    /// The observation as `view` sees it (the side to move when `None`).
    fn observe(&self, view: Option<Side>, out: &mut [f32]);
}

/// A position of the game `G`: the record of its game, and what the solver
/// can do with it.
pub struct PosImpl<G: Board> {
    pub record: GameRecord<G>,
    pub caps: Caps<G>,
    pub variant: Variant,
}

impl<G: Board> Clone for PosImpl<G> {
    fn clone(&self) -> Self {
        PosImpl {
            record: self.record.clone(),
            caps: self.caps,
            variant: self.variant,
        }
    }
}

impl<G: Board> DynPos for PosImpl<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn clone_box(&self) -> Box<dyn DynPos> {
        Box::new(self.clone())
    }
    fn variant(&self) -> Variant {
        self.variant
    }
    fn moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.record.legal_moves(&mut moves);
        in_move_order(self.record.position(), &moves)
            .into_iter()
            .map(|(_, t)| t)
            .collect()
    }
    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        self.record.play_text(text).map(drop)
    }
    fn after(&self, text: &str) -> Result<Box<dyn DynPos>, MoveError> {
        Ok(Box::new(PosImpl {
            record: self.record.after_text(text)?,
            caps: self.caps,
            variant: self.variant,
        }))
    }
    fn fen(&self) -> String {
        self.record.position().to_notation()
    }
    fn start_fen(&self) -> String {
        self.record.start().to_notation()
    }
    fn starts_at_start(&self) -> bool {
        *self.record.start() == G::start(&self.record.start().rules())
    }
    fn history(&self) -> Vec<String> {
        let positions = self.record.positions();
        self.record
            .moves()
            .iter()
            .zip(positions)
            .map(|(&m, p)| p.format_move(m))
            .collect()
    }
    fn plies(&self) -> usize {
        self.record.moves().len()
    }
    fn side_to_move(&self) -> Side {
        self.record.position().side_to_move()
    }
    fn outcome(&self) -> Option<(kete::Outcome, Option<EndReason>)> {
        self.record.outcome().map(|o| (o, self.record.end_reason()))
    }
    fn seed_count(&self) -> Option<(u32, u32)> {
        self.record.position().seed_count()
    }
    fn total_seeds(&self) -> u32 {
        self.record.position().total_seeds()
    }
    fn cells(&self) -> Vec<kete::game::Cell> {
        self.record.position().cells()
    }
    fn legal_cells(&self) -> Vec<usize> {
        let mut moves = Vec::new();
        self.record.legal_moves(&mut moves);
        let pos = self.record.position();
        let mut cells: Vec<usize> = moves.iter().map(|&m| pos.move_cell(m)).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }
    fn last_turn(&self) -> kete::draw::Turn {
        let (moves, positions) = (self.record.moves(), self.record.positions());
        let played: Vec<(G, G::Move)> = (self.record.last_turn_start()..moves.len())
            .map(|i| (positions[i].clone(), moves[i]))
            .collect();
        kete::draw::Turn::read(&played)
    }
    fn diagram(&self) -> String {
        trim_lines(&self.record.position().diagram())
    }
    fn svg(&self, view: &kete::draw::View) -> String {
        kete::draw::svg(self.record.position(), view)
    }
    fn perft(&self, depth: u32, bulk: bool, stop: &Arc<AtomicBool>) -> Option<u64> {
        if self.record.outcome().is_some() {
            return Some((depth == 0) as u64);
        }
        if depth == 0 {
            return Some(1);
        }
        // `stop` also ends a long move generation (Bao's never-ending
        // moves): counts made after it are wrong and not returned.
        let _armed = kete::interrupt::arm(None, std::slice::from_ref(stop));
        let counts =
            kete::perft::perft_divide_until(self.record.position(), depth, bulk, Some(stop))?;
        if kete::interrupt::tripped() {
            return None;
        }
        Some(counts.iter().map(|(_, c)| c.sequences).sum())
    }
    fn hash64(&self) -> u64 {
        self.record.position().hash()
    }
    fn same(&self, other: &dyn DynPos) -> bool {
        other
            .as_any()
            .downcast_ref::<PosImpl<G>>()
            .is_some_and(|o| {
                o.record.position() == self.record.position()
                    && o.record.position().rules() == self.record.position().rules()
                    && o.record.ended_by_repetition() == self.record.ended_by_repetition()
            })
    }
    fn search(&self, job: &mut SearchJob<'_>) -> SearchOut {
        crate::core::search_record(&self.record, &self.caps, job)
    }
    fn solve(&self, job: &mut SolveJob<'_>) -> Result<SolveOut, String> {
        (self.caps.solve)(&self.record, &self.caps, job)
    }
    fn action_count(&self) -> usize {
        G::action_count(&self.record.position().rules())
    }
    fn legal_actions(&self) -> Vec<usize> {
        let mut moves = Vec::new();
        self.record.legal_moves(&mut moves);
        let mut actions: Vec<usize> = moves.into_iter().map(G::action_of).collect();
        actions.sort_unstable();
        actions
    }
    fn action_of_text(&self, text: &str) -> Result<usize, MoveError> {
        if self.record.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let pos = self.record.position();
        let mv = pos.parse_move(text)?;
        Ok(G::action_of(mv))
    }
    fn text_of_action(&self, action: usize) -> Option<String> {
        let pos = self.record.position();
        let mv = G::move_of_action(&pos.rules(), action)?;
        let mut moves = Vec::new();
        self.record.legal_moves(&mut moves);
        moves.contains(&mv).then(|| pos.format_move(mv))
    }
    fn observation_len(&self) -> usize {
        G::observation_len(&self.record.position().rules())
    }
    fn observe(&self, view: Option<Side>, out: &mut [f32]) {
        let pos = self.record.position();
        pos.observe(view.unwrap_or(pos.side_to_move()), out)
    }
}

/// Builds a position of the variant: its start, or the token given.
struct MakePos<'a> {
    variant: Variant,
    fen: Option<&'a str>,
}

impl BoardVisitor for MakePos<'_> {
    type Output = Result<Box<dyn DynPos>, kete::game::NotationError>;
    fn visit<G: Board>(self, rules: G::Rules) -> Self::Output {
        let caps = self
            .variant
            .visit_solver(MakeCaps)
            .downcast::<Caps<G>>()
            .map(|c| *c)
            .unwrap_or_else(|_| unreachable!("the registry names one game type per variant"));
        let start = match self.fen {
            Some(t) => G::from_notation(&rules, t.trim())?,
            None => G::start(&rules),
        };
        Ok(Box::new(PosImpl {
            record: GameRecord::new(start),
            caps,
            variant: self.variant,
        }))
    }
}

/// The variant called `name` with `options` set (names in any case, `_`
/// ignored, so that `mtaji_takasa_nyumba=` sets `MtajiTakasaNyumba`).
pub fn variant_with(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Variant> {
    let mut v = Variant::by_name(name).map_err(UnknownVariantError::new_err)?;
    if let Some(opts) = options {
        for (k, val) in opts.iter() {
            let key: String = k.extract()?;
            set_option(&mut v, &key, &val)?;
        }
    }
    Ok(v)
}

/// Sets one rule option from a Python value (a number or a word).
pub fn set_option(v: &mut Variant, key: &str, val: &Bound<'_, PyAny>) -> PyResult<()> {
    let name = key.replace('_', "");
    let value = if let Ok(b) = val.extract::<bool>() {
        b.to_string()
    } else {
        val.str()?.to_string()
    };
    v.set_option(&name, &value).map_err(OptionError::new_err)
}

pub fn move_error(e: MoveError) -> PyErr {
    move_error_at(e, "")
}

/// [`move_error`] with `prefix` before kete's message.
pub fn move_error_at(e: MoveError, prefix: &str) -> PyErr {
    let text = format!("{prefix}{e}");
    match e {
        MoveError::Syntax(_) => InvalidMoveError::new_err(text),
        MoveError::Illegal(_) => IllegalMoveError::new_err(text),
        MoveError::GameOver => GameOverError::new_err(text),
    }
}

/// The text of the legal move whose action is `action`:
/// `InvalidMoveError` past the action space, `GameOverError` once over,
/// `IllegalMoveError` when no legal move has it.
fn action_text(inner: &dyn DynPos, action: i64) -> PyResult<String> {
    let count = inner.action_count();
    if action < 0 || action as u64 >= count as u64 {
        return Err(InvalidMoveError::new_err(format!(
            "action {action} is outside the action space 0..{count} of {}",
            inner.variant().name()
        )));
    }
    if inner.outcome().is_some() {
        return Err(move_error(MoveError::GameOver));
    }
    inner.text_of_action(action as usize).ok_or_else(|| {
        IllegalMoveError::new_err(format!(
            "action {action} is not a legal move here (legal actions: {:?})",
            inner.legal_actions()
        ))
    })
}

/// A numpy array of `action_count` booleans, true at the legal actions.
fn legal_mask<'py>(py: Python<'py>, inner: &dyn DynPos) -> Bound<'py, PyArray1<bool>> {
    let mask = PyArray1::<bool>::zeros(py, inner.action_count(), false);
    {
        let mut w = mask.readwrite();
        let slots = w.as_slice_mut().expect("a new array is contiguous");
        for a in inner.legal_actions() {
            slots[a] = true;
        }
    }
    mask
}

/// The observation as a numpy array of float32, written in place, as
/// `side` (`"south"`, `"north"`, or `None` for the side to move) sees it.
fn observation<'py>(
    py: Python<'py>,
    inner: &dyn DynPos,
    side: Option<&str>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let view = match side {
        None => None,
        Some("south") => Some(Side::South),
        Some("north") => Some(Side::North),
        Some(other) => {
            return Err(KeteValueError::new_err(format!(
                "side '{other}': 'south' or 'north'"
            )));
        }
    };
    let obs = PyArray1::<f32>::zeros(py, inner.observation_len(), false);
    {
        let mut w = obs.readwrite();
        inner.observe(view, w.as_slice_mut().expect("a new array is contiguous"));
    }
    Ok(obs)
}

/// A position of a mancala game, with the moves that led to it.
///
/// `Position("oware", rules="abapa")` is the start of a game;
/// `Position.from_fen(variant, token)` reads kete's position notation.
/// `play(move)` returns the position after a move and leaves this one
/// alone. Equality and the hash are the position's (what `fen` says, under
/// its rules), not its history.
#[pyclass(module = "kete", frozen, freelist = 64)]
pub struct Position {
    pub inner: Box<dyn DynPos>,
}

impl Position {
    pub fn of(inner: Box<dyn DynPos>) -> Position {
        Position { inner }
    }

    pub fn build(variant: Variant, fen: Option<&str>) -> PyResult<Position> {
        variant
            .visit_board(MakePos { variant, fen })
            .map(Position::of)
            .map_err(|e| {
                NotationError::new_err(format!(
                    "bad {} position '{}': {e}",
                    variant.name(),
                    fen.unwrap_or_default()
                ))
            })
    }
}

#[pymethods]
impl Position {
    /// The start position of `variant` under the rule options given
    /// (`pits=4`, `seeds=3`, `capture="empty"`, `rules="abapa"`, …).
    #[new]
    #[pyo3(signature = (variant = "kalah", **options))]
    fn new(variant: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Position> {
        Position::build(variant_with(variant, options)?, None)
    }

    /// The position of the token `fen` (as `d` shows it after `Fen:`) of
    /// `variant` under the rule options given.
    #[staticmethod]
    #[pyo3(signature = (variant, fen, **options))]
    fn from_fen(
        variant: &str,
        fen: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Position> {
        Position::build(variant_with(variant, options)?, Some(fen))
    }

    /// The variant's canonical name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.variant().name()
    }

    /// Every rule option with its value, as kete names them.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.variant().option_values() {
            match v.parse::<i64>() {
                Ok(n) => d.set_item(k, n)?,
                Err(_) => d.set_item(k, v)?,
            }
        }
        Ok(d)
    }

    /// The legal moves, in the order of the pits; empty once the game is
    /// over.
    fn moves(&self) -> Vec<String> {
        self.inner.moves()
    }

    /// The position after `move` (a move text such as `"C"` or `"A1>"`).
    /// Raises `InvalidMoveError`, `IllegalMoveError` or `GameOverError`.
    fn play(&self, r#move: &str) -> PyResult<Position> {
        self.inner
            .after(r#move)
            .map(Position::of)
            .map_err(move_error)
    }

    /// The position after each move in turn.
    fn play_all(&self, moves: Vec<String>) -> PyResult<Position> {
        let mut next = self.inner.clone_box();
        for (i, m) in moves.iter().enumerate() {
            next.play(m)
                .map_err(|e| move_error_at(e, &format!("move {} '{m}': ", i + 1)))?;
        }
        Ok(Position::of(next))
    }

    /// The position token (kete's notation; `from_fen` reads it back).
    #[getter]
    fn fen(&self) -> String {
        self.inner.fen()
    }

    /// The token of the position the moves were played from.
    #[getter]
    fn start_fen(&self) -> String {
        self.inner.start_fen()
    }

    /// The moves played since `start_fen`, as texts.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.inner.history()
    }

    /// `"south"` (player 1, moves first) or `"north"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        side_name(self.inner.side_to_move())
    }

    /// Whether the game is over (by the rules, or by a repetition).
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// How the game ended, with the reason; `None` while it goes on.
    #[getter]
    fn outcome(&self) -> Option<Outcome> {
        outcome_of(self.inner.as_ref())
    }

    /// The seeds each player (South, North) would count if the game
    /// stopped here, where the variant counts seeds; else `None`.
    #[getter]
    fn seed_count(&self) -> Option<(u32, u32)> {
        self.inner.seed_count()
    }

    /// Every seed of the game (board, stores, hands).
    #[getter]
    fn total_seeds(&self) -> u32 {
        self.inner.total_seeds()
    }

    /// The pits as lists of seed counts: South's rows, then North's, each
    /// from its owner's left (Bao: front row, then back row).
    #[getter]
    fn board(&self) -> Vec<Vec<u32>> {
        let cells = self.inner.cells();
        let mut rows = Vec::new();
        for side in [Side::South, Side::North] {
            let mine: Vec<&kete::game::Cell> = cells
                .iter()
                .filter(|c| c.side == side && c.kind == CellKind::Pit)
                .collect();
            let n_rows = mine.iter().map(|c| c.row as usize + 1).max().unwrap_or(0);
            for r in 0..n_rows {
                let mut row: Vec<&&kete::game::Cell> =
                    mine.iter().filter(|c| c.row as usize == r).collect();
                row.sort_by_key(|c| c.col);
                rows.push(row.iter().map(|c| c.seeds).collect());
            }
        }
        rows
    }

    /// The stores (captured seeds) of South and North, or `None` where the
    /// game has none (Bao).
    #[getter]
    fn stores(&self) -> Option<(u32, u32)> {
        self.pair(CellKind::Store)
    }

    /// The seeds still in hand of South and North (Bao), or `None`.
    #[getter]
    fn hands(&self) -> Option<(u32, u32)> {
        self.pair(CellKind::Hand)
    }

    /// Every place of the board: pits, stores, hands and end pits (Ô ăn
    /// quan's), as drawn.
    fn cells(&self) -> Vec<Cell> {
        self.inner
            .cells()
            .into_iter()
            .map(|c| Cell {
                side: side_name(c.side).to_string(),
                kind: match c.kind {
                    CellKind::Pit => "pit",
                    CellKind::Store => "store",
                    CellKind::Hand => "hand",
                    CellKind::End => "end",
                }
                .to_string(),
                row: c.row,
                col: c.col,
                name: c.name,
                seeds: c.seeds,
                marks: c.marks.iter().map(|m| m.to_string()).collect(),
            })
            .collect()
    }

    /// Counts the move sequences of exactly `depth` moves from this
    /// position, as `kete perft` does (`bulk` counts the last ply without
    /// playing it). Runs without the GIL; `Ctrl-C` stops it
    /// (`KeyboardInterrupt`). `depth` is 0..64, as `go perft`'s.
    #[pyo3(signature = (depth, bulk = false))]
    fn perft(&self, py: Python<'_>, depth: i64, bulk: bool) -> PyResult<u64> {
        let depth = crate::whole("depth", depth, 0, 64)? as u32;
        let stop = Arc::new(AtomicBool::new(false));
        let inner = &self.inner;
        let (n, interrupted) =
            crate::interrupt::run(py, &stop, || inner.perft(depth, bulk, &stop))?;
        match n {
            Some(n) if !interrupted => Ok(n),
            _ => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "perft stopped before it finished",
            )),
        }
    }

    /// The board as an SVG picture (kete's board drawing,
    /// `kete::draw::svg`): `flipped` puts North at the bottom, `legal`
    /// marks the playable pits, `last` the last turn (where its moves
    /// started, the pits sown, where the last seed fell, the pits captured).
    #[pyo3(signature = (flipped = false, legal = true, last = true))]
    fn svg(&self, flipped: bool, legal: bool, last: bool) -> String {
        let view = kete::draw::View {
            flipped,
            legal: if legal {
                self.inner.legal_cells()
            } else {
                Vec::new()
            },
            ..kete::draw::View::default()
        };
        let view = if last {
            view.with_turn(&self.inner.last_turn())
        } else {
            view
        };
        self.inner.svg(&view)
    }

    /// What Jupyter shows: the board drawn, the playable pits and the last
    /// move marked.
    fn _repr_svg_(&self) -> String {
        self.svg(false, true, true)
    }

    /// The size of the variant's action space under its rule options:
    /// every move the variant can ever have has one index below it (see
    /// the guide's table), the same for either side.
    #[getter]
    fn action_count(&self) -> usize {
        self.inner.action_count()
    }

    /// The legal moves' actions, in increasing order; empty once over.
    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal_actions()
    }

    /// A numpy array of `action_count` booleans, true at the legal moves'
    /// actions.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        legal_mask(py, self.inner.as_ref())
    }

    /// The action of the legal move `move` (a text such as `"C"`). Raises
    /// `InvalidMoveError`, `IllegalMoveError` or `GameOverError`.
    fn move_to_action(&self, r#move: &str) -> PyResult<usize> {
        self.inner.action_of_text(r#move).map_err(move_error)
    }

    /// The text of the legal move whose action is `action`. Raises
    /// `InvalidMoveError` past the action space, `IllegalMoveError` when
    /// the move is not legal here, `GameOverError` once over.
    fn action_to_move(&self, action: i64) -> PyResult<String> {
        action_text(self.inner.as_ref(), action)
    }

    /// The position after the legal move whose action is `action`.
    fn play_action(&self, action: i64) -> PyResult<Position> {
        let text = self.action_to_move(action)?;
        self.play(&text)
    }

    /// The length of `observation()`.
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner.observation_len()
    }

    /// The position as a numpy array of float32 as `side` sees it (the
    /// side to move by default): his places first, each row from its
    /// owner's left (see the guide's table of fields per variant).
    #[pyo3(signature = (side = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        observation(py, self.inner.as_ref(), side)
    }

    /// A copy (positions are values: `play` never changes one).
    fn copy(&self) -> Position {
        Position::of(self.inner.clone_box())
    }

    fn __copy__(&self) -> Position {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.copy()
    }

    /// Rebuilds the position (with its history) when unpickled.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let kete = py.import("kete")?;
        let rebuild = kete.getattr("_rebuild")?;
        let args = (
            self.inner.variant().name(),
            self.options(py)?,
            self.inner.start_fen(),
            self.inner.history(),
        );
        PyTuple::new(py, [rebuild.into_any(), args.into_pyobject(py)?.into_any()])
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Position>()
            .is_ok_and(|o| self.inner.same(o.get().inner.as_ref()))
    }

    fn __hash__(&self) -> u64 {
        self.inner.hash64()
    }

    /// The text board, as the engine's `d` draws it.
    fn __repr__(&self) -> String {
        self.inner.diagram()
    }

    fn __str__(&self) -> String {
        self.inner.diagram()
    }
}

impl Position {
    fn pair(&self, kind: CellKind) -> Option<(u32, u32)> {
        let cells = self.inner.cells();
        let of = |side: Side| {
            cells
                .iter()
                .find(|c| c.side == side && c.kind == kind)
                .map(|c| c.seeds)
        };
        Some((of(Side::South)?, of(Side::North)?))
    }
}

/// A game in progress, played move by move in place: the referee's
/// record (`kete::game::GameRecord`). `push` is the fast way to play many
/// moves from Python; `position` is the position reached, as a value.
/// A game equals only itself (it changes); positions compare by value.
#[pyclass(module = "kete", name = "Game")]
pub struct PyGame {
    inner: Box<dyn DynPos>,
}

#[pymethods]
impl PyGame {
    /// A game from the start of `variant` under the rule options given.
    #[new]
    #[pyo3(signature = (variant = "kalah", **options))]
    fn new(variant: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
        Ok(PyGame {
            inner: Position::build(variant_with(variant, options)?, None)?.inner,
        })
    }

    /// A game from `position` (with the moves that led to it).
    #[staticmethod]
    fn from_position(position: &Position) -> PyGame {
        PyGame {
            inner: position.inner.clone_box(),
        }
    }

    /// Plays `move` in place. Raises as `Position.play`.
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        self.inner.play(r#move).map_err(move_error)
    }

    /// Plays the legal move whose action is `action` (see
    /// `Position.action_to_move` for the errors).
    fn push_action(&mut self, action: i64) -> PyResult<()> {
        let text = action_text(self.inner.as_ref(), action)?;
        self.inner.play(&text).map_err(move_error)
    }

    /// The size of the variant's action space (`Position.action_count`).
    #[getter]
    fn action_count(&self) -> usize {
        self.inner.action_count()
    }

    /// The legal moves' actions, in increasing order.
    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal_actions()
    }

    /// `Position.legal_mask()` of the position now.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        legal_mask(py, self.inner.as_ref())
    }

    /// The action of the legal move `move`.
    fn move_to_action(&self, r#move: &str) -> PyResult<usize> {
        self.inner.action_of_text(r#move).map_err(move_error)
    }

    /// The text of the legal move whose action is `action`.
    fn action_to_move(&self, action: i64) -> PyResult<String> {
        action_text(self.inner.as_ref(), action)
    }

    /// The length of `observation()`.
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner.observation_len()
    }

    /// `Position.observation(side)` of the position now.
    #[pyo3(signature = (side = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        observation(py, self.inner.as_ref(), side)
    }

    /// The legal moves, in the order of the pits; empty once over.
    fn moves(&self) -> Vec<String> {
        self.inner.moves()
    }

    /// The position reached, as a value.
    #[getter]
    fn position(&self) -> Position {
        Position::of(self.inner.clone_box())
    }

    /// Whether the game is over (by the rules, or by a repetition).
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// How the game ended, with the reason; `None` while it goes on.
    #[getter]
    fn outcome(&self) -> Option<Outcome> {
        outcome_of(self.inner.as_ref())
    }

    /// `"south"` or `"north"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        side_name(self.inner.side_to_move())
    }

    /// The token of the position reached.
    #[getter]
    fn fen(&self) -> String {
        self.inner.fen()
    }

    /// The moves played, as texts.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.inner.history()
    }

    /// A copy, to be played on apart.
    fn copy(&self) -> PyGame {
        PyGame {
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> PyGame {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.copy()
    }

    /// Pickles as the position reached (with the moves that led to it):
    /// `Game.from_position` rebuilds it.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let from_position = py.get_type::<PyGame>().getattr("from_position")?;
        let args = (Position::of(self.inner.clone_box()),);
        PyTuple::new(
            py,
            [from_position.into_any(), args.into_pyobject(py)?.into_any()],
        )
    }

    fn __len__(&self) -> usize {
        self.inner.plies()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game('{}', {} moves, {})",
            self.inner.variant().name(),
            self.inner.plies(),
            if self.inner.outcome().is_some() {
                "over"
            } else {
                "going on"
            }
        )
    }
}

fn outcome_of(inner: &dyn DynPos) -> Option<Outcome> {
    inner.outcome().map(|(o, r)| Outcome {
        result: o.result.as_str().to_string(),
        winner: o.result.winner().map(|s| side_name(s).to_string()),
        seeds: o.seeds,
        reason: r.map(|r| r.code().to_string()),
        reason_text: r.map(|r| r.to_string()),
    })
}

/// How a game ended.
#[pyclass(module = "kete", frozen, get_all, from_py_object)]
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// `"p1win"` (South won), `"p2win"` or `"draw"`, as `query result`.
    pub result: String,
    /// `"south"`, `"north"` or `None` for a draw.
    pub winner: Option<String>,
    /// The final seeds (South, North) where the game counts them.
    pub seeds: Option<(u32, u32)>,
    /// Why, in one word (`"empty-row"`, `"repetition"`, …, as `query
    /// reason`).
    pub reason: Option<String>,
    /// Why, in words.
    pub reason_text: Option<String>,
}

#[pymethods]
impl Outcome {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "Outcome", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(result='{}', seeds={}, reason={})",
            self.result,
            self.seeds
                .map_or("None".into(), |(s, n)| format!("({s}, {n})")),
            self.reason
                .as_ref()
                .map_or("None".into(), |r| format!("'{r}'"))
        )
    }
}

/// One place of the board, as the board drawing sees it.
#[pyclass(module = "kete", frozen, get_all, from_py_object)]
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    /// `"south"` or `"north"`.
    pub side: String,
    /// `"pit"`, `"store"` or `"hand"`.
    pub kind: String,
    /// 0 for the front (or only) row, 1 for Bao's back row.
    pub row: u8,
    /// From the owner's left, from 0.
    pub col: u8,
    /// The name in the move notation.
    pub name: String,
    /// The seeds it holds.
    pub seeds: u32,
    /// Rule marks (Bao: `"nyumba"`, `"takasia"`).
    pub marks: Vec<String>,
}

#[pymethods]
impl Cell {
    /// Pickles as its fields (`kete._restore` reads them back).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "Cell", self)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Cell({} {} {}, seeds={})",
            self.side, self.kind, self.name, self.seeds
        )
    }
}

/// The rule options of `variant`: for each, its kind, its default and its
/// range or values.
#[pyfunction]
pub fn variant_options<'py>(py: Python<'py>, variant: &str) -> PyResult<Bound<'py, PyDict>> {
    let v = Variant::by_name(variant).map_err(UnknownVariantError::new_err)?;
    let out = PyDict::new(py);
    for o in v.options() {
        let d = PyDict::new(py);
        match o.kind {
            kete::variants::OptionKind::Spin { min, max, default } => {
                d.set_item("kind", "spin")?;
                d.set_item("default", default)?;
                d.set_item("min", min)?;
                d.set_item("max", max)?;
            }
            kete::variants::OptionKind::Combo {
                values, default, ..
            } => {
                d.set_item("kind", "combo")?;
                d.set_item("default", default)?;
                d.set_item("values", values.to_vec())?;
            }
        }
        d.set_item("help", o.help)?;
        out.set_item(o.name, d)?;
    }
    Ok(out)
}

/// `reply`, if it is legal after `best` in `position` and the turn passes
/// there to the opponent and back: the reply an engine can ponder on.
pub fn expected_reply(position: &dyn DynPos, best: &str, reply: &str) -> Option<String> {
    let mover = position.side_to_move();
    let after = position.after(best).ok()?;
    if after.outcome().is_some() || after.side_to_move() == mover {
        return None;
    }
    let then = after.after(reply).ok()?;
    if then.outcome().is_some() || then.side_to_move() != mover {
        return None;
    }
    then.history().last().cloned()
}
