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

from .. import _board
from .._validate import one_of
from ..dice import generator
from ..play import Plays
from ..position import Position
from ._core import INITIAL, NUM_ACTIONS, OBS_HIGH, OBS_SIZE, OPENING, check_action, encode_one, start_position

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
        self._dice: list[tuple[int, int]] = []
        self._board = INITIAL.tobytes()   # the side on roll in row 1
        self._turn = 0                    # index of the agent on roll
        self._roll = (0, 0)
        self._plays: Plays | None = None
        self._over = True

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the game ------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None or self._rng is None:
            self._rng = generator(seed)
            self._dice = []
        self.agents = list(_AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        board = start_position(options)
        self._over = False
        if board is None:
            # RULES 2.2: each throws one die, the higher moves first with both.
            a, b = OPENING[int(self._rng.integers(0, len(OPENING)))]
            self._turn = 0 if a > b else 1
            self._board = INITIAL.tobytes()
            self._set_roll((int(a), int(b)))
        else:
            self._turn = _AGENTS.index(one_of("options['agent']", options.get("agent", "player_0"), _AGENTS))
            self._board = board.tobytes()
            self._set_roll(self._next_roll())
        if self.render_mode == "human":
            self.render()

    def _next_roll(self) -> tuple[int, int]:
        # Dice are drawn 256 rolls at a time: numpy's per-call cost is most
        # of a small draw's.  The sequence depends only on the seed.
        if not self._dice:
            assert self._rng is not None     # seeded by reset()
            self._dice = [tuple(d) for d in self._rng.integers(1, 7, size=(256, 2)).tolist()][::-1]
        return self._dice.pop()

    def _set_roll(self, roll) -> None:
        self._roll = roll
        self._plays = Position.from_bytes(self._board, validate=False).legal_plays(roll)
        self.agent_selection = _AGENTS[self._turn]
        self.infos = {_AGENTS[self._turn]: {"afterstates": self._plays.positions, "roll": roll},
                      _AGENTS[1 - self._turn]: {}}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        index = check_action(action, len(self._plays))
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        board = self._plays._children[50 * index: 50 * index + 50]   # the opponent on roll
        self._board = board
        other = 1 - self._turn
        if not any(board[:25]):   # the mover (row 0 now) bore off its last checker
            _, kind = _board.results(np.frombuffer(board, dtype=np.uint8).reshape(1, 2, 25))
            points = int(kind[0])
            self.rewards[agent] = points
            self.rewards[_AGENTS[other]] = -points
            self.terminations = dict.fromkeys(self.agents, True)
            self._over = True
            self._roll = (0, 0)
            self._plays = None
            self._turn = other
            self.agent_selection = _AGENTS[other]
            self.infos = {a: {} for a in self.agents}
        else:
            self._turn = other
            self._set_roll(self._next_roll())
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        i = _AGENTS.index(agent)
        on_roll = i == self._turn and not self._over
        view = self._board if i == self._turn else self._board[25:] + self._board[:25]
        obs = encode_one(view, self._roll if on_roll else (0, 0))
        if i != self._turn:
            obs[196], obs[197] = 0.0, 1.0   # the opponent is on roll
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if on_roll:
            mask[:len(self._plays)] = 1
        return {"observation": obs, "action_mask": mask}

    # -- the rest of the API ------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The position with the agent on turn (``agent_selection``) in row 1."""
        return Position.from_bytes(self._board, validate=False)

    @property
    def roll(self) -> tuple[int, int]:
        """The dice of the agent on turn, (0, 0) when the game is over."""
        return self._roll

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        agent = _AGENTS[self._turn]
        if self._over:
            head = f"game over: {_AGENTS[1 - self._turn]} won {self.rewards[_AGENTS[1 - self._turn]]} point(s); X is {agent}"
        else:
            head = f"{agent} (X) to play {self._roll[0]}{self._roll[1]}"
        text = head + "\n" + str(Position.from_bytes(self._board, validate=False))
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self):
        pass
