//! Described games against kete's own modules: Kalah (both captures) and
//! Oware (Awari and Abapa) written as descriptions
//! (`examples/descriptions/`) must count the same perft as the native
//! modules and agree with them at every position of 1,000 random games:
//! the position token, the legal moves, the outcome and why the game
//! ended, and the repetition rule.

mod common;

use common::rng::Rng;
use kete::game::{Game, in_move_order};
use kete::perft::perft;
use kete::variants::Variant;
use kete::variants::described::{Described, DescribedRules};
use kete::variants::kalah::{Capture, Kalah, KalahRules};
use kete::variants::oware::{Oware, OwareRules, RuleSet};

fn described(file: &str) -> DescribedRules {
    let path = format!(
        "{}/examples/descriptions/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    match Variant::from_file(&path).unwrap() {
        Variant::Described(r) => r,
        other => panic!("{file} is {other:?}"),
    }
}

fn kalah(capture: Capture) -> KalahRules {
    KalahRules {
        capture,
        ..KalahRules::default()
    }
}

fn oware(rules: RuleSet) -> OwareRules {
    OwareRules {
        rules,
        ..OwareRules::default()
    }
}

/// Plays `games` random games in both, comparing every position.
fn agree<N: Game>(native: N::Rules, desc: DescribedRules, games: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    for g in 0..games {
        let mut a = N::start(&native);
        let mut b = Described::start(&desc);
        let mut seen_a = vec![a.clone()];
        let mut seen_b = vec![b];
        for ply in 0.. {
            let at = format!("game {g} ply {ply} at {}", a.to_notation());
            assert_eq!(a.to_notation(), b.to_notation(), "{at}");
            assert_eq!(a.outcome(), b.outcome(), "{at}");
            assert_eq!(
                a.end_reason().map(|r| r.code()),
                b.end_reason().map(|r| r.code()),
                "{at}"
            );
            assert_eq!(a.repetition_outcome(), b.repetition_outcome(), "{at}");
            assert_eq!(a.total_seeds(), b.total_seeds(), "{at}");
            assert_eq!(a.seed_count(), b.seed_count(), "{at}");
            let mut ma = Vec::new();
            let mut mb = Vec::new();
            a.legal_moves(&mut ma);
            b.legal_moves(&mut mb);
            let ta: Vec<String> = in_move_order(&a, &ma).into_iter().map(|m| m.1).collect();
            let tb: Vec<String> = in_move_order(&b, &mb).into_iter().map(|m| m.1).collect();
            assert_eq!(ta, tb, "{at}");
            assert_eq!(a.count_legal_moves(), b.count_legal_moves(), "{at}");
            if ta.is_empty() {
                break;
            }
            let text = &ta[rng.below(ta.len())];
            a = a.play(a.parse_move(text).unwrap());
            b = b.play(b.parse_move(text).unwrap());
            // A repeated position ends the game where the rules say so.
            if seen_a.contains(&a) && a.repetition_outcome().is_some() {
                assert!(seen_b.contains(&b), "{at}: only the native game repeats");
                break;
            }
            seen_a.push(a.clone());
            seen_b.push(b);
        }
    }
}

#[test]
fn described_kalah_is_kalah_by_perft_and_random_games() {
    for (capture, file) in [
        (Capture::Standard, "kalah.toml"),
        (Capture::Empty, "kalah-empty.toml"),
    ] {
        let (n, d) = (kalah(capture), described(file));
        for depth in 1..=9 {
            let native = perft(&Kalah::start(&n), depth, false).sequences;
            let desc = perft(&Described::start(&d), depth, false).sequences;
            assert_eq!(native, desc, "{file} depth {depth}");
        }
        agree::<Kalah>(n, d, 1000, 68);
    }
}

#[test]
fn described_oware_is_oware_by_perft_and_random_games() {
    for (rules, file) in [
        (RuleSet::Awari, "oware-awari.toml"),
        (RuleSet::Abapa, "oware-abapa.toml"),
    ] {
        let (n, d) = (oware(rules), described(file));
        for depth in 1..=8 {
            let native = perft(&Oware::start(&n), depth, false).sequences;
            let desc = perft(&Described::start(&d), depth, false).sequences;
            assert_eq!(native, desc, "{file} depth {depth}");
        }
        agree::<Oware>(n, d, 1000, 69);
    }
}

