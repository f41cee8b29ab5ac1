//! The playing levels' Elo, checked against the tournaments that measured
//! them (`tournaments/levels/<variant>/<weaker>-<stronger>/games.jsonl`,
//! made by `tournaments/levels/run.sh`): each level's Elo compiled into
//! its game (`Game::level_elo`) is the chain of measured differences from
//! the greedy player at 1000 (full strength's at 300 ms a move), and the
//! chain holds what the levels promise:
//! adjacent levels at least 100 Elo apart with 95% intervals that exclude
//! 0, the lowest level between 20% and 60% against the greedy player, and
//! the greedy player above the random mover.

use std::collections::BTreeMap;
use std::path::Path;

use kete::arena::record::read;
use kete::arena::stats::{Pentanomial, elo_pentanomial};
use kete::game::Game;
use kete::search::level::{LEVELS, level_elo, measured};
use kete::variants::{VARIANT_NAMES, Variant, VariantVisitor};

/// The players of the chain, weakest first: the greedy anchor, then the
/// levels (the last is full strength).
fn chain() -> Vec<&'static str> {
    let mut v = vec!["greedy"];
    v.extend(LEVELS.iter().map(|l| l.name));
    v
}

/// One measured difference: games, the stronger's score and the Elo
/// difference with its 95% interval, from the pentanomial counts of the
/// game pairs (each opening played with both colours).
#[derive(Debug)]
struct Step {
    games: usize,
    score: f64,
    elo: f64,
    low: f64,
    high: f64,
}

fn measure(dir: &Path, weaker: &str, stronger: &str) -> Step {
    let folder = dir.join(format!("{weaker}-{stronger}"));
    let games =
        read(&folder.join("games.jsonl")).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    let mut pairs: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    let mut points = 0.0;
    for g in &games {
        assert!(
            g.offender.is_none(),
            "{}: game {} was lost by a failure: {}",
            folder.display(),
            g.id,
            g.reason
        );
        let p = g
            .points_of(stronger)
            .unwrap_or_else(|| panic!("{}: game {} has no {stronger}", folder.display(), g.id));
        points += p;
        pairs.entry(g.pair).or_default().push(p);
    }
    let mut penta: Pentanomial = [0; 5];
    for (pair, p) in &pairs {
        assert_eq!(p.len(), 2, "{}: pair {pair} is not whole", folder.display());
        penta[((p[0] + p[1]) * 2.0).round() as usize] += 1;
    }
    let e = elo_pentanomial(&penta).expect("games were played");
    Step {
        games: games.len(),
        score: points / games.len() as f64,
        elo: e.elo,
        low: e.low,
        high: e.high,
    }
}

/// Games whose levels have not been calibrated yet: they play the default
/// depths and spreads (`DEFAULT_LEVEL_PLAY`), compile no Elo and have no
/// matches under tournaments/levels/. A game leaves this list when its
/// matches are checked in; a game added to kete must be calibrated or named
/// here.
const NOT_CALIBRATED: &[&str] = &["bestemshe"];

/// The registered games with calibrated levels; checks that the others
/// compile no Elo.
fn calibrated() -> Vec<&'static str> {
    VARIANT_NAMES
        .iter()
        .copied()
        .filter(|name| {
            let known = !NOT_CALIBRATED.contains(name);
            if !known {
                let v = Variant::by_name(name).unwrap();
                assert!(
                    !v.visit(Measured),
                    "{name} compiles level Elos: check its matches in"
                );
            }
            known
        })
        .collect()
}

