//! Opening books through the binary: `kete book build` by the solver and by
//! searches, `kete book show`, the book compiled in, and the engine's
//! `OwnBook`.

use std::collections::HashMap;

use kete::game::Game;
use kete::search::book::{Book, positions_near};
use kete::variants::kalah::{Capture, Kalah, KalahRules};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const KETE: &str = env!("CARGO_BIN_EXE_kete");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kete-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kete(args: &[&str], cache: &PathBuf) -> Output {
    Command::new(KETE)
        .args(args)
        .env("KETE_EGTB_DIR", cache)
        .output()
        .expect("run kete")
}

fn ok(args: &[&str], cache: &PathBuf) -> (String, String) {
    let out = kete(args, cache);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "kete {}: {err}", args.join(" "));
    (String::from_utf8_lossy(&out.stdout).to_string(), err)
}

fn refused(args: &[&str], what: &str) {
    let d = dir("refused");
    let out = kete(args, &d);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "kete {} should fail", args.join(" "));
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(what), "expected '{what}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A book's lines: position → [(move, score)], best first.
fn entries(text: &str) -> HashMap<String, Vec<(String, i32)>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace();
            let pos = f.next().unwrap().to_string();
            let moves = f
                .map(|m| {
                    let (mv, v) = m.split_once(':').unwrap();
                    (mv.to_string(), v.parse().unwrap())
                })
                .collect();
            (pos, moves)
        })
        .collect()
}

/// `value <South's margin> best <moves>` of a plain solve of Kalah(4,3).
fn solve(fen: &str, cache: &PathBuf, extra: &[&str]) -> (i32, Vec<String>) {
    let mut args = vec![
        "solve",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--fen",
        fen,
        "--all-best",
        "--threads",
        "1",
    ];
    args.extend(extra);
    let (out, _) = ok(&args, cache);
    let f: Vec<&str> = out.split_whitespace().collect();
    assert_eq!((f[0], f[2]), ("value", "best"), "{out}");
    (
        f[1].parse().unwrap(),
        f[3..].iter().map(|s| s.to_string()).collect(),
    )
}

