//! Every shell example of the README and the guide (`docs/guide/`, the FAQ)
//! is run here and its output compared with what the page shows, so that
//! the examples cannot go stale.
//!
//! An example is a fenced block whose info string starts with `console`.
//! Its lines that start with `$ ` are commands (a line ending in `\` goes
//! on on the next); the lines up to the next command are what it prints,
//! stdout and stderr together. In the shown output a line `…` stands for
//! any number of lines, and `…` inside a line for any text (times, speeds).
//! Every block of one page runs in a fresh folder of its own, with the
//! built `kete` and `kete-arena` first on `PATH`, `tournaments/` and
//! `examples/` linked in,
//! a private database cache and home, and `/tmp/` in commands moved into
//! that folder.
//!
//! `console session` is a `kete play` session: what follows each prompt is
//! typed. `console not-run` is an example that is not run (it takes
//! minutes, needs a program kete does not ship, or serves until stopped);
//! each one is listed in [`NOT_RUN`] with the reason, and the test fails on
//! an unlisted one or a stale entry.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The examples that are not run: (page, the start of the block's first
/// command, why).
const NOT_RUN: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "$ cargo install --path .",
        "builds and installs kete for the user, minutes",
    ),
    (
        "README.md",
        "$ cargo run --release",
        "the test command itself; tests/first_hour.rs runs cargo run --release",
    ),
    (
        "README.md",
        "$ cargo build --release",
        "needs cutegames, which kete does not ship; the settings file is checked below",
    ),
    (
        "README.md",
        "$ python3 -m venv venv && venv/bin/pip install ./python",
        "builds the Python package (minutes); .ci/run builds it as a wheel (.ci/wheel.sh), installs it and runs its tests",
    ),
    (
        "README.md",
        "$ kete serve",
        "serves until stopped; checked below on a free port, and by tests/serve.rs",
    ),
    (
        "docs/guide/01-games.md",
        "$ kete completions bash > ~/.local/share/bash-completion/completions/kete",
        "writes into the user's shell setup",
    ),
    (
        "docs/guide/02-playing.md",
        "$ kete serve",
        "serves until stopped; tests/serve.rs and tests/browser/ drive it",
    ),
    (
        "docs/guide/02-playing.md",
        "$ kete egtb build --variant oware --pits 3 --max-seeds 12 --out oware3.db 2>/dev/null",
        "serves until stopped; the build runs in docs/guide/04-solving.md",
    ),
    (
        "docs/guide/04-solving.md",
        "$ kete solve --variant kalah",
        "builds the 226 MB database (half a minute) and Kalah(6,5) takes 20 minutes",
    ),
    (
        "docs/guide/04-solving.md",
        "$ kete solve --variant oware --pits 6 --seeds 1 --time 20 2>/dev/null",
        "takes its 20 s by design; tests/solve.rs checks --time on shorter limits",
    ),
    (
        "docs/guide/05-tournaments.md",
        "$ kete-arena --variant oware --rules abapa --engine cmd=KETE name=tuned \\",
        "an SPRT of up to 400 games at 0.1 s a move: hours",
    ),
    (
        "docs/guide/05-tournaments.md",
        "$ kete-arena merge DIR_1 DIR_2 … DIR_N --out MERGED",
        "the general form; the small sharded run below is run",
    ),
    (
        "docs/guide/05-tournaments.md",
        "$ cargo build --release",
        "rewrites the checked-in tournaments of the repository",
    ),
    (
        "docs/guide/06-plugging-in.md",
        "$ cargo build --release",
        "needs cutegames, which kete does not ship; the settings files are checked below",
    ),
    (
        "docs/guide/06-plugging-in.md",
        "$ kete-arena --variant oware \\",
        "two games on a 10 s clock: about a minute",
    ),
    (
        "docs/guide/06-plugging-in.md",
        "$ kete-arena --variant oware --rules abapa \\",
        "needs Aalina (Java), which kete does not ship",
    ),
    (
        "docs/guide/08-python.md",
        "$ python3 -m venv venv",
        "builds the package (minutes); .ci/run builds it as a wheel (.ci/wheel.sh), installs it and runs its tests",
    ),
    (
        "docs/guide/09-learning.md",
        "$ bash .ci/wheel.sh",
        "builds the wheel and runs the package's tests in a fresh virtualenv (minutes); .ci/run runs it",
    ),
    (
        "docs/guide/08-python.md",
        "$ venv/bin/python python/examples/plot_game.py --game 37 --out plot_game.png",
        "solves every position of a game (a minute or more); python/tests/test_example.py runs it on the last positions",
    ),
    (
        "docs/guide/07-tuning.md",
        "$ kete tune gen --variant oware --rules abapa --eval classic --games 2400 \\",
        "2,400 games: about 40 minutes",
    ),
    (
        "docs/guide/07-tuning.md",
        "$ kete tune fit --variant oware --rules abapa --data oware-abapa-classic-2400.txt \\",
        "needs the 2,400 games of the block before",
    ),
    (
        "docs/guide/07-tuning.md",
        "$ kete tune gen --variant oware --rules abapa --eval linear --games 6000 --nodes 10000 \\",
        "6,000 games: about 18 minutes on two threads; it rewrites kete's network",
    ),
    (
        "docs/guide/07-tuning.md",
        "$ kete tune gen --variant kalah --eval classic --games 1500 --nodes 5000 --seed 1 \\",
        "thousands of games: minutes to an hour; it rewrites kete's weights",
    ),
    (
        "docs/guide/10-describing.md",
        "$ KETE_LUDII=path/to/ludii KETE_LUDII_FILES=examples/descriptions/ntyenge.toml \\",
        "needs a headless build of Ludii, which kete does not ship",
    ),
];

