//! `kete serve`'s API, driven over HTTP against the real binary: every
//! endpoint, bad input, a traced move in every variant ending in the
//! position the server then reports, and searches streamed and abandoned.

use serde_json::{Value, json};

mod common;
use common::http::{Server, legal_texts};

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
    assert_eq!(names, kete::variants::variant_names());
    let games = [
        json!({"variant": "kalah"}),
        json!({"variant": "kalah", "options": {"Capture": "empty", "Pits": "4", "Seeds": "3"}}),
        json!({"variant": "oware"}),
        json!({"variant": "oware", "options": {"Rules": "abapa", "Repetition": "split"}}),
        json!({"variant": "endodoi", "options": {"Pits": "10"}}),
        json!({"variant": "endodoi", "options": {"Pits": "6"}}),
        json!({"variant": "bao-kujifunza"}),
        json!({"variant": "bao-kiswahili"}),
        json!({"variant": "togyz-kumalak"}),
        json!({"variant": "togyz-kumalak", "options": {"Atsyz": "extra-move"}}),
        json!({"variant": "bestemshe"}),
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
fn serve_plays_every_described_game_to_its_end() {
    let s = Server::start();
    for name in kete::variants::described_names() {
        let mut g = serde_json::Map::new();
        g.insert("variant".into(), json!(name));
        g.insert("moves".into(), json!([]));
        let mut state = Value::Null;
        // The first legal move each time, each traced, until the end.
        for ply in 0..600 {
            let (st, now) = s.json("POST", "/api/state", &Value::Object(g.clone()).to_string());
            assert_eq!(st, 200, "{name}: {now}");
            state = now;
            if !state["outcome"].is_null() {
                break;
            }
            let legal = state["legal"].as_array().unwrap();
            assert!(!legal.is_empty(), "{name} ply {ply}: {state}");
            let mv = legal[0]["text"].as_str().unwrap().to_string();
            let mut m = g.clone();
            m.insert("move".into(), json!(mv));
            let (st, r) = s.json("POST", "/api/move", &Value::Object(m).to_string());
            assert_eq!(st, 200, "{name}: {r}");
            assert_eq!(
                replay_trace(&r["before"], &r["trace"]),
                seeds(&r["state"]["cells"]),
                "{name} {mv}"
            );
            g.get_mut("moves")
                .unwrap()
                .as_array_mut()
                .unwrap()
                .push(json!(mv));
        }
        assert!(!state["outcome"].is_null(), "{name}: no end in 600 plies");
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
    // The answer carries the last report of each of the three lines.
    let firsts: Vec<&str> = done["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["pv"][0].as_str().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3, "{done}");
    assert_eq!(firsts[0], done["best"], "{done}");
    assert!(firsts.iter().all(|m| legal.contains(m)), "{done}");
}

/// The events of a server-sent event stream, in order.
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).unwrap()))
        })
        .collect()
}

