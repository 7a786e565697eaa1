# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Training the networks in place: TD(0) and TD(lambda) self-play from the
opening (with exploration near the best play), the positions such games
meet, and supervised passes of stochastic gradient descent toward given
chances (the full networks, and the pruning network).
"""
from libc.stdint cimport uint8_t, uint32_t, int64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

import numpy as np

from numpy.random cimport bitgen_t

from backgammon._dice cimport bounded, bitgen_of, OPENING_THROWS, opening_throw
from backgammon._checks cimport need_valid_boards, need_shape
from backgammon._board cimport SLOTS, starting_position
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._features cimport (PositionClass, position_class, encode, CLASS_OVER, CLASS_BEAROFF, CLASS_RACE,
                                   CLASS_CONTACT)
from backgammon._forward cimport (Networks, Evaluator, Net, Start, Work, OUTPUTS, MAX_HIDDEN, net_for, forward,
                                  evaluate_board, evaluate_child, best_child, equity, flip)


cdef extern from "_sync.h":
    void bg_store_release(int64_t* p, int64_t v) nogil

cdef extern from "_nn.h":
    void nn_add(float* h, const float* w, int n) nogil
    void nn_axpy(float* h, float a, const float* w, int n) nogil


cdef double _td_update(Net* net, const uint8_t* board, const float* target, float alpha, Work* w) noexcept nogil:
    # One gradient step of the squared error between the network's five
    # outputs for ``board`` and ``target``; returns that error.
    cdef float out[OUTPUTS]
    cdef float delta[OUTPUTS]
    cdef float grad[MAX_HIDDEN]
    cdef int n, k, j, h = net.n_hidden
    cdef double err = 0.0
    cdef float* row
    n = encode(board, net.n_inputs, w.index, w.value, True)
    forward(net, w.index, w.value, n, out, w)
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
    evaluate_child(ev, children + best * BOARD_BYTES, position_class(children + best * BOARD_BYTES), row,
                    starts, p, w)
    low = equity(p)
    for k in range(n):
        if k == best:
            continue
        evaluate_child(ev, children + k * BOARD_BYTES, position_class(children + k * BOARD_BYTES), row,
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
            flip(value, target)
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
        flip(target + (t + 1) * OUTPUTS, back)
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
            flip(value, tr.target + (tr.n - 1) * OUTPUTS)
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
                   double explore=0.0, float within=0.0, float lam=0.0, int64_t[::1] counter=None):
    """Play ``games`` games of 0-ply self-play, updating the networks in
    place by TD(0) after every play.  With chance ``explore`` a decision
    plays one of the other plays within ``within`` equity of the best, at
    random (the position before it still learns the best play's value).
    ``lam`` > 0: TD(lambda) returns instead, learnt at the end of each
    game.  Returns (games, squared error sum, updates, plies).  ``counter``
    (1,) int64 counts the games as they end, for a progress bar."""
    cdef int64_t* tally = NULL
    cdef int64_t counted = 0
    if counter is not None:
        need_shape("counter", counter.shape[0] == 1, "(1,)")
        tally = &counter[0]
        counted = tally[0]
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
            if tally != NULL:
                bg_store_release(tally, counted + i + 1)      # seen by the progress bar's thread
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


