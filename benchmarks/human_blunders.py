"""Our blunders and gnubg's on matches between people (issue 41): of the
plays and cube actions our 2-ply analysis calls a blunder, the share gnubg's
2-ply analysis rates fine (no mark: an error under the doubtful mark), and
of gnubg's blunders (very bad), the share we mark (doubtful or worse, and
error or worse).

    python benchmarks/human_blunders.py --prepare DIR --source FOLDER [--matches 15] [--min-length 5]
    python benchmarks/human_blunders.py DIR [--nets FILE] [--ply 2] [--workers 1]

``--prepare`` takes the first ``--matches`` files of FOLDER (sorted by
name: Backgammon Galaxy exports ``match*.txt``, or ``*.mat``) that
``read_mat`` reads and whose match is at least ``--min-length`` points,
copies them to DIR as .mat and has gnubg's command-line program analyse
each at 2-ply (``gnubg_analysed.analyse_with_gnubg``; the SGF and its
statistics beside).  The second form analyses the same matches with our
analysis (``backgammon.analyse``) and compares, action by action.  Both
sides mark with ``--marks`` (doubtful, bad/error, very bad/blunder),
default gnubg 1.07's own 0.03, 0.06, 0.12; the files must have been
prepared with the same.  gnubg is an oracle here, never a teacher.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import backgammon as bg
from backgammon import network
from backgammon.analysis import analyse
from backgammon.statistics import GNUBG_MARKS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gnubg_analysed import analyse_with_gnubg  # noqa: E402

MARKED = ("doubtful", "error", "blunder")


def prepare(out: Path, source: Path, matches: int, min_length: int, marks=GNUBG_MARKS) -> None:
    out.mkdir(parents=True, exist_ok=True)
    done = 0
    for path in sorted([*source.glob("match*.txt"), *source.glob("*.mat")]):
        if done >= matches:
            break
        try:
            record = bg.read_mat(path.read_bytes())
        except Exception:
            continue
        if record.length < min_length:
            continue
        mat = out / (path.stem + ".mat")
        if mat.resolve() != path.resolve():
            shutil.copyfile(path, mat)
        t0 = time.perf_counter()
        analyse_with_gnubg(mat, 2, marks)
        done += 1
        print(f"{mat.name}: {record.length} points, gnubg 2-ply in {time.perf_counter() - t0:.0f} s", flush=True)


def _ours(analysis):
    """Our grade of each action: {(game, action, kind): skill}; kind 'play',
    'cube' (a double, take or drop) or 'nodouble' (the cube decision before
    a play, when not doubling)."""
    out = {}
    for g in analysis.games:
        for p in g.plays:
            out[(g.number, p.action, "play")] = p.skill
        for c in g.cubes:
            if c.kind == "double" and c.action == "no double":
                out[(g.number, c.action_index + 1, "nodouble")] = c.skill
            else:
                out[(g.number, c.action_index, "cube")] = c.skill
    return out


def _theirs(record):
    out = {}
    for n in record.analysis:
        if n.kind == "play":
            out[(n.game, n.action, "play")] = n.skill
            out[(n.game, n.action, "nodouble")] = n.cube_skill
        elif n.kind in ("double", "take", "drop"):
            out[(n.game, n.action, "cube")] = n.skill
    return out


def compare(folder: Path, nets, ply: int, workers: int, marks=GNUBG_MARKS):
    totals = dict(files=0, ours=0, ours_fine=0, theirs=0, theirs_marked=0, theirs_error=0, seconds=0.0)
    worst = []
    for path in sorted(folder.glob("*.sgf")):
        record = bg.read_sgf(path.read_bytes(), partial=True)
        t0 = time.perf_counter()
        ours = _ours(analyse(record, ply=ply, workers=workers, evaluator=nets, thresholds=marks))
        totals["seconds"] += time.perf_counter() - t0
        theirs = _theirs(record)
        totals["files"] += 1
        for key, skill in ours.items():
            if skill == "blunder" and key in theirs:
                totals["ours"] += 1
                fine = theirs[key] not in MARKED
                totals["ours_fine"] += fine
                if fine:
                    worst.append(f"{path.stem} game {key[0]} action {key[1]} {key[2]}")
        for key, skill in theirs.items():
            if skill == "blunder" and key in ours:
                totals["theirs"] += 1
                totals["theirs_marked"] += ours[key] in MARKED
                totals["theirs_error"] += ours[key] in ("error", "blunder")
    return totals, worst


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--prepare", action="store_true")
    ap.add_argument("--source", type=Path)
    ap.add_argument("--matches", type=int, default=15)
    ap.add_argument("--min-length", type=int, default=5)
    ap.add_argument("--nets", help="a weight file (default: the shipped networks)")
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--marks", default=",".join(map(str, GNUBG_MARKS)),
                    help="doubtful, bad and very bad, for gnubg and for us (default gnubg 1.07's own)")
    args = ap.parse_args(argv)
    marks = tuple(float(v) for v in args.marks.split(","))
    if args.prepare:
        if args.source is None:
            ap.error("--prepare needs --source FOLDER")
        prepare(args.dir, args.source, args.matches, args.min_length, marks)
        return 0
    nets = network.load(args.nets) if args.nets else network.default()
    t, worst = compare(args.dir, nets, args.ply, args.workers, marks)
    print(f"{t['files']} matches analysed at {args.ply}-ply in {t['seconds']:.0f} s ({args.nets or 'shipped networks'})")
    print(f"marks {marks[0]}, {marks[1]}, {marks[2]} for both")
    print(f"our blunders gnubg 2-ply rates fine (< {marks[0]}): {t['ours_fine']}/{t['ours']} = "
          f"{t['ours_fine'] / max(t['ours'], 1):.0%}")
    print(f"gnubg's blunders we mark: {t['theirs_marked']}/{t['theirs']} = {t['theirs_marked'] / max(t['theirs'], 1):.0%}"
          f" (as an error or worse: {t['theirs_error']}/{t['theirs']} = {t['theirs_error'] / max(t['theirs'], 1):.0%})")
    for w in worst:
        print("  fine by gnubg, a blunder by ours:", w)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
