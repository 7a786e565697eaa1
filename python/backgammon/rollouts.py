"""Rollouts: the outcome chances of a position estimated by playing it out.

>>> r = rollout(games=1296, policy="pubeval", seed=1, workers=1)
>>> r.games, round(r.win, 2)
(1296, 0.52)

Games run in the Cython loop without the GIL, cut into fixed chunks with one
spawned ``SeedSequence`` each, so a seed gives the same result whatever the
number of workers or the executor (local processes by default; any
``concurrent.futures.Executor``, such as a Dask client's ``get_executor()``).
Ctrl-C stops a rollout at once: pending chunks are cancelled, local workers
end, and :class:`RolloutInterrupted` (a ``KeyboardInterrupt``) carries the
games finished so far.
"""
from __future__ import annotations

import math
import time
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from typing import Any, cast

import numpy as np

from . import _choice, _rollout, bearoff
from ._parallel import Interrupted, progress_bar, run_chunks
from ._validate import flag, instance, integer, one_of, optional_integer
from .dice import seed_sequence
from .evaluation import equity
from .lockstep import MAX_PLIES, VectorGames
from .position import Position
from .pubeval import load_weights, pubeval, tesauro_inputs

__all__ = ["rollout", "RolloutResult", "RolloutInterrupted", "VectorGames", "POLICIES", "pubeval",
           "tesauro_inputs", "race_chances", "CHUNK"]

#: Policies of the game loop and their kernel codes.
POLICIES = {"random": _choice.Policy.POLICY_RANDOM, "pubeval": _choice.Policy.POLICY_PUBEVAL,
            "net": _choice.Policy.POLICY_NET}
CHUNK = 1296    # games per chunk: one full cycle of the first two stratified rolls


def race_chances(boards) -> np.ndarray:
    """The bear-off race chances of (n, 2, 25) boards: the same as
    :func:`backgammon.bearoff.race_chances` (kept here for old code)."""
    return bearoff.race_chances(boards)


@dataclass(frozen=True)
class RolloutResult:
    """Chances of the side on roll in the rolled-out position (gammons
    include backgammons), the cubeless equity, their standard errors, and
    the speed."""

    games: int
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    equity: float
    win_se: float
    win_gammon_se: float
    win_backgammon_se: float
    lose_gammon_se: float
    lose_backgammon_se: float
    equity_se: float
    seconds: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_dict(self) -> dict:
        d = asdict(self)
        d["lose"] = self.lose
        d["games_per_second"] = self.games_per_second
        return d


class RolloutInterrupted(KeyboardInterrupt):
    """Ctrl-C during a rollout: ``games`` finished before it and their
    ``partial`` result (None when no chunk had finished)."""

    def __init__(self, games: int, partial: RolloutResult | None):
        super().__init__(f"interrupted after {games:,} games")
        self.games = games
        self.partial = partial


def _stats(results: np.ndarray) -> np.ndarray:
    """Per-game (win, wg, wbg, lg, lbg, equity) sums and sums of squares."""
    values = np.column_stack([results, equity(results)])
    return np.concatenate([values.sum(axis=0), (values ** 2).sum(axis=0)])


def _run_chunk(task) -> np.ndarray:
    """One chunk of games; module level so that worker processes can run it."""
    start, first, n, seed, policy0, policy1, stratify, truncate = task
    load_weights()
    tables = bearoff.kernel_tables() if truncate is not None else {}
    nets = None
    if _choice.Policy.POLICY_NET in (policy0, policy1):
        from .network import default
        nets = default()
    gen = np.random.Generator(np.random.PCG64(seed))
    results = _rollout.play_games(np.frombuffer(start, dtype=np.uint8), first, n, gen, policy0, policy1,
                                  stratify, -1 if truncate is None else truncate, nets=nets, **tables)
    return _stats(results)


def _policy_code(policy) -> tuple[int, int]:
    pair = (policy, policy) if isinstance(policy, str) else policy
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise TypeError(f"policy must be a str or a pair of str, not {type(policy).__name__}")
    return tuple(POLICIES[one_of("policy", p, POLICIES)] for p in pair)  # type: ignore[return-value]