#[test]
fn a_book_of_exact_values_holds_what_the_solver_says_of_each_position() {
    let d = dir("exact");
    let jobs = d.join("jobs").display().to_string();
    let out = d.join("small.book").display().to_string();
    let line = format!(
        "book build --variant kalah --pits 4 --seeds 3 --plies 3 --jobs {jobs} --out {out}"
    );
    let args: Vec<&str> = line.split(' ').collect();
    let (said, err) = ok(&args, &d);
    assert!(said.starts_with("book: "), "{said}");
    assert!(err.contains("book: solved"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with("# kete opening book: kalah Pits=4 Seeds=3"),
        "{text}"
    );
    let book = entries(&text);
    assert!(book.len() > 10, "{}", book.len());
    // Every position's best moves and value are a plain solve's (the solve
    // gives South's margin; the book the side to move's, in centiseeds).
    for (pos, moves) in &book {
        let extra: &[&str] = &["--hash", "4"];
        let (value, best) = solve(pos, &d, extra);
        let south = pos.ends_with('S');
        let top = moves[0].1;
        assert_eq!(100 * if south { value } else { -value }, top, "{pos}");
        let mut listed: Vec<String> = moves
            .iter()
            .filter(|m| m.1 == top)
            .map(|m| m.0.clone())
            .collect();
        let mut best = best;
        listed.sort();
        best.sort();
        assert_eq!(listed, best, "{pos}");
    }
    // Run again, it solves nothing and writes the same book.
    let (_, err) = ok(&args, &d);
    assert!(!err.contains("book: solved"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    // Another split into the same folder is refused.
    let mut other = args.to_vec();
    other[9] = "2";
    refused(&other, "already holds another split");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_book_of_searches_has_one_move_for_each_position_near_the_start() {
    let d = dir("search");
    let out = d.join("s.book").display().to_string();
    let (said, _) = ok(
        &[
            "book",
            "build",
            "--variant",
            "oware",
            "--pits",
            "4",
            "--plies",
            "2",
            "--depth",
            "6",
            "--threads",
            "1",
            "--out",
            &out,
        ],
        &d,
    );
    // The start and the position after each of South's 4 moves.
    assert!(said.starts_with("book: 5 positions"), "{said}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("searches to depth 6"), "{text}");
    for (pos, moves) in entries(&text) {
        assert_eq!(moves.len(), 1, "{pos}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Kalah(6,4)'s book: every move's value is the best value of the position
/// it leads to, where that one is in the book too (the side to move's
/// view, so negated when the turn passes), and the start is worth +8 with
/// C best, the value `kete solve --variant kalah` finds (tests/split_solve.rs).
#[test]
fn the_kalah_book_compiled_in_backs_up_and_starts_at_plus_8() {
    let d = dir("compiled");
    let (out, _) = ok(&["book", "show", "--variant", "kalah"], &d);
    assert!(
        out.contains("position 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
        "{out}"
    );
    let first = out.lines().nth(2).unwrap();
    assert_eq!(first.split_whitespace().collect::<Vec<_>>(), ["C", "+800"]);
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/variants/books/kalah.book"),
    )
    .unwrap();
    let book = entries(&text);
    assert!(book.len() > 100, "{}", book.len());
    let mut checked = 0;
    for (pos, moves) in &book {
        for (mv, v) in moves {
            let (after, _) = ok(
                &[
                    "book",
                    "show",
                    "--variant",
                    "kalah",
                    "--fen",
                    pos,
                    "--moves",
                    mv,
                ],
                &d,
            );
            let child = after
                .lines()
                .nth(1)
                .unwrap()
                .trim_start_matches("position ");
            let Some(next) = book.get(child) else {
                continue;
            };
            let same = child.ends_with(&pos[pos.len() - 1..]);
            let w = next[0].1;
            assert_eq!(*v, if same { w } else { -w }, "{pos} {mv}");
            checked += 1;
        }
        if checked > 60 {
            break;
        }
    }
    assert!(checked > 60, "{checked}");
}

#[test]
fn bad_book_commands_are_refused_with_the_reason() {
    let d = dir("bad");
    let at = |name: &str| d.join(name).display().to_string();
    let (jobs, out, small, bad) = (at("jobs"), at("b"), at("small"), at("bad.book"));
    let cases = [
        (
            format!("book build --variant kalah --plies 0 --jobs {jobs} --out {out}"),
            "--plies takes at least 1 move".to_string(),
        ),
        (
            format!("book build --variant kalah --plies 2 --out {out}"),
            "give --jobs DIR".to_string(),
        ),
        (
            format!("book build --variant bao --plies 2 --jobs {jobs} --out {out}"),
            "build its book by searches".to_string(),
        ),
        (
            format!("book build --variant oware --plies 2 --depth 0 --out {out}"),
            "--depth 0 is not a depth".to_string(),
        ),
        (
            format!("book build --variant kalah --plies 1 --jobs {jobs} --also no/such/dir --out {out}"),
            "no/such/dir".to_string(),
        ),
        // An --also split of another start is refused before anything is
        // split or solved, or a database built.
        (
            format!("book build --variant kalah --plies 1 --jobs {jobs} --also {small} --out {out}"),
            "is a split of kalah 3-3-3-3-3-3-3-3-0-0-S, not of the book's start kalah 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S".to_string(),
        ),
        (
            "book build --variant oware --plies 2 --depth 4 --out no/such/b".to_string(),
            "cannot write no/such/b: no/such is not a folder".to_string(),
        ),
        (
            "book show --variant endodoi".to_string(),
            "has no positions for these rules".to_string(),
        ),
        (
            "book show --variant kalah --moves C,Z".to_string(),
            "--moves: move 2 'Z'".to_string(),
        ),
        (
            format!("book show --variant kalah --book {bad}"),
            "book line 2: move 'Q'".to_string(),
        ),
    ];
    let split = format!("solve --variant kalah --pits 4 --seeds 3 --split 1 --jobs {small}");
    ok(&split.split(' ').collect::<Vec<_>>(), &d);
    std::fs::write(&bad, "# fine\n4-4-4-4-4-4-4-4-4-4-4-4-0-0-S C:+800 Q:+1\n").unwrap();
    for (line, says) in &cases {
        // Commas stand for the spaces inside one argument.
        let args: Vec<String> = line.split(' ').map(|a| a.replace(',', " ")).collect();
        let args: Vec<&str> = args.iter().map(|a| a.as_str()).collect();
        refused(&args, says);
    }
    assert!(!d.join("jobs").exists(), "nothing was split");
    let _ = std::fs::remove_dir_all(&d);
}

/// The engine's answer to `script` (its input then closed: a bounded
/// search still ends with its bestmove), and how long it took.
fn engine(script: &str) -> (String, std::time::Duration) {
    let d = dir("engine");
    let mut child = Command::new(KETE)
        .env("KETE_EGTB_DIR", &d)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let took = started.elapsed();
    let _ = std::fs::remove_dir_all(&d);
    (String::from_utf8_lossy(&out.stdout).to_string(), took)
}

/// The engine: `OwnBook` plays the book's move at once in a game on the
/// clock, and analysis searches as before.
#[test]
fn own_book_answers_a_timed_go_and_leaves_analysis_alone() {
    let on = "setoption name OwnBook value true\nposition startpos\n";
    let (text, took) = engine(&format!("{on}go movetime 5000\n"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1..],
        ["info string book move C score cp 800", "bestmove C"],
        "{text}"
    );
    // Answered without its 5 s of search.
    assert!(took.as_secs() < 4, "{took:?}");
    // A fixed depth is analysis: it searches.
    let (text, _) = engine(&format!("{on}go depth 3\n"));
    assert!(text.contains("info depth 3 "), "{text}");
    assert!(!text.contains("book move"), "{text}");
    // Kalah(5,4) has no book: a timed go searches.
    let (text, _) = engine(&format!(
        "setoption name Pits value 5\n{on}go movetime 50\n"
    ));
    assert!(text.contains("info depth "), "{text}");
    assert!(!text.contains("book move"), "{text}");
    // Off (the default), the book is not used.
    let (text, _) = engine("position startpos\ngo movetime 50\n");
    assert!(text.contains("info depth "), "{text}");
    assert!(!text.contains("book move"), "{text}");
}

/// The book compiled in reads under its rules (every position one of
/// Kalah(6,4)'s, every move legal) and holds every position fewer than 4
/// moves from the start, each with every legal move; other rules have
/// none.
#[test]
fn the_book_compiled_in_fits_kalah_6_4_and_no_other_rules() {
    let rules = KalahRules::default();
    let book = Book::<Kalah>::parse(&rules, Kalah::book(&rules)).expect("the book reads");
    let near = positions_near(&Kalah::start(&rules), 4);
    assert_eq!(book.len(), near.len());
    for pos in &near {
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        assert_eq!(book.moves(pos).len(), legal.len(), "{}", pos.to_notation());
    }
    let empty = KalahRules {
        capture: Capture::Empty,
        ..rules
    };
    assert_eq!(Kalah::book(&empty), "");
    assert_eq!(Kalah::book(&KalahRules { seeds: 5, ..rules }), "");
}
