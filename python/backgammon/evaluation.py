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

from typing import NamedTuple

import numpy as np

from ._validate import integer
from .position import Position
from .scoring import equity

__all__ = ["evaluate", "Evaluation", "Evaluations", "equity", "MAX_PLY"]

#: The deepest search ``evaluate`` offers (3-ply takes about a second a position).
MAX_PLY = 3


class Evaluation(NamedTuple):
    """The chances of the side on roll and its cubeless money equity.

    >>> import backgammon as bg
    >>> e = bg.evaluate(bg.Position.initial())
    >>> round(e.win, 2), round(e.win_gammon, 2), round(e.equity, 2)
    (0.53, 0.13, 0.07)
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
    """Chances of many positions: ``probabilities`` (n, 5) and ``equity`` (n,).

    >>> import backgammon as bg
    >>> es = bg.evaluate(bg.Position.initial().legal_plays("31").positions)
    >>> es.probabilities.shape, es.equity.shape
    ((16, 5), (16,))
    """

    probabilities: np.ndarray
    equity: np.ndarray


def evaluate(x, ply: int = 0, *, evaluator=None, networks=None, threads: int | None = None):
    """The chances of the side on roll of a ``Position`` (an
    :class:`Evaluation`) or of boards (n, 2, 25) (an :class:`Evaluations`),
    searched ``ply`` plies deep (0 to 3).  ``evaluator``: any evaluator
    (``backgammon.evaluator``; default the shipped networks), such as
    ``backgammon.network.load(path)`` or a callable from boards to chances
    (``networks`` is its older name); ``threads``: how many threads share a
    batch (None: every core; the same result).

    >>> import backgammon as bg
    >>> round(evaluate(bg.Position.initial()).equity, 2)
    0.07
    >>> after = bg.Position.initial().legal_plays("31").positions      # the opponent on roll
    >>> str(bg.Position.initial().legal_plays("31")[int(evaluate(after, ply=1).equity.argmin())])
    '8/5 6/5'"""
    from .evaluator import as_evaluator, chances
    ply = integer("ply", ply, low=0, high=MAX_PLY)
    ev = as_evaluator(evaluator, networks=networks)
    if threads is not None:
        threads = integer("threads", threads, low=1)
    if isinstance(x, Position):
        p = chances(ev, np.ascontiguousarray(x.array[None]), ply, 1)[0]
        return Evaluation._make((*map(float, p), float(equity(p))))
    from .batch import validate_boards
    boards = validate_boards(x)
    p = chances(ev, boards, ply, threads)
    return Evaluations(p, equity(p))

