//! Long calls without the GIL, stopped by `Ctrl-C`, and kete's messages
//! handed to Python's `logging`.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use parking_lot::Mutex;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;

/// How often the waiting thread looks for a signal.
const WATCH: Duration = Duration::from_millis(50);

/// Runs `work` in a thread of its own (with the stack the solver's proof
/// search needs) while the calling thread, without the GIL, waits for it
/// and every [`WATCH`] lets Python handle its signals. A `KeyboardInterrupt`
/// (`Ctrl-C`) sets `stop`, which `work` must read, and `work` is waited
/// for: its answer is what it had (`true` says it was interrupted). Any
/// other exception a signal handler raises also sets `stop`, and is raised
/// once `work` has ended.
pub fn run<R: Send>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> R + Send,
) -> PyResult<(R, bool)> {
    let (tx, rx) = channel::<std::thread::Result<R>>();
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("kete".into())
            .stack_size(kete::solve::resources::STACK)
            .spawn_scoped(s, move || {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
                let _ = tx.send(r);
            });
        if let Err(e) = spawned {
            return Err(PyRuntimeError::new_err(format!(
                "kete: cannot start a thread: {e}"
            )));
        }
        let mut interrupted = false;
        let mut raised: Option<PyErr> = None;
        let mut rx = rx;
        loop {
            // The receiver goes with the wait and comes back (it is Send,
            // not Sync).
            let (got, back) = py.detach(move || (rx.recv_timeout(WATCH), rx));
            rx = back;
            match got {
                Ok(Ok(r)) => {
                    return match raised {
                        Some(e) => Err(e),
                        None => Ok((r, interrupted)),
                    };
                }
                Ok(Err(panic)) => {
                    let why = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "no message".into());
                    return Err(PyRuntimeError::new_err(format!(
                        "kete failed inside (a bug: please report it): {why}"
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("kete: the worker thread vanished"));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if stop.load(Ordering::Relaxed) {
                        continue;
                    }
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        if e.is_instance_of::<PyKeyboardInterrupt>(py) {
                            interrupted = true;
                        } else {
                            raised = Some(e);
                        }
                    }
                }
            }
        }
    })
}

/// Lines kete writes for its user (a database opened or built): kept here,
/// then handed to the logger `kete` ([`Log::flush`]).
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    /// The protocol's line writer over this log.
    pub fn output(&self) -> kete::protocol::Output {
        kete::protocol::Output::new(Box::new(self.clone()))
    }

    /// Sends the lines written so far to `logging.getLogger("kete")`, at
    /// level INFO (`info string error: …` lines at WARNING), without the
    /// protocol's `info string ` in front.
    pub fn flush(&self, py: Python<'_>) -> PyResult<()> {
        let text = String::from_utf8_lossy(&std::mem::take(&mut *self.0.lock())).into_owned();
        if text.is_empty() {
            return Ok(());
        }
        let logger = py.import("logging")?.call_method1("getLogger", ("kete",))?;
        for line in text.lines() {
            let line = line.strip_prefix("info string ").unwrap_or(line);
            let level = if line.starts_with("error:") {
                "warning"
            } else {
                "info"
            };
            logger.call_method1(level, (line,))?;
        }
        Ok(())
    }
}
