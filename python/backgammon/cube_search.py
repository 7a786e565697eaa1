"""gnubg's n-ply cubeful search for cube decisions (RULES 7, 8).

At ``ply`` > 0 a cube decision is not Janowski's model on searched
cubeless chances but, as gnubg's, a search on cubeful values: no double
and double/take are each the mean over the 21 rolls of the value, for the
side that rolled, of its best play (the best at 0-ply, cubeful, at the
cube as it is, among the plays gnubg's pruning keeps: one tree for every
cube state), that position valued one ply less deep with the other side's
cube options; at the leaves the model (:mod:`backgammon.janowski`).  Values are
kept in points (money) or match winning chances (match), for the side on
roll.
"""
from __future__ import annotations

import numpy as np

from . import _board
from ._validate import instance, integer, integers, number
from .doubling import may_double
from .janowski import cube_values, efficiencies, equities, exact_where_known, finished_value, values_after_play
from .position import Position
from .rules import Rules
from .scoring import MatchValues, default_met, money_value

__all__ = ["searched", "rank_plays", "play_values", "rank_batch", "HINT_FILTER", "ANALYSIS_FILTER", "PRUNE_MOVES",
           "play_order", "best_plays", "choose_plays"]


def _turned(state, cube: int):
    """The state after the side on roll doubles to ``cube`` and is taken."""
    return state.replace(cube_value=cube, cube_owner=1 - state.on_roll)


def _to_move(state, mover: int):
    return state.replace(on_roll=mover, turn=mover, dice=(0, 0), double_offered=False, resignation=0)


#: gnubg's pruning inside a cubeful search (eval.c ``FindBestMoveInEval``, ``PRUNE_MOVES``): a roll
#: with more plays than this, every one leading to the same class of position, has only the best
#: this many by its pruning network valued to choose its play.
PRUNE_MOVES = 10


