/* Float32 vector helpers of the neural network kernel (_net.pyx): row
   sums, a sigmoid and dot products, with SSE2 where the machine has it and
   a plain fallback.  Both compute each element with the same IEEE single
   operations in the same order, so they give the same numbers.  Lengths
   are multiples of 16 (the kernel checks the hidden layer's size). */
#ifndef BACKGAMMON_NN_H
#define BACKGAMMON_NN_H
#include <stdint.h>
#include <string.h>
#if defined(_MSC_VER)
#define NN_INLINE __inline
#else
#define NN_INLINE inline
#endif

/* exp(-x) for the sigmoid: 2^t with t = -x log2(e) split into an integer
   i and f in [-0.5, 0.5); 2^f = sqrt(2) e^g, g = (f - 0.5) ln 2 ... written
   as e^((t - i - 0.5) ln 2) by a degree-6 Taylor polynomial (relative error
   below 2e-7 on |g| <= 0.35), scaled by 2^i through the exponent bits. */
#define NN_LOG2E 1.44269504f
#define NN_LN2 0.693147181f
#define NN_SQRT2 1.41421356f
#define NN_CLAMP 30.0f

static NN_INLINE float nn_sigmoid1(float x) {
    float t, f, g, e;
    int32_t i, bits;
    float scale;
    if (x > NN_CLAMP) x = NN_CLAMP;
    if (x < -NN_CLAMP) x = -NN_CLAMP;
    t = x * -NN_LOG2E;
    i = (int32_t)(t + 64.0f) - 64;
    f = t - (float)i - 0.5f;
    g = f * NN_LN2;
    e = 1.0f + g * (1.0f + g * (0.5f + g * (0.166666667f + g * (0.0416666667f + g * (0.00833333333f + g * 0.00138888889f)))));
    e = e * NN_SQRT2;
    bits = (i + 127) << 23;
    memcpy(&scale, &bits, 4);
    return 1.0f / (1.0f + e * scale);
}

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
static NN_INLINE void nn_sigmoid(const float* x, float* y, int n) {
    const __m128 hi = _mm_set1_ps(NN_CLAMP), lo = _mm_set1_ps(-NN_CLAMP);
    const __m128 mlog2e = _mm_set1_ps(-NN_LOG2E), off = _mm_set1_ps(64.0f), half = _mm_set1_ps(0.5f);
    const __m128 ln2 = _mm_set1_ps(NN_LN2), one = _mm_set1_ps(1.0f), sqrt2 = _mm_set1_ps(NN_SQRT2);
    const __m128 c6 = _mm_set1_ps(0.00138888889f), c5 = _mm_set1_ps(0.00833333333f), c4 = _mm_set1_ps(0.0416666667f);
    const __m128 c3 = _mm_set1_ps(0.166666667f);
    const __m128i i64 = _mm_set1_epi32(64), i127 = _mm_set1_epi32(127);
    int k;
    for (k = 0; k < n; k += 4) {
        __m128 v = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(x + k), lo), hi);
        __m128 t = _mm_mul_ps(v, mlog2e);
        __m128i i = _mm_sub_epi32(_mm_cvttps_epi32(_mm_add_ps(t, off)), i64);
        __m128 f = _mm_sub_ps(_mm_sub_ps(t, _mm_cvtepi32_ps(i)), half);
        __m128 g = _mm_mul_ps(f, ln2);
        __m128 e = _mm_add_ps(c5, _mm_mul_ps(g, c6));
        e = _mm_add_ps(c4, _mm_mul_ps(g, e));
        e = _mm_add_ps(c3, _mm_mul_ps(g, e));
        e = _mm_add_ps(half, _mm_mul_ps(g, e));
        e = _mm_add_ps(one, _mm_mul_ps(g, e));
        e = _mm_add_ps(one, _mm_mul_ps(g, e));
        e = _mm_mul_ps(e, sqrt2);
        e = _mm_mul_ps(e, _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(i, i127), 23)));
        _mm_storeu_ps(y + k, _mm_div_ps(one, _mm_add_ps(one, e)));
    }
}
/* h += w */
static NN_INLINE void nn_add(float* h, const float* w, int n) {
    int k;
    for (k = 0; k < n; k += 8) {
        _mm_storeu_ps(h + k, _mm_add_ps(_mm_loadu_ps(h + k), _mm_loadu_ps(w + k)));
        _mm_storeu_ps(h + k + 4, _mm_add_ps(_mm_loadu_ps(h + k + 4), _mm_loadu_ps(w + k + 4)));
    }
}
/* h += a w */
static NN_INLINE void nn_axpy(float* h, float a, const float* w, int n) {
    __m128 av = _mm_set1_ps(a);
    int k;
    for (k = 0; k < n; k += 8) {
        _mm_storeu_ps(h + k, _mm_add_ps(_mm_loadu_ps(h + k), _mm_mul_ps(av, _mm_loadu_ps(w + k))));
        _mm_storeu_ps(h + k + 4, _mm_add_ps(_mm_loadu_ps(h + k + 4), _mm_mul_ps(av, _mm_loadu_ps(w + k + 4))));
    }
}
/* sum of a[k] b[k], in two lanes of four summed at the end */
static NN_INLINE float nn_dot(const float* a, const float* b, int n) {
    __m128 s0 = _mm_setzero_ps(), s1 = _mm_setzero_ps();
    float lanes[4];
    int k;
    for (k = 0; k < n; k += 8) {
        s0 = _mm_add_ps(s0, _mm_mul_ps(_mm_loadu_ps(a + k), _mm_loadu_ps(b + k)));
        s1 = _mm_add_ps(s1, _mm_mul_ps(_mm_loadu_ps(a + k + 4), _mm_loadu_ps(b + k + 4)));
    }
    _mm_storeu_ps(lanes, _mm_add_ps(s0, s1));
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}
#else
static NN_INLINE void nn_sigmoid(const float* x, float* y, int n) {
    int k;
    for (k = 0; k < n; k++) y[k] = nn_sigmoid1(x[k]);
}
static NN_INLINE void nn_add(float* h, const float* w, int n) {
    int k;
    for (k = 0; k < n; k++) h[k] += w[k];
}
static NN_INLINE void nn_axpy(float* h, float a, const float* w, int n) {
    int k;
    for (k = 0; k < n; k++) h[k] += a * w[k];
}
static NN_INLINE float nn_dot(const float* a, const float* b, int n) {
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int k, j;
    for (k = 0; k < n; k += 8)
        for (j = 0; j < 8; j++) s[j] += a[k + j] * b[k + j];
    return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
}
#endif

