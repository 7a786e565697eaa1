"""A match to N points, or a money session (RULES 8).

>>> m = Match(3)
>>> g = m.new_game()
>>> g.roll((3, 1)); g.play("8/5 6/5"); g.resign(1)
>>> g.accept_resignation()
>>> m.score, m.winner
((1, 0), None)
"""
from __future__ import annotations

from typing import cast

from . import _validate
from .dice import generator, seed_sequence
from .errors import RulesError
from .game import Game
from .matchid import MAX_FIELD
from .rules import Rules

__all__ = ["Match", "match_winner"]


def match_winner(score, length: int) -> int | None:
    """The side whose score reached or passed the match length (RULES 8.1).

    Parameters
    ----------
    score : pair of int
        Player 0's and player 1's points.
    length : int
        The match length; 0 for money play.

    Returns
    -------
    int or None
        0 or 1; None while neither side has won, and in money play.

    Examples
    --------
    >>> match_winner((3, 5), 5), match_winner((3, 4), 5), match_winner((9, 0), 0)
    (1, None, None)
    """
    length = _validate.integer("length", length, low=0)
    if not (isinstance(score, (tuple, list)) and len(score) == 2):
        raise TypeError(f"score must be a pair of ints, not {score!r:.40}")
    if length:
        for side in (0, 1):
            if _validate.integer("score", score[side], low=0) >= length:
                return side
    return None

#: Kept for older imports (rollouts): :func:`backgammon.dice.seed_sequence`.


class Match:
    """Games to ``length`` points, or a money session that tallies points.

    :meth:`new_game` starts the next game with the right cube state: the
    Crawford game (RULES 8.2), the dead cube (RULES 8.3).

    Parameters
    ----------
    length : int
        The match length in points, from 1 to the Match ID's limit
        (32,767); 0 for a money session.
    rules : Rules, optional
        The rules options; money-only options are refused in a match.
    seed : int or numpy.random.SeedSequence, optional
        Seeds every game's dice.
    score : pair of int, default (0, 0)
        The score the match resumes at (a record of its later games).
    crawford : bool, optional
        Whether the first game of a resumed match is the Crawford game;
        default when one side is at ``length - 1`` and the other is not
        (RULES 8.2).

    Attributes
    ----------
    score : tuple of int
        The points of player 0 and player 1 so far.
    winner : int or None
        The side that has won the match.
    games : list of Game
        The games so far, the current one last.

    Raises
    ------
    RulesError
        A length out of range, a score at which the match is over, a
        Crawford flag the score does not allow, money-only rules in a
        match.
    TypeError
        ``score`` not a pair.

    See Also
    --------
    backgammon.game.Game : one game.
    backgammon.duel.play_match : a match played by two players.

    Examples
    --------
    >>> m = Match(3)
    >>> g = m.new_game()
    >>> m.score, m.is_crawford_game, g.match_id()
    ((0, 0), False, 'MABgAAAAAAAE')

    Resumed at 4-2 in a 5-point match: the first game is the Crawford game.

    >>> Match(5, score=(4, 2)).is_crawford_game
    True
    """

    def __init__(self, length: int, rules: Rules | None = None, seed=None, *, score=(0, 0),
                 crawford: bool | None = None):
        """A match: see the class's parameters."""
        length = _validate.integer("length", length)
        if not 0 <= length <= MAX_FIELD:
            raise RulesError(f"a match length is a whole number of points from 1 (0 for money) to {MAX_FIELD}, "
                             f"not {length} (RULES 8.1)", code="match_length", params={"length": length, "rule": "8.1"})
        self.rules = Rules() if rules is None else _validate.instance("rules", rules, Rules, "backgammon.Rules")
        if length:
            self.rules.check_match_play()
        self.length = length
        self.games: list[Game] = []
        self._score = [0, 0]
        self._crawford_reached = False   # a side has reached length - 1
        self._next_crawford = False
        if isinstance(score, str) or not isinstance(score, (tuple, list)) or len(score) != 2:
            raise TypeError(f"score must be a pair of ints, not {type(score).__name__}")
        start = [_validate.integer("score", s, low=0, high=MAX_FIELD) for s in score]
        if length and max(start) >= length:
            raise RulesError(f"a match to {length} cannot resume at {start[0]}-{start[1]}: it is over (RULES 8.1)",
                             code="match_over", params={"rule": "8.1"})
        if crawford is not None:
            crawford = _validate.flag("crawford", crawford)
            if crawford and not (length and start.count(length - 1) == 1):
                raise RulesError(f"the Crawford game has one side at {length - 1} and the other behind "
                                 f"(RULES 8.2), not {start[0]}-{start[1]}", code="crawford_score", params={"rule": "8.2"})
        if start != [0, 0]:
            # A match resumed at a score: the first game at length - 1 is the
            # Crawford game, unless ``crawford`` says it was played (RULES 8.2).
            self._score = start
            if length and length - 1 in start:
                self._crawford_reached = True
                self._next_crawford = start.count(length - 1) == 1 if crawford is None else crawford
        self._seeds = seed_sequence(seed)

    @property
    def score(self) -> tuple[int, int]:
        return cast("tuple[int, int]", tuple(self._score))

    @property
    def winner(self) -> int | None:
        """The side that reached or passed the length (RULES 8.1)."""
        return match_winner(self._score, self.length)

    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def is_crawford_game(self) -> bool:
        """The current (or next) game is the Crawford game (RULES 8.2)."""
        if self.games and not self.games[-1].is_over():
            return self.games[-1].crawford
        return self._next_crawford

    @property
    def is_post_crawford(self) -> bool:
        """The Crawford game has been played; the cube is back (RULES 8.2)."""
        return self._crawford_reached and not self.is_crawford_game

    def new_game(self) -> Game:
        """The next game, seeded from the match's seed.

        Raises
        ------
        RulesError
            The match is over, or the current game is not.
        """
        return Game(rules=self.rules, match=self, seed=generator(self._seeds.spawn(1)[0]))

    # -- called by Game -----------------------------------------------------------------
    def begin_game(self, game: Game):
        """Called by a ``Game`` made for this match: counts it and returns its
        (Crawford flag, score, length).  ``new_game()`` is how to start one."""
        if self.is_over():
            raise RulesError(f"the match is over: player {self.winner} won {self._score[0]}-{self._score[1]} (RULES 8.1)",
                             code="match_over", params={"rule": "8.1"})
        if self.games and not self.games[-1].is_over():
            raise RulesError("the current game is not over yet", code="game_not_over")
        crawford = self._next_crawford
        self._next_crawford = False
        self.games.append(game)
        return crawford, self.score, self.length

    def end_game(self, game: Game, outcome) -> bool:
        """Called by a game of this match when it ends: adds its points
        (RULES 8.5) and returns whether the next game is the Crawford game."""
        self._score[outcome.winner] += outcome.points          # RULES 8.5
        if self.length and not self._crawford_reached and not self.is_over():
            if self._score[outcome.winner] == self.length - 1:
                self._crawford_reached = True                  # RULES 8.2
                self._next_crawford = True
        return self._next_crawford

    def __repr__(self) -> str:
        kind = f"{self.length}-point match" if self.length else "money session"
        return f"<Match {kind}, score {self._score[0]}-{self._score[1]}>"
