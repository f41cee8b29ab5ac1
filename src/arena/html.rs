//! The report as a page: `report.html` beside `report.md`, from the same
//! tally and the same rows, with charts drawn as inline SVG — who is ahead
//! as the games came in (Elo with its 95% interval for two engines, each
//! one's score for more), the SPRT's log-likelihood ratio, time per move
//! per engine, how the games ended. One file, no script, nothing fetched:
//! it opens offline.

use std::fmt::Write as _;

use super::record::GameLine;
use super::report::{
    PAIRINGS, ReportHeader, STANDINGS, Tally, crosstable_cell, pairing_rows, quantile,
    sorted_times, standings_rows, time_rows,
};
use super::stats;

/// The charts a report can have, by their `data-chart` name.
pub const CHARTS: [&str; 4] = ["progress", "sprt", "time", "endings"];

const TIME_COLUMNS: [&str; 7] = [
    "engine",
    "moves",
    "median ms",
    "99th percentile ms",
    "max ms",
    "overruns",
    "time losses",
];

const COLOURS: [&str; 8] = [
    "#1b5fa8", "#c0392b", "#2d8a3e", "#b5651d", "#7d3c98", "#138d90", "#7f8c8d", "#d4ac0d",
];

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1000px;padding:1em;color:#222;background:#fbf8f2}\
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:2px solid #d8c6ad}\
table{border-collapse:collapse;margin:.5em 0;font-size:.95em}th,td{border:1px solid #d8c6ad;padding:.25em .6em}\
th{background:#f1e6d3}td.n{text-align:right;font-variant-numeric:tabular-nums}\
figure{margin:1em 0}figcaption{color:#555;font-size:.9em}svg.chart{width:100%;max-width:680px;height:auto;background:#fff;border:1px solid #d8c6ad}\
ul{padding-left:1.2em}";

/// Escapes text for HTML and SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page: the settings, then a section per part of report.md, each
/// table with its chart.
pub fn render_html(h: &ReportHeader, t: &Tally, games: &[GameLine]) -> String {
    let mut s = String::new();
    settings(&mut s, h, t);
    standings(&mut s, t, games);
    pairings(&mut s, t);
    if let Some(sprt) = &h.sprt {
        sprt_section(&mut s, t, games, sprt);
    }
    times(&mut s, t);
    endings(&mut s, t);
    failures(&mut s, t);
    s.push_str("</body>\n</html>\n");
    s
}

/// The head of the page and the tournament's settings.
fn settings(s: &mut String, h: &ReportHeader, t: &Tally) {
    let opts: Vec<String> = h.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = write!(
        s,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>kete-arena report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&h.variant)
    );
    let _ = writeln!(s, "<h1>kete-arena report</h1>");
    let _ = writeln!(s, "<ul class=\"settings\">");
    if opts.is_empty() {
        let _ = writeln!(s, "<li>variant: {}</li>", esc(&h.variant));
    } else {
        let _ = writeln!(
            s,
            "<li>variant: {} ({})</li>",
            esc(&h.variant),
            esc(&opts.join(", "))
        );
    }
    let _ = writeln!(s, "<li>openings: {}</li>", esc(&h.openings));
    let _ = writeln!(
        s,
        "<li>games: {} played of {} scheduled; {} plies in all; games longer than {} plies are adjudicated by the seed count</li>",
        t.games, h.scheduled, t.plies, h.max_plies
    );
    if let Some(shard) = h.shard {
        let _ = writeln!(
            s,
            "<li>shard {shard}: this folder holds only this shard's games; <code>kete-arena merge</code> joins the shards into the whole report</li>"
        );
    }
    for e in &h.engines {
        let _ = writeln!(s, "<li>engine {}</li>", esc(e));
    }
    let _ = writeln!(s, "</ul>");
}

/// The standings and who was ahead as the games came in.
fn standings(s: &mut String, t: &Tally, games: &[GameLine]) {
    let _ = writeln!(s, "<h2>Standings</h2>");
    let _ = writeln!(
        s,
        "<p>Elo is each engine's against the field it met, from its own W/D/L (95% interval).</p>"
    );
    table(s, "standings", &STANDINGS, &standings_rows(t));
    figure(
        s,
        "progress",
        &progress_chart(t, games),
        if t.names.len() == 2 {
            "As the games came in (in schedule order): the first engine's Elo against the second, with its 95% interval."
        } else {
            "As the games came in (in schedule order): each engine's score against the field."
        },
    );
}

/// Each pairing and the crosstable.
fn pairings(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "<h2>Pairings</h2>");
    let _ = writeln!(
        s,
        "<p>From the first engine's point of view. Pentanomial: game pairs (one opening, both colours) in which it took 0, ½, 1, 1½, 2 points; the pair Elo uses them.</p>"
    );
    table(s, "pairings", &PAIRINGS, &pairing_rows(t));

    let _ = writeln!(s, "<h2>Crosstable</h2>");
    let _ = writeln!(
        s,
        "<p>Points of the row engine against the column engine.</p>"
    );
    let mut head = vec![String::new()];
    head.extend(t.names.iter().cloned());
    let rows: Vec<Vec<String>> = (0..t.names.len())
        .map(|r| {
            let mut row = vec![t.names[r].clone()];
            row.extend((0..t.names.len()).map(|c| crosstable_cell(t, r, c)));
            row
        })
        .collect();
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    table(s, "crosstable", &head, &rows);
}

/// The SPRT's verdict and its log-likelihood ratio as the games came in.
fn sprt_section(s: &mut String, t: &Tally, games: &[GameLine], sprt: &stats::Sprt) {
    let Some((llr, state)) = t.sprt(sprt) else {
        return;
    };
    let (lo, hi) = sprt.bounds();
    let verdict = match state {
        stats::SprtState::Continue => "no decision yet",
        stats::SprtState::AcceptH0 => "H0 accepted (lower bound crossed)",
        stats::SprtState::AcceptH1 => "H1 accepted (upper bound crossed)",
    };
    let _ = writeln!(s, "<h2>SPRT</h2>");
    let _ = writeln!(
        s,
        "<p class=\"sprt\">elo0 = {}, elo1 = {}, alpha = {}, beta = {} (logistic Elo, pentanomial): LLR {llr:.3} in [{lo:.3}, {hi:.3}]: {verdict}.</p>",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    );
    figure(
        s,
        "sprt",
        &sprt_chart(t, games, sprt),
        "The log-likelihood ratio as the games came in, between the bounds that decide the test.",
    );
}

/// Time per move, per engine.
fn times(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "<h2>Time per move</h2>");
    let _ = writeln!(
        s,
        "<p>Wall time from <code>go</code> to <code>bestmove</code> as the runner saw it. Overruns: moves longer than their <code>st</code> or than the clock left (the time margin not counted).</p>"
    );
    table(s, "times", &TIME_COLUMNS, &time_rows(t));
    figure(
        s,
        "time",
        &time_chart(t),
        "Each engine's time per move: the bar to its median, the line to its 99th percentile, the dot at its longest move.",
    );
}

