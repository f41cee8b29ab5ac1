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
use super::session::{line_text, score_text};
use crate::game::Game;
use crate::search::Probe;
use crate::search::WIN;
use crate::solve::db::DbSpec;
use crate::solve::pns::{Bounds, INF, ProveOptions, Verdict, prove};
use crate::solve::{Egtb, SolveGame, SolveOptions, Tablebase, solve_with_tablebase};
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
    egtb: Option<Arc<Egtb>>,
    out: Output,
}

impl SolveVisitor for Run {
    type Output = ();
    fn with_databases<G: DbSpec>(self, rules: G::Rules) {
        let tb = self
            .egtb
            .as_deref()
            .filter(|db| db.check::<G>(&rules).is_ok());
        let tb = tb.map(|d| d as &dyn Tablebase<G>);
        run::<G>(&rules, &self.token, &self.opts, tb, &self.out)
    }
    fn solvable<G: SolveGame>(self, rules: G::Rules) {
        run::<G>(&rules, &self.token, &self.opts, None, &self.out)
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
                crate::solve::cli::ended_text(r.ended),
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

/// Solves the position `token` of `variant` in a thread; `stop` ends it early
/// (the result is then not proven).
#[allow(clippy::too_many_arguments)]
pub fn spawn(
    variant: Variant,
    token: String,
    hash_mib: usize,
    egtb: Option<Arc<Egtb>>,
    stop: Arc<AtomicBool>,
    nodes: Option<u64>,
    movetime: Option<Duration>,
    out: Output,
) -> JoinHandle<()> {
    // The proof search recurses once per ply of its line (up to
    // `pns::MAX_PLY`): more stack than a thread gets by default.
    let thread = std::thread::Builder::new().stack_size(STACK);
    let spawned = thread.spawn(move || {
        let opts = SolveOptions {
            hash_mb: hash_mib,
            report_every: Duration::from_secs(1),
            stop: Some(stop),
            ..SolveOptions::default()
        };
        variant.visit_solver(Run {
            token,
            opts,
            nodes,
            movetime,
            egtb,
            out,
        })
    });
    spawned.expect("the system gives a thread its stack")
}

/// Stack of the solving thread.
pub const STACK: usize = 256 << 20;

fn run<G: SolveGame>(
    rules: &G::Rules,
    token: &str,
    opts: &SolveOptions,
    tb: Option<&dyn Tablebase<G>>,
    out: &Output,
) {
    let Some(pos) = position::<G>(rules, token, out) else {
        return;
    };
    let r = solve_with_tablebase(&pos, opts, tb, &mut |p| {
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
    }
    out.line(&format!("bestmove {}", pos.format_move(best)));
}

/// The search's view of a loaded database for positions of `G` under
/// `rules`: the exact score of a position it holds (the banked margin plus
/// the database's value of the seeds in play, in centiseeds), or `None`
/// when the database does not fit those rules.
pub fn probe<G: DbSpec>(db: &Arc<Egtb>, rules: &G::Rules) -> Option<Probe<G>> {
    db.check::<G>(rules).ok()?;
    let db = db.clone();
    Some(Probe(Arc::new(move |pos: &G| {
        let v = Tablebase::<G>::probe(&*db, pos)?;
        Some(100 * (pos.banked() + v))
    })))
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
