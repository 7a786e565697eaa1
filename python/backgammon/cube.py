"""Cube decisions: whether the side on roll should double, and whether the
doubled side should take (RULES 7, 8).

Cubeful equities come from the cubeless chances (``evaluate``) by
Janowski's cube-efficiency model as gnubg applies it
(:mod:`backgammon.janowski`): gnubg's 0-ply cubeful equities.  At ``ply``
1 or 2, as gnubg's, the decision is a search on cubeful values
(:mod:`backgammon.cube_search`: the mean over the rolls of each roll's
best play, valued one ply less deep with the other side's cube options),
not the model applied to searched chances.  Races in the two-sided
bear-off table take its exact cubeful money equities.  Who may double is
:mod:`backgammon.doubling`'s rule.  Many positions at one cube state are
decided in one batch by :func:`cube_decisions` (what a cubeful rollout
asks each turn); :func:`cube_decision` is its batch of one, so the rule
(:func:`proper_actions`) has one home.

How deep a decision searches is decided here, once: ``cube_decision``
searches as deep as it is asked, up to :data:`MAX_PLY` (2, gnubg's
deepest cube search; deeper is refused), and reports the depth in
``CubeDecision.ply``; a decision made in play (``cube_action``, what every
``Player.cube_action`` asks) searches at most :data:`PLAY_PLY` (1) deep,
whatever the player's checker search, since one 2-ply cube search costs
as much as tens of 2-ply checker plays.  Callers pass their own depth and
never cap it.

>>> import backgammon as bg
>>> d = cube_decision(bg.Position.initial())
>>> d.action, d.double_pass
('no double', 1.0)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import instance, integer
from .cube_search import searched as _search_decision
from .doubling import beavers_allowed, may_double
from .janowski import (cube_efficiency, cube_values, efficiencies, equities, exact_known, finished_value, owner_of,
                       values_after_play)
from .position import Position
from .rules import Rules
from .scoring import MatchValues

__all__ = ["cube_decision", "cube_decisions", "cube_action", "cube_actions", "cube_decision_from", "MAX_PLY",
           "PLAY_PLY", "cube_values", "values_after_play", "finished_value",
           "CubeDecision", "CubeDecisions", "ACTIONS", "TAKES", "cube_efficiency", "MatchValues", "proper_action",
           "proper_actions"]

#: The deepest cube search of :func:`cube_decision` (gnubg's 2-ply
#: cubeful search: a few tenths of a second a decision).
MAX_PLY = 2
#: The deepest cube search of a decision made in play (:func:`cube_action`:
#: players in games, duels and rollouts decide the cube at every turn).
PLAY_PLY = 1

#: The answers, in gnubg's words.
ACTIONS = ("no double", "double, take", "double, pass", "too good to double", "double, beaver",
           "no double, beaver")
#: The doubled side's answers.
TAKES = ("take", "pass", "beaver")
_DOUBLES = (1, 2, 4)        # the ACTIONS that double


@dataclass(frozen=True)
class CubeDecision:
    """The cube action of the side on roll and the equities behind it.

    Attributes
    ----------
    action : str
        The right action, one of :data:`ACTIONS`.
    no_double, double_take, double_pass : float
        The cubeful equity of each action: per unit of the current cube
        in money play, normalised match equity in a match.
    take : str
        What the doubled side should do: ``"take"``, ``"pass"`` or
        ``"beaver"``.
    can_double : bool
        False where the rules forbid a double (then ``action`` is
        ``"no double"`` and ``reason`` says why).
    reason : str
        Why the side may not double, or ``""``.
    probabilities : tuple of float
        The cubeless chances behind the decision (five, as
        :class:`~backgammon.evaluation.Evaluation` gives them).
    mwc : tuple of float or None
        In a match, the match winning chances of the three actions, in
        the same order.
    exact : bool
        True when the equities are the two-sided bear-off table's exact
        ones rather than the model's.
    should_double : bool
        Whether ``action`` is a double (take, pass or beaver).
    ply : int
        How deep the decision searched (:func:`cube_decision` searches as
        asked; :func:`cube_action` caps play at :data:`PLAY_PLY`).

    Examples
    --------
    >>> import backgammon as bg
    >>> d = bg.cube_decision(bg.Position.initial())
    >>> d.action, d.take, round(d.no_double, 2), d.double_pass
    ('no double', 'take', 0.12, 1.0)
    """

    action: str
    no_double: float
    double_take: float
    double_pass: float
    take: str
    can_double: bool = True
    reason: str = ""
    probabilities: tuple = ()
    mwc: tuple | None = None
    exact: bool = False
    ply: int = 0

    @property
    def should_double(self) -> bool:
        return self.action in ("double, take", "double, pass", "double, beaver")

    @classmethod
    def never(cls) -> "CubeDecision":
        """The decision of a player without cube judgement: never double, always take.

        Examples
        --------
        >>> CubeDecision.never().action, CubeDecision.never().take
        ('no double', 'take')
        """
        return cls("no double", 0.0, 0.0, 1.0, "take", False, "this player makes no cube decisions")


def proper_action(nd: float, dt: float, dp: float, beavers: bool = False) -> tuple[str, str]:
    """The cube action and the answer that three cubeful equities call for
    (:func:`proper_actions` for one decision).

    Parameters
    ----------
    nd, dt, dp : float
        The doubler's equities of no double, double/take and double/pass.
    beavers : bool, default False
        Whether the doubled side may beaver.

    Returns
    -------
    action : str
        One of :data:`ACTIONS`.
    take : str
        The doubled side's answer: ``"take"``, ``"pass"`` or ``"beaver"``.

    Examples
    --------
    >>> proper_action(1.2, 1.5, 1.0)      # gammonish: play on for more
    ('too good to double', 'pass')
    >>> proper_action(0.4, 0.6, 1.0)
    ('double, take', 'take')
    """
    for name, value in (("nd", nd), ("dt", dt), ("dp", dp)):
        if np.ndim(value) != 0:
            raise TypeError(f"{name} must be a number (proper_actions takes arrays), not {type(value).__name__}")
    action, take = proper_actions([nd], [dt], [dp], beavers)
    return ACTIONS[action[0]], TAKES[take[0]]


def proper_actions(nd, dt, dp, beavers: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The cube actions and answers that many triples of cubeful equities
    call for: the rule of :func:`proper_action`, for arrays.

    Parameters
    ----------
    nd, dt, dp : array_like
        The doubler's equities of no double, double/take and double/pass, (n,).
    beavers : bool, default False
        Whether the doubled side may beaver.

    Returns
    -------
    actions : numpy.ndarray
        (n,) int8: indices into :data:`ACTIONS`.
    takes : numpy.ndarray
        (n,) int8: indices into :data:`TAKES`.

    Examples
    --------
    >>> actions, takes = proper_actions([1.2, 0.4], [1.5, 0.6], [1.0, 1.0])
    >>> [ACTIONS[a] for a in actions], [TAKES[t] for t in takes]
    (['too good to double', 'double, take'], ['pass', 'take'])
    """
    # Equities equal to within rounding are equal (a certain win cashes).
    nd, dt, dp = (np.array([round(float(v), 9) for v in np.ravel(x)]) for x in (nd, dt, dp))
    take = np.where(dt <= dp, 0, 1).astype(np.int8)
    if beavers:
        take[(dt < 0) & (take == 0)] = 2
    doubles = np.minimum(dt, dp) >= nd                 # a tie (a certain win) cashes
    too_good = ~doubles & (dt > dp) & (nd > dp)
    action = np.where(take == 2, 5, 0).astype(np.int8)  # no double (beaver)
    action[too_good] = 3
    action[doubles] = np.array([1, 2, 4], dtype=np.int8)[take[doubles]]
    return action, take


