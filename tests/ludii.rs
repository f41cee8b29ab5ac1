//! Described games against Ludii: every built-in description with
//! `[check] ludii`, and every description file named in
//! `$KETE_LUDII_FILES` (paths separated by `:`), is played in Ludii
//! (a headless build named by `$KETE_LUDII`, never copied here) by
//! `tests/ludii/LudiiTrace.java`: seeded random games (`$KETE_LUDII_GAMES`,
//! default 200), every decision written down with all its legal moves and
//! the state after it. Each game is then replayed in kete in lockstep: at
//! each position where both stand alike kete's legal moves must be
//! Ludii's, Ludii's chosen move played in kete must leave Ludii's board
//! (after Ludii's forced continuations by the same player, such as relay
//! laps), and both must end the game at the same point with the same
//! result. A Ludii game stops at the end of its first round, or after
//! 3,000 decisions. `$KETE_LUDII_ONLY` (names, comma-separated) plays
//! those descriptions alone.
//!
//! Each game's first disagreement is sorted into a kind (legal moves,
//! board, end); the test fails on a kind that the description's
//! `[check] ludii-differs` does not list with its reason. With
//! `$KETE_LUDII_REPORT` naming a folder, a report per description is
//! written there (`docs/described/ludii/` holds the checked-in ones).
//! Skipped, saying so, unless `$KETE_LUDII` is set.

use kete::game::{Board, Game, GameResult, Outcome, Side, TraceStep};
use kete::variants::Variant;
use kete::variants::described::catalogue;
use kete::variants::described::rules::Rules;
use kete::variants::described::spec::{
    Direction, Disagreement, Opening, Origin, Repetition, ludii_reading,
};
use kete::variants::described::{Described, DescribedRules};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Game `i` of a run uses Java's `Random(SEED + i)`.
#[path = "ludii/run.rs"]
mod run;
use run::*;

const SEED: u64 = 1;
/// Decisions after which a Ludii game is cut.
const MAX_PLIES: usize = 3000;
/// Disagreements written out in full in a report, per kind.
const SHOWN: usize = 3;

// ------------------------------------------------------------ the trace

#[derive(Deserialize)]
struct Trace {
    index: usize,
    seed: u64,
    options: Vec<String>,
    ruleset_matched: Option<String>,
    board: BoardInfo,
    start: State,
    plies: Vec<Ply>,
    end: End,
}

#[derive(Deserialize)]
struct BoardInfo {
    containers: Vec<Container>,
    sites: Vec<Site>,
    maps: Vec<MapInfo>,
    tracks: Vec<TrackInfo>,
}

#[derive(Deserialize)]
struct Container {
    index: usize,
    owner: i64,
    first_site: usize,
    num_sites: usize,
}

