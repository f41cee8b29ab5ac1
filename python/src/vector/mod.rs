//! `kete.VectorGames`: N games of one variant stepped together in Rust,
//! for self-play and reinforcement learning, with arrays in and out.
//!
//! A step plays one action in every game, then writes every game's
//! observation, legal mask and side to move into arrays; a game that ended
//! is started again at once (from a new random opening when `random_plies`
//! asks for one), so every row always holds a game in progress. The game
//! that ended is kept until the next step, as Gymnasium's vector
//! environments keep their final observations.

mod batch;
mod dynbatch;

use kete::variants::Variant;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::{Deserialize, Serialize};

use crate::position::{Position, variant_with};
use crate::{IllegalMoveError, InvalidMoveError};
use batch::Ended;
use dynbatch::{BatchState, DynBatch, MakeBatch, Start};

/// N games of one variant played together, with numpy arrays in and out:
/// for self-play and reinforcement learning without a Python loop over
/// the games.
///
/// `VectorGames("oware", 256, seed=1, random_plies=4)` starts 256 games
/// (each after 4 random moves). `step(actions)` plays one action in every
/// game and returns `(observations, legal_masks, rewards, terminated,
/// truncated)`; a game that ended starts again at once, so the arrays
/// returned always describe games in progress. `rewards[i]` is for the
/// player who made `actions[i]`: 1 won, -1 lost, 0 otherwise. `to_play`
/// says who moves next in each game (Kalah gives another turn).
#[pyclass(module = "kete")]
pub struct VectorGames {
    inner: Box<dyn DynBatch>,
    variant: Variant,
    threads: usize,
    /// Fresh arrays from every step (`True`), or the same ones written
    /// again (`False`), as Gymnasium's vector environments' `copy`.
    copy: bool,
    /// The arrays written again when `copy` is false, made at the first
    /// step.
    out: Option<Outputs>,
    ended: Vec<Ended>,
}

struct Outputs {
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray1<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
}

/// A `VectorGames` as pickled: its variant, settings and batch.
#[derive(Serialize, Deserialize)]
struct VectorState {
    variant: String,
    options: Vec<(String, String)>,
    threads: usize,
    copy: bool,
    batch: BatchState,
}

/// Observations and legal masks.
type Arrays<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);

/// Final observations and the rows that ended.
type Finals<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<bool>>);

