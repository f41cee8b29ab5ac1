//! Issue 12, "a new user's first hour": the README's first command, the
//! lists people read (`d`, perft's divide), error messages of the command
//! line, and the end reason every variant gives.

use std::process::Command;

mod common;

use common::run_with_input;
use kete::game::{EndReason, Game, GameRecord};
use kete::variants::{VARIANT_NAMES, Variant, VariantVisitor};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const KETE: &str = env!("CARGO_BIN_EXE_kete");

/// The README's first command, exactly: `cargo run --release` must start the
/// engine (not ask which binary), which greets and answers `help`.
#[test]
fn cargo_run_release_starts_the_engine_as_the_readme_says() {
    let readme = include_str!("../README.md");
    assert!(readme.contains("cargo run --release        # starts the engine"));
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["run", "--release", "--quiet"])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let (out, err, ok) = run_with_input(cmd, "help\n");
    assert!(ok, "cargo run --release failed: {err}");
    let mut lines = out.lines();
    let greeting = lines.next().unwrap_or_default();
    assert!(greeting.starts_with("kete "), "greeting: {greeting}\n{err}");
    assert!(
        out.contains("kete speaks UGI (and UCI). Commands:"),
        "help: {out}"
    );
}

/// `--divide` and `go perft` list the moves as `d` does, A first.
#[test]
fn divide_lists_moves_in_pit_order_a_first() {
    let out = Command::new(KETE)
        .args(["perft", "--variant", "kalah", "--depth", "2", "--divide"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let moves: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(": ").map(|(m, _)| m))
        .filter(|m| m.len() == 1)
        .collect();
    assert_eq!(moves, ["A", "B", "C", "D", "E", "F"], "{text}");
    let (out, _, _) = run_with_input(
        Command::new(KETE),
        "setoption name Variant value bao-kiswahili\nquery moves\ngo perft 1\n",
    );
    let listed: Vec<&str> = out
        .lines()
        .find_map(|l| l.strip_prefix("response "))
        .unwrap()
        .split(' ')
        .collect();
    let divided: Vec<&str> = out
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("Nodes") && l.contains(": "))
        .map(|l| l.split_once(": ").unwrap().0)
        .collect();
    assert_eq!(listed, divided);
    assert_eq!(listed, ["A6<", "A6>", "A7<", "A7>"]);
}

/// `d` prints the position token and the side to move once each, in every
/// variant (the board drawings used to print them too).
#[test]
fn d_prints_fen_and_side_to_move_once() {
    for v in VARIANT_NAMES {
        let (out, _, _) = run_with_input(
            Command::new(KETE),
            &format!("setoption name Variant value {v}\nd\n"),
        );
        let count = |needle: &str| out.lines().filter(|l| l.contains(needle)).count();
        assert_eq!(count("Fen:"), 1, "{v}:\n{out}");
        assert_eq!(count("position "), 0, "{v}:\n{out}");
        assert_eq!(count("to move"), 1, "{v}:\n{out}");
        assert_eq!(count("Side to move: South (p1)"), 1, "{v}:\n{out}");
    }
}

/// A file that cannot be read is named once, with its error once.
#[test]
fn a_missing_file_is_reported_once() {
    let cases: [&[&str]; 2] = [
        &["egtb", "verify", "/no/such/kete.db"],
        &["solve", "--egtb", "/no/such/kete.db"],
    ];
    for args in cases {
        let out = Command::new(KETE).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert_eq!(
            err.matches("No such file or directory").count(),
            1,
            "{args:?}: {err}"
        );
        assert!(err.contains("/no/such/kete.db"), "{err}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_kete-arena"))
        .args(["--engine", "cmd=a", "--engine", "cmd=b", "name=b"])
        .args(["--openings", "file=/no/such/openings.txt", "--out"])
        .arg(std::env::temp_dir().join(format!("kete-missing-{}", std::process::id())))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

/// Random games of every variant: the variant gives an end reason exactly
/// when it says the game is over, and the reasons seen fit the variant.
struct RandomGames(u64);

impl VariantVisitor for RandomGames {
    type Output = Vec<EndReason>;
    fn visit<G: Game>(self, rules: G::Rules) -> Vec<EndReason> {
        let mut rng = StdRng::seed_from_u64(self.0);
        let mut seen = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut record = GameRecord::new(G::start(&rules));
            for _ in 0..400 {
                let pos = record.position();
                assert_eq!(
                    pos.outcome().is_some(),
                    pos.end_reason().is_some(),
                    "{}",
                    pos.to_notation()
                );
                assert_eq!(record.outcome().is_some(), record.end_reason().is_some());
                record.legal_moves(&mut moves);
                if moves.is_empty() {
                    let r = record.end_reason().expect("a finished game says why");
                    if !seen.contains(&r) {
                        seen.push(r);
                    }
                    break;
                }
                record.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        seen
    }
}

#[test]
fn every_variant_says_why_its_games_end() {
    use kete::game::Side::{North, South};
    // Every registered game's random games end with a reason; the ones
    // below must also show these reasons.
    for name in kete::variants::VARIANT_NAMES {
        let seen = Variant::by_name(name).unwrap().visit(RandomGames(12));
        assert!(!seen.is_empty(), "{name}: no game ended with a reason");
    }
    for (name, options, expected) in [
        ("kalah", vec![], vec![EndReason::RowEmptied]),
        (
            "oware",
            vec![],
            vec![
                EndReason::Majority(South),
                EndReason::Majority(North),
                EndReason::Repetition,
            ],
        ),
        (
            "oware",
            vec![("Rules", "abapa")],
            vec![EndReason::Majority(South), EndReason::Majority(North)],
        ),
        (
            "endodoi",
            vec![],
            vec![EndReason::EmptyRow(South), EndReason::EmptyRow(North)],
        ),
        (
            "bao-kiswahili",
            vec![],
            vec![
                EndReason::FrontRowEmpty(South),
                EndReason::FrontRowEmpty(North),
            ],
        ),
    ] {
        let mut v = Variant::by_name(name).unwrap();
        for (k, val) in &options {
            v.set_option(k, val).unwrap();
        }
        let seen = v.visit(RandomGames(12));
        for r in &expected {
            assert!(
                seen.contains(r),
                "{name} {options:?}: {r:?} not among {seen:?}"
            );
        }
        eprintln!("{name} {options:?}: {seen:?}");
    }
}
