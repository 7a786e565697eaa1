"""Batch move generation for many positions at once, in CSR layout.

>>> import numpy as np
>>> from backgammon import Position
>>> boards = np.stack([Position.initial().array] * 2)
>>> offsets, children = legal_positions(boards, [(3, 1), (6, 6)])
>>> offsets.tolist(), children.shape
([0, 16, 27], (27, 2, 25))
"""
from __future__ import annotations

from typing import Literal, overload

import numpy as np
import numpy.typing as npt

from . import _board, _chain, _movegen, _pool, _validate
from ._parallel import cores, run_shared
from .errors import InvalidPositionError, InvalidRollError
from .position import board_arrays, board_counts, problem_message

__all__ = ["legal_positions", "best_per_pair", "validate_boards", "release_memory", "MAX_PLAYS"]

#: Most distinct plays any roll can have, plus room: the kernel needs this
#: much free space in ``children`` before each position.
MAX_PLAYS = _movegen.MAX_PLAYS


def validate_boards(boards) -> np.ndarray:
    """Check a batch of boards (n, 2, 25) and return it as C-contiguous uint8
    (``position.board_arrays``: the same rules as ``Position.from_array``).

    Raises
    ------
    ValueError
        A board that is not a position, naming it and the rule.

    Examples
    --------
    >>> import backgammon as bg
    >>> validate_boards([bg.Position.initial().array]).dtype
    dtype('uint8')
    """
    return board_arrays(boards)


@overload
def legal_positions(boards: npt.ArrayLike, rolls: npt.ArrayLike, *, moves: Literal[False] = ...,
                    mover_view: bool = ..., validate: bool = ..., out: np.ndarray | None = ...,
                    moves_out: np.ndarray | None = ..., threads: int | None = ...) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def legal_positions(boards: npt.ArrayLike, rolls: npt.ArrayLike, *, moves: Literal[True],
                    mover_view: bool = ..., validate: bool = ..., out: np.ndarray | None = ...,
                    moves_out: np.ndarray | None = ...,
                    threads: int | None = ...) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
@overload
def legal_positions(boards: npt.ArrayLike, rolls: npt.ArrayLike, *, moves: bool,
                    mover_view: bool = ..., validate: bool = ..., out: np.ndarray | None = ...,
                    moves_out: np.ndarray | None = ...,
                    threads: int | None = ...) -> tuple[np.ndarray, ...]: ...
