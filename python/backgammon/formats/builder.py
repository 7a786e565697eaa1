"""The builder every match-file reader makes its record with: the actions
a file gives played into a live ``Match``, so a file that breaks the
rules, or is cut short, fails naming the game and the line, and what a
reader had to mend kept as :class:`~backgammon.formats.recorded.RecordWarning`."""
from __future__ import annotations

from typing import NoReturn

from ..errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidRollError, RulesError
from ..errors import MatchFileError  # noqa: F401  (the example of RecordBuilder uses it)
from ..game import Ending, Game, Phase
from ..match import Match
from ..resignation import LEVELS as RESIGN_WORDS
from ..rules import Rules
from ..scoring import resignation_level
from .recorded import RecordedGame, RecordWarning
from .replay import match_at

__all__ = ["RecordBuilder"]


def _points_text(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


class RecordBuilder:
    """Plays the actions a file gives into a live ``Match`` and keeps the
    events with their line numbers: what every match-file reader builds its
    record with.  ``begin`` a game (number, score, line), then ``move``,
    ``dice_only``, ``cube``, ``answer`` and ``wins`` as the file gives
    them, ``end`` it; ``finish`` returns the games.  A file's action that
    the rules refuse raises ``error_cls`` with the game and the line.

    With ``mend``, a play the rules refuse is kept as the board its moves
    make, as written (``Game.play_as_written``: a ``setboard`` event
    naming the rule, and a warning), and what a file says about results
    and scores that the play contradicts (a score line, a ``Wins`` line that is capped or gives other
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
                self.match = match_at(self.match.length, self.match.rules, score, cube_used)
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

    def move(self, player: int, dice: tuple, text: str | None, line: int, as_written: bool = True) -> None:
        """A roll and its play: ``text`` is the moves ("" for none written;
        None when only the dice are recorded); ``as_written`` False refuses
        a play the rules refuse even with ``mend`` (a file cut inside it)."""
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
        if not self.mend or not as_written:
            self._do(line, g.play, text)
            return
        # A play the rules refuse: kept as the board its moves make, as
        # written (a setboard event naming the rule), as gnubg and
        # gammonview read on; strict readers refuse it.
        self._do(line, g.play_as_written, text)
        last = g.history[-1]
        if last.kind == "setboard":
            self.warnings.append(RecordWarning(self.number, line, f"{dice[0]}{dice[1]}: {text}",
                                               f"the board its moves make, as written (not a legal play: "
                                               f"{last.value.reason})"))

    def board(self, player: int, dice: tuple, position, line: int, written: str, reason: str,
              explicit: bool = False, play: str = "") -> None:
        """A roll and, in place of its play, the board after it (gnubg's
        ``Illegal play (...)``: ``MOVE_SETDICE`` then ``MOVE_SETBOARD``):
        kept as a ``setboard`` event and a warning; strict readers (no
        ``mend``) refuse it, unless the format records a set board as such
        (``explicit``: gnubg's SGF set-up node)."""
        self.move(player, dice, None, line)
        g = self.game
        if g.phase is not Phase.PLAY:
            self.fail(f"{written!r}: a board is given after {dice[0]}{dice[1]}, which cannot be played (RULES 3.4)",
                      line)
        if not self.mend and not explicit:
            self.fail(f"{written!r}: the file gives a board, not a play: {reason}", line)
        self._do(line, g.set_board, position, play, reason)
        self.warnings.append(RecordWarning(self.number, line, written, f"the board it gives, set in place of a "
                                                                      f"play ({reason})"))

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
                self.warn(line, said, f"player {loser} resigns {RESIGN_WORDS[level]} at cube {g.cube_value}: "
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
