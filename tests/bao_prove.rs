//! The Bao prover (`kete::solve::pns`, `go solve` and `kete solve` for Bao)
//! against a brute force written here: plain minimax bounded in plies, no
//! table, no pruning. Positions are written in the protocol's position
//! notation (protocol/README.md, "Bao"); the small ones were picked from
//! random sparse boards for the distance the brute force gives them.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::EngineProcess;
use common::rng::Rng;
use kete::game::{Game, Side};
use kete::solve::pns::{Ended, ProveOptions, ProveResult, Verdict, prove};
use kete::variants::bao::{Bao, BaoMove, BaoRules};

/// Whether `attacker` wins from `pos` within `plies` plies whatever the
/// other side does: every line looked at, to the end of the game.
fn wins_within(pos: &Bao, attacker: Side, plies: u32) -> bool {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return pos.outcome().unwrap().result.winner() == Some(attacker);
    }
    if plies == 0 {
        return false;
    }
    let mut children = moves.iter().map(|&m| pos.play(m));
    if pos.side_to_move() == attacker {
        children.any(|c| wins_within(&c, attacker, plies - 1))
    } else {
        children.all(|c| wins_within(&c, attacker, plies - 1))
    }
}

/// The brute force's verdict within `max` plies: `Some(p)` for a win of
/// the side to move in `p` plies (the fewest), `Some(-p)` for a loss in
/// `p`, `None` if neither is forced within `max`.
fn brute(pos: &Bao, max: u32) -> Option<i32> {
    let me = pos.side_to_move();
    for p in 1..=max {
        if wins_within(pos, me, p) {
            return Some(p as i32);
        }
        if wins_within(pos, me.other(), p) {
            return Some(-(p as i32));
        }
    }
    None
}

fn kujifunza(token: &str) -> Bao {
    Bao::from_notation(&BaoRules::kujifunza(), token).unwrap_or_else(|e| panic!("{token}: {e}"))
}

fn kiswahili(token: &str) -> Bao {
    Bao::from_notation(&BaoRules::kiswahili(), token).unwrap_or_else(|e| panic!("{token}: {e}"))
}

fn opts() -> ProveOptions {
    ProveOptions {
        hash_mb: 16,
        nodes: Some(5_000_000),
        ..ProveOptions::default()
    }
}

/// The plies of a proven result, signed for the side to move.
fn signed(r: &ProveResult<BaoMove>) -> Option<i32> {
    match r.verdict {
        Verdict::Win => Some(r.plies as i32),
        Verdict::Loss => Some(-(r.plies as i32)),
        Verdict::Unproven => None,
    }
}

/// Plays the line and checks that it is legal and ends, after `plies`
/// moves, in a game won by `winner`. A line of a proof that the table could
/// not keep whole (`whole` false) is only its start: it must be legal.
fn check_line(pos: &Bao, line: &[BaoMove], plies: u32, winner: Side, whole: bool) {
    if whole {
        assert_eq!(
            line.len() as u32,
            plies,
            "the line has the distance's plies"
        );
    }
    let mut p = *pos;
    let mut moves = Vec::new();
    for &mv in line {
        p.legal_moves(&mut moves);
        assert!(
            moves.contains(&mv),
            "{mv:?} is legal in {}",
            p.to_notation()
        );
        p = p.play(mv);
    }
    if !whole {
        return;
    }
    let o = p.outcome().expect("the line ends the game");
    assert_eq!(o.result.winner(), Some(winner));
}

