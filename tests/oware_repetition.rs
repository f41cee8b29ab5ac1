//! The solver against Oware's repetition rule applied literally: a brute
//! force written here walks every line from a position (no table, no
//! pruning), ends the game where a position (board, stores, side to move)
//! occurs for the second time on the line, and scores that by the rule
//! chosen. It is compared with the solver on every position reachable from
//! the start of tiny boards, under both rule sets and both repetition
//! options.

use std::collections::{HashSet, VecDeque};

use kete::game::Game;
use kete::solve::{SolveOptions, solve};
use kete::variants::oware::{Oware, OwareRules, Repetition, RuleSet};

/// The final margin for the side to move at `pos`, `line` being every
/// position of the game so far, `pos` last, if it lies in `alpha..beta`
/// (alpha-beta, failing hard: outside the window only the side of it is
/// right); `None` once more than `budget` positions were visited (the walk
/// is exponential in the length of the cycles).
fn brute(
    pos: &Oware,
    line: &mut Vec<Oware>,
    alpha: i32,
    beta: i32,
    budget: &mut u64,
) -> Option<i32> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let side = pos.side_to_move();
    let v = if let Some(o) = pos.outcome() {
        o.margin_for(side)?
    } else if line[..line.len() - 1].contains(pos) {
        // The position occurred before: the game ends by the rule chosen.
        pos.repetition_outcome()?.margin_for(side)?
    } else {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut a = alpha;
        for mv in moves {
            let child = pos.play(mv);
            line.push(child);
            let v = if child.side_to_move() == side {
                brute(&child, line, a, beta, budget)
            } else {
                brute(&child, line, -beta, -a, budget).map(|v| -v)
            };
            line.pop();
            a = a.max(v?);
            if a >= beta {
                break;
            }
        }
        return Some(a);
    };
    Some(v.clamp(alpha, beta))
}

/// The value of every legal move of `pos` (a game not over) for the side to
/// move, when the brute force finishes within `budget` positions.
fn brute_moves(pos: &Oware, budget: u64) -> Option<Vec<(u8, i32)>> {
    let mut left = budget;
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out = Vec::new();
    for mv in moves {
        let child = pos.play(mv);
        // A full window: every move's exact value.
        let (lo, hi) = (-100, 100);
        let line = &mut vec![*pos, child];
        let v = if child.side_to_move() == pos.side_to_move() {
            brute(&child, line, lo, hi, &mut left)?
        } else {
            -brute(&child, line, -hi, -lo, &mut left)?
        };
        out.push((mv, v));
    }
    Some(out)
}

/// Every position reachable from `start`, the start first.
fn reachable(start: Oware) -> Vec<Oware> {
    let mut seen = HashSet::from([start]);
    let mut order = vec![start];
    let mut queue = VecDeque::from([start]);
    let mut moves = Vec::new();
    while let Some(p) = queue.pop_front() {
        p.legal_moves(&mut moves);
        for &mv in &moves {
            let c = p.play(mv);
            if seen.insert(c) {
                order.push(c);
                queue.push_back(c);
            }
        }
    }
    order
}

fn opts(graph_budget: usize) -> SolveOptions {
    SolveOptions {
        hash_mb: 1,
        all_best: true,
        graph_budget,
        ..Default::default()
    }
}

/// The same with every open component, however small, decided by its own
/// threshold games once its exits are searched (by default only large ones
/// are, which these boards do not have).
fn opts_resolving(graph_budget: usize) -> SolveOptions {
    SolveOptions {
        residual_min: 1,
        ..opts(graph_budget)
    }
}

/// Compares the solver's value and best moves with the brute force on every
/// reachable position of the board whose brute force takes at most
/// `budget` positions; returns (positions compared, positions too long for
/// the brute force).
fn check_board(
    houses: u8,
    seeds: u8,
    rules: RuleSet,
    repetition: Repetition,
    budget: u64,
) -> (usize, usize) {
    let r = OwareRules {
        houses,
        seeds,
        rules,
        repetition,
    };
    let (mut checked, mut skipped) = (0, 0);
    for pos in reachable(Oware::start(&r)) {
        if pos.outcome().is_some() {
            continue;
        }
        let Some(expected) = brute_moves(&pos, budget) else {
            skipped += 1;
            continue;
        };
        let value = expected.iter().map(|e| e.1).max().unwrap();
        let best: Vec<u8> = expected
            .iter()
            .filter(|e| e.1 == value)
            .map(|e| e.0)
            .collect();
        // With the graph of the position (the default), with every open
        // component resolved, and without the graph (the table keyed on
        // every position since the last capture).
        // A first guess far from the value puts the first pass outside the
        // thresholds the graph's bounds were first made exact at, so they
        // are made again around it, and around any later pass outside
        // those (with the default guess that is rare).
        let far = SolveOptions {
            guess: Some(40),
            ..opts(1_000_000)
        };
        for (graph_budget, o) in [
            (1_000_000, opts(1_000_000)),
            (1_000_000, opts_resolving(1_000_000)),
            (1_000_000, far),
            (0, opts(0)),
        ] {
            let got = solve(&pos, &o, &mut |_| {});
            let what = format!(
                "{houses}x{seeds} {rules:?} {repetition:?} graph {graph_budget} resolving below {} guess {:?}: {}",
                o.residual_min,
                o.guess,
                pos.to_notation()
            );
            assert_eq!(got.value, value, "{what}");
            assert_eq!(got.best, best, "{what}");
        }
        checked += 1;
    }
    (checked, skipped)
}

