//! Prints the position before every engine move of the games in a
//! kete-arena `games.jsonl` (Bao games under the default rules), one
//! `<variant> <fen>` line each: the raw material of `tests/data/slow-bao.txt`.
use kete::arena::record::GameLine;
use kete::game::{Game, GameRecord};
use kete::variants::bao::{Bao, BaoRules};
use std::io::BufRead;

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: positions GAMES.jsonl");
    let file = std::io::BufReader::new(std::fs::File::open(&path).expect("open"));
    for line in file.lines() {
        let g: GameLine = serde_json::from_str(&line.expect("read")).expect("a game line");
        let rules = match g.variant.as_str() {
            "bao-kiswahili" => BaoRules::kiswahili(),
            "bao-kujifunza" => BaoRules::kujifunza(),
            _ => continue,
        };
        let start = match &g.opening.fen {
            Some(f) => Bao::from_notation(&rules, f).expect("fen"),
            None => Bao::start(&rules),
        };
        let mut r = GameRecord::new(start);
        for m in g.opening.moves.iter() {
            r.play_text(m).expect("opening move");
        }
        for m in &g.moves {
            println!("{} {}", g.variant, r.position().to_notation());
            r.play_text(&m.mv).expect("move");
        }
    }
}
