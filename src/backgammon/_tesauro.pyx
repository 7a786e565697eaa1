# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Tesauro's TD-Gammon inputs (see _tesauro.pxd)."""
from libc.stdint cimport uint8_t
from libc.string cimport memcpy

import numpy as np

from backgammon._board cimport SLOTS, BAR
from backgammon._checks cimport need_boards

# The four units of a point holding c checkers (any byte, so that garbage
# boards stay in bounds): at least 1, 2, 3, then (c - 3) / 2.
cdef float UNITS[256][4]
cdef int _c
for _c in range(256):
    UNITS[_c][0] = _c >= 1
    UNITS[_c][1] = _c >= 2
    UNITS[_c][2] = _c >= 3
    UNITS[_c][3] = (_c - 3) / 2.0 if _c > 3 else 0.0


cdef void tesauro_units(const uint8_t* board, float* o) noexcept nogil:
    cdef int side, p, base, total
    cdef const uint8_t* row
    for side in range(2):
        row = board + (1 - side) * SLOTS
        base = 98 * side
        total = 0
        for p in range(24):
            total += row[p]
            memcpy(o + base + 4 * p, &UNITS[row[p]][0], 4 * sizeof(float))
        total += row[BAR]
        o[base + 96] = row[BAR] / 2.0
        o[base + 97] = (15 - total) / 15.0
    o[196] = 1.0
    o[197] = 0.0


def tesauro_inputs(const uint8_t[:, :, ::1] boards):
    """The 198 TD-Gammon inputs of each board, float32 (n, 198): for the
    side on roll (row 1), then its opponent (row 0), 4 units per point (at
    least 1, 2, 3 checkers, then (n - 3) / 2 for more), bar / 2 and
    borne off / 15; the last two units say whose turn it is (1, 0)."""
    cdef Py_ssize_t i, n = boards.shape[0]
    need_boards("boards", boards)
    out = np.empty((n, TESAURO_UNITS), dtype=np.float32)
    cdef float[:, ::1] o = out
    with nogil:
        for i in range(n):
            tesauro_units(&boards[i, 0, 0], &o[i, 0])
    return out
