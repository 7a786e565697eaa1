"""Variance reduction with the cube's values (issue 40, C4): in a cubeful
rollout each roll's luck is taken in cubeful value, as gnubg's cubeful
variance reduction does (rollout.c: each roll's best 0-ply play valued
cubefully, the other side holding its cube options; the luck is the roll
thrown's value minus the mean over the 21 rolls), not the cubeless luck
scaled by the cube."""
import numpy as np
import pytest

import backgammon as bg
from backgammon import _rollout
from backgammon.dice import ROLLS, ROLL_PROBABILITIES
from backgammon.janowski import values_after_play
from backgammon.network import default
from backgammon.players import NetPlayer
from backgammon.rollouts.cubeful import CubeLanes
from backgammon.scoring import flip
from backgammon.sample import random_positions

from helpers import make


def _each_roll(boards, mover):
    # Every board with every roll: player 0's chances after each roll's best
    # play and those plays, as the rollout loop gets them.
    n, r = len(boards), len(ROLLS)
    here = np.ascontiguousarray(np.repeat(boards, r, axis=0))
    dice = np.tile(np.array([(x.die1, x.die2) for x in ROLLS], dtype=np.uint8), (n, 1))     # high die first
    each = np.empty((n * r, r, 5))
    chosen = np.empty((n * r, r, 2, 25), dtype=np.uint8)
    luck = _rollout.lockstep_luck(default(), here, dice, np.full(n * r, mover, dtype=np.int8), each, chosen)
    return dice, each, chosen, luck


def _boards():
    boards, _ = random_positions(40, seed=11)
    # A last-roll bear-off: some rolls end the game (scored at the cube).
    last = make(me={1: 1, 2: 1}, opp={1: 2, 3: 3})
    return np.concatenate([boards[::8], last.array[None]])


@pytest.mark.parametrize("state, rules", [
    (bg.MatchState(), bg.Rules()),
    (bg.MatchState(jacoby=True), bg.Rules(jacoby=True)),
    (bg.MatchState(cube_value=2, cube_owner=1), bg.Rules()),
    (bg.MatchState(match_length=7, score=(2, 4)), bg.Rules()),
    (bg.MatchState(match_length=7, score=(3, 1), cube_value=2, cube_owner=0), bg.Rules()),
])
@pytest.mark.parametrize("mover", [0, 1])
def test_a_rolls_cube_luck_is_its_cubeful_value_less_the_mean(state, rules, mover):
    boards = _boards()
    n, r = len(boards), len(ROLLS)
    dice, each, chosen, luck = _each_roll(boards, mover)
    lanes = np.arange(n * r)
    cube = CubeLanes(n * r, state, rules, [NetPlayer(), NetPlayer()], state.cube_value)
    got = cube.luck(lanes, dice, np.full(n * r, mover), each, chosen).reshape(n, r)
    # Each board's luck over the 21 rolls has mean zero (unbiased).
    assert np.abs(got @ ROLL_PROBABILITIES).max() < 1e-12
    # Independently: janowski.values_after_play of each roll's play, for the mover.
    mover_state = state.replace(on_roll=mover, turn=mover)
    for i in range(n):
        kids = np.ascontiguousarray(chosen[i * r])
        opp = each[i * r] if mover == 1 else flip(each[i * r])    # the next mover's chances
        v, mwc = values_after_play(kids, opp, mover_state, rules, mover)
        if state.match_length:
            f = mwc if mover == 0 else 1.0 - mwc
        else:
            f = (v if mover == 0 else -v)
        want = f - f @ ROLL_PROBABILITIES
        assert np.allclose(got[i], want, atol=1e-12), (i, got[i], want)
    # The cubeless luck the kernel gives is unchanged by asking for the plays.
    assert np.array_equal(luck, _rollout.lockstep_luck(default(), np.ascontiguousarray(np.repeat(boards, r, axis=0)),
                                                       dice, np.full(n * r, mover, dtype=np.int8)))


@pytest.mark.parametrize("position, state", [
    ("sPPIAyCGn4kDIA", None),
    ("sPPIAyCGn4kDIA", bg.MatchState(match_length=7, score=(2, 4))),
])
def test_cube_luck_reduces_the_error_and_keeps_the_mean(position, state):
    # The same games (the dice and plays do not depend on the luck):
    # without variance reduction the raw mean, with it a mean within the
    # raw mean's error, and an error several times smaller.  Dice not
    # stratified: every roll at its own chance, so each luck has mean zero
    # (with stratified dice that holds only over multiples of 1,296 games).
    pos = bg.Position.from_id(position)
    kw = dict(games=216, seed=5, workers=1, state=state, stratify=False)
    vr = bg.rollout_cube(pos, **kw)
    raw = bg.rollout_cube(pos, variance_reduction=False, **kw)
    for a, b in ((vr.no_double_rollout, raw.no_double_rollout), (vr.double_take_rollout, raw.double_take_rollout)):
        assert a.raw_cubeful_equity_se == pytest.approx(b.cubeful_equity_se)
        assert abs(a.cubeful_equity - b.cubeful_equity) < 3 * b.cubeful_equity_se
        assert a.cubeful_equity_se < b.cubeful_equity_se / 3
