"""Positions: setup, validation, IDs, counts and results (RULES 1, 6, 10.2)."""
import numpy as np
import pytest

import backgammon as bg
from backgammon import InvalidPositionError, InvalidPositionIdError, Position, WinKind

from helpers import make


def test_initial_setup(initial):
    # RULES 1.2: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side; 167 pips.
    a = initial.array
    for row in (0, 1):
        assert a[row].sum() == 15
        assert {i + 1: int(c) for i, c in enumerate(a[row]) if c} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert initial.pip_counts() == (167, 167)  # RULES 10.2
    assert initial.borne_off() == (0, 0)
    assert initial.to_id() == "4HPwATDgc/ABMA"
    assert Position() == initial


def test_same_point_seen_from_both_sides():
    # RULES 1.1: my point p is the opponent's point 25 - p.
    pos = make(me={20: 1}, opp={3: 1})
    assert pos.array[1][19] == 1 and pos.array[0][2] == 1
    swapped = pos.swapped()
    assert swapped.array[0][19] == 1 and swapped.array[1][2] == 1
    assert swapped.swapped() == pos
    assert swapped.pip_counts() == pos.pip_counts()[::-1]


def test_bar_counts_25_pips():
    # RULES 1.3 and 10.2: a checker on the bar counts 25.
    pos = make(me={1: 14}, me_bar=1, opp={1: 1})
    assert pos.pip_counts() == (14 + 25, 1)


def test_two_colours_never_share_a_point():
    # RULES 1.4
    board = np.zeros((2, 25), dtype=int)
    board[1, 9] = 2   # my point 10
    board[0, 14] = 1  # opponent's point 15 = my point 10
    with pytest.raises(InvalidPositionError, match="same point"):
        Position.from_array(board)


@pytest.mark.parametrize("bad, message", [
    (np.zeros((2, 24)), "shape"),
    (np.zeros((3, 25)), "shape"),
    ([[0] * 25], "shape"),
    (np.full((2, 25), -1), "negative"),
    (np.full((2, 25), 1), "more than 15"),
    (np.full((2, 25), 0.5), "whole numbers"),
    (np.array([["a"] * 25] * 2), "integers"),
    (np.zeros((2, 25), dtype=bool), "integers"),
    (np.zeros((2, 25)), "neither side"),
    ("not an array", "shape"),
])
def test_bad_arrays_are_refused_with_a_reason(bad, message):
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_array(bad)


def test_sixteen_checkers_refused():
    # RULES 1.2: 15 checkers a side.
    board = Position.initial().array.astype(int)
    board[1, 0] = 1
    with pytest.raises(InvalidPositionError, match="on roll .* more than 15"):
        Position.from_array(board)


def test_array_is_read_only_and_position_immutable(initial):
    with pytest.raises(ValueError):
        initial.array[0, 0] = 3
    with pytest.raises(AttributeError):
        initial._board = b""
    assert hash(initial) == hash(Position.from_id(initial.to_id()))
    assert len({initial, Position.initial(), initial.swapped()}) == 1  # symmetric start


def test_float_arrays_with_whole_numbers_accepted(initial):
    assert Position.from_array(initial.array.astype(float)) == initial


@pytest.mark.parametrize("text, message", [
    ("4HPwATDgc/ABM", "14 characters"),
    ("4HPwATDgc/ABM!", "Base64"),
    ("//////////////", "more than 15"),
    ("AAAAAAAAAAAAAA", "neither side"),
    ("4HPwATDgc/AB//", "more than 15|past the last"),
])
def test_malformed_position_ids(text, message):
    with pytest.raises(InvalidPositionIdError, match=message):
        Position.from_id(text)


def test_position_id_errors_are_both_kinds():
    with pytest.raises(bg.InvalidIdError):
        Position.from_id("nope")
    with pytest.raises(InvalidPositionError):
        Position.from_id(12345)


def test_position_id_round_trip_and_prefix(initial):
    assert Position.from_id("Position ID: 4HPwATDgc/ABMA") == initial
    pos = make(me={6: 3, 1: 2}, opp={12: 1, 20: 4}, me_bar=2, opp_bar=1)
    assert Position.from_id(pos.to_id()) == pos


def test_is_race():
    assert not Position.initial().is_race()
    # My rearmost checker on 6, the opponent's rearmost on its 6 = my 19.
    assert make(me={6: 5}, opp={6: 5}).is_race()
    # Opponent on the bar re-enters in my home board: contact.
    assert not make(me={6: 5}, opp={6: 4}, opp_bar=1).is_race()
    # My checker on 20 still has to pass the opponent's on its 6 (my 19).
    assert not make(me={20: 1}, opp={6: 1}).is_race()
    assert make(me={18: 1}, opp={6: 1}).is_race()


def test_game_over_and_results():
    # RULES 6.1-6.4 with the winner being the side that just moved (row 0).
    assert Position.initial().result() is None and not Position.initial().is_game_over()
    single = make(me={3: 4}, opp={})
    assert single.is_game_over()
    assert single.result() == bg.GameResult(bg.OPPONENT, WinKind.SINGLE)
    gammon = make(me={3: 15}, opp={})
    assert gammon.result().kind is WinKind.GAMMON and gammon.result().points == 2
    # Loser with a checker in the winner's home board (the loser's 19..24).
    backgammon = make(me={3: 14, 20: 1}, opp={})
    assert backgammon.result().kind is WinKind.BACKGAMMON and backgammon.result().points == 3
    on_bar = make(me={3: 14}, me_bar=1, opp={})
    assert on_bar.result().kind is WinKind.BACKGAMMON
    # The side on roll can be the winner too.
    assert make(me={}, opp={1: 1}).result() == bg.GameResult(bg.ON_ROLL, WinKind.SINGLE)


def test_diagram_shows_everything(initial):
    pos = make(me={6: 7, 1: 1}, opp={12: 2}, me_bar=1, opp_bar=2)
    text = str(pos)
    assert pos.to_id() in text
    assert "bar 1" in text and "bar 2" in text
    assert f"pips {pos.pip_counts()[0]}" in text and f"pips {pos.pip_counts()[1]}" in text
    assert "off 6" in text and "off 11" in text
    assert " 7 " in text  # a tall point shows its count
    assert "167" in str(initial)
    assert repr(initial) == "Position.from_id('4HPwATDgc/ABMA')"


def test_pickle_round_trip(initial):
    import pickle
    assert pickle.loads(pickle.dumps(initial)) == initial
