"""Positions of every position type, labelled by untruncated rollouts of
the project's own networks (issue 41).

    python training/blind_spots.py positions [--seed 41] [--out training/blind_spots.positions.npz]
    nice -n 19 python training/blind_spots.py label [--games 36] [--block 200] [--workers 1]
    python training/blind_spots.py fit --out CANDIDATE.npz [...]   (training/fit_blind_spots.py)

``positions`` gathers the set once (a few minutes, the same for the same
seed): positions of 0-ply self-play from the opening (a play in ten at
random), of self-play games started from positions of the rare types
(blitz, back game, prime, crashed, bear-in), and, of each, those where the
networks' 0-ply and 1-ply equities differ most; per type a quota
(:data:`QUOTAS`), half the most disputed and half at random, in an order
that cycles through the types so that any prefix of the set is balanced.

``label`` labels them in that order with ``label_positions`` of
``backgammon.train``: ``--games`` games a position played to the end (or
to the bear-off tables, which are exact) by the shipped networks at 0-ply,
each roll's luck subtracted (``--nets FILE``: by that file's networks
instead, for the next round of labels: the candidate's rollouts label the
same positions with ``--nets training/blind_spots.candidate.npz --labels
training/blind_spots.labels2.npz``; ``--ply 1 --types back_game,prime,crashed``:
the 1-ply player's rollouts of those types only, in the package's rollout
loop, one core).  Every ``--block`` positions the labels so far
are saved (``training/blind_spots.labels.npz``); run the same command again
to go on from there: the labels are those one uninterrupted run gives
(position i's dice are keyed by the seed and i).

Nothing here is learnt from gnubg or any outside position or label.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from backgammon import _net, batch, network
from backgammon.position_types import TYPES, position_types
from backgammon.train import label_positions

HERE = Path(__file__).resolve().parent
POSITIONS = HERE / "blind_spots.positions.npz"
LABELS = HERE / "blind_spots.labels.npz"
#: Positions of each type in the set.
QUOTAS = {"blitz": 4000, "back_game": 4000, "prime": 4000, "crashed": 4000, "bear_in": 4000,
          "other_contact": 3000, "race": 1000}
RARE = ("blitz", "back_game", "prime", "crashed", "bear_in")
SOURCES = ("opening self-play", "self-play from a type's position")
LABEL_SEED = 4141


def equity(p: np.ndarray) -> np.ndarray:
    p = np.asarray(p, dtype=np.float64)
    return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def continue_games(nets, starts: np.ndarray, rng: np.random.Generator, plies: int = 24,
                   explore: float = 0.1) -> np.ndarray:
    """Positions met when each of ``starts`` (side on roll in row 1) is
    played on by 0-ply self-play for up to ``plies`` plies (a play in ten
    at random), until the game ends or no contact is left; the starts
    themselves excluded."""
    boards = np.ascontiguousarray(starts, dtype=np.uint8)
    seen = []
    for _ in range(plies):
        if not len(boards):
            break
        rolls = rng.integers(1, 7, size=(len(boards), 2), dtype=np.uint8)
        offsets, children = batch.legal_positions(boards, rolls, validate=False, threads=1)
        counts = np.diff(offsets)
        live = counts > 0
        boards, rolls, offsets = boards[live], rolls[live], np.concatenate([[0], np.cumsum(counts[live])])
        if not live.all():
            keep = np.repeat(live, counts)
            children = children[keep]
        counts = counts[live]
        values = -equity(_net.evaluate(nets, np.ascontiguousarray(children), 0))   # for the mover
        owner = np.repeat(np.arange(len(boards)), counts)
        best = np.maximum.reduceat(values, offsets[:-1])
        hits = np.flatnonzero(values >= best[owner])
        _, first = np.unique(owner[hits], return_index=True)
        pick = hits[first]
        wild = rng.random(len(boards)) < explore
        pick[wild] = offsets[:-1][wild] + (rng.random(int(wild.sum())) * counts[wild]).astype(np.int64)
        boards = np.ascontiguousarray(children[pick])
        cls = _net.position_classes(boards)
        boards = boards[cls >= 2]
        seen.append(boards)
        boards = boards[_net.position_classes(boards) >= 3]
    return np.concatenate(seen) if seen else np.zeros((0, 2, 25), np.uint8)


def _unique(boards: np.ndarray) -> np.ndarray:
    _, idx = np.unique(boards.reshape(len(boards), -1), axis=0, return_index=True)
    return np.sort(idx)


def gather(nets, seed: int, games: int = 4000, progress: bool = True):
    """The set: boards (n, 2, 25), types (n,), sources (n,), in labelling order."""
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    opening = _net.sample_positions(nets, games, rng, 0.1)
    opening = opening[_net.position_classes(opening) >= 2]
    kinds = position_types(opening)
    starts = []
    for name in RARE:
        pool = np.flatnonzero(kinds == TYPES.index(name))
        starts.append(opening[rng.choice(pool, min(len(pool), 3000), replace=False)])
    cont = continue_games(nets, np.concatenate(starts), rng)
    boards = np.concatenate([opening, cont])
    source = np.concatenate([np.zeros(len(opening), np.int8), np.ones(len(cont), np.int8)])
    keep = _unique(boards)
    boards, source = np.ascontiguousarray(boards[keep]), source[keep]
    kinds = position_types(boards)
    if progress:
        print(f"{len(boards):,} distinct positions ({len(opening):,} opening, {len(cont):,} continued) in "
              f"{time.perf_counter() - t0:.0f} s; 1-ply values...", file=sys.stderr, flush=True)
    # The most disputed: where the 0-ply and 1-ply equities part most.
    cand = np.flatnonzero(np.isin(kinds, [TYPES.index(n) for n in QUOTAS]))
    e0 = equity(_net.evaluate(nets, boards[cand], 0))
    e1 = equity(_net.evaluate(nets, boards[cand], 1))
    gap = np.zeros(len(boards))
    gap[cand] = np.abs(e1 - e0)
    chosen = {}
    for name, quota in QUOTAS.items():
        pool = np.flatnonzero(kinds == TYPES.index(name))
        pool = pool[rng.permutation(len(pool))]
        disputed = pool[np.argsort(-gap[pool], kind="stable")[:quota // 2]]
        rest = np.setdiff1d(pool, disputed)
        rest = rest[rng.permutation(len(rest))][:quota - len(disputed)]
        mine = np.concatenate([disputed, rest])
        chosen[name] = mine[rng.permutation(len(mine))]
        if progress:
            print(f"  {name:14s} {len(pool):7,d} met, {len(mine):6,d} chosen", file=sys.stderr, flush=True)
    # Cycle through the types in proportion to their quotas.
    order = []
    pos = {n: 0 for n in chosen}
    total = sum(len(v) for v in chosen.values())
    while len(order) < total:
        for name, idx in chosen.items():
            share = max(1, round(20 * QUOTAS[name] / max(QUOTAS.values())))
            take = idx[pos[name]:pos[name] + share]
            pos[name] += len(take)
            order.extend(take.tolist())
    order = np.array(order, np.int64)
    return boards[order], kinds[order], source[order]


def cmd_positions(args) -> int:
    boards, kinds, source = gather(network.default(), args.seed, args.games)
    np.savez_compressed(args.out, boards=boards, types=kinds, source=source,
                        type_names=np.array(TYPES), seed=args.seed, games=args.games)
    print(f"{len(boards):,} positions written to {args.out}", file=sys.stderr)
    return 0


def _save(path: Path, **arrays) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, **arrays)
    tmp.replace(path)


def _digest(path: Path) -> str:
    """The networks file's sha256: a checkpoint goes on only with the
    networks that began it."""
    import hashlib
    return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _cpu() -> float:
    """CPU seconds of this process and its finished workers."""
    import os
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def label_searching(nets, boards: np.ndarray, index: np.ndarray, *, games: int, seed: int, ply: int) -> np.ndarray:
    """The five chances of each board from ``games`` games played to the
    end (or the bear-off tables) by ``nets``' ``ply``-ply player, each
    roll's luck subtracted; board k's dice keyed by ``seed`` and
    ``index[k]`` (its number in the set), so a set labelled in parts gets
    one run's labels.  One core (the package's lockstep rollouts)."""
    from backgammon import Position
    from backgammon.players import NetPlayer
    from backgammon.rollouts import rollout
    player = NetPlayer(ply, networks=nets, threads=1)
    out = np.empty((len(boards), 5), np.float32)
    for k, (board, i) in enumerate(zip(boards, index)):
        r = rollout(Position.from_array(board), games=games, policy=player, bearoff=True,
                    seed=np.random.SeedSequence(seed, spawn_key=(int(i),)), workers=1)
        out[k] = np.clip([r.win, r.win_gammon, r.win_backgammon, r.lose_gammon, r.lose_backgammon], 0.0, 1.0)
    return out


def cmd_label(args) -> int:
    with np.load(args.positions) as d:
        boards, kinds, source = d["boards"], d["types"], d["source"]
    index = np.arange(len(boards))
    if args.types:
        # A subset (the worst types, for the dearer searching players), in the set's order.
        index = np.flatnonzero(np.isin(kinds, [TYPES.index(t) for t in args.types.split(",")]))
        boards, kinds, source = boards[index], kinds[index], source[index]
    targets = np.zeros((0, 5), np.float32)
    seconds = cpu = 0.0
    cpu_since = 0
    player = "shipped" if args.nets is None else _digest(args.nets)
    if args.labels.exists():
        with np.load(args.labels) as d:
            made_by = str(d["nets"]) if "nets" in d.files else "shipped"
            ply = int(d["ply"]) if "ply" in d.files else 0
            if int(d["games"]) != args.games or int(d["seed"]) != args.seed or made_by != player or \
                    ply != args.ply or not np.array_equal(d["index"] if "index" in d.files else
                                                          np.arange(len(d["targets"])), index[:len(d["targets"])]) or \
                    not np.array_equal(d["boards"], boards[:len(d["targets"])]):
                raise SystemExit(f"{args.labels} was made with other settings or positions")
            targets, seconds = d["targets"], float(d["seconds"])
            # CPU seconds are counted from ``cpu_since`` labels on (older checkpoints had none).
            counted = "cpu" in d.files and bool(np.isfinite(d["cpu"]))
            cpu = float(d["cpu"]) if counted else 0.0
            cpu_since = int(d["cpu_since"]) if "cpu_since" in d.files else 0 if counted else len(d["targets"])
    nets = network.default() if args.nets is None else network.load(args.nets)
    end = len(boards) if args.limit is None else min(len(boards), args.limit)
    while len(targets) < end:
        a = len(targets)
        b = min(a + args.block, end)
        t0, c0 = time.perf_counter(), _cpu()
        if args.ply == 0 and not args.types:
            block = label_positions(nets, boards[a:b], games=args.games, truncate=1_000_000, seed=args.seed,
                                    first=a, workers=args.workers)
        else:
            block = label_searching(nets, boards[a:b], index[a:b], games=args.games, seed=args.seed, ply=args.ply)
        seconds += time.perf_counter() - t0
        cpu += _cpu() - c0
        targets = np.concatenate([targets, block])
        _save(args.labels, boards=boards[:b], targets=targets, types=kinds[:b], source=source[:b],
              games=args.games, seed=args.seed, seconds=round(seconds, 1), cpu=round(cpu, 1), cpu_since=cpu_since, workers=args.workers, nets=player,
              ply=args.ply, index=index[:b],
              command=" ".join(sys.argv))
        print(f"{time.strftime('%H:%M:%S')} {b:,}/{len(boards):,} labelled, {seconds:,.0f} s, {cpu:,.0f} CPU s "
              f"(from {cpu_since:,})", flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--seed", type=int, default=41)
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--out", type=Path, default=POSITIONS)
    p.set_defaults(run=cmd_positions)
    p = sub.add_parser("label")
    p.add_argument("--positions", type=Path, default=POSITIONS)
    p.add_argument("--labels", type=Path, default=LABELS)
    p.add_argument("--games", type=int, default=36)
    p.add_argument("--seed", type=int, default=LABEL_SEED)
    p.add_argument("--block", type=int, default=200)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--limit", type=int, default=None, help="stop after this many positions")
    p.add_argument("--ply", type=int, default=0,
                   help="the players' search depth (1: the package's rollouts with NetPlayer(1), one core)")
    p.add_argument("--types", default=None,
                   help="label only positions of these types (comma-separated), in the set's order")
    p.add_argument("--nets", type=Path, default=None,
                   help="networks file whose 0-ply players roll out (default: the shipped networks)")
    p.set_defaults(run=cmd_label)
    args = ap.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
