"""gnubg's statistics of an analysed match: the figures GNU Backgammon's
``show statistics match`` prints, with its names and scales, from a
:class:`~backgammon.analysis.MatchAnalysis`.

Per player, over the match and over each game:

- **checker play**: total moves (every roll played, forced ones and dances
  too), unforced moves (the decisions), moves marked doubtful, bad and
  very bad, the error total in EMG (normalised equity, per unit of the
  cube) and in MWC (match winning chances; points in money play), the
  error rate in mEMG per unforced move, and the rating;
- **luck**: rolls marked very lucky, lucky, unmarked, unlucky and very
  unlucky (beyond +-0.6 and +-0.3), the luck total and the luck rate per
  move, and the luck rating ("Go to bed" ... "Go to Las Vegas");
- **cube**: total cube decisions, close or actual ones (the rate's
  denominator), doubles, takes, passes; missed doubles below and above the
  cash point, wrong doubles below the double point and above the too-good
  point, wrong takes, wrong passes (each a count and its error); the cube
  marks (doubtful, bad, very bad) counted apart from the checker marks; the
  error total, the rate per close decision and the rating;
- **overall**: the error total and rate per decision, the Snowie error rate
  (the total per move of both players), the overall rating, the actual
  and the luck-adjusted result; in a match the luck-based FIBS rating
  difference and the error-based absolute FIBS rating (2050 less the
  checker and cube rating losses, Kees van den Doels's formula as gnubg
  applies it); in a money session of several games the advantage per game.

Ratings name the error rate per decision (EMG): Supernatural below 0.002,
World class below 0.005, Expert below 0.008, Advanced below 0.012,
Intermediate below 0.018, Casual player below 0.026, Beginner below 0.035,
else Awful!.  Marks default to gnubg 1.07's own (``show analysis``:
doubtful 0.030, bad 0.060, very bad 0.120); an error is marked when it
exceeds the mark, as gnubg's.  Our performance rating (``PlayerStats.pr``)
is the overall error rate in mEMG divided by 2 (500 x the error per
decision against gnubg's 1000 x).

gnubg computes the same figures from the same decisions: an analysis
written into an SGF (``write_sgf(record, analysis=...)``) and loaded in
gnubg gives these figures in its ``show statistics match``
(tests/test_statistics.py).

>>> import backgammon as bg
>>> from backgammon.analysis import analyse
>>> m = bg.Match(0, seed=2)
>>> g = m.new_game()
>>> g.roll((4, 2)); g.play("24/20 24/22")
>>> s = statistics(analyse(m, workers=1))
>>> p = s.players[0]
>>> p.unforced_moves, p.checker_marks["very bad"], p.checker_rating
(1, 1, 'Awful!')
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from ._validate import number
from .matchid import MatchState

__all__ = ["statistics", "MatchStatistics", "PlayerStatistics", "GameStatistics", "CubeErrors", "rating",
           "luck_rating", "mark", "luck_mark", "GNUBG_MARKS", "LUCK_MARKS", "RATINGS", "RATING_LIMITS", "LUCK_RATINGS",
           "RATING_OFFSET"]

#: gnubg 1.07's marks (``show analysis``): doubtful, bad, very bad.
GNUBG_MARKS = (0.03, 0.06, 0.12)
#: gnubg's luck marks: lucky, very lucky (either sign).
LUCK_MARKS = (0.3, 0.6)
MARKS = ("doubtful", "bad", "very bad")
LUCK_LABELS = ("very lucky", "lucky", "unmarked", "unlucky", "very unlucky")
#: gnubg's ratings, worst first, and the error rates (EMG per decision) below which each from
#: Beginner on is reached.
RATINGS = ("Awful!", "Beginner", "Casual player", "Intermediate", "Advanced", "Expert", "World class",
           "Supernatural")
RATING_LIMITS = (0.035, 0.026, 0.018, 0.012, 0.008, 0.005, 0.002)
LUCK_RATINGS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
#: gnubg's offset of the error-based absolute FIBS rating.
RATING_OFFSET = 2050.0
CLOSE = 0.16     # a no double is a close decision when doubling costs less (gnubg's)


def rating(rate: float | None) -> str:
    """gnubg's rating of an error rate.

    Parameters
    ----------
    rate : float or None
        The error per decision in EMG, at least 0; None when there were
        no decisions.

    Returns
    -------
    str
        One of :data:`RATINGS`, or ``"n/a"`` for None.

    Examples
    --------
    >>> rating(0.0036), rating(0.0135), rating(0.3621), rating(None)
    ('World class', 'Intermediate', 'Awful!', 'n/a')
    """
    if rate is None:
        return "n/a"
    name = RATINGS[0]
    for k, limit in enumerate(RATING_LIMITS, 1):
        if rate < limit:
            name = RATINGS[k]
    return name


def luck_rating(rate: float | None, luck_marks=LUCK_MARKS) -> str:
    """gnubg's luck rating of a luck rate: ten times the rate against the
    luck marks.

    Parameters
    ----------
    rate : float or None
        The luck per move in EMG; None when no roll was counted.
    luck_marks : pair of float, default LUCK_MARKS
        Lucky and very lucky (either sign).

    Returns
    -------
    str
        One of :data:`LUCK_RATINGS`, or ``"n/a"`` for None.

    Examples
    --------
    >>> luck_rating(0.0209), luck_rating(-0.0369), luck_rating(0.07)
    ('None', 'Bad dice, man!', 'Go to Las Vegas')
    """
    if rate is None:
        return "n/a"
    # A Python float: ten times a numpy 1e308 is inf with no overflow warning.
    return LUCK_RATINGS[_luck_index(10.0 * number("rate", rate), luck_marks)]


def _luck_index(r: float, luck_marks) -> int:
    lucky, very = luck_marks
    if r > very:
        return 4
    if r > lucky:
        return 3
    if r < -very:
        return 0
    if r < -lucky:
        return 1
    return 2


def mark(error: float, marks=GNUBG_MARKS) -> str:
    """gnubg's mark of an error: "", "doubtful", "bad" or "very bad".

    Parameters
    ----------
    error : float
        What a decision lost, at least 0; marked when it exceeds a mark.
    marks : tuple of float, default GNUBG_MARKS
        Doubtful, bad, very bad.

    Returns
    -------
    str

    Examples
    --------
    >>> mark(0.02), mark(0.031), mark(0.07), mark(0.2)
    ('', 'doubtful', 'bad', 'very bad')
    """
    name = ""
    for label, limit in zip(MARKS, marks):
        if error > limit:
            name = label
    return name


def luck_mark(luck: float, luck_marks=LUCK_MARKS) -> str:
    """gnubg's mark of a roll's luck: "", "lucky", "very lucky", "unlucky"
    or "very unlucky" (beyond a mark, either sign).

    Parameters
    ----------
    luck : float
        The roll's luck, in equity, for the side that rolled.
    luck_marks : pair of float, default LUCK_MARKS
        Lucky, very lucky.

    Examples
    --------
    >>> luck_mark(0.1), luck_mark(-0.45), luck_mark(0.7), luck_mark(0.3)
    ('', 'unlucky', 'very lucky', '')
    """
    label = LUCK_LABELS[4 - _luck_index(luck, luck_marks)]
    return "" if label == "unmarked" else label


@dataclass(frozen=True)
class CubeErrors:
    """A kind of cube error: how many, and their total.

    Attributes
    ----------
    count : int
        How many.
    emg : float
        Their total in EMG.
    cost : float
        Their total in MWC (points in money play).

    Examples
    --------
    >>> CubeErrors().count
    0
    """

    count: int = 0
    emg: float = 0.0
    cost: float = 0.0

    def add(self, emg: float, cost: float) -> "CubeErrors":
        return CubeErrors(self.count + 1, self.emg + emg, self.cost + cost)


def _rate(total: float, n: int) -> float | None:
    return total / n if n else None


@dataclass(frozen=True)
class PlayerStatistics:
    """One player's gnubg figures over a game or a match.

    Totals are in EMG (``..._error``, ``luck``) and in MWC (``..._cost``:
    match winning chances in a match, points in money play); errors are
    positive (gnubg prints them negative).  Rates are per decision (per
    move for luck) in EMG, ``None`` where there was nothing to count;
    ``*_mrate`` give them in gnubg's mEMG.

    Attributes
    ----------
    name : str
        The player.
    total_moves, unforced_moves : int
        Every roll played (forced ones and dances too), and the
        decisions among them.
    checker_marks : dict
        Moves marked ``"doubtful"``, ``"bad"``, ``"very bad"``.
    checker_error, checker_cost : float
        The checker error total (EMG, MWC).
    rolls, luck, luck_cost
        The rolls counted and the luck total (EMG, MWC).
    total_cube, close_cube, doubles, takes, passes : int
        Cube decisions: all, close or actual ones (the rate's
        denominator), and what was done.
    missed_double_below_cp, missed_double_above_cp, wrong_double_below_dp, wrong_double_above_tg, wrong_take, wrong_pass : CubeErrors
        Each kind of cube error.
    cube_marks : dict
        Cube decisions marked, apart from the checker marks.
    actual_result, luck_adjusted_result : float
        The result, and the result with the luck taken out.
    snowie_error_rate : float
        The total error per move of both players.
    checker_rating, cube_rating, overall_rating, luck_rating : str
        gnubg's ratings (see :func:`rating`, :func:`luck_rating`).
    pr : float
        Our performance rating: the overall error rate in mEMG / 2.
    fibs_rating : float
        The error-based absolute FIBS rating (a match only).

    Examples
    --------
    >>> import backgammon as bg
    >>> from backgammon.analysis import analyse
    >>> g = bg.Game(seed=2); g.roll((4, 2)); g.play("24/20 24/22")
    >>> p = statistics(analyse(g, ply=0, workers=1)).players[0]
    >>> p.unforced_moves, p.checker_marks["very bad"], p.checker_rating
    (1, 1, 'Awful!')
    """

    name: str
    total_moves: int = 0
    unforced_moves: int = 0
    checker_marks: dict = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    checker_error: float = 0.0
    checker_cost: float = 0.0
    rolls: dict = field(default_factory=lambda: dict.fromkeys(LUCK_LABELS, 0))
    luck: float = 0.0
    luck_cost: float = 0.0
    total_cube: int = 0
    close_cube: int = 0
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    missed_double_below_cp: CubeErrors = CubeErrors()
    missed_double_above_cp: CubeErrors = CubeErrors()
    wrong_double_below_dp: CubeErrors = CubeErrors()
    wrong_double_above_tg: CubeErrors = CubeErrors()
    wrong_take: CubeErrors = CubeErrors()
    wrong_pass: CubeErrors = CubeErrors()
    cube_marks: dict = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    actual_result: float = 0.0
    luck_adjusted_result: float = 0.0
    snowie_error_rate: float | None = None
    length: int = 0

    # -- checker play --------------------------------------------------------------------
    @property
    def unmarked_moves(self) -> int:
        return self.total_moves - sum(self.checker_marks.values())

    @property
    def checker_rate(self) -> float | None:
        return _rate(self.checker_error, self.unforced_moves)

    @property
    def checker_rating(self) -> str:
        return rating(self.checker_rate)

    # -- cube ----------------------------------------------------------------------------
    def _cube_kinds(self):
        return (self.missed_double_below_cp, self.missed_double_above_cp, self.wrong_double_below_dp,
                self.wrong_double_above_tg, self.wrong_take, self.wrong_pass)

    @property
    def cube_error(self) -> float:
        return sum(k.emg for k in self._cube_kinds())

    @property
    def cube_cost(self) -> float:
        return sum(k.cost for k in self._cube_kinds())

    @property
    def cube_rate(self) -> float | None:
        return _rate(self.cube_error, self.close_cube)

    @property
    def cube_rating(self) -> str:
        return rating(self.cube_rate)

    # -- luck ------------------------------------------------------------------------------
    @property
    def luck_rate(self) -> float | None:
        return _rate(self.luck, self.total_moves)

    @property
    def luck_rating(self) -> str:
        return luck_rating(self.luck_rate)

    # -- overall ---------------------------------------------------------------------------
    @property
    def decisions(self) -> int:
        return self.unforced_moves + self.close_cube

    @property
    def error(self) -> float:
        return self.checker_error + self.cube_error

    @property
    def cost(self) -> float:
        return self.checker_cost + self.cube_cost

    @property
    def error_rate(self) -> float | None:
        return _rate(self.error, self.decisions)

    @property
    def overall_rating(self) -> str:
        return rating(self.error_rate)

    @property
    def pr(self) -> float | None:
        """Our performance rating: the error rate in mEMG / 2."""
        r = self.error_rate
        return None if r is None else 500.0 * r

    @property
    def checker_rating_loss(self) -> float | None:
        """FIBS rating lost to checker errors (a match): rate x (8798 + 25526 / length)."""
        r = self.checker_rate
        return None if r is None or not self.length else r * (8798.0 + 25526.0 / self.length)

    @property
    def cube_rating_loss(self) -> float | None:
        """FIBS rating lost to cube errors (a match): rate x (863 - 519 / length)."""
        r = self.cube_rate
        return None if r is None or not self.length else r * (863.0 - 519.0 / self.length)

    @property
    def fibs_rating(self) -> float | None:
        """The error-based absolute FIBS rating (a match): 2050 less both losses."""
        if not self.length or not self.decisions:
            return None
        return RATING_OFFSET - ((self.checker_rating_loss or 0.0) + (self.cube_rating_loss or 0.0))

    def to_dict(self) -> dict:
        d = asdict(self)
        for name in ("unmarked_moves", "checker_rate", "checker_rating", "cube_error", "cube_cost", "cube_rate",
                     "cube_rating", "luck_rate", "luck_rating", "decisions", "error", "cost", "error_rate",
                     "overall_rating", "pr", "checker_rating_loss", "cube_rating_loss", "fibs_rating"):
            d[name] = getattr(self, name)
        return d


@dataclass(frozen=True)
class GameStatistics:
    """One game's figures.

    Attributes
    ----------
    number : int
        The game's number, from 1.
    score : tuple of int
        The score before it.
    players : tuple of PlayerStatistics
        Each player's figures in this game.
    """

    number: int
    score: tuple
    players: tuple


@dataclass(frozen=True)
class MatchStatistics:
    """gnubg's statistics of an analysed match or money session.

    :meth:`report` is gnubg's text, ``to_dict()`` everything.

    Attributes
    ----------
    names : tuple of str
        The players.
    length : int
        The match length (0: money).
    players : tuple of PlayerStatistics
        Each player's figures over the match.
    games : list of GameStatistics
        The same per game.
    marks, luck_marks : tuple of float
        The marks used.
    luck_fibs_rating_difference : float
        In a match, the luck-based FIBS rating difference (player 0's,
        as gnubg prints it).

    Examples
    --------
    >>> import backgammon as bg
    >>> from backgammon.analysis import analyse
    >>> g = bg.Game(seed=2); g.roll((4, 2)); g.play("24/20 24/22")
    >>> s = statistics(analyse(g, ply=0, workers=1))
    >>> s.names, len(s.games), s.report().startswith("Statistics")
    (('Player 0', 'Player 1'), 1, True)
    """

    names: tuple
    length: int
    players: tuple
    games: tuple
    marks: tuple = GNUBG_MARKS
    luck_marks: tuple = LUCK_MARKS

    @property
    def luck_fibs_rating_difference(self) -> float | None:
        """gnubg's "Luck based FIBS rating diff.": from player 0's actual
        result less its luck and plus the opponent's (MWC), over the match
        length; None in money play or when the result leaves no rating."""
        if not self.length:
            return None
        a, b = self.players
        r = 0.5 + a.actual_result - a.luck_cost + b.luck_cost
        if not 0.0 < r < 1.0:
            return None
        return max(-2100.0, -2000.0 / math.sqrt(self.length) * math.log10(1.0 / r - 1.0))

    def advantage_per_game(self) -> tuple | None:
        """Money sessions of several games, each player's (actual points per
        game, its 95% interval, luck-adjusted points per game, its interval),
        as gnubg prints them: the interval is 1.96 standard errors of the
        per-game results (sample variance) around the session's total."""
        if self.length or len(self.games) < 2:
            return None
        n = len(self.games)
        out = []
        for k, p in enumerate(self.players):
            row: list = []
            for total, per_game in ((p.actual_result, [g.players[k].actual_result for g in self.games]),
                                    (p.luck_adjusted_result, [g.players[k].luck_adjusted_result for g in self.games])):
                mean = total / n
                var = sum((x - mean) ** 2 for x in per_game) / (n - 1)
                ci = 1.95996 * math.sqrt(var / n)
                row += [mean, (total - ci, total + ci)]
            out.append(tuple(row))
        return tuple(out)

    def to_dict(self) -> dict:
        return {"names": list(self.names), "length": self.length, "marks": list(self.marks),
                "luck_marks": list(self.luck_marks), "players": [p.to_dict() for p in self.players],
                "luck_fibs_rating_difference": self.luck_fibs_rating_difference,
                "advantage_per_game": self.advantage_per_game(),
                "games": [{"number": g.number, "score": list(g.score), "players": [p.to_dict() for p in g.players]}
                          for g in self.games]}

    def report(self, games: bool = True) -> str:
        """The figures as gnubg prints them (``show statistics match``),
        then each game's when ``games``."""
        lines = ["Statistics (as GNU Backgammon's, marks doubtful/bad/very bad from "
                 + "/".join(f"{m:.3f}" for m in self.marks) + f"; our PR is the overall mEMG rate / 2)", ""]
        lines += _table(self.names, self.players, self.length, self)
        if games and len(self.games) > 1:
            for g in self.games:
                lines += ["", f"Game {g.number} (score {g.score[0]}-{g.score[1]})", ""]
                lines += _table(self.names, g.players, self.length, None)
        return "\n".join(lines) + "\n"


