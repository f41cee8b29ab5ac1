//! The browser the tests drive (Chromium through its chromedriver, by
//! fantoccini) and what they share: opening the page, waiting for it,
//! comparing its board with the server's and an engine's.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

use super::common::engine::EngineProcess;
use super::common::http::Server;

pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
pub(crate) const DRIVER: &str = "/usr/bin/chromedriver";

/// One browser at a time: the machine has few cores.
pub(crate) static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// WebDriver's keys.
pub(crate) const TAB: &str = "\u{E004}";
pub(crate) const ENTER: &str = "\u{E007}";
pub(crate) const LEFT: &str = "\u{E012}";
pub(crate) const RIGHT: &str = "\u{E014}";

pub(crate) struct Driver {
    rt: tokio::runtime::Runtime,
    client: Option<Client>,
    child: Child,
    _profile: TempDir,
}

pub(crate) struct TempDir(std::path::PathBuf);

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

/// Whether the browser is here; says so when it is not.
pub(crate) fn browser_here() -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(DRIVER).exists() {
        return true;
    }
    eprintln!(
        "SKIPPED: the browser test needs {CHROMIUM} and {DRIVER} \
         (apt-get install chromium chromium-driver; then cargo test --release --test browser)"
    );
    false
}

impl Driver {
    /// A desktop browser whose window is `width` × `height` pixels.
    pub(crate) fn start(width: u32, height: u32) -> Driver {
        Driver::launch(width, height, false)
    }

    /// A phone's screen, `width` × `height` CSS pixels at two device pixels
    /// each, touch included (Chromium's mobile emulation: a headless
    /// window is never narrower than 500 pixels).
    pub(crate) fn phone(width: u32, height: u32) -> Driver {
        Driver::launch(width, height, true)
    }

