"""Validation of position arrays, one board or a batch, without the GIL.

Type stub for the Cython extension module built from src/backgammon/_board.pyx.
"""
import enum

import numpy as np
import numpy.typing as npt

POINTS: int
BAR: int
SLOTS: int
CHECKERS: int

class BoardProblem(enum.IntEnum):
    """Reasons a board is not a position; 0 = valid (defined in _bits.h)."""

    BOARD_OK = 0
    TOO_MANY_CHECKERS_OPPONENT = 1
    TOO_MANY_CHECKERS_ON_ROLL = 2
    SHARED_POINT = 3
    NO_CHECKERS = 4
    BAD_DICE = 5

def results(boards: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """For each board (n, 2, 25): the row that has borne off all its
    checkers (-1 while both have some) and how the other row loses (0 while
    the game goes on)."""

def all_home(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """both_home for each board (n, 2, 25): a bool array."""

def is_race(board: bytes | bytearray | npt.NDArray[np.uint8]) -> bool:
    """no_contact for one 50-byte board."""

def first_invalid(boards: npt.NDArray[np.uint8]) -> tuple[int, int]:
    """Return ``(index, problem)`` of the first invalid board, or ``(-1, 0)``.

    ``boards`` has shape (n, 2, 25); counts above 15 on a slot are caught by
    the per-side totals.
    """


def problem_message(code: int) -> str:
    """Why a board is not a position (or its dice not dice), for a BoardProblem code."""


def starting_board() -> bytes:
    """The 50 bytes of the starting position (RULES 1.2)."""


def equities(chances: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The cubeless money equity of each row of five outcome chances."""

def pair_best(offsets: npt.NDArray[np.int64], values: npt.NDArray[np.float64], lowest: bool) -> npt.NDArray[np.int64]:
    """For each pair of a CSR output, the index within it of its largest
    value (smallest with ``lowest``), first of equals, NaN never; -1 when none."""
