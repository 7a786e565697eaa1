# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Legal move generation over the position array (docs/design.md).

One (position, roll) gives every distinct resulting position once (RULES 3.5),
with one representative list of checker steps, keeping only the results that
use the most dice (RULES 3.4).  Doubles are searched with sources never
increasing (any legal sequence of equal steps can be reordered so), which
meets each result once.  Non-doubles are searched in both orders of the dice, and
the few ways two step pairs can give one position are recognised exactly
(see _repeats), so no result is compared with another.  Points and bar are bit
masks, so the steps a die allows come from a few shifts.

Most turns can neither enter nor bear off ("quiet": _quiet_pairs,
_quiet_doubles).  Every step is then a point-to-point move, so a result is
the start plus fixed 64-byte changes per step (and hit), written with a few
vector adds; the last step's results come from one tight loop (bg_leaves)
over a row of pointers into the table of changes (_change).
"""
from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE
cimport numpy as cnp

from backgammon._board cimport BAR, SLOTS, POINTS, BOARD_OK, BAD_DICE, check_board
from backgammon._checks cimport board_bytes, need_dice, need_boards, need_shape, need_rows, pair_problem
from backgammon._chain cimport Chain, run_chained

cdef extern from "_bits.h":
    int bg_msb(unsigned int x) nogil
    void bg_row_masks(const uint8_t* p, uint32_t* nonzero, uint32_t* two, uint32_t* one) nogil
    void bg_opp_masks(const uint8_t* p, uint32_t* any, uint32_t* blocked, uint32_t* blots) nogil
    int bg_popcount(unsigned int x) nogil
    int bg_leaves(uint8_t* out, const uint8_t* p, uint32_t m, const uint8_t* const* change) nogil
    void bg_add64(uint8_t* out, const uint8_t* a, const uint8_t* b) nogil
    void bg_add50(uint8_t* out, const uint8_t* a, const uint8_t* b) nogil
    void bg_doubles_rows(const uint8_t** rows, uint32_t* next, uint32_t reach, const uint8_t* plain, int d,
                         uint32_t blots, uint32_t go) nogil
    int bg_quiet_steps(uint8_t* out, const uint8_t* p, int me_at, uint32_t m, int steps, const uint8_t* const* rows,
                       const uint8_t* plain, const uint32_t* next, int limit) nogil
    int bg_bar_one(uint8_t* out, const uint8_t* p, const uint8_t* change, int big, int small,
                   uint32_t occ, uint32_t blocked, uint32_t blots) nogil
    int bg_home_pair(uint8_t* out, const uint8_t* p, const uint8_t* change, int me_at, int big, int small,
                     uint32_t occ, uint32_t blocked, uint32_t blots) nogil


cdef enum:
    HOME_MASK = 0x3F    # my points 1..6

# _change[at][d][s][h]: the change to a result board (my row at 0 when
# swapped, else at 25) made by my checker stepping from index s by d pips
# to s - d >= 0, with h = 1 also hitting the blot there; bytes wrap, so 255
# is -1.  Results are then sums of changes, and a step with its hit is one
# row: the searches pick rows by pointer instead of building them.
cdef uint8_t _change[2][7][25][2][64]
cdef uint8_t _no_change[64]
cdef int _d, _i, _at, _h
memset(_no_change, 0, sizeof(_no_change))
memset(_change, 0, sizeof(_change))
for _at in range(2):
    for _d in range(1, 7):
        for _i in range(_d, BAR + 1):
            for _h in range(2):
                _change[_at][_d][_i][_h][_at * SLOTS + _i] = 255
                _change[_at][_d][_i][_h][_at * SLOTS + _i - _d] = 1
            _change[_at][_d][_i][1][(1 - _at) * SLOTS + POINTS - 1 - (_i - _d)] = 255
            _change[_at][_d][_i][1][(1 - _at) * SLOTS + BAR] = 1


cdef Generator* new_generator() noexcept nogil:
    """A zeroed generator (free() it); NULL when out of memory."""
    return <Generator*>calloc(1, sizeof(Generator))

cdef inline bint _better(Bits* st, int score) noexcept nogil:
    # RULES 3.4: keep only results of the best score seen; a better one
    # discards what was kept.
    if score < st.best:
        return False
    if score > st.best:
        st.count = 0
        st.best = score
    return st.count < MAX_PLAYS   # always true for valid boards

cdef inline void _write_moves(Generator* g, Bits* st, int depth) noexcept nogil:
    cdef int8_t* mv = st.moves + <Py_ssize_t>st.count * MOVE_BYTES
    cdef int k
    for k in range(4):
        if k < depth:
            mv[3 * k] = g.path[k][0]
            mv[3 * k + 1] = g.path[k][1]
            mv[3 * k + 2] = g.path[k][2]
        else:
            mv[3 * k] = -1
            mv[3 * k + 1] = -1
            mv[3 * k + 2] = 0

cdef inline void _emit(Generator* g, Bits* st, int depth, int score) noexcept nogil:
    # The current position is a result (no further step is possible).
    if not _better(st, score):
        return
    if st.children != NULL:
        memcpy(st.children + <Py_ssize_t>st.count * BOARD_BYTES, g.cur, BOARD_BYTES)
    if st.moves != NULL:
        _write_moves(g, st, depth)
    st.count += 1

cdef inline void _emit_step(Generator* g, Bits* st, int depth, int s, int d, int score) noexcept nogil:
    # The position after one more step (s by d pips) is a result: write it
    # from the current one without changing the search state.
    cdef int t = s - d
    cdef uint32_t hit = ((g.blots & ~st.hit) >> (t & 31)) & 1    # 0 when t = -1 (off)
    cdef uint8_t* child
    if not _better(st, score):
        return
    if st.children != NULL:
        child = st.children + <Py_ssize_t>st.count * BOARD_BYTES
        # Only stores into the child: reading back bytes just written to
        # memory not yet in cache would stall on each result.
        memcpy(child, g.cur, BOARD_BYTES)
        child[st.me_at + s] = g.cur[st.me_at + s] - 1
        if t >= 0:
            child[st.me_at + t] = g.cur[st.me_at + t] + 1
            child[st.them_at + POINTS - 1 - t] = g.cur[st.them_at + POINTS - 1 - t] - <uint8_t>hit
            child[st.them_at + BAR] = g.cur[st.them_at + BAR] + <uint8_t>hit
    if st.moves != NULL:
        g.path[depth][0] = <int8_t>(s + 1)
        g.path[depth][1] = <int8_t>(t + 1 if t >= 0 else 0)
        g.path[depth][2] = hit
        _write_moves(g, st, depth + 1)
    st.count += 1

cdef inline void _step(Generator* g, Bits* st, int depth, int s, int d) noexcept nogil:
    # Move one checker from index s by d pips (off the board when s < d).
    # Mispredicted branches and stores are most of the cost here: updates
    # are arithmetic where they can be, the path is kept only when asked.
    cdef int t = s - d
    cdef uint8_t* me = g.cur + st.me_at
    cdef bint hit = False
    me[s] -= 1
    st.occ &= ~((<uint32_t>(me[s] == 0)) << s)   # branch-free: unpredictable
    if t >= 0:
        me[t] += 1
        st.occ |= (<uint32_t>1) << t
        if ((g.blots & ~st.hit) >> t) & 1:      # RULES 3.3
            hit = True
            st.hit |= (<uint32_t>1) << t
            st.hit_steps |= 1 << depth
            g.cur[st.them_at + POINTS - 1 - t] = 0
            g.cur[st.them_at + BAR] += 1
    if st.moves != NULL:
        g.path[depth][0] = <int8_t>(s + 1)
        g.path[depth][1] = <int8_t>(t + 1 if t >= 0 else 0)
        g.path[depth][2] = hit

cdef inline void _unstep(Generator* g, Bits* st, int depth, int s, int d) noexcept nogil:
    cdef int t = s - d
    cdef uint8_t* me = g.cur + st.me_at
    if t >= 0:
        if (st.hit_steps >> depth) & 1:
            st.hit_steps &= ~(1 << depth)
            st.hit &= ~((<uint32_t>1) << t)
            g.cur[st.them_at + POINTS - 1 - t] = 1
            g.cur[st.them_at + BAR] -= 1
        me[t] -= 1
        st.occ &= ~((<uint32_t>(me[t] == 0)) << t)
    me[s] += 1
    st.occ |= (<uint32_t>1) << s

cdef inline uint32_t _movable(Generator* g, uint32_t occ, int d) noexcept nogil:
    """Indices a checker on ``occ`` can leave with a die of d pips (24 = bar)."""
    cdef uint32_t m
    cdef int h
    if occ >> BAR:
        # RULES 4.1-4.3: enter first, on my point 25 - d if it is open.
        return 0 if (g.blocked >> (BAR - d)) & 1 else (<uint32_t>1) << BAR
    # RULES 3.1, 3.2: d pips onto a point the opponent has not closed.
    m = occ & ~(g.blocked << d) & ~(((<uint32_t>1) << d) - 1)
    if occ and not (occ & ~(<uint32_t>HOME_MASK)):
        # RULES 5.1-5.3: all home; bear off from the die's point, or from
        # the highest point when the die is larger than it.
        if (occ >> (d - 1)) & 1:
            m |= (<uint32_t>1) << (d - 1)
        else:
            h = bg_msb(occ)
            if h < d - 1:
                m |= (<uint32_t>1) << h
    return m

cdef inline void _emit_board(Generator* g, Bits* st, const uint8_t* a, const uint8_t* b,
                             int depth, int score) noexcept nogil:
    # The result a + b (bytewise), reached by the depth steps of g.path.
    if not _better(st, score):
        return
    if st.children != NULL:
        bg_add50(st.children + <Py_ssize_t>st.count * BOARD_BYTES, a, b)
    if st.moves != NULL:
        _write_moves(g, st, depth)
    st.count += 1

cdef inline const uint8_t* _quiet_row(const uint8_t* const* rows, const uint8_t* plain, int s,
                                      int before) noexcept nogil:
    # The change of a step from s (see _quiet_doubles): the first step from
    # s hits a blot on s - d (rows[s]); a step after one from the same point
    # lands where that one already hit (plain: no hit).
    return plain + 128 * s if s == before else rows[s]

cdef inline void _quiet_path(Generator* g, int depth, int s, int d, const uint8_t* row,
                             const uint8_t* plain) noexcept nogil:
    g.path[depth][0] = <int8_t>(s + 1)
    g.path[depth][1] = <int8_t>(s - d + 1)
    g.path[depth][2] = <int8_t>(row != plain + 128 * s)


cdef bint _quiet_doubles(Generator* g, Bits* io) noexcept nogil:
    """Doubles when nothing can be borne off this turn: _search_doubles with
    every step a point-to-point move, the boards on the path kept whole and
    each result written as the last board plus one step change.  False,
    writing nothing, when not so.

    With sources never increasing, the sources a step may use are those the
    step before could, less its own when it took the last checker there,
    plus where it landed: one shift and one byte read a step, no occupancy
    to keep.  Only steps from s land on s - d, and they come one after the
    other, so a step hits a blot there unless the step before came from s.

    With checkers on the bar (results only): they enter first, all on one point (RULES 4.1-4.3),
    then the steps left are searched in the same way (a checker entered needs three more steps
    to come home: none is borne off).  The general search takes turns with no play of four steps.
    """
    cdef int d = g.die, layout = io.me_at != 0, me_at = io.me_at, need = 0, steps = 4, i, s0, s1, s2, s3
    cdef uint32_t go = ~(g.blocked << d) & ~(((<uint32_t>1) << d) - 1) & 0xFFFFFF
    cdef uint32_t occ = io.occ, blots = g.blots, rest, reach, bit, m0, m1, m2, m3
    cdef uint8_t p0[64]
    cdef uint8_t p1[64]
    cdef uint8_t p2[64]
    cdef uint8_t p3[64]
    # plain + 128 * s: the change of a step from s without a hit (_change's layout).
    cdef const uint8_t* plain = &_change[layout][d][0][0][0]
    cdef const uint8_t* start = g.cur
    cdef const uint8_t* me
    cdef const uint8_t* row
    cdef const uint8_t* rows[25]
    cdef uint32_t nexts[25]
    cdef uint8_t* out
    cdef bint fast = io.moves == NULL and io.children != NULL
    cdef Bits st = io[0]
    if occ >> BAR:
        if not fast or (g.blocked >> (BAR - d)) & 1:
            return False
        # Enter up to four: the first hits a blot on the entry point.
        steps = g.cur[me_at + BAR]
        bg_add64(p0, g.cur, plain + 128 * BAR + 64 * ((blots >> (BAR - d)) & 1))
        for i in range(1, min(steps, 4)):
            bg_add64(p0, p0, plain + 128 * BAR)
        steps = max(4 - steps, 0)    # 0: four entered, the one result
        occ = (occ & ~((<uint32_t>1) << BAR)) | ((<uint32_t>1) << (BAR - d))
        start = p0
    me = start + me_at
    # Steps the checkers outside need to come home: with as many as the
    # steps to play none is borne off this turn.
    rest = occ & ~(<uint32_t>HOME_MASK)
    while rest and need < steps:
        i = bg_msb(rest)
        rest &= ~((<uint32_t>1) << i)
        need += me[i] * ((i - 6) // d + 1)
    if need < steps:
        return False
    m0 = occ & go
    if not m0:
        return False
    # Where the sources of any step can be: a checker moved at most 3 times.
    reach = go & (occ | (occ >> d) | (occ >> (2 * d)) | (occ >> (3 * d)))
    # The first step from each source, with the hit when it lands on a blot.
    bg_doubles_rows(rows, nexts, reach, plain, d, blots, go)
    if fast:
        # Results only: when a play of all the steps exists, the shorter
        # ones are not kept (RULES 3.4).
        i = bg_quiet_steps(st.children, start, me_at, m0, steps, rows, plain, nexts, MAX_PLAYS)
        if i > 0:
            io.count = i
            io.best = 8
            return True
    if steps < 4:
        return False
    while m0:
        s0 = bg_msb(m0)
        bit = (<uint32_t>1) << s0
        m0 &= ~bit
        row = rows[s0]
        bg_add64(p1, g.cur, row)
        if st.moves != NULL:
            _quiet_path(g, 0, s0, d, row, plain)
        m1 = m0 | (<uint32_t>(me[s0] >= 2) << s0) | ((bit >> d) & go)
        if not m1:
            _emit_board(g, &st, p1, _no_change, 1, 2)
        while m1:
            s1 = bg_msb(m1)
            bit = (<uint32_t>1) << s1
            m1 &= ~bit
            row = _quiet_row(rows, plain, s1, s0)
            bg_add64(p2, p1, row)
            if st.moves != NULL:
                _quiet_path(g, 1, s1, d, row, plain)
            m2 = m1 | (<uint32_t>(p1[me_at + s1] >= 2) << s1) | ((bit >> d) & go)
            if not m2:
                _emit_board(g, &st, p2, _no_change, 2, 4)
            while m2:
                s2 = bg_msb(m2)
                bit = (<uint32_t>1) << s2
                m2 &= ~bit
                row = _quiet_row(rows, plain, s2, s1)
                bg_add64(p3, p2, row)
                m3 = m2 | (<uint32_t>(p2[me_at + s2] >= 2) << s2) | ((bit >> d) & go)
                if st.moves != NULL:
                    _quiet_path(g, 2, s2, d, row, plain)
                if not m3:
                    _emit_board(g, &st, p3, _no_change, 3, 6)
                elif st.moves == NULL and st.count <= MAX_PLAYS - 32:
                    # The common case, results only: one tight loop.
                    if st.best < 8:
                        st.count = 0
                        st.best = 8
                    if st.children == NULL:
                        st.count += bg_popcount(m3)
                    else:
                        out = st.children + <Py_ssize_t>st.count * BOARD_BYTES
                        if m3 & bit:
                            # Another step from s2 lands on its blot, already hit.
                            bg_add50(out, p3, plain + 128 * s2)
                            st.count += 1
                            out += BOARD_BYTES
                        st.count += bg_leaves(out, p3, m3 & ~bit, rows)
                    m3 = 0
                while m3:
                    s3 = bg_msb(m3)
                    m3 &= ~((<uint32_t>1) << s3)
                    row = _quiet_row(rows, plain, s3, s2)
                    if st.moves != NULL:
                        _quiet_path(g, 3, s3, d, row, plain)
                    _emit_board(g, &st, p3, row, 4, 8)
    io.count = st.count
    io.best = st.best
    return True


cdef void _search_doubles(Generator* g, Bits* io) noexcept nogil:
    # Sources never increase along a path, so every multiset of steps is met
    # once; and distinct multisets give distinct positions (how many steps
    # leave each point follows from the result, from the highest point
    # down), so no result repeats.  Four levels, written out: this is the
    # hottest loop of the package.
    cdef int d = g.die, s0, s1, s2, s3
    cdef uint32_t m0, m1, m2, m3
    cdef Bits st = io[0]   # a local copy, so the compiler keeps it in registers
    if _quiet_doubles(g, io):
        return
    m0 = _movable(g, st.occ, d)
    if not m0:
        _emit(g, &st, 0, 0)
    while m0:
        s0 = bg_msb(m0)
        m0 &= ~((<uint32_t>1) << s0)
        _step(g, &st, 0, s0, d)
        m1 = _movable(g, st.occ, d) & ((<uint32_t>2 << s0) - 1)
        if not m1:
            _emit(g, &st, 1, 2)
        while m1:
            s1 = bg_msb(m1)
            m1 &= ~((<uint32_t>1) << s1)
            _step(g, &st, 1, s1, d)
            m2 = _movable(g, st.occ, d) & ((<uint32_t>2 << s1) - 1)
            if not m2:
                _emit(g, &st, 2, 4)
            while m2:
                s2 = bg_msb(m2)
                m2 &= ~((<uint32_t>1) << s2)
                _step(g, &st, 2, s2, d)
                m3 = _movable(g, st.occ, d) & ((<uint32_t>2 << s2) - 1)
                if not m3:
                    _emit(g, &st, 3, 6)
                while m3:
                    s3 = bg_msb(m3)
                    m3 &= ~((<uint32_t>1) << s3)
                    _emit_step(g, &st, 3, s3, d, 8)
                _unstep(g, &st, 2, s2, d)
            _unstep(g, &st, 1, s1, d)
        _unstep(g, &st, 0, s0, d)
    io.count = st.count
    io.best = st.best

cdef inline bint _seen(Generator* g, int sa, int sb) noexcept nogil:
    return (g.pairs[sa] >> sb) & 1

cdef inline bint _repeats(Generator* g, int sa, int sb) noexcept nogil:
    """Whether the two-dice play with the big die from sa and the small die
    from sb gives a position already written; marks the pair as met.

    The result is start - sa - sb + landings, so two step pairs give one
    position only (a) when they are the same pair, found in both orders
    (the second order skips those before calling here); (b) for the two
    paths of one checker, x by big then small or x by small then big, when
    neither stop has a blot to hit; (c) when both steps bear off and either
    die could take either checker.
    """
    cdef int big = g.big, small = g.small, x
    cdef bint chain_big_first, chain_small_first, both_off
    g.pairs[sa] |= (<uint32_t>1) << sb
    g.pairs_by_small[sb] |= (<uint32_t>1) << sa
    # One rarely taken branch for the common case (computed branch-free).
    chain_big_first = sb == sa - big
    chain_small_first = (sa == sb - small) & (sb >= big)
    both_off = (sa < small) & (sb < small) & (sa != sb)
    if not (chain_big_first | chain_small_first | both_off):
        return False
    if chain_big_first or chain_small_first:      # (b)
        x = sa if chain_big_first else sb
        if (g.blots >> (x - big)) & 1 or (g.blots >> (x - small)) & 1:
            return False
        return _seen(g, x - small, x) if chain_big_first else _seen(g, x, x - big)
    return _seen(g, sb, sa)                       # (c)


cdef void _search_pair(Generator* g, Bits* io, bint big_first) noexcept nogil:
    # Play one die, then the other; each two-dice result is written once.
    cdef int a = g.big if big_first else g.small
    cdef int b = g.small if big_first else g.big
    cdef uint32_t first_m, second_m
    cdef int s1, s2
    cdef Bits* st = io
    first_m = _movable(g, st.occ, a)
    if not first_m and big_first:
        _emit(g, st, 0, 0)             # no die can be played: the turn passes
    while first_m:
        s1 = bg_msb(first_m)
        first_m &= ~((<uint32_t>1) << s1)
        _step(g, st, 0, s1, a)
        second_m = _movable(g, st.occ, b)
        if not second_m:
            # RULES 3.4: one die only; the larger beats the smaller.
            _emit(g, st, 1, 3 if big_first else 2)
        elif not big_first:
            second_m &= ~g.pairs_by_small[s1]   # pairs the first order found
        while second_m:
            s2 = bg_msb(second_m)
            second_m &= ~((<uint32_t>1) << s2)
            if not (_repeats(g, s1, s2) if big_first else _repeats(g, s2, s1)):
                _emit_step(g, st, 1, s2, b, 4)
        _unstep(g, st, 0, s1, a)


cdef inline void _emit_two(Generator* g, Bits* st, const uint8_t* a, const uint8_t* b,
                           int s1, int d1, int hit1, int s2, int d2, int hit2) noexcept nogil:
    # The result a + b of the steps s1 by d1 then s2 by d2 (no bear-off).
    if st.moves != NULL:
        g.path[0][0] = <int8_t>(s1 + 1)
        g.path[0][1] = <int8_t>(s1 - d1 + 1)
        g.path[0][2] = <int8_t>hit1
        g.path[1][0] = <int8_t>(s2 + 1)
        g.path[1][1] = <int8_t>(s2 - d2 + 1)
        g.path[1][2] = <int8_t>hit2
    _emit_board(g, st, a, b, 2, 4)


cdef bint _quiet_pairs(Generator* g, Bits* st) noexcept nogil:
    """Non-doubles when nothing is on the bar and nothing can be borne off
    this turn: every step is then a point-to-point move with fixed rules, so
    each result is the start plus the change of the big step plus that of
    the small one (one checker on the bar: bg_bar_one).  Returns False,
    writing nothing, when not so or when no play uses both dice (the
    general search then keeps the best one-die plays).

    The step pairs (big from sa, small from sb) met big die first are all
    the two-dice plays but the chains x -> x - small -> x - small - big
    through a point holding none of mine.  Two step pairs give one result
    only (see _repeats) as the two paths of one checker when neither stop
    has a blot; where one checker stops on a point of mine, the pair is
    found as big from x - small and small from x.
    """
    cdef int big = g.big, small = g.small, layout = st.me_at != 0
    cdef const uint8_t* me = g.cur + st.me_at
    cdef uint32_t occ = st.occ, rest = occ & ~(<uint32_t>HOME_MASK)
    cdef uint32_t blocked = g.blocked, blots = g.blots
    cdef uint32_t go_big = ~(blocked << big) & ~(((<uint32_t>1) << big) - 1)
    cdef uint32_t go_small = ~(blocked << small) & ~(((<uint32_t>1) << small) - 1)
    cdef uint32_t sources, second, chains, after
    cdef int sa, sb, t, hit, x, y
    cdef uint8_t p[64]
    cdef const uint8_t* rows[25]
    if occ >> BAR:    # one checker on the bar, results only: bg_bar_one; else the general search
        st.count = bg_bar_one(st.children, g.cur, &_change[layout][0][0][0][0], big, small, occ, blocked, blots) if (
            me[BAR] == 1 and st.moves == NULL and st.children != NULL) else 0
        st.best = 4 if st.count else -1
        return st.count > 0
    if not rest:
        return False
    # One checker outside that a single step may bring home: it could then
    # bear off with the other die.
    if not (rest & (rest - 1)) and me[bg_msb(rest)] == 1 and bg_msb(rest) < big + 6:
        return False
    sources = occ & go_big
    # The small step from each index it may start from, with its hit.
    second = (occ | (sources >> big)) & go_small
    while second:
        sb = bg_msb(second)
        second &= ~((<uint32_t>1) << sb)
        rows[sb] = &_change[layout][small][sb][(blots >> (sb - small)) & 1][0]
    st.count = 0
    st.best = 4          # the results below all use both dice
    while sources:
        sa = bg_msb(sources)
        sources &= ~((<uint32_t>1) << sa)
        t = sa - big
        hit = (blots >> t) & 1
        bg_add64(p, g.cur, &_change[layout][big][sa][hit][0])
        after = (occ & ~((<uint32_t>(me[sa] == 1)) << sa)) | ((<uint32_t>1) << t)
        second = after & go_small
        # Big from sa with small from sa + small is the chain sa + small
        # -> sa + small - big -> t, already met unless that stop has a blot
        # or is closed.
        sb = sa + small
        if sb < BAR and not ((blocked | blots) >> (sb - big)) & 1:
            second &= ~((<uint32_t>1) << sb)
        # Landing twice on the blot hit by the big step hits it once.
        if hit and (second >> (t + small)) & 1:
            second &= ~((<uint32_t>1) << (t + small))
            _emit_two(g, st, p, &_change[layout][small][t + small][0][0], sa, big, 1, t + small, small, 0)
        if st.moves == NULL:
            if st.children == NULL:
                st.count += bg_popcount(second)
            else:
                st.count += bg_leaves(st.children + <Py_ssize_t>st.count * BOARD_BYTES, p, second, rows)
            second = 0
        while second:
            sb = bg_msb(second)
            second &= ~((<uint32_t>1) << sb)
            _emit_two(g, st, p, rows[sb], sa, big, hit, sb, small, (blots >> (sb - small)) & 1)
    # Small die first: only chains x -> y -> t with y empty of mine are new.
    chains = occ & go_small & ~(occ << small)
    while chains:
        x = bg_msb(chains)
        chains &= ~((<uint32_t>1) << x)
        y = x - small
        t = y - big
        if t < 0 or (blocked >> t) & 1:
            continue
        # The same checker moved big first met this result unless a stop
        # had a blot or x - big is closed.
        if not ((blocked | blots) >> (x - big)) & 1 and not (blots >> y) & 1:
            continue
        hit = (blots >> t) & 1
        bg_add64(p, g.cur, rows[x])
        bg_add64(p, p, &_change[layout][big][y][hit][0])
        _emit_two(g, st, p, _no_change, x, small, (blots >> y) & 1, y, big, hit)
    if st.count == 0:
        st.best = -1
        return False
    return True


cdef int generate(Generator* g, const uint8_t* board, int d1, int d2,
                  uint8_t* children, int8_t* moves, bint swap) noexcept nogil:
    """Write the distinct plays of roll (d1, d2) and return how many.

    ``board`` is one position (docs/design.md) (row 1 on roll).  ``children`` takes
    MAX_PLAYS x 50 bytes (NULL: count only), ``moves`` MAX_PLAYS x 12 int8
    (from, to, hit per step; points 1..24, 25 = bar, 0 = off; unused -1).
    A roll with no legal step gives one play, the unchanged position; a
    finished game (a side with no checkers) or dice outside 1..6 give none.
    """
    cdef uint32_t opp_any, unused_two, unused_one
    cdef Bits st
    cdef const uint8_t* mine = board + SLOTS
    if d1 < 1 or d1 > 6 or d2 < 1 or d2 > 6:
        return 0
    bg_row_masks(mine, &g.occupied, &unused_two, &unused_one)
    bg_opp_masks(board, &opp_any, &g.blocked, &g.blots)
    if g.occupied == 0 or opp_any == 0:
        return 0
    # The result is written from the next mover's view when swapping.
    st.me_at = 0 if swap else SLOTS
    st.them_at = SLOTS if swap else 0
    memcpy(g.cur + st.me_at, mine, SLOTS)
    memcpy(g.cur + st.them_at, board, SLOTS)
    st.children = children
    st.moves = moves
    st.count = 0
    st.best = -1
    st.occ = g.occupied
    st.hit = 0
    st.hit_steps = 0
    if d1 == d2:
        g.die = d1
        _search_doubles(g, &st)
    else:
        g.big = d1 if d1 > d2 else d2
        g.small = d1 + d2 - g.big
        if _quiet_pairs(g, &st):
            g.best = st.best
            return st.count
        if g.occupied < 1 << 12 and st.moves == NULL and st.children != NULL:
            # All home, or one checker outside (bearing off, results only): bg_home_pair.
            st.count = bg_home_pair(children, g.cur, &_change[st.me_at != 0][0][0][0][0], st.me_at, g.big, g.small,
                                    g.occupied, g.blocked, g.blots)
            if st.count:
                g.best = 4
                return st.count
        memset(g.pairs, 0, sizeof(g.pairs))
        memset(g.pairs_by_small, 0, sizeof(g.pairs_by_small))
        # The bar, bearing off, or no play with both dice: the general search.
        _search_pair(g, &st, True)
        _search_pair(g, &st, False)
    g.best = st.best
    return st.count


cdef int dice_used(Generator* g) noexcept nogil:
    """Dice the last generate() call's plays use (0..4)."""
    return g.best // 2 if g.best > 0 else 0