class _Search:
    """gnubg's cubeful search (eval.c ``EvaluatePositionCubeful4``): one
    tree for every cube state, each roll's play chosen once, by the 0-ply
    cubeful value at the cube of the position searched (the ``chooser``
    state, gnubg's ``pciMove``; the doubled states follow the same plays;
    plays of equal value by their cubeless equity, as gnubg's
    ``ScoreMoves``), among the plays gnubg's pruning keeps; the cubeless
    chances are the mean of the same tree's."""

    def __init__(self, rules: Rules, met, ev):
        from .evaluator import is_kernel
        self.rules, self.ev = rules, ev
        self.met = met if met is not None else default_met()
        self.kernel = is_kernel(ev)

    def _static(self, boards, chances, state, full: bool, x=None):
        """Values for the side on roll at 0-ply: with its cube option when
        ``full``, else rolling without doubling (points or MWC); ``x`` the
        boards' cube efficiencies when known."""
        x = efficiencies(boards) if x is None else x
        if full:
            v, m = cube_values(chances, boards, state, self.rules, met=self.met, efficiency=x)
            return m if state.match_length else v * state.cube_value
        nd, _, _, mwc = equities(chances, x, state, self.rules, self.met, boards)
        if state.match_length:
            return mwc[0]
        nd = nd.copy()
        exact_where_known(boards, state, nd, None)
        return nd * state.cube_value

    def _won(self, board, state, mover: int):
        # The mover bore off its last checker (row 0 of ``board``): what it scores.
        points, mwc = finished_value(Position.from_bytes(board.tobytes(), validate=False), state, self.rules, self.met,
                                    mover)
        return points if mwc is None else mwc

    def _candidates(self, boards):
        """For each (board, roll), the plays valued to choose one (CSR
        offsets over the n * 21, their boards, their 0-ply chances, their
        classes as ``_net.position_classes``)."""
        if self.kernel:
            from . import _net
            return _net.candidates(self.ev, boards, PRUNE_MOVES if self.ev.pruning else 0)
        from . import _net
        from .batch import legal_positions
        from .dice import ROLL_ARRAY
        from .evaluator import exact_or, chances
        pairs = np.repeat(boards, len(ROLL_ARRAY), axis=0)
        offsets, children = legal_positions(pairs, np.tile(ROLL_ARRAY.astype(np.uint8), (len(boards), 1)),
                                            validate=False, threads=1)
        children = np.ascontiguousarray(children)
        return (np.asarray(offsets, dtype=np.int64), children,
                exact_or(lambda b: chances(self.ev, b, 0), children), _net.position_classes(children))

    def rolling(self, boards, states, ply: int, chooser=None):
        """The side on roll's cubeless chances (n, 5) and values (n,
        len(states)) of rolling without doubling, at each cube state (one
        side on roll), searched ``ply`` >= 1 deep; plays chosen at
        ``chooser``'s cube (default the first state)."""
        from .dice import ROLL_PROBABILITIES
        from .evaluator import flip
        chooser = states[0] if chooser is None else chooser
        boards = np.ascontiguousarray(boards, dtype=np.uint8)
        n, m = len(boards), len(states)
        # A board reached by several plays (a transposition) is searched once.
        _, first, again = np.unique(boards.reshape(n, 50).view(np.dtype((np.void, 50))).ravel(), return_index=True,
                                    return_inverse=True)
        if len(first) < n:
            mine, values = self.rolling(boards[first], states, ply, chooser)
            return mine[again.ravel()], values[again.ravel()]
        mover = chooser.on_roll
        offsets, children, p, classes = self._candidates(boards)
        over = classes == 0                           # the side that just played is off
        # Each roll's play: the best at 0-ply, cubeful, at the chooser's cube.
        after = _to_move(chooser, 1 - mover)
        if over.any():
            live = np.flatnonzero(~over)
            x = np.zeros(len(children))
            x[live] = efficiencies(children[live], classes[live])
            quick = np.empty(len(children))
            q = self._static(children[live], p[live], after, True, x[live])
            quick[live] = (1.0 - q) if chooser.match_length else -q
            for i in np.flatnonzero(over):
                quick[i] = self._won(children[i], chooser, mover)
        else:
            x = efficiencies(children, classes)
            q = self._static(children, p, after, True, x)
            quick = (1.0 - q) if chooser.match_length else -q
        # Plays of equal cubeful value (every one leaves a pass, say) go by the mover's cubeless
        # equity, as gnubg's ScoreMoves breaks ties (its rScore2), then by the generator's order.
        starts = offsets[:-1]
        segment = np.repeat(np.arange(len(starts)), np.diff(offsets))
        best = play_order(np.zeros(len(quick), dtype=np.int64), quick, flip(p), segment)[starts]
        # The chosen plays valued at every state, one ply less deep (the leaves: the cube model on
        # the chances the choice evaluated).
        done = over[best]
        rest = np.flatnonzero(~done)
        nexts = [_to_move(s, 1 - mover) for s in states]
        chances = p[best]
        values = np.empty((len(best), m))
        if len(rest):
            kids = children[best[rest]]
            if ply > 1:
                chances[rest], v = self.full(kids, nexts, ply - 1, chooser=after)
            else:
                v = np.stack([self._static(kids, chances[rest], s, True, x[best[rest]]) for s in nexts], axis=1)
            values[rest] = (1.0 - v) if chooser.match_length else -v
        for i in np.flatnonzero(done):
            values[i] = [self._won(children[best[i]], s, mover) for s in states]
        w = np.asarray(ROLL_PROBABILITIES, dtype=np.float64)
        mine = np.einsum("nrk,r->nk", flip(chances).reshape(n, -1, 5), w)
        return mine, np.einsum("nrs,r->ns", values.reshape(n, -1, m), w)

    def full(self, boards, states, ply: int, chooser=None):
        """The side on roll's cubeless chances (n, 5) and values (n,
        len(states)) with its cube option: doubling when double/take and
        double/pass both beat no double, the other side then answering for
        the least; plays chosen at ``chooser``'s cube (default the first
        state)."""
        chooser = states[0] if chooser is None else chooser
        if ply == 0:
            from .evaluator import chances
            p = chances(self.ev, np.ascontiguousarray(boards), 0)
            x = efficiencies(boards)
            return p, np.stack([self._static(boards, p, s, True, x) for s in states], axis=1)
        extended: list = []
        spots: list[int] = []
        for s in states:
            spots.append(len(extended))
            extended.append(s)
            if may_double(s, self.rules):
                extended.append(_turned(s, 2 * s.cube_value))
        p, values = self.rolling(boards, extended, ply, chooser)
        out = np.empty((len(boards), len(states)))
        for j, s in enumerate(states):
            k = spots[j]
            nd = values[:, k]
            if not may_double(s, self.rules):
                out[:, j] = nd
                continue
            dt = values[:, k + 1]
            dp = self._pass_value(s)
            doubles = (dt >= nd) & (dp >= nd)
            out[:, j] = np.where(doubles, np.minimum(dt, dp), nd)
        return p, out

    def _pass_value(self, s):
        if not s.match_length:
            return float(s.cube_value)
        return MatchValues.of_state(s, self.met).after(s.cube_value, 0)