# -- text ------------------------------------------------------------------------------------------

def _total(emg: float, cost: float, length: int, sign: float = -1.0) -> str:
    if length:
        return f"{sign * emg:+7.3f} ({100 * sign * cost:+7.3f}%)"
    return f"{sign * emg:+7.3f} ({sign * cost:+7.3f})"


def _mrate(rate: float | None, cost_rate: float | None, length: int, sign: float = -1.0) -> str:
    if rate is None:
        return "n/a"
    c = cost_rate or 0.0
    if length:
        return f"{1000 * sign * rate:+7.1f}   ({100 * sign * c:+7.3f}%)"
    return f"{1000 * sign * rate:+7.1f}   ({sign * c:+7.3f})"


def _table(names, players, length: int, match: MatchStatistics | None) -> list[str]:
    unit, mrate = ("EMG (MWC)", "mEMG (MWC)") if length else ("EMG (Points)", "mEMG (Points)")
    a, b = players
    rows: list = [("Player", *names), None, ("Chequerplay statistics",), None,
                  ("Total moves", a.total_moves, b.total_moves),
                  ("Unforced moves", a.unforced_moves, b.unforced_moves),
                  ("Unmarked moves", a.unmarked_moves, b.unmarked_moves)]
    rows += [(f"Moves marked {m}", a.checker_marks[m], b.checker_marks[m]) for m in MARKS]
    rows += [(f"Error total {unit}", *(_total(p.checker_error, p.checker_cost, length) for p in players)),
             (f"Error rate {mrate}", *(_mrate(p.checker_rate, _rate(p.checker_cost, p.unforced_moves), length)
                                       for p in players)),
             ("Chequerplay rating", *(p.checker_rating if p.unforced_moves else "n/a" for p in players)),
             None, ("Luck statistics",), None]
    rows += [(f"Rolls {'unmarked' if k == 'unmarked' else 'marked ' + k}", a.rolls[k], b.rolls[k]) for k in LUCK_LABELS]
    rows += [(f"Luck total {unit}", *(_total(p.luck, p.luck_cost, length, 1.0) for p in players)),
             (f"Luck rate {mrate}", *(_mrate(p.luck_rate, _rate(p.luck_cost, p.total_moves), length, 1.0)
                                      for p in players)),
             ("Luck rating", *(p.luck_rating for p in players)),
             None, ("Cube statistics",), None,
             ("Total cube decisions", a.total_cube, b.total_cube),
             ("Close or actual cube decisions", a.close_cube, b.close_cube),
             ("Doubles", a.doubles, b.doubles), ("Takes", a.takes, b.takes), ("Passes", a.passes, b.passes)]
    for label, attr in (("Missed doubles below CP", "missed_double_below_cp"),
                        ("Missed doubles above CP", "missed_double_above_cp"),
                        ("Wrong doubles below DP", "wrong_double_below_dp"),
                        ("Wrong doubles above TG", "wrong_double_above_tg"),
                        ("Wrong takes", "wrong_take"), ("Wrong passes", "wrong_pass")):
        cells = []
        for p in players:
            e = getattr(p, attr)
            cells.append(f"{e.count:3d} ({_total(e.emg, e.cost, length)})" if e.count else "  0")
        rows.append((f"{label} ({unit})", *cells))
    rows += [(f"Cube decisions marked {m}", a.cube_marks[m], b.cube_marks[m]) for m in MARKS]
    rows += [(f"Error total {unit}", *(_total(p.cube_error, p.cube_cost, length) for p in players)),
             (f"Error rate {mrate}", *(_mrate(p.cube_rate, _rate(p.cube_cost, p.close_cube), length)
                                       for p in players)),
             ("Cube decision rating", *(p.cube_rating if p.close_cube else "n/a" for p in players)),
             None, ("Overall statistics",), None,
             (f"Error total {unit}", *(_total(p.error, p.cost, length) for p in players)),
             (f"Error rate {mrate}", *(_mrate(p.error_rate, _rate(p.cost, p.decisions), length) for p in players)),
             # gnubg prints the Snowie rate with an empty (zero) MWC part
             ("Snowie error rate", *("n/a" if p.snowie_error_rate is None else
                                     f"{-1000 * p.snowie_error_rate:+7.1f}   ({0.0:+7.3f}{'%' if length else ''})"
                                     for p in players)),
             ("Overall rating", *(p.overall_rating if p.decisions else "n/a" for p in players)),
             ("Performance rating (ours)", *("n/a" if p.pr is None else f"{p.pr:.1f}" for p in players))]

    def result(v: float) -> str:
        return f"{100 * v:+7.2f}%" if length else f"{v:+7.3f}"

    rows += [("Actual result", *(result(p.actual_result) for p in players)),
             ("Luck adjusted result", *(result(p.luck_adjusted_result) for p in players))]
    if length:
        if match is not None:
            diff = match.luck_fibs_rating_difference
            rows.append(("Luck based FIBS rating diff.", "n/a" if diff is None else f"{diff:+7.2f}", ""))
        rows += [("Error based abs. FIBS rating", *("n/a" if p.fibs_rating is None else f"{p.fibs_rating:6.1f}"
                                                    for p in players)),
                 ("Chequerplay errors rating loss", *("n/a" if p.checker_rating_loss is None
                                                      else f"{p.checker_rating_loss:6.1f}" for p in players)),
                 ("Cube errors rating loss", *("n/a" if p.cube_rating_loss is None else f"{p.cube_rating_loss:6.1f}"
                                               for p in players))]
    elif match is not None and (adv := match.advantage_per_game()) is not None:
        rows += [("Advantage (actual) in ppg", *(f"{x[0]:+6.3f}" for x in adv)),
                 ("95% confidence interval (ppg)", *(f"[{x[1][0]:6.3f},{x[1][1]:6.3f}]" for x in adv)),
                 ("Advantage (luck adjusted) in ppg", *(f"{x[2]:+6.3f}" for x in adv)),
                 ("95% confidence interval (ppg)", *(f"[{x[3][0]:6.3f},{x[3][1]:6.3f}]" for x in adv))]
    out = []
    for r in rows:
        if r is None:
            out.append("")
        elif len(r) == 1:
            out.append(r[0])
        else:
            out.append(f"{r[0]:<40} {str(r[1]):<24} {str(r[2]):<24}".rstrip())
    return out