# ---------------------------------------------------------------------------
# Python entry points.  Each checks its input with _checks, so nothing that
# reaches them from Python reads outside its buffers.

cdef Generator* _single = new_generator()
cdef uint8_t* _single_children = <uint8_t*>calloc(MAX_PLAYS, BOARD_BYTES)
cdef int8_t* _single_moves = <int8_t*>calloc(MAX_PLAYS, MOVE_BYTES)
if _single == NULL or _single_children == NULL or _single_moves == NULL:
    raise MemoryError()


def step(bytes board, int src, int dst, int die):
    """One checker step of ``die`` pips from point ``src`` (25 = bar) to
    ``dst`` (0 = off) on a 50-byte board (row 1 moves), if the rules allow
    it on its own (RULES 3.1-3.3, 4.1-4.2, 5.1-5.3; whether the whole play
    uses the dice it must is for the full play to say).  Returns the new
    board and whether it hit, or None.
    """
    cdef Bits st
    cdef uint32_t opp_any, unused_two, unused_one
    cdef const uint8_t* b
    cdef int s = src - 1
    b = board_bytes("board", board)
    need_dice(die, die)
    if not (1 <= src <= 25 and 0 <= dst < src):
        return None
    if (s >= die and dst != s - die + 1) or (s < die and dst != 0):
        return None                      # the step is not of die pips
    bg_row_masks(b + SLOTS, &_single.occupied, &unused_two, &unused_one)
    bg_opp_masks(b, &opp_any, &_single.blocked, &_single.blots)
    st.occ = _single.occupied
    st.hit = 0
    st.hit_steps = 0
    st.me_at = SLOTS
    st.them_at = 0
    st.moves = NULL
    memcpy(_single.cur, b, BOARD_BYTES)
    if not (_movable(_single, st.occ, die) >> s) & 1:
        return None
    _step(_single, &st, 0, s, die)
    return PyBytes_FromStringAndSize(<char*>_single.cur, BOARD_BYTES), bool(st.hit_steps & 1)


