"""The one lockstep game loop (python/backgammon/lockstep.py): duels,
lockstep rollouts and VectorGames all play on it, and it plays the very
games of the kernels' own loop."""
from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon import lockstep
from backgammon.players import PubevalPlayer, RandomPlayer


class PythonPubeval(PubevalPlayer):
    """pubeval's choices, played in lockstep rather than in the kernel."""

    def kernel_policy(self):
        return None


@pytest.mark.parametrize("options", [dict(), dict(truncate=9), dict(bearoff=True)])
def test_lockstep_plays_the_kernels_games(options):
    pos = bg.Position.from_id("ZrvFIACbewcAAA") if options.get("bearoff") else None
    kernel = bg.rollout(pos, games=400, policy="pubeval", seed=3, variance_reduction=False, workers=1, **options)
    stepped = bg.rollout(pos, games=400, policy=PythonPubeval(), seed=3, variance_reduction=False, workers=1,
                         **options)
    for name in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity", "equity_se"):
        assert getattr(kernel, name) == getattr(stepped, name), name


def test_duels_rollouts_and_vector_games_share_the_loop(monkeypatch):
    calls = []
    advance = lockstep.Lanes.advance

    def spy(self, rows, chosen, turn=None):
        calls.append(len(rows))
        return advance(self, rows, chosen, turn)

    monkeypatch.setattr(lockstep.Lanes, "advance", spy)
    bg.duel("pubeval", "random", games=4, seed=1, workers=1)
    after_duel = len(calls)
    bg.rollout(games=8, policy=PythonPubeval(), seed=1, workers=1, variance_reduction=False)
    after_rollout = len(calls)
    games = bg.VectorGames(3, seed=1)
    games.candidates()
    games.advance(np.zeros(3, dtype=np.int64))
    assert 0 < after_duel < after_rollout < len(calls) and calls[-1] == 3


def test_lanes_play_every_game_once_and_stop():
    lanes = lockstep.Lanes(bg.Position.initial().array, 4, games=10, first=100, key=7)
    seen, results = [], []

    def ended(done, res):
        seen.extend(int(lanes.index[k]) for k in done)
        results.extend(res.tolist())
        lanes.restart(done)

    players = (RandomPlayer(seed=1), RandomPlayer(seed=2))
    lanes.run(players, ended)
    assert sorted(seen) == list(range(100, 110)) and not lanes.live.any()
    for r in results:          # every game ends won or lost, gammons within wins
        assert r[0] in (0.0, 1.0) and (r[1] == 0 or r[0] == 1) and (r[3] == 0 or r[0] == 0)


def test_a_bad_choice_is_refused():
    class Wrong(RandomPlayer):
        def choose_indices(self, boards, rolls):
            return np.full(len(boards), 999)

    with pytest.raises(RuntimeError, match="outside its legal plays"):
        bg.duel(Wrong(), "random", games=2, seed=1)


def test_rollout_takes_a_scorer_as_scorer_and_an_evaluator_as_evaluator():
    from backgammon.evaluator import PubevalEvaluator
    from backgammon.pubeval import pubeval
    by_scorer = bg.rollout(games=60, scorer=pubeval, seed=2, variance_reduction=False)
    with pytest.warns(DeprecationWarning, match="scorer="):
        old_name = bg.rollout(games=60, evaluator=pubeval, seed=2, variance_reduction=False)
    assert by_scorer.equity == old_name.equity
    chances = bg.rollout(games=60, evaluator=PubevalEvaluator(), seed=2, variance_reduction=False)
    assert chances.games == 60
    with pytest.raises(TypeError, match="not both"):
        bg.rollout(games=6, scorer=pubeval, evaluator=pubeval)
    with pytest.raises(ValueError, match="scorer: a scorer runs"):
        bg.rollout(games=6, scorer=pubeval, workers=2)


def test_a_lane_that_starts_a_new_game_asks_the_cube_first():
    # A double/pass position (RULES 7.3): every game of a cubeful rollout is
    # the side on roll doubling and the other side passing, the games that
    # lanes start after a pass too (more games than lanes in one chunk).
    pos = bg.Position.from_id("kk/wAQrB18FBIA")
    assert bg.cube_decision(pos).action == "double, pass"
    from backgammon.rollouts import LANES
    games = LANES + 76
    r = bg.rollout(pos, games=games, chunk_size=games, cube=True, workers=1, variance_reduction=False, seed=1)
    # Every game's value is the pass; its chances are those of playing on (issue 40, C2).
    assert r.cubeful_equity == 1.0 and r.cubeful_equity_se == 0.0 and r.passes == games and r.win < 1.0
