"""Jellyfish ``.mat`` match files (docs/formats.md, "Match files").

A :class:`MatchRecord` holds what a match file holds: the players, the
match length (0 for a money session), the header, and every game as the
score before it, its actions as :class:`~backgammon.Event` items (the
same events as ``Game.history``) and its result.  :func:`read_mat` reads
the text gnubg writes with ``export match mat`` (and imports with
``import mat``); :func:`write_mat` writes a ``Match``, a ``MatchRecord``
or the games of a duel.  Every record read is replayed through
``Match``/``Game`` at once, so a file that breaks the rules, or that is
cut short, raises :class:`MatFileError` naming the game and the line.

>>> import backgammon as bg
>>> m = bg.Match(1)
>>> g = m.new_game()
>>> g.roll((3, 1)); g.play("8/5 6/5"); g.resign(1); g.accept_resignation()
>>> text = write_mat(m, players=("Ann", "Bob"))
>>> print(text)
 1 point match
<BLANKLINE>
 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5
      Wins 1 point and the match
<BLANKLINE>
>>> record = read_mat(text)
>>> record.players, record.length, record.games[0].winner, record.games[0].points
(('Ann', 'Bob'), 1, 0, 1)
>>> [e.kind for e in record.games[0].events]
['opening', 'play', 'resign', 'accept']
>>> write_mat(record) == text
True

The layout (gnubg's): optional ``; [Key "value"]`` header lines and
``;`` comments, `` N point match`` (0: money), then per game `` Game k``,
the score line `` name : s0`` padded to 31 characters then
``name : s1``, and numbered rows with player 0's action in the left
column (``NNN) `` then 27 characters and a space) and player 1's in the
right one, from character 33: ``31: 8/5 6/5`` (a roll and its play, as
single-die steps from the mover's side, 25 the bar and 0 off, ``*`` a
hit), ``41:`` (no legal play, RULES 3.4; or, before a ``Wins`` line, a
roll followed by a resignation), `` Doubles => 2``, `` Beavers => 4``,
`` Raccoons => 8``, `` Takes``, `` Drops``; when player 1 moves
first, the first row's left column is empty.  Each game
ends with ``Wins N point(s)`` (``and the match`` after the last game of
a match).  A resignation is that line while the game is still on: the
side on turn resigned, and the level is the points over the cube.

Reading accepts what other writers do: any notation ``parse_play``
reads (``bar/21*``, ``13/7*/5``, ``6/4(2)``), other column widths,
``Cannot Move`` for a dance, any case, tabs, blank lines.  The column
of a ``Wins`` line is not used (gnubg does not always put it in the
winner's column); a beaver followed by the doubler's roll is taken (the
convention gnubg writes and reads); a double answered by nothing but the
game's result is gnubg's record of the cube decision of a side that then
resigned on its turn, and is dropped.  Writing follows gnubg's reader:
a beaver that is taken is written ``Beavers => N`` with no ``Takes``,
any other beaver ``Doubles => N`` (gnubg keeps a "beaver" open until the
next roll, across games); the ``Wins`` line of player 1 goes on the
row of player 0's last action when that row has room, as gnubg writes it.

What the format cannot hold: tied opening rolls (dropped when written;
with automatic doubles, RULES 7.5, they change the cube and cannot be
written), rejected resignation offers (dropped), the level of an
accepted resignation beyond the points it scored (read back as the
lowest level that scores them; under the Jacoby rule any level on a
centred cube reads back as 1), an opening re-roll (RULES 2.2 option),
the rules options except Jacoby and the cube limit (header lines
``; [Jacoby "On"]`` and ``; [CubeLimit "N"]``), and a money session's
end: a session file cut between two games reads as a shorter session.
A match file cut anywhere else fails to read.
"""
from __future__ import annotations

import os
import re

from .. import _validate
from ..rules import MAX_CUBE, Rules
from .record import MONEY_RULES, GameItems, MatchFileError, MatchRecord, RecordBuilder, duel_records, record_items

__all__ = ["MatFileError", "read_mat", "write_mat", "save_duel"]


class MatFileError(MatchFileError):
    """A ``.mat`` file that is malformed, truncated or against the rules."""


# -- reading .mat ---------------------------------------------------------------------------

