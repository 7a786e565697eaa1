# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The neural network evaluator: encoding, forward pass, search and training.

Two networks with one hidden layer of sigmoid units and five sigmoid
outputs: one for positions with contact, one for races.  Positions where
both sides are home take the bear-off tables' chances, finished ones their
exact result.  The inputs are sparse (a point with n checkers sets at most
two of its four units), so the hidden layer is the bias plus one row of
weights per nonzero input.  docs/evaluation.md describes the encoding.
"""
from libc.stdint cimport uint8_t, int8_t, uint32_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset, memcmp
from libc.math cimport sqrt

import numpy as np

from numpy.random cimport bitgen_t

from backgammon._dice cimport bounded, bitgen_of, OPENING_THROWS, opening_throw, DISTINCT_ROLLS, distinct_roll
from backgammon._checks cimport need_valid_boards, need_valid_board, need_rolls, need_shape

from backgammon._board cimport (SLOTS, BAR, POINTS, CHECKERS, no_contact, both_home, loss_kind, check_board,
                                BOARD_OK, starting_position, cubeless_equity)
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._bearoff cimport RaceTables, race_estimate, set_race_tables


cdef extern from "_bits.h":
    void bg_row_masks(const uint8_t* p, uint32_t* nonzero, uint32_t* two, uint32_t* one) nogil
    uint32_t bg_reverse24(uint32_t x) nogil
    int bg_popcount(unsigned int x) nogil
    int bg_msb(unsigned int x) nogil
    int bg_lsb(unsigned int x) nogil
    int bg_row_sum(const uint8_t* p) nogil

cdef extern from "_nn.h":
    float nn_sigmoid1(float x) nogil
    void nn_sigmoid(const float* x, float* y, int n) nogil
    void nn_add(float* h, const float* w, int n) nogil
    void nn_axpy(float* h, float a, const float* w, int n) nogil
    float nn_dot(const float* a, const float* b, int n) nogil
    void nn_forward(const float* w1, const float* b1, const float* w2, const float* b2, int h,
                    const int32_t* index, const float* value, int n, float* hidden, float* out) nogil
    int nn_select(int allow_wide)

_WIDE = nn_select(1)


def set_instruction_set(bint wide):
    """Use the AVX2 forward pass where the machine has it (``wide``), or the
    baseline SSE2 one; returns whether AVX2 is now in use."""
    global _WIDE
    _WIDE = nn_select(wide)
    return bool(_WIDE)

# Plays the pruning network ranks this far (cubeless equity) below its
# best are not evaluated in full, whatever PRUNE_KEEP allows.
cdef float PRUNE_WITHIN = 0.2

cdef enum:
    HOME_MASK = 0x3F                   # points 1..6
    OTHER_HOME_MASK = 0x3F << 18       # points 19..24: the other side's home board
    ESCAPE_WINDOW = 12                 # points ahead of a back checker that can block it
    CRASHED_IN_PLAY = 6

# The 21 rolls, high die first, and their weight among the 36.
cdef int ROLL_HI[DISTINCT_ROLLS]
cdef int ROLL_LO[DISTINCT_ROLLS]
cdef float ROLL_WEIGHT[DISTINCT_ROLLS]
cdef double _weight
cdef int _k
for _k in range(DISTINCT_ROLLS):
    distinct_roll(_k, &ROLL_HI[_k], &ROLL_LO[_k], &_weight)
    ROLL_WEIGHT[_k] = _weight


# ESCAPES[r][m]: of the 36 rolls, how many carry one checker past every
# blocked point among the 12 ahead of it; bit t of m is the point 12 - t
# ahead, r = min(12, the points left before the edge of the board: a
# landing beyond them does not count).  Landings must be open; points
# beyond the 12 are taken as open.
cdef uint8_t ESCAPES[13][4096]


cdef bint _open_at(int m, int d) noexcept nogil:
    return d > ESCAPE_WINDOW or not (m >> (ESCAPE_WINDOW - d)) & 1


cdef int _escape_count(int r, int m) noexcept nogil:
    cdef int far = 0, d, k, d1, d2, total = 0, step
    cdef bint out
    for d in range(1, ESCAPE_WINDOW + 1):
        if not _open_at(m, d):
            far = d
    if far == 0:
        return 36
    for k in range(21):
        d1 = ROLL_HI[k]
        d2 = ROLL_LO[k]
        out = False
        if d1 != d2:
            if _open_at(m, d1) and d1 > far and (r == ESCAPE_WINDOW or d1 <= r):
                out = True
            if _open_at(m, d2) and d2 > far and (r == ESCAPE_WINDOW or d2 <= r):
                out = True
            if (_open_at(m, d1) or _open_at(m, d2)) and _open_at(m, d1 + d2) and d1 + d2 > far and \
                    (r == ESCAPE_WINDOW or d1 + d2 <= r):
                out = True
            if out:
                total += 2
        else:
            for step in range(1, 5):
                if not _open_at(m, step * d1):
                    break
                if step * d1 > far and (r == ESCAPE_WINDOW or step * d1 <= r):
                    out = True
                    break
            if out:
                total += 1
    return total


cdef int _r, _m
for _r in range(ESCAPE_WINDOW + 1):
    for _m in range(1 << ESCAPE_WINDOW):
        ESCAPES[_r][_m] = <uint8_t>_escape_count(_r, _m)


cdef inline int _escapes_from(int i, uint32_t blocked) noexcept nogil:
    # ESCAPES of a checker on index i (24: the bar) against ``blocked``
    # (bit j: index j held by the other side).
    if i >= ESCAPE_WINDOW:
        return ESCAPES[ESCAPE_WINDOW][(blocked >> (i - ESCAPE_WINDOW)) & 0xFFF]
    return ESCAPES[i][(blocked << (ESCAPE_WINDOW - i)) & 0xFFF]


def escapes(int i, uint32_t blocked):
    """The escape count of the second layout's features (for tests): rolls
    that carry a checker on index ``i`` past the blocked points ahead."""
    if not 0 <= i <= BAR:
        raise ValueError("i must be 0..24")
    return _escapes_from(i, blocked & 0xFFFFFF)


# -- classes and the encoding ---------------------------------------------------------

cdef inline bint _crashed(const uint8_t* row) noexcept nogil:
    # A side has crashed when at most CRASHED_IN_PLAY of its checkers are
    # still in play, not counting those beyond the first on its 1- and
    # 2-points (they are out of play for anything but bearing off).
    cdef int n = bg_row_sum(row)
    if row[0] > 1:
        n -= row[0] - 1
    if row[1] > 1:
        n -= row[1] - 1
    return n <= CRASHED_IN_PLAY


cdef PositionClass position_class(const uint8_t* board) noexcept nogil:
    if bg_row_sum(board) == 0 or bg_row_sum(board + SLOTS) == 0:
        return CLASS_OVER
    if both_home(board):
        return CLASS_BEAROFF
    if no_contact(board):
        return CLASS_RACE
    if _crashed(board) or _crashed(board + SLOTS):
        return CLASS_CRASHED
    return CLASS_CONTACT


cdef const Net* net_for(const Evaluator* ev, PositionClass cls) noexcept nogil:
    """The network that answers for a race, contact or crashed position."""
    if cls == CLASS_RACE:
        return &ev.race
    if cls == CLASS_CRASHED and ev.crashed.n_inputs:
        return &ev.crashed
    return &ev.contact


cdef inline int _pips(const uint8_t* row) noexcept nogil:
    cdef int i, s = 25 * row[BAR]
    for i in range(POINTS):
        s += (i + 1) * row[i]
    return s


cdef inline int _rear(const uint8_t* row) noexcept nogil:
    # Index of the rearmost checker (24 = bar), -1 when none is left.
    cdef int i
    for i in range(SLOTS - 1, -1, -1):
        if row[i]:
            return i
    return -1


cdef int _hit_rolls(const uint8_t* attacker, uint32_t src, uint32_t blocked, uint32_t blots) noexcept nogil:
    # Of the 36 rolls, how many let ``attacker`` hit one of ``blots``
    # (masks in the attacker's indices; blocked = the defender's made
    # points).  Checkers on the bar enter first; every landing of a checker
    # using several dice must be open (RULES 3.2, 4.1).  The choice of the
    # rest of the play is ignored.  src: the attacker's occupied points.
    cdef uint32_t e1, e2, entry, m
    cdef uint32_t shifted[7]
    cdef uint32_t landed[7]
    cdef bint single[7]
    cdef int i, k, d, d1, d2, on_bar = attacker[BAR], steps, total = 0
    cdef bint hit
    if not blots:
        return 0
    if on_bar == 0:
        # Each die's single steps, once; a pair adds the two-step chains.
        for d in range(1, 7):
            shifted[d] = src >> d
            landed[d] = shifted[d] & ~blocked
            single[d] = (shifted[d] & blots) != 0
        for k in range(21):
            d1 = ROLL_HI[k]
            d2 = ROLL_LO[k]
            if d1 != d2:
                if single[d1] or single[d2] or (((landed[d1] >> d2) | (landed[d2] >> d1)) & blots):
                    total += 2
            else:
                if single[d1]:
                    total += 1
                    continue
                m = landed[d1]
                for steps in range(3):
                    m = (m >> d1) & ~blocked
                    if m & blots:
                        total += 1
                        break
        return total
    for k in range(21):
        d1 = ROLL_HI[k]
        d2 = ROLL_LO[k]
        hit = False
        if d1 != d2:
            e1 = ((1u << BAR) >> d1) & ~blocked
            e2 = ((1u << BAR) >> d2) & ~blocked
            if on_bar == 1:
                hit = ((e1 | e2) & blots) != 0
                if not hit and e1:
                    hit = (((src | e1) >> d2) & blots) != 0
                if not hit and e2:
                    hit = (((src | e2) >> d1) & blots) != 0
            else:
                hit = ((e1 | e2) & blots) != 0
        else:
            entry = ((1u << BAR) >> d1) & ~blocked
            if entry == 0:
                continue
            hit = (entry & blots) != 0
            steps = 4 - on_bar
            m = src | entry
            while not hit and steps > 0:
                m = (m >> d1) & ~blocked
                hit = (m & blots) != 0
                steps -= 1
        if hit:
            total += 1 if d1 == d2 else 2
    return total


cdef int _escapes(int rear, uint32_t blocked) noexcept nogil:
    # Of the 36 rolls, how many take a checker on index ``rear`` (24 = bar)
    # past the lowest blocked point among the ESCAPE_WINDOW points ahead
    # (to a point below it; bearing off is not counted).
    cdef uint32_t window, target, start, a, b, m, reached
    cdef int k, d1, d2, low, steps, total = 0
    if rear < 0:
        return 36
    window = blocked & ((1u << rear) - 1) & ~((1u << (rear - ESCAPE_WINDOW)) - 1 if rear > ESCAPE_WINDOW else 0)
    if not window:
        return 36
    low = 0
    while not (window >> low) & 1:
        low += 1
    target = (1u << low) - 1
    start = 1u << rear
    for k in range(21):
        d1 = ROLL_HI[k]
        d2 = ROLL_LO[k]
        if d1 != d2:
            a = (start >> d1) & ~blocked
            b = (start >> d2) & ~blocked
            reached = a | b | (((a >> d2) | (b >> d1)) & ~blocked)
            if reached & target:
                total += 2
        else:
            m = start
            reached = 0
            for steps in range(4):
                m = (m >> d1) & ~blocked
                reached |= m
            if reached & target:
                total += 1
    return total


cdef void _side_features(const uint8_t* me, const uint8_t* other, uint32_t me_nz, uint32_t me_two,
                         uint32_t me_one, uint32_t ot_nz, uint32_t ot_two, float* f) noexcept nogil:
    # The SIDE_FEATURES of the side whose row is ``me`` (docs/evaluation.md),
    # given both rows' masks (nonzero incl. the bar, made points, blots).
    cdef uint32_t m
    cdef int i, run, back, rear, cross, need
    f[0] = _pips(me) / 167.0
    # The other side attacks my blots; in its indices my point i is 23 - i.
    f[1] = _hit_rolls(other, ot_nz & 0xFFFFFFu, bg_reverse24(me_two), bg_reverse24(me_one)) / 36.0
    f[2] = _escapes(bg_msb(me_nz) if me_nz else -1, bg_reverse24(ot_two)) / 36.0
    m = me_two
    run = 0
    while m:
        m &= m >> 1
        run += 1
    f[3] = run / 6.0
    f[4] = bg_popcount(me_two & HOME_MASK) / 6.0
    f[5] = 1.0 if me_two & OTHER_HOME_MASK else 0.0
    back = me[BAR]
    for i in range(18, POINTS):
        back += me[i]
    f[6] = back / 5.0
    # Pips my checkers behind the other side's rearmost one must travel to
    # pass it; its index r is my 23 - r (its bar: my -1).
    rear = bg_msb(ot_nz) if ot_nz else -1
    cross = 23 - rear
    need = 0
    for i in range(cross + 1 if cross + 1 > 0 else 0, SLOTS):
        need += (i - cross) * me[i]
    f[7] = need / 100.0


cdef inline int _side_units(const uint8_t* row, int base, int32_t* index, float* value, int n) noexcept nogil:
    # The units of one side's occupied slots, in slot order, then its
    # checkers borne off.
    cdef uint32_t nz, two, one
    cdef int i, c, at, left = CHECKERS - bg_row_sum(row)
    bg_row_masks(row, &nz, &two, &one)
    while nz:
        i = bg_lsb(nz)
        nz &= nz - 1
        c = row[i]
        at = base + UNITS_PER_SLOT * i
        if c == 1:
            index[n] = at
        elif c == 2:
            index[n] = at + 1
        else:
            index[n] = at + 2
            if c > 3:
                value[n] = 1.0
                n += 1
                index[n] = at + 3
                value[n] = (c - 3) * 0.5
                n += 1
                continue
        value[n] = 1.0
        n += 1
    if left > 0:
        index[n] = base + SIDE_UNITS - 1
        value[n] = left / 15.0
        n += 1
    return n


cdef void _more_features(const uint8_t* me, const uint8_t* other, uint32_t me_nz, uint32_t me_two,
                         uint32_t me_one, uint32_t ot_nz, uint32_t ot_two, float* f) noexcept nogil:
    # Features 8..22 of the second layout for the side whose row is ``me``
    # (docs/evaluation.md), in its indices: the other side's index j is
    # its 23 - j, the other's bar its -1.
    cdef uint32_t held = bg_reverse24(ot_two)          # points the other side holds
    cdef uint32_t theirs = bg_reverse24(ot_nz & 0xFFFFFFu)
    cdef uint32_t near = 0, m
    cdef int i, k, c, rear, low, n = 0, deep, least = 36, least_rear = 36
    cdef uint8_t esc[13]
    cdef float mean, sq, tail, timing = 0.0, mobility = 0.0, loss = 0.0
    # 8, 9: my rearmost point held in the other's half, my most advanced
    # point held in the other's home.
    f[8] = 0.0
    f[9] = 0.0
    m = me_two & 0xFFF000u
    if m:
        f[8] = (bg_msb(m) - 11) / 12.0
    m = me_two & OTHER_HOME_MASK
    if m:
        low = 0
        while not (m >> low) & 1:
            low += 1
        f[9] = (24 - low) / 6.0
    # 10, 11: how well the other side contains my rearmost checker (the
    # fewest escapes from any index between it and the other's outfield),
    # 12, 13: the same for any index of the other's half.
    rear = bg_msb(me_nz) if me_nz else -1
    for i in range(12, SLOTS):
        k = ESCAPES[ESCAPE_WINDOW][(held >> (i - ESCAPE_WINDOW)) & 0xFFF]
        esc[i - 12] = <uint8_t>k
        if i < POINTS and k < least:
            least = k
        if i <= rear and k < least_rear:
            least_rear = k
    f[10] = 1.0 - least_rear / 36.0 if rear >= 12 else 0.0
    f[11] = f[10] * f[10]
    f[12] = 1.0 - least / 36.0
    f[13] = f[12] * f[12]
    # 14: mobility of the checkers outside home: their escapes times the
    # way still to go; 17: timing, pips playable before a home point or an
    # anchor must break; 15: the spread of the rearmost checkers.
    mean = 0.0
    for i in range(SLOTS):
        c = me[i]
        if not c:
            continue
        n += c
        mean += c * i
        if i >= 6:
            mobility += c * (esc[i - 12] if i >= 12 else _escapes_from(i, held)) * (i - 5)
            timing += c * (i - 5)
            if i >= 18 and i < POINTS and c >= 2:
                timing -= 2 * (i - 5)
        elif c > 2:
            timing += (c - 2) * i
    f[14] = mobility / 3600.0
    f[17] = timing / 100.0
    f[15] = 0.0
    if n:
        mean /= n
        sq = 0.0
        k = 0
        for i in range(SLOTS):
            if me[i] and i > mean:
                tail = i - mean
                sq += me[i] * tail * tail
                k += me[i]
        if k:
            f[15] = sq / k / 400.0
    # 16: the chance that a checker on the bar dances.
    c = bg_popcount(held & OTHER_HOME_MASK)
    f[16] = (c / 6.0) * (c / 6.0)
    # 18: points outside home held with another held point within 6 ahead.
    m = me_two
    for k in range(1, 7):
        near |= m << k
    f[18] = bg_popcount(me_two & near & 0xFFFFC0u) / 6.0
    # 19: a back game: two or more points held in the other's home.
    f[19] = 1.0 if bg_popcount(me_two & OTHER_HOME_MASK) >= 2 else 0.0
    # 20: blots; 21: checkers piled on my 1- and 2-points.
    f[20] = bg_popcount(me_one & 0xFFFFFFu) / 5.0
    deep = me[0] + me[1]
    f[21] = deep / 8.0
    # 22: pips at stake: the blots the other side can reach, what each
    # loses when hit, indirect shots (7 to 12 away) counted half.
    m = me_one & 0xFFFFFFu
    while m:
        i = bg_msb(m)
        m &= ~(1u << i)
        if (theirs & _behind(i, 1, 6)) or (other[BAR] and i <= 5):
            loss += 24 - i
        elif (theirs & _behind(i, 7, 12)) or (other[BAR] and 6 <= i <= 11):
            loss += 0.5 * (24 - i)
    f[22] = loss / 100.0


cdef inline uint32_t _behind(int i, int near, int far) noexcept nogil:
    # The indices near..far behind index i (lower indices: where the other
    # side's checkers come from), as a mask.
    cdef int lo = i - far, hi = i - near
    if hi < 0:
        return 0
    if lo < 0:
        lo = 0
    return ((1u << (hi + 1)) - 1) & ~((1u << lo) - 1)


cdef void _race_features(const uint8_t* row, float* f) noexcept nogil:
    # The RACE_FEATURES of one side of the second race layout.
    cdef int i, c, cross = 0, gaps = 0, top = -1
    f[0] = _pips(row) / 167.0
    for i in range(POINTS):
        c = row[i]
        if c:
            if i >= 6:
                cross += c * ((i - 6) // 6 + 1)
            if i < 6:
                top = i
    for i in range(top):
        if not row[i]:
            gaps += 1
    f[1] = cross / 30.0
    f[2] = (row[0] + row[1] + row[2]) / 15.0
    f[3] = gaps / 6.0


cdef int encode(const uint8_t* board, const Net* net, int32_t* index, float* value) noexcept nogil:
    """The nonzero inputs of a position (row 1 on roll) for ``net``, in
    the layout its number of inputs names: indices and values; returns how
    many."""
    return _encode(board, net, index, value, True)


cdef int _encode(const uint8_t* board, const Net* net, int32_t* index, float* value, bint mine) noexcept nogil:
    # encode; without the units of the side on roll unless ``mine`` (its
    # rows are then already summed into the hidden layer's start).
    cdef const uint8_t* me = board + SLOTS
    cdef const uint8_t* other = board
    cdef float f[2 * SIDE_FEATURES]
    cdef int n = 0, k, per, count
    cdef uint32_t me_nz, me_two, me_one, ot_nz, ot_two, ot_one
    if mine:
        n = _side_units(me, 0, index, value, n)
    n = _side_units(other, SIDE_UNITS, index, value, n)
    if net.n_inputs == PRUNE_INPUTS:
        return n
    if net.n_inputs == RACE_INPUTS_1:
        index[n] = RAW_INPUTS
        value[n] = _pips(me) / 167.0
        index[n + 1] = RAW_INPUTS + 1
        value[n + 1] = _pips(other) / 167.0
        return n + 2
    if net.n_inputs == RACE_INPUTS:
        _race_features(me, f)
        _race_features(other, f + RACE_FEATURES)
        per = RACE_FEATURES
    else:
        bg_row_masks(me, &me_nz, &me_two, &me_one)
        bg_row_masks(other, &ot_nz, &ot_two, &ot_one)
        per = SIDE_FEATURES if net.n_inputs == CONTACT_INPUTS else SIDE_FEATURES_1
        _side_features(me, other, me_nz, me_two, me_one, ot_nz, ot_two, f)
        _side_features(other, me, ot_nz, ot_two, ot_one, me_nz, me_two, f + per)
        if per == SIDE_FEATURES:
            _more_features(me, other, me_nz, me_two, me_one, ot_nz, ot_two, f)
            _more_features(other, me, ot_nz, ot_two, ot_one, me_nz, me_two, f + per)
    count = 2 * per
    for k in range(count):
        if f[k] != 0.0:
            index[n] = RAW_INPUTS + k
            value[n] = f[k]
            n += 1
    return n


# -- the forward pass -------------------------------------------------------------------

cdef inline void _forward(const Net* net, const int32_t* index, const float* value, int n, float* out, Work* w) noexcept nogil:
    # Hidden layer from the nonzero rows, then the five sigmoid outputs;
    # w.hidden keeps the hidden layer for training.
    nn_forward(net.w1, net.b1, net.w2, net.b2, net.n_hidden, index, value, n, w.hidden, out)


cdef inline void _consistent(float* p) noexcept nogil:
    # Gammons are among wins and backgammons among gammons (on both sides).
    if p[1] > p[0]:
        p[1] = p[0]
    if p[2] > p[1]:
        p[2] = p[1]
    if p[3] > 1.0 - p[0]:
        p[3] = 1.0 - p[0]
    if p[4] > p[3]:
        p[4] = p[3]


cdef inline void _possible(const uint8_t* board, PositionClass cls, float* p) noexcept nogil:
    # What the dice can no longer bring about is not guessed (as gnubg's
    # sanity check): no gammon against a side that has borne off a checker,
    # and in a race no backgammon against a side with nothing left in the
    # winner's home board.
    cdef const uint8_t* me = board + SLOTS
    cdef int i, mine = 0, theirs = 0, my_back = 0, their_back = 0
    for i in range(SLOTS):
        mine += me[i]
        theirs += board[i]
    for i in range(18, SLOTS):
        my_back += me[i]
        their_back += board[i]
    if theirs < CHECKERS:
        p[1] = 0.0
        p[2] = 0.0
    if mine < CHECKERS:
        p[3] = 0.0
        p[4] = 0.0
    if cls == CLASS_RACE:
        if their_back == 0:
            p[2] = 0.0
        if my_back == 0:
            p[4] = 0.0


cdef void _exact(const uint8_t* board, PositionClass cls, const Evaluator* ev, float* out) noexcept nogil:
    # A finished position or a bear-off race: no network involved.
    cdef double est[3]
    cdef int i, kind, left = 0
    for i in range(OUTPUTS):
        out[i] = 0.0
    if cls == CLASS_OVER:
        for i in range(SLOTS):
            left += board[SLOTS + i]
        if left == 0:                            # the side on roll is off
            kind = loss_kind(board)
            out[0] = 1.0
            out[1] = kind >= 2
            out[2] = kind == 3
        else:
            kind = loss_kind(board + SLOTS)
            out[3] = kind >= 2
            out[4] = kind == 3
        return
    race_estimate(&ev.tables, board, est)
    out[0] = <float>est[0]
    out[1] = <float>est[1]
    out[3] = <float>est[2]


cdef inline void _evaluate_class(const Evaluator* ev, const uint8_t* board, PositionClass cls, float* out,
                                 Work* w) noexcept nogil:
    cdef int n
    cdef const Net* net
    if cls == CLASS_OVER or cls == CLASS_BEAROFF:
        _exact(board, cls, ev, out)
        return
    net = net_for(ev, cls)
    n = encode(board, net, w.index, w.value)
    _forward(net, w.index, w.value, n, out, w)
    _consistent(out)
    _possible(board, cls, out)


cdef void evaluate_board(const Evaluator* ev, const uint8_t* board, float* out, Work* w) noexcept nogil:
    """The five chances of the side on roll of ``board`` at 0-ply."""
    _evaluate_class(ev, board, position_class(board), out, w)


cdef float equity(const float* p) noexcept nogil:
    """Cubeless money equity of the five chances."""
    return cubeless_equity(p)


cdef inline void _flip(const float* p, float* q) noexcept nogil:
    # The same chances seen by the other side.
    cdef float w = p[0], wg = p[1], wb = p[2], lg = p[3], lb = p[4]
    q[0] = 1.0 - w
    q[1] = lg
    q[2] = lb
    q[3] = wg
    q[4] = wb


cdef void _start(const Net* net, const uint8_t* row, Start* start, Work* w) noexcept nogil:
    cdef int k, h = net.n_hidden
    cdef int n = _side_units(row, 0, w.index, w.value, 0)
    memcpy(start.sums, net.b1, h * sizeof(float))
    for k in range(n):
        nn_axpy(start.sums, w.value[k], net.w1 + <Py_ssize_t>w.index[k] * h, h)
    start.ready = True


cdef inline void _forward_from(const Net* net, const uint8_t* board, const uint8_t* row, Start* start,
                               float* out, Work* w) noexcept nogil:
    # The network's outputs for ``board``, from ``start`` when the side on
    # roll's row is ``row``.
    cdef int n
    if memcmp(board + SLOTS, row, SLOTS) == 0:
        if not start.ready:
            _start(net, row, start, w)
        n = _encode(board, net, w.index, w.value, False)
        nn_forward(net.w1, start.sums, net.w2, net.b2, net.n_hidden, w.index, w.value, n, w.hidden, out)
    else:
        n = _encode(board, net, w.index, w.value, True)
        _forward(net, w.index, w.value, n, out, w)


cdef inline void _evaluate_child(const Evaluator* ev, const uint8_t* board, PositionClass cls, const uint8_t* row,
                                 Start* starts, float* out, Work* w) noexcept nogil:
    # evaluate_board of a child that knows its class, the networks' hidden
    # layers started from ``starts``.
    cdef const Net* net
    if cls < CLASS_RACE:
        _evaluate_class(ev, board, cls, out, w)
        return
    net = net_for(ev, cls)
    _forward_from(net, board, row, &starts[1] if net == &ev.contact else &starts[2] if net == &ev.crashed
                  else &starts[3], out, w)
    _consistent(out)
    _possible(board, cls, out)


cdef int _best(const Evaluator* ev, const uint8_t* children, int n, Work* w, float* best) noexcept nogil:
    # The lowest 0-ply equity among the children (the first of equals) and
    # its chances in ``best``.  With a pruning network (as gnubg's pruning
    # nets), plays leading to contact are first ranked by it and only its
    # best ev.prune_keep are evaluated in full, those within PRUNE_WITHIN
    # of its best; the others always are.
    cdef int k, j, m = 0, at = -1, keep = ev.prune_keep
    cdef float p[OUTPUTS]
    cdef float e, s, low = 1e30
    cdef PositionClass cls
    cdef int top[MAX_PRUNE_KEEP]
    cdef float top_score[MAX_PRUNE_KEEP]
    cdef PositionClass top_cls[MAX_PRUNE_KEEP]
    cdef bint prune = keep > 0 and ev.prune.n_inputs != 0 and n > keep
    cdef const uint8_t* row = children + SLOTS      # the side on roll's row in most children
    cdef Start* starts = w.starts
    starts[0].ready = False
    starts[1].ready = False
    starts[2].ready = False
    starts[3].ready = False
    for k in range(n):
        cls = position_class(children + k * BOARD_BYTES)
        if prune and cls >= CLASS_CONTACT:
            # Keep the ``keep`` lowest scores so far, lowest first (stable).
            _forward_from(&ev.prune, children + k * BOARD_BYTES, row, &starts[0], p, w)
            s = equity(p)
            if m < keep:
                j = m
                m += 1
            elif s < top_score[keep - 1]:
                j = keep - 1
            else:
                continue
            while j > 0 and top_score[j - 1] > s:
                top[j] = top[j - 1]
                top_score[j] = top_score[j - 1]
                top_cls[j] = top_cls[j - 1]
                j -= 1
            top[j] = k
            top_score[j] = s
            top_cls[j] = cls
            continue
        _evaluate_child(ev, children + k * BOARD_BYTES, cls, row, starts, p, w)
        e = equity(p)
        if e < low or at < 0:
            low = e
            at = k
            memcpy(best, p, OUTPUTS * sizeof(float))
    for j in range(m):
        if top_score[j] > top_score[0] + PRUNE_WITHIN:
            break                 # far behind the pruning network's best: not a candidate
        k = top[j]
        _evaluate_child(ev, children + k * BOARD_BYTES, top_cls[j], row, starts, p, w)
        e = equity(p)
        if e < low or (e == low and k < at) or at < 0:
            low = e
            at = k
            memcpy(best, p, OUTPUTS * sizeof(float))
    return at


cdef int best_child_chances(const Evaluator* ev, const uint8_t* children, int n, Work* w,
                            float* best) noexcept nogil:
    """best_child, and the chances (of the side on roll in it) of that child in ``best``."""
    return _best(ev, children, n, w, best)


cdef int best_child(const Evaluator* ev, const uint8_t* children, int n, Work* w) noexcept nogil:
    """Index of the play whose result is best for the side that played
    (children from the next mover's view: lowest equity for the side on
    roll), the first of equals; 0-ply, pruned when the evaluator has a
    pruning network."""
    cdef float p[OUTPUTS]
    if n <= 1:
        return 0
    return _best(ev, children, n, w, p)


# -- search -------------------------------------------------------------------------------

ctypedef struct Search:
    Generator* g
    uint8_t* children[4]       # one buffer of MAX_PLAYS boards per level below the root
    Work work


cdef Search* _new_search() noexcept nogil:
    cdef Search* s = <Search*>calloc(1, sizeof(Search))
    cdef int i
    if s == NULL:
        return NULL
    s.g = new_generator()
    for i in range(4):
        s.children[i] = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    if s.g == NULL or s.children[0] == NULL or s.children[1] == NULL or s.children[2] == NULL or s.children[3] == NULL:
        _free_search(s)
        return NULL
    return s


cdef void _free_search(Search* s) noexcept nogil:
    cdef int i
    if s != NULL:
        free(s.g)
        for i in range(4):
            free(s.children[i])
        free(s)


cdef void evaluate_ply(const Evaluator* ev, Search* s, const uint8_t* board, int ply, float* out) noexcept nogil:
    """The five chances of the side on roll at ``ply``: 0 is the network;
    n averages over the 21 rolls of the side on roll, each with its best
    play at 0-ply, the other side's chances after it at n - 1."""
    cdef PositionClass cls = position_class(board)
    cdef int r, k, n, i
    cdef float p[OUTPUTS]
    cdef float q[OUTPUTS]
    cdef uint8_t* buf
    if ply <= 0 or cls == CLASS_OVER or cls == CLASS_BEAROFF:
        evaluate_board(ev, board, out, &s.work)
        return
    buf = s.children[ply - 1]
    for i in range(OUTPUTS):
        out[i] = 0.0
    for r in range(21):
        n = generate(s.g, board, ROLL_HI[r], ROLL_LO[r], buf, NULL, True)
        k = best_child(ev, buf, n, &s.work)
        evaluate_ply(ev, s, buf + k * BOARD_BYTES, ply - 1, p)
        _flip(p, q)
        for i in range(OUTPUTS):
            out[i] += ROLL_WEIGHT[r] * q[i]
    _consistent(out)


