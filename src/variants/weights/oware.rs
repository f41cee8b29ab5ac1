//! Evaluation weights, (opening, endgame) per feature, fitted by
//! `kete tune fit --variant oware --rules abapa --data oware-abapa-classic-2400.txt --scale 425 --zero --iterations 3000 --rate 2 --threads 2 --out wzero.rs`
//! to 228968 positions: logistic scale 425.0, mean squared error 0.228657 -> 0.150570.
//! Written by `kete tune fit`; rerun it rather than editing by hand.
#[rustfmt::skip]
pub const WEIGHTS: [(i32, i32); 29] = [
    (43, 172), // store
    (1, -7), // seeds_me
    (-97, -89), // empty_me
    (-40, 20), // weak_me
    (28, 423), // kroo_me
    (44, 124), // tempo_me
    (33, 192), // capture_me
    (13, -37), // d0_me
    (-1, -21), // d1_me
    (-6, 5), // d2_me
    (-5, 15), // d3_me
    (-9, 27), // d4_me
    (1, 19), // d5_me
    (0, 0), // d6_me
    (0, 0), // d7_me
    (-1, 4), // seeds_opp
    (94, 77), // empty_opp
    (49, -32), // weak_opp
    (-34, -548), // kroo_opp
    (-38, -109), // tempo_opp
    (-22, -99), // capture_opp
    (-14, 30), // d0_opp
    (0, 16), // d1_opp
    (5, -8), // d2_opp
    (4, -15), // d3_opp
    (8, -27), // d4_opp
    (-1, -10), // d5_opp
    (0, 0), // d6_opp
    (0, 0), // d7_opp
];
