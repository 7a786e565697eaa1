"""A game of backgammon as a state machine: the opening roll, turns, the
doubling cube, resignations and scoring (RULES 2, 6, 7), on top of the
move generator, which alone decides which plays are legal.

>>> g = Game(seed=1)
>>> # the opening: player 0 rolled 6, player 1 rolled 4
>>> g.roll((6, 4))
>>> g.on_roll, g.dice
(0, (6, 4))
>>> g.play("24/18 13/9")
>>> g.on_roll, g.can_double().allowed
(1, True)
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import numpy as np

from . import _validate
from .dice import generator, to_dice
from .doubling import Verdict, double_refusal, may_redouble, verdict
from .errors import AmbiguousMoveError, IllegalMoveError, IllegalPlayError, InvalidMoveError, RulesError
from .matchid import GameState, MatchState
from .play import Play, written_position
from .position import OPPONENT, Position
from .rules import MAX_CUBE, Rules
from .scoring import KIND_ENDING, Ending, Outcome, game_multiplier, resignation_multiplier
from .turn import Step, Turn

__all__ = ["Game", "Phase", "Ending", "Outcome", "Event", "SetBoard", "Verdict", "Step", "EVENT_KINDS",
           "EVENT_ACTIONS"]


class Phase(enum.Enum):
    """Where a game stands: what it waits for (``game.phase``).

    >>> from backgammon import Game
    >>> g = Game(seed=1)
    >>> g.phase
    <Phase.OPENING: 'opening'>
    >>> g.roll()
    >>> g.phase
    <Phase.PLAY: 'play'>
    """

    OPENING = "opening"      # before the opening roll (RULES 2.2)
    TURN = "turn"            # on roll, not yet rolled: may double, resign or roll
    DOUBLED = "doubled"      # a double waits for take, drop or beaver
    BEAVERED = "beavered"    # a beaver or raccoon waits to be accepted or answered
    PLAY = "play"            # the dice are rolled: a play is due
    RESIGNED = "resigned"    # a resignation waits to be accepted or rejected
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of ``game.history``: ``kind`` is opening, roll, play,
    setboard, double, take, drop, beaver, raccoon, resign, accept or
    reject; ``value`` holds dice, play notation, a :class:`SetBoard` (a
    play the rules refuse, kept as the board it leaves) or a resignation
    level.

    >>> from backgammon import Game
    >>> g = Game(seed=1)
    >>> g.roll(); g.play(g.legal_plays()[0])
    >>> g.history
    [Event(kind='opening', player=-1, value=(3, 4)), Event(kind='play', player=1, value='24/21 24/20')]
    """

    kind: str
    player: int
    value: Any = None     # dice (a tuple), play notation (a str) or a resignation level (an int)


@dataclass(frozen=True, slots=True)
class SetBoard:
    """The value of a ``setboard`` :class:`Event`: a turn whose recorded
    play the rules refuse, kept as the board it leaves (gnubg's
    ``MOVE_SETBOARD`` after ``MOVE_SETDICE``).  Records read from files
    hold it where a file writes an illegal play (``Game.set_board``).

    Attributes
    ----------
    position : Position
        The board after the play as written, the opponent on roll (as
        ``Play.position``).
    play : str
        The play as the file writes it ("" when the file gives only the
        board, as gnubg's ``Illegal play (...)`` does).
    reason : str
        Why the play is not legal, naming the rule ("" when not known).
    rule : str
        The rule ``reason`` cites first (``"3.1"``), "" when none.

    Examples
    --------
    >>> g = Game(seed=1)
    >>> g.roll((3, 1)); g.play_as_written("13/9 8/7")
    >>> event = g.history[-1]
    >>> event.kind, event.player, event.value.play, event.value.rule
    ('setboard', 0, '13/9 8/7', '3.1')
    >>> event.value.reason
    "'13/9 8/7' moves 5 pips; 3-1 gives only 4 (RULES 3.1)"
    >>> g.on_roll, g.position.pip_counts()
    (1, (167, 162))
    """

    position: Position
    play: str = ""
    reason: str = ""
    rule: str = ""

    def __str__(self) -> str:
        return self.play or f"board set to {self.position.to_id()}"


def _cited(message: str, **params) -> dict:
    """``params`` and the first rule ``message`` cites ("RULES 7.2" gives rule "7.2")."""
    found = re.search(r"RULES (\d+(?:\.\d+)?)", message)
    return {**params, "rule": found.group(1)} if found else params


#: The kinds of :class:`Event` and the Game method each one calls.
EVENT_ACTIONS = {"double": "double", "take": "take", "drop": "drop", "beaver": "beaver", "raccoon": "raccoon",
                 "accept": "accept_resignation", "reject": "reject_resignation"}
EVENT_KINDS = ("opening", "roll", "play", "setboard", "resign", *EVENT_ACTIONS)