cdef int _choose(const Evaluator* ev, Search* s, const uint8_t* children, int n, int ply,
                 float* probs, int* depth, int keep0, float within0, int keep1, float within1) noexcept nogil:
    # The best play for the side that moved, searched to ``ply`` with
    # gnubg-style move filters: all plays at 0-ply; at most keep0 within
    # within0 of the best go to 1-ply; of those, at most keep1 within
    # within1 go to 2-ply.  probs (n x 5, the mover's chances) and depth
    # (the ply each play reached) are filled for every play.
    cdef int k, j, level, best = 0, kept
    cdef float p[OUTPUTS]
    cdef float top, e
    cdef int order[MAX_PLAYS]
    cdef float value[MAX_PLAYS]
    for k in range(n):
        evaluate_board(ev, children + k * BOARD_BYTES, p, &s.work)
        _flip(p, probs + k * OUTPUTS)
        depth[k] = 0
        value[k] = equity(probs + k * OUTPUTS)
    for level in range(1, ply + 1):
        # Rank the plays of the previous level, best first (stable).
        kept = 0
        for k in range(n):
            if depth[k] == level - 1:
                j = kept
                while j > 0 and value[order[j - 1]] < value[k]:
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = k
                kept += 1
        if kept <= 1:
            break
        top = value[order[0]]
        j = 0
        while j < kept and j < (keep0 if level == 1 else keep1) and \
                value[order[j]] >= top - (within0 if level == 1 else within1):
            k = order[j]
            evaluate_ply(ev, s, children + k * BOARD_BYTES, level, p)
            _flip(p, probs + k * OUTPUTS)
            depth[k] = level
            value[k] = equity(probs + k * OUTPUTS)
            j += 1
    # The best of the deepest level reached.
    level = 0
    for k in range(n):
        if depth[k] > level:
            level = depth[k]
    e = -1e30
    for k in range(n):
        if depth[k] == level and value[k] > e:
            e = value[k]
            best = k
    return best


