"""What one chunk of a rollout plays: every start of the chunk, game for
game with the same dice.  Cubeless games whose players the kernels can
play (random, pubeval, net) run in the Cython game loop without the GIL;
the others, and every cubeful rollout, in :class:`LockstepGames`, on the
package's one lockstep loop (:class:`backgammon.lockstep.Lanes`): each
ply, one ``choose_indices`` call per side for all games of the chunk
(with the cube, one ``choose_indices_at(..., cubeful=True)`` per cube
state: the plays by match equity, or cubeful money equity, at each
game's cube, as gnubg's cubeful rollouts), the
players' cube decisions before the roll (:mod:`.cubeful`: one
``cube_actions`` batch per cube state), the roll's luck for variance
reduction (with the cube, in cubeful value), and truncation."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _choice, _rollout, bearoff
from .._parallel import tally
from ..dice import ROLL_PROBABILITIES
from ..evaluator import NativeEvaluator, as_evaluator, chances
from ..lockstep import Lanes, choose_for_sides
from ..matchid import MatchState
from ..players import player
from ..pubeval import load_weights
from ..rules import Rules
from ..scoring import flip, flip_change
from .cubeful import CubeLanes

__all__ = ["Start", "Games", "Task", "run_chunk", "LockstepGames", "LANES"]

#: Games a lockstep chunk plays at once.
LANES = 1024


@dataclass(frozen=True)
class Start:
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
class Games:
    """How a rollout's games are played: the rules, stratified dice,
    truncation after ``truncate`` plies, the bear-off tables at the end,
    variance reduction (``reduce``)."""

    rules: Rules
    stratify: bool
    truncate: int | None
    bearoff: bool
    reduce: bool


@dataclass(frozen=True)
class Task:
    """One chunk: its starts, the first game number and how many games,
    its seed, who plays (``sides``: (kernel policy or None, the spec or
    Player given) for player 0 and 1; ``cube_sides`` the same for the
    cube, None: cubeless), and how (``games``)."""

    starts: tuple
    first: int
    n: int
    seed: Any
    sides: tuple
    cube_sides: tuple | None
    games: Games


def _key(seed: np.random.SeedSequence) -> int:
    return int(seed.generate_state(1, np.uint64)[0])


def run_chunk(task: Task) -> list[dict]:
    """Every start of a chunk, game for game with the same dice; module
    level so that worker processes can run it.  For each start: per-game
    results (n, 5) and luck (n, 5) for "us", and with the cube the
    cubeful value (n,) and its luck (n,)."""
    key = _key(task.seed)
    if task.cube_sides is None and all(policy is not None for policy, _ in task.sides) \
            and len({_judge(policy[1]) for policy, _ in task.sides} - {None}) <= 1:
        return [_kernel_games(task, s, key) for s in task.starts]
    seeds = task.seed.spawn(4)
    made = [player(given, seed=s) for (_, given), s in zip(task.sides, seeds[:2])]
    cube = None
    if task.cube_sides is not None:
        # The checker players decide the cube too unless other players are given.
        cube = [m if cube_given == given else player(cube_given, seed=s)
                for (_, cube_given), (_, given), m, s in zip(task.cube_sides, task.sides, made, seeds[2:])]
    try:
        return [LockstepGames(task, s, key, made, cube).run() for s in task.starts]
    finally:
        for (_, given), p in zip(task.sides + (task.cube_sides or ()), made + (cube or [])):
            if p is not given:
                p.close()


def _judge(nets):
    """Who a kernel side's "networks" are: the networks, a native
    evaluator's object, or None.  The game loop has one judge for both
    sides: two different ones play in lockstep."""
    return nets.native if isinstance(nets, NativeEvaluator) else nets


def _kernel_games(task: Task, start: Start, key: int) -> dict:
    load_weights()
    (code0, nets0), (code1, nets1) = (policy for policy, _ in task.sides)
    g = task.games
    nets: Any = nets0 if nets0 is not None else nets1
    native = None
    if isinstance(nets, NativeEvaluator):
        # It plays, measures the luck and truncates (docs/cython-api.md).
        nets, native = None, nets.native
    elif nets is None and (_choice.Policy.POLICY_NET in (code0, code1) or g.reduce or g.truncate is not None):
        from ..network import default
        nets = default()
    tables = bearoff.kernel_tables() if g.bearoff else {}
    results, luck = _rollout.play_games(np.frombuffer(start.board, dtype=np.uint8), task.first, task.n, key,
                                        code0, code1, g.stratify, -1 if g.truncate is None else g.truncate,
                                        g.bearoff, g.reduce, nets=nets, evaluator=native, counter=tally(),
                                        **tables)
    if not start.us_on_roll:
        results, luck = flip(results), flip_change(luck)
    return {"results": results, "luck": luck}


class LockstepGames:
    """The games of one start of a chunk in lockstep: any players, the
    cube, variance reduction, truncation."""

    def __init__(self, task: Task, start: Start, key: int, players, cube_players):
        self.task, self.start, self.key = task, start, key
        self.players, self.cube_players = players, cube_players
        self.board0 = np.frombuffer(start.board, dtype=np.uint8).reshape(2, 25)
        self.state0 = start.state if start.state is not None else MatchState()
        self.unit = start.unit or self.state0.cube_value

    def run(self) -> dict:
        t, n, g = self.task, self.task.n, self.task.games
        lanes = Lanes(self.board0, min(n, LANES), games=n, first=t.first, key=self.key, stratify=g.stratify,
                      bearoff_from=0 if g.bearoff else -1, tables=bearoff.kernel_tables() if g.bearoff else {})
        cube = None
        if self.cube_players is not None:
            cube = CubeLanes(lanes.n, self.state0, g.rules, self.cube_players, self.unit)
        acc = np.zeros((lanes.n, 5))          # each lane's luck so far, and cubefully
        vacc = np.zeros(lanes.n)
        results, luck = np.zeros((n, 5)), np.zeros((n, 5))
        value, vluck = np.zeros(n), np.zeros(n)
        passed = np.zeros(n, dtype=bool)
        # Lanes whose double was passed: their value is settled (``settled_value``),
        # but they play on, cubeless, for the chances of playing on.
        settled, settled_value = np.zeros(lanes.n, dtype=bool), np.zeros(lanes.n)
        nets = None
        if g.reduce:
            from ..network import default
            nets = default()
        counted = tally()                     # games finished, for the progress bar

        def finish(done, res, val):
            # Games over: their results, then the lanes start the next games.
            counted[0] += len(done)
            for k, lane in enumerate(done):
                game = int(lanes.index[lane]) - t.first
                results[game] = res[k]
                luck[game] = acc[lane]
                acc[lane] = 0.0
                if cube is not None:
                    passed[game] = settled[lane]
                    value[game] = settled_value[lane] if settled[lane] else val[k]
                    vluck[game] = vacc[lane]
                    vacc[lane] = 0.0
                    settled[lane] = False
                    cube.reset(lane)
            lanes.restart(done)

        def before(rows):
            # The cube decisions of games not settled by a pass (a pass
            # settles the value; the game plays on for its chances), then
            # truncation: cut games roll no more, and the games their lanes
            # start roll from the next ply of the loop, after their own
            # first cube decision.
            games = lanes.index[rows]
            if cube is not None:
                open_ = rows[~settled[rows]]
                may = lanes.ply[open_] > 0 if self.start.no_double_first else np.ones(len(open_), dtype=bool)
                dropped = cube.turns(open_, lanes.boards, lanes.turn, may)
                if dropped is not None:
                    done, val = dropped
                    settled[done], settled_value[done] = True, val
            if g.truncate is not None:
                cut = rows[going(rows, games) & (lanes.ply[rows] >= g.truncate)]
                if len(cut):
                    res = self._cut_chances(cut, lanes)
                    val = None
                    if cube is not None:
                        val = np.zeros(len(cut))
                        live = ~settled[cut]
                        if live.any():
                            val[live] = cube.cut(cut[live], lanes.boards, lanes.turn, res[live])
                    finish(cut, res, val)
            return rows[going(rows, games)]

        def going(rows, games):
            # The rows whose games are still those ``games``: not ended meanwhile.
            return lanes.live[rows] & (lanes.index[rows] == games)

        def roll_luck(rows, here, dice):
            turn = lanes.turn[rows]
            if cube is None:
                acc[rows] += _rollout.lockstep_luck(nets, here, dice, turn)
                return
            # The cube's own luck needs each roll's best play and its chances.
            each = np.empty((len(rows), len(ROLL_PROBABILITIES), 5))
            chosen = np.empty((len(rows), len(ROLL_PROBABILITIES), 2, 25), dtype=np.uint8)
            acc[rows] += _rollout.lockstep_luck(nets, here, dice, turn, each, chosen)
            live = ~settled[rows]           # a settled value has no more luck
            if live.any():
                vacc[rows[live]] += cube.luck(rows[live], dice[live], turn[live], each[live], chosen[live])

        def ended(done, res):
            if cube is None:
                return finish(done, res, None)
            # A game settled by the bear-off tables (checkers still on both
            # sides) is worth the live cube there, not the dead cube.
            over = (lanes.boards[done].sum(axis=2) == 0).any(axis=1)
            val = np.zeros(len(done))
            for part, worth in ((over, cube.value), (~over, None)):
                part = part & ~settled[done]
                if part.any():
                    val[part] = worth(res[part], done[part]) if worth else \
                        cube.horizon(done[part], lanes.boards, lanes.turn, res[part])
            finish(done, res, val)

        def choose(rows, here, dice, turn):
            # Each game's plays by its cubeful value at its own cube (match
            # equity at a score, cubeful money equity in money play; one
            # batch per cube state); a game settled by a pass plays on
            # cubeless, for its chances.
            choice = np.zeros(len(rows), dtype=np.int64)
            live = np.flatnonzero(~settled[rows])
            done = np.flatnonzero(settled[rows])
            if len(done):
                choice[done] = choose_for_sides(self.players, here[done], dice[done], turn[done])
            for side, state, at in cube.groups(rows[live], turn[live]):
                at = live[at]
                choice[at] = self.players[side].choose_indices_at(here[at], dice[at], state, g.rules, cubeful=True)
            return choice

        lanes.run(self.players, ended, before=before if cube is not None or g.truncate is not None else None,
                  luck=roll_luck if g.reduce else None, choose=choose if cube is not None else None)
        if not self.start.us_on_roll:
            results, luck = flip(results), flip_change(luck)
            if cube is not None:
                value = 1.0 - value if self.state0.match_length else -value
                vluck = -vluck
        out: dict[str, np.ndarray] = {"results": results, "luck": luck}
        if cube is not None:
            out["value"], out["value_luck"], out["passed"] = value, vluck, passed
        return out

    def _cut_chances(self, cut: np.ndarray, lanes: Lanes) -> np.ndarray:
        """Player 0's chances where games are cut: the side to roll's
        player's evaluator at its ply (the networks at 0-ply for players
        without one)."""
        res = np.zeros((len(cut), 5))
        for side in (0, 1):
            mine = np.flatnonzero(lanes.turn[cut] == side)
            if not len(mine):
                continue
            p = self.players[side]
            ev = as_evaluator(getattr(p, "evaluator", None))
            probs = chances(ev, np.ascontiguousarray(lanes.boards[cut[mine]]), p.ply, 1)
            res[mine] = probs if side == 0 else flip(probs)
        return res
