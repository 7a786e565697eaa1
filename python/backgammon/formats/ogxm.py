"""OGXM, the match format of HedgeHog / OpenGammon (its specification is
CC BY 4.0): a binary file of checksummed chunks holding the match, its
games and plies, any number of engine analyses and Ed25519 signatures.

The bytes are decoded and encoded by the ``ogxm`` package (MIT, the
format author's reference codec, ``pip install 'backgammon[ogxm]'``), or,
without it, by gammonview's ``gvformat`` (MIT, pure Python); both give the
format's JSON projection, which this module reads into a
:class:`~backgammon.formats.record.MatchRecord` and writes from one:

- the match: ``match_length`` (0 money), ``player_white`` (our player 0),
  ``player_black`` (player 1), the rules (``crawford``, ``jacoby``,
  ``beaver``, ``raccoon``, ``cube_limit``), ``score_start``;
- per game: ``winner`` (0 White, 1 Black, 255 unfinished), ``points_won``
  and the ``plies``: ``color`` (1 White, 0 Black) and ``action_id`` (0-20 a
  roll and its play, ``d1``/``d2`` the dice and ``moves`` its steps, each
  ``from`` an absolute point, 0 White's bar and 25 Black's, and ``pips``;
  21 double, 22 take, 23 drop, 32 beaver, 33 raccoon, 27/28 a resignation,
  24-26 and 30 markers);
- each ply's ``analysis`` (checker: the candidate plays with their
  equities; cube: the no-double, double/take and double/pass equities).

:func:`write_ogxm` writes a record, and with ``analysis=`` (a
:class:`~backgammon.analysis.MatchAnalysis`) the analysis of every graded
play and cube decision, as gammonview carries its own.  What a record
cannot take is refused naming the game and the ply: a set-position ply
(31), a settlement (34), a cube set by hand (36), a turn whose roll was
not recorded (37).

>>> FORMAT.name, FORMAT.extensions, FORMAT.binary
('ogxm', ('.ogxm',), True)
"""
from __future__ import annotations

import importlib
from typing import Callable, cast

from .._validate import data_bytes
from ..game import Event, Phase
from ..match import Match
from ..play import written_steps
from ..rules import MAX_CUBE, Rules
from . import Format
from .record import MONEY_RULES, MatchFileError, MatchRecord, RecordBuilder, play_steps, record_items
from .source import load, named, reader_options

__all__ = ["OgxmFileError", "read_ogxm", "write_ogxm", "ogxm_document", "record_document", "available",
           "INSTALL"]

#: How to install the codec.
INSTALL = "pip install 'backgammon[ogxm]'"

_DOUBLE, _TAKE, _DROP, _BEAVER, _RACCOON = 21, 22, 23, 32, 33
_MARKERS = (24, 25, 26, 30)
_RESIGN = (27, 28)
_FORFEIT = 29
_UNREADABLE = {31: "a set-position ply (a board stated, not reached by a play)", 34: "a settlement",
               36: "a cube set by hand", 37: "a turn whose roll was not recorded"}
_OFFSET = (0, 6, 11, 15, 18, 20)


def _dice_id(d1: int, d2: int) -> int:
    a, b = min(d1, d2), max(d1, d2)
    return _OFFSET[a - 1] + (b - a)


_ID_DICE = {_dice_id(a, b): (a, b) for a in range(1, 7) for b in range(a, 7)}


class OgxmFileError(MatchFileError):
    """An OGXM file that cannot be decoded (or no codec installed), or whose
    games break the rules; ``game`` and ``line`` (the ply, from 1) say where."""

    def __init__(self, message: str, game: int | None = None, line: int | None = None):
        where = [w for w in (f"game {game}" if game else "", f"ply {line}" if line else "") if w]
        ValueError.__init__(self, f"{', '.join(where)}: {message}" if where else message)
        self.game = game
        self.line = line


def _codec():
    """``(name, decode, encode)`` of the codec at hand."""
    try:
        ogxm = importlib.import_module("ogxm")
        return "ogxm", ogxm.binary_to_json, ogxm.json_to_binary
    except (ImportError, OSError):
        pass
    try:
        reader = importlib.import_module("gvformat.ogxm2")
        writer = importlib.import_module("gvformat.ogxm2_writer")
        return "gammonview", reader.read_ogxm2, writer.write_ogxm2
    except ImportError:
        raise OgxmFileError(f"OGXM files need the ogxm package: {INSTALL}") from None


