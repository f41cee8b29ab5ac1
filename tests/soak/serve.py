#!/usr/bin/env python3
"""A soak run for `kete serve`: random use of the web board's API by many
clients for a long time (an hour by default), with the server's resident
memory and thread count sampled throughout.

    python3 tests/soak/serve.py [--kete target/release/kete] [--duration 3600]

It starts `kete serve --port 0` (the server's own limits unless told
otherwise), then runs --clients (16) threads until --duration seconds have
passed. Each thread plays random games and asks random questions, one
request a connection (the server closes each after its answer):

- `GET /`, `/app.js`, `/style.css`, `/api/variants`: 200;
- `POST /api/state` and `POST /api/move` for a game the client keeps, in a
  random variant with random options, moves picked among the legal moves
  the server gave: 200;
- `POST /api/search`, a short search (--max-movetime ms at most, sometimes
  MultiPV, sometimes a level), its event stream read to `done`; or
  abandoned after its first event (the client goes away mid-search): 200, or
  503 when the server's queue is full;
- `POST /api/solve` of a small Kalah or Oware board with a short `solve_ms`:
  200 or 503;
- `POST /api/replay` with a few lines of a kete-arena games.jsonl: 200;
- bad requests, each with the answer it must get: malformed JSON, an unknown
  variant, an unknown field, a bad option value, an illegal move, too many
  moves, a bad start token (400); a body over the 64 KiB limit (413); a body
  without Content-Length (411); an unknown page (404); a wrong method (405);
  a bad Content-Length (400); a body cut short before the connection is
  closed (no answer expected: the client only checks that the server lives).

Every answer is counted by endpoint and status. An answer that is not one of
those the request may get is unexpected: a 5xx other than 503 from the
queue, a reset, a timeout (--timeout s), a 200 cut short. A sampler reads
VmRSS and Threads from /proc/PID/status every --sample seconds.

Checks (exit status 1 if one fails):

- no unexpected answer, and the server still runs at the end;
- resident memory levels off: the largest VmRSS sampled in the last quarter
  of the run is at most the largest of the second quarter x 1.1 + --slack MB
  (8); the server's memory climbs over its first minutes (each solve's
  table, the allocator's arenas), so a run of a few minutes or less can fail
  this check without a leak;
- threads level off: never more than --connections + --jobs + 4 (a thread a
  connection, a thread a running search, the accepting thread, 3 to spare),
  and once the clients have stopped the server is back to its idle count
  within 10 s (no thread leaked).

Python 3 standard library only; Linux (it reads /proc).
"""

import argparse
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time


def parse_args():
    p = argparse.ArgumentParser(
        description="Soak run for kete serve (see the docstring).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p.add_argument("--kete", default=os.path.join(root, "target", "release", "kete"),
                   help="the kete binary")
    p.add_argument("--duration", type=float, default=3600.0, help="seconds of load")
    p.add_argument("--clients", type=int, default=16, help="client threads")
    p.add_argument("--sample", type=float, default=5.0,
                   help="seconds between two samples of VmRSS and Threads")
    p.add_argument("--max-movetime", type=int, default=100,
                   help="longest movetime_ms of a search")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds an answer may take before it counts as a timeout")
    p.add_argument("--slack", type=float, default=8.0,
                   help="MB of resident memory allowed over 1.1 x the second quarter's peak")
    p.add_argument("--games", default=os.path.join(
        root, "tournaments", "levels", "bao-kujifunza", "novice-casual", "games.jsonl"),
        help="a kete-arena games.jsonl whose lines are posted to /api/replay")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: the time)")
    p.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)),
                   help="kete serve --jobs (its default: the CPUs)")
    p.add_argument("--connections", type=int, default=128, help="kete serve --connections")
    p.add_argument("--only", default="",
                   help="comma-separated actions to run, of play, variants, page, search,"
                        " solve, replay, bad, new (default: all, mixed)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON too")
    return p.parse_args()


# -- the server ---------------------------------------------------------------

def start_server(args):
    cmd = [args.kete, "serve", "--port", "0", "--jobs", str(args.jobs),
           "--connections", str(args.connections)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"http://([\d.]+):(\d+)/", line)
    if not m:
        proc.kill()
        sys.exit(f"kete serve did not start: {line!r} {proc.stderr.read()!r}")
    stderr_lines = []

    def drain():
        # A line a search or solve whose client went away; kept to count.
        for l in proc.stderr:
            stderr_lines.append(l.rstrip("\n"))
    threading.Thread(target=drain, daemon=True).start()
    threading.Thread(target=lambda: proc.stdout.read(), daemon=True).start()
    return proc, (m.group(1), int(m.group(2))), cmd, stderr_lines


