# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A third party's evaluator in the kernels (the native evaluator
protocol, backgammon.h): chances of a batch of boards as float32, without
the GIL.  The game loop asks a ``Judge`` for its choices and values, so
the built-in networks and a native evaluator play through one loop.

A native evaluator's choice of a play: finished games get their exact
result; the other children go to it in one batch, after its pruner (when
it has one) has ranked them all and kept its best few; the play of the
lowest equity for the side then on roll is chosen, the first of equals.
"""
from libc.stdint cimport uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from cpython.pycapsule cimport PyCapsule_IsValid, PyCapsule_GetPointer

import numpy as np

from backgammon._board cimport SLOTS, game_over
from backgammon._checks cimport need_valid_boards
from backgammon._movegen cimport MAX_PLAYS, BOARD_BYTES
from backgammon._ranking cimport keep_lowest, sort_ascending
from backgammon._forward cimport Networks, OUTPUTS, MAX_PRUNE_KEEP, finished_chances, equity


cdef const bg_evaluator* evaluator_of(object obj) except NULL:
    cdef const bg_evaluator* ev
    get = getattr(obj, "__backgammon_evaluator__", None)
    if get is None:
        raise TypeError(f"evaluator: {type(obj).__name__} is not a native evaluator "
                        f"(it has no __backgammon_evaluator__ method)")
    capsule = get()
    if not PyCapsule_IsValid(capsule, BG_EVALUATOR_CAPSULE):
        raise TypeError("evaluator: __backgammon_evaluator__() must return a PyCapsule named "
                        "'backgammon.evaluator'")
    ev = <const bg_evaluator*>PyCapsule_GetPointer(capsule, BG_EVALUATOR_CAPSULE)
    if ev.version != BG_EVALUATOR_VERSION:
        raise ValueError(f"evaluator: protocol version {ev.version}, this package speaks {BG_EVALUATOR_VERSION}")
    if ev.evaluate == NULL:
        raise ValueError("evaluator: its evaluate function is NULL")
    if ev.prune != NULL and not 1 <= ev.prune_keep <= MAX_PRUNE_KEEP:
        raise ValueError(f"evaluator: prune_keep must be 1..{MAX_PRUNE_KEEP} with a pruner, not {ev.prune_keep}")
    if ev.prune != NULL and not ev.prune_within >= 0:
        raise ValueError(f"evaluator: prune_within must be >= 0, not {ev.prune_within}")
    return ev


cdef int judge_open(Judge* j, object nets, object native) except -1:
    j.nets = NULL
    j.native = NULL
    j.boards = NULL
    j.chances = NULL
    j.index = NULL
    j.failed = 0
    if native is not None:
        j.native = evaluator_of(native)
        j.boards = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
        j.chances = <float*>malloc(MAX_PLAYS * OUTPUTS * sizeof(float))
        j.index = <int*>malloc(MAX_PLAYS * sizeof(int))
        if j.boards == NULL or j.chances == NULL or j.index == NULL:
            judge_close(j)
            raise MemoryError()
    elif nets is not None:
        j.nets = &(<Networks?>nets).ev
    return 0


cdef void judge_close(Judge* j) noexcept:
    free(j.boards)
    free(j.chances)
    free(j.index)
    j.boards = NULL
    j.chances = NULL
    j.index = NULL


cdef int _pruned(Judge* j, int m) noexcept nogil:
    # Keep, in j.boards and j.index, the prune_keep children the pruner
    # ranks lowest (stable), those within prune_within of its best; their
    # number, or -1 when the pruner failed.
    cdef const bg_evaluator* ev = j.native
    cdef int keep = ev.prune_keep, i, kept = 0, top[MAX_PRUNE_KEEP]
    cdef float score[MAX_PRUNE_KEEP]
    if ev.prune(ev.context, j.boards, m, j.chances) != 0:
        return -1
    for i in range(m):
        kept = keep_lowest(top, score, kept, keep, i, equity(j.chances + i * OUTPUTS))
    # In the children's order, so that the first of equals wins.
    m = 0
    for i in range(kept):
        if score[i] <= score[0] + ev.prune_within:
            m += 1
    sort_ascending(top, m)
    for i in range(m):
        if top[i] != i:
            memcpy(j.boards + i * BOARD_BYTES, j.boards + top[i] * BOARD_BYTES, BOARD_BYTES)
            j.index[i] = j.index[top[i]]
    return m


cdef int native_best(Judge* j, const uint8_t* children, int n, float* best) noexcept nogil:
    cdef const bg_evaluator* ev = j.native
    cdef int k, i, m = 0, at = -1
    cdef float p[OUTPUTS]
    cdef float e, low = 0.0
    cdef const uint8_t* child
    for k in range(n):
        child = children + k * BOARD_BYTES
        if game_over(child):
            finished_chances(child, p)
            e = equity(p)
            if at < 0 or e < low:
                low = e
                at = k
                memcpy(best, p, OUTPUTS * sizeof(float))
        else:
            memcpy(j.boards + m * BOARD_BYTES, child, BOARD_BYTES)
            j.index[m] = k
            m += 1
    if m == 0:
        return at if at >= 0 else 0
    if ev.prune != NULL and m > ev.prune_keep:
        m = _pruned(j, m)
        if m < 0:
            j.failed = 1
            return 0
    if ev.evaluate(ev.context, j.boards, m, j.chances) != 0:
        j.failed = 1
        return 0
    for i in range(m):
        e = equity(j.chances + i * OUTPUTS)
        k = j.index[i]
        if at < 0 or e < low or (e == low and k < at):
            low = e
            at = k
            memcpy(best, j.chances + i * OUTPUTS, OUTPUTS * sizeof(float))
    return at


cdef void native_board(Judge* j, const uint8_t* board, float* out) noexcept nogil:
    if game_over(board):
        finished_chances(board, out)
    elif j.native.evaluate(j.native.context, board, 1, out) != 0:
        j.failed = 1


def evaluate(evaluator, const uint8_t[:, :, ::1] boards):
    """The chances (n, 5) float32 of the side on roll of each board from a
    native evaluator (exact for finished games), without the GIL."""
    cdef Judge j
    cdef Py_ssize_t i = 0, k, n = boards.shape[0]
    need_valid_boards("boards", boards)
    judge_open(&j, None, evaluator)
    out = np.zeros((n, OUTPUTS), dtype=np.float32)
    cdef float[:, ::1] o = out
    with nogil:
        # Runs of games going on in one call each; finished games exactly.
        while i < n and not j.failed:
            if game_over(&boards[i, 0, 0]):
                finished_chances(&boards[i, 0, 0], &o[i, 0])
                i += 1
                continue
            k = i + 1
            while k < n and not game_over(&boards[k, 0, 0]):
                k += 1
            if j.native.evaluate(j.native.context, &boards[i, 0, 0], k - i, &o[i, 0]) != 0:
                j.failed = 1
            i = k
    judge_close(&j)
    if j.failed:
        raise RuntimeError(f"the native evaluator {evaluator!r} failed")
    return out
