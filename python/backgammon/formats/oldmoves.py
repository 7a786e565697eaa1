"""FIBS ``oldmoves`` files: the move history the First Internet Backgammon
Server prints (gnubg's ``import oldmoves``).

Each game starts with ``Score is 0-0 in a 5 point match.`` (or ``in a
money game``, or no length: money) and ``alice is X - bob is O``, then one
line per action, the actor first: ``X: (6 1)  13-7  8-7`` (a roll and its
moves), ``O: (3 3) can't move``, ``X: doubles``, ``O: accepts`` /
``rejects``, ``O: wants to resign`` and ``X: wins 2 points``.  Points are
FIBS's board numbers, which run the same way for both sides: a play that
climbs (the first step going up, or entering on 1-6, or bearing off from
19-24) is O's and is read from O's side (point p is 25 - p), as gnubg reads
it; ``bar`` and ``off`` (or 25 and 0) stand for the bar and off.  The
score line gives X's score first.

The X of the first game is player 0; a later game that names the players
the other way round (the same two names) keeps them on their sides.  A
``wins`` line while the game is still on is the other side's resignation,
its level the points over the cube (gnubg reads any such resignation as a
single game).  A blank line or a new ``Score is`` line ends a game.

>>> text = '''Score is 0-0 in a 1 point match.
... ann is X - bob is O
... X: (3 1)  8-5  6-5
... O: wins 1 point
... '''
>>> rec = read_oldmoves(text)
>>> rec.players, rec.length, rec.games[0].winner, rec.games[0].resigned
(('ann', 'bob'), 1, 1, True)
"""
from __future__ import annotations

import re
from typing import Any

from ..rules import Rules
from . import Format
from .record import MONEY_RULES, MatchFileError, MatchRecord, RecordBuilder
from .source import load, named, reader_options, text_lines

__all__ = ["OldmovesFileError", "read_oldmoves"]


class OldmovesFileError(MatchFileError):
    """A FIBS oldmoves file that is malformed or against the rules."""


_SCORE = re.compile(r"Score is ([0-9]+)-([0-9]+)(?: in a ([0-9]+) point match| in a money game)?", re.I)
_NAMES = re.compile(r"^\s*(\S+)\s+is\s+X\s*-\s*(\S+)\s+is\s+O\s*$", re.I)
_ACTION = re.compile(r"^\s*([XO])\s*:\s*(.*?)\s*$")
_ROLL = re.compile(r"^\(\s*([1-6])\s+([1-6])\s*\)\s*(.*)$")
_STEP = re.compile(r"^(bar|off|[0-9]{1,2})[-/](bar|off|[0-9]{1,2})(\*?)$", re.I)
_WINS = re.compile(r"^wins\s+([0-9]+)\s+points?", re.I)


def _point(word: str, bar: int) -> int:
    w = word.lower()
    if w == "bar":
        return bar
    if w == "off":
        return 0
    return int(w)


def _play(text: str, number: int, at: int) -> str:
    """FIBS steps as the mover's own points (gnubg's rule for which way)."""
    steps = []
    for word in text.replace(",", " ").split():
        m = _STEP.match(word)
        if not m:
            raise OldmovesFileError(f"cannot read the move {word!r}: expected steps such as 13-7, bar-22, 3-off",
                                    number, at)
        a, b = _point(m.group(1), 25), _point(m.group(2), 0)
        if a > 25 or b > 25:
            raise OldmovesFileError(f"{word!r}: points are 1-24, 25 or bar the bar, 0 or off", number, at)
        steps.append((a, b))
    if not steps:
        return ""
    a, b = steps[0]
    if a == 25:
        climbing = 1 <= b <= 6
    elif b == 0:
        climbing = a > 18
    else:
        climbing = a < b
    out = []
    for a, b in steps:
        if climbing:
            a = a if a in (0, 25) else 25 - a
            b = b if b in (0, 25) else 25 - b
        out.append(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}")
    return " ".join(out)


