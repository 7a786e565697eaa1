"""Two builds of the move generator, alternated run by run, by CPU time a
child generated (for a busy machine: other jobs do not add to a process's
CPU time).

    python benchmarks/movegen_ab.py DIR_A DIR_B [--rounds 4] [--calls 5]

Each DIR holds a built ``_movegen*.so`` (copy ``build/_movegen*.so`` after
``cmake --build build --target _movegen``).  Round by round, each one is put
in place of the installed module and a fresh process times
``_movegen.generate_into`` (one thread, output reused, ``check=False``) on
the corpus and on 300,000 random-game pairs, the fastest of ``--calls``
calls, and prints nanoseconds a child and a digest of the children (the
builds must agree).  The installed module is put back at the end.

With an editable install that rebuilds on import (``editable.rebuild``),
the import hook reinstalls ``build/_movegen*.so`` over any other file of a
different time stamp, so a swapped-in build would silently be the current
one again: the copy is given the build's time stamp, and the script checks
the module's checksum after each run.

The script also runs as the timed process itself: ``movegen_ab.py --run CALLS``.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
DATA = Path(tempfile.gettempdir()) / "movegen_ab_pairs.npz"


def _pairs():
    import numpy as np
    if not DATA.exists():
        sys.path.insert(0, str(HERE))
        import corpus
        from backgammon.sample import random_positions
        b, r = corpus.pairs()
        b2, r2 = random_positions(300_000, seed=11)
        np.savez(DATA, corpus_boards=b, corpus_rolls=r, random_boards=b2, random_rolls=r2)
    return np.load(DATA)


def _run(calls: int) -> None:
    import numpy as np
    from backgammon import _movegen
    data = _pairs()
    out = []
    digest = hashlib.sha256()
    for name in ("corpus", "random"):
        boards, rolls = data[f"{name}_boards"], data[f"{name}_rolls"]
        n = len(boards)
        offsets = np.zeros(n + 1, np.int64)
        children = np.zeros((n * 40 + 4096, 2, 25), np.uint8)
        _movegen.generate_into(boards, rolls, 0, offsets, children, None, True, False)
        total = int(offsets[-1])
        digest.update(offsets.tobytes())
        digest.update(children[:total].tobytes())
        best = float("inf")
        for _ in range(calls):
            t = time.thread_time()
            _movegen.generate_into(boards, rolls, 0, offsets, children, None, True, False)
            best = min(best, time.thread_time() - t)
        out.append(f"{name} {best / total * 1e9:.2f} ns/child")
    print(" | ".join(out) + f" | digest {digest.hexdigest()[:12]}", flush=True)


def _md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--run", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run:
        _run(args.run)
        return 0
    if len(args.dirs) != 2:
        ap.error("give two folders, each holding a built _movegen*.so")
    found = subprocess.run([sys.executable, "-c", "import backgammon._movegen as m; print(m.__file__)"],
                           check=True, capture_output=True, text=True).stdout.strip()
    installed = Path(found)
    built = installed.parents[3] / installed.name       # build/install/platlib/backgammon -> build
    saved = Path(tempfile.mkdtemp()) / installed.name
    shutil.copy2(installed, saved)
    builds = [Path(d) / installed.name for d in args.dirs]
    _pairs()
    try:
        for _ in range(args.rounds):
            for build in builds:
                tmp = installed.with_name("." + installed.name)
                shutil.copyfile(build, tmp)
                if built.exists():
                    stat = built.stat()
                    os.utime(tmp, ns=(stat.st_atime_ns, stat.st_mtime_ns))
                os.replace(tmp, installed)
                line = subprocess.run([sys.executable, __file__, "--run", str(args.calls)], check=True,
                                      capture_output=True, text=True).stdout.strip()
                ok = _md5(installed) == _md5(build)
                print(f"{build.parent.name}: {line}" + ("" if ok else "  (REPLACED ON IMPORT: not this build)"),
                      flush=True)
    finally:
        tmp = installed.with_name("." + installed.name)
        shutil.copy2(saved, tmp)
        os.replace(tmp, installed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
