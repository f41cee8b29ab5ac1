//! The games of a `VectorGames`, generic over the game type: one [`Row`]
//! per game, stepped on as many threads as the batch is given.
//!
//! Every row deals its games from its own random stream, seeded by the
//! batch's seed, the row's index and how many games the row has dealt
//! since the seed was set. So a row's games do not depend on the other
//! rows, on the batch's size or on how many threads step it, and a batch
//! rebuilt from its state (a pickle) deals what the original would have.

use kete::game::{Game, Outcome, Side, mix_words};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// What one step reports of one game.
#[derive(Clone, Copy, Default)]
pub struct Ended {
    /// The reward of the player who moved: 1 for a win, -1 for a loss, 0
    /// for a draw or a game going on.
    pub reward: f32,
    pub terminated: bool,
    pub truncated: bool,
}

/// One game of the batch with what the referee needs of its past.
#[derive(Clone)]
pub struct Row<G: Game> {
    pub start: G,
    pub pos: G,
    pub moves: Vec<G::Move>,
    /// The hashes of the positions of the game so far (the start and the
    /// current one included; see `monotone` for which), for the repetition
    /// rule; empty where the rules have none. Only hashes: where one
    /// matches, the game is replayed from its start to compare the
    /// positions themselves, which happens about once a game.
    hashes: Vec<u64>,
    /// One bit of 256 for each hash in `hashes` (its top byte): a position
    /// whose bit is clear is new, and the scan is skipped.
    bloom: [u64; 4],
    /// Each side's gains (as `Game::gained` counts them) at the current
    /// position, and whether no side's gains have fallen in this game.
    /// While none has, a position can only repeat one with the same gains,
    /// all of them since the gains last changed: `hashes` keeps only
    /// those, so that a long game's scan and memory stay short. Once a
    /// side's gains fall (Bao's seeds come back to a side, a store lends
    /// seeds), `hashes` is rebuilt from the moves and keeps every position.
    gains: (u32, u32),
    monotone: bool,
    /// The outcome, repetition included (as `GameRecord::outcome`).
    pub outcome: Option<Outcome>,
    /// The legal moves of `pos`, none once the game is over: found once a
    /// move, used to check the next action and to write the mask.
    pub legal: Vec<G::Move>,
    /// The games this row has dealt since the seed was set.
    pub dealt: u64,
}

impl<G: Game> Row<G> {
    pub fn new(start: G, dealt: u64) -> Row<G> {
        let gains = (start.gained(Side::South), start.gained(Side::North));
        let mut row = Row {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            hashes: Vec::new(),
            bloom: [0; 4],
            gains,
            monotone: true,
            outcome: None,
            legal: Vec::new(),
            dealt,
        };
        row.remember();
        row.settle(None);
        row
    }

    fn remember(&mut self) {
        if G::CAN_REPEAT {
            self.note(self.pos.hash());
        }
    }

    fn note(&mut self, h: u64) {
        let bit = (h >> 56) as usize;
        self.bloom[bit >> 6] |= 1 << (bit & 63);
        self.hashes.push(h);
    }

    fn forget(&mut self) {
        self.hashes.clear();
        self.bloom = [0; 4];
    }

    /// Whether `next` is one of the game's positions so far.
    fn has_been(&self, next: &G) -> bool {
        let mut p = self.start.clone();
        for &mv in &self.moves {
            if p == *next {
                return true;
            }
            p = p.play(mv);
        }
        p == *next
    }

    fn may_have_seen(&self, h: u64) -> bool {
        let bit = (h >> 56) as usize;
        self.bloom[bit >> 6] & (1 << (bit & 63)) != 0
    }

    /// The hashes of every position from the start to the current one.
    fn recall(&mut self) {
        self.forget();
        let mut p = self.start.clone();
        for i in 0..self.moves.len() {
            self.note(p.hash());
            p = p.play(self.moves[i]);
        }
        self.note(p.hash());
    }

