# Checks on the position array shared by every kernel (DESIGN.md: uint8[2][25],
# row 1 = side on roll, index 24 = bar, borne-off checkers implicit).
from libc.stdint cimport uint8_t

cdef enum:
    POINTS = 24
    BAR = 24
    SLOTS = 25
    CHECKERS = 15

# Reasons a board is not a position; 0 = valid.  Messages live in Python.
cdef enum BoardProblem:
    BOARD_OK = 0
    TOO_MANY_CHECKERS_OPPONENT = 1
    TOO_MANY_CHECKERS_ON_ROLL = 2
    SHARED_POINT = 3
    NO_CHECKERS = 4

cdef BoardProblem check_board(const uint8_t* board) noexcept nogil

cdef bint no_contact(const uint8_t* board) noexcept nogil
cdef bint both_home(const uint8_t* board) noexcept nogil
cdef int loss_kind(const uint8_t* loser) noexcept nogil
