"""Per-game cubeful values and luck of rollout_cube's two starts (no
double, double/take), to compare two variance reductions on the same games.

The games (dice, plays, cube decisions) do not depend on the luck, so two
commits that differ only in how the luck is taken play the same games:
their per-game values are equal and the paired difference of their
corrected values has mean zero when both are unbiased.  Dice are not
stratified (``stratify=False``: every roll at its own chance, so each luck
has mean zero for any number of games)::

    IDS=middle-game-cubes-1-money,usbgf-olm-redouble-bearoff,middle-game-cubes-1-3away,bgonline-160613-23-shots
    nice -n 10 python benchmarks/cube_variance.py run new.npz --games 648 --ids $IDS --seeds 1,2
    # the same on the other commit into old.npz, then
    python benchmarks/cube_variance.py compare old.npz new.npz
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data" / "published_rollouts.json"


def run(out: Path, games: int, ids: list[str], seeds: list[int]) -> None:
    from backgammon.formats.xgid import parse_xgid
    from backgammon.matchid import state_and_rules
    from backgammon.rollouts.api import as_player0
    from backgammon.rollouts.loop import Start
    from backgammon.rollouts.plan import plan
    from backgammon.rollouts.statistics import merge
    data = {e["id"]: e for e in json.loads(DATA.read_text())["positions"]}
    arrays: dict[str, np.ndarray] = {}
    for pid in ids:
        x = parse_xgid(data[pid]["xgid"])
        state, rules = state_and_rules(x.state, x.state.game_rules())
        state = as_player0(state)
        for seed in seeds:
            t = time.process_time()
            p = plan(games, "net", None, seed, False, None, False, True, 1, None, False, 1296, True, rules)
            taken = state.replace(cube_value=2 * state.cube_value, cube_owner=1)
            starts = [Start(x.position.to_bytes(), True, state, no_double_first=True),
                      Start(x.position.to_bytes(), True, taken, unit=state.cube_value)]
            parts, _ = p.roll(starts)
            for k, name in ((0, "nd"), (1, "dt")):
                m = merge(parts, k)
                arrays[f"{pid}|{seed}|{name}|value"] = m["value"]
                arrays[f"{pid}|{seed}|{name}|value_luck"] = m["value_luck"]
            print(pid, seed, "cpu", round(time.process_time() - t, 1), file=sys.stderr, flush=True)
            np.savez(out, **arrays)


def compare(old: Path, new: Path) -> None:
    a, b = np.load(old), np.load(new)
    keys = sorted({k.rsplit("|", 1)[0] for k in a.files} & {k.rsplit("|", 1)[0] for k in b.files})

    def se(x):
        return x.std(ddof=1) / math.sqrt(len(x))

    print("| position, seed, start | raw | old | new | SE new / old | new - old (z) |")
    print("|---|---|---|---|---|---|")
    for k in keys:
        v0, v1 = a[k + "|value"], b[k + "|value"]
        if not np.array_equal(v0, v1):
            raise SystemExit(f"{k}: the games differ; not the same games to compare")
        o, n = v0 - a[k + "|value_luck"], v1 - b[k + "|value_luck"]
        d = n - o
        print(f"| {k.replace('|', ', ')} | {v0.mean():+.4f} ± {se(v0):.4f} | {o.mean():+.4f} ± {se(o):.4f} | "
              f"{n.mean():+.4f} ± {se(n):.4f} | {se(n) / se(o):.2f} | {d.mean():+.4f} ({d.mean() / se(d):+.2f}) |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out", type=Path)
    r.add_argument("--games", type=int, default=648)
    r.add_argument("--ids", required=True)
    r.add_argument("--seeds", default="1,2")
    c = sub.add_parser("compare")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "run":
        run(args.out, args.games, args.ids.split(","), [int(s) for s in args.seeds.split(",")])
    else:
        compare(args.old, args.new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
