"""Cube decisions: whether the side on roll should double, and whether the
doubled side should take (RULES 7, 8).

Cubeful equities come from the cubeless chances (``evaluate``) by
Janowski's cube-efficiency model: the equity with a live cube (each side
cashing at its cash point) and with a dead cube (the cubeless equity),
mixed by the cube efficiency ``x`` (gnubg's values: 0.68 in contact; in a
race 0.55 + 0.00125 per pip of the side on roll, within 0.6 and 0.7).
Money play counts Jacoby and beavers (RULES 7.5); match play converts every
outcome to match winning chances through the match equity table, with the
Crawford game and the dead cube (RULES 8.2, 8.3).  Races in the two-sided
bear-off table take its exact cubeful money equities.

>>> import backgammon as bg
>>> d = cube_decision(bg.Position.initial())
>>> d.action, d.double_pass
('no double', 1.0)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import instance, integer
from .errors import RulesError
from .position import Position
from .rules import Rules

__all__ = ["cube_decision", "CubeDecision", "ACTIONS", "cube_efficiency", "MatchValues", "proper_action"]

#: The answers, in gnubg's words.
ACTIONS = ("no double", "double, take", "double, pass", "too good to double", "double, beaver",
           "no double, beaver")


@dataclass(frozen=True)
class CubeDecision:
    """The cube action of the side on roll and the three cubeful equities
    behind it, per unit of the current cube in money play (``no_double``,
    ``double_take``, ``double_pass``), or normalised match equities in match
    play with the match winning chances in ``mwc`` (same order).
    ``can_double`` is False (with ``reason``) where the rules forbid a
    double; ``take`` says what the doubled side should do (``"take"``,
    ``"pass"`` or ``"beaver"``).

    >>> import backgammon as bg
    >>> d = bg.cube_decision(bg.Position.initial())
    >>> d.action, d.take, round(d.no_double, 2), d.double_pass
    ('no double', 'take', 0.12, 1.0)
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

    @property
    def should_double(self) -> bool:
        return self.action in ("double, take", "double, pass", "double, beaver")

    @classmethod
    def never(cls) -> "CubeDecision":
        """The decision of a player without cube judgement: never double, always take."""
        return cls("no double", 0.0, 0.0, 1.0, "take", False, "this player makes no cube decisions")


def cube_efficiency(position: Position) -> float:
    """gnubg's cube efficiency for the position: 0.68 with contact, 0.6 in a
    bear-off, else 0.55 + 0.00125 x the pips of the side on roll in [0.6, 0.7]."""
    if not position.is_race():
        return 0.68
    a = position.array
    if not a[:, 6:].any():
        return 0.6
    pips = int(position.pip_counts()[1])
    return min(0.7, max(0.6, 0.55 + 0.00125 * pips))


def _split(p) -> tuple[float, float, float, float]:
    """W and L (average value of a win and of a loss, gammons counted) and
    the chance to win, from the five chances."""
    w, wg, wb, lg, lb = (float(v) for v in p)
    win_value = (w + wg + wb) / w if w > 1e-9 else 1.0
    loss_value = ((1 - w) + lg + lb) / (1 - w) if w < 1 - 1e-9 else 1.0
    return w, win_value, loss_value, w * win_value - (1 - w) * loss_value


def _money(p, x: float, owner: str, jacoby_live: bool) -> tuple[float, float]:
    """Janowski's cubeful money equities of the side on roll, per unit of the
    current cube: (no double, double/take)."""
    w, W, L, dead = _split(p)
    if jacoby_live:
        # Jacoby: gammons count only once the cube is turned.
        nd_w, nd_l, nd_dead = 1.0, 1.0, 2 * w - 1
    else:
        nd_w, nd_l, nd_dead = W, L, dead

    def points(win_value, loss_value):
        take = (loss_value - 0.5) / (win_value + loss_value + 0.5)     # my take point
        cash = (loss_value + 1.0) / (win_value + loss_value + 0.5)     # my cash point
        return take, cash

    tp, cp = points(nd_w, nd_l)
    if owner == "me":
        live = -nd_l + (nd_l + 1.0) * w / cp if w < cp else 1.0
    elif owner == "opponent":
        live = -1.0 if w <= tp else -1.0 + (nd_w + 1.0) * (w - tp) / (1.0 - tp)
    else:                                              # centred
        live = -1.0 if w <= tp else 1.0 if w >= cp else -1.0 + 2.0 * (w - tp) / (cp - tp)
    no_double = x * live + (1 - x) * nd_dead
    # After a take the opponent owns the cube at twice the value; gammons count.
    tp2, _ = points(W, L)
    live_dt = -1.0 if w <= tp2 else -1.0 + (W + 1.0) * (w - tp2) / (1.0 - tp2)
    double_take = 2.0 * (x * live_dt + (1 - x) * dead)
    return no_double, double_take


