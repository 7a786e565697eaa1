# The chunk scheduler: many threads filling one CSR output in row order.
from libc.stdint cimport uint8_t, int8_t, int64_t

# One row's children (at most MAX_PLAYS) written by a thread of run_chained.
ctypedef int (*RowWriter)(void* ctx, Py_ssize_t i, uint8_t* children, int8_t* moves) noexcept nogil

cdef int run_chained(RowWriter write_row, void* ctx, Py_ssize_t n, Py_ssize_t chunk,
                     int64_t* offsets, uint8_t* children, int8_t* moves, Py_ssize_t capacity,
                     int64_t* sync) noexcept nogil

cdef class Chain:
    cdef int64_t* sync
    cdef readonly Py_ssize_t n, chunk
