"""Players: who chooses the plays, the cube actions and the answers to
resignations, and the one registry of player specs.

Every tool that pits engines against each other (rollouts, duels, the
UBGI engine, the web game, the environments, the command line) takes
players by the same spec strings, made by :func:`player`:

- ``random``: a distinct legal play chosen uniformly (seeded);
- ``pubeval``: Tesauro's pubeval, the classic benchmark;
- ``net`` (= ``net:0``), ``net:1``, ``net:2``: the project's networks
  searched 0, 1 or 2 plies deep with gnubg-style move filters;
- ``gnubg``: GNU Backgammon's 0-ply network through the ``gnubg-nn``
  package, when it is installed (a test and comparison peer only);
- ``bgsage``, ``bgsage:2ply``, ``bgsage:3ply``, ...: bgsage (Open Sage),
  its raw network (its level 1ply, gnubg's 0-ply) or its other levels,
  through ``backgammon.peers`` when the ``bgsage`` package is installed
  (a test and comparison peer only);
- ``ubgi:COMMAND``: any external engine speaking UBGI (see ``ubgi``);
- any name registered with :func:`register_player`, or by another package
  through the ``backgammon.players`` entry point group (the entry point's
  object is the factory, called as ``factory(argument, seed)`` where the
  argument is the text after ``name:`` or None).

A new player is one subclass of :class:`Player` (override ``choose`` or
``choose_indices``) and one ``register_player`` call; every tool then
reaches it by its spec.  Players the game loop can play itself
(``random``, ``pubeval``, ``net``) say so with :meth:`Player.kernel_policy`
and run there, without Python in the loop.

>>> import backgammon as bg
>>> p = player("net")
>>> str(p.choose(bg.Position.initial(), "31"))
'8/5 6/5'
"""
from __future__ import annotations

import abc
import numbers
import threading
from typing import Any, Callable

import numpy as np

from ._validate import instance, integer
from .batch import legal_positions
from .dice import generator, to_dice
from .evaluator import chances
from .play import Play
from .position import Position
from .scoring import equity

__all__ = ["Player", "EvaluatorPlayer", "RandomPlayer", "PubevalPlayer", "NetPlayer", "GnubgPlayer",
           "NoisyPlayer", "player", "register_player", "player_names", "SPECS", "ENTRY_POINTS"]

#: The entry point group through which other packages add players.
ENTRY_POINTS = "backgammon.players"


