# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Evaluators, policies and the cubeless game loop for rollouts.

pubeval (Tesauro's public linear evaluator) is kept as one table per point
of the contribution of each signed checker count, so scoring a candidate is
24 lookups rather than a 122-input dot product.  The game loop plays whole
games without the GIL with dice from a numpy bit generator, stratifying the
first two rolls over game indices, and can stop a game once both sides are
bearing off to take the bear-off tables' exact chances.
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, uint32_t, uint64_t, int32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.math cimport INFINITY

import numpy as np

from numpy.random cimport bitgen_t
from cpython.exc cimport PyErr_CheckSignals

from backgammon._dice cimport bounded, roll, bitgen_of

from backgammon._board cimport SLOTS, BAR, POINTS, no_contact, both_home, loss_kind, check_board, BOARD_OK
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._bearoff cimport RaceTables, race_estimate, set_race_tables
from backgammon._net cimport Networks, Evaluator, Work, best_child


cdef enum:
    SIGNAL_CHECK_GAMES = 64    # games between looks for Ctrl-C in play_games

# pubeval: [race][mover's point p - 1][signed count + 15] and the two extra weights
cdef double PUB[2][24][31]
cdef double PUB_BAR[2]
cdef double PUB_OFF[2]
cdef bint PUB_READY = False


def set_pubeval_weights(const double[:, ::1] weights):
    """Load the (122, 2) weights: column 0 contact, column 1 race."""
    global PUB_READY
    cdef int race, j, n, k, p
    cdef double w[5]
    if weights.shape[0] != 122 or weights.shape[1] != 2:
        raise ValueError("pubeval weights have shape (122, 2)")
    for race in range(2):
        for j in range(1, 25):
            p = 25 - j                       # input block j is the mover's point 25 - j
            for k in range(5):
                w[k] = weights[5 * (j - 1) + k, race]
            for n in range(-15, 16):
                PUB[race][p - 1][n + 15] = (
                    (w[0] if n == -1 else 0.0) + (w[1] if n == 1 else 0.0) + (w[2] if n >= 2 else 0.0)
                    + (w[3] if n == 3 else 0.0) + (w[4] * (n - 3) / 2.0 if n >= 4 else 0.0))
        PUB_BAR[race] = weights[120, race] / 2.0
        PUB_OFF[race] = weights[121, race] / 15.0
    PUB_READY = True


cdef inline double pubeval(const uint8_t* board, bint race) noexcept nogil:
    """pubeval of a position after a play, for the side that played: row 0
    (the next mover's view).  All checkers off scores +infinity."""
    cdef const uint8_t* mover = board
    cdef const uint8_t* other = board + SLOTS
    cdef double s = 0.0
    cdef int p, n, left = 0
    for p in range(1, 25):
        n = mover[p - 1]
        left += n
        if not n:
            n = -other[24 - p]
        s += PUB[race][p - 1][n + 15]
    left += mover[BAR]
    if left == 0:
        return INFINITY
    return s + PUB_BAR[race] * other[BAR] + PUB_OFF[race] * (15 - left)


def pubeval_batch(const uint8_t[:, :, ::1] boards, race=None):
    """pubeval of each board for the side of row 0 (the side that just
    played); ``race`` (bool array) chooses the weights, by default from each
    board itself."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef uint8_t[::1] r
    if not PUB_READY:
        raise RuntimeError("pubeval weights are not loaded")
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    for i in range(n):
        if check_board(&boards[i, 0, 0]) != BOARD_OK:
            raise ValueError(f"board {i} is not a valid position")
    if race is None:
        flags = np.empty(n, dtype=np.uint8)
        r = flags
        with nogil:
            for i in range(n):
                r[i] = no_contact(&boards[i, 0, 0])
    else:
        flags = np.ascontiguousarray(race, dtype=np.uint8)
        if flags.shape != (n,):
            raise ValueError("race must have shape (n,)")
        r = flags
    out = np.empty(n)
    cdef double[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = pubeval(&boards[i, 0, 0], r[i] != 0)
    return out


def tesauro_inputs(const uint8_t[:, :, ::1] boards):
    """The 198 TD-Gammon inputs of each board, float32 (n, 198): for the
    side on roll (row 1), then its opponent (row 0), 4 units per point (at
    least 1, 2, 3 checkers, then (n - 3) / 2 for more), bar / 2 and
    borne off / 15; the last two units say whose turn it is (1, 0)."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int side, row, p, c, base, total
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    out = np.zeros((n, 198), dtype=np.float32)
    cdef float[:, ::1] o = out
    with nogil:
        for i in range(n):
            for side in range(2):
                row = 1 - side
                base = 98 * side
                total = 0
                for p in range(24):
                    c = boards[i, row, p]
                    total += c
                    if c >= 1:
                        o[i, base + 4 * p] = 1.0
                    if c >= 2:
                        o[i, base + 4 * p + 1] = 1.0
                    if c >= 3:
                        o[i, base + 4 * p + 2] = 1.0
                    if c > 3:
                        o[i, base + 4 * p + 3] = (c - 3) / 2.0
                c = boards[i, row, BAR]
                total += c
                o[i, base + 96] = c / 2.0
                o[i, base + 97] = (15 - total) / 15.0
            o[i, 196] = 1.0
            o[i, 197] = 0.0
    return out


cdef inline bint no_checkers_left(const uint8_t* board) noexcept nogil:
    cdef int i, a = 0, b = 0
    for i in range(SLOTS):
        a += board[i]
        b += board[SLOTS + i]
    return a == 0 or b == 0


# -- the game loop -----------------------------------------------------------------

cdef inline int _choose(int policy, Generator* g, bitgen_t* rng, const uint8_t* board,
                        const uint8_t* children, int n, const Evaluator* ev, Work* work) noexcept nogil:
    cdef int k, best = 0
    cdef double s, top
    cdef bint race
    if n == 1:
        return 0
    if policy == POLICY_RANDOM:
        return <int>bounded(rng, <uint32_t>n)
    if policy == POLICY_NET:
        return best_child(ev, children, n, work)
    race = no_contact(board)
    top = -INFINITY
    for k in range(n):
        s = pubeval(children + k * BOARD_BYTES, race)
        if s > top:
            top = s
            best = k
    return best


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
        k = _choose(policy0 if turn == 0 else policy1, g, rng, board, children, n, ev, work)
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
    if start.shape[0] != BOARD_BYTES:
        raise ValueError("start is a 50-byte board")
    if check_board(&start[0]) != BOARD_OK or no_checkers_left(&start[0]):
        raise ValueError("start must be a valid position of a game not over")
    if n_games < 0:
        raise ValueError("n_games must be >= 0")
    cdef Work* work = NULL
    cdef const Evaluator* ev = NULL
    if policy0 not in (POLICY_RANDOM, POLICY_PUBEVAL, POLICY_NET) or policy1 not in (POLICY_RANDOM, POLICY_PUBEVAL, POLICY_NET):
        raise ValueError("unknown policy code")
    if (policy0 == POLICY_NET or policy1 == POLICY_NET) and nets is None:
        raise ValueError("the network policy needs nets")
    if nets is not None:
        ev = &nets.ev
    if (policy0 == POLICY_PUBEVAL or policy1 == POLICY_PUBEVAL) and not PUB_READY:
        raise RuntimeError("pubeval weights are not loaded")
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
    if ply.shape[0] != n:
        raise ValueError("index and ply must have the same length")
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
    if chosen.shape[1] != 2 or chosen.shape[2] != SLOTS:
        raise ValueError("chosen must have shape (n, 2, 25)")
    if mover.shape[0] != n or plies.shape[0] != n:
        raise ValueError("mover and plies must have one entry per game")
    for i in range(n):
        if mover[i] not in (0, 1):
            raise ValueError("mover must be 0 or 1")
        if check_board(&chosen[i, 0, 0]) != BOARD_OK:
            raise ValueError(f"board {i} is not a valid position")
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


def choose_plays(int policy, const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, generator=None,
                 Networks nets=None):
    """The play each (board, roll) gets from ``policy``, as the game loop
    chooses it: the index among the move generator's plays, (n,) int64."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef bitgen_t* rng = NULL
    cdef Generator* g
    cdef uint8_t* children
    cdef Work* work
    cdef int m
    cdef const Evaluator* ev = NULL
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS or rolls.shape[0] != n or rolls.shape[1] != 2:
        raise ValueError("boards (n, 2, 25) and rolls (n, 2) expected")
    if policy not in (POLICY_RANDOM, POLICY_PUBEVAL, POLICY_NET):
        raise ValueError("unknown policy code")
    if policy == POLICY_PUBEVAL and not PUB_READY:
        raise RuntimeError("pubeval weights are not loaded")
    if policy == POLICY_NET:
        if nets is None:
            raise ValueError("the network policy needs nets")
        ev = &nets.ev
    if policy == POLICY_RANDOM:
        if generator is None:
            raise ValueError("the random policy needs a generator")
        rng = bitgen_of(generator)
    for i in range(n):
        if check_board(&boards[i, 0, 0]) != BOARD_OK or not (1 <= rolls[i, 0] <= 6 and 1 <= rolls[i, 1] <= 6):
            raise ValueError(f"board {i} or its roll is not valid")
    out = np.zeros(n, dtype=np.int64)
    cdef int64_t[::1] o = out
    g = new_generator()
    children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    work = <Work*>malloc(sizeof(Work))
    if g == NULL or children == NULL or work == NULL:
        free(g); free(children); free(work)
        raise MemoryError()
    with nogil:
        for i in range(n):
            m = generate(g, &boards[i, 0, 0], rolls[i, 0], rolls[i, 1], children, NULL, True)
            if m > 1:
                o[i] = _choose(policy, g, rng, &boards[i, 0, 0], children, m, ev, work)
    free(g); free(children); free(work)
    return out
