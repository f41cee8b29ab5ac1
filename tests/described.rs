//! Described games against kete's own modules: Kalah (both captures) and
//! Oware (Awari and Abapa) written as descriptions
//! (`examples/descriptions/`) must count the same perft as the native
//! modules and agree with them at every position of 1,000 random games:
//! the position token, the legal moves, the outcome and why the game
//! ended, and the repetition rule.

mod common;

use common::described::{after, legal};
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
    // The fields added for Sonka, Meusueb, Wouri, Gabata of Ansaba,
    // Enindji, Adji-boto and English Wari, where they contradict others.
    refused(
        &good.replace("[sow]\n", "[sow]\nrelay-over-store = true\n"),
        &["[sow] relay-over-store", "relay = \"next\""],
    );
    refused(
        &good.replace("[sow]\n", "[sow]\nafter-capture = \"next\"\n"),
        &["[sow] after-capture", "relay"],
    );
    refused(
        &good
            .replace(
                "[sow]\n",
                "[sow]\nrelay = \"last\"\nafter-capture = \"last\"\n",
            )
            .replace("opposite = \"empty-own\"", "opposite = \"none\""),
        &["[sow] after-capture", "ends-relay", "opposite"],
    );
    refused(
        &good.replace(
            "[capture]\n",
            "[capture]\ncounts = [4]\nends-relay = true\n",
        ),
        &["[capture] ends-relay", "relay"],
    );
    refused(
        &good.replace("[capture]\n", "[capture]\nsweep = true\n"),
        &["[capture] sweep", "counts"],
    );
    refused(
        &good.replace(
            "[capture]\n",
            "[capture]\ncounts = [4]\nchain = \"backward\"\nsweep = true\n",
        ),
        &["[capture] sweep", "chain"],
    );
    refused(
        &good.replace("[capture]\n", "[capture]\ncounts-taker = \"owner\"\n"),
        &["[capture] counts-taker", "counts"],
    );
    refused(
        &good.replace("[capture]\n", "[capture]\ntarget = \"next\"\n"),
        &["[capture] target", "counts"],
    );
    refused(
        &format!("{good}\n[feed]\nleave = \"a-move\"\n"),
        &["[feed] leave", "starving", "must-feed"],
    );
    refused(
        &format!(
            "{}\n[move]\nopening = \"each-pit-once\"\n",
            good.replace("[sow]\n", "[sow]\nrelay = \"last\"\n")
        ),
        &["[move] opening", "relay"],
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

/// The perft table of protocol/RULES.md ("Described games", "Perft") is
/// what kete counts, and lists every built-in described game.
#[test]
fn every_described_game_counts_the_perft_of_this_table() {
    let rules =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol/RULES.md")).unwrap();
    let table = rules
        .split("### Perft")
        .nth(1)
        .expect("a Perft section")
        .split("###")
        .next()
        .unwrap();
    let mut seen = Vec::new();
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let name = cells[0].trim_matches('`');
        let Variant::Described(r) = Variant::by_name(name).unwrap() else {
            panic!("{name} is not a described game");
        };
        let start = Described::start(&r);
        for (depth, want) in cells[1..].iter().enumerate() {
            let want: u64 = want.parse().unwrap();
            let got = perft(&start, depth as u32 + 1, true).sequences;
            assert_eq!(got, want, "{name} depth {}", depth + 1);
        }
        seen.push(name.to_string());
    }
    for r in kete::variants::described::catalogue::built_in() {
        assert!(
            seen.contains(&r.spec.game.name),
            "{} has no row in RULES.md's perft table",
            r.spec.game.name
        );
    }
}

/// The built-in game `name`, or its text with `edit` applied.
fn game(name: &str, edit: Option<(&str, &str)>) -> DescribedRules {
    let Variant::Described(r) = Variant::by_name(name).unwrap() else {
        panic!("{name} is not described");
    };
    let Some((from, to)) = edit else { return r };
    let text = r
        .rules()
        .text
        .replace(&format!("name = \"{name}\""), "name = \"edited\"");
    assert!(text.contains(from), "{name} has no {from:?}");
    let text = text.replace(from, to);
    let text = text
        .lines()
        .filter(|l| !l.starts_with("aliases"))
        .collect::<Vec<_>>()
        .join("\n");
    match Variant::from_description(&text, "edited.toml").unwrap() {
        Variant::Described(r) => r,
        other => panic!("{other:?}"),
    }
}

/// Enindji: a four made in North's row is North's, whoever made it.
#[test]
fn enindji_gives_a_four_to_the_owner_of_its_pit() {
    let enindji = game("enindji", None);
    assert_eq!(
        after(&enindji, "0-0-0-0-0-1-3-4-4-4-4-4-10-14-S", &["F"]),
        "0-0-0-0-0-0-0-4-4-4-4-4-10-18-N"
    );
}

