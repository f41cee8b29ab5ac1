//! Described games against other open implementations of them: the
//! drivers of `tests/reference/` play seeded random games in another
//! program (each by its own rules, its code imported from a checkout that
//! is never copied here) and write every ply as JSON lines, one game a
//! line:
//!
//! ```text
//! {"implementation": "owner/name@commit file", "game": "<kete name>", "seed": N,
//!  "start": "<token>", "plies": [{"legal": ["A", ...], "move": "C", "after": "<token>"}, ...],
//!  "end": {"over": bool, "result": "p1win"|"p2win"|"draw"|null, "seeds": [south, north]|null}}
//! ```
//!
//! A token is kete's position token (every pit in sowing order from
//! South's first, the two stores, the side to move). This test replays
//! every game of every `*.jsonl` in `$KETE_REFERENCE` in kete, ply by ply:
//! the start, the legal moves (as sets of texts), the position after the
//! move, and at the end the outcome. After a disagreement it goes on from
//! the implementation's position, so that one difference is counted where
//! it happens and not at every later ply; where kete ends the game and the
//! implementation plays on, only the final outcome is compared after that.
//!
//! Two allowances, both where the game is over on both sides: the letter
//! of the side to move is not compared (a finished game has none), and an
//! implementation that sweeps the seeds left into the stores, or leaves
//! them in the rows for their owners, agrees when each of its stores with
//! its owner's row holds kete's final count.
//!
//! Each disagreement is one of three kinds (`legal-moves`, `board`, `end`)
//! and is classified when the game's `[check] known` lists that kind for
//! that implementation with a reason; the test fails on any other, and on
//! a trace of an implementation that `[check] references` does not list.
//! A reading of the game as one implementation plays it may be written as
//! a description of its own, `tests/reference/readings/<game>/<owner>+
//! <name>.toml`: the same traces are replayed against it too, and it must
//! agree but for its own `[check] known` (this shows that the classified
//! disagreements are those rules and nothing else).
//!
//! With `$KETE_REFERENCE_REPORT` naming a folder, a report per trace file
//! is written there (`docs/described/reference/` keeps them): games, plies
//! compared, games agreed to the end, disagreements by kind with the
//! first few in full. Skipped, saying so, unless `$KETE_REFERENCE` is set.

use kete::game::{Game, GameResult, in_move_order};
use kete::variants::Variant;
use kete::variants::described::spec::Known;
use kete::variants::described::{Described, DescribedRules};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Trace {
    implementation: String,
    game: String,
    seed: u64,
    start: String,
    plies: Vec<Ply>,
    end: End,
}

#[derive(Deserialize)]
struct Ply {
    legal: Vec<String>,
    #[serde(rename = "move")]
    mv: String,
    after: String,
}

#[derive(Deserialize)]
struct End {
    over: bool,
    result: Option<String>,
    seeds: Option<[u32; 2]>,
}

impl Trace {
    /// `owner/name` of the implementation.
    fn reference(&self) -> &str {
        self.implementation
            .split(['@', ' '])
            .next()
            .unwrap_or_default()
    }
}

/// One disagreement, with what the report shows of it.
struct Found {
    kind: &'static str,
    /// Which way it goes, within its kind (the report counts each).
    pattern: &'static str,
    seed: u64,
    /// 1-based; 0 is the start.
    ply: usize,
    before: String,
    mv: String,
    kete_legal: Vec<String>,
    their_legal: Vec<String>,
    kete_after: String,
    their_after: String,
    what: String,
}

/// What one trace file came to against one description.
#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    agreed: usize,
    /// Games the implementation left unfinished (a ply cap, a move that
    /// never returned).
    unfinished: usize,
    /// Games compared only up to a position of the implementation's that
    /// is not a kete position (other seed totals).
    unreadable: usize,
    found: Vec<Found>,
}

fn result_text(r: GameResult) -> &'static str {
    match r {
        GameResult::P1Win => "p1win",
        GameResult::P2Win => "p2win",
        GameResult::Draw => "draw",
    }
}

