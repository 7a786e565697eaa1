# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Validation of position arrays, one board or a batch, without the GIL."""
from libc.stdint cimport uint8_t


cdef extern from "_bits.h":
    int bg_check_board(const uint8_t* b) nogil


cdef BoardProblem check_board(const uint8_t* board) noexcept nogil:
    # Totals per side, then the opponent's checkers on my point i+1 (its
    # index 23 - i) against mine, as bit masks.
    return <BoardProblem>bg_check_board(board)


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
