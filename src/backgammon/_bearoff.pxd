# Bear-off databases (docs/formats.md): positions of up to N checkers on the six
# home points, indexed as GNU Backgammon does, and lookups that other kernels
# (the rollout loop, evaluators) can cimport.
from libc.stdint cimport uint8_t, uint16_t, int32_t

cdef enum:
    HOME_POINTS = 6
    ROLLS_KEPT = 32            # one-sided: P(exactly i rolls), i = 0..31
    MAX_CHECKERS = 15
    TS_FIELDS = 4              # two-sided: cubeless, owned, centred, opponent owns

cdef int32_t positions_up_to(int checkers) noexcept nogil
cdef int32_t position_index(const uint8_t* counts) noexcept nogil
cdef void index_position(int32_t index, uint8_t* counts) noexcept nogil
cdef int32_t row_index(const uint8_t* row, int checkers) noexcept nogil

cdef inline const uint16_t* os_distribution(const uint16_t* table, int32_t index) noexcept nogil:
    """Row ``index`` of a one-sided table of ROLLS_KEPT uint16 per position."""
    return table + <Py_ssize_t>index * ROLLS_KEPT

cdef inline const uint16_t* ts_record(const uint16_t* table, int32_t n_positions,
                                      int32_t on_roll, int32_t opponent) noexcept nogil:
    """The TS_FIELDS uint16 of a two-sided table for (on roll, opponent)."""
    return table + (<Py_ssize_t>on_roll * n_positions + opponent) * TS_FIELDS

ctypedef struct RaceTables:
    # The tables a race estimate reads; two_sided may be NULL.
    const uint16_t* one_sided          # (54264, 32) P(all off in exactly i rolls)
    const uint16_t* gammon             # (54264, 32) P(first checker off in exactly i rolls)
    const uint16_t* two_sided          # (P * P, TS_FIELDS) records
    int32_t two_sided_positions        # P
    int two_sided_checkers

cdef void race_estimate(const RaceTables* t, const uint8_t* board, double* out) noexcept nogil
cdef int set_race_tables(RaceTables* t, one_sided, gammon, two_sided, int two_sided_checkers) except -1
