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
>>> game = record.games[0]
>>> record.players, record.length, game.winner, game.points
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
a match), in the winner's column.  A resignation is that line while the
game is still on: the other side resigned, and the level is the points
over the cube.

Reading takes what other programs write (docs/formats.md, ".mat dialects";
tests/data holds a small file of each), judged by gnubg's ``import mat``:

* any notation ``parse_play`` reads (``bar/21*``, ``Bar/22``, ``6/Off``,
  ``13/7*/5``, ``8/4*(2)``, ``24/13`` for one checker's whole roll), dice
  in the order rolled (``13:``), ``Cannot Move`` for a dance, ``???`` /
  ``????`` for a roll never played and ``00: ????`` for none, ``Concedes``
  or ``Resigns``, a game given up before its opening roll (only a ``Wins`` line),
  gnubg's ``Illegal play (...)`` board dump (read as gnubg reads it: the
  dice, then the board given, a ``setboard`` event), any case, tabs, blank lines, ``; comments`` inside games,
  ``Money session`` for ``0 point match``, names written ``name,rating``,
  and bytes: UTF-8 (a byte-order mark allowed), else Latin-1, with any line
  ends;
* the columns where the file has them: the right column starts where
  the second action of a row most often starts (33 for gnubg and Galaxy,
  37, 39, 40 elsewhere), an item belongs to the column its start is
  nearer to, and a row number repeated inside a line starts a new row.
  The ``Wins`` line's column names the winner, as gnubg reads it; the
  loser may resign after its own move, as FIBS lets it
  (``Game.resign(level, player)``);
* Galaxy's ``Losses N point`` lines (the loser's word, checked against the
  result), a first game at another score than 0-0 (a match resumed there:
  ``Match(score=...)``; its first game is past the Crawford game if it uses
  the cube), a truncated last game (``partial=True``).

