//! The exact solver and the endgame databases against independent brute
//! force written here, and the published Oware database position.

use std::collections::HashMap;

use kete::game::{Game, Side};
use kete::solve::db::{DbGame, Egtb, Tablebase};
use kete::solve::egtb::{BuildOptions, build, stats, verify};
use kete::solve::{SolveGame, SolveOptions, solve, solve_with_tablebase};
use kete::variants::endodoi::{EnDodoi, EnDodoiRules};
use kete::variants::kalah::{Capture, Kalah, KalahRules};
use kete::variants::oware::{Oware, OwareRules, Repetition, RuleSet};

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
    let opts = SolveOptions {
        all_best: true,
        ..small_opts()
    };
    let r = solve(pos, &opts, &mut |_| {});
    assert_eq!(r.value, value, "{}", pos.to_notation());
    let best: Vec<G::Move> = expected
        .iter()
        .filter(|e| e.1 == value)
        .map(|e| e.0)
        .collect();
    assert_eq!(r.best, best, "{}", pos.to_notation());
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
    let game = DbGame::Kalah {
        pits: 4,
        capture: Capture::Standard,
    };
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

/// An Awari sowing written for this test alone: `b` is the board from the
/// mover's view (his houses first). Returns the board after the move from
/// the opponent's view and the seeds the mover won, or `None` if the move
/// is illegal because another move feeds the opponent.
fn awari_moves(b: &[u8]) -> Vec<(Vec<u8>, i32)> {
    let m = b.len() / 2;
    let n: i32 = b.iter().map(|&v| v as i32).sum();
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
        let starves = won == before;
        all.push((c, taken, won, starves));
    }
    let feeding: Vec<_> = all.iter().filter(|x| !x.3).collect();
    if feeding.is_empty() {
        // Every move starves the opponent: the mover takes every seed.
        return all.iter().map(|_| (vec![0; 2 * m], n)).collect();
    }
    feeding
        .into_iter()
        .map(|(_, t, won, _)| {
            let mut o = t[m..].to_vec();
            o.extend_from_slice(&t[..m]);
            (o, *won)
        })
        .collect()
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
fn awari_values(m: usize, max: u8) -> HashMap<Vec<u8>, i32> {
    let mut val: HashMap<Vec<u8>, i32> = HashMap::new();
    for n in 0..=max {
        let all = boards(2 * m, n);
        let moves: Vec<_> = all.iter().map(|b| awari_moves(b)).collect();
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
                    let w = mv.iter().any(|(c, won)| match exit(c, *won, &val) {
                        Some(e) => e >= t,
                        None => *losses.get(c).unwrap_or(&false),
                    });
                    let l = mv.is_empty()
                        || mv.iter().all(|(c, won)| match exit(c, *won, &val) {
                            Some(e) => e <= -t,
                            None => *wins.get(c).unwrap_or(&false),
                        });
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

#[test]
fn oware_database_matches_the_definition_on_three_houses() {
    let db = build(
        DbGame::Oware { houses: 3 },
        9,
        &BuildOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let expected = awari_values(3, 9);
    for n in 0..=9usize {
        for b in boards(6, n as u8) {
            assert_eq!(db.value(&b, n) as i32, expected[&b], "board {b:?}");
        }
    }
    assert!(
        verify(&db, &BuildOptions::default(), 1, &mut |_| {})
            .1
            .is_empty()
    );
}

fn oware_db_16() -> Egtb {
    build(
        DbGame::Oware { houses: 6 },
        16,
        &BuildOptions::default(),
        &mut |_| {},
    )
    .unwrap()
}

#[test]
fn oware_database_reproduces_the_published_position_and_counts() {
    let db = oware_db_16();
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
    // The counts of oware.md: C(n+11,11) - C(n+5,11) positions per count.
    let c = |a: u64, b: u64| (0..b).fold(1u64, |r, i| r * (a - i) / (i + 1));
    for s in stats(&db) {
        let n = s.seeds as u64;
        let full = if n >= 6 { c(n + 5, 11) } else { 0 };
        assert_eq!(s.positions, c(n + 11, 11) - full, "n={n}");
        assert_eq!(s.wins + s.draws + s.losses, s.positions);
    }
    // The first 17 lines of `kete egtb stats` of the 24-seed database built
    // for issue 6 (every level is built the same whatever the top count).
    let reference = include_str!("data/awari-stats-24.txt");
    let lines: Vec<String> = stats(&db).iter().map(|s| s.to_string()).collect();
    let want: Vec<&str> = reference.lines().take(lines.len()).collect();
    assert_eq!(lines, want);
}

#[test]
fn database_file_round_trip_and_kete_solve() {
    let dir = std::env::temp_dir().join(format!("kete-solve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("k.egtb");
    let game = DbGame::Kalah {
        pits: 4,
        capture: Capture::Empty,
    };
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
