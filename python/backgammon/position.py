"""Positions: the position array (docs/design.md), validated, with GNU Position IDs.

>>> pos = Position.initial()
>>> pos.to_id(), pos.pip_counts()
('4HPwATDgc/ABMA', (167, 167))
>>> len(pos.legal_plays("31"))
16
"""
from __future__ import annotations

import base64
import binascii
import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _board
from . import play as _play
from . import ogid
from .errors import InvalidPositionError, InvalidPositionIdError

if TYPE_CHECKING:                       # play.py imports this module: the types only, for the signatures
    from .play import Play, Plays

__all__ = ["Position", "GameResult", "WinKind", "ON_ROLL", "OPPONENT", "board_arrays", "board_counts"]

ON_ROLL = 1
"""Row of the side on roll in the (2, 25) array.

>>> int(Position.initial().array[ON_ROLL].sum())    # its 15 checkers
15
"""
OPPONENT = 0
"""Row of the opponent of the side on roll in the (2, 25) array.

>>> # five checkers on its own 6-point
>>> int(Position.initial().array[OPPONENT][5])
5
"""
_BAR = 24

# problem_message(code): why a board is not a position, for a BoardProblem code (the kernels' texts).
from ._board import problem_message  # noqa: E402


class WinKind(enum.IntEnum):
    """How a game was won; the value is the multiple of the cube (RULES 6).

    >>> WinKind.GAMMON.value, [k.name for k in WinKind]
    (2, ['SINGLE', 'GAMMON', 'BACKGAMMON'])
    """

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True)
class GameResult:
    """The end of a game: the winning row (ON_ROLL or OPPONENT) and how.

    >>> GameResult(winner=ON_ROLL, kind=WinKind.GAMMON).points
    2
    """

    winner: int
    kind: WinKind

    @property
    def points(self) -> int:
        """Points at cube 1 (RULES 6.2-6.4)."""
        return int(self.kind)


