//! What the arena tests share: the binaries, a tournament's folder, running
//! kete-arena, reading its games and checking its HTML report.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub(crate) const ARENA: &str = env!("CARGO_BIN_EXE_kete-arena");
pub(crate) const KETE: &str = env!("CARGO_BIN_EXE_kete");

pub(crate) fn script(name: &str) -> String {
    format!("{}/tests/engines/{name}", env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kete-arena-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The folder of the databases kete plays with, filled once for this test
/// binary by a kete asked `isready` under each variant played below (a
/// build of about a second each): the engines of the tournaments then load
/// theirs at once, within the half-second handshake some of them get.
pub(crate) fn databases() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = out_dir("databases");
        for variant in ["kalah", "oware"] {
            let mut kete = Command::new(KETE)
                .env("KETE_EGTB_DIR", &dir)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .spawn()
                .expect("start kete");
            use std::io::Write;
            let input = format!("setoption name Variant value {variant}\nisready\nquit\n");
            kete.stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
            assert!(kete.wait().unwrap().success());
        }
        dir
    })
}

pub(crate) fn arena(args: &[String]) -> Command {
    let mut c = Command::new(ARENA);
    c.args(args)
        .env("KETE_EGTB_DIR", databases())
        .stdin(Stdio::null());
    c
}

pub(crate) fn run(args: &[String]) -> Output {
    let out = arena(args).output().expect("run kete-arena");
    assert!(
        out.status.success(),
        "kete-arena failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

pub(crate) fn games(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a whole JSON line"))
        .collect()
}

/// `report.html` beside `report.md`: a whole page whose tags close in
/// order, that loads nothing (no script, no address to fetch), one SVG per
/// chart (`charts`, in order), and the numbers of report.md's standings,
/// pairings and time per move in its tables.
pub(crate) fn check_html(dir: &Path, charts: &[&str]) {
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    let md = std::fs::read_to_string(dir.join("report.md")).expect("report.md");
    assert!(html.starts_with("<!doctype html>\n<html lang=\"en\">"));
    assert!(html.trim_end().ends_with("</html>"));
    tags_close_in_order(&html);
    for load in [
        "<script", "src=", "href=", "url(", "@import", "<link", "<img",
    ] {
        assert!(!html.contains(load), "report.html loads something: {load}");
    }
    assert!(
        !html
            .replace("xmlns=\"http://www.w3.org/2000/svg\"", "")
            .contains("http")
    );
    let figures: Vec<&str> = html
        .split("<figure data-chart=\"")
        .skip(1)
        .map(|f| f.split('"').next().unwrap())
        .collect();
    assert_eq!(figures, charts);
    assert_eq!(
        html.matches("<svg ").count(),
        charts.len(),
        "one SVG per chart"
    );
    for part in html.split("<figure ").skip(1) {
        let figure = part.split("</figure>").next().unwrap();
        assert_eq!(figure.matches("<svg ").count(), 1, "{figure}");
    }
    for (heading, class) in [
        ("## Standings", "standings"),
        ("## Pairings", "pairings"),
        ("## Time per move", "times"),
    ] {
        let md_rows: Vec<Vec<String>> = md
            .split(heading)
            .nth(1)
            .unwrap()
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2)
            .map(|l| {
                l.trim_matches('|')
                    .split(" | ")
                    .map(|c| c.trim().to_string())
                    .collect()
            })
            .collect();
        let table = html
            .split(&format!("<table class=\"{class}\">"))
            .nth(1)
            .unwrap()
            .split("</table>")
            .next()
            .unwrap();
        let html_rows: Vec<Vec<String>> = table
            .split("<tbody>")
            .nth(1)
            .unwrap()
            .split("<tr>")
            .skip(1)
            .map(|row| {
                row.split("<td")
                    .skip(1)
                    .map(|c| {
                        let text = c.split_once('>').unwrap().1;
                        text.split("</td>")
                            .next()
                            .unwrap()
                            .replace("&lt;", "<")
                            .replace("&gt;", ">")
                            .replace("&quot;", "\"")
                            .replace("&amp;", "&")
                    })
                    .collect()
            })
            .collect();
        assert!(!md_rows.is_empty(), "{heading}");
        assert_eq!(html_rows, md_rows, "{heading} in report.html and report.md");
    }
}

/// Every tag of `html` closes in order (void elements and `/>` aside).
pub(crate) fn tags_close_in_order(html: &str) {
    const VOID: [&str; 4] = ["meta", "br", "hr", "input"];
    let mut open: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').expect("a tag ends");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let top = open.pop().unwrap_or_default();
            assert_eq!(top, name.trim(), "</{name}> closes <{top}>");
            continue;
        }
        let name = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap()
            .to_string();
        if tag.ends_with('/') || VOID.contains(&name.as_str()) {
            continue;
        }
        if name == "style" {
            let close = rest.find("</style>").expect("</style>");
            rest = &rest[close + "</style>".len()..];
            continue;
        }
        open.push(name);
    }
    assert!(open.is_empty(), "left open: {open:?}");
}

pub(crate) fn strings(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|s| s.to_string()).collect()
}
