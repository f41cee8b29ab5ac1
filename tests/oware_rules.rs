//! One test per rule of `shared/rules/oware.md`. Every expected position is
//! worked out by hand from the rules text in the comment above its assertion.
//!
//! Notation reminder: `A-B-C-D-E-F-a-b-c-d-e-f-capturedS-capturedN-side` on
//! the 6-house board: South's row from South's left, then North's row from
//! North's left, which is the sowing order (F is followed by a, f by A).

use kete::game::{Game, GameRecord, GameResult, MoveError, Outcome, Side};
use kete::variants::oware::{Oware, OwareRules, Repetition, RuleSet};

mod common;
use common::rng::Rng;
use common::two_row::{Model, random_game, random_token};

fn rules_for(text: &str, seeds: u8, rules: RuleSet, repetition: Repetition) -> OwareRules {
    let houses = ((text.split('-').count() - 3) / 2) as u8;
    OwareRules {
        houses,
        seeds,
        rules,
        repetition,
    }
}

fn position(text: &str, seeds: u8, rules: RuleSet, repetition: Repetition) -> Oware {
    let r = rules_for(text, seeds, rules, repetition);
    let p = Oware::from_notation(&r, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(p.to_notation(), text, "the token reads back as written");
    p
}

/// A 6-house position with 4 seeds per house (48 seeds), Awari rules.
fn awari(text: &str) -> Oware {
    position(text, 4, RuleSet::Awari, Repetition::OwnSide)
}

/// The same under the Abapa rules.
fn abapa(text: &str) -> Oware {
    position(text, 4, RuleSet::Abapa, Repetition::OwnSide)
}

fn play(p: &Oware, mv: &str) -> Oware {
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", p.to_notation()));
    p.play(m)
}

/// The legal moves as letters, sorted.
fn legal(p: &Oware) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(p.count_legal_moves(), moves.len());
    let mut v: Vec<String> = moves.iter().map(|&m| p.format_move(m)).collect();
    v.sort();
    v
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn illegal_reason(p: &Oware, mv: &str) -> String {
    match p.parse_move(mv) {
        Err(MoveError::Illegal(reason)) => reason,
        other => panic!(
            "{mv} in {}: expected Illegal, got {other:?}",
            p.to_notation()
        ),
    }
}

// ---------------------------------------------------------------- board and start

#[test]
fn start_is_four_seeds_in_twelve_houses_south_to_move() {
    // 6 houses a side, 4 seeds each (48), nothing captured, South first.
    let rules = OwareRules::default();
    assert_eq!(
        rules,
        OwareRules {
            houses: 6,
            seeds: 4,
            rules: RuleSet::Awari,
            repetition: Repetition::OwnSide
        }
    );
    let p = Oware::start(&rules);
    assert_eq!(p.to_notation(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    assert_eq!(p.side_to_move(), Side::South);
    assert_eq!(p.outcome(), None);
    assert_eq!(legal(&p), strs(&["A", "B", "C", "D", "E", "F"]));
}

#[test]
fn small_boards_selectable() {
    // Any size 1..8 houses x 1..8 seeds: the start has the seeds in every
    // house, and South may play each of his houses, with one exception: on
    // the 2x2 board B (2 seeds) sows a and b, both 2 -> 3, and would take
    // all 6 of North's seeds: a grand slam, refused under Awari while A
    // (B, a: a 3 taken, b keeps 2) leaves him seeds. (On 1x1 the only move
    // is a grand slam too, but it is forced, so it is legal.)
    for houses in 1..=8u8 {
        for seeds in 1..=8u8 {
            for rs in [RuleSet::Awari, RuleSet::Abapa] {
                let rules = OwareRules {
                    houses,
                    seeds,
                    rules: rs,
                    repetition: Repetition::OwnSide,
                };
                let p = Oware::start(&rules);
                let mut expected: Vec<String> = vec![seeds.to_string(); 2 * houses as usize];
                expected.extend(["0".into(), "0".into(), "S".into()]);
                assert_eq!(p.to_notation(), expected.join("-"));
                assert_eq!(p.rules(), rules);
                let mut letters: Vec<String> = (0..houses)
                    .map(|i| ((b'A' + i) as char).to_string())
                    .collect();
                if (houses, seeds, rs) == (2, 2, RuleSet::Awari) {
                    letters = strs(&["A"]);
                }
                assert_eq!(legal(&p), letters, "{houses}x{seeds}");
                assert_eq!(Oware::from_notation(&rules, &p.to_notation()), Ok(p));
            }
        }
    }

    // A game on the 1x2 board (4 seeds). A lap is one house (the origin is
    // skipped), so:
    // "2-2-0-0-S": South A sows a, a (origin skipped): a = 4, no capture.
    // "0-4-0-0-N": North a sows A four times: A = 4 (no capture at 4).
    // "4-0-0-0-S": South A sows a four times: "0-4-0-0-N" again: repetition;
    // each takes his own side: South 0, North 4.
    let start = position("2-2-0-0-S", 2, RuleSet::Awari, Repetition::OwnSide);
    let mut record = GameRecord::new(start);
    record.play_text("A").unwrap();
    assert_eq!(record.position().to_notation(), "0-4-0-0-N");
    record.play_text("a").unwrap();
    assert_eq!(record.position().to_notation(), "4-0-0-0-S");
    assert_eq!(record.outcome(), None);
    record.play_text("A").unwrap();
    assert_eq!(record.position().to_notation(), "0-4-0-0-N");
    assert_eq!(record.outcome(), Some(Outcome::by_count(0, 4)));
}

#[test]
fn south_house_i_faces_north_house_seven_minus_i() {
    // The diagram puts North's house 7-i straight above South's house i.
    let p = Oware::start(&OwareRules::default());
    let d = p.diagram();
    let lines: Vec<&str> = d.lines().collect();
    let top = lines[0];
    let bottom = lines[4];
    for i in 0..6u8 {
        let south = (b'A' + i) as char;
        let north = (b'a' + (5 - i)) as char;
        assert_eq!(
            top.find(north),
            bottom.find(south),
            "{south} faces {north}\n{d}"
        );
    }
}

// ---------------------------------------------------------------- a move

#[test]
fn sowing_goes_counter_clockwise_round_both_rows_never_into_stores() {
    // Start, South F: 4 seeds into a, b, c, d (5 each); no store is sown.
    let p = Oware::start(&OwareRules::default());
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
    assert_eq!(next.side_to_move(), Side::North);

    // South F with 7 seeds: a..f (1 -> 2 each), then round to A (1 -> 2), the
    // last seed in South's own row: no capture, stores untouched.
    let p = awari("1-0-0-0-0-7-1-1-1-1-1-1-17-17-S");
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "2-0-0-0-0-0-2-2-2-2-2-2-17-17-N");

    // North f with 3 seeds: A, B, C (South's row follows North's f).
    let p = awari("0-0-0-0-0-4-1-0-0-0-0-3-18-22-N");
    let next = play(&p, "f");
    assert_eq!(next.to_notation(), "1-1-1-0-0-4-1-0-0-0-0-0-18-22-S");
}

#[test]
fn origin_house_skipped_on_long_laps() {
    // South A with 12 seeds: B..F (5), a..f (6), A is skipped, B (12th).
    // B gets 2, C..F 1, a..f 1 each (-> 2). A stays empty. The last seed is in
    // South's own B: no capture.
    let p = awari("12-0-0-0-0-0-1-1-1-1-1-1-15-15-S");
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-2-1-1-1-1-2-2-2-2-2-2-15-15-N");

    // South A with 17 seeds: B..F, a..f (11), skip A, B..F (16), a (17).
    // B..F get 2 each, a gets 2 (0 -> 2), b..f get 1 (b 2, c 6, d 1, e 1,
    // f 1). The last seed makes a hold 2: captured (14). The house sown
    // before a is South's F: the chain stops.
    let p = awari("17-0-0-0-0-0-0-1-5-0-0-0-12-13-S");
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-2-2-2-2-2-0-2-6-1-1-1-14-13-N");

    // 2 houses a side (8 seeds): the ring is A B a b, a lap skipping the
    // origin is 3 houses. South A with 4 seeds: B, a, b, (A skipped) B.
    // B 0+2 = 2, a 1+1 = 2, b 1+1 = 2; the last seed is in South's own B:
    // no capture.
    let p = position("4-0-1-1-1-1-S", 2, RuleSet::Awari, Repetition::OwnSide);
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-2-2-2-1-1-N");
}

#[test]
fn exact_lap_ends_before_the_origin_and_captures() {
    // South A with 11 seeds: exactly one lap of the 11 other houses (B..F,
    // a..f), so the last seed is in f. North's a1 b1 c3 d1 e2 f1 become
    // 2 2 4 2 3 2: f (2), e (3), d (2) are taken, c (4) stops the chain:
    // 7 seeds, 14 -> 21. B..F hold 1 each, A stays empty.
    let p = awari("11-0-0-0-0-0-1-1-3-1-2-1-14-14-S");
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-1-1-1-1-1-2-2-4-0-0-0-21-14-N");
}

#[test]
fn capture_when_last_seed_makes_two_or_three() {
    // South E (2) -> F (0 -> 1), a (1 -> 2): a holds 2, captured (19 -> 21).
    // The house sown before a is South's F: the chain stops there.
    let p = awari("4-0-0-0-2-0-1-0-3-0-0-0-19-19-S");
    let next = play(&p, "E");
    assert_eq!(next.to_notation(), "4-0-0-0-0-1-0-0-3-0-0-0-21-19-N");

    // The same with a (2 -> 3): 3 captured (19 -> 22).
    let p = awari("4-0-0-0-2-0-2-0-3-0-0-0-19-18-S");
    let next = play(&p, "E");
    assert_eq!(next.to_notation(), "4-0-0-0-0-1-0-0-3-0-0-0-22-18-N");
}

#[test]
fn no_capture_when_last_house_holds_one_or_four() {
    // a 0 -> 1: not 2 or 3, nothing taken.
    let p = awari("4-0-0-0-2-0-0-0-3-0-0-0-20-19-S");
    let next = play(&p, "E");
    assert_eq!(next.to_notation(), "4-0-0-0-0-1-1-0-3-0-0-0-20-19-N");
    // a 3 -> 4: nothing taken.
    let p = awari("4-0-0-0-2-0-3-0-3-0-0-0-18-18-S");
    let next = play(&p, "E");
    assert_eq!(next.to_notation(), "4-0-0-0-0-1-4-0-3-0-0-0-18-18-N");
}

#[test]
fn capture_chain_stops_at_non_two_or_three() {
    // South F (4) -> a (0 -> 1), b (2 -> 3), c (1 -> 2), d (1 -> 2). The last
    // house d holds 2: taken; before it c (2): taken; b (3): taken; a (1):
    // the chain stops. 2+2+3 = 7 -> 13 + 7 = 20. e (2) comes after the last
    // house and is not looked at.
    let p = awari("5-3-0-0-0-4-0-2-1-1-2-4-13-13-S");
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "5-3-0-0-0-0-1-0-0-0-2-4-20-13-N");

    // A house holding 4 stops it too: F (3) -> a (1 -> 2), b (3 -> 4),
    // c (1 -> 2): c taken (2), b holds 4: stop. a (2) is not taken.
    // 13 + 2 = 15.
    let p = awari("5-3-0-0-0-3-1-3-1-0-2-4-13-13-S");
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "5-3-0-0-0-0-2-4-0-0-2-4-15-13-N");
}

