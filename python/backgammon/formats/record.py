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

from .. import _validate
from ..errors import MatchFileError
from ..game import Event
from ..match import Match, match_winner
from ..rules import Rules
from .builder import RecordBuilder
from .recorded import MONEY_RULES, RecordedGame, RecordWarning
from .replay import GameItems, duel_items, duel_records, play_steps, replay_games

__all__ = ["MatchRecord", "RecordedGame", "RecordWarning", "RecordBuilder", "GameItems", "MatchFileError",
           "record_items", "replay_record", "duel_records", "play_steps", "MONEY_RULES"]

_DEFAULT_PLAYERS = ("Player 0", "Player 1")


@dataclass(frozen=True)
class MatchRecord:
    """A match or a money session as a file holds it: what every reader
    gives and every writer takes.

    :meth:`replay` rebuilds the games through ``Match`` and ``Game``;
    :func:`~backgammon.analysis.analyse` grades them.

    Attributes
    ----------
    players : tuple of str
        The two players' names (player 0 first).
    length : int
        The match length in points (RULES 8.1); 0 for a money session.
    games : tuple of RecordedGame
        Each game: the score before it, its events, the winner and the
        points.
    header : tuple of (str, str)
        The file header's pairs (for ``.mat`` the ``; [Key "value"]``
        lines).
    comments : tuple of str
        The file's other comment lines.
    rules : Rules
        The rules the games are replayed with.
    warnings : tuple of RecordWarning
        What the reader mended: where the file contradicts itself, the
        play wins.
    analysis : tuple
        The analysis the file carries (gnubg's SGF: one
        :class:`~backgammon.formats.sgf.NodeAnalysis` per analysed
        action).
    score : tuple of int
        The score after the last finished game.
    winner : int or None
        The side that won the match.

    Examples
    --------
    >>> import backgammon as bg
    >>> m = bg.Match(1, seed=1)
    >>> g = m.new_game(); g.roll((3, 1)); g.play("8/5 6/5")
    >>> g.resign(1, player=1); g.accept_resignation()
    >>> record = MatchRecord.from_match(m, players=("Ann", "Bob"))
    >>> record.length, record.score, record.winner, record.games[0].events[1].value
    (1, (1, 0), 0, '8/5 6/5')
    >>> record.replay().is_over()
    True
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
        return replay_games(self, MatchFileError)[0]

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


def replay_record(record: MatchRecord, error_cls=MatchFileError, items: bool = False):
    """Replay ``record`` through ``Match``/``Game`` (every event by
    ``Game.apply``): the Match, and with ``items`` the file items of each
    game (:class:`GameItems`); refusals raise ``error_cls`` naming the game
    and the line or event."""
    _validate.instance("record", record, MatchRecord, "backgammon.mat.MatchRecord")
    return replay_games(record, error_cls, items)


def record_items(source, players=None, error_cls=MatchFileError):
    """What a writer needs of a Match, a MatchRecord or a DuelResult: the
    record (``players`` renaming its sides) and the items of each game
    (:class:`GameItems`), the games replayed first."""
    if isinstance(source, Match):
        record = MatchRecord.from_match(source, players)
        return record, replay_games(record, error_cls, items=True)[1]
    if isinstance(source, MatchRecord):
        if players is not None:
            source = replace(source, players=_players(players))
        return source, replay_games(source, error_cls, items=True)[1]
    from ..duel import DuelResult
    if isinstance(source, DuelResult):
        # Player specs such as "net:1" name the sides; a .mat name holds no ':'.
        names = _players(players if players is not None else
                         tuple(str(n).replace(":", "-").strip() or "?" for n in (source.a, source.b)))
        return MatchRecord(names, 0, (), (), (), Rules()), duel_items(source, error_cls)
    raise TypeError("source must be a backgammon.Match, a backgammon.mat.MatchRecord or a "
                    f"backgammon.DuelResult, not {type(source).__name__}")
