#!/usr/bin/env python3
"""A soak run for the solver's resumption: a split solve with an endgame
database, killed with SIGKILL at random moments and started again until it
completes, must end with the values of a run never interrupted, and must
never use a damaged file.

    python3 tests/soak/solve.py [--kete target/release/kete] [--kills 20]

The work is `kete book build` by the solver (Kalah(6,4), --plies 1 by
default): it splits the solve of the start into jobs (`--jobs DIR`,
jobs.json), solves every job that has no result yet (results/job-I.json,
each written whole: a temporary file renamed) and writes the book of exact
values. Its solves take the database `kete solve` would choose (Kalah(6,4):
the 20-seed one, 226 MB), built the first time into --egtb-dir and loaded
from there afterwards (written whole too; a file that does not load is said
to be unusable and built again). So what a restart can reuse is the jobs
file, the jobs already solved and the database once built.

1. The reference, in WORK/reference: the same `kete book build` run once,
   uninterrupted, with its own empty --egtb-dir; then `kete solve` of the
   start with that database (the plain solve's value and best move).
2. The soak, in WORK/killed: the same command started again and again; while
   --kills remain, each run is killed with SIGKILL after a random delay
   (uniform between --min-delay and --max-delay seconds; by default up to
   0.6 x the reference's time, so that some runs die in the database build,
   some among the jobs and some near the end); after the last kill a run is
   left to finish. Before each run the script notes what is on disk (the
   jobs file, the results, the database, temporary files) and after it what
   the run's stderr says it did: the database loaded, built or refused, the
   jobs solved.
3. Damage (--damage, on by default): once the database has been kept, the
   script flips a byte in the middle of it before a restart, and later cuts
   it to half its length before another; each time the next run that reaches
   the database must say that the file cannot be used and build it again,
   never load it.

Checks (exit status 1 if one fails):

- the last run exits 0 and no run that was not killed fails;
- the book is byte for byte the reference's, and its root's best move and
  value are those of the plain uninterrupted `kete solve`;
- every damaged database was refused and rebuilt, none loaded.

Left-over temporary files (a run killed while writing a database or a
result) are counted and reported; they are not a failure.

Python 3 standard library only; Linux.
"""

import argparse
import glob
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time


def parse_args():
    p = argparse.ArgumentParser(
        description="Soak run for the solver killed and restarted (see the docstring).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p.add_argument("--kete", default=os.path.join(root, "target", "release", "kete"),
                   help="the kete binary")
    p.add_argument("--variant", default="kalah")
    p.add_argument("--pits", type=int, default=6)
    p.add_argument("--seeds", type=int, default=4)
    p.add_argument("--plies", type=int, default=1,
                   help="kete book build --plies (the split is that many moves deep)")
    p.add_argument("--rule", action="append", default=[], metavar="FLAG=VALUE",
                   help="a rule flag for both commands, e.g. --rule repetition=split (repeatable)")
    p.add_argument("--threads", type=int, default=0, help="kete book build --threads")
    p.add_argument("--kills", type=int, default=20, help="runs killed before one is let finish")
    p.add_argument("--min-delay", type=float, default=1.0, help="shortest delay before a kill (s)")
    p.add_argument("--max-delay", type=float, default=None,
                   help="longest delay before a kill (s; default 0.6 x the reference's time)")
    p.add_argument("--no-damage", dest="damage", action="store_false",
                   help="do not damage the kept database between runs")
    p.add_argument("--work", default=None,
                   help="folder for the runs (default: a temporary one); it must not exist")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: the time)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON too")
    return p.parse_args()


def rules(args):
    out = []
    for r in args.rule:
        k, _, v = r.partition("=")
        out += [f"--{k}", v]
    return out


def book_cmd(args):
    return [args.kete, "book", "build", "--variant", args.variant,
            "--pits", str(args.pits), "--seeds", str(args.seeds), *rules(args),
            "--plies", str(args.plies), "--threads", str(args.threads),
            "--jobs", "jobs", "--out", "out.book", "--egtb-dir", "egtb"]


def on_disk(d):
    """What a restart finds in run folder d."""
    dbs = sorted(f for f in glob.glob(os.path.join(d, "egtb", "*.egtb")))
    tmps = [f for f in glob.glob(os.path.join(d, "egtb", "*"))
            + glob.glob(os.path.join(d, "jobs", "*")) + glob.glob(os.path.join(d, "jobs", "results", "*"))
            if re.search(r"\.tmp", os.path.basename(f))]
    results = glob.glob(os.path.join(d, "jobs", "results", "job-*.json"))
    return {
        "jobs_file": os.path.exists(os.path.join(d, "jobs", "jobs.json")),
        "results": len(results),
        "databases": [(os.path.basename(f), os.path.getsize(f)) for f in dbs],
        "tmp_files": [(os.path.relpath(f, d), os.path.getsize(f)) for f in tmps],
        "book": os.path.exists(os.path.join(d, "out.book")),
    }


