/* Bit tricks on the position array (docs/design.md) shared by the kernels (C, so that
   SSE2 can be used where the machine has it, with a plain fallback). */
#ifndef BACKGAMMON_BITS_H
#define BACKGAMMON_BITS_H
#include <stdint.h>
#include <string.h>
#if defined(_MSC_VER)
#include <intrin.h>
#define BG_INLINE __inline
static BG_INLINE int bg_msb(unsigned int x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
static BG_INLINE int bg_lsb(unsigned int x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
static BG_INLINE int bg_popcount(unsigned int x) {   /* without the POPCNT instruction */
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
#else
#define BG_INLINE inline
static BG_INLINE int bg_msb(unsigned int x) { return 31 - __builtin_clz(x); }
static BG_INLINE int bg_lsb(unsigned int x) { return __builtin_ctz(x); }
static BG_INLINE int bg_popcount(unsigned int x) { return __builtin_popcount(x); }
#endif
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
/* Bits of a 25-byte row: nonzero (all 25), >= 2 and == 1 (first 24). */
static BG_INLINE void bg_row_masks(const uint8_t* p, uint32_t* nonzero, uint32_t* two, uint32_t* one) {
    __m128i lo = _mm_loadu_si128((const __m128i*)p);
    __m128i hi = _mm_loadu_si128((const __m128i*)(p + 9));
    __m128i z = _mm_setzero_si128(), o = _mm_set1_epi8(1);
    uint32_t nz = (uint32_t)(~_mm_movemask_epi8(_mm_cmpeq_epi8(lo, z)) & 0xFFFF)
                | ((uint32_t)(~_mm_movemask_epi8(_mm_cmpeq_epi8(hi, z)) & 0xFFFF) << 9);
    uint32_t ge2 = (uint32_t)(~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(lo, o), z)) & 0xFFFF)
                 | ((uint32_t)(~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(hi, o), z)) & 0xFFFF) << 9);
    uint32_t eq1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, o))
                 | ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, o)) << 9);
    *nonzero = nz & 0x1FFFFFFu; *two = ge2 & 0xFFFFFFu; *one = eq1 & 0xFFFFFFu;
}
/* Sum of a 25-byte row. */
static BG_INLINE int bg_row_sum(const uint8_t* p) {
    __m128i z = _mm_setzero_si128();
    __m128i lo = _mm_sad_epu8(_mm_loadu_si128((const __m128i*)p), z);
    __m128i hi = _mm_sad_epu8(_mm_srli_si128(_mm_loadu_si128((const __m128i*)(p + 9)), 7), z);
    __m128i t = _mm_add_epi64(lo, hi);
    return _mm_cvtsi128_si32(t) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(t, t));
}
#else
static BG_INLINE void bg_row_masks(const uint8_t* p, uint32_t* nonzero, uint32_t* two, uint32_t* one) {
    uint32_t nz = 0, ge2 = 0, eq1 = 0; int i;
    for (i = 0; i < 25; i++) nz |= (uint32_t)(p[i] != 0) << i;
    for (i = 0; i < 24; i++) { ge2 |= (uint32_t)(p[i] >= 2) << i; eq1 |= (uint32_t)(p[i] == 1) << i; }
    *nonzero = nz; *two = ge2; *one = eq1;
}
static BG_INLINE int bg_row_sum(const uint8_t* p) {
    int n = 0, i;
    for (i = 0; i < 25; i++) n += p[i];
    return n;
}
#endif
static const uint8_t bg_rev8[256] = {
#define R2(n) n, n + 2*64, n + 1*64, n + 3*64
#define R4(n) R2(n), R2(n + 2*16), R2(n + 1*16), R2(n + 3*16)
#define R6(n) R4(n), R4(n + 2*4 ), R4(n + 1*4 ), R4(n + 3*4 )
    R6(0), R6(2), R6(1), R6(3)
#undef R2
#undef R4
#undef R6
};
/* Bit j -> bit 23 - j: the opponent's index j is my index 23 - j. */
static BG_INLINE uint32_t bg_reverse24(uint32_t x) {
    return ((uint32_t)bg_rev8[x & 255] << 16) | ((uint32_t)bg_rev8[(x >> 8) & 255] << 8) | bg_rev8[(x >> 16) & 255];
}

