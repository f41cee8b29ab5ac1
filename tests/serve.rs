//! `kete serve`'s API, driven over HTTP against the real binary: every
//! endpoint, bad input, a traced move in every variant ending in the
//! position the server then reports, and searches streamed and abandoned.

use serde_json::{Value, json};

mod common;
use common::http::Server;

/// Applies a trace's steps to the seed counts of `before` (what the page
/// does when it animates a move).
fn replay_trace(before: &Value, trace: &Value) -> Vec<u64> {
    let mut counts: Vec<u64> = before
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["seeds"].as_u64().unwrap())
        .collect();
    let mut hand = 0i64;
    for s in trace.as_array().unwrap() {
        match s["step"].as_str().unwrap() {
            "lift" => {
                let (c, n) = (
                    s["cell"].as_u64().unwrap() as usize,
                    s["seeds"].as_u64().unwrap(),
                );
                counts[c] -= n;
                hand += n as i64;
            }
            "drop" => {
                counts[s["cell"].as_u64().unwrap() as usize] += 1;
                hand -= 1;
            }
            "take" => {
                let n = s["seeds"].as_u64().unwrap();
                counts[s["from"].as_u64().unwrap() as usize] -= n;
                counts[s["to"].as_u64().unwrap() as usize] += n;
            }
            "note" => assert!(s["text"].as_str().is_some()),
            other => panic!("unknown step {other}"),
        }
    }
    assert_eq!(hand, 0, "seeds left in hand");
    counts
}

fn seeds(cells: &Value) -> Vec<u64> {
    cells
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["seeds"].as_u64().unwrap())
        .collect()
}

#[test]
fn serve_page_and_assets_are_embedded() {
    let s = Server::start();
    let (st, page) = s.request("GET", "/", "");
    assert_eq!(st, 200);
    assert!(page.contains("<svg") && page.contains("/app.js"), "{page}");
    // Nothing is fetched from elsewhere (the SVG namespace is only a name).
    for load in ["src=\"http", "href=\"http", "src='http", "href='http"] {
        assert!(!page.contains(load), "no CDN: {load}");
    }
    let (st, js) = s.request("GET", "/app.js", "");
    assert!(st == 200 && js.contains("/api/move"));
    let (st, css) = s.request("GET", "/style.css", "");
    assert!(st == 200 && css.contains("#board"));
}

#[test]
fn serve_every_variant_plays_traced_moves_to_the_reported_position() {
    let s = Server::start();
    let (st, v) = s.json("GET", "/api/variants", "");
    assert_eq!(st, 200);
    let names: Vec<&str> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 5);
    let games = [
        json!({"variant": "kalah"}),
        json!({"variant": "kalah", "options": {"Capture": "empty", "Pits": "4", "Seeds": "3"}}),
        json!({"variant": "oware"}),
        json!({"variant": "oware", "options": {"Rules": "abapa", "Repetition": "split"}}),
        json!({"variant": "endodoi", "options": {"Pits": "10"}}),
        json!({"variant": "endodoi", "options": {"Pits": "6"}}),
        json!({"variant": "bao-kujifunza"}),
        json!({"variant": "bao-kiswahili"}),
    ];
    for g in games {
        let mut g = g.as_object().unwrap().clone();
        g.insert("moves".into(), json!([]));
        // Twelve moves, always the last legal one, each traced.
        for _ in 0..12 {
            let (st, state) = s.json("POST", "/api/state", &Value::Object(g.clone()).to_string());
            assert_eq!(st, 200, "{state}");
            if !state["outcome"].is_null() {
                break;
            }
            let legal = state["legal"].as_array().unwrap();
            assert!(!legal.is_empty());
            let mv = legal.last().unwrap()["text"].as_str().unwrap().to_string();
            let mut m = g.clone();
            m.insert("move".into(), json!(mv));
            let (st, r) = s.json("POST", "/api/move", &Value::Object(m).to_string());
            assert_eq!(st, 200, "{r}");
            assert_eq!(seeds(&r["before"]), seeds(&state["cells"]));
            assert_eq!(
                replay_trace(&r["before"], &r["trace"]),
                seeds(&r["state"]["cells"]),
                "{g:?} {mv}"
            );
            g.get_mut("moves")
                .unwrap()
                .as_array_mut()
                .unwrap()
                .push(json!(mv));
            let (_, after) = s.json("POST", "/api/state", &Value::Object(g.clone()).to_string());
            assert_eq!(after["token"], r["state"]["token"]);
        }
    }
}

