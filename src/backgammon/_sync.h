/* What threads sharing one batch need to hand each other a number: an
   int64 published with release order and read with acquire order, and a
   polite wait (the peer may be descheduled, so spinning gives way). */
#ifndef BACKGAMMON_SYNC_H
#define BACKGAMMON_SYNC_H
#include <stdint.h>
#if defined(_MSC_VER)
#define BG_SYNC_INLINE __inline
#include <windows.h>
#include <intrin.h>
static __inline int64_t bg_load_acquire(const int64_t* p) {
    int64_t v = *(volatile const int64_t*)p; _ReadWriteBarrier(); return v;
}
static __inline void bg_store_release(int64_t* p, int64_t v) {
    _ReadWriteBarrier(); *(volatile int64_t*)p = v;
}
static __inline int64_t bg_fetch_add(int64_t* p, int64_t v) {
    return InterlockedExchangeAdd64((volatile LONG64*)p, v);
}
static __inline void bg_relax(int spins) { if (spins < 64) YieldProcessor(); else SwitchToThread(); }
#else
#define BG_SYNC_INLINE inline
#include <sched.h>
static inline int64_t bg_load_acquire(const int64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void bg_store_release(int64_t* p, int64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static inline int64_t bg_fetch_add(int64_t* p, int64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL); }
static inline void bg_relax(int spins) {
#if defined(__x86_64__) || defined(__i386__)
    if (spins < 64) { __builtin_ia32_pause(); return; }
#endif
    sched_yield();
}
#endif

/* Copy to memory that will not be read soon, past the caches where the
   machine can (SSE2 streaming stores): the destination's lines are not
   read first, which halves the memory traffic of a large output. */
#include <string.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
/* Part of a streamed copy, with no fence (the caller fences once the whole
   copy is done): a copy spread over other work, a piece at a time.  Pieces
   should end on the destination's 64-byte lines: a line streamed in two
   parts with other work between them is written to memory in parts, which
   costs many times a whole line. */
static BG_SYNC_INLINE void bg_stream_part(void* dst, const void* src, size_t n) {
    char* d = (char*)dst;
    const char* s = (const char*)src;
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (n < 64) { memcpy(d, s, n); return; }
    memcpy(d, s, head);
    d += head; s += head; n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i*)s), b = _mm_loadu_si128((const __m128i*)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i*)(s + 32)), e = _mm_loadu_si128((const __m128i*)(s + 48));
        _mm_stream_si128((__m128i*)d, a);
        _mm_stream_si128((__m128i*)(d + 16), b);
        _mm_stream_si128((__m128i*)(d + 32), c);
        _mm_stream_si128((__m128i*)(d + 48), e);
    }
    memcpy(d, s, n);
}
static BG_SYNC_INLINE void bg_stream_fence(void) { _mm_sfence(); }
static BG_SYNC_INLINE void bg_stream_copy(void* dst, const void* src, size_t n) {
    bg_stream_part(dst, src, n);
    _mm_sfence();
}
/* The same with 32-byte loads and stores where the machine has AVX2,
   chosen when the program runs (GCC and Clang on x86-64; not AVX-512,
   whose wide stores slow the whole core down on some Xeons); elsewhere the
   SSE2 copy above. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
static BG_SYNC_INLINE __attribute__((target("avx2"))) void bg_stream_part_avx2(void* dst, const void* src, size_t n) {
    char* d = (char*)dst;
    const char* s = (const char*)src;
    size_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (n < 128) { memcpy(d, s, n); return; }
    memcpy(d, s, head);
    d += head; s += head; n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i*)s), b = _mm256_loadu_si256((const __m256i*)(s + 32));
        _mm256_stream_si256((__m256i*)d, a);
        _mm256_stream_si256((__m256i*)(d + 32), b);
    }
    memcpy(d, s, n);
}
static BG_SYNC_INLINE int bg_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
static BG_SYNC_INLINE void bg_stream_part_avx2(void* dst, const void* src, size_t n) { bg_stream_part(dst, src, n); }
static BG_SYNC_INLINE int bg_has_avx2(void) { return 0; }
#endif
/* A mask row: count ones then zeros up to width, streamed. */
static BG_SYNC_INLINE void bg_stream_mask(signed char* row, int count, int width) {
    static const signed char edge[32] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    int j = 0, head = (int)((16 - ((uintptr_t)row & 15)) & 15);
    __m128i ones = _mm_set1_epi8(1), zeros = _mm_setzero_si128(), v;
    if (head > width) head = width;
    for (; j < head; j++) row[j] = (signed char)(j < count);
    for (; j + 16 <= width; j += 16) {
        if (j + 16 <= count) v = ones;
        else if (j >= count) v = zeros;
        else v = _mm_loadu_si128((const __m128i*)(edge + 16 - (count - j)));
        _mm_stream_si128((__m128i*)(row + j), v);
    }
    for (; j < width; j++) row[j] = (signed char)(j < count);
    _mm_sfence();
}
#else
static BG_SYNC_INLINE void bg_stream_copy(void* dst, const void* src, size_t n) { memcpy(dst, src, n); }
static BG_SYNC_INLINE void bg_stream_part(void* dst, const void* src, size_t n) { memcpy(dst, src, n); }
static BG_SYNC_INLINE void bg_stream_fence(void) { }
static BG_SYNC_INLINE void bg_stream_part_avx2(void* dst, const void* src, size_t n) { memcpy(dst, src, n); }
static BG_SYNC_INLINE int bg_has_avx2(void) { return 0; }
static BG_SYNC_INLINE void bg_stream_mask(signed char* row, int count, int width) {
    memset(row, 1, (size_t)count); memset(row + count, 0, (size_t)(width - count));
}
#endif
#endif