# -- the Python object ----------------------------------------------------------------

cdef int _check_net(dict arrays, str name, tuple sizes, Net* net) except -1:
    w1 = arrays[name + "_w1"]
    b1 = arrays[name + "_b1"]
    w2 = arrays[name + "_w2"]
    b2 = arrays[name + "_b2"]
    for a in (w1, b1, w2, b2):
        if not isinstance(a, np.ndarray) or a.dtype != np.float32 or not a.flags.c_contiguous or not a.flags.writeable:
            raise ValueError(f"{name} weights must be writable C-contiguous float32 arrays")
    h = b1.shape[0] if b1.ndim == 1 else -1
    if h < 16 or h > MAX_HIDDEN or h % 16:
        raise ValueError(f"the {name} network's hidden layer must have a multiple of 16 units, at most {MAX_HIDDEN}")
    n_inputs = w1.shape[0] if w1.ndim == 2 else -1
    if n_inputs not in sizes or w1.shape != (n_inputs, h) or w2.shape != (OUTPUTS, h) or b2.shape != (OUTPUTS,):
        raise ValueError(f"{name} weights have shapes (I, H), (H,), (5, H), (5,) with I one of {sizes}")
    cdef float[:, ::1] v1 = w1
    cdef float[::1] u1 = b1
    cdef float[:, ::1] v2 = w2
    cdef float[::1] u2 = b2
    net.n_inputs = n_inputs
    net.n_hidden = h
    net.w1 = &v1[0, 0]
    net.b1 = &u1[0]
    net.w2 = &v2[0, 0]
    net.b2 = &u2[0]
    return 0