def plays(bytes board, int d1, int d2):
    """Plays of one 50-byte board: ``(n, children, moves, dice_used)``.

    ``children`` holds n boards of 50 bytes from the next mover's view,
    ``moves`` n x 12 signed bytes.  Holds the GIL: the scratch buffers are
    shared, and one position takes well under a microsecond.
    """
    cdef const uint8_t* b = board_bytes("board", board)
    need_dice(d1, d2)
    cdef int n = generate(_single, b, d1, d2, _single_children, _single_moves, True)
    return (n,
            PyBytes_FromStringAndSize(<char*>_single_children, n * BOARD_BYTES),
            PyBytes_FromStringAndSize(<char*>_single_moves, n * MOVE_BYTES),
            dice_used(_single))


def count_plays(bytes board, int d1, int d2):
    """Number of distinct plays of one 50-byte board."""
    cdef const uint8_t* b = board_bytes("board", board)
    need_dice(d1, d2)
    return generate(_single, b, d1, d2, NULL, NULL, True)


cdef int _need_outputs(const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, int64_t[::1] offsets,
                       uint8_t[:, :, ::1] children, int8_t[:, :, ::1] moves) except -1:
    # The shapes of a batch call's input and CSR output (values are checked
    # row by row, while each row is in cache).
    cdef Py_ssize_t n = boards.shape[0]
    need_boards("boards", boards)
    need_shape("rolls", rolls.shape[0] == n and rolls.shape[1] == 2, "(n, 2)")
    need_rows("offsets", offsets.shape[0], n + 1)
    need_boards("children", children)
    if moves is not None:
        need_shape("moves", moves.shape[0] == children.shape[0] and moves.shape[1] == 4
                   and moves.shape[2] == STEP_FIELDS, "(len(children), 4, 3)")
    return 0


