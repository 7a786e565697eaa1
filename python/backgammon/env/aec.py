"""The PettingZoo AEC environment: two agents, one whole turn per step.

>>> from backgammon.env import env
>>> e = env()
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) == len(info["afterstates"])
((210,), True)
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .._validate import one_of
from .._env import EnvAction

_RESTART = int(EnvAction.ENV_RESTART)
_ROLL = int(EnvAction.ENV_ROLL)
from ..dice import generator
from ..position import Position
from ._core import NUM_ACTIONS, OBS_HIGH, OBS_SIZE, Turns, check_action, encode_one, start_position

__all__ = ["BackgammonAEC"]

_AGENTS = ("player_0", "player_1")


class BackgammonAEC(AECEnv):
    """Backgammon for two agents (``player_0``, ``player_1``), cubeless.

    Each step is a whole turn: action ``i`` plays the ``i``-th distinct
    legal play of the roll in the move generator's order (a turn with no
    legal move has one play, the pass, action 0).  Observations are dicts
    ``{"observation": (210,) float32, "action_mask": (3072,) int8}``; the
    mask is all zeros for the agent not on turn.  The winner gets +1, +2 or
    +3 points (single, gammon, backgammon) and the loser the opposite.
    ``infos[agent]`` of the agent on turn holds ``"afterstates"``, the
    (k, 2, 25) positions its plays lead to (opponent on roll, as
    ``Position.legal_plays(roll).positions``), and ``"roll"``.

    ``reset(options={"position": pos, "agent": "player_1"})`` starts at
    ``pos`` with that agent (default ``player_0``) on roll (row 1) and an
    ordinary roll, instead of the opening throw.

    An action that is not a legal play raises ``IllegalPlayError`` (a
    ``ValueError``); ``env(illegal_reward=-1)`` ends the game instead, as
    PettingZoo's ``TerminateIllegalWrapper`` does.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "backgammon_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None:
            one_of("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.possible_agents = list(_AGENTS)
        self.agents = list(_AGENTS)
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in _AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in _AGENTS}
        self._rng: np.random.Generator | None = None
        self._games: Turns | None = None  # one game, from the view of the agent on turn (row 1)
        self._turn = 0                    # index of the agent on turn
        self._over = True

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the game: the environments' step kernels, two agents taking turns ------------
    def reset(self, seed=None, options=None):
        if seed is not None or self._rng is None:
            self._rng = generator(seed)
        self.agents = list(_AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        board = start_position(options)
        self._games = Turns(self._rng)
        if board is None:
            # RULES 2.2: the opening throw, from player_0's side; the higher die moves first.
            self._turn = 0
            action = _RESTART
        else:
            self._turn = _AGENTS.index(one_of("options['agent']", options.get("agent", "player_0"), _AGENTS))
            self._games.boards[0] = board
            action = _ROLL
        _, _, passed = self._games.turn(action)
        self._turn ^= int(passed)
        self._over = False
        self._show_turn()
        if self.render_mode == "human":
            self.render()

    @property
    def _game(self) -> Turns:
        if self._games is None:
            raise RuntimeError("call reset() first")
        return self._games

    def _show_turn(self) -> None:
        g = self._game
        self.agent_selection = _AGENTS[self._turn]
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        if not self._over:
            # A copy: the game's own plays are overwritten by the next step.
            self.infos[self.agent_selection] = {"afterstates": g.plays.copy(), "roll": self.roll}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        g = self._game
        index = check_action(action, g.count)
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        points, over, _ = g.turn(index)
        if over:
            other = _AGENTS[1 - self._turn]
            self.rewards[agent] = int(points)      # RULES 6: the mover bore off its last checker
            self.rewards[other] = -int(points)
            self.terminations = dict.fromkeys(self.agents, True)
            self._over = True
        self._turn ^= 1
        self._show_turn()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _board(self) -> bytes:
        """The 50 bytes with the agent on turn in row 1 (after the game: the
        loser, whose turn it would be)."""
        b = self._game.boards[0].tobytes()
        return b[25:] + b[:25] if self._over else b

    def observe(self, agent):
        i = _AGENTS.index(agent)
        g = self._game
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self._over:
            board = self._board()
            view = board if i == self._turn else board[25:] + board[:25]
            return {"observation": encode_one(view, (0, 0), i == self._turn), "action_mask": mask}
        if i == self._turn:
            mask[:g.count] = 1
            return {"observation": g.obs[0].copy(), "action_mask": mask}
        return {"observation": g.obs[1].copy(), "action_mask": mask}

    # -- the rest of the API ------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The position with the agent on turn (``agent_selection``) in row 1."""
        return Position.from_bytes(self._board(), validate=False)

    @property
    def roll(self) -> tuple[int, int]:
        """The dice of the agent on turn, (0, 0) when the game is over."""
        r = self._game.rolls[0]
        return int(r[0]), int(r[1])

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        agent = _AGENTS[self._turn]
        if self._over:
            head = f"game over: {_AGENTS[1 - self._turn]} won {self.rewards[_AGENTS[1 - self._turn]]} point(s); X is {agent}"
        else:
            head = f"{agent} (X) to play {self.roll[0]}{self.roll[1]}"
        text = head + "\n" + str(self.position)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self):
        pass
