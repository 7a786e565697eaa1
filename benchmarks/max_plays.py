"""How many distinct plays a roll can have: the width that afterstate
observations pad to (docs/environments.md, "Afterstate observations").

Two measurements:

- over positions met in play: N games in lockstep (``VectorGames``),
  random plays or pubeval's, every roll's number of plays counted;
- over every legal position: a search for the position with the most plays
  of each roll (simulated annealing over boards: move, add or remove a
  checker, keep what the rules allow), which bounds the maximum from below.
  The kernel's ``MAX_PLAYS`` (3,072) bounds it from above: four dice moved
  among at most fifteen checkers give at most C(18, 4) = 3,060 results.

    python benchmarks/max_plays.py --games 512 --steps 400 --restarts 40 --iterations 6000
"""
from __future__ import annotations

import argparse

import numpy as np

from backgammon import _movegen, pubeval
from backgammon.lockstep import VectorGames
from backgammon.position import Position


def in_play(games: int, steps: int, policy: str, seed: int) -> np.ndarray:
    """The number of plays of every roll met in ``steps`` turns of ``games`` games."""
    vg = VectorGames(games, seed=seed)
    rng = np.random.default_rng(seed)
    counts = []
    for _ in range(steps):
        offsets, children = vg.candidates()
        c = np.diff(offsets)
        counts.append(c)
        if policy == "random":
            choice = (rng.random(games) * c).astype(np.int64)
        else:
            s = pubeval.pubeval(children)
            choice = np.array([int(np.argmax(s[offsets[i]:offsets[i + 1]])) for i in range(games)])
        vg.advance(choice)
    return np.concatenate(counts)


def _legal(b: np.ndarray) -> bool:
    try:
        Position(b)
        return True
    except ValueError:
        return False


def _random_board(rng) -> np.ndarray:
    while True:
        b = np.zeros((2, 25), np.uint8)
        for side in range(2):
            for p in rng.integers(0, 25 if rng.random() < 0.3 else 24, size=15)[rng.integers(0, 4):]:
                b[side, p] += 1
        if _legal(b):
            return b


def _mutate(b: np.ndarray, rng) -> np.ndarray:
    c = b.copy()
    side = rng.integers(0, 2) if rng.random() < 0.5 else 1
    here = np.flatnonzero(c[side])
    if (rng.random() < 0.1 or not len(here)) and c[side].sum() < 15:
        c[side, rng.integers(0, 25)] += 1            # a borne-off checker comes back
        return c
    if len(here):
        c[side, rng.choice(here)] -= 1
        if rng.random() >= 0.05:                     # else it is borne off
            c[side, rng.integers(0, 25)] += 1
    return c


def most_plays(d1: int, d2: int, restarts: int, iterations: int, rng):
    """The most plays of ``d1``-``d2`` found, and the position."""
    best, best_board = 0, None
    for _ in range(restarts):
        b = _random_board(rng)
        cur = _movegen.count_plays(b.tobytes(), d1, d2)
        temperature = 30.0
        for _ in range(iterations):
            c = _mutate(b, rng)
            if _legal(c):
                n = _movegen.count_plays(c.tobytes(), d1, d2)
                if n >= cur or rng.random() < np.exp((n - cur) / temperature):
                    b, cur = c, n
                    if cur > best:
                        best, best_board = cur, b.copy()
            temperature = max(0.5, temperature * 0.999)
    return best, best_board


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=512)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--restarts", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for policy in ("random", "pubeval"):
        c = in_play(args.games, args.steps, policy, args.seed)
        q = np.percentile(c, [50, 99, 99.9, 99.99])
        print(f"in play ({policy}): {len(c):,} rolls, most {c.max()}, median {q[0]:.0f}, 99% {q[1]:.0f}, "
              f"99.9% {q[2]:.0f}, 99.99% {q[3]:.0f}; more than 128: {(c > 128).mean():.3%}, "
              f"256: {(c > 256).mean():.4%}, 512: {(c > 512).mean():.5%}", flush=True)
    rng = np.random.default_rng(args.seed)
    for d1, d2 in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (2, 1), (3, 1), (6, 5)]:
        n, board = most_plays(d1, d2, args.restarts, args.iterations, rng)
        print(f"search: {d1}-{d2} at most found {n} plays, position {Position(board).to_id()}", flush=True)


if __name__ == "__main__":
    main()