#[derive(Deserialize)]
struct Site {
    site: usize,
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
struct MapInfo {
    entries: Vec<(i64, i64)>,
}

#[derive(Deserialize)]
struct TrackInfo {
    name: String,
    sites: Vec<usize>,
}

#[derive(Deserialize)]
struct State {
    counts: Vec<u32>,
    #[serde(default)]
    scores: Option<Vec<i64>>,
    mover: usize,
}

#[derive(Deserialize)]
struct Ply {
    mover: usize,
    legal: Vec<LudiiMove>,
    chosen: usize,
    after: State,
}

#[derive(Deserialize)]
struct LudiiMove {
    from: i64,
    to: i64,
    kind: String,
    #[serde(default)]
    tracks: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct End {
    over: bool,
    reason: String,
    winner: i64,
    status: Option<String>,
}

// ------------------------------------------------------------ places

/// Ludii's sites as kete's places: South is Ludii's first player, his row
/// the bottom one read from the left; North's row is the top one read
/// from the right (his left); the stores are the sites of the map of each
/// player (or, without one, the players' hands); sites between the rows
/// left over are the end pits, the right one first.
struct Places {
    m: usize,
    /// Ludii's site of each kete place.
    site_of: Vec<Option<usize>>,
    /// kete's place of each Ludii site.
    place_of: Vec<Option<usize>>,
    /// Which way each track sows (true: clockwise).
    clockwise: HashMap<String, bool>,
}

impl Places {
    fn new(r: &Rules, b: &BoardInfo, num_sites: usize) -> Result<Places, String> {
        let m = r.m;
        let board = b
            .containers
            .iter()
            .find(|c| c.index == 0)
            .ok_or("the trace has no board container")?;
        let sites: Vec<&Site> = b
            .sites
            .iter()
            .filter(|s| s.site < board.first_site + board.num_sites)
            .collect();
        let ymin = sites.iter().map(|s| s.y).fold(f64::INFINITY, f64::min);
        let ymax = sites.iter().map(|s| s.y).fold(f64::NEG_INFINITY, f64::max);
        let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
        let mut bottom: Vec<&Site> = sites.iter().copied().filter(|s| near(s.y, ymin)).collect();
        let mut top: Vec<&Site> = sites.iter().copied().filter(|s| near(s.y, ymax)).collect();
        if bottom.len() != m || top.len() != m {
            return Err(format!(
                "Ludii's board has {} sites in the bottom row and {} in the top one; the description has {m} pits a row",
                bottom.len(),
                top.len()
            ));
        }
        bottom.sort_by(|a, b| a.x.total_cmp(&b.x));
        top.sort_by(|a, b| b.x.total_cmp(&a.x));
        let mut site_of = vec![None; r.cells];
        for (i, s) in bottom.iter().enumerate() {
            site_of[i] = Some(s.site);
        }
        for (i, s) in top.iter().enumerate() {
            site_of[m + i] = Some(s.site);
        }
        // The stores: a map with an entry for each player, else the hands.
        let pits: HashSet<usize> = bottom.iter().chain(&top).map(|s| s.site).collect();
        let store_map = b.maps.iter().find_map(|map| {
            let get = |p: i64| {
                map.entries
                    .iter()
                    .find(|e| e.0 == p)
                    .map(|e| e.1 as usize)
                    .filter(|s| !pits.contains(s) && *s < num_sites)
            };
            Some((get(1)?, get(2)?))
        });
        let stores = store_map.or_else(|| {
            let hand = |p: i64| {
                b.containers
                    .iter()
                    .find(|c| c.index > 0 && c.owner == p && c.num_sites > 0)
                    .map(|c| c.first_site)
            };
            Some((hand(1)?, hand(2)?))
        });
        if let Some((south, north)) = stores {
            site_of[2 * m] = Some(south);
            site_of[2 * m + 1] = Some(north);
        }
        if r.has_ends() {
            let mut middle: Vec<&Site> = sites
                .iter()
                .copied()
                .filter(|s| !pits.contains(&s.site) && !site_of.contains(&Some(s.site)))
                .collect();
            if middle.len() == 2 {
                middle.sort_by(|a, b| b.x.total_cmp(&a.x));
                site_of[2 * m + 2] = Some(middle[0].site);
                site_of[2 * m + 3] = Some(middle[1].site);
            }
        }
        let mut place_of = vec![None; num_sites];
        for (c, s) in site_of.iter().enumerate() {
            if let Some(s) = s {
                place_of[*s] = Some(c);
            }
        }
        let mut clockwise = HashMap::new();
        for t in &b.tracks {
            let south = |s: usize| place_of.get(s).copied().flatten().filter(|&c| c < m);
            for w in t.sites.windows(2) {
                if let (Some(a), Some(b)) = (south(w[0]), south(w[1])) {
                    if b == a + 1 {
                        clockwise.insert(t.name.clone(), false);
                        break;
                    }
                    if a == b + 1 {
                        clockwise.insert(t.name.clone(), true);
                        break;
                    }
                }
            }
        }
        Ok(Places {
            m,
            site_of,
            place_of,
            clockwise,
        })
    }

    fn count(&self, st: &State, c: usize) -> u32 {
        self.site_of[c].map_or(0, |s| st.counts[s])
    }

    /// Whether Ludii's state is kete's position: every place, no seeds on
    /// a site kete has no place for, and (with `mover`) the player to move.
    fn same(&self, pos: &Described, st: &State, mover: bool) -> bool {
        let r = pos.rules_ref();
        (0..r.cells).all(|c| pos.cell(c) as u32 == self.count(st, c))
            && st
                .counts
                .iter()
                .enumerate()
                .all(|(s, &v)| v == 0 || self.place_of[s].is_some())
            && (!mover || side(st.mover) == Some(pos.side_to_move()))
    }

