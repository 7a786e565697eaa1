"""Match records and Jellyfish ``.mat`` files (REFERENCES.md, "Match files").

A :class:`MatchRecord` holds what a match file holds: the players, the
match length (0 for a money session), the header, and every game as the
score before it, its actions as :class:`~backgammon.Event` items (the
same events as ``Game.history``) and its result.  :func:`read_mat` reads
the text gnubg writes with ``export match mat`` (and imports with
``import mat``); :func:`write_mat` writes a ``Match``, a ``MatchRecord``
or the games of a duel.  Every record read is replayed through
``Match``/``Game`` at once, so a file that breaks the rules, or that is
cut short, raises :class:`MatFileError` naming the game and the line.

>>> import backgammon as bg
>>> m = bg.Match(1)
>>> g = m.new_game()
>>> g.roll((3, 1)); g.play("8/5 6/5"); g.resign(1); g.accept_resignation()
>>> text = write_mat(m, players=("Ann", "Bob"))
>>> print(text)
 1 point match
<BLANKLINE>
 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5
      Wins 1 point and the match
<BLANKLINE>
>>> record = read_mat(text)
>>> record.players, record.length, record.games[0].winner, record.games[0].points
(('Ann', 'Bob'), 1, 0, 1)
>>> [e.kind for e in record.games[0].events]
['opening', 'play', 'resign', 'accept']
>>> write_mat(record) == text
True

The layout (gnubg's): optional ``; [Key "value"]`` header lines and
``;`` comments, `` N point match`` (0: money), then per game `` Game k``,
the score line `` name : s0`` padded to 31 characters then
``name : s1``, and numbered rows with player 0's action in the left
column (``NNN) `` then 27 characters and a space) and player 1's in the
right one, from character 33: ``31: 8/5 6/5`` (a roll and its play, as
single-die steps from the mover's side, 25 the bar and 0 off, ``*`` a
hit), ``41:`` (no legal play, RULES 3.4; or, before a ``Wins`` line, a
roll followed by a resignation), `` Doubles => 2``, `` Beavers => 4``,
`` Raccoons => 8``, `` Takes``, `` Drops``; when player 1 moves
first, the first row's left column is empty.  Each game
ends with ``Wins N point(s)`` (``and the match`` after the last game of
a match).  A resignation is that line while the game is still on: the
side on turn resigned, and the level is the points over the cube.

Reading accepts what other writers do: any notation ``parse_play``
reads (``bar/21*``, ``13/7*/5``, ``6/4(2)``), other column widths,
``Cannot Move`` for a dance, any case, tabs, blank lines.  The column
of a ``Wins`` line is not used (gnubg does not always put it in the
winner's column); a beaver followed by the doubler's roll is taken (the
convention gnubg writes and reads); a double answered by nothing but the
game's result is gnubg's record of the cube decision of a side that then
resigned on its turn, and is dropped.  Writing follows gnubg's reader:
a beaver that is taken is written ``Beavers => N`` with no ``Takes``,
any other beaver ``Doubles => N`` (gnubg keeps a "beaver" open until the
next roll, across games); the ``Wins`` line of player 1 goes on the
row of player 0's last action when that row has room, as gnubg writes it.

What the format cannot hold: tied opening rolls (dropped when written;
with automatic doubles, RULES 7.5, they change the cube and cannot be
written), rejected resignation offers (dropped), the level of an
accepted resignation beyond the points it scored (read back as the
lowest level that scores them; under the Jacoby rule any level on a
centred cube reads back as 1), an opening re-roll (RULES 2.2 option),
the rules options except Jacoby and the cube limit (header lines
``; [Jacoby "On"]`` and ``; [CubeLimit "N"]``), and a money session's
end: a session file cut between two games reads as a shorter session.
A match file cut anywhere else fails to read.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from typing import NoReturn

from . import _validate
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidRollError, RulesError
from .game import Ending, Event, Game, Phase
from .match import Match
from .position import OPPONENT, Position
from .rules import MAX_CUBE, Rules

__all__ = ["MatchRecord", "RecordedGame", "MatchFileError", "MatFileError", "read_mat", "write_mat",
           "save_duel", "MONEY_RULES"]

#: The rules a money session is read with unless told otherwise: beavers
#: and raccoons allowed (RULES 7.5), as files record them when they happen.
MONEY_RULES = Rules(beavers=16)

_DEFAULT_PLAYERS = ("Player 0", "Player 1")


class MatchFileError(ValueError):
    """A match record or file that cannot be read or replayed; ``game``
    (1-based) and ``line`` (1-based, 0 when unknown) say where."""

    def __init__(self, message: str, game: int | None = None, line: int | None = None):
        where = []
        if game:
            where.append(f"game {game}")
        if line:
            where.append(f"line {line}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.game = game
        self.line = line


class MatFileError(MatchFileError):
    """A ``.mat`` file that is malformed, truncated or against the rules."""


# -- the record ------------------------------------------------------------------------------

@dataclass(frozen=True)
class RecordedGame:
    """One game of a record: ``score`` before it, its ``events`` (as in
    ``Game.history``), the ``winner`` (None while unfinished) and the
    ``points`` won; ``lines`` gives the source line of each event and
    ``line`` the line where the game starts (empty / 0 when the record
    was not read from a file)."""

    score: tuple
    events: tuple
    winner: int | None = None
    points: int = 0
    lines: tuple = ()
    line: int = 0

    @property
    def resigned(self) -> bool:
        """The game ended by an accepted resignation (RULES 6.5)."""
        return bool(self.events) and self.events[-1].kind == "accept"


@dataclass(frozen=True)
class MatchRecord:
    """A match (``length`` points, RULES 8.1) or money session (``length``
    0) as a file holds it.

    ``header`` is the ``(key, value)`` pairs of the file's header (for
    ``.mat`` the ``; [Key "value"]`` lines), ``comments`` its other
    comment lines, ``rules`` the rules the games are replayed with.
    :meth:`replay` rebuilds the games through ``Match``/``Game``.
    """

    players: tuple = _DEFAULT_PLAYERS
    length: int = 0
    games: tuple = ()
    header: tuple = ()
    comments: tuple = ()
    rules: Rules = field(default_factory=Rules)

    @property
    def score(self) -> tuple:
        """The score after the last finished game (RULES 8.5)."""
        score = [0, 0]
        for game in self.games:
            score = list(game.score)
            if game.winner is not None:
                score[game.winner] += game.points
        return tuple(score)

    @property
    def winner(self) -> int | None:
        """The side that won the match (RULES 8.1), None for a money
        session or an unfinished match."""
        if self.length:
            for side in (0, 1):
                if self.score[side] >= self.length:
                    return side
        return None

    def replay(self) -> Match:
        """The record replayed through ``Match`` and ``Game``: an action
        the rules refuse, a score line or a result that does not follow
        from the play raises :class:`MatchFileError` naming the game and
        the line (or the event, for a record not read from a file)."""
        return _replay(self, MatchFileError)[0]

    @classmethod
    def from_match(cls, match: Match, players=None, header=(), comments=()) -> "MatchRecord":
        """The record of a ``Match``: every game's ``history``."""
        _validate.instance("match", match, Match, "backgammon.Match")
        games = tuple(RecordedGame(tuple(g.score), tuple(g.history),
                                   g.outcome.winner if g.outcome else None,
                                   g.outcome.points if g.outcome else 0) for g in match.games)
        return cls(_players(players), match.length, games, tuple(header), tuple(comments), match.rules)

    @classmethod
    def from_duel(cls, result, players=None) -> "MatchRecord":
        """The games of a duel (``duel(..., record=True)``) as a money
        session between player A (0) and player B (1): cubeless games,
        each from its opening roll."""
        records = _duel_records(result)
        names = _players(players if players is not None else
                         tuple(str(n).replace(":", "-").strip() or "?" for n in (result.a, result.b)))
        games, score = [], [0, 0]
        for rec in records:
            events = list(_duel_events(rec))
            games.append(RecordedGame(tuple(score), tuple(events), int(rec.winner), int(rec.points)))
            score[int(rec.winner)] += int(rec.points)
        return cls(names, 0, tuple(games), (), (), Rules())


