# Tesauro's 198 TD-Gammon inputs of a board (the environments' observations
# and the lockstep games' encoding), inlined where they are made.
from libc.stdint cimport uint8_t
from libc.string cimport memcpy
from backgammon._board cimport SLOTS, BAR

cdef enum:
    TESAURO_UNITS = 198

# The four units of a point holding c checkers, for every byte c, as one
# flat (256 x 4) table: at least 1, 2, 3, then (c - 3) / 2.
cdef const float* units_table() noexcept nogil


cdef inline void tesauro_units(const float* units, const uint8_t* board, float* o) noexcept nogil:
    """The 198 units of one board (``units``: ``units_table()``), side on roll
    (row 1) first, every one written; the last two say whose turn it is: (1, 0)."""
    cdef int side, p, base, total
    cdef const uint8_t* row
    for side in range(2):
        row = board + (1 - side) * SLOTS
        base = 98 * side
        total = 0
        for p in range(24):
            total += row[p]
            memcpy(o + base + 4 * p, units + 4 * row[p], 4 * sizeof(float))
        total += row[BAR]
        o[base + 96] = row[BAR] / 2.0
        o[base + 97] = (15 - total) / 15.0
    o[196] = 1.0
    o[197] = 0.0
