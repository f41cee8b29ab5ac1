//! The documents' own rules: the README stays short, no Markdown table cell
//! of the repository grows into an essay, every relative link resolves (the
//! anchor too), and the README and the guide hold no dates and no history
//! (figures with their dates go to docs/PERFORMANCE.md, changes to
//! CHANGELOG.md).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const README_LINES: usize = 300;
const CELL_CHARS: usize = 300;

/// Every Markdown file of the repository (not under target/ or .git/).
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    walk(&p, out);
                }
            } else if name.ends_with(".md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new(ROOT), &mut out);
    out.sort();
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(ROOT).unwrap().display().to_string()
}

/// The lines of a Markdown text outside fenced blocks, with their numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (n, l) in text.lines().enumerate() {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((n + 1, l));
        }
    }
    out
}

/// The cells of a table row: split at `|` outside inline code and not
/// escaped.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim();
    let row = row.strip_prefix('|').unwrap_or(row);
    let row = row.strip_suffix('|').unwrap_or(row);
    let mut out = vec![String::new()];
    let mut code = false;
    let mut prev = ' ';
    for c in row.chars() {
        match c {
            '`' => code = !code,
            '|' if !code && prev != '\\' => {
                out.push(String::new());
                prev = c;
                continue;
            }
            _ => {}
        }
        out.last_mut().unwrap().push(c);
        prev = c;
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

#[test]
fn the_readme_is_read_in_five_minutes() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let n = text.lines().count();
    assert!(
        n <= README_LINES,
        "README.md has {n} lines, more than {README_LINES}"
    );
}

#[test]
fn no_table_cell_is_an_essay() {
    let mut long = Vec::new();
    for f in markdown_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, l) in prose(&text) {
            if !l.trim_start().starts_with('|') {
                continue;
            }
            for c in cells(l) {
                let len = c.chars().count();
                if len > CELL_CHARS {
                    long.push(format!(
                        "{}:{n}: a cell of {len} characters: {}…",
                        rel(&f),
                        c.chars().take(60).collect::<String>()
                    ));
                }
            }
        }
    }
    assert!(
        long.is_empty(),
        "table cells over {CELL_CHARS} characters:\n{}",
        long.join("\n")
    );
}

#[test]
fn cells_split_outside_code() {
    assert_eq!(cells("| a | `b|c` | d \\| e |"), ["a", "`b|c`", "d \\| e"]);
}

/// GitHub's anchors of a page's headings: lower case, punctuation dropped
/// (but `-` and `_`), spaces to `-`, a repeat numbered.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, l) in prose(text) {
        let Some(title) = l.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let k = seen.entry(slug.clone()).or_insert(0);
        out.push(if *k == 0 {
            slug.clone()
        } else {
            format!("{slug}-{k}")
        });
        *k += 1;
    }
    out
}

