# Dice for the kernels: uniform draws from a numpy bit generator, the
# opening throw and the stratified first two rolls of rollouts.  All
# inline: nothing to link (_dice.pyx shows the opening throws to Python).
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


cdef enum:
    OPENING_THROWS = 30        # two different dice, in order (RULES 2.2)
    DISTINCT_ROLLS = 21        # a double or two different dice (RULES 2.1)


cdef inline void distinct_roll(int k, int* high, int* low, double* weight) noexcept nogil:
    """The ``k``-th of the 21 distinct rolls, high die first, in order
    1-1, 2-1, 2-2, 3-1, ..., 6-6, and its chance among the 36 ordered
    throws (1/36 a double, 2/36 two different dice)."""
    cdef int a = 1
    while k >= a:
        k -= a
        a += 1
    high[0] = a
    low[0] = k + 1
    weight[0] = (1.0 if a == k + 1 else 2.0) / 36.0


cdef inline void opening_throw(int k, int* first, int* second) noexcept nogil:
    """The ``k``-th of the 30 equally likely opening throws (RULES 2.2: each
    side throws one die, ties are thrown again): ``first`` is the die of one
    side, ``second`` the other's, never equal; the higher moves first with
    both.  In order (1, 2), (1, 3), ..., (6, 5)."""
    first[0] = k // 5 + 1
    second[0] = k % 5 + 1
    if second[0] >= first[0]:
        second[0] += 1


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


cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    # splitmix64's finaliser: a counter in, 64 well-mixed bits out.
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef inline uint32_t game_uniform(uint64_t key, int64_t game_index, int64_t ply, uint32_t n) noexcept nogil:
    """Uniform in [0, n) for (key, game, ply): a function of the three alone."""
    cdef uint64_t x = _mix(_mix(key ^ (<uint64_t>game_index * 0x9E3779B97F4A7C15ULL)) + <uint64_t>ply)
    return <uint32_t>(((x >> 32) * n) >> 32)


cdef inline void game_roll(uint64_t key, int64_t game_index, int64_t ply, bint stratify,
                           int* d1, int* d2) noexcept nogil:
    """The dice of ply ``ply`` of game ``game_index`` of the games keyed by
    ``key``: a function of the three alone (counter-based), so the same
    game of two rollouts with one key sees the same dice however its
    earlier games went (duplicate dice for comparing plays).  With
    ``stratify`` game i takes ordered roll i mod 36 first and (i // 36) mod
    36 second."""
    cdef int k
    if stratify and ply < 2:
        k = <int>((game_index if ply == 0 else game_index // 36) % 36)
    else:
        k = <int>game_uniform(key, game_index, ply, 36)
    d1[0] = k // 6 + 1
    d2[0] = k % 6 + 1
