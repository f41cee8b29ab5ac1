//! [`DynBatch`]: a batch of one game type behind a trait object, so that
//! the Python class holds any variant's; [`Batch`] implements it.

use kete::game::{Board, Game};
use kete::variants::BoardVisitor;
use serde::{Deserialize, Serialize};

use kete::game::mix_words;

use super::batch::{Dealer, Ended, Row, step_row, threads_for};

/// Where a row starts when a reset gives it a position: a position token
/// and the moves played from it (the repetition rule counts them).
pub struct Start {
    pub fen: String,
    pub moves: Vec<String>,
}

/// A row as pickled: its start, its moves as actions and its stream.
#[derive(Clone, Serialize, Deserialize)]
pub struct RowState {
    pub start: String,
    pub moves: Vec<usize>,
    pub dealt: u64,
}

/// A batch as pickled.
#[derive(Clone, Serialize, Deserialize)]
pub struct BatchState {
    pub seed: u64,
    pub plies: Vec<usize>,
    pub max_plies: Option<usize>,
    pub fresh: bool,
    /// How many draws `random_actions` has made since the seed was set.
    #[serde(default)]
    pub draws: u64,
    pub rows: Vec<RowState>,
    /// The games the last step ended, by row.
    pub finals: Vec<(usize, RowState)>,
}

/// What the Python class asks of a batch of any game type.
pub trait DynBatch: Send + Sync {
    fn len(&self) -> usize;
    fn action_count(&self) -> usize;
    fn observation_len(&self) -> usize;
    /// Starts the rows `rows` again (every row if `None`): row `rows[j]`
    /// from `starts[j]` where given, else dealt from its stream. `seed`
    /// sets the seed and starts every row's stream again; a batch not
    /// stepped nor reset since it was made deals with its own seed again.
    /// `Err` names the first start that cannot be read, and then nothing
    /// has changed.
    fn reset(
        &mut self,
        seed: Option<u64>,
        rows: Option<&[usize]>,
        starts: &[Option<Start>],
    ) -> Result<(), String>;
    /// Random moves from the start in each row's next games.
    fn set_plies(&mut self, plies: Vec<usize>);
    /// Plays `actions[i]` in game `i` and writes every game's observation
    /// (rows of `observation_len`) and legal mask (rows of
    /// `action_count`) on up to `threads` threads; `Err` names the first
    /// game whose action is not legal, and then no game has moved.
    fn step(
        &mut self,
        actions: &[i64],
        ended: &mut [Ended],
        obs: &mut [f32],
        mask: &mut [bool],
        threads: usize,
    ) -> Result<(), String>;
    /// Writes every game's observation and legal mask.
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
    /// A uniformly random legal action for every game, from the batch's
    /// own stream: draw `k` of seed `s` is the same on every machine.
    fn random_actions(&mut self, out: &mut [i64]);
    fn clone_box(&self) -> Box<dyn DynBatch>;
    fn state(&self) -> BatchState;
    /// Takes the state a batch of the same game wrote; `Err` says what in
    /// it does not hold (a move not legal, a token not read).
    fn restore(&mut self, state: BatchState) -> Result<(), String>;
}

#[derive(Clone)]
pub struct Batch<G: Game> {
    rules: G::Rules,
    rows: Vec<Row<G>>,
    seed: u64,
    plies: Vec<usize>,
    max_plies: Option<usize>,
    /// Made and neither stepped nor reset since: a reset without a seed
    /// deals again what the constructor's seed dealt.
    fresh: bool,
    /// The draws of `random_actions` since the seed was set.
    draws: u64,
    /// The games that ended in the last step, by row, kept until the next
    /// step (the row itself holds the new game).
    finals: Vec<Option<Row<G>>>,
    /// The rows of `finals` that hold a game.
    final_rows: Vec<usize>,
    /// The moves of a step, checked before any is played.
    chosen: Vec<G::Move>,
    /// Every row's legal actions as bits, `words` words a row, side by
    /// side: a step checks its actions here, without reading the rows.
    bits: Vec<u64>,
    words: usize,
}

