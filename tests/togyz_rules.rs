//! One test per rule of Togyz Kumalak (protocol/RULES.md), each on a small
//! hand-built position. Positions are written as tokens: South's otaus 1..9
//! then North's 1..9 (each from its owner's left, a tuzdyk written X and
//! belonging to the player across), South's and North's kazan, the side to
//! move. The board holds 162 kumalaks, so those not needed on the board sit
//! in the kazans.

use kete::game::{EndReason, Game, GameResult, MoveError, Side};
use kete::variants::togyz::{Atsyz, Togyz, TogyzRules};

fn pos(token: &str) -> Togyz {
    Togyz::from_notation(&TogyzRules::default(), token).unwrap()
}

fn after(token: &str, mv: &str) -> String {
    let p = pos(token);
    let m = p.parse_move(mv).unwrap();
    p.play(m).to_notation()
}

#[test]
fn board_two_rows_of_nine_otaus_with_nine_kumalaks_south_first() {
    let p = Togyz::start(&TogyzRules::default());
    assert_eq!(p.side_to_move(), Side::South);
    assert_eq!(p.board(), vec![9; 18]);
    assert_eq!(p.total_seeds(), 162);
    assert_eq!(p.to_notation(), "9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-0-0-S");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves.len(), 9);
}

#[test]
fn sowing_starts_in_the_emptied_otau() {
    // Otau 1's nine kumalaks: the first back into otau 1, then 2..9.
    assert_eq!(
        after("9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-0-0-S", "1"),
        "1-10-10-10-10-10-10-10-10-9-9-9-9-9-9-9-9-9-0-0-N"
    );
}

#[test]
fn a_lone_kumalak_moves_to_the_next_otau() {
    assert_eq!(
        after("0-0-1-0-0-0-0-0-5-1-1-1-1-1-1-1-1-1-76-71-S", "3"),
        "0-0-0-1-0-0-0-0-5-1-1-1-1-1-1-1-1-1-76-71-N"
    );
}

#[test]
fn sowing_goes_on_round_both_rows_and_into_the_emptied_otau_again() {
    // 20 kumalaks from otau 1: all 18 otaus once, then otaus 1 and 2 again.
    assert_eq!(
        after("20-0-0-0-0-0-0-0-0-1-1-1-1-1-1-1-1-1-67-66-S", "1"),
        "2-2-1-1-1-1-1-1-1-2-2-2-2-2-2-2-2-2-67-66-N"
    );
}

#[test]
fn an_even_count_made_on_the_opponents_side_is_captured() {
    // Otau 9's two kumalaks: one back into it, one into North's otau 1,
    // which then holds 2: South takes them.
    assert_eq!(
        after("0-0-0-0-0-0-0-0-2-1-1-1-1-1-1-1-1-1-76-75-S", "9"),
        "0-0-0-0-0-0-0-0-1-0-1-1-1-1-1-1-1-1-78-75-N"
    );
}

#[test]
fn an_odd_count_is_not_captured() {
    assert_eq!(
        after("0-0-0-0-0-0-0-0-2-4-1-1-1-1-1-1-1-1-76-72-S", "9"),
        "0-0-0-0-0-0-0-0-1-5-1-1-1-1-1-1-1-1-76-72-N"
    );
}

#[test]
fn an_even_count_on_the_own_side_is_not_captured() {
    assert_eq!(
        after("3-0-1-0-0-0-0-0-0-1-1-1-1-1-1-1-1-1-76-73-S", "1"),
        "1-1-2-0-0-0-0-0-0-1-1-1-1-1-1-1-1-1-76-73-N"
    );
}