    /// The outcome and legal moves of the position reached.
    fn settle(&mut self, repetition: Option<Outcome>) {
        self.outcome = repetition.or_else(|| self.pos.outcome());
        self.legal.clear();
        if self.outcome.is_none() {
            self.pos.legal_moves(&mut self.legal);
        }
    }

    /// Plays a legal move, ending the game on a repeated position where
    /// the rules say so (as `GameRecord::play`).
    pub fn play(&mut self, mv: G::Move) {
        let next = self.pos.play(mv);
        let mut repetition = None;
        if G::CAN_REPEAT {
            let gains = (next.gained(Side::South), next.gained(Side::North));
            if self.monotone && (gains.0 < self.gains.0 || gains.1 < self.gains.1) {
                self.monotone = false;
                self.recall();
            } else if self.monotone && gains != self.gains {
                self.forget();
            }
            self.gains = gains;
            let h = next.hash();
            let again = self.may_have_seen(h) && self.hashes.contains(&h) && self.has_been(&next);
            if again {
                repetition = next.repetition_outcome();
            }
        }
        self.pos = next;
        self.moves.push(mv);
        self.remember();
        self.settle(repetition);
    }

    pub fn is_legal(&self, mv: G::Move) -> bool {
        self.legal.contains(&mv)
    }

    /// Writes the side to move's observation and the legal mask.
    pub fn write(&self, obs: &mut [f32], mask: &mut [bool]) {
        self.pos.observe(self.pos.side_to_move(), obs);
        mask.fill(false);
        for &m in &self.legal {
            mask[G::action_of(m)] = true;
        }
    }

    pub fn to_play(&self) -> i8 {
        i8::from(self.pos.side_to_move() == Side::North)
    }
}

/// What a row needs to deal its next game.
pub struct Dealer<'a, G: Game> {
    pub rules: &'a G::Rules,
    pub seed: u64,
    /// Random moves from the start, per row.
    pub plies: &'a [usize],
}

impl<G: Game> Dealer<'_, G> {
    /// Game number `dealt` of row `row`: the start, then the row's random
    /// moves (again from the start if those end the game).
    pub fn deal(&self, row: usize, dealt: u64) -> Row<G> {
        let stream = mix_words(&[self.seed, row as u64, dealt]);
        let mut rng = StdRng::seed_from_u64(stream);
        let plies = self.plies[row];
        'again: loop {
            let mut game = Row::new(G::start(self.rules), dealt + 1);
            for _ in 0..plies {
                if game.legal.is_empty() {
                    continue 'again;
                }
                let mv = game.legal[rng.random_range(0..game.legal.len())];
                game.play(mv);
            }
            if game.outcome.is_none() {
                return game;
            }
        }
    }
}

/// Plays `mv` in `row` and reports it; a game that ends is kept in `fin`
/// and the row deals its next one.
pub fn step_row<G: Game>(
    dealer: &Dealer<'_, G>,
    index: usize,
    max_plies: Option<usize>,
    row: &mut Row<G>,
    fin: &mut Option<Row<G>>,
    mv: G::Move,
) -> Ended {
    let mover = row.pos.side_to_move();
    row.play(mv);
    let mut e = Ended::default();
    if let Some(o) = row.outcome {
        e.terminated = true;
        e.reward = match o.result.winner() {
            Some(w) if w == mover => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
    } else if max_plies.is_some_and(|m| row.moves.len() >= m) {
        e.truncated = true;
    }
    if e.terminated || e.truncated {
        let next = dealer.deal(index, row.dealt);
        *fin = Some(std::mem::replace(row, next));
    }
    e
}

/// How many threads a batch of `n` rows is stepped on, given `threads`:
/// one below [`PARALLEL_ROWS`] rows a thread, where spawning costs more
/// than it saves.
pub fn threads_for(n: usize, threads: usize) -> usize {
    (n / PARALLEL_ROWS).clamp(1, threads.max(1))
}

/// The fewest rows a thread is given: a step of this many rows takes
/// about 100 µs in Oware, some ten times what starting a thread costs.
pub const PARALLEL_ROWS: usize = 512;
