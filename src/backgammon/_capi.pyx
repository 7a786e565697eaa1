# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The public Cython API's functions (docs/cython-api.md), over the
kernels, with opaque handles: an extension cimports them through
backgammon.board, .movegen, .net, .bearoff and .evaluator, and never
sees a struct of the package's own.

Unless said otherwise a function needs no GIL, raises nothing and may be
called from any thread; a handle (bg_movegen, bg_scratch) is used by one
thread at a time; boards are the position array, 50 bytes, row 1 on
roll, and must be valid (``board_check`` == 0) where a function reads one.
"""
from libc.stdint cimport uint8_t, int8_t, int32_t
from libc.stdlib cimport malloc, free

from backgammon._board cimport check_board, starting_position, loss_kind, SLOTS
from backgammon._movegen cimport Generator, new_generator, generate, dice_used
from backgammon._bearoff cimport positions_up_to, position_index, index_position, MAX_CHECKERS
from backgammon._features cimport position_class
from backgammon._forward cimport Networks, Evaluator, Work, evaluate_board, best_child_chances, OUTPUTS

API_VERSION = BG_API_VERSION


cdef int bg_api_version() noexcept nogil:
    """BG_API_VERSION of the package loaded (compare with the header's)."""
    return BG_API_VERSION


cdef int board_check(const uint8_t* board) noexcept nogil:
    """0 when the 50 bytes are a position, else a BoardProblem code (the
    texts: backgammon._board.problem_message)."""
    return <int>check_board(board)


cdef void board_start(uint8_t* board) noexcept nogil:
    """Write the starting position (RULES 1) into 50 bytes."""
    starting_position(board)


cdef int board_winner(const uint8_t* board, int* kind) noexcept nogil:
    """-1 while the game goes on; else the row of the side that has borne
    off every checker (1: the side on roll, 0: its opponent), with ``kind``
    1 single, 2 gammon, 3 backgammon (RULES 6)."""
    cdef int i, a = 0, b = 0
    for i in range(SLOTS):
        a += board[i]
        b += board[SLOTS + i]
    if a and b:
        return -1
    if b == 0:
        kind[0] = loss_kind(board)
        return 1
    kind[0] = loss_kind(board + SLOTS)
    return 0


cdef bg_movegen* movegen_new() noexcept nogil:
    """A move generator (NULL when memory ran out); free it with
    movegen_free.  One thread at a time."""
    return <bg_movegen*>new_generator()


cdef void movegen_free(bg_movegen* g) noexcept nogil:
    """Free a move generator (NULL is allowed)."""
    free(<Generator*>g)


cdef int movegen_plays(bg_movegen* g, const uint8_t* board, int d1, int d2, uint8_t* children, int8_t* moves,
                       bint mover_view) noexcept nogil:
    """The distinct plays of dice d1, d2 from a valid board (RULES 3-5),
    in the order of backgammon.batch.legal_positions: returns how many and
    writes each resulting position (50 bytes; from the next mover's view,
    rows swapped, unless ``mover_view``) into ``children`` (room for
    BG_MAX_PLAYS, or NULL: count only) and its steps into ``moves``
    (BG_MAX_PLAYS x 12 int8: from, to, hit per step, points 1-24, 25 the
    bar, 0 off, unused -1; or NULL).  A roll that cannot be played gives
    one play, the unchanged position; a finished game or dice outside
    1..6 give none."""
    return generate(<Generator*>g, board, d1, d2, children, moves, not mover_view)


cdef int movegen_dice_used(const bg_movegen* g) noexcept nogil:
    """How many dice the plays of the last movegen_plays call use (0-4)."""
    return dice_used(<Generator*>g)


cdef const bg_networks* networks_get(object networks) except NULL:
    """The networks of a ``backgammon.network`` Networks object (None: the
    shipped ones), valid while that object lives: the caller keeps a
    reference.  Needs the GIL; raises TypeError for another object.  The
    networks are read only: any number of threads may use them at once
    (training the same object meanwhile is a data race)."""
    if networks is None:
        from backgammon.network import default
        networks = default()
    if not isinstance(networks, Networks):
        raise TypeError(f"networks must be backgammon.network.load()'s result, not {type(networks).__name__}")
    return <const bg_networks*>&(<Networks>networks).ev


cdef bg_scratch* scratch_new() noexcept nogil:
    """Scratch space for network evaluations (NULL when memory ran out);
    free it with scratch_free.  One thread at a time."""
    return <bg_scratch*>malloc(sizeof(Work))


cdef void scratch_free(bg_scratch* s) noexcept nogil:
    """Free scratch space (NULL is allowed)."""
    free(s)


cdef void networks_evaluate(const bg_networks* nets, const uint8_t* board, float* out, bg_scratch* s) noexcept nogil:
    """The five chances (float32) of the side on roll of a valid board at
    0-ply: exact for a finished game, the bear-off tables when both sides
    are home, else the networks; the same numbers as
    backgammon.evaluate."""
    evaluate_board(<const Evaluator*>nets, board, out, <Work*>s)


cdef int networks_best_child(const bg_networks* nets, const uint8_t* children, int n, float* best,
                             bg_scratch* s) noexcept nogil:
    """The index of the best of n > 0 valid children (next mover's view,
    as movegen_plays writes them) for the side that played: the lowest
    0-ply equity for the side then on roll, the first of equals, pruned
    as the networks' ``pruning`` says; its chances (side on roll in the
    child) into ``best``."""
    return best_child_chances(<const Evaluator*>nets, children, n, <Work*>s, best)


cdef int networks_class(const uint8_t* board) noexcept nogil:
    """Which evaluator answers for a valid board: 0 the game is over, 1
    the bear-off tables, 2 the race network, 3 contact, 4 crashed."""
    return <int>position_class(board)


cdef int32_t bearoff_positions(int checkers) noexcept nogil:
    """How many one-sided bear-off positions have at most ``checkers``
    checkers (0-15) on the six home points; -1 outside 0..15."""
    if checkers < 0 or checkers > MAX_CHECKERS:
        return -1
    return positions_up_to(checkers)


cdef int32_t bearoff_index(const uint8_t* counts) noexcept nogil:
    """gnubg's index of the home board with counts[i] checkers on point
    i + 1 (six counts, at most 15 in all; -1 otherwise)."""
    cdef int i, total = 0
    for i in range(6):
        total += counts[i]
    if total > MAX_CHECKERS:
        return -1
    return position_index(counts)


cdef int bearoff_counts(int32_t index, uint8_t* counts) noexcept nogil:
    """The six counts of the home board of gnubg's index ``index``: 0, or
    -1 when it is not below bearoff_positions(15)."""
    if index < 0 or index >= positions_up_to(MAX_CHECKERS):
        return -1
    index_position(index, counts)
    return 0


# The constants of _capi.pxd are the kernels' own.
from backgammon._movegen cimport MAX_PLAYS, BOARD_BYTES, MOVE_BYTES
assert BG_MAX_PLAYS == MAX_PLAYS and BG_BOARD_BYTES == BOARD_BYTES and BG_MOVE_BYTES == MOVE_BYTES
assert BG_OUTPUTS == OUTPUTS and BG_SLOTS == SLOTS and BG_CHECKERS == MAX_CHECKERS
