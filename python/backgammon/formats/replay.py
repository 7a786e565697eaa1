"""Records replayed: the games of a :class:`~backgammon.formats.record.MatchRecord`
played again through ``Match`` and ``Game`` (every event by
``Game.apply``), so a record that breaks the rules fails naming the game
and the line; and what a file writer needs of each game
(:class:`GameItems`, the actions in file form), of a match, a record or
a duel's games."""
from __future__ import annotations

from dataclasses import dataclass

from .. import _validate
from ..errors import (AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidRollError, MatchFileError,
                      RulesError)
from ..game import Ending, Event, Game, Phase
from ..match import Match
from ..position import OPPONENT, Position
from ..rules import Rules
from .recorded import RecordedGame

__all__ = ["GameItems", "play_steps", "replay_games", "duel_records", "duel_items", "match_at", "CUBE_EVENTS"]

#: The events that turn the cube.
CUBE_EVENTS = ("double", "beaver", "raccoon")


def match_at(length: int, rules: Rules, score=(0, 0), cube_used: bool = False) -> Match:
    """A match from 0-0, or resumed at ``score``; a first game at length - 1
    that uses the cube was past the Crawford game (RULES 8.2)."""
    if tuple(score) != (0, 0):
        return Match(length, rules=rules, score=tuple(score), crawford=False if cube_used else None)
    return Match(length, rules=rules)


@dataclass
class GameItems:
    """What a writer needs of one replayed game: its score, Crawford flag,
    the actions in file form and the outcome.  The actions: ``("move",
    player, dice, steps)`` (no steps: the turn was forfeited), ``("dice",
    player, dice)`` (rolled, then resigned, or unfinished), ``("setboard",
    player, dice, SetBoard)`` (a play the rules refuse, kept as the board
    it leaves), ``("double", player, word, cube)`` (word: double, beaver,
    raccoon; cube: its value once taken), ``("take", player)``,
    ``("drop", player)`` and ``("wins", winner, points)``."""

    score: tuple
    crawford: bool
    items: list
    winner: int | None = None
    points: int = 0
    resigned: bool = False
    match_won: bool = False


def play_steps(play) -> list:
    """The single-die steps ``(from, to, hit)`` of a Play; the first step
    landing on a point where the play hit is the hitter."""
    from ..play import Play
    if type(play) is not Play:
        _validate.instance("play", play, Play, "backgammon.Play")
    hits = set(play.hits)
    out = []
    for frm, to in play.moves:
        hit = to in hits
        if hit:
            hits.discard(to)
        out.append((frm, to, hit))
    return out


def _where(lines: tuple, index: int, event) -> tuple:
    if lines and index < len(lines) and lines[index]:
        return lines[index], ""
    return 0, f" (event {index + 1}, {event.kind} by player {event.player})"


def replay_games(record, error_cls=MatchFileError, items: bool = False):
    """Replay a ``MatchRecord`` (its length, rules and games) through
    ``Match``/``Game`` (every event by ``Game.apply``): the Match, and with
    ``items`` the file items of each game (:class:`GameItems`); refusals
    raise ``error_cls`` naming the game and the line or event."""
    # By what the replay reads (record.py imports this module: no import back).
    if not all(hasattr(record, a) for a in ("length", "rules", "games")) or isinstance(record, type):
        raise TypeError(f"record must be a backgammon.mat.MatchRecord, not {type(record).__name__}")
    if not (isinstance(error_cls, type) and issubclass(error_cls, MatchFileError)):
        raise TypeError(f"error_cls must be a subclass of MatchFileError, not {error_cls!r:.40}")
    items = _validate.flag("items", items)
    start, cube_used = (0, 0), False
    if record.games and isinstance(record.games[0], RecordedGame):
        first = record.games[0]
        start = tuple(first.score)
        cube_used = any(isinstance(e, Event) and e.kind in CUBE_EVENTS for e in first.events)
    try:
        match = match_at(record.length, record.rules, start, cube_used)
    except (RulesError, ValueError) as e:
        raise error_cls(str(e)) from None
    out = []
    for number, rec in enumerate(record.games, 1):
        _validate.instance(f"record.games[{number - 1}]", rec, RecordedGame, "backgammon.mat.RecordedGame")
        if match.is_over():
            raise error_cls(f"the match was over ({match.score[0]}-{match.score[1]}) before this game",
                            number, rec.line)
        if tuple(rec.score) != match.score:
            raise error_cls(f"the record gives the score {rec.score[0]}-{rec.score[1]} but the games before "
                            f"it make {match.score[0]}-{match.score[1]} (RULES 8.5)", number, rec.line)
        game = match.new_game()
        walker = _Walker(game) if items else None
        for i, event in enumerate(rec.events):
            try:
                if not isinstance(event, Event):
                    raise TypeError(f"game events must be backgammon.Event items, not {type(event).__name__}")
                if walker is not None:
                    walker.apply(event)
                else:
                    game.apply(event)
            except TypeError:
                raise
            except (RulesError, IllegalMoveError, InvalidMoveError, AmbiguousMoveError, InvalidRollError,
                    ValueError) as e:
                line, note = _where(rec.lines, i, event)
                raise error_cls(f"{e}{note}", number, line) from None
        last_line = max(rec.lines) if rec.lines else rec.line
        o = game.outcome
        if o is not None:
            if rec.winner is not None and (rec.winner, rec.points) != (o.winner, o.points):
                raise error_cls(f"the record says player {rec.winner} won {rec.points} but the play gives "
                                f"player {o.winner} {o.points} point{'s' if o.points != 1 else ''} "
                                f"(RULES 6, 8.5)", number, last_line)
        elif rec.winner is not None:
            raise error_cls(f"the record gives a result (player {rec.winner} wins {rec.points}) "
                            f"but the game is not over", number, last_line)
        if walker is not None:
            out.append(walker.finish())
    return match, out


