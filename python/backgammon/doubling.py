"""Who may double, beaver and raccoon (RULES 7, 8): the one rule that the
game, the cube decisions, the rollouts' game loop and the peers ask.

:func:`may_double` answers for a :class:`~backgammon.MatchState` (the
side on roll, before it rolls), :func:`double_refusal` for the same facts
given one by one (what ``Game.can_double`` knows), and
:func:`may_double_lanes` for many games at once (the rollouts' lockstep
loop: one score, many cubes).  Beavers and raccoons: :func:`beavers_allowed`
and :func:`may_redouble`.

>>> import backgammon as bg
>>> may_double(bg.MatchState())
Verdict(allowed=True, reason='', code='')
>>> may_double(bg.MatchState(cube_value=2, cube_owner=1)).reason
'the opponent owns the cube: only the owner may double (RULES 7.1)'
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validate import flag, instance, integer
from .matchid import MatchState
from .rules import Rules

__all__ = ["Verdict", "verdict", "may_double", "double_refusal", "may_double_lanes", "beavers_allowed", "may_redouble",
           "CRAWFORD", "OWNER", "DEAD_CUBE"]

#: The reasons a side on roll may not double (the cube limit's names its limit).
CRAWFORD = "no doubling in the Crawford game (RULES 8.2)"
OWNER = "the opponent owns the cube: only the owner may double (RULES 7.1)"
DEAD_CUBE = "dead cube: winning this game at the current cube already wins the match (RULES 8.3)"


class Verdict(NamedTuple):
    """Whether an action is allowed, and the rule that forbids it if not.

    >>> from backgammon import Game
    >>> g = Game(seed=1)
    >>> g.roll()
    >>> g.can_double()
    Verdict(allowed=False, reason='the dice are already rolled: double before rolling (RULES 7.2)', code='already_rolled')
    """

    allowed: bool
    reason: str = ""
    #: the reason's stable name, for programs that say it in their own words (``RulesError.code``)
    code: str = ""

    def __bool__(self) -> bool:
        return self.allowed


#: The stable names of the reasons above (the web page words them in each language).
CODES = {CRAWFORD: "crawford_game", OWNER: "opponent_owns_cube", DEAD_CUBE: "dead_cube"}


def _rules(rules) -> Rules:
    if type(rules) is not Rules:
        instance("rules", rules, Rules, "backgammon.Rules")
    return rules


def _limit(rules: Rules) -> str:
    return f"the cube is at its limit of {rules.cube_limit} (RULES 7.4)"


_ALLOWED = Verdict(True)      # a tuple: one will do for every allowed action


def verdict(reason: str) -> Verdict:
    """The :class:`Verdict` of a refusal from :func:`double_refusal` or
    :func:`may_redouble` ("" allows), with the refusal's code.

    >>> verdict(OWNER).code, bool(verdict(""))
    ('opponent_owns_cube', True)
    """
    if not reason:
        return _ALLOWED
    instance("reason", reason, str)
    if reason in CODES:
        return Verdict(False, reason, CODES[reason])
    if reason.startswith("beavers and raccoons are money-play"):
        return Verdict(False, reason, "money_only")
    if reason.startswith("these rules allow"):
        return Verdict(False, reason, "beaver_limit")
    return Verdict(False, reason, "cube_limit")       # the cube limit's texts name the limit


def double_refusal(me: int, cube_value: int, cube_owner: int | None, score: tuple, length: int, crawford: bool,
                   rules: Rules) -> str:
    """Why player ``me``, on roll before rolling, may not double, or "":
    the Crawford game (RULES 8.2), the cube owned by the other side (RULES
    7.1), a dead cube (RULES 8.3), the cube limit (RULES 7.4).

    >>> double_refusal(0, 1, None, (3, 0), 5, False, Rules())
    ''
    >>> double_refusal(0, 2, 0, (3, 0), 5, False, Rules())
    'dead cube: winning this game at the current cube already wins the match (RULES 8.3)'
    """
    # Plain values (every call from the game and the searches) skip the converters.
    if type(me) is not int or not 0 <= me <= 1:
        me = integer("me", me, low=0, high=1)
    if type(cube_value) is not int or cube_value < 1:
        cube_value = integer("cube_value", cube_value, low=1)
    if cube_owner is not None and (type(cube_owner) is not int or not 0 <= cube_owner <= 1):
        cube_owner = integer("cube_owner", cube_owner, low=0, high=1)
    if type(length) is not int or length < 0:
        length = integer("length", length, low=0)
    if not (isinstance(score, (tuple, list)) and len(score) == 2):
        raise TypeError(f"score must be a pair of ints, not {score!r:.40}")
    if length and type(score[me]) is not int:
        integer("score", score[me])
    if crawford is not False and crawford is not True:
        crawford = flag("crawford", crawford)
    _rules(rules)
    if length and crawford:
        return CRAWFORD
    if cube_owner is not None and cube_owner != me:
        return OWNER
    if length and score[me] + cube_value >= length:
        return DEAD_CUBE
    if cube_value * 2 > rules.cube_limit:
        return _limit(rules)
    return ""


def may_double(state, rules: Rules | None = None) -> Verdict:
    """Whether the side on roll of ``state`` may double before it rolls
    (see :func:`double_refusal`); ``rules`` default to the state's own
    (``MatchState.game_rules``)."""
    instance("state", state, MatchState, "backgammon.MatchState")
    rules = state.game_rules() if rules is None else _rules(rules)
    return verdict(double_refusal(state.on_roll, state.cube_value, state.cube_owner, state.score,
                                  state.match_length, bool(state.crawford), rules))


def may_double_lanes(side: np.ndarray, cube: np.ndarray, owner: np.ndarray, state, rules: Rules) -> np.ndarray:
    """:func:`may_double` for many games of one match score at once: each
    game's side on roll (0 or 1), cube value and owner (-1 centred), the
    score, length and Crawford flag from ``state`` (players 0 and 1 as
    there); bool (n,).

    >>> import numpy as np, backgammon as bg
    >>> may_double_lanes(np.array([0, 1, 1]), np.array([1, 2, 2]), np.array([-1, 0, 1]), bg.MatchState(),
    ...                  bg.Rules()).tolist()
    [True, False, True]
    """
    instance("state", state, MatchState, "backgammon.MatchState")
    _rules(rules)
    side, cube, owner = (np.asarray(a, dtype=np.int64) for a in (side, cube, owner))
    if not side.shape == cube.shape == owner.shape or side.ndim != 1:
        raise ValueError(f"side, cube and owner must be arrays of one length, not of shapes {side.shape}, "
                         f"{cube.shape}, {owner.shape}")
    if ((side < 0) | (side > 1)).any():
        raise ValueError("side must hold players 0 and 1")
    ok = (owner < 0) | (owner == side)
    if state.match_length:
        if state.crawford:
            return np.zeros(len(side), dtype=bool)
        score = np.asarray(state.score, dtype=np.int64)
        ok &= score[side] + cube < state.match_length
    return ok & (cube * 2 <= rules.cube_limit)


def beavers_allowed(money: bool, rules: Rules) -> bool:
    """Whether a double may be beavered at all: money play with beavers on
    (RULES 7.5, 8.4)."""
    return bool(flag("money", money) and _rules(rules).beavers > 0)


def may_redouble(kind: str, money: bool, redoubles: int, cube_value: int, factor: int, rules: Rules) -> str:
    """Why a beaver or raccoon (``kind``) that multiplies the cube now at
    ``cube_value`` by ``factor`` is not allowed after ``redoubles`` of them
    on this double, or "" (RULES 7.4, 7.5, 8.4)."""
    _rules(rules)
    if not flag("money", money):
        return "beavers and raccoons are money-play options, not used in matches (RULES 8.4)"
    if redoubles >= rules.beavers:
        allowed = rules.beavers
        return f"these rules allow {allowed} beaver{'s' if allowed != 1 else ''} and raccoons per double (RULES 7.5)"
    if cube_value * factor > rules.cube_limit:
        return f"a {kind} would pass the cube limit of {rules.cube_limit} (RULES 7.4)"
    return ""
