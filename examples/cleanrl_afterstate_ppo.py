"""PPO in one file, CleanRL-style, with a policy that scores afterstates.

The whole algorithm is here (rollout storage, GAE, the clipped objective),
over the lockstep Gymnasium vector environment with ``afterstates=True``:
``backgammon.env.afterstate.AfterstateScorer`` gives every legal play a
logit and a value from its afterstate, with one shared network; the
state's value is the values weighted by the policy.  Gymnasium's NEXT_STEP
autoreset is handled as CleanRL's newer scripts do: the step after a game
ends only restarts it, and is left out of the loss.

    python examples/cleanrl_afterstate_ppo.py --minutes 30 --eval-games 20000

Prints the CPU time (one core) and the points a game against random play
and pubeval (duplicate-dice duels of a frozen copy).
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

import backgammon as bg
from backgammon.env.afterstate import AfterstateScorer, masked_softmax_value
from backgammon.env.opponents import frozen
from backgammon.env.vector import BackgammonVectorEnv


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="CPU minutes of training")
    ap.add_argument("--opponent", default="pubeval")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=64, help="steps per rollout")
    ap.add_argument("--minibatches", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--vf-coef", type=float, default=0.5)
    ap.add_argument("--max-plays", type=int, default=512)
    ap.add_argument("--hidden", type=int, nargs="+", default=[128])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=20_000)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    envs = BackgammonVectorEnv(args.envs, opponent=args.opponent, observation="raw",
                               afterstates=True, max_plays=args.max_plays, threads=1)
    agent = AfterstateScorer.for_space(envs.single_observation_space, envs.single_action_space,
                                       tuple(args.hidden))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)

    T, N = args.steps, args.envs
    keys = ("afterstates", "action_mask")
    store = {k: torch.zeros((T, N) + envs.single_observation_space[k].shape) for k in keys}
    actions = torch.zeros((T, N), dtype=torch.long)
    logprobs, rewards, values = torch.zeros((T, N)), torch.zeros((T, N)), torch.zeros((T, N))
    dones, valid = torch.zeros((T, N)), torch.zeros((T, N))

    obs, _ = envs.reset(seed=args.seed)
    was_done = np.zeros(N, dtype=bool)         # the next step only restarts these games
    cpu, steps = 0.0, 0
    t0 = time.process_time()
    while cpu < args.minutes * 60:
        for t in range(T):
            batch = {k: torch.as_tensor(obs[k]) for k in keys}
            with torch.no_grad():
                logits, vals = agent(batch)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            for k in keys:
                store[k][t] = batch[k]
            actions[t], logprobs[t] = action, dist.log_prob(action)
            values[t] = masked_softmax_value(logits, vals)[:, 0]
            valid[t] = torch.as_tensor(~was_done, dtype=torch.float32)
            obs, reward, term, trunc, _ = envs.step(action.numpy())
            rewards[t] = torch.as_tensor(reward)
            dones[t] = torch.as_tensor(term | trunc, dtype=torch.float32)
            was_done = term | trunc
        steps += T * N
        # GAE (gamma 1): a game's last step has no bootstrap; a restart step
        # is nobody's transition.
        with torch.no_grad():
            logits, vals = agent({k: torch.as_tensor(obs[k]) for k in keys})
            next_value = (masked_softmax_value(logits, vals)[:, 0]
                          * torch.as_tensor(~was_done, dtype=torch.float32))
            advantages = torch.zeros((T, N))
            last = torch.zeros(N)
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else values[t + 1]
                live = 1.0 - dones[t]
                delta = rewards[t] + nv * live - values[t]
                last = delta + args.gae_lambda * live * last
                last = last * valid[t] + (1 - valid[t]) * 0.0
                advantages[t] = last
            returns = advantages + values
        flat = valid.reshape(-1).nonzero()[:, 0]
        b = {k: store[k].reshape((T * N,) + store[k].shape[2:])[flat] for k in keys}
        b_actions, b_logprobs = actions.reshape(-1)[flat], logprobs.reshape(-1)[flat]
        b_adv, b_ret = advantages.reshape(-1)[flat], returns.reshape(-1)[flat]
        for _ in range(args.epochs):
            for mb in torch.tensor_split(torch.randperm(len(flat)), args.minibatches):
                logits, vals = agent({k: v[mb] for k, v in b.items()})
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(b_actions[mb]) - b_logprobs[mb]).exp()
                adv = b_adv[mb]
                adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
                pg_loss = torch.max(-adv * ratio,
                                    -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                v_loss = ((masked_softmax_value(logits, vals)[:, 0] - b_ret[mb]) ** 2).mean()
                loss = pg_loss + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        cpu = time.process_time() - t0
    print(f"trained {steps} steps in {cpu / 60:.1f} CPU minutes")
    player = frozen(agent, observation="raw", afterstates=True, max_plays=args.max_plays,
                    name="cleanrl-ppo")
    results = {}
    for opp in ("random", "pubeval"):
        r = bg.duel(player, opp, games=args.eval_games, seed=12345, workers=1)
        results[opp] = (round(r.ppg, 3), round(r.ppg_se, 3))
        print(f"against {opp}: {r.ppg:+.3f} +- {r.ppg_se:.3f} points a game ({r.games} games)")
    print(json.dumps({"steps": steps, "cpu_seconds": round(cpu), "results": results,
                      "args": vars(args)}))


if __name__ == "__main__":
    main()