/// What a step returns.
type Steps<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// The threads a batch steps on by default: every core the process may use.
fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl VectorGames {
    fn new_arrays<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>) {
        let n = self.inner.len();
        let obs = PyArray2::<f32>::zeros(py, [n, self.inner.observation_len()], false);
        let mask = PyArray2::<bool>::zeros(py, [n, self.inner.action_count()], false);
        (obs, mask)
    }

    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Arrays<'py>> {
        let (obs, mask) = self.new_arrays(py);
        {
            let mut o = obs.readwrite();
            let mut m = mask.readwrite();
            self.inner.write(o.as_slice_mut()?, m.as_slice_mut()?);
        }
        Ok((obs, mask))
    }

    fn check(&self, i: usize) -> PyResult<()> {
        if i >= self.inner.len() {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "game {i}: there are {} games",
                self.inner.len()
            )));
        }
        Ok(())
    }

    /// The rows a reset names: indices, or a mask of `n` booleans.
    fn rows_of(&self, value: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let n = self.inner.len();
        let bad = |e: String| pyo3::exceptions::PyValueError::new_err(format!("rows: {e}"));
        let rows: Vec<usize> = if let Ok(mask) = value.extract::<Vec<bool>>() {
            if mask.len() != n {
                return Err(bad(format!("a mask of {} for {n} games", mask.len())));
            }
            (0..n).filter(|&i| mask[i]).collect()
        } else {
            let idx: Vec<i64> = value
                .extract()
                .map_err(|_| bad("give row numbers or a mask of one boolean a game".to_string()))?;
            let mut rows = Vec::with_capacity(idx.len());
            for i in idx {
                match usize::try_from(i) {
                    Ok(r) if r < n => rows.push(r),
                    _ => return Err(bad(format!("row {i} is outside 0..{n}"))),
                }
            }
            rows
        };
        let mut sorted = rows.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(bad(format!("row {} is named twice", w[0])));
        }
        Ok(rows)
    }

    /// The starts a reset gives: `None`, a position token or a `Position`
    /// of this game (with its moves).
    fn starts_of(&self, value: &Bound<'_, PyAny>, want: usize) -> PyResult<Vec<Option<Start>>> {
        let bad = |e: String| pyo3::exceptions::PyValueError::new_err(format!("positions: {e}"));
        let items: Vec<Bound<'_, PyAny>> = value
            .try_iter()
            .map_err(|_| bad("give a list of positions".to_string()))?
            .collect::<PyResult<_>>()?;
        if items.len() != want {
            return Err(bad(format!("{} positions for {want} games", items.len())));
        }
        let mut out = Vec::with_capacity(want);
        for (j, item) in items.iter().enumerate() {
            out.push(if item.is_none() {
                None
            } else if let Ok(fen) = item.extract::<String>() {
                Some(Start {
                    fen,
                    moves: Vec::new(),
                })
            } else if let Ok(p) = item.cast::<Position>() {
                let p = p.get();
                let v = p.inner.variant();
                if v != self.variant {
                    return Err(bad(format!(
                        "position {j} is a game of {}, these games are {}",
                        v.name(),
                        self.variant.name()
                    )));
                }
                Some(Start {
                    fen: p.inner.start_fen(),
                    moves: p.inner.history(),
                })
            } else {
                return Err(bad(format!(
                    "position {j} is neither None, a position token nor a kete.Position"
                )));
            });
        }
        Ok(out)
    }

    fn state(&self) -> VectorState {
        VectorState {
            variant: self.variant.name().to_string(),
            options: self
                .variant
                .option_values()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            threads: self.threads,
            copy: self.copy,
            batch: self.inner.state(),
        }
    }

    fn copied(&self) -> VectorGames {
        VectorGames {
            inner: self.inner.clone_box(),
            variant: self.variant,
            threads: self.threads,
            copy: self.copy,
            out: None,
            ended: Vec::new(),
        }
    }

    fn outputs<'py>(&mut self, py: Python<'py>) -> Steps<'py> {
        let n = self.inner.len();
        if self.copy || self.out.is_none() {
            let (obs, mask) = self.new_arrays(py);
            let made = (
                obs,
                mask,
                PyArray1::<f32>::zeros(py, [n], false),
                PyArray1::<bool>::zeros(py, [n], false),
                PyArray1::<bool>::zeros(py, [n], false),
            );
            if !self.copy {
                self.out = Some(Outputs {
                    obs: made.0.clone().unbind(),
                    mask: made.1.clone().unbind(),
                    rewards: made.2.clone().unbind(),
                    terminated: made.3.clone().unbind(),
                    truncated: made.4.clone().unbind(),
                });
            }
            return made;
        }
        let o = self.out.as_ref().expect("made at the first step");
        (
            o.obs.bind(py).clone(),
            o.mask.bind(py).clone(),
            o.rewards.bind(py).clone(),
            o.terminated.bind(py).clone(),
            o.truncated.bind(py).clone(),
        )
    }
}

/// Random moves from the start for each row: one number for all, or one
/// per row.
fn plies_of(n: usize, value: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    let one = |k: i64| crate::whole("random_plies", k, 0, 1000).map(|k| k as usize);
    if let Ok(k) = value.extract::<i64>() {
        return Ok(vec![one(k)?; n]);
    }
    let each: Vec<i64> = value.extract().map_err(|_| {
        pyo3::exceptions::PyValueError::new_err("random_plies: give a whole number, or one a game")
    })?;
    if each.len() != n {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "random_plies: {} numbers for {n} games",
            each.len()
        )));
    }
    each.into_iter().map(one).collect()
}

