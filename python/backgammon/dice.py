"""Dice (RULES 2): rolls, their probabilities, and seeded rolling.

>>> Roll(3, 1).is_double, Roll.from_str("6-6").moves
(False, (6, 6, 6, 6))
>>> len(ROLLS), float(ROLL_PROBABILITIES.sum())
(21, 1.0)
"""
from __future__ import annotations

import operator
from typing import NamedTuple, Union

import numpy as np

from . import _dice
from .errors import InvalidRollError

__all__ = [
    "Roll", "RollLike", "ROLLS", "ROLL_ARRAY", "ROLL_PROBABILITIES",
    "ORDERED_ROLLS", "OPENING_ROLLS", "roll_dice", "roll_batch", "to_dice", "generator", "seed_sequence",
]


class Roll(NamedTuple):
    """Two dice as rolled.  Order does not change the legal plays.

    >>> str(Roll(6, 4)), Roll.from_str("42")
    ('64', Roll(die1=4, die2=2))
    """

    die1: int
    die2: int

    @classmethod
    def from_str(cls, text: str) -> "Roll":
        """Read ``"31"``, ``"3-1"`` or ``"3 1"`` (RULES 10.1)."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        digits = text.strip().replace("-", "").replace(" ", "").replace(",", "")
        if len(digits) != 2 or not all(c in "123456" for c in digits):
            raise InvalidRollError(f"cannot read {text!r} as a roll: expected two dice 1-6 such as '31' or '3-1'")
        return cls(int(digits[0]), int(digits[1]))

    @property
    def is_double(self) -> bool:
        return self.die1 == self.die2

    @property
    def moves(self) -> tuple[int, ...]:
        """The dice to play: four of a double's number (RULES 3.1)."""
        return (self.die1,) * 4 if self.die1 == self.die2 else (self.die1, self.die2)

    @property
    def probability(self) -> float:
        """Chance of this roll, order ignored (RULES 2.1)."""
        return 1 / 36 if self.die1 == self.die2 else 2 / 36

    def __str__(self) -> str:
        return f"{self.die1}{self.die2}"


RollLike = Union[Roll, tuple, str]


def to_dice(roll: RollLike, name: str = "roll") -> tuple[int, int]:
    """The two dice of a roll written any way the package takes one.

    Parameters
    ----------
    roll : Roll, tuple or str
        A ``Roll``, a pair of ints, or a text such as ``"31"`` or ``"3-1"``.
    name : str
        The parameter's name in an error message.

    Returns
    -------
    tuple of int
        ``(die1, die2)``, in the order given.

    Raises
    ------
    TypeError
        ``roll`` is of none of these types.
    InvalidRollError
        The dice are not two numbers from 1 to 6.

    Examples
    --------
    >>> to_dice("3-1"), to_dice((2, 5))
    ((3, 1), (2, 5))
    """
    if isinstance(roll, str):
        return tuple(Roll.from_str(roll))  # type: ignore[return-value]
    if not isinstance(roll, (tuple, list, np.ndarray)):
        raise TypeError(f"{name} must be a Roll, a pair of ints or a str such as '31', not {type(roll).__name__}")
    if len(roll) != 2:
        raise InvalidRollError(f"{name} is two dice such as (3, 1) or '31', not {len(roll)} values")
    d1, d2 = roll
    for d in (d1, d2):
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"{name} must hold two ints, not {type(d).__name__}")
    d1, d2 = operator.index(d1), operator.index(d2)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidRollError(f"dice must be 1 to 6, got {d1} and {d2}")
    return _PAIRS[d1][d2]       # one tuple per pair: records of many games share them