def _checked(evaluator, boards, ply, state, rules, met, name="children"):
    """The public entries' arguments checked once: (evaluator, boards as
    validated uint8, ply); TypeError / ValueError naming the parameter."""
    from .batch import validate_boards
    from .evaluator import MAX_PLY, as_evaluator
    from .matchid import MatchState
    from .met import MatchEquityTable
    if type(state) is not MatchState:
        instance("state", state, MatchState, "backgammon.MatchState")
    if type(rules) is not Rules:
        instance("rules", rules, Rules, "backgammon.Rules")
    if met is not None and type(met) is not MatchEquityTable:
        instance("met", met, MatchEquityTable, "backgammon.MatchEquityTable")
    if type(ply) is not int or not 0 <= ply <= MAX_PLY:
        ply = integer("ply", ply, low=0, high=MAX_PLY)
    if evaluator is None:
        raise TypeError("evaluator must be an evaluator (evaluator.as_evaluator gives one), not None")
    try:
        boards = validate_boards(boards)
    except ValueError as e:
        raise type(e)(f"{name}: {e}") from None
    return as_evaluator(evaluator), boards, ply


def searched(boards: np.ndarray, state, rules: Rules, ply: int, ev, met):
    """(no double, double/take, double/pass, mwc or None) by the cubeful
    search of ``boards`` (n, 2, 25) at one state, in cube_decision's units:
    arrays (n,) (double/take None where no doubled state can be searched;
    double/pass a float; mwc the three MWC, arrays or None)."""
    ev, boards, ply = _checked(ev, boards, ply, state, rules, met, "boards")
    search = _Search(rules, met, ev)
    states = [state]
    if not (state.match_length and state.crawford):         # no doubled state in the Crawford game
        states.append(_turned(state, 2 * state.cube_value))
    _, values = search.rolling(np.ascontiguousarray(boards, dtype=np.uint8), states, ply)
    nd, dt = values[:, 0], (values[:, 1] if len(states) > 1 else None)
    dp = float(search._pass_value(state))
    if not state.match_length:
        c = state.cube_value
        return nd / c, None if dt is None else dt / c, dp / c, None
    match_values = MatchValues.of_state(state, search.met)
    norm = [None if v is None else match_values.normalised(v, state.cube_value) for v in (nd, dt, dp)]
    return norm[0], norm[1], norm[2], (nd, dt, dp)


#: gnubg's move filters (keep, within) from 0-ply: its hint's ("normal": the 8 best within 0.16)
#: and its analysis's ("large": the 16 best within 0.32, ``show analysis`` in gnubg 1.07).
HINT_FILTER = (8, 0.16)
ANALYSIS_FILTER = (16, 0.32)


def rank_plays(evaluator, children: np.ndarray, ply: int, state, rules: Rules, met=None, *, keep=HINT_FILTER):
    """The plays of one roll at a cube and score, as gnubg ranks them: by
    the cubeful value for the side that played (``state.on_roll``) of the
    position after each (``children``, the next mover's view), the
    opponent then holding its cube options (``janowski.values_after_play``:
    normalised match equity in a match, so at double match point a gammon
    is worth nothing; equity per unit of the cube in money play).  gnubg's
    move filter: every play at 0-ply, then the best ``keep`` (how many,
    within what of the best; default gnubg's hint's, :data:`HINT_FILTER`;
    its analysis's is :data:`ANALYSIS_FILTER`) searched ``ply`` deep at
    once (gnubg's filters for 1 and 2 plies skip the plies between); at 1 and 2 plies the value is
    gnubg's cubeful search (:func:`play_values`), not the cube model on
    searched chances.  Returns the mover's cubeless chances (m, 5), the
    ply each play was searched to (m,), the values (m,) and the match
    winning chances (m,) (None in money play).  The batch of one of
    :func:`rank_batch`.
    """
    evaluator, children, ply = _checked(evaluator, children, ply, state, rules, met)
    return _rank_batch(evaluator, np.array([0, len(children)], dtype=np.int64), children, ply, state, rules, met,
                       _keep(keep))


