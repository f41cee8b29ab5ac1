//! What a turn did, read from its traced moves: the marks a drawing puts on
//! the board for the last turn.

use crate::game::{Board, CellKind, TraceStep};

/// The cells a turn touched, each list in the order first met, without
/// repeats. A turn is one or more moves of one side in a row (Kalah's
/// another turn).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// Where each move started: the pit clicked to make it (Bao's namua
    /// placement pit, not the hand).
    pub started: Vec<usize>,
    /// Every cell a seed was dropped into.
    pub sown: Vec<usize>,
    /// Where the last seed of each move fell.
    pub ended: Vec<usize>,
    /// The opponent's cells whose seeds the mover took.
    pub captured: Vec<usize>,
    /// Where a relay lap (or Bao's safari) lifted seeds to sow them on.
    pub laps: Vec<usize>,
    /// What the rules said on the way, in words, in order.
    pub notes: Vec<String>,
}

fn add(list: &mut Vec<usize>, cell: usize) {
    if !list.contains(&cell) {
        list.push(cell);
    }
}

impl Turn {
    /// Reads the moves of a turn, each given with the position it was
    /// played from. A cell counts as captured when its seeds went to the
    /// mover's store, or when the mover lifted them from the opponent's side
    /// in a move that sows only on his own (Bao); seeds lifted from the
    /// opponent's side by a move that sows there too are a relay (En Dodoi).
    pub fn read<G: Board>(moves: &[(G, G::Move)]) -> Turn {
        let mut turn = Turn::default();
        for (pos, mv) in moves {
            let mover = pos.side_to_move();
            let cells = pos.cells();
            let store = cells
                .iter()
                .position(|c| c.kind == CellKind::Store && c.side == mover);
            let theirs = |c: usize| cells.get(c).is_some_and(|x| x.side != mover);
            let pit = |c: usize| cells.get(c).is_some_and(|x| x.kind == CellKind::Pit);
            let start = pos.move_cell(*mv);
            add(&mut turn.started, start);
            let (_, steps) = pos.play_traced(*mv);
            let sows_theirs = steps
                .iter()
                .any(|s| matches!(s, TraceStep::Drop { cell } if theirs(*cell)));
            let mut lifted = false;
            let mut last = None;
            for s in &steps {
                match s {
                    TraceStep::Lift { cell, .. } if pit(*cell) => {
                        if theirs(*cell) && !sows_theirs {
                            add(&mut turn.captured, *cell);
                        } else if lifted || *cell != start {
                            add(&mut turn.laps, *cell);
                        }
                        lifted = true;
                    }
                    TraceStep::Lift { .. } => {}
                    TraceStep::Drop { cell } => {
                        add(&mut turn.sown, *cell);
                        last = Some(*cell);
                    }
                    TraceStep::Take { from, to, .. } => {
                        if Some(*to) == store && theirs(*from) && pit(*from) {
                            add(&mut turn.captured, *from);
                        }
                    }
                    TraceStep::Note { text } => turn.notes.push(text.clone()),
                }
            }
            if let Some(c) = last {
                add(&mut turn.ended, c);
            }
        }
        // A pit a move started from is not a relay lap of another.
        turn.laps.retain(|c| !turn.started.contains(c));
        turn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::variants::kalah::{Kalah, KalahRules};

    #[test]
    fn a_kalah_turn_of_two_sowings_marks_both_and_where_each_ended() {
        let rules = KalahRules::default();
        let p0 = Kalah::start(&rules);
        // C (4 seeds) ends in South's store: another turn; then F.
        let c = p0.parse_move("C").unwrap();
        let p1 = p0.play(c);
        assert_eq!(p1.side_to_move(), p0.side_to_move());
        let f = p1.parse_move("F").unwrap();
        let turn = Turn::read(&[(p0, c), (p1, f)]);
        assert_eq!(turn.started, vec![2, 5]);
        // C's last seed in the store (cell 12), F's in North's row.
        assert_eq!(turn.ended.len(), 2);
        assert_eq!(turn.ended[0], 12);
        assert!(turn.captured.is_empty() && turn.laps.is_empty());
        assert!(turn.notes.iter().any(|n| n.contains("another turn")));
    }

    #[test]
    fn a_kalah_capture_marks_the_pit_across() {
        let rules = KalahRules::default();
        // South: A holds 1, B is empty; North's pit across B (e) holds 5.
        let pos = Kalah::from_notation(&rules, "1-0-4-4-4-4-4-4-4-4-5-4-6-0-S").unwrap();
        let a = pos.parse_move("A").unwrap();
        let turn = Turn::read(&[(pos, a)]);
        let cells = pos.cells();
        assert_eq!(turn.captured.len(), 1, "{turn:?}");
        assert_eq!(cells[turn.captured[0]].name, "e");
        assert_eq!(cells[turn.ended[0]].name, "B");
    }
}
