"""What the environments share: the encoding, the action mask, the opening
roll, and ``Games``, n games of one agent against an opponent in lockstep.

Nothing here imports gymnasium or pettingzoo: the environments are thin
layers over these numpy arrays and the batch kernels.
"""
from __future__ import annotations

import pickle
import weakref

import numpy as np

from .. import _board, _chain, _env, _net
from .._choice import Policy
from .._env import EnvAction, EnvStage
from .._parallel import run_shared
from .. import _pool
from ..batch import MAX_PLAYS, legal_positions
from ..dice import generator
from ..errors import IllegalPlayError
from ..players import Player, player
from .._validate import integers
from ..position import Position, board_counts

NUM_ACTIONS = MAX_PLAYS
"""The number of actions, 3072 (the kernel's ``MAX_PLAYS``): action ``i`` is
the ``i``-th distinct legal play of the roll, in the move generator's order
(``Position.legal_plays``, ``batch.legal_positions``).

>>> NUM_ACTIONS
3072
"""
OBS_SIZE = 198 + 12
"""The observation's length, 210: the 198 Tesauro inputs, then the dice
one-hot (high die 6, low die 6).

>>> OBS_SIZE
210
"""
#: Largest value of any input: the bar unit, 15 / 2.
OBS_HIGH = 7.5

INITIAL = Position.initial().array.copy()
_NO_BOARDS = np.zeros((0, 2, 25), dtype=np.uint8)


def encode(boards: np.ndarray, rolls: np.ndarray | None, out: np.ndarray | None = None) -> np.ndarray:
    """Observations (n, 210) float32 of boards (n, 2, 25) seen by the side
    in row 1: the 198 TD-Gammon inputs, then one-hot the high die (6) and
    the low die (6); rows of ``rolls`` that are (0, 0) (no dice: not on
    turn, or the game is over) leave the dice units zero.

    >>> import backgammon as bg
    >>> obs = encode(bg.Position.initial().array[None], [(3, 1)])
    >>> # high die 3 at 198 + 2, low die 1 at 204
    >>> obs.shape, (obs[0, 198:].nonzero()[0] + 198).tolist()
    ((1, 210), [200, 204])
    """
    # Counts checked as every batch entry point checks them (a cast to uint8 would wrap 256 to 0).
    b = board_counts(boards, "boards")
    r = np.zeros((len(b), 2), dtype=np.uint8) if rolls is None else \
        integers("rolls", rolls, shape=(len(b), 2), low=0, high=6).astype(np.uint8)
    if out is None:
        out = np.empty((len(b), OBS_SIZE), dtype=np.float32)
    _env.observations(b, r, out)
    return out


def encode_one(board: bytes, roll, on_turn: bool = True) -> np.ndarray:
    """``encode`` of one 50-byte board (the observer in row 1) and its
    dice (``(0, 0)`` for none): (210,) float32; ``on_turn`` False marks
    the other side on turn (the observer waits)."""
    obs = np.empty((1, OBS_SIZE), dtype=np.float32)
    _env.observations(np.frombuffer(board, dtype=np.uint8).reshape(1, 2, 25),
                      np.array([roll], dtype=np.uint8), obs, on_turn)
    return obs.reshape(OBS_SIZE)