/// Rebuilds a pickled `VectorGames` (`kete._restore` calls it).
pub fn restore(text: &str) -> Result<VectorGames, String> {
    let s: VectorState = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut v = Variant::by_name(&s.variant)?;
    for (k, value) in &s.options {
        v.set_option(k, value)?;
    }
    let n = s.batch.rows.len();
    let mut inner = v.visit_board(MakeBatch {
        n: 0,
        seed: s.batch.seed,
        plies: Vec::new(),
        max_plies: None,
    });
    if n == 0 {
        return Err("no games".into());
    }
    inner.restore(s.batch)?;
    Ok(VectorGames {
        inner,
        variant: v,
        threads: s.threads.max(1),
        copy: s.copy,
        out: None,
        ended: Vec::new(),
    })
}

#[pymethods]
impl VectorGames {
    /// `n` games of `variant` under the rule options given; `seed` seeds
    /// the random openings (`random_plies` random moves from the start:
    /// one number, or one a game), `max_plies` truncates a game that lasts
    /// longer. `threads` (default: every core) step a large batch; the
    /// games do not depend on it. `copy=False` writes every step into the
    /// same arrays instead of new ones.
    #[new]
    #[pyo3(signature = (variant = "kalah", n = 1, *, seed = 0, random_plies = None, max_plies = None, threads = None, copy = true, **options))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        n: i64,
        seed: u64,
        random_plies: Option<&Bound<'_, PyAny>>,
        max_plies: Option<i64>,
        threads: Option<i64>,
        copy: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VectorGames> {
        let v = variant_with(variant, options)?;
        let n = crate::whole("n", n, 1, 1 << 24)? as usize;
        let plies = match random_plies {
            Some(p) => plies_of(n, p)?,
            None => vec![0; n],
        };
        let max_plies = crate::whole_opt("max_plies", max_plies, 1, 1 << 32)?.map(|m| m as usize);
        let threads = match crate::whole_opt("threads", threads, 1, 1024)? {
            Some(t) => t as usize,
            None => all_cores(),
        };
        Ok(VectorGames {
            inner: v.visit_board(MakeBatch {
                n,
                seed,
                plies,
                max_plies,
            }),
            variant: v,
            threads,
            copy,
            out: None,
            ended: Vec::new(),
        })
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The variant's canonical name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// The size of the action space (`Position.action_count`).
    #[getter]
    fn action_count(&self) -> usize {
        self.inner.action_count()
    }

    /// The length of one observation (`Position.observation_size`).
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner.observation_len()
    }

