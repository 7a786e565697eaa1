"""The single-agent Gymnasium environment: the agent against an opponent.

>>> import gymnasium, backgammon.env
>>> e = gymnasium.make("backgammon/Backgammon-v0", opponent="pubeval")
>>> obs, info = e.reset(seed=0)
>>> plays = info["num_plays"]
>>> obs["observation"].shape, plays == len(info["afterstates"])
((210,), True)
>>> plays == int(e.unwrapped.action_masks().sum())
True
"""
from __future__ import annotations

import gymnasium
from typing import cast

import numpy as np
from gymnasium import spaces

from .._validate import number, one_of
from ..errors import IllegalPlayError
from ..players import player as make_player
from ..position import Position
from ._core import (NUM_ACTIONS, Afterstates, OneGame, check_action, opponent_player, portable,
                    start_position)
from ._match import BEAVER, CUBE_ACTIONS, DECISIONS, DOUBLE, PASS, ROLL, TAKE, MatchCore, starting_seed
from ._options import Options

__all__ = ["BackgammonEnv", "observation_space", "action_space"]


def observation_space(mask_in_observation: bool = True, **options) -> spaces.Dict:
    """The observation space of an environment with these options
    (``observation``, ``afterstates``, ``max_plays``, ``cube``,
    ``match_length``): by default ``{"observation": Box(0, 7.5, (210,),
    float32), "action_mask": Box(0, 1, (3072,), int8)}``; without
    ``"action_mask"`` when ``mask_in_observation`` is False.

    >>> sorted(observation_space(mask_in_observation=False).spaces)
    ['observation']
    >>> space = observation_space(observation="board", afterstates=True,
    ...                           max_plays=64)
    >>> space["afterstates"].shape
    (64, 9, 26)
    """
    return Options.of(mask_in_observation=mask_in_observation, **options).observation_space()


def action_space(**options) -> spaces.Discrete:
    """``Discrete(3072)``: the index of a distinct legal play; ``max_plays``
    plays, then the five cube actions with ``cube=True``.

    >>> int(action_space().n), int(action_space(cube=True, max_plays=100).n)
    (3072, 105)
    """
    return Options.of(**options).action_space()


