"""SHA-256 digests of everything the move generator writes, to check that a
change to it keeps its output byte for byte.

    python benchmarks/movegen_digest.py [--quick] > digest_before.txt
    (change and rebuild)
    python benchmarks/movegen_digest.py [--quick] | diff digest_before.txt -

Input: the benchmark corpus (63,000 pairs), 300,000 random-game pairs
(seed 11), every one of the 21 rolls of 20,000 random-game positions
(seed 7) and of 20,000 random boards (seed 5: checkers scattered over
every point, the bar and off, so that entering, bearing off and closed
points are common).  Each set goes through ``batch.legal_positions`` with
and without moves, in both views, on one and two threads, and in
batches of 64 pairs (the small-batch path), and all must agree; the digest
covers offsets, children and moves; ``_movegen.count_plays`` (no output
arrays) is checked on the first 20,000 pairs of each set.  ``--quick`` takes a tenth of each set.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))


def random_boards(n: int, seed: int) -> np.ndarray:
    """(n, 2, 25) boards: each side's checkers (1-15 of them) spread over a
    few random points and sometimes the bar; the side on roll has all of
    them home a third of the time; no point held by both."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 2, 25), np.uint8)
    for i in range(n):
        taken = np.zeros(24, bool)          # by my index (row 1)
        for side in (1, 0):
            span = 6 if side == 1 and rng.random() < 0.3 else 24
            free = np.flatnonzero(~taken[:span])
            points = rng.choice(free, size=min(int(rng.integers(1, 9)), len(free)), replace=False)
            if side == 0:
                points = 23 - points          # the opponent's own index
            slots = np.concatenate([points, [24] * int(span == 24 and rng.random() < 0.3)]).astype(int)
            counts = rng.multinomial(int(rng.integers(1, 16)), np.ones(len(slots)) / len(slots))
            for s, c in zip(slots, counts):
                out[i, side, s] += c
                if s < 24 and c:
                    taken[s if side == 1 else 23 - s] = True
    return out


def every_roll(boards: np.ndarray):
    import backgammon as bg
    rolls = bg.ROLL_ARRAY.astype(np.uint8)
    return (np.ascontiguousarray(np.repeat(boards, len(rolls), axis=0)),
            np.ascontiguousarray(np.tile(rolls, (len(boards), 1))))


def sets(quick: bool):
    import corpus
    from backgammon.sample import random_positions
    f = 10 if quick else 1
    b, r = corpus.pairs()
    yield "corpus", b[::f].copy(), r[::f].copy()
    yield "random_games", *random_positions(300_000 // f, seed=11)
    b, _ = random_positions(20_000 // f, seed=7)
    yield "every_roll_games", *every_roll(b)
    yield "every_roll_scattered", *every_roll(random_boards(20_000 // f, seed=5))


def digest(boards, rolls, *, moves: bool, mover_view: bool, threads: int, small: bool) -> str:
    from backgammon import batch
    h = hashlib.sha256()
    step = 64 if small else len(boards)
    base = 0
    parts = [hashlib.sha256() for _ in range(3)]     # offsets, children, moves
    parts[0].update(np.zeros(1, np.int64).tobytes())
    for i in range(0, len(boards), step):
        out = batch.legal_positions(boards[i:i + step], rolls[i:i + step], moves=moves, mover_view=mover_view,
                                    threads=threads)
        parts[0].update((out[0][1:] + base).tobytes())
        base += int(out[0][-1])
        for p, a in zip(parts[1:], out[1:]):
            p.update(np.ascontiguousarray(a).tobytes())
    for p in parts:
        h.update(p.digest())
    return h.hexdigest()


def main() -> int:
    from backgammon import _movegen
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    for name, boards, rolls in sets(args.quick):
        d = rolls[:, 0] == rolls[:, 1]
        bar = boards[:, 1, 24] > 0
        home = boards[:, 1, 6:].sum(axis=1) == 0
        print(f"{name}: {len(boards)} pairs, {int(d.sum())} doubles, {int(bar.sum())} on the bar, "
              f"{int(home.sum())} all home", flush=True)
        for moves in (False, True):
            for view in (False, True):
                got = {digest(boards, rolls, moves=moves, mover_view=view, threads=t, small=False) for t in (1, 2)}
                got.add(digest(boards, rolls, moves=moves, mover_view=view, threads=1, small=True))
                if len(got) != 1:
                    print(f"  moves={moves} mover_view={view}: PATHS DISAGREE {sorted(got)}", flush=True)
                    return 1
                print(f"  moves={moves} mover_view={view}: {got.pop()}", flush=True)
        # Counting only (no output arrays: perft, count_plays), a pair at a time.
        counts = np.array([_movegen.count_plays(b.tobytes(), int(r[0]), int(r[1]))
                           for b, r in zip(boards[:20_000], rolls[:20_000])], np.int64)
        print(f"  count_plays of the first {len(counts)}: {hashlib.sha256(counts.tobytes()).hexdigest()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
