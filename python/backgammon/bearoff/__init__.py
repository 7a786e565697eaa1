"""Bear-off databases: exact race tables for the end of the game.

A side is *in bear-off* when all its remaining checkers are on its home
points 1..6.  The one-sided database gives, for every such side of up to 15
checkers, the chance of bearing off all of them in exactly i rolls (and of
bearing off the first one, for gammons); the two-sided database gives the
exact equities of every pair of sides with up to N checkers each.  Both equal
GNU Backgammon's files entry for entry and read and write its ``.bd`` format
(``bdfile``); built tables are cached (``cache``).

>>> db = one_sided()
>>> # one checker on the ace
>>> db.distribution((1, 0, 0, 0, 0, 0))[:2].tolist()
[0.0, 1.0]
>>> # the 6-point: 27/36
>>> round(float(db.distribution((0, 0, 0, 0, 0, 1))[1]), 4)
0.75
>>> race_chances(Position.from_id("AQAAAAAAAAAAAA"))
RaceChances(win=1.0, win_gammon=0.0, lose_gammon=0.0)
"""
from __future__ import annotations

from typing import Literal, NamedTuple, overload

import numpy as np
import numpy.typing as npt

from .. import _bearoff
from ..position import Position
from .cache import build, cache_dir, one_sided, two_sided
from ..errors import BearoffFileError, OutsideDatabaseError
from .tables import Equities, OneSidedDatabase, TwoSidedDatabase, position_index, positions_up_to

__all__ = [
    "OneSidedDatabase", "TwoSidedDatabase", "Equities", "OutsideDatabaseError", "BearoffFileError",
    "one_sided", "two_sided", "build", "race_chances", "all_home", "RaceChances", "race_win_probability", "cache_dir",
    "position_index", "positions_up_to", "kernel_tables",
]


class RaceChances(NamedTuple):
    """Cubeless chances of the side on roll in a bear-off race (no
    backgammon is possible once both sides are home).

    Attributes
    ----------
    win, win_gammon, lose_gammon : float
        The chances of winning, winning a gammon, losing a gammon.

    Examples
    --------
    >>> race_chances(Position.from_id("AQAAAAAAAAAAAA")).win
    1.0
    """

    win: float
    win_gammon: float
    lose_gammon: float


@overload
def race_chances(x: Position) -> RaceChances: ...
@overload
def race_chances(x: npt.ArrayLike, *, dtype: npt.DTypeLike = ..., out: np.ndarray | None = ...,
                 outside: Literal["raise", "nan"] = ...) -> np.ndarray: ...
def race_chances(x, *, dtype=np.float64, out=None, outside="raise"):
    """The exact race chances of the side on roll when both sides have every
    checker home: win, win gammon, lose gammon.

    The win is exact from the two-sided table when both sides fit in it,
    otherwise from the two one-sided distributions (the side on roll wins
    when it needs no more rolls; it rolls first); gammons come from the
    one-sided gammon distributions.

    Parameters
    ----------
    x : Position or array_like
        A position, or boards (n, 2, 25).
    dtype : numpy dtype, default float64
        A batch's dtype, float64 or float32.
    out : numpy.ndarray, optional
        A C-contiguous (n, 3) float32 or float64 array to write into (and
        return).
    outside : {"raise", "nan"}, default "raise"
        What a board with a checker outside a home board gives: an
        error, or a row of NaN (:func:`all_home` is the mask of the rows
        answered).

    Returns
    -------
    RaceChances or numpy.ndarray
        A :class:`RaceChances` for a Position, an (n, 3) array for boards.

    Raises
    ------
    OutsideDatabaseError
        A checker outside a home board (or on the bar), naming the board.
    TypeError
        ``out`` or ``outside`` given with a Position.

    Examples
    --------
    >>> import numpy as np
    >>> board = np.zeros((1, 2, 25), dtype=np.uint8)
    >>> board[0, :, 5] = 1                     # one checker on each 6-point
    >>> race_chances(board).round(4).tolist()
    [[0.8125, 0.0, 0.0]]
    >>> mixed = np.stack([board[0], Position.initial().array])
    >>> race_chances(mixed, outside="nan", dtype=np.float32).round(4).tolist()
    [[0.8125, 0.0, 0.0], [nan, nan, nan]]
    """
    from ..batch import validate_boards
    scalar = isinstance(x, Position)
    if scalar and (out is not None or outside != "raise"):
        raise TypeError("out and outside are for batches of boards, not a Position")
    if outside not in ("raise", "nan"):
        raise ValueError(f"outside must be 'raise' or 'nan', not {outside!r}")
    boards = np.ascontiguousarray(x.array[None]) if scalar else validate_boards(x)
    if outside == "raise":
        mask = all_home(boards)
        if not mask.all():
            raise OutsideDatabaseError(f"board {int(np.argmin(mask))}: a checker is outside the home board or "
                                       f"on the bar")
    if out is None:
        dt = np.dtype(dtype)
        if dt not in (np.float32, np.float64):
            raise ValueError(f"dtype must be float32 or float64, not {dt}")
        out = np.empty((len(boards), 3), dtype=dt)
    chances = _bearoff.race_estimates(boards, **kernel_tables(), nan=True, out=out)
    return RaceChances(*map(float, chances[0])) if scalar else chances


def all_home(boards) -> np.ndarray:
    """Whether each board (n, 2, 25) has every checker of both sides on
    their home points or borne off: the positions :func:`race_chances`
    answers, a bool array (n,).

    >>> import numpy as np
    >>> last = Position.from_id("AQAAAAAAAAAAAA")   # one checker left, on the ace
    >>> boards = np.stack([Position.initial().array, last.array])
    >>> all_home(boards).tolist()
    [False, True]
    """
    from .. import _board
    from ..batch import validate_boards
    return _board.all_home(validate_boards(boards))


def kernel_tables() -> dict:
    """The tables as the kernels take them (keyword arguments of the game
    loop and the race estimates): one_sided, gammon, two_sided,
    two_sided_checkers."""
    os_db = one_sided()
    ts = two_sided()
    return dict(one_sided=os_db.table, gammon=os_db.gammon_table, two_sided=ts.records,
                two_sided_checkers=ts.checkers)


def race_win_probability(position: Position) -> float:
    """The same as ``race_chances(position).win`` (the name older code uses).

    Examples
    --------
    >>> race_win_probability(Position.from_id("AQAAAAAAAAAAAA"))
    1.0
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a backgammon.Position, not {type(position).__name__}")
    return race_chances(position).win
