"""The computer opponent: it plays every action that is its to make, as a
``Player`` does (plays, cube actions, resignations offered and answered),
whenever the human's action hands the turn over."""
from __future__ import annotations

from ..game import Phase
from ..players import player
from ..resignation import LEVELS as RESIGN_WORDS
from .store import Session

__all__ = ["LEVELS", "computer_for", "computer_turns"]

#: Difficulty levels: the player spec behind each, weakest first.
LEVELS = {"beginner": "pubeval", "intermediate": "net", "normal": "net", "advanced": "net:1", "expert": "net:2"}


def computer_for(level: str, spec: str | None = None):
    """The Player of a level, or of a spec (any registered player that
    starts no process: a web request must not start programs)."""
    if spec is None:
        return player(LEVELS[level], name="level")
    if spec.partition(":")[0] == "ubgi":
        raise ValueError("player: ubgi engines start a process and cannot be asked for over the web")
    return player(spec, name="player")


def _played(session: Session, dice, chosen) -> None:
    """The computer's play, each die's step (points from the computer's
    side: 25 its bar, 0 off), for the page to show checker by checker."""
    session.played.append({"player": "computer", "dice": [int(d) for d in dice], "play": str(chosen),
                           "steps": [[int(f), int(t), bool(h)] for f, t, h in chosen.steps]})


def computer_turns(session: Session, said: list[str]) -> None:
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
                said.append(f"The computer offers to resign {RESIGN_WORDS[level]}.")
                continue
            if game.can_double():
                decision = comp.cube_action(game.position, game.match_state(), game.rules)
                if decision.should_double:
                    game.double()
                    said.append(f"The computer doubles to {game.cube_value * 2}.")
                    continue
            game.roll()
            d1, d2 = [e for e in game.history if e.kind == "roll"][-1].value
            if game.phase is Phase.PLAY:
                chosen = comp.choose(game.position, game.dice)
                _played(session, (d1, d2), chosen)
                game.play(chosen)
                said.append(f"The computer rolled {d1}-{d2} and played {chosen}.")
            else:
                session.played.append({"player": "computer", "dice": [d1, d2], "play": "", "steps": []})
                said.append(f"The computer rolled {d1}-{d2} and cannot move.")
        elif phase is Phase.PLAY:                 # the computer won the opening roll
            assert game.dice is not None
            d1, d2 = game.dice
            chosen = comp.choose(game.position, game.dice)
            _played(session, (d1, d2), chosen)
            game.play(chosen)
            said.append(f"The computer plays {d1}-{d2}: {chosen}.")
        elif phase is Phase.DOUBLED:
            decision = comp.cube_action(game.position, game.match_state().replace(double_offered=False), game.rules)
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
            # The human resigns on the human's turn: the position is the resigner's.
            state = game.match_state().replace(resignation=0)
            if comp.accept_resignation(game.position, game.resignation, state, game.rules):
                game.accept_resignation()
                said.append("The computer accepts your resignation.")
            else:
                game.reject_resignation()
                said.append("The computer rejects your resignation and plays on.")
        else:   # pragma: no cover
            return