/// The pages whose shell examples are run: the README and every page of
/// the guide, and the FAQ.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md"), PathBuf::from("docs/FAQ.md")];
    let mut guide: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs/guide"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| p.strip_prefix(ROOT).unwrap().to_path_buf())
        .collect();
    guide.sort();
    pages.extend(guide);
    pages
}

fn read(page: &Path) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(page))
        .unwrap_or_else(|e| panic!("{}: {e}", page.display()))
}

/// A fenced block: its info string, its first line's number and its lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (n, l) in text.lines().enumerate() {
        match open.take() {
            None => {
                if let Some(info) = l.strip_prefix("```") {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        line: n + 1,
                        lines: Vec::new(),
                    });
                }
            }
            Some(mut b) => {
                if l.trim_end() == "```" {
                    out.push(b);
                } else {
                    b.lines.push(l.to_string());
                    open = Some(b);
                }
            }
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    out
}

/// The commands of a block with the output shown after each.
fn steps(b: &Block) -> Vec<(String, Vec<String>)> {
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    let mut k = 0;
    while k < b.lines.len() {
        let l = &b.lines[k];
        if let Some(first) = l.strip_prefix("$ ") {
            let mut cmd = String::new();
            let mut part = first.to_string();
            while part.ends_with('\\') {
                cmd.push_str(&part);
                cmd.push('\n');
                k += 1;
                part = b.lines[k].clone();
            }
            cmd.push_str(&part);
            steps.push((cmd, Vec::new()));
        } else {
            let Some(last) = steps.last_mut() else {
                panic!("line {}: output before any command", b.line + k + 1);
            };
            last.1.push(l.trim_end().to_string());
        }
        k += 1;
    }
    steps
}

