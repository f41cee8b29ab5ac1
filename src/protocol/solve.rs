//! `go solve`: the exact solver behind the protocol. It reports each MTD(f)
//! pass as an `info string`, then the value as an `info` line marked proven,
//! and one `bestmove`, like any `go`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Duration;

use super::output::Output;
use super::session::{line_text, score_text};
use crate::search::Probe;
use crate::solve::{Egtb, SolveGame, SolveOptions, Tablebase, solve_with_tablebase};
use crate::variants::Variant;
use crate::variants::endodoi::EnDodoi;
use crate::variants::kalah::Kalah;
use crate::variants::oware::Oware;

/// Whether `go solve` works for this variant (the games decided by counting).
pub fn solvable(variant: &Variant) -> bool {
    matches!(
        variant,
        Variant::Kalah(_) | Variant::Oware(_) | Variant::EnDodoi(_)
    )
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
        match variant {
            Variant::Kalah(r) => {
                let tb = egtb.as_deref().filter(|db| db.check_kalah(&r).is_ok());
                run::<Kalah>(
                    &r,
                    &token,
                    &opts,
                    tb.map(|d| d as &dyn Tablebase<Kalah>),
                    &out,
                )
            }
            Variant::Oware(r) => {
                let tb = egtb.as_deref().filter(|db| db.check_oware(&r).is_ok());
                run::<Oware>(
                    &r,
                    &token,
                    &opts,
                    tb.map(|d| d as &dyn Tablebase<Oware>),
                    &out,
                )
            }
            Variant::EnDodoi(r) => run::<EnDodoi>(&r, &token, &opts, None, &out),
            _ => {
                out.error("go solve: this variant is not decided by counting seeds");
                out.line("bestmove 0000");
            }
        }
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

/// The search's view of a loaded database for `variant`: the exact score of
/// a position it holds (the banked margin plus the database's value of the
/// seeds in play, in centiseeds), or `None` when the database does not fit
/// the variant's rules.
pub fn probe(variant: &Variant, db: &Arc<Egtb>) -> Option<Probe> {
    fn make<G: SolveGame>(db: &Arc<Egtb>) -> Probe
    where
        Egtb: Tablebase<G>,
    {
        let db = db.clone();
        Probe(Arc::new(move |any| {
            let pos = any.downcast_ref::<G>()?;
            let v = Tablebase::<G>::probe(&*db, pos)?;
            Some(100 * (pos.banked() + v))
        }))
    }
    match variant {
        Variant::Kalah(r) if db.check_kalah(r).is_ok() => Some(make::<Kalah>(db)),
        Variant::Oware(r) if db.check_oware(r).is_ok() => Some(make::<Oware>(db)),
        _ => None,
    }
}