def run(cmd, cwd, log, kill_after=None):
    """Runs cmd in cwd, stderr to log; kills its process group with SIGKILL
    after kill_after seconds. (exit status, seconds, killed)."""
    t0 = time.monotonic()
    with open(log, "w") as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=err,
                                start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=kill_after)
            killed = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            killed = True
    return proc.returncode, time.monotonic() - t0, killed, out.decode(errors="replace")


def read_log(log):
    with open(log, errors="replace") as f:
        text = f.read()
    return {
        "loaded": re.findall(r"^egtb: .* from (\S+) in", text, re.M),
        "building": len(re.findall(r"^egtb: building ", text, re.M)),
        "refused": re.findall(r"^egtb: (\S+) cannot be used \((.*)\); building it again", text, re.M)
        + re.findall(r"^egtb: (\S+) is not the database its name says", text, re.M),
        "solved": len(re.findall(r"^book: solved \d+/\d+", text, re.M)),
        "split": re.findall(r"^split: (\d+) jobs", text, re.M),
        "tail": text.strip().splitlines()[-3:],
    }


def damage(path, how):
    if how == "flip":
        with open(path, "r+b") as f:
            size = os.fstat(f.fileno()).st_size
            f.seek(size // 2)
            b = f.read(1)
            f.seek(size // 2)
            f.write(bytes([b[0] ^ 0xFF]))
    else:
        with open(path, "r+b") as f:
            f.truncate(os.fstat(f.fileno()).st_size // 2)


def root_line(book_path, start):
    with open(book_path) as f:
        for line in f:
            if line.startswith(start + " "):
                return line.strip()
    return None


def main():
    args = parse_args()
    args.kete = os.path.abspath(args.kete)
    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    work = args.work or tempfile.mkdtemp(prefix="kete-soak-solve-")
    if args.work:
        os.makedirs(work)
    ref, killed_dir = os.path.join(work, "reference"), os.path.join(work, "killed")
    os.makedirs(ref)
    os.makedirs(killed_dir)
    cmd = book_cmd(args)
    shown = " ".join("kete" if c == args.kete else c for c in cmd)
    print(f"work: {work}; seed {seed}")
    print(f"command (in each run folder): {shown}", flush=True)

    # 1. The reference.
    code, ref_s, _, _ = run(cmd, ref, os.path.join(ref, "stderr.log"))
    if code != 0:
        sys.exit(f"the reference run failed ({code}): see {ref}/stderr.log")
    ref_log = read_log(os.path.join(ref, "stderr.log"))
    solve_cmd = [args.kete, "solve", "--variant", args.variant, "--pits", str(args.pits),
                 "--seeds", str(args.seeds), *rules(args), "--egtb-dir", "egtb"]
    code, solve_s, _, plain = run(solve_cmd, ref, os.path.join(ref, "solve.log"))
    m = re.match(r"value ([+-]?\d+) best (\S+)", plain.strip())
    if code != 0 or not m:
        sys.exit(f"the plain solve failed ({code}): {plain!r}")
    plain_value, plain_best = int(m.group(1)), m.group(2)
    print(f"reference: book in {ref_s:.1f} s, {ref_log['solved']} jobs;"
          f" plain solve {plain.strip()!r} in {solve_s:.1f} s", flush=True)

    # 2. and 3. The runs killed, then the one let finish.
    max_delay = args.max_delay or 0.6 * ref_s
    runs, failures = [], []
    damages = []       # (run number before which, how, path)
    pending = None     # a damage not yet met by a run that reached the database
    kills = 0
    n = 0
    while True:
        n += 1
        before = on_disk(killed_dir)
        damaged = None
        if args.damage and pending is None and before["databases"] and len(damages) < 2 \
                and kills < args.kills and (n > 2 and rng.random() < 0.5):
            how = "flip" if not damages else "cut"
            path = os.path.join(killed_dir, "egtb", before["databases"][-1][0])
            damage(path, how)
            damaged = (how, os.path.basename(path))
            damages.append({"before_run": n, "how": how, "file": damaged[1], "refused": False,
                            "loaded": False})
            pending = damages[-1]
        delay = rng.uniform(args.min_delay, max_delay) if kills < args.kills else None
        log = os.path.join(killed_dir, f"run-{n}.log")
        code, took, was_killed, _ = run(cmd, killed_dir, log, delay)
        kills += was_killed
        info = read_log(log)
        if pending is not None:
            if any(os.path.basename(p) == pending["file"] for p, _ in info["refused"]):
                pending["refused"] = True
                pending = None
            elif any(os.path.basename(p) == pending["file"] for p in info["loaded"]):
                pending["loaded"] = True
                failures.append(f"run {n} loaded the damaged {pending['file']}")
                pending = None
        after = on_disk(killed_dir)
        # The split's line comes once the database is ready.
        if not info["split"]:
            stage = "in the database build"
        elif after["results"] < int(ref_log["split"][0] if ref_log["split"] else 0):
            stage = "among the jobs"
        else:
            stage = "after the last job"
        row = {
            "run": n, "killed": was_killed, "seconds": took, "exit": code,
            "found": before, "damaged": damaged, "stage": stage, **info,
        }
        runs.append(row)
        reused = []
        if before["jobs_file"]:
            reused.append("jobs file")
        if before["results"]:
            reused.append(f"{before['results']} results")
        if info["loaded"]:
            reused.append("database")
        did = []
        if info["refused"]:
            did.append("refused the damaged database")
        if info["building"]:
            did.append("built the database" if not was_killed else "building the database")
        if info["solved"]:
            did.append(f"solved {info['solved']} jobs")
        print(f"  run {n}: {'killed ' + stage if was_killed else 'exit ' + str(code)}"
              f" after {took:.1f} s;"
              f" {'damaged (' + damaged[0] + ') before; ' if damaged else ''}"
              f"reused: {', '.join(reused) or 'nothing'}; {'; '.join(did) or 'no step done'}",
              flush=True)
        if not was_killed:
            if code != 0:
                failures.append(f"run {n} failed with {code}: {' | '.join(info['tail'])}")
            break

    final = on_disk(killed_dir)
    same_book = False
    root_killed = None
    if final["book"]:
        with open(os.path.join(ref, "out.book"), "rb") as a, \
                open(os.path.join(killed_dir, "out.book"), "rb") as b:
            same_book = a.read() == b.read()
    # The root's line: the split's root, from the reference's jobs file.
    with open(os.path.join(ref, "jobs", "jobs.json")) as f:
        root_token = json.load(f).get("root")
    if root_token and final["book"]:
        root_killed = root_line(os.path.join(killed_dir, "out.book"), root_token)
    if not same_book:
        failures.append("the book differs from the reference's")
    # The root's moves with their exact values (100 x the margin, the side
    # to move's view): the plain solve's move must be one of the best, and
    # its value theirs.
    book_best, book_value = [], None
    if root_killed:
        scores = {m: int(v) // 100 for m, v in (w.split(":") for w in root_killed.split()[1:])}
        book_value = max(scores.values())
        book_best = [m for m, v in scores.items() if v == book_value]
    if plain_best not in book_best or book_value != plain_value:
        failures.append(f"the book's root gives {book_best} {book_value}, the plain solve"
                        f" {plain_best} {plain_value:+}")
    for d in damages:
        if not d["refused"]:
            failures.append(f"the damaged ({d['how']}) database before run {d['before_run']}"
                            f" was {'loaded' if d['loaded'] else 'never met by a later run'}")

    killed_runs = [r for r in runs if r["killed"]]
    stage = {}
    for r in killed_runs:
        stage[r["stage"]] = stage.get(r["stage"], 0) + 1
    total_s = sum(r["seconds"] for r in runs)
    print()
    rows = [
        ("reference", f"{ref_s:.1f} s uninterrupted; plain solve: value {plain_value:+}"
                      f" best {plain_best} ({solve_s:.1f} s with the database cached)"),
        ("runs", f"{len(runs)}: {len(killed_runs)} killed with SIGKILL"
                 f" (delays {args.min_delay:.0f}-{max_delay:.0f} s), then one let finish;"
                 f" {total_s:.0f} s in all"),
        ("killed when", ", ".join(f"{k}: {v}" for k, v in stage.items())),
        ("database", f"built to the end {sum(1 for r in runs if r['building'] and r['split'])}"
                     f" of the {sum(r['building'] for r in runs)} times started,"
                     f" loaded {sum(1 for r in runs if r['loaded'])} times,"
                     f" refused {sum(len(r['refused']) for r in runs)} times"),
        ("damage", "; ".join(f"{d['how']} before run {d['before_run']}:"
                             f" {'refused and rebuilt' if d['refused'] else 'NOT refused'}"
                             for d in damages) or "none"),
        ("jobs", f"{ref_log['solved']} in the split; solved {sum(r['solved'] for r in runs)}"
                 f" times over the runs (a job killed mid-solve is solved again)"),
        ("left over", f"{len(final['tmp_files'])} temporary files,"
                      f" {sum(s for _, s in final['tmp_files']) / 1e6:.1f} MB"
                      + (f" ({', '.join(f for f, _ in final['tmp_files'][:4])})"
                         if final["tmp_files"] else "")),
        ("result", f"book {'identical to' if same_book else 'DIFFERENT from'} the reference's;"
                   f" root {root_killed!r}"),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    if args.json:
        print(json.dumps({"seed": seed, "work": work, "reference_s": ref_s,
                          "plain": [plain_value, plain_best], "runs": runs,
                          "damages": damages, "final": final}))
    for f in failures:
        print(f"FAIL: {f}")
    print("ok" if not failures else "the solve did not resume cleanly")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
