//! The clock guard that issue 11 asks for: `go movetime 100` answered within
//! 150 ms in every variant, on positions from games (Bao: the slow set of
//! `tests/data/slow-bao.txt` and positions of recorded games) and from random
//! games (the other variants). One engine process per variant, one position
//! at a time; the distribution is printed.
//!
//! This is a timed test on a shared machine, so it is built not to flake: a
//! position that takes too long is measured again in a fresh engine process
//! (a cold one: nothing it learnt before helps it), up to twice, and only
//! the fastest of the tries counts. A real overrun comes back every time.

mod common;

use std::time::{Duration, Instant};

use common::EngineProcess;
use kete::game::Game;
use kete::variants::{Variant, VariantVisitor};

/// The time asked for and the bound the issue sets.
const MOVETIME_MS: u64 = 100;
const BOUND_MS: f64 = 150.0;
const PER_VARIANT: usize = 200;

/// `<variant> <fen>` lines, `#` comments.
fn data(name: &str) -> Vec<(String, String)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut w = l.split_whitespace();
            let v = w.next().unwrap().to_string();
            let fen = w
                .next()
                .unwrap_or_else(|| panic!("{path}: no fen in '{l}'"));
            (v, fen.to_string())
        })
        .collect()
}

/// Positions of random games, a few from each: `count` in all.
struct RandomPositions {
    count: usize,
    seed: u64,
}

impl VariantVisitor for RandomPositions {
    type Output = Vec<String>;

    fn visit<G: Game>(self, rules: G::Rules) -> Vec<String> {
        let mut seed = self.seed;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n as u64) as usize
        };
        let mut out = Vec::new();
        let mut moves = Vec::new();
        while out.len() < self.count {
            let mut pos = G::start(&rules);
            for ply in 0..300 {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // Every third position, so that one game does not make
                // up the whole set.
                if ply % 3 == 1 && out.len() < self.count {
                    out.push(pos.to_notation());
                }
                pos = pos.play(moves[next(moves.len())]);
            }
        }
        out
    }
}

/// Milliseconds from `go movetime 100` to `bestmove` in `engine`, which is
/// already set to the variant.
fn time_one(engine: &mut EngineProcess, fen: &str) -> f64 {
    engine.send(&format!("position fen {fen}"));
    engine.send("isready");
    engine.wait_for(Duration::from_secs(60), "readyok", |l| l == "readyok");
    let t = Instant::now();
    engine.send(&format!("go movetime {MOVETIME_MS}"));
    let line = engine.wait_for(Duration::from_secs(60), "bestmove", |l| {
        l.starts_with("bestmove")
    });
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    assert!(
        line != "bestmove 0000",
        "no move in {fen}, a position of a game that goes on"
    );
    ms
}

fn engine_for(variant: &str) -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send(&format!("setoption name Variant value {variant}"));
    e
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[test]
#[cfg_attr(debug_assertions, ignore = "timing: run with --release")]
fn go_movetime_100_is_answered_within_150_ms_in_every_variant() {
    let mut bao: Vec<(String, String)> = data("slow-bao.txt");
    bao.extend(data("bao-game-positions.txt"));
    let mut sets: Vec<(String, Vec<String>)> = Vec::new();
    for v in ["bao-kiswahili", "bao-kujifunza"] {
        let mut fens: Vec<String> = Vec::new();
        for (var, fen) in &bao {
            if var == v && !fens.contains(fen) {
                fens.push(fen.clone());
            }
        }
        assert!(
            fens.len() >= PER_VARIANT,
            "{v}: only {} positions in tests/data",
            fens.len()
        );
        sets.push((v.to_string(), fens));
    }
    for (v, seed) in [
        ("kalah", 1),
        ("oware", 2),
        ("endodoi", 3),
        ("togyz-kumalak", 4),
        ("bestemshe", 5),
    ] {
        let variant = Variant::by_name(v).unwrap();
        let fens = variant.visit(RandomPositions {
            count: PER_VARIANT,
            seed,
        });
        sets.push((v.to_string(), fens));
    }

    let mut failures = Vec::new();
    let mut all = Vec::new();
    for (v, fens) in &sets {
        let mut engine = engine_for(v);
        let mut times = Vec::new();
        let mut retried = 0;
        for fen in fens {
            let mut ms = time_one(&mut engine, fen);
            // Too slow: again in a cold process, the best of up to three.
            let mut tries = 1;
            while ms > BOUND_MS && tries < 3 {
                retried += 1;
                tries += 1;
                let mut cold = engine_for(v);
                ms = ms.min(time_one(&mut cold, fen));
                cold.finish();
            }
            if ms > BOUND_MS {
                failures.push(format!("{v} {fen}: {ms:.1} ms"));
            }
            times.push(ms);
        }
        engine.finish();
        times.sort_by(f64::total_cmp);
        println!(
            "{v:>14}: {} positions, ms from go to bestmove: min {:.1} median {:.1} p90 {:.1} p99 {:.1} max {:.1}; over {MOVETIME_MS} ms: {}; measured again: {retried}",
            times.len(),
            times[0],
            quantile(&times, 0.5),
            quantile(&times, 0.9),
            quantile(&times, 0.99),
            times[times.len() - 1],
            times.iter().filter(|&&t| t > MOVETIME_MS as f64).count(),
        );
        all.extend(times);
    }
    all.sort_by(f64::total_cmp);
    println!(
        "{:>14}: {} positions, median {:.1} p99 {:.1} max {:.1} ms",
        "all",
        all.len(),
        quantile(&all, 0.5),
        quantile(&all, 0.99),
        all[all.len() - 1]
    );
    assert!(
        failures.is_empty(),
        "go movetime {MOVETIME_MS} took more than {BOUND_MS} ms (best of three):\n{}",
        failures.join("\n")
    );
}
