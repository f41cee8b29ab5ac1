#!/usr/bin/python3
"""kete through Aualé's own UCI client, refereed by Aualé's own Oware rules.

Aualé (github.com/joansalasoler/auale, GPL) is read from a checkout named by
$KETE_AUALE; nothing of it is copied here. Its engine code is used as its
window uses it: `PlayerManager` starts the engine from one command string
(split on spaces, as the engine preference is), `GameLoop` asks for moves,
pondering and stops, and hands each move on through `GLib.idle_add` to a
GLib main loop. Aualé's `Match`/`Oware` referee every move, and a separate
kete (same command) is asked at every position for its legal moves, token,
game end, result, reason and final score, which must agree with Aualé's.

    KETE_AUALE=<checkout> python3 driver.py [--games SPEC,...] [--seed N]
        [--log FILE] [KETE COMMAND...]

A game SPEC is SIDE:LEVEL[:DEPTH]: SIDE is the side(s) kete plays, as in
Aualé's menu (both, north, south; a random mover takes the other side, as the
human), LEVEL Aualé's strength (easy, medium, hard, expert) and DEPTH caps the
level's depth (keeping its time, book and pondering). Needs Debian's
python3-gi. Exits 1 at any disagreement, engine failure, refused line or hang.
"""

import argparse
import logging
import os
import random
import re
import subprocess
import sys
import time
import types

ROOT = os.environ.get("KETE_AUALE") or sys.exit("KETE_AUALE must name an Aualé checkout")
SRC = os.path.join(ROOT, "src", "auale")
sys.path.insert(0, SRC)

import gi  # noqa: E402

gi.require_version("GLib", "2.0")
from gi.repository import GLib  # noqa: E402

# Aualé's own packages. gui/__init__.py starts GTK and Clutter, so `gui` and
# `gui.services` are entered as bare packages: only the modules below run.
for name in ("gui", "gui.services"):
    package = types.ModuleType(name)
    package.__path__ = [os.path.join(SRC, *name.split("."))]
    sys.modules[name] = package
from game import Match, Oware  # noqa: E402
from uci import Engine, Human, Strength  # noqa: E402
from uci.rules import parser  # noqa: E402
from gui.services.game_loop import GameLoop  # noqa: E402
from gui.services.player_manager import PlayerManager  # noqa: E402
from gui.values import Side  # noqa: E402

ANIMATION_MS = 40  # stands in for the window's sowing animation


class Disagreement(Exception):
    pass


class Traffic(logging.Handler):
    """Reads Aualé's debug log of its engine lines (the GUI's `--debug`)."""

    LINE = re.compile(r"<Engine\((\d+), .*?\)> ([<>]) (.*)")

    def __init__(self, path):
        super().__init__(logging.DEBUG)
        self.file = open(path, "w") if path else None
        self.sent, self.received, self.unknown, self.errors = 0, 0, [], []
        self.last, self.pvs, self.whole_pvs = {}, 0, 0

    def emit(self, record):
        text = record.getMessage()
        if self.file:
            self.file.write(f"{record.name}: {text}\n")
        line = self.LINE.fullmatch(text)
        if line and line[2] == ">":
            self.sent += 1
        elif line:
            self.received += 1
            self.last[record.thread] = line[3]
            if line[3].startswith("info string error"):
                self.errors.append(line[3])
            elif line[3].startswith("info ") and " pv " in line[3]:
                # Aualé shows a line only as far as it reads it: letters together.
                sent = "".join(line[3].split(" pv ", 1)[1].split())
                self.pvs += 1
                self.whole_pvs += (parser.parse(line[3]) or {}).get("pv") == sent
        elif text == "Unknown UCI response":  # the client could not take a line
            line = self.last.get(record.thread, "?")
            self.unknown.append(line)
            # Harmless: kete's greeting, and `info string` before the first
            # search (the client then has no match to number it by).
            if not line.startswith(("kete ", "info string")):
                self.errors.append(f"Aualé could not take '{line}'")
        elif record.levelno >= logging.WARNING:
            self.errors.append(text)