#[test]
fn three_made_on_the_opponents_side_is_a_tuzdyk() {
    let token = "0-0-0-0-0-0-0-0-2-2-1-1-1-1-1-1-1-1-76-74-S";
    // North's otau 1 becomes South's tuzdyk; its three go to South's kazan.
    assert_eq!(
        after(token, "9"),
        "0-0-0-0-0-0-0-0-1-X-1-1-1-1-1-1-1-1-79-74-N"
    );
    let p = pos(token);
    let next = p.play(8);
    assert_eq!(next.tuzdyk(Side::South), Some(0));
    assert_eq!(next.tuzdyk(Side::North), None);
}

#[test]
fn a_move_is_written_as_the_otau_played_and_the_otau_reached() {
    let start = Togyz::start(&TogyzRules::default());
    // Otau 7's nine kumalaks end in North's otau 6, which then holds ten.
    assert_eq!(start.format_move(6), "76");
    for text in ["76", "7", " 76 ", "76(10)"] {
        assert_eq!(start.parse_move(text), Ok(6), "{text}");
    }
    // What is written besides the otau played must be what the move does.
    assert!(
        matches!(start.parse_move("75"), Err(MoveError::Illegal(m)) if m.contains("falls into otau 6"))
    );
    assert!(
        matches!(start.parse_move("76(12)"), Err(MoveError::Illegal(m)) if m.contains("holds 10"))
    );
    assert!(matches!(start.parse_move("0"), Err(MoveError::Illegal(_))));
    assert!(matches!(start.parse_move("a"), Err(MoveError::Syntax(_))));
    assert!(matches!(start.parse_move("765"), Err(MoveError::Syntax(_))));
}

#[test]
fn a_tuzdyk_is_written_with_an_x_after_the_move() {
    let p = pos("0-0-0-0-0-0-0-0-2-2-1-1-1-1-1-1-1-1-76-74-S");
    assert_eq!(p.format_move(8), "91x");
    for text in ["91x", "91X", "9x", "91\u{425}", "91", "9"] {
        assert_eq!(p.parse_move(text), Ok(8), "{text}");
    }
    // The x may be left out, but not claimed for a move that makes none.
    let q = pos("0-0-0-0-0-0-0-0-2-4-1-1-1-1-1-1-1-1-76-72-S");
    assert_eq!(q.format_move(8), "91");
    assert!(matches!(q.parse_move("91x"), Err(MoveError::Illegal(m)) if m.contains("no tuzdyk")));
}

#[test]
fn no_tuzdyk_on_the_opponents_ninth_otau() {
    // Ten kumalaks from otau 9 end in North's otau 9, which holds three.
    assert_eq!(
        after("0-0-0-0-0-0-0-0-10-1-1-1-1-1-1-1-1-2-71-71-S", "9"),
        "0-0-0-0-0-0-0-0-1-2-2-2-2-2-2-2-2-3-71-71-N"
    );
}

#[test]
fn a_player_has_at_most_one_tuzdyk() {
    // South's tuzdyk is North's otau 1; North's otau 3 reaching three stays
    // an otau. (The kumalak sown into the tuzdyk goes to South's kazan.)
    assert_eq!(
        after("0-0-0-0-0-0-0-0-4-X-1-2-1-1-1-1-1-1-76-73-S", "9"),
        "0-0-0-0-0-0-0-0-1-X-2-3-1-1-1-1-1-1-77-73-N"
    );
}

#[test]
fn no_tuzdyk_with_the_number_of_the_opponents_tuzdyk() {
    // North's tuzdyk is South's otau 2: South cannot take North's otau 2.
    assert_eq!(
        after("0-X-0-0-0-0-0-0-3-1-2-1-1-1-1-1-1-1-73-76-S", "9"),
        "0-X-0-0-0-0-0-0-1-2-3-1-1-1-1-1-1-1-73-76-N"
    );
    // With North's tuzdyk on South's otau 3 instead, he can.
    assert_eq!(
        after("0-0-X-0-0-0-0-0-3-1-2-1-1-1-1-1-1-1-73-76-S", "9"),
        "0-0-X-0-0-0-0-0-1-2-X-1-1-1-1-1-1-1-76-76-N"
    );
}

