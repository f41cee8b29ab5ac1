//! Board drawings: a position of any game as an SVG picture, from its
//! [`Board`] cells alone, so the web board and the Python package's notebook
//! view draw the same board from the same code. Each cell is a group
//! `<g id="cell-N" class="cell pit …" data-cell="N" data-seeds="S">` holding
//! its shape, its seeds as pebbles, its count and its name, so that a page
//! can style, animate and click them; the picture carries its own colours
//! and needs no style sheet.

use std::fmt::Write as _;

use crate::game::{Board, Cell, CellKind, Side};

/// How to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// North's side at the bottom (the board turned).
    pub flipped: bool,
    /// Cells to mark as playable (their indices).
    pub legal: Vec<usize>,
    /// Cells to mark as part of the last move.
    pub last: Vec<usize>,
}

/// Side of a pit's square in the drawing's units.
const P: f64 = 80.0;
/// Room above and below the rows for the names.
const MARGIN: f64 = 18.0;

/// Where a cell stands: its centre, and its size for stores and hands.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Place {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// The grid of a board: pits per row and rows per side.
fn grid(cells: &[Cell]) -> (usize, usize) {
    let pits = cells.iter().filter(|c| c.kind == CellKind::Pit);
    let cols = pits.clone().map(|c| c.col as usize + 1).max().unwrap_or(1);
    let rows = pits.map(|c| c.row as usize + 1).max().unwrap_or(1);
    (cols, rows)
}

/// The place of `cell`: a player's pits run from his own left, his front
/// row nearest the middle; stores stand at the ends, spanning the rows, each
/// at its owner's right; hands beside them.
fn place(cell: &Cell, cols: usize, rows: usize, bottom: Side) -> Place {
    let mine = cell.side == bottom;
    let height = (2 * rows) as f64 * P;
    match cell.kind {
        CellKind::Pit => {
            let col = if mine {
                cell.col as usize
            } else {
                cols - 1 - cell.col as usize
            };
            // Rows from the top: the far side's back row first.
            let row = if mine {
                rows + cell.row as usize
            } else {
                rows - 1 - cell.row as usize
            };
            Place {
                x: (col as f64 + 1.5) * P,
                y: MARGIN + (row as f64 + 0.5) * P,
                w: P,
                h: P,
            }
        }
        CellKind::Store | CellKind::Hand => {
            // The owner's right: the right end for the player at the bottom.
            let x = if mine {
                (cols as f64 + 1.5) * P
            } else {
                0.5 * P
            };
            let (y, h) = if cell.kind == CellKind::Store {
                (MARGIN + height / 2.0, height - 0.3 * P)
            } else if mine {
                (MARGIN + height * 0.75, height / 2.0 - 0.3 * P)
            } else {
                (MARGIN + height * 0.25, height / 2.0 - 0.3 * P)
            };
            Place { x, y, w: P, h }
        }
    }
}

/// Pebble offsets for `n` seeds in a cell of the given size: rings around
/// the centre, at most `max` drawn (the count says the rest).
fn pebbles(n: u32, w: f64, h: f64) -> Vec<(f64, f64)> {
    let shown = n.min(if h > w * 1.5 { 40 } else { 16 }) as usize;
    let mut out = Vec::with_capacity(shown);
    let r = 6.0_f64;
    // A golden-angle spiral packs evenly whatever the count.
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let (sx, sy) = if h > w {
        (1.0, (h / w).min(3.0))
    } else {
        (1.0, 1.0)
    };
    for i in 0..shown {
        let rad = 2.2 * r * (i as f64).sqrt();
        let a = i as f64 * golden;
        out.push((rad * a.cos() * sx, rad * a.sin() * sy));
    }
    out
}

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The position `pos` as an SVG picture.
pub fn svg<G: Board>(pos: &G, view: &View) -> String {
    cells_svg(&pos.cells(), pos.side_to_move(), view)
}

