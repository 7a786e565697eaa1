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
    offsets, _ = benchmark(batch.legal_positions, boards, rolls, threads=1)   # one core, as the peers
    benchmark.extra_info["children"] = int(offsets[-1])


@pytest.mark.benchmark(group="movegen")
def test_batch_legal_positions_reused_buffer(benchmark, pairs):
    # The loop a rollout or training job runs: output memory reused, input trusted.
    boards, rolls = pairs
    out = np.empty((40 * len(boards), 2, 25), dtype=np.uint8)
    benchmark.extra_info["items"] = len(boards)
    benchmark(batch.legal_positions, boards, rolls, out=out, validate=False, threads=1)


@pytest.mark.benchmark(group="movegen")
def test_batch_legal_positions_reused_buffer_validated(benchmark, pairs):
    # The same loop with every board and roll checked (the default).
    boards, rolls = pairs
    out = np.empty((40 * len(boards), 2, 25), dtype=np.uint8)
    benchmark.extra_info["items"] = len(boards)
    benchmark(batch.legal_positions, boards, rolls, out=out, threads=1)


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


@pytest.fixture(scope="module")
def random_game_pairs():
    from backgammon.sample import random_positions
    return random_positions(100_000, seed=5)


@pytest.mark.benchmark(group="movegen-threads-random")
@pytest.mark.parametrize("threads", [1, 2])
def test_batch_legal_positions_threads_random_games(benchmark, random_game_pairs, threads):
    # 100,000 pairs met in random games (the corpus repeats each position
    # with its 21 rolls).
    boards, rolls = random_game_pairs
    benchmark.extra_info["items"] = len(boards)
    benchmark(batch.legal_positions, boards, rolls, validate=False, threads=threads)


_shared = {}


def _generate_in_worker(calls: int) -> None:
    boards, rolls = _shared["pairs"]
    for _ in range(calls):
        batch.legal_positions(boards, rolls, validate=False, threads=1)


@pytest.mark.benchmark(group="movegen-threads")
def test_batch_legal_positions_two_processes(benchmark, pairs):
    # What two cores give for this work on this machine: two processes,
    # each with its own memory, each making the one-thread call.  The ratio
    # of threads=2 to this is the threads' own cost.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    _shared["pairs"] = pairs
    calls = 5
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        list(pool.map(_generate_in_worker, [1, 1]))     # started and warm
        benchmark.pedantic(lambda: list(pool.map(_generate_in_worker, [calls, calls])), rounds=5, iterations=1)
    benchmark.extra_info["items"] = 2 * calls * len(pairs[0])


_SIZES = {"10k": 10_000, "100k": 100_000, "300k": 300_000, "1M": 1_000_000}


@pytest.fixture(scope="module")
def sized_pairs():
    from backgammon.sample import random_positions
    boards, rolls = random_positions(max(_SIZES.values()), seed=11)
    return {name: (boards[:n], rolls[:n]) for name, n in _SIZES.items()}


def _generate_sized(args) -> None:
    name, calls = args
    boards, rolls = _shared["sized"][name]
    for _ in range(calls):
        batch.legal_positions(boards, rolls, validate=False, threads=1)


@pytest.mark.benchmark(group="movegen-scaling")
@pytest.mark.parametrize("size", list(_SIZES))
@pytest.mark.parametrize("mode", ["threads1", "threads2", "processes2"])
def test_batch_legal_positions_scaling(benchmark, sized_pairs, size, mode):
    # Random-game pairs at three sizes: one thread, two threads, and two
    # processes each making the one-thread call (what two cores give this
    # work at that moment); the output is the same for any thread count.
    boards, rolls = sized_pairs[size]
    rounds = 3 if size == "1M" else 5
    if mode == "processes2":
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        _shared["sized"] = sized_pairs
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
            list(pool.map(_generate_sized, [(size, 1)] * 2))     # started, memory warm
            benchmark.pedantic(lambda: list(pool.map(_generate_sized, [(size, 1)] * 2)), rounds=rounds,
                               iterations=1, warmup_rounds=1)
        benchmark.extra_info["items"] = 2 * len(boards)
        return
    threads = 1 if mode == "threads1" else 2
    benchmark.extra_info["items"] = len(boards)
    benchmark.pedantic(batch.legal_positions, args=(boards, rolls), kwargs={"validate": False, "threads": threads},
                       rounds=rounds, iterations=1, warmup_rounds=1)


