"""Training the networks from nothing (``backgammon train``), in stages.

1. **TD(0) self-play**: the networks play greedy 0-ply games against
   themselves through the project's move generator; after every play the
   position the opponent now faces is moved toward the value of the
   position after its reply, seen from its side; a game ends when a side
   is off or both sides are home (the bear-off tables then give the exact
   value).  The work is cut into chunks of ``CHUNK`` games; chunk k draws
   its dice from ``SeedSequence(seed, spawn_key=(k,))`` and its step size
   from the games played before it.
2. **Search distillation** (``refine_rounds``): positions of 0-ply
   self-play, each given its 1-ply value, learnt by gradient descent.
3. **Rollout-supervised rounds** (``rounds``): each round gathers positions
   from self-play, half where the 0-ply and 1-ply values of the networks
   disagree most (where the networks err) and half at random, labels each
   with a truncated, variance-reduced rollout by the current networks
   (:mod:`backgammon.rollouts`' game loop: ``label_games`` games of
   ``label_truncate`` plies, each roll's luck subtracted) and learns every
   label gathered so far.  The labels are kept beside the weights
   (``OUT.labels.npz``); the labelling runs on local processes or any
   ``concurrent.futures`` executor (a Dask client's), each position's dice
   keyed by the seed, the round and its number, so the result is the same
   whatever runs it.

4. **The pruning network** (``prune_games``): a small network over the
   raw inputs alone that learns the full networks' 0-ply chances of every
   play of positions from self-play, so that choosing a play can rank all
   plays with it and evaluate only the best few in full
   (:func:`fit_pruner`, docs/evaluation.md).

A run stopped at a checkpoint (written every ``checkpoint_every`` chunks
and after every round) and resumed gives the same weights as one that
never stopped; a round stopped in its labelling keeps the blocks it has
labelled (``label_block`` positions each) and resumes after them.

>>> import tempfile, os
>>> out = os.path.join(tempfile.mkdtemp(), "nets.npz")
>>> result = train(games=20, seed=1, out=out, progress=False, chunk=10)
>>> result.games, os.path.exists(out)
(20, True)
"""
from __future__ import annotations

import sys
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any
from pathlib import Path

import numpy as np

from . import _net, network
from ._parallel import BarWatch, on_threads, progress_bar, run_chunks, tally
from ._validate import number
from .scoring import equity

__all__ = ["train", "TrainResult", "CHUNK", "step_size", "label_positions", "select_positions", "fit_pruner"]

CHUNK = 1000
FORMAT = 2
REFINE_GAMES = 4000      # self-play games whose positions one refinement round learns
REFINE_EPOCHS = 4
REFINE_ALPHA = 0.05
REFINE_KEY = 1 << 30     # spawn key of the refinement rounds, apart from the TD chunks
ROUND_KEY = 1 << 31      # spawn key of the rollout-supervised rounds
LABEL_CHUNK = 64         # positions per labelling task
ROUND_POSITIONS = 20_000
LABEL_GAMES = 36
LABEL_TRUNCATE = 10
LABEL_BLOCK = 1_000      # positions a round labels between saves of its labels
ROUND_EPOCHS = 4
ROUND_ALPHA = 0.02
PRUNE_KEY = 3 << 30      # spawn key of the pruning network's positions and steps
PRUNE_GAMES = 4000       # self-play games whose plays the pruning network learns
PRUNE_HIDDEN = 32
PRUNE_EPOCHS = 8
PRUNE_EXPLORE = 0.1      # chance of a random play in those games, for variety
EXPLORE_WITHIN = 0.1     # equity from the best within which an exploring TD(0) play is chosen


def step_size(alpha: float, games_before: int, half_life: int) -> float:
    """The step size of a chunk: ``alpha / sqrt(1 + games_before / half_life)``."""
    return alpha / float(np.sqrt(1.0 + games_before / half_life))


@dataclass(frozen=True)
class TrainResult:
    games: int
    seconds: float
    mean_squared_error: float
    out: str
    rounds: int = 0
    labels: int = 0


def _check_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, not {value}")
    return int(value)


def _check_float(name, value, low=0.0):
    value = number(name, value)              # a finite number (an infinite step size is no step)
    if not value > low:
        raise ValueError(f"{name} must be > {low}, not {value}")
    return value


# -- labelling positions by rollouts ------------------------------------------------------

