"""A rollout's plan: its checked options, who plays each side (player
specs and Players, by the registry), and its games cut into chunks, each
with its own spawned seed, run on local processes or an executor
(:func:`backgammon._parallel.run_chunks`)."""
from __future__ import annotations

import time
import warnings
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._parallel import Interrupted, run_chunks
from .._validate import flag, instance, integer, optional_integer
from ..batch import legal_positions
from ..dice import seed_sequence
from ..lockstep import MAX_GAME, MAX_PLIES
from ..matchid import MatchState
from ..players import Player, player
from ..position import Position
from ..rules import Rules
from ..scoring import equity
from .loop import Games, Task, run_chunk
from .statistics import merge, summary

__all__ = ["Plan", "plan", "RolloutSettings", "RolloutInterrupted", "Scorer", "CHUNK", "checked_position",
           "checked_state"]

CHUNK = 1296    # games per chunk: one full cycle of the first two stratified rolls


class RolloutInterrupted(KeyboardInterrupt):
    """Ctrl-C during a rollout (a ``KeyboardInterrupt``).

    Attributes
    ----------
    games : int
        Games finished before it.
    partial : RolloutResult, list of RolloutResult or None
        Their result (one per candidate for several starts); None when no
        chunk had finished.

    Examples
    --------
    >>> e = RolloutInterrupted(1296)
    >>> str(e), e.partial, isinstance(e, KeyboardInterrupt)
    ('interrupted after 1,296 games', None, True)
    """

    def __init__(self, games: int, partial=None):
        super().__init__(f"interrupted after {games:,} games")
        self.games = games
        self.partial = partial


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out, for ``hint(..., rollout=settings)`` and
    ``analyse(..., rollout=settings)``.

    Parameters
    ----------
    games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, workers, executor, progress, chunk_size
        The keyword arguments of :func:`~backgammon.rollouts.rollout`,
        with its defaults.

    Examples
    --------
    >>> import backgammon as bg
    >>> settings = RolloutSettings(games=36, seed=1, workers=1)
    >>> str(bg.hint(bg.Position.initial(), "31", rollout=settings, top=2)[0].play)
    '8/5 6/5'
    """

    games: int = 1296
    policy: Any = "net"
    cube_policy: Any = None
    seed: Any = None
    stratify: bool = True
    truncate: int | None = None
    bearoff: bool = False
    variance_reduction: bool = True
    workers: int | None = None
    executor: Executor | None = None
    progress: bool = False
    chunk_size: int = CHUNK

    def options(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


# -- who plays -------------------------------------------------------------------------------

def _side(given, name: str) -> tuple:
    """How one side's player reaches a chunk: ``(policy, given)``, the game
    loop's (code, networks) when the kernel can play for it (else None), and
    the spec (the player is made where the chunk runs) or the Player."""
    made = player(given, name=name)
    policy = made.kernel_policy()
    if made is not given:
        made.close()
    return policy, given


def _pair(policy, name: str) -> tuple:
    if hasattr(policy, "__backgammon_evaluator__"):
        policy = player(policy, name=name)          # a native evaluator: its 0-ply player
    pair = (policy, policy) if isinstance(policy, (str, Player)) else policy
    if isinstance(pair, (tuple, list)):
        pair = [player(p, name=name) if hasattr(p, "__backgammon_evaluator__") else p for p in pair]
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise TypeError(f"{name} must be a player spec, a Player or a pair of them, not {type(policy).__name__}")
    for p in pair:
        if not isinstance(p, (str, Player)):
            raise TypeError(f"{name} must be a player spec, a Player or a pair of them, not a pair holding "
                            f"{type(p).__name__}")
    return tuple(_side(p, name) for p in pair)


class Scorer(Player):
    """``rollout``'s ``scorer`` (or ``evaluator``): plays for both sides,
    choosing from the positions after each play of every game of a ply in
    one call.  A scorer gives values (m,) for the side that played (higher
    is better); an Evaluator the chances (m, 5) of the side then on roll
    (lower equity is better)."""

    def __init__(self, fn, name: str = "scorer"):
        self.fn, self.name, self.spec = fn, name, name
        self._warned = False

    def choose_indices(self, boards, rolls):
        offsets, children = legal_positions(boards, rolls, validate=False, threads=1)
        values = np.asarray(self.fn(children), dtype=np.float64)
        if values.shape == (len(children), 5):
            values = -equity(values)
        elif values.shape != (len(children),):
            raise ValueError(f"{self.name} returned values of shape {values.shape} for {len(children)} positions; "
                             f"expected ({len(children)},) scores or ({len(children)}, 5) chances")
        elif self.name == "evaluator" and not self._warned:
            self._warned = True
            warnings.warn("rollout(evaluator=...) given scores: pass a scorer as scorer=; evaluator= is an "
                          "Evaluator (chances of the side on roll), as everywhere else", DeprecationWarning,
                          stacklevel=2)
        if np.isnan(values).any():
            raise ValueError(f"{self.name} returned NaN for position {int(np.argmax(np.isnan(values)))} of the batch")
        return _argmax_segments(values, offsets)


def _argmax_segments(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Index of the first maximum within each CSR segment."""
    seg = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    best = np.maximum.reduceat(values, offsets[:-1])
    hit = np.flatnonzero(values == best[seg])
    first = np.unique(seg[hit], return_index=True)[1]
    return hit[first] - offsets[:-1]