/* The opponent's row (p) as the mover sees it: bit i of *blocked (*blots)
   when the opponent has two or more (exactly one) checkers on the mover's
   index i, their 23 - i; *any nonzero when they have a checker on the row.
   As bg_row_masks then bg_reverse24, but the bytes are reversed before the
   masks are taken: fewer instructions than reversing the bits. */
#if defined(__SSE2__) || defined(_M_X64)
static BG_INLINE __m128i bg_rev16(__m128i v) {     /* byte k <- byte 15 - k */
    v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
    v = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1)), _MM_SHUFFLE(2, 3, 0, 1));
    return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}
static BG_INLINE void bg_opp_masks(const uint8_t* p, uint32_t* any, uint32_t* blocked, uint32_t* blots) {
    __m128i hi = bg_rev16(_mm_loadu_si128((const __m128i*)(p + 8)));                  /* byte k: p[23 - k] */
    __m128i lo = bg_rev16(_mm_slli_si128(_mm_loadu_si128((const __m128i*)p), 8));     /* byte k < 8: p[7 - k] */
    __m128i o = _mm_set1_epi8(1), t = _mm_set1_epi8(2);
    uint32_t two = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(hi, t), hi))
                 | ((uint32_t)(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(lo, t), lo)) & 0xFF) << 16);
    uint32_t one = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, o))
                 | ((uint32_t)(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, o)) & 0xFF) << 16);
    *blocked = two;
    *blots = one;
    *any = two | one | p[24];
}
#else
static BG_INLINE void bg_opp_masks(const uint8_t* p, uint32_t* any, uint32_t* blocked, uint32_t* blots) {
    uint32_t two, one;
    bg_row_masks(p, any, &two, &one);
    *blocked = bg_reverse24(two);
    *blots = bg_reverse24(one);
}
#endif

/* Byte-wise sums of 64-byte boards (the search keeps results as the start
   plus per-chain changes; uint8 wraparound makes -1 a byte of 255).
   bg_add64 writes 64 bytes, bg_add50 exactly one 50-byte board. */
#if defined(__SSE2__) || defined(_M_X64)
static BG_INLINE void bg_add64(uint8_t* out, const uint8_t* a, const uint8_t* b) {
    int k;
    for (k = 0; k < 64; k += 16)
        _mm_storeu_si128((__m128i*)(out + k), _mm_add_epi8(_mm_loadu_si128((const __m128i*)(a + k)),
                                                          _mm_loadu_si128((const __m128i*)(b + k))));
}
static BG_INLINE void bg_add50(uint8_t* out, const uint8_t* a, const uint8_t* b) {
    int k;
    uint16_t tail;
    for (k = 0; k < 48; k += 16)
        _mm_storeu_si128((__m128i*)(out + k), _mm_add_epi8(_mm_loadu_si128((const __m128i*)(a + k)),
                                                          _mm_loadu_si128((const __m128i*)(b + k))));
    tail = (uint16_t)(uint8_t)(a[48] + b[48]) | (uint16_t)((uint8_t)(a[49] + b[49]) << 8);
    memcpy(out + 48, &tail, 2);
}
/* The results p + change[s] for each bit s of m, highest first, written as
   consecutive 50-byte boards from out (change[s]: a row of 64 bytes).
   Returns how many. */
