"""kete's games as OpenSpiel games (kete/openspiel.py): registered under
their names and parameters, passing OpenSpiel's own random simulation test,
played by OpenSpiel's MCTS, and playing Kalah and Oware move for move as
OpenSpiel's own `mancala` and `oware` do."""

import random
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import kete  # noqa: E402
import kete.openspiel  # noqa: E402

NAMES = kete.openspiel.register()
GAMES = 300


def test_register_names_every_variant_and_can_be_called_again():
    assert NAMES[:7] == [
        "kete_kalah",
        "kete_oware",
        "kete_endodoi",
        "kete_bao_kujifunza",
        "kete_bao_kiswahili",
        "kete_togyz_kumalak",
        "kete_bestemshe",
    ]
    # Then the described games.
    assert NAMES[7:] == ["kete_" + v.replace("-", "_") for v in kete.VARIANTS[7:]]
    assert kete.openspiel.register() == NAMES
    registered = set(pyspiel.registered_names())
    assert set(NAMES) <= registered
    assert all(n.startswith("kete") for n in registered if "kete" in n)


def test_import_kete_does_not_import_openspiel():
    code = "import sys, kete; print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_parameters_are_the_rule_options_with_ketes_defaults():
    game = pyspiel.load_game("kete_kalah")
    assert game.get_parameters() == {
        "pits": 6,
        "seeds": 4,
        "capture": "standard",
        "max_plies": 1000,
    }
    small = pyspiel.load_game("kete_kalah(pits=4,seeds=3)")
    assert small.num_distinct_actions() == 4
    assert small.new_initial_state().kete_game.fen == "3-3-3-3-3-3-3-3-0-0-S"
    abapa = pyspiel.load_game("kete_oware", {"rules": "abapa"})
    assert abapa.new_initial_state().kete_game.position.options["Rules"] == "abapa"
    bao = pyspiel.load_game("kete_bao_kiswahili(takasia_obligation=clear)")
    assert bao.get_parameters()["singleton_rule"] == "functional"
    assert bao.new_initial_state().kete_game.position.options["TakasiaObligation"] == "clear"
    assert bao.num_distinct_actions() == 64
    assert bao.observation_tensor_shape() == [53]


def test_a_bad_option_value_is_refused_with_ketes_message():
    with pytest.raises(kete.OptionError, match="pits"):
        pyspiel.load_game("kete_kalah(pits=20)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'rules'"):
        pyspiel.load_game("kete_kalah(rules=abapa)")


OTHER_RULES = ["kete_endodoi(pits=10,seeds=6)", "kete_oware(pits=3,seeds=2,repetition=split)"]


@pytest.mark.parametrize("name", NAMES + OTHER_RULES)
def test_every_variant_passes_openspiels_random_simulation_test(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=40, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_the_game_type_is_two_players_sequential_deterministic_zero_sum():
    kind = pyspiel.load_game("kete_endodoi").get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 2)


def test_observations_are_ketes_and_the_strings_the_token_and_the_moves():
    state = pyspiel.load_game("kete_kalah").new_initial_state()
    state.apply_action(2)  # C ends in South's store: South moves again.
    assert state.current_player() == 0
    state.apply_action(0)
    assert state.current_player() == 1
    position = state.kete_game.position
    for player, side in ((0, "south"), (1, "north")):
        assert np.array_equal(state.observation_tensor(player), position.observation(side))
        assert state.observation_string(player) == position.fen
        assert state.information_state_string(player) == (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S C A"
        )
    assert state.action_to_string(0, 1) == "B"
    assert state.action_to_string(1, 1) == "b"
    assert str(state).endswith(position.fen)


def test_actions_are_ketes_and_an_illegal_one_is_refused():
    state = pyspiel.load_game("kete_bao_kiswahili").new_initial_state()
    assert state.legal_actions() == state.kete_game.legal_actions() == [20, 22, 24, 26]
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        "A6<", "A6>", "A7<", "A7>"
    ]
    assert state.legal_actions_mask() == [int(m) for m in state.kete_game.legal_mask()]
    with pytest.raises(kete.IllegalMoveError):
        state.apply_action(0)
    assert state.history() == []


def random_line(state, rng, plies):
    """Plays up to `plies` random actions; the actions played."""
    line = []
    while not state.is_terminal() and len(line) < plies:
        line.append(rng.choice(state.legal_actions()))
        state.apply_action(line[-1])
    return line


