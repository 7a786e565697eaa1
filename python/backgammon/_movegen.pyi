"""Legal move generation (RULES 3, 4, 5): the one kernel behind
Position.legal_plays, the batch API, perft, the game loop and the environments.

Type stub for the Cython extension module built from src/backgammon/_movegen.pyx.
"""
import numpy as np
import numpy.typing as npt

from ._chain import Chain

MAX_PLAYS: int
BOARD_BYTES: int
STEP_FIELDS: int
MOVE_BYTES: int

def step(board: bytes, src: int, dst: int, die: int) -> tuple[bytes, bool] | None:
    """One checker step of ``die`` pips from point ``src`` (25 = bar) to
    ``dst`` (0 = off) on a 50-byte board (row 1 moves), if the rules allow
    it on its own.  Returns the new board and whether it hit, or None."""

def plays(board: bytes, d1: int, d2: int) -> tuple[int, bytes, bytes, int]:
    """Plays of one 50-byte board: ``(n, children, moves, dice_used)``.

    ``children`` holds n boards of 50 bytes from the next mover's view,
    ``moves`` n x 12 signed bytes.
    """

def count_plays(board: bytes, d1: int, d2: int) -> int:
    """Number of distinct plays of one 50-byte board."""

def generate_into(
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    start: int,
    offsets: npt.NDArray[np.int64],
    children: npt.NDArray[np.uint8],
    moves: npt.NDArray[np.int8] | None,
    swap: bool,
    check: bool = True,
) -> tuple[int, int]:
    """Fill the CSR arrays from board ``start`` on, while room remains.

    Returns ``(stop, problem)``: ``stop`` is the first board not done;
    ``problem`` is the board's BoardProblem code, or BAD_DICE, for board
    ``stop``, else 0.  Runs without the GIL.
    """

def generate_shared(
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    offsets: npt.NDArray[np.int64],
    children: npt.NDArray[np.uint8],
    moves: npt.NDArray[np.int8] | None,
    swap: bool,
    chain: Chain,
    check: bool = True,
) -> tuple[int, int, int]:
    """This thread's share of filling the CSR arrays, other threads calling
    it on the same arrays.  Returns ``(status, bad, problem)``: status 0, 1
    (output too small) or 2 (out of memory); the first bad pair this thread
    met (-1: none) and its problem code.  Runs without the GIL."""


def legal_small(
    boards: object, rolls: object, moves: bool, swap: bool, check: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]] | tuple[
    npt.NDArray[np.int64], npt.NDArray[np.uint8], npt.NDArray[np.int8]
] | None:
    """legal_positions of at most 64 pairs given as numpy arrays, in one
    call; None when the input is of another kind or a pair is bad."""