@dataclass(frozen=True)
class _LabelTask:
    boards: np.ndarray       # (k, 2, 25) uint8
    keys: tuple              # one dice key per position
    nets: Any                # Networks (pickled by value)
    games: int
    truncate: int


def _label_chunk(task: _LabelTask) -> np.ndarray:
    """Each position's mean variance-reduced result over ``games``
    truncated games of 0-ply play by ``nets`` (module level: workers run it)."""
    from . import _choice, _rollout, bearoff
    tables = bearoff.kernel_tables()
    net = int(_choice.Policy.POLICY_NET)
    out = np.empty((len(task.boards), 5), dtype=np.float32)
    counted = tally()                # positions labelled, for the progress bar
    for i, (board, key) in enumerate(zip(task.boards, task.keys)):
        results, luck = _rollout.play_games(np.ascontiguousarray(board).reshape(-1), 0, task.games, key, net, net,
                                            True, task.truncate, True, True, nets=task.nets, **tables)
        out[i] = np.clip((results - luck).mean(axis=0), 0.0, 1.0)
        counted[0] += 1
    return out


def label_positions(nets, boards, *, games: int = LABEL_GAMES, truncate: int = LABEL_TRUNCATE, seed=0,
                    first: int = 0, workers: int | None = None, executor: Executor | None = None,
                    progress: bool = False) -> np.ndarray:
    """The five chances of the side on roll of each board (n, 2, 25), each
    from a rollout of ``games`` games by ``nets`` at 0-ply, stopped after
    ``truncate`` plies (scored by the networks) or when both sides bear off
    (the tables), with variance reduction; float32 (n, 5).  Position i's
    dice come from ``SeedSequence(seed, spawn_key=(i,))``: the labels are
    the same for any workers or executor.  ``first`` numbers the boards
    from there (board i takes position ``first + i``'s dice), so that a
    set labelled in parts gets the labels of one call.

    >>> from backgammon import network, Position
    >>> board = Position.initial().array[None]
    >>> label_positions(network.default(), board, games=36, truncate=2, workers=1).shape
    (1, 5)
    """
    from ._validate import integer
    from .dice import seed_sequence
    boards = np.ascontiguousarray(boards, dtype=np.uint8)
    if boards.ndim != 3 or boards.shape[1:] != (2, 25):
        raise ValueError(f"boards must have shape (n, 2, 25), not {boards.shape}")
    games = integer("games", games, low=1)
    truncate = integer("truncate", truncate, low=0)
    first = integer("first", first, low=0)
    root = seed_sequence(seed)
    keys = [int(np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key + (i,)).generate_state(1, np.uint64)[0])
            for i in range(first, first + len(boards))]
    tasks = [_LabelTask(boards[k:k + LABEL_CHUNK], tuple(keys[k:k + LABEL_CHUNK]), nets, games, truncate)
             for k in range(0, len(boards), LABEL_CHUNK)]
    if not tasks:
        return np.zeros((0, 5), np.float32)
    parts = run_chunks(_label_chunk, tasks, [len(t.boards) for t in tasks], workers=workers, executor=executor,
                       progress=progress, unit="position")
    return np.concatenate(parts)


