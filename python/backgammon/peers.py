"""Other engines as players, for comparisons: bgsage (Open Sage).

``player("bgsage")`` is bgsage's raw network (its level ``1ply``, which is
gnubg's 0-ply), ``player("bgsage:2ply")``, ``"bgsage:3ply"`` and the other
levels bgsage names (:data:`LEVELS`) search deeper or roll out.  bgsage
(``pip install bgsage``, MPL-2.0) is a test and benchmark peer, never a
dependency: it is imported when a bgsage player is made, and the factory
reaches :func:`backgammon.player` through the ``backgammon.players`` entry
point group, as any plugin's player does.

A bgsage player plays bgsage's choice among the move generator's legal
plays: bgsage generates its plays and picks one (cubelessly), and the
choice is mapped to the legal play with the same resulting position; a
choice that is none of them is an error, never replaced by another play
(one documented exception, a choice that ends the game: see
:class:`BgsagePlayer`).  Forced plays are played without asking bgsage.

bgsage's board is a list of 26 ints from the view of the side to move
(before its play) or of the side that has just moved (after it): index 1-24
are that side's points, its checkers positive and the opponent's negative,
25 its bar and 0 the opponent's bar (a positive count); checkers off are
implicit.  :func:`to_bgsage` and :func:`from_bgsage` convert both ways.

>>> import backgammon as bg
>>> to_bgsage(bg.Position.initial().array).tolist()
[0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
>>> bool((from_bgsage(to_bgsage(bg.Position.initial().array)) == bg.Position.initial().array).all())
True
"""
from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

from ._validate import instance
from .doubling import beavers_allowed, may_double
from .players import Player
from .scoring import flip, state_gammons_count

__all__ = ["BgsagePlayer", "bgsage_player", "to_bgsage", "from_bgsage", "LEVELS", "INSTALL"]

#: bgsage's evaluation levels (the analyzer's ``eval_level``), fastest first:
#: the raw network, 2- to 4-ply searches, truncated rollouts and full rollouts.
LEVELS = ("1ply", "2ply", "3ply", "4ply", "truncated1", "truncated2", "truncated3", "rollout")
#: What to do when bgsage is missing.
INSTALL = "pip install bgsage"

# bgsage's N-ply searches use a C++ thread pool that does not survive fork:
# the process id where one may have started (None: none has).
_pool_pid: int | None = None
# BGBOT_MULTIPLY_THREADS is read when an analyzer is made; it is set only
# around that, under this lock.
_env_lock = threading.Lock()


def to_bgsage(boards, *, after: bool = False) -> np.ndarray:
    """Boards ``(..., 2, 25)`` (row 1 on roll) as bgsage's boards ``(..., 26)``
    int64, from the side on roll's view.  With ``after``, the boards are
    resulting positions from the next mover's view (as ``legal_positions``
    gives them, rows swapped) and bgsage's are from the view of the side
    that has just moved, as its ``possible_moves`` gives them.

    >>> import backgammon as bg
    >>> play = next(p for p in bg.Position.initial().legal_plays("31") if str(p) == "8/5 6/5")
    >>> to_bgsage(play.position.array, after=True).tolist()
    [0, -2, 0, 0, 0, 2, 4, 0, 2, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
    """
    a = np.asarray(boards)
    if a.shape[-2:] != (2, 25):
        raise ValueError(f"boards must have shape (..., 2, 25), not {a.shape}")
    a = a.astype(np.int64)
    if after:
        a = a[..., ::-1, :]
    out = np.zeros(a.shape[:-2] + (26,), dtype=np.int64)
    out[..., 1:25] = a[..., 1, :24] - a[..., 0, 23::-1]     # my point p is the opponent's 25 - p
    out[..., 25] = a[..., 1, 24]
    out[..., 0] = a[..., 0, 24]
    return out


