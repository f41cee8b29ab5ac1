//! One test per rule of `shared/rules/endodoi.md`, each on a small hand-built
//! position. Positions are written as tokens: South's holes A.. then North's
//! a.. (each from its owner's left), South's and North's captured seeds, the
//! side to move. With the default rules (6 holes, 4 seeds) the total is 48,
//! so seeds not needed on the board sit in the captured counters.

use std::collections::HashMap;

use kete::game::{Game, GameResult, MoveError, Side};
use kete::variants::endodoi::{EnDodoi, EnDodoiRules, Sowing};

fn pos(token: &str) -> EnDodoi {
    EnDodoi::from_notation(&EnDodoiRules::default(), token).unwrap()
}

fn after(token: &str, mv: &str) -> String {
    let p = pos(token);
    let m = p.parse_move(mv).unwrap();
    p.play(m).to_notation()
}

#[test]
fn board_and_start_two_rows_of_m_holes_with_n_seeds_south_first() {
    for pits in 6..=10u8 {
        for seeds in 3..=6u8 {
            let rules = EnDodoiRules { pits, seeds };
            let p = EnDodoi::start(&rules);
            assert_eq!(p.side_to_move(), Side::South);
            assert_eq!(p.board(), vec![seeds; 2 * pits as usize]);
            assert_eq!(p.captured(Side::South) + p.captured(Side::North), 0);
            let back = EnDodoi::from_notation(&rules, &p.to_notation()).unwrap();
            assert_eq!(back, p);
        }
    }
    // Sizes outside the tradition are refused.
    assert!(kete::options::check(&EnDodoiRules { pits: 5, seeds: 4 }).is_err());
    assert!(kete::options::check(&EnDodoiRules { pits: 6, seeds: 7 }).is_err());
}

#[test]
fn sowing_goes_counter_clockwise_through_both_rows_and_does_not_skip_the_origin() {
    // A holds 12 seeds: one each into B..F, a..f, and the 12th back into A
    // itself (emptied when lifted, so the move ends there). A is South's,
    // and the hole facing it, f, now holds 1: South captures 1 + 1 = 2.
    assert_eq!(
        after("12-0-0-0-0-0-0-0-0-0-0-0-36-0-S", "A"),
        "0-1-1-1-1-1-1-1-1-1-1-0-38-0-N"
    );
}

#[test]
fn relay_takes_up_an_occupied_hole_on_either_side_and_sows_on() {
    // E (2) sows F and a; a held 1, so its 2 seeds are taken up (on North's
    // side) and sown into b and c; c was empty: the move ends in North's row
    // and captures nothing.
    assert_eq!(
        after("0-0-0-0-2-0-1-0-0-0-0-0-45-0-S", "E"),
        "0-0-0-0-0-1-0-1-1-0-0-0-45-0-N"
    );
}

#[test]
fn move_ends_in_an_empty_hole_and_captures_only_in_own_row_opposite_seeds() {
    // A (1) -> B, empty: the move ends. B faces e (index 10), which holds 3:
    // South takes 1 + 3 = 4.
    assert_eq!(
        after("1-0-0-0-0-0-0-0-0-0-3-0-44-0-S", "A"),
        "0-0-0-0-0-0-0-0-0-0-0-0-48-0-N"
    );
    // Same, but e is empty: nothing is captured, the seed stays in B.
    assert_eq!(
        after("1-0-0-0-0-0-0-0-0-3-0-0-44-0-S", "A"),
        "0-1-0-0-0-0-0-0-0-3-0-0-44-0-N"
    );
    // Ending in an empty hole of the opponent's row captures nothing, even
    // with seeds opposite: F (1) -> a; a faces F, now empty anyway, and a is
    // not South's.
    assert_eq!(
        after("2-0-0-0-0-1-0-0-0-0-0-0-45-0-S", "F"),
        "2-0-0-0-0-0-1-0-0-0-0-0-45-0-N"
    );
}

/// An independent, naive replay of a relay move that remembers every lap-end
/// state in a table: `Some((first lap of the cycle, period))` if one repeats.
fn naive_cycle(cells: &[u32], start: usize) -> Option<(usize, usize)> {
    let mut b = cells.to_vec();
    let n = b.len();
    let mut at = start;
    let mut seen = HashMap::new();
    for lap in 1.. {
        let s = b[at];
        b[at] = 0;
        for _ in 0..s {
            at = (at + 1) % n;
            b[at] += 1;
        }
        if b[at] == 1 {
            return None;
        }
        if let Some(first) = seen.insert((b.clone(), at), lap) {
            return Some((first, lap - first));
        }
    }
    unreachable!()
}

