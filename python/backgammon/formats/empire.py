"""GammonEmpire game logs (gnubg's ``import empire``): Jellyfish ``.gam``
games, which gnubg reads with its ``.gam`` import; so are they read here
(:func:`~backgammon.formats.gam.read_gam`), with their own error class.
Content detection names such files ``gam`` (the two cannot be told apart).

>>> rec = read_empire("ann    bob\\n  1) 31: 8/5 6/5\\n      Wins 1 point\\n")
>>> rec.players, rec.games[0].winner
(('ann', 'bob'), 0)
"""
from __future__ import annotations

from ..rules import Rules
from . import Format
from .gam import GamFileError, read_gam
from .record import MatchRecord

__all__ = ["EmpireFileError", "read_empire"]


class EmpireFileError(GamFileError):
    """A GammonEmpire game log that is malformed or against the rules."""


def read_empire(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """Read a GammonEmpire game log (a path, an open file, its text or
    bytes): as :func:`~backgammon.formats.gam.read_gam`."""
    return read_gam(source, rules, partial=partial, strict=strict, error_cls=EmpireFileError)


FORMAT = Format("empire", (".gam",), "match", read_empire, None, EmpireFileError)