cdef class Networks:
    """The contact, race and (optional) crashed networks with the bear-off tables.

    ``arrays`` maps contact_w1 (I, H), contact_b1 (H,), contact_w2 (5, H),
    contact_b2 (5,), the same four race_ arrays and optionally crashed_
    arrays (as contact's) to float32 arrays, which training changes in
    place.  The number of inputs I names the layout (docs/evaluation.md):
    contact 218 or 248, race 204 or 210.
    """

    def __init__(self, dict arrays, one_sided, gammon, two_sided=None, int two_sided_checkers=0):
        self.arrays = dict(arrays)
        _check_net(self.arrays, "contact", (CONTACT_INPUTS_1, CONTACT_INPUTS), &self.ev.contact)
        _check_net(self.arrays, "race", (RACE_INPUTS_1, RACE_INPUTS), &self.ev.race)
        memset(&self.ev.crashed, 0, sizeof(Net))
        if "crashed_w1" in self.arrays:
            _check_net(self.arrays, "crashed", (self.ev.contact.n_inputs,), &self.ev.crashed)
        memset(&self.ev.prune, 0, sizeof(Net))
        self.ev.prune_keep = 0
        if "prune_w1" in self.arrays:
            _check_net(self.arrays, "prune", (PRUNE_INPUTS,), &self.ev.prune)
            self.ev.prune_keep = PRUNE_KEEP
        self._tables = (one_sided, gammon, two_sided)
        set_race_tables(&self.ev.tables, one_sided, gammon, two_sided, two_sided_checkers)

    @property
    def pruning(self):
        """How many plays leading to contact the choices of a play inside
        searches (the replies of 1- and 2-ply) and rollouts evaluate in
        full after the pruning network has ranked them all, as gnubg's
        pruning nets (0: none; the weights may have no pruning network).
        The players' own choice (``choose``, ``rank_plays``) evaluates
        every play."""
        return self.ev.prune_keep

    @pruning.setter
    def pruning(self, int keep):
        if keep < 0 or keep > MAX_PRUNE_KEEP:
            raise ValueError(f"pruning must be 0..{MAX_PRUNE_KEEP}")
        if keep and not self.ev.prune.n_inputs:
            raise ValueError("pruning needs weights with a pruning network (prune_*)")
        self.ev.prune_keep = keep

    def __call__(self, boards):
        """The Evaluator protocol (``backgammon.evaluator``): the five
        chances of the side on roll of boards (n, 2, 25) at 0-ply, float64."""
        return evaluate(self, np.ascontiguousarray(boards, dtype=np.uint8), 0).astype(np.float64)


