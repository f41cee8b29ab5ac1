#!/usr/bin/env python3
"""A load test for `kete serve`: many searches and many half-open connections
at once, while a page's first request, `GET /api/variants`, must keep being
answered within a second.

    python3 tests/load/serve_load.py [--kete target/release/kete]

It starts `kete serve --port 0` with the limits given (the server's own
defaults unless told otherwise), then

- opens --half-open connections (1,000) that each send the start of a request
  head and never finish it; each is kept until the server closes it (by
  dropping it to make room, or with 408 when --head-timeout runs out), or, with
  --reopen, replaced by a new one at once, as a client bent on holding the
  server's places would;
- fires --searches (300) `POST /api/search` requests at once, each a short
  search (--movetime ms of Kalah's start), read to the end of their answers;
- meanwhile asks for `GET /api/variants` every --poll-ms and times each answer,
  from the connect to the last byte;
- samples the server's VmRSS, VmHWM and Threads from /proc/PID/status.

It prints a table of the figures and the answers counted by status, and exits
1 if any of the checks fails:

- every /api/variants answered 200 within --max-latency (1 s);
- the peak resident memory (VmHWM) within --memory plus a margin (--margin,
  64 MB): the hash tables of the searches running at once are --memory in
  all, and the rest of the process (the binary, the threads' stacks as far
  as they are used, the buffers of the connections, the allocator's arenas)
  is well under 64 MB;
- threads at most --connections + --jobs + 4: a thread a connection, a thread
  a running search, the thread that accepts connections, and 3 to spare.

It also counts the connects the kernel refused because the server's accept
queue was full (the client's kernel tries each again a second later).

Python 3 standard library only; Linux (it reads /proc). The open-file limit
is raised to what the sockets need.
"""

import argparse
import json
import os
import re
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time


def parse_args():
    p = argparse.ArgumentParser(
        description="Load test for kete serve (see the docstring).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p.add_argument("--kete", default=os.path.join(root, "target", "release", "kete"),
                   help="the kete binary")
    p.add_argument("--searches", type=int, default=300, help="searches fired at once")
    p.add_argument("--half-open", type=int, default=1000,
                   help="connections that start a request head and never finish it")
    p.add_argument("--reopen", action="store_true",
                   help="replace each half-open connection the server closes at once")
    p.add_argument("--movetime", type=int, default=50, help="each search's movetime_ms")
    p.add_argument("--poll-ms", type=int, default=100,
                   help="time between two GET /api/variants")
    p.add_argument("--hold", type=float, default=12.0,
                   help="seconds the half-open connections are held after the searches "
                        "are fired (past the server's head timeout, to see its 408s)")
    p.add_argument("--max-latency", type=float, default=1.0,
                   help="seconds an /api/variants answer may take")
    p.add_argument("--margin", type=int, default=64,
                   help="MB of resident memory allowed over --memory")
    # The server's limits, passed on to it.
    p.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)),
                   help="kete serve --jobs (its default: the CPUs)")
    p.add_argument("--queue", type=int, default=16, help="kete serve --queue")
    p.add_argument("--memory", type=int, default=256, help="kete serve --memory (MB)")
    p.add_argument("--connections", type=int, default=128, help="kete serve --connections")
    p.add_argument("--head-timeout", type=int, default=10, help="kete serve --head-timeout")
    p.add_argument("--json", action="store_true", help="print the figures as JSON too")
    return p.parse_args()


class Counts:
    """Answers counted by kind, from several threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.by = {}

    def add(self, key):
        with self.lock:
            self.by[key] = self.by.get(key, 0) + 1

    def items(self):
        with self.lock:
            return sorted(self.by.items())


def raise_nofile(need):
    """Raises the open-file limit to `need`; the limit before."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    before = (soft, hard)
    want = need if hard == resource.RLIM_INFINITY else min(need, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        sys.exit(f"the open-file limit is {soft}, under the {need} the sockets need "
                 f"(the hard limit is {hard})")
    return before


def start_server(args, nofile):
    cmd = [args.kete, "serve", "--port", "0",
           "--jobs", str(args.jobs), "--queue", str(args.queue),
           "--memory", str(args.memory), "--connections", str(args.connections),
           "--head-timeout", str(args.head_timeout)]
    # The server runs under the open-file limit it was given, not under the
    # one raised for this script's sockets.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE,
                                                                  nofile))
    line = proc.stdout.readline()
    m = re.search(r"http://([\d.]+):(\d+)/", line)
    if not m:
        proc.kill()
        sys.exit(f"kete serve did not start: {line!r} {proc.stderr.read()!r}")
    # Its stderr (a line a search whose client went away) is drained so
    # that it never blocks.
    threading.Thread(target=lambda: proc.stderr.read(), daemon=True).start()
    return proc, (m.group(1), int(m.group(2))), cmd