#[test]
fn capture_chain_stops_at_end_of_opponent_row() {
    // South E (4) -> F (1 -> 2), a (1 -> 2), b (2 -> 3), c (1 -> 2). c, b and
    // a are taken (7: 14 -> 21). The house sown before a is South's own F,
    // holding 2: the chain has reached the end of North's row and stops.
    let p = awari("3-2-0-0-4-1-1-2-1-0-0-5-14-15-S");
    let next = play(&p, "E");
    assert_eq!(next.to_notation(), "3-2-0-0-0-2-0-0-0-0-0-5-21-15-N");

    // North e (3) -> f (1 -> 2), A (1 -> 2), B (2 -> 3): B and A taken
    // (5: 18 -> 23); before A is North's own f (2): stop.
    let p = awari("1-2-4-0-0-0-2-0-0-0-3-1-17-18-N");
    let next = play(&p, "e");
    assert_eq!(next.to_notation(), "0-0-4-0-0-0-2-0-0-0-0-2-17-23-S");
}

#[test]
fn no_capture_in_own_row() {
    // South A (2) -> B (0 -> 1), C (1 -> 2): C holds 2 but is South's own.
    let p = awari("2-0-1-0-0-0-1-1-1-1-1-1-19-20-S");
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-1-2-0-0-0-1-1-1-1-1-1-19-20-N");
    // North a (2) -> b (1 -> 2), c (2 -> 3): North's own houses.
    let p = awari("1-1-1-1-1-1-2-1-2-0-0-0-19-18-N");
    let next = play(&p, "a");
    assert_eq!(next.to_notation(), "1-1-1-1-1-1-0-2-3-0-0-0-19-18-S");
}