#[test]
fn serve_reports_the_outcome_and_its_reason() {
    let s = Server::start();
    // South's last seed is sown into his store: the row is empty, the game over.
    let body =
        json!({"variant": "kalah", "start": "0-0-0-0-0-1-1-0-0-0-0-0-24-22-S", "moves": ["F"]});
    let (st, v) = s.json("POST", "/api/state", &body.to_string());
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["outcome"]["result"], "p1win");
    assert_eq!(v["outcome"]["code"], "empty-row");
    assert!(v["legal"].as_array().unwrap().is_empty());
}

#[test]
fn serve_bad_input_gets_a_json_error() {
    let s = Server::start();
    let cases: &[(&str, &str, &str, u16, &str)] = &[
        ("POST", "/api/state", "{not json", 400, "bad request"),
        (
            "POST",
            "/api/state",
            r#"{"variant":"chess"}"#,
            400,
            "unknown variant",
        ),
        (
            "POST",
            "/api/state",
            r#"{"variant":"kalah","options":{"Pits":"99"}}"#,
            400,
            "Pits",
        ),
        (
            "POST",
            "/api/state",
            r#"{"variant":"kalah","moves":["Z"]}"#,
            400,
            "move 1",
        ),
        (
            "POST",
            "/api/state",
            r#"{"variant":"kalah","start":"1-2-S"}"#,
            400,
            "start",
        ),
        (
            "POST",
            "/api/state",
            r#"{"variant":"kalah","bogus":1}"#,
            400,
            "bogus",
        ),
        ("POST", "/api/move", r#"{"variant":"kalah"}"#, 400, "move"),
        (
            "POST",
            "/api/move",
            r#"{"variant":"bao-kiswahili","move":"A9>"}"#,
            400,
            "A9",
        ),
        (
            "POST",
            "/api/search",
            r#"{"variant":"kalah"}"#,
            400,
            "movetime",
        ),
        (
            "POST",
            "/api/search",
            r#"{"variant":"kalah","movetime_ms":999999}"#,
            400,
            "movetime_ms",
        ),
        (
            "POST",
            "/api/search",
            r#"{"variant":"kalah","depth":3,"multipv":99}"#,
            400,
            "multipv",
        ),
        ("GET", "/api/state", "", 405, "not allowed"),
        ("GET", "/nothing", "", 404, "no such page"),
    ];
    for &(method, path, body, status, word) in cases {
        let (st, v) = s.json(method, path, body);
        assert_eq!(st, status, "{method} {path} {body}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(word), "{method} {path} {body}: {e}");
    }
    let big = format!(r#"{{"variant":"kalah","start":"{}"}}"#, "x".repeat(100_000));
    let (st, v) = s.json("POST", "/api/state", &big);
    assert_eq!(st, 413, "{v}");
    // Still serving.
    assert_eq!(s.request("GET", "/api/variants", "").0, 200);
}

#[test]
fn serve_search_streams_lines_and_a_legal_best_move() {
    let s = Server::start();
    let body = json!({"variant": "oware", "moves": ["C"], "depth": 6, "multipv": 3});
    let (st, text) = s.request("POST", "/api/search", &body.to_string());
    assert_eq!(st, 200);
    let events: Vec<(String, Value)> = text
        .split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).unwrap()))
        })
        .collect();
    let lines: Vec<u64> = events
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, v)| v["multipv"].as_u64().unwrap())
        .collect();
    assert!(lines.contains(&1) && lines.contains(&3), "{text}");
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done");
    let (_, state) = s.json(
        "POST",
        "/api/state",
        &json!({"variant": "oware", "moves": ["C"]}).to_string(),
    );
    let legal: Vec<&str> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert!(legal.contains(&done["best"].as_str().unwrap()), "{done}");
}