fn for_each_rule(mut f: impl FnMut(RuleSet, Repetition)) {
    for rules in [RuleSet::Awari, RuleSet::Abapa] {
        for repetition in [Repetition::OwnSide, Repetition::Split] {
            f(rules, repetition);
        }
    }
}

#[test]
fn solver_follows_the_repetition_rule_on_every_position_of_tiny_boards() {
    for (houses, seeds) in [(1, 2), (1, 3), (2, 1), (2, 2)] {
        for_each_rule(|rules, repetition| {
            let (checked, skipped) = check_board(houses, seeds, rules, repetition, u64::MAX);
            eprintln!("{houses}x{seeds} {rules:?} {repetition:?}: {checked} positions");
            assert!(checked > 0 && skipped == 0);
        });
    }
}

#[test]
fn solver_follows_the_repetition_rule_where_the_brute_force_can_follow() {
    // Components of up to 472 positions: the brute force cannot walk every
    // line from all of them, so the positions it can (within 20,000 visits)
    // are compared, and there must be many.
    for (houses, seeds) in [(2, 3), (3, 1)] {
        for_each_rule(|rules, repetition| {
            let (checked, skipped) = check_board(houses, seeds, rules, repetition, 20_000);
            eprintln!(
                "{houses}x{seeds} {rules:?} {repetition:?}: {checked} positions compared, {skipped} too long for the brute force"
            );
            assert!(checked >= 200, "only {checked} positions compared");
        });
    }
}

#[test]
fn solver_agrees_with_itself_without_the_graph_on_small_starts() {
    // The start positions of boards too large for the brute force: the
    // graph's components (and, under split, its endless-game values) against
    // the table keyed on every position since the last capture.
    for (houses, seeds) in [(3, 2), (2, 4)] {
        for_each_rule(|rules, repetition| {
            let start = Oware::start(&OwareRules {
                houses,
                seeds,
                rules,
                repetition,
            });
            let with = solve(&start, &opts(1_000_000), &mut |_| {});
            let resolving = solve(&start, &opts_resolving(1_000_000), &mut |_| {});
            let without = solve(&start, &opts(0), &mut |_| {});
            eprintln!(
                "{houses}x{seeds} {rules:?} {repetition:?}: value {} best {:?}",
                with.value, with.best
            );
            let what = format!("{houses}x{seeds} {rules:?} {repetition:?}");
            assert!(with.complete && without.complete, "{what}");
            assert_eq!(with.value, without.value, "{what}");
            assert_eq!(with.best, without.best, "{what}");
            assert!(resolving.complete, "{what}");
            assert_eq!(resolving.value, without.value, "{what}");
            assert_eq!(resolving.best, without.best, "{what}");
        });
    }
}

#[test]
fn a_first_cycle_game_the_bounds_leave_open_is_played_out() {
    // Oware 3x4 under Abapa, own-side: the graph's bounds leave the start's
    // value open, and below a line of its large open components the
    // resolved games decide little. Searching on position by position, the
    // first pass had not ended after 60 s; the component's first-cycle game
    // played out on the component alone answers in a few seconds.
    let start = Oware::start(&OwareRules {
        houses: 3,
        seeds: 4,
        rules: RuleSet::Abapa,
        repetition: Repetition::OwnSide,
    });
    let got = solve(
        &start,
        &SolveOptions {
            hash_mb: 16,
            ..Default::default()
        },
        &mut |_| {},
    );
    assert!(got.complete);
    assert_eq!(
        (got.value, got.best.as_slice()),
        (0, &[1u8][..]),
        "value and best move (B)"
    );
}

#[test]
fn long_graph_phases_report_their_progress() {
    use kete::solve::GraphStage;
    // Reports due at every step: the phases' progress in order, each count
    // within the graph's size.
    let start = Oware::start(&OwareRules {
        houses: 3,
        seeds: 3,
        ..OwareRules::default()
    });
    let mut stages = Vec::new();
    let r = solve(
        &start,
        &SolveOptions {
            report_every: std::time::Duration::ZERO,
            ..opts(1 << 22)
        },
        &mut |p| stages.extend(p.graph),
    );
    assert!(r.complete);
    let built = stages
        .iter()
        .position(|s| matches!(s, GraphStage::Built { .. }))
        .expect("the graph is built");
    let GraphStage::Built { positions: n, .. } = stages[built] else {
        unreachable!()
    };
    let mut found = 0;
    for s in &stages[..built] {
        let &GraphStage::Building { positions } = s else {
            panic!("{s:?} before the graph is built")
        };
        assert!(found <= positions && positions <= n, "{stages:?}");
        found = positions;
    }
    assert_eq!(found, n, "the last count is every position");
    let mut done = 0;
    let played: Vec<_> = stages[built + 1..]
        .iter()
        .take_while(|s| matches!(s, GraphStage::Playing { .. }))
        .collect();
    assert!(!played.is_empty(), "{stages:?}");
    for s in &played {
        let &&GraphStage::Playing { done: d, positions } = s else {
            unreachable!()
        };
        assert!(done < d && d < positions && positions == n, "{stages:?}");
        done = d;
    }
    assert!(
        matches!(stages[built + 1 + played.len()], GraphStage::Bounds { .. }),
        "{stages:?}"
    );
    // The text shown for them.
    assert_eq!(
        GraphStage::Building { positions: 12 }.to_string(),
        "graph building positions 12"
    );
    assert_eq!(
        GraphStage::Playing {
            done: 5,
            positions: 12
        }
        .to_string(),
        "bounds playing positions 5 of 12"
    );
}

