//! Evaluation weights, (opening, endgame) per feature, fitted by
//! `kete tune fit --variant kalah --data kalah-default-1500.txt --scale 400 --zero --iterations 3000 --rate 2 --threads 2 --out kalah-w2.rs`
//! to 50292 positions: logistic scale 400.0, mean squared error 0.230076 -> 0.112158.
//! Written by `kete tune fit`; rerun it rather than editing by hand.
#[rustfmt::skip]
pub const WEIGHTS: [(i32, i32); 25] = [
    (28, 213), // store
    (-25, 68), // seeds_me
    (9, -299), // empty_me
    (268, 88), // extra_me
    (2, 214), // capture_me
    (63, -58), // d0_me
    (11, -26), // d1_me
    (-33, 15), // d2_me
    (-55, 51), // d3_me
    (-74, 117), // d4_me
    (-45, 149), // d5_me
    (0, 0), // d6_me
    (0, 0), // d7_me
    (27, -64), // seeds_opp
    (-6, 316), // empty_opp
    (-24, -149), // extra_opp
    (-3, -86), // capture_opp
    (-52, 21), // d0_opp
    (-6, 19), // d1_opp
    (40, -31), // d2_opp
    (62, -71), // d3_opp
    (81, -131), // d4_opp
    (43, -121), // d5_opp
    (0, 0), // d6_opp
    (0, 0), // d7_opp
];
