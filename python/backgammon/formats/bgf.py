"""BGBlitz's ``.bgf`` match files (docs/formats.md, "BGBlitz .bgf").

A ``.bgf`` file is one line of JSON (``{"format":"BGF","version":"1.0",
"compress":true,"useSmile":true}``), then the match as a JSON document,
gzip- or zlib-compressed and Smile-encoded when the header says so
(:mod:`backgammon.formats.smile` decodes it; plain JSON when it does not).

The document: ``nameGreen``, ``nameRed``, ``matchlen`` (0 money),
``useCrawford``, ``useJacoby``, ``useBeaver``, ``cubeLimit``, ``date``,
``event``, ``site``..., and ``games``: per game the score before it
(``scoreGreen``, ``scoreRed``), ``isCrawford``, the starting board and
cube (``initial``), ``wonPoints``, ``wasResignation`` and the ``moves``.
A move record has the ``player`` (-1 green, 1 red), two numbers ``red`` and
``green`` and four ``from``/``to`` pairs (-1 unused).  A roll and its play:
``red``/``green`` are the dice, the pairs single-die steps counted from the
mover's side (25 the bar, 0 or less off).  Any other action has ``green``
7 and its code in ``red``: 1 double, 2 take, 3 pass, 4 the end of the game
(by the winner; in the last game ``wonPoints`` may be 0 and the
match's ``finalGreen``/``finalRed`` give the result), 5 a
roll that cannot be played (the dice in ``from[0]`` and ``to[0]``), 9 a
resignation.  The records carry BGBlitz's analysis, which the record does
not keep.

Green is player 0.  Every game replays through ``Match``/``Game``
(:class:`~backgammon.formats.record.RecordBuilder`); a record's ``lines``
are the numbers of the game's move records (from 1).

>>> FORMAT.name, FORMAT.extensions, FORMAT.binary
('bgf', ('.bgf',), True)
"""
from __future__ import annotations

import gzip
import json
import zlib

from .._validate import data_bytes
from ..rules import MAX_CUBE, Rules
from . import Format
from .record import MONEY_RULES, MatchFileError, MatchRecord, RecordBuilder
from .smile import SmileError
from .smile import decode as smile_decode
from .source import load, named, reader_options

__all__ = ["BgfFileError", "read_bgf", "bgf_document"]

_DOUBLE, _TAKE, _PASS, _END, _DANCE, _RESIGN = 1, 2, 3, 4, 5, 9
_SPECIAL = 7
_MAX_INFLATED = 64 * 1024 * 1024


class BgfFileError(MatchFileError):
    """A ``.bgf`` file that cannot be decoded, or whose games break the
    rules; ``game`` and ``line`` (the move record's number in the game) say
    where."""

    def __init__(self, message: str, game: int | None = None, line: int | None = None):
        where = [w for w in (f"game {game}" if game else "", f"record {line}" if line else "") if w]
        ValueError.__init__(self, f"{', '.join(where)}: {message}" if where else message)
        self.game = game
        self.line = line


def _inflate(payload: bytes) -> bytes:
    try:
        if payload[:2] == b"\x1f\x8b":
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif payload[:1] == b"\x78":
            d = zlib.decompressobj()
        else:
            return payload
        out = d.decompress(payload, _MAX_INFLATED + 1)
    except (zlib.error, gzip.BadGzipFile, EOFError) as e:
        raise BgfFileError(f"the compressed match cannot be inflated ({e})") from None
    if not d.eof and len(out) <= _MAX_INFLATED:
        raise BgfFileError("the compressed match cannot be inflated: it is cut short (truncated)")
    if len(out) > _MAX_INFLATED:
        raise BgfFileError(f"the match inflates to more than {_MAX_INFLATED:,} bytes")
    return out