def _players(players) -> tuple:
    if players is None:
        return _DEFAULT_PLAYERS
    if isinstance(players, str) or not isinstance(players, (tuple, list)) or len(players) != 2:
        raise TypeError(f"players must be a pair of names, not {type(players).__name__}")
    for name in players:
        if not isinstance(name, str):
            raise TypeError(f"players must hold two str names, not {type(name).__name__}")
    return tuple(players)


def _duel_records(result, name: str = "duel_result"):
    from .duel import DuelResult
    _validate.instance(name, result, DuelResult, "backgammon.DuelResult")
    if result.records is None:
        raise MatchFileError("the duel kept no games: run it with duel(..., record=True)")
    return result.records


def _duel_events(rec):
    """Events of one duel game: the opening roll (the first mover has the
    higher die, RULES 2.2) and every later roll and play."""
    first = int(rec.first)
    for k, (dice, play) in enumerate(zip(rec.rolls, rec.plays)):
        d = (int(dice[0]), int(dice[1]))
        mover = first if k % 2 == 0 else 1 - first
        if k == 0:
            hi, lo = max(d), min(d)
            yield Event("opening", -1, (hi, lo) if mover == 0 else (lo, hi))
        else:
            yield Event("roll", mover, d)
        yield Event("play", mover, play)


# -- replaying records; the items a file writer needs ------------------------------------------------

