"""OGID, the position identifier of HedgeHog / OpenGammon: a position with
its cube, dice, turn, game state and score, in colon-separated fields.

``white:black:cube:dice:colour:state:white score:black score:length[:move[:checkers]]``

- ``white``, ``black``: one character per checker on the board or the bar
  (``0``-``9`` then ``a``-``p`` for 0-25), in one absolute frame: White's
  point p is 25 - p and White's bar 0; Black's point p is p and Black's bar
  25.  Checkers borne off are not written.  The reference codec writes the
  characters in ascending order; any order reads.
- ``cube``: the owner (``N`` centred, ``W``, ``B``; ``D`` a dead cube), the
  value's power of two, and the action (``N`` none, ``O`` offered, ``T``
  taken, ``P`` passed).
- ``dice``: the roll, lower die first, or empty.
- ``colour``: the player who *made* the last action; the player to act is
  the other one (before the opening roll, state ``IW`` without dice, White).
- ``state``: ``IW`` before the opening roll, ``IB`` the opening roll made
  (both dice), ``R`` rolled, ``C``
  a play made (the other side to roll or double), ``D`` a double offered,
  ``A`` a double taken, ``G`` the game over.
- the scores, the match length (0 money) with ``C`` in the Crawford game or
  ``L`` in the last game of the match or session, the move counter, and the
  checkers per side when not 15.

Player 0 is White, player 1 Black (as in OGXM files written here).

This module is the codec over board arrays, below the positions:
``Position.to_ogid`` / ``from_ogid`` call it, and
:mod:`backgammon.formats.ogid` gives the same over positions
(``read_ogid``, ``write_ogid``) and registers it among the formats.

>>> from backgammon import Position, MatchState
>>> encode_ogid(Position.initial().array, MatchState(on_roll=1, dice=(6, 5), match_length=9), opening=True)
'11ccccchhhjjjjj:66666888dddddoo:N0N:56:W:IB:0:0:9:0'
>>> rows, state, move = decode_ogid("11ccccchhhjjjjj:66666888dddddoo:N0N:56:W:IB:0:0:9:0")
>>> rows[1, :8].tolist(), state.on_roll, state.dice, state.match_length
([0, 0, 0, 0, 0, 5, 0, 3], 1, (6, 5), 9)
"""
from __future__ import annotations

import re

import numpy as np

from . import _board
from ._validate import instance, integer, integers
from .errors import FormatError, InvalidPositionError
from .matchid import GameState, InvalidMatchStateError, MatchState

__all__ = ["InvalidOgidError", "decode_ogid", "encode_ogid", "WHITE", "BLACK"]

#: MatchState players: White and Black.
WHITE, BLACK = 0, 1

_CHARS = "0123456789abcdefghijklmnop"
_LENGTH = re.compile(r"^([0-9]{1,3})([LCG]?)([0-9]{0,5})$")


class InvalidOgidError(FormatError):
    """Text that is not an OGID, or a state OGID cannot hold; the message
    names the field."""


def _bad(field: str, message: str) -> InvalidOgidError:
    return InvalidOgidError(f"OGID {field}: {message}")


def _checkers(text: str, white: bool) -> np.ndarray:
    """A side's row (its own points 1-24 at 0-23, the bar at 24)."""
    row = np.zeros(25, dtype=np.int64)
    colour = "White" if white else "Black"
    for ch in text:
        pip = _CHARS.find(ch)
        if pip < 0:
            raise _bad(f"field {'1' if white else '2'} ({colour}'s checkers)",
                       f"{ch!r} is not a point: 0-9 and a-p stand for 0-25")
        if white:
            if pip == 25:
                raise _bad("field 1 (White's checkers)", "25 is Black's bar")
            row[24 if pip == 0 else 24 - pip] += 1
        else:
            if pip == 0:
                raise _bad("field 2 (Black's checkers)", "0 is White's bar")
            row[24 if pip == 25 else pip - 1] += 1
    if row.sum() > 15:
        raise _bad(f"field {'1' if white else '2'}", f"{colour} has {row.sum()} checkers: at most 15 (RULES 1)")
    return row


def _number(parts: list, k: int, name: str, default: int, high: int) -> int:
    if len(parts) <= k or parts[k] == "":
        return default
    if not re.fullmatch(r"[0-9]{1,6}", parts[k]):
        raise _bad(f"field {k + 1} ({name})", f"{parts[k][:12]!r} is not a number")
    value = int(parts[k])
    if value > high:
        raise _bad(f"field {k + 1} ({name})", f"{value} is more than {high}")
    return value