// ------------------------------------------- you may not leave the opponent without seeds

#[test]
fn starving_move_refused_while_feeding_move_exists() {
    // North has nothing. South A (1) -> B does not reach him; F (1) -> a
    // does: only F is legal.
    let p = awari("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S");
    assert_eq!(legal(&p), strs(&["F"]));
    let reason = illegal_reason(&p, "A");
    assert!(reason.contains("without seeds"), "{reason}");
    // F: a 0 -> 1, no capture.
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "1-0-0-0-0-0-1-0-0-0-0-0-23-23-N");
    assert_eq!(next.outcome(), None);
}

#[test]
fn grand_slam_refused_while_another_move_exists() {
    // North has a1 b1. South F (2) -> a 2, b 2: both taken would leave North
    // nothing (grand slam). South A (1) -> B leaves him his seeds: only A.
    let p = awari("1-0-0-0-0-2-1-1-0-0-0-0-21-22-S");
    assert_eq!(legal(&p), strs(&["A"]));
    let reason = illegal_reason(&p, "F");
    assert!(reason.contains("grand slam"), "{reason}");
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-1-0-0-0-2-1-1-0-0-0-0-21-22-N");
}

#[test]
fn forced_starving_move_ends_game_and_mover_takes_remaining() {
    // North has nothing; neither A (1 -> B) nor B (1 -> C) reaches him.
    // Every move starves him, so both are legal; after either, North cannot
    // move and the 2 seeds left go to South: 23 + 2 = 25 against 23.
    let p = awari("1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
    assert_eq!(legal(&p), strs(&["A", "B"]));
    for mv in ["A", "B"] {
        let next = play(&p, mv);
        assert_eq!(next.to_notation(), "0-0-0-0-0-0-0-0-0-0-0-0-25-23-N");
        assert_eq!(next.outcome(), Some(Outcome::by_count(25, 23)));
        assert!(legal(&next).is_empty());
    }
}

#[test]
fn forced_grand_slam_captures_and_mover_takes_remaining() {
    // North has a1 b1. South E (3) -> F 3, a 2, b 2; F (2) -> a 2, b 2. Both
    // take b and a (4) and leave North nothing: both legal, as there is no
    // other move. The capture stands (20 + 4 = 24) and the seeds left (F 3
    // after E, E 3 after F) go to South: 27 against 21.
    let p = awari("0-0-0-0-3-2-1-1-0-0-0-0-20-21-S");
    assert_eq!(legal(&p), strs(&["E", "F"]));
    for mv in ["E", "F"] {
        let next = play(&p, mv);
        assert_eq!(next.to_notation(), "0-0-0-0-0-0-0-0-0-0-0-0-27-21-N");
        assert_eq!(next.outcome(), Some(Outcome::by_count(27, 21)));
        assert_eq!(next.outcome().unwrap().result, GameResult::P1Win);
    }
}

#[test]
fn forced_grand_slam_after_a_lap_captures_and_mover_takes_remaining() {
    // North has nothing. A (1) -> B does not reach him; F (17) puts 2 in each
    // of his houses and takes them all (see abapa_grand_slam_into_an_empty_
    // row_feeds_him). Both leave him empty, so both are legal under Awari.
    // F: 12 taken (15 -> 27), then the seeds left (A 2, B..E 1: 6) go to
    // South: 33. A: North cannot move, South takes all 18 left: 33.
    let p = awari("1-0-0-0-0-17-0-0-0-0-0-0-15-15-S");
    assert_eq!(p.outcome(), None);
    assert_eq!(legal(&p), strs(&["A", "F"]));
    for mv in ["A", "F"] {
        let next = play(&p, mv);
        assert_eq!(next.to_notation(), "0-0-0-0-0-0-0-0-0-0-0-0-33-15-N");
        assert_eq!(next.outcome(), Some(Outcome::by_count(33, 15)));
    }
}

// ---------------------------------------------------------------- end of the game

#[test]
fn game_ends_at_25() {
    // South E (2) -> F (0 -> 1), a (2 -> 3): 3 taken, 22 -> 25: more than
    // half of 48, South has won although seeds are left on the board.
    let p = awari("3-0-0-0-2-0-2-0-4-0-0-2-22-13-S");
    assert_eq!(p.outcome(), None);
    let next = play(&p, "E");
    assert_eq!(next.to_notation(), "3-0-0-0-0-1-0-0-4-0-0-2-25-13-N");
    let o = next.outcome().expect("25 of 48 ends the game");
    assert_eq!(o.result, GameResult::P1Win);
    assert_eq!(o, Outcome::by_count(25, 13));
    assert!(legal(&next).is_empty());
    assert_eq!(next.parse_move("a"), Err(MoveError::GameOver));

    // 24 is not more than half: the game goes on.
    let p = awari("3-0-0-0-0-1-0-0-4-0-0-2-24-14-N");
    assert_eq!(p.outcome(), None);
    // The same for North: 25 ends it.
    let p = awari("3-0-0-0-0-1-0-0-4-0-0-2-13-25-S");
    assert_eq!(p.outcome(), Some(Outcome::by_count(13, 25)));
}

#[test]
fn draw_at_24_24() {
    // South F (1) -> a (1 -> 2): taken (22 -> 24). It is a grand slam, but
    // forced (South has no other move), so it stands, and the seeds left (0)
    // go to South. 24-24 with nothing left: a draw.
    let p = awari("0-0-0-0-0-1-1-0-0-0-0-0-22-24-S");
    assert_eq!(p.outcome(), None);
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "0-0-0-0-0-0-0-0-0-0-0-0-24-24-N");
    let o = next.outcome().unwrap();
    assert_eq!(o, Outcome::by_count(24, 24));
    assert_eq!(o.result, GameResult::Draw);
}

