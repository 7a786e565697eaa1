"""Late-contact positions for the networks to learn from their own play
(issues 40 and 41): one side bearing in or off, or crashed, the other
with one to three checkers back in its home board (a back checker, an
anchor waiting for a shot, a checker on the bar).

    python training/late_contact.py [--seed 45] [--starts 6000] [--count 6000] [--out training/late_contact.positions.npz]
    python training/late_contact.py --siblings training/late_contact.positions.npz --seed 46 --count 500 --top 6 \
        --out training/late_contact.siblings.npz
    nice -n 19 python training/blind_spots.py label --positions training/late_contact.positions.npz \\
        --labels training/late_contact.labels.npz --workers 1

Why: in the published positions ``usbgf-olm-redouble-bearoff`` and the
one-roll shots of ``bgonline-160613`` our 0-ply player, not the rollout
code, loses the chances (``benchmarks/notes/late-contact-play.md``); the
self-play of the earlier training rarely reaches such positions.

The starts are drawn at random here (nothing from outside: no position
set, label or weight of gnubg or any other program), each side's
checkers placed by simple rules (below); each start is then played on by
the shipped networks' 0-ply self-play for up to ``--plies`` plies, a play
in ten at random (``blind_spots.continue_games``), and of the positions
met, those of the late-contact kind (:func:`late_contact`) are kept
(none of the blind-spot benchmark's or the published rollouts' positions),
distinct, in a random order, ``--count`` of them.  The file has the
layout of ``training/blind_spots.positions.npz``, so ``blind_spots.py
label --positions`` labels it (untruncated rollouts by the shipped
networks, resumable) and ``fit_blind_spots.py --labels`` fits it.

``--siblings`` makes the second set: in ``--count`` decisions of the two
mistaken kinds (:func:`decisions`) among the first set's positions, a
random roll each, the positions after the ``--top`` best plays by the
shipped networks' 0-ply: the plays a decision compares, labelled so that
the fit learns their ranking (in the bear-off of
``usbgf-olm-redouble-bearoff`` our own rollouts rank the plays as gnubg's
do, while our 0-ply does not).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from backgammon import _net, network
from backgammon.position_types import TYPES, position_types

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blind_spots import continue_games  # noqa: E402

HERE = Path(__file__).resolve().parent
OUT = HERE / "late_contact.positions.npz"
BAR = 24


def _place(rng, row: np.ndarray, n: int, points: np.ndarray, weights: np.ndarray, free: np.ndarray) -> None:
    """Put ``n`` checkers on ``points`` (indices of ``row``), each drawn
    with ``weights`` among those still ``free``."""
    for _ in range(n):
        ok = free[points]
        if not ok.any():
            return
        w = np.where(ok, weights, 0.0)
        row[points[rng.choice(len(points), p=w / w.sum())]] += 1


def random_start(rng: np.random.Generator) -> np.ndarray:
    """A random late-contact board (2, 25), the side on roll in row 1:
    side H with 1-3 checkers back (on the bar or in B's home board, as a
    blot or an anchor), up to 6 in its outfield, the rest home (3-6 of its
    home points made, some borne off); side B with up to 2 on the bar, up
    to 3 outside its home board, the rest home (heavier on its low
    points), 0-8 borne off."""
    h = np.zeros(25, np.int64)
    b = np.zeros(25, np.int64)
    # H's points seen from B: H index i is B index 23 - i.
    taken_by_b = np.zeros(25, bool)
    taken_by_h = np.zeros(25, bool)
    back = int(rng.integers(1, 4))
    if rng.random() < 0.15:
        h[BAR] += 1
        back -= 1
    if back >= 2 and rng.random() < 0.5:
        h[int(rng.integers(18, 24))] += 2
        back -= 2
    for _ in range(back):
        h[int(rng.integers(18, 24))] += 1
    outfield = int(rng.integers(0, 7))
    for _ in range(outfield):
        h[int(rng.integers(6, 18))] += 1
    left = 15 - int(h.sum())
    off_h = int(rng.integers(0, 4)) if rng.random() < 0.4 else 0
    home = left - off_h
    made = rng.choice(6, int(rng.integers(3, 7)), replace=False)
    for p in made:
        if home >= 2:
            h[p] += 2
            home -= 2
    weights = np.array([1, 1, 1.5, 1.5, 2, 2], float)
    _place(rng, h, home, np.arange(6), weights, np.ones(25, bool))
    taken_by_h[:24] = h[:24] > 0
    for i in range(24):
        taken_by_b[23 - i] = taken_by_h[i]        # B may not stand where H stands
    free_b = ~taken_by_b
    free_b[BAR] = True
    bar = int(rng.choice(3, p=[0.55, 0.3, 0.15]))
    b[BAR] = bar
    out_b = int(rng.choice(4, p=[0.4, 0.3, 0.2, 0.1]))
    _place(rng, b, out_b, np.arange(6, 18), np.ones(12), free_b)
    off_b = int(rng.integers(0, 9)) if rng.random() < 0.6 else 0
    rest = 15 - int(b.sum()) - off_b
    _place(rng, b, rest, np.arange(6), np.array([3, 3, 2.5, 2, 1.5, 1], float), free_b)
    board = np.stack([b, h]).astype(np.uint8)
    if rng.random() < 0.5:
        board = board[::-1].copy()               # B on roll
    return board


def closeout_start(rng: np.random.Generator) -> np.ndarray:
    """A random board of the first mistaken kind, the side on roll (H) to
    play: H bears in with its low points made as far as its checkers go
    (three to five of its 1- to 5-points, two checkers each first), 0-2
    checkers on its 6-point, 1-2 checkers back on the other side's 1- to 3-points and 1-3
    in its outfield; the other side (B) has 1-2 checkers on the bar and
    the rest crashed on its low points, some borne off."""
    h = np.zeros(25, np.int64)
    b = np.zeros(25, np.int64)
    for _ in range(1 + int(rng.random() < 0.3)):
        h[int(rng.integers(21, 24))] += 1
    for _ in range(int(rng.integers(1, 4))):
        h[int(rng.integers(6, 18))] += 1
    h[5] = int(rng.choice(3, p=[0.25, 0.5, 0.25]))
    left = 15 - int(h.sum()) - int(rng.integers(0, 3))
    for p in range(5):
        take = min(left, 2)
        h[p] += take
        left -= take
    while left > 0:
        h[int(rng.integers(0, 5))] += 1
        left -= 1
    b[BAR] = int(rng.integers(1, 3))
    free = np.ones(25, bool)
    for i in range(24):
        if h[i]:
            free[23 - i] = False
    in_play = int(rng.integers(6, 12))
    _place(rng, b, in_play - b[BAR], np.arange(6), np.array([4, 4, 3, 1, 0.5, 0.5]), free)
    return np.stack([b, h]).astype(np.uint8)


def draw(make, rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` legal contact boards of ``make(rng)`` (the others drawn again)."""
    from backgammon import Position
    out = []
    while len(out) < count:
        board = make(rng)
        try:
            Position.from_array(board)
        except ValueError:
            continue
        if _net.position_classes(board[None])[0] >= 3:
            out.append(board)
    return np.stack(out)


