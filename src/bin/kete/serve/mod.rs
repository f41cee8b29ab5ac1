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
mod http;
mod words;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use api::{ApiError, MAX_BODY, MAX_GAMES};
use http::{Gate, Request};

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const KEEP_SCRIPT: &str = include_str!("page/keep.js");
const STYLE: &str = include_str!("page/style.css");

/// How long a request's body may take to arrive.
const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a search or solve may wait in the queue for its turn.
const QUEUE_WAIT: Duration = Duration::from_secs(60);

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
    /// Searches and solves that run at once (default: the number of CPUs);
    /// more wait in a queue.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: Option<u32>,
    /// Searches and solves that may wait for their turn; past that a
    /// request is answered 503 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub queue: usize,
    /// Memory in MB for the hash tables of the searches and solves running
    /// at once, shared equally between them.
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = clap::value_parser!(u32).range(8..=65536))]
    pub memory: u32,
    /// Connections open at once; when all are taken, the one waiting
    /// longest for its request's head is dropped to make room.
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = clap::value_parser!(u32).range(4..=10000))]
    pub connections: u32,
    /// Seconds a request's head (its first line and headers) may take to
    /// arrive; a connection that sends none in time is answered 408 and
    /// closed.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub head_timeout: u64,
}

/// What every request may need besides itself.
#[derive(Clone)]
struct Shared {
    games: Option<Arc<String>>,
    engine: Option<Arc<kete::arena::EngineConfig>>,
    egtb: Option<Arc<kete::solve::Egtb>>,
    /// The searches and solves running or waiting.
    gate: Arc<Gate>,
    /// Each running job's hash table, in MB.
    hash_mb: usize,
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
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let context = Shared {
        games,
        engine,
        egtb,
        gate: Gate::new(jobs, args.queue, QUEUE_WAIT),
        hash_mb: (args.memory as usize / jobs).max(1),
    };
    let listener = std::net::TcpListener::bind((args.host.as_str(), args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let addr = listener.local_addr().context("not an IP socket")?;
    println!("listening on http://{addr}/");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let limits = http::Limits {
        connections: args.connections as usize,
        head: Duration::from_secs(args.head_timeout),
        body: BODY_TIMEOUT,
    };
    http::serve(
        listener,
        limits,
        Arc::new(move |request| handle(request, &context)),
    )?;
    Ok(())
}

/// A JSON answer.
fn json(request: Request, status: u16, value: &Value, headers: &[(&str, String)]) {
    request.respond(
        status,
        "application/json",
        headers,
        value.to_string().as_bytes(),
    );
}

fn error(request: Request, e: ApiError) {
    let headers: Vec<(&str, String)> = if e.status == 503 {
        vec![("Retry-After", "2".to_string())]
    } else {
        Vec::new()
    };
    json(
        request,
        e.status,
        &serde_json::json!({ "error": e.message }),
        &headers,
    );
}

/// The body as text, refused past `limit` bytes without reading the rest.
fn read_body(request: &mut Request, limit: usize) -> Result<String, ApiError> {
    let body = request
        .body(limit)
        .map_err(|http::BodyError(status, message)| ApiError::new(status, message))?;
    String::from_utf8(body).map_err(|_| ApiError::new(400, "the body is not UTF-8"))
}

/// A place for a search or a solve, or the 503 that says to come back.
fn permit(context: &Shared) -> Result<http::Permit, ApiError> {
    context.gate.enter().ok_or_else(|| {
        ApiError::new(
            503,
            format!(
                "the engine is busy: {} searches or solves are running and {} waiting; try again shortly",
                context.gate.running, context.gate.waiting
            ),
        )
    })
}

fn handle(mut request: Request, context: &Shared) {
    let method = request.method.clone();
    let path = request.path.clone();
    let page = |request: Request, body: &'static str, kind: &str| {
        request.respond(200, kind, &[], body.as_bytes());
    };
    let result = match (method.as_str(), path.as_str()) {
        ("GET", "/") | ("GET", "/index.html") => {
            return page(request, INDEX, "text/html; charset=utf-8");
        }
        ("GET", "/app.js") => return page(request, SCRIPT, "text/javascript; charset=utf-8"),
        ("GET", "/keep.js") => return page(request, KEEP_SCRIPT, "text/javascript; charset=utf-8"),
        ("GET", "/style.css") => return page(request, STYLE, "text/css; charset=utf-8"),
        ("GET", "/api/variants") => Ok(api::variants()),
        ("GET", "/api/replay") => match &context.games {
            Some(g) => {
                return request.respond(200, "application/json", &[], g.as_bytes());
            }
            None => Err(ApiError::new(404, "no --games file was given")),
        },
        ("POST", "/api/solve") => {
            match read_body(&mut request, MAX_BODY)
                .and_then(|b| api::SolveJob::new(&b, context.egtb.clone(), context.hash_mb))
                .and_then(|job| Ok((job, permit(context)?)))
            {
                Ok((job, permit)) => {
                    // White space before the answer, which JSON allows,
                    // finds a page that has gone away.
                    return stream(
                        request,
                        "/api/solve",
                        "application/json",
                        " ",
                        |v: Value| v.to_string(),
                        move |stop, tx| {
                            let _permit = permit;
                            let _ = tx.send(job.run(stop));
                        },
                    );
                }
                Err(e) => Err(e),
            }
        }
        ("POST", "/api/replay") => {
            read_body(&mut request, MAX_GAMES).and_then(|body| api::replay_games(&body))
        }
        ("POST", "/api/state" | "/api/move" | "/api/search") => {
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
    match result {
        Ok(v) => json(request, 200, &v, &[]),
        Err(e) => error(request, e),
    }
}

/// A search whose progress goes to the page as server-sent events.
fn stream_search(request: Request, body: &str, context: &Shared) {
    let job = api::SearchJob::new(
        body,
        context.engine.clone(),
        context.egtb.clone(),
        context.hash_mb,
    )
    .and_then(|job| Ok((job, permit(context)?)));
    match job {
        Ok((job, permit)) => stream(
            request,
            "/api/search",
            "text/event-stream",
            ": ping\n\n",
            |(name, data): (String, String)| format!("event: {name}\ndata: {data}\n\n"),
            move |stop, tx| {
                let _permit = permit;
                job.run(stop, tx)
            },
        ),
        Err(e) => error(request, e),
    }
}

/// Answers with what `work` sends, each piece as it comes, written by hand
/// in chunked encoding so that it leaves at once; `keepalive` is written
/// every quarter second meanwhile. A write that fails means the page went
/// away: `work`'s stop flag is set, and the server says so on stderr once
/// `work` has ended.
fn stream<T: Send + 'static>(
    request: Request,
    what: &str,
    content_type: &str,
    keepalive: &str,
    format: fn(T) -> String,
    work: impl FnOnce(Arc<AtomicBool>, std::sync::mpsc::Sender<T>) + Send + 'static,
) {
    let mut out = request.into_stream();
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nCache-Control: no-cache\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
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
        let piece = match rx.recv_timeout(Duration::from_millis(250)) {
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
            http::finish(out);
        }
        Some(at) => eprintln!(
            "{what}: the page went away; stopped {} ms later",
            at.elapsed().as_millis()
        ),
    }
}

use serde_json::Value;
use std::io::Write as _;
