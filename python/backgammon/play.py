"""Plays: the legal plays of a roll, their notation (RULES 10.1), and parsing.

>>> from backgammon import Position
>>> plays = Position.initial().legal_plays("31")
>>> len(plays), "8/5 6/5" in [str(p) for p in plays]
(16, True)
>>> str(Position.initial().parse_play("6/5 8/5", "31"))
'8/5 6/5'
"""
from __future__ import annotations

import itertools
import operator
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _movegen
from .dice import RollLike, to_dice
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:          # a Play holds a Position; position.py imports this module, not the other way
    from .position import Position

__all__ = ["Play", "Plays", "legal_plays", "parse_play", "format_steps", "written_position", "written_steps"]

_BAR, _OFF = 25, 0


def _point_text(p: int) -> str:
    return "bar" if p == _BAR else "off" if p == _OFF else str(p)


def format_steps(steps) -> str:
    """Standard notation (RULES 10.1) for checker steps.

    Steps of one checker are joined (``13/5``), showing only the stops where
    it hit (``13/7*/5``); repeated moves are counted (``6/4(2)``).

    Parameters
    ----------
    steps : iterable of (int, int, bool)
        ``(from, to, hit)`` for each die, points counted from the mover's
        side (25 the bar, 0 off).

    Returns
    -------
    str

    Examples
    --------
    >>> format_steps([(13, 7, True), (7, 5, False)])
    '13/7*/5'
    """
    chains: list[list] = []  # [from, [(stop, hit), ...]]
    for frm, to, hit in steps:
        for chain in chains:
            if chain[1][-1][0] == frm and frm != _OFF:
                chain[1].append((to, bool(hit)))
                break
        else:
            chains.append([frm, [(to, bool(hit))]])
    texts = []
    for frm, stops in chains:
        parts = [_point_text(frm)]
        for k, (stop, hit) in enumerate(stops):
            if hit or k == len(stops) - 1:
                parts.append(_point_text(stop) + ("*" if hit else ""))
        texts.append((frm, stops[-1][0], "/".join(parts)))
    counts = Counter(t for _, _, t in texts)
    order = sorted(dict.fromkeys(texts), key=lambda t: (-t[0], -t[1]))
    seen = set()
    out = []
    for _, _, text in order:
        if text in seen:
            continue
        seen.add(text)
        out.append(text if counts[text] == 1 else f"{text}({counts[text]})")
    return " ".join(out)


@dataclass(frozen=True, slots=True)
class Play:
    """One legal play: its checker steps, the points where it hit, and the
    position after it.  ``str(play)`` is its notation.

    Points count from the mover's side: 25 is the bar, 0 is off.

    Attributes
    ----------
    moves : tuple of (int, int)
        Each die's move, ``(from, to)``.
    hits : tuple of int
        The points where a checker was hit.
    position : Position
        The position after the play, the opponent on roll.
    steps : tuple of (int, int, int)
        Each die's step, ``(from, to, hit)``, in the order played.

    Examples
    --------
    >>> from backgammon import Position
    >>> play = Position.initial().parse_play("8/5 6/5", "31")
    >>> str(play), play.moves, play.hits, play.steps
    ('8/5 6/5', ((8, 5), (6, 5)), (), ((8, 5, 0), (6, 5, 0)))
    >>> play.position.to_id()          # the opponent on roll
    'sGfwATDgc/ABMA'
    """

    moves: tuple
    hits: tuple
    position: Position
    _steps: tuple = ()

    @property
    def steps(self) -> tuple:
        """Each die's step as ``(from, to, hit)``, in the order played."""
        return self._steps

    def __str__(self) -> str:
        return format_steps(self._steps) if self._steps else ""

    def __repr__(self) -> str:
        return f"<Play {str(self) or '(no move)'}>"


