"""FIBS board lines (CLIP ``rawboard``, "boardstyle 3"), read and written.

A board line is ``board:`` and 52 more fields separated by colons
(docs/formats.md, "FIBS board line"): the two names, match length (9999 =
unlimited, i.e. money), both scores, 26 numbers for the board, whose turn,
both sides' dice, the cube, both may-double flags, was-doubled, colour,
direction, home, bar, borne-off and bar counts of both sides, can-move,
forced-move, did-Crawford and redoubles.  Every field is relative to "the
player", the first name: the first score, dice, may-double, on-home and
on-bar fields are the player's.

Board numbers: positive are O's checkers and negative X's; the player's
``colour`` is 1 for O and -1 for X, ``turn`` is the colour of the side to
act (0 when the game is over).  With ``direction`` -1 the player moves from
index 24 towards 1, bears off to ``home`` 0 and enters from ``bar`` 25; with
direction 1 everything is mirrored (home 25, bar 0).  Index ``bar`` holds the
player's checkers on the bar, index ``home`` the opponent's.

>>> line = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:"
...         "-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
>>> fb = read_fibs_board(line)      # the FIBS documentation's example
>>> fb.position == Position.initial(), fb.player_on_roll
(True, True)
>>> fb.dice, fb.match_length
((6, 2), 3)
>>> str(fb) == line
True

Conversion to a :class:`~backgammon.MatchState` maps the line's player to
MatchState player 1 by default, as gnubg does when it prints a board line
(its player 1 is the user); ``player=0`` gives the other mapping.  A board
line carries no resignation, no Jacoby setting and no game state beyond "in
play" / "over" (turn 0); money play reads as match length 0.  Conventions
this module takes where FIBS's documentation is silent:

* ``was_doubled`` 1 means the opponent has doubled and the player must take
  or drop (FIBS); -1 (an extension) means the player has doubled and the
  opponent must answer.  ``turn`` is then the colour of the side that must
  answer.  gnubg's own writer differs here: it keeps ``turn`` on the doubler
  and signs ``was_doubled`` by the doubler's colour.
* May-double flags follow cube ownership: both 1 while the cube is centred
  (also in the Crawford game, as FIBS and gnubg write it), else only the
  owner's.  Both 0 reads as a centred cube.
* ``did_crawford`` is written 1 once the Crawford game has been played (a
  match with a player at length - 1 that is not the Crawford game: gnubg's
  post-Crawford flag).  A line is read as the Crawford game (RULES 8.2) when
  a player is at length - 1, the other behind, the cube untouched (1,
  centred, no double), and both ``did_crawford`` and ``redoubles`` are 0 (in
  a match gnubg takes the last field for a post-Crawford flag).
* While a double waits for an answer the doubler is on roll, whatever
  ``turn`` says.
* The on-home and on-bar counts repeat what the board numbers say, and not
  every writer keeps them: gnubg prints ``0:0`` for both on-bar counts
  whatever the board holds, and test fixtures leave checkers off the board
  with 0 borne off.  They are kept as written (the board numbers are the
  checkers); :attr:`FibsBoard.mismatches` names those that disagree.

A line reads back to itself byte for byte: ``str(read_fibs_board(line))``
(and ``write_fibs_board``) keep how each number was written (``05``,
blanks around it), for every field that still holds the value read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validate import instance, integer
from ..errors import FormatError, InvalidIdError, InvalidPositionError
from ..matchid import MAX_CUBE, MAX_FIELD, GameState, InvalidMatchStateError, MatchState
from ..position import Position
from .registry import Format

__all__ = ["FibsBoard", "InvalidFibsBoardError", "read_fibs_board", "write_fibs_board",
           "UNLIMITED", "DEFAULT_PLAYER"]

#: FIBS's match length for an unlimited match (money play).
UNLIMITED = 9999
#: MatchState player that "the player" of a board line maps to by default.
DEFAULT_PLAYER = 1

# (field name, number of numbers) after "board" and the two names.
_LAYOUT = (
    ("match length", 1), ("score", 2), ("board", 26), ("turn", 1), ("dice", 2),
    ("opponent dice", 2), ("cube", 1), ("may double", 2), ("was doubled", 1), ("colour", 1),
    ("direction", 1), ("home", 1), ("bar", 1), ("on home", 2), ("on bar", 2), ("can move", 1),
    ("forced move", 1), ("did crawford", 1), ("redoubles", 1),
)
_N_FIELDS = 3 + sum(n for _, n in _LAYOUT)  # 53
_INT = re.compile(r"\s*(-?[0-9]+)\s*\Z")


#: The FIBS documentation's example line (the opening, the player to play 6-2).
DOC_EXAMPLE = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
               "1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")


class InvalidFibsBoardError(FormatError, InvalidIdError):
    """A malformed or impossible FIBS board line; the message names the field."""


def _bad(field: str, message: str) -> InvalidFibsBoardError:
    return InvalidFibsBoardError(f"FIBS board {field}: {message}")


def _name(field: str, value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{field} must be a str, not {type(value).__name__}")
    if not value or any(c in value for c in ":\r\n"):
        raise _bad(field, f"a name is non-empty text without ':' or line breaks, not {value!r}")
    return value


def _int(field: str, value, low: int, high: int) -> int:
    return integer(field, value, low=low, high=high, error=InvalidFibsBoardError)


def _pair(field: str, value) -> tuple:
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"{field} must be a pair, not {type(value).__name__}") from None
    if len(items) != 2:
        raise _bad(field, f"must be a pair, got {len(items)} values")
    return items


def _dice(field: str, value) -> tuple[int, int]:
    first, second = (_int(field, v, 0, 6) for v in _pair(field, value))
    if (first == 0) != (second == 0):
        raise _bad(field, f"dice are two values 1-6, or 0 0 when not rolled; got {(first, second)}")
    return first, second


@dataclass(frozen=True)
class FibsBoard:
    """Every field of a FIBS board line, validated; pairs are (player,
    opponent).  ``str(board)`` writes the line back exactly (without any
    blanks the input had around numbers).

    The checkers are ``board``, the 26 numbers as written; :attr:`position`
    and :attr:`player_position` are the same checkers as a
    :class:`~backgammon.Position` with the side on roll, or the player, in
    row 1.  :meth:`match_state` gives the cube, score and turn.

    Examples
    --------
    >>> import backgammon as bg
    >>> line = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:"
    ...         "-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
    >>> b = read_fibs_board(line)
    >>> b.position == bg.Position.initial(), b.match_state().match_length
    (True, 3)
    >>> str(b) == line
    True
    """

    player: str
    opponent: str
    match_length: int
    score: tuple[int, int]
    board: tuple[int, ...]
    turn: int
    dice: tuple[int, int]
    opponent_dice: tuple[int, int]
    cube: int
    may_double: tuple[bool, bool]
    was_doubled: int
    colour: int
    direction: int
    home: int
    bar: int
    on_home: tuple[int, int]
    on_bar: tuple[int, int]
    can_move: int = 0
    forced_move: int = 0
    did_crawford: int = 0
    redoubles: int = 0
    #: The 50 numbers as the line wrote them (set by read_fibs_board).
    spelling: tuple | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        def put(name, value):
            object.__setattr__(self, name, value)

        put("player", _name("player", self.player))
        put("opponent", _name("opponent", self.opponent))
        length = _int("match length", self.match_length, 0, MAX_FIELD)
        put("match_length", length)
        score = tuple(_int("score", v, 0, MAX_FIELD) for v in _pair("score", self.score))
        put("score", score)
        put("turn", _int("turn", self.turn, -1, 1))
        if length not in (0, UNLIMITED):
            # RULES 8.1: the first to reach the length wins; only a finished game may show it.
            if min(score) >= length or (self.turn and max(score) >= length):
                raise _bad("score", f"{score[0]}-{score[1]} has reached the match length {length}"
                                    + ("" if self.turn else " on both sides"))
        put("dice", _dice("dice", self.dice))
        put("opponent_dice", _dice("opponent dice", self.opponent_dice))
        cube = _int("cube", self.cube, 1, MAX_CUBE)
        if cube & (cube - 1):
            raise _bad("cube", f"the cube value is a power of two (RULES 7.4), not {cube}")
        put("cube", cube)
        may = tuple(_int("may double", int(v) if isinstance(v, (bool, np.bool_)) else v, 0, 1)
                    for v in _pair("may double", self.may_double))
        put("may_double", (bool(may[0]), bool(may[1])))
        put("was_doubled", _int("was doubled", self.was_doubled, -1, 1))
        if self.was_doubled and not self.turn:
            raise _bad("was doubled", "a double cannot wait for an answer once the game is over (turn 0)")
        colour = _int("colour", self.colour, -1, 1)
        if colour == 0:
            raise _bad("colour", "is -1 (X) or 1 (O), not 0")
        put("colour", colour)
        direction = _int("direction", self.direction, -1, 1)
        if direction == 0:
            raise _bad("direction", "is -1 (24 to 1) or 1 (1 to 24), not 0")
        put("direction", direction)
        home = 0 if direction < 0 else 25
        put("home", _int("home", self.home, 0, 25))
        if self.home != home:
            raise _bad("home", f"with direction {direction} the player's home is {home}, not {self.home}")
        put("bar", _int("bar", self.bar, 0, 25))
        if self.bar != 25 - home:
            raise _bad("bar", f"with direction {direction} the player's bar is {25 - home}, not {self.bar}")
        put("can_move", _int("can move", self.can_move, 0, 4))
        put("forced_move", _int("forced move", self.forced_move, 0, MAX_FIELD))
        put("did_crawford", _int("did crawford", self.did_crawford, 0, MAX_FIELD))
        put("redoubles", _int("redoubles", self.redoubles, 0, MAX_FIELD))

        try:
            numbers = tuple(self.board)
        except TypeError:
            raise TypeError(f"board must be a sequence of 26 ints, not {type(self.board).__name__}") from None
        if len(numbers) != 26:
            raise _bad("board", f"is 26 numbers (indices 0 and 25 the bars), not {len(numbers)}")
        numbers = tuple(_int("board", v, -15, 15) for v in numbers)
        put("board", numbers)
        if numbers[self.bar] * colour < 0:
            raise _bad("board", f"index {self.bar} is the player's bar but holds the opponent's checkers")
        if numbers[self.home] * colour > 0:
            raise _bad("board", f"index {self.home} is the opponent's bar but holds the player's checkers")
        on_home = tuple(_int("on home", v, 0, 15) for v in _pair("on home", self.on_home))
        on_bar = tuple(_int("on bar", v, 0, 15) for v in _pair("on bar", self.on_bar))
        put("on_home", on_home)
        put("on_bar", on_bar)
        mine, theirs = self._rows()
        for who, row in (("player", mine), ("opponent", theirs)):
            total = int(row.sum())
            if total > 15:
                raise _bad("board", f"the {who} has {total} checkers; a side has 15 (RULES 1.2)")
        if self.spelling is not None:
            spelling = tuple(self.spelling)
            if len(spelling) != _N_FIELDS - 3 or not all(isinstance(t, str) for t in spelling):
                raise TypeError(f"spelling must hold the {_N_FIELDS - 3} numbers' texts")
            put("spelling", spelling)
        try:
            Position.from_array(np.stack([theirs, mine]))
        except InvalidPositionError as e:
            raise _bad("board", str(e)) from None
        try:
            self.match_state()
        except InvalidMatchStateError as e:
            raise _bad("score", str(e)) from None

    # -- views ---------------------------------------------------------------------
    @property
    def mismatches(self) -> tuple[str, ...]:
        """The on-home and on-bar counts that disagree with the board
        numbers (which are the checkers), each named with both values.

        >>> odd = DOC_EXAMPLE.replace(":0:25:0:0:0:0:2:", ":0:25:0:0:0:1:2:")
        >>> fb = read_fibs_board(odd)
        >>> fb.mismatches
        ('on bar: the opponent has 0 checkers on the bar, not 1',)
        """
        out = []
        mine, theirs = self._rows()
        for k, (who, row) in enumerate((("player", mine), ("opponent", theirs))):
            total = int(row.sum())
            if self.on_home[k] != 15 - total:
                out.append(f"on home: the {who} has {total} checkers on the board, so {15 - total} borne off, "
                           f"not {self.on_home[k]}")
            if self.on_bar[k] != row[24]:
                out.append(f"on bar: the {who} has {int(row[24])} checkers on the bar, not {self.on_bar[k]}")
        return tuple(out)

    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(player, opponent) as rows of 25: each side's points 1-24, then its bar."""
        b = np.array(self.board, dtype=np.int64) * self.colour   # player's checkers positive
        if self.direction > 0:
            b = b[::-1]                                           # now index p = player's point p
        mine = np.zeros(25, dtype=np.int64)
        theirs = np.zeros(25, dtype=np.int64)
        mine[:24] = np.maximum(b[1:25], 0)
        theirs[:24] = np.maximum(-b[24:0:-1], 0)                  # opponent's point q = index 25 - q
        mine[24] = max(b[25], 0)
        theirs[24] = max(-b[0], 0)
        return mine, theirs

    @property
    def is_money(self) -> bool:
        """True for an unlimited match (length 9999, or 0 as gnubg writes it)."""
        return self.match_length in (0, UNLIMITED)

    @property
    def player_on_roll(self) -> bool | None:
        """True when the player is on roll (to roll, move, or waiting for an
        answer to the player's double), False for the opponent, None when the
        game is over."""
        if self.turn == 0:
            return None
        if self.was_doubled:
            return self.was_doubled < 0
        return self.turn == self.colour

    @property
    def player_position(self) -> Position:
        """The checkers with the player in row 1 (as if the player were on roll)."""
        mine, theirs = self._rows()
        return Position.from_array(np.stack([theirs, mine]))

    @property
    def position(self) -> Position:
        """The checkers with the side on roll in row 1 (the player's view when
        the game is over)."""
        pos = self.player_position
        return pos.swapped() if self.player_on_roll is False else pos

    def match_state(self, player: int = DEFAULT_PLAYER) -> MatchState:
        """The state of play with the line's player as MatchState ``player``
        (default 1, as gnubg) and the opponent as the other.

        >>> state = MatchState(match_length=5, score=(1, 3))
        >>> fb = read_fibs_board(write_fibs_board(Position.initial(), state))
        >>> fb.score, fb.match_state().score
        ((3, 1), (1, 3))
        """
        me = _int("player", player, 0, 1)
        other = 1 - me
        score = [0, 0]
        score[me], score[other] = self.score
        owner = None
        if self.may_double == (True, False):
            owner = me
        elif self.may_double == (False, True):
            owner = other
        length = 0 if self.is_money else self.match_length
        # RULES 8.2: the Crawford game has a player at length - 1, the other
        # behind, and no cube action; a set did-Crawford flag (or gnubg's
        # post-Crawford flag in the redoubles slot) marks the later games.
        crawford = (bool(length) and max(score) == length - 1 and min(score) < length - 1
                    and not self.did_crawford and not self.redoubles
                    and self.cube == 1 and owner is None and not self.was_doubled)
        on_roll_me = self.player_on_roll
        if on_roll_me is None:  # game over: whoever shows dice, else the player
            on_roll_me = self.dice != (0, 0) or self.opponent_dice == (0, 0)
            on_roll = me if on_roll_me else other
            return MatchState(cube_value=self.cube, cube_owner=owner, on_roll=on_roll, crawford=crawford,
                              game_state=GameState.OVER, dice=self.dice if on_roll_me else self.opponent_dice,
                              match_length=length, score=(score[0], score[1]))
        on_roll = me if on_roll_me else other
        return MatchState(cube_value=self.cube, cube_owner=owner, on_roll=on_roll, crawford=crawford,
                          turn=1 - on_roll if self.was_doubled else on_roll,
                          double_offered=bool(self.was_doubled),
                          dice=self.dice if on_roll_me else self.opponent_dice,
                          match_length=length, score=(score[0], score[1]))

    # -- text ----------------------------------------------------------------------
    def __str__(self) -> str:
        numbers = (self.match_length, *self.score, *self.board, self.turn, *self.dice, *self.opponent_dice,
                   self.cube, *(int(m) for m in self.may_double), self.was_doubled, self.colour,
                   self.direction, self.home, self.bar, *self.on_home, *self.on_bar, self.can_move,
                   self.forced_move, self.did_crawford, self.redoubles)
        texts = [str(n) for n in numbers]
        if self.spelling is not None:
            for k, (n, written) in enumerate(zip(numbers, self.spelling)):
                m = _INT.match(written)
                if m and int(m.group(1)) == n:
                    texts[k] = written
        return ":".join(("board", self.player, self.opponent, *texts))

    @classmethod
    def from_state(cls, position: Position, state: MatchState | None = None,
                   names: tuple[str, str] = ("You", "someplayer"), *, player: int = DEFAULT_PLAYER,
                   colour: int = 1, direction: int = -1, can_move: int | None = None,
                   forced_move: int = 0, redoubles: int = 0) -> "FibsBoard":
        """The board line of ``position`` (side on roll in row 1) in
        ``state``, seen by MatchState ``player`` (see :func:`write_fibs_board`)."""
        instance("position", position, Position)
        me = _int("player", player, 0, 1)
        if state is None:
            state = MatchState(on_roll=me)
        instance("state", state, MatchState)
        for name, value in (("colour", colour), ("direction", direction)):
            if _int(name, value, -1, 1) == 0:
                raise _bad(name, "must be -1 or 1, not 0")
        if isinstance(names, str) or len(_pair("names", names)) != 2:
            raise TypeError("names must be a pair of str (player, opponent)")
        if state.game_state == GameState.NONE:
            raise _bad("turn", "a board line shows a game in play or over; this state's game has not started")
        over = state.game_state != GameState.PLAYING
        if not over and state.resignation:
            raise _bad("turn", "a board line has no field for a resignation offer")
        if state.match_length == UNLIMITED:
            raise _bad("match length", f"{UNLIMITED} means an unlimited match on FIBS")
        if not over and state.double_offered and state.turn == state.on_roll:
            raise _bad("was doubled", "with a double offered the doubled player decides: "
                                      "state.turn must differ from state.on_roll")
        if not over and not state.double_offered and state.turn != state.on_roll:
            raise _bad("turn", "with no double offered the player on roll acts: "
                               "state.turn must equal state.on_roll")
        other = 1 - me
        arr = position.array.astype(np.int64)
        mine, theirs = (arr[1], arr[0]) if state.on_roll == me else (arr[0], arr[1])
        b = np.zeros(26, dtype=np.int64)
        b[1:25] = mine[:24]                    # index p = player's point p
        b[24:0:-1] -= theirs[:24]              # index 25 - q = opponent's point q
        b[25] = mine[24]
        b[0] = -theirs[24]
        if direction > 0:
            b = b[::-1]
        b = b * colour
        if over:
            turn = 0
        else:
            turn = colour if state.turn == me else -colour
        was_doubled = 0
        if not over and state.double_offered:
            was_doubled = 1 if state.turn == me else -1
        dice = state.dice if state.on_roll == me else (0, 0)
        opponent_dice = state.dice if state.on_roll == other else (0, 0)
        if can_move is None:
            can_move = 0
            if not over and state.on_roll == me and not state.double_offered and state.dice != (0, 0):
                can_move = position.legal_plays(state.dice).dice_used
        length = state.match_length
        post_crawford = bool(length) and not state.crawford and length - 1 in state.score
        owner = state.cube_owner
        home = 0 if direction < 0 else 25
        return cls(
            player=names[0], opponent=names[1],
            match_length=length or UNLIMITED,
            score=(state.score[me], state.score[other]),
            board=tuple(int(v) for v in b), turn=turn, dice=dice, opponent_dice=opponent_dice,
            cube=state.cube_value, may_double=(owner in (None, me), owner in (None, other)),
            was_doubled=was_doubled, colour=colour, direction=direction, home=home, bar=25 - home,
            on_home=(15 - int(mine.sum()), 15 - int(theirs.sum())), on_bar=(int(mine[24]), int(theirs[24])),
            can_move=can_move, forced_move=forced_move, did_crawford=int(post_crawford), redoubles=redoubles,
        )