class Game:
    """One game between player 0 and player 1, with the cube.

    Drive it with :meth:`roll`, :meth:`play` (or :meth:`move`,
    :meth:`undo` and :meth:`commit`, a checker at a time), :meth:`double`,
    :meth:`take`, :meth:`drop`, :meth:`beaver`, :meth:`raccoon` and
    :meth:`resign`, :meth:`accept_resignation`,
    :meth:`reject_resignation`; :meth:`legal_actions` says what may be done
    now.  :meth:`match_id` is the GNU Match ID of every state, finished
    ones included, as gnubg writes it.

    Parameters
    ----------
    rules : Rules, optional
        The rules options; default the match's, else
        :class:`~backgammon.rules.Rules`.
    match : Match, optional
        The match this game belongs to (``Match.new_game`` passes it):
        it gives the score, the length and the Crawford flag.
    seed : int or numpy.random.Generator, optional
        Seeds the dice.

    Attributes
    ----------
    phase : Phase
        Where the game is: the opening, a turn before the roll, a play,
        a double or resignation to answer, over.
    on_roll : int or None
        The side on roll (None before the opening roll).
    dice : tuple of int or None
        The dice to play, larger first after the opening.
    cube_value : int
        The cube's value.
    cube_owner : int or None
        Who owns the cube (None: centred).
    outcome : Outcome or None
        The winner, the ending and the points, once over.
    history : list of Event
        Every action, to replay the game (:meth:`replay`).
    score, length, crawford
        The match score before this game, the match length (0: money)
        and whether this is the Crawford game.

    Raises
    ------
    RulesError
        From any action out of turn or against the rules, naming the
        rule; the game is left unchanged.
    TypeError
        From an argument of the wrong type, naming the parameter.

    See Also
    --------
    backgammon.match.Match : games to a number of points.
    backgammon.matchid.MatchState : the state as a GNU Match ID.

    Examples
    --------
    >>> g = Game(seed=1)
    >>> # the opening: one die each, the higher moves first
    >>> g.roll()
    >>> g.on_roll, g.dice
    (1, (4, 3))
    >>> g.play("24/20 24/21")
    >>> g.phase, g.on_roll, g.can_double().allowed
    (<Phase.TURN: 'turn'>, 0, True)
    """

    def __init__(self, rules: Rules | None = None, match=None, seed=None):
        if match is not None and not callable(getattr(match, "begin_game", None)):   # match.py imports this module
            raise TypeError(f"match must be a backgammon.Match, not {type(match).__name__}")
        self.rules = rules if rules is not None else (match.rules if match is not None else Rules())
        _validate.instance("rules", self.rules, Rules, "backgammon.Rules")
        if match is not None and self.rules != match.rules:
            # One game, one set of rules: the match's, which its records and states carry (issue 40).
            raise RulesError(f"rules: a game of a match is played by the match's rules ({match.rules}), "
                             f"not {self.rules}; give them to the Match", code="rules_differ",
                             params={"parameter": "rules"})
        rng = generator(seed)          # checks the seed before a match counts this game
        self.match = match
        self.crawford = False
        self.score = (0, 0)
        self.length = 0
        if match is not None:
            if match.length:
                self.rules.check_match_play()
            self.crawford, self.score, self.length = match.begin_game(self)
        self._rng: np.random.Generator | None = rng
        self._position = Position.initial()
        self.on_roll: int | None = None
        self.dice: tuple[int, int] | None = None
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.phase = Phase.OPENING
        self.outcome: Outcome | None = None
        self.history: list[Event] = []
        self._cube_turned = False
        self._automatic_doubles = 0
        self._decider: int | None = None
        self._doubler: int | None = None
        self._redoubles = 0
        self._resign: tuple[int, int, Phase] | None = None
        self._resign_dice: tuple[int, int] | None = None   # dice rolled before an accepted resignation
        self._refused: tuple[int, int | None] | None = None  # (cube, owner) if the pending redouble is refused
        self._cube_turn = False         # this turn's double has been made (RULES 7.2)
        self._next_crawford = False     # the next game of the match is the Crawford game (RULES 8.2)
        self._opening_turn = False
        self._turn: Turn | None = None  # this turn's checker steps so far (turn.py)

    # -- queries ------------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The position from the view of the side on roll (RULES 1.1)."""
        return self._position

    @property
    def money(self) -> bool:
        return self.length == 0

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_plays(self):
        """The legal plays of the rolled dice."""
        self._need(Phase.PLAY, "there are no dice to play", "no_dice")
        return self._position.legal_plays(self.dice)

    @property
    def turn(self) -> int | None:
        """Who must act now: the side on roll, or the side answering a
        double or a resignation."""
        if self.phase in (Phase.DOUBLED, Phase.BEAVERED, Phase.RESIGNED):
            return self._decider
        return self.on_roll

    def can_double(self) -> Verdict:
        """Whether the side on roll may double now, and why not (RULES 7, 8)."""
        if self.phase is Phase.OVER:
            return Verdict(False, "the game is over", "game_over")
        if self.phase is Phase.OPENING:
            return Verdict(False, "no double before the opening roll (RULES 2.2, 7.2)", "opening_first")
        if self.phase is Phase.PLAY:
            return Verdict(False, "the dice are already rolled: double before rolling (RULES 7.2)", "already_rolled")
        if self.phase is not Phase.TURN:
            return Verdict(False, "a double or resignation is waiting for an answer", "answer_pending")
        if self._cube_turn:
            return Verdict(False, "one double per turn: the cube has been turned this turn, "
                                  "so the doubler rolls next (RULES 7.2)", "one_double_per_turn")
        assert self.on_roll is not None     # set once the opening roll is played
        return verdict(double_refusal(self.on_roll, self.cube_value, self.cube_owner, self.score, self.length,
                                      self.crawford, self.rules))

    # -- the dice ---------------------------------------------------------------------
    def roll(self, dice=None) -> None:
        """Roll (or set, for replaying records) the dice.

        The opening roll is one die each; ties are rolled again, and with
        automatic doubles in money play each tie doubles the centred cube
        (RULES 2.2, 7.5).

        Parameters
        ----------
        dice : tuple of int, optional
            The dice to set instead of rolling: at the opening
            ``(player 0's, player 1's)``.

        Raises
        ------
        RulesError
            No roll is due (a play or an answer is pending, or the game
            is over).

        Examples
        --------
        >>> g = Game(seed=1)
        >>> g.roll((3, 5)); g.on_roll, g.dice    # player 1's 5 is higher
        (1, (5, 3))
        """
        if self.phase is Phase.OPENING:
            d = self._dice(dice)
            self.history.append(Event("opening", -1, d))
            if d[0] == d[1]:
                if (self.money and self._automatic_doubles < self.rules.automatic_doubles
                        and self.cube_value * 2 <= self.rules.cube_limit):
                    self._automatic_doubles += 1
                    self.cube_value *= 2
                return
            self.on_roll = 0 if d[0] > d[1] else 1
            self.dice = (max(d), min(d))
            self.phase = Phase.PLAY
            self._opening_turn = True
            self._pass_if_blocked()
            return
        if self.phase is Phase.PLAY and self._opening_turn and self.rules.opening_reroll and not self._moved():
            d = self._dice(dice)   # RULES 2.2 option: both dice afresh, once
            assert self.on_roll is not None
            self.history.append(Event("roll", self.on_roll, d))
            self._opening_turn = False
            self.dice = d
            self._pass_if_blocked()
            return
        self._need(Phase.TURN, "the dice are rolled once per turn, before the play (RULES 2.3)", "roll_not_now")
        assert self.on_roll is not None
        d = self._dice(dice)
        self.history.append(Event("roll", self.on_roll, d))
        self.dice = d
        self.phase = Phase.PLAY
        self._cube_turn = False
        self._pass_if_blocked()

    def _dice(self, dice) -> tuple[int, int]:
        # Every roll takes one draw of the game's dice, even when the dice
        # are given (a replay): so a game rebuilt from its history with its
        # seed rolls next what the original had coming.
        given = None if dice is None else to_dice(dice)
        assert self._rng is not None      # a game that is not over has its dice
        d = self._rng.integers(1, 7, size=2)
        return given if given is not None else (int(d[0]), int(d[1]))

    def _pass_if_blocked(self) -> None:
        plays = self._position.legal_plays(self.dice)
        if len(plays) == 1 and not plays[0].moves:   # RULES 3.4: the turn is forfeited
            assert self.on_roll is not None
            self.history.append(Event("play", self.on_roll, ""))
            self._advance(plays[0])

    # -- plays --------------------------------------------------------------------------
    def play(self, play) -> None:
        """Play a whole turn: a ``Play`` or its notation, checked by the core.

        Parameters
        ----------
        play : Play or str
            A play of ``legal_plays()``, or its notation (``"8/5 6/5"``).

        Raises
        ------
        IllegalPlayError
            The rules forbid the play, the notation is unreadable or
            ambiguous (a ``RulesError``; its ``code`` says which).
        RulesError
            No play is due, or single moves are pending (commit or undo
            them).

        Examples
        --------
        >>> g = Game(seed=1)
        >>> g.roll((3, 1)); g.play("8/5 6/5"); g.on_roll, g.phase.value
        (1, 'turn')
        """
        self._need(Phase.PLAY, "roll before playing (RULES 2.3)", "roll_first")
        if self._moved():
            raise RulesError("finish the checker moves with commit() or take them back with undo()", code="moves_pending")
        chosen = self._resolve(play)
        assert self.on_roll is not None
        self.history.append(Event("play", self.on_roll, str(chosen)))
        self._advance(chosen)

    def _resolve(self, play) -> Play:
        try:
            if isinstance(play, Play):
                return self._position.legal_plays(self.dice)[self._index_of(play)]
            return self._position.parse_play(play, self.dice)
        except (IllegalMoveError, InvalidMoveError, AmbiguousMoveError) as e:
            code = {InvalidMoveError: "notation_unreadable", AmbiguousMoveError: "notation_ambiguous"}.get(
                type(e), "play_illegal")
            assert self.dice is not None
            raise IllegalPlayError(str(e), code=code, params=_cited(str(e), play=str(play), dice=list(self.dice))) from None

    def _index_of(self, play: Play) -> int:
        plays = self._position.legal_plays(self.dice)
        i = plays.find(play.position)
        if i < 0:
            assert self.dice is not None
            raise IllegalMoveError(f"{play} is not a legal play of {self.dice[0]}-{self.dice[1]} here (RULES 3-5)")
        return i

    def move(self, frm: int, to: int) -> None:
        """Move one checker one die's worth, if the move generator allows that
        step now; :meth:`commit` checks that the steps make a whole legal play.

        Parameters
        ----------
        frm, to : int
            Points from the mover's side: 25 the bar, 0 off.

        Raises
        ------
        RulesError
            The step is not one of :meth:`legal_steps`.

        Examples
        --------
        >>> g = Game(seed=1)
        >>> g.roll((3, 1)); g.move(8, 5); g.move(6, 5); g.commit()
        >>> str(g.history[-1].value)
        '8/5 6/5'
        """
        frm = _validate.integer("frm", frm)
        to = _validate.integer("to", to)
        self._need(Phase.PLAY, "roll before moving (RULES 2.3)", "roll_first")
        self._this_turn().move(frm, to)

    def _this_turn(self) -> Turn:
        # The turn being built, made afresh once the position or the dice change.
        assert self.dice is not None
        turn = self._turn
        if turn is None or turn.position is not self._position or turn.dice != self.dice:
            turn = self._turn = Turn(self._position, self.dice)
        return turn

    def _moved(self) -> bool:
        # A turn of another position or roll has made no step here: no need
        # to build one to say so (every play asks).
        turn = self._turn
        return (self.phase is Phase.PLAY and turn is not None and turn.position is self._position
                and turn.dice == self.dice and bool(turn.steps))

    @property
    def partial_position(self) -> Position:
        """The position after the checker moves made so far this turn."""
        return self._this_turn().current if self.phase is Phase.PLAY else self._position

    @property
    def steps(self) -> tuple[Step, ...]:
        """The checker steps made so far this turn (``move``), each with its die."""
        return tuple(self._this_turn().steps) if self.phase is Phase.PLAY else ()

    @property
    def dice_left(self) -> tuple[int, ...]:
        """The dice not yet used this turn, smallest first (four of a double;
        none before the roll)."""
        if self.phase is not Phase.PLAY or self.dice is None:
            return ()
        return self._this_turn().dice_left

    def legal_steps(self) -> dict[int, list[int]]:
        """The single-die steps the side to play may make next: from each
        point (25 = bar), the points (0 = off) it may move to, such that the
        steps can still end in a legal play (RULES 3-5).  Empty when no step
        is due.

        >>> g = Game(seed=1)
        >>> g.roll((3, 1))
        >>> g.legal_steps()[8], g.legal_steps()[6]
        ([7, 5], [5, 3])
        """
        if self.phase is not Phase.PLAY:
            return {}
        return self._this_turn().legal_steps()

    def legal_moves(self) -> dict[int, dict[int, tuple[Step, ...]]]:
        """Where each checker may go next with one or more dice: from each
        point, every point it reaches by steps that can still end in a
        legal play, with those steps (the fewest, then the smallest dice
        first: what ``move`` makes of them one at a time).

        >>> g = Game(seed=1)
        >>> g.roll((3, 1))
        >>> [(st.frm, st.to) for st in g.legal_moves()[8][4]]
        [(8, 7), (7, 4)]
        """
        if self.phase is not Phase.PLAY:
            return {}
        return self._this_turn().legal_moves()

    def is_complete(self) -> bool:
        """Whether this turn's checker moves make a whole legal play (so
        ``commit`` would take them)."""
        if self.phase is not Phase.PLAY:
            return False
        return self._this_turn().is_complete()

    def legal_actions(self) -> list[str]:
        """What the side on turn (``turn``) may do now, as the names of
        :class:`Event` kinds and of the turn's checker moves: ``roll``,
        ``double``, ``take``, ``drop``, ``beaver``, ``raccoon``, ``play``,
        ``move``, ``commit``, ``undo``, ``resign``, ``accept``, ``reject``.

        >>> Game(seed=1).legal_actions()
        ['roll']
        """
        phase = self.phase
        if phase is Phase.OVER:
            return []
        if phase is Phase.OPENING:
            return ["roll"]
        if phase is Phase.TURN:
            return ["roll"] + (["double"] if self.can_double() else []) + ["resign"]
        if phase is Phase.PLAY:
            moved = self._moved()
            acts = ["play", "move"] if moved or self.legal_steps() else ["play"]
            if moved:
                acts.append("undo")
                if self.is_complete():
                    acts.append("commit")
            if self.rules.opening_reroll and self._opening_turn and not moved:
                acts.append("roll")
            return acts + ["resign"]
        if phase in (Phase.DOUBLED, Phase.BEAVERED):
            acts = ["take", "drop"]
            kind = "beaver" if phase is Phase.DOUBLED or self._decider != self._doubler else "raccoon"
            if not may_redouble(kind, self.money, self._redoubles, self.cube_value,
                                4 if phase is Phase.DOUBLED else 2, self.rules):
                acts.append(kind)
            return acts
        return ["accept", "reject"]                    # Phase.RESIGNED

    def undo(self) -> None:
        """Take back this turn's checker moves."""
        self._need(Phase.PLAY, "there is nothing to take back", "nothing_to_undo")
        self._this_turn().undo()

    def commit(self) -> None:
        """End the turn with the moves made, if they form a legal play: the
        position they reach must be the result of one of the legal plays
        (RULES 3.4, 3.5), and that play is the one recorded."""
        self._need(Phase.PLAY, "roll and move before committing", "roll_first")
        chosen = self._this_turn().play()
        assert self.on_roll is not None
        self.history.append(Event("play", self.on_roll, str(chosen)))
        self._advance(chosen)

    def set_board(self, position: Position, play: str = "", reason: str = "") -> None:
        """End the turn with the board ``position`` in place of a play: what
        a record keeps of a play the rules refuse (a ``setboard`` event
        holding a :class:`SetBoard`).  The turn passes as after a play;
        a board where a side has borne off all 15 ends the game
        (RULES 6).  Analysis does not rate such a turn.

        Parameters
        ----------
        position : Position
            The board after the play, the opponent on roll (as
            ``Play.position``).
        play : str
            The play as written, for the record.
        reason : str
            Why it is not legal, naming the rule (``"... (RULES 3.1)"``).

        Raises
        ------
        RulesError
            No play is due, or single moves are pending.

        Examples
        --------
        >>> from backgammon import Position
        >>> g = Game(seed=1)
        >>> g.roll((3, 1)); g.set_board(Position.initial().play("8/5 6/5", "31"))
        >>> g.history[-1].kind, g.on_roll
        ('setboard', 1)
        """
        _validate.instance("position", position, Position, "backgammon.Position")
        if not isinstance(play, str) or not isinstance(reason, str):
            raise TypeError("play and reason must be str")
        self._need(Phase.PLAY, "a board takes the place of a play: roll first (RULES 2.3)", "roll_first")
        if self._moved():
            raise RulesError("finish the checker moves with commit() or take them back with undo()", code="moves_pending")
        assert self.on_roll is not None
        rule = _cited(reason).get("rule", "")
        self.history.append(Event("setboard", self.on_roll, SetBoard(position, play, reason, rule)))
        self._advance_to(position)

    def play_as_written(self, play: str) -> None:
        """Play ``play`` as a record writes it: a legal play is played
        (:meth:`play`); one the rules refuse leaves the board its moves
        make, taken as written (:func:`~backgammon.play.written_position`),
        as a ``setboard`` event naming the rule it breaks
        (:meth:`set_board`), as gnubg and gammonview read such a play.

        Raises
        ------
        IllegalPlayError
            The notation is unreadable or ambiguous, or no board follows
            from it (no checker to move, a point the opponent holds).

        Examples
        --------
        >>> g = Game(seed=1)
        >>> g.roll((3, 1)); g.play_as_written("8/5 6/5"); g.history[-1].kind
        'play'
        """
        try:
            self.play(play)
            return
        except IllegalPlayError as e:
            if e.code != "play_illegal":
                raise
            reason = str(e)
        try:
            after = written_position(self._position, play)
        except (IllegalMoveError, InvalidMoveError) as e:
            assert self.dice is not None
            raise IllegalPlayError(f"{reason}; taken as written: {e}", code="play_illegal",
                                   params=_cited(reason, play=str(play), dice=list(self.dice))) from None
        self.set_board(after, play, reason)

    def _advance(self, play: Play) -> None:
        self._advance_to(play.position)

    def _advance_to(self, after: Position) -> None:
        result = after.result()
        mover = self.on_roll
        assert mover is not None
        self._opening_turn = False
        if result is not None:
            # The mover is row 0 of the position after its play.
            winner = mover if result.winner == OPPONENT else 1 - mover
            self._position = after
            self.on_roll = 1 - mover
            self._finish(winner, KIND_ENDING[result.kind],
                         game_multiplier(int(result.kind), self.rules, money=self.money, turned=self._cube_turned))
            return
        self._position = after
        self.on_roll = 1 - mover
        self.dice = None
        self.phase = Phase.TURN

    def _finish(self, winner: int, ending: Ending, multiplier: int, cube: int | None = None) -> None:
        cube = self.cube_value if cube is None else cube
        self.outcome = Outcome(winner, ending, cube, multiplier, multiplier * cube)
        self.phase = Phase.OVER
        self.dice = None
        self._turn = None
        # A finished game rolls no more: what only play needs goes (matches
        # keep every game, a server thousands of matches).
        self._rng = None
        if self.match is not None:
            self._next_crawford = self.match.end_game(self, self.outcome)

    @property
    def final_score(self) -> tuple[int, int]:
        """The match (or session) score after this game: ``score`` plus the
        points of the outcome once the game is over (RULES 8.5)."""
        if self.outcome is None:
            return cast("tuple[int, int]", tuple(self.score))
        final = list(self.score)
        final[self.outcome.winner] += self.outcome.points
        return cast("tuple[int, int]", tuple(final))

    # -- the cube -------------------------------------------------------------------------
    def double(self) -> None:
        """The side on roll offers a double (RULES 7.1, 7.2).

        Raises
        ------
        RulesError
            The side may not double now (:meth:`can_double` says why).

        Examples
        --------
        >>> g = Game(seed=1)
        >>> # player 1 doubles
        >>> g.roll((3, 1)); g.play("8/5 6/5"); g.double(); g.take()
        >>> g.cube_value, g.cube_owner
        (2, 0)
        """
        verdict = self.can_double()
        if not verdict:
            raise RulesError(verdict.reason, code=verdict.code, params=_cited(verdict.reason))
        assert self.on_roll is not None
        self.history.append(Event("double", self.on_roll))
        self._doubler = self.on_roll
        self._decider = 1 - self.on_roll
        self._redoubles = 0
        self._refused = None
        self._cube_turn = True           # RULES 7.2: one double per turn
        self.phase = Phase.DOUBLED

    def take(self) -> None:
        """Take the double (or accept a beaver or raccoon): the cube doubles
        and the taker owns it (RULES 7.3).  The doubler rolls next: however
        the cube was answered, it is still the doubler's turn (RULES 7.2).

        Raises
        ------
        RulesError
            There is no double to take.
        """
        if self.phase is Phase.DOUBLED:
            self.cube_value *= 2
            self.cube_owner = self._decider
        elif self.phase is not Phase.BEAVERED:
            raise RulesError("there is no double to take", code="no_double_to_answer")
        assert self._decider is not None    # set with the double or redouble answered
        self.history.append(Event("take", self._decider))
        self._cube_turned = True
        self._refused = None
        self.phase = Phase.TURN

    def drop(self) -> None:
        """Pass the double: the doubler wins the value before the double
        (RULES 7.3, 8.5).  A beaver or raccoon may be passed the same way:
        the side that refuses it loses the value before that redouble
        (RULES 7.5) -- 2 for a beaver of a double from 1.

        Raises
        ------
        RulesError
            There is no double to pass.

        Examples
        --------
        >>> g = Game(seed=1)
        >>> # player 1 doubles
        >>> g.roll((3, 1)); g.play("8/5 6/5"); g.double(); g.drop()
        >>> g.outcome.winner, g.outcome.points
        (1, 1)
        """
        if self.phase is Phase.BEAVERED:
            refuser = self._decider
            assert refuser is not None and self._refused is not None
            self.history.append(Event("drop", refuser))
            self.cube_value, self.cube_owner = self._refused
            self._refused = None
            self._finish(1 - refuser, Ending.DROP, 1)
            return
        self._need(Phase.DOUBLED, "there is no double to pass", "no_double_to_answer")
        assert self._decider is not None and self._doubler is not None
        self.history.append(Event("drop", self._decider))
        self._finish(self._doubler, Ending.DROP, 1)

    def beaver(self) -> None:
        """The doubled side takes and at once redoubles, keeping the cube (RULES 7.5)."""
        doubled = 1 - self._doubler if self._doubler is not None else None
        self._redouble("beaver", doubled, 4 if self.phase is Phase.DOUBLED else 2)

    def raccoon(self) -> None:
        """The doubler redoubles a beaver, taking the cube (RULES 7.5)."""
        if self.phase is not Phase.BEAVERED:
            raise RulesError("a raccoon answers a beaver (RULES 7.5)", code="no_beaver_now", params={"rule": "7.5"})
        self._redouble("raccoon", self._doubler, 2)

    def _redouble(self, kind: str, who, factor: int) -> None:
        if self.phase not in (Phase.DOUBLED, Phase.BEAVERED) or self._decider != who:
            raise RulesError(f"no {kind} now: it answers a double (beaver) or a beaver (raccoon) (RULES 7.5)",
                             code="no_beaver_now", params={"kind": kind, "rule": "7.5"})
        assert self._doubler is not None    # set with the double being answered
        refused = verdict(may_redouble(kind, self.money, self._redoubles, self.cube_value, factor, self.rules))
        if not refused:
            extra = {"beaver_limit": {"count": self.rules.beavers}, "cube_limit": {"limit": self.rules.cube_limit}}
            raise RulesError(refused.reason, code=refused.code,
                             params=_cited(refused.reason, **extra.get(refused.code, {})))
        self.history.append(Event(kind, who))
        # What a refusal of this redouble leaves: the cube at its value before
        # it (for a first beaver, the double taken), with the doubled side,
        # the beaverer -- the cube gnubg shows while a redouble waits.
        before = self.cube_value * 2 if self.phase is Phase.DOUBLED else self.cube_value
        self._refused = (before, 1 - self._doubler)
        self.cube_value *= factor
        # The side that accepts the last redouble owns the cube: the beaverer,
        # after a beaver and after a raccoon alike (as gnubg has it).
        self.cube_owner = who if kind == "beaver" else 1 - who
        self._cube_turned = True
        self._redoubles += 1
        self._decider = 1 - who
        self.phase = Phase.BEAVERED

    # -- resignation ----------------------------------------------------------------------
    def resign(self, level: int, player: int | None = None) -> None:
        """A player offers to resign a single (1), gammon (2) or backgammon
        (3) (RULES 6.5): the side on roll, or ``player``, who may also be the
        other side, offering while its opponent is on roll (as FIBS allows,
        and as match files record it), or either side before the opening
        roll (``player`` then names it; gnubg reads such games in match
        files).

        >>> g = Game(); g.resign(1, player=1); g.accept_resignation()
        >>> g.outcome.winner, g.outcome.points
        (0, 1)
        """
        level = _validate.integer("level", level)
        if level not in (1, 2, 3):
            raise RulesError(f"resign 1 (single), 2 (gammon) or 3 (backgammon), not {level!r} (RULES 6.5)",
                             code="resign_level", params={"level": level, "rule": "6.5"})
        if self.phase is Phase.OPENING:
            if player is None:
                raise RulesError("before the opening roll no side is on roll: name the player who resigns (RULES 6.5)",
                                 code="resign_who", params={"rule": "6.5"})
        elif self.phase not in (Phase.TURN, Phase.PLAY):
            raise RulesError("a resignation is offered with no decision pending (RULES 6.5)", code="resign_not_now",
                             params={"rule": "6.5"})
        resigner = self.on_roll if player is None else _validate.integer("player", player, low=0, high=1)
        assert resigner is not None
        self.history.append(Event("resign", resigner, level))
        self._resign = (resigner, level, self.phase)
        self._decider = 1 - resigner
        self.phase = Phase.RESIGNED

    def accept_resignation(self) -> None:
        """The opponent scores the offered level times the cube (RULES 6.5, 8.5)."""
        self._need(Phase.RESIGNED, "no resignation has been offered", "no_resignation")
        assert self._resign is not None and self._decider is not None
        resigner, level, phase = self._resign
        self.history.append(Event("accept", self._decider))
        self._resign_dice = self.dice if phase is Phase.PLAY else None
        # RULES 6.5: the level offered (scoring.resignation_points).
        self._finish(1 - resigner, Ending.RESIGNATION, resignation_multiplier(level, self.rules))

    def reject_resignation(self) -> None:
        """Play on as before the offer."""
        self._need(Phase.RESIGNED, "no resignation has been offered", "no_resignation")
        assert self._resign is not None and self._decider is not None
        self.history.append(Event("reject", self._decider))
        self.phase = self._resign[2]
        self._resign = None

    @property
    def resignation(self) -> int:
        """The level of a pending resignation, or 0."""
        if self.phase is not Phase.RESIGNED:
            return 0
        assert self._resign is not None
        return self._resign[1]

    # -- records ----------------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        """Apply one recorded :class:`Event` (as ``history`` holds them): the
        action of its kind by its player.  An opening or roll event sets the
        dice it holds; a play event's value is notation; an empty play
        after a roll that cannot be played is the forfeited turn the roll
        recorded (RULES 3.4).  A wrong type raises TypeError; an event the
        rules refuse, of an unknown kind, or given to the wrong player,
        RulesError naming why.

        >>> g = Game()
        >>> g.apply(Event("opening", -1, (3, 1))); g.apply(Event("play", 0, "8/5 6/5"))
        >>> g.on_roll, g.phase.value
        (1, 'turn')
        """
        _validate.instance("event", event, Event, "backgammon.Event")
        kind = event.kind
        if kind not in EVENT_KINDS:
            raise RulesError(f"unknown event {kind!r}: one of {', '.join(EVENT_KINDS)}", code="record_event",
                             params={"kind": str(kind)})
        if kind == "play" and event.value == "" and self.phase is not Phase.PLAY:
            return       # a forfeited turn, recorded by the roll itself (RULES 3.4)
        if kind == "opening" and self.phase is not Phase.OPENING:
            raise RulesError("an opening roll after the game has started (RULES 2.2)", code="record_opening",
                             params={"rule": "2.2"})
        actor = self.turn
        if kind == "resign" and event.player in (0, 1) and self.phase in (Phase.OPENING, Phase.TURN, Phase.PLAY):
            actor = event.player       # either side may offer to resign (RULES 6.5)
        if kind not in ("opening",) and event.player in (0, 1) and actor is not None and event.player != actor:
            raise RulesError(f"the record gives this {kind} to player {event.player}, "
                             f"but it was player {actor}'s to make", code="record_player",
                             params={"kind": kind, "player": event.player})
        if kind in ("opening", "roll"):
            self.roll(event.value)
        elif kind == "play":
            self.play(event.value)
        elif kind == "setboard":
            _validate.instance("event.value", event.value, SetBoard, "backgammon.SetBoard")
            self.set_board(event.value.position, event.value.play, event.value.reason)
        elif kind == "resign":
            self.resign(event.value, event.player if event.player in (0, 1) else None)
        else:
            getattr(self, EVENT_ACTIONS[kind])()

    @classmethod
    def replay(cls, events, rules: Rules | None = None, match=None) -> "Game":
        """Rebuild a game from its ``history``, a sequence of :class:`Event`
        (each through :meth:`apply`).

        A wrong type (``events`` not a sequence of Events) raises TypeError;
        an event the rules refuse, or of an unknown kind, raises RulesError.
        """
        try:
            events = list(events)
        except TypeError:
            raise TypeError(f"events must be an iterable of backgammon.Event, not {type(events).__name__}") from None
        for i, event in enumerate(events):
            if not isinstance(event, Event):
                raise TypeError(f"events must hold backgammon.Event items; events[{i}] is a {type(event).__name__}")
        game = cls(rules=rules, match=match)
        for event in events:
            game.apply(event)
        return game

    def match_state(self) -> MatchState:
        """The :class:`~backgammon.MatchState` of this game now, as gnubg
        records it (docs/formats.md, "GNU Match ID").

        While the game goes on: the score before it and its own Crawford
        flag; ``turn`` is the side that must act, and a pending beaver or
        raccoon shows as a double offered on the cube that refusing it would
        leave.  Once it is over, as gnubg after the last action: the score
        after the game (RULES 8.5); the Crawford flag of the game to come,
        set when a side has just reached length - 1 and cleared after the
        Crawford game (RULES 8.2); after a drop or an accepted resignation
        ``turn`` is the side that answered, the resignation level stays and
        so do dice rolled before resigning; after a bear-off the loser is on
        roll and on turn.
        """
        fields: dict[str, Any] = dict(cube_value=self.cube_value, cube_owner=self.cube_owner, on_roll=self.on_roll or 0,
                      crawford=self.crawford, match_length=self.length, score=tuple(self.score),
                      jacoby=self.money and self.rules.jacoby, beavers=self.money and self.rules.beavers > 0,
                      cube_limit=None if self.rules.cube_limit == MAX_CUBE else self.rules.cube_limit)
        phase = self.phase
        if phase is Phase.OPENING:
            return MatchState(game_state=GameState.NONE, turn=0, **fields)
        if phase is Phase.OVER:
            assert self.outcome is not None
            ending = self.outcome.ending
            state = {Ending.DROP: GameState.DROPPED, Ending.RESIGNATION: GameState.RESIGNED}.get(ending, GameState.OVER)
            answered = ending in (Ending.DROP, Ending.RESIGNATION)
            resigned = ending is Ending.RESIGNATION
            fields.update(score=self.final_score, crawford=self._next_crawford)
            level = 0
            if resigned:
                assert self._resign is not None     # an accepted resignation keeps its offer
                level = self._resign[1]
            return MatchState(game_state=state, turn=self._decider if answered else self.on_roll,
                              resignation=level,
                              dice=(self._resign_dice or (0, 0)) if resigned else (0, 0), **fields)
        if phase is Phase.BEAVERED:
            assert self._refused is not None
            fields.update(cube_value=self._refused[0], cube_owner=self._refused[1])
        dice = self.dice if phase in (Phase.PLAY, Phase.RESIGNED) and self.dice is not None else (0, 0)
        return MatchState(game_state=GameState.PLAYING, turn=self.turn,
                          double_offered=phase in (Phase.DOUBLED, Phase.BEAVERED),
                          resignation=self.resignation, dice=dice, **fields)

    def match_id(self) -> str:
        """The GNU Match ID of this game's current state, equal to gnubg's
        (see :meth:`match_state`)."""
        return self.match_state().to_match_id()

    def _need(self, phase: Phase, why: str, code: str = "") -> None:
        if self.phase is not phase:
            raise RulesError(f"{why} (now: {self.phase.value})", code=code, params=_cited(why, phase=self.phase.value))

    def __repr__(self) -> str:
        return f"<Game {self.phase.value}, player {self.on_roll} on roll, cube {self.cube_value}>"
