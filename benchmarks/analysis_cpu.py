"""CPU time of a match's analysis, ours against gnubg's, in one run:
rounds alternating between our ``analyse`` (in a fresh process, one
worker) and gnubg 1.07's ``analyse match`` (``gnubg -t``) at the same
plies, and optionally another build of ours (``--other PYTHON``, a venv's
python, e.g. a branch before a change).  CPU time is user + sys
(getrusage), which other jobs on a shared machine do not add to; for ours
both the analysis alone and the whole process (imports and the networks'
loading included), for gnubg the whole process.

    nice python benchmarks/analysis_cpu.py benchmarks/data/human_gnubg2/match10090396.mat --ply 2 --rounds 3
"""
from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
from pathlib import Path

CHILD = """
import resource, sys
import backgammon as bg
from backgammon import analysis, network
network.default()
r = resource.getrusage(resource.RUSAGE_SELF)
t = r.ru_utime + r.ru_stime
analysis.analyse(bg.read_mat(sys.argv[1]), ply=int(sys.argv[2]), workers=1)
r = resource.getrusage(resource.RUSAGE_SELF)
print(r.ru_utime + r.ru_stime - t)
"""


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def ours(python: str, mat: Path, ply: int) -> tuple[float, float]:
    """(the analysis, the whole process) in CPU seconds."""
    t = children_cpu()
    out = subprocess.run([python, "-c", CHILD, str(mat), str(ply)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1]), children_cpu() - t


def gnubg(program: str, mat: Path, ply: int) -> float:
    script = "\n".join([f"set analysis chequerplay evaluation plies {ply}",
                        f"set analysis cubedecision evaluation plies {ply}", f"import mat {mat.resolve()}",
                        "analyse match", ""])
    t = children_cpu()
    subprocess.run([program, "-t", "-q"], input=script, capture_output=True, text=True, check=True)
    return children_cpu() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mat", type=Path)
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--other", help="another build's python, measured in the same rounds")
    ap.add_argument("--gnubg", default=shutil.which("gnubg") or "/usr/games/gnubg")
    args = ap.parse_args()
    rows: dict[str, list] = {"ours": [], "other": [], "gnubg": []}
    for k in range(args.rounds):
        rows["ours"].append(ours(sys.executable, args.mat, args.ply))
        if args.other:
            rows["other"].append(ours(args.other, args.mat, args.ply))
        rows["gnubg"].append(gnubg(args.gnubg, args.mat, args.ply))
        line = [f"round {k + 1}: ours {rows['ours'][-1][0]:.2f} s analysis, {rows['ours'][-1][1]:.2f} s process"]
        if args.other:
            line.append(f"other {rows['other'][-1][0]:.2f} / {rows['other'][-1][1]:.2f} s")
        line.append(f"gnubg {rows['gnubg'][-1]:.2f} s process")
        print("; ".join(line), flush=True)
    best = {k: min(v) for k, v in rows.items() if v}
    g = best["gnubg"]
    print(f"fastest: ours {best['ours'][0]:.2f} s analysis ({best['ours'][0] / g:.2f} of gnubg's), "
          f"{best['ours'][1]:.2f} s process ({best['ours'][1] / g:.2f}); gnubg {g:.2f} s"
          + (f"; other {best['other'][0]:.2f} / {best['other'][1]:.2f} s" if args.other else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
