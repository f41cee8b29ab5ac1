//! The fields of a description, one rule each: a small described game, a
//! position, a move, and the position it must leave (tokens: South's pits
//! from his left, North's from his, South's store, North's, the side to
//! move). protocol/RULES.md names these tests beside the fields.

mod common;

use common::described::{after, at, legal};
use kete::game::{EndReason, Game, MoveError};
use kete::variants::Variant;
use kete::variants::described::DescribedRules;

/// A game of `pits` a row whose other fields are `fields` (TOML after the
/// `[board]` table's first lines).
fn game(board: &str, fields: &str) -> DescribedRules {
    let text = format!(
        "[game]\nname = \"rule-test\"\ntitle = \"Rule test\"\n\n[board]\n{board}\n\n{fields}\n"
    );
    match Variant::from_description(&text, "test").unwrap() {
        Variant::Described(r) => r,
        v => panic!("{v:?}"),
    }
}

#[test]
fn sowing_goes_anticlockwise_from_the_next_pit() {
    let r = game("pits = 3\nseeds = 2", "");
    assert_eq!(after(&r, "2-2-2-2-2-2-0-0-S", &["B"]), "2-0-3-3-2-2-0-0-N");
}

#[test]
fn clockwise_sowing_goes_toward_the_movers_left() {
    let r = game("pits = 3\nseeds = 2", "[move]\ndirection = \"clockwise\"");
    // From South's B: A, then North's c (his right, at South's left).
    assert_eq!(after(&r, "2-2-2-2-2-2-0-0-S", &["B"]), "3-0-2-2-2-3-0-0-N");
}

#[test]
fn a_chosen_direction_is_written_after_the_pit() {
    let r = game("pits = 3\nseeds = 2", "[move]\ndirection = \"choice\"");
    assert_eq!(
        legal(&r, "2-2-2-2-2-2-0-0-S"),
        ["A<", "A>", "B<", "B>", "C<", "C>"]
    );
    assert_eq!(after(&r, "2-2-2-2-2-2-0-0-S", &["B<"]), "3-0-2-2-2-3-0-0-N");
    assert_eq!(after(&r, "2-2-2-2-2-2-0-0-S", &["B>"]), "2-0-3-3-2-2-0-0-N");
    assert!(matches!(
        at(&r, "2-2-2-2-2-2-0-0-S").parse_move("B"),
        Err(MoveError::Syntax(_))
    ));
}

#[test]
fn pit_directions_fix_each_pits_way() {
    let r = game(
        "pits = 3\nseeds = 2",
        "[move]\ndirection = \"choice\"\npit-directions = [\"clockwise\", \"choice\", \"anticlockwise\"]",
    );
    assert_eq!(legal(&r, "2-2-2-2-2-2-0-0-S"), ["A<", "B<", "B>", "C>"]);
}

#[test]
fn origin_sow_fills_the_emptied_pit_on_a_lap() {
    let r = game("pits = 2\nseeds = 1", "");
    // Four seeds from A round a ring of four: the last into A itself.
    assert_eq!(after(&r, "4-0-0-0-0-0-S", &["A"]), "1-1-1-1-0-0-N");
}

#[test]
fn origin_skip_passes_over_the_emptied_pit() {
    let r = game("pits = 2\nseeds = 1", "[sow]\norigin = \"skip\"");
    assert_eq!(after(&r, "4-0-0-0-0-0-S", &["A"]), "0-2-1-1-0-0-N");
}

#[test]
fn origin_first_drops_the_first_seed_back_and_a_single_seed_on() {
    let r = game("pits = 3\nseeds = 2", "[sow]\norigin = \"first\"");
    assert_eq!(after(&r, "2-2-2-2-2-2-0-0-S", &["B"]), "2-1-3-2-2-2-0-0-N");
    assert_eq!(after(&r, "1-2-3-2-2-2-0-0-S", &["A"]), "0-3-3-2-2-2-0-0-N");
}

