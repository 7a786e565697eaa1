"""A quick screen of candidate networks' checker play (issue 41), before
the duels: the mean equity a 0-ply player's choice loses, by gnubg's
judgement (1-ply by default), on a fixed set of decisions.

    python training/screen_plays.py [--build] [--decisions 20000] [--seed 43] [--ply 1] FILE.npz [FILE.npz ...]

``--build`` draws the decisions once (``training/screen_plays.npz``, not
committed: the same seed gives the same set): positions of 0-ply self-play
of the shipped networks from the opening (a play in ten at random), a
random roll each, kept where there is more than one play, with gnubg-nn's
equity of every play at ``--ply``.  Gnubg is the judge here, as in the
duels, and never a teacher: no label comes from it, and the figure only
chooses which candidates go on to the duels.  A candidate's figure is the
mean, over the decisions, of the best play's equity less the chosen one's;
the decisions are the same for every candidate, so differences between
candidates carry far less noise than a duel of 4,000 games.  Also printed per position type
(``backgammon.position_types``) and how often the choice differs from the
shipped networks'.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from backgammon import _net, network
from backgammon.batch import legal_positions
from backgammon.players import NetPlayer
from backgammon.position_types import TYPES, position_types

HERE = Path(__file__).resolve().parent
DATA = HERE / "screen_plays.npz"


def equity(p: np.ndarray) -> np.ndarray:
    p = np.asarray(p, dtype=np.float64)
    return 2 * p[..., 0] - 1 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4]


def build(decisions: int, seed: int, ply: int) -> None:
    import gnubg_nn
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    nets = network.default()
    boards = _net.sample_positions(nets, max(decisions // 25, 50), rng, 0.1)
    boards = boards[rng.permutation(len(boards))]
    rolls = rng.integers(1, 7, size=(len(boards), 2)).astype(np.uint8)
    offsets, children = legal_positions(np.ascontiguousarray(boards), rolls, threads=1)
    keep = np.flatnonzero(np.diff(offsets) > 1)[:decisions]
    boards, rolls = boards[keep], rolls[keep]
    offsets, children = legal_positions(np.ascontiguousarray(boards), rolls, threads=1)
    # Each child has the opponent on roll: its value for the mover is minus
    # gnubg's equity of it.
    values = -equity(np.array([gnubg_nn.probabilities(c.tolist(), ply) for c in children]))
    np.savez_compressed(DATA, boards=boards, rolls=rolls, offsets=offsets, values=values.astype(np.float32),
                        seed=seed, ply=ply)
    print(f"{len(boards):,} decisions, {len(children):,} plays, {time.perf_counter() - t0:.0f} s", file=sys.stderr)


def losses(nets, d) -> tuple[np.ndarray, np.ndarray]:
    pick = NetPlayer(0, networks=nets, threads=1).choose_indices(d["boards"], d["rolls"])
    off, v = d["offsets"], d["values"].astype(np.float64)
    best = np.maximum.reduceat(v, off[:-1])
    return best - v[off[:-1] + pick], pick


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--build", action="store_true")
    ap.add_argument("--decisions", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=43)
    ap.add_argument("--ply", type=int, default=1, help="gnubg's depth as the judge")
    args = ap.parse_args(argv)
    if args.build or not DATA.exists():
        build(args.decisions, args.seed, args.ply)
    d = dict(np.load(DATA))
    kinds = position_types(d["boards"])
    base, base_pick = losses(network.default(), d)
    present = [t for t in range(len(TYPES)) if (kinds == t).any()]
    print("file".ljust(40) + " all    " + " ".join(f"{TYPES[t][:9]:>9}" for t in present) + "   differ  d-all +- se")
    print("(decisions)".ljust(40) + f" {len(kinds):<6} " + " ".join(f"{int((kinds == t).sum()):>9}" for t in present))
    for f in ["shipped"] + args.files:
        if f == "shipped":
            loss, pick = base, base_pick
        else:
            loss, pick = losses(network.load(f), d)
        diff = loss - base
        print(f"{Path(f).name[:40]:40} {loss.mean():.4f} " + " ".join(f"{loss[kinds == t].mean():9.4f}" for t in present)
              + f"   {np.mean(pick != base_pick):.3f}  {diff.mean():+.4f} +- {diff.std() / np.sqrt(len(diff)):.4f}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
