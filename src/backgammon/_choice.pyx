# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Choosing a play by a kernel policy (see _choice.pxd)."""
from libc.stdint cimport uint8_t, uint32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.math cimport INFINITY

import numpy as np

from backgammon._board cimport no_contact
from backgammon._dice cimport bounded, bitgen_of
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._pubeval cimport Pubeval, weights, pubeval
from backgammon._forward cimport Networks, best_child
from backgammon._checks cimport need_valid_boards, need_rolls
from backgammon._native cimport Judge, judge_open, judge_close, native_best


cdef int choose(int policy, bitgen_t* rng, const uint8_t* board, const uint8_t* children, int n,
                const Evaluator* ev, Work* work) noexcept nogil:
    cdef int k, best = 0
    cdef double s, top
    cdef bint race
    cdef const Pubeval* w
    if n <= 1:
        return 0
    if policy == POLICY_RANDOM:
        return <int>bounded(rng, <uint32_t>n)
    if policy == POLICY_NET:
        return best_child(ev, children, n, work)
    # pubeval: its race weights when the position before the play is a race.
    w = weights()
    race = no_contact(board)
    top = -INFINITY
    for k in range(n):
        s = pubeval(w, children + k * BOARD_BYTES, race)
        if s > top:
            top = s
            best = k
    return best


cdef int need_policy(int policy, object nets, bint has_generator, bint given_ok) except -1:
    if policy not in (POLICY_RANDOM, POLICY_PUBEVAL, POLICY_NET) and not (given_ok and policy == POLICY_GIVEN):
        raise ValueError(f"policy code {policy} is not a kernel policy")
    if policy == POLICY_PUBEVAL and not weights().ready:
        raise RuntimeError("pubeval weights are not loaded")
    if policy == POLICY_NET and nets is None:
        raise ValueError("the network policy needs nets")
    if policy == POLICY_RANDOM and not has_generator:
        raise ValueError("the random policy needs a generator")
    return 0


def choose_plays(int policy, const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, generator=None,
                 Networks nets=None, evaluator=None):
    """The play each (board, roll) gets from ``policy``, as the game loop
    chooses it: the index among the move generator's plays, (n,) int64.
    ``evaluator``: a native evaluator playing the network policy instead
    of ``nets``."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef bitgen_t* rng = NULL
    cdef Generator* g
    cdef uint8_t* children
    cdef Work* work
    cdef int m
    cdef const Evaluator* ev = NULL
    cdef Judge judge
    cdef float best[5]
    need_policy(policy, nets if evaluator is None else evaluator, generator is not None, False)
    need_valid_boards("boards", boards)
    need_rolls("rolls", rolls, n)
    if nets is not None:
        ev = &nets.ev
    if generator is not None:
        rng = bitgen_of(generator)
    out = np.zeros(n, dtype=np.int64)
    cdef int64_t[::1] o = out
    g = new_generator()
    children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    work = <Work*>malloc(sizeof(Work))
    if g == NULL or children == NULL or work == NULL:
        free(g); free(children); free(work)
        raise MemoryError()
    judge_open(&judge, None, evaluator if policy == POLICY_NET else None)
    with nogil:
        for i in range(n):
            m = generate(g, &boards[i, 0, 0], rolls[i, 0], rolls[i, 1], children, NULL, True)
            if m > 1 and judge.native != NULL:
                o[i] = native_best(&judge, children, m, best)
                if judge.failed:
                    break
            elif m > 1:
                o[i] = choose(policy, rng, &boards[i, 0, 0], children, m, ev, work)
    free(g); free(children); free(work)
    judge_close(&judge)
    if judge.failed:
        raise RuntimeError(f"the native evaluator {evaluator!r} failed")
    return out
