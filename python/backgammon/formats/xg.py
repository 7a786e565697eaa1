"""eXtreme Gammon's binary ``.xg`` match files (docs/formats.md, "XG
match files"), read through the optional ``gammonview`` package.

``gammonview`` (MIT, pure Python, on PyPI) decodes the file: its
``gvformat.xg.read_xg`` gives XG's records (the match header with player 1
and player 2, each game's header with the score before it) and
``gvformat.xg.convert_xg`` each game's rolls, plays, cube actions and
result.  :func:`read_xg` turns that into a
:class:`~backgammon.formats.record.MatchRecord` through the
:class:`~backgammon.formats.record.RecordBuilder`, so every game replays
through ``Match``/``Game`` as it is read: a play XG recorded that the rules
refuse (XG keeps what a transcriber typed, flagged invalid) is kept as a
set board, the board its moves make as written (``Game.set_board``, a
warning naming the rule), or with ``strict=True`` fails naming the game,
the action and the rule; so is a play gammonview can give only as the
board after it (its action 31).  Install it with
``pip install 'backgammon[xg]'``; without it :func:`read_xg` raises
:class:`XgFileError` saying so.

XG's player 1 is our player 0 (the left column of XG's text exports).
gammonview calls the players white and black after sorting their names, so
white is XG's player 1 or player 2: the sides are matched by name, and by
the first roll where both have one name.  An event's ``lines`` entry in the
record is the number of the game's action (gammonview's ply, from 1) it
came from, as a line number is for a text file.
XG stores every roll with the higher die first, whatever order the text
file it imported gave (so a roll's dice may come in the other order than
in a ``.mat`` file of the same match; the opening roll keeps each side's
die).

There is no writer: the format holds XG's analysis, which a record does
not have (``write`` is None in its :class:`~backgammon.formats.Format`).
gammonview 3.1.0 decodes finished games only: a file whose last game is
still in progress (no game footer) is refused as unreadable; a match that
nobody has won yet reads with ``partial=True``.

>>> FORMAT.name, FORMAT.extensions, FORMAT.binary
('xg', ('.xg',), True)
"""
from __future__ import annotations

import importlib
import os
from datetime import datetime, timezone
from typing import IO, cast

from .. import _validate
from ..position import Position
from ..rules import MAX_CUBE, Rules
from .record import MONEY_RULES, MatchFileError, MatchRecord, RecordBuilder
from .source import reader_options, reads_source
from .registry import Format

__all__ = ["XgFileError", "read_xg", "available"]

#: How to install what :func:`read_xg` needs.
INSTALL = "pip install 'backgammon[xg]'"

_DOUBLE, _TAKE, _DROP = 21, 22, 23
_GAME_OVER, _FINAL = 24, 26
_RESIGN = (27, 28)               # resign the game; resign, ending the match
_FORFEIT = 29
_SET_POSITION = 31               # gammonview: a play it could only give as a position


class XgFileError(MatchFileError):
    """An ``.xg`` file that cannot be read (or ``gammonview`` missing), or
    whose games break the rules; ``game`` and ``line`` (the action number in
    the game) say where.

    Examples
    --------
    >>> import backgammon as bg
    >>> issubclass(XgFileError, bg.MatchFileError)
    True
    """

    where = "action"


def _gammonview():
    try:
        return importlib.import_module("gvformat.xg")
    except ImportError:
        raise XgFileError(f"reading .xg files needs the gammonview package: {INSTALL}") from None


def available() -> bool:
    """Whether ``gammonview`` can be imported (the ``xg`` extra).

    Examples
    --------
    >>> available() in (True, False)
    True
    """
    try:
        _gammonview()
    except XgFileError:
        return False
    return True