def generate_into(const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls,
                  Py_ssize_t start, int64_t[::1] offsets,
                  uint8_t[:, :, ::1] children, int8_t[:, :, ::1] moves,
                  bint swap, bint check=True):
    """Fill the CSR arrays from board ``start`` on, while room remains.

    ``offsets[start]`` must be set.  Returns ``(stop, problem)``: ``stop`` is
    the first board not done; the caller grows ``children`` (and ``moves``,
    which may be None) and calls again.  With ``check``, each board and roll
    is validated just before use (it is in cache then); ``problem`` is then
    the board's BoardProblem code, or BAD_DICE, for board ``stop``, else 0.
    Runs without the GIL.
    """
    cdef Py_ssize_t i = start, n = boards.shape[0], at
    cdef Py_ssize_t capacity = children.shape[0]
    cdef int k, problem = 0
    cdef Generator* g
    cdef int8_t* mv = NULL
    cdef const uint8_t* board
    _need_outputs(boards, rolls, offsets, children, moves)
    if start < 0 or start > n:
        raise ValueError("start out of range")
    g = new_generator()
    if g == NULL:
        raise MemoryError()
    with nogil:
        while i < n:
            at = offsets[i]
            if at < 0 or capacity - at < MAX_PLAYS:
                break
            board = &boards[i, 0, 0]
            problem = pair_problem(board, rolls[i, 0], rolls[i, 1], check)
            if problem != BOARD_OK:
                break
            if moves is not None:
                mv = &moves[at, 0, 0]
            k = generate(g, board, rolls[i, 0], rolls[i, 1], &children[at, 0, 0], mv, swap)
            offsets[i + 1] = at + k
            i += 1
    free(g)
    return i, problem


