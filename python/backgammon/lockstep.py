"""Games in lockstep, for evaluators that score positions in batches.

>>> import numpy as np
>>> vg = VectorGames(4, seed=0)
>>> offsets, children = vg.candidates()
>>> ended, results = vg.advance(np.zeros(4, dtype=int))
>>> offsets.shape, ended.tolist()
((5,), [])
"""
from __future__ import annotations

import numpy as np

from . import _rollout, _tesauro
from ._validate import flag, instance, integer, integers, optional_integer
from .dice import generator
from .position import Position

#: The largest ``truncate``: a play count the game loop can hold.
MAX_PLIES = 2 ** 31 - 1

__all__ = ["VectorGames"]


class VectorGames:
    """``n`` games in lockstep.

    Each step: ``candidates()`` rolls for every game and returns the CSR
    batch of the positions each can reach (``offsets`` (n + 1,),
    ``children`` (total, 2, 25) with row 0 the side that played,
    optionally the 198 TD-Gammon inputs); ``advance(choices)`` takes one
    index per game (into that game's candidates), plays it, and returns the
    games that ended with their results (win, win gammon, win backgammon,
    lose gammon, lose backgammon for the side on roll at the start),
    restarting them.  Dice and settlement are the rollout kernel's own:
    stratified first two rolls (games numbered from ``first``), and
    ``truncate`` as in :func:`rollout`.  ``boards``, ``rolls`` (after
    ``candidates``) and ``turn`` (0: the side on roll at the start to
    play) are each game's state.

    >>> import numpy as np
    >>> games = VectorGames(4, seed=1)
    >>> offsets, children = games.candidates()
    >>> offsets.shape, children.shape[1:]
    ((5,), (2, 25))
    >>> ended, results = games.advance(np.zeros(4, dtype=np.int64))   # each game's first candidate
    >>> ended.tolist(), results.shape
    ([], (0, 5))
    """

    def __init__(self, n: int, seed=None, position: Position | None = None, stratify: bool = True,
                 truncate: int | None = None, first: int = 0):
        self.n = integer("n", n, low=1)
        position = Position.initial() if position is None else instance("position", position, Position,
                                                                          "backgammon.Position")
        if position.is_game_over():
            raise ValueError("position: the game is over in this position, there is nothing to play")
        self.truncate = optional_integer("truncate", truncate, low=0, high=MAX_PLIES)
        self.stratify = flag("stratify", stratify)
        self.start = position.array
        # The dice are the game loop's: a function of a key (from the seed), the game and the ply.
        self._key = int(generator(seed).integers(0, 2 ** 63))
        self.boards = np.repeat(self.start[None], self.n, axis=0)
        self.turn = np.zeros(self.n, dtype=np.int8)      # 0: the side on roll at the start
        self.ply = np.zeros(self.n, dtype=np.int64)
        first = integer("first", first, low=0)
        self.index = np.arange(first, first + self.n, dtype=np.int64)   # game numbers, for stratified rolls
        self._next_index = first + self.n
        self.rolls = np.zeros((self.n, 2), dtype=np.uint8)
        self._offsets: np.ndarray | None = None
        self._children: np.ndarray | None = None
        self._children = None
        self._tables = None
        if truncate is not None:
            from .bearoff import kernel_tables
            self._tables = kernel_tables()

    def candidates(self, encode: bool = False):
        """Roll for every game; the positions each can reach (CSR)."""
        from .batch import legal_positions
        self.rolls = _rollout.lockstep_rolls(self.index, self.ply, self.stratify, self._key)
        self._offsets, self._children = legal_positions(self.boards, self.rolls, validate=False, threads=1)
        if flag("encode", encode):
            return self._offsets, self._children, _tesauro.tesauro_inputs(self._children)
        return self._offsets, self._children

    def advance(self, choices):
        """Play ``choices`` (one candidate index per game); returns the
        games that ended and their results, (k,) and (k, 5)."""
        if self._offsets is None:
            raise ValueError("call candidates() before advance()")
        counts = np.diff(self._offsets)
        choices = integers("choices", choices, shape=(self.n,), low=0)
        if (choices >= counts).any():
            bad = int(np.argmax(choices >= counts))
            raise ValueError(f"choices[{bad}] = {int(choices[bad])} but game {bad} has {int(counts[bad])} candidates")
        chosen = np.ascontiguousarray(self._children[self._offsets[:-1] + choices])
        self._offsets = self._children = None
        self.ply += 1
        tables = self._tables or {}
        ended, results = _rollout.lockstep_settle(chosen, self.turn, self.ply,
                                                  -1 if self.truncate is None else self.truncate, **tables)
        self.boards = chosen
        self.turn ^= 1
        done = np.flatnonzero(ended)
        # Restart the finished games as new games.
        self.boards[done] = self.start
        self.turn[done] = 0
        self.ply[done] = 0
        self.index[done] = np.arange(self._next_index, self._next_index + len(done))
        self._next_index += len(done)
        return done, results[done]
