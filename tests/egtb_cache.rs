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
        options.contains(&format!("EgtbDir={}, EgtbInUse=", dir.display())),
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

/// The tbhits of an `info depth` line.
fn tbhits(info: &str) -> u64 {
    info.split(" tbhits ")
        .nth(1)
        .map_or(0, |t| t.split_whitespace().next().unwrap().parse().unwrap())
}

/// Sends `commands` and waits for the `readyok` that follows them.
fn ready(e: &mut EngineProcess, commands: &[&str]) {
    for c in commands {
        e.send(c);
    }
    e.send("isready");
    expect_line(e, Duration::from_secs(60), |l| l == "readyok");
}

/// `query option NAME`'s answer.
fn query(e: &mut EngineProcess, name: &str) -> String {
    e.send(&format!("query option {name}"));
    let l = expect_line(e, Duration::from_secs(10), |l| l.starts_with("response "));
    l["response ".len()..].to_string()
}

#[test]
fn the_search_plays_with_the_database_of_its_variant_built_once_at_isready() {
    let dir = fresh_dir("play");
    let egtb_dir = format!("setoption name EgtbDir value {}", dir.display());
    // Kalah(4,2): its 16 seeds all fit the small database of 4 pits.
    let kalah = [
        egtb_dir.as_str(),
        "setoption name Pits value 4",
        "setoption name Seeds value 2",
    ];
    let mut e = EngineProcess::start();
    ready(&mut e, &kalah);
    let file = dir.join("kalah-4-standard-16.egtb");
    assert!(
        e.log.iter().any(|l| l.starts_with(
            "info string egtb: building kalah, 4 pits, standard capture up to 16 seeds"
        )),
        "{}",
        e.tail()
    );
    assert!(
        e.log.iter().any(|l| l.starts_with(
            "info string egtb: in play: kalah, 4 pits, standard capture up to 16 seeds"
        )),
        "{}",
        e.tail()
    );
    assert!(file.exists(), "the database is kept in EgtbDir");
    assert_eq!(query(&mut e, "EgtbInUse"), file.display().to_string());
    e.send("query options");
    let all = expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("response ")
    });
    assert!(
        all.ends_with(&format!("EgtbInUse={}", file.display())),
        "{all}"
    );
    // Every position of the game is in it: the search's leaves are probed,
    // and the root's value is proven at once.
    e.send("position startpos");
    e.send("go depth 4");
    let info = expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("info depth")
    });
    assert!(tbhits(&info) > 0, "{info}");
    expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("info string proven score")
    });
    expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("bestmove")
    });
    // The name cannot be set; it only tells.
    e.send("setoption name EgtbInUse value x");
    expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("info string error: EgtbInUse is not set")
    });
    // EgtbDir <empty> turns the database off.
    ready(&mut e, &["setoption name EgtbDir value <empty>"]);
    assert_eq!(query(&mut e, "EgtbInUse"), "<none>");
    e.send("go depth 4");
    let info = expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("info depth 4")
    });
    assert_eq!(tbhits(&info), 0, "{info}");
    expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("bestmove")
    });
    e.finish();

    // A second engine loads the kept file instead of building.
    let mut e = EngineProcess::start();
    ready(&mut e, &kalah);
    assert!(
        !e.log.iter().any(|l| l.contains("building")),
        "{}",
        e.tail()
    );
    assert_eq!(query(&mut e, "EgtbInUse"), file.display().to_string());
    // EgtbPath names another database: it is the one used.
    let named = dir.join("named.egtb");
    let status = Command::new(KETE)
        .args(["egtb", "build", "--variant", "kalah", "--pits", "4"])
        .args(["--max-seeds", "8", "--out"])
        .arg(&named)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    ready(
        &mut e,
        &[&format!(
            "setoption name EgtbPath value {}",
            named.display()
        )],
    );
    assert_eq!(query(&mut e, "EgtbInUse"), named.display().to_string());
    e.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Togyz Kumalak builds no database at `isready` (neither a small one nor
/// the one `kete egtb prepare` would build won its SPRT against none), but
/// plays with one named by `EgtbPath`: an endgame on the board is answered
/// from it, and a won one is played by the database's distances (the rules
/// have no repetition rule to end a shuffle): the move is one of those that
/// come nearest to the capture.
#[test]
fn togyz_kumalak_plays_with_a_database_named_by_egtb_path() {
    use kete::game::Game;
    use kete::variants::togyz::{Togyz, TogyzRules};
    let dir = fresh_dir("togyz");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("togyz5.egtb");
    let status = Command::new(KETE)
        .args(["egtb", "build", "--variant", "togyz-kumalak"])
        .args(["--max-seeds", "5", "--out"])
        .arg(&file)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let mut e = EngineProcess::start();
    ready(
        &mut e,
        &[
            &format!("setoption name EgtbDir value {}", dir.display()),
            "setoption name Variant value togyz-kumalak",
        ],
    );
    assert!(
        !e.log.iter().any(|l| l.contains("egtb: building")),
        "{}",
        e.tail()
    );
    assert_eq!(query(&mut e, "EgtbInUse"), "<none>");
    ready(
        &mut e,
        &[&format!("setoption name EgtbPath value {}", file.display())],
    );
    assert_eq!(query(&mut e, "EgtbInUse"), file.display().to_string());
    let db = kete::solve::load(&file).unwrap();
    assert!(db.has_distances());
    // Endgames of four and five kumalaks, 79-79 or 78-79 in the kazans:
    // the first the mover wins, some plies from a capture.
    let candidates = [
        "0-0-X-1-0-0-0-0-2-0-0-0-0-0-1-X-0-0-79-79-S",
        "0-1-0-0-0-0-0-0-1-0-0-0-1-0-0-0-0-1-79-79-S",
        "0-0-0-0-1-0-0-0-0-1-0-0-0-0-0-1-0-2-78-79-S",
        "0-0-0-1-0-0-0-1-0-0-1-0-0-0-0-0-1-0-79-79-N",
        "1-0-0-0-0-0-0-0-1-0-0-1-0-0-0-0-1-0-79-79-N",
        "0-0-1-0-0-0-0-1-0-0-0-0-0-1-0-1-0-0-79-79-S",
    ];
    let rules = TogyzRules::default();
    let (token, pos) = candidates
        .iter()
        .map(|t| (*t, Togyz::from_notation(&rules, t).unwrap()))
        .find(|(_, p)| db.probe_distance(p).is_some_and(|(v, d)| v > 0 && d > 0))
        .expect("a won endgame among the candidates");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let all = moves.len();
    assert!(kete::protocol::solve::progress(&db, &pos, &mut moves));
    assert!(moves.len() < all, "{token}: every move comes as near");
    e.send(&format!("position fen {token}"));
    e.send("go depth 6");
    let best = expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("bestmove")
    });
    let played = best.split_whitespace().nth(1).unwrap();
    assert!(
        moves.iter().any(|&m| pos.format_move(m) == played),
        "{token}: {played} is not one of {:?}",
        moves
            .iter()
            .map(|&m| pos.format_move(m))
            .collect::<Vec<_>>()
    );
    // And an endgame is answered from the database.
    e.send("position fen 0-0-X-1-0-0-0-0-2-0-0-0-0-0-1-X-0-0-79-79-S");
    e.send("go depth 6");
    let info = expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("info depth")
    });
    assert!(tbhits(&info) > 0, "{info}");
    expect_line(&mut e, Duration::from_secs(10), |l| {
        l.starts_with("bestmove")
    });
    e.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_larger_database_kept_in_the_folder_is_the_one_in_play() {
    let dir = fresh_dir("larger");
    std::fs::create_dir_all(&dir).unwrap();
    // As `kete egtb prepare` would leave it: 20 seeds of 4-pit Kalah, more
    // than Kalah(4,2)'s 16.
    let prepared = dir.join("kalah-4-standard-20.egtb");
    let status = Command::new(KETE)
        .args(["egtb", "build", "--variant", "kalah", "--pits", "4"])
        .args(["--max-seeds", "20", "--out"])
        .arg(&prepared)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let mut e = EngineProcess::start();
    ready(
        &mut e,
        &[
            &format!("setoption name EgtbDir value {}", dir.display()),
            "setoption name Pits value 4",
            "setoption name Seeds value 2",
        ],
    );
    assert_eq!(query(&mut e, "EgtbInUse"), prepared.display().to_string());
    assert!(
        !dir.join("kalah-4-standard-16.egtb").exists(),
        "nothing built"
    );
    e.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn egtb_prepare_builds_each_database_once() {
    let dir = fresh_dir("prepare");
    let prepare = || {
        let out = Command::new(KETE)
            .args(["egtb", "prepare", "--variant", "kalah", "--pits", "4"])
            .args(["--seeds", "2", "--dir"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let file = dir.join("kalah-4-standard-16.egtb");
    let first = prepare();
    assert!(
        first.starts_with("kalah: kalah, 4 pits, standard capture up to 16 seeds, built (")
            && first.trim_end().ends_with(&file.display().to_string()),
        "{first}"
    );
    let second = prepare();
    assert!(second.contains(", already there ("), "{second}");
    // What a refused `prepare` of `variant` says (it must fail).
    let refused = |variant: &str| {
        let out = Command::new(KETE)
            .args(["egtb", "prepare", "--variant", variant, "--dir"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{variant}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // A variant without databases is refused by name.
    assert_eq!(
        refused("endodoi"),
        "kete: endodoi has no endgame databases under these rules\n"
    );
    // A variant with databases that plays with none by default has nothing
    // to prepare, and is told how to build one.
    assert_eq!(
        refused("togyz-kumalak"),
        "kete: togyz-kumalak plays with no endgame database unless EgtbPath names one, so \
         there is none to prepare; build one with `kete egtb build --variant togyz-kumalak`\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_database_larger_than_the_machine_is_refused_with_its_size() {
    // 8 pits a row up to 60 seeds: 10^16 positions; up to 120: past 2^64
    // (found by fuzzing the file header, whose sizes the loader now checks
    // the same way). Both used to end the process asking for the memory.
    for (seeds, count) in [("60", "10830060261901380"), ("120", "more than 2^64")] {
        let out = Command::new(KETE)
            .args(["egtb", "build", "--variant", "kalah", "--pits", "8"])
            .args(["--max-seeds", seeds, "--out", "/dev/null"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("has {count} positions, a byte each")),
            "{err}"
        );
        assert!(!err.contains("panicked") && !err.contains("memory allocation"));
    }
}
