"""The PettingZoo AEC environment: two agents, one whole turn per step.

>>> from backgammon.env import env
>>> e = env()
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> mask = obs["action_mask"]
>>> obs["observation"].shape, int(mask.sum()) == len(info["afterstates"])
((210,), True)
"""
from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .._validate import one_of
from .._env import EnvAction
from ..dice import generator
from ..position import Position
from ..errors import IllegalPlayError
from ._core import NUM_ACTIONS, Turns, action_index, check_action, encode_one, start_position
from ._match import MatchCore, starting_seed
from ._options import Options

__all__ = ["BackgammonAEC", "ActionsChecked"]

_RESTART = int(EnvAction.ENV_RESTART)
_ROLL = int(EnvAction.ENV_ROLL)
_AGENTS = ("player_0", "player_1")
_NO_BOARDS = np.zeros((0, 2, 25), dtype=np.uint8)


class BackgammonAEC(AECEnv):
    """Backgammon for two agents (``player_0``, ``player_1``), cubeless
    money games unless told otherwise.

    Each step is a whole turn: action ``i`` plays the ``i``-th distinct
    legal play of the roll in the move generator's order (a turn with no
    legal move has one play, the pass, action 0).  Observations are dicts
    ``{"observation": (210,) float32, "action_mask": (3072,) int8}``; the
    mask is all zeros for the agent not on turn.  The winner gets +1, +2 or
    +3 points (single, gammon, backgammon) and the loser the opposite.
    ``infos[agent]`` of the agent on turn holds ``"afterstates"``, the
    (k, 2, 25) positions its plays lead to (opponent on roll, as
    ``Position.legal_plays(roll).positions``), and ``"roll"``.

    The options are the single-agent environment's (``observation``,
    ``afterstates``, ``max_plays``, ``cube``, ``match_length``, ``reward``,
    ``rules``; docs/environments.md): with the cube or match play, both
    agents decide every cube action (``agent_selection`` is the agent to
    decide: the doubled side answers a double), player_0 is player 0 of
    the ``Game``, and an episode is a money game or a whole match.

    ``reset(options={"position": pos, "agent": "player_1"})`` starts at
    ``pos`` with that agent (default ``player_0``) on roll (row 1) and an
    ordinary roll, instead of the opening throw (cubeless money play).

    An action that is not a legal play raises ``IllegalPlayError`` (a
    ``ValueError``); ``env(illegal_reward=-1)`` ends the game instead, as
    PettingZoo's ``TerminateIllegalWrapper`` does.

    Parameters
    ----------
    render_mode : str, optional
        PettingZoo's render mode.
    observation, afterstates, max_plays, cube, match_length, reward, rules
        As in :class:`~backgammon.env.single.BackgammonEnv`.

    Examples
    --------
    >>> from backgammon.env import raw_env, sample_legal
    >>> e = raw_env()
    >>> e.reset(seed=0)
    >>> agent = e.agent_selection
    >>> e.step(sample_legal(e.observe(agent)["action_mask"], rng=0))
    >>> e.agent_selection != agent
    True
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "backgammon_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, render_mode: str | None = None, *, observation: str = "tesauro", afterstates: bool = False,
                 max_plays: int | None = None, cube: bool = False, match_length: int = 0, reward: str = "points",
                 rules=None):
        super().__init__()
        if render_mode is not None:
            one_of("render_mode", render_mode, self.metadata["render_modes"])
        self.options = Options.of(observation, afterstates, max_plays, cube, match_length, reward, rules)
        # The default options (cubeless money, Tesauro's observation, every
        # play), read on every turn: one attribute, not a walk through options.
        self._plain = self.options.plain
        self.render_mode = render_mode
        self.possible_agents = list(_AGENTS)
        self.agents = list(_AGENTS)
        obs_space = self.options.observation_space()
        self.observation_spaces = {a: obs_space for a in _AGENTS}
        self.action_spaces = {a: self.options.action_space() for a in _AGENTS}
        self._rng: np.random.Generator | None = None
        self._games: Turns | None = None  # one game, from the view of the agent on turn (row 1)
        self._core: MatchCore | None = None
        self._turn = 0                    # index of the agent on turn
        self._over = True

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def check_in_space(self, action):
        """``action`` as an int if the action space holds it, else our
        errors (TypeError, IllegalPlayError), for ``env()``'s wrappers to
        meet before PettingZoo's bare AssertionError; None for the step of
        an agent that is done.  Whether it is legal now is for ``step``."""
        agent = self.agent_selection
        if action is None and (self.terminations.get(agent) or self.truncations.get(agent)):
            return None
        index = action_index(action)
        n = self.action_space(agent).n
        if not 0 <= index < n:
            raise IllegalPlayError(f"action {index} is outside the action space: actions are 0 to {n - 1}, "
                                   f"the legal ones in the action mask")
        return index

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
        if self.options.played:
            if board is not None:
                raise ValueError("options['position']: starting positions are for cubeless money play")
            self._core = MatchCore(self.options.match_length, self.options.cube, self.options.rules)
            self._core.start(seed if seed is not None else starting_seed(self._rng))
            assert self._core.who is not None
            self._turn = self._core.who
            self._over = False
        else:
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
        self.agent_selection = _AGENTS[self._turn]
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        if self._over:
            return
        if self._plain:
            # A copy: the game's own plays are overwritten by the next step.
            self.infos[self.agent_selection] = {"afterstates": self._game.plays.copy(), "roll": self.roll}
        elif self.options.played:
            core = self._core
            assert core is not None
            playing = core.decision == "play"
            plays = core.plays().positions if playing else _NO_BOARDS
            self.infos[self.agent_selection] = {"afterstates": plays[:self.options.max_plays], "roll": self.roll,
                                                "decision": core.decision}
        else:
            # A copy: the game's own plays are overwritten by the next step.
            plays = self._game.plays
            if not self.options.plain:
                plays = plays[:self.options.max_plays]
            self.infos[self.agent_selection] = {"afterstates": plays.copy(), "roll": self.roll}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        if not self._plain and self.options.played:
            self._step_played(action)
        else:
            g = self._game
            index = check_action(action, g.count if self._plain else min(g.count, self.options.max_plays))
            points, over, _ = g.turn(index)
            if over:
                other = _AGENTS[1 - self._turn]
                points = self.options.win_reward(int(points)) if self.options.reward == "win" else int(points)
                self.rewards[agent] = points       # RULES 6: the mover bore off its last checker
                self.rewards[other] = -points
                self.terminations = dict.fromkeys(self.agents, True)
                self._over = True
            self._turn ^= 1
        self._show_turn()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _step_played(self, action) -> None:
        core = self._core
        assert core is not None
        if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int (a play index or a cube action), not {type(action).__name__}")
        core.act(int(action), self.options.max_plays)
        r0 = core.reward(self.options.reward, 0)
        self.rewards = {"player_0": r0, "player_1": -r0}
        if core.over:
            self.terminations = dict.fromkeys(self.agents, True)
            self._over = True
        else:
            assert core.who is not None
            self._turn = core.who

    def _board(self) -> bytes:
        """The 50 bytes with the agent on turn in row 1 (after the game: the
        loser, whose turn it would be)."""
        if self.options.played:
            assert self._core is not None
            return self._core.board(self._turn).tobytes()
        b = self._game.boards[0].tobytes()
        return b[25:] + b[:25] if self._over else b

    def observe(self, agent):
        i = _AGENTS.index(agent)
        if not self._plain and self.options.played:
            return self._observe_played(i)
        g = self._game
        if self._plain:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
            if self._over:
                board = self._board()
                view = board if i == self._turn else board[25:] + board[:25]
                return {"observation": encode_one(view, (0, 0), i == self._turn), "action_mask": mask}
            if i == self._turn:
                mask[:g.count] = 1
                return {"observation": g.obs[0].copy(), "action_mask": mask}
            return {"observation": g.obs[1].copy(), "action_mask": mask}
        o = self.options
        board = self._board()
        on_turn = i == self._turn and not self._over
        view = board if i == self._turn else board[25:] + board[:25]
        children = g.plays if on_turn else _NO_BOARDS
        mask = np.zeros((1, o.max_plays), dtype=np.int8)
        mask[0, :min(len(children), o.max_plays)] = 1
        roll = self.roll if on_turn else (0, 0)
        obs, _ = o.observe(np.frombuffer(view, dtype=np.uint8).reshape(1, 2, 25), np.array([roll], dtype=np.uint8),
                           children, np.array([0, len(children)]), mask, None, on_turn=on_turn)
        return {k: v[0] for k, v in obs.items()}

    def _observe_played(self, i: int) -> dict:
        core = self._core
        assert core is not None
        o = self.options
        deciding = not core.over and core.who == i
        children = core.plays().positions if deciding and core.decision == "play" else _NO_BOARDS
        mask = np.zeros((1, o.max_plays), dtype=np.int8)
        mask[0, :min(len(children), o.max_plays)] = 1
        cube_mask = core.legal_cube()[None] if deciding else np.zeros((1, 5), dtype=bool)
        obs, _ = o.observe(core.board(i)[None], np.array([core.roll(i)], dtype=np.uint8), children,
                           np.array([0, len(children)]), mask, None, on_turn=not core.over and core.g.on_roll == i,
                           cube=(cube_mask, core.cube_units(i)[None]))
        return {k: v[0] for k, v in obs.items()}

    # -- the rest of the API ------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The position with the agent on turn (``agent_selection``) in row 1."""
        return Position.from_bytes(self._board(), validate=False)

    @property
    def roll(self) -> tuple[int, int]:
        """The dice of the agent on turn, (0, 0) when the game is over."""
        if self.options.played:
            assert self._core is not None
            return self._core.roll(self._turn)
        r = self._game.rolls[0]
        return int(r[0]), int(r[1])

    @property
    def match(self):
        """With the cube or match play: the ``backgammon.Match`` being played."""
        return None if self._core is None else self._core.match

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        agent = _AGENTS[self._turn]
        if self.options.played:
            core = self._core
            assert core is not None
            g = core.g
            head = ("over" if core.over else f"{agent} (X) to decide: {core.decision}") + \
                f"; cube {g.cube_value}, score {g.score[0]}-{g.score[1]}"
        elif self._over:
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



class ActionsChecked(OrderEnforcingWrapper):
    """``env()``'s outer wrapper: PettingZoo's order enforcing, which also
    checks each action by the environment's own rule
    (:meth:`BackgammonAEC.check_in_space`) before any other wrapper sees
    it: a bad action is our TypeError or IllegalPlayError, not PettingZoo's
    bare IndexError (the illegal-move wrapper's mask).  It stands in for
    PettingZoo's ``AssertOutOfBoundsWrapper`` (the same check, raising
    AssertionError) and is one class, not a wrapper of its own: each
    wrapper layer adds a lookup to every attribute an agent reads.

    >>> from backgammon.env import env
    >>> e = env()
    >>> e.reset(seed=0)
    >>> e.step(-1)
    Traceback (most recent call last):
    ...
    backgammon.errors.IllegalPlayError: action -1 is outside the action space: actions are 0 to 3071, the legal ones in the action mask
    """

    def step(self, action):
        # Before reset, or with the game over, PettingZoo's own error or
        # warning comes first, as from its order-enforcing wrapper.
        if self._has_reset and self.agents:
            action = self.unwrapped.check_in_space(action)
        super().step(action)

    def __str__(self) -> str:
        return str(self.env)