class MatchValues:
    """Match winning chances of the side on roll after a game at a score."""

    def __init__(self, met, length: int, me: int, opp: int):
        self.met, self.n = met, length
        self.a, self.b = length - me, length - opp        # points away
        self.crawford_next = self.a > 1 and self.b > 1

    def after(self, mine: int, theirs: int) -> float:
        """MWC once I have won ``mine`` more points or the opponent ``theirs``."""
        x, y = self.a - mine, self.b - theirs
        if x <= 0:
            return 1.0
        if y <= 0:
            return 0.0
        return self.met.mwc(x, y, crawford=self.crawford_next and (x == 1) != (y == 1))

    def outcomes(self, p, cube: int) -> tuple[float, float]:
        """Average MWC given a win and given a loss at ``cube``."""
        w, wg, wb, lg, lb = (float(v) for v in p)
        if w > 1e-9:
            win = ((w - wg) * self.after(cube, 0) + (wg - wb) * self.after(2 * cube, 0)
                   + wb * self.after(3 * cube, 0)) / w
        else:
            win = self.after(cube, 0)
        if w < 1 - 1e-9:
            loss = ((1 - w - lg) * self.after(0, cube) + (lg - lb) * self.after(0, 2 * cube)
                    + lb * self.after(0, 3 * cube)) / (1 - w)
        else:
            loss = self.after(0, cube)
        return win, loss


def _match(p, x: float, values: MatchValues, cube: int, owner: str, opponent_can_redouble: bool):
    """Cubeful match winning chances of the side on roll: (no double,
    double/take, double/pass), Janowski's model on MWC with one level of
    redoubles (beyond it the cube counts as dead)."""
    w = float(p[0])

    def line(at_p, p0, m0, p1, m1):
        if at_p <= p0:
            return m0
        if at_p >= p1:
            return m1
        return m0 + (m1 - m0) * (at_p - p0) / (p1 - p0)

    def cash_point(c):
        # Where the opponent is indifferent to taking my double from c to 2c.
        win2, loss2 = values.outcomes(p, 2 * c)
        passed = values.after(c, 0)
        return (passed - loss2) / (win2 - loss2) if win2 > loss2 else 1.0, passed

    def take_point(c):
        # Where I am indifferent to taking the opponent's double from c to 2c.
        win2, loss2 = values.outcomes(p, 2 * c)
        passed = values.after(0, c)
        return (passed - loss2) / (win2 - loss2) if win2 > loss2 else 0.0, passed

    win, loss = values.outcomes(p, cube)
    dead = w * win + (1 - w) * loss
    cp, cash = cash_point(cube)
    tp, drop = take_point(cube)
    if owner == "me":
        live = line(w, 0.0, loss, cp, cash)
    elif owner == "opponent":
        live = line(w, tp, drop, 1.0, win)
    else:
        live = line(w, tp, drop, cp, cash)
    no_double = x * live + (1 - x) * dead
    win2, loss2 = values.outcomes(p, 2 * cube)
    dead2 = w * win2 + (1 - w) * loss2
    if opponent_can_redouble:
        tp2, drop2 = take_point(2 * cube)
        live2 = line(w, tp2, drop2, 1.0, win2)
        double_take = x * live2 + (1 - x) * dead2
    else:
        double_take = dead2
    return no_double, double_take, values.after(cube, 0)