#[test]
fn side_to_move_without_seeds_ends_game() {
    // North to move has no seeds: he cannot move, and the seeds left (2) go
    // to South, who moved last: 25-23.
    let p = awari("1-1-0-0-0-0-0-0-0-0-0-0-23-23-N");
    assert_eq!(p.outcome(), Some(Outcome::by_count(25, 23)));
    assert!(legal(&p).is_empty());
    assert_eq!(p.parse_move("a"), Err(MoveError::GameOver));
    // South to move has no seeds: North's 3 go to North: 22 - 26.
    let p = awari("0-0-0-0-0-0-2-1-0-0-0-0-22-23-S");
    assert_eq!(p.outcome(), Some(Outcome::by_count(22, 26)));
    assert_eq!(p.outcome().unwrap().result, GameResult::P2Win);
}

/// A cycle on the 2x1 board (2 houses a side, 4 seeds, 1 in each store):
/// "0-0-1-1-1-1-N": North's a would stay in his row and leave South without
/// seeds while b feeds him, so b -> A: "1-0-1-0-1-1-S"; South A -> B:
/// "0-1-1-0-1-1-N"; North a -> b: "0-1-0-1-1-1-S"; South B -> a (0 -> 1, no
/// capture): "0-0-1-1-1-1-N", the first position again (board, stores and
/// side to move).
fn cycle(rules: RuleSet, repetition: Repetition) -> GameRecord<Oware> {
    let start = position("0-0-1-1-1-1-N", 1, rules, repetition);
    assert_eq!(legal(&start), strs(&["b"]));
    let mut record = GameRecord::new(start);
    let expected = [
        ("b", "1-0-1-0-1-1-S"),
        ("A", "0-1-1-0-1-1-N"),
        ("a", "0-1-0-1-1-1-S"),
        ("B", "0-0-1-1-1-1-N"),
    ];
    for (i, (mv, after)) in expected.iter().enumerate() {
        assert_eq!(record.outcome(), None, "before move {}", i + 1);
        record.play_text(mv).unwrap();
        assert_eq!(record.position().to_notation(), *after);
        assert_eq!(record.position().outcome(), None);
    }
    record
}

