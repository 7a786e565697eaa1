"""A record's games and what its reader mended: :class:`RecordedGame`,
:class:`RecordWarning`, and the rules a money session is read with.  The
plain data of :mod:`backgammon.formats.record`, which the replay and the
builder share."""
from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rules

__all__ = ["RecordWarning", "RecordedGame", "MONEY_RULES"]

#: The rules a money session is read with unless told otherwise: beavers
#: and raccoons allowed (RULES 7.5), as files record them when they happen.
MONEY_RULES = Rules(beavers=16)


@dataclass(frozen=True)
class RecordWarning:
    """Something a file says that its reader did not take as written,
    because the play (or the rest of the file) says otherwise: ``game``
    (1-based; 0 for the file as a whole) and ``line`` (1-based) say where,
    ``written`` what the file says, ``used`` what the record holds.

    >>> str(RecordWarning(2, 47, "Wins 3 point and the match", "player 0 wins 4 points (the play)"))
    "game 2, line 47: the file says 'Wins 3 point and the match'; read as player 0 wins 4 points (the play)"
    """

    game: int
    line: int
    written: str
    used: str

    def __str__(self) -> str:
        where = ", ".join(w for w in (f"game {self.game}" if self.game else "",
                                      f"line {self.line}" if self.line else "") if w)
        return f"{where + ': ' if where else ''}the file says {self.written!r}; read as {self.used}"


@dataclass(frozen=True)
class RecordedGame:
    """One game of a record: ``score`` before it, its ``events`` (as in
    ``Game.history``), the ``winner`` (None while unfinished) and the
    ``points`` won; ``lines`` gives the source line of each event and
    ``line`` the line where the game starts (empty / 0 when the record
    was not read from a file)."""

    score: tuple
    events: tuple
    winner: int | None = None
    points: int = 0
    lines: tuple = ()
    line: int = 0

    @property
    def resigned(self) -> bool:
        """The game ended by an accepted resignation (RULES 6.5)."""
        return bool(self.events) and self.events[-1].kind == "accept"
