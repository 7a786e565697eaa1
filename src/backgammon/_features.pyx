# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The networks' inputs: which evaluator answers for a position, and the
encoding of a position in each input layout.

The inputs are sparse: a point with n checkers sets at most two of its
four units, and the second layout's features (docs/evaluation.md: pips,
shots, escapes, primes, timing...) are computed from bit masks of the two
rows.  The forward pass (_forward) adds one row of weights per nonzero
input.
"""
from libc.stdint cimport uint8_t, int8_t, uint32_t, int32_t

import numpy as np

from backgammon._dice cimport DISTINCT_ROLLS, distinct_roll
from backgammon._checks cimport need_valid_boards
from backgammon._board cimport SLOTS, BAR, POINTS, CHECKERS, no_contact, both_home


cdef extern from "_bits.h":
    void bg_row_masks(const uint8_t* p, uint32_t* nonzero, uint32_t* two, uint32_t* one) nogil
    uint32_t bg_reverse24(uint32_t x) nogil
    int bg_popcount(unsigned int x) nogil
    int bg_msb(unsigned int x) nogil
    int bg_lsb(unsigned int x) nogil
    int bg_row_sum(const uint8_t* p) nogil

cdef enum:
    HOME_MASK = 0x3F                   # points 1..6
    OTHER_HOME_MASK = 0x3F << 18       # points 19..24: the other side's home board
    ESCAPE_WINDOW = 12                 # points ahead of a back checker that can block it
    CRASHED_IN_PLAY = 6


# The 21 rolls, high die first.
cdef int ROLL_HI[DISTINCT_ROLLS]
cdef int ROLL_LO[DISTINCT_ROLLS]
cdef double _weight
cdef int _k
for _k in range(DISTINCT_ROLLS):
    distinct_roll(_k, &ROLL_HI[_k], &ROLL_LO[_k], &_weight)


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


cdef int side_units(const uint8_t* row, int base, int32_t* index, float* value, int n) noexcept nogil:
    return _side_units(row, base, index, value, n)


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


cdef int encode(const uint8_t* board, int n_inputs, int32_t* index, float* value, bint mine) noexcept nogil:
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
    if n_inputs == PRUNE_INPUTS:
        return n
    if n_inputs == RACE_INPUTS_1:
        index[n] = RAW_INPUTS
        value[n] = _pips(me) / 167.0
        index[n + 1] = RAW_INPUTS + 1
        value[n + 1] = _pips(other) / 167.0
        return n + 2
    if n_inputs == RACE_INPUTS:
        _race_features(me, f)
        _race_features(other, f + RACE_FEATURES)
        per = RACE_FEATURES
    else:
        bg_row_masks(me, &me_nz, &me_two, &me_one)
        bg_row_masks(other, &ot_nz, &ot_two, &ot_one)
        per = SIDE_FEATURES if n_inputs == CONTACT_INPUTS else SIDE_FEATURES_1
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
    cdef int contact, race
    if layout not in (1, 2):
        raise ValueError("layout must be 1 or 2")
    need_valid_boards("boards", boards)
    contact = CONTACT_INPUTS if layout == 2 else CONTACT_INPUTS_1
    race = RACE_INPUTS if layout == 2 else RACE_INPUTS_1
    out = np.zeros((n, contact), dtype=np.float32)
    classes = np.zeros(n, dtype=np.int8)
    cdef float[:, ::1] o = out
    cdef int8_t[::1] c = classes
    with nogil:
        for i in range(n):
            cls = position_class(&boards[i, 0, 0])
            c[i] = <int8_t>cls
            if cls >= CLASS_RACE:
                m = encode(&boards[i, 0, 0], race if cls == CLASS_RACE else contact, index, value, True)
                for k in range(m):
                    o[i, index[k]] = value[k]
    return out, classes


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

