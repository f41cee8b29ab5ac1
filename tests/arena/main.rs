//! kete-arena end to end: broken engines lose their games with the reason
//! recorded while the tournament goes on; a killed runner resumes without
//! replaying or losing a game; the SPRT stops a match; UCI engines and Oware
//! go through the same referee.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod support;
use support::*;

#[test]
fn broken_engines_lose_with_reasons_and_the_tournament_completes() {
    let dir = out_dir("broken");
    let crash_args = format!("args={KETE} 3");
    let overrun_args = format!("args={KETE}");
    let args = strings(&[
        "--variant",
        "kalah",
        "--engine",
        &format!("cmd={KETE}"),
        "name=kete",
        "depth=1",
        "--engine",
        &format!("cmd={}", script("crash.sh")),
        &crash_args,
        "name=crash",
        "depth=1",
        "--engine",
        &format!("cmd={}", script("hang.sh")),
        "name=hang",
        "st=0.2",
        "timemargin=100",
        "--engine",
        &format!("cmd={}", script("hang.sh")),
        "name=hangclock",
        "tc=0.2+0",
        "timemargin=50",
        "--engine",
        &format!("cmd={}", script("overrun.sh")),
        &overrun_args,
        "name=overrun",
        "tc=1+0",
        "timemargin=500",
        "--engine",
        &format!("cmd={}", script("illegal.sh")),
        "name=illegal",
        "--engine",
        &format!("cmd={}", script("garbage.sh")),
        "name=garbage",
        "--engine",
        &format!("cmd={}", script("mute.sh")),
        "name=mute",
        "--engine",
        "cmd=/nonexistent/engine",
        "name=missing",
        "--gauntlet",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--handshake-timeout",
        "0.5",
        "--openings",
        "random",
        "plies=2",
        "seed=3",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let out = run(&args);
    // An engine whose program is missing is named before the first game.
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "kete-arena: warning: engine missing cannot be started: '/nonexistent/engine' is no file; it will lose every game"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games(&dir);
    assert_eq!(
        games.len(),
        16,
        "every scheduled game is played and recorded"
    );
    let expected = [
        ("crash", "crash", "crashed"),
        ("hang", "timeout", "no bestmove within 300 ms"),
        ("hangclock", "timeout", "no bestmove within 250 ms"),
        ("overrun", "timeout", ""),
        ("illegal", "illegal", "pit"),
        ("garbage", "illegal", "xyzzy"),
        ("mute", "handshake", "no 'ugiok'"),
        ("missing", "handshake", "could not start"),
    ];
    for g in &games {
        let offender = g["offender"]
            .as_str()
            .expect("every game here has an offender");
        let (_, termination, words) = expected
            .iter()
            .find(|(name, _, _)| *name == offender)
            .unwrap_or_else(|| panic!("unexpected offender in {g}"));
        assert_eq!(g["termination"], *termination, "{g}");
        let reason = g["reason"].as_str().unwrap();
        assert!(reason.starts_with(offender), "{reason}");
        assert!(reason.contains(words), "{reason}");
        // kete wins every game: the offender's opponent.
        let kete_south = g["south"] == "kete";
        assert_eq!(
            g["result"],
            if kete_south { "p1win" } else { "p2win" },
            "{g}"
        );
    }
    // The crashing engine crashes on its third search in both its games:
    // it was restarted after the first crash, not left dead.
    for g in games.iter().filter(|g| g["offender"] == "crash") {
        assert!(g["moves"].as_array().unwrap().len() >= 2, "{g}");
        assert!(
            g["reason"].as_str().unwrap().contains("exit status: 3"),
            "{g}"
        );
    }
    // An engine that takes 400 ms a move on a 1 s clock overdraws it on its
    // third move and lives on the 500 ms margin: the time it takes beyond
    // the clock is carried over, so it loses on time a move or three later
    // instead of playing on the margin for ever.
    for g in games.iter().filter(|g| g["offender"] == "overrun") {
        let side = if g["south"] == "overrun" { "S" } else { "N" };
        let own = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["side"] == side)
            .count();
        assert!((3..=8).contains(&own), "{own} moves before the loss: {g}");
    }
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("## Failures by reason"));
    assert!(report.contains("| crash | crash | 2 |"), "{report}");
    assert!(report.contains("| hang | timeout | 2 |"), "{report}");
    assert!(report.contains("| missing | handshake | 2 |"), "{report}");
    assert!(report.contains("| hangclock | timeout | 2 |"), "{report}");
    assert!(report.contains("| overrun | timeout | 2 |"), "{report}");
    assert!(report.contains("| kete | 16 | 16 | 0 | 0 |"), "{report}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), report);
    check_html(&dir, &["progress", "time", "endings"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_tournament_resumes_without_losing_or_repeating_games() {
    let dir = out_dir("resume");
    let args = strings(&[
        "--variant",
        "kalah",
        "--engine",
        &format!("cmd={KETE}"),
        "name=deep",
        "depth=4",
        "--engine",
        &format!("cmd={KETE}"),
        "name=shallow",
        "depth=1",
        "--games",
        "2",
        "--rounds",
        "20",
        "--openings",
        "random",
        "plies=4",
        "seed=7",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let total = 40;
    let mut child = arena(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let n = games(&dir).len();
        if n >= 3 {
            break;
        }
        assert!(Instant::now() < deadline, "no games recorded");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SIGKILL: no chance to clean up.
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let recorded = before.lines().count();
    assert!(recorded < total, "the runner was killed before the end");
    // What a kill in the middle of a write leaves behind.
    std::fs::write(
        dir.join("games.jsonl"),
        format!("{before}{{\"id\":{recorded},\"round\":9,\"pai"),
    )
    .unwrap();

    let out = run(&args);
    let after = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert!(
        after.starts_with(&before),
        "finished games are kept as they were"
    );
    let games = games(&dir);
    assert_eq!(games.len(), total);
    let mut ids: Vec<u64> = games.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, (0..total as u64).collect::<Vec<_>>(), "each game once");
    let points = |name: &str| -> f64 {
        games
            .iter()
            .map(
                |g| match (g["result"].as_str().unwrap(), g["south"] == name) {
                    ("draw", _) => 0.5,
                    ("p1win", true) | ("p2win", false) => 1.0,
                    _ => 0.0,
                },
            )
            .sum()
    };
    assert_eq!(points("deep") + points("shallow"), total as f64);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains(&format!("{total} played of {total} scheduled")),
        "{report}"
    );
    // The standings count every game once for each engine.
    let row = report.lines().find(|l| l.contains("| deep |")).unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(cells[3], total.to_string(), "{row}");
    let wdl: u64 = cells[4..7].iter().map(|c| c.parse::<u64>().unwrap()).sum();
    assert_eq!(wdl, total as u64);
    assert_eq!(cells[7].parse::<f64>().unwrap(), points("deep"));

    // Running a finished tournament again plays nothing and says the same.
    let again = run(&args);
    assert_eq!(games_len(&dir), total);
    assert_eq!(again.stdout, out.stdout);
    // Other settings do not pass for the same tournament.
    let mut other = args.clone();
    let seed_at = other.iter().position(|a| a == "seed=7").unwrap();
    other[seed_at] = "seed=8".into();
    let refused = arena(&other).output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a record of this tournament"));
    assert_eq!(games_len(&dir), total);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn games_len(dir: &Path) -> usize {
    games(dir).len()
}

#[test]
fn the_sprt_stops_a_lopsided_match_early() {
    let dir = out_dir("sprt");
    let args = strings(&[
        "--variant",
        "kalah",
        "--engine",
        &format!("cmd={KETE}"),
        "name=d3",
        "depth=3",
        "--engine",
        &format!("cmd={KETE}"),
        "name=d1",
        "depth=1",
        "--sprt",
        "elo0=0",
        "elo1=100",
        "--rounds",
        "500",
        "--openings",
        "random",
        "plies=4",
        "seed=1",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let out = run(&args);
    let n = games_len(&dir);
    assert!((2..1000).contains(&n), "{n} games");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("H1 accepted"), "{report}");
    // Drawn from the seed as needed, not read from a list.
    assert!(
        report.contains("- openings: random, 4 plies, seed 1 (") && report.contains(" drawn)"),
        "{report}"
    );
    check_html(&dir, &["progress", "sprt", "time", "endings"]);
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("H1 accepted"), "the verdict on the page too");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn oware_with_a_uci_engine_on_the_clock_and_file_openings() {
    let dir = out_dir("oware");
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    // A move list and a position with moves, as an openings file may hold.
    std::fs::write(
        &openings,
        "# test openings\nC d\n4-4-4-4-4-4-4-4-4-4-4-4-0-0-N moves b\n",
    )
    .unwrap();
    let args = strings(&[
        "--variant",
        "oware",
        "--option",
        "Rules=abapa",
        "--engine",
        &format!("cmd={KETE}"),
        "name=uci",
        "proto=uci",
        "option.Variant=oware",
        "option.Rules=abapa",
        "tc=1+0.02",
        "--engine",
        &format!("cmd={KETE}"),
        "name=ugi",
        "nodes=2000",
        "--games",
        "4",
        "--maxplies",
        "60",
        "--openings",
        &format!("file={}", openings.display()),
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    run(&args);
    let games = games(&dir);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(g["offender"].is_null(), "{g}");
        assert_eq!(g["variant"], "oware");
        assert_eq!(g["options"]["Rules"], "abapa");
        let plies =
            g["opening"]["moves"].as_array().unwrap().len() + g["moves"].as_array().unwrap().len();
        match g["termination"].as_str().unwrap() {
            "adjudication" => {
                assert_eq!(plies, 60, "{g}");
                assert!(g["reason"].as_str().unwrap().contains("seed count"));
            }
            "rules" => assert!(plies <= 60),
            other => panic!("unexpected termination {other}"),
        }
        assert!(g["moves"][0]["ms"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(games[2]["opening"]["fen"], "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N");
    assert_eq!(games[0]["opening"]["moves"], serde_json::json!(["C", "d"]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    let cases: [(&[&str], &str); 4] = [
        (&["--engine", "cmd=x", "--out", "/tmp/x"], "at least two"),
        (
            &[
                "--engine", "cmd=x", "speed=3", "--engine", "cmd=y", "--out", "/tmp/x",
            ],
            "unknown engine setting",
        ),
        (
            &[
                "--option",
                "Rules=abapa",
                "--engine",
                "cmd=x",
                "--engine",
                "cmd=y",
                "--out",
                "/tmp/x",
            ],
            "does not apply",
        ),
        (
            &[
                "--engine",
                "cmd=x",
                "name=a",
                "--engine",
                "cmd=y",
                "name=a",
                "--out",
                "/tmp/kete-arena-never",
            ],
            "two engines are called 'a'",
        ),
    ];
    for (args, words) in cases {
        let out = arena(&strings(args)).output().unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

/// Issue 12: a resumed tournament whose engines are set up differently
/// (another depth, another program, another option) is refused, and the
/// error names what changed; the report lists each engine's `option.`
/// settings; records and report say why the rules ended each game.
#[test]
fn resume_refuses_changed_engine_settings_and_the_report_names_options_and_endings() {
    let dir = out_dir("settings");
    let base = |d3: &str, extra: &[&str]| {
        let mut a = strings(&["--variant", "kalah", "--engine"]);
        a.push(format!("cmd={KETE}"));
        a.extend(strings(&["name=a", "depth=2", "option.Hash=4"]));
        a.push("--engine".into());
        a.push(format!("cmd={d3}"));
        a.extend(strings(&["name=b", "depth=3"]));
        a.extend(extra.iter().map(|s| s.to_string()));
        a.extend(strings(&[
            "--games", "2", "--rounds", "1", "--quiet", "--out",
        ]));
        a.push(dir.display().to_string());
        a
    };
    let out = run(&base(KETE, &[]));
    let report = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        report.contains("(depth=2; option.Hash=4)"),
        "the report names engine a's options:\n{report}"
    );
    assert!(report.contains("| reason | games |"), "{report}");
    for g in games(&dir) {
        assert_eq!(g["termination"], "rules");
        let end = g["end"]
            .as_str()
            .expect("a game ended by the rules says why");
        assert_eq!(end, "empty-row", "Kalah ends when a row is empty");
        let reason = g["reason"].as_str().unwrap();
        assert!(reason.contains("a row is empty"), "{reason}");
        // South's settings first.
        let south_depth = if g["south"] == "a" { "2" } else { "3" };
        assert_eq!(g["engines"][0]["depth"], south_depth);
    }
    // The same command again: nothing changed, so it resumes (nothing to play).
    run(&base(KETE, &[]));
    // Another depth for b.
    let mut changed = base(KETE, &[]);
    let i = changed.iter().position(|a| a == "depth=3").unwrap();
    changed[i] = "depth=4".into();
    let out = arena(&changed).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("engine b with other settings (depth=3, now depth=4)"),
        "{err}"
    );
    // Another program for b.
    let out = arena(&base("/bin/cat", &[])).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("now cmd=/bin/cat"), "{err}");
    // An option added for b through --each (a's own option.Hash wins for a).
    let out = arena(&base(KETE, &["--each", "option.Threads=1"]))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("option.Threads not set, now option.Threads=1"),
        "{err}"
    );
    // Other rules: named, although they also change the openings' moves.
    let out = arena(&base(KETE, &["--seeds", "3"])).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("played under other rules (Seeds=4, now Seeds=3)"),
        "{err}"
    );
    let mut oware = base(KETE, &[]);
    oware[1] = "oware".into();
    let out = arena(&oware).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("was played as kalah, not oware"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games of a folder in schedule order, without what depends on the
/// machine's speed (the time of each move).
fn games_untimed(dir: &Path) -> Vec<Value> {
    let mut gs = games(dir);
    gs.sort_by_key(|g| g["id"].as_u64());
    for g in &mut gs {
        for m in g["moves"].as_array_mut().expect("moves") {
            m.as_object_mut().expect("a move").remove("ms");
        }
    }
    gs
}

/// The report without the time table (the only part that depends on speed).
fn report_untimed(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("report.md")).expect("report.md");
    let (before, after) = text.split_once("## Time per move").expect("a time table");
    let after = &after[after.find("## How games ended").expect("endings")..];
    format!("{before}{after}")
}

#[test]
fn shards_merged_equal_the_whole_tournament_and_bad_merges_are_refused() {
    let root = out_dir("shards");
    let common = |extra: &[&str]| {
        let mut a = strings(&["--variant", "kalah", "--engine"]);
        a.push(format!("cmd={KETE}"));
        a.extend(strings(&["name=a", "depth=2", "--engine"]));
        a.push(format!("cmd={KETE}"));
        a.extend(strings(&["name=b", "depth=3", "--engine"]));
        a.push(format!("cmd={KETE}"));
        a.extend(strings(&["name=c", "depth=1"]));
        a.extend(strings(&[
            "--games",
            "2",
            "--rounds",
            "2",
            "--concurrency",
            "2",
            "--openings",
            "random",
            "plies=2",
            "seed=7",
            "--quiet",
        ]));
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let dir = |name: &str| root.join(name).display().to_string();
    run(&common(&["--out", &dir("whole")]));
    for k in 1..=4 {
        run(&common(&[
            "--shard",
            &format!("{k}/4"),
            "--out",
            &dir(&format!("s{k}")),
        ]));
    }
    // Each shard plays only its pairs: 12 games in 6 pairs, so 2+2+1+1.
    let sizes: Vec<usize> = (1..=4)
        .map(|k| games(&root.join(format!("s{k}"))).len())
        .collect();
    assert_eq!(sizes, [4, 4, 2, 2]);
    let shard_report = std::fs::read_to_string(root.join("s2/report.md")).unwrap();
    assert!(shard_report.contains("- shard 2/4"), "{shard_report}");

    // Shards given in any order merge into what one machine wrote.
    let merge = |dirs: &[&str], out: &str| {
        let mut a = vec!["merge".to_string()];
        a.extend(dirs.iter().map(|d| dir(d)));
        a.extend(["--out".to_string(), dir(out)]);
        arena(&a).output().expect("run kete-arena merge")
    };
    let out = merge(&["s3", "s1", "s4", "s2"], "merged");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        games_untimed(&root.join("merged")),
        games_untimed(&root.join("whole"))
    );
    assert_eq!(
        report_untimed(&root.join("merged")),
        report_untimed(&root.join("whole"))
    );
    check_html(&root.join("merged"), &["progress", "time", "endings"]);
    check_html(&root.join("s2"), &["progress", "time", "endings"]);
    // The merged records are in schedule order.
    let ids: Vec<u64> = games(&root.join("merged"))
        .iter()
        .map(|g| g["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, (0..12).collect::<Vec<u64>>());

    let refused = |out: Output, what: &str| {
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(!out.status.success(), "merge should refuse: {what}");
        assert!(err.contains(what), "expected '{what}' in: {err}");
    };
    // A missing shard is named with its games.
    refused(
        merge(&["s1", "s2", "s4"], "m1"),
        "shard 3/4 is missing: its 2 games",
    );
    // The same shard twice.
    refused(merge(&["s1", "s1", "s2"], "m2"), "shard 1/4 is given twice");
    // A shard of another tournament (b at depth 4).
    let mut other = common(&["--shard", "3/4", "--out", &dir("other3")]);
    let i = other.iter().position(|a| a == "depth=3").unwrap();
    other[i] = "depth=4".into();
    run(&other);
    refused(
        merge(&["s1", "s2", "other3", "s4"], "m3"),
        "engine b: depth=3, now depth=4",
    );
    // An unfinished shard: its last game lost, then resumed by its command.
    let s2 = root.join("s2").join("games.jsonl");
    let text = std::fs::read_to_string(&s2).unwrap();
    let kept: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&s2, kept.join("\n") + "\n").unwrap();
    refused(merge(&["s1", "s2", "s3", "s4"], "m4"), "shard 2/4 in");
    run(&common(&["--shard", "2/4", "--out", &dir("s2")]));
    assert_eq!(games(&root.join("s2")).len(), 4);
    let out = merge(&["s1", "s2", "s3", "s4"], "m5");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        games_untimed(&root.join("m5")),
        games_untimed(&root.join("whole"))
    );
    // A shard's folder is its own: another shard, or the whole tournament,
    // is refused there; an SPRT cannot be sharded.
    let out = arena(&common(&["--shard", "1/4", "--out", &dir("s2")]))
        .output()
        .unwrap();
    refused(out, "holds shard 2/4, not shard 1/4");
    let out = arena(&common(&["--out", &dir("s2")])).output().unwrap();
    refused(out, "holds shard 2/4, not the whole tournament");
    let mut sprt = common(&["--shard", "1/2", "--out", &dir("sprt")]);
    sprt.retain(|a| !a.starts_with("name=c") && a != "depth=1");
    let c = sprt.iter().rposition(|a| a == "--engine").unwrap();
    sprt.drain(c..c + 2);
    sprt.extend(strings(&["--sprt", "elo0=0", "elo1=30"]));
    refused(
        arena(&sprt).output().unwrap(),
        "an SPRT cannot be split into shards",
    );
    refused(
        arena(&common(&["--shard", "5/4", "--out", &dir("bad")]))
            .output()
            .unwrap(),
        "shard '5/4' is not K/N",
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// The exact final margin for the side to move in Kalah, by memoised
/// minimax (Kalah never repeats a position): what the judge must find.
fn kalah_value(
    pos: &kete::variants::kalah::Kalah,
    memo: &mut std::collections::HashMap<String, i32>,
) -> i32 {
    use kete::game::Game;
    if let Some(o) = pos.outcome() {
        return o.margin_for(pos.side_to_move()).unwrap();
    }
    let key = pos.to_notation();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let best = moves
        .iter()
        .map(|&m| {
            let next = pos.play(m);
            let v = kalah_value(&next, memo);
            if next.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            }
        })
        .max()
        .unwrap();
    memo.insert(key, best);
    best
}

#[test]
fn accuracy_judges_each_move_by_the_exact_value() {
    use kete::game::{Game, GameRecord};
    use kete::variants::kalah::{Kalah, KalahRules};
    // Two weak engines on Kalah(4,2): small enough for minimax, large
    // enough for mistakes (without a database, which holds all of it).
    let dir = out_dir("accuracy");
    run(&strings(&[
        "--variant",
        "kalah",
        "--pits",
        "4",
        "--seeds",
        "2",
        "--engine",
        &format!("cmd={KETE}"),
        "name=one",
        "depth=1",
        "option.EgtbDir=<empty>",
        "--engine",
        &format!("cmd={KETE}"),
        "name=two",
        "depth=2",
        "option.EgtbDir=<empty>",
        "--games",
        "6",
        "--openings",
        "random",
        "plies=2",
        "seed=5",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]));
    let out = Command::new(ARENA)
        .args([
            "accuracy",
            dir.to_str().unwrap(),
            "--no-egtb",
            "--time",
            "30",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    // The same tally by minimax over the recorded games.
    let rules = KalahRules {
        pits: 4,
        seeds: 2,
        ..KalahRules::default()
    };
    let mut memo = std::collections::HashMap::new();
    let mut tally: std::collections::BTreeMap<String, (usize, usize, usize, i64)> =
        Default::default();
    for g in games(&dir) {
        let mut record = GameRecord::new(Kalah::start(&rules));
        for m in g["opening"]["moves"].as_array().unwrap() {
            record.play_text(m.as_str().unwrap()).unwrap();
        }
        for m in g["moves"].as_array().unwrap() {
            let pos = *record.position();
            let before = kalah_value(&pos, &mut memo);
            record.play_text(m["move"].as_str().unwrap()).unwrap();
            let next = record.position();
            let v = kalah_value(next, &mut memo);
            let after = if next.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            };
            let engine = if m["side"] == "S" {
                &g["south"]
            } else {
                &g["north"]
            };
            let t = tally
                .entry(engine.as_str().unwrap().to_string())
                .or_default();
            t.0 += 1;
            t.1 += usize::from(after == before);
            t.2 += usize::from(before.signum() > after.signum());
            t.3 += i64::from(before - after);
        }
    }
    // The games did have mistakes to find.
    assert!(tally.values().any(|t| t.1 < t.0), "{tally:?}");
    for (engine, (moves, exact, errors, lost)) in tally {
        let row = format!(
            "{engine:<16} {moves:>6} {moves:>7} {:>7.1}% {errors:>15} {lost:>11}",
            100.0 * exact as f64 / moves as f64
        );
        assert!(text.lines().any(|l| l == row), "no row '{row}' in:\n{text}");
    }
}

#[test]
fn pondering_engines_get_ponderhit_or_stop_and_their_clock_counts_from_ponderhit() {
    let dir = out_dir("ponder");
    let args = strings(&[
        "--variant",
        "oware",
        "--engine",
        &format!("cmd={KETE}"),
        "name=ponder",
        "ponder=on",
        "option.Ponder=true",
        "--engine",
        &format!("cmd={KETE}"),
        "name=plain",
        "--each",
        "tc=10+0.1",
        "--each",
        "timemargin=300",
        "--maxplies",
        "40",
        "--games",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    run(&args);
    let games = games(&dir);
    assert_eq!(games.len(), 2);
    let mut hits = 0;
    for g in &games {
        assert!(g["offender"].is_null(), "{g}");
        let ponderer = if g["south"] == "ponder" { "S" } else { "N" };
        for m in g["moves"].as_array().unwrap() {
            if m["ponderhit"] == true {
                assert_eq!(
                    m["side"], ponderer,
                    "only the pondering engine gets ponderhit: {m}"
                );
                hits += 1;
            }
        }
    }
    assert!(
        hits > 0,
        "the pondering engine's expected reply came at least once"
    );
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("ponder=on"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_engine_that_has_no_move_or_ignores_stop_while_pondering_loses_with_the_reason() {
    let dir = out_dir("nomove");
    let args = strings(&[
        "--engine",
        &format!("cmd={}", script("nomove.sh")),
        "--engine",
        &format!("cmd={KETE}"),
        "depth=2",
        "--games",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    run(&args);
    for g in games(&dir) {
        assert_eq!(g["offender"], "nomove.sh", "{g}");
        assert_eq!(g["termination"], "illegal", "{g}");
        let reason = g["reason"].as_str().unwrap();
        assert!(
            reason.contains("answered bestmove 0000") && reason.contains("no position to search"),
            "{reason}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();

    // A ponder miss the engine does not stop: it loses when the stop's
    // answer is overdue, and the next game is played by a fresh process.
    let dir = out_dir("deaf");
    let args = strings(&[
        "--variant",
        "oware",
        "--engine",
        &format!("cmd={}", script("deaf.sh")),
        &format!("args={KETE}"),
        "name=deaf",
        "ponder=on",
        "--engine",
        &format!("cmd={KETE}"),
        "name=other",
        "nodes=300",
        "--each",
        "tc=5+0.05",
        "--games",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    run(&args);
    let games = games(&dir);
    assert_eq!(games.len(), 2);
    let lost: Vec<&Value> = games.iter().filter(|g| g["offender"] == "deaf").collect();
    assert!(!lost.is_empty(), "{games:?}");
    for g in lost {
        assert!(
            g["reason"].as_str().unwrap().contains("no bestmove within"),
            "{g}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn togyz_kumalak_and_bestemshe_are_played_and_refereed_by_their_rules() {
    use kete::game::Game;
    use kete::variants::Variant;
    use kete::variants::togyz::{Togyz, TogyzRules};
    for (variant, rules, seeds) in [
        ("togyz-kumalak", TogyzRules::default(), "5"),
        ("bestemshe", TogyzRules::bestemshe(), "14"),
    ] {
        assert!(Variant::by_name(variant).is_ok());
        let dir = out_dir(&format!("arena-{variant}"));
        // Both engines with a database (the games have no repetition rule,
        // and a won endgame must still be played out: its distances).
        let db_dir = out_dir(&format!("arena-{variant}-db"));
        std::fs::create_dir_all(&db_dir).unwrap();
        let db = db_dir.join("db.egtb");
        let built = Command::new(KETE)
            .args(["egtb", "build", "--variant", variant, "--max-seeds", seeds])
            .arg("--out")
            .arg(&db)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(built.success());
        let with_db = format!("option.EgtbPath={}", db.display());
        let args = strings(&[
            "--variant",
            variant,
            "--engine",
            &format!("cmd={KETE}"),
            "name=d3",
            "depth=3",
            &with_db,
            "--engine",
            &format!("cmd={KETE}"),
            "name=d1",
            "depth=1",
            &with_db,
            "--rounds",
            "4",
            "--openings",
            "random",
            "plies=2",
            "seed=1",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ]);
        let out = run(&args);
        assert!(out.status.success(), "{variant}: {out:?}");
        let games = games(&dir);
        assert!(games.len() >= 4, "{variant}: {} games", games.len());
        for g in &games {
            // The record replays by kete's rules to the result the arena
            // gave, move texts as players write them (76, 36x).
            let mut pos = Togyz::start(&rules);
            let opening = g["opening"]["moves"].as_array().unwrap();
            let played = g["moves"].as_array().unwrap();
            let texts = opening
                .iter()
                .map(|m| m.as_str().unwrap())
                .chain(played.iter().map(|m| m["move"].as_str().unwrap()));
            for text in texts {
                let digits = text.trim_end_matches('x');
                assert!(
                    digits.len() == 2 && digits.chars().all(|c| c.is_ascii_digit()),
                    "{variant}: move '{text}'"
                );
                pos = pos.play(pos.parse_move(text).unwrap());
            }
            assert_eq!(g["termination"], "rules", "{variant}: {g}");
            let result = pos.outcome().expect("played to its end").result;
            assert_eq!(g["result"], result.as_str(), "{variant}: {g}");
            assert_eq!(g["final_position"], pos.to_notation(), "{variant}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&db_dir).unwrap();
    }
}

#[test]
fn an_openings_file_names_the_command_that_makes_it_again_rule_options_included() {
    for given in [
        "openings --variant kalah --seeds 6 --plies 3 --count 8 --seed 7",
        "openings --variant oware --rules abapa --plies 2 --count 5",
        "openings --variant kalah --plies 2 --count 5",
    ] {
        let args: Vec<String> = given.split(' ').map(String::from).collect();
        let first = String::from_utf8(run(&args).stdout).unwrap();
        let made_by = first
            .lines()
            .find_map(|l| l.strip_prefix("# made by: kete-arena "))
            .unwrap_or_else(|| panic!("no 'made by' line for {given}:\n{first}"));
        let again: Vec<String> = made_by.split(' ').map(String::from).collect();
        let second = String::from_utf8(run(&again).stdout).unwrap();
        assert_eq!(first, second, "{given} and its 'made by' line ({made_by})");
    }
    let out = run(&strings(&[
        "openings",
        "--variant",
        "kalah",
        "--seeds",
        "6",
        "--count",
        "3",
    ]));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("-o Seeds=6"), "{text}");
}

#[test]
fn every_described_game_is_played_and_refereed_by_its_description() {
    use kete::game::Game;
    use kete::variants::Variant;
    use kete::variants::described::Described;
    // The built-in descriptions, and a user's file, which the arena hands to
    // each engine through VariantFile.
    let file = format!(
        "file:{}/examples/descriptions/ntyenge.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let names: Vec<String> = kete::variants::described_names()
        .map(str::to_string)
        .chain([file])
        .collect();
    for (i, variant) in names.iter().enumerate() {
        let Ok(Variant::Described(rules)) = Variant::by_name(variant) else {
            panic!("{variant} is a described game");
        };
        let dir = out_dir(&format!("arena-described-{i}"));
        let args = strings(&[
            "--variant",
            variant,
            "--engine",
            &format!("cmd={KETE}"),
            "name=d2",
            "depth=2",
            "--engine",
            &format!("cmd={KETE}"),
            "name=d1",
            "depth=1",
            "--rounds",
            "1",
            "--openings",
            "random",
            "plies=2",
            "seed=1",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ]);
        let out = run(&args);
        assert!(out.status.success(), "{variant}: {out:?}");
        let games = games(&dir);
        assert_eq!(games.len(), 2, "{variant}");
        for g in &games {
            // The record replays by the description, its repetition rule
            // included, to the arena's result.
            let mut record = kete::game::GameRecord::new(Described::start(&rules));
            let opening = g["opening"]["moves"].as_array().unwrap();
            let played = g["moves"].as_array().unwrap();
            let texts = opening
                .iter()
                .map(|m| m.as_str().unwrap())
                .chain(played.iter().map(|m| m["move"].as_str().unwrap()));
            for text in texts {
                record
                    .play_text(text)
                    .unwrap_or_else(|e| panic!("{variant}: {text}: {e}"));
            }
            assert_eq!(
                g["final_position"],
                record.position().to_notation(),
                "{variant}"
            );
            if g["termination"] == "rules" {
                let o = record.outcome().expect("over by the rules");
                assert_eq!(g["result"], o.result.as_str(), "{variant}: {g}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
