//! Tallies of finished games, the live progress line and the Markdown
//! report.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use super::record::{GameLine, Termination};
use super::schedule::Shard;
use super::stats::{self, Pentanomial, Sprt, SprtState, Wdl};

/// The games between two engines, from the first one's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingTally {
    pub a: usize,
    pub b: usize,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// Points of `a` in pairs of which one game is in.
    open_pairs: HashMap<usize, f64>,
}

/// Everything the progress line and the report say, kept up to date game by
/// game.
#[derive(Clone, Debug)]
pub struct Tally {
    pub names: Vec<String>,
    pub engines: Vec<Wdl>,
    pub pairings: Vec<PairingTally>,
    /// Failures by engine and kind.
    pub failures: BTreeMap<(String, Termination), u64>,
    pub terminations: BTreeMap<Termination, u64>,
    /// Games the rules ended, by why (`GameLine::end`).
    pub endings: BTreeMap<String, u64>,
    pub games: usize,
    pub plies: usize,
    /// Milliseconds per move, by engine (moves whose mover is recorded).
    pub times: Vec<Vec<f64>>,
    /// Moves that took longer than their `st` or the clock left, by engine.
    pub overruns: Vec<u64>,
    index: HashMap<String, usize>,
}

impl Tally {
    pub fn new(names: Vec<String>, pairings: &[(usize, usize)]) -> Tally {
        Tally {
            index: names.iter().cloned().zip(0..).collect(),
            engines: vec![Wdl::default(); names.len()],
            times: vec![Vec::new(); names.len()],
            overruns: vec![0; names.len()],
            pairings: pairings
                .iter()
                .map(|&(a, b)| PairingTally {
                    a,
                    b,
                    ..PairingTally::default()
                })
                .collect(),
            names,
            failures: BTreeMap::new(),
            terminations: BTreeMap::new(),
            endings: BTreeMap::new(),
            games: 0,
            plies: 0,
        }
    }

    /// Counts one game (its engines must be among the names).
    pub fn add(&mut self, g: &GameLine) {
        let (Some(&s), Some(&n)) = (self.index.get(&g.south), self.index.get(&g.north)) else {
            return;
        };
        let Some(south_points) = g.points_of(&g.south) else {
            return;
        };
        self.games += 1;
        self.plies += g.moves.len();
        for m in &g.moves {
            let e = match m.side {
                Some('S') => s,
                Some('N') => n,
                _ => continue,
            };
            self.times[e].push(m.ms);
            if m.limit_ms.is_some_and(|l| m.ms > l) {
                self.overruns[e] += 1;
            }
        }
        let count = |wdl: &mut Wdl, points: f64| {
            if points == 1.0 {
                wdl.w += 1
            } else if points == 0.5 {
                wdl.d += 1
            } else {
                wdl.l += 1
            }
        };
        count(&mut self.engines[s], south_points);
        count(&mut self.engines[n], 1.0 - south_points);
        if let Some(p) = self
            .pairings
            .iter_mut()
            .find(|p| (p.a, p.b) == (s, n) || (p.a, p.b) == (n, s))
        {
            let a_points = if p.a == s {
                south_points
            } else {
                1.0 - south_points
            };
            count(&mut p.wdl, a_points);
            match p.open_pairs.remove(&g.pair) {
                Some(first) => p.penta[((first + a_points) * 2.0).round() as usize] += 1,
                None => {
                    p.open_pairs.insert(g.pair, a_points);
                }
            }
        }
        *self.terminations.entry(g.termination).or_default() += 1;
        if let Some(end) = &g.end {
            *self.endings.entry(end.clone()).or_default() += 1;
        }
        if let Some(o) = &g.offender {
            *self.failures.entry((o.clone(), g.termination)).or_default() += 1;
        }
    }

    /// The SPRT's LLR and state, on the pentanomial counts of the first
    /// pairing (the test is only offered for two engines).
    pub fn sprt(&self, sprt: &Sprt) -> Option<(f64, SprtState)> {
        let p = self.pairings.first()?;
        let llr = sprt.llr_pentanomial(&p.penta);
        Some((llr, sprt.state(llr)))
    }

