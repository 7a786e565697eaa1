"""The single-agent Gymnasium environment: the agent against an opponent.

>>> import gymnasium, backgammon.env
>>> e = gymnasium.make("backgammon/Backgammon-v0", opponent="pubeval")
>>> obs, info = e.reset(seed=0)
>>> obs["observation"].shape, info["num_plays"] == len(info["afterstates"]) == int(e.unwrapped.action_masks().sum())
((210,), True)
"""
from __future__ import annotations

import gymnasium
from typing import cast

import numpy as np
from gymnasium import spaces

from .._validate import flag, number, one_of
from ..errors import IllegalPlayError
from ..position import Position
from ._core import (NUM_ACTIONS, OBS_HIGH, OBS_SIZE, Afterstates, OneGame, check_action, opponent_player, portable,
                    start_position)

__all__ = ["BackgammonEnv", "observation_space", "action_space"]


def observation_space(mask_in_observation: bool = True) -> spaces.Dict:
    """``{"observation": Box(0, 7.5, (210,), float32), "action_mask": Box(0, 1, (3072,), int8)}``;
    without ``"action_mask"`` when ``mask_in_observation`` is False.

    >>> sorted(observation_space(mask_in_observation=False).spaces)
    ['observation']
    """
    parts: dict[str, spaces.Space] = {"observation": spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), np.float32)}
    if mask_in_observation:
        parts["action_mask"] = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
    return spaces.Dict(parts)


def action_space() -> spaces.Discrete:
    """``Discrete(3072)``: the index of a distinct legal play.

    >>> int(action_space().n)
    3072
    """
    return spaces.Discrete(NUM_ACTIONS)


class BackgammonEnv(gymnasium.Env):
    """Cubeless backgammon against ``opponent`` (a ``players.player`` spec
    such as ``"random"``, ``"pubeval"``, ``"net"``, ``"net:1"``, or a Player).

    Each step the agent plays one whole turn (action ``i`` = the ``i``-th
    distinct legal play of its roll in the move generator's order), the
    opponent answers with its own roll, and the agent rolls again.  The
    reward is 0 until the game ends, then +1/+2/+3 (single, gammon,
    backgammon won) or -1/-2/-3.  The opening throw (RULES 2.2) decides who
    starts; when the opponent does, its first play is made in ``reset``.
    ``reset(options={"position": pos})`` starts at ``pos`` instead, the
    agent on roll (row 1) with an ordinary roll.

    ``info``: ``"action_mask"`` (as in the observation), ``"num_plays"``
    (the number of legal plays, 0 once the game is over), ``"afterstates"``
    (an :class:`~backgammon.env.Afterstates`: the (k, 2, 25) positions the
    agent's plays lead to, opponent on roll, which numpy and the batch
    entry points take as the array; not an ndarray, so that Gymnasium's
    ``SyncVectorEnv`` and ``AsyncVectorEnv`` stack it as an object array),
    ``"roll"`` the agent's dice.  Every entry stacks in those vector
    environments.

    ``action_masks()`` gives the mask as bools (the method sb3-contrib's
    ``MaskablePPO`` calls); with ``mask_in_observation=False`` the
    observation is ``{"observation": (210,)}`` alone, so that a policy
    does not take the 3,072 mask units as features.

    The environment pickles and deep-copies with its game and opponent
    (a network by value; a player that holds a process or a module,
    ``gnubg`` or ``ubgi:COMMAND``, is built again from its spec).

    An action outside the mask ends the game with reward ``illegal_reward``
    (default -3, as bad as the worst loss, so that it never pays) and
    ``info["illegal_action"] = True``; with ``illegal_reward=None`` it
    raises ``IllegalPlayError`` instead.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, opponent="random", render_mode: str | None = None,
                 illegal_reward: float | None = -3.0, mask_in_observation: bool = True):
        self.illegal_reward = None if illegal_reward is None else number("illegal_reward", illegal_reward)
        self.mask_in_observation = flag("mask_in_observation", mask_in_observation)
        if render_mode is not None:
            one_of("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.opponent = opponent_player(opponent)
        self.observation_space = observation_space(self.mask_in_observation)
        self.action_space = action_space()
        self._games: OneGame | None = None

    def __getstate__(self):
        state = self.__dict__.copy()
        state["opponent"] = portable(self.opponent)
        return state

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._games = OneGame(self.opponent, self.np_random)
        board = start_position(options)
        if board is None:
            self._games.restart()
        else:
            self._games.start_at(board)
        return self._observe()

    def step(self, action):
        g = self._games
        if g is None:
            raise RuntimeError("call reset() before step()")
        if g.done:
            raise RuntimeError("the game is over: call reset() to start another")
        try:
            index = check_action(action, g.count)
        except IllegalPlayError:
            if self.illegal_reward is None:
                raise
            g.end()
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        reward = g.play(index)
        obs, info = self._observe()
        return obs, reward, g.done, False, info

    def _observe(self):
        g = self._games
        if self.render_mode == "human":     # Gymnasium's convention: shown on every reset and step
            self.render()
        mask = g.mask()
        info = {"action_mask": mask, "num_plays": max(g.count, 0), "afterstates": Afterstates(g.afterstates()),
                "roll": g.roll}
        if self.mask_in_observation:
            return {"observation": g.observation(), "action_mask": mask}, info
        return {"observation": g.observation()}, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent's roll as (3072,) bools (a view of
        the int8 mask, which is new every step): the method sb3-contrib's
        ``MaskablePPO`` and ``ActionMasker`` look for.  All False once the
        game is over.

        >>> e = BackgammonEnv()
        >>> obs, info = e.reset(seed=0)
        >>> m = e.action_masks()
        >>> m.dtype, int(m.sum()) == info["num_plays"], bool(m[:info["num_plays"]].all())
        (dtype('bool'), True, True)
        """
        g = self._games
        if g is None:
            raise RuntimeError("call reset() before action_masks()")
        return g.mask().view(np.bool_)

    @property
    def position(self) -> Position:
        """The position from the agent's view (the agent in row 1)."""
        return Position.from_bytes(cast(OneGame, self._games).board, validate=False)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        g = self._games
        if g is None:
            text = "call reset() first"
        else:
            head = "game over" if g.done else f"agent (X) to play {g.roll[0]}{g.roll[1]}"
            text = head + "\n" + str(self.position)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text
