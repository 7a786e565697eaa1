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
