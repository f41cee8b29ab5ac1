//! Board drawings: a position of any game as an SVG picture, from its
//! [`Board`] cells alone, so the web board and the Python package's notebook
//! view draw the same board from the same code.
//!
//! Each cell is a group `<g id="cell-N" class="cell pit …" data-cell="N"
//! data-seeds="S" data-name="A" aria-label="A, 4 seeds, legal move">`
//! holding its shape, its seeds as a cluster of pebbles, its count in a
//! badge beside them and its name in a corner of its own square, so that no
//! two labels can meet; a page can style, animate and click the groups
//! (each carries the box its pebbles lie in: `data-px`, `data-py`,
//! `data-pw`, `data-ph`). Stores span both rows; Bao's four rows of eight
//! have each player's seeds in hand beside his two rows. The board can be
//! turned (North at the bottom) and stood up for a narrow screen
//! (`portrait`: the rows become columns); text stays upright and every mark
//! is drawn where its cell is, so arrows and names keep meaning what they
//! show. Marks are shapes as well as colours: a dashed ring for a legal
//! move, a triangle where the last turn started, a diamond where its last
//! seed fell, a cross on a captured pit, a star on a hint. The picture
//! carries its own colours and needs no style sheet.

mod turn;

use std::fmt::Write as _;

pub use turn::Turn;

use crate::game::{Board, Cell, CellKind, Side, StoreSite, Words};

/// How to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// North's side at the bottom (the board turned).
    pub flipped: bool,
    /// The board stood up: the rows become columns (the bottom player's row
    /// on the left, read downwards), for a narrow screen.
    pub portrait: bool,
    /// Cells to mark as playable (their indices).
    pub legal: Vec<usize>,
    /// Cells where the last turn's moves started.
    pub last: Vec<usize>,
    /// Cells the last turn sowed into.
    pub sown: Vec<usize>,
    /// Cells where the last seed of a move of the last turn fell.
    pub ended: Vec<usize>,
    /// Cells the last turn captured.
    pub captured: Vec<usize>,
    /// Cells where the last turn lifted seeds to sow them on (relay laps).
    pub laps: Vec<usize>,
    /// A cell to mark as the suggested move.
    pub hint: Option<usize>,
    /// The players' names beside their sides (South, North), e.g. "you"
    /// and "kete"; empty for none.
    pub players: [String; 2],
    /// Arrows from a pit to a cell: a move's direction, for a page to offer
    /// when a pit has several moves.
    pub arrows: Vec<Arrow>,
}

impl View {
    /// Marks the turn `turn` as the last one.
    pub fn with_turn(mut self, turn: &Turn) -> View {
        self.last = turn.started.clone();
        self.sown = turn.sown.clone();
        self.ended = turn.ended.clone();
        self.captured = turn.captured.clone();
        self.laps = turn.laps.clone();
        self
    }
}

/// An arrow drawn from cell `from` toward cell `to`: the moves it stands
/// for (their texts, space-separated) and what it says in words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arrow {
    pub from: usize,
    pub to: usize,
    pub moves: String,
    pub label: String,
}

/// Side of a pit's square in the drawing's units.
const P: f64 = 100.0;
/// Width of the columns of stores and hands at the ends.
const END: f64 = 88.0;
/// Room round the board.
const PAD: f64 = 10.0;
/// Gap between the two players' sides.
const GAP: f64 = 12.0;
/// Height of the band between the rows where stores stand there (Togyz
/// Kumalak's kazans).
const BAND: f64 = 104.0;
/// Radius of a pit; of the circle its pebbles lie in; of a pebble.
const PIT_R: f64 = 40.0;
const HEAP_R: f64 = 27.0;
const PEBBLE_R: f64 = 6.5;
/// Most pebbles drawn in a pit (the count says the rest).
const MOST_IN_PIT: u32 = 24;

/// Where a cell stands: its centre and size, before the board is stood up.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Place {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// The grid of a board: pits per row, rows per side, the side drawn at
/// the bottom and where the stores stand.
#[derive(Clone, Copy, Debug)]
struct Grid {
    cols: usize,
    rows: usize,
    bottom: Side,
    site: StoreSite,
}

impl Grid {
    fn new(cells: &[Cell], bottom: Side, site: StoreSite) -> Grid {
        let pits = cells.iter().filter(|c| c.kind == CellKind::Pit);
        let cols = pits.clone().map(|c| c.col as usize + 1).max().unwrap_or(1);
        let rows = pits.map(|c| c.row as usize + 1).max().unwrap_or(1);
        Grid {
            cols,
            rows,
            bottom,
            site,
        }
    }

    /// The room left of the pits: a column for the stores at the ends.
    fn left(&self) -> f64 {
        match self.site {
            StoreSite::Ends => END,
            StoreSite::BetweenRows => 0.0,
        }
    }

    /// The room between the two sides.
    fn middle(&self) -> f64 {
        match self.site {
            StoreSite::Ends => GAP,
            StoreSite::BetweenRows => BAND,
        }
    }

    /// The size of the board lying down.
    fn size(&self) -> (f64, f64) {
        (
            2.0 * PAD + 2.0 * self.left() + self.cols as f64 * P,
            2.0 * PAD + (2 * self.rows) as f64 * P + self.middle(),
        )
    }
}

