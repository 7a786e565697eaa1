"""Hints: every play of a roll ranked best first, or the cube action.

>>> import backgammon as bg
>>> best = hint(bg.Position.initial(), "31")[0]
>>> str(best.play), best.difference
('8/5 6/5', 0.0)
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validate import instance, integer
from .dice import to_dice
from .evaluation import Evaluation, equity
from .play import Play
from .position import Position

__all__ = ["hint", "RankedPlay"]


class RankedPlay(NamedTuple):
    """A play with the mover's chances after it, its cubeless equity, how
    much it loses to the best play (0 for the best, negative otherwise) and
    the depth it was searched to."""

    play: Play
    evaluation: Evaluation
    equity: float
    difference: float
    ply: int


def hint(position: Position, roll=None, ply: int = 0, *, state=None, rules=None, evaluator=None, networks=None):
    """With ``roll``: all plays ranked best first (:class:`RankedPlay`),
    searched ``ply`` deep with gnubg's move filters (the best plays of each
    depth go one deeper, so deeper plays rank first).  Without: the cube
    decision of the side on roll (``cube.cube_decision``; ``state`` and
    ``rules`` as there).  ``evaluator``: as in ``evaluate`` (``networks``
    is its older name)."""
    from .evaluator import as_evaluator, rank
    instance("position", position, Position, "backgammon.Position")
    ply = integer("ply", ply, low=0, high=2)
    ev = as_evaluator(evaluator, networks=networks)
    if roll is None:
        from .cube import cube_decision
        return cube_decision(position, state, rules, ply=ply, evaluator=ev)
    dice = to_dice(roll)
    plays = position.legal_plays(dice)
    if not len(plays):
        raise ValueError("position: the game is over, there is no play to hint")
    probs, depth = rank(ev, np.ascontiguousarray(plays.positions), ply)
    eq = equity(probs)
    order = sorted(range(len(plays)), key=lambda i: (-int(depth[i]), -eq[i], i))
    best = eq[order[0]]
    return [RankedPlay(plays[i], Evaluation._make((*map(float, probs[i]), float(eq[i]))), float(eq[i]),
                       float(eq[i] - best), int(depth[i])) for i in order]