@dataclass
class _GameItems:
    """What a writer needs of one replayed game: its score, Crawford flag,
    the actions in file form and the outcome."""

    score: tuple
    crawford: bool
    items: list
    winner: int | None = None
    points: int = 0
    resigned: bool = False
    match_won: bool = False


def _steps(play) -> list:
    """The single-die steps ``(from, to, hit)`` of a Play; the first step
    landing on a point where the play hit is the hitter."""
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


def _replay(record: MatchRecord, error_cls, items: bool = False):
    """Replay ``record``; with ``items`` also the file items of each game."""
    _validate.instance("record", record, MatchRecord, "backgammon.mat.MatchRecord")
    try:
        match = Match(record.length, rules=record.rules)
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
                    _apply(game, event)
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


def _apply(game: Game, event: Event, check: bool = True) -> None:
    """One event of ``Game.history`` applied to ``game`` (as ``Game.replay``)."""
    kind = event.kind
    if kind == "opening":
        if game.phase is not Phase.OPENING:
            raise RulesError("an opening roll after the game has started (RULES 2.2)")
        game.roll(event.value)
    elif kind == "roll":
        game.roll(event.value)
    elif kind == "play":
        if event.value == "" and game.phase is not Phase.PLAY:
            return     # a forfeited turn, recorded by the roll itself (RULES 3.4)
        game.play(event.value)
    elif kind == "resign":
        game.resign(event.value)
    elif kind in _ACTIONS:
        getattr(game, _ACTIONS[kind])()
    else:
        raise RulesError(f"unknown event {kind!r}")
    if check:
        _check_player(game, event)


_ACTIONS = {"double": "double", "take": "take", "drop": "drop", "beaver": "beaver", "raccoon": "raccoon",
            "accept": "accept_resignation", "reject": "reject_resignation"}


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
            if g.phase is not Phase.OPENING:
                raise RulesError("an opening roll after the game has started (RULES 2.2)")
            cube = g.cube_value
            g.roll(event.value)
            if g.cube_value != cube:
                raise RulesError("an automatic double after a tied opening roll (RULES 7.5) cannot be "
                                 "written in a match file")
            if g.phase is not Phase.OPENING:
                self._rolled()
            return
        if kind == "roll" and g.phase is Phase.PLAY:
            raise RulesError("an opening re-roll (RULES 2.2 option) cannot be written in a match file")
        cube, turn = g.cube_value, g.turn
        if kind == "play":
            if g.phase is not Phase.PLAY:
                raise RulesError("roll before playing (RULES 2.3)")
            value = event.value
            assert self.pending is not None and g.dice is not None
            play = g.position.parse_play(value, g.dice) if isinstance(value, str) else value
            g.play(str(play))
            self.items.append(("move", turn, self.pending[1], _steps(play)))
            self.pending = None
        else:
            _apply(g, event, check=False)
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
        _check_player(g, event)
        if kind in ("play", "drop", "accept") and g.outcome is not None:
            self.items.append(("wins", g.outcome.winner, g.outcome.points))

    def _rolled(self) -> None:
        g = self.game
        last = g.history[-1]
        if last.kind == "play":          # no legal play: the turn passed (RULES 3.4)
            self.items.append(("move", last.player, _dice_of(g.history[-2]), []))
        else:
            self.pending = (g.on_roll, g.dice)

    def finish(self) -> _GameItems:
        g = self.game
        if self.pending is not None:     # unfinished: the dice are rolled, no play yet
            self.items.append(("dice",) + self.pending)
            self.pending = None
        done = _GameItems(tuple(g.score), g.crawford, self.items)
        if g.outcome is not None:
            done.winner, done.points = g.outcome.winner, g.outcome.points
            done.resigned = g.outcome.ending is Ending.RESIGNATION
            if g.length:
                done.match_won = g.final_score[g.outcome.winner] >= g.length
        return done


def _dice_of(event: Event) -> tuple:
    d = tuple(event.value)
    return (max(d), min(d)) if event.kind == "opening" else d


def _check_player(game: Game, event: Event) -> None:
    """The side the record gives an action to must be the side that made it."""
    if event.kind == "opening" or event.player not in (0, 1):
        return
    last = next((e for e in reversed(game.history) if e.kind == event.kind), None)
    if last is not None and last.player != event.player:
        raise RulesError(f"the record gives this {event.kind} to player {event.player}, "
                         f"but it was player {last.player}'s to make")


def _duel_items(result, error_cls=MatchFileError) -> list:
    """The file items of a duel's games, replayed on positions alone (the
    games are cubeless money games, so no ``Game`` is needed)."""
    out, score = [], [0, 0]
    for number, rec in enumerate(_duel_records(result), 1):
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
            items.append(("move", mover, d, _steps(play)))
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
        out.append(_GameItems(tuple(score), False, items, winner, int(rec.points)))
        score[winner] += int(rec.points)
    return out


