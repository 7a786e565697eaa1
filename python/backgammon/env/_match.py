"""Cube and match play for the environments: a money game or a match between
player 0 and player 1, played through ``Game`` and ``Match`` (which alone
decide what the rules allow) and stopped at every decision either player
must make: a cube decision (double or roll), an answer to a double (take,
pass, beaver), an answer to a beaver or raccoon, and a play.

The environments put an agent (or two) on top: ``single.BackgammonEnv``
lets an opponent :class:`~backgammon.players.Player` decide for player 1
the way :func:`backgammon.play_match` does, ``aec.BackgammonAEC`` asks both
agents.  Every game keeps its ``history``, which ``Game.apply`` replays.

>>> core = MatchCore(length=3, cube=True)
>>> core.start(7)
>>> core.decision, core.who in (0, 1)
('play', True)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..dice import generator, seed_sequence
from ..errors import IllegalPlayError
from ..game import Game, Phase
from ..match import Match
from ..met import MatchEquityTable
from ..rules import Rules

__all__ = ["MatchCore", "CUBE_ACTIONS", "CUBE_UNITS", "DECISIONS", "REWARDS"]

#: The cube actions, in the order they follow the plays in the action space.
CUBE_ACTIONS = ("roll", "double", "take", "pass", "beaver")
ROLL, DOUBLE, TAKE, PASS, BEAVER = range(5)
#: What a decision step asks: a cube decision before rolling, an answer to a
#: double, an answer to a beaver or raccoon, or a play.
DECISIONS = ("cube", "take", "beaver", "play")
#: ``reward=``: points, win/loss, or the change in match winning chances.
REWARDS = ("points", "win", "match")
#: Units of the ``"cube"`` observation (see ``cube_units``).
CUBE_UNITS = 14


class MatchCore:
    """A money game (``length`` 0; ``Match(0)`` keeps the session score) or
    a match to ``length`` points between players 0 and 1, with the cube
    when ``cube``.  After ``start`` and every ``act``, ``who`` is the player
    to decide and ``decision`` what (one of ``DECISIONS``), or ``over``:
    the episode ended (the game in money play, the match in match play).
    ``results`` lists the games that ended during the last call, as
    ``(outcome, score before, score after, crawford before, crawford after)``."""

    def __init__(self, length: int = 0, cube: bool = False, rules: Rules | None = None,
                 met: MatchEquityTable | None = None):
        self.length = length
        self.cube = cube
        self.rules = Rules() if rules is None else rules
        self.met = met
        self.match: Match | None = None
        self.game: Game | None = None
        self.who: int | None = None
        self.decision: str | None = None
        self.over = True
        self.results: list = []
        self._state: Any = None     # the match state the doubler decided from (the taker's decision uses it)

    # -- starting -----------------------------------------------------------------------
    def start(self, seed) -> None:
        """A new episode: a new match (or money session) seeded as
        ``play_match`` seeds its own (the third of three spawned sequences)."""
        seq = seed_sequence(seed)
        _, _, s2 = seq.spawn(3)
        self.match = Match(self.length, rules=self.rules, seed=s2)
        self.results = []
        self._new_game()

    def next_game(self) -> None:
        """The next game of a money session (a new episode, the session's score kept)."""
        assert self.match is not None
        self.results = []
        self._new_game()

    def _new_game(self) -> None:
        assert self.match is not None
        self.game = self.match.new_game()
        self.over = False
        self._settle()

    # -- what the rules allow now ----------------------------------------------------------
    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    @property
    def m(self) -> Match:
        assert self.match is not None
        return self.match

    def plays(self):
        """The legal plays of a play decision (``Position.legal_plays``)."""
        return self.g.legal_plays()

    def legal_cube(self) -> np.ndarray:
        """Which of ``CUBE_ACTIONS`` are legal now, (5,) bool."""
        ok = np.zeros(5, dtype=bool)
        if self.over:
            return ok
        if self.decision == "cube":
            ok[ROLL] = ok[DOUBLE] = True
        elif self.decision == "take":
            ok[TAKE] = ok[PASS] = True
            ok[BEAVER] = self._may_redouble(4)
        elif self.decision == "beaver":
            ok[TAKE] = ok[PASS] = True
            ok[BEAVER] = self._may_redouble(2)
        return ok

    def _may_redouble(self, factor: int) -> bool:
        # RULES 7.5: beavers and raccoons in money play, as many per double
        # as the rules allow, within the cube limit (what Game.beaver checks).
        g = self.g
        if not g.money:
            return False
        since = 0
        for event in reversed(g.history):
            if event.kind == "double":
                break
            since += event.kind in ("beaver", "raccoon")
        return since < g.rules.beavers and g.cube_value * factor <= g.rules.cube_limit

    # -- acting ------------------------------------------------------------------------------
    def act(self, action: int, num_plays: int) -> None:
        """Player ``who``'s action in an action space of ``num_plays`` plays
        then the cube actions: a play index, or ``num_plays + k`` for
        ``CUBE_ACTIONS[k]``.  Raises IllegalPlayError when the rules do not
        allow it (nothing changes)."""
        if self.decision == "play" and not self.over:
            plays = self.g.legal_plays()
            if not 0 <= action < min(len(plays), num_plays):
                raise IllegalPlayError(f"action {action} is not a legal play: this roll has {len(plays)} "
                                       f"distinct legal plays, actions 0 to {min(len(plays), num_plays) - 1}")
            self.play(action)
        else:
            self.cube_action(action - num_plays, offset=num_plays)

    def play(self, index: int) -> None:
        """Player ``who`` plays its ``index``-th legal play."""
        self.results = []
        if self.over or self.decision != "play":
            raise IllegalPlayError(f"no play is due now (the decision is {self.decision})")
        self.g.play(self.g.legal_plays()[index])
        self._settle()

    def cube_action(self, k: int, offset: int = 0) -> None:
        """Player ``who`` takes ``CUBE_ACTIONS[k]``."""
        self.results = []
        if self.over:
            raise IllegalPlayError("the episode is over: reset first")
        if not (0 <= k < 5 and self.legal_cube()[k]):
            allowed = [f"{offset + j} ({CUBE_ACTIONS[j]})" for j in np.flatnonzero(self.legal_cube())]
            raise IllegalPlayError(f"action {offset + k} is not allowed at this {self.decision} decision"
                                   + (f": {', '.join(allowed)}" if allowed else ""))
        self._cube(k)
        self._settle()

    def forfeit(self) -> None:
        """Player ``who`` gives the game up (an illegal action): a pass when
        answering a double or beaver, else a backgammon resigned and accepted."""
        self.results = []
        g = self.g
        if self.decision in ("take", "beaver"):
            g.drop()
        else:
            g.resign(3, player=self.who)
            g.accept_resignation()
        self._settle()

    def _cube(self, k: int) -> None:
        g = self.g
        if self.decision == "cube":
            if k == ROLL:
                g.roll()
            else:
                self._state = g.match_state()
                g.double()
        elif k == TAKE:
            g.take()
        elif k == PASS:
            g.drop()
        elif self.decision == "take":
            g.beaver()
        else:
            g.raccoon()

    @property
    def doubler_state(self):
        """The match state the last double was decided from (for the taker's ``cube_action``)."""
        return self._state

    # -- between decisions -------------------------------------------------------------------
    def _settle(self) -> None:
        """Play what needs no decision (the dice, a cube decision where no
        double is allowed, the next game of a match) and find who decides."""
        while True:
            g = self.g
            phase = g.phase
            if phase is Phase.OVER:
                self._ended()
                if self.m.is_over() or not self.length:
                    self.over = True
                    self.who = self.decision = None
                    return
                self.game = self.m.new_game()
                continue
            if phase is Phase.OPENING:
                g.roll()
                continue
            if phase is Phase.TURN:
                if self.cube and g.can_double():
                    self.who, self.decision = g.on_roll, "cube"
                    return
                g.roll()
                continue
            if phase is Phase.PLAY:
                self.who, self.decision = g.on_roll, "play"
                return
            if phase is Phase.DOUBLED:
                self.who, self.decision = g.turn, "take"
                return
            if phase is Phase.BEAVERED:
                self.who, self.decision = g.turn, "beaver"
                return
            raise AssertionError(f"unexpected phase {phase}")   # no resignations are offered here

    def _ended(self) -> None:
        g = self.g
        assert g.outcome is not None and self.match is not None
        before = tuple(g.score)
        after = g.final_score
        self.results.append((g.outcome, before, after, g.crawford, self.match.is_crawford_game))

    # -- rewards and observations -------------------------------------------------------------
    def mwc(self, score, crawford: bool, side: int) -> float:
        """``side``'s match winning chance at ``score`` between games (MET)."""
        met = self.met or MatchEquityTable.kazaross_xg2()
        s = (score[side], score[1 - side])
        return met.match_winning_chance(s, self.length, crawford=crawford and self.length - 1 in s
                                        and s.count(self.length - 1) == 1)

    def reward(self, kind: str, side: int) -> float:
        """``side``'s reward for the games that ended in the last call, in
        ``kind``: their points; +1 / -1 when the episode ended (a money game
        or the match) won / lost, else 0; or twice the change of its match
        winning chances, so that a match's rewards add up to +1 or -1 from 0-0."""
        total = 0.0
        for outcome, before, after, cr_before, cr_after in self.results:
            sign = 1 if outcome.winner == side else -1
            if kind == "points":
                total += sign * outcome.points
            elif kind == "match":
                total += 2.0 * (self.mwc(after, cr_after, side) - self.mwc(before, cr_before, side))
        if kind == "win" and self.results and self.over:
            outcome = self.results[-1][0]
            if self.length:
                total = 1.0 if self.m.winner == side else -1.0
            else:
                total = 1.0 if outcome.winner == side else -1.0
        return total

    def board(self, side: int) -> np.ndarray:
        """The position as ``side`` sees it (``side`` in row 1)."""
        g = self.g
        a = g.position.array
        return a if g.on_roll == side or g.on_roll is None and side == 0 else a[::-1]

    def roll(self, side: int) -> tuple[int, int]:
        """``side``'s dice at a play decision, else (0, 0)."""
        g = self.g
        if self.over or self.decision != "play" or self.who != side or g.dice is None:
            return (0, 0)
        return (int(g.dice[0]), int(g.dice[1]))

    def cube_units(self, side: int) -> np.ndarray:
        """The ``"cube"`` observation of ``side``, (14,) float32: log2 of the
        cube / 6; the cube centred, owned by ``side``, by its opponent; the
        decision asked of ``side`` (cube, take, beaver: one-hot, all zero
        for a play or while it waits); match play; ``side``'s and its
        opponent's points to go / length; the Crawford game; post-Crawford;
        ``side``'s match winning chances at the score (0 in money play);
        the Jacoby rule in force (money, cube not yet turned)."""
        g = self.g
        u = np.zeros(CUBE_UNITS, dtype=np.float32)
        u[0] = math.log2(g.cube_value) / 6.0
        owner = g.cube_owner
        u[1 + (0 if owner is None else (1 if owner == side else 2))] = 1.0
        if not self.over and self.who == side and self.decision != "play":
            u[4 + DECISIONS.index(self.decision)] = 1.0
        if self.length:
            assert self.match is not None
            score = g.score if not g.is_over() else g.final_score
            u[7] = 1.0
            u[8] = max(self.length - score[side], 0) / self.length
            u[9] = max(self.length - score[1 - side], 0) / self.length
            crawford = g.crawford if not g.is_over() else self.match.is_crawford_game
            u[10] = float(crawford)
            u[11] = float(self.match.is_post_crawford and not crawford)
            u[12] = self.mwc(score, crawford, side)
        else:
            turned = any(e.kind == "take" or e.kind in ("beaver", "raccoon") for e in g.history)
            u[13] = float(g.rules.jacoby and not turned)
        return u


def starting_seed(rng: np.random.Generator) -> np.random.SeedSequence:
    """A seed for the next episode drawn from an environment's generator."""
    return seed_sequence(generator(rng))