ctypedef struct _Pairs:
    Generator* g
    const uint8_t* boards
    const uint8_t* rolls
    bint swap
    bint check                 # check each board (dice are always checked)
    Py_ssize_t bad             # the first pair this thread found bad, else -1
    int problem                # its BoardProblem code, or BAD_DICE


cdef int _pair_row(void* ctx, Py_ssize_t i, uint8_t* children, int8_t* moves) noexcept nogil:
    cdef _Pairs* p = <_Pairs*>ctx
    cdef const uint8_t* board = p.boards + i * BOARD_BYTES
    cdef int d1 = p.rolls[2 * i], d2 = p.rolls[2 * i + 1]
    cdef int problem = pair_problem(board, d1, d2, p.check)
    if problem != BOARD_OK:
        # Checked while the board is in cache; reported once all are done.
        if p.bad < 0 or i < p.bad:
            p.bad = i
            p.problem = problem
        return 0
    return generate(p.g, board, d1, d2, children, moves, p.swap)


def generate_shared(const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, int64_t[::1] offsets,
                    uint8_t[:, :, ::1] children, int8_t[:, :, ::1] moves, bint swap, Chain chain not None,
                    bint check=True):
    """This thread's share of filling the CSR arrays of every pair, other
    threads calling it with the same arrays and ``chain`` (see
    ``run_chained``; ``offsets[0]`` must be 0).  With ``check`` each board
    is validated as it is used; dice always are.  A bad pair gets no plays.
    Returns ``(status, bad, problem)``: status 0, 1 (output too small) or
    2 (out of memory); the first bad pair this thread met (-1: none) and its
    BoardProblem code or BAD_DICE.  Runs without the GIL."""
    cdef Py_ssize_t n = boards.shape[0]
    cdef _Pairs p
    cdef int status
    _need_outputs(boards, rolls, offsets, children, moves)
    need_rows("chain", chain.n, n)
    if n == 0:
        return 0, -1, 0
    if children.shape[0] == 0:
        return 1, -1, 0
    p.g = new_generator()
    if p.g == NULL:
        raise MemoryError()
    p.boards = &boards[0, 0, 0]
    p.rolls = &rolls[0, 0]
    p.swap = swap
    p.check = check
    p.bad = -1
    p.problem = BOARD_OK
    cdef int8_t* mv = &moves[0, 0, 0] if moves is not None else NULL
    with nogil:
        status = run_chained(_pair_row, &p, n, chain.chunk, &offsets[0], &children[0, 0, 0], mv,
                             children.shape[0], chain.sync)
    free(p.g)
    return status, p.bad, p.problem