def rollout(position: Position | None = None, *, games: int = 1296, policy="pubeval", seed=None,
            stratify: bool = True, truncate: int | None = None, workers: int | None = None,
            executor: Executor | None = None, progress: bool = False, evaluator=None,
            chunk_size: int = CHUNK) -> RolloutResult:
    """Play ``position`` (default: the opening, side on roll to play)
    ``games`` times and return the chances for the side on roll.

    ``policy``: "pubeval", "net" (the shipped network at 0-ply, in the
    kernel without the GIL) or "random" (or a pair: side on roll,
    opponent).  ``stratify``: the first roll of game i is ordered roll
    i mod 36 and the second (i // 36) mod 36, so every 1,296 games see every
    pair once.  ``truncate=k``: from the k-th play of a game on, it stops as
    soon as both sides have every checker home and counts the bear-off
    tables' exact chances (gnubg's "truncate at bear-off database").
    ``workers``: local processes (default: all cores; 1 runs here);
    ``executor``: any ``concurrent.futures.Executor`` instead (e.g. Dask's).
    ``evaluator``: a callable scoring a batch (m, 2, 25) of positions after
    a play for the side that played; games then run in lockstep
    (``VectorGames``) and it is called once per ply for all of them.
    """
    position = Position.initial() if position is None else instance("position", position, Position,
                                                                      "backgammon.Position")
    if position.is_game_over():
        raise ValueError("position: the game is over in this position, nothing to roll out")
    games = integer("games", games, low=1)
    truncate = optional_integer("truncate", truncate, low=0, high=MAX_PLIES)
    workers = optional_integer("workers", workers, low=1)
    chunk_size = integer("chunk_size", chunk_size, low=1)
    stratify = flag("stratify", stratify)
    progress = flag("progress", progress)
    if executor is not None:
        instance("executor", executor, Executor, "concurrent.futures.Executor")
    root = seed_sequence(seed)
    if evaluator is not None:
        if not callable(evaluator):
            raise TypeError(f"evaluator must be callable, not {type(evaluator).__name__}")
        if executor is not None or (workers or 1) > 1:
            raise ValueError("evaluator: an evaluator runs its lockstep games in this process, "
                             "so give no workers or executor")
        return _rollout_with_evaluator(position, games, evaluator, root, stratify, truncate, progress)
    policies = _policy_code(policy)
    n_chunks = -(-games // chunk_size)
    seeds = root.spawn(n_chunks)
    start = position.to_bytes()
    tasks = [(start, k * chunk_size, min(chunk_size, games - k * chunk_size), seeds[k], *policies, stratify, truncate)
             for k in range(n_chunks)]
    t0 = time.perf_counter()
    try:
        parts = run_chunks(_run_chunk, tasks, [t[2] for t in tasks], workers=workers, executor=executor,
                           progress=progress, unit="game")
    except Interrupted as stop:
        done = sum(t[2] for t in tasks[:len(stop.done)])
        partial = _result(sum(stop.done, np.zeros(12)), done, time.perf_counter() - t0) if done else None
        raise RolloutInterrupted(done, partial) from None
    total = np.zeros(12)
    for part in parts:        # summed in chunk order: the same floats for any executor
        total += part
    return _result(total, games, time.perf_counter() - t0)


def _result(total: np.ndarray, games: int, seconds: float) -> RolloutResult:
    mean = total[:6] / games
    var = np.maximum(total[6:] / games - mean ** 2, 0.0)
    se = np.sqrt(var / max(games - 1, 1))
    return cast(Any, RolloutResult)(games, *map(float, mean), *map(float, se), seconds)


def _rollout_with_evaluator(position, games, evaluator, seed, stratify, truncate, progress) -> RolloutResult:
    t0 = time.perf_counter()
    vg = VectorGames(min(games, 1024), seed=np.random.Generator(np.random.PCG64(seed)), position=position,
                     stratify=stratify, truncate=truncate)
    collected: list[np.ndarray] = []
    started = vg.n
    active = np.ones(vg.n, dtype=bool)
    bar = progress_bar(progress, games, "game")
    try:
        while sum(len(c) for c in collected) < games:
            offsets, children = vg.candidates()
            values = np.asarray(evaluator(children), dtype=np.float64)
            if values.shape != (len(children),):
                raise ValueError(f"evaluator returned values of shape {values.shape} for {len(children)} positions; "
                                 f"expected ({len(children)},)")
            if np.isnan(values).any():
                raise ValueError(f"evaluator returned NaN for position {int(np.argmax(np.isnan(values)))} of the batch")
            choices = _argmax_segments(values, offsets)
            ended, results = vg.advance(choices)
            keep = active[ended]
            collected.append(results[keep])
            bar.update(int(keep.sum()))
            # Games beyond the requested number keep running but do not count.
            for i in ended[keep]:
                if started >= games:
                    active[i] = False
                else:
                    started += 1
    finally:
        bar.close()
    results = np.concatenate(collected)[:games]
    return _result(_stats(results), games, time.perf_counter() - t0)


def _argmax_segments(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Index of the first maximum within each CSR segment."""
    seg = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    best = np.maximum.reduceat(values, offsets[:-1])
    hit = np.flatnonzero(values == best[seg])
    first = np.unique(seg[hit], return_index=True)[1]
    return hit[first] - offsets[:-1]
