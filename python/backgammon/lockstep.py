"""Games in lockstep: the one game loop that duels, lockstep rollouts and
:class:`VectorGames` share.

Many games are played a ply at a time, side by side, so that a player (or
an evaluator) chooses the plays of all of them in one batch call.
:class:`Lanes` holds the games (boards, whose turn, plies played, game
numbers), rolls their dice (the rollout kernel's: a function of a key, the
game number and the ply, the first two rolls stratified over game numbers,
unless a caller brings its own), settles them after each play (the kernel's
``lockstep_settle``: a result for the side on roll at the start, or the
bear-off tables' chances) and starts the next game in a lane that finished.
:meth:`Lanes.run` is the loop itself, with hooks for what a caller adds
(the cube and truncation before a roll, luck, records of the plays);
:func:`choose_for_sides` asks each side's player for its games' plays and
:func:`pick` checks and plays them.

>>> import numpy as np
>>> vg = VectorGames(4, seed=0)
>>> offsets, children = vg.candidates()
>>> ended, results = vg.advance(np.zeros(4, dtype=int))
>>> offsets.shape, ended.tolist()
((5,), [])
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from . import _rollout, _tesauro
from ._validate import boards as _boards, rolls as checked_rolls, flag, instance, integer, integers, optional_integer
from .batch import legal_positions
from .dice import generator
from .position import Position

#: The largest ``truncate``: a play count the game loop can hold.
MAX_PLIES = 2 ** 31 - 1
#: The largest game number: the game loop numbers games (its dice's key) in int64.
MAX_GAME = 2 ** 63 - 1

__all__ = ["VectorGames", "Lanes", "choose_for_sides", "pick", "MAX_PLIES", "MAX_GAME"]


def choose_for_sides(players, boards: np.ndarray, rolls: np.ndarray, turn: np.ndarray) -> np.ndarray:
    """The index of each game's play (move generator order): the games
    whose ``turn`` is 0 asked of ``players[0]`` in one call, those of 1 of
    ``players[1]``; (n,) int64.

    Examples
    --------
    >>> import numpy as np, backgammon as bg
    >>> boards = np.stack([bg.Position.initial().array] * 2)
    >>> rolls = np.array([[3, 1], [3, 1]], dtype=np.uint8)
    >>> players = (bg.player("pubeval"), bg.player("net"))
    >>> choose_for_sides(players, boards, rolls, np.array([0, 1])).shape
    (2,)
    """
    from .batch import validate_boards
    from .players import Player
    if not (isinstance(players, (tuple, list)) and len(players) == 2):
        raise TypeError(f"players must be a pair of backgammon.Player, not {players!r:.40}")
    for side in (0, 1):
        instance(f"players[{side}]", players[side], Player, "backgammon.Player")
    boards = validate_boards(boards)
    rolls = checked_rolls("rolls", rolls, len(boards))
    turn = integers("turn", turn, shape=(len(boards),), low=0, high=1)
    return _choose_for_sides(players, boards, rolls, turn)


def _choose_for_sides(players, boards: np.ndarray, rolls: np.ndarray, turn: np.ndarray) -> np.ndarray:
    choice = np.zeros(len(boards), dtype=np.int64)
    for side in (0, 1):
        mine = turn == side
        if mine.any():
            choice[mine] = players[side].choose_indices(boards[mine], rolls[mine])
    return choice


def pick(offsets: np.ndarray, children: np.ndarray, choice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions the chosen plays lead to, (n, 2, 25) C-contiguous, and
    their rows in ``children``; a choice outside its game's plays raises.

    >>> import numpy as np, backgammon as bg
    >>> from backgammon.batch import legal_positions
    >>> start = bg.Position.initial().array[None]
    >>> offsets, children = legal_positions(start, [[3, 1]])
    >>> chosen, rows = pick(offsets, children, [0])
    >>> chosen.shape, rows.tolist()
    ((1, 2, 25), [0])
    """
    children = _boards("children", children)
    offsets = integers("offsets", offsets, shape=(None,), low=0, high=len(children))
    if len(offsets) < 1 or offsets[0] != 0 or (np.diff(offsets) < 0).any():
        raise ValueError("offsets must rise from 0 (batch.legal_positions's offsets)")
    choice = integers("choice", choice, shape=(len(offsets) - 1,), low=0)
    if (choice >= np.diff(offsets)).any():
        raise ValueError("choice must index a play of its game: a choice is beyond its game's plays")
    return _pick(offsets, children, choice)