def _source_items(source, players, error_cls):
    """(record, items per game) of a Match, a MatchRecord or a DuelResult."""
    if isinstance(source, Match):
        record = MatchRecord.from_match(source, players)
        return record, _replay(record, error_cls, items=True)[1]
    if isinstance(source, MatchRecord):
        if players is not None:
            source = replace(source, players=_players(players))
        return source, _replay(source, error_cls, items=True)[1]
    from .duel import DuelResult
    if isinstance(source, DuelResult):
        # Player specs such as "net:1" name the sides; a .mat name holds no ':'.
        names = _players(players if players is not None else
                         tuple(str(n).replace(":", "-").strip() or "?" for n in (source.a, source.b)))
        return MatchRecord(names, 0, (), (), (), Rules()), _duel_items(source, error_cls)
    raise TypeError("source must be a backgammon.Match, a backgammon.mat.MatchRecord or a "
                    f"backgammon.DuelResult, not {type(source).__name__}")


# -- building records from file actions -------------------------------------------------------

class _Builder:
    """Plays the actions a file gives into a live ``Match`` and keeps the
    events with their line numbers.  Shared by the .mat and SGF readers."""

    def __init__(self, length: int, rules: Rules, error_cls):
        self.error = error_cls
        try:
            self.match = Match(length, rules=rules)
        except (RulesError, ValueError) as e:
            raise error_cls(str(e)) from None
        self.games: list[RecordedGame] = []
        self.current: Game | None = None
        self.number = 0
        self.lines: list[int] = []
        self.start_line = 0
        self.empty_roll: tuple[int, int] | None = None   # (player, line): dice written with no move yet
        self.doubler: int | None = None
        self.result: tuple[int, int] | None = None       # (winner, points) the file gives

    @property
    def game(self) -> Game:
        assert self.current is not None, "no game begun"
        return self.current

    def fail(self, message: str, line: int) -> NoReturn:
        raise self.error(message, self.number or None, line)

    def begin(self, number: int, score: tuple, line: int) -> None:
        if number != len(self.games) + 1:
            raise self.error(f"game {number} where game {len(self.games) + 1} was expected", None, line)
        self.number = number
        if self.match.is_over():
            self.fail(f"the match is over ({self.match.score[0]}-{self.match.score[1]}, RULES 8.1): "
                      f"no more games", line)
        if tuple(score) != self.match.score:
            self.fail(f"the file gives the score {score[0]}-{score[1]} but the games before make "
                      f"{self.match.score[0]}-{self.match.score[1]} (RULES 8.5)", line)
        self.current = self.match.new_game()
        self.lines = []
        self.start_line = line
        self.empty_roll = None
        self.doubler = None
        self.result = None

    def _do(self, line: int, action, *args) -> None:
        g = self.game
        before = len(g.history)
        try:
            action(*args)
        except (RulesError, IllegalMoveError, InvalidMoveError, AmbiguousMoveError, InvalidRollError) as e:
            self.fail(str(e), line)
        self.lines.extend([line] * (len(g.history) - before))

    def _open(self, line: int) -> None:
        if self.game.is_over():
            self.fail("the game is already over: nothing may follow its result", line)

    def _settle_empty(self, line: int) -> None:
        """Dice written with no move, followed by something other than the
        opponent's win: gnubg reads a forced play there; anything else
        leaves a play missing (RULES 3.4)."""
        if self.empty_roll is None:
            return
        player, at = self.empty_roll
        self.empty_roll = None
        plays = self.game.legal_plays()
        if len(plays) == 1:
            self._do(at, self.game.play, str(plays[0]))
            return
        d1, d2 = self.game.dice or (0, 0)
        self.fail(f"{d1}{d2} is written with no move, but there are {len(plays)} legal plays (RULES 3.4)", at)

    def move(self, player: int, dice: tuple, text: str | None, line: int) -> None:
        """A roll and its play: ``text`` is the moves ("" for none written;
        None when only the dice are recorded)."""
        self._open(line)
        self._settle_empty(line)
        g = self.game
        if g.phase is Phase.BEAVERED and g.turn == player == g.on_roll:
            self._do(line, g.take)           # a beaver taken without a word: gnubg's reading
        if g.phase is Phase.OPENING:
            if dice[0] == dice[1]:
                self.fail(f"the opening roll {dice[0]}{dice[1]} is a double: each side rolls one die and "
                          f"ties are rolled again (RULES 2.2)", line)
            hi, lo = max(dice), min(dice)
            self._do(line, g.roll, (hi, lo) if player == 0 else (lo, hi))
        else:
            if g.phase is not Phase.TURN or g.on_roll != player:
                self.fail(self._not_now(player, "roll"), line)
            self._do(line, g.roll, tuple(dice))
        if g.phase is not Phase.PLAY:        # no legal play: the turn passed (RULES 3.4)
            if text:
                self.fail(f"{text!r}: {dice[0]}{dice[1]} cannot be played here (RULES 3.4)", line)
            return
        if text is None:
            return
        if text == "":
            self.empty_roll = (player, line)
            return
        self._do(line, g.play, text)

    def dice_only(self, player: int, dice: tuple, line: int) -> None:
        """Dice rolled with no play recorded: a resignation follows, or the
        game is unfinished."""
        self.move(player, dice, None, line)

    def _state(self) -> str:
        g = self.game
        if g.phase is Phase.OVER:
            return "the game is over"
        if g.phase in (Phase.DOUBLED, Phase.BEAVERED):
            return f"player {g.turn} must answer the cube (RULES 7.3)"
        if g.phase is Phase.RESIGNED:
            return f"player {g.turn} must answer a resignation (RULES 6.5)"
        if g.phase is Phase.PLAY:
            return f"player {g.on_roll} has rolled and must play (RULES 2.3)"
        return f"it is player {g.turn}'s turn (RULES 2.3, 7.2)"

    def _not_now(self, player: int, what: str) -> str:
        return f"player {player} cannot {what} now: {self._state()}"

    def cube(self, player: int, word: str, value: int | None, line: int) -> None:
        """``Doubles``, ``Beavers`` or ``Raccoons``: a double from the side
        on roll, a beaver from the doubled side, a raccoon from the
        doubler (RULES 7.1-7.5)."""
        self._open(line)
        self._settle_empty(line)
        g = self.game
        if g.phase is Phase.TURN and player == g.on_roll:
            self._do(line, g.double)
            self.doubler = player
            expected = g.cube_value * 2
        elif g.phase in (Phase.DOUBLED, Phase.BEAVERED) and player == g.turn:
            kind = "raccoon" if g.phase is Phase.BEAVERED and player == self.doubler else "beaver"
            self._do(line, getattr(g, kind))
            expected = g.cube_value
        else:
            self.fail(self._not_now(player, "double"), line)
        if value is not None and value != expected:
            self.fail(f"{word} => {value}, but the cube goes to {expected} (RULES 7.3-7.5)", line)

    def answer(self, player: int, kind: str, line: int) -> None:
        """``take`` or ``drop`` of a double, beaver or raccoon (RULES 7.3, 7.5)."""
        self._open(line)
        self._settle_empty(line)
        g = self.game
        if g.phase not in (Phase.DOUBLED, Phase.BEAVERED):
            self.fail(f"player {player} {'takes' if kind == 'take' else 'drops'} but no double is waiting "
                      f"for an answer (RULES 7.3)", line)
        if player != g.turn:
            self.fail(f"player {player} answers the cube, but player {g.turn} was doubled (RULES 7.3)", line)
        self._do(line, getattr(g, kind))

    def wins(self, winner: int | None, points: int, line: int, resigned: bool | None = None) -> None:
        """The game's result: after a bear-off or a drop it must be what the
        play gives; otherwise the loser, on turn, resigned (RULES 6.5).
        ``winner`` None: the side the game's state makes the winner."""
        g = self.game
        if self.result is not None:
            self.fail("a second result for one game", line)
        if points < 1:
            self.fail(f"a game is won by at least 1 point, not {points}", line)
        if self.empty_roll is not None and winner is not None and self.empty_roll[0] == winner:
            self._settle_empty(line)
        self.empty_roll = None
        if winner is None:
            if g.outcome is not None:
                winner = g.outcome.winner
            elif g.phase in (Phase.TURN, Phase.PLAY) and g.turn is not None:
                winner = 1 - g.turn
            else:
                self.fail(f"a win of {points} before the game is over, so a resignation; but only the side "
                          f"on turn resigns, with no decision pending (RULES 6.5), and {self._state()}", line)
        if not g.is_over():
            if resigned is False:
                self.fail(f"the file says player {winner} won {points}, but the game is not over", line)
            loser = 1 - winner
            if g.phase not in (Phase.TURN, Phase.PLAY) or g.turn != loser:
                self.fail(f"player {winner} wins {points} before the game is over, so player {loser} "
                          f"resigned; but only the side on turn resigns, with no cube decision pending "
                          f"(RULES 6.5), and {self._state()}", line)
            level = self._resign_level(points)
            if level is None:
                self.fail(f"a resignation scores 1, 2 or 3 times the cube ({g.cube_value}), "
                          f"not {points} (RULES 6.5)", line)
            self._do(line, g.resign, level)
            self._do(line, g.accept_resignation)
        o = g.outcome
        assert o is not None
        if resigned is True and o.ending is not Ending.RESIGNATION:
            self.fail("the file marks a resignation, but the game ended on the board", line)
        if (o.winner, o.points) != (winner, points):
            self.fail(f"the file says player {winner} wins {points} point{'s' if points != 1 else ''}, but "
                      f"the play gives player {o.winner} {o.points} (RULES 6, 7.3, 8.5)", line)
        self.result = (winner, points)

    def _resign_level(self, points: int) -> int | None:
        g = self.game
        if g.money and g.rules.jacoby and g.cube_owner is None and points == g.cube_value:
            return 1      # RULES 7.5: any resignation on a centred cube scores single under Jacoby
        for level in (1, 2, 3):
            if level * g.cube_value == points:
                return level
        return None

    def end(self, line: int, last: bool, partial: bool) -> None:
        g = self.game
        unfinished_ok = last and partial
        if self.empty_roll is not None and not unfinished_ok:
            self._settle_empty(line)
        if g.outcome is not None and self.result is None:
            self.fail(f"the game is over (player {g.outcome.winner} wins {g.outcome.points}) but the file "
                      f"gives no result for it", line)
        if not g.is_over() and not unfinished_ok:
            self.fail("the game ends without a result: the file is truncated (read it with partial=True "
                      "for a match in progress)", line)
        winner = g.outcome.winner if g.outcome else None
        points = g.outcome.points if g.outcome else 0
        self.games.append(RecordedGame(tuple(g.score), tuple(g.history), winner, points,
                                       tuple(self.lines), self.start_line))
        self.current = None

    def finish(self, line: int, partial: bool) -> tuple:
        if self.match.length and not self.match.is_over() and not partial:
            raise self.error(f"the match to {self.match.length} ends at {self.match.score[0]}-"
                             f"{self.match.score[1]} before anyone has won: the file is truncated (read it "
                             f"with partial=True for a match in progress)", None, line)
        return tuple(self.games)