Where the file contradicts itself the play wins and
``MatchRecord.warnings`` says what was written and what was used: a
``Wins`` line capped at what the winner needed or otherwise not what the
play gives, a ``Losses`` line, a score line the games before do not make,
a resignation whose points are no whole number of cubes (read as the
lowest level that accounts for them, at least 1: Backgammon Studio's
``Wins 4016 point`` after ``????``, PlayOK's ``Wins 100 points``), names
that change or are missing.  ``strict=True`` makes each of them an error.
A play the rules refuse is kept as the board its moves make, as written
(a ``setboard`` event naming the rule, and a warning), as gnubg and
gammonview read on; ``strict=True`` refuses it.  Anything else the rules
refuse is an error naming the game, the line and the rule.  A set board
is written as gnubg's ``Illegal play (...)``, which gnubg reads back.  A beaver followed by the doubler's roll is taken (the convention
gnubg writes and reads); a double answered by nothing but the other
side's win is gnubg's record of the cube decision of a side that then
resigned on its turn, and is dropped.  Writing follows gnubg's reader:
a beaver that is taken is written ``Beavers => N`` with no ``Takes``,
any other beaver ``Doubles => N`` (gnubg keeps a "beaver" open until the
next roll, across games); the ``Wins`` line of player 1 goes on the
row of player 0's last action when that row has room, as gnubg writes it.

What the format cannot hold: tied opening rolls (dropped when written;
with automatic doubles, RULES 7.5, they change the cube and cannot be
written), rejected resignation offers (dropped), the level of an
accepted resignation beyond the points it scored (read back as the
lowest level that scores them: a resignation scores the level offered
times the cube, Jacoby or not, RULES 6.5), an opening re-roll (RULES 2.2 option),
the rules options except Jacoby and the cube limit (header lines
``; [Jacoby "On"]`` and ``; [CubeLimit "N"]``), and a money session's
end: a session file cut between two games reads as a shorter session.
A match file cut anywhere else fails to read.
"""
from __future__ import annotations

import os
import re
from typing import IO, cast

from .. import _validate
from .._files import write_atomically
from ..game import Phase
from ..position import Position
from ..rules import MAX_CUBE, Rules
from .record import MONEY_RULES, GameItems, MatchFileError, MatchRecord, RecordBuilder, duel_records, record_items
from .source import reader_options, reads_source
from .registry import Format

__all__ = ["MatFileError", "read_mat", "write_mat", "save_duel"]


class MatFileError(MatchFileError):
    """A ``.mat`` file that is malformed, truncated or against the rules:
    the message names the game, the line and the rule.

    Examples
    --------
    >>> issubclass(MatFileError, ValueError)
    True
    """


# -- reading .mat ---------------------------------------------------------------------------

_MATCH_LINE = re.compile(r"^\s*([0-9]+)\s+point\s+match\s*$", re.I)
_MONEY_LINE = re.compile(r"^\s*money\s+session\s*$", re.I)
_GAME_LINE = re.compile(r"^\s*Game\s+([0-9]+)\s*$", re.I)
_SCORE_LINE = re.compile(r"^\s*(.*?)\s*:\s*([0-9]+)\s+(.*?)\s*:\s*([0-9]+)\s*$")
_HEADER = re.compile(r'^\[\s*([^"\]]*?)\s+"(.*)"\s*\]$')
_RATING = re.compile(r"^(.*\S)\s*,\s*([0-9]+(?:\.[0-9]+)?)$")
_POINT = r"(?:[0-9]{1,2}|bar|off)"
_MOVE = re.compile(rf"{_POINT}\*?(?:/{_POINT}\*?)+(?:\([0-9]\))?(?=\s|$)", re.I)
_END = r"(?=\s|$)"
_TOKENS = [
    ("label", re.compile(r"[0-9]+\)")),
    ("roll", re.compile(r"([0-6])([0-6]):")),
    ("double", re.compile(rf"(doubles?|beavers?|raccoons?)(?:[ \t]*=>[ \t]*([0-9]+))?{_END}", re.I)),
    ("take", re.compile(rf"takes?{_END}", re.I)),
    ("drop", re.compile(rf"drops?{_END}", re.I)),
    ("wins", re.compile(rf"wins?[ \t]+([0-9]+)[ \t]+points?(?:[ \t]+and[ \t]+the[ \t]+match)?{_END}", re.I)),
    ("losses", re.compile(rf"loss(?:es)?[ \t]+([0-9]+)[ \t]+points?{_END}", re.I)),
    ("concedes", re.compile(rf"(?:concedes|resigns?){_END}", re.I)),   # Studio, XG; gnubg "Resigns"
    ("unplayed", re.compile(rf"\?{{3,4}}{_END}")),            # XG: a turn never played, no dice
]
_UNPLAYED = re.compile(rf"\?{{3,4}}{_END}")                 # XG, BG Studio: rolled, never played
_CANNOT = re.compile(rf"cannot[ \t]+move{_END}", re.I)       # XG, BG Studio: no legal play
_ILLEGAL = re.compile(r"illegal[ \t]+play[ \t]*\(([^)]*)\)", re.I)   # gnubg's Snowie board dump
#: Where the right column starts (0-based) when a file does not show it: gnubg's 33rd character.
_RIGHT_DEFAULT = 32


class _RowError(Exception):
    pass


class _Item:
    """One item of a row: where it starts (on the row's own grid), its
    kind, what it says (``data``, ``text``), its line, and ``side``: the
    column it is in (0 left, 1 right), set once the file's columns are
    known."""

    __slots__ = ("start", "kind", "data", "text", "line", "side")

    def __init__(self, start: int, kind: str, data: tuple, text: str, line: int):
        self.start, self.kind, self.data, self.text, self.line = start, kind, data, text, line
        self.side = 0


def _roll_tail(text: str, i: int) -> tuple[int, tuple]:
    """After ``NN:``: the moves (as one text), or None for a roll never
    played (``???``), and an ``Illegal play (...)`` body; returns the end."""
    n = len(text)
    moves: list[str] = []
    while True:
        j = i
        while j < n and text[j] in " \t":
            j += 1
        if j == i and moves:
            break
        m = _MOVE.match(text, j)
        if not m:
            break
        moves.append(m.group(0))
        i = m.end()
    j = i
    while j < n and text[j] in " \t":
        j += 1
    if not moves:
        for pattern, what in ((_UNPLAYED, "unplayed"), (_CANNOT, "cannot")):
            m = pattern.match(text, j)
            if m:
                return m.end(), (None if what == "unplayed" else "", None)
        m = _ILLEGAL.match(text, j)
        if m:
            return m.end(), ("", m.group(1))
    return i, (" ".join(moves), None)


def _row_items(text: str, line: int) -> list:
    """The items of one row.  A row number met again inside the line (a
    broken Galaxy line) starts a new row: the items after it are placed on
    its own grid."""
    out: list = []
    i, n, shift = 0, len(text), 0
    first_label: int | None = None
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return out
        for kind, pattern in _TOKENS:
            m = pattern.match(text, i)
            if not m:
                continue
            if kind == "label":
                if first_label is None:
                    first_label = i
                elif out:
                    shift = i - first_label
                i = m.end()
                break
            if kind == "roll":
                end, (moves, illegal) = _roll_tail(text, m.end())
                data: tuple = (int(m.group(1)), int(m.group(2)), moves, illegal)
            elif kind == "double":
                data = (m.group(1), int(m.group(2)) if m.group(2) else None)
                end = m.end()
            elif kind in ("wins", "losses"):
                data = (int(m.group(1)),)
                end = m.end()
            else:
                data, end = (), m.end()
            out.append(_Item(i - shift, kind, data, " ".join(text[i:end].split()), line))
            i = end
            break
        else:
            rest = text[i:].split()
            if not rest:             # only other whitespace (a vertical tab, a form feed) is left
                return out
            word = rest[0]
            raise _RowError(f"cannot read {word!r} (column {i + 1}): expected dice and moves "
                            f"such as '31: 8/5 6/5', Doubles => N, Takes, Drops or Wins N points")


def _right_start(games: list) -> int:
    """Where the right column starts in this file: the most common start
    of an action that follows another on its row."""
    starts: dict[int, int] = {}
    for rows in games:
        for items in rows:
            acts = [it for it in items if it.kind in ("roll", "double", "take", "drop")]
            for prev, it in zip(acts, acts[1:]):
                if it.start > prev.start:
                    starts[it.start] = starts.get(it.start, 0) + 1
    if not starts:
        return _RIGHT_DEFAULT
    best = max(starts.values())
    return min(k for k, v in starts.items() if v == best)


def _decode(data: bytes) -> str:
    """A file's bytes as text: UTF-8 (a byte-order mark allowed), else
    Latin-1 (some Backgammon Studio exports)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _name(text: str) -> tuple[str, str | None]:
    """A score line's name, and a rating written after it (``name,1529``)."""
    m = _RATING.match(text)
    if m and float(m.group(2)) > 0:
        return m.group(1), m.group(2)
    return text, None


@reads_source
def read_mat(source: str | bytes | os.PathLike | IO, rules: Rules | None = None, *, partial: bool = False,
             strict: bool = False) -> MatchRecord:
    """Read a ``.mat`` file (Jellyfish's text, as gnubg exports it), replaying
    every game (RULES 2-8).

    Parameters
    ----------
    source : str, os.PathLike, file or bytes
        The file's path (a ``str`` or a ``pathlib.Path``), the file open
        for reading, its text, or its bytes (UTF-8, else Latin-1).
    rules : Rules, optional
        Replaces the rules read from the header (a match uses the
        standard rules; a money session :data:`MONEY_RULES`, with Jacoby
        when the header says ``; [Jacoby "On"]``).
    partial : bool, default False
        The last game (and the match) may be unfinished, as in a match in
        progress or a file cut short (a move cut in the last line is read
        as its dice alone, with a warning); otherwise a game with no
        result, or a match nobody has won, is a truncated file.
    strict : bool, default False
        Where the file contradicts itself (a score line, a ``Wins`` or
        ``Losses`` line the play does not give) the play wins and the
        record's ``warnings`` say so; with ``strict`` each is an error.

    Returns
    -------
    MatchRecord
        The players, the length and every game's actions.

    Raises
    ------
    MatFileError
        A malformed or truncated file, or an action against the rules,
        naming the game, the line and the rule (and the path, when read
        from one).
    OSError
        A path that cannot be read.

    See Also
    --------
    write_mat : the other way.
    backgammon.formats.read_match : any format, told by its content.
    backgammon.analysis.analyse : grade the record's decisions.

    Examples
    --------
    >>> import os, tempfile, backgammon as bg
    >>> path = os.path.join(tempfile.mkdtemp(), "duel.mat")
    >>> d = bg.duel("pubeval", "random", games=2, seed=1, workers=1, record=True)
    >>> bg.formats.mat.save_duel(path, d)
    >>> record = bg.read_mat(path)      # or a pathlib.Path, an open file, the text
    >>> record.players, record.length, len(record.games)
    (('pubeval', 'random'), 0, 2)
    >>> cut = " 3 point match\\n\\n Game 1\\n A : 0     B : 0\\n  1) 31: 8/5 6/5\\n"
    >>> bg.read_mat(cut)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.formats.mat.MatFileError: game 1, line 5: the game ends without a result: the file is truncated ...
    """
    text: str | bytes = cast(bytes, source)    # its bytes, whatever it was (reads_source)
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text))
    _validate.instance("text", text, str)
    rules, partial, strict = reader_options(rules, partial, strict)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    lines = [ln.expandtabs(8) for ln in lines]
    last_line = len(lines)
    while last_line > 1 and not lines[last_line - 1].strip():
        last_line -= 1
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
        if m:
            length = int(m.group(1))
        elif _MONEY_LINE.match(line):
            length = 0
        else:
            raise MatFileError(f"expected the match length line (' 7 point match', 0 for money), "
                               f"not {s[:40]!r}", None, at)
        break
    if length is None:
        raise MatFileError("no ' N point match' line: this is not a .mat file", None, max(at, 1))
    if rules is None:
        rules = _rules_from_header(header, length, at)
    builder = RecordBuilder(length, rules, MatFileError, mend=not strict)
    # Split the rest into games: (number, line, [(line, text), ...]).
    games: list[tuple[int, int, list[tuple[int, str]]]] = []
    while at < len(lines):
        line = lines[at]
        at += 1
        s = line.strip()
        if not s:
            continue
        m = _GAME_LINE.match(line)
        if m:
            games.append((int(m.group(1)), at, []))
            continue
        if not games:
            raise MatFileError(f"expected ' Game 1', not {s[:40]!r}", None, at)
        if s[0] in ";#" and games[-1][2]:
            body = s[1:].strip()          # a comment inside a game (after its score line)
            if body:
                comments.append(body)
            continue
        games[-1][2].append((at, line))
    if not games:
        raise MatFileError("the file holds no games", None, len(lines))
    # Each game's score line and rows of items.
    parsed: list[tuple[int, int, tuple, tuple, int, list]] = []
    for k, (number, game_line, rows) in enumerate(games):
        if number != k + 1:
            raise MatFileError(f"game {number} where game {k + 1} was expected", None, game_line)
        if not rows:
            raise MatFileError("the game has no score line: the file is truncated", number, game_line)
        score_at, score_text = rows[0]
        m = _SCORE_LINE.match(score_text)
        if not m:
            raise MatFileError(f"expected the score line ' name : 0    name : 0', not "
                               f"{score_text.strip()[:50]!r}", number, score_at)
        items = []
        for row_at, row in rows[1:]:
            try:
                items.append(_row_items(row, row_at))
            except _RowError as e:
                raise MatFileError(str(e), number, row_at) from None
        parsed.append((number, game_line, (m.group(1), m.group(3)), (int(m.group(2)), int(m.group(4))),
                       score_at, items))
    right = _right_start([p[5] for p in parsed])
    left = min((it.start for p in parsed for items in p[5] for it in items
                if it.kind in ("roll", "double", "take", "drop")), default=4)
    split = (left + right + 1) // 2
    players = _players_of(parsed, header, builder)
    for k, (number, _, _, score, score_at, game_rows) in enumerate(parsed):
        last = k == len(parsed) - 1
        actions: list[_Item] = [it for items in game_rows for it in items]
        builder.begin(number, score, score_at, cube_used=any(it.kind == "double" for it in actions))
        for it in actions:
            it.side = 1 if it.start >= split else 0
        try:
            _read_game(builder, actions, last and partial, last_line)
        except MatFileError as e:
            if not last or partial or e.line != last_line or "truncated" in str(e):
                raise
            raise MatFileError(f"{str(e).split(': ', 1)[-1]}; or the file is cut there (read it with "
                               f"partial=True for a match in progress: truncated)", e.game, e.line) from None
        builder.end(max([score_at] + [it.line for it in actions]), last, partial)
    builder.number = 0
    record_games = builder.finish(len(lines), partial)
    return MatchRecord(players, length, record_games, tuple(header), tuple(comments), rules,
                       tuple(builder.warnings))


