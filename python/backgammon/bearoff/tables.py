"""The one-sided and two-sided bear-off tables and their lookups.

>>> db = OneSidedDatabase.build()
>>> # one checker on the ace
>>> db.distribution((1, 0, 0, 0, 0, 0))[:2].tolist()
[0.0, 1.0]
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from .. import _bearoff
from ..position import ON_ROLL, OPPONENT, Position
from . import bdfile
from .bdfile import MAX_TWO_SIDED_CHECKERS, ONE_SIDED_CHECKERS, POINTS, ROLLS_KEPT, positions_up_to
from ..errors import BearoffFileError, OutsideDatabaseError

__all__ = ["OneSidedDatabase", "TwoSidedDatabase", "Equities", "position_index", "positions_up_to"]


def position_index(points):
    """GNU Backgammon's index of checker counts on points 1..6: an int for
    one position, an array of indices for a batch ((n, 6) counts or
    (n, 2, 25) boards, the side on roll), as the tables' lookups take them.

    >>> position_index((0, 0, 0, 0, 0, 0)), position_index((0, 0, 0, 0, 0, 1)), position_index((2, 0, 0, 0, 0, 0))
    (0, 6, 7)
    >>> position_index([(0, 0, 0, 0, 0, 1), (2, 0, 0, 0, 0, 0)]).tolist()
    [6, 7]
    """
    idx, scalar = _side_indices(points, ONE_SIDED_CHECKERS, None, "one-sided table")
    return int(idx[0]) if scalar else idx


def _points_array(points) -> np.ndarray:
    try:
        arr = np.asarray(points)
    except (TypeError, ValueError):
        raise OutsideDatabaseError(f"cannot read {points!r} as checker counts on points 1..6") from None
    if arr.shape != (POINTS,) or arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise OutsideDatabaseError(f"expected 6 checker counts for points 1..6, got {points!r}")
    if arr.min() < 0:
        raise OutsideDatabaseError("checker counts must not be negative")
    return arr.astype(np.uint8)


# -- lookups by position or side ---------------------------------------------------

def _side_indices(obj, checkers: int, side: int | None = None, what: str = "table"):
    """(indices, scalar?) for a 6-tuple, a Position and side, or a batch of
    either ((n, 6) counts or (n, 2, 25) boards with ``side``)."""
    if isinstance(obj, Position):
        obj, scalar = obj.array[None], True
        boards = True
    else:
        try:
            arr = np.asarray(obj)
        except (TypeError, ValueError):
            raise OutsideDatabaseError(f"cannot read {obj!r} as a bear-off position") from None
        scalar = arr.ndim == 1
        if arr.ndim == 1:
            arr = arr[None]
        boards = arr.ndim == 3
        obj = arr
    if boards:
        b = np.ascontiguousarray(obj)
        if b.shape[1:] != (2, 25) or not np.issubdtype(b.dtype, np.integer):
            raise OutsideDatabaseError(f"boards must be integer arrays of shape (n, 2, 25), got {b.shape}")
        row = ON_ROLL if side is None else side
        if b.dtype != np.uint8:
            if b.size and (b.min() < 0 or b.max() > 15):
                raise OutsideDatabaseError("checker counts must be 0 to 15")
            b = b.astype(np.uint8)
        idx = _bearoff.board_indices(b, row, checkers)
        _check(idx, checkers, what, f"row {row}")
    else:
        if obj.ndim != 2 or obj.shape[1] != POINTS or not np.issubdtype(obj.dtype, np.integer):
            shown = obj[0].tolist() if scalar and obj.ndim == 2 else obj.tolist()
            raise OutsideDatabaseError(f"expected 6 checker counts for points 1..6 (or a batch of shape (n, 6)), got {shown!r}")
        if obj.size and obj.min() < 0:
            raise OutsideDatabaseError("checker counts must not be negative")
        # Per-point bounds first, so that the totals below cannot overflow.
        if obj.size and obj.max() > checkers:
            bad = int(np.argmax((obj > checkers).any(axis=1)))
            raise OutsideDatabaseError(f"position {bad} has more than {checkers} checkers on a point; this {what} holds at most {checkers}")
        obj = obj.astype(np.int64)
        totals = obj.sum(axis=1)
        if totals.size and totals.max() > checkers:
            bad = int(np.argmax(totals > checkers))
            raise OutsideDatabaseError(f"{int(totals[bad])} checkers on position {bad}; this {what} holds at most {checkers}")
        idx = _bearoff.indices(np.ascontiguousarray(obj, dtype=np.uint8))
    return idx, scalar


def _check(idx: np.ndarray, checkers: int, what: str, side: str) -> None:
    if idx.size and idx.min() < 0:
        bad = int(np.argmin(idx))
        if idx[bad] == -1:
            raise OutsideDatabaseError(f"board {bad}, {side}: a checker is outside the home board or on the bar")
        raise OutsideDatabaseError(f"board {bad}, {side}: more than {checkers} checkers for this {what}")


class OneSidedDatabase:
    """Distributions of the rolls a side needs to bear off, per position.

    ``distribution(x)`` and friends take a 6-tuple of counts on points 1..6,
    a ``Position`` (with ``side`` = ON_ROLL or OPPONENT), or a batch: counts
    (n, 6) or boards (n, 2, 25); batches return arrays.
    """

    def __init__(self, dist: np.ndarray, gammon: np.ndarray | None, checkers: int = ONE_SIDED_CHECKERS):
        n = positions_up_to(checkers)
        if dist.shape != (n, ROLLS_KEPT) or (gammon is not None and gammon.shape != (n, ROLLS_KEPT)):
            raise BearoffFileError(f"a {checkers}-checker one-sided table has shape ({n}, 32)")
        self.checkers = checkers
        self.table = np.ascontiguousarray(dist, dtype=np.uint16)
        self.gammon_table = None if gammon is None else np.ascontiguousarray(gammon, dtype=np.uint16)
        self.table.flags.writeable = False
        if self.gammon_table is not None:
            self.gammon_table.flags.writeable = False
        i = np.arange(ROLLS_KEPT)
        p = self.table / 65535.0
        self.means = p @ i
        self.stds = np.sqrt(np.maximum(p @ (i * i) - self.means ** 2, 0.0))
        if self.gammon_table is not None:
            pg = self.gammon_table / 65535.0
            self.gammon_means = pg @ i
            self.gammon_stds = np.sqrt(np.maximum(pg @ (i * i) - self.gammon_means ** 2, 0.0))

    def __len__(self) -> int:
        return len(self.table)

    def index(self, x, side: int | None = None):
        """Table index (or indices) of a position."""
        idx, scalar = _side_indices(x, self.checkers, side, "one-sided table")
        return int(idx[0]) if scalar else idx

    def _rows(self, table, x, side):
        idx, scalar = _side_indices(x, self.checkers, side, "one-sided table")
        out = np.empty((len(idx), ROLLS_KEPT))
        _bearoff.gather_rows(table, idx, out)
        return out[0] if scalar else out

    def _values(self, values, x, side):
        idx, scalar = _side_indices(x, self.checkers, side, "one-sided table")
        out = np.empty(len(idx))
        _bearoff.gather(values, idx, out)
        return float(out[0]) if scalar else out

    def distribution(self, x, side: int | None = None) -> np.ndarray:
        """P(all checkers off in exactly i rolls), i = 0..31."""
        return self._rows(self.table, x, side)

    def gammon_distribution(self, x, side: int | None = None) -> np.ndarray:
        """P(the first checker off in exactly i rolls), i = 0..31."""
        self._need_gammon()
        return self._rows(self.gammon_table, x, side)

    def expected_rolls(self, x, side: int | None = None):
        """Mean number of rolls to bear off all checkers."""
        return self._values(self.means, x, side)

    def rolls_std(self, x, side: int | None = None):
        """Standard deviation of the number of rolls to bear off."""
        return self._values(self.stds, x, side)

    def expected_gammon_rolls(self, x, side: int | None = None):
        """Mean number of rolls to bear off the first checker."""
        self._need_gammon()
        return self._values(self.gammon_means, x, side)

    def gammon_rolls_std(self, x, side: int | None = None):
        self._need_gammon()
        return self._values(self.gammon_stds, x, side)

    def _need_gammon(self):
        if self.gammon_table is None:
            raise OutsideDatabaseError("this one-sided table was read without gammon distributions")

    # -- GNU Backgammon's .bd format --------------------------------------------
    def to_bytes(self, compressed: bool = True) -> bytes:
        """The table in GNU Backgammon's one-sided ``.bd`` format."""
        return bdfile.write_one_sided(self, compressed)

    def save(self, path, compressed: bool = True) -> Path:
        """Write the ``.bd`` file (atomically) and return its path."""
        return bdfile.write_atomic(Path(path), self.to_bytes(compressed))

    @classmethod
    def from_bytes(cls, raw: bytes) -> "OneSidedDatabase":
        """Read GNU Backgammon's one-sided ``.bd`` format (either variant)."""
        return cls(*bdfile.read_one_sided(raw))

    @classmethod
    def load(cls, path) -> "OneSidedDatabase":
        return cls.from_bytes(Path(path).read_bytes())

    @classmethod
    def build(cls) -> "OneSidedDatabase":
        """Compute the 15-checker table (about a quarter of a second)."""
        n = positions_up_to(ONE_SIDED_CHECKERS)
        dist = np.zeros((n, ROLLS_KEPT), dtype=np.uint16)
        gammon = np.zeros((n, ROLLS_KEPT), dtype=np.uint16)
        _bearoff.build_one_sided(dist, gammon)
        return cls(dist, gammon)


