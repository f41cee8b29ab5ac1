//! The tournament: the schedule played by worker threads, each with its
//! own engine processes; the main thread records every game the moment it
//! ends, keeps the tally, prints progress and stops an SPRT when it has
//! decided.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use parking_lot::Mutex;

use super::ArenaError;
use super::engine::{EngineConfig, EngineProcess};
use super::folder::{self, RECORDS, REPORT, REPORT_HTML, Stored, settings_change};
use super::html;
use super::openings::{self, Opening, OpeningSource};
use super::play::{self, PlayedGame};
use super::record::{GameLine, OpeningLine, RecordFile};
use super::report::{self, ReportHeader, Tally};
use super::schedule::{self, Scheduled, Shard};
use super::stats::{Sprt, SprtState};
use crate::game::{Game, Side};
use crate::variants::{Variant, VariantVisitor};

/// Everything a tournament is made of.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    pub variant: Variant,
    pub engines: Vec<EngineConfig>,
    pub gauntlet: bool,
    /// Games per pairing per round.
    pub games: usize,
    pub rounds: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    pub openings: OpeningSource,
    pub sprt: Option<Sprt>,
    /// Where `games.jsonl`, `report.md` and `report.html` go.
    pub out_dir: PathBuf,
    /// Games still going after this many plies (opening included) are
    /// adjudicated by the seed count.
    pub max_plies: usize,
    /// Longest wait for `ugiok`/`uciok` and for each `readyok`.
    pub handshake_timeout: Duration,
    /// Print the progress line on standard error.
    pub progress: bool,
    /// Play only this share of the games (`kete-arena merge` joins shards).
    pub shard: Option<Shard>,
}

/// What a finished (or resumed-and-finished) tournament produced.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Every recorded game, by schedule number.
    pub games: Vec<GameLine>,
    pub scheduled: usize,
    pub tally: Tally,
    pub sprt: Option<(f64, SprtState)>,
    pub records: PathBuf,
    pub report: PathBuf,
}

impl TournamentConfig {
    fn check(&self) -> Result<(), ArenaError> {
        let bad = |m: String| Err(ArenaError::Config(m));
        if self.engines.len() < 2 {
            return bad("a tournament needs at least two engines".into());
        }
        let mut names = HashSet::new();
        for e in &self.engines {
            if !names.insert(e.name.as_str()) {
                return bad(format!(
                    "two engines are called '{}': give each a name=",
                    e.name
                ));
            }
        }
        if self.games == 0 || self.rounds == 0 || self.concurrency == 0 || self.max_plies == 0 {
            return bad(
                "games, rounds, concurrency and the maximum length must be at least 1".into(),
            );
        }
        if self.sprt.is_some() && self.shard.is_some() {
            return bad("an SPRT cannot be split into shards: it stops when the games so far decide, and no shard sees the others' games".into());
        }
        if self.sprt.is_some() && self.engines.len() != 2 {
            return bad(format!(
                "the SPRT compares two engines, not {}",
                self.engines.len()
            ));
        }
        Ok(())
    }
}

/// Runs (or resumes) the tournament and writes its report.
pub fn run(config: &TournamentConfig) -> Result<Summary, ArenaError> {
    config.check()?;
    config.variant.visit(Run(config))
}

struct Run<'a>(&'a TournamentConfig);

impl VariantVisitor for Run<'_> {
    type Output = Result<Summary, ArenaError>;
    fn visit<G: Game>(self, rules: G::Rules) -> Self::Output {
        run_game::<G>(self.0, &rules)
    }
}

fn load_openings<G: Game>(
    config: &TournamentConfig,
    rules: &G::Rules,
    needed: usize,
) -> Result<Vec<Opening>, ArenaError> {
    match &config.openings {
        OpeningSource::File(path) => openings::read_file::<G>(rules, path),
        OpeningSource::Random { plies, seed } => Ok((0..needed)
            .map(|i| openings::random_opening::<G>(rules, *plies, *seed, i))
            .collect()),
    }
}