def _players_of(parsed: list, header: list, builder: RecordBuilder) -> tuple:
    """The two names: each column's name on the score lines (a rating
    after a comma dropped); a name left empty is taken from another game,
    or from the header's Player tags."""
    names: list[str | None] = [None, None]
    for number, _, pair, _, at, _ in parsed:
        for side in (0, 1):
            name, _ = _name(pair[side])
            if not name:
                continue
            if names[side] is None:
                names[side] = name
            elif name != names[side]:
                builder.number = number
                builder.warn(at, f"{'left' if side == 0 else 'right'} player {name!r}",
                             f"{names[side]!r}, the name of game {parsed[0][0]}'s score line")
    builder.number = 0
    tagged = [v.strip() for k, v in header if k.lower() in ("player 1", "player 2") and v.strip()]
    for side in (0, 1):
        if names[side] is None:
            other = names[1 - side]
            rest = [t for t in tagged if t != other]
            if other is not None and other in tagged and len(rest) == 1:
                names[side] = rest[0]                # the header names both: the other tag
            elif other is None and len(tagged) == 2:
                names[side] = tagged[side]
            else:
                names[side] = f"Player {side}"
            builder.warn(parsed[0][4], f"no name for the {'left' if side == 0 else 'right'} player",
                         repr(names[side]))
    return (str(names[0]), str(names[1]))


