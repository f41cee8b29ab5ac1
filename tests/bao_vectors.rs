//! The worked examples of `shared/rules/bao-vectors.md` (§3, §4, §6, §7.1,
//! §7.2, §7.4; the disputed §7.3 under the matching rule option). Boards are
//! written as in the vectors file: rows b8..b1 / a8..a1 / A1..A8 / B1..B8.

use kete::game::{Game, GameResult, Side};
use kete::variants::bao::{Bao, BaoRules, Refusal};

mod common;
use common::bao::{Rows, Z, legal, play, pos, pos_with, rows, set};

fn by_rule(p: &Bao) -> Vec<String> {
    let mut m = Vec::new();
    p.moves_by_rule(&mut m);
    let mut v: Vec<String> = m.iter().map(|&m| p.format_move(m)).collect();
    v.sort();
    v
}

// ---- §3 Game Cabinet diagrams (lead-1) -------------------------------------

#[test]
fn v3_1_namua_capture_single_seed_left_entry() {
    let p = pos(
        [Z, [1, 0, 1, 8, 1, 2, 0, 0], [0, 0, 0, 0, 7, 0, 2, 1], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A5<", "A5>"]));
    let q = play(&p, "A5<");
    assert_eq!(
        rows(&q),
        [Z, [1, 0, 1, 8, 0, 2, 0, 0], [1, 0, 0, 0, 8, 0, 2, 1], Z]
    );
    assert_eq!((q.hand(Side::South), q.side_to_move()), (9, Side::North));
    assert!(q.nyumba_functional(Side::South) && q.nyumba_functional(Side::North));
}

#[test]
fn v3_2_namua_capture_three_seeds_left_and_right_entry() {
    let p = pos(
        [Z, [1, 0, 1, 8, 3, 2, 0, 0], [0, 0, 0, 0, 7, 0, 0, 0], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A5<", "A5>"]));
    let a = [1, 0, 1, 8, 0, 2, 0, 0];
    assert_eq!(rows(&play(&p, "A5<")), [Z, a, [1, 1, 1, 0, 8, 0, 0, 0], Z]);
    assert_eq!(rows(&play(&p, "A5>")), [Z, a, [0, 0, 0, 0, 8, 1, 1, 1], Z]);
}

#[test]
fn v3_3_kichwa_and_kimbi_captures_have_forced_entry_sides() {
    let p = pos(
        [Z, [4, 3, 1, 8, 0, 2, 5, 6], [1, 2, 0, 0, 8, 0, 3, 4], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A1<", "A2<", "A7>", "A8>"]));
    let cases = [
        ("A1<", [0, 3, 1, 8, 0, 2, 5, 6], [3, 3, 1, 1, 8, 0, 3, 4]),
        ("A2<", [4, 0, 1, 8, 0, 2, 5, 6], [2, 4, 1, 0, 8, 0, 3, 4]),
        ("A7>", [4, 3, 1, 8, 0, 2, 0, 6], [1, 2, 0, 1, 9, 1, 5, 5]),
        ("A8>", [4, 3, 1, 8, 0, 2, 5, 0], [1, 2, 1, 1, 9, 1, 4, 6]),
    ];
    for (mv, a, f) in cases {
        assert_eq!(rows(&play(&p, mv)), [Z, a, f, Z], "{mv}");
    }
    // The forced side may be left out on input.
    assert_eq!(p.format_move(p.parse_move("A8").unwrap()), "A8>");
}

#[test]
fn v3_4_kimbi_capture_chain_and_kichwa_capture_with_safari_or_stop() {
    let p = pos(
        [Z, [0, 3, 4, 8, 0, 2, 5, 6], [0, 2, 1, 0, 8, 0, 3, 4], Z],
        (10, 10),
        "OO",
        "S",
    );
    // lead-1 lists the moves before the stop/safari decision; kete lists each
    // safari as a move of its own (A3> also ends in the nyumba: A5 8 -> 9
    // facing the empty a4, so it has its safari twin too).
    let plain: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| !m.ends_with('+'))
        .collect();
    assert_eq!(plain, set(&["A2<", "A3<", "A3>", "A7>", "A8>"]));
    assert!(legal(&p).contains(&"A8>+".to_string()));
    assert_eq!(
        rows(&play(&p, "A2<")),
        [Z, [0, 0, 0, 8, 0, 2, 5, 6], [2, 5, 3, 1, 8, 0, 3, 4], Z]
    );
    let safari = play(&p, "A8>+");
    assert_eq!(
        rows(&safari),
        [
            Z,
            [0, 3, 0, 8, 0, 2, 5, 0],
            [1, 3, 3, 2, 0, 2, 5, 7],
            [1, 1, 1, 1, 1, 1, 0, 0]
        ]
    );
    assert!(!safari.nyumba_owned(Side::South));
    assert_eq!(safari.side_to_move(), Side::North);
    let stop = play(&p, "A8>");
    assert_eq!(
        rows(&stop),
        [Z, [0, 3, 0, 8, 0, 2, 5, 0], [0, 2, 2, 1, 10, 2, 5, 7], Z]
    );
    assert!(stop.nyumba_functional(Side::South));
}

#[test]
fn v3_5_relay_continues_into_the_back_row() {
    let p = pos(
        [Z, [1, 0, 0, 7, 0, 0, 0, 2], [0, 2, 3, 2, 0, 2, 5, 0], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A4<", "A4>"]));
    let q = play(&p, "A4<");
    let a = [1, 0, 0, 0, 0, 0, 0, 2];
    assert_eq!(
        rows(&q),
        [Z, a, [1, 3, 4, 4, 1, 3, 0, 1], [0, 0, 0, 1, 1, 1, 1, 1]]
    );
    assert!(q.nyumba_owned(Side::South) && !q.nyumba_owned(Side::North));
    let q = play(&p, "A4>");
    assert_eq!(
        rows(&q),
        [Z, a, [1, 0, 4, 4, 1, 3, 6, 1], [1, 1, 0, 0, 0, 0, 0, 0]]
    );
}

#[test]
fn v3_6_capture_ending_in_the_nyumba_stops() {
    let p = pos(
        [Z, [0, 1, 2, 10, 4, 4, 0, 0], [2, 1, 0, 0, 12, 0, 0, 0], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A2<", "A5<", "A5>", "A5>+"]));
    let q = play(&p, "A5>");
    assert_eq!(
        rows(&q),
        [Z, [0, 1, 2, 10, 0, 4, 0, 0], [2, 1, 0, 0, 14, 1, 1, 1], Z]
    );
    assert!(q.nyumba_owned(Side::South));
}

#[test]
fn v3_7_nyumba_tax_sows_only_two_seeds() {
    let p = pos(
        [Z, [0, 1, 2, 9, 0, 2, 0, 0], [0, 0, 0, 0, 9, 0, 0, 0], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A5<", "A5>"]));
    let a = [0, 1, 2, 9, 0, 2, 0, 0];
    let q = play(&p, "A5>*");
    assert_eq!(rows(&q), [Z, a, [0, 0, 0, 0, 8, 1, 1, 0], Z]);
    assert!(q.nyumba_functional(Side::South));
    assert_eq!(rows(&play(&p, "A5<*")), [Z, a, [0, 0, 1, 1, 8, 0, 0, 0], Z]);
}

#[test]
fn v3_8_mtaji_captures_are_compulsory_and_go_round_the_corner() {
    let b = [0, 9, 0, 0, 0, 0, 0, 0];
    let p = pos(
        [Z, [0, 0, 0, 0, 5, 6, 0, 0], [0, 3, 0, 0, 4, 1, 0, 0], b],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A2>", "B2>"]));
    assert_eq!(
        rows(&play(&p, "A2>")),
        [
            Z,
            [0, 0, 0, 0, 0, 6, 0, 0],
            [1, 1, 2, 2, 0, 2, 1, 1],
            [0, 9, 0, 0, 0, 1, 1, 1]
        ]
    );
    assert_eq!(
        rows(&play(&p, "B2>")),
        [
            Z,
            [0, 0, 0, 0, 5, 0, 0, 0],
            [0, 3, 1, 1, 5, 3, 2, 2],
            [0, 0, 1, 1, 1, 1, 1, 1]
        ]
    );
}

// ---- §4 lead-1 rule probes --------------------------------------------------

#[test]
fn v4_1_namua_takasa_without_functional_nyumba_avoids_the_singleton() {
    let p = pos(
        [Z, [0, 0, 0, 0, 0, 0, 0, 3], [1, 2, 0, 0, 0, 0, 0, 0], Z],
        (5, 5),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A2<", "A2>"]));
    let q = play(&p, "A2<*");
    assert_eq!(
        rows(&q),
        [
            Z,
            [0, 0, 0, 0, 0, 0, 0, 3],
            [2, 0, 0, 0, 0, 0, 0, 0],
            [1, 1, 0, 0, 0, 0, 0, 0]
        ]
    );
    assert_eq!(q.hand(Side::South), 4);
}

#[test]
fn v4_2_namua_takasa_all_singletons_allowed() {
    let p = pos(
        [Z, [0, 0, 0, 0, 0, 0, 0, 3], [1, 0, 0, 1, 0, 0, 0, 0], Z],
        (5, 5),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A1<", "A1>", "A4<", "A4>"]));
    assert_eq!(
        rows(&play(&p, "A1>*")),
        [Z, [0, 0, 0, 0, 0, 0, 0, 3], [0, 1, 1, 1, 0, 0, 0, 0], Z]
    );
}

#[test]
fn v4_3_mtaji_capture_ending_in_functional_nyumba_forced_safari() {
    let p = pos(
        [Z, [0, 0, 5, 0, 0, 1, 0, 0], [2, 0, 1, 0, 6, 0, 0, 0], Z],
        (0, 0),
        "OL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A1>"]));
    let q = play(&p, "A1>");
    assert_eq!(
        rows(&q),
        [
            Z,
            [0, 0, 0, 0, 0, 1, 0, 0],
            [1, 2, 3, 1, 0, 1, 1, 1],
            [0, 0, 0, 0, 1, 1, 1, 1]
        ]
    );
    assert!(!q.nyumba_owned(Side::South));
    assert_eq!(q.outcome().unwrap().result, GameResult::P1Win);
}

#[test]
fn v4_4_sixteen_seed_rule_first_lap_of_16_plus_never_captures() {
    let p = pos(
        [Z, [3, 0, 2, 0, 0, 0, 0, 0], [2, 17, 1, 0, 0, 0, 0, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A1>"]));
    let q = play(&p, "A1>");
    assert_eq!(
        rows(&q),
        [Z, Z, [4, 2, 5, 2, 0, 2, 0, 2], [2, 0, 2, 0, 2, 0, 2, 0]]
    );
    assert_eq!(q.outcome().unwrap().result, GameResult::P1Win);
}

#[test]
fn v4_5_sixteen_seed_rule_17_seed_pit_may_takasa() {
    let p = pos(
        [Z, [0, 0, 0, 0, 0, 0, 0, 1], [0, 17, 0, 0, 1, 0, 0, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A2<", "A2>"]));
    let q = play(&p, "A2>*");
    assert_eq!(
        rows(&q),
        [
            Z,
            [0, 0, 0, 0, 0, 0, 0, 1],
            [2, 0, 1, 0, 1, 3, 0, 1],
            [0, 2, 0, 2, 0, 2, 1, 3]
        ]
    );
    assert_eq!(q.outcome().unwrap().result, GameResult::P1Win);
}

#[test]
fn v4_6_mtaji_front_row_singletons_back_row_takasa() {
    let b = [0, 5, 0, 0, 0, 0, 0, 0];
    let p = pos(
        [Z, [0, 0, 4, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0], b],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["B2<", "B2>"]));
    assert_eq!(
        rows(&play(&p, "B2>*")),
        [
            Z,
            [0, 0, 4, 0, 0, 0, 0, 0],
            [1, 1, 0, 0, 0, 0, 0, 0],
            [0, 0, 1, 1, 1, 1, 1, 0]
        ]
    );
}

#[test]
fn v4_7_lone_left_kichwa_must_sow_toward_the_centre() {
    let b = [0, 0, 4, 0, 0, 0, 0, 0];
    let p = pos(
        [Z, [0, 0, 0, 0, 0, 0, 0, 1], [3, 0, 0, 0, 0, 0, 0, 0], b],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A1>"]));
    assert_eq!(
        rows(&play(&p, "A1>*")),
        [Z, [0, 0, 0, 0, 0, 0, 0, 1], [0, 1, 1, 1, 0, 0, 0, 0], b]
    );
}

#[test]
fn v4_8_bao_hamna_in_namua_capture_empties_north_front_row() {
    let b = [0, 0, 1, 0, 0, 0, 0, 0];
    let p = pos(
        [Z, [0, 0, 0, 0, 2, 0, 0, 0], [0, 0, 0, 0, 3, 0, 0, 0], b],
        (5, 5),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A5<", "A5>"]));
    let q = play(&p, "A5<");
    assert_eq!(rows(&q), [Z, Z, [1, 1, 0, 0, 4, 0, 0, 0], b]);
    assert_eq!(q.outcome().unwrap().result, GameResult::P1Win);
    assert_eq!(legal(&q), Vec::<String>::new());
}

#[test]
fn v4_9_north_left_with_singletons_has_no_move_and_loses() {
    let p = pos(
        [Z, [1, 0, 0, 0, 0, 0, 0, 1], [0, 3, 0, 0, 0, 0, 0, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A2<", "A2>"]));
    let q = play(&p, "A2>*");
    assert_eq!(
        rows(&q),
        [Z, [1, 0, 0, 0, 0, 0, 0, 1], [0, 0, 1, 1, 1, 0, 0, 0], Z]
    );
    assert_eq!(q.side_to_move(), Side::North);
    assert_eq!(legal(&q), Vec::<String>::new());
    assert_eq!(q.outcome().unwrap().result, GameResult::P1Win);
}

#[test]
fn v4_10_takasia_created_by_a_takasa() {
    let p = pos(
        [Z, [0, 0, 2, 0, 0, 0, 2, 0], [0, 0, 3, 2, 0, 0, 1, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A3<", "A3>", "A4<", "A4>"]));
    let q = play(&p, "A3>*");
    assert_eq!(
        rows(&q),
        [Z, [0, 0, 2, 0, 0, 0, 2, 0], [0, 0, 0, 3, 1, 1, 1, 0], Z]
    );
    assert_eq!(q.takasia(), Some(1)); // a2
    assert!(q.to_notation().contains("-a2-"));
    assert_eq!(legal(&q), set(&["a6<", "a6>"]));
}

#[test]
fn v4_11_takasia_exception_only_multi_seed_front_pit() {
    let p = pos(
        [Z, [0, 0, 1, 0, 0, 0, 2, 0], [0, 0, 3, 2, 0, 0, 1, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A3<", "A3>", "A4<", "A4>"]));
    let q = play(&p, "A3>*");
    assert_eq!(
        rows(&q),
        [Z, [0, 0, 1, 0, 0, 0, 2, 0], [0, 0, 0, 3, 1, 1, 1, 0], Z]
    );
    assert_eq!(q.takasia(), None);
}

// ---- §6 nkkmd validation cases and the K.I.B.A. takasia position -------------

#[test]
fn v6_1_takasa_from_a_16_seed_pit_makes_one_circuit() {
    let b = [0, 0, 0, 0, 0, 0, 0, 46];
    let p = pos(
        [b, [1, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 16, 0, 0, 0, 0], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A4<", "A4>"]));
    for mv in ["A4<", "A4>"] {
        assert_eq!(
            rows(&play(&p, mv)),
            [
                b,
                [1, 0, 0, 0, 0, 0, 0, 0],
                [2, 1, 1, 1, 1, 1, 1, 1],
                [1; 8]
            ],
            "{mv}"
        );
    }
}

#[test]
fn v6_2_first_move_pair_ramadhan_kijumbe_1994() {
    let p = pos(
        [Z, [0, 2, 2, 6, 0, 0, 0, 0], [0, 0, 0, 0, 6, 2, 2, 0], Z],
        (22, 22),
        "OO",
        "S",
    );
    // de Voogt's notation: A7L, a5R.
    let q = play(&p, "A7L");
    assert_eq!(p.format_move(p.parse_move("A7L").unwrap()), "A7<");
    assert_eq!(
        rows(&q),
        [Z, [0, 2, 2, 6, 0, 0, 0, 0], [0, 0, 0, 1, 7, 3, 0, 0], Z]
    );
    assert_eq!((q.hand(Side::South), q.hand(Side::North)), (21, 22));
    let r = play(&q, "a5R");
    assert_eq!(q.format_move(q.parse_move("a5R").unwrap()), "a5>");
    assert_eq!(
        rows(&r),
        [Z, [1, 2, 2, 7, 0, 0, 0, 0], [0, 0, 0, 0, 7, 3, 0, 0], Z]
    );
    assert_eq!((r.hand(Side::South), r.hand(Side::North)), (21, 21));
    assert!(r.nyumba_owned(Side::South) && r.nyumba_owned(Side::North));
}

#[test]
fn v6_3a_capture_reaching_a_nyumba_of_5_relays() {
    let b = [0, 0, 0, 0, 0, 0, 0, 50];
    let p = pos(
        [b, [1, 0, 5, 0, 0, 0, 0, 0], [0, 0, 2, 0, 4, 0, 0, 0], Z],
        (1, 1),
        "OL",
        "S",
    );
    let q = play(&p, "A3<");
    assert_eq!(
        rows(&q),
        [
            b,
            [1, 0, 0, 0, 0, 0, 0, 0],
            [1, 1, 4, 1, 0, 1, 1, 1],
            [0, 0, 0, 0, 0, 0, 1, 1]
        ]
    );
    assert!(!q.nyumba_owned(Side::South));
    assert_eq!((q.hand(Side::South), q.hand(Side::North)), (0, 1));
}

#[test]
fn v6_3b_capture_reaching_a_nyumba_of_6_stop_or_safari() {
    let b = [0, 0, 0, 0, 0, 0, 0, 49];
    let p = pos(
        [b, [1, 0, 5, 0, 0, 0, 0, 0], [0, 0, 2, 0, 5, 0, 0, 0], Z],
        (1, 1),
        "OL",
        "S",
    );
    let a = [1, 0, 0, 0, 0, 0, 0, 0];
    let stop = play(&p, "A3<");
    assert_eq!(rows(&stop), [b, a, [1, 1, 4, 1, 6, 0, 0, 0], Z]);
    assert!(stop.nyumba_owned(Side::South));
    let safari = play(&p, "A3<+");
    assert_eq!(
        rows(&safari),
        [b, a, [1, 1, 4, 1, 0, 1, 1, 1], [0, 0, 0, 0, 0, 1, 1, 1]]
    );
    assert!(!safari.nyumba_owned(Side::South));
}

#[test]
fn v6_4_tax_from_a_6_seed_nyumba() {
    let b = [0, 0, 0, 0, 0, 0, 0, 55];
    let p = pos(
        [b, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 6, 0, 0, 0], Z],
        (1, 1),
        "OL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A5<", "A5>"]));
    let q = play(&p, "A5>*");
    assert_eq!(rows(&q)[2], [0, 0, 0, 0, 5, 1, 1, 0]);
    assert!(q.nyumba_owned(Side::South));
    assert_eq!((q.hand(Side::South), q.hand(Side::North)), (0, 1));
    assert_eq!(rows(&play(&p, "A5<*"))[2], [0, 0, 1, 1, 5, 0, 0, 0]);
}

#[test]
fn v6_5_kimbi_capture_reverses_the_direction() {
    let b = [0, 0, 0, 0, 0, 0, 0, 58];
    let p = pos(
        [b, [0, 1, 0, 0, 0, 0, 0, 1], [0, 1, 0, 2, 0, 0, 0, 1], Z],
        (0, 0),
        "LL",
        "S",
    );
    assert_eq!(legal(&p), set(&["A4<"]));
    assert_eq!(
        rows(&play(&p, "A4<")),
        [b, [0, 0, 0, 0, 0, 0, 0, 1], [1, 2, 1, 0, 0, 0, 0, 1], Z]
    );
}

fn e30_rows(south_front: [u8; 8]) -> Rows {
    [
        [0, 1, 2, 1, 4, 8, 2, 2],
        [10, 0, 0, 10, 2, 1, 0, 1],
        south_front,
        [0, 0, 2, 2, 0, 2, 6, 4],
    ]
}

#[test]
fn v6_7_e30_kiba_takasia_position() {
    let rules = BaoRules::kiswahili();
    let e30 = pos_with(
        rules,
        e30_rows([0, 2, 0, 0, 1, 1, 0, 0]),
        (0, 0),
        "LL",
        "N",
        "a4",
    );
    assert_eq!(legal(&e30), set(&["a5<", "a5>", "a8<", "a8>"]));
    let south = [0, 2, 0, 0, 1, 1, 0, 0];
    let southb = [0, 0, 2, 2, 0, 2, 6, 4];
    let cases: [(&str, [u8; 8], [u8; 8]); 4] = [
        ("a8>*", [1, 2, 3, 2, 5, 9, 3, 3], [0, 0, 0, 10, 2, 1, 1, 2]),
        ("a8<*", [0, 3, 4, 3, 6, 1, 4, 4], [2, 0, 3, 1, 5, 3, 2, 3]),
        ("a5>*", [1, 2, 3, 2, 5, 9, 0, 3], [11, 1, 1, 0, 2, 1, 1, 2]),
        ("a5<*", [3, 0, 2, 4, 1, 11, 0, 5], [2, 1, 0, 1, 6, 1, 3, 4]),
    ];
    for (mv, b, a) in cases {
        let q = play(&e30, mv);
        assert_eq!(rows(&q), [b, a, south, southb], "{mv}");
        // South still has the capture B8> on a4.
        assert!(legal(&q).contains(&"B8>".to_string()), "{mv}");
    }
    // The predecessor: South's takasa A7< creates the takasia on a4.
    let before = pos_with(
        rules,
        e30_rows([0, 2, 0, 0, 0, 0, 2, 0]),
        (0, 0),
        "LL",
        "S",
        "x",
    );
    assert_eq!(legal(&before), set(&["A2<", "A2>", "A7<", "A7>"]));
    assert_eq!(play(&before, "A7<**"), e30);
}

#[test]
fn v6_7_kiba_counterexample_only_multi_seed_pit_is_not_takasiad() {
    let p = pos(
        [
            [7, 4, 2, 4, 1, 3, 2, 0],
            [0, 1, 0, 0, 10, 0, 0, 0],
            [0, 0, 1, 0, 1, 1, 1, 3],
            [0, 4, 2, 0, 2, 2, 5, 0],
        ],
        (0, 0),
        "LL",
        "N",
    );
    assert_eq!(p.takasia_if_takasa(), None);
}

// ---- §7.1 AbstractPlay move processing ------------------------------------------

fn ap(r: Rows, hands: (u8, u8), own: &str, side: &str) -> Bao {
    pos(r, hands, own, side)
}

#[test]
fn ap_m1_m2_namua_capture_central_right_and_left_entry() {
    let p = ap(
        [Z, [0, 1, 2, 6, 1, 0, 0, 0], [0, 0, 0, 0, 6, 1, 2, 0], Z],
        (22, 22),
        "OO",
        "S",
    );
    let a = [0, 1, 2, 6, 0, 0, 0, 0];
    assert_eq!(rows(&play(&p, "A5>")), [Z, a, [0, 0, 0, 0, 7, 1, 2, 1], Z]);
    assert_eq!(rows(&play(&p, "A5<")), [Z, a, [1, 0, 0, 0, 7, 1, 2, 0], Z]);
}

#[test]
fn ap_m3_namua_kimbi_capture_forced_left_kichwa() {
    let p = ap(
        [Z, [0, 3, 1, 6, 0, 1, 0, 0], [0, 1, 0, 0, 7, 1, 0, 0], Z],
        (22, 22),
        "OO",
        "S",
    );
    assert_eq!(
        rows(&play(&p, "A2<")),
        [Z, [0, 0, 1, 6, 0, 1, 0, 0], [1, 3, 1, 0, 7, 1, 0, 0], Z]
    );
}

#[test]
fn ap_m4_namua_capture_chain() {
    let p = ap(
        [Z, [0, 0, 2, 6, 1, 1, 0, 0], [0, 0, 0, 0, 6, 1, 1, 1], Z],
        (22, 22),
        "OO",
        "S",
    );
    assert_eq!(
        rows(&play(&p, "A5>")),
        [Z, [0, 0, 2, 6, 0, 0, 0, 0], [0, 0, 0, 0, 7, 2, 2, 1], Z]
    );
}

#[test]
fn ap_m5_capture_chain_with_a_relay_between_then_stop() {
    let p = ap(
        [Z, [0, 2, 2, 6, 0, 7, 0, 0], [0, 1, 0, 0, 7, 1, 0, 0], Z],
        (22, 22),
        "OO",
        "S",
    );
    assert_eq!(
        rows(&play(&p, "A6>")),
        [Z, [0, 0, 2, 6, 0, 0, 0, 0], [1, 0, 2, 2, 9, 3, 1, 1], Z]
    );
}

#[test]
fn ap_m6_m7_kichwa_capture_ending_in_the_nyumba_stop_or_safari() {
    let p = ap(
        [Z, [5, 0, 2, 6, 0, 0, 0, 0], [1, 0, 2, 2, 7, 0, 0, 0], Z],
        (22, 22),
        "OO",
        "S",
    );
    let a = [0, 0, 2, 6, 0, 0, 0, 0];
    assert_eq!(rows(&play(&p, "A1<")), [Z, a, [3, 1, 3, 3, 8, 0, 0, 0], Z]);
    let q = play(&p, "A1<+");
    assert_eq!(
        rows(&q),
        [Z, a, [3, 1, 3, 3, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1]]
    );
    assert!(!q.nyumba_owned(Side::South));
}

#[test]
fn ap_m8_tax_when_the_nyumba_is_the_only_occupied_front_pit() {
    let b = [0, 0, 0, 0, 1, 0, 0, 2];
    let p = ap(
        [Z, [0, 2, 0, 6, 0, 2, 0, 0], [0, 0, 0, 0, 6, 0, 0, 0], b],
        (22, 22),
        "OO",
        "S",
    );
    assert_eq!(
        rows(&play(&p, "A5<*")),
        [Z, [0, 2, 0, 6, 0, 2, 0, 0], [0, 0, 1, 1, 5, 0, 0, 0], b]
    );
}

#[test]
fn ap_m9_mtaji_takasa_with_one_relay() {
    let b = [0, 0, 0, 0, 3, 0, 0, 2];
    let p = ap(
        [Z, [0, 1, 2, 2, 0, 1, 0, 0], [0, 0, 1, 3, 1, 0, 2, 0], b],
        (0, 0),
        "OO",
        "S",
    );
    assert_eq!(
        rows(&play(&p, "A4>*")),
        [
            Z,
            [0, 1, 2, 2, 0, 1, 0, 0],
            [0, 0, 1, 0, 2, 1, 0, 1],
            [0, 0, 0, 0, 3, 0, 1, 3]
        ]
    );
}

#[test]
fn ap_m10_mtaji_back_row_takasa_when_front_row_is_singletons() {
    let b = [0, 0, 0, 0, 3, 0, 0, 2];
    let p = ap(
        [Z, [0, 1, 2, 0, 1, 0, 0, 0], [0, 0, 0, 1, 1, 0, 1, 0], b],
        (0, 0),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["B8>", "B8<", "B5>", "B5<"]));
    assert!(p.parse_move("A5>").is_err());
    assert_eq!(
        rows(&play(&p, "B8>*")),
        [
            Z,
            [0, 1, 2, 0, 1, 0, 0, 0],
            [0, 0, 1, 2, 0, 1, 0, 1],
            [0, 0, 0, 0, 3, 0, 0, 0]
        ]
    );
}

#[test]
fn ap_m11_mtaji_capture_with_two_captures() {
    let b = [0, 0, 0, 0, 0, 2, 3, 1];
    let p = ap(
        [Z, [0, 0, 0, 1, 3, 1, 6, 0], [0, 3, 2, 1, 1, 0, 1, 0], b],
        (0, 0),
        "OO",
        "S",
    );
    assert_eq!(
        rows(&play(&p, "A2>")),
        [Z, [0, 0, 0, 1, 0, 1, 0, 0], [1, 1, 1, 4, 4, 2, 3, 1], b]
    );
}

#[test]
fn ap_m12_mtaji_capture_generation() {
    let p = ap(
        [Z, [0, 0, 2, 6, 0, 0, 0, 0], [0, 2, 2, 6, 0, 0, 0, 0], Z],
        (0, 0),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A2>"]));
}

// ---- §7.2 AbstractPlay rule contracts -----------------------------------------

#[test]
fn ap_r1_north_namua_capture_relay_ending_in_empty_pit() {
    let p = ap(
        [
            [1, 1, 0, 0, 0, 0, 0, 0],
            [1, 0, 0, 7, 0, 0, 0, 0],
            [0, 1, 1, 1, 8, 0, 1, 1],
            [0, 0, 0, 0, 0, 0, 1, 1],
        ],
        (19, 19),
        "OO",
        "N",
    );
    assert!(legal(&p).contains(&"a5<".to_string()) && legal(&p).contains(&"a5>".to_string()));
    assert_eq!(
        rows(&play(&p, "a5<")),
        [
            [1, 1, 0, 0, 0, 0, 0, 0],
            [1, 0, 0, 8, 0, 0, 0, 1],
            [0, 1, 1, 0, 8, 0, 1, 1],
            [0, 0, 0, 0, 0, 0, 1, 1]
        ]
    );
}

#[test]
fn ap_r2_only_takasa_when_no_capture_exists() {
    let p = ap(
        [
            [4, 0, 2, 1, 1, 0, 0, 0],
            [0, 0, 2, 6, 0, 0, 0, 0],
            [0, 0, 0, 0, 6, 1, 1, 0],
            [0, 1, 2, 2, 2, 0, 1, 0],
        ],
        (16, 16),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A6<", "A6>", "A7<", "A7>"]));
}

#[test]
fn ap_r3_mandatory_capture_north_namua() {
    let p = ap(
        [
            [0, 1, 3, 2, 2, 1, 0, 0],
            [1, 1, 0, 6, 0, 0, 0, 0],
            [1, 0, 0, 0, 6, 1, 0, 0],
            [1, 0, 3, 3, 0, 1, 0, 2],
        ],
        (14, 15),
        "OO",
        "N",
    );
    assert_eq!(legal(&p), set(&["a8>", "a8>+"]));
}

#[test]
fn ap_r4_16_seed_pit_is_not_a_capturing_start() {
    let p = ap(
        [Z, [0, 0, 0, 1, 1, 1, 1, 0], [0, 16, 0, 0, 0, 0, 1, 1], Z],
        (0, 0),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A2<", "A2>"]));
}

#[test]
fn ap_r5_16_seed_takasa_lap_never_captures() {
    let p = ap(
        [Z, [0, 0, 0, 1, 1, 1, 1, 0], [0, 16, 0, 0, 6, 0, 0, 0], Z],
        (0, 0),
        "OO",
        "S",
    );
    assert_eq!(
        rows(&play(&p, "A2>*")),
        [
            Z,
            [0, 0, 0, 1, 1, 1, 1, 0],
            [1, 1, 1, 1, 7, 1, 1, 1],
            [1; 8]
        ]
    );
}

#[test]
fn ap_r6_empty_front_row_loses() {
    let p = ap([Z, [0, 0, 0, 6, 0, 0, 0, 0], Z, Z], (0, 0), "OO", "S");
    assert_eq!(legal(&p), Vec::<String>::new());
    assert_eq!(p.outcome().unwrap().result, GameResult::P2Win);
}

#[test]
fn ap_r7_capturing_the_opponent_nyumba_destroys_it() {
    let p = ap(
        [Z, [0, 0, 0, 7, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0], Z],
        (22, 22),
        "OO",
        "S",
    );
    let q = play(&p, "A4<");
    assert_eq!(rows(&q), [Z, Z, [1, 1, 1, 3, 1, 1, 1, 0], Z]);
    assert!(!q.nyumba_owned(Side::North));
    assert_eq!(q.outcome().unwrap().result, GameResult::P1Win);
}

#[test]
fn ap_r8_nyumba_refuses_the_seed_while_another_front_pit_is_occupied() {
    let p = ap(
        [Z, [0, 0, 0, 6, 0, 0, 0, 0], [0, 0, 0, 0, 6, 1, 0, 0], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A6<", "A6>"]));
}

#[test]
fn ap_r9_dormant_nyumba_and_singleton_under_both_readings_of_d1() {
    let r = [Z, [0, 0, 0, 6, 0, 0, 0, 0], [0, 0, 0, 0, 5, 1, 0, 0], Z];
    let p = ap(r, (10, 10), "OO", "S");
    assert_eq!(legal(&p), set(&["A5<", "A5>"]));
    let mut owned = BaoRules::kiswahili();
    assert!(kete::options::set(&mut owned, "SingletonRule", "owned").unwrap());
    let p = pos_with(owned, r, (10, 10), "OO", "S", "x");
    assert_eq!(legal(&p), set(&["A5<", "A5>", "A6<", "A6>"]));
}

#[test]
fn ap_r10_all_singletons_no_houses() {
    // North's front row is empty, so the game is over; the rule probe asks
    // which moves the rules would give South all the same.
    let p = ap([Z, Z, [0, 1, 1, 1, 1, 1, 1, 0], Z], (10, 10), "LL", "S");
    let all: Vec<String> = (2..=7)
        .flat_map(|i| [format!("A{i}<"), format!("A{i}>")])
        .collect();
    let mut all = all;
    all.sort();
    assert_eq!(by_rule(&p), all);
}

#[test]
fn ap_r11_r12_tax_south_and_north() {
    let p = ap(
        [Z, [0, 0, 0, 6, 0, 0, 0, 0], [0, 0, 0, 0, 8, 0, 0, 0], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert!(legal(&p).contains(&"A5<".to_string()));
    assert_eq!(rows(&play(&p, "A5>*"))[2], [0, 0, 0, 0, 7, 1, 1, 0]);
    let p = ap(
        [
            [2, 0, 1, 1, 0, 0, 0, 0],
            [0, 0, 0, 9, 0, 0, 0, 0],
            [1, 0, 0, 0, 8, 0, 0, 0],
            [0, 1, 1, 0, 2, 0, 2, 3],
        ],
        (17, 17),
        "OO",
        "N",
    );
    assert_eq!(legal(&p), set(&["a5<", "a5>"]));
    assert_eq!(p.outcome(), None);
}

#[test]
fn ap_r13_namua_takasa_lap_passing_the_nyumba() {
    let p = ap(
        [Z, [0, 0, 0, 6, 0, 0, 0, 0], [0, 0, 0, 0, 6, 2, 0, 0], Z],
        (10, 10),
        "OO",
        "S",
    );
    assert_eq!(rows(&play(&p, "A6<*"))[2], [0, 0, 1, 1, 7, 0, 0, 0]);
}

#[test]
fn ap_r14_r15_lone_front_kichwa_sows_toward_the_centre() {
    let p = ap(
        [Z, [0, 0, 0, 6, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0, 0, 0], Z],
        (0, 0),
        "OO",
        "S",
    );
    assert_eq!(legal(&p), set(&["A1>"]));
    let p = ap(
        [[0, 0, 0, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 0, 0, 8], Z, Z],
        (0, 0),
        "OO",
        "N",
    );
    assert_eq!(by_rule(&p), set(&["a1>"]));
}

#[test]
fn ap_r16_takasa_lifting_the_only_front_pit_and_resowing_the_front_row() {
    let p = ap([Z, Z, [0, 0, 0, 0, 3, 0, 0, 0], Z], (0, 0), "OO", "S");
    assert_eq!(by_rule(&p), set(&["A5<", "A5>"]));
    let q = p.play(kete::variants::bao::BaoMove {
        pit: 4,
        cw: true,
        safari: false,
    });
    assert_eq!(rows(&q)[2], [0, 0, 0, 0, 0, 1, 1, 1]);
}

#[test]
fn ap_r17_front_row_may_never_be_emptied() {
    let p = ap(
        [Z, Z, [8, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 4]],
        (0, 0),
        "OO",
        "S",
    );
    assert_eq!(by_rule(&p), set(&["A1>"]));
}

#[test]
fn ap_r18_immobilisation_loses() {
    let p = ap(
        [Z, [0, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 6, 0, 0, 0, 0], Z],
        (0, 0),
        "OO",
        "N",
    );
    assert_eq!(legal(&p), Vec::<String>::new());
    assert_eq!(p.outcome().unwrap().result, GameResult::P1Win);
}

// ---- §7.3 disputed, under the matching option -----------------------------------

#[test]
fn ap_g1_mtaji_takasa_ending_in_functional_nyumba_d2() {
    let r = [Z, [0, 0, 0, 6, 0, 0, 0, 0], [0, 0, 0, 0, 6, 0, 2, 0], Z];
    let p = ap(r, (0, 0), "OO", "S");
    assert_eq!(rows(&play(&p, "A7<*"))[2], [0, 0, 0, 0, 7, 1, 0, 0]);
    let mut relay = BaoRules::kiswahili();
    assert!(kete::options::set(&mut relay, "MtajiTakasaNyumba", "relay").unwrap());
    let p = pos_with(relay, r, (0, 0), "OO", "S", "x");
    let q = play(&p, "A7<*");
    assert_eq!(rows(&q)[2], [1, 1, 1, 1, 0, 1, 0, 0]);
    assert_eq!(rows(&q)[3], [1, 1, 1, 0, 0, 0, 0, 0]);
}

#[test]
fn ap_g2_g3_takasiad_pit_and_the_first_lap_from_the_nyumba_d6() {
    let rules = BaoRules::kiswahili();
    let r = [Z, [0, 0, 0, 6, 0, 0, 0, 0], [0, 0, 1, 1, 2, 0, 0, 0], Z];
    let p = pos_with(rules, r, (0, 0), "OO", "S", "A3");
    assert_eq!(rows(&play(&p, "A5<*"))[2], [1, 1, 0, 2, 0, 0, 0, 0]);
    let mut stops = rules;
    assert!(kete::options::set(&mut stops, "TakasiaNyumbaLap", "stops").unwrap());
    let p = pos_with(stops, r, (0, 0), "OO", "S", "A3");
    assert_eq!(rows(&play(&p, "A5<*"))[2], [0, 0, 2, 2, 0, 0, 0, 0]);
    // G3: a lap not from the nyumba simply ends in the empty A2.
    let r = [Z, [0, 0, 0, 6, 0, 0, 0, 0], [0, 0, 1, 2, 0, 0, 0, 0], Z];
    let p = pos_with(rules, r, (0, 0), "OO", "S", "A3");
    assert_eq!(rows(&play(&p, "A4<*"))[2], [0, 1, 2, 0, 0, 0, 0, 0]);
}

#[test]
fn ap_k1_takasia_needs_the_opponent_to_have_no_capture_d3() {
    let r = [
        Z,
        [0, 5, 0, 0, 1, 0, 2, 0],
        [0, 1, 0, 0, 0, 0, 1, 0],
        [0, 2, 3, 0, 0, 0, 0, 0],
    ];
    let p = ap(r, (0, 0), "OO", "S");
    let q = play(&p, "B3<*");
    assert_eq!(rows(&q)[2], [1, 1, 0, 0, 0, 0, 1, 0]);
    assert_eq!(rows(&q)[3], [1, 3, 0, 0, 0, 0, 0, 0]);
    assert_eq!(q.takasia(), None);
    let mut always = BaoRules::kiswahili();
    assert!(kete::options::set(&mut always, "TakasiaCheck", "always").unwrap());
    let p = pos_with(always, r, (0, 0), "OO", "S", "x");
    assert_eq!(play(&p, "B3<*").takasia(), Some(6)); // a7
}

#[test]
fn ap_k2_takasia_stops_a_lap_and_no_obligation_for_the_setter_d4() {
    let r = [
        Z,
        [0, 6, 0, 0, 2, 0, 2, 0],
        [0, 0, 1, 0, 0, 1, 0, 0],
        [2, 3, 0, 0, 0, 0, 4, 0],
    ];
    let p = ap(r, (0, 0), "OO", "S");
    let q = play(&p, "B1<*");
    assert_eq!(
        rows(&q),
        [
            Z,
            [0, 6, 0, 0, 2, 0, 2, 0],
            [1, 1, 1, 0, 0, 1, 0, 0],
            [0, 3, 0, 0, 0, 0, 4, 0]
        ]
    );
    assert_eq!(q.takasia(), Some(6)); // a7
    let r2 = play(&q, "a2>*");
    assert_eq!(rows(&r2)[1], [0, 7, 1, 1, 0, 1, 0, 0]);
    assert_eq!(legal(&r2), set(&["B7>", "B2<"]));
}

#[test]
fn ap_k2_under_takasia_obligation_clear_the_setter_must_capture_the_blocked_pit_d4() {
    // The same game under AbstractPlay's D4: South set the takasia on a7,
    // so of his captures B7> (first capture a3, across from A6) and B2<
    // (B2 3 seeds: B1, A1, A2, which held 1; it faces a7) only B2< stays.
    let r = [
        Z,
        [0, 6, 0, 0, 2, 0, 2, 0],
        [0, 0, 1, 0, 0, 1, 0, 0],
        [2, 3, 0, 0, 0, 0, 4, 0],
    ];
    let mut clear = BaoRules::kiswahili();
    assert!(kete::options::set(&mut clear, "TakasiaObligation", "clear").unwrap());
    let p = pos_with(clear, r, (0, 0), "OO", "S", "x");
    let q = play(&p, "B1<*");
    assert_eq!(q.takasia(), Some(6)); // a7
    assert_eq!(q.must_clear(), None);
    let r2 = play(&q, "a2>*");
    assert_eq!(rows(&r2)[1], [0, 7, 1, 1, 0, 1, 0, 0]);
    assert_eq!(r2.must_clear(), Some(6));
    assert_eq!(legal(&r2), set(&["B2<"]));
    // The obligation is part of the position token, and read back.
    let t = r2.to_notation();
    assert!(t.contains("-S-x:a7-"), "{t}");
    assert_eq!(Bao::from_notation(&clear, &t).unwrap(), r2);
    // Under the default the token has no pit to clear, and refuses one.
    let default = BaoRules::kiswahili();
    let e = Bao::from_notation(&default, &t).unwrap_err().to_string();
    assert!(e.contains("TakasiaObligation=clear"), "{e}");
    // Once South has moved the obligation is gone.
    let after = play(&r2, "B2<");
    assert_eq!(after.must_clear(), None);
}

#[test]
fn ap_k3_k4_k5_takasia_exceptions() {
    // K3: the only threatened pit is North's functional nyumba.
    let p = ap(
        [
            Z,
            [0, 0, 0, 7, 2, 0, 2, 0],
            [0, 0, 1, 0, 0, 1, 0, 0],
            [3, 5, 0, 0, 0, 0, 4, 0],
        ],
        (0, 0),
        "OO",
        "S",
    );
    let q = play(&p, "B2<*");
    assert_eq!(rows(&q)[2], [1, 1, 2, 1, 0, 1, 0, 0]);
    assert_eq!(rows(&q)[3], [4, 0, 0, 0, 0, 0, 4, 0]);
    assert_eq!(q.takasia(), None);
    // K4: the only occupied front pit; K5: the only front pit with > 1 seed.
    let b = [0, 0, 3, 0, 0, 0, 7, 0];
    for a in [[0, 0, 1, 0, 0, 0, 0, 0], [0, 0, 2, 0, 1, 0, 1, 1]] {
        let p = ap(
            [b, a, [0, 0, 0, 1, 0, 1, 0, 0], [2, 4, 0, 0, 0, 0, 4, 0]],
            (0, 0),
            "OO",
            "S",
        );
        let q = play(&p, "B2<*");
        assert_eq!(rows(&q)[2], [1, 1, 1, 1, 0, 1, 0, 0]);
        assert_eq!(q.takasia(), None);
    }
}

// ---- §7.4 never-ending moves ----------------------------------------------------

#[test]
fn ap_i1_never_ending_namua_takasa() {
    let p = ap(
        [
            [2, 1, 2, 3, 2, 4, 0, 3],
            [0, 2, 0, 0, 3, 0, 0, 0],
            [1, 0, 2, 1, 0, 1, 2, 1],
            [2, 0, 1, 2, 0, 1, 2, 0],
        ],
        (13, 13),
        "OO",
        "S",
    );
    let mv = kete::variants::bao::BaoMove {
        pit: 6,
        cw: true,
        safari: false,
    };
    assert_eq!(p.run(mv).unwrap_err(), Refusal::NeverEnds);
    assert!(!legal(&p).contains(&"A7>".to_string()));
    assert!(p.parse_move("A7>*").is_err());
}

#[test]
fn ap_i2_never_ending_namua_takasa() {
    let p = ap(
        [
            [2, 2, 2, 3, 4, 4, 5, 3],
            [0, 0, 0, 5, 0, 6, 0, 0],
            [3, 2, 1, 0, 1, 0, 5, 4],
            [1, 0, 1, 2, 0, 1, 2, 3],
        ],
        (1, 1),
        "OO",
        "S",
    );
    let mv = kete::variants::bao::BaoMove {
        pit: 0,
        cw: true,
        safari: false,
    };
    assert_eq!(p.run(mv).unwrap_err(), Refusal::NeverEnds);
    assert!(!legal(&p).contains(&"A1>".to_string()));
}
