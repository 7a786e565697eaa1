"""Duels: two players compared over cubeless money games with duplicate dice.

Every dice sequence is played twice, once with each player moving first,
so the luck of the dice cancels out of the difference between the players.
Games run in lockstep in chunks of pairs, each chunk seeded from its own
spawned ``SeedSequence``: a seed gives the same result for any number of
workers.

>>> r = duel("pubeval", "random", games=200, seed=1, workers=1)
>>> r.games, r.ppg > 0.5
(200, True)
"""
from __future__ import annotations

import math
import time
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field

import numpy as np

from ._parallel import Interrupted, run_chunks, tally
from ._validate import flag, instance, integer
from .dice import OPENING_ROLLS, seed_sequence
from .lockstep import Lanes
from .play import format_steps
from .players import NetPlayer, Player, player
from .position import Position

__all__ = ["duel", "DuelResult", "DuelInterrupted", "play_pairs", "play_match", "GameRecord", "PAIRS_PER_CHUNK"]

PAIRS_PER_CHUNK = 250
_DICE_BLOCK = 256          # rolls drawn per pair at a time; games rarely need more


@dataclass(frozen=True)
class GameRecord:
    """One game of a duel, kept with ``duel(..., record=True)``.

    Attributes
    ----------
    first : int
        Who moved first: 0 player A, 1 player B.
    rolls : list of tuple
        The opening roll and every later roll, in order.
    plays : list of str
        Each play's notation.
    winner : int
        0 player A, 1 player B.
    points : int
        1, 2 or 3: a single game, a gammon, a backgammon.

    Examples
    --------
    >>> import backgammon as bg
    >>> r = bg.duel("pubeval", "random", games=2, seed=1, workers=1, record=True)
    >>> g = r.records[0]
    >>> g.first, g.winner in (0, 1), len(g.rolls) == len(g.plays)
    (0, True, True)
    """

    first: int
    rolls: list
    plays: list
    winner: int
    points: int


@dataclass(frozen=True)
class DuelResult:
    """The outcome of :func:`duel`, from player A's side.

    Attributes
    ----------
    a, b : str
        The players' specs.
    games : int
        Games played.
    ppg : float
        A's points per game against B.
    ppg_se : float
        Its standard error, over the pairs of duplicate games.
    a_wins, b_wins : float
        Each player's share of the games won.
    a_gammons, a_backgammons, b_gammons, b_backgammons : float
        Each player's gammon (backgammons included) and backgammon rates,
        as shares of all games.
    seconds : float
        Time taken.
    seed : object
        The seed given.
    records : list of GameRecord or None
        Every game, with ``record=True`` (for ``write_mat``).

    Examples
    --------
    >>> import backgammon as bg
    >>> r = bg.duel("pubeval", "random", games=20, seed=1, workers=1)
    >>> r.games, r.ppg > 0, 0 <= r.a_wins <= 1
    (20, True, True)
    """

    a: str
    b: str
    games: int
    ppg: float
    ppg_se: float
    a_wins: float
    a_gammons: float
    a_backgammons: float
    b_gammons: float
    b_backgammons: float
    seconds: float
    seed: object = None
    records: list | None = field(default=None, repr=False, compare=False)

    @property
    def b_wins(self) -> float:
        return 1.0 - self.a_wins

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("records")
        d["b_wins"] = self.b_wins
        d["games_per_second"] = self.games / self.seconds if self.seconds > 0 else math.inf
        return d


class DuelInterrupted(KeyboardInterrupt):
    """Ctrl-C during a duel (a ``KeyboardInterrupt``).

    Attributes
    ----------
    partial : DuelResult or None
        The result of the games finished before it, None when none had.

    Examples
    --------
    >>> issubclass(DuelInterrupted, KeyboardInterrupt)
    True
    """

    def __init__(self, partial: DuelResult | None):
        super().__init__("duel interrupted")
        self.partial = partial


