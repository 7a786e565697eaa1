"""Rollouts: a position's chances, its cubeful equity, the best of several
plays or the right cube action, estimated by playing it out many times.

>>> r = rollout(games=1296, policy="pubeval", seed=1, workers=1, variance_reduction=False)
>>> r.games, round(r.win, 2)
(1296, 0.52)

Every game's dice are a function of the rollout's seed, the game's number
and the ply, and the first two rolls are stratified over game numbers: so
a seed gives the same result whatever the number of workers or the
executor (local processes by default; any ``concurrent.futures.Executor``,
such as a Dask client's ``get_executor()``), and rollouts of several
candidates with one seed play the same dice (``rollout_plays``,
``rollout_cube``): their differences are far less noisy than each result.

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
"""
from __future__ import annotations

import math
import time
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from . import _choice, _rollout, bearoff
from ._parallel import Interrupted, run_chunks
from ._validate import flag, instance, integer, optional_integer
from .dice import seed_sequence, to_dice
from .doubling import beavers_allowed, may_double, may_double_lanes, may_redouble
from .lockstep import MAX_PLIES, VectorGames
from .matchid import MatchState
from .players import Player, player
from .position import Position
from .pubeval import load_weights, pubeval, tesauro_inputs
from .rules import Rules
from .scoring import MatchValues, cube_turned, equity, flip, flip_change, gammons_count, money_value

__all__ = ["rollout", "rollout_plays", "rollout_cube", "RolloutResult", "RolloutInterrupted", "RolloutSettings",
           "PlayRollout", "CubeRollout", "VectorGames", "POLICIES", "pubeval", "tesauro_inputs", "race_chances",
           "CHUNK"]

#: Policies of the game loop and their kernel codes.
POLICIES = {"random": _choice.Policy.POLICY_RANDOM, "pubeval": _choice.Policy.POLICY_PUBEVAL,
            "net": _choice.Policy.POLICY_NET}
CHUNK = 1296    # games per chunk: one full cycle of the first two stratified rolls
#: Games a lockstep chunk plays at once.
LANES = 1024


def race_chances(boards) -> np.ndarray:
    """The bear-off race chances of (n, 2, 25) boards: the same as
    :func:`backgammon.bearoff.race_chances` (kept here for old code)."""
    return bearoff.race_chances(boards)


# -- results ----------------------------------------------------------------------------

@dataclass(frozen=True)
class RolloutResult:
    """Chances of the side on roll in the rolled-out position (gammons
    include backgammons), the cubeless equity and their standard errors
    (variance-reduced when ``variance_reduction``; ``raw_equity`` and
    ``raw_equity_se`` are the same without it), and the speed.

    Cubeful rollouts (``cubeful``) add ``cubeful_equity`` and its standard
    error: in money play the equity per unit of the starting cube; in a
    match the normalised match equity (-1: losing a single game at the
    starting cube, +1: winning one), with the match winning chance in
    ``mwc`` and ``mwc_se``."""

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

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_dict(self) -> dict:
        d = asdict(self)
        d["lose"] = self.lose
        d["games_per_second"] = self.games_per_second
        return d


