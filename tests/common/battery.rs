//! The checks every game must pass, whatever its rules: [`check_game`] runs
//! them on any `G: Game`, so a new game gets them by implementing the trait.

use std::collections::{HashMap, HashSet};

use kete::game::{Evaluator, Game, GameRecord};
use kete::perft::{perft, perft_divide};
use kete::variants::{OptionKind, Variant};

use super::rng::Rng;

/// How much of a game the battery walks.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Random games played from the start.
    pub games: usize,
    /// At most this many moves a game.
    pub plies: usize,
    /// Perft depth of the `--divide` checks at the start.
    pub perft_depth: u32,
}

impl Default for Effort {
    fn default() -> Self {
        Effort {
            games: 12,
            plies: 200,
            perft_depth: 3,
        }
    }
}

/// What [`check_game`] looked at.
#[derive(Clone, Copy, Debug, Default)]
pub struct Checked {
    /// Positions checked on their own (the random games' positions).
    pub positions: usize,
    /// Distinct positions among them.
    pub distinct: usize,
    /// Distinct move texts tried in every position.
    pub move_texts: usize,
    /// Games that ended before the ply limit.
    pub finished: usize,
}

/// Runs every check on the game `G` under `rules`:
/// - the start position reads back from its notation, and says its rules;
/// - perft's `--divide` has one entry per legal move, each the perft of
///   the position after it, summing to the total (played and bulk), at the
///   start and at positions of the random games;
/// - on random games (which must never panic), every position: notation
///   round-trips to an equal position with an equal hash; equal notations
///   have equal hashes and equal hashes equal notations; the seeds are
///   conserved; the legal moves are distinct, counted by
///   `count_legal_moves`, none exactly when the game is over; each one's
///   text reads back to it; and of every move text seen in the games,
///   `parse_move` accepts exactly those of legal moves; the referee
///   (`GameRecord::play_text`) accepts each move played;
/// - every evaluator's name reads back, and each evaluates every position
///   of a game that is not over with terms that add up to the value.
pub fn check_game<G: Game>(rules: &G::Rules, seed: u64, effort: Effort) -> Checked {
    let start = G::start(rules);
    let context = format!("{:?}", rules);
    assert_eq!(&start.rules(), rules, "{context}: start's rules");
    let seeds = start.total_seeds();
    check_divide(&start, effort.perft_depth, &context);

    for name in <G::Eval as Evaluator<G>>::names() {
        let e = <G::Eval as Evaluator<G>>::by_name(name)
            .unwrap_or_else(|| panic!("{context}: evaluator {name} not found by its name"));
        assert_eq!(e.name(), name, "{context}");
    }

    let mut rng = Rng::new(seed);
    let mut texts: Vec<String> = Vec::new();
    let mut known: HashSet<String> = HashSet::new();
    let mut hash_of: HashMap<String, u64> = HashMap::new();
    let mut notation_of: HashMap<u64, String> = HashMap::new();
    let mut moves = Vec::new();
    let mut checked = Checked::default();
    for game in 0..effort.games {
        let mut record = GameRecord::new(start.clone());
        for ply in 0..effort.plies {
            let pos = record.position().clone();
            let here = format!("{context}, game {game} ply {ply}: {}", pos.to_notation());
            check_position(&pos, seeds, &here);
            checked.positions += 1;
            let text = pos.to_notation();
            let h = pos.hash();
            assert_eq!(*hash_of.entry(text.clone()).or_insert(h), h, "{here}");
            assert_eq!(
                notation_of.entry(h).or_insert_with(|| text.clone()),
                &text,
                "{here}: two positions share a hash"
            );

            pos.legal_moves(&mut moves);
            for &mv in &moves {
                let t = pos.format_move(mv);
                if known.insert(t.clone()) {
                    texts.push(t);
                }
            }
            // Of every move text met so far, exactly the legal ones parse.
            for t in &texts {
                if let Ok(mv) = pos.parse_move(t) {
                    assert!(moves.contains(&mv), "{here}: '{t}' accepted but not legal");
                }
            }
            if ply % 25 == 7 && pos.outcome().is_none() {
                check_divide(&pos, 2, &here);
            }
            if record.outcome().is_some() {
                checked.finished += 1;
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let played = record
                .play_text(&pos.format_move(mv))
                .unwrap_or_else(|e| panic!("{here}: the referee refused a legal move: {e}"));
            assert_eq!(played, mv, "{here}");
        }
    }
    checked.distinct = hash_of.len();
    checked.move_texts = texts.len();
    checked
}

/// The checks of one position on its own.
fn check_position<G: Game>(pos: &G, seeds: u32, here: &str) {
    let text = pos.to_notation();
    let back = G::from_notation(&pos.rules(), &text)
        .unwrap_or_else(|e| panic!("{here}: does not read back: {e}"));
    assert_eq!(&back, pos, "{here}");
    assert_eq!(back.to_notation(), text, "{here}");
    assert_eq!(back.hash(), pos.hash(), "{here}");
    assert_eq!(pos.total_seeds(), seeds, "{here}: seeds not conserved");
    assert!(!pos.diagram().is_empty(), "{here}");

    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(pos.count_legal_moves(), moves.len(), "{here}");
    assert_eq!(moves.is_empty(), pos.outcome().is_some(), "{here}");
    let distinct: HashSet<_> = moves.iter().collect();
    assert_eq!(distinct.len(), moves.len(), "{here}: a move listed twice");
    // Every legal move has its own index in the action space, and the index
    // gives the move back.
    let rules = pos.rules();
    let actions: HashSet<usize> = moves.iter().map(|&mv| G::action_of(mv)).collect();
    assert_eq!(
        actions.len(),
        moves.len(),
        "{here}: two moves share an action"
    );
    for &mv in &moves {
        let a = G::action_of(mv);
        assert!(a < G::action_count(&rules), "{here}: action {a} of {mv:?}");
        assert_eq!(G::move_of_action(&rules, a), Some(mv), "{here}: action {a}");
    }
    assert_eq!(
        G::move_of_action(&rules, G::action_count(&rules)),
        None,
        "{here}"
    );
    // The observation fills its length with counts and flags, no more.
    let len = G::observation_len(&rules);
    let mut obs = vec![f32::NAN; len + 1];
    pos.observe(pos.side_to_move(), &mut obs);
    assert!(
        obs[..len].iter().all(|v| v.is_finite() && *v >= 0.0),
        "{here}: observation {obs:?}"
    );
    assert!(obs[len].is_nan(), "{here}: observation longer than {len}");
    for &mv in &moves {
        let t = pos.format_move(mv);
        assert_eq!(pos.parse_move(&t), Ok(mv), "{here}: '{t}'");
        let next = pos.play(mv);
        assert_eq!(next.total_seeds(), seeds, "{here}: after {t}");
        assert_eq!(next.rules(), pos.rules(), "{here}: after {t}");
    }
    if pos.outcome().is_none() {
        for name in <G::Eval as Evaluator<G>>::names() {
            let e = <G::Eval as Evaluator<G>>::by_name(name).unwrap();
            let sum: i32 = e.terms(pos).iter().map(|(_, v)| v).sum();
            assert_eq!(sum, e.evaluate(pos), "{here}: {name}'s terms");
        }
    }
}

/// Perft `--divide` at `depth` agrees with perft, played and bulk.
fn check_divide<G: Game>(pos: &G, depth: u32, here: &str) {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    for bulk in [false, true] {
        let total = perft(pos, depth, bulk).sequences;
        let divide = perft_divide(pos, depth, bulk);
        assert_eq!(divide.len(), legal.len(), "{here}: one entry per move");
        let mut sum = 0;
        for (mv, count) in &divide {
            assert!(legal.contains(mv), "{here}: {mv:?} is not legal");
            assert_eq!(
                count.sequences,
                perft(&pos.play(*mv), depth - 1, bulk).sequences,
                "{here}: divide entry {mv:?} (bulk {bulk})"
            );
            sum += count.sequences;
        }
        assert_eq!(sum, total, "{here}: divide sums to the total (bulk {bulk})");
    }
}

/// The variant under its default rules, then with each option value.
pub fn settings(name: &str) -> Vec<(String, Variant)> {
    let default = Variant::by_name(name).unwrap();
    let mut out = vec![(format!("{name} default"), default)];
    for option in default.options() {
        let values: Vec<String> = match option.kind {
            OptionKind::Spin { min, max, default } => {
                let mut v = vec![min, default, max];
                v.dedup();
                v.iter().map(|x| x.to_string()).collect()
            }
            OptionKind::Combo { values, .. } => values.iter().map(|s| s.to_string()).collect(),
        };
        for value in values {
            let mut v = default;
            v.set_option(option.name, &value)
                .unwrap_or_else(|e| panic!("{name} {}={value}: {e}", option.name));
            out.push((format!("{name} {}={value}", option.name), v));
        }
    }
    out
}
