//! One test per rule of `shared/rules/bao.md`, named after the rule, each on
//! a small hand-built position. Boards are written b8..b1 / a8..a1 / A1..A8 /
//! B1..B8 (top to bottom as seen from above, South at the bottom).

use std::collections::HashMap;

use kete::game::{Game, GameResult, Side};
use kete::variants::Variant;
use kete::variants::bao::{Bao, BaoMove, BaoRules, Refusal};

mod common;
use common::bao::{Z, legal, play, pos, rows, set, token};

fn seeds(p: &Bao) -> u32 {
    [Side::South, Side::North]
        .iter()
        .map(|&s| p.loop_of(s).iter().map(|&v| v as u32).sum::<u32>() + p.hand(s) as u32)
        .sum()
}

// ---- Board and start --------------------------------------------------------

#[test]
fn board_is_four_rows_of_eight_with_64_seeds_and_no_stores() {
    for rules in [BaoRules::kiswahili(), BaoRules::kujifunza()] {
        let p = Bao::start(&rules);
        assert_eq!(seeds(&p), 64);
        assert_eq!(Bao::from_notation(&rules, &p.to_notation()).unwrap(), p);
    }
}

#[test]
fn front_pit_i_faces_the_opponents_front_pit_9_minus_i() {
    // Namua: the seed into A3 captures a6 (3), not any other pit.
    let p = pos(
        [Z, [0, 0, 3, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0], Z],
        (5, 5),
        "LL",
        "S",
    );
    // a6 faces A3, a5 faces A4 (empty): only A3 captures; central, so both kichwas.
    assert_eq!(legal(&p), set(&["A3<", "A3>"]));
    // A3< : 3 seeds from A1: A1, A2, A3 (2 -> 3 occupied, faces a6 now empty): relay 3 -> A4, A5, A6.
    assert_eq!(rows(&play(&p, "A3<"))[2], [1, 1, 0, 1, 1, 1, 0, 0]);
}

#[test]
fn kiswahili_start_nyumba_6_two_pits_of_2_and_22_in_hand() {
    let p = Bao::start(&BaoRules::kiswahili());
    assert_eq!(
        rows(&p),
        [Z, [0, 2, 2, 6, 0, 0, 0, 0], [0, 0, 0, 0, 6, 2, 2, 0], Z]
    );
    assert_eq!((p.hand(Side::South), p.hand(Side::North)), (22, 22));
    assert_eq!(p.side_to_move(), Side::South);
    assert!(p.nyumba_functional(Side::South) && p.nyumba_functional(Side::North));
    // No capture (a3, a2 face A6, A7 and are empty); the nyumba may not take
    // the seed: takasa from A6 or A7 either way.
    assert_eq!(legal(&p), set(&["A6<", "A6>", "A7<", "A7>"]));
}

#[test]
fn kujifunza_start_two_in_every_pit_mtaji_rules_from_the_first_move() {
    let p = Bao::start(&BaoRules::kujifunza());
    assert_eq!(rows(&p), [[2; 8]; 4]);
    assert_eq!(p.hand(Side::South), 0);
    assert!(!p.nyumba_owned(Side::South));
    // Captures are compulsory; 2-seed pits whose first lap ends on an occupied
    // front pit facing seeds: every front or back pit that reaches the front row.
    let l = legal(&p);
    assert_eq!(l.len(), 16);
    assert!(l.iter().all(|m| !m.ends_with('+')));
}

// ---- General rules ------------------------------------------------------------

#[test]
fn a_player_whose_front_row_is_empty_has_lost_even_mid_move() {
    // South's capture of a5 empties North's front row in the middle of the
    // move: the captured seeds are sown (A1..A3) and the game ends at once.
    let p = pos(
        [Z, [0, 0, 0, 3, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0], Z],
        (5, 5),
        "LL",
        "S",
    );
    let q = play(&p, "A4<");
    assert_eq!(rows(&q)[2], [1, 1, 1, 2, 0, 0, 0, 0]);
    assert_eq!(q.outcome().unwrap().result, GameResult::P1Win);
    assert_eq!(q.outcome().unwrap().seeds, None); // never counted: no draws
}

