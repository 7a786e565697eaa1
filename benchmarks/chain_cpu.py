"""What two threads cost over one on the same batch, by CPU time (for a busy
machine: other jobs do not add to a process's CPU time), under three
settings of the chunk scheduler (``_chain.run_chained``): ``plain`` (a chunk
begun in scratch is copied in whole once placed), ``take`` (as ``plain``,
and a thread that waits on a chunk whose thread is away takes that chunk
over: what ``batch`` does since 7 December) and ``switch`` (as ``take``,
and a chunk begun in scratch switches to writing in place once the chunk
before is counted: what ``batch`` did before).

    python benchmarks/chain_cpu.py [--sizes 100000 300000] [--rounds 3] [--calls 5] [--chunk 0]
                                   [--spread 1024] [--wall] [--fifo]

Round by round, a fresh process per setting (the three alternate)
makes ``batch.legal_positions`` calls on random-game pairs (seed 11, as
benchmarks/scaling.py), one thread and two threads in turn, and prints the
fastest CPU time (``getrusage``, user + system, all threads) of each, their
ratio, the wall time of the fastest two-thread call, and the share of the
children that went through a thread's scratch and were copied in
(``Chain.copied``; median over the calls) with the chunks that switched
(``Chain.switched``) and were taken over (``Chain.taken``).  The output is the same either way
(benchmarks/movegen_digest.py).

The CPU time of two threads includes what a thread spends waiting for the
other when the machine has descheduled it (a few milliseconds a call at a
load average of 6-8); benchmarks/notes/experiments/chain_wait_cpu.patch adds
a column with that taken out (each wait's thread CPU time, by
``CLOCK_THREAD_CPUTIME_ID``; Linux only, so not in the code).

``--spread BYTES`` sets how much of a copy from scratch a thread streams
after each row it makes (``_chain.set_spreading``; 0 copies a placed chunk
at once, as before 7 December); ``--chunk`` sets ``batch.CHUNK_PAIRS``
(default: batch's own choice).  ``--fifo`` (Linux, root) runs each timed
process under ``chrt -f 10``, so that its two threads run side by side on
a busy machine as they would on a quiet one (other jobs wait for those few
seconds); without it a loaded machine mostly runs them one at a time, and
few chunks start before their place is known.

With ``--wall`` (for a quiet machine) each process instead times, by wall
clock, ``threads=2`` against two processes each making the one-thread
call, alternately, ``--calls`` rounds (as
``benchmarks/test_movegen.py::test_batch_threads_vs_processes``), and
prints the fastest of each and threads' rate over the processes'.

The script also runs as the timed process itself:
``chain_cpu.py --run SIZE plain|take|switch CALLS CHUNK SPREAD [wall]``.
"""
from __future__ import annotations

import argparse
import subprocess
import sys


def _settings(setting: str, chunk: int, chains: list, spread: int = 1024) -> None:
    from backgammon import _chain, batch
    _chain.set_switching(setting == "switch")
    _chain.set_spreading(spread)
    if chunk:
        batch.CHUNK_PAIRS = batch.SMALL_CHUNK_PAIRS = chunk
    make = _chain.Chain

    def keep(n, chunk, repeatable=False):
        chain = make(n, chunk, repeatable=repeatable and setting != "plain")
        chains.append(chain)
        return chain

    _chain.Chain = keep          # batch.py makes one per threaded call


def _pairs(size: int):
    import numpy as np
    from backgammon.sample import random_positions
    b, r = random_positions(size, seed=11)      # the first pairs of scaling.py's 1,000,000
    return np.ascontiguousarray(b[:size]), np.ascontiguousarray(r[:size])


_shared: dict = {}


def _one_thread(_) -> None:
    from backgammon import batch
    batch.legal_positions(*_shared["pairs"], validate=False, threads=1)


def _run_wall(size: int, setting: str, calls: int, chunk: int, spread: int) -> None:
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor

    from backgammon import batch
    _settings(setting, chunk, [], spread)
    b, r = _shared["pairs"] = _pairs(size)
    best = {"threads": float("inf"), "processes": float("inf")}
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        list(pool.map(_one_thread, range(2)))
        batch.legal_positions(b, r, validate=False, threads=2)
        for _ in range(calls):
            t = time.perf_counter()
            batch.legal_positions(b, r, validate=False, threads=2)
            best["threads"] = min(best["threads"], time.perf_counter() - t)
            t = time.perf_counter()
            list(pool.map(_one_thread, range(2)))
            best["processes"] = min(best["processes"], (time.perf_counter() - t) / 2)
    print(f"{size:>9,} pairs  chunk {chunk or 'default'}  spread {spread}  {setting:6}  wall: threads=2 {best['threads'] * 1e3:6.1f} ms"
          f"  two processes {best['processes'] * 1e3:6.1f} ms a batch"
          f"  threads/processes {best['processes'] / best['threads']:.0%}", flush=True)


def _run(size: int, setting: str, calls: int, chunk: int, spread: int) -> None:
    import resource
    import statistics
    import time

    from backgammon import batch

    chains: list = []
    _settings(setting, chunk, chains, spread)
    b, r = _pairs(size)

    def cpu() -> float:
        u = resource.getrusage(resource.RUSAGE_SELF)
        return u.ru_utime + u.ru_stime

    for t in (1, 2):
        batch.legal_positions(b, r, validate=False, threads=t)
    chains.clear()
    best = {1: float("inf"), 2: float("inf")}
    wall2 = float("inf")
    copied, switched, taken = [], [], []
    for _ in range(calls):
        for t in (1, 2):
            c, w = cpu(), time.perf_counter()
            offsets, _kids = batch.legal_positions(b, r, validate=False, threads=t)
            c, w = cpu() - c, time.perf_counter() - w
            if c < best[t]:
                best[t] = c
                if t == 2:
                    wall2 = w
            if t == 2 and chains:
                copied.append(chains[-1].copied / int(offsets[-1]))
                switched.append(chains[-1].switched)
                taken.append(chains[-1].taken)
            del offsets, _kids
    print(f"{size:>9,} pairs  chunk {chunk or 'default'}  spread {spread}  {setting:6}  cpu 1 thread {best[1] * 1e3:6.1f} ms"
          f"  2 threads {best[2] * 1e3:6.1f} ms  ratio {best[2] / best[1]:.3f}  wall 2 threads {wall2 * 1e3:6.1f} ms"
          f"  copied {statistics.median(copied) if copied else float('nan'):.0%}"
          f"  switched {statistics.median(switched) if switched else 0:.0f}"
          f"  taken {statistics.median(taken) if taken else 0:.0f}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 300_000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=0, help="pairs a chunk (batch.CHUNK_PAIRS; 0: batch's own)")
    ap.add_argument("--spread", type=int, default=1024, help="bytes of a copy streamed a row (0: at once)")
    ap.add_argument("--fifo", action="store_true", help="timed processes under chrt -f 10 (Linux, root)")
    ap.add_argument("--wall", action="store_true", help="threads=2 against two processes by wall clock")
    ap.add_argument("--run", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run:
        run = _run_wall if args.run[5:] == ["wall"] else _run
        run(int(args.run[0]), args.run[1], int(args.run[2]), int(args.run[3]), int(args.run[4]))
        return 0
    for _ in range(args.rounds):
        for size in args.sizes:
            for setting in ("plain", "take", "switch"):
                subprocess.run((["chrt", "-f", "10"] if args.fifo else [])
                               + [sys.executable, __file__, "--run", str(size), setting, str(args.calls), str(args.chunk),
                                  str(args.spread)] + (["wall"] if args.wall else []), check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
