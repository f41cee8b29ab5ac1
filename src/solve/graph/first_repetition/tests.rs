//! The first-repetition bounds, the open components' games and their
//! play-out against a brute force of the literal rule on small boards,
//! and the halved and windowed thresholds against every threshold's own
//! game.

use super::super::Graph;
use super::super::values::Work;
use super::line_bounds;
use crate::game::{Game, Side};
use crate::variants::oware::{Oware, OwareRules, Repetition, RuleSet};

/// The literal rule: South's final margin from `line`'s last position,
/// the game ending where a position occurs a second time; `None` past
/// `budget` positions. Alpha-beta failing hard in `alpha..beta`.
fn brute(line: &mut Vec<Oware>, alpha: i32, beta: i32, budget: &mut u64) -> Option<i32> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let pos = *line.last().unwrap();
    let v = if let Some(o) = pos.outcome() {
        o.margin_for(Side::South)?
    } else if line[..line.len() - 1].contains(&pos) {
        pos.repetition_outcome()?.margin_for(Side::South)?
    } else {
        let south = pos.side_to_move() == Side::South;
        let (mut a, mut b) = (alpha, beta);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for mv in moves {
            line.push(pos.play(mv));
            let v = brute(line, a, b, budget);
            line.pop();
            let v = v?;
            if south {
                a = a.max(v);
            } else {
                b = b.min(v);
            }
            if a >= b {
                break;
            }
        }
        return Some(if south { a } else { b });
    };
    Some(v.clamp(alpha, beta))
}

/// The graph of every position reachable from the start of Oware with
/// `houses` houses of `seeds` under the own-side repetition rule.
fn own_side_graph(houses: u8, seeds: u8, rules: RuleSet) -> Graph<Oware> {
    let start = Oware::start(&OwareRules {
        houses,
        seeds,
        rules,
        repetition: Repetition::OwnSide,
    });
    Graph::build(&start, 1 << 21, 2, None).unwrap()
}

/// Calls `visit(line, w)` for every line of one to three positions of
/// one component that `keep` holds, each a move from the one before,
/// and every move `w` from its last to another position of that
/// component not on it.
fn for_each_line(
    g: &Graph<Oware>,
    keep: impl Fn(usize) -> bool,
    mut visit: impl FnMut(&[usize], usize),
) {
    for u in (0..g.nodes.len()).filter(|&u| keep(u)) {
        let mut stack = vec![vec![u]];
        while let Some(line) = stack.pop() {
            let last = *line.last().unwrap();
            for &w in g.children(last) {
                let w = w as usize;
                if g.comp[w] != g.comp[u] || line.contains(&w) {
                    continue;
                }
                visit(&line, w);
                if line.len() < 3 && keep(w) {
                    let mut longer = line.clone();
                    longer.push(w);
                    stack.push(longer);
                }
            }
        }
    }
}

/// The search keys a null-window node below a line of open positions
/// on the part of the line in the node's open component alone
/// (`Searcher::line_at`): the brute force's answer from every line of
/// up to three such positions of one component must not change when
/// the line's other positions are dropped.
#[test]
fn a_line_of_open_positions_counts_only_in_its_open_component() {
    use super::super::NOT_KEPT;
    let (mut compared, mut dropped) = (0, 0);
    for (houses, seeds) in [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1)] {
        for rules in [RuleSet::Awari, RuleSet::Abapa] {
            let g = own_side_graph(houses, seeds, rules);
            let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
            let (least, most) = (*lo.iter().min().unwrap(), *hi.iter().max().unwrap());
            for t in least + 1..=most {
                let labels = g.open_components(&lo, &hi, t);
                for_each_line(
                    &g,
                    |v| labels[v] != NOT_KEPT,
                    |line, w| {
                        let answer = |line: &[usize]| {
                            let mut path: Vec<Oware> = line.iter().map(|&h| g.nodes[h]).collect();
                            path.push(g.nodes[w]);
                            brute(&mut path, t - 1, t, &mut 2_000).map(|x| x >= t)
                        };
                        let kept: Vec<usize> = line
                            .iter()
                            .copied()
                            .filter(|&h| labels[h] == labels[w])
                            .collect();
                        if let (Some(a), Some(b)) = (answer(line), answer(&kept)) {
                            assert_eq!(
                                a, b,
                                "{houses}x{seeds} {rules:?} at {t}: line {line:?} then {w}, kept {kept:?}"
                            );
                            compared += 1;
                            dropped += usize::from(kept.len() < line.len());
                        }
                    },
                );
            }
        }
    }
    eprintln!("{compared} lines compared, {dropped} with positions dropped");
    assert!(dropped > 100, "only {dropped} lines had positions to drop");
}

