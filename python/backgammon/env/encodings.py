"""The environments' observation encodings: ``observation="tesauro"``,
``"net"``, ``"board"`` or ``"raw"``.

Each encodes a position as the side in row 1 sees it (on roll or not),
with or without dice.  An **afterstate** (the position a legal play leads
to) is encoded as its next mover sees it (the opponent on roll, as
``Position.legal_plays(roll).positions`` and ``info["afterstates"]`` give
it, and as pubeval and the networks evaluate it), without dice; a state's
encoding is its afterstate-style encoding plus the dice.

========== ==================== ============== ============================================
name       state                afterstate     what
========== ==================== ============== ============================================
tesauro    (210,)               (198,)         Tesauro's 198 TD-Gammon inputs, one-hot high and low die
net        (266,)               (254,)         the shipped network's 248 inputs, its class (5), on roll, dice
board      (15, 26)             (9, 26)        planes over the 26 places of the board, for conv nets
raw        (63,)                (51,)          the 50 checker counts, on roll, dice: encode it yourself
========== ==================== ============== ============================================

>>> import backgammon as bg
>>> enc = encoding("board")
>>> enc.state_shape, enc.afterstate_shape
((15, 26), (9, 26))
>>> x = enc.states(bg.Position.initial().array[None], np.array([[3, 1]], dtype=np.uint8))
>>> # a checker on its 6-point; a 3 among the dice
>>> x.shape, float(x[0, 0, 6]), float(x[0, 9 + 2, 0])
((1, 15, 26), 1.0, 1.0)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _env, _net, _tesauro
from .._validate import one_of

__all__ = ["OBSERVATIONS", "Encoding", "encoding", "pad_afterstates", "DICE_UNITS"]

#: The names ``observation=`` takes.
OBSERVATIONS = ("tesauro", "net", "board", "raw")
#: Dice units of the flat encodings: one-hot the high die (6), one-hot the low die (6).
DICE_UNITS = 12
#: The network's inputs (layout 2) and its position classes (over, bear-off, race, contact, crashed).
NET_INPUTS, NET_CLASSES = 248, 5
#: Planes of the board tensor: checkers (4 a side), on roll, then dice (6); places 0-25.
CHECKER_PLANES, BOARD_PLANES, PLACES = 9, 15, 26


def _dice(rolls: np.ndarray, out: np.ndarray) -> None:
    # One-hot the high die into out[:, :6] and the low die into out[:, 6:12]; (0, 0) none.
    r = np.asarray(rolls, dtype=np.int64)
    hi, lo = r.max(axis=1), r.min(axis=1)
    has = (lo >= 1) & (hi <= 6)
    rows = np.flatnonzero(has)
    out[:] = 0
    out[rows, hi[rows] - 1] = 1.0
    out[rows, 6 + lo[rows] - 1] = 1.0


@dataclass(frozen=True)
class Encoding:
    """One observation encoding: its name, the shapes of a state and of an
    afterstate, and the largest value of any unit (``high``: observations
    lie in ``Box(0, high)``)."""

    name: str
    state_shape: tuple
    afterstate_shape: tuple
    high: float

    def states(self, boards: np.ndarray, rolls: np.ndarray | None, on_turn: bool = True) -> np.ndarray:
        """Encodings (n, *state_shape) float32 of boards (n, 2, 25) seen by
        the side in row 1 with its dice (n, 2) ((0, 0) or None: none);
        ``on_turn`` False: the other side is on roll."""
        b = np.ascontiguousarray(boards, dtype=np.uint8)
        n = len(b)
        r = np.zeros((n, 2), dtype=np.uint8) if rolls is None else np.ascontiguousarray(rolls, dtype=np.uint8)
        if self.name == "tesauro":
            out = np.empty((n, 210), dtype=np.float32)
            _env.observations(b, r, out, on_turn)
            return out
        if self.name == "board":
            out = np.empty((n, BOARD_PLANES, PLACES), dtype=np.float32)
            _env.board_tensors(b, r, out, on_turn)
            return out
        width = self.state_shape[0]
        out = np.empty((n, width), dtype=np.float32)
        self._flat(b, out[:, :width - DICE_UNITS], on_turn)
        _dice(r, out[:, width - DICE_UNITS:])
        return out

    def afterstates(self, boards: np.ndarray) -> np.ndarray:
        """Encodings (n, *afterstate_shape) float32 of afterstates (n, 2,
        25) given as their next mover sees them (on roll, no dice)."""
        b = np.ascontiguousarray(boards, dtype=np.uint8)
        n = len(b)
        if self.name == "tesauro":
            return _tesauro.tesauro_inputs(b) if n else np.zeros((0, 198), dtype=np.float32)
        if self.name == "board":
            out = np.empty((n, CHECKER_PLANES, PLACES), dtype=np.float32)
            _env.board_tensors(b, np.zeros((0, 2), dtype=np.uint8), out, True)
            return out
        out = np.empty((n, self.afterstate_shape[0]), dtype=np.float32)
        self._flat(b, out, True)
        return out

    def _flat(self, b: np.ndarray, out: np.ndarray, on_turn: bool) -> None:
        # The net and raw encodings without dice, into out (n, afterstate width).
        n = len(b)
        if self.name == "raw":
            out[:, :50] = b.reshape(n, 50)
            out[:, 50] = float(on_turn)
            return
        if n == 0:
            return
        inputs, classes = _net.encode_boards(b)
        # The bear-off tables answer these (and finished games): the network
        # has no inputs for them, so they get the raw units alone.
        tabled = np.flatnonzero(classes < 2)
        if len(tabled):
            raw = np.zeros((len(tabled), NET_INPUTS), dtype=np.float32)
            _env.net_raw_units(np.ascontiguousarray(b[tabled]), raw)
            inputs[tabled] = raw
        out[:, :NET_INPUTS] = inputs
        out[:, NET_INPUTS:NET_INPUTS + NET_CLASSES] = 0.0
        out[np.arange(n), NET_INPUTS + classes.astype(np.int64)] = 1.0
        out[:, NET_INPUTS + NET_CLASSES] = float(on_turn)


_ENCODINGS = {
    "tesauro": Encoding("tesauro", (210,), (198,), 7.5),
    "net": Encoding("net", (NET_INPUTS + NET_CLASSES + 1 + DICE_UNITS,), (NET_INPUTS + NET_CLASSES + 1,), 7.5),
    "board": Encoding("board", (BOARD_PLANES, PLACES), (CHECKER_PLANES, PLACES), 7.5),
    "raw": Encoding("raw", (51 + DICE_UNITS,), (51,), 15.0),
}


def encoding(name: str) -> Encoding:
    """The :class:`Encoding` called ``name`` (one of ``OBSERVATIONS``).

    >>> encoding("net").state_shape, encoding("tesauro").afterstate_shape
    ((266,), (198,))
    """
    return _ENCODINGS[one_of("observation", name, OBSERVATIONS)]


def pad_afterstates(encoded: np.ndarray, offsets: np.ndarray, width: int, out: np.ndarray | None = None):
    """Games' afterstate encodings in CSR layout (``encoded[offsets[i]:
    offsets[i + 1]]`` game ``i``'s) padded to ``width`` plays: (n, width,
    *shape) float32, zero past each game's plays; plays past ``width`` are
    left out.  Returns the padded array and the mask (n, width) int8.

    >>> enc = np.arange(3, dtype=np.float32)[:, None]
    >>> x, m = pad_afterstates(enc, np.array([0, 2, 3]), 3)
    >>> x[..., 0].tolist(), m.tolist()
    ([[0.0, 1.0, 0.0], [2.0, 0.0, 0.0]], [[1, 1, 0], [1, 0, 0]])
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    n = len(offsets) - 1
    counts = np.diff(offsets)
    if out is None:
        out = np.zeros((n, width) + encoded.shape[1:], dtype=np.float32)
    else:
        out[...] = 0
    game = np.repeat(np.arange(n), counts)
    slot = np.arange(int(offsets[-1])) - offsets[game]
    keep = slot < width
    out[game[keep], slot[keep]] = encoded[keep] if not keep.all() else encoded
    mask = (np.arange(width)[None, :] < counts[:, None]).astype(np.int8)
    return out, mask
