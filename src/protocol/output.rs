//! Engine output: whole lines, flushed at once, from any thread.

use std::io::Write;
use std::sync::Arc;

use parking_lot::Mutex;

/// A shared line writer (stdout in the binary, a buffer in tests).
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line. A reader that went away is not an error worth
    /// stopping for: the engine exits at end of input anyway.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock();
        let _ = w.write_all(text.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }

    /// Writes several lines at once, so that no other thread's line lands
    /// between them.
    pub fn lines(&self, text: &str) {
        let mut w = self.0.lock();
        for l in text.lines() {
            let _ = w.write_all(l.as_bytes());
            let _ = w.write_all(b"\n");
        }
        let _ = w.flush();
    }

    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}