def status_of(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "Threads"):
                out[k] = int(v.split()[0])
    return out


class Sampler(threading.Thread):
    """(seconds since start, VmRSS kB, Threads) every `every` seconds."""

    def __init__(self, pid, every):
        super().__init__(daemon=True)
        self.pid = pid
        self.every = every
        self.stop = threading.Event()
        self.samples = []
        self.t0 = time.monotonic()

    def run(self):
        while not self.stop.is_set():
            try:
                s = status_of(self.pid)
            except OSError:
                return
            self.samples.append((time.monotonic() - self.t0, s["VmRSS"], s["Threads"]))
            self.stop.wait(self.every)


# -- requests -----------------------------------------------------------------

class Counts:
    def __init__(self):
        self.lock = threading.Lock()
        self.by = {}
        self.unexpected = []

    def add(self, endpoint, status, ok, detail=""):
        with self.lock:
            key = (endpoint, status)
            self.by[key] = self.by.get(key, 0) + 1
            if not ok:
                self.unexpected.append(f"{endpoint} -> {status} {detail}"[:300])


def exchange(addr, raw, timeout, abandon_after=None):
    """Sends `raw`; the answer's (status, head, body) read to the end, or to
    `abandon_after` bytes of body (then the connection is closed at once)."""
    with socket.create_connection(addr, timeout=timeout) as c:
        c.sendall(raw)
        data = bytearray()
        while True:
            b = c.recv(65536)
            if not b:
                break
            data += b
            if abandon_after is not None:
                _, sep, body = bytes(data).partition(b"\r\n\r\n")
                if sep and len(body) >= abandon_after:
                    break
    head, _, body = bytes(data).partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.1 (\d{3})", head)
    return (int(m.group(1)) if m else None), head, body


def post(path, body, extra=b""):
    if isinstance(body, (dict, list)):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode()
    return (b"POST %s HTTP/1.1\r\nHost: kete\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n%s\r\n" % (path.encode(), len(body), extra)) + body


def get(path):
    return b"GET %s HTTP/1.1\r\nHost: kete\r\n\r\n" % path.encode()


def dechunk(body):
    """A chunked body's data (the server writes its streams chunked)."""
    out = bytearray()
    rest = body
    while rest:
        size_line, sep, rest = rest.partition(b"\r\n")
        if not sep:
            break
        try:
            n = int(size_line.split(b";")[0], 16)
        except ValueError:
            return None
        if n == 0:
            return bytes(out)
        out += rest[:n]
        rest = rest[n + 2:]
    return None  # cut short: no last chunk


def random_options(rng, variant):
    """A variant's random rule options (its menu's), kept small enough that
    a state or search answer is quick."""
    opts = {}
    for o in variant["options"]:
        if rng.random() < 0.5:
            continue
        if o["kind"] == "combo":
            opts[o["name"]] = rng.choice(o["values"])
        else:
            opts[o["name"]] = str(rng.randint(o["min"], o["max"]))
    return opts


