//! The exact solver and the endgame databases against independent brute
//! force written here, and the published Oware database position.

use std::collections::HashMap;

use kete::game::{DbGame, DbSpec, Game, Side, SolveGame};
use kete::solve::db::{Egtb, Tablebase};
use kete::solve::egtb::{BuildOptions, build, stats, verify};
use kete::solve::{SolveOptions, solve, solve_with_tablebase};
use kete::variants::endodoi::{EnDodoi, EnDodoiRules};
use kete::variants::kalah::{Capture, Kalah, KalahRules};
use kete::variants::oware::{Oware, OwareRules, Repetition, RuleSet};
use kete::variants::togyz::{Togyz, TogyzRules};

// Only the generator of the tests' common code; not all of it is used here.
#[path = "common/rng.rs"]
#[allow(dead_code)]
mod rng;
use rng::Rng;

/// The database of Kalah with `pits` pits a row under `capture`.
fn kalah_db(pits: u8, capture: Capture) -> DbGame {
    Kalah::db_game(&KalahRules {
        pits,
        seeds: 1,
        capture,
    })
    .unwrap()
}

/// The database of Oware with `houses` houses a row under `rules`.
fn oware_db(houses: u8, rules: RuleSet) -> DbGame {
    Oware::db_game(&OwareRules {
        houses,
        rules,
        ..OwareRules::default()
    })
    .unwrap()
}

fn small_opts() -> SolveOptions {
    SolveOptions {
        hash_mb: 16,
        ..Default::default()
    }
}

/// Plain minimax to the end of the game: no table, no pruning. Positions
/// that recur on the line end the game by the rules' repetition outcome, or,
/// in a game without one (En Dodoi), share the seeds left (the margin is what
/// is banked).
fn brute<G: SolveGame>(pos: &G, line: &mut Vec<G>) -> i32 {
    let side = pos.side_to_move();
    if let Some(o) = pos.outcome() {
        return o.margin_for(side).unwrap();
    }
    if G::CAN_REPEAT && line[..line.len() - 1].contains(pos) {
        return pos
            .repetition_outcome()
            .map_or(pos.banked(), |o| o.margin_for(side).unwrap());
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best = i32::MIN;
    for mv in moves {
        let child = pos.play(mv);
        line.push(child.clone());
        let v = brute(&child, line);
        line.pop();
        best = best.max(if child.side_to_move() == side { v } else { -v });
    }
    best
}

fn brute_value<G: SolveGame>(pos: &G) -> i32 {
    brute(pos, &mut vec![pos.clone()])
}

/// The value of each legal move by brute force.
fn brute_moves<G: SolveGame>(pos: &G) -> Vec<(G::Move, i32)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let child = pos.play(mv);
            let v = brute(&child, &mut vec![pos.clone(), child.clone()]);
            let v = if child.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            };
            (mv, v)
        })
        .collect()
}

fn check_solver<G: SolveGame>(pos: &G) {
    let expected = brute_moves(pos);
    let value = expected.iter().map(|e| e.1).max().unwrap();
    let best: Vec<G::Move> = expected
        .iter()
        .filter(|e| e.1 == value)
        .map(|e| e.0)
        .collect();
    // Threads searching one table together must find the same.
    for threads in [1, 2, 3] {
        let opts = SolveOptions {
            all_best: true,
            threads,
            ..small_opts()
        };
        let r = solve(pos, &opts, &mut |_| {});
        assert_eq!(r.value, value, "{} threads {threads}", pos.to_notation());
        assert_eq!(r.best, best, "{} threads {threads}", pos.to_notation());
    }
}

fn kalah(pits: u8, seeds: u8, capture: Capture) -> Kalah {
    Kalah::start(&KalahRules {
        pits,
        seeds,
        capture,
    })
}

