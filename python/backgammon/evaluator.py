"""Evaluators: what turns positions into chances, and the search above them.

An evaluator is anything that maps a batch of boards ``(n, 2, 25)`` (side
on roll in row 1, validated, games not over) to the five cubeless chances
of the side on roll, ``(n, 5)``: win, win a gammon, win a backgammon, lose
a gammon, lose a backgammon (gammons include backgammons).  The
:class:`Evaluator` protocol is just that call.  The shipped networks
(``backgammon.network.default()``) implement it in the kernel, with their
search there too; :class:`PubevalEvaluator` and any user callable
implement it in Python, and the search functions here (``chances``,
``rank``, ``choose``) search them the same way: ``ply`` k averages over
the 21 rolls of the side on roll, each with its best play at 0-ply, the
other side's chances after it at k - 1; plays are ranked at 0-ply, the
best few go one ply deeper (gnubg's move filters).  Finished games never
reach an evaluator: their chances are exact.

Every public function that evaluates (``evaluate``, ``hint``,
``cube_decision``, ``rollout``, ``duel`` and the players) takes an
``evaluator=`` of this kind.  An object with a
``__backgammon_evaluator__`` method (the native evaluator protocol,
docs/cython-api.md) is one too (:class:`NativeEvaluator`): its 0-ply
choices and rollouts run in the kernel game loop, without the GIL.

>>> import numpy as np, backgammon as bg
>>> def even(boards):                         # a user's evaluator: always 50%
...     return np.tile([0.5, 0.0, 0.0, 0.0, 0.0], (len(boards), 1))
>>> bg.evaluate(bg.Position.initial(), evaluator=even).win
0.5
>>> from backgammon import network
>>> isinstance(even, Evaluator), isinstance(network.default(), Evaluator)
(True, True)
"""
from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

import numpy as np

from . import _board, _net
from .dice import ROLL_ARRAY, ROLL_PROBABILITIES
from ._validate import floats, integer, integers, optional_integer
from .scoring import equity, flip

__all__ = ["Evaluator", "PubevalEvaluator", "CallableEvaluator", "NativeEvaluator", "as_evaluator", "is_kernel",
           "chances", "rank", "ranking", "best_of", "choose", "flip", "KEEP", "MAX_PLY"]

#: The deepest search of ``chances``.
MAX_PLY = 3
#: gnubg's move filters: plays kept for the next ply and how far behind the best they may be.
KEEP = ((8, 0.16), (2, 0.04))


@runtime_checkable
class Evaluator(Protocol):
    """The evaluator protocol: a callable from boards to chances.

    Called with boards (n, 2, 25) uint8 (side on roll in row 1, validated,
    games not over), it returns the five cubeless chances of the side on
    roll, (n, 5).  Anything callable is one (``isinstance`` checks only
    that); :func:`as_evaluator` checks a user's answers.

    Examples
    --------
    >>> from backgammon import network
    >>> isinstance(network.default(), Evaluator)
    True
    >>> isinstance(PubevalEvaluator(), Evaluator)
    True
    """

    def __call__(self, boards: np.ndarray) -> np.ndarray: ...


class CallableEvaluator:
    """A user's callable as an evaluator, its answers checked.

    Games already over are answered exactly without calling it; the
    callable's answers must be (n, 5), finite and within 0 and 1.

    Parameters
    ----------
    fn : callable
        From boards (n, 2, 25) to chances (n, 5).

    Raises
    ------
    TypeError
        ``fn`` is not callable.
    ValueError
        When called: ``fn`` answered the wrong shape or chances outside
        0..1, naming the position of the batch.

    Examples
    --------
    >>> import numpy as np, backgammon as bg
    >>> ev = CallableEvaluator(lambda b: np.full((len(b), 5), 0.25))
    >>> ev(bg.Position.initial().array[None]).tolist()
    [[0.25, 0.25, 0.25, 0.25, 0.25]]
    """

    def __init__(self, fn: Callable[[np.ndarray], np.ndarray]):
        if not callable(fn):
            raise TypeError(f"evaluator must be callable, not {type(fn).__name__}")
        self.fn = fn

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        return exact_or(self._live, boards)

    def _live(self, boards: np.ndarray) -> np.ndarray:
        p = np.asarray(self.fn(boards), dtype=np.float64)
        if p.shape != (len(boards), 5):
            raise ValueError(f"evaluator returned chances of shape {p.shape} for {len(boards)} positions; "
                             f"expected ({len(boards)}, 5)")
        if not np.isfinite(p).all() or (p < 0).any() or (p > 1).any():
            bad = int(np.argmax(~(np.isfinite(p) & (p >= 0) & (p <= 1)).all(axis=1)))
            raise ValueError(f"evaluator returned chances outside 0..1 for position {bad} of the batch: "
                             f"{p[bad].tolist()}")
        return p

    def __repr__(self) -> str:
        return f"CallableEvaluator({self.fn!r})"


