# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A TD-Gammon-style network over Tesauro's 198 inputs: one hidden layer
and five outputs (win, win gammon, win backgammon, lose gammon, lose
backgammon), with a cheap sigmoid (1/2 + x / (2 (1 + |x|))), offered to backgammon's game loop
through the native evaluator protocol (backgammon/backgammon.h).

The inputs are sparse: a point with c checkers sets at most four units,
so the hidden layer is the bias plus one row of weights per nonzero
input; the plays of one position share the row of the side then on roll,
whose rows are summed once.  An optional smaller network of the same inputs is the pruner:
the game loop ranks a position's plays by it and evaluates only its best
few in full.
"""
from libc.stdint cimport uint8_t
from libc.string cimport memcmp
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_SetContext, PyCapsule_GetContext
from cpython.ref cimport Py_INCREF, Py_DECREF, PyObject

import numpy as np

from backgammon.evaluator cimport bg_evaluator, BG_EVALUATOR_VERSION, BG_EVALUATOR_CAPSULE
from backgammon.board cimport BG_SLOTS, BG_BOARD_BYTES, BG_OUTPUTS, BG_CHECKERS

cdef enum:
    INPUTS = 198
    MAX_HIDDEN = 1024
    MAX_UNITS = 120            # nonzero inputs of one board: at most 2 x (24 x 2 + 2) + 1


ctypedef struct Layer:
    int hidden
    const float* w1            # (INPUTS, hidden): one row per input
    const float* b1            # (hidden,)
    const float* w2            # (5, hidden)
    const float* b2            # (5,)


ctypedef struct Model:
    Layer full
    Layer pruner               # hidden 0: none


cdef int side_units(const uint8_t* row, int base, int* index, float* value, int n) noexcept nogil:
    # Tesauro's units of one side's row from input ``base`` on, appended at
    # n: per point c >= 1, c >= 2, c >= 3, (c - 3) / 2; the bar / 2; borne
    # off / 15.
    cdef int p, c, total = 0
    for p in range(24):
        c = row[p]
        if not c:
            continue
        total += c
        index[n] = base + 4 * p
        value[n] = 1.0
        n += 1
        if c >= 2:
            index[n] = base + 4 * p + 1
            value[n] = 1.0
            n += 1
        if c >= 3:
            index[n] = base + 4 * p + 2
            value[n] = 1.0
            n += 1
        if c > 3:
            index[n] = base + 4 * p + 3
            value[n] = (c - 3) * 0.5
            n += 1
    if row[24]:
        total += row[24]
        index[n] = base + 96
        value[n] = row[24] * 0.5
        n += 1
    if total < BG_CHECKERS:
        index[n] = base + 97
        value[n] = (BG_CHECKERS - total) / 15.0
        n += 1
    return n


cdef extern from *:
    """
    /* The arithmetic of a layer in C, so that on x86-64 with GCC or Clang
       a second copy for AVX2 is made and chosen when the module loads
       (target_clones; without FMA, so both copies give the same floats).
       The hidden sums are built 32 units at a time in registers (GCC's
       vector types): each row of weights is read once and the sums go to
       memory once. */
    #include <math.h>
    #include <stddef.h>
    #include <string.h>
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && defined(__GLIBC__)
    #define TN_CLONES __attribute__((target_clones("avx2", "default")))
    #else
    #define TN_CLONES
    #endif
    #if defined(__GNUC__) || defined(__clang__)
    typedef float tn_v8 __attribute__((vector_size(32)));
    static inline tn_v8 tn_load(const float* p) { tn_v8 v; memcpy(&v, p, sizeof v); return v; }
    #endif
    TN_CLONES static void tn_add_rows(float* hidden, const float* w1, int h, const int* index,
                                      const float* value, int n) {
        int c = 0, j, k;
    #if defined(__GNUC__) || defined(__clang__)
        for (; c + 32 <= h; c += 32) {
            tn_v8 a0 = tn_load(hidden + c), a1 = tn_load(hidden + c + 8);
            tn_v8 a2 = tn_load(hidden + c + 16), a3 = tn_load(hidden + c + 24);
            for (k = 0; k < n; k++) {
                const float* row = w1 + (ptrdiff_t)index[k] * h + c;
                const tn_v8 v = {value[k], value[k], value[k], value[k], value[k], value[k], value[k], value[k]};
                a0 += v * tn_load(row);
                a1 += v * tn_load(row + 8);
                a2 += v * tn_load(row + 16);
                a3 += v * tn_load(row + 24);
            }
            memcpy(hidden + c, &a0, sizeof a0);
            memcpy(hidden + c + 8, &a1, sizeof a1);
            memcpy(hidden + c + 16, &a2, sizeof a2);
            memcpy(hidden + c + 24, &a3, sizeof a3);
        }
    #endif
        for (k = 0; k < n; k++) {
            const float* row = w1 + (ptrdiff_t)index[k] * h;
            for (j = c; j < h; j++) hidden[j] += value[k] * row[j];
        }
    }
    /* hidden squashed in place, then out[k] = squash(b2[k] + w2[k] . hidden)
       with eight running sums (C may not reorder one float sum, so a single
       sum is a chain of dependent additions). */
    TN_CLONES static void tn_outputs(float* hidden, const float* w2, const float* b2, int h, float* out) {
        int j, k, t, end = h - h % 8;
        for (j = 0; j < h; j++) hidden[j] = 0.5f + 0.5f * hidden[j] / (1.0f + fabsf(hidden[j]));
        for (k = 0; k < 5; k++) {
            const float* row = w2 + (ptrdiff_t)k * h;
            float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s;
            for (j = 0; j < end; j += 8)
                for (t = 0; t < 8; t++) lane[t] += row[j + t] * hidden[j + t];
            for (j = end; j < h; j++) lane[0] += row[j] * hidden[j];
            s = b2[k] + (((lane[0] + lane[4]) + (lane[1] + lane[5])) + ((lane[2] + lane[6]) + (lane[3] + lane[7])));
            out[k] = 0.5f + 0.5f * s / (1.0f + fabsf(s));
        }
    }
    """
    void tn_add_rows(float* hidden, const float* w1, int h, const int* index, const float* value,
                     int n) noexcept nogil
    void tn_outputs(float* hidden, const float* w2, const float* b2, int h, float* out) noexcept nogil


cdef inline void add_rows(const Layer* net, float* hidden, const int* index, const float* value, int n) noexcept nogil:
    tn_add_rows(hidden, net.w1, net.hidden, index, value, n)


cdef void start_of(const Layer* net, const uint8_t* board, float* start) noexcept nogil:
    # The bias, "the side on roll moves" and the side on roll's units
    # (row 1) summed: what the children of one position share (the
    # player who moved is row 0 in them; row 1 changes only on a hit).
    cdef int index[MAX_UNITS]
    cdef float value[MAX_UNITS]
    cdef int n = side_units(board + BG_SLOTS, 0, index, value, 0), j
    index[n] = 196
    value[n] = 1.0
    for j in range(net.hidden):
        start[j] = net.b1[j]
    add_rows(net, start, index, value, n + 1)


cdef void finish(const Layer* net, const uint8_t* board, const float* start, float* out) noexcept nogil:
    # The outputs of a board from its start: the opponent's units (row 0) added.
    cdef int index[MAX_UNITS]
    cdef float value[MAX_UNITS]
    cdef float hidden[MAX_HIDDEN]
    cdef int n = side_units(board, 98, index, value, 0), h = net.hidden, j
    for j in range(h):
        hidden[j] = start[j]
    add_rows(net, hidden, index, value, n)
    tn_outputs(hidden, net.w2, net.b2, h, out)


cdef void evaluate_layer(const Layer* net, const uint8_t* boards, Py_ssize_t n, float* out) noexcept nogil:
    # Boards in a batch (a position's children) mostly share row 1: its
    # sums are made once for each run of boards that share it.
    cdef float start[MAX_HIDDEN]
    cdef const uint8_t* board
    cdef const uint8_t* shared = NULL
    cdef Py_ssize_t i
    for i in range(n):
        board = boards + i * BG_BOARD_BYTES
        if shared == NULL or memcmp(shared, board + BG_SLOTS, BG_SLOTS) != 0:
            start_of(net, board, start)
            shared = board + BG_SLOTS
        finish(net, board, start, out + i * BG_OUTPUTS)


cdef int evaluate_full(void* context, const uint8_t* boards, Py_ssize_t n, float* out) noexcept nogil:
    evaluate_layer(&(<const Model*>context).full, boards, n, out)
    return 0


cdef int evaluate_pruner(void* context, const uint8_t* boards, Py_ssize_t n, float* out) noexcept nogil:
    evaluate_layer(&(<const Model*>context).pruner, boards, n, out)
    return 0


cdef int failing(void* context, const uint8_t* boards, Py_ssize_t n, float* out) noexcept nogil:
    return -1


cdef void release(object capsule) noexcept:
    # The capsule held a reference to the evaluator that owns its struct.
    Py_DECREF(<object>PyCapsule_GetContext(capsule))


cdef int set_layer(Layer* layer, dict arrays, str prefix) except -1:
    cdef const float[:, ::1] w1 = arrays[prefix + "w1"]
    cdef const float[::1] b1 = arrays[prefix + "b1"]
    cdef const float[:, ::1] w2 = arrays[prefix + "w2"]
    cdef const float[::1] b2 = arrays[prefix + "b2"]
    h = b1.shape[0]
    if not 1 <= h <= MAX_HIDDEN or w1.shape[0] != INPUTS or w1.shape[1] != h or w2.shape[0] != BG_OUTPUTS \
            or w2.shape[1] != h or b2.shape[0] != BG_OUTPUTS:
        raise ValueError(f"{prefix} weights must be (198, H), (H,), (5, H), (5,) with H at most {MAX_HIDDEN}")
    layer.hidden = h
    layer.w1 = &w1[0, 0]
    layer.b1 = &b1[0]
    layer.w2 = &w2[0, 0]
    layer.b2 = &b2[0]
    return 0


def fitted_arrays(bint prune=True):
    """The shipped weights (weights.npz beside this module), with the
    pruner's unless ``prune`` is False."""
    from importlib import resources
    with resources.files("tesauro_net").joinpath("weights.npz").open("rb") as f:
        with np.load(f) as data:
            return {k: np.array(data[k], dtype=np.float32) for k in data.files
                    if k != "meta" and (prune or not k.startswith("prune_"))}


