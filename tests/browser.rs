//! The board in a real headless browser: Debian's Chromium driven through
//! its chromedriver by the WebDriver client crate fantoccini (on a
//! one-thread tokio runtime: the tests themselves stay synchronous, and run
//! one at a time). Skipped, saying so, where /usr/bin/chromium or
//! /usr/bin/chromedriver is missing: `apt-get install chromium
//! chromium-driver`, then `cargo test --release --test browser --
//! --nocapture`. Screenshots go to target/browser/ (`docs/board/` holds a
//! chosen few).
//!
//! After moves the page's board is compared with the server's state and
//! with a separate kete engine's `query fen` for the page's moves.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

mod common;
use common::engine::EngineProcess;
use common::http::{Server, legal_texts};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

/// One browser at a time: the machine has few cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// WebDriver's keys.
const TAB: &str = "\u{E004}";
const ENTER: &str = "\u{E007}";
const LEFT: &str = "\u{E012}";
const RIGHT: &str = "\u{E014}";

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

/// Whether the browser is here; says so when it is not.
fn browser_here() -> bool {
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
    fn start(width: u32, height: u32) -> Driver {
        Driver::launch(width, height, false)
    }

    /// A phone's screen, `width` × `height` CSS pixels at two device pixels
    /// each, touch included (Chromium's mobile emulation: a headless
    /// window is never narrower than 500 pixels).
    fn phone(width: u32, height: u32) -> Driver {
        Driver::launch(width, height, true)
    }

    fn launch(width: u32, height: u32, phone: bool) -> Driver {
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
    fn keys(&self, keys: &str) {
        self.rt
            .block_on(async { self.client().active_element().await?.send_keys(keys).await })
            .unwrap_or_else(|e| panic!("keys {keys:?}: {e}"));
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
                    "return ['token', 'movesline', 'error', 'statustext', 'moveerror', 'note'].map(id => id + ': ' + (document.getElementById(id).value ?? document.getElementById(id).textContent));",
                );
                panic!("timed out waiting for {what}; the page shows {page}");
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// A screenshot of the page's top.
    fn screenshot(&self, name: &str) {
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
    fn board_shot(&self, name: &str) {
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
    fn open(&self, s: &Server) {
        self.goto(&s.url("/"));
        self.wait(
            "the page",
            "return document.body.getAttribute('data-ready') === '1' && document.querySelectorAll('#board g.cell').length;",
            Duration::from_secs(30),
        );
    }

    /// Sets who plays South and North (`human` or `engine`).
    fn players(&self, south: &str, north: &str) {
        self.script(&format!(
            "for (const [id, v] of [['south', '{south}'], ['north', '{north}']]) {{\
               const s = document.getElementById(id); s.value = v; s.dispatchEvent(new Event('change')); }}"
        ));
    }

    /// The engine's strength: milliseconds a move, animation on or off.
    fn engine_ms(&self, ms: u32, animate: bool) {
        self.script(&format!(
            "document.getElementById('limit').value = 'time'; document.getElementById('strength').value = '{ms}';\
             document.getElementById('animate').checked = {animate};"
        ));
    }

    /// Chooses a game in the menu (which starts it, after saying yes to
    /// the page's question when a game is in progress) and waits for its
    /// board.
    fn game(&self, variant: &str) {
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
    fn start_pasted(&self) {
        self.click("#start");
        self.script(
            "const c = document.getElementById('confirm'); if (c && !c.hidden) document.getElementById('confirmyes').click();",
        );
    }

    fn state(&self) -> String {
        self.script("return document.getElementById('status').dataset.state;")
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn moves(&self) -> String {
        self.script("return document.getElementById('movesline').value;")
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Clicks the first playable pit and waits until the move is in the
    /// move list.
    fn play_first_legal(&self) {
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
    fn idle(&self, limit: Duration) -> String {
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

fn engine() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("ugi");
    e.wait_for(Duration::from_secs(10), "ugiok", |l| l == "ugiok");
    e
}

/// The seeds the page shows, cell by cell.
const PAGE_SEEDS: &str = "return [...document.querySelectorAll('#board g.cell')]\
    .map(g => parseInt(g.getAttribute('data-seeds')));";

/// Checks that the board in the page is the engine's position for the moves
/// the page lists; returns the state.
fn check_board(d: &Driver, s: &Server, e: &mut EngineProcess, game: Value) -> Value {
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
fn wait_moves(d: &Driver, want: &str) {
    d.wait(
        &format!("the moves {want:?}"),
        &format!(
            "return document.getElementById('movesline').value === '{want}' && !document.querySelector('#hand');"
        ),
        Duration::from_secs(30),
    );
}

#[test]
fn browser_plays_a_whole_kalah_game_against_the_engine_to_the_result_banner() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::start(1400, 1000);
    let mut e = engine();
    let t = Instant::now();
    d.open(&s);
    eprintln!("page load: {} ms", t.elapsed().as_millis());
    let kalah =
        json!({"variant": "kalah", "options": {"Pits": "6", "Seeds": "4", "Capture": "standard"}});
    check_board(&d, &s, &mut e, kalah.clone());
    assert_eq!(d.state(), "you");
    assert_eq!(
        d.script("return document.getElementById('statustext').textContent;"),
        json!("Your move (South)")
    );
    // Names a person reads.
    let titles = d.script(
        "return [...document.querySelectorAll('#variant optgroup')[0].querySelectorAll('option')].map(o => o.textContent);",
    );
    let described = d.script(
        "return [...document.querySelectorAll('#variant optgroup')[1].querySelectorAll('option')].map(o => o.value);",
    );
    assert_eq!(
        described,
        json!(kete::variants::described_names().collect::<Vec<_>>())
    );
    assert_eq!(
        titles,
        json!([
            "Kalah",
            "Oware",
            "En Dodoi",
            "Bao la Kujifunza",
            "Bao la Kiswahili",
            "Togyz Kumalak",
            "Bestemshe"
        ])
    );
    d.screenshot("kalah");

    // A hint: the highlighted move is legal, marked by a star, and its
    // evaluation is in seeds from a fixed side.
    d.engine_ms(500, true);
    d.click("#hint");
    let hint = d.wait(
        "a hint",
        "return document.getElementById('search').getAttribute('data-hint');",
        Duration::from_secs(30),
    );
    let state = check_board(&d, &s, &mut e, kalah.clone());
    assert!(
        legal_texts(&state).contains(&hint.as_str().unwrap()),
        "hint {hint}"
    );
    assert_eq!(
        d.script("return document.querySelectorAll('#board g.hint.legal .mark-hint').length;"),
        json!(1)
    );
    let ev = d.script("return document.getElementById('evaltext').textContent;");
    let ev = ev.as_str().unwrap();
    assert!(
        ev.contains("(kete's estimate, depth "),
        "said to be an estimate: {ev}"
    );
    assert!(
        ev.contains(" for South")
            || ev.contains(" for North")
            || ev.contains("level")
            || ev.contains("wins in"),
        "evaluation {ev}"
    );

    // A move that passes the turn (A: four seeds, none in the store): kete
    // thinks, says so with its indicator, and its pits are never clickable.
    d.engine_ms(1500, true);
    let t = Instant::now();
    d.click("#cell-0");
    d.wait(
        "kete thinking",
        "return document.getElementById('status').dataset.state === 'thinking';",
        Duration::from_secs(20),
    );
    assert_eq!(
        d.script("return document.getElementById('spinner').className;"),
        json!("on")
    );
    assert_eq!(
        d.script("return document.getElementById('statustext').textContent;"),
        json!("kete is thinking… (North)")
    );
    assert_eq!(
        d.script("return document.querySelectorAll('#board g.cell.legal, #board [tabindex=\"0\"]').length;"),
        json!(0),
        "no pit looks playable while kete thinks"
    );
    let cursor = d.script(
        "return [...document.querySelectorAll('#board g.cell.pit')].map(g => getComputedStyle(g).cursor).filter(c => c === 'pointer').length;",
    );
    assert_eq!(cursor, json!(0), "no pointer cursor on any pit");
    // A move typed now is refused with a word, and nothing is played.
    d.script("document.getElementById('movetext').value = 'B';");
    d.click("#moveform button");
    let refused = d.script("return document.getElementById('moveerror').textContent;");
    assert!(
        refused.as_str().unwrap().contains("kete's move"),
        "{refused}"
    );
    d.screenshot("kalah-thinking");
    d.idle(Duration::from_secs(30));
    eprintln!(
        "click to engine reply at 1.5 s a move: {} ms",
        t.elapsed().as_millis()
    );
    assert!(d.moves().starts_with("A "), "{}", d.moves());
    check_board(&d, &s, &mut e, kalah.clone());
    // The engine's moves are in the list with its evaluation.
    let evs = d.script(
        "return [...document.querySelectorAll('#movelist td.north .ev')].map(x => x.textContent);",
    );
    assert!(
        !evs.as_array().unwrap().is_empty(),
        "kete's evaluation beside its moves"
    );
    assert!(
        d.script("return +document.getElementById('graph').dataset.points;")
            .as_u64()
            .unwrap()
            >= 2,
        "the evaluation graph has the hint's and kete's points"
    );

    // The rest of the game, quickly: clicks on the first legal pit.
    d.engine_ms(30, false);
    let mut clicks = 1;
    let mut solved = false;
    loop {
        let state = d.idle(Duration::from_secs(30));
        let shown = check_board(&d, &s, &mut e, kalah.clone());
        if state == "over" {
            break;
        }
        // Near the end, the solver's exact value joins the graph.
        let in_pits: u64 = shown["cells"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["kind"] == json!("pit"))
            .map(|c| c["seeds"].as_u64().unwrap())
            .sum();
        if !solved && in_pits <= 30 {
            solved = true;
            d.click("#solve");
            let text = d.wait(
                "the solve",
                "const t = document.getElementById('search').textContent; return t.startsWith('solving') ? null : t;",
                Duration::from_secs(30),
            );
            assert!(text.as_str().unwrap().starts_with("proven: "), "{text}");
        }
        d.play_first_legal();
        clicks += 1;
        assert!(clicks < 200, "the game does not end");
    }
    // The result in words, in a banner, with the input off.
    let banner = d.script("return document.getElementById('banner').hidden ? null : document.getElementById('bannertext').textContent;");
    let banner = banner.as_str().expect("the result banner");
    eprintln!("{banner} after {clicks} clicks");
    let (st, state) = s.json(
        "POST",
        "/api/state",
        &json!({"variant": "kalah", "moves": d.moves().split_whitespace().collect::<Vec<_>>(), "players": ["you", "kete"]})
            .to_string(),
    );
    assert_eq!(st, 200);
    assert_eq!(banner, state["outcome"]["words"].as_str().unwrap());
    let (south, north) = (
        state["outcome"]["seeds"][0].as_u64().unwrap(),
        state["outcome"]["seeds"][1].as_u64().unwrap(),
    );
    let want = match south.cmp(&north) {
        std::cmp::Ordering::Greater => format!("South (you) wins {south}\u{2013}{north} \u{2014} "),
        std::cmp::Ordering::Less => format!("North (kete) wins {north}\u{2013}{south} \u{2014} "),
        std::cmp::Ordering::Equal => format!("A draw {south}\u{2013}{north} \u{2014} "),
    };
    assert!(banner.starts_with(&want), "{banner} / {want}");
    assert_eq!(
        d.script("return document.getElementById('movetext').disabled && document.querySelectorAll('#board g.cell.legal').length === 0;"),
        json!(true)
    );
    d.screenshot("kalah-end");
    // The evaluation over the game, looked at from a move in its middle.
    assert!(solved, "a solve near the end");
    assert_eq!(
        d.script("return document.querySelectorAll('#graph rect.exact').length;"),
        json!(1)
    );
    let n = d
        .script("return document.querySelectorAll('#movelist button.mv').length;")
        .as_u64()
        .unwrap();
    d.click(&format!("#movelist button.mv[data-ply='{}']", n / 2));
    d.wait(
        "a look back",
        "return document.getElementById('status').dataset.state === 'history';",
        Duration::from_secs(10),
    );
    d.script("document.getElementById('details').open = true;");
    d.screenshot("evaluation");
    d.click(&format!("#movelist button.mv[data-ply='{n}']"));
    d.wait(
        "the end again",
        "return document.getElementById('status').dataset.state === 'over' && !document.getElementById('banner').hidden;",
        Duration::from_secs(10),
    );
    // Rematch: a new game, same sides.
    d.click("#rematch");
    d.wait(
        "the rematch",
        "return document.getElementById('movesline').value === '' && document.getElementById('banner').hidden && document.getElementById('status').dataset.state === 'you';",
        Duration::from_secs(20),
    );
}

#[test]
fn browser_undo_takes_back_a_whole_turn_and_nothing_stays_stale() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::start(1400, 1000);
    let mut e = engine();
    d.open(&s);
    let kalah = json!({"variant": "kalah"});

    // Two people: South's C ends in his store (another turn), then F. The
    // last turn's highlight shows both sowings, where each last seed fell,
    // and the note says why South moved twice.
    d.players("human", "human");
    d.engine_ms(200, false);
    d.click("#cell-2");
    wait_moves(&d, "C");
    let note = d.script("return document.getElementById('note').textContent;");
    assert!(note.as_str().unwrap().contains("another turn"), "{note}");
    d.click("#cell-5");
    wait_moves(&d, "C F");
    // The note tells the whole turn, sowing by sowing, and who is next.
    let note = d.script("return document.getElementById('note').textContent;");
    let note = note.as_str().unwrap();
    assert!(
        note.starts_with("South played C (")
            && note.contains("another turn), then F")
            && note.ends_with("North to move."),
        "{note}"
    );
    let last = d.script(
        "return [...document.querySelectorAll('#board g.cell.last')].map(g => g.dataset.name);",
    );
    assert_eq!(last, json!(["C", "F"]), "both sowings of the turn");
    let ended =
        d.script("return [...document.querySelectorAll('#board g.cell.ended')].map(g => g.id);");
    assert_eq!(
        ended.as_array().unwrap().len(),
        2,
        "where each last seed fell: {ended}"
    );
    assert!(
        ended.as_array().unwrap().contains(&json!("cell-12")),
        "C's last seed in the store"
    );
    assert_eq!(
        d.script("return document.querySelectorAll('#board g.cell.last .mark-last').length;"),
        json!(2),
        "marked by a shape, not by colour alone"
    );
    d.screenshot("kalah-last-turn");
    // North's reply a: the note is now about North's turn, not South's.
    d.click("#board g.cell.legal[data-name='a']");
    wait_moves(&d, "C F a");
    let note = d.script("return document.getElementById('note').textContent;");
    assert!(
        note.as_str().unwrap().starts_with("North played a")
            && !note.as_str().unwrap().contains("another turn"),
        "a stale note: {note}"
    );
    // Back through the list with the arrow keys: each highlight is the
    // shown position's.
    d.script("document.activeElement.blur(); document.body.focus();");
    d.keys(LEFT);
    d.wait(
        "one move back",
        "return document.getElementById('movesline').value === 'C F';",
        Duration::from_secs(10),
    );
    let last = d.script(
        "return [...document.querySelectorAll('#board g.cell.last')].map(g => g.dataset.name);",
    );
    assert_eq!(last, json!(["C", "F"]));
    d.keys(LEFT);
    d.keys(LEFT);
    d.wait(
        "the start",
        "return document.getElementById('movesline').value === '' && document.getElementById('note').textContent === '';",
        Duration::from_secs(10),
    );
    assert_eq!(
        d.script(
            "return document.querySelectorAll('#board g.cell.last, #board g.cell.ended').length;"
        ),
        json!(0),
        "no last-move ring at the start"
    );
    d.keys(RIGHT);
    d.keys(RIGHT);
    d.keys(RIGHT);
    wait_moves(&d, "C F a");

    // Against kete: one Undo takes back kete's reply and the person's whole
    // turn, and kete does not move by itself after it.
    d.players("human", "engine");
    d.engine_ms(200, false);
    d.idle(Duration::from_secs(30));
    let before = d.moves();
    // The person's turn (one sowing or more), then kete's reply.
    for _ in 0..10 {
        d.play_first_legal();
        d.idle(Duration::from_secs(30));
        if d.script("return game.movers[game.movers.length - 1];") == json!("north") {
            break;
        }
    }
    let after = d.moves();
    assert!(after.len() > before.len() + 2, "{before} / {after}");
    d.click("#undo");
    wait_moves(&d, &before);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(d.moves(), before, "kete waits after an undo");
    assert_eq!(d.state(), "you");
    check_board(&d, &s, &mut e, kalah.clone());
    // The engine pane belongs to the position shown: empty after going back.
    assert_eq!(
        d.script("return document.getElementById('search').textContent;"),
        json!("")
    );
}

#[test]
fn browser_bao_directions_and_safari_are_chosen_on_the_board() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::start(1400, 1000);
    let mut e = engine();
    d.open(&s);
    d.players("human", "human");
    d.engine_ms(200, false);
    d.game("bao-kiswahili");
    let game = json!({"variant": "bao-kiswahili"});
    // A6 has two moves: a click marks it, shows its two arrows and asks.
    d.click("#cell-5");
    let arrows = d.wait(
        "the arrows of A6",
        "const a = [...document.querySelectorAll('#board g.arrow.shown')].map(a => a.dataset.moves); return a.length ? a : null;",
        Duration::from_secs(10),
    );
    let mut arrows: Vec<&str> = arrows
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    arrows.sort();
    assert_eq!(arrows, ["A6<", "A6>"]);
    let prompt = d.script("return document.getElementById('prompt').hidden ? null : document.getElementById('prompttext').textContent;");
    assert!(
        prompt.as_str().unwrap().starts_with("A6: which way?"),
        "{prompt}"
    );
    // Each way named in the notation the move list and the hint use.
    let buttons = d.script(
        "return [...document.querySelectorAll('#choices button')].map(b => b.textContent).sort();",
    );
    assert_eq!(
        buttons,
        json!(["A6< \u{2014} toward A5", "A6> \u{2014} toward A7"])
    );
    assert_eq!(
        d.script("return document.querySelectorAll('#board g.cell.target').length;"),
        json!(2)
    );
    d.screenshot("bao-kiswahili-choice");
    // Clicking the pit an arrow points at (A7) plays that way, whichever
    // way the board is turned.
    d.click("#cell-6");
    wait_moves(&d, "A6>");
    check_board(&d, &s, &mut e, game.clone());
    // North's move with the board turned: his a6 (cell 21) toward a5.
    d.click("#flip");
    d.wait(
        "the board turned",
        "return document.querySelector('#board svg').dataset.flipped === 'true';",
        Duration::from_secs(10),
    );
    let north = d.script(
        "return [...document.querySelectorAll('#board g.cell.legal')].map(g => g.dataset.name);",
    );
    let pit = north.as_array().unwrap()[0].as_str().unwrap().to_string();
    d.click(&format!("#board g.cell.legal[data-name='{pit}']"));
    let arrow = d.wait(
        "North's arrows",
        "const a = document.querySelector('#board g.arrow.shown'); return a ? [a.dataset.moves, a.dataset.to] : null;",
        Duration::from_secs(10),
    );
    let (mv, to) = (
        arrow[0].as_str().unwrap().to_string(),
        arrow[1].as_str().unwrap().to_string(),
    );
    // The arrow on the screen points from the pit toward the cell it names.
    let points = d.script(&format!(
        "const a = document.querySelector('#board g.arrow.shown[data-moves=\"{mv}\"] line:last-of-type').getBoundingClientRect();\
         const l = document.querySelector('#board g.arrow.shown[data-moves=\"{mv}\"] line:last-of-type');\
         const from = document.querySelector('#board g.cell.selected').getBoundingClientRect();\
         const to = document.getElementById('cell-{to}').getBoundingClientRect();\
         const dx = l.x2.baseVal.value - l.x1.baseVal.value, dy = l.y2.baseVal.value - l.y1.baseVal.value;\
         return dx * ((to.x + to.width / 2) - (from.x + from.width / 2)) + dy * ((to.y + to.height / 2) - (from.y + from.height / 2)) > 0 && a.width + a.height > 0;"
    ));
    assert_eq!(points, json!(true), "the arrow points where its move sows");
    d.click(&format!("#board g.arrow.shown[data-moves='{mv}']"));
    wait_moves(&d, &format!("A6> {mv}"));
    check_board(&d, &s, &mut e, game.clone());
    d.click("#flip");

    // A safari: South's A5 after `A7> a7> A6> a8<` (a random game's),
    // pasted as the start position, may capture toward either kichwa; the
    // way to A8 ends in the nyumba, which may stop or go on (`A5>+`).
    // A hint, then its pit: the hinted way is marked among the buttons.
    d.click("#hint");
    let hinted = d.wait(
        "a hint",
        "return document.getElementById('search').getAttribute('data-hint');",
        Duration::from_secs(30),
    );
    d.click("#board g.cell.hint");
    let marked = d.wait(
        "the hinted way",
        "const p = document.getElementById('prompt'); if (p.hidden) return 'one way'; const b = document.querySelector('#choices button.hinted'); return b ? b.dataset.moves : null;",
        Duration::from_secs(10),
    );
    if marked != json!("one way") {
        assert!(
            marked
                .as_str()
                .unwrap()
                .split(' ')
                .any(|m| json!(m) == hinted),
            "{marked} / {hinted}"
        );
        d.click("#cancel");
    } else {
        wait_moves(&d, &format!("A6> {mv} {}", hinted.as_str().unwrap()));
    }
    let token = "1,1,0,0,0,0,0,0/0,1,0,7,1,1,0,0/0,0,0,0,6,0,1,2/0,0,0,0,0,1,2,0-20-20-OO-S-x-0";
    d.script("document.getElementById('positions').open = true;");
    d.script(&format!(
        "document.getElementById('starttoken').value = '{token}';"
    ));
    d.start_pasted();
    d.wait(
        "the pasted position",
        &format!("return document.getElementById('token').value === '{token}';"),
        Duration::from_secs(20),
    );
    let pasted = json!({"variant": "bao-kiswahili", "start": token});
    check_board(&d, &s, &mut e, pasted.clone());
    d.click("#board g.legal[data-name='A5']");
    let offered = d.wait(
        "the arrows of A5",
        "const a = [...document.querySelectorAll('#board g.arrow.shown')].map(a => a.dataset.moves); return a.length ? a : null;",
        Duration::from_secs(10),
    );
    let mut offered: Vec<&str> = offered
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    offered.sort();
    assert_eq!(offered, ["A5<", "A5> A5>+"], "the ways of A5");
    // The ways of a capture are the kichwa its seeds are sown from.
    let prompt = d.script("return document.getElementById('prompttext').textContent;");
    assert!(
        prompt.as_str().unwrap().starts_with("A5 captures ")
            && prompt.as_str().unwrap().contains("kichwa"),
        "{prompt}"
    );
    d.click("#board g.arrow.shown[data-moves='A5> A5>+']");
    let choices = d.wait(
        "stop or safari",
        "const b = [...document.querySelectorAll('#choices button')].map(b => b.dataset.moves); return b.length === 2 ? b : null;",
        Duration::from_secs(10),
    );
    assert_eq!(choices, json!(["A5>", "A5>+"]));
    let prompt = d.script("return document.getElementById('prompttext').textContent;");
    assert!(prompt.as_str().unwrap().contains("safari"), "{prompt}");
    d.screenshot("bao-kiswahili-safari");
    d.click("#choices button[data-moves='A5>+']");
    wait_moves(&d, "A5>+");
    let state = check_board(&d, &s, &mut e, pasted);
    assert_ne!(state["token"], json!(token), "A5>+ was played");
    // Bao's marks: the placement pit and the relay laps of the safari.
    let last = d.script(
        "return [...document.querySelectorAll('#board g.cell.last')].map(g => g.dataset.name);",
    );
    assert_eq!(last, json!(["A5"]), "the placement pit, not the hand");
    assert!(
        d.script("return document.querySelectorAll('#board g.cell.lap').length;")
            .as_u64()
            .unwrap()
            >= 1,
        "the relay laps are marked"
    );
    assert_eq!(
        d.script("return document.querySelectorAll('#board g.cell.captured').length;"),
        json!(1),
        "the captured pit is marked"
    );
    d.screenshot("bao-kiswahili-played");
}

#[test]
fn browser_refuses_bad_input_beside_its_field_and_the_game_goes_on() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::start(1400, 1000);
    let mut e = engine();
    d.open(&s);
    d.players("human", "human");
    d.game("oware");
    let oware = json!({"variant": "oware"});
    d.click("#board g.cell.legal[data-name='C']");
    wait_moves(&d, "C");
    // A broken start position: refused beside its field; the game in
    // progress stays as it was, and playable.
    d.script("document.getElementById('positions').open = true; document.getElementById('starttoken').value = '4-4-4-X';");
    d.start_pasted();
    let error = d.wait(
        "the refusal",
        "const t = document.getElementById('starttokenerror').textContent; return t ? t : null;",
        Duration::from_secs(20),
    );
    assert!(error.as_str().unwrap().contains("start"), "{error}");
    assert_eq!(d.moves(), "C");
    assert_eq!(
        d.script("return document.getElementById('error').textContent + document.getElementById('moveerror').textContent;"),
        json!(""),
        "the error is beside its field, not elsewhere"
    );
    d.screenshot("bad-position");
    d.click("#board g.cell.legal[data-name='d']");
    wait_moves(&d, "C d");
    check_board(&d, &s, &mut e, oware.clone());
    // A move list with an illegal move: refused the same way.
    d.script("document.getElementById('starttoken').value = ''; document.getElementById('startmoves').value = 'C q';");
    d.start_pasted();
    let error = d.wait(
        "the refusal",
        "const t = document.getElementById('startmoveserror').textContent; return t ? t : null;",
        Duration::from_secs(20),
    );
    assert!(error.as_str().unwrap().contains('q'), "{error}");
    assert_eq!(d.moves(), "C d");
    // A good one is played from the start.
    d.script("document.getElementById('startmoves').value = 'C d B';");
    d.start_pasted();
    wait_moves(&d, "C d B");
    check_board(&d, &s, &mut e, oware.clone());
    // A long pasted list: its last move is in sight inside the move list.
    let mut long: Vec<String> = Vec::new();
    for _ in 0..60 {
        let (_, st) = s.json(
            "POST",
            "/api/state",
            &json!({"variant": "oware", "moves": long}).to_string(),
        );
        match legal_texts(&st).first() {
            Some(m) if st["outcome"].is_null() => long.push(m.to_string()),
            _ => break,
        }
    }
    let long = long.join(" ");
    d.script(&format!(
        "document.getElementById('startmoves').value = '{long}';"
    ));
    d.start_pasted();
    wait_moves(&d, &long);
    let seen = d.script(
        "const l = document.getElementById('movelist').getBoundingClientRect(); const c = document.querySelector('#movelist button.current').getBoundingClientRect(); return [c.top >= l.top && c.bottom <= l.bottom + 1, document.getElementById('movelist').scrollTop];",
    );
    assert_eq!(seen[0], json!(true), "the last move in sight: {seen}");
    d.script("document.getElementById('startmoves').value = 'C d B';");
    d.start_pasted();
    wait_moves(&d, "C d B");
    d.script("document.getElementById('startmoves').value = '';");
    // An option out of its range: refused beside the field, with the range
    // the field enforces; nothing changes.
    let range = d.script("const i = document.getElementById('opt-Pits'); return [i.min, i.max];");
    assert_eq!(range, json!(["1", "8"]));
    d.script("const i = document.getElementById('opt-Pits'); i.value = '99'; i.dispatchEvent(new Event('change'));");
    let error = d.wait(
        "the option's refusal",
        "const t = document.getElementById('opt-Pits-error').textContent; return t ? t : null;",
        Duration::from_secs(10),
    );
    assert!(error.as_str().unwrap().contains("1 to 8"), "{error}");
    assert_eq!(d.moves(), "C d B");
    d.script("const i = document.getElementById('opt-Pits'); i.value = '6';");
    // A typed letter of the other side's case is refused, not read as the
    // mover's: North is to move here, so "A" names South's pit.
    d.script("document.getElementById('movetext').value = 'A';");
    d.click("#moveform button");
    let refused = d.wait(
        "the typed move's refusal",
        "const t = document.getElementById('moveerror').textContent; return t ? t : null;",
        Duration::from_secs(10),
    );
    assert!(
        refused.as_str().unwrap().contains("South's pit"),
        "{refused}"
    );
    assert_eq!(d.moves(), "C d B");
    d.script("document.getElementById('movetext').value = 'a';");
    d.click("#moveform button");
    wait_moves(&d, "C d B a");
    check_board(&d, &s, &mut e, oware.clone());
    // Every option of every game has a label and a line of help; Bao's rule
    // variants are folded under "Advanced rules".
    d.game("bao-kiswahili");
    let fields = d.script(
        "return [...document.querySelectorAll('[data-option]')].map(i => [document.querySelector(`label[for=${i.id}]`).textContent, document.getElementById(i.id + '-help').textContent, !!i.closest('#advanced'), i.dataset.option]);",
    );
    let fields = fields.as_array().unwrap();
    assert_eq!(fields.len(), 9);
    for f in fields {
        assert!(
            !f[0].as_str().unwrap().is_empty() && !f[1].as_str().unwrap().is_empty(),
            "{f}"
        );
        assert_eq!(f[2], json!(true), "{f} under Advanced rules");
        let label = f[0].as_str().unwrap();
        assert!(
            label.contains(' ') && label != f[3].as_str().unwrap(),
            "a plain label: {f}"
        );
    }
}

#[test]
fn browser_tab_reaches_a_pit_and_enter_plays_it() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::start(1400, 1000);
    let mut e = engine();
    d.open(&s);
    d.players("human", "human");
    d.script("document.activeElement.blur(); window.focus();");
    d.click("header h1");
    let mut reached = None;
    for _ in 0..40 {
        d.keys(TAB);
        let label = d.script(
            "const a = document.activeElement; return a && a.matches && a.matches('#board g.cell.legal') ? a.getAttribute('aria-label') : null;",
        );
        if !label.is_null() {
            reached = Some(label);
            break;
        }
    }
    let label = reached.expect("Tab reaches a pit");
    assert_eq!(label, json!("A, 4 seeds, legal move"));
    d.keys(TAB);
    let label = d.script("return document.activeElement.getAttribute('aria-label');");
    assert_eq!(label, json!("B, 4 seeds, legal move"));
    // The arrow keys go from pit to pit too.
    d.keys(RIGHT);
    let label = d.script("return document.activeElement.getAttribute('aria-label');");
    assert_eq!(label, json!("C, 4 seeds, legal move"));
    d.keys(LEFT);
    let label = d.script("return document.activeElement.getAttribute('aria-label');");
    assert_eq!(label, json!("B, 4 seeds, legal move"));
    d.keys(ENTER);
    wait_moves(&d, "B");
    check_board(&d, &s, &mut e, json!({"variant": "kalah"}));
    // North's pits are now the ones Tab reaches, with their labels.
    let focusable = d.script(
        "return [...document.querySelectorAll('#board [tabindex=\"0\"]')].map(g => g.getAttribute('aria-label').split(',')[0]);",
    );
    assert_eq!(focusable, json!(["a", "b", "c", "d", "e", "f"]));
}

/// The smallest width and height, in CSS pixels, of the pits' tap areas and
/// of their drawn circles, and the smallest pit name.
const PIT_SIZES: &str = "const pits = [...document.querySelectorAll('#board g.cell.pit')];\
    const hit = pits.map(g => g.querySelector('rect.hit').getBoundingClientRect());\
    const shape = pits.map(g => g.querySelector('.shape').getBoundingClientRect());\
    const name = pits.map(g => g.querySelector('text.name').getBoundingClientRect());\
    return [Math.min(...hit.map(r => Math.min(r.width, r.height))),\
            Math.min(...shape.map(r => Math.min(r.width, r.height))),\
            Math.min(...name.map(r => r.height)), pits.length,\
            Math.max(...hit.map(r => r.right)), window.innerWidth];";

#[test]
fn browser_on_a_phone_every_pit_is_a_finger_wide() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::phone(390, 844);
    d.open(&s);
    let inner = d.script("return [window.innerWidth, window.innerHeight];");
    assert_eq!(inner[0], json!(390), "the page is 390 px wide: {inner}");
    d.players("human", "human");
    for (variant, options) in [
        ("kalah", None),
        ("oware", None),
        ("endodoi", Some(("Pits", "10"))),
        ("bao-kujifunza", None),
        ("togyz-kumalak", None),
        // Last: the Bao choice below is played on its board.
        ("bao-kiswahili", None),
    ] {
        d.game(variant);
        if let Some((name, value)) = options {
            d.script(&format!(
                "const i = document.getElementById('opt-{name}'); i.value = '{value}'; i.dispatchEvent(new Event('change'));"
            ));
            d.wait(
                "the larger board",
                "return document.querySelectorAll('#board g.cell.pit').length === 20;",
                Duration::from_secs(20),
            );
        }
        let sizes = d.script(PIT_SIZES);
        eprintln!("{variant} at 390x844: {sizes}");
        let n = |k: usize| sizes[k].as_f64().unwrap();
        assert!(n(0) >= 44.0, "{variant}: a pit's tap area is {} px", n(0));
        assert!(n(1) >= 36.0, "{variant}: a pit is drawn {} px wide", n(1));
        assert!(n(2) >= 10.0, "{variant}: a pit's name is {} px tall", n(2));
        assert!(n(4) <= n(5) + 0.5, "{variant}: the board fits the screen");
        d.screenshot(&format!("phone-{variant}"));
    }
    // A Bao choice on the phone: the arrows are there to tap.
    d.click("#cell-5");
    d.wait(
        "the arrows",
        "return document.querySelectorAll('#board g.arrow.shown').length === 2;",
        Duration::from_secs(10),
    );
    // The question is brought into sight, in a phone's words.
    let prompt = d.script(
        "const r = document.getElementById('prompt').getBoundingClientRect(); return [r.top >= 0 && r.bottom <= window.innerHeight + 1, document.getElementById('prompttext').textContent, r.top, r.bottom, window.innerHeight, window.scrollY];",
    );
    assert_eq!(
        prompt[0],
        json!(true),
        "the question on the screen: {prompt}"
    );
    assert!(
        prompt[1].as_str().unwrap().contains("Tap an arrow"),
        "{prompt}"
    );
    d.screenshot("phone-bao-kiswahili-choice");
    d.click("#cell-6");
    wait_moves(&d, "A6>");
}

#[test]
fn browser_opens_the_game_its_address_names() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::start(1200, 900);
    let open = |query: &str, cells: usize| {
        d.goto(&s.url(&format!("/{query}")));
        d.wait(
            "the board the address names",
            &format!(
                "return document.body.getAttribute('data-ready') === '1' && \
                 document.querySelectorAll('#board g.cell').length === {cells} && location.search;"
            ),
            Duration::from_secs(30),
        )
    };
    // A game by an alias spelt with a space: the address becomes its name.
    let at = open("?variant=Togyz%20Kumalak", 20);
    assert_eq!(at, json!("?variant=togyz-kumalak"));
    assert_eq!(
        d.script("return document.getElementById('variant').value;"),
        json!("togyz-kumalak")
    );
    // A level is said in words, with what its Elo means.
    d.script("const l = document.getElementById('level'); l.value = 'club'; l.dispatchEvent(new Event('change'));");
    let said = d.script(
        "return [document.getElementById('level').selectedOptions[0].textContent, document.getElementById('levelhelp').textContent];",
    );
    assert!(said[0].as_str().unwrap().contains("(Elo "), "{said}");
    let help = said[1].as_str().unwrap();
    assert!(
        help.contains("For a club player")
            && help.contains("kete's own scale")
            && help.contains("not a chess rating"),
        "{said}"
    );
    // A link with a rule option opens that board, though another game was
    // kept in the browser.
    let at = open("?variant=kalah&Pits=4", 10);
    assert_eq!(at, json!("?variant=kalah&Pits=4"));
    // Changing the rule changes the address; a rule back at the game's own
    // leaves it out.
    d.players("human", "human");
    d.script("const i = document.getElementById('opt-Pits'); i.value = '5'; i.dispatchEvent(new Event('change'));");
    d.script("const c = document.getElementById('confirm'); if (c && !c.hidden) document.getElementById('confirmyes').click();");
    let at = d.wait(
        "the address of the new board",
        "return document.querySelectorAll('#board g.cell').length === 12 && location.search;",
        Duration::from_secs(20),
    );
    assert_eq!(at, json!("?variant=kalah&Pits=5"));
    d.game("oware");
    assert_eq!(d.script("return location.search;"), json!("?variant=oware"));
    // A name the page does not know is said, and the board stays.
    d.goto(&s.url("/?variant=kalha"));
    let error = d.wait(
        "the refusal",
        "const t = document.getElementById('error').textContent; return t || null;",
        Duration::from_secs(30),
    );
    assert!(error.as_str().unwrap().contains("'kalha'"), "{error}");
}

#[test]
fn browser_shows_every_game_solves_and_replays_a_recorded_game() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let games = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tournaments/endodoi-depth6-vs-depth4/games.jsonl"
    );
    let s = Server::start_with(&["--games", games]);
    let d = Driver::start(1400, 1000);
    let mut e = engine();
    d.open(&s);
    d.players("human", "human");
    // kete's own games, then every described one (drawn from its
    // description: its rows, its stores where they stand, its end pits).
    let described: Vec<&str> = kete::variants::described_names().collect();
    for variant in [
        "oware",
        "endodoi",
        "bao-kujifunza",
        "bao-kiswahili",
        "togyz-kumalak",
        "bestemshe",
    ]
    .into_iter()
    .chain(described)
    .chain(["kalah"])
    {
        d.game(variant);
        check_board(&d, &s, &mut e, json!({"variant": variant}));
        d.screenshot(variant);
        d.board_shot(variant);
        // The address names the game on the board.
        let address = d.script("return location.search;");
        assert_eq!(address, json!(format!("?variant={variant}")), "{variant}");
        if variant == "togyz-kumalak" || variant == "bestemshe" {
            // The kazans lie between the rows: below North's otaus, above
            // South's, each on its owner's right half.
            let m = if variant == "bestemshe" { 5 } else { 9 };
            let boxes = d.script(&format!(
                "const r = (i) => document.getElementById('cell-' + i).getBoundingClientRect(); \
                 return [r(0).top, r({m}).bottom, r({k}).top, r({k}).bottom, r({k}).left, r({n}).right, r(0).left, r({last}).right];",
                k = 2 * m,
                n = 2 * m + 1,
                last = m - 1
            ));
            let f = |i: usize| boxes[i].as_f64().unwrap();
            assert!(
                f(2) >= f(1) - 0.5 && f(3) <= f(0) + 0.5,
                "{variant}: the kazans lie between the rows: {boxes}"
            );
            assert!(
                f(4) >= f(5) - 0.5,
                "{variant}: South's kazan right of North's: {boxes}"
            );
            assert!(
                f(4) >= f(6) && f(4) < f(7),
                "{variant}: South's kazan over his row: {boxes}"
            );
            assert_eq!(
                d.script("return document.getElementById('legend-ended').textContent;"),
                json!("last kumalak")
            );
            let names = d.script("return [...document.querySelectorAll('#board g.store')].map((g) => g.getAttribute('aria-label'));");
            assert!(
                names.to_string().contains("South's kazan, 0 kumalaks"),
                "{names}"
            );
        }
        if variant == "togyz-kumalak" {
            // A tuzdyk (South's, on North's otau 1) names its owner, and the
            // legend says what it is; none is listed on a board without one.
            assert_eq!(
                d.script("return document.getElementById('key-tuzdyk').hidden;"),
                json!(true)
            );
            let token = "0-0-0-0-0-0-0-0-1-X-1-1-1-1-1-1-1-1-79-74-N";
            d.script(&format!(
                "document.getElementById('positions').open = true; document.getElementById('starttoken').value = '{token}';"
            ));
            d.start_pasted();
            d.wait(
                "the tuzdyk drawn",
                "return document.querySelectorAll('#board g.tuzdyk-mark[data-owner=\"south\"]').length === 1;",
                Duration::from_secs(10),
            );
            let shown = d.script(
                "const k = document.getElementById('key-tuzdyk'); \
                 return [k.hidden, k.getBoundingClientRect().width > 0, k.textContent, document.querySelector('#board g.tuzdyk-mark').textContent];",
            );
            assert_eq!(shown[0], json!(false), "{shown}");
            assert_eq!(shown[1], json!(true), "{shown}");
            assert!(shown[2].as_str().unwrap().contains("tuzdyk"), "{shown}");
            assert_eq!(shown[3], json!("tuzdykSouth"), "{shown}");
            d.screenshot("togyz-kumalak-tuzdyk");
            d.board_shot("togyz-kumalak-tuzdyk");
        }
        if variant == "bao-kiswahili" {
            // The nyumba square and the kimbi, with their legend entries.
            let marks = d.script(
                "return [document.querySelectorAll('#board g.nyumba rect.shape').length, \
                 document.querySelectorAll('#board circle.kimbi').length, \
                 document.getElementById('key-nyumba').hidden, document.getElementById('key-kimbi').hidden];",
            );
            assert_eq!(
                marks,
                json!([2, 8, false, false]),
                "nyumba squares, kimbi rings, legend"
            );
        }
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
                .strip_prefix("not solved in time: between ")
                .unwrap_or_else(|| panic!("{text}"));
            // The bounds in the headline's words ("+48 seeds for North"),
            // and the estimate said to be one.
            let words: Vec<&str> = rest.split_whitespace().collect();
            let bound = |at: usize| -> i32 {
                let n: i32 = words[at].trim_start_matches('+').parse().unwrap();
                if words[at + 3].starts_with("North") {
                    -n
                } else {
                    n
                }
            };
            let (lo, hi) = (bound(0), bound(5));
            assert!(-48 <= lo && lo <= hi && hi <= 48, "{text}");
            assert!(
                rest.contains("seeds for ") && !rest.contains(" -"),
                "{text}"
            );
            assert!(rest.contains("not proven"), "{text}");
        }
    }
    // Kalah against kete from a pasted position near the end: the solve
    // gives an exact value in words, a square on the graph.
    let token = "0-0-0-1-2-1-1-0-2-0-0-1-20-20-S";
    d.players("human", "engine");
    d.engine_ms(300, false);
    d.script(&format!(
        "document.getElementById('positions').open = true; document.getElementById('starttoken').value = '{token}';"
    ));
    d.start_pasted();
    d.wait(
        "the pasted position",
        &format!("return document.getElementById('token').value === '{token}';"),
        Duration::from_secs(20),
    );
    d.click("#solve");
    let exact = d.wait(
        "the exact value",
        "return document.querySelector('#graph rect.exact') ? document.getElementById('evaltext').textContent : null;",
        Duration::from_secs(30),
    );
    assert!(exact.as_str().unwrap().contains("(proven)"), "{exact}");
    for _ in 0..3 {
        if d.idle(Duration::from_secs(30)) == "over" {
            break;
        }
        d.play_first_legal();
    }
    d.idle(Duration::from_secs(30));

    // A replay of a kete-arena game given with --games: choose it, step to
    // its end through the move list, compare the board at every few moves.
    d.script(
        "const g = document.getElementById('gamelist'); g.value = '0'; g.dispatchEvent(new Event('change'));",
    );
    let record: Value = serde_json::from_str(
        std::fs::read_to_string(games)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let n = record["opening"]["moves"].as_array().unwrap().len()
        + record["moves"].as_array().unwrap().len();
    d.wait(
        "the replayed game",
        &format!(
            "return document.querySelectorAll('#movelist button.mv').length === {n} && document.getElementById('note').textContent.includes(' \\u2013 ');"
        ),
        Duration::from_secs(20),
    );
    let noted = d.script(
        "return [...document.querySelectorAll('#movelist .ev')].some(x => /^(S \\+|N \\+|level)[0-9.]* d[0-9]+$/.test(x.textContent));",
    );
    assert_eq!(
        noted,
        json!(true),
        "the recorded evaluation and depth beside the engines' moves"
    );
    let replay = json!({"variant": record["variant"], "options": record["options"], "start": record["opening"]["fen"]});
    for k in (1..=n).step_by(7).chain([n]) {
        d.script(&format!(
            "document.querySelector('#movelist button.mv[data-ply=\"{k}\"]').click();"
        ));
        d.wait("the replay to step", &format!("return document.getElementById('movesline').value.split(' ').filter(x => x).length === {k};"), Duration::from_secs(20));
        check_board(&d, &s, &mut e, replay.clone());
    }
    let status = d.script("return document.getElementById('status').dataset.over;");
    assert_eq!(status, record["result"]);
    d.screenshot("replay");
}

