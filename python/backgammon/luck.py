"""The luck of a roll (``backgammon analyse``): the value, for the side
that rolled, of the roll that came (its best play at 0-ply, valued with
the cube by :func:`backgammon.cube.values_after_play`) minus the mean over
the rolls that could have come; in equity and, in a match, in match
winning chances, each roll marked lucky or unlucky.

>>> luck_label(0.35)
'lucky'
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .batch import legal_positions
from .cube import values_after_play
from .dice import ROLLS
from .evaluator import chances
from .rules import Rules
from .scoring import equity
from .statistics import LUCK_MARKS, luck_mark

__all__ = ["RollLuck", "roll_luck", "luck_label", "LUCK_THRESHOLDS"]

#: Luck of a roll beyond these (either sign) is lucky, very lucky: gnubg's
#: marks, whose home is :data:`backgammon.statistics.LUCK_MARKS`.
LUCK_THRESHOLDS = LUCK_MARKS


@dataclass(frozen=True)
class RollLuck:
    """The luck of one roll for the side that rolled (see the module), in
    equity and in match winning chances, and its mark.  ``setboard``: the
    roll of a play the rules refused, kept as a set board; gnubg records its
    luck on the set dice but counts it in none of its statistics."""

    game: int
    action: int
    player: int
    roll: tuple
    luck: float
    luck_mwc: float | None
    label: str
    cube: int = 1          # the cube's value at the roll (luck in points is luck x cube)
    setboard: bool = False


def luck_label(luck: float) -> str:
    """The mark of a roll's luck: "", "lucky", "very lucky", "unlucky" or
    "very unlucky", beyond gnubg's marks (:data:`LUCK_THRESHOLDS`; the rule
    is :func:`backgammon.statistics.luck_mark`).

    >>> luck_label(0.1), luck_label(-0.45), luck_label(0.7)
    ('', 'unlucky', 'very lucky')
    """
    return luck_mark(luck)


def roll_luck(game: int, points: list, rules: Rules, ev, met) -> list[RollLuck]:
    """The luck of each roll of game number ``game``, all in one batch:
    the value of the roll that came (its best play at 0-ply) minus the mean
    over the rolls that could have come: the 21 rolls, or for the opening
    the 30 throws, 15 where this side moves first and 15 where the other
    does (as gnubg counts it).  ``points``: (action, player, position,
    dice, state, opening) of each roll; ``ev`` the evaluator, ``met`` the
    match equity table."""
    if not points:
        return []
    rows, rolls, weights, owners, theirs = [], [], [], [], []
    for j, (_, _, pos, dice, _, opening) in enumerate(points):
        table = [(r.die1, r.die2, 2.0 if r.die1 != r.die2 else 1.0, False) for r in ROLLS]
        if opening:
            # The opening position is the same seen by either side.
            table = [(r.die1, r.die2, 2.0, side) for r in ROLLS if r.die1 != r.die2 for side in (False, True)]
        total = sum(t[2] for t in table)
        for hi, lo, w, other in table:
            rows.append(pos.array)
            rolls.append((hi, lo))
            weights.append(w / total)
            owners.append(j)
            theirs.append(other)
        rows.append(pos.array)
        rolls.append((max(dice), min(dice)))
        weights.append(-1.0)                   # the roll that came
        owners.append(j)
        theirs.append(False)
    boards = np.ascontiguousarray(np.stack(rows), dtype=np.uint8)
    offsets, children = legal_positions(boards, np.array(rolls, dtype=np.uint8), threads=1)
    p = np.asarray(chances(ev, np.ascontiguousarray(children), 0), dtype=np.float64)
    mover_equity = -equity(p)
    best_rows = np.array([int(offsets[i]) + int(np.argmax(mover_equity[offsets[i]:offsets[i + 1]]))
                          for i in range(len(boards))])
    out = []
    weights_a, owners_a, theirs_a = np.array(weights), np.array(owners), np.array(theirs)
    for j, (action, me, pos, dice, state, opening) in enumerate(points):
        values, mwc = np.zeros(0), None
        parts = []
        for other in (False, True):
            sel = np.flatnonzero((owners_a == j) & (theirs_a == other))
            if not len(sel):
                continue
            picks = best_rows[sel]
            mover = 1 - me if other else me
            v, m = values_after_play(children[picks], p[picks], state.replace(on_roll=mover, turn=mover), rules,
                                     mover, met)
            if other:                          # the other side's gain is this side's loss
                v = -v
                m = None if m is None else 1.0 - m
            parts.append((weights_a[sel], v, m))
        wt = np.concatenate([q[0] for q in parts])
        values = np.concatenate([q[1] for q in parts])
        came = float(values[wt < 0][0])
        luck = came - float(np.dot(wt[wt >= 0], values[wt >= 0]))
        luck_mwc = None
        if parts[0][2] is not None:
            mwc = np.concatenate([q[2] for q in parts])
            luck_mwc = float(mwc[wt < 0][0] - np.dot(wt[wt >= 0], mwc[wt >= 0]))
        out.append(RollLuck(game, action, me, (int(dice[0]), int(dice[1])), luck, luck_mwc,
                            luck_label(luck), state.cube_value))
    return out
