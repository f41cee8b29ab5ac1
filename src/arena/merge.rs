//! A tournament split over machines, joined again. Every output folder keeps
//! its settings in `tournament.json`; `merge` checks that the folders are
//! shards of one tournament, that together they hold every scheduled game
//! once, and writes the records and the report one machine would have
//! written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::ArenaError;
use super::folder::{
    RECORDS, REPORT, REPORT_HTML, SETTINGS, Stored, differences, read_stored, write_stored,
};
use super::html;
use super::record::{self, GameLine};
use super::report::{self, Tally};
use super::schedule::{self, Scheduled, Shard};

/// What a merge wrote.
#[derive(Clone, Debug)]
pub struct Merged {
    pub games: usize,
    pub shards: usize,
    pub records: PathBuf,
    pub report: PathBuf,
}

/// Joins the shards in `dirs` into `out`: `games.jsonl` with every game
/// once, in schedule order, and the report of the whole tournament
/// (`report.md` and `report.html`).
/// Refuses folders of different tournaments, and lists the shards and games
/// that are missing or recorded twice instead of writing a partial result.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, ArenaError> {
    if dirs.is_empty() {
        return bad("give the shards' folders to merge".into());
    }
    let shards = read_shards(dirs)?;
    let by_index = check_one_tournament(&shards)?;
    let (_, first, first_shard) = &shards[0];
    let sched = schedule::schedule(first.names.len(), first.gauntlet, first.rounds, first.games);
    let mut problems = Vec::new();
    let games = collect_games(&shards, &sched, &mut problems)?;
    missing_games(first_shard.count, &by_index, &sched, &games, &mut problems);
    if !problems.is_empty() {
        return bad(format!("nothing merged:\n  {}", problems.join("\n  ")));
    }
    let (records, report) = write_merged(first, &games, out)?;
    Ok(Merged {
        games: games.len(),
        shards: shards.len(),
        records,
        report,
    })
}

/// A merge refused for the reason `m`.
fn bad<T>(m: String) -> Result<T, ArenaError> {
    Err(ArenaError::Config(m))
}

/// The games of the merge: number, record and the folder it came from.
type Games = BTreeMap<usize, (GameLine, PathBuf)>;

/// Each folder's stored settings and shard (a folder of an unsplit
/// tournament is shard 1 of 1).
fn read_shards(dirs: &[PathBuf]) -> Result<Vec<(PathBuf, Stored, Shard)>, ArenaError> {
    let mut shards = Vec::new();
    for d in dirs {
        let Some(stored) = read_stored(d)? else {
            return bad(format!(
                "{} has no {SETTINGS}: not a kete-arena output folder",
                d.display()
            ));
        };
        let shard = stored.header.shard.unwrap_or(Shard { index: 1, count: 1 });
        shards.push((d.clone(), stored, shard));
    }
    Ok(shards)
}

/// Checks that the folders are distinct shards of one tournament, split
/// the same way; gives the folder of each shard number.
fn check_one_tournament(
    shards: &[(PathBuf, Stored, Shard)],
) -> Result<BTreeMap<usize, PathBuf>, ArenaError> {
    let (first_dir, first, first_shard) = &shards[0];
    let mut by_index: BTreeMap<usize, PathBuf> = BTreeMap::new();
    for (d, stored, shard) in shards {
        let diff = differences(first, stored);
        if !diff.is_empty() {
            return bad(format!(
                "{} and {} are not shards of one tournament: {}",
                first_dir.display(),
                d.display(),
                diff.join("; ")
            ));
        }
        if shard.count != first_shard.count {
            return bad(format!(
                "{} is shard {shard} but {} is shard {first_shard}: the shards were split differently",
                d.display(),
                first_dir.display()
            ));
        }
        if let Some(other) = by_index.insert(shard.index, d.clone()) {
            return bad(format!(
                "shard {shard} is given twice: {} and {}",
                other.display(),
                d.display()
            ));
        }
    }
    Ok(by_index)
}

/// Every game the folders recorded that belongs where it was found and is
/// recorded once; each one that does not is a problem.
fn collect_games(
    shards: &[(PathBuf, Stored, Shard)],
    sched: &[Scheduled],
    problems: &mut Vec<String>,
) -> Result<Games, ArenaError> {
    let mut games = Games::new();
    for (d, stored, shard) in shards {
        for g in record::read(&d.join(RECORDS))? {
            match misplaced(&g, d, stored, *shard, sched, &games) {
                Some(problem) => problems.push(problem),
                None => {
                    games.insert(g.id, (g, d.clone()));
                }
            }
        }
    }
    Ok(games)
}

