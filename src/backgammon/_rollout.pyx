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
from libc.string cimport memcpy, memset
from libc.math cimport INFINITY

import numpy as np

from numpy.random cimport bitgen_t
from cpython.exc cimport PyErr_CheckSignals

from backgammon._dice cimport bounded, roll, bitgen_of

from backgammon._board cimport (SLOTS, BAR, POINTS, no_contact, both_home, loss_kind, check_board, BOARD_OK,
                                starting_position)
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES, Chain, run_chained
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


# The four units of a point holding c checkers (any byte, so that garbage
# boards stay in bounds): at least 1, 2, 3, then (c - 3) / 2.
cdef float TESAURO_UNITS[256][4]
cdef int _c
for _c in range(256):
    TESAURO_UNITS[_c][0] = _c >= 1
    TESAURO_UNITS[_c][1] = _c >= 2
    TESAURO_UNITS[_c][2] = _c >= 3
    TESAURO_UNITS[_c][3] = (_c - 3) / 2.0 if _c > 3 else 0.0


cdef inline void _tesauro(const uint8_t* board, float* o) noexcept nogil:
    # The 198 units of one board, every one written (see tesauro_inputs).
    cdef int side, p, base, total
    cdef const uint8_t* row
    for side in range(2):
        row = board + (1 - side) * SLOTS
        base = 98 * side
        total = 0
        for p in range(24):
            total += row[p]
            memcpy(o + base + 4 * p, &TESAURO_UNITS[row[p]][0], 4 * sizeof(float))
        total += row[BAR]
        o[base + 96] = row[BAR] / 2.0
        o[base + 97] = (15 - total) / 15.0
    o[196] = 1.0
    o[197] = 0.0


def tesauro_inputs(const uint8_t[:, :, ::1] boards):
    """The 198 TD-Gammon inputs of each board, float32 (n, 198): for the
    side on roll (row 1), then its opponent (row 0), 4 units per point (at
    least 1, 2, 3 checkers, then (n - 3) / 2 for more), bar / 2 and
    borne off / 15; the last two units say whose turn it is (1, 0)."""
    cdef Py_ssize_t i, n = boards.shape[0]
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS:
        raise ValueError("boards must have shape (n, 2, 25)")
    out = np.empty((n, 198), dtype=np.float32)
    cdef float[:, ::1] o = out
    with nogil:
        for i in range(n):
            _tesauro(&boards[i, 0, 0], &o[i, 0])
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



# -- n games of an agent against an opponent, for the RL environments ---------------
#
# A step of the vector environment is two kernel calls: env_play (the agent's
# plays, wins, opening throws: cheap) and env_answer (the opponent's replies,
# the agent's next rolls and legal plays, observations and masks), which
# threads share through run_chained.  Every random number comes from ``u``
# (n, 4) drawn by the caller, so the result does not depend on threads:
# [0] the opening throw, [1] the opponent's dice, [2] a random opponent's
# choice, [3] the agent's dice.

cdef extern from "_sync.h":
    void bg_stream_mask(int8_t* row, int count, int width) nogil


cpdef enum EnvAction:
    ENV_RESTART = -1       # a new game: the opening throw decides who starts
    ENV_KEEP = -2          # the game stays as it is
    ENV_ROLL = -3          # the agent rolls in the position it has

cpdef enum EnvStage:
    STAGE_OVER = 0         # no more moves this step: the game ended
    STAGE_OPPONENT = 1     # the opponent moves from after[i] with opp_rolls[i]
    STAGE_AGENT = 2        # the agent is on roll already

cdef enum:
    OBS_UNITS = 210        # 198 Tesauro units, high die one-hot, low die one-hot

cdef uint8_t[36][2] OPENING_THROWS
cdef int _a, _b, _t = 0
for _a in range(1, 7):
    for _b in range(1, 7):
        if _a != _b:
            OPENING_THROWS[_t][0] = _a
            OPENING_THROWS[_t][1] = _b
            _t += 1


cdef inline void _observe(const uint8_t* board, const uint8_t* roll, float* o) noexcept nogil:
    # What the agent (row 1) sees: the Tesauro units, then one-hot the high
    # die and the low die (none without dice).
    cdef int hi, lo
    _tesauro(board, o)
    memset(o + 198, 0, 12 * sizeof(float))
    if 1 <= roll[0] <= 6 and 1 <= roll[1] <= 6:
        hi = roll[0] if roll[0] > roll[1] else roll[1]
        lo = roll[0] + roll[1] - hi
        o[197 + hi] = 1.0
        o[203 + lo] = 1.0


