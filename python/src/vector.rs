//! `kete.VectorGames`: N games of one variant stepped together in Rust,
//! for self-play and reinforcement learning, with arrays in and out.
//!
//! Each game is a [`GameRecord`] (so that Oware's repetition rule ends a
//! game as the referee ends it). A step plays one action in every game,
//! then writes every game's observation, legal mask and side to move into
//! arrays; a game that ended is started again at once (from a new random
//! opening when `random_plies` asks for one), so every row always holds a
//! game in progress.

use kete::game::{Board, Game, GameRecord, Side};
use kete::variants::{BoardVisitor, Variant};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::position::variant_with;
use crate::{IllegalMoveError, InvalidMoveError};

/// What one step reports of one game.
#[derive(Clone, Copy, Default)]
pub struct Ended {
    /// The reward of the player who moved: 1 for a win, -1 for a loss, 0
    /// for a draw or a game going on.
    pub reward: f32,
    pub terminated: bool,
    pub truncated: bool,
}

/// The batch of one game type, behind a trait object.
pub trait DynBatch: Send + Sync {
    fn len(&self) -> usize;
    fn action_count(&self) -> usize;
    fn observation_len(&self) -> usize;
    fn reset(&mut self, seed: Option<u64>);
    /// Plays `actions[i]` in game `i`; `Err` names the first game whose
    /// action is not legal, and then no game has moved.
    fn step(&mut self, actions: &[i64], ended: &mut [Ended]) -> Result<(), String>;
    /// Writes every game's observation (rows of `observation_len`) and
    /// legal mask (rows of `action_count`).
    fn write(&self, obs: &mut [f32], mask: &mut [bool]);
    /// Who moves next in each game: 0 South, 1 North.
    fn to_play(&self) -> Vec<i8>;
    fn fen(&self, i: usize) -> String;
    fn plies(&self, i: usize) -> usize;
    /// Writes the final observation of each game that ended in the last
    /// step (as `write` would have shown its final position) and marks it
    /// in `ended`; the other rows are left as they are.
    fn write_final(&self, obs: &mut [f32], ended: &mut [bool]);
    /// The final position token of game `i`, if it ended in the last step.
    fn final_fen(&self, i: usize) -> Option<String>;
}

struct Batch<G: Game> {
    rules: G::Rules,
    games: Vec<GameRecord<G>>,
    rng: StdRng,
    random_plies: usize,
    max_plies: Option<usize>,
    moves: Vec<G::Move>,
    /// The games that ended in the last step, by row, kept until the next
    /// step (the row itself holds the new game).
    finals: Vec<Option<GameRecord<G>>>,
    /// The rows of `finals` that hold a game.
    final_rows: Vec<usize>,
}

impl<G: Game> Batch<G> {
    /// Forgets the games the last step ended.
    fn clear_finals(&mut self) {
        for i in self.final_rows.drain(..) {
            self.finals[i] = None;
        }
    }

    /// A new game: the start, then `random_plies` random moves (again from
    /// the start if those end the game).
    fn new_game(&mut self) -> GameRecord<G> {
        'again: loop {
            let mut record = GameRecord::new(G::start(&self.rules));
            for _ in 0..self.random_plies {
                record.legal_moves(&mut self.moves);
                if self.moves.is_empty() {
                    continue 'again;
                }
                let mv = self.moves[self.rng.random_range(0..self.moves.len())];
                record.play(mv);
            }
            if record.outcome().is_none() {
                return record;
            }
        }
    }
}

