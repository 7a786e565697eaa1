"""The neural network evaluator: contact and race networks, the bear-off
tables, 0- to 2-ply search and training kernels.

Type stub for backgammon._net, which gathers the entry points of the
extension modules built from src/backgammon/_features.pyx, _forward.pyx,
_search.pyx and _train.pyx.
"""
import numpy as np
import numpy.typing as npt

def set_instruction_set(wide: bool) -> bool:
    """Use the AVX2 forward pass where the machine has it (``wide``), or the
    baseline SSE2 one; returns whether AVX2 is now in use."""

class Networks:
    """The contact, race and (optional) crashed networks with the bear-off tables.

    ``arrays`` maps contact_w1 (I, H), contact_b1 (H,), contact_w2 (5, H),
    contact_b2 (5,), the same four race_ arrays and optionally crashed_
    arrays (as contact's) to float32 arrays, which training changes in
    place.  The number of inputs I names the layout (docs/evaluation.md):
    contact 218 or 248, race 204 or 210.
    """

    @property
    def arrays(self) -> dict[str, npt.NDArray[np.float32]]: ...
    def __init__(
        self,
        arrays: dict[str, npt.NDArray[np.float32]],
        one_sided: npt.NDArray[np.uint16],
        gammon: npt.NDArray[np.uint16],
        two_sided: npt.NDArray[np.uint16] | None = None,
        two_sided_checkers: int = 0,
    ) -> None: ...
    @property
    def pruning(self) -> int:
        """How many plays leading to contact the choices of a play inside
        searches and rollouts evaluate in full after the pruning network
        ranked them (0: none); the players' own choice evaluates every play."""
    @pruning.setter
    def pruning(self, keep: int) -> None: ...
    def __call__(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        """The five chances of the side on roll at 0-ply (the Evaluator protocol)."""

def evaluate(nets: Networks, boards: npt.NDArray[np.uint8], ply: int = 0,
             out: npt.NDArray[np.floating] | None = None) -> npt.NDArray[np.floating]:
    """The five chances of the side on roll of each board at ``ply``
    (0 to 3), float32 (n, 5), or written into ``out`` (float32 or float64,
    returned).  Boards are validated."""

def encode_boards(boards: npt.NDArray[np.uint8], layout: int = 2) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
    """The dense inputs of each board's network in ``layout`` (1: contact
    218, race 204; 2: contact and crashed 248, race 210), race rows
    zero-padded to the contact width, and each board's class, (n, width)
    float32 and (n,) int8."""

def escapes(i: int, blocked: int) -> int:
    """The escape count of the second layout's features (for tests): rolls
    that carry a checker on index ``i`` past the blocked points ahead."""

def choose(
    nets: Networks,
    boards: npt.NDArray[np.uint8],
    rolls: npt.NDArray[np.uint8],
    ply: int = 0,
    keep0: int = 8,
    within0: float = 0.16,
    keep1: int = 2,
    within1: float = 0.04,
) -> npt.NDArray[np.int32]:
    """The index of the best play (in the move generator's order) for each
    (board, roll) at ``ply`` with the move filters, (n,) int32."""

def rank_plays(
    nets: Networks,
    children: npt.NDArray[np.uint8],
    ply: int = 0,
    keep0: int = 8,
    within0: float = 0.16,
    keep1: int = 2,
    within1: float = 0.04,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.intc]]:
    """Chances of the side that played (n, 5) and the ply each play was
    searched to (n,), for the plays of one roll given as their resulting
    boards (n, 50), next mover's view."""

def candidates(
    nets: Networks, boards: npt.NDArray[np.uint8], keep: int = 10
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8], npt.NDArray[np.float64], npt.NDArray[np.int8]]:
    """For each board and each of its side on roll's 21 rolls, the plays a
    cubeful search values to choose one, with gnubg's pruning (``keep`` 0:
    every play): CSR offsets (n * 21 + 1,), the plays' boards (m, 2, 25),
    their 0-ply chances (m, 5) and classes (m,)."""

def selfplay_train(
    nets: Networks, games: int, generator: np.random.Generator, alpha_contact: float, alpha_race: float,
    explore: float = 0.0, within: float = 0.0, lam: float = 0.0,
    counter: npt.NDArray[np.int64] | None = None,
) -> tuple[float, float, float, float]:
    """Play ``games`` games of 0-ply self-play, updating the networks in
    place by TD(0) after every play.  With chance ``explore`` a decision
    plays one of the other plays within ``within`` equity of the best, at
    random (the position before it still learns the best play's value).
    ``lam`` > 0: TD(lambda) returns instead, learnt at the end of each
    game.  Returns (games, squared error sum, updates, plies)."""

def td_returns(
    targets: npt.NDArray[np.float32], cut: npt.NDArray[np.uint8], lam: float
) -> npt.NDArray[np.float32]:
    """The TD(lambda) returns (m, 5) of a game's positions after each play,
    given each one's bootstrap target (the next position's chances after
    the greedy reply, from its side) and whether its return stops there
    (``cut``: the next play explored, or the last position)."""

def sample_positions(
    nets: Networks, games: int, generator: np.random.Generator, explore: float = 0.0
) -> npt.NDArray[np.uint8]:
    """Positions met in ``games`` games of 0-ply self-play from the opening,
    as boards (m, 2, 25) with the side to move on roll."""

def train_supervised(
    nets: Networks,
    boards: npt.NDArray[np.uint8],
    targets: npt.NDArray[np.float32],
    order: npt.NDArray[np.int64],
    alpha_contact: float,
    alpha_race: float,
) -> float:
    """One pass of stochastic gradient descent over ``boards`` in ``order``
    toward ``targets`` (n, 5).  Returns the mean squared error per output
    before each step."""

def train_pruner(
    nets: Networks,
    boards: npt.NDArray[np.uint8],
    targets: npt.NDArray[np.float32],
    order: npt.NDArray[np.int64],
    alpha: float,
) -> float:
    """One pass of stochastic gradient descent of the pruning network over
    ``boards`` in ``order`` toward ``targets`` (n, 5).  Returns the mean
    squared error per output before each step."""

def prune_chances(nets: Networks, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The pruning network's five outputs for each board, float32 (n, 5)."""

def position_classes(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int8]:
    """Which evaluator answers for each board, (n,) int8: 0 over, 1 bear-off
    tables, 2 race, 3 contact, 4 crashed."""
