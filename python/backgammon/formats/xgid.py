"""eXtreme Gammon IDs (XGID): a position with its cube, score and rules.

An XGID is ten fields separated by colons (docs/formats.md, "XGID"):

``XGID=<position>:<cube>:<owner>:<turn>:<dice>:<score bottom>:<score top>:<rules>:<length>:<max cube>``

XGID draws the board from the side of the *bottom* player, whose checkers
are upper-case letters.  This module maps the bottom player to
:class:`~backgammon.MatchState` player 1 and the top player to player 0,
as gnubg does when it imports an XGID (``set xgid``: turn 1 puts player 1
on roll, owner 1 gives player 1 the cube, the bottom score is
``score[1]``).  The :class:`~backgammon.Position` has the side on roll in
row 1, whichever player that is (docs/design.md).

>>> pos, state = read_xgid("-b----E-C---eE---c-e----B-:0:0:1:41:1:0:0:11:10")
>>> pos == Position.initial(), state.on_roll, state.dice
(True, 1, (4, 1))
>>> state.score, state.match_length
((0, 1), 11)
>>> state.to_match_id()          # what gnubg makes of this XGID
'cAlmAQAACAAE'
>>> write_xgid(pos, state)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:41:1:0:0:11:10'

A double offered is the dice field ``D``; the turn field then names the
player who must take or pass, as XG writes it (the doubler, on roll, is the
other one: in the XGIDs XG's analyses publish the cube's owner is the
doubler, never the turn field's player).  ``B`` is a beaver waiting for the
doubler's answer and ``R`` a raccoon waiting for the beaverer's (money play
with beavers, RULES 7.5): the turn field is again the player who must
answer, and the cube and owner fields are the state's as
``Game.match_state`` has it, the cube a refusal would leave, owned by the
beaverer (gnubg refuses both; XG's own B and R XGIDs were not at hand to
compare).  XGID has no field for a
resignation or for a game that is not in play: :func:`write_xgid` refuses
such states rather than lose them.  The rules field is the Crawford flag in
a match; in money play it is a bit field, 1 = Jacoby (RULES 7.5) and 2 =
beavers, and XGID's maximum cube is the last field (the log2 of a power of
two; XG writes 10, a cube of 1024).  XG writes the dice in the order they
were rolled (``46`` as well as ``64``).  :func:`read_xgid` keeps all of it in
the :class:`~backgammon.MatchState` (``jacoby``, ``beavers``,
``cube_limit``, None for XG's default 1024, ``dice_order``, and
``xgid_fields``), so that ``write_xgid(read_xgid(x))`` is ``x`` byte for
byte (with the ``XGID=`` prefix) for every valid XGID.  Books and older
sites print 9-field XGIDs, with no max-cube field: they are read (no cube
limit) and written back with 9 fields (``xgid_fields=9``; a state made any
other way writes XG's 10).  Numbers written with leading zeros or ``-0``
are read and written plainly.

>>> pos, state = read_xgid("-b----E-C---eE---c-e----B-:1:-1:1:46:0:0:3:0:8")
>>> state.jacoby, state.beavers, state.cube_limit, state.dice, state.dice_order
(True, True, 256, (6, 4), (4, 6))
>>> write_xgid(pos, state)
'XGID=-b----E-C---eE---c-e----B-:1:-1:1:46:0:0:3:0:8'

gnubg's import (``gnubg.setgnubgid("XGID=...")``) keeps the position, cube,
owner, player on roll, dice, match length, match score, Crawford flag and
Jacoby flag exactly as :func:`read_xgid` does (tests/test_xgid.py compares
the Position ID and Match ID on thousands of states and on the XGIDs of
real files).  It drops a double offered: it puts the turn field's player
on roll, with no double (for XG's XGIDs that is the player who was
doubled); it drops the score in money play and the cube limit; beavers go
to its global setting, not to the Match ID.  gnubg has no XGID writer.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from .._validate import flag, instance, integer
from ..errors import FormatError, InvalidIdError, InvalidPositionError
from ..matchid import MAX_CUBE, MAX_FIELD, GameState, InvalidMatchStateError, MatchState
from ..position import Position
from .registry import Format

__all__ = ["Xgid", "InvalidXgidError", "read_xgid", "parse_xgid", "write_xgid",
           "BOTTOM_PLAYER", "TOP_PLAYER", "DEFAULT_MAX_CUBE"]

#: MatchState player drawn at the bottom of an XGID (upper-case checkers).
BOTTOM_PLAYER = 1
#: MatchState player drawn at the top (lower-case checkers).
TOP_PLAYER = 0
#: The cube limit XG writes by default: 2**10.
DEFAULT_MAX_CUBE = 1024

_PREFIX = "XGID="
_FIELDS = ("position", "cube", "cube owner", "turn", "dice", "bottom score", "top score",
           "rules", "match length", "max cube")
_INT = re.compile(r"-?[0-9]+\Z")
_MAX_LOG2 = MAX_CUBE.bit_length() - 1  # 15: the largest cube a Match ID holds


class InvalidXgidError(FormatError, InvalidIdError):
    """A malformed XGID, or a state that an XGID cannot record; the message
    names the field.

    Examples
    --------
    >>> read_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10")
    Traceback (most recent call last):
    ...
    backgammon.formats.xgid.InvalidXgidError: XGID dice field: '71' is not '00' (not rolled), 'D' (double offered), \
