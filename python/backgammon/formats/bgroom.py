"""BackGammonRoom (BGRoom) game files (gnubg's ``import bgroom``), money
sessions.

A ``BGF version 1.2`` line, then per game ``Game 1 - alice (X) vs. bob
(0)``, a line starting ``Single``, and numbered actions ``1.X:(5 2) 13/8
24/22``, ``2.0:(3 3) can't move``, ``3.X:Double`` (the next action, if
any, is the other side's take; a blank line right after it, its drop).  A
blank line ends the game; ``Win the Match`` ends the file.  As gnubg reads
it (it converts the file to ``.mat``; here no file is written): the player
listed first is player 0 unless it is marked ``(0)``; the game's result
is the stake, won by the side that moved last (who bore off, or whose
double was dropped, or whose opponent gave up: a game that just stops).
gnubg's converter means the same, but after a play of X's it writes the
result on that play's row, where its ``.mat`` reader gives the game to O
(tests/data/README); here the last mover wins.

>>> text = "BGF version 1.2\\n\\nGame 1 - ann (X) vs. bob (0)\\nSingle game\\n1.X:(3 1) 8/5 6/5\\n2.0:Double\\n\\nWin the Match\\n"
>>> rec = read_bgroom(text)
>>> rec.players, rec.games[0].winner, rec.games[0].points
(('ann', 'bob'), 1, 1)
"""
from __future__ import annotations

import re

from ..rules import Rules
from . import Format
from .matlike import read_as_mat
from .record import MatchFileError, MatchRecord
from .source import load, named, reader_options, text_lines

__all__ = ["BgroomFileError", "read_bgroom"]


class BgroomFileError(MatchFileError):
    """A BGRoom file that is malformed or against the rules."""


_GAME = re.compile(r"^Game\s+([0-9]+)\s+-\s+(\S+)\s+\(([X0O])\)\s+vs\.\s+(\S+)")
_ACTION = re.compile(r"^([0-9]+)\.([X0O]):(.*)$")
_ROLL = re.compile(r"^\(\s*([1-6])\s+([1-6])\s*\)\s*(.*)$")


def read_bgroom(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """Read a BGRoom file (a path, an open file, its text or bytes) into a
    money-session :class:`~backgammon.formats.record.MatchRecord`, every
    game replayed; refusals raise :class:`BgroomFileError` naming the game,
    the line and the rule."""
    data, path = load(source)
    rules, partial, strict = reader_options(rules, partial, strict)
    try:
        return read_as_mat(_mat_lines(text_lines(data)), BgroomFileError, rules, partial=partial, strict=strict)
    except BgroomFileError as e:
        raise named(e, path) from None


def _mat_lines(lines: list[str]) -> list:
    at = 0
    while at < len(lines) and not lines[at].lower().startswith("bgf version"):
        at += 1
    if at == len(lines):
        raise BgroomFileError("no 'BGF version' line: not a BGRoom file", None, max(len(lines), 1))
    out = [(at + 1, " 0 point match")]
    names = None
    number = 0
    score = [0, 0]
    at += 1
    while at < len(lines):
        text = lines[at].rstrip()
        at += 1
        if "Win the Match" in text:
            break
        g = _GAME.match(text)
        if not g:
            if text.strip():
                raise BgroomFileError(f"expected 'Game N - name (X) vs. name (0)', not {text.strip()[:40]!r}",
                                      number or None, at)
            continue
        number += 1
        if int(g.group(1)) != number:
            raise BgroomFileError(f"game {g.group(1)} where game {number} was expected", None, at)
        pair = (g.group(2), g.group(4)) if g.group(3) == "X" else (g.group(4), g.group(2))
        names = names or pair
        game_at = at
        if at >= len(lines) or not lines[at].startswith("Single"):
            raise BgroomFileError("expected a line starting 'Single' after the game line", number, at + 1)
        at += 1
        out.append((game_at, f" Game {number}"))
        out.append((game_at, f" {names[0]} : {score[0]}    {names[1]} : {score[1]}"))
        rows: list = []              # [left, right, line]
        doubled, stake, side = False, 1, 0
        count = 0
        ended = False
        while at < len(lines):
            text = lines[at].rstrip("\r\n")
            at += 1
            if not text.strip():
                winner = side                  # the last to move bore off, or doubled and was dropped
                if doubled:
                    side = 1 - side
                    _put(rows, side, " Drops", at)
                pad = "      " if winner == 0 else " " * 38
                rows.append((pad + f"Wins {stake} point{'s' if stake != 1 else ''}", None, at))
                ended = True
                break
            count += 1
            a = _ACTION.match(text.strip())
            if not a or int(a.group(1)) != count:
                raise BgroomFileError(f"expected action {count} as '{count}.X:(d d) moves' or '{count}.0:Double', "
                                      f"not {text.strip()[:40]!r}", number, at)
            if doubled:
                stake *= 2
                side = 1 - side
                doubled = False
                _put(rows, side, " Takes", at)
            side = 0 if a.group(2) == "X" else 1
            body = a.group(3).strip()
            if body == "Double":
                doubled = True
                _put(rows, side, f" Doubles => {stake * 2}", at)
                continue
            r = _ROLL.match(body)
            if not r:
                raise BgroomFileError(f"cannot read {body[:40]!r}: expected (d d) moves or Double", number, at)
            moves = "" if r.group(3).strip() == "can't move" else r.group(3).strip()
            _put(rows, side, f"{r.group(1)}{r.group(2)}: {moves}".rstrip(), at)
        n = 0
        for left, right, line in rows:
            if right is None and left.lstrip().startswith("Wins"):
                out.append((line, left))
                continue
            n += 1
            out.append((line, f"{n:3d}) {left:<27} {right}".rstrip() if right is not None else f"{n:3d}) {left}"))
        if not ended:
            break
    if number == 0:
        raise BgroomFileError("the file holds no game", None, max(len(lines), 1))
    return out


def _put(rows: list, side: int, cell: str, line: int) -> None:
    """Place a cell as gnubg's converter does: player 0 starts a row."""
    if side == 0 or not rows or rows[-1][1] is not None:
        rows.append([cell, None, line] if side == 0 else ["", cell, line])
    else:
        rows[-1][1] = cell


def sniff_bgroom(data: bytes) -> bool:
    return data[:200].lstrip().lower().startswith(b"bgf version")


FORMAT = Format("bgroom", (".bgf",), "match", read_bgroom, None, BgroomFileError, sniff=sniff_bgroom)
