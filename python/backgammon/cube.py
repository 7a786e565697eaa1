"""Cube decisions: whether the side on roll should double, and whether the
doubled side should take (RULES 7, 8).

Cubeful equities come from the cubeless chances (``evaluate``) by
Janowski's cube-efficiency model as gnubg applies it
(:mod:`backgammon.janowski`): gnubg's 0-ply cubeful equities.  At ``ply``
1 or 2, as gnubg's, the decision is a search on cubeful values
(:mod:`backgammon.cube_search`: the mean over the rolls of each roll's
best play, valued one ply less deep with the other side's cube options),
not the model applied to searched chances.  Races in the two-sided
bear-off table take its exact cubeful money equities.  Who may double is
:mod:`backgammon.doubling`'s rule.

How deep a decision searches is decided here, once: ``cube_decision``
searches as deep as it is asked, up to :data:`MAX_PLY` (2, gnubg's
deepest cube search; deeper is refused), and reports the depth in
``CubeDecision.ply``; a decision made in play (``cube_action``, what every
``Player.cube_action`` asks) searches at most :data:`PLAY_PLY` (1) deep,
whatever the player's checker search, since one 2-ply cube search costs
as much as tens of 2-ply checker plays.  Callers pass their own depth and
never cap it.

>>> import backgammon as bg
>>> d = cube_decision(bg.Position.initial())
>>> d.action, d.double_pass
('no double', 1.0)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import instance, integer
from .cube_search import searched as _search_decision
from .doubling import beavers_allowed, may_double
from .janowski import (bearoff_exact, cube_efficiency, cube_values, equities, finished_value, owner_of,
                       values_after_play)
from .position import Position
from .rules import Rules
from .scoring import MatchValues

__all__ = ["cube_decision", "cube_action", "cube_decision_from", "MAX_PLY", "PLAY_PLY", "cube_values",
           "values_after_play", "finished_value",
           "CubeDecision", "ACTIONS", "cube_efficiency", "MatchValues", "proper_action"]

#: The deepest cube search of :func:`cube_decision` (gnubg's 2-ply
#: cubeful search: a few tenths of a second a decision).
MAX_PLY = 2
#: The deepest cube search of a decision made in play (:func:`cube_action`:
#: players in games, duels and rollouts decide the cube at every turn).
PLAY_PLY = 1

#: The answers, in gnubg's words.
ACTIONS = ("no double", "double, take", "double, pass", "too good to double", "double, beaver",
           "no double, beaver")


@dataclass(frozen=True)
class CubeDecision:
    """The cube action of the side on roll and the equities behind it.

    Attributes
    ----------
    action : str
        The right action, one of :data:`ACTIONS`.
    no_double, double_take, double_pass : float
        The cubeful equity of each action: per unit of the current cube
        in money play, normalised match equity in a match.
    take : str
        What the doubled side should do: ``"take"``, ``"pass"`` or
        ``"beaver"``.
    can_double : bool
        False where the rules forbid a double (then ``action`` is
        ``"no double"`` and ``reason`` says why).
    reason : str
        Why the side may not double, or ``""``.
    probabilities : tuple of float
        The cubeless chances behind the decision (five, as
        :class:`~backgammon.evaluation.Evaluation` gives them).
    mwc : tuple of float or None
        In a match, the match winning chances of the three actions, in
        the same order.
    exact : bool
        True when the equities are the two-sided bear-off table's exact
        ones rather than the model's.
    should_double : bool
        Whether ``action`` is a double (take, pass or beaver).
    ply : int
        How deep the decision searched (:func:`cube_decision` searches as
        asked; :func:`cube_action` caps play at :data:`PLAY_PLY`).

    Examples
    --------
    >>> import backgammon as bg
    >>> d = bg.cube_decision(bg.Position.initial())
    >>> d.action, d.take, round(d.no_double, 2), d.double_pass
    ('no double', 'take', 0.1, 1.0)
    """

    action: str
    no_double: float
    double_take: float
    double_pass: float
    take: str
    can_double: bool = True
    reason: str = ""
    probabilities: tuple = ()
    mwc: tuple | None = None
    exact: bool = False
    ply: int = 0

    @property
    def should_double(self) -> bool:
        return self.action in ("double, take", "double, pass", "double, beaver")

    @classmethod
    def never(cls) -> "CubeDecision":
        """The decision of a player without cube judgement: never double, always take.

        Examples
        --------
        >>> CubeDecision.never().action, CubeDecision.never().take
        ('no double', 'take')
        """
        return cls("no double", 0.0, 0.0, 1.0, "take", False, "this player makes no cube decisions")


def proper_action(nd: float, dt: float, dp: float, beavers: bool = False) -> tuple[str, str]:
    """The cube action and the answer that three cubeful equities call for.

    Parameters
    ----------
    nd, dt, dp : float
        The doubler's equities of no double, double/take and double/pass.
    beavers : bool, default False
        Whether the doubled side may beaver.

    Returns
    -------
    action : str
        One of :data:`ACTIONS`.
    take : str
        The doubled side's answer: ``"take"``, ``"pass"`` or ``"beaver"``.

    Examples
    --------
    >>> proper_action(1.2, 1.5, 1.0)      # gammonish: play on for more
    ('too good to double', 'pass')
    >>> proper_action(0.4, 0.6, 1.0)
    ('double, take', 'take')
    """
    # Equities equal to within rounding are equal (a certain win cashes).
    nd, dt, dp = (round(v, 9) for v in (nd, dt, dp))
    take = "take" if dt <= dp else "pass"
    if beavers and dt < 0 and take == "take":
        take = "beaver"
    if min(dt, dp) >= nd:                    # a tie (a certain win) cashes
        return ("double, beaver" if take == "beaver" else "double, take" if take == "take" else "double, pass"), take
    if dt > dp and nd > dp:
        return "too good to double", take
    return ("no double, beaver" if take == "beaver" else "no double"), take


def cube_decision(position: Position, state=None, rules: Rules | None = None, ply: int = 0, *,
                  evaluator=None, networks=None, met=None) -> CubeDecision:
    """The cube action for the side on roll of ``position``, before it rolls.

    Cubeful equities come from the network's cubeless chances by
    Janowski's model, as gnubg's 0-ply; at ``ply`` 1 or 2 the decision is
    a search on cubeful values.  Races in the two-sided bear-off table take
    its exact money equities.

    Parameters
    ----------
    position : Position
        The position, the side on roll about to decide.
    state : MatchState, optional
        The cube value and owner (player 0 or 1 as in the Match ID; the
        side on roll is ``state.on_roll``), the score, the match length
        (0: money) and the Crawford flag; default money play with the
        cube centred at 1.
    rules : Rules, optional
        The money options (Jacoby, beavers); default the state's
        (``MatchState.game_rules``): rules that contradict the state are
        refused.
    ply : int, default 0
        The search depth, 0 to :data:`MAX_PLY`, searched as asked
        (``CubeDecision.ply``); for the depth a player uses in play, see
        :func:`cube_action`.
    evaluator : Evaluator, str or callable, optional
        Gives the cubeless chances, as in
        :func:`~backgammon.evaluation.evaluate`; default the shipped
        network.
    networks : optional
        The older name of ``evaluator``.
    met : MatchEquityTable, optional
        The match equity table; default Kazaross-XG2.

    Returns
    -------
    CubeDecision

    Raises
    ------
    ValueError
        The game is over in ``position``, or ``ply`` is not 0-2.
    RulesError
        Money-only options (Jacoby, beavers) in ``rules`` for a match.
    TypeError
        ``position``, ``state`` or ``rules`` of the wrong type.

    See Also
    --------
    cube_decision_from : the same from chances you already have.
    backgammon.rollouts.rollout_cube : the decision rolled out.
    backgammon.hint.hint : checker plays ranked.

    Examples
    --------
    >>> import backgammon as bg
    >>> cube_decision(bg.Position.initial()).action
    'no double'
    >>> state = bg.MatchState(match_length=7, score=(2, 5))
    >>> cube_decision(bg.Position.initial(), state).mwc is not None
    True
    """
    from .evaluation import evaluate
    from .evaluator import as_evaluator
    instance("position", position, Position, "backgammon.Position")
    ply = integer("ply", ply, low=0, high=MAX_PLY)
    state, rules = _checked(position, state, rules)
    evaluator = as_evaluator(evaluator, networks=networks)
    ev = evaluate(position, ply, evaluator=evaluator)
    searched = None
    if ply > 0 and (state.match_length or bearoff_exact(position, owner_of(state)) is None):
        searched = _search_decision(position, state, rules, ply, evaluator, met)
    return _decision(ev.probabilities, position, state, rules, met, searched, ply)


def cube_action(position: Position, state=None, rules: Rules | None = None, ply: int = 0, *,
                evaluator=None, met=None) -> CubeDecision:
    """The cube decision a player makes in play (``Player.cube_action``):
    :func:`cube_decision` searched as deep as the player's checker search
    ``ply``, but at most :data:`PLAY_PLY` (1) deep, the cap on cube
    searches in play (see the module).  Other arguments as in
    :func:`cube_decision`.

    >>> import backgammon as bg
    >>> d = cube_action(bg.Position.initial(), ply=2)
    >>> d.ply, d == cube_decision(bg.Position.initial(), ply=1)
    (1, True)
    """
    ply = integer("ply", ply, low=0)
    return cube_decision(position, state, rules, min(ply, PLAY_PLY), evaluator=evaluator, met=met)


def _checked(position, state, rules):
    from .matchid import state_and_rules
    state, rules = state_and_rules(state, rules)        # one set of rules (MatchState.game_rules)
    if position.is_game_over():
        raise ValueError("position: the game is over, there is no cube decision")
    if state.match_length:
        rules.check_match_play()
    return state, rules


def cube_decision_from(chances, position: Position, state=None, rules: Rules | None = None, *,
                       met=None) -> CubeDecision:
    """The cube decision of :func:`cube_decision` from given cubeless chances.

    Analysis and rollouts grade many positions from chances they already
    have, searched however they like.

    Parameters
    ----------
    chances : sequence of float
        Five cubeless chances of the side on roll, as
        :class:`~backgammon.evaluation.Evaluation` gives them.
    position, state, rules, met
        As in :func:`cube_decision`.

    Returns
    -------
    CubeDecision

    Raises
    ------
    ValueError
        ``chances`` not five numbers, or as :func:`cube_decision`.

    Examples
    --------
    >>> import backgammon as bg
    >>> cube_decision_from((0.95, 0.0, 0.0, 0.0, 0.0), bg.Position.initial()).action
    'double, pass'
    """
    instance("position", position, Position, "backgammon.Position")
    state, rules = _checked(position, state, rules)
    return _decision(chances, position, state, rules, met, None, 0)


def _decision(chances, position, state, rules, met, searched, ply: int) -> CubeDecision:
    probs = tuple(float(v) for v in chances)
    if len(probs) != 5:
        raise ValueError(f"chances must be five numbers, not {len(probs)}")
    owner = owner_of(state)
    exact = bearoff_exact(position, owner) if state.match_length == 0 else None
    if exact is not None:
        nd, dt, dp, mwc = exact[0], exact[1], 1.0, None
    elif searched is not None and searched[1] is not None:
        nd, dt, dp, mwc = searched
    else:
        eq = equities(np.array([probs]), np.array([cube_efficiency(position)]), state, rules, met)
        nd, dt, dp = (float(v[0]) for v in eq[:3])
        mwc = None if eq[3] is None else tuple(float(v[0]) for v in eq[3])
        if searched is not None:
            # A double the Crawford game forbids has no doubled state to
            # search: the search's no double, the model's double/take.
            nd, _, dp, s_mwc = searched
            if s_mwc is not None:
                assert mwc is not None
                mwc = (s_mwc[0], mwc[1], s_mwc[2])
    reason = may_double(state, rules).reason
    beavers = beavers_allowed(state.match_length == 0, rules)
    if reason:
        return CubeDecision("no double", nd, dt, dp, proper_action(nd, dt, dp, beavers)[1], False, reason,
                            probs, mwc, exact is not None, ply)
    action, take = proper_action(nd, dt, dp, beavers)
    return CubeDecision(action, nd, dt, dp, take, True, "", probs, mwc, exact is not None, ply)
