"""Plays seeded random games of a game of StoneShark/MancalaGames (a
generic, parameterised mancala engine in Python, GPL-3.0) and writes them
as kete's reference traces, one game a JSON line (see tests/reference.rs).

    python3 tests/reference/stoneshark.py CHECKOUT SEED GAMES OUT.jsonl \
        [--props GameProps/Ayoayo.txt] [--game ayoayo] [--variant NAME] \
        [--set game_info.rounds=0 ...] [--mirror]

`--variant` chooses one of the file's variants; each `--set` changes one
parameter after that (`game_constants.KEY` or `game_info.KEY`, the value
read as JSON), so that one file plays the game kete describes (seven
seeds a pit, one round). The trace's implementation field names the file,
the variant and every parameter set.

CHECKOUT is a checkout of StoneShark/MancalaGames; its `src` is imported
from there and nothing of it is copied here. Game g of the run uses the
seed SEED + g, so that one game can be played again alone.

How StoneShark's game maps onto kete's position token: its board is one
list of 2 x holes locations sown counter-clockwise in increasing order,
locations 0..holes-1 the bottom row (player False) from left to right,
holes..2*holes-1 the top row (player True) from its right end to its
left end, which is that player's own left to right. So the board list is
already in kete's sowing order (South's pits from his left, North's from
his left); `store` is [False, True]. False is kete's South and moves
first. A move is a position counted on the screen from the left
(`xlate_pos_loc(row, pos)` gives its location; the bottom row is row 1):
its location is turned into kete's pit letter.

With `--mirror` the board is read in a mirror: StoneShark sows the game
anticlockwise with each store at its owner's right, kete clockwise with
each store at its owner's left (Congkak), the same game seen from the
other side of the board. South's hole i from his left is kete's pit
holes-1-i, and North's likewise.
"""

import argparse
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
    ap.add_argument("--props", default="GameProps/Ayoayo.txt",
                    help="the game's file, relative to the checkout")
    ap.add_argument("--game", default="ayoayo", help="kete's name of the game")
    ap.add_argument("--variant", default=None,
                    help="one of the file's variants")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a parameter, game_constants.KEY or game_info.KEY")
    ap.add_argument("--mirror", action="store_true",
                    help="the board seen from the other side (see above)")
    ap.add_argument("--max-plies", type=int, default=2000)
    args = ap.parse_args()

    checkout = os.path.abspath(args.checkout)
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"],
                            capture_output=True, text=True,
                            check=True).stdout.strip()
    # StoneShark finds its files from the working directory.
    os.chdir(checkout)
    sys.path.insert(0, os.path.join(checkout, "src"))
    import animator  # noqa: E402  (from the checkout)
    animator.ENABLED = False
    import game_info as gi  # noqa: E402
    import man_config  # noqa: E402
    from game_logger import game_log  # noqa: E402
    game_log.active = False

    implementation = f"StoneShark/MancalaGames@{commit} {args.props}"
    if args.variant:
        implementation += f" variant {args.variant}"
    for kv in args.set:
        implementation += f" {kv}"

    def make_game():
        if not args.variant and not args.set:
            return man_config.make_game(args.props)[0]
        game_dict = man_config.read_game(args.props)
        if man_config.PARAMS is None:
            man_config.read_params_data()
        if args.variant:
            man_config.update_config_for_variant(game_dict, args.variant)
        for kv in args.set:
            key, value = kv.split("=", 1)
            section, name = key.split(".", 1)
            value = json.loads(value)
            if section == "game_info":
                value = man_config.convert_from_file("--set", name, value)
            game_dict[section][name] = value
        return man_config.game_from_config(game_dict)

    with open(args.out, "w", encoding="utf-8") as out:
        for g in range(args.games):
            seed = args.seed + g
            rng = random.Random(seed)
            # StoneShark draws the starter with the module's random: seed
            # it too, then set the starter to False all the same.
            random.seed(seed)
            game = make_game()
            holes = game.cts.holes
            game.new_game()
            game.turn = game.starter = False

            def kete_index(loc):
                """StoneShark's location as kete's place."""
                if not args.mirror:
                    return loc
                if loc < holes:
                    return holes - 1 - loc
                return holes + (2 * holes - 1 - loc)

            def letter(loc):
                loc = kete_index(loc)
                if loc < holes:
                    return chr(ord("A") + loc)
                return chr(ord("a") + loc - holes)

            def token():
                board = [0] * (2 * holes)
                for loc, seeds in enumerate(game.board):
                    board[kete_index(loc)] = seeds
                cells = board + list(game.store)
                return "-".join(str(v) for v in cells) + "-" + ("N" if game.turn else "S")

            def legal():
                row = 0 if game.turn else 1
                moves = {}
                for mv in game.get_moves():
                    pos = mv if isinstance(mv, int) else mv[-2]
                    moves[letter(game.cts.xlate_pos_loc(row, pos))] = mv
                return moves

            record = {
                "implementation": implementation,
                "game": args.game,
                "seed": seed,
                "start": token(),
                "plies": [],
            }
            end = {"over": False, "result": None, "seeds": None}
            for _ in range(args.max_plies):
                moves = legal()
                if not moves:
                    # StoneShark ends the game in the move before; a
                    # position without moves is not reached.
                    end["why"] = "no legal move, game not ended"
                    break
                names = sorted(moves)
                name = rng.choice(names)
                cond = game.move(moves[name])
                if cond is None or not cond.is_game_over():
                    # A pass StoneShark would make (MUSTPASS): the player
                    # to move next, after a repeat turn or not, has no
                    # seeds and the other moves at once.
                    if game.info.mustpass:
                        game.test_pass()
                record["plies"].append({"legal": names, "move": name, "after": token()})
                if cond is not None and cond.is_game_over():
                    winner = game.mdata.winner
                    end["over"] = True
                    if cond.is_tie():
                        end["result"] = "draw"
                    else:
                        end["result"] = "p2win" if winner else "p1win"
                    # The stores count when the board has been cleared;
                    # a game won by a majority leaves seeds on it.
                    if sum(game.board) == 0:
                        end["seeds"] = list(game.store)
                    end["why"] = cond.name
                    if game.mdata.end_msg:
                        end["why"] += ": " + " ".join(game.mdata.end_msg.split())
                    break
            record["end"] = end
            out.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
