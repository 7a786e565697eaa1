"""A game against the computer as the page sees it (``state``), the
human's actions (``apply``), and the game's records (``record_text``,
``resume``).  Every rule is the engine's: actions go to ``Game`` and
``Match`` (whose ``RulesError`` the routes turn into 409), and what the
human may do comes from ``Game``'s own accessors."""
from __future__ import annotations

import dataclasses

from ..cube import cube_decision
from ..errors import RulesError
from ..formats import get as get_format
from ..game import Ending, Game, Phase
from ..hint import hint
from ..match import Match
from ..resignation import LEVELS as RESIGN_WORDS
from ..rules import Rules
from .computer import computer_turns, high_low, roll_text, say
from .schemas import Action, ApiError, Resume
from .store import Session

__all__ = ["state", "apply", "record_text", "resume", "rules_for", "chances_json", "cube_json", "ranked_json", "NAMES"]

_ENDINGS = {Ending.SINGLE: "single game", Ending.GAMMON: "gammon", Ending.BACKGAMMON: "backgammon",
            Ending.DROP: "dropped double", Ending.RESIGNATION: "resignation"}
#: The names the records give the sides.
NAMES = ("You", "Computer")


def rules_for(cube: bool) -> Rules:
    """The rules of a game against the computer: standard, or without the
    doubling cube (seed 004's game: every game scores 1, 2 or 3 points)."""
    return Rules() if cube else Rules(cube_limit=1)


def uses_cube(match: Match) -> bool:
    return match.rules.cube_limit > 1


# -- the engine's answers as JSON ------------------------------------------------------

def chances_json(e) -> dict:
    return {"win": e.win, "win_gammon": e.win_gammon, "win_backgammon": e.win_backgammon,
            "lose": 1.0 - e.win, "lose_gammon": e.lose_gammon, "lose_backgammon": e.lose_backgammon}


def cube_json(d) -> dict:
    return {"action": d.action, "should_double": d.should_double, "take": d.take,
            "can_double": d.can_double, "reason": d.reason, "no_double": d.no_double,
            "double_take": d.double_take, "double_pass": d.double_pass,
            "mwc": list(d.mwc) if d.mwc is not None else None, "exact": d.exact}


def ranked_json(r) -> dict:
    return {"play": str(r.play), "moves": [list(m) for m in r.play.moves], "hits": list(r.play.hits),
            "position": r.play.position.to_id(), "probabilities": chances_json(r.evaluation),
            "equity": r.equity, "difference": r.difference, "ply": r.ply, "cubeful": r.cubeful, "mwc": r.mwc}


# -- the view -------------------------------------------------------------------------

def _board_rows(session: Session):
    """(position, human's row, computer's row) of the board shown now."""
    game = session.game
    pos = game.partial_position if game.phase is Phase.PLAY else game.position
    on_roll = game.on_roll
    if on_roll is None or on_roll == session.human:
        return pos, 1, 0
    return pos, 0, 1