/// Sends `body` to `path` and leaves once the answer has begun, as a page
/// that is closed mid-way does.
fn leave_mid_way(s: &Server, path: &str, body: &str) {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
    write!(
        c,
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut first = [0u8; 64];
    let n = c.read(&mut first).unwrap();
    assert!(String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"));
}

#[test]
fn serve_survives_a_page_that_leaves_mid_search() {
    let s = Server::start();
    let body = json!({"variant": "bao-kiswahili", "movetime_ms": 20000}).to_string();
    let started = std::time::Instant::now();
    leave_mid_way(&s, "/api/search", &body); // the page goes away
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
    assert_eq!(
        (&v["lower"], &v["upper"]),
        (&v["value"], &v["value"]),
        "{v}"
    );
    // Oware 4x3 under own-side (value -2 for South, who moves) takes far
    // longer than 300 ms: not exact, with bounds that hold the value.
    let body = json!({"variant": "oware", "options": {"Pits": "4", "Seeds": "3"}, "solve_ms": 300});
    let (st, v) = s.json("POST", "/api/solve", &body.to_string());
    assert_eq!(st, 200, "{v}");
    if v["exact"] == false {
        let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
        assert!(lo <= -2 && -2 <= hi, "{v}");
        // The bounds in the evaluation's fixed-side words, no bare sign.
        let words = v["words"].as_str().unwrap();
        assert!(
            words.starts_with("not solved in time: between ")
                && words.contains(" for North")
                && !words.contains(" -"),
            "{v}"
        );
    } else {
        assert_eq!(v["value"], -2, "{v}");
    }
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

/// The value and best moves `kete solve` prints for a 3-house Oware
/// position under the split repetition rule: South's margin, and the moves.
fn cli_solve(fen: &str, db: Option<&std::path::Path>) -> (i64, Vec<String>) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kete"));
    cmd.args(["solve", "--variant", "oware", "--pits", "3", "--seeds", "4"])
        .args(["--repetition", "split", "--fen", fen, "--all-best"]);
    if let Some(db) = db {
        cmd.arg("--egtb").arg(db);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "value").unwrap();
    let best = words[at + 3..].iter().map(|w| w.to_string()).collect();
    (words[at + 1].parse().unwrap(), best)
}

#[test]
fn serve_solves_and_searches_with_an_endgame_database() {
    let dir = std::env::temp_dir().join(format!("kete-serve-egtb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Every 3-house Oware board of up to 12 seeds.
    let db = dir.join("oware3.db");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
        .args(["egtb", "build", "--variant", "oware", "--pits", "3"])
        .args(["--max-seeds", "12", "--out"])
        .arg(&db)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let s = Server::start_with(&["--egtb", db.to_str().unwrap()]);
    // 13 seeds on the board, 11 banked: the first capture reaches the
    // database. North to move.
    let fen = "2-3-1-3-2-3-5-5-N";
    let game = |rules: &str| {
        json!({"variant": "oware",
               "options": {"Pits": "3", "Seeds": "4", "Rules": rules, "Repetition": "split"},
               "start": fen, "solve_ms": 20000})
    };
    let (st, v) = s.json("POST", "/api/solve", &game("awari").to_string());
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["exact"], true, "{v}");
    assert_eq!(v["egtb"], true, "{v}");
    assert!(v["tbhits"].as_u64().unwrap() > 0, "{v}");
    assert!(v["note"].as_str().unwrap().contains("database"), "{v}");
    let (south, best) = cli_solve(fen, Some(&db));
    assert_eq!(v["side"], "north");
    assert_eq!(v["value"].as_i64().unwrap(), -south, "{v}");
    let api_best: Vec<&str> = v["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(api_best, best, "{v}");
    // Under the other rules the database does not fit: solved without it.
    let (st, v) = s.json("POST", "/api/solve", &game("abapa").to_string());
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["egtb"], false, "{v}");
    assert_eq!(v["tbhits"], 0, "{v}");
    assert!(v["note"].is_null(), "{v}");
    // Under own-side repetition its values are of another game: solved
    // without it, and the note says why.
    let mut own_side = game("awari");
    own_side["options"]["Repetition"] = json!("own-side");
    let (st, v) = s.json("POST", "/api/solve", &own_side.to_string());
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["egtb"], false, "{v}");
    assert_eq!(v["tbhits"], 0, "{v}");
    assert!(
        v["note"].as_str().unwrap().starts_with("no database: "),
        "{v}"
    );
    // The in-process search probes it too.
    let mut search = game("awari");
    search["depth"] = json!(4);
    let (st, text) = s.request("POST", "/api/search", &search.to_string());
    assert_eq!(st, 200);
    let hits: u64 = events(&text)
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, i)| i["tbhits"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(hits > 0, "{text}");
    drop(s);
    // A file that is missing or no database stops the server at start.
    for bad in [dir.join("missing.db"), std::path::PathBuf::from(file!())] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
            .args(["serve", "--port", "0", "--egtb"])
            .arg(&bad)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{err}");
        assert!(
            err.contains("cannot load the endgame database") && err.contains(bad.to_str().unwrap()),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "it never listened");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_solve_stops_when_the_page_goes_away() {
    let s = Server::start();
    // Oware 6x2 from the start: far more than the 30 s the solve is given.
    let long = json!({"variant": "oware", "options": {"Seeds": "2"}, "solve_ms": 30000});
    let left = std::time::Instant::now();
    leave_mid_way(&s, "/api/solve", &long.to_string());
    // Said once the solving thread has ended.
    let line = s
        .log_line(std::time::Duration::from_secs(20), |l| {
            l.starts_with("/api/solve: the page went away")
        })
        .expect("the solve stopped well before its 30 s");
    eprintln!("{line}, {:?} after the page left", left.elapsed());
    // The server goes on answering, solves included.
    let small =
        json!({"variant": "kalah", "options": {"Pits": "4", "Seeds": "1"}, "solve_ms": 20000});
    let (st, v) = s.json("POST", "/api/solve", &small.to_string());
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["exact"], true, "{v}");
}

#[test]
fn serve_streams_an_external_engine_and_asks_it_for_three_lines() {
    // kete itself, as a separate process speaking the protocol.
    let s = Server::start_with(&["--engine", env!("CARGO_BIN_EXE_kete")]);
    let game = json!({"variant": "oware", "moves": ["C"]});
    let mut hint = game.clone();
    hint["depth"] = json!(5);
    hint["multipv"] = json!(3);
    let (st, text) = s.request("POST", "/api/search", &hint.to_string());
    assert_eq!(st, 200);
    let events = events(&text);
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done", "{text}");
    assert_eq!(done["engine"], "kete", "{done}");
    let infos: Vec<&Value> = events
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, v)| v)
        .collect();
    assert!(
        !infos.is_empty(),
        "progress streamed before the answer: {text}"
    );
    // The shape of the in-process search's events.
    for i in &infos {
        for key in ["depth", "multipv", "score", "cp", "nodes", "ms", "pv"] {
            assert!(i.get(key).is_some(), "{key} in {i}");
        }
    }
    let (_, state) = s.json("POST", "/api/state", &game.to_string());
    let legal = legal_texts(&state);
    assert!(legal.len() >= 3);
    let lines = done["lines"].as_array().unwrap();
    let numbers: Vec<u64> = lines
        .iter()
        .map(|l| l["multipv"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3], "{done}");
    let mut firsts: Vec<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    assert_eq!(firsts[0], done["best"], "{done}");
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different moves: {done}");
    assert!(firsts.iter().all(|m| legal.contains(m)), "{done}");
    // A page that leaves stops the engine's search too.
    let mut long = game.clone();
    long["movetime_ms"] = json!(20000);
    let left = std::time::Instant::now();
    leave_mid_way(&s, "/api/search", &long.to_string());
    let line = s
        .log_line(std::time::Duration::from_secs(15), |l| {
            l.starts_with("/api/search: the page went away")
        })
        .expect("the engine's search stopped well before its 20 s");
    eprintln!("{line}, {:?} after the page left", left.elapsed());
}

