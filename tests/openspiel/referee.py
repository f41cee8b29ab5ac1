"""OpenSpiel as an independent referee of kete's rules.

Plays random games in OpenSpiel's own implementations -- `mancala` (Kalah
6x4, the standard capture) and `oware` (the Abapa rules with the own-side
repetition rule, any board) -- and asks a kete engine, through its text
protocol, about every position of every game: the position token, the
legal moves, whether the game is over and its result. The whole line is
given each time (`position fen <start> moves ...`), so kete judges
repetitions from the same history as OpenSpiel.

    python3 referee.py <path of kete> [games per board] [seed]

Prints one summary line per board; exits with 1, naming the game, the line
and both answers, at the first disagreement. Run by tests/openspiel.rs.
"""

import random
import subprocess
import sys

import pyspiel


class Engine:
    """A kete process spoken to line by line."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("ugi")
        self.read_until("ugiok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise Disagreement("kete ended its output")
            line = line.rstrip("\n")
            if line.startswith("info string error"):
                raise Disagreement("kete: " + line)
            if line.startswith(prefix):
                return line

    def query(self, what):
        self.send("query " + what)
        return self.read_until("response").partition(" ")[2]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


class Disagreement(Exception):
    pass


def oware_token(state):
    # "<player> | <score 0> <score 1> | <houses from South's first>"
    player, scores, houses = state.observation_string(0).split("|")
    side = "S" if int(player) == 0 else "N"
    return "-".join(houses.split() + scores.split() + [side])


def oware_move(state, action):
    return state.action_to_string(state.current_player(), action)


def kalah_token(state):
    # Pits 0..13: North's store, South's pits 1..6, South's store, North's
    # pits 8..13 in sowing order (from North's left); then the player.
    t = [int(x) for x in state.observation_tensor(0)]
    side = "S" if t[14] == 0 else "N"
    return "-".join(str(x) for x in t[1:7] + t[8:14] + [t[7], t[0]] + [side])


def kalah_move(state, action):
    return chr(ord("A") + action - 1) if action <= 6 else chr(ord("a") + action - 8)


def result_of(state):
    south = state.returns()[0]
    return "p1win" if south > 0 else "p2win" if south < 0 else "draw"


def referee(kete, name, game, token, move, options, games, rng):
    engine = Engine(kete)
    for option, value in options:
        engine.send(f"setoption name {option} value {value}")
    plies, endings = 0, {}
    for number in range(games):
        state = game.new_initial_state()
        start, line = token(state), []
        while True:
            where = f"{name} game {number}, line {' '.join(line) or '(none)'}"
            engine.send(f"position fen {start}" + (" moves " + " ".join(line) if line else ""))
            over = engine.query("gameover") == "true"
            if state.is_terminal():
                if not over:
                    raise Disagreement(f"{where}: OpenSpiel ends the game, kete does not")
                ours, theirs = engine.query("result"), result_of(state)
                if ours != theirs:
                    raise Disagreement(f"{where}: result {ours}, OpenSpiel {theirs}")
                reason = engine.query("reason").split(" ")[0]
                endings[reason] = endings.get(reason, 0) + 1
                break
            if over:
                reason = engine.query("reason")
                raise Disagreement(f"{where}: kete ends the game ({reason}), OpenSpiel does not")
            ours, theirs = engine.query("fen"), token(state)
            if ours != theirs:
                raise Disagreement(f"{where}: position {ours}, OpenSpiel {theirs}")
            actions = state.legal_actions()
            legal = sorted(move(state, a) for a in actions)
            ours = sorted(engine.query("moves").split())
            if ours != legal:
                raise Disagreement(f"{where}: at {theirs} moves {ours}, OpenSpiel {legal}")
            action = rng.choice(actions)
            line.append(move(state, action))
            state.apply_action(action)
            plies += 1
    engine.close()
    ends = " ".join(f"{k}={v}" for k, v in sorted(endings.items()))
    print(f"{name}: {games} games, {plies} plies, ends {ends}", flush=True)


def main():
    kete = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    try:
        for houses, seeds in [(6, 4), (5, 3), (4, 3), (3, 2), (2, 2)]:
            game = pyspiel.load_game(
                "oware", {"num_houses_per_player": houses, "num_seeds_per_house": seeds}
            )
            options = [("Variant", "oware"), ("Rules", "abapa"), ("Repetition", "own-side"),
                       ("Pits", houses), ("Seeds", seeds)]
            referee(kete, f"oware abapa {houses}x{seeds}", game, oware_token, oware_move,
                    options, games, rng)
        referee(kete, "kalah 6x4", pyspiel.load_game("mancala"), kalah_token, kalah_move,
                [("Variant", "kalah"), ("Capture", "standard")], games, rng)
    except Disagreement as e:
        print(f"disagreement: {e}", flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
