//! The fuzz targets: each takes any bytes, feeds them to one of kete's
//! readers, and panics when a property fails (a crash is only the least of
//! them). The same file is compiled by the fuzz package (`fuzz/`, under
//! AFL++) and by `tests/fuzz_targets.rs`, which replays the corpus and the
//! regressions on every `cargo test`.
//!
//! Inputs that are slow by nature (Bao's relay moves on a made-up board)
//! run under an interrupt deadline, as the engine runs them: an interrupted
//! call is thrown away, not checked.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kete::game::{Board, MoveError};
use kete::protocol::Engine;
use kete::protocol::output::Output;
use kete::variants::{BoardVisitor, OptionKind, Variant, variant_names};
use parking_lot::Mutex;

// The board's web API, as `kete serve` answers it: the binary's own module,
// compiled here too, so that the bodies it reads are fuzzed as it reads them.
#[allow(dead_code)]
#[path = "../../src/bin/kete/serve/api.rs"]
mod api;
#[allow(dead_code)]
#[path = "../../src/bin/kete/serve/words.rs"]
mod words;

/// A target: any bytes in, a panic when a property fails.
pub type Target = fn(&[u8]);

/// Every target by name, in the order the usage line lists them.
pub const TARGETS: &[(&str, Target)] = &[
    ("position", position),
    ("move_text", move_text),
    ("protocol", protocol),
    ("openings", openings),
    ("book", book),
    ("records", records),
    ("egtb_header", egtb_header),
    ("settings", settings),
    ("web_api", web_api),
    ("description", description),
];

/// The target called `name`.
pub fn by_name(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// How long one made-up position may take to generate or play a move.
const SLOW: Duration = Duration::from_millis(200);

/// The variant byte 0 names, with the rule options byte 1 picks: each
/// option takes its default or, by one bit of byte 1 each, another of its
/// values chosen by byte 2.
fn variant_of(data: &[u8]) -> Variant {
    let names: Vec<&str> = variant_names()
        .into_iter()
        .filter(|n| *n != "toy")
        .collect();
    let pick = data.first().copied().unwrap_or(0) as usize;
    let mut v = Variant::by_name(names[pick % names.len()]).expect("a registered name");
    let bits = data.get(1).copied().unwrap_or(0);
    let which = data.get(2).copied().unwrap_or(0) as i64;
    for (i, o) in v.options().iter().enumerate().take(8) {
        if bits & (1 << i) == 0 {
            continue;
        }
        let value = match &o.kind {
            OptionKind::Spin { min, max, .. } => (min + which % (max - min + 1)).to_string(),
            OptionKind::Combo { values, .. } => values[which as usize % values.len()].to_string(),
        };
        v.set_option(o.name, &value)
            .unwrap_or_else(|e| panic!("option {}={value} from its own table: {e}", o.name));
    }
    v
}

/// The text of `data` (lossy: a reader must take any string).
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Splits `data` at its first 0xFF byte: the text before, the choices after.
fn split(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// The checks of one position read or reached: its token reads back to it,
/// with the same hash; the legal moves are there exactly while the game
/// goes on, each with its own action, its text read back to it.
fn check<G: Board>(pos: &G, seeds: u32) {
    let t = pos.to_notation();
    let back = G::from_notation(&pos.rules(), &t)
        .unwrap_or_else(|e| panic!("'{t}' does not read back: {e}"));
    assert_eq!(&back, pos, "'{t}'");
    assert_eq!(back.hash(), pos.hash(), "'{t}'");
    assert_eq!(back.to_notation(), t);
    assert_eq!(pos.total_seeds(), seeds, "'{t}': seeds not conserved");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if kete::interrupt::tripped() {
        return;
    }
    assert_eq!(moves.is_empty(), pos.outcome().is_some(), "'{t}'");
    let rules = pos.rules();
    for &mv in &moves {
        let m = pos.format_move(mv);
        assert_eq!(pos.parse_move(&m), Ok(mv), "'{t}': '{m}'");
        assert_eq!(G::move_of_action(&rules, G::action_of(mv)), Some(mv));
    }
    let mut obs = vec![f32::NAN; G::observation_len(&rules)];
    pos.observe(pos.side_to_move(), &mut obs);
    assert!(obs.iter().all(|v| v.is_finite() && *v >= 0.0), "'{t}'");
    assert!(!pos.diagram().is_empty());
}

struct PositionTarget<'a>(&'a [u8], &'a [u8]);

impl BoardVisitor for PositionTarget<'_> {
    type Output = ();
    fn visit<G: Board>(self, rules: G::Rules) {
        let PositionTarget(token, choices) = self;
        let Ok(mut pos) = G::from_notation(&rules, &text(token)) else {
            return;
        };
        let _armed = kete::interrupt::arm(Some(Instant::now() + SLOW), &[]);
        let seeds = pos.total_seeds();
        check(&pos, seeds);
        let mut moves = Vec::new();
        for &c in choices {
            pos.legal_moves(&mut moves);
            if moves.is_empty() || kete::interrupt::tripped() {
                return;
            }
            let next = pos.play(moves[c as usize % moves.len()]);
            if kete::interrupt::tripped() {
                return;
            }
            check(&next, seeds);
            pos = next;
        }
    }
}

/// A position token of a variant (bytes 0–2 choose it and its rule
/// options), then moves chosen by the bytes after a 0xFF: a token read
/// prints back to itself, and every position reached keeps its seeds, its
/// hash and its moves' texts.
pub fn position(data: &[u8]) {
    let v = variant_of(data);
    let (token, choices) = split(data.get(3..).unwrap_or_default());
    v.visit_board(PositionTarget(token, choices));
}

struct MoveTarget<'a>(&'a [u8], &'a [u8]);

impl BoardVisitor for MoveTarget<'_> {
    type Output = ();
    fn visit<G: Board>(self, rules: G::Rules) {
        let MoveTarget(choices, move_text) = self;
        let _armed = kete::interrupt::arm(Some(Instant::now() + SLOW), &[]);
        let mut pos = G::start(&rules);
        let mut moves = Vec::new();
        for &c in choices {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[c as usize % moves.len()]);
        }
        pos.legal_moves(&mut moves);
        if kete::interrupt::tripped() {
            return;
        }
        let t = text(move_text);
        match pos.parse_move(&t) {
            Ok(mv) => {
                assert!(moves.contains(&mv), "'{t}' read as an illegal move");
                let again = pos.format_move(mv);
                assert_eq!(pos.parse_move(&again), Ok(mv), "'{t}' → '{again}'");
            }
            Err(MoveError::GameOver) => assert!(moves.is_empty(), "'{t}': not over"),
            Err(_) => {
                let written: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
                assert!(
                    !written.contains(&t),
                    "'{t}' is how a legal move is written, yet refused"
                );
            }
        }
    }
}

