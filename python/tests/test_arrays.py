"""Actions, legal masks and observations as arrays, and `VectorGames`: the
faces kete shows a learning program, checked against the move texts and
against games played move by move."""

import numpy as np
import pytest

import kete

# One variant of each game type, and rule options that change the sizes.
CASES = [
    ("kalah", {}),
    ("kalah", {"pits": 4, "seeds": 3}),
    ("oware", {}),
    ("oware", {"rules": "abapa"}),
    ("endodoi", {}),
    ("bao-kujifunza", {}),
    ("bao-kiswahili", {}),
]


def random_line(variant, options, seed, plies=80):
    """The positions of a random game (at most `plies` moves)."""
    rng = np.random.default_rng(seed)
    p = kete.Position(variant, **options)
    line = [p]
    while not p.is_over and len(line) <= plies:
        moves = p.moves()
        p = p.play(moves[rng.integers(len(moves))])
        line.append(p)
    return line


@pytest.mark.parametrize("variant,options", CASES)
def test_every_legal_move_has_one_action_and_back(variant, options):
    for seed in range(3):
        for p in random_line(variant, options, seed):
            actions = [p.move_to_action(m) for m in p.moves()]
            assert sorted(actions) == p.legal_actions()
            assert len(set(actions)) == len(actions)
            assert all(0 <= a < p.action_count for a in actions)
            for m, a in zip(p.moves(), actions):
                assert p.action_to_move(a) == m
                assert p.play_action(a) == p.play(m)
            mask = p.legal_mask()
            assert mask.dtype == np.bool_ and mask.shape == (p.action_count,)
            assert list(np.flatnonzero(mask)) == p.legal_actions()


@pytest.mark.parametrize("variant,options", CASES)
def test_observation_counts_every_seed_of_a_two_row_game(variant, options):
    for p in random_line(variant, options, 5):
        obs = p.observation()
        assert obs.dtype == np.float32 and obs.shape == (p.observation_size,)
        assert (obs >= 0).all()
        seeds = obs[:34].sum() if variant.startswith("bao") else obs.sum()
        assert seeds == p.total_seeds


def test_action_space_sizes_follow_the_rule_options():
    assert kete.Position("kalah", pits=4).action_count == 4
    assert kete.Position("kalah", pits=4).observation_size == 10
    assert kete.Position("endodoi", pits=8).action_count == 8
    assert kete.Position("bao-kiswahili").action_count == 64
    assert kete.Position("bao-kiswahili").observation_size == 53


def test_bad_actions_name_the_problem():
    p = kete.Position("kalah")
    with pytest.raises(kete.InvalidMoveError, match="outside the action space 0..6"):
        p.action_to_move(6)
    with pytest.raises(kete.InvalidMoveError, match="outside"):
        p.play_action(-1)
    with pytest.raises(kete.IllegalMoveError, match=r"legal actions: \[0, 1, 3, 4, 5\]"):
        p.play("C").action_to_move(2)
    with pytest.raises(kete.IllegalMoveError):
        p.play("C").move_to_action("C")
    with pytest.raises(kete.InvalidMoveError):
        p.move_to_action("Z9")
    over = kete.Position.from_fen("kalah", "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S").play("F")
    assert over.is_over and over.legal_actions() == [] and not over.legal_mask().any()
    with pytest.raises(kete.GameOverError):
        over.action_to_move(0)
    g = kete.Game("kalah")
    with pytest.raises(kete.IllegalMoveError):
        g.push_action(2) or g.push_action(2)


def replay(variant, options, start_fen, actions):
    """A game played move by move from `start_fen` with `actions`."""
    g = kete.Game.from_position(kete.Position.from_fen(variant, start_fen, **options))
    for a in actions:
        g.push_action(int(a))
    return g