#[test]
fn serve_survives_a_page_that_leaves_mid_search() {
    use std::io::{Read, Write};
    let s = Server::start();
    let body = json!({"variant": "bao-kiswahili", "movetime_ms": 20000}).to_string();
    let started = std::time::Instant::now();
    {
        let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
        write!(
            c,
            "POST /api/search HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut first = [0u8; 64];
        let n = c.read(&mut first).unwrap();
        assert!(String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"));
    } // the page goes away
    // The server answers other requests meanwhile and afterwards.
    for _ in 0..3 {
        let (st, _) = s.json("POST", "/api/state", r#"{"variant":"kalah"}"#);
        assert_eq!(st, 200);
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    let (st, text) = s.request(
        "POST",
        "/api/search",
        &json!({"variant": "kalah", "depth": 4}).to_string(),
    );
    assert!(st == 200 && text.contains("event: done"), "{text}");
    eprintln!("after {:?}", started.elapsed());
}

#[test]
fn serve_replays_a_kete_arena_games_file() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tournaments/endodoi-depth6-vs-depth4/games.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let s = Server::start();
    let (st, v) = s.json("POST", "/api/replay", &text);
    assert_eq!(st, 200, "{v}");
    let games = v["games"].as_array().unwrap();
    assert_eq!(
        games.len(),
        text.lines().filter(|l| !l.trim().is_empty()).count()
    );
    // Every recorded game replays by the rules to its recorded end.
    for g in games.iter().take(4) {
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        let engine_moves = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["opening"].is_null());
        assert!(
            engine_moves.clone().any(|m| m["depth"].as_u64().is_some()),
            "{g}"
        );
        let req = json!({"variant": g["variant"], "options": g["options"], "start": g["start"], "moves": moves});
        let (st, state) = s.json("POST", "/api/state", &req.to_string());
        assert_eq!(st, 200, "{state}");
        assert_eq!(state["outcome"]["result"], g["result"], "{g}");
    }
    let (st, v) = s.json("POST", "/api/replay", "{\"id\": 1}\nnot json");
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("line 1"), "{v}");
    let (st, _) = s.json("GET", "/api/replay", "");
    assert_eq!(st, 404);
}

#[test]
fn serve_solves_small_counting_positions_exactly() {
    let s = Server::start();
    // Kalah(4,1): small enough to solve at once from the start.
    let body = json!({"variant": "kalah", "options": {"Pits": "4", "Seeds": "1"}, "moves": ["A"], "solve_ms": 20000});
    let (st, v) = s.json("POST", "/api/solve", &body.to_string());
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["exact"], true, "{v}");
    let best = v["best"].as_array().unwrap();
    assert!(!best.is_empty());
    // The value agrees with the solve subcommand's (South's margin there).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
        .args(["solve", "--variant", "kalah", "--pits", "4", "--seeds", "1"])
        .args(["--fen", "0-2-1-1-1-1-1-1-0-0-N", "--all-best"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "value").unwrap();
    let south: i64 = words[at + 1].parse().unwrap();
    // North is to move: the page's value is North's margin.
    assert_eq!(v["side"], "north");
    assert_eq!(v["value"].as_i64().unwrap(), -south, "{text}");
    let cli_best: Vec<&str> = words[at + 3..]
        .iter()
        .take_while(|w| w.len() == 1)
        .copied()
        .collect();
    let api_best: Vec<&str> = best.iter().map(|b| b.as_str().unwrap()).collect();
    assert_eq!(api_best, cli_best, "{text}");
    let (st, v) = s.json("POST", "/api/solve", r#"{"variant":"bao-kiswahili"}"#);
    assert_eq!(st, 400);
    assert!(
        v["error"].as_str().unwrap().contains("cannot be solved"),
        "{v}"
    );
    let (st, _) = s.json("POST", "/api/solve", r#"{"variant":"kalah","solve_ms":0}"#);
    assert_eq!(st, 400);
}

#[test]
fn serve_drives_an_external_engine() {
    // kete itself, as a separate process speaking the protocol.
    let s = common::http::Server::start_with(&["--engine", env!("CARGO_BIN_EXE_kete")]);
    let body =
        json!({"variant": "oware", "options": {"Rules": "abapa"}, "moves": ["C", "d"], "depth": 4});
    let (st, text) = s.request("POST", "/api/search", &body.to_string());
    assert_eq!(st, 200);
    let data = text
        .split("\n\n")
        .find(|b| b.starts_with("event: done"))
        .and_then(|b| b.lines().find_map(|l| l.strip_prefix("data: ")))
        .unwrap_or_else(|| panic!("no done event: {text}"));
    let done: Value = serde_json::from_str(data).unwrap();
    assert_eq!(done["engine"], "kete", "{done}");
    assert_eq!(done["depth"], 4, "{done}");
    let (_, state) = s.json(
        "POST",
        "/api/state",
        &json!({"variant": "oware", "options": {"Rules": "abapa"}, "moves": ["C", "d"]})
            .to_string(),
    );
    let legal: Vec<&Value> = state["legal"].as_array().unwrap().iter().collect();
    assert!(
        legal
            .iter()
            .any(|m| m["text"] == done["best"] && m["cell"] == done["cell"]),
        "{done}"
    );
}
