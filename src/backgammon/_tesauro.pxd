# Tesauro's 198 TD-Gammon inputs of a board (the environments' observations
# and the lockstep games' encoding).
from libc.stdint cimport uint8_t

cdef enum:
    TESAURO_UNITS = 198

# The 198 units of one board, side on roll (row 1) first, every one written;
# the last two say whose turn it is: (1, 0).
cdef void tesauro_units(const uint8_t* board, float* o) noexcept nogil
