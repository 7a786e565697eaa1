"""Scoring: what five chances are worth, what a finished or resigned game
scores, and match equity (RULES 6, 7.5, 8).

The chances are gnubg's five: win, win a gammon, win a backgammon, lose a
gammon, lose a backgammon, of one side, gammons including backgammons.
This module is their one home:

- :func:`equity`, the cubeless money equity (the kernels' formula), and
  :func:`flip`, the same chances seen by the other side
  (:func:`flip_change` for a change of chances, such as a roll's luck);
- the Jacoby rule (:func:`gammons_count`), read from the one
  :class:`~backgammon.Rules` value, and what a game is worth under it:
  :func:`money_value` for chances, :func:`game_points` for a game won on
  the board, :func:`resignation_points` for a resignation accepted (the
  level offered, Jacoby or not, RULES 6.5) and its inverse
  :func:`resignation_level`;
- match play: the default match equity table (:func:`default_met`), a
  score's match winning chances after any outcome (:class:`MatchValues`)
  and gnubg's normalised match equity (:meth:`MatchValues.normalised`).

>>> import numpy as np
>>> p = np.array([0.6, 0.2, 0.0, 0.1, 0.0])
>>> round(float(equity(p)), 6), flip(p).tolist()
(0.3, [0.4, 0.1, 0.0, 0.2, 0.0])
>>> from backgammon.rules import Rules
>>> game_points(2, 1, Rules(jacoby=True), money=True, turned=False), resignation_points(2, 1, Rules(jacoby=True))
(1, 2)
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from . import _board
from ._validate import flag, floats, instance, integer
from .matchid import MatchState
from .position import WinKind
from .rules import Rules

__all__ = ["Ending", "Outcome", "KIND_ENDING", "equity", "flip", "flip_change", "gammons_count", "cube_turned", "state_gammons_count", "money_value", "game_points", "game_multiplier", "resignation_points", "resignation_multiplier",
           "resignation_level", "default_met", "MatchValues", "OUTCOME_SIDES"]

#: The order of the five chances seen by the other side: a win's gammon
#: shares become the loser's (``flip``).
OUTCOME_SIDES = (0, 3, 4, 1, 2)


# -- cubeless ---------------------------------------------------------------------------------

def equity(chances) -> np.ndarray:
    """The cubeless money equity of (..., 5) chances: 2 win - 1 + the
    gammon and backgammon shares (the kernels' ``_board.equities``).

    >>> round(float(equity([0.6, 0.2, 0.0, 0.1, 0.0])), 6)
    0.3
    """
    p = np.asarray(chances, dtype=np.float64)
    flat = np.ascontiguousarray(p.reshape(-1, 5))
    return _board.equities(flat).reshape(p.shape[:-1])


def flip(chances: np.ndarray) -> np.ndarray:
    """The same (..., 5) chances seen by the other side.

    >>> flip(np.array([0.75, 0.25, 0.0, 0.125, 0.0])).tolist()
    [0.25, 0.125, 0.0, 0.25, 0.0]
    """
    return _five("chances", chances)[..., list(OUTCOME_SIDES)] * (-1.0, 1, 1, 1, 1) + (1.0, 0, 0, 0, 0)


def flip_change(change: np.ndarray) -> np.ndarray:
    """A change of (..., 5) chances (a roll's luck) seen by the other side.

    >>> flip_change(np.array([0.25, 0.125, 0.0, 0.0, 0.0])).tolist()
    [-0.25, 0.0, 0.0, 0.125, 0.0]
    """
    return _five("change", change)[..., list(OUTCOME_SIDES)] * (-1.0, 1, 1, 1, 1)


def _five(name: str, values) -> np.ndarray:
    """(..., 5) values as floats, or a TypeError / ValueError naming ``name``."""
    if isinstance(values, np.ndarray) and values.dtype == np.float64 and values.ndim and values.shape[-1] == 5:
        return values
    try:
        return floats(name, values, shape=(..., 5))
    except ValueError as e:
        raise ValueError(f"{e}: win, win gammon, win backgammon, lose gammon, lose backgammon") from None


def _rules(rules) -> Rules:
    if type(rules) is not Rules:
        instance("rules", rules, Rules, "backgammon.Rules")
    return rules


def _state(state):
    return instance("state", state, MatchState, "backgammon.MatchState")


# -- the points of a game ---------------------------------------------------------------------

class Ending(enum.Enum):
    """How a game ended (``Outcome.ending``): borne off for a single game,
    a gammon or a backgammon (RULES 6), a dropped double (RULES 7.3) or an
    accepted resignation (RULES 6.5).

    >>> from backgammon import Game
    >>> g = Game(seed=1)
    >>> g.roll(); g.play(g.legal_plays()[0]); g.double(); g.drop()
    >>> g.outcome.ending
    <Ending.DROP: 'dropped double'>
    """

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "dropped double"
    RESIGNATION = "resignation"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``points`` = ``multiplier`` x ``cube_value``, after
    every option (Jacoby, backgammon counted as gammon).

    >>> from backgammon import Game
    >>> g = Game(seed=1)
    >>> g.roll(); g.play(g.legal_plays()[0]); g.double(); g.drop()
    >>> g.outcome
    Outcome(winner=0, ending=<Ending.DROP: 'dropped double'>, cube_value=1, multiplier=1, points=1)
    """

    winner: int
    ending: Ending
    cube_value: int
    multiplier: int
    points: int


#: How a game won on the board ended, by the kind of win.
KIND_ENDING = {WinKind.SINGLE: Ending.SINGLE, WinKind.GAMMON: Ending.GAMMON, WinKind.BACKGAMMON: Ending.BACKGAMMON}


def gammons_count(rules: Rules, money: bool, turned):
    """Whether gammons and backgammons count in a game (RULES 7.5): not in
    money play under the Jacoby rule while no double has been taken.
    ``turned`` may be an array (one game each); the answer is then one too.

    >>> gammons_count(Rules(jacoby=True), True, False), gammons_count(Rules(jacoby=True), False, False)
    (False, True)
    """
    if not (flag("money", money) and _rules(rules).jacoby):
        return True if np.ndim(turned) == 0 else np.ones(np.shape(turned), dtype=bool)
    return turned if np.ndim(turned) == 0 else np.asarray(turned, dtype=bool)


def cube_turned(state) -> bool:
    """Whether a double has been taken in the game a MatchState describes:
    a taken double leaves the cube with the taker, and only automatic
    doubles (RULES 7.5) raise a centred cube, so a centred cube has not
    been turned (gnubg reads Jacoby the same way).

    >>> from backgammon.matchid import MatchState
    >>> cube_turned(MatchState()), cube_turned(MatchState(cube_value=2, cube_owner=0))
    (False, True)
    """
    return _state(state).cube_owner is not None


def state_gammons_count(state, rules: Rules) -> bool:
    """:func:`gammons_count` in the game a MatchState describes."""
    return gammons_count(rules, _state(state).match_length == 0, cube_turned(state))


def money_value(chances, gammons=True):
    """The cubeless money value of (..., 5) chances, per cube: the equity,
    or 2 win - 1 where gammons do not count (``gammons``, a bool or an
    array of them: :func:`gammons_count`).

    >>> round(float(money_value(np.array([0.6, 0.2, 0.0, 0.1, 0.0]), False)), 6)
    0.2
    """
    p = np.asarray(chances, dtype=np.float64)
    w, wg, wb, lg, lb = np.moveaxis(p, -1, 0)
    single = 2 * w - 1
    if np.ndim(gammons) == 0:
        return (single + wg - lg + wb - lb) if gammons else single
    return np.where(gammons, single + wg - lg + wb - lb, single)


def game_points(kind: int, cube: int, rules: Rules, *, money: bool, turned: bool) -> int:
    """The points of a game won on the board as ``kind`` (1 single, 2
    gammon, 3 backgammon, RULES 6) at ``cube``: a backgammon counts as a
    gammon when the rules say so (RULES 6.4), and under Jacoby a gammon
    counts single in money play until a double has been taken (RULES 7.5).

    >>> game_points(3, 2, Rules(), money=True, turned=False)
    6
    >>> game_points(3, 2, Rules(backgammon_counts_as_gammon=True), money=True, turned=False)
    4
    """
    return game_multiplier(kind, rules, money=money, turned=turned) * integer("cube", cube, low=1)


def game_multiplier(kind: int, rules: Rules, *, money: bool, turned: bool) -> int:
    """The multiple of the cube a game won on the board as ``kind`` scores
    (see :func:`game_points`)."""
    kind = integer("kind", kind, low=1, high=3)
    level = min(kind, 2) if _rules(rules).backgammon_counts_as_gammon else kind      # RULES 6.4 option
    return level if gammons_count(rules, money, flag("turned", turned)) else 1      # RULES 7.5 Jacoby


def resignation_points(level: int, cube: int, rules: Rules) -> int:
    """The points of a resignation of ``level`` (1 single, 2 gammon, 3
    backgammon) accepted at ``cube``: the level offered times the cube
    (RULES 6.5), as gnubg scores it, under Jacoby too (Jacoby concerns
    games played out, not what a player offers to lose); a backgammon
    offered counts as a gammon when the rules count backgammons so (RULES 6.4).

    >>> resignation_points(2, 1, Rules(jacoby=True)), resignation_points(3, 2, Rules(backgammon_counts_as_gammon=True))
    (2, 4)
    """
    return resignation_multiplier(level, rules) * integer("cube", cube, low=1)


def resignation_multiplier(level: int, rules: Rules) -> int:
    """The multiple of the cube a resignation of ``level`` scores (RULES 6.5)."""
    level = integer("level", level, low=1, high=3)
    return min(level, 2) if _rules(rules).backgammon_counts_as_gammon else level


def resignation_level(points: int, cube: int, rules: Rules) -> int | None:
    """The lowest resignation level that scores ``points`` at ``cube``
    (what a match file that keeps only the points reads back), or None.

    >>> resignation_level(2, 1, Rules(jacoby=True)), resignation_level(3, 2, Rules())
    (2, None)
    """
    points = integer("points", points)
    for level in (1, 2, 3):
        if resignation_points(level, cube, rules) == points:
            return level
    return None


# -- match play -------------------------------------------------------------------------------

def default_met():
    """The match equity table used when none is given: Kazaross-XG2
    (gnubg's and eXtreme Gammon's default)."""
    from .met import MatchEquityTable
    return MatchEquityTable.kazaross_xg2()


_SHARED: dict = {}


class MatchValues:
    """Match winning chances (MWC) of one side (``me``) after the game at a
    score: ``length`` the match, ``me`` and ``opp`` the points each has.

    >>> v = MatchValues.of(default_met(), 5, 2, 3)
    >>> v.after(0, 0) == default_met().mwc(3, 2), v.after(3, 0), v.after(0, 2)
    (True, 1.0, 0.0)
    """

    def __init__(self, met, length: int, me: int, opp: int):
        self.met, self.n = met, length
        self.a, self.b = length - me, length - opp        # points away
        self.crawford_next = self.a > 1 and self.b > 1
        self._after: dict = {}
        self._coefficients: dict = {}

    @classmethod
    def of(cls, met, length: int, me: int, opp: int) -> "MatchValues":
        """The (shared) values of a score: grading many positions at one
        score asks the table the same few questions."""
        key = (id(met), length, me, opp)
        hit = _SHARED.get(key)
        if hit is None or hit.met is not met:
            if len(_SHARED) > 4096:
                _SHARED.clear()
            hit = _SHARED[key] = cls(met, length, me, opp)
        return hit

    @classmethod
    def of_state(cls, state, met=None, side: int | None = None) -> "MatchValues":
        """The values of a MatchState's score for ``side`` (default: the
        side on roll), with ``met`` (default :func:`default_met`)."""
        from .matchid import MatchState
        from .met import MatchEquityTable
        if type(state) is not MatchState:
            instance("state", state, MatchState, "backgammon.MatchState")
        if met is not None and type(met) is not MatchEquityTable:
            instance("met", met, MatchEquityTable, "backgammon.MatchEquityTable")
        me = state.on_roll if side is None else side
        return cls.of(default_met() if met is None else met, state.match_length, state.score[me],
                      state.score[1 - me])

    def after(self, mine: int, theirs: int) -> float:
        """MWC once I have won ``mine`` more points or the opponent ``theirs``."""
        key = (mine, theirs)
        v = self._after.get(key)
        if v is None:
            x, y = self.a - mine, self.b - theirs
            if x <= 0:
                v = 1.0
            elif y <= 0:
                v = 0.0
            else:
                v = self.met.mwc(x, y, crawford=self.crawford_next and (x == 1) != (y == 1))
            self._after[key] = v
        return v

    def outcomes(self, p: np.ndarray, cube: int):
        """The average MWC given a win and given a loss at ``cube``, of
        chances p (n, 5): arrays (n,) (the ends of the cube model's lines)."""
        w, wg, wb, lg, lb = p.T
        with np.errstate(divide="ignore", invalid="ignore"):
            win = np.where(w > 1e-9, ((w - wg) * self.after(cube, 0) + (wg - wb) * self.after(2 * cube, 0)
                                      + wb * self.after(3 * cube, 0)) / w, self.after(cube, 0))
            loss = np.where(w < 1 - 1e-9, ((1 - w - lg) * self.after(0, cube) + (lg - lb) * self.after(0, 2 * cube)
                                           + lb * self.after(0, 3 * cube)) / (1 - w), self.after(0, cube))
        return win, loss

    def mwc(self, p: np.ndarray, cube) -> np.ndarray:
        """The MWC of chances p (n, 5) played out at ``cube`` (an int, or
        one cube a row): each outcome's MWC weighted by its chance."""
        p = np.asarray(p, dtype=np.float64).reshape(-1, 5)
        w, wg, wb, lg, lb = p.T
        cubes = np.broadcast_to(np.asarray(cube, dtype=np.int64), (len(p),))
        out = np.empty(len(p))
        for c in np.unique(cubes):
            rows = cubes == c
            W1, W2, W3, L1, L2, L3 = self._outcome_mwc(int(c))
            out[rows] = ((w[rows] - wg[rows]) * W1 + (wg[rows] - wb[rows]) * W2 + wb[rows] * W3
                         + (1 - w[rows] - lg[rows]) * L1 + (lg[rows] - lb[rows]) * L2 + lb[rows] * L3)
        return out

    def _outcome_mwc(self, cube: int) -> tuple:
        # MWC after winning 1, 2, 3 cubes and after losing them.
        hit = self._coefficients.get(cube)
        if hit is None:
            hit = self._coefficients[cube] = tuple(
                [np.float64(self.after(k * cube, 0)) for k in (1, 2, 3)]
                + [np.float64(self.after(0, k * cube)) for k in (1, 2, 3)])
        return hit

    def normaliser(self, cube: int) -> tuple[float, float]:
        """(lo, scale) of gnubg's normalised match equity at ``cube``: -1 is
        losing a single game at this cube, +1 winning one."""
        lo, hi = self.after(0, cube), self.after(cube, 0)
        return lo, (hi - lo) if hi > lo else 1.0

    def normalised(self, mwc, cube: int):
        """gnubg's normalised match equity of ``mwc`` (a float or an array)
        at ``cube``: 2 (mwc - lo) / (hi - lo) - 1, where lo and hi are the
        MWC after losing and after winning a single game at this cube."""
        lo, scale = self.normaliser(cube)
        return 2 * (mwc - lo) / scale - 1
