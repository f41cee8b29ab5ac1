//! `kete bench` prints `<N> nodes <M> nps`, and N is the same on every run.

use std::process::Command;

fn bench_nodes() -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_kete"))
        .arg("bench")
        .output()
        .expect("run kete bench");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().last().expect("a summary line");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 4, "summary: {line}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"), "summary: {line}");
    words[2].parse::<u64>().expect("nps is a number");
    words[0].parse().expect("nodes is a number")
}

#[test]
fn bench_node_count_is_a_stable_signature() {
    let first = bench_nodes();
    assert!(first > 100_000, "bench searched only {first} nodes");
    assert_eq!(first, bench_nodes());
}