@pytest.mark.parametrize("variant,options", CASES)
def test_vector_games_agree_with_games_played_move_by_move(variant, options):
    n = 16
    games = kete.VectorGames(variant, n, seed=3, random_plies=2, **options)
    obs, mask = games.reset()
    starts = [games.fen(i) for i in range(n)]
    played = [[] for _ in range(n)]
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(400):
        for i in range(n):
            g = replay(variant, options, starts[i], played[i])
            assert g.fen == games.fen(i)
            assert np.array_equal(g.observation(), obs[i])
            assert np.array_equal(g.legal_mask(), mask[i])
            assert games.to_play[i] == (g.side_to_move == "north")
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        movers = [replay(variant, options, starts[i], played[i]).side_to_move for i in range(n)]
        obs, mask, rewards, terminated, truncated = games.step(actions)
        assert not truncated.any()
        final_obs, ended = games.final_observations()
        assert np.array_equal(ended, terminated)
        for i in range(n):
            played[i].append(actions[i])
            if not terminated[i]:
                assert rewards[i] == 0
                assert games.final_fen(i) is None
                assert not final_obs[i].any()
                continue
            g = replay(variant, options, starts[i], played[i])
            assert g.is_over
            # The game that ended, though its row shows the next one.
            assert games.final_fen(i) == g.fen
            assert np.array_equal(final_obs[i], g.observation())
            winner = g.outcome.winner
            expected = 0 if winner is None else (1 if winner == movers[i] else -1)
            assert rewards[i] == expected
            finished += 1
            starts[i], played[i] = games.fen(i), []
            assert games.plies(i) == 2, "a new game after its random opening"
        if finished >= 2 * n:
            break
    assert finished > 0


def test_vector_games_are_reproducible_from_their_seed():
    def run(seed):
        games = kete.VectorGames("oware", 8, seed=seed, random_plies=6)
        obs, mask = games.reset()
        rng = np.random.default_rng(0)
        out = [obs]
        for _ in range(50):
            obs, mask, *_ = games.step((rng.random(mask.shape) * mask).argmax(axis=1))
            out.append(obs)
        return np.stack(out)

    assert np.array_equal(run(4), run(4))
    assert not np.array_equal(run(4), run(5))


def test_vector_games_truncate_at_max_plies():
    games = kete.VectorGames("bao-kiswahili", 4, max_plies=3)
    obs, mask = games.reset()
    played = []
    for ply in range(3):
        played.append(mask.argmax(axis=1))
        obs, mask, rewards, terminated, truncated = games.step(played[-1])
    assert truncated.all() and not terminated.any()
    assert [games.plies(i) for i in range(4)] == [0, 0, 0, 0]
    # The truncated games' last positions are kept for bootstrapping, until
    # the next step or reset.
    final_obs, ended = games.final_observations()
    assert ended.all()
    for i in range(4):
        last = kete.Game("bao-kiswahili")
        for actions in played:
            last.push_action(int(actions[i]))
        assert games.final_fen(i) == last.fen
        assert np.array_equal(final_obs[i], last.observation())
    games.reset()
    assert not games.final_observations()[1].any()
    assert games.final_fen(0) is None


def test_vector_games_refuse_bad_actions_and_move_no_game():
    games = kete.VectorGames("kalah", 3)
    before = [games.fen(i) for i in range(3)]
    with pytest.raises(kete.InvalidMoveError, match="2 actions for 3 games"):
        games.step(np.array([0, 1], dtype=np.int64))
    with pytest.raises(kete.InvalidMoveError, match="game 1: action 9 is outside 0..6"):
        games.step(np.array([0, 9, 0], dtype=np.int64))
    games.step(np.array([2, 2, 2], dtype=np.int64))
    moved = [games.fen(i) for i in range(3)]
    with pytest.raises(kete.IllegalMoveError, match="game 0: action 2 is not a legal move"):
        games.step(np.array([2, 0, 0], dtype=np.int64))
    assert [games.fen(i) for i in range(3)] == moved != before
    with pytest.raises(IndexError):
        games.fen(3)
    with pytest.raises(kete.KeteValueError, match="n"):
        kete.VectorGames("kalah", 0)
    with pytest.raises(kete.OptionError):
        kete.VectorGames("kalah", 2, pits=99)
