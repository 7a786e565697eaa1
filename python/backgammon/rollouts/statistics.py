"""Rollout statistics: the per-game arrays of a rollout merged over its
chunks, the means and standard errors of its :class:`RolloutResult`, and
each game's value (cubeless equity, cubeful equity or normalised match
equity), variance-reduced when asked."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..matchid import MatchState
from ..scoring import MatchValues, equity

__all__ = ["RolloutResult", "summary", "merge", "game_values", "standard_error", "normalised"]


@dataclass(frozen=True)
class RolloutResult:
    """What a rollout found, for the side on roll of the rolled-out position.

    Attributes
    ----------
    games : int
        Games played.
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon : float
        The chances (gammons include backgammons); ``lose`` is
        ``1 - win``.
    equity : float
        The cubeless equity (variance-reduced when
        ``variance_reduction``).
    win_se, win_gammon_se, win_backgammon_se, lose_gammon_se, lose_backgammon_se, equity_se : float
        Their standard errors.
    seconds : float
        Time taken; ``games_per_second`` the speed.
    variance_reduction : bool
        Whether each roll's luck was subtracted.
    raw_equity, raw_equity_se : float
        The cubeless equity and its standard error without variance
        reduction.
    truncate : int or None
        The plies each game was cut after, if it was.
    cubeful : bool
        A rollout with the cube.
    cubeful_equity, cubeful_equity_se : float or None
        With the cube: in money play the equity per unit of the starting
        cube; in a match the normalised match equity (-1: losing a single
        game at the starting cube, +1: winning one).
    raw_cubeful_equity_se : float or None
        Its standard error without variance reduction.
    mwc, mwc_se : float or None
        In a match, the match winning chance and its standard error.
    passes : int
        Games whose value a passed double settled; such a game plays on
        (cubeless) for its chances, so a cubeful rollout's chances are
        those of playing on, as with the cube never turned.

    Examples
    --------
    >>> import backgammon as bg
    >>> r = bg.rollout(games=36, policy="pubeval", seed=1, workers=1)
    >>> r.games, round(r.win + r.lose, 6), r.cubeful, r.to_dict()["games"]
    (36, 1.0, False, 36)
    """

    games: int
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    equity: float
    win_se: float
    win_gammon_se: float
    win_backgammon_se: float
    lose_gammon_se: float
    lose_backgammon_se: float
    equity_se: float
    seconds: float
    variance_reduction: bool = False
    raw_equity: float = math.nan
    raw_equity_se: float = math.nan
    truncate: int | None = None
    cubeful: bool = False
    cubeful_equity: float | None = None
    cubeful_equity_se: float | None = None
    raw_cubeful_equity_se: float | None = None
    mwc: float | None = None
    mwc_se: float | None = None
    passes: int | None = None

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_dict(self) -> dict:
        d = asdict(self)
        if d["passes"] is None:
            del d["passes"]          # cubeless: no cube to pass
        d["lose"] = self.lose
        d["games_per_second"] = self.games_per_second
        return d


def standard_error(x: np.ndarray) -> float:
    """The standard error of the mean of ``x`` (0 for fewer than two)."""
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0


def normalised(state: MatchState, mwc):
    """Player 0's match winning chances as normalised match equity: -1
    losing a single game at the cube, +1 winning one."""
    return MatchValues.of_state(state, side=0).normalised(mwc, state.cube_value)


def _corrected(part: dict, reduce: bool, cubeful: bool) -> np.ndarray:
    # Each game's results (or cubeful values) less its luck when variance is reduced.
    if cubeful:
        return part["value"] - part["value_luck"] if reduce else part["value"]
    return part["results"] - part["luck"] if reduce else part["results"]


def game_values(part: dict, reduce: bool, cubeful: bool, state: MatchState | None) -> np.ndarray:
    """Each game's value for "us", variance-reduced when asked: the
    cubeless equity, or cubefully the money equity per starting cube or
    the normalised match equity (``state``: player 0 is "us").  A cubeless
    rollout at a match score is valued by the match winning chances of its
    outcomes at the state's cube, normalised: gammons count as the score
    says (nothing at double match point), never by money equity."""
    if not cubeful:
        chances = _corrected(part, reduce, False)
        if state is not None and state.match_length:
            return normalised(state, MatchValues.of_state(state, side=0).mwc(chances, state.cube_value))
        return equity(chances)
    value = _corrected(part, reduce, True)
    return normalised(state, value) if state is not None and state.match_length else value


def summary(part: dict, seconds: float, reduce: bool, truncate: int | None, state: MatchState | None):
    """The :class:`RolloutResult` of one start's games (``part``, merged),
    ``state`` the cube state of a cubeful rollout (player 0 is "us")."""
    results = part["results"]
    games = len(results)
    corrected = _corrected(part, reduce, False)
    eq = equity(corrected)
    raw_eq = equity(results)
    mean = corrected.mean(axis=0)
    se = [standard_error(corrected[:, k]) for k in range(5)]
    extra: dict[str, Any] = dict(variance_reduction=reduce, raw_equity=float(raw_eq.mean()),
                                 raw_equity_se=standard_error(raw_eq), truncate=truncate)
    if "value" in part:
        value = _corrected(part, reduce, True)
        extra.update(cubeful=True, raw_cubeful_equity_se=None,
                     passes=int(part["passed"].sum()) if "passed" in part else None)
        if state is not None and state.match_length:
            norm = normalised(state, value)
            extra.update(mwc=float(value.mean()), mwc_se=standard_error(value), cubeful_equity=float(norm.mean()),
                         cubeful_equity_se=standard_error(norm),
                         raw_cubeful_equity_se=standard_error(normalised(state, part["value"])))
        else:
            extra.update(cubeful_equity=float(value.mean()), cubeful_equity_se=standard_error(value),
                         raw_cubeful_equity_se=standard_error(part["value"]))
    names = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    fields: dict[str, Any] = {name: float(m) for name, m in zip(names, mean)}
    fields.update({f"{name}_se": e for name, e in zip(names, se)})
    return RolloutResult(games=games, equity=float(eq.mean()), equity_se=standard_error(eq), seconds=seconds,
                         **fields, **extra)


def merge(parts: list[list[dict]], k: int) -> dict:
    """Start ``k``'s per-game arrays of every chunk, in chunk order."""
    keys = parts[0][k].keys()
    return {name: np.concatenate([p[k][name] for p in parts]) for name in keys}
