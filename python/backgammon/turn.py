"""A turn played checker by checker (RULES 3-5): the single-die steps made
so far, the steps that can still end in a legal play, and the play they
make.  Each step is the move generator's (``_movegen.step``) and the
whole play is one of the legal plays, so the move generator alone decides
what is legal.  ``Game`` builds its turns with it (``move``, ``undo``,
``commit``, ``legal_steps``, ``legal_moves``).

>>> from backgammon import Position
>>> t = Turn(Position.initial(), (3, 1))
>>> t.move(8, 5); t.move(6, 5)
>>> str(t.play()), t.dice_left
('8/5 6/5', ())
"""
from __future__ import annotations

from typing import NamedTuple

from . import _movegen
from .errors import IllegalPlayError, RulesError
from .play import Play, format_steps
from .position import Position

__all__ = ["Turn", "Step"]


class Step(NamedTuple):
    """One checker step of the turn being played: from and to (points from
    the mover's side, 25 = bar, 0 = off), whether it hit, and the die."""

    frm: int
    to: int
    hit: bool
    die: int


def _step(board: bytes, frm: int, to: int, left) -> tuple[bytes, bool, int] | None:
    """The smallest die left that makes frm/to a legal step on its own, as
    the move generator has it: (board after, hit, die), or None."""
    for die in sorted(set(left)):
        done = _movegen.step(board, frm, to, die)
        if done is not None:
            return done[0], bool(done[1]), die
    return None


class _Search:
    """The single-die steps that lead on to a whole legal play: each step is
    the move generator's (``_movegen.step``) and the ends are the legal
    plays' results (what ``commit`` accepts)."""

    def __init__(self, plays):
        after = plays.positions                 # opponent on roll: turned back to the mover's view
        self.targets = {after[i, ::-1].tobytes() for i in range(len(plays))}
        self.memo: dict = {}

    def candidates(self, board: bytes, left: tuple):
        me = board[25:]
        for frm in range(25, 0, -1):
            if not me[frm - 1]:
                continue
            for to in sorted({max(frm - d, 0) for d in set(left)}, reverse=True):
                done = _step(board, frm, to, left)
                if done is not None:
                    after, hit, die = done
                    rest = list(left)
                    rest.remove(die)
                    yield Step(frm, to, hit, die), after, tuple(rest)

    def viable(self, board: bytes, left: tuple) -> bool:
        key = (board, left)
        if key not in self.memo:
            self.memo[key] = board in self.targets or any(
                self.viable(after, rest) for _, after, rest in self.candidates(board, left))
        return self.memo[key]

    def next_steps(self, board: bytes, left: tuple) -> list[tuple[Step, bytes, tuple]]:
        return [(st, after, rest) for st, after, rest in self.candidates(board, left) if self.viable(after, rest)]


