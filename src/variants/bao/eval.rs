//! Bao's evaluators. Bao is won by emptying the opponent's front row or
//! leaving him without a move, never by counting, so the scores are
//! heuristics in the engine's centiseed scale.

use super::{Bao, BaoMove, Kind, NYUMBA};
use crate::game::{Evaluator, Game, PHASE, Side, linear_value, linear_value_terms};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BaoEval {
    /// Bao la Kiswahili: [`BaoEval::Tuned`], which beat the hand-picked
    /// evaluation in an SPRT; Bao la Kujifunza (no hands; the weights were
    /// fitted on Kiswahili games and gained nothing in its SPRT):
    /// [`BaoEval::Classic`].
    #[default]
    Default,
    /// The first, hand-picked evaluation: seeds, front-row seeds, capture
    /// threats and the nyumba.
    Classic,
    /// The linear evaluation over [`BaoEval::FEATURES`] with the weights
    /// `kete tune` fitted to Bao la Kiswahili games (`weights/bao.rs`).
    Tuned,
    /// The seeds each player has (board and hand) alone.
    Seeds,
}

/// The tuned weights, one (opening, endgame) pair per feature.
#[path = "../weights/bao.rs"]
mod weights;

/// Features per side, in the order of [`BaoEval::FEATURES`].
const SIDE_FEATURES: usize = 10;

/// Seeds in both hands at the start of Bao la Kiswahili: the phase of a
/// linear evaluation runs from there (the namua stage) to none in hand.
const HANDS_AT_START: i32 = 44;

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
        (BaoEval::Classic, &["classic"]),
        (BaoEval::Tuned, &["tuned"]),
        (BaoEval::Seeds, &["seeds", "plain"]),
    ];

    const FEATURES: &'static [&'static str] = &[
        "seeds_me",
        "hand_me",
        "front_me",
        "front_pits_me",
        "back_pits_me",
        "singles_me",
        "hits_me",
        "best_hit_me",
        "nyumba_me",
        "owned_me",
        "seeds_opp",
        "hand_opp",
        "front_opp",
        "front_pits_opp",
        "back_pits_opp",
        "singles_opp",
        "hits_opp",
        "best_hit_opp",
        "nyumba_opp",
        "owned_opp",
    ];

    const WEIGHTS: &'static [(i32, i32)] = &weights::WEIGHTS;

    fn evaluate(&self, pos: &Bao) -> i32 {
        match self.resolve(pos) {
            BaoEval::Tuned => linear_value::<_, Self>(pos),
            e => e.terms(pos).iter().map(|t| t.1).sum(),
        }
    }

    fn terms(&self, pos: &Bao) -> Vec<(&'static str, i32)> {
        let me = pos.side_to_move();
        let opp = me.other();
        let seed_diff = seeds(pos, me) - seeds(pos, opp);
        match self.resolve(pos) {
            BaoEval::Tuned => return linear_value_terms::<_, Self>(pos),
            BaoEval::Seeds => return vec![("seeds", 100 * seed_diff)],
            _ => {}
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

    fn features(pos: &Bao, out: &mut [i32]) -> i32 {
        let me = pos.side_to_move();
        side_features(pos, me, &mut out[..SIDE_FEATURES]);
        side_features(pos, me.other(), &mut out[SIDE_FEATURES..]);
        let hands = pos.hand(Side::South) as i32 + pos.hand(Side::North) as i32;
        (PHASE * hands / HANDS_AT_START).min(PHASE)
    }
}

impl BaoEval {
    /// The evaluator `Default` stands for in this game.
    fn resolve(self, pos: &Bao) -> BaoEval {
        match (self, pos.rules().kind) {
            (BaoEval::Default, Kind::Kiswahili) => BaoEval::Tuned,
            (BaoEval::Default, Kind::Kujifunza) => BaoEval::Classic,
            (e, _) => e,
        }
    }
}

/// One side's features: its seeds (board and hand), in hand, in the front
/// row; occupied front and back pits; pits of one seed (which cannot start
/// a move in the mtaji stage); the opponent's pits it could capture and the
/// seeds in the biggest; whether its nyumba works and whether it still owns
/// one.
fn side_features(pos: &Bao, side: Side, out: &mut [i32]) {
    let l = pos.loop_of(side);
    let (hits, best) = threats(pos, side);
    out.copy_from_slice(&[
        seeds(pos, side),
        pos.hand(side) as i32,
        l[..8].iter().map(|&v| v as i32).sum(),
        l[..8].iter().filter(|&&v| v > 0).count() as i32,
        l[8..].iter().filter(|&&v| v > 0).count() as i32,
        l.iter().filter(|&&v| v == 1).count() as i32,
        hits,
        best,
        pos.nyumba_functional(side) as i32,
        pos.nyumba_owned(side) as i32,
    ]);
}
