"""Cube decisions (RULES 7, 8): Janowski's model, the exact bear-off
table, match equity, and what the rules forbid."""
import numpy as np
import pytest

import backgammon as bg
from backgammon import bearoff
from backgammon.cube import ACTIONS, CubeDecision, cube_decision, cube_efficiency
from backgammon.matchid import MatchState

from helpers import make


def _exact_action(pos):
    # The two-sided table's cubeful money equities: no double = centred,
    # double/take = twice the equity with the opponent owning the cube.
    e = bearoff.two_sided().equities(pos)
    nd, dt, dp = e.centred, 2 * e.opponent_owns, 1.0
    if min(dt, dp) >= nd:
        return "double, take" if dt <= dp else "double, pass"
    return "too good to double" if dt > dp and nd > dp else "no double"


def test_bearoff_races_follow_the_exact_table():
    # Every pair of small bear-off sides: the decision is the table's.
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(300):
        me = {int(p): int(n) for p, n in zip(rng.integers(1, 7, 3), rng.integers(0, 3, 3)) if n}
        opp = {int(p): int(n) for p, n in zip(rng.integers(1, 7, 3), rng.integers(0, 3, 3)) if n}
        if not me or not opp or sum(me.values()) > 6 or sum(opp.values()) > 6:
            continue
        pos = make(me=me, opp=opp)
        d = cube_decision(pos)
        assert d.exact and d.action == _exact_action(pos)
        seen.add(d.action)
    assert {"no double", "double, take", "double, pass"} <= seen


def test_last_roll_positions():
    # Whoever misses now loses for sure: the cube is dead after a take, so
    # the side on roll doubles from 50% and the taker takes up to 75%.
    opp = {1: 1}                                 # the opponent bears off next roll
    need_eleven = make(me={6: 1, 5: 1}, opp=opp)    # 6-5, 6-6, 5-5 and 4-4 .. bear both off
    d = cube_decision(need_eleven)
    p = d.probabilities[0]
    assert d.exact and (p < 0.5) == (d.action == "no double")
    sure = make(me={1: 2}, opp=opp)               # any roll bears off both
    assert cube_decision(sure).action == "double, pass"


def test_the_opening_is_no_double():
    d = cube_decision(bg.Position.initial())
    assert d.action == "no double" and d.can_double and d.take == "take"
    assert d.double_pass == 1.0 and d.no_double > d.double_take


def test_a_crushing_position_is_too_good_or_a_pass():
    # I hold a closed board with three of its checkers on the bar and a gammon is likely.
    pos = make(me={1: 2, 2: 2, 3: 2, 4: 2, 5: 3, 6: 4}, opp={13: 5, 12: 7}, opp_bar=3)
    d = cube_decision(pos)
    assert d.probabilities[0] > 0.85 and d.action in ("too good to double", "double, pass")
    assert d.take == "pass"


def test_the_rules_that_forbid_a_double():
    pos = bg.Position.initial()
    owned = cube_decision(pos, MatchState(cube_value=2, cube_owner=1, on_roll=0))
    assert not owned.can_double and "owns the cube" in owned.reason and owned.action == "no double"
    crawford = cube_decision(pos, MatchState(match_length=5, score=(4, 2), crawford=True))
    assert not crawford.can_double and "Crawford" in crawford.reason
    dead = cube_decision(pos, MatchState(match_length=5, score=(4, 0), on_roll=0))
    assert not dead.can_double and "dead cube" in dead.reason
    limit = cube_decision(pos, MatchState(cube_value=2, cube_owner=0, cube_limit=2))   # the state holds its limit
    assert not limit.can_double and "limit" in limit.reason


def test_post_crawford_trailer_doubles_at_once():
    # RULES 8.2: after the Crawford game the trailer doubles; the leader,
    # 1-away, takes (the gammon-free take point is low at 3-away, 1-away).
    d = cube_decision(bg.Position.initial(), MatchState(match_length=5, score=(2, 4), on_roll=0))
    assert d.can_double and d.action == "double, take"
    assert d.mwc is not None and d.mwc[1] > d.mwc[0]


def test_match_equities_use_the_table():
    met = bg.MatchEquityTable.kazaross_xg2()
    d = cube_decision(bg.Position.initial(), MatchState(match_length=7, score=(2, 3), on_roll=0))
    # Double/pass wins one point: the table's chance at 4-away against 4-away.
    assert d.mwc[2] == pytest.approx(met.mwc(4, 4))
    assert d.double_pass == pytest.approx(1.0)
    assert -1.5 < d.no_double < 1.5


def test_jacoby_lowers_the_value_of_playing_on_for_gammons():
    pos = make(me={1: 2, 2: 2, 3: 2, 4: 2, 6: 3, 8: 2, 13: 2}, opp={20: 1, 13: 5, 14: 5, 6: 2}, opp_bar=2)
    plain = cube_decision(pos)
    jacoby = cube_decision(pos, rules=bg.Rules(jacoby=True))
    assert jacoby.no_double < plain.no_double
    assert jacoby.double_take == pytest.approx(plain.double_take)