/* Writes the 50-byte board (a0..a3) + row c at out. */
static BG_INLINE void bg_put_sum(uint8_t* out, __m128i a0, __m128i a1, __m128i a2, __m128i a3, const uint8_t* c) {
    uint16_t tail;
    _mm_storeu_si128((__m128i*)out, _mm_add_epi8(a0, _mm_loadu_si128((const __m128i*)c)));
    _mm_storeu_si128((__m128i*)(out + 16), _mm_add_epi8(a1, _mm_loadu_si128((const __m128i*)(c + 16))));
    _mm_storeu_si128((__m128i*)(out + 32), _mm_add_epi8(a2, _mm_loadu_si128((const __m128i*)(c + 32))));
    tail = (uint16_t)_mm_cvtsi128_si32(_mm_add_epi8(a3, _mm_loadu_si128((const __m128i*)(c + 48))));
    memcpy(out + 48, &tail, 2);
}
static BG_INLINE int bg_leaves(uint8_t* out, const uint8_t* p, uint32_t m, const uint8_t* const* change) {
    __m128i a0 = _mm_loadu_si128((const __m128i*)p), a1 = _mm_loadu_si128((const __m128i*)(p + 16));
    __m128i a2 = _mm_loadu_si128((const __m128i*)(p + 32)), a3 = _mm_loadu_si128((const __m128i*)(p + 48));
    int n = 0, s;
    const uint8_t* c;
    while (m) {
        s = bg_msb(m);
        m &= ~(1u << s);
        c = change[s];
        bg_put_sum(out, a0, a1, a2, a3, c);
        out += 50;
        n++;
    }
    return n;
}
/* Doubles, the last two steps (a bg_leaves for two levels): from board p,
   for each third step's source s in m (highest first), the results
   p + step(s) + step(s') for each fourth step's source s' <= s, written as
   consecutive 50-byte boards from out.  step(s) is plain + 128 s (no hit)
   when s == before or when s' == s (a step from the point the step before
   left lands where it already hit), else rows[s] (with the hit of a blot
   on s - d).  The sources after a step from s: those below s in m, s again
   when pme[s] (its checkers) >= 2, and next[s] (s - d when open).  A
   third step that allows no fourth gives nothing.  Returns how many. */
static BG_INLINE int bg_last_two(uint8_t* out, const uint8_t* p, const uint8_t* pme, uint32_t m, int before,
                                 const uint8_t* const* rows, const uint8_t* plain, const uint32_t* next) {
    __m128i a0 = _mm_loadu_si128((const __m128i*)p), a1 = _mm_loadu_si128((const __m128i*)(p + 16));
    __m128i a2 = _mm_loadu_si128((const __m128i*)(p + 32)), a3 = _mm_loadu_si128((const __m128i*)(p + 48));
    __m128i b0, b1, b2, b3;
    const uint8_t* c;
    uint8_t* o = out;
    uint32_t m3;
    int s, t, n = 0;
    while (m) {
        s = bg_msb(m);
        m &= ~(1u << s);
        c = s == before ? plain + 128 * s : rows[s];
        b0 = _mm_add_epi8(a0, _mm_loadu_si128((const __m128i*)c));
        b1 = _mm_add_epi8(a1, _mm_loadu_si128((const __m128i*)(c + 16)));
        b2 = _mm_add_epi8(a2, _mm_loadu_si128((const __m128i*)(c + 32)));
        b3 = _mm_add_epi8(a3, _mm_loadu_si128((const __m128i*)(c + 48)));
        m3 = m | next[s];
        if (pme[s] >= 2) {
            c = plain + 128 * s;
            bg_put_sum(o, b0, b1, b2, b3, c);
            o += 50;
            n++;
        }
        while (m3) {
            t = bg_msb(m3);
            m3 &= ~(1u << t);
            c = rows[t];
            bg_put_sum(o, b0, b1, b2, b3, c);
            o += 50;
            n++;
        }
    }
    return n;
}
#else
static BG_INLINE void bg_add64(uint8_t* out, const uint8_t* a, const uint8_t* b) {
    int k;
    for (k = 0; k < 64; k++) out[k] = (uint8_t)(a[k] + b[k]);
}
static BG_INLINE void bg_add50(uint8_t* out, const uint8_t* a, const uint8_t* b) {
    int k;
    for (k = 0; k < 50; k++) out[k] = (uint8_t)(a[k] + b[k]);
}
static BG_INLINE int bg_leaves(uint8_t* out, const uint8_t* p, uint32_t m, const uint8_t* const* change) {
    int n = 0, s, k;
    while (m) {
        s = bg_msb(m);
        m &= ~(1u << s);
        for (k = 0; k < 50; k++) out[k] = (uint8_t)(p[k] + change[s][k]);
        out += 50;
        n++;
    }
    return n;
}
static BG_INLINE int bg_last_two(uint8_t* out, const uint8_t* p, const uint8_t* pme, uint32_t m, int before,
                                 const uint8_t* const* rows, const uint8_t* plain, const uint32_t* next) {
    uint8_t b[64];
    const uint8_t* c;
    int n = 0, s, k;
    uint32_t m3;
    while (m) {
        s = bg_msb(m);
        m &= ~(1u << s);
        c = s == before ? plain + 128 * s : rows[s];
        for (k = 0; k < 64; k++) b[k] = (uint8_t)(p[k] + c[k]);
        m3 = m | next[s];
        if (pme[s] >= 2) {
            c = plain + 128 * s;
            for (k = 0; k < 50; k++) out[k] = (uint8_t)(b[k] + c[k]);
            out += 50;
            n++;
        }
        n += bg_leaves(out + 0, b, m3, rows);
        out += 50 * bg_popcount(m3);
    }
    return n;
}
#endif

