//! One test per rule of `shared/rules/kalah.md`. Every expected position is
//! worked out by hand from the rules text in the comment above its assertion.
//!
//! Notation reminder: `A-B-C-D-E-F-a-b-c-d-e-f-storeS-storeN-side` on the
//! 6-pit board (South's row from South's left, then North's row from North's
//! left). South's pit i faces North's pit 7-i: A-f, B-e, C-d, D-c, E-b, F-a.

use kete::game::{Game, GameRecord, GameResult, MoveError, Outcome, Side};
use kete::variants::kalah::{Capture, Kalah, KalahRules};

mod common;
use common::rng::Rng;
use common::two_row::{Model, random_game, random_token};

/// Rules whose size follows the token (2m+3 fields).
fn rules_for(text: &str, seeds: u8, capture: Capture) -> KalahRules {
    let pits = ((text.split('-').count() - 3) / 2) as u8;
    KalahRules {
        pits,
        seeds,
        capture,
    }
}

fn position(text: &str, seeds: u8, capture: Capture) -> Kalah {
    let rules = rules_for(text, seeds, capture);
    let p = Kalah::from_notation(&rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(p.to_notation(), text, "the token reads back as written");
    p
}

/// A 6-pit position with 4 seeds per pit (48 seeds), standard capture.
fn std4(text: &str) -> Kalah {
    position(text, 4, Capture::Standard)
}

fn play(p: &Kalah, mv: &str) -> Kalah {
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", p.to_notation()));
    p.play(m)
}

/// The legal moves as letters, sorted.
fn legal(p: &Kalah) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| p.format_move(m)).collect();
    v.sort();
    v
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- board and start

