# The networks' forward pass (docs/evaluation.md): single-hidden-layer
# networks for contact, crashed and race positions, and the bear-off tables
# for races where both sides are home.  Every evaluation gives the five
# cubeless chances of the side on roll (row 1): win, win gammon, win
# backgammon, lose gammon, lose backgammon (gammons include backgammons).
from libc.stdint cimport uint8_t, int32_t
from backgammon._bearoff cimport RaceTables
from backgammon._features cimport PositionClass, MAX_NONZERO

cdef enum:
    OUTPUTS = 5
    PRUNE_KEEP = 5             # plays a pruned choice evaluates in full
    MAX_PRUNE_KEEP = 16
    MAX_HIDDEN = 512

ctypedef struct Net:
    int n_inputs               # which layout: CONTACT_INPUTS(_1) or RACE_INPUTS(_1); 0: no network
    int n_hidden
    float* w1                  # (n_inputs, n_hidden): one row per input
    float* b1                  # (n_hidden,)
    float* w2                  # (OUTPUTS, n_hidden)
    float* b2                  # (OUTPUTS,)

ctypedef struct Evaluator:
    Net contact
    Net race
    Net crashed                # n_inputs 0 when the weights have none: contact answers
    Net prune                  # a small raw-input network ranking plays; n_inputs 0: none
    int prune_keep             # plays with contact best_child evaluates in full (0: all)
    RaceTables tables

ctypedef struct Start:
    # A network's hidden layer with the units of one row of the side on
    # roll already summed in: the children of a position share that row
    # unless the play hit.
    bint ready
    float sums[MAX_HIDDEN]

ctypedef struct Work:
    # Scratch space of one evaluation.
    int32_t index[MAX_NONZERO]
    float value[MAX_NONZERO]
    float hidden[MAX_HIDDEN]
    Start starts[4]            # best_child's: the pruning, contact, crashed and race networks

cdef const Net* net_for(const Evaluator* ev, PositionClass cls) noexcept nogil
cdef void forward(const Net* net, const int32_t* index, const float* value, int n, float* out,
                  Work* w) noexcept nogil
cdef void finished_chances(const uint8_t* board, float* out) noexcept nogil
cdef void evaluate_board(const Evaluator* ev, const uint8_t* board, float* out, Work* w) noexcept nogil
cdef void evaluate_child(const Evaluator* ev, const uint8_t* board, PositionClass cls, const uint8_t* row,
                         Start* starts, float* out, Work* w) noexcept nogil
cdef float equity(const float* p) noexcept nogil
cdef int best_child(const Evaluator* ev, const uint8_t* children, int n, Work* w) noexcept nogil
cdef float prune_score(const Evaluator* ev, const uint8_t* board, const uint8_t* row, Work* w) noexcept nogil
cdef int best_child_chances(const Evaluator* ev, const uint8_t* children, int n, Work* w,
                            float* best) noexcept nogil

cdef class Networks:
    cdef Evaluator ev
    cdef readonly dict arrays
    cdef object _tables


cdef inline void flip(const float* p, float* q) noexcept nogil:
    """The same chances seen by the other side."""
    cdef float w = p[0], wg = p[1], wb = p[2], lg = p[3], lb = p[4]
    q[0] = 1.0 - w
    q[1] = lg
    q[2] = lb
    q[3] = wg
    q[4] = wb


cdef inline void consistent(float* p) noexcept nogil:
    """Gammons among wins and backgammons among gammons (on both sides)."""
    if p[1] > p[0]:
        p[1] = p[0]
    if p[2] > p[1]:
        p[2] = p[1]
    if p[3] > 1.0 - p[0]:
        p[3] = 1.0 - p[0]
    if p[4] > p[3]:
        p[4] = p[3]