    pub(crate) fn launch(width: u32, height: u32, phone: bool) -> Driver {
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
        let profile =
            std::env::temp_dir().join(format!("kete-browser-{}-{}", std::process::id(), port));
        let mut caps = serde_json::Map::new();
        let mut options = json!({
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--no-first-run", "--hide-scrollbars",
                     format!("--window-size={},{}", width.max(500), height),
                     format!("--user-data-dir={}", profile.display())]
        });
        if phone {
            options["mobileEmulation"] = json!({
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "touch": true, "mobile": true}
            });
        }
        caps.insert("goog:chromeOptions".into(), options);
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

    pub(crate) fn client(&self) -> &Client {
        self.client.as_ref().expect("the session is open")
    }

    pub(crate) fn goto(&self, url: &str) {
        self.rt
            .block_on(self.client().goto(url))
            .unwrap_or_else(|e| panic!("open {url}: {e}"));
    }

    pub(crate) fn script(&self, js: &str) -> Value {
        self.rt
            .block_on(self.client().execute(js, Vec::new()))
            .unwrap_or_else(|e| panic!("script {js}: {e}"))
    }

    pub(crate) fn click(&self, css: &str) {
        // The board is drawn again whenever the page refreshes: an element
        // found just before that is gone by the time it is clicked. Find it
        // again then (a few times), as a person would click the new one.
        for attempt in 0.. {
            let r = self
                .rt
                .block_on(async { self.client().find(Locator::Css(css)).await?.click().await });
            match r {
                Ok(()) => return,
                Err(e) if attempt < 5 && e.to_string().contains("stale element") => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
    }

    /// Keys typed into whatever has the focus.
    pub(crate) fn keys(&self, keys: &str) {
        self.rt
            .block_on(async { self.client().active_element().await?.send_keys(keys).await })
            .unwrap_or_else(|e| panic!("keys {keys:?}: {e}"));
    }

    pub(crate) fn wait(&self, what: &str, js: &str, limit: Duration) -> Value {
        let t = Instant::now();
        loop {
            let v = self.script(js);
            if !v.is_null() && v != json!(false) {
                return v;
            }
            if t.elapsed() >= limit {
                let page = self.script(
                    "return ['token', 'movesline', 'error', 'statustext', 'moveerror', 'note'].map(id => id + ': ' + (document.getElementById(id).value ?? document.getElementById(id).textContent));",
                );
                panic!("timed out waiting for {what}; the page shows {page}");
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// A screenshot of the page's top.
    pub(crate) fn screenshot(&self, name: &str) {
        self.script("window.scrollTo(0, 0);");
        let png = self
            .rt
            .block_on(self.client().screenshot())
            .expect("a screenshot");
        assert_eq!(&png[1..4], b"PNG");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    /// A picture of the board alone (`target/browser/board-NAME.png`), as
    /// docs/board/ keeps one of each game.
    pub(crate) fn board_shot(&self, name: &str) {
        let png = self
            .rt
            .block_on(async {
                let board = self.client().find(Locator::Css("#board")).await?;
                board.screenshot().await
            })
            .expect("a screenshot of the board");
        assert_eq!(&png[1..4], b"PNG");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("board-{name}.png")), png).unwrap();
    }

    /// Opens the page and waits for its first board.
    pub(crate) fn open(&self, s: &Server) {
        self.goto(&s.url("/"));
        self.wait(
            "the page",
            "return document.body.getAttribute('data-ready') === '1' && document.querySelectorAll('#board g.cell').length;",
            Duration::from_secs(30),
        );
    }

    /// Sets who plays South and North (`human` or `engine`).
    pub(crate) fn players(&self, south: &str, north: &str) {
        self.script(&format!(
            "for (const [id, v] of [['south', '{south}'], ['north', '{north}']]) {{\
               const s = document.getElementById(id); s.value = v; s.dispatchEvent(new Event('change')); }}"
        ));
    }

    /// The engine's strength: milliseconds a move, animation on or off.
    pub(crate) fn engine_ms(&self, ms: u32, animate: bool) {
        self.script(&format!(
            "document.getElementById('limit').value = 'time'; document.getElementById('strength').value = '{ms}';\
             document.getElementById('animate').checked = {animate};"
        ));
    }

    /// Chooses a game in the menu (which starts it, after saying yes to
    /// the page's question when a game is in progress) and waits for its
    /// board.
    pub(crate) fn game(&self, variant: &str) {
        self.script("document.getElementById('token').value = '';");
        self.script(&format!(
            "const v = document.getElementById('variant'); v.value = '{variant}'; v.dispatchEvent(new Event('change'));"
        ));
        self.script(
            "const c = document.getElementById('confirm'); if (c && !c.hidden) document.getElementById('confirmyes').click();",
        );
        self.wait(
            "the new board",
            &format!(
                "return document.getElementById('token').value !== '' && document.getElementById('movesline').value === '' \
                 && document.querySelectorAll('#board g.cell').length === {};",
                cells_of(variant)
            ),
            Duration::from_secs(20),
        );
    }

    /// Clicks "Start from these", saying yes to the page's question when a
    /// game is in progress.
    pub(crate) fn start_pasted(&self) {
        self.click("#start");
        self.script(
            "const c = document.getElementById('confirm'); if (c && !c.hidden) document.getElementById('confirmyes').click();",
        );
    }

    pub(crate) fn state(&self) -> String {
        self.script("return document.getElementById('status').dataset.state;")
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    pub(crate) fn moves(&self) -> String {
        self.script("return document.getElementById('movesline').value;")
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Clicks the first playable pit and waits until the move is in the
    /// move list.
    pub(crate) fn play_first_legal(&self) {
        let id = self.script("return document.querySelector('#board g.legal').id;");
        let before = self.moves();
        self.click(&format!("#{}", id.as_str().unwrap()));
        self.wait(
            "the move",
            &format!(
                "return document.getElementById('movesline').value !== {};",
                json!(before)
            ),
            Duration::from_secs(30),
        );
    }

    /// Waits until a person may move or the game is over; gives the state.
    pub(crate) fn idle(&self, limit: Duration) -> String {
        self.wait(
            "a person's turn or the end",
            "const st = document.getElementById('status').dataset.state;\
             if (st === 'over') return st;\
             if (st === 'you' && document.querySelector('#board g.cell.legal') && !document.querySelector('#hand')) return st;\
             return null;",
            limit,
        )
        .as_str()
        .unwrap()
        .to_string()
    }
}

/// The engine's `query fen` after the game's variant, options, start and
/// moves (`game` as the API takes it), from a kete engine of its own: what
/// the page shows must be what the engine has.
pub(crate) fn engine_fen(e: &mut EngineProcess, game: &Value, moves: &[&str]) -> String {
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

pub(crate) fn engine() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("ugi");
    e.wait_for(Duration::from_secs(10), "ugiok", |l| l == "ugiok");
    e
}

/// The seeds the page shows, cell by cell.
pub(crate) const PAGE_SEEDS: &str = "return [...document.querySelectorAll('#board g.cell')]\
    .map(g => parseInt(g.getAttribute('data-seeds')));";

/// Checks that the board in the page is the engine's position for the moves
/// the page lists; returns the state.
pub(crate) fn check_board(d: &Driver, s: &Server, e: &mut EngineProcess, game: Value) -> Value {
    let moves = d.moves();
    let moves: Vec<&str> = moves.split_whitespace().collect();
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
    let waited = Instant::now();
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

/// Waits for the page's moves to become `want`.
pub(crate) fn wait_moves(d: &Driver, want: &str) {
    d.wait(
        &format!("the moves {want:?}"),
        &format!(
            "return document.getElementById('movesline').value === '{want}' && !document.querySelector('#hand');"
        ),
        Duration::from_secs(30),
    );
}

/// The cells of `variant`'s board at its start, as the library lists them.
pub(crate) fn cells_of(variant: &str) -> usize {
    struct Cells;
    impl kete::variants::BoardVisitor for Cells {
        type Output = usize;
        fn visit<G: kete::game::Board>(self, rules: G::Rules) -> usize {
            G::start(&rules).cells().len()
        }
    }
    kete::variants::Variant::by_name(variant)
        .unwrap()
        .visit_board(Cells)
}
