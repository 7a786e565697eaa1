"""Perft: counting the game tree, the standard check and benchmark of move generators.

>>> from backgammon import Position
>>> perft(Position.initial(), 1)
447
"""
from __future__ import annotations

import operator

from . import _movegen
from .position import Position

__all__ = ["perft"]


def perft(position: Position, depth: int) -> int:
    """Leaves of the tree that expands each of the 21 rolls into each
    distinct play, ``depth`` plies deep.  A finished game is a leaf.
    """
    if not isinstance(position, Position):
        raise TypeError("perft needs a Position")
    depth = operator.index(depth)
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    return _movegen.perft(position.to_bytes(), depth)