/// Whether the page's question is showing, and its words.
const QUESTION: &str = "const c = document.getElementById('confirm'); return c.hidden ? null : document.getElementById('confirmtext').textContent;";

#[test]
fn browser_never_loses_a_game_without_asking_and_a_reload_keeps_it() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::start(1400, 1000);
    d.open(&s);
    d.players("human", "human");
    d.engine_ms(250, false);
    d.script("document.getElementById('strength').dispatchEvent(new Event('input'));");
    // A turn of two sowings typed as the move list writes it.
    d.script("document.getElementById('movetext').value = 'C F';");
    d.click("#moveform button");
    wait_moves(&d, "C F");
    d.click("#board g.cell.legal[data-name='a']");
    wait_moves(&d, "C F a");
    let no_question = || assert_eq!(d.script(QUESTION), Value::Null);

    // Two options at fault: each says so, and nothing changes.
    d.script("const i = document.getElementById('opt-Pits'); i.value = '99'; i.dispatchEvent(new Event('change'));");
    d.script("const i = document.getElementById('opt-Seeds'); i.value = '0'; i.dispatchEvent(new Event('change'));");
    let errors = d.script("return ['opt-Pits-error', 'opt-Seeds-error'].map(id => document.getElementById(id).textContent !== '');");
    assert_eq!(errors, json!([true, true]), "every field at fault says so");
    d.script("const i = document.getElementById('opt-Seeds'); i.value = '4'; i.dispatchEvent(new Event('change'));");

    // A typo in an option, corrected to the game's own value: the game goes on.
    d.script("const i = document.getElementById('opt-Pits'); i.value = '9'; i.dispatchEvent(new Event('change'));");
    d.script("const i = document.getElementById('opt-Pits'); i.value = '6'; i.dispatchEvent(new Event('change'));");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(d.moves(), "C F a", "the same value does not restart");
    no_question();
    // Starting from a pasted list asks too.
    d.script("document.getElementById('positions').open = true; document.getElementById('startmoves').value = 'A';");
    d.click("#start");
    d.wait("the question", QUESTION, Duration::from_secs(5));
    d.click("#confirmno");
    assert_eq!(d.moves(), "C F a");
    d.script("document.getElementById('startmoves').value = '';");
    // A real change asks; "keep" keeps the game and puts the field back.
    d.script("const i = document.getElementById('opt-Pits'); i.value = '5'; i.dispatchEvent(new Event('change'));");
    let q = d.wait("the question", QUESTION, Duration::from_secs(5));
    assert!(q.as_str().unwrap().contains("will be lost"), "{q}");
    d.click("#confirmno");
    assert_eq!(d.moves(), "C F a");
    assert_eq!(
        d.script("return document.getElementById('opt-Pits').value;"),
        json!("6")
    );
    d.click("#new");
    d.wait("the question", QUESTION, Duration::from_secs(5));
    d.click("#confirmno");
    assert_eq!(d.moves(), "C F a");

    // A mistyped move: refused, the engine's buttons stay usable, and the
    // refusal goes once the box is edited.
    d.script("document.getElementById('movetext').value = 'Z9';");
    d.click("#moveform button");
    d.wait(
        "the refusal",
        "const t = document.getElementById('moveerror').textContent; return t ? t : null;",
        Duration::from_secs(10),
    );
    assert_eq!(
        d.script("return ['hint', 'go', 'solve'].map(id => document.getElementById(id).disabled);"),
        json!([false, false, false]),
        "the buttons are not left grey after a refused move"
    );
    d.click("#movetext");
    d.keys("\u{E003}");
    assert_eq!(
        d.script("return document.getElementById('moveerror').textContent;"),
        json!(""),
        "the refusal clears when the box is edited"
    );
    d.script("document.getElementById('movetext').value = '';");

    // Looking back counts as the move list's rows: C F a is row 1.
    d.click("#movelist button.mv[data-ply='1']");
    let status = d.wait(
        "a look back",
        "const s = document.getElementById('status'); return s.dataset.state === 'history' ? document.getElementById('statustext').textContent : null;",
        Duration::from_secs(10),
    );
    let status = status.as_str().unwrap();
    assert!(
        status.contains("move 1 of 1 (after South's C)")
            && status.contains("replaces the later moves"),
        "{status}"
    );
    // A pit clicked there asks before the later moves are replaced.
    d.click("#board g.cell.legal[data-name='A']");
    let q = d.wait("the question", QUESTION, Duration::from_secs(5));
    assert!(
        q.as_str()
            .unwrap()
            .contains("replaces the 2 later moves (F a)"),
        "{q}"
    );
    d.click("#confirmno");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        d.script("return game.moves.join(' ');"),
        json!("C F a"),
        "nothing replaced"
    );
    d.keys("\u{E010}");
    wait_moves(&d, "C F a");

    // A reload: the game and the settings are back.
    d.open(&s);
    wait_moves(&d, "C F a");
    assert_eq!(
        d.script("return document.getElementById('strength').value;"),
        json!("250")
    );
    assert_eq!(
        d.script("return [document.getElementById('south').value, document.getElementById('north').value];"),
        json!(["human", "human"])
    );

    // Against kete: the status says the move is being played until its
    // sowing ends; the move list's numbers say for whom; the engine pane
    // shows kete's search after its move.
    d.players("human", "engine");
    d.script("document.getElementById('animate').checked = true;");
    // Every status the page shows from here, in order.
    d.script(
        "window.statuses = []; const t = document.getElementById('statustext');\
         new MutationObserver(() => { const w = t.textContent; if (statuses[statuses.length - 1] !== w) statuses.push(w); })\
           .observe(t, { childList: true, characterData: true, subtree: true });",
    );
    let id = d.wait(
        "a legal pit",
        "const g = document.querySelector('#board g.legal'); return g ? g.id : null;",
        Duration::from_secs(10),
    );
    d.click(&format!("#{}", id.as_str().unwrap()));
    let moving = d.wait(
        "the move in progress",
        "const s = document.getElementById('status'); return s.dataset.state === 'moving' || s.dataset.state === 'you' ? [s.dataset.state, document.getElementById('statustext').textContent, !!document.querySelector('#hand')] : null;",
        Duration::from_secs(10),
    );
    assert_eq!(moving[0], json!("moving"), "{moving}");
    assert!(
        moving[1].as_str().unwrap().starts_with("You play "),
        "{moving}"
    );
    d.engine_ms(250, false);
    for _ in 0..10 {
        d.idle(Duration::from_secs(30));
        if d.script("return game.movers[game.movers.length - 1];") == json!("north") {
            break;
        }
        let id = d.script("return document.querySelector('#board g.legal').id;");
        d.click(&format!("#{}", id.as_str().unwrap()));
        std::thread::sleep(Duration::from_millis(300));
    }
    let evs = d.script(
        "return [...document.querySelectorAll('#movelist td.north .ev')].map(x => x.textContent);",
    );
    let evs = evs.as_array().unwrap();
    assert!(!evs.is_empty());
    for ev in evs {
        let ev = ev.as_str().unwrap();
        assert!(
            ev.starts_with("S +")
                || ev.starts_with("N +")
                || ev == "level"
                || ev.contains(" wins in "),
            "a labelled evaluation: {ev}"
        );
    }
    let head = d.script("return document.getElementById('evaltext').textContent;");
    assert!(
        head.as_str().unwrap().contains("(kete's estimate"),
        "{head}"
    );
    // The status went from the person's move to kete's without a
    // "kete to move" between, and said "Your move" only when it was.
    let statuses = d.script("return statuses;");
    assert!(
        statuses
            .as_array()
            .unwrap()
            .iter()
            .all(|w| !w.as_str().unwrap().starts_with("kete to move")),
        "{statuses}"
    );
    assert!(
        statuses[0].as_str().unwrap().starts_with("You play "),
        "{statuses}"
    );
    // The status says what kete played, at the top where the eye is.
    let status = d.script("return document.getElementById('statustext').textContent;");
    assert!(
        status
            .as_str()
            .unwrap()
            .starts_with("Your move (South) \u{2014} kete played "),
        "{status}"
    );
    // The person's turn is still told above kete's reply.
    let note = d.script("return document.getElementById('note').textContent;");
    let note = note.as_str().unwrap();
    assert!(
        note.starts_with("South played ") && note.contains("\nNorth played "),
        "{note}"
    );
    let pane = d.script("return document.getElementById('search').textContent;");
    assert!(
        pane.as_str()
            .unwrap()
            .starts_with("kete's search for its move "),
        "the engine pane after kete's move: {pane}"
    );

    // New game, said yes to: a new game.
    d.click("#new");
    d.wait("the question", QUESTION, Duration::from_secs(5));
    d.click("#confirmyes");
    wait_moves(&d, "");
    // A person playing North alone sees the board turned, North at the
    // bottom.
    d.players("engine", "human");
    d.wait(
        "the board turned",
        "return document.querySelector('#board svg').dataset.flipped === 'true';",
        Duration::from_secs(10),
    );
}

