"""Random legal actions for N = 1,024 games per second (pytest-benchmark):
``backgammon.env.sample_legal`` from the numbers of plays and from the
masks, against a masked argmax over uniforms and Gymnasium's
``action_space.sample(mask)`` (a Python loop over the games).  ``items``
is the games of a round; ``extra_info["speedup"]`` the ratio to the
masked argmax measured in the same session.

    pytest benchmarks/test_env_sample.py --benchmark-min-rounds=5
"""
import numpy as np
import pytest

pytest.importorskip("gymnasium")

from backgammon.env import sample_legal  # noqa: E402
from backgammon.env.vector import BackgammonVectorEnv  # noqa: E402

N = 1_024
_rates: dict = {}


@pytest.fixture(scope="module")
def state():
    """Masks and numbers of plays of 1,024 games some way into play."""
    envs = BackgammonVectorEnv(N, threads=1)
    obs, info = envs.reset(seed=0)
    for _ in range(10):
        obs, reward, term, trunc, info = envs.step(sample_legal(info["num_plays"], 0))
    return envs, info["action_mask"].copy(), info["num_plays"].copy()


def _masked_argmax(mask, rng):
    return np.argmax(np.where(mask.astype(bool), rng.random(mask.shape), -1.0), axis=1)


def _record(benchmark, name):
    benchmark.extra_info["items"] = N
    _rates[name] = N / benchmark.stats.stats.min
    if "masked argmax" in _rates and name != "masked argmax":
        benchmark.extra_info["speedup"] = _rates[name] / _rates["masked argmax"]


def test_masked_argmax(benchmark, state):
    _, mask, _ = state
    rng = np.random.default_rng(1)
    benchmark(_masked_argmax, mask, rng)
    _record(benchmark, "masked argmax")


def test_sample_legal_from_num_plays(benchmark, state):
    _, _, counts = state
    rng = np.random.default_rng(1)
    benchmark(sample_legal, counts, rng)
    _record(benchmark, "num_plays")


def test_sample_legal_from_masks(benchmark, state):
    _, mask, _ = state
    rng = np.random.default_rng(1)
    benchmark(sample_legal, mask, rng)
    _record(benchmark, "mask")


def test_action_space_sample_with_masks(benchmark, state):
    envs, mask, _ = state
    space = envs.action_space          # MultiDiscrete([3072] * N): one mask per game
    masks = tuple(mask)
    benchmark.pedantic(space.sample, args=(masks,), rounds=5, iterations=1)
    _record(benchmark, "action_space.sample")
