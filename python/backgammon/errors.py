"""Exceptions: every one is a ``ValueError`` naming what is wrong."""


class InvalidPositionError(ValueError):
    """A board array or Position ID that is not a backgammon position."""


class InvalidIdError(ValueError):
    """A malformed Position ID or Match ID."""


class InvalidPositionIdError(InvalidPositionError, InvalidIdError):
    """A malformed GNU Position ID."""


class InvalidRollError(ValueError):
    """Dice that are not two values from 1 to 6."""


class InvalidMoveError(ValueError):
    """Move text that cannot be read as backgammon notation (RULES 10.1)."""


class IllegalMoveError(ValueError):
    """A play that the rules do not allow for this position and roll."""


class AmbiguousMoveError(ValueError):
    """Move text that fits several distinct legal plays."""


class RulesError(ValueError):
    """An action out of turn or against the rules of a game, match or chouette
    (RULES 2, 6-9); the message names the rule."""


class IllegalPlayError(RulesError, IllegalMoveError):
    """A play that a game refuses: both a RulesError and an IllegalMoveError."""


class FormatError(ValueError):
    """Text (or bytes) that a file format's reader cannot read, or a value
    its writer cannot write: the base of every format's own error
    (``backgammon.formats``)."""
