//! The floors of the house, held. The library is built in floors, each using
//! only the floors below it; the binaries (`src/bin/`) are the front ends on
//! top. This test reads every `use` and every `crate::`/`super::`/`self::`
//! path in `src/` and fails, naming the file and the line, where a module
//! reaches up or sideways across floors, where code above the games names
//! a game instead of going through the registry, where modules import each
//! other in a circle, or where the library uses a front end's crate. The
//! floors are the table below; `docs/design/layers.md` draws the same.
//!
//! It reads the code as text: comments and string literals are blanked
//! first, and `#[cfg(test)]` code is known as such (a unit test may use any
//! game as its fixture; it is still held to the floors).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The rooms of the library (its top-level modules) and their floors, from
/// the ground up. A room may use its own modules and the rooms of lower
/// floors, nothing else.
const FLOORS: &[(&str, u32, &str)] = &[
    ("options", 0, "rule options"),
    ("interrupt", 0, "interruption"),
    ("cpu", 0, "the CPU's features"),
    ("game", 1, "what every game offers"),
    ("variants", 2, "the games and their registry"),
    ("search", 3, "the search"),
    ("solve", 3, "the solver and the databases"),
    ("perft", 3, "perft"),
    ("draw", 3, "board drawings"),
    ("protocol", 4, "the text protocol"),
    ("arena", 4, "the tournament runner"),
    ("tune", 4, "the evaluation fitter"),
];

/// The room that holds the games. Above it, a game is reached through the
/// registry (the room's own `mod.rs`: `Variant`, the visitors), never by
/// its module.
const GAMES: &str = "variants";

/// Crates that only front ends (`src/bin/`) may use.
const FRONT_END_CRATES: &[&str] = &["clap", "clap_complete", "indicatif", "anyhow"];

/// One source file: its path as shown in messages and its text.
struct Source {
    path: String,
    text: String,
}

/// A path found in a file: where, what it says, and the module it names.
struct Reference {
    line: usize,
    text: String,
    /// The module the path was written in (file module and inline ones).
    from: Vec<String>,
    /// The file module it reaches.
    to: Vec<String>,
    in_test: bool,
    /// A `pub use` of the module's own descendant: the module's face, not
    /// an import of its code (a folder's `mod.rs` names what its files
    /// offer).
    re_export: bool,
}

