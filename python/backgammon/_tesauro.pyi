"""Tesauro's TD-Gammon inputs.

Type stub for the Cython extension module built from src/backgammon/_tesauro.pyx.
"""
import enum

import numpy as np
import numpy.typing as npt


def tesauro_inputs(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The 198 TD-Gammon inputs of each board, float32 (n, 198)."""