    /// Each player's store and row, added up.
    fn totals(&self, st: &State) -> (u32, u32) {
        let m = self.m;
        let sum = |r: std::ops::Range<usize>, store: usize| {
            r.map(|c| self.count(st, c)).sum::<u32>() + self.count(st, store)
        };
        (sum(0..m, 2 * m), sum(m..2 * m, 2 * m + 1))
    }

    /// Ludii's state written as kete's position token.
    fn token(&self, r: &Rules, st: &State) -> String {
        let m = self.m;
        let mut order: Vec<usize> = (0..m).collect();
        if r.has_ends() {
            order.push(2 * m + 2);
        }
        order.extend(m..2 * m);
        if r.has_ends() {
            order.push(2 * m + 3);
        }
        order.extend([2 * m, 2 * m + 1]);
        let mut s: String = order
            .iter()
            .map(|&c| format!("{}-", self.count(st, c)))
            .collect();
        s.push(side(st.mover).map_or('?', |x| x.letter()));
        s
    }

    /// A Ludii move as kete writes it; what kete has no move for is
    /// written so that it matches none of kete's.
    fn move_text(&self, r: &Rules, mv: &LudiiMove) -> String {
        if mv.kind == "Pass" {
            // kete's move of a player who cannot move, where its rules
            // let him pass; in other games kete has no such move.
            return "pass".into();
        }
        let place = usize::try_from(mv.from)
            .ok()
            .and_then(|s| self.place_of.get(s).copied().flatten());
        match place {
            Some(c) if mv.kind == "Select" && c < 2 * self.m => {
                let (base, i) = if c < self.m {
                    (b'A', c)
                } else {
                    (b'a', c - self.m)
                };
                let mut t = ((base + i as u8) as char).to_string();
                if r.direction == Direction::Choice {
                    let ways: HashSet<bool> = mv
                        .tracks
                        .iter()
                        .flatten()
                        .filter_map(|t| self.clockwise.get(t).copied())
                        .collect();
                    t.push(match ways.iter().collect::<Vec<_>>()[..] {
                        [true] => '<',
                        [false] => '>',
                        _ => '?',
                    });
                }
                t
            }
            _ => format!("({} {}>{})", mv.kind, mv.from, mv.to),
        }
    }
}

fn side(ludii_player: usize) -> Option<Side> {
    match ludii_player {
        1 => Some(Side::South),
        2 => Some(Side::North),
        _ => None,
    }
}

// ------------------------------------------------------------ replay

/// The first point where kete and Ludii part.
struct Diff {
    kind: Disagreement,
    /// What happened, without the numbers: the report counts games by it.
    cause: String,
    game: usize,
    seed: u64,
    /// Ludii's decision (0-based) and kete's move there.
    ply: usize,
    kete_ply: usize,
    what: String,
    kete_token: String,
    ludii_token: String,
    ludii_counts: Vec<u32>,
    kete_moves: Vec<String>,
    ludii_moves: Vec<String>,
    history: Vec<String>,
}

enum Verdict {
    /// Both ended the game alike (or the round, where Ludii plays rounds).
    Agreed,
    /// Ludii's game was cut at its decision limit before any disagreement.
    Cut,
    Differs(Box<Diff>),
}

struct Replay<'a> {
    r: &'a Rules,
    places: &'a Places,
    trace: &'a Trace,
    pos: Described,
    history: Vec<String>,
    /// Plies where kete's legal moves were compared with Ludii's.
    compared: usize,
}

impl Replay<'_> {
    fn state(&self, i: usize) -> &State {
        if i == 0 {
            &self.trace.start
        } else {
            &self.trace.plies[i - 1].after
        }
    }

    fn ludii_moves(&self, i: usize) -> Vec<String> {
        let mut v: Vec<String> = self.trace.plies.get(i).map_or(Vec::new(), |p| {
            p.legal
                .iter()
                .map(|m| self.places.move_text(self.r, m))
                .collect()
        });
        v.sort();
        v
    }

