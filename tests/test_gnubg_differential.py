"""The move generator and Position IDs against GNU Backgammon (gnubg-nn).

gnubg-nn is a test dependency (the ``test`` extra); these tests fail, not
skip, when it is missing.  RULES 3-5 as gnubg implements them.
"""
import numpy as np
import pytest

import gnubg_nn

import backgammon as bg
from backgammon import Position, batch
from backgammon.sample import random_positions


def stratified_sample(n: int, seed: int):
    """n (board, roll) pairs from random games with at least 20% of boards
    having the side on roll on the bar and at least 20% bearing off."""
    pool_boards, pool_rolls = random_positions(3 * n, seed=seed)
    on_bar = pool_boards[:, 1, 24] > 0
    bearing_off = pool_boards[:, 1, 6:].sum(axis=1) == 0
    rng = np.random.default_rng(seed)
    quota = int(0.22 * n)
    picks = [rng.choice(np.flatnonzero(on_bar), quota, replace=False),
             rng.choice(np.flatnonzero(bearing_off), quota, replace=False)]
    rest = np.flatnonzero(~on_bar & ~bearing_off)
    picks.append(rng.choice(rest, n - 2 * quota, replace=False))
    index = np.concatenate(picks)
    return pool_boards[index], pool_rolls[index]


def disagreements(boards, rolls):
    """Pairs whose sets of resulting positions differ from gnubg-nn's."""
    offsets, children = batch.legal_positions(boards, rolls, mover_view=True)
    bad = []
    key = gnubg_nn.key_of_board
    for i, (board, (d1, d2)) in enumerate(zip(boards.tolist(), rolls.tolist())):
        theirs = set(gnubg_nn.moves(board, d1, d2))
        if not theirs:               # gnubg lists nothing when the turn passes;
            theirs = {key(board)}    # we list the unchanged position once
        ours = [key(c) for c in children[offsets[i]:offsets[i + 1]].tolist()]
        if len(ours) != len(set(ours)) or set(ours) != theirs:
            bad.append((i, board, (d1, d2), len(ours), len(theirs)))
    return bad


def check_sample(n, seed):
    boards, rolls = stratified_sample(n, seed)
    assert (boards[:, 1, 24] > 0).mean() >= 0.2
    assert (boards[:, 1, 6:].sum(axis=1) == 0).mean() >= 0.2
    assert (rolls[:, 0] == rolls[:, 1]).mean() > 0.1
    bad = disagreements(boards, rolls)
    assert bad == [], f"{len(bad)} disagreements, first: {bad[:3]}"


def test_200k_random_pairs_agree_with_gnubg():
    check_sample(200_000, seed=2026)


@pytest.mark.slow
def test_2m_random_pairs_agree_with_gnubg():
    check_sample(2_000_000, seed=20261129)


def test_opening_counts_equal_gnubg(initial):
    board = initial.array.tolist()
    for roll in bg.ROLLS:
        assert len(initial.legal_plays(roll)) == len(gnubg_nn.moves(board, *roll))


def test_perft_2_equals_gnubg(initial):
    # Leaves two plies deep, counted with gnubg's generator.
    total = 0
    board = initial.array.tolist()
    for d1, d2 in bg.ROLLS:
        for key in gnubg_nn.moves(board, d1, d2):
            child = gnubg_nn.board_from_position_key(key)
            swapped = [list(child[1]), list(child[0])]
            for e1, e2 in bg.ROLLS:
                total += len(gnubg_nn.moves(swapped, e1, e2)) or 1
    assert bg.perft(initial, 2) == total == 202782
    assert bg.perft(initial, 1) == 447
    assert bg.perft(initial, 0) == 1


@pytest.mark.slow
def test_perft_3_equals_gnubg(initial):
    # Three plies: 4.26 million gnubg-nn generations.
    total = 0
    board = initial.array.tolist()
    level = [board]
    for _ in range(2):
        nxt = []
        for b in level:
            for d1, d2 in bg.ROLLS:
                for key in gnubg_nn.moves(b, d1, d2):
                    child = gnubg_nn.board_from_position_key(key)
                    nxt.append([list(child[1]), list(child[0])])
        level = nxt
    for b in level:
        for d1, d2 in bg.ROLLS:
            total += len(gnubg_nn.moves(b, d1, d2)) or 1
    assert bg.perft(initial, 3) == total == 116_154_993


def test_position_ids_equal_gnubg():
    boards, _ = random_positions(200_000, seed=99)
    mismatches = 0
    for board in boards:
        pos = Position.from_bytes(board.tobytes())
        pid = pos.to_id()
        mismatches += pid != gnubg_nn.position_id(board.tolist())
        mismatches += Position.from_id(pid) != pos
    assert mismatches == 0


def test_move_lists_replay_to_the_same_position():
    # Each representative step list, applied by hand, gives the child.
    boards, rolls = random_positions(5_000, seed=5)
    offsets, children, moves = batch.legal_positions(boards, rolls, moves=True, mover_view=True)
    for i in range(len(boards)):
        for j in range(offsets[i], offsets[i + 1]):
            me = boards[i, 1].astype(int).copy()
            opp = boards[i, 0].astype(int).copy()
            for frm, to, hit in moves[j]:
                if frm < 0:
                    break
                me[frm - 1] -= 1
                if to:
                    me[to - 1] += 1
                    if hit:
                        assert opp[24 - to] == 1
                        opp[24 - to] = 0
                        opp[24] += 1
            assert (me == children[j, 1]).all() and (opp == children[j, 0]).all()