/* Doubles from a position where every step is point to point (see
   _quiet_doubles): the results of the last three steps from board p (64
   bytes, my row at me_at), sources never increasing, written from out in
   the search's order.  m holds the first of these steps' sources, before
   the source of the step before them (-1: none); rows, plain and next as
   for bg_last_two.  Returns how many, or -1, having written at most limit
   boards, when more might not fit (the caller then checks each). */
static BG_INLINE int bg_last_three(uint8_t* out, const uint8_t* p, int me_at, uint32_t m, int before,
                                   const uint8_t* const* rows, const uint8_t* plain, const uint32_t* next,
                                   int limit) {
    uint8_t q[64];
    const uint8_t* c;
    uint32_t m2;
    int n = 0, s;
    while (m) {
        s = bg_msb(m);
        m &= ~(1u << s);
        c = s == before ? plain + 128 * s : rows[s];
        bg_add64(q, p, c);
        m2 = m | next[s] | ((uint32_t)(p[me_at + s] >= 2) << s);
        if (n > limit - 24 * 25)    /* at most 24 third steps, each 1 + 24 fourth */
            return -1;
        n += bg_last_two(out + 50 * n, q, q + me_at, m2, s, rows, plain, next);
    }
    return n;
}

/* The same for four steps from the start cur (m0: the first step's sources). */
static BG_INLINE int bg_quiet_four(uint8_t* out, const uint8_t* cur, int me_at, uint32_t m0,
                                   const uint8_t* const* rows, const uint8_t* plain, const uint32_t* next,
                                   int limit) {
    uint8_t p1[64];
    uint32_t m1;
    int n = 0, k, s0;
    while (m0) {
        s0 = bg_msb(m0);
        m0 &= ~(1u << s0);
        bg_add64(p1, cur, rows[s0]);
        m1 = m0 | next[s0] | ((uint32_t)(cur[me_at + s0] >= 2) << s0);
        k = bg_last_three(out + 50 * n, p1, me_at, m1, s0, rows, plain, next, limit - n);
        if (k < 0)
            return -1;
        n += k;
    }
    return n;
}

/* The tables of bg_last_two for the sources in reach: rows[s] the first
   step from s (with the hit when a blot is on s - d), next[s] the point it
   lands on when open (go: the sources whose landing is open). */
static BG_INLINE void bg_doubles_rows(const uint8_t** rows, uint32_t* next, uint32_t reach, const uint8_t* plain,
                                      int d, uint32_t blots, uint32_t go) {
    int s;
    while (reach) {
        s = bg_msb(reach);
        reach &= ~(1u << s);
        rows[s] = plain + 128 * s + 64 * ((blots >> (s - d)) & 1);
        next[s] = (1u << (s - d)) & go;
    }
}

