//! Split solving: the positions a few moves from the root become
//! independent jobs (for a cluster's job array), each solved exactly on
//! its own, and their values are backed up to the root by minimax.
//!
//! A job is the line of moves that reaches it from the root, not only its
//! position: where positions can repeat (Oware), the value of a position
//! depends on the positions since the last capture on its line, so the job
//! carries them to its solve, and two lines to one position with different
//! such positions are two jobs.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::margin;
use crate::game::SolveGame;

/// The split of one solve, as `jobs.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobsFile {
    pub variant: String,
    /// Every option of the variant with its value.
    pub options: Vec<(String, String)>,
    /// The position split, in the variant's notation.
    pub root: String,
    /// Moves from the root to the jobs.
    pub plies: usize,
    pub jobs: Vec<Job>,
}

/// One position to solve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub id: usize,
    /// The moves from the root, in the variant's notation.
    pub moves: Vec<String>,
    /// The position they reach.
    pub fen: String,
}

/// A solved job, as `results/job-<id>.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    pub id: usize,
    pub fen: String,
    /// The exact final margin, from the job's side to move's point of view.
    pub value: i32,
    pub best: Vec<String>,
    pub nodes: u64,
    pub seconds: f64,
}

/// What identifies a job: the position and the positions of its line that
/// it could still repeat (folded into one word, as the solver's table does).
pub type JobKey = (u64, u64);

/// A position on a line from the root, with the positions before it.
struct Line<G> {
    pos: G,
    /// (hash, seeds in play) of the positions before `pos`, oldest first.
    history: Vec<(u64, u32)>,
}

impl<G: SolveGame> Line<G> {
    fn key(&self) -> JobKey {
        if !G::CAN_REPEAT {
            return (self.pos.hash(), 0);
        }
        let seeds = self.pos.seeds_in_play();
        let mut set = 0;
        for &(h, s) in self.history.iter().rev() {
            if s != seeds {
                break;
            }
            set ^= h;
        }
        (self.pos.hash(), set)
    }

    /// The value if the game is over here (side to move's view): by the
    /// rules, or by repeating a position of its line.
    fn finished(&self) -> Option<i32> {
        let side = self.pos.side_to_move();
        if let Some(o) = self.pos.outcome() {
            return Some(margin(o, side));
        }
        let h = self.pos.hash();
        if G::CAN_REPEAT && self.history.iter().any(|&(x, _)| x == h) {
            return Some(
                self.pos
                    .repetition_outcome()
                    .map_or(self.pos.banked(), |o| margin(o, side)),
            );
        }
        None
    }

    fn child(&self, mv: G::Move) -> Line<G> {
        let mut history = self.history.clone();
        if G::CAN_REPEAT {
            history.push((self.pos.hash(), self.pos.seeds_in_play()));
        }
        Line {
            pos: self.pos.play(mv),
            history,
        }
    }
}

/// The distinct jobs `plies` moves from `root` (fewer where the game ends
/// sooner), in the order first reached, each as its line of moves.
pub fn split<G: SolveGame>(root: &G, plies: usize) -> Vec<Vec<G::Move>> {
    fn walk<G: SolveGame>(
        line: &Line<G>,
        depth: usize,
        plies: usize,
        moves: &mut Vec<G::Move>,
        seen: &mut HashMap<JobKey, usize>,
        out: &mut Vec<Vec<G::Move>>,
    ) {
        if depth > 0 && line.finished().is_some() {
            return;
        }
        if depth == plies {
            let n = seen.len();
            if seen.entry(line.key()).or_insert(n) == &n {
                out.push(moves.clone());
            }
            return;
        }
        let mut legal = Vec::new();
        line.pos.legal_moves(&mut legal);
        for mv in legal {
            moves.push(mv);
            walk(&line.child(mv), depth + 1, plies, moves, seen, out);
            moves.pop();
        }
    }
    let mut out = Vec::new();
    let root = Line {
        pos: root.clone(),
        history: Vec::new(),
    };
    walk(
        &root,
        0,
        plies,
        &mut Vec::new(),
        &mut HashMap::new(),
        &mut out,
    );
    out
}

/// The position a job's line reaches, the history its solve must be given
/// ([`super::SolveOptions::history`]) and its key.
pub fn replay<G: SolveGame>(root: &G, moves: &[G::Move]) -> (G, Vec<(u64, u32)>, JobKey) {
    let mut line = Line {
        pos: root.clone(),
        history: Vec::new(),
    };
    for &mv in moves {
        line = line.child(mv);
    }
    let key = line.key();
    (line.pos, line.history, key)
}

/// Backs the jobs' values (`value` of a key, from its side to move's view)
/// up to the root: the root's value and every root move that reaches it,
/// or the first key without a value.
pub fn combine<G: SolveGame>(
    root: &G,
    plies: usize,
    value: &dyn Fn(&JobKey) -> Option<i32>,
) -> Result<(i32, Vec<G::Move>), JobKey> {
    let line = Line {
        pos: root.clone(),
        history: Vec::new(),
    };
    if let Some(v) = line.finished() {
        return Ok((v, Vec::new()));
    }
    if plies == 0 {
        return Ok((value(&line.key()).ok_or(line.key())?, Vec::new()));
    }
    let above = values_above(root, plies, value)?;
    let (_, moves) = above
        .first()
        .expect("a root whose game goes on is above the split");
    let best = moves.iter().map(|&(_, v)| v).max().unwrap_or(0);
    let best_moves = moves
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(m, _)| m)
        .collect();
    Ok((best, best_moves))
}