def board_counts(a, name: str = "boards") -> np.ndarray:
    """Boards of shape (n, 2, 25) as C-contiguous uint8 checker counts:
    integer arrays as they are; float (or object) arrays only when every
    count is a whole number; counts 0 to 15.  Whether each is a position is
    ``board_arrays``'s check (the batch move generator makes it itself,
    board by board).  A problem raises InvalidPositionError."""
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as e:
        raise InvalidPositionError(f"cannot read {name} as an array: {e}") from None
    if arr.ndim != 3 or arr.shape[1:] != (2, 25):
        raise InvalidPositionError(f"{name} must have shape (n, 2, 25), got {arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        if arr.dtype == object or np.issubdtype(arr.dtype, np.floating):
            try:
                with np.errstate(invalid="ignore"):
                    as_int = arr.astype(np.int64)
                    exact = bool(np.all(as_int == arr))
            except (TypeError, ValueError, OverflowError):
                exact = False
            if not exact:
                raise InvalidPositionError(f"{name}: checker counts must be whole numbers, got dtype {arr.dtype}")
            arr = as_int
        else:
            raise InvalidPositionError(f"{name}: checker counts must be integers, got dtype {arr.dtype}")
    # uint8 needs no range check: a slot above 15 makes its side's total
    # exceed 15, which the kernel's check reports.
    if arr.dtype != np.uint8 and arr.size and (arr.min() < 0 or arr.max() > 15):
        rows = arr.reshape(len(arr), -1)
        bad = int(np.argmax(((rows < 0) | (rows > 15)).any(axis=1)))
        if rows[bad].min() < 0:
            raise InvalidPositionError(f"board {bad}: checker counts must be 0 to 15, not negative")
        raise InvalidPositionError(f"board {bad}: checker counts must be 0 to 15: a slot holds "
                                   f"{int(rows[bad].max())} checkers; a side has only 15")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def board_arrays(a, name: str = "boards") -> np.ndarray:
    """Boards of shape (n, 2, 25) as C-contiguous uint8, validated: the one
    check behind ``Position.from_array`` and every batch entry point
    (``board_counts``, then each board a position: RULES 1, at most 15
    checkers a side, one colour a point, a game not empty).  A problem
    raises InvalidPositionError naming the board.

    >>> board_arrays(np.zeros((1, 2, 25)) + Position.initial().array).dtype
    dtype('uint8')
    """
    out = board_counts(a, name)
    index, code = _board.first_invalid(out)
    if index >= 0:
        raise InvalidPositionError(f"board {index}: {problem_message(code)}")
    return out


def _as_board_array(a) -> np.ndarray:
    """One board, validated by ``board_arrays``, as a (2, 25) uint8 array."""
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as e:
        raise InvalidPositionError(f"cannot read the board as an array: {e}") from None
    if arr.shape != (2, 25):
        raise InvalidPositionError(f"a board has shape (2, 25), got {arr.shape}")
    try:
        return board_arrays(arr[None], "board")[0]
    except InvalidPositionError as e:
        raise InvalidPositionError(str(e).replace("board 0: ", "")) from None


class Position:
    """An immutable, hashable backgammon position: who is on roll and where
    every checker stands.

    The checkers are a ``uint8[2][25]`` array (docs/design.md): row 1 is
    the side on roll, row 0 its opponent; index ``i`` is that side's own
    point ``i + 1`` and index 24 its bar.  Borne-off checkers are what is
    missing from 15.

    Parameters
    ----------
    board : array_like of shape (2, 25), optional
        The checkers; the starting position when left out (the same as
        :meth:`from_array`).

    Raises
    ------
    InvalidPositionError
        ``board`` is not a backgammon position (RULES 1).

    See Also
    --------
    backgammon.read_position : a position from any position code.

    Examples
    --------
    >>> Position.from_id("4HPwATDgc/ABMA") == Position.initial()
    True
    >>> pos = Position.initial().play("8/5 6/5", "31")
    >>> pos.to_id(), pos.pip_counts()
    ('sGfwATDgc/ABMA', (167, 163))
    """

    __slots__ = ("_board",)
    _board: bytes

    def __init__(self, board=None) -> None:
        """``Position()`` is the starting position; ``Position(a)`` = ``from_array(a)``."""
        data = _INITIAL_BYTES if board is None else _as_board_array(board).tobytes()
        object.__setattr__(self, "_board", data)

    @classmethod
    def from_bytes(cls, data: bytes, *, validate: bool = True) -> "Position":
        """From the 50 bytes of ``to_bytes()`` (row 0 then row 1).
        ``validate=False`` trusts boards that the kernels made.

        >>> Position.from_bytes(Position.initial().to_bytes()) == Position.initial()
        True
        """
        if validate:
            if not isinstance(data, (bytes, bytearray)):
                raise TypeError(f"data must be bytes, not {type(data).__name__}")
            if len(data) != 50:
                raise InvalidPositionError(f"a position is 50 bytes, not {len(data)}")
            data = bytes(data)
            index, code = _board.first_invalid(np.frombuffer(data, dtype=np.uint8).reshape(1, 2, 25))
            if index >= 0:
                raise InvalidPositionError(problem_message(code))
        pos = object.__new__(cls)
        object.__setattr__(pos, "_board", data)
        return pos

    @classmethod
    def _from_bytes(cls, data: bytes) -> "Position":
        # Older name of from_bytes(data, validate=False), kept for code that used it.
        return cls.from_bytes(data, validate=False)

    def __setattr__(self, name, value):
        raise AttributeError("Position is immutable")

    def __reduce__(self):
        return (_from_trusted_bytes, (self._board,))

    # -- constructors -----------------------------------------------------
    @classmethod
    def initial(cls) -> "Position":
        """The starting position (RULES 1.2).

        Examples
        --------
        >>> Position.initial().to_id()
        '4HPwATDgc/ABMA'
        """
        return _INITIAL

    @classmethod
    def from_array(cls, a) -> "Position":
        """A position from its checkers.

        Parameters
        ----------
        a : array_like of int, shape (2, 25)
            Row 1 the side on roll, row 0 its opponent; index 24 the bar.

        Returns
        -------
        Position

        Raises
        ------
        InvalidPositionError
            Not a position: the wrong shape, more than 15 checkers a side,
            both sides on one point (RULES 1).

        Examples
        --------
        >>> Position.from_array(Position.initial().array).to_id()
        '4HPwATDgc/ABMA'
        """
        return cls.from_bytes(_as_board_array(a).tobytes(), validate=False)

    @classmethod
    def from_id(cls, position_id: str) -> "Position":
        """A position from its GNU Position ID (docs/formats.md).

        Parameters
        ----------
        position_id : str
            The 14 characters of Base64 gnubg writes (blanks and a leading
            ``Position ID:`` are allowed).

        Returns
        -------
        Position

        Raises
        ------
        InvalidPositionIdError
            Not 14 characters of Base64, or not a position.

        See Also
        --------
        backgammon.read_position : any position code, with its match state.

        Examples
        --------
        >>> Position.from_id("4HPwATDgc/ABMA") == Position.initial()
        True
        """
        if not isinstance(position_id, str):
            raise InvalidPositionIdError(f"a Position ID is a string, not {type(position_id).__name__}")
        text = position_id.strip()
        if text.lower().startswith("position id:"):
            text = text[len("position id:"):].strip()
        if len(text) != 14:
            raise InvalidPositionIdError(f"a Position ID has 14 characters, {text!r} has {len(text)}")
        try:
            raw = base64.b64decode(text + "==", validate=True)
        except (binascii.Error, ValueError):
            raise InvalidPositionIdError(f"{text!r} is not Base64") from None
        bits = int.from_bytes(raw, "little")
        counts = [[0] * 25, [0] * 25]
        for row in (0, 1):
            total = 0
            for slot in range(25):
                n = 0
                while bits & 1:
                    n += 1
                    bits >>= 1
                bits >>= 1
                total += n
                if total > 15:
                    raise InvalidPositionIdError(f"{text!r} gives a side more than 15 checkers")
                counts[row][slot] = n
        if bits:
            raise InvalidPositionIdError(f"{text!r} has bits set past the last slot")
        board = np.array(counts, dtype=np.uint8)
        index, code = _board.first_invalid(board.reshape(1, 2, 25))
        if index >= 0:
            raise InvalidPositionIdError(f"{text!r}: {problem_message(code)}")
        return cls.from_bytes(board.tobytes(), validate=False)

    # -- views ---------------------------------------------------------------
    @property
    def array(self) -> np.ndarray:
        """The checkers: a read-only ``uint8`` array of shape (2, 25).

        Examples
        --------
        >>> Position.initial().array[1, 5]     # the side on roll's 6-point: five
        np.uint8(5)
        """
        return np.frombuffer(self._board, dtype=np.uint8).reshape(2, 25)

    def to_bytes(self) -> bytes:
        """The 50 bytes of the array, row 0 first."""
        return self._board

    def to_id(self) -> str:
        """The GNU Position ID: the opponent's slots, then the side on roll's.

        Examples
        --------
        >>> Position.initial().to_id()
        '4HPwATDgc/ABMA'
        """
        bits = 0
        at = 0
        for c in self._board:
            bits |= ((1 << c) - 1) << at
            at += c + 1
        return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]

    # -- facts ---------------------------------------------------------------
    def pip_counts(self) -> tuple[int, int]:
        """Each side's pip count (RULES 10.2; a checker on the bar counts 25).

        Returns
        -------
        tuple of int
            ``(on_roll, opponent)``: the pips each side needs to bear off.

        Examples
        --------
        >>> Position.initial().pip_counts()
        (167, 167)
        """
        b = self._board
        return (sum((i + 1) * b[25 + i] for i in range(25)),
                sum((i + 1) * b[i] for i in range(25)))

    def borne_off(self) -> tuple[int, int]:
        """``(on_roll, opponent)`` checkers borne off."""
        b = self._board
        return 15 - sum(b[25:]), 15 - sum(b[:25])

    def swapped(self) -> "Position":
        """The same checkers with the other side on roll."""
        return Position.from_bytes(self._board[25:] + self._board[:25], validate=False)

    def is_race(self) -> bool:
        """True when no checker can meet an opposing one any more: every
        checker of the side on roll has passed every opposing checker."""
        return _board.is_race(self._board)

    def is_game_over(self) -> bool:
        """True when a side has borne off all 15 checkers (RULES 6.1)."""
        b = self._board
        return not any(b[:25]) or not any(b[25:])

    def result(self) -> GameResult | None:
        """Who has won and how (RULES 6.1-6.4), or None while the game goes on.

        >>> Position.initial().result() is None
        True
        """
        winner, kind = _board.results(self.array[None])
        if winner[0] < 0:
            return None
        return GameResult(int(winner[0]), WinKind(int(kind[0])))

    # -- plays -----------------------------------------------------------------
    def legal_plays(self, roll) -> Plays:
        """The distinct legal plays of a roll (RULES 3-5).

        Two ways of moving that reach the same position are one play
        (RULES 3.5).  A roll that cannot be played gives one play with no
        moves (the turn passes); a finished game gives none.

        Parameters
        ----------
        roll : Roll, tuple or str
            The dice: ``"31"``, ``"3-1"``, ``(3, 1)`` or ``Roll(3, 1)``.

        Returns
        -------
        Plays
            A sequence of :class:`~backgammon.play.Play`, with the
            resulting positions as one array (``positions``).

        Raises
        ------
        InvalidRollError
            ``roll`` is not two dice from 1 to 6.

        Examples
        --------
        >>> plays = Position.initial().legal_plays("65")
        >>> len(plays), str(plays[0])
        (7, '24/13')
        """
        return _play.legal_plays(self, roll)

    def parse_play(self, text: str, roll) -> Play:
        """The legal play that a play's notation writes (RULES 10.1).

        Parameters
        ----------
        text : str
            Moves in any order: ``13/7*/5``, ``6/4(2)``, ``bar/22``, ``6/off``.
        roll : Roll, tuple or str
            The dice.

        Returns
        -------
        Play

        Raises
        ------
        InvalidMoveError
            ``text`` is not notation.
        IllegalMoveError
            The rules forbid the play; the message names the rule.
        AmbiguousMoveError
            ``text`` fits several plays (mark the hits with ``*``).

        Examples
        --------
        >>> str(Position.initial().parse_play("6/5 8/5", "31"))
        '8/5 6/5'
        """
        return _play.parse_play(self, text, roll)

    def play(self, play: Play | str, roll) -> "Position":
        """The position after a play, the opponent on roll.

        Parameters
        ----------
        play : Play or str
            One of ``legal_plays(roll)``, or its notation.
        roll : Roll, tuple or str
            The dice.

        Returns
        -------
        Position
            From the opponent's side: the rows swapped.

        Examples
        --------
        >>> Position.initial().play("8/5 6/5", "31").to_id()
        'sGfwATDgc/ABMA'
        """
        return _play.resolve(self, play, roll).position

    # -- protocol ----------------------------------------------------------
    def __eq__(self, other) -> bool:
        if isinstance(other, Position):
            return self._board == other._board
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._board)

    def __repr__(self) -> str:
        return f"Position.from_id({self.to_id()!r})"

    def __str__(self) -> str:
        return _diagram(self)

    # -- OGID (ogid.py) -------------------------------------------------
    def to_ogid(self, state=None, **options) -> str:
        """This position's OGID (OpenGammon's position ID) in ``state`` (a
        ``MatchState``; default money play, player 0 = White on roll).

        >>> Position.initial().to_ogid()
        '11ccccchhhjjjjj:66666888dddddoo:N0N::B:IW:0:0:0:0'
        """
        return ogid.encode_ogid(self.array, state, opening=self == Position.initial(), **options)

    @classmethod
    def from_ogid(cls, text: str) -> tuple:
        """The position (side on roll in row 1) and ``MatchState`` of an OGID.

        >>> ogid = "11ccccchhhjjjjj:66666888dddddoo:N0N:56:W:IB:0:0:9:0"
        >>> pos, state = Position.from_ogid(ogid)
        >>> pos == Position.initial(), state.on_roll, state.dice
        (True, 1, (6, 5))
        """
        rows, state, _ = ogid.decode_ogid(text)
        try:
            return cls.from_array(rows), state
        except InvalidPositionError as e:
            raise ogid.bad_checkers(str(e)) from None


