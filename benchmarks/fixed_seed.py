"""Fixed-seed figures of the kernels, printed to the last digit, for
checking that a refactor changes no number: run it before and after and
compare the outputs (``diff``).

    python benchmarks/fixed_seed.py > before.txt
    ... change the code ...
    python benchmarks/fixed_seed.py > after.txt && diff before.txt after.txt

It covers the network (0- to 2-ply evaluation, choices, rankings, the
inputs, the pruning network), its training kernels (TD self-play, TD(lambda),
supervised steps, sampled positions), the game loop (plain,
variance-reduced, truncated, random and pubeval games), duels, rollouts of
plays and cube decisions, hints and a match analysis.
"""
import hashlib
import re
import sys

import numpy as np

import backgammon as bg
from backgammon import _choice, _net, _rollout, network
from backgammon.pubeval import load_weights
from backgammon.sample import random_positions


def digest(name, arr):
    a = np.ascontiguousarray(np.asarray(arr))
    h = hashlib.sha256(a.tobytes()).hexdigest()[:16]
    flat = a.ravel()
    head = " ".join(repr(x) for x in flat[:6].tolist())
    print(f"{name}: {a.dtype} {a.shape} {h} [{head}]")


def _timeless(x):
    # Wall-clock times are the one thing a run may change.
    return re.sub(r"seconds=[0-9.e+-]+", "seconds=?", str(x))


def main() -> int:
    np.set_printoptions(precision=17)
    nets = network.default()
    boards, rolls = random_positions(400, seed=3)
    for ply in (0, 1, 2):
        n = {0: 400, 1: 40, 2: 6}[ply]
        digest(f"evaluate ply {ply}", _net.evaluate(nets, boards[:n], ply))
        digest(f"choose ply {ply}", _net.choose(nets, boards[:n], rolls[:n], ply))
    digest("bg.evaluate float64", bg.evaluate(boards).probabilities)
    kids = np.ascontiguousarray(bg.Position.initial().legal_plays("43").positions).reshape(-1, 50)
    for ply in (0, 1, 2):
        probs, depth = _net.rank_plays(nets, kids, ply)
        digest(f"rank_plays ply {ply}", probs)
        digest(f"rank_plays depth {ply}", depth)
    for layout in (1, 2):
        x, cls = _net.encode_boards(boards, layout)
        digest(f"encode_boards {layout}", x)
        digest(f"classes {layout}", cls)
    digest("prune_chances", _net.prune_chances(nets, boards))
    digest("position_classes", _net.position_classes(boards))
    digest("escapes", [_net.escapes(i, m) for i in range(25) for m in (0, 0x3F, 0xFFF, 0x5A5A5A)])
    # Training kernels on a copy of the weights.
    arrays = {k: v.copy() for k, v in nets.arrays.items()}
    fresh = network.networks(arrays)
    digest("selfplay_train td0", _net.selfplay_train(fresh, 20, np.random.default_rng(1), 0.01, 0.01, 0.1, 0.05))
    digest("selfplay_train lambda", _net.selfplay_train(fresh, 10, np.random.default_rng(2), 0.01, 0.01, 0.1,
                                                        0.05, 0.7))
    digest("weights after selfplay", fresh.arrays["contact_w1"])
    sampled = _net.sample_positions(nets, 10, np.random.default_rng(4), 0.1)
    digest("sample_positions", sampled)
    targets = _net.evaluate(nets, sampled[:200], 0)
    order = np.random.default_rng(5).permutation(len(sampled[:200])).astype(np.int64)
    digest("train_supervised", [_net.train_supervised(fresh, sampled[:200], targets, order, 0.05, 0.05)])
    digest("train_pruner", [_net.train_pruner(fresh, sampled[:200], targets, order, 0.05)])
    digest("weights after training", fresh.arrays["race_w1"])
    digest("td_returns", _net.td_returns(targets[:50], (np.arange(50) % 7 == 0).astype(np.uint8), 0.6))
    # The game loop.
    load_weights()
    start = np.frombuffer(bg.Position.initial().to_bytes(), dtype=np.uint8)
    net, pub, rnd = (_choice.Policy.POLICY_NET, _choice.Policy.POLICY_PUBEVAL, _choice.Policy.POLICY_RANDOM)
    tables = bg.bearoff.kernel_tables()
    for name, args in (("net plain", dict(policy0=net, policy1=net, n_games=200)),
                       ("net reduced", dict(policy0=net, policy1=net, n_games=30, reduce=True)),
                       ("net truncated", dict(policy0=net, policy1=net, n_games=100, truncate=7, reduce=True)),
                       ("net bearoff", dict(policy0=net, policy1=pub, n_games=100, bearoff=True, **tables)),
                       ("random", dict(policy0=rnd, policy1=rnd, n_games=2000)),
                       ("pubeval", dict(policy0=pub, policy1=pub, n_games=500))):
        res, luck = _rollout.play_games(start, 5, key=12345, nets=nets, **args)
        digest(f"play_games {name}", res)
        digest(f"play_games {name} luck", luck)
    digest("choose_plays net", _choice.choose_plays(net, boards, rolls, nets=nets))
    digest("lockstep_luck", _rollout.lockstep_luck(nets, boards[:20], rolls[:20],
                                                   (np.arange(20) % 2).astype(np.int8)))
    # Public figures.
    r = bg.rollout(games=72, seed=7, workers=1)
    print("rollout", r.equity, r.equity_se, r.probabilities if hasattr(r, "probabilities") else "")
    r = bg.rollout(games=36, seed=8, workers=1, truncate=5, cube=True)
    print("rollout cubeful", r.equity, r.equity_se)
    d = bg.duel("net", "pubeval", games=40, seed=9, workers=1)
    print("duel", _timeless(d))
    d = bg.duel("net:1", "net", games=4, seed=10, workers=1)
    print("duel net:1", _timeless(d))
    pos = bg.Position.from_id("4HPwATDgc/ABMA")
    for h in bg.hint(pos, "31", ply=2):
        print("hint", h)
    print("cube", bg.cube_decision(bg.Position.from_id("sPPIAyCGn4kDIA"), ply=1))
    match = bg.play_match(["net", "pubeval"], 3, seed=11)
    analysis = bg.analyse(match, ply=0, workers=1)
    print("analysis", _timeless(analysis))
    return 0


if __name__ == "__main__":
    sys.exit(main())