/// The place of `cell`, the board lying down with `bottom`'s side nearest
/// the viewer: a player's pits run from his own left, his front row nearest
/// the middle; stores stand at the ends spanning both sides, each at its
/// owner's right, or between the rows end to end, each on its owner's
/// right half; hands beside their owner's rows.
fn place(cell: &Cell, g: &Grid) -> Place {
    let (cols, rows) = (g.cols, g.rows);
    let mine = cell.side == g.bottom;
    let half = rows as f64 * P;
    let left = g.left();
    let top_of = |mine: bool| if mine { PAD + half + g.middle() } else { PAD };
    if cell.kind == CellKind::Store && g.site == StoreSite::BetweenRows {
        let w = cols as f64 * P / 2.0;
        return Place {
            x: PAD + if mine { 1.5 * w } else { 0.5 * w },
            y: PAD + half + BAND / 2.0,
            w,
            h: BAND,
        };
    }
    match cell.kind {
        CellKind::Pit => {
            let col = if mine {
                cell.col as usize
            } else {
                cols - 1 - cell.col as usize
            };
            // Rows from the top of each side: the far side's back row first,
            // the near side's front row first.
            let row = if mine {
                cell.row as usize
            } else {
                rows - 1 - cell.row as usize
            };
            Place {
                x: PAD + left + (col as f64 + 0.5) * P,
                y: top_of(mine) + (row as f64 + 0.5) * P,
                w: P,
                h: P,
            }
        }
        CellKind::Store | CellKind::Hand | CellKind::End => {
            // The owner's right: the right end for the player at the bottom.
            // A store or end pit with `col` 0 stands at its side's left
            // (a game that sows clockwise keeps its store there).
            let at_left = cell.kind != CellKind::Hand && cell.col == 0;
            let x = if mine != at_left {
                PAD + left + cols as f64 * P + END / 2.0
            } else {
                PAD + END / 2.0
            };
            let (y, h) = if cell.kind != CellKind::Hand {
                (PAD + half + GAP / 2.0, 2.0 * half + GAP)
            } else {
                (top_of(mine) + half / 2.0, half)
            };
            Place { x, y, w: END, h }
        }
    }
}

/// From the board lying down to the drawing: unchanged, or stood up by a
/// quarter turn clockwise (the bottom row to the left, read downwards).
#[derive(Clone, Copy)]
struct Frame {
    portrait: bool,
    /// The height of the board lying down.
    height: f64,
}

impl Frame {
    fn point(&self, x: f64, y: f64) -> (f64, f64) {
        if self.portrait {
            (self.height - y, x)
        } else {
            (x, y)
        }
    }

    /// A place's box in the drawing: its left, top, width and height.
    fn rect(&self, p: &Place) -> (f64, f64, f64, f64) {
        let (cx, cy) = self.point(p.x, p.y);
        let (w, h) = if self.portrait {
            (p.h, p.w)
        } else {
            (p.w, p.h)
        };
        (cx - w / 2.0, cy - h / 2.0, w, h)
    }
}

/// A small number from a few others, to scatter pebbles the same way on
/// every drawing of a position.
fn jitter(a: usize, b: usize) -> f64 {
    let mut h =
        (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (b as u64).wrapping_add(0x632B_E59B);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    (h % 1000) as f64 / 1000.0 - 0.5
}

/// Pebble centres for `n` seeds round `(cx, cy)`: a heap within `radius`,
/// at most [`MOST_IN_PIT`] drawn.
fn heap(n: u32, cx: f64, cy: f64, radius: f64, salt: usize) -> Vec<(f64, f64)> {
    let shown = n.min(MOST_IN_PIT) as usize;
    if shown == 0 {
        return Vec::new();
    }
    let reach = radius - PEBBLE_R - 1.0;
    let step = (reach / ((shown as f64 - 1.0).max(1.0)).sqrt()).min(PEBBLE_R * 1.6);
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..shown)
        .map(|i| {
            let r = step * (i as f64).sqrt();
            let a = i as f64 * golden + salt as f64;
            let j = 1.2 * jitter(salt, i);
            (cx + r * a.cos() + j, cy + r * a.sin() - j)
        })
        .collect()
}

/// Pebble centres for `n` seeds in a box (a store or a hand), packed in
/// rows from the end nearest `(x, y + h)`; as many as fit.
fn packed(n: u32, x: f64, y: f64, w: f64, h: f64, salt: usize) -> Vec<(f64, f64)> {
    if n == 0 || w <= 0.0 || h <= 0.0 {
        return Vec::new();
    }
    let want = n as f64;
    let step = (w * h / want).sqrt().clamp(9.0, 2.0 * PEBBLE_R + 1.0);
    let across = ((w / step).floor() as usize).max(1);
    let down = ((h / step).floor() as usize).max(1);
    let shown = (n as usize).min(across * down);
    let (mx, my) = (
        x + (w - across as f64 * step) / 2.0,
        y + h - (h - down as f64 * step) / 2.0,
    );
    (0..shown)
        .map(|i| {
            let (r, c) = (i / across, i % across);
            let shift = if r % 2 == 1 {
                step * 0.25
            } else {
                -step * 0.25
            };
            (
                mx + (c as f64 + 0.5) * step
                    + shift * (across > 1) as u8 as f64
                    + 1.5 * jitter(salt, i),
                my - (r as f64 + 0.5) * step + 1.5 * jitter(i, salt),
            )
        })
        .collect()
}

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The position `pos` as an SVG picture; the side to move is marked at
/// its store or hand unless the game is over.
pub fn svg<G: Board>(pos: &G, view: &View) -> String {
    let to_move = pos.outcome().is_none().then(|| pos.side_to_move());
    picture(&pos.cells(), to_move, view, pos.store_site(), &pos.words())
}

