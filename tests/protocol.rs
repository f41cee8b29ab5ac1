//! Replays every transcript of `protocol/examples/` against the real binary.

mod common;

use kete::variants::VARIANT_NAMES;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{EngineProcess, glob, is_progress};

const TIMEOUT: Duration = Duration::from_secs(60);
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn replay(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut e = EngineProcess::start();
    let greeting = e.next_line(TIMEOUT).expect("greeting");
    assert_eq!(
        greeting,
        format!("kete {VERSION} by the kete developers: mancala engine (UGI/UCI); type 'help'")
    );
    let mut closed = false;
    for (n, line) in text.lines().enumerate() {
        let at = format!("{}:{}", path.display(), n + 1);
        if line.starts_with(">|") {
            // The end of the engine's input: what follows is what it prints
            // before it exits.
            e.close_input();
            closed = true;
        } else if let Some(cmd) = line.strip_prefix("> ") {
            assert!(!closed, "{at}: a command after the end of input");
            e.send(cmd);
        } else if line.starts_with('<') {
            let (pattern, is_glob) = match line.strip_prefix("<~ ") {
                Some(p) => (p, true),
                None => (line.strip_prefix("< ").unwrap_or(""), false),
            };
            // `{version}` keeps lines that carry the version exact across releases.
            let pattern = &pattern.replace("{version}", VERSION);
            let matches = |l: &str| {
                if is_glob {
                    glob(pattern, l)
                } else {
                    l == pattern
                }
            };
            let expects_info = pattern.starts_with("info ") && !pattern.starts_with("info string");
            loop {
                let Some(got) = e.next_line(TIMEOUT) else {
                    panic!(
                        "{at}: no output, expected '{pattern}'; last lines:\n{}",
                        e.tail()
                    );
                };
                if expects_info {
                    if matches(&got) {
                        break;
                    }
                    assert!(is_progress(&got), "{at}: expected '{pattern}', got '{got}'");
                    continue;
                }
                if is_progress(&got) {
                    continue;
                }
                assert!(
                    matches(&got),
                    "{at}: expected '{pattern}', got '{got}'\n{}",
                    e.tail()
                );
                break;
            }
        } else {
            assert!(
                line.is_empty() || line.starts_with('#'),
                "{at}: a transcript line starts with '> ', '>|', '< ', '<~ ' or '#'"
            );
        }
    }
    if closed {
        // Nothing but progress may come before the engine exits.
        while let Some(l) = e.next_line(TIMEOUT) {
            assert!(
                is_progress(&l),
                "{}: unexpected output after the end of input: '{l}'",
                path.display()
            );
        }
        e.finish();
        return;
    }
    // Nothing but progress may be left once the transcript is done.
    e.send("isready");
    let rest = e.wait_for(TIMEOUT, "readyok", |l| l == "readyok" || !is_progress(l));
    assert_eq!(
        rest,
        "readyok",
        "{}: unexpected output after the transcript",
        path.display()
    );
    e.finish();
}

#[test]
fn every_transcript_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    for required in [
        "handshake",
        "search",
        "infinite-stop",
        "illegal-move",
        "finished-game",
        "queries",
        "end-of-input",
        "misc",
    ] {
        assert!(
            files.iter().any(|f| f.file_stem().unwrap() == required),
            "protocol/examples/{required}.txt is missing"
        );
    }
    for f in &files {
        replay(f);
    }
}

/// Every command of the specification's table names a transcript that sends
/// it.
#[test]
fn every_command_has_a_transcript() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol");
    let spec = std::fs::read_to_string(root.join("README.md")).unwrap();
    let table = spec
        .split("| command | reply | transcript |")
        .nth(1)
        .expect("the commands table");
    let mut rows = 0;
    for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.split(" | ").collect();
        let link = cells.last().unwrap();
        let file = link
            .split("](")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .unwrap_or_else(|| panic!("no transcript in: {row}"));
        let transcript = std::fs::read_to_string(root.join(file)).unwrap();
        for cmd in cells[0]
            .trim_start_matches("| ")
            .split('`')
            .skip(1)
            .step_by(2)
        {
            let words: Vec<&str> = cmd
                .split_whitespace()
                .take_while(|w| !w.starts_with(['<', '[', '…']))
                .collect();
            let sent = format!("> {}", words.join(" "));
            assert!(
                transcript.lines().any(|l| l.starts_with(&sent)),
                "{file} never sends `{}`",
                words.join(" ")
            );
        }
        rows += 1;
    }
    assert!(rows >= 19, "only {rows} commands");
}

