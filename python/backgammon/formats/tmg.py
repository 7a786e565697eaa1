"""TrueMoneyGames ``.tmg`` match logs (gnubg's ``import tmg``).

Option lines ``Key: value`` (``MatchID``, ``Player1: <id> <name>
<rating>``, ``Player2: ...``, ``Startdate``, ``Jacoby: 0|1``,
``Crawford: 0|1``, ``Cube: 0|1``, ``Length: N`` (0 money), ``Variant: 1``
(2 is nackgammon), ...), then per game ``Game 1: 0-0`` (Player1's score
first) and one record a line: ``<turn> <type> <data>``, the turn number
positive for Player1 and negative for Player2, the type 1 a roll (``1 52``
or ``?`` when none was made), 2 an automatic double, 4 a move (``24/18
13/10`` from the mover's side, 25 the bar, 0 off; ``0/0`` none), 5 a
double, 7 a take, 8 a beaver, 10 a pass, 14/15/16 a win of 1, 2 or 3 times
the stake (``14 2 alice wins 2 points``: while the game is on, the other
side resigned), 17 and 22 a loss on time, 19 the table stake.  Option
lines may come inside a game (the players may change settings).

Player1 is player 0.

>>> text = "Player1: 1 ann 4.00\\nPlayer2: 2 bob 4.00\\nLength: 1\\nGame 1: 0-0\\n 1 1 31\\n 1 4 8/5 6/5\\n-1 14 1 bob wins 1 point\\n"
>>> rec = read_tmg(text)
>>> rec.players, rec.games[0].winner, rec.games[0].resigned
(('ann', 'bob'), 1, True)
"""
from __future__ import annotations

import re

from ..rules import Rules
from . import Format
from .record import MONEY_RULES, MatchFileError, MatchRecord, RecordBuilder
from .source import load, named, reader_options, text_lines

__all__ = ["TmgFileError", "read_tmg"]


class TmgFileError(MatchFileError):
    """A TrueMoneyGames ``.tmg`` file that is malformed or against the rules."""


_GAME = re.compile(r"^\s*Game\s+([0-9]+):\s*([0-9]+)-([0-9]+)")
_RECORD = re.compile(r"^\s*(-?[0-9]+)\s+([0-9]+)\s*(.*?)\s*$")
_OPTION = re.compile(r"^\s*([A-Za-z][A-Za-z0-9]*):\s*(.*?)\s*$")
_STEP = re.compile(r"^([0-9]{1,2})/([0-9]{1,2})\*?$")


