"""Fuzzing the rules layer, the bear-off lookups, match equity and the
rollout entry points with the README's error convention: a wrong type is a
TypeError naming the parameter, a wrong value a ValueError subclass; the
state is unchanged after either; nothing else escapes."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import backgammon as bg
from backgammon import bearoff
from backgammon.game import Phase

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

junk = st.one_of(st.none(), st.integers(-5, 30), st.text(max_size=8), st.floats(allow_nan=True),
                 st.tuples(st.integers(-2, 8), st.integers(-2, 8)), st.booleans(), st.integers(2 ** 62, 2 ** 70))

ACTIONS = ["roll", "play", "double", "take", "drop", "beaver", "raccoon", "resign",
           "accept_resignation", "reject_resignation", "move", "undo", "commit"]
# The parameter each action's type errors must name.
PARAMETERS = {"move": ("frm", "to"), "play": ("play", "text", "roll"), "resign": ("level",), "roll": ("dice", "roll")}


def _state(g):
    return (list(g.history), g.phase, g.cube_value, g.cube_owner, g.position, g.on_roll, g.dice,
            g.partial_position, g.outcome)


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(ACTIONS), junk, junk), max_size=40), st.integers(0, 2 ** 16))
def test_game_actions_with_any_arguments(actions, seed):
    g = bg.Game(rules=bg.Rules(beavers=2, automatic_doubles=1), seed=seed)
    for name, a, b in actions:
        before = _state(g)
        method = getattr(g, name)
        try:
            if name == "move":
                method(a, b)
            elif name in ("play", "resign"):
                method(a)
            elif name == "roll":
                method(a if isinstance(a, tuple) else None)
            else:
                method()
        except TypeError as e:
            # Only actions that take arguments can get the wrong type, and
            # the message names the parameter.
            assert name in PARAMETERS and any(p in str(e) for p in PARAMETERS[name]), (name, str(e))
            assert _state(g) == before
        except ValueError as e:
            assert str(e)                                    # says what is wrong
            assert _state(g) == before                      # and changes nothing
        if g.phase is Phase.OVER:
            assert g.outcome.points >= 1


@FUZZ
@given(st.one_of(hnp.arrays(np.int64, st.sampled_from([(6,), (5,), (3, 6), (2, 2, 25), (1, 2, 25)]),
                            elements=st.integers(-2, 17)),
                 st.lists(st.integers(-1, 16), max_size=7), st.text(max_size=6), st.none()))
def test_bearoff_lookups_only_raise_outside_database(x):
    db = bearoff.one_sided()
    try:
        out = db.expected_rolls(x)
    except bearoff.OutsideDatabaseError as e:
        assert str(e)
        return
    values = np.atleast_1d(np.asarray(out, dtype=float))
    # Expected rolls: 0 for an empty side, else at least one roll, at most
    # the slowest 15-checker position's.
    assert ((values == 0) | (values >= 1)).all() and (values <= db.expected_rolls((0, 0, 0, 0, 0, 15))).all()


@FUZZ
@given(st.one_of(hnp.arrays(np.uint64, st.sampled_from([(6,), (2, 6), (1, 2, 25)])),
                 hnp.arrays(np.int64, st.sampled_from([(6,), (2, 6), (1, 2, 25)])),
                 hnp.arrays(np.uint8, st.sampled_from([(6,), (2, 6), (1, 2, 25)]))))
def test_bearoff_lookups_with_extreme_integers(x):
    # Wrapping totals must never reach the tables (this once read out of bounds).
    db = bearoff.one_sided()
    for lookup in (db.distribution, db.expected_rolls, bearoff.position_index, bearoff.two_sided().equities):
        try:
            result = lookup(x)
        except ValueError as e:
            assert str(e)
            continue
        assert np.isfinite(np.asarray(result, dtype=float)).all()


@FUZZ
@given(st.integers(-3, 40), st.integers(-3, 40), st.booleans())
def test_match_equity_lookups(away, opp_away, crawford):
    met = bg.MatchEquityTable.kazaross_xg2()
    try:
        p = met.mwc(away, opp_away, crawford=crawford)
    except ValueError as e:
        assert str(e)
        return
    assert 0 <= p <= 1
    if not crawford and away == opp_away:
        assert p == pytest.approx(0.5, abs=1e-9)


@FUZZ
@given(junk, junk, junk)
def test_rollout_arguments(games, truncate, workers):
    small = games if isinstance(games, int) and not isinstance(games, bool) and games < 50 else 0
    try:
        r = bg.rollout(games=small, truncate=truncate, workers=workers if workers in (1, None) else workers, seed=1)
    except TypeError as e:
        assert any(p in str(e) for p in ("truncate", "workers"))
        return
    except ValueError as e:
        assert any(p in str(e) for p in ("games", "truncate", "workers"))
        return
    assert r.games == small and 0 <= r.win <= 1
