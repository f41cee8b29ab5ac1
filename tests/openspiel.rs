//! kete's Kalah and Oware rules refereed by an independent implementation:
//! OpenSpiel's `mancala` (Kalah 6x4) and `oware` (Abapa, own-side
//! repetition), driven by `tests/openspiel/referee.py` through kete's text
//! protocol, position by position over random games. The Python that has
//! OpenSpiel (`pip install open_spiel`) is `$KETE_OPENSPIEL_PYTHON`, else
//! `python3`; `.ci/run` makes one in `target/openspiel-venv`. Skipped,
//! saying so, where that Python cannot import `pyspiel`.

use std::process::Command;

const GAMES: usize = 300;

#[test]
fn openspiel_plays_every_position_as_kete_does() {
    let python = std::env::var("KETE_OPENSPIEL_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_openspiel = Command::new(&python)
        .args(["-c", "import pyspiel"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_openspiel {
        eprintln!(
            "SKIPPED: {python} cannot import pyspiel (pip install open_spiel, then \
             KETE_OPENSPIEL_PYTHON=<that python> cargo test --release --test openspiel)"
        );
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/openspiel/referee.py");
    let out = Command::new(&python)
        .args([script, env!("CARGO_BIN_EXE_kete"), &GAMES.to_string(), "1"])
        .output()
        .expect("the referee runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("{text}");
    assert!(out.status.success(), "{text}\n{err}");
    let lines: Vec<&str> = text.lines().collect();
    for board in ["6x4", "5x3", "4x3", "3x2", "2x2"] {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("oware abapa {board}: {GAMES} games")))
            .unwrap_or_else(|| panic!("no Oware {board} line in:\n{text}"));
        // Every way an Abapa game ends was met, so each rule was compared.
        for end in ["majority=", "repetition=", "cannot-feed="] {
            assert!(line.contains(end), "{line}");
        }
    }
    assert!(
        lines.iter().any(
            |l| l.starts_with(&format!("kalah 6x4: {GAMES} games")) && l.contains("empty-row=")
        ),
        "{text}"
    );
}
