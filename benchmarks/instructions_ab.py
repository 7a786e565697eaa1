"""Instructions per call of a few paths of ``benchmarks/peers.py``, base
against new, counted by valgrind's callgrind (load-independent, unlike
time on a shared machine).

    python benchmarks/instructions_ab.py --base-python BASE/bin/python --new-python NEW/bin/python \\
        [--base-tree DIR] [--new-tree DIR] [-n 2000] [WORKLOAD ...]

``--base-tree``/``--new-tree`` put a directory holding a ``backgammon``
package with its kernels first on ``PYTHONPATH`` (an editable install's
import hook wins over it: give such a tree a non-editable interpreter).

Each workload runs ``n`` calls and 0 calls under callgrind in each
interpreter (``PYTHONHASHSEED=0``); the difference over ``n`` is the
instructions a call.  Counting starts at a mark just before the loop
(``--dump-before=adler32``): imports and set-up, whose cost varies by
millions of instructions from run to run, stay out; the 0-call run takes
away the process's exit.  Workloads use only
API that b0a5603 offers, so both sides do the same work:

- ``aec_raw`` / ``aec_env``: PettingZoo turns (``raw_env`` / ``env``), as
  ``benchmarks/test_env.py`` plays them (``last``, then a random play);
- ``gym_single``: Gymnasium single-environment steps against ``random``;
- ``bearoff_expected`` / ``bearoff_distribution``: one-sided lookups of
  1,000 positions a call;
- ``legal_plays``: ``Position.legal_plays`` per call.

The script also runs as the workload itself: ``instructions_ab.py --run
WORKLOAD N``.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

WORKLOADS = ("aec_raw", "aec_env", "gym_single", "bearoff_expected", "bearoff_distribution", "legal_plays")


def _mark():
    """Where counting starts: callgrind dumps what came before (imports,
    set-up) at the first call of adler32, so that their cost, which varies
    by a few million instructions from run to run, stays out."""
    import zlib
    zlib.adler32(b"instructions_ab")


def _aec(entry, n):
    import numpy as np
    import backgammon.env as bgenv
    e = getattr(bgenv, entry)()
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    _mark()
    done = 0
    while done < n:
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.reset()
            continue
        e.step(int(rng.random() * len(info["afterstates"])))
        done += 1


def _gym(n):
    import gymnasium
    import numpy as np
    import backgammon.env  # noqa: F401  (registers the environment)
    e = gymnasium.make("backgammon/Backgammon-v0", opponent="random").unwrapped
    rng = np.random.default_rng(0)
    obs, info = e.reset(seed=0)
    _mark()
    for _ in range(n):
        obs, reward, term, trunc, info = e.step(int(rng.random() * len(info["afterstates"])))
        if term:
            obs, info = e.reset()


def _bearoff(what, n):
    import numpy as np
    from backgammon import bearoff
    rng = np.random.default_rng(7)
    table = np.array([bearoff._bearoff.position_of(i) for i in range(54_264)], dtype=np.uint8)
    lookups = table[rng.integers(0, 54_264, 1_000)]
    db = bearoff.one_sided()
    f = getattr(db, what)
    _mark()
    for _ in range(n):
        f(lookups)


def _legal_plays(n):
    import numpy as np
    import backgammon as bg
    rng = np.random.default_rng(3)
    work = []
    pos = bg.Position()
    for _ in range(200):   # positions of random games, with their rolls
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        plays = pos.legal_plays(roll)
        work.append((pos, roll))
        pos = plays[int(rng.integers(0, len(plays)))].position if len(plays) else pos.flip()
        if pos.is_game_over() if hasattr(pos, "is_game_over") else False:
            pos = bg.Position()
    _mark()
    for i in range(n):
        p, r = work[i % len(work)]
        p.legal_plays(r)


def run_workload(name: str, n: int) -> None:
    if name in ("aec_raw", "aec_env"):
        _aec(name[4:] if name == "aec_env" else "raw_env", n)
    elif name == "gym_single":
        _gym(n)
    elif name.startswith("bearoff_"):
        _bearoff({"bearoff_expected": "expected_rolls", "bearoff_distribution": "distribution"}[name], n)
    elif name == "legal_plays":
        _legal_plays(n)
    else:
        raise ValueError(f"workload: unknown {name!r}")


def count(python: str, workload: str, n: int, tree: str | None = None) -> int:
    """Instructions of ``n`` calls of ``workload`` from its start mark to
    the process's end."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    if tree:
        env["PYTHONPATH"] = tree
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/cg.out",
                              "--dump-before=adler32", python, __file__, "--run", workload, str(n)], env=env,
                             capture_output=True, text=True, cwd=d)
        if out.returncode:
            raise SystemExit(f"{python} {workload} {n}: failed\n{out.stderr[-2000:]}")
        # cg.out.1 is everything before the mark; the rest (cg.out) after it.
        m = re.search(r"^totals: (\d+)", open(f"{d}/cg.out").read(), re.M)
        if not m or not os.path.exists(f"{d}/cg.out.1"):
            raise SystemExit(f"{python} {workload} {n}: no mark reached")
        return int(m.group(1))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", nargs=2, metavar=("WORKLOAD", "N"), help="run the workload (under callgrind)")
    ap.add_argument("--base-python")
    ap.add_argument("--new-python")
    ap.add_argument("--base-tree")
    ap.add_argument("--new-tree")
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    a = ap.parse_args(argv)
    if a.run:
        run_workload(a.run[0], int(a.run[1]))
        return
    if not (a.base_python and a.new_python):
        ap.error("--base-python and --new-python are needed")
    print(f"{'workload':24} {'base/call':>12} {'new/call':>12} {'new/base':>9}")
    for w in a.workloads:
        per = []
        for py, tree in ((a.base_python, a.base_tree), (a.new_python, a.new_tree)):
            # Once outside callgrind first: a tree's first run compiles its .pyc files.
            subprocess.run([py, __file__, "--run", w, "1"], env=dict(os.environ, **({"PYTHONPATH": tree} if tree else {})),
                           cwd=tempfile.gettempdir(), check=True)
            per.append((count(py, w, a.n, tree) - count(py, w, 0, tree)) / a.n)
        print(f"{w:24} {per[0]:12.0f} {per[1]:12.0f} {per[1] / per[0]:9.3f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
