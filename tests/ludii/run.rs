//! Running Ludii on a description's game and writing the report: its
//! options, its command, the replay of each game it played, and the
//! report's text.

use super::*;

/// The target as Ludii reads the game: the description with its `[check]
/// ludii-reading` fields, where it has any.
pub(super) fn reading_of(mut t: Target) -> Target {
    let r = t.rules.0;
    let Some(text) = ludii_reading(&r.text).unwrap_or_else(|e| panic!("{}: {e}", r.spec.game.name))
    else {
        return t;
    };
    let fields = r
        .spec
        .check
        .ludii_reading
        .as_ref()
        .map(|tb| {
            tb.iter()
                .flat_map(|(section, f)| {
                    f.as_table()
                        .into_iter()
                        .flatten()
                        .map(move |(k, v)| format!("`[{section}] {k} = {v}`"))
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    let origin = format!("{} (Ludii's reading)", r.spec.game.name);
    t.rules = match Variant::from_description(&text, &origin) {
        Ok(Variant::Described(d)) => d,
        Ok(other) => panic!("{origin} is {other:?}"),
        Err(e) => panic!("{e}"),
    };
    t.reading = Some((r.spec.game.name.clone(), fields));
    t
}

pub(super) fn ludii_args(opts: &[String]) -> Vec<String> {
    let mut args = Vec::new();
    for o in opts {
        args.push(if o.starts_with("Ruleset/") {
            "--ruleset".to_string()
        } else {
            "--option".to_string()
        });
        args.push(o.clone());
    }
    args
}

pub(super) fn quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-:=".contains(c))
    {
        s.to_string()
    } else {
        // A quote inside closes the quoting, is escaped, and reopens it.
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

pub(super) fn run_one(
    ludii: &Path,
    classes: &Path,
    tmp: &Path,
    target: &Target,
    games: usize,
) -> Run {
    let r: &Rules = target.rules.0;
    let check = &r.spec.check;
    let file = check.ludii.clone().expect("a target names Ludii's file");
    let name = r.spec.game.name.clone();
    let trace_path = tmp.join(format!("{name}.jsonl"));
    let mut args: Vec<String> = vec!["--game".into(), file.clone()];
    args.extend(ludii_args(&check.ludii_options));
    args.extend(
        [
            "--games",
            &games.to_string(),
            "--seed",
            &SEED.to_string(),
            "--max-plies",
            &MAX_PLIES.to_string(),
            "--stop-at-round-end",
            "--effects",
            if r.direction == Direction::Choice {
                "all"
            } else {
                "none"
            },
        ]
        .map(String::from),
    );
    // Ludii plays a description's opening as a phase of its own: leaving
    // it is no round end.
    if r.opening != Opening::None {
        args.extend(["--opening-phases".to_string(), "1".to_string()]);
    }
    let cp = format!(
        "{}:{}:{}",
        ludii.join("classes").display(),
        ludii.join("res").display(),
        classes.display()
    );
    let command = format!(
        "javac -cp \"$KETE_LUDII/classes\" -d /tmp/lt tests/ludii/LudiiTrace.java\n    \
         java -cp \"$KETE_LUDII/classes:$KETE_LUDII/res:/tmp/lt\" LudiiTrace {} --out trace.jsonl",
        args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
    );
    let t0 = Instant::now();
    let out = Command::new("java")
        .arg("-cp")
        .arg(&cp)
        .arg("LudiiTrace")
        .args(&args)
        .arg("--out")
        .arg(&trace_path)
        .output()
        .unwrap_or_else(|e| panic!("java runs: {e}"));
    let ludii_secs = t0.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "LudiiTrace failed for {name} ({file}):\n{err}"
    );
    let ludii_summary = err
        .lines()
        .find(|l| l.starts_with("LudiiTrace:"))
        .unwrap_or("")
        .to_string();

    let t1 = Instant::now();
    let reader = std::io::BufReader::new(
        std::fs::File::open(&trace_path).unwrap_or_else(|e| panic!("{trace_path:?}: {e}")),
    );
    let expected: Vec<(Disagreement, String)> = check
        .ludii_differs
        .iter()
        .map(|d| (d.kind, d.reason.clone()))
        .collect();
    let mut run = Run {
        name: name.clone(),
        title: r.spec.game.title.clone(),
        ludii_file: file.clone(),
        ludii_args: check.ludii_options.clone(),
        options_used: Vec::new(),
        ruleset_matched: None,
        command,
        ludii_summary,
        ludii_secs,
        replay_secs: 0.0,
        games: 0,
        plies: 0,
        compared: 0,
        agreed: 0,
        cut: 0,
        diffs: Vec::new(),
        expected,
        unexpected: Vec::new(),
        file: target.file.clone(),
        reading: target.reading.clone(),
    };
    let mut places: Option<Places> = None;
    for line in reader.lines() {
        let line = line.expect("the trace reads");
        if line.trim().is_empty() {
            continue;
        }
        let trace: Trace = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("{name}: a trace line does not read: {e}"));
        if places.is_none() {
            let num_sites = trace.start.counts.len();
            places = Some(
                Places::new(r, &trace.board, num_sites)
                    .unwrap_or_else(|e| panic!("{name} against {file}: {e}")),
            );
            run.options_used = trace.options.clone();
            run.ruleset_matched = trace.ruleset_matched.clone();
        }
        let places = places.as_ref().expect("made above");
        run.games += 1;
        run.plies += trace.plies.len();
        let replay = Replay {
            r,
            places,
            trace: &trace,
            pos: Described::start(&target.rules),
            history: Vec::new(),
            compared: 0,
        };
        let (verdict, compared) = replay.run();
        run.compared += compared;
        match verdict {
            Verdict::Agreed => run.agreed += 1,
            Verdict::Cut => run.cut += 1,
            Verdict::Differs(d) => {
                if !run.expected.iter().any(|e| e.0 == d.kind) {
                    run.unexpected.push(format!(
                        "{name}: game {} (seed {}), Ludii's decision {}: {} ({}): {}",
                        d.game,
                        d.seed,
                        d.ply,
                        d.kind.name(),
                        d.kete_token,
                        d.what
                    ));
                }
                run.diffs.push(*d);
            }
        }
    }
    run.replay_secs = t1.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&trace_path);
    run
}

// ------------------------------------------------------------ the report

pub(super) fn report(run: &Run, games: usize, revision: &str) -> String {
    let mut s = String::new();
    let by_kind = |k: Disagreement| run.diffs.iter().filter(|d| d.kind == k).count();
    let kinds = [
        Disagreement::LegalMoves,
        Disagreement::Board,
        Disagreement::End,
    ];
    let _ = writeln!(s, "# {} against Ludii's {}\n", run.title, run.ludii_file);
    let _ = writeln!(
        s,
        "Written by `tests/ludii.rs`. Every game below was played by Ludii's own rules \
         (`tests/ludii/LudiiTrace.java`, random moves, game *i* seeded with {} + *i*) and \
         replayed in kete move by move; a game counts as agreed when kete's legal moves were \
         Ludii's at every position, every move left the same board, and both ended the game \
         at the same point with the same result.\n",
        SEED
    );
    let files = run
        .file
        .as_ref()
        .map_or(String::new(), |f| format!(" KETE_LUDII_FILES={f}"));
    let _ = writeln!(s, "Reproduce (from the repository's root):\n");
    let _ = writeln!(
        s,
        "    KETE_LUDII=path/to/ludii KETE_LUDII_GAMES={games}{files} KETE_LUDII_REPORT=docs/described/ludii \\\n      cargo test --release --test ludii -- --nocapture\n\n\
         (`path/to/ludii`: a headless build of Ludii, as docs/described/ludii/README.md makes it; \
         these games were played with the build of revision {revision})\n"
    );
    let _ = writeln!(s, "Ludii's games alone:\n\n    {}\n", run.command);
    let own = run.reading.as_ref().map_or(&run.name, |(n, _)| n);
    let desc = match &run.file {
        Some(f) => format!("`{f}`"),
        None => format!("built in, `src/variants/described/games/` (`--variant {own}`)"),
    };
    let _ = writeln!(s, "- Description: {desc}");
    if let Some((_, fields)) = &run.reading {
        let _ = writeln!(
            s,
            "- Played as Ludii reads the game: the description with {fields} \
             (its `[check] ludii-reading`; protocol/RULES.md classifies each difference)"
        );
    }
    let _ = writeln!(
        s,
        "- Ludii: `{}`{}, revision {revision}",
        run.ludii_file,
        if run.ludii_args.is_empty() {
            " with its default options".to_string()
        } else {
            format!(
                " with {}",
                run.ludii_args
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    let _ = writeln!(
        s,
        "- Ludii's options in effect: {}{}",
        if run.options_used.is_empty() {
            "none".to_string()
        } else {
            run.options_used
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        },
        run.ruleset_matched
            .as_ref()
            .map_or(String::new(), |r| format!(" (ruleset `{r}`)"))
    );
    let _ = writeln!(s, "- Ludii's run: {}", run.ludii_summary);
    let _ = writeln!(
        s,
        "- Time: {:.1} s in Ludii (with the JVM's start), {:.1} s to replay in kete\n",
        run.ludii_secs, run.replay_secs
    );
    let _ = writeln!(s, "| | |\n|---|---|");
    let _ = writeln!(s, "| games | {} |", run.games);
    let _ = writeln!(s, "| Ludii's decisions | {} |", run.plies);
    let _ = writeln!(
        s,
        "| positions where the legal moves were compared | {} |",
        run.compared
    );
    let _ = writeln!(s, "| games agreed to the end | {} |", run.agreed);
    let _ = writeln!(
        s,
        "| games agreed until Ludii's cut at {MAX_PLIES} decisions | {} |",
        run.cut
    );
    for k in kinds {
        let _ = writeln!(s, "| first disagreement: {} | {} |", k.name(), by_kind(k));
    }
    let _ = writeln!(s);
    if !run.diffs.is_empty() {
        let mut causes: Vec<(Disagreement, &str, usize)> = Vec::new();
        for d in &run.diffs {
            match causes.iter_mut().find(|c| c.0 == d.kind && c.1 == d.cause) {
                Some(c) => c.2 += 1,
                None => causes.push((d.kind, &d.cause, 1)),
            }
        }
        causes.sort();
        let _ = writeln!(s, "| kind | first disagreement | games |\n|---|---|---|");
        for (k, cause, n) in causes {
            let _ = writeln!(s, "| {} | {cause} | {n} |", k.name());
        }
        let _ = writeln!(s);
    }
    if run.expected.is_empty() {
        let _ = writeln!(
            s,
            "The description expects no disagreement (`[check] ludii-differs` is empty).\n"
        );
    } else {
        let _ = writeln!(
            s,
            "Expected by the description (`[check] ludii-differs`):\n"
        );
        for (k, why) in &run.expected {
            let seen = if by_kind(*k) == 0 {
                " (not seen in this run)"
            } else {
                ""
            };
            let _ = writeln!(s, "- {}{seen}: {why}", k.name());
        }
        let _ = writeln!(s);
    }
    if !run.unexpected.is_empty() {
        let _ = writeln!(s, "**Not expected** ({}):\n", run.unexpected.len());
        for u in run.unexpected.iter().take(10) {
            let _ = writeln!(s, "- {u}");
        }
        let _ = writeln!(s);
    }
    if run.diffs.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "## First disagreements\n\nUp to {SHOWN} of each kind, in game order. Positions are \
         kete's tokens (South's pits from his left, North's from his, South's store, North's \
         store, the side to move); Ludii's state is written the same way, then as its sites. \
         The moves are the game's moves from the start, as kete writes them: `printf \
         'position startpos moves ...\\nd\\n' | kete --variant {}` replays them.\n",
        run.file
            .as_ref()
            .map_or(run.name.clone(), |f| format!("file:{f}"))
    );
    for k in kinds {
        for d in run.diffs.iter().filter(|d| d.kind == k).take(SHOWN) {
            let _ = writeln!(
                s,
                "### {}: game {} (seed {}), Ludii's decision {}, kete's move {}\n",
                k.name(),
                d.game,
                d.seed,
                d.ply,
                d.kete_ply + 1
            );
            let _ = writeln!(s, "{}.\n", d.what);
            let _ = writeln!(s, "- kete:  `{}`", d.kete_token);
            let _ = writeln!(
                s,
                "- Ludii: `{}` (sites {:?})",
                d.ludii_token, d.ludii_counts
            );
            let _ = writeln!(s, "- kete's legal moves:  {}", list(&d.kete_moves));
            let _ = writeln!(s, "- Ludii's legal moves: {}", list(&d.ludii_moves));
            let _ = writeln!(
                s,
                "- moves from the start: {}\n",
                if d.history.is_empty() {
                    "none".to_string()
                } else {
                    d.history.join(" ")
                }
            );
        }
    }
    s
}

pub(super) fn list(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(" ")
    }
}

// ------------------------------------------------------------ the test
