"""A third party's evaluator in the kernel game loop (the native
evaluator protocol, docs/cython-api.md) against the built-in networks,
in the same run: 0-ply rollouts of the opening on one thread, games per
second.

The third party is examples/native_evaluator (built here with
scikit-build-core against the installed package): a network of our
contact network's size (128 hidden units) over Tesauro's 198 inputs,
fitted to our networks (its fit.py), so that it plays games like ours;
alone (every play evaluated in full) or with its pruner (16 hidden
units, keeping 5 plays as ours keeps 5 of its pruning network's).

The machine is shared: run with ``--benchmark-timer=time.process_time``
(CPU time) and compare within one run:

    pytest benchmarks/test_native.py --benchmark-timer=time.process_time
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg
from backgammon import _choice, _rollout, network

START = np.frombuffer(bg.Position.initial().to_bytes(), dtype=np.uint8)
NET = _choice.Policy.POLICY_NET
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "native_evaluator"


@pytest.fixture(scope="module")
def tesauro_net():
    pytest.importorskip("scikit_build_core")
    target = Path(tempfile.mkdtemp(prefix="tesauro-net-"))
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--target",
                           str(target), str(EXAMPLE)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    sys.path.insert(0, str(target))
    import tesauro_net
    return tesauro_net.TesauroNet


KINDS = {"plain": (648, {}), "variance-reduced": (36, {"reduce": True})}


@pytest.mark.benchmark(group="native-rollout")
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("who", ["builtin", "native", "native-pruned"])
def test_native_rollout(benchmark, tesauro_net, who, kind):
    TesauroNet = tesauro_net
    games, options = KINDS[kind]
    if who == "builtin":
        kwargs = dict(nets=network.default())
    else:
        kwargs = dict(evaluator=TesauroNet(prune=who == "native-pruned", prune_keep=5, prune_within=0.2))
    benchmark.extra_info["items"] = games
    results, _ = benchmark.pedantic(_rollout.play_games, args=(START, 0, games, 1, NET, NET), kwargs=dict(
        kwargs, **options), rounds=3, iterations=1)
    assert results.shape == (games, 5)


@pytest.fixture(scope="module")
def decisions():
    # (position, roll) pairs of the built-in networks' own self-play: the
    # same decisions for every evaluator, whatever games it would play.
    from backgammon import _net
    boards = _net.sample_positions(network.default(), 300, np.random.default_rng(7))[:15000]
    rolls = np.random.default_rng(1).integers(1, 7, (len(boards), 2)).astype(np.uint8)
    return np.ascontiguousarray(boards), rolls


@pytest.mark.benchmark(group="native-decisions")
@pytest.mark.parametrize("who", ["builtin", "native", "native-pruned"])
def test_native_decisions(benchmark, tesauro_net, decisions, who):
    # The game loop's choice of a play (0-ply, pruned when the evaluator
    # has a pruner) on the same positions: decisions per second.
    TesauroNet = tesauro_net
    boards, rolls = decisions
    if who == "builtin":
        kwargs = dict(nets=network.default())
    else:
        kwargs = dict(evaluator=TesauroNet(prune=who == "native-pruned"))
    benchmark.extra_info["items"] = len(boards)
    benchmark.pedantic(_choice.choose_plays, args=(NET, boards, rolls), kwargs=kwargs, rounds=3, iterations=1)


@pytest.mark.benchmark(group="native-public-rollout")
@pytest.mark.parametrize("who", ["builtin", "native-pruned"])
def test_native_public_rollout(benchmark, tesauro_net, who):
    # The public rollout (one process, variance reduced): the built-in
    # networks' player against the native evaluator's, games per second.
    games = 72
    if who == "builtin":
        kwargs = dict(policy="net")
    else:
        kwargs = dict(evaluator=tesauro_net(prune=True, prune_keep=5, prune_within=0.2))
    benchmark.extra_info["items"] = games
    r = benchmark.pedantic(bg.rollout, kwargs=dict(kwargs, games=games, seed=1, workers=1), rounds=3, iterations=1)
    assert r.games == games
