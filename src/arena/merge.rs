//! A tournament split over machines, joined again. Every output folder keeps
//! its settings in `tournament.json`; `merge` checks that the folders are
//! shards of one tournament, that together they hold every scheduled game
//! once, and writes the records and the report one machine would have
//! written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::ArenaError;
use super::folder::{RECORDS, REPORT, SETTINGS, Stored, differences, read_stored, write_stored};
use super::record::{self, GameLine};
use super::report::{self, Tally};
use super::schedule::{self, Shard};

/// What a merge wrote.
#[derive(Clone, Debug)]
pub struct Merged {
    pub games: usize,
    pub shards: usize,
    pub records: PathBuf,
    pub report: PathBuf,
}

/// Joins the shards in `dirs` into `out`: `games.jsonl` with every game
/// once, in schedule order, and the report of the whole tournament.
/// Refuses folders of different tournaments, and lists the shards and games
/// that are missing or recorded twice instead of writing a partial result.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, ArenaError> {
    let bad = |m: String| Err(ArenaError::Config(m));
    if dirs.is_empty() {
        return bad("give the shards' folders to merge".into());
    }
    let mut shards: Vec<(PathBuf, Stored, Shard)> = Vec::new();
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
    let (first_dir, first, first_shard) = shards[0].clone();
    let count = first_shard.count;
    let mut by_index: BTreeMap<usize, PathBuf> = BTreeMap::new();
    for (d, stored, shard) in &shards {
        let diff = differences(&first, stored);
        if !diff.is_empty() {
            return bad(format!(
                "{} and {} are not shards of one tournament: {}",
                first_dir.display(),
                d.display(),
                diff.join("; ")
            ));
        }
        if shard.count != count {
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

    let sched = schedule::schedule(first.names.len(), first.gauntlet, first.rounds, first.games);
    let mut problems = Vec::new();
    let mut games: BTreeMap<usize, (GameLine, PathBuf)> = BTreeMap::new();
    for (d, stored, shard) in &shards {
        for g in record::read(&d.join(RECORDS))? {
            let Some(s) = sched.get(g.id) else {
                problems.push(format!(
                    "{}: game {} is not among the {} scheduled",
                    d.display(),
                    g.id,
                    sched.len()
                ));
                continue;
            };
            if !shard.plays(s.pair) || g.pair != s.pair {
                problems.push(format!(
                    "{}: game {} is not one of shard {shard}'s games",
                    d.display(),
                    g.id
                ));
                continue;
            }
            let seats = [&stored.names[s.south], &stored.names[s.north]];
            if [&g.south, &g.north] != seats {
                problems.push(format!(
                    "{}: game {} was {} vs {}, but the schedule has {} vs {}",
                    d.display(),
                    g.id,
                    g.south,
                    g.north,
                    seats[0],
                    seats[1]
                ));
                continue;
            }
            if let Some(recorded) = &g.engines
                && (recorded[0] != stored.settings[s.south]
                    || recorded[1] != stored.settings[s.north])
            {
                problems.push(format!(
                    "{}: game {} was played with other engine settings than {SETTINGS} says",
                    d.display(),
                    g.id
                ));
                continue;
            }
            if let Some((_, other)) = games.get(&g.id) {
                problems.push(format!(
                    "game {} is recorded twice: in {} and in {}",
                    g.id,
                    other.display(),
                    d.display()
                ));
                continue;
            }
            games.insert(g.id, (g, d.clone()));
        }
    }
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
    if !problems.is_empty() {
        return bad(format!("nothing merged:\n  {}", problems.join("\n  ")));
    }

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
    Ok(Merged {
        games: games.len(),
        shards: shards.len(),
        records: records_path,
        report: report_path,
    })
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
