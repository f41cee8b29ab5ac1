//! `go solve`: the exact solver behind the protocol. It reports each MTD(f)
//! pass as an `info string`, then the value as an `info` line marked proven,
//! and one `bestmove`, like any `go`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Duration;

use super::output::Output;
use super::session::{line_text, score_text};
use crate::game::Game;
use crate::search::Probe;
use crate::solve::db::DbSpec;
use crate::solve::{Egtb, SolveGame, SolveOptions, Tablebase, solve_with_tablebase};
use crate::variants::{SolveVisitor, Variant};

/// Whether `go solve` works for this variant (the games decided by counting).
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
}

/// Solves the position `token` of `variant` in a thread; `stop` ends it early
/// (the result is then not proven).
pub fn spawn(
    variant: Variant,
    token: String,
    hash_mib: usize,
    egtb: Option<Arc<Egtb>>,
    stop: Arc<AtomicBool>,
    out: Output,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let opts = SolveOptions {
            hash_mb: hash_mib,
            report_every: Duration::from_secs(1),
            stop: Some(stop),
            ..SolveOptions::default()
        };
        variant.visit_solver(Run {
            token,
            opts,
            egtb,
            out,
        })
    })
}

fn run<G: SolveGame>(
    rules: &G::Rules,
    token: &str,
    opts: &SolveOptions,
    tb: Option<&dyn Tablebase<G>>,
    out: &Output,
) {
    let pos = match G::from_notation(rules, token) {
        Ok(p) => p,
        Err(e) => {
            out.error(&format!("go solve: {e}"));
            out.line("bestmove 0000");
            return;
        }
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