/// One question to an open component: whether South reaches the
/// threshold from its local node `local` below a line of its local nodes
/// `kept`, with the brute force's answer for the whole line (`None`
/// where it gave up) and the line as graph nodes, for messages.
struct Question {
    label: u32,
    local: usize,
    kept: Vec<u32>,
    brute: Option<bool>,
    what: String,
}

/// For every board of the brute force, both rule sets and every
/// threshold: the open components, resolved with their open exits
/// answered by the brute force, and every question from a line of up
/// to three open positions (or none) of one of them.
fn open_component_questions(
    mut f: impl FnMut(&std::collections::BTreeMap<u32, super::OpenArena>, &[Question]),
) {
    use super::super::NOT_KEPT;
    use super::OpenArena;
    for (houses, seeds) in [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1)] {
        for rules in [RuleSet::Awari, RuleSet::Abapa] {
            let g = own_side_graph(houses, seeds, rules);
            let (lo, hi) = g.repetition_bounds(None, 1, None).unwrap();
            let (least, most) = (*lo.iter().min().unwrap(), *hi.iter().max().unwrap());
            for t in least + 1..=most {
                let labels = g.open_components(&lo, &hi, t);
                let answer = |line: &[usize], w: usize| {
                    let mut path: Vec<Oware> = line.iter().map(|&h| g.nodes[h]).collect();
                    path.push(g.nodes[w]);
                    brute(&mut path, t - 1, t, &mut 2_000).map(|x| x >= t)
                };
                let mut members: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
                for (v, &l) in labels.iter().enumerate() {
                    if l != NOT_KEPT {
                        members.entry(l).or_default().push(v as u32);
                    }
                }
                let mut arenas = std::collections::BTreeMap::new();
                for (l, m) in members {
                    let arena = OpenArena::new(&g, m, &lo, &hi, t);
                    let exits: Option<Vec<bool>> = arena
                        .open_exits()
                        .iter()
                        .map(|&w| answer(&[], w as usize))
                        .collect();
                    if let Some(exits) = exits {
                        arena.resolve(&exits);
                        arenas.insert(l, arena);
                    }
                }
                let mut questions = Vec::new();
                let mut ask = |line: &[usize], w: usize| {
                    let Some(arena) = arenas.get(&labels[w]) else {
                        return;
                    };
                    let kept = line
                        .iter()
                        .filter(|&&h| labels[h] == labels[w])
                        .map(|&h| arena.local(h as u32).unwrap())
                        .collect();
                    questions.push(Question {
                        label: labels[w],
                        local: arena.local(w as u32).unwrap() as usize,
                        kept,
                        brute: answer(line, w),
                        what: format!("{houses}x{seeds} {rules:?} at {t}: line {line:?} then {w}"),
                    });
                };
                for w in (0..g.nodes.len()).filter(|&w| labels[w] != NOT_KEPT) {
                    ask(&[], w);
                }
                for_each_line(
                    &g,
                    |v| labels[v] != NOT_KEPT,
                    |line, w| {
                        if labels[w] != NOT_KEPT {
                            ask(line, w)
                        }
                    },
                );
                f(&arenas, &questions);
            }
        }
    }
}

