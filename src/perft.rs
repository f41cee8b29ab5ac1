//! Perft: the number of move sequences of exactly `depth` moves from a
//! position, the standard check of a move generator. One sowing is one move;
//! a sequence whose game ended earlier (repetition included) is not counted.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::Game;

/// What a perft run counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftCount {
    /// Move sequences of exactly the asked depth.
    pub sequences: u64,
    /// Moves actually played to find them (bulk counting plays none at the
    /// last ply).
    pub played: u64,
}

impl std::ops::AddAssign for PerftCount {
    fn add_assign(&mut self, o: PerftCount) {
        self.sequences += o.sequences;
        self.played += o.played;
    }
}

struct Perft<'a, G: Game> {
    /// Checked now and then; once set, the counts are meaningless.
    stop: Option<&'a AtomicBool>,
    calls: u64,
    interrupted: bool,
    /// One move buffer per ply, reused.
    buffers: Vec<Vec<G::Move>>,
    /// Positions of the line so far, for the repetition rule.
    history: Vec<G>,
    /// Whether the rules end a game on a repeated position: only then is
    /// the history kept (a described game may repeat positions and have
    /// no such rule).
    repeats: bool,
    bulk: bool,
}

impl<'a, G: Game> Perft<'a, G> {
    fn new(depth: u32, bulk: bool, stop: Option<&'a AtomicBool>) -> Self {
        Perft {
            stop,
            calls: 0,
            interrupted: false,
            buffers: (0..=depth).map(|_| Vec::with_capacity(64)).collect(),
            history: Vec::new(),
            repeats: G::CAN_REPEAT,
            bulk,
        }
    }

    /// Starts the line at `pos`, whose rules say whether repetitions count.
    fn root(&mut self, pos: &G) {
        self.repeats = G::CAN_REPEAT && pos.repetition_outcome().is_some();
        self.history.push(pos.clone());
    }

    /// Counts from `pos`, in the copy of the recursion this CPU runs
    /// fastest.
    fn start(&mut self, pos: &G, depth: u32) -> PerftCount {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has_x86_64_v3() {
            // SAFETY: `run_v3` is compiled for x86-64-v3, and this CPU has
            // every feature of it.
            return unsafe { self.run_v3(pos, depth) };
        }
        self.run(pos, depth)
    }

    /// The recursion compiled for any x86-64 (or other) CPU.
    fn run(&mut self, pos: &G, depth: u32) -> PerftCount {
        self.step(pos, depth, Self::run)
    }

    /// The same recursion compiled for x86-64-v3 (see [`crate::cpu`]), the
    /// game's moves inlined into it: where shifts by a variable count are
    /// one instruction (BMI2), Kalah's word-wide sowing is faster. It calls
    /// itself, so the whole tree runs in this copy.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt")]
    fn run_v3(&mut self, pos: &G, depth: u32) -> PerftCount {
        self.step(pos, depth, |p, pos, depth| p.run_v3(pos, depth))
    }

    /// One node of the recursion; `deeper` counts a child. Inlined into each
    /// copy, so each compiles it for its own CPU level.
    #[inline(always)]
    fn step(
        &mut self,
        pos: &G,
        depth: u32,
        mut deeper: impl FnMut(&mut Self, &G, u32) -> PerftCount,
    ) -> PerftCount {
        self.calls += 1;
        if self.interrupted
            || self.calls & 0xFFF == 0 && self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.interrupted = true;
            return PerftCount::default();
        }
        if depth == 0 {
            return PerftCount {
                sequences: 1,
                played: 0,
            };
        }
        if self.bulk && depth == 1 {
            return PerftCount {
                sequences: pos.count_legal_moves() as u64,
                played: 0,
            };
        }
        let mut moves = std::mem::take(&mut self.buffers[depth as usize]);
        pos.legal_moves(&mut moves);
        if self.bulk && depth == 2 {
            // The last ply is counted, not played: each child's moves are
            // counted here rather than in a call per child. A child that
            // repeats the line ends the game there, one move short.
            let mut count = PerftCount::default();
            for &mv in &moves {
                let next = pos.play(mv);
                count.played += 1;
                if self.repeats
                    && next.repetition_outcome().is_some()
                    && self.history.contains(&next)
                {
                    continue;
                }
                count.sequences += next.count_legal_moves() as u64;
            }
            self.buffers[depth as usize] = moves;
            return count;
        }
        if depth == 1 {
            // The last ply: each move makes one sequence, whether or not it
            // ends the game (by repetition too), so nothing below it is
            // asked. Each move is still played: `black_box` keeps the
            // optimiser from dropping the work perft is there to measure.
            for &mv in &moves {
                std::hint::black_box(pos.play(mv));
            }
            let n = moves.len() as u64;
            self.buffers[depth as usize] = moves;
            return PerftCount {
                sequences: n,
                played: n,
            };
        }
        let mut count = PerftCount::default();
        for &mv in &moves {
            let next = pos.play(mv);
            count.played += 1;
            if self.repeats {
                if next.repetition_outcome().is_some() && self.history.contains(&next) {
                    // The game ended on this move.
                    count.sequences += (depth == 1) as u64;
                    continue;
                }
                self.history.push(next.clone());
                count += deeper(self, &next, depth - 1);
                self.history.pop();
            } else {
                count += deeper(self, &next, depth - 1);
            }
        }
        self.buffers[depth as usize] = moves;
        count
    }
}