/// Sonka: the relay looks past the mover's store, and a move that ends
/// in his own row takes the pit across.
#[test]
fn sonka_relays_past_the_store_and_takes_across_from_its_own_row() {
    // The last seed in E, South's store next: it is passed over and a is
    // lifted; the relay ends in North's row, taking nothing.
    let sonka = game("sonka", None);
    assert_eq!(
        after(&sonka, "0-0-0-1-0-2-0-0-0-0-30-27-S", &["D"]),
        "0-0-0-0-1-0-1-1-0-0-30-27-N"
    );
    // Without relay-over-store the store ends the relay, and E takes the
    // pit across (a); North, left without seeds, has only the pass.
    let sonka_stop = game("sonka", Some(("relay-over-store = true", "")));
    assert_eq!(
        after(&sonka_stop, "0-0-0-1-0-2-0-0-0-0-30-27-S", &["D"]),
        "0-0-0-0-1-0-0-0-0-0-32-27-N"
    );
    assert_eq!(
        after(&sonka_stop, "0-0-0-1-0-2-0-0-0-0-30-27-S", &["D", "pass"]),
        "0-0-0-0-1-0-0-0-0-0-32-27-S"
    );
    // Ending in his own row (D, which held nothing) before an empty pit,
    // South takes the pit across (b); his seed stays.
    assert_eq!(
        after(&sonka, "0-0-1-0-0-1-3-0-0-0-30-25-S", &["C"]),
        "0-0-0-1-0-1-0-0-0-0-33-25-N"
    );
}

/// Meusueb: a last seed that makes four in F takes them, and the sowing
/// goes on from a, the next pit.
#[test]
fn meusueb_takes_a_four_and_sows_on_from_the_next_pit() {
    let meusueb = game("meusueb", None);
    assert_eq!(
        after(&meusueb, "0-0-0-0-1-3-1-0-0-0-0-2-20-21-S", &["E"]),
        "0-0-0-0-0-0-0-1-0-0-0-2-24-21-N"
    );
}

/// Wouri: a four made in a by the last seed takes every four of North's
/// row.
#[test]
fn wouri_takes_every_four_of_the_opponents_row() {
    let wouri = game("wouri", None);
    assert_eq!(
        after(&wouri, "2-0-0-0-0-1-3-2-4-0-0-0-18-18-S", &["F"]),
        "2-0-0-0-0-0-0-2-0-0-0-0-26-18-N"
    );
}

/// Gabata of Ansaba: F takes a across, and its seed goes on into a.
#[test]
fn gabata_sows_the_capturing_seed_on() {
    let gabata = game("gabata-ansaba", None);
    assert_eq!(
        after(&gabata, "1-0-0-0-1-0-2-0-0-0-0-3-15-14-S", &["E"]),
        "1-0-0-0-0-0-1-0-0-0-0-3-17-14-N"
    );
}

/// English Wari: the opening moves every seed of a pit into the next one,
/// once for each player; after it a pit needs two seeds, and a move must
/// leave the opponent a pit he can play.
#[test]
fn english_wari_opens_with_a_transfer_and_leaves_the_opponent_a_move() {
    let wari = game("english-wari", None);
    let start = Described::start(&wari).to_notation();
    assert_eq!(start, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-.");
    assert_eq!(
        after(&wari, &start, &["C", "f"]),
        "8-4-0-8-4-4-4-4-4-4-4-0-0-0-S-Cf"
    );
    // North has no pit of two: South must give him one (F, not D).
    let hungry = "0-0-0-2-0-7-0-0-0-0-0-1-19-19-S-Cf";
    assert_eq!(legal(&wari, hungry), ["F"]);
}

/// Adji-boto: each player sows from each of his holes once, capturing
/// nothing, before the game proper; then the hole after the last one is
/// taken at 1, 3 or 5, and the holes after it while they are too.
#[test]
fn adjiboto_opens_with_each_hole_once_and_takes_forward() {
    let adji = game("adjiboto", None);
    let start = Described::start(&adji).to_notation();
    assert_eq!(legal(&adji, &start), ["A", "B", "C", "D", "E"]);
    let opened = after(&adji, &start, &["C", "b"]);
    assert!(opened.ends_with("-S-Cb"), "{opened}");
    assert_eq!(legal(&adji, &opened), ["A", "B", "D", "E"]);
    // The first pebble back into A, the last one into B; C after it holds
    // 3 and D 5: both taken, and E (2) ends the chain.
    let open = "2-0-3-5-2-20-20-20-20-2-0-6-S-ABCDEabcde";
    assert_eq!(
        after(&adji, open, &["A"]),
        "1-1-0-0-2-20-20-20-20-2-8-6-N-ABCDEabcde"
    );
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

/// Every built-in game ends: random games, and games of the first legal
/// move (the likeliest to chase a few seeds round the board for ever),
/// reach a position without moves or a repetition that ends the game,
/// within 3,000 plies.
#[test]
fn every_built_in_game_ends_even_where_seeds_chase_each_other() {
    let mut rng = Rng::new(7);
    for r in kete::variants::described::catalogue::built_in() {
        let rules = DescribedRules(r);
        for game in 0..101 {
            let mut pos = Described::start(&rules);
            let mut seen = std::collections::HashSet::new();
            let mut ended = false;
            for _ in 0..3000 {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    ended = true;
                    break;
                }
                let mv = if game == 0 {
                    moves[0]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos = pos.play(mv);
                if !seen.insert(pos) && pos.repetition_outcome().is_some() {
                    ended = true;
                    break;
                }
            }
            assert!(
                ended,
                "{} game {game}: no end in 3,000 plies",
                r.spec.game.name
            );
        }
    }
}
