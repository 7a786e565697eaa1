"""Bear-off databases: exact race tables for the end of the game.

A side is *in bear-off* when all its remaining checkers are on its home
points 1..6.  The one-sided database gives, for every such side of up to 15
checkers, the chance of bearing off all of them in exactly i rolls (and of
bearing off the first one, for gammons); the two-sided database gives the
exact equities of every pair of sides with up to N checkers each.  Both equal
GNU Backgammon's files entry for entry and read and write its ``.bd`` format.

>>> db = one_sided()
>>> db.distribution((1, 0, 0, 0, 0, 0))[:2].tolist()       # one checker on the ace
[0.0, 1.0]
>>> round(float(db.distribution((0, 0, 0, 0, 0, 1))[1]), 4)   # on the 6-point: 27/36
0.75
>>> round(two_sided().win_probability(Position.from_id("AQAAAAAAAAAAAA")), 4)
1.0
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import _bearoff
from .position import ON_ROLL, OPPONENT, Position

__all__ = [
    "OneSidedDatabase", "TwoSidedDatabase", "Equities", "OutsideDatabaseError", "BearoffFileError",
    "one_sided", "two_sided", "build", "race_win_probability", "cache_dir", "position_index",
]

POINTS = 6
ROLLS_KEPT = 32
ONE_SIDED_CHECKERS = 15
MAX_TWO_SIDED_CHECKERS = 9


class OutsideDatabaseError(ValueError):
    """A position that a bear-off table does not hold, and why."""


class BearoffFileError(ValueError):
    """A bear-off file that is not in GNU Backgammon's ``.bd`` format."""


def positions_up_to(checkers: int) -> int:
    """Number of one-sided positions with at most ``checkers`` checkers."""
    from math import comb
    return comb(checkers + POINTS, POINTS)


