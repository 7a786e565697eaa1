"""The tables built on first use and kept in the user's cache directory,
each file with its SHA-256 checksum; a missing or corrupt file is rebuilt."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .._validate import integer, one_of
from .bdfile import MAX_TWO_SIDED_CHECKERS, ONE_SIDED_CHECKERS, write_atomic
from .tables import OneSidedDatabase, TwoSidedDatabase

__all__ = ["cache_dir", "one_sided", "two_sided", "build"]


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
        write_atomic(path, raw)
        write_atomic(check, hashlib.sha256(_CACHE_VERSION + raw).hexdigest().encode())
    except OSError:
        pass   # a read-only cache only costs the build next time
    return db


_memo: dict = {}


def one_sided() -> OneSidedDatabase:
    """The 15-checker one-sided table, built on first use and cached.

    Returns
    -------
    OneSidedDatabase
        gnubg's ``gnubg_os_6_15.bd``, entry for entry.

    Examples
    --------
    >>> db = one_sided()
    >>> round(float(db.expected_rolls((0, 0, 0, 0, 0, 2))), 3) > 1
    True
    """
    if "os" not in _memo:
        def make():
            db = OneSidedDatabase.build()
            return db, db.to_bytes(compressed=False)
        _memo["os"] = _cached("gnubg_os_6_15.bd", make, OneSidedDatabase.from_bytes)
    return _memo["os"]


def two_sided(checkers: int = 6) -> TwoSidedDatabase:
    """The two-sided table for up to ``checkers`` a side, built on first use and cached.

    Parameters
    ----------
    checkers : int, default 6
        Checkers a side.

    Returns
    -------
    TwoSidedDatabase
        gnubg's ``gnubg_ts_6_N.bd``, entry for entry: exact cubeful money
        equities.

    Examples
    --------
    >>> ts = two_sided(2)
    >>> ts.checkers
    2
    """
    checkers = integer("checkers", checkers, low=1, high=MAX_TWO_SIDED_CHECKERS)
    key = ("ts", checkers)
    if key not in _memo:
        def make():
            db = TwoSidedDatabase.build(checkers)
            return db, db.to_bytes()
        _memo[key] = _cached(f"gnubg_ts_6_{checkers}.bd", make, TwoSidedDatabase.from_bytes)
    return _memo[key]


def build(path, kind: str = "one-sided", *, checkers: int | None = None, compressed: bool = True) -> Path:
    """Build a table and write it to ``path`` in GNU Backgammon's format.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.bd`` file to write.
    kind : {"one-sided", "two-sided"}, default "one-sided"
        Which table.
    checkers : int, optional
        For the two-sided table, checkers a side (default 6).
    compressed : bool, default True
        For the one-sided table, gnubg's compressed variant.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        An unknown ``kind``, or ``checkers`` for the one-sided table.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "ts2.bd")
    >>> path = build(path, "two-sided", checkers=2)
    >>> path.name
    'ts2.bd'
    """
    one_of("kind", kind, ("one-sided", "two-sided"))
    if kind == "one-sided":
        if checkers not in (None, ONE_SIDED_CHECKERS):
            raise ValueError("the one-sided table is built for 15 checkers")
        return OneSidedDatabase.build().save(path, compressed=compressed)
    return TwoSidedDatabase.build(6 if checkers is None else checkers).save(path)


