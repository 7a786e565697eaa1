"""Bear-off databases: exact race tables for the end of the game.

A side is *in bear-off* when all its remaining checkers are on its home
points 1..6.  The one-sided database gives, for every such side of up to 15
checkers, the chance of bearing off all of them in exactly i rolls (and of
bearing off the first one, for gammons); the two-sided database gives the
exact equities of every pair of sides with up to N checkers each.  Both equal
GNU Backgammon's files entry for entry and read and write its ``.bd`` format
(``bdfile``); built tables are cached (``cache``).

>>> db = one_sided()
>>> db.distribution((1, 0, 0, 0, 0, 0))[:2].tolist()       # one checker on the ace
[0.0, 1.0]
>>> round(float(db.distribution((0, 0, 0, 0, 0, 1))[1]), 4)   # on the 6-point: 27/36
0.75
>>> race_chances(Position.from_id("AQAAAAAAAAAAAA"))
RaceChances(win=1.0, win_gammon=0.0, lose_gammon=0.0)
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _bearoff
from ..position import Position
from .cache import build, cache_dir, one_sided, two_sided
from ..errors import BearoffFileError, OutsideDatabaseError
from .tables import Equities, OneSidedDatabase, TwoSidedDatabase, position_index, positions_up_to

__all__ = [
    "OneSidedDatabase", "TwoSidedDatabase", "Equities", "OutsideDatabaseError", "BearoffFileError",
    "one_sided", "two_sided", "build", "race_chances", "RaceChances", "race_win_probability", "cache_dir",
    "position_index", "positions_up_to", "kernel_tables",
]


class RaceChances(NamedTuple):
    """Cubeless chances of the side on roll in a bear-off race (no
    backgammon is possible once both sides are home)."""

    win: float
    win_gammon: float
    lose_gammon: float


def race_chances(x):
    """The chances of the side on roll when both sides have every checker
    home: win, win gammon, lose gammon.  The win is exact from the two-sided
    table when both sides fit in it, otherwise from the two one-sided
    distributions (the side on roll wins when it needs no more rolls; it
    rolls first); gammons come from the one-sided gammon distributions.

    ``x`` is a ``Position`` (gives a :class:`RaceChances`) or boards
    (n, 2, 25) (gives an (n, 3) float array).  A position with a checker
    outside a home board raises :class:`OutsideDatabaseError` naming it.

    >>> import numpy as np
    >>> board = np.zeros((1, 2, 25), dtype=np.uint8); board[0, :, 5] = 1   # one on each 6-point
    >>> race_chances(board).round(4).tolist()
    [[0.8125, 0.0, 0.0]]
    """
    from ..batch import validate_boards
    scalar = isinstance(x, Position)
    boards = np.ascontiguousarray(x.array[None]) if scalar else validate_boards(x)
    outside = ~_board_all_home(boards)
    if outside.any():
        raise OutsideDatabaseError(f"board {int(np.argmax(outside))}: a checker is outside the home board or on the bar")
    chances = _bearoff.race_estimates(boards, **kernel_tables())
    return RaceChances(*map(float, chances[0])) if scalar else chances


def kernel_tables() -> dict:
    """The tables as the kernels take them (keyword arguments of the game
    loop and the race estimates): one_sided, gammon, two_sided,
    two_sided_checkers."""
    os_db = one_sided()
    ts = two_sided()
    return dict(one_sided=os_db.table, gammon=os_db.gammon_table, two_sided=ts.records,
                two_sided_checkers=ts.checkers)


def _board_all_home(boards):
    from .. import _board
    return _board.all_home(boards)


def race_win_probability(position: Position) -> float:
    """The same as ``race_chances(position).win`` (the name older code uses)."""
    if not isinstance(position, Position):
        raise TypeError(f"position must be a backgammon.Position, not {type(position).__name__}")
    return race_chances(position).win