    /// Whether kete's move `text` leaves the opponent's row empty after
    /// one of its laps before the last (where Ludii, whose laps are
    /// decisions of their own, checks it).
    fn middle_lap_starves(&self, text: &str) -> bool {
        let Ok(mv) = self.pos.parse_move(text) else {
            return false;
        };
        let r = self.pos.rules_ref();
        let opp = r.row(self.pos.side_to_move().other());
        let mut cells: Vec<i64> = (0..r.cells).map(|c| self.pos.cell(c) as i64).collect();
        let mut laps = 0;
        for step in self.pos.play_traced(mv).1 {
            match step {
                TraceStep::Lift { cell, seeds } => {
                    if laps > 0 && cells[opp.clone()].iter().all(|&v| v == 0) {
                        return true;
                    }
                    laps += 1;
                    cells[cell] -= seeds as i64;
                }
                TraceStep::Drop { cell } => cells[cell] += 1,
                TraceStep::Take { from, to, seeds } => {
                    cells[from] -= seeds as i64;
                    cells[to] += seeds as i64;
                }
                TraceStep::Note { .. } => {}
            }
        }
        false
    }

    fn kete_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        let mut v: Vec<String> = moves.iter().map(|&m| self.pos.format_move(m)).collect();
        v.sort();
        v
    }

    fn diff(
        &self,
        kind: Disagreement,
        i: usize,
        st: &State,
        cause: String,
        what: String,
    ) -> Verdict {
        Verdict::Differs(Box::new(Diff {
            kind,
            cause,
            game: self.trace.index,
            seed: self.trace.seed,
            ply: i,
            kete_ply: self.history.len(),
            what,
            kete_token: self.pos.to_notation(),
            ludii_token: self.places.token(self.r, st),
            ludii_counts: st.counts.clone(),
            kete_moves: self.kete_moves(),
            ludii_moves: self.ludii_moves(i),
            history: self.history.clone(),
        }))
    }

    /// Whether Ludii's result is kete's `o`: the winner, and the seeds
    /// where Ludii counted them.
    fn same_result(&self, o: &Outcome) -> Result<(), String> {
        let t = self.trace;
        let kete = match o.result {
            GameResult::P1Win => 1,
            GameResult::P2Win => 2,
            GameResult::Draw => 0,
        };
        let status = t.end.status.as_deref().unwrap_or("");
        if kete != t.end.winner {
            return Err(format!(
                "kete's result is {} {}, Ludii's \"{status}\"",
                o.result,
                seeds(o)
            ));
        }
        let last = self.state(t.plies.len());
        if let (Some((s, n)), Some(scores)) = (o.seeds, &last.scores)
            && scores.iter().any(|&v| v != 0)
            && (s as i64, n as i64) != (scores[0], scores[1])
        {
            return Err(format!(
                "both say {}, but kete counts {s}-{n} and Ludii {}-{}",
                o.result, scores[0], scores[1]
            ));
        }
        Ok(())
    }

    /// Both end the game here: the same result, or an end disagreement.
    fn both_end(&self, i: usize, o: &Outcome, why: &str) -> Verdict {
        match self.same_result(o) {
            Ok(()) => Verdict::Agreed,
            Err(e) => self.diff(
                Disagreement::End,
                i,
                self.state(i),
                format!("both end the game (kete: {why}), with different results"),
                format!("both end the game (kete: {why}); {e}"),
            ),
        }
    }

    fn run(mut self) -> (Verdict, usize) {
        let v = self.replay();
        (v, self.compared)
    }

    fn replay(&mut self) -> Verdict {
        let t = self.trace;
        let n = t.plies.len();
        let rep = self.r.repetition != Repetition::None;
        let mut seen = HashSet::new();
        seen.insert(self.pos);
        let mut repeated = false;
        if !self.places.same(&self.pos, &t.start, true) {
            let what = "the start positions differ".to_string();
            return self.diff(Disagreement::Board, 0, &t.start, what.clone(), what);
        }
        let mut i = 0;
        loop {
            let end = kete_end(&self.pos, repeated);
            if i == n {
                let st = self.state(i);
                let status = t.end.status.as_deref().unwrap_or("");
                return match (t.end.over, t.end.reason.as_str(), end) {
                    (true, _, Some((o, why))) => self.both_end(i, &o, why),
                    (true, _, None) => self.diff(
                        Disagreement::End,
                        i,
                        st,
                        "Ludii ends the game, kete plays on".into(),
                        format!("Ludii ends the game (\"{status}\"), kete plays on"),
                    ),
                    (false, "round_end", Some(_)) => Verdict::Agreed,
                    (false, "round_end", None) => {
                        let what = "Ludii's first round ends, kete plays on".to_string();
                        self.diff(Disagreement::End, i, st, what.clone(), what)
                    }
                    _ => Verdict::Cut,
                };
            }
            let ply = &t.plies[i];
            if let Some((o, why)) = end {
                let passes = ply.legal.iter().all(|m| m.kind == "Pass");
                // Ludii has each stuck player pass before it ends the game
                // (one pass, or both players' where the game ends when
                // neither can move).
                let all_pass = t.plies[i..]
                    .iter()
                    .all(|p| p.legal.iter().all(|m| m.kind == "Pass"));
                if all_pass && t.end.over {
                    return self.both_end(n, &o, why);
                }
                if all_pass && t.end.reason == "round_end" {
                    // Ludii's first round is over; its result is the
                    // match's, which one round does not settle.
                    return Verdict::Agreed;
                }
                let how = if passes {
                    "the stuck player passes and the game goes on"
                } else {
                    "the game goes on"
                };
                return self.diff(
                    Disagreement::End,
                    i,
                    self.state(i),
                    format!("kete ends the game ({why}), in Ludii {how}"),
                    format!(
                        "kete ends the game ({why}: {} {}), in Ludii {how}",
                        o.result,
                        seeds(&o)
                    ),
                );
            }
            let kete_moves = self.kete_moves();
            let ludii_moves = self.ludii_moves(i);
            self.compared += 1;
            if kete_moves != ludii_moves {
                let only = |a: &[String], b: &[String]| {
                    a.iter()
                        .filter(|x| !b.contains(x))
                        .cloned()
                        .collect::<Vec<_>>()
                };
                let (k, l) = (
                    only(&kete_moves, &ludii_moves),
                    only(&ludii_moves, &kete_moves),
                );
                let starving = !k.is_empty() && k.iter().all(|m| self.middle_lap_starves(m));
                let cause = if ludii_moves.iter().all(|m| m == "pass") && starving {
                    "Ludii's player must pass, kete's has moves whose middle lap empties the opponent's row"
                } else if ludii_moves.iter().all(|m| m == "pass") {
                    "Ludii's player must pass, kete's has moves"
                } else if l.is_empty() && starving {
                    "kete has moves that Ludii has not: a middle lap empties the opponent's row"
                } else if l.is_empty() {
                    "kete has moves that Ludii has not"
                } else if k.is_empty()
                    && l.iter().all(|m| {
                        self.pos
                            .parse_move(m)
                            .is_err_and(|e| e.to_string().contains("never ends"))
                    })
                {
                    "Ludii has moves that kete has not: their relay never ends"
                } else if k.is_empty()
                    && l.iter().all(|m| {
                        self.pos
                            .parse_move(m)
                            .is_err_and(|e| e.to_string().contains("leaves the opponent without"))
                    })
                {
                    "Ludii has moves that kete has not: they leave the opponent nothing at their end"
                } else if k.is_empty() {
                    "Ludii has moves that kete has not"
                } else {
                    "each has moves the other has not"
                };
                let what = format!(
                    "the legal moves differ: kete only {}, Ludii only {}",
                    list(&k),
                    list(&l)
                );
                return self.diff(
                    Disagreement::LegalMoves,
                    i,
                    self.state(i),
                    cause.into(),
                    what,
                );
            }
            let chosen = self.places.move_text(self.r, &ply.legal[ply.chosen]);
            let mv = match self.pos.parse_move(&chosen) {
                Ok(mv) => mv,
                Err(e) => {
                    return self.diff(
                        Disagreement::LegalMoves,
                        i,
                        self.state(i),
                        "Ludii's move does not read as kete's".into(),
                        format!("Ludii's move {chosen} is not kete's: {e}"),
                    );
                }
            };
            let next = self.pos.play(mv);
            repeated = rep && !seen.insert(next);
            let over = kete_end(&next, repeated).is_some();
            // Ludii's forced continuations by the same player, until its
            // state is kete's.
            let mut j = i + 1;
            loop {
                let st = &t.plies[j - 1].after;
                let last = j == n && (t.end.over || t.end.reason == "round_end");
                if self.places.same(&next, st, !last) {
                    break;
                }
                // A relay lap by the same player, or his pass that ends
                // the move where Ludii hands him one more decision (a
                // capture inside a relay): kete's move has ended and the
                // other player moves, so it cannot be kete's pass.
                let forced = t.plies.get(j).filter(|p| {
                    let own = p.mover == ply.mover && st.mover == ply.mover && p.legal.len() == 1;
                    own && (p.legal[0].kind != "Pass"
                        || (!over && side(ply.mover) != Some(next.side_to_move())))
                });
                if forced.is_some() {
                    j += 1;
                    continue;
                }
                // Ludii's game was cut inside this move: the rest of its
                // laps are not in the trace.
                if j == n && !t.end.over && t.end.reason != "round_end" {
                    return Verdict::Cut;
                }
                // The game over in kete, whose stores may hold the seeds
                // left that Ludii counts on the board.
                if over && self.places.totals(st) == totals(&next) {
                    break;
                }
                let m = self.places.m;
                let pits = (0..2 * m).any(|c| next.cell(c) as u32 != self.places.count(st, c));
                let ludii_empty = (0..2 * m).all(|c| self.places.count(st, c) == 0);
                // A lap whose last seed is the one sown right after the pit
                // it started from was passed over (12 or 23 seeds on a
                // board of twelve pits).
                let lap = self.r.lap[self.pos.side_to_move().index()].len() - 1;
                let after_skip = self.r.origin == Origin::Skip
                    && self.pos.play_traced(mv).1.iter().any(|step| {
                        matches!(step, TraceStep::Lift { seeds, .. }
                            if *seeds as usize > lap && (*seeds as usize - 1).is_multiple_of(lap))
                    });
                let cause = if pits && ludii_empty {
                    "Ludii's round ends inside the move (its board is empty), kete plays on"
                } else if pits && after_skip {
                    "the pits differ after a lap whose last seed follows the passed-over pit"
                } else if pits {
                    "the pits differ after the move"
                } else if self.places.same(&next, st, false) {
                    "the player to move differs after the move"
                } else {
                    "the stores differ after the move"
                };
                let what = format!(
                    "after {chosen}: kete {}, Ludii {}",
                    next.to_notation(),
                    self.places.token(self.r, st)
                );
                return self.diff(Disagreement::Board, i, self.state(i), cause.into(), what);
            }
            self.history.push(chosen);
            self.pos = next;
            i = j;
        }
    }
}