@pytest.mark.benchmark(group="movegen-first-call")
@pytest.mark.parametrize("size", ["100k", "1M"])
@pytest.mark.parametrize("fresh", [True, False])
def test_batch_legal_positions_first_call(benchmark, sized_pairs, size, fresh):
    # The first large call of a process meets fresh output memory (the
    # pool emptied before each round, as in a new process); later calls
    # reuse it.  Two threads, as a user's default call on this machine.
    from backgammon import _pool
    boards, rolls = sized_pairs[size]
    benchmark.extra_info["items"] = len(boards)

    def setup():
        if fresh:
            _pool.release()
        return (boards, rolls), {"validate": False, "threads": 2}

    batch.legal_positions(boards, rolls, validate=False, threads=2)
    benchmark.pedantic(batch.legal_positions, setup=setup, rounds=3 if size == "1M" else 5, iterations=1)


@pytest.mark.benchmark(group="movegen-one-pair")
def test_batch_legal_positions_one_pair(benchmark):
    # One (board, roll) through the batch API, as an engine's search calls it.
    board = bg.Position.initial().array[None].copy()
    roll = np.array([[3, 1]], dtype=np.uint8)
    calls = 10_000

    def run():
        for _ in range(calls):
            batch.legal_positions(board, roll)

    benchmark.extra_info["items"] = calls
    benchmark.pedantic(run, rounds=5, iterations=1)


@pytest.mark.benchmark(group="movegen-one-pair")
def test_legal_plays_one_pair(benchmark):
    pos = bg.Position.initial()
    calls = 10_000

    def run():
        for _ in range(calls):
            pos.legal_plays((3, 1))

    benchmark.extra_info["items"] = calls
    benchmark.pedantic(run, rounds=5, iterations=1)


@pytest.mark.benchmark(group="movegen-threads-vs-processes")
@pytest.mark.parametrize("size", list(_SIZES))
def test_batch_threads_vs_processes(benchmark, sized_pairs, size):
    # threads=2 against two processes each making the one-thread call,
    # alternately, round after round (the machine's speed moves from one
    # minute to the next: alternating measures both in the same moments);
    # extra_info has each one's fastest round and their ratio.
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor
    boards, rolls = sized_pairs[size]
    rounds = 4 if size == "1M" else 8
    _shared["sized"] = sized_pairs
    best = {"threads": float("inf"), "processes": float("inf")}
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        list(pool.map(_generate_sized, [(size, 1)] * 2))            # started, memory warm
        batch.legal_positions(boards, rolls, validate=False, threads=2)

        def both():
            t = time.perf_counter()
            batch.legal_positions(boards, rolls, validate=False, threads=2)
            best["threads"] = min(best["threads"], time.perf_counter() - t)
            t = time.perf_counter()
            list(pool.map(_generate_sized, [(size, 1)] * 2))
            # Two processes did twice the work: the time of one batch's worth.
            best["processes"] = min(best["processes"], (time.perf_counter() - t) / 2)

        benchmark.pedantic(both, rounds=rounds, iterations=1)
    benchmark.extra_info["items"] = 2 * len(boards)
    benchmark.extra_info["threads_rate"] = len(boards) / best["threads"]
    benchmark.extra_info["processes_rate"] = len(boards) / best["processes"]
    benchmark.extra_info["threads_over_processes"] = best["processes"] / best["threads"]