class Player(abc.ABC):
    """Chooses plays, cube actions and answers to resignations.

    A subclass overrides :meth:`choose_indices` (a batch of positions, the
    fast way) or :meth:`choose` (one position), or both; the other comes
    from it.  The cube and resignation decisions default to the project's
    rules (``cube.cube_action`` for players with ``has_cube_decisions``,
    ``resignation.accepts`` and ``resignation.offer``) judged by
    ``evaluator`` (None: the shipped networks).

    Attributes
    ----------
    spec : str
        The spec that makes this player (``"net:1"``), as tools print it.
    name : str
        The player's name.

    Raises
    ------
    TypeError
        Made from a subclass that overrides neither ``choose`` nor
        ``choose_indices``.

    See Also
    --------
    player : a player from its spec.
    register_player : a new spec.

    Examples
    --------
    >>> class FirstPlay(Player):
    ...     def choose_indices(self, boards, rolls):
    ...         return np.zeros(len(boards), dtype=np.int64)
    >>> str(FirstPlay().choose(Position.initial(), "31"))
    '24/23 24/21'
    >>> class Nothing(Player):
    ...     pass
    >>> Nothing()
    Traceback (most recent call last):
    ...
    TypeError: Nothing must override choose() or choose_indices() (a Player chooses plays)
    """

    spec: str = ""
    #: whether ``cube_action`` gives real decisions (else: never double, always take)
    has_cube_decisions = False
    #: the evaluator behind this player's judgement (None: the shipped networks)
    evaluator: Any = None
    #: how many plies deep this player searches its checker plays (0: none);
    #: its cube decisions are ``cube.cube_action``'s at this depth (which
    #: caps the cube search in play)
    ply: int = 0

    def __new__(cls, *args, **kwargs):
        if cls.choose is Player.choose and cls.choose_indices is Player.choose_indices:
            raise TypeError(f"{cls.__name__} must override choose() or choose_indices() (a Player chooses plays)")
        return super().__new__(cls)

    def choose(self, position: Position, roll) -> Play:
        """The play this player makes with ``roll`` from ``position``.

        Parameters
        ----------
        position : Position
            The position, this player on roll.
        roll : Roll, tuple or str
            The dice.

        Returns
        -------
        Play
            One of ``position.legal_plays(roll)`` (the empty play when
            the roll cannot be played).

        Examples
        --------
        >>> import backgammon as bg
        >>> str(bg.player("pubeval").choose(bg.Position.initial(), "65"))
        '24/13'
        """
        instance("position", position, Position, "backgammon.Position")
        dice = to_dice(roll)
        plays = position.legal_plays(dice)
        if not len(plays):
            raise ValueError("position: the game is over, there is no play to choose")
        index = int(self.choose_indices(position.array[None], np.array([dice], dtype=np.uint8))[0])
        return plays[index]

    def choose_at(self, position: Position, roll, state=None, rules=None) -> Play:
        """The play this player makes with ``roll`` from ``position`` at the
        cube and score of ``state`` (a MatchState, the mover on roll; its
        rules as ``MatchState.game_rules`` reads them).  Players that search
        an evaluator (``EvaluatorPlayer``, ``NetPlayer``) rank a match
        score's plays by match equity, as gnubg (``hint`` with a state);
        the others, and money play, choose as :meth:`choose`."""
        return self.choose(position, roll)

    def choose_in(self, game) -> Play:
        """The play this player makes in ``game`` now (its dice rolled, this
        player on roll): in a match, :meth:`choose_at` the game's match
        state (its cube and score), as ``play_match`` and the environments'
        opponents play; in money play, :meth:`choose`.

        Parameters
        ----------
        game : Game
            A game waiting for a play (``Phase.PLAY``).

        Returns
        -------
        Play
            One of ``game.legal_plays()``.

        Examples
        --------
        >>> import backgammon as bg
        >>> g = bg.Match(5, seed=1).new_game()
        >>> g.roll((3, 1))
        >>> str(bg.player("net").choose_in(g))
        '8/5 6/5'
        """
        from .game import Game, Phase
        instance("game", game, Game, "backgammon.Game")
        if game.phase is not Phase.PLAY:
            raise ValueError(f"game: no play to choose, the game is at {game.phase.name}, not PLAY")
        if game.length and type(self).choose_at is not Player.choose_at:
            return self.choose_at(game.position, game.dice, game.match_state(), game.rules)
        # Money play, or a player whose choice is the same at every score
        # (Player.choose_at is choose): no state to make.
        return self.choose(game.position, game.dice)

    def choose_indices_at(self, boards: np.ndarray, rolls: np.ndarray, state=None, rules=None, *,
                          cubeful: bool = False) -> np.ndarray:
        """The chosen play of each of a batch of positions at one cube state
        and score (``state``, the mover on roll, as in :meth:`choose_at`):
        what a cubeful rollout asks each ply of the games sharing a cube
        state.  Row ``i`` is the index (move generator order) of
        ``choose_at(boards[i], rolls[i], state, rules)``; a player without
        its own :meth:`choose_at` chooses as :meth:`choose_indices`.
        ``cubeful``: in money play too, choose by cubeful money equity at
        the state's cube (what a cubeful money rollout asks, as gnubg's);
        players whose choice does not depend on the cube ignore it.

        Examples
        --------
        >>> import numpy as np, backgammon as bg
        >>> boards = np.stack([bg.Position.initial().array] * 2)
        >>> rolls = np.array([[3, 1], [6, 4]], dtype=np.uint8)
        >>> dmp = bg.MatchState(match_length=5, score=(4, 4))
        >>> bg.player("net").choose_indices_at(boards, rolls, dmp).shape
        (2,)
        """
        if state is None or type(self).choose_at is Player.choose_at:
            return self.choose_indices(boards, rolls)
        return self._one_by_one(boards, rolls, lambda position, dice: self.choose_at(position, dice, state, rules))

    def choose_indices(self, boards: np.ndarray, rolls: np.ndarray) -> np.ndarray:
        """The chosen play of each of a batch of positions.

        Parameters
        ----------
        boards : numpy.ndarray
            (n, 2, 25) uint8, validated, each side on roll in row 1.
        rolls : numpy.ndarray
            (n, 2) uint8 dice.

        Returns
        -------
        numpy.ndarray
            (n,) int64: the index of each chosen play in the move
            generator's order (``legal_plays``).

        Examples
        --------
        >>> import numpy as np, backgammon as bg
        >>> boards = np.stack([bg.Position.initial().array] * 2)
        >>> rolls = np.array([[3, 1], [6, 5]], dtype=np.uint8)
        >>> bg.player("net").choose_indices(boards, rolls).shape
        (2,)
        """
        return self._one_by_one(boards, rolls, self.choose)

    def _one_by_one(self, boards, rolls, choose) -> np.ndarray:
        # A player that chooses position by position (``choose(position, dice)``), as indices.
        out = np.empty(len(boards), dtype=np.int64)
        for i, (board, roll) in enumerate(zip(boards, rolls)):
            position = Position.from_bytes(np.ascontiguousarray(board, dtype=np.uint8).tobytes())
            dice = (int(roll[0]), int(roll[1]))
            play = choose(position, dice)
            index = position.legal_plays(dice).find(play.position)
            if index < 0:
                raise ValueError(f"{self!r} chose {play}, which is not a legal play of {dice[0]}-{dice[1]}")
            out[i] = index
        return out

    def cube_action(self, position: Position, state=None, rules=None):
        """The cube decision of the side on roll, by this player's judgement
        (``cube.cube_action`` at its ``ply``, by its ``evaluator``).

        Parameters
        ----------
        position : Position
            The position before the roll.
        state : MatchState, optional
            The cube and the score; default money.
        rules : Rules, optional
            The money options.

        Returns
        -------
        CubeDecision
            As :func:`~backgammon.cube.cube_action` gives it when the
            player has cube judgement (``has_cube_decisions``); else never
            double, always take (:meth:`CubeDecision.never`).

        Examples
        --------
        >>> import backgammon as bg
        >>> bg.player("net").cube_action(bg.Position.initial()).action
        'no double'
        """
        from .cube import CubeDecision, cube_action
        if not self.has_cube_decisions:
            return CubeDecision.never()
        return cube_action(position, state, rules, self.ply, evaluator=self.evaluator)

    def cube_actions(self, boards, state=None, rules=None):
        """The cube decisions of many positions at one cube state and
        score, in one batch (what a rollout asks each turn): row ``i`` is
        ``cube_action(boards[i], state, rules)``.  A subclass with its own
        :meth:`cube_action` is asked position by position.

        Parameters
        ----------
        boards : array_like
            (n, 2, 25) boards before the roll, the side on roll in row 1.
        state, rules
            As in :meth:`cube_action`, one for all the boards.

        Returns
        -------
        CubeDecisions
            As :func:`~backgammon.cube.cube_actions` gives them.

        Examples
        --------
        >>> import backgammon as bg
        >>> d = bg.player("net").cube_actions([bg.Position.initial().array])
        >>> d[0] == bg.player("net").cube_action(bg.Position.initial())
        True
        """
        from .batch import validate_boards
        from .cube import CubeDecisions, cube_actions
        if type(self).cube_action is not Player.cube_action:
            return CubeDecisions.of(self.cube_action(Position.from_bytes(b.tobytes(), validate=False), state, rules)
                                    for b in validate_boards(boards))
        if not self.has_cube_decisions:
            return CubeDecisions.never(len(validate_boards(boards)))
        return cube_actions(boards, state, rules, self.ply, evaluator=self.evaluator,
                            threads=getattr(self, "threads", None))

    def accept_resignation(self, position: Position, level: int, state=None, rules=None) -> bool:
        """Whether to accept the opponent's offer to resign ``level`` (1-3);
        ``position`` is the resigner's (on roll).  See ``resignation.accepts``."""
        from .resignation import accepts
        return accepts(position, level, state, rules, evaluator=self.evaluator)

    def resign_offer(self, position: Position, state=None, rules=None) -> int:
        """The resignation this player offers on its turn in ``position``
        (on roll), 0 for none.  See ``resignation.offer``."""
        from .resignation import offer
        return offer(position, state, rules, evaluator=self.evaluator)

    def kernel_policy(self):
        """``(policy code, networks)`` when the kernels' game loop can play
        for this player itself (``_choice.Policy``), else None; for a
        native evaluator's player the "networks" are its
        ``evaluator.NativeEvaluator``."""
        return None

    def close(self) -> None:
        """Release what the player holds (an engine process, say)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<Player {self.spec}>"


class EvaluatorPlayer(Player):
    """Plays the best play of an evaluator and takes its cube decisions
    from the same evaluator.

    Parameters
    ----------
    evaluator : Evaluator or callable, optional
        Any evaluator (:mod:`backgammon.evaluator`); default the shipped
        networks.  A native evaluator (an object with
        ``__backgammon_evaluator__``) plays at 0-ply in the kernel game
        loop (``kernel_policy``): rollouts run its games without the GIL.
    ply : int, default 0
        The search depth, 0-2, with gnubg's move filters.
    threads : int, optional
        Threads sharing a batch's search; default every core.

    Examples
    --------
    >>> import backgammon as bg
    >>> from backgammon.evaluator import PubevalEvaluator
    >>> str(EvaluatorPlayer(PubevalEvaluator()).choose(bg.Position.initial(), "31"))
    '8/5 6/5'
    """

    has_cube_decisions = True

    def __init__(self, evaluator=None, ply: int = 0, threads: int | None = None):
        from .evaluator import as_evaluator
        self.ply = integer("ply", ply, low=0, high=2)
        self.evaluator = as_evaluator(evaluator)
        self.threads = None if threads is None else integer("threads", threads, low=1)
        if not self.spec:
            self.spec = f"evaluator:{self.ply}"

    def kernel_policy(self):
        """``(POLICY_NET, the NativeEvaluator)`` at 0-ply for a native
        evaluator (the game loop plays it), else None."""
        from . import _choice
        from .evaluator import NativeEvaluator
        if self.ply == 0 and isinstance(self.evaluator, NativeEvaluator) \
                and type(self).choose_indices is EvaluatorPlayer.choose_indices:
            return _choice.Policy.POLICY_NET, self.evaluator
        return None

    def choose_indices(self, boards, rolls):
        from .evaluator import choose
        return choose(self.evaluator, np.ascontiguousarray(boards, dtype=np.uint8),
                      np.ascontiguousarray(rolls, dtype=np.uint8), self.ply, self.threads)

    def choose_at(self, position: Position, roll, state=None, rules=None) -> Play:
        """At a match score, the best play by match equity (cubeful, the
        opponent holding its cube options) searched ``ply`` deep with
        gnubg's filters (``cube_search.rank_plays``): at double match point
        gammons count nothing.  Money play (and a subclass with its own
        ``choose_indices``) chooses as :meth:`choose`.

        >>> import backgammon as bg
        >>> dmp = bg.MatchState(match_length=5, score=(4, 4))
        >>> str(NetPlayer().choose_at(bg.Position.initial(), "31", dmp))
        '8/5 6/5'
        """
        instance("position", position, Position, "backgammon.Position")
        dice = to_dice(roll)
        plays = position.legal_plays(dice)
        if not len(plays):
            raise ValueError("position: the game is over, there is no play to choose")
        index = self.choose_indices_at(position.array[None], np.array([dice], dtype=np.uint8), state, rules)
        return plays[int(index[0])]

    def choose_indices_at(self, boards, rolls, state=None, rules=None, *, cubeful=False):
        """At a match score, each position's best play by match equity
        (``cube_search.choose_plays``, the ranking of :meth:`choose_at`),
        all the batch's plays ranked in one search; money play as
        :meth:`choose_indices` (cubeless), unless ``cubeful``: then by
        cubeful money equity at the state's cube (its owner and value, the
        Jacoby rule while it is centred), the same search, as gnubg's
        cubeful rollouts choose.  A subclass with its own
        ``choose_indices`` (and not its own ``choose_indices_at``, as
        :class:`NoisyPlayer` has) chooses as that.

        >>> import numpy as np, backgammon as bg
        >>> dmp = bg.MatchState(match_length=5, score=(4, 4))
        >>> boards = bg.Position.initial().array[None]
        >>> rolls = np.array([[3, 1]], dtype=np.uint8)
        >>> NetPlayer().choose_indices_at(boards, rolls, dmp).shape
        (1,)
        """
        from .cube_search import choose_plays
        from .matchid import state_and_rules
        if state is None or type(self).choose_indices is not EvaluatorPlayer.choose_indices:
            return self.choose_indices(boards, rolls)
        state, rules = state_and_rules(state, rules)
        if not (state.match_length or cubeful):
            return self.choose_indices(boards, rolls)
        return choose_plays(self.evaluator, boards, rolls, self.ply, state, rules)


class _KernelPlayer(Player):
    # Plays the game loop's own choice (``_choice.choose_plays``): the same
    # rule in rollouts, duels, the environments and here.
    _policy = 0

    def choose_indices(self, boards, rolls):
        from . import _choice
        return _choice.choose_plays(self._policy, np.ascontiguousarray(boards, dtype=np.uint8),
                                    np.ascontiguousarray(rolls, dtype=np.uint8), **self._kernel_args())

    def _kernel_args(self) -> dict:
        return {}

    def kernel_policy(self):
        return self._policy, None


class RandomPlayer(_KernelPlayer):
    """A distinct legal play chosen uniformly at random (spec ``random``).

    Examples
    --------
    >>> import backgammon as bg
    >>> p = bg.player("random", seed=1)
    >>> start = bg.Position.initial()
    >>> p.choose(start, "31") in start.legal_plays("31")
    True
    """

    def __init__(self, seed=None):
        from . import _choice
        self.spec = "random"
        self._policy = _choice.Policy.POLICY_RANDOM
        self._rng = generator(seed)

    def _kernel_args(self):
        return {"generator": self._rng}


class PubevalPlayer(_KernelPlayer):
    """Tesauro's pubeval: the play whose result it scores highest (spec
    ``pubeval``).

    Examples
    --------
    >>> import backgammon as bg
    >>> str(PubevalPlayer().choose(bg.Position.initial(), "31"))
    '8/5 6/5'
    """

    def __init__(self):
        from . import _choice
        from .pubeval import load_weights
        load_weights()
        self.spec = "pubeval"
        self._policy = _choice.Policy.POLICY_PUBEVAL


class NetPlayer(EvaluatorPlayer):
    """The project's networks, searched ``ply`` plies deep (spec ``net:PLY``).

    Parameters
    ----------
    ply : int, default 0
        0, 1 or 2.
    networks : optional
        The networks (``backgammon.network.load(path)``); default the
        shipped ones.
    threads : int, optional
        Threads sharing a batch of 1- and 2-ply choices
        (``choose_indices``); default every core.  The choices are the
        same for any number.

    Examples
    --------
    >>> import backgammon as bg
    >>> str(NetPlayer(1).choose(bg.Position.initial(), "62"))
    '24/18 13/11'
    """

    def __init__(self, ply: int = 0, networks=None, threads: int | None = None):
        from . import _net
        if not isinstance(ply, int) or isinstance(ply, bool) or ply not in (0, 1, 2):
            raise ValueError(f"ply must be 0, 1 or 2, not {ply!r}")
        if networks is not None and not isinstance(networks, _net.Networks):
            raise TypeError(f"networks must be backgammon.network.load()'s result, not {type(networks).__name__}")
        self.spec = "net" if ply == 0 else f"net:{ply}"
        super().__init__(networks, ply, threads)

    @property
    def networks(self):
        return self.evaluator

    def kernel_policy(self):
        from . import _choice
        return (_choice.Policy.POLICY_NET, self.evaluator) if self.ply == 0 else None


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


# -- the registry ------------------------------------------------------------------------

Factory = Callable[[Any, Any], Player]
_registry: dict[str, Factory] = {}
_lock = threading.Lock()
_plugins_loaded = False


def register_player(name: str, factory: Factory, *, replace: bool = False) -> None:
    """Add a player spec: ``player("name")`` and ``player("name:ARG")`` then
    call ``factory(arg, seed)`` for a :class:`Player`.

    Parameters
    ----------
    name : str
        The spec's name.
    factory : callable
        ``factory(arg, seed)``, where ``arg`` is the text after the colon
        or None; it returns a Player.
    replace : bool, default False
        Let a name be registered again.

    Raises
    ------
    ValueError
        A name already registered (without ``replace``), or one with
        ``:`` or spaces.
    TypeError
        ``name`` not text, or ``factory`` not callable.

    Examples
    --------
    >>> class Lazy(Player):
    ...     def choose_indices(self, boards, rolls):
    ...         return np.zeros(len(boards), dtype=np.int64)
    >>> register_player("lazy", lambda arg, seed: Lazy(), replace=True)
    >>> player("lazy").spec
    'lazy'
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    if not name or ":" in name or name != name.strip():
        raise ValueError(f"name must be a word without ':' or spaces around it, not {name!r}")
    if not callable(factory):
        raise TypeError(f"factory must be callable, not {type(factory).__name__}")
    with _lock:
        if name in _registry and not replace:
            raise ValueError(f"name {name!r} is registered already (pass replace=True to change it)")
        _registry[name] = factory


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    from importlib.metadata import entry_points
    for ep in entry_points(group=ENTRY_POINTS):
        if ep.name not in _registry:
            try:
                register_player(ep.name, ep.load())
            except Exception as e:     # noqa: BLE001 -- a broken plugin must not break the package
                import warnings
                warnings.warn(f"player plugin {ep.name!r} ({ep.value}) failed to load: {e}", stacklevel=2)


