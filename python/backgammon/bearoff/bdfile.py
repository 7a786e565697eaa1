"""GNU Backgammon's ``.bd`` bear-off file format (REFERENCES, "GNU bear-off
databases"): one-sided tables, plain or compressed, and two-sided tables,
read and written byte for byte as gnubg does."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .. import _validate
from .._files import write_atomically
from ..errors import BearoffFileError

__all__ = ["write_one_sided", "read_one_sided", "write_two_sided", "read_two_sided", "write_atomic"]

POINTS = 6
ROLLS_KEPT = 32
ONE_SIDED_CHECKERS = 15
MAX_TWO_SIDED_CHECKERS = 9


def positions_up_to(checkers: int) -> int:
    """Number of one-sided positions with at most ``checkers`` checkers."""
    from math import comb
    return comb(checkers + POINTS, POINTS)


def _database(name: str, db, table: str, kind: str) -> None:
    # By what the writer reads (tables.py imports this module: no import back).
    if not (isinstance(getattr(db, table, None), np.ndarray) and type(getattr(db, "checkers", None)) is int):
        raise TypeError(f"{name} must be a backgammon.bearoff.{kind}, not {type(db).__name__}")


def write_one_sided(db, compressed: bool = True) -> bytes:
    """The table in GNU Backgammon's one-sided ``.bd`` format."""
    _database("db", db, "table", "OneSidedDatabase")
    compressed = _validate.flag("compressed", compressed)
    gammon = db.gammon_table is not None
    header = f"gnubg-OS-{POINTS:02d}-{db.checkers:02d}-{int(gammon)}-{int(compressed)}-0".encode()
    header = header.ljust(39, b"x") + b"\n"
    if not compressed:
        rows = db.table if not gammon else np.concatenate([db.table, db.gammon_table], axis=1)
        return header + rows.astype("<u2").tobytes()
    tables = [db.table] + ([db.gammon_table] if gammon else [])
    spans = []
    for t in tables:
        nonzero = t != 0
        first = np.argmax(nonzero, axis=1)
        last = ROLLS_KEPT - 1 - np.argmax(nonzero[:, ::-1], axis=1)
        spans.append((first, last - first + 1))
    lengths = sum(n for _, n in spans)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype("<u4")
    index = np.zeros((len(db.table), 8 if gammon else 6), dtype=np.uint8)
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


def read_one_sided(raw: bytes):
    """Read GNU Backgammon's one-sided ``.bd`` format (either variant):
    the distributions (n, 32), the gammon distributions (or None) and the
    checkers (what ``OneSidedDatabase`` is made of)."""
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
    return dist, gam, checkers


def write_two_sided(db) -> bytes:
    """A two-sided table in GNU Backgammon's ``.bd`` format."""
    _database("db", db, "records", "TwoSidedDatabase")
    header = f"gnubg-TS-{POINTS:02d}-{db.checkers:02d}-1".encode().ljust(39, b"x") + b"\n"
    return header + db.records.astype("<u2").tobytes()


def read_two_sided(raw: bytes):
    """Read GNU Backgammon's two-sided ``.bd`` format: the records (n * n,
    4) and the checkers (what ``TwoSidedDatabase`` is made of)."""
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
    return np.frombuffer(body, dtype="<u2").reshape(n * n, 4).astype(np.uint16), checkers


def _header(raw: bytes, magic: bytes) -> bytes:
    if len(raw) < 40 or not raw.startswith(magic):
        raise BearoffFileError(f"not a GNU Backgammon bear-off file (expected a header starting {magic.decode()!r})")
    return raw[:40]


def write_atomic(path: Path, data: bytes) -> Path:
    """``data`` written to ``path`` (its folders made) so that a reader
    never sees half a file; the path."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    path, data = Path(path), _validate.data_bytes("data", data)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data)
    return path