_PAIRS = [[(a, b) for b in range(7)] for a in range(7)]
ROLLS: tuple[Roll, ...] = tuple(Roll(a, b) for a in range(1, 7) for b in range(1, a + 1))
"""The 21 distinct rolls, high die first, doubles included.

>>> len(ROLLS), ROLLS[:2]
(21, (Roll(die1=1, die2=1), Roll(die1=2, die2=1)))
"""
ROLL_ARRAY = np.array(ROLLS, dtype=np.int8)
"""The same as a read-only int8 array of shape (21, 2).

>>> ROLL_ARRAY.shape, ROLL_ARRAY[1].tolist()
((21, 2), [2, 1])
"""
ROLL_ARRAY.flags.writeable = False
ROLL_PROBABILITIES = np.array([r.probability for r in ROLLS])
"""Probability of each of the 21 rolls (1/36 a double, 2/36 the others); sums to 1.

>>> (ROLL_PROBABILITIES[:2] * 36).round(6).tolist()
[1.0, 2.0]
"""
ROLL_PROBABILITIES.flags.writeable = False
ORDERED_ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(1, 7)], dtype=np.int8)
"""The 36 equally likely ordered outcomes, shape (36, 2).

>>> ORDERED_ROLLS.shape, ORDERED_ROLLS[1].tolist()
((36, 2), [1, 2])
"""
ORDERED_ROLLS.flags.writeable = False
OPENING_ROLLS = _dice.opening_throws()
"""The 30 equally likely opening throws (RULES 2.2: each side throws one
die, ties are thrown again), shape (30, 2): one die per side, never
equal; the higher moves first with both.  The kernels' own table.

>>> OPENING_ROLLS.shape
(30, 2)
>>> bool((OPENING_ROLLS[:, 0] != OPENING_ROLLS[:, 1]).all())
True
"""
OPENING_ROLLS.flags.writeable = False


def seed_sequence(seed, name: str = "seed") -> np.random.SeedSequence:
    """The ``SeedSequence`` behind every random thing in the package, from
    None (fresh entropy), an int >= 0, a ``SeedSequence`` or a ``Generator``
    (whose next draw seeds it).

    >>> seed_sequence(7).entropy
    7
    """
    if seed is None or isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed) if seed is None else seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(0, 2 ** 63)))
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{name} must be an int, a numpy SeedSequence or Generator, or None, not {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"{name} must be >= 0, not {seed}")
    return np.random.SeedSequence(int(seed))


def generator(seed, name: str = "seed") -> np.random.Generator:
    """A numpy ``Generator`` from a seed as :func:`seed_sequence` takes it;
    a ``Generator`` is used as it is (it is shared, not copied).

    Examples
    --------
    >>> int(generator(3).integers(1, 7)) == int(generator(3).integers(1, 7))
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.Generator(np.random.PCG64(seed_sequence(seed, name)))


_generator = generator


def roll_dice(seed: int | np.random.SeedSequence | np.random.Generator | None = None) -> Roll:
    """One roll of two dice.

    Parameters
    ----------
    seed : int, SeedSequence, Generator or None
        Same seed, same roll; None draws fresh entropy.

    Returns
    -------
    Roll

    See Also
    --------
    roll_batch : many rolls at once.

    Examples
    --------
    >>> roll_dice(7) == roll_dice(7)
    True
    """
    d = _generator(seed).integers(1, 7, size=2)
    return Roll(int(d[0]), int(d[1]))


#: The most rolls :func:`roll_batch` makes at once: two bytes a roll, as
#: many as a numpy array can hold (``2**62 - 1`` on 64-bit machines).
MAX_ROLL_BATCH = np.iinfo(np.intp).max // 2


def roll_batch(n: int, seed: int | np.random.SeedSequence | np.random.Generator | None = None) -> np.ndarray:
    """Many rolls of two dice at once.

    Parameters
    ----------
    n : int
        How many rolls, ``n >= 0``.
    seed : int, SeedSequence, Generator or None
        Same seed, same rolls; None draws fresh entropy.

    Returns
    -------
    numpy.ndarray
        ``uint8`` of shape (n, 2), each die 1 to 6, in the order thrown.

    Examples
    --------
    >>> roll_batch(3, seed=1).tolist()
    [[6, 6], [1, 3], [6, 5]]

    Raises
    ------
    ValueError
        ``n`` below 0 or above :data:`MAX_ROLL_BATCH` (the most rolls a
        numpy array can hold).
    MemoryError
        ``n`` rolls (two bytes each) do not fit in memory; the message
        names ``n``.
    """
    from ._validate import integer
    n = integer("n", n, low=0, high=MAX_ROLL_BATCH)
    rng = _generator(seed)
    try:
        return rng.integers(1, 7, size=(n, 2), dtype=np.uint8)
    except MemoryError:
        raise MemoryError(f"n: {n:,} rolls need {2 * n:,} bytes, more than this machine can give") from None