# -- computing --------------------------------------------------------------------------------------

def _cube_of(match_id: str) -> int:
    return MatchState.from_match_id(match_id).cube_value


def _player(name: str, me: int, plays, cubes, luck, total_moves: int, length: int, actual: float,
            opp_luck_cost: float, marks, luck_marks) -> PlayerStatistics:
    checker_marks = dict.fromkeys(MARKS, 0)
    c_err = c_cost = 0.0
    unforced = 0
    for p in plays:
        if p.player != me:
            continue
        if p.plays > 1:
            unforced += 1
            c_err += p.error
            c_cost += (p.error_mwc or 0.0) if length else p.error * _cube_of(p.match_id)
        m = mark(p.error, marks)
        if m:
            checker_marks[m] += 1
    rolls = dict.fromkeys(LUCK_LABELS, 0)
    l_total = l_cost = 0.0
    for r in luck:
        if r.player != me:
            continue
        l_total += r.luck
        l_cost += (r.luck_mwc or 0.0) if length else r.luck * getattr(r, "cube", 1)
        rolls[LUCK_LABELS[4 - _luck_index(r.luck, luck_marks)]] += 1
    kinds: dict[str, CubeErrors] = dict.fromkeys(("missed_double_below_cp", "missed_double_above_cp", "wrong_double_below_dp",
                           "wrong_double_above_tg", "wrong_take", "wrong_pass"), CubeErrors())
    cube_marks = dict.fromkeys(MARKS, 0)
    total = close = doubles = takes = passes = 0
    for c in cubes:
        if c.player != me:
            continue
        total += 1
        cost = (c.error_mwc or 0.0) if length else c.error * _cube_of(c.match_id)
        err = c.error
        m = mark(err, marks)
        if m:
            cube_marks[m] += 1
        nd, dt, dp = c.no_double, c.double_take, c.double_pass
        if c.kind == "double":
            if c.action == "double":
                doubles += 1
                close += 1
                if err > 0:
                    key = "wrong_double_above_tg" if nd > dp else "wrong_double_below_dp"
                    kinds[key] = kinds[key].add(err, cost)
            else:
                best = max(nd, min(dt, dp))
                if best - min(dt, dp) < CLOSE:
                    close += 1
                if err > 0:
                    key = "missed_double_above_cp" if dt > dp else "missed_double_below_cp"
                    kinds[key] = kinds[key].add(err, cost)
        else:
            close += 1
            if c.action in ("take", "beaver"):
                takes += 1
                if err > 0:
                    kinds["wrong_take"] = kinds["wrong_take"].add(err, cost)
            else:
                passes += 1
                if err > 0:
                    kinds["wrong_pass"] = kinds["wrong_pass"].add(err, cost)
    return PlayerStatistics(
        name=name, total_moves=total_moves, unforced_moves=unforced, checker_marks=checker_marks,
        checker_error=c_err, checker_cost=c_cost, rolls=rolls, luck=l_total, luck_cost=l_cost, total_cube=total,
        close_cube=close, doubles=doubles, takes=takes, passes=passes, cube_marks=cube_marks,
        actual_result=actual, luck_adjusted_result=actual - l_cost + opp_luck_cost, length=length,
        **kinds)  # type: ignore[arg-type]