const FONT: &str = r#"font-family="system-ui, -apple-system, 'Segoe UI', sans-serif""#;
const PEBBLE_FILL: [&str; 4] = ["#f3e9d2", "#e2d3b5", "#cdb892", "#efe0c2"];

/// The cells of a position as an SVG picture; `to_move` is said in its
/// title and marked at its store or hand.
/// Stores stand at the ends, and things are called pits, seeds and stores.
pub fn cells_svg(cells: &[Cell], to_move: Side, view: &View) -> String {
    picture(
        cells,
        Some(to_move),
        view,
        StoreSite::Ends,
        &Words::default(),
    )
}

fn picture(
    cells: &[Cell],
    to_move: Option<Side>,
    view: &View,
    site: StoreSite,
    words: &Words,
) -> String {
    let bottom = if view.flipped {
        Side::North
    } else {
        Side::South
    };
    let g = Grid::new(cells, bottom, site);
    let (lw, lh) = g.size();
    let frame = Frame {
        portrait: view.portrait,
        height: lh,
    };
    let (width, height) = if view.portrait { (lh, lw) } else { (lw, lh) };
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="kete-board{}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="group" aria-label="board, {}" data-portrait="{}" data-flipped="{}">"##,
        if view.portrait { " portrait" } else { "" },
        to_move.map_or("game over".to_string(), |s| format!(
            "{} to move",
            side_name(s)
        )),
        view.portrait,
        view.flipped,
    );
    let _ = write!(
        s,
        r##"<rect class="wood" x="0" y="0" width="{width}" height="{height}" rx="22" fill="#8b5a2b" stroke="#5b3a1e" stroke-width="4"/>"##
    );
    // The line between the two sides (where no stores stand between them).
    if site == StoreSite::Ends {
        let mid = PAD + g.rows as f64 * P + GAP / 2.0;
        let (x0, y0) = frame.point(PAD + END, mid);
        let (x1, y1) = frame.point(PAD + END + g.cols as f64 * P, mid);
        let _ = write!(
            s,
            r##"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#5b3a1e" stroke-width="3" stroke-dasharray="2 6" stroke-linecap="round"/>"##
        );
    }
    for (i, c) in cells.iter().enumerate() {
        cell(&mut s, i, c, to_move, view, &frame, &g, words);
    }
    for a in &view.arrows {
        arrow(&mut s, a, cells, &frame, &g);
    }
    s.push_str("</svg>");
    s
}

/// The marks on cell `i`, in words (for its label) and as shapes.
fn marks(i: usize, view: &View) -> Vec<&'static str> {
    let mut m = Vec::new();
    if view.hint == Some(i) {
        m.push("hint");
    }
    if view.last.contains(&i) {
        m.push("last move started here");
    }
    if view.laps.contains(&i) {
        m.push("relay");
    }
    if view.ended.contains(&i) {
        m.push("last seed");
    }
    if view.captured.contains(&i) {
        m.push("captured");
    }
    m
}

#[allow(clippy::too_many_arguments)]
fn cell(
    s: &mut String,
    i: usize,
    c: &Cell,
    to_move: Option<Side>,
    view: &View,
    frame: &Frame,
    g: &Grid,
    words: &Words,
) {
    let p = place(c, g);
    let (x, y, w, h) = frame.rect(&p);
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let legal = view.legal.contains(&i);
    let player = &view.players[c.side.index()];
    let label = cell_label(c, player, legal, &marks(i, view), words);
    // The box the pebbles lie in.
    let (px, py, pw, ph) = match c.kind {
        CellKind::Pit => (cx - HEAP_R, cy - HEAP_R, 2.0 * HEAP_R, 2.0 * HEAP_R),
        _ => store_heap(x, y, w, h, store_lines(c, player).len()),
    };
    let _ = write!(
        s,
        r##"<g id="cell-{i}" class="{}" data-cell="{i}" data-seeds="{}" data-name="{}" data-px="{px:.1}" data-py="{py:.1}" data-pw="{pw:.1}" data-ph="{ph:.1}" aria-label="{}"{}>"##,
        cell_classes(i, c, view, legal).join(" "),
        c.seeds,
        esc(&c.name),
        esc(&label),
        if legal {
            r#" role="button" tabindex="0""#
        } else {
            r#" role="img""#
        },
    );
    let _ = write!(s, "<title>{}</title>", esc(&label));
    // A square the size of the cell's box takes clicks and taps anywhere
    // in it, pebbles and labels included.
    let _ = write!(
        s,
        r##"<rect class="hit" x="{x}" y="{y}" width="{w}" height="{h}" fill="#000" fill-opacity="0"/>"##
    );
    cell_shape(s, c, legal, (x, y, w, h));
    if c.kind == CellKind::Pit {
        last_turn_ring(s, i, view, cx, cy);
    }
    let spots = match c.kind {
        CellKind::Pit => heap(c.seeds, cx, cy, HEAP_R, i),
        _ => packed(c.seeds, px, py, pw, ph, i),
    };
    pebbles(s, i, &spots);
    match c.kind {
        CellKind::Pit => pit_text(s, i, c, view, cx, cy),
        _ => store_text(s, i, c, view, Some(c.side) == to_move, (x, y, w, h), words),
    }
    s.push_str("</g>");
}