# -- reading .mat ---------------------------------------------------------------------------

_MATCH_LINE = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME_LINE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE_LINE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_HEADER = re.compile(r'^\[\s*([^"\]]*?)\s+"(.*)"\s*\]$')
_ROW = re.compile(r"^\s*(\d+)\)")
_POINT = r"(?:\d{1,2}|bar|off)"
_MOVE = rf"{_POINT}\*?(?:/{_POINT}\*?)+(?:\(\d\))?"
_ITEMS = [
    ("roll", re.compile(rf"([1-6])([1-6]):((?:[ \t]+{_MOVE})*)(?:[ \t]+(?:cannot move|\?\?\?\??))?(?=\s|$)", re.I)),
    ("double", re.compile(r"(doubles|beavers|raccoons)(?:[ \t]*=>[ \t]*(\d+))?(?=\s|$)", re.I)),
    ("take", re.compile(r"takes(?=\s|$)", re.I)),
    ("drop", re.compile(r"drops(?=\s|$)", re.I)),
    ("wins", re.compile(r"wins[ \t]+(\d+)[ \t]+points?(?:[ \t]+and[ \t]+the[ \t]+match)?(?=\s|$)", re.I)),
]
#: Items starting at this column or later are in the right (second player's) column.
_RIGHT_FROM = 20


