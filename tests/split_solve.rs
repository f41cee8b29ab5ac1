//! Split solving through the binary, as a cluster runs it: `kete solve
//! --split` writes the jobs, separate processes solve them (`--job`), and
//! `--combine` backs their values up to the root. The answer must be the
//! plain solve's, whatever the split.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const KETE: &str = env!("CARGO_BIN_EXE_kete");

fn kete(args: &[&str]) -> Output {
    Command::new(KETE).args(args).output().expect("run kete")
}

fn ok(args: &[&str]) -> String {
    let out = kete(args);
    assert!(
        out.status.success(),
        "kete {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn refused(args: &[&str], what: &str) {
    let out = kete(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "kete {} should fail", args.join(" "));
    assert!(err.contains(what), "expected '{what}' in: {err}");
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kete-split-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Splits, solves every job (two processes at a time, as two array tasks
/// would) and combines; returns the combine's answer line.
fn split_solve(position: &[&str], plies: usize, jobs: &Path, job_args: &[&str]) -> String {
    let d = jobs.display().to_string();
    let plies = plies.to_string();
    let mut split = position.to_vec();
    split.extend(["--split", &plies, "--jobs", &d]);
    let n: usize = ok(&split)
        .strip_prefix("jobs ")
        .and_then(|n| n.parse().ok())
        .expect("jobs N");
    assert!(n > 0);
    let ids: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    for pair in ids.chunks(2) {
        let running: Vec<_> = pair
            .iter()
            .map(|i| {
                // One thread a job, as a one-CPU cluster task runs it.
                let mut a = vec!["solve", "--job", &d, i.as_str(), "--threads", "1"];
                a.extend(job_args);
                Command::new(KETE).args(&a).output()
            })
            .collect();
        for r in running {
            let out = r.expect("run a job");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    ok(&["solve", "--combine", &d])
}

#[test]
fn split_and_combine_of_small_boards_give_the_plain_solve() {
    let cases: [&[&str]; 4] = [
        &[
            "solve",
            "--variant",
            "kalah",
            "--pits",
            "4",
            "--seeds",
            "3",
            "--all-best",
        ],
        &[
            "solve",
            "--variant",
            "kalah",
            "--pits",
            "3",
            "--seeds",
            "3",
            "--all-best",
        ],
        // Oware, where a job must carry the positions of its line for the
        // repetition rule, under the default (own side) rule.
        &[
            "solve",
            "--variant",
            "oware",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--all-best",
        ],
        &[
            "solve",
            "--variant",
            "oware",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--rules",
            "abapa",
            "--all-best",
        ],
    ];
    for (k, case) in cases.iter().enumerate() {
        let plain = ok(case);
        let position: Vec<&str> = case
            .iter()
            .copied()
            .filter(|a| *a != "--all-best")
            .collect();
        for plies in [1, 3] {
            let jobs = dir(&format!("small-{k}-{plies}"));
            let combined = split_solve(&position, plies, &jobs, &[]);
            assert_eq!(combined, plain, "{} split at {plies}", case.join(" "));
            let _ = std::fs::remove_dir_all(&jobs);
        }
    }
}

#[test]
fn kalah_6_4_split_and_combined_is_plus_8_best_c() {
    let work = dir("kalah64");
    std::fs::create_dir_all(&work).unwrap();
    let db = work.join("kalah16.db").display().to_string();
    ok(&[
        "egtb",
        "build",
        "--variant",
        "kalah",
        "--max-seeds",
        "16",
        "--out",
        &db,
    ]);
    let jobs = work.join("jobs");
    let answer = split_solve(&["solve", "--variant", "kalah"], 1, &jobs, &["--egtb", &db]);
    assert_eq!(answer, "value +8 best C");
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn unfinished_or_mismatched_splits_are_refused_with_the_reason() {
    let jobs = dir("bad");
    let d = jobs.display().to_string();
    let split = [
        "solve",
        "--variant",
        "kalah",
        "--pits",
        "3",
        "--seeds",
        "3",
        "--split",
        "2",
        "--jobs",
        &d,
    ];
    let n: usize = ok(&split)[5..].parse().unwrap();
    // The same split again is fine (nothing changes); another is refused.
    ok(&split);
    refused(
        &[
            "solve",
            "--variant",
            "kalah",
            "--pits",
            "3",
            "--seeds",
            "2",
            "--split",
            "2",
            "--jobs",
            &d,
        ],
        "already holds another split",
    );
    ok(&["solve", "--job", &d, "0"]);
    refused(
        &["solve", "--combine", &d],
        &format!("{} of the {n} jobs in {d} have no result yet (1, 2", n - 1),
    );
    refused(
        &["solve", "--job", &d, &n.to_string()],
        "is not a job number",
    );
    refused(&["solve", "--job", &d, "x"], "is not a job number");
    refused(
        &["solve", "--variant", "kalah", "--split", "0", "--jobs", &d],
        "--split takes at least 1 move",
    );
    refused(
        &["solve", "--combine", "/nonexistent/kete-jobs"],
        "cannot read",
    );
    // A result file that belongs to another job.
    let results = jobs.join("results");
    std::fs::copy(results.join("job-0.json"), results.join("job-1.json")).unwrap();
    for i in 2..n {
        ok(&["solve", "--job", &d, &i.to_string()]);
    }
    refused(&["solve", "--combine", &d], "is the result of job 0");
    let _ = std::fs::remove_dir_all(&jobs);
}