/// A description that is not right is refused with a message naming the
/// field (and its line, where the reader knows it) and the value.
#[test]
fn bad_descriptions_are_refused_naming_the_field() {
    let good = std::fs::read_to_string(format!(
        "{}/examples/descriptions/kalah.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let refused = |text: &str, wanted: &[&str]| {
        let e = Variant::from_description(text, "test.toml").unwrap_err();
        for w in wanted {
            assert!(e.contains(w), "{e:?} does not say {w:?}");
        }
        assert!(e.starts_with("test.toml"), "{e:?} does not name the file");
    };
    // An unknown field, in a table and at the top.
    refused(
        &good.replace("[sow]\n", "[sow]\nrelya = \"last\"\n"),
        &["relya", "line", "relay"],
    );
    refused(&format!("{good}\n[rules]\nx = 1\n"), &["rules"]);
    // A value the field does not take.
    refused(
        &good.replace("stores = \"own\"", "stores = \"mine\""),
        &["mine", "own", "both"],
    );
    refused(
        &good.replace("pits = 6", "pits = 13"),
        &["[board] pits = 13", "1..12"],
    );
    refused(
        &good.replace("pits = 6", "pits = \"six\""),
        &["pits", "six"],
    );
    refused(
        &good.replace("name = \"kalah-described\"", "name = \"Kalah Described\""),
        &["[game] name", "Kalah Described"],
    );
    refused(
        &good.replace("seeds = 4", "seeds = 40"),
        &["[board]", "480 seeds", "255"],
    );
    // Fields that contradict each other.
    refused(
        &good.replace("stores = true", "stores = false"),
        &["[sow] stores = \"own\"", "[board] stores = true"],
    );
    refused(
        &good.replace("[sow]\n", "[sow]\nrelay = \"next\"\norigin = \"first\"\n"),
        &["relay = \"next\"", "origin = \"first\""],
    );
    refused(
        &good.replace("seeds = 4", "seeds = 4\nlayout = [1, 2]"),
        &["[board] seeds and layout"],
    );
    refused(
        &good.replace("[capture]\n", "[capture]\nchain = \"backward\"\n"),
        &["[capture] chain", "counts"],
    );
    refused(
        &good.replace("[end]\n", "[end]\nempty-turn = \"pass\"\n"),
        &["[end] empty-turn", "when-row-empty"],
    );
    refused(
        &good.replace("[end]\n", "[end]\nborrow = true\n"),
        &["[end] borrow", "empty-turn = \"refill\""],
    );
    refused(
        &good.replace(
            "seeds = 4",
            "seeds = 4\n\n[board.end-pits]\nbig = 10\ngap = false",
        ),
        &["gap = false", "after-empty"],
    );
    // The name of one of kete's own games is not a file's to take.
    refused(
        &good.replace("name = \"kalah-described\"", "name = \"oware\""),
        &["oware", "kete's games"],
    );
    // A file that cannot be read names its path.
    let e = Variant::by_name("file:/no/such/game.toml").unwrap_err();
    assert!(e.contains("/no/such/game.toml"), "{e}");
    // And the good one is taken.
    assert!(Variant::from_description(&good, "test.toml").is_ok());
}

/// Every built-in description reads, names its sources, and starts a game
/// whose moves can be played to the end.
#[test]
fn every_built_in_description_plays_a_game_to_its_end() {
    use kete::variants::described::catalogue::built_in;
    assert!(!built_in().is_empty());
    for r in built_in() {
        let g = &r.spec.game;
        assert!(!g.sources.is_empty(), "{} names no source", g.name);
        let v = Variant::by_name(&g.name).unwrap();
        assert_eq!(v.name(), g.name);
        for alias in &g.aliases {
            assert_eq!(Variant::by_name(alias).unwrap().name(), g.name, "{alias}");
        }
        let mut rng = Rng::new(7);
        let mut pos = Described::start(&DescribedRules(r));
        let mut seen = vec![pos];
        let mut moves = Vec::new();
        for _ in 0..2000 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
            if pos.repetition_outcome().is_some() && seen.contains(&pos) {
                break;
            }
            seen.push(pos);
        }
        assert!(
            pos.outcome().is_some() || seen.len() > 1,
            "{}: no move was played",
            g.name
        );
    }
}

/// Ô ăn quan's borrowing: a player whose squares are empty at his turn and
/// whose store holds fewer dân than he has squares borrows the rest; the
/// token writes his store `~` and what he owes, and the final count takes
/// it off.
#[test]
fn o_an_quan_borrows_what_a_refill_lacks() {
    let Variant::Described(rules) = Variant::by_name("o-an-quan").unwrap() else {
        panic!("o-an-quan is a described game");
    };
    // South's squares are empty and his store holds 2 of the 5 he needs.
    let pos = Described::from_notation(&rules, "0-0-0-0-0-0*-5-5-5-0-0-0*-2-33-S").unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 10, "every square, both ways, after the refill");
    // A< sows the one dân of A into the left ô quan; the square after it
    // (North's e) is empty and so is the one beyond: nothing is taken.
    let after = pos.play(pos.parse_move("A<").unwrap());
    assert_eq!(after.to_notation(), "0-1-1-1-1-0*-5-5-5-0-0-1*-~3-33-N");
    assert_eq!(after.total_seeds(), 70);
    assert_eq!(
        Described::from_notation(&rules, &after.to_notation()).unwrap(),
        after
    );
    // At the end what South owes comes off his count: 4 dân in his row,
    // 3 owed.
    let end = Described::from_notation(&rules, "0-1-1-1-1-0-0-0-0-0-0-0-~3-69-N").unwrap();
    assert_eq!(end.outcome().unwrap().seeds, Some((1, 69)));
    // A debt is only written where the rules borrow.
    let Variant::Described(sungka) = Variant::by_name("sungka").unwrap() else {
        panic!("sungka is a described game");
    };
    assert!(Described::from_notation(&sungka, "7-7-7-7-7-7-7-7-7-7-7-7-7-7-~1-1-S").is_err());
}
