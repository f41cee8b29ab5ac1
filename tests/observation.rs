//! The observation every game gives a learning program (`Game::observe`):
//! the side to move's places first, each row from its owner's left, so
//! that a position and the same position with the colours swapped look
//! alike to the player to move.

use kete::game::{Game, Side};
use kete::variants::bao::{Bao, BaoRules};
use kete::variants::endodoi::{EnDodoi, EnDodoiRules};
use kete::variants::kalah::{Kalah, KalahRules};
use kete::variants::oware::{Oware, OwareRules};

mod common;
use common::bao::{Z, pos_with};
use common::rng::Rng;

fn observation<G: Game>(pos: &G) -> Vec<f32> {
    observation_by(pos, pos.side_to_move())
}

fn observation_by<G: Game>(pos: &G, view: Side) -> Vec<f32> {
    let mut out = vec![0.0; G::observation_len(&pos.rules())];
    pos.observe(view, &mut out);
    out
}

/// The two-row token of the same position with the colours swapped: North's
/// row becomes South's, the stores change hands, the other side moves.
fn swapped_two_row(token: &str) -> String {
    let f: Vec<&str> = token.split('-').collect();
    let m = (f.len() - 3) / 2;
    let side = if f[2 * m + 2] == "S" { "N" } else { "S" };
    let mut out: Vec<&str> = f[m..2 * m].to_vec();
    out.extend(&f[..m]);
    out.extend([f[2 * m + 1], f[2 * m], side]);
    out.join("-")
}

/// Plays random games and checks every position against its colour swap.
fn same_for_either_colour<G: Game<Move = u8>>(rules: &G::Rules, seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..50 {
        let mut pos = G::start(rules);
        let mut moves = Vec::new();
        for _ in 0..200 {
            let t = pos.to_notation();
            let swapped = G::from_notation(rules, &swapped_two_row(&t)).unwrap();
            assert_eq!(observation(&pos), observation(&swapped), "{t}");
            // The side that waits sees the same as in the swapped position.
            let waiting = pos.side_to_move().other();
            assert_eq!(
                observation_by(&pos, waiting),
                observation_by(&swapped, waiting.other()),
                "{t}"
            );
            let total: f32 = observation(&pos).iter().sum();
            assert_eq!(
                total as u32,
                pos.total_seeds(),
                "{t}: every seed counted once"
            );
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn observation_is_the_same_for_either_colour_kalah() {
    same_for_either_colour::<Kalah>(&KalahRules::default(), 1);
}

#[test]
fn observation_is_the_same_for_either_colour_oware() {
    same_for_either_colour::<Oware>(&OwareRules::default(), 2);
}

#[test]
fn observation_is_the_same_for_either_colour_endodoi() {
    same_for_either_colour::<EnDodoi>(&EnDodoiRules::default(), 3);
}

#[test]
fn observation_of_a_two_row_game_is_the_movers_pits_then_the_opponents_then_the_stores() {
    // Kalah(6,4) after South's pit 3 (0-based 2): 4 seeds into pits 4, 5, 6
    // and the store; South's last seed is in his store, so he moves again.
    let rules = KalahRules::default();
    let pos = Kalah::start(&rules).play(2);
    assert_eq!(pos.side_to_move(), Side::South);
    assert_eq!(
        observation(&pos),
        [4., 4., 0., 5., 5., 5., 4., 4., 4., 4., 4., 4., 1., 0.]
    );
    // Then pit 1: 4 seeds into pits 2..5, North to move, seen from North.
    let pos = pos.play(0);
    assert_eq!(
        observation(&pos),
        [4., 4., 4., 4., 4., 4., 0., 5., 1., 6., 6., 5., 0., 1.]
    );
    // En Dodoi's captured seeds stand where the stores stand.
    let rules = EnDodoiRules::default();
    let len = EnDodoi::observation_len(&rules);
    assert_eq!(len, 2 * rules.pits as usize + 2);
    let start = observation(&EnDodoi::start(&rules));
    assert!(
        start[..len - 2]
            .iter()
            .all(|&v| v == f32::from(rules.seeds))
    );
    assert_eq!(start[len - 2..], [0., 0.]);
}

#[test]
fn observation_of_bao_is_rows_hands_nyumba_and_takasia() {
    let rules = BaoRules::kiswahili();
    let start = Bao::start(&rules);
    let obs = observation(&start);
    assert_eq!(obs.len(), 53);
    // Rows: South's front A1..A8, back B1..B8, North's front, back; the
    // start has 6 in each nyumba (front pit 5) and 2, 2 to its right.
    assert_eq!(obs[..8], [0., 0., 0., 0., 6., 2., 2., 0.]);
    assert_eq!(obs[8..16], [0.; 8]);
    assert_eq!(obs[16..24], [0., 0., 0., 0., 6., 2., 2., 0.]);
    assert_eq!(obs[32..34], [22., 22.], "both hands");
    assert_eq!(obs[34..36], [1., 1.], "both own their nyumba");
    assert_eq!(obs[36], 0.0, "no mtaji capture yet");
    assert!(obs[37..].iter().all(|&v| v == 0.0), "no takasia");

    // North to move with a takasia on his a3: North's rows
    // come first, his front row from his own left.
    let north_front = [8, 7, 6, 5, 4, 3, 2, 1]; // a8..a1 as the token writes it
    let south_back = [0, 0, 0, 0, 0, 0, 0, 9];
    let r = [Z, north_front, [1, 0, 0, 0, 0, 0, 0, 0], south_back];
    let p = pos_with(BaoRules::kujifunza(), r, (0, 0), "LL", "N", "a3");
    let obs = observation(&p);
    assert_eq!(obs[..8], [1., 2., 3., 4., 5., 6., 7., 8.], "North's a1..a8");
    assert_eq!(
        obs[16..24],
        [1., 0., 0., 0., 0., 0., 0., 0.],
        "South's A1..A8"
    );
    assert_eq!(
        obs[24..32],
        [0., 0., 0., 0., 0., 0., 0., 9.],
        "South's B1..B8"
    );
    assert_eq!(obs[34..36], [0., 0.]);
    let takasia: Vec<f32> = obs[37..45].to_vec();
    assert_eq!(takasia, [0., 0., 1., 0., 0., 0., 0., 0.], "a3 takasia'd");
    // South, waiting, sees his own rows first and no takasia of his.
    let south = observation_by(&p, Side::South);
    assert_eq!(south[..8], [1., 0., 0., 0., 0., 0., 0., 0.]);
    assert_eq!(south[16..24], [1., 2., 3., 4., 5., 6., 7., 8.]);
    assert!(south[37..].iter().all(|&v| v == 0.0));
}