class Plays(Sequence):
    """The distinct legal plays of one position and roll: a sequence of
    :class:`Play`, backed by the move generator's arrays (each ``Play`` is
    made when it is read).

    Attributes
    ----------
    start : Position
        The position the plays start from.
    roll : tuple of int
        The dice, the larger first.
    dice_used : int
        How many dice each play uses (RULES 3.4).
    positions : numpy.ndarray
        A read-only ``uint8`` array (n, 2, 25) of the positions after
        each play.

    Examples
    --------
    >>> from backgammon import Position
    >>> plays = Position.initial().legal_plays("31")
    >>> len(plays), plays.positions.shape, plays.roll, plays.dice_used
    (16, (16, 2, 25), (3, 1), 2)
    >>> str(plays[plays.find(plays[10].position)])
    '8/5 6/5'
    """

    __slots__ = ("start", "roll", "dice_used", "_n", "_children", "_moves")

    def __init__(self, start: Position, roll: tuple, n: int, children: bytes, moves: bytes, dice_used: int):
        self.start = start
        self.roll = roll
        self.dice_used = dice_used
        self._n = n
        self._children = children
        self._moves = moves

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._n))]
        n = self._n
        try:
            i = operator.index(i)           # ints and numpy ints, as a list takes them (no floats)
        except TypeError:
            raise TypeError(f"play indices must be integers or slices, not {type(i).__name__}") from None
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("play index out of range")
        m = self._moves[12 * i: 12 * i + 12]
        # -1 (an unused step) reads back as 255 from the int8 buffer
        steps = tuple((m[k], m[k + 1], m[k + 2]) for k in (0, 3, 6, 9) if m[k] != 255)
        return Play(
            moves=tuple((f, t) for f, t, _ in steps),
            hits=tuple(t for _, t, h in steps if h),
            position=type(self.start).from_bytes(self._children[50 * i: 50 * i + 50], validate=False),
            _steps=steps,
        )

    def __iter__(self):
        for i in range(self._n):
            yield self[i]

    def __contains__(self, item) -> bool:
        if isinstance(item, Play):
            item = item.position
        if not isinstance(item, type(self.start)):
            return False
        return self.find(item) >= 0

    def find(self, position) -> int:
        """The index of the play that leads to a position.

        Parameters
        ----------
        position : Position or bytes
            The position after the play (the next mover's view), or its
            50 bytes.

        Returns
        -------
        int
            The index in this sequence, or -1 when no play leads there.

        Examples
        --------
        >>> from backgammon import Position
        >>> plays = Position.initial().legal_plays("31")
        >>> plays.find(plays[3].position), plays.find(Position.initial())
        (3, -1)
        """
        return self._find_bytes(position.to_bytes() if isinstance(position, type(self.start)) else position)

    def _index_of(self, board: bytes) -> int:
        # Older name of find() for bytes, kept for code that used it.
        return self._find_bytes(board)

    def _find_bytes(self, board: bytes) -> int:
        c = self._children
        at = c.find(board)
        while at >= 0 and at % 50:
            at = c.find(board, at + 1)
        return at // 50 if at >= 0 else -1

    @property
    def positions(self) -> np.ndarray:
        """Read-only uint8 array (n, 2, 25) of the positions after each play."""
        return np.frombuffer(self._children, dtype=np.uint8).reshape(self._n, 2, 25)

    def __repr__(self) -> str:
        return f"<Plays {self.roll[0]}{self.roll[1]}: {', '.join(str(p) for p in self) if self._n < 8 else f'{self._n} plays'}>"


def legal_plays(position: Position, roll: RollLike) -> Plays:
    """All distinct legal plays of a roll (RULES 3-5): ``position.legal_plays(roll)``.

    A roll that cannot be played gives one play with no moves (the turn
    passes, RULES 3.4); a finished game gives none.

    Parameters
    ----------
    position : Position
        The side on roll moves.
    roll : Roll, tuple or str
        The dice: ``"31"``, ``"3-1"``, ``(3, 1)``.

    Returns
    -------
    Plays

    Raises
    ------
    InvalidRollError
        ``roll`` is not two dice from 1 to 6.

    Examples
    --------
    >>> from backgammon import Position
    >>> len(legal_plays(Position.initial(), (6, 6)))
    11
    """
    if type(roll) is tuple and len(roll) == 2 and type(roll[0]) is int and type(roll[1]) is int \
            and 0 < roll[0] < 7 and 0 < roll[1] < 7:
        d1, d2 = roll
    else:
        d1, d2 = to_dice(roll)
    if type(position).__name__ != "Position" and not any(
            c.__name__ == "Position" and c.__module__ == "backgammon.position" for c in type(position).__mro__):
        # By name: position.py imports this module, not the other way.
        raise TypeError(f"position must be a backgammon.Position, not {type(position).__name__}")
    n, children, moves, used = _movegen.plays(position.to_bytes(), d1, d2)
    return Plays(position, (d1, d2), n, children, moves, used)


