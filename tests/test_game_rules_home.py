"""One home for the rules of a game (issue 40, item 1): Jacoby, beavers and
the cube limit live in the MatchState every source fills, and every
decision reads them through ``MatchState.game_rules``: the same XGID gives
the same answer however a caller passes its rules, and a ``rules=`` that
contradicts the state is refused (RULES 7.4, 7.5, 8.4)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import backgammon as bg
from backgammon.errors import RulesError
from backgammon.matchid import state_and_rules
from backgammon.rules import BEAVERS_ON, MAX_CUBE
from backgammon.rollouts import rollout, rollout_cube, rollout_plays
from backgammon.xgid import read_xgid

# A one-roll shot, money with Jacoby and beavers (XGID rules field 3): the
# issue's example, where Jacoby moved the no-double equity from 0.074 to 0.028.
SHOT = "XGID=---BBBBBA----B--a-a-Bbcce-:0:0:1:00:0:0:3:0:10"
SHOT_RULES = bg.Rules(jacoby=True, beavers=BEAVERS_ON)


def test_xgid_state_carries_its_rules():
    # RULES 7.5: the XGID's Jacoby and beaver flags are the state's, and its rules.
    _, state = read_xgid(SHOT)
    assert (state.jacoby, state.beavers) == (True, True)
    rules = state.game_rules()
    assert rules.jacoby and rules.beavers == BEAVERS_ON and rules.cube_limit == MAX_CUBE


def test_same_xgid_same_cube_decision_whichever_way_the_rules_come():
    # RULES 7.5: the state alone, the state with the same rules, the rules alone.
    pos, state = read_xgid(SHOT)
    a = bg.cube_decision(pos, state)
    b = bg.cube_decision(pos, state, SHOT_RULES)
    c = bg.cube_decision(pos, None, SHOT_RULES)
    assert (a.no_double, a.double_take, a.action) == (b.no_double, b.double_take, b.action) \
        == (c.no_double, c.double_take, c.action)
    # ...and Jacoby is really applied: without it gammons count, the equity differs.
    plain = bg.cube_decision(pos, state.replace(jacoby=False, beavers=False))
    assert abs(plain.no_double - a.no_double) > 0.01


@pytest.mark.parametrize("rules, named", [(bg.Rules(), "jacoby"), (bg.Rules(jacoby=True), "beavers"),
                                          (bg.Rules(jacoby=True, beavers=1, cube_limit=64), "cube limit")])
def test_rules_that_contradict_the_state_are_refused(rules, named):
    pos, state = read_xgid(SHOT)
    with pytest.raises(RulesError, match=named) as e:
        bg.cube_decision(pos, state, rules)
    assert isinstance(e.value, ValueError)
    assert "state" in str(e.value) and "rules" in str(e.value)


def test_contradiction_refused_by_every_decision():
    pos, state = read_xgid(SHOT)
    wrong = bg.Rules()
    few = dict(games=36, seed=1, workers=1)
    with pytest.raises(RulesError):
        bg.hint(pos, state=state, rules=wrong)
    with pytest.raises(RulesError):
        bg.hint(pos, "31", state=state, rules=wrong)
    with pytest.raises(RulesError):
        rollout_cube(pos, state, rules=wrong, **few)
    with pytest.raises(RulesError):
        rollout(pos, state=state, rules=wrong, cube=True, **few)
    with pytest.raises(RulesError):
        rollout_plays(pos, "31", top=2, state=state, rules=wrong, cube=True, **few)
    with pytest.raises(RulesError):
        bg.cube_decision(bg.Position.initial(), bg.MatchState(), bg.Rules(jacoby=True))


def test_rollout_cube_same_answer_from_state_or_rules():
    # RULES 7.5: one XGID, one rollout, whichever way the caller passes its rules.
    pos, state = read_xgid(SHOT)
    few = dict(games=72, seed=3, workers=1)
    a = rollout_cube(pos, state, **few)
    b = rollout_cube(pos, state, rules=SHOT_RULES, **few)
    c = rollout_cube(pos, rules=SHOT_RULES, **few)
    assert a.no_double == b.no_double == c.no_double
    assert a.double_take == b.double_take == c.double_take


def test_cube_limit_from_the_state():
    # RULES 7.4: an XGID's max cube of 2^3 stops doubling at 8, whoever asks.
    pos, state = read_xgid("XGID=-a-B--D-B---dD---dAdb--AA-:3:1:1:00:0:0:0:0:3")
    assert state.cube_limit == 8
    d = bg.cube_decision(pos, state)
    assert not d.can_double and "limit of 8" in d.reason
    assert not bg.doubling.may_double(state)
    with pytest.raises(RulesError, match="cube limit"):
        bg.cube_decision(pos, state, bg.Rules())


def test_match_ignores_a_match_ids_jacoby_flag():
    # RULES 8.4: gnubg's Match ID of a match may carry its Jacoby flag; it does not apply.
    state = bg.MatchState(match_length=7, score=(2, 3), jacoby=True)
    assert not state.game_rules().jacoby
    assert state.game_rules(bg.Rules()) == bg.Rules()
    with pytest.raises(RulesError, match="money play"):
        state.game_rules(bg.Rules(jacoby=True))


def test_game_match_state_carries_the_games_rules():
    rules = bg.Rules(jacoby=True, beavers=2, cube_limit=64)
    g = bg.Game(rules=rules, seed=4)
    state = g.match_state()
    assert (state.jacoby, state.beavers, state.cube_limit) == (True, True, 64)
    assert state.game_rules(rules) is rules            # the game's own rules agree with its state
    assert state.game_rules().cube_limit == 64


def test_match_id_state_takes_its_matchs_rules():
    state = bg.MatchState.from_match_id(bg.MatchState(jacoby=True).to_match_id())
    full = state.with_rules(bg.Rules(jacoby=True, beavers=3, cube_limit=256))
    assert full.game_rules(bg.Rules(jacoby=True, beavers=3, cube_limit=256)).beavers == 3
    assert full.cube_limit == 256 and full.beavers


def test_state_and_rules_type_errors():
    with pytest.raises(TypeError, match="rules"):
        state_and_rules(bg.MatchState(), "jacoby")
    with pytest.raises(TypeError, match="state"):
        state_and_rules("XGID", None)
    with pytest.raises(TypeError, match="rules"):
        state_and_rules(None, {"jacoby": True})


@settings(max_examples=200, deadline=None)
@given(jacoby=st.booleans(), beavers=st.booleans(), limit=st.sampled_from([None, 1, 8, 64, MAX_CUBE]),
       length=st.sampled_from([0, 5]), r_jacoby=st.booleans(), r_beavers=st.integers(0, 3),
       r_limit=st.sampled_from([1, 8, 64, MAX_CUBE]))
def test_game_rules_agree_or_refuse(jacoby, beavers, limit, length, r_jacoby, r_beavers, r_limit):
    # Whatever the two say, the rules read are the state's, or the call is refused.
    state = bg.MatchState(match_length=length, jacoby=jacoby, beavers=beavers and not length, cube_limit=limit)
    rules = bg.Rules(jacoby=r_jacoby, beavers=r_beavers, cube_limit=r_limit)
    own = state.game_rules()
    try:
        got = state.game_rules(rules)
    except RulesError:
        return
    assert got.cube_limit == own.cube_limit
    assert got.jacoby == own.jacoby and bool(got.beavers) == bool(own.beavers)
    s2, r2 = state_and_rules(None, rules) if not length else (state, got)
    assert s2.game_rules(r2) == r2


def test_cube_values_read_the_states_rules():
    # The cube model called directly reads the same rules: Jacoby from the state.
    pos, state = read_xgid(SHOT)
    chances = np.array([bg.evaluate(pos).probabilities])
    v1, _ = bg.cube.cube_values(chances, pos.array[None], state)
    v2, _ = bg.cube.cube_values(chances, pos.array[None], state, SHOT_RULES)
    assert v1[0] == v2[0]
    with pytest.raises(RulesError):
        bg.cube.cube_values(chances, pos.array[None], state, bg.Rules())