def _log(session: Session) -> list[dict]:
    """The move log of every game, in standard notation, turn by turn."""
    out = []
    for number, game in enumerate(session.match.games, 1):
        lines = []
        cube = 1
        roll = None

        at = 0

        def line(side, text, code, **params):
            lines.append({"player": session.who(side), "text": text, "action": at or None,
                          "code": code, "params": params})

        for at, ev in enumerate(game.history, 1):
            if ev.kind == "opening":
                a, b = ev.value
                you, comp = int(ev.value[session.human]), int(ev.value[session.bot])
                if a == b:
                    line(None, f"Opening roll {a}-{b}: a tie, roll again", "opening_tie", you=you, computer=comp)
                else:
                    roll = high_low(ev.value)
                    line(None, f"Opening roll: you {you}, the computer {comp}", "opening", you=you, computer=comp)
            elif ev.kind == "roll":
                roll = high_low(ev.value)
            elif ev.kind == "play":
                dice = f"{roll_text(roll)}: " if roll else ""
                line(ev.player, f"{dice}{ev.value or '(no legal move)'}", "play" if ev.value else "no_move",
                     dice=roll, play=ev.value)
                roll = None
            elif ev.kind == "setboard":
                # a play the rules refuse, from a resumed file: the board its moves make, as written
                dice = f"{roll_text(roll)}: " if roll else ""
                rule = ev.value.rule or "3-5"
                if ev.value.play:
                    said = f"{dice}{ev.value.play} — not a legal play (RULES {rule}): the board set as written"
                    line(ev.player, f"{said}", "set_board", dice=roll, play=ev.value.play, rule=rule)
                else:
                    line(ev.player, f"{dice}the board as the file gives it — not a legal play (RULES {rule})",
                         "set_board_only", dice=roll, rule=rule)
                roll = None
            elif ev.kind == "double":
                line(ev.player, f"Doubles to {cube * 2}", "double", value=cube * 2)
            elif ev.kind == "take":
                cube *= 2
                line(ev.player, "Takes", "take", value=cube)
            elif ev.kind == "drop":
                line(ev.player, "Passes", "drop")
            elif ev.kind in ("beaver", "raccoon"):
                cube *= 2
                line(ev.player, ev.kind.capitalize() + "s", ev.kind, value=cube)
            elif ev.kind == "resign":
                line(ev.player, f"Offers to resign {RESIGN_WORDS.get(ev.value, ev.value)}", "resign", level=ev.value)
            elif ev.kind == "accept":
                line(ev.player, "Accepts the resignation", "accept")
            elif ev.kind == "reject":
                line(ev.player, "Rejects the resignation", "reject")
        if roll is not None and game.phase is Phase.PLAY:
            line(game.on_roll, f"{roll_text(roll)}: …", "rolled", dice=roll)
        if game.outcome is not None:
            o = game.outcome
            who = "You win" if o.winner == session.human else "The computer wins"
            line(None, f"{who} {o.points} point{'s' if o.points != 1 else ''} ({_ENDINGS[o.ending]})", "outcome",
                 winner=session.who(o.winner), points=o.points, ending=o.ending.value)
        out.append({"game": number, "score": {"you": game.score[session.human], "computer": game.score[session.bot]},
                    "crawford": game.crawford, "post_crawford": _post_crawford(game), "lines": lines})
    return out


def _post_crawford(game: Game) -> bool:
    """A game after the Crawford game: a side was one point from winning
    when it began and it is not the Crawford game itself (RULES 8.2)."""
    return bool(game.length) and not game.crawford and game.length - 1 in game.score


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


def _actions(session: Session) -> list[str]:
    """What the human may do now: the game's legal actions on the human's
    turn, and the page's own (hint, next game, taking back a turn)."""
    game, match = session.game, session.match
    if game.phase is Phase.OVER:
        return [] if match.is_over() else ["next"]
    if game.phase is Phase.OPENING:
        return ["roll"]
    if game.turn != session.human:
        return []
    acts = [a for a in game.legal_actions() if a not in ("beaver", "raccoon")]
    if game.phase in (Phase.PLAY, Phase.DOUBLED, Phase.BEAVERED) or (game.phase is Phase.TURN and uses_cube(match)):
        acts.append("hint")         # before the roll a hint is cube advice: none without the cube
    if "undo" not in acts and game.phase in (Phase.TURN, Phase.PLAY) and _last_human_play(session) is not None:
        acts.append("undo")
    return acts


def _moves(game: Game) -> dict:
    plays = game.legal_plays()
    return {"steps": [[st.frm, st.to] for st in game.steps], "dice_left": list(game.dice_left),
            "destinations": {str(k): v for k, v in game.legal_steps().items()},
            "paths": {str(frm): {str(to): [[st.frm, st.to] for st in path] for to, path in targets.items()}
                      for frm, targets in game.legal_moves().items()},
            "complete": game.is_complete(), "legal_plays": len(plays)}


