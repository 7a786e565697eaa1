"""A player that errs on purpose: the shipped network's 0-ply equity of
every play, with Gaussian noise added before the best is taken (the
handicap gnubg's weaker levels use).  Spec ``noisy:SIGMA``, SIGMA the
noise's standard deviation in points of cubeless equity (0 < SIGMA <= 2).

The noise is deterministic: it is drawn from a hash of the player's seed
and the position each play leaves, so the same position and roll always
get the same choice (a replayed game, a taken-back turn or the two halves
of a duplicate-dice duel all meet the same player), and the same seed
gives the same player.  Cube decisions and answers to resignations are the
network's own, without noise.

>>> import backgammon as bg
>>> p = bg.player("noisy:0.3", seed=7)
>>> p.spec
'noisy:0.3'
>>> p.choose(bg.Position.initial(), "31") == bg.player("noisy:0.3", seed=7).choose(bg.Position.initial(), "31")
True
"""
from __future__ import annotations

import numpy as np

from .batch import legal_positions
from .dice import generator
from .evaluation import equity
from .evaluator import chances
from .players import EvaluatorPlayer, register_player

__all__ = ["NoisyPlayer"]

_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_OTHER = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every bit of the key stirs every bit out."""
    x = x ^ (x >> np.uint64(30))
    x = x * _MIX1
    x = x ^ (x >> np.uint64(27))
    x = x * _MIX2
    return x ^ (x >> np.uint64(31))


class NoisyPlayer(EvaluatorPlayer):
    """The network's 0-ply choice with deterministic noise of standard
    deviation ``sigma`` (equity) on each play's equity; ``seed`` picks the
    noise.

    >>> import backgammon as bg
    >>> str(NoisyPlayer(0.0001).choose(bg.Position.initial(), "31"))   # almost no noise: the network's play
    '8/5 6/5'
    """

    def __init__(self, sigma: float, seed=None):
        if isinstance(sigma, bool) or not isinstance(sigma, (int, float)) or not 0 < sigma <= 2:
            raise ValueError(f"sigma must be a number of points of equity above 0, at most 2, not {sigma!r}")
        super().__init__(None, 0)
        self.sigma = float(sigma)
        self.spec = f"noisy:{sigma:g}"
        rng = generator(0 if seed is None else seed)
        with np.errstate(over="ignore"):
            self._weights = rng.integers(0, 2 ** 63, size=50, dtype=np.uint64) * np.uint64(2) + np.uint64(1)

    def noise(self, children: np.ndarray) -> np.ndarray:
        """Standard normal noise (m,) of plays given by their results (m, 2, 25)."""
        keys = np.ascontiguousarray(children, dtype=np.uint8).reshape(len(children), 50).astype(np.uint64)
        with np.errstate(over="ignore"):
            h = _mix((keys * self._weights).sum(axis=1, dtype=np.uint64))
            u1 = ((h >> np.uint64(11)).astype(np.float64) + 0.5) / 2.0 ** 53
            u2 = (_mix(h ^ _OTHER) >> np.uint64(11)).astype(np.float64) / 2.0 ** 53
        return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)

    def choose_indices(self, boards, rolls):
        offsets, kids = legal_positions(boards, rolls, validate=False, threads=1)
        out = np.zeros(len(boards), dtype=np.int64)
        if not len(kids):
            return out
        # The results are seen by the next mover: its equity, negated, is the mover's.
        mine = -equity(chances(self.evaluator, kids)) + self.sigma * self.noise(kids)
        for i in range(len(boards)):
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            if hi - lo > 1:
                out[i] = int(np.argmax(mine[lo:hi]))
        return out

    def kernel_policy(self):
        return None


def _noisy(arg, seed):
    try:
        sigma = float(arg) if arg is not None else None
    except ValueError:
        sigma = None
    if sigma is None:
        raise ValueError(f"spec must be noisy:SIGMA with SIGMA a number such as 0.1, not {'noisy:' + str(arg)!r}")
    return NoisyPlayer(sigma, seed)


register_player("noisy", _noisy)