def legal_positions(boards, rolls, *, moves=False, mover_view=False, validate=True, out=None, moves_out=None,
                    threads=None):
    """The distinct results of each (board, roll) pair, in CSR layout.

    A roll that cannot be played has one child, the unchanged position; a
    finished game none.  Runs without the GIL.

    Parameters
    ----------
    boards : array_like
        (n, 2, 25), row 1 on roll (``Position.array`` stacked).
    rolls : array_like
        (n, 2) dice.
    moves : bool, default False
        Also return each play's steps.
    mover_view : bool, default False
        Give the children from the mover's view; default the next
        mover's (rows swapped), ready to evaluate.
    validate : bool, default True
        False skips the checks for trusted input: the kernel then never
        writes outside its arrays, but the results of bad boards are
        meaningless.
    out, moves_out : numpy.ndarray, optional
        C-contiguous (m, 2, 25) uint8 (and (m, 4, 3) int8) arrays to
        write into, as numpy's ``out=``: the results are then views of
        them, which saves fresh memory in loops.  When too small, new
        arrays are made instead.
    threads : int, optional
        Threads sharing the work; default every core the process may use
        (batches under 512 pairs use one).  The result is the same, in
        the same order, for any number.

    Returns
    -------
    offsets : numpy.ndarray
        (n + 1,) int64: the plays of pair ``i`` are
        ``children[offsets[i]:offsets[i + 1]]``.
    children : numpy.ndarray
        (total, 2, 25) uint8.
    steps : numpy.ndarray
        With ``moves``: (total, 4, 3) int8, each play's steps as (from,
        to, hit), points 1-24, 25 the bar, 0 off, unused steps -1.

    Raises
    ------
    ValueError
        Boards that are not positions (naming the first), rolls that are
        not dice, or arrays of the wrong shape.

    See Also
    --------
    backgammon.position.Position.legal_plays : one position's plays.
    best_per_pair : each pair's best play by a scorer.

    Notes
    -----
    Threads take small chunks of pairs in turn and write each straight
    into the output when the chunks before it are counted, else into a
    buffer in cache copied in as soon as they are.  A call made while
    another thread's threaded call runs works on one thread.  Batches of
    at most 64 pairs given as numpy arrays (boards uint8, rolls uint8 or
    int64) take a short path that holds the GIL (microseconds).

    Examples
    --------
    >>> import numpy as np, backgammon as bg
    >>> boards = np.stack([bg.Position.initial().array] * 2)
    >>> offsets, children = legal_positions(boards, np.array([[3, 1], [6, 6]]))
    >>> offsets.tolist(), children.shape
    ([0, 16, 27], (27, 2, 25))
    >>> _, _, steps = legal_positions(boards[:1], np.array([[3, 1]]), moves=True)
    >>> steps[0].tolist()
    [[24, 21, 0], [24, 23, 0], [-1, -1, 0], [-1, -1, 0]]
    """
    for name, value in (("moves", moves), ("mover_view", mover_view), ("validate", validate)):
        if value is not False and value is not True and not isinstance(value, np.bool_):
            raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    if out is None and moves_out is None and (threads is None or type(threads) is int and threads > 0):
        small = _movegen.legal_small(boards, rolls, moves, not mover_view, validate)
        if small is not None:
            return small
    if validate:
        b = board_counts(boards)
        r = _validate.rolls("rolls", rolls, len(b), range_checked_later=True)
    else:
        try:
            b = np.ascontiguousarray(boards, dtype=np.uint8)
            r = np.ascontiguousarray(rolls, dtype=np.uint8)
        except OverflowError:
            raise ValueError("boards and rolls must hold small counts (uint8): boards (n, 2, 25), rolls (n, 2)") \
                from None
        if b.ndim != 3 or b.shape[1:] != (2, 25) or r.shape != (len(b), 2):
            raise ValueError("boards must be (n, 2, 25) and rolls (n, 2)")
    n = len(b)
    threads = _thread_count(threads, n)
    # Threads share the pool one call at a time; a call made meanwhile
    # from another thread, or whose output proves too small, runs on one.
    if threads > 1:
        result = _threaded(b, r, threads, moves, mover_view, out, moves_out, validate)
        if result is not None:
            return result
    offsets, children, steps = _outputs(n, moves, out, moves_out)
    capacity = len(children)
    done = 0
    while True:
        done, problem = _movegen.generate_into(b, r, done, offsets, children, steps,
                                               not mover_view, validate)
        if problem:
            _raise_problem(done, problem, r)
        if done == n:
            break
        # Grow geometrically, keeping what is written.
        capacity = 2 * capacity
        children = np.resize(children, (capacity, 2, 25))
        if moves:
            assert steps is not None
            steps = np.resize(steps, (capacity, 4, 3))
    return _trimmed(offsets, children, steps, out)


def _outputs(n: int, moves: bool, out, moves_out):
    """Offsets, children and (with ``moves``) steps to fill: the caller's
    buffers when usable (even if they may prove too small: the one-thread
    path grows them), else pooled ones sized for about 24 plays a pair."""
    # Pooled too: a caller that keeps results would otherwise pay for a
    # fresh offsets array's pages on every call.  Every row writes its end.
    offsets = _pool.empty((n + 1,), np.int64)
    offsets[0] = 0
    capacity = max(MAX_PLAYS, 24 * n + MAX_PLAYS)
    children = _buffer(out, (2, 25), np.uint8, "out")
    steps = _buffer(moves_out, (4, 3), np.int8, "moves_out") if moves else None
    if children is None or (moves and (steps is None or len(steps) != len(children))):
        children = _pool.empty((capacity, 2, 25), np.uint8)
        steps = _pool.empty((capacity, 4, 3), np.int8) if moves else None
    return offsets, children, steps


def _trimmed(offsets, children, steps, out):
    """The result: views into the buffers (a pooled buffer gives the pages
    it does not use back to the system; nothing is copied)."""
    total = int(offsets[-1])
    own = children is not out
    children = _pool.trim(children, total) if own else children[:total]
    if steps is not None:
        steps = _pool.trim(steps, total) if own else steps[:total]
        return offsets, children, steps
    return offsets, children