/// An Oware game from a small position that ends by a repeated position
/// with seeds still on the board: the start token and the moves, found by
/// a search over the rules themselves.
fn oware_repetition_line() -> (String, Vec<String>) {
    use kete::game::{Game, GameRecord};
    use kete::variants::oware::{Oware, OwareRules};
    let token = "0-0-0-1-0-0-0-0-0-1-0-0-23-23-S";
    let start = Oware::from_notation(&OwareRules::default(), token).unwrap();
    fn walk(record: &GameRecord<Oware>, left: usize) -> Option<Vec<String>> {
        if record.ended_by_repetition().is_some() {
            let pos = record.position();
            let banked = (
                pos.store(kete::game::Side::South),
                pos.store(kete::game::Side::North),
            );
            let seeds = record.outcome().and_then(|o| o.seeds)?;
            return (seeds != banked).then(Vec::new);
        }
        if left == 0 || record.outcome().is_some() {
            return None;
        }
        let mut moves = Vec::new();
        record.legal_moves(&mut moves);
        for mv in moves {
            let text = record.position().format_move(mv);
            let next = record.after_text(&text).ok()?;
            if let Some(mut rest) = walk(&next, left - 1) {
                rest.insert(0, text);
                return Some(rest);
            }
        }
        None
    }
    let moves = (1..=30)
        .find_map(|depth| walk(&GameRecord::new(start), depth))
        .expect("a repetition within 30 plies");
    (token.to_string(), moves)
}

