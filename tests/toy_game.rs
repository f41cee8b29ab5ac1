//! A sixth game added the way docs/design/layers.md ("How to add a game") says, but
//! kept in the tests: "Toy" (`tests/toy/game.rs`, its rules there), three
//! pits a side and a store each, no captures and no extra turns.
//!
//! The game's file is written as a module of `src/variants/` would be: its
//! `Game` impl, its rules with their options table, its evaluator table and
//! its `SolveGame` impl. That alone lets the generic parts of kete work on
//! it, which the tests below check in every build: the test battery, perft,
//! the search and the exact solver. A real game then takes one row in the
//! registration table of `src/variants/mod.rs`; the toy's row is there too,
//! behind the test-only feature `toy` (with the `mod` line that includes
//! this file, and the feature in Cargo.toml). With the feature on (`cargo
//! test --release --features toy --test toy_game`, which `.ci/run` runs) the
//! library and both binaries know the variant `toy`, and the tests at the
//! end drive it by name through the protocol, `kete perft`, `kete solve`
//! and `kete-arena`, none of which was changed for it.

use std::collections::HashMap;

use kete::game::Game;
use kete::perft::{perft, perft_divide};
use kete::search::time::Limits;
use kete::search::{Settings, Shared, search};
use kete::solve::{SolveOptions, solve};

// The game's file names kete's items by `crate::` paths, as a module of the
// library does; these make the same paths work in this test crate.
#[cfg(not(feature = "toy"))]
use kete::{game, options, spin_option};
#[cfg(not(feature = "toy"))]
#[path = "toy/game.rs"]
mod toy;
#[cfg(feature = "toy")]
use kete::variants::toy;
use toy::{Toy, ToyRules};

mod common;
use common::battery::{Effort, check_game};

