//! The board in a real headless browser: Debian's Chromium driven through
//! its chromedriver by the WebDriver client crate fantoccini (on a
//! one-thread tokio runtime: the test itself stays synchronous). Skipped,
//! saying so, where /usr/bin/chromium or /usr/bin/chromedriver is missing:
//! `apt-get install chromium chromium-driver`, then
//! `cargo test --release --test browser -- --nocapture`.
//! Screenshots go to target/browser/.
//!
//! After every move the page's board is compared with the server's state and
//! with a separate kete engine's `query fen` for the page's moves.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

mod common;
use common::engine::EngineProcess;
use common::http::{Server, legal_texts};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

struct Driver {
    rt: tokio::runtime::Runtime,
    client: Option<Client>,
    child: Child,
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
        if let Some(client) = self.client.take() {
            let _ = self.rt.block_on(client.close());
        }
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
        let child = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
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
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                         format!("--user-data-dir={}", profile.display())]
            }),
        );
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let client = rt
            .block_on(
                ClientBuilder::new(HttpConnector::new())
                    .capabilities(caps)
                    .connect(&format!("http://{addr}")),
            )
            .expect("a WebDriver session");
        Driver {
            rt,
            client: Some(client),
            child,
            _profile: TempDir(profile),
        }
    }

    fn client(&self) -> &Client {
        self.client.as_ref().expect("the session is open")
    }

    fn goto(&self, url: &str) {
        self.rt
            .block_on(self.client().goto(url))
            .unwrap_or_else(|e| panic!("open {url}: {e}"));
    }

    fn script(&self, js: &str) -> Value {
        self.rt
            .block_on(self.client().execute(js, Vec::new()))
            .unwrap_or_else(|e| panic!("script {js}: {e}"))
    }

    fn click(&self, css: &str) {
        self.rt
            .block_on(async { self.client().find(Locator::Css(css)).await?.click().await })
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    fn wait(&self, what: &str, js: &str, limit: Duration) -> Value {
        let t = Instant::now();
        loop {
            let v = self.script(js);
            if !v.is_null() && v != json!(false) {
                return v;
            }
            if t.elapsed() >= limit {
                let page = self.script(
                    "return ['token', 'movesline', 'error', 'status'].map(id => id + ': ' + (document.getElementById(id).value ?? document.getElementById(id).textContent));",
                );
                panic!("timed out waiting for {what}; the page shows {page}");
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    fn screenshot(&self, name: &str) {
        let png = self
            .rt
            .block_on(self.client().screenshot())
            .expect("a screenshot");
        assert_eq!(&png[1..4], b"PNG");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

/// The engine's `query fen` after the game's variant, options, start and
/// moves (`game` as the API takes it), from a kete engine of its own: what
/// the page shows must be what the engine has.
fn engine_fen(e: &mut EngineProcess, game: &Value, moves: &[&str]) -> String {
    e.send(&format!(
        "setoption name Variant value {}",
        game["variant"].as_str().unwrap()
    ));
    if let Some(options) = game["options"].as_object() {
        for (k, v) in options {
            e.send(&format!("setoption name {k} value {}", v.as_str().unwrap()));
        }
    }
    let start = match game["start"].as_str() {
        Some(token) => format!("fen {token}"),
        None => "startpos".into(),
    };
    let moves = if moves.is_empty() {
        String::new()
    } else {
        format!(" moves {}", moves.join(" "))
    };
    e.send(&format!("position {start}{moves}"));
    e.send("query fen");
    let line = e.wait_for(Duration::from_secs(10), "response", |l| {
        assert!(!l.starts_with("info string error"), "kete: {l}");
        l.starts_with("response ")
    });
    line["response ".len()..].to_string()
}

/// The seeds the page shows, cell by cell.
const PAGE_SEEDS: &str = "return [...document.querySelectorAll('#board g.cell')]\
    .map(g => parseInt(g.getAttribute('data-seeds')));";

/// Checks that the board in the page is the engine's position for the moves
/// the page lists; returns the state.
fn check_board(d: &Driver, s: &Server, e: &mut EngineProcess, game: Value) -> Value {
    let moves = d.script("return document.getElementById('movesline').value;");
    let moves: Vec<&str> = moves.as_str().unwrap().split_whitespace().collect();
    let mut req = game.as_object().unwrap().clone();
    req.insert("moves".into(), json!(moves));
    let (st, state) = s.json("POST", "/api/state", &Value::Object(req).to_string());
    assert_eq!(st, 200, "/api/state for {game} after {moves:?}: {state}");
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
    assert_eq!(
        token.as_str().unwrap(),
        engine_fen(e, &game, &moves),
        "the page's position and the engine's query fen after {moves:?}"
    );
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
    let mut e = EngineProcess::start();
    e.send("ugi");
    e.wait_for(Duration::from_secs(10), "ugiok", |l| l == "ugiok");
    let t = Instant::now();
    d.goto(&s.url("/"));
    d.wait(
        "the page",
        "return document.body.getAttribute('data-ready') === '1' && document.querySelectorAll('#board g.cell').length;",
        Duration::from_secs(20),
    );
    let load = t.elapsed();
    eprintln!("page load: {} ms", load.as_millis());
    let kalah =
        json!({"variant": "kalah", "options": {"Pits": "6", "Seeds": "4", "Capture": "standard"}});
    check_board(&d, &s, &mut e, kalah.clone());
    d.screenshot("kalah");

    // A hint: the highlighted move is legal.
    d.click("#hint");
    let hint = d.wait(
        "a hint",
        "return document.getElementById('search').getAttribute('data-hint');",
        Duration::from_secs(20),
    );
    let state = check_board(&d, &s, &mut e, kalah.clone());
    let legal = legal_texts(&state);
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
    check_board(&d, &s, &mut e, kalah.clone());

    // The rest of the game, quickly: clicks on the first legal pit.
    d.script("document.getElementById('strength').value = '30'; document.getElementById('animate').checked = false;");
    let mut clicks = 1;
    loop {
        let status = d.wait("South's turn or the end", IDLE, Duration::from_secs(30));
        check_board(&d, &s, &mut e, kalah.clone());
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
        // Wait for the new game's own board: the old one may have as many
        // cells (Kalah and Oware) and even the same token (Oware and En
        // Dodoi start alike), so the token is cleared here and the page's
        // redraw of the new game fills it again.
        d.script("document.getElementById('token').value = '';");
        d.click("#new");
        d.wait("the new board", &format!("return document.getElementById('token').value !== '' && document.getElementById('movesline').value === '' && document.querySelectorAll('#board g.cell').length === {};",
            if variant.starts_with("bao") { 34 } else { 14 }), Duration::from_secs(20));
        let game = json!({"variant": variant});
        check_board(&d, &s, &mut e, game.clone());
        d.screenshot(file);
        if variant == "oware" {
            // The solve button on the 6x4 start, which no solve ends in the
            // page's 10 s: the text says so and gives the bounds proved.
            d.click("#solve");
            let text = d.wait(
                "the solve's answer",
                "const t = document.getElementById('search').textContent; return t.startsWith('solving') ? null : t;",
                Duration::from_secs(40),
            );
            let text = text.as_str().unwrap();
            let rest = text
                .strip_prefix("not solved within 10 s: proved between ")
                .unwrap_or_else(|| panic!("{text}"));
            let words: Vec<&str> = rest.split_whitespace().collect();
            let (lo, hi): (i32, i32) = (words[0].parse().unwrap(), words[2].parse().unwrap());
            assert!(-48 <= lo && lo <= hi && hi <= 48, "{text}");
            assert!(
                rest.contains("seeds for South (to move); estimate "),
                "{text}"
            );
            // A pasted move list, played from the start; then one with an
            // illegal move, which the page refuses with the server's reason.
            d.script("document.getElementById('startmoves').value = 'C d B';");
            d.click("#new");
            d.wait(
                "the pasted moves",
                "return document.getElementById('movesline').value === 'C d B' && document.querySelectorAll('#movelist li').length === 3;",
                Duration::from_secs(20),
            );
            check_board(&d, &s, &mut e, game.clone());
            d.script("document.getElementById('startmoves').value = 'C q';");
            d.click("#new");
            let error = d.wait(
                "the refusal",
                "const t = document.getElementById('error').textContent; return t ? t : null;",
                Duration::from_secs(20),
            );
            assert!(error.as_str().unwrap().contains('q'), "error: {error}");
            assert_eq!(
                d.script("return document.getElementById('movesline').value;"),
                json!("")
            );
            check_board(&d, &s, &mut e, game.clone());
            d.script("document.getElementById('startmoves').value = '';");
        }
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
                check_board(&d, &s, &mut e, game.clone());
            }
            assert!(choices > 0, "no Bao move needed a choice");
            d.screenshot("bao-kiswahili-played");

            // A safari choice: South's A5 after `A7> a7> A6> a8<` (a random
            // game's), pasted as the start position, may stop at the nyumba
            // or go on (`A5>+`). The page offers all three moves of the pit.
            let token =
                "1,1,0,0,0,0,0,0/0,1,0,7,1,1,0,0/0,0,0,0,6,0,1,2/0,0,0,0,0,1,2,0-20-20-OO-S-x-0";
            d.script(&format!(
                "document.getElementById('starttoken').value = '{token}';"
            ));
            d.click("#new");
            d.wait(
                "the pasted position",
                &format!("return document.getElementById('token').value === '{token}';"),
                Duration::from_secs(20),
            );
            let pasted = json!({"variant": variant, "start": token});
            check_board(&d, &s, &mut e, pasted.clone());
            d.click("#board g.legal[data-name='A5']");
            let offered = d.wait(
                "the choices of A5",
                "const b = [...document.querySelectorAll('#choices button')].map(b => b.textContent); return b.length ? b : null;",
                Duration::from_secs(20),
            );
            let offered: Vec<&str> = offered
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert_eq!(offered, ["A5<", "A5>", "A5>+"], "the moves of A5");
            d.screenshot("bao-kiswahili-safari");
            d.click("#choices button:last-child");
            d.wait(
                "the safari move",
                "return document.getElementById('movesline').value === 'A5>+' && !document.querySelector('#choices button');",
                Duration::from_secs(30),
            );
            let state = check_board(&d, &s, &mut e, pasted);
            assert_ne!(state["token"], json!(token), "A5>+ was played");
            d.script("document.getElementById('starttoken').value = '';");
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
        check_board(&d, &s, &mut e, replay.clone());
    }
    let status = d.script("return document.getElementById('status').getAttribute('data-over');");
    assert_eq!(status, record["result"]);
    d.screenshot("replay");
}
