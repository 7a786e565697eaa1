"""The chunk scheduler (``_chain.run_chained``) that threaded batch calls
share: the output is the one-thread output whatever the interleaving; a
chunk begun in scratch finishes in place once the chunk before is counted
(when switching is on);
a thread that waits on a chunk whose thread is away takes it over (when the
rows may be written twice); a copy from scratch is streamed a piece after
each row the thread makes next, or at once."""
import threading

import numpy as np
import pytest
from backgammon.sample import random_positions

from backgammon import _chain, batch

MAX_PLAYS = 3072


def expected_rows(n):
    # What the test writer in _chain writes: row i has 1 + 7i % 5 children,
    # child j of it all bytes (i + j) % 251.
    counts = [1 + (7 * i) % 5 for i in range(n)]
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    kids = np.concatenate([np.repeat(((i + np.arange(m)) % 251).astype(np.uint8), 50).reshape(m, 2, 25)
                           for i, m in enumerate(counts)])
    return offsets, kids


def assert_one_thread_output(n, offsets, children):
    # The test writer's rows exactly as one thread writes them; their offsets.
    want_offsets, want_kids = expected_rows(n)
    np.testing.assert_array_equal(offsets, want_offsets)
    np.testing.assert_array_equal(children[:want_offsets[-1]], want_kids)
    return want_offsets