def play_pairs(a: Player, b: Player, seed: np.random.SeedSequence, pairs: int, record: bool = False):
    """Play pairs of duplicate games between two players, in lockstep.

    The kernel of :func:`duel`: both games of a pair throw the same dice,
    game ``2k`` with A moving first and ``2k + 1`` with B first.

    Parameters
    ----------
    a, b : Player
        The players.
    seed : numpy.random.SeedSequence
        The dice's seed.
    pairs : int
        Pairs to play.
    record : bool, default False
        Keep every game as a :class:`GameRecord`.

    Returns
    -------
    rows : numpy.ndarray
        (2 * pairs, 2) int64: the pair and A's points (+1, +2, +3 when A
        won a single game, a gammon or a backgammon; negative when B did).
    records : list of GameRecord or None
        The games, with ``record``.

    Examples
    --------
    >>> import numpy as np
    >>> from backgammon.players import player
    >>> seed = np.random.SeedSequence(1)
    >>> rows, _ = play_pairs(player("pubeval"), player("random"), seed, 2)
    >>> rows.shape, rows[:, 0].tolist()
    ((4, 2), [0, 0, 1, 1])
    """
    instance("a", a, Player, "backgammon.Player")
    instance("b", b, Player, "backgammon.Player")
    seed = seed_sequence(seed)
    # Beyond this the dice's array would not fit in int64 bytes (numpy's "array is too big").
    pairs = integer("pairs", pairs, low=0, high=np.iinfo(np.int64).max // (2 * _DICE_BLOCK))
    record = flag("record", record)
    rng = np.random.Generator(np.random.PCG64(seed))
    n = 2 * pairs
    pair = np.arange(n) // 2
    b_first = (np.arange(n) % 2).astype(np.int8)         # 0: A moves first
    openings = OPENING_ROLLS[rng.integers(0, len(OPENING_ROLLS), size=pairs)]
    dice = rng.integers(1, 7, size=(pairs, _DICE_BLOCK, 2), dtype=np.uint8)
    dice[:, 0] = openings
    # The one lockstep loop; its turn 0 is each game's first mover.  No game restarts.
    lanes = Lanes(Position.initial().array, n, games=n)
    result = np.zeros(n, dtype=np.int64)             # A's points
    counted = tally()                                # games finished, for the progress bar
    rolls_kept: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    plays_kept: list[list[str]] = [[] for _ in range(n)]

    def rolls(rows):
        # Both games of a pair throw the same dice; every game is at the same ply.
        nonlocal dice
        ply = int(lanes.ply[rows[0]])
        if ply >= dice.shape[1]:
            dice = np.concatenate([dice, rng.integers(1, 7, size=(pairs, _DICE_BLOCK, 2), dtype=np.uint8)], axis=1)
        return np.ascontiguousarray(dice[pair[rows], ply])

    def kept(rows, rolled, moves, picked):
        for k, g in enumerate(rows):
            steps = [tuple(int(v) for v in s) for s in moves[picked[k]] if s[0] >= 0]
            rolls_kept[g].append((int(rolled[k, 0]), int(rolled[k, 1])))
            plays_kept[g].append(format_steps(steps))

    def ended(done, results):
        # Results are the first mover's: A's points by who moved first.
        kind = 1 + (results[:, 1] + results[:, 3] > 0) + (results[:, 2] + results[:, 4] > 0)
        first_won = results[:, 0] > 0.5
        result[done] = np.where(first_won != b_first[done].astype(bool), 1, -1) * kind
        counted[0] += len(done)
        lanes.live[done] = False

    lanes.run((a, b), ended, rolls=rolls, sides=lambda rows, turn: turn ^ b_first[rows],
              record=kept if record else None)
    rows = np.column_stack([pair, result])
    records = None
    if record:
        records = [GameRecord(0 if not b_first[g] else 1, rolls_kept[g], plays_kept[g],
                              0 if result[g] > 0 else 1, int(abs(result[g]))) for g in range(n)]
    return rows, records


def play_match(players, length: int, *, seed=None, games: int | None = None, rules=None):
    """Play a match between two players, with the cube.

    Each player makes its own plays and cube decisions: it doubles when
    its ``cube_action`` says so, and the other takes, passes or (money
    play with ``rules.beavers``, RULES 7.5) beavers by its own; a beaver
    is accepted (the doubler, who judged the double right, never passes
    or raccoons it, as the web game's computer).
    In a match each chooses its plays at the cube and score
    (:meth:`Player.choose_in <backgammon.players.Player.choose_in>`: by
    match equity for the players that search an evaluator, as gnubg); in
    money play as :meth:`~backgammon.players.Player.choose`.  Same seed,
    same match.

    Parameters
    ----------
    players : pair of str or Player
        The two players (specs or :class:`~backgammon.players.Player`);
        the first is player 0.
    length : int
        The match length in points; 0 for a money session.
    seed : int or numpy.random.SeedSequence, optional
        Seeds the dice and the players.
    games : int, optional
        Stop after this many games (needed for a money session).
    rules : Rules, optional
        The rules options.

    Returns
    -------
    Match
        The match played, to analyse (:func:`~backgammon.analysis.analyse`)
        or write (``write_mat``).

    Raises
    ------
    ValueError
        A money session (``length`` 0) without ``games``, or a bad value.
    TypeError
        ``players`` not a pair.

    Examples
    --------
    >>> import backgammon as bg
    >>> m = bg.play_match(["pubeval", "net"], 1, seed=3)
    >>> m.is_over(), len(m.games) >= 1
    (True, True)
    """
    from .match import Match
    from .game import Phase
    length = integer("length", length, low=0)
    if length == 0 and games is None:
        raise ValueError("games: a money session needs the number of games")
    if games is not None:
        games = integer("games", games, low=1)
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise TypeError("players must be a pair of player specs or Players")
    seq = seed_sequence(seed)
    s0, s1, s2 = seq.spawn(3)
    sides = [p if isinstance(p, Player) else player(p, seed=s) for p, s in zip(players, (s0, s1))]
    match = Match(length, seed=s2, **({} if rules is None else {"rules": rules}))
    played = 0
    while not match.is_over() and (games is None or played < games):
        g = match.new_game()
        while not g.is_over():
            if g.phase is Phase.OPENING:
                g.roll()
                continue
            me = int(g.on_roll or 0)             # someone is on roll once the opening is rolled
            if g.phase is Phase.PLAY:
                g.play(sides[me].choose_in(g))     # at a match score, by match equity
                continue
            # The state is asked only of a side that may double (most turns of a turned cube may not).
            state = g.match_state() if g.can_double() else None
            if state is not None and sides[me].cube_action(g.position, state, g.rules).should_double:
                g.double()
                # ``take`` is "take", "pass" or "beaver"; the game says whether a
                # beaver is allowed (RULES 7.5: money play, the rules' count, the cube limit).
                answer = sides[1 - me].cube_action(g.position, state, g.rules).take
                if answer == "beaver" and "beaver" in g.legal_actions():
                    g.beaver()
                    g.take()                     # the doubler accepts the beaver
                elif answer != "pass":
                    g.take()
                else:
                    g.drop()
            else:
                g.roll()
        played += 1
    return match


def _run_chunk(task):
    a_spec, b_spec, seed, pairs, record, alone = task
    a_seed, b_seed, dice_seed = seed.spawn(3)
    # Players made here from specs are closed here; Player objects belong to the caller.
    a = player(a_spec, seed=a_seed)
    b = player(b_spec, seed=b_seed)
    for made, given in ((a, a_spec), (b, b_spec)):
        if alone and made is not given and isinstance(made, NetPlayer):
            made.threads = 1       # one of several worker processes: the cores are taken
    try:
        return play_pairs(a, b, dice_seed, pairs, record)
    finally:
        for made, given in ((a, a_spec), (b, b_spec)):
            if made is not given:
                made.close()


def _summary(a: str, b: str, rows: np.ndarray, seconds: float, seed, records=None) -> DuelResult:
    games = len(rows)
    points = rows[:, 1].astype(float)
    pair_means = points.reshape(-1, 2).mean(axis=1)
    se = float(pair_means.std(ddof=1) / math.sqrt(len(pair_means))) if len(pair_means) > 1 else math.nan
    kind = rows[:, 1]
    return DuelResult(a, b, games, float(points.mean()), se, float((kind > 0).mean()), float((kind >= 2).mean()),
                      float((kind == 3).mean()), float((kind <= -2).mean()), float((kind == -3).mean()),
                      seconds, seed, records)


def duel(a, b, *, games: int = 1000, seed=None, workers: int | None = None, executor: Executor | None = None,
         progress: bool = False, record: bool = False) -> DuelResult:
    """Compare two players over cubeless money games with duplicate dice.

    Every dice sequence is played twice, each player moving first once,
    so the luck of the dice cancels out of the difference.

    Parameters
    ----------
    a, b : str, Player or native evaluator
        The players: specs such as ``"net:1"``, ``"pubeval"`` or
        ``"gnubg"`` (see :func:`backgammon.player`), or Player objects
        (these play in this process; specs can go to worker processes).
        A native evaluator (docs/cython-api.md) plays as its 0-ply
        player, choosing in the kernel with its pruner.
    games : int, default 1000
        Games to play, an even number.
    seed : int or numpy.random.SeedSequence, optional
        Same seed, same games, on any number of workers.
    workers : int, optional
        Local processes; default all cores.
    executor : concurrent.futures.Executor, optional
        Runs the chunks instead (a Dask client's, for one).
    progress : bool, default False
        Show a progress bar.
    record : bool, default False
        Keep every game in the result (for ``.mat`` files).

    Returns
    -------
    DuelResult
        A's points per game against B, with the rates.

    Raises
    ------
    ValueError
        An odd ``games`` or fewer than 2, an unknown player spec.
    TypeError
        A player that is neither a spec nor a Player.
    DuelInterrupted
        Ctrl-C, with the games finished so far.

    See Also
    --------
    play_match : a match with the cube between two players.
    backgammon.players.player : the player specs.

    Examples
    --------
    >>> r = duel("pubeval", "random", games=20, seed=1, workers=1)
    >>> f"{r.ppg:+.2f} +- {r.ppg_se:.2f}", r.a_wins
    ('+2.60 +- 0.16', 1.0)
    """
    games = integer("games", games, low=2)
    if games % 2:
        raise ValueError(f"games must be even (pairs of duplicate games), not {games}")
    record = flag("record", record)
    progress = flag("progress", progress)
    if workers is not None:
        workers = integer("workers", workers, low=1)
    if executor is not None:
        instance("executor", executor, Executor, "concurrent.futures.Executor")
    names = []
    if hasattr(a, "__backgammon_evaluator__"):
        a = player(a, name="a")            # a native evaluator: its 0-ply player, in the kernel
    if hasattr(b, "__backgammon_evaluator__"):
        b = player(b, name="b")
    for name, p in (("a", a), ("b", b)):
        if isinstance(p, Player):
            names.append(p.spec)
        elif isinstance(p, str):
            player(p, name=name).close()         # a bad spec fails here, not in a worker
            names.append(p)
        else:
            raise TypeError(f"{name} must be a player spec such as 'net:1', a Player or a native evaluator, "
                            f"not {type(p).__name__}")
    root = seed_sequence(seed)
    pairs = games // 2
    n_chunks = -(-pairs // PAIRS_PER_CHUNK)
    objects = isinstance(a, Player) or isinstance(b, Player)
    in_process = objects or (workers == 1 and executor is None)
    # The chunks and their seeds are made as they are run, so a duel of any
    # length starts at once; root.spawn(1) chunk by chunk gives the children
    # root.spawn(n_chunks) gives.
    tasks = ((a, b, root.spawn(1)[0], min(PAIRS_PER_CHUNK, pairs - k), record, not in_process)
             for k in range(0, pairs, PAIRS_PER_CHUNK))
    sizes = (2 * min(PAIRS_PER_CHUNK, pairs - k) for k in range(0, pairs, PAIRS_PER_CHUNK))
    t0 = time.perf_counter()
    try:
        parts = run_chunks(_run_chunk, tasks, sizes, workers=1 if objects else workers,
                           executor=None if objects else executor, progress=progress, unit="game",
                           count=n_chunks, total=2 * pairs)
    except Interrupted as stop:
        partial = None
        if stop.done:
            rows = np.concatenate([r for r, _ in stop.done])
            partial = _summary(names[0], names[1], rows, time.perf_counter() - t0, seed)
        raise DuelInterrupted(partial) from None
    rows = np.concatenate([r for r, _ in parts])
    records = [g for _, rec in parts for g in rec] if record else None
    return _summary(names[0], names[1], rows, time.perf_counter() - t0, seed, records)