def player_names() -> list[str]:
    """The registered player names (plugins included).

    Examples
    --------
    >>> {"net", "pubeval", "random"} <= set(player_names())
    True
    """
    _load_plugins()
    return sorted(_registry)


def player(spec, seed=None, *, name: str = "spec") -> Player:
    """A player from its spec string.

    Parameters
    ----------
    spec : str, Player or native evaluator
        ``"net"``, ``"net:1"``, ``"pubeval"``, ``"random"``, ``"gnubg"``,
        ``"ubgi:COMMAND"``, a registered name... (the module's list); a
        Player is returned as it is; a native evaluator (an object with
        ``__backgammon_evaluator__``, docs/cython-api.md) becomes its
        0-ply :class:`EvaluatorPlayer`.
    seed : int or numpy.random.SeedSequence, optional
        Seeds a player that draws at random.
    name : str, default "spec"
        The parameter that errors name (a caller's own).

    Returns
    -------
    Player

    Raises
    ------
    ValueError
        An unknown spec, or a bad argument after the colon.
    TypeError
        ``spec`` neither text, a Player nor a native evaluator (or a native
        evaluator whose capsule is not one).

    See Also
    --------
    player_names : the names known.
    register_player : add one.

    Examples
    --------
    >>> import backgammon as bg
    >>> p = player("pubeval")
    >>> p, str(p.choose(bg.Position.initial(), "31"))
    (<Player pubeval>, '8/5 6/5')
    >>> player("net:1").spec
    'net:1'
    """
    if isinstance(spec, Player):
        return spec
    if hasattr(spec, "__backgammon_evaluator__"):
        from .evaluator import NativeEvaluator
        return EvaluatorPlayer(NativeEvaluator(spec, name))
    if not isinstance(spec, str):
        raise TypeError(f"{name} must be a player spec such as 'net:1', a Player or a native evaluator, "
                        f"not {type(spec).__name__}")
    key, colon, arg = spec.partition(":")
    _load_plugins()
    factory = _registry.get(key)
    if factory is None:
        known = ", ".join(SPECS + tuple(n for n in sorted(_registry) if n not in _BUILT_IN))
        raise ValueError(f"{name} must be one of {known} or ubgi:COMMAND, not {spec!r}")
    try:
        made = factory(arg if colon else None, seed)
    except ValueError as e:
        text = str(e)
        raise type(e)(text if text.startswith(name) else f"{name}: {text}") from None
    if not isinstance(made, Player):
        raise TypeError(f"the factory of {key!r} made a {type(made).__name__}, not a backgammon Player")
    if not made.spec:
        made.spec = spec
    return made


