"""Snowie's text position format (gnubg's ``import snowietxt`` and
``export position snowietxt``): one line of 40 fields, each followed by
``;``, every number from the side of the player on roll.

===========  ==========================================================
field        meaning
===========  ==========================================================
0            match length (0: money)
1            1 when the Jacoby rule is on (money play)
2            0 (unused)
3            1 in money play, 0 in a match (gnubg writes it so)
4            the player on roll (0: the first player)
5, 6         the name of the player on roll, then of the opponent
7            1 in the Crawford game
8, 9         the scores of the player on roll and of the opponent
10           the cube value
11           the cube's owner: 1 the player on roll, -1 the opponent,
             0 centred
12           the opponent's checkers on the bar, written negative
13-36        points 1-24 counted from the player on roll's side: the
             player's checkers positive, the opponent's negative
37           the player on roll's checkers on the bar
38, 39       the dice (0 0 when not rolled)
===========  ==========================================================

Snowie's *match* text export (also what gnubg's ``export match
snowietxt`` writes, and the ``snowietxt`` files of FIBS archives and bglib)
is the ``.mat`` layout: :func:`~backgammon.formats.mat.read_mat` reads it
and :func:`~backgammon.formats.mat.write_mat` writes it.

>>> sp = read_snowie_txt("9;0;0;0;1;root;gnubg;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;0;0;")
>>> sp.position == Position.initial(), sp.state.on_roll, sp.state.match_length, sp.players
(True, 1, 9, ('gnubg', 'root'))
>>> write_snowie_txt(sp.position, sp.state, players=sp.players)
'9;0;0;0;1;root;gnubg;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;0;0;'

The format holds no double offered, resignation or game over: the
writer refuses such states.  Names may not hold ``;``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .._validate import instance
from ..errors import FormatError, InvalidPositionError
from ..matchid import GameState, InvalidMatchStateError, MatchState
from ..position import Position
from . import Format
from .source import decode, load, named

__all__ = ["SnowiePosition", "SnowieTxtError", "read_snowie_txt", "write_snowie_txt"]


class SnowieTxtError(FormatError):
    """Text that is not a Snowie text position, or a state it cannot hold;
    the message names the field."""


@dataclass(frozen=True)
class SnowiePosition:
    """A Snowie text position: the :class:`~backgammon.Position` (the side on
    roll in row 1), its :class:`~backgammon.MatchState` and the two
    ``players``' names (player 0 first)."""

    position: Position
    state: MatchState
    players: tuple = ("Player 0", "Player 1")

    def __iter__(self):            # pos, state = read_snowie_txt(...)
        return iter((self.position, self.state))


def _int(fields: list, k: int, what: str, low: int, high: int) -> int:
    text = fields[k].strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", text):
        raise SnowieTxtError(f"field {k} ({what}) must be a number, not {text[:20]!r}")
    value = int(text)
    if not low <= value <= high:
        raise SnowieTxtError(f"field {k} ({what}) must be {low} to {high}, not {value}")
    return value


def read_snowie_txt(source) -> SnowiePosition:
    """Read a Snowie text position (a path, an open file, its text or bytes).

    Errors raise :class:`SnowieTxtError` naming the field (and the file)."""
    data, path = load(source)
    try:
        return _read(decode(data))
    except SnowieTxtError as e:
        raise named(e, path) from None