/// A move text in a position reached from the start by the moves the
/// bytes before a 0xFF choose: a text read is a legal move, written back
/// and read to the same move; a legal move's own text is never refused.
pub fn move_text(data: &[u8]) {
    let v = variant_of(data);
    let (choices, move_text) = split(data.get(3..).unwrap_or_default());
    v.visit_board(MoveTarget(choices, move_text));
}

/// A writer the protocol target reads back.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The line as the protocol target sends it, or `None` to leave it out:
/// what would touch the machine (files, memory, threads) or run without
/// end is left out or bounded, everything else goes through as written.
fn bounded(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    match words.first().copied() {
        Some("bench") => None,
        Some("setoption")
            if ["egtb", "hash", "threads", "book"]
                .iter()
                .any(|w| lower.contains(w)) =>
        {
            None
        }
        Some("go") if words.contains(&"solve") => None,
        Some("go") if words.contains(&"perft") => {
            let depth_ok = words
                .iter()
                .skip_while(|w| **w != "perft")
                .nth(1)
                .and_then(|d| d.parse::<u32>().ok())
                .is_some_and(|d| d <= 3);
            depth_ok.then(|| line.to_string())
        }
        Some("go") => Some(format!("{line} nodes 2000")),
        _ => Some(line.to_string()),
    }
}

/// Any lines to the engine (searches bounded by nodes): it never panics
/// or hangs, and afterwards still answers `isready` and plays a legal move
/// of a fresh game.
pub fn protocol(data: &[u8]) {
    let out = Captured::default();
    let mut engine = Engine::new(Output::new(Box::new(out.clone())));
    // No database folder (an `isready` would open or build databases in
    // the user's cache) and the smallest table: each input starts fast.
    let mut input = b"setoption name EgtbDir value <empty>\nsetoption name Hash value 1\n".to_vec();
    for raw in data.split(|&b| b == b'\n').take(64) {
        let line = text(raw);
        if let Some(l) = bounded(&line) {
            input.extend_from_slice(l.as_bytes());
            input.push(b'\n');
        }
    }
    input.extend_from_slice(b"stop\nisready\nuginewgame\nposition startpos\ngo depth 2\n");
    engine.run(input.as_slice());
    let printed = String::from_utf8_lossy(&out.0.lock()).into_owned();
    let lines: Vec<&str> = printed.lines().collect();
    let ready = lines
        .iter()
        .rposition(|l| *l == "readyok")
        .expect("no readyok to the last isready");
    let best = lines[ready..]
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("no bestmove to the last go");
    let mv = best.split_whitespace().next().unwrap_or_default();
    assert!(mv != "0000" && !mv.is_empty(), "bestmove {best}");
}

struct OpeningsTarget<'a>(&'a str);