/* The results of the last `steps` (0-4) steps from p, as bg_quiet_four. */
static BG_INLINE int bg_quiet_steps(uint8_t* out, const uint8_t* p, int me_at, uint32_t m, int steps,
                                    const uint8_t* const* rows, const uint8_t* plain, const uint32_t* next,
                                    int limit) {
    if (steps == 4)
        return bg_quiet_four(out, p, me_at, m, rows, plain, next, limit);
    if (steps == 3)
        return bg_last_three(out, p, me_at, m, -1, rows, plain, next, limit);
    if (steps == 2)
        return bg_last_two(out, p, p + me_at, m, -1, rows, plain, next);
    if (steps == 1)
        return bg_leaves(out, p, m, rows);
    memcpy(out, p, 50);
    return 1;
}

/* Non-doubles with one checker of mine on the bar, results only (from
   board p, change: _change[layout]): enter with one die, then any step of
   the other (no bear-off: the checker entered is not home), big die first,
   as the general search (_search_pair) writes them: the steps after the
   small die entered, less the entered checker's 24 - small -> 24 - small -
   big when it was met big die first (24 - big open, neither stop a blot).
   Returns how many; 0 (no play of both dice) leaves it to that search. */
static BG_INLINE int bg_bar_one(uint8_t* out, const uint8_t* p, const uint8_t* change, int big, int small,
                                uint32_t occ, uint32_t blocked, uint32_t blots) {
    uint8_t q[64];
    const uint8_t* rows[25];
    uint32_t m, mm, left, hit;
    int n = 0, k, d1, d2, e, s;
    for (k = 0; k < 2; k++) {
        d1 = k ? small : big;
        d2 = k ? big : small;
        e = 24 - d1;
        if ((blocked >> e) & 1) continue;
        hit = (blots >> e) & 1;
        bg_add64(q, p, change + (d1 * 25 + 24) * 128 + hit * 64);
        m = ((occ & 0xFFFFFFu) | (1u << e)) & ~(blocked << d2) & ~((1u << d2) - 1);
        if (k && !(((blocked | blots) >> (24 - big)) & 1) && !((blots >> e) & 1)) m &= ~(1u << e);
        left = blots & ~(hit << e);
        for (mm = m; mm; mm &= ~(1u << s)) {
            s = bg_msb(mm);
            rows[s] = change + (d2 * 25 + s) * 128 + ((left >> (s - d2)) & 1) * 64;
        }
        n += bg_leaves(out + n * 50, q, m, rows);
    }
    return n;
}

/* bg_unit + 64 - k: a 64-byte row with 255 at byte k only (k < 64), the
   change of a checker borne off from byte k. */
static const uint8_t bg_unit[128] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255};

/* Indices a checker on occ (no bar) can leave with a die of d pips, as
   _movable (RULES 3.1, 3.2, 5.1-5.3). */
static BG_INLINE uint32_t bg_movable(uint32_t occ, uint32_t blocked, int d) {
    uint32_t m = occ & ~(blocked << d) & ~((1u << d) - 1);
    int h;
    if (occ && !(occ & ~0x3Fu)) {
        if ((occ >> (d - 1)) & 1)
            m |= 1u << (d - 1);
        else if ((h = bg_msb(occ)) < d - 1)
            m |= 1u << h;
    }
    return m;
}

/* One order of the dice for bg_home_pair (k = 1: small die first), with
   _repeats over the pairs met (pairs[sa] bit sb: big from sa, small from
   sb; by_small the same by sb): the chains of one checker (no blot on a
   stop), and two checkers borne off by either die. */