class Client(threading.Thread):
    def __init__(self, n, addr, args, variants, replay_lines, counts, deadline):
        super().__init__(daemon=True)
        self.rng = random.Random(args.seed_value * 1000 + n)
        self.addr = addr
        self.args = args
        self.variants = variants
        self.replay_lines = replay_lines
        self.counts = counts
        self.deadline = deadline
        self.game = None
        self.new_game()

    def new_game(self):
        v = self.rng.choice(self.variants)
        self.game = {"variant": v["name"], "options": random_options(self.rng, v),
                     "moves": []}
        self.legal = None

    # Each action: (endpoint label, raw request, statuses it may get, how to
    # read the answer).
    def send(self, label, raw, allowed, check=None, abandon_after=None):
        try:
            status, head, body = exchange(self.addr, raw, self.args.timeout, abandon_after)
        except socket.timeout:
            self.counts.add(label, "timeout", False)
            return None, None
        except OSError as e:
            self.counts.add(label, type(e).__name__, False, str(e))
            return None, None
        if status is None and allowed is None:
            self.counts.add(label, "closed", True)
            return None, None
        ok = allowed is None or status in allowed
        detail = body[:200].decode(errors="replace")
        if status == 400 and label.startswith("/api/search") and b"the game is over" in body:
            # The client's game ended with its last move; it learns that
            # from its next /api/state.
            label, ok = label + " (game over)", True
        if ok and status == 200 and check is not None and abandon_after is None:
            why = check(head, body)
            if why:
                ok, detail = False, why
        self.counts.add(label, status if status is not None else "no answer", ok, detail)
        return status, body

    def state(self, label="/api/state", move=None):
        req = dict(self.game)
        if move is not None:
            req["move"] = move
        status, body = self.send(label, post(label, req), {200},
                                 lambda h, b: None if b.startswith(b"{") and b.endswith(b"}")
                                 else "a JSON answer cut short")
        if status != 200:
            return None
        try:
            return json.loads(body)
        except ValueError:
            return None

    def play(self):
        if self.legal is None:
            s = self.state()
            if s is None:
                self.new_game()
                return
            self.legal = [m["text"] for m in s["legal"]]
            if s.get("outcome") or not self.legal or len(self.game["moves"]) > 300:
                self.new_game()
                return
        mv = self.rng.choice(self.legal)
        s = self.state("/api/move", mv)
        if s is None:
            self.new_game()
            return
        self.game["moves"].append(mv)
        self.legal = None

    def search(self):
        req = dict(self.game)
        req["movetime_ms"] = self.rng.randint(1, self.args.max_movetime)
        if self.rng.random() < 0.3:
            req["multipv"] = self.rng.randint(1, 4)
        if self.rng.random() < 0.2:
            req["level"] = self.rng.choice(["first-game", "beginner", "club", "expert", "full"])
        abandon = 1 if self.rng.random() < 0.15 else None

        def check(head, body):
            data = dechunk(body)
            if data is None:
                return "a search stream cut short"
            if b"event: done" not in data and b"event: error" not in data:
                return "a search stream without done"
            return None
        self.send("/api/search" + (" (abandoned)" if abandon else ""),
                  post("/api/search", req), {200, 503}, check, abandon)

    def solve(self):
        v = self.rng.choice(["kalah", "oware"])
        opts = {"Pits": str(self.rng.randint(1, 4)), "Seeds": str(self.rng.randint(1, 3))}
        req = {"variant": v, "options": opts, "solve_ms": self.rng.randint(100, 1500)}
        # The solve's stream: white space, then the JSON.
        self.send("/api/solve", post("/api/solve", req), {200, 503},
                  lambda h, b: None if (dechunk(b) or b"").strip().endswith(b"}")
                  else "a solve answer cut short")

    def replay(self):
        k = self.rng.randint(0, 3)
        lines = self.rng.sample(self.replay_lines, min(k, len(self.replay_lines)))
        self.send("/api/replay", post("/api/replay", "\n".join(lines) + "\n"), {200})

    def bad(self):
        rng = self.rng
        kind = rng.randrange(12)
        g = self.game
        if kind == 0:
            body = json.dumps(g)[: rng.randint(0, 20)] + rng.choice(["{", "]", "\x00", "\"", ""])
            self.send("bad: malformed JSON", post("/api/state", body), {400})
        elif kind == 1:
            self.send("bad: unknown variant",
                      post(rng.choice(["/api/state", "/api/search", "/api/move"]),
                           {"variant": "chess", "movetime_ms": 10, "move": "e4"}), {400})
        elif kind == 2:
            self.send("bad: unknown field", post("/api/state", dict(g, colour="red")), {400})
        elif kind == 3:
            self.send("bad: option value",
                      post("/api/state", {"variant": "kalah", "options": {"Pits": "99"}}), {400})
        elif kind == 4:
            self.send("bad: illegal move", post("/api/move", dict(g, move="Z9")), {400})
        elif kind == 5:
            self.send("bad: too many moves",
                      post("/api/state", {"variant": "kalah", "moves": ["A"] * 2001}), {400})
        elif kind == 6:
            self.send("bad: start token",
                      post("/api/state", {"variant": g["variant"], "start": "1-2-x-S"}), {400})
        elif kind == 7:
            # Over the 64 KiB limit; the server may answer before reading
            # it all and close, which can reset the rest of the upload.
            big = json.dumps({"variant": "kalah", "moves": ["A"] * 40000})
            self.send_huge(big)
        elif kind == 8:
            raw = (b"POST /api/state HTTP/1.1\r\nHost: kete\r\nTransfer-Encoding: chunked\r\n\r\n"
                   b"2\r\n{}\r\n0\r\n\r\n")
            self.send("bad: no Content-Length", raw, {411})
        elif kind == 9:
            self.send("bad: unknown page", get(rng.choice(["/api/nothing", "/x" * 50, "/app.jsx"])),
                      {404})
        elif kind == 10:
            self.send("bad: wrong method",
                      rng.choice([get("/api/search"), post("/api/variants", "{}"),
                                  b"DELETE /api/state HTTP/1.1\r\nHost: kete\r\n\r\n"]), {405})
        else:
            if rng.random() < 0.5:
                raw = b"POST /api/state HTTP/1.1\r\nHost: kete\r\nContent-Length: x1\r\n\r\n"
                self.send("bad: Content-Length", raw, {400})
            else:
                self.cut_short()

    def send_huge(self, big):
        label = "bad: body over 64 KiB"
        raw = post("/api/state", big)
        try:
            with socket.create_connection(self.addr, timeout=self.args.timeout) as c:
                data = bytearray()
                try:
                    c.sendall(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                try:
                    while True:
                        b = c.recv(65536)
                        if not b:
                            break
                        data += b
                except ConnectionResetError:
                    pass
        except socket.timeout:
            self.counts.add(label, "timeout", False)
            return
        except OSError as e:
            self.counts.add(label, type(e).__name__, False, str(e))
            return
        m = re.match(rb"HTTP/1\.1 (\d{3})", bytes(data))
        if m:
            self.counts.add(label, int(m.group(1)), int(m.group(1)) == 413)
        else:
            # The answer can be lost to a reset when the server closes
            # with the upload unread; not counted as a failure of the server.
            self.counts.add(label, "reset before the answer", True)

    def cut_short(self):
        """A body shorter than its Content-Length, then the connection closed."""
        label = "bad: body cut short"
        try:
            with socket.create_connection(self.addr, timeout=self.args.timeout) as c:
                c.sendall(b"POST /api/state HTTP/1.1\r\nHost: kete\r\nContent-Length: 100\r\n\r\n"
                          b'{"variant":')
                c.shutdown(socket.SHUT_WR)
                data = c.recv(4096)
        except OSError as e:
            self.counts.add(label, type(e).__name__, False, str(e))
            return
        m = re.match(rb"HTTP/1\.1 (\d{3})", data)
        status = int(m.group(1)) if m else "closed"
        self.counts.add(label, status, status in (400, "closed"))

    def run(self):
        rng = self.rng
        actions = [
            ("play", 30, self.play),
            ("variants", 8, lambda: self.send(
                "/api/variants", get("/api/variants"), {200},
                lambda h, b: None if b'"variants"' in b else "no variants")),
            ("page", 3, lambda: self.send(
                "GET page", get(rng.choice(["/", "/index.html", "/app.js", "/style.css"])),
                {200})),
            ("search", 14, self.search),
            ("solve", 4, self.solve),
            ("replay", 3, self.replay),
            ("bad", 14, self.bad),
            ("new", 2, self.new_game),
        ]
        only = [a for a in self.args.only.split(",") if a]
        actions = [(w, f) for name, w, f in actions if not only or name in only]
        weights = [w for w, _ in actions]
        while time.monotonic() < self.deadline:
            rng.choices(actions, weights)[0][1]()


# -- the run ------------------------------------------------------------------

def main():
    args = parse_args()
    args.seed_value = args.seed if args.seed is not None else int(time.time())
    proc, addr, cmd, stderr_lines = start_server(args)
    try:
        return run(args, proc, addr, cmd, stderr_lines)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait()


def window(samples, lo, hi, duration):
    return [s for s in samples if lo * duration <= s[0] <= hi * duration]


def run(args, proc, addr, cmd, stderr_lines):
    idle = status_of(proc.pid)
    _, _, body = exchange(addr, get("/api/variants"), 10)
    variants = json.loads(body)["variants"]
    try:
        with open(args.games) as f:
            replay_lines = [l.rstrip("\n") for l in f if l.strip()][:200]
    except OSError:
        replay_lines = []
    counts = Counts()
    sampler = Sampler(proc.pid, args.sample)
    sampler.start()
    t0 = time.monotonic()
    deadline = t0 + args.duration
    clients = [Client(i, addr, args, variants, replay_lines, counts, deadline)
               for i in range(args.clients)]
    for c in clients:
        c.start()
    next_note = t0 + 600
    while any(c.is_alive() for c in clients):
        for c in clients:
            c.join(timeout=1)
        if time.monotonic() >= next_note:
            s = sampler.samples[-1]
            total = sum(counts.by.values())
            print(f"  {s[0]:.0f} s: {total:,} requests, RSS {s[1] / 1024:.1f} MB, "
                  f"{s[2]} threads, {len(counts.unexpected)} unexpected", flush=True)
            next_note += 600
    ran = time.monotonic() - t0
    # Idle again: the threads of the connections and searches are gone.
    after = None
    for _ in range(100):
        time.sleep(0.1)
        after = status_of(proc.pid) if proc.poll() is None else None
        if after is None or after["Threads"] <= idle["Threads"]:
            break
    sampler.stop.set()
    sampler.join()
    alive = proc.poll() is None

    samples = sampler.samples
    dur = ran
    q2 = window(samples, 0.25, 0.5, dur)
    q4 = window(samples, 0.75, 1.0, dur)
    first = samples[0]
    mid = min(samples, key=lambda s: abs(s[0] - dur / 2))
    last = [s for s in samples if s[0] <= dur][-1]
    peak_q2 = max(s[1] for s in q2) if q2 else 0
    peak_q4 = max(s[1] for s in q4) if q4 else 0
    peak_threads = max(s[2] for s in samples)
    max_threads = args.connections + args.jobs + 4
    allowed_kb = peak_q2 * 1.1 + args.slack * 1024

    failures = []
    if counts.unexpected:
        failures.append(f"{len(counts.unexpected)} unexpected answers, the first: "
                        f"{counts.unexpected[0]}")
    if not alive:
        failures.append(f"the server exited with {proc.returncode}")
    if not q2 or not q4:
        failures.append("too few samples to compare the quarters (run longer)")
    elif peak_q4 > allowed_kb:
        failures.append(f"resident memory grows: last quarter's peak {peak_q4 / 1024:.1f} MB"
                        f" over 1.1 x {peak_q2 / 1024:.1f} + {args.slack} MB")
    if peak_threads > max_threads:
        failures.append(f"{peak_threads} threads, over {max_threads}")
    if after is not None and after["Threads"] > idle["Threads"]:
        failures.append(f"{after['Threads']} threads 10 s after the load, idle was "
                        f"{idle['Threads']}")

    total = sum(counts.by.values())
    by_endpoint = {}
    for (ep, st), n in counts.by.items():
        by_endpoint.setdefault(ep, {})[str(st)] = n
    print(f"server: {' '.join(os.path.relpath(c) if c == args.kete else c for c in cmd)}")
    print(f"load: {args.clients} clients for {ran:,.0f} s (seed {args.seed_value}): "
          f"{total:,} requests, {total / ran:.1f} a second")
    rows = [("endpoint", "answers by status")]
    for ep in sorted(by_endpoint):
        rows.append((ep, ", ".join(f"{k}: {v:,}" for k, v in sorted(by_endpoint[ep].items()))))
    rows += [
        ("unexpected", f"{len(counts.unexpected):,}"),
        ("VmRSS", f"idle {idle['VmRSS'] / 1024:.1f} MB; start {first[1] / 1024:.1f},"
                  f" middle {mid[1] / 1024:.1f}, end {last[1] / 1024:.1f} MB;"
                  f" peak 2nd quarter {peak_q2 / 1024:.1f}, 4th quarter {peak_q4 / 1024:.1f} MB"
                  f" (limit {allowed_kb / 1024:.1f})"),
        ("VmRSS after", f"{after['VmRSS'] / 1024:.1f} MB once the clients stopped;"
                        f" VmHWM (the peak) {after['VmHWM'] / 1024:.1f} MB"
                        if after else "-"),
        ("Threads", f"idle {idle['Threads']}; start {first[2]}, middle {mid[2]}, end {last[2]};"
                    f" peak {peak_threads} (bound {max_threads});"
                    f" after the load {after['Threads'] if after else '-'}"),
        ("stderr lines", f"{len(stderr_lines):,}"
                         + (f" (e.g. {stderr_lines[0][:120]!r})" if stderr_lines else "")),
    ]
    width = max(len(r[0]) for r in rows)
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    if args.json:
        print(json.dumps({
            "command": cmd, "seconds": ran, "requests": total,
            "by_endpoint": by_endpoint, "unexpected": counts.unexpected[:50],
            "idle": idle, "samples": samples[:: max(1, len(samples) // 200)],
            "after": after,
        }))
    for u in counts.unexpected[:10]:
        print(f"  unexpected: {u}")
    for f in failures:
        print(f"FAIL: {f}")
    print("ok" if not failures else "the server did not hold")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
