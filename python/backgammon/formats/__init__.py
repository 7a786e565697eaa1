"""File formats: match files (``.mat``, SGF, XG's binary ``.xg``, BGBlitz
``.bgf``, OGXM, Jellyfish ``.gam``, FIBS oldmoves, GamesGrid, TrueMoneyGames,
GammonEmpire, PartyGammon, BGRoom) and position codes (XGID, OGID, FIBS
board lines, Snowie text, Jellyfish ``.pos``), each in a module of its own with
the same shape: ``read_x(text or bytes) -> value``, ``write_x(value) ->
str`` (none for ``.xg``), and one error class under
:class:`~backgammon.errors.FormatError`.

Match formats read into and write from one record model
(:mod:`backgammon.formats.record`: ``MatchRecord`` and the
``RecordBuilder`` readers use).  Every format module declares itself with
a module-level ``FORMAT`` (:class:`Format`); this package finds them, so a
new format is one new module (docs/design.md, "Where new things go").

>>> sorted(f.name for f in match_formats())
['bgf', 'bgroom', 'empire', 'gam', 'mat', 'ogxm', 'oldmoves', 'party', 'sgf', 'sgg', 'tmg', 'xg']
>>> get("xgid").kind
'position'
>>> for_path("match.XG").name, for_path("match.XG").binary, for_path("a.mat").binary
('xg', True, False)
>>> for_path("game.gam").name, for_path("m.ogxm").name
('gam', 'ogxm')
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

__all__ = ["Format", "formats", "match_formats", "get", "for_path", "detect", "read_match"]


@dataclass(frozen=True)
class Format:
    """A file format: its ``name``, the file ``extensions`` it is known by,
    ``kind`` ("match": a ``MatchRecord``; "position": a position and its
    state), its reader and writer, the error class both raise, and
    ``binary`` when it is read from bytes rather than text (and its writer,
    if any, gives bytes), ``sniff``: whether a file's bytes look like this
    format (:func:`detect`), and for a position format typed as a code,
    the ``title`` players call it by and an ``example`` that errors quote."""

    name: str
    extensions: tuple
    kind: str
    read: Callable[..., Any]
    write: Callable[..., str] | None
    error: type[Exception]
    binary: bool = False
    sniff: Callable[[bytes], bool] | None = None
    title: str | None = None
    example: str | None = None


@lru_cache(maxsize=1)
def formats() -> dict[str, Format]:
    """Every format of this package, by name."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        fmt = getattr(module, "FORMAT", None)
        if isinstance(fmt, Format):
            found[fmt.name] = fmt
    return dict(sorted(found.items()))


def match_formats() -> list[Format]:
    """The formats that hold whole matches."""
    return [f for f in formats().values() if f.kind == "match"]


def get(name: str) -> Format:
    """The format called ``name``."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    known = formats()
    if name.lower() not in known:
        raise ValueError(f"name must be one of {', '.join(known)}, not {name!r}")
    return known[name.lower()]


def for_path(path) -> Format | None:
    """The match format a file name's extension names, or None; its
    ``binary`` says whether to hand the reader bytes (``.xg``) or text."""
    import os
    ext = os.path.splitext(os.fspath(path))[1].lower()
    named = [f for f in match_formats() if ext in f.extensions]
    # Several formats share .gam (Jellyfish, GammonEmpire, PartyGammon): the one that writes first.
    return next((f for f in named if f.write is not None), named[0] if named else None)


def detect(data: bytes, path=None) -> Format | None:
    """The format a file's bytes are in, by their content as gnubg's
    ``import auto`` tells them (:mod:`backgammon.formats.detection`), else by
    the extension of ``path``; None when neither tells."""
    from .detection import detect as _detect
    return _detect(data, path)


def read_match(source, *, format: str | None = None, **options):
    """Read any match file (a path, an open file, its text or bytes) into
    a ``MatchRecord``, its format told by its content (or ``format``);
    ``options`` (``partial``, ``strict``, ``rules``) go to the reader."""
    from .detection import read_match as _read
    return _read(source, format=format, **options)
