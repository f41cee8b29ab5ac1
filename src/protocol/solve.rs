//! `go solve`: the exact solver behind the protocol. It reports each MTD(f)
//! pass as an `info string`, then the value as an `info` line marked proven,
//! and one `bestmove`, like any `go`. A game won or lost without counting
//! (Bao) is proved instead ([`crate::solve::pns`]): `score mate N` with the
//! winning line, or `info string unproven …` with the numbers reached.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Duration;

use super::output::Output;
use super::text::{line_text, score_text};
use crate::game::Game;
use crate::game::SolveGame;
use crate::game::{DB_BOARD, DbSpec};
use crate::search::Probe;
use crate::search::WIN;
use crate::solve::pns::{Bounds, INF, ProveOptions, Verdict, prove};
use crate::solve::{Deadline, Egtb, SolveOptions, Tablebase, solve_with_tablebase};
use crate::variants::{SolveVisitor, Variant};

/// Whether `go solve` works for this variant (the games decided by
/// counting, solved; those won or lost without counting, proved).
pub fn solvable(variant: &Variant) -> bool {
    struct Solvable;
    impl SolveVisitor for Solvable {
        type Output = bool;
        fn with_databases<G: DbSpec>(self, _: G::Rules) -> bool {
            true
        }
        fn solvable<G: SolveGame>(self, _: G::Rules) -> bool {
            true
        }
        fn unsolvable<G: Game>(self, _: G::Rules, _: &'static str) -> bool {
            false
        }
        fn provable<G: Game>(self, _: G::Rules) -> bool {
            true
        }
    }
    variant.visit_solver(Solvable)
}

/// Whether the database `db` answers for positions of `variant` under its
/// current rules, or why not (the engine then does not use it).
pub fn egtb_fits(variant: &Variant, db: &Egtb) -> Result<(), String> {
    struct Fits<'a>(&'a Egtb, &'static str);
    impl Fits<'_> {
        fn none(&self) -> Result<(), String> {
            Err(format!(
                "the database is for {}, and {} has no endgame databases",
                self.0.game().describe(),
                self.1
            ))
        }
    }
    impl SolveVisitor for Fits<'_> {
        type Output = Result<(), String>;
        fn with_databases<G: DbSpec>(self, rules: G::Rules) -> Result<(), String> {
            self.0.check::<G>(&rules).map_err(|e| e.to_string())
        }
        fn solvable<G: SolveGame>(self, _: G::Rules) -> Result<(), String> {
            self.none()
        }
        fn unsolvable<G: Game>(self, _: G::Rules, _: &'static str) -> Result<(), String> {
            self.none()
        }
    }
    variant.visit_solver(Fits(db, variant.name()))
}

/// One `go solve`, run by [`Variant::visit_solver`] in the solving thread.
struct Run {
    token: String,
    opts: SolveOptions,
    /// The limits of a proof (`go solve nodes N`, `movetime T`).
    nodes: Option<u64>,
    movetime: Option<Duration>,
    res: Resources,
    out: Output,
}

impl SolveVisitor for Run {
    type Output = ();
    fn with_databases<G: DbSpec>(self, rules: G::Rules) {
        // A database built for the solve counts against its movetime.
        let deadline = self.deadline();
        let refused = G::db_refused(&rules);
        if let (Some(why), Some(_)) = (refused, &self.res.egtb) {
            self.out
                .line(&format!("info string go solve: EgtbPath not used: {why}"));
        }
        let named = self
            .res
            .egtb
            .clone()
            .filter(|db| refused.is_none() && db.check::<G>(&rules).is_ok());
        let stop = self.opts.stop.clone().unwrap_or_default();
        let db = match named {
            Some(db) => Some(db),
            // Stopped before the solve began (`Err`): the search gives up
            // at once and answers with the move it has.
            None => chosen_database::<G>(&rules, &self.token, &self.res, &stop, &self.out)
                .unwrap_or_default(),
        };
        let tb = db.as_deref().map(|d| d as &dyn Tablebase<G>);
        self.count::<G>(&rules, tb, deadline)
    }
    fn solvable<G: SolveGame>(self, rules: G::Rules) {
        self.count::<G>(&rules, None, self.deadline())
    }
    fn unsolvable<G: Game>(self, _: G::Rules, why: &'static str) {
        self.out
            .error(&format!("go solve: this variant cannot be solved: {why}"));
        self.out.line("bestmove 0000");
    }
    fn provable<G: Game>(self, rules: G::Rules) {
        let opts = ProveOptions {
            hash_mb: self.opts.hash_mb,
            nodes: self.nodes,
            time: self.movetime,
            stop: self.opts.stop.clone(),
            report_every: self.opts.report_every,
            ..ProveOptions::default()
        };
        prove_run::<G>(&rules, &self.token, &opts, &self.out)
    }
}

