# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The networks' forward pass: one hidden layer of sigmoid units and five
sigmoid outputs, for contact, crashed and race positions; positions where
both sides are home take the bear-off tables' chances, finished ones their
exact result.  The inputs are sparse (_features), so the hidden layer is
the bias plus one row of weights per nonzero input.  Choosing the best of
a position's children shares the row of the side on roll among them and
ranks plays by the pruning network first when there is one.
"""
from libc.stdint cimport uint8_t, int8_t, int32_t
from libc.string cimport memcpy, memset, memcmp

import numpy as np

from backgammon._checks cimport need_valid_boards
from backgammon._board cimport SLOTS, CHECKERS, loss_kind, cubeless_equity
from backgammon._movegen cimport BOARD_BYTES
from backgammon._ranking cimport keep_lowest
from backgammon._bearoff cimport race_estimate, set_race_tables
from backgammon._features cimport (position_class, encode, side_units, CLASS_OVER, CLASS_BEAROFF, CLASS_RACE,
                                   CLASS_CONTACT, CLASS_CRASHED, CONTACT_INPUTS_1, CONTACT_INPUTS, RACE_INPUTS_1,
                                   RACE_INPUTS, PRUNE_INPUTS)


cdef extern from "_nn.h":
    void nn_axpy(float* h, float a, const float* w, int n) nogil
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


cdef const Net* net_for(const Evaluator* ev, PositionClass cls) noexcept nogil:
    """The network that answers for a race, contact or crashed position."""
    if cls == CLASS_RACE:
        return &ev.race
    if cls == CLASS_CRASHED and ev.crashed.n_inputs:
        return &ev.crashed
    return &ev.contact


# -- the forward pass -------------------------------------------------------------------

cdef inline void _forward(const Net* net, const int32_t* index, const float* value, int n, float* out, Work* w) noexcept nogil:
    # Hidden layer from the nonzero rows, then the five sigmoid outputs;
    # w.hidden keeps the hidden layer for training.
    nn_forward(net.w1, net.b1, net.w2, net.b2, net.n_hidden, index, value, n, w.hidden, out)


cdef void forward(const Net* net, const int32_t* index, const float* value, int n, float* out,
                  Work* w) noexcept nogil:
    """The network's five outputs for the nonzero inputs (index, value) of
    a position, w.hidden keeping its hidden layer (for training)."""
    _forward(net, index, value, n, out, w)


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


cdef void finished_chances(const uint8_t* board, float* out) noexcept nogil:
    """The exact chances of the side on roll of a finished game (a side
    has borne off every checker)."""
    cdef int i, kind, left = 0
    for i in range(OUTPUTS):
        out[i] = 0.0
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


cdef void _exact(const uint8_t* board, PositionClass cls, const Evaluator* ev, float* out) noexcept nogil:
    # A finished position or a bear-off race: no network involved.
    cdef double est[3]
    cdef int i
    if cls == CLASS_OVER:
        finished_chances(board, out)
        return
    for i in range(OUTPUTS):
        out[i] = 0.0
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
    n = encode(board, net.n_inputs, w.index, w.value, True)
    _forward(net, w.index, w.value, n, out, w)
    consistent(out)
    _possible(board, cls, out)


cdef void evaluate_board(const Evaluator* ev, const uint8_t* board, float* out, Work* w) noexcept nogil:
    """The five chances of the side on roll of ``board`` at 0-ply."""
    _evaluate_class(ev, board, position_class(board), out, w)


cdef float equity(const float* p) noexcept nogil:
    """Cubeless money equity of the five chances."""
    return cubeless_equity(p)


cdef void _start(const Net* net, const uint8_t* row, Start* start, Work* w) noexcept nogil:
    cdef int k, h = net.n_hidden
    cdef int n = side_units(row, 0, w.index, w.value, 0)
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
        n = encode(board, net.n_inputs, w.index, w.value, False)
        nn_forward(net.w1, start.sums, net.w2, net.b2, net.n_hidden, w.index, w.value, n, w.hidden, out)
    else:
        n = encode(board, net.n_inputs, w.index, w.value, True)
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
    consistent(out)
    _possible(board, cls, out)


cdef void evaluate_child(const Evaluator* ev, const uint8_t* board, PositionClass cls, const uint8_t* row,
                         Start* starts, float* out, Work* w) noexcept nogil:
    """evaluate_board of a child of class ``cls`` whose siblings share the
    row ``row`` of the side on roll, the hidden layers started from
    ``starts`` (their ``ready`` cleared for each new set of children)."""
    _evaluate_child(ev, board, cls, row, starts, out, w)


cdef int _best(const Evaluator* ev, const uint8_t* children, int n, Work* w, float* best) noexcept nogil:
    # The lowest 0-ply equity among the children (the first of equals) and
    # its chances in ``best``.  With a pruning network (as gnubg's pruning
    # nets), plays leading to contact are first ranked by it and only its
    # best ev.prune_keep are evaluated in full, those within PRUNE_WITHIN
    # of its best; the others always are.
    cdef int k, j, m = 0, at = -1, keep = ev.prune_keep
    cdef float p[OUTPUTS]
    cdef float e, low = 1e30
    cdef PositionClass cls
    cdef int top[MAX_PRUNE_KEEP]
    cdef float top_score[MAX_PRUNE_KEEP]
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
            m = keep_lowest(top, top_score, m, keep, k, equity(p))
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
        _evaluate_child(ev, children + k * BOARD_BYTES, position_class(children + k * BOARD_BYTES), row,
                        starts, p, w)
        e = equity(p)
        if e < low or (e == low and k < at) or at < 0:
            low = e
            at = k
            memcpy(best, p, OUTPUTS * sizeof(float))
    return at


cdef float prune_score(const Evaluator* ev, const uint8_t* board, const uint8_t* row, Work* w) noexcept nogil:
    """The pruning network's cubeless equity for the side on roll of a
    child whose siblings share the row ``row`` of the side on roll (the
    hidden layer started in ``w.starts[0]``, cleared for each new set of
    children); the evaluator must have a pruning network."""
    cdef float p[OUTPUTS]
    _forward_from(&ev.prune, board, row, &w.starts[0], p, w)
    return equity(p)


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
        from backgammon._search import evaluate
        return evaluate(self, np.ascontiguousarray(boards, dtype=np.uint8), 0).astype(np.float64)



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
            m = encode(&boards[i, 0, 0], PRUNE_INPUTS, w.index, w.value, True)
            _forward(&nets.ev.prune, w.index, w.value, m, &o[i, 0], &w)
    return out


