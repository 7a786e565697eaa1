# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Validation of position arrays, one board or a batch, without the GIL."""
from libc.stdint cimport uint8_t


cdef extern from "_bits.h":
    int bg_check_board(const uint8_t* b) nogil


cdef BoardProblem check_board(const uint8_t* board) noexcept nogil:
    # Totals per side, then the opponent's checkers on my point i+1 (its
    # index 23 - i) against mine, as bit masks.
    return <BoardProblem>bg_check_board(board)


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
