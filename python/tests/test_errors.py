"""Every error path: each bad input raises its ValueError subclass with
kete's own message, and nothing panics across the boundary."""

import pytest

import kete


def test_the_exceptions_are_value_errors():
    for e in (
        kete.UnknownVariantError, kete.OptionError, kete.NotationError,
        kete.MoveError, kete.InvalidMoveError, kete.IllegalMoveError,
        kete.GameOverError, kete.UnsolvableError, kete.RecordError,
    ):
        assert issubclass(e, kete.KeteValueError) and issubclass(e, ValueError)
    for e in (kete.InvalidMoveError, kete.IllegalMoveError, kete.GameOverError):
        assert issubclass(e, kete.MoveError)
    assert issubclass(kete.EngineError, RuntimeError)


def test_an_unknown_variant():
    with pytest.raises(kete.UnknownVariantError, match="unknown variant 'chess' \\(known: kalah, oware"):
        kete.Position("chess")
    with pytest.raises(kete.UnknownVariantError):
        kete.Position.from_fen("go", "x")
    with pytest.raises(kete.UnknownVariantError):
        kete.variant_options("chess")


def test_an_unknown_option_or_a_bad_value():
    with pytest.raises(kete.OptionError, match="option 'Rules' does not apply to kalah \\(its options: Pits, Seeds, Capture\\)"):
        kete.Position("kalah", rules="abapa")
    with pytest.raises(kete.OptionError, match="1..8"):
        kete.Position("kalah", pits=9)
    with pytest.raises(kete.OptionError, match="seeds must be a whole number 1..15, got '-1'"):
        kete.Position("oware", seeds=-1)
    with pytest.raises(kete.OptionError):
        kete.Position("oware", rules="nonsense")
    with pytest.raises(kete.OptionError):
        kete.Position("bao", front_row="sometimes")


def test_a_broken_token():
    with pytest.raises(kete.NotationError, match="bad oware position 'xx': field 1"):
        kete.Position.from_fen("oware", "xx")
    with pytest.raises(kete.NotationError):
        kete.Position.from_fen("kalah", "4-4-4-S")
    with pytest.raises(kete.NotationError):
        kete.Position.from_fen("bao-kiswahili", "")


def test_moves_that_cannot_be_played():
    p = kete.Position("kalah")
    with pytest.raises(kete.IllegalMoveError, match="there is no pit Z"):
        p.play("Z")
    with pytest.raises(kete.InvalidMoveError, match="not a move: 'A6x': a Bao move is"):
        kete.Position("bao-kiswahili").play("A6x")
    with pytest.raises(kete.InvalidMoveError, match="a move is one pit letter"):
        p.play("AB")
    with pytest.raises(kete.IllegalMoveError, match="'A6' is ambiguous"):
        kete.Position("bao-kiswahili").play("A6")
    with pytest.raises(kete.IllegalMoveError):
        kete.Position("bao-kiswahili").play("A1>")
    with pytest.raises(kete.MoveError, match="move 2 'C'"):
        p.play_all(["C", "C"])
    # A finished game takes no move.
    over = kete.Position.from_fen("kalah", "0-0-0-0-0-0-0-0-0-0-0-0-30-18-N")
    assert over.is_over
    with pytest.raises(kete.GameOverError, match="the game is over"):
        over.play("a")
    # The position is unchanged by a refused move.
    assert p.fen == kete.Position("kalah").fen


def test_bad_search_limits_and_options():
    e = kete.Engine(egtb_dir=None)
    p = kete.Position("kalah")
    with pytest.raises(kete.OptionError, match="depth 0"):
        e.analyse(p, depth=0)
    with pytest.raises(kete.OptionError, match="nodes"):
        e.analyse(p, nodes=0)
    with pytest.raises(kete.OptionError, match="movetime"):
        e.analyse(p, movetime=-1)
    with pytest.raises(kete.OptionError, match="multipv"):
        e.analyse(p, depth=1, multipv=0)
    with pytest.raises(kete.OptionError, match="time"):
        e.solve(p, time=float("nan"))
    with pytest.raises(kete.OptionError, match="Hash 0 is out of range"):
        kete.Engine(hash_mb=0)
    with pytest.raises(kete.OptionError, match="unknown engine option 'speed'"):
        kete.Engine(speed=3)
    with pytest.raises(kete.OptionError, match="SolveEndgames must be true or false"):
        kete.Engine(solve_endgames="maybe")
    with pytest.raises(kete.OptionError, match="EgtbPath 'no/such.egtb'"):
        kete.Engine(egtb_path="no/such.egtb")
    with pytest.raises(kete.OptionError, match="depth -1 is out of range 1..200"):
        e.analyse(p, depth=-1)
    with pytest.raises(kete.OptionError, match="hash_mb 1000000000 is out of range"):
        e.solve(p, hash_mb=10**9)
    with pytest.raises(kete.OptionError, match="Hash -5 is out of range"):
        kete.Engine(hash_mb=-5)
    with pytest.raises(kete.OptionError, match="depth 65 is out of range 0..64"):
        p.perft(65)
    with pytest.raises(kete.OptionError, match="depth -1"):
        p.perft(-1)
    with pytest.raises(TypeError):
        e.analyse("not a position", depth=1)


def test_a_finished_game_cannot_be_solved():
    over = kete.Position.from_fen("kalah", "0-0-0-0-0-0-0-0-0-0-0-0-30-18-N")
    with pytest.raises(kete.UnsolvableError, match="the game is over"):
        kete.Engine(egtb_dir=None).solve(over)
    # Searching it answers at once: no move, the final score.
    a = kete.Engine(egtb_dir=None).analyse(over, depth=3)
    assert a.best_move is None and a.score.cp == -1200 and a.score.proven


def test_records_that_cannot_be_read(tmp_path):
    with pytest.raises(kete.RecordError, match="no such file"):
        kete.read_games(tmp_path / "none.jsonl")
    bad = tmp_path / "games.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(kete.RecordError, match="line 1: not a game record"):
        kete.read_games(bad)