def select_positions(nets, n: int, rng: np.random.Generator, threads: int | None = None) -> np.ndarray:
    """``n`` positions of 0-ply self-play by ``nets`` (a play in twenty
    chosen at random, for variety): half of them where the networks' 0-ply
    and 1-ply equities differ most, half at random from the rest."""
    pool = np.zeros((0, 2, 25), np.uint8)
    while len(pool) < 4 * n:
        pool = np.concatenate([pool, _net.sample_positions(nets, max(16, n // 8), rng, 0.05)])
    pool = pool[rng.permutation(len(pool))[:3 * n]]
    pool = np.ascontiguousarray(pool)
    e0 = equity(_net.evaluate(nets, pool, 0))
    e1 = equity(on_threads(lambda part: _net.evaluate(nets, part, 1), pool, threads, 64))
    order = np.argsort(-np.abs(e1 - e0), kind="stable")
    worst = order[:n // 2]
    rest = order[n // 2:]
    chosen = np.concatenate([worst, rng.choice(rest, n - len(worst), replace=False)])
    return pool[np.sort(chosen)]


def _labels_path(out: Path) -> Path:
    return out.with_name(out.name + ".labels.npz")


def _no_labels():
    return np.zeros((0, 2, 25), np.uint8), np.zeros((0, 5), np.float32), np.zeros(0, np.int16)


def _read_labels(path: Path):
    if not path.exists():
        return _no_labels()
    with np.load(path) as d:
        return d["boards"], d["targets"], d["round"]


def _save_labels(path: Path, boards, targets, rounds) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, boards=boards, targets=targets, round=rounds)
    tmp.replace(path)


def _round_path(out: Path) -> Path:
    # The labels of the round under way, saved after each block.
    return out.with_name(out.name + ".round.npz")


def _labelled_so_far(path: Path, round_index: int, chosen: np.ndarray) -> np.ndarray:
    """The labels a cut-short run left for round ``round_index``'s first
    positions, if they are the positions ``chosen`` begins with."""
    if path.exists():
        boards, targets, rounds = _read_labels(path)
        k = len(targets)
        if len(rounds) and int(rounds[0]) == round_index and k <= len(chosen) and \
                np.array_equal(boards, chosen[:k]):
            return targets
    return np.zeros((0, 5), np.float32)


# -- the recipe -----------------------------------------------------------------------------

def train(games: int, seed: int = 0, out="nets.npz", *, checkpoint=None, resume: bool = True,
          alpha: float = 0.1, half_life: int = 200_000, contact_hidden: int = 128, race_hidden: int = 64,
          crashed_hidden: int = 128, layout: int = 2, explore: float = 0.0, explore_within: float = EXPLORE_WITHIN, td_lambda: float = 0.0,
          chunk: int = CHUNK, checkpoint_every: int = 20, refine_rounds: int = 0,
          refine_games: int = REFINE_GAMES, refine_epochs: int = REFINE_EPOCHS, refine_alpha: float = REFINE_ALPHA,
          rounds: int = 0, positions: int = ROUND_POSITIONS, label_games: int = LABEL_GAMES,
          label_truncate: int = LABEL_TRUNCATE, epochs: int = ROUND_EPOCHS, round_alpha: float = ROUND_ALPHA,
          prune_games: int = PRUNE_GAMES, label_block: int = LABEL_BLOCK, workers: int | None = None,
          executor: Executor | None = None, threads: int | None = None, progress: bool = True) -> TrainResult:
    """Train for ``games`` self-play games in total, then ``refine_rounds``
    rounds of search distillation, then ``rounds`` rollout-supervised
    rounds of ``positions`` positions each, fit the pruning network to
    the result (:func:`fit_pruner`, on ``min(prune_games, games)`` games;
    ``prune_games=0``: none) and write ``out``.

    ``checkpoint`` (default ``out`` + ``.ckpt``) is written every
    ``checkpoint_every`` chunks and after every round; with ``resume`` an
    existing checkpoint of the same settings is continued (the totals may
    grow: more games before any round, more rounds).  ``layout`` 2 (the
    default) gives the contact and crashed networks the second input
    layout (docs/evaluation.md); ``crashed_hidden`` 0: no crashed network.
    ``explore``: the chance that a TD(0) self-play decision plays, at
    random, another play within ``explore_within`` equity of the best (the
    position before it still learns the best play's value).  ``td_lambda``
    above 0: each self-play position learns its TD(lambda) return at the
    end of the game instead of the next position's value after every play
    (the return stops at an exploring play).
    ``workers``/``executor`` label the rounds' positions, ``label_block``
    at a time: the labels of each block are kept (``out`` +
    ``.round.npz``), so a round cut short resumes its labelling where it
    stopped, to the same labels; ``threads`` compute their 1-ply values.  Returns the games played, the seconds
    spent in this call, the last mean squared error, the rounds and labels.
    """
    games = _check_int("games", games, 0)
    seed = _check_int("seed", seed, 0)
    refine_rounds = _check_int("refine_rounds", refine_rounds, 0)
    refine_games = _check_int("refine_games", refine_games, 1)
    refine_epochs = _check_int("refine_epochs", refine_epochs, 1)
    rounds = _check_int("rounds", rounds, 0)
    positions = _check_int("positions", positions, 2)
    label_block = _check_int("label_block", label_block, 1)
    label_games = _check_int("label_games", label_games, 1)
    label_truncate = _check_int("label_truncate", label_truncate, 0)
    epochs = _check_int("epochs", epochs, 1)
    alpha = _check_float("alpha", alpha)
    refine_alpha = _check_float("refine_alpha", refine_alpha)
    round_alpha = _check_float("round_alpha", round_alpha)
    prune_games = _check_int("prune_games", prune_games, 0)
    contact_hidden = _check_int("contact_hidden", contact_hidden, 16)
    race_hidden = _check_int("race_hidden", race_hidden, 16)
    crashed_hidden = _check_int("crashed_hidden", crashed_hidden, 0)
    layout = _check_int("layout", layout, 1)
    if isinstance(explore, bool) or not isinstance(explore, (int, float, np.floating, np.integer)):
        raise TypeError(f"explore must be a number, not {type(explore).__name__}")
    if not 0.0 <= explore <= 1.0:
        raise ValueError(f"explore must be in [0, 1], not {explore}")
    explore = float(explore)
    if isinstance(td_lambda, bool) or not isinstance(td_lambda, (int, float, np.floating, np.integer)):
        raise TypeError(f"td_lambda must be a number, not {type(td_lambda).__name__}")
    if not 0.0 <= td_lambda <= 1.0:
        raise ValueError(f"td_lambda must be in [0, 1], not {td_lambda}")
    td_lambda = float(td_lambda)
    explore_within = _check_float("explore_within", explore_within)
    if layout not in network.LAYOUTS:
        raise ValueError(f"layout must be one of {sorted(network.LAYOUTS)}, not {layout}")
    if threads is not None:
        threads = _check_int("threads", threads, 1)
    chunk = _check_int("chunk", chunk, 1)
    half_life = _check_int("half_life", half_life, 1)
    out = Path(out)
    checkpoint = Path(checkpoint) if checkpoint is not None else out.with_name(out.name + ".ckpt")
    labels_file = _labels_path(out)
    round_file = _round_path(out)
    settings = dict(seed=seed, alpha=alpha, half_life=half_life, contact_hidden=contact_hidden,
                    race_hidden=race_hidden, crashed_hidden=crashed_hidden, layout=layout, chunk=chunk)
    if explore:      # absent from the records of runs that did not explore
        settings.update(explore=explore, explore_within=explore_within)
    if td_lambda:
        settings.update(td_lambda=td_lambda)
    round_settings = dict(positions=positions, label_games=label_games, label_truncate=label_truncate,
                          epochs=epochs, round_alpha=round_alpha)
    done, spent, refined, rounds_done = 0, 0.0, 0, 0
    arrays = None
    if resume and checkpoint.exists():
        arrays, meta = network.read(checkpoint)
        # A pruning network answers for the weights it was fitted to: fitted again at the end.
        arrays = {k: v for k, v in arrays.items() if not k.startswith("prune_")}
        if any(meta.get(k) != v for k, v in settings.items()) or \
                (not explore and meta.get("explore", 0.0) != 0.0) or \
                (not td_lambda and meta.get("td_lambda", 0.0) != 0.0):
            raise ValueError(f"{checkpoint} was made with other settings: {meta}")
        done, spent = int(meta["games"]), float(meta["seconds"])
        refined = int(meta.get("refine_rounds", 0))
        rounds_done = int(meta.get("rounds", 0))
        if rounds_done and any(meta.get(k) != v for k, v in round_settings.items()):
            raise ValueError(f"{checkpoint} was made with other round settings: {meta}")
        if done > games or refined > refine_rounds or rounds_done > rounds or \
                (refined and done != games) or (rounds_done and refined != refine_rounds):
            raise ValueError(f"{checkpoint} already holds {done} games, {refined} refinement rounds and "
                             f"{rounds_done} rounds, more than games={games}, refine_rounds={refine_rounds}, "
                             f"rounds={rounds}")
    if arrays is None:
        arrays = network.new_arrays(seed, contact_hidden, race_hidden, crashed_hidden, layout=layout)
    weights: dict[str, np.ndarray] = arrays
    nets = network.networks(weights)
    boards, targets, label_round = _read_labels(labels_file) if rounds_done else _no_labels()
    if rounds_done and (len(label_round) == 0 or int(label_round.max()) != rounds_done - 1):
        raise ValueError(f"{labels_file} does not hold the labels of the {rounds_done} rounds of {checkpoint}")
    command = f"backgammon train --games {games} --seed {seed}" + (
        f" --refine-rounds {refine_rounds}" if refine_rounds else "") + (
        f" --refine-games {refine_games}" if refine_rounds and refine_games != REFINE_GAMES else "") + (
        f" --rounds {rounds}" if rounds else "") + (
        f" --positions {positions}" if rounds and positions != ROUND_POSITIONS else "") + (
        f" --label-games {label_games}" if rounds and label_games != LABEL_GAMES else "") + (
        f" --label-truncate {label_truncate}" if rounds and label_truncate != LABEL_TRUNCATE else "") + (
        f" --layout {layout}" if layout != 2 else "") + (
        f" --explore {explore}" if explore else "") + (
        f" --td-lambda {td_lambda}" if td_lambda else "") + (
        f" --explore-within {explore_within}" if explore and explore_within != EXPLORE_WITHIN else "") + (
        f" --contact-hidden {contact_hidden}" if contact_hidden != 128 else "") + (
        f" --race-hidden {race_hidden}" if race_hidden != 64 else "") + (
        f" --crashed-hidden {crashed_hidden}" if crashed_hidden != 128 else "") + (
        f" --prune-games {prune_games}" if prune_games != PRUNE_GAMES else "") + (
        f" --out {out.name}")
    refine = dict(refine_games=refine_games, refine_epochs=refine_epochs, refine_alpha=refine_alpha)

    def meta_now() -> dict:
        m = {"format": FORMAT, "games": done, "seconds": round(spent + time.perf_counter() - t0, 1),
             "command": command, "refine_rounds": refined, "rounds": rounds_done, "labels": int(len(targets)),
             "method": "TD(0) greedy 0-ply self-play, then rounds of 1-ply search distillation, then rounds of "
                       "truncated variance-reduced rollout labels learnt by gradient descent"}
        m.update(settings, **refine)
        if rounds:
            m.update(round_settings)
        return m

    def save_checkpoint() -> None:
        network.save(checkpoint, weights, meta_now())

    bar = watch = None
    counter = np.zeros(1, dtype=np.int64)           # self-play games of this run, counted by the kernel
    if progress and done < games:
        bar = progress_bar(True, games, "game", initial=done)
        watch = BarWatch(bar, counter, [games - done], base=done)
    t0 = time.perf_counter()
    mse = float("nan")
    chunks = 0
    snapshot: dict | None = None
    kept = len(targets)
    try:
        while done < games:
            k = done // chunk
            n = min(chunk, games - done)
            gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(k,))))
            a = step_size(alpha, done, half_life)
            _, err, updates, _ = _net.selfplay_train(nets, n, gen, a, a, explore, explore_within, td_lambda,
                                                     counter)
            mse = err / max(updates, 1) / 5
            done += n
            chunks += 1
            if bar is not None:
                bar.set_postfix(mse=f"{mse:.4f}", alpha=f"{a:.4f}")
            if chunks % checkpoint_every == 0 and (done < games or refine_rounds or rounds):
                save_checkpoint()
        if watch is not None:
            watch.close()
            watch = None
        if bar is not None:
            bar.close()
            bar = None
        while refined < refine_rounds:
            mse = refine_round(nets, seed, refined, refine_games, refine_epochs, refine_alpha, threads)
            refined += 1
            if progress:
                print(f"refinement round {refined}/{refine_rounds}: mse {mse:.5f}", file=sys.stderr, flush=True)
            if refined < refine_rounds or rounds:
                save_checkpoint()
        while rounds_done < rounds:
            snapshot = {k: v.copy() for k, v in arrays.items()}
            kept = len(targets)
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(ROUND_KEY, rounds_done))))
            chosen = select_positions(nets, positions, rng, threads)
            labels = _labelled_so_far(round_file, rounds_done, chosen)
            while len(labels) < len(chosen):
                a = len(labels)
                b = min(a + label_block, len(chosen))
                block = label_positions(nets, chosen[a:b], games=label_games, truncate=label_truncate,
                                        seed=np.random.SeedSequence(seed, spawn_key=(ROUND_KEY, rounds_done, 1)),
                                        first=a, workers=workers, executor=executor, progress=progress)
                labels = np.concatenate([labels, block])
                if b < len(chosen):
                    _save_labels(round_file, chosen[:b], labels, np.full(b, rounds_done, np.int16))
            boards = np.concatenate([boards, chosen])
            targets = np.concatenate([targets, labels])
            label_round = np.concatenate([label_round, np.full(len(chosen), rounds_done, np.int16)])
            for _ in range(epochs):
                mse = _net.train_supervised(nets, boards, targets, rng.permutation(len(boards)), round_alpha,
                                            round_alpha)
            rounds_done += 1
            if progress:
                print(f"round {rounds_done}/{rounds}: {len(targets):,} labels, mse {mse:.5f}", file=sys.stderr,
                      flush=True)
            _save_labels(labels_file, boards, targets, label_round)
            round_file.unlink(missing_ok=True)
            snapshot = None
            if rounds_done < rounds:
                save_checkpoint()
    except KeyboardInterrupt:
        # Chunks and rounds run whole (the kernels hold no GIL), so the
        # weights are those of the work counted: keep them for a resume.
        if snapshot is not None:                 # a round cut short keeps only its labelled blocks
            for k, v in snapshot.items():
                arrays[k][...] = v
            boards, targets, label_round = boards[:kept], targets[:kept], label_round[:kept]
        save_checkpoint()
        raise
    finally:
        if watch is not None:
            watch.close()
        if bar is not None:
            bar.close()
    final = meta_now()
    pruned = min(prune_games, games)
    if pruned:
        weights = fit_pruner(weights, seed, games=pruned, threads=threads)
        final.update(prune_games=pruned, prune_hidden=PRUNE_HIDDEN, prune_epochs=PRUNE_EPOCHS)
    network.save(out, weights, final)
    if checkpoint.exists() and checkpoint != out:
        checkpoint.unlink()
    return TrainResult(done, time.perf_counter() - t0, mse, str(out), rounds_done, int(len(targets)))


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