impl<G: Game> DynBatch for Batch<G> {
    fn len(&self) -> usize {
        self.games.len()
    }
    fn action_count(&self) -> usize {
        G::action_count(&self.rules)
    }
    fn observation_len(&self) -> usize {
        G::observation_len(&self.rules)
    }
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = StdRng::seed_from_u64(s);
        }
        self.clear_finals();
        for i in 0..self.games.len() {
            self.games[i] = self.new_game();
        }
    }
    fn step(&mut self, actions: &[i64], ended: &mut [Ended]) -> Result<(), String> {
        let count = G::action_count(&self.rules);
        let mut chosen = Vec::with_capacity(self.games.len());
        for (i, (game, &a)) in self.games.iter().zip(actions).enumerate() {
            let mv = usize::try_from(a)
                .ok()
                .and_then(|a| G::move_of_action(&self.rules, a))
                .ok_or_else(|| format!("game {i}: action {a} is outside 0..{count}"))?;
            game.legal_moves(&mut self.moves);
            if !self.moves.contains(&mv) {
                let mut legal: Vec<usize> = self.moves.iter().map(|&m| G::action_of(m)).collect();
                legal.sort_unstable();
                return Err(format!(
                    "game {i}: action {a} is not a legal move (legal actions: {legal:?})"
                ));
            }
            chosen.push(mv);
        }
        self.clear_finals();
        for (i, mv) in chosen.into_iter().enumerate() {
            let mover = self.games[i].position().side_to_move();
            self.games[i].play(mv);
            let game = &self.games[i];
            let mut e = Ended::default();
            if let Some(o) = game.outcome() {
                e.terminated = true;
                e.reward = match o.result.winner() {
                    Some(w) if w == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
            } else if self.max_plies.is_some_and(|m| game.moves().len() >= m) {
                e.truncated = true;
            }
            ended[i] = e;
            if e.terminated || e.truncated {
                let fresh = self.new_game();
                self.finals[i] = Some(std::mem::replace(&mut self.games[i], fresh));
                self.final_rows.push(i);
            }
        }
        Ok(())
    }
    fn write(&self, obs: &mut [f32], mask: &mut [bool]) {
        let (o, a) = (self.observation_len(), self.action_count());
        let mut moves = Vec::new();
        for (i, game) in self.games.iter().enumerate() {
            let pos = game.position();
            pos.observe(pos.side_to_move(), &mut obs[i * o..(i + 1) * o]);
            let row = &mut mask[i * a..(i + 1) * a];
            row.fill(false);
            game.legal_moves(&mut moves);
            for &m in &moves {
                row[G::action_of(m)] = true;
            }
        }
    }
    fn to_play(&self) -> Vec<i8> {
        let north = |g: &GameRecord<G>| g.position().side_to_move() == Side::North;
        self.games.iter().map(|g| i8::from(north(g))).collect()
    }
    fn fen(&self, i: usize) -> String {
        self.games[i].position().to_notation()
    }
    fn plies(&self, i: usize) -> usize {
        self.games[i].moves().len()
    }
    fn write_final(&self, obs: &mut [f32], ended: &mut [bool]) {
        let o = self.observation_len();
        for &i in &self.final_rows {
            if let Some(game) = &self.finals[i] {
                let pos = game.position();
                pos.observe(pos.side_to_move(), &mut obs[i * o..(i + 1) * o]);
                ended[i] = true;
            }
        }
    }
    fn final_fen(&self, i: usize) -> Option<String> {
        self.finals[i].as_ref().map(|g| g.position().to_notation())
    }
}

struct MakeBatch {
    n: usize,
    seed: u64,
    random_plies: usize,
    max_plies: Option<usize>,
}

impl BoardVisitor for MakeBatch {
    type Output = Box<dyn DynBatch>;
    fn visit<G: Board>(self, rules: G::Rules) -> Self::Output {
        let mut b = Batch::<G> {
            games: Vec::with_capacity(self.n),
            rules,
            rng: StdRng::seed_from_u64(self.seed),
            random_plies: self.random_plies,
            max_plies: self.max_plies,
            moves: Vec::new(),
            finals: (0..self.n).map(|_| None).collect(),
            final_rows: Vec::new(),
        };
        for _ in 0..self.n {
            let g = b.new_game();
            b.games.push(g);
        }
        Box::new(b)
    }
}

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
}

