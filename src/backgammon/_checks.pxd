# Input checks for every kernel function that Python can call: one wording
# everywhere, the board problem codes of _board (BoardProblem), and the
# messages of _board.problem_message.  Kernels trust what passed these.
cimport cython
from libc.stdint cimport uint8_t, int64_t
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from backgammon._board cimport BoardProblem, BOARD_OK, BAD_DICE, SLOTS, check_board


cdef inline bint dice_ok(int d1, int d2) noexcept nogil:
    return 1 <= d1 <= 6 and 1 <= d2 <= 6


cdef inline BoardProblem pair_problem(const uint8_t* board, int d1, int d2, bint check) noexcept nogil:
    """Why a (board, roll) pair cannot be played, or BOARD_OK.  Dice index
    the step tables, so they are checked even when the board is trusted."""
    cdef BoardProblem p = check_board(board) if check else BOARD_OK
    if p == BOARD_OK and not dice_ok(d1, d2):
        p = BAD_DICE
    return p


cdef inline int raise_problem(str name, Py_ssize_t index, int code) except -1:
    from backgammon._board import problem_message
    if index < 0:
        raise ValueError(f"{name}: {problem_message(code)}")
    raise ValueError(f"{name}[{index}]: {problem_message(code)}")


cdef inline int need_shape(str name, bint ok, str shape) except -1:
    if not ok:
        raise ValueError(f"{name} must have shape {shape}")
    return 0


cdef inline int need_boards(str name, const uint8_t[:, :, ::1] boards) except -1:
    """``boards`` is (n, 2, 25)."""
    return need_shape(name, boards.shape[1] == 2 and boards.shape[2] == SLOTS, "(n, 2, 25)")


@cython.boundscheck(False)
@cython.wraparound(False)
cdef inline int need_valid_boards(str name, const uint8_t[:, :, ::1] boards) except -1:
    """``boards`` is (n, 2, 25) and every board a position."""
    cdef Py_ssize_t i, n = boards.shape[0], bad = -1
    cdef BoardProblem p = BOARD_OK
    need_boards(name, boards)
    with nogil:
        for i in range(n):
            p = check_board(&boards[i, 0, 0])
            if p != BOARD_OK:
                bad = i
                break
    if bad >= 0:
        raise_problem(name, bad, p)
    return 0


cdef inline int need_valid_board(str name, const uint8_t* board) except -1:
    cdef BoardProblem p = check_board(board)
    if p != BOARD_OK:
        raise_problem(name, -1, p)
    return 0


cdef inline const uint8_t* board_bytes(str name, bytes board) except NULL:
    """The 50 bytes of one valid board."""
    if PyBytes_GET_SIZE(board) != 2 * SLOTS:
        raise ValueError(f"{name} must be 50 bytes, not {PyBytes_GET_SIZE(board)}")
    cdef const uint8_t* b = <const uint8_t*>PyBytes_AS_STRING(board)
    cdef BoardProblem p = check_board(b)
    if p != BOARD_OK:
        raise_problem(name, -1, p)
    return b


@cython.boundscheck(False)
@cython.wraparound(False)
cdef inline int need_rolls(str name, const uint8_t[:, ::1] rolls, Py_ssize_t n) except -1:
    """``rolls`` is (n, 2), every die 1 to 6."""
    cdef Py_ssize_t i
    need_shape(name, rolls.shape[0] == n and rolls.shape[1] == 2, f"({n}, 2)")
    for i in range(n):
        if not dice_ok(rolls[i, 0], rolls[i, 1]):
            raise_problem(name, i, BAD_DICE)
    return 0


cdef inline int need_dice(int d1, int d2) except -1:
    if not dice_ok(d1, d2):
        raise_problem("dice", -1, BAD_DICE)
    return 0


cdef inline int need_rows(str name, Py_ssize_t rows, Py_ssize_t n) except -1:
    """A per-row array of ``n`` rows."""
    if rows != n:
        raise ValueError(f"{name} must have {n} rows, not {rows}")
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
cdef inline int need_offsets(str name, const int64_t[::1] offsets, Py_ssize_t n, Py_ssize_t total) except -1:
    """CSR offsets (n + 1,) rising from 0 within ``total`` rows."""
    cdef Py_ssize_t i
    need_rows(name, offsets.shape[0], n + 1)
    for i in range(n):
        if not (0 <= offsets[i] <= offsets[i + 1] <= total):
            raise ValueError(f"{name} must rise within the {total} children")
    return 0
