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
_MAT = re.compile(rb"^\s*(?:[0-9]+\s+point\s+match|money\s+session)\s*$", re.I | re.M)


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
    """The format a file's bytes are in.

    Told by their content, as gnubg's ``import auto`` tells it, else by
    the extension of ``path``.

    Parameters
    ----------
    data : bytes
        The file's bytes.
    path : str or os.PathLike, optional
        Its name, for the extension.

    Returns
    -------
    Format or None
        None when neither content nor name tells.

    Raises
    ------
    TypeError
        ``data`` is not bytes.

    Examples
    --------
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
    """Read a match file of any format, told by its content.

    Parameters
    ----------
    source : str, os.PathLike, file or bytes
        A path (``str`` or ``pathlib.Path``), an open file, the text or
        the bytes.
    format : str, optional
        The format's name (``"mat"``, ``"sgf"``, ``"xg"``, ...; see
        :func:`formats`), instead of telling it.
    **options
        The reader's options: ``partial``, ``strict``, ``rules``...

    Returns
    -------
    MatchRecord

    Raises
    ------
    FormatError
        Not a match file of any known format, or a position file.
    MatchFileError
        The format's own error (``MatFileError``, ``SgfFileError``...),
        its message naming the file, the game and the line.
    OSError
        A path that cannot be read.

    See Also
    --------
    backgammon.formats.mat.read_mat, backgammon.formats.sgf.read_sgf, backgammon.formats.xg.read_xg
    backgammon.analysis.analyse : grade the record.

    Examples
    --------
    >>> import os, tempfile, backgammon as bg
    >>> path = os.path.join(tempfile.mkdtemp(), "games.sgf")
    >>> d = bg.duel("pubeval", "random", games=2, seed=1, workers=1, record=True)
    >>> with open(path, "w") as f:
    ...     _ = f.write(bg.write_sgf(d))
    >>> record = read_match(path)
    >>> record.players, len(record.games)
    (('pubeval', 'random'), 2)
    """
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
