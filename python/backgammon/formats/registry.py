"""The registry of file formats: each format module's ``FORMAT`` found by
name, by extension and by kind.

>>> get("xgid").kind
'position'
"""
from __future__ import annotations

import importlib
import os
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

__all__ = ["Format", "formats", "match_formats", "get", "for_path"]

_PACKAGE = __name__.rpartition(".")[0]


@dataclass(frozen=True)
class Format:
    """A file format, as a format module declares it (``FORMAT``).

    Attributes
    ----------
    name : str
        Its name (``"mat"``).
    extensions : tuple of str
        The file extensions it is known by.
    kind : str
        ``"match"`` (read to a ``MatchRecord``) or ``"position"`` (a
        position and its state).
    read : callable
        The reader.
    write : callable or None
        The writer, if any.
    error : type
        The error class both raise.
    binary : bool
        Read from bytes rather than text (its writer, if any, gives
        bytes).
    sniff : callable or None
        Whether a file's bytes look like this format (:func:`detect`).
    title, example : str or None
        For a position format typed as a code: what players call it and
        an example that errors quote.

    Examples
    --------
    >>> fmt = get("sgf")
    >>> fmt.kind, fmt.extensions, fmt.binary
    ('match', ('.sgf',), False)
    """

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
    """Every format of this package, by name.

    Examples
    --------
    >>> "mat" in formats() and "xgid" in formats()
    True
    """
    found = {}
    for info in pkgutil.iter_modules([os.path.dirname(__file__)]):
        module = importlib.import_module(f"{_PACKAGE}.{info.name}")
        fmt = getattr(module, "FORMAT", None)
        if isinstance(fmt, Format):
            found[fmt.name] = fmt
    return dict(sorted(found.items()))


def match_formats() -> list[Format]:
    """The formats that hold whole matches.

    Examples
    --------
    >>> "sgf" in [f.name for f in match_formats()]
    True
    """
    return [f for f in formats().values() if f.kind == "match"]


def get(name: str) -> Format:
    """The format called ``name`` (any case).

    Raises
    ------
    ValueError
        No format has that name; the message lists them.
    TypeError
        ``name`` is not text.

    Examples
    --------
    >>> get("MAT").extensions
    ('.mat', '.txt')
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    known = formats()
    if name.lower() not in known:
        raise ValueError(f"name must be one of {', '.join(known)}, not {name!r}")
    return known[name.lower()]


def for_path(path) -> Format | None:
    """The match format a file name's extension names, or None; its
    ``binary`` says whether to hand the reader bytes (``.xg``) or text.

    Examples
    --------
    >>> for_path("match.sgf").name, for_path("notes.doc")
    ('sgf', None)
    """
    ext = os.path.splitext(os.fspath(path))[1].lower()
    named = [f for f in match_formats() if ext in f.extensions]
    # Several formats share .gam (Jellyfish, GammonEmpire, PartyGammon): the one that writes first.
    return next((f for f in named if f.write is not None), named[0] if named else None)
