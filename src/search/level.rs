//! Playing levels: kete made weaker on purpose, so that a person can pick an
//! opponent to beat, and two fixed reference players that measure them.
//!
//! A level plays as a weaker player does, not as a broken one: it looks
//! fewer moves ahead (a shallower search) and does not always pick the
//! move it thinks best, choosing among all its moves with a chance that
//! falls off with how much worse each one looks (a softmax of the scores
//! with a level's spread, in centiseeds). Above the lowest level it never
//! misses a move that wins the game at once. Every move is legal, and on a
//! clock it takes its time as a person would: the answer comes when the
//! full-strength search would have planned to stop, not at once.
//!
//! The reference players are the ends of the scale: the random mover, and
//! the greedy player, who takes the largest immediate gain
//! ([`Game::gained`]). What each level is worth in Elo is measured against
//! its neighbours per game and kept with the game ([`Game::level_elo`]); the
//! scale's anchor is the greedy player at 1000.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{Limits, Report, SearchResult, Settings, Shared, WIN};
use crate::game::Game;

/// One playing level: how deep it looks and how widely it strays from the
/// move it thinks best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The name the `Level` option takes.
    pub name: &'static str,
    /// The name people see.
    pub title: &'static str,
    /// Who it suits, in one line for people.
    pub words: &'static str,
    /// Whether it always plays a move that wins the game at once.
    pub sees_wins: bool,
}

/// How a level plays in one game ([`Game::level_play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play {
    /// The deepest nominal depth it searches.
    pub depth: u32,
    /// The spread of its choice, in centiseeds: a move that looks this much
    /// worse than the best is chosen e (2.72) times less often.
    pub spread: i32,
}

/// How level `i` (below full strength) plays in `G`.
pub fn level_play<G: Game>(rules: &G::Rules, i: usize) -> Play {
    let table = G::level_play(rules);
    let (depth, spread) = table[i.min(table.len() - 1)];
    Play { depth, spread }
}

/// The levels for people, weakest first; the last is full strength (no
/// limit at all: [`Player::Full`]). How the others play is the variant's
/// ([`Game::level_play`]).
pub const LEVELS: [Level; 8] = [
    Level {
        name: "first-game",
        title: "First game",
        words: "someone who has just learnt the rules; it sees only the move it makes",
        sees_wins: false,
    },
    Level {
        name: "beginner",
        title: "Beginner",
        words: "a player who knows the rules and takes what is offered",
        sees_wins: true,
    },
    Level {
        name: "novice",
        title: "Novice",
        words: "a player who starts to look at the reply",
        sees_wins: true,
    },
    Level {
        name: "casual",
        title: "Casual",
        words: "a player who plays now and then",
        sees_wins: true,
    },
    Level {
        name: "club",
        title: "Club player",
        words: "a club player",
        sees_wins: true,
    },
    Level {
        name: "strong",
        title: "Strong",
        words: "a strong club player",
        sees_wins: true,
    },
    Level {
        name: "expert",
        title: "Expert",
        words: "a very strong player: it rarely strays from the best move",
        sees_wins: true,
    },
    Level {
        name: "full",
        title: "Full strength",
        words: "kete at full strength",
        sees_wins: true,
    },
];

/// What a level's Elo means, for wherever a person sees one.
pub const SCALE_WORDS: &str = "kete's own scale: greedy play (always taking the most at once) is 1000, \
     each level measured against its neighbours in each game; not a chess rating";

/// Who chooses the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// kete at full strength: the plain search.
    Full,
    /// One of [`LEVELS`] below the last, by index.
    Level(usize),
    /// Any legal move, each as likely.
    Random,
    /// The move that gains the most seeds at once (ties at random).
    Greedy,
}

/// The names the `Level` option takes: the reference players, then the
/// levels weakest first.
pub fn names() -> Vec<&'static str> {
    let mut v = vec!["random", "greedy"];
    v.extend(LEVELS.iter().map(|l| l.name));
    v
}

impl Player {
    /// The player the `Level` option names (in any case).
    pub fn by_name(name: &str) -> Option<Player> {
        let name = name.trim().to_ascii_lowercase();
        match name.as_str() {
            "random" => Some(Player::Random),
            "greedy" => Some(Player::Greedy),
            _ => {
                let i = LEVELS.iter().position(|l| l.name == name)?;
                Some(if i + 1 == LEVELS.len() {
                    Player::Full
                } else {
                    Player::Level(i)
                })
            }
        }
    }

    /// Who plays in `G` as the engine's options say: `UCI_Elo`'s level
    /// when `UCI_LimitStrength` is on, else `Level`'s player (full strength
    /// for a name it does not know).
    pub fn from_options<G: Game>(
        rules: &G::Rules,
        level: &str,
        limit_strength: bool,
        elo: i64,
    ) -> Player {
        if limit_strength {
            Player::by_elo::<G>(rules, elo)
        } else {
            Player::by_name(level).unwrap_or(Player::Full)
        }
    }

