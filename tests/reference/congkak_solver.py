"""Plays seeded random games of afiq-aswadi/congkak-solver (Congkak; its
rules in Rust, congkak-core/src/moves.rs, used from Python) and writes
them as kete's reference traces, one game a JSON line (see
tests/reference.rs).

    python3 tests/reference/congkak_solver.py CHECKOUT SEED GAMES OUT.jsonl \
        [--forfeit]

CHECKOUT is a checkout of afiq-aswadi/congkak-solver whose Rust core has
been built, outside this repository, into the Python module
`congkak_core` (its own pyo3 bindings); the module is imported from
CHECKOUT/src/congkak or from the import path. Nothing of it is copied
here. Game g of the run uses the seed SEED + g.

The game is played as its rules define one: `get_legal_moves`, then
`apply_move` with a `RuleConfig` of its defaults (turn by turn, South
first), but for its `forfeit_enabled`: that option (on by default) sends a
last seed that falls into an empty hole of the opponent's to the
opponent's store, where Wikipedia, which its RULES.md quotes, leaves it in
the hole; the driver turns it off unless `--forfeit` is given. The game is
over when `is_terminal` (either row empty after a move); its
`get_final_scores` then gives each player his store and the seeds of his
own row.

Its board: `pits[0..7]` player 0's holes from his left, `pits[7..14]`
player 1's from his left, `pits[14]` player 0's store (at his left),
`pits[15]` player 1's: kete's order, sown clockwise. Player 0 moves first
and is kete's South. A move is a hole index, written as kete's pit letter.
"""

import argparse
import glob
import json
import os
import random
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout")
    ap.add_argument("seed", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("out")
    ap.add_argument("--forfeit", action="store_true",
                    help="keep its forfeit rule (see above)")
    ap.add_argument("--max-plies", type=int, default=3000)
    args = ap.parse_args()

    checkout = os.path.abspath(args.checkout)
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    sys.path.insert(0, os.path.join(checkout, "src", "congkak"))
    import congkak_core as cc  # noqa: E402  (built from the checkout)

    rules = cc.RuleConfig(forfeit_enabled=args.forfeit)
    implementation = (f"afiq-aswadi/congkak-solver@{commit} congkak-core/src/moves.rs "
                      f"forfeit_enabled={args.forfeit}")

    def letter(i):
        return chr(ord("A") + i) if i < 7 else chr(ord("a") + i - 7)

    def token(state):
        pits = list(state.pits)
        return "-".join(str(v) for v in pits) + "-" + ("S" if state.current_player == 0 else "N")

    with open(args.out, "w", encoding="utf-8") as out:
        for g in range(args.games):
            seed = args.seed + g
            rng = random.Random(seed)
            state = cc.BoardState.initial()
            record = {"implementation": implementation, "game": "congkak",
                      "seed": seed, "start": token(state), "plies": []}
            end = {"over": False, "result": None, "seeds": None}
            for _ in range(args.max_plies):
                if cc.is_terminal(state):
                    s, n = cc.get_final_scores(state)
                    end = {"over": True,
                           "result": "p1win" if s > n else "p2win" if n > s else "draw",
                           "seeds": [s, n], "why": "is_terminal: a row is empty"}
                    break
                moves = {letter(i): i for i in cc.get_legal_moves(state)}
                names = sorted(moves)
                if not names:
                    end["why"] = "no legal move, game not ended"
                    break
                name = rng.choice(names)
                state = cc.apply_move(state, moves[name], rules).state
                record["plies"].append({"legal": names, "move": name, "after": token(state)})
            record["end"] = end
            out.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
