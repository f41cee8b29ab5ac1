"""The package's speed, as docs/PERFORMANCE.md reports it.

    python speed.py perft KETE [--runs N]
    python speed.py random [--runs N] [--games N]
    valgrind --tool=callgrind python speed.py moves [--games N]
    python speed.py lines [--positions N] [--runs N] [--time S]

`perft`: `Position.perft` against the `kete perft` binary KETE, alternating
the two, each run in a process of its own, on the same positions and
depths; the median of each (the time of the count alone, as `kete perft`
prints it).

`random`: positions per second of a Python loop that plays random games,
each move chosen among the legal ones: kete's `Game` played in place
(`moves()`, `push()`) and `Position` played by value (`moves()`,
`play()`), and OpenSpiel's `pyspiel` where it is installed, in place
(`legal_actions()`, `apply_action()`) and by value (`child()`): Kalah
6x4 (`mancala`) and Oware under the Abapa rules (`oware`, OpenSpiel's).

`moves`: one loop to count instructions in, not to time: N random Kalah
games by `Position.play`, then N Oware games by `Game.push_action`, each
move `random.choice` of the legal ones (seeded); prints the moves played.
Under callgrind, with the import alone (`moves --games 0`) subtracted, it
gives the instructions a move, which do not depend on the machine's load.

`lines`: the exact solver on Oware positions of random games (seeded), the
first of each game with 12 seeds or fewer on the board, each solved as the
game reached it (with its line, as `Engine.solve` of a game's position) and
from its token alone; the median time of `--runs` solves of each, each in a
new engine, bounded by `--time` seconds.
"""

import argparse
import random
import re
import statistics
import subprocess
import sys
import time

import kete

PERFT = [
    ("kalah", 11),
    ("oware", 10),
    ("endodoi", 9),
    ("bao-kujifunza", 10),
    ("bao-kiswahili", 12),
]


ONE_PERFT = """
import sys, time, kete
pos = kete.Position(sys.argv[1])
t = time.perf_counter()
n = pos.perft(int(sys.argv[2]))
print(n, time.perf_counter() - t)
"""


def perft(binary, runs):
    for variant, depth in PERFT:
        cli, py = [], []
        total = None
        for _ in range(runs):
            out = subprocess.run(
                [binary, "perft", f"--variant={variant}", f"--depth={depth}"],
                capture_output=True, text=True, check=True,
            ).stdout
            cli.append(float(re.search(r"^time: ([\d.]+) s$", out, re.M).group(1)))
            total = int(re.search(r"^total: (\d+)$", out, re.M).group(1))
            # A fresh process each time, as `kete perft` is: the rules keep
            # process-wide caches (Bao's and En Dodoi's never-ending laps)
            # that a long-lived process would have warmed.
            out = subprocess.run([sys.executable, "-c", ONE_PERFT, variant, str(depth)],
                                 capture_output=True, text=True, check=True).stdout.split()
            py.append(float(out[1]))
            assert int(out[0]) == total, (variant, depth, out, total)
        c, p = statistics.median(cli), statistics.median(py)
        print(f"{variant} depth {depth}: {total} sequences; kete perft {c:.3f} s, "
              f"Position.perft {p:.3f} s ({100 * (p / c - 1):+.1f} %)")


def kete_in_place(variant, options, games, seed):
    rng = random.Random(seed)
    positions = 0
    t = time.perf_counter()
    for _ in range(games):
        game = kete.Game(variant, **options)
        positions += 1
        while not game.is_over:
            game.push(rng.choice(game.moves()))
            positions += 1
    return positions / (time.perf_counter() - t)


def kete_by_value(variant, options, games, seed):
    rng = random.Random(seed)
    positions = 0
    t = time.perf_counter()
    for _ in range(games):
        pos = kete.Position(variant, **options)
        positions += 1
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.moves()))
            positions += 1
    return positions / (time.perf_counter() - t)


