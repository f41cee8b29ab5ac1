//! Bao's evaluators. Bao is won by emptying the opponent's front row or
//! leaving him without a move, never by counting, so the scores are
//! heuristics in the engine's centiseed scale.

use super::{Bao, BaoMove, Kind, NYUMBA};
use crate::game::{Evaluator, Game, PHASE, Side, linear_value, linear_value_terms};
use crate::variants::net::Network;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BaoEval {
    /// Bao la Kiswahili: [`BaoEval::Net`], which beat [`BaoEval::Tuned`] in
    /// an SPRT (`tournaments/bao-kiswahili-sprt-net-vs-tuned/`); Bao la
    /// Kujifunza (no hands; the linear weights were fitted on Kiswahili games
    /// and gained nothing in its SPRT): [`BaoEval::Classic`]. Its network beat
    /// that in an SPRT on even openings but is not the default yet: the
    /// playing levels' depths and spreads, tuned with the hand-picked
    /// evaluation, are not 100 Elo apart with it.
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
    /// A small network trained by `kete tune net` on games of the default
    /// evaluation, one for each game (`weights/bao-kiswahili.net`,
    /// `weights/bao-kujifunza.net`): the seeds of every pit, the hands, the
    /// nyumbas and each side's capture threats, seen from the side to move,
    /// one input for each count or state ([`NET_INPUTS`]), 32 hidden units.
    Net,
}

/// The networks' hidden units.
const NET_HIDDEN: usize = 32;

/// Bao la Kiswahili's network.
static NET_KISWAHILI: Network<NET_INPUTS, NET_HIDDEN> =
    Network::from_bytes(include_bytes!("../weights/bao-kiswahili.net"));

/// Bao la Kujifunza's network.
static NET_KUJIFUNZA: Network<NET_INPUTS, NET_HIDDEN> =
    Network::from_bytes(include_bytes!("../weights/bao-kujifunza.net"));