# -- parsing -------------------------------------------------------------------

_POINT = r"(?:bar|off|\d{1,2})"
_TOKEN = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$", re.ASCII)


def _read_point(text: str) -> int:
    t = text.rstrip("*")
    if t == "bar":
        return _BAR
    if t == "off":
        return _OFF
    p = int(t)
    if not 0 <= p <= 25:
        raise InvalidMoveError(f"there is no point {p}: points run 1-24, bar = 25, off = 0")
    return p


def _read_journeys(text: str):
    """[(written points, {hit points})] per checker, repeats expanded."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    odd = next((ch for ch in text if ch.isdigit() and not ch.isascii()), None)
    if odd is not None:
        # int() reads any script's digits; the notation (and every other
        # reader of rolls and points) is ASCII 0-9.
        raise InvalidMoveError(f"text: {odd!r} in {text!r} is not an ASCII digit: write points with 0-9, "
                               f"e.g. 13/7*/5")
    journeys = []
    for token in text.lower().replace(",", " ").split():
        m = _TOKEN.match(token)
        if not m:
            raise InvalidMoveError(f"cannot read {token!r}: write moves as from/to, e.g. 13/7*/5, bar/22, 6/off, 6/4(2)")
        parts = m.group(1).split("/")
        points = [_read_point(p) for p in parts]
        for a, b in zip(points, points[1:]):
            if b >= a:
                raise InvalidMoveError(f"{token!r}: a checker never moves backward ({_point_text(a)}/{_point_text(b)}, RULES 3.1)")
        if points[-1] == _BAR or 0 in points[:-1]:
            raise InvalidMoveError(f"{token!r}: the bar can only be a start and off only an end")
        hits = {p for p, s in zip(points, parts) if s.endswith("*")}
        if _OFF in hits:
            raise InvalidMoveError(f"{token!r}: a checker borne off hits nothing")
        repeat = int(m.group(2) or 1)
        if not 1 <= repeat <= 4:
            raise InvalidMoveError(f"{token!r}: a move repeats at most 4 times")
        journeys.extend([(tuple(points), hits)] * repeat)
    if len(journeys) > 4:
        raise InvalidMoveError(f"{text!r} moves {len(journeys)} checkers: a roll moves at most 4 (RULES 3.1)")
    return journeys


def parse_play(position: Position, text: str, roll: RollLike) -> Play:
    """The legal play that a play's notation describes: ``position.parse_play(text, roll)``.

    Moves may come in any order.  Every written move is one die, or a
    chain of dice through points not written (``13/5`` for 6-2 is 13/7/5
    or 13/11/5); each step is replayed through the move generator's
    single-step rule, and the result must be one of the legal plays
    (RULES 3.4, 3.5).

    Parameters
    ----------
    position : Position
        The side on roll moves.
    text : str
        The notation: ``13/7*/5``, ``6/4(2)``, ``bar/22``, ``6/off``.
    roll : Roll, tuple or str
        The dice.

    Returns
    -------
    Play

    Raises
    ------
    InvalidMoveError
        ``text`` is not notation.
    IllegalMoveError
        The rules forbid the play; the message names the rule.
    AmbiguousMoveError
        ``text`` fits several plays.

    Examples
    --------
    >>> from backgammon import Position
    >>> str(parse_play(Position.initial(), "24/18 13/8", "65"))
    '24/18 13/8'
    """
    plays = legal_plays(position, roll)
    journeys = _read_journeys(text)
    d1, d2 = plays.roll
    dice = (d1,) * 4 if d1 == d2 else (d1, d2)
    if not journeys:
        if len(plays) == 1 and not plays[0].moves:
            return plays[0]
        raise IllegalMoveError(f"{d1}-{d2} must be played: there is a legal play (RULES 3.4)"
                               if len(plays) else "the game is over: there is nothing to play")
    replay = _Replay(position, plays, journeys, dice)
    found = replay.run()
    if not found:
        raise IllegalMoveError(replay.explain(text))
    wanted = set().union(*(h for _, h in journeys))
    exact = {i for i, hits in found if hits == wanted}
    covering = {i for i, hits in found if wanted <= hits}
    if len(exact) == 1:
        return plays[exact.pop()]
    if len(covering) == 1:
        return plays[covering.pop()]
    if not covering:
        raise IllegalMoveError(f"{text!r}: no legal play of {d1}-{d2} hits on "
                               f"{', '.join(map(str, sorted(wanted)))} this way")
    chosen = sorted(covering)
    raise AmbiguousMoveError(f"{text!r} fits {len(chosen)} plays: "
                             + ", ".join(str(plays[i]) for i in chosen) + "; mark the hits with *")


class _Replay:
    """Every way of playing the written moves with the dice, step by step
    through the kernel's ``step``; remembers why the deepest attempt failed."""

    def __init__(self, position: Position, plays: Plays, journeys, dice):
        self.plays = plays
        self.dice = dice
        self.start = position.to_bytes()
        # Each checker's written stops, hits ignored: [13, 7, 5].
        self.paths = [tuple(points) for points, _ in journeys]
        self.results: dict[int, set] = {}
        self.complete: list[tuple[bytes, int]] = []
        self.failure: tuple = (-1, -1, "")
        self._seen: set = set()

    def run(self) -> list[tuple[int, set]]:
        state = tuple((0, path[0]) for path in self.paths)      # (written stop reached, where the checker is)
        self._search(self.start, tuple(sorted(self.dice)), state, frozenset(), 0)
        return [(i, set(hits)) for i, hits_list in self.results.items() for hits in hits_list]

    def _search(self, board: bytes, dice: tuple, state: tuple, hits: frozenset, depth: int) -> None:
        key = (board, dice, tuple(sorted(state)), hits)
        if key in self._seen:
            return
        self._seen.add(key)
        if all(stop == len(path) - 1 for (stop, _), path in zip(state, self.paths)):
            swapped = board[25:] + board[:25]
            index = self.plays.find(swapped)
            if index >= 0:
                self.results.setdefault(index, set()).add(hits)
            else:
                self.complete.append((board, len(self.dice) - len(dice)))
            return
        for j, ((stop, at), path) in enumerate(zip(state, self.paths)):
            if stop == len(path) - 1:
                continue
            goal = path[stop + 1]
            for die in sorted(set(dice), reverse=True):
                to = at - die
                if goal == _OFF:
                    to = max(to, _OFF)
                elif to < goal:
                    self._fail(depth, 0, f"{_point_text(path[stop])}/{_point_text(goal)} cannot be played with "
                               f"the dice left ({', '.join(map(str, dice))}) (RULES 3.1, 10.1)")
                    continue
                done = _movegen.step(board, at, to, die)
                if done is None:
                    self._fail(depth, 1, self._why(board, at, to, die))
                    continue
                after, hit = done
                left = list(dice)
                left.remove(die)
                new_state = list(state)
                new_state[j] = (stop + 1 if to == goal else stop, to)
                self._search(after, tuple(left), tuple(new_state), hits | ({to} if hit else set()), depth + 1)

    def _fail(self, depth: int, weight: int, message: str) -> None:
        # The most informative failure: a step the rules refuse before
        # dice that do not fit, then the deepest.
        if (weight, depth) > self.failure[:2]:
            self.failure = (weight, depth, message)

    def _why(self, board: bytes, at: int, to: int, die: int) -> str:
        # The move generator refused this step; say which fact of the
        # board stands in the way, in the words of the rules.
        me, opp = board[25:], board[:25]
        step = f"{_point_text(at)}/{_point_text(to)}"
        if me[at - 1] == 0:
            where = "on the bar" if at == _BAR else f"on point {at}"
            return f"no checker of yours {where} to move for {step}"
        if at != _BAR and me[24]:
            return f"{step}: checkers on the bar must enter first (RULES 4.1)"
        if to != _OFF and opp[24 - to] >= 2:
            return f"{step}: point {to} is blocked by the opponent (RULES 3.2)"
        if to == _OFF and any(me[6:25]):
            return f"{step}: bearing off needs all checkers in the home board (RULES 5.1)"
        if to == _OFF and at < die:
            return f"{step}: a {die} bears off from a lower point only when no checker stands higher (RULES 5.3)"
        return f"{step} with a {die} is not allowed here (RULES 3-5)"

    def explain(self, text: str) -> str:
        d1, d2 = self.plays.roll
        roll = f"{d1}-{d2}"
        used = max((n for _, n in self.complete), default=None)
        if used is None:
            pips = sum(path[0] - path[-1] for path in self.paths)
            if pips > sum(self.dice) and all(path[-1] != _OFF for path in self.paths):
                return f"{text!r} moves {pips} pips; {roll} gives only {sum(self.dice)} (RULES 3.1)"
            sums = {sum(c) for k in range(1, len(self.dice) + 1) for c in itertools.combinations(self.dice, k)}
            for path in self.paths:
                for a, b in zip(path, path[1:]):
                    if (a - b not in sums) if b != _OFF else (a - b > max(sums)):
                        return (f"{text!r}: {_point_text(a)}/{_point_text(b)} moves {a - b} pips, which no die or "
                                f"chain of dice of {roll} makes (RULES 3.1, 10.1)")
            return f"{text!r}: {self.failure[2]}" if self.failure[2] else f"{text!r} is not legal"
        need = self.plays.dice_used
        if need == 0:
            return f"{roll} cannot be played at all: the turn passes (RULES 3.4)"
        if used < need:
            if d1 == d2:
                return f"{text!r}: {need} of the four {d1}s can be played and must be (RULES 3.4)"
            return f"{text!r}: both dice must be used when possible (RULES 3.4)"
        if d1 != d2 and need == 1:
            return f"{text!r}: only one die can be played, so it must be the larger, {max(d1, d2)} (RULES 3.4)"
        return f"{text!r} is not a legal play of {roll} here (RULES 3-5)"