/// Positions along a few pseudo-random games from `start`.
fn positions<G: Game>(start: &G, games: usize, seed: u64) -> Vec<G> {
    let mut out = vec![start.clone()];
    let mut x = seed;
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = start.clone();
        loop {
            pos.legal_moves(&mut moves);
            if moves.is_empty() || out.len() > 400 {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pos = pos.play(moves[(x % moves.len() as u64) as usize]);
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn solver_matches_brute_force_on_small_kalah() {
    // Kalah(3,3) and (4,2) a few moves in (plain minimax from their start
    // positions takes minutes), and positions along games of smaller boards.
    for capture in [Capture::Standard, Capture::Empty] {
        for start in [kalah(3, 3, capture), kalah(4, 2, capture)] {
            for pos in positions(&start, 1, 5).into_iter().skip(2).take(3) {
                check_solver(&pos);
            }
        }
    }
    for (pits, seeds) in [(3, 2), (2, 4), (1, 5)] {
        for capture in [Capture::Standard, Capture::Empty] {
            let start = kalah(pits, seeds, capture);
            for pos in positions(&start, 2, 7 + pits as u64).into_iter().take(12) {
                if pos.outcome().is_none() {
                    check_solver(&pos);
                }
            }
        }
    }
}

#[test]
fn solver_matches_brute_force_on_three_house_oware() {
    // Plain minimax with repetitions is exponential in the length of the
    // cycles, so only positions with few seeds left.
    for (seeds, repetition) in [(1, Repetition::OwnSide), (2, Repetition::Split)] {
        let rules = OwareRules {
            houses: 3,
            seeds,
            rules: RuleSet::Awari,
            repetition,
        };
        let start = Oware::start(&rules);
        let few = |p: &Oware| p.outcome().is_none() && p.seeds_in_play() <= 4;
        for pos in positions(&start, 20, 11).into_iter().filter(few).take(12) {
            {
                check_solver(&pos);
            }
        }
    }
}

/// `pos` solved for all its best moves with a `stop` sent as the pass that
/// settles the value ends: whether the answer came back not complete. A complete one must
/// be the whole answer, that of the solve without a stop (which the tests
/// above check against the brute force on smaller positions).
fn stopped_after_a_pass<G: SolveGame>(pos: &G) -> bool {
    let opts = SolveOptions {
        all_best: true,
        ..small_opts()
    };
    let whole = solve(pos, &opts, &mut |_| {});
    assert!(whole.complete);
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let opts = SolveOptions {
        stop: Some(flag.clone()),
        ..opts
    };
    let r = solve(pos, &opts, &mut |p| {
        if p.pass_done && p.lower >= p.upper {
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    if r.complete {
        assert_eq!(r.value, whole.value, "{}", pos.to_notation());
        assert_eq!(r.best, whole.best, "{}", pos.to_notation());
    }
    !r.complete
}

#[test]
fn a_stop_while_the_best_moves_are_searched_leaves_the_answer_not_complete() {
    // A stop after the pass that settles the value comes while the other
    // root moves are tested. A search cut short says nothing of its move
    // (before this was mended, every such move was listed as best: on
    // Kalah(5,3) all five where one is), so the answer must not be called
    // complete.
    let mut stopped = 0;
    for (pits, seeds) in [(5, 3), (6, 3)] {
        let start = kalah(pits, seeds, Capture::Standard);
        for pos in positions(&start, 1, pits as u64).into_iter().take(6) {
            if pos.outcome().is_none() {
                stopped += stopped_after_a_pass(&pos) as usize;
            }
        }
    }
    assert!(stopped > 0, "no stop reached a search");
}

#[test]
fn solver_matches_brute_force_on_en_dodoi_endgames() {
    // En Dodoi has no repetition rule: endless play shares the seeds left,
    // in the solver as in the brute force above.
    let start = EnDodoi::start(&EnDodoiRules { pits: 6, seeds: 3 });
    let few = |p: &EnDodoi| p.outcome().is_none() && p.seeds_in_play() <= 3;
    let picked: Vec<EnDodoi> = positions(&start, 40, 23)
        .into_iter()
        .filter(few)
        .take(10)
        .collect();
    assert!(
        picked.len() >= 5,
        "only {} endgame positions found",
        picked.len()
    );
    for pos in picked {
        check_solver(&pos);
    }
}

#[test]
fn kalah_database_matches_brute_force_and_helps_the_solver() {
    let game = kalah_db(4, Capture::Standard);
    let db = build(game, 10, &BuildOptions::default(), &mut |_| {}).unwrap();
    assert!(
        verify(&db, &BuildOptions::default(), 1, &mut |_| {})
            .1
            .is_empty()
    );
    let rules = KalahRules {
        pits: 4,
        seeds: 3,
        capture: Capture::Standard,
    };
    let mut checked = 0;
    for pos in positions(&Kalah::start(&rules), 6, 3) {
        let Some(v) = Tablebase::<Kalah>::probe(&db, &pos) else {
            continue;
        };
        if pos.outcome().is_some() {
            continue;
        }
        assert_eq!(pos.banked() + v, brute_value(&pos), "{}", pos.to_notation());
        checked += 1;
    }
    assert!(checked > 20);
    let start = Kalah::start(&rules);
    let plain = solve(&start, &small_opts(), &mut |_| {});
    let with_db = solve_with_tablebase(&start, &small_opts(), Some(&db), &mut |_| {});
    assert_eq!(plain.value, with_db.value);
    assert!(with_db.tbhits > 0);
}

// ------------------------------------------------------------ Oware databases

/// An Oware move under `rules`, written for this test alone: `b` is the
/// board from the mover's view (his houses first). Returns every legal move
/// as the board after it from the opponent's view and the seeds the mover
/// won, or, when the game is over before the mover plays, its margin of the
/// seeds left for him.
fn oware_moves(b: &[u8], rules: RuleSet) -> Result<Vec<(Vec<u8>, i32)>, i32> {
    let m = b.len() / 2;
    let n: i32 = b.iter().map(|&v| v as i32).sum();
    if b[..m].iter().all(|&v| v == 0) {
        // He cannot move: the player who moved last takes every seed.
        return Err(-n);
    }
    let mut all = Vec::new();
    for h in 0..m {
        if b[h] == 0 {
            continue;
        }
        let mut c = b.to_vec();
        let mut s = c[h];
        c[h] = 0;
        let mut at = h;
        while s > 0 {
            at = (at + 1) % (2 * m);
            if at != h {
                c[at] += 1;
                s -= 1;
            }
        }
        let before: i32 = c[m..].iter().map(|&v| v as i32).sum();
        let mut won = 0;
        let mut taken = c.clone();
        let mut i = at;
        while i >= m && (taken[i] == 2 || taken[i] == 3) {
            won += taken[i] as i32;
            taken[i] = 0;
            i -= 1;
        }
        if rules == RuleSet::Abapa && won > 0 && won == before {
            // A grand slam is legal and captures nothing.
            won = 0;
            taken = c;
        }
        let starves = won == before;
        all.push((taken, won, starves));
    }
    let feeding: Vec<_> = all.iter().filter(|x| !x.2).collect();
    if feeding.is_empty() {
        return match rules {
            // Every move starves the opponent: any may be played, and the
            // mover takes every seed.
            RuleSet::Awari => Ok(all.iter().map(|_| (vec![0; 2 * m], n)).collect()),
            // Nothing feeds him: the game ends, the mover takes every seed.
            RuleSet::Abapa => Err(n),
        };
    }
    Ok(feeding
        .into_iter()
        .map(|(t, won, _)| {
            let mut o = t[m..].to_vec();
            o.extend_from_slice(&t[..m]);
            (o, *won)
        })
        .collect())
}

/// Every board of `k` houses holding `n` seeds.
fn boards(k: usize, n: u8) -> Vec<Vec<u8>> {
    if k == 1 {
        return vec![vec![n]];
    }
    let mut out = Vec::new();
    for a in 0..=n {
        for mut rest in boards(k - 1, n - a) {
            rest.insert(0, a);
            out.push(rest);
        }
    }
    out
}

/// Database values by the definition: for every threshold t, the positions
/// where the mover can force at least t (or must concede t), by naive
/// iteration to a fixed point; endless play is worth 0.
fn oware_values(m: usize, max: u8, rules: RuleSet) -> HashMap<Vec<u8>, i32> {
    let mut val: HashMap<Vec<u8>, i32> = HashMap::new();
    for n in 0..=max {
        let all = boards(2 * m, n);
        let moves: Vec<_> = all.iter().map(|b| oware_moves(b, rules)).collect();
        let exit = |c: &Vec<u8>, won: i32, val: &HashMap<Vec<u8>, i32>| {
            if won == 0 {
                None
            } else if won == n as i32 {
                Some(won)
            } else {
                Some(won - val[c])
            }
        };
        let mut level: HashMap<Vec<u8>, i32> = HashMap::new();
        for t in (1..=n as i32).rev() {
            // wins[b]: mover forces >= t; losses[b]: mover concedes >= t.
            let mut wins: HashMap<&Vec<u8>, bool> = HashMap::new();
            let mut losses: HashMap<&Vec<u8>, bool> = HashMap::new();
            loop {
                let mut changed = false;
                for (b, mv) in all.iter().zip(&moves) {
                    let (w, l) = match mv {
                        Err(end) => (*end >= t, *end <= -t),
                        Ok(mv) => (
                            mv.iter().any(|(c, won)| match exit(c, *won, &val) {
                                Some(e) => e >= t,
                                None => *losses.get(c).unwrap_or(&false),
                            }),
                            mv.iter().all(|(c, won)| match exit(c, *won, &val) {
                                Some(e) => e <= -t,
                                None => *wins.get(c).unwrap_or(&false),
                            }),
                        ),
                    };
                    if w && !wins.get(b).unwrap_or(&false) {
                        wins.insert(b, true);
                        changed = true;
                    }
                    if l && !losses.get(b).unwrap_or(&false) {
                        losses.insert(b, true);
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for b in &all {
                if level.contains_key(b) {
                    continue;
                }
                if wins.get(b).copied().unwrap_or(false) {
                    level.insert(b.clone(), t);
                } else if losses.get(b).copied().unwrap_or(false) {
                    level.insert(b.clone(), -t);
                }
            }
        }
        for b in all {
            let v = level.get(&b).copied().unwrap_or(0);
            val.insert(b, v);
        }
    }
    val
}

/// Builds the database of `houses` houses and `max` seeds under `rules`
/// and compares every value with [`oware_values`]; it must also verify.
fn check_oware_database(houses: u8, max: u8, rules: RuleSet) {
    let db = build(
        oware_db(houses, rules),
        max as usize,
        &BuildOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let expected = oware_values(houses as usize, max, rules);
    for n in 0..=max {
        for b in boards(2 * houses as usize, n) {
            assert_eq!(
                db.value(&b, n as usize) as i32,
                expected[&b],
                "{rules:?}, board {b:?}"
            );
        }
    }
    assert!(
        verify(&db, &BuildOptions::default(), 1, &mut |_| {})
            .1
            .is_empty()
    );
}

#[test]
fn oware_database_matches_the_definition_on_three_houses() {
    check_oware_database(3, 9, RuleSet::Awari);
}

#[test]
fn abapa_database_matches_the_definition_on_small_boards() {
    for (houses, max) in [(2, 10), (3, 9), (4, 6)] {
        check_oware_database(houses, max, RuleSet::Abapa);
    }
}

fn oware_db_16(rules: RuleSet) -> Egtb {
    build(
        oware_db(6, rules),
        16,
        &BuildOptions::default(),
        &mut |_| {},
    )
    .unwrap()
}

/// The counts of `stats` of a 6-house database: oware.md's C(n+11,11) −
/// C(n+5,11) positions per count (the same under both rule sets: which
/// boards can occur depends only on the sowing), and its lines equal the
/// first lines of `reference` (`kete egtb stats` of a larger database: every
/// count is built the same whatever the top count).
fn check_oware_stats(db: &Egtb, reference: &str) {
    let c = |a: u64, b: u64| (0..b).fold(1u64, |r, i| r * (a - i) / (i + 1));
    for s in stats(db) {
        let n = s.seeds as u64;
        let full = if n >= 6 { c(n + 5, 11) } else { 0 };
        assert_eq!(s.positions, c(n + 11, 11) - full, "n={n}");
        assert_eq!(s.wins + s.draws + s.losses, s.positions);
    }
    let lines: Vec<String> = stats(db).iter().map(|s| s.to_string()).collect();
    let want: Vec<&str> = reference.lines().take(lines.len()).collect();
    assert_eq!(want.len(), lines.len(), "the reference is too short");
    assert_eq!(lines, want);
}

#[test]
fn oware_database_reproduces_the_published_position_and_counts() {
    let db = oware_db_16(RuleSet::Awari);
    // oware.md: `1 1 1 1 1 2 | 4 2 3 0 0 0` from the mover's view is worth
    // 0, and its moves A..F score -1 -1 -2 -2 -2 0.
    let board = [1u8, 1, 1, 1, 1, 2, 4, 2, 3, 0, 0, 0];
    assert_eq!(db.value(&board, 16), 0);
    let rules = OwareRules {
        houses: 6,
        seeds: 4,
        rules: RuleSet::Awari,
        repetition: Repetition::Split,
    };
    let pos = Oware::from_houses(&rules, &board, [0, 0], Side::South);
    let mut scores = Vec::new();
    for mv in 0..6u8 {
        let child = pos.play(mv);
        let won = child.store(Side::South) as i32;
        let rest = Tablebase::<Oware>::probe(&db, &child).unwrap();
        scores.push(won - rest);
    }
    assert_eq!(scores, vec![-1, -1, -2, -2, -2, 0]);
    // The 24-seed database was built for issue 6.
    check_oware_stats(&db, include_str!("data/awari-stats-24.txt"));
}

/// `kete egtb stats` of the 28-seed Awari database (issue 14, 53.7 min to
/// build, too large for a test) against the 24-seed one, built separately
/// by an older builder for issue 6: every count they share must be the
/// same line (a count's values depend only on the smaller counts), and the
/// four new counts must hold oware.md's number of boards that can occur.
#[test]
fn awari_stats_to_28_seeds_extend_the_24_seed_counts() {
    let s24: Vec<&str> = include_str!("data/awari-stats-24.txt").lines().collect();
    let s28: Vec<&str> = include_str!("data/awari-stats-28.txt").lines().collect();
    assert_eq!((s24.len(), s28.len()), (25, 29));
    assert_eq!(&s28[..25], &s24[..]);
    let c = |a: u64, b: u64| (0..b).fold(1u64, |r, i| r * (a - i) / (i + 1));
    for (n, line) in s28.iter().enumerate() {
        let field = |name: &str| -> i64 {
            let word = line
                .split(' ')
                .find_map(|w| w.strip_prefix(name).and_then(|w| w.strip_prefix('=')))
                .unwrap_or_else(|| panic!("no {name} in {line}"));
            word.parse().unwrap()
        };
        assert_eq!(field("n"), n as i64);
        let n = n as u64;
        let full = if n >= 6 { c(n + 5, 11) } else { 0 };
        let positions = field("positions");
        assert_eq!(positions as u64, c(n + 11, 11) - full, "n={n}");
        assert_eq!(field("wins") + field("draws") + field("losses"), positions);
        // Each value lies in -n..=n, so the sum is bounded by n per board.
        assert!(field("sum").unsigned_abs() <= n * positions as u64, "n={n}");
    }
}

#[test]
fn abapa_database_reproduces_its_recorded_counts() {
    let db = oware_db_16(RuleSet::Abapa);
    // `kete egtb stats` of the 20-seed Abapa database built for issue 10.
    check_oware_stats(&db, include_str!("data/abapa-stats-20.txt"));
    // The published position differs under Abapa only where a grand slam
    // or the end of feeding is near; it has neither: its value is the same.
    let board = [1u8, 1, 1, 1, 1, 2, 4, 2, 3, 0, 0, 0];
    assert_eq!(db.value(&board, 16), 0);
}

/// The databases against the exact solver (what `kete solve` runs) on
/// 3-house boards of a few seeds, under both rule sets (the solver's
/// search is exponential in the cycles, as in the brute-force test above:
/// on 6 houses even 3 to 5 seeds took minutes). With the `split`
/// repetition option and a seed total whose half the stores cannot pass,
/// the solver plays the databases' game: a repeated position shares the
/// seeds left, which is what endless play is worth in a database (a side
/// that can force a gain can do it without repeating a position, and one
/// that cannot can keep the other from it for ever). So the solver's value
/// must be the banked margin plus the database's.
#[test]
fn oware_databases_agree_with_the_solver() {
    const MAX: usize = 6;
    for rules in [RuleSet::Awari, RuleSet::Abapa] {
        let db = build(
            oware_db(3, rules),
            MAX,
            &BuildOptions::default(),
            &mut |_| {},
        )
        .unwrap();
        let r = OwareRules {
            houses: 3,
            seeds: 15,
            rules,
            repetition: Repetition::Split,
        };
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |k: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % k
        };
        let mut checked = 0;
        while checked < 30 {
            let n = 2 + next(MAX as u64 - 1);
            let mut board = [0u8; 6];
            for _ in 0..n {
                board[next(6) as usize] += 1;
            }
            let side = if next(2) == 0 {
                Side::South
            } else {
                Side::North
            };
            let pos = Oware::from_houses(&r, &board, [3, 5], side);
            if pos.outcome().is_some() {
                continue;
            }
            let v = Tablebase::<Oware>::probe(&db, &pos).unwrap();
            let solved = solve(&pos, &small_opts(), &mut |_| {});
            assert_eq!(
                solved.value,
                pos.banked() + v,
                "{rules:?}: {}",
                pos.to_notation()
            );
            checked += 1;
        }
    }
}

/// Builds a 3-house Oware database of up to 6 seeds under `rules` with the
/// binary, into `dir`.
fn oware_file(dir: &std::path::Path, rules: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{rules}3.db"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
        .args(["egtb", "build", "--variant", "oware", "--pits", "3"])
        .args(["--rules", rules, "--max-seeds", "6", "--out"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

#[test]
fn a_database_of_the_other_rule_set_is_refused() {
    let dir = std::env::temp_dir().join(format!("kete-rules-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let awari = oware_file(&dir, "awari");
    let abapa = oware_file(&dir, "abapa");
    let kete = |args: &[&str], file: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
            .args(args)
            .arg(file)
            .output()
            .unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.success(), text(out.stdout), text(out.stderr))
    };
    // The header records the rule set: verify and stats read it back.
    let (ok, stdout, _) = kete(&["egtb", "verify"], &abapa);
    assert!(ok);
    assert!(
        stdout.contains("oware (abapa rules), 3 houses up to 6 seeds"),
        "{stdout}"
    );
    let (ok, stdout, _) = kete(&["egtb", "stats"], &abapa);
    assert!(ok && stdout.lines().count() == 7, "{stdout}");
    // kete solve takes each file under its own rules only; the error names
    // both rule sets.
    let oware3x1 = ["solve", "--variant", "oware", "--pits", "3", "--seeds", "1"];
    let solve_args = |rules: &'static str| {
        [
            &oware3x1[..],
            &["--rules", rules, "--repetition", "split", "--egtb"],
        ]
        .concat()
    };
    for (rules, file, other) in [("abapa", &awari, "awari"), ("awari", &abapa, "abapa")] {
        let (ok, _, stderr) = kete(&solve_args(rules), file);
        assert!(!ok);
        assert!(
            stderr.contains(&format!(
                "the database is for oware ({other} rules), 3 houses, not for oware ({rules} rules), 3 houses"
            )),
            "{stderr}"
        );
    }
    // Under own-side a database's values are of another game: refused, the
    // remedy named.
    let (ok, _, stderr) = kete(&[&oware3x1[..], &["--egtb"]].concat(), &awari);
    assert!(!ok);
    assert!(
        stderr.contains("no database for this solve: under own-side repetition")
            && stderr.contains("(the split repetition rule takes a database;"),
        "{stderr}"
    );
    // Each under its own rules gives the solver's value (6 seeds: all in it).
    for (rules, file) in [(RuleSet::Abapa, &abapa), (RuleSet::Awari, &awari)] {
        let r = OwareRules {
            houses: 3,
            seeds: 1,
            rules,
            repetition: Repetition::Split,
        };
        let db = kete::solve::load(file).unwrap();
        let start = Oware::start(&r);
        let expected = solve_with_tablebase(&start, &small_opts(), Some(&db), &mut |_| {});
        let name = if rules == RuleSet::Abapa {
            "abapa"
        } else {
            "awari"
        };
        let (ok, stdout, stderr) = kete(&solve_args(name), file);
        assert!(ok, "{stderr}");
        assert!(
            stdout.starts_with(&format!("value {:+} best ", expected.value)),
            "{stdout}"
        );
        // The library refuses the other rule set too: no probe answers.
        let other = OwareRules {
            rules: if rules == RuleSet::Abapa {
                RuleSet::Awari
            } else {
                RuleSet::Abapa
            },
            ..r
        };
        assert!(db.check::<Oware>(&other).is_err());
        assert_eq!(Tablebase::<Oware>::probe(&db, &Oware::start(&other)), None);
        assert!(Tablebase::<Oware>::probe(&db, &start).is_some());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn database_file_round_trip_and_kete_solve() {
    let dir = std::env::temp_dir().join(format!("kete-solve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("k.egtb");
    let game = kalah_db(4, Capture::Empty);
    let db = build(game, 8, &BuildOptions::default(), &mut |_| {}).unwrap();
    db.save(&path).unwrap();
    let back = kete::solve::load(&path).unwrap();
    assert_eq!(stats(&back), stats(&db));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(kete::solve::load(&path).is_err());

    let start = kalah(4, 3, Capture::Standard);
    let expected = solve(&start, &small_opts(), &mut |_| {});
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
        .args(["solve", "--variant", "kalah", "--pits", "4", "--seeds", "3"])
        .args(["--hash", "16", "--egtb-seeds", "8"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let best = start.format_move(expected.best[0]);
    assert_eq!(stdout, format!("value {:+} best {best}\n", expected.value));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nodes"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `kete solve` with `args`: whether it succeeded, its stdout and stderr.
fn kete_solve(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kete"))
        .arg("solve")
        .args(args)
        .env("KETE_EGTB_DIR", std::env::temp_dir().join("kete-no-egtb"))
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

#[test]
fn a_time_limit_stops_a_counting_solve_with_the_bounds_it_proved() {
    // Oware 4x3 under own-side takes tens of seconds here; its value is -2
    // (the README's table). Stopped after a second, the bounds printed
    // must hold it; a machine fast enough to finish gives the answer.
    let (ok, stdout, stderr) = kete_solve(&[
        "--variant",
        "oware",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--time",
        "1",
    ]);
    assert!(ok, "{stderr}");
    if stdout != "value -2 best A\n" {
        let rest = stdout
            .strip_prefix("unproven value in [")
            .unwrap_or_else(|| panic!("{stdout}"));
        let (bounds, best) = rest.split_once("] best ").unwrap();
        let (lo, hi) = bounds.split_once(',').unwrap();
        let (lo, hi): (i32, i32) = (lo.parse().unwrap(), hi.parse().unwrap());
        assert!(lo <= -2 && -2 <= hi && lo >= -24 && hi <= 24, "{stdout}");
        assert!(["A", "B", "C", "D"].contains(&best.trim_end()), "{stdout}");
        assert!(stderr.contains("stopped by --time 1 s"), "{stderr}");
        assert!(stderr.contains("not proven"), "{stderr}");
    }
    // A solve that ends within the limit answers as without one.
    let board = ["--variant", "oware", "--pits", "3", "--seeds", "2"];
    let plain = kete_solve(&board);
    let limited = kete_solve(&[&board[..], &["--time", "600"]].concat());
    assert!(plain.0 && plain.1.starts_with("value "), "{plain:?}");
    assert_eq!(limited.1, plain.1);
}

#[test]
fn limits_a_solve_by_counting_cannot_take_are_refused_by_name() {
    let kalah = ["--variant", "kalah", "--pits", "3", "--seeds", "2"];
    let refused = |extra: &[&str], expected: &str| {
        let args: Vec<&str> = kalah.iter().chain(extra).copied().collect();
        let (ok, stdout, stderr) = kete_solve(&args);
        assert!(!ok && stdout.is_empty(), "{extra:?}: {stdout}");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
    };
    refused(
        &["--nodes", "1000"],
        "solved by counting: limit it with --time",
    );
    refused(
        &["--time", "0"],
        "--time 0 is not a positive number of seconds",
    );
    refused(
        &["--time=-3"],
        "--time -3 is not a positive number of seconds",
    );
    refused(
        &["--time", "inf"],
        "--time inf is not a positive number of seconds",
    );
    let dir = std::env::temp_dir().join(format!("kete-time-split-{}", std::process::id()));
    let dir_text = dir.to_str().unwrap();
    refused(
        &["--time", "5", "--split", "2", "--jobs", dir_text],
        "--split and --combine search nothing",
    );
    assert!(!dir.exists(), "a refused split wrote no jobs");
}

/// The boards of `game` with `n` seeds, in their numbering's order.
fn db_boards(game: DbGame, n: usize) -> Vec<Vec<u8>> {
    let ix = game.index(n).unwrap();
    let len = ix.board_len();
    let mut b = [0u8; kete::game::DB_BOARD];
    ix.unrank(n, 0, &mut b[..len]);
    let mut out = Vec::new();
    for _ in 0..ix.count(n) {
        out.push(b[..len].to_vec());
        ix.next(&mut b[..len]);
    }
    out
}

/// Togyz Kumalak's database values by the definition, as [`oware_values`]
/// for Oware: naive iteration to a fixed point for every threshold, the
/// moves played by the game itself; endless play is worth 0.
fn togyz_values(rules: &TogyzRules, max: usize) -> HashMap<Vec<u8>, i32> {
    let game = Togyz::db_game(rules).unwrap();
    let r = Togyz::db_rules(game);
    let mut val: HashMap<Vec<u8>, i32> = HashMap::new();
    for n in 0..=max {
        let all = db_boards(game, n);
        // Each board's game end, or the values of its moves that leave the
        // count and the boards its other moves reach.
        let mut ends = Vec::new();
        let mut exits = Vec::new();
        let mut inside = Vec::new();
        for b in &all {
            let pos = Togyz::from_db_board(&r, b);
            ends.push(pos.outcome().map(|o| o.margin_for(Side::South).unwrap()));
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let (mut e, mut i) = (Vec::new(), Vec::new());
            for mv in moves {
                let child = pos.play(mv);
                let mut cb = [0u8; kete::game::DB_BOARD];
                let rest = child.db_board(&mut cb);
                let cb = cb[..b.len()].to_vec();
                if rest == n {
                    i.push(cb);
                } else {
                    e.push(-child.banked() - if rest == 0 { 0 } else { val[&cb] });
                }
            }
            exits.push(e);
            inside.push(i);
        }
        let mut level: HashMap<Vec<u8>, i32> = HashMap::new();
        for t in (1..=n as i32).rev() {
            let mut wins: HashMap<&Vec<u8>, bool> = HashMap::new();
            let mut losses: HashMap<&Vec<u8>, bool> = HashMap::new();
            loop {
                let mut changed = false;
                for (k, b) in all.iter().enumerate() {
                    let (w, l) = match ends[k] {
                        Some(end) => (end >= t, end <= -t),
                        None => (
                            exits[k].iter().any(|&e| e >= t)
                                || inside[k].iter().any(|c| losses.contains_key(c)),
                            exits[k].iter().all(|&e| e <= -t)
                                && inside[k].iter().all(|c| wins.contains_key(c)),
                        ),
                    };
                    if w && wins.insert(b, true).is_none() {
                        changed = true;
                    }
                    if l && losses.insert(b, true).is_none() {
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for b in &all {
                if level.contains_key(b) {
                    continue;
                }
                if wins.contains_key(b) {
                    level.insert(b.clone(), t);
                } else if losses.contains_key(b) {
                    level.insert(b.clone(), -t);
                }
            }
        }
        for b in all {
            let v = level.get(&b).copied().unwrap_or(0);
            val.insert(b, v);
        }
    }
    val
}

/// Togyz Kumalak's databases — the tournament board with its 73 layouts of
/// tuzdyks, a three-otau board, and Bestemshe without tuzdyks — against
/// the definition, every board; they must also verify.
#[test]
fn togyz_kumalak_databases_match_the_definition() {
    let three = TogyzRules {
        pits: 3,
        ..TogyzRules::default()
    };
    for (rules, max) in [
        (TogyzRules::default(), 3),
        (three, 7),
        (TogyzRules::bestemshe(), 5),
    ] {
        let game = Togyz::db_game(&rules).unwrap();
        let db = build(game, max, &BuildOptions::default(), &mut |_| {}).unwrap();
        let expected = togyz_values(&rules, max);
        for n in 0..=max {
            for b in db_boards(game, n) {
                assert_eq!(
                    db.value(&b, n) as i32,
                    expected[&b],
                    "{rules:?}, board {b:?}"
                );
            }
        }
        assert!(
            verify(&db, &BuildOptions::default(), 1, &mut |_| {})
                .1
                .is_empty()
        );
    }
}

/// The position of a database board with kazans that decide nothing yet,
/// South to move, or its mirror with North to move.
fn togyz_position(board: &Togyz, kazans: (u32, u32), north: bool) -> Togyz {
    let rules = board.rules();
    let token = board.to_notation();
    let fields: Vec<&str> = token.split('-').collect();
    let m = rules.pits as usize;
    let cells = if north {
        [&fields[m..2 * m], &fields[..m]].concat()
    } else {
        fields[..2 * m].to_vec()
    };
    let (s, n) = if north { (kazans.1, kazans.0) } else { kazans };
    let side = if north { "N" } else { "S" };
    Togyz::from_notation(&rules, &format!("{}-{s}-{n}-{side}", cells.join("-"))).unwrap()
}

/// Random boards of a Togyz Kumalak database game with 1 to `max`
/// kumalaks (empty kazans, South to move), each with its kumalaks.
fn random_db_boards(game: DbGame, max: usize, seed: u64) -> impl FnMut() -> (usize, Togyz) {
    let r = Togyz::db_rules(game);
    let ix = game.index(max).unwrap();
    let mut rng = Rng::new(seed);
    move || {
        let n = 1 + rng.below(max);
        let mut b = [0u8; kete::game::DB_BOARD];
        let rank = rng.below(ix.count(n) as usize) as u64;
        ix.unrank(n, rank, &mut b[..ix.board_len()]);
        (n, Togyz::from_db_board(&r, &b[..ix.board_len()]))
    }
}

/// The solver, which knows nothing of databases, against the database on
/// random boards of up to five kumalaks, with kazans near the 82 that wins
/// (which end the game early, as the database's play to the end does not:
/// the winner is the same) and either side to move.
#[test]
fn togyz_kumalak_databases_agree_with_the_solver() {
    const MAX: usize = 5;
    let rules = TogyzRules::default();
    let game = Togyz::db_game(&rules).unwrap();
    let db = build(game, MAX, &BuildOptions::default(), &mut |_| {}).unwrap();
    let mut rng = Rng::new(0x6A09_E667_F3BC_C908);
    let mut boards = random_db_boards(game, MAX, 0x2545_F491_4F6C_DD1D);
    let mut checked = 0;
    while checked < 60 {
        let (n, board) = boards();
        // Kazans that leave both players below 82: South's from 81 - n
        // to 81, North's the rest of the 162.
        let south = 81 - n as u32 + rng.below(n + 1) as u32;
        let north = 162 - n as u32 - south;
        let pos = togyz_position(&board, (south, north), rng.below(2) == 1);
        if pos.outcome().is_some() {
            continue;
        }
        let v = Tablebase::<Togyz>::probe(&db, &pos).unwrap();
        let solved = solve(&pos, &small_opts(), &mut |_| {});
        let decided = |margin: i32| margin.signum();
        // The solver plays the real game, which ends when a kazan passes 81:
        // its margin can differ, never the winner.
        assert_eq!(
            decided(solved.value),
            decided(pos.banked() + v),
            "{}",
            pos.to_notation()
        );
        checked += 1;
    }
}

/// Togyz Kumalak has no repetition rule, so a won database position must
/// be played out by its distance to the capture: from random boards won
/// for the side to move, the winner playing the moves the search is held
/// to ([`kete::protocol::solve::progress`]) and the loser keeping his value
/// while putting the capture off as long as the database allows, seeds
/// leave the board (or the game ends) within the winner's distance plus
/// one ply. Both games, the tournament board to 5 kumalaks and
/// Bestemshe's to 8.
#[test]
fn togyz_kumalak_database_wins_are_played_out_by_their_distances() {
    for (rules, max) in [(TogyzRules::default(), 5), (TogyzRules::bestemshe(), 8)] {
        let game = Togyz::db_game(&rules).unwrap();
        let db = build(game, max, &BuildOptions::default(), &mut |_| {}).unwrap();
        assert!(db.has_distances());
        let mut boards = random_db_boards(game, max, 0x9E37_79B9_7F4A_7C15);
        let seeds = |p: &Togyz| p.db_board(&mut [0u8; kete::game::DB_BOARD]);
        let (mut played, mut longest) = (0, 0);
        while played < 1_500 {
            let (n, mut pos) = boards();
            let Some((v, d)) = db.probe_distance(&pos) else {
                panic!("{} is not in the database", pos.to_notation())
            };
            if v <= 0 || pos.outcome().is_some() {
                continue;
            }
            let winner = pos.side_to_move();
            longest = longest.max(d);
            let mut plies = 0;
            while pos.outcome().is_none() && seeds(&pos) == n {
                assert!(
                    plies <= d,
                    "{}: no capture after {plies} plies",
                    pos.to_notation()
                );
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let mv = if pos.side_to_move() == winner {
                    assert!(kete::protocol::solve::progress(&db, &pos, &mut moves));
                    moves[0]
                } else {
                    // The loser's moves that keep his value, the farthest
                    // from the capture.
                    let (lv, _) = db.probe_distance(&pos).unwrap();
                    let keeps = |m: &_| {
                        let c = pos.play(*m);
                        let (cv, cd) = db.probe_distance(&c).unwrap();
                        (-(c.banked() + cv) == pos.banked() + lv).then_some(cd)
                    };
                    *moves
                        .iter()
                        .filter(|m| keeps(m).is_some())
                        .max_by_key(|m| keeps(m))
                        .expect("a move keeps the value")
                };
                pos = pos.play(mv);
                plies += 1;
            }
            played += 1;
        }
        assert!(longest > 4, "distances up to {longest} only");
    }
}

#[test]
fn solver_matches_brute_force_on_described_endgames() {
    use kete::variants::Variant;
    use kete::variants::described::Described;
    // Games with stores sown and not, relays, passes, captures of several
    // kinds; positions of their random games with few seeds left in play.
    for name in [
        "mangala",
        "das-bohnenspiel",
        "ayoayo",
        "sungka",
        "vai-lung-thlan",
        "jodu",
    ] {
        let Variant::Described(rules) = Variant::by_name(name).unwrap() else {
            unreachable!()
        };
        let start = Described::start(&rules);
        let mut rng = Rng::new(0x5017E);
        let mut picked = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..400 {
            if picked.len() == 4 {
                break;
            }
            let mut pos = start;
            for _ in 0..3000 {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                if pos.seeds_in_play() <= 3 {
                    picked.push(pos);
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(picked.len() >= 3, "{name}: {} endgames found", picked.len());
        for pos in picked {
            let t = std::time::Instant::now();
            check_solver(&pos);
            eprintln!("{name} {}: {:?}", pos.to_notation(), t.elapsed());
        }
    }
}

/// A Togyz Kumalak midgame (67 kumalaks in play) given 2 s: the table is
/// what 2 s can fill, not half the machine's memory, and the answer says in
/// words what was proven and what to try next.
#[test]
fn a_solve_stopped_by_time_is_sized_to_it_and_says_what_it_proved() {
    let fen = "X-0-1-5-4-1-4-7-3-2-8-0-26-X-2-1-2-1-55-40-S";
    let (ok, out, err) = kete_solve(&["--variant", "togyz-kumalak", "--fen", fen, "--time", "2"]);
    assert!(ok, "{err}");
    assert!(err.contains("table: 128 MiB"), "{err}");
    assert!(out.starts_with("unproven value in ["), "{out}");
    assert!(
        err.contains("proven only that South") && err.contains("kumalaks"),
        "{err}"
    );
    assert!(err.contains("give it more --time"), "{err}");
}
