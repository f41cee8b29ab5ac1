//! Evaluation weights, (opening, endgame) per feature, fitted by
//! `kete tune fit --variant bao-kiswahili --data baok-classic-600.txt --scale 632 --zero --iterations 3000 --rate 2 --threads 1 --out src/variants/weights/bao.rs`
//! to 31968 positions: logistic scale 632.0, mean squared error 0.250000 -> 0.145409.
//! Written by `kete tune fit`; rerun it rather than editing by hand.
#[rustfmt::skip]
pub const WEIGHTS: [(i32, i32); 20] = [
    (155, 182), // seeds_me
    (281, 281), // hand_me
    (-140, -129), // front_me
    (-28, 88), // front_pits_me
    (-90, 39), // back_pits_me
    (68, 16), // singles_me
    (-19, 115), // hits_me
    (6, 38), // best_hit_me
    (317, 484), // nyumba_me
    (302, 432), // owned_me
    (-115, -195), // seeds_opp
    (-344, -382), // hand_opp
    (157, 141), // front_opp
    (-34, 17), // front_pits_opp
    (101, -19), // back_pits_opp
    (-52, -52), // singles_opp
    (39, -100), // hits_opp
    (10, -36), // best_hit_opp
    (-283, -500), // nyumba_opp
    (-327, -448), // owned_opp
];
