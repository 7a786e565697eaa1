"""The peers' move generators on the same work, for peers.py's ratios.

gnubg-nn runs on our corpus.  OpenSpiel cannot be given a position, so it is
timed on as many player-node states from its own seeded random games (its
legal actions are half-turns without dedup: a rougher comparison).
"""
import numpy as np
import pytest


@pytest.mark.benchmark(group="movegen")
def test_gnubg_nn_moves_per_call(benchmark, pairs):
    gnubg_nn = pytest.importorskip("gnubg_nn")
    boards, rolls = pairs
    work = [(b, int(r[0]), int(r[1])) for b, r in zip(boards.tolist(), rolls)]

    def run():
        for board, d1, d2 in work:
            gnubg_nn.moves(board, d1, d2)

    benchmark.extra_info["items"] = len(work)
    benchmark(run)


def _openspiel_states(pyspiel, n, seed):
    game = pyspiel.load_game("backgammon")
    rng = np.random.default_rng(seed)
    states = []
    state = game.new_initial_state()
    while len(states) < n:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            states.append(state.clone())
            actions = state.legal_actions()
            state.apply_action(int(actions[rng.integers(len(actions))]))
    return states


@pytest.mark.benchmark(group="movegen")
def test_open_spiel_legal_actions_per_call(benchmark, pairs):
    pyspiel = pytest.importorskip("pyspiel")
    states = _openspiel_states(pyspiel, len(pairs[0]), seed=1)

    def run():
        for state in states:
            state.legal_actions()

    benchmark.extra_info["items"] = len(states)
    benchmark(run)