def written_steps(text: str) -> list:
    """The moves ``text`` writes, as ``(from, to)`` pairs between the
    points written (``13/7*/5``: 13 to 7, 7 to 5), repeats expanded;
    no rule of moving is checked (``written_position`` plays them).

    >>> written_steps("14/10 13/12"), written_steps("6/4(2) bar/20")
    ([(14, 10), (13, 12)], [(6, 4), (6, 4), (25, 20)])
    """
    return [(a, b) for points, _ in _read_journeys(text) for a, b in zip(points, points[1:])]


def written_position(position: Position, text: str) -> "Position":
    """The position after the moves ``text`` writes, taken as written
    whatever the dice and the rules of moving: each checker goes from its
    first point to its last, hitting a lone opposing checker on any point
    written (RULES 3.3), the opponent then on roll (as ``Play.position``).
    What a record keeps of a play the rules refuse (``Game.set_board``).

    Raises
    ------
    InvalidMoveError
        ``text`` is not notation.
    IllegalMoveError
        No board can follow: no checker of the mover on a starting
        point, or a checker landing on a point the opponent holds with
        two or more (RULES 1.4).

    Examples
    --------
    >>> from backgammon import Position
    >>> # 5 pips: no 3-1 plays it, but its moves make a board
    >>> after = written_position(Position.initial(), "13/9 8/7")
    >>> after.pip_counts()
    (167, 162)
    """
    if not callable(getattr(position, "legal_plays", None)):        # position.py imports this module
        raise TypeError(f"position must be a backgammon.Position, not {type(position).__name__}")
    me = list(position.to_bytes()[25:])
    opp = list(position.to_bytes()[:25])
    for points, _ in _read_journeys(text):
        start = points[0]
        if not me[start - 1]:
            where = "on the bar" if start == _BAR else f"on point {start}"
            raise IllegalMoveError(f"{text!r}: no checker of the mover {where} (RULES 1)")
        me[start - 1] -= 1
        for p in points[1:]:
            if p == _OFF:
                break
            if opp[24 - p] >= 2:
                raise IllegalMoveError(f"{text!r}: point {p} is held by the opponent; two colours never share a "
                                       f"point (RULES 1.4)")
            if opp[24 - p] == 1:                       # a lone checker there is hit (RULES 3.3)
                opp[24 - p] = 0
                opp[24] += 1
        if points[-1] != _OFF:
            me[points[-1] - 1] += 1
    return type(position).from_bytes(bytes(me + opp))


def resolve(position: Position, play, roll) -> Play:
    """A Play from a Play or notation, checked to be legal for ``roll``."""
    if isinstance(play, Play):
        plays = legal_plays(position, roll)
        i = plays.find(play.position)
        if i < 0:
            raise IllegalMoveError(f"{play} is not a legal play of {plays.roll[0]}-{plays.roll[1]} from this position")
        return plays[i]
    return parse_play(position, play, roll)
