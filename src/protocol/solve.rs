//! `go solve`: the exact solver behind the protocol. It reports each MTD(f)
//! pass as an `info string`, then the value as an `info` line marked proven,
//! and one `bestmove`, like any `go`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Duration;

use super::output::Output;
use super::session::{line_text, score_text};
use crate::solve::{SolveGame, SolveOptions, solve};
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
            Variant::Kalah(r) => run::<Kalah>(&r, &token, &opts, &out),
            Variant::Oware(r) => run::<Oware>(&r, &token, &opts, &out),
            Variant::EnDodoi(r) => run::<EnDodoi>(&r, &token, &opts, &out),
            _ => {
                out.error("go solve: this variant is not decided by counting seeds");
                out.line("bestmove 0000");
            }
        }
    })
}

fn run<G: SolveGame>(rules: &G::Rules, token: &str, opts: &SolveOptions, out: &Output) {
    let pos = match G::from_notation(rules, token) {
        Ok(p) => p,
        Err(e) => {
            out.error(&format!("go solve: {e}"));
            out.line("bestmove 0000");
            return;
        }
    };
    let r = solve(&pos, opts, &mut |p| {
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