def closeout_decisions(seed: int, count: int) -> np.ndarray:
    """``count`` valid boards of :func:`closeout_start`."""
    return draw(closeout_start, np.random.default_rng(seed), count)


def late_contact(boards: np.ndarray) -> np.ndarray:
    """Whether each board (n, 2, 25) is of the late-contact kind: contact
    (not a race), one side with 1 to 3 checkers on the bar or in the
    other's home board and at most 6 more outside its own home board,
    the other side with at least 9 checkers home or borne off."""
    boards = np.asarray(boards, dtype=np.int64)
    out = np.zeros(len(boards), bool)
    cls = _net.position_classes(np.ascontiguousarray(boards, dtype=np.uint8))
    for s in (0, 1):
        me, them = boards[:, s], boards[:, 1 - s]
        back = me[:, 18:25].sum(1)
        outside = me[:, 6:18].sum(1)
        their_home = them[:, :6].sum(1) + (15 - them.sum(1))
        out |= (back >= 1) & (back <= 3) & (outside <= 6) & (their_home >= 9)
    return out & (cls >= 3)


def _held_out() -> set:
    """The boards a candidate is measured on (the blind-spot benchmark's and
    the published rollouts' positions, either side on roll), never trained on."""
    root = HERE.parent / "benchmarks"
    keys = set()
    bench = root / "data" / "blind_spots.npz"
    if bench.exists():
        with np.load(bench) as d:
            keys |= {b.tobytes() for b in np.ascontiguousarray(d["boards"], np.uint8)}
    import json
    from backgammon.formats.xgid import parse_xgid
    for e in json.loads((root / "data" / "published_rollouts.json").read_text())["positions"]:
        a = parse_xgid(e["xgid"]).position.array
        keys |= {np.ascontiguousarray(a, np.uint8).tobytes(), np.ascontiguousarray(a[::-1], np.uint8).tobytes()}
    return keys


