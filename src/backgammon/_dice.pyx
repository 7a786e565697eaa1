# cython: language_level=3, boundscheck=False, wraparound=False
"""The opening throws of the kernels (``_dice.pxd``), for Python."""
import numpy as np

from backgammon._dice cimport OPENING_THROWS, opening_throw


def opening_throws():
    """The 30 opening throws (RULES 2.2) in the kernels' order, (30, 2)
    int8: one die for each side, never equal."""
    cdef int k, a, b
    out = np.empty((OPENING_THROWS, 2), dtype=np.int8)
    for k in range(OPENING_THROWS):
        opening_throw(k, &a, &b)
        out[k, 0] = a
        out[k, 1] = b
    return out