fn outcome_text(p: &Described) -> String {
    match p.outcome() {
        None => "not over".into(),
        Some(o) => match o.seeds {
            Some((s, n)) => format!("{} {s}-{n}", result_text(o.result)),
            None => result_text(o.result).into(),
        },
    }
}

fn legal_texts(p: &Described) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    in_move_order(p, &moves).into_iter().map(|m| m.1).collect()
}

/// The token without its side letter.
fn board_part(token: &str) -> &str {
    token.rsplit_once('-').map_or(token, |(b, _)| b)
}

/// Whether an implementation's final token counts as kete's final
/// position: each of its stores, with the seeds left in its owner's row
/// (none where it swept them into the stores), holds kete's final count
/// for that player, and its end pits are empty.
fn swept_alike(mine: &Described, theirs: &str) -> bool {
    let Some((s, n)) = mine.outcome().and_then(|o| o.seeds) else {
        return false;
    };
    let cells: Vec<&str> = board_part(theirs).split('-').collect();
    let fields = board_part(&mine.to_notation()).split('-').count();
    let m = mine.rules_ref().m;
    let ends = mine.rules_ref().has_ends() as usize;
    if cells.len() != fields {
        return false;
    }
    let Ok(v) = cells
        .iter()
        .map(|c| c.parse::<u32>())
        .collect::<Result<Vec<u32>, _>>()
    else {
        return false;
    };
    let south: u32 = v[..m].iter().sum();
    let north: u32 = v[m + ends..2 * m + ends].iter().sum();
    let ends_empty = ends == 0 || (v[m] == 0 && v[2 * m + 1] == 0);
    ends_empty && v[fields - 2] + south == s && v[fields - 1] + north == n
}

