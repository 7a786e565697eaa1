# Tesauro's pubeval, the public linear evaluator that benchmarks compare
# against (docs/evaluation.md): its weights as one table per point, so that
# scoring a position is 24 lookups, inlined where plays are chosen.
from libc.stdint cimport uint8_t
from libc.math cimport INFINITY
from backgammon._board cimport SLOTS, BAR

ctypedef struct Pubeval:
    # [race][mover's point p - 1][signed count + 15] and the two extra weights
    double table[2][24][31]
    double bar[2]
    double off[2]
    bint ready

# The loaded weights (``ready`` is False until set_weights is called).
cdef const Pubeval* weights() noexcept nogil


cdef inline double pubeval(const Pubeval* w, const uint8_t* board, bint race) noexcept nogil:
    """pubeval of a position after a play, for the side that played: row 0
    (the next mover's view).  All checkers off scores +infinity."""
    cdef const uint8_t* mover = board
    cdef const uint8_t* other = board + SLOTS
    cdef double s = 0.0
    cdef int p, n, left = 0
    for p in range(1, 25):
        n = mover[p - 1]
        left += n
        if not n:
            n = -other[24 - p]
        s += w.table[race][p - 1][n + 15]
    left += mover[BAR]
    if left == 0:
        return INFINITY
    return s + w.bar[race] * other[BAR] + w.off[race] * (15 - left)