/// Hand-picked positions and their distance in plies for the side to move
/// (negative: he loses), each checked by the brute force first.
const POSITIONS: &[(&str, &str, i32)] = &[
    // Win in 1 (one move of the winner).
    (
        "kujifunza",
        "0,0,0,0,0,0,0,0/3,0,1,0,0,0,0,1/1,0,0,1,0,3,0,0/0,2,0,0,0,0,0,0-0-0-LL-S-x-0",
        1,
    ),
    (
        "kiswahili",
        "0,0,0,0,0,0,0,0/0,0,0,0,0,1,0,1/1,0,0,2,0,0,2,0/0,0,0,0,2,0,0,2-0-0-LL-S-x-0",
        1,
    ),
    // Win in 2.
    (
        "kujifunza",
        "0,0,0,0,0,0,0,0/0,0,1,0,1,3,0,0/0,0,0,3,0,0,0,3/0,0,0,0,2,3,0,3-0-0-LL-S-x-0",
        3,
    ),
    (
        "kiswahili",
        "0,0,0,0,0,3,0,3/0,3,0,2,0,0,3,0/2,0,0,0,0,0,3,0/0,0,0,0,0,0,1,0-0-0-LL-N-x-0",
        3,
    ),
    // Win in 3; the Kiswahili one in the namua stage (South has 2 seeds in
    // hand).
    (
        "kujifunza",
        "0,0,2,0,0,0,0,0/3,0,0,0,0,0,2,3/1,0,0,2,0,0,0,0/0,0,0,3,0,0,0,0-0-0-LL-N-x-0",
        5,
    ),
    (
        "kiswahili",
        "0,0,0,0,0,0,0,0/2,1,0,0,0,1,1,0/0,0,0,0,1,0,0,2/3,0,0,0,3,0,0,0-2-0-LL-S-x-0",
        5,
    ),
    // Losses: the side to move loses in 1, 2 and 3 moves of the winner.
    (
        "kujifunza",
        "0,0,0,2,0,1,0,3/1,0,0,0,1,0,0,0/0,0,0,1,0,1,0,0/0,0,0,0,0,0,0,2-0-0-LL-S-x-0",
        -2,
    ),
    (
        "kiswahili",
        "0,3,0,0,0,0,0,0/0,0,0,1,0,0,0,0/0,3,2,0,0,0,0,0/0,3,3,0,3,2,0,0-2-1-LL-N-x-0",
        -4,
    ),
    (
        "kujifunza",
        "2,3,0,0,0,0,1,1/3,0,0,0,0,3,1,0/0,1,0,0,0,0,0,2/2,0,2,0,0,0,0,0-0-0-LL-S-x-0",
        -6,
    ),
    (
        "kiswahili",
        "3,3,3,0,0,0,0,0/0,2,1,1,0,0,0,0/0,0,0,2,0,0,0,0/1,0,0,0,0,0,0,0-1-1-LL-S-x-0",
        -6,
    ),
];

fn position(variant: &str, token: &str) -> Bao {
    match variant {
        "kujifunza" => kujifunza(token),
        _ => kiswahili(token),
    }
}

#[test]
fn the_hand_picked_wins_and_losses_have_the_distance_the_brute_force_gives() {
    for &(variant, token, plies) in POSITIONS {
        let pos = position(variant, token);
        assert_eq!(brute(&pos, 6), Some(plies), "{variant} {token}");
    }
}

#[test]
fn the_prover_finds_each_win_in_1_2_3_and_each_loss_with_its_distance_and_line() {
    for &(variant, token, plies) in POSITIONS {
        let pos = position(variant, token);
        let r = prove(&pos, &opts(), &mut |_| {});
        assert_eq!(signed(&r), Some(plies), "{variant} {token}: {r:?}");
        assert!(
            r.shortest,
            "{variant} {token}: the distance is the shortest"
        );
        assert!(r.proof_size.is_some(), "the proof was checked: {r:?}");
        let me = pos.side_to_move();
        let winner = if plies > 0 { me } else { me.other() };
        check_line(&pos, &r.pv, plies.unsigned_abs(), winner, true);
        // The mate count of the protocol: moves of the winner.
        assert_eq!(r.winner_moves(), plies.unsigned_abs().div_ceil(2));
    }
}

