//! Evaluation weights, (opening, endgame) per feature, fitted by
//! `kete tune fit --variant endodoi --data endodoi-classic-3000.txt --scale 233 --zero --iterations 3000 --rate 2 --threads 1 --out endodoi-w.rs`
//! to 68629 positions: logistic scale 233.0, mean squared error 0.233159 -> 0.054230.
//! Written by `kete tune fit`; rerun it rather than editing by hand.
#[rustfmt::skip]
pub const WEIGHTS: [(i32, i32); 12] = [
    (130, 106), // captured
    (92, 71), // capture_now
    (12, -12), // seeds_me
    (274, -164), // empty_me
    (1, -4), // single_me
    (-163, 206), // big_me
    (24, -25), // exposed_me
    (-25, 11), // seeds_opp
    (-238, 189), // empty_opp
    (-15, -39), // single_opp
    (287, -178), // big_opp
    (-9, -17), // exposed_opp
];