/// An open component's own threshold games, its open exits answered
/// (here by the brute force), decide a position below a line of the
/// component only as the literal rule does: every answer of
/// [`OpenArena::decide`] from a line of up to three open positions (or
/// none) is compared with the brute force's, and so is every answer of
/// [`OpenArena::play_out`], which answers them all.
#[test]
fn a_resolved_open_component_decides_and_plays_out_as_the_brute_force() {
    use super::PlayOut;
    let (mut compared, mut decided, mut played) = (0, 0, 0);
    let mut scratch = PlayOut::default();
    open_component_questions(|arenas, questions| {
        for q in questions {
            let arena = &arenas[&q.label];
            if let (Some(d), Some(a)) = (arena.decide(q.local, &q.kept), q.brute) {
                assert_eq!(d, a, "{}", q.what);
                decided += 1;
            }
            // Every other call walks as a second thread does.
            let reverse = compared % 2 == 1;
            let (out, _) = arena.play_out(q.local, &q.kept, &mut scratch, reverse, &|| false);
            let out = out.expect("a resolved arena plays out");
            if let Some(a) = q.brute {
                assert_eq!(out, a, "{}: played out", q.what);
                played += 1;
            }
            compared += 1;
        }
    });
    eprintln!(
        "{compared} lines looked at, {decided} decided and compared, {played} played out and compared"
    );
    assert!(decided > 1_000, "only {decided} lines decided");
    assert!(played > 2 * decided, "only {played} lines played out");
}

