"""Move generation speed on the corpus (pytest-benchmark).

Rates are in extra_info: ``items`` per round; peers.py turns them into ratios.
"""
import numpy as np
import pytest

import backgammon as bg
from backgammon import batch


@pytest.mark.benchmark(group="movegen")
def test_batch_legal_positions(benchmark, pairs):
    boards, rolls = pairs
    benchmark.extra_info["items"] = len(boards)
    offsets, _ = benchmark(batch.legal_positions, boards, rolls)
    benchmark.extra_info["children"] = int(offsets[-1])


@pytest.mark.benchmark(group="movegen")
def test_batch_legal_positions_reused_buffer(benchmark, pairs):
    # The loop a rollout or training job runs: output memory reused, input trusted.
    boards, rolls = pairs
    out = np.empty((40 * len(boards), 2, 25), dtype=np.uint8)
    benchmark.extra_info["items"] = len(boards)
    benchmark(batch.legal_positions, boards, rolls, out=out, validate=False)


@pytest.mark.benchmark(group="movegen")
def test_batch_legal_positions_reused_buffer_validated(benchmark, pairs):
    # The same loop with every board and roll checked (the default).
    boards, rolls = pairs
    out = np.empty((40 * len(boards), 2, 25), dtype=np.uint8)
    benchmark.extra_info["items"] = len(boards)
    benchmark(batch.legal_positions, boards, rolls, out=out)


@pytest.mark.benchmark(group="movegen")
def test_legal_plays_per_call(benchmark, pairs):
    boards, rolls = pairs
    positions = [bg.Position.from_bytes(b.tobytes()) for b in boards]
    dice = [(int(a), int(b)) for a, b in rolls]
    work = list(zip(positions, dice))

    def run():
        for pos, roll in work:
            pos.legal_plays(roll)

    benchmark.extra_info["items"] = len(work)
    benchmark(run)


@pytest.mark.benchmark(group="perft")
def test_perft_3(benchmark):
    pos = bg.Position.initial()
    # Generations made: 21 at each node above the leaves (1 + 447 + 202,782).
    benchmark.extra_info["items"] = 21 * (1 + 447 + 202_782)
    result = benchmark.pedantic(bg.perft, args=(pos, 3), rounds=3, iterations=1)
    benchmark.extra_info["leaves"] = int(result)


@pytest.mark.benchmark(group="movegen-threads")
@pytest.mark.parametrize("threads", [1, 2])
def test_batch_legal_positions_threads(benchmark, pairs, threads):
    # Large batches on every core: the same output for any number of threads.
    boards, rolls = pairs
    benchmark.extra_info["items"] = len(boards)
    benchmark(batch.legal_positions, boards, rolls, validate=False, threads=threads)
