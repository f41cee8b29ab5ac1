//! The README's examples that show output are run here and compared with
//! what the README shows, so that they cannot go stale: the kete-arena
//! example (fixed-depth kete is deterministic), the `kete play` session, and
//! the names in the rules reference.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn readme() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap()
}

/// The fenced block that starts with the line `first`.
fn block(text: &str, first: &str) -> Vec<String> {
    let start = text
        .find(&format!("```\n{first}"))
        .unwrap_or_else(|| panic!("README has no block starting '{first}'"));
    let body = &text[start + 4..];
    let end = body.find("\n```").unwrap();
    body[..end].lines().map(str::to_string).collect()
}

/// The lines of a report without its "Time per move" section.
fn without_timings<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut skip = false;
    lines
        .filter(|l| {
            if l.starts_with("## ") {
                skip = *l == "## Time per move";
            }
            !skip
        })
        .collect()
}

#[test]
fn the_arena_example_shows_what_the_command_prints() {
    let lines = block(&readme(), "$ cargo build --release");
    // The command: the lines from `$ target/release/kete-arena` on, joined at
    // their trailing backslashes.
    let at = lines
        .iter()
        .position(|l| l.starts_with("$ target/release/kete-arena"))
        .unwrap();
    let mut cmd = String::new();
    let mut k = at;
    loop {
        let l = lines[k].trim_start_matches("$ ").trim();
        k += 1;
        match l.strip_suffix('\\') {
            Some(part) => cmd.push_str(part),
            None => {
                cmd.push_str(l);
                break;
            }
        }
    }
    let shown = &lines[k..];
    let dir = std::env::temp_dir().join(format!("kete-readme-arena-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let words: Vec<String> = cmd
        .split_whitespace()
        .map(|w| {
            w.replace("/tmp/arena-demo", &dir.display().to_string())
                .replace(
                    "cmd=target/release/kete",
                    &format!("cmd={}", env!("CARGO_BIN_EXE_kete")),
                )
        })
        .collect();
    assert_eq!(words[0], "target/release/kete-arena");
    let out = Command::new(env!("CARGO_BIN_EXE_kete-arena"))
        .args(&words[1..])
        .current_dir(ROOT)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout)
        .replace(env!("CARGO_BIN_EXE_kete"), "target/release/kete");
    let stderr =
        String::from_utf8_lossy(&out.stderr).replace(&dir.display().to_string(), "/tmp/arena-demo");
    // The report: from its title to the line before the closing line.
    let from = shown
        .iter()
        .position(|l| l == "# kete-arena report")
        .unwrap();
    let to = shown
        .iter()
        .rposition(|l| l.starts_with("kete-arena: "))
        .unwrap();
    // The time each move took differs from run to run: that table is left
    // out on both sides.
    let report = without_timings(stdout.lines());
    assert_eq!(
        report,
        without_timings(shown[from..to].iter().map(String::as_str)),
        "the README's report differs from the command's:\n{stdout}"
    );
    // The progress lines the README shows (the rest is elided with …).
    let progress: Vec<&str> = stderr.lines().collect();
    for l in shown[..from].iter().chain(&shown[to..]) {
        if l != "…" {
            assert!(progress.contains(&l.as_str()), "'{l}' is not in:\n{stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_play_example_is_a_real_session() {
    let lines = block(
        &readme(),
        "$ kete play --variant kalah --pits 4 --seeds 3 --depth 6",
    );
    // The person's input: what follows each prompt.
    let input: String = lines
        .iter()
        .filter_map(|l| l.split_once("> ").filter(|(p, _)| p.starts_with("you (")))
        .map(|(_, typed)| format!("{typed}\n"))
        .collect();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kete"));
    cmd.args([
        "play",
        "--variant",
        "kalah",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--depth",
        "6",
    ]);
    let (got, _, ok) = common::run_with_input(cmd, &input);
    assert!(ok);
    let got: Vec<&str> = got.lines().map(str::trim_end).collect();
    let shown: Vec<&str> = lines[1..].iter().map(|l| l.trim_end()).collect();
    assert_eq!(
        got,
        shown,
        "the README's session differs:\n{}",
        got.join("\n")
    );
}

/// Every test the rules reference names exists.
#[test]
fn the_rules_reference_names_real_tests() {
    let rules = std::fs::read_to_string(Path::new(ROOT).join("protocol/RULES.md")).unwrap();
    let mut tests = String::new();
    for e in std::fs::read_dir(Path::new(ROOT).join("tests")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            tests.push_str(&std::fs::read_to_string(p).unwrap());
        }
    }
    let mut named = 0;
    for part in rules.split('`').skip(1).step_by(2) {
        let is_test_name = part.len() > 12
            && part.contains('_')
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if is_test_name {
            named += 1;
            assert!(
                tests.contains(&format!("fn {part}(")),
                "protocol/RULES.md names a test that does not exist: {part}"
            );
        }
    }
    assert!(named > 80, "only {named} tests named");
    // The README points at it, not at a folder outside the repository.
    assert!(readme().contains("protocol/RULES.md"));
    assert!(!readme().contains("shared/rules"));
}