/// Why the game `g`, found in the folder `d` of `shard`, cannot be merged:
/// not scheduled, not the shard's, other engines or settings than the
/// schedule says, or already recorded elsewhere.
fn misplaced(
    g: &GameLine,
    d: &Path,
    stored: &Stored,
    shard: Shard,
    sched: &[Scheduled],
    games: &Games,
) -> Option<String> {
    let Some(s) = sched.get(g.id) else {
        return Some(format!(
            "{}: game {} is not among the {} scheduled",
            d.display(),
            g.id,
            sched.len()
        ));
    };
    if !shard.plays(s.pair) || g.pair != s.pair {
        return Some(format!(
            "{}: game {} is not one of shard {shard}'s games",
            d.display(),
            g.id
        ));
    }
    let seats = [&stored.names[s.south], &stored.names[s.north]];
    if [&g.south, &g.north] != seats {
        return Some(format!(
            "{}: game {} was {} vs {}, but the schedule has {} vs {}",
            d.display(),
            g.id,
            g.south,
            g.north,
            seats[0],
            seats[1]
        ));
    }
    if let Some(recorded) = &g.engines
        && (recorded[0] != stored.settings[s.south] || recorded[1] != stored.settings[s.north])
    {
        return Some(format!(
            "{}: game {} was played with other engine settings than {SETTINGS} says",
            d.display(),
            g.id
        ));
    }
    if let Some((_, other)) = games.get(&g.id) {
        return Some(format!(
            "game {} is recorded twice: in {} and in {}",
            g.id,
            other.display(),
            d.display()
        ));
    }
    None
}

/// A problem for each of the `count` shards whose scheduled games are not
/// all recorded: a shard none of the folders is, or one left unfinished.
fn missing_games(
    count: usize,
    by_index: &BTreeMap<usize, PathBuf>,
    sched: &[Scheduled],
    games: &Games,
    problems: &mut Vec<String>,
) {
    for k in 1..=count {
        let shard = Shard { index: k, count };
        let missing: Vec<usize> = sched
            .iter()
            .filter(|s| shard.plays(s.pair) && !games.contains_key(&s.id))
            .map(|s| s.id)
            .collect();
        if missing.is_empty() {
            continue;
        }
        match by_index.get(&k) {
            None => problems.push(format!(
                "shard {shard} is missing: its {} games ({}) are in none of the folders",
                missing.len(),
                list(&missing)
            )),
            Some(d) => problems.push(format!(
                "shard {shard} in {} is unfinished: games {} are not recorded (run the shard again with the same --out to resume it)",
                d.display(),
                list(&missing)
            )),
        }
    }
}

/// Writes the whole tournament into `out` (an empty folder): the records in
/// schedule order, the settings without a shard, and the report (as
/// Markdown and as a page); gives the paths of the records and the report.
fn write_merged(
    first: &Stored,
    games: &Games,
    out: &Path,
) -> Result<(PathBuf, PathBuf), ArenaError> {
    std::fs::create_dir_all(out)
        .map_err(|e| ArenaError::io(format!("cannot create {}", out.display()), e))?;
    let records_path = out.join(RECORDS);
    if records_path.exists() {
        return bad(format!(
            "{} already exists: merge into an empty folder",
            records_path.display()
        ));
    }
    let mut text = String::new();
    let mut tally = Tally::new(
        first.names.clone(),
        &schedule::pairings(first.names.len(), first.gauntlet),
    );
    for (g, _) in games.values() {
        tally.add(g);
        let line = serde_json::to_string(g)
            .map_err(|e| ArenaError::io("cannot encode a game record", std::io::Error::other(e)))?;
        text.push_str(&line);
        text.push('\n');
    }
    std::fs::write(&records_path, text)
        .map_err(|e| ArenaError::io(format!("cannot write {}", records_path.display()), e))?;
    let mut whole = first.clone();
    whole.header.shard = None;
    write_stored(out, &whole)?;
    let report_path = out.join(REPORT);
    std::fs::write(&report_path, report::render(&whole.header, &tally))
        .map_err(|e| ArenaError::io(format!("cannot write {}", report_path.display()), e))?;
    let lines: Vec<GameLine> = games.values().map(|(g, _)| g.clone()).collect();
    let page = out.join(REPORT_HTML);
    std::fs::write(&page, html::render_html(&whole.header, &tally, &lines))
        .map_err(|e| ArenaError::io(format!("cannot write {}", page.display()), e))?;
    Ok((records_path, report_path))
}

/// Game numbers for a message: all of a few, the first ones of many.
fn list(ids: &[usize]) -> String {
    const SHOWN: usize = 12;
    let mut s: Vec<String> = ids.iter().take(SHOWN).map(|i| i.to_string()).collect();
    if ids.len() > SHOWN {
        s.push(format!("… {} in all", ids.len()));
    }
    s.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lists_of_games_are_cut_with_their_count() {
        assert_eq!(list(&[3, 4]), "3, 4");
        let many: Vec<usize> = (0..20).collect();
        assert!(list(&many).ends_with("11, … 20 in all"), "{}", list(&many));
    }
}
