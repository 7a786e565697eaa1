"""How good a teacher a training run's rollout labels are: the RMS equity
distance of the labels, the shipped networks and a candidate to gnubg's
0-ply (and, on a sample, to gnubg's 2-ply), by position class (issue 22).

    python benchmarks/label_quality.py training/nets.npz.labels.npz [--nets FILE] [--sample 3000] [--seed 3]

gnubg (``gnubg-nn``) is only measured against here, never learnt from.
"""
from __future__ import annotations

import argparse

import numpy as np

from backgammon import _net, network
from backgammon.evaluation import equity

NAMES = {2: "race", 3: "contact", 4: "crashed"}


def _rms(x) -> float:
    return float(np.sqrt(np.mean(np.square(x)))) if len(x) else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("labels", help="a run's OUT.labels.npz")
    ap.add_argument("--nets", help="candidate networks (default: the shipped ones only)")
    ap.add_argument("--sample", type=int, default=3000, help="positions also compared to gnubg's 2-ply")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    import gnubg_nn

    data = np.load(args.labels)
    boards = np.ascontiguousarray(data["boards"])
    values = {"labels": equity(data["targets"].astype(np.float64)),
              "shipped": equity(_net.evaluate(network.default(), boards, 0))}
    if args.nets:
        values["candidate"] = equity(_net.evaluate(network.load(args.nets), boards, 0))
    cls = _net.position_classes(boards)
    g0 = equity(np.array([gnubg_nn.probabilities(b.tolist(), 0) for b in boards]))
    sub = np.sort(np.random.default_rng(args.seed).choice(len(boards), min(args.sample, len(boards)), replace=False))
    g2 = equity(np.array([gnubg_nn.probabilities(boards[i].tolist(), 2) for i in sub]))
    print(f"{len(boards):,} labelled positions; RMS equity distance to gnubg 0-ply | to gnubg 2-ply on {len(sub):,}")
    print(f"{'class':10s}{'n':>8s}  " + " ".join(f"{k:>9s}" for k in values) + "  | " +
          " ".join(f"{k:>9s}" for k in [*values, "gnubg0"]))
    for c, name in NAMES.items():
        m, ms = cls == c, cls[sub] == c
        near = " ".join(f"{_rms(v[m] - g0[m]):9.3f}" for v in values.values())
        deep = " ".join(f"{_rms(w[ms] - g2[ms]):9.3f}" for w in [*(v[sub] for v in values.values()), g0[sub]])
        print(f"{name:10s}{int(m.sum()):8d}  {near}  | {deep}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
