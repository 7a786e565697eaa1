"""What the environments share: the encoding, the action mask, the opening
roll, and ``Games``, n games of one agent against an opponent in lockstep.

Nothing here imports gymnasium or pettingzoo: the environments are thin
layers over these numpy arrays and the batch kernels.
"""
from __future__ import annotations

import numpy as np

from .. import _board, _rollout
from ..batch import MAX_PLAYS, legal_positions
from ..errors import IllegalPlayError
from ..players import Player, RandomPlayer, player
from ..play import Plays
from ..position import Position

#: Actions: the i-th distinct legal play of the roll, in the move
#: generator's order (``Position.legal_plays``, ``batch.legal_positions``).
NUM_ACTIONS = MAX_PLAYS
#: The 198 Tesauro inputs, then the dice one-hot (high die 6, low die 6).
OBS_SIZE = 198 + 12
#: Largest value of any input: the bar unit, 15 / 2.
OBS_HIGH = 7.5

INITIAL = Position.initial().array.copy()
#: The 30 opening throws (RULES 2.2): (die of the agent or player_0, die of
#: the other side), never equal; the higher die moves first.
OPENING = np.array([(a, b) for a in range(1, 7) for b in range(1, 7) if a != b], dtype=np.uint8)
_ROWS = np.arange(max(NUM_ACTIONS, 1), dtype=np.int64)
_OVER = np.zeros((2, 25), dtype=np.uint8)
_OVER[0, 0] = 15   # the side on roll has borne off: a finished game
_NONE = np.zeros(0, dtype=np.int64)
_NO_BOARDS = np.zeros((0, 2, 25), dtype=np.uint8)


def encode(boards: np.ndarray, rolls: np.ndarray | None, out: np.ndarray | None = None) -> np.ndarray:
    """Observations (n, 210) float32 of boards (n, 2, 25) seen by the side
    in row 1: the 198 TD-Gammon inputs, then one-hot the high die (6) and
    the low die (6); rows of ``rolls`` that are (0, 0) (no dice: not on
    turn, or the game is over) leave the dice units zero."""
    n = len(boards)
    if out is None:
        out = np.empty((n, OBS_SIZE), dtype=np.float32)
    out[:, :198] = _rollout.tesauro_inputs(boards)
    out[:, 198:] = 0.0
    if rolls is not None and n:
        hi = np.maximum(rolls[:, 0], rolls[:, 1]).astype(np.intp)
        lo = np.minimum(rolls[:, 0], rolls[:, 1]).astype(np.intp)
        rows = _ROWS[:n] if n <= len(_ROWS) else np.arange(n)
        has = hi > 0
        if has.all():
            out[rows, 197 + hi] = 1.0
            out[rows, 203 + lo] = 1.0
        else:
            out[rows[has], 197 + hi[has]] = 1.0
            out[rows[has], 203 + lo[has]] = 1.0
    return out


