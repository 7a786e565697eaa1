"""Batch move generation: CSR layout, views, options and validation."""
import sys

import numpy as np
import pytest

import backgammon as bg
from backgammon import InvalidPositionError, InvalidRollError, batch
from backgammon.sample import random_positions


@pytest.fixture(scope="module")
def corpus():
    return random_positions(3_000, seed=11)


def test_csr_matches_single_calls(corpus):
    boards, rolls = corpus
    offsets, children = batch.legal_positions(boards, rolls)
    assert offsets.shape == (len(boards) + 1,) and offsets[0] == 0
    assert children.shape == (offsets[-1], 2, 25) and children.dtype == np.uint8
    for i in range(0, len(boards), 7):
        pos = bg.Position.from_array(boards[i])
        plays = pos.legal_plays(tuple(int(d) for d in rolls[i]))
        assert np.array_equal(children[offsets[i]:offsets[i + 1]], plays.positions)


def test_views_and_move_lists(corpus):
    boards, rolls = corpus
    offsets, swapped = batch.legal_positions(boards, rolls)
    offsets2, mover, moves = batch.legal_positions(boards, rolls, mover_view=True, moves=True)
    assert np.array_equal(offsets, offsets2)
    assert np.array_equal(swapped, mover[:, ::-1])   # rows swapped
    assert moves.shape == (offsets[-1], 4, 3) and moves.dtype == np.int8
    used = (moves[:, :, 0] >= 0).sum(axis=1)
    assert used.max() == 4
    # Each play lists one step per die it uses: as many as the roll's plays
    # must use (RULES 3.4).
    for i in range(300):
        plays = bg.Position.from_array(boards[i]).legal_plays(tuple(int(d) for d in rolls[i]))
        assert (used[offsets[i]:offsets[i + 1]] == plays.dice_used).all()
    assert set(np.unique(moves[:, :, 0])) <= set(range(-1, 26))
    # Unused steps are -1, -1, 0.
    assert (moves[moves[:, :, 0] < 0][:, 1] == -1).all() and (moves[moves[:, :, 0] < 0][:, 2] == 0).all()


def test_one_checker_on_the_bar_results_only_match_the_search_with_moves():
    # RULES 4.1, 3.4: non-doubles with one checker on the bar, results only,
    # take their own path (bg_bar_one); with moves the general search runs.
    # Same children in the same order, one to five or more a pair.
    boards, rolls = random_positions(60_000, seed=43)
    keep = (boards[:, 1, 24] == 1) & (rolls[:, 0] != rolls[:, 1])
    boards, rolls = boards[keep], rolls[keep]
    assert len(boards) > 5000
    offsets, children = batch.legal_positions(boards, rolls, mover_view=True)
    offsets2, children2, _ = batch.legal_positions(boards, rolls, mover_view=True, moves=True)
    assert np.array_equal(offsets, offsets2) and np.array_equal(children, children2)
    assert (children[:, 1, 24] == 0).sum() > len(boards)   # most plays enter
    # bar/20/15 (6-5, nothing hit on the way) is one play, not two.
    pos = np.zeros((1, 2, 25), np.uint8)
    pos[0, 1, 24], pos[0, 1, 5], pos[0, 0, 0] = 1, 14, 15
    offsets, children = batch.legal_positions(pos, np.array([[6, 5]], np.uint8), mover_view=True)
    landed = [tuple(np.flatnonzero(c[1])) for c in children]
    assert landed.count((5, 13)) == 1 and len(landed) == len(set(landed))


def test_out_buffers_are_used_and_grown(corpus):
    boards, rolls = corpus
    expected_offsets, expected = batch.legal_positions(boards, rolls)
    out = np.empty((len(expected) + 5000, 2, 25), dtype=np.uint8)
    offsets, children = batch.legal_positions(boards, rolls, out=out)
    assert np.shares_memory(children, out) and np.array_equal(children, expected)
    small = np.empty((batch.MAX_PLAYS, 2, 25), dtype=np.uint8)   # too small: grown
    offsets, children = batch.legal_positions(boards, rolls, out=small)
    assert np.array_equal(children, expected) and np.array_equal(offsets, expected_offsets)
    with pytest.raises(ValueError, match="out must be"):
        batch.legal_positions(boards, rolls, out=np.empty((10, 50), dtype=np.uint8))


def test_growth_from_a_small_guess():
    # Many 1-1 rolls from a spread position: more than 24 plays each.
    pos = bg.Position.from_id("4HPwATDgc/ABMA")
    n = 500
    boards = np.repeat(pos.array[None], n, axis=0)
    rolls = np.ones((n, 2), dtype=np.uint8)
    offsets, children = batch.legal_positions(boards, rolls)
    assert (np.diff(offsets) == 42).all() and len(children) == 42 * n


