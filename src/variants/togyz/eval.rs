//! How kete judges a Togyz Kumalak position: a small network on the
//! tournament board, a linear evaluation on every board.

use crate::game::{Evaluator, PHASE, Side, linear_value, linear_value_terms};

use super::super::net::Network;
use super::{MAX_PITS, MAX_SEEDS, Togyz};

/// Togyz Kumalak's evaluators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TogyzEval {
    /// The network ([`TogyzEval::Net`]).
    #[default]
    Default,
    /// A small network trained by `kete tune net` (`weights/togyz.net`):
    /// every otau, kazan and tuzdyk seen from the side to move, one input
    /// for each count or place ([`TOGYZ_NET_INPUTS`]), 32 hidden units with
    /// a clipped ReLU, one output. For the tournament board, 9 otaus of 9
    /// kumalaks; on other boards it is the classic evaluation.
    Net,
    /// The linear evaluation over [`TogyzEval::FEATURES`] with weights
    /// picked by hand: kazans, tuzdyks (worth more the more kumalaks are
    /// still to be sown), the kumalaks each side holds and what the mover
    /// can take now.
    Classic,
    /// The difference of the kazans alone.
    Kazans,
}

/// The network's hidden units.
const NET_HIDDEN: usize = 32;

/// The network compiled in.
static NET: Network<TOGYZ_NET_INPUTS, NET_HIDDEN> =
    Network::from_bytes(include_bytes!("../weights/togyz.net"));

/// The otaus a network sees: the tournament board's 9 a side (a network
/// compiled in knows one board).
const NET_OTAUS: usize = 2 * MAX_PITS as usize;
/// A network's inputs for an otau: one for each count from 0 to 30, one for
/// 31 or more.
const NET_OTAU_COUNTS: usize = 32;
/// A network's inputs for a kazan: one for each count from 0 to 81 (82 has
/// won).
const NET_KAZAN_COUNTS: usize = 82;
/// A network's inputs for a side's tuzdyk: one for each otau of the
/// opponent's row it can be on, one for none.
const NET_TUZDYK_PLACES: usize = MAX_PITS as usize + 1;

/// The network's inputs: each otau seen from the side to move (its row
/// first, each row from its owner's left), one-hot by count; then each
/// kazan, the mover's first; then where each tuzdyk is, the mover's first.
pub const TOGYZ_NET_INPUTS: usize =
    NET_OTAUS * NET_OTAU_COUNTS + 2 * NET_KAZAN_COUNTS + 2 * NET_TUZDYK_PLACES;

/// Weights per feature, (opening, endgame), in centikumalaks per unit.
const WEIGHTS: [(i32, i32); 8] = [
    (100, 100),    // kazans
    (1000, 100),   // tuzdyk_me
    (-1000, -100), // tuzdyk_opp
    (60, 40),      // capture_now
    (2, 10),       // seeds_me
    (-2, -10),     // seeds_opp
    (-10, -30),    // empty_me
    (10, 30),      // empty_opp
];

impl Evaluator<Togyz> for TogyzEval {
    const TABLE: &'static [(Self, &'static [&'static str])] = &[
        (TogyzEval::Default, &["default"]),
        (TogyzEval::Net, &["net"]),
        (TogyzEval::Classic, &["classic", "linear"]),
        (TogyzEval::Kazans, &["kazans", "plain"]),
    ];