def _no_argument(name: str, make: Callable[[Any], Player]) -> Factory:
    def factory(arg, seed):
        if arg is not None:
            raise ValueError(f"spec must be {name!r}, with nothing after it, not {name + ':' + arg!r}")
        return make(seed)
    return factory


def _net(arg, seed):
    if arg is None:
        return NetPlayer(0)
    if arg not in ("0", "1", "2"):
        raise ValueError(f"spec must be net, net:0, net:1 or net:2, not {'net:' + arg!r}")
    return NetPlayer(int(arg))


#: The spec strings of the built-in players (``ubgi:COMMAND`` besides).
SPECS = ("random", "pubeval", "net", "net:0", "net:1", "net:2", "gnubg")
_BUILT_IN = ("random", "pubeval", "net", "gnubg", "ubgi")
register_player("random", _no_argument("random", RandomPlayer))
register_player("pubeval", _no_argument("pubeval", lambda seed: PubevalPlayer()))
register_player("net", _net)
register_player("gnubg", _no_argument("gnubg", lambda seed: GnubgPlayer()))
# ``ubgi:COMMAND`` comes from the ubgi module through this package's own
# entry point (pyproject.toml), as any plugin's player does.


# -- a handicapped network: the computer's weakest level in the web game ---------------------

_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_OTHER = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every bit of the key stirs every bit out."""
    x = x ^ (x >> np.uint64(30))
    x = x * _MIX1
    x = x ^ (x >> np.uint64(27))
    x = x * _MIX2
    return x ^ (x >> np.uint64(31))


class NoisyPlayer(EvaluatorPlayer):
    """The network's 0-ply choice with noise on each play's equity (spec
    ``noisy:SIGMA``): the web game's weakest level.  At a match score
    (``choose_at``) the noise goes on each play's cubeful match equity,
    the value ``hint`` and the other players rank by there.

    The noise is a function of the seed and the position after the play,
    so the same player makes the same choice in the same spot.

    Parameters
    ----------
    sigma : float
        The noise's standard deviation, in equity (normalised match
        equity at a match score): above 0, at most 2.
    seed : int, optional
        Picks the noise (default 0).

    Raises
    ------
    TypeError
        ``sigma`` not a number.
    ValueError
        ``sigma`` out of range.

    Examples
    --------
    >>> import backgammon as bg
    >>> # almost no noise
    >>> str(NoisyPlayer(0.0001).choose(bg.Position.initial(), "31"))
    '8/5 6/5'
    """

    def __init__(self, sigma: float, seed=None):
        if isinstance(sigma, bool) or not isinstance(sigma, numbers.Real):
            raise TypeError(f"sigma must be a number, not {type(sigma).__name__}")
        if not 0 < sigma <= 2:
            raise ValueError(f"sigma must be a number of points of equity above 0, at most 2, not {sigma!r}")
        super().__init__(None, 0)
        self.sigma = float(sigma)
        self.spec = f"noisy:{sigma:g}"
        rng = generator(0 if seed is None else seed)
        with np.errstate(over="ignore"):
            self._weights: np.ndarray = rng.integers(0, 2 ** 63, size=50, dtype=np.uint64) * np.uint64(2) + np.uint64(1)

    def noise(self, children: np.ndarray) -> np.ndarray:
        """Standard normal noise (m,) of plays given by their results (m, 2, 25)."""
        keys = np.ascontiguousarray(children, dtype=np.uint8).reshape(len(children), 50).astype(np.uint64)
        with np.errstate(over="ignore"):
            h = _mix((keys * self._weights).sum(axis=1, dtype=np.uint64))
            u1 = ((h >> np.uint64(11)).astype(np.float64) + 0.5) / 2.0 ** 53
            u2 = (_mix(h ^ _OTHER) >> np.uint64(11)).astype(np.float64) / 2.0 ** 53
        return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)

    def choose_indices(self, boards, rolls):
        offsets, kids = legal_positions(boards, rolls, validate=False, threads=1)
        if not len(kids):
            return np.zeros(len(boards), dtype=np.int64)
        # The results are seen by the next mover: its equity, negated, is the mover's.
        return self._noisiest(offsets, kids, -equity(chances(self.evaluator, kids)))

    def choose_indices_at(self, boards, rolls, state=None, rules=None, *, cubeful=False):
        """At a match score, each position's play by the values
        ``cube_search`` ranks plays by at 0-ply (normalised match equity,
        cubeful: at double match point gammons count nothing) plus the
        noise, ``sigma`` in those units; money play as
        :meth:`choose_indices` (cubeless equity plus the noise), unless
        ``cubeful`` (a cubeful rollout): then cubeful money equity per unit
        of the cube.  The same seed makes the same choice.

        >>> import backgammon as bg
        >>> xgid = "XGID=-ba-aBD-C-A-eD-----e-Aa---:0:0:1:65:6:6:0:7:10"
        >>> pos, dmp = bg.read_xgid(xgid)
        >>> p = NoisyPlayer(0.0001)
        >>> str(p.choose(pos, "65")), str(p.choose_at(pos, "65", dmp))
        ('13/8 10/4*', '21/10')
        """
        from .cube_search import rank_batch
        from .matchid import state_and_rules
        if state is None:
            return self.choose_indices(boards, rolls)
        state, rules = state_and_rules(state, rules)
        if not (state.match_length or cubeful):
            return self.choose_indices(boards, rolls)
        offsets, kids = legal_positions(boards, rolls, threads=1)
        if not len(kids):
            return np.zeros(len(boards), dtype=np.int64)
        _, _, values, _ = rank_batch(self.evaluator, offsets, kids, 0, state, rules)
        return self._noisiest(offsets, kids, values)

    def _noisiest(self, offsets, kids, mine):
        # Each roll's play of the highest value (the mover's, ``mine``) plus the noise.
        mine = mine + self.sigma * self.noise(kids)
        out = np.zeros(len(offsets) - 1, dtype=np.int64)
        for i in range(len(offsets) - 1):
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            if hi - lo > 1:
                out[i] = int(np.argmax(mine[lo:hi]))
        return out

    def kernel_policy(self):
        return None


def _noisy(arg, seed):
    try:
        sigma = float(arg) if arg is not None else None
    except ValueError:
        sigma = None
    if sigma is None:
        raise ValueError(f"spec must be noisy:SIGMA with SIGMA a number such as 0.1, not {'noisy:' + str(arg)!r}")
    return NoisyPlayer(sigma, seed)


register_player("noisy", _noisy)
