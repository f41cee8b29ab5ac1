"""Positions of every variant: moves, play, notation, outcome, board,
perft against `kete perft`, equality, hashing, copying, the text board and
the SVG board."""

import copy
import pickle
import random
import re

import pytest

import kete
from conftest import run_kete

# Every variant with its default rules, and some of their other rules.
RULES = [(v, {}) for v in kete.VARIANTS] + [
    ("kalah", {"pits": 4, "seeds": 3}),
    ("kalah", {"capture": "empty"}),
    ("oware", {"rules": "abapa"}),
    ("oware", {"pits": 4, "seeds": 3, "repetition": "split"}),
    ("endodoi", {"pits": 8, "seeds": 4}),
    ("bao-kiswahili", {"front_row": "kichwa-only"}),
]


def flags(options):
    return [f"--option={k.replace('_', '')}={v}" for k, v in options.items()]


def test_the_registry_is_listed(kete_bin):
    assert kete.VARIANTS[:7] == [
        "kalah", "oware", "endodoi", "bao-kujifunza", "bao-kiswahili", "togyz-kumalak", "bestemshe",
    ]
    # Then the described games, as `kete variants` lists them.
    assert kete.VARIANTS == run_kete(kete_bin, "variants", "--names").split()


@pytest.mark.parametrize("variant,options", RULES)
def test_perft_counts_equal_kete_perft(kete_bin, variant, options):
    pos = kete.Position(variant, **options)
    for depth in range(0, 7 if not options else 6):
        out = run_kete(kete_bin, "perft", f"--variant={variant}", f"--depth={depth}", *flags(options))
        total = int(re.search(r"^total: (\d+)$", out, re.M).group(1))
        assert pos.perft(depth) == total, (variant, options, depth)
        assert pos.perft(depth, bulk=True) == total


@pytest.mark.parametrize("variant,options", RULES)
def test_perft_from_a_token_equals_kete_perft_from_it(kete_bin, variant, options):
    pos = kete.Position(variant, **options)
    rng = random.Random(7)
    for _ in range(6):
        if pos.is_over:
            break
        pos = pos.play(rng.choice(pos.moves()))
    out = run_kete(kete_bin, "perft", f"--variant={variant}", "--depth=4", f"--fen={pos.fen}", *flags(options))
    total = int(re.search(r"^total: (\d+)$", out, re.M).group(1))
    assert kete.Position.from_fen(variant, pos.fen, **options).perft(4) == total


@pytest.mark.parametrize("variant,options", RULES)
def test_random_games_play_to_an_outcome_with_its_reason(variant, options):
    rng = random.Random(1)
    for _ in range(3):
        pos = kete.Position(variant, **options)
        start = pos
        seen = []
        while not pos.is_over:
            moves = pos.moves()
            assert moves, "a game not over has moves"
            assert moves == sorted(moves)
            mv = rng.choice(moves)
            nxt = pos.play(mv)
            assert pos.history == seen, "play leaves the position alone"
            seen = seen + [mv]
            assert nxt.history == seen
            assert nxt.total_seeds == start.total_seeds
            # The token reads back to an equal position.
            assert kete.Position.from_fen(variant, nxt.fen, **options) == nxt or nxt.is_over
            pos = nxt
            assert len(seen) < 2000
        assert pos.moves() == []
        o = pos.outcome
        assert o.result in ("p1win", "p2win", "draw")
        assert o.winner == {"p1win": "south", "p2win": "north", "draw": None}[o.result]
        assert o.reason in (
            "empty-row", "majority", "cannot-feed", "repetition",
            "no-legal-move", "never-ending-moves", "front-row-empty", "end-pits-taken",
        )
        assert o.reason_text
        if variant.startswith("bao"):
            assert o.seeds is None
        elif variant == "kalah":
            assert sum(o.seeds) == start.total_seeds
        else:
            assert sum(o.seeds) <= start.total_seeds
        # The whole line replays the same.
        assert start.play_all(seen) == pos
        assert start.play_all(seen).outcome.result == o.result


def test_positions_start_as_the_engine_shows_them():
    p = kete.Position("kalah")
    assert p.variant == "kalah"
    assert p.options == {"Pits": 6, "Seeds": 4, "Capture": "standard"}
    assert p.fen == "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
    assert p.side_to_move == "south"
    assert p.moves() == ["A", "B", "C", "D", "E", "F"]
    assert p.board == [[4] * 6, [4] * 6]
    assert p.stores == (0, 0)
    assert p.hands is None
    assert p.seed_count == (24, 24)
    assert p.total_seeds == 48
    assert not p.is_over and p.outcome is None
    # An extra turn: C ends in South's store.
    q = p.play("C")
    assert q.side_to_move == "south"
    assert q.stores == (1, 0)
    assert q.start_fen == p.fen and q.history == ["C"]
    o = kete.Position("oware", rules="abapa", pits=4, seeds=3)
    assert o.options["Rules"] == "abapa" and o.options["Pits"] == 4
    assert o.board == [[3] * 4, [3] * 4]
    b = kete.Position("bao-kiswahili")
    assert b.moves() == ["A6<", "A6>", "A7<", "A7>"]
    assert len(b.board) == 4 and all(len(r) == 8 for r in b.board)
    assert b.hands == (22, 22) and b.stores is None
    assert b.options["FrontRow"] == "never-empty"
    assert kete.Position("bao", mtaji_takasa_nyumba="relay").options["MtajiTakasaNyumba"] == "relay"
    assert kete.Position("awari").variant == "oware"