def state(session: Session) -> dict:
    """The game as the page shows it (``schemas.GameState``)."""
    game, match, me, bot = session.game, session.match, session.human, session.bot
    pos, hr, cr = _board_rows(session)
    a = pos.array
    points = [{"point": p, "you": int(a[hr, p - 1]), "computer": int(a[cr, 24 - p])} for p in range(1, 25)]
    pips_on_roll, pips_other = pos.pip_counts()
    off_on_roll, off_other = pos.borne_off()
    pips = (pips_on_roll, pips_other) if hr == 1 else (pips_other, pips_on_roll)
    off = (off_on_roll, off_other) if hr == 1 else (off_other, off_on_roll)
    moves = _moves(game) if game.phase is Phase.PLAY and game.on_roll == me else None
    outcome = None
    if game.outcome is not None:
        o = game.outcome
        outcome = {"winner": session.who(o.winner), "ending": o.ending.value, "points": o.points,
                   "cube": o.cube_value, "multiplier": o.multiplier}
    pending_cube = game.cube_value * 2 if game.phase is Phase.DOUBLED else game.cube_value
    resignation = None
    if game.phase is Phase.RESIGNED:
        resignation = {"by": session.who(game.on_roll), "level": game.resignation}
    score = game.final_score if game.is_over() else game.score
    opening = [{"you": int(e.value[me]), "computer": int(e.value[bot])} for e in game.history if e.kind == "opening"]
    verdict = game.can_double()
    return {
        "id": session.id,
        "level": session.level, "player": session.computer.spec,
        "you": me, "computer": bot,
        "match": {"length": match.length, "money": match.length == 0, "cube": uses_cube(match),
                  "score": {"you": score[me], "computer": score[bot]},
                  # the tags of the game shown, the last one too when it is over
                  "crawford": game.crawford, "post_crawford": _post_crawford(game), "over": match.is_over(),
                  "winner": session.who(match.winner), "game": len(match.games)},
        "game": {"phase": game.phase.value, "turn": session.who(game.turn), "on_roll": session.who(game.on_roll),
                 "dice": high_low(game.dice) if game.dice else None,
                 "cube": {"value": game.cube_value, "owner": session.who(game.cube_owner),
                          "offered": pending_cube if game.phase is Phase.DOUBLED else None,
                          "offered_by": session.who(game.on_roll) if game.phase is Phase.DOUBLED else None,
                          "double_reason": verdict.reason, "double_code": verdict.code},
                 "resignation": resignation, "outcome": outcome,
                 "position_id": game.position.to_id(), "match_id": game.match_id(), "opening": opening},
        "board": {"points": points, "bar": {"you": int(a[hr, 24]), "computer": int(a[cr, 24])},
                  "off": {"you": int(off[0]), "computer": int(off[1])},
                  "pips": {"you": int(pips[0]), "computer": int(pips[1])}},
        "moves": moves,
        "actions": _actions(session),
        "log": _log(session),
    }


# -- the human's actions -------------------------------------------------------------------

def _mine(session: Session, what: str) -> None:
    game = session.game
    if game.phase is Phase.OPENING:
        if what == "roll":
            return
        raise ApiError(409, f"cannot {what} before the opening roll: roll first (RULES 2.2)", "opening_first",
                       {"action": what, "rule": "2.2"})
    if game.phase is Phase.OVER:
        if session.match.is_over():
            raise ApiError(409, f"cannot {what}: the game is over", "game_over", {"action": what})
        raise ApiError(409, f"cannot {what}: the game is over (start the next one with action 'next')",
                       "game_over_next", {"action": what})
    if game.turn != session.human:
        raise ApiError(409, f"cannot {what}: it is the computer's turn, not yours", "not_your_turn", {"action": what})


def _rebuild(session: Session, upto: int) -> None:
    """The match replayed from its records with its own seed, the current
    game up to (not including) event ``upto``: ``Game.apply`` redoes every
    action, and the dice to come are the ones the game had coming."""
    old = session.match
    match = Match(old.length, rules=old.rules, seed=session.seed)
    for g in old.games[:-1]:
        Game.replay(g.history, match=match)
    game = match.new_game()
    for event in session.game.history[:upto]:
        game.apply(event)
    session.match, session.game = match, game


