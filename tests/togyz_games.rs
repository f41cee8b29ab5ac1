//! Recorded Togyz Kumalak games between people, replayed move by move
//! (tests/data/togyz/, sources in its README): every move must be legal, and
//! what the record writes besides the otau played — the otau the last
//! kumalak reached, the x of a tuzdyk, PlayOK's kazan after a capture — must
//! be what kete's rules make of it. A game played to its end by the rules
//! (82 kumalaks, or a player without any) must end with the recorded result;
//! the others stopped early (resignation, time) and must not be over.

use kete::game::{Game, GameResult};
use kete::variants::togyz::{Togyz, TogyzRules};

struct Record {
    result: Option<GameResult>,
    moves: Vec<String>,
    /// PlayOK's `{zero}`: the game ended with a player who could not move.
    zero: bool,
}

/// The games of a PGN-like file: headers in brackets, then numbered moves,
/// comments in braces and the result.
fn read(name: &str) -> Vec<Record> {
    let path = format!("{}/tests/data/togyz/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut games: Vec<Record> = Vec::new();
    let mut moves: Option<Vec<String>> = None;
    let mut zero = false;
    let result_of = |t: &str| match t {
        "1-0" => Some(Some(GameResult::P1Win)),
        "0-1" => Some(Some(GameResult::P2Win)),
        "1/2-1/2" => Some(Some(GameResult::Draw)),
        "*" => Some(None),
        _ => None,
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            continue;
        }
        let line = line.replace("{zero}", " {zero} ");
        for token in line.split_whitespace() {
            if token == "{zero}" {
                // PlayOK writes it after the result.
                match (moves.is_none(), games.last_mut()) {
                    (true, Some(g)) => g.zero = true,
                    _ => zero = true,
                }
                continue;
            }
            if let Some(result) = result_of(token) {
                games.push(Record {
                    result,
                    moves: moves.take().unwrap_or_default(),
                    zero: std::mem::take(&mut zero),
                });
                continue;
            }
            // "12." and "12.76": the move number goes, the move stays.
            let token = token.rsplit_once('.').map_or(token, |(_, m)| m);
            if !token.is_empty() {
                moves.get_or_insert_with(Vec::new).push(token.to_string());
            }
        }
    }
    assert!(moves.is_none(), "{name}: moves after the last result");
    games
}

/// Replays every game; returns (games, moves, games played to their end).
fn replay(name: &str) -> (usize, usize, usize) {
    let games = read(name);
    let (mut plies, mut ended, mut zeros) = (0, 0, 0);
    for (i, g) in games.iter().enumerate() {
        let mut pos = Togyz::start(&TogyzRules::default());
        for (k, text) in g.moves.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{name}, game {}: move {} '{text}': {e}", i + 1, k + 1));
            pos = pos.play(mv);
        }
        plies += g.moves.len();
        match pos.outcome() {
            Some(o) => {
                ended += 1;
                assert_eq!(Some(o.result), g.result, "{name}, game {}", i + 1);
                // {zero}: the player to move has no kumalak (the last move
                // may also have brought the mover to 82: kete then names
                // the majority as the reason).
                if g.zero {
                    assert_eq!(
                        pos.row_seeds(pos.side_to_move()),
                        0,
                        "{name}, game {}: {{zero}} but {:?}",
                        i + 1,
                        pos.end_reason()
                    );
                    zeros += 1;
                }
            }
            None => assert!(!g.zero, "{name}, game {}: {{zero}} but not over", i + 1),
        }
    }
    eprintln!("{name}: {zeros} games ended with a player who could not move");
    (games.len(), plies, ended)
}

#[test]
fn kazakhstan_federation_games_of_2018_replay() {
    let (games, plies, ended) = replay("kazakhstan-2018.pgn");
    eprintln!("{games} games, {plies} moves, {ended} played to the end");
    assert_eq!((games, plies, ended), (742, 50980, 9));
}

#[test]
fn playok_games_replay_with_their_kazan_counts_and_atsyz_endings() {
    let (games, plies, ended) = replay("playok-2024-2025.pgn");
    eprintln!("{games} games, {plies} moves, {ended} played to the end");
    // 74 of the 126 ended with a player who could not move ({zero}).
    assert_eq!((games, plies, ended), (200, 21352, 126));
}

#[test]
fn strong_playok_games_replay_to_their_results() {
    let (games, plies, ended) = replay("playok-strong-2025.pgn");
    eprintln!("{games} games, {plies} moves, {ended} played to the end");
    assert_eq!((games, plies, ended), (316, 25677, 18));
}