impl Run {
    /// `movetime` as a stop of a solve by counting.
    fn deadline(&self) -> Option<Deadline> {
        let stop = self.opts.stop.clone()?;
        self.movetime.map(|t| Deadline::start(t, stop))
    }

    /// The solve by counting, bounded by `deadline` (`nodes` bounds only
    /// the proof search: it is said to be ignored here).
    fn count<G: SolveGame>(
        &self,
        rules: &G::Rules,
        tb: Option<&dyn Tablebase<G>>,
        deadline: Option<Deadline>,
    ) {
        if self.nodes.is_some() {
            self.out.error(
                "go solve: nodes limits only the proof search of a game won or lost without counting (Bao); ignored here (movetime limits a solve by counting)",
            );
        }
        let timed_out = || deadline.as_ref().is_some_and(Deadline::reached);
        run::<G>(rules, &self.token, &self.opts, tb, &self.out, &timed_out)
    }
}

/// The database the variant chooses for the position of `go solve`, from
/// `EgtbDir` or built and kept there (its progress as `info string`
/// lines), when `EgtbPath` gives none that fits; `None` where the variant
/// chooses none or `EgtbDir` is empty, and where it could not be had (said
/// in an error line; the solve goes on without). A build runs in a thread
/// of its own so that `stop` is answered at once (`Err(Stopped)`); the
/// build then finishes in the background and is kept for the next solve.
fn chosen_database<G: DbSpec>(
    rules: &G::Rules,
    token: &str,
    res: &Resources,
    stop: &AtomicBool,
    out: &Output,
) -> Result<Option<Arc<Egtb>>, Stopped> {
    let Some(dir) = res.egtb_dir.clone() else {
        return Ok(None);
    };
    let Some(choice) = G::from_notation(rules, token)
        .ok()
        .and_then(|pos| crate::solve::cache::choose::<G>(rules, pos.seeds_in_play() as usize))
    else {
        return Ok(None);
    };
    if let Some(db) = res.chosen.lock().as_ref().filter(|db| choice.served_by(db)) {
        return Ok(Some(db.clone()));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let (kept, threads, out2) = (res.chosen.clone(), res.threads, out.clone());
    std::thread::spawn(move || {
        let opts = crate::solve::egtb::BuildOptions {
            threads,
            report_every: Duration::from_secs(2),
        };
        let built = crate::solve::cache::open_or_build(
            Some(&dir),
            choice.game,
            choice.seeds,
            choice.max_boards,
            &opts,
            &mut |p| {
                out2.line(&format!(
                    "info string egtb {} seeds{} {} of {} positions time {}",
                    p.seeds,
                    if p.finished { " done:" } else { "" },
                    p.done.min(p.total),
                    p.total,
                    p.elapsed.as_millis()
                ))
            },
            &mut |m| out2.line(&format!("info string {m}")),
        )
        .map(|(db, _)| Arc::new(db));
        if let Ok(db) = &built {
            *kept.lock() = Some(db.clone());
        }
        // The solve may have stopped waiting: nobody to tell then.
        let _ = tx.send(built);
    });
    loop {
        match rx.recv_timeout(Duration::from_millis(10)) {
            Ok(Ok(db)) => return Ok(Some(db)),
            Ok(Err(e)) => {
                out.error(&format!("go solve: no database: {e}"));
                return Ok(None);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                out.error("go solve: no database: its build failed");
                return Ok(None);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    out.line("info string egtb: stopped while the database is built; it is finished in the background and kept");
                    return Err(Stopped);
                }
            }
        }
    }
}

/// `stop` came while `go solve` waited for its database.
#[derive(Debug)]
struct Stopped;