def from_bgsage(boards, *, after: bool = False) -> np.ndarray:
    """bgsage's boards ``(..., 26)`` as boards ``(..., 2, 25)`` uint8, the
    side whose view bgsage's board takes in row 1; with ``after`` (bgsage's
    board after a play, from the view of the side that moved) the rows are
    swapped, the next mover in row 1, as ``legal_positions`` gives
    resulting positions.  Counts are checked (0-15), not whole positions."""
    b = np.asarray(boards)
    if b.shape[-1:] != (26,):
        raise ValueError(f"bgsage boards must have 26 entries, not shape {b.shape}")
    b = b.astype(np.int64)
    if (np.abs(b) > 15).any() or (b[..., 0] < 0).any() or (b[..., 25] < 0).any():
        raise ValueError("bgsage boards hold counts of at most 15 checkers, the bars (index 0 and 25) positive")
    out = np.zeros(b.shape[:-1] + (2, 25), dtype=np.uint8)
    out[..., 1, :24] = np.maximum(b[..., 1:25], 0)
    out[..., 0, :24] = np.maximum(-b[..., 24:0:-1], 0)
    out[..., 1, 24] = b[..., 25]
    out[..., 0, 24] = b[..., 0]
    return np.ascontiguousarray(out[..., ::-1, :]) if after else out


def _import():
    try:
        import bgbot_cpp
        import bgsage
        from bgsage.weights import bearoff_db_path
    except ImportError:
        raise ValueError(f"the bgsage player needs the bgsage package: {INSTALL}") from None
    return bgsage, bgbot_cpp, bearoff_db_path


def _endings(boards) -> np.ndarray:
    """The points (1-3) each resulting position, in the mover's view (row
    1 the side that has just moved), scores for the mover: 0 where the game
    goes on or (never after a play) the other side has won."""
    from . import _board
    winner, kind = _board.results(np.ascontiguousarray(np.asarray(boards, dtype=np.uint8)[..., ::-1, :]))
    return np.where(winner == 0, kind, 0)      # row 0 of the next mover's view: the side that moved


