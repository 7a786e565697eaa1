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
from ..cube_search import play_order, rank_plays
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
    """Roll out a position: play it out ``games`` times and average.

    Gives the chances and cubeless equity of the side on roll, and with
    ``cube`` its cubeful equity, each with its standard error.  Every
    game's dice are a function of ``seed``, the game's number and the ply,
    so a seed gives the same result on any number of workers.

    Parameters
    ----------
    position : Position, optional
        The position, the side on roll to play; default the opening.
    games : int, default 1296
        Games to play (1,296 is one chunk: every pair of first two rolls
        once when ``stratify``).
    policy : str, Player or pair of them, default "net"
        Who plays: a player spec (``"net"``, ``"net:1"``, ``"pubeval"``,
        ``"gnubg"``, any registered name; see :func:`backgammon.player`),
        a :class:`~backgammon.players.Player`, or a pair of them (side on
        roll, opponent).
    cube_policy : str, Player or pair of them, optional
        The same for the cube decisions; default the checker players, so
        checker play and cube may search to different plies.
    seed : int or numpy.random.SeedSequence, optional
        The seed of every game's dice; None draws a fresh one.
    stratify : bool, default True
        Game ``i``'s first roll is ordered roll ``i % 36`` and its second
        ``(i // 36) % 36``.
    truncate : int, optional
        Stop each game after this many plies and score it with the
        evaluator of the side to roll.
    bearoff : bool, default False
        Stop each game as soon as both sides bear off and take the
        bear-off tables' exact chances.
    variance_reduction : bool, default True
        Subtract each roll's luck (gnubg's variance reduction); the
        result keeps the plain estimate too (``raw_equity``).
    cube : bool or None, default None
        Play with the doubling cube: each side doubles, takes, passes and
        beavers as its player decides (``cube_action``), and the result
        has a cubeful equity.  None: cubeful whenever a ``state`` is given
        (money or match, as gnubg's rollouts), cubeless without one;
        False asks for a cubeless rollout at a state.  The result's
        ``cubeful`` says which ran.  The side on roll may double before
        its first roll, so the cubeful equity is that of its own cube
        action; gnubg's rollout of a position rolls first (the no-double
        value), which :func:`rollout_cube` gives beside the double's.
    state : MatchState, optional
        The cube, the score, the match length, the Crawford flag and the
        game's rules (Jacoby, beavers, cube limit), player 0 being the
        side on roll; default money play with a centred cube.
    rules : Rules, optional
        What a state does not hold (``MatchState.game_rules``); it may
        add to the state's rules, never contradict them.
    workers : int, optional
        Local processes; default all cores, 1 plays in this process.
    executor : concurrent.futures.Executor, optional
        Runs the chunks instead of local processes (a Dask client's
        ``get_executor()``, for one).  Players given as objects rather
        than specs play in this process.
    progress : bool, default False
        Show a progress bar (needs tqdm).
    scorer : callable, optional
        Plays for both sides instead of ``policy``: called once a ply
        with the (m, 2, 25) positions after each play of every game, it
        returns (m,) values for the side that played, higher better.
    evaluator : Evaluator, optional
        The same with an :class:`~backgammon.evaluator.Evaluator`
        (chances (m, 5) of the side then on roll; its 0-ply choice).
        Scores given here still play, with a ``DeprecationWarning``.
    chunk_size : int, default 1296
        Games per chunk, the unit of work of a worker.

    Returns
    -------
    RolloutResult
        Chances, equities and their standard errors, from the side on
        roll of ``position``.

    Raises
    ------
    ValueError
        A value out of range (``games`` < 1, ``truncate`` < 0, ...), a
        ``position`` whose game is over, or a ``scorer`` with workers.
    TypeError
        An argument of the wrong type, naming it.
    RolloutInterrupted
        Ctrl-C: the games finished so far are in its ``partial``.

    See Also
    --------
    rollout_plays : candidate plays of a roll, on the same dice.
    rollout_cube : no double against double/take, on the same dice.
    backgammon.hint.hint : plays ranked by the network, optionally rolled out.

    Examples
    --------
    >>> import backgammon as bg
    >>> r = bg.rollout(games=1296, policy="pubeval", seed=1, workers=1,
    ...                variance_reduction=False)
    >>> r.games, round(r.win, 2)
    (1296, 0.52)

    With variance reduction (the default) far fewer games give the same
    precision:

    >>> r = bg.rollout(games=36, seed=1, workers=1)
    >>> r.equity_se < r.raw_equity_se
    True

    An XGID's position and match state, rolled out with the cube:

    >>> pos, state = bg.read_xgid("-b----E-C---eE---c-e----B-:0:0:1:00:2:4:0:7:10")
    >>> r = bg.rollout(pos, state=state, cube=True, games=72, policy="pubeval",
    ...                seed=1, workers=1, truncate=8)
    >>> r.cubeful, 0.0 < r.mwc < 1.0
    (True, True)

    A state, money or match, makes a rollout cubeful unless ``cube=False``:

    >>> money = bg.MatchState(cube_value=2, cube_owner=0)
    >>> few = dict(games=36, seed=1, workers=1, truncate=2)
    >>> bg.rollout(state=money, **few).cubeful
    True
    >>> bg.rollout(state=money, cube=False, **few).cubeful
    False
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
    ``MatchState.game_rules``) and whether it is cubeful: by default
    whenever a state is given (money or match, as gnubg's rollouts), never
    silently cubeless at a state; ``cube=False`` asks for cubeless."""
    if state is not None:
        instance("state", state, MatchState, "backgammon.MatchState")
    if cube is None:
        cube = state is not None
    full, rules = state_and_rules(state, rules)
    return checked_state(full if cube else state, cube), rules, cube


