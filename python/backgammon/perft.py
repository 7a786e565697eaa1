"""Perft: counting the game tree, the standard check and benchmark of move generators.

>>> from backgammon import Position
>>> perft(Position.initial(), 1)
447
"""
from __future__ import annotations

from . import _perft
from ._validate import instance, integer
from .position import Position

__all__ = ["perft", "MAX_DEPTH"]

#: perft(4) of the opening takes hours; deeper trees never finish.
MAX_DEPTH = _perft.MAX_PERFT_DEPTH


def perft(position: Position, depth: int) -> int:
    """Count the leaves of the game tree, the standard check of move generators.

    The tree expands each of the 21 rolls into each distinct play,
    ``depth`` plies deep; a finished game is a leaf.

    Parameters
    ----------
    position : Position
        The root.
    depth : int
        Plies, 0 to :data:`MAX_DEPTH`.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        ``depth`` out of range.
    TypeError
        ``position`` is not a Position.

    Examples
    --------
    >>> perft(Position.initial(), 2)
    202782
    """
    instance("position", position, Position, "backgammon.Position")
    depth = integer("depth", depth, low=0, high=MAX_DEPTH)
    return _perft.perft(position.to_bytes(), depth)
