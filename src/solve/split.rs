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
    fn eval<G: SolveGame>(
        line: &Line<G>,
        depth: usize,
        plies: usize,
        value: &dyn Fn(&JobKey) -> Option<i32>,
    ) -> Result<i32, JobKey> {
        if let Some(v) = line.finished().filter(|_| depth > 0) {
            return Ok(v);
        }
        if depth == plies {
            let key = line.key();
            return value(&key).ok_or(key);
        }
        let mut legal = Vec::new();
        line.pos.legal_moves(&mut legal);
        let mut best = i32::MIN;
        for mv in legal {
            let child = line.child(mv);
            let v = eval(&child, depth + 1, plies, value)?;
            let v = if child.pos.side_to_move() == line.pos.side_to_move() {
                v
            } else {
                -v
            };
            best = best.max(v);
        }
        Ok(best)
    }
    let root = Line {
        pos: root.clone(),
        history: Vec::new(),
    };
    if let Some(v) = root.finished() {
        return Ok((v, Vec::new()));
    }
    let mut legal = Vec::new();
    root.pos.legal_moves(&mut legal);
    if plies == 0 {
        return Ok((value(&root.key()).ok_or(root.key())?, Vec::new()));
    }
    let mut values = Vec::new();
    for &mv in &legal {
        let child = root.child(mv);
        let v = eval(&child, 1, plies, value)?;
        let same = child.pos.side_to_move() == root.pos.side_to_move();
        values.push(if same { v } else { -v });
    }
    let best = values.iter().copied().max().unwrap_or(0);
    let moves = legal
        .iter()
        .zip(&values)
        .filter(|&(_, &v)| v == best)
        .map(|(&m, _)| m)
        .collect();
    Ok((best, moves))
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