/// `text` with comments, string and char literals blanked (newlines kept,
/// so that offsets still give line numbers).
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            let end = b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |e| i + e);
            blank(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if b[i] == b'r'
            && (b[i + 1..].starts_with(b"\"") || b[i + 1..].starts_with(b"#"))
            && (i == 0 || !is_ident(b[i - 1]))
        {
            // A raw string: r"..." or r#"..."#.
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let start = i + 2 + hashes;
            let end = b[start..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |e| start + e + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, (j + 1).min(b.len()));
            i = j + 1;
        } else if b[i] == b'\'' {
            // A char literal ('a', '\n', '\u{..}'), not a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 3..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map(|e| i + 3 + e)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(i + 2)
            } else {
                // A multi-byte char: find its closing quote within 5 bytes.
                (i + 2..(i + 6).min(b.len()))
                    .find(|&j| b[j] == b'\'')
                    .filter(|_| !b[i + 1].is_ascii())
            };
            match end {
                Some(e) => {
                    blank(&mut out, i, e + 1);
                    i = e + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were written over")
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The identifier starting at `i`, if any.
fn ident_at(b: &[u8], i: usize) -> Option<&str> {
    if i > 0 && is_ident(b[i - 1]) {
        return None;
    }
    let len = b[i..].iter().take_while(|&&c| is_ident(c)).count();
    (len > 0).then(|| std::str::from_utf8(&b[i..i + len]).unwrap())
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    fn rec(prefix: &str, t: &str, out: &mut Vec<String>) {
        match t.find('{') {
            None => out.push(format!("{prefix}{t}")),
            Some(open) => {
                let head = &t[..open];
                let body = &t[open + 1..t.len() - 1];
                let mut depth = 0;
                let mut start = 0;
                let mut parts = Vec::new();
                for (k, c) in body.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            parts.push(&body[start..k]);
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                parts.push(&body[start..]);
                for p in parts.into_iter().filter(|p| !p.is_empty()) {
                    rec(&format!("{prefix}{head}"), p, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    rec("", &tree, &mut out);
    out
}

/// The module path of a library file: `src/solve/egtb/mod.rs` is
/// `solve::egtb`, `src/lib.rs` the crate root.
fn module_of(rel: &str) -> Vec<String> {
    let rel = rel.strip_prefix("src/").unwrap_or(rel);
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut segs: Vec<String> = rel.split('/').map(str::to_string).collect();
    if segs.last().is_some_and(|s| s == "mod" || s == "lib") {
        segs.pop();
    }
    segs
}

/// Inline modules and the items of a file, found by one pass over its
/// stripped text: for every offset, the inline module path and whether it
/// is test code.
struct Layout {
    /// (start, end, name, is_test) of every inline `mod name { ... }`.
    inline: Vec<(usize, usize, String, bool)>,
    /// Modules declared `mod name;` (files), with whether `#[cfg(test)]`.
    declared: Vec<(String, bool)>,
}

fn cfg_test_before(b: &[u8], at: usize) -> bool {
    // The attributes of an item stand between the end of the previous item
    // or block and its keyword.
    let start = b[..at]
        .iter()
        .rposition(|&c| c == b';' || c == b'}' || c == b'{')
        .map_or(0, |p| p + 1);
    let attrs: String = String::from_utf8_lossy(&b[start..at])
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    attrs.contains("#[cfg(test)]")
}

fn layout(stripped: &str) -> Layout {
    let b = stripped.as_bytes();
    let mut inline = Vec::new();
    let mut declared = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if ident_at(b, i) == Some("mod") {
            let mut j = i + 3;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if let Some(name) = ident_at(b, j) {
                let name = name.to_string();
                let mut k = j + name.len();
                while k < b.len() && b[k].is_ascii_whitespace() {
                    k += 1;
                }
                let test = cfg_test_before(b, i);
                if b.get(k) == Some(&b';') {
                    declared.push((name, test));
                } else if b.get(k) == Some(&b'{') {
                    let mut depth = 0;
                    let mut e = k;
                    while e < b.len() {
                        match b[e] {
                            b'{' => depth += 1,
                            b'}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        e += 1;
                    }
                    inline.push((k, e, name, test));
                }
                i = k;
                continue;
            }
        }
        i += 1;
    }
    Layout { inline, declared }
}

/// The library's files: module path → (shown path, stripped text).
type Files = BTreeMap<Vec<String>, (String, String)>;

/// Macros exported at the crate root (`crate::name!`), by the module that
/// defines them.
fn exported_macros(files: &Files) -> BTreeMap<String, Vec<String>> {
    let mut found = BTreeMap::new();
    for (module, (_, text)) in files {
        let mut rest = text.as_str();
        while let Some(at) = rest.find("#[macro_export]") {
            rest = &rest[at..];
            if let Some(m) = rest.find("macro_rules!") {
                let name: String = rest[m + 12..]
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.insert(name, module.clone());
            }
            rest = &rest[15..];
        }
    }
    found
}

/// The file module a path written in `from` reaches, if it is a path into
/// this crate.
fn resolve(
    path: &str,
    from: &[String],
    children: &BTreeSet<String>,
    files: &Files,
    macros: &BTreeMap<String, Vec<String>>,
) -> Option<Vec<String>> {
    let segs: Vec<&str> = path
        .split("::")
        .map(|s| s.split(" as ").next().unwrap_or(s))
        .filter(|s| !s.is_empty() && *s != "*")
        .collect();
    let first = *segs.first()?;
    let (mut full, rest): (Vec<String>, &[&str]) = match first {
        "crate" => (Vec::new(), &segs[1..]),
        "self" => (from.to_vec(), &segs[1..]),
        "super" => {
            let ups = segs.iter().take_while(|s| **s == "super").count();
            let base = from.len().checked_sub(ups)?;
            (from[..base].to_vec(), &segs[ups..])
        }
        // 2018 paths: a child module of the module written in.
        child if children.contains(child) => (from.to_vec(), &segs[..]),
        _ => return None,
    };
    if full.is_empty()
        && let Some(first) = rest.first()
        && let Some(module) = macros.get(*first)
    {
        return Some(module.clone());
    }
    full.extend(rest.iter().filter(|s| **s != "self").map(|s| s.to_string()));
    (0..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| files.contains_key(m))
}

/// Every path into the crate that the library's files write.
fn references(files: &Files, test_files: &BTreeSet<Vec<String>>) -> Vec<Reference> {
    let macros = exported_macros(files);
    let mut out = Vec::new();
    for (module, (_, text)) in files {
        let lay = layout(text);
        let b = text.as_bytes();
        let line_of = |at: usize| text[..at].bytes().filter(|&c| c == b'\n').count() + 1;
        // The inline module path and test flag at an offset.
        let place = |at: usize| {
            let mut m = module.clone();
            let mut test = test_files.contains(module);
            for (s, e, name, t) in &lay.inline {
                if *s < at && at < *e {
                    m.push(name.clone());
                    test |= *t;
                }
            }
            (m, test)
        };
        // The child modules visible where a path is written: the file's
        // declared modules, and inline ones.
        let children_at = |m: &[String]| -> BTreeSet<String> {
            let mut c: BTreeSet<String> = BTreeSet::new();
            if m == module.as_slice() {
                c.extend(lay.declared.iter().map(|(n, _)| n.clone()));
            }
            for (_, _, name, _) in &lay.inline {
                c.insert(name.clone());
            }
            c
        };
        let mut push = |at: usize, path: &str, public: bool| {
            let (from, in_test) = place(at);
            let children = children_at(&from);
            if let Some(to) = resolve(path, &from, &children, files, &macros)
                && to != *module
            {
                out.push(Reference {
                    line: line_of(at),
                    text: path.to_string(),
                    re_export: public && to.starts_with(&from),
                    from,
                    to,
                    in_test,
                });
            }
        };
        let mut i = 0;
        while i < b.len() {
            match ident_at(b, i) {
                Some("use") => {
                    let end = text[i..].find(';').map_or(b.len(), |e| i + e);
                    // `pub use`, `pub(crate) use`: the words before it.
                    let before = text[..i].trim_end();
                    let public = before.ends_with("pub")
                        || before.ends_with(')') && {
                            let open = before.rfind('(').unwrap_or(0);
                            before[..open].trim_end().ends_with("pub")
                        };
                    for path in expand(&text[i + 3..end]) {
                        push(i, &path, public);
                    }
                    i = end;
                }
                Some(word @ ("crate" | "super" | "self"))
                    if b[i + word.len()..].starts_with(b"::") =>
                {
                    let len = b[i..]
                        .iter()
                        .take_while(|&&c| is_ident(c) || c == b':')
                        .count();
                    push(i, &text[i..i + len], false);
                    i += len;
                }
                Some(word) => i += word.len(),
                None => i += 1,
            }
        }
    }
    out
}

fn floor_of(room: &str) -> Option<(u32, &'static str)> {
    FLOORS
        .iter()
        .find(|(r, _, _)| *r == room)
        .map(|&(_, f, what)| (f, what))
}

/// Every breach of the floors in `library` (paths under `src/`, not
/// `src/bin/`) and, for the front-end crates, in all of them.
fn check(library: &[Source]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut files: Files = BTreeMap::new();
    for s in library {
        files.insert(module_of(&s.path), (s.path.clone(), strip(&s.text)));
    }
    // Files declared `#[cfg(test)] mod name;` are test code throughout.
    let mut test_files = BTreeSet::new();
    for (module, (_, text)) in &files {
        for (name, test) in layout(text).declared {
            if test {
                let mut m = module.clone();
                m.push(name);
                test_files.insert(m);
            }
        }
    }
    for (module, (path, _)) in &files {
        if let Some(room) = module.first()
            && floor_of(room).is_none()
        {
            problems.push(format!(
                "{path}: the room '{room}' is on no floor: add it to FLOORS in tests/layers.rs and to docs/design/layers.md"
            ));
        }
    }
    let refs = references(&files, &test_files);
    let shown = |m: &[String]| &files[m].0;
    for r in &refs {
        let (Some(from_room), Some(to_room)) = (r.from.first(), r.to.first()) else {
            continue;
        };
        let (Some((from_floor, from_what)), Some((to_floor, to_what))) =
            (floor_of(from_room), floor_of(to_room))
        else {
            continue;
        };
        let at = format!("{}:{}: `{}`", shown(&r.source_file(&files)), r.line, r.text);
        if from_room != to_room {
            if to_floor > from_floor {
                problems.push(format!(
                    "{at} reaches up from {from_room} (floor {from_floor}, {from_what}) to {to_room} (floor {to_floor}, {to_what})"
                ));
            } else if to_floor == from_floor {
                problems.push(format!(
                    "{at} reaches sideways from {from_room} to {to_room} (both on floor {from_floor}): move what both need to a lower floor"
                ));
            }
        }
        let games_floor = floor_of(GAMES).expect("the games' room has a floor").0;
        if from_floor > games_floor && to_room == GAMES && r.to.len() > 1 && !r.in_test {
            problems.push(format!(
                "{at} names the game module {}: above {GAMES}/, games are reached through the registry ({GAMES}/mod.rs) and the ground floor's traits",
                r.to.join("::")
            ));
        }
    }
    // Circles between files, through any chain of imports (a module's
    // re-exports of its own files are its face, not imports).
    let mut graph: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = BTreeMap::new();
    for r in refs.iter().filter(|r| !r.re_export) {
        let from = r.source_file(&files);
        let from = files.get_key_value(&from).expect("a file").0;
        let to = files.get_key_value(&r.to).expect("a file").0;
        if from != to {
            graph.entry(from).or_default().insert(to);
        }
    }
    for circle in circles(&graph) {
        let names: Vec<&str> = circle.iter().map(|m| shown(m).as_str()).collect();
        let mut ties: Vec<String> = Vec::new();
        for a in &circle {
            for r in refs.iter().filter(|r| !r.re_export) {
                if r.source_file(&files) == **a && circle.contains(&&r.to) {
                    ties.push(format!("{}:{} `{}`", shown(a), r.line, r.text));
                }
            }
        }
        problems.push(format!(
            "the files {} import each other in a circle: {}",
            names.join(", "),
            ties.join("; ")
        ));
    }
    problems
}

impl Reference {
    /// The file module the path was written in.
    fn source_file(&self, files: &Files) -> Vec<String> {
        (0..=self.from.len())
            .rev()
            .map(|k| self.from[..k].to_vec())
            .find(|m| files.contains_key(m))
            .expect("the crate root is a file")
    }
}

/// The strongly connected components of more than one file (Tarjan).
fn circles<'a>(
    graph: &BTreeMap<&'a Vec<String>, BTreeSet<&'a Vec<String>>>,
) -> Vec<Vec<&'a Vec<String>>> {
    struct State<'a> {
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<&'a Vec<String>>>,
    }
    fn visit<'a>(
        v: &'a Vec<String>,
        g: &BTreeMap<&'a Vec<String>, BTreeSet<&'a Vec<String>>>,
        s: &mut State<'a>,
    ) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for &w in g.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, g, s);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for &v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(v, graph, &mut s);
        }
    }
    s.out
}

/// Uses of the front ends' crates in library files.
fn front_end_crates_in(library: &[Source]) -> Vec<String> {
    let mut found = Vec::new();
    for s in library {
        let text = strip(&s.text);
        let b = text.as_bytes();
        for (n, line) in text.lines().enumerate() {
            let _ = b;
            for krate in FRONT_END_CRATES {
                let lb = line.as_bytes();
                let hit = line.match_indices(krate).any(|(k, _)| {
                    ident_at(lb, k) == Some(krate)
                        && (lb[k + krate.len()..].starts_with(b"::")
                            || line[..k].trim_end().ends_with("use")
                            || line[..k].trim_end().ends_with("extern crate"))
                });
                if hit {
                    found.push(format!(
                        "{}:{}: uses {krate}, which only front ends (src/bin/) may",
                        s.path,
                        n + 1
                    ));
                }
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The library's files (everything under `src/` but `src/bin/`).
fn library() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    rust_files(&root.join("src"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter(|p| !p.starts_with(root.join("src/bin")))
        .map(|p| Source {
            path: p.strip_prefix(root).unwrap().display().to_string(),
            text: std::fs::read_to_string(&p).unwrap(),
        })
        .collect()
}

#[test]
fn every_module_stands_on_its_floor_and_no_circle_closes() {
    let library = library();
    assert!(library.len() > 30, "the library's files were not found");
    let problems = check(&library);
    assert!(
        problems.is_empty(),
        "the floors are broken:\n{}",
        problems.join("\n")
    );
}

#[test]
fn clap_indicatif_and_anyhow_stay_in_the_front_ends() {
    let found = front_end_crates_in(&library());
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_floors_table_names_every_room_of_the_library() {
    // Every top-level module of src/lib.rs is a room with a floor, and
    // every room of the table exists.
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let declared: BTreeSet<String> = layout(&strip(&lib))
        .declared
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let table: BTreeSet<String> = FLOORS.iter().map(|(r, _, _)| r.to_string()).collect();
    assert_eq!(declared, table);
}

// The checker itself, on a small made-up library: each kind of breach is
// found and named by file and line.

fn house(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(p, t)| Source {
            path: p.to_string(),
            text: t.to_string(),
        })
        .collect()
}

const LIB: &str = "pub mod game;\npub mod variants;\npub mod search;\npub mod solve;\n";

#[test]
fn a_module_that_reaches_up_is_named_with_its_line() {
    let found = check(&house(&[
        ("src/lib.rs", LIB),
        ("src/game/mod.rs", "pub trait Game {}\n"),
        (
            "src/variants/mod.rs",
            "pub mod oware;\nuse crate::game::Game;\n",
        ),
        (
            "src/variants/oware.rs",
            "use crate::game::Game;\n\n// crate::solve::x in a comment is no import\nuse crate::solve::Egtb;\n",
        ),
        (
            "src/solve/mod.rs",
            "pub struct Egtb;\nuse crate::game::Game;\n",
        ),
        ("src/search/mod.rs", "use crate::game::Game;\n"),
    ]));
    assert_eq!(
        found,
        [
            "src/variants/oware.rs:4: `crate::solve::Egtb` reaches up from variants (floor 2, the games and their registry) to solve (floor 3, the solver and the databases)"
        ]
    );
}

#[test]
fn sideways_game_names_and_circles_are_named() {
    let found = check(&house(&[
        ("src/lib.rs", LIB),
        ("src/game/mod.rs", "pub trait Game {}\n"),
        (
            "src/variants/mod.rs",
            "pub mod kalah;\npub struct Variant;\n",
        ),
        ("src/variants/kalah.rs", "pub struct Kalah;\n"),
        (
            "src/search/mod.rs",
            "use crate::solve::Egtb;\nuse crate::variants::Variant;\n",
        ),
        (
            "src/solve/mod.rs",
            "mod a;\nmod b;\npub struct Egtb;\nfn f() { let _ = crate::variants::kalah::Kalah; }\n#[cfg(test)]\nmod tests {\n    use crate::variants::kalah::Kalah;\n}\n",
        ),
        ("src/solve/a.rs", "use super::b::B;\npub struct A;\n"),
        ("src/solve/b.rs", "pub struct B;\nuse super::a::{A};\n"),
    ]));
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].starts_with(
        "src/search/mod.rs:1: `crate::solve::Egtb` reaches sideways from search to solve"
    ));
    assert!(found[1].starts_with(
        "src/solve/mod.rs:4: `crate::variants::kalah::Kalah` names the game module variants::kalah"
    ));
    assert!(
        found[2].starts_with("the files src/solve/a.rs, src/solve/b.rs import each other")
            || found[2].starts_with("the files src/solve/b.rs, src/solve/a.rs import each other"),
        "{}",
        found[2]
    );
}

#[test]
fn front_end_crates_are_found_in_library_files() {
    let found = front_end_crates_in(&house(&[(
        "src/solve/mod.rs",
        "// anyhow in a comment is fine\nuse anyhow::Result;\nfn f() -> clap::Command { todo!() }\nconst S: &str = \"indicatif::ProgressBar\";\n",
    )]));
    assert_eq!(
        found,
        [
            "src/solve/mod.rs:2: uses anyhow, which only front ends (src/bin/) may",
            "src/solve/mod.rs:3: uses clap, which only front ends (src/bin/) may"
        ]
    );
}