/// Checks that a recorded game belongs to this tournament.
fn check_recorded(
    config: &TournamentConfig,
    sched: &[Scheduled],
    openings: &[Opening],
    g: &GameLine,
) -> Result<(), String> {
    let Some(s) = sched.get(g.id) else {
        return Err(format!(
            "game {} is not in this tournament's {} games",
            g.id,
            sched.len()
        ));
    };
    if let Some(shard) = config.shard
        && !shard.plays(s.pair)
    {
        return Err(format!(
            "game {} (pair {}) is not one of shard {shard}'s games",
            g.id, s.pair
        ));
    }
    let (south, north) = (&config.engines[s.south].name, &config.engines[s.north].name);
    if (&g.south, &g.north) != (south, north) {
        return Err(format!(
            "game {} was {} vs {}, but this tournament has {} vs {} there",
            g.id, g.south, g.north, south, north
        ));
    }
    // The rules first: other rules also make other openings, and the
    // opening's moves would hide what really changed.
    let options = option_values(&config.variant);
    if g.variant != config.variant.name() {
        return Err(format!(
            "game {} was played as {}, not {}",
            g.id,
            g.variant,
            config.variant.name()
        ));
    }
    if g.options != options {
        return Err(format!(
            "game {} was played under other rules ({})",
            g.id,
            settings_change(&g.options, &options)
        ));
    }
    let index = s.opening % openings.len();
    let opening = &openings[index];
    if g.opening.index != index || g.opening.moves != opening.moves || g.opening.fen != opening.fen
    {
        return Err(format!(
            "game {} was played from opening {} ({}), but this tournament has opening {index} ({}) there",
            g.id,
            g.opening.index,
            g.opening.moves.join(" "),
            opening.moves.join(" ")
        ));
    }
    if let Some(recorded) = &g.engines {
        for (k, e) in [s.south, s.north].into_iter().enumerate() {
            let now = config.engines[e].settings();
            if recorded[k] != now {
                return Err(format!(
                    "game {} was played by engine {} with other settings ({})",
                    g.id,
                    config.engines[e].name,
                    settings_change(&recorded[k], &now)
                ));
            }
        }
    }
    Ok(())
}

