//! Pondering and the playing levels on the clock, against the real binary:
//! a pondering search answers only after `ponderhit` or `stop`, its time
//! counts from `ponderhit`, `stop` is answered at once, and every level
//! of every game (kete's own and the described ones) answers within the
//! time it was given without answering at once, pondering or not.
//!
//! Timed tests on a shared machine: each bound has room for a loaded
//! machine, and a measurement that misses it is taken again in a fresh
//! engine (up to twice) before it counts; a real overrun comes back.

mod common;

use std::time::{Duration, Instant};

use common::EngineProcess;

const LONG: Duration = Duration::from_secs(30);

/// Sends the commands and `go …`, waits `wait_ms`, sends `then` (if any),
/// and gives the `bestmove` line with the time from `then` (or from `go`)
/// to it, and whether a `bestmove` came before `then` was sent.
fn timed(setup: &[&str], go: &str, wait_ms: u64, then: Option<&str>) -> (String, Duration, bool) {
    let mut e = EngineProcess::start();
    e.next_line(LONG).expect("greeting");
    for c in setup {
        e.send(c);
    }
    e.send("isready");
    e.wait_for(LONG, "readyok", |l| l == "readyok");
    e.send(go);
    let mut t = Instant::now();
    let mut early = false;
    if let Some(cmd) = then {
        let until = Instant::now() + Duration::from_millis(wait_ms);
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match e.next_line(left) {
                Some(l) if l.starts_with("bestmove") => early = true,
                Some(_) => {}
                None => break,
            }
        }
        t = Instant::now();
        e.send(cmd);
    }
    let line = e.wait_for(LONG, "bestmove", |l| l.starts_with("bestmove"));
    let took = t.elapsed();
    e.send("quit");
    (line, took, early)
}

/// The fastest of up to three measurements (a fresh engine each).
fn fastest(f: impl Fn() -> (String, Duration, bool), bound: Duration) -> (String, Duration, bool) {
    let mut best = f();
    for _ in 0..2 {
        if best.1 <= bound {
            break;
        }
        let again = f();
        if again.1 < best.1 {
            best = again;
        }
    }
    best
}

const OWARE: &[&str] = &[
    "setoption name Variant value oware",
    "setoption name Ponder value true",
    "position startpos moves C f",
];

#[test]
fn a_pondering_search_answers_after_ponderhit_within_the_time_from_ponderhit() {
    // South's clock: 3 s, no increment. The hard limit is a fifth of what
    // is left after the overhead: 594 ms from ponderhit.
    let go = "go ponder wtime 3000 btime 3000 winc 0 binc 0";
    let bound = Duration::from_millis(594 + 150);
    let (line, took, early) = fastest(|| timed(OWARE, go, 1500, Some("ponderhit")), bound);
    assert!(!early, "no bestmove before ponderhit");
    assert!(
        line.starts_with("bestmove ") && line.contains(" ponder "),
        "{line}"
    );
    assert!(took <= bound, "{took:?} after ponderhit");
}

#[test]
fn a_finished_ponder_search_answers_at_once_on_ponderhit_and_stop_is_answered_at_once() {
    let bound = Duration::from_millis(150);
    let (line, took, early) = fastest(
        || timed(OWARE, "go ponder depth 5", 800, Some("ponderhit")),
        bound,
    );
    assert!(!early, "a finished ponder search still waits for ponderhit");
    assert!(line.starts_with("bestmove "), "{line}");
    assert!(took <= bound, "{took:?}");
    let go = "go ponder wtime 60000 btime 60000";
    let (line, took, early) = fastest(|| timed(OWARE, go, 500, Some("stop")), bound);
    assert!(!early);
    assert!(line.starts_with("bestmove "), "{line}");
    assert!(took <= bound, "stop answered in {took:?}");
}

#[test]
fn every_level_answers_within_its_time_and_not_at_once() {
    // movetime 300: the move's time is 270 ms after the overhead; a level
    // answers at about that, never much sooner and never late.
    let (low, high) = (Duration::from_millis(240), Duration::from_millis(300 + 150));
    for variant in every_game() {
        for level in [
            "random",
            "greedy",
            "first-game",
            "beginner",
            "novice",
            "casual",
            "club",
            "strong",
            "expert",
        ] {
            let setup = [
                format!("setoption name Variant value {variant}"),
                format!("setoption name Level value {level}"),
                "position startpos".to_string(),
            ];
            let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
            let (line, took, _) = fastest(|| timed(&setup, "go movetime 300", 0, None), high);
            assert!(
                line.starts_with("bestmove ") && line != "bestmove 0000",
                "{variant} {level}: {line}"
            );
            assert!(
                took >= low && took <= high,
                "{variant} {level}: answered in {took:?}, not in {low:?}..{high:?}"
            );
        }
    }
}

/// Every game kete plays: its own, then the described ones.
fn every_game() -> Vec<&'static str> {
    kete::variants::variant_names()
}

#[test]
fn every_game_ponders_at_a_level_and_answers_in_time_after_ponderhit() {
    let go = "go ponder wtime 3000 btime 3000 winc 0 binc 0";
    let bound = Duration::from_millis(594 + 150);
    for variant in every_game() {
        let setup = [
            format!("setoption name Variant value {variant}"),
            "setoption name Ponder value true".to_string(),
            "setoption name Level value club".to_string(),
            "position startpos".to_string(),
        ];
        let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
        let (line, took, early) = fastest(|| timed(&setup, go, 500, Some("ponderhit")), bound);
        assert!(!early, "{variant}: answered before ponderhit");
        assert!(line.starts_with("bestmove "), "{variant}: {line}");
        assert!(took <= bound, "{variant}: {took:?} after ponderhit");
    }
}

#[test]
fn a_level_ponders_and_answers_in_time_after_ponderhit() {
    let mut setup = OWARE.to_vec();
    setup.push("setoption name Level value club");
    let go = "go ponder wtime 3000 btime 3000 winc 0 binc 0";
    let bound = Duration::from_millis(594 + 150);
    let (line, took, early) = fastest(|| timed(&setup, go, 500, Some("ponderhit")), bound);
    assert!(!early);
    assert!(line.starts_with("bestmove "), "{line}");
    assert!(took <= bound, "{took:?}");
}
