# The networks' inputs (docs/evaluation.md): which evaluator answers for a
# position, and the sparse inputs of a position in each input layout.
from libc.stdint cimport uint8_t, int32_t

cdef enum:
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
    MAX_NONZERO = 256          # nonzero inputs of one position: at most 2 x (2 x 25 + 1) + 46

cdef enum PositionClass:
    # Which evaluator answers for a position.
    CLASS_OVER = 0             # a side has borne off every checker: exact
    CLASS_BEAROFF = 1          # both sides home: the bear-off tables
    CLASS_RACE = 2             # no contact: the race network
    CLASS_CONTACT = 3          # the contact network
    CLASS_CRASHED = 4          # contact where a side has crashed: the crashed network (else contact)

cdef PositionClass position_class(const uint8_t* board) noexcept nogil
# The nonzero inputs of a position (row 1 on roll) in the layout that
# n_inputs names, as indices and values; returns how many.  Without
# ``mine`` the units of the side on roll are left out (a network's hidden
# layer may have them summed in already).
cdef int encode(const uint8_t* board, int n_inputs, int32_t* index, float* value, bint mine) noexcept nogil
# The units of one side's row, from input ``base`` on, appended at n.
cdef int side_units(const uint8_t* row, int base, int32_t* index, float* value, int n) noexcept nogil