def _move(game: Game, frm: int, to: int) -> None:
    """One checker to ``to``: one die's step, or the steps of several dice
    through open points (``Game.legal_moves``), made one by one."""
    path = game.legal_moves().get(frm, {}).get(to)
    if path is None or len(path) == 1:
        game.move(frm, to)          # the engine's step, or its refusal naming the rule
        return
    for st in path:
        game.move(st.frm, st.to)


def apply(session: Session, act: Action) -> tuple[list[dict], dict | None]:
    """Apply the human's action, then play the computer's turns; returns
    what was said (``computer.say``'s entries) and the hint asked for (or None)."""
    game = session.game
    said: list[dict] = []
    kind = act.action
    if kind == "next":
        if not game.is_over():
            raise ApiError(409, "cannot start the next game: this one is not over", "game_not_over")
        if session.match.is_over():
            raise ApiError(409, "the match is over: start a new one with POST /api/games", "match_over")
        session.game = session.match.new_game()
        session.offered = set()
        return said, None
    if kind == "hint":
        _mine(session, "ask for a hint")
        if game.phase is Phase.TURN and not uses_cube(session.match):
            raise ApiError(409, "no hint before the roll in a game without the cube: roll first", "no_hint",
                           {"phase": game.phase.value})
        return said, _hint(session, act.ply if act.ply is not None else 1)
    if kind == "undo":
        return _undo(session, act.what), None
    _mine(session, kind)
    if kind == "roll":
        game.roll()
        rolls = [e for e in game.history if e.kind in ("opening", "roll")]
        ev = rolls[-1]
        you, comp = int(ev.value[session.human]), int(ev.value[session.bot])
        if game.phase is Phase.OPENING:
            say(said, "opening_tie", f"Opening roll {ev.value[0]}-{ev.value[1]}: a tie, roll again.", you=you,
                computer=comp)
        elif ev.kind == "opening":
            you_start = you > comp
            who = "You start" if you_start else "The computer starts"
            say(said, "opening_you_start" if you_start else "opening_computer_starts",
                f"Opening roll: you {you}, the computer {comp}. {who}.", you=you, computer=comp)
        last = game.history[-1]
        if last.kind == "play" and last.player == session.human and not last.value:
            d1, d2 = high_low(game.history[-2].value)
            say(said, "you_cannot_move", f"You rolled {d1}-{d2} and cannot move.", dice=[d1, d2])
    elif kind == "move":
        if act.from_ is None or act.to is None:
            raise ApiError(422, "move needs 'from' and 'to': points from your side, 25 = bar, 0 = off", "move_needs_points")
        _move(game, act.from_, act.to)
    elif kind in ("play", "commit"):
        if kind == "play" and (act.play is not None or act.moves is not None):
            if act.play is not None and act.moves is not None:
                raise ApiError(422, "give 'play' (notation) or 'moves' ([from, to] steps), not both", "play_or_moves")
            if game.steps:
                raise RulesError("you have moved checkers this turn: confirm them (action 'commit') "
                                 "or take them back (action 'undo', what 'moves') before playing notation",
                                 code="moves_pending")
            if act.moves is not None:
                try:
                    for frm, to in act.moves:
                        game.move(frm, to)
                    game.commit()
                except RulesError:
                    game.undo()
                    raise
            else:
                game.play(act.play)
        else:
            game.commit()
        played = game.history[-1].value
        say(said, "you_played" if played else "you_no_move", f"You played {played or '(no legal move)'}.", play=played)
    elif kind == "double":
        game.double()
    elif kind == "take":
        game.take()
    elif kind == "drop":
        game.drop()
    elif kind == "resign":
        if game.phase is Phase.PLAY and game.steps:
            game.undo()
        game.resign(act.level if act.level is not None else 1)
    elif kind == "accept":
        game.accept_resignation()
    elif kind == "reject":
        game.reject_resignation()
    computer_turns(session, said)
    return said, None


