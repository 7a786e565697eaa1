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
from ._parallel import Interrupted, run_chunks
from ._validate import flag, instance, integer, optional_integer
from .dice import seed_sequence
from .evaluation import equity
from .lockstep import MAX_PLIES, VectorGames
from .players import Player, player
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
    start, first, n, seed, sides, stratify, truncate = task
    if all(policy is not None for policy, _ in sides):
        load_weights()
        (code0, nets0), (code1, nets1) = (policy for policy, _ in sides)
        nets = nets0 if nets0 is not None else nets1
        if nets is None and _choice.Policy.POLICY_NET in (code0, code1):
            from .network import default
            nets = default()
        tables = bearoff.kernel_tables() if truncate is not None else {}
        gen = np.random.Generator(np.random.PCG64(seed))
        results = _rollout.play_games(np.frombuffer(start, dtype=np.uint8), first, n, gen, code0, code1,
                                      stratify, -1 if truncate is None else truncate, nets=nets, **tables)
        return _stats(results)
    dice_seed, *player_seeds = seed.spawn(3)
    made = [given if isinstance(given, _Scorer) else player(given, seed=s)
            for (_, given), s in zip(sides, player_seeds)]
    try:
        return _stats(_lockstep(Position.from_bytes(start, validate=False), first, n, dice_seed, made,
                                stratify, truncate))
    finally:
        for (_, given), p in zip(sides, made):
            if p is not given and isinstance(p, Player):
                p.close()


#: Games a lockstep chunk plays at once.
LANES = 1024


def _lockstep(position: Position, first: int, n: int, seed, players, stratify: bool,
              truncate: int | None) -> np.ndarray:
    """``n`` games from ``position`` played in lockstep, numbered from
    ``first`` for the stratified rolls: ``players[0]`` moves for the side on
    roll at the start, ``players[1]`` for its opponent (a ``_Scorer`` for
    both); their results (n, 5)."""
    lanes = min(n, LANES)
    vg = VectorGames(lanes, seed=np.random.Generator(np.random.PCG64(seed)), position=position,
                     stratify=stratify, truncate=truncate, first=first)
    out = np.zeros((n, 5))
    got = 0
    started = lanes
    active = np.ones(lanes, dtype=bool)        # lanes whose games count
    while got < n:
        offsets, children = vg.candidates()
        if isinstance(players[0], _Scorer):
            choices = players[0].choose(children, offsets)
        else:
            choices = np.zeros(lanes, dtype=np.int64)
            for side in (0, 1):
                rows = np.flatnonzero(vg.turn == side)
                if len(rows):
                    choices[rows] = players[side].choose_indices(vg.boards[rows], vg.rolls[rows])
        ended, results = vg.advance(choices)
        keep = active[ended]
        take = results[keep][:n - got]
        out[got:got + len(take)] = take
        got += len(take)
        # A lane whose game ended starts another while more are wanted.
        for lane in ended[keep]:
            if started >= n:
                active[lane] = False
            else:
                started += 1
    return out


class _Scorer:
    """``rollout``'s ``evaluator``, choosing the plays of every game at
    once: either scores (m,) of the positions after each play for the side
    that played (higher is better), or an Evaluator's chances (m, 5) of the
    side then on roll (lower equity is better)."""

    def __init__(self, fn):
        self.fn = fn

    def choose(self, children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        values = np.asarray(self.fn(children), dtype=np.float64)
        if values.shape == (len(children), 5):
            values = -equity(values)
        elif values.shape != (len(children),):
            raise ValueError(f"evaluator returned values of shape {values.shape} for {len(children)} positions; "
                             f"expected ({len(children)},) scores or ({len(children)}, 5) chances")
        if np.isnan(values).any():
            raise ValueError(f"evaluator returned NaN for position {int(np.argmax(np.isnan(values)))} of the batch")
        return _argmax_segments(values, offsets)


def _side(given) -> tuple:
    """How one side's player reaches a chunk: ``(policy, given)``, the game
    loop's (code, networks) when the kernel can play for it (else None), and
    the spec (the player is made where the chunk runs) or the Player."""
    made = player(given, name="policy")
    policy = made.kernel_policy()
    if made is not given:
        made.close()
    return policy, given


def _sides(policy) -> list:
    pair = (policy, policy) if isinstance(policy, (str, Player)) else policy
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise TypeError(f"policy must be a player spec, a Player or a pair of them, not {type(policy).__name__}")
    for p in pair:
        if not isinstance(p, (str, Player)):
            raise TypeError(f"policy must be a player spec, a Player or a pair of them, not a pair holding "
                            f"{type(p).__name__}")
    return [_side(p) for p in pair]


def rollout(position: Position | None = None, *, games: int = 1296, policy="pubeval", seed=None,
            stratify: bool = True, truncate: int | None = None, workers: int | None = None,
            executor: Executor | None = None, progress: bool = False, evaluator=None,
            chunk_size: int = CHUNK) -> RolloutResult:
    """Play ``position`` (default: the opening, side on roll to play)
    ``games`` times and return the chances for the side on roll.

    ``policy``: who plays: a player spec (see :func:`backgammon.player`:
    "pubeval", "net", "net:1", "gnubg", a registered name, ...) or a
    Player, or a pair of them (side on roll, opponent).  The kernel
    policies ("random", "pubeval", "net") play in the Cython loop without
    the GIL; any other player plays its chunk's games in lockstep, one
    ``choose_indices`` call per ply for all of them.  ``stratify``: the
    first roll of game i is ordered roll i mod 36 and the second
    (i // 36) mod 36, so every 1,296 games see every pair once.
    ``truncate=k``: from the k-th play of a game on, it stops as soon as
    both sides have every checker home and counts the bear-off tables'
    exact chances (gnubg's "truncate at bear-off database").
    ``workers``: local processes (default: all cores; 1 runs here);
    ``executor``: any ``concurrent.futures.Executor`` instead (e.g. Dask's);
    players given as objects (not specs, and not kernel policies) play in
    this process.  ``evaluator``: plays for both sides instead, choosing
    from a batch of the positions after each play of every game, called
    once per ply: an Evaluator (chances (m, 5) of the side then on roll)
    or a scorer ((m,) values for the side that played, higher is better).
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
        scorer = _Scorer(evaluator)
        sides = [(None, scorer), (None, scorer)]
    else:
        sides = _sides(policy)
    # Player objects (and scorers) stay in this process, unless the kernel plays for both.
    here = any(not isinstance(given, str) for _, given in sides) and any(p is None for p, _ in sides)
    n_chunks = -(-games // chunk_size)
    seeds = root.spawn(n_chunks)
    start = position.to_bytes()
    tasks = [(start, k * chunk_size, min(chunk_size, games - k * chunk_size), seeds[k], sides, stratify, truncate)
             for k in range(n_chunks)]
    t0 = time.perf_counter()
    try:
        parts = run_chunks(_run_chunk, tasks, [t[2] for t in tasks], workers=1 if here else workers,
                           executor=None if here else executor, progress=progress, unit="game")
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




def _argmax_segments(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Index of the first maximum within each CSR segment."""
    seg = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    best = np.maximum.reduceat(values, offsets[:-1])
    hit = np.flatnonzero(values == best[seg])
    first = np.unique(seg[hit], return_index=True)[1]
    return hit[first] - offsets[:-1]