def cube_decision(position: Position, state=None, rules: Rules | None = None, ply: int = 0, *,
                  evaluator=None, networks=None, met=None) -> CubeDecision:
    """The cube action for the side on roll of ``position``, before it rolls.

    Cubeful equities come from the network's cubeless chances by
    Janowski's model, as gnubg's 0-ply; at ``ply`` 1 or 2 the decision is
    a search on cubeful values.  Races in the two-sided bear-off table take
    its exact money equities.

    Parameters
    ----------
    position : Position
        The position, the side on roll about to decide.
    state : MatchState, optional
        The cube value and owner (player 0 or 1 as in the Match ID; the
        side on roll is ``state.on_roll``), the score, the match length
        (0: money) and the Crawford flag; default money play with the
        cube centred at 1.
    rules : Rules, optional
        The money options (Jacoby, beavers); default the state's
        (``MatchState.game_rules``): rules that contradict the state are
        refused.
    ply : int, default 0
        The search depth, 0 to :data:`MAX_PLY`, searched as asked
        (``CubeDecision.ply``); for the depth a player uses in play, see
        :func:`cube_action`.
    evaluator : Evaluator, str or callable, optional
        Gives the cubeless chances, as in
        :func:`~backgammon.evaluation.evaluate`; default the shipped
        network.
    networks : optional
        The older name of ``evaluator``.
    met : MatchEquityTable, optional
        The match equity table; default Kazaross-XG2.

    Returns
    -------
    CubeDecision

    Raises
    ------
    ValueError
        The game is over in ``position``, or ``ply`` is not 0-2.
    RulesError
        Money-only options (Jacoby, beavers) in ``rules`` for a match.
    TypeError
        ``position``, ``state`` or ``rules`` of the wrong type.

    See Also
    --------
    cube_decision_from : the same from chances you already have.
    backgammon.rollouts.rollout_cube : the decision rolled out.
    backgammon.hint.hint : checker plays ranked.

    Examples
    --------
    >>> import backgammon as bg
    >>> cube_decision(bg.Position.initial()).action
    'no double'
    >>> state = bg.MatchState(match_length=7, score=(2, 5))
    >>> cube_decision(bg.Position.initial(), state).mwc is not None
    True
    """
    instance("position", position, Position, "backgammon.Position")
    ply = integer("ply", ply, low=0, high=MAX_PLY)
    state, rules = _checked(position, state, rules)
    board = np.ascontiguousarray(position.array[None], dtype=np.uint8)
    return _decide(board, state, rules, ply, evaluator, networks, met, 1)[0]


