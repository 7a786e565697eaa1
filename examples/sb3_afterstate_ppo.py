"""PPO (Stable-Baselines3) with a policy that scores afterstates.

The lockstep games run as an SB3 ``VecEnv`` (``backgammon.env.sb3.
BackgammonVecEnv``) with ``afterstates=True``: each observation holds the
positions the legal plays lead to, and ``AfterstatePolicy`` scores each
with one shared network, the scores being the logits over the plays (the
value: the afterstates' values weighted by the policy).  The agent trains
against ``--opponent`` (pubeval by default), then is measured against
random play and pubeval in duplicate-dice duels (``backgammon.duel``), as a
frozen copy (``backgammon.env.opponents.frozen``).

    python examples/sb3_afterstate_ppo.py --minutes 30 --eval-games 20000

Prints the CPU time (process time: one core, ``torch.set_num_threads(1)``)
and the points a game with their standard errors; docs/environments.md
("Baselines") has this machine's figures.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback

import backgammon as bg
from backgammon.env.opponents import frozen
from backgammon.env.sb3 import AfterstatePolicy, BackgammonVecEnv


class Budget(BaseCallback):
    """Stops training after ``minutes`` of CPU time; checkpoints and a
    short duel against pubeval every ``every`` steps (not counted)."""

    def __init__(self, minutes: float, every: int, path: str | None, games: int):
        super().__init__()
        self.limit = minutes * 60
        self.every, self.path, self.games = every, path, games
        self.cpu = 0.0
        self._t = time.process_time()
        self._next = every
        self.curve: list = []

    def _on_step(self) -> bool:
        now = time.process_time()
        self.cpu += now - self._t
        self._t = now
        if self.num_timesteps >= self._next:
            self._next += self.every
            r = bg.duel(frozen(self.model), "pubeval", games=self.games, seed=1, workers=1)
            self.curve.append((self.num_timesteps, round(self.cpu), round(r.ppg, 3),
                               round(r.ppg_se, 3)))
            print(f"{self.num_timesteps:>9} steps  cpu {self.cpu / 60:5.1f} min  "
                  f"vs pubeval {r.ppg:+.3f} +- {r.ppg_se:.3f}", flush=True)
            if self.path:
                self.model.save(self.path)
            self._t = time.process_time()      # the duel is not training time
        return self.cpu < self.limit


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="CPU minutes of training")
    ap.add_argument("--opponent", default="pubeval")
    ap.add_argument("--observation", default="raw")
    ap.add_argument("--max-plays", type=int, default=512)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--n-steps", type=int, default=64)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--ent-coef", type=float, default=0.0)
    ap.add_argument("--hidden", type=int, nargs="+", default=[128])
    ap.add_argument("--tied", action="store_true",
                    help="logits = values x a learnt inverse temperature")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--every", type=int, default=200_000, help="steps between progress duels")
    ap.add_argument("--progress-games", type=int, default=2000)
    ap.add_argument("--eval-games", type=int, default=20_000)
    ap.add_argument("--save", default=None, help="checkpoint path (.zip)")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    venv = BackgammonVecEnv(args.envs, opponent=args.opponent, observation=args.observation,
                            afterstates=True, max_plays=args.max_plays, seed=args.seed)
    model = PPO(AfterstatePolicy, venv,
                policy_kwargs={"hidden": tuple(args.hidden), "tied": args.tied},
                learning_rate=args.lr,
                n_steps=args.n_steps, batch_size=args.batch, n_epochs=args.epochs, gamma=1.0,
                gae_lambda=args.gae_lambda, ent_coef=args.ent_coef, seed=args.seed, device="cpu")
    budget = Budget(args.minutes, args.every, args.save, args.progress_games)
    model.learn(total_timesteps=10 ** 10, callback=budget)
    if args.save:
        model.save(args.save)
    agent = frozen(model)
    results = {}
    for opp in ("random", "pubeval"):
        r = bg.duel(agent, opp, games=args.eval_games, seed=12345, workers=1)
        results[opp] = (round(r.ppg, 3), round(r.ppg_se, 3))
        print(f"against {opp}: {r.ppg:+.3f} +- {r.ppg_se:.3f} points a game ({r.games} games)")
    print(json.dumps({"steps": model.num_timesteps, "cpu_seconds": round(budget.cpu),
                      "results": results, "curve": budget.curve, "args": vars(args)}))


if __name__ == "__main__":
    main()
