"""Match analysis: every checker play and cube decision of a match graded,
the luck of every roll, and one number per player for how well it played
(``backgammon analyse``).

A **checker play** is a decision when the roll has more than one legal
play (forced plays and dances are not).  Every play is valued for the side
that made it after the play, cubefully: the opponent, on roll with the
cube as it stands, makes its best cube action by the cube model of
:mod:`backgammon.cube` from the networks' chances searched ``ply`` deep
(gnubg's move filters); the value is an equity per unit of the cube in
money play and gnubg's normalised match equity in a match (-1: losing a
single game at this cube, +1: winning one), beside the match winning
chances.  The error of a play is the best play's value minus the played
one's.

A **cube decision** is every turn where the side on roll could double
(rolling instead is "no double") and every answer to a double: the three
cubeful equities of :func:`~backgammon.cube.cube_decision` at ``cube_ply``
give the proper action; the error is the proper action's value minus the
value of what was done, for the side that decided.

The **luck** of a roll is the value after the best play of that roll minus
the mean over all rolls, for the side that rolled, at 0-ply: the 21 rolls;
for the opening roll the 30 throws, 15 where this side moves first and 15
where the other side does (as gnubg counts it).

Errors are marked doubtful beyond 0.03, an error beyond 0.06, a blunder
beyond 0.12 (``THRESHOLDS``: gnubg 1.07's own marks and rule, ``show analysis``, the same
tuple as ``backgammon.statistics.GNUBG_MARKS``); gnubg's statistics with
those marks are :meth:`MatchAnalysis.statistics`.  A player's performance rating
(PR) is its average error per decision times 500, as eXtreme Gammon's
rating: lower is better; 0 is perfect play by the evaluator's lights.

>>> import backgammon as bg
>>> match = bg.Match(1, seed=3)
>>> game = match.new_game()
>>> while game.phase is bg.Phase.OPENING:
...     game.roll()
>>> game.play(game.legal_plays()[-1])
>>> a = analyse(match, workers=1)
>>> a.games[0].plays[0].skill in SKILLS, len(a.stats)
(True, 2)
"""
from __future__ import annotations

import json
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from ._parallel import tally
from ._validate import flag, instance, integer, optional_integer
from .cube import cube_decision
from .doubling import beavers_allowed
from .game import Game, Phase
from .match import Match
from .matchid import MatchState
from .position import Position
from .rules import Rules
from .luck import LUCK_THRESHOLDS, RollLuck, roll_luck  # noqa: F401  (LUCK_THRESHOLDS: its older home)
from .scoring import default_met
from .statistics import GNUBG_MARKS, MARKS, mark

__all__ = ["analyse", "MatchAnalysis", "GameAnalysis", "PlayAnalysis", "CubeAnalysis", "RollLuck",
           "PlayerStats", "THRESHOLDS", "SKILLS", "skill_of"]

#: Errors from these on are doubtful, an error, a blunder: gnubg 1.07's own
#: marks (0.03, 0.06, 0.12), the very tuple ``backgammon.statistics.GNUBG_MARKS``.
THRESHOLDS = GNUBG_MARKS
SKILLS = ("", "doubtful", "error", "blunder")
CANDIDATES = 5        # candidate plays kept per decision (and the played one)
CLOSE = 0.16          # a no double is a close decision when doubling costs less (gnubg's)


def skill_of(error: float, thresholds=THRESHOLDS) -> str:
    """The mark of an error: "", "doubtful", "error" or "blunder".

    Parameters
    ----------
    error : float
        What a decision lost, at least 0.
    thresholds : tuple of float, default THRESHOLDS
        The errors beyond which it is doubtful, an error, a blunder (as
        gnubg marks: :func:`backgammon.statistics.mark`).

    Returns
    -------
    str
        One of :data:`SKILLS`.

    Examples
    --------
    >>> skill_of(0.01), skill_of(0.05), skill_of(0.1), skill_of(0.3)
    ('', 'doubtful', 'error', 'blunder')
    """
    # gnubg's rule (statistics.mark): marked beyond a mark; the names are the analysis's own
    return SKILLS[("", *MARKS).index(mark(error, thresholds))]


# -- what an analysis holds -------------------------------------------------------------------