/// The cells of a position as an SVG picture; `to_move` is said in its
/// title.
pub fn cells_svg(cells: &[Cell], to_move: Side, view: &View) -> String {
    let (cols, rows) = grid(cells);
    let bottom = if view.flipped {
        Side::North
    } else {
        Side::South
    };
    let width = (cols as f64 + 2.0) * P;
    let height = (2 * rows) as f64 * P + 2.0 * MARGIN;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="kete-board" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="group" aria-label="board, {} to move">"##,
        side_name(to_move)
    );
    let _ = write!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" rx="18" fill="#8b5a2b"/>"##
    );
    for (i, c) in cells.iter().enumerate() {
        let p = place(c, cols, rows, bottom);
        let mut class = vec![
            "cell",
            match c.kind {
                CellKind::Pit => "pit",
                CellKind::Store => "store",
                CellKind::Hand => "hand",
            },
        ];
        let legal = view.legal.contains(&i);
        if legal {
            class.push("legal");
        }
        if view.last.contains(&i) {
            class.push("last");
        }
        class.extend(c.marks.iter().copied());
        let label = format!(
            "{}, {} seed{}{}{}",
            c.name,
            c.seeds,
            if c.seeds == 1 { "" } else { "s" },
            c.marks.iter().map(|m| format!(", {m}")).collect::<String>(),
            if legal { ", legal move" } else { "" }
        );
        let _ = write!(
            s,
            r##"<g id="cell-{i}" class="{}" data-cell="{i}" data-seeds="{}" data-name="{}" aria-label="{}">"##,
            class.join(" "),
            c.seeds,
            esc(&c.name),
            esc(&label)
        );
        let (fill, stroke, width_px) = if legal {
            ("#f3dcae", "#ffd34d", 4)
        } else if view.last.contains(&i) {
            ("#d9b98c", "#e04040", 4)
        } else {
            (
                match c.kind {
                    CellKind::Pit => "#d9b98c",
                    CellKind::Store => "#c9a574",
                    CellKind::Hand => "#e8d9bd",
                },
                "#5b3a1e",
                2,
            )
        };
        match c.kind {
            CellKind::Pit => {
                let _ = write!(
                    s,
                    r##"<circle class="shape" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="{width_px}"/>"##,
                    p.x,
                    p.y,
                    P * 0.42
                );
            }
            _ => {
                let _ = write!(
                    s,
                    r##"<rect class="shape" x="{}" y="{}" width="{}" height="{}" rx="22" fill="{fill}" stroke="{stroke}" stroke-width="{width_px}"{}/>"##,
                    p.x - p.w * 0.4,
                    p.y - p.h / 2.0,
                    p.w * 0.8,
                    p.h,
                    if c.kind == CellKind::Hand {
                        r#" stroke-dasharray="4 3""#
                    } else {
                        ""
                    }
                );
            }
        }
        for (dx, dy) in pebbles(c.seeds, p.w * 0.8, p.h) {
            let _ = write!(
                s,
                r##"<circle class="seed" cx="{:.1}" cy="{:.1}" r="5.5" fill="#3b2a1a" opacity="0.55"/>"##,
                p.x + dx,
                p.y + dy
            );
        }
        let _ = write!(
            s,
            r##"<text class="count" x="{}" y="{}" font-family="system-ui, sans-serif" font-size="22" font-weight="bold" text-anchor="middle" dominant-baseline="central" fill="#111">{}</text>"##,
            p.x, p.y, c.seeds
        );
        let name_y = if c.kind == CellKind::Pit {
            // Below the pit on the bottom player's rows, above on the other's.
            if c.side == bottom {
                p.y + P * 0.5 + 2.0
            } else {
                p.y - P * 0.5 + 12.0
            }
        } else {
            p.y + p.h / 2.0 + 14.0
        };
        let _ = write!(
            s,
            r##"<text class="name" x="{}" y="{name_y}" font-family="system-ui, sans-serif" font-size="12" text-anchor="middle" fill="#fff">{}</text></g>"##,
            p.x,
            esc(&c.name)
        );
    }
    s.push_str("</svg>");
    s
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
    }

    #[test]
    fn turning_the_board_puts_north_at_the_bottom() {
        let cells = Kalah::start(&KalahRules::default()).cells();
        let (cols, rows) = grid(&cells);
        let south_a = &cells[0];
        let up = place(south_a, cols, rows, Side::South);
        let down = place(south_a, cols, rows, Side::North);
        assert!(up.y > down.y, "South's A at the bottom, then at the top");
    }
}
