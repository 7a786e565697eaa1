"""backgammon: a fast, exactly correct backgammon engine core.

>>> import backgammon as bg
>>> pos = bg.Position.initial()
>>> [str(p) for p in pos.legal_plays("65")][:3]
['24/13', '24/18 13/8', '24/18 8/3']
>>> bg.perft(pos, 1)
447
"""
from . import batch, bearoff
from .dice import (
    OPENING_ROLLS,
    ORDERED_ROLLS,
    ROLL_ARRAY,
    ROLL_PROBABILITIES,
    ROLLS,
    Roll,
    roll_batch,
    roll_dice,
)
from .errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidIdError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidPositionIdError,
    InvalidRollError,
    IllegalPlayError,
    RulesError,
)
from .chouette import Chouette
from .game import Ending, Event, Game, Outcome, Phase, Verdict
from .match import Match
from .matchid import GameState, MatchState
from .met import MatchEquityTable, money_cash_point, money_take_point
from .perft import perft
from .play import Play, Plays, format_steps
from .position import ON_ROLL, OPPONENT, GameResult, Position, WinKind
from .rollouts import RolloutResult, VectorGames, rollout
from .rules import Rules

__version__ = "0.1.0"

__all__ = [
    "Position", "Play", "Plays", "Roll", "GameResult", "WinKind", "ON_ROLL", "OPPONENT",
    "ROLLS", "ROLL_ARRAY", "ROLL_PROBABILITIES", "ORDERED_ROLLS", "OPENING_ROLLS",
    "roll_dice", "roll_batch", "perft", "batch", "bearoff", "format_steps",
    "InvalidPositionError", "InvalidPositionIdError", "InvalidIdError", "InvalidRollError",
    "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError", "RulesError", "IllegalPlayError",
    "Rules", "Game", "Match", "Chouette", "Outcome", "Ending", "Phase", "Event", "Verdict",
    "MatchState", "GameState", "MatchEquityTable", "money_take_point", "money_cash_point",
    "rollout", "RolloutResult", "VectorGames",
]