    /// One line of progress: games so far, and for two engines the match
    /// score, Elo, LOS and the SPRT.
    pub fn progress(&self, total: usize, sprt: Option<&Sprt>) -> String {
        let mut s = format!("[{}/{}]", self.games, total);
        if self.names.len() == 2 {
            let p = &self.pairings[0];
            let _ = write!(
                s,
                " {} vs {}: +{} ={} -{}",
                self.names[p.a], self.names[p.b], p.wdl.w, p.wdl.d, p.wdl.l
            );
            if let Some(e) = stats::elo_wdl(&p.wdl) {
                let _ = write!(
                    s,
                    " ({:.1}%) Elo {} LOS {:.1}%",
                    p.wdl.score().unwrap_or(0.5) * 100.0,
                    e.text(),
                    stats::los(&p.wdl) * 100.0
                );
            }
        } else {
            let mut order: Vec<usize> = (0..self.names.len()).collect();
            order.sort_by(|&x, &y| {
                self.engines[y]
                    .points()
                    .total_cmp(&self.engines[x].points())
            });
            for &e in order.iter().take(4) {
                let w = &self.engines[e];
                let _ = write!(s, " {} {}/{}", self.names[e], w.points(), w.games());
            }
        }
        if let Some(t) = sprt
            && let Some((llr, _)) = self.sprt(t)
        {
            let (lo, hi) = t.bounds();
            let _ = write!(s, " LLR {llr:.2} [{lo:.2}, {hi:.2}]");
        }
        let failed: u64 = self.failures.values().sum();
        if failed > 0 {
            let _ = write!(s, " failures {failed}");
        }
        s
    }
}

/// The tournament's settings as the reports show them (also kept in the
/// output folder's `tournament.json`, from which `merge` writes the report).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ReportHeader {
    pub variant: String,
    pub options: Vec<(String, String)>,
    pub openings: String,
    pub scheduled: usize,
    pub max_plies: usize,
    /// One line per engine: name, command, limits.
    pub engines: Vec<String>,
    pub sprt: Option<Sprt>,
    /// The share of the games this run plays, when the tournament is split.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

pub(super) fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The Markdown report: the settings, then one section a concern, in the
/// order a reader asks (who won, against whom, was it fair, why it ended).
pub fn render(h: &ReportHeader, t: &Tally) -> String {
    let mut s = String::new();
    write_settings(&mut s, h, t);
    write_standings(&mut s, t);
    write_pairings(&mut s, t);
    write_crosstable(&mut s, t);
    write_sprt(&mut s, h, t);
    write_times(&mut s, t);
    write_endings(&mut s, t);
    write_failures(&mut s, t);
    s
}

/// The head of the report: what was played, how much, and by whom.
fn write_settings(s: &mut String, h: &ReportHeader, t: &Tally) {
    let opts: Vec<String> = h.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(s, "# kete-arena report\n");
    if opts.is_empty() {
        // A described game: its description is its rules.
        let _ = writeln!(s, "- variant: {}", h.variant);
    } else {
        let _ = writeln!(s, "- variant: {} ({})", h.variant, opts.join(", "));
    }
    let _ = writeln!(s, "- openings: {}", h.openings);
    let _ = writeln!(
        s,
        "- games: {} played of {} scheduled; {} plies in all; games longer than {} plies are adjudicated by the seed count",
        t.games, h.scheduled, t.plies, h.max_plies
    );
    if let Some(shard) = h.shard {
        let _ = writeln!(
            s,
            "- shard {shard}: this folder holds only this shard's games; `kete-arena merge` joins the shards into the whole report"
        );
    }
    for e in &h.engines {
        let _ = writeln!(s, "- engine {e}");
    }
}

/// Every engine's result against the field, best score first: the
/// standings' rows, one cell a column (`#`, engine, games, W, D, L, points,
/// score, Elo, LOS), as both reports show them.
pub(super) fn standings_rows(t: &Tally) -> Vec<Vec<String>> {
    let mut order: Vec<usize> = (0..t.names.len()).collect();
    order.sort_by(|&x, &y| {
        t.engines[y]
            .score()
            .unwrap_or(0.0)
            .total_cmp(&t.engines[x].score().unwrap_or(0.0))
    });
    order
        .iter()
        .enumerate()
        .map(|(rank, &e)| {
            let w = &t.engines[e];
            vec![
                (rank + 1).to_string(),
                t.names[e].clone(),
                w.games().to_string(),
                w.w.to_string(),
                w.d.to_string(),
                w.l.to_string(),
                w.points().to_string(),
                w.score().map_or("—".into(), pct),
                stats::elo_wdl(w).map_or("—".into(), |x| x.text()),
                pct(stats::los(w)),
            ]
        })
        .collect()
}

/// The standings' column names.
pub(super) const STANDINGS: [&str; 10] = [
    "#", "engine", "games", "W", "D", "L", "points", "score", "Elo", "LOS",
];

/// Every engine's result against the field, best score first.
fn write_standings(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "\n## Standings\n");
    let _ = writeln!(
        s,
        "Elo is each engine's against the field it met, from its own W/D/L (95% interval).\n"
    );
    let _ = writeln!(s, "| {} |", STANDINGS.join(" | "));
    let _ = writeln!(
        s,
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
    );
    for row in standings_rows(t) {
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
}

