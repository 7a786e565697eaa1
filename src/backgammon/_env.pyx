# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The environments' step kernels: n games of an agent against an
opponent, each step two calls with no Python loop over games
(docs/environments.md)."""
from libc.stdint cimport uint8_t, int8_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

import numpy as np
from numpy.random cimport bitgen_t

from backgammon._dice cimport bitgen_of, OPENING_THROWS, opening_throw
from backgammon._board cimport SLOTS, BAR, BOARD_OK, check_board, loss_kind, starting_position
from backgammon._movegen cimport Generator, new_generator, generate, MAX_PLAYS, BOARD_BYTES
from backgammon._chain cimport Chain, run_chained
from backgammon._net cimport Networks, Evaluator, Work
from backgammon._tesauro cimport TESAURO_UNITS, tesauro_units, units_table
from backgammon._choice cimport POLICY_RANDOM, POLICY_GIVEN, choose, need_policy
from backgammon._checks cimport need_boards, need_rows, need_shape, need_offsets


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
    OBS_UNITS = TESAURO_UNITS + 12     # Tesauro's units, high die one-hot, low die one-hot


cdef inline void _observe(const uint8_t* board, const uint8_t* roll, bint on_turn, float* o) noexcept nogil:
    # What the side in row 1 sees: the Tesauro units (their turn units say
    # whether it is on turn), then one-hot the high die and the low die (none
    # without dice).
    cdef int hi, lo
    tesauro_units(units_table(), board, o)
    if not on_turn:
        o[TESAURO_UNITS - 2] = 0.0
        o[TESAURO_UNITS - 1] = 1.0
    memset(o + TESAURO_UNITS, 0, 12 * sizeof(float))
    if 1 <= roll[0] <= 6 and 1 <= roll[1] <= 6:
        hi = roll[0] if roll[0] > roll[1] else roll[1]
        lo = roll[0] + roll[1] - hi
        o[TESAURO_UNITS - 1 + hi] = 1.0
        o[TESAURO_UNITS + 5 + lo] = 1.0


def observations(const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, float[:, ::1] out,
                 bint on_turn=True):
    """The environments' observations of boards (n, 2, 25) seen by the side
    in row 1 with its dice (n, 2) ((0, 0): none) into ``out`` (n, 210):
    the 198 Tesauro units (``tesauro_inputs``; with ``on_turn`` False their
    turn units say the other side is on turn), one-hot the high die (6),
    one-hot the low die (6)."""
    cdef Py_ssize_t i, n = boards.shape[0]
    need_boards("boards", boards)
    need_shape("rolls", rolls.shape[0] == n and rolls.shape[1] == 2, "(n, 2)")
    need_shape("out", out.shape[0] == n and out.shape[1] == OBS_UNITS, "(n, 210)")
    with nogil:
        for i in range(n):
            _observe(&boards[i, 0, 0], &rolls[i, 0], on_turn, &out[i, 0])


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


cdef class EnvState:
    """The per-game arrays of n games that both halves of a step read and
    write, checked once (shapes; values are checked where they are used,
    row by row): the agent's boards (n, 2, 25) and dice (n, 2), done,
    after (n, 2, 25) and opp_rolls (n, 2) for the opponent, stage, reward
    (float32), terminated, illegal, the step's uniforms u (n, 4) float64
    and counts (n,) int64, the number of plays each mask row shows; and
    optionally ``last`` (n, 2, 25), where a game that ends and restarts at
    once (``restart``) leaves its final board, agent in row 1."""

    cdef uint8_t[:, :, ::1] boards
    cdef uint8_t[:, ::1] rolls
    cdef uint8_t[::1] done
    cdef uint8_t[:, :, ::1] after
    cdef uint8_t[:, ::1] opp_rolls
    cdef uint8_t[::1] stage
    cdef float[::1] reward
    cdef uint8_t[::1] terminated
    cdef uint8_t[::1] illegal
    cdef double[:, ::1] u
    cdef int64_t[::1] counts
    cdef uint8_t* last               # (n, 2, 25): each game's final board when it restarts at once, or NULL
    cdef object _last                 # keeps ``last`` alive
    cdef readonly Py_ssize_t n
    cdef Generator* g                 # scratch of turn() (one thread per state)
    cdef uint8_t* kids
    cdef Work* work

    def __init__(self, uint8_t[:, :, ::1] boards, uint8_t[:, ::1] rolls, uint8_t[::1] done,
                 uint8_t[:, :, ::1] after, uint8_t[:, ::1] opp_rolls, uint8_t[::1] stage, float[::1] reward,
                 uint8_t[::1] terminated, uint8_t[::1] illegal, double[:, ::1] u, int64_t[::1] counts,
                 uint8_t[:, :, ::1] last=None):
        cdef Py_ssize_t n = boards.shape[0]
        need_boards("boards", boards)
        need_boards("after", after)
        need_rows("after", after.shape[0], n)
        need_shape("rolls", rolls.shape[0] == n and rolls.shape[1] == 2, "(n, 2)")
        need_shape("opp_rolls", opp_rolls.shape[0] == n and opp_rolls.shape[1] == 2, "(n, 2)")
        need_shape("u", u.shape[0] == n and u.shape[1] == 4, "(n, 4)")
        for name, rows in (("done", done.shape[0]), ("stage", stage.shape[0]), ("reward", reward.shape[0]),
                           ("terminated", terminated.shape[0]), ("illegal", illegal.shape[0]),
                           ("counts", counts.shape[0])):
            need_rows(name, rows, n)
        self.n = n
        self.boards, self.rolls, self.done, self.after, self.opp_rolls = boards, rolls, done, after, opp_rolls
        self.stage, self.reward, self.terminated, self.illegal, self.u = stage, reward, terminated, illegal, u
        self.counts = counts
        self.last = NULL
        if last is not None:
            need_boards("last", last)
            need_rows("last", last.shape[0], n)
            self._last = last
            if n:
                self.last = &last[0, 0, 0]
        self.g = new_generator()
        self.kids = <uint8_t*>malloc(MAX_PLAYS * BOARD_BYTES)
        self.work = <Work*>malloc(sizeof(Work))
        if self.g == NULL or self.kids == NULL or self.work == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.g)
        free(self.kids)
        free(self.work)


def env_play(EnvState st not None, const int64_t[::1] offsets, const uint8_t[:, :, ::1] children,
             const int64_t[::1] actions, generator, float illegal_reward, bint autoreset=False,
             bint restart=False):
    """The agent's half of a step in each of the n games of ``st`` (boards
    from the agent's view, agent in row 1; its plays
    ``children[offsets[i]:offsets[i + 1]]`` as ``legal_positions`` gives
    them).  First draws the step's uniforms into ``st.u`` (n, 4) from
    ``generator``, as its ``random((n, 4))`` would.  ``actions[i]``: a play
    index, or ENV_RESTART / ENV_KEEP / ENV_ROLL; with ``autoreset`` instead a
    finished game restarts whatever its action and a negative action is an
    illegal play.  An index outside the plays ends the game with
    ``illegal_reward``.  Fills ``stage`` (EnvStage), ``after``/``opp_rolls``
    for the opponent, rewards and flags of games that end.  With
    ``restart`` (``st`` has ``last``) a game that ends leaves its final
    board in ``last`` and starts again at once: the opening throw from the
    same uniforms (Stable-Baselines3's autoreset).  Returns None."""
    cdef Py_ssize_t i, n = st.n, total = children.shape[0]
    cdef int64_t a
    cdef int j
    cdef bitgen_t* rng = bitgen_of(generator)
    cdef uint8_t[::1] done = st.done
    cdef double[:, ::1] u = st.u
    need_boards("children", children)
    need_rows("actions", actions.shape[0], n)
    need_offsets("offsets", offsets, n, total)
    cdef _Rows rows
    cdef const uint8_t* kids = &children[0, 0, 0] if total else NULL
    if restart and st.last == NULL:
        raise ValueError("restart needs an EnvState with a last array")
    _rows_of(st, &rows)
    rows.restart = restart
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
            _play_row(&rows, i, a, &offsets[0], kids, illegal_reward)


ctypedef struct _Rows:
    # The arrays of an EnvState as pointers, for row functions without the GIL.
    uint8_t* boards
    uint8_t* rolls
    uint8_t* done
    uint8_t* after
    uint8_t* opp_rolls
    uint8_t* stage
    float* reward
    uint8_t* terminated
    uint8_t* illegal
    double* u
    uint8_t* last
    bint restart               # a game that ends starts again at once


cdef void _rows_of(EnvState st, _Rows* r):
    r.boards = &st.boards[0, 0, 0]
    r.rolls = &st.rolls[0, 0]
    r.done = &st.done[0]
    r.after = &st.after[0, 0, 0]
    r.opp_rolls = &st.opp_rolls[0, 0]
    r.stage = &st.stage[0]
    r.reward = &st.reward[0]
    r.terminated = &st.terminated[0]
    r.illegal = &st.illegal[0]
    r.u = &st.u[0, 0]
    r.last = st.last
    r.restart = False


cdef inline void _open_row(uint8_t* board, uint8_t* roll, uint8_t* after, uint8_t* opp_roll, double u0,
                           uint8_t* stage) noexcept nogil:
    # RULES 2.2: each side throws one die; the higher moves first with both
    # dice (agent's die first in the throw).
    cdef int mine, theirs
    opening_throw(_share(u0, OPENING_THROWS), &mine, &theirs)
    starting_position(after)
    stage[0] = STAGE_AGENT
    if mine > theirs:
        starting_position(board)
        roll[0] = <uint8_t>mine
        roll[1] = <uint8_t>theirs
    else:
        opp_roll[0] = <uint8_t>theirs
        opp_roll[1] = <uint8_t>mine
        stage[0] = STAGE_OPPONENT


cdef inline double _after_opening(double u0) noexcept nogil:
    # What is left of u0 once it chose one of the 30 opening throws: a
    # uniform of its own (for the restarted game's first random choice).
    cdef double x = u0 * OPENING_THROWS
    return x - <int>x if u0 > 0.0 else 0.0


cdef void _play_row(_Rows* r, Py_ssize_t i, int64_t a, const int64_t* offsets, const uint8_t* children,
                    float illegal_reward) noexcept nogil:
    # Game i's agent half of a step (env_play), its action ``a`` decided.
    cdef int64_t first, count
    cdef int j, left
    cdef const uint8_t* child
    cdef uint8_t* board = r.boards + i * BOARD_BYTES
    cdef uint8_t* roll = r.rolls + 2 * i
    cdef const double* u = r.u + 4 * i
    r.reward[i] = 0.0
    r.terminated[i] = 0
    r.illegal[i] = 0
    r.stage[i] = STAGE_AGENT
    if a == ENV_KEEP:
        if r.done[i]:
            r.stage[i] = STAGE_OVER
        return
    if a == ENV_ROLL:
        r.done[i] = 0
        _dice_of(u[3], roll)
        return
    if a == ENV_RESTART or r.done[i]:
        r.done[i] = 0
        _open_row(board, roll, r.after + i * BOARD_BYTES, r.opp_rolls + 2 * i, u[0], r.stage + i)
        return
    first = offsets[i]
    count = offsets[i + 1] - first
    if a < 0 or a >= count:
        r.illegal[i] = 1
        r.terminated[i] = 1
        r.reward[i] = illegal_reward
        if r.restart:
            memcpy(r.last + i * BOARD_BYTES, board, BOARD_BYTES)
            _open_row(board, roll, r.after + i * BOARD_BYTES, r.opp_rolls + 2 * i, u[0], r.stage + i)
            return
        r.done[i] = 1
        roll[0] = 0
        roll[1] = 0
        r.stage[i] = STAGE_OVER
        return
    child = children + (first + a) * BOARD_BYTES     # the agent in row 0
    left = 0
    for j in range(SLOTS):
        left += child[j]
    if left == 0:
        # RULES 6: the agent bore off its last checker.
        r.reward[i] = loss_kind(child + SLOTS)
        r.terminated[i] = 1
        if r.restart:
            memcpy(r.last + i * BOARD_BYTES, child + SLOTS, SLOTS)
            memcpy(r.last + i * BOARD_BYTES + SLOTS, child, SLOTS)
            _open_row(board, roll, r.after + i * BOARD_BYTES, r.opp_rolls + 2 * i, u[0], r.stage + i)
            return
        r.done[i] = 1
        memcpy(board, child + SLOTS, SLOTS)
        memcpy(board + SLOTS, child, SLOTS)
        roll[0] = 0
        roll[1] = 0
        r.stage[i] = STAGE_OVER
        return
    memcpy(r.after + i * BOARD_BYTES, child, BOARD_BYTES)
    _dice_of(u[1], r.opp_rolls + 2 * i)
    r.stage[i] = STAGE_OPPONENT


ctypedef struct _Answer:
    Generator* g
    uint8_t* kids              # the opponent's plays, MAX_PLAYS boards
    Work* work
    const Evaluator* ev
    int policy
    bint full_mask
    const int64_t* given
    const int64_t* given_opening   # with restart and POLICY_GIVEN: the opponent's opening choices
    uint8_t* last                  # with restart: where a game that ends leaves its final board
    bint restart
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


cdef void _reopen_row(_Answer* e, Py_ssize_t i, uint8_t* board, uint8_t* roll) noexcept nogil:
    # A game the opponent has just won starts again at once: the opening
    # throw from u[0], the opponent's opening play when it starts (its random
    # choice from what u[0] left), the agent's dice from u[3].
    cdef uint8_t start[BOARD_BYTES]
    cdef uint8_t stage
    cdef uint8_t opp[2]
    cdef int m, k
    _open_row(board, roll, start, opp, e.u[4 * i], &stage)
    if stage == STAGE_AGENT:
        return
    m = generate(e.g, start, opp[0], opp[1], e.kids, NULL, True)
    if e.policy == POLICY_GIVEN:
        k = <int>e.given_opening[i]
        k = k if 0 <= k < m else 0
    elif e.policy == POLICY_RANDOM:
        k = _share(_after_opening(e.u[4 * i]), m)
    else:
        k = choose(e.policy, NULL, start, e.kids, m, e.ev, e.work)
    memcpy(board, e.kids + k * BOARD_BYTES, BOARD_BYTES)
    _dice_of(e.u[4 * i + 3], roll)


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
            k = choose(e.policy, NULL, mover, e.kids, m, e.ev, e.work)
        memcpy(board, e.kids + k * BOARD_BYTES, BOARD_BYTES)   # the agent on roll
        left = 0
        for j in range(SLOTS):
            left += board[j]
        if left == 0:
            # RULES 6: the opponent bore off its last checker.
            e.reward[i] = -loss_kind(board + SLOTS)
            e.terminated[i] = 1
            if e.restart:
                memcpy(e.last + i * BOARD_BYTES, board, BOARD_BYTES)
                _reopen_row(e, i, board, roll)
            else:
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
    _observe(board, roll, True, o)
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


def env_answer(EnvState st not None, int policy, const int64_t[::1] given, float[:, ::1] obs,
               int8_t[:, ::1] mask, bint full_mask, int64_t[::1] offsets, uint8_t[:, :, ::1] children,
               Chain chain not None, Networks nets=None, bint restart=False, const int64_t[::1] given_opening=None):
    """This thread's share of the opponent's half of a step (after
    ``env_play``) in the games of ``st``, other threads calling it with the
    same arrays and ``chain``: the opponent answers in STAGE_OPPONENT games
    (by ``policy``, or ``given[i]`` with POLICY_GIVEN), games it wins end,
    the agent rolls; then each game's legal plays go to
    ``children``/``offsets`` (CSR, ``offsets[0]`` = 0), its observation to
    ``obs`` (n, 210) and its mask row to ``mask`` (n, w): written whole with
    ``full_mask``, else changed only where ``st.counts`` (the counts it
    shows; updated) says.  Returns 0, or 1 when ``children`` is too small;
    a game whose board or dice are not valid gets no plays, and ValueError
    names it once the rest are done.  With ``restart`` (``st`` has ``last``)
    a game the opponent wins leaves its final board in ``last`` and starts
    again at once (the opponent's opening play, with POLICY_GIVEN, is
    ``given_opening[i]``).  Runs without the GIL."""
    cdef Py_ssize_t i, n = st.n
    cdef _Answer e
    cdef int status
    need_boards("children", children)
    need_rows("offsets", offsets.shape[0], n + 1)
    need_shape("obs", obs.shape[0] == n and obs.shape[1] == OBS_UNITS, "(n, 210)")
    need_shape("mask", mask.shape[0] == n and mask.shape[1] >= MAX_PLAYS, "(n, >= 3072)")
    need_rows("chain", chain.n, n)
    # The random opponent chooses from u, not from a generator.
    need_policy(policy, nets, True, True)
    if policy == POLICY_GIVEN:
        need_rows("given", given.shape[0], n)
    if restart:
        if st.last == NULL:
            raise ValueError("restart needs an EnvState with a last array")
        if policy == POLICY_GIVEN:
            if given_opening is None:
                raise ValueError("given_opening: restart with POLICY_GIVEN needs the opening choices")
            need_rows("given_opening", given_opening.shape[0], n)
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
    e.given_opening = &given_opening[0] if restart and policy == POLICY_GIVEN else NULL
    e.last = st.last
    e.restart = restart
    e.stage = &st.stage[0]
    e.after = &st.after[0, 0, 0]
    e.opp_rolls = &st.opp_rolls[0, 0]
    e.u = &st.u[0, 0]
    e.boards = &st.boards[0, 0, 0]
    e.rolls = &st.rolls[0, 0]
    e.done = &st.done[0]
    e.reward = &st.reward[0]
    e.terminated = &st.terminated[0]
    e.obs = &obs[0, 0]
    e.mask = &mask[0, 0]
    e.mask_width = mask.shape[1]
    e.counts = &st.counts[0]
    e.bad = -1
    with nogil:
        status = run_chained(_answer_row, &e, n, chain.chunk, &offsets[0], &children[0, 0, 0], NULL,
                             children.shape[0], chain.sync)
    free(e.g); free(e.kids); free(e.work)
    if e.bad >= 0:
        raise ValueError(f"game {e.bad}: a board, or the opponent's dice, is not valid")
    return status


def turn(EnvState st not None, int64_t action, generator, float[:, ::1] obs, int8_t[::1] mask,
         int64_t[::1] offsets, uint8_t[:, :, ::1] children):
    """A turn of two agents in game 0 of ``st`` (the AEC environment): the
    agent on roll's ``action`` (as env_play's, without autoreset) on its
    plays ``children[offsets[0]:offsets[1]]``; where the game goes on, or
    the opening throw favours the other side, the turn passes to the other
    agent (its view, its roll); its plays go to ``children``/``offsets``,
    the mask of the agent on turn to ``mask`` (changed where ``st.counts``
    says), the observation of the agent on turn to ``obs[0]`` and of the
    other to ``obs[1]``.  The same row functions as env_play and
    env_answer.  Returns (reward of the side that played, terminated, the
    turn passed, number of plays)."""
    cdef _Rows rows
    cdef _Answer e
    cdef int j, count
    cdef bint passed
    cdef uint8_t view[64]
    cdef uint8_t no_dice[2]
    cdef bitgen_t* rng = bitgen_of(generator)
    need_shape("obs", obs.shape[0] == 2 and obs.shape[1] == OBS_UNITS, "(2, 210)")
    need_shape("mask", mask.shape[0] >= MAX_PLAYS, "(>= 3072,)")
    need_shape("children", children.shape[0] >= MAX_PLAYS and children.shape[1] == 2 and children.shape[2] == SLOTS,
               "(>= 3072, 2, 25)")
    need_offsets("offsets", offsets, 1, children.shape[0])
    if st.n < 1:
        raise ValueError("st must hold a game")
    _rows_of(st, &rows)
    e.g = st.g
    e.kids = st.kids
    e.work = st.work
    e.ev = NULL
    e.policy = POLICY_GIVEN
    e.full_mask = False
    e.given = NULL
    e.given_opening = NULL
    e.last = NULL
    e.restart = False
    e.stage = rows.stage
    e.after = rows.after
    e.opp_rolls = rows.opp_rolls
    e.u = rows.u
    e.boards = rows.boards
    e.rolls = rows.rolls
    e.done = rows.done
    e.reward = rows.reward
    e.terminated = rows.terminated
    e.obs = &obs[0, 0]
    e.mask = &mask[0]
    e.mask_width = mask.shape[0]
    e.counts = &st.counts[0]
    e.bad = -1
    with nogil:
        for j in range(4):
            rows.u[j] = rng.next_double(rng.state)
        _play_row(&rows, 0, action, &offsets[0], &children[0, 0, 0], 0.0)
        passed = rows.stage[0] == STAGE_OPPONENT
        if passed:                           # the other agent's view and roll
            memcpy(rows.boards, rows.after, BOARD_BYTES)
            rows.rolls[0] = rows.opp_rolls[0]
            rows.rolls[1] = rows.opp_rolls[1]
            rows.stage[0] = STAGE_AGENT
        count = _answer_row(&e, 0, &children[0, 0, 0], NULL)
        offsets[0] = 0
        offsets[1] = count
        memcpy(view, rows.boards + SLOTS, SLOTS)
        memcpy(view + SLOTS, rows.boards, SLOTS)
        no_dice[0] = no_dice[1] = 0
        _observe(view, no_dice, False, &obs[1, 0])
    if e.bad >= 0:
        raise ValueError("the game's board or dice are not valid")
    return float(rows.reward[0]), bool(rows.terminated[0]), bool(passed), count


def opening_throws(const double[::1] u0):
    """The opening throws (mine, theirs) (k, 2) uint8 that the step kernels
    draw from the uniforms ``u0`` (k,) (a game's ``u[:, 0]``), for a caller
    that must know ahead who opens a game restarted at once."""
    cdef Py_ssize_t i, k = u0.shape[0]
    cdef int mine, theirs
    out = np.zeros((k, 2), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    with nogil:
        for i in range(k):
            opening_throw(_share(u0[i], OPENING_THROWS), &mine, &theirs)
            o[i, 0] = <uint8_t>mine
            o[i, 1] = <uint8_t>theirs
    return out


cdef enum:
    PLACES = 26                # the board tensor's locations: 0 and 25 the ends, 1-24 the points
    CHECKER_PLANES = 9         # the board tensor's planes without dice
    BOARD_PLANES = 15          # with the six dice planes


cdef inline void _planes(const uint8_t* board, const uint8_t* roll, bint on_turn, int planes,
                         float* o) noexcept nogil:
    # The board tensor (planes, 26) of the side in row 1 (docs/environments.md):
    # place p is its point p (1-24), its bar at 25 and its tray at 0; the
    # other side's point q is place 25 - q, its bar at 0 and its tray at 25.
    cdef int side, s, place, c, total, d
    cdef const uint8_t* row
    cdef float* plane
    memset(o, 0, planes * PLACES * sizeof(float))
    for side in range(2):
        row = board + (1 - side) * SLOTS
        plane = o + 4 * side * PLACES
        total = 0
        for s in range(SLOTS):
            c = row[s]
            total += c
            if s == BAR:
                place = PLACES - 1 if side == 0 else 0
            else:
                place = s + 1 if side == 0 else PLACES - 2 - s
            _units(c, plane, place)
        _units(15 - total, plane, 0 if side == 0 else PLACES - 1)
    if on_turn:
        for place in range(PLACES):
            o[8 * PLACES + place] = 1.0
    if planes == BOARD_PLANES and 1 <= roll[0] <= 6 and 1 <= roll[1] <= 6:
        for d in range(2):
            plane = o + (CHECKER_PLANES + roll[d] - 1) * PLACES
            for place in range(PLACES):
                plane[place] += 1.0


cdef inline void _units(int c, float* plane, int place) noexcept nogil:
    # Tesauro's four units of c checkers, one plane each.
    if c >= 1:
        plane[place] = 1.0
    if c >= 2:
        plane[PLACES + place] = 1.0
    if c >= 3:
        plane[2 * PLACES + place] = 1.0
    if c > 3:
        plane[3 * PLACES + place] = (c - 3) / 2.0


def board_tensors(const uint8_t[:, :, ::1] boards, const uint8_t[:, ::1] rolls, float[:, :, ::1] out,
                  bint on_turn=True):
    """The board tensors of boards (n, 2, 25) seen by the side in row 1 into
    ``out`` (n, 15, 26) with the dice planes of ``rolls`` (n, 2) ((0, 0):
    none), or (n, 9, 26) without dice planes (``rolls`` then unused);
    ``on_turn`` sets plane 8 (the side in row 1 is on roll)."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int planes = out.shape[1]
    need_boards("boards", boards)
    need_shape("out", out.shape[0] == n and out.shape[2] == PLACES
               and (planes == CHECKER_PLANES or planes == BOARD_PLANES), "(n, 15, 26) or (n, 9, 26)")
    if planes == BOARD_PLANES:
        need_shape("rolls", rolls.shape[0] == n and rolls.shape[1] == 2, "(n, 2)")
    with nogil:
        for i in range(n):
            _planes(&boards[i, 0, 0], &rolls[i, 0] if planes == BOARD_PLANES else NULL, on_turn, planes,
                    &out[i, 0, 0])


cdef enum:
    NET_RAW_UNITS = 202        # the networks' raw units: 101 a side (docs/evaluation.md)


def net_raw_units(const uint8_t[:, :, ::1] boards, float[:, ::1] out):
    """The networks' 202 raw units (docs/evaluation.md, "Inputs": for each
    side, the side on roll first, four units a slot, exactly one, exactly
    two, three or more, (n - 3) / 2, then borne off / 15) of boards (n, 2,
    25) into ``out[:, :202]`` (n, >= 202): for the positions the bear-off
    tables answer, to which ``_net.encode_boards`` gives no inputs."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef int side, s, c, total
    cdef const uint8_t* row
    cdef float* o
    need_boards("boards", boards)
    need_shape("out", out.shape[0] == n and out.shape[1] >= NET_RAW_UNITS, "(n, >= 202)")
    with nogil:
        for i in range(n):
            o = &out[i, 0]
            memset(o, 0, NET_RAW_UNITS * sizeof(float))
            for side in range(2):
                row = &boards[i, 1 - side, 0]
                total = 0
                for s in range(SLOTS):
                    c = row[s]
                    total += c
                    if c == 1:
                        o[101 * side + 4 * s] = 1.0
                    elif c == 2:
                        o[101 * side + 4 * s + 1] = 1.0
                    elif c >= 3:
                        o[101 * side + 4 * s + 2] = 1.0
                        if c > 3:
                            o[101 * side + 4 * s + 3] = (c - 3) / 2.0
                o[101 * side + 100] = (15 - total) / 15.0
