//! Bao's evaluators. Bao is won by emptying the opponent's front row or
//! leaving him without a move, never by counting, so the scores are
//! heuristics in the engine's centiseed scale.

use super::{Bao, BaoMove, NYUMBA};
use crate::game::{Evaluator, Game, Side};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BaoEval {
    /// Seeds, front-row seeds, capture threats and the nyumba.
    #[default]
    Default,
    /// The seeds each player has (board and hand) alone.
    Seeds,
}

fn seeds(pos: &Bao, side: Side) -> i32 {
    pos.loop_of(side).iter().map(|&v| v as i32).sum::<i32>() + pos.hand(side) as i32
}

/// The opponent pits `side` could capture if it were his move, and the
/// seeds in the biggest of them (first captures only: cheap, no move is
/// played out).
fn threats(pos: &Bao, side: Side) -> (i32, i32) {
    let me = pos.as_mover(side);
    let mut cand: Vec<BaoMove> = Vec::new();
    me.capture_candidates(&mut cand);
    let them = pos.loop_of(side.other());
    let mut hit = [false; 8];
    let mut best = 0;
    for mv in cand {
        let target = if pos.hand(side) > 0 {
            7 - mv.pit as usize
        } else {
            let n = me.loop_of(side)[mv.pit as usize] as usize;
            let e = if mv.cw {
                (mv.pit as usize + n) & 15
            } else {
                (mv.pit as usize + 16 - n) & 15
            };
            7 - e
        };
        hit[target] = true;
        best = best.max(them[target] as i32);
    }
    (hit.iter().filter(|&&h| h).count() as i32, best)
}

impl Evaluator<Bao> for BaoEval {
    const TABLE: &'static [(Self, &'static [&'static str])] = &[
        (BaoEval::Default, &["default"]),
        (BaoEval::Seeds, &["seeds", "plain"]),
    ];

    fn evaluate(&self, pos: &Bao) -> i32 {
        self.terms(pos).iter().map(|t| t.1).sum()
    }

    fn terms(&self, pos: &Bao) -> Vec<(&'static str, i32)> {
        let me = pos.side_to_move();
        let opp = me.other();
        let seed_diff = seeds(pos, me) - seeds(pos, opp);
        if *self == BaoEval::Seeds {
            return vec![("seeds", 100 * seed_diff)];
        }
        // Only front-row seeds can be captured, but an empty front row loses:
        // a full front row is both a target and a shield.
        let front = |s: Side| pos.loop_of(s)[..8].iter().map(|&v| v as i32).sum::<i32>();
        let occupied = |s: Side| pos.loop_of(s)[..8].iter().filter(|&&v| v > 0).count() as i32;
        let front_term = 10 * (front(me) - front(opp)) + 30 * (occupied(me) - occupied(opp));
        // The mover cashes his threats first; the opponent's are only threats.
        let (my_hits, my_best) = threats(pos, me);
        let (their_hits, their_best) = threats(pos, opp);
        let threat = 20 * my_hits + 40 * my_best - 15 * their_hits - 25 * their_best;
        let nyumba = |s: Side| {
            if pos.nyumba_functional(s) {
                150
            } else if pos.nyumba_owned(s) {
                40 + 10 * pos.loop_of(s)[NYUMBA] as i32
            } else {
                0
            }
        };
        vec![
            ("seeds", 40 * seed_diff),
            ("front", front_term),
            ("threats", threat),
            ("nyumba", nyumba(me) - nyumba(opp)),
        ]
    }
}
