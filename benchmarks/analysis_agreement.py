"""How far our match analysis agrees with gnubg's, on SGF files that gnubg
analysed (``save match`` after ``analyse match``, with its ``show
statistics match`` text beside each as NAME.stats.txt).

    python benchmarks/analysis_agreement.py DIR [--ply 0] [--limit N] [--thresholds 0.03,0.06,0.12]

For every file: gnubg's marks are read back from the SGF by our reader
(``read_sgf`` keeps them), the same match is analysed by ``analyse``, and
three figures are counted: of the plays and cube decisions gnubg marks
very bad, the share we mark as an error or worse; the share of matches
whose overall error rate ranks the two players as gnubg's does; the share
of (game, player) luck totals with gnubg's sign.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
import time

import backgammon as bg
from backgammon.analysis import THRESHOLDS, analyse

RATE = re.compile(r"^Error rate mEMG \(MWC\)\s+(-?[\d.]+)\s+\(\s*-?[\d.]+%\)\s+(-?[\d.]+)")


def gnubg_rates(stats_text: str):
    """The two players' overall error rates from gnubg's statistics text."""
    overall = stats_text.split("Overall statistics", 1)[-1]
    for line in overall.splitlines():
        m = RATE.match(line.strip())
        if m:
            return -float(m.group(1)), -float(m.group(2))
    return None


def compare(record, ours, rates):
    """(blunders gnubg marks, of them ours marks error or worse, ranking agrees or None,
    luck signs compared, agreeing)."""
    by_action = {}
    for g in ours.games:
        for p in g.plays:
            by_action[(g.number, p.action)] = p.skill
        for c in g.cubes:
            key = (g.number, c.action_index + (1 if c.kind == "double" and c.action == "no double" else 0),
                   "nodouble" if c.action == "no double" else "cube")
            by_action[key] = c.skill
    marked = found = 0
    for n in record.analysis:
        if n.kind == "play" and n.skill == "blunder":
            marked += 1
            found += by_action.get((n.game, n.action)) in ("error", "blunder")
        if n.kind in ("double", "take", "drop") and n.skill == "blunder":
            marked += 1
            found += by_action.get((n.game, n.action, "cube")) in ("error", "blunder")
        if n.kind == "play" and n.cube_skill == "blunder":
            marked += 1
            found += by_action.get((n.game, n.action, "nodouble")) in ("error", "blunder")
    ranked = None
    if rates is not None and rates[0] != rates[1]:
        ranked = (rates[0] < rates[1]) == (ours.stats[0].pr < ours.stats[1].pr)
    theirs: dict = {}
    for n in record.analysis:
        if n.luck is not None:
            theirs[(n.game, n.player)] = theirs.get((n.game, n.player), 0.0) + n.luck
    mine: dict = {}
    for g in ours.games:
        for r in g.luck:
            mine[(g.number, r.player)] = mine.get((g.number, r.player), 0.0) + r.luck
    signs = [(theirs[k] > 0) == (mine.get(k, 0.0) > 0) for k in theirs if abs(theirs[k]) > 1e-9]
    return marked, found, ranked, len(signs), sum(signs)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--ply", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--thresholds", default=",".join(map(str, THRESHOLDS)),
                    help="our doubtful, error and blunder marks, as gnubg was told them "
                         "(default the analysis's, gnubg's own)")
    args = ap.parse_args(argv)
    thresholds = tuple(float(v) for v in args.thresholds.split(","))
    files = sorted(glob.glob(os.path.join(args.dir, "*.sgf")))
    if args.limit:
        files = files[:args.limit]
    totals = dict(files=0, refused=0, blunders=0, found=0, ranked=0, ranked_same=0, luck=0, luck_same=0,
                  seconds=0.0, actions=0)
    for path in files:
        try:
            record = bg.read_sgf(open(path, "rb").read(), partial=True)
        except bg.MatchFileError as e:
            totals["refused"] += 1
            print(f"{os.path.basename(path)}: refused: {e}", file=sys.stderr)
            continue
        stats_path = path[:-4] + ".stats.txt"
        rates = gnubg_rates(open(stats_path).read()) if os.path.exists(stats_path) else None
        t0 = time.perf_counter()
        ours = analyse(record, ply=args.ply, workers=1, thresholds=thresholds)
        totals["seconds"] += time.perf_counter() - t0
        totals["actions"] += sum(len(g.events) for g in record.games)
        marked, found, ranked, n_luck, same_luck = compare(record, ours, rates)
        totals["files"] += 1
        totals["blunders"] += marked
        totals["found"] += found
        if ranked is not None:
            totals["ranked"] += 1
            totals["ranked_same"] += ranked
        totals["luck"] += n_luck
        totals["luck_same"] += same_luck
    t = totals
    summary = {**t, "blunders_found": t["found"] / max(t["blunders"], 1),
               "ranking_agrees": t["ranked_same"] / max(t["ranked"], 1),
               "luck_sign_agrees": t["luck_same"] / max(t["luck"], 1)}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{t['files']} files ({t['refused']} refused), {t['actions']} actions, analysed in "
              f"{t['seconds']:.1f} s at {args.ply}-ply")
        print(f"gnubg's very bad decisions we mark as an error or worse: {t['found']}/{t['blunders']} = "
              f"{summary['blunders_found']:.1%}")
        print(f"matches whose error rates rank the players as gnubg's: {t['ranked_same']}/{t['ranked']} = "
              f"{summary['ranking_agrees']:.1%}")
        print(f"(game, player) luck totals with gnubg's sign: {t['luck_same']}/{t['luck']} = "
              f"{summary['luck_sign_agrees']:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
