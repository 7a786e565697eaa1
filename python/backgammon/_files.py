"""Files written whole or not at all: the one place the package writes a
file that a reader may open while it is being made (saved matches, bear-off
databases, weight files, the command line's outputs); and files read by
name with a bound on their size (match files, match equity tables)."""
from __future__ import annotations

import os
import stat
import tempfile


def write_atomically(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` whole or not at
    all: a temporary file in the same directory, renamed over ``path`` once
    complete, with the permissions a new file would get (``mkstemp`` makes
    its file private).  The directory must exist.

    A symbolic link is followed (the file it names is replaced, the link
    stays); a path that is not a regular file (``/dev/stdout``, a named
    pipe, a device) is written in place, since renaming over it would
    replace the device itself.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> write_atomically(path, "one")
    >>> open(path).read()
    'one'
    """
    path = os.path.realpath(path)
    try:
        special = not stat.S_ISREG(os.stat(path).st_mode) and not os.path.isdir(path)
    except FileNotFoundError:
        special = False
    if special:
        with open(path, "wb") as stream:
            stream.write(data if isinstance(data, bytes) else data.encode("utf-8"))
        return
    folder = os.path.dirname(path)
    name = os.path.basename(path)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        if isinstance(data, bytes):
            with os.fdopen(fd, "wb") as bout:
                bout.write(data)
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
                out.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_at_most(path: str | os.PathLike, limit: int, what: str) -> bytes:
    """The bytes of the file at ``path`` if there are at most ``limit``;
    more (a big file, or a pipe or device that never ends, such as
    ``/dev/zero``, which has no size to check first) raise ValueError
    saying the file is not ``what``.  A path that cannot be opened raises
    ``OSError``.

    >>> read_at_most(os.devnull, 10, "a match file")
    b''
    """
    too_big = f"{os.fspath(path)} holds more than {limit:,} bytes: not {what}"
    if os.path.getsize(path) > limit:
        raise ValueError(too_big)
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(too_big)
    return data
