"""Alternating A/B runs of benchmarks/test_game_paths.py (lockstep
rollouts, duels, a match, cube decisions, analysis) between two builds of
the package, for a refactor's speed check: the fastest round of each
benchmark on each side over all runs, and their ratio.  The timer is the
process's CPU time by default (``--timer time.perf_counter`` for wall time).

    python benchmarks/ab_paths.py BASE_DIR NEW_DIR [--runs 4] [--python PY] [--json OUT]
    python benchmarks/ab_paths.py - - --base-python BASE_VENV/bin/python --new-python NEW_VENV/bin/python

BASE_DIR and NEW_DIR each hold an importable ``backgammon`` package with
its compiled kernels (an unpacked wheel, or a commit's python/ beside the
kernels it was built with).  ``--python`` must have numpy, pytest and
pytest-benchmark but must not import an editable backgammon of its own (a
venv whose .pth names the dependencies' site-packages will do).  A
directory given as ``-`` means the package its side's interpreter
(``--base-python``, ``--new-python``; default ``--python``) has installed.
Runs alternate A B B A ..., so that a machine's drift falls on both sides.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent


def run(python: str, tree: str, out: Path, timer: str, select: str | None = None) -> dict:
    env = dict(os.environ)
    if tree != "-":
        env["PYTHONPATH"] = tree
    found = subprocess.run([python, "-c", "import backgammon; print(backgammon.__file__)"], env=env,
                           capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()).stdout.strip()
    if tree != "-" and not found.startswith(str(Path(tree).resolve())) and not found.startswith(tree):
        raise SystemExit(f"{tree}: backgammon imported from {found}")
    subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(HERE / "test_game_paths.py"),
                    f"--benchmark-json={out}", f"--benchmark-timer={timer}", *(["-k", select] if select else [])],
                   env=env, cwd=tempfile.gettempdir(), check=True, stdout=subprocess.DEVNULL)
    data = json.loads(out.read_text())
    return {b["name"]: b["stats"]["min"] for b in data["benchmarks"]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--base-python", default=None, help="the base side's interpreter (default --python)")
    ap.add_argument("--new-python", default=None, help="the new side's interpreter (default --python)")
    ap.add_argument("--json", default=None)
    ap.add_argument("-k", dest="select", default=None, help="only the benchmarks pytest -k selects")
    ap.add_argument("--timer", default="time.process_time",
                    help="pytest-benchmark's timer: the process's CPU time by default, which a busy shared "
                         "machine disturbs far less than wall time (time.perf_counter)")
    args = ap.parse_args()
    best: dict[str, dict[str, float]] = {"base": {}, "new": {}}
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.runs):
            order = ("base", "new") if k % 2 == 0 else ("new", "base")
            for side in order:
                python = getattr(args, f"{side}_python") or args.python
                times = run(python, getattr(args, side), Path(tmp) / f"{k}-{side}.json", args.timer, args.select)
                rounds.append({"run": k, "side": side, "min_seconds": times})
                for name, t in times.items():
                    best[side][name] = min(t, best[side].get(name, float("inf")))
                print(f"run {k + 1}/{args.runs} {side}: " + ", ".join(f"{n} {t:.3f}s" for n, t in times.items()),
                      flush=True)
    print(f"\n{'benchmark':<40}{'base min s':>12}{'new min s':>12}{'new/base':>10}")
    ratios = {}
    for name in best["base"]:
        if name in best["new"]:
            ratios[name] = best["new"][name] / best["base"][name]
            print(f"{name:<40}{best['base'][name]:>12.4f}{best['new'][name]:>12.4f}{ratios[name]:>10.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"base": args.base, "new": args.new, "runs": args.runs,
                                               "pythons": [args.base_python or args.python,
                                                           args.new_python or args.python],
                                               "timer": args.timer,
                                               "fastest": best, "new_over_base": ratios, "rounds": rounds},
                                              indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
