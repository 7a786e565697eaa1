"""The cube in a lockstep rollout: each game's cube, owner and whether a
double has been taken, the cube decisions of the players before each
roll, and what a game (or a game cut short) is worth with the cube.

Values are player 0's (the side on roll at the start): in money play
points per unit of the starting cube (gammons single under Jacoby while
the cube is unturned, :mod:`backgammon.scoring`), in a match the match
winning chances.  Who may double is :mod:`backgammon.doubling`'s rule.

Each game's checker plays are chosen by their cubeful value at its own
cube (``Player.choose_indices_at(..., cubeful=True)``, one batch per cube
state, ``rollouts.loop``), as gnubg's cubeful rollouts choose them: by
match equity at a match score, by cubeful money equity in money play (the
cube's owner and value, Jacoby while it is centred); in a game settled by
a pass they are cubeless.  A passed double settles the game's value, but the game
plays on for its chances: a money cubeful rollout's chances are those of
playing on, the same as the cubeless rollout's with the same seed (gnubg takes the evaluator's chances at the pass instead, which
carries the evaluator's bias into them).  A game stopped before its end
(at the bear-off tables or a truncation) is worth the live cube there:
the proper cube action of the side to roll, never the dead cube's
cubeless value.

Variance reduction with the cube (gnubg's cubeful variance reduction,
rollout.c): a roll's luck is the cubeful value of the position after the
roll's best 0-ply play, the next side to roll holding its cube options at
the game's cube (the same live-cube value as at a stopped game), less the
mean of that value over the 21 rolls; the cubeless luck scaled by the cube
missed what the cube's options make of a roll (a roll that turns a
position into a pass is worth the cube, not its cubeless swing).
"""
from __future__ import annotations

import numpy as np

from ..doubling import may_double_lanes, may_redouble
from ..janowski import cube_values
from ..matchid import MatchState
from ..cube import TAKES
from ..dice import ROLL_PROBABILITIES
from ..scoring import MatchValues, cube_turned, flip, gammons_count, money_value

__all__ = ["CubeLanes"]

#: Player 0's result when it wins a dropped double, and when it loses one.
_WON = np.array([1.0, 0, 0, 0, 0])
_LOST = np.array([0.0, 0, 0, 0, 0])


