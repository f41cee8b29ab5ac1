#!/usr/bin/env python3
"""A soak run for kete-arena and the engine: thousands of fast games between
two kete engines that search with two threads and ponder, so that searches
are stopped at random moments, with the resident memory of the runner and of
every engine process sampled throughout; then one long-lived engine driven
through thousands of searches stopped at random moments.

    python3 tests/soak/arena.py [--kete target/release/kete] [--games 1200,600,400]

1. For each variant of --variants (kalah, oware, bao-kujifunza) in turn:

    kete-arena --variant V --engine cmd=KETE name=a --engine cmd=KETE name=b
        --each st=ST timemargin=MS ponder=on option.Threads=2 option.Ponder=true
        --games 2 --rounds N/2 --concurrency C --out DIR/V --quiet

   `ponder=on` makes the runner answer `bestmove X ponder Y` with `go ponder`
   on the position after Y, then `ponderhit` when the opponent plays Y or
   `stop` and a new `go` when he does not: a search stopped wherever it was.
   kete-arena starts each engine process once and keeps it for every game
   (`uginewgame` between games) unless the engine fails, so an engine that
   leaks grows over the whole run; the script counts the engine processes to
   show it. A sampler reads VmRSS from /proc/PID/status every --sample
   seconds for the runner and each of its children; the games are read back
   from games.jsonl (how they ended, the moves played after a ponderhit).

2. The session (--session-cycles, 10,000): one kete process, Threads=2 and
   Ponder on, driven directly: now and then `uginewgame` and another variant
   of --session-variants; each cycle `position` (the game so far), `query
   moves`, and one of: `go ponder` then `ponderhit`, or `go ponder` then
   `stop` and `go movetime 10` (what kete-arena sends when the opponent
   played another move), `go infinite` then `stop`, `go movetime 1..20`,
   `go depth 1..6`; the stop or ponderhit comes 0 to 20 ms after the `go`.
   Every bestmove is awaited for at most its time plus --timemargin and
   played if legal.

Checks (exit status 1 if one fails):

- every variant's games all played (games.jsonl has --games lines a variant);
- no game lost by a failure: no `crash`, `timeout`, `illegal` or
  `handshake` termination (--timemargin is generous, 1 s, so that a loaded
  machine does not turn slowness into a loss; a hung or dead engine still
  loses);
- resident memory levels off: for every engine process that lived through
  a tournament, and for the session's engine, VmRSS at the end is at most
  VmRSS at the middle x 1.1 + --slack MB (4);
- kete-arena keeps every game in memory for its report (by design), so it
  grows with the games: its growth from its first second to its end is at
  most 5 x the bytes of its games.jsonl + --slack MB;
- the session: every search answered in time with a legal move, and the
  engine still alive at the end and leaves on `quit`.

Python 3 standard library only; Linux (it reads /proc).
"""

import argparse
import collections
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time


def parse_args():
    p = argparse.ArgumentParser(
        description="Soak run for kete-arena with pondering engines (see the docstring).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p.add_argument("--kete", default=os.path.join(root, "target", "release", "kete"),
                   help="the kete binary (the engines)")
    p.add_argument("--arena", default=None,
                   help="the kete-arena binary (default: beside --kete)")
    p.add_argument("--variants", default="kalah,oware,bao-kujifunza",
                   help="comma-separated variants, played one after the other (empty: only the session)")
    p.add_argument("--games", default="1200,600,400",
                   help="games of each variant (one number for all, or one per variant); even")
    p.add_argument("--st", default="0.01", help="seconds a move (go movetime)")
    p.add_argument("--timemargin", type=int, default=1000,
                   help="ms of grace past st before a move is late")
    p.add_argument("--threads", type=int, default=2, help="each engine's Threads option")
    p.add_argument("--concurrency", type=int, default=1, help="games played at once")
    p.add_argument("--sample", type=float, default=2.0, help="seconds between samples")
    p.add_argument("--slack", type=float, default=4.0,
                   help="MB allowed over 1.1 x the middle VmRSS at the end")
    p.add_argument("--out", default=None, help="folder for the tournaments (default: a temporary one)")
    p.add_argument("--session-cycles", type=int, default=10000,
                   help="cycles of the long-lived engine session after the tournaments (0: none)")
    p.add_argument("--session-variants", default="kalah,oware,bao-kujifunza",
                   help="variants the session switches between")
    p.add_argument("--seed", type=int, default=None, help="the session's random seed (default: the time)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON too")
    return p.parse_args()