def proper_action(nd: float, dt: float, dp: float, beavers: bool = False) -> tuple[str, str]:
    """The cube action (one of ``ACTIONS``) and the answer (take, pass or
    beaver) that the equities of no double, double/take and double/pass
    call for (the doubler's side; beavers allowed or not).

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

    ``state`` (a ``MatchState``) gives the cube value and owner (player 0 or
    1 as in the Match ID; the side on roll is ``state.on_roll``), the score,
    the match length (0: money) and the Crawford flag; default: money play
    with the cube centred at 1.  ``rules`` gives the money options (Jacoby,
    beavers).  ``ply`` is the search depth of the cubeless chances, by
    ``evaluator`` (as in ``evaluate``; ``networks`` is its older name);
    ``met`` a ``MatchEquityTable`` (default Kazaross-XG2).

    >>> import backgammon as bg
    >>> cube_decision(bg.Position.initial()).action
    'no double'
    >>> state = bg.MatchState(match_length=7, score=(2, 5))
    >>> cube_decision(bg.Position.initial(), state).mwc is not None
    True
    """
    from .evaluation import evaluate
    from .matchid import MatchState
    instance("position", position, Position, "backgammon.Position")
    state = MatchState() if state is None else instance("state", state, MatchState, "backgammon.MatchState")
    rules = Rules() if rules is None else instance("rules", rules, Rules, "backgammon.Rules")
    ply = integer("ply", ply, low=0, high=2)
    if position.is_game_over():
        raise ValueError("position: the game is over, there is no cube decision")
    me = state.on_roll
    cube = state.cube_value
    owner = "centred" if state.cube_owner is None else "me" if state.cube_owner == me else "opponent"
    money = state.match_length == 0
    reason = ""
    if owner == "opponent":
        reason = "the opponent owns the cube (RULES 7.1)"
    elif state.crawford and not money:
        reason = "no doubling in the Crawford game (RULES 8.2)"
    elif not money and state.score[me] + cube >= state.match_length:
        reason = "dead cube: winning this game at the current cube already wins the match (RULES 8.3)"
    elif money and cube * 2 > rules.cube_limit:
        reason = f"the cube is at its limit of {rules.cube_limit} (RULES 7.4)"
    if not money and rules.money_options():
        raise RulesError(f"{', '.join(rules.money_options())} apply only to money play, not to a match (RULES 8.4)")
    from .evaluator import as_evaluator
    ev = evaluate(position, ply, evaluator=as_evaluator(evaluator, networks=networks))
    probs = ev.probabilities
    x = cube_efficiency(position)
    if money:
        exact = _bearoff_exact(position, owner)
        if exact is not None:
            nd, dt = exact
        else:
            nd, dt = _money(probs, x, owner,
                            rules.jacoby and cube == 1 and state.cube_owner is None)
        dp = 1.0
        mwc = None
    else:
        from .met import MatchEquityTable
        table = met if met is not None else MatchEquityTable.kazaross_xg2()
        values = MatchValues(table, state.match_length, state.score[me], state.score[1 - me])
        opp_away = state.match_length - state.score[1 - me]
        opponent_can_redouble = opp_away > 2 * cube
        m_nd, m_dt, m_dp = _match(probs, x, values, cube, owner,
                                  opponent_can_redouble)
        mwc = (m_nd, m_dt, m_dp)
        # gnubg's normalised equity: -1 = losing a single game at this cube, +1 = winning one.
        lo, hi = values.after(0, cube), values.after(cube, 0)
        scale = (hi - lo) if hi > lo else 1.0
        nd, dt, dp = (2 * (m - lo) / scale - 1 for m in mwc)
        exact = None
    beavers = money and rules.beavers > 0
    if reason:
        return CubeDecision("no double", nd, dt, dp, proper_action(nd, dt, dp, beavers)[1], False, reason,
                            probs, mwc, exact is not None)
    action, take = proper_action(nd, dt, dp, beavers)
    return CubeDecision(action, nd, dt, dp, take, True, "", probs, mwc, exact is not None)


def _bearoff_exact(position: Position, owner: str):
    """(no double, double/take) from the two-sided table's cubeful money
    equities when both sides fit in it, else None."""
    from . import bearoff
    a = position.array
    if a[:, 6:].any():
        return None
    ts = bearoff.two_sided()
    if a[0].sum() > ts.checkers or a[1].sum() > ts.checkers:
        return None
    e = ts.equities(position)
    nd = {"me": e.owned, "opponent": e.opponent_owns}.get(owner, e.centred)
    return nd, 2.0 * e.opponent_owns