class CubeLanes:
    """The cube of each lane's game, from ``state0`` (a MatchState of
    player 0, the side on roll at the start, and player 1), under
    ``rules``; ``players`` decide the cube (each side's ``cube_action``);
    money values are per ``unit`` cubes."""

    def __init__(self, n: int, state0: MatchState, rules, players, unit: int):
        self.state0, self.rules, self.players, self.unit = state0, rules, players, unit
        self.cube = np.full(n, state0.cube_value, dtype=np.int64)
        self.owner = np.full(n, -1 if state0.cube_owner is None else state0.cube_owner, dtype=np.int64)
        self.turned = np.full(n, cube_turned(state0))
        # Player 0's match winning chances after any outcome (None in money play).
        self.values = MatchValues.of_state(state0, side=0) if state0.match_length else None

    def reset(self, lane: int) -> None:
        """A new game in ``lane``: the cube as at the start."""
        s = self.state0
        self.cube[lane] = s.cube_value
        self.owner[lane] = -1 if s.cube_owner is None else s.cube_owner
        self.turned[lane] = cube_turned(s)

    def value(self, chances: np.ndarray, lanes: np.ndarray, turned: np.ndarray | None = None) -> np.ndarray:
        """The value for player 0 of outcome chances (player 0's, (m, 5))
        at the cubes of ``lanes`` (``turned``: whether a double has been
        taken, default the lanes')."""
        cube = self.cube[lanes]
        if self.values is None:
            turned = self.turned[lanes] if turned is None else turned
            gammons = gammons_count(self.rules, not self.state0.match_length, turned)
            return money_value(chances, gammons) * cube / self.unit
        return self.values.mwc(chances, cube)

    def luck(self, lanes: np.ndarray, rolls: np.ndarray, sides: np.ndarray, each: np.ndarray,
             chosen: np.ndarray) -> np.ndarray:
        """A roll's luck in cubeful value, as gnubg's cubeful variance
        reduction takes it: the value for player 0 of the position after the
        best play of the roll thrown minus its mean over the 21 rolls, each
        valued with the cube (the next side to roll holding its cube options
        at the game's cube, :meth:`worth`; a game the play ends scored at
        the cube, :meth:`value`).  ``rolls`` (m, 2) the dice thrown in
        ``lanes`` by ``sides``; ``each`` (m, 21, 5) player 0's chances after
        each roll's best play, ``chosen`` (m, 21, 2, 25) those plays (next
        mover's view), rolls in the order of ``dice.ROLLS``."""
        m = len(lanes)
        rows = np.repeat(lanes, len(ROLL_PROBABILITIES))
        boards = chosen.reshape(-1, 2, 25)
        res = each.reshape(-1, 5)
        f = np.empty(len(rows))
        over = boards[:, 0, :].sum(axis=1) == 0          # the mover bore off its last checker
        if over.any():
            f[over] = self.value(res[over], rows[over])
        if (~over).any():
            f[~over] = self.worth(rows[~over], boards[~over], np.repeat(1 - sides, len(ROLL_PROBABILITIES))[~over],
                                  res[~over])
        by_roll = f.reshape(m, -1)
        hi, lo = rolls.max(axis=1).astype(np.int64), rolls.min(axis=1).astype(np.int64)
        thrown = by_roll[np.arange(m), hi * (hi - 1) // 2 + lo - 1]
        return thrown - by_roll @ ROLL_PROBABILITIES

    def state(self, lane: int, side: int) -> MatchState:
        """The MatchState of ``lane``'s game, ``side`` on roll."""
        cube, owner = int(self.cube[lane]), int(self.owner[lane])
        return self.state0.replace(cube_value=cube, cube_owner=None if owner < 0 else owner, on_roll=side,
                                   turn=side, double_offered=False, resignation=0, dice=(0, 0))

    def groups(self, lanes: np.ndarray, sides: np.ndarray):
        """The ``lanes`` by the cube state of their games, ``sides`` (one a
        lane) to roll: (side, its MatchState, the indices into ``lanes``),
        one batch of decisions or values each."""
        keys = np.stack([np.asarray(sides, dtype=np.int64), self.cube[lanes], self.owner[lanes]], axis=1)
        if not len(keys):
            return
        kinds, which = np.unique(keys, axis=0, return_inverse=True)
        which = which.reshape(-1)
        for k, (side, _, _) in enumerate(kinds.tolist()):
            at = np.flatnonzero(which == k)
            yield side, self.state(int(lanes[at[0]]), side), at

    def turns(self, rows: np.ndarray, boards: np.ndarray, turn: np.ndarray, may: np.ndarray):
        """Each side to roll in ``rows`` that may double (``may``, with
        ``doubling.may_double_lanes``) asks its player; a double is answered
        by the other side's player (take, pass or beaver).  One batch of
        decisions per cube state (``Player.cube_actions``).  Returns the
        lanes whose double was passed and their values, or None."""
        asked = rows[may & may_double_lanes(turn[rows], self.cube[rows], self.owner[rows], self.state0,
                                            self.rules)]
        dropped = []
        for side, state, at in self.groups(asked, turn[asked]):
            lanes = asked[at]
            here = np.ascontiguousarray(boards[lanes])
            decisions = self.players[side].cube_actions(here, state, self.rules)
            doubled = decisions.doubles & decisions.can_double
            if not doubled.any():
                continue
            taker = self.players[1 - side]
            takes = decisions.takes[doubled] if taker is self.players[side] else \
                taker.cube_actions(np.ascontiguousarray(here[doubled]), state, self.rules).takes
            lanes, passed = lanes[doubled], takes == TAKES.index("pass")
            dropped.append(lanes[passed])
            c = state.cube_value
            beaver = (takes[~passed] == TAKES.index("beaver")) & \
                (not may_redouble("beaver", not self.state0.match_length, 0, c, 4, self.rules))
            taken = lanes[~passed]
            self.cube[taken] = c * np.where(beaver, 4, 2)
            self.owner[taken] = 1 - side
            self.turned[taken] = True
        lanes = np.concatenate(dropped) if dropped else np.zeros(0, dtype=np.int64)
        if not len(lanes):
            return None
        res = np.where((turn[lanes] == 0)[:, None], _WON, _LOST)
        # A drop scores the cube before the double, single (RULES 7.3).
        return lanes, self.value(res, lanes, np.ones(len(lanes), dtype=bool))

    def horizon(self, lanes: np.ndarray, boards: np.ndarray, turn: np.ndarray, res: np.ndarray) -> np.ndarray:
        """The value for player 0 of games stopped before their end at
        ``res`` (player 0's chances there, e.g. the bear-off tables'): the
        live cube (:meth:`worth`)."""
        return self.worth(lanes, boards[lanes], turn[lanes], res)

    def worth(self, lanes: np.ndarray, boards: np.ndarray, sides: np.ndarray, res: np.ndarray) -> np.ndarray:
        """The value for player 0 of positions ``boards`` (one a row, (m, 2,
        25), ``sides`` to roll, player 0's chances ``res``) at the cubes of
        ``lanes``: the live cube, the proper cube action of the side to roll
        (:func:`backgammon.janowski.cube_values`: gnubg's 0-ply cubeful
        equity, the two-sided table's exact one in money races it holds)."""
        val = np.zeros(len(lanes))
        for side, state, rows in self.groups(lanes, sides):
            mine = res[rows] if side == 0 else flip(res[rows])
            v, mwc = cube_values(mine, np.ascontiguousarray(boards[rows]), state, self.rules)
            if self.values is None:
                e = v * state.cube_value / self.unit
                val[rows] = e if side == 0 else -e
            else:
                val[rows] = mwc if side == 0 else 1.0 - mwc
        return val

    def cut(self, lanes: np.ndarray, boards: np.ndarray, turn: np.ndarray, res: np.ndarray) -> np.ndarray:
        """The value of games cut short (``res``: player 0's chances there):
        the equity of the proper cube action of the side to roll, by its
        player (its chances' value for players without cube judgement)."""
        val = np.zeros(len(lanes))
        for side, state, at in self.groups(lanes, turn[lanes]):
            decider = self.players[side]
            if not decider.has_cube_decisions:
                val[at] = self.value(res[at], lanes[at])
                continue
            d = decider.cube_actions(np.ascontiguousarray(boards[lanes[at]]), state, self.rules)
            act = d.doubles & d.can_double
            if self.values is None:
                e = np.where(act, np.minimum(d.double_take, d.double_pass), d.no_double) * state.cube_value / self.unit
                val[at] = e if side == 0 else -e
            else:
                assert d.mwc is not None
                m = np.where(act, np.minimum(d.mwc[:, 1], d.mwc[:, 2]), d.mwc[:, 0])
                val[at] = m if side == 0 else 1.0 - m
        return val