#[test]
fn browser_levels_keep_each_strength_mode_and_every_ending_says_how_it_was_counted() {
    if !browser_here() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start();
    let d = Driver::start(1400, 1000);
    d.open(&s);
    d.players("human", "human");

    // The level menu: eight levels by their titles, each below full strength
    // with the Elo measured in the game at its default rules; full
    // strength has none (it depends on the time it is given).
    let levels = d.script(
        "return [...document.getElementById('level').options].map(o => [o.value, o.textContent]);",
    );
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), 8, "{levels:?}");
    assert_eq!(levels[0][0], json!("first-game"));
    assert_eq!(levels[7][0], json!("full"));
    let title = |i: usize| levels[i][1].as_str().unwrap().to_string();
    assert!(title(0).starts_with("First game (Elo "), "{levels:?}");
    assert!((0..7).all(|i| title(i).contains("(Elo ")), "{levels:?}");
    assert_eq!(title(7), "Full strength");
    // Under another rule the Elo was not measured: none is shown.
    let titles_under = |pits: &str| {
        d.script(&format!(
            "const i = document.getElementById('opt-Pits'); i.value = '{pits}'; \
             i.dispatchEvent(new Event('change')); \
             return [...document.getElementById('level').options].map(o => o.textContent);"
        ))
    };
    let other = titles_under("5");
    assert!(
        other
            .as_array()
            .unwrap()
            .iter()
            .all(|t| !t.as_str().unwrap().contains("Elo")),
        "{other:?}"
    );
    let own = titles_under("6");
    assert!(
        own[0].as_str().unwrap().starts_with("First game (Elo "),
        "{own:?}"
    );

    // "kete thinks": each mode keeps its own value; switching never shows
    // an error for a value the page put there.
    let switch = |mode: &str| {
        d.script(&format!(
            "const l = document.getElementById('limit'); l.value = '{mode}'; l.dispatchEvent(new Event('change'));"
        ));
        d.script(
            "return [document.getElementById('strength').value, document.getElementById('strengtherror').textContent];",
        )
    };
    assert_eq!(switch("time"), json!(["1000", ""]));
    assert_eq!(switch("depth"), json!(["12", ""]));
    d.script(
        "const i = document.getElementById('strength'); i.value = '9'; i.dispatchEvent(new Event('input'));",
    );
    assert_eq!(switch("time"), json!(["1000", ""]));
    d.script(
        "const i = document.getElementById('strength'); i.value = '400'; i.dispatchEvent(new Event('input'));",
    );
    assert_eq!(switch("depth"), json!(["9", ""]));
    assert_eq!(switch("time"), json!(["400", ""]));
    d.screenshot("levels");

    // kete at a level answers with a legal move and shows no estimate of
    // its own for it.
    d.script(
        "const l = document.getElementById('level'); l.value = 'beginner'; l.dispatchEvent(new Event('change'));",
    );
    d.engine_ms(300, false);
    d.players("human", "engine");
    d.play_first_legal();
    let after = d.idle(Duration::from_secs(30));
    assert_eq!(after, "you");
    let played = d.moves();
    assert!(played.split(' ').count() >= 2, "kete answered: {played}");

    // An Oware game ended by repetition: the banner and the move list say
    // that each player took the seeds on his side.
    d.players("human", "human");
    d.game("oware");
    let (token, moves) = oware_repetition_line();
    d.script(&format!(
        "document.getElementById('positions').open = true; document.getElementById('starttoken').value = {}; document.getElementById('startmoves').value = {};",
        json!(token),
        json!(moves.join(" "))
    ));
    d.start_pasted();
    let banner = d.wait(
        "the banner",
        "const b = document.getElementById('bannertext'); return document.getElementById('status').dataset.state === 'over' ? b.textContent : null;",
        Duration::from_secs(20),
    );
    let banner = banner.as_str().unwrap();
    assert!(
        banner.contains("a position was repeated")
            && banner.contains(
                "each player took the seeds left on his side: South 1 seed, North 1 seed"
            ),
        "{banner}"
    );
    let end_row = d.script(
        "const r = document.querySelector('#movelist tr.end'); return r ? r.textContent : null;",
    );
    assert_eq!(
        end_row,
        json!(banner),
        "the move list ends with the same words"
    );
    d.screenshot("oware-repetition-end");
}

/// The cells of `variant`'s board at its start, as the library lists them.
fn cells_of(variant: &str) -> usize {
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
