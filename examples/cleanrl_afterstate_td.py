"""TD(0) on afterstates in one file, CleanRL-style, against an opponent.

The agent plays in the lockstep Gymnasium vector environment against
``--opponent`` (pubeval by default).  Each step it scores every legal play's
afterstate (``info["afterstates"]``, CSR over the games, encoded with
``backgammon.env.encodings``) with one network, plays the best (or, with
chance ``--epsilon``, a random play), and the afterstate it chose a turn
earlier learns toward the best value it can reach now (Q-learning on
afterstates; the game's points when it ends).  Adam, one step per
environment step.

    python examples/cleanrl_afterstate_td.py --minutes 30 --eval-games 20000

Prints the CPU time (one core) and the points a game against random play
and pubeval (duplicate-dice duels).
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from torch import nn

import backgammon as bg
from backgammon.batch import legal_positions
from backgammon.env.encodings import encoding
from backgammon.env.vector import BackgammonVectorEnv
from backgammon.players import Player

ENC = encoding("tesauro")


def best(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Each game's highest-valued play (games with no play: 0)."""
    counts = np.diff(offsets)
    game = np.repeat(np.arange(len(counts)), counts)
    order = np.lexsort((-values, game))
    out = np.zeros(len(counts), dtype=np.int64)
    has = counts > 0
    out[has] = order[offsets[:-1][has]] - offsets[:-1][has]
    return out


class Agent(Player):
    """The trained network as a player (for duels): the play whose
    afterstate it values highest."""

    def __init__(self, net):
        self.net, self.spec = net, "cleanrl-td"

    def choose_indices(self, boards, rolls):
        offsets, children = legal_positions(boards, rolls, validate=False, threads=1)
        with torch.no_grad():
            v = self.net(torch.from_numpy(ENC.afterstates(children)))[:, 0].numpy()
        return best(v, offsets)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="CPU minutes of training")
    ap.add_argument("--opponent", default="pubeval")
    ap.add_argument("--envs", type=int, default=128)
    ap.add_argument("--hidden", type=int, default=80)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--epsilon", type=float, default=0.0, help="chance of a random play")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=20_000)
    ap.add_argument("--every", type=float, default=0.0,
                    help="CPU minutes between progress duels against pubeval "
                         "(not counted; 0: none)")
    ap.add_argument("--progress-games", type=int, default=2000)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    net = nn.Sequential(nn.Linear(198, args.hidden), nn.Sigmoid(), nn.Linear(args.hidden, 1))
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
    n = args.envs
    envs = BackgammonVectorEnv(n, opponent=args.opponent, threads=1, copy=False,
                               mask_in_observation=False)
    _, info = envs.reset(seed=args.seed)
    prev = torch.zeros((n, 198))                  # each game's last afterstate, not yet learnt
    has_prev = np.zeros(n, dtype=bool)
    cpu, steps, games = 0.0, 0, 0
    curve = []
    next_duel = args.every * 60 if args.every else float("inf")
    t0 = time.process_time()
    while cpu < args.minutes * 60:
        offsets, counts = info["afterstate_offsets"], info["num_plays"]
        x = torch.from_numpy(ENC.afterstates(info["afterstates"]))
        with torch.no_grad():
            v = net(x)[:, 0].numpy()
        choice = best(v, offsets)
        explore = (rng.random(n) < args.epsilon) & (counts > 0)
        choice[explore] = (rng.random(explore.sum()) * counts[explore]).astype(np.int64)
        live = counts > 0                         # a finished game's step only restarts it
        picked = offsets[:-1] + np.minimum(choice, np.maximum(counts - 1, 0))
        best_now = np.full(n, np.nan, dtype=np.float32)
        best_now[live] = v[offsets[:-1][live] + best(v, offsets)[live]]
        _, reward, terminated, truncated, info = envs.step(choice)
        # Targets: the afterstate chosen a turn earlier learns the best value
        # reachable now; the one chosen now, if the game just ended, its points.
        learn = has_prev & live
        xs = [prev[learn]]
        ys = [torch.from_numpy(best_now[learn])]
        ended = live & terminated
        if ended.any():
            xs.append(x[picked[ended]])
            ys.append(torch.from_numpy(reward[ended].astype(np.float32)))
        if sum(len(t) for t in ys):
            pred = net(torch.cat(xs))[:, 0]
            loss = ((pred - torch.cat(ys)) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        prev[live] = x[picked[live]]
        has_prev = live & ~terminated
        steps += int(live.sum())
        games += int(ended.sum())
        cpu = time.process_time() - t0
        if cpu >= next_duel:
            r = bg.duel(Agent(net), "pubeval", games=args.progress_games, seed=1, workers=1)
            curve.append((round(cpu / 60, 1), games, round(r.ppg, 3), round(r.ppg_se, 3)))
            print(f"cpu {cpu / 60:5.1f} min  {games} games  "
                  f"vs pubeval {r.ppg:+.3f} +- {r.ppg_se:.3f}", flush=True)
            next_duel += args.every * 60
            t0 += time.process_time() - t0 - cpu       # the duel is not training time
    print(f"trained {games} games ({steps} moves) in {cpu / 60:.1f} CPU minutes")
    results = {}
    for opp in ("random", "pubeval"):
        r = bg.duel(Agent(net), opp, games=args.eval_games, seed=12345, workers=1)
        results[opp] = (round(r.ppg, 3), round(r.ppg_se, 3))
        print(f"against {opp}: {r.ppg:+.3f} +- {r.ppg_se:.3f} points a game ({r.games} games)")
    print(json.dumps({"games": games, "steps": steps, "cpu_seconds": round(cpu), "results": results,
                      "curve": curve, "args": vars(args)}))


if __name__ == "__main__":
    main()