def decode_ogid(text: str) -> tuple[np.ndarray, MatchState, int]:
    """The board (2, 25) uint8 (side on roll in row 1, not yet checked as a
    position: ``Position.from_ogid`` checks it), match state and move
    counter of an OGID (an ``OGID=`` prefix allowed)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    s = text.strip()
    s = re.sub(r"^ogid\s*[=:]\s*", "", s, flags=re.I)
    parts = s.split(":")
    if len(parts) < 5 or len(parts) > 11:
        raise InvalidOgidError(f"an OGID has 5 to 11 fields separated by ':', {s[:40]!r} has {len(parts)}")
    white, black = _checkers(parts[0], True), _checkers(parts[1], False)
    m = re.fullmatch(r"([NWBD?])([0-9]{1,2})([NOTP])", parts[2])
    if not m:
        raise _bad("field 3 (the cube)", f"{parts[2][:12]!r}: expected the owner N, W, B or D, the power of two "
                                         f"and the action N, O, T or P, such as N0N or W1N")
    owner_ch, power, action = m.group(1), int(m.group(2)), m.group(3)
    if power > 15:
        raise _bad("field 3 (the cube)", f"2**{power} is beyond the largest cube, 2**15")
    if parts[3] and not re.fullmatch(r"[1-6][1-6]", parts[3]):
        raise _bad("field 4 (the dice)", f"{parts[3][:12]!r}: two dice 1-6, or empty")
    dice = (int(parts[3][0]), int(parts[3][1])) if parts[3] else (0, 0)
    colour = parts[4]
    if colour not in ("W", "B"):
        raise _bad("field 5 (the colour)", f"W or B, not {colour[:12]!r}")
    state = parts[5] if len(parts) > 5 else ""
    if state and not re.fullmatch(r"[A-Z]{1,3}", state):
        raise _bad("field 6 (the game state)", f"{state[:12]!r} is not a state")
    acted = WHITE if colour == "W" else BLACK
    to_act = WHITE if (state == "IW" and dice == (0, 0)) else 1 - acted
    score = (_number(parts, 6, "White's score", 0, 32767), _number(parts, 7, "Black's score", 0, 32767))
    length, crawford = 0, False
    if len(parts) > 8 and parts[8]:
        ml = _LENGTH.match(parts[8])
        if not ml:
            raise _bad("field 9 (the match length)", f"{parts[8][:12]!r}: a number, then C (Crawford), L (after it) "
                                                      f"or G and a game count")
        length, crawford = int(ml.group(1)), ml.group(2) == "C"
    move = _number(parts, 9, "the move counter", 0, 1 << 20)
    checkers = _number(parts, 10, "checkers per side", 15, 15)
    if checkers != 15:
        raise _bad("field 11 (checkers per side)", f"{checkers}: only the standard 15 are played here (RULES 1)")
    offered = action == "O"
    on_roll = (1 - to_act) if offered else to_act        # the doubler is on roll, the doubled side decides
    rows = np.stack([black, white] if on_roll == WHITE else [white, black]).astype(np.uint8)
    owner = {"N": None, "D": None, "?": None, "W": WHITE, "B": BLACK}[owner_ch]
    game_state = GameState.OVER if state in ("G", "F") else GameState.PLAYING
    try:
        st = MatchState(cube_value=1 << power, cube_owner=owner, on_roll=on_roll, turn=to_act if offered else None,
                        double_offered=offered, dice=dice, match_length=length, score=score,
                        crawford=crawford and bool(length), game_state=game_state)
    except InvalidMatchStateError as e:
        raise _bad("the state", str(e)) from None
    return rows, st, move


def bad_checkers(why: str) -> InvalidOgidError:
    """The error for fields 1-2 that are not a position (``why`` says so)."""
    return _bad("fields 1-2 (the checkers)", why)


def encode_ogid(array, state: MatchState | None = None, *, opening: bool = False, move_id: int = 0,
                cube_action: str | None = None, last_game: bool = False) -> str:
    """The OGID of a board ``array`` (2, 25) (side on roll in row 1) in
    ``state`` (default: money play, White on roll, not rolled), White being
    player 0; ``opening``: the array is the starting position; the
    characters in ascending order, as the reference codec writes them.
    ``move_id`` is field 10, the number of actions before the position;
    ``cube_action`` (``T`` or ``P``) marks a double just taken or passed,
    which a ``MatchState`` does not hold (the reference codec writes ``T``
    on the doubler's first roll after the take); ``last_game`` marks the last
    game of a match or session (``L`` after the length), which it does
    not hold either."""
    state = MatchState() if state is None else state
    instance("state", state, MatchState)
    move_id = integer("move_id", move_id, low=0, high=1 << 20)
    if state.resignation:
        raise InvalidOgidError("an OGID holds no resignation offer: this state cannot be written")
    # The board checked by the kernel's rules (counts of 10**9 built lists of them).
    a = integers("array", array, shape=(2, 25), low=0, high=15, error=InvalidPositionError).astype(np.uint8)
    problem = _board.first_invalid(a[None])[1]
    if problem:
        raise InvalidPositionError(f"array: {_board.problem_message(problem)}")
    rows = {state.on_roll: a[1], 1 - state.on_roll: a[0]}
    white = sorted(([0] * int(rows[WHITE][24])) + [24 - i for i in range(24) for _ in range(int(rows[WHITE][i]))])
    black = sorted([i + 1 for i in range(24) for _ in range(int(rows[BLACK][i]))] + [25] * int(rows[BLACK][24]))
    owner = "N" if state.cube_owner is None else ("W" if state.cube_owner == WHITE else "B")
    if cube_action not in (None, "N", "T", "P"):
        raise ValueError(f"cube_action must be None, 'N', 'T' or 'P', not {cube_action!r}")
    action = "O" if state.double_offered else (cube_action or "N")
    cube = f"{owner}{state.cube_value.bit_length() - 1}{action}"
    d = state.dice
    dice = f"{min(d)}{max(d)}" if d != (0, 0) else ""
    over = state.game_state is not GameState.PLAYING
    if state.double_offered:
        colour, code = state.on_roll, "D"
    else:
        colour = 1 - state.on_roll
        code = "G" if over else ("R" if dice else "C")
        if not over and opening and state.cube_owner is None:
            code = "IB" if dice else "IW"                 # the opening: both dice rolled, or waiting
            if not dice:
                colour = BLACK
    length = str(state.match_length)
    if state.match_length and state.crawford:
        length += "C"
    elif last_game:
        length += "L"
    score = state.score
    fields = ["".join(_CHARS[p] for p in white), "".join(_CHARS[p] for p in black), cube, dice,
              "W" if colour == WHITE else "B", code, str(score[WHITE]), str(score[BLACK]), length, str(move_id)]
    return ":".join(fields)
