"""Position types: the kinds of game a position belongs to (blitz, back
game, prime, contact bear-in, crashed, race), from features of the board
alone, for benchmarks and training that must visit each kind (issue 41).

Every board gets exactly one type, the first of :data:`TYPES` whose test
it passes (either side may be the attacker, the priming or the bearing
side).  The tests, with A and D the two sides, points counted from each
side's own view (its home board 1-6, the bar 25):

``blitz``
    D has a checker on the bar, holds no point in A's home board, and A
    holds 5 or more of its home points, or 4 when D has two or more
    checkers on the bar or as blots in A's home board; nobody has borne
    off.
``back_game``
    D holds two or more points in A's home board and trails in the pip
    count by at least :data:`BACK_GAME_DEFICIT`.
``prime``
    A checker of D (the bar counts) is behind five or more consecutive
    points held by A: a prime, a closed board, a timing battle.
``crashed``
    Any other position (blitz, back game and prime first) the crashed network answers for
    (``_net.position_classes`` 4: a side with at most 6 checkers in play).
``bear_in``
    A has at most :data:`BEAR_IN_OUTSIDE` checkers outside its home board
    (those borne off count as home) while D has a checker on the bar or in
    A's home board: bear-ins and bear-offs against contact (those the
    crashed network answers for are ``crashed``).
``other_contact``
    Any other contact position.
``race``
    No contact, a checker still outside its home board (the race network).
``bear_off``
    Both sides home (the bear-off tables: exact, no network).
``over``
    A side has borne every checker off.

>>> import numpy as np
>>> from backgammon import Position
>>> names(position_types(Position.initial().array[None]))
['other_contact']
"""
from __future__ import annotations

import numpy as np

from . import _net
from ._validate import integers
from .batch import validate_boards

__all__ = ["TYPES", "NETWORK_TYPES", "position_types", "names", "type_of", "BACK_GAME_DEFICIT", "BEAR_IN_OUTSIDE"]

#: The types in the order their tests are tried; a board's type is its index here.
TYPES = ("blitz", "back_game", "prime", "crashed", "bear_in", "other_contact", "race", "bear_off", "over")
#: The types a network answers for (benchmarks and training use these).
NETWORK_TYPES = TYPES[:7]
BACK_GAME_DEFICIT = 40
BEAR_IN_OUTSIDE = 3
PRIME_LENGTH = 5

_INDEX = {name: i for i, name in enumerate(TYPES)}


def _side_tests(a: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Blitz, back game, prime and bear-in with ``a`` (n, 25) the attacking,
    priming or bearing side and ``d`` (n, 25) the other, each row in its
    own side's view."""
    a = a.astype(np.int32)
    d = d.astype(np.int32)
    points = np.arange(1, 25)
    # d's points 19-24 (indices 18-23) are a's home points 6..1.
    d_in_a_home = d[:, 18:24]
    d_anchors = (d_in_a_home >= 2).sum(axis=1)
    d_blots_in_a_home = (d_in_a_home == 1).sum(axis=1)
    a_home_points = (a[:, :6] >= 2).sum(axis=1)
    d_bar = d[:, 24]
    off_none = (a.sum(axis=1) == 15) & (d.sum(axis=1) == 15)
    blitz = (d_bar >= 1) & (d_anchors == 0) & off_none & (
        (a_home_points >= 5) | ((a_home_points >= 4) & (d_bar + d_blots_in_a_home >= 2)))
    pips_a = (a[:, :24] * points).sum(axis=1) + 25 * a[:, 24]
    pips_d = (d[:, :24] * points).sum(axis=1) + 25 * d[:, 24]
    back_game = (d_anchors >= 2) & (pips_d - pips_a >= BACK_GAME_DEFICIT)
    # d's checkers seen from a's points: a's point q is d's point 25 - q;
    # d's bar is a's "point 0", behind everything.
    d_at = np.concatenate([d[:, 24:25], d[:, 23::-1]], axis=1)      # index q: d's checkers on a's point q
    behind = np.cumsum(d_at, axis=1)                                  # behind[:, q]: on a's points 0..q
    made = a[:, :24] >= 2
    prime = np.zeros(len(a), dtype=bool)
    for lo in range(1, 25 - PRIME_LENGTH + 1):                        # a run of made points lo..lo+4
        run = made[:, lo - 1:lo - 1 + PRIME_LENGTH].all(axis=1)
        prime |= run & (behind[:, lo - 1] > 0)
    outside = a[:, 6:25].sum(axis=1)
    bear_in = (outside <= BEAR_IN_OUTSIDE) & ((d_bar + d_in_a_home.sum(axis=1)) > 0)
    return blitz, back_game, prime, bear_in


def position_types(boards) -> np.ndarray:
    """The type of each board (n, 2, 25) as an index into :data:`TYPES`,
    (n,) int8.

    >>> b = np.zeros((1, 2, 25), np.uint8)
    >>> b[0, 1, :6], b[0, 1, 7] = 2, 3          # the side on roll: a closed board
    >>> b[0, 0, [5, 7, 12, 24]] = 5, 4, 5, 1     # the other: a checker on the bar
    >>> names(position_types(b))
    ['blitz']
    """
    b = validate_boards(boards)
    cls = _net.position_classes(b)
    out = np.full(len(b), _INDEX["other_contact"], dtype=np.int8)
    t0 = _side_tests(b[:, 1], b[:, 0])
    t1 = _side_tests(b[:, 0], b[:, 1])
    # Later assignments win: go from the last contact type to the first.
    for name, x, y in reversed(list(zip(("blitz", "back_game", "prime", "bear_in"), t0, t1))):
        out[(x | y) & (cls >= 3)] = _INDEX[name]
        if name == "bear_in":
            out[cls == 4] = _INDEX["crashed"]
    out[cls == 2] = _INDEX["race"]
    out[cls == 1] = _INDEX["bear_off"]
    out[cls == 0] = _INDEX["over"]
    return out


def names(types) -> list[str]:
    """The names of type indices (ints 0 to ``len(TYPES) - 1``).

    >>> names([0, 6])
    ['blitz', 'race']
    """
    # Checked: -1 read as the last name, 1.9 as 1, 9 raised IndexError.
    indices = integers("types", types, low=0, high=len(TYPES) - 1)
    return [TYPES[t] for t in indices.reshape(-1).tolist()]


def type_of(position) -> str:
    """The type of one position (a :class:`~backgammon.Position` or a (2, 25) board).

    >>> from backgammon import Position
    >>> type_of(Position.initial())
    'other_contact'
    """
    arr = getattr(position, "array", position)
    return TYPES[int(position_types(np.asarray(arr)[None])[0])]