class Afterstates:
    """The positions a game's legal plays lead to, in action order: a
    ``(k, 2, 25)`` uint8 array from the next mover's view (the opponent on
    roll), exactly ``Position.legal_plays(roll).positions``, in every way
    but its type.

    ``np.asarray(a)`` (or ``a.array``) is the array itself, no copy; every
    numpy function, ``len``, indexing, iteration, ``shape`` and ``dtype``
    work as on the array, and so do ``pubeval``, ``evaluate`` and the
    other batch entry points.  It is not an ``ndarray`` so that
    Gymnasium's ``SyncVectorEnv`` and ``AsyncVectorEnv``, which stack each
    info entry of their games into one array, keep one per game in an
    object array (``info["afterstates"][i]``) instead of failing on games
    with different numbers of plays.

    >>> import numpy as np, backgammon as bg
    >>> plays = bg.Position.initial().legal_plays("31")
    >>> a = Afterstates(plays.positions)
    >>> len(a), a.shape, np.array_equal(np.asarray(a), plays.positions)
    (16, (16, 2, 25), True)
    >>> np.asarray(a) is a.array
    True
    """

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray):
        #: The (k, 2, 25) uint8 boards.
        self.array = array

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        if copy:
            return np.array(self.array, dtype=dtype, copy=True)
        return self.array if dtype is None else self.array.astype(dtype, copy=False)

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, index):
        return self.array[index]

    def __iter__(self):
        return iter(self.array)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.array.shape

    @property
    def dtype(self) -> np.dtype:
        return self.array.dtype

    @property
    def ndim(self) -> int:
        return self.array.ndim

    def __eq__(self, other):
        if isinstance(other, Afterstates):
            return np.array_equal(self.array, other.array)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        return (Afterstates, (self.array,))

    def __repr__(self) -> str:
        return f"Afterstates({len(self.array)} positions)"


def sample_legal(mask_or_num_plays, rng=None) -> np.ndarray | int:
    """A uniformly random legal action for each game, vectorised (no
    Python loop over games).

    ``mask_or_num_plays`` is either numbers of legal plays (any integer
    array or an int: ``info["num_plays"]``; the legal actions of a game
    with ``k`` plays are ``0 .. k - 1``), or action masks (a bool or int8
    array, the last axis the actions, any entries set:
    ``info["action_mask"]``, ``env.action_masks()``).  A game with no
    legal action (finished: the next step restarts it, whatever its
    action) gets 0.  ``rng``: a ``numpy.random.Generator``, a seed, or
    None.  Returns int64 actions of the input's shape without its last
    axis for masks (an int for one game).

    From numbers of plays it costs one uniform per game; from masks one
    pass over them (``np.nonzero``), against one uniform per action for
    a masked argmax (benchmarks/test_env_sample.py).

    >>> import numpy as np
    >>> sample_legal(np.array([3, 1, 0]), rng=0).tolist()
    [1, 0, 0]
    >>> mask = np.array([[0, 1, 0, 1], [0, 0, 0, 0]], dtype=np.int8)
    >>> sample_legal(mask, rng=0).tolist()
    [3, 0]
    """
    g = generator(rng)
    x = np.asarray(mask_or_num_plays)
    if x.dtype == np.bool_ or x.dtype == np.int8:
        if x.ndim == 0:
            raise ValueError("mask_or_num_plays: a mask needs an axis of actions")
        width = x.shape[-1]
        flat = x.reshape(-1, width)
        if flat.dtype != np.bool_:
            flat = flat != 0
        legal = np.flatnonzero(flat)        # every legal (game, action), game by game
        rows = legal // width if width else legal
        counts = np.bincount(rows, minlength=len(flat))
        starts = np.cumsum(counts) - counts
        pick = starts + (g.random(len(flat)) * counts).astype(np.int64)
        has = counts > 0
        out: np.ndarray = np.zeros(len(flat), dtype=np.int64)
        out[has] = legal[pick[has]] - rows[pick[has]] * width
        out = out.reshape(x.shape[:-1])
    elif np.issubdtype(x.dtype, np.integer):
        if (x < 0).any():
            raise ValueError("mask_or_num_plays: a number of plays cannot be negative")
        out = (g.random(x.shape) * x).astype(np.int64)
    else:
        raise TypeError("mask_or_num_plays must be numbers of plays (integers) or action masks (bool or int8), "
                        f"not {x.dtype}")
    return int(out) if out.ndim == 0 else out


