//! Every game's board, the address that names one, a phone's screen, a game
//! never lost without asking, and the levels.

use std::time::Duration;

use serde_json::{Value, json};

use super::common::http::Server;
use super::driver::*;

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
    // The page redraws for the new players first (its status with it).
    d.script("document.body.removeAttribute('data-ready');");
    d.players("human", "engine");
    d.wait(
        "the page redrawn for the players",
        "return document.body.getAttribute('data-ready') === '1';",
        Duration::from_secs(10),
    );
    // Each side's field redraws once: both redraws land well within this.
    std::thread::sleep(Duration::from_millis(500));
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
                || ev == "even"
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
