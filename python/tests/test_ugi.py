"""The external-engine client against the `kete` binary itself, and against
engines that fail in each of the ways the arena scores."""

import _thread
import pathlib
import sys
import threading
import time

import pytest

import kete

FAKE = str(pathlib.Path(__file__).with_name("fake_engine.py"))


def fake(mode, **kw):
    return kete.UgiEngine.popen([sys.executable, FAKE, mode], **kw)


def test_kete_as_an_external_engine(kete_bin):
    with kete.UgiEngine.popen(kete_bin, options={"EgtbDir": "<empty>"}) as e:
        assert e.name == "kete" and e.alive
        assert e.offers("MultiPV") and e.offers("hash")
        p = kete.Position("kalah").play("C")
        a = e.analyse(p, depth=6)
        assert a.best_move in p.moves()
        assert a.depth == 6 and a.nodes > 0 and a.pv[0] == a.best_move
        assert a.score.kind == "seeds"
        # The same search in process gives the same move and score.
        b = kete.Engine(egtb_dir=None).analyse(p, depth=6)
        assert (a.best_move, str(a.score), a.pv) == (b.best_move, str(b.score), b.pv)
        # Another variant with its rules: the engine is told.
        o = kete.Position("oware", rules="abapa", pits=4).play("A")
        assert e.best_move(o, depth=4) in o.moves()
        m = e.analyse(kete.Position("oware"), depth=4, multipv=3)
        assert [l.multipv for l in m.lines] == [1, 2, 3]
        t = time.perf_counter()
        assert e.play(kete.Position("bao-kiswahili"), movetime=0.2).best_move
        assert time.perf_counter() - t < 1.0
        e.configure(Hash=8)
        e.new_game()
        assert e.analyse(kete.Position("endodoi"), nodes=500).best_move
        # A finished game: nothing to ask.
        over = kete.Position.from_fen("kalah", "0-0-0-0-0-0-0-0-0-0-0-0-30-18-N")
        assert e.analyse(over, depth=3).best_move is None
        with pytest.raises(kete.OptionError, match="needs a limit"):
            e.analyse(p)
    assert not e.alive
    with pytest.raises(kete.EngineError, match="no longer running"):
        e.analyse(p, depth=1)


def test_ctrl_c_sends_stop(kete_bin, ctrl_c):
    e = kete.UgiEngine.popen(kete_bin, options={"EgtbDir": "<empty>"})
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    t = time.perf_counter()
    a = e.analyse(kete.Position("oware"), movetime=30)
    assert a.stopped and time.perf_counter() - t < 5
    assert a.best_move in kete.Position("oware").moves()
    e.quit()


def test_an_engine_that_cannot_start():
    with pytest.raises(kete.EngineError, match="could not start") as info:
        kete.UgiEngine.popen("/no/such/engine")
    assert info.value.termination == "handshake"


def test_an_engine_that_does_not_answer_its_handshake():
    with pytest.raises(kete.EngineError, match="no 'ugiok' within") as info:
        fake("mute", handshake_timeout=0.5)
    assert info.value.termination == "handshake"


def test_an_engine_that_crashes():
    e = fake("crash")
    with pytest.raises(kete.EngineError, match="crashed") as info:
        e.analyse(kete.Position("kalah"), depth=3)
    assert info.value.termination == "crash"
    assert not e.alive


def test_an_engine_that_runs_out_of_time():
    e = fake("hang", margin=0.1)
    t = time.perf_counter()
    with pytest.raises(kete.EngineError, match="lost on time: no bestmove within 300 ms") as info:
        e.analyse(kete.Position("kalah"), movetime=0.2)
    assert info.value.termination == "timeout"
    assert time.perf_counter() - t < 2
    h = fake("hang", timeout=0.5)
    with pytest.raises(kete.EngineError, match="lost on time"):
        h.analyse(kete.Position("kalah"), depth=3)


def test_an_engine_that_plays_an_illegal_move():
    e = fake("illegal")
    with pytest.raises(kete.EngineError, match="illegal move: played 'Z9'") as info:
        e.analyse(kete.Position("kalah"), depth=1)
    assert info.value.termination == "illegal"


def test_a_uci_engine_is_told_no_variant():
    e = fake("good", proto="uci")
    a = e.analyse(kete.Position("kalah"), depth=1, multipv=2)
    assert a.best_move == "A" and a.score.cp == 12
    e.quit()


def test_pondering_as_python_chess_does_it(kete_bin):
    # With ponder=True the engine thinks on the opponent's time after the
    # reply it expects; the next call on that position gets its ponderhit,
    # any other position stops it first.
    with kete.UgiEngine.popen(
        [kete_bin, "--variant", "oware", "-o", "Ponder=true"], variant="oware",
        options={"EgtbDir": "<empty>"},
    ) as e:
        p = kete.Position("oware")
        a = e.play(p, movetime=0.2, ponder=True)
        assert a.best_move in p.moves()
        assert a.ponder in p.play(a.best_move).moves()
        hit = p.play(a.best_move).play(a.ponder)
        t = time.perf_counter()
        b = e.play(hit, movetime=0.2, ponder=True)
        assert b.best_move in hit.moves()
        assert time.perf_counter() - t < 1.0
        # A miss: another reply than the one pondered on.
        after = hit.play(b.best_move)
        other = next(m for m in after.moves() if m != b.ponder)
        miss = after.play(other)
        c = e.play(miss, movetime=0.2)
        assert c.best_move in miss.moves()
        # And the in-process engine names its expected reply too.
        d = kete.Engine(egtb_dir=None).analyse(p, depth=6)
        assert d.ponder == d.pv[1]


def test_an_engine_that_holds_no_position_answers_bestmove_0000():
    e = fake("nomove")
    with pytest.raises(kete.EngineError, match="answered bestmove 0000 in .*: go: no position") as info:
        e.analyse(kete.Position("kalah"), depth=1)
    assert info.value.termination == "illegal"
