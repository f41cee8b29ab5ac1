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

#[path = "../common/mod.rs"]
mod common;
mod driver;
mod games;

use std::time::{Duration, Instant};

use serde_json::json;

use common::http::{Server, legal_texts};
use driver::*;

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