# -- small batches -------------------------------------------------------------------------
# A batch of a few pairs costs more in checks and array set-up than in
# generation: this path does it all in one call, holding the GIL (it takes
# microseconds), through a scratch buffer kept between calls.

cnp.import_array()

cdef enum:
    SMALL_PAIRS = 64           # the most pairs legal_small takes

cdef uint8_t* _small_kids = NULL
cdef int8_t* _small_moves = NULL
cdef Py_ssize_t _small_capacity = 0


cdef int _small_room(Py_ssize_t need) except -1:
    # Scratch for at least ``need`` children (and their moves).
    global _small_kids, _small_moves, _small_capacity
    cdef void* p
    if need <= _small_capacity:
        return 0
    need = max(need, 2 * _small_capacity)
    p = realloc(_small_kids, need * BOARD_BYTES)
    if p == NULL:
        raise MemoryError()
    _small_kids = <uint8_t*>p
    p = realloc(_small_moves, need * MOVE_BYTES)
    if p == NULL:
        raise MemoryError()
    _small_moves = <int8_t*>p
    _small_capacity = need
    return 0


def legal_small(boards, rolls, bint moves, bint swap, bint check):
    """legal_positions of at most SMALL_PAIRS pairs given as numpy arrays
    (boards (n, 2, 25) uint8, rolls (n, 2) of uint8 or int64, both
    C-contiguous): ``(offsets, children[, moves])`` as fresh arrays; None
    when the input is of another kind or a pair is bad (the general path
    then says why)."""
    cdef cnp.ndarray b, r
    cdef cnp.npy_intp n, i, total = 0, dims[3]
    cdef int d1, d2, k, kind
    cdef const uint8_t* board
    cdef const uint8_t* rb
    cdef const int64_t* rl
    cdef int64_t off[SMALL_PAIRS + 1]
    if not (cnp.PyArray_CheckExact(boards) and cnp.PyArray_CheckExact(rolls)):
        return None
    b = <cnp.ndarray>boards
    r = <cnp.ndarray>rolls
    if cnp.PyArray_TYPE(b) != cnp.NPY_UINT8 or cnp.PyArray_NDIM(b) != 3 or not cnp.PyArray_IS_C_CONTIGUOUS(b) \
            or cnp.PyArray_DIM(b, 1) != 2 or cnp.PyArray_DIM(b, 2) != SLOTS:
        return None
    n = cnp.PyArray_DIM(b, 0)
    kind = cnp.PyArray_TYPE(r)
    if n > SMALL_PAIRS or cnp.PyArray_NDIM(r) != 2 or cnp.PyArray_DIM(r, 0) != n or cnp.PyArray_DIM(r, 1) != 2 \
            or not cnp.PyArray_IS_C_CONTIGUOUS(r) or (kind != cnp.NPY_UINT8 and kind != cnp.NPY_INT64):
        return None
    _small_room(MAX_PLAYS)
    board = <const uint8_t*>cnp.PyArray_DATA(b)
    rb = <const uint8_t*>cnp.PyArray_DATA(r)
    rl = <const int64_t*>cnp.PyArray_DATA(r)
    off[0] = 0
    for i in range(n):
        if kind == cnp.NPY_UINT8:
            d1 = rb[2 * i]
            d2 = rb[2 * i + 1]
        else:
            if rl[2 * i] < 1 or rl[2 * i] > 6 or rl[2 * i + 1] < 1 or rl[2 * i + 1] > 6:
                return None
            d1 = <int>rl[2 * i]
            d2 = <int>rl[2 * i + 1]
        if pair_problem(board + i * BOARD_BYTES, d1, d2, check) != BOARD_OK:
            return None
        if _small_capacity - total < MAX_PLAYS:
            _small_room(total + MAX_PLAYS)
        k = generate(_single, board + i * BOARD_BYTES, d1, d2, _small_kids + total * BOARD_BYTES,
                     _small_moves + total * MOVE_BYTES if moves else NULL, swap)
        total += k
        off[i + 1] = total
    dims[0] = n + 1
    offsets = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT64, 0)
    memcpy(cnp.PyArray_DATA(offsets), off, (n + 1) * sizeof(int64_t))
    dims[0] = total
    dims[1] = 2
    dims[2] = SLOTS
    children = cnp.PyArray_EMPTY(3, dims, cnp.NPY_UINT8, 0)
    memcpy(cnp.PyArray_DATA(children), _small_kids, total * BOARD_BYTES)
    if not moves:
        return offsets, children
    dims[1] = 4
    dims[2] = STEP_FIELDS
    steps = cnp.PyArray_EMPTY(3, dims, cnp.NPY_INT8, 0)
    memcpy(cnp.PyArray_DATA(steps), _small_moves, total * MOVE_BYTES)
    return offsets, children, steps