def read_oldmoves(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """Read a FIBS oldmoves file (a path, an open file, its text or bytes)
    into a :class:`~backgammon.formats.record.MatchRecord`, every game
    replayed (RULES 2-8); refusals raise :class:`OldmovesFileError` naming
    the game, the line and the rule."""
    data, path = load(source)
    rules, partial, strict = reader_options(rules, partial, strict)
    try:
        return _read(text_lines(data), rules, partial, strict)
    except OldmovesFileError as e:
        raise named(e, path) from None


def _games(lines: list[str]) -> list:
    """``[(score_line, (n0, n1, length), names_line, (x, o), [(line, text)])]``."""
    games: list = []
    current: list[Any] | None = None
    for at, text in enumerate(lines, 1):
        m = _SCORE.search(text)
        if m:
            current = [at, (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)), None, None, []]
            games.append(current)
            continue
        if current is None:
            continue                     # what a terminal session printed before the first game
        s = text.strip()
        if current[2] is None:
            if not s:
                continue
            n = _NAMES.match(text)
            if not n:
                raise OldmovesFileError(f"expected 'name is X - name is O', not {s[:40]!r}", len(games), at)
            current[2], current[3] = at, (n.group(1), n.group(2))
            continue
        if not s:
            if current[4]:
                current = None           # a blank line ends the game's actions
            continue
        if s.lower().startswith(("board:", "cube:", "bar:")):
            raise OldmovesFileError(f"{s[:30]!r}: a game from a set-up position, which a match record cannot "
                                    f"hold", len(games), at)
        current[4].append((at, text))
    if not games:
        raise OldmovesFileError("no 'Score is N-N in a N point match.' line: not a FIBS oldmoves file", None,
                                max(len(lines), 1))
    return games


def _read(lines: list[str], rules, partial: bool, strict: bool) -> MatchRecord:
    games = _games(lines)
    length = games[0][1][2]
    for at, (_, _, n), *_ in games:
        if n != length:
            raise OldmovesFileError(f"the match length changes from {length} to {n}: one file, one match", None, at)
    if games[0][3] is None:
        raise OldmovesFileError("the game has no 'name is X - name is O' line: truncated", 1, games[0][0])
    players = games[0][3]
    rules = rules if rules is not None else (Rules() if length else MONEY_RULES)
    builder = RecordBuilder(length, rules, OldmovesFileError, mend=not strict)
    for number, (at, (n0, n1, _), names_at, names, actions) in enumerate(games, 1):
        if names is None:
            raise OldmovesFileError("the game has no 'name is X - name is O' line: truncated", number, at)
        if set(names) != set(players) and names != players:
            raise OldmovesFileError(f"the players change from {players[0]} and {players[1]} to {names[0]} and "
                                    f"{names[1]}: one file, one match", number, names_at)
        x = 0 if names[0] == players[0] else 1
        score = (n0, n1) if x == 0 else (n1, n0)
        builder.begin(number, score, at, cube_used=any("doubles" in t.lower() for _, t in actions))
        end = names_at
        for end, text in actions:
            _action(builder, text, x, number, end)
            if builder.game.is_over() and builder.result is not None:
                break
        builder.end(end, number == len(games), partial)
    builder.number = 0
    return MatchRecord(players, length, builder.finish(len(lines), partial), (), (), rules, tuple(builder.warnings))


def _action(builder: RecordBuilder, text: str, x: int, number: int, at: int) -> None:
    m = _ACTION.match(text)
    if not m:
        raise OldmovesFileError(f"expected 'X: ...' or 'O: ...', not {text.strip()[:40]!r}", number, at)
    player = x if m.group(1).upper() == "X" else 1 - x
    body = m.group(2)
    low = body.lower()
    r = _ROLL.match(body)
    if r:
        dice = (int(r.group(1)), int(r.group(2)))
        rest = r.group(3).strip()
        if rest.lower().startswith("can't move") or rest.lower().startswith("cannot move"):
            rest = ""
        builder.move(player, dice, _play(rest, number, at), at)
    elif low.startswith("doubles"):
        builder.cube(player, "Doubles", None, at)
    elif low.startswith("accepts"):
        if builder.game.phase.name in ("DOUBLED", "BEAVERED"):
            builder.answer(player, "take", at)
        # "accepts" a resignation: the wins line that follows scores it
    elif low.startswith("rejects"):
        if builder.game.phase.name in ("DOUBLED", "BEAVERED"):
            builder.answer(player, "drop", at)
    elif low.startswith("wants to resign") or low.startswith("gives up"):
        return
    else:
        w = _WINS.match(body)
        if not w:
            raise OldmovesFileError(f"cannot read {body[:40]!r}: expected (d d) moves, doubles, accepts, rejects "
                                    f"or wins N points", number, at)
        builder.wins(player, int(w.group(1)), at, written=text.strip())


def sniff_oldmoves(data: bytes) -> bool:
    head = data[:2000]
    return bool(re.search(rb"Score is [0-9]+-[0-9]+", head)) and bool(re.search(rb"is X\s*-\s*\S+ is O", head))


FORMAT = Format("oldmoves", (".fibs", ".oldmoves"), "match", read_oldmoves, None, OldmovesFileError,
                sniff=sniff_oldmoves)