def test_beavers_where_taking_is_better_than_even():
    # A position the doubler should not double (it is behind): the taker beavers.
    pos = make(me={24: 2, 13: 5, 8: 3, 6: 5}, opp={6: 5, 5: 3, 4: 3, 3: 2, 8: 2})
    d = cube_decision(pos, rules=bg.Rules(beavers=1))
    assert d.double_take < 0 and d.take == "beaver" and d.action.endswith("beaver")
    assert cube_decision(pos).take == "take"


def test_cube_efficiency():
    assert cube_efficiency(bg.Position.initial()) == 0.68
    assert cube_efficiency(make(me={6: 2}, opp={6: 2})) == 0.6
    assert 0.6 <= cube_efficiency(make(me={20: 2, 6: 13}, opp={6: 15})) <= 0.7


def test_players_without_judgement_never_double():
    d = CubeDecision.never()
    assert d.action == "no double" and d.take == "take" and not d.can_double and d.action in ACTIONS


def test_bad_arguments():
    with pytest.raises(TypeError, match="position"):
        cube_decision("4HPwATDgc/ABMA")
    with pytest.raises(TypeError, match="state"):
        cube_decision(bg.Position.initial(), state=(0, 0))
    with pytest.raises(ValueError, match="game is over"):
        cube_decision(make(me={1: 1}, opp={}))
    with pytest.raises(bg.RulesError, match="RULES 8.4"):
        cube_decision(bg.Position.initial(), MatchState(match_length=5), bg.Rules(jacoby=True))


def _brute_force_one_ply(position, state, rules=None):
    """No double and double/take at 1-ply, spelled out as gnubg's
    EvaluatePositionCubeful4 does it: for each of the 21 rolls, the play
    worth most to the roller with the other side's cube options at 0-ply
    (cube_values) at the cube as it stands, chosen once; that play valued
    at the cube as it stands (no double) and doubled (double/take),
    weighted 1/36 or 2/36; in points or MWC."""
    from backgammon.cube import cube_values
    from backgammon.dice import ROLLS
    states = (state, state.replace(cube_value=2 * state.cube_value, cube_owner=1 - state.on_roll))

    def value(child, s):
        opp = 1 - s.on_roll
        if child.is_game_over():
            pts = int(child.result().kind) * s.cube_value
            if not s.match_length:
                return pts
            from backgammon.cube import MatchValues
            from backgammon.met import MatchEquityTable
            mv = MatchValues.of(MatchEquityTable.kazaross_xg2(), s.match_length, s.score[s.on_roll], s.score[opp])
            return mv.after(pts, 0)
        p = bg.evaluate(child).probabilities
        eq, mwc = cube_values(np.array([p]), child.array[None], s.replace(on_roll=opp, turn=opp), rules)
        return (1.0 - mwc[0]) if s.match_length else -eq[0] * s.cube_value

    totals = [0.0, 0.0]
    for r in ROLLS:
        children = [play.position for play in position.legal_plays((r.die1, r.die2))]
        chosen = max(children, key=lambda c: value(c, states[0]))
        for k, s in enumerate(states):
            totals[k] += value(chosen, s) * (1 if r.die1 == r.die2 else 2) / 36
    return totals


@pytest.mark.parametrize("state", [MatchState(), MatchState(cube_value=2, cube_owner=1),
                                   MatchState(match_length=7, score=(3, 4)),
                                   MatchState(match_length=5, score=(3, 0), cube_value=2, cube_owner=1)])
def test_one_ply_cube_decision_is_a_cubeful_search(state):
    """At 1-ply a cube decision searches cubeful values, as gnubg's does:
    no double and double/take are the mean over the rolls of the best
    play's value with the other side's cube options (RULES 7, 8), not
    the 0-ply model applied to 1-ply chances."""
    for pos in [make({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}),
                make({2: 3, 3: 3, 4: 3, 5: 3, 6: 3}, {24: 1, 6: 4, 5: 4, 4: 3, 3: 2, 2: 1}),
                make({3: 2, 5: 2, 6: 4, 8: 2, 13: 3, 20: 2}, {1: 2, 6: 4, 8: 3, 13: 4, 24: 2}),
                make({7: 3, 8: 3, 11: 2, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 13: 2}, me_bar=1)]:   # dances
        d = cube_decision(pos, state.replace(on_roll=1, turn=1), ply=1)
        nd, dt = _brute_force_one_ply(pos, state.replace(on_roll=1, turn=1))
        if state.match_length:
            assert d.mwc[0] == pytest.approx(nd, abs=1e-6) and d.mwc[1] == pytest.approx(dt, abs=1e-6)
        else:
            c = state.cube_value
            assert d.no_double == pytest.approx(nd / c, abs=1e-6)
            assert d.double_take == pytest.approx(dt / c, abs=1e-6)