class _Walker:
    """Replays events into a game and collects the actions in file form:
    ``("move", player, dice, steps)`` (no steps: the turn was forfeited),
    ``("dice", player, dice)`` (rolled, then resigned, or unfinished),
    ``("double", player, word, cube)`` (word: double, beaver, raccoon;
    cube: its value once taken), ``("take", player)``, ``("drop", player)``
    and ``("wins", winner, points)``."""

    def __init__(self, game: Game):
        self.game = game
        self.items: list = []
        self.pending: tuple | None = None     # (player, dice): rolled, no play recorded yet

    def apply(self, event: Event) -> None:
        g, kind = self.game, event.kind
        if kind == "play" and event.value == "" and g.phase is not Phase.PLAY:
            return                   # a forfeited turn, recorded by the roll itself (RULES 3.4)
        if kind == "opening":
            cube = g.cube_value
            g.apply(event)
            if g.cube_value != cube:
                raise RulesError("an automatic double after a tied opening roll (RULES 7.5) cannot be "
                                 "written in a match file")
            if g.phase is not Phase.OPENING:
                self._rolled()
            return
        if kind == "roll" and g.phase is Phase.PLAY:
            raise RulesError("an opening re-roll (RULES 2.2 option) cannot be written in a match file")
        cube, turn = g.cube_value, g.turn
        if kind == "setboard":
            assert self.pending is not None
            g.apply(event)
            self.items.append(("setboard", turn, self.pending[1], event.value))
            self.pending = None
        elif kind == "play":
            if g.phase is not Phase.PLAY:
                raise RulesError("roll before playing (RULES 2.3)")
            value = event.value
            assert self.pending is not None and g.dice is not None
            play = g.position.parse_play(value, g.dice) if isinstance(value, str) else value
            g.apply(Event("play", event.player, str(play)))
            self.items.append(("move", turn, self.pending[1], play_steps(play)))
            self.pending = None
        else:
            g.apply(event)
            if kind == "roll":
                self._rolled()
            elif kind == "double":
                self.items.append(("double", turn, "double", cube * 2))
            elif kind in ("beaver", "raccoon"):
                self.items.append(("double", turn, kind, g.cube_value))
            elif kind in ("take", "drop"):
                self.items.append((kind, turn))
            elif kind == "accept" and self.pending is not None:
                self.items.append(("dice",) + self.pending)
                self.pending = None
        if kind in ("play", "setboard", "drop", "accept") and g.outcome is not None:
            self.items.append(("wins", g.outcome.winner, g.outcome.points))

    def _rolled(self) -> None:
        g = self.game
        last = g.history[-1]
        if last.kind == "play":          # no legal play: the turn passed (RULES 3.4)
            self.items.append(("move", last.player, _dice_of(g.history[-2]), []))
        else:
            self.pending = (g.on_roll, g.dice)

    def finish(self) -> GameItems:
        g = self.game
        if self.pending is not None:     # unfinished: the dice are rolled, no play yet
            self.items.append(("dice",) + self.pending)
            self.pending = None
        done = GameItems(tuple(g.score), g.crawford, self.items)
        if g.outcome is not None:
            done.winner, done.points = g.outcome.winner, g.outcome.points
            done.resigned = g.outcome.ending is Ending.RESIGNATION
            if g.length:
                done.match_won = g.final_score[g.outcome.winner] >= g.length
        return done


def _dice_of(event: Event) -> tuple:
    d = tuple(event.value)
    return (max(d), min(d)) if event.kind == "opening" else d


def duel_records(result, name: str = "duel_result"):
    from ..duel import DuelResult
    _validate.instance(name, result, DuelResult, "backgammon.DuelResult")
    if result.records is None:
        raise MatchFileError("the duel kept no games: run it with duel(..., record=True)")
    return result.records


def duel_items(result, error_cls=MatchFileError) -> list:
    """The file items of a duel's games, replayed on positions alone (the
    games are cubeless money games, so no ``Game`` is needed)."""
    out, score = [], [0, 0]
    for number, rec in enumerate(duel_records(result), 1):
        position, items = Position.initial(), list[tuple]()
        mover = int(rec.first)
        if len(rec.rolls) != len(rec.plays) or not rec.rolls:
            raise error_cls("a duel record needs one play per roll", number)
        for dice, text in zip(rec.rolls, rec.plays):
            if position.result() is not None:
                raise error_cls("the duel record goes on after the game is over", number)
            d = (int(dice[0]), int(dice[1]))
            if not items:
                d = (max(d), min(d))       # the opening: the first mover has the higher die (RULES 2.2)
            try:
                play = position.parse_play(text, d)
            except (IllegalMoveError, InvalidMoveError, AmbiguousMoveError, InvalidRollError) as e:
                raise error_cls(str(e), number) from None
            items.append(("move", mover, d, play_steps(play)))
            position = play.position
            mover = 1 - mover
        end = position.result()
        last_mover = 1 - mover
        if end is None:
            raise error_cls("the duel record ends before the game is over", number)
        winner = last_mover if end.winner == OPPONENT else mover
        if (winner, int(end.kind)) != (int(rec.winner), int(rec.points)):
            raise error_cls(f"the duel record's result (player {rec.winner} wins {rec.points}) does "
                                 f"not follow from its plays", number)
        items.append(("wins", winner, int(rec.points)))
        out.append(GameItems(tuple(score), False, items, winner, int(rec.points)))
        score[winner] += int(rec.points)
    return out