def read_fibs_board(text: str) -> FibsBoard:
    """Read a FIBS ``board:...`` line (blanks around the numbers are allowed).

    Parameters
    ----------
    text : str
        The line, as FIBS (or gnubg's ``set output rawboard on``) writes
        it.

    Returns
    -------
    FibsBoard
        Every field; ``.position`` and ``.match_state()`` for the engine.

    Raises
    ------
    InvalidFibsBoardError
        A malformed line, naming the field.

    See Also
    --------
    write_fibs_board : the other way.
    backgammon.formats.codes.read_position : any position code.

    Examples
    --------
    >>> read_fibs_board("board:You:someplayer:3").position
    Traceback (most recent call last):
    ...
    backgammon.formats.fibs.InvalidFibsBoardError: FIBS board line: has 53 fields separated by ':', this one has 4
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    fields = text.strip().split(":")
    if fields[0].strip() != "board":
        raise _bad("line", f"starts with 'board:', not {fields[0][:20]!r}")
    if len(fields) != _N_FIELDS:
        raise _bad("line", f"has {_N_FIELDS} fields separated by ':', this one has {len(fields)}")
    values: dict[str, Any] = {"player": fields[1], "opponent": fields[2], "spelling": tuple(fields[3:])}
    at = 3
    for name, count in _LAYOUT:
        numbers = []
        for k in range(count):
            m = _INT.match(fields[at])
            if not m:
                where = f"{name} (field {at + 1})" if count == 1 else f"{name} number {k + 1} (field {at + 1})"
                raise _bad(where, f"{fields[at]!r} is not an integer")
            numbers.append(int(m.group(1)))
            at += 1
        values[name.replace(" ", "_")] = numbers[0] if count == 1 else tuple(numbers)
    return FibsBoard(**values)


def write_fibs_board(position, state: MatchState | None = None,
                     names: tuple[str, str] = ("You", "someplayer"), *, player: int = DEFAULT_PLAYER,
                     colour: int = 1, direction: int = -1, can_move: int | None = None,
                     forced_move: int = 0, redoubles: int = 0) -> str:
    """The FIBS board line of a :class:`FibsBoard` (``read_fibs_board``'s
    value), or of ``position`` (side on roll in row 1) in
    ``state``, seen by MatchState ``player`` (default 1, gnubg's player 1)
    whose name is ``names[0]``; ``state`` defaults to money play with the
    player on roll, not rolled.

    ``colour`` (1 = O, -1 = X) and ``direction`` (-1: the player moves from
    24 to 1) choose how the board is drawn; money play is written as length
    9999.  ``can_move`` defaults to the number of dice the player on roll
    can play (RULES 3.4), else 0.  A finished game is written with turn 0.
    A state a board line cannot hold (a resignation offer, no game started)
    raises :class:`InvalidFibsBoardError`.

    >>> state = MatchState(on_roll=1, dice=(6, 2), match_length=3)
    >>> write_fibs_board(Position.initial(), state)
    'board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0'
    """
    if isinstance(position, FibsBoard):
        if state is not None:
            raise TypeError("state: a FibsBoard holds its state; give it alone")
        return str(position)
    return str(FibsBoard.from_state(position, state, names, player=player, colour=colour,
                                    direction=direction, can_move=can_move, forced_move=forced_move,
                                    redoubles=redoubles))


FORMAT = Format("fibs", (), "position", read_fibs_board, write_fibs_board, InvalidFibsBoardError)
