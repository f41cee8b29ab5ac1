//! The HTTP/1.1 server under `kete serve`, on `std::net` alone, made to stay
//! up on a small machine reachable by others (`--host 0.0.0.0`):
//!
//! - a thread a connection, at most [`Limits::connections`] at once; when
//!   they are all taken, the connection that has waited longest for its
//!   request's head is dropped to make room (one that sends its head slowly
//!   or never cannot hold a place another needs), and if every place is
//!   serving a request, the newcomer gets `503` with `Retry-After`; a
//!   connection keeps its place until its thread has been joined, so that
//!   the threads are never more than the places;
//! - a request's head must arrive within [`Limits::head`], its body within
//!   [`Limits::body`] (`408` otherwise), a head is at most 16 KiB (`431`);
//! - one request a connection (`Connection: close`), which is all a page on
//!   the same machine needs;
//! - the searches and solves that run at once are bounded by a [`Gate`]: a
//!   short queue, then `503` with `Retry-After`.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The largest request head accepted.
const MAX_HEAD: usize = 16 * 1024;

/// What the server allows.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections open at once.
    pub connections: usize,
    /// Time for a request's head (request line and headers) to arrive.
    pub head: Duration,
    /// Time for its body to arrive.
    pub body: Duration,
}

/// A request whose head has been read; its body is read on demand.
pub struct Request {
    pub method: String,
    /// The path without the query.
    pub path: String,
    content_length: Option<usize>,
    chunked: bool,
    /// Body bytes that came with the head.
    early: Vec<u8>,
    stream: TcpStream,
    body_limit: Duration,
}

/// Why a body could not be read: the status to answer and the message.
pub struct BodyError(pub u16, pub String);

impl Request {
    /// The body, refused past `limit` bytes without reading the rest.
    pub fn body(&mut self, limit: usize) -> Result<Vec<u8>, BodyError> {
        if self.chunked {
            return Err(BodyError(
                411,
                "a body must come with Content-Length".into(),
            ));
        }
        let n = self.content_length.unwrap_or(0);
        if n > limit {
            return Err(BodyError(413, format!("the body is over {limit} bytes")));
        }
        let mut body = std::mem::take(&mut self.early);
        body.truncate(n);
        let deadline = Instant::now() + self.body_limit;
        let mut buf = [0u8; 8192];
        while body.len() < n {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(BodyError(408, "the body did not arrive in time".into()));
            }
            let _ = self.stream.set_read_timeout(Some(left));
            let want = (n - body.len()).min(buf.len());
            match self.stream.read(&mut buf[..want]) {
                Ok(0) => return Err(BodyError(400, "the body ended early".into())),
                Ok(k) => body.extend_from_slice(&buf[..k]),
                Err(e) if timed_out(&e) => {
                    return Err(BodyError(408, "the body did not arrive in time".into()));
                }
                Err(e) => return Err(BodyError(400, format!("cannot read the body: {e}"))),
            }
        }
        Ok(body)
    }

    /// Answers with a whole body and closes the connection.
    pub fn respond(self, status: u16, content_type: &str, headers: &[(&str, String)], body: &[u8]) {
        let mut head = format!(
            "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
             Cache-Control: no-cache\r\nConnection: close\r\n",
            reason(status),
            body.len()
        );
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let mut stream = self.stream;
        let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
        let _ = stream
            .write_all(head.as_bytes())
            .and_then(|_| stream.write_all(body))
            .and_then(|_| stream.flush());
        finish(stream);
    }

    /// The connection, for an answer written as it is made (server-sent
    /// events, a solve that takes seconds). Writes time out after 30 s.
    pub fn into_stream(self) -> TcpStream {
        let _ = self.stream.set_write_timeout(Some(Duration::from_secs(30)));
        self.stream
    }
}

/// Closes a connection whose answer is written: the write side first, then
/// what the client still sends is read (briefly), so that the answer is not
/// lost to a reset.
pub fn finish(mut stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut buf = [0u8; 4096];
    let mut drained = 0;
    while drained < 256 * 1024 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(k) => drained += k,
        }
    }
}

