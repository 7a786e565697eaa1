"""Resignations (RULES 6.5): when to accept one, and when to offer one.

One rule, used by every player (and so by the web game, the UBGI engine,
duels and rollouts): a resignation of ``level`` (1 single, 2 gammon, 3
backgammon, times the cube) is accepted when it gives the side that
decides at least what playing on is worth to it, judged by an
evaluator's cubeless chances (the shipped networks by default): in money
play the resigner's cubeless equity per cube (gammons counting single
under the Jacoby rule while the cube is centred, RULES 7.5), in a match
the resigner's match winning chances through the match equity table
(RULES 8).  A side offers to resign when that holds and costs it nothing
more than playing on would (within ``TOLERANCE``), in a race, where the
evaluation is exact or nearly.

The position is always the resigner's: it resigns on its own turn, so it
is on roll (row 1).

>>> import backgammon as bg
>>> # a single game offered at the start: take it
>>> accepts(bg.Position.initial(), 1)
True
>>> accepts(bg.Position.initial(), 1, bg.MatchState(match_length=1))
True
>>> offer(bg.Position.initial())          # no one resigns the opening
0
"""
from __future__ import annotations

import numpy as np

from ._validate import instance, integer
from .position import Position
from .scoring import MatchValues, money_value, state_gammons_count, resignation_multiplier, resignation_points

__all__ = ["accepts", "offer", "value_of_playing_on", "TOLERANCE", "LEVELS"]

#: How much worse than playing on a resignation may be for the resigner
#: (equity per cube in money play, match winning chances in a match).
TOLERANCE = 1e-3
#: The levels of a resignation and their names (RULES 6.5).
LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def _checked(position, level, state, rules):
    from .matchid import state_and_rules
    instance("position", position, Position, "backgammon.Position")
    if level is not None:
        level = integer("level", level, low=1, high=3)
    state, rules = state_and_rules(state, rules)
    if position.is_game_over():
        raise ValueError("position: the game is over, there is nothing to resign")
    return level, state, rules


def value_of_playing_on(position: Position, state=None, rules=None, *, evaluator=None, ply: int = 0) -> float:
    """What playing on is worth to the resigner, on roll in ``position``.

    Parameters
    ----------
    position : Position
        The position, the resigner on roll.
    state : MatchState, optional
        The score, the length and the cube; default money play.
    rules : Rules, optional
        The money options.
    evaluator : Evaluator, optional
        As in :func:`~backgammon.evaluation.evaluate`.
    ply : int, default 0
        The search depth.

    Returns
    -------
    float
        The resigner's cubeless equity per cube in money play, its match
        winning chance in a match.

    Raises
    ------
    ValueError
        The game is over in ``position``.

    Examples
    --------
    >>> import backgammon as bg
    >>> round(value_of_playing_on(bg.Position.initial()), 2)
    0.08
    """
    _, state, rules = _checked(position, None, state, rules)
    from .evaluation import evaluate
    p = np.asarray(evaluate(position, ply, evaluator=evaluator).probabilities)
    if state.match_length == 0:
        # RULES 7.5: under Jacoby gammons count single while the cube is centred.
        return float(money_value(p, state_gammons_count(state, rules)))
    win, loss = MatchValues.of_state(state).outcomes(p, state.cube_value)
    return float(p[0] * win + (1 - p[0]) * loss)


def _value_of_resigning(level: int, state, rules) -> float:
    """What resigning ``level`` leaves the resigner, in the units of
    ``value_of_playing_on`` (RULES 6.5: the level offered, Jacoby or not)."""
    if state.match_length == 0:
        return -float(resignation_multiplier(level, rules))
    return MatchValues.of_state(state).after(0, resignation_points(level, state.cube_value, rules))


def accepts(position: Position, level: int, state=None, rules=None, *, evaluator=None, ply: int = 0) -> bool:
    """Whether a resignation should be accepted.

    The side that decides accepts when the resignation gives it at least
    what playing on is worth to it.

    Parameters
    ----------
    position : Position
        The position, the resigning side on roll.
    level : int
        1 a single game, 2 a gammon, 3 a backgammon.
    state, rules, evaluator, ply
        As in :func:`value_of_playing_on`.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        ``level`` not 1-3, or the game is over in ``position``.

    Examples
    --------
    >>> import backgammon as bg
    >>> accepts(bg.Position.initial(), 2), accepts(bg.Position.initial(), 1)
    (True, True)
    """
    level, state, rules = _checked(position, level, state, rules)
    on = value_of_playing_on(position, state, rules, evaluator=evaluator, ply=ply)
    return _value_of_resigning(level, state, rules) <= on + 1e-12


def offer(position: Position, state=None, rules=None, *, evaluator=None, ply: int = 0) -> int:
    """The resignation the side on roll should offer before it rolls.

    Parameters
    ----------
    position, state, rules, evaluator, ply
        As in :func:`value_of_playing_on`.

    Returns
    -------
    int
        The lowest level that the other side accepts and that costs the
        resigner no more than :data:`TOLERANCE` against playing on, in a
        race; 0 for none.

    Examples
    --------
    >>> import backgammon as bg
    >>> offer(bg.Position.initial())
    0
    """
    _, state, rules = _checked(position, None, state, rules)
    if not position.is_race():
        return 0
    on = value_of_playing_on(position, state, rules, evaluator=evaluator, ply=ply)
    for level in (1, 2, 3):
        give = _value_of_resigning(level, state, rules)
        if give <= on + 1e-12 and give >= on - TOLERANCE:
            return level
    return 0