/// How the games ended, and why the rules ended them.
fn endings(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "<h2>How the games ended</h2>");
    let mut rows: Vec<Vec<String>> = t
        .terminations
        .iter()
        .map(|(k, v)| vec![k.as_str().to_string(), v.to_string()])
        .collect();
    table(s, "terminations", &["termination", "games"], &rows);
    if !t.endings.is_empty() {
        let _ = writeln!(
            s,
            "<p>By the rules, why (as <code>query reason</code> names it):</p>"
        );
        rows = t
            .endings
            .iter()
            .map(|(k, v)| vec![k.clone(), v.to_string()])
            .collect();
        table(s, "endings", &["reason", "games"], &rows);
    }
    figure(
        s,
        "endings",
        &endings_chart(t),
        "Games by how they ended, and those the rules ended by why.",
    );
}

/// Games lost by failures (crashes, time, illegal moves), by reason.
fn failures(s: &mut String, t: &Tally) {
    let _ = writeln!(s, "<h2>Failures by reason</h2>");
    if t.failures.is_empty() {
        let _ = writeln!(s, "<p>None.</p>");
    } else {
        let rows: Vec<Vec<String>> = t
            .failures
            .iter()
            .map(|((engine, kind), v)| {
                vec![engine.clone(), kind.as_str().to_string(), v.to_string()]
            })
            .collect();
        table(s, "failures", &["engine", "reason", "games lost"], &rows);
    }
}

