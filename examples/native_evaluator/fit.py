"""Fit the example network to backgammon's shipped networks (a teacher):
positions met in the teacher's 0-ply self-play, labelled with its 0-ply
chances, learnt by the example's architecture (Tesauro's 198 inputs, a
hidden layer, five outputs, the cheap sigmoid of _net.pyx) with Adam.
The result plays games like the teacher's, so that rollout speeds can be
compared game for game (benchmarks/test_native.py).

    python examples/native_evaluator/fit.py --out examples/native_evaluator/src/tesauro_net/weights.npz

Needs torch (CPU).  The shipped weights.npz was made by that command with
the defaults below (seed 0).
"""
import argparse
import json

import numpy as np


def squash(x):
    return 0.5 + 0.5 * x / (1.0 + x.abs())


def fit(inputs, targets, hidden: int, epochs: int, seed: int):
    import torch
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    x = torch.from_numpy(inputs)
    y = torch.from_numpy(targets)
    w1 = torch.nn.Parameter(torch.randn(198, hidden) * 0.1)
    b1 = torch.nn.Parameter(torch.zeros(hidden))
    w2 = torch.nn.Parameter(torch.randn(5, hidden) * 0.1)
    b2 = torch.nn.Parameter(torch.zeros(5))
    opt = torch.optim.Adam([w1, b1, w2, b2], lr=3e-3)
    for epoch in range(epochs):
        order = torch.randperm(len(x))
        for k in range(0, len(x), 256):
            i = order[k:k + 256]
            p = squash(squash(x[i] @ w1 + b1) @ w2.T + b2)
            loss = ((p - y[i]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        p = squash(squash(x @ w1 + b1) @ w2.T + b2)
        rms = float(((p - y) ** 2).mean().sqrt())
    return {"w1": w1.detach().numpy(), "b1": b1.detach().numpy(), "w2": w2.detach().numpy(),
            "b2": b2.detach().numpy()}, rms


def main() -> int:
    from backgammon import _net, network
    from backgammon.pubeval import tesauro_inputs
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--prune-hidden", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    teacher = network.default()
    boards = _net.sample_positions(teacher, args.games, np.random.default_rng(args.seed), 0.1)
    targets = np.asarray(_net.evaluate(teacher, boards, 0), dtype=np.float32)
    inputs = np.asarray(tesauro_inputs(boards), dtype=np.float32)
    arrays, rms = fit(inputs, targets, args.hidden, args.epochs, args.seed)
    meta = {"command": "python examples/native_evaluator/fit.py " + " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()), "positions": len(boards), "rms": rms}
    if args.prune_hidden:
        pruner, prune_rms = fit(inputs, targets, args.prune_hidden, args.epochs, args.seed + 1)
        arrays.update({"prune_" + k: v for k, v in pruner.items()})
        meta["prune_rms"] = prune_rms
    np.savez_compressed(args.out, meta=np.array(json.dumps(meta)), **{k: v.astype(np.float32) for k, v in
                                                                       arrays.items()})
    print(json.dumps(meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
