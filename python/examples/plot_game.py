"""Plots one game of a kete-arena tournament: the engines' evaluations and
the exact value kete's solver proves, ply by ply, from South's view.

    python plot_game.py [GAMES.jsonl] [--game ID] [--time SECONDS]
                        [--last N] [--out PNG]

By default: game 37 (mistakes on both sides) of the checked-in Kalah
tournament against cmancala (tournaments/kalah-vs-cmancala-st500/
games.jsonl), each position solved for at most 5 seconds, written to
plot_game.png. A position the solver does not settle in its time shows the
bounds it proved. Needs matplotlib (`pip install './python[plot]'`).
"""

import argparse
import pathlib
import sys

import kete

REPO = pathlib.Path(__file__).resolve().parents[2]
DEFAULT = REPO / "tournaments" / "kalah-vs-cmancala-st500" / "games.jsonl"


def south(value, side):
    """A value from the mover's view, from South's."""
    return value if side == "south" else -value


def evaluations(game):
    """(ply, seeds) of every engine score in the record, South's view; a
    mate score is drawn at the edge of the board (all seeds)."""
    edge = game.start().total_seeds
    out = []
    first = len(game.opening)
    for i, m in enumerate(game.moves):
        if m.score is None or m.side is None:
            continue
        s = m.score.seeds if m.score.kind == "seeds" else (edge if m.score.mate > 0 else -edge)
        out.append((first + i, south(s, m.side)))
    return out


def exact_values(game, engine, time, last=None, progress=None):
    """(ply, value, lower, upper) of every position before a move and of
    the last one, South's view: `value` the solver's exact margin where it
    proved it (else None), and the bounds it proved."""
    positions = game.positions()
    first = len(game.opening)
    plies = list(enumerate(positions))
    if last:
        plies = plies[-last:]
    out = []
    for i, pos in plies:
        ply = first + i
        if pos.is_over:
            s, n = pos.outcome.seeds
            out.append((ply, s - n, s - n, s - n))
            continue
        sol = engine.solve(pos, time=time, all_best=False)
        lo, hi = south(sol.lower, sol.side), south(sol.upper, sol.side)
        value = sol.value_for_south if sol.proven else None
        out.append((ply, value, min(lo, hi), max(lo, hi)))
        if progress:
            progress(ply, sol)
    return out


def plot(game, evals, exact, out):
    """Draws the evaluations and the exact values into the PNG `out`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=100)
    for name, side, marker in ((game.south, "south", "o"), (game.north, "north", "s")):
        pts = [(p, v) for p, v in evals if game.moves[p - len(game.opening)].side == side]
        if pts:
            ax.plot(*zip(*pts), marker, markersize=4, label=f"{name}'s evaluation ({side})")
    proven = [(p, v) for p, v, _, _ in exact if v is not None]
    if proven:
        ax.plot(*zip(*proven), "-", color="black", linewidth=1.5, label="exact value (solver)")
    open_ = [(p, lo, hi) for p, v, lo, hi in exact if v is None]
    if open_:
        ax.vlines([p for p, _, _ in open_], [lo for _, lo, _ in open_], [hi for _, _, hi in open_],
                  color="grey", alpha=0.5, label="bounds proved (not settled in time)")
    ax.axhline(0, color="grey", linewidth=0.5)
    seeds = f" {game.seeds[0]}-{game.seeds[1]}" if game.seeds else ""
    ax.set_title(f"{game.variant}: {game.south} (South) vs {game.north} (North), game {game.id}: "
                 f"{game.result}{seeds}")
    ax.set_xlabel("ply (opening included)")
    ax.set_ylabel("seeds of margin for South")
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="?", default=str(DEFAULT))
    ap.add_argument("--game", type=int, default=37, help="the game's id")
    ap.add_argument("--time", type=float, default=5.0, help="seconds for each solve")
    ap.add_argument("--last", type=int, default=None, help="solve only the last N positions")
    ap.add_argument("--out", default="plot_game.png")
    args = ap.parse_args(argv)
    games = {g.id: g for g in kete.read_games(args.games)}
    if args.game not in games:
        sys.exit(f"no game {args.game} in {args.games}")
    game = games[args.game]
    engine = kete.Engine()

    def progress(ply, sol):
        state = f"{sol.value_for_south:+d}" if sol.proven else f"in [{sol.lower}, {sol.upper}] (mover)"
        print(f"ply {ply}: {state} ({sol.elapsed:.1f} s)", file=sys.stderr)

    exact = exact_values(game, engine, args.time, args.last, progress)
    plot(game, evaluations(game), exact, args.out)
    settled = sum(1 for _, v, _, _ in exact if v is not None)
    print(f"{args.out}: game {game.id}, {len(exact)} positions, {settled} solved exactly")


if __name__ == "__main__":
    main()
