//! Plays seeded random games of Ayoayo in emeryc/mancala's `Ayoayo`
//! (mancala/src/ayoayo.rs, Rust) and writes them as kete's reference
//! traces, one game a JSON line (see tests/reference.rs).
//!
//!     driver CHECKOUT SEED GAMES OUT.jsonl [--append]
//!
//! The driver is a program of its own, built against the checkout's
//! `mancala` library (the crate in CHECKOUT/mancala) as a dependency,
//! outside this repository; CHECKOUT is read for its commit. Nothing of
//! it is copied here. Game g of the run uses the seed SEED + g.
//!
//! Legal moves: `Ayoayo` has no list of moves; `play(cup)` refuses an
//! empty cup and a move that does not feed a starving opponent when
//! another would. A cup is a legal move when `play` on a copy of the game
//! accepts it. A move whose relay never ends would never return: each is
//! tried on a thread given `TIMEOUT`; a cup that has not returned by then
//! is written down under "hangs" and left out of the legal moves. The
//! thread cannot be stopped: after that game the driver replaces itself
//! (exec) with a new run of the games left, appending to OUT.
//!
//! How its board maps onto kete's position token: the cups are Player1's
//! `pos` 0..5 then Player2's 0..5, sown in that order round and round, so
//! each player's cups run from his own left: the token is Player1's cups,
//! Player2's, Player1's bank, Player2's bank, and S or N for the player to
//! move. Player1 moves first and is kete's South. When the game is over
//! `state` names the winner, not a player to move: the letter is then the
//! player after the one who moved last.
//!
//! The opposite cup: after a relay ends in an empty cup of the mover's,
//! `Ayoayo` takes the opponent's cup with the same `pos`, which is the cup
//! 6 places on round the board, not the cup across (`pos` 5 - i of the
//! opponent). The driver does not remap it: it plays the game as the
//! library plays it, and the comparison classifies what follows.

use mancala::ayoayo::Ayoayo;
use mancala::{GameState, Player};
use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;

const FILE: &str = "mancala/src/ayoayo.rs";
const TIMEOUT: Duration = Duration::from_secs(3);

/// A small seeded generator (splitmix64): the same seed, the same game.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn seeds(game: &Ayoayo, p: Player) -> Vec<usize> {
    let mut cups = game.get_cups_for_player(p);
    cups.sort_by_key(|c| c.pos);
    cups.iter().map(|c| c.seeds).collect()
}

fn token(game: &Ayoayo, to_move: Player) -> String {
    let mut cells = seeds(game, Player::Player1);
    cells.extend(seeds(game, Player::Player2));
    cells.push(game.get_bank(Player::Player1));
    cells.push(game.get_bank(Player::Player2));
    let mut t: Vec<String> = cells.iter().map(|v| v.to_string()).collect();
    t.push(if to_move == Player::Player1 { "S" } else { "N" }.to_string());
    t.join("-")
}

fn letter(p: Player, cup: usize) -> String {
    let base = if p == Player::Player1 { b'A' } else { b'a' };
    ((base + cup as u8) as char).to_string()
}

fn other(p: Player) -> Player {
    if p == Player::Player1 {
        Player::Player2
    } else {
        Player::Player1
    }
}

/// `play(cup)` on a copy, on a thread: the game after it, `None` if it
/// is refused, `Err` if it has not returned in time.
fn try_play(game: &Ayoayo, cup: usize) -> Result<Option<Ayoayo>, ()> {
    let (tx, rx) = mpsc::channel();
    let mut copy = game.clone();
    std::thread::spawn(move || {
        let ok = copy.play(cup).is_ok();
        let _ = tx.send(ok.then_some(copy));
    });
    rx.recv_timeout(TIMEOUT).map_err(|_| ())
}

fn quote(items: &[String]) -> String {
    let q: Vec<String> = items.iter().map(|s| format!("\"{s}\"")).collect();
    format!("[{}]", q.join(","))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let append = args.len() == 6 && args[5] == "--append";
    if args.len() != 5 && !append {
        eprintln!("usage: driver CHECKOUT SEED GAMES OUT.jsonl [--append]");
        std::process::exit(2);
    }
    let out = std::process::Command::new("git")
        .args(["-C", &args[1], "rev-parse", "HEAD"])
        .output()
        .expect("git runs");
    assert!(out.status.success(), "{} is not a git checkout", args[1]);
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let first: u64 = args[2].parse().expect("SEED is a number");
    let games: u64 = args[3].parse().expect("GAMES is a number");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(&args[4])
        .expect("OUT can be written");
    for g in 0..games {
        let seed = first + g;
        let mut rng = Rng(seed);
        let mut game = Ayoayo::new();
        let mut to_move = Player::Player1;
        let start = token(&game, to_move);
        let mut plies = Vec::new();
        let mut hung = false;
        for _ in 0..2000 {
            let GameState::InProgress(p) = game.state.clone() else {
                break;
            };
            let mut legal = Vec::new();
            let mut hangs = Vec::new();
            for cup in 0..6 {
                match try_play(&game, cup) {
                    Ok(Some(next)) => legal.push((cup, next)),
                    Ok(None) => {}
                    Err(()) => hangs.push(letter(p, cup)),
                }
            }
            hung |= !hangs.is_empty();
            if legal.is_empty() {
                break;
            }
            let names: Vec<String> = legal.iter().map(|(c, _)| letter(p, *c)).collect();
            let pick = rng.below(legal.len());
            let (cup, next) = legal.swap_remove(pick);
            game = next;
            to_move = match game.state {
                GameState::InProgress(q) => q,
                _ => other(p),
            };
            let mut ply = format!(
                "{{\"legal\":{},\"move\":\"{}\",\"after\":\"{}\"",
                quote(&names),
                letter(p, cup),
                token(&game, to_move)
            );
            if !hangs.is_empty() {
                ply.push_str(&format!(",\"hangs\":{}", quote(&hangs)));
            }
            ply.push('}');
            plies.push(ply);
        }
        let end = match game.state {
            GameState::InProgress(_) => {
                "{\"over\":false,\"result\":null,\"seeds\":null}".to_string()
            }
            ref s => format!(
                "{{\"over\":true,\"result\":\"{}\",\"seeds\":[{},{}]}}",
                match s {
                    GameState::Won(Player::Player1) => "p1win",
                    GameState::Won(Player::Player2) => "p2win",
                    _ => "draw",
                },
                game.get_bank(Player::Player1),
                game.get_bank(Player::Player2)
            ),
        };
        writeln!(
            file,
            "{{\"implementation\":\"emeryc/mancala@{commit} {FILE}\",\"game\":\"ayoayo\",\"seed\":{seed},\"start\":\"{start}\",\"plies\":[{}],\"end\":{end}}}",
            plies.join(",")
        )
        .expect("OUT can be written");
        if hung && g + 1 < games {
            use std::os::unix::process::CommandExt;
            eprintln!("seed {seed}: a move never returned; going on in a new process");
            drop(file);
            let err =
                std::process::Command::new(std::env::current_exe().expect("the driver's path"))
                    .args([
                        &args[1],
                        &(seed + 1).to_string(),
                        &(games - g - 1).to_string(),
                        &args[4],
                    ])
                    .arg("--append")
                    .exec();
            panic!("exec: {err}");
        }
    }
}
