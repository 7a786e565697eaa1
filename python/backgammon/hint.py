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
from .cube_search import play_order, rank_plays
from .dice import to_dice
from .evaluation import Evaluation, equity
from .matchid import state_and_rules
from .play import Play
from .position import Position

__all__ = ["hint", "RankedPlay"]


class RankedPlay(NamedTuple):
    """One play of :func:`hint`'s ranking.

    Attributes
    ----------
    play : Play
        The play.
    evaluation : Evaluation
        The mover's chances after it (a rollout's chances when ranked
        by rollout).
    equity : float
        The mover's cubeless money equity after it when the hint had no
        state; at a cube and score (``cubeful``) the cubeful value after
        the play, the opponent holding its cube options: normalised match
        equity in a match, equity per unit of the cube in money play.
    difference : float
        How much it loses to the best play: 0 for the best, negative
        otherwise.
    ply : int
        The depth it was searched to; -1 when ranked by rollout.
    mwc : float or None
        The match winning chance after the play, in a match.
    cubeful : bool
        Whether ``equity`` is cubeful (the hint had a state).

    Examples
    --------
    >>> import backgammon as bg
    >>> best = bg.hint(bg.Position.initial(), "31")[0]
    >>> str(best.play), best.difference, best.ply, round(best.equity, 2)
    ('8/5 6/5', 0.0, 0, 0.17)
    """

    play: Play
    evaluation: Evaluation
    equity: float
    difference: float
    ply: int
    mwc: float | None = None
    cubeful: bool = False