/// Random sparse positions (a few seeds in some pits, either side to move,
/// Kujifunza and Kiswahili, the latter sometimes with seeds in hand): where
/// the brute force sees a forced result within 5 plies, the prover proves
/// the same with the same distance; where it sees none, the prover does not
/// claim one that short, and what it does claim holds.
#[test]
fn random_small_positions_agree_with_the_brute_force() {
    let mut rng = Rng::new(2026);
    let (mut checked, mut decided, mut longer, mut unchecked) = (0, 0, 0, 0);
    while checked < 150 {
        let kis = rng.below(2) == 0;
        let mut rows = [[0u8; 8]; 4];
        for row in rows.iter_mut() {
            for pit in row.iter_mut() {
                if rng.below(3) == 0 {
                    *pit = rng.below(4) as u8;
                }
            }
        }
        let hands = if kis && rng.below(2) == 0 {
            (rng.below(3) as u8, rng.below(3) as u8)
        } else {
            (0, 0)
        };
        let side = if rng.below(2) == 0 { "S" } else { "N" };
        let token = common::bao::token(rows, hands, "LL", side, "x");
        let rules = if kis {
            BaoRules::kiswahili()
        } else {
            BaoRules::kujifunza()
        };
        let Ok(pos) = Bao::from_notation(&rules, &token) else {
            continue;
        };
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() || moves.len() > 8 {
            continue;
        }
        checked += 1;
        let expected = brute(&pos, 5);
        let r = prove(&pos, &opts(), &mut |_| {});
        let got = signed(&r);
        match expected {
            Some(p) => {
                decided += 1;
                assert_eq!(got, Some(p), "{token}: {r:?}");
                assert!(r.shortest);
            }
            None => {
                if let Some(p) = got {
                    longer += 1;
                    assert!(p.abs() > 5, "{token}: the brute force sees no {p}");
                    // The claim holds: the brute force finds it at its
                    // distance where that is cheap enough.
                    if r.shortest && p.abs() <= 7 {
                        let me = pos.side_to_move();
                        let winner = if p > 0 { me } else { me.other() };
                        assert!(wins_within(&pos, winner, p.unsigned_abs()), "{token}");
                        assert!(!wins_within(&pos, winner, p.unsigned_abs() - 1));
                    }
                }
            }
        }
        if let Some(p) = got {
            let me = pos.side_to_move();
            let winner = if p > 0 { me } else { me.other() };
            let whole = r.proof_size.is_some();
            if !whole {
                unchecked += 1;
                assert!(!r.shortest && r.plies > 5, "{token}: {r:?}");
            }
            check_line(&pos, &r.pv, r.plies, winner, whole);
        }
    }
    println!(
        "{checked} positions: {decided} decided within 5 plies, {longer} proven longer ({unchecked} of them with a proof the table could not keep whole)"
    );
    assert!(
        decided > 50,
        "the sample decides enough positions: {decided}"
    );
}

/// The prover's claim for the start of Bao la Kujifunza, checked outside it:
/// every reply of North is tried, South plays the move the prover gives at
/// each of his turns, and every line ends in a South win within the
/// claimed number of plies.
#[test]
fn the_kujifunza_start_is_a_south_win_against_every_north_reply() {
    let start = Bao::start(&BaoRules::kujifunza());
    let r = prove(&start, &opts(), &mut |_| {});
    assert_eq!(r.verdict, Verdict::Win, "{r:?}");
    assert!(r.shortest);
    let claimed = r.plies;
    // Positions already shown won within so many plies.
    let mut won = std::collections::HashMap::new();
    let lines = beat_every_reply(&start, claimed, &mut won);
    println!(
        "mate {} ({claimed} plies): {lines} lines checked, {} positions",
        r.winner_moves(),
        won.len()
    );
}

