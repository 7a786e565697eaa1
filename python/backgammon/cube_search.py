"""gnubg's n-ply cubeful search for cube decisions (RULES 7, 8).

At ``ply`` > 0 a cube decision is not Janowski's model on searched
cubeless chances but, as gnubg's, a search on cubeful values: no double
and double/take are each the mean over the 21 rolls of the value, for the
side that rolled, of its best play (the best at 0-ply for that cube
state), that position valued one ply less deep with the other side's cube
options; at the leaves the model (:mod:`backgammon.janowski`).  Values are
kept in points (money) or match winning chances (match), for the side on
roll.
"""
from __future__ import annotations

import numpy as np

from . import _board
from .doubling import may_double
from .janowski import cube_values, efficiencies, equities, exact_where_known, finished_value, values_after_play
from .position import Position
from .rules import Rules
from .scoring import MatchValues, default_met, money_value

__all__ = ["searched", "rank_plays", "play_values", "rank_batch", "HINT_FILTER", "ANALYSIS_FILTER", "play_order", "best_plays", "choose_plays"]


def _turned(state, cube: int):
    """The state after the side on roll doubles to ``cube`` and is taken."""
    return state.replace(cube_value=cube, cube_owner=1 - state.on_roll)


def _to_move(state, mover: int):
    return state.replace(on_roll=mover, turn=mover, dice=(0, 0), double_offered=False, resignation=0)


class _Search:
    def __init__(self, rules: Rules, met, ev):
        self.rules, self.ev = rules, ev
        self.met = met if met is not None else default_met()

    def _static(self, boards, chances, state, full: bool, x=None):
        """Values for the side on roll at 0-ply: with its cube option when
        ``full``, else rolling without doubling (points or MWC); ``x`` the
        boards' cube efficiencies when known."""
        x = efficiencies(boards) if x is None else x
        if full:
            v, m = cube_values(chances, boards, state, self.rules, met=self.met, efficiency=x)
            return m if state.match_length else v * state.cube_value
        nd, _, _, mwc = equities(chances, x, state, self.rules, self.met)
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

    def rolling(self, boards, states, ply: int):
        """(n, len(states)) values for the side on roll of each board of
        rolling without doubling, at each cube state, searched ``ply`` deep."""
        from .batch import legal_positions
        from .dice import ROLLS
        from .evaluator import chances as chances_of
        n, m = len(boards), len(states)
        if ply == 0:
            p = chances_of(self.ev, boards, 0)
            x = efficiencies(boards)
            return np.stack([self._static(boards, p, s, False, x) for s in states], axis=1)
        rolls = np.array([(r.die1, r.die2) for r in ROLLS], dtype=np.uint8)
        weights = np.array([1.0 if r.die1 == r.die2 else 2.0 for r in ROLLS]) / 36.0
        pairs = np.repeat(np.ascontiguousarray(boards), len(rolls), axis=0)
        offsets, children = legal_positions(pairs, np.tile(rolls, (n, 1)), validate=False, threads=1)
        children = np.ascontiguousarray(children)
        over = _board.results(children)[0] == 0       # row 0, the side that just played, is off
        live = np.flatnonzero(~over)
        p = np.zeros((len(children), 5))
        if len(live):
            p[live] = chances_of(self.ev, children[live], 0)
        x = efficiencies(children[live]) if len(live) else None
        starts = offsets[:-1].astype(np.int64)
        segment = np.repeat(np.arange(len(pairs)), np.diff(offsets))
        chosen = []                                   # per state: (after, each roll's best play, its 0-ply value)
        for s in states:
            mover = s.on_roll
            after = _to_move(s, 1 - mover)
            # 0-ply choice of each roll's play, for this cube state.
            quick = np.empty(len(children))
            if len(live):
                q = self._static(children[live], p[live], after, True, x)
                quick[live] = (1.0 - q) if s.match_length else -q
            for i in np.flatnonzero(over):
                quick[i] = self._won(children[i], s, mover)
            # Each roll's best play: the first index reaching its segment's maximum.
            top = np.maximum.reduceat(quick, starts)
            hit = np.flatnonzero(quick == top[segment])
            best = hit[np.searchsorted(segment[hit], np.arange(len(pairs)))]
            chosen.append((after, best, quick[best]))
        if ply > 1:
            # One search one ply less deep of every chosen play that does not end the game, at every
            # state's cube at once (the cube states mostly choose the same plays).
            deeper = np.unique(np.concatenate([best[~over[best]] for _, best, _ in chosen]))
            if len(deeper):
                v = self.full(children[deeper], [after for after, _, _ in chosen], ply - 1)
        out = np.zeros((n, m))
        for j, (s, (_, best, value)) in enumerate(zip(states, chosen)):
            if ply > 1:
                value = value.copy()
                rest = np.flatnonzero(~over[best])
                if len(rest):
                    w = v[np.searchsorted(deeper, best[rest]), j]
                    value[rest] = (1.0 - w) if s.match_length else -w
            out[:, j] = (value.reshape(n, len(rolls)) * weights).sum(axis=1)
        return out

    def full(self, boards, states, ply: int):
        """(n, len(states)) values for the side on roll with its cube
        option: doubling when double/take and double/pass both beat no
        double, the other side then answering for the least."""
        if ply == 0:
            from .evaluator import chances
            p = chances(self.ev, np.ascontiguousarray(boards), 0)
            x = efficiencies(boards)
            return np.stack([self._static(boards, p, s, True, x) for s in states], axis=1)
        extended: list = []
        spots: list[int] = []
        for s in states:
            spots.append(len(extended))
            extended.append(s)
            if may_double(s, self.rules):
                extended.append(_turned(s, 2 * s.cube_value))
        values = self.rolling(boards, extended, ply)
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
        return out

    def _pass_value(self, s):
        if not s.match_length:
            return float(s.cube_value)
        return MatchValues.of_state(s, self.met).after(s.cube_value, 0)


