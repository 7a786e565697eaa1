"""The cubeless game loop of rollouts and lockstep games.

Type stub for the Cython extension module built from src/backgammon/_rollout.pyx.
"""
import enum

import numpy as np
import numpy.typing as npt

from ._net import Networks


def play_games(
    start: npt.NDArray[np.uint8],
    first_index: int,
    n_games: int,
    generator: np.random.Generator,
    policy0: int,
    policy1: int,
    stratify: bool = True,
    truncate: int = -1,
    one_sided: npt.NDArray[np.uint16] | None = None,
    gammon: npt.NDArray[np.uint16] | None = None,
    two_sided: npt.NDArray[np.uint16] | None = None,
    two_sided_checkers: int = 0,
    nets: Networks | None = None,
) -> npt.NDArray[np.float64]:
    """Play ``n_games`` cubeless games from ``start`` (50 bytes, row 1 on
    roll) and return their results, a float64 array (n, 5): win, win gammon,
    win backgammon, lose gammon, lose backgammon for the side on roll."""

def lockstep_rolls(
    index: npt.NDArray[np.int64], ply: npt.NDArray[np.int64], stratify: bool, generator: np.random.Generator
) -> npt.NDArray[np.uint8]:
    """The dice of each lockstep game (index, plies played so far), as the
    game loop rolls them: (n, 2) uint8."""

def lockstep_settle(
    chosen: npt.NDArray[np.uint8],
    mover: npt.NDArray[np.int8],
    plies: npt.NDArray[np.int64],
    truncate: int = -1,
    one_sided: npt.NDArray[np.uint16] | None = None,
    gammon: npt.NDArray[np.uint16] | None = None,
    two_sided: npt.NDArray[np.uint16] | None = None,
    two_sided_checkers: int = 0,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """For each game after its play: whether it ended (n,) bool, and its
    result (n, 5) as the game loop settles it."""
