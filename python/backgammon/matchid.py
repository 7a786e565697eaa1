"""GNU Backgammon Match IDs: the cube, the score and the state of play.

A Match ID packs a :class:`MatchState` into 9 bytes, fields least
significant bit first, written as 12 characters of standard Base64 without
padding (docs/formats.md, "GNU Match ID").  Together with a Position ID it
describes a moment of a match, as in gnubg's ``positionid:matchid``.

>>> state = MatchState(match_length=5)
>>> state.to_match_id()
'MAGgAAAAAAAE'
>>> MatchState.from_match_id("MAGgAAAAAAAE") == state
True
>>> # gnubg docs: 9-point match, 2-4
>>> MatchState.from_match_id("QYkqASAAIAAA").score
(2, 4)
"""
from __future__ import annotations

import base64
import binascii
import dataclasses
import enum
import operator
from dataclasses import dataclass

from .errors import InvalidMatchIdError, InvalidMatchStateError, RulesError
from .rules import BEAVERS_ON, MAX_CUBE, Rules

__all__ = ["MatchState", "GameState", "InvalidMatchStateError", "InvalidMatchIdError",
           "MAX_CUBE", "MAX_FIELD", "state_and_rules"]

#: Largest match length or score: 15-bit fields.
MAX_FIELD = 2 ** 15 - 1

# (name, bit offset, width) of each field, docs/formats.md "GNU Match ID".
# Bit 66 is gnubg's "Jacoby off" flag, written by gnubg 1.x but not in the
# older layout; bits 67-71 are unused.
_CUBE = (0, 4)
_OWNER = (4, 2)
_ON_ROLL = (6, 1)
_CRAWFORD = (7, 1)
_GAME_STATE = (8, 3)
_TURN = (11, 1)
_DOUBLED = (12, 1)
_RESIGNATION = (13, 2)
_DIE1 = (15, 3)
_DIE2 = (18, 3)
_LENGTH = (21, 15)
_SCORE0 = (36, 15)
_SCORE1 = (51, 15)
_NO_JACOBY = (66, 1)
_CENTRED = 3  # cube owner code for a centred cube
_UNUSED_BITS = ((1 << 72) - 1) ^ ((1 << 67) - 1)


class GameState(enum.IntEnum):
    """gnubg's state of the current game, as stored in bits 8-10.

    >>> MatchState.from_match_id("cIkFAAAAAAAE").game_state
    <GameState.PLAYING: 1>
    """

    NONE = 0       # no game started
    PLAYING = 1
    OVER = 2       # won by bearing off (RULES 6.1)
    RESIGNED = 3   # ended by an accepted resignation (RULES 6.5)
    DROPPED = 4    # ended by a dropped double (RULES 7.3)


def _finished(gs: GameState) -> bool:
    return gs in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)


def _as_int(name: str, value) -> int:
    # operator.index takes ints, bools and numpy integers, never floats or text.
    try:
        return operator.index(value)
    except TypeError:
        raise InvalidMatchStateError(f"{name} must be an integer, not {type(value).__name__}") from None


def _as_flag(name: str, value) -> bool:
    if _as_int(name, value) not in (0, 1):
        raise InvalidMatchStateError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _as_side(name: str, value) -> int:
    side = _as_int(name, value)
    if side not in (0, 1):
        raise InvalidMatchStateError(f"{name} must be player 0 or 1, got {value!r}")
    return side


def _as_pair(name: str, value) -> tuple[int, int]:
    try:
        items = tuple(value)
    except TypeError:
        raise InvalidMatchStateError(f"{name} must be a pair of integers, not {type(value).__name__}") from None
    if len(items) != 2:
        raise InvalidMatchStateError(f"{name} must be a pair of integers, got {len(items)} values")
    return _as_int(name, items[0]), _as_int(name, items[1])