_MATCH_LINE = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME_LINE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE_LINE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_HEADER = re.compile(r'^\[\s*([^"\]]*?)\s+"(.*)"\s*\]$')
_ROW = re.compile(r"^\s*(\d+)\)")
_POINT = r"(?:\d{1,2}|bar|off)"
_MOVE = rf"{_POINT}\*?(?:/{_POINT}\*?)+(?:\(\d\))?"
_ITEMS = [
    ("roll", re.compile(rf"([1-6])([1-6]):((?:[ \t]+{_MOVE})*)(?:[ \t]+(?:cannot move|\?\?\?\??))?(?=\s|$)", re.I)),
    ("double", re.compile(r"(doubles|beavers|raccoons)(?:[ \t]*=>[ \t]*(\d+))?(?=\s|$)", re.I)),
    ("take", re.compile(r"takes(?=\s|$)", re.I)),
    ("drop", re.compile(r"drops(?=\s|$)", re.I)),
    ("wins", re.compile(r"wins[ \t]+(\d+)[ \t]+points?(?:[ \t]+and[ \t]+the[ \t]+match)?(?=\s|$)", re.I)),
]
#: Items starting at this column or later are in the right (second player's) column.
_RIGHT_FROM = 20


class _RowError(Exception):
    pass


def _items_of(text: str, offset: int) -> list:
    """The actions on one row: [(column, kind, match)]."""
    out: list = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return out
        for kind, pattern in _ITEMS:
            m = pattern.match(text, i)
            if m:
                out.append((1 if offset + i >= _RIGHT_FROM else 0, kind, m))
                i = m.end()
                break
        else:
            word = text[i:].split()[0]
            raise _RowError(f"cannot read {word!r} (column {offset + i + 1}): expected dice and moves "
                            f"such as '31: 8/5 6/5', Doubles => N, Takes, Drops or Wins N points")


def read_mat(text: str, rules: Rules | None = None, *, partial: bool = False) -> MatchRecord:
    """Read a ``.mat`` file's text into a :class:`MatchRecord`, replaying
    every game (RULES 2-8).

    ``rules`` replaces the rules read from the header (a match uses the
    standard rules; a money session :data:`MONEY_RULES`, with Jacoby when
    the header says ``; [Jacoby "On"]``).  With ``partial`` the last game
    (and the match) may be unfinished, as in a match in progress;
    otherwise a game with no result, or a match that nobody has won, is
    a truncated file.  Errors raise :class:`MatFileError` with the line.
    """
    _validate.instance("text", text, str)
    if rules is not None:
        _validate.instance("rules", rules, Rules, "backgammon.Rules")
    partial = _validate.flag("partial", partial)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    lines = [ln.expandtabs(8) for ln in lines]
    header, comments, length, at = [], [], None, 0
    while at < len(lines):
        line = lines[at]
        at += 1
        s = line.strip()
        if not s:
            continue
        if s[0] in ";#":
            body = s[1:].strip()
            m = _HEADER.match(body)
            if m:
                header.append((m.group(1), m.group(2)))
            elif body:
                comments.append(body)
            continue
        m = _MATCH_LINE.match(line)
        if not m:
            raise MatFileError(f"expected the match length line (' 7 point match', 0 for money), "
                               f"not {s[:40]!r}", None, at)
        length = int(m.group(1))
        break
    if length is None:
        raise MatFileError("no ' N point match' line: this is not a .mat file", None, max(at, 1))
    if rules is None:
        rules = _rules_from_header(header, length, at)
    builder = RecordBuilder(length, rules, MatFileError)
    players: tuple | None = None
    # Split the rest into games: (number, line, [(line, text), ...]).
    games: list[tuple[int, int, list[tuple[int, str]]]] = []
    while at < len(lines):
        line = lines[at]
        at += 1
        if not line.strip():
            continue
        m = _GAME_LINE.match(line)
        if m:
            games.append((int(m.group(1)), at, []))
            continue
        if not games:
            raise MatFileError(f"expected ' Game 1', not {line.strip()[:40]!r}", None, at)
        games[-1][2].append((at, line))
    for k, (number, game_line, rows) in enumerate(games):
        last = k == len(games) - 1
        if number != k + 1:
            raise MatFileError(f"game {number} where game {k + 1} was expected", None, game_line)
        if not rows:
            raise MatFileError("the game has no score line: the file is truncated", number, game_line)
        score_at, score_text = rows[0]
        m = _SCORE_LINE.match(score_text)
        if not m:
            raise MatFileError(f"expected the score line ' name : 0    name : 0', not {score_text.strip()[:50]!r}",
                               number, score_at)
        names = (m.group(1), m.group(3))
        if players is None:
            players = names
        elif names != players:
            raise MatFileError(f"the players {names[0]!r} and {names[1]!r} differ from game 1's "
                               f"{players[0]!r} and {players[1]!r}", number, score_at)
        builder.begin(number, (int(m.group(2)), int(m.group(4))), score_at)
        actions: list = []
        for row_at, row in rows[1:]:
            rm = _ROW.match(row)
            offset = rm.end() if rm else 0
            try:
                items = _items_of(row[offset:], offset)
            except _RowError as e:
                raise MatFileError(str(e), number, row_at) from None
            if rm and not items:
                continue
            if not items:
                raise MatFileError(f"cannot read {row.strip()[:40]!r}", number, row_at)
            columns = [c for c, kind, _ in items if kind != "wins"]
            if len(columns) > 2 or columns not in ([], [0], [1], [0, 1]):
                raise MatFileError("a row holds at most one action of each player (left column first, "
                                   "right column second)", number, row_at)
            actions.extend((column, kind, mt, row_at) for column, kind, mt in items)
        if len(actions) >= 2 and actions[-1][1] == "wins" and actions[-2][1] == "double":
            # A double answered by nothing but the result: gnubg records the
            # cube decision of a side that then resigned on its turn (a
            # double must be answered by a take or a drop, RULES 7.3).
            del actions[-2]
        for column, kind, mt, row_at in actions:
            _mat_item(builder, column, kind, mt, row_at)
        end_at = rows[-1][0]
        builder.end(end_at, last, partial)
    if not games or players is None:
        raise MatFileError("the file holds no games", None, len(lines))
    builder.number = 0
    record_games = builder.finish(len(lines), partial)
    return MatchRecord(players, length, record_games, tuple(header), tuple(comments), rules)


