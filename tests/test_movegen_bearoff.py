"""Non-doubles while bearing off (RULES 3.4, 5.1-5.3): the batch path that
writes results only (bg_home_pair) against the general search and gnubg-nn.

gnubg-nn is a test dependency (the ``test`` extra): these tests fail, not
skip, when it is missing.
"""
import gnubg_nn
import numpy as np

from backgammon import batch

NON_DOUBLES = [(a, b) for a in range(1, 7) for b in range(1, 7) if a > b]


def bearing_off_boards(n: int, seed: int) -> np.ndarray:
    """(n, 2, 25) boards with the side on roll (row 1) all home, or with one
    checker outside on points 7-12; the opponent has blots and points in
    that home board (to hit and to block), the rest of theirs elsewhere."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 2, 25), np.uint8)
    for i in range(n):
        mine = rng.choice(6, size=int(rng.integers(1, 7)), replace=False)
        counts = rng.multinomial(int(rng.integers(1, 16)), np.ones(len(mine)) / len(mine))
        out[i, 1, mine] = counts
        if rng.random() < 0.4 and out[i, 1].sum() < 15:
            out[i, 1, int(rng.integers(6, 12))] = 1
        free = np.flatnonzero(out[i, 1, :12] == 0)          # my indices the opponent may hold
        theirs = rng.choice(free, size=min(int(rng.integers(0, 5)), len(free)), replace=False)
        left = 15
        for s in theirs:
            c = int(rng.choice([1, 1, 2, 3]))
            out[i, 0, 23 - s] = c                           # the opponent's own index
            left -= c
        if rng.random() < 0.2:
            out[i, 0, 24] = 1                                 # one on their bar
            left -= 1
        out[i, 0, 0] = max(left, 0)                           # the rest on their 1 point
    return out


def every_non_double(boards: np.ndarray):
    rolls = np.array(NON_DOUBLES, np.uint8)
    return (np.ascontiguousarray(np.repeat(boards, len(rolls), axis=0)),
            np.ascontiguousarray(np.tile(rolls, (len(boards), 1))))


def test_bearing_off_results_only_match_the_general_search_and_gnubg():
    boards, rolls = every_non_double(bearing_off_boards(3_000, seed=48))
    offsets, children = batch.legal_positions(boards, rolls, mover_view=True)
    # With moves, every such pair goes through the general (checked) search:
    # the same children in the same order, byte for byte.
    offsets2, children2, moves = batch.legal_positions(boards, rolls, mover_view=True, moves=True)
    assert np.array_equal(offsets, offsets2) and np.array_equal(children, children2)
    # The same sets as gnubg-nn, each result once.
    key = gnubg_nn.key_of_board
    for i, (board, (d1, d2)) in enumerate(zip(boards.tolist(), rolls.tolist())):
        theirs = set(gnubg_nn.moves(board, d1, d2)) or {key(board)}
        ours = [key(c) for c in children[offsets[i]:offsets[i + 1]].tolist()]
        assert len(ours) == len(set(ours)) and set(ours) == theirs, (board, d1, d2)
    # What was covered: plays of both dice that bear off two, one or none,
    # hits in the home board, one checker outside, and turns where only one
    # die can be played (left to the general search).
    counts = np.diff(offsets)
    parent = np.repeat(np.arange(len(boards)), counts)
    off = boards[parent, 1].sum(axis=1).astype(int) - children[:, 1].sum(axis=1)
    hit = children[:, 0, 24] > boards[parent, 0, 24]
    used = (moves[:, :, 0] >= 0).sum(axis=1)
    assert (off == 2).sum() > 1000 and (off == 1).sum() > 1000 and (off == 0).sum() > 1000
    assert hit.sum() > 1000
    assert (boards[:, 1, 6:24].sum(axis=1) == 1).sum() > 10_000
    assert (used == 1).sum() > 100 and (used == 2).sum() > 10_000


def test_bearing_off_examples():
    def plays(me, roll, opponent=None):
        # (my checkers by index, the opponent's on the bar) of each result.
        board = np.zeros((1, 2, 25), np.uint8)
        board[0, 1, list(me)] = list(me.values())
        opponent = opponent or {0: 15}
        board[0, 0, list(opponent)] = list(opponent.values())
        offsets, children = batch.legal_positions(board, np.array([roll], np.uint8), mover_view=True)
        return [({int(i): int(c[1, i]) for i in np.flatnonzero(c[1])}, int(c[0, 24])) for c in children]
    # RULES 3.4, 5.3: one checker on the 3 point with 6-1 is borne off with
    # both dice (3/2/off), one result.
    assert plays({2: 1}, (6, 1)) == [({}, 0)]
    # Two checkers each borne off by either die: one result, not two.
    assert plays({0: 1, 1: 1}, (6, 5)) == [({}, 0)]
    # 6/off 5/off (met in both orders, written once), then 6/1 5/off.
    assert plays({5: 1, 4: 1, 0: 1}, (6, 5)) == [({0: 1}, 0), ({0: 2}, 0)]
    # One checker outside: 12/8 is closed, so the 2 first, hitting the blot
    # on 10 (RULES 3.3), then 10/6; the 4 cannot bear off from the 1 point
    # while a checker is outside (RULES 5.1).
    assert plays({11: 1, 0: 2}, (4, 2), opponent={23 - 9: 1, 23 - 7: 2}) == [({0: 2, 5: 1}, 1)]
