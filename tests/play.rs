//! `kete play` driven as a person would: through a pipe, whole games of
//! Kalah and Bao la Kiswahili to their end, and once under a real terminal
//! (tmux) when tmux is installed.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const KETE: &str = env!("CARGO_BIN_EXE_kete");
const WAIT: Duration = Duration::from_secs(60);

/// The program's output in pieces: whole lines, and the prompt (a line
/// begun with `you (` and ended by `> ` without a newline).
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    pieces: Receiver<String>,
    log: String,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(KETE)
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut cur = Vec::new();
            let mut byte = [0u8];
            while let Ok(1) = stdout.read(&mut byte) {
                cur.push(byte[0]);
                let prompt = cur.starts_with(b"you (") && cur.ends_with(b"> ");
                if byte[0] == b'\n' || prompt {
                    let piece = String::from_utf8_lossy(&cur).into_owned();
                    cur.clear();
                    if tx.send(piece).is_err() {
                        return;
                    }
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            pieces: rx,
            log: String::new(),
        }
    }

    /// Everything up to the next prompt; `None` if the program ended.
    fn until_prompt(&mut self) -> Option<String> {
        let mut text = String::new();
        loop {
            let piece = self.pieces.recv_timeout(WAIT).ok()?;
            self.log.push_str(&piece);
            if piece.ends_with('\n') {
                text.push_str(&piece);
            } else {
                return Some(text);
            }
        }
    }

    fn send(&mut self, line: &str) {
        let s = self.stdin.as_mut().unwrap();
        writeln!(s, "{line}").unwrap();
        s.flush().unwrap();
    }

    fn finish(mut self) -> String {
        drop(self.stdin.take());
        while let Ok(p) = self.pieces.recv_timeout(WAIT) {
            self.log.push_str(&p);
        }
        let status = self.child.wait().unwrap();
        assert!(status.success(), "kete play failed:\n{}", self.log);
        self.log
    }
}