def test_cells_are_the_boards_places():
    p = kete.Position("kalah", pits=4)
    cells = p.cells()
    assert [c.kind for c in cells].count("pit") == 8
    assert [c.kind for c in cells].count("store") == 2
    assert {c.side for c in cells} == {"south", "north"}
    assert sum(c.seeds for c in cells) == p.total_seeds
    a = next(c for c in cells if c.name == "A")
    assert (a.side, a.kind, a.row, a.col, a.seeds) == ("south", "pit", 0, 0, 4)
    bao = kete.Position("bao-kiswahili").cells()
    assert any("nyumba" in c.marks for c in bao)
    assert [c.kind for c in bao].count("hand") == 2


def test_equality_and_hash_are_the_positions():
    a = kete.Position("oware").play_all(["A", "f"])
    b = kete.Position.from_fen("oware", a.fen)
    assert a == b and hash(a) == hash(b)
    assert a != kete.Position("oware")
    assert a != a.fen
    assert kete.Position("bao-kujifunza") != kete.Position("bao-kiswahili")
    assert len({a, b, kete.Position("oware")}) == 2
    # Same board, other rules: not equal.
    assert kete.Position("oware") != kete.Position("oware", rules="abapa")


def test_copies_are_equal_values():
    a = kete.Position("endodoi").play("A")
    for c in (a.copy(), copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert c == a and c.history == a.history and c.start_fen == a.start_fen
    opts = kete.Position("kalah", pits=3, capture="empty").play("A")
    assert pickle.loads(pickle.dumps(opts)).options == opts.options


def test_the_text_board_is_the_engines_diagram(kete_bin):
    import subprocess

    p = kete.Position("oware").play_all(["C", "d"])
    out = subprocess.run(
        [kete_bin], input="setoption name Variant value oware\nposition startpos moves C d\nd\nquit\n",
        capture_output=True, text=True, timeout=30,
    ).stdout
    # After the engine's greeting, before `Fen:`.
    diagram = out.split("Fen:")[0].split("\n", 1)[1]
    assert repr(p).strip("\n") == diagram.strip("\n")
    assert str(p) == repr(p)
    assert f"Fen: {p.fen}" in out


@pytest.mark.parametrize("variant", kete.VARIANTS)
def test_the_svg_board_draws_every_cell(variant):
    p = kete.Position(variant)
    svg = p._repr_svg_()
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    cells = p.cells()
    for i, c in enumerate(cells):
        assert f'id="cell-{i}"' in svg
        assert f'data-cell="{i}" data-seeds="{c.seeds}"' in svg
    assert "legal" in svg
    assert p.svg(legal=False).count(" legal") == 0
    assert p.svg() == svg
    assert "board, South to move" in svg
    assert " last" not in svg, "no move played yet"
    mv = p.moves()[0]
    q = p.play(mv)
    # The last turn: the cell it started from is marked "last", the cells
    # it sowed "sown", as the web board marks them.
    marked = re.findall(r'class="cell [^"]*\blast\b[^"]*" data-cell="(\d+)"', q.svg(legal=False))
    assert len(marked) == 1, marked
    assert re.search(r'class="cell [^"]*\bsown\b', q.svg(legal=False))
    assert "last move started here" in q.svg(legal=False)
    unmarked = q.svg(legal=False, last=False)
    assert not re.search(r'class="cell [^"]*\b(last|sown|ended|captured)\b', unmarked)
    assert p.svg(flipped=True) != svg


def test_repetition_ends_an_oware_game():
    # Two pits a side with one seed each: the seeds go round and the first
    # position comes back.
    p = kete.Position.from_fen("oware", "1-1-1-1-0-0-S", pits=2, seeds=1)
    seen = [p]
    while not p.is_over:
        p = p.play(p.moves()[0])
        seen.append(p)
        assert len(seen) < 50
    assert p.outcome.reason in ("repetition", "empty-row", "cannot-feed", "majority")


@pytest.mark.parametrize("variant,options", RULES)
def test_a_game_played_in_place_is_the_positions_played_by_value(variant, options):
    rng = random.Random(5)
    game = kete.Game(variant, **options)
    pos = kete.Position(variant, **options)
    assert game.position == pos and len(game) == 0
    while not game.is_over:
        assert game.moves() == pos.moves()
        mv = rng.choice(game.moves())
        snapshot = game.position
        game.push(mv)
        pos = pos.play(mv)
        assert snapshot.history == pos.history[:-1], "a snapshot does not change"
        assert game.fen == pos.fen and game.side_to_move == pos.side_to_move
    assert pos.is_over and game.outcome.result == pos.outcome.result
    assert game.outcome.reason == pos.outcome.reason
    assert game.history == pos.history and len(game) == len(pos.history)
    with pytest.raises(kete.GameOverError):
        game.push("A")
    copy_ = kete.Game.from_position(pos.copy())
    assert copy_.position == pos and copy_.history == pos.history
    assert "over" in repr(game)
    # A game changes: it equals only itself.
    assert game != kete.Game.from_position(game.position)
