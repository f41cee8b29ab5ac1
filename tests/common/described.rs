//! Described games position by position: a token read, moves played from
//! it, the legal moves listed, each failing with the token and the move.

use kete::game::Game;
use kete::variants::described::{Described, DescribedRules};

/// The position of `token`, which must read back as written.
pub fn at(r: &DescribedRules, token: &str) -> Described {
    let p = Described::from_notation(r, token).unwrap_or_else(|e| panic!("{token}: {e}"));
    assert_eq!(p.to_notation(), token, "the token reads back");
    p
}

/// The token after `moves` from `token`.
pub fn after(r: &DescribedRules, token: &str, moves: &[&str]) -> String {
    let mut p = at(r, token);
    for m in moves {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m} at {}: {e}", p.to_notation()));
        p = p.play(mv);
    }
    p.to_notation()
}

/// The legal moves at `token`, as written, sorted.
pub fn legal(r: &DescribedRules, token: &str) -> Vec<String> {
    let p = at(r, token);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut t: Vec<String> = moves.iter().map(|&m| p.format_move(m)).collect();
    t.sort();
    t
}