/// The targets of `[text](target)` and `![alt](target)` in the prose, inline
/// code left out.
fn links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut plain = String::new();
    for (k, part) in line.split('`').enumerate() {
        if k % 2 == 0 {
            plain.push_str(part);
        }
        plain.push(' ');
    }
    let mut rest = plain.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].to_string());
        rest = &after[end..];
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    let mut anchor_cache: HashMap<PathBuf, Vec<String>> = HashMap::new();
    for f in markdown_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, l) in prose(&text) {
            for target in links(l) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let file = if path.is_empty() {
                    f.clone()
                } else {
                    f.parent().unwrap().join(path)
                };
                if !file.exists() {
                    broken.push(format!("{}:{n}: {target}: no such file", rel(&f)));
                    continue;
                }
                if let Some(a) = anchor {
                    let known = anchor_cache.entry(file.clone()).or_insert_with(|| {
                        anchors(&std::fs::read_to_string(&file).unwrap_or_default())
                    });
                    if !known.iter().any(|k| k == a) {
                        broken.push(format!("{}:{n}: {target}: no heading for #{a}", rel(&f)));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Words that tell a history rather than how things are.
const HISTORY: &[&str] = &[
    "earlier version",
    "earlier figure",
    "previously",
    "formerly",
    "used to ",
    "no longer",
    "before this",
    "before the change",
    "before, it",
    "since the change",
    "this release",
    "this version",
    "at the time",
    "was changed",
    "we tried",
];

/// The README and the guide hold no dates, years or history: those are the
/// changelog's and the performance document's.
#[test]
fn the_readme_and_the_guide_tell_no_history() {
    let mut pages = vec![
        Path::new(ROOT).join("README.md"),
        Path::new(ROOT).join("docs/FAQ.md"),
    ];
    for e in std::fs::read_dir(Path::new(ROOT).join("docs/guide")).unwrap() {
        pages.push(e.unwrap().path());
    }
    let mut found = Vec::new();
    for p in pages {
        let text = std::fs::read_to_string(&p).unwrap();
        for (n, l) in text.lines().enumerate() {
            let lower = l.to_lowercase();
            for w in HISTORY {
                if lower.contains(w) {
                    found.push(format!("{}:{}: '{w}': {l}", rel(&p), n + 1));
                }
            }
            // A date or a year (1990 to 2039) in prose.
            let digits: Vec<char> = l.chars().collect();
            for i in 0..digits.len().saturating_sub(3) {
                let year = &digits[i..i + 4];
                let before = if i == 0 { ' ' } else { digits[i - 1] };
                let after = digits.get(i + 4).copied().unwrap_or(' ');
                if year.iter().all(char::is_ascii_digit)
                    && (year[0..3] == ['1', '9', '9']
                        || (year[0..2] == ['2', '0'] && ('0'..='3').contains(&year[2])))
                    && !before.is_ascii_alphanumeric()
                    && !(after.is_ascii_alphanumeric())
                    && before != ','
                    && after != ','
                {
                    found.push(format!("{}:{}: a year or date: {l}", rel(&p), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "history in the README or the guide:\n{}",
        found.join("\n")
    );
}

/// The specification's options table lists every engine option of the
/// binary's table (`protocol/options.rs`) with its kind, range and default,
/// so that the option is declared once and the page follows it.
#[test]
fn the_specification_lists_every_engine_option_as_declared() {
    use kete::protocol::options::{ENGINE_OPTIONS, Kind};
    let spec = std::fs::read_to_string(Path::new(ROOT).join("protocol/README.md")).unwrap();
    for o in ENGINE_OPTIONS {
        let (kind, default) = match o.kind {
            Kind::Spin { min, max, default } => (format!("spin {min}..{max}"), default.to_string()),
            Kind::Check { default } => ("check".to_string(), default.to_string()),
            Kind::Combo { default, .. } => ("combo".to_string(), format!("`{default}`")),
            Kind::String { default } => ("string".to_string(), format!("`{default}`")),
        };
        let row = format!("| `{}` | {kind} | {default} | ", o.name);
        assert!(
            spec.lines().any(|l| l.starts_with(&row)),
            "protocol/README.md has no options row starting '{row}'"
        );
    }
}

/// Every field of the description format (a `pub` field of a section or
/// table in `src/variants/described/spec.rs`) is in the guide's table of
/// fields, written as a file writes it.
#[test]
fn the_guide_lists_every_description_field() {
    let spec =
        std::fs::read_to_string(Path::new(ROOT).join("src/variants/described/spec.rs")).unwrap();
    let guide =
        std::fs::read_to_string(Path::new(ROOT).join("docs/guide/10-describing.md")).unwrap();
    let mut section = "";
    let mut missing = Vec::new();
    let mut seen = 0;
    for line in spec.lines() {
        if let Some(rest) = line.strip_prefix("pub struct ") {
            section = rest.split_whitespace().next().unwrap_or("");
            continue;
        }
        // The sections of the file and their tables; `Spec` itself holds
        // the sections, and `[check]`'s lists hold entries of their own.
        let is_section = !["Spec", "LudiiDiffers", "Known", "SpecError"].contains(&section);
        let Some(field) = line.strip_prefix("    pub ") else {
            continue;
        };
        let Some((name, _)) = field.split_once(':') else {
            continue;
        };
        if !is_section || name.contains(' ') {
            continue;
        }
        seen += 1;
        let written = name.replace('_', "-");
        // A field that holds a table is written as its heading.
        if !guide.contains(&format!("`{written}`")) && !guide.contains(&format!(".{written}]`")) {
            missing.push(format!("{section}: {written}"));
        }
    }
    assert!(seen > 40, "only {seen} fields found in spec.rs");
    assert!(
        missing.is_empty(),
        "fields not in the guide's table: {missing:?}"
    );
}

/// The Gymnasium id of a variant, as `python/kete/gymnasium.py` makes it:
/// its name's words capitalised and joined (En Dodoi's as its players
/// write it).
fn env_id(variant: &str) -> String {
    if variant == "endodoi" {
        return "kete/EnDodoi-v0".into();
    }
    let words: String = variant
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    format!("kete/{words}-v0")
}

/// Every word of `text` that starts with `prefix` and runs on through
/// `ok` characters.
fn words_with(text: &str, prefix: &str, ok: fn(char) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let tail = &rest[at + prefix.len()..];
        let end = tail.find(|c: char| !ok(c)).unwrap_or(tail.len());
        out.push(format!("{prefix}{}", &tail[..end]));
        rest = &tail[end..];
    }
    out
}

/// The lists of games, aliases, Gymnasium ids and OpenSpiel names in the
/// README and the guide are the registries': every game kete plays by its
/// own module is listed, and every name given is one kete answers to.
#[test]
fn the_docs_list_the_games_their_aliases_and_ids_as_registered() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let own: Vec<&str> = kete::variants::VARIANT_NAMES.to_vec();
    let every: Vec<&str> = kete::variants::variant_names();

    // The README's table: one row for each of kete's own games.
    let readme = read("README.md");
    let listed: Vec<String> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| game | `--variant`"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| cells(l).get(1).cloned())
        .filter(|c| c.starts_with('`'))
        .map(|c| c.trim_matches('`').to_string())
        .collect();
    assert_eq!(listed, own, "README's games table");

    // Chapter 1: each game with its aliases, as the registry has them.
    let games = read("docs/guide/01-games.md");
    let rows: Vec<(String, Vec<String>)> = games
        .lines()
        .skip_while(|l| !l.starts_with("| `--variant`"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let c = cells(l);
            let name = c[0]
                .split_whitespace()
                .next()
                .unwrap()
                .trim_matches('`')
                .to_string();
            let aliases = c[1]
                .split(',')
                .map(|a| a.trim().trim_matches('`').to_string())
                .filter(|a| !a.is_empty())
                .collect();
            (name, aliases)
        })
        .collect();
    let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, own, "chapter 1's table of games");
    for (name, aliases) in &rows {
        assert_eq!(
            aliases,
            &kete::variants::aliases_of(name),
            "chapter 1's aliases of {name}"
        );
    }

    // Gymnasium ids and OpenSpiel names: each of kete's own games listed,
    // and every one mentioned anywhere in the docs is a variant's.
    let learning = read("docs/guide/09-learning.md");
    let docs: String = markdown_files()
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let ids: Vec<String> = every.iter().map(|v| env_id(v)).collect();
    let spiel: Vec<String> = every
        .iter()
        .map(|v| format!("kete_{}", v.replace('-', "_")))
        .collect();
    for v in &own {
        assert!(
            learning.contains(&env_id(v)),
            "chapter 9 lists no {}",
            env_id(v)
        );
        let name = format!("`kete_{}`", v.replace('-', "_"));
        assert!(learning.contains(&name), "chapter 9 lists no {name}");
    }
    for id in words_with(&docs, "kete/", |c| c.is_ascii_alphanumeric() || c == '-') {
        if id.ends_with("-v0") {
            assert!(ids.contains(&id), "{id} is no registered Gymnasium id");
        }
    }
    for name in words_with(&learning, "kete_", |c| c.is_ascii_lowercase() || c == '_') {
        assert!(
            spiel.contains(&name),
            "{name} is no OpenSpiel game of kete's"
        );
    }
}
