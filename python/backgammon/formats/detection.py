"""Telling a file's format from its content, as gnubg's ``import auto``
does, so :func:`read_match` (and ``backgammon convert`` / ``analyse``)
take any match file whatever its name.

Each format module may give its :class:`~backgammon.formats.Format` a
``sniff(data) -> bool``; the formats are tried in :data:`ORDER` (binary
magics first, then the text formats from the most to the least
particular), and a file none of them claims falls back to its extension.

>>> detect(b"(;FF[4]GM[6]").name, detect(b" 5 point match\\n").name
('sgf', 'mat')
>>> detect(b"nothing here") is None
True
"""
from __future__ import annotations

import re

from ..errors import FormatError
from .registry import Format, for_path, formats, get
from .source import load, named

__all__ = ["ORDER", "detect", "read_match"]

#: The order the formats' sniffers are tried in; formats not named here
#: come after, in name order.
ORDER = ("xg", "ogxm", "bgf", "pos", "sgf", "sgg", "snowietxt", "tmg", "oldmoves", "mat", "party", "bgroom",
         "gam")

_SGF = re.compile(rb"^\s*\(\s*;\s*(?:[A-Z]+\s*\[[^\]]*\]\s*)*?GM\s*\[\s*6\s*\]")
_MAT = re.compile(rb"^\s*(?:\d+\s+point\s+match|money\s+session)\s*$", re.I | re.M)


def _sniff_builtin(name: str, data: bytes) -> bool:
    """Sniffers of the formats that predate content detection."""
    if name == "xg":
        return data[:4] == b"RGMH"
    if name == "sgf":
        return bool(_SGF.match(data[:2000]))
    if name == "mat":
        # gnubg: the first line that starts with a digit reads "N point match"
        head = data[:4000].lstrip(b"\xef\xbb\xbf")
        for line in head.splitlines():
            s = line.strip()
            if not s or s[:1] in (b";", b"#"):
                continue
            return bool(_MAT.match(line))
        return False
    return False


def detect(data: bytes, path=None) -> Format | None:
    """The format a file's bytes are in, by their content as gnubg's
    ``import auto`` tells them, else by the extension of ``path``; None
    when neither tells.

    >>> detect(b"; [Site \\"FIBS\\"]\\n 5 point match\\n").name
    'mat'
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    data = bytes(data)
    known = formats()
    names = [n for n in ORDER if n in known] + [n for n in known if n not in ORDER]
    for name in names:
        fmt = known[name]
        try:
            hit = fmt.sniff(data) if fmt.sniff is not None else _sniff_builtin(name, data)
        except Exception:       # noqa: BLE001 -- a sniffer that cannot tell has not claimed the file
            hit = False
        if hit:
            return fmt
    return for_path(path) if path is not None else None


def read_match(source, *, format: str | None = None, **options):
    """A match file's record: ``source`` a path, an open file, its text or
    bytes; the format told by the content (``format`` names it instead).
    A refusal raises the format's error, its message naming the file."""
    data, path = load(source)
    fmt = get(format) if format is not None else detect(data, path)
    where = f"{path}: " if path else ""
    if fmt is None:
        names = ", ".join(f.name for f in formats().values() if f.kind == "match")
        raise FormatError(f"{where}not a match file of any known format ({names})")
    if fmt.kind != "match":
        raise FormatError(f"{where}this is a {fmt.name} {fmt.kind} file, not a match file: read it with "
                          f"backgammon.formats.get({fmt.name!r}).read")
    try:
        return fmt.read(data, **options)
    except fmt.error as e:
        raise named(e, path) from None
