"""Plays seeded random games of rahulsom/pallanguzhi (Pallanguzhi in
Python, src/board.py) and writes them as kete's reference traces, one
game a JSON line (see tests/reference.rs).

    python3 tests/reference/rahulsom_pallanguzhi.py CHECKOUT SEED GAMES OUT.jsonl \
        [--seeds 6]

CHECKOUT is a checkout of rahulsom/pallanguzhi; its `src/board.py` is
imported from there and nothing of it is copied here. Game g of the run
uses the seed SEED + g.

One round is one game, as kete plays it: the board starts with `--seeds`
in every cup (its own rounds fill 5 a cup from the players' stores; kete
describes today's game with 6) and both stores empty, and the round is
played the way its `game.play_game` plays one: a player without a cup to
sow passes, and the round is complete when at most one seed is left on
the board; `Board.clear` then gives each player the seeds of his row.

Its board is one list of 14 cups sown in increasing order (anticlockwise):
cups 0..6 player 1's from his left, 7..13 player 2's from his left, which
is kete's sowing order; `taken_tokens` are the two stores. Player 1 is
kete's South and moves first. A move is a cup index, written as kete's
pit letter. `Board.play` gives up a move whose relay runs past 100 laps
(it puts the board back and returns a penalty without ending the turn):
such a move is left out of the legal moves written here.
"""

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import types


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout")
    ap.add_argument("seed", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("out")
    ap.add_argument("--seeds", type=int, default=6, help="seeds in every cup at the start")
    ap.add_argument("--max-plies", type=int, default=3000)
    args = ap.parse_args()

    checkout = os.path.abspath(args.checkout)
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    sys.path.insert(0, os.path.join(checkout, "src"))
    try:
        import texttable  # noqa: F401  (drawing only)
    except ImportError:
        # Only Board.render draws with it, and the driver never draws.
        sys.modules["texttable"] = types.ModuleType("texttable")
        sys.modules["texttable"].Texttable = None
    import board as rboard  # noqa: E402  (from the checkout)
    from constants import CUPS_PER_USER, MAX_MOVES_PENALTY  # noqa: E402

    m = CUPS_PER_USER
    implementation = f"rahulsom/pallanguzhi@{commit} src/board.py seeds={args.seeds}"

    def letter(cup):
        return chr(ord("A") + cup) if cup < m else chr(ord("a") + cup - m)

    with open(args.out, "w", encoding="utf-8") as out:
        for g in range(args.games):
            seed = args.seed + g
            rng = random.Random(seed)
            b = rboard.Board(tokens_by_cup=[args.seeds] * (2 * m), taken_tokens=[0, 0], turn=1)

            def token():
                cells = list(b.tokens_by_cup) + list(b.taken_tokens)
                return "-".join(str(v) for v in cells) + "-" + ("S" if b.turn == 1 else "N")

            def legal():
                """The cups whose move ends within its 100 laps, with the
                board after each."""
                moves = {}
                for cup in b.choices():
                    trial = copy.deepcopy(b)
                    if trial.play(cup, "driver") != MAX_MOVES_PENALTY:
                        moves[letter(cup)] = (cup, trial)
                return moves

            record = {"implementation": implementation, "game": "pallanguzhi",
                      "seed": seed, "start": token(), "plies": []}
            end = {"over": False, "result": None, "seeds": None}
            for _ in range(args.max_plies):
                if b.is_round_complete():
                    b.clear()
                    s, n = b.taken_tokens
                    end = {"over": True,
                           "result": "p1win" if s > n else "p2win" if n > s else "draw",
                           "seeds": [s, n],
                           "why": "round complete: at most one seed on the board"}
                    break
                if not b.choices():
                    # game.play_game passes; kete's position already has
                    # the other player to move.
                    b.pass_turn()
                    continue
                moves = legal()
                names = sorted(moves)
                if not names:
                    end["why"] = "every move runs past 100 laps"
                    break
                name = rng.choice(names)
                b = moves[name][1]
                after = token()
                if not b.is_round_complete() and not b.choices():
                    # The pass that follows, written into the position.
                    after = after[:-1] + ("S" if b.turn == 2 else "N")
                record["plies"].append({"legal": names, "move": name, "after": after})
            record["end"] = end
            out.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
