# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The cubeless game loop of rollouts: whole games played without the GIL
by kernel policies (_choice), with dice from a numpy bit generator,
stratifying the first two rolls over game indices, and settled when a side
is off or (truncated) once both sides bear off, by the bear-off tables'
exact chances; and the same rolls and settlement for games played in
lockstep by any player (``lockstep``)."""
from libc.stdint cimport uint8_t, int8_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

import numpy as np

from numpy.random cimport bitgen_t
from cpython.exc cimport PyErr_CheckSignals

from backgammon._dice cimport roll, bitgen_of
from backgammon._board cimport SLOTS, both_home, loss_kind
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._bearoff cimport RaceTables, race_estimate, set_race_tables
from backgammon._net cimport Networks, Evaluator, Work
from backgammon._choice cimport choose, need_policy
from backgammon._checks cimport need_shape, need_valid_board, need_valid_boards, need_rows


cdef enum:
    SIGNAL_CHECK_GAMES = 64    # games between looks for Ctrl-C in play_games


cdef inline bint no_checkers_left(const uint8_t* board) noexcept nogil:
    cdef int i, a = 0, b = 0
    for i in range(SLOTS):
        a += board[i]
        b += board[SLOTS + i]
    return a == 0 or b == 0


# -- the game loop -----------------------------------------------------------------

cdef int settle(const uint8_t* child, int mover, int64_t plies, int truncate, const RaceTables* tables,
                double* result) noexcept nogil:
    """After ``mover`` (0 = "us", the side on roll at the start) played to
    ``child`` (next mover's view, the ``plies``-th play of the game): 1 and
    the result for us (win, win gammon, win backgammon, lose gammon, lose
    backgammon) when the game is over, or cut by ``truncate`` (>= 0: from
    that many plies on, once both sides bear off, the tables' chances);
    else 0."""
    cdef int i, left = 0, kind
    cdef double est[3]
    for i in range(5):
        result[i] = 0.0
    for i in range(SLOTS):
        left += child[i]
    if left == 0:
        # The mover (row 0 now) bore off its last checker (RULES 6).
        kind = loss_kind(child + SLOTS)
        if mover == 0:
            result[0] = 1.0
            result[1] = kind >= 2
            result[2] = kind == 3
        else:
            result[3] = kind >= 2
            result[4] = kind == 3
        return 1
    if truncate >= 0 and plies >= truncate and tables.one_sided != NULL and both_home(child):
        race_estimate(tables, child, est)        # for the side on roll in child
        if mover == 1:
            result[0] = est[0]
            result[1] = est[1]
            result[3] = est[2]
        else:
            result[0] = 1.0 - est[0]
            result[1] = est[2]
            result[3] = est[1]
        return 1
    return 0


cdef void _play_game(Generator* g, bitgen_t* rng, const uint8_t* start, int policy0, int policy1,
                     int64_t game_index, bint stratify, int truncate, const RaceTables* tables,
                     uint8_t* children, const Evaluator* ev, Work* work, double* result) noexcept nogil:
    # One game from start; result for the side on roll at the start (turn 0).
    cdef uint8_t board[64]
    cdef int turn = 0, n, k, d1, d2
    cdef int64_t ply = 0
    cdef const uint8_t* child
    memcpy(board, start, BOARD_BYTES)
    while True:
        roll(rng, game_index, ply, stratify, &d1, &d2)
        n = generate(g, board, d1, d2, children, NULL, True)
        if n <= 0:
            return            # unreachable: the loop stops when a side is off
        k = choose(policy0 if turn == 0 else policy1, rng, board, children, n, ev, work)
        child = children + k * BOARD_BYTES
        ply += 1
        if settle(child, turn, ply, truncate, tables, result):
            return
        memcpy(board, child, BOARD_BYTES)
        turn ^= 1


def play_games(const uint8_t[::1] start, int64_t first_index, int64_t n_games, generator,
               int policy0, int policy1, bint stratify=True, int truncate=-1,
               one_sided=None, gammon=None, two_sided=None, int two_sided_checkers=0,
               Networks nets=None):
    """Play ``n_games`` cubeless games from ``start`` (50 bytes, row 1 on
    roll) and return their results, a float64 array (n, 5): win, win gammon,
    win backgammon, lose gammon, lose backgammon for the side on roll.

    ``first_index`` numbers the games for the stratified first two rolls;
    ``truncate`` >= 0 stops a game from that ply on as soon as both sides
    are bearing off and takes the bear-off tables' chances.
    """
    cdef RaceTables tables
    cdef bitgen_t* rng = bitgen_of(generator)
    cdef Generator* g
    cdef uint8_t* children
    cdef int64_t i
    need_shape("start", start.shape[0] == BOARD_BYTES, "(50,)")
    need_valid_board("start", &start[0])
    if no_checkers_left(&start[0]):
        raise ValueError("start: the game is over in this position")
    if n_games < 0:
        raise ValueError("n_games must be >= 0")
    cdef Work* work = NULL
    cdef const Evaluator* ev = NULL
    need_policy(policy0, nets, True, False)
    need_policy(policy1, nets, True, False)
    if nets is not None:
        ev = &nets.ev
    tables.one_sided = NULL
    tables.gammon = NULL
    tables.two_sided = NULL
    if one_sided is not None:
        set_race_tables(&tables, one_sided, gammon, two_sided, two_sided_checkers)
    out = np.zeros((n_games, 5))
    cdef double[:, ::1] o = out
    g = new_generator()
    children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    work = <Work*>malloc(sizeof(Work))
    if g == NULL or children == NULL or work == NULL:
        free(g)
        free(children)
        free(work)
        raise MemoryError()
    cdef int interrupted = 0
    with generator.bit_generator.lock, nogil:
        for i in range(n_games):
            _play_game(g, rng, &start[0], policy0, policy1, first_index + i, stratify, truncate,
                       &tables, children, ev, work, &o[i, 0])
            if i % SIGNAL_CHECK_GAMES == SIGNAL_CHECK_GAMES - 1:
                with gil:      # Ctrl-C stops a long chunk in the main process
                    interrupted = PyErr_CheckSignals()
                if interrupted:
                    break
    free(g)
    free(children)
    free(work)
    if interrupted:
        raise KeyboardInterrupt
    return out



# -- lockstep games -----------------------------------------------------------------

def lockstep_rolls(const int64_t[::1] index, const int64_t[::1] ply, bint stratify, generator):
    """The dice of each lockstep game (index, plies played so far), as the
    game loop rolls them: (n, 2) uint8."""
    cdef Py_ssize_t i, n = index.shape[0]
    cdef int d1, d2
    cdef bitgen_t* rng = bitgen_of(generator)
    need_rows("ply", ply.shape[0], n)
    out = np.empty((n, 2), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    with generator.bit_generator.lock, nogil:
        for i in range(n):
            roll(rng, index[i], ply[i], stratify, &d1, &d2)
            o[i, 0] = <uint8_t>d1
            o[i, 1] = <uint8_t>d2
    return out


def lockstep_settle(const uint8_t[:, :, ::1] chosen, const int8_t[::1] mover, const int64_t[::1] plies,
                    int truncate=-1, one_sided=None, gammon=None, two_sided=None, int two_sided_checkers=0):
    """For each game after its play (``chosen`` from the next mover's view,
    ``mover`` 0 for the side on roll at the start, ``plies`` played): whether
    it ended (n,) bool, and its result (n, 5) as the game loop settles it."""
    cdef Py_ssize_t i, n = chosen.shape[0]
    cdef RaceTables tables
    need_valid_boards("chosen", chosen)
    need_rows("mover", mover.shape[0], n)
    need_rows("plies", plies.shape[0], n)
    for i in range(n):
        if mover[i] not in (0, 1):
            raise ValueError(f"mover[{i}] must be 0 or 1")
    tables.one_sided = NULL
    tables.gammon = NULL
    tables.two_sided = NULL
    if one_sided is not None:
        set_race_tables(&tables, one_sided, gammon, two_sided, two_sided_checkers)
    ended = np.zeros(n, dtype=np.bool_)
    results = np.zeros((n, 5))
    cdef uint8_t[::1] e = ended.view(np.uint8)
    cdef double[:, ::1] r = results
    with nogil:
        for i in range(n):
            e[i] = <uint8_t>settle(&chosen[i, 0, 0], mover[i], plies[i], truncate, &tables, &r[i, 0])
    return ended, results