#[test]
fn repetition_own_side_each_takes_own_seeds() {
    // On the repeat the game ends; each takes the seeds on his side: South
    // 1 + 0, North 1 + (a1 + b1) = 3. North wins 1-3.
    let mut record = cycle(RuleSet::Awari, Repetition::OwnSide);
    assert_eq!(record.outcome(), Some(Outcome::by_count(1, 3)));
    assert_eq!(record.outcome().unwrap().result, GameResult::P2Win);
    let mut moves = Vec::new();
    record.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(record.play_text("b"), Err(MoveError::GameOver));
}

#[test]
fn repetition_split_divides_remaining() {
    // The 2 seeds left are divided equally: 1 + 1 each, 2-2, a draw.
    let record = cycle(RuleSet::Awari, Repetition::Split);
    assert_eq!(record.outcome(), Some(Outcome::by_count(2, 2)));
    assert_eq!(record.outcome().unwrap().result, GameResult::Draw);
}

// ---------------------------------------------------------------- abapa

#[test]
fn abapa_grand_slam_captures_nothing() {
    // North has a1 b1. South F (2) -> a 2, b 2 would take all he has: under
    // Abapa it is legal but takes nothing. A is legal too.
    let p = abapa("1-0-0-0-0-2-1-1-0-0-0-0-21-22-S");
    assert_eq!(legal(&p), strs(&["A", "F"]));
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "1-0-0-0-0-0-2-2-0-0-0-0-21-22-N");
    assert_eq!(next.outcome(), None);

    // Where every move is a grand slam (E: F 3, a 2, b 2; F: a 2, b 2), both
    // are played without capturing and the game goes on.
    let p = abapa("0-0-0-0-3-2-1-1-0-0-0-0-20-21-S");
    assert_eq!(legal(&p), strs(&["E", "F"]));
    let next = play(&p, "E");
    assert_eq!(next.to_notation(), "0-0-0-0-0-3-2-2-0-0-0-0-20-21-N");
    assert_eq!(next.outcome(), None);

    // A capture that leaves him seeds is an ordinary capture under Abapa.
    let p = abapa("5-3-0-0-0-4-0-2-1-1-2-4-13-13-S");
    assert_eq!(
        play(&p, "F").to_notation(),
        "5-3-0-0-0-0-1-0-0-0-2-4-20-13-N"
    );
}

