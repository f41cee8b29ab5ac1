//! The command-line reference, `docs/cli.md`, is the `--help` of every
//! command and subcommand of `kete` and `kete-arena`, rendered here from the
//! built programs: the test fails when a flag or its help changed without
//! the file. `KETE_BLESS=1 cargo test --release --test cli` writes it anew.

use std::path::Path;
use std::process::Command;

use kete::variants::Variant;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const FILE: &str = "docs/cli.md";

/// `--help` of `bin` with the arguments `path`.
fn help(bin: &str, path: &[&str]) -> String {
    let out = Command::new(bin)
        .args(path)
        .arg("--help")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    assert!(out.status.success(), "{bin} {path:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a help text lists under `Commands:` (clap's own `help`
/// left out: it prints these same texts).
fn subcommands(help: &str) -> Vec<String> {
    let Some(at) = help.find("\nCommands:\n") else {
        return Vec::new();
    };
    help[at + 11..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Every command of `bin` below `path`, depth first: (its words, its help).
fn commands(bin: &str, name: &str, path: Vec<String>, out: &mut Vec<(String, String)>) {
    let args: Vec<&str> = path.iter().map(String::as_str).collect();
    let text = help(bin, &args);
    let title = std::iter::once(name)
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let subs = subcommands(&text);
    out.push((title, text));
    for s in subs {
        let mut p = path.clone();
        p.push(s);
        commands(bin, name, p, out);
    }
}

fn all_commands() -> Vec<(String, String)> {
    let mut out = Vec::new();
    commands(env!("CARGO_BIN_EXE_kete"), "kete", Vec::new(), &mut out);
    commands(
        env!("CARGO_BIN_EXE_kete-arena"),
        "kete-arena",
        Vec::new(),
        &mut out,
    );
    out
}

/// GitHub's anchor of a heading made of words, spaces and hyphens.
fn anchor(title: &str) -> String {
    title.to_lowercase().replace(' ', "-")
}

fn render() -> String {
    let commands = all_commands();
    let mut md = String::from(
        "# Command-line reference\n\n\
         The `--help` of every command of `kete` and `kete-arena`, as the programs print it.\n\
         `tests/cli.rs` renders this file from the built programs and fails when it differs;\n\
         after changing a flag or its help, write it anew with\n\
         `KETE_BLESS=1 cargo test --release --test cli`. The guide explains the commands:\n\
         [docs/README.md](README.md).\n\n\
         Without a subcommand `kete` is the engine on stdin/stdout; its commands and options\n\
         are in [protocol/README.md](../protocol/README.md).\n\n",
    );
    for (title, _) in &commands {
        let depth = title.split(' ').count() - 1;
        md.push_str(&format!(
            "{}- [{title}](#{})\n",
            "  ".repeat(depth),
            anchor(title)
        ));
    }
    for (title, text) in &commands {
        md.push_str(&format!(
            "\n## {title}\n\n```text\n{}\n```\n",
            text.trim_end()
        ));
    }
    md
}

#[test]
fn the_reference_is_the_programs_help() {
    let path = Path::new(ROOT).join(FILE);
    let now = render();
    if std::env::var_os("KETE_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let on_file = std::fs::read_to_string(&path).unwrap_or_default();
    if on_file != now {
        let first = on_file
            .lines()
            .zip(now.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(on_file.lines().count().min(now.lines().count()));
        panic!(
            "{FILE} is not the programs' --help (first difference at line {}: {:?}); \
             write it anew with KETE_BLESS=1 cargo test --release --test cli",
            first + 1,
            now.lines().nth(first)
        );
    }
}

/// Every subcommand's help ends with an example, and `kete --help` says
/// what kete does without one.
#[test]
fn every_help_has_an_example_and_kete_says_it_is_the_engine() {
    for (title, text) in all_commands() {
        assert!(
            text.contains("\nExample"),
            "`{title} --help` has no example"
        );
    }
    let top = help(env!("CARGO_BIN_EXE_kete"), &[]);
    for needed in ["Without a subcommand", "UGI", "stdin/stdout", "`help`"] {
        assert!(
            top.contains(needed),
            "kete --help does not say '{needed}':\n{top}"
        );
    }
    let perft = help(env!("CARGO_BIN_EXE_kete"), &["perft"]);
    let depth = perft
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("--depth"))
        .take(2)
        .collect::<String>();
    assert!(
        depth.contains("moves"),
        "kete perft --help: --depth: {depth}"
    );
}

/// Every flag of every command has a help text of its own.
#[test]
fn every_flag_says_what_it_does() {
    for (title, text) in all_commands() {
        let lines: Vec<&str> = text.lines().collect();
        let mut in_section = false;
        for (k, l) in lines.iter().enumerate() {
            // Only the `Options:` and `Arguments:` sections list flags.
            if !l.starts_with(' ') && !l.is_empty() {
                in_section = *l == "Options:" || *l == "Arguments:";
                continue;
            }
            let t = l.trim_start();
            if !in_section || !(t.starts_with('-') || t.starts_with('<')) {
                continue;
            }
            // The help is on the line (after two spaces) or on the next.
            let own = t
                .split_once("  ")
                .is_some_and(|(_, h)| !h.trim().is_empty());
            let next = lines.get(k + 1).is_some_and(|n| {
                let n = n.trim_start();
                !n.is_empty() && !n.starts_with('-') && !n.starts_with('<')
            });
            assert!(own || next, "`{title} --help`: '{t}' has no help");
        }
    }
}

/// The other names `--variant` lists are the registry's.
#[test]
fn the_variant_names_in_the_help_are_the_registrys() {
    let perft = help(env!("CARGO_BIN_EXE_kete"), &["perft"]);
    let from = perft.find("(other names: ").unwrap() + 14;
    let list = &perft[from..perft[from..].find("); or a described game").unwrap() + from];
    let mut seen = 0;
    for item in list.split("), ") {
        let (names, canonical) = item.split_once(" (").unwrap();
        let canonical = canonical.trim_end_matches(')');
        for name in names.split(" and ").flat_map(|n| n.split(", ")) {
            let v = Variant::by_name(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(v.name(), canonical, "{name}");
            seen += 1;
        }
    }
    assert_eq!(seen, 11, "{list}");
}
