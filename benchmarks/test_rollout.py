"""Self-play speed of the Cython game loop, parallel rollouts, and the
peers' random self-play driven from Python (pytest-benchmark)."""
import numpy as np
import pytest

import backgammon as bg
from backgammon import _rollout
from backgammon.pubeval import load_weights

START = np.frombuffer(bg.Position.initial().to_bytes(), dtype=np.uint8)


@pytest.mark.benchmark(group="selfplay")
@pytest.mark.parametrize("policy", ["random", "pubeval"])
def test_self_play(benchmark, policy):
    load_weights()
    code = 0 if policy == "random" else 1
    n = 20_000 if policy == "random" else 10_000
    benchmark.extra_info["items"] = n
    results, _ = benchmark.pedantic(_rollout.play_games, args=(START, 0, n, 1, code, code),
                                    rounds=3, iterations=1)
    assert results.shape == (n, 5)


@pytest.mark.benchmark(group="rollout-workers")
@pytest.mark.parametrize("workers", [1, 2])
def test_rollout_workers(benchmark, workers):
    games = 40_000
    benchmark.extra_info["items"] = games
    result = benchmark.pedantic(bg.rollout, kwargs=dict(games=games, seed=1, workers=workers),
                                rounds=3, iterations=1)
    assert result.games == games


@pytest.mark.benchmark(group="selfplay")
def test_gnubg_nn_random_self_play(benchmark):
    gnubg_nn = pytest.importorskip("gnubg_nn")
    rng = np.random.default_rng(1)
    n = 200

    def games():
        for _ in range(n):
            board = [list(r) for r in bg.Position.initial().array.tolist()]
            while True:
                d1, d2 = (int(x) for x in rng.integers(1, 7, size=2))
                keys = gnubg_nn.moves(board, d1, d2)
                if keys:
                    child = gnubg_nn.board_from_position_key(keys[int(rng.integers(len(keys)))])
                    if sum(child[1]) == 0:
                        break
                    board = [list(child[1]), list(child[0])]
                else:
                    board = [board[1], board[0]]

    benchmark.extra_info["items"] = n
    benchmark.pedantic(games, rounds=2, iterations=1)


@pytest.mark.benchmark(group="selfplay")
def test_open_spiel_random_self_play(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("backgammon")
    rng = np.random.default_rng(1)
    n = 100

    def games():
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
                else:
                    actions = state.legal_actions()
                    state.apply_action(int(actions[rng.integers(len(actions))]))

    benchmark.extra_info["items"] = n
    benchmark.pedantic(games, rounds=2, iterations=1)
