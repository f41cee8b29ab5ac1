//! Static evaluations: the [`Evaluator`] trait each variant's evaluations
//! implement, and the linear evaluation that `kete tune` fits.

use std::fmt;

/// A static evaluation of a variant's positions, in centiseeds (100 × the
/// expected final seed margin) from the side to move's point of view.
///
/// Each variant has an enum of evaluators; `Default` is the strongest.
pub trait Evaluator<G>:
    Clone + Copy + Default + PartialEq + fmt::Debug + Send + Sync + 'static
{
    /// Every evaluator with its names, the default first: its canonical
    /// name, then any aliases `by_name` also accepts. The one list that
    /// `by_name`, `name`, `names` and the protocol's `Eval` option read.
    const TABLE: &'static [(Self, &'static [&'static str])];

    /// The evaluator called `name` (or an alias), in any case.
    fn by_name(name: &str) -> Option<Self> {
        Self::TABLE
            .iter()
            .find(|(_, names)| names.iter().any(|n| n.eq_ignore_ascii_case(name.trim())))
            .map(|(e, _)| *e)
    }

    /// The canonical name.
    fn name(&self) -> &'static str {
        Self::TABLE
            .iter()
            .find(|(e, _)| e == self)
            .map_or("?", |(_, names)| names[0])
    }

    /// The canonical names, the default first.
    fn names() -> Vec<&'static str> {
        Self::TABLE.iter().map(|(_, names)| names[0]).collect()
    }

    /// The evaluation of a position whose game is not over.
    fn evaluate(&self, pos: &G) -> i32;

    /// The terms that add up to `evaluate`, named, for the `eval` command.
    fn terms(&self, pos: &G) -> Vec<(&'static str, i32)>;

    /// The features of the variant's linear evaluation, which `kete tune`
    /// fits to game results; empty where the variant has none.
    const FEATURES: &'static [&'static str] = &[];

    /// The weights of those features now, (opening, endgame) each: where
    /// `kete tune` starts from.
    const WEIGHTS: &'static [(i32, i32)] = &[];

    /// Writes the features of `pos` (a game not over), seen from the side to
    /// move, into `out` (as long as [`Evaluator::FEATURES`]) and returns the
    /// game's phase, from [`PHASE`] (every seed in play) down to 0.
    fn features(_pos: &G, _out: &mut [i32]) -> i32 {
        PHASE
    }

    /// The inputs of the variant's network evaluation, which `kete tune
    /// net` trains: how many there are; 0 where the variant has none.
    const NET_INPUTS: usize = 0;

    /// Writes the network inputs that are on for `pos` (a game not over),
    /// seen from the side to move, into `out` (at least [`MAX_NET_ACTIVE`]
    /// long) and returns how many; `None` where the position is not one the
    /// network knows (another board).
    fn net_inputs(_pos: &G, _out: &mut [u16]) -> Option<usize> {
        None
    }
}

/// Most network inputs on at once: Bao's network has the most, one for each
/// of its 32 pits and ten for the hands, the nyumbas, the stage and the
/// threats.
pub const MAX_NET_ACTIVE: usize = 42;

/// The phase of a game at its start: a linear evaluation blends a weight for
/// the opening (`phase == PHASE`) with one for the bare board (`phase == 0`).
pub const PHASE: i32 = 256;

/// Most features a linear evaluation may have.
pub const MAX_FEATURES: usize = 64;

/// The value of `E`'s linear evaluation of `pos`: its features times its
/// weights.
pub fn linear_value<G, E: Evaluator<G>>(pos: &G) -> i32 {
    let mut f = [0; MAX_FEATURES];
    let f = &mut f[..E::FEATURES.len()];
    let phase = E::features(pos, f);
    linear_eval(E::WEIGHTS, f, phase)
}

/// The terms of `E`'s linear evaluation of `pos`, as [`linear_terms`].
pub fn linear_value_terms<G, E: Evaluator<G>>(pos: &G) -> Vec<(&'static str, i32)> {
    let mut f = [0; MAX_FEATURES];
    let f = &mut f[..E::FEATURES.len()];
    let phase = E::features(pos, f);
    linear_terms(E::FEATURES, E::WEIGHTS, f, phase)
}

/// The terms of a linear evaluation for the `eval` command: each feature
/// that is not zero with its share, and the remainder of the one rounding
/// in [`linear_eval`] as `rounding`, so that the terms add up to it.
pub fn linear_terms(
    names: &[&'static str],
    weights: &[(i32, i32)],
    features: &[i32],
    phase: i32,
) -> Vec<(&'static str, i32)> {
    let mut terms: Vec<(&'static str, i32)> = names
        .iter()
        .zip(weights.iter().zip(features))
        .filter(|(_, (_, f))| **f != 0)
        .map(|(&name, (&w, &f))| (name, linear_eval(&[w], &[f], phase)))
        .collect();
    let rest = linear_eval(weights, features, phase) - terms.iter().map(|t| t.1).sum::<i32>();
    if rest != 0 {
        terms.push(("rounding", rest));
    }
    terms
}

/// A linear evaluation: each feature times its weight, the weight blended
/// between its opening and its endgame value by `phase`.
pub fn linear_eval(weights: &[(i32, i32)], features: &[i32], phase: i32) -> i32 {
    let (mut open, mut end) = (0i32, 0i32);
    for (&(o, e), &f) in weights.iter().zip(features) {
        open += o * f;
        end += e * f;
    }
    (open * phase + end * (PHASE - phase)) / PHASE
}