def fit_pruner(arrays: dict[str, np.ndarray], seed: int = 0, *, games: int = PRUNE_GAMES,
               hidden: int = PRUNE_HIDDEN, epochs: int = PRUNE_EPOCHS, threads: int | None = None) -> dict:
    """The networks of ``arrays`` with a pruning network (``prune_*``) fitted
    to them: a new dict (``arrays`` is not changed; a pruning network it
    holds is replaced).

    The pruning network sees the raw inputs only (docs/evaluation.md).  It
    learns the full networks' 0-ply chances of every play leading to
    contact of one random roll in each position of ``games`` games of
    self-play (a play in ten at random), by ``epochs`` passes of gradient
    descent with a falling step.  Same seed, same weights.

    >>> from backgammon import network
    >>> arrays = fit_pruner(network.default().arrays, seed=1, games=20, epochs=1)
    >>> arrays["prune_w1"].shape, network.networks(arrays).pruning
    ((202, 32), 5)
    """
    seed = _check_int("seed", seed, 0)
    games = _check_int("games", games, 1)
    hidden = _check_int("hidden", hidden, 16)
    epochs = _check_int("epochs", epochs, 1)
    if hidden % 16:
        raise ValueError(f"hidden must be a multiple of 16, not {hidden}")
    from .batch import legal_positions
    base = {k: v for k, v in arrays.items() if not k.startswith("prune_")}
    nets = network.networks(base)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(PRUNE_KEY,))))
    boards = _net.sample_positions(nets, games, rng, PRUNE_EXPLORE)
    rolls = rng.integers(1, 7, size=(len(boards), 2)).astype(np.uint8)
    _, children = legal_positions(boards, rolls, threads=threads)
    children = np.ascontiguousarray(children[_net.position_classes(children) >= 3])
    targets = np.ascontiguousarray(on_threads(lambda part: _net.evaluate(nets, part, 0), children, threads, 256))
    out = dict(base)
    out["prune_w1"] = (rng.standard_normal((network.PRUNE_INPUTS, hidden)) * 0.1).astype(np.float32)
    out["prune_b1"] = np.zeros(hidden, np.float32)
    out["prune_w2"] = (rng.standard_normal((5, hidden)) * 0.1).astype(np.float32)
    out["prune_b2"] = np.zeros(5, np.float32)
    pruner = network.networks(out)
    for epoch in range(epochs):
        # Half the passes at 0.1, then 0.03, the last at 0.01.
        alpha = 0.1 if epoch < epochs // 2 else 0.03 if epoch < epochs - 1 else 0.01
        _net.train_pruner(pruner, children, targets, rng.permutation(len(children)), alpha)
    return out

