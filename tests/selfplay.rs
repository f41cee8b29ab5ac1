//! Search sanity: with the same evaluation, searching two plies deeper wins a
//! short match, in every variant.

use kete::game::{Game, GameRecord, GameResult, Side};
use kete::search::{self, Limits, Settings, Shared};
use kete::variants::{VARIANT_NAMES, Variant, VariantVisitor};

/// Depths and openings per variant: (shallow, deep, openings). Each opening
/// is played with both colours.
fn plan(variant: &str) -> (u32, u32, usize) {
    let env = std::env::var("KETE_SELFPLAY").ok();
    if let Some(spec) = env.as_deref() {
        let f: Vec<&str> = spec.split(':').collect();
        if f[0] == variant {
            return (
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            );
        }
    }
    // Kujifunza's opening phase is long and tactical: two plies at depth 2
    // vs 4 are too few to tell apart in 32 games, at 3 vs 5 they are not.
    match variant {
        "bao-kujifunza" => (3, 5, 16),
        _ => (2, 4, 16),
    }
}

/// Plays the match and returns the deep side's points (win 1, draw 1/2) ×2
/// and the number of games.
struct Match {
    shallow: u32,
    deep: u32,
    openings: usize,
}

impl VariantVisitor for Match {
    type Output = (u32, u32);

    fn visit<G: Game>(self, rules: G::Rules) -> (u32, u32) {
        let mut points2 = 0;
        let mut games = 0;
        let mut seed = 12345u64;
        for opening in 0..self.openings {
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
                        self.deep
                    } else {
                        self.shallow
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
        let (shallow, deep, openings) = plan(name);
        if std::env::var("KETE_SELFPLAY").is_ok_and(|s| !s.starts_with(&format!("{name}:"))) {
            continue;
        }
        let (points2, games) = Variant::by_name(name).unwrap().visit(Match {
            shallow,
            deep,
            openings,
        });
        let score = points2 as f64 / 2.0 / games as f64;
        eprintln!(
            "{name}: depth {deep} vs depth {shallow}: {:.1}/{games} ({:.0}%)",
            points2 as f64 / 2.0,
            score * 100.0
        );
        assert!(
            score > 0.6,
            "{name}: depth {deep} scored only {:.0}% against depth {shallow}",
            score * 100.0
        );
    }
}
