//! The board's words for what happened and what it is worth: the end of a
//! game, how the final count came about, an evaluation from a fixed side,
//! each in the game's own words (kumalaks in Togyz Kumalak).

use serde_json::{Value, json};

use kete::game::{Side, Words};
use kete::protocol::text::{margin_words, score_text};

/// The end of the game in words: "North (kete) wins 37–11 — North's row is
/// empty".
pub(super) fn outcome_words(
    o: kete::game::Outcome,
    reason: Option<kete::game::EndReason>,
    players: &[String; 2],
    banked: (u32, u32),
    own: Option<(u32, u32)>,
    words: &Words,
) -> Value {
    let winner = o.result.winner();
    let who = |s: Side| {
        let p = &players[s.index()];
        if p.is_empty() {
            side_title(s).to_string()
        } else {
            format!("{} ({p})", side_title(s))
        }
    };
    let score = o
        .seeds
        .map(|(south, north)| match winner {
            Some(Side::North) => format!(" {north}\u{2013}{south}"),
            _ => format!(" {south}\u{2013}{north}"),
        })
        .unwrap_or_default();
    let headline = match winner {
        Some(s) => format!("{} wins{score}", who(s)),
        None => format!("A draw{score}"),
    };
    let how = final_count_words(o.seeds, banked, own, words);
    let words = match (reason, &how) {
        (Some(r), Some(h)) => format!("{headline} \u{2014} {r}; {h}"),
        (Some(r), None) => format!("{headline} \u{2014} {r}"),
        (None, Some(h)) => format!("{headline} \u{2014} {h}"),
        (None, None) => headline,
    };
    json!({
        "result": o.result.as_str(),
        "winner": winner,
        "seeds": o.seeds,
        "reason": reason.map(|r| r.to_string()),
        "code": reason.map(|r| r.code()),
        "how": how,
        "words": words,
    })
}

/// How the final count came about where it is not what the stores show:
/// the seeds still on the board went to the players at the end, each his
/// own side's or shared out (Oware's repetition under `split`).
pub(super) fn final_count_words(
    seeds: Option<(u32, u32)>,
    banked: (u32, u32),
    own: Option<(u32, u32)>,
    words: &Words,
) -> Option<String> {
    let (south, north) = seeds?;
    if (south, north) == banked {
        return None;
    }
    let took = (
        south.saturating_sub(banked.0),
        north.saturating_sub(banked.1),
    );
    let seeds = |n: u32| words.count(n);
    Some(if Some((south, north)) == own {
        format!(
            "each player took the {} left on his side: South {}, North {}",
            words.seeds,
            seeds(took.0),
            seeds(took.1)
        )
    } else {
        format!(
            "the {} left on the board were shared out: South {}, North {}",
            seeds(took.0 + took.1),
            seeds(took.0),
            seeds(took.1)
        )
    })
}

pub(super) fn side_title(s: Side) -> &'static str {
    match s {
        Side::South => "South",
        Side::North => "North",
    }
}

/// A score in centiseeds from the side to move's view (`side`), as the page
/// shows it: from South's view (`south`, `null` for a forced win), the
/// forced win's length (`mate`, positive when South wins), and in words
/// from a fixed side: "+7 seeds for South", "South wins in 5", "level".
pub fn evaluation(score: i32, side: Side, words: &Words) -> Value {
    let sign = if side == Side::South { 1 } else { -1 };
    let text = score_text(score);
    if let Some(m) = text.strip_prefix("mate ") {
        let m: i64 = m.parse::<i64>().unwrap_or(0) * sign as i64;
        let winner = if m > 0 { Side::South } else { Side::North };
        return json!({
            "south": null,
            "mate": m,
            "text": format!("{} wins in {}", side_title(winner), m.abs()),
        });
    }
    let south = score * sign;
    json!({ "south": south, "mate": null, "text": seeds_text(south, words) })
}

/// Centiseeds from South's view in the game's words, for the side ahead
/// ("even" when neither is).
pub(super) fn seeds_text(south: i32, words: &Words) -> String {
    match margin_words(south, words) {
        None => "even".into(),
        Some(m) => format!("+{m} for {}", if south > 0 { "South" } else { "North" }),
    }
}

/// An external engine's score (`cp N` or `mate N`, from the side to move)
/// as [`evaluation`] gives it.
pub(super) fn external_eval(score: &str, side: Side, words: &Words) -> Option<Value> {
    let (kind, n) = score.split_once(' ')?;
    let n: i64 = n.trim().parse().ok()?;
    match kind {
        "cp" => Some(evaluation(
            n.clamp(-1_000_000, 1_000_000) as i32,
            side,
            words,
        )),
        "mate" => {
            // As the search's own mate scores read: plies to the end.
            let plies = (2 * n.abs() - 1).clamp(1, 1000) as i32;
            let win = kete::search::WIN - plies;
            Some(evaluation(if n > 0 { win } else { -win }, side, words))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kete::game::Game;

    fn togyz_words() -> Words {
        kete::variants::togyz::Togyz::start(&Default::default()).words()
    }

    #[test]
    fn an_ending_says_how_the_final_count_came_about() {
        let w = Words::default();
        // The stores are the count: nothing to add.
        assert_eq!(
            final_count_words(Some((25, 20)), (25, 20), Some((25, 23)), &w),
            None
        );
        // Each took his own side (Oware's repetition, an empty row).
        assert_eq!(
            final_count_words(Some((24, 24)), (23, 23), Some((24, 24)), &w).unwrap(),
            "each player took the seeds left on his side: South 1 seed, North 1 seed"
        );
        // Shared out otherwise (Oware's repetition under `split`).
        assert_eq!(
            final_count_words(Some((25, 23)), (22, 22), Some((26, 22)), &w).unwrap(),
            "the 4 seeds left on the board were shared out: South 3 seeds, North 1 seed"
        );
        // In the game's own words.
        let togyz = togyz_words();
        assert_eq!(
            final_count_words(Some((82, 80)), (81, 80), Some((82, 80)), &togyz).unwrap(),
            "each player took the kumalaks left on his side: South 1 kumalak, North 0 kumalaks"
        );
        // Bao counts no seeds.
        assert_eq!(final_count_words(None, (30, 34), None, &w), None);
    }

    #[test]
    fn evaluations_read_from_a_fixed_side() {
        let w = Words::default();
        let text = |score, side| evaluation(score, side, &w)["text"].clone();
        assert_eq!(text(706, Side::South), json!("+7.1 seeds for South"));
        assert_eq!(text(706, Side::North), json!("+7.1 seeds for North"));
        assert_eq!(text(-1200, Side::North), json!("+12 seeds for South"));
        assert_eq!(text(100, Side::South), json!("+1 seed for South"));
        assert_eq!(text(3, Side::South), json!("even"));
        let togyz = togyz_words();
        assert_eq!(
            evaluation(560, Side::South, &togyz)["text"],
            json!("+5.6 kumalaks for South")
        );
        // A forced win in 5 moves (9 plies) for the side to move, North.
        let win = kete::search::WIN - 9;
        let e = evaluation(win, Side::North, &w);
        assert_eq!(e["text"], json!("North wins in 5"));
        assert_eq!(e["mate"], json!(-5));
        assert_eq!(e["south"], Value::Null);
        assert_eq!(
            evaluation(-win, Side::North, &w)["text"],
            json!("South wins in 5")
        );
        assert_eq!(
            external_eval("mate 3", Side::South, &w).unwrap()["text"],
            json!("South wins in 3")
        );
    }
}