def _undo(session: Session, what: str | None) -> list[dict]:
    game = session.game
    _mine(session, "undo")
    if what is None:
        what = "step" if game.steps else "turn"
    if what in ("step", "moves"):
        if game.phase is not Phase.PLAY or not game.steps:
            raise RulesError("there is no checker move to take back this turn", code="nothing_to_undo")
        keep = game.steps[:-1] if what == "step" else ()
        game.undo()
        for st in keep:
            game.move(st.frm, st.to)
        return []
    if game.phase not in (Phase.TURN, Phase.PLAY):
        raise ApiError(409, f"cannot take back your last play now: answer first (now: {game.phase.value})",
                       "answer_first", {"phase": game.phase.value})
    at = _last_human_play(session)
    if at is None:
        raise RulesError("there is no play of yours in this game to take back", code="no_play_to_undo")
    _rebuild(session, at)
    session.offered = set()
    said: list[dict] = []
    say(said, "turn_taken_back", "Your last play is taken back: play the same dice again.")
    return said


def _hint(session: Session, ply: int) -> dict:
    game = session.game
    if game.phase is Phase.PLAY:
        # Ranked as the analysis grades the play and as the computer chooses
        # at a match score: by the cubeful value at the game's cube and score
        # (normalised match equity in a match), gnubg's hint (issue 40).
        ranked = hint(game.position, game.dice, ply, state=game.match_state(), rules=game.rules)
        return {"kind": "play", "ply": ply, "plays": [ranked_json(r) for r in ranked[:5]],
                "count": len(ranked), "match": bool(game.length), "cube": uses_cube(session.match)}
    if game.phase in (Phase.TURN, Phase.DOUBLED, Phase.BEAVERED):
        d = cube_decision(game.position, game.match_state(), game.rules, ply=ply)
        return {"kind": "take" if game.phase is not Phase.TURN else "cube", "ply": ply, **cube_json(d),
                "reason_code": game.can_double().code}
    raise RulesError(f"no hint in this phase ({game.phase.value})", code="no_hint", params={"phase": game.phase.value})


# -- analysis -------------------------------------------------------------------------------

def analysis_json(session: Session, ply: int) -> dict:
    """The analysis of the match so far (``backgammon.analysis``), as the
    page shows it: each side's figures and every graded decision with the
    board before it (the human's view, as ``state``'s board), the play made
    and the best one as steps of the side that played."""
    from ..analysis import THRESHOLDS, analyse
    from ..position import Position
    names = NAMES if session.human == 0 else NAMES[::-1]
    result = analyse(session.match, ply=ply, workers=1, players=names, thresholds=THRESHOLDS)
    entries = []
    for g in result.games:
        history = session.match.games[g.number - 1].history

        def turn_of(action: int) -> int:
            # The decision's turn in the move log: plays before it, plus one.
            return 1 + sum(1 for e in history[:action - 1] if e.kind in ("play", "setboard"))

        for d in sorted([*g.plays, *g.cubes], key=lambda d: d.action if hasattr(d, "played") else d.action_index):
            pos = Position.from_id(d.position_id)
            mover_is_human = d.player == session.human
            hr, cr = (1, 0) if mover_is_human else (0, 1)
            a = pos.array
            board = {"points": [{"point": q, "you": int(a[hr, q - 1]), "computer": int(a[cr, 24 - q])}
                                for q in range(1, 25)],
                     "bar": {"you": int(a[hr, 24]), "computer": int(a[cr, 24])},
                     "off": {"you": 15 - int(a[hr].sum()), "computer": 15 - int(a[cr].sum())}}
            entry = {"game": d.game, "who": session.who(d.player), "skill": d.skill, "error": d.error,
                     "error_mwc": d.error_mwc, "position_id": d.position_id, "match_id": d.match_id, "board": board}
            if hasattr(d, "played"):
                def steps(text):
                    return [list(m) for m in pos.parse_play(text, d.roll).moves] if text else []
                entry.update(kind="play", action=d.action, roll=list(d.roll), played=d.played, best=d.best,
                             played_equity=d.played_equity, best_equity=d.best_equity,
                             played_moves=steps(d.played), best_moves=steps(d.best),
                             candidates=[{"play": c[0], "equity": c[1]} for c in d.candidates],
                             turn=turn_of(d.action))
            else:
                entry.update(kind="cube" if d.kind == "double" else "take", action=d.action_index,
                             turn=turn_of(d.action_index), done=d.action,
                             proper=d.proper, no_double=d.no_double, double_take=d.double_take,
                             double_pass=d.double_pass)
            entries.append(entry)
    stats = {session.who(k): s.to_dict() for k, s in enumerate(result.stats)}
    # "thresholds": the marks of the summary's doubtful, errors and blunders (its help texts say them).
    return {"length": result.length, "ply": result.ply, "cube_ply": result.cube_ply, "games": len(result.games),
            "thresholds": list(THRESHOLDS), "stats": stats,
            "statistics": _statistics_json(session, result.statistics()), "decisions": entries,
            "seconds": result.seconds}