/// Each pairing's row (pairing, games, W-D-L, score, Elo of the games, of
/// the pairs, the pairs' interval, LOS, pentanomial), from its first
/// engine's side, as both reports show them.
pub(super) fn pairing_rows(t: &Tally) -> Vec<Vec<String>> {
    t.pairings
        .iter()
        .map(|p| {
            vec![
                format!("{} vs {}", t.names[p.a], t.names[p.b]),
                p.wdl.games().to_string(),
                format!("{}-{}-{}", p.wdl.w, p.wdl.d, p.wdl.l),
                p.wdl.score().map_or("—".into(), pct),
                stats::elo_wdl(&p.wdl).map_or("—".into(), |x| x.text()),
                stats::elo_pentanomial(&p.penta).map_or("—".into(), |x| x.text()),
                stats::elo_pentanomial(&p.penta).map_or("—".into(), |x| x.interval_text()),
                pct(stats::los(&p.wdl)),
                format!("{:?}", p.penta),
            ]
        })
        .collect()
}

/// The pairings' column names.
pub(super) const PAIRINGS: [&str; 9] = [
    "pairing",
    "games",
    "W-D-L",
    "score",
    "Elo (games)",
    "Elo (pairs)",
    "95% interval (pairs)",
    "LOS",
    "pentanomial",
];

/// Each pairing's games and game pairs, from its first engine's side.
fn write_pairings(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "\n## Pairings\n");
    let _ = writeln!(
        s,
        "From the first engine's point of view. Pentanomial: game pairs (one opening, both colours) in which it took 0, ½, 1, 1½, 2 points; the pair Elo uses them.\n"
    );
    let _ = writeln!(s, "| {} |", PAIRINGS.join(" | "));
    let _ = writeln!(
        s,
        "| --- | ---: | --- | ---: | --- | --- | --- | ---: | --- |"
    );
    for row in pairing_rows(t) {
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
}

/// Points of each engine against each other one, a row an engine.
fn write_crosstable(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "\n## Crosstable\n");
    let _ = writeln!(s, "Points of the row engine against the column engine.\n");
    let _ = write!(s, "| |");
    for n in &t.names {
        let _ = write!(s, " {n} |");
    }
    let _ = write!(s, "\n| --- |");
    for _ in &t.names {
        let _ = write!(s, " ---: |");
    }
    s.push('\n');
    for (r, rn) in t.names.iter().enumerate() {
        let _ = write!(s, "| {rn} |");
        for c in 0..t.names.len() {
            let _ = write!(s, " {} |", crosstable_cell(t, r, c));
        }
        s.push('\n');
    }
}

/// The points of engine `r` against engine `c` (`—` on the diagonal, empty
/// when they met in no game).
pub(super) fn crosstable_cell(t: &Tally, r: usize, c: usize) -> String {
    if r == c {
        return "—".to_string();
    }
    t.pairings
        .iter()
        .find(|p| (p.a, p.b) == (r, c) || (p.a, p.b) == (c, r))
        .filter(|p| p.wdl.games() > 0)
        .map_or(String::new(), |p| {
            let w = if p.a == r { p.wdl } else { p.wdl.flipped() };
            format!("{}/{}", w.points(), w.games())
        })
}

/// The SPRT's verdict, when the tournament ran one.
fn write_sprt(s: &mut String, h: &ReportHeader, t: &Tally) {
    let Some(sprt) = &h.sprt else {
        return;
    };
    let Some((llr, state)) = t.sprt(sprt) else {
        return;
    };
    let (lo, hi) = sprt.bounds();
    let verdict = match state {
        SprtState::Continue => "no decision yet",
        SprtState::AcceptH0 => "H0 accepted (lower bound crossed)",
        SprtState::AcceptH1 => "H1 accepted (upper bound crossed)",
    };
    let _ = writeln!(s, "\n## SPRT\n");
    let _ = writeln!(
        s,
        "elo0 = {}, elo1 = {}, alpha = {}, beta = {} (logistic Elo, pentanomial): LLR {llr:.3} in [{lo:.3}, {hi:.3}]: {verdict}.",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    );
}

/// Each engine's time per move: its rows (engine, moves, median ms, 99th
/// percentile ms, max ms, overruns, time losses), as both reports show them.
pub(super) fn time_rows(t: &Tally) -> Vec<Vec<String>> {
    t.names
        .iter()
        .enumerate()
        .map(|(e, name)| {
            let times = sorted_times(t, e);
            let at = |q: f64| quantile(&times, q).map_or("—".into(), |v| format!("{v:.1}"));
            let losses = t
                .failures
                .get(&(name.clone(), Termination::Timeout))
                .copied()
                .unwrap_or(0);
            vec![
                name.clone(),
                times.len().to_string(),
                at(0.5),
                at(0.99),
                at(1.0),
                t.overruns[e].to_string(),
                losses.to_string(),
            ]
        })
        .collect()
}