def _read_game(builder: RecordBuilder, actions: list, cut_ok: bool, last_line: int) -> None:
    """Feed one game's items to the builder."""
    losses = [it for it in actions if it.kind == "losses"]
    acts = [it for it in actions if it.kind != "losses"]
    wins = [k for k, it in enumerate(acts) if it.kind == "wins"]
    if wins:
        k = wins[0]
        j = k - 1
        while j >= 0 and acts[j].kind == "concedes":
            j -= 1
        if j >= 0 and acts[j].kind == "double" and acts[j].side != acts[k].side:
            # A double answered by nothing but the other side's win: gnubg's
            # record of the cube decision of a side that then resigned on its
            # turn (a double must be answered by a take or a drop, RULES 7.3).
            del acts[j]
    for n, it in enumerate(acts):
        kind, side, line = it.kind, it.side, it.line
        if kind == "roll":
            d1, d2, moves, illegal = it.data
            if (d1, d2) == (0, 0) and not moves:
                continue                     # "00: ????": no roll was made
            if not (d1 and d2):
                builder.fail(f"{it.text!r}: dice are two numbers from 1 to 6 (RULES 2.1)", line)
            if illegal is not None:
                _illegal_play(builder, side, (d1, d2), illegal, it)
                continue
            if cut_ok and moves and line == last_line and n == len(acts) - 1:
                # The file's last item, perhaps cut inside the move.
                before = len(builder.game.history)
                try:
                    builder.move(side, (d1, d2), moves, line, as_written=False)
                except MatFileError:
                    if len(builder.game.history) != before + 1:
                        raise
                    builder.warn(line, it.text, "the dice alone: the file ends inside this move")
                continue
            # A play on the file's last line, with no result after it: the file is cut, perhaps
            # inside that play, so a play the rules refuse there is not kept as a set board.
            builder.move(side, (d1, d2), moves, line, as_written=not (line == last_line and n == len(acts) - 1))
        elif kind == "double":
            word, value = it.data
            builder.cube(side, word.capitalize(), value, line)
        elif kind in ("take", "drop"):
            builder.answer(side, kind, line)
        elif kind in ("concedes", "unplayed"):
            continue                         # the Wins line that follows gives the result
        else:
            builder.wins(side, it.data[0], line, written=it.text)
    game = builder.game
    o = game.outcome
    for it in losses:
        if o is None or 1 - o.winner != it.side or o.points != it.data[0]:
            used = "the game unfinished" if o is None else \
                f"player {1 - o.winner} loses {o.points} point{'s' if o.points != 1 else ''}"
            builder.warn(it.line, it.text, used)


