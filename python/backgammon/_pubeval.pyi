"""Tesauro's pubeval.

Type stub for the Cython extension module built from src/backgammon/_pubeval.pyx.
"""
import enum

import numpy as np
import numpy.typing as npt


def set_weights(weights: npt.NDArray[np.float64]) -> None:
    """Load the (122, 2) weights: column 0 contact, column 1 race."""

def pubeval_batch(boards: npt.NDArray[np.uint8], race: npt.ArrayLike | None = None) -> npt.NDArray[np.float64]:
    """pubeval of each board for the side of row 0 (the side that just
    played); ``race`` (bool array) chooses the weights, by default from each
    board itself."""


def loaded() -> bool:
    """Whether the weights are loaded."""