@dataclass(frozen=True)
class PlayAnalysis:
    """A graded checker play.

    Values are the mover's after the play, cubeful: equity per unit of
    the cube in money play, normalised match equity in a match.

    Attributes
    ----------
    game, action : int
        Where: the game's number and the action's place in its history,
        1-based.
    player : int
        Who made it.
    position_id, match_id : str
        The position (side on roll's view) and the Match ID before it.
    roll : tuple of int
        The dice.
    played, best : str
        The play made and the best play, in notation.
    played_equity, best_equity : float
        Their values.
    error : float
        ``best_equity - played_equity``, at least 0.
    error_mwc : float or None
        The same in match winning chances (None in money play).
    candidates : list
        The best few plays and the played one: (notation, value).
    plays : int
        How many legal plays there were.
    skill : str
        The mark, one of :data:`SKILLS`.
    ply : int
        The depth searched (-1: graded by rollout).

    Examples
    --------
    >>> import backgammon as bg
    >>> g = bg.Game(seed=2); g.roll((4, 2)); g.play("24/20 24/22")
    >>> p = analyse(g, ply=0, workers=1).games[0].plays[0]
    >>> (p.game, p.action, p.played, p.best, p.skill)
    (1, 2, '24/22 24/20', '8/4 6/4', 'blunder')
    """

    game: int
    action: int
    player: int
    position_id: str
    match_id: str
    roll: tuple
    played: str
    best: str
    played_equity: float
    best_equity: float
    error: float
    error_mwc: float | None
    candidates: tuple
    plays: int
    skill: str
    ply: int


