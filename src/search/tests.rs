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
