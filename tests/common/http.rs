//! A `kete serve` on a free port, and a plain HTTP/1.1 client over a socket
//! for the tests that drive it (no client crate needed for a few requests).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// The server process; killed when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
    /// The server's stderr, line by line (also passed on to the test's).
    log: std::sync::mpsc::Receiver<String>,
}

impl Server {
    /// The server's peak resident memory so far (VmHWM), in MiB; Linux.
    #[allow(dead_code)]
    pub fn peak_mib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb >> 10)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// A server given more arguments (`--games FILE`).
    pub fn start_with(more: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kete"))
            .args(["serve", "--port", "0"])
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kete serve starts");
        let (tx, log) = std::sync::mpsc::channel();
        let err = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in err.lines().map_while(Result::ok) {
                eprintln!("kete serve: {line}");
                let _ = tx.send(line);
            }
        });
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, addr, log }
    }

    /// The next line of the server's stderr (past those earlier calls
    /// read) that `want` accepts, waiting at most `timeout` for it.
    pub fn log_line(
        &self,
        timeout: std::time::Duration,
        want: impl Fn(&str) -> bool,
    ) -> Option<String> {
        let until = std::time::Instant::now() + timeout;
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            match self.log.recv_timeout(left) {
                Ok(line) if want(&line) => return Some(line),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// One request; the status and the body (chunks joined).
    pub fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        request(&self.addr, method, path, body)
    }

    pub fn json(&self, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
        let (status, text) = self.request(method, path, body);
        let v = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        (status, v)
    }
}

pub fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    let mut r = BufReader::new(s);
    let mut status_line = String::new();
    r.read_line(&mut status_line).unwrap();
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("status line {status_line:?}"));
    let mut chunked = false;
    let mut length = None;
    loop {
        let mut h = String::new();
        r.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let lower = h.to_ascii_lowercase();
        if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    if chunked {
        loop {
            let mut size = String::new();
            if r.read_line(&mut size).unwrap() == 0 {
                break;
            }
            let n = usize::from_str_radix(size.trim(), 16).unwrap();
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            raw.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = length {
        raw.resize(n, 0);
        r.read_exact(&mut raw).unwrap();
    } else {
        r.read_to_end(&mut raw).unwrap();
    }
    (status, String::from_utf8(raw).unwrap())
}

/// The texts of the legal moves of an `/api/state` answer.
pub fn legal_texts(state: &serde_json::Value) -> Vec<&str> {
    state["legal"]
        .as_array()
        .expect("legal moves in the state")
        .iter()
        .map(|m| m["text"].as_str().expect("a move text"))
        .collect()
}