/// A table; cells that are numbers are aligned right.
fn table(s: &mut String, class: &str, head: &[&str], rows: &[Vec<String>]) {
    let _ = write!(s, "<table class=\"{class}\">\n<thead><tr>");
    for h in head {
        let _ = write!(s, "<th scope=\"col\">{}</th>", esc(h));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        s.push_str("<tr>");
        for cell in row {
            let numeric = cell
                .trim_end_matches('%')
                .trim_start_matches(['+', '-'])
                .parse::<f64>()
                .is_ok();
            let _ = write!(
                s,
                "<td{}>{}</td>",
                if numeric { " class=\"n\"" } else { "" },
                esc(cell)
            );
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n");
}

fn figure(s: &mut String, name: &str, svg: &str, caption: &str) {
    let _ = writeln!(
        s,
        "<figure data-chart=\"{name}\">\n{svg}\n<figcaption>{}</figcaption>\n</figure>",
        esc(caption)
    );
}

/// A round step for about `n` ticks over `span`.
fn nice_step(span: f64, n: f64) -> f64 {
    let raw = (span / n).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    mag * if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    }
}

fn num(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round())
    } else {
        format!("{x:.1}")
    }
}

/// A line drawn through points.
struct Series {
    name: String,
    points: Vec<(f64, f64)>,
    /// An interval around each point (x, low, high), drawn as a band.
    band: Vec<(f64, f64, f64)>,
}