fn timed_out(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// How long a new connection may wait for the thread of one dropped to make
/// room to end; past that it is answered `503`.
const ROOM_WAIT: Duration = Duration::from_secs(1);

/// A connection's place, from its accepting to the end of its thread.
enum Place {
    /// Its request's head is still awaited: a handle to drop it by.
    Awaiting(TcpStream),
    /// Its request is being served.
    Serving,
    /// Dropped to make room; its thread has yet to see it.
    Dropped,
    /// Its thread is ending: the place is free once it is joined.
    Ended,
}

/// A connection: its place and its thread.
struct Conn {
    place: Place,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The open connections, each kept until its thread has been joined, so
/// that the threads are never more than the places. Ids grow with time.
#[derive(Default)]
struct Table {
    next: u64,
    open: BTreeMap<u64, Conn>,
}

/// The table and a signal that a connection's thread is ending.
#[derive(Default)]
struct Places {
    table: Mutex<Table>,
    freed: Condvar,
}

impl Places {
    /// A place for a new connection (`handle` to drop it by). When all
    /// `limit` are taken, the connection that has waited longest for its
    /// head is dropped and the end of its thread awaited; `None` when every
    /// place is serving a request, or no place came free in time.
    fn enter(&self, handle: TcpStream, limit: usize) -> Option<u64> {
        let until = Instant::now() + ROOM_WAIT;
        loop {
            let mut t = self.table.lock().unwrap();
            // The threads that are ending are joined (outside the lock),
            // then their places are free.
            let mut ended = Vec::new();
            t.open.retain(|_, c| {
                let done = matches!(c.place, Place::Ended);
                if done {
                    ended.extend(c.thread.take());
                }
                !done
            });
            if !ended.is_empty() {
                drop(t);
                for thread in ended {
                    let _ = thread.join();
                }
                continue;
            }
            if t.open.len() < limit {
                t.next += 1;
                let id = t.next;
                let conn = Conn {
                    place: Place::Awaiting(handle),
                    thread: None,
                };
                t.open.insert(id, conn);
                return Some(id);
            }
            // One dropped already makes room once its thread sees it; only
            // without one is another dropped.
            if !t.open.values().any(|c| matches!(c.place, Place::Dropped)) {
                let oldest = t
                    .open
                    .values_mut()
                    .find(|c| matches!(c.place, Place::Awaiting(_)))?;
                if let Place::Awaiting(s) = std::mem::replace(&mut oldest.place, Place::Dropped) {
                    let _ = s.shutdown(Shutdown::Both);
                }
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            drop(self.freed.wait_timeout(t, left).unwrap());
        }
    }

    /// The thread serving connection `id`, to be joined when it ends.
    fn started(&self, id: u64, thread: std::thread::JoinHandle<()>) {
        if let Some(c) = self.table.lock().unwrap().open.get_mut(&id) {
            c.thread = Some(thread);
        }
    }
}

/// A connection's place, given back as its thread ends.
struct Entry {
    id: u64,
    places: Arc<Places>,
}

impl Entry {
    /// Its head has come: it can no longer be dropped to make room. False
    /// if it was dropped meanwhile, and is not to be served.
    fn serving(&self) -> bool {
        let mut t = self.places.table.lock().unwrap();
        match t.open.get_mut(&self.id) {
            Some(c) if matches!(c.place, Place::Awaiting(_)) => {
                c.place = Place::Serving;
                true
            }
            _ => false,
        }
    }
}

impl Drop for Entry {
    fn drop(&mut self) {
        if let Some(c) = self.places.table.lock().unwrap().open.get_mut(&self.id) {
            c.place = Place::Ended;
        }
        self.places.freed.notify_all();
    }
}

/// Serves `handler` on `listener` for ever, within `limits`.
pub fn serve(
    listener: TcpListener,
    limits: Limits,
    handler: Arc<dyn Fn(Request) + Send + Sync>,
) -> std::io::Result<()> {
    widen_backlog(&listener);
    let places = Arc::new(Places::default());
    for stream in listener.incoming() {
        // Out of file descriptors and the like: wait, then go on.
        let Ok((stream, handle)) = stream.and_then(|s| {
            let handle = s.try_clone()?;
            Ok((s, handle))
        }) else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let Some(id) = places.enter(handle, limits.connections) else {
            busy(stream);
            continue;
        };
        let entry = Entry {
            id,
            places: places.clone(),
        };
        let handler = handler.clone();
        let spawned = std::thread::Builder::new()
            .name("kete-http".into())
            .spawn(move || connection(stream, entry, limits, &*handler));
        match spawned {
            Ok(thread) => places.started(id, thread),
            // No thread to be had: the connection is dropped (its entry
            // went with the closure, ending its place).
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    Ok(())
}

/// Lengthens the queue of connections not yet accepted from std's 128 to
/// 4096 (capped by `net.core.somaxconn`): when a burst of
/// connections finds the queue full, the kernel refuses them and their
/// clients' kernels try again a second later, so that a page's request
/// arriving with a crowd waits over a second. On Linux a second `listen`
/// on a listening socket sets its queue's length.
fn widen_backlog(listener: &TcpListener) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        const BACKLOG: i32 = 4096;
        // SAFETY: listen() on the descriptor of a socket we own and that
        // is open for the call; it changes only the length of its queue.
        unsafe {
            libc::listen(listener.as_raw_fd(), BACKLOG);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = listener;
}

/// Every place taken by a request being served: `503` at once.
fn busy(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
    let body = r#"{"error":"the server is busy: too many connections"}"#;
    let _ = write!(
        stream,
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.shutdown(Shutdown::Both);
}

fn connection(
    mut stream: TcpStream,
    entry: Entry,
    limits: Limits,
    handler: &(dyn Fn(Request) + Send + Sync),
) {
    let deadline = Instant::now() + limits.head;
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    let end = loop {
        if let Some(at) = find(&buf, b"\r\n\r\n") {
            break at;
        }
        if buf.len() > MAX_HEAD {
            return refuse(stream, 431, "the request's head is over 16 KiB");
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return refuse(stream, 408, "the request's head did not arrive in time");
        }
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut chunk) {
            Ok(0) => return,
            Ok(k) => buf.extend_from_slice(&chunk[..k]),
            Err(e) if timed_out(&e) => {
                return refuse(stream, 408, "the request's head did not arrive in time");
            }
            Err(_) => return,
        }
    };
    if !entry.serving() {
        return;
    }
    let Ok(head) = std::str::from_utf8(&buf[..end]) else {
        return refuse(stream, 400, "the request's head is not UTF-8");
    };
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let (Some(method), Some(target), Some(version)) = (first.next(), first.next(), first.next())
    else {
        return refuse(stream, 400, "not an HTTP request line");
    };
    if !version.starts_with("HTTP/1.") {
        return refuse(stream, 400, "only HTTP/1.x is spoken here");
    }
    let mut content_length = None;
    let mut chunked = false;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        if name == "content-length" {
            match value.parse::<usize>() {
                Ok(n) => content_length = Some(n),
                Err(_) => return refuse(stream, 400, "a bad Content-Length"),
            }
        } else if name == "transfer-encoding" && !value.eq_ignore_ascii_case("identity") {
            chunked = true;
        }
    }
    let path = target.split('?').next().unwrap_or("").to_string();
    let request = Request {
        method: method.to_string(),
        path,
        content_length,
        chunked,
        early: buf[end + 4..].to_vec(),
        stream,
        body_limit: limits.body,
    };
    handler(request);
    drop(entry);
}

fn refuse(stream: TcpStream, status: u16, message: &str) {
    let body = serde_json::json!({ "error": message }).to_string();
    Request {
        method: String::new(),
        path: String::new(),
        content_length: None,
        chunked: false,
        early: Vec::new(),
        stream,
        body_limit: Duration::ZERO,
    }
    .respond(status, "application/json", &[], body.as_bytes());
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Bounds the searches and solves that run at once: at most `running`,
/// then at most `waiting` in a queue (each waits up to `wait`), then
/// refused.
pub struct Gate {
    state: Mutex<(usize, usize)>,
    free: Condvar,
    pub running: usize,
    pub waiting: usize,
    wait: Duration,
}

/// A place to run in; given back when dropped.
pub struct Permit(Arc<Gate>);

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.state.lock().unwrap().0 -= 1;
        self.0.free.notify_one();
    }
}

impl Gate {
    pub fn new(running: usize, waiting: usize, wait: Duration) -> Arc<Gate> {
        Arc::new(Gate {
            state: Mutex::new((0, 0)),
            free: Condvar::new(),
            running: running.max(1),
            waiting,
            wait,
        })
    }

    /// A place, after waiting in the queue if need be; `None` when the
    /// queue is full or the wait too long.
    pub fn enter(self: &Arc<Gate>) -> Option<Permit> {
        let mut st = self.state.lock().unwrap();
        if st.0 < self.running {
            st.0 += 1;
            return Some(Permit(self.clone()));
        }
        if st.1 >= self.waiting {
            return None;
        }
        st.1 += 1;
        let until = Instant::now() + self.wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                st.1 -= 1;
                return None;
            }
            st = self.free.wait_timeout(st, left).unwrap().0;
            if st.0 < self.running {
                st.0 += 1;
                st.1 -= 1;
                return Some(Permit(self.clone()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_lets_in_so_many_queues_so_many_and_refuses_the_rest() {
        let gate = Gate::new(1, 1, Duration::from_secs(5));
        let first = gate.enter().expect("a free place");
        let waiter = {
            let gate = gate.clone();
            std::thread::spawn(move || gate.enter().is_some())
        };
        // Wait until the second is queued, then a third is refused.
        while gate.state.lock().unwrap().1 == 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(gate.enter().is_none(), "the queue is full");
        drop(first);
        assert!(
            waiter.join().unwrap(),
            "the queued one runs once the first ends"
        );
        assert_eq!(*gate.state.lock().unwrap(), (0, 0));
    }
}