#[test]
fn start_has_n_seeds_in_every_pit_empty_stores_and_south_to_move() {
    // Kalah(6,4): 4 seeds in each of the 12 pits, both stores empty, South first.
    let rules = KalahRules::default();
    assert_eq!(
        rules,
        KalahRules {
            pits: 6,
            seeds: 4,
            capture: Capture::Standard
        }
    );
    let p = Kalah::start(&rules);
    assert_eq!(p.to_notation(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    assert_eq!(p.side_to_move(), Side::South);
    assert_eq!(p.store(Side::South), 0);
    assert_eq!(p.store(Side::North), 0);
    assert_eq!(p.outcome(), None);
    assert_eq!(legal(&p), strs(&["A", "B", "C", "D", "E", "F"]));
}

#[test]
fn sizes_selectable_one_to_eight_pits_and_seeds() {
    // Kalah(m,n) for m, n = 1..8: n seeds in each of 2m pits, South to move,
    // and South may play each of his m pits.
    for m in 1..=8u8 {
        for n in 1..=8u8 {
            for capture in [Capture::Standard, Capture::Empty] {
                let rules = KalahRules {
                    pits: m,
                    seeds: n,
                    capture,
                };
                let p = Kalah::start(&rules);
                let mut expected: Vec<String> = vec![n.to_string(); 2 * m as usize];
                expected.extend(["0".into(), "0".into(), "S".into()]);
                assert_eq!(p.to_notation(), expected.join("-"), "Kalah({m},{n})");
                assert_eq!(p.rules(), rules);
                assert_eq!(p.count_legal_moves(), m as usize);
                let letters: Vec<String> =
                    (0..m).map(|i| ((b'A' + i) as char).to_string()).collect();
                assert_eq!(legal(&p), letters);
                assert_eq!(Kalah::from_notation(&rules, &p.to_notation()), Ok(p));
            }
        }
    }
}

#[test]
fn south_pit_i_faces_north_pit_m_plus_1_minus_i() {
    // For m = 3..8 and every landing pit i = 2..m of the mover (1-based from
    // his own left): the pit before it holds 1 seed, the landing pit is empty,
    // the opponent's pit m+1-i holds 3 and every other pit holds 1. Sowing the
    // single seed makes the landing pit hold exactly one seed opposite a
    // non-empty pit: both go to the mover's store (+4), the three pits are
    // emptied, the other side moves next. Total: 2m+1 seeds on the board, the
    // stores hold (m-1, m) so that the total is 2*m*2 (2 seeds per pit).
    for m in 3..=8usize {
        for mover in [Side::South, Side::North] {
            for i in 2..=m {
                let mut own = vec![1u32; m];
                own[i - 1] = 0; // landing pit i
                let mut opp = vec![1u32; m];
                opp[m - i] = 3; // opponent's pit m+1-i
                let (mut south, mut north) = (own.clone(), opp.clone());
                if mover == Side::North {
                    std::mem::swap(&mut south, &mut north);
                }
                let token = |s: &[u32], n: &[u32], ss: usize, ns: usize, side: Side| {
                    let mut f: Vec<String> = s.iter().chain(n).map(|v| v.to_string()).collect();
                    f.push(ss.to_string());
                    f.push(ns.to_string());
                    f.push(side.letter().to_string());
                    f.join("-")
                };
                let before = token(&south, &north, m - 1, m, mover);
                let p = position(&before, 2, Capture::Standard);
                // Expected: own pits i-1 and i empty, opponent's m+1-i empty.
                let mut own_after = own.clone();
                own_after[i - 2] = 0;
                let mut opp_after = opp.clone();
                opp_after[m - i] = 0;
                let (mut s2, mut n2) = (own_after, opp_after);
                let (mut ss, mut ns) = (m - 1, m);
                if mover == Side::South {
                    ss += 4;
                } else {
                    std::mem::swap(&mut s2, &mut n2);
                    ns += 4;
                }
                let letter = if mover == Side::South {
                    (b'A' + (i - 2) as u8) as char
                } else {
                    (b'a' + (i - 2) as u8) as char
                };
                let next = play(&p, &letter.to_string());
                assert_eq!(
                    next.to_notation(),
                    token(&s2, &n2, ss, ns, mover.other()),
                    "m={m}, {mover:?} sows {letter} from {before}"
                );
                assert_eq!(next.outcome(), None);
            }
        }
    }
}

// ---------------------------------------------------------------- a move

#[test]
fn move_takes_all_seeds_of_a_non_empty_own_pit() {
    // Start, South A: its 4 seeds go one by one into B, C, D, E (5 each), A is
    // emptied. The last seed lands in E which was not empty: nothing more.
    let p = Kalah::start(&KalahRules::default());
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-5-5-5-5-4-4-4-4-4-4-4-0-0-N");
    assert_eq!(next.side_to_move(), Side::North);
}

#[test]
fn empty_pit_cannot_be_chosen() {
    // South's A is empty: it is not a legal move and parse_move says why.
    let p = std4("0-5-5-5-5-4-4-4-4-4-4-4-0-0-S");
    assert_eq!(legal(&p), strs(&["B", "C", "D", "E", "F"]));
    match p.parse_move("A") {
        Err(MoveError::Illegal(reason)) => assert!(reason.contains("empty"), "{reason}"),
        other => panic!("expected Illegal, got {other:?}"),
    }
    // North's pit c is empty.
    let p = std4("4-4-4-4-4-4-4-4-0-5-5-5-0-1-N");
    assert!(matches!(p.parse_move("c"), Err(MoveError::Illegal(_))));
}

#[test]
fn pit_outside_the_board_or_not_a_letter_is_refused() {
    let p = Kalah::start(&KalahRules::default());
    // There is no pit G on a 6-pit board.
    assert!(matches!(p.parse_move("G"), Err(MoveError::Illegal(_))));
    // Not a pit letter at all.
    assert!(matches!(p.parse_move("3"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("AB"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move(""), Err(MoveError::Syntax(_))));
}

#[test]
fn sowing_goes_through_own_store_into_opponent_row() {
    // Start, South E: 4 seeds into F (5), South's store (1), a (5), b (5).
    // The last seed is in North's b: no capture, no extra turn.
    let p = Kalah::start(&KalahRules::default());
    let next = play(&p, "E");
    assert_eq!(next.to_notation(), "4-4-4-4-0-5-5-5-4-4-4-4-1-0-N");
}

#[test]
fn opponent_store_is_skipped() {
    // South F with 8 seeds: South's store (18 -> 19), a..f (+1 each), North's
    // store is skipped (stays 19), then A (2 -> 3). A was not empty: no capture.
    let p = std4("2-0-0-0-0-8-0-1-0-0-0-0-18-19-S");
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "3-0-0-0-0-0-1-2-1-1-1-1-19-19-N");

    // North f with 8 seeds: North's store (18 -> 19), A..F (+1 each), South's
    // store is skipped (stays 19), then a (2 -> 3): no capture.
    let p = std4("0-1-0-0-0-0-2-0-0-0-0-8-19-18-N");
    let next = play(&p, "f");
    assert_eq!(next.to_notation(), "1-2-1-1-1-1-3-0-0-0-0-0-19-19-S");
}

#[test]
fn thirteen_seeds_return_to_origin_pit_and_capture() {
    // South C with 13 seeds on the 6-pit board: a lap is 2m+1 = 13 places
    // (D, E, F, South's store, a..f, A, B, C; North's store skipped), so
    // every place gets one seed and the last lands back in C, emptied when
    // the seeds were taken: C holds exactly 1. The opposite pit d holds
    // 3+1 = 4: C's seed and d's 4 go to South's store.
    // After sowing: A1 B2 C1 D1 E3 F1 | store 13 | a2 b1 c3 d4 e1 f2 | 13.
    // After capture: C0, d0, store 13+5 = 18.
    let p = std4("0-1-13-0-2-0-1-0-2-3-0-1-12-13-S");
    let next = play(&p, "C");
    assert_eq!(next.to_notation(), "1-2-0-1-3-1-2-1-3-0-1-2-18-13-N");
    assert_eq!(next.outcome(), None);
}

#[test]
fn origin_pit_not_skipped_on_one_pit_board() {
    // Kalah(1,4): a lap is 3 places (South's store, a, A). South A with 3
    // seeds: store 2->3, a 2->3, A 0->1. A holds one seed opposite a (3):
    // capture 1+3 -> store 7. Both rows are then empty: the game ends,
    // 7 against 1, South wins.
    let p = position("3-2-2-1-S", 4, Capture::Standard);
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-0-7-1-N");
    assert_eq!(next.outcome(), Some(Outcome::by_count(7, 1)));
    assert_eq!(next.outcome().unwrap().result, GameResult::P1Win);
}

#[test]
fn extra_turn_when_last_seed_lands_in_own_store() {
    // Start, South C: 4 seeds into D, E, F and South's store: South again.
    let p = Kalah::start(&KalahRules::default());
    let next = play(&p, "C");
    assert_eq!(next.to_notation(), "4-4-0-5-5-5-4-4-4-4-4-4-1-0-S");
    assert_eq!(next.side_to_move(), Side::South);
    assert_eq!(legal(&next), strs(&["A", "B", "D", "E", "F"]));

    // The same for North: c's 4 seeds go to d, e, f and North's store.
    let p = std4("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N");
    let next = play(&p, "c");
    assert_eq!(next.to_notation(), "4-4-4-4-4-4-4-4-0-5-5-5-0-1-N");
    assert_eq!(next.side_to_move(), Side::North);
}

#[test]
fn extra_turn_chain() {
    // South D3 E2 F1: F (1 seed) -> store; E (2) -> F, store; F (1) -> store;
    // D (3) -> E, F, store. Four sowings in a row, each ending in South's
    // store, so South keeps the move throughout.
    let p = std4("0-0-0-3-2-1-4-4-4-4-4-4-10-8-S");
    let p = play(&p, "F");
    assert_eq!(p.to_notation(), "0-0-0-3-2-0-4-4-4-4-4-4-11-8-S");
    let p = play(&p, "E");
    assert_eq!(p.to_notation(), "0-0-0-3-0-1-4-4-4-4-4-4-12-8-S");
    let p = play(&p, "F");
    assert_eq!(p.to_notation(), "0-0-0-3-0-0-4-4-4-4-4-4-13-8-S");
    let p = play(&p, "D");
    assert_eq!(p.to_notation(), "0-0-0-0-1-1-4-4-4-4-4-4-14-8-S");
    assert_eq!(p.side_to_move(), Side::South);
    assert_eq!(legal(&p), strs(&["E", "F"]));
}

#[test]
fn each_sowing_is_one_move_in_game_records() {
    // Start: South C ends in his store (extra turn), then South F: 5 seeds to
    // store (2), a, b, c, d (5 each); the last is in North's row: North moves.
    // Two sowings, two moves in the record, South moved both.
    let mut record = GameRecord::new(Kalah::start(&KalahRules::default()));
    record.play_text("C").unwrap();
    assert_eq!(record.position().side_to_move(), Side::South);
    record.play_text("F").unwrap();
    assert_eq!(record.moves().len(), 2);
    assert_eq!(record.positions().len(), 3);
    assert_eq!(
        record.position().to_notation(),
        "4-4-0-5-5-0-5-5-5-5-4-4-2-0-N"
    );
    assert_eq!(record.outcome(), None);
    // The last turn is both sowings; North's reply is a turn of its own.
    assert_eq!(record.last_turn_start(), 0);
    record.play_text("a").unwrap();
    assert_eq!(record.last_turn_start(), 2);
    let fresh = GameRecord::new(Kalah::start(&KalahRules::default()));
    assert_eq!(fresh.last_turn_start(), 0);
}

#[test]
fn capture_takes_opposite_pit_and_last_seed() {
    // South B (2 seeds) -> C (1 -> 2), D (0 -> 1). D was empty and faces c
    // (5 seeds): D's seed and c's 5 go to South's store, 17 + 6 = 23.
    let p = std4("1-2-1-0-0-0-2-0-5-0-0-3-17-17-S");
    let next = play(&p, "B");
    assert_eq!(next.to_notation(), "1-0-2-0-0-0-2-0-0-0-0-3-23-17-N");
    assert_eq!(next.side_to_move(), Side::North);

    // North b (1 seed) -> c (0 -> 1); c faces South's D (4): 1+4 go to
    // North's store, 20 + 5 = 25.
    let p = std4("0-0-0-4-0-2-0-1-0-0-3-0-18-20-N");
    let next = play(&p, "b");
    assert_eq!(next.to_notation(), "0-0-0-0-0-2-0-0-0-0-3-0-18-25-S");
    assert_eq!(next.outcome(), None);
}

#[test]
fn no_capture_when_opposite_empty_standard() {
    // South A (1 seed) -> B (0 -> 1). B faces e, which is empty: under the
    // standard rule nothing happens and the seed stays in B.
    let p = std4("1-0-3-0-0-0-2-0-0-0-0-1-20-21-S");
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-1-3-0-0-0-2-0-0-0-0-1-20-21-N");
}

#[test]
fn empty_capture_banks_single_seed() {
    // The same move under the empty-capture rule: the single seed in B is
    // banked although e is empty: South's store 20 -> 21, B emptied.
    let p = position("1-0-3-0-0-0-2-0-0-0-0-1-20-21-S", 4, Capture::Empty);
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-0-3-0-0-0-2-0-0-0-0-1-21-21-N");
    // A real capture is the same under both rules.
    let p = position("1-2-1-0-0-0-2-0-5-0-0-3-17-17-S", 4, Capture::Empty);
    assert_eq!(
        play(&p, "B").to_notation(),
        "1-0-2-0-0-0-2-0-0-0-0-3-23-17-N"
    );
}

#[test]
fn no_capture_when_last_pit_was_not_empty() {
    // South B (2) -> C (1 -> 2), D (2 -> 3): D now holds 3, not exactly one:
    // no capture although c is full, under either capture rule.
    for capture in [Capture::Standard, Capture::Empty] {
        let p = position("1-2-1-2-0-0-2-0-5-0-0-3-16-16-S", 4, capture);
        let next = play(&p, "B");
        assert_eq!(next.to_notation(), "1-0-2-3-0-0-2-0-5-0-0-3-16-16-N");
    }
}

#[test]
fn no_capture_in_opponent_row() {
    // South E (3) -> F (0 -> 1), store (20 -> 21), a (0 -> 1). The last seed
    // makes North's a hold one seed, but a is not South's pit: nothing, under
    // either capture rule.
    for capture in [Capture::Standard, Capture::Empty] {
        let p = position("2-0-0-0-3-0-0-1-0-0-0-0-20-22-S", 4, capture);
        let next = play(&p, "E");
        assert_eq!(next.to_notation(), "2-0-0-0-0-1-1-1-0-0-0-0-21-22-N");
    }
}

#[test]
fn game_ends_when_either_row_empties_even_on_extra_turn() {
    // South's only seed is F: it goes into South's store (20 -> 21), which
    // would earn an extra turn, but South's row is now empty: the game ends
    // at once. North adds his 1+2+3+4 = 10 seeds: 17 + 10 = 27. North wins
    // 27-21. (The side to move is left unchanged, as on any extra turn.)
    let p = std4("0-0-0-0-0-1-1-2-3-0-0-4-20-17-S");
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "0-0-0-0-0-0-0-0-0-0-0-0-21-27-S");
    assert_eq!(next.outcome(), Some(Outcome::by_count(21, 27)));
    assert_eq!(next.outcome().unwrap().result, GameResult::P2Win);
    assert!(legal(&next).is_empty());
    assert_eq!(next.parse_move("A"), Err(MoveError::GameOver));

    // A record refuses further moves too.
    let mut record = GameRecord::new(p);
    record.play_text("F").unwrap();
    assert_eq!(record.outcome(), Some(Outcome::by_count(21, 27)));
    assert_eq!(record.play_text("A"), Err(MoveError::GameOver));
}

#[test]
fn remaining_seeds_go_to_owner_at_end() {
    // South A (1) -> B (0 -> 1), B faces e (3): capture 1+3, store 20 -> 24.
    // North's row is now empty: the game ends; South adds C5 + F2 = 7 to his
    // store (31), North adds nothing (17). South wins 31-17.
    let p = std4("1-0-5-0-0-2-0-0-0-0-3-0-20-17-S");
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-0-0-0-0-0-0-0-0-0-0-0-31-17-N");
    assert_eq!(next.outcome(), Some(Outcome::by_count(31, 17)));
    assert_eq!(next.outcome().unwrap().result, GameResult::P1Win);
    assert!(legal(&next).is_empty());
}

#[test]
fn game_ends_when_movers_own_row_empties() {
    // North f (2) -> North's store (20 -> 21), South's A (3 -> 4). North's row
    // is empty: the game ends, South adds A4 + B3 = 7 (20 -> 27). 27-21.
    let p = std4("3-3-0-0-0-0-0-0-0-0-0-2-20-20-N");
    let next = play(&p, "f");
    assert_eq!(next.to_notation(), "0-0-0-0-0-0-0-0-0-0-0-0-27-21-S");
    assert_eq!(next.outcome(), Some(Outcome::by_count(27, 21)));
    assert_eq!(next.outcome().unwrap().result, GameResult::P1Win);
}

#[test]
fn more_seeds_wins_equal_is_draw() {
    // South F (1) -> store 23 -> 24, South's row empty: game over; North adds
    // his f (1): 23 -> 24. 24-24 is a draw.
    let p = std4("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S");
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S");
    let o = next.outcome().unwrap();
    assert_eq!(o, Outcome::by_count(24, 24));
    assert_eq!(o.result, GameResult::Draw);
    assert_eq!(o.margin_for(Side::South), Some(0));
    // A finished position read from its token is judged the same way.
    let done = std4("0-0-0-0-0-0-0-0-0-0-0-0-25-23-N");
    assert_eq!(done.outcome().unwrap().result, GameResult::P1Win);
    assert_eq!(done.outcome().unwrap().margin_for(Side::North), Some(-2));
}

// ---------------------------------------------------------------- notation

#[test]
fn moves_are_pit_letters_from_own_left_either_case() {
    // South's pits are A..F, North's a..f, each from its owner's left; both
    // cases are accepted on input (only the mover's pits can be meant).
    let p = Kalah::start(&KalahRules::default());
    let upper = p.parse_move("C").unwrap();
    let lower = p.parse_move("c").unwrap();
    assert_eq!(upper, lower);
    assert_eq!(p.format_move(upper), "C");
    assert_eq!(p.play(lower).to_notation(), "4-4-0-5-5-5-4-4-4-4-4-4-1-0-S");

    // North's pit a is the first of the upper row in sowing order (field 7).
    let n = std4("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N");
    let a = n.parse_move("A").unwrap();
    assert_eq!(n.format_move(a), "a");
    // a's 4 seeds go to b, c, d, e.
    assert_eq!(n.play(a).to_notation(), "4-4-4-4-4-4-0-5-5-5-5-4-0-0-S");
}

#[test]
fn notation_round_trips() {
    for text in [
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "1-0-2-0-0-0-2-0-0-0-0-3-23-17-N",
        "0-0-7-1-N",
    ] {
        let p = std4(text);
        assert_eq!(p.to_notation(), text);
        assert_eq!(Kalah::from_notation(&p.rules(), &p.to_notation()), Ok(p));
    }
    // Lower-case side letters are read too; the output is canonical.
    let p = Kalah::from_notation(&KalahRules::default(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-n").unwrap();
    assert_eq!(p.side_to_move(), Side::North);
    assert_eq!(p.to_notation(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N");
}

#[test]
fn bad_notation_errors_name_the_field_and_problem() {
    let rules = KalahRules {
        pits: 2,
        seeds: 4,
        capture: Capture::Standard,
    };
    let err = |text: &str| Kalah::from_notation(&rules, text).unwrap_err().0;

    // Wrong field count: 6 fields cannot be 2m pits + 2 stores + side.
    let e = err("4-4-4-4-0-S");
    assert!(e.contains("6 fields"), "{e}");
    // Too many pits (m = 9).
    let e = err(&format!("{}0-0-S", "1-".repeat(18)));
    assert!(e.contains("21 fields"), "{e}");
    // Not a number.
    let e = err("4-x-4-4-0-0-S");
    assert!(e.contains("field 2") && e.contains("'x'"), "{e}");
    let e = err("4-4-4-4-0-y-S");
    assert!(
        e.contains("field 6") && e.contains("North's store") && e.contains("'y'"),
        "{e}"
    );
    // Empty field.
    let e = err("4--4-4-0-0-S");
    assert!(e.contains("field 2") && e.contains("empty"), "{e}");
    // Seed total: 15 seeds where Kalah(2,4) has 16.
    let e = err("4-4-4-3-0-0-S");
    assert!(e.contains("seed total is 15") && e.contains("16"), "{e}");
    // Missing side.
    let e = err("4-4-4-4-0-0");
    assert!(e.contains("side to move is missing"), "{e}");
    // Unknown side.
    let e = err("4-4-4-4-0-0-X");
    assert!(
        e.contains("field 7") && e.contains("side to move") && e.contains("'X'"),
        "{e}"
    );
    // Empty text and spaces.
    assert!(err("").contains("empty"));
    assert!(err("4-4-4-4-0-0 -S").contains("without spaces"));
}

// ---------------------------------------------------------------- naive model

/// Kalah written seed by seed straight from the rules text, to compare the
/// engine with on many random positions and games (the engine sows with
/// word arithmetic, so laps and ends of rows deserve a second opinion).
#[derive(Clone, Debug)]
struct Naive {
    m: usize,
    pits: [Vec<u32>; 2],
    stores: [u32; 2],
    side: usize,
    empty_capture: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Place {
    Pit(usize, usize),
    Store(usize),
}

impl Naive {
    fn from_engine(p: &Kalah) -> Naive {
        let m = p.rules().pits as usize;
        let row = |s: Side| (0..m).map(|i| p.pit(s, i) as u32).collect::<Vec<_>>();
        Naive {
            m,
            pits: [row(Side::South), row(Side::North)],
            stores: [p.store(Side::South), p.store(Side::North)],
            side: p.side_to_move().index(),
            empty_capture: p.rules().capture == Capture::Empty,
        }
    }

    fn over(&self) -> bool {
        self.pits.iter().any(|r| r.iter().all(|&v| v == 0))
    }

    fn next(&self, p: Place) -> Place {
        match p {
            Place::Pit(r, j) if j + 1 < self.m => Place::Pit(r, j + 1),
            Place::Pit(r, _) => Place::Store(r),
            Place::Store(r) => Place::Pit(1 - r, 0),
        }
    }

    fn play(&mut self, i: usize) {
        let s = self.side;
        let mut seeds = std::mem::take(&mut self.pits[s][i]);
        let mut place = Place::Pit(s, i);
        while seeds > 0 {
            place = self.next(place);
            match place {
                Place::Store(r) if r != s => continue, // the opponent's store
                Place::Store(r) => self.stores[r] += 1,
                Place::Pit(r, j) => self.pits[r][j] += 1,
            }
            seeds -= 1;
        }
        let extra = place == Place::Store(s);
        if let Place::Pit(r, j) = place
            && r == s
            && self.pits[s][j] == 1
        {
            let facing = self.m - 1 - j;
            let taken = self.pits[1 - s][facing];
            if taken > 0 || self.empty_capture {
                self.stores[s] += taken + 1;
                self.pits[s][j] = 0;
                self.pits[1 - s][facing] = 0;
            }
        }
        if self.over() {
            for r in 0..2 {
                self.stores[r] += self.pits[r].iter().sum::<u32>();
                self.pits[r].iter_mut().for_each(|v| *v = 0);
            }
        }
        if !extra {
            self.side = 1 - s;
        }
    }
}

impl Model for Naive {
    fn legal(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (0..self.m)
            .filter(|&i| self.pits[self.side][i] > 0)
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over().then(|| {
            let own = |r: usize| self.stores[r] + self.pits[r].iter().sum::<u32>();
            Outcome::by_count(own(0), own(1))
        })
    }

    fn notation(&self) -> String {
        let mut f: Vec<String> = self.pits[0]
            .iter()
            .chain(&self.pits[1])
            .chain(&self.stores)
            .map(|v| v.to_string())
            .collect();
        f.push(if self.side == 0 { "S" } else { "N" }.to_string());
        f.join("-")
    }

    fn pits(&self) -> usize {
        self.m
    }

    fn play(&mut self, i: usize) {
        Naive::play(self, i)
    }
}

/// A random position of Kalah(m,n): the 2mn seeds spread over the pits and
/// stores, sometimes with a large heap in one pit (long laps).
fn random_position(rng: &mut Rng, rules: &KalahRules) -> Kalah {
    let m = rules.pits as usize;
    let text = random_token(rng, m, 2 * m * rules.seeds as usize, 4);
    Kalah::from_notation(rules, &text).unwrap()
}

#[test]
fn engine_agrees_with_seed_by_seed_rules_on_random_games() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    // Fewer games in unoptimised builds, where the naive model is slow.
    let games = if cfg!(debug_assertions) { 4 } else { 12 };
    for m in 1..=8u8 {
        for n in 1..=15u8 {
            for capture in [Capture::Standard, Capture::Empty] {
                let rules = KalahRules {
                    pits: m,
                    seeds: n,
                    capture,
                };
                for game in 0..games {
                    let engine = if game < 2 {
                        Kalah::start(&rules)
                    } else {
                        random_position(&mut rng, &rules)
                    };
                    let naive = Naive::from_engine(&engine);
                    let label = format!("Kalah({m},{n}) {capture:?}");
                    random_game(engine, naive, &mut rng, 400, &label);
                }
            }
        }
    }
}

#[test]
fn long_sowing_laps_the_board_and_skips_the_opponent_store_each_time() {
    // South D with 24 seeds: one lap of 13 places (E, F, store, a..f, A, B,
    // C, D; North's store skipped) puts one seed everywhere, the 11 left go
    // to E, F, store, a..f, A, B. Before: A0 B0 C1 D24 E0 F0, a1 b0 c0 d2
    // e0 f0, stores 10-10. After: A2 B2 C2 D1 E2 F2, store 12, a3 b2 c2 d4
    // e2 f2, North's store 10. The last seed is in B, now 2: no capture.
    let p = std4("0-0-1-24-0-0-1-0-0-2-0-0-10-10-S");
    assert_eq!(
        play(&p, "D").to_notation(),
        "2-2-2-1-2-2-3-2-2-4-2-2-12-10-N"
    );
    // The mirror image for North.
    let p = std4("1-0-0-2-0-0-0-0-1-24-0-0-10-10-N");
    assert_eq!(
        play(&p, "d").to_notation(),
        "3-2-2-4-2-2-2-2-2-1-2-2-10-12-S"
    );
    // South F with 14 seeds: one lap (store, a..f, A..F) and one more seed
    // into the store: an extra turn. A1 -> 2, B..E 0 -> 1, F 0 -> 1, store
    // 13 + 2 = 15, a..f 1 -> 2, North's store 14.
    let p = std4("1-0-0-0-0-14-1-1-1-1-1-1-13-14-S");
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "2-1-1-1-1-1-2-2-2-2-2-2-15-14-S");
    assert_eq!(next.side_to_move(), Side::South);
}
