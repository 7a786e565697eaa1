"""Memory for batch results, reused once nothing refers to it any more.

Type stub for the Cython extension module built from src/backgammon/_pool.pyx.
"""
from typing import Any

import numpy as np
MOST_KEPT: int

class Block:
    """``size`` bytes of writable memory exposed through the buffer protocol.

    Not picklable or copyable: a copy would own memory it did not allocate.
    """

    def __buffer__(self, flags: int, /) -> memoryview: ...
    def __release_buffer__(self, buffer: memoryview, /) -> None: ...
    def trim(self, used: int) -> None:
        """Give the pages past the first ``used`` bytes back to the system."""

def block(size: int) -> Block:
    """A Block of at least ``size`` bytes (contents undefined), reusing kept
    memory that is large enough but not more than twice as large."""

def kept_bytes() -> int:
    """Bytes held for reuse."""

def release() -> None:
    """Free the memory held for reuse."""


def empty(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """A C-contiguous array in a pooled Block when it is large, else a fresh numpy array."""


def populate(array: np.ndarray, rows: int, part: int, parts: int) -> None:
    """Map part ``part`` of ``parts`` of the first ``rows`` rows of an ``empty`` array when its block is new."""


def trim(array: np.ndarray, rows: int) -> np.ndarray:
    """The first ``rows`` rows of an ``empty`` array; the unused pages of its block go back."""
