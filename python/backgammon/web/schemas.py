"""The web API's requests and responses (pydantic models, so that
``/docs`` shows every type) and its error.

Requests are strict: an unknown field, a wrong type or an out-of-range
value is a 422 naming the field.  Responses are documented here and built
by ``session`` and ``routes``.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ApiError", "Resume", "NewGame", "Action", "ErrorBody", "GameState", "MoveAnswer", "EvaluateAnswer",
           "LEVEL_NAMES"]

#: Difficulty levels, weakest first (``computer.LEVELS`` gives the player behind each):
#: seed 004's three (入门, 普通, 高手) and one beyond them (大师).
LEVEL_NAMES = ("beginner", "normal", "expert", "master")


class ApiError(Exception):
    """An error with its HTTP status, sent as ``{"error": message, "status":
    status, "code": code, "params": params}``: the message in English for
    people reading the API, the code (and its particulars) stable for
    programs, which the page says in the player's language."""

    def __init__(self, status: int, message: str, code: str = "refused", params: dict | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.params = dict(params or {})


# -- requests -----------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class Resume(_Strict):
    """A saved game or match to resume: a match file in any format the
    readers take, as ``text`` (``mat``, any program's dialect; ``sgf``) or
    as ``data``, its bytes in base64 (any format; ``xg`` only so)."""

    format: Literal["mat", "sgf", "xg"] = "mat"
    text: str | None = Field(None, max_length=200_000)
    data: str | None = Field(None, max_length=400_000, description="the file's bytes, base64")


class NewGame(_Strict):
    """A new game against the computer."""

    length: int = Field(0, ge=0, le=25, description="0: money game (a session of games); else a match to this many points")
    cube: bool = Field(False, description="play with the doubling cube (and so the Crawford rule and the other "
                                          "match rules of the cube); without it, games score 1, 2 or 3 points")
    level: Literal["beginner", "normal", "expert", "master"] = Field(
        "normal", description="beginner = noisy:0.15 (the network with noise), normal = pubeval, "
                              "expert = net:1, master = net:2")
    player: str | None = Field(None, max_length=80, description="the computer as a player spec instead of the "
                               "level's (any registered player, e.g. net:1; not ubgi:, which starts a process)")
    side: Literal[0, 1] = Field(0, description="which player the human is: 0 (light checkers) or 1 (dark)")
    seed: int | None = Field(None, ge=0, le=2 ** 63 - 1, description="seeds the dice (for tests and replays)")
    resume: Resume | None = Field(None, description="continue a saved game instead of starting a new one")


class Action(_Strict):
    """One action of the human.  ``move`` takes ``from``/``to`` (points from
    the human's side, 25 = bar, 0 = off): one die's step, or a point that
    the checker reaches with several dice through open points (the steps
    are made one by one); ``play`` takes ``play`` (notation) or ``moves``
    (the whole play as [from, to] steps), or neither to confirm the checker
    moves made; ``undo`` takes ``what``: ``step`` (the last checker move),
    ``moves`` (every checker move of this turn) or ``turn`` (the human's
    last play and what the computer did after it; the dice stay);
    ``resign`` takes ``level`` 1-3; ``hint`` takes ``ply`` 0-2."""

    action: Literal["roll", "move", "play", "commit", "undo", "double", "take", "drop", "resign",
                    "accept", "reject", "hint", "next"]
    from_: int | None = Field(None, alias="from", ge=0, le=25)
    to: int | None = Field(None, ge=0, le=25)
    play: str | None = Field(None, max_length=200)
    moves: list[Annotated[list[Annotated[int, Field(ge=0, le=25)]], Field(min_length=2, max_length=2)]] | None = \
        Field(None, max_length=4)
    level: int | None = Field(None, ge=1, le=3)
    what: Literal["step", "moves", "turn"] | None = None
    ply: int | None = Field(None, ge=0, le=2)


# -- responses ------------------------------------------------------------------------

class ErrorBody(BaseModel):
    """Every error: its message (English) and HTTP status, a stable
    ``code`` with its ``params`` (the page translates them; ``params.rule``
    is the section of the rules a refusal cites), and, for a request that
    does not validate, where and why."""

    error: str
    status: int
    code: str
    params: dict[str, Any] = {}
    detail: list[dict] | None = None


class Chances(BaseModel):
    """Cubeless chances of a side (gammons include backgammons)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose: float
    lose_gammon: float
    lose_backgammon: float


class CubeAnswer(BaseModel):
    """A cube decision (``cube.CubeDecision``)."""

    action: str
    should_double: bool
    take: str
    can_double: bool
    reason: str
    no_double: float
    double_take: float
    double_pass: float
    mwc: list[float] | None
    exact: bool


class RankedPlay(BaseModel):
    """One play of a roll with the mover's chances after it: ``equity`` is
    cubeful at a match state (normalised match equity in a match, its match
    winning chances ``mwc``), cubeless money equity without one
    (``hint.RankedPlay``)."""

    play: str
    moves: list[list[int]]
    hits: list[int]
    position: str
    probabilities: Chances
    equity: float
    difference: float
    ply: int
    cubeful: bool
    mwc: float | None


class MoveAnswer(BaseModel):
    """``GET /api/move``: every legal play, best first, and the player's choice
    (at ``match``, the state the plays are ranked at; None: money, cubeless)."""

    position: str
    match: str | None
    dice: list[int]
    player: str
    choice: str
    count: int
    plays: list[RankedPlay]


class EvaluateAnswer(BaseModel):
    """``GET /api/evaluate``: the chances, the cubeless equity and the cube decision."""

    position: str
    match: str | None
    ply: int
    probabilities: Chances
    equity: float
    cube: CubeAnswer


class Sides(BaseModel):
    """A number for each side."""

    you: int
    computer: int


class MatchView(BaseModel):
    length: int
    money: bool
    cube: bool = Field(description="whether the doubling cube is in play (NewGame.cube)")
    score: Sides
    crawford: bool
    post_crawford: bool
    over: bool
    winner: str | None
    game: int


class CubeView(BaseModel):
    value: int
    owner: str | None
    offered: int | None
    offered_by: str | None
    double_reason: str
    double_code: str = Field("", description="double_reason's code (RulesError.code)")


class Resignation(BaseModel):
    by: str | None
    level: int


class Outcome(BaseModel):
    winner: str | None
    ending: str
    points: int
    cube: int
    multiplier: int


class Opening(BaseModel):
    """The opening throws of this game so far (ties included): each side's die."""

    you: int
    computer: int


class GameView(BaseModel):
    phase: str
    turn: str | None
    on_roll: str | None
    dice: list[int] | None
    cube: CubeView
    resignation: Resignation | None
    outcome: Outcome | None
    position_id: str
    match_id: str
    opening: list[Opening]


class Point(BaseModel):
    point: int
    you: int
    computer: int


class BoardView(BaseModel):
    points: list[Point]
    bar: Sides
    off: Sides
    pips: Sides


class MovesView(BaseModel):
    """The human's turn: steps made, dice left, where each checker may go
    (``destinations``: single dice; ``paths``: with one or more dice, the
    steps to each point) and whether the steps make a whole play."""

    steps: list[list[int]]
    dice_left: list[int]
    destinations: dict[str, list[int]]
    paths: dict[str, dict[str, list[list[int]]]]
    complete: bool
    legal_plays: int


class Note(BaseModel):
    """A line of the log or something said, for a program to put in its own
    words: its code and particulars (dice larger first)."""

    code: str
    params: dict[str, Any] = {}


class LogLine(BaseModel):
    player: str | None
    text: str
    code: str = ""
    params: dict[str, Any] = {}
    action: int | None = Field(None, description="the place in the game's history (1-based) of the action "
                                                 "this line tells, as the analysis names decisions")


class LogGame(BaseModel):
    game: int
    score: Sides
    crawford: bool
    lines: list[LogLine]


class Played(BaseModel):
    """A play of the computer since the last request: its dice and each
    die's step as [from, to, hit], points from the computer's own side
    (25 its bar, 0 off; its point p is the human's 25 - p)."""

    player: str
    dice: list[int]
    play: str
    steps: list[list[int | bool]]


class GameState(BaseModel):
    """A game against the computer as the page shows it, with what the
    computer said and played since the last request and the hint asked for."""

    id: str
    level: str
    player: str
    you: int
    computer: int
    match: MatchView
    game: GameView
    board: BoardView
    moves: MovesView | None
    actions: list[str]
    log: list[LogGame]
    said: list[str] = []
    notes: list[Note] = Field([], description="what ``said`` says, as codes and particulars, line for line")
    played: list[Played] = []
    hint: dict[str, Any] | None = None
