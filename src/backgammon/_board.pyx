# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Validation of position arrays, one board or a batch, without the GIL."""
from libc.stdint cimport uint8_t


cdef BoardProblem check_board(const uint8_t* board) noexcept nogil:
    cdef int i, n0 = 0, n1 = 0
    for i in range(SLOTS):
        n0 += board[i]
        n1 += board[SLOTS + i]
    if n0 > CHECKERS:
        return TOO_MANY_CHECKERS_OPPONENT
    if n1 > CHECKERS:
        return TOO_MANY_CHECKERS_ON_ROLL
    if n0 == 0 and n1 == 0:
        return NO_CHECKERS
    # The opponent's checkers on my point i+1 sit at its index 23 - i.
    for i in range(POINTS):
        if board[SLOTS + i] and board[POINTS - 1 - i]:
            return SHARED_POINT
    return BOARD_OK


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