def _actual(game, length: int, met) -> tuple[float, float]:
    """Each player's result of a game: points in money play, the change of
    its match winning chances in a match (gnubg's "actual result")."""
    if game.winner is None:
        return 0.0, 0.0
    w = game.winner
    if length:
        a, b = length - game.score[w], length - game.score[1 - w]
        before = met.mwc(a, b, crawford=bool(game.crawford))
        left = a - game.points
        if left <= 0:
            after = 1.0
        else:
            # the next game is the Crawford game only when the winner has just reached 1-away and the
            # loser is not there yet; a loser already 1-away means it is after the Crawford game
            after = met.mwc(left, b, crawford=left == 1 and b != 1)
        gain = after - before
    else:
        gain = float(game.points)
    out = [0.0, 0.0]
    out[w], out[1 - w] = gain, -gain
    return out[0], out[1]


def _figures(names, length, plays, cubes, luck, actual, marks, luck_marks, both_moves=None) -> tuple:
    moves = [sum(1 for r in luck if r.player == k) for k in (0, 1)]
    costs = []
    for k in (0, 1):
        costs.append(sum(((r.luck_mwc or 0.0) if length else r.luck * getattr(r, "cube", 1))
                         for r in luck if r.player == k))
    players = [_player(names[k], k, plays, cubes, luck, moves[k], length, actual[k], costs[1 - k], marks, luck_marks)
               for k in (0, 1)]
    n = sum(moves) if both_moves is None else both_moves
    return tuple(PlayerStatistics(**{**p.__dict__, "snowie_error_rate": (p.error / n) if n else None})
                 for p in players)