def test_empty_batch():
    offsets, children = batch.legal_positions(np.zeros((0, 2, 25), np.uint8), np.zeros((0, 2), np.uint8))
    assert offsets.tolist() == [0] and children.shape == (0, 2, 25)


def test_validation():
    good = bg.Position.initial().array[None]
    bad = good.copy()
    bad[0, 1, 3] = 1   # a 16th checker
    with pytest.raises(InvalidPositionError, match="board 0"):
        batch.legal_positions(bad, [(3, 1)])
    with pytest.raises(InvalidPositionError, match="shape"):
        batch.legal_positions(good[0], [(3, 1)])
    with pytest.raises(InvalidRollError, match="1 to 6"):
        batch.legal_positions(good, [(7, 1)])
    with pytest.raises(InvalidRollError, match="shape"):
        batch.legal_positions(good, [(3, 1), (2, 2)])
    with pytest.raises(InvalidPositionError, match="board 1"):
        batch.legal_positions(np.concatenate([good, -good]), [(3, 1), (3, 1)])


def test_unvalidated_garbage_never_overflows():
    # validate=False trusts the caller; bad input may give nonsense, never a crash.
    rng = np.random.default_rng(0)
    boards = rng.integers(0, 256, size=(2000, 2, 25), dtype=np.uint8)
    rolls = rng.integers(1, 7, size=(2000, 2), dtype=np.uint8)
    offsets, children = batch.legal_positions(boards, rolls, validate=False, moves=False)
    assert offsets[-1] == len(children)
    assert (np.diff(offsets) <= batch.MAX_PLAYS).all()
    # Dice index the kernel's tables: they are checked even then.
    rolls[7] = (0, 9)
    with pytest.raises(bg.InvalidRollError, match="roll 7"):
        batch.legal_positions(boards, rolls, validate=False)


def test_move_lists_replay_to_their_results():
    # RULES 3.5: each play's representative steps, made one at a time by the
    # single-step rules, give exactly that play's position and hits.
    from backgammon import _movegen
    boards, rolls = random_positions(4_000, seed=23)
    offsets, children, moves = batch.legal_positions(boards, rolls, mover_view=True, moves=True)
    for i in range(len(boards)):
        d1, d2 = (int(d) for d in rolls[i])
        for j in range(offsets[i], offsets[i + 1]):
            board = boards[i].tobytes()
            dice = [d1] * 4 if d1 == d2 else [d1, d2]
            for frm, to, hit in moves[j].tolist():
                if frm < 0:
                    break
                # The exact die, else the smallest that bears off from frm.
                die = min(dice, key=lambda d: (frm - d != to, d if to == 0 and frm - d < 0 else 99))
                dice.remove(die)
                done = _movegen.step(board, frm, to, die)
                assert done is not None, (i, moves[j].tolist())
                board, did_hit = done
                assert did_hit == bool(hit)
            assert board == children[j].tobytes()


def _address(arr):
    return arr.__array_interface__["data"][0]


def test_large_results_reuse_memory_only_once_dropped():
    # Big outputs live in pooled memory: a result still referenced (even by
    # a slice of it) is never written again; a dropped one is reused.
    from backgammon import _pool
    boards, rolls = random_positions(6_000, seed=31)
    batch.release_memory()
    offsets, first = batch.legal_positions(boards, rolls)
    assert first.nbytes > 1 << 22
    kept_copy = first.copy()
    tail = first[-100:]
    del first
    seen = set()
    for _ in range(3):
        offsets2, again = batch.legal_positions(boards, rolls)
        assert not np.shares_memory(again, tail)
        assert np.array_equal(again, kept_copy)
        seen.add(_address(again))
    assert np.array_equal(tail, kept_copy[-100:])
    # Dropped results give their memory to the next calls: two blocks take
    # turns in such a loop.
    assert len(seen) == 2
    del again, tail
    _, reused = batch.legal_positions(boards, rolls)
    assert _address(reused) in seen
    del reused
    assert 0 < _pool.kept_bytes() <= _pool.MOST_KEPT * (1 << 28)
    batch.release_memory()
    assert _pool.kept_bytes() == 0