def play_values(evaluator, children: np.ndarray, ply: int, state, rules: Rules, met=None):
    """The mover's cubeless chances (n, 5), cubeful values (n,) and match
    winning chances (n,) or None of the positions after its plays
    (``children``, the next mover's view; the mover ``state.on_roll``),
    searched ``ply`` deep as gnubg values a play: at 0-ply the cube model
    on the chances (``janowski.values_after_play``); deeper, the cubeful
    search of the opponent's position with its cube options (the mean
    over its 21 rolls of its best play, valued one ply less deep with the
    mover's cube options, the model at the leaves), so the cube is live at
    every ply as in gnubg's ``EvaluatePositionCubeful4``: one tree for
    every cube state, each roll's play chosen at 0-ply by its cubeful value
    at the cube as it is, among the plays gnubg's pruning keeps (the best
    :data:`PRUNE_MOVES` by the pruning network where a roll has more, all
    leading to contact); the chances are the cubeless chances of the same
    tree, as gnubg's.

    >>> import backgammon as bg
    >>> from backgammon.evaluator import as_evaluator
    >>> st = bg.MatchState.from_match_id("cAm7AAAAAAAE")          # 0-0 to 5, the cube centred
    >>> plays = bg.Position.from_id("jLfBBSDM5uCABQ").legal_plays((6, 6))
    >>> probs, values, mwc = play_values(as_evaluator(), plays.positions[:1], 1, st, st.game_rules(None))
    >>> probs.shape, values.shape, mwc.shape
    ((1, 5), (1,), (1,))
    """
    evaluator, children, ply = _checked(evaluator, children, ply, state, rules, met)
    return _play_values(evaluator, children, ply, state, rules, met)


def _play_values(evaluator, children: np.ndarray, ply: int, state, rules: Rules, met=None):
    from .evaluator import chances, flip
    met = met if met is not None else default_met()
    mover = state.on_roll
    if ply == 0 or not len(children):
        probs = flip(chances(evaluator, children, 0))
        values, mwc = values_after_play(children, flip(probs), state, rules, mover, met)
        return probs, values, mwc
    # A play that bore off the last checker keeps its score (values_after_play); the others are searched.
    over = _board.results(children)[0] == 0
    probs = np.zeros((len(children), 5))
    values = np.zeros(len(children))
    mwc = np.zeros(len(children)) if state.match_length else None
    if over.any():
        probs[over] = flip(chances(evaluator, children[over], 0))
        v, m = values_after_play(children[over], flip(probs[over]), state, rules, mover, met)
        values[over] = v
        if mwc is not None:
            mwc[over] = m
    live = np.flatnonzero(~over)
    if len(live):
        p, v = _Search(rules, met, evaluator).full(children[live], [_to_move(state, 1 - mover)], ply)
        probs[live] = flip(p)
        v = v[:, 0]
        if mwc is not None:                           # a match
            m = 1.0 - v
            values[live] = MatchValues.of_state(state, met, mover).normalised(m, state.cube_value)
            mwc[live] = m
        else:
            values[live] = -v / state.cube_value
    return probs, values, mwc


def _order(groups: np.ndarray, values: np.ndarray, here: np.ndarray):
    # ``here`` sorted by group, best value first within each, and each row's rank in its group.
    order = here[np.lexsort((-values[here], groups[here]))]
    g = groups[order]
    first = np.r_[True, g[1:] != g[:-1]]
    starts = np.flatnonzero(first)
    rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    best = np.repeat(values[order[starts]], np.diff(np.r_[starts, len(order)]))
    return order, rank, best


def _levels(ply: int, keep) -> list:
    """gnubg's move filters for a ``ply``-deep search: (the ply searched
    next, (keep, within) of the plays searched last); 1 and 2 plies go from
    0-ply straight to ``ply`` (gnubg skips 1-ply at 2), 3 plies by 2."""
    from .evaluator import KEEP
    if ply <= 0:
        return []
    if ply <= 2:
        return [(ply, keep)]
    return [(2, keep), (ply, KEEP[1])]