class BackgammonEnv(gymnasium.Env):
    """Backgammon against ``opponent`` (a ``players.player`` spec such as
    ``"random"``, ``"pubeval"``, ``"net"``, ``"net:1"``, or a Player: a
    frozen policy, a league), cubeless money games unless told otherwise.

    Each step the agent plays one whole turn (action ``i`` = the ``i``-th
    distinct legal play of its roll in the move generator's order), the
    opponent answers with its own roll, and the agent rolls again.  The
    reward is 0 until the game ends, then +1/+2/+3 (single, gammon,
    backgammon won) or -1/-2/-3.  The opening throw (RULES 2.2) decides who
    starts; when the opponent does, its first play is made in ``reset``.
    ``reset(options={"position": pos})`` starts at ``pos`` instead, the
    agent on roll (row 1) with an ordinary roll (cubeless money play only).
    docs/environments.md has the options in full.

    Parameters
    ----------
    opponent : str or Player, default "random"
        A :func:`~backgammon.players.player` spec (``"random"``,
        ``"pubeval"``, ``"net"``, ``"net:1"``...) or a Player: a frozen
        policy, a league.
    render_mode : {"ansi", "human"}, optional
        Gymnasium's render mode.
    illegal_reward : float or None, default -3.0
        An action outside the mask ends the game with this reward and
        ``info["illegal_action"] = True`` (with the cube or match play it
        forfeits the game: a pass when answering a double, else a
        backgammon resigned); None raises ``IllegalPlayError`` instead.
    mask_in_observation : bool, default True
        False leaves ``"action_mask"`` out of the observation, so that a
        policy does not take the mask units as features.
    observation : str, default "tesauro"
        ``"tesauro"`` (210 units), ``"net"`` (the shipped network's
        inputs, 266), ``"board"`` (a (15, 26) tensor of planes) or
        ``"raw"`` (checker counts, 63); see
        :mod:`backgammon.env.encodings`.
    afterstates : bool, default False
        The observation also holds ``"afterstates"``, the encodings of
        the positions the plays lead to, padded to ``max_plays`` with the
        mask, so that a policy can score them with a shared network.
    max_plays : int, optional
        The width of the plays' actions (and of the padded afterstates);
        default 3072, more than any roll can have.  A position with more
        plays offers only the first ``max_plays`` (``info["plays_cut"]``
        counts the rest).
    cube : bool, default False
        The doubling cube, with decision steps (double or roll; take,
        pass or beaver; accept, refuse or raccoon a beaver) as actions
        ``max_plays + k`` for ``CUBE_ACTIONS[k]`` = roll, double, take,
        pass, beaver (a raccoon too).
    match_length : int, default 0
        A match to this many points (Crawford rule, the match equity
        table), one episode a match.  With ``cube`` or a match the
        observation adds ``"cube"`` (14 units: the cube, the decision
        asked, the score) and the opponent decides as in
        :func:`backgammon.play_match`.
    reward : {"points", "win", "match"}, default "points"
        The points of each game; +1 or -1 when the episode ends (the
        game, or the match); or twice the change of the agent's match
        winning chances at each game's end (+1 or -1 over a match from
        0-0).
    rules : Rules, optional
        Money options (Jacoby, beavers).

    Notes
    -----
    ``info``: ``"action_mask"`` (as in the observation), ``"num_plays"``
    (the number of legal plays, 0 once the game is over or at a cube
    decision), ``"afterstates"`` (an :class:`~backgammon.env.Afterstates`:
    the (k, 2, 25) positions the agent's plays lead to, opponent on roll,
    which numpy and the batch entry points take as the array; not an
    ndarray, so that Gymnasium's ``SyncVectorEnv`` and ``AsyncVectorEnv``
    stack it as an object array), ``"roll"`` the agent's dice; with the cube
    or match play also ``"decision"`` (what the step asks: ``"cube"``,
    ``"take"``, ``"beaver"``, ``"play"``, or ``""`` when over) and
    ``"score"``.

    ``action_masks()`` gives the mask as bools (the method sb3-contrib's
    ``MaskablePPO`` calls); with ``mask_in_observation=False`` the
    observation has no ``"action_mask"``, so that a policy does not take
    the mask units as features.

    The environment pickles and deep-copies with its game and opponent
    (a network by value; a player that holds a process or a module,
    ``gnubg`` or ``ubgi:COMMAND``, is built again from its spec).

    An action outside the mask ends the game with reward ``illegal_reward``
    (default -3, as bad as the worst loss, so that it never pays) and
    ``info["illegal_action"] = True`` (with the cube or match play it
    forfeits the game instead: a pass when answering a double, else a
    backgammon resigned, scored as such); with ``illegal_reward=None`` it
    raises ``IllegalPlayError`` instead.

    Examples
    --------
    >>> import gymnasium, backgammon.env
    >>> e = gymnasium.make("backgammon/Backgammon-v0", opponent="pubeval")
    >>> obs, info = e.reset(seed=1)
    >>> obs["observation"].shape, int(info["num_plays"]) > 0
    ((210,), True)
    >>> # the first legal play
    >>> obs, reward, terminated, truncated, info = e.step(0)
    >>> e.close()
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, opponent="random", render_mode: str | None = None,
                 illegal_reward: float | None = -3.0, mask_in_observation: bool = True, *,
                 observation: str = "tesauro", afterstates: bool = False, max_plays: int | None = None,
                 cube: bool = False, match_length: int = 0, reward: str = "points", rules=None):
        self.illegal_reward = None if illegal_reward is None else number("illegal_reward", illegal_reward)
        self.options = Options.of(observation, afterstates, max_plays, cube, match_length, reward, rules,
                                  mask_in_observation)
        self.mask_in_observation = self.options.mask_in_observation
        # Read on every step: one attribute each, not a walk through options.
        self._plain = self.options.plain
        self._win = self.options.reward == "win"
        if render_mode is not None:
            one_of("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.opponent = opponent_player(opponent)
        self._spec = opponent if isinstance(opponent, str) else None   # rebuilt with the episode's seed
        self.observation_space = self.options.observation_space()
        self.action_space = self.options.action_space()
        self._games: OneGame | None = None
        self._core: MatchCore | None = None

    def __getstate__(self):
        state = self.__dict__.copy()
        state["opponent"] = portable(self.opponent)
        return state

    # -- episodes ----------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        board = start_position(options)
        if self.options.played:
            if board is not None:
                raise ValueError("options['position']: starting positions are for cubeless money play")
            return self._reset_played(seed)
        self._games = OneGame(self.opponent, self.np_random)
        if board is None:
            self._games.restart()
        else:
            self._games.start_at(board)
        return self._observe()

    def step(self, action):
        if not self._plain and self.options.played:
            return self._step_played(action)
        g = self._games
        if g is None:
            raise RuntimeError("call reset() before step()")
        if g.done:
            raise RuntimeError("the game is over: call reset() to start another")
        try:
            index = check_action(action, g.count if self._plain else min(g.count, self.options.max_plays))
        except IllegalPlayError:
            if self.illegal_reward is None:
                raise
            g.end()
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        reward = g.play(index)
        obs, info = self._observe()
        if self._win:
            reward = self.options.win_reward(reward)
        return obs, float(reward), g.done, False, info

    def _observe(self):
        g = self._games
        assert g is not None
        if self.render_mode == "human":     # Gymnasium's convention: shown on every reset and step
            self.render()
        count = max(g.count, 0)
        children = g.afterstates()
        if self._plain:
            # The kernels' own observation and mask, every play: nothing to cut.
            mask = g.mask()
            obs = {"observation": g.observation(), "action_mask": mask} if self.mask_in_observation else \
                {"observation": g.observation()}
            return obs, {"action_mask": mask, "num_plays": count, "afterstates": Afterstates(children), "roll": g.roll}
        o = self.options
        board = np.frombuffer(g.board, dtype=np.uint8).reshape(1, 2, 25)
        obs, masks = o.observe(board, np.array([g.roll], dtype=np.uint8), children,
                               np.array([0, len(children)]), g.mask()[None], g.observation()[None])
        obs = {k: v[0] for k, v in obs.items()}
        mask = masks[0]
        info = {"action_mask": mask, "num_plays": min(count, o.max_plays),
                "afterstates": Afterstates(children[:o.max_plays]), "roll": g.roll}
        if count > o.max_plays:
            info["plays_cut"] = count - o.max_plays
        return obs, info

    # -- the cube and match play --------------------------------------------------------------
    def _reset_played(self, seed):
        o = self.options
        core = self._core
        if core is None or seed is not None or o.match_length or not core.over:
            seq = starting_seed(self.np_random) if seed is None else seed
            if self._spec is not None:
                # As play_match does it: the second of three sequences seeds the opponent.
                from ..dice import seed_sequence
                _, s1, _ = seed_sequence(seq).spawn(3)
                self.opponent = make_player(self._spec, seed=s1)
            core = self._core = MatchCore(o.match_length, o.cube, o.rules)
            core.start(seq)
        else:
            core.next_game()      # money play after a finished game: the session goes on, one game an episode
        if hasattr(self.opponent, "new_games"):     # a league draws the episode's opponent
            self.opponent.new_games(np.zeros(1, dtype=np.int64))
        self._played_opponent()
        return self._observe_played()

    def _step_played(self, action):
        core = self._core
        if core is None:
            raise RuntimeError("call reset() before step()")
        if core.over:
            raise RuntimeError("the episode is over: call reset() to start another")
        o = self.options
        illegal = False
        try:
            if isinstance(action, np.ndarray) and action.shape == ():
                action = action.item()
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                raise TypeError(f"action must be an int, not {type(action).__name__}")
            core.act(int(action), o.max_plays)
        except IllegalPlayError:
            if self.illegal_reward is None:
                raise
            core.forfeit()
            illegal = True
        reward = core.reward(o.reward, 0)
        if not core.over:
            reward += self._played_opponent()
        obs, info = self._observe_played()
        if illegal:
            info["illegal_action"] = True
        return obs, float(reward), core.over, False, info

    def _played_opponent(self) -> float:
        """The opponent's decisions until the agent's next or the end, as
        ``play_match`` makes them; the agent's reward for games they end."""
        core = cast(MatchCore, self._core)
        o = self.options
        reward = 0.0
        opp = self.opponent
        while not core.over and core.who == 1:
            g = core.g
            if core.decision == "play":
                core.play(g.legal_plays().find(opp.choose_in(g).position))     # a match: by match equity
            elif core.decision == "cube":
                double = opp.cube_action(g.position, g.match_state(), g.rules).should_double
                core.cube_action(DOUBLE if double else ROLL)
            elif core.decision == "take":
                take = opp.cube_action(g.position, core.doubler_state, g.rules).take
                core.cube_action(PASS if take == "pass" else BEAVER if take == "beaver" and core.legal_cube()[BEAVER]
                                 else TAKE)
            else:
                core.cube_action(TAKE)      # a beaver is accepted
            reward += core.reward(o.reward, 0)
        return reward

    def _observe_played(self):
        core = cast(MatchCore, self._core)
        o = self.options
        if self.render_mode == "human":
            self.render()
        k = o.max_plays
        deciding = not core.over and core.who == 0
        playing = deciding and core.decision == "play"
        children = core.plays().positions if playing else np.zeros((0, 2, 25), dtype=np.uint8)
        count = len(children)
        mask = np.zeros((1, max(k, 1)), dtype=np.int8)
        mask[0, :min(count, k)] = 1
        cube_mask = core.legal_cube()[None] if deciding else np.zeros((1, 5), dtype=bool)
        roll = core.roll(0)
        obs, masks = o.observe(core.board(0)[None], np.array([roll], dtype=np.uint8), children,
                               np.array([0, count]), mask, None, on_turn=core.who == 0 and not core.over,
                               cube=(cube_mask, core.cube_units(0)[None]))
        obs = {key: v[0] for key, v in obs.items()}
        g = core.g
        info = {"action_mask": masks[0], "num_plays": min(count, k), "afterstates": Afterstates(children[:k]),
                "roll": roll, "decision": core.decision if deciding else "",
                "score": g.final_score if g.is_over() else tuple(g.score), "cube_value": g.cube_value}
        if count > k:
            info["plays_cut"] = count - k
        return obs, info

    # -- the rest ------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent's roll as bools (a view of the int8
        mask, which is new every step): the method sb3-contrib's
        ``MaskablePPO`` and ``ActionMasker`` look for.  All False once the
        game is over.

        >>> e = BackgammonEnv()
        >>> obs, info = e.reset(seed=0)
        >>> m = e.action_masks()
        >>> n = info["num_plays"]
        >>> m.dtype, int(m.sum()) == n, bool(m[:n].all())
        (dtype('bool'), True, True)
        """
        if self.options.played:
            if self._core is None:
                raise RuntimeError("call reset() before action_masks()")
            return self._observe_played()[1]["action_mask"].view(np.bool_)
        g = self._games
        if g is None:
            raise RuntimeError("call reset() before action_masks()")
        mask = g.mask()
        if self.options.max_plays != NUM_ACTIONS:
            mask = mask[:self.options.max_plays]
        return mask.view(np.bool_)

    @property
    def position(self) -> Position:
        """The position from the agent's view (the agent in row 1)."""
        if self.options.played:
            return Position.from_array(cast(MatchCore, self._core).board(0))
        return Position.from_bytes(cast(OneGame, self._games).board, validate=False)

    @property
    def match(self):
        """With the cube or match play: the ``backgammon.Match`` being played
        (the agent is player 0); every game's ``history`` replays through
        ``Game.apply``."""
        return None if self._core is None else self._core.match

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.options.played:
            core = self._core
            if core is None:
                text = "call reset() first"
            else:
                g = core.g
                head = ("over" if core.over else f"{'agent' if core.who == 0 else 'opponent'} to decide: "
                        f"{core.decision}") + f"; cube {g.cube_value}, score {g.score[0]}-{g.score[1]}"
                text = head + "\n" + str(self.position)
        else:
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


#: The cube actions' names and the decisions, for those who import them from here.
__all__ += ["CUBE_ACTIONS", "DECISIONS"]
