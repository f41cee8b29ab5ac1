"""kete's games as OpenSpiel games (extra ``kete[openspiel]``).

:func:`register` registers every variant of :data:`kete.VARIANTS` with
OpenSpiel as ``kete_<variant>`` (hyphens as underscores: ``kete_kalah``,
``kete_oware``, ``kete_endodoi``, ``kete_bao_kujifunza``,
``kete_bao_kiswahili``), so that ``pyspiel.load_game("kete_kalah(pits=4)")``
and OpenSpiel's algorithms (MCTS, AlphaZero, CFR on small boards, …) play
kete's rules::

    import pyspiel
    import kete.openspiel

    kete.openspiel.register()
    game = pyspiel.load_game("kete_oware(rules=abapa)")

A game's parameters are the variant's rule options in snake case with
kete's defaults (``pits``, ``seeds``, ``capture``, ``rules``,
``repetition``, ``singleton_rule``, …), and ``max_plies``: OpenSpiel needs a
bound on a game's length, and a game still going after that many plies ends
there as a draw (1000, the bound OpenSpiel's own ``mancala`` and ``oware``
state). Two players, South first (player 0); the rewards are +1, -1 or 0 at
the end. Actions are kete's action indices (``kete.Game.legal_actions``),
and a player's observation tensor is ``kete.Game.observation(side)``: the
position from his own view (his places first). The observation string
is the position token; the information state string is the start token and
the moves played, which fix the game's whole state (Oware's repetition rule
looks at the moves, not only at the board).

Every rule is kete's own (the extension module); this file only adapts
kete's ``Game`` to OpenSpiel's Python game interface. ``import kete`` does
not import it: OpenSpiel is needed only here.
"""

import re

import numpy as np
import pyspiel

import kete

# A bound on a game's length that OpenSpiel's algorithms can rely on; games
# still going then end as a draw, as OpenSpiel's mancala ends them.
DEFAULT_MAX_PLIES = 1000

_registered = set()


def game_name(variant):
    """The OpenSpiel name of a kete variant: ``bao-kiswahili`` ->
    ``kete_bao_kiswahili`` (OpenSpiel names are identifiers)."""
    return "kete_" + variant.replace("-", "_")