#[test]
fn own_store_is_sown_and_the_opponents_passed_over() {
    let r = game(
        "pits = 2\nstores = true\nseeds = 2",
        "[sow]\nstores = \"own\"",
    );
    // B: South's store, then North's a; five seeds round: store, a, b, A.
    assert_eq!(after(&r, "0-5-2-1-0-0-S", &["B"]), "1-1-3-2-1-0-N");
}

#[test]
fn last_seed_in_own_store_moves_again() {
    let r = game(
        "pits = 2\nstores = true\nseeds = 2",
        "[sow]\nstores = \"own\"\n\n[turn]\nextra-in-store = true",
    );
    assert_eq!(after(&r, "2-1-2-2-1-0-S", &["B"]), "2-0-2-2-2-0-S");
}

#[test]
fn relay_last_lifts_an_occupied_last_pit_and_ends_in_an_empty_one() {
    let r = game("pits = 3\nseeds = 1", "[sow]\nrelay = \"last\"");
    // A's seed into B (now 2): lifted, into C and a; a had none: the end.
    assert_eq!(after(&r, "1-1-1-0-1-2-0-0-S", &["A"]), "0-0-2-1-1-2-0-0-N");
}

#[test]
fn relay_next_lifts_the_pit_after_the_last() {
    let r = game("pits = 3\nseeds = 1", "[sow]\nrelay = \"next\"");
    // A's seed into B; C holds seeds: it is lifted and sown into a, b;
    // c after b is empty: the end.
    assert_eq!(after(&r, "1-0-2-0-0-0-3-0-S", &["A"]), "0-1-0-1-1-0-3-0-N");
}

#[test]
fn a_relay_that_never_ends_is_not_a_legal_move() {
    let r = game("pits = 2\nseeds = 2", "[sow]\nrelay = \"last\"");
    // B's two seeds into a and b, b's three round to A, B and a, and so on
    // for ever: only A is a move.
    assert_eq!(legal(&r, "1-2-0-2-3-0-S"), ["A"]);
    let p = at(&r, "1-2-0-2-3-0-S");
    let b = p.parse_move("B").unwrap_err();
    assert!(b.to_string().contains("never ends"), "{b}");
    // With no other move the game is over, and says why.
    let stuck = at(&r, "2-0-2-1-3-0-S");
    assert_eq!(
        stuck.end_reason(),
        Some(EndReason::NeverEndingMoves(kete::game::Side::South))
    );
}

#[test]
fn counts_capture_the_last_pit_in_the_rows_named() {
    let r = game("pits = 2\nseeds = 2", "[capture]\ncounts = [2, 3]");
    // B into a (2) and b (3): b taken.
    assert_eq!(after(&r, "0-2-1-2-3-0-S", &["B"]), "0-0-2-0-6-0-N");
    let own = game(
        "pits = 2\nseeds = 2",
        "[capture]\ncounts = [2]\nrows = \"own\"",
    );
    assert_eq!(after(&own, "1-1-2-2-2-0-S", &["A"]), "0-0-2-2-4-0-N");
}

#[test]
fn a_backward_chain_takes_the_pits_before_while_they_qualify() {
    let r = game(
        "pits = 3\nseeds = 2",
        "[capture]\ncounts = [2, 3]\nchain = \"backward\"",
    );
    // C into a (2) and b (3): b taken, then a before it.
    assert_eq!(after(&r, "0-0-2-1-2-1-3-3-S", &["C"]), "0-0-0-0-0-1-8-3-N");
}

#[test]
fn even_counts_are_every_even_count() {
    let r = game("pits = 2\nseeds = 2", "[capture]\ncounts = \"even\"");
    assert_eq!(after(&r, "0-1-3-0-4-0-S", &["B"]), "0-0-0-0-8-0-N");
}

