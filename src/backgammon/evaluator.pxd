# backgammon's public Cython API: the native evaluator protocol
# (backgammon.h says it in full; docs/cython-api.md shows an example).
#
# Fill a bg_evaluator (version BG_EVALUATOR_VERSION, context, evaluate,
# optionally prune with prune_keep and prune_within) and return it in a
# PyCapsule named BG_EVALUATOR_CAPSULE from your object's
# __backgammon_evaluator__() method; the game loop then calls evaluate
# (and prune) without the GIL on batches of boards.
from libc.stdint cimport uint8_t

cdef extern from "backgammon/backgammon.h":
    ctypedef int (*bg_evaluate_fn)(void* context, const uint8_t* boards, Py_ssize_t n, float* out) noexcept nogil
    ctypedef struct bg_evaluator:
        int version
        void* context
        bg_evaluate_fn evaluate
        bg_evaluate_fn prune
        int prune_keep
        float prune_within
    enum:
        BG_EVALUATOR_VERSION
    const char* BG_EVALUATOR_CAPSULE
