"""Argument checks shared by every public entry point.

One convention everywhere (README, "Errors"): a value of the wrong type
raises ``TypeError`` naming the parameter and the type expected; a value
of the right type that is out of range raises a ``ValueError`` subclass
naming the parameter.  A bool is never taken as an integer.

>>> integer("games", 10, low=1)
10
>>> integer("games", True)
Traceback (most recent call last):
...
TypeError: games must be an int, not bool
>>> integer("games", 0, low=1)
Traceback (most recent call last):
...
ValueError: games must be >= 1, not 0
"""
from __future__ import annotations

import operator
from typing import Any, Iterable

import numpy as np

__all__ = ["integer", "optional_integer", "number", "flag", "one_of", "instance", "integers", "boards", "floats", "data_bytes", "rolls"]


def _type_name(value: Any) -> str:
    return type(value).__name__


def integer(name: str, value: Any, *, low: int | None = None, high: int | None = None,
            error: type[ValueError] = ValueError) -> int:
    """``value`` as an int: Python or numpy integers only (not bool, float
    or text), within ``low..high`` when given."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {_type_name(value)}")
    value = operator.index(value)
    if low is not None and value < low:
        raise error(f"{name} must be >= {low}, not {value}")
    if high is not None and value > high:
        raise error(f"{name} must be <= {high}, not {value}")
    return value


def optional_integer(name: str, value: Any, **limits) -> int | None:
    """``None`` or an int as :func:`integer` checks it."""
    return None if value is None else integer(name, value, **limits)


def number(name: str, value: Any, *, low: float | None = None, high: float | None = None,
           error: type[ValueError] = ValueError) -> float:
    """A real number (int or float, not bool), finite and within the limits."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, not {_type_name(value)}")
    try:
        value = float(value)
    except OverflowError:          # an int beyond any float
        raise error(f"{name} must be finite, not an int of {value.bit_length()} bits") from None
    if not np.isfinite(value):
        raise error(f"{name} must be finite, not {value}")
    if low is not None and value < low:
        raise error(f"{name} must be >= {low}, not {value}")
    if high is not None and value > high:
        raise error(f"{name} must be <= {high}, not {value}")
    return value


def flag(name: str, value: Any) -> bool:
    """A bool (numpy's included)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {_type_name(value)}")
    return bool(value)


def one_of(name: str, value: Any, choices: Iterable, *, error: type[ValueError] = ValueError):
    """``value`` if it is one of ``choices`` (strings compared as strings)."""
    choices = tuple(choices)
    if choices and all(isinstance(c, str) for c in choices) and not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {_type_name(value)}")
    if value not in choices:
        raise error(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def instance(name: str, value: Any, cls: type | tuple, expected: str | None = None):
    """``value`` if it is an instance of ``cls``, else TypeError."""
    if not isinstance(value, cls):
        what = expected or (cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls))
        raise TypeError(f"{name} must be a {what}, not {_type_name(value)}")
    return value


def integers(name: str, value: Any, *, shape: tuple | None = None, low: int | None = None,
             high: int | None = None, error: type[ValueError] = ValueError) -> np.ndarray:
    """An array of whole numbers as int64: integer dtypes only (no bools,
    floats or objects), of ``shape`` (None entries are free) and within
    the limits."""
    try:
        a = np.asarray(value)
    except Exception:
        raise TypeError(f"{name} must be an array of ints, not {_type_name(value)}") from None
    if a.dtype == np.bool_ or not (np.issubdtype(a.dtype, np.integer) or (a.dtype == object and a.size == 0)):
        if a.dtype == object:
            if all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in a.flat):
                raise error(f"{name} holds integers too large for int64")
        raise TypeError(f"{name} must be an array of ints, not of {a.dtype}")
    if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:
        raise error(f"{name} holds integers too large for int64")
    a = a.astype(np.int64)
    if shape is not None and (a.ndim != len(shape) or any(s is not None and s != t for s, t in zip(shape, a.shape))):
        want = "(" + ", ".join("n" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
        raise error(f"{name} must have shape {want}, not {a.shape}")
    if a.size and low is not None and a.min() < low:
        raise error(f"{name} must be >= {low}, not {int(a.min())}")
    if a.size and high is not None and a.max() > high:
        raise error(f"{name} must be <= {high}, not {int(a.max())}")
    return a


def boards(name: str, value: Any) -> np.ndarray:
    """Boards (n, 2, 25) of 0..15 checkers as uint8 (one board (2, 25) is a
    batch of one); the engine's own uint8 batches pass unconverted."""
    if isinstance(value, np.ndarray) and value.dtype == np.uint8 and value.shape[1:] == (2, 25) and value.ndim == 3:
        return value
    a = integers(name, value, low=0, high=15)
    if a.shape == (2, 25):
        a = a[None]
    if a.ndim != 3 or a.shape[1:] != (2, 25):
        raise ValueError(f"{name} must be boards of shape (n, 2, 25), not {a.shape}")
    return a.astype(np.uint8)


def floats(name: str, value: Any, *, shape: tuple | None = None) -> np.ndarray:
    """An array of real numbers as float64 (no text, objects or complex),
    of ``shape`` (None entries are free; a trailing ``...`` in front
    allows any leading axes: ``(..., 5)``)."""
    try:
        raw = value if isinstance(value, np.ndarray) else np.asarray(value)
        # numpy reads the text '31' as 31.0: text is no number here.
        if raw.dtype.kind in "USVc" or raw.dtype.kind == "O" and not all(
                isinstance(v, (int, float, np.integer, np.floating)) for v in raw.flat):
            raise TypeError
        a = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{name} must be an array of numbers, not {_type_name(value)}") from None
    if shape is not None:
        fixed = shape[1:] if shape and shape[0] is Ellipsis else shape
        ok = (a.ndim >= len(fixed) if shape[0] is Ellipsis else a.ndim == len(fixed)) and \
            all(s is None or s == t for s, t in zip(fixed, a.shape[a.ndim - len(fixed):] if fixed else ()))
        if not ok:
            want = "(" + ", ".join("..." if s is Ellipsis else "n" if s is None else str(s) for s in shape) + \
                ("," if len(shape) == 1 else "") + ")"
            raise ValueError(f"{name} must have shape {want}, not {a.shape}")
    return a


def data_bytes(name: str, value: Any) -> bytes:
    """A file's contents as bytes: bytes, bytearray or memoryview (text
    is not bytes: a reader of bytes refuses a str with TypeError)."""
    if type(value) is bytes:
        return value
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"{name} must be bytes, not {_type_name(value)}")
    return bytes(value)


def rolls(name: str, value: Any, n: int, *, range_checked_later: bool = False) -> np.ndarray:
    """``n`` rolls (n, 2) of dice 1 to 6 as C-contiguous uint8, or an
    ``InvalidRollError`` naming ``name``; ``range_checked_later``: uint8
    dice are left to the move generator's own check (``batch``)."""
    from .errors import InvalidRollError
    arr = np.asarray(value)
    if arr.shape != (n, 2):
        raise InvalidRollError(f"{name} must have shape ({n}, 2), got {arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidRollError(f"{name} must hold integers, got dtype {arr.dtype}")
    if not (range_checked_later and arr.dtype == np.uint8) and arr.size and (arr.min() < 1 or arr.max() > 6):
        raise InvalidRollError("dice must be 1 to 6")
    return np.ascontiguousarray(arr, dtype=np.uint8)
