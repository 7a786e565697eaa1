"""The HTTP server: a JSON engine API and games against the computer.

``create_app()`` builds one ASGI application (FastAPI) with

- stateless engine calls: ``GET /api/move`` (the ranked plays of a roll)
  and ``GET /api/evaluate`` (chances, equity and the cube decision);
- games against the computer: ``POST /api/games``, ``GET /api/games/{id}``,
  ``POST /api/games/{id}/actions``, ``GET /api/games/{id}/mat`` and
  ``/sgf``;
- the page at ``/`` (``static/``) that plays through that API only, and
  the API's documentation at ``/docs`` (``/openapi.json``).

The rules are the engine's: every action goes to ``Game`` and ``Match``,
whose ``RulesError`` comes back as 409 naming the rule.  The server only
knows which side is the human's: it refuses to act for the computer, and
it plays the computer's turns (rolls, plays, cube actions, answers to
resignations) as soon as the human's action hands the turn over.
"""
from __future__ import annotations

import collections
import dataclasses
import ipaddress
import re
import secrets
import threading
import time
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import _movegen
from ..cube import cube_decision
from ..errors import RulesError
from ..evaluation import evaluate
from ..game import Ending, Game, Phase
from ..hint import hint
from ..match import Match
from ..matchid import MatchState
from ..players import player as make_player
from ..position import Position

__all__ = ["create_app", "GameStore", "LEVELS", "MAX_BODY", "MAX_GAMES"]

#: Difficulty levels: the player spec behind each, weakest first.
LEVELS = {"beginner": "pubeval", "intermediate": "net", "advanced": "net:1", "expert": "net:2"}
#: Players the stateless API may be asked for (nothing that starts a process).
API_PLAYERS = ("pubeval", "net", "net:0", "net:1", "net:2")
_PLY = {"pubeval": 0, "net": 0, "net:0": 0, "net:1": 1, "net:2": 2}
#: Largest request body accepted (bytes), and the most games kept in memory.
MAX_BODY = 64 * 1024
MAX_GAMES = 1000
MAX_QUERY = 4096
_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_RESIGN_WORDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
_ENDINGS = {Ending.SINGLE: "single game", Ending.GAMMON: "gammon", Ending.BACKGAMMON: "backgammon",
            Ending.DROP: "dropped double", Ending.RESIGNATION: "resignation"}