/// Sets the bits of `row`'s legal actions in `out` (and clears the rest).
fn legal_bits<G: Game>(row: &Row<G>, out: &mut [u64]) {
    out.fill(0);
    for &m in &row.legal {
        let a = G::action_of(m);
        out[a >> 6] |= 1 << (a & 63);
    }
}

impl<G: Game> Batch<G> {
    fn dealer(&self) -> Dealer<'_, G> {
        Dealer {
            rules: &self.rules,
            seed: self.seed,
            plies: &self.plies,
        }
    }

    /// Every row's legal bits, after the rows changed outside a step.
    fn refresh(&mut self) {
        let w = self.words;
        self.bits.resize(self.rows.len() * w, 0);
        for (row, out) in self.rows.iter().zip(self.bits.chunks_mut(w)) {
            legal_bits(row, out);
        }
    }

    fn clear_finals(&mut self) {
        for i in self.final_rows.drain(..) {
            self.finals[i] = None;
        }
    }

    /// A row from a given start (its moves read as text, checked).
    fn row_from(&self, start: &Start, dealt: u64) -> Result<Row<G>, String> {
        let pos = G::from_notation(&self.rules, &start.fen).map_err(|e| e.to_string())?;
        let mut row = Row::new(pos, dealt);
        for text in &start.moves {
            if row.outcome.is_some() {
                return Err(format!("the game is over before {text}"));
            }
            let mv = row.pos.parse_move(text).map_err(|e| e.to_string())?;
            row.play(mv);
        }
        if row.outcome.is_some() {
            return Err("the game is over there".into());
        }
        Ok(row)
    }

    /// A row from its pickled state (its moves as actions, checked).
    fn row_of(&self, s: &RowState) -> Result<Row<G>, String> {
        let pos = G::from_notation(&self.rules, &s.start).map_err(|e| e.to_string())?;
        let mut row = Row::new(pos, s.dealt);
        for &a in &s.moves {
            match G::move_of_action(&self.rules, a) {
                Some(mv) if row.is_legal(mv) => row.play(mv),
                _ => {
                    return Err(format!(
                        "action {a} is not legal in {}",
                        row.pos.to_notation()
                    ));
                }
            }
        }
        Ok(row)
    }

    fn row_state(&self, row: &Row<G>) -> RowState {
        RowState {
            start: row.start.to_notation(),
            moves: row.moves.iter().map(|&m| G::action_of(m)).collect(),
            dealt: row.dealt,
        }
    }
}

