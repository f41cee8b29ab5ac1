"""Whatever Python passes in, under hypothesis: position tokens, move texts,
actions, rule options, batches of actions, record files and engine options.
Each input is either taken or refused with kete's own ValueError subclass
(naming the problem); nothing panics across the boundary (a Rust panic
arrives as pyo3's PanicException, a BaseException that fails the test), and
what is taken keeps its properties: a token read is re-printed to itself,
moves keep the seed count, actions and moves map to each other.

The number of examples is small by default so the suite stays quick;
`KETE_HYPOTHESIS_EXAMPLES=20000` makes it a fuzzing run (docs/design/testing.md).
"""

import os
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import kete

EXAMPLES = int(os.environ.get("KETE_HYPOTHESIS_EXAMPLES", "150"))
# No example database: a test run writes nothing into the clone.
settings.register_profile(
    "kete",
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile("kete")

# The variants with rule sets that change what a token or a move means.
RULE_SETS = [
    ("kalah", {}),
    ("kalah", {"pits": 4, "seeds": 3, "capture": "empty"}),
    ("oware", {}),
    ("oware", {"rules": "abapa", "repetition": "split"}),
    ("endodoi", {}),
    ("bao-kujifunza", {}),
    ("bao-kiswahili", {}),
    ("togyz-kumalak", {}),
    ("togyz-kumalak", {"atsyz": "extra-move"}),
    ("bestemshe", {}),
]

rule_sets = st.sampled_from(RULE_SETS)
# Text as people and programs send it: the characters tokens and moves are
# made of, more often than the rest of Unicode.
token_chars = st.sampled_from(string.digits + string.ascii_letters + ",/-+<>*_ .:()\u0425")
texts = st.one_of(st.text(token_chars, max_size=80), st.text(max_size=40))


def random_game(variant, options, picks):
    """The position after the moves chosen by `picks` (indices into the
    legal moves, taken modulo their number), with every position on the way."""
    p = kete.Position(variant, **options)
    seen = [p]
    for i in picks:
        if p.is_over:
            break
        moves = p.moves()
        p = p.play(moves[i % len(moves)])
        seen.append(p)
    return seen


def check_invariants(p, total):
    """What holds of every position: the seeds are all there, the token
    reads back to the same position, actions and moves map to each other."""
    assert p.total_seeds == total
    again = kete.Position.from_fen(p.variant, p.fen, **p.options)
    assert again == p and again.fen == p.fen and hash(again) == hash(p)
    actions = p.legal_actions()
    mask = p.legal_mask()
    assert mask.shape == (p.action_count,) and list(np.flatnonzero(mask)) == actions
    assert sorted(p.move_to_action(m) for m in p.moves()) == actions
    for a in actions:
        assert p.move_to_action(p.action_to_move(a)) == a
    obs = p.observation()
    assert obs.shape == (p.observation_size,) and np.isfinite(obs).all()
    assert p.is_over == (not p.moves())


@given(rule_sets, st.lists(st.integers(0, 1000), max_size=120))
def test_random_games_keep_the_invariants(rule_set, picks):
    variant, options = rule_set
    seen = random_game(variant, options, picks)
    total = seen[0].total_seeds
    for p in seen:
        check_invariants(p, total)


@given(rule_sets, texts)
@example(("kalah", {}), "4,4,4,4,4,4/4,4,4,4,4,4 0 0 S")
@example(("bao-kiswahili", {}), "")
def test_any_text_as_a_position_token(rule_set, text):
    variant, options = rule_set
    try:
        p = kete.Position.from_fen(variant, text, **options)
    except kete.NotationError as e:
        assert str(e)
        return
    check_invariants(p, p.total_seeds)


@given(rule_sets, st.lists(st.integers(0, 1000), max_size=60), st.data())
def test_a_real_token_with_characters_changed(rule_set, picks, data):
    """Tokens near real ones reach further into the reader than random text."""
    variant, options = rule_set
    fen = random_game(variant, options, picks)[-1].fen
    chars = list(fen)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(chars)))
        op = data.draw(st.sampled_from(["replace", "insert", "delete"]))
        c = data.draw(token_chars)
        if op == "insert":
            chars.insert(i, c)
        elif i < len(chars):
            if op == "replace":
                chars[i] = c
            else:
                del chars[i]
    text = "".join(chars)
    try:
        p = kete.Position.from_fen(variant, text, **options)
    except kete.NotationError as e:
        assert str(e)
        return
    check_invariants(p, p.total_seeds)


@given(rule_sets, st.lists(st.integers(0, 1000), max_size=60), texts)
def test_any_text_as_a_move(rule_set, picks, text):
    variant, options = rule_set
    p = random_game(variant, options, picks)[-1]
    before = p.fen
    try:
        q = p.play(text)
    except (kete.NotationError, kete.MoveError) as e:
        assert str(e)
        assert p.fen == before
        return
    # Taken: it names one of the legal moves, in whatever spelling.
    assert q.history[-1] in p.moves()
    assert q == p.play(q.history[-1])


