# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The networks' search: n-ply evaluation (each ply averages over the 21
rolls of the side on roll, each with its best play at 0-ply) and the
choice of a play with gnubg's move filters, with their Python entry
points (``evaluate``, ``choose``, ``rank_plays``).
"""
from libc.stdint cimport uint8_t, int32_t
from libc.stdlib cimport malloc, calloc, free

import numpy as np

from backgammon._dice cimport DISTINCT_ROLLS, distinct_roll
from backgammon._checks cimport need_valid_boards, need_valid_board, need_rolls, need_shape
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._features cimport PositionClass, position_class, CLASS_OVER, CLASS_BEAROFF
from backgammon._forward cimport (Networks, Evaluator, Work, OUTPUTS, evaluate_board, best_child, equity, flip,
                                  consistent)


# The 21 rolls, high die first, and their weight among the 36.
cdef int ROLL_HI[DISTINCT_ROLLS]
cdef int ROLL_LO[DISTINCT_ROLLS]
cdef float ROLL_WEIGHT[DISTINCT_ROLLS]
cdef double _weight
cdef int _k
for _k in range(DISTINCT_ROLLS):
    distinct_roll(_k, &ROLL_HI[_k], &ROLL_LO[_k], &_weight)
    ROLL_WEIGHT[_k] = _weight


ctypedef struct Search:
    Generator* g
    uint8_t* children[4]       # one buffer of MAX_PLAYS boards per level below the root
    Work work


cdef Search* _new_search() noexcept nogil:
    cdef Search* s = <Search*>calloc(1, sizeof(Search))
    cdef int i
    if s == NULL:
        return NULL
    s.g = new_generator()
    for i in range(4):
        s.children[i] = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    if s.g == NULL or s.children[0] == NULL or s.children[1] == NULL or s.children[2] == NULL or s.children[3] == NULL:
        _free_search(s)
        return NULL
    return s


cdef void _free_search(Search* s) noexcept nogil:
    cdef int i
    if s != NULL:
        free(s.g)
        for i in range(4):
            free(s.children[i])
        free(s)


cdef void evaluate_ply(const Evaluator* ev, Search* s, const uint8_t* board, int ply, float* out) noexcept nogil:
    """The five chances of the side on roll at ``ply``: 0 is the network;
    n averages over the 21 rolls of the side on roll, each with its best
    play at 0-ply, the other side's chances after it at n - 1."""
    cdef PositionClass cls = position_class(board)
    cdef int r, k, n, i
    cdef float p[OUTPUTS]
    cdef float q[OUTPUTS]
    cdef uint8_t* buf
    if ply <= 0 or cls == CLASS_OVER or cls == CLASS_BEAROFF:
        evaluate_board(ev, board, out, &s.work)
        return
    buf = s.children[ply - 1]
    for i in range(OUTPUTS):
        out[i] = 0.0
    for r in range(21):
        n = generate(s.g, board, ROLL_HI[r], ROLL_LO[r], buf, NULL, True)
        k = best_child(ev, buf, n, &s.work)
        evaluate_ply(ev, s, buf + k * BOARD_BYTES, ply - 1, p)
        flip(p, q)
        for i in range(OUTPUTS):
            out[i] += ROLL_WEIGHT[r] * q[i]
    consistent(out)


cdef int _choose(const Evaluator* ev, Search* s, const uint8_t* children, int n, int ply,
                 float* probs, int* depth, int keep0, float within0, int keep1, float within1) noexcept nogil:
    # The best play for the side that moved, searched to ``ply`` with
    # gnubg-style move filters: all plays at 0-ply; at most keep0 within
    # within0 of the best go to 1-ply; of those, at most keep1 within
    # within1 go to 2-ply.  probs (n x 5, the mover's chances) and depth
    # (the ply each play reached) are filled for every play.
    cdef int k, j, level, best = 0, kept
    cdef float p[OUTPUTS]
    cdef float top, e
    cdef int order[MAX_PLAYS]
    cdef float value[MAX_PLAYS]
    for k in range(n):
        evaluate_board(ev, children + k * BOARD_BYTES, p, &s.work)
        flip(p, probs + k * OUTPUTS)
        depth[k] = 0
        value[k] = equity(probs + k * OUTPUTS)
    for level in range(1, ply + 1):
        # Rank the plays of the previous level, best first (stable).
        kept = 0
        for k in range(n):
            if depth[k] == level - 1:
                j = kept
                while j > 0 and value[order[j - 1]] < value[k]:
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = k
                kept += 1
        if kept <= 1:
            break
        top = value[order[0]]
        j = 0
        while j < kept and j < (keep0 if level == 1 else keep1) and \
                value[order[j]] >= top - (within0 if level == 1 else within1):
            k = order[j]
            evaluate_ply(ev, s, children + k * BOARD_BYTES, level, p)
            flip(p, probs + k * OUTPUTS)
            depth[k] = level
            value[k] = equity(probs + k * OUTPUTS)
            j += 1
    # The best of the deepest level reached.
    level = 0
    for k in range(n):
        if depth[k] > level:
            level = depth[k]
    e = -1e30
    for k in range(n):
        if depth[k] == level and value[k] > e:
            e = value[k]
            best = k
    return best



