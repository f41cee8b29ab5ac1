"""kete's games as single-agent Gymnasium environments.

:class:`KeteEnv` puts a learning agent on one side of a kete game and an
opponent on the other: kete's engine at one of its levels (or at an Elo), or
a uniform random mover. Importing this module registers one id per variant
(``kete/Kalah-v0``, ``kete/Oware-v0``, ``kete/EnDodoi-v0``,
``kete/BaoKujifunza-v0``, ``kete/BaoKiswahili-v0``, ``kete/TogyzKumalak-v0``,
``kete/Bestemshe-v0``, then one per described game, e.g.
``kete/Mangala-v0``, ``kete/DasBohnenspiel-v0``) for ``gymnasium.make``.

It needs gymnasium (the extra ``kete[rl]``); ``import kete`` does not.
"""

import numbers

import kete

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "kete.gymnasium needs gymnasium: pip install 'kete[rl]'"
    ) from err

import numpy as np

__all__ = ["KeteEnv", "ENV_IDS", "observation_for", "reward_for", "drawing", "random_opening"]

def _env_id(variant):
    """The id of a variant: its name's words capitalised and joined
    (``das-bohnenspiel`` -> ``kete/DasBohnenspiel-v0``)."""
    return "kete/" + "".join(w[:1].upper() + w[1:] for w in variant.split("-")) + "-v0"


# The registered id of each variant, for ``gymnasium.make``: kete's own
# games (En Dodoi's as its players write it), then the described games.
ENV_IDS = {v: _env_id(v) for v in kete.VARIANTS}
ENV_IDS["endodoi"] = "kete/EnDodoi-v0"

# Nodes a kete opponent searches per move: a few milliseconds, so that
# training is not slowed by the opponent. Its level still decides its play.
OPPONENT_NODES = 2000

def random_opening(game, plies, rng):
    """Plays up to `plies` uniformly random moves on `game` (a ``kete.Game``)
    with `rng` (a numpy Generator), stopping short of a move that would end
    the game: the seeded openings that make games against a deterministic
    opponent differ."""
    for _ in range(plies):
        moves = game.moves()
        order = rng.permutation(len(moves))
        for k in order:
            trial = game.copy()
            trial.push(moves[int(k)])
            if not trial.is_over:
                game.push(moves[int(k)])
                break
        else:
            return


def observation_for(game, side):
    """The observation of `game` from `side`'s view, his places first: what
    an agent sees whether or not it is his turn. In Bao the fields about the
    move to be made (the takasia'd pit, the pit to clear) are zero for the
    side that waits."""
    return game.observation(side)


def reward_for(game, side):
    """+1 if `side` won the finished `game`, -1 if he lost, 0 for a draw or
    a game still going."""
    outcome = game.outcome
    if outcome is None or outcome.winner is None:
        return 0.0
    return 1.0 if outcome.winner == side else -1.0


def observation_space(game):
    """Every field is a seed count or a 0/1 flag, so the game's seeds bound
    them all."""
    high = float(max(game.position.total_seeds, 1))
    return spaces.Box(0.0, high, shape=(game.observation_size,), dtype=np.float32)


def drawing(game):
    """kete's text drawing of the position, with a line saying who moves or
    how the game ended: what the ``ansi`` and ``human`` modes show."""
    if game.is_over:
        outcome = game.outcome
        line = "draw" if outcome.winner is None else f"{outcome.winner} wins"
        if outcome.seeds is not None:
            # The winner's count first, as a score is said.
            line += " {}-{}".format(*sorted(outcome.seeds, reverse=True))
    else:
        line = f"{game.side_to_move} to move"
    return repr(game.position).rstrip("\n") + "\n" + line + "\n"


class _RandomMover:
    """Any legal move, drawn from the environment's own seeded generator (so
    that ``reset(seed=...)`` replays the same games)."""

    def new_game(self, rng):
        pass

    def play(self, game, rng):
        game.push_action(int(rng.choice(game.legal_actions())))


class _EngineMover:
    """kete's engine at a level or an Elo, searching a few nodes a move.

    A level below full strength draws among its moves; its seed comes from
    the environment's generator at every new game, so that
    ``reset(seed=...)`` replays the same games."""

    def __init__(self, opponent, nodes, seed=None):
        if isinstance(opponent, bool) or not isinstance(opponent, (numbers.Integral, str)):
            raise TypeError(f"opponent must be 'random', a level name or an Elo, got {opponent!r}")
        self.opponent = opponent
        self.nodes = nodes
        self.seed = seed
        # No endgame database: what the user's cache holds must not change
        # the games (the same seeds give the same games on any machine).
        if isinstance(opponent, numbers.Integral):
            self.engine = kete.Engine(hash_mb=1, egtb_dir=None, elo=int(opponent), seed=seed)
        else:
            self.engine = kete.Engine(hash_mb=1, egtb_dir=None, level=opponent, seed=seed)

    def new_game(self, rng):
        self.seed = int(rng.integers(2**63))
        self.engine.configure(seed=self.seed)

    def play(self, game, rng):
        # An empty table every move: the move depends on the position and
        # the seed alone, so a copy of the environment plays as it would.
        self.engine.new_game()
        game.push(self.engine.best_move(game.position, nodes=self.nodes))

    def __getstate__(self):
        """An engine cannot be pickled: its settings are, and a new one
        made from them plays the same moves."""
        return {"opponent": self.opponent, "nodes": self.nodes, "seed": self.seed}

    def __setstate__(self, state):
        self.__init__(state["opponent"], state["nodes"], state["seed"])


