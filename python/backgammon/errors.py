"""Exceptions: every one the package raises on purpose is a
:class:`BackgammonError`, and names what is wrong.

A wrong value is also a ``ValueError`` (a wrong type raises ``TypeError``,
naming the parameter, ``_validate``); ``UbgiError`` is also a
``RuntimeError``.  ``code`` and ``params`` may carry a stable name of the
refusal and its values (for messages shown in other languages).  The
tree, every public exception of the package (its module, if not this one):

- ``BackgammonError``
  - ``InvalidPositionError``: a board or Position ID that is not a position

    - ``InvalidPositionIdError`` (also an ``InvalidIdError``)
  - ``InvalidIdError``: a malformed ID

    - ``InvalidMatchIdError`` (also an ``InvalidMatchStateError``)
    - ``formats.xgid.InvalidXgidError``, ``formats.fibs.InvalidFibsBoardError``
      (also ``FormatError``)
  - ``InvalidRollError``, ``InvalidMoveError``, ``IllegalMoveError``,
    ``AmbiguousMoveError``: dice and move notation
  - ``RulesError``: an action against the rules (``IllegalPlayError``, also
    an ``IllegalMoveError``)
  - ``InvalidMatchStateError``: Match ID fields that are not a state of a game
  - ``InvalidMetError``, ``InvalidScoreError``: match equity tables
  - ``OutsideDatabaseError``: a position a bear-off table does not hold
  - ``FormatError``: text or bytes a file format cannot read or write

    - ``BearoffFileError``: a bear-off ``.bd`` file
    - ``MatchFileError``: a match file or record; ``formats.mat.MatFileError``,
      ``formats.sgf.SgfFileError``, ``formats.xg.XgFileError``,
      ``formats.bgf.BgfFileError``, ``formats.ogxm.OgxmFileError``,
      ``formats.gam.GamFileError`` (``formats.empire.EmpireFileError``
      under it), ``formats.oldmoves.OldmovesFileError``,
      ``formats.sgg.SggFileError``, ``formats.tmg.TmgFileError``,
      ``formats.party.PartyFileError``, ``formats.bgroom.BgroomFileError``
    - position codes: ``ogid.InvalidOgidError``,
      ``formats.snowietxt.SnowieTxtError``, ``formats.pos.JellyfishPositionError``,
      ``formats.codes.InvalidPositionCodeError`` (also ``InvalidIdError``)
    - ``formats.xgid.InvalidXgidError``, ``formats.fibs.InvalidFibsBoardError``
    - ``formats.smile.SmileError``: bytes that are not Smile (BGBlitz ``.bgf``)
  - ``ubgi.UbgiError``: an external engine that breaks the protocol
  - ``cli.CommandError``: a command that fails, with its exit status

Ctrl-C during a rollout or a duel raises ``rollouts.RolloutInterrupted`` or
``duel.DuelInterrupted`` with the games finished so far: they are
``KeyboardInterrupt`` (not ``BackgammonError``), so that ``except
Exception`` never swallows an interruption.
"""


class BackgammonError(Exception):
    """The base of every exception the package defines.  ``code`` (a
    stable name of the refusal, or None) and ``params`` (its values) are
    optional; the message is always English.

    >>> import backgammon as bg
    >>> try:
    ...     bg.Position.from_id("xx")
    ... except bg.BackgammonError as e:
    ...     print(type(e).__name__, isinstance(e, ValueError), e.code, e.params)
    InvalidPositionIdError True None {}
    """

    def __init__(self, *args, code: str | None = None, params: dict | None = None):
        super().__init__(*args)
        self.code = code
        self.params = dict(params) if params else {}


class InvalidPositionError(BackgammonError, ValueError):
    """A board array or Position ID that is not a backgammon position.

    >>> import numpy as np, backgammon as bg
    >>> bg.Position.from_array(np.zeros((2, 25), dtype=np.uint8))
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidPositionError: neither side has a checker left
    """


class InvalidIdError(BackgammonError, ValueError):
    """A malformed Position ID or Match ID.

    >>> import backgammon as bg
    >>> try:
    ...     bg.MatchState.from_match_id("not an id")
    ... except InvalidIdError as e:
    ...     print(type(e).__name__)
    InvalidMatchIdError
    """


class InvalidPositionIdError(InvalidPositionError, InvalidIdError):
    """A malformed GNU Position ID.

    >>> import backgammon as bg
    >>> bg.Position.from_id("xx")
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidPositionIdError: a Position ID has 14 characters, 'xx' has 2
    """


class InvalidRollError(BackgammonError, ValueError):
    """Dice that are not two values from 1 to 6.

    >>> import backgammon as bg
    >>> bg.Position.initial().legal_plays("71")
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidRollError: cannot read '71' as a roll: expected two dice 1-6 such as '31' or '3-1'
    """


class InvalidMoveError(BackgammonError, ValueError):
    """Move text that cannot be read as backgammon notation (RULES 10.1).

    >>> import backgammon as bg
    >>> bg.Position.initial().parse_play("8/", "31")
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidMoveError: cannot read '8/': write moves as from/to, e.g. 13/7*/5, bar/22, 6/off, 6/4(2)
    """


class IllegalMoveError(BackgammonError, ValueError):
    """A play that the rules do not allow for this position and roll.

    >>> import backgammon as bg
    >>> bg.Position.initial().parse_play("6/5", "31")
    Traceback (most recent call last):
    ...
    backgammon.errors.IllegalMoveError: '6/5': both dice must be used when possible (RULES 3.4)
    """


