"""Labels for every move in bulk (`analyse_many`, `solve_many`) equal the
engine's one-by-one answers, whatever the number of workers; games played in
Python are written as kete-arena records (`write_games`, `GameWriter`) that
the arena's own reader reads back whole."""

import os
import pickle
import random
import subprocess

import pytest

import kete

# Small positions, so that solving every child is quick: Kalah(4,3) (whose
# move B gives another turn), Kalah and Oware endgames.
SMALL = [
    ("kalah", None, {"pits": 4, "seeds": 3}),
    ("kalah", "1-0-2-0-0-1-0-1-0-0-3-0-20-20-S", {}),
    ("kalah", "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", {}),
    ("oware", "0-0-0-0-1-1-1-0-0-0-0-4-23-18-S", {}),
]


def positions():
    out = []
    for variant, fen, options in SMALL:
        p = (
            kete.Position(variant, **options)
            if fen is None
            else kete.Position.from_fen(variant, fen, **options)
        )
        out.append(p)
        # And a position a move on, with that move as its history.
        p = p.play(p.moves()[-1])
        if not p.is_over:
            out.append(p)
    return out


def engine():
    return kete.Engine(threads=1, egtb_dir=None)


def turned(score, flip):
    """A score (cp or mate) from the other side's view when `flip`."""
    if not flip:
        return str(score)
    kind, n = str(score).split()
    return f"{kind} {-int(n)}"


def test_analyse_many_gives_every_move_the_score_of_one_by_one_analysis():
    ps = positions()
    got = kete.analyse_many(ps, depth=6, threads=2, egtb_dir=None)
    assert len(got) == len(ps)
    for p, values in zip(ps, got):
        e = engine()
        e.new_game()
        a = e.analyse(p, depth=6, multipv=len(p.moves()))
        assert values.method == "search"
        assert values.fen == p.fen and values.side == p.side_to_move
        assert values.moves == p.moves() and len(values) == len(p.moves())
        by_move = {line.pv[0]: line.score for line in a.lines}
        assert set(by_move) == set(p.moves())
        assert dict(values.items()) == by_move
        for m in p.moves():
            assert values[m] == by_move[m] and m in values
        assert values.score == a.score
        assert values.best_moves == [a.best_move]
        assert values.depth == a.depth


def test_solve_many_values_each_move_by_solving_the_position_after_it():
    ps = positions()
    got = kete.solve_many(ps, threads=2, egtb_dir=None)
    e = engine()
    for p, values in zip(ps, got):
        assert values.method == "solve" and values.proven
        assert values.moves == p.moves()
        for m, score in values.items():
            after = p.play(m)
            assert score.proven
            if after.is_over:
                south, north = after.outcome.seeds
                margin = south - north if p.side_to_move == "south" else north - south
                assert score.cp == 100 * margin
            else:
                # all_best=False: the value alone, as solve_many asks.
                s = e.solve(after, all_best=False, time=60)
                assert s.proven
                # Another turn (Kalah's store) keeps the mover's view.
                flip = after.side_to_move != p.side_to_move
                assert str(score) == turned(s.score, flip)
        # The best move's value is the position's own exact value.
        whole = e.solve(p, all_best=False, time=60)
        assert values.score.seeds == whole.value
        assert set(whole.best_moves) <= set(values.best_moves)
        assert all(values[m] == values.score for m in values.best_moves)


def test_another_turn_keeps_the_movers_view():
    p = kete.Position("kalah", pits=4, seeds=3)
    assert p.play("B").side_to_move == "south"
    (values,) = kete.solve_many([p], threads=1, egtb_dir=None)
    assert values.score.seeds == 6 and values.best_moves == ["B"]
    s = engine().solve(p.play("B"), all_best=False)
    assert values["B"].seeds == s.value


@pytest.mark.parametrize("call", ["analyse", "solve"])
def test_the_answers_do_not_depend_on_the_number_of_workers(call):
    ps = positions()
    if call == "analyse":
        run = lambda t: kete.analyse_many(ps, depth=5, threads=t, egtb_dir=None)  # noqa: E731
    else:
        run = lambda t: kete.solve_many(ps, threads=t, egtb_dir=None)  # noqa: E731
    one, two, three = run(1), run(2), run(3)
    assert one == two == three
    assert [v.fen for v in one] == [p.fen for p in ps]


