"""The native evaluator protocol in the kernels (backgammon.h).

Type stub for the Cython extension module built from src/backgammon/_native.pyx.
"""
import numpy as np
import numpy.typing as npt

def evaluate(evaluator: object, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The chances (n, 5) float32 of the side on roll of each board from a
    native evaluator (exact for finished games), without the GIL."""
