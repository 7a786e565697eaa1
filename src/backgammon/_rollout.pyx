# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The cubeless game loop of rollouts: whole games played without the GIL
by kernel policies (_choice), each game's dice a function of the rollout's
key, the game's number and the ply (so two rollouts with one key play the
same dice: duplicate dice for comparing plays), the first two rolls
stratified over game numbers; and what lockstep games (any player) share
with it: the same dice, settlement, variance reduction and truncation.

Variance reduction (gnubg's): at every ply the luck of the roll, the value
after the best play (0-ply, the networks) of the roll thrown minus the
mean of that value over the 21 rolls, is summed; subtracting it from a
game's result keeps the estimate unbiased (each term has mean zero given
the game so far) and takes most of the dice's noise out of it.
"""
from libc.stdint cimport uint8_t, int8_t, uint32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

import numpy as np

from cpython.exc cimport PyErr_CheckSignals

from backgammon._dice cimport game_roll, game_uniform, DISTINCT_ROLLS, distinct_roll
from backgammon._board cimport SLOTS, both_home, game_over, loss_kind
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._bearoff cimport RaceTables, race_estimate, set_race_tables
from backgammon._forward cimport Networks, Work, OUTPUTS
from backgammon._native cimport Judge, judge_open, judge_close, judge_best, judge_board, native_best
from backgammon._choice cimport POLICY_RANDOM, POLICY_NET, choose, need_policy
from backgammon._checks cimport need_shape, need_valid_board, need_valid_boards, need_rows, need_rolls

cdef extern from "_sync.h":
    void bg_store_release(int64_t* p, int64_t v) nogil


cdef enum:
    SIGNAL_CHECK_GAMES = 64    # games between looks for Ctrl-C in play_games

# Keys the random policy's choices apart from the dice.
cdef uint64_t RANDOM_CHOICE = 0xA5A5A5A5A5A5A5A5ULL

cdef int ROLL_HI[DISTINCT_ROLLS]
cdef int ROLL_LO[DISTINCT_ROLLS]
cdef double ROLL_WEIGHT[DISTINCT_ROLLS]
cdef double _weight
cdef int _k
for _k in range(DISTINCT_ROLLS):
    distinct_roll(_k, &ROLL_HI[_k], &ROLL_LO[_k], &_weight)
    ROLL_WEIGHT[_k] = _weight


cdef inline void _ours(const float* p, int on_roll_is_us, double* out) noexcept nogil:
    # Chances of the side on roll (p), seen by us: as they are when we are
    # on roll, else the other side's view.
    if on_roll_is_us:
        out[0] = p[0]; out[1] = p[1]; out[2] = p[2]; out[3] = p[3]; out[4] = p[4]
    else:
        out[0] = 1.0 - p[0]; out[1] = p[3]; out[2] = p[4]; out[3] = p[1]; out[4] = p[2]


cdef int settle(const uint8_t* child, int mover, int64_t plies, bint bearoff, const RaceTables* tables,
                double* result) noexcept nogil:
    """After ``mover`` (0 = "us", the side on roll at the start) played to
    ``child`` (next mover's view, the ``plies``-th play of the game): 1 and
    the result for us (win, win gammon, win backgammon, lose gammon, lose
    backgammon) when the game is over, or, with ``bearoff``, once both
    sides bear off (the tables' chances); else 0."""
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
    if bearoff and tables.one_sided != NULL and both_home(child):
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


cdef int luck_of(Judge* judge, Generator* g, uint8_t* kids, Work* work, const uint8_t* board,
                 int d1, int d2, int mover, double* luck, double* each, uint8_t* chosen) noexcept nogil:
    """The luck of the roll d1-d2 for the side on roll of ``board`` (mover:
    0 us, 1 them), seen by us: the chances after the best 0-ply play of
    that roll minus their mean over the 21 rolls; returns the index of that
    best play of d1-d2 (its place among generate's results).  Unless NULL,
    ``each`` (21 x 5) gets each roll's chances after its best play, seen by
    us, and ``chosen`` (21 boards) that play (next mover's view), for the
    cube's own luck (rollouts.cubeful)."""
    cdef int r, n, k, i, best = 0
    cdef float p[OUTPUTS]
    cdef double v[5]
    cdef double mean[5]
    cdef double thrown[5]
    cdef int hi = d1 if d1 > d2 else d2, lo = d1 + d2 - hi
    for i in range(5):
        mean[i] = 0.0
        thrown[i] = 0.0
    for r in range(21):
        n = generate(g, board, ROLL_HI[r], ROLL_LO[r], kids, NULL, True)
        k = judge_best(judge, kids, n, work, p)
        _ours(p, mover == 1, v)         # the child has the other side on roll
        for i in range(5):
            mean[i] += ROLL_WEIGHT[r] * v[i]
        if each != NULL:
            for i in range(5):
                each[5 * r + i] = v[i]
        if chosen != NULL:
            memcpy(chosen + r * BOARD_BYTES, kids + k * BOARD_BYTES, BOARD_BYTES)
        if ROLL_HI[r] == hi and ROLL_LO[r] == lo:
            best = k
            for i in range(5):
                thrown[i] = v[i]
    for i in range(5):
        luck[i] = thrown[i] - mean[i]
    return best


cdef void _play_game(Generator* g, uint64_t key, const uint8_t* start, int policy0, int policy1,
                     int64_t game_index, bint stratify, int truncate, bint bearoff, bint reduce,
                     const RaceTables* tables, uint8_t* children, uint8_t* kids, Judge* judge,
                     Work* work, double* result, double* luck) noexcept nogil:
    # One game from start; result and summed luck for the side on roll at
    # the start (turn 0).
    cdef uint8_t board[64]
    cdef int turn = 0, n, k, d1, d2, policy, i
    cdef int64_t ply = 0
    cdef const uint8_t* child
    cdef float p[OUTPUTS]
    cdef double step[5]
    memcpy(board, start, BOARD_BYTES)
    for i in range(5):
        luck[i] = 0.0
    while True:
        if truncate >= 0 and ply >= truncate:
            judge_board(judge, board, p, work)       # truncated: the evaluator's chances now
            _ours(p, turn == 0, result)
            return
        game_roll(key, game_index, ply, stratify, &d1, &d2)
        if d1 < d2:
            d1, d2 = d2, d1           # one order for the generator and the luck
        policy = policy0 if turn == 0 else policy1
        k = -1
        if reduce:
            k = luck_of(judge, g, kids, work, board, d1, d2, turn, step, NULL, NULL)
            for i in range(5):
                luck[i] += step[i]
        n = generate(g, board, d1, d2, children, NULL, True)
        if n <= 0:
            return            # unreachable: the loop stops when a side is off
        if policy == POLICY_RANDOM:
            # The random policy's choice comes from the game's key too.
            k = <int>game_uniform(key ^ RANDOM_CHOICE, game_index, ply, <uint32_t>n)
        elif policy == POLICY_NET and judge.native != NULL:
            if k < 0:
                k = native_best(judge, children, n, p) if n > 1 else 0
        elif policy != POLICY_NET or k < 0:
            k = choose(policy, NULL, board, children, n, judge.nets, work)
        if judge.failed:
            return
        child = children + k * BOARD_BYTES
        ply += 1
        if settle(child, turn, ply, bearoff, tables, result):
            return
        memcpy(board, child, BOARD_BYTES)
        turn ^= 1


def play_games(const uint8_t[::1] start, int64_t first_index, int64_t n_games, uint64_t key,
               int policy0, int policy1, bint stratify=True, int truncate=-1, bint bearoff=False,
               bint reduce=False, one_sided=None, gammon=None, two_sided=None, int two_sided_checkers=0,
               Networks nets=None, evaluator=None, int64_t[::1] counter=None):
    """Play ``n_games`` cubeless games from ``start`` (50 bytes, row 1 on
    roll); returns their results, float64 (n, 5): win, win gammon, win
    backgammon, lose gammon, lose backgammon for the side on roll, and the
    luck summed over each game (n, 5; zeros without ``reduce``).

    Game i is numbered ``first_index + i``: its dice are a function of
    ``key``, its number and the ply (``_dice.game_roll``).  ``truncate`` >=
    0 stops a game after that many plies with the networks' chances;
    ``bearoff`` stops it once both sides are bearing off with the tables'
    chances (the tables must be given); ``reduce`` sums the luck (variance
    reduction; the networks are needed for it and for ``truncate``).

    ``evaluator``: a native evaluator (backgammon.h: an object with
    ``__backgammon_evaluator__()``) playing the network policy, measuring
    the luck and truncating instead of ``nets``.

    ``counter``: a (1,) int64 array the loop adds each finished game to as
    it ends, for a progress bar that another thread reads while the games
    run (``_parallel.tally``).
    """
    cdef RaceTables tables
    cdef Generator* g
    cdef uint8_t* children
    cdef uint8_t* kids
    cdef int64_t i
    need_shape("start", start.shape[0] == BOARD_BYTES, "(50,)")
    need_valid_board("start", &start[0])
    if game_over(&start[0]):
        raise ValueError("start: the game is over in this position")
    if n_games < 0:
        raise ValueError("n_games must be >= 0")
    cdef Work* work = NULL
    cdef Judge judge
    scorer = nets if evaluator is None else evaluator
    need_policy(policy0, scorer, True, False)
    need_policy(policy1, scorer, True, False)
    if (reduce or truncate >= 0) and scorer is None:
        raise ValueError("nets: variance reduction and truncation need the networks (or an evaluator)")
    cdef int64_t* tally = NULL
    cdef int64_t counted = 0
    if counter is not None:
        need_shape("counter", counter.shape[0] == 1, "(1,)")
        tally = &counter[0]
        counted = tally[0]
    tables.one_sided = NULL
    tables.gammon = NULL
    tables.two_sided = NULL
    if one_sided is not None:
        set_race_tables(&tables, one_sided, gammon, two_sided, two_sided_checkers)
    elif bearoff:
        raise ValueError("one_sided: truncation at the bear-off tables needs them")
    out = np.zeros((n_games, 5))
    lucks = np.zeros((n_games, 5))
    cdef double[:, ::1] o = out
    cdef double[:, ::1] lk = lucks
    judge_open(&judge, nets, evaluator)
    g = new_generator()
    children = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    kids = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    work = <Work*>malloc(sizeof(Work))
    if g == NULL or children == NULL or kids == NULL or work == NULL:
        free(g); free(children); free(kids); free(work)
        judge_close(&judge)
        raise MemoryError()
    cdef int interrupted = 0
    with nogil:
        for i in range(n_games):
            _play_game(g, key, &start[0], policy0, policy1, first_index + i, stratify, truncate, bearoff,
                       reduce, &tables, children, kids, &judge, work, &o[i, 0], &lk[i, 0])
            if judge.failed:
                break
            if tally != NULL:
                bg_store_release(tally, counted + i + 1)      # seen by the progress bar's thread
            # A variance-reduced game takes milliseconds: look after each one.
            if reduce or i % SIGNAL_CHECK_GAMES == SIGNAL_CHECK_GAMES - 1:
                with gil:      # Ctrl-C stops a long chunk in the main process
                    interrupted = PyErr_CheckSignals()
                if interrupted:
                    break
    free(g); free(children); free(kids); free(work)
    judge_close(&judge)
    if judge.failed:
        raise RuntimeError(f"the native evaluator {evaluator!r} failed")
    if interrupted:
        raise KeyboardInterrupt
    return out, lucks


# -- lockstep games -----------------------------------------------------------------

def lockstep_rolls(const int64_t[::1] index, const int64_t[::1] ply, bint stratify, uint64_t key):
    """The dice of each lockstep game (its number, plies played so far), as
    the game loop rolls them: (n, 2) uint8."""
    cdef Py_ssize_t i, n = index.shape[0]
    cdef int d1, d2
    need_rows("ply", ply.shape[0], n)
    out = np.empty((n, 2), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    with nogil:
        for i in range(n):
            game_roll(key, index[i], ply[i], stratify, &d1, &d2)
            o[i, 0] = <uint8_t>d1
            o[i, 1] = <uint8_t>d2
    return out


def lockstep_settle(const uint8_t[:, :, ::1] chosen, const int8_t[::1] mover, const int64_t[::1] plies,
                    int64_t bearoff_from=-1, one_sided=None, gammon=None, two_sided=None,
                    int two_sided_checkers=0):
    """For each game after its play (``chosen`` from the next mover's view,
    ``mover`` 0 for the side on roll at the start, ``plies`` played): whether
    it ended (n,) bool, and its result (n, 5) as the game loop settles it
    (from ``bearoff_from`` plies on, >= 0, once both sides bear off: the
    tables' chances)."""
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
    elif bearoff_from >= 0:
        raise ValueError("one_sided: truncation at the bear-off tables needs them")
    ended = np.zeros(n, dtype=np.bool_)
    results = np.zeros((n, 5))
    cdef uint8_t[::1] e = ended.view(np.uint8)
    cdef double[:, ::1] r = results
    with nogil:
        for i in range(n):
            e[i] = <uint8_t>settle(&chosen[i, 0, 0], mover[i], plies[i], 0 <= bearoff_from <= plies[i],
                                   &tables, &r[i, 0])
    return ended, results


def lockstep_luck(Networks nets not None, const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls,
                  const int8_t[::1] mover, double[:, :, ::1] each=None, uint8_t[:, :, :, ::1] chosen=None):
    """The luck of each game's roll (``luck_of``), seen by the side on roll
    at the start (``mover`` 0: it is that side's roll), (n, 5).  Given,
    ``each`` (n, 21, 5) gets each roll's chances after its best play, seen
    by that side, and ``chosen`` (n, 21, 2, 25) that play (next mover's
    view), rolls in the order of ``dice.ROLLS``."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef Generator* g
    cdef uint8_t* kids
    cdef Work* work
    cdef Judge judge
    cdef double* e = NULL
    cdef uint8_t* c = NULL
    need_valid_boards("boards", boards)
    need_rolls("rolls", rolls, n)
    need_rows("mover", mover.shape[0], n)
    if each is not None:
        need_shape("each", each.shape[0] == n and each.shape[1] == DISTINCT_ROLLS and each.shape[2] == 5,
                   f"({n}, {DISTINCT_ROLLS}, 5)")
    if chosen is not None:
        need_shape("chosen", chosen.shape[0] == n and chosen.shape[1] == DISTINCT_ROLLS and chosen.shape[2] == 2
                   and chosen.shape[3] == SLOTS, f"({n}, {DISTINCT_ROLLS}, 2, {SLOTS})")
    out = np.zeros((n, 5))
    cdef double[:, ::1] o = out
    judge_open(&judge, nets, None)
    g = new_generator()
    kids = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    work = <Work*>malloc(sizeof(Work))
    if g == NULL or kids == NULL or work == NULL:
        free(g); free(kids); free(work)
        raise MemoryError()
    with nogil:
        for i in range(n):
            if each is not None:
                e = &each[i, 0, 0]
            if chosen is not None:
                c = &chosen[i, 0, 0, 0]
            luck_of(&judge, g, kids, work, &boards[i, 0, 0], rolls[i, 0], rolls[i, 1], mover[i] != 0,
                    &o[i, 0], e, c)
    free(g); free(kids); free(work)
    return out