impl VectorGames {
    fn arrays<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>) {
        let n = self.inner.len();
        let obs = PyArray2::<f32>::zeros(py, [n, self.inner.observation_len()], false);
        let mask = PyArray2::<bool>::zeros(py, [n, self.inner.action_count()], false);
        {
            let mut o = obs.readwrite();
            let mut m = mask.readwrite();
            self.inner.write(
                o.as_slice_mut().expect("a new array is contiguous"),
                m.as_slice_mut().expect("a new array is contiguous"),
            );
        }
        (obs, mask)
    }
}

#[pymethods]
impl VectorGames {
    /// `n` games of `variant` under the rule options given; `seed` seeds
    /// the random openings (`random_plies` random moves from the start),
    /// `max_plies` truncates a game that lasts longer.
    #[new]
    #[pyo3(signature = (variant = "kalah", n = 1, *, seed = 0, random_plies = 0, max_plies = None, **options))]
    fn new(
        variant: &str,
        n: i64,
        seed: u64,
        random_plies: i64,
        max_plies: Option<i64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VectorGames> {
        let v = variant_with(variant, options)?;
        let n = crate::whole("n", n, 1, 1 << 24)? as usize;
        let random_plies = crate::whole("random_plies", random_plies, 0, 1000)? as usize;
        let max_plies = crate::whole_opt("max_plies", max_plies, 1, 1 << 32)?.map(|m| m as usize);
        Ok(VectorGames {
            inner: v.visit_board(MakeBatch {
                n,
                seed,
                random_plies,
                max_plies,
            }),
            variant: v,
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

    /// Starts every game again (reseeding the openings when `seed` is
    /// given); returns `(observations, legal_masks)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>) {
        self.inner.reset(seed);
        self.arrays(py)
    }

    /// The observations and legal masks of the games as they stand.
    fn observe<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>) {
        self.arrays(py)
    }

    /// Plays `actions[i]` in game `i` (an integer array of length `n`);
    /// returns `(observations, legal_masks, rewards, terminated,
    /// truncated)`. An action outside the action space raises
    /// `InvalidMoveError`, an illegal one `IllegalMoveError`, naming the
    /// game; no game moves then.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<bool>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let n = self.inner.len();
        let actions = actions.as_slice()?;
        if actions.len() != n {
            return Err(InvalidMoveError::new_err(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        let mut ended = vec![Ended::default(); n];
        self.inner.step(actions, &mut ended).map_err(|e| {
            if e.contains("outside") {
                InvalidMoveError::new_err(e)
            } else {
                IllegalMoveError::new_err(e)
            }
        })?;
        let (obs, mask) = self.arrays(py);
        let rewards = PyArray1::from_iter(py, ended.iter().map(|e| e.reward));
        let terminated = PyArray1::from_iter(py, ended.iter().map(|e| e.terminated));
        let truncated = PyArray1::from_iter(py, ended.iter().map(|e| e.truncated));
        Ok((obs, mask, rewards, terminated, truncated))
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
    fn final_observations<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<bool>>) {
        let n = self.inner.len();
        let obs = PyArray2::<f32>::zeros(py, [n, self.inner.observation_len()], false);
        let ended = PyArray1::<bool>::zeros(py, [n], false);
        {
            let mut o = obs.readwrite();
            let mut e = ended.readwrite();
            self.inner.write_final(
                o.as_slice_mut().expect("a new array is contiguous"),
                e.as_slice_mut().expect("a new array is contiguous"),
            );
        }
        (obs, ended)
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

    fn __repr__(&self) -> String {
        format!(
            "VectorGames('{}', {})",
            self.variant.name(),
            self.inner.len()
        )
    }
}

impl VectorGames {
    fn check(&self, i: usize) -> PyResult<()> {
        if i >= self.inner.len() {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "game {i}: there are {} games",
                self.inner.len()
            )));
        }
        Ok(())
    }
}