def _mat_item(builder: RecordBuilder, player: int, kind: str, m, line: int) -> None:
    if kind == "roll":
        dice = (int(m.group(1)), int(m.group(2)))
        builder.move(player, dice, " ".join(m.group(3).split()), line)
    elif kind == "double":
        builder.cube(player, m.group(1).capitalize(), int(m.group(2)) if m.group(2) else None, line)
    elif kind in ("take", "drop"):
        builder.answer(player, kind, line)
    else:
        # The winner follows from the game (the side on turn is the only one
        # that may resign); gnubg does not always put the line in the winner's
        # column (after a roll and a resignation), so the column is not used.
        builder.wins(None, int(m.group(1)), line)


def _rules_from_header(header, length: int, line: int) -> Rules:
    if length:
        rules = Rules()
    else:
        rules = MONEY_RULES
        for key, value in header:
            if key.lower() == "jacoby" and value.strip().lower() in ("on", "yes", "true", "1"):
                rules = Rules(jacoby=True, beavers=rules.beavers)
    for key, value in header:
        if key.lower() == "cubelimit":
            try:
                limit = int(value)
            except ValueError:
                raise MatFileError(f"CubeLimit {value!r} is not a number", None, line) from None
            if limit >= 1 and limit & (limit - 1) == 0:
                rules = Rules(jacoby=rules.jacoby, beavers=rules.beavers, cube_limit=min(limit, MAX_CUBE))
    return rules


# -- writing .mat ---------------------------------------------------------------------------

_COLUMN = 27          # gnubg's "%3d) %-27s ": the right column starts at character 33


def _step_text(steps) -> str:
    return " ".join(f"{f}/{t}{'*' if h else ''}" for f, t, h in steps)


def _cell(item) -> str:
    kind = item[0]
    if kind == "move":
        _, _, dice, steps = item
        return f"{dice[0]}{dice[1]}: {_step_text(steps)}".rstrip()
    if kind == "dice":
        return f"{item[2][0]}{item[2][1]}:"
    if kind == "double":
        word = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}[item[2]]
        return f" {word} => {item[3]}"
    return " Takes" if kind == "take" else " Drops"


