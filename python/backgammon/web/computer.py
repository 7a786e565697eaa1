"""The computer opponent: it plays every action that is its to make, as a
``Player`` does (plays, cube actions, resignations offered and answered),
whenever the human's action hands the turn over."""
from __future__ import annotations

from ..game import Phase
from ..players import player
from ..resignation import LEVELS as RESIGN_WORDS
from .store import Session

__all__ = ["LEVELS", "computer_for", "computer_turns", "say", "roll_text"]

#: Difficulty levels, weakest first, and the player spec behind each: seed
#: 004's 入门 / 普通 / 高手 and 大师 beyond them, four different players whose
#: strength steps are measured by duels (docs/guide/web.md).
LEVELS = {"beginner": "noisy:0.15", "normal": "pubeval", "expert": "net:1", "master": "net:2"}


def computer_for(level: str, spec: str | None = None, seed=None):
    """The Player of a level, or of a spec (any registered player that
    starts no process: a web request must not start programs); ``seed``
    seeds a player that draws at random (the weakest level's noise)."""
    if spec is None:
        return player(LEVELS[level], seed=seed, name="level")
    if spec.partition(":")[0] == "ubgi":
        raise ValueError("player: ubgi engines start a process and cannot be asked for over the web")
    return player(spec, seed=seed, name="player")


def roll_text(dice) -> str:
    """A roll as the page and the records write it: the larger die first ("43")."""
    a, b = int(dice[0]), int(dice[1])
    return f"{max(a, b)}{min(a, b)}"


def high_low(dice) -> list[int]:
    return sorted((int(dice[0]), int(dice[1])), reverse=True)


def say(said: list, code: str, text: str, **params) -> None:
    """Something said to the human: English ``text`` for programs reading
    ``said``, and ``code`` with ``params`` for the page, which says it in the
    player's language."""
    said.append({"code": code, "params": params, "text": text})


def _played(session: Session, dice, chosen) -> None:
    """The computer's play, each die's step (points from the computer's
    side: 25 its bar, 0 off), for the page to show checker by checker."""
    session.played.append({"player": "computer", "dice": high_low(dice), "play": str(chosen),
                           "steps": [[int(f), int(t), bool(h)] for f, t, h in chosen.steps]})


def computer_turns(session: Session, said: list) -> None:
    """Play the computer's actions while the turn is the computer's, each
    described in ``said`` (and its plays in ``session.played``)."""
    game, bot, comp = session.game, session.bot, session.computer
    for _ in range(200):
        if game.is_over() or game.phase is Phase.OPENING or game.turn != bot:
            return
        phase = game.phase
        if phase is Phase.TURN:
            level = comp.resign_offer(game.position, game.match_state(), game.rules)
            if level and level not in session.offered:
                session.offered.add(level)
                game.resign(level)
                say(said, "computer_offers_resign", f"The computer offers to resign {RESIGN_WORDS[level]}.",
                    level=level)
                continue
            if game.can_double():
                decision = comp.cube_action(game.position, game.match_state(), game.rules)
                if decision.should_double:
                    game.double()
                    say(said, "computer_doubles", f"The computer doubles to {game.cube_value * 2}.",
                        value=game.cube_value * 2)
                    continue
            game.roll()
            dice = [e for e in game.history if e.kind == "roll"][-1].value
            d1, d2 = high_low(dice)
            if game.phase is Phase.PLAY:
                chosen = comp.choose_at(game.position, game.dice, game.match_state(), game.rules)
                _played(session, dice, chosen)
                game.play(chosen)
                say(said, "computer_played", f"The computer rolled {d1}-{d2} and played {chosen}.",
                    dice=[d1, d2], play=str(chosen))
            else:
                session.played.append({"player": "computer", "dice": [d1, d2], "play": "", "steps": []})
                say(said, "computer_cannot_move", f"The computer rolled {d1}-{d2} and cannot move.", dice=[d1, d2])
        elif phase is Phase.PLAY:                 # the computer won the opening roll
            assert game.dice is not None
            d1, d2 = high_low(game.dice)
            chosen = comp.choose_at(game.position, game.dice, game.match_state(), game.rules)
            _played(session, game.dice, chosen)
            game.play(chosen)
            say(said, "computer_opens", f"The computer plays {d1}-{d2}: {chosen}.", dice=[d1, d2], play=str(chosen))
        elif phase is Phase.DOUBLED:
            decision = comp.cube_action(game.position, game.match_state().replace(double_offered=False), game.rules)
            if decision.take == "pass":
                game.drop()
                say(said, "computer_passes", "The computer passes.")
            else:
                game.take()
                say(said, "computer_takes", "The computer takes.")
        elif phase is Phase.BEAVERED:
            game.take()
            say(said, "computer_accepts_beaver", "The computer accepts.")
        elif phase is Phase.RESIGNED:
            # The human resigns on the human's turn: the position is the resigner's.
            state = game.match_state().replace(resignation=0)
            if comp.accept_resignation(game.position, game.resignation, state, game.rules):
                game.accept_resignation()
                say(said, "computer_accepts_resignation", "The computer accepts your resignation.")
            else:
                game.reject_resignation()
                say(said, "computer_rejects_resignation", "The computer rejects your resignation and plays on.")
        else:   # pragma: no cover
            return
