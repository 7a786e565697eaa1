"""How far the shared dice shrink a rollout difference's standard error:
``difference_se / sqrt(se_a**2 + se_b**2)`` of ``rollout_cube`` (double/take
minus no double) and of ``rollout_plays`` (each candidate minus the best),
with and without variance reduction, on the published positions of
``benchmarks/data/published_rollouts.json`` (docs/guide/rollouts.md quotes
the medians)::

    nice -n 10 python benchmarks/difference_se.py --games 648 --cube 12 --checker 8 \\
        --out benchmarks/results/difference_se.json

A ratio of 1 is no gain from the shared dice; the lower, the more of the
two equities' noise the candidates have in common.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

DATA = Path(__file__).parent / "data" / "published_rollouts.json"


def main() -> None:
    import backgammon as bg
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=648)
    ap.add_argument("--cube", type=int, default=12, help="how many cube positions (the file's first)")
    ap.add_argument("--checker", type=int, default=8, help="how many checker positions (the file's first)")
    ap.add_argument("--top", type=int, default=4, help="candidates per checker position (the 0-ply best)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    positions = json.loads(DATA.read_text())["positions"]
    cube = [p for p in positions if p["kind"] == "cube"][:args.cube]
    checker = [p for p in positions if p["kind"] == "checker"][:args.checker]
    out: dict = {"settings": {**vars(args), "out": str(args.out)}, "cube": [], "checker": []}
    for vr in (True, False):
        for p in cube:
            pos, state = bg.read_xgid(p["xgid"])
            d = bg.rollout_cube(pos, state, games=args.games, seed=args.seed, workers=1, variance_reduction=vr)
            ratio = d.difference_se / math.hypot(d.no_double_se, d.double_take_se)
            out["cube"].append({"id": p["id"], "variance_reduction": vr, "ratio": ratio})
            print(f"cube    vr={vr!s:5} {p['id']:<40} {ratio:.3f}", flush=True)
        for p in checker:
            pos, state = bg.read_xgid(p["xgid"])
            ranked = bg.rollout_plays(pos, state.dice, top=args.top, games=args.games, seed=args.seed, workers=1,
                                      variance_reduction=vr, state=state,
                                      # money checker plays cubeless, as results/difference_se.json measured
                                      cube=state.match_length > 0)
            best = ranked[0]
            for r in ranked[1:]:
                ratio = r.difference_se / math.hypot(r.equity_se, best.equity_se)
                out["checker"].append({"id": p["id"], "play": str(r.play), "variance_reduction": vr, "ratio": ratio})
            print(f"checker vr={vr!s:5} {p['id']:<40} "
                  + " ".join(f"{x['ratio']:.3f}" for x in out["checker"][-(len(ranked) - 1):]), flush=True)
    out["medians"] = {f"{kind} vr={vr}": statistics.median(x["ratio"] for x in out[kind]
                                                          if x["variance_reduction"] is vr)
                      for kind in ("cube", "checker") for vr in (True, False)}
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out["medians"], indent=1))


if __name__ == "__main__":
    main()
