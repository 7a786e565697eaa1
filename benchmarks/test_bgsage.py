"""Decisions per second of the bgsage peer (backgammon.peers) beside the
project's network and gnubg-nn, as players, on the same positions: each
player's ``choose_indices`` over one batch, one thread (the move generator
included for every player)."""
import numpy as np
import pytest

from backgammon import players
from backgammon.sample import random_positions

# spec -> how many of the positions it decides per round
SPECS = {"bgsage": 2000, "net": 2000, "gnubg": 2000, "bgsage:2ply": 200, "net:1": 200}


@pytest.fixture(scope="module")
def positions():
    # Three disjoint batches of 2,000, one per round: gnubg-nn caches its
    # evaluations, so no player meets a position twice.
    boards, rolls = random_positions(12_000, seed=17)
    pick = np.random.default_rng(1).choice(len(boards), 6000, replace=False)
    return np.ascontiguousarray(boards[pick]), np.ascontiguousarray(rolls[pick])


def _rounds(positions, n):
    batches = iter([(positions[0][k * 2000:k * 2000 + n], positions[1][k * 2000:k * 2000 + n]) for k in range(3)])
    return lambda: (next(batches), {})


def _player(spec):
    if spec.startswith("bgsage"):
        pytest.importorskip("bgsage")
        if "bgsage" not in players.player_names():      # before the entry point is installed
            from backgammon import peers
            players.register_player("bgsage", peers.bgsage_player)
    if spec == "gnubg":
        pytest.importorskip("gnubg_nn")
    p = players.player(spec)
    if hasattr(p, "threads"):
        p.threads = 1            # net:K on one thread, as bgsage and gnubg-nn
    return p


@pytest.mark.benchmark(group="player-decisions")
@pytest.mark.parametrize("spec", list(SPECS))
def test_player_decisions(benchmark, positions, spec):
    p = _player(spec)
    n = SPECS[spec]
    benchmark.extra_info["items"] = n
    chosen = benchmark.pedantic(p.choose_indices, setup=_rounds(positions, n), rounds=3, iterations=1)
    assert len(chosen) == n


@pytest.mark.benchmark(group="player-decisions")
def test_bgsage_analyzer_decisions(benchmark, positions):
    # bgsage's own cubeless 1-ply checker_play on the same positions: what
    # the player adds (our move generator, the conversions, the mapping).
    bgsage = pytest.importorskip("bgsage")
    from backgammon.peers import to_bgsage
    analyzer = bgsage.BgBotAnalyzer(eval_level="1ply", cubeful=False)
    n = SPECS["bgsage"]
    rounds = _rounds(positions, n)

    def setup():
        (boards, rolls), _ = rounds()
        return (list(zip(to_bgsage(boards).tolist(), rolls.tolist())),), {}

    def run(work):
        for board, (d1, d2) in work:
            analyzer.checker_play(board, d1, d2)

    benchmark.extra_info["items"] = n
    benchmark.pedantic(run, setup=setup, rounds=3, iterations=1)