static BG_INLINE int bg_home_order(uint8_t* out, const uint8_t* p, const uint8_t* change, int me_at, int big,
                                   int small, uint32_t occ, uint32_t blocked, uint32_t blots, uint32_t* pairs,
                                   uint32_t* by_small, const int k) {
    uint8_t q[64];
    const uint8_t* me = p + me_at;
    uint32_t m1, m2, land, left;
    int n = 0, a = k ? small : big, b = k ? big : small, s1, s2, t, sa, sb, x, chain_big, chain_small;
    for (m1 = bg_movable(occ, blocked, a); m1; m1 &= ~(1u << s1)) {
        s1 = bg_msb(m1);
        t = s1 - a;
        land = (1u << (t & 31)) & -(uint32_t)(t >= 0);
        m2 = bg_movable((occ & ~((uint32_t)(me[s1] == 1) << s1)) | land, blocked, b);
        if (k)
            m2 &= ~by_small[s1];         /* pairs the first order found */
        if (!m2)
            continue;
        bg_add64(q, p, t >= 0 ? change + (a * 25 + s1) * 128 + ((blots & land) != 0) * 64 : bg_unit + 64 - me_at - s1);
        left = blots & ~land;
        for (; m2; m2 &= ~(1u << s2)) {
            s2 = bg_msb(m2);
            sa = k ? s2 : s1;
            sb = k ? s1 : s2;
            pairs[sa] |= 1u << sb;
            if (!k)
                by_small[sb] |= 1u << sa;
            chain_big = sb == sa - big;
            chain_small = (sa == sb - small) & (sb >= big);
            if (chain_big | chain_small) {
                x = chain_big ? sa : sb;
                if (!(((blots >> (x - big)) | (blots >> (x - small))) & 1)
                        && (chain_big ? (pairs[x - small] >> x) & 1 : (pairs[x] >> (x - big)) & 1))
                    continue;
            } else if ((sa < small) & (sb < small) & (sa != sb) && ((pairs[sb] >> sa) & 1)) {
                continue;
            }
            t = s2 - b;
            bg_add50(out + 50 * n, q, t >= 0 ? change + (b * 25 + s2) * 128 + ((left >> t) & 1) * 64
                                             : bg_unit + 64 - me_at - s2);
            n++;
        }
    }
    return n;
}

/* Non-doubles with nothing on the bar and at most one checker outside,
   results only (from board p, my row at me_at, change: _change[layout]):
   _search_pair's two orders of the dice and its repeat rule, so the plays
   of both dice come out in its order, with no step undone and no check a
   result.  At most one checker outside: the sources are below 12.  Returns
   how many; 0 (no play of both dice) leaves it to that search. */
#if defined(__GNUC__)
__attribute__((noinline))   /* kept out of generate, the hot path of every pair */
#endif
static int bg_home_pair(uint8_t* out, const uint8_t* p, const uint8_t* change, int me_at, int big,
                                  int small, uint32_t occ, uint32_t blocked, uint32_t blots) {
    uint32_t pairs[16] = {0}, by_small[16] = {0};
    int n = bg_home_order(out, p, change, me_at, big, small, occ, blocked, blots, pairs, by_small, 0);
    return n + bg_home_order(out + 50 * n, p, change, me_at, big, small, occ, blocked, blots, pairs, by_small, 1);
}

/* Why input is not a position (or a roll): the one definition, which
   _board.pxd exposes to Cython and Python as BoardProblem. */
enum BoardProblem {
    BOARD_OK = 0,
    TOO_MANY_CHECKERS_OPPONENT = 1,   /* row 0 has more than 15 checkers */
    TOO_MANY_CHECKERS_ON_ROLL = 2,    /* row 1 has more than 15 checkers */
    SHARED_POINT = 3,                 /* both sides on one point */
    NO_CHECKERS = 4,                  /* no checker of either side */
    BAD_DICE = 5                      /* a die outside 1..6 (batch generation) */
};

/* Checks of one 50-byte board (row 0 opponent, row 1 on roll). */
static BG_INLINE int bg_check_board(const uint8_t* b) {
    uint32_t opp_nz, opp_two, opp_one, me_nz, me_two, me_one;
    int n0 = bg_row_sum(b), n1 = bg_row_sum(b + 25);
    if (n0 > 15) return TOO_MANY_CHECKERS_OPPONENT;
    if (n1 > 15) return TOO_MANY_CHECKERS_ON_ROLL;
    if (n0 == 0 && n1 == 0) return NO_CHECKERS;
    bg_row_masks(b, &opp_nz, &opp_two, &opp_one);
    bg_row_masks(b + 25, &me_nz, &me_two, &me_one);
    if (me_nz & bg_reverse24(opp_nz & 0xFFFFFFu) & 0xFFFFFFu) return SHARED_POINT;
    return BOARD_OK;
}

#endif
