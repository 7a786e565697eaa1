"""Speed of the Python game paths (pytest-benchmark): lockstep rollouts
(a Player, the cube), duels, cube decisions and match analysis, each small
enough for alternating A/B runs between two builds (ab_paths.py).  Only
the public API that every version since the one-home-per-rule refactor
(issue 42) offers is used, so the same file times both sides.
"""
import pytest

import backgammon as bg
from backgammon.evaluator import PubevalEvaluator
from backgammon.players import EvaluatorPlayer

IDS = ["sPPIAyCGn4kDIA", "2+yABUBmu4TBAA", "ZrvFIACbewcAAA", "4PM4BwCw2xjABg", "2czEEDC2OcKAAw",
       "bXcPAACtu5MAAA", "2+yAAWC3bwAAAA", "HLfBgGC7AwAAAA"]
STATES = [bg.MatchState(), bg.MatchState(cube_value=2, cube_owner=0), bg.MatchState(match_length=7, score=(2, 4)),
          bg.MatchState(match_length=5, score=(2, 4))]     # (the Crawford game: 1-ply failed before the refactor)


@pytest.mark.benchmark(group="paths-rollout")
@pytest.mark.parametrize("kind", ["player", "cubeful", "cubeful-match"])
def test_lockstep_rollout(benchmark, kind):
    options = {"player": dict(games=216, policy=EvaluatorPlayer(PubevalEvaluator()), variance_reduction=False),
               "cubeful": dict(games=72, cube=True, variance_reduction=False),
               "cubeful-match": dict(games=36, cube=True, state=bg.MatchState(match_length=5, score=(1, 3)))}[kind]
    benchmark.extra_info["items"] = options["games"]
    r = benchmark.pedantic(bg.rollout, kwargs=dict(seed=1, workers=1, **options), rounds=3, iterations=1)
    assert r.games == options["games"]


@pytest.mark.benchmark(group="paths-duel")
@pytest.mark.parametrize("pair", [("net", "pubeval"), ("pubeval", "random")])
def test_duel(benchmark, pair):
    games = 200 if pair[1] == "random" else 100
    benchmark.extra_info["items"] = games
    r = benchmark.pedantic(bg.duel, args=pair, kwargs=dict(games=games, seed=2, workers=1), rounds=3, iterations=1)
    assert r.games == games


@pytest.mark.benchmark(group="paths-match")
def test_play_match(benchmark):
    benchmark.extra_info["items"] = 1
    # pubeval takes every double, as every taker did before 317a32c: the same games on both sides.
    m = benchmark.pedantic(bg.play_match, args=(["pubeval", "net"], 5), kwargs=dict(seed=3), rounds=3, iterations=1)
    assert m.games


@pytest.mark.benchmark(group="paths-cube")
@pytest.mark.parametrize("ply", [0, 1])
def test_cube_decisions(benchmark, ply):
    positions = [bg.Position.from_id(p) for p in IDS]

    def decide():
        return [bg.cube_decision(p, s, ply=ply) for p in positions for s in STATES]

    benchmark.extra_info["items"] = len(positions) * len(STATES)
    out = benchmark.pedantic(decide, rounds=3, iterations=1)
    assert len(out) == len(positions) * len(STATES)


@pytest.fixture(scope="module")
def match():
    return bg.play_match(["pubeval", "net"], 3, seed=11)


@pytest.mark.benchmark(group="paths-analysis")
@pytest.mark.parametrize("cube_ply", [0, 1])
def test_analyse(benchmark, match, cube_ply):
    benchmark.extra_info["items"] = len(match.games)
    a = benchmark.pedantic(bg.analyse, args=(match,), kwargs=dict(ply=0, cube_ply=cube_ply, workers=1), rounds=3,
                           iterations=1)
    assert a.games
