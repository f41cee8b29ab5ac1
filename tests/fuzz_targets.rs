//! The fuzz targets of `fuzz/` (docs/design/testing.md) on every `cargo
//! test`: each replays its corpus and every input that once failed it
//! (`fuzz/regressions/<target>/`), then a few hundred inputs mutated from
//! the corpus by a fixed-seed generator. The long runs are AFL++'s
//! (`fuzz/run.sh`); this keeps the harnesses building and the failures
//! fixed.

#[path = "../fuzz/src/targets.rs"]
mod targets;

use std::path::{Path, PathBuf};

mod common;
use common::rng::Rng;

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.expect("a folder entry").path()).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// `data` changed a little: bytes flipped, inserted, removed or cut.
fn mutate(rng: &mut Rng, data: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(5) {
            0 if at < out.len() => out[at] ^= 1 << rng.below(8),
            1 => out.insert(at, rng.below(256) as u8),
            2 if at < out.len() => {
                out.remove(at);
            }
            3 => out.truncate(at),
            _ => out.insert(at, b"\n0123456789-/ +SN<>ABCabcf\xff"[rng.below(26)]),
        }
    }
    out
}

fn run(name: &str, mutations: usize) {
    let target = targets::by_name(name).expect("a target");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let corpus = files(&root.join("corpus").join(name));
    assert!(!corpus.is_empty(), "{name}: no corpus");
    for f in corpus
        .iter()
        .chain(&files(&root.join("regressions").join(name)))
    {
        target(&std::fs::read(f).expect("a corpus file reads"));
    }
    let mut rng = Rng::new(name.len() as u64);
    for i in 0..mutations {
        let seed = std::fs::read(&corpus[i % corpus.len()]).expect("a corpus file reads");
        target(&mutate(&mut rng, &seed));
    }
}

#[test]
fn every_target_has_a_test_here() {
    let here = include_str!("fuzz_targets.rs");
    for (name, _) in targets::TARGETS {
        assert!(here.contains(&format!("fn fuzz_{name}()")), "{name}");
    }
}

#[test]
fn fuzz_position() {
    run("position", 2000);
}

#[test]
fn fuzz_move_text() {
    run("move_text", 2000);
}

#[test]
fn fuzz_protocol() {
    run("protocol", 40);
}

#[test]
fn fuzz_openings() {
    run("openings", 1000);
}

#[test]
fn fuzz_book() {
    run("book", 300);
}

#[test]
fn fuzz_records() {
    run("records", 500);
}

#[test]
fn fuzz_egtb_header() {
    run("egtb_header", 300);
}

#[test]
fn fuzz_settings() {
    run("settings", 500);
}

#[test]
fn fuzz_web_api() {
    run("web_api", 1000);
}

#[test]
fn fuzz_description() {
    run("description", 1000);
}
