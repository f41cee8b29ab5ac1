"""Everything a researcher holds pickles and copies: positions, games, the
results of a search and a solve, outcomes, cells and recorded games; an
engine says why it cannot."""

import copy
import pathlib
import pickle

import pytest

import kete

REPO = pathlib.Path(__file__).resolve().parents[2]


def fields(x):
    """A value's public data, recursively, for comparing copies."""
    if isinstance(x, (list, tuple)):
        return [fields(v) for v in x]
    if isinstance(x, dict):
        return {k: fields(v) for k, v in x.items()}
    if type(x).__module__ == "kete" and not isinstance(x, (kete.Position, kete.Score)):
        return {
            n: fields(getattr(x, n))
            for n in dir(x)
            if not n.startswith("_") and not callable(getattr(x, n))
        }
    return x


def same(a, b):
    assert type(a) is type(b)
    assert fields(a) == fields(b)
    assert repr(a) == repr(b)


def round_trips(x):
    for y in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
        same(x, y)


@pytest.fixture(scope="module")
def engine():
    return kete.Engine(egtb_dir=None, hash_mb=16)


def test_a_search_and_its_lines_and_scores_pickle_and_copy(engine):
    a = engine.analyse(kete.Position("kalah", pits=4, seeds=3), depth=6, multipv=2)
    assert len(a.lines) == 2
    round_trips(a)
    round_trips(a.lines[0])
    round_trips(a.lines[0].score)
    assert pickle.loads(pickle.dumps(a.lines[0].score)) == a.lines[0].score


def test_a_solution_pickles_and_copies(engine):
    s = engine.solve(kete.Position("kalah", pits=3, seeds=2), time=5)
    assert s.proven
    round_trips(s)


def test_an_outcome_and_the_cells_pickle_and_copy():
    p = kete.Position("kalah", pits=2, seeds=1)
    while p.outcome is None:
        p = p.play(p.moves()[0])
    round_trips(p.outcome)
    for c in p.cells():
        round_trips(c)


def test_a_game_pickles_with_its_moves_and_copies_apart():
    g = kete.Game("oware", rules="abapa")
    for m in ["C", "d", "E"]:
        g.push(m)
    for h in (pickle.loads(pickle.dumps(g)), copy.copy(g), copy.deepcopy(g)):
        assert type(h) is kete.Game
        assert h.history == g.history and h.fen == g.fen
        assert h.position == g.position
        h.push(h.moves()[0])
        assert len(h) == len(g) + 1, "a copy plays on apart"
    assert len(g) == 3


def test_recorded_games_pickle_and_copy():
    games = kete.read_games(REPO / "tournaments/endodoi-depth6-vs-depth4/games.jsonl")
    round_trips(games[0])
    round_trips(games[0].moves[0])


def test_an_engine_says_why_it_cannot_be_pickled(engine):
    with pytest.raises(TypeError, match="cannot pickle a kete.Engine: .*pickle the positions"):
        pickle.dumps(engine)


def test_a_damaged_pickle_is_refused_with_the_type_named():
    with pytest.raises(ValueError, match="cannot unpickle a kete.Score"):
        kete._restore("Score", "{")
    with pytest.raises(ValueError, match="cannot unpickle a kete.Engine: no such value type"):
        kete._restore("Engine", "{}")