    const FEATURES: &'static [&'static str] = &[
        "kazans",
        "tuzdyk_me",
        "tuzdyk_opp",
        "capture_now",
        "seeds_me",
        "seeds_opp",
        "empty_me",
        "empty_opp",
    ];

    const WEIGHTS: &'static [(i32, i32)] = &WEIGHTS;

    fn evaluate(&self, pos: &Togyz) -> i32 {
        match self {
            TogyzEval::Kazans => self.terms(pos)[0].1,
            TogyzEval::Default | TogyzEval::Net => NET
                .value::<_, Self>(pos)
                .unwrap_or_else(|| linear_value::<_, Self>(pos)),
            TogyzEval::Classic => linear_value::<_, Self>(pos),
        }
    }

    fn terms(&self, pos: &Togyz) -> Vec<(&'static str, i32)> {
        let me = pos.side;
        match self {
            TogyzEval::Kazans => vec![(
                "kazans",
                100 * (pos.kazan(me) as i32 - pos.kazan(me.other()) as i32),
            )],
            TogyzEval::Default | TogyzEval::Net => match NET.value::<_, Self>(pos) {
                Some(v) => vec![("network", v)],
                None => linear_value_terms::<_, Self>(pos),
            },
            TogyzEval::Classic => linear_value_terms::<_, Self>(pos),
        }
    }

    fn features(pos: &Togyz, out: &mut [i32]) -> i32 {
        let me = pos.side;
        let opp = me.other();
        let empty = |s: Side| pos.cells[pos.row(s)].iter().filter(|&&v| v == 0).count() as i32;
        out[0] = pos.kazan(me) as i32 - pos.kazan(opp) as i32;
        out[1] = pos.tuzdyk(me).is_some() as i32;
        out[2] = pos.tuzdyk(opp).is_some() as i32;
        out[3] = pos.best_capture() as i32;
        out[4] = pos.row_seeds(me) as i32;
        out[5] = pos.row_seeds(opp) as i32;
        out[6] = empty(me);
        out[7] = empty(opp);
        let board = (pos.row_seeds(Side::South) + pos.row_seeds(Side::North)) as i32;
        (PHASE * board / (pos.total() as i32).max(1)).min(PHASE)
    }

    const NET_INPUTS: usize = TOGYZ_NET_INPUTS;

    fn net_inputs(pos: &Togyz, out: &mut [u16]) -> Option<usize> {
        if pos.pits != MAX_PITS || pos.seeds != MAX_SEEDS {
            return None;
        }
        let me = pos.side;
        let opp = me.other();
        let otaus = pos.cells[pos.row(me)]
            .iter()
            .chain(&pos.cells[pos.row(opp)]);
        let mut n = 0;
        for (k, &v) in otaus.enumerate() {
            out[n] = (k * NET_OTAU_COUNTS + (v as usize).min(NET_OTAU_COUNTS - 1)) as u16;
            n += 1;
        }
        let mut base = NET_OTAUS * NET_OTAU_COUNTS;
        for side in [me, opp] {
            let v = (pos.kazan(side) as usize).min(NET_KAZAN_COUNTS - 1);
            out[n] = (base + v) as u16;
            base += NET_KAZAN_COUNTS;
            n += 1;
        }
        for side in [me, opp] {
            let place = pos.tuzdyk(side).unwrap_or(MAX_PITS as usize);
            out[n] = (base + place) as u16;
            base += NET_TUZDYK_PLACES;
            n += 1;
        }
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{pos, random_positions};
    use super::super::{NONE, TogyzRules};
    use super::*;
    use crate::game::Game;

    #[test]
    fn network_inputs_are_one_a_place_from_the_movers_view() {
        let mut out = [0u16; crate::game::MAX_NET_ACTIVE];
        let t = "10-0-X-12-1-2-3-4-5-6-7-8-X-10-11-12-13-3-20-35-N";
        let n = TogyzEval::net_inputs(&pos(t), &mut out).unwrap();
        assert_eq!(n, NET_OTAUS + 4);
        let a = &out[..n];
        // North moves: its otaus first (6, 7, 8, X = 0, 10 ... 13, 3).
        assert_eq!(a[0] as usize, 6);
        assert_eq!(a[3] as usize, 3 * NET_OTAU_COUNTS);
        assert_eq!(a[8] as usize, 8 * NET_OTAU_COUNTS + 3);
        // South's row follows: 10, 0, X = 0, 12.
        assert_eq!(a[9] as usize, 9 * NET_OTAU_COUNTS + 10);
        let kazans = NET_OTAUS * NET_OTAU_COUNTS;
        assert_eq!(a[18] as usize, kazans + 35);
        assert_eq!(a[19] as usize, kazans + NET_KAZAN_COUNTS + 20);
        // North's tuzdyk is South's otau 3; South's is North's otau 4.
        let tuzdyks = kazans + 2 * NET_KAZAN_COUNTS;
        assert_eq!(a[20] as usize, tuzdyks + 2);
        assert_eq!(a[21] as usize, tuzdyks + NET_TUZDYK_PLACES + 3);
        assert!(a.iter().all(|&i| (i as usize) < TOGYZ_NET_INPUTS));
        let start = Togyz::start(&TogyzRules::default());
        let n = TogyzEval::net_inputs(&start, &mut out).unwrap();
        assert_eq!(out[n - 1] as usize, TOGYZ_NET_INPUTS - 1, "no tuzdyk");
        let small = Togyz::start(&TogyzRules::bestemshe());
        assert_eq!(TogyzEval::net_inputs(&small, &mut out), None);
    }

    /// `pos` seen by the other player: the rows swapped, the kazans and
    /// tuzdyks with them, and the other side to move.
    fn mirror(pos: &Togyz) -> Togyz {
        let m = pos.m();
        let mut mirror = *pos;
        mirror.cells[..m].copy_from_slice(&pos.cells[m..2 * m]);
        mirror.cells[m..2 * m].copy_from_slice(&pos.cells[..m]);
        mirror.kazans = [pos.kazans[1], pos.kazans[0]];
        let flip = |t: u8| {
            if t == NONE {
                NONE
            } else {
                (t as usize + m) as u8 % (2 * m) as u8
            }
        };
        mirror.tuzdyks = [flip(pos.tuzdyks[1]), flip(pos.tuzdyks[0])];
        mirror.side = pos.side.other();
        mirror
    }

    /// The network sees only the side to move's view: a position and its
    /// mirror with the other side to move have the same inputs and value,
    /// and every input is in its own place's range.
    #[test]
    fn the_network_does_not_depend_on_the_colour_to_move() {
        let (mut a, mut b) = (
            [0; crate::game::MAX_NET_ACTIVE],
            [0; crate::game::MAX_NET_ACTIVE],
        );
        let mut tuzdyks = 0;
        for pos in random_positions(&TogyzRules::default(), 3_000) {
            let other = mirror(&pos);
            let n = TogyzEval::net_inputs(&pos, &mut a).unwrap();
            assert_eq!(TogyzEval::net_inputs(&other, &mut b), Some(n));
            assert_eq!(a, b, "{}", pos.to_notation());
            assert_eq!(
                TogyzEval::Net.evaluate(&pos),
                TogyzEval::Net.evaluate(&other)
            );
            for (k, &i) in a[..NET_OTAUS].iter().enumerate() {
                assert_eq!(i as usize / NET_OTAU_COUNTS, k);
            }
            tuzdyks += pos.tuzdyk(Side::South).is_some() as usize;
        }
        assert!(tuzdyks > 0, "the random games made no tuzdyk");
    }

    /// On another board than 9 otaus of 9 the network is not used: the
    /// default is the classic evaluation there.
    #[test]
    fn other_boards_are_evaluated_by_the_classic_evaluation() {
        let mut out = [0; crate::game::MAX_NET_ACTIVE];
        for pos in random_positions(&TogyzRules::bestemshe(), 300) {
            assert_eq!(TogyzEval::net_inputs(&pos, &mut out), None);
            assert_eq!(
                TogyzEval::Default.evaluate(&pos),
                TogyzEval::Classic.evaluate(&pos)
            );
        }
        let start = Togyz::start(&TogyzRules::default());
        assert_eq!(
            TogyzEval::Default.evaluate(&start),
            TogyzEval::Net.evaluate(&start)
        );
        assert_eq!(TogyzEval::Net.terms(&start)[0].0, "network");
    }
}