def bgf_document(data: bytes) -> tuple[dict, dict]:
    """The header and the match document of a ``.bgf`` file's bytes."""
    data = data_bytes("data", data)
    nl = data.find(b"\n")
    if nl < 0:
        raise BgfFileError("not a .bgf file: no JSON header line")
    try:
        header = json.loads(data[:nl].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise BgfFileError(f"not a .bgf file: the first line is not JSON ({e})") from None
    if not isinstance(header, dict) or str(header.get("format", "")).upper() != "BGF":
        raise BgfFileError("not a .bgf file: the header does not say format BGF")
    body = _inflate(data[nl + 1:])
    try:
        doc = smile_decode(body) if body[:3] == b":)\n" else json.loads(body.decode("utf-8"))
    except SmileError as e:
        raise BgfFileError(f"the match document: {e}") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise BgfFileError(f"the match document is neither Smile nor JSON ({type(e).__name__})") from None
    if not isinstance(doc, dict):
        raise BgfFileError("the match document is not a JSON object")
    return header, doc


def _int(obj: dict, key: str, default=None, low: int = -(1 << 31), high: int = 1 << 31) -> int:
    v = obj.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise BgfFileError(f"{key!r} must be a whole number from {low} to {high}, not {v!r}")
    return v


def _rules(doc: dict, length: int) -> Rules:
    limit = doc.get("cubeLimit", MAX_CUBE)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1 or limit & (limit - 1):
        limit = MAX_CUBE
    limit = min(limit, MAX_CUBE)
    if length:
        return Rules(cube_limit=limit)
    return Rules(jacoby=bool(doc.get("useJacoby")), beavers=MONEY_RULES.beavers if doc.get("useBeaver") else 0,
                 cube_limit=limit)


def read_bgf(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """Read a ``.bgf`` file (a path, an open binary file or its bytes) into a
    :class:`~backgammon.formats.record.MatchRecord`, every game replayed.

    ``rules`` replaces the file's (Jacoby, beavers, the cube limit);
    ``partial`` lets the last game and the match be unfinished (a money
    session's last game that nobody finished, a match in progress);
    ``strict`` makes a result the play contradicts an error instead of a
    warning.  Refusals raise :class:`BgfFileError` naming the game, the
    record and the rule."""
    data, path = load(source)
    rules, partial, strict = reader_options(rules, partial, strict)
    try:
        return _read(data, rules, partial, strict)
    except BgfFileError as e:
        raise named(e, path) from None


def _read(data: bytes, rules, partial: bool, strict: bool) -> MatchRecord:
    _, doc = bgf_document(data)
    length = _int(doc, "matchlen", 0, 0, 255)
    players = (str(doc.get("nameGreen") or "Green"), str(doc.get("nameRed") or "Red"))
    rules = rules if rules is not None else _rules(doc, length)
    builder = RecordBuilder(length, rules, BgfFileError, mend=not strict)
    games = doc.get("games")
    if not isinstance(games, list) or not games:
        raise BgfFileError("the match holds no games")
    for number, game in enumerate(games, 1):
        if not isinstance(game, dict):
            raise BgfFileError("a game is not a JSON object", number)
        builder.number = number
        final = None
        if number == len(games):
            final = (doc.get("finalGreen"), doc.get("finalRed"))
        _read_game(builder, number, game, number == len(games), partial, final)
    builder.number = 0
    header = tuple((k, str(doc[key]).strip()) for k, key in (("Site", "site"), ("Event", "event"),
                                                           ("Round", "round"), ("EventDate", "date"))
                   if isinstance(doc.get(key), str) and doc[key].strip())
    record_games = builder.finish(0, partial)
    return MatchRecord(players, length, record_games, header, (), rules, tuple(builder.warnings))


def _side(player, number: int, at: int) -> int:
    if player == -1:
        return 0
    if player == 1:
        return 1
    raise BgfFileError(f"'player' is -1 (green) or 1 (red), not {player!r}", number, at)


def _steps(frm: list, to: list, number: int, at: int) -> str:
    out = []
    for f, t in zip(frm, to):
        if f == -1:
            break
        if isinstance(f, bool) or not isinstance(f, int) or isinstance(t, bool) or not isinstance(t, int) \
                or not 1 <= f <= 25 or t > 24:
            raise BgfFileError(f"a step {f!r}/{t!r}: points are 1-24, 25 the bar, 0 or less off", number, at)
        out.append(f"{'bar' if f == 25 else f}/{'off' if t <= 0 else t}")
    return " ".join(out)


def _read_game(builder: RecordBuilder, number: int, game: dict, last: bool, partial: bool, final=None) -> None:
    score = (_int(game, "scoreGreen", 0, 0, 1 << 15), _int(game, "scoreRed", 0, 0, 1 << 15))
    moves = game.get("moves")
    if not isinstance(moves, list):
        raise BgfFileError("the game has no list of moves", number)
    builder.begin(number, score, 0, cube_used=any(isinstance(m, dict) and m.get("green") == _SPECIAL
                                                    and m.get("red") == _DOUBLE for m in moves))
    initial = game.get("initial") or {}
    if isinstance(initial, dict) and initial.get("cube", 1) not in (1, None):
        builder.fail(f"the game starts with the cube at {initial.get('cube')!r}: a set-up position, "
                     f"which a match record cannot hold", 0)
    g = builder.game
    if bool(game.get("isCrawford")) != g.crawford and builder.match.length:
        builder.warn(0, f"{'' if game.get('isCrawford') else 'not '}the Crawford game",
                     f"{'' if g.crawford else 'not '}the Crawford game, as the score makes it (RULES 8.2)")
    ended_by = None
    at = 0
    for at, m in enumerate(moves, 1):
        if not isinstance(m, dict):
            raise BgfFileError("a move record is not a JSON object", number, at)
        player = _side(m.get("player"), number, at)
        code, second = m.get("red"), m.get("green")
        frm, to = m.get("from") or [], m.get("to") or []
        if not isinstance(frm, list) or not isinstance(to, list):
            raise BgfFileError("'from' and 'to' must be lists of points", number, at)
        if second == _SPECIAL:
            if code == _DOUBLE:
                builder.cube(player, "Doubles", None, at)
            elif code == _TAKE:
                builder.answer(player, "take", at)
            elif code == _PASS:
                builder.answer(player, "drop", at)
            elif code == _DANCE:
                dice = (frm[0] if frm else None, to[0] if to else None)
                if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
                    raise BgfFileError(f"a roll that cannot be played carries its dice in from[0] and to[0], "
                                       f"not {dice!r}", number, at)
                builder.move(player, dice, "", at)
            elif code == _RESIGN:
                continue             # the end record that follows gives the points
            elif code == _END:
                ended_by = (player, at)
                break
            else:
                raise BgfFileError(f"action code {code!r} (green 7) is not a double (1), take (2), pass (3), "
                                   f"end (4), dance (5) or resignation (9)", number, at)
            continue
        dice = (code, second)
        if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
            raise BgfFileError(f"the dice are {dice!r}: two numbers from 1 to 6 (RULES 2.1)", number, at)
        builder.move(player, dice, _steps(frm, to, number, at), at)
    points = game.get("wonPoints", 0)
    if ended_by is not None and points == 0 and final is not None \
            and all(isinstance(v, int) and not isinstance(v, bool) for v in final):
        # The last game, left with no wonPoints: the match's final score holds its result.
        gained = final[ended_by[0]] - score[ended_by[0]]
        if gained > 0 and final[1 - ended_by[0]] == score[1 - ended_by[0]]:
            points = gained
    if ended_by is not None and isinstance(points, int) and not isinstance(points, bool) and points > 0:
        builder.wins(ended_by[0], points, ended_by[1], written=f"BGBlitz: player {ended_by[0]} wins {points}")
    builder.end(at, last, partial)


def sniff_bgf(data: bytes) -> bool:
    """A first line of JSON naming the format BGF."""
    head = data[:300].split(b"\n", 1)[0]
    return head.lstrip().startswith(b"{") and b'"BGF"' in head.replace(b" ", b"")


FORMAT = Format("bgf", (".bgf",), "match", read_bgf, None, BgfFileError, binary=True, sniff=sniff_bgf)
