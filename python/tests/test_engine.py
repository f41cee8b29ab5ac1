"""kete's search and solver in process: analyse, best_move, multipv, the
limits, a solve of every kind, the database in play, the GIL released and
Ctrl-C."""

import _thread
import random
import re
import subprocess
import threading
import time

import pytest

import kete
from conftest import run_kete


@pytest.fixture
def engine():
    return kete.Engine(hash_mb=16)


@pytest.mark.parametrize("variant", kete.VARIANTS)
def test_a_search_of_every_variant(engine, variant):
    p = kete.Position(variant)
    a = engine.analyse(p, depth=4)
    assert a.best_move in p.moves()
    assert a.depth == 4 and a.nodes > 0
    assert a.pv[0] == a.best_move
    p.play_all(a.pv)  # the line is legal
    assert a.score.kind in ("seeds", "mate")
    assert not a.stopped
    assert engine.best_move(p, depth=4) in p.moves()
    assert engine.play(p, depth=2).best_move in p.moves()


def test_the_search_is_the_engines(kete_bin):
    # The same fixed-depth search as `go depth 7` of the engine, with the
    # same settings: the same move, score and line.
    p = kete.Position("oware").play_all(["C", "d", "F"])
    a = kete.Engine(egtb_dir=None).analyse(p, depth=7)
    out = subprocess.run(
        [kete_bin],
        input="setoption name Variant value oware\nsetoption name EgtbDir value <empty>\n"
        "position startpos moves C d F\ngo depth 7\n",
        capture_output=True, text=True, timeout=60,
    ).stdout
    best = re.search(r"^bestmove (\S+)", out, re.M).group(1)
    last = [l for l in out.splitlines() if l.startswith("info depth 7 ")][-1]
    assert a.best_move == best
    assert f"score {a.score}" in last
    assert last.endswith("pv " + " ".join(a.pv))


def test_multipv_lines_are_ranked(engine):
    p = kete.Position("kalah")
    a = engine.analyse(p, depth=5, multipv=3)
    assert [l.multipv for l in a.lines] == [1, 2, 3]
    assert len({l.pv[0] for l in a.lines}) == 3
    cps = [l.score.cp for l in a.lines]
    assert cps == sorted(cps, reverse=True)
    assert a.lines[0].pv[0] == a.best_move


def test_limits_bound_the_search(engine):
    p = kete.Position("kalah")
    t = time.perf_counter()
    a = engine.analyse(p, movetime=0.2)
    took = time.perf_counter() - t
    assert 0.1 < took < 1.5, took
    assert a.best_move in p.moves()
    b = engine.analyse(p, nodes=2000)
    assert b.nodes < 40000


