"""Dice (RULES 2)."""
import numpy as np
import pytest

import backgammon as bg
from backgammon import InvalidRollError, Roll


def test_21_rolls_36_outcomes():
    # RULES 2.1: 6 doubles at 1/36, 15 others at 2/36.
    assert len(bg.ROLLS) == 21 and bg.ROLL_ARRAY.shape == (21, 2)
    assert sum(r.is_double for r in bg.ROLLS) == 6
    assert bg.ROLL_PROBABILITIES.sum() == pytest.approx(1.0)
    assert sorted(set(bg.ROLL_PROBABILITIES.round(6))) == [round(1 / 36, 6), round(2 / 36, 6)]
    assert bg.ORDERED_ROLLS.shape == (36, 2)
    assert len({tuple(r) for r in bg.ORDERED_ROLLS}) == 36


def test_opening_outcomes_have_no_doubles():
    # RULES 2.2: the opening roll is one die each; ties are rolled again.
    o = bg.OPENING_ROLLS
    assert o.shape == (30, 2)
    assert not np.any(o[:, 0] == o[:, 1])
    assert len({tuple(r) for r in o}) == 30


def test_double_plays_four_times():
    # RULES 3.1
    assert Roll(6, 6).moves == (6, 6, 6, 6) and Roll(6, 4).moves == (6, 4)


@pytest.mark.parametrize("text, roll", [("31", (3, 1)), ("3-1", (3, 1)), (" 6 6 ", (6, 6)), ("1-3", (1, 3))])
def test_roll_text(text, roll):
    # RULES 10.1: dice written 4-2 or 42.
    assert tuple(Roll.from_str(text)) == roll
    assert str(Roll(*roll)) == f"{roll[0]}{roll[1]}"


@pytest.mark.parametrize("bad", ["", "7", "71", "123", "ab", "0-1", (0, 1), (1, 7), (1,), "3/1", [1, 2, 3]])
def test_bad_rolls(bad):
    with pytest.raises(InvalidRollError):
        bg.dice.to_dice(bad)


@pytest.mark.parametrize("bad", [None, (1.5, 2), (True, 3), (3, False), 31, 3.1, {3, 1}])
def test_rolls_of_the_wrong_type(bad):
    # README "Errors": a wrong type is a TypeError naming the parameter; a bool is never a die.
    with pytest.raises(TypeError, match="roll"):
        bg.dice.to_dice(bad)
    with pytest.raises(TypeError, match="roll"):
        bg.Position.initial().legal_plays(bad)


@pytest.mark.parametrize("seed", ["abc", 1.5, True, [1, 2]])
def test_seeds_of_the_wrong_type(seed):
    with pytest.raises(TypeError, match="seed"):
        bg.roll_dice(seed)
    with pytest.raises(ValueError, match="seed"):
        bg.roll_dice(-1)


def test_seeded_rolling_is_reproducible():
    # RULES 2.3: two dice per turn; the same seed gives the same dice.
    assert bg.roll_dice(42) == bg.roll_dice(42)
    a = bg.roll_batch(1000, seed=7)
    assert np.array_equal(a, bg.roll_batch(1000, seed=7))
    assert a.min() == 1 and a.max() == 6 and a.shape == (1000, 2)
    rng = np.random.default_rng(3)
    assert isinstance(bg.roll_dice(rng), Roll)  # a Generator is accepted
    # All 36 outcomes appear with about equal frequency.
    counts = np.bincount((a[:, 0] - 1) * 6 + a[:, 1] - 1, minlength=36)
    assert counts.min() > 10