def random_arrays(int hidden=128, int prune_hidden=0, seed=0):
    """Small random weights (float32) of a network with ``hidden`` units
    and, when ``prune_hidden``, a pruner with that many."""
    rng = np.random.default_rng(seed)
    arrays = {}
    for prefix, h in (("", hidden), ("prune_", prune_hidden)):
        if h:
            arrays[prefix + "w1"] = rng.normal(0, 0.3, (INPUTS, h)).astype(np.float32)
            arrays[prefix + "b1"] = rng.normal(0, 0.3, h).astype(np.float32)
            arrays[prefix + "w2"] = rng.normal(0, 0.3, (BG_OUTPUTS, h)).astype(np.float32)
            arrays[prefix + "b2"] = np.zeros(BG_OUTPUTS, np.float32)
    return arrays


cdef class TesauroNet:
    """The network as a native evaluator (``__backgammon_evaluator__``) and
    as a Python evaluator (called with boards (n, 2, 25), it gives their
    chances (n, 5) float64).

    ``arrays``: w1 (198, H), b1 (H,), w2 (5, H), b2 (5,) float32 and
    optionally the pruner's prune_w1... (then ``prune_keep`` plays within
    ``prune_within`` of its best are evaluated in full); default: the
    shipped weights (weights.npz, fitted to backgammon's networks by
    fit.py; their pruner too unless ``prune=False``), or with ``seed``
    random weights of ``hidden`` (and ``prune_hidden``) units.
    ``fail=True`` makes an evaluator that reports a failure (for tests).
    """
    cdef Model model
    cdef bg_evaluator spec
    cdef readonly dict arrays

    def __init__(self, dict arrays=None, *, bint prune=True, int hidden=128, int prune_hidden=0, seed=None,
                 int prune_keep=5, float prune_within=0.2, bint fail=False):
        if arrays is None and seed is not None:
            arrays = random_arrays(hidden, prune_hidden, seed)
        elif arrays is None:
            arrays = fitted_arrays(prune)
        self.arrays = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in arrays.items()}
        set_layer(&self.model.full, self.arrays, "")
        self.model.pruner.hidden = 0
        self.spec.version = BG_EVALUATOR_VERSION
        self.spec.context = &self.model
        self.spec.evaluate = failing if fail else evaluate_full
        self.spec.prune = NULL
        self.spec.prune_keep = 0
        self.spec.prune_within = 0.0
        if "prune_w1" in self.arrays:
            set_layer(&self.model.pruner, self.arrays, "prune_")
            self.spec.prune = evaluate_pruner
            self.spec.prune_keep = prune_keep
            self.spec.prune_within = prune_within

    def __backgammon_evaluator__(self):
        """The native evaluator protocol: a capsule of the bg_evaluator
        struct, which keeps this object alive."""
        capsule = PyCapsule_New(&self.spec, BG_EVALUATOR_CAPSULE, <void (*)(object) noexcept>release)
        Py_INCREF(self)
        PyCapsule_SetContext(capsule, <void*>self)
        return capsule

    def __call__(self, boards):
        """Chances (n, 5) float64 of the side on roll of boards (n, 2, 25)."""
        cdef const uint8_t[:, :, ::1] b = np.ascontiguousarray(boards, dtype=np.uint8)
        out = np.empty((b.shape[0], BG_OUTPUTS), dtype=np.float32)
        cdef float[:, ::1] o = out
        if b.shape[0]:
            with nogil:
                evaluate_full(&self.model, &b[0, 0, 0], b.shape[0], &o[0, 0])
        return out.astype(np.float64)
