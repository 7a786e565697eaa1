"""GamesGrid ``.sgg`` saved games (gnubg's ``import sgg``).

The layout gnubg's import documents: a first line ``alice vs. bob`` (player 0
on the left), option lines (``Match Length: 5``, ``Crawford: Yes``,
``Jacoby: Yes``, ``Doubling Cube: Yes``, ``Variant: Backgammon``, ``ELO:
...``, a date, a place), then per game ``Game 1. 0-0/5`` (the score before
it, ``*`` after a score in the Crawford game, ``/length`` omitted in money
play) and one action a line: the move number, one tab for player 0 or two
for player 1, then ``43: 13/9, 13/10`` (a roll and its play, each side's
own points, ``bar`` and ``off`` or 25 and 0), ``62: O-O`` (a dance; `` -``
as the dice: a closed board), ``Double``, ``Beaver``, ``Raccoon``,
``Accept``, ``Pass`` or ``Resign`` (also after dice: ``43: resign``).  The
game ends with ``alice  wins 2 points.``; after a resignation those
points over the cube are its level.  Lines without a move number are
comments.  As gnubg reads them, a roll written twice (GamesGrid repeats
some) counts once, and a beaver is taken by the doubler's next roll.

>>> text = "ann vs. bob\\nMatch Length: 1\\n\\nGame 1. 0-0/1\\n1\\t31: 8/5, 6/5\\n1\\t\\tResign\\nann  wins 1 point.\\n"
>>> rec = read_sgg(text)
>>> rec.players, rec.games[0].winner, rec.games[0].points, rec.games[0].resigned
(('ann', 'bob'), 0, 1, True)
"""
from __future__ import annotations

import re

from ..rules import Rules
from . import Format
from .record import MONEY_RULES, MatchFileError, MatchRecord, RecordBuilder
from .source import load, named, reader_options, text_lines

__all__ = ["SggFileError", "read_sgg"]


class SggFileError(MatchFileError):
    """A GamesGrid ``.sgg`` file that is malformed or against the rules."""


_VS = re.compile(r"^\s*(.*?\S)\s+vs\.\s+(.*?\S)\s*$")
_GAME = re.compile(r"^Game\s+([0-9]+)\.\s*([0-9]+)(\*?)-([0-9]+)(\*?)(?:/([0-9]+))?")
_ROW = re.compile(r"^([0-9]+)\t(\t?)(.*)$")
_WINS = re.compile(r"^(\S+)\s\s+wins\s+([0-9]+)\s+points?", re.I)
_DICE = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_STEP = re.compile(r"^(bar|off|[0-9]{1,2})/(bar|off|[0-9]{1,2})\*?$", re.I)


def _steps(text: str, number: int, at: int) -> str:
    out = []
    for word in text.replace(",", " ").split():
        m = _STEP.match(word)
        if not m:
            raise SggFileError(f"cannot read the move {word!r}: expected steps such as 13/9, bar/22, 3/off",
                               number, at)
        a = 25 if m.group(1).lower() == "bar" else (0 if m.group(1).lower() == "off" else int(m.group(1)))
        b = 0 if m.group(2).lower() == "off" else (25 if m.group(2).lower() == "bar" else int(m.group(2)))
        out.append(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}")
    return " ".join(out)


