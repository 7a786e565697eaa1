"""What the environments share: the encoding, the action mask, the opening
roll, and ``Games``, n games of one agent against an opponent in lockstep.

Nothing here imports gymnasium or pettingzoo: the environments are thin
layers over these numpy arrays and the batch kernels.
"""
from __future__ import annotations

import numpy as np

from .. import _chain, _env
from .._choice import Policy
from .._env import EnvAction, EnvStage
from .._parallel import run_shared
from .. import _pool
from ..batch import MAX_PLAYS
from ..errors import IllegalPlayError
from ..players import Player, player
from ..position import Position

#: Actions: the i-th distinct legal play of the roll, in the move
#: generator's order (``Position.legal_plays``, ``batch.legal_positions``).
NUM_ACTIONS = MAX_PLAYS
#: The 198 Tesauro inputs, then the dice one-hot (high die 6, low die 6).
OBS_SIZE = 198 + 12
#: Largest value of any input: the bar unit, 15 / 2.
OBS_HIGH = 7.5

INITIAL = Position.initial().array.copy()
_NO_BOARDS = np.zeros((0, 2, 25), dtype=np.uint8)


def encode(boards: np.ndarray, rolls: np.ndarray | None, out: np.ndarray | None = None) -> np.ndarray:
    """Observations (n, 210) float32 of boards (n, 2, 25) seen by the side
    in row 1: the 198 TD-Gammon inputs, then one-hot the high die (6) and
    the low die (6); rows of ``rolls`` that are (0, 0) (no dice: not on
    turn, or the game is over) leave the dice units zero."""
    b = np.ascontiguousarray(boards, dtype=np.uint8)
    r = np.zeros((len(b), 2), dtype=np.uint8) if rolls is None else np.ascontiguousarray(rolls, dtype=np.uint8)
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


def check_action(action, count: int, name: str = "action") -> int:
    """``action`` as an int if it names one of ``count`` legal plays."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"{name} must be an int (the index of a legal play), not {type(action).__name__}")
    action = int(action)
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
    """A Player from a spec string or a Player (see ``players.player``)."""
    return player(opponent, seed=seed)


def kernel_policy(opponent: Player | None):
    """(policy code, networks) with which the kernel plays for ``opponent``
    itself (``Player.kernel_policy``), or POLICY_GIVEN when the player
    chooses in Python."""
    given = None if opponent is None else opponent.kernel_policy()
    return given if given is not None else (Policy.POLICY_GIVEN, None)


#: Games per chunk of a threaded step (about 70 microseconds of work).
ENV_CHUNK = 64
#: The fewest games per thread worth a thread.
MIN_THREAD_GAMES = 128


class Games:
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
    """

    def __init__(self, n: int, opponent: Player | None, rng: np.random.Generator, threads: int = 1,
                 fresh: bool = True):
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
        self._capacity = 24 * n + MAX_PLAYS

    def step(self, actions: np.ndarray, illegal_reward: float = 0.0, autoreset: bool = False):
        """Play ``actions`` (n,) int64: a play index, or ENV_RESTART,
        ENV_KEEP, ENV_ROLL (``_env.EnvAction``); with ``autoreset``
        finished games restart and negative actions are illegal plays.  An
        index outside a game's plays ends it with ``illegal_reward``.  The
        opponent answers and the agent rolls.  Returns rewards (n,)
        float32, terminated and illegal (n,) bool (new arrays)."""
        u = self._u
        _env.env_play(self.boards, self.rolls, self.done, self.offsets, self.children, actions, self.rng, u,
                          self._after, self._opp_rolls, self._stage, self._reward, self._terminated,
                          self._illegal, illegal_reward, autoreset)
        if self.policy == Policy.POLICY_GIVEN:
            rows = np.flatnonzero(self._stage == EnvStage.STAGE_OPPONENT)
            if len(rows):
                assert self.opponent is not None      # POLICY_GIVEN with no opponent never has such rows
                self._given[rows] = self.opponent.choose_indices(self._after[rows], self._opp_rolls[rows])
        self._answer(u)
        return self._reward.copy(), self._terminated.astype(bool), self._illegal.astype(bool)

    def hand_over(self, actions: np.ndarray):
        """A step of two agents taking turns (no opponent): the agents'
        plays (``actions`` as in ``step``, without autoreset); where a game
        goes on, or its opening throw favours the other side, the turn
        passes: the board is turned to the other agent's view and it rolls.
        Returns rewards (n,) float32 of the side that played (points won),
        terminated (n,) bool, and passed (n,) bool: where the turn passed."""
        u = self._u
        _env.env_play(self.boards, self.rolls, self.done, self.offsets, self.children, actions, self.rng, u,
                      self._after, self._opp_rolls, self._stage, self._reward, self._terminated,
                      self._illegal, 0.0, False)
        passed = self._stage == EnvStage.STAGE_OPPONENT
        self.boards[passed] = self._after[passed]
        self.rolls[passed] = self._opp_rolls[passed]
        self._stage[passed] = EnvStage.STAGE_AGENT
        self._answer(u)
        return self._reward.copy(), self._terminated.astype(bool), passed

    def _answer(self, u: np.ndarray) -> None:
        n = self.n
        if self.fresh:
            obs = np.empty((n, OBS_SIZE), dtype=np.float32)
            mask = np.empty((n, NUM_ACTIONS), dtype=np.int8)
        else:
            obs, mask = self.obs, self.mask
        while True:
            offsets = np.zeros(n + 1, dtype=np.int64)
            children = _pool.empty((self._capacity, 2, 25), np.uint8)
            chain = _chain.Chain(n, ENV_CHUNK)

            def task(t: int, offsets=offsets, children=children, chain=chain) -> int:
                return _env.env_answer(self.policy, self._given, self._stage, self._after, self._opp_rolls, u,
                                           self.boards, self.rolls, self.done, self._reward, self._terminated,
                                           obs, mask, self.counts, self.fresh, offsets, children, chain,
                                           self.nets)

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