def evaluate(Networks nets, const uint8_t[:, :, ::1] boards, int ply=0):
    """The five chances of the side on roll of each board at ``ply``
    (0, 1 or 2), float32 (n, 5).  Boards are validated."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef Search* s
    if not 0 <= ply <= 3:
        raise ValueError("ply must be 0..3")
    need_valid_boards("boards", boards)
    out = np.zeros((n, OUTPUTS), dtype=np.float32)
    cdef float[:, ::1] o = out
    s = _new_search()
    if s == NULL:
        raise MemoryError()
    with nogil:
        for i in range(n):
            evaluate_ply(&nets.ev, s, &boards[i, 0, 0], ply, &o[i, 0])
    _free_search(s)
    return out


def encode_boards(const uint8_t[:, :, ::1] boards, int layout=2):
    """The dense inputs of each board's network in ``layout`` (1: contact
    218, race 204; 2: contact and crashed 248, race 210), race rows
    zero-padded to the contact width, and each board's class, (n, width)
    float32 and (n,) int8."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int k, m
    cdef int32_t index[MAX_NONZERO]
    cdef float value[MAX_NONZERO]
    cdef PositionClass cls
    cdef Net contact, race
    if layout not in (1, 2):
        raise ValueError("layout must be 1 or 2")
    need_valid_boards("boards", boards)
    memset(&contact, 0, sizeof(Net))
    memset(&race, 0, sizeof(Net))
    contact.n_inputs = CONTACT_INPUTS if layout == 2 else CONTACT_INPUTS_1
    race.n_inputs = RACE_INPUTS if layout == 2 else RACE_INPUTS_1
    out = np.zeros((n, contact.n_inputs), dtype=np.float32)
    classes = np.zeros(n, dtype=np.int8)
    cdef float[:, ::1] o = out
    cdef int8_t[::1] c = classes
    with nogil:
        for i in range(n):
            cls = position_class(&boards[i, 0, 0])
            c[i] = <int8_t>cls
            if cls >= CLASS_RACE:
                m = encode(&boards[i, 0, 0], &race if cls == CLASS_RACE else &contact, index, value)
                for k in range(m):
                    o[i, index[k]] = value[k]
    return out, classes


