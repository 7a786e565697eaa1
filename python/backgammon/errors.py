"""Exceptions: every one is a ``ValueError`` naming what is wrong."""


class InvalidPositionError(ValueError):
    """A board array or Position ID that is not a backgammon position.

    >>> import numpy as np, backgammon as bg
    >>> bg.Position.from_array(np.zeros((2, 25), dtype=np.uint8))
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidPositionError: neither side has a checker left
    """


class InvalidIdError(ValueError):
    """A malformed Position ID or Match ID.

    >>> import backgammon as bg
    >>> try:
    ...     bg.MatchState.from_match_id("not an id")
    ... except InvalidIdError as e:
    ...     print(type(e).__name__)
    InvalidMatchIdError
    """


class InvalidPositionIdError(InvalidPositionError, InvalidIdError):
    """A malformed GNU Position ID.

    >>> import backgammon as bg
    >>> bg.Position.from_id("xx")
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidPositionIdError: a Position ID has 14 characters, 'xx' has 2
    """


class InvalidRollError(ValueError):
    """Dice that are not two values from 1 to 6.

    >>> import backgammon as bg
    >>> bg.Position.initial().legal_plays("71")
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidRollError: cannot read '71' as a roll: expected two dice 1-6 such as '31' or '3-1'
    """


class InvalidMoveError(ValueError):
    """Move text that cannot be read as backgammon notation (RULES 10.1).

    >>> import backgammon as bg
    >>> bg.Position.initial().parse_play("8/", "31")
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidMoveError: cannot read '8/': write moves as from/to, e.g. 13/7*/5, bar/22, 6/off, 6/4(2)
    """


class IllegalMoveError(ValueError):
    """A play that the rules do not allow for this position and roll.

    >>> import backgammon as bg
    >>> bg.Position.initial().parse_play("6/5", "31")
    Traceback (most recent call last):
    ...
    backgammon.errors.IllegalMoveError: '6/5': both dice must be used when possible (RULES 3.4)
    """


class AmbiguousMoveError(ValueError):
    """Move text that fits several distinct legal plays.

    >>> import backgammon as bg
    >>> bg.Position.from_id("/x8AhADg/wMGAA").parse_play("13/5", "62")   # blots on the 11 and the 7
    Traceback (most recent call last):
    ...
    backgammon.errors.AmbiguousMoveError: '13/5' fits 2 plays: 13/7*/5, 13/11*/5; mark the hits with *
    """


class RulesError(ValueError):
    """An action out of turn or against the rules of a game, match or chouette
    (RULES 2, 6-9); the message names the rule.

    >>> import backgammon as bg
    >>> bg.Game().double()
    Traceback (most recent call last):
    ...
    backgammon.errors.RulesError: no double before the opening roll (RULES 2.2, 7.2)

    ``code`` names the refusal for programs that say it in their own words
    (the web page does, in three languages), ``params`` its particulars;
    the message stays English.

    >>> try:
    ...     bg.Game().double()
    ... except RulesError as e:
    ...     print(e.code, e.params)
    opening_first {'rule': '2.2'}
    """

    def __init__(self, *args, code: str = "", params: dict | None = None):
        super().__init__(*args)
        self.code = code
        self.params = dict(params or {})


class IllegalPlayError(RulesError, IllegalMoveError):
    """A play that a game refuses: both a RulesError and an IllegalMoveError.

    >>> import backgammon as bg
    >>> g = bg.Game(seed=1)
    >>> g.roll()
    >>> try:
    ...     g.play("24/1")
    ... except IllegalPlayError as e:
    ...     print(isinstance(e, RulesError), isinstance(e, IllegalMoveError), e)
    True True '24/1' moves 23 pips; 4-3 gives only 7
    """


class FormatError(ValueError):
    """Text (or bytes) that a file format's reader cannot read, or a value
    its writer cannot write: the base of every format's own error
    (``backgammon.formats``)."""