def observations(const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, float[:, ::1] out):
    """The environments' observations of boards (n, 2, 25) seen by the side
    in row 1 with its dice (n, 2) ((0, 0): none) into ``out`` (n, 210):
    the 198 Tesauro units (``tesauro_inputs``), one-hot the high die (6),
    one-hot the low die (6)."""
    cdef Py_ssize_t i, n = boards.shape[0]
    if boards.shape[1] != 2 or boards.shape[2] != SLOTS or rolls.shape[0] != n or rolls.shape[1] != 2:
        raise ValueError("boards must have shape (n, 2, 25) and rolls (n, 2)")
    if out.shape[0] != n or out.shape[1] != OBS_UNITS:
        raise ValueError("out must have shape (n, 210)")
    with nogil:
        for i in range(n):
            _observe(&boards[i, 0, 0], &rolls[i, 0], &out[i, 0])


cdef inline int _share(double u, int m) noexcept nogil:
    # One of m, uniformly, from u in [0, 1).
    if not u > 0.0:            # also NaN
        return 0
    if u >= 1.0:
        return m - 1
    cdef int k = <int>(u * m)
    return k if k < m else m - 1


cdef inline void _dice_of(double u, uint8_t* roll) noexcept nogil:
    cdef int k = _share(u, 36)
    roll[0] = <uint8_t>(k // 6 + 1)
    roll[1] = <uint8_t>(k % 6 + 1)


def env_play(uint8_t[:, :, ::1] boards, uint8_t[:, ::1] rolls, uint8_t[::1] done,
             const int64_t[::1] offsets, const uint8_t[:, :, ::1] children, const int64_t[::1] actions,
             generator, double[:, ::1] u, uint8_t[:, :, ::1] after, uint8_t[:, ::1] opp_rolls,
             uint8_t[::1] stage, float[::1] reward, uint8_t[::1] terminated, uint8_t[::1] illegal,
             float illegal_reward, bint autoreset=False):
    """The agent's half of a step in each of n games (boards from the
    agent's view, agent in row 1; its plays ``children[offsets[i]:offsets[i
    + 1]]`` as ``legal_positions`` gives them).  First draws the step's
    uniforms into ``u`` (n, 4) from ``generator``, as its ``random((n,
    4))`` would.  ``actions[i]``: a play index, or ENV_RESTART / ENV_KEEP /
    ENV_ROLL; with ``autoreset`` instead a finished game restarts whatever
    its action and a negative action is an illegal play.  An index outside
    the plays ends the game with ``illegal_reward``.  Fills ``stage``
    (EnvStage), ``after``/``opp_rolls`` for the opponent, rewards and flags
    of games that end.  Returns None."""
    cdef Py_ssize_t i, n = boards.shape[0], total = children.shape[0]
    cdef int64_t a, first, count
    cdef int j, left, t
    cdef const uint8_t* child
    cdef bitgen_t* rng = bitgen_of(generator)
    if (boards.shape[1] != 2 or boards.shape[2] != SLOTS or after.shape[0] != n or after.shape[1] != 2
            or after.shape[2] != SLOTS or children.shape[1] != 2 or children.shape[2] != SLOTS):
        raise ValueError("boards, after and children must have shape (n, 2, 25)")
    if (rolls.shape[0] != n or rolls.shape[1] != 2 or opp_rolls.shape[0] != n or opp_rolls.shape[1] != 2
            or done.shape[0] != n or offsets.shape[0] != n + 1 or actions.shape[0] != n or u.shape[0] != n
            or u.shape[1] != 4 or stage.shape[0] != n or reward.shape[0] != n or terminated.shape[0] != n
            or illegal.shape[0] != n):
        raise ValueError("every per-game array must have n rows (offsets n + 1, rolls (n, 2), u (n, 4))")
    for i in range(n):
        if not (0 <= offsets[i] <= offsets[i + 1] <= total):
            raise ValueError("offsets must rise within children")
    with nogil:
        for i in range(n):
            for j in range(4):
                u[i, j] = rng.next_double(rng.state)
        for i in range(n):
            a = actions[i]
            if autoreset:
                if done[i]:
                    a = ENV_RESTART        # Gymnasium's NEXT_STEP autoreset
                elif a < 0:
                    a = MAX_PLAYS          # not a play: illegal
            reward[i] = 0.0
            terminated[i] = 0
            illegal[i] = 0
            stage[i] = STAGE_AGENT
            if a == ENV_KEEP:
                if done[i]:
                    stage[i] = STAGE_OVER
                continue
            if a == ENV_ROLL:
                done[i] = 0
                _dice_of(u[i, 3], &rolls[i, 0])
                continue
            if a == ENV_RESTART or done[i]:
                # RULES 2.2: each side throws one die; the higher moves first
                # with both dice (agent's die first in the throw).
                done[i] = 0
                t = _share(u[i, 0], 30)
                starting_position(&after[i, 0, 0])
                if OPENING_THROWS[t][0] > OPENING_THROWS[t][1]:
                    starting_position(&boards[i, 0, 0])
                    rolls[i, 0] = OPENING_THROWS[t][0]
                    rolls[i, 1] = OPENING_THROWS[t][1]
                else:
                    opp_rolls[i, 0] = OPENING_THROWS[t][1]
                    opp_rolls[i, 1] = OPENING_THROWS[t][0]
                    stage[i] = STAGE_OPPONENT
                continue
            first = offsets[i]
            count = offsets[i + 1] - first
            if a < 0 or a >= count:
                illegal[i] = 1
                terminated[i] = 1
                reward[i] = illegal_reward
                done[i] = 1
                rolls[i, 0] = 0
                rolls[i, 1] = 0
                stage[i] = STAGE_OVER
                continue
            child = &children[first + a, 0, 0]     # the agent in row 0
            left = 0
            for j in range(SLOTS):
                left += child[j]
            if left == 0:
                # RULES 6: the agent bore off its last checker.
                reward[i] = loss_kind(child + SLOTS)
                terminated[i] = 1
                done[i] = 1
                memcpy(&boards[i, 0, 0], child + SLOTS, SLOTS)
                memcpy(&boards[i, 1, 0], child, SLOTS)
                rolls[i, 0] = 0
                rolls[i, 1] = 0
                stage[i] = STAGE_OVER
                continue
            memcpy(&after[i, 0, 0], child, BOARD_BYTES)
            _dice_of(u[i, 1], &opp_rolls[i, 0])
            stage[i] = STAGE_OPPONENT


ctypedef struct _Answer:
    Generator* g
    uint8_t* kids              # the opponent's plays, MAX_PLAYS boards
    Work* work
    const Evaluator* ev
    int policy
    bint full_mask
    const int64_t* given
    const uint8_t* stage
    const uint8_t* after
    const uint8_t* opp_rolls
    const double* u
    uint8_t* boards
    uint8_t* rolls
    uint8_t* done
    float* reward
    uint8_t* terminated
    float* obs
    int8_t* mask
    int64_t* counts
    Py_ssize_t mask_width
    Py_ssize_t bad             # a row whose input was not valid, else -1


cdef int _answer_row(void* ctx, Py_ssize_t i, uint8_t* children, int8_t* moves) noexcept nogil:
    cdef _Answer* e = <_Answer*>ctx
    cdef uint8_t* board = e.boards + i * BOARD_BYTES
    cdef uint8_t* roll = e.rolls + 2 * i
    cdef const uint8_t* mover
    cdef float* o = e.obs + i * OBS_UNITS
    cdef int8_t* mk = e.mask + i * e.mask_width
    cdef int m, k, j, left, count = 0, old
    if e.stage[i] == STAGE_OPPONENT:
        mover = e.after + i * BOARD_BYTES
        # Checked here, by the thread that owns the row: the evaluators
        # index tables by checker counts.
        m = generate(e.g, mover, e.opp_rolls[2 * i], e.opp_rolls[2 * i + 1], e.kids, NULL, True) \
            if check_board(mover) == BOARD_OK else 0
        if m <= 0:
            e.bad = i              # a finished game, bad board or bad dice
            return 0
        if e.policy == POLICY_GIVEN:
            k = <int>e.given[i]
            k = k if 0 <= k < m else 0
        elif e.policy == POLICY_RANDOM:
            k = _share(e.u[4 * i + 2], m)
        else:
            k = _choose(e.policy, e.g, NULL, mover, e.kids, m, e.ev, e.work)
        memcpy(board, e.kids + k * BOARD_BYTES, BOARD_BYTES)   # the agent on roll
        left = 0
        for j in range(SLOTS):
            left += board[j]
        if left == 0:
            # RULES 6: the opponent bore off its last checker.
            e.reward[i] = -loss_kind(board + SLOTS)
            e.terminated[i] = 1
            e.done[i] = 1
            roll[0] = 0
            roll[1] = 0
        else:
            _dice_of(e.u[4 * i + 3], roll)
    elif check_board(board) != BOARD_OK:
        e.bad = i
        return 0
    if not e.done[i]:
        count = generate(e.g, board, roll[0], roll[1], children, NULL, True)
    _observe(board, roll, o)
    if e.full_mask:
        bg_stream_mask(mk, count, <int>e.mask_width)
    else:
        old = <int>e.counts[i]
        if old < 0 or old > e.mask_width:
            memset(mk, 1, count)
            memset(mk + count, 0, e.mask_width - count)
        elif count > old:
            memset(mk + old, 1, count - old)
        elif count < old:
            memset(mk + count, 0, old - count)
    e.counts[i] = count
    return count


def env_answer(int policy, const int64_t[::1] given, const uint8_t[::1] stage, const uint8_t[:, :, ::1] after,
               const uint8_t[:, ::1] opp_rolls, const double[:, ::1] u, uint8_t[:, :, ::1] boards,
               uint8_t[:, ::1] rolls, uint8_t[::1] done, float[::1] reward, uint8_t[::1] terminated,
               float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] counts, bint full_mask,
               int64_t[::1] offsets, uint8_t[:, :, ::1] children, Chain chain not None, Networks nets=None):
    """This thread's share of the opponent's half of a step (after
    ``env_play``), other threads calling it with the same arrays and
    ``chain``: the opponent answers in STAGE_OPPONENT games (by ``policy``,
    or ``given[i]`` with POLICY_GIVEN), games it wins end, the agent rolls;
    then each game's legal plays go to ``children``/``offsets`` (CSR,
    ``offsets[0]`` = 0), its observation to ``obs`` (n, 210) and its mask
    row to ``mask`` (n, w): written whole with ``full_mask``, else changed
    only where ``counts`` (the counts it shows; updated) says.  Returns 0,
    or 1 when ``children`` is too small; a game whose board or dice are
    not valid gets no plays, and ValueError names it once the rest are
    done.  Runs without the GIL."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef _Answer e
    cdef int status
    if (boards.shape[1] != 2 or boards.shape[2] != SLOTS or after.shape[0] != n or after.shape[1] != 2
            or after.shape[2] != SLOTS or children.shape[1] != 2 or children.shape[2] != SLOTS):
        raise ValueError("boards, after and children must have shape (n, 2, 25)")
    if (rolls.shape[0] != n or rolls.shape[1] != 2 or opp_rolls.shape[0] != n or opp_rolls.shape[1] != 2
            or done.shape[0] != n or offsets.shape[0] != n + 1 or u.shape[0] != n or u.shape[1] != 4
            or stage.shape[0] != n or reward.shape[0] != n or terminated.shape[0] != n
            or obs.shape[0] != n or obs.shape[1] != OBS_UNITS or mask.shape[0] != n or mask.shape[1] < MAX_PLAYS
            or counts.shape[0] != n):
        raise ValueError("every per-game array must have n rows (offsets n + 1, obs (n, 210), mask (n, >= 3072))")
    if chain.n != n:
        raise ValueError(f"chain is for {chain.n} rows, not {n}")
    if policy not in (POLICY_RANDOM, POLICY_PUBEVAL, POLICY_NET, POLICY_GIVEN):
        raise ValueError("unknown policy code")
    if policy == POLICY_PUBEVAL and not PUB_READY:
        raise RuntimeError("pubeval weights are not loaded")
    if policy == POLICY_NET and nets is None:
        raise ValueError("the network policy needs nets")
    if policy == POLICY_GIVEN and given.shape[0] != n:
        raise ValueError("given must have n entries")
    if n == 0:
        return 0
    if children.shape[0] == 0:
        return 1
    e.g = new_generator()
    e.kids = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
    e.work = <Work*>malloc(sizeof(Work))
    if e.g == NULL or e.kids == NULL or e.work == NULL:
        free(e.g); free(e.kids); free(e.work)
        raise MemoryError()
    e.ev = &nets.ev if nets is not None else NULL
    e.policy = policy
    e.full_mask = full_mask
    e.given = &given[0] if policy == POLICY_GIVEN else NULL
    e.stage = &stage[0]
    e.after = &after[0, 0, 0]
    e.opp_rolls = &opp_rolls[0, 0]
    e.u = &u[0, 0]
    e.boards = &boards[0, 0, 0]
    e.rolls = &rolls[0, 0]
    e.done = &done[0]
    e.reward = &reward[0]
    e.terminated = &terminated[0]
    e.obs = &obs[0, 0]
    e.mask = &mask[0, 0]
    e.mask_width = mask.shape[1]
    e.counts = &counts[0]
    e.bad = -1
    with nogil:
        status = run_chained(_answer_row, &e, n, chain.chunk, &offsets[0], &children[0, 0, 0], NULL,
                             children.shape[0], chain.sync)
    free(e.g); free(e.kids); free(e.work)
    if e.bad >= 0:
        raise ValueError(f"game {e.bad}: a board, or the opponent's dice, is not valid")
    return status
