"""Janowski's cube model as gnubg applies it: cubeful equities from
cubeless chances (RULES 7, 8).

The live-cube value is a broken line from losing (gammons counted)
through the opponent's cash, my cash, to winning (gammons counted), mixed
with the dead cube's (the cubeless value) by the cube efficiency ``x``
(gnubg's values: 0.68 in contact; in a race 0.55 + 0.00125 per pip of the
side on roll, within 0.6 and 0.7).  Money play counts Jacoby and beavers
(RULES 7.5); match play converts every outcome to match winning chances
through the match equity table (:mod:`backgammon.scoring`), with gnubg's
live cash points through the cube levels the score leaves, the Crawford
game and the dead cube (RULES 8.2, 8.3).  These are gnubg's 0-ply cubeful
equities; races in the two-sided bear-off table take its exact cubeful
money equities.  Who may double is :mod:`backgammon.doubling`'s rule.

>>> import numpy as np, backgammon as bg
>>> v, m = cube_values(np.array([[0.6, 0.1, 0.0, 0.1, 0.0]]), bg.Position.initial().array[None])
>>> round(float(v[0]), 3), m
(0.291, None)
"""
from __future__ import annotations

import numpy as np

from ._validate import boards as _boards, floats, instance, integer, integers, one_of
from .doubling import beavers_allowed, may_double
from .matchid import MatchState
from .position import Position
from .rules import Rules
from .scoring import MatchValues, cube_turned, game_points, state_gammons_count

__all__ = ["cube_values", "cube_efficiency", "values_after_play", "finished_value", "equities", "efficiencies",
           "owner_of", "bearoff_exact", "exact_known", "exact_where_known"]


def cube_efficiency(position: Position) -> float:
    """gnubg's cube efficiency for the position: 0.68 with contact, 0.6 in a
    bear-off, else 0.55 + 0.00125 x the pips of the side on roll in [0.6, 0.7]."""
    instance("position", position, Position, "backgammon.Position")
    return float(efficiencies(position.array[None])[0])


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


def _match(p: np.ndarray, x: np.ndarray, values: MatchValues, cube: int, owner: str, crawford: bool,
           x_taken: np.ndarray | None = None):
    """Cubeful match winning chances of the side on roll: (no double,
    double/take, double/pass), Janowski's model on MWC as gnubg applies it
    (live cash points through every cube level the score leaves; a dead
    cube is the cubeless value); arrays (n,).  ``x_taken``: the cube
    efficiencies after a take, where they differ from ``x``."""
    w = p[:, 0]

    def value(c, own, x=x):
        win, loss = values.outcomes(p, c)
        dead = w * win + (1 - w) * loss
        if not _cube_alive(values, c, crawford):
            return dead
        cp_me, cp_opp = _cash_points(values, p, c)
        live = _live(w, loss, win, values.after(0, c), values.after(c, 0), cp_me, 1.0 - cp_opp, own)
        return x * live + (1 - x) * dead

    no_double = value(cube, owner)
    double_take = value(2 * cube, "opponent", x if x_taken is None else x_taken)
    return no_double, double_take, np.full_like(w, values.after(cube, 0))