def cube_decisions(boards, state=None, rules: Rules | None = None, ply: int = 0, *, evaluator=None,
                   met=None, threads: int | None = None) -> "CubeDecisions":
    """The cube decisions of :func:`cube_decision` for many positions at one
    cube state and score, in one batch.

    Parameters
    ----------
    boards : array_like
        (n, 2, 25) boards, the side on roll in row 1 (as
        ``Position.array``), each about to decide the cube.
    state, rules, ply, evaluator, met
        As in :func:`cube_decision`, the same for every board.
    threads : int, optional
        Threads sharing the batch's evaluations; default every core (the
        same result).

    Returns
    -------
    CubeDecisions
        Row ``i`` (``decisions[i]``) is ``cube_decision(boards[i], ...)``.

    Raises
    ------
    ValueError
        A board that is not a position or whose game is over, or ``ply``
        not 0-2.

    Examples
    --------
    >>> import backgammon as bg
    >>> race = bg.Position.from_id("4HPwATDgc/ABMA")
    >>> d = cube_decisions([bg.Position.initial().array, race.array])
    >>> len(d), d[0] == cube_decision(bg.Position.initial())
    (2, True)
    """
    from .batch import validate_boards
    boards = validate_boards(boards)
    ply = integer("ply", ply, low=0, high=MAX_PLY)
    if threads is not None:
        threads = integer("threads", threads, low=1)
    state, rules = _checked_boards(boards, state, rules)
    return _decide(boards, state, rules, ply, evaluator, None, met, threads)


def _decide(boards, state, rules, ply: int, evaluator, networks, met, threads) -> "CubeDecisions":
    # Checked boards at one checked state: the chances searched ``ply`` deep,
    # and at 1-2 plies the cubeful search where no exact table answers.
    from .evaluator import as_evaluator, chances
    evaluator = as_evaluator(evaluator, networks=networks)
    p = chances(evaluator, boards, ply, threads)
    search = None
    if ply > 0:
        rows = np.arange(len(boards)) if state.match_length else \
            np.setdiff1d(np.arange(len(boards)), exact_known(boards, owner_of(state))[0])
        if len(rows):
            search = rows, _search_decision(np.ascontiguousarray(boards[rows]), state, rules, ply, evaluator, met)
    return _decisions(p, boards, state, rules, met, search, ply)


def cube_action(position: Position, state=None, rules: Rules | None = None, ply: int = 0, *,
                evaluator=None, met=None) -> CubeDecision:
    """The cube decision a player makes in play (``Player.cube_action``):
    :func:`cube_decision` searched as deep as the player's checker search
    ``ply``, but at most :data:`PLAY_PLY` (1) deep, the cap on cube
    searches in play (see the module).  Other arguments as in
    :func:`cube_decision`.

    >>> import backgammon as bg
    >>> d = cube_action(bg.Position.initial(), ply=2)
    >>> d.ply, d == cube_decision(bg.Position.initial(), ply=1)
    (1, True)
    """
    ply = integer("ply", ply, low=0)
    return cube_decision(position, state, rules, min(ply, PLAY_PLY), evaluator=evaluator, met=met)