class BgsagePlayer(Player):
    """bgsage's cubeless choice at ``level`` (one of :data:`LEVELS`,
    default ``1ply``: the raw network, scored as bgsage's analyzer scores
    plays, with its one-sided bear-off database).

    ``threads`` is how many threads bgsage's searches and rollouts may use
    (the raw network uses one in any case); None leaves it to bgsage (every
    core).  With more than one, a searching player must not be used in a
    process forked after it searched (bgsage's thread pool does not survive
    fork: this raises instead of hanging); with one, the default, it is
    fork-safe.  ``seed`` seeds the rollout levels.

    Cube decisions, resignations and truncated rollouts take bgsage's 1-ply
    judgement at every level: the network's chances before the roll
    (:meth:`chances`), and for the cube bgsage's Janowski cube decision
    (``bgbot_cpp.cube_decision_1ply``, and its match equity table in match
    play), the rules' Jacoby and beavers applied as ``cube.cube_decision``
    applies them.

    bgsage's moves are the move generator's except in two ways: with no
    legal move it returns the position unchanged (as the move generator's
    one "play" then), and it also lets the mover's last checker off with
    one die where both dice must be played (2/off besides 2/1*/off with
    6-1).  The legal play is then forced and bgsage is not asked; should a
    choice of bgsage's ever end the game in a way no legal play does, the
    legal play that ends it with the same score is played and ``endings``
    counts it.
    """

    has_cube_decisions = True

    def __init__(self, level: str = "1ply", *, threads: int | None = 1, seed=None):
        if not isinstance(level, str) or level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 1):
            raise ValueError(f"threads must be an int >= 1 or None, not {threads!r}")
        bgsage, cpp, bearoff_db_path = _import()
        from .evaluator import CallableEvaluator
        self.level = level
        self.threads = threads
        self.seed = seed
        self.spec = "bgsage" if level == "1ply" else f"bgsage:{level}"
        self.endings = 0
        self._cpp = cpp
        self._lock = threading.Lock()
        self._weights = bgsage.default_weights()
        self._db_path = bearoff_db_path()
        self._net: Any = None               # the raw network with the bear-off database
        self._analyzer: Any = None          # bgsage's analyzer of the deeper levels
        if level == "1ply":
            self._net = self._raw_net()
        else:
            self._analyzer = self._make_analyzer(bgsage)
        self.evaluator = CallableEvaluator(self.chances)

    # -- construction ----------------------------------------------------------------

    def _raw_net(self):
        # As bgsage's analyzer builds its 1-ply strategy: the network wrapped
        # with the bear-off database when the database loads.
        cpp, w = self._cpp, self._weights
        net = cpp.create_strategy(w.strategy_type, w.weight_paths_list, w.hidden_sizes_list)
        if self._db_path:
            db = cpp.BearoffDB()
            if db.load(self._db_path):
                net = cpp.BearoffStrategy(net, db)
                self._db = db               # the wrapper needs it alive
        return net

    def _make_analyzer(self, bgsage: Any) -> Any:
        kwargs: dict[str, Any] = {"eval_level": self.level, "cubeful": False}
        if self.level.startswith(("truncated", "rollout")):
            kwargs["parallel_threads"] = self.threads or 0
            kwargs["seed"] = self._rollout_seed()
        with _env_lock:
            # bgsage reads the thread count of its N-ply searches here
            # (its parallel_threads would give at least 2).
            before = os.environ.get("BGBOT_MULTIPLY_THREADS")
            if self.threads is not None:
                os.environ["BGBOT_MULTIPLY_THREADS"] = str(self.threads)
            try:
                return bgsage.BgBotAnalyzer(**kwargs)
            finally:
                if before is None:
                    os.environ.pop("BGBOT_MULTIPLY_THREADS", None)
                else:
                    os.environ["BGBOT_MULTIPLY_THREADS"] = before

    def _rollout_seed(self) -> int:
        if self.seed is None:
            return 42                       # bgsage's own default
        from .dice import generator
        return int(generator(self.seed).integers(2**31 - 1))

    def _check_process(self) -> None:
        global _pool_pid
        if self.level == "1ply" or self.threads == 1:
            return
        pid = os.getpid()
        if _pool_pid is not None and _pool_pid != pid:
            raise RuntimeError("bgsage's thread pool does not survive fork: this process was forked after a "
                               "threaded bgsage search; use threads=1 or the spawn start method")
        _pool_pid = pid

    def __reduce__(self):
        # The C++ objects do not pickle: a copy is made afresh.
        return (_rebuild, (self.level, self.threads, self.seed))

    # -- checker play -----------------------------------------------------------------

    def _best_raw(self, board: list, d1: int, d2: int) -> list:
        # bgsage's 1-ply analyzer: every play scored by the network chosen
        # for the position before it, best equity first, ties to the least
        # board (its sort key).
        evaluate = self._net.evaluate_board
        best, best_e = board, -np.inf
        for child in self._cpp.possible_moves(board, d1, d2):
            e = evaluate(child, board)["equity"]
            if e > best_e or (e == best_e and child < best):
                best, best_e = child, e
        return best

    def _best_deep(self, board: list, d1: int, d2: int) -> list:
        moves = self._analyzer.checker_play(board, d1, d2).moves
        return list(moves[0].board) if moves else board

    def best_board(self, board, d1: int, d2: int) -> list:
        """bgsage's choice from a bgsage ``board`` (26 ints) with the dice:
        the resulting bgsage board, from the mover's view."""
        with self._lock:
            if self._analyzer is None and self._net is None:
                raise ValueError(f"{self!r} is closed")
            self._check_process()
            if self.level == "1ply":
                return self._best_raw(list(board), int(d1), int(d2))
            return self._best_deep(list(board), int(d1), int(d2))

    def choose_indices(self, boards, rolls):
        from .batch import legal_positions
        boards = np.ascontiguousarray(boards, dtype=np.uint8)
        rolls = np.ascontiguousarray(rolls, dtype=np.uint8)
        offsets, children = legal_positions(boards, rolls, mover_view=True, validate=False, threads=1)
        n = len(boards)
        out = np.zeros(n, dtype=np.int64)
        counts = np.diff(offsets)
        ask = np.flatnonzero(counts > 1)            # a forced play (or none) needs no engine
        if not len(ask):
            return out
        sage = to_bgsage(boards[ask]).tolist()
        dice = rolls[ask].tolist()
        chosen = [self.best_board(b, d1, d2) for b, (d1, d2) in zip(sage, dice)]
        # bgsage's boards after its play are from the mover's view, as the
        # children with mover_view: row 1 the side that moved.
        target = np.zeros((n, 2, 25), dtype=np.uint8)
        target[ask] = from_bgsage(np.array(chosen))
        owner = np.repeat(np.arange(n), counts)
        asked = np.zeros(n, dtype=bool)
        asked[ask] = True
        same = (children == target[owner]).all(axis=(1, 2)) & asked[owner]
        hits = np.flatnonzero(same)
        found = np.zeros(n, dtype=bool)
        found[owner[hits]] = True
        out[owner[hits]] = hits - offsets[owner[hits]]
        for k in np.flatnonzero(asked & ~found):
            out[k] = self._same_ending(k, children[offsets[k]:offsets[k + 1]], target[k], rolls[k])
        return out

    def _same_ending(self, k, children, target, roll) -> int:
        score = int(_endings(target[None])[0])
        if score:
            same = np.flatnonzero(_endings(children) == score)
            if len(same):
                self.endings += 1
                return int(same[0])
        raise RuntimeError(f"{self!r} chose {to_bgsage(target).tolist()} with {int(roll[0])}-{int(roll[1])}, "
                           f"which is not the result of a legal play (pair {k} of the batch)")

    # -- judgement ---------------------------------------------------------------------

    def _raw(self):
        if self._net is None:
            if self._analyzer is None:
                raise ValueError(f"{self!r} is closed")
            self._net = self._raw_net()
        return self._net

    def chances(self, boards) -> np.ndarray:
        """bgsage's 1-ply cubeless chances (n, 5) of the side on roll of
        boards (n, 2, 25) of games going on, before it rolls: the network's
        chances for the position as the opponent has just left it, seen by
        the side on roll (as bgsage's own cube analysis takes them)."""
        boards = np.asarray(boards, dtype=np.uint8).reshape(-1, 2, 25)
        flipped = to_bgsage(boards, after=True).tolist()
        with self._lock:
            evaluate = self._raw().evaluate_board
            p = np.array([evaluate(b, b)["probs"] for b in flipped], dtype=np.float64).reshape(-1, 5)
        # the opponent's chances after its play, seen by the side on roll
        return flip(p)

    def cube_action(self, position, state=None, rules=None):
        """bgsage's 1-ply cube decision of the side on roll (see the class)."""
        from .cube import CubeDecision, proper_action
        from .matchid import state_and_rules
        from .position import Position
        instance("position", position, Position, "backgammon.Position")
        state, rules = state_and_rules(state, rules)
        if position.is_game_over():
            raise ValueError("position: the game is over, there is no cube decision")
        cpp = self._cpp
        me, cube = state.on_roll, state.cube_value
        owner = "centred" if state.cube_owner is None else "me" if state.cube_owner == me else "opponent"
        money = state.match_length == 0
        if not money:
            rules.check_match_play()
        reason = may_double(state, rules).reason        # the one rule (doubling)
        probs = self.chances(position.array[None])[0]
        board = to_bgsage(position.array).tolist()
        x = cpp.cube_efficiency(probs.tolist(), cpp.is_race(board), *cpp.pip_counts(board))
        cube_owner = {"centred": cpp.CubeOwner.CENTERED, "me": cpp.CubeOwner.PLAYER,
                      "opponent": cpp.CubeOwner.OPPONENT}[owner]
        mwc = None
        if money:
            jacoby = not state_gammons_count(state, rules)
            d = cpp.cube_decision_1ply(probs.tolist(), cube, cube_owner, x, 0, 0, False, jacoby)
        else:
            away = (state.match_length - state.score[me], state.match_length - state.score[1 - me])
            d = cpp.cube_decision_1ply(probs.tolist(), cube, cube_owner, x, away[0], away[1], state.crawford, False)
        nd, dt, dp = float(d.equity_nd), float(d.equity_dt), float(d.equity_dp)
        if not money:
            mwc = tuple(float(cpp.eq2mwc(e, away[0], away[1], cube, state.crawford)) for e in (nd, dt, dp))
        action, take = proper_action(nd, dt, dp, beavers_allowed(money, rules))
        chances = tuple(float(v) for v in probs)
        if reason:
            return CubeDecision("no double", nd, dt, dp, take, False, reason, chances, mwc, False)
        return CubeDecision(action, nd, dt, dp, take, True, "", chances, mwc, False)

    def close(self) -> None:
        self._net = self._analyzer = None


def _rebuild(level, threads, seed):
    return BgsagePlayer(level, threads=threads, seed=seed)


def bgsage_player(arg, seed=None) -> BgsagePlayer:
    """The factory of ``player("bgsage")`` and ``player("bgsage:LEVEL")``
    (registered through the ``backgammon.players`` entry point)."""
    if arg is not None and arg not in LEVELS:
        raise ValueError(f"spec must be bgsage or bgsage:LEVEL with LEVEL one of {', '.join(LEVELS)}, "
                         f"not {'bgsage:' + str(arg)!r}")
    return BgsagePlayer(arg or "1ply", seed=seed)