@pytest.mark.parametrize("name", ["kete_oware(rules=abapa)", "kete_bao_kiswahili"])
def test_a_clone_and_a_deserialized_state_play_on_as_the_original(name):
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    for _ in range(20):
        state = game.new_initial_state()
        random_line(state, rng, rng.randrange(60))
        clone = state.clone()
        _, copy = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state)
        )
        line = random_line(state, rng, 10_000)
        for other in (clone, copy):
            for action in line:
                other.apply_action(action)
            assert other.is_terminal()
            assert other.returns() == state.returns()
            assert other.kete_game.fen == state.kete_game.fen
            assert other.history() == state.history()


def test_a_game_still_going_at_max_plies_ends_there_as_a_draw():
    game = pyspiel.load_game("kete_oware(max_plies=7)")
    assert game.max_game_length() == 7
    state = game.new_initial_state()
    random_line(state, random.Random(1), 100)
    assert len(state.history()) == 7
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert not state.kete_game.is_over


def test_mcts_plays_a_whole_bao_la_kiswahili_game_and_beats_a_random_bot():
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game("kete_bao_kiswahili")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        uniform_random.UniformRandomBot(0, rng),
        mcts.MCTSBot(game, uct_c=2, max_simulations=30, evaluator=evaluator, random_state=rng),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert state.kete_game.is_over  # by Bao's rules, not cut at max_plies
    assert state.returns() == [-1.0, 1.0]


# Kalah and Oware against OpenSpiel's own implementations. OpenSpiel's
# `mancala` numbers its 14 places from North's store: South's pits are
# actions 1..6 and North's 8..13, each from its owner's left, so kete's
# action i is i + 1 for South and i + 8 for North. Its `oware` numbers the
# mover's houses 0..5 from his left, as kete does.


def mancala_action(player, action):
    return action + 1 if player == 0 else action + 8


def mancala_token(state):
    """kete's token of a `mancala` position (its places 0..13 are North's
    store, South's pits, South's store, North's pits; then the player)."""
    t = [int(x) for x in state.observation_tensor(0)]
    side = "S" if t[14] == 0 else "N"
    return "-".join(str(x) for x in t[1:7] + t[8:14] + [t[7], t[0]] + [side])


def oware_token(state):
    """kete's token of an `oware` position ("player | scores | houses")."""
    player, scores, houses = state.observation_string(0).split("|")
    side = "S" if int(player) == 0 else "N"
    return "-".join(houses.split() + scores.split() + [side])


def play_both(ours, theirs, to_theirs, token, games, seed):
    """Random games played in both at once: at every ply the same player,
    the same legal actions (through `to_theirs`), the same position, the
    same end and the same returns. The plies compared and the endings
    (kete's reasons)."""
    rng = random.Random(seed)
    plies, endings = 0, {}
    for number in range(games):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while True:
            where = f"game {number}, actions {a.history()}"
            assert a.is_terminal() == b.is_terminal(), where
            if a.is_terminal():
                assert a.returns() == b.returns(), where
                reason = a.kete_game.outcome.reason
                endings[reason] = endings.get(reason, 0) + 1
                break
            player = a.current_player()
            assert b.current_player() == player, where
            assert a.kete_game.fen == token(b), where
            legal = a.legal_actions()
            assert sorted(to_theirs(player, x) for x in legal) == b.legal_actions(), where
            action = rng.choice(legal)
            a.apply_action(action)
            b.apply_action(to_theirs(player, action))
            plies += 1
    return plies, endings


def test_kalah_plays_every_random_game_as_openspiels_mancala():
    plies, endings = play_both(
        pyspiel.load_game("kete_kalah"),
        pyspiel.load_game("mancala"),
        mancala_action,
        mancala_token,
        GAMES,
        seed=1,
    )
    assert plies > 30 * GAMES
    assert sum(endings.values()) == GAMES


@pytest.mark.parametrize("pits,seeds", [(6, 4), (4, 3)])
def test_oware_abapa_plays_every_random_game_as_openspiels_oware(pits, seeds):
    plies, endings = play_both(
        pyspiel.load_game(f"kete_oware(rules=abapa,pits={pits},seeds={seeds})"),
        pyspiel.load_game(
            "oware", {"num_houses_per_player": pits, "num_seeds_per_house": seeds}
        ),
        lambda player, action: action,
        oware_token,
        GAMES,
        seed=pits,
    )
    assert plies > 10 * GAMES
    # Every way an Abapa game ends was met, so each rule was compared.
    assert {"majority", "repetition", "cannot-feed"} <= set(endings)
