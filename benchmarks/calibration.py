"""How far the networks' 0-ply values are from gnubg's and from their own
rollouts, by position class and by race standing (issue 22).

    python benchmarks/calibration.py [--games 400] [--seed 5] [--rollouts 200] [--rollout-games 648]

Positions come from ``--games`` games of 0-ply self-play by the shipped
networks.  For each class (2 race, 3 contact, 4 crashed) the script prints
the RMS equity difference between our 0-ply and gnubg's 0-ply, and, on one
position in ten, gnubg's own 0-ply against its 2-ply (how far a network is
from the search it feeds).  Then, by the side on roll's pip deficit in steps
of 20, the mean signed difference to gnubg (a bias that follows the race
standing is a misjudged race lead).  Last, ``--rollouts`` contact positions,
those where we and gnubg disagree most, each rolled out
``--rollout-games`` times by our own 0-ply player: when the rollouts lie
between the two evaluations, the networks misjudge positions their own
play reaches (a training problem) rather than playing them badly.

gnubg (``gnubg-nn``) is only measured against here, never learnt from.
"""
from __future__ import annotations

import argparse

import numpy as np

import backgammon as bg
from backgammon import _net, network
from backgammon.evaluation import equity

NAMES = {2: "race", 3: "contact", 4: "crashed"}


def _rms(x) -> float:
    return float(np.sqrt(np.mean(np.square(x)))) if len(x) else float("nan")


def _pips(rows) -> np.ndarray:
    return (rows[:, :24] * np.arange(1, 25)).sum(1) + 25 * rows[:, 24]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--rollouts", type=int, default=200)
    ap.add_argument("--rollout-games", type=int, default=648)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    import gnubg_nn

    nets = network.default()
    boards = _net.sample_positions(nets, args.games, np.random.default_rng(args.seed))
    cls = _net.position_classes(boards)
    ours = equity(_net.evaluate(nets, boards, 0))
    g0 = equity(np.array([gnubg_nn.probabilities(b.tolist(), 0) for b in boards]))
    sub = np.arange(0, len(boards), 10)
    g2 = equity(np.array([gnubg_nn.probabilities(boards[i].tolist(), 2) for i in sub]))
    diff = ours - g0
    print(f"{len(boards):,} positions of {args.games} self-play games (seed {args.seed})")
    print("class     n        ours-gnubg0 rms   gnubg0-gnubg2 rms")
    for c, name in NAMES.items():
        m = cls == c
        print(f"{name:8s} {m.sum():7,d}   {_rms(diff[m]):.4f}            {_rms(g0[sub][m[sub]] - g2[m[sub]]):.4f}")
    contact = cls == 3
    deficit = np.clip((_pips(boards[:, 1]) - _pips(boards[:, 0])) // 20, -4, 4)
    print("contact positions by pip deficit of the side on roll (steps of 20): mean ours-gnubg0")
    for v in range(-4, 5):
        m = contact & (deficit == v)
        if m.sum() >= 30:
            print(f"  {20 * v:+4d}{'+' if v == 4 else ' '} {m.sum():6,d}  {diff[m].mean():+.3f}")
    if args.rollouts:
        worst = np.flatnonzero(contact)[np.argsort(-np.abs(diff[contact]))[:args.rollouts]]
        ro = np.array([bg.rollout(bg.Position.from_array(boards[i]), games=args.rollout_games, seed=i,
                                  workers=args.workers).equity for i in worst])
        between = np.mean((ro - ours[worst]) * (g0[worst] - ours[worst]) > 0)
        print(f"{len(worst)} contact positions of largest disagreement, rolled out {args.rollout_games} times "
              f"by our 0-ply: rms ours-rollout {_rms(ours[worst] - ro):.3f}, gnubg0-rollout "
              f"{_rms(g0[worst] - ro):.3f}; the rollout moves from ours toward gnubg's in {between:.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
