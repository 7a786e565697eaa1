"""Running fixed chunks of work on local processes or any executor, with a
progress bar, in chunk order, and a prompt stop on Ctrl-C (rollouts and
duels share it)."""
from __future__ import annotations

import os
import signal
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Callable, Sequence

__all__ = ["run_chunks", "Interrupted"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C: the results of the chunks finished before it, in order."""

    def __init__(self, done: list):
        super().__init__("interrupted")
        self.done = done


def _ignore_sigint() -> None:
    # Workers leave Ctrl-C to the main process, which ends them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _end_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the worker processes now."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=2)


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def progress_bar(on: bool, total: int, unit: str):
    if not on:
        return _NoBar()
    from tqdm import tqdm
    return tqdm(total=total, unit=unit, unit_scale=True, leave=False)


def run_chunks(fn: Callable[[Any], Any], tasks: Sequence, sizes: Sequence[int], *, workers: int | None,
               executor: Executor | None, progress: bool, unit: str) -> list:
    """``[fn(task) for task in tasks]``, run here (one worker or one task),
    on ``workers`` local processes (default: all cores) or on ``executor``;
    the bar advances by ``sizes[k]`` as chunk k finishes.  Ctrl-C cancels
    the rest, ends local workers and raises :class:`Interrupted`."""
    bar = progress_bar(progress, sum(sizes), unit)
    own_pool = None
    done: list = []
    futures: list = []
    try:
        n_workers = workers or os.cpu_count() or 1
        if executor is None and n_workers > 1 and len(tasks) > 1:
            own_pool = ProcessPoolExecutor(max_workers=min(n_workers, len(tasks)), initializer=_ignore_sigint)
            executor = own_pool
        if executor is None:
            for task, size in zip(tasks, sizes):
                done.append(fn(task))
                bar.update(size)
        else:
            futures = [executor.submit(fn, task) for task in tasks]
            for future, size in zip(futures, sizes):
                done.append(future.result())
                bar.update(size)
    except KeyboardInterrupt:
        for f in futures:
            f.cancel()
        if own_pool is not None:
            _end_pool(own_pool)
            own_pool = None
        raise Interrupted(done) from None
    finally:
        bar.close()
        if own_pool is not None:
            own_pool.shutdown()
    return done


def on_threads(fn: Callable[[Any], Any], rows, threads: int | None, minimum: int = 256):
    """``fn(rows)`` computed on ``threads`` threads (None: every core), each
    on a contiguous slice, results concatenated in order; for kernels that
    release the GIL and treat rows independently, so the result does not
    depend on the number of threads.  Uses the package's one thread pool
    (``batch.run_shared``); when another call holds it, one thread."""
    import numpy as np
    from .batch import _cores, run_shared
    n = threads or _cores()
    n = min(n, max(1, len(rows) // minimum))
    if n == 1:
        return fn(rows)
    cuts = np.linspace(0, len(rows), n + 1).astype(int)
    parts = run_shared(lambda k: fn(np.ascontiguousarray(rows[cuts[k]:cuts[k + 1]])), n)
    return fn(rows) if parts is None else np.concatenate(parts)