def encode_one(board: bytes, roll, out: np.ndarray | None = None) -> np.ndarray:
    """``encode`` of one 50-byte board (the observer in row 1) and its
    dice (``(0, 0)`` for none): (210,) float32."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32) if out is None else out
    obs[:198] = _rollout.tesauro_inputs(np.frombuffer(board, dtype=np.uint8).reshape(1, 2, 25))[0]
    if out is not None:
        obs[198:] = 0.0
    a, b = roll
    if a:
        obs[197 + max(a, b)] = 1.0
        obs[203 + min(a, b)] = 1.0
    return obs


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


class Games:
    """``n`` games of an agent against ``opponent`` in lockstep.

    ``boards`` (n, 2, 25) are from the agent's view with the agent in row 1;
    while a game waits for the agent, ``rolls`` holds its dice and
    ``offsets``/``children`` its legal plays (CSR, from the opponent's
    view as ``batch.legal_positions`` gives them).  A finished game keeps
    its last board (``done``), has no plays and zero dice until restarted.
    """

    def __init__(self, n: int, opponent: Player, rng: np.random.Generator):
        self.n = n
        self.opponent = opponent
        self.fast_random = isinstance(opponent, RandomPlayer)
        self.rng = rng
        self.boards = np.repeat(INITIAL[None], n, axis=0)
        self.rolls = np.zeros((n, 2), dtype=np.uint8)
        self.done = np.zeros(n, dtype=bool)
        self.offsets = np.zeros(n + 1, dtype=np.int64)
        self.children = np.zeros((0, 2, 25), dtype=np.uint8)
        self.counts = np.zeros(n, dtype=np.int64)
        self._mask_counts: np.ndarray | None = None   # the counts the masks buffer shows
        self._opp_out: np.ndarray | None = None

    # -- the opponent --------------------------------------------------------
    def _opponent_moves(self, boards: np.ndarray, rolls: np.ndarray) -> np.ndarray:
        """The opponent plays ``rolls`` from ``boards`` (its view, on roll):
        the results from the agent's view, agent on roll."""
        if self._opp_out is None or len(self._opp_out) < 24 * len(boards) + MAX_PLAYS:
            self._opp_out = np.empty((24 * len(boards) + MAX_PLAYS, 2, 25), dtype=np.uint8)
        offsets, children = legal_positions(boards, rolls, validate=False, out=self._opp_out)
        if self.fast_random:
            index = (self.rng.random(len(boards)) * np.diff(offsets)).astype(np.int64)
        else:
            index = np.asarray(self.opponent.choose_indices(boards, rolls), dtype=np.int64)
        return children[offsets[:-1] + index]

    def _dice(self, k: int) -> np.ndarray:
        return self.rng.integers(1, 7, size=(k, 2), dtype=np.uint8)

    # -- games ------------------------------------------------------------------
    def restart(self, rows: np.ndarray) -> None:
        """New games in ``rows`` (see ``play``)."""
        self.play(None, _NONE, rows)

    def start_at(self, rows: np.ndarray, board: np.ndarray) -> None:
        """Games in ``rows`` start at ``board`` (the agent on roll), which rolls."""
        self.boards[rows] = board
        self.done[rows] = False
        self.rolls[rows] = self._dice(len(rows))

    def generate(self) -> None:
        """The agent's legal plays in every game (none in finished games)."""
        boards, rolls = self.boards, self.rolls
        if self.done.any():
            # A finished board has no plays; a game ended by an illegal
            # action keeps its board, so it is shown one with no checkers
            # left.  Finished games have no dice; the kernel wants some.
            boards = np.where(self.done[:, None, None], _OVER, boards)
            rolls = np.where(self.done[:, None], np.uint8(1), rolls)
        self.offsets, self.children = legal_positions(boards, rolls, validate=False)
        self.counts = np.diff(self.offsets)

    def play(self, actions: np.ndarray | None, live: np.ndarray | None, restart: np.ndarray | None = None):
        """The agent plays ``actions`` in the ``live`` rows (all when None),
        the opponent answers, the agent rolls; games in ``restart`` start
        anew: an opening throw decides who moves first (RULES 2.2), and when
        the opponent does it plays the opening roll in the same batch as its
        other answers.  Returns rewards (n,) float32 and terminated (n,)
        bool; finished games get ``done``."""
        n = self.n
        reward = np.zeros(n, dtype=np.float32)
        terminated = np.zeros(n, dtype=bool)
        rows = live
        if live is None:
            assert actions is not None      # only restarts play no actions, with live rows given
            after = self.children[self.offsets[:-1] + actions]
        elif len(live):
            assert actions is not None
            after = self.children[self.offsets[live] + actions[live]]
        else:
            after = _NO_BOARDS
        # The agent is row 0 of ``after``: has it borne off every checker?
        won = ~after[:, 0].any(axis=1)
        if won.any():
            at = np.flatnonzero(won) if rows is None else rows[won]
            _, kind = _board.results(np.ascontiguousarray(after[won]))
            reward[at] = kind
            terminated[at] = True
            self.boards[at] = after[won][:, ::-1]
            self.rolls[at] = 0
            going = ~won
            after = after[going]
            rows = np.flatnonzero(going) if rows is None else rows[going]
        rolls = self._dice(len(after))
        if restart is not None and len(restart):
            throw = OPENING[self.rng.integers(0, len(OPENING), size=len(restart))]
            agent_first = throw[:, 0] > throw[:, 1]
            self.boards[restart] = INITIAL
            self.done[restart] = False
            self.rolls[restart[agent_first]] = throw[agent_first]
            later = restart[~agent_first]
            if len(later):   # the opponent's opening plays join its batch
                after = np.concatenate([after, np.broadcast_to(INITIAL, (len(later), 2, 25))])
                rolls = np.concatenate([rolls, throw[~agent_first][:, ::-1]])
                rows = np.concatenate([rows, later])
        k = len(after)
        if k:
            new = self._opponent_moves(np.ascontiguousarray(after), np.ascontiguousarray(rolls))
            lost = ~new[:, 0].any(axis=1)
            if rows is None:
                self.boards = new
                self.rolls = self._dice(n)
            else:
                self.boards[rows] = new
                self.rolls[rows] = self._dice(k)
            if lost.any():
                at = np.flatnonzero(lost) if rows is None else rows[lost]
                _, kind = _board.results(np.ascontiguousarray(new[lost]))
                reward[at] = -kind.astype(np.float32)
                terminated[at] = True
                self.rolls[at] = 0
        self.done |= terminated
        return reward, terminated

    # -- what the agent sees -------------------------------------------------------
    def observations(self, out: np.ndarray | None = None) -> np.ndarray:
        return encode(self.boards, self.rolls, out)

    def masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """The action masks (n, NUM_ACTIONS) int8: the first ``counts`` set.
        ``out``, the array this method filled last time (and nothing else
        wrote), is updated in place: only the entries between each game's
        old and new count change."""
        counts = self.counts
        if out is None:
            out = np.zeros((self.n, NUM_ACTIONS), dtype=np.int8)
            width = int(counts.max()) if len(counts) else 0
            if width:
                np.less(_ROWS[:width], counts[:, None], out=out[:, :width], casting="unsafe")
            return out
        old = self._mask_counts
        if old is None or old is counts:
            old = np.zeros(self.n, dtype=np.int64)
            out[:] = 0
        length = np.abs(counts - old)
        rows = np.flatnonzero(length)
        if len(rows):
            length = length[rows]
            first = rows * NUM_ACTIONS + np.minimum(counts[rows], old[rows])
            ends = np.cumsum(length)
            total = int(ends[-1])
            index = np.arange(total, dtype=np.int64)
            index += np.repeat(first - (ends - length), length)
            out.reshape(-1)[index] = np.repeat((counts[rows] > old[rows]).view(np.int8), length)
        self._mask_counts = counts
        return out