fn option_values(v: &Variant) -> BTreeMap<String, String> {
    v.option_values()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

fn run_game<G: Game>(config: &TournamentConfig, rules: &G::Rules) -> Result<Summary, ArenaError> {
    let sched = schedule::schedule(
        config.engines.len(),
        config.gauntlet,
        config.rounds,
        config.games,
    );
    let needed = sched.iter().map(|g| g.opening + 1).max().unwrap_or(0);
    let openings = load_openings::<G>(config, rules, needed)?;

    std::fs::create_dir_all(&config.out_dir)
        .map_err(|e| ArenaError::io(format!("cannot create {}", config.out_dir.display()), e))?;
    let header = report_header(config, openings.len(), sched.len());
    let stored = Stored {
        header: header.clone(),
        names: config.engines.iter().map(|e| e.name.clone()).collect(),
        gauntlet: config.gauntlet,
        rounds: config.rounds,
        games: config.games,
        settings: config.engines.iter().map(|e| e.settings()).collect(),
    };
    if let Some(was) = folder::read_stored(&config.out_dir)?
        && was.header.shard != config.shard
    {
        let name = |s: Option<Shard>| {
            s.map_or("the whole tournament".to_string(), |s| format!("shard {s}"))
        };
        return Err(ArenaError::Config(format!(
            "{} holds {}, not {}: give each shard its own --out",
            config.out_dir.display(),
            name(was.header.shard),
            name(config.shard)
        )));
    }
    folder::write_stored(&config.out_dir, &stored)?;
    let records_path = config.out_dir.join(RECORDS);
    let (mut records, recorded) = RecordFile::open(&records_path)?;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let pairings = schedule::pairings(names.len(), config.gauntlet);
    let mut tally = Tally::new(names.clone(), &pairings);
    let mut done = HashSet::new();
    let mut games: Vec<GameLine> = Vec::new();
    for (n, g) in recorded.into_iter().enumerate() {
        check_recorded(config, &sched, &openings, &g).map_err(|message| ArenaError::Records {
            path: records_path.clone(),
            line: n + 1,
            message: format!("{message}: not a record of this tournament (use another --out)"),
        })?;
        if !done.insert(g.id) {
            return Err(ArenaError::Records {
                path: records_path.clone(),
                line: n + 1,
                message: format!("game {} is recorded twice", g.id),
            });
        }
        tally.add(&g);
        games.push(g);
    }
    let decided = |t: &Tally| {
        config
            .sprt
            .as_ref()
            .and_then(|s| t.sprt(s))
            .is_some_and(|(_, st)| st != SprtState::Continue)
    };
    let pending: VecDeque<Scheduled> = if decided(&tally) {
        VecDeque::new()
    } else {
        sched
            .iter()
            .filter(|g| !done.contains(&g.id) && config.shard.is_none_or(|sh| sh.plays(g.pair)))
            .copied()
            .collect()
    };
    let total = sched
        .iter()
        .filter(|g| config.shard.is_none_or(|sh| sh.plays(g.pair)))
        .count();
    let tty = std::io::stderr().is_terminal();
    if config.progress && !games.is_empty() {
        eprintln!(
            "resuming: {} of {} games already recorded in {}",
            games.len(),
            total,
            records_path.display()
        );
    }

    let mut failure: Option<ArenaError> = None;
    if !pending.is_empty() {
        let workers = config.concurrency.min(pending.len());
        let queue = Mutex::new(pending);
        let stop = AtomicBool::new(false);
        let (tx, rx) = channel::<GameLine>();
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (queue, stop, openings) = (&queue, &stop, &openings);
                scope.spawn(move || worker::<G>(config, rules, openings, queue, stop, tx));
            }
            drop(tx);
            for line in rx {
                if failure.is_some() {
                    continue;
                }
                if let Err(e) = records.append(&line) {
                    failure = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
                tally.add(&line);
                games.push(line);
                if decided(&tally) {
                    stop.store(true, Ordering::Relaxed);
                }
                if config.progress {
                    let p = tally.progress(total, config.sprt.as_ref());
                    if tty {
                        eprint!("\r\x1b[K{p}");
                    } else {
                        eprintln!("{p}");
                    }
                    let _ = std::io::stderr().flush();
                }
            }
        });
        if config.progress && tty {
            eprintln!();
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    games.sort_by_key(|g| g.id);

    let report_path = config.out_dir.join(REPORT);
    std::fs::write(&report_path, report::render(&header, &tally))
        .map_err(|e| ArenaError::io(format!("cannot write {}", report_path.display()), e))?;
    let page = config.out_dir.join(REPORT_HTML);
    std::fs::write(&page, html::render_html(&header, &tally, &games))
        .map_err(|e| ArenaError::io(format!("cannot write {}", page.display()), e))?;
    Ok(Summary {
        sprt: config.sprt.as_ref().and_then(|s| tally.sprt(s)),
        games,
        scheduled: total,
        tally,
        records: records_path,
        report: report_path,
    })
}

/// The report's account of the settings.
fn report_header(config: &TournamentConfig, openings: usize, scheduled: usize) -> ReportHeader {
    ReportHeader {
        variant: config.variant.name().to_string(),
        // The variant's own order, as `setoption` lists them.
        options: config
            .variant
            .option_values()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        openings: format!(
            "{} ({openings} {})",
            config.openings.describe(),
            match config.openings {
                OpeningSource::File(_) => "in the list",
                OpeningSource::Random { .. } => "drawn",
            }
        ),
        scheduled,
        max_plies: config.max_plies,
        engines: config
            .engines
            .iter()
            .map(|e| {
                let mut cmd = vec![e.cmd.clone()];
                cmd.extend(e.args.iter().cloned());
                let options = e.options_text();
                if options.is_empty() {
                    format!("{}: `{}` ({})", e.name, cmd.join(" "), e.limits_text())
                } else {
                    format!(
                        "{}: `{}` ({}; {options})",
                        e.name,
                        cmd.join(" "),
                        e.limits_text()
                    )
                }
            })
            .collect(),
        sprt: config.sprt,
        shard: config.shard,
    }
}

/// Two different elements of a slice, both mutable.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an engine never plays itself");
    if a < b {
        let (lo, hi) = v.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = v.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}

fn worker<G: Game>(
    config: &TournamentConfig,
    rules: &G::Rules,
    openings: &[Opening],
    queue: &Mutex<VecDeque<Scheduled>>,
    stop: &AtomicBool,
    tx: std::sync::mpsc::Sender<GameLine>,
) {
    let mut procs: Vec<Option<EngineProcess>> = config.engines.iter().map(|_| None).collect();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(game) = queue.lock().pop_front() else {
            break;
        };
        let line = play_scheduled::<G>(config, rules, openings, &game, &mut procs);
        if tx.send(line).is_err() {
            break;
        }
    }
    for p in procs.into_iter().flatten() {
        p.quit();
    }
}

