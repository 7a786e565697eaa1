"""Rollouts: a position's chances, its cubeful equity, the best of several
plays or the right cube action, estimated by playing it out many times.

>>> r = rollout(games=1296, policy="pubeval", seed=1, workers=1,
...             variance_reduction=False)
>>> r.games, round(r.win, 2)
(1296, 0.52)

Every game's dice are a function of the rollout's seed, the game's number
and the ply, and the first two rolls are stratified over game numbers: so
a seed gives the same result whatever the number of workers or the
executor (local processes by default; any ``concurrent.futures.Executor``,
such as a Dask client's ``get_executor()``), and rollouts of several
candidates with one seed play the same dice (``rollout_plays``,
``rollout_cube``).  A difference's standard error is that of the per-game
differences: below sqrt(se_a^2 + se_b^2) as far as the candidates' games
stay alike: for no double against double/take (one position) about 0.55
of it, for two plays of a roll (whose games soon part) about 0.95-0.99
(benchmarks/difference_se.py).

Cubeless games with kernel policies (random, pubeval, net) run in the
Cython loop without the GIL; any other player, and every cubeful rollout
(each side's cube decisions are its player's ``cube_action``), plays in
lockstep, one ``choose_indices`` call per ply for all games of a chunk.
Variance reduction (gnubg's) subtracts each roll's luck, the value after
the best play of the roll thrown minus its mean over the 21 rolls, so the
estimate stays unbiased; both standard errors are reported.  Ctrl-C stops
a rollout at once: pending chunks are cancelled, local workers end, and
:class:`RolloutInterrupted` (a ``KeyboardInterrupt``) carries the games
finished so far.

The package, one job a module: :mod:`.api` the public calls,
:mod:`.plan` the options, players and chunks, :mod:`.loop` what a chunk
plays (the kernels' game loop, or the package's one lockstep loop,
:mod:`backgammon.lockstep`), :mod:`.cubeful` the cube in that loop, and
:mod:`.statistics` the results.
"""
from __future__ import annotations

import numpy as np

from .. import bearoff
from ..lockstep import VectorGames
from ..pubeval import pubeval, tesauro_inputs
from .api import CubeRollout, PlayRollout, rollout, rollout_cube, rollout_plays
from .loop import LANES
from .plan import CHUNK, RolloutInterrupted, RolloutSettings
from .statistics import RolloutResult

__all__ = ["rollout", "rollout_plays", "rollout_cube", "RolloutResult", "RolloutInterrupted", "RolloutSettings",
           "PlayRollout", "CubeRollout", "VectorGames", "pubeval", "tesauro_inputs", "race_chances", "CHUNK",
           "LANES"]


# pubeval, tesauro_inputs, VectorGames and race_chances have homes of their
# own (pubeval, lockstep, bearoff); they are named here too because the
# rollouts module has always offered them to rollout users.
def race_chances(boards) -> np.ndarray:
    """The bear-off race chances of (n, 2, 25) boards: the same as
    :func:`backgammon.bearoff.race_chances`.

    Examples
    --------
    >>> import backgammon as bg
    >>> race_chances(bg.Position.from_id("AQAAAAAAAAAAAA").array[None]).tolist()
    [[1.0, 0.0, 0.0]]
    """
    return bearoff.race_chances(boards)