def _table_efficiency(boards: np.ndarray, p: np.ndarray, x: np.ndarray, owner: str) -> np.ndarray:
    """The cube efficiencies ``x`` with those of races in the two-sided
    table replaced as gnubg replaces them in match play (eval.c,
    ``CLASS_BEAROFF2``): the share of the live cube's money value the
    table's exact cubeful money equity at ``owner``'s cube shows,
    (exact - cubeless) / (live - cubeless), within [0, x]."""
    rows, e = _in_table(boards)
    if not len(rows):
        return x
    exact = e[:, {"me": 1, "opponent": 3}.get(owner, 2)]
    live, _ = _money(p[rows], np.ones(len(rows)), owner, False)
    cubeless = e[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(np.abs(cubeless - live) > 1e-4, (exact - cubeless) / (live - cubeless), x[rows])
    out = np.array(x, dtype=np.float64, copy=True)
    out[rows] = np.clip(share, 0.0, x[rows])
    return out


_OWNERS = ("me", "opponent", "centred")


def owner_of(state) -> str:
    """Who owns the cube of ``state``, from the side on roll's view: "me",
    "opponent" or "centred".

    >>> import backgammon as bg
    >>> owner_of(bg.MatchState(cube_owner=1, on_roll=1, turn=1))
    'me'
    """
    if type(state) is not MatchState:
        instance("state", state, MatchState, "backgammon.MatchState")
    me = state.on_roll
    return "centred" if state.cube_owner is None else "me" if state.cube_owner == me else "opponent"


def equities(p: np.ndarray, x: np.ndarray, state, rules: Rules, met, boards: np.ndarray | None = None):
    """The cubeful equities (no double, double/take, double/pass) of the
    side on roll for chances p (n, 5) and cube efficiencies x (n,): money
    per unit of the cube, match normalised (-1: losing a single game at this
    cube, +1: winning one), with the match winning chances (or None).
    ``boards`` (n, 2, 25), when given: in a match, races in the two-sided
    bear-off table take their efficiencies from its exact money equities,
    at each cube's owner, as gnubg's."""
    instance("state", state, MatchState, "backgammon.MatchState")
    instance("rules", rules, Rules, "backgammon.Rules")
    p, x = _chances_and_efficiencies(p, x)
    cube = state.cube_value
    owner = owner_of(state)
    if state.match_length == 0:
        nd, dt = _money(p, x, owner, not state_gammons_count(state, rules))
        return nd, dt, np.ones_like(nd), None
    values = MatchValues.of_state(state, met)
    x_taken = None
    if boards is not None:
        boards = _boards("boards", boards)
        if len(boards) != len(p):
            raise ValueError(f"p and boards must be as many, not {len(p)} and {len(boards)}")
        x, x_taken = _table_efficiency(boards, p, x, owner), _table_efficiency(boards, p, x, "opponent")
    m_nd, m_dt, m_dp = _match(p, x, values, cube, owner, bool(state.crawford), x_taken)
    return (*(values.normalised(m, cube) for m in (m_nd, m_dt, m_dp)), (m_nd, m_dt, m_dp))


def _chances_and_efficiencies(p, x):
    """Chances (n, 5) and efficiencies (n,) as float arrays, or TypeError / ValueError."""
    if not (isinstance(p, np.ndarray) and p.dtype == np.float64 and p.ndim == 2 and p.shape[1] == 5):
        p = floats("p", p, shape=(None, 5))
    if not (isinstance(x, np.ndarray) and x.dtype == np.float64 and x.shape == (len(p),)):
        x = floats("x", x)
        if x.shape != (len(p),):
            raise ValueError(f"x must hold one efficiency per row of p, (n,) = ({len(p)},), not {x.shape}")
    return p, x


def cube_values(chances, positions, state=None, rules: Rules | None = None, *, met=None, efficiency=None):
    """The value for the side on roll of its proper cube action (doubling
    when it should, the other side answering right; no double when it may
    not), for many positions at one cube state: equities (n,) as
    :func:`cube_decision` gives them, and match winning chances (n,) in
    match play (else None).  ``chances`` (n, 5) are the sides' cubeless
    chances, ``positions`` the boards (n, 2, 25), side on roll in row 1.

    >>> import numpy as np, backgammon as bg
    >>> v, m = cube_values(np.array([[0.5, 0.1, 0.0, 0.1, 0.0]]), bg.Position.initial().array[None])
    >>> from backgammon.cube import cube_decision_from
    >>> round(float(v[0]), 3) == round(cube_decision_from([0.5, 0.1, 0.0, 0.1, 0.0], bg.Position.initial()).no_double, 3)
    True
    """
    from .matchid import state_and_rules
    state, rules = state_and_rules(state, rules)
    p = np.asarray(chances, dtype=np.float64).reshape(-1, 5)
    boards = np.asarray(positions, dtype=np.uint8).reshape(-1, 2, 25)
    if len(boards) != len(p):
        raise ValueError(f"chances and positions must be as many, not {len(p)} and {len(boards)}")
    # The cube efficiencies of the boards, when the caller has them already (a search values the
    # same boards at several cube states).
    x = efficiencies(boards) if efficiency is None else efficiency
    nd, dt, dp, mwc = equities(p, x, state, rules, met, boards)
    nd, dt = nd.copy(), dt.copy()
    if state.match_length == 0:
        exact_where_known(boards, state, nd, dt)
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


def efficiencies(boards: np.ndarray, classes: np.ndarray | None = None) -> np.ndarray:
    """cube_efficiency of each board (n, 2, 25), side on roll in row 1;
    ``classes`` their ``_net.position_classes`` when the caller has them."""
    from . import _net
    boards = np.ascontiguousarray(_boards("boards", boards))
    if classes is not None and not (isinstance(classes, np.ndarray) and classes.shape == (len(boards),)):
        classes = integers("classes", classes, shape=(len(boards),))
    # Contact while the sides can meet: the evaluators' classes (3 contact, 4 crashed) say so, in C.
    out = np.full(len(boards), 0.68)
    race = np.flatnonzero((_net.position_classes(boards) if classes is None else classes) < 3)
    if len(race):
        b = boards[race]
        home = np.count_nonzero(b[:, :, 6:].reshape(len(b), -1), axis=1) == 0
        pips = b[:, 1, :] @ _PIP_WEIGHTS           # at most 375: no wider type, no copy of the boards
        out[race] = np.where(home, 0.6, np.clip(0.55 + 0.00125 * pips, 0.6, 0.7))
    return out


_PIP_WEIGHTS = np.arange(1, 26, dtype=np.uint16)


def bearoff_exact(position: Position, owner: str):
    """(no double, double/take) from the two-sided table's cubeful money
    equities when both sides fit in it, else None."""
    instance("position", position, Position, "backgammon.Position")
    rows, nd, dt = exact_known(position.array[None], owner)
    return (float(nd[0]), float(dt[0])) if len(rows) else None


def exact_known(boards: np.ndarray, owner: str):
    """The boards (n, 2, 25) whose sides both fit in the two-sided table
    (every checker home, at most its checkers each), and their (no double,
    double/take) from its cubeful money equities: (rows, nd, dt)."""
    one_of("owner", owner, _OWNERS)
    rows, e = _in_table(_boards("boards", boards))
    if not len(rows):
        return rows, np.zeros(0), np.zeros(0)
    column = {"me": 1, "opponent": 3}.get(owner, 2)         # Equities: cubeless, owned, centred, opponent owns
    return rows, e[:, column], 2.0 * e[:, 3]


def _in_table(boards: np.ndarray):
    """The boards (n, 2, 25) whose sides both fit in the two-sided table
    (every checker home, at most its checkers each) and their cubeful
    money equities there (cubeless, owned, centred, opponent owns)."""
    from . import bearoff
    boards = np.asarray(boards)
    ts = bearoff.two_sided()
    fits = ~boards[:, :, 6:].any(axis=(1, 2)) & (boards.sum(axis=2, dtype=np.int64) <= ts.checkers).all(axis=1)
    rows = np.flatnonzero(fits)
    if not len(rows):
        return rows, np.zeros((0, 4))
    return rows, ts.equities(np.ascontiguousarray(boards[rows]))


def exact_where_known(boards, state, nd, dt) -> None:
    """Money races in the two-sided table: its exact cubeful equities
    written over ``nd`` (and ``dt`` unless None), in place."""
    boards = _boards("boards", boards)
    for name, a in (("nd", nd), ("dt", dt)):
        if (a is not None or name == "nd") and not (isinstance(a, np.ndarray) and a.shape == (len(boards),)
                                                    and np.issubdtype(a.dtype, np.floating)):
            raise TypeError(f"{name} must be a float array of one value per board ({len(boards)},), "
                            f"not {type(a).__name__} {np.shape(a)}")
    rows, e_nd, e_dt = exact_known(boards, owner_of(state))
    nd[rows] = e_nd
    if dt is not None:
        dt[rows] = e_dt


def finished_value(pos: Position, state, rules: Rules, met, mover: int):
    """What ``mover`` scores by bearing off its last checker in ``pos``
    (RULES 6, 7.5, 8): (points, counting the cube, Jacoby and the rules'
    backgammon; the match winning chances after them in a match, else None)."""
    instance("pos", pos, Position, "backgammon.Position")
    instance("state", state, MatchState, "backgammon.MatchState")
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
    instance("state", state, MatchState, "backgammon.MatchState")
    instance("rules", rules, Rules, "backgammon.Rules")
    mover = integer("mover", mover, low=0, high=1)
    children, chances = np.asarray(children), np.asarray(chances, dtype=np.float64)
    if children.ndim != 3 or children.shape[1:] != (2, 25) or chances.shape != (len(children), 5):
        raise ValueError(f"children must be (n, 2, 25) boards and chances (n, 5), not {children.shape} and "
                         f"{chances.shape}")
    st = state.replace(on_roll=1 - mover, turn=1 - mover, dice=(0, 0), double_offered=False, resignation=0)
    n = len(children)
    values = np.empty(n)
    mwc = np.empty(n) if st.match_length else None
    # Over when a side has no checker left (Position.is_game_over, on the arrays).
    over = (np.asarray(children).reshape(n, 2, 25).sum(axis=2, dtype=np.int64) == 0).any(axis=1)
    live = np.flatnonzero(~over)
    if len(live):
        v, m = cube_values(chances[live], children[live], st, rules, met=met)
        values[live] = -v
        if mwc is not None:
            mwc[live] = 1.0 - m
    for i in np.flatnonzero(over):
        # The mover has borne off its last checker: what it scores, per unit of the cube.
        points, m = finished_value(Position.from_bytes(children[i].tobytes(), validate=False), state, rules, met,
                                   mover)
        if m is None or mwc is None:
            values[i] = points / state.cube_value
        else:
            values[i] = MatchValues.of_state(state, met, mover).normalised(m, state.cube_value)
            mwc[i] = m
    return values, mwc