/// Replays one game in `rules`.
fn compare(rules: &DescribedRules, t: &Trace, tally: &mut Tally) {
    let before = tally.found.len();
    let found = |kind, ply, before: &str, what: String| Found {
        kind,
        pattern: "",
        seed: t.seed,
        ply,
        before: before.to_string(),
        mv: String::new(),
        kete_legal: Vec::new(),
        their_legal: Vec::new(),
        kete_after: String::new(),
        their_after: String::new(),
        what,
    };
    let start = Described::start(rules);
    if start.to_notation() != t.start {
        let mut f = found(
            "board",
            0,
            &t.start,
            format!("kete starts from {}", start.to_notation()),
        );
        f.pattern = "another start";
        tally.found.push(f);
    }
    let mut pos = match Described::from_notation(rules, &t.start) {
        Ok(p) => p,
        Err(e) => {
            let mut f = found("board", 0, &t.start, format!("not a kete position: {e}"));
            f.pattern = "a position kete cannot read";
            tally.found.push(f);
            tally.games += 1;
            return;
        }
    };
    // The position the outcome is judged in: kete's own after the last
    // move where kete agreed, else the implementation's.
    let mut last = pos;
    let n = t.plies.len();
    let mut i = 0;
    while i < n {
        let ply = &t.plies[i];
        let final_ply = i + 1 == n;
        let both_over_after = final_ply && t.end.over;
        if pos.outcome().is_some() {
            let mut f = found(
                "end",
                i + 1,
                &pos.to_notation(),
                format!(
                    "kete: the game is over ({}); the implementation plays on for {} more plies",
                    outcome_text(&pos),
                    n - i
                ),
            );
            f.pattern = "kete ends the game, the implementation plays on";
            f.mv = ply.mv.clone();
            f.their_legal = ply.legal.clone();
            tally.found.push(f);
            // Only the end is compared after this.
            match Described::from_notation(rules, &t.plies[n - 1].after) {
                Ok(p) => last = p,
                Err(_) => {
                    tally.unreadable += 1;
                    return finish(tally, before, true);
                }
            }
            break;
        }
        tally.plies += 1;
        let kete_legal = legal_texts(&pos);
        let mut theirs_legal = ply.legal.clone();
        theirs_legal.sort();
        let mut f = found("legal-moves", i + 1, &pos.to_notation(), String::new());
        f.mv = ply.mv.clone();
        f.kete_legal = kete_legal.clone();
        f.their_legal = theirs_legal.clone();
        f.their_after = ply.after.clone();
        let mut mine = None;
        if kete_legal != theirs_legal {
            let only_k: Vec<&String> = kete_legal
                .iter()
                .filter(|m| !theirs_legal.contains(m))
                .collect();
            let only_t: Vec<&String> = theirs_legal
                .iter()
                .filter(|m| !kete_legal.contains(m))
                .collect();
            f.what = format!("only kete: {only_k:?}; only the implementation: {only_t:?}");
            f.pattern = match (only_k.is_empty(), only_t.is_empty()) {
                (true, _) => "the implementation lists more moves",
                (_, true) => "kete lists more moves",
                _ => "each lists moves the other does not",
            };
        }
        if kete_legal.contains(&ply.mv) {
            let m = pos.parse_move(&ply.mv).expect("a legal move's text parses");
            let mut after = pos.play(m);
            // kete writes a stuck player's pass as a move of his own; the
            // implementations pass without one, naming the other side to
            // move at once. Such passes are played here, so that the
            // position after the move is compared.
            if let Ok(theirs) = Described::from_notation(rules, &ply.after) {
                while after.outcome().is_none()
                    && after.side_to_move() != theirs.side_to_move()
                    && legal_texts(&after) == ["pass"]
                {
                    after = after.play(after.parse_move("pass").expect("pass parses"));
                }
            }
            f.kete_after = after.to_notation();
            mine = Some(after);
        }
        let theirs = Described::from_notation(rules, &ply.after);
        let equal = |a: &Described| {
            let k = a.to_notation();
            k == ply.after
                || (both_over_after
                    && a.outcome().is_some()
                    && (board_part(&k) == board_part(&ply.after) || swept_alike(a, &ply.after)))
        };
        let board_agrees = mine.as_ref().is_some_and(equal);
        // The board after the move is compared where kete could play it.
        let board_differs = mine.is_some() && !board_agrees;
        if !f.what.is_empty() {
            let mut g = found("board", i + 1, &f.before, String::new());
            g.mv = f.mv.clone();
            g.kete_after = f.kete_after.clone();
            g.their_after = f.their_after.clone();
            tally.found.push(f);
            f = g;
        }
        if board_differs || theirs.is_err() {
            f.kind = "board";
            f.what = match &theirs {
                Err(e) => format!("the implementation's position is not a kete position: {e}"),
                Ok(_) => "after the same move".to_string(),
            };
            f.pattern = if theirs.is_err() {
                "a position kete cannot read"
            } else if both_over_after {
                "another final position"
            } else if board_part(&f.kete_after) == board_part(&ply.after) {
                "another player to move"
            } else {
                "another position after the same move"
            };
            tally.found.push(f);
        }
        match (board_agrees, mine, theirs) {
            (true, Some(m), _) => {
                last = m;
                pos = m;
            }
            (_, _, Ok(p)) => {
                last = p;
                pos = p;
            }
            (_, _, Err(_)) => {
                tally.unreadable += 1;
                return finish(tally, before, true);
            }
        }
        i += 1;
    }
    if t.end.over {
        let what = match last.outcome() {
            None => Some("the implementation ends the game; kete plays on".to_string()),
            Some(o) => {
                let result = result_text(o.result);
                let seeds_differ = match (t.end.seeds, o.seeds) {
                    (Some([s, n]), Some(k)) => (s, n) != k,
                    _ => false,
                };
                (t.end.result.as_deref() != Some(result) || seeds_differ)
                    .then(|| format!("kete: {}", outcome_text(&last)))
            }
        };
        if let Some(what) = what {
            let mut f = found(
                "end",
                n,
                &last.to_notation(),
                format!(
                    "{what}; the implementation: {} {}",
                    t.end.result.as_deref().unwrap_or("no result"),
                    t.end
                        .seeds
                        .map_or(String::new(), |[s, n]| format!("{s}-{n}"))
                ),
            );
            f.mv = t.plies.last().map_or(String::new(), |p| p.mv.clone());
            f.pattern = if last.outcome().is_none() {
                "the implementation ends the game, kete plays on"
            } else {
                "another result or other final counts"
            };
            tally.found.push(f);
        }
    }
    finish(tally, before, t.end.over);

    fn finish(tally: &mut Tally, before: usize, over: bool) {
        tally.games += 1;
        if !over {
            tally.unfinished += 1;
        }
        if tally.found.len() == before {
            tally.agreed += 1;
        }
    }
}