#[test]
fn a_sowing_never_changes_direction_and_stays_on_the_own_loop() {
    // Mtaji takasa A7 (5) clockwise: A8, then round the corner B8, B7, B6,
    // B5 (empty): stop. North's rows are untouched.
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 5, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    let q = play(&p, "A7>");
    assert_eq!(
        rows(&q),
        [
            Z,
            [1, 0, 0, 0, 0, 0, 0, 0],
            [1, 0, 0, 0, 0, 0, 0, 1],
            [0, 0, 0, 0, 1, 1, 1, 1]
        ]
    );
}

#[test]
fn relay_takes_up_an_occupied_pit_and_sows_on_in_the_same_direction() {
    // A4 (2) clockwise: A5, A6 (held 1 -> 2, faces a3 empty): relay A6 (2):
    // A7, A8 (empty): stop.
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 2, 0, 1, 0, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(rows(&play(&p, "A4>"))[2], [1, 0, 0, 0, 1, 0, 1, 1]);
}

#[test]
fn capture_sows_the_captured_seeds_from_a_kichwa_toward_the_centre() {
    // Mtaji: A1 (2) clockwise ends on A3 (1 -> 2) facing a6 (4): captured.
    // The lap was clockwise, so the 4 seeds enter at the left kichwa A1
    // (empty now): A1, A2, A3, A4 — the last lands in A4 (empty): stop.
    let p = pos(
        [Z, [1, 0, 4, 0, 0, 0, 0, 1], [2, 0, 1, 0, 0, 0, 0, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A1>"]));
    let q = play(&p, "A1>");
    assert_eq!(
        rows(&q),
        [Z, [1, 0, 0, 0, 0, 0, 0, 1], [1, 2, 3, 1, 0, 0, 0, 0], Z]
    );
}

#[test]
fn capture_at_a_kimbi_enters_at_that_sides_kichwa_reversing_direction() {
    // V6.5 reduced: A4 (2) anticlockwise: A3, A2 (1 -> 2) facing a7 (1):
    // a kimbi capture, so the seed enters at A1 and the move now runs
    // clockwise; A1 was empty: stop.
    let p = pos(
        [Z, [0, 1, 0, 0, 0, 0, 0, 1], [0, 1, 0, 2, 0, 0, 0, 1], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(rows(&play(&p, "A4<"))[2], [1, 2, 1, 0, 0, 0, 0, 1]);
}

#[test]
fn central_first_namua_capture_chooses_the_kichwa_later_ones_keep_direction() {
    // Namua: A4 faces a5 (2): central, so A4< (left kichwa) and A4> (right).
    // A4<: 2 seeds A1, A2 (empty): stop. A4>: A8, A7 (empty): stop.
    let p = pos(
        [Z, [0, 0, 0, 2, 0, 0, 0, 1], [1, 0, 0, 1, 0, 0, 0, 0], Z],
        (3, 3),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A4<", "A4>"]));
    assert_eq!(rows(&play(&p, "A4<"))[2], [2, 1, 0, 2, 0, 0, 0, 0]);
    assert_eq!(rows(&play(&p, "A4>"))[2], [1, 0, 0, 2, 0, 0, 1, 1]);
    // A later capture keeps the direction: AP-M4 (bao_vectors.rs) chains
    // A5> (anticlockwise from A8) into A6, whose capture enters at A8 again.
}

#[test]
fn a_move_that_does_not_start_with_a_capture_captures_nothing() {
    // Mtaji: the only 2+ pit is A1. Clockwise its lap ends on A3 (1 -> 2)
    // facing the empty a6: no capture, so the whole move is a takasa. The
    // relay from A3 (2) ends on A5 (1 -> 2) facing a4 = 3, which is NOT
    // captured: A5 (2) is relayed on to A6, A7 (empty): stop.
    let a = [0, 0, 0, 0, 3, 0, 0, 0];
    let p = pos([Z, a, [2, 0, 1, 0, 1, 0, 0, 0], Z], (0, 0), "LL", "S");
    assert_eq!(legal(&p), set(&["A1<", "A1>"]));
    let q = play(&p, "A1>");
    assert_eq!(rows(&q), [Z, a, [0, 1, 0, 1, 0, 1, 1, 0], Z]);
}

#[test]
fn captures_are_compulsory() {
    // Namua: A2 faces a7 (1): the seed must go there, not into the bigger A5.
    let p = pos(
        [Z, [0, 1, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 4, 0, 0, 0], Z],
        (5, 5),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A2<"]));
}

/// An independent, naive replay of a mtaji takasa (no captures, no nyumba,
/// no takasia) that remembers every lap-end state: `Some((lap, period))` if
/// a state repeats, `None` if the move ends.
fn naive_takasa_cycle(row: [u8; 16], start: usize, cw: bool) -> Option<(usize, usize)> {
    let mut b = row;
    let mut at = start;
    let step = |i: usize| if cw { (i + 1) % 16 } else { (i + 15) % 16 };
    let mut seen = HashMap::new();
    for lap in 1.. {
        let n = b[at];
        b[at] = 0;
        for _ in 0..n {
            at = step(at);
            b[at] += 1;
        }
        if b[at] == 1 {
            return None;
        }
        assert!(b[..8].iter().any(|&v| v > 0), "front row emptied");
        if let Some(first) = seen.insert((b, at), lap) {
            return Some((first, lap - first));
        }
    }
    unreachable!()
}

#[test]
fn never_ending_relay_move_is_illegal_and_a_player_with_only_such_moves_loses() {
    // Mtaji, South to move; his only pit with 2+ seeds is A2 (11). Neither
    // direction captures (clockwise the lap ends in B3, anticlockwise on A7
    // facing the empty a2), so both are takasa moves, and both relay forever:
    // the naive replay below finds a repeated lap-end state for each.
    let r = [
        [0, 1, 2, 0, 1, 1, 0, 1],
        [0, 0, 0, 2, 0, 0, 0, 0],
        [1, 11, 1, 0, 1, 0, 1, 0],
        [0, 1, 0, 1, 0, 1, 0, 1],
    ];
    let p = pos(r, (0, 0), "LL", "S");
    let south = p.loop_of(Side::South);
    for cw in [true, false] {
        assert!(naive_takasa_cycle(south, 1, cw).is_some(), "cw {cw}");
        let mv = BaoMove {
            pit: 1,
            cw,
            safari: false,
        };
        assert_eq!(p.run(mv).unwrap_err(), Refusal::NeverEnds);
    }
    // No finite move: South has no legal move and loses.
    assert_eq!(legal(&p), Vec::<String>::new());
    assert_eq!(p.outcome().unwrap().result, GameResult::P2Win);
    assert!(p.parse_move("A2>").is_err());
}

/// The position token of Bao la Kujifunza with `south` and `north` as
/// loops (front A1..A8 then back B8..B1, as `Bao::loop_of`) and `side` to
/// move, in the mtaji stage after its first capture.
fn kujifunza_loops(south: [u8; 16], north: [u8; 16], side: &str) -> Bao {
    let front = |l: &[u8; 16]| -> [u8; 8] { l[..8].try_into().unwrap() };
    let back = |l: &[u8; 16]| -> [u8; 8] {
        let mut b = [0; 8];
        for n in 1..=8 {
            b[n - 1] = l[16 - n];
        }
        b
    };
    let rev = |mut r: [u8; 8]| {
        r.reverse();
        r
    };
    let r = [
        rev(back(&north)),
        rev(front(&north)),
        front(&south),
        back(&south),
    ];
    let t = token(r, (0, 0), "LL", side, "x").replace("-x-0", "-x-1");
    Bao::from_notation(&BaoRules::kujifunza(), &t).unwrap()
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds: run with --release")]
fn never_ending_moves_are_recognised_exactly_even_when_the_cycle_is_63_million_laps_long() {
    // Kujifunza, 9 plies from the start, North to move. a3< is a takasa (it
    // ends its first lap in the back row), and its relay runs into a cycle
    // of 63,085,936 laps (measured with Brent's detector alone, which needed
    // 130 million laps to see the repeat). It is still recognised, exactly.
    // Seen from the pit being sown from, the cycle comes back rotated after
    // a sixteenth of that (3.9 million laps), which already settles it.
    let rules = BaoRules::kujifunza();
    let at = |t: &str| Bao::from_notation(&rules, t).unwrap();
    let a3 = BaoMove {
        pit: 2,
        cw: false,
        safari: false,
    };
    let p = at("6,0,6,0,6,2,1,2/3,0,5,0,5,2,11,1/1,0,0,0,0,0,0,0/3,0,1,4,1,2,2,0-0-0-LL-N-x-1");
    assert_eq!(p.format_move(a3), "a3<");
    let (verdict, laps) = p.run_counting(a3);
    assert_eq!(verdict.unwrap_err(), Refusal::NeverEnds);
    assert!(
        laps > 63_085_936 / 16 && laps < 63_085_936 / 8,
        "{laps} laps"
    );
    // A takasa never looks at the opponent's row: the same move with other
    // South pits joins the same cycle, which the engine now knows.
    let q = at("6,0,6,0,6,2,1,2/3,0,5,0,5,2,11,1/2,1,1,1,0,0,0,0/0,4,1,0,3,0,0,1-0-0-LL-N-x-1");
    let (verdict, laps) = q.run_counting(a3);
    assert_eq!(verdict.unwrap_err(), Refusal::NeverEnds);
    assert!(laps < 200_000, "{laps} laps");
    // And a position whose move a6> runs into the mirror image of that
    // cycle (left and right swapped) is known at once too.
    let m = at("2,1,2,6,0,6,0,6/1,11,2,5,0,5,0,3/0,0,0,0,0,0,0,1/1,1,1,4,0,0,3,3-0-0-LL-N-x-1");
    let a6 = BaoMove {
        pit: 5,
        cw: true,
        safari: false,
    };
    assert_eq!(m.format_move(a6), "a6>");
    let (verdict, laps) = m.run_counting(a6);
    assert_eq!(verdict.unwrap_err(), Refusal::NeverEnds);
    assert!(laps < 200_000, "{laps} laps");
    // The other takasa moves of the first position end and stay legal.
    assert_eq!(
        legal(&p),
        set(&[
            "a2<", "a2>", "a3>", "a4<", "a4>", "a6<", "a6>", "a8<", "a8>"
        ])
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds: run with --release")]
fn never_ending_verdicts_agree_with_a_naive_replay_on_random_loops() {
    // Mtaji takasa moves of random loops, the opponent's front row empty so
    // that nothing is captured: the naive replay (a table of every lap-end
    // state) and the engine (Brent, the fast loop, marks, mirror images and
    // the table of doomed states, which fills up as the test goes) must give
    // the same verdict on every move. A lap that empties the front row ends
    // the naive replay; the engine refuses such a takasa (D9) instead.
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
        // Seeds crowded into the first pits of the loop make cycles common.
        let total = 6 + next(40) as usize;
        let spread = 1 + next(16);
        let mut row = [0u8; 16];
        for _ in 0..total {
            let i = if next(2) == 0 { next(spread) } else { next(16) };
            row[i as usize] += 1;
        }
        if row[..8].iter().all(|&v| v == 0) {
            continue;
        }
        for pit in 0..16u8 {
            if row[pit as usize] < 2 {
                continue;
            }
            for cw in [true, false] {
                let Some(naive) = naive_takasa_cycle_or_empty(row, pit as usize, cw, 300_000)
                else {
                    unknown += 1;
                    continue;
                };
                // The opponent keeps his seeds in one back pit, a different
                // one each time; and the mirror image must agree too.
                let mut them = [0u8; 16];
                them[8 + next(8) as usize] = (64 - total) as u8;
                let mut mirror = [0u8; 16];
                for (i, &v) in row.iter().enumerate() {
                    mirror[(7 + 16 - i) % 16] = v;
                }
                let cases = [
                    (row, pit, cw),
                    (mirror, ((7 + 16 - pit as usize) % 16) as u8, !cw),
                ];
                for (loop_, pit, cw) in cases {
                    let p = kujifunza_loops(loop_, them, "S");
                    let mv = BaoMove {
                        pit,
                        cw,
                        safari: false,
                    };
                    let engine = p.run(mv).err() == Some(Refusal::NeverEnds);
                    assert_eq!(engine, naive, "{} {}", p.to_notation(), p.format_move(mv));
                }
                never += naive as u32;
                ends += !naive as u32;
            }
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

/// [`naive_takasa_cycle`] that also ends when the front row is empty:
/// `Some(true)` if a state repeats, `Some(false)` if the move ends, `None`
/// if neither within `limit` laps (the test then has no verdict to compare).
fn naive_takasa_cycle_or_empty(
    row: [u8; 16],
    start: usize,
    cw: bool,
    limit: usize,
) -> Option<bool> {
    let mut b = row;
    let mut at = start;
    let step = |i: usize| if cw { (i + 1) % 16 } else { (i + 15) % 16 };
    let mut seen = std::collections::HashSet::new();
    for _ in 0..limit {
        let n = b[at];
        b[at] = 0;
        for _ in 0..n {
            at = step(at);
            b[at] += 1;
        }
        if b[at] == 1 || b[..8].iter().all(|&v| v == 0) {
            return Some(false);
        }
        if !seen.insert((b, at)) {
            return Some(true);
        }
    }
    None
}

// ---- Namua stage ---------------------------------------------------------------

#[test]
fn namua_takasa_puts_the_seed_in_an_occupied_front_pit_and_sows_it_all_either_way() {
    // No capture (North's front faces only empty pits). A6 (2 + 1) sown
    // either way: A6> : A7, A8, B8: stop; A6< : A5, A4, A3: stop.
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2, 0, 0], Z],
        (5, 5),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A6<", "A6>"]));
    assert_eq!(rows(&play(&p, "A6>"))[2], [0, 0, 0, 0, 0, 0, 1, 1]);
    assert_eq!(rows(&play(&p, "A6<"))[2], [0, 0, 1, 1, 1, 0, 0, 0]);
    assert_eq!(play(&p, "A6<").hand(Side::South), 4);
}

#[test]
fn functional_nyumba_takes_the_seed_only_when_alone_and_then_pays_the_tax() {
    // A5 (6) and A7 (1): the seed must go to A7 (the singleton is allowed
    // with a functional nyumba).
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 6, 0, 1, 0], Z],
        (5, 5),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A7<", "A7>"]));
    // Alone: the tax, 2 seeds out of 7: A5 = 5, A6, A7 = 1, and the nyumba stays owned.
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 6, 0, 0, 0], Z],
        (5, 5),
        "OO",
        "S",
    );
    let q = play(&p, "A5>");
    assert_eq!(rows(&q)[2], [0, 0, 0, 0, 5, 1, 1, 0]);
    assert!(q.nyumba_owned(Side::South));
}

#[test]
fn without_functional_nyumba_the_seed_avoids_singletons() {
    // A1, A7 are singletons; A4 holds 2 (a1 faces the empty A8: no capture).
    let p = pos(
        [Z, [0, 0, 0, 0, 0, 0, 0, 1], [1, 0, 0, 2, 0, 0, 1, 0], Z],
        (5, 5),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A4<", "A4>"]));
}

#[test]
fn takasa_may_never_empty_the_own_front_row_lone_kichwa_sows_to_centre() {
    // Namua, the lone front pit is A8 (1 + 1): clockwise the 2 seeds go to
    // B8, B7 and the front row would be empty: only A8< .
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 1], Z],
        (5, 5),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A8<"]));
    let mv = BaoMove {
        pit: 7,
        cw: true,
        safari: false,
    };
    assert_eq!(p.run(mv).unwrap_err(), Refusal::EmptiesFrontRow);
}

#[test]
fn takasa_may_never_empty_the_own_front_row_not_even_while_a_lone_kichwa_lap_wraps_round() {
    // Mtaji, North to move without a capture; a1 (9 seeds) is North's only
    // occupied front pit. Sown toward the back row (a1<) its 9 seeds fill
    // b1..b8 and the ninth wraps round to a8: the lap ends in the front row,
    // but the row was empty from the first seed to the ninth. Only a1> .
    let rules = BaoRules::kujifunza();
    let north = "2,2,2,2,2,2,0,1/0,0,0,0,0,0,0,9/0,5,1,4,11,3,1,1/1,0,2,5,1,2,0,5-0-0-LL-N-x-1";
    // The same board seen from the other side: South to move, A1 lone.
    let south = "5,0,2,1,5,2,0,1/1,1,3,11,4,1,5,0/9,0,0,0,0,0,0,0/1,0,2,2,2,2,2,2-0-0-LL-S-x-1";
    for (token, only, back) in [(north, "a1>", "a1<"), (south, "A1>", "A1<")] {
        let p = Bao::from_notation(&rules, token).unwrap();
        assert_eq!(legal(&p), set(&[only]), "{token}");
        let mv = BaoMove {
            pit: 0,
            cw: false,
            safari: false,
        };
        assert_eq!(p.format_move(mv), back);
        assert_eq!(p.run(mv).unwrap_err(), Refusal::EmptiesFrontRow);
        assert!(p.parse_move(back).is_err());
        // Under kichwa-only the same lap is refused by Donkers 3.5b.
        let mut lenient = rules;
        assert!(kete::options::set(&mut lenient, "FrontRow", "kichwa-only").unwrap());
        let p = Bao::from_notation(&lenient, token).unwrap();
        assert_eq!(legal(&p), set(&[only]), "{token} kichwa-only");
    }
}

#[test]
fn namua_takasa_lap_ending_in_the_functional_nyumba_stops() {
    // A3 (1 + 1) clockwise: A4, A5 (6 -> 7, functional): the move ends there.
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 6, 0, 0, 0], Z],
        (5, 5),
        "OO",
        "S",
    );
    let q = play(&p, "A3>");
    assert_eq!(rows(&q)[2], [0, 0, 0, 1, 7, 0, 0, 0]);
    assert!(q.nyumba_functional(Side::South));
}

#[test]
fn namua_capture_ending_in_the_functional_nyumba_offers_stop_or_safari() {
    // The seed into A8 takes a1 (4): entry at A8 anticlockwise: A8, A7, A6,
    // A5 (6 -> 7; faces a4, empty): stop, or safari: 7 seeds A4..A1, B1..B3.
    // (a8 keeps North's front row from emptying, which would end the game.)
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 4], [0, 0, 0, 0, 6, 0, 0, 1], Z],
        (5, 5),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A8>", "A8>+"]));
    let stop = play(&p, "A8>");
    assert_eq!(rows(&stop)[2], [0, 0, 0, 0, 7, 1, 1, 3]);
    assert!(stop.nyumba_owned(Side::South));
    let safari = play(&p, "A8>+");
    assert_eq!(rows(&safari)[2], [1, 1, 1, 1, 0, 1, 1, 3]);
    assert_eq!(rows(&safari)[3], [1, 1, 1, 0, 0, 0, 0, 0]);
    assert!(!safari.nyumba_owned(Side::South));
}

