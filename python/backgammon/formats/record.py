"""Match records: what a match file holds, whatever its format, and the
builder that readers use to make one.

A :class:`MatchRecord` holds the players, the match length (0 for a money
session), the header, and every game as the score before it, its actions
as :class:`~backgammon.Event` items (the same events as ``Game.history``)
and its result.  Readers feed the actions a file gives to a
:class:`RecordBuilder`, which plays them into a live ``Match`` (so a file
that breaks the rules, or is cut short, fails naming the game and the
line) and keeps what a reader had to mend as ``warnings``.  Writers take
:func:`record_items`: the games replayed, each action in file form.

>>> import backgammon as bg
>>> m = bg.Match(1)
>>> g = m.new_game()
>>> g.roll((3, 1)); g.play("8/5 6/5"); g.resign(1); g.accept_resignation()
>>> record = MatchRecord.from_match(m, players=("Ann", "Bob"))
>>> record.winner, record.score, record.games[0].resigned
(0, (1, 0), True)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

from .. import _validate
from ..errors import (AmbiguousMoveError, IllegalMoveError, MatchFileError, InvalidMoveError, InvalidRollError,
                      RulesError)
from ..game import Ending, Event, Game, Phase
from ..match import Match, match_winner
from ..position import OPPONENT, Position
from ..rules import Rules
from ..scoring import resignation_level

__all__ = ["MatchRecord", "RecordedGame", "RecordWarning", "RecordBuilder", "GameItems", "MatchFileError",
           "record_items", "replay_record", "duel_records", "MONEY_RULES"]

#: The rules a money session is read with unless told otherwise: beavers
#: and raccoons allowed (RULES 7.5), as files record them when they happen.
MONEY_RULES = Rules(beavers=16)

_DEFAULT_PLAYERS = ("Player 0", "Player 1")


# -- the record ------------------------------------------------------------------------------

@dataclass(frozen=True)
class RecordWarning:
    """Something a file says that its reader did not take as written,
    because the play (or the rest of the file) says otherwise: ``game``
    (1-based; 0 for the file as a whole) and ``line`` (1-based) say where,
    ``written`` what the file says, ``used`` what the record holds.

    >>> str(RecordWarning(2, 47, "Wins 3 point and the match", "player 0 wins 4 points (the play)"))
    "game 2, line 47: the file says 'Wins 3 point and the match'; read as player 0 wins 4 points (the play)"
    """

    game: int
    line: int
    written: str
    used: str

    def __str__(self) -> str:
        where = ", ".join(w for w in (f"game {self.game}" if self.game else "",
                                      f"line {self.line}" if self.line else "") if w)
        return f"{where + ': ' if where else ''}the file says {self.written!r}; read as {self.used}"


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
    ``warnings`` (:class:`RecordWarning` items) lists what the reader
    mended: where the file contradicts itself, the play wins.
    ``analysis`` holds the analysis a file carries (gnubg's SGF: one
    :class:`~backgammon.formats.sgf.NodeAnalysis` per analysed action).
    :meth:`replay` rebuilds the games through ``Match``/``Game``.
    """

    players: tuple = _DEFAULT_PLAYERS
    length: int = 0
    games: tuple = ()
    header: tuple = ()
    comments: tuple = ()
    rules: Rules = field(default_factory=Rules)
    warnings: tuple = ()
    analysis: tuple = ()

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
        return match_winner(self.score, self.length)

    def replay(self) -> Match:
        """The record replayed through ``Match`` and ``Game``: an action
        the rules refuse, a score line or a result that does not follow
        from the play raises :class:`MatchFileError` naming the game and
        the line (or the event, for a record not read from a file)."""
        return replay_record(self, MatchFileError)[0]

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
        records = duel_records(result)
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


def duel_records(result, name: str = "duel_result"):
    from ..duel import DuelResult
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
class GameItems:
    """What a writer needs of one replayed game: its score, Crawford flag,
    the actions in file form and the outcome.  The actions: ``("move",
    player, dice, steps)`` (no steps: the turn was forfeited), ``("dice",
    player, dice)`` (rolled, then resigned, or unfinished), ``("double",
    player, word, cube)`` (word: double, beaver, raccoon; cube: its value
    once taken), ``("take", player)``, ``("drop", player)`` and ``("wins",
    winner, points)``."""

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


