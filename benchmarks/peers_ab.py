"""Alternating A/B runs of the whole of ``benchmarks/peers.py``'s benchmarks
(every ``benchmarks/test_*.py``) between two builds: the fastest round of
each benchmark on each side over all runs, their ratio, and the benchmarks
more than 5% slower on the new side.

    python benchmarks/peers_ab.py --base-python BASE/bin/python --new-python NEW/bin/python \\
        [--commit b0a5603] [--runs 2] [-k EXPR] [--json OUT]

Both sides run the same benchmark files: those of ``--commit`` (the base's,
from ``git archive``), so that both do the same work with the API the base
offers; a benchmark added after it has no base and is not compared.  Each
interpreter imports its own installed (or editable) ``backgammon``;
``--base-tree``/``--new-tree`` put a directory holding a ``backgammon``
package with its kernels first on the path instead.  The timer is the
process's CPU time (``time.process_time``), which other jobs on a shared
machine do not add to; runs alternate A B, B A, ... so that drift falls on
both sides.  The peers' own benchmarks (gnubg-nn, OpenSpiel) time the same
code on both sides and are left out unless ``--peers``.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
PEERS = "gnubg_nn or open_spiel or bgsage"


def benchmark_files(commit: str, into: Path) -> Path:
    """The ``benchmarks/`` directory of ``commit``, written under ``into``."""
    data = subprocess.run(["git", "archive", commit, "benchmarks"], cwd=HERE.parent, capture_output=True,
                          check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "benchmarks"


def run(python: str, tree: str | None, where: Path, out: Path, select: str | None, min_rounds: int) -> dict:
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = tree
    found = subprocess.run([python, "-c", "import backgammon; print(backgammon.__file__)"], env=env,
                           capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()).stdout.strip()
    cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(where), f"--benchmark-json={out}",
           "--benchmark-timer=time.process_time", f"--benchmark-min-rounds={min_rounds}",
           *(["-k", select] if select else [])]
    subprocess.run(cmd, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL)
    if not out.exists():
        raise SystemExit(f"{python}: no benchmark report ({' '.join(cmd)})")
    data = json.loads(out.read_text())
    return {"imported": found, "min": {b["name"]: b["stats"]["min"] for b in data["benchmarks"]}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-python", required=True)
    ap.add_argument("--new-python", required=True)
    ap.add_argument("--base-tree", default=None)
    ap.add_argument("--new-tree", default=None)
    ap.add_argument("--commit", default="b0a5603", help="whose benchmark files both sides run")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--min-rounds", type=int, default=3)
    ap.add_argument("-k", dest="select", default=None, help="only the benchmarks pytest -k selects")
    ap.add_argument("--peers", action="store_true", help="also the peers' own benchmarks")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    select = args.select
    if not args.peers:
        select = f"not ({PEERS})" + (f" and ({select})" if select else "")
    best: dict[str, dict[str, float]] = {"base": {}, "new": {}}
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        where = benchmark_files(args.commit, Path(tmp))
        for k in range(args.runs):
            for side in (("base", "new") if k % 2 == 0 else ("new", "base")):
                got = run(getattr(args, f"{side}_python"), getattr(args, f"{side}_tree"), where,
                          Path(tmp) / f"{k}-{side}.json", select, args.min_rounds)
                rounds.append({"run": k, "side": side, **got})
                for name, t in got["min"].items():
                    best[side][name] = min(t, best[side].get(name, float("inf")))
                print(f"run {k + 1}/{args.runs} {side} ({got['imported']}): {len(got['min'])} benchmarks", flush=True)
    ratios = {n: best["new"][n] / best["base"][n] for n in best["base"] if n in best["new"]}
    print(f"\n{'benchmark':<64}{'base min s':>12}{'new min s':>12}{'new/base':>10}")
    for name, r in ratios.items():
        print(f"{name:<64}{best['base'][name]:>12.5f}{best['new'][name]:>12.5f}{r:>10.3f}{'  <- >5%' if r > 1.05 else ''}")
    slower = [n for n, r in ratios.items() if r > 1.05]
    print(f"\n{len(ratios)} benchmarks compared; more than 5% slower: {', '.join(slower) or 'none'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"commit": args.commit, "runs": args.runs, "select": select,
                                               "pythons": [args.base_python, args.new_python],
                                               "trees": [args.base_tree, args.new_tree], "timer": "time.process_time",
                                               "fastest": best, "new_over_base": ratios, "rounds": rounds},
                                              indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
