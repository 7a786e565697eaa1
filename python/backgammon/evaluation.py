"""Cubeless evaluation of positions: the five chances of the side on roll.

The chances are gnubg's five outputs: win, win a gammon, win a backgammon,
lose a gammon, lose a backgammon, where gammons include backgammons.  The
cubeless money equity is ``2 win - 1 + win_gammon - lose_gammon +
win_backgammon - lose_backgammon``.  Contact and race positions go to the
project's networks (docs/evaluation.md), races with every checker home to
the bear-off tables, finished positions to their exact result.  ``ply``
searches deeper: each ply averages over the 21 rolls of the side to move,
each with its best play at 0-ply.

>>> import backgammon as bg
>>> e = evaluate(bg.Position.initial())
>>> 0.45 < e.win < 0.6 and e.win_gammon < e.win
True
"""
from __future__ import annotations

from typing import NamedTuple, overload

import numpy as np
import numpy.typing as npt

from ._validate import integer
from .position import Position
from .scoring import equity

__all__ = ["evaluate", "Evaluation", "Evaluations", "equity", "MAX_PLY"]

#: The deepest search ``evaluate`` offers (3-ply takes about a second a position).
MAX_PLY = 3


class Evaluation(NamedTuple):
    """The chances of the side on roll and its cubeless money equity.

    Gammons include backgammons, as in gnubg's five outputs.

    Attributes
    ----------
    win, win_gammon, win_backgammon : float
        The chances of winning, winning a gammon or a backgammon.
    lose_gammon, lose_backgammon : float
        The chances of losing a gammon or a backgammon.
    equity : float
        ``2 win - 1 + win_gammon - lose_gammon + win_backgammon -
        lose_backgammon``, from -3 to +3.
    lose : float
        ``1 - win``.
    probabilities : tuple of float
        The five chances, in the order above.

    Examples
    --------
    >>> import backgammon as bg
    >>> e = bg.evaluate(bg.Position.initial())
    >>> round(e.win, 2), round(e.win_gammon, 2), round(e.equity, 2)
    (0.53, 0.14, 0.08)
    """

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    equity: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def probabilities(self) -> tuple[float, float, float, float, float]:
        return (self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon)


class Evaluations(NamedTuple):
    """The chances of many positions, as arrays.

    Attributes
    ----------
    probabilities : numpy.ndarray
        (n, 5): each position's chances, in :class:`Evaluation`'s order.
    equity : numpy.ndarray
        (n,): each position's cubeless equity.

    Examples
    --------
    >>> import backgammon as bg
    >>> es = bg.evaluate(bg.Position.initial().legal_plays("31").positions)
    >>> es.probabilities.shape, es.equity.shape
    ((16, 5), (16,))
    """

    probabilities: np.ndarray
    equity: np.ndarray


@overload
def evaluate(x: Position, ply: int = ..., *, evaluator: object = ..., networks: object = ...,
             threads: int | None = ..., dtype: npt.DTypeLike = ..., out: None = ...) -> Evaluation: ...
@overload
def evaluate(x: npt.ArrayLike, ply: int = ..., *, evaluator: object = ..., networks: object = ...,
             threads: int | None = ..., dtype: npt.DTypeLike = ..., out: np.ndarray | None = ...) -> Evaluations: ...
