# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Tesauro's TD-Gammon inputs (see _tesauro.pxd)."""
from libc.stdint cimport uint8_t

import numpy as np

from backgammon._checks cimport need_boards

# Any byte, so that garbage boards stay in bounds.
cdef float UNITS[256 * 4]
cdef int _c
for _c in range(256):
    UNITS[4 * _c] = _c >= 1
    UNITS[4 * _c + 1] = _c >= 2
    UNITS[4 * _c + 2] = _c >= 3
    UNITS[4 * _c + 3] = (_c - 3) / 2.0 if _c > 3 else 0.0


cdef const float* units_table() noexcept nogil:
    return UNITS


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
            tesauro_units(UNITS, &boards[i, 0, 0], &o[i, 0])
    return out