/// The legal moves the last board of `text` lists.
fn legal_moves(text: &str) -> Vec<String> {
    text.lines()
        .rev()
        .find_map(|l| l.split_once("legal moves: ").map(|(_, m)| m))
        .map(|m| m.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Plays a whole game: the person takes the first legal move except every
/// third turn, where he asks for a hint and plays it. Returns the output.
fn whole_game(args: &[&str]) -> String {
    let mut s = Session::start(args);
    let mut turn = 0;
    let mut undone = false;
    let mut text = s.until_prompt().expect("the first prompt");
    loop {
        if text.contains("Game over: ") {
            break;
        }
        let moves = legal_moves(&text);
        assert!(!moves.is_empty(), "no legal moves listed:\n{text}");
        turn += 1;
        let mv = if turn == 3 && !undone {
            // Take a move back once: the board must come back as it was.
            s.send(&moves[0]);
            let after = s.until_prompt().unwrap();
            s.send("undo");
            let back = s.until_prompt().unwrap();
            assert!(back.contains("Taken back."), "{back}");
            assert_eq!(legal_moves(&back), moves, "{after}\n{back}");
            undone = true;
            moves[0].clone()
        } else if turn % 3 == 0 {
            s.send("hint");
            let hint = s.until_prompt().unwrap();
            let mv = hint
                .lines()
                .find_map(|l| l.strip_prefix("hint: "))
                .expect("a hint line")
                .split_whitespace()
                .next()
                .unwrap()
                .to_string();
            assert!(hint.contains("for you, depth "), "{hint}");
            assert!(moves.contains(&mv), "hint {mv} is not among {moves:?}");
            mv
        } else {
            moves[0].clone()
        };
        s.send(&mv);
        let Some(next) = s.until_prompt() else {
            panic!("no prompt; the session so far:\n{}", s.log);
        };
        text = next;
        assert!(turn < 500, "the game does not end:\n{}", s.log);
    }
    s.send("fen");
    s.until_prompt().unwrap();
    s.send("hint");
    let over = s.until_prompt().unwrap();
    assert!(over.contains("The game is over."), "{over}");
    s.send("moves");
    let none = s.until_prompt().unwrap();
    assert!(
        none.contains("Legal moves: none (the game is over)"),
        "{none}"
    );
    s.send("new");
    let fresh = s.until_prompt().unwrap();
    assert!(fresh.contains("New game."), "{fresh}");
    s.send("quit");
    s.finish()
}

#[test]
fn a_whole_game_of_kalah_through_a_pipe() {
    let log = whole_game(&["--variant", "kalah", "--depth", "3"]);
    assert!(log.contains("kete plays "), "{log}");
    assert!(log.contains("you (South)> undo"), "{log}");
    let end = log
        .lines()
        .find(|l| l.starts_with("Game over: "))
        .expect("the end announced");
    // Kalah ends when a row is empty; the count decides.
    assert!(end.contains("a row is empty"), "{end}");
    assert!(end.contains(" wins ") || end.contains("a draw"), "{end}");
    eprintln!("{end}");
}

#[test]
fn a_whole_game_of_bao_la_kiswahili_through_a_pipe() {
    let log = whole_game(&["--variant", "bao-kiswahili", "--depth", "2"]);
    assert!(log.contains("kete plays "), "{log}");
    let end = log
        .lines()
        .find(|l| l.starts_with("Game over: "))
        .expect("the end announced");
    assert!(
        end.contains("front row is empty") || end.contains("no legal move"),
        "{end}"
    );
    eprintln!("{end}");
}

#[test]
fn a_whole_game_of_togyz_kumalak_through_a_pipe() {
    let log = whole_game(&["--variant", "togyz-kumalak", "--depth", "3"]);
    assert!(log.contains("kete plays "), "{log}");
    let end = log
        .lines()
        .find(|l| l.starts_with("Game over: "))
        .expect("the end announced");
    // 82 kumalaks, or a player who cannot move.
    assert!(
        end.contains("more than half") || end.contains("row is empty"),
        "{end}"
    );
    eprintln!("{end}");
}

#[test]
fn playing_north_the_engine_moves_first_and_bad_input_is_explained() {
    let mut s = Session::start(&["--variant", "oware", "--side", "north", "--depth", "2"]);
    let first = s.until_prompt().unwrap();
    assert!(first.contains("you are North"), "{first}");
    assert!(first.contains("kete plays "), "{first}");
    s.send("Z");
    let err = s.until_prompt().unwrap();
    assert!(err.contains("(type help for the commands)"), "{err}");
    s.send("help");
    assert!(s.until_prompt().unwrap().contains("undo"));
    s.send("undo");
    assert!(
        s.until_prompt()
            .unwrap()
            .contains("Nothing of yours to take back.")
    );
    s.finish();
    let bad = Command::new(KETE)
        .args(["play", "--side", "east"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--side must be south or north"));
}

/// Under a real terminal: tmux runs `kete play`, keys are typed into it and
/// the screen is read back. Skipped (with a message) where tmux is missing.
#[test]
fn under_a_real_terminal_with_tmux() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux is not installed: the terminal test is skipped");
        return;
    }
    let name = format!("kete-play-{}", std::process::id());
    let tmux = |args: &[&str]| Command::new("tmux").args(args).output().expect("run tmux");
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        &name,
        "-x",
        "100",
        "-y",
        "50",
        &format!("{KETE} play --depth 3; sleep 30"),
    ]);
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    let screen =
        || String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", &name]).stdout).into_owned();
    let wait_until = |what: &str, done: &dyn Fn(&str) -> bool| {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let s = screen();
            if done(&s) {
                return s;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "'{what}' never appeared:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    // (tmux drops the spaces at the ends of the screen's lines.)
    wait_until("you (South)>", &|s| s.contains("you (South)>"));
    tmux(&["send-keys", "-t", &name, "B", "Enter"]);
    // The engine's reply after the move typed (the greeting names "kete
    // plays North" too).
    let s = wait_until("kete's reply after B", &|s| {
        s.find("you (South)> B")
            .is_some_and(|i| s[i..].contains("kete plays "))
    });
    // On a terminal the typed move is the terminal's echo, not the program's.
    assert_eq!(s.matches("you (South)> B").count(), 1, "{s}");
    tmux(&["send-keys", "-t", &name, "quit", "Enter"]);
    let _ = tmux(&["kill-session", "-t", &name]);
    eprintln!("{s}");
}

#[test]
fn a_whole_game_of_every_described_game_through_a_pipe() {
    // The registry's described games: one added is played here with no
    // change to this file.
    for name in kete::variants::described_names() {
        let log = whole_game(&["--variant", name, "--depth", "2"]);
        let end = log
            .lines()
            .find(|l| l.starts_with("Game over: "))
            .unwrap_or_else(|| panic!("{name}: the end is not announced:\n{log}"));
        assert!(
            end.contains(" wins ") || end.contains("a draw"),
            "{name}: {end}"
        );
        eprintln!("{name}: {end}");
    }
}
