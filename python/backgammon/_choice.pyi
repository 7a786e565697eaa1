"""Choosing a play by a kernel policy.

Type stub for the Cython extension module built from src/backgammon/_choice.pyx.
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
    POLICY_GIVEN = 3

def choose_plays(
    policy: int,
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    generator: np.random.Generator | None = None,
    nets: Networks | None = None,
    evaluator: object | None = None,
) -> npt.NDArray[np.int64]:
    """The play each (board, roll) gets from ``policy``, as the game loop
    chooses it: the index among the move generator's plays, (n,) int64.
    ``evaluator``: a native evaluator playing the network policy."""
