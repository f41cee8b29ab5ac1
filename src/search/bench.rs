//! `bench`: fixed searches of every variant. The node count is a signature of
//! the search: any change to move generation, ordering or pruning changes it,
//! so it is recorded in the README and checked by a test to be repeatable.

use std::time::{Duration, Instant};

use crate::game::Game;
use crate::search::{self, Limits, Settings, Shared};
use crate::variants::{VARIANT_NAMES, Variant, VariantVisitor};

/// Positions per variant: the start and the positions after this many plies
/// of a fixed pseudo-random game.
const PLIES: [usize; 4] = [0, 6, 14, 24];
/// Nominal depth of every bench search unless the caller sets one.
pub const DEFAULT_DEPTH: u32 = 12;

/// What one bench run measured.
#[derive(Clone, Debug, Default)]
pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
    /// Per position: variant, position token, nodes.
    pub positions: Vec<(String, String, u64)>,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }

    /// The line scripts read: `<N> nodes <M> nps`.
    pub fn summary(&self) -> String {
        format!("{} nodes {} nps", self.nodes, self.nps())
    }
}

/// A small generator that depends on nothing outside this file, so that the
/// bench positions never change with a dependency.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

struct Bench<'a> {
    depth: u32,
    progress: &'a mut dyn FnMut(&str),
}

impl VariantVisitor for Bench<'_> {
    type Output = Vec<(String, u64, Duration)>;

    fn visit<G: Game>(self, rules: G::Rules) -> Self::Output {
        let mut out = Vec::new();
        let mut pos = G::start(&rules);
        let mut seed = 0x6B65_7465u64;
        let mut ply = 0;
        let mut moves = Vec::new();
        for &target in &PLIES {
            while ply < target {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[next(&mut seed) as usize % moves.len()];
                pos = pos.play(mv);
                ply += 1;
            }
            if pos.outcome().is_some() {
                break;
            }
            let shared = Shared::new(16);
            let limits = Limits {
                depth: Some(self.depth),
                ..Limits::default()
            };
            let t = Instant::now();
            let r = search::search(
                &pos,
                &[],
                &limits,
                &Settings::default(),
                &shared,
                &mut |_| {},
            );
            let elapsed = t.elapsed();
            (self.progress)(&format!(
                "{} nodes {} time {} ms",
                pos.to_notation(),
                r.nodes,
                elapsed.as_millis()
            ));
            out.push((pos.to_notation(), r.nodes, elapsed));
        }
        out
    }
}

/// Runs the bench at `depth` (default [`DEFAULT_DEPTH`]) on one thread.
pub fn run(depth: Option<u32>, progress: &mut dyn FnMut(&str)) -> BenchResult {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    let mut result = BenchResult::default();
    for name in VARIANT_NAMES {
        let variant = Variant::by_name(name).expect("known variant");
        let mut report = |s: &str| progress(&format!("{name} {s}"));
        for (fen, nodes, time) in variant.visit(Bench {
            depth,
            progress: &mut report,
        }) {
            result.nodes += nodes;
            result.time += time;
            result.positions.push((name.to_string(), fen, nodes));
        }
    }
    result
}