/* The forward pass of a network with one hidden layer: hidden = sigmoid(b1
   + sum of value[k] x row index[k] of w1), out = sigmoid(b2 + w2 hidden).
   The hidden layer is built a block of units at a time held in registers,
   so each weight row is read once and the partial sums never go to memory.
   Machines with AVX2 and FMA take a wider version, chosen once at import
   (nn_select); the two may differ in the last bits of a float. */
typedef void (*nn_forward_fn)(const float* w1, const float* b1, const float* w2, const float* b2, int h,
                              const int32_t* index, const float* value, int n, float* hidden, float* out);

static void nn_forward_base(const float* w1, const float* b1, const float* w2, const float* b2, int h,
                            const int32_t* index, const float* value, int n, float* hidden, float* out) {
    int c, k, j;
#if defined(__SSE2__) || defined(_M_X64)
    for (c = 0; c < h; c += 16) {
        __m128 a0 = _mm_loadu_ps(b1 + c), a1 = _mm_loadu_ps(b1 + c + 4);
        __m128 a2 = _mm_loadu_ps(b1 + c + 8), a3 = _mm_loadu_ps(b1 + c + 12);
        for (k = 0; k < n; k++) {
            const float* row = w1 + (size_t)index[k] * h + c;
            __m128 v = _mm_set1_ps(value[k]);
            a0 = _mm_add_ps(a0, _mm_mul_ps(v, _mm_loadu_ps(row)));
            a1 = _mm_add_ps(a1, _mm_mul_ps(v, _mm_loadu_ps(row + 4)));
            a2 = _mm_add_ps(a2, _mm_mul_ps(v, _mm_loadu_ps(row + 8)));
            a3 = _mm_add_ps(a3, _mm_mul_ps(v, _mm_loadu_ps(row + 12)));
        }
        _mm_storeu_ps(hidden + c, a0);
        _mm_storeu_ps(hidden + c + 4, a1);
        _mm_storeu_ps(hidden + c + 8, a2);
        _mm_storeu_ps(hidden + c + 12, a3);
    }
#else
    for (j = 0; j < h; j++) hidden[j] = b1[j];
    for (k = 0; k < n; k++)
        for (j = 0; j < h; j++) hidden[j] += value[k] * w1[(size_t)index[k] * h + j];
#endif
    nn_sigmoid(hidden, hidden, h);
    for (j = 0; j < 5; j++) out[j] = nn_sigmoid1(b2[j] + nn_dot(w2 + (size_t)j * h, hidden, h));
    (void)c;
}

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define NN_HAVE_AVX2 1
__attribute__((target("avx2,fma")))
static void nn_forward_avx2(const float* w1, const float* b1, const float* w2, const float* b2, int h,
                            const int32_t* index, const float* value, int n, float* hidden, float* out) {
    const __m256 hi = _mm256_set1_ps(NN_CLAMP), lo = _mm256_set1_ps(-NN_CLAMP);
    const __m256 mlog2e = _mm256_set1_ps(-NN_LOG2E), off = _mm256_set1_ps(64.0f), half = _mm256_set1_ps(0.5f);
    const __m256 ln2 = _mm256_set1_ps(NN_LN2), one = _mm256_set1_ps(1.0f), sqrt2 = _mm256_set1_ps(NN_SQRT2);
    const __m256 c6 = _mm256_set1_ps(0.00138888889f), c5 = _mm256_set1_ps(0.00833333333f);
    const __m256 c4 = _mm256_set1_ps(0.0416666667f), c3 = _mm256_set1_ps(0.166666667f);
    const __m256i i64 = _mm256_set1_epi32(64), i127 = _mm256_set1_epi32(127);
    int c, k, j;
    for (c = 0; c < h; c += 32) {
        __m256 a0, a1, a2, a3;
        if (h - c >= 32) {
            a0 = _mm256_loadu_ps(b1 + c); a1 = _mm256_loadu_ps(b1 + c + 8);
            a2 = _mm256_loadu_ps(b1 + c + 16); a3 = _mm256_loadu_ps(b1 + c + 24);
            for (k = 0; k < n; k++) {
                const float* row = w1 + (size_t)index[k] * h + c;
                __m256 v = _mm256_set1_ps(value[k]);
                a0 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row), a0);
                a1 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 8), a1);
                a2 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 16), a2);
                a3 = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 24), a3);
            }
            _mm256_storeu_ps(hidden + c, a0); _mm256_storeu_ps(hidden + c + 8, a1);
            _mm256_storeu_ps(hidden + c + 16, a2); _mm256_storeu_ps(hidden + c + 24, a3);
        } else {
            for (j = c; j < h; j += 8) {
                a0 = _mm256_loadu_ps(b1 + j);
                for (k = 0; k < n; k++)
                    a0 = _mm256_fmadd_ps(_mm256_set1_ps(value[k]), _mm256_loadu_ps(w1 + (size_t)index[k] * h + j), a0);
                _mm256_storeu_ps(hidden + j, a0);
            }
        }
    }
    for (j = 0; j < h; j += 8) {
        __m256 v = _mm256_min_ps(_mm256_max_ps(_mm256_loadu_ps(hidden + j), lo), hi);
        __m256 t = _mm256_mul_ps(v, mlog2e);
        __m256i i = _mm256_sub_epi32(_mm256_cvttps_epi32(_mm256_add_ps(t, off)), i64);
        __m256 f = _mm256_sub_ps(_mm256_sub_ps(t, _mm256_cvtepi32_ps(i)), half);
        __m256 g = _mm256_mul_ps(f, ln2);
        __m256 e = _mm256_fmadd_ps(g, c6, c5);
        e = _mm256_fmadd_ps(g, e, c4);
        e = _mm256_fmadd_ps(g, e, c3);
        e = _mm256_fmadd_ps(g, e, half);
        e = _mm256_fmadd_ps(g, e, one);
        e = _mm256_fmadd_ps(g, e, one);
        e = _mm256_mul_ps(_mm256_mul_ps(e, sqrt2), _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(i, i127), 23)));
        _mm256_storeu_ps(hidden + j, _mm256_div_ps(one, _mm256_add_ps(one, e)));
    }
    for (j = 0; j < 5; j++) {
        __m256 s = _mm256_setzero_ps();
        float lanes[8];
        const float* w = w2 + (size_t)j * h;
        for (k = 0; k < h; k += 8) s = _mm256_fmadd_ps(_mm256_loadu_ps(w + k), _mm256_loadu_ps(hidden + k), s);
        _mm256_storeu_ps(lanes, s);
        out[j] = nn_sigmoid1(b2[j] + (((lanes[0] + lanes[4]) + (lanes[1] + lanes[5])) + ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]))));
    }
}
#endif

static nn_forward_fn nn_forward = nn_forward_base;

/* Picks the forward pass for this machine; returns 1 when it is AVX2. */
static int nn_select(int allow_wide) {
    nn_forward = nn_forward_base;
#ifdef NN_HAVE_AVX2
    __builtin_cpu_init();
    if (allow_wide && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        nn_forward = nn_forward_avx2;
        return 1;
    }
#endif
    (void)allow_wide;
    return 0;
}
#endif