class _RowError(Exception):
    pass


def _items_of(text: str, offset: int) -> list:
    """The actions on one row: [(column, kind, match)]."""
    out: list = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return out
        for kind, pattern in _ITEMS:
            m = pattern.match(text, i)
            if m:
                out.append((1 if offset + i >= _RIGHT_FROM else 0, kind, m))
                i = m.end()
                break
        else:
            word = text[i:].split()[0]
            raise _RowError(f"cannot read {word!r} (column {offset + i + 1}): expected dice and moves "
                            f"such as '31: 8/5 6/5', Doubles => N, Takes, Drops or Wins N points")


def read_mat(text: str, rules: Rules | None = None, *, partial: bool = False) -> MatchRecord:
    """Read a ``.mat`` file's text into a :class:`MatchRecord`, replaying
    every game (RULES 2-8).

    ``rules`` replaces the rules read from the header (a match uses the
    standard rules; a money session :data:`MONEY_RULES`, with Jacoby when
    the header says ``; [Jacoby "On"]``).  With ``partial`` the last game
    (and the match) may be unfinished, as in a match in progress;
    otherwise a game with no result, or a match that nobody has won, is
    a truncated file.  Errors raise :class:`MatFileError` with the line.
    """
    _validate.instance("text", text, str)
    if rules is not None:
        _validate.instance("rules", rules, Rules, "backgammon.Rules")
    partial = _validate.flag("partial", partial)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    lines = [ln.expandtabs(8) for ln in lines]
    header, comments, length, at = [], [], None, 0
    while at < len(lines):
        line = lines[at]
        at += 1
        s = line.strip()
        if not s:
            continue
        if s[0] in ";#":
            body = s[1:].strip()
            m = _HEADER.match(body)
            if m:
                header.append((m.group(1), m.group(2)))
            elif body:
                comments.append(body)
            continue
        m = _MATCH_LINE.match(line)
        if not m:
            raise MatFileError(f"expected the match length line (' 7 point match', 0 for money), "
                               f"not {s[:40]!r}", None, at)
        length = int(m.group(1))
        break
    if length is None:
        raise MatFileError("no ' N point match' line: this is not a .mat file", None, max(at, 1))
    if rules is None:
        rules = _rules_from_header(header, length, at)
    builder = _Builder(length, rules, MatFileError)
    players: tuple | None = None
    # Split the rest into games: (number, line, [(line, text), ...]).
    games: list[tuple[int, int, list[tuple[int, str]]]] = []
    while at < len(lines):
        line = lines[at]
        at += 1
        if not line.strip():
            continue
        m = _GAME_LINE.match(line)
        if m:
            games.append((int(m.group(1)), at, []))
            continue
        if not games:
            raise MatFileError(f"expected ' Game 1', not {line.strip()[:40]!r}", None, at)
        games[-1][2].append((at, line))
    for k, (number, game_line, rows) in enumerate(games):
        last = k == len(games) - 1
        if number != k + 1:
            raise MatFileError(f"game {number} where game {k + 1} was expected", None, game_line)
        if not rows:
            raise MatFileError("the game has no score line: the file is truncated", number, game_line)
        score_at, score_text = rows[0]
        m = _SCORE_LINE.match(score_text)
        if not m:
            raise MatFileError(f"expected the score line ' name : 0    name : 0', not {score_text.strip()[:50]!r}",
                               number, score_at)
        names = (m.group(1), m.group(3))
        if players is None:
            players = names
        elif names != players:
            raise MatFileError(f"the players {names[0]!r} and {names[1]!r} differ from game 1's "
                               f"{players[0]!r} and {players[1]!r}", number, score_at)
        builder.begin(number, (int(m.group(2)), int(m.group(4))), score_at)
        actions: list = []
        for row_at, row in rows[1:]:
            rm = _ROW.match(row)
            offset = rm.end() if rm else 0
            try:
                items = _items_of(row[offset:], offset)
            except _RowError as e:
                raise MatFileError(str(e), number, row_at) from None
            if rm and not items:
                continue
            if not items:
                raise MatFileError(f"cannot read {row.strip()[:40]!r}", number, row_at)
            columns = [c for c, kind, _ in items if kind != "wins"]
            if len(columns) > 2 or columns not in ([], [0], [1], [0, 1]):
                raise MatFileError("a row holds at most one action of each player (left column first, "
                                   "right column second)", number, row_at)
            actions.extend((column, kind, mt, row_at) for column, kind, mt in items)
        if len(actions) >= 2 and actions[-1][1] == "wins" and actions[-2][1] == "double":
            # A double answered by nothing but the result: gnubg records the
            # cube decision of a side that then resigned on its turn (a
            # double must be answered by a take or a drop, RULES 7.3).
            del actions[-2]
        for column, kind, mt, row_at in actions:
            _mat_item(builder, column, kind, mt, row_at)
        end_at = rows[-1][0]
        builder.end(end_at, last, partial)
    if not games or players is None:
        raise MatFileError("the file holds no games", None, len(lines))
    builder.number = 0
    record_games = builder.finish(len(lines), partial)
    return MatchRecord(players, length, record_games, tuple(header), tuple(comments), rules)