/// The solver's two threads walk one component's first-cycle game at
/// once, one of them with its first moves reversed, and share what
/// they find through the component's table (each reads the other's
/// answers below its own line, and stops once the table holds the
/// answer it was asked for). Two threads asking every question of
/// the brute-force boards together, in the same order, on components
/// whose tables start empty, must each answer as the brute force does.
#[test]
fn two_threads_playing_out_one_component_answer_as_the_brute_force() {
    use super::PlayOut;
    let (mut compared, mut at_once) = (0, 0);
    open_component_questions(|arenas, questions| {
        for arena in arenas.values() {
            arena.lines.lock().clear();
        }
        let start = std::sync::Barrier::new(2);
        let answers: Vec<Vec<(Option<bool>, u64)>> = std::thread::scope(|scope| {
            let threads: Vec<_> = [false, true]
                .into_iter()
                .map(|reverse| {
                    let start = &start;
                    scope.spawn(move || {
                        let mut scratch = PlayOut::default();
                        start.wait();
                        questions
                            .iter()
                            .map(|q| {
                                let arena = &arenas[&q.label];
                                arena.play_out(q.local, &q.kept, &mut scratch, reverse, &|| false)
                            })
                            .collect()
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        for (i, q) in questions.iter().enumerate() {
            for (thread, answers) in answers.iter().enumerate() {
                let out = answers[i].0.expect("a resolved arena plays out");
                if let Some(a) = q.brute {
                    assert_eq!(out, a, "{}: played out by thread {thread}", q.what);
                    compared += 1;
                }
            }
            // A call that walked no node was answered by a quick look
            // (an exit, a resolved game, the table).
            at_once += answers.iter().filter(|a| a[i].1 == 0).count();
        }
        for arena in arenas.values() {
            arena.lines.lock().clear();
        }
    });
    eprintln!("{compared} answers compared, {at_once} without a walk");
    assert!(compared > 10_000, "only {compared} answers compared");
}

/// A walk polls the component's table as it goes (every 1,024 nodes)
/// and, once another thread has put the answer it was asked for
/// there, stops and gives that answer. Here "the other thread" is the
/// poll itself, which puts the answer a whole walk found into the
/// emptied table; the same walk asked again (in the same order, so
/// that it reaches the poll) must end sooner, with that answer. The
/// boards of the brute force have no walk long enough to poll, so this
/// is 2x5's longest (its exits given fixed answers: the first-cycle
/// game on the component is a game whatever they are).
#[test]
fn a_walk_stops_with_the_answer_another_thread_put_in_the_table() {
    use super::super::NOT_KEPT;
    use super::play_out::line_key;
    use super::{OpenArena, PlayOut};
    let g = own_side_graph(2, 5, RuleSet::Awari);
    let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
    let (least, most) = (*lo.iter().min().unwrap(), *hi.iter().max().unwrap());
    let mut scratch = PlayOut::default();
    // The longest walk: its arena, node, answer and length.
    let mut longest: Option<(OpenArena, usize, bool, u64)> = None;
    for t in least + 1..=most {
        let labels = g.open_components(&lo, &hi, t);
        let mut members: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
        for (v, &l) in labels.iter().enumerate() {
            if l != NOT_KEPT {
                members.entry(l).or_default().push(v as u32);
            }
        }
        for m in members.into_values() {
            let len = m.len();
            let arena = OpenArena::new(&g, m, &lo, &hi, t);
            let exits: Vec<bool> = arena.open_exits().iter().map(|&w| w % 2 == 0).collect();
            arena.resolve(&exits);
            let mut best = None;
            for v in 0..len {
                arena.lines.lock().clear();
                let (r, n) = arena.play_out(v, &[], &mut scratch, false, &|| false);
                let r = r.expect("a resolved arena plays out");
                if best.is_none_or(|(_, _, m)| n > m) {
                    best = Some((v, r, n));
                }
            }
            if let Some((v, r, n)) = best
                && longest.as_ref().is_none_or(|l| n > l.3)
            {
                longest = Some((arena, v, r, n));
            }
        }
    }
    let (arena, v, answer, whole) = longest.expect("2x5 has open components");
    assert!(
        whole > 1_024,
        "the longest walk, {whole} nodes, never polls"
    );
    arena.lines.lock().clear();
    let polls = std::cell::Cell::new(0);
    let other_thread = || {
        if polls.get() == 0 {
            arena.lines.lock().insert(line_key(v as u32, 0), answer);
        }
        polls.set(polls.get() + 1);
        false
    };
    let (got, nodes) = arena.play_out(v, &[], &mut scratch, false, &other_thread);
    eprintln!(
        "walk of {whole} nodes stopped after {nodes}, {} polls",
        polls.get()
    );
    assert_eq!(got, Some(answer));
    assert!(nodes < whole, "walked {nodes} of {whole} nodes");
    assert!(polls.get() >= 1);
}

#[test]
fn split_thresholds_give_the_bounds_of_every_threshold() {
    // Boards too large for the brute force, with components of many
    // thousands of positions (and 4x2's, of more than the two threads
    // take): the halving must find what every threshold's own game does.
    let mut largest = 0;
    for (houses, seeds, rules) in [(3, 3, RuleSet::Abapa), (4, 2, RuleSet::Awari)] {
        let g = own_side_graph(houses, seeds, rules);
        let biggest = *g.comp_size.iter().max().unwrap() as usize;
        largest = largest.max(biggest);
        let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
        assert!(
            g.repetition_bounds(None, 1, None).unwrap() == (lo.clone(), hi.clone()),
            "one thread"
        );
        let (lo_all, hi_all) = g
            .repetition_bounds_by(false, None, 1, None, &mut |_| {})
            .unwrap();
        let differ = (0..lo.len()).filter(|&v| lo[v] != lo_all[v] || hi[v] != hi_all[v]);
        assert_eq!(differ.count(), 0, "{houses}x{seeds} {rules:?}");
        assert_eq!(
            g.root_move_bounds_by(&lo, &hi, true, None, 2, None)
                .unwrap(),
            g.root_move_bounds_by(&lo, &hi, false, None, 1, None)
                .unwrap(),
            "{houses}x{seeds} {rules:?}"
        );
        let open = (0..lo.len()).filter(|&v| lo[v] < hi[v]).count();
        eprintln!(
            "{houses}x{seeds} {rules:?}: {} nodes, largest component {biggest}, {open} open",
            g.nodes.len()
        );
        assert!(open > 0 && biggest > 1_000, "{houses}x{seeds} {rules:?}");
    }
    assert!(
        largest >= super::thresholds::PARALLEL_ARENA,
        "no component took two threads"
    );
}

#[test]
fn windowed_bounds_are_exact_in_their_window_and_weaker_outside() {
    // What a null-window search at `k` reads of a node is whether its
    // bounds reach `k`: inside the window that must be what the bounds
    // of every threshold say, node by node and root move by root move;
    // outside they may only be weaker.
    let (mut windows, mut weaker) = (0, Vec::new());
    for (houses, seeds, rules) in [
        (2, 2, RuleSet::Awari),
        (3, 2, RuleSet::Abapa),
        (3, 3, RuleSet::Abapa),
        (4, 2, RuleSet::Awari),
    ] {
        let g = own_side_graph(houses, seeds, rules);
        let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
        let moves = g.root_move_bounds(&lo, &hi, None, 2, None).unwrap();
        let total = 2 * houses as i32 * seeds as i32;
        for (a, b) in [(-3, 1), (0, 0), (-1, 0), (2, 6), (-total - 3, -total + 1)] {
            let w = Some((a, b));
            let (wlo, whi) = g.repetition_bounds(w, 2, None).unwrap();
            let wmoves = g.root_move_bounds(&wlo, &whi, w, 2, None).unwrap();
            let what = format!("{houses}x{seeds} {rules:?} window {a}..={b}");
            let pairs = (0..lo.len())
                .map(|v| ((lo[v], hi[v]), (wlo[v], whi[v])))
                .chain(moves.iter().copied().zip(wmoves.iter().copied()));
            for ((l, h), (wl, wh)) in pairs {
                assert!(wl <= l && h <= wh, "{what}: [{wl},{wh}] inside [{l},{h}]");
                for k in a..=b {
                    assert_eq!(wl >= k, l >= k, "{what}: South at {k}");
                    assert_eq!(wh < k, h < k, "{what}: North at {k}");
                }
            }
            windows += 1;
        }
        // On the larger boards a window of one threshold really leaves
        // some bounds weaker, so the comparison above is not vacuous.
        let (wlo, whi) = g.repetition_bounds(Some((0, 0)), 2, None).unwrap();
        if (0..lo.len()).any(|v| wlo[v] < lo[v] || whi[v] > hi[v]) {
            weaker.push((houses, seeds));
        }
    }
    assert_eq!(windows, 20);
    assert!(
        weaker.contains(&(3, 3)) && weaker.contains(&(4, 2)),
        "{weaker:?}"
    );
}

#[test]
fn a_stop_ends_the_threshold_games_without_bounds() {
    use std::sync::atomic::AtomicBool;
    let g = own_side_graph(3, 3, RuleSet::Abapa);
    let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
    let moves = g.root_move_bounds(&lo, &hi, None, 2, None).unwrap();
    // A flag that is never set changes nothing.
    let unset = AtomicBool::new(false);
    assert!(g.repetition_bounds(None, 2, Some(&unset)).unwrap() == (lo.clone(), hi.clone()));
    assert_eq!(
        g.root_move_bounds(&lo, &hi, None, 2, Some(&unset)).unwrap(),
        moves
    );
    // A set one gives no bounds at all: half-played games prove nothing.
    let set = AtomicBool::new(true);
    for threads in [1, 2] {
        assert!(g.repetition_bounds(None, threads, Some(&set)).is_none());
        assert!(
            g.root_move_bounds(&lo, &hi, None, threads, Some(&set))
                .is_none()
        );
    }
}

impl Graph<Oware> {
    /// The bounds of the games in which every repetition of a component
    /// pays its least (most) repetition pay: what the co-Büchi bounds
    /// must never be looser than.
    fn least_most(&self) -> (Vec<i32>, Vec<i32>) {
        let (first, members) = self.members();
        let mut out = Vec::new();
        for most in [false, true] {
            let mut value = vec![0; self.nodes.len()];
            let mut work = Work::default();
            for c in 0..self.comp_size.len() {
                let nodes = &members[first[c] as usize..first[c + 1] as usize];
                let v = nodes[0] as usize;
                if nodes.len() == 1 && !self.children(v).contains(&nodes[0]) {
                    value[v] = self.minimax(v, &value);
                } else {
                    let pays = nodes.iter().map(|&v| self.repetition_south(v as usize));
                    let pay = if most { pays.max() } else { pays.min() }.unwrap();
                    self.solve_component(c, nodes, None, pay, &mut value, &mut work);
                }
            }
            out.push(value);
        }
        let hi = out.pop().unwrap();
        (out.pop().unwrap(), hi)
    }
}

#[test]
fn bounds_hold_the_literal_value_and_beat_least_and_most() {
    for (houses, seeds) in [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)] {
        for rules in [RuleSet::Awari, RuleSet::Abapa] {
            let g = own_side_graph(houses, seeds, rules);
            let (lo, hi) = g.repetition_bounds(None, 2, None).unwrap();
            // Each threshold's game on the region won at the one before
            // gives the same bounds as on the whole component.
            let (lo_all, hi_all) = g
                .repetition_bounds_by(false, None, 1, None, &mut |_| {})
                .unwrap();
            assert!(lo == lo_all && hi == hi_all, "{houses}x{seeds} {rules:?}");
            assert_eq!(
                g.root_move_bounds_by(&lo, &hi, true, None, 2, None)
                    .unwrap(),
                g.root_move_bounds_by(&lo, &hi, false, None, 1, None)
                    .unwrap(),
                "{houses}x{seeds} {rules:?}"
            );
            let (least, most) = g.least_most();
            let (mut checked, mut exact) = (0, 0);
            for v in 0..g.nodes.len() {
                let what = format!("{houses}x{seeds} {rules:?} {}", g.nodes[v].to_notation());
                assert!(
                    least[v] <= lo[v] && lo[v] <= hi[v] && hi[v] <= most[v],
                    "{what}: [{}, {}] against [{}, {}]",
                    lo[v],
                    hi[v],
                    least[v],
                    most[v]
                );
                if lo[v] == hi[v] {
                    exact += 1;
                }
                // The brute force is too slow for every position of 3x2.
                let mut budget = if g.nodes.len() > 5_000 { 0 } else { 20_000 };
                if let Some(x) = brute(&mut vec![g.nodes[v]], -100, 100, &mut budget) {
                    assert!(
                        lo[v] <= x && x <= hi[v],
                        "{what}: {x} outside [{}, {}]",
                        lo[v],
                        hi[v]
                    );
                    checked += 1;
                }
            }
            // Lines of up to three positions of one component before a
            // node: line_bounds against the brute force from that line.
            let mut lines = 0;
            if g.nodes.len() <= 5_000 {
                for_each_line(
                    &g,
                    |_| true,
                    |line, w| {
                        let run: Vec<(u32, i32)> = line
                            .iter()
                            .map(|&h| (h as u32, g.repetition_south(h)))
                            .collect();
                        let (l, h) = line_bounds(&lo, &hi, w, &run);
                        let mut path: Vec<Oware> = line.iter().map(|&h| g.nodes[h]).collect();
                        path.push(g.nodes[w]);
                        let mut budget = 2_000;
                        if let Some(x) = brute(&mut path, -100, 100, &mut budget) {
                            assert!(
                                l <= x && x <= h,
                                "{houses}x{seeds} {rules:?} line {line:?} then {w}: {x} outside [{l}, {h}]"
                            );
                            lines += 1;
                        }
                    },
                );
            }
            eprintln!(
                "{houses}x{seeds} {rules:?}: {} nodes, {exact} exact, {checked} checked, {lines} lines",
                g.nodes.len()
            );
            assert!(checked >= 100.min(g.nodes.len()) / 2 || g.nodes.len() > 5_000);
        }
    }
}
