//! Helpers of the two-row games' rule tests (Kalah, Oware): random
//! positions, and the check that the engine agrees with a seed-by-seed model.

use kete::game::{Game, Outcome, Side};

use super::rng::Rng;

/// A random position token of a two-row game with `m` pits a side and
/// `total` seeds: the seeds spread over the pits and stores (a store gets
/// one seed in `store_odds` on average, so that games last a while),
/// sometimes with one large heap in a pit (long laps).
pub fn random_token(rng: &mut Rng, m: usize, total: usize, store_odds: usize) -> String {
    let mut slots = vec![0usize; 2 * m + 2];
    let mut left = total;
    if rng.below(3) == 0 {
        let heap = rng.below(total + 1);
        slots[rng.below(2 * m)] += heap;
        left -= heap;
    }
    for _ in 0..left {
        let k = if rng.below(store_odds) == 0 {
            rng.below(2 * m + 2)
        } else {
            rng.below(2 * m)
        };
        slots[k] += 1;
    }
    let side = if rng.below(2) == 0 { "S" } else { "N" };
    let pits: Vec<String> = slots.iter().map(|v| v.to_string()).collect();
    format!("{}-{side}", pits.join("-"))
}

/// The move letter of pit `i` (from the mover's left) for `side`.
pub fn letter(side: Side, i: usize) -> String {
    let base = if side == Side::South { b'A' } else { b'a' };
    ((base + i as u8) as char).to_string()
}

/// What a seed-by-seed model of a two-row game says about a position.
pub trait Model {
    fn notation(&self) -> String;
    fn outcome(&self) -> Option<Outcome>;
    /// The legal pits, from the mover's left, in order.
    fn legal(&self) -> Vec<usize>;
    fn pits(&self) -> usize;
    /// Plays pit `i` of the mover (from his left).
    fn play(&mut self, i: usize);
}

/// Plays a random game of at most `plies` moves from `engine`, the model
/// following each move; they must agree (see [`agree`]) all the way.
pub fn random_game<G: Game<Move = u8>>(
    mut engine: G,
    mut model: impl Model,
    rng: &mut Rng,
    plies: usize,
    label: &str,
) {
    let origin = engine.to_notation();
    for ply in 0..plies {
        let context = format!("{label} from {origin}, ply {ply}");
        agree(&engine, &model, &context);
        let legal = model.legal();
        if legal.is_empty() {
            break;
        }
        let i = legal[rng.below(legal.len())];
        let before = engine.to_notation();
        let text = letter(engine.side_to_move(), i);
        engine = engine.play(i as u8);
        model.play(i);
        assert_eq!(
            engine.to_notation(),
            model.notation(),
            "{context}: {text} from {before}"
        );
    }
}

/// Asserts that the engine's position is the model's: notation, outcome,
/// legal moves, their count, and which pit letters `parse_move` accepts.
pub fn agree<G: Game<Move = u8>>(engine: &G, model: &impl Model, context: &str) {
    assert_eq!(engine.to_notation(), model.notation(), "{context}");
    assert_eq!(engine.outcome(), model.outcome(), "{context}");
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    let mut got: Vec<usize> = moves.iter().map(|&m| m as usize).collect();
    got.sort();
    assert_eq!(got, model.legal(), "{context}");
    assert_eq!(engine.count_legal_moves(), got.len(), "{context}");
    for i in 0..model.pits() {
        let text = letter(engine.side_to_move(), i);
        assert_eq!(
            engine.parse_move(&text).is_ok(),
            got.contains(&i),
            "{context}: {text}"
        );
    }
}