def _mat_item(builder: _Builder, player: int, kind: str, m, line: int) -> None:
    if kind == "roll":
        dice = (int(m.group(1)), int(m.group(2)))
        builder.move(player, dice, " ".join(m.group(3).split()), line)
    elif kind == "double":
        builder.cube(player, m.group(1).capitalize(), int(m.group(2)) if m.group(2) else None, line)
    elif kind in ("take", "drop"):
        builder.answer(player, kind, line)
    else:
        # The winner follows from the game (the side on turn is the only one
        # that may resign); gnubg does not always put the line in the winner's
        # column (after a roll and a resignation), so the column is not used.
        builder.wins(None, int(m.group(1)), line)


def _rules_from_header(header, length: int, line: int) -> Rules:
    if length:
        rules = Rules()
    else:
        rules = MONEY_RULES
        for key, value in header:
            if key.lower() == "jacoby" and value.strip().lower() in ("on", "yes", "true", "1"):
                rules = Rules(jacoby=True, beavers=rules.beavers)
    for key, value in header:
        if key.lower() == "cubelimit":
            try:
                limit = int(value)
            except ValueError:
                raise MatFileError(f"CubeLimit {value!r} is not a number", None, line) from None
            if limit >= 1 and limit & (limit - 1) == 0:
                rules = Rules(jacoby=rules.jacoby, beavers=rules.beavers, cube_limit=min(limit, MAX_CUBE))
    return rules