def evaluate(Networks nets, const uint8_t[:, :, ::1] boards, int ply=0, out=None):
    """The five chances of the side on roll of each board at ``ply``
    (0 to 3), float32 (n, 5), or written into ``out`` (a C-contiguous
    (n, 5) float32 or float64 array, returned).  Boards are validated."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef Search* s
    cdef float p[OUTPUTS]
    cdef int j
    if not 0 <= ply <= 3:
        raise ValueError("ply must be 0..3")
    need_valid_boards("boards", boards)
    if out is None:
        out = np.zeros((n, OUTPUTS), dtype=np.float32)
    elif not isinstance(out, np.ndarray) or out.shape != (n, OUTPUTS) or out.dtype not in (np.float32, np.float64) \
            or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"out must be a writeable C-contiguous float32 or float64 array of shape ({n}, 5)")
    if n == 0:
        return out
    cdef bint wide = out.dtype == np.float64
    cdef float[:, ::1] o
    cdef double[:, ::1] d
    if wide:
        d = out
    else:
        o = out
    s = _new_search()
    if s == NULL:
        raise MemoryError()
    with nogil:
        for i in range(n):
            if wide:
                evaluate_ply(&nets.ev, s, &boards[i, 0, 0], ply, p)
                for j in range(OUTPUTS):
                    d[i, j] = p[j]
            else:
                evaluate_ply(&nets.ev, s, &boards[i, 0, 0], ply, &o[i, 0])
    _free_search(s)
    return out


def choose(Networks nets, const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, int ply=0,
           int keep0=8, float within0=0.16, int keep1=2, float within1=0.04):
    """The index of the best play (in the move generator's order) for each
    (board, roll) at ``ply`` with the move filters, (n,) int32."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int m
    cdef Search* s
    cdef uint8_t* kids
    cdef float* probs
    cdef int* depth
    if not 0 <= ply <= 2:
        raise ValueError("ply must be 0, 1 or 2")
    need_valid_boards("boards", boards)
    need_rolls("rolls", rolls, n)
    out = np.zeros(n, dtype=np.int32)
    cdef int32_t[::1] o = out
    s = _new_search()
    kids = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    probs = <float*>malloc(MAX_PLAYS * OUTPUTS * sizeof(float))
    depth = <int*>malloc(MAX_PLAYS * sizeof(int))
    if s == NULL or kids == NULL or probs == NULL or depth == NULL:
        _free_search(s); free(kids); free(probs); free(depth)
        raise MemoryError()
    with nogil:
        for i in range(n):
            m = generate(s.g, &boards[i, 0, 0], rolls[i, 0], rolls[i, 1], kids, NULL, True)
            o[i] = _choose(&nets.ev, s, kids, m, ply, probs, depth, keep0, within0, keep1, within1) if m > 1 else 0
    _free_search(s); free(kids); free(probs); free(depth)
    return out


def rank_plays(Networks nets, const uint8_t[:, ::1] children, int ply=0,
               int keep0=8, float within0=0.16, int keep1=2, float within1=0.04):
    """Chances of the side that played (n, 5) and the ply each play was
    searched to (n,), for the plays of one roll given as their resulting
    boards (n, 50), next mover's view."""
    cdef Py_ssize_t n = children.shape[0], i
    cdef Search* s
    if not 0 <= ply <= 2:
        raise ValueError("ply must be 0, 1 or 2")
    need_shape("children", children.shape[1] == BOARD_BYTES, "(n, 50)")
    if n == 0 or n > MAX_PLAYS:
        raise ValueError(f"children must hold 1 to {MAX_PLAYS} plays, not {n}")
    for i in range(n):
        need_valid_board("children", &children[i, 0])
    probs = np.zeros((n, OUTPUTS), dtype=np.float32)
    depth = np.zeros(n, dtype=np.intc)
    cdef float[:, ::1] p = probs
    cdef int[::1] d = depth
    s = _new_search()
    if s == NULL:
        raise MemoryError()
    with nogil:
        _choose(&nets.ev, s, &children[0, 0], <int>n, ply, &p[0, 0], &d[0], keep0, within0, keep1, within1)
    _free_search(s)
    return probs, depth