/// One line against a shown line in which `…` stands for any text.
fn line_matches(shown: &str, got: &str) -> bool {
    let parts: Vec<&str> = shown.split('…').collect();
    if parts.len() == 1 {
        return shown == got;
    }
    let Some(mut rest) = got.strip_prefix(parts[0]) else {
        return false;
    };
    let last = parts[parts.len() - 1];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(at) => rest = &rest[at + p.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// The lines printed against the lines shown, where a line `…` stands for
/// any number of lines.
fn output_matches(shown: &[String], got: &[String]) -> bool {
    match shown.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first == "…" => {
            (0..=got.len()).any(|skip| output_matches(rest, &got[skip..]))
        }
        Some((first, rest)) => {
            !got.is_empty() && line_matches(first, &got[0]) && output_matches(rest, &got[1..])
        }
    }
}

/// A fresh folder for a page's examples.
fn workdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kete-docs-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["tmp", "home", "egtb"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    #[cfg(unix)]
    for linked in ["tournaments", "examples"] {
        std::os::unix::fs::symlink(Path::new(ROOT).join(linked), dir.join(linked)).unwrap();
    }
    dir
}

/// Runs one command in `dir` as a shell would, stdout and stderr together,
/// and gives back its lines with the folder's own `/tmp/` written back.
fn run(dir: &Path, cmd: &str, input: &str) -> (Vec<String>, Duration) {
    let bin = Path::new(env!("CARGO_BIN_EXE_kete")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let tmp = format!("{}/", dir.join("tmp").display());
    let script = format!("exec 2>&1\n{}", cmd.replace("/tmp/", &tmp));
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir.join("home"))
        .env("KETE_EGTB_DIR", dir.join("egtb"))
        .env_remove("XDG_CACHE_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    writer.join().unwrap();
    // A command may fail on purpose (the page shows its error); what it
    // printed is compared all the same, and an empty failure is an error.
    assert!(
        status.success() || !out.is_empty(),
        "`{cmd}` failed ({status}) without a word"
    );
    let lines = out
        .replace(&tmp, "/tmp/")
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect();
    (lines, started.elapsed())
}

/// What a `kete play` session types: the text after each prompt.
fn typed(shown: &[String]) -> String {
    shown
        .iter()
        .filter_map(|l| l.split_once("> ").filter(|(p, _)| p.starts_with("you (")))
        .map(|(_, typed)| format!("{typed}\n"))
        .collect()
}

#[test]
fn every_shell_example_runs_as_shown_or_is_listed_as_not_run() {
    let mut listed: Vec<(&str, &str)> = Vec::new();
    let mut failures = Vec::new();
    for (p, page) in pages().iter().enumerate() {
        let name = page.to_str().unwrap().to_string();
        let text = read(page);
        let dir = workdir(&p.to_string());
        for b in blocks(&text) {
            let words: Vec<&str> = b.info.split_whitespace().collect();
            match words.first() {
                Some(&"console") => {}
                Some(&("sh" | "bash" | "shell" | "zsh")) => {
                    failures.push(format!(
                        "{name}:{}: a shell example is a `console` block (run, or marked not-run)",
                        b.line
                    ));
                    continue;
                }
                _ => continue,
            }
            let steps = steps(&b);
            assert!(
                !steps.is_empty(),
                "{name}:{}: a console block without a command",
                b.line
            );
            let first = format!("$ {}", steps[0].0.lines().next().unwrap());
            if words.contains(&"not-run") {
                match NOT_RUN
                    .iter()
                    .find(|(pg, cmd, _)| *pg == name && first.starts_with(cmd))
                {
                    Some((pg, cmd, _)) => listed.push((pg, cmd)),
                    None => failures.push(format!(
                        "{name}:{}: `{first}` is marked not-run but not listed in NOT_RUN",
                        b.line
                    )),
                }
                continue;
            }
            let session = words.contains(&"session");
            for (cmd, shown) in &steps {
                let input = if session { typed(shown) } else { String::new() };
                let (got, took) = run(&dir, cmd, &input);
                eprintln!(
                    "{name}:{}: {:.2} s `{}`",
                    b.line,
                    took.as_secs_f64(),
                    cmd.lines().next().unwrap()
                );
                if took > Duration::from_secs(60) {
                    failures.push(format!(
                        "{name}:{}: `{cmd}` took {took:?}: mark it not-run",
                        b.line
                    ));
                }
                if !output_matches(shown, &got) {
                    failures.push(format!(
                        "{name}:{}: `{cmd}` printed\n{}\n--- but the page shows\n{}",
                        b.line,
                        got.join("\n"),
                        shown.join("\n")
                    ));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    for (pg, cmd, _) in NOT_RUN {
        if !listed.contains(&(pg, cmd)) {
            failures.push(format!(
                "NOT_RUN lists `{cmd}` of {pg}, which has no such not-run block"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn shown_output_patterns_match_as_documented() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(line_matches("time … s", "time 0.5 s"));
    assert!(line_matches("a … b … c", "a 1 b 2 c"));
    assert!(!line_matches("a … b", "a 1 c"));
    assert!(output_matches(
        &s(&["x", "…", "z"]),
        &s(&["x", "y", "y", "z"])
    ));
    assert!(output_matches(&s(&["x", "…"]), &s(&["x"])));
    assert!(!output_matches(&s(&["x", "z"]), &s(&["x", "y", "z"])));
}

/// The README's `kete serve` recipe prints where it listens (run on a free
/// port, since 8080 may be taken).
#[test]
fn the_serve_recipe_says_where_it_listens() {
    let text = read(Path::new("README.md"));
    let b = blocks(&text)
        .into_iter()
        .find(|b| b.lines.first().is_some_and(|l| l == "$ kete serve"))
        .expect("README shows kete serve");
    assert_eq!(b.lines[1], "listening on http://127.0.0.1:8080/");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kete"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut out = child.stdout.take().unwrap();
    let mut byte = [0u8];
    while out.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        first.push(byte[0] as char);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let port = first
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|r| r.strip_suffix('/'))
        .unwrap_or_else(|| panic!("kete serve printed '{first}'"));
    assert!(port.parse::<u16>().is_ok(), "{first}");
}

/// The cutegames settings files: valid JSON naming kete's options and an
/// openings file whose every line is a position token kete takes; the
/// file the guide shows is the file in the repository.
#[test]
fn the_cutegames_settings_files_are_what_kete_takes() {
    let guide = read(Path::new("docs/guide/06-plugging-in.md"));
    let shown = blocks(&guide)
        .into_iter()
        .find(|b| b.info == "json")
        .expect("the guide shows a settings file");
    let file = read(Path::new("docs/cutegames/kalah.json"));
    assert_eq!(shown.lines.join("\n"), file.trim_end());
    for name in ["kalah", "oware"] {
        let text = read(Path::new(&format!("docs/cutegames/{name}.json")));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["protocol"]["askturn"], true, "{name}");
        let options = v["options"].as_object().unwrap();
        assert_eq!(options["Variant"], name);
        let mut script = String::new();
        for (k, x) in options {
            script.push_str(&format!(
                "setoption name {k} value {}\n",
                x.as_str().unwrap()
            ));
        }
        let openings = v["openings"]["path"].as_str().unwrap();
        let tokens = read(Path::new(openings));
        assert!(tokens.lines().count() >= 10, "{openings}");
        for t in tokens.lines() {
            script.push_str(&format!("position fen {t}\nquery gameover\n"));
        }
        let (out, _, ok) =
            common::run_with_input(Command::new(env!("CARGO_BIN_EXE_kete")), &script);
        assert!(ok);
        assert!(!out.contains("error"), "{name}: {out}");
        assert_eq!(
            out.lines().filter(|l| *l == "response false").count(),
            tokens.lines().count(),
            "{name}: {out}"
        );
        for e in v["engines"].as_array().unwrap() {
            assert_eq!(e["path"], "target/release/kete", "{name}");
        }
    }
    // The game set only on the engines' command lines: no Variant among
    // the options, and kete started with the parameters cutegames passes
    // offers Oware as its default.
    let v: serde_json::Value =
        serde_json::from_str(&read(Path::new("docs/cutegames/oware-args.json"))).unwrap();
    assert!(v["options"].get("Variant").is_none());
    for e in v["engines"].as_array().unwrap() {
        let params = e["parameters"].as_str().unwrap();
        let mut kete = Command::new(env!("CARGO_BIN_EXE_kete"));
        kete.args(params.split(' '));
        let (out, _, ok) = common::run_with_input(kete, "ugi\n");
        assert!(ok, "{params}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("option name Variant type combo default oware ")),
            "{out}"
        );
    }
}

/// Every test the rules reference names exists.
#[test]
fn the_rules_reference_names_real_tests() {
    let rules = read(Path::new("protocol/RULES.md"));
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
    let readme = read(Path::new("README.md"));
    assert!(readme.contains("protocol/RULES.md"));
    assert!(!readme.contains("shared/rules"));
}