def run_two(n, chunk, gate, repeatable=False):
    chain = _chain.Chain(n, chunk, repeatable=repeatable)
    offsets = np.zeros(n + 1, np.int64)
    children = np.zeros((3 * n + MAX_PLAYS, 2, 25), np.uint8)
    status = []
    threads = [threading.Thread(target=lambda: status.append(_chain._run_test_rows(chain, offsets, children, gate)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return chain, status, offsets, children


def test_chunk_begun_in_scratch_switches_to_writing_in_place():
    # Chunk 0's last row waits until the other thread has written two rows
    # of chunk 1 into scratch (its start unknown then); chunk 1's third row
    # waits until chunk 0 is counted.  So chunk 1 must switch: its first
    # three rows copied in, the rest written in place.
    n, chunk = 40, 8
    gate = np.array([chunk - 1, chunk + 1, 0, chunk + 2, 0, 1, 0, 0], np.int64)
    _chain.set_switching(True)
    try:
        chain, status, offsets, children = run_two(n, chunk, gate)
    finally:
        _chain.set_switching(False)
    assert gate[4] == 0, "a thread timed out at a gate"
    assert status == [0, 0]
    want_offsets = assert_one_thread_output(n, offsets, children)
    assert chain.switched >= 1
    # At least chunk 1's three rows went through scratch; never more than all.
    assert int(want_offsets[chunk + 3] - want_offsets[chunk]) <= chain.copied <= want_offsets[-1]


def test_switching_off_places_whole_chunks():
    n, chunk = 40, 8
    gate = np.array([chunk - 1, chunk + 1, 0, -1, 0, 1, 0, 0], np.int64)
    chain, status, offsets, children = run_two(n, chunk, gate)    # switching is off by default
    assert gate[4] == 0 and status == [0, 0]
    want_offsets = assert_one_thread_output(n, offsets, children)
    assert chain.switched == 0
    # Chunk 1 was made while chunk 0 waited: all of it went through scratch.
    assert chain.copied >= want_offsets[2 * chunk] - want_offsets[chunk]


def test_one_thread_writes_everything_in_place():
    n, chunk = 40, 8
    chain = _chain.Chain(n, chunk)
    offsets = np.zeros(n + 1, np.int64)
    children = np.zeros((3 * n + MAX_PLAYS, 2, 25), np.uint8)
    assert _chain._run_test_rows(chain, offsets, children, np.array([-1, -1, 0, -1, 0, 1, 0, 0], np.int64)) == 0
    assert_one_thread_output(n, offsets, children)
    assert chain.copied == 0 and chain.switched == 0


def test_output_too_small_is_reported():
    n, chunk = 40, 8
    chain = _chain.Chain(n, chunk)
    offsets = np.zeros(n + 1, np.int64)
    children = np.zeros((MAX_PLAYS - 1, 2, 25), np.uint8)
    assert _chain._run_test_rows(chain, offsets, children, np.array([-1, -1, 0, -1, 0, 1, 0, 0], np.int64)) == 1
    assert chain.status == 1


def test_waiting_thread_takes_over_a_chunk_whose_thread_is_away():
    # Chunk 0's last row waits until the other thread has written into
    # chunk 1; chunk 1's third row then waits until chunk 1 itself is
    # counted, which only the first thread can do: it goes on to hold four
    # chunks in scratch, waits, and writes chunk 1 in place itself.  The
    # held thread then drops its copy of chunk 1.
    n, chunk = 64, 4
    gate = np.array([chunk - 1, chunk, 0, chunk + 2, 0, 2, 0, 0], np.int64)
    chain, status, offsets, children = run_two(n, chunk, gate, repeatable=True)
    assert gate[4] == 0, "a thread timed out at a gate"
    assert status == [0, 0]
    assert_one_thread_output(n, offsets, children)
    assert chain.taken >= 1


@pytest.mark.parametrize("spread", [0, 128, 1024])
def test_copies_spread_over_later_rows_give_the_one_thread_output(spread):
    # The switch above and the take-over above, with the copy from scratch
    # streamed at once (0) or a piece after each later row: 128 bytes a row
    # spreads a chunk's copy over several rows, in place and in scratch.
    _chain.set_spreading(spread)
    try:
        n, chunk = 40, 8
        for switching in (True, False):
            _chain.set_switching(switching)
            gate = np.array([chunk - 1, chunk + 1, 0, chunk + 2, 0, 1, 0, 0], np.int64)
            chain, status, offsets, children = run_two(n, chunk, gate)
            assert gate[4] == 0 and status == [0, 0]
            assert_one_thread_output(n, offsets, children)
            assert chain.switched >= switching and chain.copied > 0
        n, chunk = 64, 4
        gate = np.array([chunk - 1, chunk, 0, chunk + 2, 0, 2, 0, 0], np.int64)
        chain, status, offsets, children = run_two(n, chunk, gate, repeatable=True)
        assert gate[4] == 0 and status == [0, 0]
        assert_one_thread_output(n, offsets, children)
        assert chain.taken >= 1 and chain.copied > 0
    finally:
        _chain.set_spreading(1024)
        _chain.set_switching(False)


def test_chain_rejects_bad_sizes():
    with pytest.raises(ValueError, match="chunk"):
        _chain.Chain(10, 0)
    with pytest.raises(ValueError, match="gate"):
        _chain._run_test_rows(_chain.Chain(4, 2), np.zeros(5, np.int64), np.zeros((MAX_PLAYS + 8, 2, 25), np.uint8),
                              np.zeros(5, np.int64))


@pytest.mark.parametrize("switching, spread, wide", [(True, 1024, True), (False, 1024, True), (True, 128, True),
                                                    (True, 0, True), (True, 1024, False)])
def test_two_threads_give_the_one_thread_output(switching, spread, wide):
    # wide: the copy with AVX2 stores where the machine has them, else SSE2.
    boards, rolls = random_positions(20_000, seed=5)
    want = batch.legal_positions(boards, rolls, threads=1, moves=True)
    _chain.set_switching(switching)
    _chain.set_spreading(spread)
    _chain._set_wide(wide)
    try:
        for _ in range(3):
            got = batch.legal_positions(boards, rolls, threads=2, moves=True)
            for a, b in zip(got, want):
                np.testing.assert_array_equal(a, b)
    finally:
        _chain.set_switching(False)
        _chain.set_spreading(1024)
        _chain._set_wide(True)