    /// The `Level` option's value for this player.
    pub fn name(self) -> &'static str {
        match self {
            Player::Full => LEVELS[LEVELS.len() - 1].name,
            Player::Level(i) => LEVELS[i].name,
            Player::Random => "random",
            Player::Greedy => "greedy",
        }
    }

    /// The level whose Elo in `G` under `rules` ([`level_elo`]) is the
    /// highest not above `elo`; the lowest level below them all, full
    /// strength at or above its own.
    pub fn by_elo<G: Game>(rules: &G::Rules, elo: i64) -> Player {
        let mut best = 0;
        for i in 0..LEVELS.len() {
            if i64::from(level_elo::<G>(rules, i)) <= elo {
                best = i;
            }
        }
        if best + 1 >= LEVELS.len() {
            Player::Full
        } else {
            Player::Level(best)
        }
    }
}

/// The Elo of level `i` in `G` under `rules` ([`Game::level_elo`]; the
/// placeholder 1000 + 200 × `i` where it was not measured, see
/// [`measured`]).
pub fn level_elo<G: Game>(rules: &G::Rules, i: usize) -> i32 {
    G::level_elo(rules)
        .get(i)
        .copied()
        .unwrap_or(1000 + 200 * i as i32)
}

/// The player `UCI_Elo` = `elo` chooses in `G` under `rules`, by its
/// `Level` name, with that level's Elo where it was measured.
pub fn chosen_by_elo<G: Game>(rules: &G::Rules, elo: i64) -> (&'static str, Option<i32>) {
    let player = Player::by_elo::<G>(rules, elo);
    let i = match player {
        Player::Level(i) => Some(i),
        Player::Full => Some(LEVELS.len() - 1),
        _ => None,
    };
    let elo = i
        .filter(|_| measured::<G>(rules))
        .map(|i| level_elo::<G>(rules, i));
    (player.name(), elo)
}

/// Whether the levels' Elo in `G` under `rules` was measured (else
/// [`level_elo`] is a placeholder, not to be shown as a measurement).
pub fn measured<G: Game>(rules: &G::Rules) -> bool {
    !G::level_elo(rules).is_empty()
}

/// The score a forced win or loss counts as in the choice: a line that
/// wins is worth far more than any count of seeds, but a finite amount, so
/// that the choice stays a weighing.
const DECISIVE: i32 = 10_000;

/// The index into `scores` (centiseeds, side to move's view) that a level
/// with `spread` picks, given `u` uniform in [0, 1): each score is weighed
/// by e^((score - best) / spread).
pub fn choose(scores: &[i32], spread: i32, u: f64) -> usize {
    let clamp = |s: i32| {
        if s > WIN / 2 {
            DECISIVE
        } else if s < -WIN / 2 {
            -DECISIVE
        } else {
            s.clamp(-DECISIVE, DECISIVE)
        }
    };
    let Some(best) = scores.iter().map(|&s| clamp(s)).max() else {
        return 0;
    };
    if spread <= 0 {
        return scores.iter().position(|&s| clamp(s) == best).unwrap_or(0);
    }
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| (f64::from(clamp(s) - best) / f64::from(spread)).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut left = u * total;
    for (i, w) in weights.iter().enumerate() {
        if left < *w {
            return i;
        }
        left -= w;
    }
    weights.len() - 1
}

/// The moves of `root` that win the game at once for the side to move.
fn winning_moves<G: Game>(root: &G, moves: &[G::Move]) -> Vec<G::Move> {
    let mover = root.side_to_move();
    moves
        .iter()
        .copied()
        .filter(|&mv| {
            root.play(mv)
                .outcome()
                .and_then(|o| o.result.winner())
                .is_some_and(|w| w == mover)
        })
        .collect()
}

/// The greedy reference player's move: the largest gain in
/// [`Game::gained`] at once, ties broken at random.
pub fn greedy_move<G: Game>(root: &G, moves: &[G::Move], rng: &mut StdRng) -> G::Move {
    let mover = root.side_to_move();
    let before = root.gained(mover) as i64;
    let gains: Vec<i64> = moves
        .iter()
        .map(|&mv| root.play(mv).gained(mover) as i64 - before)
        .collect();
    let top = gains.iter().copied().max().unwrap_or(0);
    let best: Vec<G::Move> = moves
        .iter()
        .zip(&gains)
        .filter(|(_, g)| **g == top)
        .map(|(m, _)| *m)
        .collect();
    best[rng.random_range(0..best.len())]
}

