//! A tournament's output folder: the files it holds, and the settings it
//! keeps so that a resumed run, or a merge of shards, can check that the
//! games belong to one tournament.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::ArenaError;
use super::report::ReportHeader;

/// Name of the record file in the output folder.
pub const RECORDS: &str = "games.jsonl";
/// Name of the report in the output folder.
pub const REPORT: &str = "report.md";
/// Name of the report as a page (with charts) in the output folder.
pub const REPORT_HTML: &str = "report.html";
/// Name of the settings file in the output folder.
pub const SETTINGS: &str = "tournament.json";

/// What an output folder says about its tournament: enough to write the
/// report without the command line, and to tell shards of another
/// tournament apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    pub header: ReportHeader,
    pub names: Vec<String>,
    pub gauntlet: bool,
    pub rounds: usize,
    pub games: usize,
    /// Each engine's settings, as `EngineConfig::settings` lists them.
    pub settings: Vec<BTreeMap<String, String>>,
}

/// The settings kept in `dir`, if it has them.
pub fn read_stored(dir: &Path) -> Result<Option<Stored>, ArenaError> {
    let path = dir.join(SETTINGS);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ArenaError::io(format!("cannot read {}", path.display()), e)),
    };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        ArenaError::Config(format!(
            "{} is not a kete-arena settings file: {e}",
            path.display()
        ))
    })
}

/// Writes the settings whole (to a temporary file first, so that a kill
/// never leaves half a file).
pub fn write_stored(dir: &Path, stored: &Stored) -> Result<(), ArenaError> {
    let path = dir.join(SETTINGS);
    let tmp = dir.join(format!("{SETTINGS}.tmp"));
    let text = serde_json::to_string_pretty(stored)
        .map_err(|e| ArenaError::io("cannot encode the settings", std::io::Error::other(e)))?;
    std::fs::write(&tmp, text + "\n")
        .and_then(|_| std::fs::rename(&tmp, &path))
        .map_err(|e| ArenaError::io(format!("cannot write {}", path.display()), e))
}

/// What differs between two tournaments' settings, shard aside.
pub(super) fn differences(a: &Stored, b: &Stored) -> Vec<String> {
    let mut out = Vec::new();
    let (ha, hb) = (&a.header, &b.header);
    if (&ha.variant, &ha.options) != (&hb.variant, &hb.options) {
        out.push(format!(
            "variant {} {:?}, not {} {:?}",
            ha.variant, ha.options, hb.variant, hb.options
        ));
    }
    if ha.openings != hb.openings {
        out.push(format!("openings {}, not {}", ha.openings, hb.openings));
    }
    if (a.rounds, a.games, a.gauntlet) != (b.rounds, b.games, b.gauntlet) {
        out.push(format!(
            "{} rounds of {} games{}, not {} rounds of {} games{}",
            a.rounds,
            a.games,
            if a.gauntlet { " (gauntlet)" } else { "" },
            b.rounds,
            b.games,
            if b.gauntlet { " (gauntlet)" } else { "" },
        ));
    }
    if ha.max_plies != hb.max_plies {
        out.push(format!("maxplies {}, not {}", ha.max_plies, hb.max_plies));
    }
    if a.names != b.names {
        out.push(format!(
            "engines {}, not {}",
            a.names.join(", "),
            b.names.join(", ")
        ));
    } else {
        for (i, name) in a.names.iter().enumerate() {
            if a.settings[i] != b.settings[i] {
                out.push(format!(
                    "engine {name}: {}",
                    settings_change(&a.settings[i], &b.settings[i])
                ));
            }
        }
    }
    if ha.sprt != hb.sprt {
        out.push("SPRT settings".into());
    }
    out
}

/// What differs between two engine settings: `depth=3, now depth=4`.
pub(super) fn settings_change(
    was: &BTreeMap<String, String>,
    now: &BTreeMap<String, String>,
) -> String {
    let keys: std::collections::BTreeSet<&String> = was.keys().chain(now.keys()).collect();
    keys.into_iter()
        .filter(|k| was.get(*k) != now.get(*k))
        .map(|k| match (was.get(k), now.get(k)) {
            (Some(a), Some(b)) => format!("{k}={a}, now {k}={b}"),
            (Some(a), None) => format!("{k}={a}, now not set"),
            (None, Some(b)) => format!("{k} not set, now {k}={b}"),
            (None, None) => unreachable!("the key is in one of them"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}
