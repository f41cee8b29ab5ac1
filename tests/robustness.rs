//! Feeds the engine ten thousand random and mutated lines, then checks that it
//! still answers `isready` and plays a legal move.

mod common;

use std::time::Duration;

use common::EngineProcess;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Commands and fragments the mutations are made of. `quit` is left out (it
/// would end the test early), so are big `Hash` values and `bench` (a large
/// table or a deep bench are legitimate requests that take memory or time).
const WORDS: &[&str] = &[
    "ugi",
    "uci",
    "isready",
    "setoption",
    "name",
    "value",
    "Variant",
    "kalah",
    "oware",
    "Pits",
    "Seeds",
    "Capture",
    "empty",
    "Rules",
    "abapa",
    "Repetition",
    "split",
    "Threads",
    "MultiPV",
    "Move",
    "Overhead",
    "Eval",
    "store",
    "Ponder",
    "true",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "p1time",
    "p2time",
    "winc",
    "p1inc",
    "movestogo",
    "infinite",
    "perft",
    "stop",
    "query",
    "gameover",
    "p1turn",
    "result",
    "d",
    "eval",
    "help",
    "uginewgame",
    "ucinewgame",
    "A",
    "B",
    "C",
    "D",
    "E",
    "F",
    "a",
    "b",
    "c",
    "G",
    "0",
    "1",
    "3",
    "-1",
    "99999999999999999999999",
    "18446744073709551616",
    "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    "0-0-0-0-0-1-0-0-0-0-0-2-23-22-S",
    "4-4-4",
    "--",
    "\u{00e9}",
    "\u{1F331}",
];

const VALID: &[&str] = &[
    "position startpos moves C F a",
    "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves A",
    "go depth 3",
    "go movetime 5",
    "go nodes 500",
    "go wtime 100 btime 100 winc 1 binc 1",
    "go infinite",
    "go perft 3",
    "setoption name Variant value oware",
    "setoption name Variant value kalah",
    "setoption name Pits value 3",
    "setoption name MultiPV value 3",
    "setoption name Threads value 2",
    "setoption name Hash value 2",
    "query result",
    "isready",
    "stop",
    "d",
    "eval",
];

fn random_line(rng: &mut StdRng) -> Vec<u8> {
    match rng.random_range(0..6) {
        // Random bytes, any value, any length up to a few hundred.
        0 => {
            let n = rng.random_range(0..300);
            let mut v: Vec<u8> = (0..n).map(|_| rng.random()).collect();
            v.retain(|&b| b != b'\n');
            v
        }
        // A valid command cut short.
        1 => {
            let c = VALID[rng.random_range(0..VALID.len())].as_bytes();
            c[..rng.random_range(0..=c.len())].to_vec()
        }
        // A valid command with one token replaced, dropped or repeated.
        2 => {
            let mut t: Vec<&str> = VALID[rng.random_range(0..VALID.len())].split(' ').collect();
            let i = rng.random_range(0..t.len());
            match rng.random_range(0..3) {
                0 => t[i] = WORDS[rng.random_range(0..WORDS.len())],
                1 => {
                    t.remove(i);
                }
                _ => t.insert(i, t[i]),
            }
            t.join(" ").into_bytes()
        }
        // Random words.
        3 => {
            let n = rng.random_range(1..8);
            let t: Vec<&str> = (0..n)
                .map(|_| WORDS[rng.random_range(0..WORDS.len())])
                .collect();
            t.join(" ").into_bytes()
        }
        // A valid command as it is.
        4 => VALID[rng.random_range(0..VALID.len())].as_bytes().to_vec(),
        // Huge numbers and odd white space around valid words.
        _ => format!(
            "\t{}  {}\r",
            WORDS[rng.random_range(0..WORDS.len())],
            [
                "1e9",
                "-0",
                "+5",
                "007",
                "340282366920938463463374607431768211456"
            ][rng.random_range(0..5)]
        )
        .into_bytes(),
    }
}

#[test]
fn ten_thousand_bad_lines_then_a_legal_move() {
    let mut rng = StdRng::seed_from_u64(0x6b657465);
    let mut e = EngineProcess::start();
    let mut lines = 0;
    for i in 0..10_000 {
        let line = random_line(&mut rng);
        e.send_bytes(&line);
        lines += 1;
        // A megabyte line now and then.
        if i % 2500 == 0 {
            e.send_bytes(&vec![b'x'; 1 << 20]);
            lines += 1;
        }
    }
    assert!(lines >= 10_000);
    // A position no random line can name marks where the random part ends:
    // everything before its `d` output belongs to the random lines.
    let marker = "5-3-4-4-4-4-4-4-4-4-4-4-0-0-S";
    for cmd in [
        "stop",
        "setoption name Variant value kalah",
        "setoption name Pits value 6",
        "setoption name Seeds value 4",
        "setoption name Capture value standard",
        &format!("position fen {marker}"),
        "d",
    ] {
        e.send(cmd);
    }
    let fen = format!("Fen: {marker}");
    e.wait_for(Duration::from_secs(120), "the marker position", |l| {
        l == fen
    });
    e.send("isready");
    e.wait_for(Duration::from_secs(60), "readyok", |l| l == "readyok");
    e.send("go depth 4");
    let best = e.wait_for(Duration::from_secs(120), "bestmove", |l| {
        l.starts_with("bestmove")
    });
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(["A", "B", "C", "D", "E", "F"].contains(&mv), "{best}");
    assert_eq!(best.split_whitespace().count(), 2, "{best}");
    let errors = e
        .log
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert!(
        errors > 3000,
        "only {errors} error lines for 10,000 bad lines"
    );
    e.finish();
}
