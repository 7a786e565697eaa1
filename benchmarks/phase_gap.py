"""Where the networks lose to an opponent: duels of a hybrid player that is
our 0-ply networks except in positions of the classes named, where the
opponent chooses, against that opponent (issue 22).

    python benchmarks/phase_gap.py [--opponent gnubg] [--games 20000] [--seed 11]

Each line is the hybrid's points per game with the opponent taking over
one position class (docs/evaluation.md: 2 race, 3 contact, 4 crashed;
bear-off positions are exact for both); the difference to the plain
networks' figure is what that class's plays cost.
"""
from __future__ import annotations

import argparse

import numpy as np

import backgammon as bg
from backgammon import _net
from backgammon.players import Player, register_player

NAMES = {2: "race", 3: "contact", 4: "crashed"}


class Hybrid(Player):
    """Our networks' plays, the opponent's in positions of ``classes``."""

    def __init__(self, opponent: str, classes: tuple[int, ...]):
        self.ours, self.theirs, self.classes = bg.player("net"), bg.player(opponent), list(classes)
        self.spec = "hybrid"

    def choose_indices(self, boards, rolls):
        out = self.ours.choose_indices(boards, rolls)
        chosen = np.isin(_net.position_classes(np.ascontiguousarray(boards, dtype=np.uint8)), self.classes)
        if chosen.any():
            out[chosen] = self.theirs.choose_indices(boards[chosen], rolls[chosen])
        return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponent", default="gnubg")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    plain = bg.duel("net", args.opponent, games=args.games, seed=args.seed, workers=args.workers)
    print(f"net against {args.opponent}: {plain.ppg:+.4f} +- {plain.ppg_se:.4f}")
    for cls, name in NAMES.items():
        # Worker processes are forked: they see this registration.
        register_player("hybrid", lambda arg, seed, cls=cls: Hybrid(args.opponent, (cls,)), replace=True)
        r = bg.duel("hybrid", args.opponent, games=args.games, seed=args.seed, workers=args.workers)
        print(f"{args.opponent} choosing the {name} plays: {r.ppg:+.4f} +- {r.ppg_se:.4f} "
              f"({r.ppg - plain.ppg:+.4f} against net)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
