"""The public rollouts: :func:`rollout` (a position's chances and, with
the cube, its cubeful equity), :func:`rollout_plays` (candidate plays with
the same dice) and :func:`rollout_cube` (no double against double/take)."""
from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validate import instance, integer
from ..cube import proper_action
from ..dice import to_dice
from ..doubling import beavers_allowed, may_double
from ..cube_search import rank_plays
from ..evaluator import as_evaluator, rank, ranking
from ..matchid import MatchState, state_and_rules
from ..position import Position
from ..rules import Rules
from ..scoring import MatchValues
from .loop import Start
from .plan import CHUNK, checked_position, checked_state, plan
from .statistics import RolloutResult, game_values, merge, standard_error

__all__ = ["rollout", "rollout_plays", "rollout_cube", "PlayRollout", "CubeRollout", "as_player0"]


def rollout(position: Position | None = None, *, games: int = 1296, policy="net", cube_policy=None, seed=None,
            stratify: bool = True, truncate: int | None = None, bearoff: bool = False,
            variance_reduction: bool = True, cube: bool | None = None, state: MatchState | None = None,
            rules: Rules | None = None, workers: int | None = None, executor: Executor | None = None,
            progress: bool = False, scorer=None, evaluator=None, chunk_size: int = CHUNK) -> RolloutResult:
    """Play ``position`` (default: the opening, side on roll to play)
    ``games`` times and return the chances, equity and (with ``cube``)
    cubeful equity for the side on roll.

    ``policy``: who plays: a player spec (see :func:`backgammon.player`:
    "net" (the default), "net:1", "pubeval", "gnubg", a registered name,
    ...) or a Player, or a pair of them (side on roll, opponent);
    ``cube_policy`` the same for the cube decisions (default: the same
    players), so checker play and cube may use different plies.
    ``cube``: each side doubles, takes, passes and beavers as its player
    decides (``cube_action``), from ``state`` (a MatchState of player 0,
    the side on roll, and player 1: cube, owner, score, match length,
    Crawford; default money with a centred cube) under its rules
    (``MatchState.game_rules``: ``rules`` may add what a state does not
    hold, never contradict it).  ``cube`` None (the default): cubeful at a
    match score, cubeless otherwise; the result's ``cubeful`` says which ran.
    ``variance_reduction``: subtract each roll's luck (see the module).
    ``truncate=k``: stop each game after k plies and score it with the
    side to roll's evaluator at its ply; ``bearoff``: stop as soon as both
    sides bear off and take the bear-off tables' chances.  ``stratify``:
    the first roll of game i is ordered roll i mod 36 and the second
    (i // 36) mod 36.  ``workers``: local processes (default: all cores; 1
    runs here); ``executor``: any ``concurrent.futures.Executor`` instead
    (e.g. Dask's); players given as objects (not specs, and not kernel
    policies) play in this process.  ``scorer``: plays for both sides
    instead, choosing from a batch of the positions after each play of
    every game, called once per ply, with (m,) values for the side that
    played (higher is better); ``evaluator`` the same with an Evaluator
    (chances (m, 5) of the side then on roll: its 0-ply choice).  (A
    scorer given as ``evaluator``, the older name, still plays, with a
    DeprecationWarning.)
    """
    position = checked_position(position)
    state, rules, cube = _state_rules_cube(state, rules, cube)
    p = plan(games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, workers, executor,
             progress, chunk_size, cube, rules, scorer=scorer, evaluator=evaluator)
    start = Start(position.to_bytes(), True, as_player0(state) if cube else None)
    parts, seconds = p.roll([start])
    return p.summary(merge(parts, 0), seconds, start.state)


def _state_rules_cube(state, rules, cube):
    """A rollout's state (None for a cubeless one), its rules (the state's,
    ``MatchState.game_rules``) and whether it is cubeful: by default at a
    match score, never silently cubeless there."""
    if state is not None:
        instance("state", state, MatchState, "backgammon.MatchState")
    if cube is None:
        cube = state is not None and state.match_length > 0
    full, rules = state_and_rules(state, rules)
    return checked_state(full if cube else state, cube), rules, cube


def as_player0(state: MatchState | None) -> MatchState:
    """``state`` relabelled so that the side on roll is player 0."""
    assert state is not None
    if state.on_roll == 0:
        return state
    owner = None if state.cube_owner is None else 1 - state.cube_owner
    return state.replace(on_roll=0, turn=0, cube_owner=owner, score=(state.score[1], state.score[0]))


