"""The vectorised Gymnasium environment: N games against an opponent,
stepped together in one batch-kernel call per half-turn.

>>> import gymnasium, numpy as np, backgammon.env
>>> envs = gymnasium.make_vec("backgammon/Backgammon-v0", num_envs=8,
...                           vectorization_mode="vector_entry_point")
>>> obs, info = envs.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((8, 210), (8, 3072))
>>> actions = sample_legal(info["num_plays"], rng=0)
>>> obs, reward, terminated, truncated, info = envs.step(actions)
>>> envs.action_masks().shape, envs.action_masks().dtype
((8, 3072), dtype('bool'))
"""
from __future__ import annotations

import numpy as np
from gymnasium import logger
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._validate import flag, integer, number, one_of
from ..dice import generator
from ..errors import IllegalPlayError
from ..position import Position
from .._env import EnvAction
from .._parallel import cores
from ._core import NUM_ACTIONS, Games, opponent_player, portable, sample_legal, start_position  # noqa: F401
from ._options import Options

__all__ = ["BackgammonVectorEnv"]


class BackgammonVectorEnv(VectorEnv):
    """``num_envs`` games of :class:`~backgammon.env.single.BackgammonEnv`
    in lockstep: each ``step`` plays the agents' turns of every game, the
    opponent's answers in one batch, and the next rolls, with one call of
    ``batch.legal_positions`` per half-turn and no Python loop over games.

    Autoreset is ``NEXT_STEP`` (Gymnasium's default): the step after a game
    ends restarts it and ignores its action.  ``reset(options={"reset_mask":
    mask})`` restarts only the games in ``mask``; ``options={"position":
    pos}`` starts them at ``pos`` (agent on roll) instead of the opening,
    for this reset only.

    ``info``: ``"action_mask"`` (num_envs, 3072) int8 (the same array as
    the observation's), ``"num_plays"`` (num_envs,) the number of legal
    plays (0 for a finished game), ``"roll"`` (num_envs, 2) uint8 and, in
    CSR layout, ``"afterstates"`` (total, 2, 25) with
    ``"afterstate_offsets"`` (num_envs + 1,): the plays of game ``i`` lead
    to ``afterstates[offsets[i]:offsets[i + 1]]`` (opponent on roll).

    An action outside a game's mask ends that game with reward
    ``illegal_reward`` (default -3) and ``info["illegal_action"]`` True for
    it; with ``illegal_reward=None`` the step raises ``IllegalPlayError``
    and changes nothing.

    ``copy=False`` returns the environment's own observation arrays, which
    the next step overwrites (faster: the mask changes only where the
    number of plays does; copy them to keep them).  With ``copy=True``
    every step's arrays are new.

    ``threads`` (None: every core the process may use) share each step;
    the games are the same for any number (set 1 when running one
    environment per core).

    ``max_episode_steps`` (what ``gymnasium.make_vec(...,
    max_episode_steps=N)`` passes): a game that has not ended after N of
    the agent's steps is truncated (``truncated`` True, as Gymnasium's
    ``TimeLimit`` does it, terminated or not) and restarts on the next
    step.  ``mask_in_observation=False`` leaves ``"action_mask"`` out of
    the observation (``info`` and ``action_masks()`` still have it).

    The environment pickles and deep-copies with its games and opponent.

    Parameters
    ----------
    num_envs : int, default 1
        Games in lockstep.
    opponent, render_mode, illegal_reward, mask_in_observation, observation, afterstates, max_plays, cube, match_length, reward, rules
        As in :class:`~backgammon.env.single.BackgammonEnv`.
    copy : bool, default True
        See above.
    threads : int, optional
        See above.
    max_episode_steps : int, optional
        See above.

    Examples
    --------
    >>> import gymnasium, numpy as np, backgammon.env
    >>> envs = gymnasium.make_vec("backgammon/Backgammon-v0", num_envs=3,
    ...                           vectorization_mode="vector_entry_point",
    ...                           opponent="pubeval")
    >>> obs, info = envs.reset(seed=1)
    >>> obs["observation"].shape, info["afterstate_offsets"].shape
    ((3, 210), (4,))
    >>> first = np.zeros(3, dtype=np.int64)        # each game's first legal play
    >>> obs, reward, terminated, truncated, info = envs.step(first)
    >>> envs.close()
    """

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, opponent="random", render_mode: str | None = None,
                 copy: bool = True, illegal_reward: float | None = -3.0, threads: int | None = None,
                 max_episode_steps: int | None = None, mask_in_observation: bool = True, *,
                 observation: str = "tesauro", afterstates: bool = False, max_plays: int | None = None,
                 cube: bool = False, match_length: int = 0, reward: str = "points", rules=None):
        self.illegal_reward = None if illegal_reward is None else number("illegal_reward", illegal_reward)
        self.max_episode_steps = None if max_episode_steps is None else integer("max_episode_steps",
                                                                               max_episode_steps, low=1)
        self.options = Options.of(observation, afterstates, max_plays, cube, match_length, reward, rules,
                                  mask_in_observation)
        if self.options.played:
            raise ValueError("cube, match_length: the lockstep environment plays cubeless money games; "
                             "for the cube or match play vectorise the single-agent environment "
                             "(gymnasium.make_vec(..., vectorization_mode='sync' or 'async'))")
        self.mask_in_observation = self.options.mask_in_observation
        self.num_envs = integer("num_envs", num_envs, low=1)
        if render_mode is not None:
            one_of("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.copy = flag("copy", copy)
        self.threads = cores() if threads is None else integer("threads", threads, low=1)
        self.opponent = opponent_player(opponent)
        self.single_observation_space = self.options.observation_space()
        self.single_action_space = self.options.action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._games: Games | None = None
        self._elapsed = np.zeros(self.num_envs, dtype=np.int64)    # the agent's steps in each game

    def __getstate__(self):
        state = self.__dict__.copy()
        state["opponent"] = portable(self.opponent)
        return state

    def reset(self, *, seed=None, options=None):
        if isinstance(seed, (list, tuple)):
            self._np_random, self._np_random_seed = generator(np.random.SeedSequence(list(seed))), -1
        else:
            super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict, not {type(options).__name__}")
        mask = None if options is None else options.get("reset_mask")
        if mask is not None and self._games is not None and seed is None:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be {self.num_envs} bools")
        else:
            self._games = Games(self.num_envs, self.opponent, self.np_random, self.threads, self.copy)
            mask = np.ones(self.num_envs, dtype=bool)
        g = self._games
        board = start_position(options)
        if board is None:
            actions = np.where(mask, EnvAction.ENV_RESTART, EnvAction.ENV_KEEP)
        else:
            g.boards[mask] = board
            actions = np.where(mask, EnvAction.ENV_ROLL, EnvAction.ENV_KEEP)
        g.step(actions.astype(np.int64))
        self._elapsed[mask] = 0
        return self._observe()

    def step(self, actions):
        g = self._games
        if g is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {actions.shape}")
        if actions.dtype == np.bool_ or not np.issubdtype(actions.dtype, np.integer):
            raise TypeError(f"actions must be an array of ints, not of {actions.dtype}")
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if self.options.max_plays < NUM_ACTIONS:
            actions = np.where(actions >= self.options.max_plays, NUM_ACTIONS, actions)
        if self.illegal_reward is None:
            bad = ((actions < 0) | (actions >= np.minimum(g.counts, self.options.max_plays))) & (g.done == 0)
            if bad.any():
                i = int(np.argmax(bad))
                k = int(g.counts[i])
                raise IllegalPlayError(f"actions[{i}] = {int(actions[i])} is not a legal play: game {i} has "
                                       f"{k} distinct legal play{'s' if k != 1 else ''}, actions 0 to {k - 1}")
        # NEXT_STEP autoreset: a finished (or truncated) game restarts, its action ignored.
        restarted = g.done.astype(bool)
        reward, terminated, illegal = g.step(actions, self.illegal_reward or 0.0, autoreset=True)
        elapsed = self._elapsed
        elapsed += 1
        elapsed[restarted] = 0
        if self.max_episode_steps is None:
            truncated = np.zeros(self.num_envs, dtype=bool)
        else:
            truncated = elapsed >= self.max_episode_steps
            g.done[truncated] = 1           # restarted by the next step
        obs, info = self._observe()
        if illegal.any():
            info["illegal_action"] = illegal
        return obs, self.options.win_reward(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game as (num_envs, 3072) bools (a view
        of the int8 mask: with ``copy=False`` the environment's own,
        overwritten by the next step): what sb3-contrib's ``MaskablePPO``
        calls.  A finished game's row is all False; a truncated game's
        keeps its plays, though the next step restarts it whatever its
        action."""
        g = self._games
        if g is None:
            raise RuntimeError("call reset() before action_masks()")
        if self.options.max_plays < NUM_ACTIONS:
            return np.ascontiguousarray(g.mask[:, :self.options.max_plays]).view(np.bool_)
        return g.mask.view(np.bool_)

    def _observe(self):
        g = self._games
        assert g is not None
        o = self.options
        if o.observation == "tesauro" and not o.afterstates and o.max_plays == NUM_ACTIONS:
            obs, mask = g.obs, g.mask
            info = {"action_mask": mask, "num_plays": g.counts.copy(), "roll": g.rolls.copy(),
                    "afterstates": g.children, "afterstate_offsets": g.offsets}
            if self.mask_in_observation:
                return {"observation": obs, "action_mask": mask}, info
            return {"observation": obs}, info
        observed, mask = o.observe(g.boards, g.rolls, g.children, g.offsets, g.mask, g.obs)
        counts = np.maximum(g.counts, 0)
        info = {"action_mask": mask, "num_plays": np.minimum(counts, o.max_plays), "roll": g.rolls.copy(),
                "afterstates": g.children, "afterstate_offsets": g.offsets}
        if (counts > o.max_plays).any():
            info["plays_cut"] = np.maximum(counts - o.max_plays, 0)
        return observed, info

    def render(self):
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        g = self._games
        if g is None:
            return None
        return tuple(("game over" if g.done[i] else f"agent (X) to play {g.rolls[i, 0]}{g.rolls[i, 1]}")
                     + "\n" + str(Position(g.boards[i])) for i in range(self.num_envs))