def available() -> bool:
    """Whether an OGXM codec can be imported."""
    try:
        _codec()
    except OgxmFileError:
        return False
    return True


def ogxm_document(data: bytes) -> dict:
    """The JSON projection of an OGXM file's bytes."""
    data = data_bytes("data", data)
    if data[:4] != b"OGXM":
        raise OgxmFileError("not an OGXM file: it does not start with 'OGXM'")
    name, decode, _ = _codec()
    try:
        doc = decode(bytes(data))
    except Exception as e:        # noqa: BLE001 -- whatever the codec raises, the file is unreadable
        raise OgxmFileError(f"{name} cannot decode the file ({type(e).__name__}: {e})") from None
    if not isinstance(doc, dict):
        raise OgxmFileError("the codec gave no match document")
    return doc


# -- reading ---------------------------------------------------------------------------------

def _rules(doc: dict, length: int) -> Rules:
    limit = doc.get("cube_limit") or MAX_CUBE
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1 or limit & (limit - 1):
        limit = MAX_CUBE
    limit = min(limit, MAX_CUBE)
    if length:
        return Rules(cube_limit=limit)
    beavers = MONEY_RULES.beavers if (doc.get("beaver") or doc.get("raccoon")) else 0
    return Rules(jacoby=bool(doc.get("jacoby")), beavers=beavers, cube_limit=limit)