def _read(text: str) -> SnowiePosition:
    line = text.strip()
    fields = line.split(";")
    if len(fields) < 40:
        raise SnowieTxtError(f"a Snowie text position has 40 fields separated by ';', this has {len(fields)}")
    if any(f.strip() for f in fields[40:]):
        raise SnowieTxtError(f"a Snowie text position has 40 fields, this has {len(fields)} (field 40 is "
                             f"{fields[40][:20]!r})")
    length = _int(fields, 0, "match length", 0, 255)
    jacoby = _int(fields, 1, "Jacoby", 0, 1)
    mover = _int(fields, 4, "player on roll", 0, 1)
    names = [fields[5].strip(), fields[6].strip()]
    crawford = _int(fields, 7, "Crawford game", 0, 1)
    mine, theirs = _int(fields, 8, "score of the player on roll", 0, 32767), \
        _int(fields, 9, "score of the opponent", 0, 32767)
    cube = _int(fields, 10, "cube value", 1, 1 << 30)
    owner = _int(fields, 11, "cube owner", -1, 1)
    board = np.zeros((2, 25), dtype=np.int64)
    board[0, 24] = abs(_int(fields, 12, "the opponent's bar", -15, 15))
    for i in range(24):
        v = _int(fields, 13 + i, f"point {i + 1}", -15, 15)
        if v > 0:
            board[1, i] = v
        elif v < 0:
            board[0, 23 - i] = -v
    board[1, 24] = abs(_int(fields, 37, "the bar of the player on roll", -15, 15))
    d1, d2 = _int(fields, 38, "die 1", 0, 6), _int(fields, 39, "die 2", 0, 6)
    if (d1 == 0) != (d2 == 0):
        raise SnowieTxtError(f"fields 38 and 39 (the dice) are both 0 (not rolled) or both 1-6, not {d1} {d2}")
    try:
        position = Position.from_array(board.astype(np.uint8))
    except InvalidPositionError as e:
        raise SnowieTxtError(f"fields 12-37 (the board): {e}") from None
    score = (mine, theirs) if mover == 0 else (theirs, mine)
    first, second = (names[0], names[1]) if mover == 0 else (names[1], names[0])
    players = (first or "Player 0", second or "Player 1")
    cube_owner = None if owner == 0 else (mover if owner == 1 else 1 - mover)
    try:
        state = MatchState(cube_value=cube, cube_owner=cube_owner, on_roll=mover, crawford=bool(crawford and length),
                           dice=(d1, d2), match_length=length, score=score if length else (0, 0),
                           jacoby=bool(jacoby and not length))
    except InvalidMatchStateError as e:
        raise SnowieTxtError(f"the match state: {e}") from None
    return SnowiePosition(position, state, players)


def write_snowie_txt(position, state: MatchState | None = None, *, players=("Player 0", "Player 1")) -> str:
    """The Snowie text line of ``position`` (side on roll in row 1) in
    ``state`` (default: money play, player 0 on roll, not rolled), as gnubg
    writes it; ``players`` names player 0 and player 1.  A
    :class:`SnowiePosition` is written whole."""
    if isinstance(position, SnowiePosition):
        position, state, players = position.position, position.state, position.players
    instance("position", position, Position)
    state = MatchState() if state is None else state
    instance("state", state, MatchState)
    if isinstance(players, str) or not isinstance(players, (tuple, list)) or len(players) != 2 \
            or not all(isinstance(p, str) for p in players):
        raise TypeError("players must be a pair of str names")
    for p in players:
        if ";" in p or "\n" in p or "\r" in p:
            raise SnowieTxtError(f"a name in a Snowie text position holds no ';' or line end: {p!r}")
    if state.game_state is not GameState.PLAYING or state.double_offered or state.resignation:
        raise SnowieTxtError("a Snowie text position holds a game in play with no double or resignation "
                             "waiting: this state cannot be written")
    m = state.on_roll
    a = position.array
    owner = 0 if state.cube_owner is None else (1 if state.cube_owner == m else -1)
    fields = [state.match_length, int(state.jacoby and not state.match_length), 0, 0 if state.match_length else 1,
              m, players[m], players[1 - m], int(bool(state.crawford and state.match_length)),
              state.score[m], state.score[1 - m], state.cube_value, owner, -int(a[0, 24])]
    for i in range(24):
        fields.append(int(a[1, i]) if a[1, i] else -int(a[0, 23 - i]))
    fields += [int(a[1, 24]), state.dice[0], state.dice[1]]
    return "".join(f"{f};" for f in fields)


def sniff_snowie_txt(data: bytes) -> bool:
    """gnubg's test: the text starts ``N;N;``."""
    return bool(re.match(rb"^\s*[0-9]+;[0-9]+;", data[:64]))


FORMAT = Format("snowietxt", (".txt",), "position", read_snowie_txt, write_snowie_txt, SnowieTxtError,
                sniff=sniff_snowie_txt, title="Snowie text position", example="9;0;0;0;1;...")
