//! kete as Aualé's engine: `tests/auale/driver.py` starts kete through the
//! UCI client of Aualé (the Oware GUI, GPL; a checkout named by `$KETE_AUALE`,
//! never copied here) from the command line a user puts in Aualé's engine
//! preference, plays whole games as Aualé's window does (kete against kete
//! with pondering, and against a random mover), and has Aualé's own rules
//! referee every move and the result. The Python is `$KETE_AUALE_PYTHON`,
//! else Debian's `/usr/bin/python3` (it needs `python3-gi`). Skipped, saying
//! so, unless `$KETE_AUALE` is set.

use std::path::Path;
use std::process::Command;

#[test]
fn auale_client_plays_whole_games_with_kete_by_auales_rules() {
    let Ok(checkout) = std::env::var("KETE_AUALE") else {
        eprintln!(
            "SKIPPED: set KETE_AUALE to an Aualé checkout (and KETE_AUALE_PYTHON to a \
             python3 with gi, default /usr/bin/python3) to run kete through Aualé's client"
        );
        return;
    };
    assert!(
        Path::new(&checkout)
            .join("src/auale/uci/client.py")
            .is_file(),
        "KETE_AUALE={checkout} has no src/auale/uci/client.py"
    );
    let python = std::env::var("KETE_AUALE_PYTHON").unwrap_or_else(|_| "/usr/bin/python3".into());
    let driver = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/auale/driver.py");
    let egtb = std::env::temp_dir().join(format!("kete-test-auale-egtb-{}", std::process::id()));
    let kete = env!("CARGO_BIN_EXE_kete");
    // The engine preference a user writes, then the one the guide gives:
    // Ponder on, so that Aualé's ponder cache fills and `go ponder` gets a
    // predicted move, and lines written together as Aualé reads them.
    let runs = [
        ("", "both:easy,north:medium,both:hard:8"),
        (
            " -o Ponder=true -o JoinMoves=true",
            "both:hard:8,south:hard:8",
        ),
    ];
    let mut failures = Vec::new();
    for (extra, games) in runs {
        let command = format!("{kete} --variant oware --rules abapa{extra}");
        let out = Command::new(&python)
            .arg(driver)
            .args(["--games", games])
            .args(command.split(' '))
            .env("KETE_EGTB_DIR", &egtb)
            .output()
            .unwrap_or_else(|e| panic!("{python} runs: {e}"));
        let text = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        eprintln!("{text}{err}");
        let played = text.lines().filter(|l| l.contains(" moves in ")).count();
        // With JoinMoves Aualé reads every line of moves whole.
        let whole = !extra.contains("JoinMoves")
            || text.lines().any(|l| {
                l.split_once("read the whole pv of ")
                    .and_then(|(_, r)| r.split_once(" info lines"))
                    .and_then(|(counts, _)| counts.split_once(" of "))
                    .is_some_and(|(a, b)| a == b && a != "0")
            });
        if !out.status.success() || played != games.split(',').count() || !whole {
            failures.push(format!("'{command}' with {games}:\n{text}{err}"));
        }
    }
    let _ = std::fs::remove_dir_all(&egtb);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