/// `GameRecord::after_text` (the record after a move, `self` left alone)
/// is a clone that plays the move: the same positions, moves and end,
/// repetitions included, and the same refusals.
#[test]
fn a_record_after_a_move_is_the_record_that_played_it() {
    use kete::game::{GameRecord, MoveError};
    let rules = OwareRules {
        houses: 3,
        seeds: 1,
        ..OwareRules::default()
    };
    let mut repeated = 0;
    for seed in 0..200u64 {
        let mut played = GameRecord::new(Oware::start(&rules));
        let mut after = played.clone();
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while played.outcome().is_none() {
            let mut moves = Vec::new();
            played.legal_moves(&mut moves);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let text = played
                .position()
                .format_move(moves[x as usize % moves.len()]);
            let before = after.clone();
            after = after.after_text(&text).expect("legal");
            assert_eq!(
                before.moves().len() + 1,
                after.moves().len(),
                "self is left alone"
            );
            played.play_text(&text).expect("legal");
            assert_eq!(after.positions(), played.positions());
            assert_eq!(after.moves(), played.moves());
            assert_eq!(after.outcome(), played.outcome());
            assert_eq!(after.end_reason(), played.end_reason());
        }
        repeated += after.ended_by_repetition().is_some() as usize;
        assert_eq!(after.after_text("A").unwrap_err(), MoveError::GameOver);
    }
    assert!(repeated > 0, "some lines end by repetition");
    let start = GameRecord::new(Oware::start(&rules));
    assert!(matches!(
        start.after_text("Q"),
        Err(MoveError::Syntax(_) | MoveError::Illegal(_))
    ));
}

/// Every position `c` of the tiny boards reached from a position `p` by a
/// move, solved after the line `p` (as a game's position is): with the
/// graph where none of the line can recur, without it where `p` can, and
/// always the brute force's value on the line `p, c`.
#[test]
fn a_solve_after_a_line_follows_the_rule_with_the_lines_positions() {
    let mut with_graph_kept = 0;
    let mut line_recurs = 0;
    for (houses, seeds) in [(1, 3), (2, 2), (2, 3)] {
        for_each_rule(|rules, repetition| {
            let start = Oware::start(&OwareRules {
                houses,
                seeds,
                rules,
                repetition,
            });
            let mut moves = Vec::new();
            for p in reachable(start) {
                p.legal_moves(&mut moves);
                for &mv in &moves {
                    let c = p.play(mv);
                    if c.outcome().is_some() || c == p {
                        continue;
                    }
                    let mut budget = 20_000u64;
                    let line = &mut vec![p, c];
                    let Some(expected) = brute(&c, line, -100, 100, &mut budget) else {
                        continue;
                    };
                    let history = vec![(p.hash(), kete::game::SolveGame::seeds_in_play(&p))];
                    let what = format!(
                        "{houses}x{seeds} {rules:?} {repetition:?}: {} after {}",
                        c.to_notation(),
                        p.to_notation()
                    );
                    for graph_budget in [1_000_000, 0] {
                        let o = SolveOptions {
                            history: history.clone(),
                            ..opts(graph_budget)
                        };
                        let got = solve(&c, &o, &mut |_| {});
                        assert!(got.complete, "{what} graph {graph_budget}");
                        assert_eq!(got.value, expected, "{what} graph {graph_budget}");
                    }
                    if reachable(c).contains(&p) {
                        line_recurs += 1;
                    } else {
                        // The line cannot recur: the solve is the one
                        // without it, node for node.
                        let after = SolveOptions {
                            history: history.clone(),
                            threads: 1,
                            ..opts(1_000_000)
                        };
                        let alone = SolveOptions {
                            threads: 1,
                            ..opts(1_000_000)
                        };
                        let a = solve(&c, &after, &mut |_| {});
                        let b = solve(&c, &alone, &mut |_| {});
                        assert_eq!((a.value, a.nodes), (b.value, b.nodes), "{what}");
                        with_graph_kept += 1;
                    }
                }
            }
        });
    }
    eprintln!("{with_graph_kept} solves kept the graph, {line_recurs} had a line that can recur");
    assert!(with_graph_kept > 100 && line_recurs > 100);
}
