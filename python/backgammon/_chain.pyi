"""The chunk scheduler: threads sharing one CSR output in row order.

Type stub for the Cython extension module built from src/backgammon/_chain.pyx.
"""
import numpy as np
import numpy.typing as npt


class Chain:
    """The shared state of one chained run over ``n`` rows in chunks of
    ``chunk``: made fresh for each run, given to every thread."""

    @property
    def n(self) -> int: ...
    @property
    def chunk(self) -> int: ...
    def __init__(self, n: int, chunk: int, repeatable: bool = False) -> None: ...
    @property
    def copied(self) -> int:
        """Children of the run that went through a thread's scratch."""
    @property
    def switched(self) -> int:
        """Chunks begun in scratch and finished in place."""
    @property
    def taken(self) -> int:
        """Chunks written by a waiting thread in place of the one that took them."""
    @property
    def status(self) -> int:
        """0, or why the run stopped: 1 the output was too small, 2 memory."""


def kept_scratch() -> int:
    """How many scratch blocks are kept between runs."""


def release_scratch() -> None:
    """Free the scratch blocks kept between runs."""


def set_switching(on: bool) -> None:
    """Let chunks begun in scratch finish in place, or not (the default)."""


def set_spreading(most: int) -> None:
    """Stream ``most`` bytes (128 or more; default 1024) of a copy from
    scratch after each row a thread makes, or copy a placed chunk at once (0)."""


def _set_wide(on: bool) -> bool:
    """Copy from scratch with AVX2 stores where the machine has them, or SSE2 ones."""


def _run_test_rows(chain: Chain, offsets: npt.NDArray[np.int64], children: npt.NDArray[np.uint8],
                   gate: npt.NDArray[np.int64]) -> int:
    """One thread's share of ``chain``'s rows written by a test row writer."""
