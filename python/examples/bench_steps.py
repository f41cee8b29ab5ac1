"""Steps per second of random play, the ways a learning program can step
kete's games from Python, as docs/PERFORMANCE.md reports them.

    python bench_steps.py [--runs N] [--seconds S]

A step is one move played. Every way plays uniformly random legal moves.
The loops over one game draw them the same cheap way: one numpy draw of
uniforms per block of steps, each turned into an index among the legal
actions. The ways:

* ``VectorGames n=…``: ``kete.VectorGames.step`` with 1, 256, 4,096 and
  16,384 games, stepped in Rust on every core (``copy=False``), ended
  games started again inside the step, the moves drawn in numpy (a float32
  uniform a legal action, the largest taken); ``random_actions()``: the
  moves drawn by the batch itself;
* ``Game loop``: a Python loop over ``kete.Game`` (``legal_actions()``,
  ``push_action()``);
* ``OpenSpiel <name>``: OpenSpiel's own C++ game through pyspiel
  (``legal_actions()``, ``apply_action()``): ``mancala`` (Kalah 6x4) and
  ``oware`` (Abapa rules);
* ``OpenSpiel <name>, random.choice``: the same C++ game in the loop a
  researcher writes first, ``state.apply_action(rng.choice(
  state.legal_actions()))`` with Python's ``random``;
* ``OpenSpiel kete_<variant>``: kete's game registered in OpenSpiel
  (``kete.openspiel``), the same loop: a Python game, for scale;
* ``PettingZoo env`` and ``raw_env``: kete's AEC environment with and
  without PettingZoo's wrappers (``agent_iter``, ``last``, ``step``, the
  move drawn from the observation's action mask).

Kalah(6,4), Oware under the Abapa rules (OpenSpiel's), and Bao la
Kiswahili. Each way runs ``--seconds`` at a time; the runs take the ways in
turn, so that a load on the machine falls on all of them alike; the table
gives the median and the range over the runs. The OpenSpiel rows are left
out where pyspiel is not installed.
"""

import argparse
import random
import statistics
import sys
import time
from importlib import metadata

import numpy as np

import kete

VARIANTS = [
    ("Kalah(6,4)", "kalah", {}, "mancala"),
    ("Oware (Abapa)", "oware", {"rules": "abapa"}, "oware"),
    ("Bao la Kiswahili", "bao-kiswahili", {}, None),
]

# Uniforms drawn at a time by the loops that play one game.
BLOCK = 4096


def vector_steps(variant, options, n, seconds, seed, own=False):
    """Steps/s of `VectorGames` with `n` games: a float32 uniform for every
    action of every game, zero where illegal, and the largest taken (in
    numpy); with `own`, the batch's own `random_actions()` instead."""
    games = kete.VectorGames(variant, n, seed=seed, copy=False, **options)
    rng = np.random.default_rng(seed)
    _, mask = games.reset()
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(64):
            if own:
                actions = games.random_actions()
            else:
                actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(1)
            _, mask, _, _, _ = games.step(actions)
        steps += 64 * n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def loop_steps(new_game, legal, play, over, seconds, seed):
    """Steps/s of a Python loop over one game at a time, the game given by
    its four operations, a new game started when one ends."""
    rng = np.random.default_rng(seed)
    steps = 0
    game = new_game()
    start = time.perf_counter()
    while True:
        for u in rng.random(BLOCK):
            actions = legal(game)
            play(game, actions[int(u * len(actions))])
            if over(game):
                game = new_game()
        steps += BLOCK
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def game_loop(variant, options, seconds, seed):
    """A Python loop over `kete.Game.push_action`."""
    return loop_steps(
        lambda: kete.Game(variant, **options),
        lambda g: g.legal_actions(),
        lambda g, a: g.push_action(a),
        lambda g: g.is_over,
        seconds,
        seed,
    )


def spiel_loop(game, seconds, seed):
    """A Python loop over a pyspiel game's `apply_action`."""
    return loop_steps(
        game.new_initial_state,
        lambda s: s.legal_actions(),
        lambda s, a: s.apply_action(a),
        lambda s: s.is_terminal(),
        seconds,
        seed,
    )