@dataclass(frozen=True)
class PlayRollout:
    """One candidate play of ``rollout_plays``: the play, its rollout (the
    mover's chances and equity), its equity and how much it loses to the
    best (``difference``, 0 for the best), and the standard error of that
    difference: that of the per-game differences over the candidates'
    shared dice, below sqrt(se_a^2 + se_b^2) only as far as their games
    stay alike (with variance reduction, hardly: 0.97 of it measured)).
    ``equity`` is cubeful when the rollout was (``cubeful``); at a match
    score it is normalised match equity, with the match winning chance in
    ``mwc``, cubeful or (asked for) cubeless."""

    play: Any
    result: RolloutResult
    equity: float
    equity_se: float
    difference: float
    difference_se: float
    mwc: float | None = None

    @property
    def cubeful(self) -> bool:
        """Whether this was a cubeful rollout (the cube in play)."""
        return self.result.cubeful

    def to_dict(self) -> dict:
        return {"play": str(self.play), "equity": self.equity, "equity_se": self.equity_se,
                "difference": self.difference, "difference_se": self.difference_se, "mwc": self.mwc,
                "cubeful": self.cubeful, "result": self.result.to_dict()}


def rollout_plays(position: Position, roll, plays=None, top: int = 5, *, games: int = 1296, policy="net",
                  cube_policy=None, seed=None, stratify: bool = True, truncate: int | None = None,
                  bearoff: bool = False, variance_reduction: bool = True, cube: bool | None = None,
                  state: MatchState | None = None, rules: Rules | None = None, ply: int = 0,
                  workers: int | None = None, executor: Executor | None = None, progress: bool = False,
                  chunk_size: int = CHUNK) -> list[PlayRollout]:
    """Roll out candidate plays of ``roll`` from ``position`` with the same
    dice for each: ``plays`` (Plays or notation; ``hint(..., rollout=...)``
    rolls out a hint's best), or else the ``top`` plays of the networks'
    ranking at ``ply`` (``evaluator.rank``; at a cube and score in ``state``
    the cubeful ranking of ``hint``).  Returns the candidates best first,
    each with its equity for the mover (cubeful with ``cube``), its
    difference from the best and the standard error of that difference.
    At a match score (``state``) the rollout is cubeful unless ``cube`` is
    False, and the candidates are ranked by match equity either way.
    Other options as in :func:`rollout`.

    >>> import backgammon as bg
    >>> ranked = rollout_plays(bg.Position.initial(), "31", top=2, games=72, seed=1, workers=1)
    >>> [str(r.play) for r in ranked][0], ranked[0].difference
    ('8/5 6/5', 0.0)
    """
    position = checked_position(position)
    dice = to_dice(roll)
    top = integer("top", top, low=1)
    legal = position.legal_plays(dice)
    state, rules, cube = _state_rules_cube(state, rules, cube)
    if plays is None:
        ply = integer("ply", ply, low=0, high=2)
        children = np.ascontiguousarray(legal.positions)
        if state is None:
            probs, depth = rank(as_evaluator(None), children, ply)
            order = ranking(probs, depth)
        else:
            _, depth, value, _ = rank_plays(as_evaluator(None), children, ply, state, rules)
            order = sorted(range(len(children)), key=lambda i: (-int(depth[i]), -value[i], i))
        candidates = [legal[i] for i in order[:top]]
    else:
        if isinstance(plays, (str, bytes)) or not hasattr(plays, "__iter__"):
            raise TypeError(f"plays must be a list of plays or notation, not {type(plays).__name__}")
        candidates = []
        for p in plays:
            text = p if isinstance(p, str) else str(instance("plays", p, type(legal[0]), "backgammon.Play"))
            candidates.append(position.parse_play(text, dice))
        if not candidates:
            raise ValueError("plays: give at least one play")
    p = plan(games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, workers, executor,
             progress, chunk_size, cube, rules)
    # After a play the opponent is on roll: it is player 0 of the start.
    after_state = None
    if cube:
        s = as_player0(state)
        owner = None if s.cube_owner is None else 1 - s.cube_owner
        after_state = s.replace(cube_owner=owner, score=(s.score[1], s.score[0]))
    starts = [Start(c.position.to_bytes(), False, after_state) for c in candidates]
    parts, seconds = p.turned().roll(starts)
    merged = [merge(parts, k) for k in range(len(starts))]
    mover_state = None if state is None else as_player0(state)      # the arrays are the mover's
    summaries = [p.summary(m, seconds, mover_state if cube else None) for m in merged]
    values = [game_values(m, p.play.reduce, cube, mover_state) for m in merged]
    means = [float(v.mean()) for v in values]
    best = int(np.argmax(means))
    match = None
    if mover_state is not None and mover_state.match_length:
        match = (MatchValues.of_state(mover_state, side=0), mover_state.cube_value)
    out = []
    for k, play in enumerate(candidates):
        diff = values[k] - values[best]
        mwc = None
        if match is not None:
            r = summaries[k]
            chances = np.array([[r.win, r.win_gammon, r.win_backgammon, r.lose_gammon, r.lose_backgammon]])
            mwc = r.mwc if cube else float(match[0].mwc(chances, match[1])[0])
        out.append(PlayRollout(play, summaries[k], means[k], standard_error(values[k]), float(diff.mean()),
                               standard_error(diff), mwc))
    out.sort(key=lambda r: -r.difference)
    return out


