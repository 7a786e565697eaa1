"""The kernels' opening throws.

Type stub for the Cython extension module built from src/backgammon/_dice.pyx.
"""
import numpy as np
import numpy.typing as npt


def opening_throws() -> npt.NDArray[np.int8]:
    """The 30 opening throws (RULES 2.2), (30, 2): one die per side, never equal."""