impl<G: Game> DynBatch for Batch<G> {
    fn len(&self) -> usize {
        self.rows.len()
    }
    fn action_count(&self) -> usize {
        G::action_count(&self.rules)
    }
    fn observation_len(&self) -> usize {
        G::observation_len(&self.rules)
    }
    fn reset(
        &mut self,
        seed: Option<u64>,
        rows: Option<&[usize]>,
        starts: &[Option<Start>],
    ) -> Result<(), String> {
        let all: Vec<usize> = (0..self.rows.len()).collect();
        let rows = rows.unwrap_or(&all);
        let seed = seed.or(self.fresh.then_some(self.seed));
        let mut given = Vec::with_capacity(rows.len());
        for (j, &i) in rows.iter().enumerate() {
            let dealt = if seed.is_some() {
                0
            } else {
                self.rows[i].dealt
            };
            given.push(match starts.get(j) {
                Some(Some(s)) => Some(
                    self.row_from(s, dealt)
                        .map_err(|e| format!("position {j} ({}): {e}", s.fen))?,
                ),
                _ => None,
            });
        }
        if let Some(s) = seed {
            self.seed = s;
            self.draws = 0;
            for row in &mut self.rows {
                row.dealt = 0;
            }
        }
        self.clear_finals();
        self.fresh = false;
        for (&i, g) in rows.iter().zip(given) {
            self.rows[i] = match g {
                Some(row) => row,
                None => self.dealer().deal(i, self.rows[i].dealt),
            };
        }
        self.refresh();
        Ok(())
    }
    fn set_plies(&mut self, plies: Vec<usize>) {
        self.plies = plies;
    }
    fn step(
        &mut self,
        actions: &[i64],
        ended: &mut [Ended],
        obs: &mut [f32],
        mask: &mut [bool],
        threads: usize,
    ) -> Result<(), String> {
        let count = G::action_count(&self.rules);
        let w = self.words;
        self.chosen.clear();
        for (i, (bits, &a)) in self.bits.chunks(w).zip(actions).enumerate() {
            let Some(k) = usize::try_from(a).ok().filter(|&k| k < count) else {
                return Err(format!("game {i}: action {a} is outside 0..{count}"));
            };
            let mv = match G::move_of_action(&self.rules, k) {
                Some(mv) if bits[k >> 6] >> (k & 63) & 1 == 1 => mv,
                _ => {
                    let mut legal: Vec<usize> = self.rows[i]
                        .legal
                        .iter()
                        .map(|&m| G::action_of(m))
                        .collect();
                    legal.sort_unstable();
                    return Err(format!(
                        "game {i}: action {a} is not a legal move (legal actions: {legal:?})"
                    ));
                }
            };
            self.chosen.push(mv);
        }
        self.clear_finals();
        self.fresh = false;
        let (o, a) = (self.observation_len(), count);
        let n = self.rows.len();
        let chunk = n.div_ceil(threads_for(n, threads)).max(1);
        let dealer = Dealer {
            rules: &self.rules,
            seed: self.seed,
            plies: &self.plies,
        };
        let max = self.max_plies;
        // One part of the rows, with the same part of every array.
        struct Part<'a, G: Game> {
            base: usize,
            rows: &'a mut [Row<G>],
            fins: &'a mut [Option<Row<G>>],
            mvs: &'a [G::Move],
            ended: &'a mut [Ended],
            obs: &'a mut [f32],
            mask: &'a mut [bool],
            bits: &'a mut [u64],
        }
        let work = |p: Part<'_, G>| {
            for k in 0..p.rows.len() {
                let row = &mut p.rows[k];
                p.ended[k] = step_row(&dealer, p.base + k, max, row, &mut p.fins[k], p.mvs[k]);
                row.write(
                    &mut p.obs[k * o..(k + 1) * o],
                    &mut p.mask[k * a..(k + 1) * a],
                );
                legal_bits(row, &mut p.bits[k * w..(k + 1) * w]);
            }
        };
        if chunk >= n || o == 0 || a == 0 {
            work(Part {
                base: 0,
                rows: &mut self.rows,
                fins: &mut self.finals,
                mvs: &self.chosen,
                ended,
                obs,
                mask,
                bits: &mut self.bits,
            });
        } else {
            let work = &work;
            std::thread::scope(|s| {
                let mut parts = self
                    .rows
                    .chunks_mut(chunk)
                    .zip(self.finals.chunks_mut(chunk))
                    .zip(self.chosen.chunks(chunk))
                    .zip(ended.chunks_mut(chunk))
                    .zip(obs.chunks_mut(chunk * o).zip(mask.chunks_mut(chunk * a)))
                    .zip(self.bits.chunks_mut(chunk * w))
                    .enumerate()
                    .map(
                        |(j, (((((rows, fins), mvs), ended), (obs, mask)), bits))| Part {
                            base: j * chunk,
                            rows,
                            fins,
                            mvs,
                            ended,
                            obs,
                            mask,
                            bits,
                        },
                    );
                // The first part on this thread: one thread fewer to start.
                let first = parts.next();
                for p in parts {
                    s.spawn(move || work(p));
                }
                if let Some(p) = first {
                    work(p);
                }
            });
        }
        self.final_rows
            .extend((0..n).filter(|&i| self.finals[i].is_some()));
        Ok(())
    }
    fn write(&self, obs: &mut [f32], mask: &mut [bool]) {
        let (o, a) = (self.observation_len(), self.action_count());
        for (i, row) in self.rows.iter().enumerate() {
            row.write(&mut obs[i * o..(i + 1) * o], &mut mask[i * a..(i + 1) * a]);
        }
    }
    fn to_play(&self) -> Vec<i8> {
        self.rows.iter().map(Row::to_play).collect()
    }
    fn fen(&self, i: usize) -> String {
        self.rows[i].pos.to_notation()
    }
    fn plies(&self, i: usize) -> usize {
        self.rows[i].moves.len()
    }
    fn write_final(&self, obs: &mut [f32], ended: &mut [bool]) {
        let o = self.observation_len();
        for &i in &self.final_rows {
            if let Some(game) = &self.finals[i] {
                let pos = &game.pos;
                pos.observe(pos.side_to_move(), &mut obs[i * o..(i + 1) * o]);
                ended[i] = true;
            }
        }
    }
    fn final_fen(&self, i: usize) -> Option<String> {
        self.finals[i].as_ref().map(|g| g.pos.to_notation())
    }
    fn random_actions(&mut self, out: &mut [i64]) {
        // A hash of (seed, draw, row) a row: no state but the count, so a
        // pickled batch draws on as the original would.
        // A word apart from the deals' (seed, row, game): other streams.
        const ACTIONS: u64 = 0x5eed_ac71;
        let (seed, draw) = (self.seed, self.draws);
        self.draws += 1;
        for (i, (bits, a)) in self.bits.chunks(self.words).zip(out).enumerate() {
            let count: u32 = bits.iter().map(|b| b.count_ones()).sum();
            if count == 0 {
                *a = 0;
                continue;
            }
            let mut k = (mix_words(&[seed, ACTIONS, draw, i as u64]) % u64::from(count)) as u32;
            for (w, &b) in bits.iter().enumerate() {
                let ones = b.count_ones();
                if k < ones {
                    let mut b = b;
                    for _ in 0..k {
                        b &= b - 1;
                    }
                    *a = (w * 64 + b.trailing_zeros() as usize) as i64;
                    break;
                }
                k -= ones;
            }
        }
    }
    fn clone_box(&self) -> Box<dyn DynBatch> {
        Box::new(self.clone())
    }
    fn state(&self) -> BatchState {
        BatchState {
            seed: self.seed,
            plies: self.plies.clone(),
            max_plies: self.max_plies,
            fresh: self.fresh,
            draws: self.draws,
            rows: self.rows.iter().map(|r| self.row_state(r)).collect(),
            finals: self
                .final_rows
                .iter()
                .filter_map(|&i| Some((i, self.row_state(self.finals[i].as_ref()?))))
                .collect(),
        }
    }
    fn restore(&mut self, state: BatchState) -> Result<(), String> {
        let n = state.rows.len();
        if state.plies.len() != n {
            return Err(format!(
                "{} opening lengths for {n} games",
                state.plies.len()
            ));
        }
        let rows = state
            .rows
            .iter()
            .enumerate()
            .map(|(i, s)| self.row_of(s).map_err(|e| format!("game {i}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut finals: Vec<Option<Row<G>>> = (0..n).map(|_| None).collect();
        let mut final_rows = Vec::new();
        for (i, s) in &state.finals {
            let slot = finals
                .get_mut(*i)
                .ok_or_else(|| format!("a final game of row {i} of {n}"))?;
            *slot = Some(self.row_of(s).map_err(|e| format!("final game {i}: {e}"))?);
            final_rows.push(*i);
        }
        self.rows = rows;
        self.finals = finals;
        self.final_rows = final_rows;
        self.seed = state.seed;
        self.plies = state.plies;
        self.max_plies = state.max_plies;
        self.fresh = state.fresh;
        self.draws = state.draws;
        self.refresh();
        Ok(())
    }
}

/// Makes the batch of a variant's game type: `n` games dealt from `seed`.
pub struct MakeBatch {
    pub n: usize,
    pub seed: u64,
    pub plies: Vec<usize>,
    pub max_plies: Option<usize>,
}

impl BoardVisitor for MakeBatch {
    type Output = Box<dyn DynBatch>;
    fn visit<G: Board>(self, rules: G::Rules) -> Self::Output {
        let words = G::action_count(&rules).div_ceil(64).max(1);
        let mut b = Batch::<G> {
            rows: Vec::with_capacity(self.n),
            rules,
            seed: self.seed,
            plies: self.plies,
            max_plies: self.max_plies,
            fresh: true,
            draws: 0,
            finals: (0..self.n).map(|_| None).collect(),
            final_rows: Vec::new(),
            chosen: Vec::with_capacity(self.n),
            bits: Vec::new(),
            words,
        };
        for i in 0..self.n {
            let row = b.dealer().deal(i, 0);
            b.rows.push(row);
        }
        b.refresh();
        Box::new(b)
    }
}