/// A cell's classes: its kind, whether it can be played, the last turn's
/// marks and the game's own (Bao's nyumba).
fn cell_classes(i: usize, c: &Cell, view: &View, legal: bool) -> Vec<&'static str> {
    let mut class = vec![
        "cell",
        match c.kind {
            CellKind::Pit => "pit",
            CellKind::Store => "store",
            CellKind::Hand => "hand",
            CellKind::End => "end",
        },
    ];
    if legal {
        class.push("legal");
    }
    if view.hint == Some(i) {
        class.push("hint");
    }
    if view.last.contains(&i) {
        class.push("last");
    }
    if view.sown.contains(&i) {
        class.push("sown");
    }
    if view.ended.contains(&i) {
        class.push("ended");
    }
    if view.captured.contains(&i) {
        class.push("captured");
    }
    if view.laps.contains(&i) {
        class.push("lap");
    }
    class.extend(c.marks.iter().copied());
    class
}

/// What a screen reader says of a cell, in the game's words: its name,
/// whose it is, its seeds, the game's marks, whether it can be played and
/// the last turn's marks.
fn cell_label(c: &Cell, player: &str, legal: bool, marks: &[&str], w: &Words) -> String {
    format!(
        "{}{}, {}{}{}{}",
        match c.kind {
            // A game with its own word for a pit says it (otau 3).
            CellKind::Pit if w.pit != "pit" => format!("{} {}", w.pit, c.name),
            CellKind::Pit => c.name.clone(),
            CellKind::Store => format!("{}'s {}", side_name(c.side), w.store),
            CellKind::Hand => format!("{}'s seeds in hand", side_name(c.side)),
            CellKind::End => format!("the end pit at {}'s right", side_name(c.side)),
        },
        if matches!(c.kind, CellKind::Store | CellKind::Hand) && !player.is_empty() {
            format!(" ({player})")
        } else {
            String::new()
        },
        w.count(c.seeds),
        c.marks
            .iter()
            .filter(|m| **m != "functional" && !m.starts_with("owner-"))
            .map(|m| format!(", {}", mark_words(m, c, w)))
            .collect::<String>(),
        if legal { ", legal move" } else { "" },
        marks.iter().map(|m| format!(", {m}")).collect::<String>(),
    )
}