def read_sgg(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """Read a GamesGrid ``.sgg`` file (a path, an open file, its text or
    bytes) into a :class:`~backgammon.formats.record.MatchRecord`, every
    game replayed; refusals raise :class:`SggFileError` naming the game,
    the line and the rule."""
    data, path = load(source)
    rules, partial, strict = reader_options(rules, partial, strict)
    try:
        return _read(text_lines(data), rules, partial, strict)
    except SggFileError as e:
        raise named(e, path) from None


def _read(lines: list[str], rules, partial: bool, strict: bool) -> MatchRecord:
    players = None
    at = 0
    options: dict[str, str] = {}
    header = []
    while at < len(lines):
        text = lines[at]
        at += 1
        m = _VS.match(text)
        if m:
            players = (m.group(1), m.group(2))
            break
    if players is None:
        raise SggFileError("no 'name vs. name' line: not a GamesGrid .sgg file", None, max(len(lines), 1))
    games: list = []
    for k in range(at, len(lines)):
        text = lines[k]
        g = _GAME.match(text)
        if g:
            games.append([k + 1, g, []])
            continue
        if not games:
            if ":" in text:
                key, _, value = text.partition(":")
                options[key.strip().lower()] = value.strip()
            elif text.strip():
                header.append(("Place", text.strip()))
            continue
        games[-1][2].append((k + 1, text))
    if not games:
        raise SggFileError("no 'Game 1. 0-0/N' line: the file holds no game", None, max(len(lines), 1))
    if options.get("variant", "Backgammon").lower() != "backgammon":
        raise SggFileError(f"the variant is {options['variant']!r}: only backgammon is played here (RULES 1)")
    length = int(games[0][1].group(6) or 0)
    if rules is None:
        rules = Rules() if length else Rules(jacoby=options.get("jacoby", "Yes") == "Yes",
                                             beavers=MONEY_RULES.beavers)
    builder = RecordBuilder(length, rules, SggFileError, mend=not strict)
    for number, (game_at, g, rows) in enumerate(games, 1):
        if int(g.group(1)) != number:
            raise SggFileError(f"game {g.group(1)} where game {number} was expected", None, game_at)
        if int(g.group(6) or 0) != length:
            raise SggFileError(f"the match length changes to {g.group(6) or 0}: one file, one match", number, game_at)
        score = (int(g.group(2)), int(g.group(4)))
        builder.begin(number, score, game_at, cube_used=any("double" in t.lower() for _, t in rows))
        last_at = _read_game(builder, rows, number, players, game_at)
        builder.end(last_at, number == len(games), partial)
    builder.number = 0
    return MatchRecord(players, length, builder.finish(len(lines), partial), tuple(header), (), rules,
                       tuple(builder.warnings))


def _read_game(builder: RecordBuilder, rows: list, number: int, players: tuple, last_at: int) -> int:
    resigned = None
    previous = None
    for at, text in rows:
        w = _WINS.match(text)
        if w:
            name, points = w.group(1), int(w.group(2))
            winner = 0 if name == players[0] else (1 if name == players[1] else None)
            if winner is None:
                raise SggFileError(f"{name!r} wins, but the players are {players[0]} and {players[1]}", number, at)
            if not builder.game.is_over() or resigned is not None:
                builder.wins(winner, points, at, resigned=True if resigned is not None else None,
                             written=text.strip())
            else:
                builder.wins(winner, points, at, written=text.strip())
            return at
        r = _ROW.match(text)
        if not r:
            if re.match(r"^[0-9]+:\s*Automatic double", text):
                raise SggFileError("an automatic double (RULES 7.5 option) cannot be replayed from a match file",
                                   number, at)
            continue                                   # a comment
        last_at = at
        player = 1 if r.group(2) else 0
        body = r.group(3).strip()
        key = (r.group(1), player, body)
        if key == previous:
            continue                                   # GamesGrid writes some lines twice
        previous = key
        low = body.lower()
        if low.startswith(" -") or body.startswith("-"):
            body, low = "66: O-O", "66: o-o"           # a closed board: no dice written
        d = _DICE.match(body)
        if d:
            dice = (int(d.group(1)), int(d.group(2)))
            rest = d.group(3).strip()
            if not rest:
                continue                               # the dice alone: the play follows on the next line
            if rest.lower().startswith("resign"):
                builder.dice_only(player, dice, at)
                resigned = player
            elif rest.upper().startswith("O-O"):
                builder.move(player, dice, "", at)
            else:
                builder.move(player, dice, _steps(rest, number, at), at)
        elif low.startswith("double"):
            builder.cube(player, "Doubles", None, at)
        elif low.startswith("beaver"):
            builder.cube(player, "Beavers", None, at)
        elif low.startswith("raccoon"):
            builder.cube(player, "Raccoons", None, at)
        elif low.startswith("accept"):
            if builder.game.phase.name in ("DOUBLED", "BEAVERED"):
                builder.answer(player, "take", at)
        elif low.startswith("pass"):
            builder.answer(player, "drop", at)
        elif low.startswith("resign"):
            resigned = player
        else:
            raise SggFileError(f"cannot read {body[:40]!r}: expected dice and moves, Double, Beaver, Raccoon, "
                               f"Accept, Pass or Resign", number, at)
    return last_at


def sniff_sgg(data: bytes) -> bool:
    """gnubg's test: a word, ``vs.``, a word."""
    first = data[:300].lstrip().split(b"\n", 1)[0]
    return bool(re.match(rb"^\S+\s+vs\.\s+\S+", first))


FORMAT = Format("sgg", (".sgg",), "match", read_sgg, None, SggFileError, sniff=sniff_sgg)