#[test]
fn glob_matches_runs_of_anything() {
    assert!(glob("bestmove *", "bestmove C"));
    assert!(glob("a*c*e", "abcde"));
    assert!(!glob("a*c*e", "abcd"));
    assert!(glob("exact", "exact"));
    assert!(!glob("bestmove * ponder *", "bestmove C"));
}

#[test]
fn stop_answers_promptly_during_infinite_search() {
    let mut e = EngineProcess::start();
    e.send("position startpos");
    e.send("go infinite");
    e.wait_for(TIMEOUT, "a first info line", |l| {
        l.starts_with("info depth")
    });
    std::thread::sleep(Duration::from_millis(200));
    let t = std::time::Instant::now();
    e.send("stop");
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove "));
    let took = t.elapsed();
    // The behaviour is "at once"; the bound only catches a search that does
    // not look at the stop flag, on a machine that may be busy.
    assert!(took < Duration::from_secs(2), "stop took {took:?}");
    eprintln!("stop answered in {took:?}");
    e.finish();
}

#[test]
fn d_draws_every_variant_without_spaces_at_the_ends_of_lines() {
    let mut e = EngineProcess::start();
    for v in VARIANT_NAMES {
        e.send(&format!("setoption name Variant value {v}"));
        e.send("position startpos");
        e.send("d");
        e.send("isready");
        e.wait_for(TIMEOUT, "readyok", |l| l == "readyok");
    }
    let drawn = e.log.iter().filter(|l| !l.starts_with("info ")).count();
    assert!(drawn > VARIANT_NAMES.len() * 6, "{}", e.tail());
    for l in &e.log {
        assert_eq!(l.trim_end(), l, "a line ends in spaces: {l:?}");
    }
    e.finish();
}

#[test]
fn every_go_gets_exactly_one_bestmove_even_when_interrupted() {
    let mut e = EngineProcess::start();
    e.send("position startpos");
    for _ in 0..20 {
        e.send("go infinite");
        e.send("go depth 30");
        e.send("position startpos moves C");
    }
    e.send("isready");
    e.wait_for(TIMEOUT, "readyok", |l| l == "readyok");
    e.send("stop");
    e.send("isready");
    e.wait_for(TIMEOUT, "readyok", |l| l == "readyok");
    let bestmoves = e.log.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 40, "{}", e.tail());
    for l in e.log.iter().filter(|l| l.starts_with("bestmove")) {
        assert_eq!(l.split_whitespace().count(), 2, "{l}");
    }
    e.finish();
}

