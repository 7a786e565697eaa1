"""TD(0) on afterstates with VectorGames, in numpy alone (TD-Gammon's recipe).

``VectorGames`` plays N games of self-play in lockstep: each step it rolls
for every game and gives the positions each can reach (CSR layout, with
their Tesauro encodings); a network scores them all in one batch, every
game plays the afterstate worst for its opponent, and the afterstate the
same side chose a turn earlier learns toward the value of the one it
reaches now (TD(0); the game's points when it ends).  One hidden layer of
sigmoid units, one linear output: the expected points of the side on roll,
trained by Adam on each step's batch of TD errors.

    python examples/td0_vectorgames.py --minutes 5 --eval-games 20000

Prints the CPU time and the points a game against random play and pubeval
(duplicate-dice duels).  Here (one core, the defaults) 5 CPU minutes gave
+0.336 +- 0.010 points a game against pubeval and +2.540 +- 0.004 against
random play over 20,000 games each; docs/environments.md ("VectorGames
and TD(0)", "Baselines") has the details, and
benchmarks/results/td0_vectorgames_5min.npz the weights (``--load`` it
with ``--minutes 5`` to measure them again).
"""
from __future__ import annotations

import argparse
import json
import os
import time

# One core: numpy's BLAS would otherwise start a thread a core (process
# time counts them all).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np
from backgammon.batch import legal_positions
from backgammon.env import final_points
from backgammon.lockstep import VectorGames
from backgammon.players import Player
from backgammon.pubeval import tesauro_inputs

import backgammon as bg


class Net:
    """198 inputs, ``hidden`` sigmoid units, one linear output; Adam steps."""

    def __init__(self, hidden: int, rng):
        self.params = [rng.uniform(-0.1, 0.1, (198, hidden)).astype(np.float32),
                       np.zeros(hidden, np.float32),
                       rng.uniform(-0.1, 0.1, hidden).astype(np.float32),
                       np.zeros(1, np.float32)]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def __call__(self, x):
        w1, b1, w2, b2 = self.params
        return 1 / (1 + np.exp(-(x @ w1 + b1))) @ w2 + b2[0]

    def learn(self, x, target, lr, beta1=0.9, beta2=0.999):
        """One Adam step on the mean squared error of a batch."""
        w1, b1, w2, b2 = self.params
        h = 1 / (1 + np.exp(-(x @ w1 + b1)))
        err = (h @ w2 + b2[0]) - target                     # d(loss)/d(output), loss = err^2 / 2
        dh = np.outer(err, w2) * h * (1 - h)
        grads = [x.T @ dh / len(x), dh.mean(axis=0), h.T @ err / len(x),
                 np.array([err.mean()], np.float32)]
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p -= lr * (m / (1 - beta1 ** self.t)) / (np.sqrt(v / (1 - beta2 ** self.t)) + 1e-8)

    def save(self, path, **extra):
        """The weights and Adam's state (``--load`` continues from them)."""
        arrays = {f"{k}{i}": a for k, group in (("p", self.params), ("m", self.m), ("v", self.v))
                  for i, a in enumerate(group)}
        np.savez(path, t=self.t, **arrays, **{k: np.asarray(v) for k, v in extra.items()})

    def load(self, path):
        """Restores :meth:`save`'s arrays; returns the file (for its extras)."""
        f = np.load(path)
        for k, group in (("p", self.params), ("m", self.m), ("v", self.v)):
            for i, a in enumerate(group):
                a[...] = f[f"{k}{i}"]
        self.t = int(f["t"])
        return f


class NetPlayer(Player):
    """Plays the afterstate the network values lowest for the opponent."""

    def __init__(self, net):
        self.net, self.spec = net, "td0"

    def choose_indices(self, boards, rolls):
        offsets, children = legal_positions(boards, rolls, validate=False, threads=1)
        return best(self.net(tesauro_inputs(children)), children, offsets)


def best(values, children, offsets):
    """Each game's choice: the afterstate worst for the side that moves next
    (a play that ends the game: the points the next mover lost)."""
    points = final_points(children)
    values = np.where(points != 0, points, values)
    game = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    order = np.lexsort((values, game))                  # by game, then value
    return order[offsets[:-1]] - offsets[:-1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="CPU minutes of training")
    ap.add_argument("--games", type=int, default=128, help="games in lockstep")
    ap.add_argument("--hidden", type=int, default=80)
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's step size")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=20_000)
    ap.add_argument("--every", type=float, default=0.0,
                    help="CPU minutes between progress duels against pubeval "
                         "(not counted; 0: none)")
    ap.add_argument("--progress-games", type=int, default=2000)
    ap.add_argument("--save", default=None,
                    help="checkpoint (.npz), written at each progress duel and at the end")
    ap.add_argument("--load", default=None,
                    help="a checkpoint to continue from (its CPU time and games count on)")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    net = Net(args.hidden, rng)
    spent, games = 0.0, 0
    if args.load:
        f = net.load(args.load)
        spent, games = float(f["cpu_seconds"]), int(f["games"])
    vg = VectorGames(args.games, seed=args.seed + games)
    # each game's last afterstate, from its next mover's side
    prev = np.zeros((args.games, 198), np.float32)
    has_prev = np.zeros(args.games, bool)
    t0, moves = time.process_time() - spent, 0
    curve = []
    next_duel = (spent // (args.every * 60) + 1) * args.every * 60 if args.every else float("inf")
    while time.process_time() - t0 < args.minutes * 60:
        offsets, children, x = vg.candidates(encode=True)
        choice = best(net(x), children, offsets)
        picked = offsets[:-1] + choice
        points = final_points(children[picked])
        # The side to move now is the one on roll in its previous afterstate:
        # that afterstate's value is what this side gets from here, minus
        # the value of its chosen afterstate for the opponent (or the points won).
        value_now = np.where(points != 0, -points, -net(x[picked]))
        if has_prev.any():
            net.learn(prev[has_prev], value_now[has_prev].astype(np.float32), args.lr)
        prev[:] = x[picked]
        ended, _ = vg.advance(choice)
        has_prev[:] = True
        has_prev[ended] = False
        moves += args.games
        games += len(ended)
        cpu = time.process_time() - t0
        if cpu >= next_duel:
            r = bg.duel(NetPlayer(net), "pubeval", games=args.progress_games, seed=1, workers=1)
            curve.append((round(cpu / 60, 1), games, round(r.ppg, 3), round(r.ppg_se, 3)))
            print(f"cpu {cpu / 60:5.1f} min  {games} games  "
                  f"vs pubeval {r.ppg:+.3f} +- {r.ppg_se:.3f}", flush=True)
            next_duel += args.every * 60
            if args.save:
                net.save(args.save, cpu_seconds=cpu, games=games)
            t0 += time.process_time() - t0 - cpu       # the duel is not training time
    cpu = time.process_time() - t0
    if args.save:
        net.save(args.save, cpu_seconds=cpu, games=games)
    print(f"trained {games} games ({moves} moves) in {cpu / 60:.1f} CPU minutes")
    results = {}
    for opp in ("random", "pubeval"):
        r = bg.duel(NetPlayer(net), opp, games=args.eval_games, seed=12345, workers=1)
        results[opp] = (round(r.ppg, 3), round(r.ppg_se, 3))
        print(f"against {opp}: {r.ppg:+.3f} +- {r.ppg_se:.3f} points a game ({r.games} games)")
    print(json.dumps({"games": games, "cpu_seconds": round(cpu), "results": results, "curve": curve,
                      "args": vars(args)}))


if __name__ == "__main__":
    main()