class NativeEvaluator:
    """A native evaluator (the Cython protocol of docs/cython-api.md) as
    an evaluator.

    The object's ``__backgammon_evaluator__()`` capsule is checked when
    this is made.  Called with boards, it evaluates them in one batch
    without the GIL (games already over exactly), float64.  Its 0-ply
    choices (:func:`choose`, ``EvaluatorPlayer``) and the rollouts of a
    player built on it run in the kernel game loop, with its pruner when
    it has one; deeper searches run here over its batches.

    Parameters
    ----------
    native : object
        Anything with a ``__backgammon_evaluator__`` method.
    name : str, default "evaluator"
        The parameter's name, for errors.

    Raises
    ------
    TypeError
        ``native`` is not a native evaluator (no method, or its capsule is
        not a ``"backgammon.evaluator"`` one), naming ``name``.
    ValueError
        The struct is of another protocol version or its fields are out
        of range, naming ``name``.

    Examples
    --------
    >>> NativeEvaluator(object(), name="opponent")
    Traceback (most recent call last):
    ...
    TypeError: opponent: object is not a native evaluator (it has no __backgammon_evaluator__ method)
    """

    def __init__(self, native, name: str = "evaluator"):
        from . import _native
        try:
            _native.evaluate(native, np.zeros((0, 2, 25), dtype=np.uint8))      # checks the capsule
        except (TypeError, ValueError) as e:
            raise type(e)(f"{name}: {str(e).removeprefix('evaluator: ')}") from None
        self.native = native

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        from . import _native
        return _native.evaluate(self.native, np.ascontiguousarray(boards, dtype=np.uint8)).astype(np.float64)

    def __repr__(self) -> str:
        return f"NativeEvaluator({self.native!r})"


class PubevalEvaluator:
    """Tesauro's pubeval as an evaluator.

    The chance to win is a logistic of pubeval's score; it gives no
    gammons, and its chances are not calibrated.  Its 0-ply plays are
    pubeval's own (the order of its scores), except where a play breaks
    contact (pubeval then uses the weights of the position before it).

    Parameters
    ----------
    scale : float, default 10.0
        Points of score per unit of log-odds.

    Examples
    --------
    >>> import backgammon as bg
    >>> round(float(PubevalEvaluator()(bg.Position.initial().array[None])[0, 0]), 3)
    0.335
    """

    def __init__(self, scale: float = 10.0):
        from ._validate import number
        self.scale = number("scale", scale, low=1e-9)

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        return exact_or(self._live, boards)

    def _live(self, boards: np.ndarray) -> np.ndarray:
        from .pubeval import pubeval
        # pubeval scores a position for the side that has just played (row
        # 0); the side on roll has the rest.  (pubeval is not symmetric, so
        # scoring the side on roll instead would not choose pubeval's plays.)
        score = pubeval(boards)
        out = np.zeros((len(boards), 5))
        out[:, 0] = 1.0 / (1.0 + np.exp(np.clip(score / self.scale, -700, 700)))
        return out

    def __repr__(self) -> str:
        return f"PubevalEvaluator(scale={self.scale})"


def is_kernel(evaluator) -> bool:
    """Whether the evaluator and its search run in the kernel (the networks).

    Examples
    --------
    >>> import backgammon as bg
    >>> from backgammon import network
    >>> is_kernel(network.default()), is_kernel(PubevalEvaluator())
    (True, False)
    """
    return isinstance(evaluator, _net.Networks)