def gather(nets, seed: int, starts: int, count: int, plies: int = 16) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    first = draw(random_start, rng, starts)
    met = continue_games(nets, first, rng, plies=plies)
    met = met[late_contact(met)]
    held = _held_out()
    met = met[[b.tobytes() not in held for b in met]]
    _, idx = np.unique(met.reshape(len(met), -1), axis=0, return_index=True)
    met = met[np.sort(idx)]
    met = met[rng.permutation(len(met))][:count]
    return np.ascontiguousarray(met), position_types(met)


def decisions(boards: np.ndarray) -> np.ndarray:
    """Which boards (side on roll in row 1) are decisions of the two
    mistaken kinds: the side on roll has 4 or more home points made and 1-2
    checkers back while the other side is on the bar or crashed (whether to
    keep a builder for the closeout, to clear a blot, to run the back
    checker); or it holds an anchor in the other's home board while the
    other, 10 or more checkers home or off, bears in past it (whether to
    hold on or run)."""
    b = np.asarray(boards, dtype=np.int64)
    me, them = b[:, 1], b[:, 0]
    back = me[:, 18:25].sum(1)
    made = (me[:, :6] >= 2).sum(1)
    crashed = _net.position_classes(np.ascontiguousarray(boards, dtype=np.uint8)) == 4
    closing = (made >= 4) & (back >= 1) & (back <= 2) & ((them[:, 24] >= 1) | crashed)
    anchor = (me[:, 18:24] >= 2).any(1)
    their_home = them[:, :6].sum(1) + (15 - them.sum(1))
    holding = anchor & (back <= 3) & (their_home >= 10)
    return closing | holding


def siblings(nets, boards: np.ndarray, seed: int, count: int, top: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """The positions after each of the ``top`` best plays (by ``nets`` at
    0-ply) of a random roll in ``count`` decisions of the mistaken kinds
    (:func:`decisions`) among ``boards``: the plays a decision compares,
    so that their labels teach the ranking, not only the value of the play
    self-play chose.  Distinct, none held out; (boards, decision number)."""
    from backgammon import batch
    rng = np.random.default_rng(seed)
    pool = np.flatnonzero(decisions(boards))
    pick = np.sort(rng.choice(pool, min(count, len(pool)), replace=False))
    rolls = rng.integers(1, 7, size=(len(pick), 2)).astype(np.uint8)
    offsets, children = batch.legal_positions(np.ascontiguousarray(boards[pick]), rolls, validate=False, threads=1)
    values = _net.evaluate(nets, np.ascontiguousarray(children), 0)
    mover = -(2 * values[:, 0] - 1 + values[:, 1] - values[:, 3] + values[:, 2] - values[:, 4])
    held = _held_out()
    out, owner, seen = [], [], set()
    for k in range(len(pick)):
        lo, hi = int(offsets[k]), int(offsets[k + 1])
        for i in lo + np.argsort(-mover[lo:hi], kind="stable")[:top]:
            key = children[i].tobytes()
            if hi - lo < 2 or key in seen or key in held or _net.position_classes(children[i:i + 1])[0] < 2:
                continue
            seen.add(key)
            out.append(children[i])
            owner.append(k)
    return np.ascontiguousarray(np.stack(out)), np.array(owner)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=45)
    ap.add_argument("--starts", type=int, default=6000)
    ap.add_argument("--count", type=int, default=6000)
    ap.add_argument("--plies", type=int, default=16)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--siblings", type=Path, metavar="POSITIONS",
                    help="instead: the top plays' positions of --count decisions of the mistaken kinds among "
                         "POSITIONS (a file this command wrote)")
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--closeout", action="store_true",
                    help="with --siblings: the decisions are --count random boards of closeout_start, not the "
                         "mistaken kinds among POSITIONS")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.siblings:
        if args.closeout:
            starts = closeout_decisions(args.seed, args.count)
        else:
            with np.load(args.siblings) as d:
                starts = d["boards"]
        boards, _ = siblings(network.default(), starts, args.seed, args.count, args.top)
        kinds = position_types(boards)
    else:
        boards, kinds = gather(network.default(), args.seed, args.starts, args.count, args.plies)
    np.savez_compressed(args.out, boards=boards, types=kinds, source=np.ones(len(boards), np.int8),
                        type_names=np.array(TYPES), seed=args.seed, starts=args.starts,
                        command="python training/late_contact.py " + " ".join(argv or sys.argv[1:]))
    counts = np.bincount(kinds, minlength=len(TYPES))
    print(f"{len(boards):,} positions ({', '.join(f'{t} {c}' for t, c in zip(TYPES, counts) if c)}) written to "
          f"{args.out} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
