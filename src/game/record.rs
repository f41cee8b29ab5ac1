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

    /// Plays the moves of a `position … moves` list, each token one move
    /// or, where the game's notation allows it, a run of moves written
    /// together ([`Game::split_joined`]: `FbCe` is four moves, and each
    /// letter's case must be its mover's). Stops at the first move that
    /// cannot be played, with an error that names the token, the letter
    /// of a run and the ply (counted from 1 over single moves).
    pub fn play_list(&mut self, tokens: &[&str]) -> Result<(), String> {
        let why = |e: MoveError| match e {
            MoveError::GameOver => "the game was already over".to_string(),
            other => other.to_string(),
        };
        let mut ply = 0;
        for (i, &token) in tokens.iter().enumerate() {
            let k = i + 1;
            let single = match self.play_text(token) {
                Ok(_) => {
                    ply += 1;
                    continue;
                }
                Err(e) => e,
            };
            let joined = match (&single, G::split_joined(token)) {
                (MoveError::Syntax(_), Some(moves)) if moves.len() > 1 => moves,
                _ => {
                    return Err(format!(
                        "move {k} '{token}' (ply {}): {}",
                        ply + 1,
                        why(single)
                    ));
                }
            };
            for (j, (text, side)) in joined.iter().enumerate() {
                ply += 1;
                let at = format!("move {k} '{token}', letter {} '{text}' (ply {ply})", j + 1);
                if self.outcome().is_some() {
                    return Err(format!("{at}: the game was already over"));
                }
                let mover = self.position().side_to_move();
                if *side != mover {
                    return Err(format!(
                        "{at}: '{text}' is a {side:?} pit, but {mover:?} is to move (moves written together say the side by their case)"
                    ));
                }
                self.play_text(text)
                    .map_err(|e| format!("{at}: {}", why(e)))?;
            }
        }
        Ok(())
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