class RolloutInterrupted(KeyboardInterrupt):
    """Ctrl-C during a rollout: ``games`` finished before it and their
    ``partial`` result (None when no chunk had finished)."""

    def __init__(self, games: int, partial=None):
        super().__init__(f"interrupted after {games:,} games")
        self.games = games
        self.partial = partial


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out, for ``rollout_plays``, ``rollout_cube`` and
    ``hint(..., rollout=settings)``: the keyword arguments of
    :func:`rollout` (games, policy, cube_policy, seed, stratify, truncate,
    bearoff, variance_reduction, workers, executor, progress, chunk_size).

    >>> RolloutSettings(games=648).games
    648
    """

    games: int = 1296
    policy: Any = "net"
    cube_policy: Any = None
    seed: Any = None
    stratify: bool = True
    truncate: int | None = None
    bearoff: bool = False
    variance_reduction: bool = True
    workers: int | None = None
    executor: Executor | None = None
    progress: bool = False
    chunk_size: int = CHUNK

    def options(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


# -- what one chunk plays ---------------------------------------------------------------------

@dataclass(frozen=True)
class _Start:
    """One position to roll out: its board (side on roll in row 1),
    whether "us" (the side results are for) is the side on roll, the cube
    state (MatchState of players 0 = side on roll, 1 = the other), and
    whether the side on roll may not double on its first turn; money
    values are given per ``unit`` cubes."""

    board: bytes
    us_on_roll: bool = True
    state: MatchState | None = None
    no_double_first: bool = False
    unit: int = 0              # money values are per this cube (0: the state's)


@dataclass(frozen=True)
class _Task:
    starts: tuple
    first: int
    n: int
    seed: Any
    sides: tuple               # (policy, given) for the side on roll at a start and the other
    cube_sides: tuple | None   # the same for cube decisions; None: cubeless
    rules: Rules
    stratify: bool
    truncate: int | None
    bearoff: bool
    reduce: bool


def _key(seed: np.random.SeedSequence) -> int:
    return int(seed.generate_state(1, np.uint64)[0])


def _run_chunk(task: _Task) -> list[dict]:
    """Every start of a chunk, game for game with the same dice; module
    level so that worker processes can run it.  For each start: per-game
    results (n, 5) and luck (n, 5) for "us", and with the cube the
    cubeful value (n,) and its luck (n,)."""
    key = _key(task.seed)
    if task.cube_sides is None and all(policy is not None for policy, _ in task.sides):
        return [_kernel(task, s, key) for s in task.starts]
    seeds = task.seed.spawn(4)
    made = [player(given, seed=s) for (_, given), s in zip(task.sides, seeds[:2])]
    cube = None
    if task.cube_sides is not None:
        # The checker players decide the cube too unless other players are given.
        cube = [m if cube_given == given else player(cube_given, seed=s)
                for (_, cube_given), (_, given), m, s in zip(task.cube_sides, task.sides, made, seeds[2:])]
    try:
        return [_Lockstep(task, s, key, made, cube).run() for s in task.starts]
    finally:
        for (_, given), p in zip(task.sides + (task.cube_sides or ()), made + (cube or [])):
            if p is not given:
                p.close()


def _kernel(task: _Task, start: _Start, key: int) -> dict:
    load_weights()
    (code0, nets0), (code1, nets1) = (policy for policy, _ in task.sides)
    nets = nets0 if nets0 is not None else nets1
    if nets is None and (_choice.Policy.POLICY_NET in (code0, code1) or task.reduce or task.truncate is not None):
        from .network import default
        nets = default()
    tables = bearoff.kernel_tables() if task.bearoff else {}
    results, luck = _rollout.play_games(np.frombuffer(start.board, dtype=np.uint8), task.first, task.n, key,
                                        code0, code1, task.stratify, -1 if task.truncate is None else task.truncate,
                                        task.bearoff, task.reduce, nets=nets, **tables)
    if not start.us_on_roll:
        results, luck = flip(results), flip_change(luck)
    return {"results": results, "luck": luck}


class _Lockstep:
    """The games of one start of a chunk in lockstep: any players, the
    cube, variance reduction, truncation."""

    def __init__(self, task: _Task, start: _Start, key: int, players, cube_players):
        self.task, self.start, self.key = task, start, key
        self.players, self.cube_players = players, cube_players
        self.board0 = np.frombuffer(start.board, dtype=np.uint8).reshape(2, 25)
        self.state0 = start.state if start.state is not None else MatchState()
        self.unit = start.unit or self.state0.cube_value
        # Match winning chances of player 0 (the side on roll at the start).
        self.values = None
        if self.cube_players is not None and self.state0.match_length:
            self.values = MatchValues.of_state(self.state0, side=0)

    # -- the cube ---------------------------------------------------------------------
    def _value(self, chances: np.ndarray, cube: np.ndarray, turned: np.ndarray) -> np.ndarray:
        """The cubeful value for player 0 of outcome chances (player 0's,
        (m, 5)) at these cubes: money points per unit of the starting cube
        (Jacoby: gammons single while the cube is unturned); match winning
        chances in a match."""
        if self.values is None:
            gammons = gammons_count(self.task.rules, not self.state0.match_length, turned)
            return money_value(chances, gammons) * cube / self.unit
        return self.values.mwc(chances, cube)

    def _state(self, side: int, cube: int, owner: int) -> MatchState:
        s = self.state0
        return s.replace(cube_value=cube, cube_owner=None if owner < 0 else owner, on_roll=side, turn=side,
                         double_offered=False, resignation=0, dice=(0, 0))

    # -- the games --------------------------------------------------------------------
    def run(self) -> dict:
        from .batch import legal_positions
        t, n = self.task, self.task.n
        lanes = min(n, LANES)
        boards = np.repeat(self.board0[None], lanes, axis=0)
        turn = np.zeros(lanes, dtype=np.int8)              # 0: the side on roll at the start
        ply = np.zeros(lanes, dtype=np.int64)
        index = np.arange(t.first, t.first + lanes, dtype=np.int64)
        live = np.ones(lanes, dtype=bool)
        cubeful = self.cube_players is not None
        cube = np.full(lanes, self.state0.cube_value, dtype=np.int64)
        owner = np.full(lanes, -1 if self.state0.cube_owner is None else self.state0.cube_owner, dtype=np.int64)
        turned = np.full(lanes, cube_turned(self.state0))
        acc = np.zeros((lanes, 5))
        vacc = np.zeros(lanes)
        results: np.ndarray = np.zeros((n, 5))
        luck: np.ndarray = np.zeros((n, 5))
        value: np.ndarray = np.zeros(n)
        vluck: np.ndarray = np.zeros(n)
        tables = bearoff.kernel_tables() if t.bearoff else {}
        nets = None
        if t.reduce:
            from .network import default
            nets = default()
        started = lanes

        def finish(lanes_done, res, val):
            nonlocal started
            for k, lane in enumerate(lanes_done):
                g = int(index[lane]) - t.first
                results[g] = res[k]
                luck[g] = acc[lane]
                if cubeful:
                    value[g] = val[k]
                    vluck[g] = vacc[lane]
                if started < n:                 # the lane starts the next game
                    boards[lane] = self.board0
                    turn[lane], ply[lane] = 0, 0
                    index[lane] = t.first + started
                    cube[lane] = self.state0.cube_value
                    owner[lane] = -1 if self.state0.cube_owner is None else self.state0.cube_owner
                    turned[lane] = cube_turned(self.state0)
                    acc[lane], vacc[lane] = 0.0, 0.0
                    started += 1
                else:
                    live[lane] = False

        while live.any():
            rows = np.flatnonzero(live)
            if cubeful:
                self._cube_turns(rows, boards, turn, ply, cube, owner, turned, finish)
                rows = np.flatnonzero(live)
                if not len(rows):
                    break
            if t.truncate is not None:
                cut = rows[ply[rows] >= t.truncate]
                if len(cut):
                    res, val = self._truncated(cut, boards, turn, cube, owner, turned)
                    finish(cut, res, val)
                    rows = np.flatnonzero(live)
                    if not len(rows):
                        break
            rolls = _rollout.lockstep_rolls(index[rows], ply[rows], t.stratify, self.key)
            here = np.ascontiguousarray(boards[rows])
            if t.reduce:
                assert nets is not None
                step = _rollout.lockstep_luck(nets, here, rolls, turn[rows])
                acc[rows] += step
                if cubeful:
                    vacc[rows] += self._value(step + (0.5, 0, 0, 0, 0), cube[rows], turned[rows]) - \
                        self._value(np.tile((0.5, 0, 0, 0, 0), (len(rows), 1)), cube[rows], turned[rows])
            choice = np.zeros(len(rows), dtype=np.int64)
            for side in (0, 1):
                mine = np.flatnonzero(turn[rows] == side)
                if len(mine):
                    choice[mine] = self.players[side].choose_indices(here[mine], rolls[mine])
            offsets, children = legal_positions(here, rolls, validate=False, threads=1)
            counts = np.diff(offsets)
            if (choice < 0).any() or (choice >= counts).any():
                raise RuntimeError("a player chose a play index outside its legal plays")
            chosen = np.ascontiguousarray(children[offsets[:-1] + choice])
            ply[rows] += 1
            ended, res = _rollout.lockstep_settle(chosen, turn[rows], ply[rows], 0 if t.bearoff else -1, **tables)
            boards[rows] = chosen
            turn[rows] ^= 1
            if ended.any():
                done = rows[ended]
                finish(done, res[ended], self._value(res[ended], cube[done], turned[done]) if cubeful else None)
        if not self.start.us_on_roll:
            results, luck = flip(results), flip_change(luck)
            if cubeful:
                value = 1.0 - value if self.values is not None else -value
                vluck = -vluck
        out = {"results": results, "luck": luck}
        if cubeful:
            out["value"], out["value_luck"] = value, vluck
        return out

    def _cube_turns(self, rows, boards, turn, ply, cube, owner, turned, finish) -> None:
        """Each side to roll that may double asks its player; a double is
        answered by the other side's player (take, pass or beaver)."""
        rules = self.task.rules
        dropped, drop_value = [], []
        may = may_double_lanes(turn[rows], cube[rows], owner[rows], self.state0, rules)
        if self.start.no_double_first:
            may &= ply[rows] > 0
        for lane in rows[may]:
            side, c, o = int(turn[lane]), int(cube[lane]), int(owner[lane])
            position = Position.from_bytes(boards[lane].tobytes(), validate=False)
            state = self._state(side, c, o)
            decision = self.cube_players[side].cube_action(position, state, rules)
            if not (decision.should_double and decision.can_double):
                continue
            taker = self.cube_players[1 - side]
            answer = decision.take if taker is self.cube_players[side] else \
                taker.cube_action(position, state, rules).take
            if answer == "pass":
                won = np.array([[1.0, 0, 0, 0, 0]]) if side == 0 else np.array([[0.0, 0, 0, 0, 0]])
                dropped.append(lane)
                drop_value.append((won[0], c))
                continue
            beaver = answer == "beaver" and not may_redouble("beaver", not self.state0.match_length, 0, c, 4, rules)
            cube[lane] = c * (4 if beaver else 2)
            owner[lane] = 1 - side
            turned[lane] = True
        if dropped:
            res = np.array([r for r, _ in drop_value])
            lanes = np.array(dropped)
            # A drop scores the cube before the double, single (RULES 7.3).
            val = self._value(res, np.array([c for _, c in drop_value]), np.ones(len(lanes), dtype=bool))
            finish(lanes, res, val)

    def _truncated(self, lanes, boards, turn, cube, owner, turned):
        """The value where games are cut: the side to roll's player's
        evaluator at its ply (the networks at 0-ply for players without
        one), seen by player 0; cubefully, the equity of the proper cube
        action of the side to roll."""
        from .evaluator import as_evaluator, chances
        res = np.zeros((len(lanes), 5))
        for side in (0, 1):
            mine = np.flatnonzero(turn[lanes] == side)
            if not len(mine):
                continue
            p = self.players[side]
            ev = as_evaluator(getattr(p, "evaluator", None))
            probs = chances(ev, np.ascontiguousarray(boards[lanes[mine]]), p.ply, 1)
            res[mine] = probs if side == 0 else flip(probs)
        if self.cube_players is None:
            return res, None
        val = np.zeros(len(lanes))
        for k, lane in enumerate(lanes):
            side, c, o = int(turn[lane]), int(cube[lane]), int(owner[lane])
            decider = self.cube_players[side]
            if not decider.has_cube_decisions:
                val[k] = self._value(res[k:k + 1], cube[lane:lane + 1], turned[lane:lane + 1])[0]
                continue
            position = Position.from_bytes(boards[lane].tobytes(), validate=False)
            d = decider.cube_action(position, self._state(side, c, o), self.task.rules)
            act = d.should_double and d.can_double
            if self.values is None:
                e = (min(d.double_take, d.double_pass) if act else d.no_double) * c / self.unit
                val[k] = e if side == 0 else -e
            else:
                assert d.mwc is not None
                m = min(d.mwc[1], d.mwc[2]) if act else d.mwc[0]
                val[k] = m if side == 0 else 1.0 - m
        return res, val


