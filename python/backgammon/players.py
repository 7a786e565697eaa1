"""Players: who chooses the plays (and, where it can, the cube actions).

Every tool that pits engines against each other (rollouts, duels, the
UBGI engine, the web game, the environments) takes players by the same
spec strings:

- ``random``: a distinct legal play chosen uniformly (seeded);
- ``pubeval``: Tesauro's pubeval, the classic benchmark;
- ``net`` (= ``net:0``), ``net:1``, ``net:2``: the project's networks
  searched 0, 1 or 2 plies deep with gnubg-style move filters;
- ``gnubg``: GNU Backgammon's 0-ply network through the ``gnubg-nn``
  package, when it is installed (a test and comparison peer only);
- ``ubgi:COMMAND``: any external engine speaking UBGI (see ``ubgi``).

>>> import backgammon as bg
>>> p = player("net")
>>> str(p.choose(bg.Position.initial(), "31"))
'8/5 6/5'
"""
from __future__ import annotations

import numpy as np

from . import _net
from ._validate import instance, integer
from .dice import generator, to_dice
from .play import Play
from .position import Position

__all__ = ["Player", "RandomPlayer", "PubevalPlayer", "NetPlayer", "GnubgPlayer", "player", "SPECS"]

#: The spec strings :func:`player` understands (``ubgi:COMMAND`` besides).
SPECS = ("random", "pubeval", "net", "net:0", "net:1", "net:2", "gnubg")


class Player:
    """Chooses plays.  Subclasses give ``choose_indices`` (batch) or
    ``choose`` (one position); ``spec`` is the string that makes them."""

    spec: str = ""
    #: whether ``cube_action`` gives real decisions (else: never double, always take)
    has_cube_decisions = False

    def choose(self, position: Position, roll) -> Play:
        """The play this player makes with ``roll`` from ``position``."""
        instance("position", position, Position, "backgammon.Position")
        dice = to_dice(roll)
        plays = position.legal_plays(dice)
        if not len(plays):
            raise ValueError("position: the game is over, there is no play to choose")
        index = int(self.choose_indices(position.array[None], np.array([dice], dtype=np.uint8))[0])
        return plays[index]

    def choose_indices(self, boards: np.ndarray, rolls: np.ndarray) -> np.ndarray:
        """For validated boards (n, 2, 25) and rolls (n, 2): the index of the
        chosen play of each, in the move generator's order (``legal_plays``)."""
        out = np.empty(len(boards), dtype=np.int64)
        for i, (board, roll) in enumerate(zip(boards, rolls)):
            position = Position.from_array(board)
            play = self.choose(position, (int(roll[0]), int(roll[1])))
            out[i] = position.legal_plays((int(roll[0]), int(roll[1]))).index(play)
        return out

    def cube_action(self, position: Position, state=None, rules=None):
        """The cube decision of the side on roll (see ``cube.cube_decision``);
        players without one never double and always take."""
        from .cube import CubeDecision
        return CubeDecision.never()

    def close(self) -> None:
        """Release what the player holds (an engine process, say)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<Player {self.spec}>"


class _KernelPlayer(Player):
    # The game loop's own choice (``_choice.choose_plays``): the same rule
    # in rollouts, duels and here.
    _policy = 0

    def choose_indices(self, boards, rolls):
        from . import _choice
        return _choice.choose_plays(self._policy, np.ascontiguousarray(boards, dtype=np.uint8),
                                     np.ascontiguousarray(rolls, dtype=np.uint8), **self._kernel_args())

    def _kernel_args(self) -> dict:
        return {}


class RandomPlayer(_KernelPlayer):
    """A distinct legal play chosen uniformly at random."""

    def __init__(self, seed=None):
        from . import _choice
        self.spec = "random"
        self._policy = _choice.Policy.POLICY_RANDOM
        self._rng = generator(seed)

    def _kernel_args(self):
        return {"generator": self._rng}


class PubevalPlayer(_KernelPlayer):
    """Tesauro's pubeval: the play whose result it scores highest."""

    def __init__(self):
        from . import _choice
        from .pubeval import load_weights
        load_weights()
        self.spec = "pubeval"
        self._policy = _choice.Policy.POLICY_PUBEVAL


