"""Before/after figures for issue 45's progress: rollouts and a duel with
the bar on (its lines to a pipe) and off, one worker."""
import pytest

import backgammon as bg

KINDS = {
    "plain": (2592, dict(variance_reduction=False)),
    "plain-progress": (2592, dict(variance_reduction=False, progress=True)),
    "reduced-progress": (324, dict(progress=True)),
}


@pytest.mark.benchmark(group="progress-rollout")
@pytest.mark.parametrize("kind", list(KINDS))
def test_rollout(benchmark, kind):
    games, options = KINDS[kind]
    benchmark.extra_info["items"] = games
    r = benchmark.pedantic(bg.rollout, kwargs=dict(games=games, seed=1, workers=1, **options), rounds=3,
                           iterations=1)
    assert r.games == games


@pytest.mark.benchmark(group="progress-duel")
@pytest.mark.parametrize("progress", [False, True])
def test_duel(benchmark, progress):
    benchmark.extra_info["items"] = 200
    r = benchmark.pedantic(bg.duel, args=("net", "pubeval"), kwargs=dict(games=200, seed=1, workers=1,
                                                                         progress=progress), rounds=3, iterations=1)
    assert r.games == 200