def make_opponent(opponent, nodes=OPPONENT_NODES):
    """The mover behind `opponent`: "random" is this module's seeded random
    mover; any other name is a kete level, an int an Elo."""
    if opponent == "random":
        return _RandomMover()
    return _EngineMover(opponent, nodes)


class KeteEnv(gymnasium.Env):
    """One side of a kete game against a fixed opponent.

    ``KeteEnv(variant="kalah", opponent="random", play_as="south", **options)``:
    `options` are the variant's rule options (``pits=4``, ``rules="abapa"``,
    as ``kete.Game`` takes them). `opponent` is ``"random"`` (a uniform random
    mover drawn from the environment's seed), a kete level name
    (``"first-game"`` … ``"expert"``, ``"full"``, ``"greedy"``) or an Elo
    (an int) for ``kete.Engine``, searching `opponent_nodes` nodes a move.
    `play_as` is ``"south"`` (moves first), ``"north"`` or ``"random"``
    (drawn at each reset). `openings` random plies (seeded from the
    environment's generator) start each game: kete at full strength is
    deterministic, so without them every game against it is the same.

    - ``action_space``: ``Discrete(action_count)``, the variant's fixed
      action space; ``observation_space``: the observation as a float32
      ``Box``, always from the agent's own view.
    - ``info["action_mask"]`` (int8) and :meth:`action_masks` (bool, the
      convention of sb3-contrib's MaskablePPO) give the legal actions.
    - Rewards: +1 for a won game, -1 for a lost one, 0 for a draw and on
      every other step. After Kalah's extra turn the same side moves again:
      the agent is asked again, or the opponent plays twice.
    - An illegal action ends the episode at once with reward -1 and
      ``info["illegal_action"] = True``, the game left unplayed: agents that
      sample from the whole action space (as ``check_env`` does) get a signal
      instead of an exception. Mask the actions to avoid it.

    A kete opponent's choices are seeded from the environment's generator,
    so ``reset(seed=...)`` replays the same games. The environment pickles
    and deep-copies, a kete opponent as its settings: the copy plays on as
    the original would. A kete opponent plays
    without an endgame database, so that the same seeds give the same games
    on any machine, whatever the database cache holds.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        variant="kalah",
        opponent="random",
        play_as="south",
        render_mode=None,
        opponent_nodes=OPPONENT_NODES,
        openings=0,
        **options,
    ):
        if isinstance(openings, bool) or not isinstance(openings, numbers.Integral) or openings < 0:
            raise ValueError(f"openings must be a whole number of plies, 0 or more, got {openings!r}")
        self.openings = int(openings)
        if play_as not in ("south", "north", "random"):
            raise ValueError(f"play_as must be 'south', 'north' or 'random', got {play_as!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.variant = variant
        self.options = dict(options)
        self.play_as = play_as
        self.render_mode = render_mode
        self.game = kete.Game(variant, **options)
        self.opponent = make_opponent(opponent, opponent_nodes)
        self.action_space = spaces.Discrete(self.game.action_count)
        self.observation_space = observation_space(self.game)
        self.side = "south"
        self._episode_over = False

    def reset(self, *, seed=None, options=None):
        """A new game; the opponent moves first when the agent is North."""
        super().reset(seed=seed)
        self.game = kete.Game(self.variant, **self.options)
        random_opening(self.game, self.openings, self.np_random)
        self.opponent.new_game(self.np_random)
        if self.play_as == "random":
            self.side = ("south", "north")[int(self.np_random.integers(2))]
        else:
            self.side = self.play_as
        self._episode_over = False
        self._opponent_moves()
        self._show()
        return observation_for(self.game, self.side), self._info()

    def step(self, action):
        """Plays the agent's move, then the opponent's until the agent is to
        move again or the game is over."""
        if self._episode_over:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        # A game may end before the agent's first move (Kalah with one pit).
        if not self.game.is_over:
            if not self._is_legal(action):
                return self._illegal()
            self.game.push_action(int(action))
            self._opponent_moves()
        self._episode_over = self.game.is_over
        self._show()
        reward = reward_for(self.game, self.side)
        return observation_for(self.game, self.side), reward, self._episode_over, False, self._info()

    def action_masks(self):
        """The legal actions as booleans (sb3-contrib's MaskablePPO asks for
        them by this name)."""
        return self.game.legal_mask()

    def render(self):
        """kete's text drawing: returned in ``ansi`` mode, printed in
        ``human`` mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = drawing(self.game)
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None

    def _is_legal(self, action):
        """Whether `action` is one of the legal moves' actions."""
        try:
            index = int(action)
        except (TypeError, ValueError):
            return False
        return 0 <= index < self.game.action_count and bool(self.game.legal_mask()[index])

    def _illegal(self):
        """The end of an episode by an illegal action: -1, game unplayed."""
        self._episode_over = True
        info = self._info()
        info["illegal_action"] = True
        return observation_for(self.game, self.side), -1.0, True, False, info

    def _opponent_moves(self):
        """The opponent plays while it is his turn (twice or more after
        Kalah's extra turns)."""
        while not self.game.is_over and self.game.side_to_move != self.side:
            self.opponent.play(self.game, self.np_random)

    def _info(self):
        """The legal mask (int8, as ``Discrete.sample(mask)`` takes it; all
        zero once the game is over) and the agent's side. Between steps it is
        always the agent's turn, so the mask is his."""
        return {"action_mask": self.game.legal_mask().astype(np.int8), "side": self.side}

    def _show(self):
        """Prints the position after each change in ``human`` mode."""
        if self.render_mode == "human":
            self.render()


def _register():
    """Registers one id per variant, once (importing again adds nothing)."""
    for variant, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="kete.gymnasium:KeteEnv",
                kwargs={"variant": variant},
            )


_register()
