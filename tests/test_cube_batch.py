"""Cube decisions in batches (RULES 7, 8): ``cube_decisions`` and
``Player.cube_actions`` give, row for row, what ``cube_decision`` and
``Player.cube_action`` give one position at a time; the rollouts' cube
asks them once per cube state and turn, with the same results."""
import numpy as np
import pytest

import backgammon as bg
from backgammon.cube import (ACTIONS, TAKES, CubeDecisions, cube_action, cube_actions, cube_decision, cube_decisions,
                             proper_action, proper_actions)
from backgammon.players import NetPlayer
from backgammon.sample import random_positions

from helpers import make

STATES = {
    "money": bg.MatchState(),
    "jacoby": bg.MatchState(jacoby=True),
    "beavers": bg.MatchState(beavers=True),
    "owned": bg.MatchState(cube_value=2, cube_owner=0),
    "other owns": bg.MatchState(cube_value=2, cube_owner=1),
    "match": bg.MatchState(match_length=7, score=(2, 4)),
    "match cube 2": bg.MatchState(match_length=7, score=(3, 1), cube_value=2, cube_owner=0),
    "crawford": bg.MatchState(match_length=5, score=(4, 2), crawford=True),
    "post crawford": bg.MatchState(match_length=5, score=(2, 4)),
    "dead": bg.MatchState(match_length=5, score=(3, 1), cube_value=2, cube_owner=0),
    "limit": bg.MatchState(cube_value=2, cube_owner=0, cube_limit=2),
}


def _boards():
    # Positions met in play, bear-offs the exact table answers (RULES 7,
    # two-sided table), a crushing one and a last roll.
    boards, _ = random_positions(60, seed=7)
    extra = [make(me={1: 2, 3: 1}, opp={2: 2, 5: 2}), make(me={1: 1}, opp={6: 3}),
             make(me={6: 5, 5: 5, 4: 5}, opp={24: 3, 1: 12}), make(me={2: 1, 1: 1}, opp={1: 1})]
    return np.concatenate([boards, np.stack([p.array for p in extra])])


@pytest.mark.parametrize("name", list(STATES))
def test_a_batch_is_each_decision_at_0_ply(name):
    state = STATES[name]
    boards = _boards()
    batch = cube_decisions(boards, state)
    assert len(batch) == len(boards)
    for i, b in enumerate(boards):
        one = cube_decision(bg.Position.from_array(b), state)
        assert batch[i] == one, (name, i)
    assert batch.exact.any() == (not state.match_length)


@pytest.mark.parametrize("name", ["money", "owned", "match", "crawford"])
def test_a_batch_is_each_decision_at_1_ply(name):
    # The cubeful search (cube_search) of many boards at once.
    state = STATES[name]
    boards = _boards()[[0, 9, 17, 33, -4, -3]]
    batch = cube_decisions(boards, state, ply=1)
    for i, b in enumerate(boards):
        assert batch[i] == cube_decision(bg.Position.from_array(b), state, ply=1), (name, i)
    assert batch.ply == 1
    # In play the search is capped at PLAY_PLY, as one at a time.
    assert cube_actions(boards[:2], state, ply=2)[1] == cube_action(bg.Position.from_array(boards[1]), state, ply=2)


def test_proper_actions_is_proper_action_for_arrays():
    grid = [-1.5, -0.5, 0.0, 0.4, 0.6, 0.999999999999, 1.0, 1.2, 1.5]
    nd, dt, dp = (a.ravel() for a in np.meshgrid(grid, grid, [1.0, 0.5], indexing="ij"))
    for beavers in (False, True):
        actions, takes = proper_actions(nd, dt, dp, beavers)
        for k in range(len(nd)):
            assert (ACTIONS[actions[k]], TAKES[takes[k]]) == proper_action(nd[k], dt[k], dp[k], beavers)
    # A tie (a certain win) cashes; a negative double/take is beavered where allowed.
    assert proper_action(1.0, 1.0000000000001, 1.0) == ("double, take", "take")
    assert proper_action(-0.2, -0.1, 1.0, True) == ("double, beaver", "beaver")


def test_players_decide_a_batch_as_one_by_one():
    boards = _boards()[:12]
    state = STATES["owned"]
    net = NetPlayer()
    batch = net.cube_actions(boards, state)
    assert all(batch[i] == net.cube_action(bg.Position.from_array(b), state) for i, b in enumerate(boards))
    never = bg.player("pubeval").cube_actions(boards, state)
    assert not never.doubles.any() and not never.can_double and (never.takes == 0).all()

    class AlwaysDoubles(NetPlayer):
        # Its own cube judgement: asked position by position.
        def cube_action(self, position, state=None, rules=None):
            d = super().cube_action(position, state, rules)
            return bg.CubeDecision("double, pass", d.no_double, d.double_take, d.double_pass, "pass")

    own = AlwaysDoubles().cube_actions(boards, state)
    assert own.doubles.all() and own.passes.all()
    assert np.array_equal(own.no_double, batch.no_double)


def test_bad_batches_are_refused():
    good = _boards()[:3]
    over = good.copy()
    over[1, 0] = 0                   # the side to move has borne off: game over
    with pytest.raises(ValueError, match="boards: the game is over in board 1"):
        cube_decisions(over)
    with pytest.raises(ValueError):
        cube_decisions(good[:, :1])
    with pytest.raises(ValueError, match="ply"):
        cube_decisions(good, ply=3)
    with pytest.raises(ValueError, match="threads"):
        cube_decisions(good, threads=0)
    with pytest.raises(bg.RulesError):
        cube_decisions(good, bg.MatchState(), bg.Rules(jacoby=True))
    with pytest.raises(IndexError):
        cube_decisions(good)[3]
    assert isinstance(CubeDecisions.never(0), CubeDecisions)


class _OneByOne(NetPlayer):
    # The same judgement as NetPlayer, asked one position at a time (a
    # subclass with its own cube_action): the rollouts' loop before batches.
    def cube_action(self, position, state=None, rules=None):
        return super().cube_action(position, state, rules)


@pytest.mark.parametrize("kw", [
    dict(),
    dict(state=bg.MatchState(match_length=7, score=(2, 4))),
    dict(truncate=5),
    dict(rules=bg.Rules(jacoby=True, beavers=1), state=bg.MatchState(jacoby=True, beavers=True)),
])
def test_a_cubeful_rollout_asks_in_batches_with_the_same_result(kw):
    pos = bg.Position.from_id("sPPIAyCGn4kDIA")
    a = bg.rollout_cube(pos, games=72, seed=3, workers=1, **kw)
    b = bg.rollout_cube(pos, games=72, seed=3, workers=1, policy=NetPlayer(), cube_policy=_OneByOne(), **kw)
    da, db = a.to_dict(), b.to_dict()
    for part in ("no_double_rollout", "double_take_rollout"):
        for d in (da[part], db[part]):
            d.pop("seconds"), d.pop("games_per_second")
    assert da == db
    assert a.no_double_rollout.passes + a.double_take_rollout.passes > 0 or kw.get("truncate")