class Equities(NamedTuple):
    """Money equities of the side on roll, per unit of the cube (GNU
    Backgammon's definitions; the side on roll's own double is not counted)."""

    cubeless: float
    owned: float            # the side on roll owns the cube
    centred: float
    opponent_owns: float


class TwoSidedDatabase:
    """Exact equities of every pair of sides with up to N checkers each.

    Records are indexed ``on_roll * P + opponent`` with four fields:
    cubeless equity and cubeful money equity with the cube owned by the side
    on roll, centred, and owned by the opponent, as 16-bit fixed point
    (``u / 32767.5 - 1``).
    """

    def __init__(self, records: np.ndarray, checkers: int):
        n = positions_up_to(checkers)
        if records.shape != (n * n, 4):
            raise BearoffFileError(f"a {checkers}-checker two-sided table has shape ({n * n}, 4)")
        self.checkers = checkers
        self.positions = n
        self.records = np.ascontiguousarray(records, dtype=np.uint16)
        self.records.flags.writeable = False

    def _pair(self, x):
        if isinstance(x, Position):
            boards, scalar = x.array[None], True
        else:
            boards = np.asarray(x)
            scalar = False
            if boards.ndim != 3:
                raise OutsideDatabaseError(f"expected a Position or boards of shape (n, 2, 25), got shape {boards.shape}")
        me, _ = _side_indices(boards, self.checkers, ON_ROLL, f"{self.checkers}-checker two-sided table")
        opp, _ = _side_indices(boards, self.checkers, OPPONENT, f"{self.checkers}-checker two-sided table")
        return me.astype(np.int64) * self.positions + opp, scalar

    def equities(self, x):
        """Equities of a Position (an ``Equities``) or of boards (n, 2, 25) -> (n, 4)."""
        rec, scalar = self._pair(x)
        values = self.records[rec] / 32767.5 - 1.0
        return Equities(*map(float, values[0])) if scalar else values

    def win_probability(self, x):
        """Cubeless chance that the side on roll wins (no gammons are possible)."""
        rec, scalar = self._pair(x)
        p = self.records[rec, 0] / 65535.0
        return float(p[0]) if scalar else p

    def to_bytes(self) -> bytes:
        """The table in GNU Backgammon's two-sided ``.bd`` format."""
        return bdfile.write_two_sided(self)

    def save(self, path) -> Path:
        return bdfile.write_atomic(Path(path), self.to_bytes())

    @classmethod
    def from_bytes(cls, raw: bytes) -> "TwoSidedDatabase":
        """Read GNU Backgammon's two-sided ``.bd`` format."""
        return cls(*bdfile.read_two_sided(raw))

    @classmethod
    def load(cls, path) -> "TwoSidedDatabase":
        return cls.from_bytes(Path(path).read_bytes())

    @classmethod
    def build(cls, checkers: int = 6) -> "TwoSidedDatabase":
        """Compute the table for up to ``checkers`` checkers a side."""
        if not 1 <= checkers <= MAX_TWO_SIDED_CHECKERS:
            raise ValueError(f"two-sided tables are built for 1 to {MAX_TWO_SIDED_CHECKERS} checkers, not {checkers}")
        n = positions_up_to(checkers)
        records = np.zeros((n * n, 4), dtype=np.uint16)
        _bearoff.build_two_sided(checkers, records)
        return cls(records, checkers)