/// The final margin for the side to move with perfect play, by plain
/// memoised minimax: the game has no cycles (it panics if one is met).
fn minimax(pos: &Toy, memo: &mut HashMap<Toy, i32>, path: &mut Vec<Toy>) -> i32 {
    if let Some(o) = pos.outcome() {
        return o.margin_for(pos.side_to_move()).unwrap();
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    assert!(!path.contains(pos), "a cycle through {}", pos.to_notation());
    path.push(*pos);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let best = moves
        .iter()
        .map(|&m| -minimax(&pos.play(m), memo, path))
        .max()
        .unwrap();
    path.pop();
    memo.insert(*pos, best);
    best
}

#[test]
fn toy_passes_the_battery_for_every_seed_count() {
    for seeds in 1..=3 {
        let c = check_game::<Toy>(&ToyRules { seeds }, seeds as u64, Effort::default());
        assert!(c.finished > 0 && c.positions > 12, "{c:?}");
    }
}

#[test]
fn toy_perft_divide_sums_to_perft() {
    let start = Toy::start(&ToyRules { seeds: 2 });
    for depth in 1..=6 {
        let total = perft(&start, depth, false).sequences;
        let parts: u64 = perft_divide(&start, depth, false)
            .iter()
            .map(|(_, c)| c.sequences)
            .sum();
        assert_eq!(parts, total, "depth {depth}");
    }
    assert_eq!(perft(&start, 1, false).sequences, 3);
}

#[test]
fn toy_is_solved_by_the_generic_solver_and_searched_by_the_generic_search() {
    for seeds in 1..=3 {
        let start = Toy::start(&ToyRules { seeds });
        let exact = minimax(&start, &mut HashMap::new(), &mut Vec::new());
        let opts = SolveOptions {
            hash_mb: 4,
            ..SolveOptions::default()
        };
        let solved = solve(&start, &opts, &mut |_| {});
        assert!(solved.complete);
        assert_eq!(solved.value, exact, "{seeds} seeds");
        let best = solved.best[0];
        assert_eq!(
            -minimax(&start.play(best), &mut HashMap::new(), &mut Vec::new()),
            exact
        );

        // Deep enough to see every game to its end: the score is proven
        // and is the exact margin.
        let shared = Shared::new(4);
        let limits = Limits {
            depth: Some(40),
            ..Limits::default()
        };
        let r = search(
            &start,
            &[start.hash()],
            &limits,
            &Settings::default(),
            &shared,
            &mut |_| {},
        );
        assert!(r.proven, "{seeds} seeds");
        assert_eq!(r.score, 100 * exact, "{seeds} seeds");
    }
}

/// From here on: the registered game, reached by its name.
#[cfg(feature = "toy")]
mod registered {
    use std::process::Command;

    use kete::game::Game;
    use kete::variants::{OptionKind, Variant};

    const KETE: &str = env!("CARGO_BIN_EXE_kete");
    const ARENA: &str = env!("CARGO_BIN_EXE_kete-arena");

    fn run(cmd: &str, args: &[&str], input: &str) -> String {
        let mut c = Command::new(cmd);
        c.args(args);
        let (out, err, ok) = crate::common::run_with_input(c, input);
        assert!(ok, "{cmd} {args:?}: {err}");
        out
    }

    #[test]
    fn toy_is_a_variant_with_the_options_of_its_table() {
        let mut v = Variant::by_name("Toy").unwrap();
        assert_eq!(v.name(), "toy");
        let options = v.options();
        assert_eq!(options.len(), 1);
        assert_eq!(options[0].name, "Seeds");
        assert_eq!(
            options[0].kind,
            OptionKind::Spin {
                min: 1,
                max: 6,
                default: 2
            }
        );
        v.set_option("seeds", "3").unwrap();
        assert_eq!(v.option_values(), vec![("Seeds", "3".to_string())]);
        let e = v.set_option("Seeds", "7").unwrap_err();
        assert!(e.contains("1..6"), "{e}");
        let e = v.set_option("Pits", "3").unwrap_err();
        assert!(e.contains("does not apply to toy"), "{e}");
    }

    #[test]
    fn toy_through_the_protocol() {
        let out = run(
            KETE,
            &[],
            "ugi\nsetoption name Variant value toy\nsetoption name Seeds value 3\n\
             position startpos moves A\nquery fen\nquery option Seeds\ngo depth 30\n\
             position startpos\ngo solve\n",
        );
        assert!(out.contains(" var toy"), "{out}");
        assert!(out.contains("response 0-4-4-3-3-3-1-0-N"), "{out}");
        assert!(out.contains("response 3\n"), "{out}");
        assert_eq!(out.matches("bestmove ").count(), 2, "{out}");
        assert!(out.contains("info string proven score cp"), "{out}");
    }

    #[test]
    fn toy_through_the_command_lines() {
        // The flag --seeds comes from the toy's options table.
        let out = run(
            KETE,
            &["perft", "--variant", "toy", "--seeds", "2", "--depth", "6"],
            "",
        );
        let start = super::Toy::start(&super::ToyRules { seeds: 2 });
        let total = super::perft(&start, 6, false).sequences;
        assert!(out.contains(&format!("total: {total}\n")), "{out}");
        let out = run(
            KETE,
            &["solve", "--variant", "toy", "--option", "Seeds=1"],
            "",
        );
        assert!(out.contains("value"), "{out}");

        let dir = std::env::temp_dir().join(format!("kete-toy-arena-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let engine = format!("cmd={KETE}");
        run(
            ARENA,
            &[
                "--variant",
                "toy",
                "--seeds",
                "3",
                "--engine",
                &engine,
                "name=a",
                "depth=2",
                "--engine",
                &engine,
                "name=b",
                "depth=4",
                "--games",
                "2",
                "--out",
                dir.to_str().unwrap(),
            ],
            "",
        );
        let games = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
        assert_eq!(games.lines().count(), 2, "{games}");
        for line in games.lines() {
            assert!(line.contains("\"variant\":\"toy\""), "{line}");
            assert!(line.contains("\"Seeds\":\"3\""), "{line}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
