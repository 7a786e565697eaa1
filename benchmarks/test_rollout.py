"""Rollout speed and variance reduction (pytest-benchmark).

Speed: games per second of the network's 0-ply rollouts of the opening on
one core, plain, variance-reduced, truncated and cubeful, beside bgsage's
own rollout of the same position at its matching level (its raw network
playing, ``decision_ply=1``, one thread), measured in the same run.
Variance reduction: the standard errors with and without it on 20 varied
positions (``test_variance_reduction`` records them in extra_info).
"""
import math
import os

import numpy as np
import pytest

import backgammon as bg
from backgammon import _rollout
from backgammon.pubeval import load_weights

START = np.frombuffer(bg.Position.initial().to_bytes(), dtype=np.uint8)

# Positions met in the network's self-play (seeded), five of each kind.
VARIED = {
    "contact": ["mPPBARjMzg0HAA", "sPPIAyCGn4kDIA", "hs+MAUhh1wsDIA", "HLfBgGC7AwAAAA", "HLfBgELbAAAAAA"],
    "holding": ["2+yABUBmu4TBAA", "sOeYAQaMt4MBDA", "Ng7HgAOMZ/AQIQ", "tjnEgAMsZ/AwIA", "2czEEDC2OcKAAw"],
    "prime": ["2+yAAWC3bwAAAA", "4PM4BwCw2xjABg", "bXYGBwC22wEDBA", "tu4MAgF3uwMAQA", "740DADDu7g4AAA"],
    "race": ["ZrvFIACbewcAAA", "bXcPAACtu5MAAA", "sp0VBwCb7ToAAA", "9e4FIADm9i0AAA", "a/cFAADr7gEAAA"],
}


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
    result = benchmark.pedantic(bg.rollout, kwargs=dict(games=games, seed=1, workers=workers, policy="pubeval",
                                                        variance_reduction=False),
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


# The network's rollouts of the opening on one core, by kind; the kinds
# cost very different amounts, so each plays its own number of games.
KINDS = {
    "plain": (2592, dict(variance_reduction=False)),
    "variance-reduced": (324, dict()),
    "truncated-7": (2592, dict(variance_reduction=False, truncate=7)),
    "truncated-7-reduced": (648, dict(truncate=7)),
    "cubeful": (1296, dict(variance_reduction=False, cube=True)),
    "cubeful-reduced": (216, dict(cube=True)),
}


@pytest.mark.benchmark(group="rollout-kinds")
@pytest.mark.parametrize("kind", list(KINDS))
def test_net_rollout(benchmark, kind):
    games, options = KINDS[kind]
    benchmark.extra_info["items"] = games
    result = benchmark.pedantic(bg.rollout, kwargs=dict(games=games, seed=1, workers=1, **options),
                                rounds=3, iterations=1)
    assert result.games == games and abs(result.equity) < 0.3


def _bgsage_rollout(games, vr):
    os.environ.setdefault("BGBOT_MULTIPLY_THREADS", "1")
    pytest.importorskip("bgsage")
    import bgbot_cpp
    from bgsage import STARTING_BOARD, default_weights, flip_board
    w = default_weights()
    # ultra_late_threshold=9999 measures the luck of every play, as ours does.
    ro = bgbot_cpp.create_rollout(w.strategy_type, w.weight_paths_list, w.hidden_sizes_list, n_trials=games,
                                  truncation_depth=0, decision_ply=1, n_threads=1, seed=1, enable_vr=vr,
                                  ultra_late_threshold=9999)
    # rollout_position takes the position after a play: the flipped opening
    # is the opening with the side on roll moving first.
    return lambda: ro.rollout_position(flip_board(STARTING_BOARD))


@pytest.mark.benchmark(group="rollout-kinds")
@pytest.mark.parametrize("kind,games,vr", [("plain", 648, False), ("variance-reduced", 36, True)])
def test_bgsage_rollout(benchmark, kind, games, vr):
    run = _bgsage_rollout(games, vr)
    benchmark.extra_info["items"] = games
    result = benchmark.pedantic(run, rounds=3, iterations=1)
    assert abs(result.equity) < 0.5


@pytest.mark.benchmark(group="rollout-variance")
def test_variance_reduction(benchmark):
    """The standard error of the cubeless equity with and without variance
    reduction, 1,296 games at 0-ply on each of 20 positions: the median
    ratio and each position's figures in extra_info."""
    rows = {}

    def measure():
        for kind, ids in VARIED.items():
            for pid in ids:
                position = bg.Position.from_id(pid)
                vr = bg.rollout(position, games=1296, seed=3)
                plain = bg.rollout(position, games=1296, seed=4, variance_reduction=False)
                rows[pid] = dict(kind=kind, equity=vr.equity, se=vr.equity_se, plain_equity=plain.equity,
                                 plain_se=plain.equity_se, same_games_se=vr.raw_equity_se)

    benchmark.pedantic(measure, rounds=1, iterations=1)
    ratios = [r["plain_se"] / r["se"] for r in rows.values()]
    benchmark.extra_info["median_se_ratio"] = float(np.median(ratios))
    benchmark.extra_info["positions"] = rows
    assert np.median(ratios) >= 3
    for r in rows.values():   # independent dice: the two means agree within 4 joint standard errors
        assert abs(r["equity"] - r["plain_equity"]) <= 4 * math.hypot(r["se"], r["plain_se"]), r