# -- aggregation ------------------------------------------------------------------------------

def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0


def _summary(part: dict, seconds: float, reduce: bool, truncate: int | None, state: MatchState | None):
    results = part["results"]
    games = len(results)
    corrected = results - part["luck"] if reduce else results
    eq = equity(corrected)
    raw_eq = equity(results)
    mean = corrected.mean(axis=0)
    se = [_se(corrected[:, k]) for k in range(5)]
    extra: dict[str, Any] = dict(variance_reduction=reduce, raw_equity=float(raw_eq.mean()),
                                 raw_equity_se=_se(raw_eq), truncate=truncate)
    if "value" in part:
        value = part["value"] - part["value_luck"] if reduce else part["value"]
        extra.update(cubeful=True, raw_cubeful_equity_se=None)
        if state is not None and state.match_length:
            norm = _normalised(state, value)
            extra.update(mwc=float(value.mean()), mwc_se=_se(value), cubeful_equity=float(norm.mean()),
                         cubeful_equity_se=_se(norm), raw_cubeful_equity_se=_se(_normalised(state, part["value"])))
        else:
            extra.update(cubeful_equity=float(value.mean()), cubeful_equity_se=_se(value),
                         raw_cubeful_equity_se=_se(part["value"]))
    names = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    fields: dict[str, Any] = {name: float(m) for name, m in zip(names, mean)}
    fields.update({f"{name}_se": e for name, e in zip(names, se)})
    return RolloutResult(games=games, equity=float(eq.mean()), equity_se=_se(eq), seconds=seconds,
                         **fields, **extra)