class OneGame:
    """``Games`` with n = 1 in plain Python over 50-byte boards: the same
    rules and the same random draws in the same order (so a one-game vector
    environment replays a single environment), without numpy's per-call
    cost on tiny arrays."""

    def __init__(self, opponent: Player, rng: np.random.Generator):
        self.opponent = opponent
        self.fast_random = isinstance(opponent, RandomPlayer)
        self.rng = rng
        self.board = INITIAL.tobytes()   # the agent in row 1
        self.roll = (0, 0)
        self.done = False
        self.plays: Plays | None = None

    def _dice(self) -> tuple[int, int]:
        d = self.rng.integers(1, 7, size=(1, 2), dtype=np.uint8)[0]
        return int(d[0]), int(d[1])

    def _opponent_move(self, board: bytes, roll) -> bytes:
        plays = Position.from_bytes(board, validate=False).legal_plays(roll)
        if self.fast_random:
            index = int(self.rng.random(1)[0] * len(plays))
        else:
            index = int(self.opponent.choose_indices(np.frombuffer(board, dtype=np.uint8).reshape(1, 2, 25),
                                                     np.array([roll], dtype=np.uint8))[0])
        return plays._children[50 * index: 50 * index + 50]

    def _set(self, board: bytes, roll) -> None:
        self.board, self.roll = board, roll
        self.plays = Position.from_bytes(board, validate=False).legal_plays(roll) if roll[0] else None

    @property
    def count(self) -> int:
        return len(self.plays) if self.plays is not None else 0

    def restart(self) -> None:
        self.done = False
        a, b = (int(d) for d in OPENING[self.rng.integers(0, len(OPENING), size=1)][0])
        if a > b:
            self._set(INITIAL.tobytes(), (a, b))
        else:
            board = self._opponent_move(INITIAL.tobytes(), (b, a))
            self._set(board, self._dice())

    def start_at(self, board: np.ndarray) -> None:
        self.done = False
        self._set(board.tobytes(), self._dice())

    def end(self) -> None:
        """The game ends where it stands (an illegal action)."""
        self.done = True
        self.roll, self.plays = (0, 0), None

    def play(self, index: int) -> float:
        """The agent's play ``index``, the opponent's answer, the next roll;
        the reward (points when the game ends, else 0)."""
        assert self.plays is not None    # the action was checked against count, 0 without plays
        after = self.plays._children[50 * index: 50 * index + 50]   # the agent in row 0
        if not any(after[:25]):
            _, kind = _board.results(np.frombuffer(after, dtype=np.uint8).reshape(1, 2, 25))
            self.done = True
            self.board, self.roll, self.plays = after[25:] + after[:25], (0, 0), None
            return float(kind[0])
        new = self._opponent_move(after, self._dice())
        if not any(new[:25]):
            _, kind = _board.results(np.frombuffer(new, dtype=np.uint8).reshape(1, 2, 25))
            self._dice()   # as Games draws the agent's next roll before it settles
            self.done = True
            self.board, self.roll, self.plays = new, (0, 0), None
            return -float(kind[0])
        self._set(new, self._dice())
        return 0.0

    def observation(self) -> np.ndarray:
        return encode_one(self.board, self.roll)

    def mask(self) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, dtype=np.int8)
        m[:self.count] = 1
        return m

    def afterstates(self) -> np.ndarray:
        if self.plays is None:
            return np.zeros((0, 2, 25), dtype=np.uint8)
        return self.plays.positions