fn beat_every_reply(pos: &Bao, plies: u32, won: &mut std::collections::HashMap<Bao, u32>) -> u64 {
    if won.get(pos).is_some_and(|&p| p <= plies) {
        return 1;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let lines = if moves.is_empty() {
        assert_eq!(pos.outcome().unwrap().result.winner(), Some(Side::South));
        1
    } else {
        assert!(plies > 0, "no plies left in {}", pos.to_notation());
        if pos.side_to_move() == Side::South {
            let r = prove(pos, &opts(), &mut |_| {});
            assert_eq!(r.verdict, Verdict::Win, "{}: {r:?}", pos.to_notation());
            assert!(r.plies <= plies, "{}: {r:?}", pos.to_notation());
            beat_every_reply(&pos.play(r.pv[0]), plies - 1, won)
        } else {
            moves
                .iter()
                .map(|&m| beat_every_reply(&pos.play(m), plies - 1, won))
                .sum()
        }
    };
    won.insert(*pos, plies);
    lines
}

#[test]
fn a_limit_or_a_stop_ends_the_proof_unproven_with_its_numbers() {
    let start = Bao::start(&BaoRules::kiswahili());
    let r = prove(
        &start,
        &ProveOptions {
            hash_mb: 16,
            nodes: Some(20_000),
            ..ProveOptions::default()
        },
        &mut |_| {},
    );
    assert_eq!(r.verdict, Verdict::Unproven);
    assert_eq!(r.ended, Ended::Nodes);
    assert!(r.nodes >= 20_000 && r.nodes < 21_000, "{}", r.nodes);
    assert!(r.win.pn > 0 && r.win.dn > 0 && r.loss.pn > 0 && r.loss.dn > 0);
    assert_eq!(r.pv.len(), 1, "a move to play all the same");

    let t = Instant::now();
    let r = prove(
        &start,
        &ProveOptions {
            hash_mb: 16,
            time: Some(Duration::from_millis(300)),
            ..ProveOptions::default()
        },
        &mut |_| {},
    );
    assert_eq!(r.ended, Ended::Time);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

// ------------------------------------------------------------ binaries

fn kete() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kete"))
}

fn solve_cli(args: &[&str]) -> (String, String, bool) {
    let out = kete().arg("solve").args(args).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn kete_solve_prints_the_mate_and_its_line() {
    for &(variant, token, plies) in POSITIONS {
        let (out, err, ok) = solve_cli(&["--variant", variant, "--fen", token]);
        assert!(ok, "{err}");
        let n = (plies.abs() + 1) / 2 * plies.signum();
        let want = format!("mate {n} best ");
        assert!(out.starts_with(&want), "{variant} {token}: {out}");
        let pv = out.split(" pv ").nth(1).unwrap().split_whitespace().count();
        assert_eq!(pv as i32, plies.abs(), "{out}");
        assert!(err.contains("proven: "), "{err}");
    }
}

/// The guide's example (docs/guide/04-solving.md, "Proving Bao") is what the
/// command prints: the proof is deterministic, only the times differ.
#[test]
fn the_guide_example_is_what_kete_solve_prints() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/guide/04-solving.md"
    ))
    .unwrap();
    let start = readme
        .find("```console\n$ kete solve --variant bao-kujifunza\n")
        .expect("the guide shows kete solve for Bao la Kujifunza");
    let block: Vec<&str> = readme[start + 11..]
        .split("\n```")
        .next()
        .unwrap()
        .lines()
        .collect();
    let (out, err, ok) = solve_cli(&["--variant", "bao-kujifunza"]);
    assert!(ok, "{err}");
    assert_eq!(
        block.last().copied(),
        Some(out.trim_end()),
        "the stdout line"
    );
    let shown = block.iter().find(|l| l.starts_with("proven: ")).unwrap();
    let printed = err.lines().find(|l| l.starts_with("proven: ")).unwrap();
    // The summary up to its time.
    let upto = |l: &str| l.split(" time ").next().unwrap().to_string();
    assert_eq!(upto(shown), upto(printed));
}

#[test]
fn kete_solve_says_unproven_with_the_numbers_when_its_limit_ends_it() {
    let (out, err, ok) = solve_cli(&["--variant", "bao", "--nodes", "5000", "--hash", "8"]);
    assert!(ok, "{err}");
    assert!(
        common::glob(
            "unproven win pn * dn * loss pn * dn * max-ply * nodes * best *",
            out.trim()
        ),
        "{out}"
    );
    assert!(err.contains("the node limit was reached"), "{err}");
}

