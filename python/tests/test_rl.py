"""The PettingZoo and Gymnasium environments (kete.pettingzoo,
kete.gymnasium): the libraries' own test suites on every variant, whole
games against kete's outcome, Kalah's extra turn, illegal actions, the
views of both sides, and kete's levels as opponents."""

import functools
import os
import pickle
import random
import subprocess
import sys

import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import kete  # noqa: E402
import kete.gymnasium  # noqa: E402
import kete.pettingzoo  # noqa: E402
from kete.gymnasium import KeteEnv, observation_for  # noqa: E402

# Every variant with its default rules, and some of their other rules.
RULES = [(v, {}) for v in kete.VARIANTS] + [
    ("kalah", {"pits": 4, "seeds": 3}),
    ("oware", {"rules": "abapa"}),
    ("endodoi", {"pits": 8}),
    ("bao-kiswahili", {"front_row": "kichwa-only"}),
]
IDS = [v + "".join(f",{k}={x}" for k, x in o.items()) for v, o in RULES]


def outcome_reward(game, side):
    """+1/-1/0 for `side`, read from kete's outcome of the game."""
    winner = game.outcome.winner
    return 0 if winner is None else (1 if winner == side else -1)


def legal_choice(rng, mask):
    """A uniform choice among the actions a mask allows."""
    return int(rng.choice(np.flatnonzero(mask)))


# Importing kete alone.