/// kete's end of the game at `pos`: by its rules, or by its repetition
/// rule when the position came back.
fn kete_end(pos: &Described, repeated: bool) -> Option<(Outcome, &'static str)> {
    if repeated && let Some(o) = pos.repetition_outcome() {
        return Some((o, "repetition"));
    }
    let o = pos.outcome()?;
    Some((o, pos.end_reason().map_or("over", |r| r.code())))
}

fn totals(pos: &Described) -> (u32, u32) {
    pos.seed_count().unwrap_or((0, 0))
}

fn seeds(o: &Outcome) -> String {
    o.seeds.map_or(String::new(), |(s, n)| format!("{s}-{n}"))
}

// ------------------------------------------------------------ a description

struct Target {
    rules: DescribedRules,
    /// The description file, for the report's command.
    file: Option<String>,
    /// The description's own name and the fields Ludii reads otherwise,
    /// where `rules` is its `[check] ludii-reading`.
    reading: Option<(String, String)>,
}

struct Run {
    name: String,
    title: String,
    ludii_file: String,
    ludii_args: Vec<String>,
    options_used: Vec<String>,
    ruleset_matched: Option<String>,
    command: String,
    ludii_summary: String,
    ludii_secs: f64,
    replay_secs: f64,
    games: usize,
    plies: usize,
    compared: usize,
    agreed: usize,
    cut: usize,
    diffs: Vec<Diff>,
    expected: Vec<(Disagreement, String)>,
    unexpected: Vec<String>,
    file: Option<String>,
    /// The description's own name and the fields Ludii reads otherwise,
    /// where the run played its Ludii reading.
    reading: Option<(String, String)>,
}