#[test]
fn serve_names_games_and_options_as_a_person_reads_them() {
    let s = Server::start();
    let (_, v) = s.json("GET", "/api/variants", "");
    let games = v["variants"].as_array().unwrap();
    let titles: Vec<&str> = games.iter().map(|g| g["title"].as_str().unwrap()).collect();
    // kete's own games first, then the described ones, each with its own
    // words for its things.
    for g in &games[7..] {
        assert_eq!(g["described"], json!(true), "{g}");
        assert!(g["words"]["seeds"].is_string(), "{g}");
    }
    assert_eq!(
        titles[..7],
        [
            "Kalah",
            "Oware",
            "En Dodoi",
            "Bao la Kujifunza",
            "Bao la Kiswahili",
            "Togyz Kumalak",
            "Bestemshe"
        ]
    );
    for g in games {
        let bao = g["name"].as_str().unwrap().starts_with("bao");
        for o in g["options"].as_array().unwrap() {
            let (label, help) = (o["label"].as_str().unwrap(), o["help"].as_str().unwrap());
            // Words, none written together in the protocol's CamelCase.
            assert!(
                label
                    .split(' ')
                    .all(|w| !w.chars().skip(1).any(|c| c.is_uppercase())),
                "a plain label: {o}"
            );
            assert!(!help.is_empty(), "a line of help: {o}");
            // Bao's disputed points are its advanced rules; no other game's.
            assert_eq!(o["advanced"], json!(bao), "{o}");
            if o["kind"] == "combo" {
                assert_eq!(
                    o["labels"].as_array().unwrap().len(),
                    o["values"].as_array().unwrap().len(),
                    "{o}"
                );
            }
        }
    }
}