fn described(v: Variant, what: &str) -> DescribedRules {
    match v {
        Variant::Described(r) => r,
        other => panic!("{what} is {other:?}, not a described game"),
    }
}

/// The report of one description against one trace file, and the
/// disagreements it leaves unclassified.
fn section(
    title: &str,
    rules: &DescribedRules,
    reference: &str,
    tally: &Tally,
) -> (String, Vec<String>) {
    let known: Vec<Known> = rules
        .rules()
        .spec
        .check
        .known_entries()
        .expect("checked when the description was read");
    let mut s = String::new();
    let mut failures = Vec::new();
    let _ = writeln!(s, "## {title}\n");
    let _ = writeln!(
        s,
        "{} games, {} plies compared, {} games agreed to the end{}{}.\n",
        tally.games,
        tally.plies,
        tally.agreed,
        if tally.unfinished > 0 {
            format!(
                " ({} left unfinished by the implementation)",
                tally.unfinished
            )
        } else {
            String::new()
        },
        if tally.unreadable > 0 {
            format!(
                " ({} compared only up to a position that is not kete's)",
                tally.unreadable
            )
        } else {
            String::new()
        }
    );
    let mut by_kind: BTreeMap<&str, Vec<&Found>> = BTreeMap::new();
    for f in &tally.found {
        by_kind.entry(f.kind).or_default().push(f);
    }
    if by_kind.is_empty() {
        let _ = writeln!(s, "No disagreement.\n");
    }
    for (kind, list) in &by_kind {
        let games: std::collections::BTreeSet<u64> = list.iter().map(|f| f.seed).collect();
        let reasons: Vec<&Known> = known
            .iter()
            .filter(|k| k.reference == reference && k.kind == *kind)
            .collect();
        let class = if reasons.is_empty() {
            failures.push(format!(
                "{title}: {} unclassified {kind} disagreements with {reference}, first in game {} ply {}: {}",
                list.len(),
                list[0].seed,
                list[0].ply,
                list[0].what
            ));
            "UNCLASSIFIED".to_string()
        } else {
            format!(
                "classified: {}",
                reasons
                    .iter()
                    .map(|k| k.reason.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        };
        let _ = writeln!(
            s,
            "### {kind}: {} in {} games\n\n{class}\n",
            list.len(),
            games.len()
        );
        let mut patterns: BTreeMap<&str, usize> = BTreeMap::new();
        for f in list {
            *patterns.entry(f.pattern).or_default() += 1;
        }
        for (p, count) in &patterns {
            let _ = writeln!(s, "- {p}: {count}");
        }
        let _ = writeln!(s, "\nThe first {}:\n", list.len().min(3));
        for f in list.iter().take(3) {
            let _ = writeln!(s, "- game seed {} ply {}: {}", f.seed, f.ply, f.what);
            let _ = writeln!(s, "  - position: `{}`", f.before);
            if !f.mv.is_empty() {
                let _ = writeln!(s, "  - move: `{}`", f.mv);
            }
            if !f.kete_legal.is_empty() || !f.their_legal.is_empty() {
                let _ = writeln!(
                    s,
                    "  - legal in kete: `{}`; in the implementation: `{}`",
                    f.kete_legal.join(" "),
                    f.their_legal.join(" ")
                );
            }
            if !f.kete_after.is_empty() || !f.their_after.is_empty() {
                let _ = writeln!(
                    s,
                    "  - after it in kete: `{}`; in the implementation: `{}`",
                    if f.kete_after.is_empty() {
                        "(not legal)"
                    } else {
                        &f.kete_after
                    },
                    f.their_after
                );
            }
        }
        let _ = writeln!(s);
    }
    for k in known.iter().filter(|k| k.reference == reference) {
        if !by_kind.contains_key(k.kind.as_str()) {
            let _ = writeln!(
                s,
                "Listed in `[check] known` but not seen here: {} ({}).\n",
                k.kind, k.reason
            );
        }
    }
    (s, failures)
}

fn readings(game: &str, reference: &str) -> Vec<PathBuf> {
    let file = format!("{}.toml", reference.replace('/', "+"));
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference/readings")
        .join(game)
        .join(file);
    if p.is_file() { vec![p] } else { Vec::new() }
}

#[test]
fn described_games_agree_with_other_implementations() {
    let Ok(folder) = std::env::var("KETE_REFERENCE") else {
        eprintln!(
            "SKIPPED: set KETE_REFERENCE=<folder of *.jsonl traces written by the drivers of \
             tests/reference/> (and KETE_REFERENCE_REPORT=<folder> for the reports) to compare \
             described games with other implementations"
        );
        return;
    };
    let report_dir = std::env::var("KETE_REFERENCE_REPORT").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("KETE_REFERENCE={folder}: {e}"))
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "KETE_REFERENCE={folder} has no *.jsonl");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("the trace file reads");
        let traces: Vec<Trace> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .enumerate()
            .map(|(k, l)| {
                serde_json::from_str(l)
                    .unwrap_or_else(|e| panic!("{} line {}: {e}", path.display(), k + 1))
            })
            .collect();
        assert!(!traces.is_empty(), "{} has no game", path.display());
        let first = &traces[0];
        let (game, reference) = (first.game.clone(), first.reference().to_string());
        let implementations: std::collections::BTreeSet<&str> =
            traces.iter().map(|t| t.implementation.as_str()).collect();
        assert!(
            traces
                .iter()
                .all(|t| t.game == game && t.reference() == reference),
            "{}: one game of one implementation a file",
            path.display()
        );
        let rules = described(
            Variant::by_name(&game).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
            &game,
        );
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if !rules.rules().spec.check.references.contains(&reference) {
            failures.push(format!(
                "{name}: {reference} is not in {game}'s [check] references"
            ));
        }
        let mut report = format!(
            "# {game} against {reference}\n\nTraces `{name}.jsonl`: {}.\nGenerated by `tests/reference.rs` \
             (see its header for what is compared).\n\n",
            implementations
                .into_iter()
                .map(|i| format!("`{i}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut against = vec![(format!("kete's {game}"), rules)];
        for r in readings(&game, &reference) {
            let v = Variant::from_file(r.to_str().expect("a UTF-8 path"))
                .unwrap_or_else(|e| panic!("{e}"));
            let shown = r
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(&r)
                .display()
                .to_string();
            against.push((
                format!("the reading `{}`", shown.trim_start_matches('/')),
                described(v, &shown),
            ));
        }
        for (title, rules) in &against {
            let mut tally = Tally::default();
            for t in &traces {
                compare(rules, t, &mut tally);
            }
            let (text, fails) = section(title, rules, &reference, &tally);
            eprintln!(
                "{name}: {title}: {} games, {} agreed, {} disagreements",
                tally.games,
                tally.agreed,
                tally.found.len()
            );
            report.push_str(&text);
            failures.extend(fails.into_iter().map(|f| format!("{name}: {f}")));
        }
        if let Some(dir) = &report_dir {
            std::fs::create_dir_all(dir).expect("the report folder");
            std::fs::write(Path::new(dir).join(format!("{name}.md")), report)
                .expect("the report writes");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
