"""The network evaluator: batch evaluation, 0-ply self-play and decision
times against gnubg-nn measured in the same run (pytest-benchmark)."""
import numpy as np
import pytest

import backgammon as bg
from backgammon import _choice, _net, _rollout, network
from backgammon.players import NetPlayer
from backgammon.sample import random_positions

import corpus

START = np.frombuffer(bg.Position.initial().to_bytes(), dtype=np.uint8)


@pytest.fixture(scope="module")
def game_positions():
    # Positions of real games between the network and itself, the kind an
    # evaluator meets in self-play, rollouts and analysis.
    boards = _net.sample_positions(network.default(), 400, np.random.default_rng(7))
    return np.ascontiguousarray(boards[:20_000])


@pytest.mark.benchmark(group="evaluate")
def test_net_batch_evaluate(benchmark, game_positions):
    nets = network.default()
    benchmark.extra_info["items"] = len(game_positions)
    out = benchmark.pedantic(_net.evaluate, args=(nets, game_positions, 0), rounds=5, iterations=1)
    assert out.shape == (len(game_positions), 5)


@pytest.mark.benchmark(group="evaluate")
def test_net_batch_evaluate_random_games(benchmark):
    boards = corpus.positions()
    nets = network.default()
    benchmark.extra_info["items"] = len(boards)
    benchmark.pedantic(_net.evaluate, args=(nets, boards, 0), rounds=5, iterations=5)


@pytest.mark.benchmark(group="evaluate")
def test_gnubg_nn_probabilities_per_call(benchmark, game_positions):
    # gnubg-nn caches evaluations: each round gets positions it has not
    # seen, as an evaluator meets them in play (the network has no cache).
    gnubg_nn = pytest.importorskip("gnubg_nn")
    rounds = iter(np.array_split(game_positions[:15000], 3))

    def setup():
        return (next(rounds).tolist(),), {}

    def run(boards):
        for b in boards:
            gnubg_nn.probabilities(b, 0)

    benchmark.extra_info["items"] = 5000
    benchmark.pedantic(run, setup=setup, rounds=3, iterations=1)


@pytest.mark.benchmark(group="selfplay-net")
def test_net_self_play(benchmark):
    nets = network.default()
    n = 1000
    benchmark.extra_info["items"] = n
    code = _choice.Policy.POLICY_NET
    benchmark.pedantic(_rollout.play_games, args=(START, 0, n, 1, code, code), kwargs={"nets": nets},
                       rounds=3, iterations=1)


@pytest.mark.benchmark(group="selfplay-net")
def test_gnubg_nn_self_play(benchmark):
    gnubg_nn = pytest.importorskip("gnubg_nn")
    rng = np.random.default_rng(1)
    n = 100

    def games():
        for _ in range(n):
            board = [list(r) for r in bg.Position.initial().array.tolist()]
            while True:
                d1, d2 = (int(x) for x in rng.integers(1, 7, size=2))
                _, key = gnubg_nn.best_move(board, d1, d2, b=1)
                child = gnubg_nn.board_from_position_key(key)
                if sum(child[0]) == 0:          # row 0, the side that just played, is off
                    break
                board = [list(child[0]), list(child[1])]   # already the next mover's view

    benchmark.extra_info["items"] = n
    benchmark.pedantic(games, rounds=2, iterations=1)


@pytest.mark.benchmark(group="decisions")
@pytest.mark.parametrize("ply", [0, 1, 2])
def test_net_decision_time(benchmark, ply):
    boards, rolls = random_positions(3000, seed=17)
    n = {0: 2000, 1: 200, 2: 20}[ply]
    pick = np.random.default_rng(1).choice(len(boards), n, replace=False)
    player = NetPlayer(ply)
    benchmark.extra_info["items"] = n
    benchmark.pedantic(player.choose_indices, args=(boards[pick], rolls[pick]), rounds=3, iterations=1)


@pytest.mark.benchmark(group="decisions")
def test_gnubg_nn_decision_time(benchmark):
    gnubg_nn = pytest.importorskip("gnubg_nn")
    boards, rolls = random_positions(3000, seed=17)
    pick = np.random.default_rng(1).choice(len(boards), 2000, replace=False)
    items = [(boards[i].tolist(), int(rolls[i, 0]), int(rolls[i, 1])) for i in pick]

    def run():
        for b, d1, d2 in items:
            gnubg_nn.best_move(b, d1, d2)

    benchmark.extra_info["items"] = len(items)
    benchmark.pedantic(run, rounds=3, iterations=1)