def searched(boards: np.ndarray, state, rules: Rules, ply: int, ev, met):
    """(no double, double/take, double/pass, mwc or None) by the cubeful
    search of ``boards`` (n, 2, 25) at one state, in cube_decision's units:
    arrays (n,) (double/take None where no doubled state can be searched;
    double/pass a float; mwc the three MWC, arrays or None)."""
    search = _Search(rules, met, ev)
    states = [state]
    if not (state.match_length and state.crawford):         # no doubled state in the Crawford game
        states.append(_turned(state, 2 * state.cube_value))
    values = search.rolling(np.ascontiguousarray(boards, dtype=np.uint8), states, ply)
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
    children = np.ascontiguousarray(children, dtype=np.uint8)
    return rank_batch(evaluator, np.array([0, len(children)], dtype=np.int64), children, ply, state, rules, met,
                      keep=keep)


def play_values(evaluator, children: np.ndarray, ply: int, state, rules: Rules, met=None):
    """The mover's cubeless chances (n, 5), cubeful values (n,) and match
    winning chances (n,) or None of the positions after its plays
    (``children``, the next mover's view; the mover ``state.on_roll``),
    searched ``ply`` deep as gnubg values a play: at 0-ply the cube model
    on the chances (``janowski.values_after_play``); deeper, the cubeful
    search of the opponent's position with its cube options (the mean
    over its 21 rolls of its best play, valued one ply less deep with the
    mover's cube options, the model at the leaves), so the cube is live at
    every ply as in gnubg's ``EvaluatePositionCubeful``.  The chances are
    the cubeless chances at the same depth (:func:`evaluator.chances`).

    >>> import backgammon as bg
    >>> from backgammon.evaluator import as_evaluator
    >>> st = bg.MatchState.from_match_id("cAm7AAAAAAAE")          # 0-0 to 5, the cube centred
    >>> plays = bg.Position.from_id("jLfBBSDM5uCABQ").legal_plays((6, 6))
    >>> probs, values, mwc = play_values(as_evaluator(), plays.positions[:1], 1, st, st.game_rules(None))
    >>> probs.shape, values.shape, mwc.shape
    ((1, 5), (1,), (1,))
    """
    from .evaluator import chances, flip
    children = np.ascontiguousarray(children, dtype=np.uint8)
    met = met if met is not None else default_met()
    mover = state.on_roll
    probs = flip(chances(evaluator, children, ply))
    values, mwc = values_after_play(children, flip(probs), state, rules, mover, met)
    if ply == 0 or not len(children):
        return probs, values, mwc
    # A play that bore off the last checker keeps its score (values_after_play); the others are searched.
    live = np.flatnonzero(~(_board.results(children)[0] == 0))
    if len(live):
        v = _Search(rules, met, evaluator).full(children[live], [_to_move(state, 1 - mover)], ply)[:, 0]
        if state.match_length:
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


def rank_batch(evaluator, offsets: np.ndarray, children: np.ndarray, ply: int, state, rules: Rules, met=None, *,
               keep=HINT_FILTER):
    """:func:`rank_plays` for many rolls at one cube state and score: the
    plays of roll ``i`` are ``children[offsets[i]:offsets[i + 1]]`` (CSR,
    as ``batch.legal_positions`` gives them), each roll's plays filtered
    on their own; one evaluation per ply for all of them."""
    from .evaluator import chances, flip
    mover = state.on_roll
    children = np.ascontiguousarray(children, dtype=np.uint8)
    groups = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    probs = flip(chances(evaluator, children, 0))
    depth = np.zeros(len(children), dtype=np.int64)
    values, mwc = values_after_play(children, flip(probs), state, rules, mover, met)
    last = 0
    for level, (most, within) in _levels(ply, tuple(keep)):
        here = np.flatnonzero(depth == last)
        counts = np.bincount(groups[here], minlength=len(offsets) - 1)
        here = here[counts[groups[here]] > 1]         # a roll with one play left is decided
        if not len(here):
            break
        order, rank, best = _order(groups, values, here)
        go = order[(rank < most) & (values[order] >= best - within)]
        probs[go], values[go], m = play_values(evaluator, children[go], level, state, rules, met)
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
    offsets, children = legal_positions(np.ascontiguousarray(boards, dtype=np.uint8),
                                        np.ascontiguousarray(rolls, dtype=np.uint8), validate=False, threads=1)
    offsets = np.asarray(offsets, dtype=np.int64)
    if (np.diff(offsets) == 0).any():
        raise ValueError("boards: a game is over, there is no play to choose")
    probs, depth, values, _ = rank_batch(evaluator, offsets, children, ply, state, rules, met)
    return best_plays(offsets, depth, values, probs).astype(np.int64)
