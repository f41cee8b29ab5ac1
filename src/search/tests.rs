use super::*;
use crate::variants::kalah::{Kalah, KalahRules};

fn run(pos: &Kalah, depth: u32) -> SearchResult<u8> {
    let shared = Shared::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    search(
        pos,
        &[],
        &limits,
        &Settings::<Kalah>::default(),
        &shared,
        &mut |_| {},
    )
}

#[test]
fn finds_a_legal_move_and_a_pv_that_starts_with_it() {
    let pos = Kalah::start(&KalahRules::default());
    let r = run(&pos, 6);
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert!(legal.contains(&r.best.unwrap()));
    assert_eq!(r.pv.first(), r.best.as_ref());
}

/// Plain minimax over the whole game: the value every proven search must match.
fn brute_force(pos: &Kalah) -> i32 {
    if let Some(o) = pos.outcome() {
        return terminal_score(&o, pos.side_to_move(), 0);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let child = pos.play(mv);
            let v = brute_force(&child);
            if child.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            }
        })
        .max()
        .unwrap()
}

#[test]
fn proven_scores_match_brute_force_on_small_boards() {
    for (pits, seeds) in [(2, 2), (3, 2), (3, 3), (2, 4)] {
        let rules = KalahRules {
            pits,
            seeds,
            ..KalahRules::default()
        };
        let pos = Kalah::start(&rules);
        let expected = brute_force(&pos);
        let r = run(&pos, MAX_DEPTH);
        assert!(r.proven, "Kalah({pits},{seeds}) not proven");
        assert_eq!(r.score, expected, "Kalah({pits},{seeds})");
        // The best move really achieves the value.
        let child = pos.play(r.best.unwrap());
        let v = brute_force(&child);
        let v = if child.side_to_move() == pos.side_to_move() {
            v
        } else {
            -v
        };
        assert_eq!(v, expected, "Kalah({pits},{seeds}) best move");
    }
}

fn run_threads(pos: &Kalah, depth: u32, threads: usize) -> (SearchResult<u8>, Vec<Report<u8>>) {
    let shared = Shared::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let settings = Settings::<Kalah> {
        threads,
        ..Settings::default()
    };
    let mut reports = Vec::new();
    let r = search(pos, &[], &limits, &settings, &shared, &mut |r| {
        reports.push(r.clone())
    });
    (r, reports)
}

#[test]
fn helper_threads_keep_proven_scores_exact_and_the_best_move_sound() {
    // Helpers write into the main thread's table from other depths and
    // lines: the proven value and the move must still be the game's.
    for (pits, seeds) in [(2, 2), (3, 2), (3, 3), (2, 4)] {
        let rules = KalahRules {
            pits,
            seeds,
            ..KalahRules::default()
        };
        let pos = Kalah::start(&rules);
        let expected = brute_force(&pos);
        for threads in [2, 3] {
            let (r, _) = run_threads(&pos, MAX_DEPTH, threads);
            assert!(r.proven, "Kalah({pits},{seeds}), {threads} threads");
            assert_eq!(
                r.score, expected,
                "Kalah({pits},{seeds}), {threads} threads"
            );
            let child = pos.play(r.best.unwrap());
            let v = brute_force(&child);
            let v = if child.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            };
            assert_eq!(
                v, expected,
                "Kalah({pits},{seeds}) best move, {threads} threads"
            );
        }
    }
}

#[test]
fn with_helper_threads_the_last_line_reported_is_the_move_played_at_the_depth_asked() {
    let pos = Kalah::start(&KalahRules::default());
    for _ in 0..5 {
        let (r, reports) = run_threads(&pos, 9, 2);
        assert_eq!(r.depth, 9);
        let last = reports.last().expect("a line per iteration");
        assert_eq!(last.depth, 9);
        assert_eq!(last.pv.first(), r.best.as_ref());
        assert_eq!(r.pv.first(), r.best.as_ref());
        assert!(reports.windows(2).all(|w| w[0].depth <= w[1].depth));
    }
}