def choose(Networks nets, const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, int ply=0,
           int keep0=8, float within0=0.16, int keep1=2, float within1=0.04):
    """The index of the best play (in the move generator's order) for each
    (board, roll) at ``ply`` with the move filters, (n,) int32."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int m
    cdef Search* s
    cdef uint8_t* kids
    cdef float* probs
    cdef int* depth
    if not 0 <= ply <= 2:
        raise ValueError("ply must be 0, 1 or 2")
    need_valid_boards("boards", boards)
    need_rolls("rolls", rolls, n)
    out = np.zeros(n, dtype=np.int32)
    cdef int32_t[::1] o = out
    s = _new_search()
    kids = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    probs = <float*>malloc(MAX_PLAYS * OUTPUTS * sizeof(float))
    depth = <int*>malloc(MAX_PLAYS * sizeof(int))
    if s == NULL or kids == NULL or probs == NULL or depth == NULL:
        _free_search(s); free(kids); free(probs); free(depth)
        raise MemoryError()
    with nogil:
        for i in range(n):
            m = generate(s.g, &boards[i, 0, 0], rolls[i, 0], rolls[i, 1], kids, NULL, True)
            o[i] = _choose(&nets.ev, s, kids, m, ply, probs, depth, keep0, within0, keep1, within1) if m > 1 else 0
    _free_search(s); free(kids); free(probs); free(depth)
    return out


def rank_plays(Networks nets, const uint8_t[:, ::1] children, int ply=0,
               int keep0=8, float within0=0.16, int keep1=2, float within1=0.04):
    """Chances of the side that played (n, 5) and the ply each play was
    searched to (n,), for the plays of one roll given as their resulting
    boards (n, 50), next mover's view."""
    cdef Py_ssize_t n = children.shape[0], i
    cdef Search* s
    if not 0 <= ply <= 2:
        raise ValueError("ply must be 0, 1 or 2")
    need_shape("children", children.shape[1] == BOARD_BYTES, "(n, 50)")
    if n == 0 or n > MAX_PLAYS:
        raise ValueError(f"children must hold 1 to {MAX_PLAYS} plays, not {n}")
    for i in range(n):
        need_valid_board("children", &children[i, 0])
    probs = np.zeros((n, OUTPUTS), dtype=np.float32)
    depth = np.zeros(n, dtype=np.intc)
    cdef float[:, ::1] p = probs
    cdef int[::1] d = depth
    s = _new_search()
    if s == NULL:
        raise MemoryError()
    with nogil:
        _choose(&nets.ev, s, &children[0, 0], <int>n, ply, &p[0, 0], &d[0], keep0, within0, keep1, within1)
    _free_search(s)
    return probs, depth


# -- training -------------------------------------------------------------------------------

cdef double _td_update(Net* net, const uint8_t* board, const float* target, float alpha, Work* w) noexcept nogil:
    # One gradient step of the squared error between the network's five
    # outputs for ``board`` and ``target``; returns that error.
    cdef float out[OUTPUTS]
    cdef float delta[OUTPUTS]
    cdef float grad[MAX_HIDDEN]
    cdef int n, k, j, h = net.n_hidden
    cdef double err = 0.0
    cdef float* row
    n = encode(board, net, w.index, w.value)
    _forward(net, w.index, w.value, n, out, w)
    for k in range(OUTPUTS):
        delta[k] = (target[k] - out[k]) * out[k] * (1.0 - out[k])
        err += (target[k] - out[k]) * (target[k] - out[k])
    # Back to the hidden layer through the weights before this step.
    for j in range(h):
        grad[j] = 0.0
    for k in range(OUTPUTS):
        nn_axpy(grad, delta[k], net.w2 + k * h, h)
    for j in range(h):
        grad[j] *= w.hidden[j] * (1.0 - w.hidden[j]) * alpha
    for k in range(OUTPUTS):
        nn_axpy(net.w2 + k * h, alpha * delta[k], w.hidden, h)
        net.b2[k] += alpha * delta[k]
    nn_add(net.b1, grad, h)
    for k in range(n):
        row = net.w1 + <Py_ssize_t>w.index[k] * h
        if w.value[k] == 1.0:
            nn_add(row, grad, h)
        else:
            nn_axpy(row, w.value[k], grad, h)
    return err


cdef void _opening(uint8_t* board, bitgen_t* rng, int* d1, int* d2) noexcept nogil:
    # The starting position and the opening throw (RULES 2.2).
    starting_position(board)
    opening_throw(<int>bounded(rng, OPENING_THROWS), d1, d2)


cdef int _explored_child(const Evaluator* ev, const uint8_t* children, int n, int best, float within,
                         bitgen_t* rng, Work* w) noexcept nogil:
    # A play other than ``best`` chosen uniformly among those whose 0-ply
    # equity (for the side that played) is within ``within`` of the best's;
    # ``best`` when there is none.
    cdef float p[OUTPUTS]
    cdef float low
    cdef int k, m = 0, pick = best
    cdef const uint8_t* row = children + SLOTS
    cdef Start* starts = w.starts
    starts[0].ready = False
    starts[1].ready = False
    starts[2].ready = False
    starts[3].ready = False
    _evaluate_child(ev, children + best * BOARD_BYTES, position_class(children + best * BOARD_BYTES), row,
                    starts, p, w)
    low = equity(p)
    for k in range(n):
        if k == best:
            continue
        _evaluate_child(ev, children + k * BOARD_BYTES, position_class(children + k * BOARD_BYTES), row,
                        starts, p, w)
        if equity(p) <= low + within:
            # Reservoir sampling: each candidate kept with chance 1/m.
            m += 1
            if bounded(rng, <uint32_t>m) == 0:
                pick = k
    return pick


cdef int _selfplay_choice(const Evaluator* ev, const uint8_t* children, int n, uint32_t explore, float within,
                          bitgen_t* rng, Work* w, int* played) noexcept nogil:
    # The greedy play of a self-play decision; ``played`` the one made:
    # the greedy one or, with chance explore / 2**32, one near it.
    cdef int k = best_child(ev, children, n, w)
    played[0] = k
    if explore and n > 1 and rng.next_uint32(rng.state) < explore:
        played[0] = _explored_child(ev, children, n, k, within, rng, w)
    return k