#[test]
fn kumalaks_sown_into_a_tuzdyk_go_to_its_owner() {
    // North sows through South's tuzdyk (North's otau 5): that kumalak
    // goes to South's kazan.
    assert_eq!(
        after("1-1-1-1-1-1-1-1-1-1-1-4-1-X-1-1-1-1-71-71-N", "3"),
        "1-1-1-1-1-1-1-1-1-1-1-1-2-X-2-1-1-1-72-71-S"
    );
}

#[test]
fn a_last_kumalak_in_a_tuzdyk_captures_nothing() {
    // The last kumalak falls into South's tuzdyk (North's otau 2); North's
    // otau 1 holds two after the sowing but is not taken.
    assert_eq!(
        after("0-0-0-0-0-0-0-0-3-1-X-1-1-1-1-1-1-1-76-75-S", "9"),
        "0-0-0-0-0-0-0-0-1-2-X-1-1-1-1-1-1-1-77-75-N"
    );
}

#[test]
fn a_tuzdyk_cannot_be_sown() {
    // North's otau 2 is South's tuzdyk: North cannot play it.
    let p = pos("0-0-0-0-0-0-0-0-1-2-X-1-1-1-1-1-1-1-77-75-N");
    assert!(matches!(p.parse_move("2"), Err(MoveError::Illegal(m)) if m.contains("tuzdyk")));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(!moves.contains(&1));
}