def test_a_loop_keeping_the_previous_result_reuses_all_its_arrays():
    # Offsets, children and moves all come from the pool: a loop that holds
    # one result while making the next takes turns between two sets of
    # blocks (no fresh pages after the first two calls), and what it holds
    # is never overwritten.
    boards, rolls = random_positions(300_000, seed=32)
    batch.release_memory()
    first = batch.legal_positions(boards, rolls, moves=True, threads=1)
    assert first[0].nbytes >= 1 << 21
    expected = [a.copy() for a in first]
    held, seen = first, []
    del first
    for _ in range(4):
        result = batch.legal_positions(boards, rolls, moves=True, threads=1)
        assert all(np.array_equal(a, b) for a, b in zip(result, expected))
        assert all(np.array_equal(a, b) for a, b in zip(held, expected))
        assert not any(np.shares_memory(a, b) for a, b in zip(result, held))
        seen.append(tuple(_address(a) for a in result))
        held = result
    assert seen[0] == seen[2] and seen[1] == seen[3] and seen[0] != seen[1]
    del held, result
    batch.release_memory()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resident memory read from /proc/self/statm")
def test_a_small_result_gives_back_the_rest_of_its_block():
    # trim() finds the block under an array from empty() (through the
    # memoryview numpy.frombuffer holds) and returns the pages past the rows
    # kept; populate() maps a new block's pages without changing them.
    import os
    from backgammon import _pool

    def resident():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    batch.release_memory()
    a = _pool.empty((1 << 20, 2, 25), np.uint8)        # 50 MiB
    before = resident()
    _pool.populate(a, len(a), 0, 1)
    assert resident() - before > 40 << 20
    a[:10] = 7
    assert (a[:10] == 7).all()
    mapped = resident()
    kept = _pool.trim(a, 10)
    assert mapped - resident() > 40 << 20
    assert kept.shape == (10, 2, 25) and (kept == 7).all()
    del a, kept
    batch.release_memory()


@pytest.mark.skipif(sys.platform == "win32", reason="no posix_memalign: plain malloc there")
def test_pool_blocks_of_huge_pages_start_on_a_huge_page():
    # So the kernel can back all of a block's 2 MiB ranges with huge pages.
    from backgammon import _pool
    for size in (1 << 21, 3 << 20, 10_000_001):
        assert _address(np.frombuffer(_pool.block(size), np.uint8)) % (1 << 21) == 0


def test_pool_keeps_the_largest_blocks():
    from backgammon import _pool
    batch.release_memory()
    sizes = [(k + 1) << 20 for k in range(_pool.MOST_KEPT + 2)]
    blocks = [_pool.block(n) for n in sizes[::-1]]
    del blocks
    assert _pool.kept_bytes() == sum(sizes[2:])
    # A request takes a kept block of at most twice its size, else new memory.
    smallest = sizes[2]
    b = _pool.block(smallest - 1)
    assert len(memoryview(b)) == smallest and _pool.kept_bytes() == sum(sizes[3:])
    c = _pool.block(1 << 10)
    assert len(memoryview(c)) == 1 << 10 and _pool.kept_bytes() == sum(sizes[3:])
    del b, c
    batch.release_memory()
    assert _pool.kept_bytes() == 0
    m = memoryview(_pool.block(10))
    m[:] = bytes(range(10))
    assert m.tobytes() == bytes(range(10)) and not m.readonly


def test_pool_blocks_cannot_be_copied():
    # A copy would own memory it did not allocate.
    import copy
    import pickle
    from backgammon import _pool
    b = _pool.block(1 << 10)
    for attempt in (lambda: copy.copy(b), lambda: pickle.dumps(b)):
        with pytest.raises(TypeError):
            attempt()


@pytest.mark.parametrize("threads", [2, 3, None])
def test_threads_give_the_same_output(threads):
    # Any number of threads: the same children, moves and offsets, in order.
    boards, rolls = random_positions(9000, seed=41)
    one = batch.legal_positions(boards, rolls, moves=True, threads=1)
    many = batch.legal_positions(boards, rolls, moves=True, threads=threads)
    assert all(np.array_equal(a, b) for a, b in zip(one, many))
    swapped = batch.legal_positions(boards, rolls, mover_view=True, threads=threads)
    assert np.array_equal(swapped[1], batch.legal_positions(boards, rolls, mover_view=True)[1])


def test_threads_check_their_input():
    boards, rolls = random_positions(5000, seed=42)
    bad = boards.copy()
    bad[4321, 0, 3] = 15
    with pytest.raises(InvalidPositionError, match="board 4321"):
        batch.legal_positions(bad, rolls, threads=2)
    rolls = rolls.copy()
    rolls[3000] = (7, 1)
    with pytest.raises(InvalidRollError, match="roll 3000"):
        batch.legal_positions(boards, rolls, threads=2)
    # Dice are checked even for trusted boards, on any number of threads;
    # the first bad pair is the one named.
    rolls[4500] = (0, 3)
    for threads in (1, 2, 3):
        with pytest.raises(InvalidRollError, match="roll 3000"):
            batch.legal_positions(boards, rolls, validate=False, threads=threads)
    bad[4000, 1, 0] = 15
    with pytest.raises(InvalidPositionError, match="board 4000"):
        batch.legal_positions(bad, np.clip(rolls, 1, 6), threads=2)
    with pytest.raises(TypeError, match="threads"):
        batch.legal_positions(boards, rolls, threads=1.5)
    with pytest.raises(ValueError, match="threads"):
        batch.legal_positions(boards, rolls, threads=0)


