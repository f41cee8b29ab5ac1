//! Helpers of the Bao tests: positions written as rows b8..b1 / a8..a1 /
//! A1..A8 / B1..B8 (top to bottom as seen from above, South at the bottom),
//! and moves as sorted texts.

use kete::game::Game;
use kete::variants::bao::{Bao, BaoRules};

pub type Rows = [[u8; 8]; 4];
pub const Z: [u8; 8] = [0; 8];

/// The position token of rows, hands, nyumba ownership ("OO", "OL", ...),
/// side and takasia ("x" for none).
pub fn token(r: Rows, hands: (u8, u8), own: &str, side: &str, tak: &str) -> String {
    let row = |v: &[u8; 8]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}/{}/{}/{}-{}-{}-{own}-{side}-{tak}-0",
        row(&r[0]),
        row(&r[1]),
        row(&r[2]),
        row(&r[3]),
        hands.0,
        hands.1
    )
}

pub fn pos_with(
    rules: BaoRules,
    r: Rows,
    hands: (u8, u8),
    own: &str,
    side: &str,
    tak: &str,
) -> Bao {
    let t = token(r, hands, own, side, tak);
    Bao::from_notation(&rules, &t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

/// A Bao la Kiswahili position without takasia.
pub fn pos(r: Rows, hands: (u8, u8), own: &str, side: &str) -> Bao {
    pos_with(BaoRules::kiswahili(), r, hands, own, side, "x")
}

pub fn rows(p: &Bao) -> Rows {
    let t = p.to_notation();
    let mut out = [[0u8; 8]; 4];
    for (i, r) in t.split('-').next().unwrap().split('/').enumerate() {
        for (j, v) in r.split(',').enumerate() {
            out[i][j] = v.parse().unwrap();
        }
    }
    out
}

/// The legal moves, written and sorted.
pub fn legal(p: &Bao) -> Vec<String> {
    let mut m = Vec::new();
    p.legal_moves(&mut m);
    let mut v: Vec<String> = m.iter().map(|&m| p.format_move(m)).collect();
    v.sort();
    v
}

pub fn set(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

pub fn play(p: &Bao, mv: &str) -> Bao {
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv}: {e} in {}", p.to_notation()));
    p.play(m)
}
