//! The board in a real headless browser: Debian's Chromium driven through
//! its chromedriver's WebDriver HTTP API (plain requests, no client crate).
//! Skipped, saying so, where /usr/bin/chromium or /usr/bin/chromedriver is
//! missing: `apt-get install chromium chromium-driver`, then
//! `cargo test --release --test browser -- --nocapture`.
//! Screenshots go to target/browser/.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;
use common::http::{Server, request};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

struct Driver {
    child: std::process::Child,
    addr: String,
    session: String,
    _profile: TempDir,
}

struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = request(
            &self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            "",
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn start() -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr = format!("127.0.0.1:{port}");
        let t = Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "chromedriver never listened"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = std::env::temp_dir().join(format!("kete-browser-{}", std::process::id()));
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                     format!("--user-data-dir={}", profile.display())]
        }}}});
        let (st, body) = request(&addr, "POST", "/session", &caps.to_string());
        assert_eq!(st, 200, "new session: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let session = v["value"]["sessionId"].as_str().unwrap().to_string();
        Driver {
            child,
            addr,
            session,
            _profile: TempDir(profile),
        }
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let (st, text) = request(&self.addr, method, &path, &body.to_string());
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(st, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn script(&self, js: &str) -> Value {
        self.call("POST", "/execute/sync", json!({"script": js, "args": []}))
    }

    fn click(&self, css: &str) {
        let e = self.call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        let id = e[ELEMENT].as_str().unwrap().to_string();
        self.call("POST", &format!("/element/{id}/click"), json!({}));
    }

    fn wait(&self, what: &str, js: &str, limit: Duration) -> Value {
        let t = Instant::now();
        loop {
            let v = self.script(js);
            if !v.is_null() && v != json!(false) {
                return v;
            }
            assert!(t.elapsed() < limit, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    fn screenshot(&self, name: &str) {
        let b64 = self.call("GET", "/screenshot", json!({}));
        let png = base64(b64.as_str().unwrap());
        assert_eq!(&png[1..4], b"PNG");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    } as u32;
    let clean: Vec<u8> = text.bytes().filter(|&c| c != b'=' && c != b'\n').collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= value(c) << (18 - 6 * i);
        }
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// The seeds the page shows, cell by cell.
const PAGE_SEEDS: &str = "return [...document.querySelectorAll('#board g.cell')]\
    .map(g => parseInt(g.getAttribute('data-seeds')));";

/// Checks that the board in the page is the engine's position for the moves
/// the page lists; returns the state.
fn check_board(d: &Driver, s: &Server, game: Value) -> Value {
    let moves = d.script("return document.getElementById('movesline').value;");
    let moves: Vec<&str> = moves.as_str().unwrap().split_whitespace().collect();
    let mut req = game.as_object().unwrap().clone();
    req.insert("moves".into(), json!(moves));
    let (st, state) = s.json("POST", "/api/state", &Value::Object(req).to_string());
    assert_eq!(st, 200);
    let want: Vec<u64> = state["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["seeds"].as_u64().unwrap())
        .collect();
    // The page redraws after its own request to the server: on a loaded
    // machine that can come a moment after the click returned, so wait for
    // it (bounded) before comparing.
    let shown = || -> Vec<u64> {
        d.script(PAGE_SEEDS)
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect()
    };
    let waited = std::time::Instant::now();
    let mut seen = shown();
    while seen != want && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
        seen = shown();
    }
    assert_eq!(seen, want, "page board after {moves:?}");
    let token = d.script("return document.getElementById('token').value;");
    assert_eq!(token, state["token"]);
    state
}

/// The status text once South (the human) can click, or the game is over.
const IDLE: &str = "const st = document.getElementById('status');\
    if (st.getAttribute('data-over')) return st.textContent;\
    if (st.textContent.startsWith('South') && document.querySelector('#board g.legal')) return st.textContent;\
    return null;";

#[test]
fn browser_plays_kalah_against_the_engine_and_shows_every_board() {
    if !Path::new(CHROMIUM).exists() || !Path::new(DRIVER).exists() {
        eprintln!(
            "SKIPPED: the browser test needs {CHROMIUM} and {DRIVER} \
             (apt-get install chromium chromium-driver; then cargo test --release --test browser)"
        );
        return;
    }
    let games = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tournaments/endodoi-depth6-vs-depth4/games.jsonl"
    );
    let s = Server::start_with(&["--games", games]);
    let d = Driver::start();
    let t = Instant::now();
    d.call("POST", "/url", json!({"url": s.url("/")}));
    d.wait(
        "the page",
        "return document.body.getAttribute('data-ready') === '1' && document.querySelectorAll('#board g.cell').length;",
        Duration::from_secs(20),
    );
    let load = t.elapsed();
    eprintln!("page load: {} ms", load.as_millis());
    let kalah =
        json!({"variant": "kalah", "options": {"Pits": "6", "Seeds": "4", "Capture": "standard"}});
    check_board(&d, &s, kalah.clone());
    d.screenshot("kalah");

    // A hint: the highlighted move is legal.
    d.click("#hint");
    let hint = d.wait(
        "a hint",
        "return document.getElementById('search').getAttribute('data-hint');",
        Duration::from_secs(20),
    );
    let state = check_board(&d, &s, kalah.clone());
    let legal: Vec<&str> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert!(legal.contains(&hint.as_str().unwrap()), "hint {hint}");
    assert_eq!(
        d.script("return document.querySelectorAll('#board g.hint.legal').length;"),
        json!(1)
    );

    // The first click at 1 s a move: time from the click to the engine's reply.
    d.script("document.getElementById('strength').value = '1000';");
    let first = d.script("return document.querySelector('#board g.legal').id;");
    let t = Instant::now();
    d.click(&format!("#{}", first.as_str().unwrap()));
    d.wait("the engine's reply", "return [...document.querySelectorAll('#movelist li')].length >= 2 && document.getElementById('status').textContent.startsWith('South');", Duration::from_secs(30));
    eprintln!(
        "click to engine reply at 1 s a move: {} ms",
        t.elapsed().as_millis()
    );
    check_board(&d, &s, kalah.clone());

    // The rest of the game, quickly: clicks on the first legal pit.
    d.script("document.getElementById('strength').value = '30'; document.getElementById('animate').checked = false;");
    let mut clicks = 1;
    loop {
        let status = d.wait("South's turn or the end", IDLE, Duration::from_secs(30));
        check_board(&d, &s, kalah.clone());
        if status.as_str().unwrap().starts_with("Game over") {
            eprintln!("{} after {clicks} clicks", status.as_str().unwrap());
            break;
        }
        let id = d.script("return document.querySelector('#board g.legal').id;");
        let before = d.script(PAGE_SEEDS);
        d.click(&format!("#{}", id.as_str().unwrap()));
        clicks += 1;
        d.wait(
            "the board to change",
            &format!(
                "return JSON.stringify({}) !== JSON.stringify((function(){{{PAGE_SEEDS}}})());",
                before
            ),
            Duration::from_secs(30),
        );
        assert!(clicks < 200, "the game does not end");
    }
    d.screenshot("kalah-end");

    // Every game's board; Bao la Kiswahili moves that need a choice.
    for (variant, file) in [
        ("oware", "oware"),
        ("endodoi", "endodoi"),
        ("bao-kujifunza", "bao-kujifunza"),
        ("bao-kiswahili", "bao-kiswahili"),
    ] {
        d.script(&format!(
            "const v = document.getElementById('variant'); v.value = '{variant}'; v.dispatchEvent(new Event('change'));\
             document.getElementById('north').value = 'human';"
        ));
        d.click("#new");
        d.wait("the new board", &format!("return document.getElementById('token').value !== '' && document.querySelectorAll('#board g.cell').length === {};",
            if variant.starts_with("bao") { 34 } else { 14 }), Duration::from_secs(20));
        let game = json!({"variant": variant});
        check_board(&d, &s, game.clone());
        d.screenshot(file);
        if variant == "bao-kiswahili" {
            // Three moves by clicking; where a pit has several moves the page
            // offers their texts (direction, stop or safari) and one is clicked.
            let mut choices = 0;
            for _ in 0..3 {
                let id = d.script("const c = [...document.querySelectorAll('#board g.legal')]; return c[c.length - 1].id;");
                let before = d.script(PAGE_SEEDS);
                d.click(&format!("#{}", id.as_str().unwrap()));
                let n = d.script("return document.querySelectorAll('#choices button').length;");
                if n.as_u64().unwrap() > 1 {
                    choices += 1;
                    d.screenshot("bao-kiswahili-choice");
                    d.click("#choices button:last-child");
                }
                d.wait("the Bao board to change", &format!("return !document.querySelector('#choices button') && JSON.stringify({}) !== JSON.stringify((function(){{{PAGE_SEEDS}}})()) && document.querySelector('#board g.legal');", before), Duration::from_secs(30));
                check_board(&d, &s, game.clone());
            }
            assert!(choices > 0, "no Bao move needed a choice");
            d.screenshot("bao-kiswahili-played");
        }
    }

    // A replay of a kete-arena game given with --games: choose it, step to
    // its end through the move list, compare the board at every few moves.
    d.script(
        "const g = document.getElementById('gamelist'); g.value = '0'; g.dispatchEvent(new Event('change'));",
    );
    let n = d.wait(
        "the replayed game",
        "const n = document.querySelectorAll('#movelist li').length; return n > 0 ? n : null;",
        Duration::from_secs(20),
    );
    let n = n.as_u64().unwrap();
    let noted = d.script(
        "return [...document.querySelectorAll('#movelist li')].some(li => /cp -?[0-9]+ d[0-9]+/.test(li.textContent));",
    );
    assert_eq!(
        noted,
        json!(true),
        "score and depth beside the engines' moves"
    );
    let record: Value = serde_json::from_str(
        std::fs::read_to_string(games)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let replay = json!({"variant": record["variant"], "options": record["options"], "start": record["opening"]["fen"]});
    for k in (1..=n).step_by(7).chain([n]) {
        d.script(&format!(
            "document.querySelectorAll('#movelist li')[{}].click();",
            k - 1
        ));
        d.wait("the replay to step", &format!("return document.getElementById('movesline').value.split(' ').filter(x => x).length === {k};"), Duration::from_secs(20));
        check_board(&d, &s, replay.clone());
    }
    let status = d.script("return document.getElementById('status').getAttribute('data-over');");
    assert_eq!(status, record["result"]);
    d.screenshot("replay");
}