def evaluate(x, ply=0, *, evaluator=None, networks=None, threads=None, dtype=np.float64, out=None):
    """The cubeless chances of the side on roll of one position or many.

    Contact and race positions go to the shipped networks, races with
    every checker home to the bear-off tables, finished positions to their
    exact result.  Each ply of search averages over the 21 rolls of the
    side to move, each with its best play.

    Parameters
    ----------
    x : Position or array_like
        A :class:`~backgammon.position.Position`, or boards (n, 2, 25)
        in the package's layout (``Plays.positions``, for one).
    ply : int, default 0
        The search depth, 0 to :data:`MAX_PLY` (3).
    evaluator : Evaluator, str or callable, optional
        Any evaluator (:mod:`backgammon.evaluator`): default the shipped
        networks; ``backgammon.network.load(path)``; a callable from
        boards to chances (n, 5).  ``networks`` is its older name.
    threads : int, optional
        Threads sharing a batch; default every core (the same result).
    dtype : numpy dtype, default float64
        A batch's dtype: float64, or float32 (the networks' own
        precision, no copy).
    out : numpy.ndarray, optional
        A writeable C-contiguous (n, 5) float32 or float64 array the
        chances are written into (its dtype rules): reuse it in loops.

    Returns
    -------
    Evaluation or Evaluations
        An :class:`Evaluation` for a Position, an :class:`Evaluations`
        for boards (its ``probabilities`` is ``out`` when given).

    Raises
    ------
    ValueError
        ``ply`` out of range, boards that are not positions, a ``dtype``
        or ``out`` of the wrong shape or type.
    TypeError
        ``out`` given with a Position, or not an array.

    See Also
    --------
    backgammon.hint.hint : the plays of a roll ranked.
    backgammon.cube.cube_decision : the cube decision from these chances.

    Examples
    --------
    >>> import backgammon as bg
    >>> round(evaluate(bg.Position.initial()).equity, 2)
    0.08
    >>> plays = bg.Position.initial().legal_plays("31")
    >>> after = plays.positions                 # the opponent on roll
    >>> str(plays[int(evaluate(after, ply=1).equity.argmin())])
    '8/5 6/5'
    >>> evaluate(after, dtype=np.float32).probabilities.dtype
    dtype('float32')
    """
    from .evaluator import as_evaluator, chances, is_kernel
    ply = integer("ply", ply, low=0, high=MAX_PLY)
    ev = as_evaluator(evaluator, networks=networks)
    if threads is not None:
        threads = integer("threads", threads, low=1)
    if isinstance(x, Position):
        if out is not None:
            raise TypeError("out is for batches of boards, not a Position")
        p = chances(ev, np.ascontiguousarray(x.array[None]), ply, 1)[0]
        return Evaluation._make((*map(float, p), float(equity(p))))
    from .batch import validate_boards
    boards = validate_boards(x)
    result = _output(out, dtype, len(boards))
    if is_kernel(ev):
        _kernel_chances(ev, boards, ply, threads, result)
    else:
        result[...] = chances(ev, boards, ply, threads)
    return Evaluations(result, equity(result).astype(result.dtype, copy=False))


def _output(out, dtype, n: int) -> np.ndarray:
    """The array a batch's chances go into: ``out`` when given (checked),
    else a new one of ``dtype``."""
    if out is None:
        dt = np.dtype(dtype)
        if dt not in (np.float32, np.float64):
            raise ValueError(f"dtype must be float32 or float64, not {dt}")
        return np.empty((n, 5), dtype=dt)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
    if out.shape != (n, 5) or out.dtype not in (np.float32, np.float64) or not out.flags.c_contiguous \
            or not out.flags.writeable:
        raise ValueError(f"out must be a writeable C-contiguous float32 or float64 array of shape ({n}, 5), "
                         f"not {out.dtype} {out.shape}")
    return out


def _kernel_chances(nets, boards: np.ndarray, ply: int, threads: int | None, out: np.ndarray) -> None:
    """The networks' search of each board written into ``out``, its rows
    split among threads (the same numbers for any number)."""
    from . import _net
    from ._parallel import cores, run_shared
    n = len(boards)
    k = min(threads or cores(), max(1, n // (256 if ply == 0 else 8)))
    if k > 1:
        cuts = np.linspace(0, n, k + 1).astype(int)
        if run_shared(lambda t: _net.evaluate(nets, boards[cuts[t]:cuts[t + 1]], ply,
                                              out[cuts[t]:cuts[t + 1]]), k) is not None:
            return
    _net.evaluate(nets, boards, ply, out)
