//! Databases chosen and kept for the user: `kete solve` and `go solve` with
//! no database named pick the one the variant chooses, build it once into
//! the cache folder and load it afterwards; the value never changes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::EngineProcess;

const KETE: &str = env!("CARGO_BIN_EXE_kete");

fn fresh_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kete-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `kete solve ARGS` with the cache folder `dir` (by the environment, the
/// way a user would set it once): (stdout, stderr).
fn solve(dir: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(KETE)
        .arg("solve")
        .args(args)
        .env("KETE_EGTB_DIR", dir)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        out.status.success(),
        "kete solve {args:?}: {}",
        text(&out.stderr)
    );
    (text(&out.stdout), text(&out.stderr))
}

#[test]
fn kete_solve_builds_the_chosen_database_once_and_loads_it_afterwards() {
    let dir = fresh_dir("kalah");
    // Kalah(3,6): 36 seeds in play, more than a plain solve handles at
    // once, and the database of all 36 seeds on 6 pits is small.
    let kalah = ["--variant", "kalah", "--pits", "3", "--seeds", "6"];
    let (plain, err) = solve(&dir, &[&kalah[..], &["--no-egtb"]].concat());
    assert!(!err.contains("egtb:"), "--no-egtb uses none: {err}");
    assert!(!dir.exists(), "--no-egtb writes nothing");

    let (first, err) = solve(&dir, &kalah);
    assert_eq!(first, plain, "the database does not change the answer");
    assert!(
        err.contains("egtb: building kalah, 3 pits, standard capture up to 36 seeds"),
        "{err}"
    );
    let file = dir.join("kalah-3-standard-36.egtb");
    assert!(file.exists(), "the database is kept: {err}");

    let (second, err) = solve(&dir, &kalah);
    assert_eq!(second, plain);
    assert!(!err.contains("building"), "{err}");
    assert!(
        err.contains(&format!("from {}", file.display())),
        "loaded from the cache: {err}"
    );

    // --egtb-dir names another folder, as EgtbDir does for the engine.
    let other = fresh_dir("kalah-other");
    let (third, err) = solve(
        &dir,
        &[&kalah[..], &["--egtb-dir", other.to_str().unwrap()]].concat(),
    );
    assert_eq!(third, plain);
    assert!(err.contains("building"), "{err}");
    assert!(other.join("kalah-3-standard-36.egtb").exists());

    // A damaged file is not trusted: it is built again, and says so.
    std::fs::write(&file, b"KETEEGTB and then nothing").unwrap();
    let (fourth, err) = solve(&dir, &kalah);
    assert_eq!(fourth, plain);
    assert!(err.contains("cannot be used"), "{err}");
    assert!(err.contains("building"), "{err}");

    // Small boards solve at once without one: none is chosen.
    let (_, err) = solve(&dir, &["--variant", "kalah", "--pits", "4", "--seeds", "3"]);
    assert!(!err.contains("egtb:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}

#[test]
fn oware_takes_a_database_only_where_it_answers_the_rules() {
    let dir = fresh_dir("oware");
    // Under split a database's endless play shared is the rule's value.
    let split = [
        "--variant",
        "oware",
        "--pits",
        "3",
        "--seeds",
        "3",
        "--repetition",
        "split",
        "--all-best",
    ];
    let (plain, _) = solve(&dir, &[&split[..], &["--no-egtb"]].concat());
    let (chosen, err) = solve(&dir, &split);
    assert_eq!(chosen, plain, "{err}");
    assert!(err.contains("up to 18 seeds"), "{err}");
    assert!(dir.join("oware-3-awari-18.egtb").exists());
    let (abapa, err) = solve(&dir, &[&split[..], &["--rules", "abapa"]].concat());
    assert!(dir.join("oware-3-abapa-18.egtb").exists(), "{err}");
    let (abapa_plain, _) = solve(
        &dir,
        &[&split[..], &["--rules", "abapa", "--no-egtb"]].concat(),
    );
    assert_eq!(abapa, abapa_plain);
    // Under own-side a database would answer another question: none.
    let (_, err) = solve(&dir, &["--variant", "oware", "--pits", "3", "--seeds", "2"]);
    assert!(!err.contains("egtb:"), "{err}");
    // It builds the repetition graph instead, and says so.
    assert!(
        err.lines()
            .any(|l| l.starts_with("graph positions ") && l.contains(" components ")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_awari_test_position_is_answered_by_the_database_chosen_for_it() {
    // The published database test position (16 seeds on the board): its
    // value is 0 and only F keeps it (A..F score -1 -1 -2 -2 -2 0).
    let dir = fresh_dir("awari");
    let args = [
        "--variant",
        "oware",
        "--rules",
        "awari",
        "--repetition",
        "split",
        "--fen",
        "1-1-1-1-1-2-4-2-3-0-0-0-16-16-S",
        "--all-best",
    ];
    let (first, err) = solve(&dir, &args);
    assert_eq!(first, "value +0 best F\n", "{err}");
    assert!(err.contains("up to 16 seeds"), "{err}");
    assert!(
        err.contains("note: below 17 seeds the value follows the database"),
        "{err}"
    );
    let (again, err) = solve(&dir, &args);
    assert_eq!(again, first);
    assert!(err.contains("oware-6-awari-16.egtb in"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reads lines until one satisfies `want`, failing after `limit`.
fn expect_line(e: &mut EngineProcess, limit: Duration, want: impl Fn(&str) -> bool) -> String {
    e.wait_for(limit, "the line", |l| want(l))
}

#[test]
fn go_solve_keeps_its_database_in_egtb_dir_and_stop_is_answered_during_a_build() {
    let dir = fresh_dir("engine");
    let mut e = EngineProcess::start();
    e.send(&format!("setoption name EgtbDir value {}", dir.display()));
    e.send("setoption name Pits value 3");
    e.send("setoption name Seeds value 6");
    e.send("position startpos");
    e.send("go solve");
    let first = expect_line(&mut e, Duration::from_secs(120), |l| {
        l.starts_with("bestmove") || l.contains("building")
    });
    assert!(first.contains("building kalah, 3 pits"), "{first}");
    let proven = expect_line(&mut e, Duration::from_secs(120), |l| {
        l.starts_with("info string proven")
    });
    expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("bestmove")
    });
    assert!(dir.join("kalah-3-standard-36.egtb").exists());
    e.send("query options");
    let options = expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("response")
    });
    assert!(
        options.ends_with(&format!("EgtbDir={}", dir.display())),
        "{options}"
    );
    // The next solve uses the database it has: nothing is built or loaded.
    let log_before = e.log.len();
    e.send("go solve");
    let again = expect_line(&mut e, Duration::from_secs(60), |l| {
        l.starts_with("info string proven")
    });
    assert_eq!(again, proven);
    expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("bestmove")
    });
    assert!(
        !e.log[log_before..].iter().any(|l| l.contains("egtb")),
        "{:?}",
        &e.log[log_before..]
    );

    // Kalah(6,4) takes a database of 20 seeds, tens of seconds to build:
    // a stop is answered at once all the same.
    e.send("setoption name Pits value 6");
    e.send("setoption name Seeds value 4");
    e.send("position startpos");
    e.send("go solve");
    expect_line(&mut e, Duration::from_secs(30), |l| {
        l.contains("building kalah, 6 pits")
    });
    let t = Instant::now();
    e.send("stop");
    let said = expect_line(&mut e, Duration::from_secs(10), |l| {
        l.contains("stopped while the database is built")
    });
    assert!(said.starts_with("info string egtb"), "{said}");
    expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("bestmove")
    });
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "stop took {:?}",
        t.elapsed()
    );
    e.send("isready");
    expect_line(&mut e, Duration::from_secs(10), |l| l == "readyok");
    e.send("quit");
    e.finish();
    let _ = std::fs::remove_dir_all(&dir);
}
