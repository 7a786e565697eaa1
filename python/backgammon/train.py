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

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import _net, network

__all__ = ["train", "TrainResult", "CHUNK", "step_size"]

CHUNK = 1000
FORMAT = 1


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
            "chunk": chunk, "command": command, "method": "TD(0) greedy 0-ply self-play"}


def _check_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, not {value}")
    return int(value)


def train(games: int, seed: int = 0, out="nets.npz", *, checkpoint=None, resume: bool = True,
          alpha: float = 0.1, half_life: int = 200_000, contact_hidden: int = 128, race_hidden: int = 64,
          chunk: int = CHUNK, checkpoint_every: int = 20, progress: bool = True) -> TrainResult:
    """Train for ``games`` self-play games in total and write ``out``.

    ``checkpoint`` (default ``out`` + ``.ckpt``) is written every
    ``checkpoint_every`` chunks; with ``resume`` an existing checkpoint of the
    same settings is continued.  Returns the games played, the seconds
    spent in this call and the mean squared TD error of the last chunk.
    """
    games = _check_int("games", games, 0)
    seed = _check_int("seed", seed, 0)
    chunk = _check_int("chunk", chunk, 1)
    half_life = _check_int("half_life", half_life, 1)
    out = Path(out)
    checkpoint = Path(checkpoint) if checkpoint is not None else out.with_name(out.name + ".ckpt")
    settings = dict(seed=seed, alpha=alpha, half_life=half_life, contact_hidden=contact_hidden,
                    race_hidden=race_hidden, chunk=chunk)
    done, spent = 0, 0.0
    arrays = None
    if resume and checkpoint.exists():
        arrays, meta = network.read(checkpoint)
        if any(meta.get(k) != v for k, v in settings.items()):
            raise ValueError(f"{checkpoint} was made with other settings: {meta}")
        done, spent = int(meta["games"]), float(meta["seconds"])
        if done > games:
            raise ValueError(f"{checkpoint} already holds {done} games, more than games={games}")
    if arrays is None:
        arrays = network.new_arrays(seed, contact_hidden, race_hidden)
    nets = network.networks(arrays)
    command = f"backgammon train --games {games} --seed {seed} --out {out.name}"
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
            if chunks % checkpoint_every == 0 and done < games:
                network.save(checkpoint, arrays, _meta(seed, done, spent + time.perf_counter() - t0, alpha, half_life,
                                                       contact_hidden, race_hidden, chunk, command))
    except KeyboardInterrupt:
        # Chunks run whole (the kernel holds no GIL), so the weights are those
        # of ``done`` games: keep them for a resume.
        network.save(checkpoint, arrays, _meta(seed, done, spent + time.perf_counter() - t0, alpha, half_life,
                                               contact_hidden, race_hidden, chunk, command))
        raise
    finally:
        if bar is not None:
            bar.close()
    seconds = spent + time.perf_counter() - t0
    network.save(out, arrays, _meta(seed, done, seconds, alpha, half_life, contact_hidden, race_hidden, chunk, command))
    if checkpoint.exists() and checkpoint != out:
        checkpoint.unlink()
    return TrainResult(done, time.perf_counter() - t0, mse, str(out))