class ApiError(Exception):
    """An error with its HTTP status, sent as ``{"error": message}``."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# -- requests -----------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class Resume(_Strict):
    """A saved game or match to resume: the text of a ``.mat`` or SGF file."""

    format: Literal["mat", "sgf"] = "mat"
    text: str = Field(max_length=60_000)


class NewGame(_Strict):
    """A new game against the computer."""

    length: int = Field(0, ge=0, le=25, description="0: money game (a session of games); else a match to this many points")
    level: Literal["beginner", "intermediate", "advanced", "expert"] = Field(
        "intermediate", description="beginner = pubeval, intermediate = net (0-ply), advanced = net:1, expert = net:2")
    side: Literal[0, 1] = Field(0, description="which player the human is: 0 (light checkers) or 1 (dark)")
    seed: int | None = Field(None, ge=0, le=2 ** 63 - 1, description="seeds the dice (for tests and replays)")
    resume: Resume | None = Field(None, description="continue a saved game instead of starting a new one")


class Action(_Strict):
    """One action of the human.  ``move`` takes ``from``/``to`` (points from
    the human's side, 25 = bar, 0 = off); ``play`` takes ``play`` (notation)
    or ``moves`` (the whole play as [from, to] steps), or neither to confirm
    the checker moves made; ``undo`` takes ``what``: ``step`` (the last
    checker move), ``moves`` (every checker move of this turn) or ``turn``
    (the human's last play and what the computer did after it; the dice
    stay); ``resign`` takes ``level`` 1-3; ``hint`` takes ``ply`` 0-2."""

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


# -- the engine's answers as JSON ------------------------------------------------------

def _chances(e) -> dict:
    return {"win": e.win, "win_gammon": e.win_gammon, "win_backgammon": e.win_backgammon,
            "lose": 1.0 - e.win, "lose_gammon": e.lose_gammon, "lose_backgammon": e.lose_backgammon}


def _cube_json(d) -> dict:
    return {"action": d.action, "should_double": d.should_double, "take": d.take,
            "can_double": d.can_double, "reason": d.reason, "no_double": d.no_double,
            "double_take": d.double_take, "double_pass": d.double_pass,
            "mwc": list(d.mwc) if d.mwc is not None else None, "exact": d.exact}


def _ranked_json(r) -> dict:
    return {"play": str(r.play), "moves": [list(m) for m in r.play.moves], "hits": list(r.play.hits),
            "position": r.play.position.to_id(), "probabilities": _chances(r.evaluation),
            "equity": r.equity, "difference": r.difference, "ply": r.ply}


def _position(text: str) -> Position:
    return Position.from_id(text)


# -- a game against the computer ------------------------------------------------------

@dataclasses.dataclass
class Session:
    """One human against the computer: a match (or money session), its
    current game, and the partial checker moves of the human's turn."""

    id: str
    match: Match
    game: Game
    human: int
    level: str
    computer: Any
    steps: list = dataclasses.field(default_factory=list)       # [(from, to)] this turn, human's view
    offered: set = dataclasses.field(default_factory=set)       # resignation levels the computer offered
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    touched: float = dataclasses.field(default_factory=time.monotonic)
    created: float = dataclasses.field(default_factory=time.time)

    @property
    def bot(self) -> int:
        return 1 - self.human

    def who(self, side) -> str | None:
        return None if side is None else ("you" if side == self.human else "computer")


class GameStore:
    """Games by unguessable id, at most ``limit`` of them: adding one more
    evicts the one idle longest."""

    def __init__(self, limit: int = MAX_GAMES):
        self.limit = limit
        self._games: collections.OrderedDict[str, Session] = collections.OrderedDict()
        self._lock = threading.Lock()
        self.evicted = 0

    def add(self, session_factory) -> Session:
        gid = secrets.token_urlsafe(18)
        session = session_factory(gid)
        with self._lock:
            self._games[gid] = session
            while len(self._games) > self.limit:
                self._games.popitem(last=False)
                self.evicted += 1
        return session

    def get(self, gid: str) -> Session:
        if not _ID.match(gid):
            raise ApiError(404, "no such game: a game id is 16-64 characters of A-Z, a-z, 0-9, - and _")
        with self._lock:
            session = self._games.get(gid)
            if session is None:
                raise ApiError(404, "no such game (it may have ended long ago and been evicted)")
            self._games.move_to_end(gid)
            session.touched = time.monotonic()
            return session

    def replace(self, session: Session) -> None:
        with self._lock:
            if session.id in self._games:
                self._games[session.id] = session

    def __len__(self) -> int:
        return len(self._games)


def _board_rows(session: Session):
    """(position, human's row, computer's row) of the board shown now."""
    game = session.game
    pos = game.partial_position if game.phase is Phase.PLAY else game.position
    on_roll = game.on_roll
    if on_roll is None or on_roll == session.human:
        return pos, 1, 0
    return pos, 0, 1


def _step_die(board: bytes, frm: int, to: int, left) -> tuple[bytes, int, bool] | None:
    """Game.move's choice: the smallest die left that makes frm/to a legal step."""
    for die in sorted(set(left)):
        done = _movegen.step(board, frm, to, die)
        if done is not None:
            return done[0], die, bool(done[1])
    return None


class _Destinations:
    """The checker steps that lead on to a whole legal play: every step is
    the engine's own (``_movegen.step``, as ``Game.move`` takes it) and the
    ends are the legal plays' results (as ``Game.commit`` checks)."""

    def __init__(self, plays):
        after = plays.positions                      # opponent on roll: swap to the mover's view
        self.targets = {after[i, ::-1].tobytes() for i in range(len(plays))}
        self.memo: dict = {}

    def candidates(self, board: bytes, left: tuple):
        me = board[25:]
        for frm in range(25, 0, -1):
            if not me[frm - 1]:
                continue
            for to in sorted({max(frm - d, 0) for d in set(left)}, reverse=True):
                done = _step_die(board, frm, to, left)
                if done is not None:
                    after, die, hit = done
                    rest = list(left)
                    rest.remove(die)
                    yield frm, to, after, tuple(rest), hit

    def viable(self, board: bytes, left: tuple) -> bool:
        key = (board, left)
        if key not in self.memo:
            self.memo[key] = board in self.targets or any(
                self.viable(after, rest) for _, _, after, rest, _ in self.candidates(board, left))
        return self.memo[key]

    def steps(self, board: bytes, left: tuple) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for frm, to, after, rest, _ in self.candidates(board, left):
            if self.viable(after, rest):
                out.setdefault(frm, []).append(to)
        return out


def _left_dice(game: Game, session: Session) -> list[int]:
    if game.dice is None:
        return []
    d1, d2 = game.dice
    left = [d1] * 4 if d1 == d2 else [d1, d2]
    board = game.position.to_bytes()
    for frm, to in session.steps:      # replay to learn which die each step took
        done = _step_die(board, frm, to, left)
        if done is None:
            break
        board, die, _ = done
        left.remove(die)
    return left


def _log(session: Session) -> list[dict]:
    """The move log of every game, in standard notation, turn by turn."""
    out = []
    for number, game in enumerate(session.match.games, 1):
        lines = []
        cube = 1
        roll = None

        def line(side, text):
            lines.append({"player": session.who(side), "text": text})

        for ev in game.history:
            if ev.kind == "opening":
                a, b = ev.value
                if a == b:
                    line(None, f"Opening roll {a}-{b}: a tie, roll again")
                else:
                    roll = (max(a, b), min(a, b))
                    line(None, f"Opening roll: you {ev.value[session.human]}, the computer {ev.value[session.bot]}")
            elif ev.kind == "roll":
                roll = tuple(ev.value)
            elif ev.kind == "play":
                dice = f"{roll[0]}{roll[1]}: " if roll else ""
                line(ev.player, f"{dice}{ev.value or '(no legal move)'}")
                roll = None
            elif ev.kind == "double":
                line(ev.player, f"Doubles to {cube * 2}")
            elif ev.kind == "take":
                cube *= 2
                line(ev.player, "Takes")
            elif ev.kind == "drop":
                line(ev.player, "Passes")
            elif ev.kind in ("beaver", "raccoon"):
                cube *= 2
                line(ev.player, ev.kind.capitalize() + "s")
            elif ev.kind == "resign":
                line(ev.player, f"Offers to resign {_RESIGN_WORDS.get(ev.value, ev.value)}")
            elif ev.kind == "accept":
                line(ev.player, "Accepts the resignation")
            elif ev.kind == "reject":
                line(ev.player, "Rejects the resignation")
        if roll is not None and game.phase is Phase.PLAY:
            side = game.on_roll
            line(side, f"{roll[0]}{roll[1]}: …")
        if game.outcome is not None:
            o = game.outcome
            who = "You win" if o.winner == session.human else "The computer wins"
            line(None, f"{who} {o.points} point{'s' if o.points != 1 else ''} ({_ENDINGS[o.ending]})")
        out.append({"game": number, "score": {"you": game.score[session.human], "computer": game.score[session.bot]},
                    "crawford": game.crawford, "lines": lines})
    return out


def _actions(session: Session) -> list[str]:
    """What the human may do now: the engine's verdicts, for the human's turn."""
    game, match, me = session.game, session.match, session.human
    phase = game.phase
    acts = []
    if phase is Phase.OVER:
        if not match.is_over():
            acts.append("next")
        return acts
    if phase is Phase.OPENING:
        return ["roll"]
    mine = game.turn == me
    if not mine:
        return acts
    if phase is Phase.TURN:
        acts.append("roll")
        if game.can_double():
            acts.append("double")
        acts += ["resign", "hint"]
    elif phase is Phase.PLAY:
        acts += ["move", "play", "resign", "hint"]
        if session.steps:
            acts += ["undo"]
            if _complete(session):
                acts.append("commit")
    elif phase in (Phase.DOUBLED, Phase.BEAVERED):
        acts += ["take", "drop", "hint"]
    elif phase is Phase.RESIGNED:
        acts += ["accept", "reject"]
    if _last_human_play(session) is not None and phase in (Phase.TURN, Phase.PLAY) and "undo" not in acts:
        acts.append("undo")
    return acts


def _complete(session: Session) -> bool:
    game = session.game
    if game.phase is not Phase.PLAY:
        return False
    return game.partial_position.swapped() in game.legal_plays()


def _last_human_play(session: Session) -> int | None:
    """Index in the current game's history of the human's last play with
    moves, if the game can be taken back to just before it."""
    game = session.game
    if game.phase is Phase.OVER:
        return None
    for i in range(len(game.history) - 1, -1, -1):
        ev = game.history[i]
        if ev.kind == "play" and ev.player == session.human and ev.value:
            return i
    return None


def _state(session: Session) -> dict:
    game, match, me, bot = session.game, session.match, session.human, session.bot
    pos, hr, cr = _board_rows(session)
    a = pos.array
    points = [{"point": p, "you": int(a[hr, p - 1]), "computer": int(a[cr, 24 - p])} for p in range(1, 25)]
    pips_on_roll, pips_other = pos.pip_counts()
    off_on_roll, off_other = pos.borne_off()
    pips = (pips_on_roll, pips_other) if hr == 1 else (pips_other, pips_on_roll)
    off = (off_on_roll, off_other) if hr == 1 else (off_other, off_on_roll)
    moves = None
    if game.phase is Phase.PLAY and game.on_roll == me:
        left = _left_dice(game, session)
        plays = game.legal_plays()
        dest = _Destinations(plays).steps(game.partial_position.to_bytes(), tuple(sorted(left)))
        moves = {"steps": [list(s) for s in session.steps], "dice_left": left,
                 "destinations": {str(k): v for k, v in dest.items()},
                 "complete": _complete(session), "legal_plays": len(plays)}
    outcome = None
    if game.outcome is not None:
        o = game.outcome
        outcome = {"winner": session.who(o.winner), "ending": o.ending.value, "points": o.points,
                   "cube": o.cube_value, "multiplier": o.multiplier}
    pending_cube = game.cube_value
    if game.phase is Phase.DOUBLED:
        pending_cube = game.cube_value * 2
    resignation = None
    if game.phase is Phase.RESIGNED:
        resignation = {"by": session.who(game.on_roll), "level": game.resignation}
    score = game.final_score if game.is_over() else game.score
    double_reason = game.can_double().reason
    return {
        "id": session.id,
        "level": session.level, "player": session.computer.spec,
        "you": me, "computer": bot,
        "match": {"length": match.length, "money": match.length == 0,
                  "score": {"you": score[me], "computer": score[bot]},
                  "crawford": game.crawford if not game.is_over() else match.is_crawford_game,
                  "post_crawford": match.is_post_crawford, "over": match.is_over(),
                  "winner": session.who(match.winner), "game": len(match.games)},
        "game": {"phase": game.phase.value, "turn": session.who(game.turn), "on_roll": session.who(game.on_roll),
                 "dice": list(game.dice) if game.dice else None,
                 "cube": {"value": game.cube_value, "owner": session.who(game.cube_owner),
                          "offered": pending_cube if game.phase is Phase.DOUBLED else None,
                          "offered_by": session.who(game.on_roll) if game.phase is Phase.DOUBLED else None,
                          "double_reason": double_reason},
                 "resignation": resignation, "outcome": outcome,
                 "position_id": game.position.to_id(), "match_id": game.match_id()},
        "board": {"points": points, "bar": {"you": int(a[hr, 24]), "computer": int(a[cr, 24])},
                  "off": {"you": int(off[0]), "computer": int(off[1])},
                  "pips": {"you": int(pips[0]), "computer": int(pips[1])}},
        "moves": moves,
        "actions": _actions(session),
        "log": _log(session),
    }


# -- the computer's side -----------------------------------------------------------------

def _computer_turns(session: Session, said: list[str]) -> None:
    """Play the computer's actions while the turn is the computer's."""
    game, bot, comp = session.game, session.bot, session.computer
    for _ in range(200):
        if game.is_over() or game.phase is Phase.OPENING or game.turn != bot:
            return
        phase = game.phase
        if phase is Phase.TURN:
            level = _hopeless(game)
            if level and level not in session.offered:
                session.offered.add(level)
                game.resign(level)
                said.append(f"The computer offers to resign {_RESIGN_WORDS[level]}.")
                continue
            if game.can_double() and comp.has_cube_decisions:
                decision = comp.cube_action(game.position, game.match_state(), game.rules)
                if decision.should_double:
                    game.double()
                    said.append(f"The computer doubles to {game.cube_value * 2}.")
                    continue
            game.roll()
            d1, d2 = [e for e in game.history if e.kind == "roll"][-1].value
            if game.phase is Phase.PLAY:
                chosen = comp.choose(game.position, game.dice)
                game.play(chosen)
                said.append(f"The computer rolled {d1}-{d2} and played {chosen}.")
            else:
                said.append(f"The computer rolled {d1}-{d2} and cannot move.")
        elif phase is Phase.PLAY:                 # the computer won the opening roll
            assert game.dice is not None
            d1, d2 = game.dice
            chosen = comp.choose(game.position, game.dice)
            game.play(chosen)
            said.append(f"The computer plays {d1}-{d2}: {chosen}.")
        elif phase is Phase.DOUBLED:
            decision = comp.cube_action(game.position, game.match_state(), game.rules)
            if decision.take == "pass":
                game.drop()
                said.append("The computer passes.")
            else:
                game.take()
                said.append("The computer takes.")
        elif phase is Phase.BEAVERED:
            game.take()
            said.append("The computer accepts.")
        elif phase is Phase.RESIGNED:
            level = game.resignation
            # The human resigns on the human's turn: the position is the human's view.
            e = evaluate(game.position)
            expected = -e.equity    # the computer's cubeless points per cube, playing on
            if level >= expected - 1e-9:
                game.accept_resignation()
                said.append("The computer accepts your resignation.")
            else:
                game.reject_resignation()
                said.append("The computer rejects your resignation and plays on.")
        else:   # pragma: no cover
            return


def _hopeless(game: Game) -> int:
    """The resignation the computer offers before rolling: in a race it
    cannot win (0-ply), the level it cannot save (else 0)."""
    pos = game.position
    if not pos.is_race():
        return 0
    e = evaluate(pos)
    if e.win > 1e-4:
        return 0
    return 1 if e.lose_gammon < 1e-4 else 2 if e.lose_backgammon < 1e-4 else 3


# -- the human's actions -------------------------------------------------------------------

def _mine(session: Session, what: str) -> None:
    game = session.game
    if game.phase is Phase.OPENING:
        if what == "roll":
            return
        raise ApiError(409, f"cannot {what} before the opening roll: roll first (RULES 2.2)")
    if game.phase is Phase.OVER:
        raise ApiError(409, f"cannot {what}: the game is over" + ("" if session.match.is_over()
                                                                  else " (start the next one with action 'next')"))
    if game.turn != session.human:
        raise ApiError(409, f"cannot {what}: it is the computer's turn, not yours")


def _rebuild(session: Session, upto: int) -> None:
    """The match replayed from its records, the current game up to (not
    including) event ``upto``: Game and Match redo every action."""
    old = session.match
    match = Match(old.length, rules=old.rules)
    for g in old.games[:-1]:
        Game.replay(g.history, match=match)
    game = Game.replay(session.game.history[:upto], match=match)
    session.match, session.game, session.steps = match, game, []


def _apply(session: Session, act: Action) -> tuple[list[str], dict | None]:
    game = session.game
    said: list[str] = []
    extra = None
    kind = act.action
    if kind == "next":
        if not game.is_over():
            raise ApiError(409, "cannot start the next game: this one is not over")
        if session.match.is_over():
            raise ApiError(409, "the match is over: start a new one with POST /api/games")
        session.game = session.match.new_game()
        session.steps = []
        session.offered = set()
        return said, None
    if kind == "hint":
        _mine(session, "ask for a hint")
        return said, _hint(session, act.ply if act.ply is not None else 1)
    if kind == "undo":
        return _undo(session, act.what), None
    _mine(session, kind)
    if kind == "roll":
        game.roll()
        rolls = [e for e in game.history if e.kind in ("opening", "roll")]
        ev = rolls[-1]
        if game.phase is Phase.OPENING:
            said.append(f"Opening roll {ev.value[0]}-{ev.value[1]}: a tie, roll again.")
        elif ev.kind == "opening":
            who = "You start" if ev.value[session.human] > ev.value[session.bot] else "The computer starts"
            said.append(f"Opening roll: you {ev.value[session.human]}, the computer {ev.value[session.bot]}. {who}.")
        last = game.history[-1]
        if last.kind == "play" and last.player == session.human and not last.value:
            said.append(f"You rolled {game.history[-2].value[0]}-{game.history[-2].value[1]} and cannot move.")
    elif kind == "move":
        if act.from_ is None or act.to is None:
            raise ApiError(422, "move needs 'from' and 'to': points from your side, 25 = bar, 0 = off")
        game.move(act.from_, act.to)
        session.steps.append((act.from_, act.to))
    elif kind in ("play", "commit"):
        if kind == "play" and (act.play is not None or act.moves is not None):
            if act.play is not None and act.moves is not None:
                raise ApiError(422, "give 'play' (notation) or 'moves' ([from, to] steps), not both")
            if session.steps:
                raise RulesError("you have moved checkers this turn: confirm them (action 'commit') "
                                 "or take them back (action 'undo', what 'moves') before playing notation")
            if act.moves is not None:
                for frm, to in act.moves:
                    game.move(frm, to)
                    session.steps.append((frm, to))
                try:
                    game.commit()
                except RulesError:
                    game.undo()
                    session.steps = []
                    raise
            else:
                game.play(act.play)
        else:
            game.commit()
        session.steps = []
        said.append(f"You played {game.history[-1].value or '(no legal move)'}.")
    elif kind == "double":
        game.double()
    elif kind == "take":
        game.take()
    elif kind == "drop":
        game.drop()
    elif kind == "resign":
        game.resign(act.level if act.level is not None else 1)
        session.steps = []
    elif kind == "accept":
        game.accept_resignation()
    elif kind == "reject":
        game.reject_resignation()
    _computer_turns(session, said)
    return said, extra


def _undo(session: Session, what: str | None) -> list[str]:
    game = session.game
    _mine(session, "undo")
    if what is None:
        what = "step" if session.steps else "turn"
    if what in ("step", "moves"):
        if game.phase is not Phase.PLAY or not session.steps:
            raise RulesError("there is no checker move to take back this turn")
        keep = session.steps[:-1] if what == "step" else []
        game.undo()
        session.steps = []
        for frm, to in keep:
            game.move(frm, to)
            session.steps.append((frm, to))
        return []
    if game.phase not in (Phase.TURN, Phase.PLAY):
        raise ApiError(409, f"cannot take back your last play now: answer first (now: {game.phase.value})")
    at = _last_human_play(session)
    if at is None:
        raise RulesError("there is no play of yours in this game to take back")
    _rebuild(session, at)
    session.offered = set()
    return ["Your last play is taken back: play the same dice again."]


def _hint(session: Session, ply: int) -> dict:
    game = session.game
    if game.phase is Phase.PLAY:
        ranked = hint(game.position, game.dice, ply)
        return {"kind": "play", "ply": ply, "plays": [_ranked_json(r) for r in ranked[:5]],
                "count": len(ranked)}
    if game.phase in (Phase.TURN, Phase.DOUBLED, Phase.BEAVERED):
        d = cube_decision(game.position, game.match_state(), game.rules, ply=min(ply, 1))
        return {"kind": "take" if game.phase is not Phase.TURN else "cube", "ply": min(ply, 1), **_cube_json(d)}
    raise RulesError(f"no hint in this phase ({game.phase.value})")


# -- records --------------------------------------------------------------------------------

_NAMES = ("You", "Computer")


def _record_text(session: Session, fmt: str) -> str:
    if fmt == "mat":
        from ..mat import write_mat as write
    else:
        from ..sgf import write_sgf as write
    names = _NAMES if session.human == 0 else _NAMES[::-1]
    return write(session.match, players=names)


def _resume(resume: Resume, side: int):
    """The match of a saved record (games in progress included), its
    current game, and the human's side: the side not named "Computer" in
    the file when one is, else ``side``."""
    if resume.format == "mat":
        from ..mat import read_mat as read
    else:
        from ..sgf import read_sgf as read
    record = read(resume.text, partial=True)
    match = record.replay()
    if "Computer" in record.players and record.players.count("Computer") == 1:
        side = 1 - record.players.index("Computer")
    if not match.games:
        game = match.new_game()
    else:
        game = match.games[-1]
        if game.is_over() and not match.is_over():
            game = match.new_game()
    return match, game, side


# -- the application -----------------------------------------------------------------------

class _BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413) and query strings
    over ``MAX_QUERY`` (414), before any handler reads them."""

    def __init__(self, app, limit: int, allowed_hosts=None):
        self.app = app
        self.limit = limit
        self.hosts = None if not allowed_hosts else {h.lower() for h in allowed_hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        send = _with_headers(send, scope.get("path", "").startswith("/api/"))
        if self.hosts is not None:
            host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in self.hosts and host not in self.hosts:
                return await _send_error(send, 400, f"this server answers requests for {', '.join(sorted(self.hosts))}, "
                                                    f"not for host {host[:80]!r}")
        if len(scope.get("query_string", b"")) > MAX_QUERY:
            return await _send_error(send, 414, f"the query string is longer than {MAX_QUERY} bytes")
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None:
            if not length.isdigit():
                return await _send_error(send, 400, "Content-Length is not a number")
            if int(length) > self.limit:
                return await _send_error(send, 413, f"the request body is larger than {self.limit} bytes")
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.limit:
                return await _send_error(send, 413, f"the request body is larger than {self.limit} bytes")
            if not message.get("more_body"):
                break
        done = False

        async def replay():
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)


_COMMON_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                   (b"cache-control", b"no-store")]


def _with_headers(send, api: bool):
    """``send`` adding the security headers (and the page's CSP) to the response."""
    extra = _COMMON_HEADERS if api else _COMMON_HEADERS + [(b"content-security-policy", _CSP.encode())]

    async def wrapped(message):
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            message = dict(message)
            message["headers"] = list(message.get("headers", [])) + [(k, v) for k, v in extra if k not in names]
        await send(message)

    return wrapped


async def _send_error(send, status: int, message: str) -> None:
    import json
    data = json.dumps({"error": message, "status": status}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


_STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
           "favicon.svg": "image/svg+xml", "docs.js": "text/javascript; charset=utf-8"}
_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")


def _static(name: str) -> bytes:
    return resources.files(__package__).joinpath("static").joinpath(name).read_bytes()


def _error(status: int, message: str, detail=None) -> JSONResponse:
    body = {"error": message, "status": status}
    if detail is not None:
        body["detail"] = detail
    return JSONResponse(body, status_code=status)


def create_app(*, max_games: int = MAX_GAMES, max_body: int = MAX_BODY,
               allowed_hosts: list[str] | None = None) -> FastAPI:
    """The ASGI application.  ``max_games``: games kept in memory (the
    longest idle is evicted); ``max_body``: the largest request body;
    ``allowed_hosts``: Host headers accepted (None: any), which guards a
    loopback server against DNS rebinding."""
    app = FastAPI(title="backgammon", version=_version(), docs_url=None, redoc_url=None,
                  description="The backgammon engine behind a JSON API, and games against the computer. "
                              "Errors are JSON: {\"error\": message, \"status\": code}.")
    store = GameStore(max_games)
    app.state.store = store

    @app.exception_handler(ApiError)
    async def _api_error(request, exc: ApiError):
        return _error(exc.status, exc.message)

    @app.exception_handler(RulesError)
    async def _rules_error(request, exc):
        return _error(409, str(exc))

    @app.exception_handler(ValueError)
    async def _value_error(request, exc):
        return _error(422, str(exc))

    @app.exception_handler(TypeError)
    async def _type_error(request, exc):
        return _error(400, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request, exc: RequestValidationError):
        detail = []
        for e in exc.errors():
            detail.append({"where": ".".join(str(x) for x in e.get("loc", ())), "problem": str(e.get("msg", ""))})
        text = "; ".join(f"{d['where']}: {d['problem']}" for d in detail[:5]) or "invalid request"
        return _error(422, f"invalid request: {text}", detail)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request, exc):
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _crash(request, exc):     # never expected: a bug, reported without internals
        return _error(500, f"internal error ({type(exc).__name__})")

    # -- the page ------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def index():
        return Response(_static("index.html"), media_type="text/html; charset=utf-8")

    @app.get("/docs", include_in_schema=False)
    def docs():
        return Response(_static("docs.html"), media_type="text/html; charset=utf-8")

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str):
        if name not in _STATIC:             # a fixed list: no client input names a file
            raise ApiError(404, "no such file")
        return Response(_static(name), media_type=_STATIC[name])

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon():
        return Response(_static("favicon.svg"), media_type="image/svg+xml")

    # -- stateless engine calls ----------------------------------------------------------
    @app.get("/api/move", summary="The ranked plays of a roll")
    def api_move(position: Annotated[str, Query(max_length=40, description="GNU Position ID, side on roll")],
                 dice: Annotated[str, Query(max_length=8, description="the roll, e.g. 31 or 3-1")],
                 player: Annotated[str, Query(description="pubeval, net (= net:0), net:1 or net:2")] = "net:1",
                 limit: Annotated[int, Query(ge=1, le=1000)] = 1000):
        """Every legal play of ``dice`` from ``position``, best first by the
        network searched to the player's depth, with the mover's chances
        after each play and its cubeless equity; ``choice`` is the play the
        ``player`` makes."""
        if player not in API_PLAYERS:
            raise ApiError(422, f"player must be one of {', '.join(API_PLAYERS)}, not {player!r}")
        pos = _position(position)
        if pos.is_game_over():
            raise ApiError(422, "position: the game is over, there is no play")
        ranked = hint(pos, dice, _PLY[player])
        choice = ranked[0].play if player.startswith("net") else make_player(player).choose(pos, dice)
        return JSONResponse({"position": pos.to_id(), "dice": list(pos.legal_plays(dice).roll), "player": player,
                             "choice": str(choice), "count": len(ranked),
                             "plays": [_ranked_json(r) for r in ranked[:limit]]})

    @app.get("/api/evaluate", summary="Chances, equity and the cube decision")
    def api_evaluate(position: Annotated[str, Query(max_length=40, description="GNU Position ID, side on roll")],
                     match: Annotated[str | None, Query(max_length=40, description="GNU Match ID (default: money, centred cube)")] = None,
                     ply: Annotated[int, Query(ge=0, le=2)] = 0):
        """The chances of the side on roll (gammons include backgammons),
        its cubeless equity and the cube decision before it rolls."""
        pos = _position(position)
        if pos.is_game_over():
            raise ApiError(422, "position: the game is over, there is nothing to evaluate")
        state = MatchState.from_match_id(match) if match else None
        e = evaluate(pos, ply)
        d = cube_decision(pos, state, None, ply=min(ply, 1))
        return JSONResponse({"position": pos.to_id(), "match": state.to_match_id() if state else None, "ply": ply,
                             "probabilities": _chances(e), "equity": e.equity, "cube": _cube_json(d)})

    # -- games ---------------------------------------------------------------------------
    @app.post("/api/games", status_code=201, summary="Start (or resume) a game against the computer")
    def new_game(body: NewGame | None = None):
        body = body or NewGame.model_validate({})
        spec = LEVELS[body.level]
        computer = make_player(spec)
        if body.resume is not None:
            match, game, side = _resume(body.resume, body.side)
        else:
            match = Match(body.length, seed=body.seed)
            game = match.new_game()
            side = body.side
        said: list[str] = []
        session = store.add(lambda gid: Session(gid, match, game, side, body.level, computer))
        with session.lock:
            _computer_turns(session, said)
            return JSONResponse({**_state(session), "said": said}, status_code=201)

    @app.get("/api/games/{gid}", summary="The state of a game")
    def get_game(gid: Annotated[str, Path(max_length=64)]):
        session = store.get(gid)
        with session.lock:
            return JSONResponse(_state(session))

    @app.post("/api/games/{gid}/actions", summary="An action of the human")
    def act(gid: Annotated[str, Path(max_length=64)], body: Action):
        session = store.get(gid)
        with session.lock:
            said, extra = _apply(session, body)
            state = _state(session)
            state["said"] = said
            if extra is not None:
                state["hint"] = extra
            return JSONResponse(state)

    @app.get("/api/games/{gid}/mat", summary="The game or match as a .mat file", response_class=PlainTextResponse)
    def mat(gid: Annotated[str, Path(max_length=64)]):
        session = store.get(gid)
        with session.lock:
            text = _record_text(session, "mat")
        return PlainTextResponse(text, headers={"Content-Disposition": 'attachment; filename="backgammon.mat"'})

    @app.get("/api/games/{gid}/sgf", summary="The game or match as SGF", response_class=PlainTextResponse)
    def sgf(gid: Annotated[str, Path(max_length=64)]):
        session = store.get(gid)
        with session.lock:
            text = _record_text(session, "sgf")
        return PlainTextResponse(text, headers={"Content-Disposition": 'attachment; filename="backgammon.sgf"'})

    app.add_middleware(_BodyLimit, limit=max_body, allowed_hosts=allowed_hosts)
    return app


def _version() -> str:
    from .. import __version__
    return __version__


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
