"""Bear-off databases: positions of up to N checkers on the six home points,
indexed as GNU Backgammon does, and race estimates from them.

Type stub for the Cython extension module built from src/backgammon/_bearoff.pyx.
"""
import numpy as np
import numpy.typing as npt

def build_one_sided(dist: npt.NDArray[np.uint16], gammon: npt.NDArray[np.uint16]) -> None:
    """Fill the one-sided tables (positions x 32 each) for up to 15 checkers."""

def build_two_sided(checkers: int, records: npt.NDArray[np.uint16]) -> None:
    """Fill the two-sided table: (P x P, 4) uint16 records for up to
    ``checkers`` checkers a side."""

def indices(points: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    """Index of each row of counts on points 1..6: (n, 6) -> (n,) int32."""

def board_indices(boards: npt.NDArray[np.uint8], row: int, checkers: int) -> npt.NDArray[np.int32]:
    """Index of one row (1 = on roll, 0 = opponent) of each board: (n,)
    int32, -1 where a checker is outside the home board or on the bar, -2
    where the side has more than ``checkers`` checkers."""

def gather_rows(
    table: npt.NDArray[np.uint16], index: npt.NDArray[np.int32], out: npt.NDArray[np.float64]
) -> None:
    """out[i] = table[index[i]] / 65535."""

def gather(
    values: npt.NDArray[np.float64], index: npt.NDArray[np.int32], out: npt.NDArray[np.float64]
) -> None:
    """out[i] = values[index[i]]."""

def position_of(index: int) -> tuple[int, ...]:
    """The counts on points 1..6 of a one-sided index."""

def race_estimates(
    boards: npt.NDArray[np.uint8],
    one_sided: npt.NDArray[np.uint16],
    gammon: npt.NDArray[np.uint16],
    two_sided: npt.NDArray[np.uint16] | None = None,
    two_sided_checkers: int = 0,
    nan: bool = False,
    out: npt.NDArray[np.floating] | None = None,
) -> npt.NDArray[np.floating]:
    """Win, win gammon and lose gammon chances of the side on roll, (n, 3),
    for boards where both sides have all their checkers on home points
    (others raise ValueError, or with ``nan`` get NaN rows), float64 or
    written into ``out`` (float32 or float64)."""
