"""The cubeless game loop of rollouts and duels, pubeval and lockstep games.

Type stub for the Cython extension module built from src/backgammon/_rollout.pyx.
"""
import enum

import numpy as np
import numpy.typing as npt

from ._net import Networks

class Policy(enum.IntEnum):
    """Who chooses each play."""

    POLICY_RANDOM = 0
    POLICY_PUBEVAL = 1
    POLICY_NET = 2

def set_pubeval_weights(weights: npt.NDArray[np.float64]) -> None:
    """Load the (122, 2) weights: column 0 contact, column 1 race."""

def pubeval_batch(boards: npt.NDArray[np.uint8], race: npt.ArrayLike | None = None) -> npt.NDArray[np.float64]:
    """pubeval of each board for the side of row 0 (the side that just
    played); ``race`` (bool array) chooses the weights, by default from each
    board itself."""

def tesauro_inputs(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The 198 TD-Gammon inputs of each board, float32 (n, 198)."""

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

def choose_plays(
    policy: int,
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    generator: np.random.Generator | None = None,
    nets: Networks | None = None,
) -> npt.NDArray[np.int64]:
    """The play each (board, roll) gets from ``policy``, as the game loop
    chooses it: the index among the move generator's plays, (n,) int64."""