def final_points(boards) -> np.ndarray:
    """The points the side on roll (row 1) of each board (n, 2, 25) has won
    (positive) or lost (negative) when the game is over, 0 while it goes on
    (RULES 6: 1, 2 or 3): for afterstates (the next mover on roll), the
    plays that end the game score minus the points the mover wins.

    >>> import backgammon as bg
    >>> a = np.zeros((2, 25), dtype=np.uint8)
    >>> # our last checker on the ace; all of theirs on their 13-point
    >>> a[1, 0], a[0, 12] = 1, 15
    >>> # a gammon won
    >>> final_points(bg.Position.from_array(a).legal_plays("61").positions).tolist()
    [-2]
    >>> int(final_points(bg.Position.initial().array[None])[0])
    0
    """
    winner, kind = _board.results(board_counts(boards, "boards"))
    return np.where(winner < 0, 0, np.where(winner == 1, kind, -kind)).astype(np.int64)


def action_index(action, name: str = "action") -> int:
    """``action`` as an int (a numpy integer or 0-d integer array too);
    anything else a TypeError."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"{name} must be an int (the index of a legal play), not {type(action).__name__}")
    return int(action)


def check_action(action, count: int, name: str = "action") -> int:
    """``action`` as an int if it names one of ``count`` legal plays."""
    action = action_index(action, name)
    if not 0 <= action < count:
        raise IllegalPlayError(
            f"{name} {action} is not a legal play: this roll has {count} distinct legal "
            f"play{'s' if count != 1 else ''}, actions 0 to {count - 1} (see the action mask)")
    return action


def start_position(options) -> np.ndarray | None:
    """The board of ``options["position"]`` (a Position with the agent to
    move on roll), or None when options do not give one."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict, not {type(options).__name__}")
    pos = options.get("position")
    if pos is None:
        return None
    if not isinstance(pos, Position):
        raise TypeError(f"options['position'] must be a backgammon.Position, not {type(pos).__name__}")
    if pos.is_game_over():
        raise ValueError("options['position']: the game is over in this position, there is nothing to play")
    return pos.array


def opponent_player(opponent, seed=None) -> Player:
    """A Player from a spec string, a Player or a native evaluator (see
    ``players.player``)."""
    return player(opponent, seed=seed, name="opponent")


class _BySpec:
    """Stands in for a player that does not pickle (one that holds a
    process or a module: ``gnubg``, ``ubgi:COMMAND``) when an environment
    is pickled or copied: unpickling builds a new one from its spec, once
    however many references the environment holds."""

    __slots__ = ("spec",)

    def __init__(self, spec: str):
        self.spec = spec

    def __reduce__(self):
        return (player, (self.spec,))


_PORTABLE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def portable(opponent):
    """What an environment pickles for ``opponent``: the player itself when
    it pickles (by value: a network's weights travel with it), else a
    stand-in that rebuilds it from its ``spec`` (the same stand-in for the
    same player, so the copy shares one rebuilt player)."""
    if opponent is None:
        return None
    try:
        stand_in = _PORTABLE[opponent]
    except (KeyError, TypeError):
        try:
            pickle.dumps(opponent)
            stand_in = None
        except Exception:       # noqa: BLE001 -- any failure to pickle: rebuild from the spec
            spec = getattr(opponent, "spec", None)
            if not isinstance(spec, str):
                raise TypeError(f"the opponent {opponent!r} does not pickle and has no spec "
                                "to rebuild it from") from None
            stand_in = _BySpec(spec)
        try:
            _PORTABLE[opponent] = stand_in
        except TypeError:       # not weakly referable: not cached
            pass
    return opponent if stand_in is None else stand_in


def kernel_policy(opponent: Player | None):
    """(policy code, networks) with which the kernel plays for ``opponent``
    itself (``Player.kernel_policy``), or POLICY_GIVEN when the player
    chooses in Python."""
    given = None if opponent is None else opponent.kernel_policy()
    if given is not None and not isinstance(given[1], _net.Networks) and given[1] is not None:
        # A native evaluator's player: its batched kernel choice (choose_indices), not the env's own loop.
        given = None
    return given if given is not None else (Policy.POLICY_GIVEN, None)


# The kernel's codes as plain ints (an IntEnum's attribute costs a lookup each time).
_GIVEN = int(Policy.POLICY_GIVEN)
_OPPONENT = int(EnvStage.STAGE_OPPONENT)
_AGENT = int(EnvStage.STAGE_AGENT)
ENV_RESTART = int(EnvAction.ENV_RESTART)
ENV_KEEP = int(EnvAction.ENV_KEEP)
ENV_ROLL = int(EnvAction.ENV_ROLL)

