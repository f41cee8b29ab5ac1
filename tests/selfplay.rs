//! Search sanity: with the same evaluation, searching two plies deeper wins a
//! short match, in every variant.

use kete::game::{Game, GameRecord, GameResult, Side};
use kete::search::{self, Limits, Settings, Shared};
use kete::variants::{VARIANT_NAMES, Variant, VariantVisitor};

const SHALLOW: u32 = 2;
const DEEP: u32 = 4;
const OPENINGS: usize = 8;

/// Plays the match and returns the deep side's points (win 1, draw 1/2) ×2
/// and the number of games.
struct Match;

impl VariantVisitor for Match {
    type Output = (u32, u32);

    fn visit<G: Game>(self, rules: G::Rules) -> (u32, u32) {
        let mut points2 = 0;
        let mut games = 0;
        let mut seed = 12345u64;
        for opening in 0..OPENINGS {
            // A short random opening, the same for both colour assignments.
            let mut start = GameRecord::new(G::start(&rules));
            let mut moves = Vec::new();
            for _ in 0..(2 + opening % 3) {
                start.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                start.play(moves[(seed >> 33) as usize % moves.len()]);
            }
            for deep_side in [Side::South, Side::North] {
                let mut game = start.clone();
                let shared = Shared::new(4);
                let mut plies = 0;
                while game.outcome().is_none() && plies < 400 {
                    let pos = game.position().clone();
                    let depth = if pos.side_to_move() == deep_side {
                        DEEP
                    } else {
                        SHALLOW
                    };
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    let history: Vec<u64> = game.positions().iter().map(|p| p.hash()).collect();
                    shared.tt.clear();
                    let r = search::search(
                        &pos,
                        &history,
                        &limits,
                        &Settings::default(),
                        &shared,
                        &mut |_| {},
                    );
                    game.play(r.best.expect("a move while the game goes on"));
                    plies += 1;
                }
                let result = game.outcome().map(|o| o.result).unwrap_or(GameResult::Draw);
                points2 += match result.winner() {
                    Some(w) if w == deep_side => 2,
                    None => 1,
                    Some(_) => 0,
                };
                games += 1;
            }
        }
        (points2, games)
    }
}

#[test]
fn deeper_search_wins_in_every_variant() {
    for name in VARIANT_NAMES {
        let (points2, games) = Variant::by_name(name).unwrap().visit(Match);
        let score = points2 as f64 / 2.0 / games as f64;
        eprintln!(
            "{name}: depth {DEEP} vs depth {SHALLOW}: {:.1}/{games} ({:.0}%)",
            points2 as f64 / 2.0,
            score * 100.0
        );
        assert!(
            score > 0.6,
            "{name}: depth {DEEP} scored only {:.0}% against depth {SHALLOW}",
            score * 100.0
        );
    }
}
