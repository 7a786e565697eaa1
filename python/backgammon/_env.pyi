"""The environments' step kernels.

Type stub for the Cython extension module built from src/backgammon/_env.pyx.
"""
import enum

import numpy as np
import numpy.typing as npt

from ._chain import Chain
from ._net import Networks


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

def observations(boards: npt.NDArray[np.uint8], rolls: npt.NDArray[np.uint8], out: npt.NDArray[np.float32],
                 on_turn: bool = True) -> None:
    """The environments' observations (n, 210) of boards seen by row 1 with its dice, into ``out``."""

class EnvState:
    """The per-game arrays of n games that both halves of a step share, checked once."""

    @property
    def n(self) -> int: ...
    def __init__(
        self,
        boards: npt.NDArray[np.uint8],
        rolls: npt.NDArray[np.uint8],
        done: npt.NDArray[np.uint8],
        after: npt.NDArray[np.uint8],
        opp_rolls: npt.NDArray[np.uint8],
        stage: npt.NDArray[np.uint8],
        reward: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.uint8],
        illegal: npt.NDArray[np.uint8],
        u: npt.NDArray[np.float64],
        counts: npt.NDArray[np.int64],
        last: npt.NDArray[np.uint8] | None = None,
    ) -> None: ...


def env_play(
    st: EnvState,
    offsets: npt.NDArray[np.int64],
    children: npt.NDArray[np.uint8],
    actions: npt.NDArray[np.int64],
    generator: np.random.Generator,
    illegal_reward: float,
    autoreset: bool = False,
    restart: bool = False,
) -> None:
    """The agent's half of a step in each of the games of ``st``."""


def env_answer(
    st: EnvState,
    policy: int,
    given: npt.NDArray[np.int64],
    obs: npt.NDArray[np.float32],
    mask: npt.NDArray[np.int8],
    full_mask: bool,
    offsets: npt.NDArray[np.int64],
    children: npt.NDArray[np.uint8],
    chain: Chain,
    nets: Networks | None = None,
    restart: bool = False,
    given_opening: npt.NDArray[np.int64] | None = None,
) -> int:
    """This thread's share of the opponent's half of a step; 0, or 1 when ``children`` is too small."""


def turn(
    st: EnvState,
    action: int,
    generator: np.random.Generator,
    obs: npt.NDArray[np.float32],
    mask: npt.NDArray[np.int8],
    offsets: npt.NDArray[np.int64],
    children: npt.NDArray[np.uint8],
) -> tuple[float, bool, bool, int]:
    """A turn of two agents in game 0 of ``st``: (reward, terminated, passed, plays)."""


def opening_throws(u0: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
    """The opening throws (mine, theirs) (k, 2) the step kernels draw from the uniforms ``u0``."""


def board_tensors(boards: npt.NDArray[np.uint8], rolls: npt.NDArray[np.uint8], out: npt.NDArray[np.float32],
                  on_turn: bool = True) -> None:
    """The board tensors (n, 15, 26), or (n, 9, 26) without dice planes, of boards seen by row 1, into ``out``."""


def net_raw_units(boards: npt.NDArray[np.uint8], out: npt.NDArray[np.float32]) -> None:
    """The networks' 202 raw units of boards into ``out[:, :202]``."""
