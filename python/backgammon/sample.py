"""Seeded random self-play, for corpora of realistic positions.

>>> boards, rolls = random_positions(100, seed=1)
>>> boards.shape, rolls.shape
((100, 2, 25), (100, 2))
"""
from __future__ import annotations

import numpy as np

from . import batch
from .position import Position

__all__ = ["random_positions"]


def random_positions(n: int, seed=None, *, games: int = 256):
    """Realistic (board, roll) pairs met in random-play games, in play order.

    ``games`` games run in lockstep; each ply rolls for every game, picks
    one distinct legal play uniformly, and restarts finished games from
    the opening.  The same seed gives the same corpus.

    Parameters
    ----------
    n : int
        How many pairs.
    seed : int or numpy.random.Generator, optional
        The seed.
    games : int, default 256
        Games played side by side.

    Returns
    -------
    boards : numpy.ndarray
        (n, 2, 25) uint8, row 1 on roll.
    rolls : numpy.ndarray
        (n, 2) uint8: the roll then thrown.

    Examples
    --------
    >>> import backgammon as bg
    >>> boards, rolls = random_positions(3, seed=1, games=1)
    >>> bg.Position.from_array(boards[0]) == bg.Position.initial(), rolls.shape
    (True, (3, 2))
    """
    from ._validate import integer
    from .dice import generator
    n = integer("n", n, low=0)
    games = integer("games", games, low=1)
    rng = generator(seed)
    initial = Position.initial().array
    boards = np.repeat(initial[None], games, axis=0)
    out_boards = np.empty((n, 2, 25), dtype=np.uint8)
    out_rolls = np.empty((n, 2), dtype=np.uint8)
    filled = 0
    while filled < n:
        rolls = rng.integers(1, 7, size=(games, 2), dtype=np.uint8)
        take = min(games, n - filled)
        out_boards[filled:filled + take] = boards[:take]
        out_rolls[filled:filled + take] = rolls[:take]
        filled += take
        offsets, children = batch.legal_positions(boards, rolls, validate=False)
        counts = np.diff(offsets)
        pick = offsets[:-1] + (rng.random(games) * counts).astype(np.int64)
        boards = children[pick]
        over = (boards[:, 0].sum(axis=1) == 0) | (boards[:, 1].sum(axis=1) == 0)
        boards[over] = initial
    return out_boards, out_rolls