#: Pairs per chunk of a threaded call: small enough that a chunk waiting to
#: be placed stays in cache (a thread's two scratch buffers in use, about
#: 0.5 MB each, in its L2), large enough that placing costs little; batches
#: under 16 chunks use SMALL_CHUNK_PAIRS, so that the threads end together.
CHUNK_PAIRS = 512
SMALL_CHUNK_PAIRS = 256
#: Children a pair has at the least on average in play (random positions
#: 18.8, the corpus 19.6): how much fresh output a threaded call maps ahead.
EXPECTED_PLAYS = 16
#: The fewest pairs per thread worth a thread.
MIN_THREAD_PAIRS = 256
def _thread_count(threads, n: int) -> int:
    from ._validate import integer
    if threads is None:
        threads = cores()
    threads = integer("threads", threads, low=1)
    return min(threads, max(1, n // MIN_THREAD_PAIRS))


def _raise_problem(index: int, problem: int, r: np.ndarray) -> None:
    if problem == _board.BoardProblem.BAD_DICE:
        raise InvalidRollError(f"roll {index}: dice must be 1 to 6, got {tuple(int(d) for d in r[index])}")
    raise InvalidPositionError(f"board {index}: {problem_message(problem)}")


def _threaded(b, r, threads: int, moves: bool, mover_view: bool, out, moves_out, validate: bool):
    """legal_positions on ``threads`` threads; None when the output buffer
    proves too small or the threads are busy (the caller then runs the
    one-thread path)."""
    n = len(b)
    offsets, children, steps = _outputs(n, moves, out, moves_out)
    # Rows only write their children: a waiting thread may take over the
    # chunk of one the machine has descheduled (_chain.run_chained).
    chain = _chain.Chain(n, CHUNK_PAIRS if n >= 16 * CHUNK_PAIRS else SMALL_CHUNK_PAIRS, repeatable=True)
    expected = min(len(children), EXPECTED_PLAYS * n)

    def share(t):
        # New output memory: each thread maps its part of what the output
        # will likely fill first, so they do not fault on the same pages.
        _pool.populate(children, expected, t, threads)
        if steps is not None:
            _pool.populate(steps, expected, t, threads)
        return _movegen.generate_shared(b, r, offsets, children, steps, not mover_view, chain, validate)

    results = run_shared(share, threads)
    if results is None:
        return None
    if any(status for status, _, _ in results):
        return None         # incomplete: the one-thread path redoes it, checks included
    bad = [(index, problem) for _, index, problem in results if index >= 0]
    if bad:
        _raise_problem(*min(bad), r)      # the first bad pair, as one thread reports it
    return _trimmed(offsets, children, steps, out)


def best_per_pair(offsets: npt.ArrayLike, values: npt.ArrayLike, *, lowest: bool = False) -> np.ndarray:
    """Which child of each pair of a CSR output has the best value.

    Parameters
    ----------
    offsets : array_like
        (n + 1,), from :func:`legal_positions`.
    values : array_like
        One per child.
    lowest : bool, default False
        Choose the smallest value instead of the largest.

    Returns
    -------
    numpy.ndarray
        (n,) int64: the chosen child's index within its pair, the first
        of equals; -1 for a pair with no child.  NaN is never chosen.

    Examples
    --------
    The children are from the next mover's view, so the best play is the
    one whose result is worst for the side then on roll:

    >>> import backgammon as bg
    >>> boards = np.stack([bg.Position.initial().array] * 2)
    >>> offsets, children = legal_positions(boards, [(3, 1), (6, 5)])
    >>> best = best_per_pair(offsets, bg.evaluate(children).equity, lowest=True)
    >>> start = bg.Position.initial()
    >>> [str(start.legal_plays(r)[int(k)]) for r, k in zip(("31", "65"), best)]
    ['8/5 6/5', '24/13']
    >>> (offsets[:-1] + best).tolist()       # the children's own indices
    [10, 16]
    """
    try:
        o = np.ascontiguousarray(offsets, dtype=np.int64)
    except OverflowError:
        raise ValueError("offsets must be int64 offsets into values") from None
    v = np.ascontiguousarray(values, dtype=np.float64)
    if o.ndim != 1 or v.ndim != 1:
        raise ValueError(f"offsets and values must be 1-D, not {o.shape} and {v.shape}")
    return _board.pair_best(o, v, bool(lowest))


def release_memory() -> None:
    """Free the memory kept for reuse by earlier results.

    Arrays returned by ``legal_positions`` view blocks of memory that go
    back to a small pool (the six largest, up to 2 GiB each) when the
    last view of them is gone, so a loop of calls does not pay for fresh
    pages each time; threaded calls keep their threads' scratch too.

    Examples
    --------
    >>> release_memory()
    """
    _pool.release()
    _chain.release_scratch()


def _buffer(arr, tail, dtype, name):
    """A caller's output array if it is usable, else None."""
    if arr is None:
        return None
    if not isinstance(arr, np.ndarray) or arr.dtype != dtype or arr.shape[1:] != tail \
            or not arr.flags.c_contiguous or not arr.flags.writeable:
        raise ValueError(f"{name} must be a writeable C-contiguous {np.dtype(dtype).name} array of shape (m, {tail[0]}, {tail[1]})")
    return arr if len(arr) >= MAX_PLAYS else None