def _merge(parts: list[list[dict]], k: int) -> dict:
    """Start ``k``'s per-game arrays of every chunk, in chunk order."""
    keys = parts[0][k].keys()
    return {name: np.concatenate([p[k][name] for p in parts]) for name in keys}


# -- the public calls -------------------------------------------------------------------------

def _side(given, name: str) -> tuple:
    """How one side's player reaches a chunk: ``(policy, given)``, the game
    loop's (code, networks) when the kernel can play for it (else None), and
    the spec (the player is made where the chunk runs) or the Player."""
    made = player(given, name=name)
    policy = made.kernel_policy()
    if made is not given:
        made.close()
    return policy, given


def _pair(policy, name: str) -> tuple:
    pair = (policy, policy) if isinstance(policy, (str, Player)) else policy
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise TypeError(f"{name} must be a player spec, a Player or a pair of them, not {type(policy).__name__}")
    for p in pair:
        if not isinstance(p, (str, Player)):
            raise TypeError(f"{name} must be a player spec, a Player or a pair of them, not a pair holding "
                            f"{type(p).__name__}")
    return tuple(_side(p, name) for p in pair)


class _Scorer(Player):
    """``rollout``'s ``evaluator``: plays for both sides, choosing from the
    positions after each play of every game of a ply in one call: either
    scores (m,) for the side that played (higher is better) or an
    Evaluator's chances (m, 5) of the side then on roll (lower equity is
    better)."""

    spec = "evaluator"

    def __init__(self, fn):
        self.fn = fn

    def choose_indices(self, boards, rolls):
        from .batch import legal_positions
        offsets, children = legal_positions(boards, rolls, validate=False, threads=1)
        values = np.asarray(self.fn(children), dtype=np.float64)
        if values.shape == (len(children), 5):
            values = -equity(values)
        elif values.shape != (len(children),):
            raise ValueError(f"evaluator returned values of shape {values.shape} for {len(children)} positions; "
                             f"expected ({len(children)},) scores or ({len(children)}, 5) chances")
        if np.isnan(values).any():
            raise ValueError(f"evaluator returned NaN for position {int(np.argmax(np.isnan(values)))} of the batch")
        return _argmax_segments(values, offsets)