/// A proof-number search behind `go solve` (see the module text).
fn prove_run<G: Game>(rules: &G::Rules, token: &str, opts: &ProveOptions, out: &Output) {
    let Some(pos) = position::<G>(rules, token, out) else {
        return;
    };
    let n = |v: u32| {
        if v == INF {
            "inf".to_string()
        } else {
            v.to_string()
        }
    };
    let numbers = |win: Bounds, loss: Bounds| {
        format!(
            "win pn {} dn {} loss pn {} dn {}",
            n(win.pn),
            n(win.dn),
            n(loss.pn),
            n(loss.dn)
        )
    };
    let r = prove(&pos, opts, &mut |p| {
        out.line(&format!(
            "info string prove {} nodes {} max-ply {} hashfull {} time {}",
            numbers(p.win, p.loss),
            p.nodes,
            p.max_ply,
            p.hashfull,
            p.elapsed.as_millis()
        ));
    });
    let ms = r.elapsed.as_millis();
    match r.verdict {
        Verdict::Win | Verdict::Loss if r.plies == 0 || r.pv.is_empty() => {
            out.line("info string go solve: the game is over");
            out.line("bestmove 0000");
        }
        Verdict::Win | Verdict::Loss => {
            let plies = r.plies as i32;
            let score = if r.verdict == Verdict::Win {
                WIN - plies
            } else {
                -(WIN - plies)
            };
            out.line(&format!(
                "info score {} nodes {} time {} pv {}",
                score_text(score),
                r.nodes,
                ms,
                line_text(&pos, &r.pv)
            ));
            out.line(&format!("info string proven score {}", score_text(score)));
            if !r.shortest {
                out.line(
                    "info string the line is the proof's: a shorter win was not ruled out (stopped, or the table could not keep a shorter proof whole)",
                );
            }
            out.line(&format!("bestmove {}", pos.format_move(r.pv[0])));
        }
        Verdict::Unproven => {
            out.line(&format!(
                "info string unproven ({}): {} max-ply {} nodes {} time {}",
                r.ended,
                numbers(r.win, r.loss),
                r.max_ply,
                r.nodes,
                ms
            ));
            match r.pv.first() {
                Some(&mv) => out.line(&format!("bestmove {}", pos.format_move(mv))),
                None => out.line("bestmove 0000"),
            }
        }
    }
}

/// What a `go solve` may use: the engine's table size, threads and
/// databases.
pub struct Resources {
    pub hash_mib: usize,
    pub threads: usize,
    /// The database of `EgtbPath`.
    pub egtb: Option<Arc<Egtb>>,
    /// `EgtbDir`: where the database chosen for the position is kept;
    /// `None` to choose none.
    pub egtb_dir: Option<std::path::PathBuf>,
    /// The database chosen last, reused while it serves.
    pub chosen: Arc<parking_lot::Mutex<Option<Arc<Egtb>>>>,
}

/// Solves the position `token` of `variant` in a thread; `stop` ends it early
/// (the result is then not proven).
pub fn spawn(
    variant: Variant,
    token: String,
    res: Resources,
    stop: Arc<AtomicBool>,
    nodes: Option<u64>,
    movetime: Option<Duration>,
    out: Output,
) -> JoinHandle<()> {
    // The proof search recurses once per ply of its line (up to
    // `pns::MAX_PLY`): more stack than a thread gets by default.
    let thread = std::thread::Builder::new().stack_size(crate::solve::resources::STACK);
    let spawned = thread.spawn(move || {
        // The graph of a repeating game is sized to the memory as for
        // `kete solve` (Oware 4x3 needs 31.7 M positions); `stop` is read
        // while it is built and between its threshold games.
        let opts = SolveOptions {
            hash_mb: res.hash_mib,
            report_every: Duration::from_secs(1),
            stop: Some(stop),
            threads: res.threads,
            graph_budget: crate::solve::resources::fitted_graph_positions(
                crate::solve::cache::available_memory(),
            ),
            ..SolveOptions::default()
        };
        variant.visit_solver(Run {
            token,
            opts,
            nodes,
            movetime,
            res,
            out,
        })
    });
    spawned.expect("the system gives a thread its stack")
}

