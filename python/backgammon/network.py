"""The project's neural networks: weight files, fresh networks, loading.

A weight file is a numpy ``.npz`` holding the float32 arrays of the contact
network (``contact_w1`` (I, H), ``contact_b1``, ``contact_w2`` (5, H),
``contact_b2``), of the race network (``race_*``) and optionally of the
crashed network (``crashed_*``, as contact's) and of the pruning network
(``prune_*``, (202, H) over the raw inputs, which ranks the plays a 0-ply
choice then evaluates in full), plus ``meta``: a JSON text saying how the
weights were made (the training command, games, seed, seconds).  The shipped weights are
``backgammon/data/nets.npz``; docs/evaluation.md describes the inputs.

>>> nets = load()
>>> sorted(nets.arrays)[:2]
['contact_b1', 'contact_b2']
"""
from __future__ import annotations

import copyreg
import io
import json
import zipfile
from functools import lru_cache
from importlib import resources
from typing import Any, cast

import numpy as np

from . import _net, bearoff
from ._files import write_atomically

__all__ = ["new_arrays", "load", "save", "default", "meta", "rebuild", "CONTACT_INPUTS", "RACE_INPUTS",
           "PRUNE_INPUTS", "LAYOUTS"]

# Inputs of the contact (and crashed) and race networks in each layout
# (docs/evaluation.md); the kernel tells the layout from the sizes.
LAYOUTS = {1: (218, 204), 2: (248, 210)}
CONTACT_INPUTS, RACE_INPUTS = LAYOUTS[2]
PRUNE_INPUTS = 202       # the pruning network's: the raw units of both sides
_NAMES = ("w1", "b1", "w2", "b2")


def new_arrays(seed=None, contact_hidden: int = 128, race_hidden: int = 64, crashed_hidden: int | None = 0,
               layout: int = 2) -> dict[str, np.ndarray]:
    """Freshly initialised weights, to train from.

    Parameters
    ----------
    seed : int, optional
        Seeds the small uniform first values.
    contact_hidden, race_hidden : int, default 128, 64
        Hidden units of the contact and race networks.
    crashed_hidden : int or None, default 0
        Hidden units of a crashed network: 0 for none, None as many as
        contact's.
    layout : int, default 2
        The input layout, a key of :data:`LAYOUTS`.

    Returns
    -------
    dict of str to numpy.ndarray
        float32 arrays named as in a weight file.

    Examples
    --------
    >>> a = new_arrays(seed=1, contact_hidden=16, race_hidden=16)
    >>> a["contact_w1"].shape, a["race_w2"].shape, "crashed_w1" in a
    ((248, 16), (5, 16), False)
    """
    from ._validate import integer, one_of, optional_integer
    from .dice import generator
    # Sizes the kernel cannot run (16..512 in steps of 16) are refused when the arrays are loaded.
    contact_hidden = integer("contact_hidden", contact_hidden, low=1)
    race_hidden = integer("race_hidden", race_hidden, low=1)
    crashed_hidden = optional_integer("crashed_hidden", crashed_hidden, low=0)
    layout = one_of("layout", integer("layout", layout), LAYOUTS)
    rng = generator(seed)
    contact_in, race_in = LAYOUTS[layout]
    crashed_hidden = contact_hidden if crashed_hidden is None else crashed_hidden
    arrays = {}
    nets = [("contact", contact_in, contact_hidden), ("race", race_in, race_hidden)]
    if crashed_hidden:
        nets.append(("crashed", contact_in, crashed_hidden))
    for name, n_in, h in nets:
        arrays[f"{name}_w1"] = rng.uniform(-0.1, 0.1, (n_in, h)).astype(np.float32)
        arrays[f"{name}_b1"] = np.zeros(h, np.float32)
        arrays[f"{name}_w2"] = rng.uniform(-0.1, 0.1, (5, h)).astype(np.float32)
        arrays[f"{name}_b2"] = np.zeros(5, np.float32)
    return arrays


def networks(arrays: dict[str, np.ndarray]) -> _net.Networks:
    """The kernel's evaluator over ``arrays`` (used in place, not copied)
    with the bear-off tables."""
    os_db = bearoff.one_sided()
    ts = bearoff.two_sided()
    assert os_db.gammon_table is not None    # the shipped table has its gammon distributions
    return _net.Networks(arrays, os_db.table, os_db.gammon_table, ts.records, ts.checkers)