def parameter_name(option):
    """A kete option's OpenSpiel parameter name: ``SingletonRule`` ->
    ``singleton_rule``. kete reads option names in any case, with or without
    underscores, so the name goes back to kete as it is."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", option).lower()


def parameters(variant):
    """The game parameters of a variant with their defaults: its rule
    options as kete lists them, then ``max_plies``."""
    spec = {
        parameter_name(name): option["default"]
        for name, option in kete.variant_options(variant).items()
    }
    spec["max_plies"] = DEFAULT_MAX_PLIES
    return spec


def game_type(variant):
    """The OpenSpiel description of a variant: two players, sequential,
    deterministic, perfect information, zero-sum, rewards at the end."""
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"kete {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(variant),
    )


class KeteGame(pyspiel.Game):
    """One kete variant under given rule options, as an OpenSpiel game.
    :func:`register` makes a subclass per variant (OpenSpiel creates a game
    from its parameters alone, so the variant lives in the class)."""

    variant = "kalah"

    def __init__(self, params=None):
        params = dict(params or {})
        self.max_plies = int(params.pop("max_plies", DEFAULT_MAX_PLIES))
        if self.max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {self.max_plies}")
        # kete checks the options (OptionError names a bad one).
        self.options = params
        start = kete.Game(self.variant, **params)
        self.observation_size = start.observation_size
        info = pyspiel.GameInfo(
            num_distinct_actions=start.action_count,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies,
        )
        super().__init__(game_type(self.variant), info, {**params, "max_plies": self.max_plies})

    def kete_game(self):
        """A new ``kete.Game`` at the start, under this game's options."""
        return kete.Game(self.variant, **self.options)

    def new_initial_state(self, state=None):
        """The start of a game. OpenSpiel may pass a state to rebuild; kete
        states are rebuilt by deserializing instead."""
        if state is not None:
            raise ValueError("kete games are rebuilt with deserialize_state")
        return KeteState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer OpenSpiel asks for: the moves played for a
        perfect-recall view (the information state), else the position."""
        if params:
            raise ValueError(f"kete observers take no parameters, not {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return HistoryObserver()
        return PositionObserver(self.observation_size)


class _Held:
    """A ``kete.Game`` that ``copy.deepcopy`` and ``pickle`` can take:
    OpenSpiel clones a Python state by deep-copying its attributes and
    serializes it by pickling them, and ``kete.Game`` supports neither. The
    copy is kete's own (``Game.copy``); the pickle is the position reached,
    which carries its start and moves, so a game rebuilt from it still knows
    its history (Oware's repetition rule)."""

    __slots__ = ("game",)

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return _Held(self.game.copy())

    def __reduce__(self):
        return (_held_from_position, (self.game.position,))


def _held_from_position(position):
    """Unpickles a :class:`_Held` (a module-level function, so pickle finds
    it by name)."""
    return _Held(kete.Game.from_position(position))


class KeteState(pyspiel.State):
    """A game in progress: a ``kete.Game`` played in place, and the ply
    bound of its OpenSpiel game."""

    def __init__(self, game):
        super().__init__(game)
        self._held = _Held(game.kete_game())
        self._max_plies = game.max_plies

    @property
    def kete_game(self):
        """The ``kete.Game`` behind this state (play it only through the
        state, or OpenSpiel's history goes out of step)."""
        return self._held.game

    def current_player(self):
        """0 for South, 1 for North; TERMINAL once the game is over."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self._held.game.side_to_move == "south" else 1

    def _legal_actions(self, player):
        """kete's legal action indices, sorted (OpenSpiel asks only for the
        player to move)."""
        del player
        return self._held.game.legal_actions()

    def _apply_action(self, action):
        """Plays an action in place; kete refuses an illegal one."""
        self._held.game.push_action(int(action))

    def _action_to_string(self, player, action):
        """The move in kete's notation for that player: South's moves in
        capitals, North's in small letters (``C``, ``c``; ``A6<``, ``a6<``)."""
        move = self._held.game.action_to_move(int(action))
        return move.upper() if player == 0 else move.lower()

    def is_terminal(self):
        """Over by the rules, or at the game's ``max_plies``."""
        game = self._held.game
        return game.is_over or len(game) >= self._max_plies

    def returns(self):
        """+1 for the winner and -1 for the loser at the end; 0 for both in
        a draw, a game cut at ``max_plies`` and a game still going."""
        outcome = self._held.game.outcome
        if outcome is None or outcome.result == "draw":
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.result == "p1win" else [-1.0, 1.0]

    def __str__(self):
        """kete's board drawing and the position token."""
        game = self._held.game
        return f"{game.position!r}{game.fen}"


class PositionObserver:
    """The default observation: ``kete.Game.observation(side)`` as the
    tensor (the player's own places first, as kete sees a position from
    either side) and the position token as the string."""

    def __init__(self, size):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state.kete_game.observation(("south", "north")[player])

    def string_from(self, state, player):
        del player
        return state.kete_game.fen


class HistoryObserver:
    """The information state: the start token and every move since, which
    fix the whole state of a game (a board alone does not, under Oware's
    repetition rule). No tensor."""

    def __init__(self):
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        del state, player

    def string_from(self, state, player):
        del player
        position = state.kete_game.position
        return " ".join([position.start_fen, *position.history])


def _game_class(variant):
    """The :class:`KeteGame` subclass of one variant."""
    name = "Kete" + "".join(part.title() for part in re.split(r"[-_]", variant)) + "Game"
    return type(name, (KeteGame,), {"variant": variant, "__doc__": f"kete's {variant}."})


def register():
    """Registers every kete variant with OpenSpiel; the OpenSpiel names.
    Safe to call again: a game already registered is left as it is."""
    known = set(pyspiel.registered_names())
    for variant in kete.VARIANTS:
        name = game_name(variant)
        if name not in known and name not in _registered:
            pyspiel.register_game(game_type(variant), _game_class(variant))
        _registered.add(name)
    return [game_name(v) for v in kete.VARIANTS]
