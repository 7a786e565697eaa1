"""The chunk scheduler: threads sharing one CSR output in row order.

Type stub for the Cython extension module built from src/backgammon/_chain.pyx.
"""


class Chain:
    """The shared state of one chained run over ``n`` rows in chunks of
    ``chunk``: made fresh for each run, given to every thread."""

    @property
    def n(self) -> int: ...
    @property
    def chunk(self) -> int: ...
    def __init__(self, n: int, chunk: int) -> None: ...
    @property
    def status(self) -> int:
        """0, or why the run stopped: 1 the output was too small, 2 memory."""


def kept_scratch() -> int:
    """How many scratch blocks are kept between runs."""


def release_scratch() -> None:
    """Free the scratch blocks kept between runs."""
