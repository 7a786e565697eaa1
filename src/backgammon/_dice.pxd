# Dice for the kernels: uniform draws from a numpy bit generator and the
# stratified first two rolls of rollouts.  All inline: nothing to link.
from libc.stdint cimport uint32_t, uint64_t, int64_t
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from numpy.random cimport bitgen_t


cdef inline uint32_t bounded(bitgen_t* rng, uint32_t n) noexcept nogil:
    """Uniform in [0, n) without bias (Lemire's multiply and reject)."""
    cdef uint64_t m = <uint64_t>rng.next_uint32(rng.state) * n
    cdef uint32_t low = <uint32_t>m, threshold
    if low < n:
        threshold = (-n) % n
        while low < threshold:
            m = <uint64_t>rng.next_uint32(rng.state) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void roll(bitgen_t* rng, int64_t game_index, int64_t ply, bint stratify, int* d1, int* d2) noexcept nogil:
    """The dice of ply ``ply`` of game ``game_index``: with ``stratify``
    game i takes ordered roll i mod 36 first and (i // 36) mod 36 second;
    later rolls (and all without it) are random."""
    cdef int k
    if stratify and ply < 2:
        k = <int>((game_index if ply == 0 else game_index // 36) % 36)
        d1[0] = k // 6 + 1
        d2[0] = k % 6 + 1
    else:
        d1[0] = <int>bounded(rng, 6) + 1
        d2[0] = <int>bounded(rng, 6) + 1


cdef inline bitgen_t* bitgen_of(object generator) except NULL:
    """The C bit generator of a numpy Generator."""
    capsule = generator.bit_generator.capsule
    if not PyCapsule_IsValid(capsule, "BitGenerator"):
        raise ValueError("not a numpy bit generator")
    return <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")
