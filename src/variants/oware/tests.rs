//! Oware's own unit tests (its rules have theirs in `tests/oware_rules.rs`).

use super::*;
use crate::game::MAX_NET_ACTIVE;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

#[test]
fn split_solves_take_a_database_of_every_seed_up_to_6x2() {
    let rules = |houses, rules, repetition| OwareRules {
        houses,
        seeds: 2,
        rules,
        repetition,
    };
    for set in [RuleSet::Awari, RuleSet::Abapa] {
        let split = rules(6, set, Repetition::Split);
        // 6x2's 24 seeds (C(36, 12) boards) and the Awari test
        // position's 16; one seed more than 6x2 is too many.
        assert_eq!(Oware::default_db_seeds(&split, 24), Some(24));
        assert_eq!(Oware::default_db_seeds(&split, 16), Some(16));
        assert_eq!(Oware::default_db_seeds(&split, 25), None);
        assert_eq!(
            Oware::default_db_seeds(&rules(5, set, Repetition::Split), 30),
            Some(30)
        );
        assert_eq!(
            Oware::default_db_seeds(&rules(4, set, Repetition::Split), 24),
            Some(24)
        );
        // A database answers another question under own-side.
        assert_eq!(
            Oware::default_db_seeds(&rules(6, set, Repetition::OwnSide), 8),
            None
        );
    }
}

/// The backward moves against the forward ones: every board of a few
/// seeds, under both rule sets, has as predecessors exactly the boards
/// whose legal moves that bank nothing reach it.
#[test]
fn predecessors_are_the_moves_played_backward() {
    use crate::game::Indexer;
    use std::collections::BTreeMap;
    for (houses, most) in [(3usize, 9usize), (6, 6)] {
        let ix = Indexer::new(2 * houses, most);
        for rules in [RuleSet::Awari, RuleSet::Abapa] {
            let r = OwareRules {
                houses: houses as u8,
                rules,
                ..OwareRules::default()
            };
            for n in 1..=most {
                let mut forward: BTreeMap<Vec<u8>, Vec<Vec<u8>>> = BTreeMap::new();
                let mut board = vec![0u8; 2 * houses];
                let mut moves = Vec::new();
                let mut b = [0u8; crate::game::DB_BOARD];
                ix.unrank(n, 0, &mut board);
                for _ in 0..ix.count(n) {
                    let pos = Oware::from_db_board(&r, &board);
                    pos.legal_moves(&mut moves);
                    for &mv in &moves {
                        let child = pos.play(mv);
                        if child.db_board(&mut b) == n {
                            assert_eq!(child.banked(), 0);
                            let q = b[..2 * houses].to_vec();
                            forward.entry(q).or_default().push(board.clone());
                        }
                    }
                    ix.next(&mut board);
                }
                let mut preds = Vec::new();
                ix.unrank(n, 0, &mut board);
                let mut edges = 0;
                for _ in 0..ix.count(n) {
                    Oware::predecessors(&r, &board, &mut preds);
                    let mut got: Vec<Vec<u8>> =
                        preds.iter().map(|p| p[..2 * houses].to_vec()).collect();
                    got.sort();
                    let mut want = forward.remove(&board).unwrap_or_default();
                    want.sort();
                    assert_eq!(got, want, "{rules:?} {houses} houses, board {board:?}");
                    edges += got.len();
                    ix.next(&mut board);
                }
                assert!(edges > 0 || n < 2, "{rules:?} {houses} houses, {n} seeds");
            }
        }
    }
}

/// Positions reached by random play from the start, under both rule sets.
fn random_positions(count: usize) -> Vec<Oware> {
    let mut rng = StdRng::seed_from_u64(5);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for rules in [RuleSet::Awari, RuleSet::Abapa] {
        let r = OwareRules {
            rules,
            ..OwareRules::default()
        };
        while out.len() < count {
            let mut pos = Oware::start(&r);
            // Random play may cycle for ever: games are cut at 200 plies.
            for _ in 0..200 {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                out.push(pos);
                pos = pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    out
}

/// The capture feature is worked out from the houses a sowing reaches;
/// it must equal the most that sowing each house really takes.
#[test]
fn best_capture_equals_the_largest_sowing_capture() {
    for pos in random_positions(4_000) {
        for side in [Side::South, Side::North] {
            let mut from = pos;
            from.side = side;
            let real = (0..pos.m() as u8)
                .filter(|&i| from.cells[from.row_range(side).start + i as usize] > 0)
                .map(|i| from.sow(i, false).next.store(side) - pos.store(side))
                .max()
                .unwrap_or(0);
            assert_eq!(pos.best_capture(side), real, "{}", pos.to_notation());
        }
    }
}

/// A position and its mirror image with the other side to move have the
/// same features: the evaluation sees only the side to move's view.
#[test]
fn features_do_not_depend_on_the_colour_to_move() {
    let n = OwareEval::FEATURES.len();
    for pos in random_positions(2_000) {
        let m = pos.m();
        let mut mirror = pos;
        mirror.cells[..m].copy_from_slice(&pos.cells[m..2 * m]);
        mirror.cells[m..2 * m].copy_from_slice(&pos.cells[..m]);
        mirror.cells[STORE] = pos.cells[STORE + 1];
        mirror.cells[STORE + 1] = pos.cells[STORE];
        mirror.side = pos.side.other();
        let (mut a, mut b) = (vec![0; n], vec![0; n]);
        let pa = OwareEval::features(&pos, &mut a);
        let pb = OwareEval::features(&mirror, &mut b);
        assert_eq!((pa, a), (pb, b), "{}", pos.to_notation());
        assert_eq!(
            OwareEval::Linear.evaluate(&pos),
            OwareEval::Linear.evaluate(&mirror)
        );
        let (mut a, mut b) = ([0; MAX_NET_ACTIVE], [0; MAX_NET_ACTIVE]);
        let na = OwareEval::net_inputs(&pos, &mut a);
        assert_eq!(na, OwareEval::net_inputs(&mirror, &mut b));
        assert_eq!(a, b, "{}", pos.to_notation());
        assert_eq!(
            OwareEval::Net.evaluate(&pos),
            OwareEval::Net.evaluate(&mirror)
        );
    }
}

/// The network's inputs: one a house and one a store, each in its own
/// range; the network takes only the board it was trained on.
#[test]
fn network_inputs_are_one_a_cell() {
    let mut active = [0; MAX_NET_ACTIVE];
    for pos in random_positions(2_000) {
        assert_eq!(OwareEval::net_inputs(&pos, &mut active), Some(14));
        two_row::assert_one_input_a_cell(&active[..14]);
    }
    // The start: four seeds in every house, empty stores.
    let start = Oware::start(&OwareRules::default());
    assert_eq!(OwareEval::net_inputs(&start, &mut active), Some(14));
    let want: Vec<u16> = (0..12)
        .map(|k| k * two_row::NET_PIT_COUNTS + 4)
        .chain([
            12 * two_row::NET_PIT_COUNTS,
            12 * two_row::NET_PIT_COUNTS + two_row::NET_STORE_COUNTS,
        ])
        .map(|i| i as u16)
        .collect();
    assert_eq!(active[..14], want[..]);
    let five = Oware::start(&OwareRules {
        houses: 5,
        ..OwareRules::default()
    });
    assert_eq!(OwareEval::net_inputs(&five, &mut active), None);
    for e in [OwareEval::Default, OwareEval::Net] {
        assert_eq!(e.evaluate(&five), OwareEval::Linear.evaluate(&five));
    }
}