fn run<G: SolveGame>(
    rules: &G::Rules,
    token: &str,
    opts: &SolveOptions,
    tb: Option<&dyn Tablebase<G>>,
    out: &Output,
    timed_out: &dyn Fn() -> bool,
) {
    let Some(pos) = position::<G>(rules, token, out) else {
        return;
    };
    let r = solve_with_tablebase(&pos, opts, tb, &mut |p| {
        if let Some(stage) = p.graph {
            out.line(&format!(
                "info string solve {stage} time {}",
                p.elapsed.as_millis()
            ));
            return;
        }
        out.line(&format!(
            "info string solve pass {} window [{},{}] value in [{},{}] nodes {} tbhits {} time {}",
            p.pass,
            p.beta - 1,
            p.beta,
            p.lower,
            p.upper,
            p.nodes,
            p.tbhits,
            p.elapsed.as_millis()
        ));
    });
    let Some(&best) = r.best.first() else {
        out.line("bestmove 0000");
        return;
    };
    out.line(&format!(
        "info score {} nodes {} tbhits {} pv {}",
        score_text(100 * r.value),
        r.nodes,
        r.tbhits,
        line_text(&pos, &r.best[..1])
    ));
    if r.complete {
        out.line(&format!(
            "info string proven score {}",
            score_text(100 * r.value)
        ));
    } else {
        out.line(&format!(
            "info string unproven ({}): value in [{},{}]",
            if timed_out() {
                "the time limit was reached"
            } else {
                "stopped"
            },
            r.lower,
            r.upper
        ));
    }
    out.line(&format!("bestmove {}", pos.format_move(best)));
}

/// The search's view of a loaded database for positions of `G` under
/// `rules`: the exact score of a position it holds (the banked margin plus
/// the database's value of the seeds in play, in centiseeds), and where the
/// database keeps distances, the root moves that play a won value out
/// ([`progress`]); `None` when the database does not fit those rules.
pub fn probe<G: DbSpec>(db: &Arc<Egtb>, rules: &G::Rules) -> Option<Probe<G>> {
    db.check::<G>(rules).ok()?;
    let scores = db.clone();
    let score = Arc::new(move |pos: &G| {
        let v = Tablebase::<G>::probe(&*scores, pos)?;
        Some(100 * (pos.banked() + v))
    });
    let progress = db.has_distances().then(|| {
        let db = db.clone();
        Arc::new(move |root: &G, moves: &mut Vec<G::Move>| progress(&db, root, moves))
            as Arc<crate::search::ProgressFn<G>>
    });
    Some(Probe { score, progress })
}

/// Narrows the moves of a `root` the database holds as won to those that
/// realise the value soonest: a move that ends the game with a win, else
/// one that keeps the value and brings seeds off the board, else one that
/// keeps it and leaves the opponent the fewest plies from the capture.
/// Each such move shortens what is left (fewer seeds, or at most as many
/// and a nearer capture at a value as high), so the game ends. Returns
/// whether it narrowed; a position it does not hold, or one not won, keeps
/// its moves.
pub fn progress<G: DbSpec>(db: &Egtb, root: &G, moves: &mut Vec<G::Move>) -> bool {
    let Some((v, _)) = db.probe_distance(root) else {
        return false;
    };
    if v <= 0 {
        return false;
    }
    let side = root.side_to_move();
    let mut board = [0u8; DB_BOARD];
    let n = root.db_board(&mut board);
    let target = root.banked() + v;
    let mut wins = Vec::new();
    // The moves that keep the value: (move, whether it takes seeds off the
    // board, the child's distance).
    let mut keep = Vec::new();
    for &mv in moves.iter() {
        let child = root.play(mv);
        if child
            .outcome()
            .is_some_and(|o| o.result.winner() == Some(side))
        {
            wins.push(mv);
            continue;
        }
        let Some((cv, cd)) = db.probe_distance(&child) else {
            return false;
        };
        // The databases' games alternate: the child's mover is the opponent.
        let total = -(child.banked() + cv);
        if total >= target {
            keep.push((mv, child.db_board(&mut board) < n, cd));
        }
    }
    let chosen: Vec<G::Move> = if !wins.is_empty() {
        wins
    } else if keep.iter().any(|k| k.1) {
        keep.iter().filter(|k| k.1).map(|k| k.0).collect()
    } else if let Some(nearest) = keep.iter().map(|k| k.2).min() {
        keep.iter()
            .filter(|k| k.2 == nearest)
            .map(|k| k.0)
            .collect()
    } else {
        return false;
    };
    *moves = chosen;
    true
}

/// The position of `go solve`, or the error and an empty `bestmove` (a `go`
/// always gets its one answer).
fn position<G: Game>(rules: &G::Rules, token: &str, out: &Output) -> Option<G> {
    match G::from_notation(rules, token) {
        Ok(p) => Some(p),
        Err(e) => {
            out.error(&format!("go solve: {e}"));
            out.line("bestmove 0000");
            None
        }
    }
}
