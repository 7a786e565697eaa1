"""Rollouts: the outcome chances of a position estimated by playing it out.

>>> r = rollout(games=1296, policy="pubeval", seed=1, workers=1)
>>> r.games, round(r.win, 2)
(1296, 0.52)

Games run in the Cython loop without the GIL, cut into fixed chunks with one
spawned ``SeedSequence`` each, so a seed gives the same result whatever the
number of workers or the executor (local processes by default; any
``concurrent.futures.Executor``, such as a Dask client's ``get_executor()``).
"""
from __future__ import annotations

import math
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, dataclass
from importlib import resources

import numpy as np

from . import _board, _rollout, bearoff
from .match import _seed_sequence
from .position import Position

__all__ = ["rollout", "RolloutResult", "VectorGames", "POLICIES", "pubeval", "tesauro_inputs", "race_chances"]

POLICIES = {"random": 0, "pubeval": 1}
CHUNK = 1296    # games per chunk: one full cycle of the first two stratified rolls

_weights_loaded = False


def _load_pubeval() -> None:
    global _weights_loaded
    if not _weights_loaded:
        text = resources.files("backgammon").joinpath("data/pubeval_weights.csv").read_text()
        w = np.loadtxt(text.splitlines(), delimiter=",", skiprows=1)[:, 1:]
        _rollout.set_pubeval_weights(np.ascontiguousarray(w))
        _weights_loaded = True


def pubeval(boards, race=None) -> np.ndarray:
    """Tesauro's pubeval score of positions after a play, for the side that
    played (row 0 of the (n, 2, 25) boards, the next mover's view); ``race``
    picks the weights (default: from each board).  Higher is better.
    """
    _load_pubeval()
    return _rollout.pubeval_batch(_boards(boards), race)


def tesauro_inputs(boards) -> np.ndarray:
    """The 198 TD-Gammon inputs of (n, 2, 25) boards, float32 (n, 198):
    side on roll then opponent, each 24 points x 4 units (1, 2, 3 checkers
    and (n - 3) / 2 beyond), bar / 2, borne off / 15; then (1, 0) for the
    turn."""
    return _rollout.tesauro_inputs(_boards(boards))


def race_chances(boards) -> np.ndarray:
    """The race evaluator: exact chances of the side on roll (row 1) to win,
    win a gammon and lose a gammon, (n, 3), for boards where both sides are
    bearing off, from the two-sided table when both fit in it and the
    one-sided distributions otherwise.

    >>> board = np.zeros((1, 2, 25), dtype=np.uint8); board[0, :, 5] = 1   # one on each 6-point
    >>> race_chances(board).round(4).tolist()
    [[0.8125, 0.0, 0.0]]
    """
    b = _boards(boards)
    outside = ~_board.all_home(b)
    if outside.any():
        raise bearoff.OutsideDatabaseError(f"board {int(np.argmax(outside))}: a checker is outside the home board or on the bar")
    tables = _tables()
    return _rollout.bearoff_estimates(b, **tables)


def _boards(boards) -> np.ndarray:
    from .batch import validate_boards
    return validate_boards(boards)


@dataclass(frozen=True)
class RolloutResult:
    """Chances for the side on roll (gammons include backgammons), the
    cubeless equity, their standard errors, and the speed."""

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
        d["games_per_second"] = self.games_per_second
        return d


def _stats(results: np.ndarray) -> np.ndarray:
    """Per-game (win, wg, wbg, lg, lbg, equity) sums and sums of squares."""
    equity = 2 * results[:, 0] - 1 + results[:, 1] - results[:, 3] + results[:, 2] - results[:, 4]
    values = np.column_stack([results, equity])
    return np.concatenate([values.sum(axis=0), (values ** 2).sum(axis=0)])


def _tables():
    os_db = bearoff.one_sided()
    ts = bearoff.two_sided()
    return dict(one_sided=os_db.table, gammon=os_db.gammon_table, two_sided=ts.records,
                two_sided_checkers=ts.checkers)


def _run_chunk(task) -> np.ndarray:
    """One chunk of games; module level so that worker processes can run it."""
    start, first, n, seed, policy0, policy1, stratify, truncate = task
    _load_pubeval()
    tables = _tables() if truncate is not None else {}
    gen = np.random.Generator(np.random.PCG64(seed))
    results = _rollout.play_games(np.frombuffer(start, dtype=np.uint8), first, n, gen, policy0, policy1,
                                  stratify, -1 if truncate is None else truncate, **tables)
    return _stats(results)


def _policy_code(policy) -> tuple[int, int]:
    pair = (policy, policy) if isinstance(policy, str) else tuple(policy)
    if len(pair) != 2 or any(p not in POLICIES for p in pair):
        raise ValueError(f"unknown policy {policy!r}: choose from {', '.join(POLICIES)} (or a pair of them)")
    return POLICIES[pair[0]], POLICIES[pair[1]]


