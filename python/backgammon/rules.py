"""Rules options for money play (RULES 7.5) and the cube limit (RULES 7.4).

>>> Rules(jacoby=True, beavers=2).money_options()
['jacoby', 'beavers']
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError

__all__ = ["Rules", "MAX_CUBE", "BEAVERS_ON"]

#: The highest cube a GNU Match ID can hold (4 bits of log2).
MAX_CUBE = 2 ** 15
#: Beavers and raccoons per double where a state or file says only "beavers allowed" (XGID, most files).
BEAVERS_ON = 16


@dataclass(frozen=True)
class Rules:
    """Options of a game.  The defaults are the standard (USBGF) rules.

    Jacoby, beavers and the cube limit are also held by a
    :class:`~backgammon.MatchState` (read from an XGID, a file or the web):
    every decision reads them through ``MatchState.game_rules``, which takes
    them from the state and refuses a ``Rules`` that says otherwise
    (docs/design.md, "Where each rule lives").

    - ``jacoby``: gammons count single until a double has been taken (money).
    - ``beavers``: how many beavers and raccoons one double may draw (money).
    - ``automatic_doubles``: how many opening ties double the cube (money).
    - ``cube_limit``: highest cube value, a power of two (RULES 7.4).
    - ``backgammon_counts_as_gammon``: a backgammon scores 2 (RULES 6.4).
    - ``opening_reroll``: the opening winner may roll both dice afresh (RULES 2.2).

    >>> Rules().jacoby, Rules(jacoby=True, beavers=1).beavers
    (False, 1)
    """

    jacoby: bool = False
    beavers: int = 0
    automatic_doubles: int = 0
    cube_limit: int = MAX_CUBE
    backgammon_counts_as_gammon: bool = False
    opening_reroll: bool = False

    def __post_init__(self):
        for name in ("beavers", "automatic_doubles"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RulesError(f"{name} must be a count >= 0, not {value!r}")
        limit = self.cube_limit
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1 or limit & (limit - 1) or limit > MAX_CUBE:
            raise RulesError(f"cube_limit must be a power of two from 1 to {MAX_CUBE} (RULES 7.4), not {limit!r}")

    def money_options(self) -> list[str]:
        """The money-only options that are on (RULES 7.5)."""
        return [name for name, on in (("jacoby", self.jacoby), ("beavers", self.beavers),
                                      ("automatic_doubles", self.automatic_doubles)) if on]

    def check_match_play(self) -> None:
        """Refuse money-only options in a match (RULES 8.4)."""
        options = self.money_options()
        if options:
            raise RulesError(f"{', '.join(options)} apply only to money play, not to a match (RULES 8.4)")
