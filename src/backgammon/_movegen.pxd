# Legal move generation (RULES 3, 4, 5): the one kernel behind Position.legal_plays,
# the batch API, perft, the game loop and the environments.
from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t, int64_t

cpdef enum:
    # A play moves at most 4 dice among at most 15 checkers, so a roll has at
    # most C(15 + 4 - 1, 4) = 3060 distinct results.
    MAX_PLAYS = 3072
    BOARD_BYTES = 50
    STEP_FIELDS = 3            # from point, to point, hit flag
    MOVE_BYTES = 12            # 4 steps x STEP_FIELDS

ctypedef struct Bits:
    # What the search reads and changes most, kept apart from Generator in a
    # local copy so that the compiler holds it in registers (bytes written
    # to the results could alias anything reached through a pointer).
    uint32_t occ               # bit i: a checker of mine on index i (24 = bar)
    uint32_t hit               # blots hit on the current path
    int hit_steps              # bit k: step k of the path hit
    int count                  # results written
    int best                   # score of the results kept (see _better)
    int me_at                  # offset of the mover's row in cur (0 or 25)
    int them_at                # offset of the opponent's row
    uint8_t* children          # may be NULL: count only
    int8_t* moves              # may be NULL

ctypedef struct Generator:
    # Search state.  cur is the current result exactly as it will be written
    # (50 bytes, rows in output order); it is changed and restored in place.
    uint8_t cur[64]
    uint32_t occupied          # my occupied indices at the start (24 = bar)
    uint32_t blocked           # bit i: my index i is closed by the opponent
    uint32_t blots             # bit i: a lone opposing checker on my index i
    int die                    # doubles: the number rolled
    int big, small             # non-doubles: the dice
    int best                   # score of the last generate's results
    int8_t path[4][3]
    uint32_t pairs[25]         # non-doubles: bit sb of pairs[sa] = step pair met
    uint32_t pairs_by_small[25]  # the same, bit sa of pairs_by_small[sb]

cdef Generator* new_generator() noexcept nogil
cdef int generate(Generator* g, const uint8_t* board, int d1, int d2,
                  uint8_t* children, int8_t* moves, bint swap) noexcept nogil
cdef int dice_used(Generator* g) noexcept nogil