def status_of(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "Threads", "PPid", "Name"):
                out[k] = v.strip() if k == "Name" else int(v.split()[0])
    return out


def children_of(pid):
    kids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The field after the command's closing parenthesis: state, then ppid.
        rest = stat.rsplit(")", 1)[1].split()
        if int(rest[1]) == pid:
            kids.append(int(d))
    return kids


class Sampler(threading.Thread):
    """VmRSS (kB) of the runner and its children, every `every` seconds:
    {pid: [(seconds, rss), ...]}."""

    def __init__(self, pid, every):
        super().__init__(daemon=True)
        self.pid = pid
        self.every = every
        self.stop = threading.Event()
        self.series = {}
        self.t0 = time.monotonic()

    def take(self, pid):
        try:
            s = status_of(pid)
        except OSError:
            return
        self.series.setdefault(pid, []).append((time.monotonic() - self.t0, s["VmRSS"]))

    def run(self):
        while not self.stop.is_set():
            self.take(self.pid)
            for k in children_of(self.pid):
                self.take(k)
            self.stop.wait(self.every)


def at(series, t):
    """The sample nearest to time t."""
    return min(series, key=lambda s: abs(s[0] - t))[1]


def run_variant(args, variant, games, out):
    cmd = [args.arena, "--variant", variant,
           "--engine", f"cmd={args.kete}", "name=a",
           "--engine", f"cmd={args.kete}", "name=b",
           "--each", f"st={args.st}", f"timemargin={args.timemargin}", "ponder=on",
           f"option.Threads={args.threads}", "option.Ponder=true",
           "--games", "2", "--rounds", str(games // 2),
           "--concurrency", str(args.concurrency), "--out", out, "--quiet"]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    sampler = Sampler(proc.pid, args.sample)
    sampler.start()
    _, err = proc.communicate()
    took = time.monotonic() - t0
    sampler.stop.set()
    sampler.join()

    records = []
    try:
        with open(os.path.join(out, "games.jsonl")) as f:
            records = [json.loads(l) for l in f if l.strip()]
    except OSError:
        pass
    terminations = {}
    reasons = []
    moves = ponderhits = 0
    for g in records:
        terminations[g.get("termination")] = terminations.get(g.get("termination"), 0) + 1
        if g.get("termination") in ("crash", "timeout", "illegal", "handshake"):
            reasons.append(f"game {g.get('id')}: {g.get('reason')}")
        for m in g.get("moves", []):
            moves += 1
            ponderhits += bool(m.get("ponderhit"))

    # Memory: the runner, and each engine process (one that lived through
    # the run is compared middle to end).
    mem = []
    for pid, series in sorted(sampler.series.items()):
        if not series:
            continue
        first, last = series[0][0], series[-1][0]
        whole = pid == proc.pid or (first < 0.1 * took + 2 * args.sample
                                    and last > 0.9 * took - 2 * args.sample)
        mid_t = (first + last) / 2
        mem.append({
            "pid": pid, "what": "kete-arena" if pid == proc.pid else "engine",
            "samples": len(series), "from_s": first, "to_s": last, "whole_run": whole,
            "start_kb": series[0][1], "middle_kb": at(series, mid_t), "end_kb": series[-1][1],
            "peak_kb": max(s[1] for s in series),
            # The first sample a second or more in (the process loaded).
            "base_kb": next((s[1] for s in series if s[0] >= first + 1.0), series[-1][1]),
        })
    try:
        records_kb = os.path.getsize(os.path.join(out, "games.jsonl")) / 1024
    except OSError:
        records_kb = 0
    return {
        "variant": variant, "command": cmd, "records_kb": records_kb, "seconds": took, "exit": proc.returncode,
        "stderr": err.strip()[-500:], "games_wanted": games, "games": len(records),
        "terminations": terminations, "failures": reasons, "moves": moves,
        "ponderhits": ponderhits, "memory": mem,
        "engine_processes": sum(1 for m in mem if m["what"] == "engine"),
    }


class Session:
    """One kete process driven through the protocol, every line it writes
    read by a thread; what was sent kept for a failure's account."""

    def __init__(self, kete, threads):
        self.proc = subprocess.Popen([kete], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.sent = collections.deque(maxlen=40)
        threading.Thread(target=self._read, daemon=True).start()
        self.send("ugi")
        self.expect(lambda l: l == "ugiok", 10)
        self.send("setoption name Ponder value true")
        self.send(f"setoption name Threads value {threads}")

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.sent.append(f"{time.monotonic():.3f} > {line}")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, match, timeout):
        """The first line that matches, and the seconds it took; None when
        none came in time or the engine exited."""
        t0 = time.monotonic()
        deadline = t0 + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, time.monotonic() - t0
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None, time.monotonic() - t0
            if line is None:
                return None, time.monotonic() - t0
            if match(line):
                self.sent.append(f"{time.monotonic():.3f} < {line}")
                return line, time.monotonic() - t0

    def ready(self, timeout):
        self.send("isready")
        return self.expect(lambda l: l == "readyok", timeout)[0] is not None


def run_session(args, rng):
    """The long-lived engine: --session-cycles cycles of ugi positions and
    searches stopped at random moments, its VmRSS sampled. Checks that every
    search answers, in time, with a legal move."""
    variants = [v for v in args.session_variants.split(",") if v]
    margin = args.timemargin / 1000
    s = Session(args.kete, args.threads)
    pid = s.proc.pid
    samples = []
    failures = []
    kinds = collections.Counter()
    worst = collections.defaultdict(float)
    variant, moves = None, []
    t0 = time.monotonic()
    next_sample = t0

    def fail(what):
        failures.append(what + "; the last lines: " + " | ".join(list(s.sent)[-12:]))

    def bestmove(kind, timeout, since=0.0):
        line, took = s.expect(lambda l: l.startswith("bestmove"), timeout)
        kinds[kind] += 1
        worst[kind] = max(worst[kind], took + since)
        if line is None:
            fail(f"{kind}: no bestmove within {timeout:.2f} s"
                 + ("" if s.proc.poll() is None else f" (the engine exited: {s.proc.returncode})"))
        return line

    for cycle in range(args.session_cycles):
        if s.proc.poll() is not None or len(failures) >= 5:
            break
        now = time.monotonic()
        if now >= next_sample:
            try:
                samples.append((now - t0, status_of(pid)["VmRSS"]))
            except OSError:
                pass
            next_sample = now + args.sample
        if variant is None or rng.random() < 0.01:
            v = rng.choice(variants)
            if v != variant:
                s.send(f"setoption name Variant value {v}")
                variant = v
            s.send("uginewgame")
            if not s.ready(10):
                fail("no readyok after uginewgame")
                break
            moves = []
        position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        s.send(position)
        s.send("query moves")
        line, _ = s.expect(lambda l: l.startswith("response"), 10)
        if line is None:
            fail("no response to query moves")
            break
        legal = [m for m in line.split()[1:] if m != "none"]
        if not legal or len(moves) > 300:
            variant = None
            continue
        pause = rng.uniform(0, 0.02)
        kind = rng.choices(["ponder-miss", "ponder-hit", "infinite-stop", "movetime", "depth"],
                           [35, 20, 15, 20, 10])[0]
        if kind.startswith("ponder"):
            # As kete-arena ponders: go ponder on the position after the
            # reply expected, then ponderhit, or stop and a new search.
            expected = rng.choice(legal)
            s.send(position + (" moves " if not moves else " ") + expected)
            s.send("go ponder movetime 10")
            time.sleep(pause)
            if kind == "ponder-hit":
                s.send("ponderhit")
                reply = bestmove(kind, 0.01 + margin)
                if reply is None:
                    break
                # The move answers the position after `expected`; it is
                # checked and played there.
                s.send(position + (" moves " if not moves else " ") + expected)
                s.send("query moves")
                line, _ = s.expect(lambda l: l.startswith("response"), 10)
                legal2 = [m for m in line.split()[1:] if m != "none"] if line else []
                mv = reply.split()[1] if len(reply.split()) > 1 else ""
                if legal2 and mv not in legal2:
                    fail(f"ponderhit: bestmove {mv!r} is not legal after {expected}")
                    break
                moves += [expected] + ([mv] if legal2 else [])
                continue
            s.send("stop")
            if bestmove("ponder-stop", margin) is None:
                break
            s.send(position)
            s.send("go movetime 10")
            reply = bestmove(kind, 0.01 + margin)
        elif kind == "infinite-stop":
            s.send("go infinite")
            time.sleep(pause)
            s.send("stop")
            reply = bestmove(kind, margin)
        elif kind == "movetime":
            ms = rng.randint(1, 20)
            s.send(f"go movetime {ms}")
            reply = bestmove(kind, ms / 1000 + margin)
        else:
            s.send(f"go depth {rng.randint(1, 6)}")
            reply = bestmove(kind, 30)
        if reply is None:
            break
        mv = reply.split()[1] if len(reply.split()) > 1 else ""
        if mv not in legal:
            fail(f"{kind}: bestmove {mv!r} is not one of the legal moves {legal}")
            break
        moves.append(mv)
    took = time.monotonic() - t0
    try:
        samples.append((took, status_of(pid)["VmRSS"]))
    except OSError:
        pass
    alive = s.proc.poll() is None
    if alive:
        s.send("quit")
        try:
            s.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            s.proc.kill()
            fail("the engine did not quit")
    else:
        fail(f"the engine exited with {s.proc.returncode}")
    return {
        "cycles": cycle + 1, "seconds": took, "searches": dict(kinds),
        "worst_s": dict(worst), "failures": failures, "samples": samples,
    }


def main():
    args = parse_args()
    if args.arena is None:
        args.arena = os.path.join(os.path.dirname(os.path.abspath(args.kete)), "kete-arena")
    variants = [v for v in args.variants.split(",") if v]
    counts = [int(x) for x in args.games.split(",")]
    if len(counts) == 1:
        counts = counts * len(variants)
    if not variants:
        counts = []
    if len(counts) != len(variants):
        sys.exit("--games: one number, or one per variant")
    out = args.out or tempfile.mkdtemp(prefix="kete-soak-arena-")
    results = []
    for v, n in zip(variants, counts):
        d = os.path.join(out, v)
        if os.path.exists(os.path.join(d, "games.jsonl")):
            sys.exit(f"{d} holds a tournament already (kete-arena would resume it): "
                     f"give another --out")
        results.append(run_variant(args, v, n, d))
        r = results[-1]
        print(f"  {v}: {r['games']:,} games in {r['seconds']:.0f} s", flush=True)

    session = None
    if args.session_cycles > 0:
        seed = args.seed if args.seed is not None else int(time.time())
        session = run_session(args, random.Random(seed))
        session["seed"] = seed
        print(f"  session: {session['cycles']:,} cycles in {session['seconds']:.0f} s", flush=True)

    failures = []
    for r in results:
        if r["exit"] != 0:
            failures.append(f"{r['variant']}: kete-arena exited with {r['exit']}: {r['stderr']}")
        if r["games"] != r["games_wanted"]:
            failures.append(f"{r['variant']}: {r['games']} games of {r['games_wanted']}")
        for f in r["failures"][:5]:
            failures.append(f"{r['variant']}: {f}")
        if len(r["failures"]) > 5:
            failures.append(f"{r['variant']}: {len(r['failures']) - 5} more games lost by a failure")
        for m in r["memory"]:
            if m["what"] == "kete-arena":
                # The runner keeps every game for its report: it may grow
                # by a few times the records it wrote, no more.
                grown = m["end_kb"] - m["base_kb"]
                if grown > 5 * r["records_kb"] + args.slack * 1024:
                    failures.append(f"{r['variant']}: kete-arena grew by {grown / 1024:.1f} MB,"
                                    f" over 5 x its {r['records_kb'] / 1024:.1f} MB of records")
                continue
            if m["whole_run"] and m["end_kb"] > m["middle_kb"] * 1.1 + args.slack * 1024:
                failures.append(f"{r['variant']}: {m['what']} {m['pid']} grew from "
                                f"{m['middle_kb'] / 1024:.1f} MB at the middle to "
                                f"{m['end_kb'] / 1024:.1f} MB at the end")

    total = sum(r["games"] for r in results)
    secs = sum(r["seconds"] for r in results)
    print(f"engines: {os.path.relpath(args.kete)}, st={args.st} timemargin={args.timemargin}"
          f" ponder=on Threads={args.threads}, concurrency {args.concurrency}; out {out}")
    print(f"{total:,} games in {secs:,.0f} s")
    print(f"  {'variant':<14} {'games':>6} {'s':>6} {'ponderhit':>10}  terminations;"
          f" VmRSS MB start/middle/end (peak) per process")
    for r in results:
        terms = ", ".join(f"{k}: {v:,}" for k, v in sorted(r["terminations"].items(),
                                                          key=lambda kv: str(kv[0])))
        hits = f"{r['ponderhits']:,}/{r['moves']:,}"
        print(f"  {r['variant']:<14} {r['games']:>6,} {r['seconds']:>6.0f} {hits:>10}  {terms}")
        for m in r["memory"]:
            tag = "" if m["whole_run"] else f" (lived {m['from_s']:.0f}-{m['to_s']:.0f} s)"
            print(f"  {'':<14} {m['what']:>10} pid {m['pid']}: {m['start_kb'] / 1024:.1f} /"
                  f" {m['middle_kb'] / 1024:.1f} / {m['end_kb'] / 1024:.1f}"
                  f" ({m['peak_kb'] / 1024:.1f}), {m['samples']} samples{tag}")
        print(f"  {'':<14} engine processes started: {r['engine_processes']}")
        arena = next((m for m in r["memory"] if m["what"] == "kete-arena"), None)
        if arena:
            print(f"  {'':<14} kete-arena grew {(arena['end_kb'] - arena['base_kb']) / 1024:.1f} MB"
                  f" (from {arena['base_kb'] / 1024:.1f} MB at 1 s) holding"
                  f" {r['records_kb'] / 1024:.1f} MB of records")
    if session:
        sm = session["samples"]
        mid = at(sm, sm[-1][0] / 2) if sm else 0
        print(f"  session: one kete, {session['cycles']:,} cycles in {session['seconds']:.0f} s"
              f" (seed {session['seed']}); searches "
              + ", ".join(f"{k}: {v:,} (slowest {session['worst_s'][k] * 1000:.0f} ms)"
                          for k, v in sorted(session["searches"].items())))
        if sm:
            print(f"           VmRSS MB start/middle/end (peak): {sm[0][1] / 1024:.1f} /"
                  f" {mid / 1024:.1f} / {sm[-1][1] / 1024:.1f}"
                  f" ({max(x[1] for x in sm) / 1024:.1f}), {len(sm)} samples")
            if sm[-1][1] > mid * 1.1 + args.slack * 1024:
                failures.append(f"session: the engine grew from {mid / 1024:.1f} MB at the middle"
                                f" to {sm[-1][1] / 1024:.1f} MB at the end")
        failures += [f"session: {f}" for f in session["failures"]]
    if args.json:
        print(json.dumps({"tournaments": results, "session": session}))
    for f in failures:
        print(f"FAIL: {f}")
    print("ok" if not failures else "the soak found a problem")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