#: Games per chunk of a threaded step (about 70 microseconds of work).
ENV_CHUNK = 64
#: The fewest games per thread worth a thread.
MIN_THREAD_GAMES = 128


def _kernel_state(g) -> _env.EnvState:
    # Both kernel halves work on these arrays (changed in place, never
    # replaced); the kernel's object is rebuilt over them after unpickling.
    return _env.EnvState(g.boards, g.rolls, g.done, g._after, g._opp_rolls, g._stage, g._reward, g._terminated,
                         g._illegal, g._u, g.counts, getattr(g, "last", None))


class _Pickles:
    """Pickling and copying for the kernel-backed games: the arrays travel,
    the kernel's view of them (``_state``) is made again; the opponent
    travels by value, or by spec when it does not pickle."""

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["_state"]
        if "opponent" in state:
            state["opponent"] = portable(state["opponent"])
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._state = _kernel_state(self)


class Games(_Pickles):
    """``n`` games of an agent against ``opponent`` in lockstep, stepped by
    the kernel (``_env.env_play`` then ``env_answer``).

    ``boards`` (n, 2, 25) are from the agent's view with the agent in row 1;
    while a game waits for the agent, ``rolls`` holds its dice and
    ``offsets``/``children`` its legal plays (CSR, from the opponent's
    view as ``batch.legal_positions`` gives them).  A finished game
    (``done``) keeps its last board, has no plays and zero dice until it
    restarts.  Each step draws ``u`` (n, 4) uniforms, whatever the number of
    threads: the same seed gives the same games.

    ``fresh``: every step writes new observation and mask arrays (else the
    same two, the mask changed only where the counts change).

    ``restart``: a game that ends starts again in the same step (the
    autoreset of Stable-Baselines3's vector environments), leaving its final
    board, agent in row 1, in ``last``; ``done`` is then never set after the
    first step.  An opponent with ``new_games(rows)`` (a league) hears of
    every game that starts, before choosing in it.
    """

    def __init__(self, n: int, opponent: Player | None, rng: np.random.Generator, threads: int = 1,
                 fresh: bool = True, restart: bool = False):
        self.n = n
        self.opponent = opponent
        self.rng = rng
        self.policy, self.nets = kernel_policy(opponent)
        self.threads = max(1, min(threads, n // MIN_THREAD_GAMES))
        self.fresh = fresh
        self.boards = np.repeat(INITIAL[None], n, axis=0)
        self.rolls = np.zeros((n, 2), dtype=np.uint8)
        self.done = np.ones(n, dtype=np.uint8)
        self.offsets = np.zeros(n + 1, dtype=np.int64)
        self.children = _NO_BOARDS
        self.counts = np.full(n, -1, dtype=np.int64)    # -1: the mask shows nothing yet
        self.obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self.mask = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._after = np.zeros((n, 2, 25), dtype=np.uint8)
        self._opp_rolls = np.zeros((n, 2), dtype=np.uint8)
        self._stage = np.zeros(n, dtype=np.uint8)
        self._reward = np.zeros(n, dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.uint8)
        self._illegal = np.zeros(n, dtype=np.uint8)
        self._given = np.zeros(n, dtype=np.int64)
        self._u = np.zeros((n, 4))                  # the step's uniforms
        self.restart = restart
        self.last = np.zeros((n, 2, 25), dtype=np.uint8) if restart else None
        self._given_opening = np.zeros(n, dtype=np.int64)
        self._state = _kernel_state(self)
        self._capacity = 24 * n + MAX_PLAYS
        self._buffer: np.ndarray | None = None     # the plays' memory, kept between steps unless fresh
        self._offsets_buffer: np.ndarray | None = None

    def step(self, actions: np.ndarray, illegal_reward: float = 0.0, autoreset: bool = False):
        """Play ``actions`` (n,) int64: a play index, or ENV_RESTART,
        ENV_KEEP, ENV_ROLL (``_env.EnvAction``); with ``autoreset``
        finished games restart and negative actions are illegal plays.  An
        index outside a game's plays ends it with ``illegal_reward``.  The
        opponent answers and the agent rolls.  Returns rewards (n,)
        float32, terminated and illegal (n,) bool (new arrays)."""
        u = self._u
        hears = getattr(self.opponent, "new_games", None)
        restart = getattr(self, "restart", False)
        if hears is not None:
            done = self.done.astype(bool)
            if autoreset:
                starting = done
            else:
                starting = (actions == ENV_RESTART) | (actions == ENV_ROLL) | (done & (actions != ENV_KEEP))
        _env.env_play(self._state, self.offsets, self.children, actions, self.rng, illegal_reward, autoreset,
                      restart)
        if hears is not None:
            if restart:
                starting = starting | self._terminated.astype(bool)
            rows = np.flatnonzero(starting)
            if len(rows):
                hears(rows)
        if self.policy == _GIVEN:
            rows = np.flatnonzero(self._stage == _OPPONENT)
            if len(rows):
                assert self.opponent is not None      # POLICY_GIVEN with no opponent never has such rows
                self._given[rows] = self._choose(rows, self._after[rows], self._opp_rolls[rows])
                if restart:
                    self._openings(rows, hears)
        self._answer(u, restart)
        return self._reward.copy(), self._terminated.astype(bool), self._illegal.astype(bool)

    def _choose(self, rows: np.ndarray, boards: np.ndarray, rolls: np.ndarray) -> np.ndarray:
        # The opponent's choices in games ``rows``: by game for an opponent
        # that tells games apart (a league), else by position.
        opponent = self.opponent
        by_game = getattr(opponent, "choose_rows", None)
        if by_game is not None:
            return by_game(rows, boards, rolls)
        assert opponent is not None
        return opponent.choose_indices(boards, rolls)

    def _openings(self, rows: np.ndarray, hears) -> None:
        # With restart, the games the opponent's choice ends start again in
        # the kernel's answer; where the opponent opens one, its opening
        # choice is made here first (the kernel cannot call Python).
        offsets, children = legal_positions(self._after[rows], self._opp_rolls[rows], validate=False, threads=1)
        counts = np.diff(offsets)
        given = self._given[rows]
        given = np.where((given >= 0) & (given < counts), given, 0)
        chosen = children[offsets[:-1] + given]
        ended = rows[chosen[:, 0].sum(axis=1) == 0]        # row 0: the opponent, who just played
        if not len(ended):
            return
        if hears is not None:
            hears(ended)
        throws = _env.opening_throws(np.ascontiguousarray(self._u[ended, 0]))
        first = throws[:, 1] > throws[:, 0]
        opening = ended[first]
        if len(opening):
            boards = np.repeat(INITIAL[None], len(opening), axis=0)
            rolls = np.ascontiguousarray(throws[first][:, ::-1])
            self._given_opening[opening] = self._choose(opening, boards, rolls)

    def _answer(self, u: np.ndarray, restart: bool = False) -> None:
        n = self.n
        if self.fresh:
            obs = np.empty((n, OBS_SIZE), dtype=np.float32)
            mask = np.empty((n, NUM_ACTIONS), dtype=np.int8)
        else:
            obs, mask = self.obs, self.mask
        while True:
            if self.fresh or self._offsets_buffer is None:
                offsets = np.zeros(n + 1, dtype=np.int64)
                if not self.fresh:
                    self._offsets_buffer = offsets
            else:
                offsets = self._offsets_buffer      # the kernel rewrites every entry but the first, 0
            if self.fresh or self._buffer is None or len(self._buffer) < self._capacity:
                children = _pool.empty((self._capacity, 2, 25), np.uint8)
                if not self.fresh:
                    self._buffer = children
            else:
                children = self._buffer
            chain = _chain.Chain(n, ENV_CHUNK)

            def task(t: int, offsets=offsets, children=children, chain=chain, restart=restart) -> int:
                return _env.env_answer(self._state, self.policy, self._given, obs, mask, self.fresh, offsets,
                                       children, chain, self.nets, restart, self._given_opening)

            status = run_shared(task, self.threads)
            if status is None:          # the threads are busy: alone
                status = [task(0)]
            if not any(status):
                break
            # More plays than room: each game's answer is a function of the
            # step's inputs, so running it again gives the same games.
            self._capacity *= 2
        self.offsets = offsets
        self.children = children[:int(offsets[-1])]
        self.obs, self.mask = obs, mask


class Turns(_Pickles):
    """One game of two agents taking turns (the AEC environment), stepped
    by the environments' own row kernels (``_env.turn``): ``board`` is from
    the view of the agent on turn (row 1), ``obs[0]`` its observation,
    ``obs[1]`` the other agent's, ``mask`` the agent on turn's, ``plays``
    the positions its plays lead to (opponent on roll)."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self.boards = np.repeat(INITIAL[None], 1, axis=0)
        self.rolls = np.zeros((1, 2), dtype=np.uint8)
        self.done = np.ones(1, dtype=np.uint8)
        self.counts = np.full(1, -1, dtype=np.int64)
        self._after = np.zeros((1, 2, 25), dtype=np.uint8)
        self._opp_rolls = np.zeros((1, 2), dtype=np.uint8)
        self._stage = np.zeros(1, dtype=np.uint8)
        self._reward = np.zeros(1, dtype=np.float32)
        self._terminated = np.zeros(1, dtype=np.uint8)
        self._illegal = np.zeros(1, dtype=np.uint8)
        self._u = np.zeros((1, 4))
        self._state = _kernel_state(self)
        self.obs = np.zeros((2, OBS_SIZE), dtype=np.float32)
        self.mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self.offsets = np.zeros(2, dtype=np.int64)
        self._children = np.zeros((MAX_PLAYS, 2, 25), dtype=np.uint8)

    def turn(self, action: int) -> tuple[float, bool, bool]:
        """The agent on turn's ``action`` (a play index, or ENV_RESTART /
        ENV_ROLL); returns (points won by it, game over, turn passed)."""
        reward, over, passed, _ = _env.turn(self._state, action, self.rng, self.obs, self.mask, self.offsets,
                                            self._children)
        return reward, over, passed

    @property
    def count(self) -> int:
        return int(self.offsets[1])

    @property
    def plays(self) -> np.ndarray:
        return self._children[:self.count]


class OneGame:
    """One game of ``Games`` with the single-agent environment's interface:
    the same kernel, the same draws, so a one-game vector environment
    replays a single environment."""

    def __init__(self, opponent: Player, rng: np.random.Generator):
        self._g = Games(1, opponent, rng)

    def _step(self, action: int, illegal_reward: float = 0.0) -> float:
        reward, _, _ = self._g.step(np.array([action], dtype=np.int64), illegal_reward)
        return float(reward[0])

    @property
    def board(self) -> bytes:
        """The 50 bytes of the position, the agent in row 1."""
        return self._g.boards[0].tobytes()

    @property
    def roll(self) -> tuple[int, int]:
        return int(self._g.rolls[0, 0]), int(self._g.rolls[0, 1])

    @property
    def done(self) -> bool:
        return bool(self._g.done[0])

    @property
    def count(self) -> int:
        return int(self._g.counts[0])

    def restart(self) -> None:
        self._step(EnvAction.ENV_RESTART)

    def start_at(self, board: np.ndarray) -> None:
        self._g.boards[0] = board
        self._step(EnvAction.ENV_ROLL)

    def end(self) -> None:
        """The game ends where it stands (an illegal action)."""
        self._step(NUM_ACTIONS)

    def play(self, index: int) -> float:
        """The agent's play ``index``, the opponent's answer, the next roll;
        the reward (points when the game ends, else 0)."""
        return self._step(index)

    def observation(self) -> np.ndarray:
        return self._g.obs[0]

    def mask(self) -> np.ndarray:
        return self._g.mask[0]

    def afterstates(self) -> np.ndarray:
        return self._g.children
