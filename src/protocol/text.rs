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

/// A margin of `centiseeds` in the game's words, without its sign: "6
/// seeds", "5.6 kumalaks" (whole from 10 up or when within 0.05 of one),
/// or `None` for less than 0.05 of a seed (even).
pub fn margin_words(centiseeds: i32, w: &crate::game::Words) -> Option<String> {
    let n = centiseeds.unsigned_abs() as f64 / 100.0;
    if n < 0.05 {
        return None;
    }
    let shown = if n >= 10.0 || (n - n.round()).abs() < 0.05 {
        format!("{}", n.round())
    } else {
        format!("{n:.1}")
    };
    let unit = if shown == "1" { &w.seed } else { &w.seeds };
    Some(format!("{shown} {unit}"))
}

/// What a solve's bounds on the final margin (South's view, `lo..=hi`)
/// prove, in the game's words: "proven only that South loses by at most 52
/// kumalaks and wins by at most 82".
pub fn margin_bounds_words(lo: i32, hi: i32, w: &crate::game::Words) -> String {
    let n = |v: i32| w.count(v.unsigned_abs());
    if lo == hi {
        return match lo {
            0 => "proven a draw".to_string(),
            v if v > 0 => format!("proven: South wins by {}", n(v)),
            v => format!("proven: North wins by {}", n(v)),
        };
    }
    let low = match lo {
        v if v > 0 => format!("wins by at least {}", n(v)),
        0 => "does not lose".to_string(),
        v => format!("loses by at most {}", n(v)),
    };
    let high = match hi {
        v if v < 0 => format!("loses by at least {}", n(v)),
        0 => "does not win".to_string(),
        v => format!("wins by at most {}", n(v)),
    };
    format!("proven only that South {low} and {high}")
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

#[cfg(test)]
mod tests {
    use super::{margin_bounds_words, margin_words};
    use crate::game::Words;

    #[test]
    fn a_solves_bounds_are_said_in_words() {
        let w = Words::default();
        assert_eq!(
            margin_bounds_words(-52, 82, &w),
            "proven only that South loses by at most 52 seeds and wins by at most 82 seeds"
        );
        assert_eq!(
            margin_bounds_words(1, 4, &w),
            "proven only that South wins by at least 1 seed and wins by at most 4 seeds"
        );
        assert_eq!(
            margin_bounds_words(-6, 0, &w),
            "proven only that South loses by at most 6 seeds and does not win"
        );
        assert_eq!(margin_bounds_words(0, 0, &w), "proven a draw");
        assert_eq!(margin_words(706, &w).unwrap(), "7.1 seeds");
        assert_eq!(margin_words(-100, &w).unwrap(), "1 seed");
        assert_eq!(margin_words(1195, &w).unwrap(), "12 seeds");
        assert_eq!(margin_words(3, &w), None);
        assert_eq!(
            margin_bounds_words(-3, -3, &w),
            "proven: North wins by 3 seeds"
        );
    }
}