def position_index(points) -> int:
    """GNU Backgammon's index of checker counts on points 1..6.

    >>> position_index((0, 0, 0, 0, 0, 0)), position_index((0, 0, 0, 0, 0, 1)), position_index((2, 0, 0, 0, 0, 0))
    (0, 6, 7)
    """
    idx, _ = _side_indices(points, ONE_SIDED_CHECKERS, None, "one-sided table")
    return int(idx[0])


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
        gammon = self.gammon_table is not None
        header = f"gnubg-OS-{POINTS:02d}-{self.checkers:02d}-{int(gammon)}-{int(compressed)}-0".encode()
        header = header.ljust(39, b"x") + b"\n"
        if not compressed:
            rows = self.table if not gammon else np.concatenate([self.table, self.gammon_table], axis=1)
            return header + rows.astype("<u2").tobytes()
        tables = [self.table] + ([self.gammon_table] if gammon else [])
        spans = []
        for t in tables:
            nonzero = t != 0
            first = np.argmax(nonzero, axis=1)
            last = ROLLS_KEPT - 1 - np.argmax(nonzero[:, ::-1], axis=1)
            spans.append((first, last - first + 1))
        lengths = sum(n for _, n in spans)
        offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype("<u4")
        index = np.zeros((len(self.table), 8 if gammon else 6), dtype=np.uint8)
        index[:, :4] = offsets.view(np.uint8).reshape(-1, 4)
        index[:, 4] = spans[0][1]
        index[:, 5] = spans[0][0]
        if gammon:
            index[:, 6] = spans[1][1]
            index[:, 7] = spans[1][0]
        # The runs, row by row: the distribution's, then the gammon one's.
        col = np.arange(ROLLS_KEPT)
        pieces = []
        for t, (first, n) in zip(tables, spans):
            pieces.append((t, (col >= first[:, None]) & (col < (first + n)[:, None])))
        if gammon:
            data = np.concatenate([pieces[0][0], pieces[1][0]], axis=1)[
                np.concatenate([pieces[0][1], pieces[1][1]], axis=1)]
        else:
            data = pieces[0][0][pieces[0][1]]
        return header + index.tobytes() + data.astype("<u2").tobytes()

    def save(self, path, compressed: bool = True) -> Path:
        """Write the ``.bd`` file (atomically) and return its path."""
        return _write_atomic(Path(path), self.to_bytes(compressed))

    @classmethod
    def from_bytes(cls, raw: bytes) -> "OneSidedDatabase":
        """Read GNU Backgammon's one-sided ``.bd`` format (either variant)."""
        head = _header(raw, b"gnubg-OS-")
        try:
            points, checkers = int(head[9:11]), int(head[12:14])
            gammon, compressed, normal = int(head[15:16]), int(head[17:18]), int(head[19:20])
        except ValueError:
            raise BearoffFileError(f"unreadable one-sided header {head!r}") from None
        if points != POINTS or not 1 <= checkers <= ONE_SIDED_CHECKERS:
            raise BearoffFileError(f"only {POINTS}-point tables of up to 15 checkers are supported, not {head!r}")
        if normal:
            raise BearoffFileError("normal-approximation one-sided tables are not supported")
        n = positions_up_to(checkers)
        body = raw[40:]
        width = ROLLS_KEPT * (2 if gammon else 1)
        if not compressed:
            if len(body) != n * width * 2:
                raise BearoffFileError(f"a one-sided table of {n} positions has {n * width * 2} bytes after the header, not {len(body)}")
            rows = np.frombuffer(body, dtype="<u2").reshape(n, width).astype(np.uint16)
        else:
            entry = 8 if gammon else 6
            if len(body) < n * entry:
                raise BearoffFileError("the compressed one-sided index is truncated")
            index = np.frombuffer(body, dtype=np.uint8, count=n * entry).reshape(n, entry)
            data = np.frombuffer(body[n * entry:], dtype="<u2") if (len(body) - n * entry) % 2 == 0 else None
            if data is None:
                raise BearoffFileError("the compressed one-sided data has an odd length")
            offsets = index[:, :4].copy().view("<u4")[:, 0].astype(np.int64)
            spans = [(index[:, 5].astype(np.int64), index[:, 4].astype(np.int64))]
            if gammon:
                spans.append((index[:, 7].astype(np.int64), index[:, 6].astype(np.int64)))
            rows = np.zeros((n, width), dtype=np.uint16)
            start = offsets.copy()
            for k, (first, count) in enumerate(spans):
                if (first + count > ROLLS_KEPT).any() or (start + count > len(data)).any():
                    raise BearoffFileError("a compressed one-sided run points outside the table")
                col = np.arange(ROLLS_KEPT)
                mask = (col >= first[:, None]) & (col < (first + count)[:, None])
                src = (start[:, None] + (col - first[:, None]))[mask]
                block = rows[:, k * ROLLS_KEPT:(k + 1) * ROLLS_KEPT]
                block[mask] = data[src]
                start = start + count
        dist = rows[:, :ROLLS_KEPT]
        gam = rows[:, ROLLS_KEPT:] if gammon else None
        sums = dist.astype(np.int64).sum(axis=1)
        if (sums != 65535).any():
            raise BearoffFileError("a one-sided distribution does not sum to 65535: the file is corrupt")
        return cls(dist, gam, checkers)

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
        header = f"gnubg-TS-{POINTS:02d}-{self.checkers:02d}-1".encode().ljust(39, b"x") + b"\n"
        return header + self.records.astype("<u2").tobytes()

    def save(self, path) -> Path:
        return _write_atomic(Path(path), self.to_bytes())

    @classmethod
    def from_bytes(cls, raw: bytes) -> "TwoSidedDatabase":
        head = _header(raw, b"gnubg-TS-")
        try:
            points, checkers, cubeful = int(head[9:11]), int(head[12:14]), int(head[15:16])
        except ValueError:
            raise BearoffFileError(f"unreadable two-sided header {head!r}") from None
        if points != POINTS or not 1 <= checkers <= MAX_TWO_SIDED_CHECKERS:
            raise BearoffFileError(f"unsupported two-sided table {head!r}")
        if not cubeful:
            raise BearoffFileError("two-sided tables without cubeful equities are not supported")
        n = positions_up_to(checkers)
        body = raw[40:]
        if len(body) != n * n * 8:
            raise BearoffFileError(f"a {checkers}-checker two-sided table has {n * n * 8} bytes after the header, not {len(body)}")
        return cls(np.frombuffer(body, dtype="<u2").reshape(n * n, 4).astype(np.uint16), checkers)

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