class AmbiguousMoveError(BackgammonError, ValueError):
    """Move text that fits several distinct legal plays.

    >>> import backgammon as bg
    >>> # blots on the 11 and the 7
    >>> bg.Position.from_id("/x8AhADg/wMGAA").parse_play("13/5", "62")
    Traceback (most recent call last):
    ...
    backgammon.errors.AmbiguousMoveError: '13/5' fits 2 plays: 13/7*/5, 13/11*/5; mark the hits with *
    """


class RulesError(BackgammonError, ValueError):
    """An action out of turn or against the rules of a game, match or chouette
    (RULES 2, 6-9); the message names the rule.

    >>> import backgammon as bg
    >>> bg.Game().double()
    Traceback (most recent call last):
    ...
    backgammon.errors.RulesError: no double before the opening roll (RULES 2.2, 7.2)

    ``code`` names the refusal for programs that say it in their own words
    (the web page does, in three languages), ``params`` its particulars;
    the message stays English.

    >>> try:
    ...     bg.Game().double()
    ... except RulesError as e:
    ...     print(e.code, e.params)
    opening_first {'rule': '2.2'}
    """


class IllegalPlayError(RulesError, IllegalMoveError):
    """A play that a game refuses: both a RulesError and an IllegalMoveError.

    >>> import backgammon as bg
    >>> g = bg.Game(seed=1)
    >>> g.roll()
    >>> try:
    ...     g.play("24/1")
    ... except IllegalPlayError as e:
    ...     print(isinstance(e, RulesError), isinstance(e, IllegalMoveError), e)
    True True '24/1' moves 23 pips; 4-3 gives only 7 (RULES 3.1)
    """


class FormatError(BackgammonError, ValueError):
    """Text (or bytes) that a file format's reader cannot read, or a value
    its writer cannot write: the base of every format's own error
    (``backgammon.formats``).

    >>> import backgammon as bg
    >>> try:
    ...     bg.read_xgid("XGID=nonsense")
    ... except bg.FormatError as e:
    ...     print(type(e).__name__)
    InvalidXgidError
    """


class InvalidMatchStateError(BackgammonError, ValueError):
    """Field values that are not a state of a backgammon match or money game.

    Examples
    --------
    >>> from backgammon import MatchState
    >>> MatchState(cube_value=3)
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidMatchStateError: the cube value must be a power of two (RULES 7.4), got 3
    """


class InvalidMatchIdError(InvalidMatchStateError, InvalidIdError):
    """A malformed GNU Match ID.

    Examples
    --------
    >>> from backgammon import MatchState
    >>> MatchState.from_match_id("cIkF")
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidMatchIdError: a Match ID has 12 characters, 'cIkF' has 4
    """


class InvalidMetError(BackgammonError, ValueError):
    """A match equity table, or a MET file, that cannot be used, and why.

    Examples
    --------
    >>> from backgammon.met import MatchEquityTable
    >>> MatchEquityTable([[0.5, 0.7]], [0.5])
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidMetError: the pre-Crawford table must be square: row 1 of 1 has 2 entries
    """


class InvalidScoreError(BackgammonError, ValueError):
    """A score, away count, cube or Crawford flag that a table cannot answer.

    Examples
    --------
    >>> from backgammon.met import MatchEquityTable
    >>> MatchEquityTable.kazaross_xg2().mwc(0, 3)
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidScoreError: away must be at least 1 (the match is not over), got 0
    """


class OutsideDatabaseError(BackgammonError, ValueError):
    """A position that a bear-off table does not hold, and why.

    Examples
    --------
    >>> from backgammon import Position, bearoff
    >>> bearoff.race_chances(Position.initial())
    Traceback (most recent call last):
    ...
    backgammon.errors.OutsideDatabaseError: board 0: a checker is outside the home board or on the bar
    """


class BearoffFileError(FormatError):
    """A bear-off file that is not in GNU Backgammon's ``.bd`` format.

    Examples
    --------
    >>> from backgammon.bearoff import OneSidedDatabase
    >>> OneSidedDatabase.from_bytes(b"not a table")
    Traceback (most recent call last):
    ...
    backgammon.errors.BearoffFileError: not a GNU Backgammon bear-off file (expected a header starting 'gnubg-OS-')
    """


class MatchFileError(FormatError):
    """A match record or file that cannot be read or replayed; ``game``
    (1-based) and ``line`` (1-based, 0 when unknown) say where (a format
    whose places are not lines names them with ``where``).

    Every match format's error is one (``MatFileError``, ``SgfFileError``,
    ``XgFileError``...).

    Examples
    --------
    >>> e = MatchFileError("24/21 moves 3 pips, no die of 5-4", game=1, line=9)
    >>> str(e), e.game, e.line, isinstance(e, ValueError)
    ('game 1, line 9: 24/21 moves 3 pips, no die of 5-4', 1, 9, True)
    """

    where = "line"

    def __init__(self, message: str, game: int | None = None, line: int | None = None, **kwargs):
        places = []
        if game:
            places.append(f"game {game}")
        if line:
            places.append(f"{self.where} {line}")
        super().__init__(f"{', '.join(places)}: {message}" if places else message, **kwargs)
        self.game = game
        self.line = line