/// Makes sure an engine is running and ready for a new game, starting it
/// (again) if needed. On failure the process is dropped, which kills it.
fn ready(
    slot: &mut Option<EngineProcess>,
    cfg: &EngineConfig,
    variant: &Variant,
    timeout: Duration,
) -> Result<(), super::engine::Failure> {
    if slot.is_none() {
        let mut p = EngineProcess::start(cfg)?;
        p.handshake(cfg, variant, timeout)?;
        *slot = Some(p);
    }
    let p = slot.as_mut().expect("started above");
    if let Err(f) = p.new_game(timeout) {
        *slot = None;
        return Err(f);
    }
    Ok(())
}

fn play_scheduled<G: Game>(
    config: &TournamentConfig,
    rules: &G::Rules,
    openings: &[Opening],
    game: &Scheduled,
    procs: &mut [Option<EngineProcess>],
) -> GameLine {
    let opening = &openings[game.opening % openings.len()];
    let seats = [game.south, game.north];
    let names = [
        config.engines[game.south].name.as_str(),
        config.engines[game.north].name.as_str(),
    ];
    let mut played: Option<PlayedGame> = None;
    for (k, side) in [Side::South, Side::North].into_iter().enumerate() {
        let e = seats[k];
        if let Err(f) = ready(
            &mut procs[e],
            &config.engines[e],
            &config.variant,
            config.handshake_timeout,
        ) {
            let record = play::opening_record::<G>(rules, opening);
            played = Some(play::forfeit(&record, Vec::new(), side, names[k], f));
            break;
        }
    }
    let played = match played {
        Some(p) => p,
        None => {
            let (south, north) = two_mut(procs, game.south, game.north);
            let (south, north) = (
                south.as_mut().expect("ready"),
                north.as_mut().expect("ready"),
            );
            let p = play::play::<G>(
                rules,
                opening,
                names,
                [&config.engines[game.south], &config.engines[game.north]],
                [south, north],
                config.max_plies,
            );
            // An engine that failed is not trusted with the next game: it is
            // killed here and started afresh when next needed.
            for side in [p.offender, p.unsettled].into_iter().flatten() {
                procs[seats[side.index()]] = None;
            }
            p
        }
    };
    GameLine {
        id: game.id,
        round: game.round,
        pair: game.pair,
        south: names[0].to_string(),
        north: names[1].to_string(),
        variant: config.variant.name().to_string(),
        options: option_values(&config.variant),
        opening: OpeningLine {
            index: game.opening % openings.len(),
            fen: opening.fen.clone(),
            moves: opening.moves.clone(),
        },
        moves: played.moves,
        result: played.result.as_str().to_string(),
        termination: played.termination,
        end: played.end,
        reason: played.reason,
        offender: played.offender.map(|s| names[s.index()].to_string()),
        seeds: played.seeds,
        final_position: played.final_position,
        engines: Some([
            config.engines[game.south].settings(),
            config.engines[game.north].settings(),
        ]),
    }
}
