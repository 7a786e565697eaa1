"""MaskablePPO (sb3-contrib) on the single-agent environment, against the
random opponent, then evaluated on the vector environment.

    pip install 'backgammon[rl]' sb3-contrib        # and torch (the CPU build is enough)
    python examples/maskable_ppo.py --timesteps 200000

The recipe:

- ``gymnasium.make("backgammon/Backgammon-v0", opponent="random",
  mask_in_observation=False)``: the observation is the 210 TD-Gammon and
  dice units alone (the policy does not take the 3,072 mask units as
  features), and the env's ``action_masks()`` is what MaskablePPO calls
  (through ``get_wrapper_attr``), so no ``ActionMasker`` wrapper is needed;
- ``make_vec_env`` with a callable (given the id, it would ask for
  ``render_mode="rgb_array"``, which the environment does not have);
- ``"MultiInputPolicy"`` over the one-key dict observation;
- the evaluation plays ``--eval-games`` games at once in
  ``BackgammonVectorEnv``: ``model.predict(obs, action_masks=envs.action_masks())``.

Result on this machine (2 vCPUs shared with other jobs, torch 2.13 CPU,
one thread), ``python examples/maskable_ppo.py --timesteps 200000
--eval-games 2000``, seed 0, 8 environments, ``n_steps=256``,
``batch_size=512``, one hidden layer of 128 units, evaluated greedily on
2,000 games against the random opponent (a game won, a gammon or a
backgammon count 1, 2, 3 points):

| player | wins | points a game |
| --- | ---: | ---: |
| uniformly random legal plays | 49.0% | -0.045 +- 0.045 |
| the untrained policy (greedy) | 58.7% | +0.353 +- 0.040 |
| after 200,704 steps (25 minutes) | 63.3% | +0.627 +- 0.038 |

For scale: pubeval, greedy on afterstates, scores +2.48 +- 0.02 against
random play, the shipped network +2.65 (``backgammon duel pubeval random
--games 2000``): PPO over whole-turn actions learns slowly from the 210
raw units, where an afterstate value (examples/afterstates.py) needs no
training at all to rank the plays.  The numbers for your run are printed
at the end.
"""
from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import backgammon.env  # noqa: F401  (registers backgammon/Backgammon-v0)
from backgammon.env.vector import BackgammonVectorEnv


def evaluate(model, games: int, seed: int) -> tuple[float, float, float]:
    """Win rate, points per game and its standard error of ``model``
    (None: uniformly random legal plays) over ``games`` games against the
    random opponent, all played at once."""
    from backgammon.env import sample_legal
    envs = BackgammonVectorEnv(games, opponent="random", mask_in_observation=False)
    obs, info = envs.reset(seed=seed)
    points = np.zeros(games)
    over = np.zeros(games, dtype=bool)
    rng = np.random.default_rng(seed)
    while not over.all():
        if model is None:
            actions = sample_legal(info["num_plays"], rng)
        else:
            actions, _ = model.predict(obs, action_masks=envs.action_masks(), deterministic=True)
        obs, reward, term, trunc, info = envs.step(np.asarray(actions, dtype=np.int64))
        new = term & ~over
        points[new] = reward[new]
        over |= term
    return (float((points > 0).mean()), float(points.mean()),
            float(points.std(ddof=1) / np.sqrt(games)))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--eval-games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    venv = make_vec_env(lambda: gymnasium.make("backgammon/Backgammon-v0", opponent="random",
                                               mask_in_observation=False),
                        n_envs=args.envs, seed=args.seed)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=256, batch_size=512, seed=args.seed,
                        device="cpu", policy_kwargs={"net_arch": [128]})
    for label, m in (("random legal plays", None), ("untrained policy", model)):
        win, ppg, se = evaluate(m, args.eval_games, args.seed + 1)
        print(f"{label}: wins {win:.1%}, {ppg:+.3f} +- {se:.3f} points a game against random")
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    minutes = (time.perf_counter() - start) / 60
    win, ppg, se = evaluate(model, args.eval_games, args.seed + 1)
    print(f"after {model.num_timesteps:,} steps ({minutes:.1f} minutes): wins {win:.1%}, "
          f"{ppg:+.3f} +- {se:.3f} points a game against random")


if __name__ == "__main__":
    main()