/// The value of `pos` by its game's network (every Bao position has the
/// network's inputs, so the hand-picked evaluation never stands in).
fn net_value(pos: &Bao) -> i32 {
    let net = match pos.rules().kind {
        Kind::Kiswahili => &NET_KISWAHILI,
        Kind::Kujifunza => &NET_KUJIFUNZA,
    };
    net.value::<_, BaoEval>(pos)
        .unwrap_or_else(|| BaoEval::Classic.evaluate(pos))
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
        (BaoEval::Net, &["net"]),
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
            BaoEval::Net => net_value(pos),
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
            BaoEval::Net => return vec![("network", net_value(pos))],
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

    const NET_INPUTS: usize = NET_INPUTS;

    fn net_inputs(pos: &Bao, out: &mut [u16]) -> Option<usize> {
        Some(net_inputs(pos, out))
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
            (BaoEval::Default, Kind::Kiswahili) => BaoEval::Net,
            (BaoEval::Default, Kind::Kujifunza) => BaoEval::Net,
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

/// A network's inputs for a pit: one for each count from 0 to 15, one for 16
/// or more.
const NET_PIT_COUNTS: usize = 17;

/// A network's inputs for a hand: one for each count from 0 to 22 (the hand
/// of Bao la Kiswahili at the start; a hand never grows).
const NET_HAND_COUNTS: usize = 23;

/// A network's inputs for a nyumba: owned and functional, owned but not
/// functional (too few seeds, or the privileges over), lost.
const NET_NYUMBA_STATES: usize = 3;

/// A network's inputs for a side's threats: the opponent's pits it could
/// capture were it his move, 0 to 8; the seeds in the biggest, 0 to 15, 16
/// or more.
const NET_HITS: usize = 9;
const NET_BEST_HIT: usize = 17;

/// Where each block of inputs starts: the 32 pits (the mover's loop, then
/// the opponent's, each in loop order), the two hands, the two nyumbas, the
/// mover's takasia'd front pit, the mtaji stage's first capture made, each
/// side's threats.
const NET_HANDS: usize = 32 * NET_PIT_COUNTS;
const NET_NYUMBAS: usize = NET_HANDS + 2 * NET_HAND_COUNTS;
const NET_TAKASIA: usize = NET_NYUMBAS + 2 * NET_NYUMBA_STATES;
const NET_MTAJI_CAPTURED: usize = NET_TAKASIA + 8;
const NET_THREATS: usize = NET_MTAJI_CAPTURED + 1;

/// Bao's network inputs.
pub const NET_INPUTS: usize = NET_THREATS + 2 * (NET_HITS + NET_BEST_HIT);

/// Writes the network inputs that are on for `pos`, seen from the side to
/// move, and returns how many (40 to 42): one for each pit, hand and nyumba,
/// one for the takasia'd pit if there is one, one once the mtaji stage has
/// seen its first capture, two for each side's threats (the capture
/// candidates the linear evaluations count: a sum of pits cannot tell a
/// capture, which takes a full pit facing a full pit). (`TakasiaObligation=clear`'s pit to clear is not
/// an input: the networks are trained under the default rules.)
fn net_inputs(pos: &Bao, out: &mut [u16]) -> usize {
    let me = pos.side_to_move();
    let mut n = 0;
    let mut on = |i: usize| {
        out[n] = i as u16;
        n += 1;
    };
    for (k, side) in [me, me.other()].into_iter().enumerate() {
        for (i, &v) in pos.loop_of(side).iter().enumerate() {
            on((16 * k + i) * NET_PIT_COUNTS + (v as usize).min(NET_PIT_COUNTS - 1));
        }
    }
    for (k, side) in [me, me.other()].into_iter().enumerate() {
        let hand = (pos.hand(side) as usize).min(NET_HAND_COUNTS - 1);
        on(NET_HANDS + k * NET_HAND_COUNTS + hand);
    }
    for (k, side) in [me, me.other()].into_iter().enumerate() {
        let state = if pos.nyumba_functional(side) {
            0
        } else if pos.nyumba_owned(side) {
            1
        } else {
            2
        };
        on(NET_NYUMBAS + k * NET_NYUMBA_STATES + state);
    }
    if let Some(p) = pos.takasia() {
        on(NET_TAKASIA + p as usize);
    }
    if pos.mtaji_captured() {
        on(NET_MTAJI_CAPTURED);
    }
    for (k, side) in [me, me.other()].into_iter().enumerate() {
        let (hits, best) = threats(pos, side);
        let base = NET_THREATS + k * (NET_HITS + NET_BEST_HIT);
        on(base + hits as usize);
        on(base + NET_HITS + (best as usize).min(NET_BEST_HIT - 1));
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MAX_NET_ACTIVE;
    use crate::variants::bao::BaoRules;

    fn inputs(pos: &Bao) -> Vec<u16> {
        let mut out = [0u16; MAX_NET_ACTIVE];
        let n = BaoEval::net_inputs(pos, &mut out).unwrap();
        out[..n].to_vec()
    }

    /// Bao la Kiswahili's start from South's view: his loop (6 in the
    /// nyumba, 2 in each of the two pits to its right), then North's, 22 seeds in each hand,
    /// both nyumbas functional.
    #[test]
    fn network_inputs_are_the_movers_loop_then_the_opponents_then_hands_and_nyumbas() {
        let pos = Bao::start(&BaoRules::kiswahili());
        let mut want = Vec::new();
        for k in 0..2 {
            for i in 0..16 {
                let v = match i {
                    NYUMBA => 6,
                    5 | 6 => 2,
                    _ => 0,
                };
                want.push(((16 * k + i) * NET_PIT_COUNTS + v) as u16);
            }
        }
        assert_eq!(pos.loop_of(Side::South)[NYUMBA], 6);
        want.extend([
            (NET_HANDS + 22) as u16,
            (NET_HANDS + NET_HAND_COUNTS + 22) as u16,
            NET_NYUMBAS as u16,
            (NET_NYUMBAS + NET_NYUMBA_STATES) as u16,
            // No capture at the start: South's full front pits face empty
            // ones, and so do North's.
            NET_THREATS as u16,
            (NET_THREATS + NET_HITS) as u16,
            (NET_THREATS + NET_HITS + NET_BEST_HIT) as u16,
            (NET_THREATS + 2 * NET_HITS + NET_BEST_HIT) as u16,
        ]);
        assert_eq!(inputs(&pos), want);
    }

    /// Every input is in its block, at most one per block, within the
    /// limits, over the positions of played-out games of both Baos.
    #[test]
    fn every_network_input_is_in_its_block() {
        for rules in [BaoRules::kiswahili(), BaoRules::kujifunza()] {
            let mut pos = Bao::start(&rules);
            let mut moves = Vec::new();
            for ply in 0..200 {
                let active = inputs(&pos);
                assert!((40..=42).contains(&active.len()), "{active:?}");
                assert!(active.len() <= MAX_NET_ACTIVE);
                assert!(active.windows(2).all(|w| w[0] < w[1]), "{active:?}");
                for (k, &i) in active[..32].iter().enumerate() {
                    assert_eq!(i as usize / NET_PIT_COUNTS, k, "{active:?}");
                }
                assert!(active.iter().all(|&i| (i as usize) < NET_INPUTS));
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos = pos.play(moves[(ply * 7919) % moves.len()]);
            }
        }
    }

    /// The inputs are the mover's view: the same position with the colours
    /// swapped has the same inputs and the same value.
    #[test]
    fn the_network_inputs_do_not_depend_on_the_colour_to_move() {
        let mut pos = Bao::start(&BaoRules::kiswahili());
        let mut moves = Vec::new();
        for ply in 0..40 {
            let mut mirror = pos;
            mirror.pits.swap(0, 1);
            mirror.hand.swap(0, 1);
            mirror.owned.swap(0, 1);
            mirror.side = pos.side.other();
            assert_eq!(inputs(&pos), inputs(&mirror), "ply {ply}");
            assert_eq!(BaoEval::Net.evaluate(&pos), BaoEval::Net.evaluate(&mirror));
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos = pos.play(moves[(ply * 31) % moves.len()]);
        }
    }
}