def test_a_proven_score_near_the_end(engine):
    # One seed each: the game ends within a few moves.
    p = kete.Position.from_fen("kalah", "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
    a = engine.analyse(p, depth=20)
    assert a.score.proven and a.score.kind == "seeds"


def test_solve_by_counting_matches_kete_solve(engine, kete_bin):
    p = kete.Position("kalah", pits=4, seeds=3)
    s = engine.solve(p)
    assert s.proven and not s.stopped
    assert s.value == 6 and s.value_for_south == 6 and s.best_moves == ["B"]
    assert s.lower == s.upper == 6
    assert s.score.cp == 600 and s.score.proven
    out = run_kete(kete_bin, "solve", "--variant=kalah", "--pits=4", "--seeds=3")
    assert "value +6 best B" in out
    # North to move: the value is North's, value_for_south turns it.
    q = next(p.play(m) for m in p.moves() if p.play(m).side_to_move == "north")
    t = engine.solve(q)
    assert t.side == "north" and t.value_for_south == -t.value
    # Oware and En Dodoi.
    o = engine.solve(kete.Position("oware", pits=3, seeds=2))
    assert o.proven and o.best_moves and o.value is not None
    # En Dodoi, later in a game.
    d = kete.Position("endodoi", pits=6, seeds=3)
    rng = random.Random(3)
    while len(d.history) < 30 and not d.is_over:
        d = d.play(rng.choice(d.moves()))
    e = engine.solve(d, time=60)
    assert e.proven and e.value is not None and e.best_moves


def test_a_solve_with_a_time_limit_gives_bounds():
    t = time.perf_counter()
    s = kete.Engine(egtb_dir=None).solve(kete.Position("kalah"), time=0.3, hash_mb=16)
    assert time.perf_counter() - t < 2
    assert not s.proven and s.stopped
    assert s.lower <= s.value <= s.upper
    assert s.best_moves


def test_a_bao_proof(engine):
    # Bao is won or lost without counting: the solver proves a forced win.
    p = kete.Position("bao-kujifunza")
    s = engine.solve(p, nodes=20000)
    assert s.value is None
    if s.proven:
        assert s.verdict in ("win", "loss") and s.mate and s.pv
    else:
        assert s.verdict is None


def test_the_database_in_play(egtb_dir):
    assert kete.Engine().database(kete.Position("kalah")) is None, "none unless asked for"
    e = kete.Engine(egtb_dir="<cache>")
    p = kete.Position("kalah")
    db = e.database(p)
    assert db is not None and db.startswith(str(egtb_dir)) and "kalah-6-standard" in db
    # Bao has no databases.
    assert e.database(kete.Position("bao")) is None
    off = kete.Engine(egtb_dir=None)
    assert off.database(p) is None
    assert off.options["EgtbDir"] == "<empty>"
    a = e.analyse(kete.Position.from_fen("kalah", "1-0-2-0-0-1-0-1-0-0-3-0-20-20-S"), depth=6)
    assert a.lines[0].tbhits is not None


def test_the_options_are_the_engines():
    e = kete.Engine(hash_mb=8, threads=2, move_overhead=50, eval="classic", multipv=2)
    o = e.options
    assert o["Hash"] == "8" and o["Threads"] == "2" and o["Move Overhead"] == "50"
    assert o["Eval"] == "classic" and o["MultiPV"] == "2"
    e.configure(SolveEndgames=False)
    assert e.options["SolveEndgames"] == "false"
    assert len(e.analyse(kete.Position("oware"), depth=3).lines) == 2
    e.new_game()
    assert repr(e) == "Engine(hash_mb=8, threads=2)"


def test_own_book_plays_the_book_on_the_clock():
    e = kete.Engine(own_book=True)
    assert e.options["OwnBook"] == "true"
    # Kalah(6,4) after C: F is the one move worth the exact +8.
    p = kete.Position("kalah").play("C")
    a = e.play(p, movetime=5.0)
    assert a.best_move == "F" and a.score.cp == 800, a
    assert a.elapsed < 2.5, a.elapsed
    # Analysis (a fixed depth) searches.
    assert e.analyse(p, depth=4).nodes > 0
    e.configure(own_book=False)
    assert e.play(p, movetime=0.1).nodes > 0


def test_the_gil_is_released_while_searching():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    kete.Engine(egtb_dir=None).analyse(kete.Position("oware"), movetime=0.5)
    done.set()
    t.join()
    assert len(ticks) > 100, len(ticks)


def test_ctrl_c_stops_a_search_and_returns_what_it_has(ctrl_c):
    e = kete.Engine(egtb_dir=None)
    p = kete.Position("oware")
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    t = time.perf_counter()
    a = e.analyse(p)  # no limit: until proven or stopped
    took = time.perf_counter() - t
    assert a.stopped and took < 5
    assert a.best_move in p.moves() and a.depth >= 1
    # The engine searches again afterwards.
    assert not e.analyse(p, depth=3).stopped


def test_ctrl_c_stops_a_solve_and_perft(ctrl_c):
    e = kete.Engine(egtb_dir=None)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    s = e.solve(kete.Position("oware"))
    assert s.stopped and not s.proven and s.best_moves
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        kete.Position("oware").perft(30)


def test_levels_and_elo_make_kete_weaker_on_purpose():
    e = kete.Engine(level="beginner", egtb_dir=None)
    assert e.options["Level"] == "beginner" and e.options["UCI_LimitStrength"] == "false"
    # Above the lowest level a move that wins at once is always played:
    # F captures two and makes 25.
    p = kete.Position.from_fen("oware", "0-0-0-0-1-1-1-0-0-0-0-4-23-18-S")
    assert e.play(p, movetime=0.05).best_move == "F"
    # A level weighs every move; its answer is the move it chose.
    a = e.analyse(kete.Position("kalah"), movetime=0.05)
    assert a.best_move in kete.Position("kalah").moves() and len(a.lines) == 1
    e.configure(elo=800)
    assert e.options["UCI_LimitStrength"] == "true" and e.options["UCI_Elo"] == "800"
    with pytest.raises(kete.OptionError, match="800..3700"):
        e.configure(elo=600)
    assert e.play(kete.Position("bao-kiswahili"), movetime=0.05).best_move
    with pytest.raises(kete.OptionError, match="Level must be one of"):
        e.configure(level="grandmaster")


def test_a_seeded_level_plays_the_same_move_in_the_same_position():
    p = kete.Position("oware").play_all(["C", "f", "A"])
    for level in ("first-game", "beginner", "club"):
        moves = set()
        for _ in range(3):
            engine = kete.Engine(hash_mb=1, level=level, seed=11)
            moves.add(engine.best_move(p, nodes=500))
        assert len(moves) == 1, level
    # Unseeded, the weakest level varies over many positions' draws.
    engine = kete.Engine(hash_mb=1, level="first-game")
    assert len({engine.best_move(p, nodes=500) for _ in range(30)}) > 1
    with pytest.raises(kete.OptionError, match="seed 'x'"):
        kete.Engine(seed="x")
    engine = kete.Engine(level="first-game", seed=3)
    engine.configure(seed=None)


def test_a_solve_stopped_with_its_value_pinned_says_the_value_is_proven():
    # After E, with that one position as its line (which can recur), the
    # value is pinned at -7 long before every best move is proven.
    p = kete.Position.from_fen("oware", "0-0-0-0-1-1-1-0-0-0-0-4-23-18-S").play("E")
    s = kete.Engine(hash_mb=16).solve(p, time=0.5)
    assert s.value == -7 and s.lower == s.upper == -7
    if not s.proven:
        assert "value proven, not every best move" in repr(s)
    assert kete.Engine(hash_mb=16).solve(p, time=5, all_best=False).proven
    # Read back from its fields: pinned but not proven, and not pinned.
    restore, (name, text) = s.__reduce__()
    pinned = restore(name, text.replace('"proven":true', '"proven":false'))
    assert repr(pinned) == "Solution(value=-7, best_moves=" + repr(s.best_moves) + ", value proven, not every best move)"
    wide = restore(name, text.replace('"proven":true', '"proven":false').replace('"lower":-7', '"lower":-9'))
    assert repr(wide).endswith("unproven: value in [-9, -7])")
