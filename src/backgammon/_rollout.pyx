# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Evaluators, policies and the cubeless game loop for rollouts.

pubeval (Tesauro's public linear evaluator) is kept as one table per point
of the contribution of each signed checker count, so scoring a candidate is
24 lookups rather than a 122-input dot product.  The game loop plays whole
games without the GIL with dice from a numpy bit generator, stratifying the
first two rolls over game indices, and can stop a game once both sides are
bearing off to take the bear-off tables' exact chances.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.math cimport INFINITY
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid

import numpy as np

from numpy.random cimport bitgen_t

from backgammon._board cimport SLOTS, BAR, POINTS, no_contact, both_home, loss_kind
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._bearoff cimport position_index, ROLLS_KEPT, positions_up_to

cdef enum:
    POLICY_RANDOM = 0
    POLICY_PUBEVAL = 1

# pubeval: [race][mover's point p - 1][signed count + 15] and the two extra weights
cdef double PUB[2][24][31]
cdef double PUB_BAR[2]
cdef double PUB_OFF[2]
cdef bint PUB_READY = False


def set_pubeval_weights(const double[:, ::1] weights):
    """Load the (122, 2) weights: column 0 contact, column 1 race."""
    global PUB_READY
    cdef int race, j, n, k, p
    cdef double w[5]
    if weights.shape[0] != 122 or weights.shape[1] != 2:
        raise ValueError("pubeval weights have shape (122, 2)")
    for race in range(2):
        for j in range(1, 25):
            p = 25 - j                       # input block j is the mover's point 25 - j
            for k in range(5):
                w[k] = weights[5 * (j - 1) + k, race]
            for n in range(-15, 16):
                PUB[race][p - 1][n + 15] = (
                    (w[0] if n == -1 else 0.0) + (w[1] if n == 1 else 0.0) + (w[2] if n >= 2 else 0.0)
                    + (w[3] if n == 3 else 0.0) + (w[4] * (n - 3) / 2.0 if n >= 4 else 0.0))
        PUB_BAR[race] = weights[120, race] / 2.0
        PUB_OFF[race] = weights[121, race] / 15.0
    PUB_READY = True


cdef inline double pubeval(const uint8_t* board, bint race) noexcept nogil:
    """pubeval of a position after a play, for the side that played: row 0
    (the next mover's view).  All checkers off scores +infinity."""
    cdef const uint8_t* mover = board
    cdef const uint8_t* other = board + SLOTS
    cdef double s = 0.0
    cdef int p, n, left = 0
    for p in range(1, 25):
        n = mover[p - 1]
        left += n
        if not n:
            n = -other[24 - p]
        s += PUB[race][p - 1][n + 15]
    left += mover[BAR]
    if left == 0:
        return INFINITY
    return s + PUB_BAR[race] * other[BAR] + PUB_OFF[race] * (15 - left)


def pubeval_batch(const uint8_t[:, :, ::1] boards, race=None):
    """pubeval of each board for the side of row 0 (the side that just
    played); ``race`` (bool array) chooses the weights, by default from each
    board itself."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef uint8_t[::1] r
    if not PUB_READY:
        raise RuntimeError("pubeval weights are not loaded")
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    if race is None:
        flags = np.empty(n, dtype=np.uint8)
        r = flags
        with nogil:
            for i in range(n):
                r[i] = no_contact(&boards[i, 0, 0])
    else:
        flags = np.ascontiguousarray(race, dtype=np.uint8)
        if flags.shape != (n,):
            raise ValueError("race must have shape (n,)")
        r = flags
    out = np.empty(n)
    cdef double[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = pubeval(&boards[i, 0, 0], r[i] != 0)
    return out


def tesauro_inputs(const uint8_t[:, :, ::1] boards):
    """The 198 TD-Gammon inputs of each board, float32 (n, 198): for the
    side on roll (row 1), then its opponent (row 0), 4 units per point (at
    least 1, 2, 3 checkers, then (n - 3) / 2 for more), bar / 2 and
    borne off / 15; the last two units say whose turn it is (1, 0)."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int side, row, p, c, base, total
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    out = np.zeros((n, 198), dtype=np.float32)
    cdef float[:, ::1] o = out
    with nogil:
        for i in range(n):
            for side in range(2):
                row = 1 - side
                base = 98 * side
                total = 0
                for p in range(24):
                    c = boards[i, row, p]
                    total += c
                    if c >= 1:
                        o[i, base + 4 * p] = 1.0
                    if c >= 2:
                        o[i, base + 4 * p + 1] = 1.0
                    if c >= 3:
                        o[i, base + 4 * p + 2] = 1.0
                    if c > 3:
                        o[i, base + 4 * p + 3] = (c - 3) / 2.0
                c = boards[i, row, BAR]
                total += c
                o[i, base + 96] = c / 2.0
                o[i, base + 97] = (15 - total) / 15.0
            o[i, 196] = 1.0
            o[i, 197] = 0.0
    return out


# -- dice --------------------------------------------------------------------------

cdef inline uint32_t _bounded(bitgen_t* rng, uint32_t n) noexcept nogil:
    # Uniform in [0, n) without bias (Lemire's multiply and reject).
    cdef uint64_t m = <uint64_t>rng.next_uint32(rng.state) * n
    cdef uint32_t low = <uint32_t>m, threshold
    if low < n:
        threshold = (-n) % n
        while low < threshold:
            m = <uint64_t>rng.next_uint32(rng.state) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef bitgen_t* _bitgen(object generator) except NULL:
    capsule = generator.bit_generator.capsule
    if not PyCapsule_IsValid(capsule, "BitGenerator"):
        raise ValueError("not a numpy bit generator")
    return <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")


# -- bear-off estimates ------------------------------------------------------------

ctypedef struct Tables:
    const uint16_t* one_sided         # (54264, 32) P(all off in i rolls)
    const uint16_t* gammon            # (54264, 32) P(first off in i rolls)
    const uint16_t* two_sided         # (P2 * P2, 4) records
    int32_t two_sided_positions
    int two_sided_checkers


cdef double _sooner(const uint16_t* first, const uint16_t* second, int lag) noexcept nogil:
    # P(an event of roll count ~ first happens at roll i and one ~ second at
    # roll j >= i + lag), the two independent; tables in 65535ths.
    cdef int i, j
    cdef double p = 0.0, tail
    for i in range(ROLLS_KEPT):
        tail = 0.0
        for j in range(i + lag, ROLLS_KEPT):
            tail += second[j]
        p += first[i] * tail
    return p / (65535.0 * 65535.0)


cdef void _bearoff_estimate(const Tables* t, const uint8_t* board, double* out) noexcept nogil:
    # Chances for the side on roll (row 1) when both sides bear off:
    # out = win, win gammon, lose gammon (no backgammons are possible).
    # The side on roll rolls first, so it finishes first on equal counts.
    cdef const uint8_t* opp = board
    cdef const uint8_t* me = board + SLOTS
    cdef int32_t a = position_index(me), b = position_index(opp)
    cdef int i, n_me = 0, n_opp = 0
    cdef const uint16_t* dm = t.one_sided + <Py_ssize_t>a * ROLLS_KEPT
    cdef const uint16_t* do = t.one_sided + <Py_ssize_t>b * ROLLS_KEPT
    for i in range(6):
        n_me += me[i]
        n_opp += opp[i]
    if t.two_sided != NULL and n_me <= t.two_sided_checkers and n_opp <= t.two_sided_checkers:
        out[0] = t.two_sided[(<Py_ssize_t>a * t.two_sided_positions + b) * 4] / 65535.0
    else:
        out[0] = _sooner(dm, do, 0)          # all mine off no later than all its
    # Gammons: all of one side off before the other's first checker.
    out[1] = _sooner(dm, t.gammon + <Py_ssize_t>b * ROLLS_KEPT, 0) if n_opp == 15 else 0.0
    out[2] = _sooner(do, t.gammon + <Py_ssize_t>a * ROLLS_KEPT, 1) if n_me == 15 else 0.0


# -- the game loop -----------------------------------------------------------------

cdef inline int _choose(int policy, Generator* g, bitgen_t* rng, const uint8_t* board,
                        const uint8_t* children, int n) noexcept nogil:
    cdef int k, best = 0
    cdef double s, top
    cdef bint race
    if n == 1:
        return 0
    if policy == POLICY_RANDOM:
        return <int>_bounded(rng, <uint32_t>n)
    race = no_contact(board)
    top = -INFINITY
    for k in range(n):
        s = pubeval(children + k * BOARD_BYTES, race)
        if s > top:
            top = s
            best = k
    return best


cdef void _play_game(Generator* g, bitgen_t* rng, const uint8_t* start, int policy0, int policy1,
                     int64_t game_index, bint stratify, int truncate, const Tables* tables,
                     uint8_t* children, double* result) noexcept nogil:
    # result: win, win gammon, win backgammon, lose gammon, lose backgammon
    # for the side on roll at the start ("us", turn 0).
    cdef uint8_t board[64]
    cdef int turn = 0, ply = 0, n, k, d1, d2, roll, i, left, kind
    cdef const uint8_t* child
    cdef double est[3]
    cdef bint gammon, backgammon
    memcpy(board, start, BOARD_BYTES)
    for i in range(5):
        result[i] = 0.0
    while True:
        if stratify and ply < 2:
            # Game i takes ordered roll i mod 36 first and (i // 36) mod 36 second.
            roll = <int>((game_index if ply == 0 else game_index // 36) % 36)
            d1 = roll // 6 + 1
            d2 = roll % 6 + 1
        else:
            d1 = <int>_bounded(rng, 6) + 1
            d2 = <int>_bounded(rng, 6) + 1
        n = generate(g, board, d1, d2, children, NULL, True)
        if n <= 0:
            return            # unreachable: the loop stops when a side is off
        k = _choose(policy0 if turn == 0 else policy1, g, rng, board, children, n)
        child = children + k * BOARD_BYTES
        left = 0
        for i in range(SLOTS):
            left += child[i]
        if left == 0:
            # The mover (row 0 now) bore off its last checker (RULES 6).
            kind = loss_kind(child + SLOTS)
            gammon = kind >= 2
            backgammon = kind == 3
            if turn == 0:
                result[0] = 1.0
                result[1] = gammon
                result[2] = backgammon
            else:
                result[3] = gammon
                result[4] = backgammon
            return
        memcpy(board, child, BOARD_BYTES)
        turn ^= 1
        ply += 1
        if truncate >= 0 and ply >= truncate and tables.one_sided != NULL and both_home(board):
            _bearoff_estimate(tables, board, est)
            if turn == 0:
                result[0] = est[0]
                result[1] = est[1]
                result[3] = est[2]
            else:
                result[0] = 1.0 - est[0]
                result[1] = est[2]
                result[3] = est[1]
            return


def play_games(const uint8_t[::1] start, int64_t first_index, int64_t n_games, generator,
               int policy0, int policy1, bint stratify=True, int truncate=-1,
               one_sided=None, gammon=None, two_sided=None, int two_sided_checkers=0):
    """Play ``n_games`` cubeless games from ``start`` (50 bytes, row 1 on
    roll) and return their results, a float64 array (n, 5): win, win gammon,
    win backgammon, lose gammon, lose backgammon for the side on roll.

    ``first_index`` numbers the games for the stratified first two rolls;
    ``truncate`` >= 0 stops a game from that ply on as soon as both sides
    are bearing off and takes the bear-off tables' chances.
    """
    cdef Tables tables
    cdef const uint16_t[:, ::1] os_view
    cdef const uint16_t[:, ::1] g_view
    cdef const uint16_t[:, ::1] ts_view
    cdef bitgen_t* rng = _bitgen(generator)
    cdef Generator* g
    cdef uint8_t* children
    cdef int64_t i
    if start.shape[0] != BOARD_BYTES:
        raise ValueError("start is a 50-byte board")
    if policy0 not in (POLICY_RANDOM, POLICY_PUBEVAL) or policy1 not in (POLICY_RANDOM, POLICY_PUBEVAL):
        raise ValueError("unknown policy code")
    if (policy0 == POLICY_PUBEVAL or policy1 == POLICY_PUBEVAL) and not PUB_READY:
        raise RuntimeError("pubeval weights are not loaded")
    tables.one_sided = NULL
    tables.gammon = NULL
    tables.two_sided = NULL
    tables.two_sided_positions = 0
    tables.two_sided_checkers = 0
    if one_sided is not None:
        os_view = one_sided
        g_view = gammon
        if os_view.shape[0] != positions_up_to(15) or g_view.shape[0] != os_view.shape[0]:
            raise ValueError("one-sided tables of 54264 x 32 expected")
        tables.one_sided = &os_view[0, 0]
        tables.gammon = &g_view[0, 0]
    if two_sided is not None:
        ts_view = two_sided
        if ts_view.shape[0] != <Py_ssize_t>positions_up_to(two_sided_checkers) ** 2:
            raise ValueError("two-sided table does not match its checker count")
        tables.two_sided = &ts_view[0, 0]
        tables.two_sided_positions = positions_up_to(two_sided_checkers)
        tables.two_sided_checkers = two_sided_checkers
    out = np.zeros((n_games, 5))
    cdef double[:, ::1] o = out
    g = new_generator()
    children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    if g == NULL or children == NULL:
        free(g)
        free(children)
        raise MemoryError()
    with generator.bit_generator.lock, nogil:
        for i in range(n_games):
            _play_game(g, rng, &start[0], policy0, policy1, first_index + i, stratify, truncate,
                       &tables, children, &o[i, 0])
    free(g)
    free(children)
    return out


def bearoff_estimates(const uint8_t[:, :, ::1] boards, one_sided, gammon, two_sided=None,
                      int two_sided_checkers=0):
    """Win, win gammon and lose gammon chances of the side on roll for
    boards where both sides bear off (the caller checked), (n, 3)."""
    cdef Tables tables
    cdef const uint16_t[:, ::1] os_view = one_sided
    cdef const uint16_t[:, ::1] g_view = gammon
    cdef const uint16_t[:, ::1] ts_view
    cdef Py_ssize_t i, n = boards.shape[0]
    tables.one_sided = &os_view[0, 0]
    tables.gammon = &g_view[0, 0]
    tables.two_sided = NULL
    tables.two_sided_positions = 0
    tables.two_sided_checkers = 0
    if two_sided is not None:
        ts_view = two_sided
        tables.two_sided = &ts_view[0, 0]
        tables.two_sided_positions = positions_up_to(two_sided_checkers)
        tables.two_sided_checkers = two_sided_checkers
    out = np.zeros((n, 3))
    cdef double[:, ::1] o = out
    with nogil:
        for i in range(n):
            _bearoff_estimate(&tables, &boards[i, 0, 0], &o[i, 0])
    return out