def _plan(games, policy, cube_policy, seed, stratify, truncate, bearoff_, variance_reduction, workers, executor,
          progress, chunk_size, evaluator, cube, rules):
    """Checked options: (sides, cube sides, rules, settings) of a rollout."""
    games = integer("games", games, low=1)
    truncate = optional_integer("truncate", truncate, low=0, high=MAX_PLIES)
    workers = optional_integer("workers", workers, low=1)
    chunk_size = integer("chunk_size", chunk_size, low=1)
    stratify = flag("stratify", stratify)
    progress = flag("progress", progress)
    bearoff_ = flag("bearoff", bearoff_)
    reduce = flag("variance_reduction", variance_reduction)
    cube = flag("cube", cube)
    rules = Rules() if rules is None else instance("rules", rules, Rules, "backgammon.Rules")
    if executor is not None:
        instance("executor", executor, Executor, "concurrent.futures.Executor")
    if evaluator is not None:
        if not callable(evaluator):
            raise TypeError(f"evaluator must be callable, not {type(evaluator).__name__}")
        if executor is not None or (workers or 1) > 1:
            raise ValueError("evaluator: an evaluator runs its lockstep games in this process, "
                             "so give no workers or executor")
        scorer = _Scorer(evaluator)
        sides = ((None, scorer), (None, scorer))
    else:
        sides = _pair(policy, "policy")
    cube_sides = None
    if cube:
        cube_sides = sides if cube_policy is None else _pair(cube_policy, "cube_policy")
    return games, sides, cube_sides, rules, dict(stratify=stratify, truncate=truncate, bearoff=bearoff_,
                                                 reduce=reduce), workers, executor, progress, chunk_size, seed