#[test]
fn each_levels_elo_is_the_chain_its_tournaments_measured() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tournaments/levels");
    let mut report = String::new();
    let mut problems = Vec::new();
    for name in calibrated() {
        let variant = Variant::by_name(name).unwrap();
        let dir = root.join(name);
        let players = chain();
        let mut elo = 1000.0;
        let mut var = 0.0;
        report.push_str(&format!("{name}:\n"));
        for w in players.windows(2) {
            let s = measure(&dir, w[0], w[1]);
            elo += s.elo;
            // Independent matches: their errors add in quadrature.
            var += ((s.high - s.low) / 2.0).powi(2);
            let k = chain().iter().position(|p| *p == w[1]).unwrap() - 1;
            report.push_str(&format!(
                "  {:>10}: {:>4.0} ± {:>3.0} ({} games, {:.1}% against {}, step {:+.0} [{:+.0}, {:+.0}])\n",
                w[1],
                elo,
                var.sqrt(),
                s.games,
                100.0 * s.score,
                w[0],
                s.elo,
                s.low,
                s.high
            ));
            if w[0] == "greedy" {
                if !(0.2..=0.6).contains(&s.score) {
                    problems.push(format!(
                        "{name}: {} scores {:.1}% against greedy, not 20%..60%",
                        w[1],
                        100.0 * s.score
                    ));
                }
            } else if s.elo < 100.0 || s.low <= 0.0 {
                problems.push(format!(
                    "{name}: {} is {:+.0} [{:+.0}, {:+.0}] Elo above {}: not 100 apart, or the interval holds 0",
                    w[1], s.elo, s.low, s.high, w[0]
                ));
            }
            let compiled = variant.visit(LevelElo(k));
            if (compiled as f64 - elo).abs() > 0.5 {
                problems.push(format!(
                    "{name}: {} is compiled as Elo {compiled}, measured {elo:.0}",
                    w[1]
                ));
            }
        }
    }
    eprintln!("{report}");
    assert!(problems.is_empty(), "{}\n{report}", problems.join("\n"));
}

/// Whether the game compiles measured level Elos.
struct Measured;

impl VariantVisitor for Measured {
    type Output = bool;
    fn visit<G: Game>(self, rules: G::Rules) -> bool {
        measured::<G>(&rules)
    }
}

/// Level `k`'s Elo as compiled into the game.
struct LevelElo(usize);

impl VariantVisitor for LevelElo {
    type Output = i32;
    fn visit<G: Game>(self, rules: G::Rules) -> i32 {
        level_elo::<G>(&rules, self.0)
    }
}

#[test]
fn the_random_mover_is_below_the_greedy_player_in_every_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tournaments/levels");
    for name in calibrated() {
        let s = measure(&root.join(name), "random", "greedy");
        assert!(
            s.score > 0.5 && s.low > 0.0,
            "{name}: greedy vs random {s:?}"
        );
    }
}

/// Bao la Kujifunza's levels below full strength search with its
/// hand-picked evaluation while `Eval` is left at its default (with the
/// network, full strength's, they could not be spaced 100 Elo apart); an
/// `Eval` set by name is theirs too. Bao la Kiswahili's levels search with
/// its default, the network.
#[test]
fn bao_la_kujifunzas_levels_keep_the_hand_picked_evaluation_and_full_strength_the_network() {
    use kete::search::level::{Player, play};
    use kete::search::{Limits, Settings, Shared};
    use kete::variants::bao::{Bao, BaoEval, BaoRules};

    // The scores of every root move at depth 3 (a level's MultiPV lines),
    // or full strength's score and line.
    let weighed = |rules: &BaoRules, eval: BaoEval, player: Player| {
        let root = Bao::start(rules);
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let settings = Settings {
            eval,
            ..Settings::default()
        };
        let r = play(
            &root,
            &[],
            &limits,
            &settings,
            &Shared::new(4),
            player,
            Some(7),
            &mut |_| {},
        );
        let mut scores: Vec<i32> = r.lines.iter().map(|(s, _)| *s).collect();
        scores.sort_unstable();
        (scores, r.score)
    };
    let club = Player::Level(4);
    let kujifunza = BaoRules::kujifunza();
    let level = weighed(&kujifunza, BaoEval::Default, club);
    assert!(level.0.len() > 1, "a level weighs every move: {level:?}");
    assert_eq!(level.0, weighed(&kujifunza, BaoEval::Classic, club).0);
    assert_ne!(level.0, weighed(&kujifunza, BaoEval::Net, club).0);
    let full = weighed(&kujifunza, BaoEval::Default, Player::Full);
    assert_eq!(full.1, weighed(&kujifunza, BaoEval::Net, Player::Full).1);
    assert_ne!(
        full.1,
        weighed(&kujifunza, BaoEval::Classic, Player::Full).1
    );
    let kiswahili = BaoRules::kiswahili();
    let level = weighed(&kiswahili, BaoEval::Default, club);
    assert_eq!(level.0, weighed(&kiswahili, BaoEval::Net, club).0);
    assert_ne!(level.0, weighed(&kiswahili, BaoEval::Classic, club).0);
}
