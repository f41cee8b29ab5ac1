//! A game with its history: the referee's view.

use super::{EndReason, Game, MoveError, Outcome};

/// A game in progress with its history: the referee's view. It applies the
/// rules that need history (repetition) on top of the position's own.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    start: G,
    positions: Vec<G>,
    moves: Vec<G::Move>,
    repetition_end: Option<Outcome>,
}

impl<G: Game> GameRecord<G> {
    pub fn new(start: G) -> Self {
        GameRecord {
            positions: vec![start.clone()],
            start,
            moves: Vec::new(),
            repetition_end: None,
        }
    }

    pub fn start(&self) -> &G {
        &self.start
    }

    pub fn position(&self) -> &G {
        self.positions
            .last()
            .expect("a record always holds its start")
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The positions from the start to the current one.
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// Where the last turn starts: the index of the first of the moves at
    /// the end that one side played in a row (Kalah's another turn makes a
    /// turn of several); the number of moves when none was played.
    pub fn last_turn_start(&self) -> usize {
        let Some(last) = self.moves.len().checked_sub(1) else {
            return 0;
        };
        let mover = self.positions[last].side_to_move();
        let mut first = last;
        while first > 0 && self.positions[first - 1].side_to_move() == mover {
            first -= 1;
        }
        first
    }

    /// The outcome if the game ended by a repeated position.
    pub fn ended_by_repetition(&self) -> Option<Outcome> {
        self.repetition_end
    }

    /// The outcome of the game so far, repetition included.
    pub fn outcome(&self) -> Option<Outcome> {
        self.repetition_end.or_else(|| self.position().outcome())
    }

    /// Why the game ended, repetition included.
    pub fn end_reason(&self) -> Option<EndReason> {
        if self.repetition_end.is_some() {
            Some(EndReason::Repetition)
        } else {
            self.position().end_reason()
        }
    }

    /// Legal moves of the current position, none once the game has ended.
    pub fn legal_moves(&self, out: &mut Vec<G::Move>) {
        out.clear();
        if self.outcome().is_none() {
            self.position().legal_moves(out);
        }
    }

    /// Reads and plays one move, refusing it with a reason if it is illegal.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// The record after the move `text`, read and checked as
    /// [`GameRecord::play_text`] does, leaving `self` alone: a clone that
    /// then plays, but without growing the clone's lists (a caller that
    /// keeps every record of a line, as a persistent position does, pays
    /// one copy a move).
    pub fn after_text(&self, text: &str) -> Result<GameRecord<G>, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = self.position().parse_move(text)?;
        let mut next = GameRecord {
            start: self.start.clone(),
            positions: Vec::with_capacity(self.positions.len() + 1),
            moves: Vec::with_capacity(self.moves.len() + 1),
            repetition_end: self.repetition_end,
        };
        next.positions.extend_from_slice(&self.positions);
        next.moves.extend_from_slice(&self.moves);
        next.play(mv);
        Ok(next)
    }

    /// Plays a move already known to be legal.
    pub fn play(&mut self, mv: G::Move) {
        let next = self.position().play(mv);
        if G::CAN_REPEAT && self.positions.contains(&next) {
            self.repetition_end = next.repetition_outcome();
        }
        self.positions.push(next);
        self.moves.push(mv);
    }
}
