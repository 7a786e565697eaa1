"""Duels of candidate networks (issue 41): each file's 0-ply player against
an opponent, cubeless money with duplicate dice, in this process (one core).

    python training/duel_candidates.py [--opponent gnubg] [--games 20000] [--seed 11] shipped FILE.npz ...

``shipped`` is the shipped networks.  Prints points per game with its
standard error and the CPU seconds of each duel.  Equivalent to
``duel(NetPlayer(0, networks=network.load(FILE)), 'gnubg', games=20000, seed=11)``.
"""
from __future__ import annotations

import argparse
import time

from backgammon import duel, network
from backgammon.players import NetPlayer


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--opponent", default="gnubg")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    for f in args.files:
        nets = network.default() if f == "shipped" else network.load(f)
        t0 = time.process_time()
        r = duel(NetPlayer(0, networks=nets, threads=1), args.opponent, games=args.games, seed=args.seed, workers=1)
        print(f"{f} vs {args.opponent}, {args.games} games, seed {args.seed}: {r.ppg:+.3f} +- {r.ppg_se:.3f} "
              f"({time.process_time() - t0:.0f} CPU s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