#[test]
fn described_games_play_as_ludii_plays_them() {
    let Ok(ludii) = std::env::var("KETE_LUDII") else {
        eprintln!(
            "SKIPPED: set KETE_LUDII to a headless Ludii build (classes/ and res/; javac and java \
             on the PATH) to compare the described games with Ludii; KETE_LUDII_FILES \
             (description files, :-separated), KETE_LUDII_GAMES (default 200) and \
             KETE_LUDII_REPORT (a folder for the reports) are optional"
        );
        return;
    };
    let ludii_dir = PathBuf::from(&ludii);
    assert!(
        ludii_dir.join("classes").is_dir() && ludii_dir.join("res").is_dir(),
        "KETE_LUDII={ludii} has no classes/ and res/"
    );
    let games: usize = std::env::var("KETE_LUDII_GAMES")
        .ok()
        .map(|g| {
            g.parse()
                .unwrap_or_else(|_| panic!("KETE_LUDII_GAMES={g} is not a number"))
        })
        .unwrap_or(200);
    let revision = std::fs::read_to_string(ludii_dir.join("LUDII_REVISION"))
        .map(|r| r.trim().chars().take(9).collect::<String>())
        .unwrap_or_else(|_| "unknown".into());

    let mut targets: Vec<Target> = catalogue::built_in()
        .iter()
        .filter(|r| r.spec.check.ludii.is_some())
        .map(|&r| {
            reading_of(Target {
                rules: DescribedRules(r),
                file: None,
                reading: None,
            })
        })
        .collect();
    if let Ok(files) = std::env::var("KETE_LUDII_FILES") {
        for f in files.split(':').filter(|f| !f.is_empty()) {
            let rules = match Variant::from_file(f) {
                Ok(Variant::Described(r)) => r,
                Ok(other) => panic!("{f} is {other:?}"),
                Err(e) => panic!("{e}"),
            };
            assert!(
                rules.0.spec.check.ludii.is_some(),
                "{f} has no [check] ludii: name Ludii's file for it"
            );
            targets.push(reading_of(Target {
                rules,
                file: Some(f.to_string()),
                reading: None,
            }));
        }
    }

    // KETE_LUDII_ONLY (names, comma-separated) plays those descriptions
    // alone, built in or from KETE_LUDII_FILES.
    if let Ok(only) = std::env::var("KETE_LUDII_ONLY") {
        let names: Vec<&str> = only.split(',').map(str::trim).collect();
        targets.retain(|t| {
            names.contains(&t.rules.0.spec.game.name.as_str()) || {
                let own = t.reading.as_ref().map(|(n, _)| n.as_str());
                own.is_some_and(|n| names.contains(&n))
            }
        });
    }

    let tmp = std::env::temp_dir().join(format!("kete-test-ludii-{}", std::process::id()));
    let classes = tmp.join("classes");
    std::fs::create_dir_all(&classes).expect("a temporary folder");
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ludii/LudiiTrace.java");
    let javac = Command::new("javac")
        .arg("-cp")
        .arg(ludii_dir.join("classes"))
        .arg("-d")
        .arg(&classes)
        .arg(source)
        .output()
        .unwrap_or_else(|e| panic!("javac runs: {e}"));
    assert!(
        javac.status.success(),
        "javac LudiiTrace.java:\n{}",
        String::from_utf8_lossy(&javac.stderr)
    );

    let report_dir = std::env::var("KETE_LUDII_REPORT").ok().map(PathBuf::from);
    let mut failures = Vec::new();
    for target in &targets {
        let run = run_one(&ludii_dir, &classes, &tmp, target, games);
        let line = format!(
            "{}: {} games against {} ({:.1} s Ludii, {:.1} s kete): {} agreed to the end, {} cut at {MAX_PLIES} decisions, disagreements: legal-moves {}, board {}, end {}; {} positions compared",
            run.name,
            run.games,
            run.ludii_file,
            run.ludii_secs,
            run.replay_secs,
            run.agreed,
            run.cut,
            run.diffs
                .iter()
                .filter(|d| d.kind == Disagreement::LegalMoves)
                .count(),
            run.diffs
                .iter()
                .filter(|d| d.kind == Disagreement::Board)
                .count(),
            run.diffs
                .iter()
                .filter(|d| d.kind == Disagreement::End)
                .count(),
            run.compared,
        );
        eprintln!("{line}");
        if let Some(dir) = &report_dir {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
            let own = run.reading.as_ref().map_or(&run.name, |(n, _)| n);
            let path = dir.join(format!("{own}.md"));
            std::fs::write(&path, report(&run, games, &revision))
                .unwrap_or_else(|e| panic!("{path:?}: {e}"));
            eprintln!("  report: {}", path.display());
        }
        assert!(run.games > 0, "{}: Ludii played no game", run.name);
        failures.extend(run.unexpected.iter().take(5).cloned());
        if run.unexpected.len() > 5 {
            failures.push(format!(
                "{}: and {} more",
                run.name,
                run.unexpected.len() - 5
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        failures.is_empty(),
        "disagreements with Ludii that the descriptions' [check] ludii-differs does not list:\n{}",
        failures.join("\n")
    );
}

/// `[check]` of a description is read strictly, Ludii or not: every kind
/// of `ludii-differs` known, each once, each with a reason.
#[test]
fn ludii_check_fields_are_read_strictly() {
    let head = "[game]\nname = \"t\"\ntitle = \"T\"\n[board]\npits = 6\nseeds = 4\n";
    let check = |tail: &str| catalogue::compile(&format!("{head}[check]\n{tail}\n"));
    let ok = check(
        "ludii = \"Kalah.lud\"\nludii-options = [\"Ruleset/A\", \"Heading/Item\"]\n\
         ludii-differs = [{ kind = \"legal-moves\", reason = \"a\" }, \
         { kind = \"board\", reason = \"b\" }, { kind = \"end\", reason = \"c\" }]",
    )
    .expect("a full [check] reads");
    let kinds: Vec<Disagreement> = ok.spec.check.ludii_differs.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [
            Disagreement::LegalMoves,
            Disagreement::Board,
            Disagreement::End
        ]
    );
    let refused = [
        (
            "ludii = \"K.lud\"\nludii-differs = [{ kind = \"moves\", reason = \"a\" }]",
            "moves",
        ),
        (
            "ludii = \"K.lud\"\nludii-differs = [{ kind = \"end\" }]",
            "reason",
        ),
        (
            "ludii = \"K.lud\"\nludii-differs = [{ kind = \"end\", reason = \" \" }]",
            "needs a reason",
        ),
        (
            "ludii = \"K.lud\"\nludii-differs = [{ kind = \"end\", reason = \"a\" }, { kind = \"end\", reason = \"b\" }]",
            "listed twice",
        ),
        (
            "ludii = \"K.lud\"\nludii-differs = [{ kind = \"end\", reason = \"a\", why = \"b\" }]",
            "why",
        ),
        (
            "ludii-differs = [{ kind = \"end\", reason = \"a\" }]",
            "without ludii",
        ),
        (
            "ludii = \"K.lud\"\nludii-options = [\"Ruleset/A\", \"Ruleset/B\"]",
            "more than one Ruleset/",
        ),
    ];
    for (tail, says) in refused {
        match check(tail) {
            Ok(_) => panic!("[check] {tail} was read"),
            Err(e) => assert!(
                e.0.contains(says),
                "[check] {tail}: {e} does not say {says}"
            ),
        }
    }
    // Every description's [check] reads, built in or example.
    for r in catalogue::built_in() {
        for d in &r.spec.check.ludii_differs {
            assert!(!d.reason.trim().is_empty());
        }
    }
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/descriptions");
    for entry in std::fs::read_dir(examples).expect("the examples") {
        let path = entry.expect("an example").path();
        let text = std::fs::read_to_string(&path).expect("an example reads");
        catalogue::compile(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    }
}