/// A chart of lines over `x` from 0 to `x_max`, `y` from `y_lo` to `y_hi`,
/// with dashed level lines.
#[allow(clippy::too_many_arguments)]
fn line_chart(
    name: &str,
    title: &str,
    x_label: &str,
    y_label: &str,
    x_max: f64,
    (y_lo, y_hi): (f64, f64),
    series: &[Series],
    levels: &[(f64, String)],
) -> String {
    let (w, hgt) = (680.0, 280.0);
    let (l, r, top, bottom) = (64.0, 150.0, 34.0, 40.0);
    let (pw, ph) = (w - l - r, hgt - top - bottom);
    let x_max = x_max.max(1.0);
    let (y_lo, y_hi) = if y_hi - y_lo < 1e-9 {
        (y_lo - 1.0, y_hi + 1.0)
    } else {
        (y_lo, y_hi)
    };
    let px = |x: f64| l + pw * x / x_max;
    let py = |y: f64| top + ph * (1.0 - (y.clamp(y_lo, y_hi) - y_lo) / (y_hi - y_lo));
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart\" data-chart=\"{name}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {hgt}\" role=\"img\" aria-label=\"{}\">",
        esc(title)
    );
    let _ = write!(
        s,
        "<text x=\"{l}\" y=\"20\" font-size=\"14\" font-weight=\"600\">{}</text>",
        esc(title)
    );
    // Grid and ticks.
    let ys = nice_step(y_hi - y_lo, 5.0);
    let mut y = (y_lo / ys).ceil() * ys;
    while y <= y_hi + 1e-9 {
        let _ = write!(
            s,
            "<line x1=\"{l}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#eee\"/><text x=\"{2}\" y=\"{3:.1}\" font-size=\"11\" text-anchor=\"end\">{4}</text>",
            py(y),
            l + pw,
            l - 6.0,
            py(y) + 4.0,
            num(y)
        );
        y += ys;
    }
    let xs = nice_step(x_max, 8.0).max(1.0);
    let mut x = 0.0;
    while x <= x_max + 1e-9 {
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" y1=\"{1}\" x2=\"{0:.1}\" y2=\"{2}\" stroke=\"#999\"/><text x=\"{0:.1}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">{4}</text>",
            px(x),
            top + ph,
            top + ph + 4.0,
            top + ph + 16.0,
            num(x)
        );
        x += xs;
    }
    let _ = write!(
        s,
        "<rect x=\"{l}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#999\"/>"
    );
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
        l + pw / 2.0,
        hgt - 6.0,
        esc(x_label)
    );
    let _ = write!(
        s,
        "<text x=\"14\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 {:.1})\">{}</text>",
        top + ph / 2.0,
        top + ph / 2.0,
        esc(y_label)
    );
    for (v, label) in levels {
        if *v < y_lo || *v > y_hi {
            continue;
        }
        let _ = write!(
            s,
            "<line x1=\"{l}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#555\" stroke-dasharray=\"5 4\"/><text x=\"{2}\" y=\"{3:.1}\" font-size=\"11\">{4}</text>",
            py(*v),
            l + pw,
            l + pw + 6.0,
            py(*v) + 4.0,
            esc(label)
        );
    }
    for (k, se) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        if se.band.len() > 1 {
            let upper: Vec<String> = se
                .band
                .iter()
                .map(|&(x, _, hi)| format!("{:.1},{:.1}", px(x), py(hi)))
                .collect();
            let lower: Vec<String> = se
                .band
                .iter()
                .rev()
                .map(|&(x, lo, _)| format!("{:.1},{:.1}", px(x), py(lo)))
                .collect();
            let _ = write!(
                s,
                "<polygon class=\"band\" points=\"{} {}\" fill=\"{colour}\" fill-opacity=\"0.15\" stroke=\"none\"/>",
                upper.join(" "),
                lower.join(" ")
            );
        }
        if !se.points.is_empty() {
            let pts: Vec<String> = se
                .points
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
                .collect();
            let _ = write!(
                s,
                "<polyline class=\"line\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                pts.join(" ")
            );
        }
        // The legend, at the right; one series is named by the title (and
        // its legend would sit on the top level's label).
        if series.len() < 2 {
            continue;
        }
        let ly = top + 14.0 + 18.0 * k as f64;
        let _ = write!(
            s,
            "<line x1=\"{0}\" y1=\"{1:.1}\" x2=\"{2}\" y2=\"{1:.1}\" stroke=\"{colour}\" stroke-width=\"3\"/><text x=\"{3}\" y=\"{4:.1}\" font-size=\"11\">{5}</text>",
            l + pw + 6.0,
            ly,
            l + pw + 24.0,
            l + pw + 28.0,
            ly + 4.0,
            esc(&se.name)
        );
    }
    s.push_str("</svg>");
    s
}

/// The games in schedule order, as they came in.
fn in_order(games: &[GameLine]) -> Vec<&GameLine> {
    let mut v: Vec<&GameLine> = games.iter().collect();
    v.sort_by_key(|g| g.id);
    v
}

fn fresh(t: &Tally) -> Tally {
    let pairs: Vec<(usize, usize)> = t.pairings.iter().map(|p| (p.a, p.b)).collect();
    Tally::new(t.names.clone(), &pairs)
}