def _statistics_json(session: Session, s) -> dict:
    """gnubg's statistics (``backgammon.statistics``) by side ("you",
    "computer"), over the match and per game; the page's panel shows them."""
    def sides(players) -> dict:
        return {session.who(k): p.to_dict() for k, p in enumerate(players)}
    return {"marks": list(s.marks), "luck_marks": list(s.luck_marks), "match": sides(s.players),
            "games": [{"number": g.number, "score": {session.who(k): v for k, v in enumerate(g.score)},
                       "players": sides(g.players)} for g in s.games]}


# -- records --------------------------------------------------------------------------------

def _written(match: Match) -> Match:
    """The match with each roll's dice larger first, as the page writes
    them (the dice's order changes no play; the opening throw keeps each
    side's die)."""
    copy = Match(match.length, rules=match.rules)
    for g in match.games:
        events = [dataclasses.replace(e, value=tuple(high_low(e.value))) if e.kind == "roll" else e for e in g.history]
        Game.replay(events, match=copy)
    return copy


def record_text(session: Session, fmt: str) -> str:
    """The match so far as a ``mat`` or ``sgf`` file (the human named
    "You"), the dice written larger first as everywhere on the page."""
    names = NAMES if session.human == 0 else NAMES[::-1]
    write = get_format(fmt).write
    assert write is not None
    return write(_written(session.match), players=names)


def _file_content(saved: Resume) -> str | bytes:
    """The file a Resume carries: its bytes (``data``, base64) or its text."""
    if (saved.text is None) == (saved.data is None):
        raise ApiError(409, "resume: give the file as text or as data (base64), one of the two", "resume_text_or_data")
    if saved.data is not None:
        import base64
        import binascii
        try:
            return base64.b64decode(saved.data, validate=True)
        except (binascii.Error, ValueError):
            raise ApiError(409, "resume: data is not base64", "resume_not_base64") from None
    if get_format(saved.format).binary:
        raise ApiError(409, f"resume: a {saved.format} file is binary: give it as data (base64)", "resume_binary",
                       {"format": saved.format})
    return saved.text or ""


def resume(saved: Resume, side: int, seed: int):
    """The match of a saved record (games in progress included), its
    current game, and the human's side: the side not named "Computer" in
    the file when one is, else ``side``."""
    content = _file_content(saved)
    try:
        record = get_format(saved.format).read(content, partial=True)
        match = Match(record.length, rules=record.rules, seed=seed)
        for rec in record.games:
            game = match.new_game()
            for event in rec.events:
                game.apply(event)
    except ValueError as e:        # a file that is not a match (422), or a match against the rules (409)
        raise ApiError(409 if isinstance(e, RulesError) else 422, f"resume: {e}", "resume_unreadable",
                       {"format": saved.format}) from None
    if "Computer" in record.players and record.players.count("Computer") == 1:
        side = 1 - record.players.index("Computer")
    if not match.games:
        game = match.new_game()
    else:
        game = match.games[-1]
        if game.is_over() and not match.is_over():
            game = match.new_game()
    return match, game, side