def _roll(starts, games, sides, cube_sides, rules, settings, workers, executor, progress, chunk_size, seed):
    """Every start played ``games`` times (same chunks, same dice): the
    per-game arrays of each start, and the seconds taken."""
    root = seed_sequence(seed)
    n_chunks = -(-games // chunk_size)
    seeds = root.spawn(n_chunks)
    objects = any(not isinstance(given, str) and policy is None
                  for policy, given in sides + (cube_sides or ()))
    tasks = [_Task(tuple(starts), k * chunk_size, min(chunk_size, games - k * chunk_size), seeds[k], sides,
                   cube_sides, rules, settings["stratify"], settings["truncate"], settings["bearoff"],
                   settings["reduce"]) for k in range(n_chunks)]
    t0 = time.perf_counter()
    try:
        parts = run_chunks(_run_chunk, tasks, [t.n * len(starts) for t in tasks], workers=1 if objects else workers,
                           executor=None if objects else executor, progress=progress, unit="game")
    except Interrupted as stop:
        done = sum(t.n for t in tasks[:len(stop.done)])
        partial = None
        if done:
            partial = [_summary(_merge(stop.done, k), time.perf_counter() - t0, settings["reduce"],
                                settings["truncate"], starts[k].state) for k in range(len(starts))]
        raise RolloutInterrupted(done, partial[0] if partial and len(partial) == 1 else partial) from None
    return parts, time.perf_counter() - t0


def _checked_position(position) -> Position:
    position = Position.initial() if position is None else instance("position", position, Position,
                                                                      "backgammon.Position")
    if position.is_game_over():
        raise ValueError("position: the game is over in this position, nothing to roll out")
    return position


def _checked_state(state, cube: bool) -> MatchState | None:
    if state is None:
        return MatchState() if cube else None
    return instance("state", state, MatchState, "backgammon.MatchState")


def rollout(position: Position | None = None, *, games: int = 1296, policy="net", cube_policy=None, seed=None,
            stratify: bool = True, truncate: int | None = None, bearoff: bool = False,
            variance_reduction: bool = True, cube: bool = False, state: MatchState | None = None,
            rules: Rules | None = None, workers: int | None = None, executor: Executor | None = None,
            progress: bool = False, evaluator=None, chunk_size: int = CHUNK) -> RolloutResult:
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
    Crawford; default money with a centred cube) under ``rules``.
    ``variance_reduction``: subtract each roll's luck (see the module).
    ``truncate=k``: stop each game after k plies and score it with the
    side to roll's evaluator at its ply; ``bearoff``: stop as soon as both
    sides bear off and take the bear-off tables' chances.  ``stratify``:
    the first roll of game i is ordered roll i mod 36 and the second
    (i // 36) mod 36.  ``workers``: local processes (default: all cores; 1
    runs here); ``executor``: any ``concurrent.futures.Executor`` instead
    (e.g. Dask's); players given as objects (not specs, and not kernel
    policies) play in this process.  ``evaluator``: plays for both sides
    instead, choosing from a batch of the positions after each play of
    every game, called once per ply: an Evaluator (chances (m, 5) of the
    side then on roll) or a scorer ((m,) values for the side that played,
    higher is better).
    """
    position = _checked_position(position)
    state = _checked_state(state, cube)
    games, sides, cube_sides, rules, settings, workers, executor, progress, chunk_size, seed = _plan(
        games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, workers, executor,
        progress, chunk_size, evaluator, cube, rules)
    start = _Start(position.to_bytes(), True, _as_player0(state) if cube else None)
    parts, seconds = _roll([start], games, sides, cube_sides, rules, settings, workers, executor, progress,
                           chunk_size, seed)
    return _summary(_merge(parts, 0), seconds, settings["reduce"], settings["truncate"], start.state)


def _as_player0(state: MatchState | None) -> MatchState:
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
    difference (the candidates share their dice, so it is far smaller
    than either equity's)."""

    play: Any
    result: RolloutResult
    equity: float
    equity_se: float
    difference: float
    difference_se: float

    def to_dict(self) -> dict:
        return {"play": str(self.play), "equity": self.equity, "equity_se": self.equity_se,
                "difference": self.difference, "difference_se": self.difference_se,
                "result": self.result.to_dict()}


