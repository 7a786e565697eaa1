# Checks on the position array shared by every kernel (docs/design.md: uint8[2][25],
# row 1 = side on roll, index 24 = bar, borne-off checkers implicit).
from libc.stdint cimport uint8_t

cpdef enum:
    POINTS = 24
    BAR = 24
    SLOTS = 25
    CHECKERS = 15

# Reasons a board is not a position; 0 = valid (defined once, in _bits.h;
# Python reads them as _board.BoardProblem).  Messages live in Python.
cdef extern from "_bits.h":
    cpdef enum BoardProblem:
        BOARD_OK
        TOO_MANY_CHECKERS_OPPONENT
        TOO_MANY_CHECKERS_ON_ROLL
        SHARED_POINT
        NO_CHECKERS
        BAD_DICE

cdef BoardProblem check_board(const uint8_t* board) noexcept nogil

cdef bint no_contact(const uint8_t* board) noexcept nogil
cdef bint both_home(const uint8_t* board) noexcept nogil
cdef int loss_kind(const uint8_t* loser) noexcept nogil
cdef void starting_position(uint8_t* board) noexcept nogil


cdef inline bint game_over(const uint8_t* board) noexcept nogil:
    # The game is over once either side has borne off all its checkers
    # (RULES 6.1): the one test of the kernels' game loops.
    cdef int i, a = 0, b = 0
    for i in range(SLOTS):
        a += board[i]
        b += board[SLOTS + i]
    return a == 0 or b == 0


ctypedef fused real:
    float
    double


cdef inline real cubeless_equity(const real* p) noexcept nogil:
    """The cubeless money equity of the five outcome chances of a side (win,
    win gammon, win backgammon, lose gammon, lose backgammon; gammons
    include backgammons): 2 win - 1 + the gammon and backgammon shares."""
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]