/// Engine `e`'s times per move, sorted.
pub(super) fn sorted_times(t: &Tally, e: usize) -> Vec<f64> {
    let mut times = t.times[e].clone();
    times.sort_by(f64::total_cmp);
    times
}

/// Each engine's time per move: quantiles, overruns and time losses.
fn write_times(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "\n## Time per move\n");
    let _ = writeln!(
        s,
        "Wall time from `go` to `bestmove` as the runner saw it. Overruns: moves longer than their `st` or than the clock left (the time margin not counted).\n"
    );
    let _ = writeln!(
        s,
        "| engine | moves | median ms | 99th percentile ms | max ms | overruns | time losses |"
    );
    let _ = writeln!(s, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for row in time_rows(t) {
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
}

/// The `q` quantile of the sorted `times` by nearest rank: the smallest
/// time with at least `q` of the moves at or below it (`None` for none).
pub(super) fn quantile(times: &[f64], q: f64) -> Option<f64> {
    if times.is_empty() {
        return None;
    }
    let rank = ((q * times.len() as f64).ceil() as usize).clamp(1, times.len());
    Some(times[rank - 1])
}

/// How the games ended: by termination, and why the rules ended them.
fn write_endings(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "\n## How games ended\n");
    let _ = writeln!(s, "| termination | games |");
    let _ = writeln!(s, "| --- | ---: |");
    for (k, v) in &t.terminations {
        let _ = writeln!(s, "| {} | {v} |", k.as_str());
    }
    if !t.endings.is_empty() {
        let _ = writeln!(s, "\nBy the rules, why (as `query reason` names it):\n");
        let _ = writeln!(s, "| reason | games |");
        let _ = writeln!(s, "| --- | ---: |");
        for (k, v) in &t.endings {
            let _ = writeln!(s, "| {k} | {v} |");
        }
    }
}

/// The games an engine lost by failing, by engine and reason.
fn write_failures(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "\n## Failures by reason\n");
    if t.failures.is_empty() {
        let _ = writeln!(s, "None.");
    } else {
        let _ = writeln!(s, "| engine | reason | games lost |");
        let _ = writeln!(s, "| --- | --- | ---: |");
        for ((engine, kind), v) in &t.failures {
            let _ = writeln!(s, "| {engine} | {} | {v} |", kind.as_str());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::record::{MoveLine, OpeningLine};

    fn line(ms: f64, side: Option<char>, limit_ms: Option<f64>) -> MoveLine {
        MoveLine {
            mv: "A".into(),
            ms,
            score: None,
            depth: None,
            side,
            limit_ms,
            ponderhit: false,
        }
    }

    #[test]
    fn the_time_table_gives_each_engine_its_own_moves_quantiles_and_overruns() {
        // A (South) makes 100 moves of 1..=100 ms against a limit of 99 ms
        // (one overrun); B makes one move of 7 ms with no limit; a move
        // without a recorded side counts for nobody.
        let mut moves: Vec<MoveLine> = (1..=100)
            .map(|i| line(i as f64, Some('S'), Some(99.5)))
            .collect();
        moves.push(line(7.0, Some('N'), None));
        moves.push(line(5000.0, None, None));
        let g = GameLine {
            id: 0,
            round: 0,
            pair: 0,
            south: "A".into(),
            north: "B".into(),
            variant: "kalah".into(),
            options: BTreeMap::new(),
            opening: OpeningLine {
                index: 0,
                fen: None,
                moves: Vec::new(),
            },
            moves,
            result: "p2win".into(),
            termination: Termination::Timeout,
            end: None,
            reason: "A lost on time".into(),
            offender: Some("A".into()),
            seeds: None,
            final_position: String::new(),
            engines: None,
        };
        let mut t = Tally::new(vec!["A".into(), "B".into()], &[(0, 1)]);
        t.add(&g);
        assert_eq!(t.overruns, vec![1, 0]);
        let header = ReportHeader {
            variant: "kalah".into(),
            options: Vec::new(),
            openings: "none".into(),
            scheduled: 1,
            max_plies: 400,
            engines: Vec::new(),
            sprt: None,
            shard: None,
        };
        let report = render(&header, &t);
        assert!(
            report.contains("| A | 100 | 50.0 | 99.0 | 100.0 | 1 | 1 |"),
            "{report}"
        );
        assert!(
            report.contains("| B | 1 | 7.0 | 7.0 | 7.0 | 0 | 0 |"),
            "{report}"
        );
    }
}