def cube_actions(boards, state=None, rules: Rules | None = None, ply: int = 0, *, evaluator=None, met=None,
                 threads: int | None = None) -> "CubeDecisions":
    """The cube decisions players make in play (``Player.cube_actions``)
    for many positions at one cube state: :func:`cube_decisions` at most
    :data:`PLAY_PLY` deep, as :func:`cube_action`.

    >>> import backgammon as bg
    >>> start = bg.Position.initial()
    >>> cube_actions([start.array], ply=2)[0] == cube_action(start, ply=2)
    True
    """
    ply = integer("ply", ply, low=0)
    return cube_decisions(boards, state, rules, min(ply, PLAY_PLY), evaluator=evaluator, met=met, threads=threads)


def _checked(position, state, rules):
    from .matchid import state_and_rules
    state, rules = state_and_rules(state, rules)        # one set of rules (MatchState.game_rules)
    if position.is_game_over():
        raise ValueError("position: the game is over, there is no cube decision")
    if state.match_length:
        rules.check_match_play()
    return state, rules


def _checked_boards(boards, state, rules):
    from .matchid import state_and_rules
    state, rules = state_and_rules(state, rules)
    over = np.flatnonzero(~boards.any(axis=2).all(axis=1))
    if len(over):
        raise ValueError(f"boards: the game is over in board {int(over[0])}, there is no cube decision")
    if state.match_length:
        rules.check_match_play()
    return state, rules


def cube_decision_from(chances, position: Position, state=None, rules: Rules | None = None, *,
                       met=None) -> CubeDecision:
    """The cube decision of :func:`cube_decision` from given cubeless chances.

    Analysis and rollouts grade many positions from chances they already
    have, searched however they like.

    Parameters
    ----------
    chances : sequence of float
        Five cubeless chances of the side on roll, as
        :class:`~backgammon.evaluation.Evaluation` gives them.
    position, state, rules, met
        As in :func:`cube_decision`.

    Returns
    -------
    CubeDecision

    Raises
    ------
    ValueError
        ``chances`` not five numbers, or as :func:`cube_decision`.

    Examples
    --------
    >>> import backgammon as bg
    >>> cube_decision_from((0.95, 0.0, 0.0, 0.0, 0.0), bg.Position.initial()).action
    'double, pass'
    """
    instance("position", position, Position, "backgammon.Position")
    state, rules = _checked(position, state, rules)
    probs = np.array([float(v) for v in chances], dtype=np.float64)
    if len(probs) != 5:
        raise ValueError(f"chances must be five numbers, not {len(probs)}")
    return _decisions(probs[None], position.array[None], state, rules, met, None, 0)[0]


