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
