# The neural network evaluator (docs/evaluation.md): single-hidden-layer
# networks for contact, crashed and race positions, and the bear-off tables
# for races where both sides are home.  Every evaluation gives the five
# cubeless chances of the side on roll (row 1): win, win gammon, win
# backgammon, lose gammon, lose backgammon (gammons include backgammons).
from libc.stdint cimport uint8_t, int32_t
from backgammon._bearoff cimport RaceTables

cdef enum:
    OUTPUTS = 5
    UNITS_PER_SLOT = 4         # n == 1, n == 2, n >= 3, (n - 3) / 2
    SIDE_UNITS = 101           # 25 slots x 4 units, then borne off / 15
    RAW_INPUTS = 202           # the side on roll, then its opponent
    SIDE_FEATURES_1 = 8        # the first layout's features of each side
    SIDE_FEATURES = 23         # the second layout's: the first eight, then fifteen more
    CONTACT_INPUTS_1 = 218     # RAW_INPUTS + 2 x SIDE_FEATURES_1
    CONTACT_INPUTS = 248       # RAW_INPUTS + 2 x SIDE_FEATURES
    RACE_FEATURES = 4
    RACE_INPUTS_1 = 204        # RAW_INPUTS + the two pip counts
    RACE_INPUTS = 210          # RAW_INPUTS + 2 x RACE_FEATURES
    PRUNE_INPUTS = 202         # the pruning network sees the raw units only
    PRUNE_KEEP = 5             # plays a pruned choice evaluates in full
    MAX_PRUNE_KEEP = 16
    MAX_HIDDEN = 512
    MAX_NONZERO = 256          # nonzero inputs of one position: at most 2 x (2 x 25 + 1) + 46

cdef enum PositionClass:
    # Which evaluator answers for a position.
    CLASS_OVER = 0             # a side has borne off every checker: exact
    CLASS_BEAROFF = 1          # both sides home: the bear-off tables
    CLASS_RACE = 2             # no contact: the race network
    CLASS_CONTACT = 3          # the contact network
    CLASS_CRASHED = 4          # contact where a side has crashed: the crashed network (else contact)

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

cdef PositionClass position_class(const uint8_t* board) noexcept nogil
cdef int encode(const uint8_t* board, const Net* net, int32_t* index, float* value) noexcept nogil
cdef const Net* net_for(const Evaluator* ev, PositionClass cls) noexcept nogil
cdef void evaluate_board(const Evaluator* ev, const uint8_t* board, float* out, Work* w) noexcept nogil
cdef float equity(const float* p) noexcept nogil
cdef int best_child(const Evaluator* ev, const uint8_t* children, int n, Work* w) noexcept nogil
cdef int best_child_chances(const Evaluator* ev, const uint8_t* children, int n, Work* w,
                            float* best) noexcept nogil

cdef class Networks:
    cdef Evaluator ev
    cdef readonly dict arrays
    cdef object _tables