def hint(position: Position, roll=None, ply: int = 0, *, state=None, rules=None, evaluator=None, networks=None,
         rollout=None, top: int = 5, met=None):
    """The plays of a roll ranked best first, or the cube decision.

    With a roll, every legal play is searched ``ply`` deep with gnubg's
    move filters (the best plays of each depth go one deeper, so the
    deeper-searched plays rank first).  Without one, the cube decision of
    the side on roll.

    With a ``state`` (a ``MatchState``, the mover on roll) plays are ranked
    as gnubg ranks them at that cube and score: by the cubeful value after
    each (``cube_search.rank_plays``), in a match the match equity, so at
    double match point gammons count nothing.  Without one, by cubeless
    money equity.  The rules are the state's (``MatchState.game_rules``:
    a ``rules`` that contradicts the state is refused).

    Parameters
    ----------
    position : Position
        The position, the side on roll to play.
    roll : Roll, tuple or str, optional
        The dice; None asks for the cube decision.
    ply : int, default 0
        The search depth, 0 to 2.
    state : MatchState, optional
        The cube, the score and the game's rules: plays are then ranked
        by cubeful (match) equity, and the cube decision and a rollout
        are cubeful; default cubeless money.
    rules : Rules, optional
        The money options, as in :func:`~backgammon.cube.cube_decision`
        (they must agree with the state's).
    evaluator : Evaluator, str or callable, optional
        As in :func:`~backgammon.evaluation.evaluate`; ``networks`` is its
        older name.
    rollout : RolloutSettings, optional
        Roll out the ``top`` plays of the ranking on the same dice and
        rank them by the rollout (their ``ply`` is -1); without a roll,
        the cube decision by :func:`~backgammon.rollouts.rollout_cube`.
    top : int, default 5
        How many plays a rollout takes.
    met : MatchEquityTable, optional
        The match equity table; default Kazaross-XG2.

    Returns
    -------
    list of RankedPlay or CubeDecision or CubeRollout
        The plays best first, with a roll; else the cube decision
        (a :class:`~backgammon.rollouts.CubeRollout` with ``rollout``).

    Raises
    ------
    ValueError
        ``ply`` not 0-2, the game is over in ``position``, or a roll is
        given with a ``state`` where a double or a resignation waits for
        an answer.
    InvalidRollError
        ``roll`` is not two dice.

    See Also
    --------
    backgammon.evaluation.evaluate : the chances of positions.
    backgammon.cube.cube_decision : the cube decision alone.
    backgammon.rollouts.rollout_plays : plays rolled out.

    Examples
    --------
    >>> import backgammon as bg
    >>> ranked = bg.hint(bg.Position.initial(), "62")
    >>> [(str(r.play), round(r.difference, 3)) for r in ranked[:2]]
    [('24/18 13/11', 0.0), ('24/16', -0.011)]
    >>> bg.hint(bg.Position.initial()).action            # no roll: the cube
    'no double'

    At double match point gammons count nothing:

    >>> dmp = bg.MatchState(match_length=7, score=(6, 6))
    >>> best = hint(bg.Position.initial(), "31", state=dmp)[0]
    >>> str(best.play), best.cubeful, 0.4 < best.mwc < 0.6
    ('8/5 6/5', True, True)

    Ranked by rollout:

    >>> import backgammon as bg
    >>> from backgammon.rollouts import RolloutSettings
    >>> settings = RolloutSettings(games=36, seed=1, workers=1)
    >>> ranked = hint(bg.Position.initial(), "31", rollout=settings, top=2)
    >>> str(ranked[0].play), ranked[0].ply
    ('8/5 6/5', -1)
    """
    from .evaluator import as_evaluator, rank, ranking
    instance("position", position, Position, "backgammon.Position")
    ply = integer("ply", ply, low=0, high=2)
    ev = as_evaluator(evaluator, networks=networks)
    if state is not None:
        state, rules = state_and_rules(state, rules)
    if rollout is not None:
        return _by_rollout(position, roll, ply, state, rules, rollout, top, ev, met)
    if roll is None:
        from .cube import cube_decision
        return cube_decision(position, state, rules, ply=ply, evaluator=ev, met=met)
    dice = to_dice(roll)
    if state is not None and (state.double_offered or state.resignation):
        # The side to act answers a double or a resignation (RULES 6.5, 7.3): no play is due.
        pending = "a double" if state.double_offered else "a resignation"
        raise ValueError(f"state: {pending} waits for an answer; there is no play to rank before it "
                         f"(ask without a roll for the cube decision)")
    plays = position.legal_plays(dice)
    if not len(plays):
        raise ValueError("position: the game is over, there is no play to hint")
    children = np.ascontiguousarray(plays.positions)
    mwc = None
    if state is None:
        probs, depth = rank(ev, children, ply)
        values = equity(probs)
    else:
        probs, depth, values, mwc = rank_plays(ev, children, ply, state, rules, met)
    eq = equity(probs)
    order = play_order(depth, values, probs).tolist() if state is not None else ranking(probs, depth)
    best = values[order[0]]
    return [RankedPlay(plays[i], Evaluation._make((*map(float, probs[i]), float(eq[i]))), float(values[i]),
                       float(values[i] - best), int(depth[i]), None if mwc is None else float(mwc[i]),
                       state is not None) for i in order]


def _by_rollout(position, roll, ply, state, rules, settings, top, ev, met):
    from .rollouts import RolloutSettings, rollout_cube, rollout_plays
    instance("rollout", settings, RolloutSettings, "backgammon.rollouts.RolloutSettings")
    options = settings.options()
    if roll is None:
        return rollout_cube(position, state, rules=rules, **options)
    top = integer("top", top, low=1)
    candidates = [r.play for r in hint(position, roll, ply, state=state, rules=rules, evaluator=ev, met=met)[:top]]
    ranked = rollout_plays(position, roll, candidates, state=state, rules=rules, **options)
    best = ranked[0].equity
    out = []
    for r in ranked:
        res = r.result
        chances = (res.win, res.win_gammon, res.win_backgammon, res.lose_gammon, res.lose_backgammon)
        out.append(RankedPlay(r.play, Evaluation._make((*chances, res.equity)), r.equity, r.equity - best, -1,
                              r.mwc, res.cubeful))
    return out
