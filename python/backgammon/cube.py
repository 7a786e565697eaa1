"""Cube decisions: whether the side on roll should double, and whether the
doubled side should take (RULES 7, 8).

Cubeful equities come from the cubeless chances (``evaluate``) by
Janowski's cube-efficiency model as gnubg applies it: the live-cube value
a broken line from losing (gammons counted) through the opponent's cash,
my cash, to winning (gammons counted), mixed with the dead cube's (the
cubeless value) by the cube efficiency ``x`` (gnubg's values: 0.68 in
contact; in a race 0.55 + 0.00125 per pip of the side on roll, within 0.6
and 0.7).  Money play counts Jacoby and beavers (RULES 7.5); match play
converts every outcome to match winning chances through the match equity
table, with gnubg's live cash points through the cube levels the score
leaves, the Crawford game and the dead cube (RULES 8.2, 8.3).  From the
same chances the equities are gnubg's 0-ply cubeful ones.  At ``ply`` 1
or 2, as gnubg's, the decision is a search on cubeful values (the mean over
the rolls of each roll's best play, valued one ply less deep with the other
side's cube options), not the model applied to searched chances.  Races in
the two-sided bear-off table take its exact cubeful money equities.

>>> import backgammon as bg
>>> d = cube_decision(bg.Position.initial())
>>> d.action, d.double_pass
('no double', 1.0)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _board
from ._validate import instance, integer
from .position import Position
from .doubling import beavers_allowed, may_double
from .rules import Rules
from .scoring import MatchValues, cube_turned, default_met, game_points, state_gammons_count

__all__ = ["cube_decision", "cube_decision_from", "cube_values", "values_after_play", "finished_value", "CubeDecision", "ACTIONS", "cube_efficiency", "MatchValues", "proper_action"]

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
    return float(_efficiencies(position.array[None])[0])


# The model works on arrays: p (n, 5) chances of the side on roll and x
# (n,) cube efficiencies; one decision is a batch of one.

def _split(p: np.ndarray):
    """W and L (average value of a win and of a loss, gammons counted), the
    chance to win and the cubeless equity, from the five chances (n, 5)."""
    w, wg, wb, lg, lb = p.T
    with np.errstate(divide="ignore", invalid="ignore"):
        win_value = np.where(w > 1e-9, (w + wg + wb) / w, 1.0)
        loss_value = np.where(w < 1 - 1e-9, ((1 - w) + lg + lb) / (1 - w), 1.0)
    return w, win_value, loss_value, w * win_value - (1 - w) * loss_value


def _segments(w, knots):
    """The piecewise-linear function through ``knots`` [(p, value)...] (p
    increasing, the first at 0 and the last at 1) at ``w``."""
    out = np.asarray(knots[-1][1], dtype=np.float64) * np.ones_like(w)
    for (p0, v0), (p1, v1) in reversed(list(zip(knots[:-1], knots[1:]))):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(p1 > p0, (w - p0) / (p1 - p0), 1.0)
        out = np.where(w <= p1, v0 + (v1 - v0) * t, out)
    return out


def _live(w, lose, win, opp_cash, cash, tg, opp_tg, owner: str):
    """Janowski's live-cube value, as gnubg draws it: straight lines from
    losing (gammons counted) at p = 0 through the opponent's cash at its
    too-good point, my cash at mine, to winning (gammons counted) at p = 1;
    the points a side cannot use (it does not hold the cube) left out."""
    zero, one = np.zeros_like(w), np.ones_like(w)
    if owner == "me":
        return _segments(w, [(zero, lose), (tg, cash), (one, win)])
    if owner == "opponent":
        return _segments(w, [(zero, lose), (opp_tg, opp_cash), (one, win)])
    return _segments(w, [(zero, lose), (opp_tg, opp_cash), (np.maximum(tg, opp_tg), cash), (one, win)])


def _money(p: np.ndarray, x: np.ndarray, owner: str, jacoby_live: bool):
    """Janowski's cubeful money equities of the side on roll, per unit of the
    current cube: (no double, double/take), arrays (n,).  With Jacoby (a
    centred cube at 1) gammons count for neither the dead cube nor the
    ends of the live one."""
    w, W, L, dead = _split(p)
    tp = (L - 0.5) / (W + L + 0.5)          # my take point: the opponent's cash point
    cp = (L + 1.0) / (W + L + 0.5)          # my cash point
    one = np.ones_like(w)
    if jacoby_live:
        live, nd_dead = _live(w, -one, one, -one, one, cp, tp, owner), 2 * w - 1
    else:
        live, nd_dead = _live(w, -L, W, -one, one, cp, tp, owner), dead
    # gnubg's "basically dead" ends: a certain result leaves nothing to the cube.
    sure = (w <= 1e-7) | (w >= 1 - 1e-7)
    no_double = np.where(sure, nd_dead, x * live + (1 - x) * nd_dead)
    # After a take the opponent holds the cube at twice the value; gammons count.
    live_dt = _live(w, -L, W, -one, one, cp, tp, "opponent")
    double_take = 2.0 * np.where(sure, dead, x * live_dt + (1 - x) * dead)
    return no_double, double_take


def _cube_alive(values: MatchValues, cube: int, crawford: bool) -> bool:
    """Whether the cube at ``cube`` is alive (gnubg's rule): not in the
    Crawford game, not when winning ``cube`` wins the match for both sides,
    and not at 2-away, 2-away."""
    return not (crawford or (values.a <= cube and values.b <= cube) or (values.a == 2 and values.b == 2))


def _cash_points(values: MatchValues, p: np.ndarray, cube: int):
    """The live-cube cash points of both sides at ``cube`` (each as its own
    chance of winning), as gnubg computes them: from the highest cube level
    both sides can still use (where the cube, once turned, is dead and the
    opponent redoubles at once if that costs it nothing) down to this one,
    each level's point from the other side's at the next."""
    w, wg, wb, lg, lb = p.T
    with np.errstate(divide="ignore", invalid="ignore"):
        g = [np.where(w > 0, (wg - wb) / w, 0.0), np.where(w < 1, (lg - lb) / (1 - w), 0.0)]
        bg = [np.where(w > 0, wb / w, 0.0), np.where(w < 1, lb / (1 - w), 0.0)]
    away = (values.a, values.b)

    def mwc(k, won, lost):
        # MWC for side k (0 me, 1 the opponent) after it wins ``won`` or loses ``lost``.
        return values.after(won, lost) if k == 0 else 1.0 - values.after(lost, won)

    def mixed(k, ratios_of, c, winning):
        r_g, r_bg = g[ratios_of], bg[ratios_of]
        vals = [mwc(k, m * c, 0) if winning else mwc(k, 0, m * c) for m in (1, 2, 3)]
        return (1 - r_g - r_bg) * vals[0] + r_g * vals[1] + r_bg * vals[2]

    levels = [cube]
    while away[0] - 1 >= 2 * levels[-1] and away[1] - 1 >= 2 * levels[-1]:
        levels.append(2 * levels[-1])
    above = [None, None]
    for c in reversed(levels):
        point = [None, None]
        for k in (0, 1):
            dp = mwc(k, c, 0)
            if away[0] - 1 < 2 * c or away[1] - 1 < 2 * c:
                # The doubled cube is dead; the taker redoubles at once when that is free.
                prime = 2 * c if (away[k] - 1 < 2 * c and away[1 - k] - 1 >= 2 * c) else c
                dtl = mixed(k, 1 - k, 2 * prime, False)
                dtw = mixed(k, k, 2 * prime, True)
                with np.errstate(divide="ignore", invalid="ignore"):
                    point[k] = (dtl - dp) / (dtl - dtw)
            else:
                rdp = mwc(k, 0, 2 * c)
                dtw = mixed(k, k, 2 * c, True)
                with np.errstate(divide="ignore", invalid="ignore"):
                    point[k] = 1.0 - above[1 - k] * (dp - dtw) / (rdp - dtw)
        above = point
    return above[0], above[1]


def _match(p: np.ndarray, x: np.ndarray, values: MatchValues, cube: int, owner: str, crawford: bool):
    """Cubeful match winning chances of the side on roll: (no double,
    double/take, double/pass), Janowski's model on MWC as gnubg applies it
    (live cash points through every cube level the score leaves; a dead
    cube is the cubeless value); arrays (n,)."""
    w = p[:, 0]

    def value(c, own):
        win, loss = values.outcomes(p, c)
        dead = w * win + (1 - w) * loss
        if not _cube_alive(values, c, crawford):
            return dead
        cp_me, cp_opp = _cash_points(values, p, c)
        live = _live(w, loss, win, values.after(0, c), values.after(c, 0), cp_me, 1.0 - cp_opp, own)
        return x * live + (1 - x) * dead

    no_double = value(cube, owner)
    double_take = value(2 * cube, "opponent")
    return no_double, double_take, np.full_like(w, values.after(cube, 0))


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
    from .evaluator import as_evaluator
    instance("position", position, Position, "backgammon.Position")
    ply = integer("ply", ply, low=0, high=2)
    state, rules = _checked(position, state, rules)
    evaluator = as_evaluator(evaluator, networks=networks)
    ev = evaluate(position, ply, evaluator=evaluator)
    searched = None
    if ply > 0 and (state.match_length or _bearoff_exact(position, _owner(state)) is None):
        searched = _searched(position, state, rules, ply, evaluator, met)
    return _decision(ev.probabilities, position, state, rules, met, searched)


def _checked(position, state, rules):
    from .matchid import MatchState
    state = MatchState() if state is None else instance("state", state, MatchState, "backgammon.MatchState")
    rules = Rules() if rules is None else instance("rules", rules, Rules, "backgammon.Rules")
    if position.is_game_over():
        raise ValueError("position: the game is over, there is no cube decision")
    if state.match_length:
        rules.check_match_play()
    return state, rules


def cube_decision_from(chances, position: Position, state=None, rules: Rules | None = None, *,
                       met=None) -> CubeDecision:
    """The cube decision of :func:`cube_decision` from given cubeless
    ``chances`` of the side on roll (five, as an Evaluation gives them),
    searched however the caller likes: analysis and rollouts grade many
    positions from chances they already have.

    >>> import backgammon as bg
    >>> cube_decision_from((0.95, 0.0, 0.0, 0.0, 0.0), bg.Position.initial()).action
    'double, pass'
    """
    instance("position", position, Position, "backgammon.Position")
    state, rules = _checked(position, state, rules)
    return _decision(chances, position, state, rules, met, None)


def _decision(chances, position, state, rules, met, searched) -> CubeDecision:
    probs = tuple(float(v) for v in chances)
    if len(probs) != 5:
        raise ValueError(f"chances must be five numbers, not {len(probs)}")
    owner = _owner(state)
    exact = _bearoff_exact(position, owner) if state.match_length == 0 else None
    if exact is not None:
        nd, dt, dp, mwc = exact[0], exact[1], 1.0, None
    else:
        eq = _equities(np.array([probs]), np.array([cube_efficiency(position)]), state, rules, met)
        nd, dt, dp = (float(v[0]) for v in eq[:3])
        mwc = None if eq[3] is None else tuple(float(v[0]) for v in eq[3])
        if searched is not None:
            # The search's values; a double the Crawford game forbids has no
            # doubled state to search, and keeps the model's double/take.
            s_nd, s_dt, dp, s_mwc = searched
            nd, dt = s_nd, dt if s_dt is None else s_dt
            if s_mwc is not None:
                assert mwc is not None
                mwc = (s_mwc[0], mwc[1] if s_dt is None else s_mwc[1], s_mwc[2])
    reason = may_double(state, rules).reason
    beavers = beavers_allowed(state.match_length == 0, rules)
    if reason:
        return CubeDecision("no double", nd, dt, dp, proper_action(nd, dt, dp, beavers)[1], False, reason,
                            probs, mwc, exact is not None)
    action, take = proper_action(nd, dt, dp, beavers)
    return CubeDecision(action, nd, dt, dp, take, True, "", probs, mwc, exact is not None)


def _owner(state) -> str:
    me = state.on_roll
    return "centred" if state.cube_owner is None else "me" if state.cube_owner == me else "opponent"


def _equities(p: np.ndarray, x: np.ndarray, state, rules: Rules, met):
    """The cubeful equities (no double, double/take, double/pass) of the
    side on roll for chances p (n, 5) and cube efficiencies x (n,): money
    per unit of the cube, match normalised (-1: losing a single game at this
    cube, +1: winning one), with the match winning chances (or None)."""
    cube = state.cube_value
    owner = _owner(state)
    if state.match_length == 0:
        nd, dt = _money(p, x, owner, not state_gammons_count(state, rules))
        return nd, dt, np.ones_like(nd), None
    values = MatchValues.of_state(state, met)
    m_nd, m_dt, m_dp = _match(p, x, values, cube, owner, bool(state.crawford))
    return (*(values.normalised(m, cube) for m in (m_nd, m_dt, m_dp)), (m_nd, m_dt, m_dp))


def cube_values(chances, positions, state=None, rules: Rules | None = None, *, met=None):
    """The value for the side on roll of its proper cube action (doubling
    when it should, the other side answering right; no double when it may
    not), for many positions at one cube state: equities (n,) as
    :func:`cube_decision` gives them, and match winning chances (n,) in
    match play (else None).  ``chances`` (n, 5) are the sides' cubeless
    chances, ``positions`` the boards (n, 2, 25), side on roll in row 1.

    >>> import numpy as np, backgammon as bg
    >>> v, m = cube_values(np.array([[0.5, 0.1, 0.0, 0.1, 0.0]]), bg.Position.initial().array[None])
    >>> round(float(v[0]), 3) == round(cube_decision_from([0.5, 0.1, 0.0, 0.1, 0.0], bg.Position.initial()).no_double, 3)
    True
    """
    from .matchid import MatchState
    state = MatchState() if state is None else instance("state", state, MatchState, "backgammon.MatchState")
    rules = Rules() if rules is None else instance("rules", rules, Rules, "backgammon.Rules")
    p = np.asarray(chances, dtype=np.float64).reshape(-1, 5)
    boards = np.asarray(positions, dtype=np.uint8).reshape(-1, 2, 25)
    if len(boards) != len(p):
        raise ValueError(f"chances and positions must be as many, not {len(p)} and {len(boards)}")
    x = _efficiencies(boards)
    nd, dt, dp, mwc = _equities(p, x, state, rules, met)
    nd, dt = nd.copy(), dt.copy()
    if state.match_length == 0:
        _exact_where_known(boards, state, nd, dt)
    if not may_double(state, rules):
        return nd, (None if mwc is None else mwc[0])
    # The doubler's value of doubling: the answer proper_action names.
    beavers = beavers_allowed(state.match_length == 0, rules)
    take = np.round(dt, 9) <= np.round(dp, 9)
    beaver = take & beavers & (np.round(dt, 9) < 0)
    answer = np.where(beaver, 2 * dt, np.where(take, dt, dp))
    doubles = answer > nd
    value = np.where(doubles, answer, nd)
    if mwc is None:
        return value, None
    return value, np.where(doubles, np.where(take, mwc[1], mwc[2]), mwc[0])


def _efficiencies(boards: np.ndarray) -> np.ndarray:
    """cube_efficiency of each board (n, 2, 25), side on roll in row 1."""
    occupied = boards > 0
    # The rearmost checker of each side (-1: none); contact while they can meet.
    rear = np.where(occupied.any(axis=2), 24 - np.argmax(occupied[:, :, ::-1], axis=2), -1)
    contact = rear.sum(axis=1) > 22
    home = ~boards[:, :, 6:].any(axis=(1, 2))
    pips = (boards[:, 1, :].astype(np.int64) * np.arange(1, 26)).sum(axis=1)
    race = np.clip(0.55 + 0.00125 * pips, 0.6, 0.7)
    return np.where(contact, 0.68, np.where(home, 0.6, race))


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


def _exact_where_known(boards, state, nd, dt) -> None:
    """Money races in the two-sided table: its exact cubeful equities
    written over ``nd`` (and ``dt`` unless None), in place."""
    small = ~boards[:, :, 6:].any(axis=(1, 2))
    for i in np.flatnonzero(small):
        exact = _bearoff_exact(Position.from_bytes(boards[i].tobytes(), validate=False), _owner(state))
        if exact is not None:
            nd[i] = exact[0]
            if dt is not None:
                dt[i] = exact[1]


def finished_value(pos: Position, state, rules: Rules, met, mover: int):
    """What ``mover`` scores by bearing off its last checker in ``pos``
    (RULES 6, 7.5, 8): (points, counting the cube, Jacoby and the rules'
    backgammon; the match winning chances after them in a match, else None)."""
    result = pos.result()
    kind = int(result.kind) if result is not None else 1
    points = game_points(kind, state.cube_value, rules, money=not state.match_length, turned=cube_turned(state))
    if not state.match_length:
        return float(points), None
    return float(points), MatchValues.of_state(state, met, mover).after(points, 0)


def values_after_play(children: np.ndarray, chances: np.ndarray, state, rules: Rules, mover: int, met=None):
    """The cubeful value, for ``mover`` (on roll in ``state``), of each
    position after one of its plays (``children``, the next mover's view;
    ``chances`` the opponent's cubeless chances on roll there), the opponent
    holding its cube options (:func:`cube_values`), a game ended by the play
    scored as it stands (:func:`finished_value`): equity per unit of the
    cube in money play, normalised match equity in a match; (values, match
    winning chances or None)."""
    st = state.replace(on_roll=1 - mover, turn=1 - mover, dice=(0, 0), double_offered=False, resignation=0)
    n = len(children)
    values = np.empty(n)
    mwc = np.empty(n) if st.match_length else None
    positions = [Position.from_bytes(b.tobytes(), validate=False) for b in children]
    over = np.array([p.is_game_over() for p in positions], dtype=bool)
    live = np.flatnonzero(~over)
    if len(live):
        v, m = cube_values(chances[live], children[live], st, rules, met=met)
        values[live] = -v
        if mwc is not None:
            mwc[live] = 1.0 - m
    for i in np.flatnonzero(over):
        # The mover has borne off its last checker: what it scores, per unit of the cube.
        points, m = finished_value(positions[i], state, rules, met, mover)
        if m is None:
            values[i] = points / state.cube_value
        else:
            values[i] = MatchValues.of_state(state, met, mover).normalised(m, state.cube_value)
            mwc[i] = m
    return values, mwc


# -- cubeful search (gnubg's n-ply cubeful evaluation) -------------------------------------------
#
# At ``ply`` > 0 a cube decision is not Janowski's model on searched cubeless
# chances but, as gnubg's, a search on cubeful values: no double and
# double/take are each the mean over the 21 rolls of the value, for the
# side that rolled, of its best play (the best at 0-ply for that cube
# state), that position valued one ply less deep with the other side's cube
# options; at the leaves the model above.  Values are kept in points
# (money) or match winning chances (match), for the side on roll.

def _turned(state, cube: int):
    """The state after the side on roll doubles to ``cube`` and is taken."""
    return state.replace(cube_value=cube, cube_owner=1 - state.on_roll)


def _to_move(state, mover: int):
    return state.replace(on_roll=mover, turn=mover, dice=(0, 0), double_offered=False, resignation=0)


class _Search:
    def __init__(self, rules: Rules, met, ev):
        self.rules, self.ev = rules, ev
        self.met = met if met is not None else default_met()

    def _static(self, boards, chances, state, full: bool):
        """Values for the side on roll at 0-ply: with its cube option when
        ``full``, else rolling without doubling (points or MWC)."""
        if full:
            v, m = cube_values(chances, boards, state, self.rules, met=self.met)
            return m if state.match_length else v * state.cube_value
        nd, _, _, mwc = _equities(chances, _efficiencies(boards), state, self.rules, self.met)
        if state.match_length:
            return mwc[0]
        nd = nd.copy()
        _exact_where_known(boards, state, nd, None)
        return nd * state.cube_value

    def _won(self, board, state, mover: int):
        # The mover bore off its last checker (row 0 of ``board``): what it scores.
        points, mwc = finished_value(Position.from_bytes(board.tobytes(), validate=False), state, self.rules, self.met,
                                    mover)
        return points if mwc is None else mwc

    def rolling(self, boards, states, ply: int):
        """(n, len(states)) values for the side on roll of each board of
        rolling without doubling, at each cube state, searched ``ply`` deep."""
        from .batch import legal_positions
        from .dice import ROLLS
        from .evaluator import chances as chances_of
        n, m = len(boards), len(states)
        if ply == 0:
            p = chances_of(self.ev, boards, 0)
            return np.stack([self._static(boards, p, s, False) for s in states], axis=1)
        rolls = np.array([(r.die1, r.die2) for r in ROLLS], dtype=np.uint8)
        weights = np.array([1.0 if r.die1 == r.die2 else 2.0 for r in ROLLS]) / 36.0
        pairs = np.repeat(np.ascontiguousarray(boards), len(rolls), axis=0)
        offsets, children = legal_positions(pairs, np.tile(rolls, (n, 1)), validate=False, threads=1)
        children = np.ascontiguousarray(children)
        over = _board.results(children)[0] == 0       # row 0, the side that just played, is off
        live = np.flatnonzero(~over)
        p = np.zeros((len(children), 5))
        if len(live):
            p[live] = chances_of(self.ev, children[live], 0)
        out = np.zeros((n, m))
        for j, s in enumerate(states):
            mover = s.on_roll
            after = _to_move(s, 1 - mover)
            # 0-ply choice of each roll's play, for this cube state.
            quick = np.empty(len(children))
            if len(live):
                q = self._static(children[live], p[live], after, True)
                quick[live] = (1.0 - q) if s.match_length else -q
            for i in np.flatnonzero(over):
                quick[i] = self._won(children[i], s, mover)
            # Each roll's best play: the first index reaching its segment's maximum.
            starts = offsets[:-1].astype(np.int64)
            top = np.maximum.reduceat(quick, starts)
            segment = np.repeat(np.arange(len(pairs)), np.diff(offsets))
            hit = np.flatnonzero(quick == top[segment])
            best = hit[np.searchsorted(segment[hit], np.arange(len(pairs)))]
            if ply == 1:
                value = quick[best]
            else:
                value = np.empty(len(best))
                chosen_over = over[best]
                for i in np.flatnonzero(chosen_over):
                    value[i] = quick[best[i]]
                rest = np.flatnonzero(~chosen_over)
                if len(rest):
                    v = self.full(children[best[rest]], [after], ply - 1)[:, 0]
                    value[rest] = (1.0 - v) if s.match_length else -v
            out[:, j] = (value.reshape(n, len(rolls)) * weights).sum(axis=1)
        return out

    def full(self, boards, states, ply: int):
        """(n, len(states)) values for the side on roll with its cube
        option: doubling when double/take and double/pass both beat no
        double, the other side then answering for the least."""
        if ply == 0:
            from .evaluator import chances
            p = chances(self.ev, np.ascontiguousarray(boards), 0)
            return np.stack([self._static(boards, p, s, True) for s in states], axis=1)
        extended: list = []
        spots: list[int] = []
        for s in states:
            spots.append(len(extended))
            extended.append(s)
            if may_double(s, self.rules):
                extended.append(_turned(s, 2 * s.cube_value))
        values = self.rolling(boards, extended, ply)
        out = np.empty((len(boards), len(states)))
        for j, s in enumerate(states):
            k = spots[j]
            nd = values[:, k]
            if not may_double(s, self.rules):
                out[:, j] = nd
                continue
            dt = values[:, k + 1]
            dp = self._pass_value(s)
            doubles = (dt >= nd) & (dp >= nd)
            out[:, j] = np.where(doubles, np.minimum(dt, dp), nd)
        return out

    def _pass_value(self, s):
        if not s.match_length:
            return float(s.cube_value)
        return MatchValues.of_state(s, self.met).after(s.cube_value, 0)


def _searched(position: Position, state, rules: Rules, ply: int, ev, met):
    """(no double, double/take, double/pass, mwc or None) by the cubeful
    search, in cube_decision's units."""
    search = _Search(rules, met, ev)
    board = np.ascontiguousarray(position.array[None], dtype=np.uint8)
    states = [state]
    if not (state.match_length and state.crawford):         # no doubled state in the Crawford game
        states.append(_turned(state, 2 * state.cube_value))
    values = [float(v) for v in search.rolling(board, states, ply)[0]]
    nd, dt = values[0], (values[1] if len(values) > 1 else None)
    dp = float(search._pass_value(state))
    if not state.match_length:
        c = state.cube_value
        return nd / c, None if dt is None else dt / c, dp / c, None
    match_values = MatchValues.of_state(state, search.met)
    norm = [None if v is None else match_values.normalised(v, state.cube_value) for v in (nd, dt, dp)]
    return norm[0], norm[1], norm[2], (nd, dt, dp)