@given(rule_sets, st.lists(st.integers(0, 1000), max_size=60), st.integers())
@example(("kalah", {}), [], 2**64)
@example(("kalah", {}), [], -1)
def test_any_integer_as_an_action(rule_set, picks, action):
    variant, options = rule_set
    p = random_game(variant, options, picks)[-1]
    try:
        q = p.play_action(action)
    except (kete.MoveError, OverflowError) as e:
        assert str(e)
        return
    assert action in p.legal_actions()
    assert q == p.play(p.action_to_move(action))


option_values = st.one_of(st.integers(-(2**70), 2**70), texts, st.booleans())
option_names = st.one_of(
    st.sampled_from(["pits", "seeds", "capture", "rules", "repetition", "Pits", "SEEDS",
                     "front_row", "nyumba", "opening", "stores", "tuzdyk", "atsyz"]),
    st.text(string.ascii_letters + "_", min_size=1, max_size=12),
)


@given(
    st.one_of(st.sampled_from([v for v, _ in RULE_SETS] + ["awari", "bao", "mancala"]), texts),
    st.dictionaries(option_names, option_values, max_size=3),
)
def test_any_variant_name_and_options(variant, options):
    try:
        p = kete.Position(variant, **options)
    except (kete.UnknownVariantError, kete.OptionError) as e:
        assert str(e)
        return
    except TypeError as e:
        # A value of a type no option takes (a bool for a number is taken).
        assert "option" in str(e) or "argument" in str(e)
        return
    check_invariants(p, p.total_seeds)
    g = kete.Game(variant, **options)
    assert g.position == p


@given(
    rule_sets,
    st.integers(1, 8),
    st.lists(st.integers(-(2**40), 2**40), max_size=12),
    st.sampled_from([np.int64, np.int32, np.uint8, np.float64]),
    st.integers(0, 2**32),
)
def test_any_batch_of_actions(rule_set, n, actions, dtype, seed):
    variant, options = rule_set
    games = kete.VectorGames(variant, n, seed=seed, random_plies=4, max_plies=200, **options)
    before = [games.fen(i) for i in range(n)]
    batch = np.array(actions).astype(dtype) if actions else np.zeros(0, dtype=dtype)
    try:
        obs, masks, rewards, terminated, truncated = games.step(batch)
    except (kete.KeteValueError, TypeError) as e:
        assert str(e)
        # A refused batch moves no game.
        assert [games.fen(i) for i in range(n)] == before
        return
    assert len(actions) == n
    assert obs.shape == (n, games.observation_size) and masks.shape == (n, games.action_count)
    assert rewards.shape == terminated.shape == truncated.shape == (n,)


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(REPO, "tournaments", "kalah-vs-cmancala-st500", "games.jsonl"), "rb") as f:
    RECORD_LINES = f.read().splitlines()[:20]


@given(
    st.one_of(
        st.binary(max_size=600),
        # A real game with a few bytes changed: past the JSON reader into the
        # record's own checks (moves, results, times).
        st.tuples(st.sampled_from(RECORD_LINES), st.lists(st.tuples(st.integers(0, 4000), st.binary(max_size=3)), min_size=1, max_size=4)).map(
            lambda t: _splice(*t)),
    )
)
def test_any_bytes_as_a_record_file(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    path.write_bytes(raw)
    try:
        games = kete.read_games(path)
    except kete.RecordError as e:
        assert str(e)
        return
    for g in games:
        # What was read can be replayed: a position after each engine move.
        try:
            positions = g.positions()
        except kete.KeteValueError as e:
            assert str(e)
            continue
        assert len(positions) == len(g.moves) + 1


def _splice(line, edits):
    b = bytearray(line)
    for at, bytes_ in edits:
        at = at % (len(b) + 1)
        b[at:at + len(bytes_)] = bytes_
    return bytes(b) + b"\n"


@pytest.fixture(scope="module")
def engine():
    return kete.Engine(hash_mb=1, threads=1)


@given(st.dictionaries(
    st.one_of(st.sampled_from(["hash", "threads", "level", "elo", "seed", "own_book", "SolveEndgames",
                               "ponder", "multipv", "Hash", "UCI_Elo"]),
              st.text(string.ascii_letters + "_", min_size=1, max_size=12)),
    st.one_of(st.integers(-(2**40), 2**40), st.text(max_size=12), st.booleans(), st.none()),
    max_size=3,
))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_engine_options(engine, options):
    try:
        engine.configure(**options)
    except (kete.OptionError, TypeError, ValueError) as e:
        assert str(e)
    finally:
        # Back to a small table and one thread, whatever was set.
        engine.configure(hash=1, threads=1)
    assert engine.best_move(kete.Position("kalah"), nodes=200) in kete.Position("kalah").moves()