'B' (beavered), 'R' (raccooned) or two dice 1-6
    """


@dataclass(frozen=True)
class Xgid:
    """Every field of an XGID: the position and its match state, and how the
    text was written.

    The money-play rules, the cube limit and the dice's order are the
    state's (``state.beavers``, ``state.cube_limit``, ``state.dice_order``);
    ``beavers``, ``max_cube`` and ``dice_order`` given here replace them
    (None: the state's).  ``max_cube`` is the cube limit written (a power of
    two; the state's ``cube_limit``, else XG's 1024 or the cube if larger).
    ``fields`` is 10, or 9 for an XGID printed without the max-cube field
    (None: the state's ``xgid_fields``, which :func:`read_xgid` sets).

    >>> x = parse_xgid("-b----E-C---eE---c-e----B-:1:-1:1:66:0:0:3:0:10")
    >>> s = x.state
    >>> s.cube_value, s.cube_owner, s.jacoby, x.beavers, x.max_cube
    (2, 0, True, True, 1024)
    >>> str(x)
    'XGID=-b----E-C---eE---c-e----B-:1:-1:1:66:0:0:3:0:10'
    >>> str(parse_xgid("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0"))   # 9 fields
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0'
    """

    position: Position
    state: MatchState
    beavers: bool | None = None
    max_cube: int | None = None
    dice_order: tuple | None = None
    fields: int | None = None

    def __post_init__(self) -> None:
        instance("position", self.position, Position)
        instance("state", self.state, MatchState)
        changes: dict = {}
        if self.beavers is not None:
            changes["beavers"] = flag("beavers", self.beavers)
        if self.max_cube is not None:
            max_cube = integer("max_cube", self.max_cube, low=1, high=MAX_CUBE, error=InvalidXgidError)
            if max_cube & (max_cube - 1):
                raise InvalidXgidError(f"max_cube must be a power of two (RULES 7.4), not {max_cube}")
            if self.state.cube_value > max_cube:
                raise InvalidXgidError(f"the cube value {self.state.cube_value} is above max_cube {max_cube}")
            # XG's default limit is the state's None (no limit of practical effect).
            changes["cube_limit"] = None if max_cube == DEFAULT_MAX_CUBE else max_cube
        if self.dice_order is not None:
            order = tuple(self.dice_order)
            if len(order) != 2 or sorted(order) != sorted(self.state.dice):
                raise InvalidXgidError(f"dice_order {self.dice_order!r} is not the state's dice "
                                       f"{self.state.dice} in some order")
            changes["dice_order"] = (int(order[0]), int(order[1]))
        if self.fields is not None:
            if type(self.fields) is not int or self.fields not in (9, 10):
                raise InvalidXgidError(f"fields: an XGID has 10 fields, or 9 without the max cube, "
                                       f"not {self.fields!r}")
            changes["xgid_fields"] = self.fields
        state = self.state
        if changes:
            if changes.get("beavers") and state.match_length:
                raise InvalidXgidError("beavers are a money-play option (RULES 8.4); "
                                       "in a match the rules field is the Crawford flag")
            try:
                state = dataclasses.replace(state, **changes)
            except InvalidMatchStateError as e:
                raise InvalidXgidError(f"XGID: {e}") from None
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "beavers", state.beavers)
        limit = state.cube_limit
        object.__setattr__(self, "max_cube", limit if limit is not None else max(DEFAULT_MAX_CUBE, state.cube_value))
        object.__setattr__(self, "dice_order", state.dice_order)
        object.__setattr__(self, "fields", state.xgid_fields)
        _check_writable(state)

    def __str__(self) -> str:
        return _format(self)


def _check_writable(s: MatchState) -> None:
    """Refuse what an XGID has no field for, rather than drop it."""
    if s.game_state != GameState.PLAYING:
        raise InvalidXgidError(f"an XGID records a game in play; this state's game is {s.game_state.name}")
    if s.resignation:
        raise InvalidXgidError("an XGID has no field for a resignation offer")
    if s.double_offered:
        if s.dice != (0, 0):
            raise InvalidXgidError(f"a double is offered before rolling (RULES 7.2), yet the dice are {s.dice}")
        pending = _pending(s)
        if not pending:
            raise InvalidXgidError("with a double offered the doubled player decides: turn must differ from "
                                   "on_roll, unless a beaver waits for the doubler's answer, the beaverer "
                                   "owning the cube (RULES 7.5)")
        if pending in ("B", "R"):
            if s.match_length or not s.beavers:
                raise InvalidXgidError("only the cube's owner may double (RULES 7.1); a double pending with the "
                                       "cube owned by the side not on roll is a beaver or raccoon waiting for an "
                                       "answer, which needs money play with beavers (RULES 7.5, 8.4)")
            if s.cube_value < (2 if pending == "B" else 4):
                raise InvalidXgidError(f"a {'beaver' if pending == 'B' else 'raccoon'} waiting for an answer "
                                       f"leaves a cube of at least {2 if pending == 'B' else 4} if refused, "
                                       f"not {s.cube_value} (RULES 7.5)")
        elif s.cube_owner is not None and s.cube_owner != s.on_roll:
            raise InvalidXgidError("only the cube's owner may double (RULES 7.1); "
                                   "the player on roll doubles a cube the other player owns")
    elif s.turn != s.on_roll:
        raise InvalidXgidError("an XGID records only the player on roll: with no double offered "
                               "turn must equal on_roll")


def _pending(s: MatchState) -> str:
    """The dice field of a cube decision waiting for an answer, as
    ``Game.match_state`` records it (RULES 7.5): ``D`` a double (the doubled
    side decides), ``B`` a beaver (the doubler, on roll, decides; the
    beaverer owns the cube), ``R`` a raccoon (the beaverer decides and owns
    the cube); "" with nothing pending."""
    if not s.double_offered:
        return ""
    if s.turn == s.on_roll:
        return "B" if s.cube_owner == 1 - s.on_roll else ""
    return "R" if s.cube_owner == s.turn else "D"


# -- reading ---------------------------------------------------------------------
def _bad(field: str, message: str) -> InvalidXgidError:
    return InvalidXgidError(f"XGID {field} field: {message}")


def _int_field(fields: list[str], k: int, low: int, high: int) -> int:
    text = fields[k]
    if not _INT.match(text):
        raise _bad(_FIELDS[k], f"{text!r} is not an integer")
    value = int(text)
    if not low <= value <= high:
        raise _bad(_FIELDS[k], f"{value} is not in {low}..{high}")
    return value


def _read_checkers(text: str) -> np.ndarray:
    """The 26 characters as a (2, 25) array: row 0 top, row 1 bottom."""
    if len(text) != 26:
        raise _bad("position", f"has 26 characters, {text!r} has {len(text)}")
    rows = np.zeros((2, 25), dtype=np.int64)
    for k, ch in enumerate(text):
        if ch == "-":
            continue
        if "A" <= ch <= "P" and k != 0:
            # bottom player: chars 1-24 are its points 1-24, char 25 its bar
            rows[1, k - 1] = ord(ch) - ord("A") + 1
        elif "a" <= ch <= "p" and k != 25:
            # top player: char 25 - p is its point p, char 0 its bar
            rows[0, 24 if k == 0 else 24 - k] = ord(ch) - ord("a") + 1
        elif ch.isalpha() and ch.upper() <= "P":
            slot, other = ("the top player's bar slot", "bottom") if k == 0 else \
                ("the bottom player's bar slot", "top")
            raise _bad("position", f"a checker in the other side's bar slot: character {k} is {slot}, but "
                                   f"{ch!r} is {ord(ch.lower()) - ord('a') + 1} {other}-player "
                                   f"checker{'s' if ch.lower() != 'a' else ''} (RULES 1.3)")
        else:
            raise _bad("position", f"character {k} is {ch!r}, not '-', 'A'-'P' or 'a'-'p'")
    for row, who in ((1, "bottom (upper-case)"), (0, "top (lower-case)")):
        if rows[row].sum() > 15:
            raise _bad("position", f"the {who} player has {int(rows[row].sum())} checkers; a side has 15 (RULES 1.2)")
    return rows


def parse_xgid(text: str) -> Xgid:
    """Every field of an XGID (the ``XGID=`` prefix and surrounding blanks
    are optional).  Raises :class:`InvalidXgidError` naming the field.

    >>> x = parse_xgid("-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10")
    >>> x.state.double_offered
    True
    >>> beavered = "-b----E-C---eE---c-e----B-:1:-1:1:B:0:0:2:0:10"
    >>> s = parse_xgid(beavered).state
    >>> s.double_offered, s.on_roll, s.turn, s.cube_value, s.cube_owner
    (True, 1, 1, 2, 0)
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    body = text.strip()
    if body[:len(_PREFIX)].upper() == _PREFIX:
        body = body[len(_PREFIX):]
    fields = body.split(":")
    if len(fields) not in (len(_FIELDS), len(_FIELDS) - 1):
        raise InvalidXgidError(f"an XGID has {len(_FIELDS)} fields separated by ':' "
                               f"({', '.join(_FIELDS)}; books print it without the last); "
                               f"{body!r} has {len(fields)}")
    short = len(fields) == len(_FIELDS) - 1
    rows = _read_checkers(fields[0])
    cube_log = _int_field(fields, 1, 0, _MAX_LOG2)
    owner = _int_field(fields, 2, -1, 1)
    turn = fields[3]
    if turn not in ("1", "-1"):
        raise _bad("turn", f"{turn!r} is neither 1 (bottom player) nor -1 (top player)")
    dice_text = fields[4]
    # D: a double waits for the turn field's player's answer; B: a beaver
    # waits for the doubler's (the turn field's player); R: a raccoon waits
    # for the beaverer's (the turn field's player).
    doubled = dice_text in ("D", "B", "R")
    if not doubled and not (dice_text == "00" or re.fullmatch(r"[1-6][1-6]", dice_text)):
        raise _bad("dice", f"{dice_text!r} is not '00' (not rolled), 'D' (double offered), 'B' (beavered), "
                           f"'R' (raccooned) or two dice 1-6")
    bottom_score = _int_field(fields, 5, 0, MAX_FIELD)
    top_score = _int_field(fields, 6, 0, MAX_FIELD)
    rules = _int_field(fields, 7, 0, 3)
    length = _int_field(fields, 8, 0, MAX_FIELD)
    max_log = _MAX_LOG2 if short else _int_field(fields, 9, 0, _MAX_LOG2)

    if length and rules > 1:
        raise _bad("rules", f"in a match it is 0 or 1 (the Crawford game), not {rules}")
    if cube_log > max_log:
        raise _bad("cube", f"the cube {1 << cube_log} is above the max cube {1 << max_log}")
    mover = BOTTOM_PLAYER if turn == "1" else TOP_PLAYER
    mover_field = 1 if mover == BOTTOM_PLAYER else -1
    mover_name = "bottom" if mover == BOTTOM_PLAYER else "top"
    # The turn field's player answers what is pending; the doubler is on roll
    # (for a beaver, the doubler is the one answering).
    on_roll = mover if dice_text == "B" else 1 - mover if doubled else mover
    if dice_text == "D" and owner == mover_field:
        raise _bad("cube owner", f"the {mover_name} player, who must answer the double, owns the cube, so the "
                                 f"other player cannot have doubled (RULES 7.1)")
    if dice_text in ("B", "R"):
        # The state of Game.match_state while a beaver or raccoon waits: the
        # cube a refusal would leave, owned by the beaverer (RULES 7.5).
        word = "beaver" if dice_text == "B" else "raccoon"
        if length or not rules & 2:
            raise _bad("dice", f"{dice_text!r} (a {word} waiting for an answer) needs money play with the "
                               f"rules field's beaver bit (RULES 7.5, 8.4)")
        beaverer_field = -mover_field if dice_text == "B" else mover_field
        if owner != beaverer_field:
            raise _bad("cube owner", f"with {dice_text!r} the beaverer owns the cube: {beaverer_field}, not {owner}")
        least = 1 if dice_text == "B" else 2
        if cube_log < least:
            raise _bad("cube", f"with {dice_text!r} the cube is the value a refusal leaves, at least "
                               f"{1 << least} after a {word} (RULES 7.5)")
    score = [0, 0]
    score[BOTTOM_PLAYER], score[TOP_PLAYER] = bottom_score, top_score
    crawford = bool(length) and rules == 1
    if length:
        if max(score) >= length:
            raise _bad("bottom score" if bottom_score >= length else "top score",
                       f"{max(score)} has already reached the match length {length} (RULES 8.1)")
        if crawford and (max(score) != length - 1 or min(score) == length - 1):
            raise _bad("rules", f"a Crawford game needs one player at {length - 1} and the other behind "
                                f"(RULES 8.2); the score is {bottom_score}-{top_score}")
        if crawford and (cube_log or owner or doubled):
            raise _bad("cube", "the Crawford game is played without the cube (RULES 8.2)")
    try:
        state = MatchState(
            cube_value=1 << cube_log,
            cube_owner={0: None, 1: BOTTOM_PLAYER, -1: TOP_PLAYER}[owner],
            on_roll=on_roll,
            crawford=crawford,
            turn=mover,
            double_offered=doubled,
            dice=(0, 0) if doubled else (int(dice_text[0]), int(dice_text[1])),
            match_length=length,
            score=(score[0], score[1]),
            jacoby=not length and bool(rules & 1),
            beavers=not length and bool(rules & 2),
            # XG's default limit (2**10) is no limit of practical effect: None, as in MatchState().
            cube_limit=None if short or 1 << max_log == DEFAULT_MAX_CUBE else 1 << max_log,
            dice_order=None if doubled else (int(dice_text[0]), int(dice_text[1])),
            xgid_fields=9 if short else 10,
        )
    except InvalidMatchStateError as e:  # pragma: no cover - the checks above come first
        raise InvalidXgidError(f"XGID: {e}") from None
    board = rows if on_roll == BOTTOM_PLAYER else rows[::-1]
    try:
        position = Position.from_array(board)
    except InvalidPositionError as e:
        raise _bad("position", str(e)) from None
    return Xgid(position, state)


def read_xgid(text: str) -> tuple[Position, MatchState]:
    """The position and match state of an XGID (eXtreme Gammon's position code).

    The bottom (upper-case) player is MatchState player 1, as in gnubg.
    The state keeps every field: the Jacoby and beaver flags, the cube
    limit (None for a 9-field XGID) and the dice's order as written.

    Parameters
    ----------
    text : str
        The XGID, with or without its ``XGID=`` prefix.

    Returns
    -------
    position : Position
        The side on roll in row 1.
    state : MatchState
        The cube, the score, the match length, the dice.

    Raises
    ------
    InvalidXgidError
        A malformed XGID, naming the field.

    See Also
    --------
    write_xgid : the other way.
    backgammon.formats.codes.read_position : any position code.
    backgammon.rollouts.rollout : ``rollout(pos, state=state, cube=True)``.

    Examples
    --------
    >>> pos, state = read_xgid("-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10")
    >>> pos.to_id(), state.to_match_id()
    ('4HPwATDgc/ABMA', 'cIkFAAAAAAAE')
    """
    x = parse_xgid(text)
    return x.position, x.state


# -- writing ---------------------------------------------------------------------
def _format(x: Xgid) -> str:
    s = x.state
    arr = x.position.array
    # row 1 of the position is the side on roll
    bottom, top = (arr[1], arr[0]) if s.on_roll == BOTTOM_PLAYER else (arr[0], arr[1])
    chars = ["-"] * 26
    for p in range(1, 25):
        if bottom[p - 1]:
            chars[p] = chr(ord("A") + bottom[p - 1] - 1)
        elif top[24 - p]:
            chars[p] = chr(ord("a") + top[24 - p] - 1)
    if bottom[24]:
        chars[25] = chr(ord("A") + bottom[24] - 1)
    if top[24]:
        chars[0] = chr(ord("a") + top[24] - 1)
    owner = 0 if s.cube_owner is None else (1 if s.cube_owner == BOTTOM_PLAYER else -1)
    d = s.dice_order or s.dice
    dice = _pending(s) or f"{d[0]}{d[1]}"
    mover = s.turn
    if s.match_length:
        rules = int(s.crawford)
    else:
        rules = int(s.jacoby) | (2 if s.beavers else 0)
    fields: tuple = ("".join(chars), s.cube_value.bit_length() - 1, owner, 1 if mover == BOTTOM_PLAYER else -1,
                     dice, s.score[BOTTOM_PLAYER], s.score[TOP_PLAYER], rules, s.match_length)
    if s.xgid_fields == 10:
        assert x.max_cube is not None      # __post_init__ resolves it
        fields += (x.max_cube.bit_length() - 1,)
    return _PREFIX + ":".join(map(str, fields))


def write_xgid(position, state: MatchState | None = None, *, beavers: bool | None = None,
               max_cube: int | None = None, dice_order: tuple | None = None) -> str:
    """The XGID of a position in a match state.

    Parameters
    ----------
    position : Position, pair or Xgid
        The position (side on roll in row 1); or a ``(position, state)``
        pair (:func:`read_xgid`'s value); or an :class:`Xgid`
        (:func:`parse_xgid`'s value, every field as written).
    state : MatchState, optional
        Default money play, cube centred, player 0 (top) on roll, not
        rolled.
    beavers, max_cube, dice_order : optional
        Replace the state's ``beavers``, ``cube_limit`` and
        ``dice_order``.

    Returns
    -------
    str
        ``XGID=...``.

    Raises
    ------
    InvalidXgidError
        A state an XGID cannot record (a game not in play, a resignation
        offer, a turn that does not follow from the double).

    Notes
    -----
    MatchState player 1 is the bottom player.  The rules field, the max
    cube and the dice's order come from the state (``jacoby``, ``beavers``,
    ``cube_limit``: by default XG's 1024, or the cube value if that is
    larger; ``dice_order``: by default higher first); ``beavers``,
    ``max_cube`` and ``dice_order`` given here replace them.  With a double
    offered the turn field is the player who must answer it.  In a match
    the rules field is the Crawford flag, so ``state.jacoby`` (which gnubg
    stores even in matches, where it has no effect, RULES 8.4) is not
    written.

    Examples
    --------
    >>> write_xgid(Position.initial(), MatchState(on_roll=1, dice=(3, 1)))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10'
    >>> write_xgid(read_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:13:0:0:2:0:8"))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:13:0:0:2:0:8'
    """
    if isinstance(position, Xgid):
        if state is not None:
            raise TypeError("state: an Xgid holds its state; give it alone")
        if (beavers, max_cube, dice_order) != (None, None, None):
            position = Xgid(position.position, position.state, beavers, max_cube, dice_order, position.fields)
        return _format(position)
    if isinstance(position, tuple) and len(position) == 2 and state is None:
        position, state = position
    instance("position", position, Position)
    if state is None:
        state = MatchState()
    instance("state", state, MatchState)
    return _format(Xgid(position, state, beavers=beavers, max_cube=max_cube, dice_order=dice_order))


FORMAT = Format("xgid", (), "position", read_xgid, write_xgid, InvalidXgidError)