def _illegal_play(builder: RecordBuilder, side: int, dice: tuple, body: str, item) -> None:
    """gnubg's ``Illegal play (...)``: the board after the roll, as a
    Snowie text position (12 fields of match state, the bar of the side
    written negative, the points 1-24 from the positive side's side, the
    positive side's bar, the dice).  Read as gnubg's ``import mat`` reads
    it: the dice, then the board set (``MOVE_SETDICE``, ``MOVE_SETBOARD``),
    the mover's checkers the negative ones when field 4 (the side "on
    roll") is the mover, else the positive ones; the opponent moves next."""
    game = builder.game
    fields = body.split(";")
    try:
        numbers = [int(v) for v in fields[12:38]]
        turn = int(fields[4])
    except (ValueError, IndexError):
        numbers, turn = [], 0
    if len(numbers) != 26:
        builder.fail(f"{item.text[:40]!r}: expected a Snowie position of 26 board numbers", item.line)
    points = numbers[1:25]
    positive = [max(v, 0) for v in points] + [abs(numbers[25])]
    negative = [max(-v, 0) for v in reversed(points)] + [abs(numbers[0])]
    mover, other = (negative, positive) if turn == side else (positive, negative)
    try:
        after = Position.from_array([mover, other])
    except ValueError as e:
        builder.fail(f"{item.text[:40]!r}: not a board ({e})", item.line)
    d1, d2 = dice
    before = game.position if game.phase is Phase.TURN else Position.initial()
    reached = [str(p) for p in before.legal_plays(dice) if p.position == after] if game.phase in (
        Phase.TURN, Phase.OPENING) else []
    reason = (f"gnubg's mark of a play it could not write; the legal play {reached[0]} reaches the same board"
              if reached else
              f"no legal play of {d1}-{d2} here reaches the board gnubg's 'Illegal play' gives (RULES 3-5)")
    builder.board(side, dice, after, item.line, item.text[:60], reason)


