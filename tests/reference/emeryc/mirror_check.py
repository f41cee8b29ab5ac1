"""Explains the board disagreements of emeryc/mancala's Ayoayo with kete's.

    python3 tests/reference/emeryc/mirror_check.py TRACE.jsonl

Replays every ply of emeryc's traces (written by driver.rs) with a small
model of kete's ayoayo (relay sowing that passes over each lap's own hole,
the capture of the hole across when a relay ends in an empty hole of the
mover's, the capturing seed left where it fell) in which the capture takes
the opponent's hole six places on instead of the hole across. A move that leaves
the opponent's row empty ends the game there, the mover banking every seed
left, as emeryc does. It prints the plies this model does not explain (none
is expected) and how many plies the two captures tell apart:
tests/reference.rs counts those as its board disagreements with emeryc.
"""

import json
import sys


def sow(pits, side, pit, mirrored):
    """One move on 12 holes in sowing order; the holes after it and what
    the mover takes, or None if the relay never ends."""
    b = list(pits)
    at = 6 * side + pit
    seen = set()
    while True:
        origin, hand = at, b[at]
        b[at] = 0
        while hand:
            at = (at + 1) % 12
            if at == origin:
                at = (at + 1) % 12
            b[at] += 1
            hand -= 1
        if b[at] == 1:
            break
        if (tuple(b), at) in seen:
            return None
        seen.add((tuple(b), at))
    taken = 0
    if at // 6 == side:
        across = (at + 6) % 12 if mirrored else 11 - at
        taken, b[across] = b[across], 0
    return b, taken


def main():
    unexplained = told_apart = plies = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            game = json.loads(line)
            token = game["start"]
            for k, ply in enumerate(game["plies"]):
                cells = [int(x) for x in token.split("-")[:14]]
                side = 0 if token.endswith("S") else 1
                pit = "abcdef".index(ply["move"]) if side else "ABCDEF".index(ply["move"])
                plies += 1
                mirrored = sow(cells[:12], side, pit, True)
                across = sow(cells[:12], side, pit, False)
                if mirrored is None:
                    unexplained += 1
                    print(f"seed {game['seed']} ply {k + 1}: the relay never ends")
                    token = ply["after"]
                    continue
                if across != mirrored:
                    told_apart += 1
                b, taken = mirrored
                stores = cells[12:14]
                stores[side] += taken
                if sum(b[6 * (1 - side):6 * (2 - side)]) == 0:
                    # The opponent cannot move: the mover banks the rest.
                    stores[side] += sum(b)
                    b = [0] * 12
                after = [int(x) for x in ply["after"].split("-")[:14]]
                if b + stores != after:
                    unexplained += 1
                    print(f"seed {game['seed']} ply {k + 1}: {token} {ply['move']}: "
                          f"model {b + stores}, emeryc {after}")
                token = ply["after"]
    print(f"{plies} plies, {unexplained} not explained by the mirrored capture, "
          f"{told_apart} where it takes another hole than the one across")


if __name__ == "__main__":
    main()
