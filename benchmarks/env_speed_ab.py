"""The vector environment's speed under two builds, A/B: the configurations
of ``benchmarks/test_env.py::test_vector_env_steps`` (N = 1,024 games, 50
steps a round, random legal actions; copy or not, the random or pubeval
opponent, one or two threads), each build in its own process, the two
alternating round after round, the fastest round of each kept (on a shared
machine the fastest round is the one least disturbed).  Rounds are timed
in CPU time of the process (all its threads), the default, or in wall
time (``--clock wall``): on a machine shared with other jobs a
single-threaded round's wall time is mostly time spent descheduled.

    python benchmarks/env_speed_ab.py --a /path/to/old/python --b /path/to/new/python --rounds 3

Prints agent steps a second for each configuration and build, and B / A.
Used to check that a change left the vector environment's speed as it
was (issue 46: within 5%).
"""
from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys

CHILD = r"""
import json, sys, time
import numpy as np
from backgammon.env.vector import BackgammonVectorEnv
copy, opponent, threads, reps, clock = json.loads(sys.argv[1])
clock = time.process_time if clock == "cpu" else time.perf_counter
n, steps = 1024, 50
envs = BackgammonVectorEnv(n, opponent=opponent, copy=copy, threads=threads)
rng = np.random.default_rng(0)
obs, info = envs.reset(seed=0)
best = float("inf")
for rep in range(reps + 1):          # the first round warms up
    t = clock()
    for _ in range(steps):
        obs, reward, term, trunc, info = envs.step((rng.random(n) * info["num_plays"]).astype(np.int64))
    dt = clock() - t
    if rep:
        best = min(best, dt)
print(n * steps / best)
"""

CONFIGS = list(itertools.product([False, True], ["random", "pubeval"], [1, 2]))


def rate(python: str, config, reps: int, clock: str = "cpu") -> float:
    out = subprocess.run([python, "-c", CHILD, json.dumps(list(config) + [reps, clock])],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="the python of build A (the baseline)")
    ap.add_argument("--b", default=sys.executable, help="the python of build B (default: this one)")
    ap.add_argument("--rounds", type=int, default=5, help="alternations of A and B")
    ap.add_argument("--reps", type=int, default=5, help="timed rounds in each process")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu", help="CPU time (default) or wall time")
    args = ap.parse_args(argv)
    best = {(c, side): 0.0 for c in CONFIGS for side in "ab"}
    for r in range(args.rounds):
        for c in CONFIGS:
            for side in ("ab" if r % 2 == 0 else "ba"):
                python = args.a if side == "a" else args.b
                best[c, side] = max(best[c, side], rate(python, c, args.reps, args.clock))
        # The table so far after every alternation: a long run can be cut short.
        print(f"steps a second of {args.clock} time, the fastest of {r + 1} x {args.reps} rounds")
        print("| copy | opponent | threads | A steps/s | B steps/s | B / A |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for c in CONFIGS:
            a, b = best[c, "a"], best[c, "b"]
            print(f"| {c[0]} | {c[1]} | {c[2]} | {a:,.0f} | {b:,.0f} | {b / a:.3f} |", flush=True)


if __name__ == "__main__":
    main()
