"""Tesauro's pubeval and the TD-Gammon input encoding.

pubeval is the public linear evaluator of 1992 that benchmarks compare
against; the kernel keeps its weights as one table per point, so scoring a
position is 24 lookups.

>>> import backgammon as bg
>>> pubeval(bg.Position.initial().array[None]).round(2).tolist()
[6.84]
"""
from __future__ import annotations

from importlib import resources

import numpy as np

from . import _pubeval, _tesauro

__all__ = ["pubeval", "tesauro_inputs", "load_weights"]

_loaded = False


def load_weights() -> None:
    """Load the shipped weights (data/pubeval_weights.csv) into the kernel,
    once per process."""
    global _loaded
    if not _loaded:
        text = resources.files("backgammon").joinpath("data/pubeval_weights.csv").read_text()
        w = np.loadtxt(text.splitlines(), delimiter=",", skiprows=1)[:, 1:]
        _pubeval.set_weights(np.ascontiguousarray(w))
        _loaded = True


def pubeval(boards, race=None) -> np.ndarray:
    """pubeval's score of positions after a play, for the side that played
    (row 0 of the (n, 2, 25) boards, the next mover's view); ``race`` (n
    bools) picks the weights (default: from each board).  Higher is better;
    a side with every checker off scores +inf.
    """
    from .batch import validate_boards
    load_weights()
    b = validate_boards(boards)
    if race is not None:
        race = np.asarray(race)
        if race.shape != (len(b),) or race.dtype != np.bool_:
            raise ValueError(f"race must be {len(b)} bools, one per board")
    return _pubeval.pubeval_batch(b, race)


def tesauro_inputs(boards) -> np.ndarray:
    """The 198 TD-Gammon inputs of (n, 2, 25) boards, float32 (n, 198):
    side on roll then opponent, each 24 points x 4 units (1, 2, 3 checkers
    and (n - 3) / 2 beyond), bar / 2, borne off / 15; then (1, 0) for the
    turn."""
    from .batch import validate_boards
    return _tesauro.tesauro_inputs(validate_boards(boards))