def save(path, arrays: dict[str, np.ndarray], meta: dict) -> None:
    """Write a weight file atomically (a temporary file, then a rename).

    Parameters
    ----------
    path : str or os.PathLike
        Where to write the ``.npz``.
    arrays : dict of str to numpy.ndarray
        The weights, as :func:`new_arrays` names them.
    meta : dict
        How they were made (JSON-serialisable).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.npz")
    >>> arrays = new_arrays(seed=1, contact_hidden=16, race_hidden=16)
    >>> save(path, arrays, {"games": 0})
    >>> meta(path), load(path).arrays["race_b2"].shape
    ({'games': 0}, (5,))
    """
    buffer = io.BytesIO()
    np.savez_compressed(buffer, meta=np.array(json.dumps(meta, sort_keys=True)), **cast("dict[str, Any]", arrays))
    write_atomically(path, buffer.getvalue())


def read(path) -> tuple[dict[str, np.ndarray], dict]:
    """The arrays and the meta dictionary of a weight file."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: np.array(data[k], dtype=np.float32, order="C") for k in data.files if k != "meta"}
            meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
    except (EOFError, zipfile.BadZipFile, json.JSONDecodeError) as e:     # empty, cut short, garbled
        raise ValueError(f"{path}: not a weight file of this project ({type(e).__name__}: {e})") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: not a weight file of this project (its meta is not a JSON object)")
    bad = [k for k, a in arrays.items() if not np.isfinite(a).all()]
    if bad:           # NaN weights evaluate every position to nonsense, silently
        raise ValueError(f"{path}: the weights {', '.join(sorted(bad))} are not all finite")
    missing = [f"{n}_{k}" for n in ("contact", "race") + (("crashed",) if "crashed_w1" in arrays else ())
               for k in _NAMES if f"{n}_{k}" not in arrays]
    if missing:
        raise ValueError(f"{path}: not a weight file of this project (missing {', '.join(missing)})")
    return arrays, meta


def load(path=None) -> _net.Networks:
    """The networks of a weight file, as an evaluator.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A weight file; default the shipped weights (:func:`default`).

    Returns
    -------
    Networks
        An evaluator for every ``evaluator=`` argument.

    Raises
    ------
    ValueError
        The file is not a weight file of this project.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> load() is default()
    True
    """
    if path is None:
        return default()
    arrays, _ = read(path)
    return networks(arrays)


def _shipped():
    return resources.files("backgammon").joinpath("data/nets.npz")


@lru_cache(maxsize=1)
def default() -> _net.Networks:
    """The shipped networks, loaded once per process.

    Examples
    --------
    >>> import backgammon as bg
    >>> round(bg.evaluate(bg.Position.initial(), evaluator=default()).win, 2)
    0.53
    """
    with resources.as_file(_shipped()) as p:
        arrays, _ = read(p)
    for a in arrays.values():
        a.flags.writeable = True
    return networks(arrays)


def meta(path=None) -> dict:
    """How a weight file (default: the shipped one) was made.

    Returns
    -------
    dict
        The training command, games, seed, seconds...

    Examples
    --------
    >>> meta()["command"].startswith("python training/fit_blind_spots.py")
    True
    """
    if path is None:
        with resources.as_file(_shipped()) as p:
            return read(p)[1]
    return read(path)[1]


def _reduce(nets: _net.Networks):
    # By value: the weights travel, the bear-off tables are the receiver's
    # own; the shipped networks travel by name.  (Registered with copyreg,
    # so pickle and copy use it: the kernel knows nothing of this module.)
    return rebuild, (nets.arrays, nets is default(), nets.pruning)


copyreg.pickle(_net.Networks, _reduce)


def rebuild(arrays: dict[str, np.ndarray], shipped: bool = False, pruning: int | None = None) -> _net.Networks:
    """Networks from their weight arrays (unpickling): the shipped networks
    of this process when ``shipped`` (and their pruning is ``pruning``),
    else a copy of ``arrays`` with that pruning.

    >>> import pickle
    >>> pickle.loads(pickle.dumps(default())) is default()
    True
    """
    if shipped and (pruning is None or pruning == default().pruning):
        return default()
    nets = networks({k: np.array(v, dtype=np.float32, order="C") for k, v in arrays.items()})
    if pruning is not None:
        nets.pruning = pruning
    return nets
