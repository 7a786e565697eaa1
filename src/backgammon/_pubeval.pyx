# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Tesauro's pubeval (see _pubeval.pxd): loading its weights and scoring
batches of positions from Python."""
from libc.stdint cimport uint8_t

import numpy as np

from backgammon._board cimport no_contact
from backgammon._checks cimport need_valid_boards, need_rows

cdef Pubeval _weights
_weights.ready = False


cdef const Pubeval* weights() noexcept nogil:
    return &_weights


def set_weights(const double[:, ::1] weights):
    """Load the (122, 2) weights: column 0 contact, column 1 race
    (data/pubeval_weights.csv's layout)."""
    cdef int race, j, n, k, p
    cdef double w[5]
    if weights.shape[0] != 122 or weights.shape[1] != 2:
        raise ValueError("weights must have shape (122, 2)")
    for race in range(2):
        for j in range(1, 25):
            p = 25 - j                       # input block j is the mover's point 25 - j
            for k in range(5):
                w[k] = weights[5 * (j - 1) + k, race]
            for n in range(-15, 16):
                _weights.table[race][p - 1][n + 15] = (
                    (w[0] if n == -1 else 0.0) + (w[1] if n == 1 else 0.0) + (w[2] if n >= 2 else 0.0)
                    + (w[3] if n == 3 else 0.0) + (w[4] * (n - 3) / 2.0 if n >= 4 else 0.0))
        _weights.bar[race] = weights[120, race] / 2.0
        _weights.off[race] = weights[121, race] / 15.0
    _weights.ready = True


def loaded():
    """Whether the weights are loaded."""
    return bool(_weights.ready)


def pubeval_batch(const uint8_t[:, :, ::1] boards, race=None):
    """pubeval of each board for the side of row 0 (the side that just
    played); ``race`` (n bools) chooses the weights, by default from each
    board itself."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef uint8_t[::1] r
    if not _weights.ready:
        raise RuntimeError("pubeval weights are not loaded")
    need_valid_boards("boards", boards)
    if race is None:
        flags = np.empty(n, dtype=np.uint8)
        r = flags
        with nogil:
            for i in range(n):
                r[i] = no_contact(&boards[i, 0, 0])
    else:
        flags = np.ascontiguousarray(race, dtype=np.uint8)
        if flags.ndim != 1:
            raise ValueError("race must have shape (n,)")
        need_rows("race", flags.shape[0], n)
        r = flags
    out = np.empty(n)
    cdef double[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = pubeval(&_weights, &boards[i, 0, 0], r[i] != 0)
    return out