def _rolls_next(items, k: int) -> bool:
    """The item after ``items[k]`` is a roll by the same player."""
    return k + 1 < len(items) and items[k + 1][0] in ("move", "dice") and items[k + 1][1] == items[k][1]


def _mat_game(number: int, players, game: GameItems) -> list:
    out = [f" Game {number}"]
    left = f"{players[0]} : {game.score[0]}"
    out.append(f" {left:<31}{players[1]} : {game.score[1]}")
    rows: list = []                 # [left cell, right cell]: player 0's action, then player 1's
    items = game.items
    for k, item in enumerate(items):
        kind = item[0]
        if kind == "wins":
            continue
        if kind == "take" and k and items[k - 1][2:3] == ("beaver",) and _rolls_next(items, k):
            continue    # a beaver taken by rolling on: the .mat convention gnubg writes and reads
        cell = _cell(item)
        if kind == "double" and item[2] == "beaver" and not (
                k + 1 < len(items) and items[k + 1][0] == "take" and _rolls_next(items, k + 1)):
            cell = f" Doubles => {item[3]}"   # gnubg's reader keeps a "Beavers" open until a roll
        if item[1] == 0:
            rows.append([cell, None])
        elif rows and rows[-1][0] is not None and rows[-1][1] is None:
            rows[-1][1] = cell
        else:
            rows.append([None, cell])
    wins = None
    if game.winner is not None:
        s = "s" if game.points != 1 else ""
        tail = " and the match" if game.match_won else ""
        wins = f"Wins {game.points} point{s}{tail}"
        if game.winner == 1 and rows and rows[-1][0] is not None and rows[-1][1] is None:
            rows[-1][1], wins = " " + wins, None     # on the row of the loser's last action, as gnubg
    for n, (a, b) in enumerate(rows, 1):
        if b is None:
            out.append(f"{n:3d}) {a}".rstrip())
        else:
            out.append(f"{n:3d}) {(a or ''):<{_COLUMN}} {b}".rstrip())
    if wins is not None:
        out.append((" " * 6 if game.winner == 0 else " " * 34) + wins)
    out.append("")
    return out


def write_mat(source, players=None) -> str:
    """The ``.mat`` text of a ``Match`` (its games' histories), a
    :class:`MatchRecord`, or a ``DuelResult`` made with ``record=True``
    (written as a money session between ``result.a`` and ``result.b``).

    ``players`` names the two sides (default: the record's, or
    ``"Player 0"`` and ``"Player 1"``).  The games are replayed first, so
    a record the rules refuse raises :class:`MatFileError`; a tied
    opening roll or a rejected resignation is left out, and an automatic
    double or an opening re-roll cannot be written (see the module
    documentation)."""
    record, games = record_items(source, players, MatFileError)
    for name in record.players:
        if not name.strip() or ":" in name or "\n" in name or name != name.strip():
            raise MatFileError(f"a player's name in a .mat file is not empty, has no ':' or line break and "
                               f"no spaces around it, not {name!r}")
    out = []
    for key, value in record.header:
        out.append(f'; [{key} "{value}"]')
    keys = {k.lower() for k, _ in record.header}
    if record.length == 0 and record.rules.jacoby and "jacoby" not in keys:
        out.append('; [Jacoby "On"]')
    if record.rules.cube_limit != MAX_CUBE and "cubelimit" not in keys:
        out.append(f'; [CubeLimit "{record.rules.cube_limit}"]')
    for comment in record.comments:
        out.append(f"; {comment}")
    if out:
        out.append("")
    out.append(f" {record.length} point match")
    out.append("")
    for number, game in enumerate(games, 1):
        out.extend(_mat_game(number, record.players, game))
    return "\n".join(out)


def save_duel(path, duel_result, players=None) -> None:
    """Write the games of ``duel_result`` (a ``DuelResult`` made with
    ``record=True``) to ``path`` as a ``.mat`` money session; player A
    is the left column (player 0)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    duel_records(duel_result)
    text = write_mat(duel_result, players=players)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


from . import Format  # noqa: E402  (the package index reads FORMAT)

FORMAT = Format("mat", (".mat", ".txt"), "match", read_mat, write_mat, MatFileError)
