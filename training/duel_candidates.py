"""Duels of candidate networks (issue 41): each file's 0-ply player against
an opponent, cubeless money with duplicate dice, in this process (one core).

    python training/duel_candidates.py [--opponent gnubg] [--games 20000] [--seed 11] [--pairs-dir DIR] shipped FILE.npz ...

``shipped`` is the shipped networks.  Prints points per game with its
standard error and the CPU seconds of each duel.  Equivalent to
``duel(NetPlayer(0, networks=network.load(FILE)), 'gnubg', games=20000, seed=11)``.

With ``--pairs-dir`` each duel's points per pair of duplicate games are
kept there (``NAME.OPPONENT.sSEED.npy``, from the duel's game records), and
every file's duel is also compared with the shipped networks' at the same
seed, pair by pair: both play the same dice against the same opponent, so
the difference's standard error is that of the per-pair differences, less
than the two duels' errors together as far as the games stay alike.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from backgammon import duel, network
from backgammon.players import NetPlayer


def pair_points(result) -> np.ndarray:
    """A's mean points per pair of duplicate games (games 2k and 2k + 1)."""
    pts = np.array([r.points * (1 if r.winner == 0 else -1) for r in result.records], float)
    return pts.reshape(-1, 2).mean(axis=1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--opponent", default="gnubg")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--pairs-dir", type=Path, help="keep each duel's points per pair here; compare with shipped")
    args = ap.parse_args(argv)
    keep = args.pairs_dir is not None
    if keep:
        args.pairs_dir.mkdir(parents=True, exist_ok=True)

    def path(f):
        name = "shipped" if f == "shipped" else Path(f).stem
        return args.pairs_dir / f"{name}.{args.opponent.replace(':', '_')}.g{args.games}.s{args.seed}.npy"

    for f in args.files:
        if keep and path(f).exists():
            pairs = np.load(path(f))
            print(f"{f} vs {args.opponent}, {args.games} games, seed {args.seed}: {pairs.mean():+.3f} +- "
                  f"{pairs.std(ddof=1) / np.sqrt(len(pairs)):.3f} (kept)", flush=True)
        else:
            nets = network.default() if f == "shipped" else network.load(f)
            t0 = time.process_time()
            r = duel(NetPlayer(0, networks=nets, threads=1), args.opponent, games=args.games, seed=args.seed,
                     workers=1, record=keep)
            print(f"{f} vs {args.opponent}, {args.games} games, seed {args.seed}: {r.ppg:+.3f} +- {r.ppg_se:.3f} "
                  f"({time.process_time() - t0:.0f} CPU s)", flush=True)
            if not keep:
                continue
            pairs = pair_points(r)
            assert abs(pairs.mean() - r.ppg) < 1e-9
            np.save(path(f), pairs)
        if f != "shipped" and path("shipped").exists():
            d = pairs - np.load(path("shipped"))
            print(f"  {f} - shipped, paired: {d.mean():+.4f} +- {d.std(ddof=1) / np.sqrt(len(d)):.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
