"""Chouette: one player, the box, against a team led by the captain (RULES 9).

>>> c = Chouette(["Ann", "Bob", "Cy"], seed=3)
>>> c.order                       # box, captain, then the rest of the line
['Ann', 'Cy', 'Bob']
>>> # the box (player 0) opens
>>> g = c.new_game(); g.roll((6, 1)); g.play("13/7 8/7")
>>> # the team resigns a single
>>> g.resign(1); g.accept_resignation(); c.settle()
{'Ann': 2, 'Bob': -1, 'Cy': -1}
>>> # the team lost: the box stays, the captain goes to the end
>>> c.box, c.captain
('Ann', 'Bob')
"""
from __future__ import annotations

from ._validate import instance, integer
from .dice import generator
from .errors import RulesError
from .game import Game, Phase
from .rules import Rules

__all__ = ["Chouette", "BOX", "TEAM"]

#: In each chouette game player 0 is the box and player 1 the team.
BOX, TEAM = 0, 1


class Chouette:
    """A chouette of three or more players at ``stake`` per point (RULES 9).

    Each game is a :class:`~backgammon.game.Game` with the box as player 0
    and the team (moved by the captain) as player 1.  The team's doubles
    and the answers to the box's go through :meth:`team_doubles` and
    :meth:`answer_box_double`, since each team member decides alone;
    :meth:`settle` pays out and rotates.

    Parameters
    ----------
    players : iterable of str
        Three or more distinct names; their order of play is drawn by
        rolling one die each (RULES 9.1).
    stake : int, default 1
        Money per point.
    rules : Rules, optional
        The money options.
    seed : int, optional
        Seeds the ranking rolls and the games' dice.

    Attributes
    ----------
    order : list of str
        The box, the captain, then the others in line.
    ledger : dict
        Each player's running total; it always sums to zero.
    game : Game or None
        The game in play.

    Raises
    ------
    RulesError
        Fewer than three players, a name twice, a stake below 1.

    Examples
    --------
    >>> c = Chouette(["Ann", "Bob", "Cy"], stake=1, seed=3)
    >>> c.order, c.ledger
    (['Ann', 'Cy', 'Bob'], {'Ann': 0, 'Bob': 0, 'Cy': 0})
    """

    def __init__(self, players, stake: int = 1, rules: Rules | None = None, seed=None):
        players = list(players)
        if len(players) < 3 or len(set(players)) != len(players):
            raise RulesError("a chouette needs three or more distinct players (RULES 9.1)")
        self.stake = integer("stake", stake, low=1, error=RulesError)
        self.rules = instance("rules", rules if rules is not None else Rules(), Rules, "backgammon.Rules")
        self._rng = generator(seed)
        #: Every die each player rolled for the ranking, ties re-rolled.
        self.opening_rolls: dict = {p: () for p in players}
        self.order = self._rank(players)
        self.ledger = {p: 0 for p in players}
        self.game: Game | None = None
        self.in_game: list = []          # team members still in the current game
        self._settled = True
        self._ledger_at_start = dict(self.ledger)

    def _rank(self, players):
        # RULES 9.1: one die each, highest first; tied players roll again
        # among themselves for their places.
        rolls = {p: int(self._rng.integers(1, 7)) for p in players}
        for p, die in rolls.items():
            self.opening_rolls[p] += (die,)
        ranked = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [p for p in players if rolls[p] == value]
            ranked.extend(tied if len(tied) == 1 else self._rank(tied))
        return ranked

    @property
    def box(self):
        return self.order[0]

    @property
    def captain(self):
        return self.order[1]

    @property
    def team(self) -> list:
        return self.order[1:]

    def new_game(self) -> Game:
        if self.game is not None and not self.game.is_over():
            raise RulesError("the current game is not over")
        if not self._settled:
            raise RulesError("settle() the finished game first: it pays out and rotates (RULES 9.2)")
        self.game = Game(rules=self.rules, seed=self._rng)
        self.in_game = list(self.team)
        self._ledger_at_start = dict(self.ledger)
        self._settled = False
        return self.game

    # -- the cube ---------------------------------------------------------------------
    def answer_box_double(self, takers) -> None:
        """The box has doubled (``game.double()`` on its turn): each member
        answers alone (RULES 9.3).  Members not in ``takers`` pay the box the
        current stake and leave the game; the rest play on at the new value.

        Parameters
        ----------
        takers : iterable of str
            The team members who take.

        Raises
        ------
        RulesError
            No double of the box is pending, or a taker not in the game.
        """
        game = self._need_double(BOX)
        takers = set(takers)
        unknown = takers - set(self.in_game)
        if unknown:
            raise RulesError(f"{sorted(unknown)} are not in this game")
        value = game.cube_value
        for member in [m for m in self.in_game if m not in takers]:
            self._pay(member, self.box, self.stake * value)
            self.in_game.remove(member)
        if self.in_game:
            if self.captain not in self.in_game:
                # The captain passed: the next member still in takes over,
                # and the old captain goes to the end of the line.
                old = self.order.pop(1)
                self.order.remove(self.in_game[0])
                self.order[1:1] = [self.in_game[0]]
                self.order.append(old)
            game.take()
        else:
            game.drop()

    def team_doubles(self, agreeing) -> None:
        """The team doubles the box: only when every member still in the
        game agrees (RULES 9.3).

        Parameters
        ----------
        agreeing : iterable of str
            The members who agree to double.

        Raises
        ------
        RulesError
            Not the team's turn, or a member in the game did not agree.
        """
        game = self.game
        if game is None or game.on_roll != TEAM:
            raise RulesError("the team doubles on its own turn")
        missing = set(self.in_game) - set(agreeing)
        if missing:
            raise RulesError(f"the team doubles only when every member agrees; {sorted(missing)} did not (RULES 9.3)")
        game.double()

    def answer_team_double(self, take: bool) -> None:
        """The box takes or passes the team's double; on a pass it pays each
        member still in the game the current stake (RULES 9.3, 9.4)."""
        game = self._need_double(TEAM)
        if take:
            game.take()
        else:
            game.drop()    # settle() pays each member the value before the double

    def _need_double(self, doubler: int) -> Game:
        game = self.game
        if game is None or game.phase is not Phase.DOUBLED or game.on_roll != doubler:
            who = "box" if doubler == BOX else "team"
            raise RulesError(f"the {who} has not doubled")
        return game

    # -- the end of a game ----------------------------------------------------------------
    def settle(self) -> dict:
        """Pay out the finished game and rotate (RULES 9.2, 9.4).

        Returns
        -------
        dict
            Every payment of this game by player, those made when members
            passed the box's double included: the ledger's change since
            the game began, which sums to zero.

        Raises
        ------
        RulesError
            The game is not over.
        """
        game = self.game
        if game is None or not game.is_over():
            raise RulesError("the game is not over")
        outcome = game.outcome
        assert outcome is not None      # the game is over
        box = self.box
        if self._settled:
            raise RulesError("this game is settled already")
        # Members who passed the box's double have paid already; each member
        # still in settles with the box at the game's value (RULES 9.4),
        # whether it ended by play, resignation or a passed double.
        for member in self.in_game:
            amount = self.stake * outcome.points
            if outcome.winner == TEAM:
                self._pay(box, member, amount)
            else:
                self._pay(member, box, amount)
        self.in_game = []
        self._settled = True
        self._rotate(team_won=outcome.winner == TEAM)
        return {p: self.ledger[p] - self._ledger_at_start[p] for p in self.ledger}

    def _rotate(self, team_won: bool) -> None:
        box, captain, rest = self.order[0], self.order[1], self.order[2:]
        if team_won:      # RULES 9.2: the captain takes the box
            self.order = [captain] + rest + [box]
        else:             # the box stays; the captain goes to the end
            self.order = [box] + rest + [captain]

    def _pay(self, payer, payee, amount: int) -> None:
        self.ledger[payer] -= amount
        self.ledger[payee] += amount

    def __repr__(self) -> str:
        return f"<Chouette box {self.box}, captain {self.captain}, line {self.order[2:]}>"