def replay_record(record: MatchRecord, error_cls=MatchFileError, items: bool = False):
    """Replay ``record`` through ``Match``/``Game`` (every event by
    ``Game.apply``): the Match, and with ``items`` the file items of each
    game (:class:`GameItems`); refusals raise ``error_cls`` naming the game
    and the line or event."""
    _validate.instance("record", record, MatchRecord, "backgammon.mat.MatchRecord")
    start, cube_used = (0, 0), False
    if record.games and isinstance(record.games[0], RecordedGame):
        first = record.games[0]
        start = tuple(first.score)
        cube_used = any(isinstance(e, Event) and e.kind in _CUBE_EVENTS for e in first.events)
    try:
        match = _match(record.length, record.rules, start, cube_used)
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
        if kind == "play":
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
        if kind in ("play", "drop", "accept") and g.outcome is not None:
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


def _duel_items(result, error_cls=MatchFileError) -> list:
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


def record_items(source, players=None, error_cls=MatchFileError):
    """What a writer needs of a Match, a MatchRecord or a DuelResult: the
    record (``players`` renaming its sides) and the items of each game
    (:class:`GameItems`), the games replayed first."""
    if isinstance(source, Match):
        record = MatchRecord.from_match(source, players)
        return record, replay_record(record, error_cls, items=True)[1]
    if isinstance(source, MatchRecord):
        if players is not None:
            source = replace(source, players=_players(players))
        return source, replay_record(source, error_cls, items=True)[1]
    from ..duel import DuelResult
    if isinstance(source, DuelResult):
        # Player specs such as "net:1" name the sides; a .mat name holds no ':'.
        names = _players(players if players is not None else
                         tuple(str(n).replace(":", "-").strip() or "?" for n in (source.a, source.b)))
        return MatchRecord(names, 0, (), (), (), Rules()), _duel_items(source, error_cls)
    raise TypeError("source must be a backgammon.Match, a backgammon.mat.MatchRecord or a "
                    f"backgammon.DuelResult, not {type(source).__name__}")


# -- building records from file actions -------------------------------------------------------

def _match(length: int, rules: Rules, score=(0, 0), cube_used: bool = False) -> Match:
    """A match from 0-0, or resumed at ``score``; a first game at length - 1
    that uses the cube was past the Crawford game (RULES 8.2)."""
    if tuple(score) != (0, 0):
        return Match(length, rules=rules, score=tuple(score), crawford=False if cube_used else None)
    return Match(length, rules=rules)


_CUBE_EVENTS = ("double", "beaver", "raccoon")

_LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def _points_text(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


class RecordBuilder:
    """Plays the actions a file gives into a live ``Match`` and keeps the
    events with their line numbers: what every match-file reader builds its
    record with.  ``begin`` a game (number, score, line), then ``move``,
    ``dice_only``, ``cube``, ``answer`` and ``wins`` as the file gives
    them, ``end`` it; ``finish`` returns the games.  A file's action that
    the rules refuse raises ``error_cls`` with the game and the line.

    With ``mend``, what a file says about results and scores that the play
    contradicts (a score line, a ``Wins`` line that is capped or gives other
    points, a resignation worth no whole number of cubes) is mended to what
    the play gives and kept in ``warnings``; without it, it is an error.

    >>> from backgammon import Rules
    >>> b = RecordBuilder(1, Rules(), MatchFileError)
    >>> b.begin(1, (0, 0), 3); b.move(0, (3, 1), "8/5 6/5", 4); b.wins(0, 1, 5); b.end(5, True, False)
    >>> [e.kind for e in b.finish(5, False)[0].events]
    ['opening', 'play', 'resign', 'accept']
    """

    def __init__(self, length: int, rules: Rules, error_cls, *, mend: bool = False):
        self.error = error_cls
        try:
            self.match = Match(length, rules=rules)
        except (RulesError, ValueError) as e:
            raise error_cls(str(e)) from None
        self.mend = bool(mend)
        self.warnings: list[RecordWarning] = []
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

    def warn(self, line: int, written: str, used: str, message: str | None = None) -> None:
        """Keep a :class:`RecordWarning` (with ``mend``), or fail with
        ``message`` (default: the warning's own text)."""
        warning = RecordWarning(self.number, line, written, used)
        if not self.mend:
            self.fail(message or str(warning).split(": ", 1)[-1], line)
        self.warnings.append(warning)

    def begin(self, number: int, score: tuple, line: int, cube_used: bool = False) -> None:
        """Start game ``number`` at ``score`` (game 1 at another score than
        0-0: a match resumed there, where ``Match`` can, ``cube_used`` saying
        that the first game holds a cube action, so it is past the Crawford
        game, RULES 8.2)."""
        if number != len(self.games) + 1:
            raise self.error(f"game {number} where game {len(self.games) + 1} was expected", None, line)
        self.number = number
        if number == 1 and tuple(score) != (0, 0):
            try:                          # a record of a match's later games
                self.match = _match(self.match.length, self.match.rules, score, cube_used)
            except (RulesError, ValueError) as e:
                self.fail(str(e), line)
        if self.match.is_over():
            self.fail(f"the match is over ({self.match.score[0]}-{self.match.score[1]}, RULES 8.1): "
                      f"no more games", line)
        if tuple(score) != self.match.score:
            self.warn(line, f"score {score[0]}-{score[1]}",
                      f"{self.match.score[0]}-{self.match.score[1]}, the score the games before make (RULES 8.5)",
                      f"the file gives the score {score[0]}-{score[1]} but the games before make "
                      f"{self.match.score[0]}-{self.match.score[1]} (RULES 8.5)")
        self.current = self.match.new_game()
        self.lines = []
        self.start_line = line
        self.empty_roll = None
        self.doubler = None
        self.result = None

    def _do(self, line: int, action, *args, **kwargs) -> None:
        g = self.game
        before = len(g.history)
        try:
            action(*args, **kwargs)
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

    def wins(self, winner: int | None, points: int, line: int, resigned: bool | None = None,
             written: str | None = None) -> None:
        """The game's result: after a bear-off or a drop it must be what the
        play gives; otherwise the loser resigned (RULES 6.5): the side on
        turn, or (where ``Game.resign`` takes ``player``) the other side.
        ``winner`` None: the side the game's state makes the winner.
        ``written`` is the file's text, for warnings."""
        g = self.game
        if self.result is not None:
            self.fail("a second result for one game", line)
        if points < 1:
            self.fail(f"a game is won by at least 1 point, not {points}", line)
        said = written or f"player {winner} wins {_points_text(points)}"
        if self.empty_roll is not None and winner is not None and self.empty_roll[0] == winner:
            # The winner rolled and wrote no move: gnubg reads a forced play;
            # else the loser resigned while the winner's dice were rolled.
            if len(g.legal_plays()) == 1:
                self._settle_empty(line)
        self.empty_roll = None
        mended = False
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
            if self.mend and g.phase is Phase.DOUBLED and g.turn == loser:
                # The doubled side gave the game up without a word: a drop.
                before = g.cube_value
                self._do(line, g.drop)
                if points != before:
                    self.warn(line, said, f"a drop: player {winner} wins {_points_text(before)} (RULES 7.3)")
                self.result = (winner, before)
                return
            if g.phase not in (Phase.OPENING, Phase.TURN, Phase.PLAY):
                self.fail(f"player {winner} wins {points} before the game is over, so player {loser} "
                          f"resigned; but a side resigns before the opening roll or on a turn, with no "
                          f"cube decision pending "
                          f"(RULES 6.5), and {self._state()}", line)
            level = self._resign_level(points)
            if level is None:
                level = min(3, max(1, -(-points // g.cube_value)))
                self.warn(line, said, f"player {loser} resigns {_LEVELS[level]} at cube {g.cube_value}: "
                          f"player {winner} wins {_points_text(level * g.cube_value)} (RULES 6.5)",
                          f"a resignation scores 1, 2 or 3 times the cube ({g.cube_value}), not {points} "
                          f"(RULES 6.5)")
                mended = True
            self._do(line, g.resign, level, player=loser)      # either side may resign (RULES 6.5)
            self._do(line, g.accept_resignation)
        o = g.outcome
        assert o is not None
        if resigned is True and o.ending is not Ending.RESIGNATION:
            self.fail("the file marks a resignation, but the game ended on the board", line)
        if (o.winner, o.points) != (winner, points) and not mended:
            self.warn(line, said, f"player {o.winner} wins {_points_text(o.points)} (the play, RULES 6, 7.3)",
                      f"the file says player {winner} wins {_points_text(points)}, but the play gives player "
                      f"{o.winner} {o.points} (RULES 6, 7.3, 8.5)")
        self.result = (o.winner, o.points)

    def _resign_level(self, points: int) -> int | None:
        # RULES 6.5: a resignation scores the level offered, Jacoby or not.
        return resignation_level(points, self.game.cube_value, self.game.rules)

    def end(self, line: int, last: bool, partial: bool) -> None:
        g = self.game
        unfinished_ok = last and partial
        if self.empty_roll is not None and not unfinished_ok:
            try:
                self._settle_empty(line)
            except self.error as e:
                if not last:
                    raise
                raise self.error(f"{str(e).split(': ', 1)[-1]}; or the file is cut there (read it with "
                                 f"partial=True for a match in progress: truncated)", e.game, e.line) from None
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