def as_evaluator(evaluator=None, *, networks=None, name: str = "evaluator"):
    """The evaluator an ``evaluator=`` argument names.

    Parameters
    ----------
    evaluator : Evaluator or callable, optional
        None is the shipped networks; the networks, a
        :class:`PubevalEvaluator`, a :class:`CallableEvaluator` or a
        :class:`NativeEvaluator` are used as they are; an object with a
        ``__backgammon_evaluator__`` method (a native evaluator) is wrapped
        in :class:`NativeEvaluator`, any other callable in
        :class:`CallableEvaluator`.
    networks : optional
        The older name of the argument (give one of them).
    name : str, default "evaluator"
        The parameter's name, for errors.

    Returns
    -------
    Evaluator

    Raises
    ------
    TypeError
        Both arguments given, or something that is not an evaluator
        (or a native evaluator whose capsule is not one), naming ``name``.
    ValueError
        A native evaluator's struct out of range, naming ``name``.

    Examples
    --------
    >>> import backgammon as bg
    >>> from backgammon import network
    >>> as_evaluator() is network.default()
    True
    >>> type(as_evaluator(lambda boards: boards)).__name__
    'CallableEvaluator'
    """
    if networks is not None:
        if evaluator is not None:
            raise TypeError("give evaluator or networks (its older name), not both")
        if not isinstance(networks, _net.Networks):
            raise TypeError(f"networks must be backgammon.network.load()'s result, not {type(networks).__name__}")
        evaluator = networks
    if evaluator is None:
        from .network import default
        return default()
    if isinstance(evaluator, (_net.Networks, CallableEvaluator, PubevalEvaluator, NativeEvaluator)):
        return evaluator
    if hasattr(evaluator, "__backgammon_evaluator__"):
        return NativeEvaluator(evaluator, name)
    if callable(evaluator):
        return CallableEvaluator(evaluator)
    raise TypeError(f"{name} must be an evaluator (the networks, a callable from boards (n, 2, 25) to "
                    f"chances (n, 5) or a native evaluator), not {type(evaluator).__name__}")


def exact_or(live: Callable[[np.ndarray], np.ndarray], boards: np.ndarray) -> np.ndarray:
    """Chances of the side on roll: exact where the game is over, else
    ``live(boards)`` of the games going on."""
    boards = np.ascontiguousarray(boards, dtype=np.uint8)
    out = np.zeros((len(boards), 5))
    winner, kind = _board.results(boards)
    over = winner >= 0
    if over.any():
        won = (winner == 1)[over]                  # the side on roll is off: it has won
        k = kind[over]
        out[over] = np.where(won[:, None], np.column_stack([np.ones(len(k)), k >= 2, k == 3, 0 * k, 0 * k]),
                             np.column_stack([0 * k, 0 * k, 0 * k, k >= 2, k == 3]))
    if (~over).any():
        out[~over] = live(np.ascontiguousarray(boards[~over]))
    return out


def chances(evaluator, boards: np.ndarray, ply: int = 0, threads: int | None = None) -> np.ndarray:
    """The chances of the side on roll of validated boards, searched.

    The kernel's search for the networks, the same search in batches here
    for any other evaluator.

    Parameters
    ----------
    evaluator : Evaluator
        As :func:`as_evaluator` gives it.
    boards : numpy.ndarray
        (n, 2, 25) uint8, validated.
    ply : int, default 0
        The search depth.
    threads : int, optional
        Threads for the networks; default every core.

    Returns
    -------
    numpy.ndarray
        (n, 5) float64.

    Examples
    --------
    >>> import backgammon as bg
    >>> chances(PubevalEvaluator(), bg.Position.initial().array[None], ply=1).shape
    (1, 5)
    """
    from ._parallel import on_threads
    if is_kernel(evaluator):
        p = on_threads(lambda part: _net.evaluate(evaluator, part, ply), boards, threads, 256 if ply == 0 else 8)
        return p.astype(np.float64)
    if ply == 0:
        return np.asarray(evaluator(boards), dtype=np.float64)
    from .batch import legal_positions
    n = len(boards)
    out = np.zeros((n, 5))
    winner, _ = _board.results(boards)
    live = np.flatnonzero(winner < 0)
    if len(live) < n:
        out[winner >= 0] = evaluator(boards[winner >= 0])
    if not len(live):
        return out
    b = np.repeat(boards[live], len(ROLL_ARRAY), axis=0)
    r = np.tile(ROLL_ARRAY.astype(np.uint8), (len(live), 1))
    offsets, kids = legal_positions(b, r, validate=False, threads=1)
    p = np.asarray(evaluator(kids), dtype=np.float64)      # the opponent's, on roll after each play
    best = _argmin_segments(equity(p), offsets)
    at = offsets[:-1] + best
    after = p[at] if ply == 1 else chances(evaluator, np.ascontiguousarray(kids[at]), ply - 1)
    mine = flip(after).reshape(len(live), len(ROLL_ARRAY), 5)
    out[live] = np.einsum("nrk,r->nk", mine, ROLL_PROBABILITIES)
    return out


