"""The HTTP routes: a JSON engine API and games against the computer.

``create_app()`` builds one ASGI application (FastAPI) with

- stateless engine calls: ``GET /api/move`` (the ranked plays of a roll)
  and ``GET /api/evaluate`` (chances, equity and the cube decision);
- games against the computer: ``POST /api/games``, ``GET /api/games/{id}``,
  ``POST /api/games/{id}/actions``, ``GET /api/games/{id}/mat`` and
  ``/sgf``;
- the page at ``/`` (``static/``) that plays through that API only, and
  the API's documentation at ``/docs`` (``/openapi.json``).

A route only translates: the game's rules are the engine's (``session``
applies actions through ``Game``), the computer is a ``Player``
(``computer``), the games live in the ``store``.
"""
from __future__ import annotations

import ipaddress
import secrets
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Path, Query
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..cube import cube_decision
from ..errors import RulesError
from ..evaluation import evaluate
from ..formats.codes import read_position
from ..hint import hint
from ..match import Match
from ..matchid import MatchState
from . import session as play
from .computer import computer_for, computer_turns
from .middleware import MAX_BODY, BodyLimit
from .schemas import Action, ApiError, ErrorBody, EvaluateAnswer, GameState, MoveAnswer, NewGame
from .store import MAX_BYTES, MAX_GAMES, GameStore, Session

__all__ = ["create_app", "is_loopback"]

#: the longest position code read (a FIBS board line is about 150 characters)
MAX_CODE = 300
_CODE = ("a position code, the side on roll: a GNU Position ID, Position ID:Match ID, an XGID, "
         "a FIBS board line, an OGID or a Snowie text position")
_STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
           "favicon.svg": "image/svg+xml", "docs.js": "text/javascript; charset=utf-8",
           # the page's words, one catalog per language (app.js: LANGS)
           "lang-en.json": "application/json", "lang-zh-Hans.json": "application/json",
           "lang-zh-Hant.json": "application/json"}
_ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorBody} for status in (400, 404, 409, 413, 414, 422)}


def _static(name: str) -> bytes:
    return resources.files(__package__).joinpath("static").joinpath(name).read_bytes()


def _error(status: int, message: str, code: str, params: dict | None = None, detail=None) -> JSONResponse:
    body = {"error": message, "status": status, "code": code, "params": params or {}}
    if detail is not None:
        body["detail"] = detail
    return JSONResponse(body, status_code=status)


def _told(said: list[dict]) -> dict:
    """What was said, as English lines (``said``) and as codes (``notes``)."""
    return {"said": [s["text"] for s in said], "notes": [{"code": s["code"], "params": s["params"]} for s in said]}


def _position(code: str):
    """The position and match state (or None) of a position code, any form
    ``formats.codes.read_position`` reads; a code it refuses answers 422
    with its message, which lists the forms."""
    try:
        return read_position(code)
    except ValueError as e:
        raise ApiError(422, f"position: {e}", "invalid_position", {"parameter": "position"}) from None


def _version() -> str:
    from .. import __version__
    return __version__


