"""Why our cubeful rollouts' double/take differs from XG's, position by
position: the cubeless gap (our network's play) against the cube's own part.

For each cube position of saved ``published_rollouts.py`` results it prints
our no double and double/take minus XG's, the cubeless gap (our cubeless
rollout equity minus XG's cubeless no-double equity, money play: a gap in
the chances of playing on, our checker play against XG's; a middle-game
position at 3-away takes its money twin's, the same board), and in money play the cube's own part: double/take
minus the cubeless equity at the doubled cube (ours twice our cubeless
equity, XG's its published cubeless double/take), ours minus XG's; the
double/take gap is exactly the cubeless gap at the doubled cube (ours
minus XG's cubeless double/take) plus that.  A gap in the cubeless part
comes from the chances (the checker play); a gap in the cube's own part
from the cube's handling (or the model at the end of a game).

Our cubeless equity is the rollout's own (``cubeless``, the chances of
playing on) in results made after the pass fix; results made before it
carry the doubler's evaluation at each pass there, so their positions take
it from ``--cubeless FILE`` (cubeless rollouts with the same seed and
games, which play the same games: ``benchmarks/results/cubeless_rollouts_seed1.json``)::

    python benchmarks/cube_gaps.py --cubeless benchmarks/results/cubeless_rollouts_seed1.json \\
        benchmarks/results/published_rollouts_cube_{part3,part2a,part2b,part2c,part1,seven}.json

Positions in several files are taken from the first file naming them.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data" / "published_rollouts.json"
#: Files whose ``cubeless`` is the doubler's evaluation at each pass (before the pass fix).
BEFORE_PASS_FIX = ("published_rollouts_cube_seven.json", "published_rollouts_cube_part1.json",
                   "published_rollouts_cube.json")


def twin(pid: str) -> str:
    # A middle-game position at 3-away and in money play is the same board,
    # so the same cubeless rollout (same seed and games).
    return pid.replace("-3away", "-money") if pid.startswith("middle-game-cubes-") else pid


def rows(files: list[Path], cubeless: dict) -> list[dict]:
    data = {e["id"]: e for e in json.loads(DATA.read_text())["positions"]}
    seen: dict[str, dict] = {}
    pending: list[tuple[str, str]] = []
    for f in files:
        for r in json.loads(f.read_text())["results"]:
            if r["kind"] != "cube" or r["id"] in seen:
                continue
            e = data[r["id"]]
            money = e["rules"]["match_length"] == 0
            if money:
                ours_cl = r["cubeless"]["ours"] if f.name not in BEFORE_PASS_FIX else \
                    cubeless.get(r["id"], {}).get("equity")
                xg_cl = e.get("cubeless_no_double")
            else:
                # XG's cubeless equity at a match score is in other units: the
                # gap in the chances is the money twin's (the same board).
                ours_cl = xg_cl = None
            gap = None if ours_cl is None or xg_cl is None else ours_cl - xg_cl
            if not money and twin(r["id"]) != r["id"]:
                pending.append((r["id"], twin(r["id"])))
            row = dict(id=r["id"], money=money, nd=r["no_double"]["ours"] - e["no_double"],
                       dt=r["double_take"]["ours"] - e["double_take"], cubeless_gap=gap,
                       agree=r["agree"], file=f.name)
            if money and gap is not None and e.get("cubeless_double") is not None:
                # double/take - XG's = (our cubeless at the doubled cube - XG's) + the cube parts' difference
                row["cubeless_gap_dt"] = 2 * ours_cl - e["cubeless_double"]
                row["cube_part_dt"] = (r["double_take"]["ours"] - 2 * ours_cl) - (e["double_take"] - e["cubeless_double"])
            seen[r["id"]] = row
    for pid, money_twin in pending:
        if money_twin in seen:
            seen[pid]["cubeless_gap"] = seen[money_twin]["cubeless_gap"]
    return list(seen.values())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", type=Path, nargs="+")
    ap.add_argument("--cubeless", type=Path, help="cubeless rollouts (id -> equity) for results before the pass fix")
    args = ap.parse_args(argv)
    cubeless = json.loads(args.cubeless.read_text())["positions"] if args.cubeless else {}
    out = rows(args.files, cubeless)
    f = (lambda v: "" if v is None else f"{v:+.3f}")
    print("| position | ND - XG | DT - XG | cubeless gap | cubeless gap at the doubled cube (money) "
          "| DT's cube part - XG's (money) | action |")
    print("|---|---|---|---|---|---|---|")
    for r in sorted(out, key=lambda r: r["dt"]):
        print(f"| {r['id']} | {f(r['nd'])} | {f(r['dt'])} | {f(r['cubeless_gap'])} | {f(r.get('cubeless_gap_dt'))} | "
              f"{f(r.get('cube_part_dt'))} | {'agree' if r['agree'] else 'differ'} |")
    for name, part in (("all", out), ("money", [r for r in out if r["money"]]),
                       ("match", [r for r in out if not r["money"]])):
        if not part:
            continue
        line = (f"{name}: {len(part)} positions, median |DT - XG| {statistics.median(abs(r['dt']) for r in part):.3f}, "
                f"mean DT - XG {statistics.mean(r['dt'] for r in part):+.3f}")
        gaps = [r for r in part if r["cubeless_gap"] is not None]
        if gaps:
            line += f", mean cubeless gap {statistics.mean(r['cubeless_gap'] for r in gaps):+.3f}"
            if len(gaps) > 2:
                line += (f", correlation of DT - XG with the gap "
                         f"{statistics.correlation([r['dt'] for r in gaps], [r['cubeless_gap'] for r in gaps]):+.2f}")
        cube = [r for r in part if "cube_part_dt" in r]
        if cube:
            line += (f"; money, double/take: median |cubeless gap at the doubled cube| "
                     f"{statistics.median(abs(r['cubeless_gap_dt']) for r in cube):.3f}, median |cube part| "
                     f"{statistics.median(abs(r['cube_part_dt']) for r in cube):.3f} "
                     f"(mean {statistics.mean(r['cube_part_dt'] for r in cube):+.3f})")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