def _normalised(state: MatchState, mwc):
    """Player 0's match winning chances as normalised match equity: -1
    losing a single game at the cube, +1 winning one."""
    return MatchValues.of_state(state, side=0).normalised(mwc, state.cube_value)


def _game_values(part: dict, reduce: bool, cubeful: bool, state: MatchState | None) -> np.ndarray:
    """Each game's value for "us", variance-reduced when asked: the
    cubeless equity, or cubefully the money equity per starting cube or
    the normalised match equity (``state``: player 0 is "us")."""
    if cubeful:
        value = part["value"] - part["value_luck"] if reduce else part["value"]
        if state is not None and state.match_length:
            return _normalised(state, value)
        return value
    res = part["results"] - part["luck"] if reduce else part["results"]
    return equity(res)


def rollout_plays(position: Position, roll, plays=None, top: int = 5, *, games: int = 1296, policy="net",
                  cube_policy=None, seed=None, stratify: bool = True, truncate: int | None = None,
                  bearoff: bool = False, variance_reduction: bool = True, cube: bool = False,
                  state: MatchState | None = None, rules: Rules | None = None, ply: int = 0,
                  workers: int | None = None, executor: Executor | None = None, progress: bool = False,
                  chunk_size: int = CHUNK) -> list[PlayRollout]:
    """Roll out candidate plays of ``roll`` from ``position`` with the same
    dice for each: ``plays`` (Plays or notation), or the ``top`` of a hint
    at ``ply``.  Returns the candidates best first, each with its equity
    for the mover (cubeful with ``cube``), its difference from the best and
    the standard error of that difference.  Other options as in
    :func:`rollout`.

    >>> import backgammon as bg
    >>> ranked = rollout_plays(bg.Position.initial(), "31", top=2, games=72, seed=1, workers=1)
    >>> [str(r.play) for r in ranked][0], ranked[0].difference
    ('8/5 6/5', 0.0)
    """
    position = _checked_position(position)
    dice = to_dice(roll)
    top = integer("top", top, low=1)
    legal = position.legal_plays(dice)
    if plays is None:
        from .hint import hint
        candidates = [r.play for r in hint(position, dice, ply)[:top]]
    else:
        if isinstance(plays, (str, bytes)) or not hasattr(plays, "__iter__"):
            raise TypeError(f"plays must be a list of plays or notation, not {type(plays).__name__}")
        candidates = []
        for p in plays:
            text = p if isinstance(p, str) else str(instance("plays", p, type(legal[0]), "backgammon.Play"))
            candidates.append(position.parse_play(text, dice))
        if not candidates:
            raise ValueError("plays: give at least one play")
    state = _checked_state(state, cube)
    games, sides, cube_sides, rules, settings, workers, executor, progress, chunk_size, seed = _plan(
        games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, workers, executor,
        progress, chunk_size, None, cube, rules)
    # After a play the opponent is on roll: it is player 0 of the start.
    after_state = None
    if cube:
        s = _as_player0(state)
        owner = None if s.cube_owner is None else 1 - s.cube_owner
        after_state = s.replace(cube_owner=owner, score=(s.score[1], s.score[0]))
    starts = [_Start(p.position.to_bytes(), False, after_state) for p in candidates]
    their_sides = (sides[1], sides[0])
    their_cube = None if cube_sides is None else (cube_sides[1], cube_sides[0])
    parts, seconds = _roll(starts, games, their_sides, their_cube, rules, settings, workers, executor, progress,
                           chunk_size, seed)
    merged = [_merge(parts, k) for k in range(len(starts))]
    mover_state = _as_player0(state) if cube else None      # the arrays are the mover's
    summaries = [_summary(m, seconds, settings["reduce"], settings["truncate"], mover_state) for m in merged]
    values = [_game_values(m, settings["reduce"], cube, mover_state) for m in merged]
    means = [float(v.mean()) for v in values]
    best = int(np.argmax(means))
    out = []
    for k, play in enumerate(candidates):
        diff = values[k] - values[best]
        out.append(PlayRollout(play, summaries[k], means[k], _se(values[k]), float(diff.mean()), _se(diff)))
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
    from .cube import proper_action
    position = _checked_position(position)
    state = _as_player0(_checked_state(state, True))
    rules = Rules() if rules is None else instance("rules", rules, Rules, "backgammon.Rules")
    games, sides, cube_sides, rules, settings, workers, executor, progress, chunk_size, seed = _plan(
        games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, workers, executor,
        progress, chunk_size, None, True, rules)
    v = state.cube_value
    verdict = may_double(state, rules)
    if not verdict:
        raise ValueError(f"state: {verdict.reason}")
    taken = state.replace(cube_value=2 * v, cube_owner=1)
    starts = [_Start(position.to_bytes(), True, state, no_double_first=True),
              _Start(position.to_bytes(), True, taken, unit=v)]
    parts, seconds = _roll(starts, games, sides, cube_sides, rules, settings, workers, executor, progress, chunk_size,
                           seed)
    nd_part, dt_part = _merge(parts, 0), _merge(parts, 1)
    nd_sum = _summary(nd_part, seconds, settings["reduce"], settings["truncate"], state)
    dt_sum = _summary(dt_part, seconds, settings["reduce"], settings["truncate"], state)
    nd_e = _game_values(nd_part, settings["reduce"], True, state)
    dt_e = _game_values(dt_part, settings["reduce"], True, state)
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
    return CubeRollout(action, take, nd, dt, dp, _se(nd_e), _se(dt_e), _se(dt_e - nd_e), errors, mwc, nd_sum, dt_sum)


def _argmax_segments(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Index of the first maximum within each CSR segment."""
    seg = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    best = np.maximum.reduceat(values, offsets[:-1])
    hit = np.flatnonzero(values == best[seg])
    first = np.unique(seg[hit], return_index=True)[1]
    return hit[first] - offsets[:-1]