class Turn:
    """The checker moves of one turn from ``position`` (side on roll in
    row 1) with ``dice`` (rolled): ``steps`` made so far and the
    ``current`` position they reach."""

    def __init__(self, position: Position, dice: tuple[int, int]):
        self.position, self.dice = position, dice
        self.steps: list[Step] = []
        self._current: Position | None = None
        self._search: _Search | None = None

    @property
    def current(self) -> Position:
        """The position after the steps made so far."""
        return self.position if self._current is None else self._current

    @property
    def dice_left(self) -> tuple[int, ...]:
        """The dice not yet used, smallest first (four of a double)."""
        left = list(self.dice) * (2 if self.dice[0] == self.dice[1] else 1)
        for st in self.steps:
            left.remove(st.die)
        return tuple(sorted(left))

    def move(self, frm: int, to: int) -> None:
        """One checker one die's worth, if the move generator allows that
        step now (RULES 3); raises RulesError naming why not."""
        if not 0 <= to < frm <= 25:
            raise RulesError(f"a checker moves forward from 25 (bar) .. 1 to 24 .. 0 (off), not {frm}/{to} (RULES 3.1)",
                             code="step_backward", params={"from": frm, "to": to, "rule": "3.1"})
        board = self.current
        if board.array[1, frm - 1] == 0:
            where = "on the bar" if frm == 25 else f"on point {frm}"
            raise RulesError(f"no checker of yours {where} (RULES 3.1)", code="no_checker",
                             params={"point": frm, "rule": "3.1"})
        left = self.dice_left
        done = _step(board.to_bytes(), frm, to, left)
        if done is not None:
            after, hit, die = done
            self._current = Position.from_bytes(after)
            self.steps.append(Step(frm, to, hit, die))
            return
        target = "off" if to == 0 else str(to)
        raise RulesError(f"{'bar' if frm == 25 else frm}/{target} is not a legal step with the dice left "
                         f"({', '.join(map(str, left)) or 'none'}) (RULES 3-5)",
                         code="step_illegal", params={"from": frm, "to": to, "dice": list(left), "rule": "3"})

    def undo(self) -> None:
        """Take back every step."""
        self.steps = []
        self._current = None

    def _searched(self) -> _Search:
        if self._search is None:
            self._search = _Search(self.position.legal_plays(self.dice))
        return self._search

    def legal_steps(self) -> dict[int, list[int]]:
        """From each point (25 = bar), the points (0 = off) a single-die
        step may reach next such that the steps can still end in a legal
        play (RULES 3-5)."""
        out: dict[int, list[int]] = {}
        for st, _, _ in self._searched().next_steps(self.current.to_bytes(), self.dice_left):
            out.setdefault(st.frm, []).append(st.to)
        return out

    def legal_moves(self) -> dict[int, dict[int, tuple[Step, ...]]]:
        """From each point, every point a checker reaches by steps that can
        still end in a legal play, with those steps (the fewest, then the
        smallest dice first)."""
        search = self._searched()
        out: dict[int, dict[int, tuple[Step, ...]]] = {}
        start = self.current.to_bytes()
        for first, after, rest in search.next_steps(start, self.dice_left):
            paths = out.setdefault(first.frm, {})
            frontier: list[tuple[tuple[Step, ...], bytes, tuple]] = [((first,), after, rest)]
            while frontier:
                path, board, left = frontier.pop(0)
                if path[-1].to not in paths:
                    paths[path[-1].to] = path
                if path[-1].to == 0:
                    continue        # a checker borne off goes no further
                for st, nxt, more in search.next_steps(board, left):
                    if st.frm == path[-1].to:
                        frontier.append((path + (st,), nxt, more))
        return out

    def is_complete(self) -> bool:
        """Whether the steps make a whole legal play."""
        return self.current.swapped() in self.position.legal_plays(self.dice)

    def play(self) -> Play:
        """The legal play the steps make (RULES 3.4, 3.5); IllegalPlayError
        naming why when they make none."""
        plays = self.position.legal_plays(self.dice)
        # The current position has the mover as row 1; a play's result has the opponent on roll.
        i = plays.find(self.current.swapped())
        if i < 0:
            why, code, params = self._why_not_whole(plays)
            raise IllegalPlayError(why, code=code, params=params)
        return plays[i]

    def _why_not_whole(self, plays) -> tuple[str, str, dict]:
        """Why the steps, each legal, are not a legal play: the message, its
        code and its particulars."""
        d1, d2 = self.dice
        roll = f"{d1}-{d2}"
        used, need = len(self.steps), plays.dice_used
        dice = [d1, d2]
        if used == 0:
            return f"{roll} must be played: there is a legal play (RULES 3.4)", "must_play", {"dice": dice, "rule": "3.4"}
        text = format_steps([(st.frm, st.to, st.hit) for st in self.steps])
        if used < need:
            if d1 == d2:
                return (f"{text!r}: {need} of the four {d1}s can be played and must be (RULES 3.4)", "must_play_more",
                        {"play": text, "count": need, "die": d1, "rule": "3.4"})
            return (f"{text!r}: both dice must be used when possible (RULES 3.4)", "must_use_both",
                    {"play": text, "rule": "3.4"})
        if d1 != d2 and need == 1 and self.steps[0].die != max(d1, d2):
            return (f"{text!r}: only one die can be played, so it must be the larger, {max(d1, d2)} (RULES 3.4)",
                    "must_use_larger", {"play": text, "die": max(d1, d2), "rule": "3.4"})
        return (f"{text!r} is not a legal play of {roll} here (RULES 3-5)", "play_illegal",
                {"play": text, "dice": dice, "rule": "3"})