def spiel_in_place(name, games, seed):
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    positions = 0
    t = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        positions += 1
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            positions += 1
    return positions / (time.perf_counter() - t)


def spiel_by_value(name, games, seed):
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    positions = 0
    t = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        positions += 1
        while not state.is_terminal():
            state = state.child(rng.choice(state.legal_actions()))
            positions += 1
    return positions / (time.perf_counter() - t)


def randoms(runs, games):
    try:
        import pyspiel  # noqa: F401

        have_spiel = True
    except ImportError:
        have_spiel = False
        print("pyspiel is not installed: kete alone", file=sys.stderr)
    for label, variant, options, spiel in (
        ("Kalah 6x4", "kalah", {}, "mancala"),
        ("Oware (Abapa)", "oware", {"rules": "abapa"}, "oware"),
    ):
        # The runs alternate between the loops, so that a load on the
        # machine falls on all of them alike.
        rates = {k: [] for k in ("kete in place", "kete by value", "pyspiel in place", "pyspiel by value")}
        for s in range(runs):
            rates["kete in place"].append(kete_in_place(variant, options, games, s))
            rates["kete by value"].append(kete_by_value(variant, options, games, s))
            if have_spiel:
                rates["pyspiel in place"].append(spiel_in_place(spiel, games, s))
                rates["pyspiel by value"].append(spiel_by_value(spiel, games, s))
        med = {k: statistics.median(v) for k, v in rates.items() if v}
        print(f"{label}: " + ", ".join(f"{k} {v:,.0f}" for k, v in med.items()) + " positions/s")
        if have_spiel:
            for how in ("in place", "by value"):
                print(f"  {how}: kete {med['kete ' + how] / med['pyspiel ' + how]:.2f}x pyspiel")


def moves(games):
    """Plays `games` random Kalah and Oware games; returns the moves."""
    rng = random.Random(1)
    played = 0
    for _ in range(games):
        p = kete.Position("kalah")
        while not p.is_over:
            p = p.play(rng.choice(p.moves()))
            played += 1
    for _ in range(games):
        g = kete.Game("oware")
        while not g.is_over:
            g.push_action(rng.choice(g.legal_actions()))
            played += 1
    return played


def lines(positions, runs, limit):
    """Solves positions of random Oware games with and without their line."""
    rng = random.Random(3)
    found = []
    while len(found) < positions:
        p = kete.Position("oware")
        while not p.is_over and sum(int(x) for x in p.fen.split("-")[:12]) > 12:
            p = p.play(rng.choice(p.moves()))
        if not p.is_over:
            found.append(p)
    for p in found:
        for label, q in (("after its line", p), ("token alone", kete.Position.from_fen("oware", p.fen))):
            times, answer = [], None
            for _ in range(runs):
                e = kete.Engine(hash_mb=64)
                t = time.perf_counter()
                answer = e.solve(q, time=limit)
                times.append(time.perf_counter() - t)
            print(f"{p.fen} {label} ({len(q.history)} moves): {statistics.median(times):.2f} s, {answer!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("perft")
    p.add_argument("kete")
    p.add_argument("--runs", type=int, default=5)
    r = sub.add_parser("random")
    r.add_argument("--runs", type=int, default=5)
    r.add_argument("--games", type=int, default=2000)
    m = sub.add_parser("moves")
    m.add_argument("--games", type=int, default=200)
    li = sub.add_parser("lines")
    li.add_argument("--positions", type=int, default=3)
    li.add_argument("--runs", type=int, default=3)
    li.add_argument("--time", type=float, default=10.0)
    args = ap.parse_args()
    print(f"kete {kete.__version__}, Python {sys.version.split()[0]}")
    if args.what == "perft":
        perft(args.kete, args.runs)
    elif args.what == "moves":
        print(f"{moves(args.games)} moves")
    elif args.what == "lines":
        lines(args.positions, args.runs, args.time)
    else:
        randoms(args.runs, args.games)


if __name__ == "__main__":
    main()