#[test]
fn opposite_capture_takes_the_pit_across_an_empty_own_pit() {
    let r = game("pits = 3\nseeds = 1", "[capture]\nopposite = \"empty-own\"");
    // A's seed into B (empty): across B is North's b.
    assert_eq!(after(&r, "1-0-1-1-2-1-0-0-S", &["A"]), "0-0-1-1-0-1-3-0-N");
    let keep = game(
        "pits = 3\nseeds = 1",
        "[capture]\nopposite = \"empty-own\"\nopposite-takes-last = false",
    );
    assert_eq!(
        after(&keep, "1-0-1-1-2-1-0-0-S", &["A"]),
        "0-1-1-1-0-1-2-0-N"
    );
    // Nothing across: nothing taken, unless the field says otherwise.
    assert_eq!(after(&r, "1-0-1-1-0-3-0-0-S", &["A"]), "0-1-1-1-0-3-0-0-N");
    let lone = game(
        "pits = 3\nseeds = 1",
        "[capture]\nopposite = \"empty-own\"\nopposite-needs-seeds = false",
    );
    assert_eq!(
        after(&lone, "1-0-1-1-0-3-0-0-S", &["A"]),
        "0-0-1-1-0-3-1-0-N"
    );
}

#[test]
fn after_empty_takes_the_pit_past_an_empty_one_once_or_again() {
    let once = game("pits = 3\nseeds = 2", "[capture]\nafter-empty = \"once\"");
    // A's seed into B; C empty, a full: a taken; b empty, c full: once only.
    assert_eq!(
        after(&once, "1-0-0-2-0-2-4-3-S", &["A"]),
        "0-1-0-0-0-2-6-3-N"
    );
    let again = game("pits = 3\nseeds = 2", "[capture]\nafter-empty = \"repeat\"");
    // ... then c past the empty b, then B past the empty A: round the board.
    assert_eq!(
        after(&again, "1-0-0-2-0-2-4-3-S", &["A"]),
        "0-0-0-0-0-0-9-3-N"
    );
}

#[test]
fn during_captures_take_a_count_the_moment_a_seed_makes_it() {
    let r = game(
        "pits = 3\nseeds = 2",
        "[capture]\nduring = [4]\nduring-taker = \"owner\"",
    );
    // C's three seeds into a (now 4: North's), b, c.
    assert_eq!(after(&r, "2-2-3-3-1-1-0-0-S", &["C"]), "2-2-0-0-2-2-0-4-N");
}

#[test]
fn starving_unless_forced_refuses_a_move_that_leaves_him_nothing() {
    let r = game(
        "pits = 2\nseeds = 2",
        "[capture]\ncounts = [2]\n\n[feed]\nstarving = \"unless-forced\"",
    );
    // B takes North's only seeds; A feeds him.
    assert_eq!(legal(&r, "1-1-1-0-5-0-S"), ["A"]);
}

#[test]
fn must_feed_makes_the_mover_give_an_empty_row_seeds() {
    let r = game("pits = 2\nseeds = 2", "[feed]\nmust-feed = true");
    // A stays in South's row; B reaches North's.
    assert_eq!(legal(&r, "1-1-0-0-6-0-S"), ["B"]);
    // No move reaches him: the game is over.
    let p = at(&r, "1-0-0-0-4-3-S");
    assert!(legal(&r, "1-0-0-0-4-3-S").is_empty());
    assert_eq!(
        p.end_reason(),
        Some(EndReason::CannotFeed(kete::game::Side::South))
    );
}

#[test]
fn grand_slam_takes_nothing_where_the_rules_say_so() {
    let r = game(
        "pits = 2\nseeds = 2",
        "[capture]\ncounts = [2]\n\n[feed]\ngrand-slam = \"takes-nothing\"",
    );
    assert_eq!(after(&r, "0-1-1-0-6-0-S", &["B"]), "0-0-2-0-6-0-N");
}