/// Counts the sequences of `depth` moves from `pos`. With `bulk` the last ply
/// is counted without being played (a repetition on the last move still ends
/// a sequence of the full length, so it counts either way).
pub fn perft<G: Game>(pos: &G, depth: u32, bulk: bool) -> PerftCount {
    let mut p = Perft::<G>::new(depth, bulk, None);
    p.root(pos);
    p.start(pos, depth)
}

/// Perft split by the first move: each legal move with its count.
pub fn perft_divide<G: Game>(pos: &G, depth: u32, bulk: bool) -> Vec<(G::Move, PerftCount)> {
    perft_divide_until(pos, depth, bulk, None).unwrap_or_default()
}

/// `perft_divide` that gives up (`None`) once `stop` is set.
pub fn perft_divide_until<G: Game>(
    pos: &G,
    depth: u32,
    bulk: bool,
    stop: Option<&AtomicBool>,
) -> Option<Vec<(G::Move, PerftCount)>> {
    let mut moves = Vec::new();
    if depth == 0 {
        return Some(Vec::new());
    }
    pos.legal_moves(&mut moves);
    let mut p = Perft::<G>::new(depth, bulk, stop);
    p.root(pos);
    let counts = moves
        .into_iter()
        .map(|mv| {
            let next = pos.play(mv);
            let mut c = PerftCount {
                sequences: 0,
                played: 1,
            };
            if p.repeats && next.repetition_outcome().is_some() && p.history.contains(&next) {
                c.sequences = (depth == 1) as u64;
                return (mv, c);
            }
            p.history.push(next.clone());
            c += p.start(&next, depth - 1);
            p.history.pop();
            (mv, c)
        })
        .collect();
    (!p.interrupted).then_some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::kalah::{Kalah, KalahRules};
    use crate::variants::oware::{Oware, OwareRules};

    /// Counts `pos` to `depth` in the portable copy and, where this CPU has
    /// it, in the x86-64-v3 copy: both must count alike, and `perft` (which
    /// picks one) too.
    fn portable_and_v3_agree<G: Game>(pos: &G, depth: u32) -> PerftCount {
        let mut counts = Vec::new();
        for bulk in [false, true] {
            let mut p = Perft::<G>::new(depth, bulk, None);
            p.history.push(pos.clone());
            let portable = p.run(pos, depth);
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::has_x86_64_v3() {
                let mut p = Perft::<G>::new(depth, bulk, None);
                p.history.push(pos.clone());
                // SAFETY: the CPU has x86-64-v3, asked just above.
                let v3 = unsafe { p.run_v3(pos, depth) };
                assert_eq!(v3, portable, "bulk={bulk}");
            }
            assert_eq!(perft(pos, depth, bulk), portable, "bulk={bulk}");
            counts.push(portable);
        }
        assert_eq!(counts[0].sequences, counts[1].sequences);
        counts[0]
    }

    #[test]
    fn the_cpu_specific_perft_counts_as_the_portable_one() {
        let kalah = Kalah::start(&KalahRules::default());
        assert_eq!(portable_and_v3_agree(&kalah, 8).sequences, 563_055);
        // Oware repeats positions: the history is in both copies too.
        let oware = Oware::start(&OwareRules::default());
        assert_eq!(portable_and_v3_agree(&oware, 7).sequences, 139_157);
    }
}