def statistics(analysis, marks=GNUBG_MARKS, luck_marks=LUCK_MARKS, met=None) -> MatchStatistics:
    """gnubg's statistics of an analysis, over the match and per game.

    Parameters
    ----------
    analysis : MatchAnalysis
        As :func:`~backgammon.analysis.analyse` gives it.
    marks : tuple of float, default GNUBG_MARKS
        Doubtful, bad, very bad (gnubg 1.07's 0.03, 0.06, 0.12).
    luck_marks : pair of float, default LUCK_MARKS
        Lucky, very lucky.
    met : MatchEquityTable, optional
        The table of the actual results; default Kazaross-XG2, gnubg's.

    Returns
    -------
    MatchStatistics

    Raises
    ------
    TypeError
        ``analysis`` is not a MatchAnalysis.
    ValueError
        Marks that are not increasing.

    See Also
    --------
    backgammon.analysis.MatchAnalysis.statistics : the same, as a method.

    Examples
    --------
    >>> import backgammon as bg
    >>> from backgammon.analysis import analyse
    >>> g = bg.Game(seed=2); g.roll((4, 2)); g.play("24/20 24/22")
    >>> statistics(analyse(g, ply=0, workers=1)).players[0].checker_rating
    'Awful!'
    """
    # analysis imports this module, so the type is checked by name (no import circle)
    if not any(c.__name__ == "MatchAnalysis" for c in type(analysis).__mro__):
        raise TypeError(f"analysis must be a backgammon.analysis.MatchAnalysis, not {type(analysis).__name__}")
    marks = tuple(float(m) for m in marks)
    luck_marks = tuple(float(m) for m in luck_marks)
    if len(marks) != 3 or not 0 <= marks[0] <= marks[1] <= marks[2]:
        raise ValueError(f"marks must be three increasing errors (doubtful, bad, very bad), not {marks}")
    if len(luck_marks) != 2 or not 0 <= luck_marks[0] <= luck_marks[1]:
        raise ValueError(f"luck_marks must be two increasing luck values (lucky, very lucky), not {luck_marks}")
    if met is None:
        from .met import MatchEquityTable
        met = MatchEquityTable.kazaross_xg2()
    length = analysis.length
    names = tuple(analysis.players)
    games = []
    all_plays: list = []
    all_cubes: list = []
    all_luck: list = []
    totals = [0.0, 0.0]
    for g in analysis.games:
        actual = _actual(g, length, met)
        totals = [totals[0] + actual[0], totals[1] + actual[1]]
        # gnubg counts a set board's roll (its MOVE_SETDICE) in no total: not a move, no luck
        luck = [r for r in g.luck if not r.setboard]
        games.append(GameStatistics(g.number, tuple(g.score),
                                    _figures(names, length, g.plays, g.cubes, luck, actual, marks, luck_marks)))
        all_plays += g.plays
        all_cubes += g.cubes
        all_luck += luck
    overall = _figures(names, length, all_plays, all_cubes, all_luck, totals, marks, luck_marks)
    return MatchStatistics(names, length, overall, tuple(games), marks, luck_marks)