#[test]
fn never_ending_relay_move_is_recognised_exactly_and_is_illegal() {
    // South A1,C1,E1,F2 / North b1,d2,e1 (9 seeds on the board). Sowing F
    // (index 5): 2 seeds to a, b; b held 1 -> relay... The naive replay
    // finds the state after lap 1 again after lap 73: a cycle of 72 laps that
    // never lands in an empty hole. The engine must say so without a cap.
    let token = "1-0-1-0-1-2-0-1-0-2-1-0-39-0-S";
    let cells = [1, 0, 1, 0, 1, 2, 0, 1, 0, 2, 1, 0];
    assert_eq!(naive_cycle(&cells, 5), Some((1, 72)));
    let p = pos(token);
    assert_eq!(p.sow(5), Sowing::NeverEnds);
    // The other moves end (the naive replay agrees) and stay legal.
    for h in [0, 2, 4] {
        assert_eq!(naive_cycle(&cells, h), None);
        assert!(matches!(p.sow(h as u8), Sowing::Ends(_)));
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves, vec![0, 2, 4]);
    assert!(matches!(p.parse_move("F"), Err(MoveError::Illegal(m)) if m.contains("never ends")));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds: run with --release")]
fn never_ending_verdicts_agree_with_a_naive_replay_on_random_boards() {
    // Random boards of every size: the naive replay (a table of every
    // lap-end state) and the engine (Brent on states up to rotation, marks
    // and the table of doomed states, which fills up as the test goes) must
    // agree on every move. Moves the naive replay cannot settle within its
    // budget are passed over.
    let mut seed = 0x6B65_7465u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let mut never = 0;
    let mut unknown = 0;
    let mut ends = 0;
    for _ in 0..40_000 {
        let pits = 6 + next(5) as usize;
        let seeds = 3 + next(4) as usize;
        let total = 2 * pits * seeds;
        // Few seeds, crowded into the first holes, make cycles common.
        let on_board = 4 + next(4 * pits as u64) as usize;
        let spread = 1 + next(2 * pits as u64);
        let mut cells = vec![0u32; 2 * pits];
        for _ in 0..on_board {
            let i = if next(2) == 0 {
                next(spread)
            } else {
                next(2 * pits as u64)
            };
            cells[i as usize] += 1;
        }
        let fields: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        let token = format!("{}-{}-0-S", fields.join("-"), total - on_board);
        let rules = EnDodoiRules {
            pits: pits as u8,
            seeds: seeds as u8,
        };
        let p = EnDodoi::from_notation(&rules, &token).unwrap();
        // Every hole of the ring, not only South's: the engine plays them
        // all the same way (a North hole as North's move).
        for h in 0..2 * pits {
            if cells[h] == 0 {
                continue;
            }
            let Some(naive) = naive_cycle_within(&cells, h, 300_000) else {
                unknown += 1;
                continue;
            };
            let engine = if h < pits {
                p.sow(h as u8) == Sowing::NeverEnds
            } else {
                let north = token.replace("-S", "-N");
                let q = EnDodoi::from_notation(&rules, &north).unwrap();
                q.sow((h - pits) as u8) == Sowing::NeverEnds
            };
            assert_eq!(engine, naive, "{token} hole {h}");
            never += naive as u32;
            ends += !naive as u32;
        }
    }
    assert!(
        never > 20,
        "only {never} never-ending moves tried ({ends} end)"
    );
    assert!(
        unknown < 100,
        "{unknown} moves the naive replay could not settle"
    );
}

/// [`naive_cycle`] with a budget: `Some(true)` if a state repeats within
/// `limit` laps, `Some(false)` if the move ends, `None` if neither.
fn naive_cycle_within(cells: &[u32], start: usize, limit: usize) -> Option<bool> {
    let mut b = cells.to_vec();
    let n = b.len();
    let mut at = start;
    let mut seen = std::collections::HashSet::new();
    for _ in 0..limit {
        let s = b[at];
        b[at] = 0;
        for _ in 0..s {
            at = (at + 1) % n;
            b[at] += 1;
        }
        if b[at] == 1 {
            return Some(false);
        }
        if !seen.insert((b.clone(), at)) {
            return Some(true);
        }
    }
    None
}

#[test]
fn a_player_with_an_empty_row_cannot_move_and_the_rest_goes_to_the_last_mover() {
    // North to move with an empty row: South moved last and takes the 5
    // seeds on his side: South 20 + 5 = 25 against North 23.
    let p = pos("1-0-2-0-2-0-0-0-0-0-0-0-20-23-N");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(moves.is_empty());
    let out = p.outcome().unwrap();
    assert_eq!(out.seeds, Some((25, 23)));
    assert_eq!(out.result, GameResult::P1Win);
}

#[test]
fn more_captured_seeds_wins_and_equal_is_a_draw() {
    // South to move, row empty: North moved last and takes his 4: 22 + 4 = 26
    // against 22: North wins. With 20 + 4 = 24 against 24: a draw.
    let p = pos("0-0-0-0-0-0-1-1-1-1-0-0-22-22-S");
    assert_eq!(p.outcome().unwrap().result, GameResult::P2Win);
    let p = pos("0-0-0-0-0-0-1-1-1-1-0-0-24-20-S");
    assert_eq!(p.outcome().unwrap().result, GameResult::Draw);
}

#[test]
fn notation_south_a_north_lower_case_from_the_owners_left() {
    let p = pos("0-0-0-0-0-0-0-0-1-0-0-0-47-0-N");
    let m = p.parse_move("c").unwrap();
    assert_eq!(m, 2);
    assert_eq!(p.format_move(m), "c");
    // c (1) -> d, empty, North's own; d faces South's C (empty): no capture.
    assert_eq!(p.play(m).to_notation(), "0-0-0-0-0-0-0-0-0-1-0-0-47-0-S");
    // Ten holes a side: the token has 23 fields and the letters run to J.
    let rules = EnDodoiRules { pits: 10, seeds: 3 };
    let p = EnDodoi::start(&rules);
    assert_eq!(p.format_move(p.parse_move("J").unwrap()), "J");
    assert!(EnDodoi::from_notation(&rules, "4-4-4-4-4-4-4-4-4-4-0-0-S").is_err());
    let e =
        EnDodoi::from_notation(&EnDodoiRules::default(), "4-4-4-4-4-4-4-4-4-4-0-0-S").unwrap_err();
    assert!(e.0.contains("holes"), "{e}");
}