#[test]
fn serve_draws_the_board_with_the_library_and_marks_only_a_persons_moves() {
    let s = Server::start();
    let state = |extra: Value| {
        let mut body = json!({"variant": "kalah", "players": ["you", "kete"]});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (st, v) = s.json("POST", "/api/state", &body.to_string());
        assert_eq!(st, 200, "{v}");
        v
    };
    let v = state(json!({}));
    let svg = v["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
    assert_eq!(svg.matches(r#"<g id="cell-"#).count(), 14);
    assert_eq!(svg.matches("cell pit legal").count(), 6);
    assert!(svg.contains(">kete</text>") && svg.contains(">you</text>"));
    // South is the engine here: no move of his is marked or focusable.
    let v = state(json!({"people": [false, true]}));
    let svg = v["svg"].as_str().unwrap();
    assert_eq!(svg.matches(" legal").count(), 0);
    assert_eq!(svg.matches(r#"tabindex="0""#).count(), 0);
    // Turned, stood up, a hint.
    let v = state(json!({"flipped": true, "portrait": true, "hint": 3}));
    let svg = v["svg"].as_str().unwrap();
    assert!(svg.contains(r#"class="kete-board portrait""#));
    assert!(svg.contains(r#"data-flipped="true""#));
    assert_eq!(svg.matches("mark-hint").count(), 1);
}

#[test]
fn serve_tells_the_last_turn_and_offers_bao_directions_as_arrows() {
    let s = Server::start();
    // South's C ends in his store, F then passes the turn: one turn of two.
    let (_, v) = s.json(
        "POST",
        "/api/state",
        &json!({"variant": "kalah", "moves": ["C", "F"]}).to_string(),
    );
    let turn = &v["last_turn"];
    assert_eq!(turn["moves"], json!(["C", "F"]));
    assert_eq!(turn["side"], json!("south"));
    assert_eq!(turn["started"], json!([2, 5]));
    assert_eq!(turn["ended"][0], json!(12), "C's last seed in the store");
    assert_eq!(v["movers"], json!(["south", "south"]));
    assert!(turn["notes"][0].as_str().unwrap().contains("another turn"));
    // Each sowing with its own notes: C's another turn is C's, not F's.
    assert_eq!(turn["each"][0]["move"], json!("C"));
    assert!(
        turn["each"][0]["notes"][0]
            .as_str()
            .unwrap()
            .contains("another turn")
    );
    assert_eq!(turn["each"][1]["move"], json!("F"));
    assert!(
        !turn["each"][1]["notes"]
            .to_string()
            .contains("another turn")
    );
    // Bao la Kiswahili's start: A6 and A7 each sow either way; an arrow for
    // each way, pointing at the first pit sown.
    let (_, v) = s.json(
        "POST",
        "/api/state",
        &json!({"variant": "bao-kiswahili"}).to_string(),
    );
    let arrows: Vec<(u64, u64, String)> = v["arrows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["from"].as_u64().unwrap(),
                a["to"].as_u64().unwrap(),
                a["moves"][0].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        arrows,
        [
            (5, 6, "A6>".to_string()),
            (5, 4, "A6<".to_string()),
            (6, 7, "A7>".to_string()),
            (6, 5, "A7<".to_string())
        ]
    );
    assert_eq!(
        v["svg"]
            .as_str()
            .unwrap()
            .matches(r#"<g class="arrow""#)
            .count(),
        4
    );
    // The namua placement is marked at its pit, not at the hand.
    let (_, v) = s.json(
        "POST",
        "/api/state",
        &json!({"variant": "bao-kiswahili", "moves": ["A6>"]}).to_string(),
    );
    assert_eq!(v["last_turn"]["started"], json!([5]));
    // A capture's ways say how many seeds it takes (the browser test's
    // safari position: A5 takes a5's 1 seed, sown on from a kichwa); a plain
    // move takes none.
    let token = "1,1,0,0,0,0,0,0/0,1,0,7,1,1,0,0/0,0,0,0,6,0,1,2/0,0,0,0,0,1,2,0-20-20-OO-S-x-0";
    let (_, v) = s.json(
        "POST",
        "/api/state",
        &json!({"variant": "bao-kiswahili", "start": token}).to_string(),
    );
    let a5: Vec<&Value> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["text"].as_str().unwrap().starts_with("A5"))
        .collect();
    assert!(a5.len() >= 2, "{v}");
    for m in a5 {
        assert_eq!(m["captures"], json!(1), "{m}");
    }
    let (_, v) = s.json(
        "POST",
        "/api/state",
        &json!({"variant": "bao-kiswahili"}).to_string(),
    );
    assert!(
        v["legal"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["captures"].is_null())
    );
}

#[test]
fn serve_says_the_result_in_words() {
    let s = Server::start();
    let body = json!({"variant": "kalah", "start": "0-0-0-0-0-1-1-0-0-0-0-0-24-22-S",
                      "moves": ["F"], "players": ["you", "kete"]});
    let (_, v) = s.json("POST", "/api/state", &body.to_string());
    assert_eq!(
        v["outcome"]["words"],
        json!(
            "South (you) wins 25\u{2013}23 \u{2014} a row is empty and each player took the seeds on his side"
        )
    );
    assert_eq!(v["outcome"]["winner"], json!("south"));
    // The picture marks no side to move once the game is over.
    assert!(v["svg"].as_str().unwrap().contains("board, game over"));
}

#[test]
fn serve_gives_evaluations_in_seeds_from_a_fixed_side() {
    let s = Server::start();
    for moves in [json!([]), json!(["A"])] {
        let body = json!({"variant": "kalah", "moves": moves, "depth": 6});
        let (st, text) = s.request("POST", "/api/search", &body.to_string());
        assert_eq!(st, 200);
        let (_, done) = events(&text).pop().unwrap();
        let cp = done["cp"].as_i64().unwrap();
        let south = done["eval"]["south"].as_i64().unwrap();
        // From the side to move's view in `cp`, from South's in `eval`.
        let to_move_is_south = moves.as_array().unwrap().is_empty();
        assert_eq!(south, if to_move_is_south { cp } else { -cp }, "{done}");
        let text = done["eval"]["text"].as_str().unwrap();
        let ahead = if south > 0 { "South" } else { "North" };
        assert!(
            text == "level" || (text.starts_with('+') && text.ends_with(&format!("for {ahead}"))),
            "{text} for {south}"
        );
    }
    // The last move of a won game: its exact margin, for South.
    let body = json!({"variant": "kalah", "start": "0-0-0-0-0-1-1-0-0-0-0-0-24-22-S", "depth": 4});
    let (_, text) = s.request("POST", "/api/search", &body.to_string());
    let (_, done) = events(&text).pop().unwrap();
    assert_eq!(done["eval"]["text"], json!("+2 seeds for South"), "{done}");
}

#[test]
fn serve_refuses_a_typed_letter_of_the_other_side() {
    let s = Server::start();
    let body = json!({"variant": "kalah", "move": "a", "typed": true});
    let (st, v) = s.json("POST", "/api/move", &body.to_string());
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("North's pit"), "{v}");
    // A text that is no move is named once, not twice.
    let body = json!({"variant": "kalah", "move": "hello", "typed": true});
    let (st, v) = s.json("POST", "/api/move", &body.to_string());
    assert_eq!(st, 400);
    assert_eq!(
        v["error"].as_str().unwrap().matches("'hello'").count(),
        1,
        "{v}"
    );
    // Untyped (a click's text), the case is not held against it.
    let body = json!({"variant": "kalah", "move": "A", "typed": true});
    let (st, _) = s.json("POST", "/api/move", &body.to_string());
    assert_eq!(st, 200);
}

/// One request written as given; the whole answer, head included.
fn raw(addr: &str, text: &str) -> String {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.write_all(text.as_bytes()).unwrap();
    let mut out = String::new();
    let _ = c.read_to_string(&mut out);
    out
}

#[test]
fn serve_bounds_the_searches_at_once_and_asks_the_rest_to_come_back() {
    let s = Server::start_with(&["--jobs", "1", "--queue", "1"]);
    let search = json!({"variant": "kalah", "movetime_ms": 1500}).to_string();
    let post = format!(
        "POST /api/search HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{search}",
        search.len()
    );
    // One runs, one waits; the third is told to come back.
    let running: Vec<_> = (0..2)
        .map(|_| {
            let (addr, post) = (s.addr.clone(), post.clone());
            let t = std::thread::spawn(move || raw(&addr, &post));
            std::thread::sleep(std::time::Duration::from_millis(300));
            t
        })
        .collect();
    let busy = raw(&s.addr, &post);
    assert!(busy.starts_with("HTTP/1.1 503"), "{busy}");
    assert!(busy.contains("Retry-After: 2"), "{busy}");
    assert!(busy.contains("busy"), "{busy}");
    // Pages and moves are not held up meanwhile.
    let t = std::time::Instant::now();
    let (st, _) = s.json("GET", "/api/variants", "");
    assert_eq!(st, 200);
    assert!(t.elapsed() < std::time::Duration::from_secs(1));
    for r in running {
        let answer = r.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains("event: done"), "{answer}");
    }
}

#[test]
fn serve_drops_a_request_whose_head_never_comes() {
    use std::io::{Read, Write};
    let s = Server::start_with(&["--head-timeout", "1"]);
    let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
    c.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let t = std::time::Instant::now();
    let mut out = String::new();
    let _ = c.read_to_string(&mut out);
    assert!(out.starts_with("HTTP/1.1 408"), "{out}");
    assert!(t.elapsed() < std::time::Duration::from_secs(3));
}

#[test]
fn serve_makes_room_past_its_connection_cap_for_requests_that_come_whole() {
    use std::io::Write;
    let s = Server::start_with(&["--connections", "8"]);
    // Thirty connections that start a request and never finish it.
    let idle: Vec<std::net::TcpStream> = (0..30)
        .map(|_| {
            let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
            c.write_all(b"GET / HTTP/1.1\r\n").unwrap();
            c
        })
        .collect();
    for _ in 0..5 {
        let t = std::time::Instant::now();
        let (st, _) = s.json("GET", "/api/variants", "");
        assert_eq!(st, 200);
        assert!(t.elapsed() < std::time::Duration::from_secs(1));
    }
    drop(idle);
}

/// The server's threads, from /proc (Linux).
fn threads(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("Threads:"))?;
    line["Threads:".len()..].trim().parse().ok()
}

#[test]
fn serve_keeps_no_more_threads_than_places_while_it_drops_connections() {
    use std::io::Write;
    let s = Server::start_with(&["--connections", "8", "--jobs", "1"]);
    if threads(s.pid()).is_none() {
        return;
    }
    // Two hundred connections that start a request and never finish it:
    // each past the eighth drops the oldest, whose thread must have ended
    // before the newcomer's starts.
    let mut most = 0;
    let mut idle = Vec::new();
    for _ in 0..200 {
        let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
        c.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        idle.push(c);
        most = most.max(threads(s.pid()).unwrap_or(0));
    }
    // A place for each connection and the thread that accepts them.
    assert!(most <= 8 + 1, "{most} threads for 8 places");
    let (st, _) = s.json("GET", "/api/variants", "");
    assert_eq!(st, 200);
}

#[test]
fn a_solve_stays_within_the_servers_memory() {
    // Oware 4x3's positions repeat: the solver would build their graph
    // (4 million positions, several hundred MB) besides its table. A job's
    // share of --memory must hold both.
    let s = Server::start_with(&["--memory", "64", "--jobs", "1"]);
    let body =
        r#"{"variant":"oware","options":{"Pits":"4","Seeds":"3"},"moves":[],"solve_ms":3000}"#;
    let (st, v) = s.json("POST", "/api/solve", body);
    assert_eq!(st, 200, "{v}");
    assert!(v["best"].as_array().is_some_and(|b| !b.is_empty()), "{v}");
    if let Some(peak) = s.peak_mib() {
        // The binary, threads and buffers: well under 64 MB more.
        assert!(
            peak <= 64 + 64,
            "peak resident memory {peak} MiB with --memory 64"
        );
    }
}
