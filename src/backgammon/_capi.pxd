# The functions behind the public Cython API (board.pxd, movegen.pxd,
# net.pxd, bearoff.pxd, evaluator.pxd; docs/cython-api.md).  Only opaque
# handles and plain C types cross it, so an extension built against one
# release keeps working with the next of the same major version: the
# package's own structs may change.  Each function's rules are in
# _capi.pyx.
from libc.stdint cimport uint8_t, int8_t, int32_t

cdef extern from "backgammon/backgammon.h":
    ctypedef struct bg_movegen
    ctypedef struct bg_networks
    ctypedef struct bg_scratch
    enum:
        BG_API_VERSION

cdef enum:
    # The position array (docs/design.md) and the move generator's outputs.
    BG_POINTS = 24
    BG_BAR = 24
    BG_SLOTS = 25
    BG_CHECKERS = 15
    BG_BOARD_BYTES = 50        # one position: uint8[2][25], row 1 on roll
    BG_MOVE_BYTES = 12         # one play's steps: int8[4][3] (from, to, hit)
    BG_MAX_PLAYS = 3072        # room for the plays of one (position, roll)
    BG_OUTPUTS = 5             # win, win gammon, win backgammon, lose gammon, lose backgammon
    BG_BEAROFF_POINTS = 6

cdef int bg_api_version() noexcept nogil

# board
cdef int board_check(const uint8_t* board) noexcept nogil
cdef void board_start(uint8_t* board) noexcept nogil
cdef int board_winner(const uint8_t* board, int* kind) noexcept nogil

# movegen
cdef bg_movegen* movegen_new() noexcept nogil
cdef void movegen_free(bg_movegen* g) noexcept nogil
cdef int movegen_plays(bg_movegen* g, const uint8_t* board, int d1, int d2, uint8_t* children, int8_t* moves,
                       bint mover_view) noexcept nogil
cdef int movegen_dice_used(const bg_movegen* g) noexcept nogil

# net
cdef const bg_networks* networks_get(object networks) except NULL
cdef bg_scratch* scratch_new() noexcept nogil
cdef void scratch_free(bg_scratch* s) noexcept nogil
cdef void networks_evaluate(const bg_networks* nets, const uint8_t* board, float* out, bg_scratch* s) noexcept nogil
cdef int networks_best_child(const bg_networks* nets, const uint8_t* children, int n, float* best,
                             bg_scratch* s) noexcept nogil
cdef int networks_class(const uint8_t* board) noexcept nogil

# bearoff
cdef int32_t bearoff_positions(int checkers) noexcept nogil
cdef int32_t bearoff_index(const uint8_t* counts) noexcept nogil
cdef int bearoff_counts(int32_t index, uint8_t* counts) noexcept nogil


cdef inline float chances_equity(const float* p) noexcept nogil:
    """The cubeless money equity of five chances: 2 win - 1 + win gammon
    - lose gammon + win backgammon - lose backgammon."""
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]