def _rules_from_header(header, length: int, line: int) -> Rules:
    if length:
        rules = Rules()
    else:
        rules = MONEY_RULES
        for key, value in header:
            if key.lower() == "jacoby" and value.strip().lower() in ("on", "yes", "true", "1"):
                rules = Rules(jacoby=True, beavers=rules.beavers)
            if key.lower() == "beavers":
                # Our own tag (write_mat): beavers and raccoons per double, "Off" for none (RULES 7.5).
                word = value.strip().lower()
                count = 0 if word in ("off", "no", "false") else MONEY_RULES.beavers if word in ("on", "yes", "true") \
                    else int(word) if word.isdigit() else None
                if count is None:
                    raise MatFileError(f"Beavers {value!r} is not On, Off or a count", None, line)
                rules = Rules(jacoby=rules.jacoby, beavers=count)
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
    if kind == "setboard":
        return f"{item[2][0]}{item[2][1]}: Illegal play ({_board_text(item[1], item[2], item[3].position)})"
    if kind == "double":
        word = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}[item[2]]
        return f" {word} => {item[3]}"
    return " Takes" if kind == "take" else " Drops"


def _board_text(player: int, dice: tuple, after: Position) -> str:
    """The Snowie text body of gnubg's ``Illegal play (...)``: field 4 the
    mover, whose checkers (row 0 of ``after``) are written negative, as
    gnubg's ``import mat`` reads them back (:func:`_illegal_play`)."""
    from .snowietxt import write_snowie_txt
    from ..matchid import MatchState
    return write_snowie_txt(after, MatchState(on_roll=player, dice=tuple(dice)))


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
    """The ``.mat`` text of a match.

    Parameters
    ----------
    source : Match, MatchRecord or DuelResult
        A :class:`~backgammon.match.Match` (its games' histories), a
        :class:`MatchRecord`, or a ``DuelResult`` made with
        ``record=True`` (written as a money session between
        ``result.a`` and ``result.b``).
    players : pair of str, optional
        The two sides' names; default the record's, or ``"Player 0"``
        and ``"Player 1"``.

    Returns
    -------
    str
        The file's text: write it with ``open(path, "w")``.

    Raises
    ------
    MatFileError
        A record the rules refuse (the games are replayed first), or an
        automatic double or an opening re-roll, which ``.mat`` cannot
        write.  A tied opening roll or a rejected resignation is left
        out.

    See Also
    --------
    read_mat, backgammon.formats.sgf.write_sgf

    Examples
    --------
    >>> import backgammon as bg
    >>> m = bg.Match(3, seed=1)
    >>> g = m.new_game(); g.roll((3, 1)); g.play("8/5 6/5")
    >>> g.resign(1, player=1); g.accept_resignation()
    >>> print(bg.write_mat(m, players=("Ann", "Bob")), end="")
     3 point match
    <BLANKLINE>
     Game 1
     Ann : 0                        Bob : 0
      1) 31: 8/5 6/5
          Wins 1 point
    """
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
    if record.length == 0 and record.rules.beavers != MONEY_RULES.beavers and "beavers" not in keys:
        # A money session is read with beavers on (MONEY_RULES): say when they were not.
        out.append(f'; [Beavers "{record.rules.beavers or "Off"}"]')
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
    """Write the games of a duel to ``path`` as a ``.mat`` money session;
    player A is the left column (player 0).

    Parameters
    ----------
    path : str or os.PathLike
        The file to write.
    duel_result : DuelResult
        Made with ``duel(..., record=True)``.
    players : pair of str, optional
        The names; default the duel's specs.

    Examples
    --------
    >>> import os, tempfile, backgammon as bg
    >>> path = os.path.join(tempfile.mkdtemp(), "duel.mat")
    >>> d = bg.duel("pubeval", "random", games=2, seed=1, workers=1, record=True)
    >>> save_duel(path, d)
    >>> len(bg.read_mat(path).games)
    2
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    duel_records(duel_result)
    text = write_mat(duel_result, players=players)
    write_atomically(path, text)


FORMAT = Format("mat", (".mat", ".txt"), "match", read_mat, write_mat, MatFileError)