#[test]
fn eighty_two_kumalaks_win() {
    let p = pos("0-0-0-0-0-0-0-0-2-1-1-1-1-1-1-1-1-1-80-71-S");
    let next = p.play(p.parse_move("9").unwrap());
    assert_eq!(next.kazan(Side::South), 82);
    assert_eq!(next.outcome().unwrap().result, GameResult::P1Win);
    assert_eq!(next.end_reason(), Some(EndReason::Majority(Side::South)));
    let mut moves = Vec::new();
    next.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn eighty_one_each_is_a_draw() {
    // A lone kumalak makes North's otau 1 hold two: South takes them and
    // has 81, the board is empty.
    let p = pos("0-0-0-0-0-0-0-0-1-1-0-0-0-0-0-0-0-0-79-81-S");
    let next = p.play(p.parse_move("9").unwrap());
    let o = next.outcome().unwrap();
    assert_eq!(o.result, GameResult::Draw);
    assert_eq!(o.seeds, Some((81, 81)));
}

#[test]
fn a_player_who_cannot_move_ends_the_game_and_the_opponent_takes_his_own() {
    // Atsyz kalu: North has no kumalak to sow; the two on South's side go
    // to South.
    let p = pos("1-1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-80-80-N");
    let o = p.outcome().unwrap();
    assert_eq!(o.result, GameResult::P1Win);
    assert_eq!(o.seeds, Some((82, 80)));
    assert_eq!(p.end_reason(), Some(EndReason::EmptyRow(Side::North)));
    assert_eq!(p.parse_move("1"), Err(MoveError::GameOver));
}

fn with_extra_move() -> TogyzRules {
    TogyzRules {
        atsyz: Atsyz::ExtraMove,
        ..TogyzRules::default()
    }
}

#[test]
fn atsyz_extra_move_the_opponent_moves_once_more_and_ends_the_game_if_it_does_not_feed() {
    let rules = with_extra_move();
    // South takes North's last two kumalaks: North has none, South moves again.
    let p = Togyz::from_notation(&rules, "5-0-0-0-0-0-0-0-1-1-0-0-0-0-0-0-0-0-78-77-S").unwrap();
    let q = p.play(p.parse_move("9").unwrap());
    assert_eq!(
        q.to_notation(),
        "5-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-80-77-S+"
    );
    assert_eq!(q.side_to_move(), Side::South);
    assert!(q.outcome().is_none());
    assert_eq!(Togyz::from_notation(&rules, &q.to_notation()).unwrap(), q);
    // His additional move stays on his side: the game ends, the rest is his.
    let r = q.play(q.parse_move("1").unwrap());
    assert_eq!(r.outcome().unwrap().seeds, Some((85, 77)));
    assert_eq!(r.end_reason(), Some(EndReason::EmptyRow(Side::North)));
}

#[test]
fn atsyz_extra_move_that_feeds_the_opponent_lets_the_game_go_on() {
    let rules = with_extra_move();
    let p = Togyz::from_notation(&rules, "0-0-0-0-0-0-0-3-1-1-0-0-0-0-0-0-0-0-79-78-S").unwrap();
    let q = p.play(p.parse_move("9").unwrap());
    assert_eq!(
        q.to_notation(),
        "0-0-0-0-0-0-0-3-0-0-0-0-0-0-0-0-0-0-81-78-S+"
    );
    // His only move reaches North's otau 1: North can move again.
    let r = q.play(q.parse_move("8").unwrap());
    assert_eq!(
        r.to_notation(),
        "0-0-0-0-0-0-0-1-1-1-0-0-0-0-0-0-0-0-81-78-N"
    );
    assert!(r.outcome().is_none());
    // Under the default rule the same position ends at once instead.
    let e = pos("0-0-0-0-0-0-0-3-1-1-0-0-0-0-0-0-0-0-79-78-S");
    let f = e.play(e.parse_move("9").unwrap());
    assert_eq!(f.outcome().unwrap().seeds, Some((84, 78)));
    // The '+' belongs to that rule only.
    assert!(Togyz::from_notation(&TogyzRules::default(), &q.to_notation()).is_err());
}

#[test]
fn bestemshe_five_otaus_of_five_no_tuzdyk_twenty_six_wins() {
    let rules = TogyzRules::bestemshe();
    let start = Togyz::start(&rules);
    assert_eq!(start.to_notation(), "5-5-5-5-5-5-5-5-5-5-0-0-S");
    assert_eq!(
        kete::variants::Variant::by_name("bestemshe")
            .unwrap()
            .option_values()[2]
            .1,
        "off"
    );
    let b = |t: &str| Togyz::from_notation(&rules, t).unwrap();
    // Three made on North's side stay three.
    let p = b("0-0-0-0-2-2-1-1-1-1-21-21-S");
    assert_eq!(p.play(4).to_notation(), "0-0-0-0-1-3-1-1-1-1-21-21-N");
    assert!(Togyz::from_notation(&rules, "0-0-0-0-1-X-1-1-1-1-24-21-N").is_err());
    // 26 of 50 wins.
    let q = b("0-0-0-0-2-1-1-1-1-1-24-19-S");
    let r = q.play(4);
    assert_eq!(r.kazan(Side::South), 26);
    assert_eq!(r.outcome().unwrap().result, GameResult::P1Win);
}

#[test]
fn tokens_that_break_a_rule_are_refused_with_the_reason() {
    let rules = TogyzRules::default();
    let refused = |t: &str, says: &str| {
        let e = Togyz::from_notation(&rules, t).unwrap_err();
        assert!(e.0.contains(says), "{t}: {e}");
    };
    // Two tuzdyks of one player (both on North's row).
    refused(
        "0-0-0-0-0-0-0-0-3-X-X-1-1-1-1-1-1-1-76-76-S",
        "second tuzdyk",
    );
    // A tuzdyk on a ninth otau.
    refused("0-0-0-0-0-0-0-0-3-1-2-1-1-1-1-1-1-X-76-76-S", "last");
    // Tuzdyks facing each other (both otau 2).
    refused(
        "0-X-0-0-0-0-0-0-3-1-X-1-1-1-1-1-1-1-76-77-S",
        "both tuzdyks",
    );
    // Kumalaks missing.
    refused("9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-0-1-S", "total is 163");
    refused("9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-0-0-S", "fields");
    refused("9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-0-0-W", "side to move");
}
