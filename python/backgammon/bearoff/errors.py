"""Errors of the bear-off tables."""


class OutsideDatabaseError(ValueError):
    """A position that a bear-off table does not hold, and why."""


class BearoffFileError(ValueError):
    """A bear-off file that is not in GNU Backgammon's ``.bd`` format."""