cdef void _selfplay_game(Evaluator* ev, Generator* g, bitgen_t* rng, uint8_t* children, Work* w,
                         float alpha_contact, float alpha_race, uint32_t explore, float within,
                         double* stats) noexcept nogil:
    # One game of greedy 0-ply self-play from the opening.  Each position
    # after a play (the next mover on roll) learns the value of the next
    # one, seen from its side (TD(0)); the game ends when a side is off or
    # both are home, whose values are exact.  With chance explore / 2**32
    # a play near the best is made instead of the best; the position
    # before it still learns the best play's value (the greedy target), so
    # exploring shows the networks the plays they pass over without
    # biasing the values of the positions they choose.
    cdef uint8_t board[64]
    cdef uint8_t prev[64]
    cdef PositionClass prev_cls = CLASS_OVER, cls
    cdef int d1, d2, n, k, i, played
    cdef float value[OUTPUTS]
    cdef float target[OUTPUTS]
    cdef const uint8_t* child
    _opening(board, rng, &d1, &d2)
    while True:
        n = generate(g, board, d1, d2, children, NULL, True)
        if n <= 0:
            return
        k = _selfplay_choice(ev, children, n, explore, within, rng, w, &played)
        child = children + k * BOARD_BYTES
        cls = position_class(child)
        if prev_cls >= CLASS_RACE:
            evaluate_board(ev, child, value, w)
            _flip(value, target)
            stats[1] += _td_update(<Net*>net_for(ev, prev_cls), prev, target,
                                   alpha_race if prev_cls == CLASS_RACE else alpha_contact, w)
            stats[2] += 1
        if played != k:
            child = children + played * BOARD_BYTES
            cls = position_class(child)
        if cls == CLASS_OVER or cls == CLASS_BEAROFF:
            return
        memcpy(prev, child, BOARD_BYTES)
        memcpy(board, child, BOARD_BYTES)
        prev_cls = cls
        stats[3] += 1
        d1 = <int>bounded(rng, 6) + 1
        d2 = <int>bounded(rng, 6) + 1


ctypedef struct Trace:
    # The positions after each play of one game, for TD(lambda): each
    # with its class, its bootstrap target (the next position's chances
    # after the greedy reply, from its side) and whether the return stops
    # there (the next play explored, or the game over).
    uint8_t* boards
    float* target
    uint8_t* cls
    uint8_t* cut
    int n
    int capacity


cdef bint _trace_grow(Trace* tr) noexcept nogil:
    cdef int c = 2 * tr.capacity if tr.capacity else 256
    cdef void* p
    p = realloc(tr.boards, <size_t>c * BOARD_BYTES)
    if p == NULL:
        return False
    tr.boards = <uint8_t*>p
    p = realloc(tr.target, <size_t>c * OUTPUTS * sizeof(float))
    if p == NULL:
        return False
    tr.target = <float*>p
    p = realloc(tr.cls, <size_t>c)
    if p == NULL:
        return False
    tr.cls = <uint8_t*>p
    p = realloc(tr.cut, <size_t>c)
    if p == NULL:
        return False
    tr.cut = <uint8_t*>p
    tr.capacity = c
    return True


cdef void _trace_free(Trace* tr) noexcept nogil:
    free(tr.boards); free(tr.target); free(tr.cls); free(tr.cut)


cdef void _returns(float* target, const uint8_t* cut, int m, float lam) noexcept nogil:
    # Each of the m positions' targets (its bootstrap) turned into its
    # lambda-return, from the last back: mixed with the next position's
    # return, flipped to its side, unless the return stops there.
    cdef int t, j
    cdef float back[OUTPUTS]
    cdef float* p
    for t in range(m - 2, -1, -1):
        if cut[t]:
            continue
        p = target + t * OUTPUTS
        _flip(target + (t + 1) * OUTPUTS, back)
        for j in range(OUTPUTS):
            p[j] = (1.0 - lam) * p[j] + lam * back[j]


def td_returns(const float[:, ::1] targets, const uint8_t[::1] cut, float lam):
    """The TD(lambda) returns (m, 5) of a game's positions after each play,
    given each one's bootstrap target (the next position's chances after
    the greedy reply, from its side) and whether its return stops there
    (``cut``: the next play explored, or the last position)."""
    need_shape("targets", targets.shape[1] == OUTPUTS, "(m, 5)")
    need_shape("cut", cut.shape[0] == targets.shape[0], "(m,)")
    out = np.array(targets, dtype=np.float32, copy=True)
    cdef float[:, ::1] o = out
    if o.shape[0]:
        _returns(&o[0, 0], &cut[0], <int>o.shape[0], lam)
    return out


cdef bint _selfplay_game_lambda(Evaluator* ev, Generator* g, bitgen_t* rng, uint8_t* children, Work* w,
                                float alpha_contact, float alpha_race, uint32_t explore, float within, float lam,
                                Trace* tr, double* stats) noexcept nogil:
    # _selfplay_game with TD(lambda) returns, learnt at the end of the
    # game: each position after a play moves toward (1 - lam) times the
    # next position's chances after the greedy reply plus lam times that
    # next position's own return (flipped to its side); the return stops
    # at an explored play (whose position is not the greedy one) and at
    # the end of the game.  False when memory ran out.
    cdef uint8_t board[64]
    cdef int d1, d2, n, k, t, played, m = 0
    cdef float value[OUTPUTS]
    cdef const uint8_t* child
    cdef PositionClass cls
    tr.n = 0
    _opening(board, rng, &d1, &d2)
    while True:
        n = generate(g, board, d1, d2, children, NULL, True)
        if n <= 0:
            break
        k = _selfplay_choice(ev, children, n, explore, within, rng, w, &played)
        if tr.n > 0:
            evaluate_board(ev, children + k * BOARD_BYTES, value, w)
            _flip(value, tr.target + (tr.n - 1) * OUTPUTS)
            tr.cut[tr.n - 1] = played != k
            m = tr.n
        child = children + played * BOARD_BYTES
        cls = position_class(child)
        if cls == CLASS_OVER or cls == CLASS_BEAROFF:
            break
        if tr.n == tr.capacity and not _trace_grow(tr):
            return False
        memcpy(tr.boards + tr.n * BOARD_BYTES, child, BOARD_BYTES)
        tr.cls[tr.n] = <uint8_t>cls
        tr.n += 1
        memcpy(board, child, BOARD_BYTES)
        stats[3] += 1
        d1 = <int>bounded(rng, 6) + 1
        d2 = <int>bounded(rng, 6) + 1
    _returns(tr.target, tr.cut, m, lam)
    for t in range(m):
        cls = <PositionClass>tr.cls[t]
        stats[1] += _td_update(<Net*>net_for(ev, cls), tr.boards + t * BOARD_BYTES, tr.target + t * OUTPUTS,
                               alpha_race if cls == CLASS_RACE else alpha_contact, w)
        stats[2] += 1
    return True


