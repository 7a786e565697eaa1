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
    key: int,
    policy0: int,
    policy1: int,
    stratify: bool = True,
    truncate: int = -1,
    bearoff: bool = False,
    reduce: bool = False,
    one_sided: npt.NDArray[np.uint16] | None = None,
    gammon: npt.NDArray[np.uint16] | None = None,
    two_sided: npt.NDArray[np.uint16] | None = None,
    two_sided_checkers: int = 0,
    nets: Networks | None = None,
    evaluator: object | None = None,
    counter: npt.NDArray[np.int64] | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Play ``n_games`` cubeless games from ``start``: their results (n, 5)
    for the side on roll and the luck summed over each (n, 5).
    ``evaluator``: a native evaluator (``__backgammon_evaluator__``) in
    place of ``nets``; ``counter`` (1,) int64 counts the games as they end."""


def lockstep_rolls(
    index: npt.NDArray[np.int64], ply: npt.NDArray[np.int64], stratify: bool, key: int
) -> npt.NDArray[np.uint8]:
    """The dice of each lockstep game (its number, plies played so far): (n, 2) uint8."""


def lockstep_settle(
    chosen: npt.NDArray[np.uint8],
    mover: npt.NDArray[np.int8],
    plies: npt.NDArray[np.int64],
    bearoff_from: int = -1,
    one_sided: npt.NDArray[np.uint16] | None = None,
    gammon: npt.NDArray[np.uint16] | None = None,
    two_sided: npt.NDArray[np.uint16] | None = None,
    two_sided_checkers: int = 0,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """For each game after its play: whether it ended (n,) bool, and its result (n, 5)."""


def lockstep_luck(
    nets: Networks,
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    mover: npt.NDArray[np.int8],
    each: npt.NDArray[np.float64] | None = None,
    chosen: npt.NDArray[np.uint8] | None = None,
) -> npt.NDArray[np.float64]:
    """The luck of each game's roll, seen by the side on roll at the start, (n, 5);
    given, ``each`` (n, 21, 5) and ``chosen`` (n, 21, 2, 25) get each roll's
    chances after its best play and that play."""
