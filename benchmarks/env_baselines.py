"""The baselines table of docs/environments.md: each player against random
play and against pubeval, in cubeless money duels with duplicate dice
(``backgammon.duel``: every dice sequence played twice, once with each
player first), with the standard error over the pairs.

    python benchmarks/env_baselines.py random pubeval net gnubg bgsage --games 4000 --workers 1
    python benchmarks/env_baselines.py net:1 --games 2000 --workers 1

Prints one Markdown row a player (the same rows as ``backgammon duel A B
--games N --seed 46``) and the CPU time of each duel.  The trained agents
of the recipes (examples/) print their own rows the same way.
"""
from __future__ import annotations

import argparse
import time

import backgammon as bg


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", nargs="+", help="player specs (random, pubeval, net, net:1, gnubg, bgsage, ...)")
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    for spec in args.players:
        cells = []
        for opponent in ("random", "pubeval"):
            t = time.process_time()
            r = bg.duel(spec, opponent, games=args.games, seed=args.seed, workers=args.workers)
            cpu = time.process_time() - t
            cells.append(f"{r.ppg:+.3f} +- {r.ppg_se:.3f}")
            print(f"# {spec} vs {opponent}: {r.ppg:+.4f} +- {r.ppg_se:.4f}, wins {r.a_wins:.3f}, "
                  f"{r.games} games, {cpu:.0f} s CPU", flush=True)
        print(f"| {spec} | {cells[0]} | {cells[1]} | {args.games:,} | "
              f"`backgammon duel {spec} pubeval --games {args.games} --seed {args.seed}` |", flush=True)


if __name__ == "__main__":
    main()