def _pick(offsets: np.ndarray, children: np.ndarray, choice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    counts = np.diff(offsets)
    if (choice < 0).any() or (choice >= counts).any():
        raise RuntimeError("a player chose a play index outside its legal plays")
    picked = offsets[:-1] + choice
    return np.ascontiguousarray(children[picked]), picked


class Lanes:
    """``n`` lanes of games in lockstep from ``start`` (a (2, 25) board,
    side on roll in row 1): each lane's ``boards``, ``turn`` (0: the side
    on roll at the start is to play), ``ply`` and game number ``index``
    (from ``first``); ``live`` lanes still play.  ``games`` is how many
    games the lanes play in all (None: without end), ``key`` and
    ``stratify`` the kernel's dice, ``bearoff_from`` and ``tables`` its
    settlement (see ``_rollout.lockstep_settle``)."""

    def __init__(self, start: np.ndarray, n: int, *, games: int | None = None, first: int = 0, key: int = 0,
                 stratify: bool = True, bearoff_from: int = -1, tables: dict | None = None):
        self.start = np.ascontiguousarray(start, dtype=np.uint8).reshape(2, 25)
        self.n, self.games, self.first = n, games, first
        self.key, self.stratify = key, stratify
        self.bearoff_from, self.tables = bearoff_from, tables or {}
        self.boards = np.repeat(self.start[None], n, axis=0)
        self.turn = np.zeros(n, dtype=np.int8)
        self.ply = np.zeros(n, dtype=np.int64)
        self.index = np.arange(first, first + n, dtype=np.int64)
        self.live = np.ones(n, dtype=bool)
        self.started = n                     # games begun so far

    def rolls(self, rows: np.ndarray) -> np.ndarray:
        """The dice of the games of ``rows`` at their ply (the kernel's)."""
        return _rollout.lockstep_rolls(self.index[rows], self.ply[rows], self.stratify, self.key)

    def advance(self, rows: np.ndarray, chosen: np.ndarray, turn: np.ndarray | None = None):
        """Play ``chosen`` (the positions after the plays, next mover's view)
        in the games of ``rows`` (whose ``turn`` it was, if the caller has
        it): whether each ended, and its result (the five chances of the
        side on roll at the start)."""
        turn = self.turn[rows] if turn is None else turn
        ply = self.ply[rows] + 1
        self.ply[rows] = ply
        ended, results = _rollout.lockstep_settle(chosen, turn, ply, self.bearoff_from, **self.tables)
        self.boards[rows] = chosen
        self.turn[rows] = turn ^ 1
        return ended, results

    def restart(self, lanes) -> None:
        """Lanes whose game is over start the next game from ``start``, or
        stop once ``games`` have begun."""
        for lane in lanes:
            if self.games is None or self.started < self.games:
                self.boards[lane] = self.start
                self.turn[lane], self.ply[lane] = 0, 0
                self.index[lane] = self.first + self.started
                self.started += 1
            else:
                self.live[lane] = False

    def run(self, players, on_end: Callable, *, before: Callable | None = None, rolls: Callable | None = None,
            luck: Callable | None = None, record: Callable | None = None, sides: Callable | None = None,
            choose: Callable | None = None) -> None:
        """Play until no lane is live: each ply, ``before(rows)`` (the cube,
        truncation) may end games and returns the rows that roll; the
        rows' dice (``rolls(rows)``, default the kernel's); ``luck(rows,
        boards, rolls)``; each side's player chooses (``players[turn]``, or
        ``players[sides(rows, turn)]`` when a game's sides are not its turn's;
        ``choose(rows, boards, rolls, turn)`` instead when the caller chooses,
        a cubeful rollout at each game's cube and score);
        ``record(rows, rolls, moves, picked)`` sees the plays (the move
        generator's steps); the games that end go to ``on_end(lanes,
        results)``, which restarts or stops them."""
        while self.live.any():
            rows = np.flatnonzero(self.live)
            if before is not None:
                rows = before(rows)
                if not len(rows):
                    continue
            dice = self.rolls(rows) if rolls is None else rolls(rows)
            here = np.ascontiguousarray(self.boards[rows])
            if luck is not None:
                luck(rows, here, dice)
            turn = self.turn[rows]
            if choose is not None:
                choice = choose(rows, here, dice, turn)
            else:
                choice = _choose_for_sides(players, here, dice, turn if sides is None else sides(rows, turn))
            if record is not None:
                offsets, children, moves = legal_positions(here, dice, validate=False, moves=True, threads=1)
            else:
                offsets, children = legal_positions(here, dice, validate=False, threads=1)
            chosen, picked = _pick(offsets, children, choice)
            if record is not None:
                record(rows, dice, moves, picked)
            ended, results = self.advance(rows, chosen, turn)
            if ended.any():
                on_end(rows[ended], results[ended])


class VectorGames:
    """``n`` games in lockstep, for self-play: you choose every game's play
    in one batch.

    Each step: :meth:`candidates` rolls for every game and returns the CSR
    batch of the positions each can reach; :meth:`advance` takes one index
    per game (into that game's candidates), plays it, and returns the games
    that ended with their results, restarting them.  Dice and settlement
    are the rollout kernel's own (:class:`Lanes`).

    Parameters
    ----------
    n : int
        Games side by side.
    seed : int, optional
        The dice's seed.
    position : Position, optional
        Where every game starts; default the opening.
    stratify : bool, default True
        Stratified first two rolls over the game numbers.
    truncate : int, optional
        From this many plies on, a race where both sides bear off is
        settled by the bear-off tables.
    first : int, default 0
        The first game's number (for the stratified rolls).

    Attributes
    ----------
    boards : numpy.ndarray
        (n, 2, 25): each game's position.
    rolls : numpy.ndarray
        (n, 2): each game's dice, after :meth:`candidates`.
    turn : numpy.ndarray
        (n,): 0 when the side on roll at the start is to play.

    Examples
    --------
    >>> import numpy as np
    >>> games = VectorGames(4, seed=1)
    >>> offsets, children = games.candidates()
    >>> offsets.shape, children.shape[1:]
    ((5,), (2, 25))
    >>> # first candidates
    >>> ended, results = games.advance(np.zeros(4, dtype=np.int64))
    >>> ended.tolist(), results.shape
    ([], (0, 5))
    """

    def __init__(self, n: int, seed=None, position: Position | None = None, stratify: bool = True,
                 truncate: int | None = None, first: int = 0):
        self.n = integer("n", n, low=1, high=MAX_GAME)
        position = Position.initial() if position is None else instance("position", position, Position,
                                                                          "backgammon.Position")
        if position.is_game_over():
            raise ValueError("position: the game is over in this position, there is nothing to play")
        self.truncate = optional_integer("truncate", truncate, low=0, high=MAX_PLIES)
        self.stratify = flag("stratify", stratify)
        self.start = position.array
        first = integer("first", first, low=0, high=MAX_GAME + 1 - self.n)     # the last game's number fits
        tables = None
        if truncate is not None:
            from .bearoff import kernel_tables
            tables = kernel_tables()
        # The dice are the game loop's: a function of a key (from the seed), the game and the ply.
        self._lanes = Lanes(self.start, self.n, first=first, key=int(generator(seed).integers(0, 2 ** 63)),
                            stratify=self.stratify, bearoff_from=-1 if truncate is None else truncate,
                            tables=tables)
        self.rolls = np.zeros((self.n, 2), dtype=np.uint8)
        self._offsets: np.ndarray | None = None
        self._children: np.ndarray | None = None

    # Each game's state, as its lane holds it.
    boards = property(lambda self: self._lanes.boards, doc="each game's board (n, 2, 25)")
    turn = property(lambda self: self._lanes.turn, doc="0 where the side on roll at the start is to play")
    ply = property(lambda self: self._lanes.ply, doc="plies played in each game")
    index = property(lambda self: self._lanes.index, doc="each game's number")

    def candidates(self, encode: bool = False):
        """Roll for every game; the positions each can reach (CSR).

        Parameters
        ----------
        encode : bool, default False
            Also return the 198 TD-Gammon inputs of each child.

        Returns
        -------
        offsets : numpy.ndarray
            (n + 1,): game ``i`` can reach ``children[offsets[i]:offsets[i + 1]]``.
        children : numpy.ndarray
            (total, 2, 25), row 0 the side that played.
        inputs : numpy.ndarray
            With ``encode``: (total, 198) float32.
        """
        self.rolls = self._lanes.rolls(np.arange(self.n))
        self._offsets, self._children = legal_positions(self.boards, self.rolls, validate=False, threads=1)
        if flag("encode", encode):
            return self._offsets, self._children, _tesauro.tesauro_inputs(self._children)
        return self._offsets, self._children

    def advance(self, choices):
        """Play ``choices`` (one candidate index per game).

        Returns
        -------
        ended : numpy.ndarray
            (k,): the games that ended (and restarted).
        results : numpy.ndarray
            (k, 5): their results for the side on roll at the start
            (win, win gammon, win backgammon, lose gammon, lose
            backgammon): 0 or 1, or the bear-off tables' chances for a
            race settled by them.

        Raises
        ------
        ValueError
            A choice outside its game's candidates, or no
            :meth:`candidates` call before.
        """
        if self._offsets is None or self._children is None:
            raise ValueError("call candidates() before advance()")
        counts = np.diff(self._offsets)
        choices = integers("choices", choices, shape=(self.n,), low=0)
        if (choices >= counts).any():
            bad = int(np.argmax(choices >= counts))
            raise ValueError(f"choices[{bad}] = {int(choices[bad])} but game {bad} has {int(counts[bad])} candidates")
        chosen, _ = _pick(self._offsets, self._children, choices)
        self._offsets = self._children = None
        ended, results = self._lanes.advance(np.arange(self.n), chosen)
        done = np.flatnonzero(ended)
        self._lanes.restart(done)          # finished games start again as new games
        return done, results[done]