/// A database of every 3-house Oware board of up to 6 seeds under `rules`,
/// built by the binary into a folder of its own: the folder and the file.
fn oware3_database(folder: &str, rules: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("{folder}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(format!("{rules}3.db"));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
        .args(["egtb", "build", "--variant", "oware", "--pits", "3"])
        .args(["--rules", rules, "--max-seeds", "6", "--out"])
        .arg(&db)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    (dir, db)
}

#[test]
fn egtb_path_of_the_other_oware_rules_is_not_used() {
    // A 3-house Abapa database of up to 6 seeds: all of Oware 3x1.
    let (dir, db) = oware3_database("kete-egtb-rules", "abapa");
    let tbhits = |info: &str| -> u64 {
        info.split(" tbhits ")
            .nth(1)
            .map_or(0, |t| t.split_whitespace().next().unwrap().parse().unwrap())
    };
    let mut e = EngineProcess::start();
    for c in [
        "setoption name Variant value oware",
        "setoption name Pits value 3",
        "setoption name Seeds value 1",
        &format!("setoption name EgtbPath value {}", db.display()),
        "go depth 3",
    ] {
        e.send(c);
    }
    e.wait_for(TIMEOUT, "the database loaded", |l| {
        l.starts_with("info string EgtbPath: oware (abapa rules), 3 houses up to 6 seeds")
    });
    // Under the default awari rules the file is not used, and `go` says why.
    let error = e.wait_for(TIMEOUT, "the misfit", |l| {
        l.starts_with("info string error: EgtbPath")
    });
    assert!(
        error.ends_with(
            "the database is for oware (abapa rules), 3 houses, not for oware (awari rules), 3 houses; it is not used"
        ),
        "{error}"
    );
    let info = e.wait_for(TIMEOUT, "an info line", |l| l.starts_with("info depth"));
    assert_eq!(tbhits(&info), 0, "{info}");
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
    // Said once: the next `go` is quiet.
    e.send("go depth 2");
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
    // Under abapa it is used, without an error.
    e.send("setoption name Rules value abapa");
    e.send("go depth 3");
    let info = e.wait_for(TIMEOUT, "an info line with tbhits", |l| {
        l.starts_with("info depth")
    });
    assert!(tbhits(&info) > 0, "{info}");
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
    let errors = e
        .log
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert_eq!(errors, 1, "{}", e.tail());
    e.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn go_solve_under_own_side_leaves_egtb_path_out_and_says_why() {
    // Every 3-house Oware (Awari) board of up to 6 seeds: all of 3x1's.
    let (dir, db) = oware3_database("kete-own-side", "awari");
    let mut e = EngineProcess::start();
    for c in [
        "setoption name Variant value oware",
        "setoption name Pits value 3",
        "setoption name Seeds value 1",
        &format!("setoption name EgtbPath value {}", db.display()),
        "position startpos",
        "go solve",
    ] {
        e.send(c);
    }
    e.wait_for(TIMEOUT, "why the database is left out", |l| {
        l.starts_with("info string go solve: EgtbPath not used: under own-side repetition")
            && l.contains("the split repetition rule takes a database")
    });
    let proven = e.wait_for(TIMEOUT, "proven", |l| l.starts_with("info string proven"));
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
    // The same solve without the database, and under split with it.
    let without = {
        let mut e = EngineProcess::start();
        for c in [
            "setoption name Variant value oware",
            "setoption name Pits value 3",
            "setoption name Seeds value 1",
            "position startpos",
            "go solve",
        ] {
            e.send(c);
        }
        let p = e.wait_for(TIMEOUT, "proven", |l| l.starts_with("info string proven"));
        e.finish();
        p
    };
    assert_eq!(proven, without);
    e.send("setoption name Repetition value split");
    e.send("position startpos");
    e.send("go solve");
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(
        e.log
            .iter()
            .filter(|l| l.contains("EgtbPath not used"))
            .count(),
        1,
        "{}",
        e.tail()
    );
    e.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn egtb_path_feeds_the_search_and_go_solve() {
    // A Kalah(4 pits) database of up to 8 seeds, built by the binary.
    let dir = std::env::temp_dir().join(format!("kete-egtb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("kalah4.db");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
        .args([
            "egtb",
            "build",
            "--variant",
            "kalah",
            "--pits",
            "4",
            "--max-seeds",
            "8",
            "--out",
        ])
        .arg(&db)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    // 6 seeds on the board, 10 + 0 banked: Kalah(4,2) has 16 seeds.
    let fen = "1-0-2-0-0-1-1-1-10-0-S";
    let value_without = {
        let mut e = EngineProcess::start();
        for c in [
            "setoption name Pits value 4",
            "setoption name Seeds value 2",
            &format!("position fen {fen}"),
            "go solve",
        ] {
            e.send(c);
        }
        let proven = e.wait_for(TIMEOUT, "proven", |l| l.starts_with("info string proven"));
        e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
        e.finish();
        proven
    };
    let mut e = EngineProcess::start();
    for c in [
        "setoption name Pits value 4",
        "setoption name Seeds value 2",
        &format!("setoption name EgtbPath value {}", db.display()),
        &format!("position fen {fen}"),
        "go depth 3",
    ] {
        e.send(c);
    }
    e.wait_for(TIMEOUT, "the database loaded", |l| {
        l.starts_with("info string EgtbPath: kalah, 4 pits")
    });
    let info = e.wait_for(TIMEOUT, "an info line with tbhits", |l| {
        l.starts_with("info depth")
    });
    let hits: u64 = info
        .split(" tbhits ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(hits > 0, "{info}");
    // Every child is in the database: the value is proven at once and equals
    // the solver's without the database.
    let proven = e.wait_for(TIMEOUT, "proven", |l| l.starts_with("info string proven"));
    assert_eq!(proven, value_without);
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
    e.send("setoption name EgtbPath value /no/such/file");
    e.wait_for(TIMEOUT, "an error", |l| {
        l.starts_with("info string error: EgtbPath '/no/such/file'")
    });
    e.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn go_solve_proves_an_own_side_oware_board_through_its_repetition_graph() {
    // Oware 3x5 under own-side repetition: 4.8 M positions, more than the
    // fixed graph of earlier versions held, so the search ran without it
    // and proved nothing in minutes. Sized to the memory as for `kete
    // solve`, the graph proves the draw (`kete solve --variant oware
    // --pits 3 --seeds 5` says "value +0 best B") in seconds.
    let mut e = EngineProcess::start();
    for c in [
        "setoption name Variant value oware",
        "setoption name Pits value 3",
        "setoption name Seeds value 5",
        "setoption name Threads value 2",
        "position startpos",
        "go solve",
    ] {
        e.send(c);
    }
    let limit = Duration::from_secs(300);
    // The graph's phases, which take most of the time, are shown as they
    // end: a GUI is not left without a line for seconds (minutes on
    // larger boards).
    let graph = e.wait_for(limit, "graph", |l| {
        l.starts_with("info string solve graph positions")
    });
    assert!(
        graph.starts_with("info string solve graph positions 4812143 components "),
        "{graph}"
    );
    let bounds = e.wait_for(limit, "bounds", |l| {
        l.starts_with("info string solve bounds thresholds")
    });
    assert!(
        bounds.starts_with("info string solve bounds thresholds ["),
        "{bounds}"
    );
    let proven = e.wait_for(limit, "proven", |l| l.starts_with("info string proven"));
    assert_eq!(proven, "info string proven score cp 0", "{}", e.tail());
    let best = e.wait_for(limit, "bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(best, "bestmove B");
    e.finish();
}

#[test]
fn go_solve_movetime_ends_a_solve_by_counting_with_its_bounds() {
    // Oware 4x3 under own-side takes tens of seconds; its value is -2 for
    // South, who moves.
    let mut e = EngineProcess::start();
    for c in [
        "setoption name Variant value oware",
        "setoption name Pits value 4",
        "setoption name Seeds value 3",
        "position startpos",
        "go solve movetime 2500 nodes 7",
    ] {
        e.send(c);
    }
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
    let said = |text: &str| e.log.iter().any(|l| l.contains(text));
    // The graph of its 31.7 M positions takes longer than the limit: its
    // progress is told once a second meanwhile.
    assert!(
        e.log.iter().any(|l| l
            .strip_prefix("info string solve graph building positions ")
            .and_then(|r| r.split_whitespace().next()?.parse::<u64>().ok())
            .is_some_and(|n| n > 1000)),
        "{}",
        e.tail()
    );
    assert!(
        said("go solve: nodes limits only the proof search") && said("ignored here"),
        "{}",
        e.tail()
    );
    let bounds = |log: &[String], why: &str| -> Option<(i32, i32)> {
        let prefix = format!("info string unproven ({why}): value in [");
        let l = log.iter().find_map(|l| l.strip_prefix(prefix.as_str()))?;
        let (lo, hi) = l.strip_suffix(']')?.split_once(',')?;
        Some((lo.parse().ok()?, hi.parse().ok()?))
    };
    // A machine fast enough to finish in time proves the value instead.
    if !said("info string proven score cp -200") {
        let (lo, hi) =
            bounds(&e.log, "the time limit was reached").unwrap_or_else(|| panic!("{}", e.tail()));
        assert!(lo <= -2 && -2 <= hi, "{}", e.tail());
    }
    // `stop` says so instead.
    e.log.clear();
    e.send("go solve");
    e.send("stop");
    e.wait_for(TIMEOUT, "bestmove", |l| l.starts_with("bestmove"));
    let (lo, hi) = bounds(&e.log, "stopped").unwrap_or_else(|| panic!("{}", e.tail()));
    assert!(lo <= -2 && -2 <= hi, "{}", e.tail());
    assert_eq!(
        e.log.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    e.finish();
}

/// A rule option the game does not have is refused in the same words by
/// every front end that names the game with it: the engine's command line,
/// `kete play`, `kete solve` and kete-arena; `setoption` keeps it for a
/// game that has it (a client may set the rules before the game) and says
/// so in those words. (Python: python/tests/test_errors.py.)
#[test]
fn a_rule_the_game_lacks_is_refused_in_the_same_words_by_every_front_end() {
    let why =
        "option 'Rules' does not apply to togyz-kumalak (its options: Pits, Seeds, Tuzdyk, Atsyz)";
    let kete = env!("CARGO_BIN_EXE_kete");
    let arena = env!("CARGO_BIN_EXE_kete-arena");
    let rules = ["--variant", "togyz", "--rules", "abapa"];
    let engine = format!("cmd={kete}");
    let runs: Vec<(&str, Vec<&str>)> = vec![
        (kete, rules.to_vec()),
        (kete, [&["play"][..], &rules].concat()),
        (kete, [&["solve"][..], &rules].concat()),
        (arena, [&rules[..], &["--engine", engine.as_str()]].concat()),
    ];
    for (bin, args) in runs {
        let out = Command::new(bin)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(err.contains(why), "{args:?}: {err}");
    }
    let mut cmd = Command::new(kete);
    cmd.args(["--variant", "togyz"]);
    let (out, _, ok) = common::run_with_input(
        cmd,
        "setoption name Rules value abapa\nsetoption name Variant value oware\nquery option Rules\nquit\n",
    );
    assert!(ok);
    assert!(
        out.contains(&format!("info string {why}; kept for a game that has it")),
        "{out}"
    );
    assert!(out.contains("response abapa"), "{out}");
}