@dataclass(frozen=True)
class CubeDecisions:
    """Many cube decisions at one cube state (:func:`cube_decisions`):
    arrays, one row a position; ``decisions[i]`` is row ``i`` as a
    :class:`CubeDecision`.

    Attributes
    ----------
    actions : numpy.ndarray
        (n,) int8 indices into :data:`ACTIONS`.
    no_double, double_take, double_pass : numpy.ndarray
        (n,) the cubeful equities of each action, as in :class:`CubeDecision`.
    takes : numpy.ndarray
        (n,) int8 indices into :data:`TAKES`: the doubled side's answers.
    can_double : bool
        False where the rules forbid a double at this state (``reason``
        says why; every action is then ``"no double"``).
    reason : str
        Why the side may not double, or ``""``.
    probabilities : numpy.ndarray
        (n, 5) the cubeless chances behind the decisions.
    mwc : numpy.ndarray or None
        (n, 3) in a match, the match winning chances of the three actions.
    exact : numpy.ndarray
        (n,) bool: the two-sided bear-off table's exact equities.
    ply : int
        How deep the decisions searched.

    Examples
    --------
    >>> import backgammon as bg
    >>> d = cube_decisions([bg.Position.initial().array])
    >>> ACTIONS[d.actions[0]], d.doubles.tolist(), d[0].action
    ('no double', [False], 'no double')
    """

    actions: np.ndarray
    no_double: np.ndarray
    double_take: np.ndarray
    double_pass: np.ndarray
    takes: np.ndarray
    can_double: bool
    reason: str
    probabilities: np.ndarray
    mwc: np.ndarray | None
    exact: np.ndarray
    ply: int = 0

    def __len__(self) -> int:
        return len(self.actions)

    @property
    def doubles(self) -> np.ndarray:
        """(n,) bool: whether each action is a double (take, pass or beaver)."""
        return np.isin(self.actions, _DOUBLES)

    @property
    def passes(self) -> np.ndarray:
        """(n,) bool: whether the doubled side should pass."""
        return self.takes == 1

    def __getitem__(self, i: int) -> CubeDecision:
        i = int(i)
        if not -len(self) <= i < len(self):
            raise IndexError(f"decision {i} out of range for {len(self)}")
        return CubeDecision(ACTIONS[self.actions[i]], float(self.no_double[i]), float(self.double_take[i]),
                            float(self.double_pass[i]), TAKES[self.takes[i]], self.can_double, self.reason,
                            tuple(float(v) for v in self.probabilities[i]),
                            None if self.mwc is None else tuple(float(v) for v in self.mwc[i]),
                            bool(self.exact[i]), self.ply)

    @classmethod
    def never(cls, n: int) -> "CubeDecisions":
        """``n`` decisions of a player without cube judgement
        (:meth:`CubeDecision.never`).

        >>> d = CubeDecisions.never(2)[1]
        >>> d.action, d.take, d.can_double
        ('no double', 'take', False)
        """
        d = CubeDecision.never()
        return cls(np.zeros(n, dtype=np.int8), np.full(n, d.no_double), np.full(n, d.double_take),
                   np.full(n, d.double_pass), np.zeros(n, dtype=np.int8), False, d.reason, np.zeros((n, 5)),
                   None, np.zeros(n, dtype=bool))

    @classmethod
    def of(cls, decisions) -> "CubeDecisions":
        """Decisions made one by one (:class:`CubeDecision`, at one state)
        as one batch.

        >>> d = CubeDecisions.of([CubeDecision.never()])
        >>> d[0].action, d.can_double
        ('no double', False)
        """
        ds = list(decisions)
        mwc = None if not ds or ds[0].mwc is None else np.array([d.mwc for d in ds], dtype=np.float64)
        return cls(np.array([ACTIONS.index(d.action) for d in ds], dtype=np.int8),
                   np.array([d.no_double for d in ds], dtype=np.float64),
                   np.array([d.double_take for d in ds], dtype=np.float64),
                   np.array([d.double_pass for d in ds], dtype=np.float64),
                   np.array([TAKES.index(d.take) for d in ds], dtype=np.int8),
                   all(d.can_double for d in ds), next((d.reason for d in ds if d.reason), ""),
                   np.array([d.probabilities or (0.0,) * 5 for d in ds], dtype=np.float64).reshape(-1, 5), mwc,
                   np.array([d.exact for d in ds], dtype=bool), max((d.ply for d in ds), default=0))


def _decisions(p, boards, state, rules, met, search, ply: int) -> CubeDecisions:
    """The decisions of ``boards`` (n, 2, 25) at one state from their
    cubeless chances ``p`` (n, 5): exact in the money bear-off table, else
    the cubeful search's where given (``search``: its rows and values),
    else Janowski's model."""
    n = len(p)
    eq = equities(p, efficiencies(boards), state, rules, met, boards)
    nd, dt, dp = (np.array(v, dtype=np.float64) for v in eq[:3])
    mwc = None if eq[3] is None else np.column_stack([np.asarray(v, dtype=np.float64) for v in eq[3]])
    exact = np.zeros(n, dtype=bool)
    if search is not None:
        rows, (s_nd, s_dt, s_dp, s_mwc) = search
        nd[rows], dp[rows] = s_nd, s_dp
        if s_dt is not None:
            dt[rows] = s_dt
        if s_mwc is not None:
            assert mwc is not None
            mwc[rows, 0], mwc[rows, 2] = s_mwc[0], s_mwc[2]
            if s_mwc[1] is not None:
                mwc[rows, 1] = s_mwc[1]
        # A double the Crawford game forbids has no doubled state to
        # search: the search's no double, the model's double/take.
    if state.match_length == 0:
        rows, e_nd, e_dt = exact_known(boards, owner_of(state))
        nd[rows], dt[rows], dp[rows], exact[rows] = e_nd, e_dt, 1.0, True
    reason = may_double(state, rules).reason
    actions, takes = proper_actions(nd, dt, dp, beavers_allowed(state.match_length == 0, rules))
    if reason:
        actions = np.zeros(n, dtype=np.int8)
    return CubeDecisions(actions, nd, dt, dp, takes, not reason, reason, np.asarray(p, dtype=np.float64), mwc,
                         exact, ply)