def create_app(*, max_games: int = MAX_GAMES, max_bytes: int = MAX_BYTES, max_body: int = MAX_BODY,
               allowed_hosts: list[str] | None = None) -> FastAPI:
    """The ASGI application.  ``max_games`` and ``max_bytes``: how many
    games, and about how much memory, the server keeps (the longest idle
    go first, and their ids answer 410); ``max_body``: the largest request body;
    ``allowed_hosts``: Host headers accepted (None: any), which guards a
    loopback server against DNS rebinding."""
    app = FastAPI(title="backgammon", version=_version(), docs_url=None, redoc_url=None,
                  description="The backgammon engine behind a JSON API, and games against the computer. "
                              "Errors are JSON: {\"error\": message (English), \"status\": HTTP status, "
                              "\"code\": a stable name of the refusal, \"params\": its particulars}; "
                              "params.rule is the section of the rules (RULES n.m) a refusal cites.")
    store = GameStore(max_games, max_bytes)
    app.state.store = store

    @app.exception_handler(ApiError)
    async def _api_error(request, exc: ApiError):
        return _error(exc.status, exc.message, exc.code, exc.params)

    @app.exception_handler(RulesError)
    async def _rules_error(request, exc):
        return _error(409, str(exc), getattr(exc, "code", "") or "rules", getattr(exc, "params", None))

    @app.exception_handler(ValueError)
    async def _value_error(request, exc):
        return _error(422, str(exc), "invalid_value")

    @app.exception_handler(TypeError)
    async def _type_error(request, exc):
        return _error(400, str(exc), "invalid_type")

    @app.exception_handler(RequestValidationError)
    async def _invalid(request, exc: RequestValidationError):
        detail = []
        for e in exc.errors():
            detail.append({"where": ".".join(str(x) for x in e.get("loc", ())), "problem": str(e.get("msg", ""))})
        text = "; ".join(f"{d['where']}: {d['problem']}" for d in detail[:5]) or "invalid request"
        return _error(422, f"invalid request: {text}", "invalid_request", None, detail)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request, exc):
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, str(exc.detail), code)

    @app.exception_handler(Exception)
    async def _crash(request, exc):     # never expected: a bug, reported without internals
        return _error(500, f"internal error ({type(exc).__name__})", "internal_error")

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
            raise ApiError(404, "no such file", "not_found")
        return Response(_static(name), media_type=_STATIC[name])

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon():
        return Response(_static("favicon.svg"), media_type="image/svg+xml")

    # -- stateless engine calls ----------------------------------------------------------
    @app.get("/api/move", summary="The ranked plays of a roll", response_model=MoveAnswer, responses=_ERRORS)
    def api_move(position: Annotated[str, Query(max_length=MAX_CODE, description=_CODE)],
                 dice: Annotated[str | None, Query(max_length=8, description="the roll, e.g. 31 or 3-1 "
                                                   "(default: the roll the position code carries)")] = None,
                 player: Annotated[str, Query(max_length=80, description="a player spec: pubeval, net (= net:0), "
                                              "net:1, net:2 or any registered player")] = "net:1",
                 limit: Annotated[int, Query(ge=1, le=1000)] = 1000,
                 match: Annotated[str | None, Query(max_length=40, description="GNU Match ID (default: the "
                                                    "state the position code carries, else money, "
                                                    "cubeless)")] = None):
        """Every legal play of ``dice`` from ``position``, best first by the
        network searched as deep as the ``player`` searches (its ``ply``),
        with the mover's chances after each play and its equity: at the
        match state the code carries (or ``match``) cubeful, by normalised
        match equity in a match, as ``hint(state=...)`` ranks (gnubg's
        order); without one, cubeless money equity.  ``choice`` is the play
        the ``player`` makes at that state (``Player.choose_at``)."""
        chooser = computer_for("normal", player, 0)
        pos, state = _position(position)
        if match:
            if state is not None:
                raise ApiError(422, "match: the position code carries a match state already; give one of them",
                               "match_given_twice", {"parameter": "match"})
            state = MatchState.from_match_id(match)
        if pos.is_game_over():
            raise ApiError(422, "position: the game is over, there is no play", "position_over")
        if dice is None:
            if state is None or state.dice == (0, 0):
                raise ApiError(422, "dice: give the roll (the position code carries none)", "dice_missing",
                               {"parameter": "dice"})
            dice = "".join(str(d) for d in state.dice)
        ranked = hint(pos, dice, chooser.ply, state=state)
        choice = chooser.choose(pos, dice) if state is None else chooser.choose_at(pos, dice, state)
        return JSONResponse({"position": pos.to_id(), "match": state.to_match_id() if state else None,
                             "dice": list(pos.legal_plays(dice).roll),
                             "player": chooser.spec, "choice": str(choice), "count": len(ranked),
                             "plays": [play.ranked_json(r) for r in ranked[:limit]]})

    @app.get("/api/evaluate", summary="Chances, equity and the cube decision", response_model=EvaluateAnswer,
             responses=_ERRORS)
    def api_evaluate(position: Annotated[str, Query(max_length=MAX_CODE, description=_CODE)],
                     match: Annotated[str | None, Query(max_length=40, description="GNU Match ID (default: the "
                                                        "state the position code carries, else money with the "
                                                        "cube centred)")] = None,
                     ply: Annotated[int, Query(ge=0, le=2)] = 0):
        """The chances of the side on roll (gammons include backgammons),
        its cubeless equity and the cube decision before it rolls (searched
        as ``cube.cube_decision`` searches at ``ply``)."""
        pos, state = _position(position)
        if pos.is_game_over():
            raise ApiError(422, "position: the game is over, there is nothing to evaluate", "position_over")
        if match:
            if state is not None:
                raise ApiError(422, "match: the position code carries a match state already; give one of them",
                               "match_given_twice", {"parameter": "match"})
            state = MatchState.from_match_id(match)
        e = evaluate(pos, ply)
        d = cube_decision(pos, state, None, ply=ply)
        return JSONResponse({"position": pos.to_id(), "match": state.to_match_id() if state else None, "ply": ply,
                             "probabilities": play.chances_json(e), "equity": e.equity, "cube": play.cube_json(d)})

    # -- games ---------------------------------------------------------------------------
    @app.post("/api/games", status_code=201, summary="Start (or resume) a game against the computer",
              response_model=GameState, responses=_ERRORS)
    def new_game(body: NewGame | None = None):
        body = body or NewGame.model_validate({})
        seed = body.seed if body.seed is not None else secrets.randbits(63)
        computer = computer_for(body.level, body.player, seed)
        if body.resume is not None:
            match, game, side = play.resume(body.resume, body.side, seed)
        else:
            match = Match(body.length, rules=play.rules_for(body.cube), seed=seed)
            game = match.new_game()
            side = body.side
        said: list[dict] = []
        session = store.add(lambda gid: Session(gid, match, game, side, body.level, computer, seed))
        with session.lock:
            computer_turns(session, said)
            played, session.played = session.played, []
            return JSONResponse({**play.state(session), **_told(said), "played": played}, status_code=201)

    @app.get("/api/games/{gid}", summary="The state of a game", response_model=GameState, responses=_ERRORS)
    def get_game(gid: Annotated[str, Path(max_length=64)]):
        session = store.get(gid)
        with session.lock:
            return JSONResponse(play.state(session))

    @app.post("/api/games/{gid}/actions", summary="An action of the human", response_model=GameState,
              responses=_ERRORS)
    def act(gid: Annotated[str, Path(max_length=64)], body: Action):
        session = store.get(gid)
        with session.lock:
            said, extra = play.apply(session, body)
            state = play.state(session)
            state.update(_told(said))
            state["played"], session.played = session.played, []
            if extra is not None:
                state["hint"] = extra
            return JSONResponse(state)

    @app.get("/api/games/{gid}/analysis", summary="Every decision of the match so far graded",
             responses=_ERRORS)
    def analysis(gid: Annotated[str, Path(max_length=64)], ply: Annotated[int, Query(ge=0, le=2)] = 0):
        session = store.get(gid)
        with session.lock:
            return JSONResponse(play.analysis_json(session, ply))

    def record(gid: str, fmt: str) -> PlainTextResponse:
        session = store.get(gid)
        with session.lock:
            text = play.record_text(session, fmt)
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="backgammon.{fmt}"'})

    @app.get("/api/games/{gid}/mat", summary="The game or match as a .mat file", response_class=PlainTextResponse,
             responses=_ERRORS)
    def mat(gid: Annotated[str, Path(max_length=64)]):
        return record(gid, "mat")

    @app.get("/api/games/{gid}/sgf", summary="The game or match as SGF", response_class=PlainTextResponse,
             responses=_ERRORS)
    def sgf(gid: Annotated[str, Path(max_length=64)]):
        return record(gid, "sgf")

    app.add_middleware(BodyLimit, limit=max_body, allowed_hosts=allowed_hosts)
    return app


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine's loopback interface."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False

