# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Bear-off databases: indexing, building and batch lookups.

A one-sided position is the count of checkers on each home point 1..6.  Its
index is GNU Backgammon's: with S_m the checkers on the m highest points,
index = sum over m = 1..6 of C(m - 1 + S_m, m); positions with fewer
checkers come first and the empty one is 0.

Both builders follow GNU Backgammon's makebearoff in integer arithmetic, so
the tables equal its files: successors come from the package's move
generator (RULES 3-5) in the order it lists them, and ties go to the first.
"""
from libc.stdint cimport uint8_t, uint16_t, int16_t, int32_t, int64_t, uint32_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memset, memcpy

import numpy as np

from backgammon._board cimport SLOTS, BAR, CHECKERS, both_home, check_board, BOARD_OK
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES

# C(n, k) for n < 32, k <= 6
cdef int32_t CHOOSE[32][7]


cdef void _init_choose() noexcept:
    cdef int n, k
    for n in range(32):
        for k in range(7):
            if k == 0:
                CHOOSE[n][k] = 1
            elif n == 0:
                CHOOSE[n][k] = 0
            else:
                CHOOSE[n][k] = CHOOSE[n - 1][k - 1] + CHOOSE[n - 1][k]

_init_choose()


cdef int32_t positions_up_to(int checkers) noexcept nogil:
    """How many one-sided positions have at most ``checkers`` checkers."""
    return CHOOSE[checkers + HOME_POINTS][HOME_POINTS]


cdef int32_t position_index(const uint8_t* counts) noexcept nogil:
    """Index of the position with counts[i] checkers on point i + 1."""
    cdef int32_t index = 0
    cdef int m, s = 0
    for m in range(1, HOME_POINTS + 1):
        s += counts[HOME_POINTS - m]
        index += CHOOSE[m - 1 + s][m]
    return index


cdef void index_position(int32_t index, uint8_t* counts) noexcept nogil:
    """Inverse of position_index: the largest C(c, m) that fits, from m = 6 down."""
    cdef int m, c, s, below = 0
    cdef int sums[7]
    for m in range(HOME_POINTS, 0, -1):
        c = m - 1
        while CHOOSE[c + 1][m] <= index:
            c += 1
        index -= CHOOSE[c][m]
        sums[m] = c - (m - 1)
    sums[0] = 0
    for m in range(1, HOME_POINTS + 1):
        counts[HOME_POINTS - m] = <uint8_t>(sums[m] - sums[m - 1])


cdef int32_t row_index(const uint8_t* row, int checkers) noexcept nogil:
    """Index of one side's 25-slot row, or -1 when a checker stands outside
    the home board or on the bar, -2 when it has more than ``checkers``."""
    cdef int i, total = 0
    for i in range(HOME_POINTS, SLOTS):
        if row[i]:
            return -1
    for i in range(HOME_POINTS):
        total += row[i]
    if total > checkers:
        return -2
    return position_index(row)


# -- building ------------------------------------------------------------------

cdef inline int _roll_weight(int hi, int lo) noexcept nogil:
    return 1 if hi == lo else 2


cdef int _successors(Generator* g, uint8_t* board, const uint8_t* counts, int hi, int lo,
                     uint8_t* children, int32_t* out) noexcept nogil:
    # Successor indices of a one-sided position for one roll, in the move
    # generator's order.  The opponent waits on its ace point (my 24), out
    # of the way of a side that only moves inside its home board.
    cdef int n, j
    memset(board, 0, BOARD_BYTES)
    board[0] = 15
    memcpy(board + SLOTS, counts, HOME_POINTS)
    n = generate(g, board, hi, lo, children, NULL, False)
    for j in range(n):
        out[j] = position_index(children + j * BOARD_BYTES + SLOTS)
    return n


cdef void _quantize(int64_t* acc, uint16_t* out) noexcept nogil:
    # 36ths of 65535 to uint16, rounding half up; the first largest entry
    # absorbs the rounding so that the row sums to 65535.
    cdef int i, mode = 0
    cdef int64_t s = 0
    cdef uint16_t v
    for i in range(ROLLS_KEPT):
        out[i] = <uint16_t>((acc[i] + 18) // 36)
        s += out[i]
        if out[i] > out[mode]:
            mode = i
    out[mode] = <uint16_t>((out[mode] - (s - 65535)) & 0xFFFF)


def build_one_sided(uint16_t[:, ::1] dist, uint16_t[:, ::1] gammon):
    """Fill the one-sided tables (positions x 32 each) for up to 15 checkers.

    Per roll the play with the fewest expected rolls (sum of i x P(i), in
    the stored integers) is taken, the first of equals; the gammon table
    (rolls to bear off the first checker) picks its own play the same way.
    """
    cdef int32_t n_pos = dist.shape[0], idx, j, k, best, best_g
    cdef int hi, lo, w, n, i, total
    cdef int64_t r, best_r, best_rg
    cdef int64_t acc[32]
    cdef int64_t acc_g[32]
    cdef uint8_t counts[8]
    cdef uint8_t board[64]
    cdef int32_t succ[3072]
    cdef int64_t* mean_r
    cdef int64_t* mean_g
    cdef uint8_t* children
    cdef Generator* g
    if n_pos != positions_up_to(MAX_CHECKERS) or gammon.shape[0] != n_pos \
            or dist.shape[1] != ROLLS_KEPT or gammon.shape[1] != ROLLS_KEPT:
        raise ValueError("tables must have shape (54264, 32)")
    g = new_generator()
    children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    mean_r = <int64_t*>calloc(n_pos, sizeof(int64_t))
    mean_g = <int64_t*>calloc(n_pos, sizeof(int64_t))
    if g == NULL or children == NULL or mean_r == NULL or mean_g == NULL:
        free(g); free(children); free(mean_r); free(mean_g)
        raise MemoryError()
    with nogil:
        for k in range(ROLLS_KEPT):
            dist[0, k] = 0
            gammon[0, k] = 0
        dist[0, 0] = 65535
        gammon[0, 0] = 65535
        for idx in range(1, n_pos):
            index_position(idx, counts)
            total = 0
            for i in range(HOME_POINTS):
                total += counts[i]
            memset(acc, 0, sizeof(acc))
            memset(acc_g, 0, sizeof(acc_g))
            if total < MAX_CHECKERS:
                acc_g[0] = 65535 * 36      # a checker is already off
            for hi in range(1, 7):
                for lo in range(1, hi + 1):
                    w = _roll_weight(hi, lo)
                    n = _successors(g, board, counts, hi, lo, children, succ)
                    best = succ[0]
                    best_g = succ[0]
                    best_r = mean_r[best]
                    best_rg = mean_g[best]
                    for j in range(1, n):
                        r = mean_r[succ[j]]
                        if r < best_r:
                            best_r = r
                            best = succ[j]
                        r = mean_g[succ[j]]
                        if r < best_rg:
                            best_rg = r
                            best_g = succ[j]
                    for k in range(ROLLS_KEPT - 1):
                        acc[k + 1] += w * dist[best, k]
                    if total == MAX_CHECKERS:
                        for k in range(ROLLS_KEPT - 1):
                            acc_g[k + 1] += w * gammon[best_g, k]
            _quantize(acc, &dist[idx, 0])
            _quantize(acc_g, &gammon[idx, 0])
            r = 0
            best_r = 0
            for k in range(1, ROLLS_KEPT):
                r += k * dist[idx, k]
                best_r += k * gammon[idx, k]
            mean_r[idx] = r
            mean_g[idx] = best_r
    free(g)
    free(children)
    free(mean_r)
    free(mean_g)


cdef inline int32_t _flip(int32_t x) noexcept nogil:
    return -x - 1


cdef inline int32_t _cube(int32_t no_double, int32_t double_take) noexcept nogil:
    # The doubler's value: double when doubling is worth at least not doubling
    # (in units of the current cube); the opponent passes (+1) when taking
    # is worse for it than passing.
    if double_take >= no_double / 2:
        return 32767 if double_take >= 16383 else 2 * double_take
    return no_double


def build_two_sided(int checkers, uint16_t[:, ::1] records):
    """Fill the two-sided table: (P x P, 4) uint16 records for up to
    ``checkers`` checkers a side, record on_roll * P + opponent, fields
    cubeless equity and cubeful money equity with the cube owned by the side
    on roll, centred and owned by the opponent, as GNU Backgammon defines
    them: the side on roll's own double is not in them (the previous mover
    weighs it), and equities are 16-bit fixed point in [-1, 1].
    """
    cdef int32_t P = positions_up_to(checkers), us, them, j, s
    cdef int hi, lo, w, n, k, roll
    cdef int32_t q0, q1, q2, q3, b0, b1, b2, b3
    cdef int64_t t0, t1, t2, t3
    cdef uint8_t counts[8]
    cdef uint8_t board[64]
    cdef int32_t succ[3072]
    cdef int16_t* val
    cdef int32_t* succ_start
    cdef int32_t* succ_all
    cdef uint8_t* children
    cdef Generator* g
    cdef Py_ssize_t total_succ = 0, at
    if checkers < 1 or checkers > MAX_CHECKERS:
        raise ValueError("checkers must be 1 to 15")
    if records.shape[0] != <Py_ssize_t>P * P or records.shape[1] != 4:
        raise ValueError(f"records must have shape ({P * P}, 4)")
    g = new_generator()
    children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    succ_start = <int32_t*>calloc(<size_t>P * 21 + 1, sizeof(int32_t))
    val = <int16_t*>malloc(<size_t>P * P * 4 * sizeof(int16_t))
    if g == NULL or children == NULL or succ_start == NULL or val == NULL:
        free(g); free(children); free(succ_start); free(val)
        raise MemoryError()
    # Successor lists of every position and roll, once.
    succ_all = NULL
    with nogil:
        for s in range(2):
            at = 0
            for us in range(P):
                index_position(us, counts)
                roll = 0
                for hi in range(1, 7):
                    for lo in range(1, hi + 1):
                        succ_start[us * 21 + roll] = <int32_t>at
                        if us > 0:
                            n = _successors(g, board, counts, hi, lo, children, succ)
                            if s == 1:
                                memcpy(succ_all + at, succ, n * sizeof(int32_t))
                            at += n
                        roll += 1
            succ_start[P * 21] = <int32_t>at
            if s == 0:
                succ_all = <int32_t*>malloc((at + 1) * sizeof(int32_t))
                if succ_all == NULL:
                    break
    if succ_all == NULL:
        free(g); free(children); free(succ_start); free(val)
        raise MemoryError()
    with nogil:
        # Diagonals us + them ascending: a successor has a smaller index.
        for s in range(2 * P - 1):
            for us in range(max(0, s - P + 1), min(s, P - 1) + 1):
                them = s - us
                at = (<Py_ssize_t>us * P + them) * 4
                if us == 0:
                    val[at] = val[at + 1] = val[at + 2] = val[at + 3] = 32767
                    continue
                if them == 0:
                    val[at] = val[at + 1] = val[at + 2] = val[at + 3] = -32768
                    continue
                t0 = t1 = t2 = t3 = 0
                roll = 0
                for hi in range(1, 7):
                    for lo in range(1, hi + 1):
                        w = _roll_weight(hi, lo)
                        b0 = b1 = b2 = b3 = -65535
                        for j in range(succ_start[us * 21 + roll], succ_start[us * 21 + roll + 1]):
                            k = (them * P + succ_all[j]) * 4
                            q0 = val[k]
                            q1 = val[k + 1]
                            q2 = val[k + 2]
                            q3 = val[k + 3]
                            b0 = max(b0, _flip(q0))
                            b1 = max(b1, _flip(q3))
                            b2 = max(b2, _flip(_cube(q2, q3)))
                            b3 = max(b3, _flip(_cube(q1, q3)))
                        t0 += w * b0
                        t1 += w * b1
                        t2 += w * b2
                        t3 += w * b3
                        roll += 1
                # C division truncates toward zero, as makebearoff's does.
                val[at] = <int16_t>(t0 / 36)
                val[at + 1] = <int16_t>(t1 / 36)
                val[at + 2] = <int16_t>(t2 / 36)
                val[at + 3] = <int16_t>(t3 / 36)
        for j in range(P * P * 4):
            records[j // 4, j % 4] = <uint16_t>(val[j] + 32768)
    free(g)
    free(children)
    free(succ_start)
    free(succ_all)
    free(val)


# -- lookups -------------------------------------------------------------------

def indices(const uint8_t[:, ::1] points):
    """Index of each row of counts on points 1..6: (n, 6) -> (n,) int32."""
    cdef Py_ssize_t i, n = points.shape[0], bad = -1
    cdef int k, total
    if points.shape[1] != HOME_POINTS:
        raise ValueError("points must have shape (n, 6)")
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] o = out
    with nogil:
        for i in range(n):
            total = 0
            for k in range(HOME_POINTS):
                total += points[i, k]
            if total > MAX_CHECKERS:
                bad = i
                break
            o[i] = position_index(&points[i, 0])
    if bad >= 0:
        raise ValueError(f"row {bad} has more than {MAX_CHECKERS} checkers")
    return out


def board_indices(const uint8_t[:, :, ::1] boards, int row, int checkers):
    """Index of one row (1 = on roll, 0 = opponent) of each board: (n,)
    int32, -1 where a checker is outside the home board or on the bar, -2
    where the side has more than ``checkers`` checkers."""
    cdef Py_ssize_t i, n = boards.shape[0]
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    if row not in (0, 1):
        raise ValueError("row must be 0 or 1")
    if not 0 <= checkers <= MAX_CHECKERS:
        raise ValueError(f"checkers must be 0 to {MAX_CHECKERS}")
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = row_index(&boards[i, row, 0], checkers)
    return out


cdef int _check_indices(const int32_t[::1] index, Py_ssize_t size) except -1:
    # Python entry points never read outside a table, whatever they are given.
    cdef Py_ssize_t i
    cdef bint bad = False
    with nogil:
        for i in range(index.shape[0]):
            if index[i] < 0 or index[i] >= size:
                bad = True
                break
    if bad:
        raise ValueError(f"index {index[i]} is outside a table of {size} positions")
    return 0


def gather_rows(const uint16_t[:, ::1] table, const int32_t[::1] index, double[:, ::1] out):
    """out[i] = table[index[i]] / 65535."""
    cdef Py_ssize_t i, k, n = index.shape[0], width = table.shape[1]
    cdef double scale = 1.0 / 65535.0
    _check_indices(index, table.shape[0])
    if out.shape[0] != n or out.shape[1] != width:
        raise ValueError("out must have shape (len(index), table width)")
    with nogil:
        for i in range(n):
            for k in range(width):
                out[i, k] = table[index[i], k] * scale


def gather(const double[::1] values, const int32_t[::1] index, double[::1] out):
    """out[i] = values[index[i]]."""
    cdef Py_ssize_t i, n = index.shape[0]
    _check_indices(index, values.shape[0])
    if out.shape[0] != n:
        raise ValueError("out must have the length of index")
    with nogil:
        for i in range(n):
            out[i] = values[index[i]]


def position_of(int32_t index):
    """The counts on points 1..6 of a one-sided index."""
    cdef uint8_t counts[8]
    if index < 0 or index >= positions_up_to(MAX_CHECKERS):
        raise ValueError("index out of range")
    index_position(index, counts)
    return tuple(counts[i] for i in range(HOME_POINTS))


# -- race estimates ----------------------------------------------------------------

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


cdef void race_estimate(const RaceTables* t, const uint8_t* board, double* out) noexcept nogil:
    """Chances of the side on roll (row 1) when both sides bear off (the
    caller checked both_home and at most 15 checkers a side): out = win,
    win gammon, lose gammon (no backgammon is possible).  The side on roll
    rolls first, so it finishes first on equal roll counts."""
    cdef const uint8_t* opp = board
    cdef const uint8_t* me = board + SLOTS
    cdef int32_t a = position_index(me), b = position_index(opp)
    cdef int i, n_me = 0, n_opp = 0
    cdef const uint16_t* dm = t.one_sided + <Py_ssize_t>a * ROLLS_KEPT
    cdef const uint16_t* do = t.one_sided + <Py_ssize_t>b * ROLLS_KEPT
    for i in range(HOME_POINTS):
        n_me += me[i]
        n_opp += opp[i]
    if t.two_sided != NULL and n_me <= t.two_sided_checkers and n_opp <= t.two_sided_checkers:
        out[0] = ts_record(t.two_sided, t.two_sided_positions, a, b)[0] / 65535.0
    else:
        out[0] = _sooner(dm, do, 0)          # all mine off no later than all its
    # Gammons: all of one side off before the other's first checker.
    out[1] = _sooner(dm, t.gammon + <Py_ssize_t>b * ROLLS_KEPT, 0) if n_opp == MAX_CHECKERS else 0.0
    out[2] = _sooner(do, t.gammon + <Py_ssize_t>a * ROLLS_KEPT, 1) if n_me == MAX_CHECKERS else 0.0


cdef int set_race_tables(RaceTables* t, one_sided, gammon, two_sided, int two_sided_checkers) except -1:
    """Point ``t`` at the given uint16 tables after checking their shapes
    (the caller keeps the arrays alive)."""
    cdef const uint16_t[:, ::1] os_view = one_sided
    cdef const uint16_t[:, ::1] g_view = gammon
    cdef const uint16_t[:, ::1] ts_view
    if os_view.shape[0] != positions_up_to(MAX_CHECKERS) or os_view.shape[1] != ROLLS_KEPT \
            or g_view.shape[0] != os_view.shape[0] or g_view.shape[1] != ROLLS_KEPT:
        raise ValueError("one-sided tables of 54264 x 32 expected")
    t.one_sided = &os_view[0, 0]
    t.gammon = &g_view[0, 0]
    t.two_sided = NULL
    t.two_sided_positions = 0
    t.two_sided_checkers = 0
    if two_sided is not None:
        if not 1 <= two_sided_checkers <= MAX_CHECKERS:
            raise ValueError("two_sided_checkers must be in 1..15")
        ts_view = two_sided
        if ts_view.shape[0] != <Py_ssize_t>positions_up_to(two_sided_checkers) ** 2 or ts_view.shape[1] != TS_FIELDS:
            raise ValueError("two-sided table does not match its checker count")
        t.two_sided = &ts_view[0, 0]
        t.two_sided_positions = positions_up_to(two_sided_checkers)
        t.two_sided_checkers = two_sided_checkers
    return 0


def race_estimates(const uint8_t[:, :, ::1] boards, one_sided, gammon, two_sided=None,
                   int two_sided_checkers=0, bint nan=False, out=None):
    """Win, win gammon and lose gammon chances of the side on roll, (n, 3),
    for boards where both sides have all their checkers on home points;
    any other board raises ValueError naming it, or with ``nan`` gets a row
    of NaN.  ``out``: a C-contiguous (n, 3) float32 or float64 array to
    write into (returned), else a new float64 one.  Reachable from Python,
    so it never trusts its input."""
    cdef RaceTables tables
    cdef Py_ssize_t i, n = boards.shape[0], bad = -1
    cdef double est[3]
    cdef double missing = float("nan")
    cdef bint home
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    set_race_tables(&tables, one_sided, gammon, two_sided, two_sided_checkers)
    with nogil:
        for i in range(n):
            if check_board(&boards[i, 0, 0]) != BOARD_OK or (not nan and not both_home(&boards[i, 0, 0])):
                bad = i
                break
    if bad >= 0:
        raise ValueError(f"board {bad} is not a valid position with every checker of both sides home")
    if out is None:
        out = np.zeros((n, 3))
    elif not isinstance(out, np.ndarray) or out.shape != (n, 3) or out.dtype not in (np.float32, np.float64) \
            or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"out must be a writeable C-contiguous float32 or float64 array of shape ({n}, 3)")
    cdef double[:, ::1] o
    cdef float[:, ::1] f
    cdef bint wide = out.dtype == np.float64
    if n == 0:
        return out
    if wide:
        o = out
    else:
        f = out
    with nogil:
        for i in range(n):
            home = both_home(&boards[i, 0, 0])
            if home:
                race_estimate(&tables, &boards[i, 0, 0], est)
            else:
                est[0] = missing
                est[1] = missing
                est[2] = missing
            if wide:
                o[i, 0] = est[0]
                o[i, 1] = est[1]
                o[i, 2] = est[2]
            else:
                f[i, 0] = <float>est[0]
                f[i, 1] = <float>est[1]
                f[i, 2] = <float>est[2]
    return out