class Referee:
    """A second kete, asked about every position of the game."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command.split(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def ask(self, line, prefix="response"):
        self.send(line)
        while True:
            answer = self.proc.stdout.readline()
            if not answer:
                raise Disagreement(f"referee kete ended its output after '{line}'")
            if answer.startswith("info string error"):
                raise Disagreement(f"referee kete refused '{line}': {answer.strip()}")
            if answer.startswith(prefix):
                return answer.rstrip("\n")[len(prefix):].strip()

    def close(self):
        self.proc.communicate("quit\n", timeout=10)


def cause(match):
    """Why Aualé's match ended, in kete's codes."""
    if match.is_repetition():
        return "repetition"
    index = match.get_current_index()
    board = Oware.make_move(match.get_board(index - 1), match.get_move(index))
    if board[12] > 24 or board[13] > 24:
        return "majority"
    own = board[0:6] if match.get_turn() == Oware.SOUTH else board[6:12]
    return "empty-row" if sum(own) == 0 else "cannot-feed"


def check(referee, match):
    """Aualé's view of the current position against kete's."""
    moves = Oware.to_moves_notation(match.get_moves()[:match.get_current_index()])
    referee.send(f"position startpos moves {moves}" if moves else "position startpos")
    ended = match.has_ended()
    if (referee.ask("query gameover") == "true") != ended:
        raise Disagreement(f"after '{moves}': Aualé says ended={ended}, kete does not")
    if not ended:
        legal = sorted(Oware.to_move_notation(m) for m in match.get_legal_moves())
        kete = sorted(referee.ask("query moves").split())
        if legal != kete:
            raise Disagreement(f"after '{moves}': legal moves Aualé {legal}, kete {kete}")
        token = Oware.to_board_notation(match.get_board(), match.get_turn())
        if referee.ask("query fen") != token:
            raise Disagreement(f"after '{moves}': Aualé's token {token}, kete's differs")
        return None
    winner = {Oware.SOUTH: "p1win", Oware.NORTH: "p2win", Oware.DRAW: "draw"}[match.get_winner()]
    result, reason = referee.ask("query result"), referee.ask("query reason").split()[0]
    over = referee.ask("d", prefix="Game over:")
    score = re.search(r"\((\d+)-(\d+)\)", over)
    score = score and f"{score[1]}-{score[2]}"
    theirs = (winner, cause(match), match.get_tag("Result"))
    if (result, reason, score) != theirs:
        raise Disagreement(f"after '{moves}': Aualé ends {theirs}, kete {(result, reason, score)}")
    return theirs


def level(spec):
    name, _, depth = spec.partition(":")
    strength = Strength[name.upper()]
    return types.SimpleNamespace(
        name=spec, search_depth=int(depth) if depth else strength.search_depth,
        search_timeout=strength.search_timeout, allows_book_search=strength.allows_book_search,
        allows_pondering=strength.allows_pondering)


def play(command, referee, side, strength, rng):
    """One game, run as Aualé's window runs it; returns the summary line."""
    failures = []
    players = PlayerManager()
    players.connect("engine-start-error", lambda _m, e: failures.append(f"start: {e}"))
    players.connect("engine-failure-error", lambda _m, r: failures.append(f"failure: {r}"))
    players.set_engine_command(command)
    players.set_engine_side(Side[side.upper()])
    players.start_players()
    players.set_engine_strength(strength)
    if not isinstance(players.get_engine_player(), Engine):
        raise Disagreement(f"Aualé could not start '{command}': {failures}")
    game_loop, match = GameLoop(), Match(Oware)
    loop, state = GLib.MainLoop(), {"error": None, "end": None, "deadline": 0}
    timeout = (strength.search_timeout or 4000) / 1000 * 3 + 10

    def stop(error=None):
        state["error"] = state["error"] or error
        loop.quit()
        return False

    def toggle():  # AualeWindow.toggle_active_player, without the book
        try:
            state["end"] = check(referee, match)
        except Disagreement as e:
            return stop(str(e))
        player = players.get_player_for_turn(match)
        game_loop.request_move(player, match)
        if state["end"]:
            return stop()
        state["deadline"] = time.monotonic() + timeout
        if isinstance(player, Human):  # the random mover thinks a little
            moves = match.get_legal_moves()
            GLib.timeout_add(rng.randint(50, 400), lambda: on_move(None, player, rng.choice(moves)))
        return False

    def on_move(_loop, player, move):  # AualeWindow.on_player_move_received
        if not match.is_legal_move(move):
            return stop(f"illegal move {move} by {player} at move {match.get_current_index() + 1}")
        match.add_move(move)
        GLib.timeout_add(ANIMATION_MS, toggle)
        return False

    def watchdog():
        if failures:
            return stop("; ".join(failures))
        if state["deadline"] and time.monotonic() > state["deadline"]:
            return stop(f"no move within {timeout:.0f} s at move {match.get_current_index() + 1}")
        return True

    game_loop.connect("move-received", on_move)
    GLib.timeout_add(100, watchdog)
    GLib.idle_add(toggle)
    started = time.monotonic()
    loop.run()
    players.quit_players()
    if state["error"] or failures:
        raise Disagreement(state["error"] or "; ".join(failures))
    winner, why, score = state["end"]
    moves = Oware.to_moves_notation(match.get_moves())
    return (f"{side}:{strength.name}: {len(match.get_moves())} moves in "
            f"{time.monotonic() - started:.1f} s, {winner} {score} by {why}; {moves}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="both:easy,north:medium,both:hard:8")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", help="write Aualé's debug log of the engine lines here")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = " ".join(args.command) or os.environ.get(
        "KETE_COMMAND", "kete --variant oware --rules abapa")
    traffic = Traffic(args.log)
    for name in ("uci", "game-loop"):
        logging.getLogger(name).addHandler(traffic)
        logging.getLogger(name).setLevel(logging.DEBUG)
    rng = random.Random(args.seed)
    started, referee = time.monotonic(), Referee(command)
    # The referee opens (or first builds) the endgame database, which the
    # engines then load from the cache within Aualé's 8 s wait for readyok.
    referee.ask("isready", prefix="readyok")
    print(f"kete through Aualé's client: '{command}', seed {args.seed}, "
          f"database ready in {time.monotonic() - started:.1f} s")
    try:
        for spec in args.games.split(","):
            side, _, strength = spec.partition(":")
            print(play(command, referee, side, level(strength), rng), flush=True)
    except Disagreement as e:
        print(f"DISAGREEMENT: {e}")
        return 1
    finally:
        referee.close()
        unknown = sorted(set(traffic.unknown))
        print(f"lines: {traffic.sent} sent, {traffic.received} received; "
              f"{len(traffic.unknown)} not understood by Aualé: {unknown[:6]}; "
              f"Aualé read the whole pv of {traffic.whole_pvs} of {traffic.pvs} info lines")
    if traffic.errors:
        print(f"DISAGREEMENT: {traffic.errors[:5]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
