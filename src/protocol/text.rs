//! How scores and lines of moves read on the protocol, and wherever a front
//! end shows them the way the protocol does.

use crate::game::Game;
use crate::search::WIN;

/// The text of a score for an `info` line.
pub fn score_text(score: i32) -> String {
    if score.abs() > WIN / 2 {
        let plies = WIN - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// Formats a line of moves played from `pos`.
pub fn line_text<G: Game>(pos: &G, moves: &[G::Move]) -> String {
    let mut p = pos.clone();
    let mut s = String::new();
    for &mv in moves {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&p.format_move(mv));
        p = p.play(mv);
    }
    s
}

/// [`line_text`], or with `joined` the moves written together (`BdFe`, as
/// Aalina and Aualé read a line) where every move is one letter; a line
/// with a longer move (Bao's) keeps its spaces.
pub fn line_text_joined<G: Game>(pos: &G, moves: &[G::Move], joined: bool) -> String {
    let text = line_text(pos, moves);
    if joined && text.split(' ').all(|m| m.chars().count() == 1) {
        text.replace(' ', "")
    } else {
        text
    }
}
