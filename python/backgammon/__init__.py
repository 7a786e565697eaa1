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
    BackgammonError,
    FormatError,
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
from .game import Ending, Event, Game, Outcome, Phase, SetBoard, Verdict
from .match import Match
from .matchid import GameState, MatchState
from .met import MatchEquityTable, money_cash_point, money_take_point
from .perft import perft
from .play import Play, Plays, format_steps
from .position import ON_ROLL, OPPONENT, GameResult, Position, WinKind
from .lockstep import VectorGames
from .rollouts import RolloutInterrupted, RolloutResult, RolloutSettings, rollout, rollout_cube, rollout_plays
from .rules import Rules
from .evaluation import Evaluation, Evaluations, evaluate
from .players import Player, player, register_player
from .cube import CubeDecision, cube_decision
from .hint import RankedPlay, hint
from .duel import DuelResult, duel, play_match
from .analysis import MatchAnalysis, analyse
from .formats.codes import InvalidPositionCodeError, read_position
from .formats.xgid import InvalidXgidError, read_xgid, write_xgid
from .formats.fibs import FibsBoard, read_fibs_board, write_fibs_board
from .formats.mat import read_mat, write_mat
from .formats.record import MatchFileError, MatchRecord, RecordWarning
from .formats.sgf import read_sgf, write_sgf
from .formats.xg import XgFileError, read_xg

__version__ = "0.1.0"


def get_include() -> str:
    """The include directory of backgammon's public Cython API
    (docs/cython-api.md): it holds ``backgammon/*.pxd`` and
    ``backgammon/backgammon.h`` and nothing else, and is both Cython's
    include path and the C compiler's.

    >>> import os
    >>> sorted(os.listdir(os.path.join(get_include(), "backgammon")))[:3]
    ['__init__.pxd', '_capi.pxd', 'backgammon.h']
    """
    import os
    from . import _capi
    return os.path.join(os.path.dirname(os.path.abspath(_capi.__file__)), "include")


__all__ = [
    "Position", "Play", "Plays", "Roll", "GameResult", "WinKind", "ON_ROLL", "OPPONENT",
    "ROLLS", "ROLL_ARRAY", "ROLL_PROBABILITIES", "ORDERED_ROLLS", "OPENING_ROLLS",
    "roll_dice", "roll_batch", "perft", "batch", "bearoff", "format_steps",
    "InvalidPositionError", "InvalidPositionIdError", "InvalidIdError", "InvalidRollError",
    "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError", "RulesError", "IllegalPlayError",
    "BackgammonError", "FormatError",
    "Rules", "Game", "Match", "Chouette", "Outcome", "Ending", "Phase", "Event", "SetBoard", "Verdict",
    "MatchState", "GameState", "MatchEquityTable", "money_take_point", "money_cash_point",
    "rollout", "RolloutResult", "RolloutInterrupted", "VectorGames", "get_include",
    "rollout_plays", "rollout_cube", "RolloutSettings", "register_player",
    "evaluate", "Evaluation", "Evaluations", "player", "Player", "cube_decision", "CubeDecision",
    "hint", "RankedPlay", "duel", "DuelResult", "play_match",
    "read_xgid", "write_xgid", "InvalidXgidError", "read_fibs_board", "write_fibs_board", "FibsBoard",
    "read_mat", "write_mat", "read_sgf", "write_sgf", "read_xg", "MatchRecord", "MatchFileError",
    "RecordWarning", "XgFileError", "analyse", "MatchAnalysis", "read_position", "InvalidPositionCodeError",
]