def _diagram(pos: Position) -> str:
    """ASCII board from the side on roll (X, moving to its point 1); O is the opponent."""
    b = pos._board
    me, opp = b[25:], b[:25]

    def cell(point: int, row: int) -> str:
        # what stands on my point `point` at height `row` (0 = edge)
        n, ch = me[point - 1], "X"
        if not n:
            n, ch = opp[24 - point], "O"
        if n > row:
            if row == 4 and n > 5:
                return f"{n:>2} "[:3] if n >= 10 else f" {n} "
            return f" {ch} "
        return " . " if row == 0 else "   "

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = [" " + "".join(f"{p:^3}" for p in top[:6]) + "|   |" + "".join(f"{p:^3}" for p in top[6:])]
    for row in range(5):
        bar = f" {'O' if opp[_BAR] > row else ' '} " if row < 4 else (f"{opp[_BAR]:>2} " if opp[_BAR] > 4 else "   ")
        lines.append("|" + "".join(cell(p, row) for p in top[:6]) + "|" + bar + "|" + "".join(cell(p, row) for p in top[6:]) + "|")
    lines.append("|" + " " * 18 + "|BAR|" + " " * 18 + "|")
    for row in reversed(range(5)):
        bar = f" {'X' if me[_BAR] > row else ' '} " if row < 4 else (f"{me[_BAR]:>2} " if me[_BAR] > 4 else "   ")
        lines.append("|" + "".join(cell(p, row) for p in bottom[:6]) + "|" + bar + "|" + "".join(cell(p, row) for p in bottom[6:]) + "|")
    lines.append(" " + "".join(f"{p:^3}" for p in bottom[:6]) + "|   |" + "".join(f"{p:^3}" for p in bottom[6:]))
    pips = pos.pip_counts()
    off = pos.borne_off()
    lines.append(f"O (opponent): bar {opp[_BAR]}, off {off[1]}, pips {pips[1]}")
    lines.append(f"X (on roll):  bar {me[_BAR]}, off {off[0]}, pips {pips[0]}")
    lines.append(f"Position ID: {pos.to_id()}")
    return "\n".join(lines)


_INITIAL_BYTES = _board.starting_board()
_INITIAL = Position.from_bytes(_INITIAL_BYTES, validate=False)



def _from_trusted_bytes(data: bytes) -> Position:
    # Unpickling: the bytes came from a Position.
    return Position.from_bytes(data, validate=False)
