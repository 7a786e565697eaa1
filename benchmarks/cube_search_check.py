"""Our cube search against gnubg's, with the network taken out: every
double decision gnubg's analysis recorded in the SGFs given (gnubg 1.07's
analysis at 2-ply, as ``gnubg_analysed.py`` leaves it, e.g.
benchmarks/data/human_gnubg2), searched by our ``cube_decision`` at the
same ply with gnubg-nn's 0-ply evaluator in place of our networks, its no
double and double/take (MWC) held against gnubg's.  Where they agree, a
gap between our analysis and gnubg's is the networks'; where they do not,
the method's (issue 40).  gnubg is an oracle here, never a teacher.

    nice -n 10 python benchmarks/cube_search_check.py DIR/*.sgf --ply 2 --out RESULT.json

Each SGF's rows are written to ``--out`` as it finishes; ``--resume``
keeps the SGFs already there.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import backgammon as bg
from backgammon.analysis import analyse
from backgammon.cube import cube_decision
from backgammon.evaluator import as_evaluator
from backgammon.matchid import MatchState
from backgammon.statistics import GNUBG_MARKS

sys.path.insert(0, str(Path(__file__).parent))
from human_gaps import gnubg_chances  # noqa: E402


def rows_of(sgf: Path, ply: int, ev) -> list[dict]:
    record = bg.read_sgf(sgf.read_bytes(), partial=True)
    # Our analysis at 0-ply only to pair each decision with its position and state.
    ours = analyse(record, ply=0, cube_ply=0, workers=1, thresholds=GNUBG_MARKS)
    cubes = {(n.game, n.action): n for n in record.analysis if n.cube}
    out = []
    for g in ours.games:
        for c in g.cubes:
            if c.kind != "double" or c.mwc is None:
                continue
            at = c.action_index + (c.action == "no double")
            n = cubes.get((g.number, at)) or cubes.get((g.number, at - 1))
            if n is None:
                continue
            position, state = bg.Position.from_id(c.position_id), MatchState.from_match_id(c.match_id)
            state = state.replace(double_offered=False, turn=state.on_roll)
            d = cube_decision(position, state, state.game_rules(None), ply=ply, evaluator=ev)
            if d.mwc is None:
                continue
            out.append(dict(sgf=sgf.stem, game=g.number, action=c.action_index, position_id=c.position_id,
                            match_id=c.match_id, gnubg=[n.cube["no_double"], n.cube["double_take"]],
                            ours=[float(d.mwc[0]), float(d.mwc[1])]))
    return out


def summary(rows: list[dict]) -> dict:
    nd = np.array([abs(r["ours"][0] - r["gnubg"][0]) for r in rows])
    dt = np.array([abs(r["ours"][1] - r["gnubg"][1]) for r in rows])
    return dict(decisions=len(rows), no_double=dict(median=float(np.median(nd)), max=float(nd.max()),
                                                    within_0_001=int((nd < 0.001).sum()),
                                                    within_0_005=int((nd < 0.005).sum())),
                double_take=dict(median=float(np.median(dt)), max=float(dt.max()),
                                 within_0_001=int((dt < 0.001).sum()), within_0_005=int((dt < 0.005).sum())))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sgfs", nargs="+", type=Path)
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args(argv)
    rows: list[dict] = []
    if args.resume and args.out and args.out.exists():
        rows = json.loads(args.out.read_text())["rows"]
    done = {r["sgf"] for r in rows}
    ev = as_evaluator(gnubg_chances)
    for sgf in args.sgfs:
        if sgf.stem in done:
            continue
        new = rows_of(sgf, args.ply, ev)
        rows += new
        worst = max((max(abs(r["ours"][k] - r["gnubg"][k]) for k in (0, 1)) for r in new), default=0.0)
        print(f"{sgf.stem}: {len(new)} double decisions, largest |ours - gnubg's| {worst:.4f} MWC", flush=True)
        if args.out:
            args.out.write_text(json.dumps(dict(ply=args.ply, rows=rows, summary=summary(rows)), indent=1))
    s = summary(rows)
    print(json.dumps(s, indent=1))
    worst = sorted(rows, key=lambda r: -max(abs(r["ours"][k] - r["gnubg"][k]) for k in (0, 1)))[:5]
    for r in worst:
        print(f"  {r['sgf']} game {r['game']} action {r['action']}: gnubg ND {r['gnubg'][0]:.4f} DT "
              f"{r['gnubg'][1]:.4f}, ours ND {r['ours'][0]:.4f} DT {r['ours'][1]:.4f}  {r['match_id']} "
              f"{r['position_id']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