def rollout(position: Position | None = None, games: int = 1296, policy="pubeval", seed=None,
            stratify: bool = True, truncate: int | None = None, workers: int | None = None,
            executor: Executor | None = None, progress: bool = False, evaluator=None,
            chunk_size: int = CHUNK) -> RolloutResult:
    """Play ``position`` (default: the opening, side on roll to play)
    ``games`` times and return the chances for the side on roll.

    ``policy``: "pubeval" or "random" (or a pair: side on roll, opponent).
    ``stratify``: the first roll of game i is ordered roll i mod 36 and the
    second (i // 36) mod 36, so every 1,296 games see every pair once.
    ``truncate=k``: from ply k on, a game stops as soon as both sides are
    bearing off and counts the bear-off tables' exact chances.
    ``workers``: local processes (default: all cores; 1 runs here);
    ``executor``: any ``concurrent.futures.Executor`` instead (e.g. Dask's).
    ``evaluator``: a callable scoring a batch (m, 2, 25) of positions after
    a play for the side that played; games then run in lockstep
    (``VectorGames``) and it is called once per ply for all of them.
    """
    position = Position.initial() if position is None else position
    if not isinstance(position, Position):
        raise TypeError("position must be a backgammon.Position")
    if position.is_game_over():
        raise ValueError("the game is over in this position: nothing to roll out")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0:
        raise ValueError(f"games must be a positive whole number, not {games!r}")
    if truncate is not None and (isinstance(truncate, bool) or not isinstance(truncate, (int, np.integer)) or truncate < 0):
        raise ValueError(f"truncate must be a number of plies >= 0 or None, not {truncate!r}")
    truncate = None if truncate is None else int(truncate)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive whole number, not {workers!r}")
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError("chunk_size must be a positive whole number")
    games = int(games)
    if evaluator is not None:
        if executor is not None or (workers or 1) > 1:
            raise ValueError("an evaluator runs its lockstep games in this process: no workers or executor")
        return _rollout_with_evaluator(position, games, evaluator, seed, stratify, truncate, progress)
    policies = _policy_code(policy)
    root = _seed_sequence(seed)
    n_chunks = -(-games // chunk_size)
    seeds = root.spawn(n_chunks)
    start = position.to_bytes()
    tasks = [(start, k * chunk_size, min(chunk_size, games - k * chunk_size), seeds[k], *policies, stratify, truncate)
             for k in range(n_chunks)]
    t0 = time.perf_counter()
    bar = _progress(progress, games)
    own_pool = None
    try:
        if executor is None and (workers or os.cpu_count() or 1) > 1 and n_chunks > 1:
            own_pool = ProcessPoolExecutor(max_workers=min(workers or os.cpu_count() or 1, n_chunks))
            executor = own_pool
        if executor is None:
            parts = []
            for task in tasks:
                parts.append(_run_chunk(task))
                bar.update(task[2])
        else:
            futures = [executor.submit(_run_chunk, task) for task in tasks]
            parts = []
            for task, future in zip(tasks, futures):   # summed in chunk order: same floats
                parts.append(future.result())
                bar.update(task[2])
    finally:
        bar.close()
        if own_pool is not None:
            own_pool.shutdown()
    total = np.zeros(12)
    for part in parts:
        total += part
    return _result(total, games, time.perf_counter() - t0)


def _result(total: np.ndarray, games: int, seconds: float) -> RolloutResult:
    mean = total[:6] / games
    var = np.maximum(total[6:] / games - mean ** 2, 0.0)
    se = np.sqrt(var / max(games - 1, 1))
    return RolloutResult(games, *map(float, mean), *map(float, se), seconds)


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def _progress(on: bool, total: int):
    if not on:
        return _NoBar()
    from tqdm import tqdm
    return tqdm(total=total, unit="game", unit_scale=True, leave=False)


# -- lockstep games for external evaluators ----------------------------------------------

class VectorGames:
    """``n`` games in lockstep for evaluators that score positions in batches.

    Each ``step``: ``candidates()`` rolls for every game in play and returns
    the CSR batch of the positions each can reach (``offsets`` (n + 1,),
    ``children`` (total, 2, 25) with row 0 the side that played, optionally
    the 198 TD-Gammon inputs); ``advance(choices)`` takes one index per game
    (into that game's candidates), plays it, and returns the games that
    ended with their results (win, win gammon, win backgammon, lose gammon,
    lose backgammon for the side on roll at the start), restarting them.

    >>> vg = VectorGames(4, seed=0)
    >>> offsets, children = vg.candidates()
    >>> ended, results = vg.advance(np.zeros(4, dtype=int))
    >>> offsets.shape, ended.tolist()
    ((5,), [])
    """

    def __init__(self, n: int, seed=None, position: Position | None = None, stratify: bool = True,
                 truncate: int | None = None):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive whole number of games, not {n!r}")
        self.n = int(n)
        position = Position.initial() if position is None else position
        if not isinstance(position, Position):
            raise TypeError("position must be a backgammon.Position")
        if position.is_game_over():
            raise ValueError("the game is over in this position: there is nothing to play")
        if truncate is not None and (isinstance(truncate, bool) or not isinstance(truncate, (int, np.integer)) or truncate < 0):
            raise ValueError(f"truncate must be a number of plies >= 0 or None, not {truncate!r}")
        self.start = position.array
        self.stratify = stratify
        self.truncate = truncate
        self._rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.boards = np.repeat(self.start[None], self.n, axis=0)
        self.turn = np.zeros(self.n, dtype=np.int8)      # 0: the side on roll at the start
        self.ply = np.zeros(self.n, dtype=np.int64)
        self.index = np.arange(self.n, dtype=np.int64)   # game numbers, for stratified rolls
        self._next_index = self.n
        self._offsets = None
        self._children = None
        self._tables = _tables() if truncate is not None else None

    def _roll(self) -> np.ndarray:
        rolls = self._rng.integers(1, 7, size=(self.n, 2), dtype=np.uint8)
        if self.stratify:
            for ply in (0, 1):
                at = self.ply == ply
                k = (self.index[at] if ply == 0 else self.index[at] // 36) % 36
                rolls[at, 0] = k // 6 + 1
                rolls[at, 1] = k % 6 + 1
        return rolls

    def candidates(self, encode: bool = False):
        from .batch import legal_positions
        rolls = self._roll()
        self._offsets, self._children = legal_positions(self.boards, rolls, validate=False)
        if encode:
            return self._offsets, self._children, _rollout.tesauro_inputs(self._children)
        return self._offsets, self._children

    def advance(self, choices):
        if self._offsets is None:
            raise ValueError("call candidates() before advance()")
        choices = np.asarray(choices, dtype=np.int64)
        counts = np.diff(self._offsets)
        if choices.shape != (self.n,) or (choices < 0).any() or (choices >= counts).any():
            raise ValueError("advance() takes one index per game, within that game's candidates")
        chosen = self._children[self._offsets[:-1] + choices]
        self._offsets = self._children = None
        winner, kind = _board.results(chosen)
        mover_off = winner == 0          # row 0: the side that just played
        results = np.zeros((self.n, 5))
        if mover_off.any():
            gammon = kind[mover_off] >= 2
            backgammon = kind[mover_off] == 3
            us = self.turn[mover_off] == 0
            r = np.zeros((mover_off.sum(), 5))
            r[us, 0] = 1
            r[us, 1] = gammon[us]
            r[us, 2] = backgammon[us]
            r[~us, 3] = gammon[~us]
            r[~us, 4] = backgammon[~us]
            results[mover_off] = r
        self.boards = chosen
        self.turn ^= 1
        self.ply += 1
        ended = mover_off.copy()
        if self._tables is not None:
            cut = ~ended & (self.ply >= self.truncate) & _board.all_home(self.boards)
            if cut.any():
                est = _rollout.bearoff_estimates(np.ascontiguousarray(self.boards[cut]), **self._tables)
                us = self.turn[cut] == 0
                r = np.zeros((cut.sum(), 5))
                r[:, 0] = np.where(us, est[:, 0], 1 - est[:, 0])
                r[:, 1] = np.where(us, est[:, 1], est[:, 2])
                r[:, 3] = np.where(us, est[:, 2], est[:, 1])
                results[cut] = r
                ended |= cut
        done = np.flatnonzero(ended)
        out = results[done]
        # Restart the finished games as new games.
        self.boards[done] = self.start
        self.turn[done] = 0
        self.ply[done] = 0
        self.index[done] = np.arange(self._next_index, self._next_index + len(done))
        self._next_index += len(done)
        return done, out


def _rollout_with_evaluator(position, games, evaluator, seed, stratify, truncate, progress) -> RolloutResult:
    t0 = time.perf_counter()
    vg = VectorGames(min(games, 1024), seed=seed, position=position, stratify=stratify, truncate=truncate)
    collected = []
    started = vg.n
    active = np.ones(vg.n, dtype=bool)
    bar = _progress(progress, games)
    try:
        while sum(len(c) for c in collected) < games:
            offsets, children = vg.candidates()
            values = np.asarray(evaluator(children), dtype=np.float64)
            if values.shape != (len(children),):
                raise ValueError(f"the evaluator returned values of shape {values.shape} for {len(children)} positions; "
                                 f"expected ({len(children)},)")
            if np.isnan(values).any():
                raise ValueError(f"the evaluator returned NaN for position {int(np.argmax(np.isnan(values)))} of the batch")
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
