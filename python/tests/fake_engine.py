"""A misbehaving UGI engine for the tests of kete.UgiEngine's failures.

    python fake_engine.py MODE

MODE says how it fails once asked to search (`go`): `crash` exits, `hang`
never answers, `illegal` answers an illegal move, `mute` never answers the
handshake, `nomove` answers as kete does when it holds no position (an error
and `bestmove 0000`), `good` answers the first legal-looking move `A`.
"""

import sys
import time

mode = sys.argv[1]


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] in ("ugi", "uci"):
        if mode == "mute":
            time.sleep(60)
        say("id name fake")
        say("option name MultiPV type spin default 1 min 1 max 8")
        say(cmd[0] + "ok")
    elif cmd[0] == "isready":
        say("readyok")
    elif cmd[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            time.sleep(60)
        if mode == "nomove":
            say("info string error: go: no position to search: the last position command was refused")
            say("bestmove 0000")
            continue
        say("info depth 1 score cp 12 nodes 5 time 1 pv A")
        say("bestmove " + ("Z9" if mode == "illegal" else "A"))
    elif cmd[0] == "quit":
        break
