"""The cubeless game loop of rollouts and duels, pubeval and lockstep games.

Type stub for the Cython extension module built from src/backgammon/_rollout.pyx.
"""
import enum

import numpy as np
import numpy.typing as npt

from ._movegen import Chain
from ._net import Networks

class Policy(enum.IntEnum):
    """Who chooses each play."""

    POLICY_RANDOM = 0
    POLICY_PUBEVAL = 1
    POLICY_NET = 2
    POLICY_GIVEN = 3

class EnvAction(enum.IntEnum):
    """Codes env_play takes in place of a play index."""

    ENV_RESTART = -1
    ENV_KEEP = -2
    ENV_ROLL = -3

class EnvStage(enum.IntEnum):
    """Where env_play leaves each game."""

    STAGE_OVER = 0
    STAGE_OPPONENT = 1
    STAGE_AGENT = 2

def set_pubeval_weights(weights: npt.NDArray[np.float64]) -> None:
    """Load the (122, 2) weights: column 0 contact, column 1 race."""

def pubeval_batch(boards: npt.NDArray[np.uint8], race: npt.ArrayLike | None = None) -> npt.NDArray[np.float64]:
    """pubeval of each board for the side of row 0 (the side that just
    played); ``race`` (bool array) chooses the weights, by default from each
    board itself."""

def tesauro_inputs(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The 198 TD-Gammon inputs of each board, float32 (n, 198)."""

def play_games(
    start: npt.NDArray[np.uint8],
    first_index: int,
    n_games: int,
    generator: np.random.Generator,
    policy0: int,
    policy1: int,
    stratify: bool = True,
    truncate: int = -1,
    one_sided: npt.NDArray[np.uint16] | None = None,
    gammon: npt.NDArray[np.uint16] | None = None,
    two_sided: npt.NDArray[np.uint16] | None = None,
    two_sided_checkers: int = 0,
    nets: Networks | None = None,
) -> npt.NDArray[np.float64]:
    """Play ``n_games`` cubeless games from ``start`` (50 bytes, row 1 on
    roll) and return their results, a float64 array (n, 5): win, win gammon,
    win backgammon, lose gammon, lose backgammon for the side on roll."""

def lockstep_rolls(
    index: npt.NDArray[np.int64], ply: npt.NDArray[np.int64], stratify: bool, generator: np.random.Generator
) -> npt.NDArray[np.uint8]:
    """The dice of each lockstep game (index, plies played so far), as the
    game loop rolls them: (n, 2) uint8."""

def lockstep_settle(
    chosen: npt.NDArray[np.uint8],
    mover: npt.NDArray[np.int8],
    plies: npt.NDArray[np.int64],
    truncate: int = -1,
    one_sided: npt.NDArray[np.uint16] | None = None,
    gammon: npt.NDArray[np.uint16] | None = None,
    two_sided: npt.NDArray[np.uint16] | None = None,
    two_sided_checkers: int = 0,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """For each game after its play: whether it ended (n,) bool, and its
    result (n, 5) as the game loop settles it."""

def choose_plays(
    policy: int,
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    generator: np.random.Generator | None = None,
    nets: Networks | None = None,
) -> npt.NDArray[np.int64]:
    """The play each (board, roll) gets from ``policy``, as the game loop
    chooses it: the index among the move generator's plays, (n,) int64."""

def observations(boards: npt.NDArray[np.uint8], rolls: npt.NDArray[np.uint8], out: npt.NDArray[np.float32]) -> None:
    """The environments' observations (n, 210) of boards seen by row 1 with its dice, into ``out``."""

def env_play(
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    done: npt.NDArray[np.uint8],
    offsets: npt.NDArray[np.int64],
    children: npt.NDArray[np.uint8],
    actions: npt.NDArray[np.int64],
    generator: np.random.Generator,
    u: npt.NDArray[np.float64],
    after: npt.NDArray[np.uint8],
    opp_rolls: npt.NDArray[np.uint8],
    stage: npt.NDArray[np.uint8],
    reward: npt.NDArray[np.float32],
    terminated: npt.NDArray[np.uint8],
    illegal: npt.NDArray[np.uint8],
    illegal_reward: float,
    autoreset: bool = False,
) -> None:
    """The agent's half of a step in each of n games, after drawing the
    step's uniforms into ``u``."""

def env_answer(
    policy: int,
    given: npt.NDArray[np.int64],
    stage: npt.NDArray[np.uint8],
    after: npt.NDArray[np.uint8],
    opp_rolls: npt.NDArray[np.uint8],
    u: npt.NDArray[np.float64],
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    done: npt.NDArray[np.uint8],
    reward: npt.NDArray[np.float32],
    terminated: npt.NDArray[np.uint8],
    obs: npt.NDArray[np.float32],
    mask: npt.NDArray[np.int8],
    counts: npt.NDArray[np.int64],
    full_mask: bool,
    offsets: npt.NDArray[np.int64],
    children: npt.NDArray[np.uint8],
    chain: Chain,
    nets: Networks | None = None,
) -> int:
    """This thread's share of the opponent's half of a step; 0, or 1 when
    ``children`` is too small.  Runs without the GIL."""
