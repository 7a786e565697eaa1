"""Rollout statistics: the per-game arrays of a rollout merged over its
chunks, the means and standard errors of its :class:`RolloutResult`, and
each game's value (cubeless equity, cubeful equity or normalised match
equity), variance-reduced when asked."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .._validate import flag, floats, instance, integer, optional_integer, number
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
    """The standard error of the mean of ``x`` (0 for fewer than two).

    >>> round(standard_error(np.array([0.0, 1.0, 0.0, 1.0])), 6)
    0.288675
    """
    if not (isinstance(x, np.ndarray) and x.ndim == 1 and x.dtype.kind == "f"):
        x = floats("x", x, shape=(None,))
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0


def normalised(state: MatchState, mwc):
    """Player 0's match winning chances as normalised match equity: -1
    losing a single game at the cube, +1 winning one."""
    instance("state", state, MatchState, "backgammon.MatchState")
    if not state.match_length:
        raise ValueError("state must be at a match score (match_length > 0): money play has no match equity")
    if not isinstance(mwc, np.ndarray):
        mwc = floats("mwc", mwc)
    return MatchValues.of_state(state, side=0).normalised(mwc, state.cube_value)


def _part(name: str, part, cubeful: bool) -> None:
    """A start's merged per-game arrays: results and luck (n, 5), with the
    cube value and value_luck (n,)."""
    instance(name, part, dict)
    keys = ("value", "value_luck") if cubeful else ("results", "luck")
    for key in keys:
        if key not in part:
            raise ValueError(f"{name} must hold {key!r} (per-game arrays), not only {sorted(map(str, part))}")
        a = part[key]
        if not (isinstance(a, np.ndarray) and a.dtype.kind == "f"):
            raise TypeError(f"{name}[{key!r}] must be a float array, not {type(a).__name__}")
        if a.shape[1:] != (() if cubeful else (5,)) or len(a) != len(part[keys[0]]):
            raise ValueError(f"{name}[{key!r}] must have shape {'(n,)' if cubeful else '(n, 5)'}, not {a.shape}")


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
    _part("part", part, flag("cubeful", cubeful))
    flag("reduce", reduce)
    if state is not None:
        instance("state", state, MatchState, "backgammon.MatchState")
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
    _part("part", part, False)
    if "value" in part:
        _part("part", part, True)
    number("seconds", seconds, low=0)
    flag("reduce", reduce)
    optional_integer("truncate", truncate, low=0)
    if state is not None:
        instance("state", state, MatchState, "backgammon.MatchState")
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
    if not isinstance(parts, (list, tuple)) or not parts or \
            not all(isinstance(p, (list, tuple)) and p and isinstance(p[0], dict) for p in parts):
        raise TypeError(f"parts must be a non-empty list of chunks (lists of per-start dicts), not {parts!r:.40}")
    k = integer("k", k, low=0, high=min(len(p) for p in parts) - 1)
    keys = parts[0][k].keys()
    for p in parts:
        if not isinstance(p[k], dict) or p[k].keys() != keys:
            raise ValueError(f"parts: every chunk's start {k} must hold the same arrays {sorted(keys)}")
        for name in keys:
            if not isinstance(p[k][name], np.ndarray):
                raise TypeError(f"parts: {name!r} must be a numpy array, not {type(p[k][name]).__name__}")
    return {name: np.concatenate([p[k][name] for p in parts]) for name in keys}