def test_import_kete_needs_neither_gymnasium_nor_pettingzoo():
    code = (
        "import sys; sys.modules['gymnasium'] = None; sys.modules['pettingzoo'] = None\n"
        "import kete; kete.Game('kalah').push_action(0)\n"
        "try:\n"
        "    import kete.pettingzoo\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True)
    assert "kete.pettingzoo needs pettingzoo" in out.stdout


# PettingZoo.


# PettingZoo warns of dict observations for games not on its own list.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.parametrize("variant,options", RULES, ids=IDS)
def test_pettingzoo_env_passes_api_test(variant, options):
    api_test(kete.pettingzoo.env(variant, **options), num_cycles=1000)


@pytest.mark.parametrize("variant", kete.VARIANTS)
def test_pettingzoo_env_passes_seed_test(variant):
    seed_test(functools.partial(kete.pettingzoo.env, variant), num_cycles=500)


@pytest.mark.parametrize("variant", kete.VARIANTS)
def test_pettingzoo_env_passes_render_test(variant, capsys):
    render_test(functools.partial(kete.pettingzoo.env, variant))
    assert "to move" in capsys.readouterr().out


@pytest.mark.parametrize("variant,options", RULES, ids=IDS)
def test_a_pettingzoo_game_ends_with_rewards_summing_to_zero_as_kete_scores_it(variant, options):
    env = kete.pettingzoo.env(variant, **options)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    game = kete.Game(variant, **options)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        assert reward == 0
        assert agent == ("player_0" if game.side_to_move == "south" else "player_1")
        action = legal_choice(rng, obs["action_mask"])
        game.push_action(action)
        env.step(action)
    assert game.is_over and not env.agents
    assert sum(final.values()) == 0
    assert final == {"player_0": outcome_reward(game, "south"), "player_1": outcome_reward(game, "north")}
    assert env.unwrapped.game.history == game.history


def test_kalahs_extra_turn_keeps_the_same_agent():
    env = kete.pettingzoo.env("kalah")
    env.reset()
    assert env.agent_selection == "player_0"
    env.step(2)  # C: the last of its four seeds falls in South's store.
    assert env.agent_selection == "player_0"
    assert env.observe("player_0")["action_mask"].tolist() == [1, 1, 0, 1, 1, 1]
    env.step(0)
    assert env.agent_selection == "player_1"


def test_the_agent_waiting_has_no_legal_action_in_its_mask():
    env = kete.pettingzoo.env("oware")
    env.reset()
    assert env.observe("player_1")["action_mask"].tolist() == [0] * 6
    assert env.observe("player_0")["action_mask"].tolist() == [1] * 6


def test_an_illegal_action_ends_the_pettingzoo_game_with_minus_one_for_its_player():
    env = kete.pettingzoo.env("kalah")
    env.reset()
    env.step(2)
    env.step(2)  # C is empty now.
    assert all(env.terminations.values())
    assert env._cumulative_rewards == {"player_0": -1, "player_1": 0}


def test_an_action_outside_the_action_space_raises():
    env = kete.pettingzoo.env("kalah")
    env.reset()
    with pytest.raises(AssertionError):
        env.step(6)


def test_pettingzoo_ansi_render_is_ketes_drawing():
    env = kete.pettingzoo.env("kalah", render_mode="ansi")
    env.reset()
    text = env.render()
    assert text == repr(kete.Position("kalah")) + "south to move\n"


def test_pettingzoo_env_takes_the_rule_options():
    env = kete.pettingzoo.env("kalah", pits=4, seeds=3)
    env.reset()
    space = env.observation_space("player_0")["observation"]
    assert env.action_space("player_0").n == 4
    assert space.shape == (10,) and space.high.max() == 24
    with pytest.raises(kete.OptionError):
        kete.pettingzoo.env("kalah", rules="abapa")


def test_a_pettingzoo_env_pickles_with_its_rules():
    env = pickle.loads(pickle.dumps(kete.pettingzoo.env("oware", rules="abapa", pits=4)))
    env.reset()
    assert env.unwrapped.game.position.options["Rules"] == "abapa"
    assert env.action_space("player_1").n == 4


def test_each_variant_has_its_own_pettingzoo_name():
    assert str(kete.pettingzoo.env("bao-kiswahili").unwrapped) == "kete_bao_kiswahili_v0"


# The views of both sides.


@pytest.mark.parametrize("variant", ["kalah", "oware", "endodoi"])
def test_the_waiting_sides_view_is_the_position_with_the_other_to_move(variant):
    rng = random.Random(2)
    game = kete.Game(variant)
    while not game.is_over:
        fen = game.fen
        turned = fen[:-1] + {"S": "N", "N": "S"}[fen[-1]]
        waiting = "north" if game.side_to_move == "south" else "south"
        expected = kete.Position.from_fen(variant, turned).observation()
        assert observation_for(game, waiting).tolist() == expected.tolist()
        assert observation_for(game, game.side_to_move).tolist() == game.observation().tolist()
        game.push_action(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("variant", ["bao-kujifunza", "bao-kiswahili"])
def test_bao_views_put_each_sides_own_rows_and_hand_first(variant):
    rng = random.Random(3)
    game = kete.Game(variant)
    while not game.is_over:
        p = game.position
        rows = {"south": p.board[0] + p.board[1], "north": p.board[2] + p.board[3]}
        hands = dict(zip(("south", "north"), p.hands))
        for side, other in (("south", "north"), ("north", "south")):
            obs = observation_for(game, side)
            assert obs[:32].tolist() == rows[side] + rows[other]
            assert obs[32:34].tolist() == [hands[side], hands[other]]
            if side != game.side_to_move:
                assert not obs[37:].any()
        game.push_action(rng.choice(game.legal_actions()))


# Gymnasium.


def made(variant, **kwargs):
    """The environment as ``gymnasium.make`` builds it, unwrapped: with its
    spec, so that ``check_env`` also tries every render mode."""
    return gymnasium.make(kete.gymnasium.ENV_IDS[variant], **kwargs).unwrapped


@pytest.mark.parametrize("variant,options", RULES, ids=IDS)
def test_check_env_passes_with_a_random_opponent(variant, options, capsys):
    check_env(made(variant, opponent="random", play_as="random", **options))


@pytest.mark.parametrize("variant", kete.VARIANTS)
def test_check_env_passes_with_a_kete_level(variant, capsys):
    check_env(made(variant, opponent="club", play_as="north"))


@pytest.mark.parametrize("variant", kete.VARIANTS)
def test_check_env_passes_with_kete_at_full_strength_repeatably(variant, capsys):
    env = made(variant, opponent="full", play_as="north")
    assert env.spec.nondeterministic is False
    check_env(env)


def test_every_variant_is_registered():
    for variant, env_id in kete.gymnasium.ENV_IDS.items():
        env = gymnasium.make(env_id)
        assert env.unwrapped.variant == variant
        assert env.unwrapped.spec.nondeterministic is False


def play_out(env, seed):
    """The moves of one episode from `reset(seed=seed)`, the agent always
    taking its first legal action."""
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, done, truncated, info = env.step(action)
    return env.game.history


@pytest.mark.parametrize("opponent", ["club", 1600])
def test_a_level_opponent_replays_its_games_from_the_seed(opponent):
    env = gymnasium.make("kete/Oware-v0", opponent=opponent).unwrapped
    assert not env.spec.nondeterministic
    games = [play_out(env, seed) for seed in (7, 8, 7)]
    assert games[0] == games[2]
    assert games[0] != games[1]


@pytest.mark.parametrize("variant,options", RULES, ids=IDS)
def test_a_gymnasium_game_ends_with_the_reward_kete_scores(variant, options):
    env = KeteEnv(variant, play_as="random", **options)
    rng = np.random.default_rng(4)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        rewards, done = [], False
        while not done:
            assert obs.tolist() == observation_for(env.game, env.side).tolist()
            assert env.action_masks().tolist() == info["action_mask"].astype(bool).tolist()
            obs, reward, done, truncated, info = env.step(legal_choice(rng, info["action_mask"]))
            assert not truncated
            rewards.append(reward)
        replayed = kete.Game(variant, **options)
        for move in env.game.history:
            replayed.push(move)
        assert replayed.is_over and "illegal_action" not in info
        assert rewards[:-1] == [0] * (len(rewards) - 1)
        assert rewards[-1] == outcome_reward(replayed, env.side)


def test_play_as_random_plays_both_sides_from_the_seed():
    env = KeteEnv("oware", play_as="random")
    sides = [env.reset(seed=s)[1]["side"] for s in range(12)]
    assert set(sides) == {"south", "north"}
    assert sides == [env.reset(seed=s)[1]["side"] for s in range(12)]


def test_kalahs_extra_turn_gives_the_agent_another_move():
    env = KeteEnv("kalah")
    env.reset(seed=0)
    obs, reward, done, _, info = env.step(2)  # C ends in South's store.
    assert env.game.history == ["C"] and not done
    assert obs.tolist() == kete.Position("kalah").play("C").observation().tolist()


def test_kalahs_extra_turn_gives_the_opponent_another_move():
    env = KeteEnv("kalah", play_as="north")
    for seed in range(100):
        env.reset(seed=seed)
        if env.game.history[0] == "C":
            break
    assert env.game.history[0] == "C" and len(env.game.history) >= 2
    assert env.game.side_to_move == "north"


def test_a_game_over_before_the_agents_first_move_ends_at_his_first_step():
    # Kalah with one pit of one seed: South's one move empties his row.
    env = KeteEnv("kalah", play_as="north", pits=1, seeds=1)
    obs, info = env.reset(seed=0)
    assert env.game.is_over and info["action_mask"].tolist() == [0]
    obs, reward, done, truncated, info = env.step(0)
    assert (reward, done, "illegal_action" in info) == (0.0, True, False)


def test_an_illegal_action_ends_the_episode_with_minus_one():
    env = KeteEnv("kalah")
    env.reset(seed=0)
    env.step(2)
    obs, reward, done, truncated, info = env.step(2)  # C is empty now.
    assert (reward, done, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game.history == ["C"]
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    assert env.reset(seed=0)[1]["action_mask"].tolist() == [1] * 6


def test_an_action_outside_the_action_space_is_illegal():
    env = KeteEnv("bao-kiswahili")
    env.reset(seed=0)
    assert env.step(64)[1:3] == (-1.0, True)


def test_gymnasium_env_takes_the_rule_options_and_checks_its_arguments():
    env = KeteEnv("kalah", pits=4, seeds=3)
    assert env.action_space.n == 4 and env.observation_space.shape == (10,)
    assert env.observation_space.high.max() == 24
    with pytest.raises(kete.OptionError):
        KeteEnv("kalah", opponent="grandmaster")
    with pytest.raises(ValueError):
        KeteEnv("kalah", play_as="east")
    with pytest.raises(TypeError):
        KeteEnv("kalah", opponent=1.5)


def test_gymnasium_ansi_render_is_ketes_drawing():
    env = KeteEnv("oware", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == repr(kete.Position("oware")) + "south to move\n"


def test_a_kete_level_beats_a_random_agent_most_of_the_time():
    losses = {}
    for variant in kete.VARIANTS:
        env = KeteEnv(variant, opponent="club", play_as="random")
        rng = np.random.default_rng(5)
        results = []
        for seed in range(6):
            obs, info = env.reset(seed=seed)
            done = False
            while not done:
                obs, reward, done, _, info = env.step(legal_choice(rng, info["action_mask"]))
            results.append(reward)
        losses[variant] = results.count(-1.0)
    assert all(n >= 4 for n in losses.values()), losses
    assert sum(losses.values()) >= 24, losses


def _games_against(opponent, seeds, **kwargs):
    """The move lists of one game per seed: the agent plays its first legal
    action, the opponent as it chooses."""
    out = []
    for seed in seeds:
        env = KeteEnv("oware", opponent=opponent, **kwargs)
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, _, done, _, info = env.step(action)
        out.append(tuple(env.game.history))
    return out


def test_the_same_seeds_give_the_same_games_with_an_empty_or_a_filled_database_cache(tmp_path, monkeypatch):
    empty, filled = tmp_path / "empty", tmp_path / "filled"
    empty.mkdir()
    filled.mkdir()
    # A cache with Oware's database in it, as a machine that played before has.
    e = kete.Engine(hash_mb=16, egtb_dir=str(filled))
    e.analyse(kete.Position("oware"), depth=2)
    assert any(filled.iterdir()), "the engine left its database in the cache"
    games = {}
    for name, cache in (("empty", empty), ("filled", filled)):
        monkeypatch.setenv("KETE_EGTB_DIR", str(cache))
        games[name] = _games_against("full", [1, 2, 3], openings=4)
    assert games["empty"] == games["filled"]


def test_a_python_engine_searches_alike_with_an_empty_or_a_filled_database_cache(tmp_path, monkeypatch):
    empty, filled = tmp_path / "empty", tmp_path / "filled"
    empty.mkdir()
    filled.mkdir()
    ending = kete.Position.from_fen("oware", "0-3-0-1-2-0-0-2-1-0-0-3-18-18-S")
    kete.Engine(hash_mb=16, egtb_dir=str(filled)).analyse(ending, depth=2)
    assert any(filled.iterdir()), "the engine left its database in the cache"
    found = {}
    for name, cache in (("empty", empty), ("filled", filled)):
        monkeypatch.setenv("KETE_EGTB_DIR", str(cache))
        engine = kete.Engine(hash_mb=16, threads=1)
        assert engine.options["EgtbDir"] == "<empty>"
        assert engine.database(ending) is None
        a = engine.analyse(ending, depth=9, multipv=3)
        found[name] = [(line.pv, str(line.score), line.tbhits) for line in a.lines]
    assert found["empty"] == found["filled"]
    assert all(hits in (None, 0) for _, _, hits in found["empty"])
    # Asked for, the cache is used as the engine uses it.
    assert kete.Engine(egtb_dir="<cache>").database(ending) is not None


def test_random_openings_make_games_against_full_strength_differ():
    seeds = list(range(8))
    assert len(set(_games_against("full", seeds))) == 1, "full strength is deterministic"
    varied = _games_against("full", seeds, openings=6)
    assert len(set(varied)) >= 6
    # Seeded: the same seeds, the same games.
    assert _games_against("full", seeds[:3], openings=6) == varied[:3]


def test_pettingzoo_openings_are_seeded():
    def history(seed):
        env = kete.pettingzoo.raw_env("kalah", openings=5)
        env.reset(seed=seed)
        return tuple(env.game.history)

    assert len(history(1)) == 5
    assert history(1) == history(1)
    assert len({history(s) for s in range(6)}) > 1
    with pytest.raises(ValueError, match="openings must be a whole number"):
        kete.pettingzoo.raw_env("kalah", openings=-1)
    with pytest.raises(ValueError, match="openings must be a whole number"):
        KeteEnv("kalah", openings="4")


@pytest.mark.parametrize("opponent", ["random", "casual", "full", 1400])
def test_an_environment_pickles_and_deep_copies_into_one_that_plays_on_alike(opponent):
    import copy
    import pickle

    env = KeteEnv("oware", opponent=opponent, openings=2)
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(4):
        _, _, done, _, info = env.step(legal_choice(rng, info["action_mask"]))
        assert not done
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for c in copies:
        assert c.game.history == env.game.history
    runs = []
    for e in [env, *copies]:
        steps_rng = np.random.default_rng(2)
        info = e._info()
        out, done = [], False
        while not done:
            obs, reward, done, _, info = e.step(legal_choice(steps_rng, info["action_mask"]))
            out.append((obs.tobytes(), reward))
        # and the next game from the generator the copy carried
        obs, _ = e.reset()
        out.append((obs.tobytes(), tuple(e.game.history)))
        runs.append(out)
    assert runs[1] == runs[0] and runs[2] == runs[0]


@pytest.mark.parametrize("wrapped", [True, False])
def test_a_pettingzoo_env_pickles_and_deep_copies_with_its_game_in_progress(wrapped):
    import copy
    import pickle

    make = kete.pettingzoo.env if wrapped else kete.pettingzoo.raw_env
    env = make("kalah", openings=3)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(legal_choice(rng, env.last()[0]["action_mask"]))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    history, selected = env.unwrapped.game.history, env.agent_selection
    runs = []
    for e in [env, *copies]:
        assert e.unwrapped.game.history == history
        assert e.agent_selection == selected
        steps_rng = np.random.default_rng(1)
        out = []
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            out.append((agent, obs["observation"].tobytes(), reward))
            e.step(None if terminated or truncated else legal_choice(steps_rng, obs["action_mask"]))
        # The next game's opening comes from the generator the copy carried.
        e.reset()
        out.append(tuple(e.unwrapped.game.history))
        runs.append(out)
    assert runs[1] == runs[0] and runs[2] == runs[0]
    # The copies are apart: the original played on, the copy did not move.
    fresh = copy.deepcopy(env)
    env.step(legal_choice(rng, env.last()[0]["action_mask"]))
    assert fresh.unwrapped.game.history != env.unwrapped.game.history