@reads_source(binary=True)
def read_xg(source: str | bytes | os.PathLike | IO[bytes], rules: Rules | None = None, *, partial: bool = False,
            strict: bool = False) -> MatchRecord:
    """Read an eXtreme Gammon ``.xg`` file, replaying every game (RULES 2-8).

    Needs the ``xg`` extra (``gammonview``); XG's own analysis is not
    read.

    Parameters
    ----------
    source : str, os.PathLike, binary file or bytes
        The file's path (a ``str`` or a ``pathlib.Path``), the file open
        in binary mode, or its bytes.
    rules : Rules, optional
        Replaces the rules the file's match header gives (Jacoby and
        beavers in money play, the cube limit).
    partial : bool, default False
        Let the match end before anyone has won.
    strict : bool, default False
        Where XG's own result of a game is not what the play gives, the
        play wins and the record's ``warnings`` say so; with ``strict``
        that is an error.

    Returns
    -------
    MatchRecord

    Raises
    ------
    XgFileError
        A file gammonview cannot decode (or gammonview missing), or a
        game the rules refuse, naming the game and the action (and the
        path, when read from one).

    Examples
    --------
    >>> import backgammon as bg
    >>> bg.read_xg(b"not an xg file")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.formats.xg.XgFileError: not an .xg match file gammonview can read ...
    """
    data = cast(bytes, source)        # its bytes, whatever it was (reads_source)
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    _validate.instance("data", data, bytes)
    rules, partial, strict = reader_options(rules, partial, strict)
    gv = _gammonview()
    try:
        records = gv.read_xg(data)
        match = gv.convert_xg(data)
    except Exception as e:        # noqa: BLE001 -- whatever the decoder raises, the file is unreadable
        raise XgFileError(f"not an .xg match file gammonview can read ({type(e).__name__}: {e})") from None
    header = next((r for kind, r in records if kind == "header_match"), None)
    if header is None:
        raise XgFileError("the file has no match header")
    starts = [r for kind, r in records if kind == "header_game"]
    games = match.get("games", [])
    if len(starts) != len(games):
        raise XgFileError(f"the file has {len(starts)} game headers but gammonview gives {len(games)} games")
    players = (str(header["player1"]), str(header["player2"]))
    white = _white_side(players, match, records)
    length = int(match["match_length"])
    if rules is None:
        rules = _rules(header, length)
    builder = RecordBuilder(length, rules, XgFileError, mend=not strict)
    for number, (start, game) in enumerate(zip(starts, games), 1):
        _read_game(builder, number, start, game, white, number == len(games), partial)
    builder.number = 0
    record_games = builder.finish(0, partial)
    return MatchRecord(players, length, record_games, _header(match, header), (), rules,
                       tuple(builder.warnings))


def _white_side(players: tuple, match: dict, records: list) -> int:
    """Our player (0: XG's player 1) that gammonview calls white."""
    names = (match.get("player_white"), match.get("player_black"))
    by_name = None
    if players[0] != players[1]:
        if names == players:
            by_name = 0
        elif names == players[::-1]:
            by_name = 1
    # The first roll of the match: XG's mover (+1 player 1, -1 player 2) and gammonview's colour (1 white).
    first = next((r for kind, r in records if kind == "move"), None)
    ply = next((p for g in match.get("games", []) for p in g.get("plies", []) if "d1" in p), None)
    by_roll = None
    if first is not None and ply is not None and first.get("actifp") in (1, -1):
        mover = 0 if first["actifp"] == 1 else 1
        by_roll = mover if ply.get("color") == 1 else 1 - mover
    if by_name is None and by_roll is None:
        raise XgFileError(f"cannot tell which of {players[0]!r} and {players[1]!r} gammonview calls white")
    if by_name is not None and by_roll is not None and by_name != by_roll:
        raise XgFileError(f"gammonview's white player {names[0]!r} does not make the first roll XG gives it")
    return by_name if by_name is not None else int(by_roll)  # type: ignore[arg-type]


def _rules(header: dict, length: int) -> Rules:
    code = header.get("cube_limit_code", 10)
    # XG's default (10: 1024) is no limit, as read_xgid reads an XGID's ':10',
    # so that the rules of a file and the XGIDs of its positions are one (issue 40).
    limit = 1 << code if isinstance(code, int) and 0 <= code <= 15 and code != 10 else MAX_CUBE
    if length:
        return Rules(cube_limit=limit)
    return Rules(jacoby=bool(header.get("jacoby")), beavers=MONEY_RULES.beavers if header.get("beaver") else 0,
                 cube_limit=limit)


def _header(match: dict, header: dict) -> tuple:
    """The match header as ``.mat`` tags: site, event, date."""
    out = []
    for key, value in (("Site", match.get("site")), ("Event", match.get("event"))):
        if isinstance(value, str) and value.strip():
            out.append((key, value.strip()))
    stamp = match.get("timestamp")
    if isinstance(stamp, (int, float)) and stamp > 0:
        when = datetime.fromtimestamp(stamp, timezone.utc)
        out.append(("EventDate", when.strftime("%Y.%m.%d")))
    return tuple(out)