/// Plays the move of `player` in `root`, within `limits`: at full
/// strength the plain [`super::search`]; else the reference players' rule,
/// or a level's shallow search of every move and its weighted choice. The answer is held until the time full strength would have
/// planned to spend (the soft limit) has passed, or `stop` came; a
/// pondering search first waits for `ponderhit` or `stop`. `seed` makes
/// the choice repeatable (`None`: a fresh random one).
#[allow(clippy::too_many_arguments)]
pub fn play<G: Game>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    settings: &Settings<G>,
    shared: &Shared,
    player: Player,
    seed: Option<u64>,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    let start = limits.since.unwrap_or_else(Instant::now);
    let mut rng = match seed {
        Some(s) => StdRng::seed_from_u64(s),
        None => StdRng::seed_from_u64(rand::random()),
    };
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let level = match player {
        Player::Level(i) => Some((LEVELS[i], level_play::<G>(&root.rules(), i))),
        _ => None,
    };
    if player == Player::Full {
        return super::search(root, history, limits, settings, shared, report);
    }
    let result = if moves.is_empty() {
        super::search(root, history, limits, settings, shared, report)
    } else if let Some(&win) = winning_moves(root, &moves)
        .first()
        .filter(|_| level.is_some_and(|(l, _)| l.sees_wins) || player == Player::Greedy)
    {
        fixed(win)
    } else {
        match (player, level) {
            (Player::Random, _) => fixed(moves[rng.random_range(0..moves.len())]),
            (Player::Greedy, _) => fixed(greedy_move(root, &moves, &mut rng)),
            (_, Some((_, play))) => level_search(
                root,
                history,
                limits,
                settings,
                shared,
                play,
                &mut rng,
                report,
                moves.len(),
            ),
            _ => unreachable!("a level player has a level"),
        }
    };
    take_time(root, limits, settings, shared, start);
    result
}

/// A move chosen without a search.
fn fixed<M: Copy>(mv: M) -> SearchResult<M> {
    SearchResult {
        best: Some(mv),
        score: 0,
        proven: false,
        depth: 0,
        pv: vec![mv],
        nodes: 0,
        lines: Vec::new(),
    }
}

/// A level's search of every root move to its depth, and its choice.
#[allow(clippy::too_many_arguments)]
fn level_search<G: Game>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    settings: &Settings<G>,
    shared: &Shared,
    level: Play,
    rng: &mut StdRng,
    report: &mut dyn FnMut(&Report<G::Move>),
    count: usize,
) -> SearchResult<G::Move> {
    let limits = Limits {
        depth: Some(limits.depth.unwrap_or(level.depth).min(level.depth)),
        // A level's search is short: its answer waits for ponderhit below,
        // not its search.
        ponder: false,
        infinite: false,
        ..limits.clone()
    };
    let eval = if settings.eval == G::Eval::default() {
        G::level_eval(&root.rules())
    } else {
        settings.eval
    };
    let settings = Settings {
        multipv: count,
        exact: None,
        eval,
        ..settings.clone()
    };
    let mut result = super::search(root, history, &limits, &settings, shared, report);
    if result.lines.len() > 1 {
        let scores: Vec<i32> = result.lines.iter().map(|(s, _)| *s).collect();
        let pick = choose(&scores, level.spread, rng.random::<f64>());
        let (score, pv) = result.lines[pick].clone();
        result.best = pv.first().copied();
        result.score = score;
        result.pv = pv;
    }
    result
}

/// Holds the answer until the soft limit of the move's time (counted from
/// `ponderhit` for a pondering search, which first waits for it), or until
/// `stop`.
fn take_time<G: Game>(
    root: &G,
    limits: &Limits,
    settings: &Settings<G>,
    shared: &Shared,
    start: Instant,
) {
    super::wait_for_the_word(limits, shared);
    let stop = || shared.stop.load(std::sync::atomic::Ordering::Relaxed);
    let side = root.side_to_move();
    let Some(until) = super::soft_deadline(limits, shared, side, settings.move_overhead, start)
    else {
        return;
    };
    while !stop() && Instant::now() < until {
        std::thread::sleep((until - Instant::now()).min(Duration::from_millis(2)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_follows_the_weights() {
        // Spread 0: always the best.
        assert_eq!(choose(&[10, 50, -20], 0, 0.99), 1);
        // Spread 100: scores 0 and -100 weigh 1 and 1/e.
        let scores = [0, -100];
        let e = std::f64::consts::E;
        let first = 1.0 / (1.0 + 1.0 / e);
        assert_eq!(choose(&scores, 100, first - 1e-9), 0);
        assert_eq!(choose(&scores, 100, first + 1e-9), 1);
        // A forced win outweighs any seed count.
        assert_eq!(choose(&[WIN - 3, 900], 100, 0.999), 0);
    }

    #[test]
    fn players_are_named_as_the_option_names_them() {
        assert_eq!(Player::by_name("Club"), Some(Player::Level(4)));
        assert_eq!(Player::by_name("full"), Some(Player::Full));
        assert_eq!(Player::by_name("greedy"), Some(Player::Greedy));
        assert_eq!(Player::by_name("grandmaster"), None);
        for n in names() {
            assert_eq!(Player::by_name(n).unwrap().name(), n);
        }
    }
}