def rank(evaluator, children: np.ndarray, ply: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The plays of one roll searched with gnubg's move filters.

    All plays at 0-ply; the best ``KEEP[0]`` within its margin at 1-ply;
    of those the best ``KEEP[1]`` at 2-ply.

    Parameters
    ----------
    evaluator : Evaluator
        As :func:`as_evaluator` gives it.
    children : numpy.ndarray
        (m, 2, 25): the positions after each play, from the next mover's
        view (``Plays.positions``).
    ply : int, default 0
        The deepest search.

    Returns
    -------
    probs : numpy.ndarray
        (m, 5): the chances of the side that played, after each play.
    depth : numpy.ndarray
        (m,) int64: the ply each play was searched to.

    See Also
    --------
    ranking : the plays best first.

    Examples
    --------
    >>> import backgammon as bg
    >>> plays = bg.Position.initial().legal_plays("31")
    >>> probs, depth = rank(as_evaluator(), plays.positions, ply=1)
    >>> str(plays[ranking(probs, depth)[0]]), int(depth.max())
    ('8/5 6/5', 1)
    """
    if is_kernel(evaluator):
        probs, depth = _net.rank_plays(evaluator, np.ascontiguousarray(children.reshape(len(children), 50)), ply)
        return probs.astype(np.float64), depth.astype(np.int64)
    probs = flip(chances(evaluator, children, 0))
    depth = np.zeros(len(children), dtype=np.int64)
    for level in range(1, ply + 1):
        here = np.flatnonzero(depth == level - 1)
        if len(here) <= 1:
            break
        value = equity(probs[here])
        order = here[np.argsort(-value, kind="stable")]
        keep, within = KEEP[level - 1]
        top = equity(probs[order[:1]])[0]
        go = [k for k in order[:keep] if equity(probs[k:k + 1])[0] >= top - within]
        probs[go] = flip(chances(evaluator, np.ascontiguousarray(children[go]), level))
        depth[go] = level
    return probs, depth


def ranking(probs: np.ndarray, depth: np.ndarray) -> list[int]:
    """The plays of a :func:`rank` best first, as indices.

    The deepest searched first, then by the mover's equity, then in the
    move generator's order.

    Examples
    --------
    >>> import numpy as np
    >>> probs = np.array([[0.4, 0, 0, 0, 0], [0.6, 0, 0, 0, 0], [0.5, 0, 0, 0, 0]])
    >>> ranking(probs, np.array([0, 0, 1]))     # play 2 searched deeper
    [2, 1, 0]
    """
    probs, depth = _ranked(probs, depth)
    eq = equity(probs)
    return sorted(range(len(probs)), key=lambda i: (-int(depth[i]), -eq[i], i))


def _ranked(probs, depth):
    """A ranking's (m, 5) chances and (m,) plies, checked."""
    probs = floats("probs", probs, shape=(None, 5))
    depth = integers("depth", depth, shape=(len(probs),), low=0)
    return probs, depth


def best_of(probs: np.ndarray, depth: np.ndarray) -> int:
    """The chosen play of a ranking: the best equity of the deepest ply
    reached, the first of equals.

    Examples
    --------
    >>> import numpy as np
    >>> probs = np.array([[0.4, 0, 0, 0, 0], [0.6, 0, 0, 0, 0], [0.5, 0, 0, 0, 0]])
    >>> best_of(probs, np.array([0, 0, 1]))
    2
    """
    probs, depth = _ranked(probs, depth)
    if not len(probs):
        raise ValueError("probs: no play to choose among none")
    return _best_of(probs, depth)


def _best_of(probs: np.ndarray, depth: np.ndarray) -> int:
    deepest = np.flatnonzero(depth == depth.max())
    return int(deepest[np.argmax(equity(probs[deepest]))])


def choose(evaluator, boards: np.ndarray, rolls: np.ndarray, ply: int = 0, threads: int | None = None) -> np.ndarray:
    """The best play of each (board, roll), searched ``ply`` deep.

    A :class:`NativeEvaluator`'s 0-ply choice is the kernel game loop's
    (its pruner first when it has one), without the GIL.

    Parameters
    ----------
    evaluator : Evaluator
        As :func:`as_evaluator` gives it.
    boards : numpy.ndarray
        (n, 2, 25) uint8, validated.
    rolls : numpy.ndarray
        (n, 2) uint8 dice.
    ply : int, default 0
        The search depth.
    threads : int, optional
        Threads for the networks; default every core.

    Returns
    -------
    numpy.ndarray
        (n,) int64: each best play's index in the move generator's order
        (the order of ``legal_plays``).

    Examples
    --------
    >>> import numpy as np, backgammon as bg
    >>> pos = bg.Position.initial()
    >>> roll = np.array([[3, 1]], dtype=np.uint8)
    >>> i = choose(as_evaluator(), pos.array[None], roll)
    >>> str(pos.legal_plays("31")[int(i[0])])
    '8/5 6/5'
    """
    from ._validate import rolls as checked_rolls
    from .batch import validate_boards
    evaluator = as_evaluator(evaluator) if evaluator is not None else as_evaluator(_none("evaluator"))
    boards = validate_boards(boards)
    rolls = checked_rolls("rolls", rolls, len(boards))
    ply = integer("ply", ply, low=0, high=MAX_PLY)
    threads = optional_integer("threads", threads, low=1)
    return _choose(evaluator, boards, rolls, ply, threads)


def _choose(evaluator, boards: np.ndarray, rolls: np.ndarray, ply: int = 0, threads: int | None = None) -> np.ndarray:
    """:func:`choose` of checked arguments (the players' game loops)."""
    from ._parallel import on_threads
    from .batch import legal_positions
    if is_kernel(evaluator):
        b = np.ascontiguousarray(boards, dtype=np.uint8)
        r = np.ascontiguousarray(rolls, dtype=np.uint8)
        # A search is milliseconds a position: a few rows are worth a thread.
        return on_threads(lambda rows: _net.choose(evaluator, b[rows], r[rows], ply), np.arange(len(b)), threads,
                          minimum=4 if ply else 256).astype(np.int64)
    if ply == 0 and isinstance(evaluator, NativeEvaluator):
        # The game loop's own choice (pruned when it has a pruner), without the GIL.
        from . import _choice
        return _choice.choose_plays(_choice.Policy.POLICY_NET, np.ascontiguousarray(boards, dtype=np.uint8),
                                    np.ascontiguousarray(rolls, dtype=np.uint8), evaluator=evaluator.native)
    offsets, kids = legal_positions(boards, rolls, validate=False, threads=1)
    if ply == 0:
        return _argmin_segments(equity(chances(evaluator, kids)), offsets)
    out = np.zeros(len(boards), dtype=np.int64)
    for i in range(len(boards)):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        if hi - lo > 1:
            out[i] = _best_of(*rank(evaluator, kids[lo:hi], ply))
    return out


def _none(name: str):
    raise TypeError(f"{name} must be an evaluator (as_evaluator gives one), not None")


def _argmin_segments(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Index of the first minimum within each CSR segment (0 for empty ones)."""
    n = len(offsets) - 1
    counts = np.diff(offsets)
    out = np.zeros(n, dtype=np.int64)
    full = counts > 0
    if not full.any():
        return out
    seg = np.repeat(np.arange(n), counts)
    least = np.full(n, np.inf)
    least[full] = np.minimum.reduceat(values, offsets[:-1][full])
    hit = np.flatnonzero(values == least[seg])
    segs, first = np.unique(seg[hit], return_index=True)
    out[segs] = hit[first] - offsets[segs]
    return out
