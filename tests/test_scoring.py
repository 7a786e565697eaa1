"""The scoring home (python/backgammon/scoring.py): equity from chances, the
other side's view, the points of finished and resigned games under the
rules (RULES 6, 7.5), match values, and one answer wherever a game is
scored: played, written to a file, read back."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import backgammon as bg
from backgammon import scoring
from backgammon.formats.mat import read_mat, write_mat
from backgammon.formats.sgf import read_sgf, write_sgf

chances = st.tuples(*[st.floats(0, 1, allow_nan=False)] * 5).map(
    lambda t: np.array([t[0], t[0] * t[1], t[0] * t[1] * t[2], (1 - t[0]) * t[3], (1 - t[0]) * t[3] * t[4]]))


@given(chances)
@settings(max_examples=200, deadline=None)
def test_flip_is_its_own_inverse_and_negates_equity(p):
    back = scoring.flip(scoring.flip(p))
    assert np.allclose(back, p, atol=1e-15)
    assert scoring.equity(scoring.flip(p)) == pytest.approx(-scoring.equity(p), abs=1e-12)
    change = p - np.array([0.5, 0, 0, 0, 0])
    assert np.allclose(scoring.flip_change(change), scoring.flip(p) - scoring.flip(np.array([0.5, 0, 0, 0, 0])))


@given(chances)
@settings(max_examples=200, deadline=None)
def test_money_value_counts_gammons_only_when_they_count(p):
    w, wg, wb, lg, lb = p
    assert scoring.money_value(p, True) == pytest.approx(2 * w - 1 + wg - lg + wb - lb)
    assert scoring.money_value(p, True) == scoring.equity(p)        # bit for bit: the kernels' formula
    assert scoring.money_value(p, False) == pytest.approx(2 * w - 1)
    both = scoring.money_value(np.stack([p, p]), np.array([True, False]))
    assert both.tolist() == [scoring.money_value(p, True), scoring.money_value(p, False)]


def test_jacoby_from_the_one_rules_value():
    # RULES 7.5: money only, and only until a double has been taken.
    jacoby = bg.Rules(jacoby=True)
    assert not scoring.gammons_count(jacoby, True, False)
    assert scoring.gammons_count(jacoby, True, True)
    assert scoring.gammons_count(jacoby, False, False)
    assert scoring.gammons_count(bg.Rules(), True, False)
    assert scoring.gammons_count(jacoby, True, np.array([True, False])).tolist() == [True, False]
    assert scoring.state_gammons_count(bg.MatchState(cube_value=2, cube_owner=1), jacoby)
    assert not scoring.state_gammons_count(bg.MatchState(), jacoby)


@pytest.mark.parametrize("jacoby,bg_as_gammon,turned,money", list(itertools.product((False, True), repeat=4)))
def test_game_points(jacoby, bg_as_gammon, turned, money):
    rules = bg.Rules(jacoby=jacoby, backgammon_counts_as_gammon=bg_as_gammon)
    for kind in (1, 2, 3):
        for cube in (1, 2, 8):
            level = min(kind, 2) if bg_as_gammon else kind           # RULES 6.4
            if jacoby and money and not turned:
                level = 1                                           # RULES 7.5
            assert scoring.game_points(kind, cube, rules, money=money, turned=turned) == level * cube
            # RULES 6.5: a resignation scores the level offered, Jacoby or not.
            offered = min(kind, 2) if bg_as_gammon else kind
            assert scoring.resignation_points(kind, cube, rules) == offered * cube
            assert scoring.resignation_level(offered * cube, cube, rules) == offered


def test_match_values_agree_with_the_table():
    met = scoring.default_met()
    assert met is bg.MatchEquityTable.kazaross_xg2()
    v = scoring.MatchValues.of(met, 7, 2, 4)
    assert v.after(0, 0) == met.mwc(5, 3)
    assert v.after(5, 0) == 1.0 and v.after(0, 3) == 0.0
    lo, hi = v.after(0, 2), v.after(2, 0)
    assert v.normalised(lo, 2) == -1.0 and v.normalised(hi, 2) == pytest.approx(1.0)
    p = np.array([[0.6, 0.2, 0.05, 0.1, 0.01], [0.3, 0.0, 0.0, 0.2, 0.0]])
    win, loss = v.outcomes(p, 2)
    # The expected MWC two ways: each outcome weighted, or a win's and a loss's averages.
    assert np.allclose(v.mwc(p, 2), p[:, 0] * win + (1 - p[:, 0]) * loss)
    assert v.mwc(p, np.array([1, 2]))[1] == v.mwc(p[1:], 2)[0]
    state = bg.MatchState(match_length=7, score=(4, 2), on_roll=1, turn=1)
    assert scoring.MatchValues.of_state(state) is v


def _resigned_game(rules: bg.Rules, level: int, cube: str):
    """A money session of one game: the cube ``centred`` at 1, ``owned`` at
    2 by the resigner's opponent or ``resigner`` (the resigner holds it)."""
    match = bg.Match(0, rules=rules, seed=1)
    g = match.new_game()
    g.roll((3, 1))
    g.play("8/5 6/5")                        # player 0 opened; player 1 on roll
    if cube == "owned":                      # player 1 doubles, player 0 takes: player 0 owns it
        g.double()
        g.take()
    g.roll((6, 5))
    g.play("24/13")
    if cube == "resigner":                   # player 0 doubles, player 1 takes and owns it
        g.double()
        g.take()
    resigner = g.on_roll if cube != "resigner" else 1 - g.on_roll
    g.resign(level, player=resigner)
    g.accept_resignation()
    return match, g, resigner


@pytest.mark.parametrize("jacoby", [False, True])
@pytest.mark.parametrize("bg_as_gammon", [False, True])
@pytest.mark.parametrize("cube", ["centred", "owned", "resigner"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_resigned_games_score_alike_written_and_read(jacoby, bg_as_gammon, cube, level):
    # RULES 6.5, 7.5: a resignation scores the level offered times the cube,
    # under Jacoby too; .mat and SGF files keep that through a write and a read.
    rules = bg.Rules(jacoby=jacoby, backgammon_counts_as_gammon=bg_as_gammon)
    match, g, resigner = _resigned_game(rules, level, cube)
    value = g.cube_value
    points = scoring.resignation_points(level, value, rules)
    assert g.outcome.points == points == (min(level, 2) if bg_as_gammon else level) * value
    assert g.outcome.winner == 1 - resigner and g.outcome.ending is bg.Ending.RESIGNATION
    for write, read in ((write_mat, read_mat), (write_sgf, read_sgf)):
        record = read(write(match), rules=rules)
        assert not record.warnings
        again = record.replay().games[0]
        assert (again.outcome.winner, again.outcome.points) == (1 - resigner, points), write.__name__
        assert record.games[0].resigned and record.games[0].points == points
        # The level read back is the lowest that scores the points: the level offered.
        offered = [e.value for e in record.games[0].events if e.kind == "resign"]
        assert offered == [scoring.resignation_level(points, value, rules)]
