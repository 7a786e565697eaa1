"""Position types (backgammon.position_types, issue 41): each type's test
on positions built for it, one type per board, the same type whichever side
is on roll, and the types of real self-play."""
from __future__ import annotations

import numpy as np
import pytest

from backgammon import Position, _net, network
from backgammon.position_types import NETWORK_TYPES, TYPES, names, position_types, type_of


def side(points: dict[int, int], bar: int = 0) -> np.ndarray:
    """One row: checkers on the side's own points (1-24) and its bar; the
    rest of its 15 are borne off."""
    row = np.zeros(25, np.uint8)
    for p, n in points.items():
        row[p - 1] = n
    row[24] = bar
    assert row.sum() <= 15
    return row


def board(on_roll: np.ndarray, other: np.ndarray) -> np.ndarray:
    return np.stack([other, on_roll])


def kind(b: np.ndarray) -> str:
    return names(position_types(b[None]))[0]


# The other side's point p is this side's 25 - p.
BLITZ = board(side({6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 8: 3}),                   # 5 home points made
              side({13: 6, 8: 3, 6: 5}, bar=1))                              # a checker on the bar, no anchor
BACK_GAME = board(side({2: 3, 4: 3, 5: 3, 6: 3, 7: 3}),                      # far ahead in the race
                  side({24: 2, 22: 2, 13: 4, 8: 3, 6: 4}))                   # two points in that board
PRIME = board(side({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 13: 5}),                   # a 5-point prime 4-8
              side({22: 1, 13: 5, 6: 5, 8: 4}))                              # its 22 = the primer's 3: behind
BEAR_IN = board(side({2: 3, 3: 3, 4: 4, 6: 3, 9: 1}),                         # one checker outside, one off
                side({24: 2, 13: 4, 8: 4, 6: 5}))                            # an anchor in that board
RACE = board(side({1: 3, 5: 4, 9: 4, 12: 4}), side({2: 5, 6: 5, 10: 5}))
BEAR_OFF = board(side({1: 3, 5: 4}), side({2: 5, 6: 5}))
OVER = board(side({}), side({2: 5, 6: 5}))


@pytest.mark.parametrize("b, expected", [
    (Position.initial().array, "other_contact"), (BLITZ, "blitz"), (BACK_GAME, "back_game"), (PRIME, "prime"),
    (BEAR_IN, "bear_in"), (RACE, "race"), (BEAR_OFF, "bear_off"), (OVER, "over")])
def test_each_type_on_a_position_built_for_it(b, expected):
    assert kind(b) == expected
    assert kind(b[::-1].copy()) == expected          # either side on roll
    assert type_of(Position.from_array(b)) == expected


def test_crashed_is_the_crashed_networks_remainder():
    # The side on roll crashed (checkers stacked deep, 5 in play) against a
    # holding game, with no prime, blitz, back game or bear-in.
    b = board(side({1: 6, 2: 5, 9: 2, 13: 2}), side({20: 2, 13: 5, 8: 3, 6: 5}))
    assert _net.position_classes(b[None])[0] == 4
    assert kind(b) == "crashed"


def test_thresholds_of_blitz_and_back_game():
    four_points = BLITZ.copy()
    four_points[1, 1] = 0          # the side on roll's 2-point broken: 4 home points, one on the bar
    four_points[1, 7] += 2
    assert kind(four_points) != "blitz"
    two_down = four_points.copy()
    two_down[0, 12] -= 1           # a second checker of the other side on the bar
    two_down[0, 24] = 2
    assert kind(two_down) == "blitz"
    pips = lambda r: int((r[:24] * np.arange(1, 25)).sum() + 25 * r[24])
    assert pips(BACK_GAME[0]) - pips(BACK_GAME[1]) >= 40
    near = board(side({6: 3, 7: 3, 8: 3, 9: 3, 10: 3}), side({24: 2, 22: 2, 6: 6, 5: 5}))
    assert 0 < pips(near[0]) - pips(near[1]) < 40
    assert kind(near) != "back_game"

def test_self_play_meets_every_network_type_and_types_are_symmetric():
    boards = _net.sample_positions(network.default(), 200, np.random.default_rng(5), 0.1)
    t = position_types(boards)
    assert t.dtype == np.int8 and t.shape == (len(boards),)
    assert set(names(t)) >= set(NETWORK_TYPES)
    assert (position_types(np.ascontiguousarray(boards[:, ::-1])) == t).all()
    cls = _net.position_classes(boards)
    assert ((t == TYPES.index("race")) == (cls == 2)).all()
    assert ((t == TYPES.index("crashed")) <= (cls == 4)).all()


def test_bad_boards_are_refused():
    with pytest.raises(ValueError):
        position_types(np.zeros((1, 2, 24), np.uint8))
    bad = Position.initial().array[None].copy()
    bad[0, 1, 0] = 9               # 24 checkers of one side
    with pytest.raises(ValueError):
        position_types(bad)