/// Who is ahead as the games came in.
fn progress_chart(t: &Tally, games: &[GameLine]) -> String {
    let mut run = fresh(t);
    if t.names.len() == 2 {
        let mut se = Series {
            name: format!("{} vs {}", t.names[0], t.names[1]),
            points: Vec::new(),
            band: Vec::new(),
        };
        for g in in_order(games) {
            run.add(g);
            let Some(p) = run.pairings.first() else {
                break;
            };
            let a_first = p.a == 0;
            let wdl = if a_first { p.wdl } else { p.wdl.flipped() };
            if let Some(e) = stats::elo_wdl(&wdl)
                && e.elo.is_finite()
            {
                let x = run.games as f64;
                se.points.push((x, e.elo));
                let clamp = |v: f64| if v.is_finite() { v } else { v.signum() * 1e4 };
                se.band.push((x, clamp(e.low), clamp(e.high)));
            }
        }
        let finite: Vec<f64> = se
            .band
            .iter()
            .flat_map(|&(_, lo, hi)| [lo, hi])
            .filter(|v| v.abs() < 1e4)
            .chain(se.points.iter().map(|p| p.1))
            .collect();
        let lo = finite.iter().copied().fold(0.0f64, f64::min).max(-800.0);
        let hi = finite.iter().copied().fold(0.0f64, f64::max).min(800.0);
        line_chart(
            "progress",
            &format!("Elo of {} against {}", t.names[0], t.names[1]),
            "games played",
            "Elo",
            run.games.max(t.games) as f64,
            (lo, hi),
            &[se],
            &[(0.0, "even".into())],
        )
    } else {
        let mut series: Vec<Series> = t
            .names
            .iter()
            .map(|n| Series {
                name: n.clone(),
                points: Vec::new(),
                band: Vec::new(),
            })
            .collect();
        for g in in_order(games) {
            run.add(g);
            let x = run.games as f64;
            for (e, se) in series.iter_mut().enumerate() {
                if let Some(sc) = run.engines[e].score() {
                    se.points.push((x, 100.0 * sc));
                }
            }
        }
        line_chart(
            "progress",
            "Score against the field",
            "games played",
            "score %",
            run.games.max(t.games) as f64,
            (0.0, 100.0),
            &series,
            &[(50.0, "50%".into())],
        )
    }
}

/// The SPRT's log-likelihood ratio as the games came in.
fn sprt_chart(t: &Tally, games: &[GameLine], sprt: &stats::Sprt) -> String {
    let mut run = fresh(t);
    let mut se = Series {
        name: "LLR".into(),
        points: vec![(0.0, 0.0)],
        band: Vec::new(),
    };
    for g in in_order(games) {
        run.add(g);
        if let Some((llr, _)) = run.sprt(sprt) {
            se.points.push((run.games as f64, llr));
        }
    }
    let (lo, hi) = sprt.bounds();
    let ys = se.points.iter().map(|p| p.1);
    let y_lo = ys.clone().fold(lo, f64::min) - 0.2;
    let y_hi = ys.fold(hi, f64::max) + 0.2;
    line_chart(
        "sprt",
        &format!(
            "SPRT: log-likelihood ratio (elo0 {}, elo1 {})",
            sprt.elo0, sprt.elo1
        ),
        "games played",
        "LLR",
        run.games.max(1) as f64,
        (y_lo, y_hi),
        &[se],
        &[
            (hi, format!("H1 at {hi:.2}")),
            (lo, format!("H0 at {lo:.2}")),
            (0.0, "0".into()),
        ],
    )
}

