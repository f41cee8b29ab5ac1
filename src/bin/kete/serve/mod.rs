//! `kete serve`: a board in the browser. One page (HTML, CSS and JavaScript
//! embedded in the binary, the board drawn in SVG) and a small JSON API that
//! answers from the variants' own rules and kete's own search, so that the
//! page implements no rule.
//!
//! The API keeps no game: every request carries the variant, its options,
//! the start position and the moves so far, and the server replays them.
//! Two tabs are then two games without any bookkeeping, and a closed tab
//! leaves nothing behind.

mod api;

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result};
use clap::Args;

use api::{ApiError, MAX_BODY, MAX_GAMES};

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to bind; only this machine can connect unless told otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// A kete-arena games.jsonl whose games the page offers to replay.
    #[arg(long, value_name = "FILE")]
    pub games: Option<std::path::PathBuf>,
    /// An engine that speaks the protocol, driven by kete-arena's engine
    /// code, instead of kete's own search in-process (its progress streamed
    /// to the page, its top lines asked for with MultiPV if it offers it).
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// An argument for `--engine` (repeatable).
    #[arg(long = "engine-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub engine_args: Vec<String>,
    /// An endgame database (`kete egtb build`) for the solve button and the
    /// in-process search, in the games and rules it was built for.
    #[arg(long, value_name = "FILE")]
    pub egtb: Option<std::path::PathBuf>,
}

/// What every request may need besides itself.
#[derive(Clone)]
struct Shared {
    games: Option<Arc<String>>,
    engine: Option<Arc<kete::arena::EngineConfig>>,
    egtb: Option<Arc<kete::solve::Egtb>>,
}

/// Serves until the process is stopped. Prints `listening on http://…`
/// once the socket is bound (the tests wait for that line).
pub fn run(args: &ServeArgs) -> Result<()> {
    // Read and checked once, before listening: a bad file is an error at
    // start, not on the page.
    let games = match &args.games {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let games = api::replay_games(&text)
                .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.message))?;
            Some(Arc::new(games.to_string()))
        }
        None => None,
    };
    let engine = args.engine.as_ref().map(|cmd| {
        let mut cfg = kete::arena::EngineConfig {
            cmd: cmd.clone(),
            args: args.engine_args.clone(),
            ..Default::default()
        };
        cfg.name = std::path::Path::new(cmd)
            .file_name()
            .map_or(cmd.clone(), |f| f.to_string_lossy().into_owned());
        Arc::new(cfg)
    });
    let egtb = match &args.egtb {
        Some(path) => {
            let db = kete::solve::load(path)
                .with_context(|| format!("cannot load the endgame database {}", path.display()))?;
            eprintln!(
                "endgame database {}: {} up to {} seeds",
                path.display(),
                db.game().describe(),
                db.max_seeds()
            );
            Some(Arc::new(db))
        }
        None => None,
    };
    let context = Shared {
        games,
        engine,
        egtb,
    };
    let server = tiny_http::Server::http((args.host.as_str(), args.port))
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let addr = server.server_addr().to_ip().context("not an IP socket")?;
    println!("listening on http://{addr}/");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let server = Arc::new(server);
    for request in server.incoming_requests() {
        // A thread a request: searches stream for seconds and must not hold
        // up the page's other requests.
        let context = context.clone();
        std::thread::spawn(move || handle(request, context));
    }
    Ok(())
}

