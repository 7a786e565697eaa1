"""Fuzzing the public entry points: only ValueError subclasses, no crash, no hang."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import backgammon as bg
from backgammon import Position, batch

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

counts = st.integers(min_value=-3, max_value=20)
any_board = st.one_of(
    hnp.arrays(np.int64, st.sampled_from([(2, 25), (2, 24), (25, 2), (1, 2, 25), (50,)]), elements=counts),
    hnp.arrays(np.float64, (2, 25), elements=st.floats(allow_nan=True, allow_infinity=True)),
    st.lists(st.lists(counts, max_size=26), max_size=3),
    st.text(max_size=20), st.none(), st.integers(),
)



@st.composite
def valid_positions(draw):
    board = np.zeros((2, 25), dtype=np.int64)
    for row in (0, 1):
        for _ in range(draw(st.integers(1, 15))):
            slot = draw(st.integers(0, 24))
            board[row, slot] += 1
    # Undo clashes by moving the opponent's checker to its bar.
    for i in range(24):
        if board[1, i] and board[0, 23 - i]:
            board[0, 24] += board[0, 23 - i]
            board[0, 23 - i] = 0
    return Position.from_array(board)


rolls = st.one_of(
    st.tuples(st.integers(-2, 9), st.integers(-2, 9)), st.text(max_size=5),
    st.lists(st.integers(0, 7), max_size=3), st.none(), st.floats(), st.sampled_from(bg.ROLLS),
)

notation = st.one_of(
    st.text(alphabet="0123456789/*() barofBAR,-", max_size=30),
    st.text(max_size=30),
    st.lists(st.tuples(st.integers(-1, 27), st.integers(-1, 27), st.booleans()), max_size=5).map(
        lambda steps: " ".join(f"{a}/{b}{'*' if h else ''}" for a, b, h in steps)),
)


@FUZZ
@given(any_board)
def test_from_array_only_raises_invalid_position(board):
    try:
        pos = Position.from_array(board)
    except bg.InvalidPositionError:
        return
    assert Position.from_id(pos.to_id()) == pos


@FUZZ
@given(st.text(max_size=20))
def test_from_id_only_raises_invalid_id(text):
    try:
        pos = Position.from_id(text)
    except bg.InvalidPositionIdError:
        return
    assert Position.from_id(pos.to_id()) == pos


@FUZZ
@given(st.binary(min_size=10, max_size=10))
def test_every_ten_byte_id(raw):
    import base64
    text = base64.b64encode(raw).decode()[:14]
    try:
        pos = Position.from_id(text)
    except bg.InvalidPositionIdError:
        return
    assert pos.to_id() == text


@FUZZ
@given(valid_positions(), rolls)
def test_legal_plays_only_raises_invalid_roll(pos, roll):
    try:
        plays = pos.legal_plays(roll)
    except bg.InvalidRollError:
        return
    except TypeError as e:
        assert "roll" in str(e)
        assert not isinstance(roll, str)
        return
    for play in plays:
        assert play.position.array.sum() <= 30
        # The text of each play reads back as that play.
        if play.moves:
            assert pos.parse_play(str(play), roll).position == play.position


@FUZZ
@given(valid_positions(), st.sampled_from(bg.ROLLS), notation)
def test_parse_play_only_raises_value_errors(pos, roll, text):
    try:
        play = pos.parse_play(text, roll)
    except (bg.InvalidMoveError, bg.IllegalMoveError, bg.AmbiguousMoveError) as e:
        assert str(e)
        return
    assert play in pos.legal_plays(roll)


@FUZZ
@given(hnp.arrays(np.uint8, st.tuples(st.integers(0, 8), st.just(2), st.just(25))),
       hnp.arrays(np.uint8, st.tuples(st.integers(0, 8), st.just(2))))
def test_batch_validated_raises_value_errors(boards, rolls):
    try:
        offsets, children = batch.legal_positions(boards, rolls)
    except (bg.InvalidPositionError, bg.InvalidRollError):
        return
    assert len(children) == offsets[-1]


@FUZZ
@given(hnp.arrays(np.uint8, (6, 2, 25)), hnp.arrays(np.uint8, (6, 2)))
def test_batch_unvalidated_never_crashes(boards, rolls):
    # Trusted boards are not checked, but dice index the kernel's tables and
    # are checked always.
    try:
        offsets, children, moves = batch.legal_positions(boards, rolls, validate=False, moves=True)
    except bg.InvalidRollError:
        assert ((rolls < 1) | (rolls > 6)).any()
        return
    assert len(children) == len(moves) == offsets[-1]


@FUZZ
@given(valid_positions(), st.integers(-3, 1))
def test_perft_small_depths(pos, depth):
    if depth < 0:
        with pytest.raises(ValueError, match="depth"):
            bg.perft(pos, depth)
    elif depth == 0:
        assert bg.perft(pos, 0) == 1
    else:
        # perft(1) counts the plays of all 21 rolls.
        assert bg.perft(pos, 1) == sum(len(pos.legal_plays(r)) for r in bg.ROLLS)


def test_perft_refuses_depths_that_never_end():
    with pytest.raises(ValueError, match="depth"):
        bg.perft(bg.Position.initial(), 5)
    with pytest.raises(TypeError, match="depth"):
        bg.perft(bg.Position.initial(), True)