@dataclass(frozen=True)
class CubeAnalysis:
    """A graded cube decision.

    Attributes
    ----------
    game, action_index : int
        Where: the game's number and the action's place in its history.
    player : int
        The side that decided.
    position_id, match_id : str
        The position and the Match ID at the decision.
    kind : str
        ``"double"`` (the side on roll could double) or ``"take"`` (the
        doubled side answered).
    action : str
        What was done: ``"double"`` or ``"no double"``; ``"take"``,
        ``"pass"`` or ``"beaver"``.
    proper : str
        The proper action, as :func:`~backgammon.cube.cube_decision`
        names it.
    no_double, double_take, double_pass : float
        The three cubeful equities, from the doubler's side.
    error, error_mwc : float
        What the decision lost (and in match winning chances; None in
        money play).
    skill : str
        The mark, one of :data:`SKILLS`.
    close : bool
        A double was made, or would have been right, or doubling costs
        less than a blunder: the decisions a performance rating counts.
    ply : int
        The depth searched.
    chances : tuple of float
        The doubler's cubeless chances.
    mwc : tuple of float or None
        In a match, the match winning chances of the three actions.
    """

    game: int
    action_index: int
    player: int
    position_id: str
    match_id: str
    kind: str
    action: str
    proper: str
    no_double: float
    double_take: float
    double_pass: float
    error: float
    error_mwc: float | None
    skill: str
    close: bool
    ply: int
    chances: tuple = ()
    mwc: tuple | None = None


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures over a game or a match.

    Attributes
    ----------
    name : str
        The player.
    checker_decisions : int
        Unforced checker plays.
    checker_error, checker_error_mwc : float
        Their total error (equity; match winning chances).
    cube_decisions : int
        Close or actual cube decisions.
    cube_error, cube_error_mwc : float
        Their total error.
    doubtful, errors, blunders : int
        The marks, over both kinds of decision.
    rolls : int
        Rolls whose luck is counted.
    luck, luck_mwc : float
        The luck summed over them.
    pr : float
        The performance rating: average error per decision x 500.
    luck_rate : float or None
        The luck per roll in EMG (gnubg's luck rate; None without a roll).
    luck_rating : str
        gnubg's luck rating of that rate, a label ("Go to bed" ...
        "Go to Las Vegas", :func:`backgammon.statistics.luck_rating`), as
        gnubg's statistics name it.

    Examples
    --------
    >>> import backgammon as bg
    >>> g = bg.Game(seed=2); g.roll((4, 2)); g.play("24/20 24/22")
    >>> s = analyse(g, ply=0, workers=1).stats[0]
    >>> s.checker_decisions, round(s.pr, 1) > 0
    (1, True)
    """

    name: str
    checker_decisions: int = 0
    checker_error: float = 0.0
    checker_error_mwc: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    cube_error_mwc: float = 0.0
    doubtful: int = 0
    errors: int = 0
    blunders: int = 0
    rolls: int = 0
    luck: float = 0.0
    luck_mwc: float = 0.0

    @property
    def decisions(self) -> int:
        return self.checker_decisions + self.cube_decisions

    @property
    def total_error(self) -> float:
        return self.checker_error + self.cube_error

    @property
    def pr(self) -> float:
        """Performance rating: average error per decision x 500 (lower is better)."""
        return _per(500.0 * self.total_error, self.decisions)

    @property
    def checker_pr(self) -> float:
        return _per(500.0 * self.checker_error, self.checker_decisions)

    @property
    def cube_pr(self) -> float:
        return _per(500.0 * self.cube_error, self.cube_decisions)

    @property
    def luck_rate(self) -> float | None:
        """The luck per roll in EMG, positive when the dice favoured the
        player (gnubg's luck rate); None when no roll was counted."""
        return self.luck / self.rolls if self.rolls else None

    @property
    def luck_rating(self) -> str:
        """gnubg's luck rating of :attr:`luck_rate`: a label, "Go to bed" to
        "Go to Las Vegas" (issue 40: gnubg's name means gnubg's label)."""
        from .statistics import luck_rating
        return luck_rating(self.luck_rate)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(decisions=self.decisions, total_error=self.total_error, pr=self.pr, checker_pr=self.checker_pr,
                 cube_pr=self.cube_pr, luck_rate=self.luck_rate, luck_rating=self.luck_rating)
        return d


def _per(total: float, count: int) -> float:
    return total / count if count else 0.0


def _stats(name: str, player: int, plays, cubes, luck) -> PlayerStats:
    mine_p = [p for p in plays if p.player == player]
    mine_c = [c for c in cubes if c.player == player and c.close]
    mine_l = [r for r in luck if r.player == player]
    marks = [d.skill for d in mine_p] + [c.skill for c in cubes if c.player == player]
    return PlayerStats(
        name=name, checker_decisions=len(mine_p), checker_error=sum(p.error for p in mine_p),
        checker_error_mwc=sum(p.error_mwc or 0.0 for p in mine_p), cube_decisions=len(mine_c),
        cube_error=sum(c.error for c in mine_c), cube_error_mwc=sum(c.error_mwc or 0.0 for c in mine_c),
        doubtful=marks.count("doubtful"), errors=marks.count("error"), blunders=marks.count("blunder"),
        rolls=len(mine_l), luck=sum(r.luck for r in mine_l), luck_mwc=sum(r.luck_mwc or 0.0 for r in mine_l))


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of one game.

    Attributes
    ----------
    number : int
        The game's number, from 1.
    score : tuple of int
        The score before it.
    crawford : bool
        Whether it is the Crawford game.
    plays : list of PlayAnalysis
        The graded checker plays, in order.
    cubes : list of CubeAnalysis
        The graded cube decisions, in order.
    luck : list of RollLuck
        Every roll's luck, in order.
    winner, points : int or None
        Who won and how many points (None while unfinished).
    stats : tuple of PlayerStats
        Each player's figures in this game.
    """

    number: int
    score: tuple
    crawford: bool
    plays: tuple
    cubes: tuple
    luck: tuple
    winner: int | None
    points: int
    stats: tuple


@dataclass(frozen=True)
class MatchAnalysis:
    """The analysis of a match, a money session or one game.

    :meth:`errors` lists the plays and cube decisions that lost at least
    a threshold; :meth:`report` is the text players read (``backgammon
    analyse``); :meth:`statistics` gnubg's statistics; ``to_dict()`` and
    ``to_json()`` everything.

    Attributes
    ----------
    players : tuple of str
        The players' names.
    length : int
        The match length (0: money).
    games : list of GameAnalysis
        Every game's analysis.
    stats : tuple of PlayerStats
        Each player's figures over all games.
    ply, cube_ply : int
        The search depths of checker plays and cube decisions.
    seconds : float
        Time taken.
    rollout : RolloutSettings or None
        How doubtful decisions were rolled out, if they were.
    thresholds : tuple of float
        The marks (doubtful, bad, very bad) the decisions were graded by.

    Examples
    --------
    >>> import backgammon as bg
    >>> m = bg.Match(0, seed=2)
    >>> g = m.new_game()
    >>> g.roll((4, 2)); g.play("24/20 24/22")
    >>> a = analyse(m, workers=1)
    >>> a.games[0].plays[0].best, a.games[0].plays[0].error > THRESHOLDS[1]
    ('8/4 6/4', True)
    """

    players: tuple
    length: int
    games: tuple
    stats: tuple
    ply: int
    cube_ply: int
    seconds: float = 0.0
    rollout: bool = False
    thresholds: tuple = THRESHOLDS

    def errors(self, threshold: float = THRESHOLDS[0]) -> list:
        out: list = []
        for g in self.games:
            out += [d for d in g.plays if d.error >= threshold - 1e-12]
            out += [c for c in g.cubes if c.error >= threshold - 1e-12]
        return sorted(out, key=lambda d: (d.game, d.action if isinstance(d, PlayAnalysis) else d.action_index))

    def statistics(self, marks=None):
        """gnubg's statistics of this analysis (:mod:`backgammon.statistics`);
        marks default to the analysis's own (``analyse``'s ``thresholds``,
        by default gnubg 1.07's 0.03, 0.06, 0.12), so that the report's
        marks and its statistics' are one set."""
        from .statistics import statistics
        return statistics(self, self.thresholds if marks is None else marks)

    def to_dict(self) -> dict:
        return {"players": list(self.players), "length": self.length, "ply": self.ply, "cube_ply": self.cube_ply,
                "rollout": self.rollout, "seconds": round(self.seconds, 3), "thresholds": list(self.thresholds),
                "stats": [s.to_dict() for s in self.stats], "statistics": self.statistics().to_dict(),
                "games": [{"number": g.number, "score": list(g.score), "crawford": g.crawford, "winner": g.winner,
                           "points": g.points, "stats": [s.to_dict() for s in g.stats],
                           "plays": [asdict(p) for p in g.plays], "cubes": [asdict(c) for c in g.cubes],
                           "luck": [asdict(r) for r in g.luck]} for g in self.games]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def report(self, threshold: float = THRESHOLDS[0], diagrams: bool = True) -> str:
        """The analysis as text: a summary table per player, then every play
        or cube decision that lost at least ``threshold`` (with the position
        before it)."""
        unit = "normalised match equity" if self.length else "equity per unit of the cube"
        kind = f"{self.length}-point match" if self.length else "money session"
        lines = [f"Analysis of a {kind} ({len(self.games)} game{'s' if len(self.games) != 1 else ''}): "
                 f"checker play at {self.ply}-ply, cube decisions at {self.cube_ply}-ply"
                 + (", errors checked by rollouts" if self.rollout else "") + f"; errors in {unit}.", ""]
        rows = [("", *self.players),
                ("Checker decisions", *(str(s.checker_decisions) for s in self.stats)),
                ("Checker error", *(f"{s.checker_error:.3f}" for s in self.stats)),
                ("Checker PR", *(f"{s.checker_pr:.1f}" for s in self.stats)),
                ("Cube decisions", *(str(s.cube_decisions) for s in self.stats)),
                ("Cube error", *(f"{s.cube_error:.3f}" for s in self.stats)),
                ("Doubtful", *(str(s.doubtful) for s in self.stats)),
                ("Errors", *(str(s.errors) for s in self.stats)),
                ("Blunders", *(str(s.blunders) for s in self.stats)),
                ("Error (MWC %)", *(f"{100 * (s.checker_error_mwc + s.cube_error_mwc):.2f}" if self.length else "-"
                                    for s in self.stats)),
                ("Performance rating", *(f"{s.pr:.1f}" for s in self.stats)),
                ("Luck (total)", *(f"{s.luck:+.3f}" for s in self.stats)),
                ("Luck rate (mEMG)", *("-" if s.luck_rate is None else f"{1000 * s.luck_rate:+.1f}"
                                       for s in self.stats)),
                ("Luck rating", *(s.luck_rating for s in self.stats))]
        width = max(12, *(len(c) for r in rows for c in r[1:]))
        for r in rows:
            lines.append(f"{r[0]:<20}" + "".join(f"{c:>{width + 2}}" for c in r[1:]))
        lines += ["", self.statistics().report().rstrip("\n")]
        errors = self.errors(threshold)
        lines += ["", f"{len(errors)} play{'s' if len(errors) != 1 else ''} and cube decisions "
                      f"losing {threshold:.2f} or more:" if errors else "No play or cube decision lost "
                      f"{threshold:.2f} or more."]
        for d in errors:
            who = self.players[d.player]
            lines.append("")
            if isinstance(d, PlayAnalysis):
                lines.append(f"Game {d.game}, action {d.action}: {who} to play {d.roll[0]}{d.roll[1]} "
                             f"({d.skill or 'slip'}, loses {d.error:.3f})")
                if diagrams:
                    lines.append(str(Position.from_id(d.position_id)))
                lines.append(f"  Played: {d.played or '(no move)':<26}{d.played_equity:+.3f}")
                lines.append(f"  Best:   {d.best or '(no move)':<26}{d.best_equity:+.3f}")
            else:
                what = "cube action" if d.kind == "double" else "answer to a double"
                lines.append(f"Game {d.game}, action {d.action_index}: {who}'s {what} ({d.skill or 'slip'}, "
                             f"loses {d.error:.3f})")
                if diagrams:
                    lines.append(str(Position.from_id(d.position_id)))
                lines.append(f"  Done: {d.action}; proper: {d.proper}  (no double {d.no_double:+.3f}, "
                             f"double/take {d.double_take:+.3f}, double/pass {d.double_pass:+.3f})")
        return "\n".join(lines) + "\n"


def _double_value(d) -> tuple[float, float | None]:
    """The doubler's value of doubling, the opponent answering right."""
    if d.take == "pass":
        return d.double_pass, (d.mwc[2] if d.mwc else None)
    if d.take == "beaver":
        return 2 * d.double_take, (d.mwc[1] if d.mwc else None)
    return d.double_take, (d.mwc[1] if d.mwc else None)


# -- one game ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _GameTask:
    number: int
    length: int
    rules: Rules
    score: tuple
    crawford: bool
    events: tuple
    ply: int
    cube_ply: int
    evaluator: Any
    players: tuple
    thresholds: tuple = THRESHOLDS


def _game_for(task: _GameTask) -> Game:
    if task.length:
        match = Match(task.length, rules=task.rules, score=task.score, crawford=task.crawford)
    else:
        match = Match(0, rules=task.rules)
    return match.new_game()


def _analyse_game(task: _GameTask) -> GameAnalysis:
    """Grade one game (module level: workers run it)."""
    from .cube_search import play_values, rank_plays
    from .evaluator import as_evaluator
    ev = as_evaluator(task.evaluator)
    met = default_met()
    g = _game_for(task)
    plays: list[PlayAnalysis] = []
    cubes: list[CubeAnalysis] = []
    luck_points: list[tuple] = []          # (action, player, position, dice, state, opening)
    pending: Any = None                    # the doubler's decision, for the answer
    rolled: Any = None                     # the last roll: (player, position, dice, state, opening)
    counted = tally()                      # actions graded, for the progress bar
    setboards: set = set()                 # the actions that set the board
    for number, event in enumerate(task.events, 1):
        counted[0] = number - 1
        phase, pos, state = g.phase, g.position, g.match_state()
        kind = event.kind
        if kind == "roll" and phase in (Phase.TURN, Phase.PLAY):
            # Every roll has its luck, a roll that cannot be played too (gnubg counts both);
            # in PLAY, the opening winner's second roll (Rules.opening_reroll).
            rolled = (g.on_roll, pos, tuple(int(d) for d in event.value), state, False)
        # A set board (a play the rules refuse, kept as its board): its roll has its luck, as gnubg
        # records it on a MOVE_SETDICE (its statistics count it nowhere: RollLuck.setboard); the
        # play is not graded.
        if kind in ("play", "setboard") and rolled is not None:
            # The luck is the play's line, as gnubg's records keep it on the move.
            luck_points.append((number, rolled[0], *rolled[1:]))
            if kind == "setboard":
                setboards.add(number)
            rolled = None
        if phase is Phase.TURN and kind in ("roll", "double") and g.can_double().allowed:
            me = g.on_roll
            d = cube_decision(pos, state, task.rules, ply=task.cube_ply, evaluator=ev, met=met)
            cubes.append(_grade_double(task.number, number, me, pos, state, d, kind == "double", task.cube_ply,
                                       task.thresholds))
            pending = d
        elif phase in (Phase.DOUBLED, Phase.BEAVERED) and kind in ("take", "drop", "beaver") and pending is not None:
            cubes.append(_grade_answer(task.number, number, g.turn, pos, state, pending, kind, task.cube_ply,
                                       task.rules, task.thresholds))
            pending = None
        elif kind == "play" and phase is Phase.PLAY:
            me = g.on_roll
            graded = _grade_play(task.number, number, me, pos, g.dice, state, event.value, ev, task.ply,
                                 task.rules, met, rank_plays, play_values, task.thresholds)
            if graded is not None:
                plays.append(graded)
        g.apply(event)
        if kind == "opening" and g.phase is Phase.PLAY:
            # The opening roll: the mover's luck over the 30 throws (the module).
            rolled = (g.on_roll, g.position, g.dice, g.match_state(), True)
    luck = [replace(r, setboard=True) if r.action in setboards else r
            for r in roll_luck(task.number, luck_points, task.rules, ev, met)]
    o = g.outcome
    stats = tuple(_stats(name, k, plays, cubes, luck) for k, name in enumerate(task.players))
    return GameAnalysis(task.number, tuple(task.score), task.crawford, tuple(plays), tuple(cubes), tuple(luck),
                        None if o is None else o.winner, 0 if o is None else o.points, stats)


def _grade_play(game, action, me, pos, dice, state, played_text, ev, ply, rules, met, rank, play_values, thresholds):
    from .cube_search import ANALYSIS_FILTER
    legal = pos.legal_plays(dice)
    if len(legal) <= 1:
        return None
    children = np.ascontiguousarray(legal.positions)
    played_board = pos.play(played_text, dice).to_bytes() if played_text else None
    k = legal.find(played_board) if played_board is not None else -1
    if k < 0:
        raise ValueError(f"game {game}, action {action}: the play {played_text!r} is not legal here")
    # Ranked by the cubeful value at the score as hint ranks them, with gnubg's analysis filter (the
    # 16 best within 0.32 at 0-ply searched ``ply`` deep; its hint keeps 8 within 0.16).
    probs, depth, values, mwc = rank(ev, children, ply, state, rules, met, keep=ANALYSIS_FILTER)
    deepest = int(depth.max())
    if depth[k] < deepest:                              # the played play at the depth of the best
        p, v, m = play_values(ev, children[k:k + 1], deepest, state, rules, met)
        probs[k], values[k] = p[0], v[0]
        if mwc is not None:
            mwc[k] = m[0]
        depth[k] = deepest
    top = np.flatnonzero(depth == deepest)
    best = int(top[np.argmax(values[top])])
    if values[k] > values[best]:
        best = k
    error = max(0.0, float(values[best] - values[k]))
    error_mwc = None if mwc is None else max(0.0, float(mwc[best] - mwc[k]))
    order = sorted(top.tolist(), key=lambda i: -values[i])[:CANDIDATES]
    if k not in order:
        order.append(k)
    cands = tuple((str(legal[i]), float(values[i]), tuple(float(v) for v in probs[i])) for i in order)
    return PlayAnalysis(game, action, me, pos.to_id(), state.to_match_id(), tuple(dice), str(legal[k]),
                        str(legal[best]), float(values[k]), float(values[best]), error, error_mwc, cands,
                        len(legal), skill_of(error, thresholds), deepest)


def _grade_double(game, action, me, pos, state, d, doubled, ply, thresholds=THRESHOLDS) -> CubeAnalysis:
    nd = d.no_double
    dv, dv_mwc = _double_value(d)
    best_value = max(nd, dv)
    taken = dv if doubled else nd
    error = max(0.0, best_value - taken)
    error_mwc = None
    if d.mwc:
        best_m = max(d.mwc[0], dv_mwc)
        error_mwc = max(0.0, best_m - (dv_mwc if doubled else d.mwc[0]))
    close = doubled or dv >= nd or nd - dv < CLOSE
    return CubeAnalysis(game, action, me, pos.to_id(), state.to_match_id(), "double",
                        "double" if doubled else "no double", d.action, d.no_double, d.double_take, d.double_pass,
                        error, error_mwc, skill_of(error, thresholds), close, ply, _chances(d), _mwc(d))


def _grade_answer(game, action, who, pos, state, d, kind, ply, rules, thresholds=THRESHOLDS) -> CubeAnalysis:
    options = {"take": -d.double_take, "drop": -d.double_pass}
    mwc_options = {"take": 1 - d.mwc[1], "drop": 1 - d.mwc[2]} if d.mwc else None
    if beavers_allowed(not state.match_length, rules):
        options["beaver"] = -2 * d.double_take
        if mwc_options is not None:
            mwc_options["beaver"] = mwc_options["take"]
    best = max(options, key=lambda a: options[a])
    value = options.get(kind, options["take"])
    error = max(0.0, options[best] - value)
    error_mwc = None
    if mwc_options is not None:
        error_mwc = max(0.0, max(mwc_options.values()) - mwc_options.get(kind, mwc_options["take"]))
    names = {"take": "take", "drop": "pass", "beaver": "beaver"}
    return CubeAnalysis(game, action, who, pos.to_id(), state.to_match_id(), "take", names[kind], names[best],
                        d.no_double, d.double_take, d.double_pass, error, error_mwc, skill_of(error, thresholds), True,
                        ply, _chances(d), _mwc(d))


def _chances(d) -> tuple:
    return tuple(float(v) for v in (getattr(d, "probabilities", ()) or ()))


def _mwc(d) -> tuple | None:
    m = getattr(d, "mwc", None)
    return None if m is None else tuple(float(v) for v in m)


# -- the whole match -----------------------------------------------------------------------------

def _tasks(source, ply, cube_ply, evaluator, players, thresholds=THRESHOLDS):
    from .formats.record import MatchRecord
    if isinstance(source, Game):
        match_len = source.length
        rules = source.rules
        names = players or ("Player 0", "Player 1")
        return names, match_len, [_GameTask(1, match_len, rules, tuple(source.score), source.crawford,
                                            tuple(source.history), ply, cube_ply, evaluator, tuple(names),
                                            thresholds)]
    if isinstance(source, MatchRecord):
        record = source
        match = record.replay()
        names = players or tuple(record.players)
        events = [tuple(g.events) for g in record.games]
    elif isinstance(source, Match):
        match = source
        names = players or ("Player 0", "Player 1")
        events = [tuple(g.history) for g in match.games]
    else:
        raise TypeError(f"source must be a backgammon.MatchRecord, Match or Game, not {type(source).__name__}")
    names = tuple(str(n) for n in names)
    tasks = [_GameTask(k + 1, match.length, match.rules, tuple(g.score), bool(g.crawford), ev_k, ply, cube_ply,
                       evaluator, names, thresholds) for k, (g, ev_k) in enumerate(zip(match.games, events))]
    return names, match.length, tasks


def analyse(source, *, ply: int = 2, cube_ply: int | None = None, rollout=None, threshold: float = THRESHOLDS[1],
            workers: int | None = None, executor: Executor | None = None, progress: bool = False, evaluator=None,
            players=None, thresholds=THRESHOLDS) -> MatchAnalysis:
    """Grade every checker play and cube decision of a match, and the luck
    of every roll (the module says how).

    Parameters
    ----------
    source : MatchRecord, Match or Game
        What to analyse, finished or not: a record from any reader
        (``read_mat``, ``read_sgf``, ``formats.read_match``...), a
        :class:`~backgammon.match.Match` or a
        :class:`~backgammon.game.Game`.
    ply : int, default 2
        The depth of checker-play evaluation, 0-2 (2 as gnubg's
        analysis; 0 is the fastest).
    cube_ply : int, optional
        The depth of cube decisions, a search on cubeful values as
        gnubg's; default ``ply``.
    rollout : RolloutSettings, optional
        Roll out again every play and cube decision that lost
        ``threshold`` or more (``rollout_plays``, ``rollout_cube``) and
        grade it by the rollout.
    threshold : float, default 0.06
        The error from which ``rollout`` checks a decision
        (``THRESHOLDS[1]``, gnubg's bad mark).
    workers : int, optional
        Local processes splitting the games; default all cores.
    executor : concurrent.futures.Executor, optional
        Splits the games instead.
    progress : bool, default False
        Show a progress bar.
    evaluator : Evaluator, optional
        Default the shipped networks.
    players : pair of str, optional
        The players' names; default the record's.
    thresholds : tuple of float, default THRESHOLDS (0.03, 0.06, 0.12)
        The errors from which a decision is doubtful, an error, a blunder
        (gnubg 1.07's own marks).

    Returns
    -------
    MatchAnalysis

    Raises
    ------
    ValueError
        ``ply`` or ``cube_ply`` not 0-2, thresholds not three increasing
        positive errors.
    TypeError
        A ``source`` of another type, ``players`` not a pair of names.

    See Also
    --------
    backgammon.formats.read_match : a match file of any format, by path.
    MatchAnalysis.statistics : gnubg's statistics of the analysis.

    Examples
    --------
    A match file by its path (here one written for the example):

    >>> import os, tempfile, backgammon as bg
    >>> path = os.path.join(tempfile.mkdtemp(), "duel.mat")
    >>> games = bg.duel("net", "pubeval", games=2, seed=1, workers=1, record=True)
    >>> _ = open(path, "w").write(bg.write_mat(games))
    >>> a = bg.analyse(bg.read_mat(path), ply=0, workers=1)
    >>> a.players, len(a.games)
    (('net', 'pubeval'), 2)

    A match being played:

    >>> import backgammon as bg
    >>> m = bg.Match(1, seed=4)
    >>> g = m.new_game()
    >>> while g.phase is bg.Phase.OPENING:
    ...     g.roll()
    >>> g.play(g.legal_plays()[0])
    >>> analyse(m, workers=1).stats[0].name
    'Player 0'
    """
    import time
    from ._parallel import run_chunks
    ply = integer("ply", ply, low=0, high=2)
    cube_ply = ply if cube_ply is None else integer("cube_ply", cube_ply, low=0, high=2)
    workers = optional_integer("workers", workers, low=1)
    progress = flag("progress", progress)
    if executor is not None:
        instance("executor", executor, Executor, "concurrent.futures.Executor")
    if players is not None and (isinstance(players, str) or len(players) != 2):
        raise TypeError("players must be a pair of names")
    from .evaluator import as_evaluator
    ev = as_evaluator(evaluator)
    thresholds = tuple(float(t) for t in thresholds)
    if len(thresholds) != 3 or not 0 < thresholds[0] <= thresholds[1] <= thresholds[2]:
        raise ValueError(f"thresholds must be three increasing positive errors, not {thresholds}")
    names, length, tasks = _tasks(source, ply, cube_ply, ev, players, thresholds)
    t0 = time.perf_counter()
    games = run_chunks(_analyse_game, tasks, [max(1, len(t.events)) for t in tasks], workers=workers,
                       executor=executor, progress=progress, unit="action") if tasks else []
    if rollout is not None:
        games = [_by_rollout(g, t, rollout, threshold) for g, t in zip(games, tasks)]
    plays = [p for g in games for p in g.plays]
    cubes = [c for g in games for c in g.cubes]
    luck = [r for g in games for r in g.luck]
    stats = tuple(_stats(name, k, plays, cubes, luck) for k, name in enumerate(names))
    return MatchAnalysis(tuple(names), length, tuple(games), stats, ply, cube_ply, time.perf_counter() - t0,
                         rollout is not None, thresholds)


def _by_rollout(game: GameAnalysis, task: _GameTask, settings, threshold: float) -> GameAnalysis:
    """Re-grade the plays and cube decisions of ``game`` that lost
    ``threshold`` or more by rollouts of their candidates."""
    from .rollouts import RolloutSettings, rollout_cube, rollout_plays
    instance("rollout", settings, RolloutSettings, "backgammon.rollouts.RolloutSettings")
    options = settings.options()
    plays = []
    for p in game.plays:
        if p.error < threshold - 1e-12:
            plays.append(p)
            continue
        pos = Position.from_id(p.position_id)
        state = MatchState.from_match_id(p.match_id).with_rules(task.rules)   # a Match ID holds no beavers
        names = [c[0] for c in p.candidates]
        ranked = rollout_plays(pos, p.roll, names, state=state, rules=task.rules, cube=True, **options)
        by_name = {str(r.play): r.equity for r in ranked}
        chances_of = {str(r.play): (r.result.win, r.result.win_gammon, r.result.win_backgammon,
                                    r.result.lose_gammon, r.result.lose_backgammon) for r in ranked}
        best = ranked[0]
        error = max(0.0, best.equity - by_name[p.played])
        plays.append(PlayAnalysis(p.game, p.action, p.player, p.position_id, p.match_id, p.roll, p.played,
                                  str(best.play), by_name[p.played], best.equity, error, None,
                                  tuple((n, by_name[n], chances_of[n]) for n in names), p.plays,
                                  skill_of(error, task.thresholds), -1))
    cubes = []
    for c in game.cubes:
        if c.error < threshold - 1e-12:
            cubes.append(c)
            continue
        pos = Position.from_id(c.position_id)
        state = MatchState.from_match_id(c.match_id).with_rules(task.rules)
        if c.kind == "take":
            state = state.replace(turn=state.on_roll, double_offered=False)
        d = rollout_cube(pos, state, rules=task.rules, **options)
        fake = _RolledDecision(d)
        if c.kind == "double":
            graded = _grade_double(c.game, c.action_index, c.player, pos, state, fake, c.action == "double", -1,
                                   task.thresholds)
        else:
            graded = _grade_answer(c.game, c.action_index, c.player, pos, state, fake,
                                   {"take": "take", "pass": "drop", "beaver": "beaver"}[c.action], -1, task.rules,
                                   task.thresholds)
        cubes.append(graded)
    stats = tuple(_stats(name, k, plays, cubes, game.luck) for k, name in enumerate(task.players))
    return GameAnalysis(game.number, game.score, game.crawford, tuple(plays), tuple(cubes), game.luck, game.winner,
                        game.points, stats)


class _RolledDecision:
    """A rollout's cube decision seen as a CubeDecision (the fields grading reads)."""

    def __init__(self, d):
        self.no_double, self.double_take, self.double_pass = d.no_double, d.double_take, d.double_pass
        self.take = d.take
        self.action = d.action
        self.can_double = True
        self.mwc = None

