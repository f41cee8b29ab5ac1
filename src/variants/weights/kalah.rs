//! Kalah's evaluation weights, (opening, endgame) per feature in the order of
//! `KalahEval::FEATURES`. Starting values: close to the classic evaluation.
pub const WEIGHTS: [(i32, i32); 25] = [
    (100, 100), // store
    (25, 25),   // seeds_me
    (0, 0),     // empty_me
    (50, 50),   // extra_me
    (0, 0),     // capture_me
    (0, 0),     // d0_me
    (0, 0),     // d1_me
    (0, 0),     // d2_me
    (0, 0),     // d3_me
    (0, 0),     // d4_me
    (0, 0),     // d5_me
    (0, 0),     // d6_me
    (0, 0),     // d7_me
    (-25, -25), // seeds_opp
    (0, 0),     // empty_opp
    (-20, -20), // extra_opp
    (0, 0),     // capture_opp
    (0, 0),     // d0_opp
    (0, 0),     // d1_opp
    (0, 0),     // d2_opp
    (0, 0),     // d3_opp
    (0, 0),     // d4_opp
    (0, 0),     // d5_opp
    (0, 0),     // d6_opp
    (0, 0),     // d7_opp
];
