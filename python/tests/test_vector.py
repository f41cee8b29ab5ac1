"""`VectorGames` as Gymnasium's vector environments behave: seeded resets
that repeat, rows reset to given positions, openings per row, games that do
not depend on the batch's size or threads, and batches that pickle and copy
into batches that step on alike."""

import copy
import pickle

import numpy as np
import pytest

import kete


def random_actions(rng, mask):
    """One legal action a row, drawn from `rng`."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def play(games, steps, seed=0):
    """Steps `games` with random legal actions; every array each step."""
    rng = np.random.default_rng(seed)
    obs, mask = games.observe()
    out = [obs, mask]
    for _ in range(steps):
        obs, mask, rewards, terminated, truncated = games.step(random_actions(rng, mask))
        final_obs, ended = games.final_observations()
        out += [obs, mask, rewards, terminated, truncated, final_obs, ended]
    return out


def same(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def fens(games):
    return [games.fen(i) for i in range(len(games))]


def test_reset_with_a_seed_deals_what_a_new_batch_with_that_seed_dealt():
    made = kete.VectorGames("oware", 8, seed=7, random_plies=6)
    dealt = fens(made)
    # A new batch's first reset deals its own seed's games again ...
    made.reset()
    assert fens(made) == dealt
    # ... and a second reset the next ones.
    made.reset()
    assert fens(made) != dealt
    other = kete.VectorGames("oware", 8, seed=1, random_plies=6)
    play(other, 30)
    other.reset(seed=7)
    assert fens(other) == dealt
    assert same(play(other, 200), play(kete.VectorGames("oware", 8, seed=7, random_plies=6), 200))


def test_a_rows_games_do_not_depend_on_the_batch_size_or_its_threads():
    small = kete.VectorGames("kalah", 4, seed=3, random_plies=4, max_plies=60)
    big = kete.VectorGames("kalah", 1500, seed=3, random_plies=4, max_plies=60, threads=2)
    one = kete.VectorGames("kalah", 1500, seed=3, random_plies=4, max_plies=60, threads=1)
    assert fens(small) == fens(big)[:4]
    assert same(play(big, 150), play(one, 150))
    # The first rows of the big batch step as the small one where they get
    # the same actions.
    big = kete.VectorGames("kalah", 1500, seed=3, random_plies=4, max_plies=60, threads=2)
    rng = np.random.default_rng(5)
    _, mask = small.observe()
    _, big_mask = big.observe()
    for _ in range(150):
        actions = random_actions(rng, mask)
        wide = random_actions(rng, big_mask)
        wide[:4] = actions
        obs, mask, rewards, *_ = small.step(actions)
        big_obs, big_mask, big_rewards, *_ = big.step(wide)
        assert np.array_equal(obs, big_obs[:4]) and np.array_equal(rewards, big_rewards[:4])


def test_rows_reset_to_given_positions_play_as_games_from_there():
    start = kete.Position("oware")
    later = start
    for m in ["C", "f", "E"]:
        later = later.play(m)
    token = later.fen
    games = kete.VectorGames("oware", 3, seed=2, random_plies=5)
    obs, mask = games.reset(positions=[token, later, None])
    assert games.fen(0) == games.fen(1) == token
    assert games.plies(0) == 0 and games.plies(1) == 3, "a Position brings its moves"
    assert games.plies(2) == 5, "None deals a random opening"
    assert np.array_equal(obs[0], later.observation())
    assert np.array_equal(mask[0], later.legal_mask())
    # Played on, the rows are the games played move by move from there.
    rng = np.random.default_rng(0)
    game = kete.Game.from_position(later)
    for _ in range(300):
        actions = random_actions(rng, mask)
        game.push_action(int(actions[1]))
        obs, mask, rewards, terminated, _ = games.step(actions)
        if terminated[1]:
            assert game.is_over and games.final_fen(1) == game.fen
            break
        assert games.fen(1) == game.fen and np.array_equal(obs[1], game.observation())
    assert game.is_over


def test_only_the_rows_named_start_again():
    games = kete.VectorGames("kalah", 4, seed=1, random_plies=3)
    play(games, 5)
    before = fens(games)
    games.reset(rows=[2])
    after = fens(games)
    assert after[:2] == before[:2] and after[3] == before[3]
    assert games.plies(2) == 3
    games.reset(rows=np.array([True, False, False, False]), positions=[kete.Position("kalah").fen])
    assert games.fen(0) == kete.Position("kalah").fen and fens(games)[1:] == after[1:]


def test_openings_can_differ_per_row():
    games = kete.VectorGames("oware", 4, seed=9, random_plies=[0, 1, 2, 7])
    assert [games.plies(i) for i in range(4)] == [0, 1, 2, 7]
    games.reset(random_plies=3)
    assert [games.plies(i) for i in range(4)] == [3, 3, 3, 3]
    # Distinct openings, each row its own.
    assert len(set(fens(games))) == 4


@pytest.mark.parametrize("variant", ["kalah", "oware", "bao-kiswahili", "togyz-kumalak"])
def test_a_batch_pickles_and_copies_into_one_that_steps_on_alike(variant):
    games = kete.VectorGames(variant, 6, seed=4, random_plies=2, max_plies=40)
    play(games, 45, seed=1)  # some games ended, some truncated
    copies = [
        pickle.loads(pickle.dumps(games)),
        copy.copy(games),
        copy.deepcopy(games),
        games.copy(),
    ]
    for c in copies:
        assert fens(c) == fens(games)
        assert [c.plies(i) for i in range(6)] == [games.plies(i) for i in range(6)]
        assert [c.final_fen(i) for i in range(6)] == [games.final_fen(i) for i in range(6)]
        assert same(c.final_observations(), games.final_observations())
    runs = [play(c, 120, seed=2) for c in copies]
    original = play(games, 120, seed=2)
    for r in runs:
        assert same(r, original)


def test_copy_false_writes_every_step_into_the_same_arrays():
    fresh = kete.VectorGames("kalah", 5, seed=1, random_plies=2)
    reused = kete.VectorGames("kalah", 5, seed=1, random_plies=2, copy=False)
    rng = np.random.default_rng(0)
    _, mask = fresh.observe()
    first = None
    for _ in range(50):
        actions = random_actions(rng, mask)
        a = fresh.step(actions)
        b = reused.step(actions)
        if first is None:
            first = b
        assert all(x is y for x, y in zip(b, first))
        assert same(a, b)
        mask = a[1]


def test_bad_resets_are_refused_naming_the_problem_and_change_nothing():
    games = kete.VectorGames("kalah", 3, seed=1)
    before = fens(games)
    with pytest.raises(ValueError, match="positions: 2 positions for 3 games"):
        games.reset(positions=[None, None])
    with pytest.raises(ValueError, match=r"position 1 \(nonsense\)"):
        games.reset(positions=[None, "nonsense", None])
    over = kete.Position("kalah")
    while not over.is_over:
        over = over.play(over.moves()[0])
    with pytest.raises(ValueError, match="the game is over"):
        games.reset(positions=[None, None, over.fen])
    with pytest.raises(ValueError, match="position 0 is a game of oware, these games are kalah"):
        games.reset(positions=[kete.Position("oware"), None, None])
    with pytest.raises(ValueError, match="position 0 is neither"):
        games.reset(positions=[3.5, None, None])
    with pytest.raises(ValueError, match="row 3 is outside 0..3"):
        games.reset(rows=[3])
    with pytest.raises(ValueError, match="row 1 is named twice"):
        games.reset(rows=[1, 1])
    with pytest.raises(ValueError, match="a mask of 2 for 3 games"):
        games.reset(rows=[True, False])
    with pytest.raises(ValueError, match="random_plies: 2 numbers for 3 games"):
        games.reset(random_plies=[1, 2])
    with pytest.raises(kete.KeteValueError, match="random_plies"):
        kete.VectorGames("kalah", 2, random_plies=-1)
    with pytest.raises(kete.KeteValueError, match="threads"):
        kete.VectorGames("kalah", 2, threads=0)
    assert fens(games) == before


def test_a_damaged_batch_pickle_is_refused():
    games = kete.VectorGames("kalah", 2)
    restore, (name, text) = games.__reduce__()
    assert name == "VectorGames"
    with pytest.raises(ValueError, match="cannot unpickle a kete.VectorGames"):
        restore(name, text.replace('"moves":[]', '"moves":[99]', 1))
    with pytest.raises(ValueError, match="cannot unpickle a kete.VectorGames"):
        restore(name, text[:-5])


# Oware endings with a few seeds, where random play often repeats a position.
FEW_SEEDS = [
    "1-0-0-0-0-0-1-0-0-0-0-0-23-23-S",
    "0-0-1-0-2-0-0-1-0-0-1-0-21-22-S",
    "2-0-0-0-0-1-0-0-2-0-0-0-22-21-N",
    "0-1-0-1-0-0-1-0-0-0-1-0-22-22-S",
]


def test_rows_end_a_repeated_position_as_the_referee_does():
    n = 4 * len(FEW_SEEDS)
    games = kete.VectorGames("oware", n, seed=0)
    starts = [kete.Position.from_fen("oware", FEW_SEEDS[i % len(FEW_SEEDS)]) for i in range(n)]
    _, mask = games.reset(positions=starts)
    referee = [kete.Game.from_position(p) for p in starts]
    rng = np.random.default_rng(3)
    reasons = {}
    while len(reasons) < n:
        actions = random_actions(rng, mask)
        _, mask, rewards, terminated, _ = games.step(actions)
        for i in range(n):
            if i in reasons:
                continue
            game = referee[i]
            mover = game.side_to_move
            game.push_action(int(actions[i]))
            assert bool(terminated[i]) == game.is_over
            if game.is_over:
                assert games.final_fen(i) == game.fen
                winner = game.outcome.winner
                assert rewards[i] == (0 if winner is None else (1 if winner == mover else -1))
                reasons[i] = game.outcome.reason
            else:
                assert games.fen(i) == game.fen
    assert "repetition" in reasons.values()


def test_random_actions_are_legal_uniform_seeded_and_carried_by_a_pickle():
    games = kete.VectorGames("oware", 64, seed=11, random_plies=3)
    _, mask = games.observe()
    for _ in range(300):
        actions = games.random_actions()
        assert mask[np.arange(64), actions].all()
        _, mask, *_ = games.step(actions)
    # Uniform among the legal actions: the start position, drawn again and
    # again (each of 6 actions about 1/6 of 64 × 600 draws).
    start = kete.VectorGames("oware", 64, seed=1)
    counts = np.bincount(np.concatenate([start.random_actions() for _ in range(600)]), minlength=6)
    assert counts.sum() == 64 * 600
    assert np.all(np.abs(counts / counts.sum() - 1 / 6) < 0.01), counts
    # Seeded, restarted by reset(seed=…), and carried by a pickle.
    a = kete.VectorGames("kalah", 8, seed=5)
    b = kete.VectorGames("kalah", 8, seed=5)
    first = [a.random_actions() for _ in range(3)]
    assert all(np.array_equal(x, b.random_actions()) for x in first)
    a.reset(seed=5)
    assert np.array_equal(a.random_actions(), first[0])
    c = pickle.loads(pickle.dumps(a))
    assert np.array_equal(c.random_actions(), a.random_actions())