# -- writing .mat ---------------------------------------------------------------------------

_COLUMN = 27          # gnubg's "%3d) %-27s ": the right column starts at character 33


def _step_text(steps) -> str:
    return " ".join(f"{f}/{t}{'*' if h else ''}" for f, t, h in steps)


def _cell(item) -> str:
    kind = item[0]
    if kind == "move":
        _, _, dice, steps = item
        return f"{dice[0]}{dice[1]}: {_step_text(steps)}".rstrip()
    if kind == "dice":
        return f"{item[2][0]}{item[2][1]}:"
    if kind == "double":
        word = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}[item[2]]
        return f" {word} => {item[3]}"
    return " Takes" if kind == "take" else " Drops"


def _rolls_next(items, k: int) -> bool:
    """The item after ``items[k]`` is a roll by the same player."""
    return k + 1 < len(items) and items[k + 1][0] in ("move", "dice") and items[k + 1][1] == items[k][1]


def _mat_game(number: int, players, game: _GameItems) -> list:
    out = [f" Game {number}"]
    left = f"{players[0]} : {game.score[0]}"
    out.append(f" {left:<31}{players[1]} : {game.score[1]}")
    rows: list = []                 # [left cell, right cell]: player 0's action, then player 1's
    items = game.items
    for k, item in enumerate(items):
        kind = item[0]
        if kind == "wins":
            continue
        if kind == "take" and k and items[k - 1][2:3] == ("beaver",) and _rolls_next(items, k):
            continue    # a beaver taken by rolling on: the .mat convention gnubg writes and reads
        cell = _cell(item)
        if kind == "double" and item[2] == "beaver" and not (
                k + 1 < len(items) and items[k + 1][0] == "take" and _rolls_next(items, k + 1)):
            cell = f" Doubles => {item[3]}"   # gnubg's reader keeps a "Beavers" open until a roll
        if item[1] == 0:
            rows.append([cell, None])
        elif rows and rows[-1][0] is not None and rows[-1][1] is None:
            rows[-1][1] = cell
        else:
            rows.append([None, cell])
    wins = None
    if game.winner is not None:
        s = "s" if game.points != 1 else ""
        tail = " and the match" if game.match_won else ""
        wins = f"Wins {game.points} point{s}{tail}"
        if game.winner == 1 and rows and rows[-1][0] is not None and rows[-1][1] is None:
            rows[-1][1], wins = " " + wins, None     # on the row of the loser's last action, as gnubg
    for n, (a, b) in enumerate(rows, 1):
        if b is None:
            out.append(f"{n:3d}) {a}".rstrip())
        else:
            out.append(f"{n:3d}) {(a or ''):<{_COLUMN}} {b}".rstrip())
    if wins is not None:
        out.append((" " * 6 if game.winner == 0 else " " * 34) + wins)
    out.append("")
    return out


def write_mat(source, players=None) -> str:
    """The ``.mat`` text of a ``Match`` (its games' histories), a
    :class:`MatchRecord`, or a ``DuelResult`` made with ``record=True``
    (written as a money session between ``result.a`` and ``result.b``).

    ``players`` names the two sides (default: the record's, or
    ``"Player 0"`` and ``"Player 1"``).  The games are replayed first, so
    a record the rules refuse raises :class:`MatFileError`; a tied
    opening roll or a rejected resignation is left out, and an automatic
    double or an opening re-roll cannot be written (see the module
    documentation)."""
    record, games = _source_items(source, players, MatFileError)
    for name in record.players:
        if not name.strip() or ":" in name or "\n" in name or name != name.strip():
            raise MatFileError(f"a player's name in a .mat file is not empty, has no ':' or line break and "
                               f"no spaces around it, not {name!r}")
    out = []
    for key, value in record.header:
        out.append(f'; [{key} "{value}"]')
    keys = {k.lower() for k, _ in record.header}
    if record.length == 0 and record.rules.jacoby and "jacoby" not in keys:
        out.append('; [Jacoby "On"]')
    if record.rules.cube_limit != MAX_CUBE and "cubelimit" not in keys:
        out.append(f'; [CubeLimit "{record.rules.cube_limit}"]')
    for comment in record.comments:
        out.append(f"; {comment}")
    if out:
        out.append("")
    out.append(f" {record.length} point match")
    out.append("")
    for number, game in enumerate(games, 1):
        out.extend(_mat_game(number, record.players, game))
    return "\n".join(out)


def save_duel(path, duel_result, players=None) -> None:
    """Write the games of ``duel_result`` (a ``DuelResult`` made with
    ``record=True``) to ``path`` as a ``.mat`` money session; player A
    is the left column (player 0)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    _duel_records(duel_result)
    text = write_mat(duel_result, players=players)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