#[test]
fn kete_solve_refuses_bad_bao_input_with_the_reason() {
    let cases: &[(&[&str], &str)] = &[
        (&["--variant", "bao", "--fen", "1,2,3"], "bad --fen '1,2,3'"),
        (
            &["--variant", "kujifunza", "--time", "0"],
            "--time 0 is not a positive number of seconds",
        ),
        (
            &["--variant", "kujifunza", "--nodes", "0"],
            "--nodes 0 leaves nothing to search",
        ),
        (
            &["--variant", "bao", "--egtb-seeds", "4"],
            "--egtb-seeds does not apply to bao-kiswahili",
        ),
        (
            &["--variant", "kalah", "--pits", "3", "--nodes", "10"],
            "--nodes limits only the proof search of a game won or lost without counting (Bao); kalah is solved by counting: limit it with --time",
        ),
    ];
    for (args, want) in cases {
        let (out, err, ok) = solve_cli(args);
        assert!(!ok, "{args:?} should fail: {out}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

fn engine_with(variant: &str) -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send(&format!("setoption name Variant value {variant}"));
    e
}

#[test]
fn go_solve_prints_the_proven_mate_its_line_and_bestmove() {
    for &(variant, token, plies) in POSITIONS {
        let mut e = engine_with(variant);
        e.send(&format!("position fen {token}"));
        e.send("go solve");
        let n = (plies.abs() + 1) / 2 * plies.signum();
        let info = e.wait_for(Duration::from_secs(60), "info score", |l| {
            l.starts_with("info score")
        });
        assert!(
            common::glob(&format!("info score mate {n} nodes * time * pv *"), &info),
            "{info}"
        );
        let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert_eq!(pv.len() as i32, plies.abs(), "{info}");
        let proven = e.next_line(Duration::from_secs(5)).unwrap();
        assert_eq!(proven, format!("info string proven score mate {n}"));
        let best = e.next_line(Duration::from_secs(5)).unwrap();
        assert_eq!(best, format!("bestmove {}", pv[0]));
        e.finish();
    }
}

#[test]
fn go_solve_proves_the_kujifunza_start_a_first_player_win() {
    let mut e = engine_with("bao-kujifunza");
    e.send("position startpos");
    e.send("go solve");
    let info = e.wait_for(Duration::from_secs(120), "info score", |l| {
        l.starts_with("info score")
    });
    assert!(common::glob("info score mate * pv *", &info), "{info}");
    let n: i32 = info.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert!(n > 0, "South wins: {info}");
    e.wait_for(Duration::from_secs(5), "proven", |l| {
        l == format!("info string proven score mate {n}")
    });
    e.wait_for(Duration::from_secs(5), "bestmove", |l| {
        l.starts_with("bestmove ")
    });
    e.finish();
}

#[test]
fn stop_ends_a_long_bao_proof_at_once_with_unproven_and_bestmove() {
    let mut e = engine_with("bao-kiswahili");
    e.send("position startpos");
    e.send("go solve");
    e.send("isready");
    e.wait_for(Duration::from_secs(10), "readyok", |l| l == "readyok");
    std::thread::sleep(Duration::from_millis(700));
    let t = Instant::now();
    e.send("stop");
    let unproven = e.wait_for(Duration::from_secs(5), "unproven", |l| {
        l.starts_with("info string unproven")
    });
    assert!(
        common::glob(
            "info string unproven (stopped): win pn * dn * loss pn * dn * max-ply * nodes * time *",
            &unproven
        ),
        "{unproven}"
    );
    let best = e.next_line(Duration::from_secs(5)).unwrap();
    let waited = t.elapsed();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove 0000",
        "{best}"
    );
    println!("stop answered in {waited:?}");
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    e.finish();
}

#[test]
fn go_solve_with_a_node_or_time_limit_ends_unproven() {
    let mut e = engine_with("bao-kiswahili");
    e.send("position startpos");
    e.send("go solve nodes 3000");
    let l = e.wait_for(Duration::from_secs(30), "unproven", |l| {
        l.starts_with("info string unproven")
    });
    assert!(l.contains("(the node limit was reached)"), "{l}");
    e.wait_for(Duration::from_secs(5), "bestmove", |l| {
        l.starts_with("bestmove ")
    });
    e.send("go solve movetime 200");
    let l = e.wait_for(Duration::from_secs(30), "unproven", |l| {
        l.starts_with("info string unproven")
    });
    assert!(l.contains("(the time limit was reached)"), "{l}");
    e.wait_for(Duration::from_secs(5), "bestmove", |l| {
        l.starts_with("bestmove ")
    });
    e.finish();
}

#[test]
fn go_solve_on_a_finished_bao_game_and_after_bad_input() {
    let mut e = engine_with("bao-kujifunza");
    // North's front row is empty: South has won, there is nothing to play.
    e.send(
        "position fen 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,2,0,0,0,0,0,0/0,0,0,0,0,0,0,0-0-0-LL-N-x-0",
    );
    e.send("go solve");
    e.wait_for(Duration::from_secs(10), "game over", |l| {
        l == "info string go solve: the game is over"
    });
    let best = e.next_line(Duration::from_secs(5)).unwrap();
    assert_eq!(best, "bestmove 0000");
    // A bad token leaves the position as it was; a bad limit is named.
    e.send("position fen 0,0,0,0,0,0,0,0/0,0,0,0-0-0-LL-S-x-0");
    let err = e.wait_for(Duration::from_secs(5), "error", |l| {
        l.starts_with("info string error")
    });
    assert!(
        err.contains("bad position") && err.contains("no position is held"),
        "{err}"
    );
    e.send(
        "position fen 0,0,0,0,0,0,0,0/3,0,1,0,0,0,0,1/1,0,0,1,0,3,0,0/0,2,0,0,0,0,0,0-0-0-LL-S-x-0",
    );
    e.send("go solve nodes many");
    let err = e.wait_for(Duration::from_secs(5), "error", |l| {
        l.starts_with("info string error")
    });
    assert!(err.contains("nodes"), "{err}");
    e.wait_for(Duration::from_secs(10), "proven", |l| {
        l == "info string proven score mate 1"
    });
    e.wait_for(Duration::from_secs(5), "bestmove", |l| {
        l.starts_with("bestmove ")
    });
    e.finish();
}