#[test]
fn when_row_empty_ends_the_game_and_banks_the_seeds_left() {
    let r = game(
        "pits = 2\nstores = true\nseeds = 2",
        "[sow]\nstores = \"own\"\n\n[end]\nwhen-row-empty = true\nseeds-left = \"owner\"",
    );
    assert_eq!(after(&r, "0-1-2-2-3-0-S", &["B"]), "0-0-0-0-4-4-N");
    let mangala = game(
        "pits = 2\nstores = true\nseeds = 2",
        "[sow]\nstores = \"own\"\n\n[end]\nwhen-row-empty = true\nseeds-left = \"empty-row\"",
    );
    assert_eq!(after(&mangala, "0-1-2-2-3-0-S", &["B"]), "0-0-0-0-8-0-N");
}

#[test]
fn majority_ends_the_game_at_more_than_half() {
    let r = game("pits = 2\nseeds = 2", "[end]\nmajority = true");
    assert!(at(&r, "1-1-1-0-5-0-N").outcome().is_some());
    assert!(at(&r, "1-1-2-0-4-0-N").outcome().is_none());
}

#[test]
fn a_player_who_cannot_move_passes_where_empty_turn_is_pass() {
    let r = game("pits = 2\nseeds = 1", "[end]\nempty-turn = \"pass\"");
    // After A, North has no seed: his one move is a pass, and South
    // moves again.
    assert_eq!(legal(&r, "0-2-0-0-1-1-N"), ["pass"]);
    assert_eq!(after(&r, "1-1-0-0-1-1-S", &["A", "pass"]), "0-2-0-0-1-1-S");
    // Nobody passes while he can move, nor in a game without passes.
    assert!(at(&r, "1-1-0-0-1-1-S").parse_move("pass").is_err());
    // When neither can move the game is over.
    assert!(legal(&r, "0-0-0-0-2-2-S").is_empty());
}

#[test]
fn refill_puts_a_seed_from_the_store_into_each_empty_pit() {
    let r = game("pits = 2\nseeds = 1", "[end]\nempty-turn = \"refill\"");
    assert_eq!(legal(&r, "0-0-1-1-2-0-S"), ["A", "B"]);
    assert_eq!(after(&r, "0-0-1-1-2-0-S", &["A"]), "0-2-1-1-0-0-N");
}

#[test]
fn end_pits_hold_a_big_piece_and_end_the_game_when_both_are_taken() {
    let r = game(
        "pits = 2\nseeds = 2\n\n[board.end-pits]\nbig = 5",
        "[capture]\nafter-empty = \"repeat\"\n\n[end]\nend-pits-taken = true",
    );
    let p = at(&r, "0-5-0*-1-1-0*-1-0-S");
    assert_eq!(p.total_seeds(), 18);
    // B round to A; past the empty B, the right end pit: its seed and its
    // big piece are taken.
    assert_eq!(
        after(&r, "0-5-0*-1-1-0*-1-0-S", &["B"]),
        "1-0-0-2-2-1*-7-0-N"
    );
    // A pit holding only a big piece is not empty: nothing past it.
    assert_eq!(
        after(&r, "1-0-0*-2-2-0*-3-0-S", &["A"]),
        "0-1-0*-2-2-0*-3-0-N"
    );
    // Both end pits taken: the game is over.
    let over = at(&r, "0-1-0-2-2-0-13-0-N");
    assert_eq!(over.end_reason(), Some(EndReason::EndPitsTaken));
}

#[test]
fn the_repetition_rule_ends_a_game_that_comes_back() {
    let r = game("pits = 2\nseeds = 1", "[end]\nrepetition = \"own-side\"");
    assert!(at(&r, "1-1-1-1-0-0-S").repetition_outcome().is_some());
    let none = game("pits = 2\nseeds = 1", "");
    assert!(at(&none, "1-1-1-1-0-0-S").repetition_outcome().is_none());
}
