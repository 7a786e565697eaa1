"""Jellyfish ``.pos`` position files (gnubg's ``import pos`` and ``export
position pos``): binary, little-endian signed 16-bit words.

The words, in order: the version (124: Jellyfish 1.0-1.2, 125: 1.6, 126:
3.0); for 126 two more (caution, unused); for 125 and 126 three flags (cube
in use, Jacoby, beavers); the cube value; its owner (0 centred, 1 or 2 the
first or second player); who is on roll (1 or 2, 3 or 4 before rolling, 0
the starting position); two move counters and an unused word; 1 for a
match or 3 for a single game; 1 for two players or 2 when Jellyfish plays
one side (its name is then "Jellyfish"); Jellyfish's level; the match
length; the two scores.  Then the two names (a length byte and the bytes),
a word for drawing the lower die first, the Crawford state (2 the Crawford
game, 3 after it), a word for "Jellyfish played last" and that move (a
length byte and its text), the two dice, and 26 pairs of words, each point
now and before the last move, plus 20: the upper bar, the points from the
first player's 1-point to its 24-point, the lower bar; the first player's
checkers negative, the second's positive.

The first player is MatchState player 0, as gnubg imports it.

>>> import struct
>>> words = [126, 0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 7, 2, 1]
>>> head = struct.pack("<18h", *words) + b"\\x03Ann\\x03Bob" + struct.pack("<3h", 0, 0, 0) + b"\\x00"
>>> board = [0] * 26
>>> # the first player
>>> board[24], board[13], board[8], board[6] = -2, -5, -3, -5
>>> board[1], board[12], board[17], board[19] = 2, 5, 3, 5
>>> pos = read_pos(head + struct.pack("<2h", 3, 1) + b"".join(struct.pack("<2h", v + 20, v + 20) for v in board))
>>> pos.position == Position.initial(), pos.state.on_roll, pos.state.dice, pos.state.score, pos.players
(True, 0, (3, 1), (2, 1), ('Ann', 'Bob'))
"""
from __future__ import annotations

import struct

import numpy as np

from ..errors import FormatError, InvalidPositionError
from ..matchid import InvalidMatchStateError, MatchState
from ..position import Position
from . import Format
from .snowietxt import SnowiePosition
from .source import load, named

__all__ = ["JellyfishPositionError", "read_pos"]


class JellyfishPositionError(FormatError):
    """Bytes that are not a Jellyfish ``.pos`` file; the message names the
    field (and the byte offset)."""


#: A ``.pos`` file's reading: the position (side on roll in row 1), the
#: match state and the two names, as for Snowie text positions.
JellyfishPosition = SnowiePosition


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def word(self, what: str) -> int:
        if self.at + 2 > len(self.data):
            raise JellyfishPositionError(f"the file ends at byte {self.at} before {what}: truncated")
        (v,) = struct.unpack_from("<h", self.data, self.at)
        self.at += 2
        return v

    def text(self, what: str) -> str:
        if self.at + 1 > len(self.data):
            raise JellyfishPositionError(f"the file ends at byte {self.at} before {what}: truncated")
        n = self.data[self.at]
        if self.at + 1 + n > len(self.data):
            raise JellyfishPositionError(f"{what} ({n} bytes at byte {self.at}) runs past the end of the file")
        raw = self.data[self.at + 1:self.at + 1 + n]
        self.at += 1 + n
        return raw.decode("latin-1")


def _check(value: int, what: str, low: int, high: int, at: int) -> int:
    if not low <= value <= high:
        raise JellyfishPositionError(f"{what} (the word at byte {at - 2}) must be {low} to {high}, not {value}")
    return value


def read_pos(source) -> SnowiePosition:
    """Read a Jellyfish ``.pos`` file (a path, an open binary file or its
    bytes): the position, its match state and the names."""
    data, path = load(source)
    try:
        return _read(data)
    except JellyfishPositionError as e:
        raise named(e, path) from None


def _read(data: bytes) -> SnowiePosition:
    r = _Reader(data)
    version = r.word("the version")
    if version not in (124, 125, 126):
        raise JellyfishPositionError(f"not a Jellyfish position file: the version word is {version}, not 124-126")
    if version == 126:
        r.word("the caution flag"), r.word("an unused word")
    jacoby = 0
    if version >= 125:
        r.word("the cube-in-use flag")
        jacoby = _check(r.word("the Jacoby flag"), "the Jacoby flag", 0, 1, r.at)
        r.word("the beaver flag")
    cube = r.word("the cube value")
    if cube < 1 or cube & (cube - 1) or cube > 1 << 12:
        raise JellyfishPositionError(f"the cube value (byte {r.at - 2}) must be a power of two, not {cube}")
    owner = _check(r.word("the cube owner"), "the cube owner", 0, 2, r.at)
    on_roll = _check(r.word("the player on roll"), "the player on roll", 0, 4, r.at)
    r.word("the moves left"), r.word("the moves right"), r.word("an unused word")
    kind = _check(r.word("match or game"), "match or game (1 or 3)", 1, 3, r.at)
    opponent = r.word("the opponent")
    r.word("the level")
    length = _check(r.word("the match length"), "the match length", 0, 255, r.at)
    s1, s2 = r.word("score 1"), r.word("score 2")
    names = [r.text("the first name"), r.text("the second name")]
    if opponent == 2:
        names[0] = "Jellyfish"
    r.word("the dice order")
    crawford = r.word("the Crawford state")
    r.word("Jellyfish played last")
    r.text("the last move")
    d1, d2 = abs(r.word("die 1")), r.word("die 2")
    board = []
    for k in range(26):
        board.append(r.word(f"point {k}") - 20)
        r.word(f"point {k} before the last move")
    if kind == 3:
        length = 0
    first, second = np.zeros(25, np.int64), np.zeros(25, np.int64)
    for i in range(24):
        if board[i + 1] < 0:
            first[i] = -board[i + 1]
        if board[24 - i] > 0:
            second[i] = board[24 - i]
    first[24] = max(-board[25], 0)
    second[24] = max(board[0], 0)
    mover = 0 if on_roll in (0, 1, 3) else 1
    rows = np.stack([second, first] if mover == 0 else [first, second])
    if rows.max() > 15:
        raise JellyfishPositionError(f"a point holds {rows.max()} checkers: at most 15 (RULES 1)")
    try:
        position = Position.from_array(rows.astype(np.uint8))
    except InvalidPositionError as e:
        raise JellyfishPositionError(f"the board: {e}") from None
    dice = (d1, d2) if d1 else (0, 0)
    if dice != (0, 0) and not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise JellyfishPositionError(f"the dice must be 1 to 6, not {d1} and {d2}")
    try:
        state = MatchState(cube_value=cube, cube_owner=None if owner == 0 else owner - 1, on_roll=mover,
                           crawford=bool(length and crawford == 2), dice=dice, match_length=length,
                           score=(s1, s2) if length else (0, 0), jacoby=bool(jacoby and not length))
    except InvalidMatchStateError as e:
        raise JellyfishPositionError(f"the match state: {e}") from None
    return SnowiePosition(position, state, (names[0] or "Player 0", names[1] or "Player 1"))


def sniff_pos(data: bytes) -> bool:
    """gnubg's test: the version byte 124-126, then 0."""
    return len(data) >= 2 and 124 <= data[0] <= 126 and data[1] == 0


FORMAT = Format("pos", (".pos",), "position", read_pos, None, JellyfishPositionError, binary=True, sniff=sniff_pos)