class NetPlayer(_KernelPlayer):
    """The project's networks, searched ``ply`` plies deep (0, 1 or 2).

    ``threads`` (None: every core) share a batch of 1- and 2-ply choices
    (``choose_indices``); the choices are the same for any number."""

    has_cube_decisions = True

    def __init__(self, ply: int = 0, networks=None, threads: int | None = None):
        from . import _choice
        from .evaluation import _networks
        if ply not in (0, 1, 2):
            raise ValueError(f"ply must be 0, 1 or 2, not {ply!r}")
        self.ply = ply
        self.spec = "net" if ply == 0 else f"net:{ply}"
        self.networks = _networks(networks)
        self.threads = None if threads is None else integer("threads", threads, low=1)
        self._policy = _choice.Policy.POLICY_NET

    def choose_indices(self, boards, rolls):
        if self.ply == 0:
            return super().choose_indices(boards, rolls)
        from ._parallel import on_threads
        b = np.ascontiguousarray(boards, dtype=np.uint8)
        r = np.ascontiguousarray(rolls, dtype=np.uint8)
        # A search is milliseconds a position: a few rows are worth a thread.
        return on_threads(lambda rows: _net.choose(self.networks, b[rows], r[rows], self.ply),
                          np.arange(len(b)), self.threads, minimum=4).astype(np.int64)

    def _kernel_args(self):
        return {"nets": self.networks}

    def cube_action(self, position, state=None, rules=None):
        from .cube import cube_decision
        return cube_decision(position, state, rules, ply=min(self.ply, 1), networks=self.networks)


class GnubgPlayer(Player):
    """GNU Backgammon's 0-ply choice through ``gnubg_nn.best_move`` (the
    ``gnubg-nn`` package is a peer for comparisons, never a dependency)."""

    has_cube_decisions = False

    def __init__(self):
        try:
            import gnubg_nn
        except ImportError:
            raise ValueError("the gnubg player needs the gnubg-nn package: pip install gnubg-nn") from None
        self._g = gnubg_nn
        self.spec = "gnubg"

    def choose_indices(self, boards, rolls):
        from .batch import legal_positions
        offsets, children = legal_positions(boards, rolls, validate=False)
        out = np.zeros(len(boards), dtype=np.int64)
        for i, (board, roll) in enumerate(zip(boards, rolls)):
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            if hi - lo <= 1:
                continue
            _, key = self._g.best_move(board.tolist(), int(roll[0]), int(roll[1]), b=1)
            after = np.array(self._g.board_from_position_key(key), dtype=np.uint8)
            match = np.flatnonzero((children[lo:hi] == after).all(axis=(1, 2)))
            if len(match) != 1:
                raise RuntimeError("gnubg-nn chose a position that is not one of the legal plays")
            out[i] = match[0]
        return out


def player(spec, seed=None) -> Player:
    """A player from its spec string (see the module's list); ``seed``
    seeds the random player.  A Player given as ``spec`` is returned as it is."""
    if isinstance(spec, Player):
        return spec
    if not isinstance(spec, str):
        raise TypeError(f"spec must be a str such as 'net:1', not {type(spec).__name__}")
    if spec == "random":
        return RandomPlayer(seed)
    if spec == "pubeval":
        return PubevalPlayer()
    if spec in ("net", "net:0", "net:1", "net:2"):
        return NetPlayer(0 if spec == "net" else int(spec[4]))
    if spec == "gnubg":
        return GnubgPlayer()
    if spec.startswith("ubgi:"):
        from .ubgi import UbgiPlayer
        return UbgiPlayer(spec[5:])
    raise ValueError(f"spec must be one of {', '.join(SPECS)} or ubgi:COMMAND, not {spec!r}")
