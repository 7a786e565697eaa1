"""Running work in parallel: fixed chunks on local processes or any
executor, with a progress bar that counts games (not chunks), in chunk
order, and a prompt stop on Ctrl-C
(rollouts and duels share it); and the threads that batch kernels share
(``run_shared``, ``on_threads``)."""
from __future__ import annotations

import collections
import functools
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Callable, Iterable, Sequence

__all__ = ["run_chunks", "Interrupted", "run_shared", "on_threads", "cores", "tally", "progress_bar",
           "LineBar", "BarWatch"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C: the results of the chunks finished before it, in order."""

    def __init__(self, done: list):
        super().__init__("interrupted")
        self.done = done


def _ignore_sigint() -> None:
    # Workers leave Ctrl-C to the main process, which ends them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_worker(counts) -> None:
    """A local worker process: Ctrl-C left to the main process; the run's
    counters (shared memory, None without a bar) kept for its tasks."""
    global _pool_counts
    _ignore_sigint()
    _pool_counts = counts


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


# -- progress ------------------------------------------------------------------------------------
#
# A task counts what it has finished (games, positions, actions) in its own
# int64 counter, one per chunk: the game loops store into it as each game
# ends (the kernels without the GIL), and a thread of the process showing
# the bar reads all the counters a few times a second.  Local worker
# processes write their counters into shared memory; on another executor
# (Dask) the bar moves as chunks finish.

#: Seconds between two progress lines where standard error is no terminal
#: (a log or a pipe; or tqdm missing); BACKGAMMON_PROGRESS_INTERVAL sets it.
LINE_INTERVAL = 1.0
_POLL = 0.1                 # seconds between two looks at the counters

_local = threading.local()  # the counter of the task this thread runs
_pool_counts = None         # in a local worker process: the run's counters (shared memory)


def tally():
    """The counter that the task now running in this thread adds its
    finished games (positions, actions) to: a (1,) int64 array that the
    progress bar of :func:`run_chunks` reads while the task runs; outside
    a task, a scratch one.  The game loops take it as ``counter``."""
    import numpy as np
    counter = getattr(_local, "counter", None)
    return np.zeros(1, dtype=np.int64) if counter is None else counter


def _counted(counter, fn: Callable[[Any], Any], task):
    before = getattr(_local, "counter", None)
    _local.counter = counter
    try:
        return fn(task)
    finally:
        _local.counter = before


class _InWorker:
    """``fn(task)`` in a local worker process, counting into chunk ``k``'s
    shared counter (picklable: a pool sends it to its workers)."""

    def __init__(self, fn: Callable[[Any], Any], k: int):
        self.fn, self.k = fn, k

    def __call__(self, task):
        import numpy as np
        counter = None
        if _pool_counts is not None:
            counter = np.frombuffer(_pool_counts, dtype=np.int64)[self.k:self.k + 1]
        return _counted(counter, self.fn, task)


class _NoBar:
    n = 0

    def update(self, n):
        pass

    def close(self):
        pass


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class LineBar:
    """Progress as plain lines on standard error, one every ``interval``
    seconds at most, for a log or a pipe, where a bar redrawn in place
    (tqdm's) would pile up; the last line once the work is done, if any
    was shown before.  A line reads::

        324/1,296 games (25%), 151 games/s, 0:02 so far, 0:06 left
    """

    def __init__(self, total: int, unit: str, *, initial: int = 0, interval: float | None = None, stream=None):
        self.total, self.unit, self.n = total, unit, initial
        self.interval = _line_interval() if interval is None else interval
        self.stream = stream
        self.start_n = initial
        self.t0 = self.last = time.monotonic()
        self.shown = -1

    def update(self, n: int) -> None:
        self.n += n
        now = time.monotonic()
        if now - self.last >= self.interval and self.n < self.total:
            self.last = now
            self._line(now)

    def set_postfix(self, **values) -> None:      # tqdm's, for train's figures
        self.postfix = ", ".join(f"{k} {v}" for k, v in values.items())

    def _line(self, now: float) -> None:
        import sys
        elapsed = now - self.t0
        rate = (self.n - self.start_n) / elapsed if elapsed > 0 else 0.0
        units = f"{self.unit}s"
        text = f"{self.n:,}/{self.total:,} {units} ({100 * self.n / max(self.total, 1):.0f}%), "
        text += f"{rate:,.1f}" if rate < 10 else f"{rate:,.0f}"
        text += f" {units}/s, {_clock(elapsed)} so far"
        if self.n < self.total:
            text += f", {_clock((self.total - self.n) / rate)} left" if rate > 0 else ", time left unknown"
        if getattr(self, "postfix", ""):
            text += f"; {self.postfix}"
        print(text, file=self.stream or sys.stderr, flush=True)
        self.shown = self.n

    def close(self) -> None:
        if self.shown >= 0 and self.n != self.shown:
            self._line(time.monotonic())


def _line_interval() -> float:
    try:
        return max(0.0, float(os.environ.get("BACKGAMMON_PROGRESS_INTERVAL", LINE_INTERVAL)))
    except ValueError:
        return LINE_INTERVAL


def progress_bar(on: bool, total: int, unit: str, *, initial: int = 0):
    """A progress bar on standard error (None of it when not ``on``):
    tqdm's on a terminal, else :class:`LineBar`'s lines (also without tqdm,
    which the core install does not need at run time)."""
    if not on:
        return _NoBar()
    import sys
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    terminal = sys.stderr.isatty() or "ipykernel" in sys.modules
    if tqdm is not None and terminal:
        return tqdm(total=total, initial=initial, unit=unit, unit_scale=True, leave=False, smoothing=0.1)
    return LineBar(total, unit, initial=initial)


class BarWatch:
    """A thread that moves ``bar`` to the work counted so far, ``base``
    plus finished chunks whole and the others by their ``counts`` (one
    counter per chunk of ``sizes``, None: none), until :meth:`close`."""

    def __init__(self, bar, counts, sizes: Sequence[int], base: int = 0):
        import numpy as np
        self.bar, self.counts, self.base = bar, counts, base
        self.sizes = np.asarray(sizes, dtype=np.int64)
        self.finished = np.zeros(len(sizes), dtype=bool)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="backgammon-progress")
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(_POLL):
            self.show()

    def show(self) -> None:
        import numpy as np
        with self.lock:
            counted = 0 if self.counts is None else np.minimum(self.counts, self.sizes)
            n = self.base + int(np.where(self.finished, self.sizes, counted).sum())
            if n > self.bar.n:
                self.bar.update(n - self.bar.n)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.show()


#: Chunks handed to an executor ahead of the one awaited: the chunks are made
#: as they are handed over, so a run of any length starts at once and holds
#: this many at most (every chunk at once below it, as before).
AHEAD = 4096


def run_chunks(fn: Callable[[Any], Any], tasks: Iterable, sizes: Iterable[int], *, workers: int | None,
               executor: Executor | None, progress: bool, unit: str, count: int | None = None,
               total: int | None = None) -> list:
    """``[fn(task) for task in tasks]``, run here (one worker or one task),
    on ``workers`` local processes (default: all cores) or on ``executor``.
    The bar (``progress``) counts ``sizes[k]`` for chunk k: as the task
    counts its work into :func:`tally` here and on local processes, as
    chunk k finishes on another executor.  Ctrl-C cancels the rest, ends
    local workers and raises :class:`Interrupted`.

    ``tasks`` and ``sizes`` may be iterators, made as they are used: give
    then ``count`` (how many tasks) and ``total`` (the sum of ``sizes``),
    so that nothing is made up front; an executor holds at most
    :data:`AHEAD` chunks (local processes four per worker) at a time."""
    import numpy as np
    if count is None:
        tasks = list(tasks)
        count = len(tasks)
    if total is None:
        sizes = list(sizes)
        total = sum(sizes)
    task_iter, size_iter = iter(tasks), iter(sizes)
    bar = progress_bar(progress, total, unit)
    own_pool = None
    done: list = []
    pending: collections.deque = collections.deque()     # (future, slot, size) in chunk order
    others: set = set()
    watch = None
    try:
        n_workers = workers or os.cpu_count() or 1
        ahead = min(count, AHEAD)
        shared = None
        if executor is None and n_workers > 1 and count > 1:
            ahead = min(count, 4 * n_workers)
            others = {p.pid for p in multiprocessing.active_children()}
            shared = multiprocessing.RawArray("q", ahead) if progress else None
            own_pool = ProcessPoolExecutor(max_workers=min(n_workers, count), initializer=_start_worker,
                                           initargs=(shared,))
            executor = own_pool
            counts = None if shared is None else np.frombuffer(shared, dtype=np.int64)
        else:
            ahead = max(ahead, 1)
            counts = np.zeros(ahead, dtype=np.int64) if executor is None else None
        if progress:
            # One counter a slot; chunk k runs in slot k % ahead, free again
            # once chunk k is collected (in order) before chunk k + ahead starts.
            watch = BarWatch(bar, counts, [0] * ahead)
        if executor is None:
            assert counts is not None
            counter = counts[0:1]
            for task, size in zip(task_iter, size_iter):
                counter[0] = 0
                if watch is not None:
                    with watch.lock:
                        watch.sizes[0], watch.finished[0] = size, False
                done.append(_counted(counter, fn, task))
                if watch is not None:
                    with watch.lock:
                        watch.base += size
                        watch.sizes[0] = 0
            return done
        k = 0

        def submit() -> bool:
            nonlocal k
            try:
                task, size = next(task_iter), next(size_iter)
            except StopIteration:
                return False
            slot = k % ahead
            if counts is not None:
                counts[slot] = 0
            if watch is not None:
                with watch.lock:
                    watch.sizes[slot], watch.finished[slot] = size, False
            pending.append((executor.submit(_InWorker(fn, slot) if own_pool is not None else fn, task), slot, size))
            k += 1
            return True

        while len(pending) < ahead and submit():
            pass
        while pending:
            future, slot, size = pending[0]
            result = future.result()
            pending.popleft()
            done.append(result)
            if watch is not None:
                with watch.lock:
                    watch.base += size
                    watch.sizes[slot] = 0
            submit()
    except KeyboardInterrupt:
        for f, _, _ in pending:
            f.cancel()
        if own_pool is not None:
            _end_pool(own_pool, others)
            own_pool = None
        raise Interrupted(done) from None
    finally:
        if watch is not None:
            watch.close()
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