fn handle(mut request: tiny_http::Request, context: Shared) {
    let method = request.method().clone();
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("").to_string();
    use tiny_http::Method::{Get, Post};
    let page = |body: &'static str, kind: &str| {
        tiny_http::Response::from_string(body).with_header(header("Content-Type", kind))
    };
    let result = match (&method, path.as_str()) {
        (Get, "/") | (Get, "/index.html") => {
            let _ = request.respond(page(INDEX, "text/html; charset=utf-8"));
            return;
        }
        (Get, "/app.js") => {
            let _ = request.respond(page(SCRIPT, "text/javascript; charset=utf-8"));
            return;
        }
        (Get, "/style.css") => {
            let _ = request.respond(page(STYLE, "text/css; charset=utf-8"));
            return;
        }
        (Get, "/api/variants") => Ok(api::variants()),
        (Get, "/api/replay") => match context.games {
            Some(g) => {
                let _ = request.respond(
                    tiny_http::Response::from_string(g.as_str())
                        .with_header(header("Content-Type", "application/json")),
                );
                return;
            }
            None => Err(ApiError::new(404, "no --games file was given")),
        },
        (Post, "/api/solve") => {
            match read_body(&mut request, MAX_BODY)
                .and_then(|b| api::SolveJob::new(&b, context.egtb.clone()))
            {
                Ok(job) => {
                    // White space before the answer, which JSON allows,
                    // finds a page that has gone away.
                    return stream(
                        request,
                        "/api/solve",
                        "application/json",
                        " ",
                        |v: Value| v.to_string(),
                        move |stop, tx| {
                            let _ = tx.send(job.run(stop));
                        },
                    );
                }
                Err(e) => Err(e),
            }
        }
        (Post, "/api/replay") => {
            read_body(&mut request, MAX_GAMES).and_then(|body| api::replay_games(&body))
        }
        (Post, "/api/state" | "/api/move" | "/api/search") => {
            match read_body(&mut request, MAX_BODY) {
                Err(e) => Err(e),
                Ok(body) => {
                    if path == "/api/search" {
                        return stream_search(request, &body, context);
                    }
                    api::answer(&path, &body)
                }
            }
        }
        (
            _,
            "/" | "/api/variants" | "/api/state" | "/api/move" | "/api/search" | "/api/replay"
            | "/api/solve",
        ) => Err(ApiError::new(
            405,
            format!("{method} is not allowed on {path}"),
        )),
        _ => Err(ApiError::new(404, format!("no such page: {path}"))),
    };
    let (status, value) = match result {
        Ok(v) => (200, v),
        Err(e) => (e.status, serde_json::json!({ "error": e.message })),
    };
    let _ = request.respond(
        tiny_http::Response::from_string(value.to_string())
            .with_status_code(status)
            .with_header(header("Content-Type", "application/json")),
    );
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// The body, refused past `limit` bytes without reading the rest.
fn read_body(request: &mut tiny_http::Request, limit: usize) -> Result<String, ApiError> {
    let too_big = || ApiError::new(413, format!("the body is over {limit} bytes"));
    if request.body_length().is_some_and(|n| n > limit) {
        return Err(too_big());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(limit as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| ApiError::new(400, format!("cannot read the body: {e}")))?;
    if body.len() > limit {
        return Err(too_big());
    }
    String::from_utf8(body).map_err(|_| ApiError::new(400, "the body is not UTF-8"))
}

/// A search whose progress goes to the page as server-sent events.
fn stream_search(request: tiny_http::Request, body: &str, context: Shared) {
    match api::SearchJob::new(body, context.engine, context.egtb) {
        Ok(job) => stream(
            request,
            "/api/search",
            "text/event-stream",
            ": ping\n\n",
            |(name, data): (String, String)| format!("event: {name}\ndata: {data}\n\n"),
            move |stop, tx| job.run(stop, tx),
        ),
        Err(e) => {
            let _ = request.respond(
                tiny_http::Response::from_string(
                    serde_json::json!({ "error": e.message }).to_string(),
                )
                .with_status_code(e.status)
                .with_header(header("Content-Type", "application/json")),
            );
        }
    }
}

/// Answers with what `work` sends, each piece as it comes, written by hand
/// in chunked encoding so that it leaves at once; `keepalive` is written
/// every quarter second meanwhile. A write that fails means the page went
/// away: `work`'s stop flag is set, and the server says so on stderr once
/// `work` has ended.
fn stream<T: Send + 'static>(
    request: tiny_http::Request,
    what: &str,
    content_type: &str,
    keepalive: &str,
    format: fn(T) -> String,
    work: impl FnOnce(Arc<AtomicBool>, std::sync::mpsc::Sender<T>) + Send + 'static,
) {
    let mut out = request.into_writer();
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nCache-Control: no-cache\r\n\
         Transfer-Encoding: chunked\r\n\r\n"
    );
    if out
        .write_all(head.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        return;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel::<T>();
    let worker = {
        let stop = stop.clone();
        std::thread::spawn(move || work(stop, tx))
    };
    let mut gone = None;
    loop {
        let piece = match rx.recv_timeout(std::time::Duration::from_millis(250)) {
            Ok(e) => Some(e),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => None,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        };
        if gone.is_some() {
            continue;
        }
        // The keep-alive finds a closed page even while the work has
        // nothing new to say.
        let text = piece.map_or_else(|| keepalive.to_string(), format);
        let chunk = format!("{:x}\r\n{text}\r\n", text.len());
        if out
            .write_all(chunk.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            gone = Some(std::time::Instant::now());
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    let _ = worker.join();
    match gone {
        None => {
            let _ = out.write_all(b"0\r\n\r\n").and_then(|_| out.flush());
        }
        Some(at) => eprintln!(
            "{what}: the page went away; stopped {} ms later",
            at.elapsed().as_millis()
        ),
    }
}

use serde_json::Value;
use std::io::Write as _;
