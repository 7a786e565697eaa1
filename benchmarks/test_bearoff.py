"""Bear-off tables: build times and batch lookups (pytest-benchmark)."""
import numpy as np
import pytest

from backgammon import bearoff
from backgammon.bearoff import OneSidedDatabase, TwoSidedDatabase


@pytest.mark.benchmark(group="bearoff-build")
def test_build_one_sided(benchmark):
    benchmark.extra_info["items"] = 1
    db = benchmark.pedantic(OneSidedDatabase.build, rounds=3, iterations=1)
    assert len(db) == 54_264


@pytest.mark.benchmark(group="bearoff-build")
def test_build_two_sided_6(benchmark):
    benchmark.extra_info["items"] = 1
    db = benchmark.pedantic(TwoSidedDatabase.build, args=(6,), rounds=3, iterations=1)
    assert db.positions == 924


@pytest.fixture(scope="module")
def lookups():
    """1,000,000 one-sided positions (counts on points 1..6), seeded."""
    rng = np.random.default_rng(7)
    index = rng.integers(0, 54_264, 1_000_000)
    table = np.array([bearoff._bearoff.position_of(i) for i in range(54_264)], dtype=np.uint8)
    return table[index]


@pytest.mark.benchmark(group="bearoff-lookup")
@pytest.mark.parametrize("what", ["index", "expected_rolls", "distribution"])
def test_one_sided_batch_lookup(benchmark, lookups, what):
    db = bearoff.one_sided()
    benchmark.extra_info["items"] = len(lookups)
    benchmark(getattr(db, what), lookups)