@dataclass(frozen=True)
class CubeRollout:
    """``rollout_cube``'s answer: the equities of no double, double/take
    and double/pass for the side on roll (money: per unit of the current
    cube; match: normalised match equity, with the winning chances in
    ``mwc``), their standard errors, the right action and what each other
    action loses (``errors``), and the two rollouts."""

    action: str
    take: str
    no_double: float
    double_take: float
    double_pass: float
    no_double_se: float
    double_take_se: float
    difference_se: float
    errors: dict
    mwc: tuple | None
    no_double_rollout: RolloutResult
    double_take_rollout: RolloutResult

    def to_dict(self) -> dict:
        d = {k: getattr(self, k) for k in ("action", "take", "no_double", "double_take", "double_pass",
                                           "no_double_se", "double_take_se", "difference_se", "errors", "mwc")}
        d["no_double_rollout"] = self.no_double_rollout.to_dict()
        d["double_take_rollout"] = self.double_take_rollout.to_dict()
        return d


def rollout_cube(position: Position, state: MatchState | None = None, *, games: int = 1296, policy="net",
                 cube_policy=None, seed=None, stratify: bool = True, truncate: int | None = None,
                 bearoff: bool = False, variance_reduction: bool = True, rules: Rules | None = None,
                 workers: int | None = None, executor: Executor | None = None, progress: bool = False,
                 chunk_size: int = CHUNK) -> CubeRollout:
    """Roll out the cube decision of the side on roll of ``position``
    (before it rolls) in ``state`` (default money, cube centred): no double
    (it may not double this turn; play goes on cubefully), double/take (the
    cube doubled, owned by the other side) with the same dice, and
    double/pass (exact); returns the equities, the right action (named as
    ``cube_decision`` names it) and what the others lose.

    >>> import backgammon as bg
    >>> r = rollout_cube(bg.Position.initial(), games=36, seed=1, workers=1)
    >>> r.take, r.double_pass, r.no_double_rollout.games    # 36 games: too few to name the action
    ('take', 1.0, 36)
    """
    position = checked_position(position)
    if state is not None:
        instance("state", state, MatchState, "backgammon.MatchState")
    state, rules = state_and_rules(state, rules)
    state = as_player0(state)
    p = plan(games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, workers, executor,
             progress, chunk_size, True, rules)
    v = state.cube_value
    verdict = may_double(state, rules)
    if not verdict:
        raise ValueError(f"state: {verdict.reason}")
    taken = state.replace(cube_value=2 * v, cube_owner=1)
    starts = [Start(position.to_bytes(), True, state, no_double_first=True),
              Start(position.to_bytes(), True, taken, unit=v)]
    parts, seconds = p.roll(starts)
    nd_part, dt_part = merge(parts, 0), merge(parts, 1)
    nd_sum = p.summary(nd_part, seconds, state)
    dt_sum = p.summary(dt_part, seconds, state)
    nd_e = game_values(nd_part, p.play.reduce, True, state)
    dt_e = game_values(dt_part, p.play.reduce, True, state)
    mwc = None
    dp = 1.0                       # money: per unit of the current cube
    if state.match_length:
        values = MatchValues.of_state(state, side=0)
        mwc = (float(nd_sum.mwc or 0.0), float(dt_sum.mwc or 0.0), values.after(v, 0))
        dp = values.normalised(mwc[2], v)
    nd, dt = float(nd_e.mean()), float(dt_e.mean())
    action, take = proper_action(nd, dt, dp, beavers_allowed(not state.match_length, rules))
    best = max(nd, min(dt, dp))
    errors = {"no double": best - nd, "double, take": best - min(dt, dp) if dt <= dp else best - dp,
              "double, pass": best - dp if dp <= dt else best - min(dt, dp)}
    errors = {name: max(0.0, e) for name, e in errors.items()}
    return CubeRollout(action, take, nd, dt, dp, standard_error(nd_e), standard_error(dt_e),
                       standard_error(dt_e - nd_e), errors, mwc, nd_sum, dt_sum)
