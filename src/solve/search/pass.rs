//! One MTD(f) pass on every thread of the solve: the threads search the
//! same root together, sharing the table and deferring what another is
//! searching, and the first to finish gives the pass its answer.

use std::sync::atomic::Ordering;

use super::searcher::Searcher;
use crate::game::SolveGame;

impl<'a, G: SolveGame> Searcher<'a, G> {
    /// One MTD(f) pass with the null window `[beta - 1, beta]`, on every
    /// thread: they share the table and defer what another is searching;
    /// the first to finish gives the pass its value and best move, and the
    /// others give up.
    pub(super) fn pass(&mut self, pos: &G, beta: i32) -> i32 {
        let sh = self.sh;
        let t = Self::threshold(pos.side_to_move(), beta - 1);
        self.open_for(t);
        if sh.threads == 1 {
            return self.search(pos, beta - 1, beta, 0);
        }
        let found: parking_lot::Mutex<Option<(i32, Option<usize>)>> = Default::default();
        let finish = |v: i32, best: Option<usize>| {
            let mut f = found.lock();
            if f.is_none() {
                *f = Some((v, best));
            }
            sh.abort.store(true, Ordering::Relaxed);
        };
        std::thread::scope(|scope| {
            for id in 1..sh.threads {
                let history = self.history.clone();
                let finish = &finish;
                // Lines run hundreds of plies deep in games that repeat:
                // the stack of the solving thread.
                std::thread::Builder::new()
                    .stack_size(crate::solve::resources::STACK)
                    .spawn_scoped(scope, move || {
                        let mut h = Searcher::new(sh, id, history, None);
                        h.open_for(t);
                        let v = h.search(pos, beta - 1, beta, 0);
                        h.flush();
                        if !h.stopped {
                            finish(v, h.root_best);
                        }
                    })
                    .expect("the system gives the solver its threads");
            }
            let v = self.search(pos, beta - 1, beta, 0);
            if !self.stopped {
                finish(v, self.root_best);
            }
        });
        sh.abort.store(false, Ordering::Relaxed);
        match found.into_inner() {
            Some((v, best)) => {
                self.stopped = false;
                self.root_best = best;
                v
            }
            None => {
                self.stopped = true;
                beta - 1
            }
        }
    }
}