#[test]
fn nyumba_is_lost_when_emptied_or_captured_dormant_below_6_and_revives() {
    // Dormant (5): not functional. A4 (2 + 1) clockwise: A5 (-> 6), A6, A7
    // (empty): stop. The nyumba holds 6 again: functional once more.
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 2, 5, 0, 0, 0], Z],
        (5, 5),
        "OO",
        "S",
    );
    assert!(!p.nyumba_functional(Side::South));
    let q = play(&p, "A4>");
    assert_eq!(rows(&q)[2], [0, 0, 0, 0, 6, 1, 1, 0]);
    assert!(q.nyumba_functional(Side::South));
    // Under Dormant=lost a nyumba left below 6 is lost instead.
    let mut lost = BaoRules::kiswahili();
    assert!(kete::options::set(&mut lost, "Dormant", "lost").unwrap());
    let p = Bao::from_notation(
        &lost,
        &token(
            [Z, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 2, 5, 0, 0, 0], Z],
            (5, 5),
            "OO",
            "S",
            "x",
        ),
    )
    .unwrap();
    assert!(!play(&p, "A4<").nyumba_owned(Side::South));
    // Emptied: sowing from a dormant nyumba loses it (AP-R9 position).
    let p = pos(
        [Z, [0, 0, 0, 6, 0, 0, 0, 0], [0, 0, 0, 0, 5, 1, 0, 0], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert!(!play(&p, "A5<").nyumba_owned(Side::South));
}

// ---- Mtaji stage ------------------------------------------------------------------

#[test]
fn mtaji_only_pits_with_two_or_more_seeds_are_played() {
    let p = pos(
        [
            Z,
            [1, 0, 0, 0, 0, 0, 0, 0],
            [1, 1, 0, 0, 0, 0, 1, 0],
            [0, 0, 0, 1, 0, 0, 0, 0],
        ],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), Vec::<String>::new());
    assert_eq!(p.outcome().unwrap().result, GameResult::P2Win);
}