def _header(raw: bytes, magic: bytes) -> bytes:
    if len(raw) < 40 or not raw.startswith(magic):
        raise BearoffFileError(f"not a GNU Backgammon bear-off file (expected a header starting {magic.decode()!r})")
    return raw[:40]


def _write_atomic(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)   # mkstemp makes it private
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


# -- the cache ---------------------------------------------------------------------

def cache_dir() -> Path:
    """Where built tables are kept: $BACKGAMMON_CACHE_DIR, else the user cache directory."""
    env = os.environ.get("BACKGAMMON_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs
    return Path(platformdirs.user_cache_dir("backgammon"))


_CACHE_VERSION = b"1"


def _cached(name: str, build, read):
    """Read ``name`` from the cache if its checksum matches, else build it
    and (if the directory is writable) store it with its checksum."""
    path = cache_dir() / name
    check = path.with_name(path.name + ".sha256")
    try:
        raw = path.read_bytes()
        want = check.read_text().strip()
        if hashlib.sha256(_CACHE_VERSION + raw).hexdigest() == want:
            return read(raw)
    except (OSError, ValueError):
        pass   # missing, unreadable or corrupt: rebuilt below
    db, raw = build()
    try:
        _write_atomic(path, raw)
        _write_atomic(check, hashlib.sha256(_CACHE_VERSION + raw).hexdigest().encode())
    except OSError:
        pass   # a read-only cache only costs the build next time
    return db


_memo: dict = {}


def one_sided() -> OneSidedDatabase:
    """The 15-checker one-sided table, built on first use and cached."""
    if "os" not in _memo:
        def make():
            db = OneSidedDatabase.build()
            return db, db.to_bytes(compressed=False)
        _memo["os"] = _cached("gnubg_os_6_15.bd", make, OneSidedDatabase.from_bytes)
    return _memo["os"]


def two_sided(checkers: int = 6) -> TwoSidedDatabase:
    """The two-sided table for up to ``checkers`` a side, built on first use and cached."""
    if isinstance(checkers, bool) or not isinstance(checkers, int) or not 1 <= checkers <= MAX_TWO_SIDED_CHECKERS:
        raise ValueError(f"two-sided tables hold 1 to {MAX_TWO_SIDED_CHECKERS} checkers a side, not {checkers!r}")
    key = ("ts", checkers)
    if key not in _memo:
        def make():
            db = TwoSidedDatabase.build(checkers)
            return db, db.to_bytes()
        _memo[key] = _cached(f"gnubg_ts_6_{checkers}.bd", make, TwoSidedDatabase.from_bytes)
    return _memo[key]


def build(path, kind: str = "one-sided", *, checkers: int | None = None, compressed: bool = True) -> Path:
    """Build a table and write it to ``path`` in GNU Backgammon's format.

    ``kind`` is ``"one-sided"`` (15 checkers; ``compressed`` picks the
    variant) or ``"two-sided"`` (``checkers`` a side, default 6).
    """
    if kind == "one-sided":
        if checkers not in (None, ONE_SIDED_CHECKERS):
            raise ValueError("the one-sided table is built for 15 checkers")
        return OneSidedDatabase.build().save(path, compressed=compressed)
    if kind == "two-sided":
        return TwoSidedDatabase.build(6 if checkers is None else checkers).save(path)
    raise ValueError(f"kind must be 'one-sided' or 'two-sided', not {kind!r}")


def race_win_probability(position: Position) -> float:
    """Cubeless chance that the side on roll wins a race in which both sides
    are bearing off: exact from the two-sided table when both fit in it,
    otherwise from the two one-sided distributions (the side on roll wins
    when it needs no more rolls than the opponent).  The kernel that the
    rollouts use computes it.
    """
    from . import _rollout
    if not isinstance(position, Position):
        raise TypeError("race_win_probability needs a Position")
    os_db = one_sided()
    os_db.index(position, ON_ROLL)       # says why a side is outside the table
    os_db.index(position, OPPONENT)
    ts = two_sided()
    board = np.ascontiguousarray(position.array[None])
    chances = _rollout.bearoff_estimates(board, os_db.table, os_db.gammon_table, ts.records, ts.checkers)
    return float(chances[0, 0])