def as_player0(state: MatchState) -> MatchState:
    """``state`` relabelled so that the side on roll is player 0.

    >>> import backgammon as bg
    >>> s = bg.MatchState(match_length=5, score=(1, 3), on_roll=1, turn=1)
    >>> as_player0(s).score
    (3, 1)
    """
    if type(state) is not MatchState:
        instance("state", state, MatchState, "backgammon.MatchState")
    if state.on_roll == 0:
        return state
    owner = None if state.cube_owner is None else 1 - state.cube_owner
    return state.replace(on_roll=0, turn=0, cube_owner=owner, score=(state.score[1], state.score[0]))


@dataclass(frozen=True)
class PlayRollout:
    """One candidate play of :func:`rollout_plays`.

    Attributes
    ----------
    play : Play
        The candidate.
    result : RolloutResult
        Its rollout: the mover's chances and equity.
    equity : float
        The mover's equity after the play: cubeful when the rollout was
        (``cubeful``); at a match score normalised match equity.
    equity_se : float
        Its standard error.
    difference : float
        ``equity`` minus the best candidate's (0 for the best, else
        negative).
    difference_se : float
        The standard error of ``difference``: that of the per-game
        differences over the candidates' shared dice, below
        sqrt(se_a^2 + se_b^2) only as far as their games stay alike: for
        two plays of a roll hardly (median 0.99 of it with variance
        reduction, 0.95 without; ``benchmarks/difference_se.py``).
    cubeful : bool
        Whether the rollout was cubeful.
    mwc : float or None
        At a match score, the match winning chance after the play.

    Examples
    --------
    >>> import backgammon as bg
    >>> start = bg.Position.initial()
    >>> best = bg.rollout_plays(start, "31", top=1, games=36, seed=1, workers=1)[0]
    >>> str(best.play), best.result.games, sorted(best.to_dict())[:3]
    ('8/5 6/5', 36, ['cubeful', 'difference', 'difference_se'])
    """

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
    """Roll out candidate plays of a roll, every candidate on the same dice.

    With a ``state``, money or match, the rollout is cubeful unless
    ``cube`` is False (gnubg's default): the plays valued as ``hint`` at
    that state values them, per unit of the cube in money play (Jacoby
    while it is centred), in normalised match equity at a match score;
    without one, cubeless.  The default candidates are ``hint``'s at the
    state; asked cubeless at a match score, the plays are valued by the
    match winning chances of their cubeless outcomes.

    Because the candidates share their dice, the differences between them
    are far less noisy than each equity: the standard error of each
    difference is reported.

    Parameters
    ----------
    position : Position
        The position before the play, the side on roll to play.
    roll : Roll, tuple or str
        The dice: ``"31"``, ``(3, 1)``, ``Roll(3, 1)``.
    plays : list of Play or str, optional
        The candidates, as plays or notation (``["8/5 6/5", "24/21"]``);
        default the ``top`` plays of the network's ranking at ``ply``.
    top : int, default 5
        How many of the ranked plays to roll out when ``plays`` is None.
    ply : int, default 0
        The depth of that ranking, 0 to 2.
    games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, cube, state, rules, workers, executor, progress, chunk_size
        As in :func:`rollout`.

    Returns
    -------
    list of PlayRollout
        The candidates best first, each with its equity for the mover
        (cubeful when the rollout is), its difference from the best and that
        difference's standard error.

    Raises
    ------
    IllegalMoveError
        A play in ``plays`` the rules forbid (``InvalidMoveError`` when
        it is not notation).
    InvalidRollError
        ``roll`` is not two dice.
    ValueError
        An empty ``plays``, ``top`` < 1, ``ply`` out of 0-2, or an option
        :func:`rollout` refuses.
    TypeError
        ``plays`` given as one string rather than a list.

    See Also
    --------
    rollout, rollout_cube
    backgammon.hint.hint : ``hint(..., rollout=settings)`` rolls out a hint's best plays.

    Examples
    --------
    >>> import backgammon as bg
    >>> start = bg.Position.initial()
    >>> ranked = bg.rollout_plays(start, "31", top=2, games=72, seed=1, workers=1)
    >>> [str(r.play) for r in ranked][0], ranked[0].difference
    ('8/5 6/5', 0.0)
    >>> mine = bg.rollout_plays(start, "31", plays=["24/23 13/10", "8/5 6/5"],
    ...                         games=36, seed=1, workers=1)
    >>> [str(r.play) for r in mine]
    ['8/5 6/5', '24/23 13/10']
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
            probs, depth, value, _ = rank_plays(as_evaluator(None), children, ply, state, rules)
            order = play_order(depth, value, probs).tolist()
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
    """The answer of :func:`rollout_cube`.

    Equities are the side on roll's: in money play per unit of the
    current cube, in a match in normalised match equity.

    Attributes
    ----------
    action : str
        The right action of the side on roll, as
        :func:`~backgammon.cube.cube_decision` names it: one of
        :data:`~backgammon.cube.ACTIONS` (``"no double"``,
        ``"double, take"``, ``"too good to double"``, ...).
    take : str
        The opponent's right answer to a double: ``"take"``, ``"pass"``
        or ``"beaver"``.
    no_double, double_take, double_pass : float
        The equity of each action (double/pass is exact: +1).
    no_double_se, double_take_se : float
        Their standard errors.
    difference_se : float
        The standard error of ``double_take - no_double`` (same dice):
        that of the per-game differences, about 0.55 of
        sqrt(no_double_se^2 + double_take_se^2) (0.35 to 0.90 over
        published positions; ``benchmarks/difference_se.py``).
    errors : dict
        What each action loses to the best, by name (``"no double"``,
        ``"double, take"``, ``"double, pass"``).
    mwc : tuple or None
        In a match, the match winning chances of the three actions.
    no_double_rollout, double_take_rollout : RolloutResult
        The two rollouts.

    Examples
    --------
    >>> import backgammon as bg
    >>> r = bg.rollout_cube(bg.Position.initial(), games=36, seed=1, workers=1)
    >>> r.double_pass, r.mwc, sorted(r.errors)
    (1.0, None, ['double, pass', 'double, take', 'no double'])
    """

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
    """Roll out the cube decision of the side on roll, before it rolls.

    No double (play goes on cubefully; the side may not double this turn)
    and double/take (the cube doubled and owned by the other side) are
    rolled out on the same dice; double/pass is exact.

    Parameters
    ----------
    position : Position
        The position, the side on roll about to decide.
    state : MatchState, optional
        The cube, the score and the match length, player 0 being the side
        on roll; default money play with a centred cube.
    games, policy, cube_policy, seed, stratify, truncate, bearoff, variance_reduction, rules, workers, executor, progress, chunk_size
        As in :func:`rollout`.

    Returns
    -------
    CubeRollout
        The three equities, the right action and what the others lose.

    Raises
    ------
    ValueError
        The side on roll may not double in ``state`` (it does not own the
        cube, the Crawford game, a dead cube...), or an option
        :func:`rollout` refuses.

    Notes
    -----
    The rollout is as good as its players. With the default (the network
    at 0-ply) bear-ins and one-roll shots come out well below published
    XG rollouts, which search their plays; ``policy="net:1"`` (3 to 6
    times the CPU time) comes within a median 0.019 of XG's no double and
    double/take on the issue-40 positions of
    ``benchmarks/published_rollouts.py`` (docs/guide/correctness.md).

    See Also
    --------
    backgammon.cube.cube_decision : the same decision from the network, at once.
    rollout : ``rollout(cube=True)`` gives one cubeful equity.

    Examples
    --------
    >>> import backgammon as bg
    >>> r = bg.rollout_cube(bg.Position.initial(), games=36, seed=1, workers=1)
    >>> # too few games to name the action
    >>> r.take, r.double_pass, r.no_double_rollout.games
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
