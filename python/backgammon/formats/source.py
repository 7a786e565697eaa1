"""What a reader is handed: a path (``str`` or ``os.PathLike``), an open
file (text or binary), the text itself or its bytes; :func:`load` turns
any of them into the file's bytes and the name to quote in errors.

A ``str`` is a path when it names an existing file and holds no line end;
otherwise it is the file's text.  Text is encoded as UTF-8, so a reader
takes bytes in every case and decodes them its own way (:func:`decode`:
UTF-8 with or without a byte-order mark, else Latin-1).

>>> load("12;0;0;0\\n")
(b'12;0;0;0\\n', None)
>>> import io
>>> load(io.BytesIO(b"OGXM..."))
(b'OGXM...', None)
>>> decode(b"\\xef\\xbb\\xbfGame 1"), decode(b"Ren\\xe9")
('Game 1', 'René')
"""
from __future__ import annotations

import errno
import functools
import os
import re

from .. import _validate
from .._files import read_at_most
from ..errors import FormatError
from ..rules import Rules

__all__ = ["load", "read_path", "decode", "text_lines", "named", "reads_source", "reader_options"]

#: The largest file a reader takes (a match file is kilobytes; a stream of
#: many matches a few megabytes): a bigger one is refused before it is read.
MAX_BYTES = 64 * 1024 * 1024


def _is_path(value: str) -> bool:
    """Whether ``value`` names a file to read: a regular one, or a device
    or pipe (``/dev/stdin``; ``/dev/zero`` is refused by its size), not a
    directory."""
    if "\n" in value or "\r" in value or not value or len(value) > 4096 or "\0" in value:
        return False
    try:
        return os.path.exists(value) and not os.path.isdir(value)
    except (OSError, ValueError):
        return False


def _is_dir(value: str) -> bool:
    try:
        return "\n" not in value and "\0" not in value and os.path.isdir(value)
    except (OSError, ValueError):
        return False


def load(source, *, name: str = "source") -> tuple[bytes, str | None]:
    """``(data, path)``: the bytes of ``source`` (a path, ``os.PathLike``,
    an open file, text or bytes) and its path (None when it was not read
    from a named file).  A path that cannot be opened raises ``OSError``;
    anything else of the wrong type ``TypeError`` naming ``name``."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if isinstance(source, str):
        if _is_path(source):
            return read_path(source), source
        return source.encode("utf-8"), None
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        return read_path(path), path
    read = getattr(source, "read", None)
    if callable(read):
        data = read(MAX_BYTES + 1)
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"{name}.read() must give str or bytes, not {type(data).__name__}")
        if len(data) > MAX_BYTES:
            path = getattr(source, "name", None)
            raise FormatError(f"{path if isinstance(path, str) else name} holds more than {MAX_BYTES:,} bytes: "
                              f"not a match file")
        path = getattr(source, "name", None)
        return bytes(data), path if isinstance(path, str) else None
    raise TypeError(f"{name} must be a path, an open file, str or bytes, not {type(source).__name__}")


def read_path(path: str) -> bytes:
    """The bytes of the file at ``path``, at most ``MAX_BYTES`` of them (a
    bigger file, or a pipe or device that gives more, such as
    ``/dev/zero``, raises :class:`~backgammon.FormatError`, a ValueError,
    naming the path); a path that cannot be opened raises ``OSError``.

    >>> read_path("/dev/zero")
    Traceback (most recent call last):
    ...
    backgammon.errors.FormatError: /dev/zero holds more than 67,108,864 bytes: not a match file
    """
    try:
        return read_at_most(path, MAX_BYTES, "a match file")
    except ValueError as e:
        raise FormatError(str(e)) from None


def decode(data: bytes) -> str:
    """A text file's bytes as text: UTF-8 (a byte-order mark allowed),
    else Latin-1, which any byte sequence is.

    >>> decode("é".encode()), decode(b"\\xe9")
    ('é', 'é')
    """
    data = _validate.data_bytes("data", data)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def text_lines(data: bytes) -> list[str]:
    """The lines of a text file (any line ends, tabs kept)."""
    return decode(data).replace("\r\n", "\n").replace("\r", "\n").split("\n")


def named(error: Exception, path: str | None) -> Exception:
    """``error`` with ``path`` before its message (the same class, its
    ``game`` and ``line`` kept), for a refusal that names the file."""
    if not path:
        return error
    try:
        new = type(error).__new__(type(error))
        new.__dict__.update(error.__dict__)
        new.args = (f"{path}: {error}",)
    except (TypeError, AttributeError):
        return error
    return new


_LOOKS_LIKE_A_PATH = re.compile(r"[^\n\r(]*\.[A-Za-z0-9]{1,5}\s*\Z")


def reads_source(read=None, *, binary: bool = False):
    """A reader of a file's text or bytes made a reader of any source
    :func:`load` takes: ``read(source, ...)`` loads ``source`` and passes
    its bytes on; an error raised reading a named file starts with its
    path (:func:`named`).  A one-line ``str`` that ends like a file name
    (``match.mat``) but names no file is a missing file
    (``FileNotFoundError``), not the text of a match; so is any ``str``
    that names no file for a ``binary`` format, which has no text.

    >>> @reads_source
    ... def count(data):
    ...     return len(data)
    >>> count("12;0;0;0\\n"), count(b"abc")
    (9, 3)
    >>> count("nosuch.mat")
    Traceback (most recent call last):
    ...
    FileNotFoundError: [Errno 2] No such file or directory: 'nosuch.mat'
    """
    if read is None:
        return functools.partial(reads_source, binary=binary)

    @functools.wraps(read)
    def reader(source, *args, **kwargs):
        if isinstance(source, str) and not _is_path(source):
            if _is_dir(source):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), source)
            if binary or _LOOKS_LIKE_A_PATH.match(source):
                raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), source.strip())
        data, path = load(source)
        try:
            return read(data, *args, **kwargs)
        except FormatError as e:
            raise named(e, path) from None
    return reader


def reader_options(rules, partial, strict) -> tuple:
    """A match reader's options checked: ``rules`` (None: the file's) a
    ``Rules``, ``partial`` and ``strict`` flags; returned as given.

    >>> reader_options(None, False, 1)
    Traceback (most recent call last):
    ...
    TypeError: strict must be True or False, not int
    """
    if rules is not None:
        _validate.instance("rules", rules, Rules, "backgammon.Rules")
    return rules, _validate.flag("partial", partial), _validate.flag("strict", strict)