#[test]
fn abapa_must_feed_opponent_without_seeds() {
    // North has nothing: South must give him some. F reaches a; A does not.
    let p = abapa("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S");
    assert_eq!(legal(&p), strs(&["F"]));
    assert!(matches!(p.parse_move("A"), Err(MoveError::Illegal(_))));
    assert_eq!(
        play(&p, "F").to_notation(),
        "1-0-0-0-0-0-1-0-0-0-0-0-23-23-N"
    );
}

#[test]
fn abapa_must_feed_else_game_ends_and_mover_takes_all() {
    // North has nothing and neither A nor B reaches him: the game ends, and
    // the player to move (South) takes the 2 seeds left: 25-23.
    let p = abapa("1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
    assert_eq!(p.outcome(), Some(Outcome::by_count(25, 23)));
    assert!(legal(&p).is_empty());
    assert_eq!(p.parse_move("A"), Err(MoveError::GameOver));
    // The same for North: South has nothing; North's a (1) -> b and b (2)
    // -> c, d stay in his row. North, to move, takes the 3 seeds left:
    // 21 + 3 = 24 against South's 24, a draw.
    let p = abapa("0-0-0-0-0-0-1-2-0-0-0-0-24-21-N");
    assert_eq!(p.outcome(), Some(Outcome::by_count(24, 24)));
    assert_eq!(p.outcome().unwrap().result, GameResult::Draw);
}

#[test]
fn abapa_grand_slam_into_an_empty_row_feeds_him() {
    // North has nothing. South A (1) -> B does not reach him. South F (17):
    // a..f (6), A..E (5), F skipped, a..f again (6): every North house holds
    // 2 and the last seed is in f, so the chain f..a would take all 12, a
    // grand slam. Under Abapa it captures nothing, so F gives North 12 seeds:
    // South can feed him, the game goes on, and F is the only legal move.
    // After F: A 2, B..E 1, F 0, a..f 2, stores unchanged.
    let p = abapa("1-0-0-0-0-17-0-0-0-0-0-0-15-15-S");
    assert_eq!(p.outcome(), None, "F feeds North, so the game is not over");
    assert_eq!(legal(&p), strs(&["F"]));
    assert!(matches!(p.parse_move("A"), Err(MoveError::Illegal(_))));
    let next = play(&p, "F");
    assert_eq!(next.to_notation(), "2-1-1-1-1-0-2-2-2-2-2-2-15-15-N");
    assert_eq!(next.outcome(), None);

    // The smallest case, 1x1: South A (1) -> a (2) would take all North has:
    // captures nothing. "0-2-0-0-N": North's a (2) -> A, A (his own house is
    // skipped): South's A holds 2, all South has: again nothing is taken,
    // and it feeds South, so North must play it: "2-0-0-0-S".
    let p = position("1-1-0-0-S", 1, RuleSet::Abapa, Repetition::OwnSide);
    let next = play(&p, "A");
    assert_eq!(next.to_notation(), "0-2-0-0-N");
    assert_eq!(next.outcome(), None);
    assert_eq!(legal(&next), strs(&["a"]));
    assert_eq!(play(&next, "a").to_notation(), "2-0-0-0-S");
}

#[test]
fn abapa_repetition_as_default() {
    // The 2x1 cycle is the same under Abapa (North's a is refused: it leaves
    // South without seeds while b feeds him), and the repetition ends the
    // game with each taking his own side: 1-3.
    let record = cycle(RuleSet::Abapa, Repetition::OwnSide);
    assert_eq!(record.outcome(), Some(Outcome::by_count(1, 3)));
}

// ---------------------------------------------------------------- notation and errors

#[test]
fn moves_are_house_letters_from_owners_left_either_case() {
    let p = Oware::start(&OwareRules::default());
    let upper = p.parse_move("D").unwrap();
    assert_eq!(p.parse_move("d").unwrap(), upper);
    assert_eq!(p.format_move(upper), "D");
    // D's 4 seeds: E, F, a, b.
    assert_eq!(p.play(upper).to_notation(), "4-4-4-0-5-5-5-5-4-4-4-4-0-0-N");
    // North's a is the first house of his row from his own left (field 7).
    let n = awari("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N");
    let a = n.parse_move("A").unwrap();
    assert_eq!(n.format_move(a), "a");
    assert_eq!(n.play(a).to_notation(), "4-4-4-4-4-4-0-5-5-5-5-4-0-0-S");
}

#[test]
fn illegal_moves_give_reasons() {
    // Empty house.
    let p = awari("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S");
    let reason = illegal_reason(&p, "B");
    assert!(reason.contains("empty"), "{reason}");
    // Starving move (see starving_move_refused_while_feeding_move_exists).
    assert!(illegal_reason(&p, "A").contains("without seeds"));
    // Grand slam while another move exists.
    let p = awari("1-0-0-0-0-2-1-1-0-0-0-0-21-22-S");
    assert!(illegal_reason(&p, "F").contains("grand slam"));
    // No such house.
    let p = Oware::start(&OwareRules::default());
    assert!(matches!(p.parse_move("G"), Err(MoveError::Illegal(_))));
    // Not a house letter.
    assert!(matches!(p.parse_move("1"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("AB"), Err(MoveError::Syntax(_))));
}

#[test]
fn notation_round_trips() {
    for text in [
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "5-3-0-0-0-0-1-0-0-0-2-4-20-13-N",
        "0-0-0-0-0-0-0-0-0-0-0-0-24-24-N",
    ] {
        let p = awari(text);
        assert_eq!(Oware::from_notation(&p.rules(), &p.to_notation()), Ok(p));
    }
}

#[test]
fn bad_notation_errors_name_the_field_and_problem() {
    let rules = OwareRules {
        houses: 2,
        ..OwareRules::default()
    };
    let err = |text: &str| Oware::from_notation(&rules, text).unwrap_err().0;

    // Wrong field count.
    let e = err("4-4-4-4-0-S");
    assert!(e.contains("6 fields"), "{e}");
    let e = err("4-4-4-4-4-4-4-4-4-4-4-4-0-S");
    assert!(e.contains("14 fields"), "{e}");
    // Not a number.
    let e = err("4-4-4-x-0-0-S");
    assert!(e.contains("field 4") && e.contains("'x'"), "{e}");
    let e = err("4-4-4-4-z-0-S");
    assert!(
        e.contains("field 5") && e.contains("South's store") && e.contains("'z'"),
        "{e}"
    );
    // Seed total: 17 where 2 houses x 4 seeds x 2 rows is 16.
    let e = err("4-4-4-4-1-0-S");
    assert!(e.contains("seed total is 17") && e.contains("16"), "{e}");
    // The 6x4 start under a 2-house rules value is accepted at its own size,
    // but not with the wrong Seeds option.
    let five = OwareRules {
        seeds: 5,
        ..OwareRules::default()
    };
    let e = Oware::from_notation(&five, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
        .unwrap_err()
        .0;
    assert!(e.contains("seed total is 48") && e.contains("60"), "{e}");
    // Missing side.
    let e = err("4-4-4-4-0-0");
    assert!(e.contains("side to move is missing"), "{e}");
    // Unknown side.
    let e = err("4-4-4-4-0-0-W");
    assert!(e.contains("field 7") && e.contains("'W'"), "{e}");
    assert!(err("").contains("empty"));
}

// ---------------------------------------------------------------- naive model

/// Oware written seed by seed straight from the rules text, to compare the
/// engine with on many random positions and games.
#[derive(Clone, Debug)]
struct Naive {
    m: usize,
    /// The houses in sowing order: South's 0..m, North's m..2m.
    board: Vec<u32>,
    stores: [u32; 2],
    side: usize,
    abapa: bool,
    half: u32,
}

struct Sowing {
    board: Vec<u32>,
    taken: u32,
    /// The opponent's row is empty after the move (captures as asked).
    starves: bool,
}

impl Naive {
    fn from_engine(p: &Oware) -> Naive {
        let r = p.rules();
        let m = r.houses as usize;
        let mut board: Vec<u32> = (0..m).map(|i| p.house(Side::South, i) as u32).collect();
        board.extend((0..m).map(|i| p.house(Side::North, i) as u32));
        Naive {
            m,
            board,
            stores: [p.store(Side::South), p.store(Side::North)],
            side: p.side_to_move().index(),
            abapa: r.rules == RuleSet::Abapa,
            half: r.houses as u32 * r.seeds as u32,
        }
    }

    fn row(&self, board: &[u32], side: usize) -> u32 {
        board[side * self.m..(side + 1) * self.m].iter().sum()
    }

    fn in_row(&self, side: usize, h: usize) -> bool {
        h / self.m == side
    }

    /// Sows from the mover's house `i`; captures are made unless
    /// `void_grand_slam` and they would take all the opponent has.
    fn sow(&self, i: usize, void_grand_slam: bool) -> Sowing {
        let s = self.side;
        let mut b = self.board.clone();
        let origin = s * self.m + i;
        let mut seeds = std::mem::take(&mut b[origin]);
        let mut h = origin;
        while seeds > 0 {
            h = (h + 1) % (2 * self.m);
            if h == origin {
                continue;
            }
            b[h] += 1;
            seeds -= 1;
        }
        let mut chain = Vec::new();
        while self.in_row(1 - s, h) && (b[h] == 2 || b[h] == 3) {
            chain.push(h);
            if h == (1 - s) * self.m {
                // The opponent's first house: the end of his row.
                break;
            }
            h -= 1;
        }
        let taken: u32 = chain.iter().map(|&h| b[h]).sum();
        let grand_slam = taken > 0 && taken == self.row(&b, 1 - s);
        let mut taken_now = 0;
        if !(grand_slam && void_grand_slam) {
            for h in chain {
                taken_now += std::mem::take(&mut b[h]);
            }
        }
        let starves = self.row(&b, 1 - s) == 0;
        Sowing {
            board: b,
            taken: taken_now,
            starves,
        }
    }

    fn candidates(&self) -> Vec<usize> {
        (0..self.m)
            .filter(|&i| self.board[self.side * self.m + i] > 0)
            .collect()
    }

    fn play(&mut self, i: usize) {
        let sown = self.sow(i, self.abapa);
        self.board = sown.board;
        self.stores[self.side] += sown.taken;
        if sown.starves && !self.abapa {
            // A forced starving move: the mover takes all that is left.
            self.stores[self.side] += self.board.iter().sum::<u32>();
            self.board.iter_mut().for_each(|v| *v = 0);
        }
        self.side = 1 - self.side;
    }
}

impl Model for Naive {
    fn legal(&self) -> Vec<usize> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let c = self.candidates();
        let feeding: Vec<usize> = c
            .iter()
            .copied()
            .filter(|&i| !self.sow(i, self.abapa).starves)
            .collect();
        if feeding.is_empty() && !self.abapa {
            c
        } else {
            feeding
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let [s, n] = self.stores;
        if s > self.half || n > self.half {
            return Some(Outcome::by_count(s, n));
        }
        let rest: u32 = self.board.iter().sum();
        let add = |side: usize| {
            let mut c = self.stores;
            c[side] += rest;
            Outcome::by_count(c[0], c[1])
        };
        if self.row(&self.board, self.side) == 0 {
            // The player to move cannot: the one who moved last takes the rest.
            return Some(add(1 - self.side));
        }
        if self.abapa
            && self.row(&self.board, 1 - self.side) == 0
            && self.candidates().iter().all(|&i| self.sow(i, true).starves)
        {
            // Abapa: nobody can feed him: the player to move takes the rest.
            return Some(add(self.side));
        }
        None
    }

    fn notation(&self) -> String {
        let mut f: Vec<String> = self
            .board
            .iter()
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

/// A random position: the seeds spread over houses and stores (stores
/// lightly), sometimes with one large heap (long laps).
fn random_position(rng: &mut Rng, rules: &OwareRules) -> Oware {
    let m = rules.houses as usize;
    let text = random_token(rng, m, 2 * m * rules.seeds as usize, 5);
    Oware::from_notation(rules, &text).unwrap()
}

#[test]
fn engine_agrees_with_seed_by_seed_rules_on_random_games() {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    // Fewer games in unoptimised builds, where the naive model is slow.
    let games = if cfg!(debug_assertions) { 4 } else { 12 };
    for m in 1..=8u8 {
        for n in 1..=15u8 {
            for rs in [RuleSet::Awari, RuleSet::Abapa] {
                let rules = OwareRules {
                    houses: m,
                    seeds: n,
                    rules: rs,
                    repetition: Repetition::OwnSide,
                };
                for game in 0..games {
                    let engine = if game < 2 {
                        Oware::start(&rules)
                    } else {
                        random_position(&mut rng, &rules)
                    };
                    let naive = Naive::from_engine(&engine);
                    // The text leaves a player to move without seeds under
                    // Abapa to interpretation; such positions never arise
                    // in Abapa play, so they are not drawn.
                    if rs == RuleSet::Abapa && naive.row(&naive.board, naive.side) == 0 {
                        continue;
                    }
                    let label = format!("{m}x{n} {rs:?}");
                    random_game(engine, naive, &mut rng, 300, &label);
                }
            }
        }
    }
}