    /// The most threads a step uses.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// Starts the games again; returns `(observations, legal_masks)`.
    ///
    /// `seed` starts every game's random stream again from it, so
    /// `reset(seed=s)` deals what `VectorGames(..., seed=s)` dealt (and a
    /// first `reset()` of a new batch deals again what its own seed
    /// dealt). `rows` (row numbers, or a mask of one boolean a game)
    /// starts only those games again. `positions` (one a row reset:
    /// `None`, a position token or a `kete.Position` of this game, whose
    /// moves count for the repetition rule) starts a row from it instead
    /// of a random opening. `random_plies` (one number, or one a game)
    /// sets the random moves of the openings dealt from now on.
    #[pyo3(signature = (seed = None, *, positions = None, rows = None, random_plies = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        positions: Option<&Bound<'py, PyAny>>,
        rows: Option<&Bound<'py, PyAny>>,
        random_plies: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Arrays<'py>> {
        let n = self.inner.len();
        let rows = rows.map(|r| self.rows_of(r)).transpose()?;
        let want = rows.as_ref().map_or(n, Vec::len);
        let starts = match positions {
            Some(p) if !p.is_none() => self.starts_of(p, want)?,
            _ => Vec::new(),
        };
        if let Some(p) = random_plies {
            let plies = plies_of(n, p)?;
            self.inner.set_plies(plies);
        }
        self.inner
            .reset(seed, rows.as_deref(), &starts)
            .map_err(pyo3::exceptions::PyValueError::new_err)?;
        self.arrays(py)
    }

    /// The observations and legal masks of the games as they stand.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Arrays<'py>> {
        self.arrays(py)
    }

    /// Plays `actions[i]` in game `i` (an integer array of length `n`);
    /// returns `(observations, legal_masks, rewards, terminated,
    /// truncated)`. An action outside the action space raises
    /// `InvalidMoveError`, an illegal one `IllegalMoveError`, naming the
    /// game; no game moves then. The GIL is released while the games are
    /// stepped, on several threads for a large batch.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Steps<'py>> {
        let n = self.inner.len();
        let actions = actions.as_slice()?;
        if actions.len() != n {
            return Err(InvalidMoveError::new_err(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        let out = self.outputs(py);
        let mut ended = std::mem::take(&mut self.ended);
        ended.resize(n, Ended::default());
        let done = {
            let mut o = out.0.readwrite();
            let mut m = out.1.readwrite();
            let (os, ms) = (o.as_slice_mut()?, m.as_slice_mut()?);
            let inner = &mut self.inner;
            let threads = self.threads;
            let e = &mut ended;
            py.detach(move || inner.step(actions, e, os, ms, threads))
        };
        if let Err(e) = done {
            self.ended = ended;
            return Err(if e.contains("outside") {
                InvalidMoveError::new_err(e)
            } else {
                IllegalMoveError::new_err(e)
            });
        }
        {
            let mut r = out.2.readwrite();
            let mut t = out.3.readwrite();
            let mut u = out.4.readwrite();
            let (r, t, u) = (r.as_slice_mut()?, t.as_slice_mut()?, u.as_slice_mut()?);
            for (i, e) in ended.iter().enumerate() {
                r[i] = e.reward;
                t[i] = e.terminated;
                u[i] = e.truncated;
            }
        }
        self.ended = ended;
        Ok(out)
    }

    /// A uniformly random legal action for every game (an int64 array of
    /// length `n`), drawn from the batch's own stream: seeded by `seed`
    /// (again at `reset(seed=…)`), the same on every machine, and carried
    /// by a pickle. For a random player or exploration without a draw in
    /// numpy.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let out = PyArray1::<i64>::zeros(py, [self.inner.len()], false);
        {
            let mut o = out.readwrite();
            self.inner.random_actions(o.as_slice_mut()?);
        }
        Ok(out)
    }

    /// Who moves next in each game: 0 South, 1 North.
    #[getter]
    fn to_play<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_vec(py, self.inner.to_play())
    }

    /// The final observations of the games that ended in the last step,
    /// which the row no longer shows (it holds the next game already):
    /// `(observations, ended)`, `ended[i]` true where game `i` ended, its
    /// row of `observations` from the final position as `step` would have
    /// shown it (the side to move's view); the other rows are zero. For a
    /// learner that bootstraps at truncation, as Gymnasium's vector
    /// environments keep `final_obs`.
    fn final_observations<'py>(&self, py: Python<'py>) -> PyResult<Finals<'py>> {
        let n = self.inner.len();
        let obs = PyArray2::<f32>::zeros(py, [n, self.inner.observation_len()], false);
        let ended = PyArray1::<bool>::zeros(py, [n], false);
        {
            let mut o = obs.readwrite();
            let mut e = ended.readwrite();
            self.inner.write_final(o.as_slice_mut()?, e.as_slice_mut()?);
        }
        Ok((obs, ended))
    }

    /// The final position token of game `i` if it ended in the last step,
    /// else `None`.
    fn final_fen(&self, i: usize) -> PyResult<Option<String>> {
        self.check(i)?;
        Ok(self.inner.final_fen(i))
    }

    /// The position token of game `i`.
    fn fen(&self, i: usize) -> PyResult<String> {
        self.check(i)?;
        Ok(self.inner.fen(i))
    }

    /// How many moves game `i` has played since its start.
    fn plies(&self, i: usize) -> PyResult<usize> {
        self.check(i)?;
        Ok(self.inner.plies(i))
    }

    /// A batch apart with the same games, streams and settings: it steps
    /// on as this one would.
    fn copy(&self) -> VectorGames {
        self.copied()
    }

    fn __copy__(&self) -> VectorGames {
        self.copied()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> VectorGames {
        self.copied()
    }

    /// Pickles as its variant, settings and every game's start, moves and
    /// random stream (`kete._restore` replays them): the batch unpickled
    /// steps on as this one would.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        crate::pickle::reduce(py, "VectorGames", &self.state())
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorGames('{}', {})",
            self.variant.name(),
            self.inner.len()
        )
    }
}