# -- the plan ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """A rollout's checked options and players (see :func:`plan`)."""

    games: int
    sides: tuple
    cube_sides: tuple | None
    play: Games
    workers: int | None
    executor: Executor | None
    progress: bool
    chunk_size: int
    seed: Any

    def turned(self) -> "Plan":
        """The same plan with the sides swapped: the opponent of the side
        on roll plays first (a start after a play)."""
        cube = None if self.cube_sides is None else (self.cube_sides[1], self.cube_sides[0])
        return replace(self, sides=(self.sides[1], self.sides[0]), cube_sides=cube)

    def roll(self, starts) -> tuple[list, float]:
        """Every start played ``games`` times (same chunks, same dice): the
        per-game arrays of each chunk's starts, and the seconds taken.
        The chunks and their seeds are made as they are run, so a run of
        any length starts at once."""
        root = seed_sequence(self.seed)
        size = self.chunk_size
        n_chunks = -(-self.games // size)
        objects = any(not isinstance(given, str) and policy is None
                      for policy, given in self.sides + (self.cube_sides or ()))
        starts = tuple(starts)

        def tasks():
            # root.spawn(1) chunk by chunk gives the children root.spawn(n_chunks) gives.
            for k in range(n_chunks):
                yield Task(starts, k * size, min(size, self.games - k * size), root.spawn(1)[0], self.sides,
                           self.cube_sides, self.play)

        sizes = (min(size, self.games - k * size) * len(starts) for k in range(n_chunks))
        t0 = time.perf_counter()
        try:
            parts = run_chunks(run_chunk, tasks(), sizes, workers=1 if objects else self.workers,
                               executor=None if objects else self.executor, progress=self.progress, unit="game",
                               count=n_chunks, total=self.games * len(starts))
        except Interrupted as stop:
            done = min(self.games, len(stop.done) * size)
            partial = None
            if done:
                partial = [self.summary(merge(stop.done, k), time.perf_counter() - t0, starts[k].state)
                           for k in range(len(starts))]
            raise RolloutInterrupted(done, partial[0] if partial and len(partial) == 1 else partial) from None
        return parts, time.perf_counter() - t0

    def summary(self, part: dict, seconds: float, state: MatchState | None):
        """The RolloutResult of one start's merged games."""
        return summary(part, seconds, self.play.reduce, self.play.truncate, state)


def plan(games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, workers, executor,
         progress, chunk_size, cube, rules, *, scorer=None, evaluator=None) -> Plan:
    """The checked options and players of a rollout."""
    games = integer("games", games, low=1, high=MAX_GAME)       # the game loop numbers its games in int64
    truncate = optional_integer("truncate", truncate, low=0, high=MAX_PLIES)
    workers = optional_integer("workers", workers, low=1)
    chunk_size = integer("chunk_size", chunk_size, low=1)
    stratify = flag("stratify", stratify)
    progress = flag("progress", progress)
    bearoff = flag("bearoff", bearoff)
    reduce = flag("variance_reduction", variance_reduction)
    cube = flag("cube", cube)
    rules = Rules() if rules is None else instance("rules", rules, Rules, "backgammon.Rules")
    if executor is not None:
        instance("executor", executor, Executor, "concurrent.futures.Executor")
    if scorer is not None and evaluator is not None:
        raise TypeError("give scorer or evaluator, not both")
    chooser, name = (scorer, "scorer") if scorer is not None else (evaluator, "evaluator")
    if name == "evaluator" and hasattr(chooser, "__backgammon_evaluator__"):
        # A native evaluator plays both sides in the kernel game loop.
        sides = _pair(chooser, "evaluator")
    elif chooser is not None:
        if not callable(chooser):
            raise TypeError(f"{name} must be callable, not {type(chooser).__name__}")
        if executor is not None or (workers or 1) > 1:
            raise ValueError(f"{name}: a {name} runs its lockstep games in this process, "
                             "so give no workers or executor")
        made = Scorer(chooser, name)
        sides = ((None, made), (None, made))
    else:
        sides = _pair(policy, "policy")
    cube_sides = None
    if cube:
        cube_sides = sides if cube_policy is None else _pair(cube_policy, "cube_policy")
    return Plan(games, sides, cube_sides, Games(rules, stratify, truncate, bearoff, reduce), workers, executor,
                progress, chunk_size, seed)


def checked_position(position) -> Position:
    """The position to roll out (default the opening), not over."""
    position = Position.initial() if position is None else instance("position", position, Position,
                                                                      "backgammon.Position")
    if position.is_game_over():
        raise ValueError("position: the game is over in this position, nothing to roll out")
    return position


def checked_state(state, cube: bool) -> MatchState | None:
    """The cube state of a rollout (money with a centred cube by default
    when ``cube``)."""
    if state is None:
        return MatchState() if cube else None
    return instance("state", state, MatchState, "backgammon.MatchState")