def spiel_choice_loop(game, seconds, seed):
    """A pyspiel game stepped as `state.apply_action(rng.choice(
    state.legal_actions()))`, with Python's `random`."""
    rng = random.Random(seed)
    steps = 0
    state = game.new_initial_state()
    start = time.perf_counter()
    while True:
        for _ in range(BLOCK):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                state = game.new_initial_state()
        steps += BLOCK
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def pettingzoo_loop(make, seconds, seed):
    """Moves/s of a PettingZoo AEC environment, made once and reset for
    every game: `agent_iter`, `last` and `step`, the move a uniform choice
    among the mask's legal actions."""
    rng = np.random.default_rng(seed)
    steps = 0
    env = make()
    start = time.perf_counter()
    while True:
        env.reset(seed=int(rng.integers(2**31)))
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def ways(variant, options, spiel_name, pyspiel, zoo):
    """The ways to step one variant: (label, function of seconds and
    seed)."""
    out = [
        (f"VectorGames n={n}", lambda s, r, n=n: vector_steps(variant, options, n, s, r))
        for n in (1, 256, 4096, 16384)
    ]
    out += [
        (f"VectorGames n={n}, random_actions()", lambda s, r, n=n: vector_steps(variant, options, n, s, r, own=True))
        for n in (4096, 16384)
    ]
    out.append(("Game loop", lambda s, r: game_loop(variant, options, s, r)))
    if zoo:
        import kete.pettingzoo

        out.append(("PettingZoo env", lambda s, r: pettingzoo_loop(lambda: kete.pettingzoo.env(variant, **options), s, r)))
        out.append(("PettingZoo raw_env", lambda s, r: pettingzoo_loop(lambda: kete.pettingzoo.raw_env(variant, **options), s, r)))
    if pyspiel is None:
        return out
    import kete.openspiel

    kete.openspiel.register()
    if spiel_name is not None:
        native = pyspiel.load_game(spiel_name)
        out.append((f"OpenSpiel {spiel_name}", lambda s, r: spiel_loop(native, s, r)))
        out.append((f"OpenSpiel {spiel_name}, random.choice", lambda s, r: spiel_choice_loop(native, s, r)))
    name = kete.openspiel.game_name(variant)
    ours = pyspiel.load_game(name, options)
    out.append((f"OpenSpiel {name}", lambda s, r: spiel_loop(ours, s, r)))
    return out


def cpu_name():
    """The processor's name, where Linux tells it."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="measurements of each way (default 3)")
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one measurement")
    ap.add_argument("--games", default="kalah,oware,bao-kiswahili", help="variants to measure, by kete name")
    args = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("pyspiel is not installed: kete alone", file=sys.stderr)
    try:
        import pettingzoo  # noqa: F401

        zoo = True
    except ImportError:
        zoo = False
        print("pettingzoo is not installed: no PettingZoo rows", file=sys.stderr)
    versions = f"kete {kete.__version__}, Python {sys.version.split()[0]}, numpy {np.__version__}"
    if pyspiel is not None:
        versions += f", OpenSpiel {metadata.version('open_spiel')}"
    print(f"{versions}; {cpu_name()}; {args.runs} runs of {args.seconds:g} s")
    table = []
    for label, variant, options, spiel_name in VARIANTS:
        if variant not in args.games.split(","):
            continue
        rows = ways(variant, options, spiel_name, pyspiel, zoo)
        rates = {way: [] for way, _ in rows}
        for run in range(args.runs):
            for way, measure in rows:
                rates[way].append(measure(args.seconds, run))
        for way, _ in rows:
            table.append((label, way, rates[way]))
    print("| game | way | steps/s (median) | min | max |")
    print("| --- | --- | ---: | ---: | ---: |")
    for label, way, r in table:
        print(f"| {label} | {way} | {statistics.median(r):,.0f} | {min(r):,.0f} | {max(r):,.0f} |")


if __name__ == "__main__":
    main()