impl BoardVisitor for OpeningsTarget<'_> {
    type Output = ();
    fn visit<G: Board>(self, rules: G::Rules) {
        let _armed = kete::interrupt::arm(Some(Instant::now() + SLOW), &[]);
        for line in self.0.lines().take(16) {
            let Ok(Some((opening, record))) = kete::arena::openings::parse_line::<G>(&rules, line)
            else {
                continue;
            };
            if kete::interrupt::tripped() {
                return;
            }
            let replayed = kete::arena::play::opening_record::<G>(&rules, &opening);
            assert_eq!(replayed.position(), record.position(), "'{line}'");
            assert!(record.outcome().is_none(), "'{line}': an opening over");
        }
    }
}

/// Lines of an openings file: an opening read replays to the position it
/// was read as, and is never over.
pub fn openings(data: &[u8]) {
    let v = variant_of(data);
    v.visit_board(OpeningsTarget(&text(data.get(3..).unwrap_or_default())));
}

/// A Kalah(6,4) opening book: read or refused with its line, never a
/// panic; a book read writes out as text that reads back to the same book.
pub fn book(data: &[u8]) {
    use kete::search::book::Book;
    use kete::variants::kalah::{Kalah, KalahRules};
    let rules = KalahRules::default();
    if let Ok(book) = Book::<Kalah>::parse(&rules, &text(data)) {
        let written = book.to_text(&rules, "fuzz");
        let back = Book::<Kalah>::parse(&rules, &written)
            .unwrap_or_else(|e| panic!("a written book does not read back: {e:?}"));
        assert_eq!(back.len(), book.len());
        assert_eq!(back.to_text(&rules, "fuzz"), written);
    }
}

/// A tournament's record file (`games.jsonl`): read or refused with its
/// line, and every game read writes back to the same game.
pub fn records(data: &[u8]) {
    let Ok(games) = kete::arena::record::parse_bytes(data) else {
        return;
    };
    for g in games {
        let line = serde_json::to_string(&g).expect("a game writes");
        let back: kete::arena::GameLine =
            serde_json::from_str(&line).expect("a written game reads back");
        assert_eq!(serde_json::to_string(&back).expect("a game writes"), line);
    }
}

/// A database file: refused with its reason unless it is whole (header,
/// the size its header promises, checksum); never a panic, and never a
/// table allocated for what the file's size cannot hold.
pub fn egtb_header(data: &[u8]) {
    let path = std::env::temp_dir().join(format!("kete-fuzz-egtb-{}.bin", std::process::id()));
    std::fs::write(&path, data).expect("the temporary folder takes a file");
    let loaded = kete::solve::load(&path);
    let _ = std::fs::remove_file(&path);
    if let Ok(db) = loaded {
        assert!(
            data.len() >= 24,
            "a database read from {} bytes",
            data.len()
        );
        assert!(db.max_seeds() <= 120);
    }
}

/// Tournament settings: a shard reads back from how it is written; a time
/// control read gives time.
pub fn settings(data: &[u8]) {
    let t = text(data);
    if let Ok(shard) = kete::arena::Shard::parse(&t) {
        let again = shard.to_string();
        let back = kete::arena::Shard::parse(&again)
            .unwrap_or_else(|e| panic!("shard '{t}' → '{again}': {e}"));
        assert_eq!(back.to_string(), again);
    }
    if let Ok(tc) = kete::arena::TimeControl::parse(&t) {
        assert!(!tc.base.is_zero(), "'{t}' gives no time");
    }
}

/// A request body of the board's web API (byte 0 picks `/api/state`,
/// `/api/move` or a replay of `games.jsonl`): answered, or refused with a
/// 4xx status and a message; never a panic.
pub fn web_api(data: &[u8]) {
    let body = text(data.get(1..).unwrap_or_default());
    let _armed = kete::interrupt::arm(Some(Instant::now() + SLOW), &[]);
    let answer = match data.first().copied().unwrap_or(0) % 3 {
        0 => api::answer("/api/state", &body),
        1 => api::answer("/api/move", &body),
        _ => api::replay_games(&body),
    };
    if let Err(e) = answer {
        assert!((400..500).contains(&e.status), "{} {}", e.status, e.message);
        assert!(!e.message.is_empty());
    }
}

/// A game description (the text before a 0xFF), then moves chosen by the
/// bytes after it: a description is read or refused with a message, never
/// a panic, and the game it describes keeps every property `check` asks
/// of a position, from its start through the moves chosen.
pub fn description(data: &[u8]) {
    let (desc, choices) = split(data);
    let text = text(desc);
    // Compiled, not loaded: a fuzzer's millions of descriptions are not
    // kept for the life of the process as a user's files are.
    let rules = match kete::variants::described::catalogue::compile(&text) {
        Ok(r) => r,
        Err(e) => {
            assert!(!e.0.is_empty(), "a refusal without a message");
            return;
        }
    };
    let rules: &'static _ = Box::leak(Box::new(rules));
    let rules = kete::variants::described::DescribedRules(rules);
    PositionTarget(
        kete::game::Game::to_notation(
            &<kete::variants::described::Described as kete::game::Game>::start(&rules),
        )
        .as_bytes(),
        choices,
    )
    .visit::<kete::variants::described::Described>(rules);
}