/// Each engine's time per move: median bar, 99th percentile line, longest
/// move dot (on a scale to the largest 99th percentile; a longer move is
/// drawn at the edge with its figure).
fn time_chart(t: &Tally) -> String {
    // Each engine's name with its median, 99th percentile and longest move.
    type Row = (String, Option<(f64, f64, f64)>);
    let rows: Vec<Row> = (0..t.names.len())
        .map(|e| {
            let times = sorted_times(t, e);
            let q = |p: f64| quantile(&times, p);
            let v = match (q(0.5), q(0.99), q(1.0)) {
                (Some(a), Some(b), Some(c)) => Some((a, b, c)),
                _ => None,
            };
            (t.names[e].clone(), v)
        })
        .collect();
    let scale = rows
        .iter()
        .filter_map(|(_, v)| v.map(|v| v.1))
        .fold(0.0f64, f64::max)
        .max(1.0)
        * 1.15;
    let (w, l, r, row_h, top) = (680.0, 130.0, 90.0, 34.0, 34.0);
    let pw = w - l - r;
    let hgt = top + row_h * rows.len() as f64 + 40.0;
    let px = |v: f64| l + pw * (v / scale).min(1.0);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart\" data-chart=\"time\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {hgt}\" role=\"img\" aria-label=\"time per move\"><text x=\"{l}\" y=\"20\" font-size=\"14\" font-weight=\"600\">Time per move (ms)</text>"
    );
    let step = nice_step(scale, 6.0);
    let mut x = 0.0;
    let axis = top + row_h * rows.len() as f64;
    while x <= scale + 1e-9 {
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{1}\" stroke=\"#eee\"/><text x=\"{0:.1}\" y=\"{2}\" font-size=\"11\" text-anchor=\"middle\">{3}</text>",
            px(x),
            axis,
            axis + 14.0,
            num(x)
        );
        x += step;
    }
    for (k, (name, v)) in rows.iter().enumerate() {
        let y = top + row_h * k as f64;
        let colour = COLOURS[k % COLOURS.len()];
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{}</text>",
            l - 8.0,
            y + row_h / 2.0 + 4.0,
            esc(name)
        );
        let Some((median, p99, max)) = *v else {
            let _ = write!(
                s,
                "<text x=\"{l}\" y=\"{:.1}\" font-size=\"11\">no moves</text>",
                y + row_h / 2.0 + 4.0
            );
            continue;
        };
        let _ = write!(
            s,
            "<rect class=\"median\" x=\"{l}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\" fill-opacity=\"0.75\"><title>median {median:.1} ms</title></rect>",
            y + 8.0,
            (px(median) - l).max(1.0),
            row_h - 16.0
        );
        let _ = write!(
            s,
            "<line class=\"p99\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#222\" stroke-width=\"2\"><title>99th percentile {p99:.1} ms</title></line>",
            px(median),
            y + row_h / 2.0,
            px(p99),
            y + row_h / 2.0
        );
        let _ = write!(
            s,
            "<circle class=\"max\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"#222\"><title>longest {max:.1} ms</title></circle><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{} / {}</text>",
            px(max),
            y + row_h / 2.0,
            px(max) + 8.0,
            y + row_h / 2.0 + 4.0,
            num(median),
            num(max)
        );
    }
    s.push_str("</svg>");
    s
}

/// Games by termination, then the rules' endings by why: horizontal bars.
fn endings_chart(t: &Tally) -> String {
    let mut rows: Vec<(String, u64)> = t
        .terminations
        .iter()
        .map(|(k, v)| (k.as_str().to_string(), *v))
        .collect();
    rows.extend(t.endings.iter().map(|(k, v)| (format!("rules: {k}"), *v)));
    let most = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1) as f64;
    let (w, l, r, row_h, top) = (680.0, 190.0, 60.0, 26.0, 34.0);
    let pw = w - l - r;
    let hgt = top + row_h * rows.len().max(1) as f64 + 10.0;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart\" data-chart=\"endings\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {hgt}\" role=\"img\" aria-label=\"how the games ended\"><text x=\"{l}\" y=\"20\" font-size=\"14\" font-weight=\"600\">How the games ended</text>"
    );
    for (k, (name, n)) in rows.iter().enumerate() {
        let y = top + row_h * k as f64;
        let colour = if name.starts_with("rules: ") {
            COLOURS[2]
        } else {
            COLOURS[0]
        };
        let bw = (pw * *n as f64 / most).max(1.0);
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{}</text><rect class=\"bar\" x=\"{l}\" y=\"{:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{colour}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{n}</text>",
            l - 8.0,
            y + row_h / 2.0 + 4.0,
            esc(name),
            y + 5.0,
            row_h - 10.0,
            l + bw + 6.0,
            y + row_h / 2.0 + 4.0
        );
    }
    s.push_str("</svg>");
    s
}