def test_progress_is_called_with_the_totals():
    ps = positions()
    calls = []
    kete.analyse_many(ps, depth=4, threads=2, progress=lambda d, t: calls.append((d, t)), egtb_dir=None)
    assert calls and calls[-1] == (len(ps), len(ps))
    assert all(t == len(ps) and 0 <= d <= t for d, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    calls.clear()
    kete.solve_many(ps[:3], threads=1, progress=lambda d, t: calls.append((d, t)), egtb_dir=None)
    assert calls[-1] == (3, 3)


def test_progress_true_prints_a_counter(capsys):
    ps = positions()[:2]
    kete.solve_many(ps, progress=True, egtb_dir=None)
    assert "2/2 positions" in capsys.readouterr().err


def test_an_exception_in_progress_stops_the_work():
    def boom(done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        kete.analyse_many(positions(), depth=4, progress=boom, egtb_dir=None)


def test_move_values_pickle_and_copy():
    import copy

    (a,) = kete.analyse_many(positions()[:1], depth=4, egtb_dir=None)
    (s,) = kete.solve_many(positions()[:1], egtb_dir=None)
    for x in (a, s):
        for y in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
            assert type(y) is kete.MoveValues and y == x and repr(y) == repr(x)
            assert y.items() == x.items()


def test_bad_input_is_refused_clearly():
    p = kete.Position("kalah", pits=4, seeds=3)
    assert kete.analyse_many([], depth=3) == []
    assert kete.solve_many([]) == []
    with pytest.raises(TypeError, match=r"positions\[1\] is a str"):
        kete.analyse_many([p, "kalah"], depth=3)
    with pytest.raises(TypeError, match="not one position"):
        kete.solve_many(p)
    with pytest.raises(TypeError, match="iterable"):
        kete.solve_many(3)
    with pytest.raises(kete.OptionError, match="needs a limit"):
        kete.analyse_many([p])
    with pytest.raises(kete.OptionError, match="number of workers"):
        kete.analyse_many([p], depth=3, Threads=2)
    with pytest.raises(kete.OptionError):
        kete.analyse_many([p], depth=3, threads=0)
    with pytest.raises(kete.OptionError):
        kete.analyse_many([p], depth=3, no_such_option=1)
    with pytest.raises(TypeError, match="progress"):
        kete.solve_many([p], progress="yes", egtb_dir=None)
    # A finished game's position has no moves to value.
    over = kete.Position.from_fen("kalah", "0-0-0-0-0-0-0-0-0-0-0-0-30-18-N")
    for values in (kete.analyse_many([over], depth=3)[0], kete.solve_many([over])[0]):
        assert values.moves == [] and values.scores == [] and values.score is None
        assert values.best_moves == [] and len(values) == 0
        with pytest.raises(KeyError):
            values["A"]
    # Bao: a proof cut short by its node budget leaves the moves unvalued.
    bao = kete.Position("bao-kujifunza")
    (b,) = kete.solve_many([bao], nodes=200, threads=1)
    assert b.moves == bao.moves() and not b.proven and b.score is None


def test_ctrl_c_stops_solve_many(ctrl_c):
    import _thread
    import threading
    import time

    # Oware from the start, each move solved for up to 20 seconds: far
    # longer than the interruption.
    ps = [kete.Position("oware")] * 2
    threading.Timer(0.5, _thread.interrupt_main).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        kete.solve_many(ps, time=20, threads=2, egtb_dir=None)
    assert time.monotonic() - started < 10


def self_play(variant, seed, plies=None, **options):
    """A game of random moves (to its end, or `plies` moves)."""
    rng = random.Random(seed)
    g = kete.Game(variant, **options)
    while not g.is_over and (plies is None or len(g) < plies):
        g.push(rng.choice(g.moves()))
    return g


GAMES = [
    ("kalah", {}),
    ("kalah", {"pits": 4, "seeds": 3}),
    ("oware", {}),
    ("oware", {"rules": "abapa"}),
]


def test_games_played_in_python_read_back_whole(tmp_path):
    path = tmp_path / "games.jsonl"
    games = [self_play(v, i, **o) for i, (v, o) in enumerate(GAMES)]
    assert kete.write_games(path, games, south="me", north="me too") == len(games)
    back = kete.read_games(path)
    assert len(back) == len(games)
    for i, (g, r) in enumerate(zip(games, back)):
        assert r.id == i and r.south == "me" and r.north == "me too"
        assert r.variant == g.position.variant
        assert r.all_moves == g.history and r.opening == []
        assert [m.side for m in r.moves] == [
            p.side_to_move for p, _ in r.plies()
        ]
        assert r.termination == "rules"
        assert r.result == g.outcome.result and r.seeds == g.outcome.seeds
        assert r.end == g.outcome.reason
        assert r.final_fen == g.fen
        assert r.positions()[-1] == g.position
        assert r.positions()[-1].is_over
        assert r.start() == kete.Position(r.variant, **g.position.options)


def test_a_writer_appends_adjudicates_and_keeps_ids(tmp_path):
    path = tmp_path / "games.jsonl"
    with kete.GameWriter(path) as w:
        first = w.write(self_play("kalah", 1), south="a", north="b", opening=2)
        assert first.id == 0 and len(first.opening) == 2
        # A game still going is adjudicated by the seed count.
        short = w.write(self_play("oware", 2, plies=10))
        assert short.id == 1 and short.termination == "adjudication"
        assert w.written == 2
    assert w.closed
    with pytest.raises(ValueError, match="closed"):
        w.write(self_play("kalah", 3))
    # Appending continues the ids; a RecordedGame is written as it is.
    with kete.GameWriter(path) as w:
        again = w.write(self_play("kalah", 4))
        assert again.id == 2
        w.write(kete.read_games(path)[0])
    back = kete.read_games(path)
    assert [g.id for g in back] == [0, 1, 2, 0]
    assert back[0].all_moves == self_play("kalah", 1).history
    assert back[1].seeds == short.seeds and back[1].result == short.result
    assert back[1].final_fen == self_play("oware", 2, plies=10).fen
    assert back[3].all_moves == back[0].all_moves and back[3].opening == back[0].opening
    # Without append the file starts again.
    assert kete.write_games(path, [self_play("kalah", 5)], append=False) == 1
    assert len(kete.read_games(path)) == 1
    # From a position with its moves, from a position set up by a token.
    p = kete.Position.from_fen("kalah", "1-0-2-0-0-1-0-1-0-0-3-0-20-20-S").play("A")
    r = kete.RecordedGame.from_game(p, id=7)
    assert r.start_fen == "1-0-2-0-0-1-0-1-0-0-3-0-20-20-S" and r.all_moves == ["A"]
    assert r.positions()[-1] == p


def test_writing_errors_are_clear(tmp_path):
    with pytest.raises(OSError, match="cannot"):
        kete.write_games(tmp_path / "no" / "such" / "games.jsonl", [self_play("kalah", 1)])
    with pytest.raises(TypeError, match="kete.Game"):
        kete.write_games(tmp_path / "games.jsonl", ["kalah"])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a game\n")
    with pytest.raises(kete.RecordError):
        kete.GameWriter(bad)
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        with pytest.raises(OSError):
            kete.write_games(ro / "games.jsonl", [self_play("kalah", 1)])


def test_kete_arena_reads_the_games_written(tmp_path, kete_bin):
    arena = os.path.join(os.path.dirname(kete_bin), "kete-arena")
    if not os.path.exists(arena):
        pytest.skip("no kete-arena next to the kete binary")
    path = tmp_path / "games.jsonl"
    games = [self_play("kalah", i, pits=4, seeds=3) for i in range(3)]
    kete.write_games(path, games, south="random", north="random")
    out = subprocess.run(
        [arena, "accuracy", str(path), "--time", "1", "--threads", "1", "--no-egtb"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "random" in out.stdout