def _steps(ply: dict, colour_white: bool) -> str:
    """A roll's checker steps, from the mover's side (25 the bar, 0 off):
    gammonview numbers white's points from black's side."""
    out = []
    for step in ply.get("moves", []):
        frm = int(step["from"])
        pips = int(step["pips"])
        point = 25 - frm if colour_white else frm
        out.append(f"{point}/{max(point - pips, 0)}")
    return " ".join(out)


def _read_game(builder: RecordBuilder, number: int, start: dict, game: dict, white: int, last: bool,
               partial: bool) -> None:
    def side(colour) -> int:
        return white if colour == 1 else 1 - white

    builder.begin(number, (int(start["score1"]), int(start["score2"])), 0)
    plies = game.get("plies", [])
    g = builder.game
    if bool(game.get("is_crawford")) != g.crawford:
        builder.warn(0, f"{'' if game.get('is_crawford') else 'not '}the Crawford game",
                     f"{'' if g.crawford else 'not '}the Crawford game, as the score makes it (RULES 8.2)")
    at = 0
    for at, ply in enumerate(plies, 1):
        action = ply.get("action_id")
        player = side(ply.get("color"))
        if "d1" in ply:
            dice = (int(ply["d1"]), int(ply["d2"]))
            text = _steps(ply, ply.get("color") == 1)
            if not all(1 <= d <= 6 for d in dice):
                builder.fail(f"XG records the position after {dice[0]}{dice[1]}, not a play that reaches it "
                             f"(a play XG flagged invalid, RULES 3-5)", at)
            if action == _SET_POSITION:
                _set_position(builder, player, dice, ply, at)
                continue
            rest = [p for p in plies[at:] if p.get("action_id") not in (_GAME_OVER, _FINAL)]
            try:
                if not text and (not rest or rest[0].get("action_id") in _RESIGN + (_FORFEIT,)):
                    builder.dice_only(player, dice, at)      # rolled, never played: a resignation follows
                else:
                    builder.move(player, dice, text, at)
            except XgFileError as e:
                if not (ply.get("analysis") or {}).get("illegal_move"):
                    raise
                raise XgFileError(f"{str(e).split(': ', 1)[-1]}; XG itself marks this play invalid (as it "
                                  f"keeps a play a transcriber entered)", number, at) from None
        elif action == _DOUBLE:
            builder.cube(player, "Doubles", None, at)
        elif action in (_TAKE, _DROP):
            builder.answer(player, "take" if action == _TAKE else "drop", at)
        elif action in (_GAME_OVER, _FINAL) + _RESIGN + (_FORFEIT,):
            continue                 # the game's result, below
        else:
            builder.fail(f"gammonview action {action!r} is not a roll, a cube action or a result", at)
    winner, points = game.get("winner"), game.get("points_won")   # gammonview: 0 white, 1 black
    if winner in (0, 1) and isinstance(points, int) and points > 0:
        won = white if winner == 0 else 1 - white
        builder.wins(won, points, at, written=f"XG's result: player {won} wins {points}")
    builder.end(at, last, partial)


def _set_position(builder: RecordBuilder, player: int, dice: tuple, ply: dict, at: int) -> None:
    """A play XG flags invalid that gammonview can give only as the board
    after it (action 31): a set board (strict readers refuse it).  The
    board is gammonview's ``ogid_after``, its sides told apart by the
    opponent's checkers, which the play leaves where they were (or hits)."""
    text = f"{dice[0]}{dice[1]}: the position XG gives"
    try:
        after = Position.from_ogid(str(ply.get("ogid_after", "")))[0]
    except ValueError:
        builder.fail(f"XG records the position after {dice[0]}{dice[1]}, not a play that reaches it "
                     f"(a play XG flagged invalid, RULES 3-5), and gammonview gives no board for it", at)
    before = builder.game.position.array      # the mover's view (the opening: the starting board)
    # row 1 of a set board is the opponent's: of the two ways round, the one nearer its checkers before
    after = min((after, after.swapped()), key=lambda p: int(abs(p.array[1].astype(int)
                                                             - before[0].astype(int)).sum()))
    builder.board(player, dice, after, at, text, f"XG flags this play invalid and records the board after it "
                                                 f"(RULES 3-5)")


FORMAT = Format("xg", (".xg",), "match", read_xg, None, XgFileError, binary=True)