def status_of(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "Threads"):
                out[k] = int(v.split()[0])
    return out


class Sampler(threading.Thread):
    """The server's memory (kB) and threads, every 20 ms."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.stop = threading.Event()
        self.rss = 0
        self.hwm = 0
        self.threads = 0

    def run(self):
        while not self.stop.is_set():
            try:
                s = status_of(self.pid)
            except OSError:
                return
            self.rss = max(self.rss, s["VmRSS"])
            self.hwm = max(self.hwm, s["VmHWM"])
            self.threads = max(self.threads, s["Threads"])
            time.sleep(0.02)


def listen_overflows():
    """How many connections the kernel has refused for a full accept queue
    (TcpExt ListenOverflows, counted for the whole network namespace)."""
    try:
        with open("/proc/net/netstat") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for names, values in zip(lines[::2], lines[1::2]):
        if names.startswith("TcpExt:"):
            row = dict(zip(names.split(), values.split()))
            if "ListenOverflows" in row:
                return int(row["ListenOverflows"])
    return None


def request(addr, text, timeout):
    """One request; the answer's status and body, or the error's name."""
    with socket.create_connection(addr, timeout=timeout) as c:
        c.sendall(text)
        data = bytearray()
        while True:
            b = c.recv(65536)
            if not b:
                break
            data += b
    head, _, body = bytes(data).partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.1 (\d{3})", head)
    return (int(m.group(1)) if m else None), body


class Poller(threading.Thread):
    """GET /api/variants every poll_ms, each answer timed."""

    def __init__(self, addr, poll_ms):
        super().__init__(daemon=True)
        self.addr = addr
        self.poll = poll_ms / 1000
        self.stop = threading.Event()
        self.latencies = []
        self.counts = Counts()

    def run(self):
        get = b"GET /api/variants HTTP/1.1\r\nHost: kete\r\n\r\n"
        while not self.stop.is_set():
            t = time.monotonic()
            try:
                status, body = request(self.addr, get, 10)
                ok = status == 200 and b'"variants"' in body
                self.counts.add(str(status) if ok or status != 200 else "200 but cut short")
            except OSError as e:
                self.counts.add(type(e).__name__)
                ok = False
            took = time.monotonic() - t
            # A failed answer counts as over the limit.
            self.latencies.append(took if ok else float("inf"))
            self.stop.wait(max(0.0, self.poll - took))


class HalfOpen(threading.Thread):
    """n connections that each send the start of a request head and stop."""

    PART = b"GET / HTTP/1.1\r\nHost: kete\r\n"

    def __init__(self, addr, n, reopen):
        super().__init__(daemon=True)
        self.addr = addr
        self.n = n
        self.reopen = reopen
        self.stop = threading.Event()
        self.opened = threading.Event()
        self.counts = Counts()
        self.opens = 0
        self.sel = selectors.DefaultSelector()

    def open_one(self):
        try:
            c = socket.create_connection(self.addr, timeout=5)
            c.sendall(self.PART)
            c.setblocking(False)
        except OSError as e:
            self.counts.add(f"connect failed: {type(e).__name__}")
            return
        self.opens += 1
        self.sel.register(c, selectors.EVENT_READ, bytearray())

    def run(self):
        for _ in range(self.n):
            self.open_one()
        self.opened.set()
        while not self.stop.is_set():
            for key, _ in self.sel.select(timeout=0.05):
                c, got = key.fileobj, key.data
                try:
                    b = c.recv(4096)
                except BlockingIOError:
                    continue
                except OSError as e:
                    kind, b = f"reset ({type(e).__name__})", None
                else:
                    if b:
                        got += b
                        continue
                    m = re.match(rb"HTTP/1\.1 (\d{3})", bytes(got))
                    kind = m.group(1).decode() if m else "closed without an answer"
                self.counts.add(kind)
                self.sel.unregister(c)
                c.close()
                if self.reopen and not self.stop.is_set():
                    self.open_one()
        for key in list(self.sel.get_map().values()):
            self.counts.add("still open at the end")
            key.fileobj.close()


def fire_searches(addr, n, movetime, counts, times):
    body = json.dumps({"variant": "kalah", "movetime_ms": movetime}).encode()
    post = (b"POST /api/search HTTP/1.1\r\nHost: kete\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body
    go = threading.Barrier(max(n, 1))

    def one():
        go.wait()
        t = time.monotonic()
        try:
            status, text = request(addr, post, 90)
        except OSError as e:
            counts.add(type(e).__name__)
            return
        if status == 200:
            counts.add("200" if b"event: done" in text else "200 without done")
        elif status == 503 and b"connections" in text:
            counts.add("503 (no connection free)")
        elif status == 503:
            counts.add("503 (queue full)")
        else:
            counts.add(str(status))
        times.append(time.monotonic() - t)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    return threads


def ms(s):
    return "failed" if s == float("inf") else f"{s * 1000:.1f} ms"


def main():
    args = parse_args()
    nofile = raise_nofile(args.half_open + args.searches + 256)
    proc, addr, cmd = start_server(args, nofile)
    try:
        return run(args, proc, addr, cmd)
    finally:
        proc.terminate()
        proc.wait()


def run(args, proc, addr, cmd):
    idle = status_of(proc.pid)
    overflows = listen_overflows()
    sampler = Sampler(proc.pid)
    sampler.start()
    poller = Poller(addr, args.poll_ms)
    poller.start()
    half = HalfOpen(addr, args.half_open, args.reopen)
    t0 = time.monotonic()
    half.start()
    half.opened.wait()
    opened_in = time.monotonic() - t0
    counts, times = Counts(), []
    threads = fire_searches(addr, args.searches, args.movetime, counts, times)
    fired = time.monotonic()
    for t in threads:
        t.join()
    searched_in = time.monotonic() - fired
    # The half-open connections stay until the server's head timeout has
    # run out on those it kept.
    half.stop.wait(max(0.0, args.hold - (time.monotonic() - fired)))
    half.stop.set()
    half.join()
    poller.stop.set()
    poller.join()
    sampler.stop.set()
    sampler.join()
    last = status_of(proc.pid)
    if overflows is not None:
        overflows = listen_overflows() - overflows

    lat = poller.latencies
    budget_mb = args.memory + args.margin
    max_threads = args.connections + args.jobs + 4
    peak_mb = max(sampler.hwm, last["VmHWM"]) / 1024
    figures = {
        "command": " ".join(os.path.relpath(c) if c == args.kete else c for c in cmd),
        "variants_polls": len(lat),
        "variants_median_ms": statistics.median(lat) * 1000 if lat else None,
        "variants_max_ms": max(lat) * 1000 if lat else None,
        "idle_rss_mb": idle["VmRSS"] / 1024,
        "peak_rss_mb": peak_mb,
        "rss_budget_mb": budget_mb,
        "idle_threads": idle["Threads"],
        "peak_threads": sampler.threads,
        "threads_bound": max_threads,
        "half_open_opened": half.opens,
        "half_open_opened_in_s": opened_in,
        "listen_overflows": overflows,
        "searches_answered_in_s": searched_in,
        "searches": dict(counts.items()),
        "half_open": dict(half.counts.items()),
        "variants": dict(poller.counts.items()),
    }
    failures = []
    if not lat or max(lat) > args.max_latency:
        failures.append(f"an /api/variants answer took over {args.max_latency} s or failed")
    if peak_mb > budget_mb:
        failures.append(f"peak RSS {peak_mb:.1f} MB over the budget of {budget_mb} MB")
    if sampler.threads > max_threads:
        failures.append(f"{sampler.threads} threads, over {max_threads}")

    print(f"server: {figures['command']}")
    print(f"load: {args.half_open} half-open connections"
          f"{' (each replaced when closed)' if args.reopen else ''}"
          f" opened in {opened_in:.2f} s, then {args.searches} searches of"
          f" {args.movetime} ms at once, all answered in {searched_in:.2f} s")
    if overflows:
        print(f"  ({overflows} connects refused for a full accept queue, each tried again"
              f" by the client's kernel a second or more later)")
    rows = [
        ("GET /api/variants", f"{len(lat)} answers, median {ms(statistics.median(lat))},"
                              f" max {ms(max(lat))} (limit {args.max_latency * 1000:.0f} ms)"),
        ("resident memory", f"peak {peak_mb:.1f} MB (VmHWM; idle {idle['VmRSS'] / 1024:.1f} MB),"
                            f" budget {budget_mb} MB = --memory {args.memory} + {args.margin}"),
        ("threads", f"peak {sampler.threads} (idle {idle['Threads']}),"
                    f" bound {max_threads} = --connections {args.connections}"
                    f" + --jobs {args.jobs} + 4"),
        ("searches", ", ".join(f"{k}: {v}" for k, v in counts.items())),
        ("half-open", ", ".join(f"{k}: {v}" for k, v in half.counts.items())),
        ("/api/variants", ", ".join(f"{k}: {v}" for k, v in poller.counts.items())),
    ]
    width = max(len(r[0]) for r in rows)
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    if args.json:
        print(json.dumps(figures))
    for f in failures:
        print(f"FAIL: {f}")
    print("ok" if not failures else "the server did not hold")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