def selfplay_train(Networks nets, int64_t games, generator, float alpha_contact, float alpha_race,
                   double explore=0.0, float within=0.0, float lam=0.0):
    """Play ``games`` games of 0-ply self-play, updating the networks in
    place by TD(0) after every play.  With chance ``explore`` a decision
    plays one of the other plays within ``within`` equity of the best, at
    random (the position before it still learns the best play's value).
    ``lam`` > 0: TD(lambda) returns instead, learnt at the end of each
    game.  Returns (games, squared error sum, updates, plies)."""
    cdef bitgen_t* rng = bitgen_of(generator)
    cdef Generator* g = new_generator()
    cdef uint8_t* children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    cdef Work* w = <Work*>malloc(sizeof(Work))
    cdef double stats[4]
    cdef int64_t i
    cdef uint32_t threshold
    cdef Trace trace
    cdef bint failed = False
    memset(&trace, 0, sizeof(Trace))
    if games < 0 or not 0.0 <= explore <= 1.0 or not within >= 0.0 or not 0.0 <= lam <= 1.0:
        free(g); free(children); free(w)
        if games < 0:
            raise ValueError("games must be >= 0")
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore must be in [0, 1], not {explore}")
        if not 0.0 <= lam <= 1.0:
            raise ValueError(f"lam must be in [0, 1], not {lam}")
        raise ValueError(f"within must be >= 0, not {within}")
    threshold = <uint32_t>(explore * 4294967295.0)
    if g == NULL or children == NULL or w == NULL:
        free(g); free(children); free(w)
        raise MemoryError()
    memset(stats, 0, sizeof(stats))
    cdef Evaluator ev = nets.ev    # the same weights, never pruned: they change under the pruning network
    ev.prune_keep = 0
    with generator.bit_generator.lock, nogil:
        for i in range(games):
            if lam > 0.0:
                if not _selfplay_game_lambda(&ev, g, rng, children, w, alpha_contact, alpha_race, threshold,
                                             within, lam, &trace, stats):
                    failed = True
                    break
            else:
                _selfplay_game(&ev, g, rng, children, w, alpha_contact, alpha_race, threshold, within, stats)
            stats[0] += 1
    free(g); free(children); free(w)
    _trace_free(&trace)
    if failed:
        raise MemoryError()
    return stats[0], stats[1], stats[2], stats[3]


# -- supervised training on searched positions ---------------------------------------------

def sample_positions(Networks nets, int64_t games, generator, float explore=0.0):
    """Positions met in ``games`` games of 0-ply self-play from the opening
    (each play the best at 0-ply, or with chance ``explore`` a random one),
    as boards (m, 2, 25) with the side to move on roll; only positions the
    networks answer for (contact and race) are kept."""
    cdef bitgen_t* rng = bitgen_of(generator)
    cdef Generator* g = new_generator()
    cdef uint8_t* children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    cdef Work* w = <Work*>malloc(sizeof(Work))
    cdef uint8_t board[64]
    cdef int64_t i, kept = 0, capacity = 1024
    cdef int d1, d2, n, k, j
    cdef uint8_t* out = <uint8_t*>malloc(capacity * BOARD_BYTES)
    cdef uint8_t* grown
    cdef PositionClass cls
    cdef bint failed = False
    cdef uint32_t threshold = <uint32_t>(explore * 4294967295.0) if explore > 0 else 0
    if games < 0:
        raise ValueError("games must be >= 0")
    if g == NULL or children == NULL or w == NULL or out == NULL:
        free(g); free(children); free(w); free(out)
        raise MemoryError()
    cdef Evaluator ev = nets.ev    # positions of the full 0-ply player, never pruned
    ev.prune_keep = 0
    with generator.bit_generator.lock, nogil:
        for i in range(games):
            _opening(board, rng, &d1, &d2)
            while True:
                n = generate(g, board, d1, d2, children, NULL, True)
                if n <= 0:
                    break
                if threshold and rng.next_uint32(rng.state) < threshold:
                    k = <int>bounded(rng, <uint32_t>n)
                else:
                    k = best_child(&ev, children, n, w)
                memcpy(board, children + k * BOARD_BYTES, BOARD_BYTES)
                cls = position_class(board)
                if cls == CLASS_OVER or cls == CLASS_BEAROFF:
                    break
                if kept == capacity:
                    grown = <uint8_t*>realloc(out, 2 * capacity * BOARD_BYTES)
                    if grown == NULL:
                        failed = True
                        break
                    out = grown
                    capacity *= 2
                memcpy(out + kept * BOARD_BYTES, board, BOARD_BYTES)
                kept += 1
                d1 = <int>bounded(rng, 6) + 1
                d2 = <int>bounded(rng, 6) + 1
            if failed:
                break
    free(g); free(children); free(w)
    if failed:
        free(out)
        raise MemoryError()
    result = np.frombuffer(bytearray(out[:kept * BOARD_BYTES]) if kept else bytearray(), dtype=np.uint8)
    free(out)
    return result.reshape(kept, 2, SLOTS).copy()


def train_supervised(Networks nets, const uint8_t[:, :, ::1] boards, const float[:, ::1] targets,
                     const int64_t[::1] order, float alpha_contact, float alpha_race):
    """One pass of stochastic gradient descent over ``boards`` in ``order``
    toward ``targets`` (n, 5), each position updating its own network.
    Returns the mean squared error per output before each step."""
    cdef Py_ssize_t i, n = boards.shape[0], k
    cdef Work* w = <Work*>malloc(sizeof(Work))
    cdef double err = 0.0
    cdef int64_t steps = 0
    cdef PositionClass cls
    if w == NULL:
        raise MemoryError()
    try:
        need_valid_boards("boards", boards)
        need_shape("targets", targets.shape[0] == n and targets.shape[1] == OUTPUTS, "(n, 5)")
        for i in range(order.shape[0]):
            if order[i] < 0 or order[i] >= n:
                raise ValueError("order must hold indices of boards")
    except ValueError:
        free(w)
        raise
    with nogil:
        for i in range(order.shape[0]):
            k = order[i]
            cls = position_class(&boards[k, 0, 0])
            if cls >= CLASS_RACE:
                err += _td_update(<Net*>net_for(&nets.ev, cls), &boards[k, 0, 0], &targets[k, 0],
                                  alpha_race if cls == CLASS_RACE else alpha_contact, w)
                steps += 1
    free(w)
    return err / max(steps, 1) / OUTPUTS


def train_pruner(Networks nets, const uint8_t[:, :, ::1] boards, const float[:, ::1] targets,
                 const int64_t[::1] order, float alpha):
    """One pass of stochastic gradient descent of the pruning network over
    ``boards`` in ``order`` toward ``targets`` (n, 5), the full networks'
    chances.  Returns the mean squared error per output before each step."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef Work* w
    cdef double err = 0.0
    if not nets.ev.prune.n_inputs:
        raise ValueError("the weights have no pruning network (prune_*)")
    need_valid_boards("boards", boards)
    need_shape("targets", targets.shape[0] == n and targets.shape[1] == OUTPUTS, "(n, 5)")
    for i in range(order.shape[0]):
        if order[i] < 0 or order[i] >= n:
            raise ValueError("order must hold indices of boards")
    w = <Work*>malloc(sizeof(Work))
    if w == NULL:
        raise MemoryError()
    with nogil:
        for i in range(order.shape[0]):
            err += _td_update(&nets.ev.prune, &boards[order[i], 0, 0], &targets[order[i], 0], alpha, w)
    free(w)
    return err / max(order.shape[0], 1) / OUTPUTS


def prune_chances(Networks nets, const uint8_t[:, :, ::1] boards):
    """The pruning network's five outputs for each board, float32 (n, 5)."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef Work w
    cdef int m
    if not nets.ev.prune.n_inputs:
        raise ValueError("the weights have no pruning network (prune_*)")
    need_valid_boards("boards", boards)
    out = np.zeros((n, OUTPUTS), dtype=np.float32)
    cdef float[:, ::1] o = out
    with nogil:
        for i in range(n):
            m = encode(&boards[i, 0, 0], &nets.ev.prune, w.index, w.value)
            _forward(&nets.ev.prune, w.index, w.value, m, &o[i, 0], &w)
    return out


def position_classes(const uint8_t[:, :, ::1] boards):
    """Which evaluator answers for each board (docs/evaluation.md), (n,)
    int8: 0 over, 1 bear-off tables, 2 race, 3 contact, 4 crashed."""
    cdef Py_ssize_t i, n = boards.shape[0]
    need_valid_boards("boards", boards)
    out = np.zeros(n, dtype=np.int8)
    cdef int8_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = <int8_t>position_class(&boards[i, 0, 0])
    return out

