# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The position array (docs/design.md): its validation, the starting
position, how a finished game was won and the cubeless equity of
outcome chances, one board or a batch, without the GIL."""
from libc.stdint cimport uint8_t, int8_t, int64_t
from cpython.bytes cimport PyBytes_FromStringAndSize

import numpy as np


cdef extern from "_bits.h":
    int bg_check_board(const uint8_t* b) nogil


cdef BoardProblem check_board(const uint8_t* board) noexcept nogil:
    # Totals per side, then the opponent's checkers on my point i+1 (its
    # index 23 - i) against mine, as bit masks.
    return <BoardProblem>bg_check_board(board)


#: Why a board is not a position, for each BoardProblem code: the one text
#: every layer reports.
_PROBLEMS = {
    TOO_MANY_CHECKERS_OPPONENT: "the opponent (row 0) has more than 15 checkers",
    TOO_MANY_CHECKERS_ON_ROLL: "the side on roll (row 1) has more than 15 checkers",
    SHARED_POINT: "both sides have checkers on the same point",
    NO_CHECKERS: "neither side has a checker left",
    BAD_DICE: "dice must be 1 to 6",
}


def problem_message(int code):
    """Why a board is not a position (or its dice not dice), for a
    ``BoardProblem`` code."""
    return _PROBLEMS.get(code, f"invalid board (code {code})")


cdef bint no_contact(const uint8_t* board) noexcept nogil:
    """True when no checker can meet an opposing one again (a race).

    My rearmost checker stands on my point back + 1 (bar: 25); the
    opponent's rearmost on my point 24 - its back index (its bar: my 0).
    """
    cdef int i, mine = -1, theirs = -1
    for i in range(SLOTS - 1, -1, -1):
        if board[SLOTS + i]:
            mine = i
            break
    for i in range(SLOTS - 1, -1, -1):
        if board[i]:
            theirs = i
            break
    if mine < 0 or theirs < 0:
        return True
    return mine + 1 < POINTS - theirs


cdef bint both_home(const uint8_t* board) noexcept nogil:
    """True when every checker of both sides is on its home points 1..6."""
    cdef int i
    for i in range(6, SLOTS):
        if board[i] or board[SLOTS + i]:
            return False
    return True


cdef void starting_position(uint8_t* board) noexcept nogil:
    """The 50 bytes of the starting position (RULES 1.2): for each side two
    checkers on its 24-point, five on its 13, three on its 8, five on its 6."""
    cdef int i
    for i in range(2 * SLOTS):
        board[i] = 0
    for i in range(2):
        board[i * SLOTS + 23] = 2
        board[i * SLOTS + 12] = 5
        board[i * SLOTS + 7] = 3
        board[i * SLOTS + 5] = 5


def starting_board():
    """The 50 bytes of the starting position (RULES 1.2)."""
    cdef uint8_t board[2 * SLOTS]
    starting_position(board)
    return PyBytes_FromStringAndSize(<char*>board, 2 * SLOTS)


cdef int loss_kind(const uint8_t* loser) noexcept nogil:
    """How a side with the row ``loser`` loses when the other side is off
    (RULES 6.2-6.4): 1 single, 2 gammon (none borne off), 3 backgammon (a
    gammon with a checker on the bar or in the winner's home board, the
    loser's points 19..24)."""
    cdef int i, left = 0
    for i in range(SLOTS):
        left += loser[i]
    if left < CHECKERS:
        return 1
    for i in range(18, SLOTS):
        if loser[i]:
            return 3
    return 2


def results(const uint8_t[:, :, ::1] boards):
    """For each board (n, 2, 25): the row that has borne off all its
    checkers (-1 while both have some) and how the other row loses (0 while
    the game goes on)."""
    cdef Py_ssize_t i, k, n = boards.shape[0]
    cdef int a, b
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    winner = np.full(n, -1, dtype=np.int8)
    kind = np.zeros(n, dtype=np.int8)
    cdef int8_t[::1] w = winner
    cdef int8_t[::1] t = kind
    with nogil:
        for i in range(n):
            a = 0
            b = 0
            for k in range(SLOTS):
                a += boards[i, 0, k]
                b += boards[i, 1, k]
            if a == 0 and b > 0:
                w[i] = 0
                t[i] = loss_kind(&boards[i, 1, 0])
            elif b == 0 and a > 0:
                w[i] = 1
                t[i] = loss_kind(&boards[i, 0, 0])
    return winner, kind


def all_home(const uint8_t[:, :, ::1] boards):
    """both_home for each board (n, 2, 25): a bool array."""
    cdef Py_ssize_t i, n = boards.shape[0]
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    out = np.empty(n, dtype=np.bool_)
    cdef uint8_t[::1] o = out.view(np.uint8)
    with nogil:
        for i in range(n):
            o[i] = both_home(&boards[i, 0, 0])
    return out


def is_race(const uint8_t[::1] board):
    """no_contact for one 50-byte board."""
    if board.shape[0] != 2 * SLOTS:
        raise ValueError("a board is 50 bytes")
    return no_contact(&board[0])


def first_invalid(const uint8_t[:, :, ::1] boards):
    """Return ``(index, problem)`` of the first invalid board, or ``(-1, 0)``.

    ``boards`` has shape (n, 2, 25); counts above 15 on a slot are caught by
    the per-side totals.
    """
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef BoardProblem problem = BOARD_OK
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    with nogil:
        for i in range(n):
            problem = check_board(&boards[i, 0, 0])
            if problem != BOARD_OK:
                break
    if problem != BOARD_OK:
        return i, <int>problem
    return -1, 0


def equities(const double[:, ::1] chances):
    """The cubeless money equity (``cubeless_equity``) of each row of
    five outcome chances, (n,) float64."""
    cdef Py_ssize_t i, n = chances.shape[0]
    if chances.shape[1] != 5:
        raise ValueError("chances must have shape (n, 5)")
    out = np.empty(n)
    cdef double[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = cubeless_equity(&chances[i, 0])
    return out


def pair_best(const int64_t[::1] offsets, const double[::1] values, bint lowest):
    """For each pair i of a CSR output, the index within
    ``values[offsets[i]:offsets[i + 1]]`` of its largest value (smallest
    with ``lowest``), the first of equals, NaN never chosen; -1 for a pair
    with no child or only NaN.  (n,) int64 for n + 1 offsets; offsets must
    rise from 0 to at most len(values)."""
    cdef Py_ssize_t i, k, n = offsets.shape[0] - 1, at
    cdef double v, best
    if n < 0 or offsets[0] != 0:
        raise ValueError("offsets must hold n + 1 >= 1 entries from 0")
    for i in range(n):
        if offsets[i + 1] < offsets[i]:
            raise ValueError(f"offsets must not decrease (offsets[{i + 1}] < offsets[{i}])")
    if offsets[n] > values.shape[0]:
        raise ValueError(f"offsets end at {offsets[n]}, past the {values.shape[0]} values")
    out = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] o = out
    with nogil:
        for i in range(n):
            at = -1
            best = 0.0
            for k in range(offsets[i], offsets[i + 1]):
                v = values[k]
                if v != v:
                    continue
                if at < 0 or (v < best if lowest else v > best):
                    best = v
                    at = k - offsets[i]
            o[i] = at
    return out
