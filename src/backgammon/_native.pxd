# The native evaluator protocol (backgammon.h, docs/cython-api.md): a third
# party's evaluator, called without the GIL, and the one interface through
# which the game loop asks for chances, whichever evaluator answers.
from libc.stdint cimport uint8_t
from backgammon._forward cimport Evaluator, Work, evaluate_board, best_child_chances

from backgammon.evaluator cimport bg_evaluate_fn, bg_evaluator, BG_EVALUATOR_VERSION, BG_EVALUATOR_CAPSULE

ctypedef struct Judge:
    # Who answers: the built-in networks (native NULL) or a native evaluator.
    const Evaluator* nets
    const bg_evaluator* native
    uint8_t* boards            # MAX_PLAYS boards handed to the native evaluator
    float* chances             # and its answers
    int* index                 # the child each of them is
    int failed                 # the native evaluator reported a failure

# The native evaluator of an object (its __backgammon_evaluator__() capsule), checked.
cdef const bg_evaluator* evaluator_of(object obj) except NULL
# A Judge over ``nets`` (a Networks or None) or, when it is not None, ``native``.
cdef int judge_open(Judge* j, object nets, object native) except -1
cdef void judge_close(Judge* j) noexcept
cdef int native_best(Judge* j, const uint8_t* children, int n, float* best) noexcept nogil
cdef void native_board(Judge* j, const uint8_t* board, float* out) noexcept nogil


cdef inline int judge_best(Judge* j, const uint8_t* children, int n, Work* w, float* best) noexcept nogil:
    """best_child_chances of whichever evaluator the judge has."""
    if j.native == NULL:
        return best_child_chances(j.nets, children, n, w, best)
    return native_best(j, children, n, best)


cdef inline void judge_board(Judge* j, const uint8_t* board, float* out, Work* w) noexcept nogil:
    """evaluate_board of whichever evaluator the judge has."""
    if j.native == NULL:
        evaluate_board(j.nets, board, out, w)
    else:
        native_board(j, board, out)
