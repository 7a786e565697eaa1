"""Running work in parallel: fixed chunks on local processes or any
executor, with a progress bar, in chunk order, and a prompt stop on Ctrl-C
(rollouts and duels share it); and the threads that batch kernels share
(``run_shared``, ``on_threads``)."""
from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Callable, Sequence

__all__ = ["run_chunks", "Interrupted", "run_shared", "on_threads", "cores"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C: the results of the chunks finished before it, in order."""

    def __init__(self, done: list):
        super().__init__("interrupted")
        self.done = done


def _ignore_sigint() -> None:
    # Workers leave Ctrl-C to the main process, which ends them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _end_pool(pool: ProcessPoolExecutor, others: set) -> None:
    """Cancel what has not started and end the worker processes now: those
    the pool knows and any it was starting when Ctrl-C came (every child
    process not among ``others``, the children from before the pool)."""
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        procs = {p.pid: p for p in (getattr(pool, "_processes", None) or {}).values()}
        procs.update((p.pid, p) for p in multiprocessing.active_children() if p.pid not in others)
        alive = [p for p in procs.values() if p.is_alive()]
        if not alive:
            break
        for p in alive:
            p.terminate()
        for p in alive:
            p.join(timeout=0.5)


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
    others: set = set()
    try:
        n_workers = workers or os.cpu_count() or 1
        if executor is None and n_workers > 1 and len(tasks) > 1:
            others = {p.pid for p in multiprocessing.active_children()}
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
            _end_pool(own_pool, others)
            own_pool = None
        raise Interrupted(done) from None
    finally:
        bar.close()
        if own_pool is not None:
            own_pool.shutdown()
    return done


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:        # not on Linux
        return os.cpu_count() or 1


class _Worker:
    """A thread kept for the life of the process, handed one task at a time
    through two locks (far cheaper than a pool's futures: this is paid on
    every threaded kernel call)."""

    def __init__(self) -> None:
        self._go = threading.Lock()
        self._go.acquire()
        self._done = threading.Lock()
        self._done.acquire()
        self._task: Callable[[], Any] | None = None
        self._result: Any = None
        self._error: BaseException | None = None
        threading.Thread(target=self._loop, daemon=True, name="backgammon-worker").start()

    def _loop(self) -> None:
        while True:
            self._go.acquire()
            try:
                assert self._task is not None
                self._result = self._task()
            except BaseException as e:   # noqa: BLE001 -- handed to the caller
                self._error = e
            self._done.release()

    def start(self, task: Callable[[], Any]) -> None:
        self._task, self._result, self._error = task, None, None
        self._go.release()

    def finish(self) -> Any:
        self._done.acquire()
        self._task = None
        if self._error is not None:
            raise self._error
        return self._result


_crew: list[_Worker] = []
_crew_lock = threading.Lock()


def _forget_threads() -> None:
    # A forked child has none of its parent's threads: a crew inherited
    # from the parent would never run what it is given.
    global _crew, _crew_lock
    _crew, _crew_lock = [], threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_threads)


def run_shared(task: Callable[[int], Any], threads: int) -> list | None:
    """``task(t)`` for t in 0..threads-1 at once, the calling thread doing
    t = 0, and their results in order; for kernels whose threads wait for
    one another (``_movegen.run_chained``), so all must run together.  The
    other threads are kept for the life of the process.  None when another
    call holds them (the caller then works alone)."""
    global _crew
    if threads == 1:
        return [task(0)]
    if not _crew_lock.acquire(blocking=False):
        return None
    try:
        while len(_crew) < threads - 1:
            _crew.append(_Worker())
        crew = _crew[:threads - 1]
        for t, worker in enumerate(crew, 1):
            worker.start(functools.partial(task, t))
        results: list = []
        errors: list[BaseException] = []
        try:
            results.append(task(0))
        except Exception as e:    # the others still finish their shares first
            errors.append(e)
        except BaseException:
            _crew = []            # Ctrl-C: see below
            raise
        try:
            for worker in crew:
                try:
                    results.append(worker.finish())
                except Exception as e:
                    errors.append(e)
        except BaseException:
            # Ctrl-C while waiting: the workers are still busy; a new crew
            # serves the next call (these threads end their task and idle).
            _crew = []
            raise
        if errors:
            raise errors[0]
        return results
    finally:
        _crew_lock.release()


def on_threads(fn: Callable[[Any], Any], rows, threads: int | None, minimum: int = 256):
    """``fn(rows)`` computed on ``threads`` threads (None: every core), each
    on a contiguous slice, results concatenated in order; for kernels that
    release the GIL and treat rows independently, so the result does not
    depend on the number of threads.  Uses the package's one thread pool
    (``run_shared``); when another call holds it, one thread."""
    import numpy as np
    n = threads or cores()
    n = min(n, max(1, len(rows) // minimum))
    if n == 1:
        return fn(rows)
    cuts = np.linspace(0, len(rows), n + 1).astype(int)
    parts = run_shared(lambda k: fn(np.ascontiguousarray(rows[cuts[k]:cuts[k + 1]])), n)
    return fn(rows) if parts is None else np.concatenate(parts)