def read_tmg(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """Read a TrueMoneyGames ``.tmg`` file (a path, an open file, its text
    or bytes) into a :class:`~backgammon.formats.record.MatchRecord`, every
    game replayed; refusals raise :class:`TmgFileError` naming the game,
    the line and the rule."""
    data, path = load(source)
    rules, partial, strict = reader_options(rules, partial, strict)
    try:
        return _read(text_lines(data), rules, partial, strict)
    except TmgFileError as e:
        raise named(e, path) from None


def _read(lines: list[str], rules, partial: bool, strict: bool) -> MatchRecord:
    options: dict[str, str] = {}
    names = ["Player 1", "Player 2"]
    games: list = []
    for at, text in enumerate(lines, 1):
        g = _GAME.match(text)
        if g:
            games.append([at, (int(g.group(2)), int(g.group(3))), int(g.group(1)), []])
            continue
        if _RECORD.match(text) and games:
            games[-1][3].append((at, text))
            continue
        o = _OPTION.match(text)
        if o:
            key, value = o.group(1).lower(), o.group(2)
            if key in ("player1", "player2"):
                words = value.split()
                if len(words) >= 2:
                    names[int(key[-1]) - 1] = words[1]
            elif not games:
                options[key] = value
            elif key in ("variant",) and value.strip() not in ("1", ""):
                raise TmgFileError(f"the variant changes to {value!r}", len(games), at)
            continue
        if text.strip() and games:
            raise TmgFileError(f"cannot read {text.strip()[:40]!r}: expected '<turn> <type> <data>'", len(games), at)
    if not games:
        raise TmgFileError("no 'Game 1: 0-0' line: the file holds no game", None, max(len(lines), 1))
    if options.get("variant", "1").strip() not in ("1", ""):
        raise TmgFileError(f"Variant {options['variant']}: only backgammon (1) is played here (RULES 1)")
    try:
        length = int(options.get("length", "0") or 0)
    except ValueError:
        raise TmgFileError(f"Length {options.get('length')!r} is not a number") from None
    if not 0 <= length <= 255:
        raise TmgFileError(f"Length {length}: a match is 1 to 255 points, 0 money")
    if rules is None:
        rules = Rules() if length else Rules(jacoby=options.get("jacoby", "1").strip() == "1",
                                             beavers=MONEY_RULES.beavers if options.get("beavers", "1").strip() != "0"
                                             else 0)
    builder = RecordBuilder(length, rules, TmgFileError, mend=not strict)
    for number, (at, score, written, records) in enumerate(games, 1):
        if written != number:
            raise TmgFileError(f"game {written} where game {number} was expected", None, at)
        builder.begin(number, score, at, cube_used=any(_kind(t) == "5" for _, t in records))
        last = _read_game(builder, records, number, at)
        builder.end(last, number == len(games), partial)
    builder.number = 0
    return MatchRecord(tuple(names), length, builder.finish(len(lines), partial), (), (), rules,
                       tuple(builder.warnings))


def _kind(text: str) -> str | None:
    m = _RECORD.match(text)
    return m.group(2) if m else None


def _read_game(builder: RecordBuilder, records: list, number: int, last: int) -> int:
    dice = None
    for at, text in records:
        m = _RECORD.match(text)
        if m is None:
            raise TmgFileError(f"cannot read {text.strip()[:40]!r}: expected '<turn> <type> <data>'", number, at)
        turn, kind, rest = int(m.group(1)), int(m.group(2)), m.group(3)
        player = 1 if m.group(1).startswith("-") else 0
        last = at
        if kind == 1:
            if rest.startswith("?"):
                continue                                  # no roll made: the game was lost on time
            if not re.fullmatch(r"[1-6][1-6]:?", rest):
                raise TmgFileError(f"a roll is two dice 1-6 such as 52, not {rest[:12]!r}", number, at)
            dice = (int(rest[0]), int(rest[1]))
            if not _move_follows(records, at):
                builder.dice_only(player, dice, at)
                dice = None
        elif kind == 2:
            raise TmgFileError("an automatic double (RULES 7.5 option) cannot be replayed from a match file",
                               number, at)
        elif kind == 4:
            if dice is None:
                raise TmgFileError("a move with no roll before it", number, at)
            steps = []
            for word in rest.split():
                s = _STEP.match(word)
                if not s:
                    raise TmgFileError(f"cannot read the move {word!r}: expected steps such as 24/18", number, at)
                a, b = int(s.group(1)), int(s.group(2))
                if (a, b) == (0, 0):
                    continue
                if not 1 <= a <= 25 or not 0 <= b <= 24:
                    raise TmgFileError(f"{word!r}: points are 1-24, 25 the bar, 0 off", number, at)
                steps.append(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}")
            builder.move(player, dice, " ".join(steps), at)
            dice = None
        elif kind in (5, 8):
            builder.cube(player, "Doubles" if kind == 5 else "Beavers", None, at)
        elif kind == 7:
            builder.answer(player, "take", at)
        elif kind == 10:
            builder.answer(player, "drop", at)
        elif kind in (14, 15, 16):
            w = re.match(r"^([0-9]+)", rest)
            if not w:
                raise TmgFileError(f"a win gives its points first, not {rest[:20]!r}", number, at)
            builder.wins(player, int(w.group(1)), at, written=text.strip())
            return at
        elif kind in (17, 19, 22):
            continue                                      # time-outs and the table stake
        else:
            raise TmgFileError(f"record type {kind} is not one gnubg reads (1, 2, 4, 5, 7, 8, 10, 14-17, 19, 22)",
                               number, at)
    return last


def _move_follows(records: list, at: int) -> bool:
    for k, (line, text) in enumerate(records):
        if line == at:
            nxt = records[k + 1][1] if k + 1 < len(records) else ""
            return _kind(nxt) == "4"
    return False


def sniff_tmg(data: bytes) -> bool:
    """gnubg's test: ``Key:`` lines up to a ``Game N:`` line."""
    for line in data[:4000].splitlines():
        s = line.strip()
        if not s:
            continue
        if re.match(rb"(?i)game\s+[0-9]+:", s):
            return True
        if not re.match(rb"^[A-Za-z0-9]+:", s):
            return False
    return False


FORMAT = Format("tmg", (".tmg",), "match", read_tmg, None, TmgFileError, sniff=sniff_tmg)
