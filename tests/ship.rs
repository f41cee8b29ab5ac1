//! What an installed kete promises its users: both binaries name the crate's
//! version, and each prints shell completions built from its own command line.

use std::process::{Command, Output};

const KETE: &str = env!("CARGO_BIN_EXE_kete");
const ARENA: &str = env!("CARGO_BIN_EXE_kete-arena");
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn run(bin: &str, args: &[&str]) -> Output {
    let out = Command::new(bin).args(args).output().expect("run binary");
    assert!(
        out.status.success(),
        "{bin} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(bin: &str, args: &[&str]) -> String {
    String::from_utf8(run(bin, args).stdout).expect("UTF-8 output")
}

#[test]
fn both_binaries_answer_version_with_the_crate_version() {
    assert_eq!(stdout(KETE, &["--version"]), format!("kete {VERSION}\n"));
    assert_eq!(
        stdout(ARENA, &["--version"]),
        format!("kete-arena {VERSION}\n")
    );
}

#[test]
fn kete_completions_bash_is_a_completion_script() {
    let script = stdout(KETE, &["completions", "bash"]);
    assert!(
        script.contains("complete ") && script.contains(" kete"),
        "no `complete` registration for kete:\n{script}"
    );
    // Generated from the real parser: the subcommands and their flags are in it.
    for word in ["perft", "bench", "solve", "egtb", "--variant", "--depth"] {
        assert!(script.contains(word), "bash completions lack '{word}'");
    }
}

#[test]
fn kete_arena_completions_bash_is_a_completion_script() {
    let script = stdout(ARENA, &["completions", "bash"]);
    assert!(
        script.contains("complete ") && script.contains(" kete-arena"),
        "no `complete` registration for kete-arena:\n{script}"
    );
    for word in ["openings", "--engine", "--out", "--sprt"] {
        assert!(script.contains(word), "bash completions lack '{word}'");
    }
}

#[test]
fn every_shell_gets_completions_from_both_binaries() {
    for bin in [KETE, ARENA] {
        for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
            let script = stdout(bin, &["completions", shell]);
            // fish spells the flag `-l variant`, the others `--variant`.
            let flag = if shell == "fish" {
                "-l variant"
            } else {
                "--variant"
            };
            assert!(
                script.contains(flag) && script.contains("completions"),
                "{bin} completions {shell} lacks '{flag}' or the subcommands"
            );
        }
    }
}

#[test]
fn an_unknown_shell_is_refused_by_name() {
    let out = Command::new(KETE)
        .args(["completions", "cmd.exe"])
        .output()
        .expect("run kete");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cmd.exe"), "stderr: {err}");
}