/// The cell itself: a round pit, Bao's square nyumba, a long store or hand;
/// a playable one drawn with a dashed gold edge.
fn cell_shape(s: &mut String, c: &Cell, legal: bool, (x, y, w, h): (f64, f64, f64, f64)) {
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let (fill, stroke, stroke_w, dash) = if legal {
        ("#6f4622", "#ffd34d", 5.0, r#" stroke-dasharray="11 6""#)
    } else {
        match c.kind {
            CellKind::Pit => ("#5e3a1b", "#3f2610", 2.5, ""),
            CellKind::Store | CellKind::End => ("#5e3a1b", "#3f2610", 2.5, ""),
            CellKind::Hand => ("#7a4e26", "#3f2610", 2.5, r#" stroke-dasharray="6 5""#),
        }
    };
    let nyumba = c.marks.contains(&"nyumba");
    match c.kind {
        CellKind::Pit if nyumba => {
            // Bao's nyumba: a square pit, thicker while it works.
            let r = PIT_R;
            let sw = if c.marks.contains(&"functional") {
                stroke_w + 2.5
            } else {
                stroke_w
            };
            let _ = write!(
                s,
                r##"<rect class="shape" x="{}" y="{}" width="{}" height="{}" rx="12" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"{dash}/>"##,
                cx - r,
                cy - r,
                2.0 * r,
                2.0 * r
            );
        }
        CellKind::Pit => {
            let _ = write!(
                s,
                r##"<circle class="shape" cx="{cx}" cy="{cy}" r="{PIT_R}" fill="{fill}" stroke="{stroke}" stroke-width="{stroke_w}"{dash}/>"##
            );
            if let Some(owner) = owner(c).filter(|_| c.marks.contains(&"tuzdyk")) {
                tuzdyk(s, owner, cx, cy);
            }
            if c.marks.contains(&"kimbi") {
                // Bao's kimbi (a kichwa and its neighbour): a second, dotted
                // edge round the pit; a kichwa's is solid.
                let dash = if c.marks.contains(&"kichwa") {
                    ""
                } else {
                    r#" stroke-dasharray="3 5""#
                };
                let _ = write!(
                    s,
                    r##"<circle class="kimbi" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#d9b98a" stroke-width="2.5"{dash}/>"##,
                    PIT_R + 6.0
                );
            }
        }
        _ => {
            let _ = write!(
                s,
                r##"<rect class="shape" x="{}" y="{}" width="{}" height="{}" rx="30" fill="{fill}" stroke="{stroke}" stroke-width="{stroke_w}"{dash}/>"##,
                x + 6.0,
                y + 6.0,
                w - 12.0,
                h - 12.0
            );
        }
    }
}

/// A Togyz Kumalak tuzdyk, owned by `owner`: a gold ring naming its owner,
/// so that it reads apart from the last turn's cross (captured). What falls
/// in goes to the owner's kazan, so it never holds a kumalak.
fn tuzdyk(s: &mut String, owner: Side, cx: f64, cy: f64) {
    let _ = write!(
        s,
        r##"<g class="tuzdyk-mark" data-owner="{}" aria-hidden="true"><circle cx="{cx}" cy="{cy}" r="{}" fill="#2e1a0b" stroke="#e8b04a" stroke-width="5"/><text x="{cx}" y="{:.1}" {FONT} font-size="13" font-weight="600" text-anchor="middle" fill="#e8b04a">tuzdyk</text><text x="{cx}" y="{:.1}" {FONT} font-size="19" font-weight="800" text-anchor="middle" fill="#fffaf0">{}</text></g>"##,
        side_name(owner).to_lowercase(),
        PIT_R - 4.0,
        cy - 6.0,
        cy + 15.0,
        side_name(owner),
    );
}

/// The last turn's ring inside a pit's edge: where it started (solid),
/// captured (dashed), or sown (faint).
fn last_turn_ring(s: &mut String, i: usize, view: &View, cx: f64, cy: f64) {
    if view.last.contains(&i) {
        let _ = write!(
            s,
            r##"<circle class="ring" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#ff6b5b" stroke-width="4"/>"##,
            PIT_R - 5.0
        );
    } else if view.captured.contains(&i) {
        let _ = write!(
            s,
            r##"<circle class="ring" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#ff6b5b" stroke-width="3" stroke-dasharray="4 4"/>"##,
            PIT_R - 5.0
        );
    } else if view.sown.contains(&i) {
        let _ = write!(
            s,
            r##"<circle class="ring" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#f2c48d" stroke-width="2" stroke-opacity="0.8"/>"##,
            PIT_R - 5.0
        );
    }
}

/// The pebbles at their spots, each coloured by its cell and place so that
/// a heap looks the same every time it is drawn.
fn pebbles(s: &mut String, i: usize, spots: &[(f64, f64)]) {
    let _ = write!(s, r#"<g class="pebbles">"#);
    for (k, (ex, ey)) in spots.iter().enumerate() {
        let fill_k = PEBBLE_FILL[(i * 7 + k * 3) % PEBBLE_FILL.len()];
        let _ = write!(
            s,
            r##"<circle class="seed" cx="{ex:.1}" cy="{ey:.1}" r="{PEBBLE_R}" fill="{fill_k}" stroke="#4a3420" stroke-width="1.2"/>"##
        );
    }
    s.push_str("</g>");
}

/// A pit's count beside its pebbles, its name in its own corner and the
/// last turn's shapes (the cues that are not colour).
fn pit_text(s: &mut String, i: usize, c: &Cell, view: &View, cx: f64, cy: f64) {
    let (bx, by) = (cx + 0.34 * P, cy - 0.34 * P);
    if !c.marks.contains(&"tuzdyk") {
        badge(s, bx, by, c.seeds, 15.0, 19.0);
    }
    let _ = write!(
        s,
        r##"<text class="name" x="{:.1}" y="{:.1}" {FONT} font-size="17" font-weight="600" text-anchor="middle" dominant-baseline="central" fill="#fbeed3" aria-hidden="true">{}</text>"##,
        cx - 0.37 * P,
        cy + 0.38 * P,
        esc(&c.name)
    );
    marks_shapes(s, i, view, cx - 0.36 * P, cy - 0.36 * P);
}

/// A store's or hand's lines (its side, whose it is), its count and marks;
/// the side to move marked by a triangle and bold type. A tall cell stacks
/// them, a wide one (Bao's hands) puts them in a row.
fn store_text(
    s: &mut String,
    i: usize,
    c: &Cell,
    view: &View,
    turn: bool,
    (x, y, w, h): (f64, f64, f64, f64),
    words: &Words,
) {
    let cx = x + w / 2.0;
    let cy = y + h / 2.0;
    let player = &view.players[c.side.index()];
    let shown_name = match c.kind {
        CellKind::Store => format!("{}'s {}", side_name(c.side), words.store),
        _ => format!("{}'s hand", side_name(c.side)),
    };
    let weight = if turn { 800 } else { 500 };
    let arrow = if turn { "\u{25B6} " } else { "" };
    if h >= w {
        for (k, (text, size)) in store_lines(c, player).iter().enumerate() {
            let _ = write!(
                s,
                r##"<text class="{}" x="{cx:.1}" y="{:.1}" {FONT} font-size="{size}" font-weight="{}" text-anchor="middle" fill="#fbeed3" aria-hidden="true">{}{}</text>"##,
                if k == 0 { "name" } else { "player" },
                y + 30.0 + 16.0 * k as f64,
                if k == 0 { weight } else { 500 },
                if k == 0 { arrow } else { "" },
                esc(text)
            );
        }
        marks_shapes(s, i, view, cx - 9.0, y + h - 64.0);
        badge(s, cx, y + h - 30.0, c.seeds, 19.0, 24.0);
    } else {
        let _ = write!(
            s,
            r##"<text class="name" x="{:.1}" y="{:.1}" {FONT} font-size="15" font-weight="{weight}" fill="#fbeed3" aria-hidden="true">{arrow}{}{}</text>"##,
            x + 18.0,
            y + 27.0,
            esc(&shown_name),
            if player.is_empty() {
                String::new()
            } else {
                format!(" \u{00B7} {}", esc(player))
            }
        );
        badge(s, x + w - 34.0, cy, c.seeds, 19.0, 24.0);
        marks_shapes(s, i, view, x + w - 72.0, cy);
    }
}

/// The box a store's or a hand's pebbles lie in, between its name at one
/// end and its count at the other.
fn store_heap(x: f64, y: f64, w: f64, h: f64, lines: usize) -> (f64, f64, f64, f64) {
    if h >= w {
        let top = 24.0 + 16.0 * lines as f64;
        (x + 14.0, y + top, w - 28.0, h - top - 78.0)
    } else {
        (x + 14.0, y + 34.0, w - 74.0, h - 42.0)
    }
}

/// The lines of a store's or a hand's label when it stands tall: its side,
/// "in hand" for a hand, its player; each with its font size.
fn store_lines(c: &Cell, player: &str) -> Vec<(String, u32)> {
    let mut lines = vec![(side_name(c.side).to_string(), 15)];
    if c.kind == CellKind::Hand {
        lines.push(("in hand".to_string(), 13));
    }
    if !player.is_empty() {
        lines.push((player.to_string(), 14));
    }
    lines
}

/// A count in a white disc.
fn badge(s: &mut String, x: f64, y: f64, n: u32, r: f64, size: f64) {
    let r = if n >= 100 { r + 5.0 } else { r };
    let _ = write!(
        s,
        r##"<circle class="badge" cx="{x:.1}" cy="{y:.1}" r="{r}" fill="#fffaf0" stroke="#3f2610" stroke-width="1.5"/><text class="count" x="{x:.1}" y="{y:.1}" {FONT} font-size="{size}" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="#1c1208" aria-hidden="true">{n}</text>"##
    );
}

/// The last turn's and the hint's marks as small shapes in a cell's corner
/// at `(x, y)`, side by side.
fn marks_shapes(s: &mut String, i: usize, view: &View, x: f64, y: f64) {
    let mut at = x;
    let mut next = |s: &mut String, body: String| {
        let _ = write!(
            s,
            r##"<g class="mark" transform="translate({at:.1} {y:.1})" aria-hidden="true">{body}</g>"##
        );
        at += 19.0;
    };
    if view.hint == Some(i) {
        // A star.
        let pts: Vec<String> = (0..10)
            .map(|k| {
                let r = if k % 2 == 0 { 10.0 } else { 4.2 };
                let a = std::f64::consts::PI * (k as f64 / 5.0 - 0.5);
                format!("{:.1},{:.1}", r * a.cos(), r * a.sin())
            })
            .collect();
        next(
            s,
            format!(
                r##"<polygon class="mark-hint" points="{}" fill="#7CFC8A" stroke="#12361a" stroke-width="1.5"/>"##,
                pts.join(" ")
            ),
        );
    }
    if view.last.contains(&i) {
        next(
            s,
            r##"<polygon class="mark-last" points="-6,-8 8,0 -6,8" fill="#ff6b5b" stroke="#3a0d08" stroke-width="1.5"/>"##.to_string(),
        );
    }
    if view.laps.contains(&i) {
        next(
            s,
            r##"<circle class="mark-lap" r="6.5" fill="none" stroke="#ffb347" stroke-width="3" stroke-dasharray="9 4"/>"##.to_string(),
        );
    }
    if view.ended.contains(&i) {
        next(
            s,
            r##"<polygon class="mark-ended" points="0,-8 8,0 0,8 -8,0" fill="#ffb347" stroke="#3a2508" stroke-width="1.5"/>"##.to_string(),
        );
    }
    if view.captured.contains(&i) {
        next(
            s,
            r##"<path class="mark-captured" d="M-7,-7 L7,7 M7,-7 L-7,7" stroke="#ff6b5b" stroke-width="4" stroke-linecap="round"/>"##.to_string(),
        );
    }
}

/// An arrow between two cells' centres, stopping short of both.
fn arrow(s: &mut String, a: &Arrow, cells: &[Cell], frame: &Frame, g: &Grid) {
    let (Some(from), Some(to)) = (cells.get(a.from), cells.get(a.to)) else {
        return;
    };
    let centre = |c: &Cell| {
        let p = place(c, g);
        frame.point(p.x, p.y)
    };
    let ((x0, y0), (x1, y1)) = (centre(from), centre(to));
    let (dx, dy) = (x1 - x0, y1 - y0);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (sx, sy) = (x0 + ux * 0.22 * P, y0 + uy * 0.22 * P);
    let (ex, ey) = (x1 - ux * 0.2 * P, y1 - uy * 0.2 * P);
    // The head: a triangle at the end.
    let (hx, hy) = (ex - ux * 22.0, ey - uy * 22.0);
    let (nx, ny) = (-uy * 15.0, ux * 15.0);
    let head = format!(
        "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
        ex,
        ey,
        hx + nx,
        hy + ny,
        hx - nx,
        hy - ny
    );
    let _ = write!(
        s,
        r##"<g class="arrow" data-from="{}" data-to="{}" data-moves="{}" role="button" tabindex="0" aria-label="{}"><title>{}</title><line x1="{sx:.1}" y1="{sy:.1}" x2="{hx:.1}" y2="{hy:.1}" stroke="#fffaf0" stroke-width="17" stroke-linecap="round"/><polygon points="{head}" fill="#fffaf0" stroke="#fffaf0" stroke-width="7" stroke-linejoin="round"/><line x1="{sx:.1}" y1="{sy:.1}" x2="{hx:.1}" y2="{hy:.1}" stroke="#1b5fa8" stroke-width="9" stroke-linecap="round"/><polygon points="{head}" fill="#1b5fa8"/></g>"##,
        a.from,
        a.to,
        esc(&a.moves),
        esc(&a.label),
        esc(&a.label)
    );
}

/// The player a cell's rule mark belongs to, as the game marks it
/// (`owner-south`, `owner-north`: a Togyz Kumalak tuzdyk's owner).
fn owner(c: &Cell) -> Option<Side> {
    if c.marks.contains(&"owner-south") {
        Some(Side::South)
    } else if c.marks.contains(&"owner-north") {
        Some(Side::North)
    } else {
        None
    }
}

/// A rule mark of cell `c` in words.
fn mark_words(m: &str, c: &Cell, w: &Words) -> String {
    match m {
        "takasia" => "blocked (takasia)".to_string(),
        // Whose it is, as the game marks it.
        "tuzdyk" => {
            let owner = owner(c).map_or("somebody", side_name);
            format!(
                "{owner}'s tuzdyk: {} falling here go to {owner}'s {}",
                w.seeds, w.store
            )
        }
        "kichwa" => "a kichwa".to_string(),
        "kimbi" => "a kimbi".to_string(),
        other => other.to_string(),
    }
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::South => "South",
        Side::North => "North",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::variants::bao::{Bao, BaoRules};
    use crate::variants::kalah::{Kalah, KalahRules};

    #[test]
    fn every_cell_is_a_group_with_its_count_and_pebbles() {
        let pos = Kalah::start(&KalahRules::default());
        let view = View {
            legal: vec![0, 1],
            ..View::default()
        };
        let s = svg(&pos, &view);
        assert!(s.starts_with("<svg ") && s.ends_with("</svg>"));
        for i in 0..14 {
            assert!(s.contains(&format!(r#"id="cell-{i}""#)), "cell {i}");
        }
        // 12 pits of 4 seeds: 48 pebbles.
        assert_eq!(s.matches(r#"class="seed""#).count(), 48);
        assert!(s.contains(r#"class="cell pit legal""#));
        assert!(s.contains("A, 4 seeds, legal move"));
        // Legal pits can be reached with Tab; the others are pictures.
        assert_eq!(s.matches(r#"tabindex="0""#).count(), 2);
    }

    #[test]
    fn turning_the_board_puts_north_at_the_bottom() {
        let cells = Kalah::start(&KalahRules::default()).cells();
        let south_a = &cells[0];
        let up = place(south_a, &Grid::new(&cells, Side::South, StoreSite::Ends));
        let down = place(south_a, &Grid::new(&cells, Side::North, StoreSite::Ends));
        assert!(up.y > down.y, "South's A at the bottom, then at the top");
    }

    /// The boxes of the cells of a drawing: `(left, top, width, height)`.
    fn boxes(s: &str) -> Vec<(f64, f64, f64, f64)> {
        s.split(r#"<rect class="hit" "#)
            .skip(1)
            .map(|r| {
                let num = |k: &str| -> f64 {
                    let at = r.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
                    r[at..].split('"').next().unwrap().parse().unwrap()
                };
                (num("x"), num("y"), num("width"), num("height"))
            })
            .collect()
    }

    fn overlap(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
        a.0 < b.0 + b.2 - 0.01
            && b.0 < a.0 + a.2 - 0.01
            && a.1 < b.1 + b.3 - 0.01
            && b.1 < a.1 + a.3 - 0.01
    }

    #[test]
    fn no_two_cells_share_room_lying_down_turned_or_stood_up() {
        let boards = [
            Kalah::start(&KalahRules::default()).cells(),
            Bao::start(&BaoRules::kiswahili()).cells(),
        ];
        for cells in boards {
            for (flipped, portrait) in [(false, false), (true, false), (false, true), (true, true)]
            {
                let view = View {
                    flipped,
                    portrait,
                    ..View::default()
                };
                let s = cells_svg(&cells, Side::South, &view);
                let b = boxes(&s);
                assert_eq!(b.len(), cells.len());
                for i in 0..b.len() {
                    for j in 0..i {
                        assert!(
                            !overlap(b[i], b[j]),
                            "cells {i} and {j}: {:?} {:?}",
                            b[i],
                            b[j]
                        );
                    }
                }
                // A name and a count sit in their own cell's box.
                for (k, part) in s.split(r#"<g id="cell-"#).skip(1).enumerate() {
                    let (x, y, w, h) = b[k];
                    for t in part.split("<text ").skip(1) {
                        let num = |key: &str| -> f64 {
                            let at = t.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
                            t[at..].split('"').next().unwrap().parse().unwrap()
                        };
                        let (tx, ty) = (num("x"), num("y"));
                        assert!(
                            tx > x && tx < x + w && ty > y && ty < y + h,
                            "a label of cell {k} outside its box ({flipped}, {portrait})"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn stores_span_both_rows_and_stand_at_the_ends() {
        let cells = Kalah::start(&KalahRules::default()).cells();
        let s = cells_svg(&cells, Side::South, &View::default());
        let b = boxes(&s);
        let (store, pit) = (b[12], b[0]);
        assert!(store.3 > 2.0 * pit.3, "a store is as tall as both rows");
        assert!(store.0 > b[5].0, "South's store at the right of his row");
    }

    #[test]
    fn togyz_kazans_lie_between_the_rows_and_a_tuzdyk_names_its_owner() {
        use crate::variants::togyz::{Togyz, TogyzRules};
        // South's tuzdyk on North's otau 1.
        let token = "0-0-0-0-0-0-0-0-1-X-1-1-1-1-1-1-1-1-79-74-N";
        let pos = Togyz::from_notation(&TogyzRules::default(), token).unwrap();
        for (flipped, portrait) in [(false, false), (true, false), (false, true), (true, true)] {
            let view = View {
                flipped,
                portrait,
                ..View::default()
            };
            let s = svg(&pos, &view);
            let b = boxes(&s);
            assert_eq!(b.len(), 20);
            for i in 0..b.len() {
                for j in 0..i {
                    assert!(!overlap(b[i], b[j]), "cells {i} and {j}");
                }
            }
            // Each kazan lies between South's otau 1 and North's, along
            // the rows (across them when the board stands up).
            // A box's coordinate across the rows, and along them.
            let across = |r: &(f64, f64, f64, f64)| if portrait { r.0 } else { r.1 };
            let along = |r: &(f64, f64, f64, f64)| if portrait { r.1 } else { r.0 };
            let (axis, other) = (across, along);
            let (lo, hi) = {
                let (a, n) = (axis(&b[0]), axis(&b[9]));
                (a.min(n), a.max(n))
            };
            for k in [18, 19] {
                assert!(
                    axis(&b[k]) > lo && axis(&b[k]) < hi,
                    "kazan {k} between the rows"
                );
            }
            // South's kazan at South's right: on the side of his otau 9.
            let right_of_south =
                (other(&b[18]) - other(&b[0])).abs() > (other(&b[18]) - other(&b[8])).abs();
            assert!(
                right_of_south,
                "South's kazan by his otau 9 ({flipped}, {portrait})"
            );
        }
        let s = svg(&pos, &View::default());
        assert!(s.contains(r#"class="tuzdyk-mark" data-owner="south""#));
        assert!(s.contains(
            "otau 1, 0 kumalaks, South's tuzdyk: kumalaks falling here go to South's kazan"
        ));
        assert!(s.contains("South's kazan, 79 kumalaks"));
        assert!(
            !s.contains(" seeds") && !s.contains("'s store"),
            "no seeds or stores in Togyz's words"
        );
    }

    #[test]
    fn standing_up_puts_the_bottom_row_on_the_left_read_downwards() {
        let cells = Kalah::start(&KalahRules::default()).cells();
        let view = View {
            portrait: true,
            ..View::default()
        };
        let s = cells_svg(&cells, Side::South, &view);
        let b = boxes(&s);
        // South's A above his B, both left of North's row; his store below.
        assert!(b[0].1 < b[1].1 && b[0].0 < b[6].0);
        assert!(b[12].1 > b[5].1);
        let (w, h) = Grid::new(&cells, Side::South, StoreSite::Ends).size();
        assert!(s.contains(&format!(r#"viewBox="0 0 {h} {w}""#)));
    }

    #[test]
    fn the_last_turn_and_the_hint_are_marked_by_shapes_and_words() {
        let pos = Kalah::start(&KalahRules::default());
        let view = View {
            hint: Some(3),
            last: vec![2],
            ended: vec![12],
            captured: vec![8],
            ..View::default()
        };
        let s = svg(&pos, &view);
        for shape in ["mark-hint", "mark-last", "mark-captured"] {
            assert_eq!(s.matches(shape).count(), 1, "{shape}");
        }
        assert!(s.contains("C, 4 seeds, last move started here"));
        assert!(s.contains("D, 4 seeds, hint"));
        assert!(s.contains("South's store, 0 seeds, last seed"));
    }

    #[test]
    fn arrows_point_from_a_pit_to_a_cell_wherever_the_board_stands() {
        let pos = Bao::start(&BaoRules::kiswahili());
        let cells = pos.cells();
        // South's A6 (cell 5) toward A7 (cell 6).
        let a = Arrow {
            from: 5,
            to: 6,
            moves: "A6>".into(),
            label: "sow toward A7".into(),
        };
        for (flipped, portrait) in [(false, false), (true, false), (false, true)] {
            let view = View {
                flipped,
                portrait,
                arrows: vec![a.clone()],
                ..View::default()
            };
            let s = cells_svg(&cells, Side::South, &view);
            let b = boxes(&s);
            let centre = |k: usize| (b[k].0 + b[k].2 / 2.0, b[k].1 + b[k].3 / 2.0);
            let part = s.split(r#"<g class="arrow""#).nth(1).unwrap();
            assert!(part.contains(r#"data-moves="A6&gt;""#));
            let num = |key: &str| -> f64 {
                let at = part.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
                part[at..].split('"').next().unwrap().parse().unwrap()
            };
            let (dx, dy) = (num("x2") - num("x1"), num("y2") - num("y1"));
            let (from, to) = (centre(5), centre(6));
            let (wx, wy) = (to.0 - from.0, to.1 - from.1);
            assert!(
                dx * wx + dy * wy > 0.0,
                "the arrow points at A7 ({flipped}, {portrait})"
            );
        }
    }

    #[test]
    fn many_seeds_are_a_heap_inside_the_pit_with_the_count_beside() {
        for n in [1u32, 4, 12, 24, 60] {
            let spots = heap(n, 0.0, 0.0, HEAP_R, 3);
            assert_eq!(spots.len(), n.min(MOST_IN_PIT) as usize);
            for (x, y) in spots {
                assert!(
                    (x * x + y * y).sqrt() + PEBBLE_R <= PIT_R,
                    "{n}: ({x}, {y})"
                );
            }
        }
        for n in [1u32, 10, 40, 48] {
            let spots = packed(n, 0.0, 0.0, 60.0, 120.0, 1);
            assert!(spots.len() as u32 <= n && !spots.is_empty());
            for (x, y) in spots {
                assert!(
                    (-3.0..=63.0).contains(&x) && (-3.0..=123.0).contains(&y),
                    "{n}: ({x}, {y})"
                );
            }
        }
    }
}
