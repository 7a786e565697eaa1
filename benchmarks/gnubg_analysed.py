"""Make a corpus of matches analysed by GNU Backgammon, for
``analysis_agreement.py``: matches of the network against pubeval (each
making its own cube decisions, so there are errors to find), written as
.mat, analysed by gnubg's command-line program (``apt-get install gnubg``)
at the plies asked, saved as gnubg's SGF with its statistics text beside.

    python benchmarks/gnubg_analysed.py OUT --matches 16 --length 5 --ply 2 --seed 100 [--jobs 2]
    python benchmarks/gnubg_analysed.py OUT --mats FILE... --ply 2 --thresholds 0.03,0.06,0.12

With ``--mats`` the matches are the files given (real matches, e.g.
Backgammon Galaxy exports, any name), copied into OUT as NAME.mat and
analysed the same way; ``statistics_agreement.py`` and
``human_blunders.py`` read such a folder.

gnubg's marks are set to the issue's thresholds (doubtful 0.04, bad 0.08,
very bad 0.16) unless ``--thresholds`` says otherwise.

Match ``i`` is ``play_match(["net", "pubeval"], length, seed=seed + i)``;
the same arguments make the same files.  About 20 s per 5-point match at gnubg 2-ply.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import backgammon as bg
# The marks gnubg is told: by default our analysis's, which are gnubg 1.07's own (0.03, 0.06,
# 0.12); the docs' older figures were measured with --thresholds 0.04,0.08,0.16.
from backgammon.analysis import THRESHOLDS

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"


def analyse_with_gnubg(mat: Path, ply: int, thresholds=THRESHOLDS) -> None:
    """gnubg's analysis of ``mat`` as ``NAME.sgf`` and ``NAME.stats.txt`` beside it."""
    marks = [f"set analysis threshold {name} {value}"
             for name, value in zip(("doubtful", "bad", "verybad"), thresholds)]
    script = "\n".join(["set confirm new off", *marks,
                        f"set analysis chequerplay evaluation plies {ply}",
                        f"set analysis cubedecision evaluation plies {ply}",
                        f'import mat "{mat.name}"', "analyse match", f'save match "{mat.stem}.sgf"',
                        "show statistics match", ""])
    done = subprocess.run([GNUBG, "-t", "-q", "-r"], input=script, capture_output=True, text=True,
                          cwd=mat.parent, timeout=3600, check=True)
    (mat.parent / f"{mat.stem}.stats.txt").write_text(done.stdout)


def make(out: Path, length: int, seed: int, ply: int, thresholds=THRESHOLDS) -> str:
    mat = out / f"m{seed}.mat"
    mat.write_text(bg.write_mat(bg.play_match(["net", "pubeval"], length, seed=seed)))
    analyse_with_gnubg(mat, ply, thresholds)
    return mat.stem


def copy_and_analyse(out: Path, source: Path, ply: int, thresholds=THRESHOLDS) -> str:
    """``source`` (a .mat file of any name) as OUT/NAME.mat, analysed by gnubg."""
    mat = out / (source.stem + ".mat")
    if mat.resolve() != source.resolve():
        shutil.copyfile(source, mat)
    analyse_with_gnubg(mat, ply, thresholds)
    return mat.stem


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--matches", type=int, default=16)
    ap.add_argument("--length", type=int, default=5)
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--mats", nargs="+", type=Path, help="analyse these match files instead of playing matches")
    ap.add_argument("--thresholds", default=",".join(map(str, THRESHOLDS)),
                    help="gnubg's doubtful, bad and very bad marks (default gnubg's own, as our analysis's)")
    args = ap.parse_args(argv)
    if not Path(GNUBG).exists():
        print("gnubg's command-line program is needed: apt-get install gnubg", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    thresholds = tuple(float(v) for v in args.thresholds.split(","))
    if args.mats:
        n = len(args.mats)
        with ProcessPoolExecutor(args.jobs) as ex:
            for name in ex.map(copy_and_analyse, [args.out] * n, args.mats, [args.ply] * n, [thresholds] * n):
                print(name, flush=True)
        return 0
    seeds = [args.seed + i for i in range(args.matches)]
    n = len(seeds)
    with ProcessPoolExecutor(args.jobs) as ex:
        for name in ex.map(make, [args.out] * n, [args.length] * n, seeds, [args.ply] * n, [thresholds] * n):
            print(name, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