def _keep(keep) -> tuple:
    """A move filter (how many, within what): HINT_FILTER's shape."""
    if not (isinstance(keep, (tuple, list)) and len(keep) == 2):
        raise TypeError(f"keep must be a pair (how many plays, within what equity), not {keep!r:.40}")
    return integer("keep[0]", keep[0], low=0), number("keep[1]", keep[1], low=0)


def rank_batch(evaluator, offsets: np.ndarray, children: np.ndarray, ply: int, state, rules: Rules, met=None, *,
               keep=HINT_FILTER):
    """:func:`rank_plays` for many rolls at one cube state and score: the
    plays of roll ``i`` are ``children[offsets[i]:offsets[i + 1]]`` (CSR,
    as ``batch.legal_positions`` gives them), each roll's plays filtered
    on their own; one evaluation per ply for all of them."""
    evaluator, children, ply = _checked(evaluator, children, ply, state, rules, met)
    offsets = integers("offsets", offsets, shape=(None,), low=0, high=len(children))
    if len(offsets) < 1 or offsets[0] != 0 or offsets[-1] != len(children) or (np.diff(offsets) < 0).any():
        raise ValueError(f"offsets must rise from 0 to len(children) = {len(children)}")
    return _rank_batch(evaluator, offsets, children, ply, state, rules, met, _keep(keep))


def _rank_batch(evaluator, offsets, children, ply, state, rules, met, keep):
    from .evaluator import chances, flip
    mover = state.on_roll
    groups = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    probs = flip(chances(evaluator, children, 0))
    depth = np.zeros(len(children), dtype=np.int64)
    values, mwc = values_after_play(children, flip(probs), state, rules, mover, met)
    last = 0
    for level, (most, within) in _levels(ply, keep):
        here = np.flatnonzero(depth == last)
        counts = np.bincount(groups[here], minlength=len(offsets) - 1)
        here = here[counts[groups[here]] > 1]         # a roll with one play left is decided
        if not len(here):
            break
        order, rank, best = _order(groups, values, here)
        go = order[(rank < most) & (values[order] >= best - within)]
        probs[go], values[go], m = _play_values(evaluator, children[go], level, state, rules, met)
        if mwc is not None:
            mwc[go] = m
        depth[go] = level
        last = level
    return probs, depth, values, mwc


def play_order(depth: np.ndarray, values: np.ndarray, probs: np.ndarray, groups: np.ndarray | None = None):
    """The order of a :func:`rank_batch` ranking, best first (within each
    roll of ``groups``, the rolls in turn): the plays searched deepest,
    by value; plays of equal value by their cubeless money equity (``probs``,
    the mover's chances), so that where the cube makes them equal (every
    play leaves a pass, say) the play is the one cubeless play would make,
    then by the move generator's order."""
    n = len(values)
    groups = np.zeros(n, dtype=np.int64) if groups is None else groups
    return np.lexsort((np.arange(n), -money_value(probs), -np.asarray(values), -np.asarray(depth), groups))


def best_plays(offsets: np.ndarray, depth: np.ndarray, values: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Each roll's chosen play of a :func:`rank_batch` ranking, the first
    of :func:`play_order`; (n,) indices within each roll's plays (the move
    generator's order)."""
    groups = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    order = play_order(depth, values, probs, groups)
    top = order[offsets[:-1]]
    return top - offsets[:-1]


def choose_plays(evaluator, boards: np.ndarray, rolls: np.ndarray, ply: int, state, rules: Rules,
                 met=None) -> np.ndarray:
    """The best play of each (board, roll) at one cube state and score
    (the mover ``state.on_roll``), ranked as :func:`rank_plays` ranks
    them; (n,) int64 indices in the move generator's order."""
    from .batch import legal_positions
    evaluator, boards, ply = _checked(evaluator, boards, ply, state, rules, met, "boards")
    offsets, children = legal_positions(boards, rolls, threads=1)
    offsets = np.asarray(offsets, dtype=np.int64)
    if (np.diff(offsets) == 0).any():
        raise ValueError("boards: a game is over, there is no play to choose")
    probs, depth, values, _ = _rank_batch(evaluator, offsets, children, ply, state, rules, met, HINT_FILTER)
    return best_plays(offsets, depth, values, probs).astype(np.int64)
