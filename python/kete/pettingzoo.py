"""kete's games as PettingZoo AEC environments, made as PettingZoo's classic
games are.

``kete.pettingzoo.env(variant="kalah", render_mode=None, **options)`` is the
environment with PettingZoo's usual wrappers (an illegal move ends the game
with -1 for its player, actions are checked to be in range, the call order is
enforced); ``raw_env`` is the same without them.

- Agents: ``"player_0"`` (South, moves first) and ``"player_1"`` (North).
  ``agent_selection`` is whoever is to move: after Kalah's extra turn the
  same agent moves again.
- Observation: ``{"observation": float32 Box, "action_mask": int8}``. The
  observation is always from the observing agent's own view (his places
  first), the one waiting included, so that one network serves both seats;
  in Bao the fields about the move to be made are zero for the one waiting
  (see ``kete.gymnasium.observation_for``). The mask is the legal actions for
  the agent to move, all zero for the other and once the game is over.
- Rewards: +1 to the winner and -1 to the loser when the game ends, 0 for a
  draw and on every other step.
- ``render_mode``: ``"ansi"`` returns kete's text drawing, ``"human"``
  prints it.

It needs pettingzoo (the extra ``kete[rl]``); ``import kete`` does not.
"""

import kete

try:
    from gymnasium import logger, spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "kete.pettingzoo needs pettingzoo: pip install 'kete[rl]'"
    ) from err

import numpy as np

from .gymnasium import drawing, observation_for, observation_space, random_opening, reward_for

__all__ = ["env", "raw_env", "AGENTS"]

# The agents and the side each plays.
AGENTS = ("player_0", "player_1")
_SIDES = {"player_0": "south", "player_1": "north"}
_AGENT_OF = {side: agent for agent, side in _SIDES.items()}


def env(variant="kalah", render_mode=None, **options):
    """The environment of `variant` under its rule `options`, wrapped as
    PettingZoo wraps its classic games: an illegal action ends the game with
    -1 for the agent who made it, an action outside the action space raises,
    and calls out of order (``step`` before ``reset``) raise."""
    wrapped = raw_env(variant, render_mode=render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):
    """A kete game between two agents, without PettingZoo's wrappers."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "kete_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, variant="kalah", render_mode=None, openings=0, **options):
        EzPickle.__init__(self, variant, render_mode, openings, **options)
        super().__init__()
        if isinstance(openings, bool) or not isinstance(openings, int) or openings < 0:
            raise ValueError(f"openings must be a whole number of plies, 0 or more, got {openings!r}")
        # `openings` random plies start each game, drawn from a generator
        # that `reset(seed=...)` seeds.
        self.openings = openings
        self._rng = np.random.default_rng()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.variant = variant
        self.options = dict(options)
        self.render_mode = render_mode
        self.game = kete.Game(variant, **options)
        # Each variant its own name ("kete_bao_kiswahili_v0"), as PettingZoo
        # names each of its games.
        self.metadata = dict(self.metadata, name=f"kete_{variant.replace('-', '_')}_v0")
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        observation = observation_space(self.game)
        self.action_spaces = {a: spaces.Discrete(self.game.action_count) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": observation,
                    "action_mask": spaces.Box(0, 1, shape=(self.game.action_count,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }

    # What a game in progress holds beyond the constructor's arguments.
    _PLAYED = (
        "game",
        "_rng",
        "agents",
        "rewards",
        "_cumulative_rewards",
        "terminations",
        "truncations",
        "infos",
        "agent_selection",
    )

    def __getstate__(self):
        """The constructor's arguments (as EzPickle keeps them) and the game
        in progress: a pickle or a deep copy plays on from where this one
        stands, not from a new game."""
        state = EzPickle.__getstate__(self)
        state["_played"] = {k: self.__dict__[k] for k in self._PLAYED if k in self.__dict__}
        return state

    def __setstate__(self, state):
        state = dict(state)
        played = state.pop("_played", {})
        EzPickle.__setstate__(self, state)
        self.__dict__.update(played)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        """The position from `agent`'s own view, with his legal actions."""
        side = _SIDES[agent]
        if agent == self.agent_selection and not self.game.is_over:
            mask = self.game.legal_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.action_count, np.int8)
        return {"observation": observation_for(self.game, side), "action_mask": mask}

    def reset(self, seed=None, options=None):
        """A new game from the start, after `openings` random plies (`seed`
        seeds them); South (``player_0``) moves first. Without openings the
        game has no chance, and `seed` changes nothing."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = kete.Game(self.variant, **self.options)
        random_opening(self.game, self.openings, self._rng)
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = _AGENT_OF[self.game.side_to_move]
        self._show()

    def step(self, action):
        """Plays the selected agent's action; the next agent is whoever the
        rules say moves next (the same one after Kalah's extra turn)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.game.push_action(int(action))
        if self.game.is_over:
            self._finish()
        self.agent_selection = _AGENT_OF[self.game.side_to_move]
        self._accumulate_rewards()
        self._show()

    def _finish(self):
        """The game is over: both agents are done, with their rewards."""
        self.rewards = {a: reward_for(self.game, _SIDES[a]) for a in AGENTS}
        self.terminations = {a: True for a in AGENTS}

    def render(self):
        """kete's text drawing: returned in ``ansi`` mode, printed in
        ``human`` mode."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode")
            return None
        text = drawing(self.game)
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None

    def _show(self):
        """Prints the position after each change in ``human`` mode."""
        if self.render_mode == "human":
            self.render()

    def close(self):
        pass