@dataclass(frozen=True)
class MatchState:
    """Everything a GNU Match ID records, validated and normalised.

    The state of a match at one moment: the cube, the score, whose turn
    it is and what is pending.  Players are 0 and 1 as in gnubg.
    :meth:`from_match_id` and :meth:`to_match_id` read and write the ID;
    ``Game.match_state()`` builds the state of a game.

    Parameters
    ----------
    cube_value : int, default 1
        A power of two up to :data:`MAX_CUBE` (RULES 7.4).
    cube_owner : int, optional
        0 or 1; None for a centred cube.
    on_roll : int, default 0
        The player whose turn it is to move.
    crawford : bool, default False
        This is the Crawford game (RULES 8.2).
    game_state : GameState, default GameState.PLAYING
        Whether a game is on, or how it ended.
    turn : int, optional
        The player who must decide now: the doubled side while a double
        is offered, the opponent of a resigning side; default ``on_roll``.
    double_offered : bool, default False
        A double waits for an answer.
    resignation : int, default 0
        A resignation offered (or accepted): 1 single, 2 gammon, 3
        backgammon.
    dice : pair of int, default (0, 0)
        The roll, stored higher die first as gnubg writes it (3-1 and 1-3
        are one roll, RULES 2.1); ``(0, 0)``: not rolled.
    match_length : int, default 0
        The match length; 0 is money play, where ``score`` is the
        session's.
    score : pair of int, default (0, 0)
        Player 0's and player 1's points.
    jacoby : bool, default False
        gnubg's Jacoby setting (RULES 7.5), which gnubg 1.x stores even in
        matches, where it has no effect (RULES 8.4); IDs from older gnubg
        versions lack the flag and read as ``jacoby=True``.
    beavers : bool, default False
        Whether beavers are allowed (money play only, RULES 7.5, 8.4).
        Not in a Match ID: kept for the formats that hold it (an XGID).
    cube_limit : int, optional
        The highest cube value, a power of two (RULES 7.4); None: no limit
        but :data:`MAX_CUBE`.  Not in a Match ID.
    dice_order : pair of int, optional
        The dice in the order given, when that is not higher first (else
        None; not compared).  Not in a Match ID.
    xgid_fields : int, default 10
        How many fields the XGID this state was read from had: 10, or 9
        for the form books print without the max-cube field, which
        :func:`~backgammon.formats.xgid.write_xgid` then writes back
        (not compared, not shown).  Not in a Match ID.

    Raises
    ------
    InvalidMatchStateError
        A field out of range or of the wrong type, or a state that cannot
        happen (see Notes), naming the field.

    See Also
    --------
    backgammon.game.Game.match_state : the state of a game being played.
    backgammon.formats.codes.read_position : a Position ID:Match ID or an
        XGID to a position and its state.

    Notes
    -----
    Besides each field's range, the state must be possible: no Crawford
    game in money play; in a match at most one player has reached the
    length, and only once the game has ended (RULES 8.1); a Crawford game
    not yet ended has one player at length - 1, the other behind, and no
    cube action (RULES 8.2).  :meth:`replace` validates again and keeps
    ``turn`` as is.

    In a finished game (``OVER``, ``RESIGNED``, ``DROPPED``) the fields are
    what gnubg writes after the last action: ``score`` is the score after
    the game (RULES 8.5); ``crawford`` is the flag of the game to come, set
    when a side has just reached length - 1 and clear once the Crawford game
    is over (RULES 8.2); after a drop or an accepted resignation ``turn`` is
    the side that answered and ``on_roll`` the side that doubled or
    resigned, ``resignation`` keeps the accepted level and ``dice`` any roll
    made before resigning; after a bear-off the loser is on roll and on
    turn.  A beaver or raccoon waiting for an answer (RULES 7.5) is a double
    offered on half the new cube value, owned by the beaverer.

    Examples
    --------
    >>> s = MatchState(cube_value=2, cube_owner=1, dice=(1, 3),
    ...                match_length=7, score=(3, 1))
    >>> s.dice, s.turn, s.to_match_id()
    ((3, 1), 0, 'EYHlADAACAAE')
    >>> s = MatchState.from_match_id("MCugAAAACAAE")  # a single resigned, accepted
    >>> s.game_state.name, s.on_roll, s.turn, s.resignation, s.score
    ('RESIGNED', 0, 1, 1, (0, 1))
    """

    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int | None = None
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False
    beavers: bool = False
    cube_limit: int | None = None
    dice_order: tuple[int, int] | None = dataclasses.field(default=None, compare=False)
    xgid_fields: int = dataclasses.field(default=10, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Every state is checked here, once; a field that is already a plain
        # int, bool or tuple skips the converter (``Game.match_state`` makes
        # one each turn), never a check.
        put = self.__dict__.__setitem__      # the dataclass is frozen
        cube = self.cube_value
        if type(cube) is not int:
            cube = _as_int("cube_value", cube)
        if cube < 1 or cube & (cube - 1):
            raise InvalidMatchStateError(f"the cube value must be a power of two (RULES 7.4), got {cube}")
        if cube > MAX_CUBE:
            raise InvalidMatchStateError(f"a Match ID holds cube values up to {MAX_CUBE}, got {cube}")
        put("cube_value", cube)
        owner = self.cube_owner
        if owner is not None and not (type(owner) is int and 0 <= owner <= 1):
            put("cube_owner", _as_side("cube_owner (None when centred)", owner))
        on_roll = self.on_roll
        if not (type(on_roll) is int and 0 <= on_roll <= 1):
            on_roll = _as_side("on_roll", on_roll)
            put("on_roll", on_roll)
        turn = self.turn
        if turn is None:
            put("turn", on_roll)
        elif not (type(turn) is int and 0 <= turn <= 1):
            put("turn", _as_side("turn", turn))
        for name in ("crawford", "double_offered", "jacoby"):
            value = self.__dict__[name]
            if value is not False and value is not True:
                put(name, _as_flag(name, value))
        game_state = self.game_state
        if type(game_state) is not GameState:
            code = _as_int("game_state", game_state)
            if not 0 <= code <= 4:
                raise InvalidMatchStateError("the game state must be 0-4 (NONE, PLAYING, OVER, RESIGNED, DROPPED), "
                                             f"got {code}")
            put("game_state", GameState(code))
        resignation = self.resignation
        if type(resignation) is not int:
            resignation = _as_int("resignation", resignation)
        if not 0 <= resignation <= 3:
            raise InvalidMatchStateError("resignation must be 0 (none), 1 (single), 2 (gammon) "
                                         f"or 3 (backgammon), got {resignation}")
        put("resignation", resignation)

        dice = self.dice
        if type(dice) is tuple and len(dice) == 2 and type(dice[0]) is int and type(dice[1]) is int:
            d1, d2 = dice
        else:
            d1, d2 = _as_pair("dice", dice)
        if (d1 or d2) and not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise InvalidMatchStateError(f"dice must be two values from 1 to 6, or (0, 0) when not rolled; got {(d1, d2)}")
        dice = (d1, d2) if d1 >= d2 else (d2, d1)
        put("dice", dice)
        if self.dice_order is None:
            order = (d1, d2)
        else:
            order = _as_pair("dice_order", self.dice_order)
            if sorted(order) != sorted((d1, d2)):
                raise InvalidMatchStateError(f"dice_order {order} is not the dice {dice} in some order")
        put("dice_order", None if order == dice else order)
        if self.beavers is not False and self.beavers is not True:
            put("beavers", _as_flag("beavers", self.beavers))
        if type(self.xgid_fields) is not int or self.xgid_fields not in (9, 10):
            fields = _as_int("xgid_fields", self.xgid_fields)
            if fields not in (9, 10):
                raise InvalidMatchStateError(f"xgid_fields must be 10, or 9 for an XGID without the max-cube "
                                             f"field, got {self.xgid_fields!r}")
            put("xgid_fields", fields)
        if self.cube_limit is not None:
            limit = _as_int("cube_limit", self.cube_limit)
            if limit < 1 or limit & (limit - 1) or limit > MAX_CUBE:
                raise InvalidMatchStateError(f"cube_limit must be a power of two from 1 to {MAX_CUBE} "
                                             f"(RULES 7.4), got {limit}")
            if cube > limit:
                raise InvalidMatchStateError(f"the cube value {cube} is above the cube limit {limit} (RULES 7.4)")
            put("cube_limit", limit)

        length = self.match_length
        if type(length) is not int:
            length = _as_int("match_length", length)
        if not 0 <= length <= MAX_FIELD:
            raise InvalidMatchStateError(f"the match length must be 0 (money) to {MAX_FIELD}, got {length}")
        put("match_length", length)
        score = self.score
        if not (type(score) is tuple and len(score) == 2 and type(score[0]) is int and type(score[1]) is int):
            score = _as_pair("score", score)
        if not (0 <= score[0] <= MAX_FIELD and 0 <= score[1] <= MAX_FIELD):
            raise InvalidMatchStateError(f"scores must be 0 to {MAX_FIELD}, got {score}")
        put("score", score)
        self._check_match(length, score)

    def _check_match(self, length: int, score: tuple[int, int]) -> None:
        """The cross-field rules: match length, score and the Crawford game."""
        if length == 0:
            if self.crawford:
                raise InvalidMatchStateError("money play has no Crawford game (RULES 8.2)")
            return
        if self.beavers:
            raise InvalidMatchStateError("beavers are a money-play option, not a match's (RULES 8.4)")
        won = (score[0] >= length, score[1] >= length)
        if won[0] and won[1]:
            raise InvalidMatchStateError(f"both players cannot have reached the match length {length}: score {score}")
        if (won[0] or won[1]) and not _finished(self.game_state):
            raise InvalidMatchStateError(f"the {length}-point match is already won at {score}; "
                                         f"no game can be {self.game_state.name}")
        if self.crawford and not _finished(self.game_state):
            # RULES 8.2: the leader has just reached length - 1; the trailer is behind.
            if sorted(score)[1] != length - 1 or sorted(score)[0] == length - 1:
                raise InvalidMatchStateError(f"a Crawford game needs one player at {length - 1} of {length} "
                                             f"and the other behind, got {score}")
            if self.game_state == GameState.PLAYING and (
                    self.cube_value != 1 or self.cube_owner is not None or self.double_offered):
                raise InvalidMatchStateError("the Crawford game is played without the cube (RULES 8.2): "
                                             "it must stay centred at 1 and no double can be offered")

    # -- text ------------------------------------------------------------------
    @classmethod
    def from_match_id(cls, match_id: str) -> "MatchState":
        """From a 12-character GNU Match ID (a ``Match ID:`` prefix is allowed).

        Dice written lower die first (as older gnubg did) are accepted and
        stored higher first, so ``to_match_id`` gives back the input exactly
        for every ID gnubg 1.x writes.

        Parameters
        ----------
        match_id : str
            The ID, as gnubg prints it (``cIkFAAAAAAAE``).

        Returns
        -------
        MatchState

        Raises
        ------
        InvalidMatchIdError
            Not 12 characters of Base64 making 9 bytes.
        InvalidMatchStateError
            The ID decodes to a state that cannot happen.

        Examples
        --------
        >>> MatchState.from_match_id("cIkFAAAAAAAE").dice
        (3, 1)
        >>> old = MatchState.from_match_id("MIGsAAAAAAAA")   # dice written 1-3
        >>> old.dice, old.to_match_id()
        ((3, 1), 'MIGlAAAAAAAA')
        """
        if not isinstance(match_id, str):
            raise InvalidMatchIdError(f"a Match ID is a string, not {type(match_id).__name__}")
        text = match_id.strip()
        if text.lower().startswith("match id:"):
            text = text[len("match id:"):].strip()
        if len(text) != 12:
            raise InvalidMatchIdError(f"a Match ID has 12 characters, {text!r} has {len(text)}")
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidMatchIdError(f"{text!r} is not Base64") from None
        if len(raw) != 9:  # padding '=' inside the 12 characters shortens it
            raise InvalidMatchIdError(f"{text!r} is not 9 bytes of Base64 without padding")
        bits = int.from_bytes(raw, "little")

        def get(field: tuple[int, int]) -> int:
            at, width = field
            return (bits >> at) & ((1 << width) - 1)

        if bits & _UNUSED_BITS:
            raise InvalidMatchIdError(f"{text!r} has bits set past the last field (bits 67-71 are unused)")
        owner = get(_OWNER)
        if owner == 2:
            raise InvalidMatchIdError(f"{text!r}: cube owner code 2 is none of 0, 1 and 3 (centred)")
        game_state = get(_GAME_STATE)
        if game_state > GameState.DROPPED:
            raise InvalidMatchIdError(f"{text!r}: game state {game_state} is none of 0-4")
        dice = get(_DIE1), get(_DIE2)
        if max(dice) > 6:
            raise InvalidMatchIdError(f"{text!r}: dice {dice} are not values from 1 to 6")
        try:
            return cls(
                cube_value=1 << get(_CUBE),
                cube_owner=None if owner == _CENTRED else owner,
                on_roll=get(_ON_ROLL),
                crawford=bool(get(_CRAWFORD)),
                game_state=GameState(game_state),
                turn=get(_TURN),
                double_offered=bool(get(_DOUBLED)),
                resignation=get(_RESIGNATION),
                dice=dice,
                match_length=get(_LENGTH),
                score=(get(_SCORE0), get(_SCORE1)),
                jacoby=not get(_NO_JACOBY),
            )
        except InvalidMatchStateError as e:
            raise InvalidMatchIdError(f"{text!r}: {e}") from None

    def to_match_id(self) -> str:
        """The 12-character GNU Match ID, exactly as gnubg 1.x writes it.

        Examples
        --------
        >>> MatchState(match_length=5).to_match_id()
        'MAGgAAAAAAAE'
        """
        assert self.turn is not None     # __post_init__ sets it
        fields = (
            (_CUBE, self.cube_value.bit_length() - 1),
            (_OWNER, _CENTRED if self.cube_owner is None else self.cube_owner),
            (_ON_ROLL, self.on_roll),
            (_CRAWFORD, int(self.crawford)),
            (_GAME_STATE, int(self.game_state)),
            (_TURN, self.turn),
            (_DOUBLED, int(self.double_offered)),
            (_RESIGNATION, self.resignation),
            (_DIE1, self.dice[0]),
            (_DIE2, self.dice[1]),
            (_LENGTH, self.match_length),
            (_SCORE0, self.score[0]),
            (_SCORE1, self.score[1]),
            (_NO_JACOBY, int(not self.jacoby)),
        )
        bits = 0
        for (at, _width), value in fields:
            bits |= value << at
        return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")

    # -- views -----------------------------------------------------------------
    @property
    def is_money(self) -> bool:
        """True for money play (match length 0)."""
        return self.match_length == 0

    @property
    def away(self) -> tuple[int, int] | None:
        """Points each player still needs (RULES 8.1), or None in money play.

        >>> MatchState(match_length=7, score=(3, 5)).away
        (4, 2)
        """
        if self.match_length == 0:
            return None
        return self.match_length - self.score[0], self.match_length - self.score[1]

    # -- the rules of the game ----------------------------------------------------
    def game_rules(self, rules: Rules | None = None) -> Rules:
        """The rules every decision in this state reads: Jacoby, beavers and
        the cube limit as this state holds them (Jacoby and beavers only in
        money play, RULES 8.4; no ``cube_limit``: ``MAX_CUBE``), and the
        options a state does not hold (automatic doubles, backgammons
        scored as gammons, the opening reroll, how many beavers) from
        ``rules``.  A ``rules`` that says otherwise than the state about
        Jacoby, beavers or the cube limit is refused (``RulesError``, a
        ValueError, naming both): one game has one set of rules.

        >>> MatchState(jacoby=True, beavers=True).game_rules()
        Rules(jacoby=True, beavers=16, automatic_doubles=0, cube_limit=32768, backgammon_counts_as_gammon=False, opening_reroll=False)
        >>> MatchState(jacoby=True).game_rules(Rules())
        Traceback (most recent call last):
        ...
        backgammon.errors.RulesError: the state and rules disagree: jacoby is True in the state but False in rules; give the rules once (in the state), or the same in both
        """
        money = self.match_length == 0
        limit = MAX_CUBE if self.cube_limit is None else self.cube_limit
        if rules is None:
            return Rules(jacoby=money and self.jacoby, beavers=BEAVERS_ON if money and self.beavers else 0,
                         cube_limit=limit)
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a backgammon.Rules, not {type(rules).__name__}")
        clash = []
        if money and rules.jacoby != self.jacoby:
            clash.append(f"jacoby is {self.jacoby} in the state but {rules.jacoby} in rules")
        if money and bool(rules.beavers) != self.beavers:
            clash.append(f"beavers are {'allowed' if self.beavers else 'off'} in the state but "
                         f"{rules.beavers} in rules")
        if rules.cube_limit != limit:
            clash.append(f"the cube limit is {limit} in the state but {rules.cube_limit} in rules")
        if clash:
            raise RulesError(f"the state and rules disagree: {'; '.join(clash)}; give the rules once "
                             f"(in the state), or the same in both")
        if not money:
            rules.check_match_play()
        return rules

    def with_rules(self, rules: Rules) -> "MatchState":
        """This state holding ``rules``' Jacoby, beavers and cube limit (for a
        state read from a Match ID, which holds only Jacoby, beside the
        rules of its match).

        >>> rules = Rules(jacoby=True, cube_limit=64)
        >>> MatchState().with_rules(rules).game_rules().cube_limit
        64
        """
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a backgammon.Rules, not {type(rules).__name__}")
        money = self.match_length == 0
        return dataclasses.replace(self, jacoby=self.jacoby if not money else rules.jacoby,
                                   beavers=money and rules.beavers > 0,
                                   cube_limit=None if rules.cube_limit == MAX_CUBE else rules.cube_limit)

    def replace(self, **changes) -> "MatchState":
        """A copy with some fields changed, validated again (new dice
        drop the old ones' written order).

        Raises
        ------
        InvalidMatchStateError
            The new state is not a possible one.

        Examples
        --------
        >>> MatchState(match_length=5).replace(score=(2, 3)).away
        (3, 2)
        """
        if "dice" in changes and "dice_order" not in changes:
            changes["dice_order"] = None
        return dataclasses.replace(self, **changes)


def state_and_rules(state: MatchState | None, rules: Rules | None) -> tuple[MatchState, Rules]:
    """The one reading of a decision's ``state`` and ``rules`` (cube
    decisions, hints, rollouts, analysis): the state (default money, cube
    centred, holding the rules given) and its rules by
    :meth:`MatchState.game_rules`, so that two places cannot disagree.

    >>> s, r = state_and_rules(None, Rules(jacoby=True))
    >>> s.jacoby, r.jacoby
    (True, True)
    >>> state_and_rules(MatchState(jacoby=True), None)[1].jacoby
    True
    """
    if state is None:
        state = MatchState() if rules is None else MatchState().with_rules(rules)
    elif not isinstance(state, MatchState):
        raise TypeError(f"state must be a backgammon.MatchState, not {type(state).__name__}")
    return state, state.game_rules(rules)