/// Every position whose game goes on fewer than `plies` moves from `root`
/// (each once, the root first), with the exact value of each of its moves
/// from its side to move's view, backed up from the jobs' values; or the
/// first key without a value. An opening book of exact values is this list.
#[allow(clippy::type_complexity)]
pub fn values_above<G: SolveGame>(
    root: &G,
    plies: usize,
    value: &dyn Fn(&JobKey) -> Option<i32>,
) -> Result<Vec<(G, Vec<(G::Move, i32)>)>, JobKey> {
    let (known, missing) = known_values_above(root, plies, value);
    match missing.first() {
        Some(&key) => Err(key),
        None => Ok(known),
    }
}

/// [`values_above`] of a split not solved to the end: the positions whose
/// every job below is solved, and the keys of the jobs without a value.
/// `value` may also know positions above the split (solved on their own, as
/// the jobs of a shallower split): a position whose jobs are not all solved
/// then still gives its value to the position above it, without an entry
/// of its own.
#[allow(clippy::type_complexity)]
pub fn known_values_above<G: SolveGame>(
    root: &G,
    plies: usize,
    value: &dyn Fn(&JobKey) -> Option<i32>,
) -> (Vec<(G, Vec<(G::Move, i32)>)>, Vec<JobKey>) {
    struct Walk<'a, G: SolveGame> {
        plies: usize,
        value: &'a dyn Fn(&JobKey) -> Option<i32>,
        /// The value of each position above the split walked, `None` where a
        /// job below it has none.
        seen: HashMap<JobKey, Option<i32>>,
        missing: Vec<JobKey>,
        /// `missing` as a set: a job is listed once however many lines
        /// reach it.
        listed: std::collections::HashSet<JobKey>,
        out: Vec<(G, Vec<(G::Move, i32)>)>,
    }
    impl<G: SolveGame> Walk<'_, G> {
        /// The value of `line`'s position for its side to move, if known.
        fn eval(&mut self, line: &Line<G>, depth: usize) -> Option<i32> {
            if let Some(v) = line.finished().filter(|_| depth > 0) {
                return Some(v);
            }
            let key = line.key();
            if depth == self.plies {
                let v = (self.value)(&key);
                if v.is_none() && self.listed.insert(key) {
                    self.missing.push(key);
                }
                return v;
            }
            if let Some(&v) = self.seen.get(&key) {
                return v;
            }
            let mut legal = Vec::new();
            line.pos.legal_moves(&mut legal);
            let mut moves = Vec::with_capacity(legal.len());
            let mut whole = true;
            for mv in legal {
                let child = line.child(mv);
                match self.eval(&child, depth + 1) {
                    Some(v) => {
                        let same = child.pos.side_to_move() == line.pos.side_to_move();
                        moves.push((mv, if same { v } else { -v }));
                    }
                    None => whole = false,
                }
            }
            let best = if whole {
                moves.iter().map(|&(_, v)| v).max()
            } else {
                (self.value)(&key)
            };
            self.seen.insert(key, best);
            if whole {
                self.out.push((line.pos.clone(), moves));
            }
            best
        }
    }
    let mut walk = Walk {
        plies,
        value,
        seen: HashMap::new(),
        missing: Vec::new(),
        listed: Default::default(),
        out: Vec::new(),
    };
    let line = Line {
        pos: root.clone(),
        history: Vec::new(),
    };
    if plies > 0 && line.finished().is_none() {
        walk.eval(&line, 0);
    }
    // Children finish before their parents: the root came last.
    walk.out.reverse();
    (walk.out, walk.missing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::solve::{SolveOptions, solve};
    use crate::variants::kalah::{Kalah, KalahRules};
    use crate::variants::oware::{Oware, OwareRules, Repetition, RuleSet};

    /// Solves every job of a split and combines them.
    fn split_solve<G: SolveGame>(root: &G, plies: usize) -> (i32, Vec<G::Move>, usize) {
        let lines = split(root, plies);
        let mut values = HashMap::new();
        for line in &lines {
            let (pos, history, key) = replay(root, line);
            let opts = SolveOptions {
                hash_mb: 4,
                history,
                ..Default::default()
            };
            values.insert(key, solve(&pos, &opts, &mut |_| {}).value);
        }
        let (v, best) =
            combine(root, plies, &|k| values.get(k).copied()).expect("every job solved");
        (v, best, lines.len())
    }

    /// Every position above a split gets each move's exact value: the
    /// value a solve of the position after the move finds.
    #[test]
    fn values_above_a_split_are_each_moves_exact_value() {
        let rules = KalahRules {
            pits: 4,
            seeds: 3,
            ..KalahRules::default()
        };
        let root = Kalah::start(&rules);
        let lines = split(&root, 3);
        let mut values = HashMap::new();
        for line in &lines {
            let (pos, history, key) = replay(&root, line);
            let opts = SolveOptions {
                hash_mb: 4,
                history,
                ..Default::default()
            };
            values.insert(key, solve(&pos, &opts, &mut |_| {}).value);
        }
        let above = values_above(&root, 3, &|k| values.get(k).copied()).expect("all solved");
        assert_eq!(above[0].0, root);
        let mut keys: Vec<u64> = above.iter().map(|(p, _)| p.hash()).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), above.len(), "each position once");
        assert!(above.len() > 10, "{}", above.len());
        let opts = SolveOptions {
            hash_mb: 4,
            ..Default::default()
        };
        for (pos, moves) in &above {
            for &(mv, v) in moves {
                let child = pos.play(mv);
                let w = match child.outcome() {
                    Some(o) => margin(o, child.side_to_move()),
                    None => solve(&child, &opts, &mut |_| {}).value,
                };
                let w = if child.side_to_move() == pos.side_to_move() {
                    w
                } else {
                    -w
                };
                assert_eq!(v, w, "{} {}", pos.to_notation(), pos.format_move(mv));
            }
        }
        assert_eq!(
            combine(&root, 3, &|k| values.get(k).copied()).unwrap().0,
            solve(&root, &opts, &mut |_| {}).value
        );
        // Without the jobs after South's B, the positions above them are
        // left out (the root among them), the others kept as they were.
        let b = root.parse_move("B").unwrap();
        let after_b: Vec<JobKey> = lines
            .iter()
            .filter(|l| l[0] == b)
            .map(|l| replay(&root, l).2)
            .collect();
        let (known, missing) = known_values_above(&root, 3, &|k| {
            values.get(k).copied().filter(|_| !after_b.contains(k))
        });
        assert_eq!(missing.len(), after_b.len());
        assert!(!known.is_empty() && known.len() < above.len());
        assert!(known.iter().all(|k| above.contains(k)));
        assert!(known.iter().all(|(p, _)| *p != root && *p != root.play(b)));
        assert!(
            values_above(&root, 3, &|k| {
                values.get(k).copied().filter(|_| !after_b.contains(k))
            })
            .is_err()
        );
        // The position after B solved on its own gives the root its entry
        // back, the same as before; B's own entry stays out.
        let b_key = replay(&root, &[b]).2;
        let b_value = solve(&root.play(b), &opts, &mut |_| {}).value;
        let (known, _) = known_values_above(&root, 3, &|k| {
            if *k == b_key {
                return Some(b_value);
            }
            values.get(k).copied().filter(|_| !after_b.contains(k))
        });
        assert_eq!(known[0], above[0]);
        assert!(known.iter().all(|(p, _)| *p != root.play(b)));
    }

    fn all_best<G: SolveGame>(root: &G) -> (i32, Vec<G::Move>) {
        let opts = SolveOptions {
            hash_mb: 4,
            all_best: true,
            ..Default::default()
        };
        let r = solve(root, &opts, &mut |_| {});
        (r.value, r.best)
    }

    #[test]
    fn a_split_solve_of_small_kalah_boards_equals_the_plain_solve() {
        for (pits, seeds) in [(3, 3), (4, 2), (3, 4)] {
            let rules = KalahRules {
                pits,
                seeds,
                ..Default::default()
            };
            let root = Kalah::start(&rules);
            let plain = all_best(&root);
            for plies in 1..=3 {
                let (v, best, jobs) = split_solve(&root, plies);
                assert_eq!(
                    (v, best),
                    plain,
                    "Kalah({pits},{seeds}) split at {plies}: {jobs} jobs"
                );
            }
        }
    }

    #[test]
    fn a_split_solve_of_small_oware_boards_keeps_the_repetition_rule_exact() {
        for (rules, repetition) in [
            (RuleSet::Awari, Repetition::OwnSide),
            (RuleSet::Abapa, Repetition::OwnSide),
            (RuleSet::Abapa, Repetition::Split),
        ] {
            let r = OwareRules {
                houses: 3,
                seeds: 2,
                rules,
                repetition,
            };
            let root = Oware::start(&r);
            let plain = all_best(&root);
            for plies in [1, 3] {
                let (v, best, jobs) = split_solve(&root, plies);
                assert_eq!(
                    (v, best),
                    plain,
                    "Oware 3x2 {r:?} split at {plies}: {jobs} jobs"
                );
            }
        }
    }

    #[test]
    fn lines_to_one_position_are_one_job_unless_their_repeatable_positions_differ() {
        let root = Kalah::start(&KalahRules {
            pits: 3,
            seeds: 3,
            ..Default::default()
        });
        let lines = split(&root, 3);
        let keys: std::collections::HashSet<JobKey> =
            lines.iter().map(|l| replay(&root, l).2).collect();
        assert_eq!(
            keys.len(),
            lines.len(),
            "no two Kalah jobs share a position"
        );
    }
}