def read_ogxm(source, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """Read an OGXM file (a path, an open binary file or its bytes) into a
    :class:`~backgammon.formats.record.MatchRecord`, every game replayed;
    ``rules`` replaces the file's, ``partial`` lets the match be unfinished,
    ``strict`` makes a result the play contradicts an error."""
    data, path = load(source)
    rules, partial, strict = reader_options(rules, partial, strict)
    try:
        return record_of(ogxm_document(data), rules, partial=partial, strict=strict)
    except OgxmFileError as e:
        raise named(e, path) from None


def _int(value, what: str, low: int, high: int, game=None, ply=None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OgxmFileError(f"{what} must be a whole number from {low} to {high}, not {value!r}", game, ply)
    return value


def _steps(ply: dict, white: bool, game: int, at: int) -> str:
    out = []
    moves = ply.get("moves") or []
    if not isinstance(moves, list):
        raise OgxmFileError("'moves' is not a list", game, at)
    for step in moves:
        if not isinstance(step, dict):
            raise OgxmFileError("a step is not an object", game, at)
        frm = _int(step.get("from"), "a step's 'from'", 0, 25, game, at)
        pips = _int(step.get("pips"), "a step's 'pips'", 1, 24, game, at)
        own = 25 - frm if white else frm          # the mover's own point, 25 the bar
        if own == 0:
            raise OgxmFileError(f"a step from {frm}, the other side's bar", game, at)
        to = own - pips
        out.append(f"{'bar' if own == 25 else own}/{'off' if to <= 0 else to}")
    return " ".join(out)


def record_of(doc: dict, rules: Rules | None = None, *, partial: bool = False, strict: bool = False) -> MatchRecord:
    """A record from an OGXM JSON projection (:func:`ogxm_document`)."""
    length = _int(doc.get("match_length", 0), "match_length", 0, 255)
    players = (str(doc.get("player_white") or "White"), str(doc.get("player_black") or "Black"))
    rules = rules if rules is not None else _rules(doc, length)
    builder = RecordBuilder(length, rules, OgxmFileError, mend=not strict)
    variant = doc.get("variant", "backgammon")
    if variant not in (None, 0, "backgammon"):
        raise OgxmFileError(f"the variant is {variant!r}: only backgammon is played here (RULES 1)")
    start = doc.get("score_start") or [doc.get("white_score_start", 0), doc.get("black_score_start", 0)]
    if not (isinstance(start, list) and len(start) == 2):
        raise OgxmFileError(f"score_start must be [white, black], not {start!r}")
    score = [_int(start[0], "score_start", 0, 32767), _int(start[1], "score_start", 0, 32767)]
    games = doc.get("games")
    if not isinstance(games, list) or not games:
        raise OgxmFileError("the match holds no games")
    for number, game in enumerate(games, 1):
        if not isinstance(game, dict):
            raise OgxmFileError("a game is not an object", number)
        if game.get("is_default_board") is False:
            raise OgxmFileError("the game starts from a set-up position, which a match record cannot hold", number)
        cube = game.get("initial_cube_value", 1)
        owner = game.get("initial_cube_owner", 2)
        if cube not in (None, 1) or owner not in (None, 2, "centred", "centered") or game.get("auto_doubles"):
            raise OgxmFileError(f"the game opens with the cube at {cube!r} (owner {owner!r}, automatic doubles "
                                f"{game.get('auto_doubles', 0)!r}): a game starts with the cube centred at 1 "
                                f"(RULES 7.1)", number)
        plies = game.get("plies") or []
        builder.begin(number, tuple(score), 0,
                      cube_used=any(isinstance(p, dict) and p.get("action_id") == _DOUBLE for p in plies))
        _read_game(builder, number, plies)
        winner, points = game.get("winner", 255), game.get("points_won") or 0
        at = len(plies)
        if winner in (0, 1) and isinstance(points, int) and points > 0:
            builder.wins(winner, points, at, written=f"OGXM: {'White' if winner == 0 else 'Black'} wins {points}")
        last = number == len(games)
        builder.end(at, last, partial)
        done = builder.games[-1]
        if done.winner is not None:
            score = list(done.score)
            score[done.winner] += done.points
    builder.number = 0
    record_games = builder.finish(0, partial)
    header = tuple((k, str(doc[key]).strip()) for k, key in (("Event", "event"), ("Site", "site"))
                   if isinstance(doc.get(key), str) and doc[key].strip())
    return MatchRecord(players, length, record_games, header, (), rules, tuple(builder.warnings))


def _read_game(builder: RecordBuilder, number: int, plies) -> None:
    if not isinstance(plies, list):
        raise OgxmFileError("'plies' is not a list", number)
    for at, ply in enumerate(plies, 1):
        if not isinstance(ply, dict):
            raise OgxmFileError("a ply is not an object", number, at)
        action = ply.get("action_id", 30)
        if action in _MARKERS:
            continue
        color = ply.get("color")
        if color not in (0, 1):
            raise OgxmFileError(f"'color' is 1 (White) or 0 (Black), not {color!r}", number, at)
        player = 0 if color == 1 else 1
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action <= 20:
            d1, d2 = ply.get("d1"), ply.get("d2")
            dice = (d1, d2) if isinstance(d1, int) and isinstance(d2, int) and not isinstance(d1, bool) \
                and not isinstance(d2, bool) and 1 <= d1 <= 6 and 1 <= d2 <= 6 else (0, 0)
            if dice == (0, 0) or _dice_id(*dice) != action:
                dice = _ID_DICE[action]
            builder.move(player, dice, _steps(ply, player == 0, number, at), at)
        elif action == _DOUBLE:
            builder.cube(player, "Doubles", None, at)
        elif action in (_BEAVER, _RACCOON):
            builder.cube(player, "Beavers" if action == _BEAVER else "Raccoons", None, at)
        elif action in (_TAKE, _DROP):
            builder.answer(player, "take" if action == _TAKE else "drop", at)
        elif action in _RESIGN or action == _FORFEIT:
            continue                      # the game's winner and points_won give the result
        elif action in _UNREADABLE:
            raise OgxmFileError(f"{_UNREADABLE[action]} (action {action}) cannot be replayed from a match record "
                                f"(RULES 3-5)", number, at)
        else:
            raise OgxmFileError(f"action {action!r} is not one a match replays", number, at)


# -- writing ---------------------------------------------------------------------------------

def _moves(steps, white: bool) -> list:
    out = []
    for frm, to, _hit in steps:
        absolute = (0 if frm == 25 else 25 - frm) if white else frm
        out.append({"from": absolute, "pips": frm - to})
    return out


def record_document(source, players=None, *, analysis=None) -> dict:
    """The OGXM JSON projection of a ``Match``, ``MatchRecord`` or duel's
    games, with ``analysis`` (a ``MatchAnalysis`` of the same games) on its
    plies.  A roll made and never played (before a resignation, or the last
    action of an unfinished game) has no ply in OGXM and is not written."""
    record, games = record_items(source, players, OgxmFileError)
    notes = _analysis_notes(record, analysis) if analysis is not None else {}
    rules = record.rules
    doc: dict = {"match_length": record.length, "player_white": record.players[0],
                 "player_black": record.players[1], "source": 0,
                 "crawford": bool(record.length), "jacoby": bool(rules.jacoby and not record.length),
                 "beaver": bool(rules.beavers and not record.length),
                 "raccoon": bool(rules.beavers > 1 and not record.length),
                 "cube_limit": 0 if rules.cube_limit >= MAX_CUBE else rules.cube_limit, "games": []}
    if record.games and tuple(record.games[0].score) != (0, 0):
        doc["white_score_start"], doc["black_score_start"] = (int(v) for v in record.games[0].score)
    recorded = list(record.games) if record.games else _duel_games(source)
    for index, game in enumerate(games):
        plies = _walk(recorded[index], index, notes, rules)
        out = {"plies": plies, "winner": 255 if game.winner is None else game.winner}
        if game.winner is not None:
            out["points_won"] = game.points
        doc["games"].append(out)
    if analysis is not None:
        doc["analysis_info"] = {"producer": "backgammon", "ply": int(_first_ply(analysis)),
                                "level": {"checker_ply": int(_first_ply(analysis)), "cube_ply": int(_first_ply(analysis))},
                                "complete": True}
    return doc


def _duel_games(source) -> list:
    """A duel's games as records (a DuelResult has no MatchRecord games)."""
    return list(MatchRecord.from_duel(source).games)


def _first_ply(analysis) -> int:
    for g in analysis.games:
        for p in g.plays:
            return p.ply
        for c in g.cubes:
            return c.ply
    return 0


def _walk(rec, index: int, notes: dict, rules: Rules) -> list:
    """The plies of one game, replayed from its events."""
    m = Match(0, rules=rules)
    game = m.new_game()
    plies: list = []
    pending = None
    for k, event in enumerate(rec.events, 1):
        kind = event.kind
        if kind == "opening":
            game.apply(event)
            if game.phase is Phase.PLAY or game.phase is Phase.TURN:
                d = tuple(event.value)
                pending = (int(game.on_roll or 0), (max(d), min(d)))
                if game.phase is Phase.TURN:               # no legal play (cannot happen at the opening)
                    plies.append(_dice_ply(pending[0], pending[1], []))
                    pending = None
            continue
        if kind == "roll":
            game.apply(event)
            pending = (int(event.player), tuple(event.value))
            if game.phase is not Phase.PLAY:               # no legal play: the turn passed (RULES 3.4)
                plies.append(_dice_ply(pending[0], pending[1], []))
                pending = None
            continue
        if kind == "play":
            if pending is None:
                continue                                   # a forfeited turn, already written
            play = game.position.parse_play(str(event.value), game.dice) if isinstance(event.value, str) \
                else event.value
            white = pending[0] == 0
            ply = _dice_ply(pending[0], pending[1], _moves(play_steps(play), white))
            note = notes.get((index + 1, k))
            hold = notes.get((index + 1, k - 1, "hold"))
            if hold is not None:
                note = {**(note or {}), **hold}
            if note is not None:
                for alt in note.get("alternatives", ()):
                    # the codec keeps a candidate as its steps, from which it writes the notation
                    alt["move"] = _moves(play_steps(game.position.parse_play(alt["notation"], game.dice)), white)
                ply["analysis"] = note
            plies.append(ply)
            game.apply(Event("play", event.player, str(play)))
            pending = None
            continue
        if kind == "setboard":
            # A play the rules refuse: its moves as written (gammonview's ply for an illegal play);
            # a board given with no play (gnubg's "Illegal play") has no ply in OGXM.
            if not event.value.play or pending is None:
                raise OgxmFileError(f"game {index + 1}: a board set with no play written (gnubg's 'Illegal "
                                    f"play') cannot be written in OGXM, which keeps plays as moves")
            steps = [(frm, to, False) for frm, to in written_steps(event.value.play)]
            plies.append(_dice_ply(pending[0], pending[1], _moves(steps, pending[0] == 0)))
            game.apply(event)
            pending = None
            continue
        actor = event.player
        if kind in ("double", "beaver", "raccoon", "take", "drop"):
            action = {"double": _DOUBLE, "beaver": _BEAVER, "raccoon": _RACCOON, "take": _TAKE, "drop": _DROP}[kind]
            ply = {"color": 1 if actor == 0 else 0, "action_id": action}
            note = notes.get((index + 1, k))
            if note is not None:
                ply["analysis"] = note
            plies.append(ply)
        elif kind == "resign":
            plies.append({"color": 1 if actor == 0 else 0, "action_id": 27})
        game.apply(event)
    return plies


def _dice_ply(player: int, dice: tuple, moves: list) -> dict:
    d1, d2 = min(dice), max(dice)
    return {"color": 1 if player == 0 else 0, "action_id": _dice_id(d1, d2), "d1": d1, "d2": d2, "moves": moves}


def _label(word: str) -> str:
    return word.replace(" ", "_").replace("drop", "pass")


def _analysis_notes(record: MatchRecord, analysis) -> dict:
    """``{(game, action): analysis object}`` for the plays and cube
    decisions of ``analysis`` (equities as the analysis gives them: for
    the side that decided, the cube's in the doubler's frame).  A no-double
    decision is keyed ``(game, action, "hold")``: it rides on the checker
    ply of the roll that follows, as OGXM keeps it."""
    if not hasattr(analysis, "games") or type(analysis).__name__ != "MatchAnalysis":
        raise TypeError(f"analysis must be a backgammon.analysis.MatchAnalysis, not {type(analysis).__name__}")
    notes: dict = {}
    for g in analysis.games:
        for p in g.plays:
            alternatives = []
            seen = set()
            for candidate in p.candidates:
                text, value = candidate[0], candidate[1]
                if text in seen:
                    continue
                seen.add(text)
                alt = {"notation": text, "equity": round(float(value), 6),
                       "diff": round(float(value) - float(p.best_equity), 6),
                       "is_played": text == p.played,
                       "level": {"checker_ply": int(p.ply), "cube_ply": int(p.ply)}}
                if len(candidate) > 2 and len(candidate[2]) == 5:
                    w, wg, wb, lg, lb = (round(float(v), 4) for v in candidate[2])
                    alt["eval"] = {"win": w, "gammon_win": wg, "bg_win": wb, "gammon_loss": lg, "bg_loss": lb,
                                   "equity": round(w * 2 - 1 + wg + wb - lg - lb, 4)}
                alternatives.append(alt)
            notes[(p.game, p.action)] = {"alternatives": alternatives, "equity_loss": round(float(p.error), 6)}
        for c in g.cubes:
            three = {"no_double_equity": round(float(c.no_double), 6),
                     "double_take_equity": round(float(c.double_take), 6),
                     "double_pass_equity": round(float(c.double_pass), 6)}
            if c.kind == "double" and c.action != "double":
                hold = {"cube_decision": {"should_double": c.proper == "double", **three}}
                if c.proper == "double":
                    hold["missed_double"] = {**three, "correct_action": "double",
                                             "equity_loss": round(float(c.error), 6)}
                notes[(c.game, c.action_index, "hold")] = hold
            else:
                notes[(c.game, c.action_index)] = {"correct_action": _label(c.proper),
                                                   "played_action": _label(c.action), **three,
                                                   "equity_loss": round(float(c.error), 6)}
    return notes


def write_ogxm(source, players=None, *, analysis=None) -> bytes:
    """The OGXM bytes of a ``Match``, ``MatchRecord`` or duel's games (and
    their ``analysis``, a ``MatchAnalysis``), encoded by the codec at hand."""
    doc = record_document(source, players, analysis=analysis)
    name, _, encode = _codec()
    try:
        return encode(doc)
    except Exception as e:        # noqa: BLE001 -- the codec's refusal, said in our terms
        raise OgxmFileError(f"{name} refuses the document ({type(e).__name__}: {e})") from None


def sniff_ogxm(data: bytes) -> bool:
    return data[:4] == b"OGXM"


# A binary format's writer gives bytes (Format.binary).
FORMAT = Format("ogxm", (".ogxm",), "match", read_ogxm, cast("Callable[..., str]", write_ogxm), OgxmFileError,
                binary=True, sniff=sniff_ogxm)
