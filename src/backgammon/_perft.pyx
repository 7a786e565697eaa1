# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Perft: the leaves of the game tree that expands each of the 21 rolls
into each distinct play, the standard count that checks a move generator
(and times it)."""
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport calloc, free

from backgammon._board cimport SLOTS
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._checks cimport board_bytes

cpdef enum:
    MAX_PERFT_DEPTH = 4   # perft(4) of the opening runs for hours; deeper never ends


cdef uint64_t _perft(Generator* g, const uint8_t* board, int depth, uint8_t* levels) noexcept nogil:
    cdef uint64_t total = 0
    cdef int d1, d2, n, j, i, n_me = 0, n_opp = 0
    if depth == 0:
        return 1
    for i in range(SLOTS):
        n_me += board[SLOTS + i]
        n_opp += board[i]
    if n_me == 0 or n_opp == 0:
        return 1  # a finished game is a leaf
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            if depth == 1:
                total += generate(g, board, d1, d2, NULL, NULL, True)
            else:
                n = generate(g, board, d1, d2, levels, NULL, True)
                for j in range(n):
                    total += _perft(g, levels + <Py_ssize_t>j * BOARD_BYTES, depth - 1,
                                    levels + <Py_ssize_t>MAX_PLAYS * BOARD_BYTES)
    return total


def perft(bytes board, int depth):
    """Leaves of the tree expanding all 21 rolls into all distinct plays,
    ``depth`` plies deep from the 50-byte ``board``."""
    cdef uint64_t total
    cdef uint8_t* levels
    cdef Generator* g
    cdef const uint8_t* start = board_bytes("board", board)
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ValueError(f"depth must be 0 to {MAX_PERFT_DEPTH}")
    levels = <uint8_t*>calloc(<size_t>max(depth, 1) * MAX_PLAYS, BOARD_BYTES)
    g = new_generator()
    if levels == NULL or g == NULL:
        free(levels)
        free(g)
        raise MemoryError()
    with nogil:
        total = _perft(g, start, depth, levels)
    free(levels)
    free(g)
    return total