#[test]
fn mtaji_capture_may_start_from_the_back_row_with_2_to_15_seeds() {
    // B1 (2) anticlockwise (B1 sown toward B2 is "toward his right": >):
    // B2, B3: no. Clockwise (<): A1, A2 (1 -> 2, faces a7 = 2): capture.
    // (a1, facing the empty A8, keeps North's front row from emptying.)
    let p = pos(
        [
            Z,
            [0, 2, 0, 0, 0, 0, 0, 1],
            [0, 1, 0, 0, 0, 0, 0, 0],
            [2, 0, 0, 0, 0, 0, 0, 0],
        ],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["B1<"]));
    // Kimbi capture at A2: enter at A1 clockwise: A1 (1 -> 2), A2 (2 -> 3,
    // faces a7 now empty) -> relay 3: A3, A4, A5: stop.
    let q = play(&p, "B1<");
    assert_eq!(rows(&q)[2], [2, 0, 1, 1, 1, 0, 0, 0]);
}

#[test]
fn mtaji_takasa_from_the_front_row_back_row_only_if_front_is_singletons() {
    // Front: A3 (2) and singletons; back B5 (3): only A3 may be played.
    let p = pos(
        [
            Z,
            [0, 0, 0, 0, 0, 0, 0, 1],
            [1, 0, 2, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 3, 0, 0, 0],
        ],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A3<", "A3>"]));
}

#[test]
fn first_mtaji_capture_ends_the_nyumba_privileges_of_both_players() {
    // Mtaji, both nyumba owned and functional. South captures (A1> as in
    // V4.3, North's nyumba is a5 = 6 and untouched): afterwards neither
    // nyumba is owned and the token says the first capture was made.
    let p = pos(
        [Z, [0, 0, 5, 0, 6, 1, 0, 0], [2, 0, 1, 0, 6, 0, 0, 0], Z],
        (0, 0),
        "OO",
        "S",
    );
    let q = play(&p, "A1>");
    assert!(q.mtaji_captured());
    assert!(!q.nyumba_owned(Side::North) && !q.nyumba_owned(Side::South));
    assert!(q.to_notation().ends_with("-LL-N-x-1"));
}

#[test]
fn takasia_blocks_the_single_threatened_pit_for_one_move() {
    // V4.10: after South's takasa A3>, a2 is the only North pit South could
    // take; North may not start from it; the block lasts one move.
    let p = pos(
        [Z, [0, 0, 2, 0, 0, 0, 2, 0], [0, 0, 3, 2, 0, 0, 1, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    let q = play(&p, "A3>");
    assert_eq!(q.takasia(), Some(1));
    assert!(q.parse_move("a2>").is_err());
    let r = play(&q, "a6>");
    assert_eq!(r.takasia(), None);
    // Not in Kujifunza by default (D5).
    let kuj = Bao::from_notation(
        &BaoRules::kujifunza(),
        &token(
            [Z, [0, 0, 2, 0, 0, 0, 2, 0], [0, 0, 3, 2, 0, 0, 1, 0], Z],
            (0, 0),
            "LL",
            "S",
            "x",
        ),
    )
    .unwrap();
    assert_eq!(play(&kuj, "A3>").takasia(), None);
}

// ---- Notation -------------------------------------------------------------------

#[test]
fn move_notation_full_form_out_decorations_and_omissions_in() {
    let p = Bao::start(&BaoRules::kiswahili());
    let m = p.parse_move("A6>*").unwrap();
    assert_eq!(p.format_move(m), "A6>");
    assert_eq!(p.parse_move("a6>#"), Ok(m));
    // Namua: the row may be left out.
    assert_eq!(p.parse_move("6>"), Ok(m));
    // Both directions are legal: leaving it out is ambiguous.
    assert!(
        p.parse_move("A6")
            .unwrap_err()
            .to_string()
            .contains("ambiguous")
    );
    assert!(p.parse_move("A5>").is_err());
    assert!(p.parse_move("Z9").is_err());
}

#[test]
fn position_token_round_trips_and_errors_name_the_problem() {
    let t = "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0-22-22-OO-S-x-0";
    let p = Bao::from_notation(&BaoRules::kiswahili(), t).unwrap();
    assert_eq!(p, Bao::start(&BaoRules::kiswahili()));
    assert_eq!(p.to_notation(), t);
    let bad = |t: &str| Bao::from_notation(&BaoRules::kiswahili(), t).unwrap_err().0;
    assert!(bad("0,0").contains("fields"));
    assert!(bad(&t.replace("0,2,2,6", "0,2,x,6")).contains("front row a8..a1"));
    assert!(bad(&t.replace("-OO-", "-OX-")).contains("nyumba"));
    assert!(bad(&t.replace("-S-x-", "-Q-x-")).contains("side to move"));
    assert!(bad(&t.replace("-S-x-", "-S-a4-")).contains("takasia"));
    assert!(bad(&t.replace("-x-0", "-x-1")).contains("first mtaji capture"));
    assert!(
        Bao::from_notation(&BaoRules::kujifunza(), t)
            .unwrap_err()
            .0
            .contains("Kujifunza")
    );
}

#[test]
fn variants_and_rule_options_are_registered() {
    let mut v = Variant::by_name("bao-kiswahili").unwrap();
    assert_eq!(v.name(), "bao-kiswahili");
    v.set_option("MtajiTakasaNyumba", "relay").unwrap();
    assert!(
        v.option_values()
            .contains(&("MtajiTakasaNyumba", "relay".to_string()))
    );
    assert!(
        v.set_option("FrontRow", "sometimes")
            .unwrap_err()
            .contains("never-empty")
    );
    assert_eq!(
        Variant::by_name("bao-kujifunza").unwrap().name(),
        "bao-kujifunza"
    );
    assert_eq!(Variant::by_name("endodoi").unwrap().name(), "endodoi");
}
