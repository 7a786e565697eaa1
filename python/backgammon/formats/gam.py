"""Jellyfish ``.gam`` game files (gnubg's ``export game gam`` / ``import
gam``), which GammonEmpire's game logs also are (gnubg's ``import empire``
reads them with the same code; :mod:`backgammon.formats.empire`).

A ``.gam`` file is the body of a ``.mat`` game without the match lines:
a line with the two names (player 0 on the left), then the numbered rows,
player 0's action in the left column and player 1's in the right, and a
``Wins N point(s)`` line in the winner's column.  A file may hold several
games, each after its own names line; they are a money session (Jellyfish
games carry no match length), the score carried from game to game.

>>> text = '''gnubg                          root
...   1)                             31: 8/5 6/5
...   2) 62: 24/18 13/11             43: 24/20 13/10
...                                   Wins 1 point
... '''
>>> rec = read_gam(text, partial=True)
>>> rec.players, rec.length, rec.games[0].winner, rec.games[0].points, rec.games[0].line
(('gnubg', 'root'), 0, 1, 1, 1)

The rows are read as ``.mat`` rows (:func:`~backgammon.formats.mat.read_mat`,
every dialect it takes), so a refusal names the game, the line of the
``.gam`` file and the rule.  What the format cannot hold: a match length,
the cube rules (money play with beavers, no Jacoby, as gnubg imports it).
Writing: :func:`write_gam` gives gnubg's layout, one names line per game.
"""
from __future__ import annotations

import re

from .._validate import data_bytes
from ..rules import Rules
from . import Format
from .mat import write_mat
from .matlike import read_as_mat
from .record import MatchFileError, MatchRecord
from .source import load, named, reader_options, text_lines

__all__ = ["GamFileError", "read_gam", "write_gam", "sniff_gam"]


class GamFileError(MatchFileError):
    """A ``.gam`` (or GammonEmpire) file that is malformed, truncated or
    against the rules."""


_ROW = re.compile(r"^\s*[0-9]+\)")
_WINS = re.compile(r"^\s*wins?\s+([0-9]+)\s+points?", re.I)
_NAMES = re.compile(r"^\s*(\S(?:.*?\S)?)(?:\s{2,}|\t+)(\S(?:.*\S)?)\s*$")


def _names(text: str) -> tuple[str, str] | None:
    m = _NAMES.match(text)
    if m:
        return m.group(1), m.group(2)
    words = text.split()
    return (words[0], words[1]) if len(words) == 2 else None


def gam_games(lines: list[str], error_cls) -> list:
    """The games of a ``.gam`` file: ``(names_line, names, [(line, text)],
    winner_or_None, points)``; ``winner`` from the column of the ``Wins``
    line (the right column past character 20)."""
    games: list = []
    for at, text in enumerate(lines, 1):
        s = text.strip()
        if not s:
            continue
        if _ROW.match(text):
            if not games:
                raise error_cls("a row before the names line: expected 'name  name' first", None, at)
            games[-1][2].append((at, text))
            continue
        m = _WINS.match(text)
        if m:
            if not games:
                raise error_cls("a Wins line before any game", None, at)
            if games[-1][3] is None:
                start = len(text.expandtabs(8)) - len(text.expandtabs(8).lstrip())
                games[-1][3] = 1 if start >= 20 else 0
                games[-1][4] = int(m.group(1))
            games[-1][2].append((at, text))
            continue
        if s[0] in ";#":
            continue
        pair = _names(text)
        if pair is None:
            raise error_cls(f"expected the names line 'name  name' or a numbered row, not {s[:40]!r}", len(games) or None,
                            at)
        games.append([at, pair, [], None, 0])
    if not games:
        raise error_cls("the file holds no game: expected a names line then numbered rows", None, max(len(lines), 1))
    return games


def read_gam(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False,
             error_cls=GamFileError) -> MatchRecord:
    """Read a ``.gam`` file (a path, an open file, its text or bytes) into a
    money-session :class:`~backgammon.formats.record.MatchRecord`, every game
    replayed (RULES 2-7).  ``rules`` replaces money play with beavers;
    ``partial`` lets the last game be unfinished; ``strict`` makes what the
    file contradicts (see :func:`~backgammon.formats.mat.read_mat`) an error.
    """
    data, path = load(source)
    rules, partial, strict = reader_options(rules, partial, strict)
    try:
        lines = text_lines(data)
        games = gam_games(lines, error_cls)
        out = [(0, " 0 point match")]
        score = [0, 0]
        first = games[0][1]
        for k, (at, names, rows, winner, points) in enumerate(games, 1):
            out.append((at, f" Game {k}"))
            out.append((at, f" {first[0]} : {score[0]}    {first[1]} : {score[1]}"))
            out.extend(rows)
            if winner is not None:
                score[winner] += points
        return read_as_mat(out, error_cls, rules, partial=partial, strict=strict)
    except error_cls as e:
        raise named(e, path) from None


def write_gam(source, players=None) -> str:
    """A ``Match``, ``MatchRecord`` or duel's games as a ``.gam`` file: each
    game's names line and rows as gnubg's ``export game gam`` writes them."""
    text = write_mat(source, players)
    out, names = [], None
    for line in text.split("\n"):
        if re.match(r"^\s*(?:Game\s+[0-9]+|[0-9]+\s+point\s+match|;.*)\s*$", line):
            continue
        m = re.match(r"^ (.*?) : [0-9]+\s+(.*?) : [0-9]+\s*$", line)
        if m and not _ROW.match(line):
            names = (m.group(1), m.group(2))
            out.append(f" {names[0]:<30} {names[1]}".rstrip())
            continue
        out.append(line)
    while out and not out[0].strip():
        out.pop(0)
    return "\n".join(out).rstrip("\n") + "\n"


def sniff_gam(data: bytes) -> bool:
    """gnubg's test: two names, then the row ``1)``."""
    head = data_bytes("data", data)[:400].decode("latin-1")
    return bool(re.match(r"^\s*\S+\s+\S+\s+1\)", head))


FORMAT = Format("gam", (".gam",), "match", read_gam, write_gam, GamFileError, sniff=sniff_gam)