def test_threads_fall_back_when_the_output_overflows():
    # All doubles from the opening many times over: more plays per pair than
    # the output's first estimate; the result is still exact.
    boards = np.repeat(bg.Position.initial().array[None], 4096, axis=0)
    rolls = np.tile(np.array([[1, 1], [2, 2], [3, 3]], dtype=np.uint8), (1366, 1))[:4096]
    one = batch.legal_positions(boards, rolls)
    two = batch.legal_positions(boards, rolls, threads=2)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])


def test_threaded_calls_from_several_threads_at_once():
    # Calls made at the same time from different threads all finish, each
    # with the one-thread result.
    from concurrent.futures import ThreadPoolExecutor
    boards, rolls = random_positions(4000, seed=43)
    want = batch.legal_positions(boards, rolls)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: batch.legal_positions(boards, rolls, threads=2), range(8)))
    for got in results:
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_threads_with_chunks_too_big_for_their_buffer():
    # Doubles in positions with hundreds of plays each: a chunk of pairs
    # fills its thread's buffer half way and goes on straight into the
    # output; still the one-thread result.
    a = np.zeros((2, 25), dtype=np.uint8)
    a[1, 6:21] = 1          # one checker on each of points 7..21, no contact
    a[0, 0:3] = 5           # the opponent on its points 1..3, behind them all
    assert bg.Position.from_array(a).legal_plays((1, 1)).__len__() > 100
    boards = np.repeat(a[None], 600, axis=0)
    rolls = np.tile(np.array([[1, 1], [2, 2], [1, 2]], dtype=np.uint8), (200, 1))
    one = batch.legal_positions(boards, rolls)
    # Room for all (no fallback to one thread): the threads did the work.
    out = np.empty((int(one[0][-1]) + 24 * 600 + batch.MAX_PLAYS, 2, 25), dtype=np.uint8)
    for threads in (2, 3):
        many = batch.legal_positions(boards, rolls, threads=threads, out=out)
        assert np.shares_memory(many[1], out)
        assert np.array_equal(one[0], many[0]) and np.array_equal(one[1], many[1])


def test_threaded_calls_keep_their_threads_scratch():
    # A fresh scratch block is mapped a page at a time (about 450 faults a
    # thread): each thread's is kept for the next call, moves or not, until
    # release_memory() (one only when a thread gave its block back before
    # the other took one).
    from backgammon import _chain
    boards, rolls = random_positions(3000, seed=45)
    batch.release_memory()
    assert _chain.kept_scratch() == 0
    want = batch.legal_positions(boards, rolls, moves=True)
    for moves in (True, False, True):
        got = batch.legal_positions(boards, rolls, threads=2, moves=moves)
        assert 1 <= _chain.kept_scratch() <= 2
        assert all(np.array_equal(a, b) for a, b in zip(got, want))
    batch.release_memory()
    assert _chain.kept_scratch() == 0


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork is POSIX")
def test_threads_work_in_a_forked_child():
    # The parent's pool exists before the fork; the child makes its own
    # instead of waiting for threads it does not have.
    import multiprocessing
    boards, rolls = random_positions(3000, seed=44)
    want = batch.legal_positions(boards, rolls, threads=2)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        got = pool.apply_async(batch.legal_positions, (boards, rolls), {"threads": 2}).get(timeout=60)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_run_shared_runs_every_share_and_reports_errors():
    # The shares run at once (each waits for the others here), results come
    # in order, an error in any share is raised once all have finished, and
    # the threads serve the next call.
    import threading
    from backgammon._parallel import run_shared
    barrier = threading.Barrier(3, timeout=10)

    def task(t):
        barrier.wait()
        return t * t
    assert run_shared(task, 3) == [0, 1, 4]
    finished = []

    def failing(t):
        if t == 1:
            raise ValueError("share 1")
        finished.append(t)
        return t
    with pytest.raises(ValueError, match="share 1"):
        run_shared(failing, 3)
    assert sorted(finished) == [0, 2]
    assert run_shared(lambda t: -t, 3) == [0, -1, -2]
    # A call made while another holds the threads is told to work alone.
    inside = []
    assert run_shared(lambda t: inside.append(run_shared(lambda u: u, 2)) if t == 0 else None, 2) == [None, None]
    assert inside == [None]
