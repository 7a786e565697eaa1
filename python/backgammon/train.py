"""Training the networks from nothing by self-play (``backgammon train``).

The networks play greedy 0-ply games against themselves through the
project's move generator and learn by TD(0): after every play, the
position the opponent now faces is moved toward the value of the position
after its reply, seen from its side; a game ends when a side is off or both
sides are home (the bear-off tables then give the exact value).  The work
is cut into chunks of ``CHUNK`` games; chunk k draws its dice from
``SeedSequence(seed, spawn_key=(k,))`` and its step size from the games
played before it, so a run stopped at a checkpoint and resumed gives the
same weights as one that never stopped.

>>> import tempfile, os
>>> out = os.path.join(tempfile.mkdtemp(), "nets.npz")
>>> result = train(games=20, seed=1, out=out, progress=False, chunk=10)
>>> result.games, os.path.exists(out)
(20, True)
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import _net, network
from ._parallel import on_threads

__all__ = ["train", "TrainResult", "CHUNK", "step_size"]

CHUNK = 1000
FORMAT = 1
REFINE_GAMES = 4000      # self-play games whose positions one refinement round learns
REFINE_EPOCHS = 4
REFINE_ALPHA = 0.05
REFINE_KEY = 1 << 30     # spawn key of the refinement rounds, apart from the TD chunks


def step_size(alpha: float, games_before: int, half_life: int) -> float:
    """The step size of a chunk: ``alpha / sqrt(1 + games_before / half_life)``."""
    return alpha / float(np.sqrt(1.0 + games_before / half_life))


@dataclass(frozen=True)
class TrainResult:
    games: int
    seconds: float
    mean_squared_error: float
    out: str


def _meta(seed, games, seconds, alpha, half_life, contact_hidden, race_hidden, chunk, command) -> dict:
    return {"format": FORMAT, "seed": seed, "games": games, "seconds": round(seconds, 1), "alpha": alpha,
            "half_life": half_life, "contact_hidden": contact_hidden, "race_hidden": race_hidden,
            "chunk": chunk, "command": command,
            "method": "TD(0) greedy 0-ply self-play, then rounds of 1-ply search distillation"}


def _check_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, not {value}")
    return int(value)


def train(games: int, seed: int = 0, out="nets.npz", *, checkpoint=None, resume: bool = True,
          alpha: float = 0.1, half_life: int = 200_000, contact_hidden: int = 128, race_hidden: int = 64,
          chunk: int = CHUNK, checkpoint_every: int = 20, refine_rounds: int = 0,
          refine_games: int = REFINE_GAMES, refine_epochs: int = REFINE_EPOCHS, refine_alpha: float = REFINE_ALPHA,
          threads: int | None = None, progress: bool = True) -> TrainResult:
    """Train for ``games`` self-play games in total, then ``refine_rounds``
    rounds of search distillation, and write ``out``.

    ``checkpoint`` (default ``out`` + ``.ckpt``) is written every
    ``checkpoint_every`` chunks and after every round; with ``resume`` an
    existing checkpoint of the same settings is continued.  Returns the
    games played, the seconds spent in this call and the last mean squared
    error.
    """
    games = _check_int("games", games, 0)
    seed = _check_int("seed", seed, 0)
    refine_rounds = _check_int("refine_rounds", refine_rounds, 0)
    refine_games = _check_int("refine_games", refine_games, 1)
    refine_epochs = _check_int("refine_epochs", refine_epochs, 1)
    if threads is not None:
        threads = _check_int("threads", threads, 1)
    chunk = _check_int("chunk", chunk, 1)
    half_life = _check_int("half_life", half_life, 1)
    out = Path(out)
    checkpoint = Path(checkpoint) if checkpoint is not None else out.with_name(out.name + ".ckpt")
    settings = dict(seed=seed, alpha=alpha, half_life=half_life, contact_hidden=contact_hidden,
                    race_hidden=race_hidden, chunk=chunk)
    done, spent, rounds_done = 0, 0.0, 0
    arrays = None
    if resume and checkpoint.exists():
        arrays, meta = network.read(checkpoint)
        if any(meta.get(k) != v for k, v in settings.items()):
            raise ValueError(f"{checkpoint} was made with other settings: {meta}")
        done, spent = int(meta["games"]), float(meta["seconds"])
        rounds_done = int(meta.get("refine_rounds", 0))
        if done > games or rounds_done > refine_rounds or (rounds_done and done != games):
            raise ValueError(f"{checkpoint} already holds {done} games and {rounds_done} rounds, "
                             f"more than games={games}, refine_rounds={refine_rounds}")
    if arrays is None:
        arrays = network.new_arrays(seed, contact_hidden, race_hidden)
    nets = network.networks(arrays)
    command = f"backgammon train --games {games} --seed {seed}" + (
        f" --refine-rounds {refine_rounds}" if refine_rounds else "") + (
        f" --refine-games {refine_games}" if refine_rounds and refine_games != REFINE_GAMES else "") + (
        f" --out {out.name}")
    refine = dict(refine_rounds=refine_rounds, refine_games=refine_games, refine_epochs=refine_epochs,
                  refine_alpha=refine_alpha)

    def meta_now(rounds: int) -> dict:
        m = _meta(seed, done, spent + time.perf_counter() - t0, alpha, half_life, contact_hidden, race_hidden,
                  chunk, command)
        m.update(refine, refine_rounds=rounds)
        return m

    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=games, initial=done, unit="game", unit_scale=True, smoothing=0.05)
    t0 = time.perf_counter()
    mse = float("nan")
    chunks = 0
    try:
        while done < games:
            k = done // chunk
            n = min(chunk, games - done)
            gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(k,))))
            a = step_size(alpha, done, half_life)
            _, err, updates, _ = _net.selfplay_train(nets, n, gen, a, a)
            mse = err / max(updates, 1) / 5
            done += n
            chunks += 1
            if bar is not None:
                bar.update(n)
                bar.set_postfix(mse=f"{mse:.4f}", alpha=f"{a:.4f}")
            if chunks % checkpoint_every == 0 and (done < games or refine_rounds):
                network.save(checkpoint, arrays, meta_now(0))
        if bar is not None:
            bar.close()
            bar = None
        while rounds_done < refine_rounds:
            mse = refine_round(nets, seed, rounds_done, refine_games, refine_epochs, refine_alpha, threads)
            rounds_done += 1
            if progress:
                print(f"refinement round {rounds_done}/{refine_rounds}: mse {mse:.5f}", file=sys.stderr, flush=True)
            if rounds_done < refine_rounds:
                network.save(checkpoint, arrays, meta_now(rounds_done))
    except KeyboardInterrupt:
        # Chunks and rounds run whole (the kernels hold no GIL), so the
        # weights are those of the work counted: keep them for a resume.
        network.save(checkpoint, arrays, meta_now(rounds_done))
        raise
    finally:
        if bar is not None:
            bar.close()
    network.save(out, arrays, meta_now(rounds_done))
    if checkpoint.exists() and checkpoint != out:
        checkpoint.unlink()
    return TrainResult(done, time.perf_counter() - t0, mse, str(out))


def refine_round(nets, seed: int, round_index: int, games: int, epochs: int, alpha: float,
                 threads: int | None = None) -> float:
    """One round of search distillation: positions from ``games`` games of
    0-ply self-play, each given its 1-ply value by the networks as they
    are, then ``epochs`` passes of gradient descent toward those values.
    Returns the mean squared error of the last pass."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(REFINE_KEY, round_index))))
    boards = _net.sample_positions(nets, games, rng)
    targets = np.ascontiguousarray(on_threads(lambda part: _net.evaluate(nets, part, 1), boards, threads, 64))
    mse = float("nan")
    for _ in range(epochs):
        mse = _net.train_supervised(nets, boards, targets, rng.permutation(len(boards)), alpha, alpha)
    return mse
