"""A native evaluator (docs/cython-api.md) wherever the public API takes
an evaluator or a player: ``evaluate``, ``hint``, ``cube_decision``,
``rollout`` / ``rollout_plays`` / ``rollout_cube``, ``duel``, ``analyse``,
the players and the environments' opponents.

The evaluator is examples/native_evaluator's ``TesauroNet`` (built once a
session, conftest.py).  It is also a plain Python callable giving the same
float32 chances, so each entry point's answer is compared with the same
network through the Python path (a lambda over it): where the kernel
plays (0-ply choices, rollouts) the games must be the same ones.
"""
import sys

import numpy as np
import pytest

import backgammon as bg
from backgammon import _rollout
from backgammon.evaluator import NativeEvaluator, as_evaluator
from backgammon.players import EvaluatorPlayer, player
from backgammon.sample import random_positions


@pytest.fixture(scope="module")
def tesauro(native_example):
    sys.path.insert(0, str(native_example))
    try:
        from tesauro_net import TesauroNet
    finally:
        sys.path.remove(str(native_example))
    return TesauroNet


@pytest.fixture(scope="module")
def net(tesauro):
    # Without its pruner: every play evaluated in full, as the Python path does.
    return tesauro(prune=False)


def python_path(net):
    """The same network as a user's Python callable."""
    return lambda boards: net(boards)


class BadCapsule:
    def __backgammon_evaluator__(self):
        return 42


def test_as_evaluator_wraps_a_native_evaluator_and_evaluates_as_its_own_call(net):
    ev = as_evaluator(net)
    assert isinstance(ev, NativeEvaluator) and ev.native is net
    assert as_evaluator(ev) is ev
    boards, _ = random_positions(300, seed=3)
    assert np.array_equal(ev(boards), net(boards))               # float64 of the same float32 chances
    got = bg.evaluate(boards, evaluator=net)
    ref = bg.evaluate(boards, evaluator=python_path(net))
    assert np.array_equal(got.probabilities, ref.probabilities)
    one = bg.evaluate(bg.Position.initial(), ply=1, evaluator=net)
    assert one.win == bg.evaluate(bg.Position.initial(), ply=1, evaluator=python_path(net)).win


def test_hints_and_cube_decisions_with_a_native_evaluator_equal_the_python_path(net):
    pos = bg.Position.initial()
    for ply in (0, 1):
        mine = bg.hint(pos, "43", ply, evaluator=net, top=6)
        ref = bg.hint(pos, "43", ply, evaluator=python_path(net), top=6)
        assert [str(h.play) for h in mine] == [str(h.play) for h in ref]
        assert [h.equity for h in mine] == [h.equity for h in ref]
    boards, _ = random_positions(20, seed=9)
    for b in boards:
        pos = bg.Position(b)
        for ply in (0, 1):
            a = bg.cube_decision(pos, ply=ply, evaluator=net)
            b = bg.cube_decision(pos, ply=ply, evaluator=python_path(net))
            assert (a.action, a.no_double, a.double_take) == (b.action, b.no_double, b.double_take)


def test_a_native_players_choices_are_the_kernels_and_equal_the_python_path(net, tesauro):
    boards, rolls = random_positions(400, seed=5)
    native = EvaluatorPlayer(net)
    assert native.kernel_policy() is not None and native.kernel_policy()[1].native is net
    assert EvaluatorPlayer(net, ply=1).kernel_policy() is None
    assert EvaluatorPlayer(python_path(net)).kernel_policy() is None
    mine = native.choose_indices(boards, rolls)
    ref = EvaluatorPlayer(python_path(net)).choose_indices(boards, rolls)
    assert np.array_equal(mine, ref)
    # player() and a spec-taking tool take the object itself.
    assert isinstance(player(net), EvaluatorPlayer)
    # With its pruner the choices are the pruned game loop's, which mostly agree.
    pruned = EvaluatorPlayer(tesauro()).choose_indices(boards, rolls)
    assert 0.7 < np.mean(pruned == mine) < 1.0


def _kernel_calls(monkeypatch):
    # Records the native evaluator each kernel game loop call gets.
    calls = []
    real = _rollout.play_games

    def spy(*args, **kwargs):
        calls.append(kwargs.get("evaluator"))
        return real(*args, **kwargs)
    monkeypatch.setattr("backgammon.rollouts.loop._rollout.play_games", spy)
    return calls


def test_rollout_with_a_native_evaluator_runs_in_the_kernel_and_equals_the_python_path(net, monkeypatch):
    calls = _kernel_calls(monkeypatch)
    pos = bg.Position.initial()
    plain = bg.rollout(pos, games=144, seed=3, workers=1, evaluator=net, variance_reduction=False)
    assert calls == [net]                                    # the kernel game loop played it
    ref = bg.rollout(pos, games=144, seed=3, workers=1, evaluator=python_path(net), variance_reduction=False)
    assert len(calls) == 1                                   # the callable played in lockstep
    assert (plain.win, plain.win_gammon, plain.equity) == (ref.win, ref.win_gammon, ref.equity)
    # As a policy (the object, or its player, for one side or both): the same games.
    for policy in (net, EvaluatorPlayer(net), (net, EvaluatorPlayer(net))):
        again = bg.rollout(pos, games=144, seed=3, workers=1, policy=policy, variance_reduction=False)
        assert again.equity == plain.equity
    # Variance reduction and truncation with it, in the kernel; same seed, same result.
    calls.clear()
    vr = bg.rollout(pos, games=72, seed=4, workers=1, evaluator=net, truncate=10)
    assert calls == [net] and vr.equity_se < vr.raw_equity_se
    assert bg.rollout(pos, games=72, seed=4, workers=1, evaluator=net, truncate=10).equity == vr.equity
    # Against another kernel player, still the kernel; against the networks (another judge), lockstep.
    calls.clear()
    bg.rollout(pos, games=36, seed=1, workers=1, policy=(net, "pubeval"))
    assert calls == [net]
    calls.clear()
    mixed = bg.rollout(pos, games=36, seed=1, workers=1, policy=(net, "net"), variance_reduction=False)
    assert calls == [] and 0 < mixed.win < 1


def test_rollout_plays_and_rollout_cube_take_a_native_policy(net):
    pos = bg.Position.initial()
    mine = bg.rollout_plays(pos, "31", top=2, games=72, seed=2, workers=1, policy=net, variance_reduction=False)
    ref = bg.rollout_plays(pos, "31", top=2, games=72, seed=2, workers=1, policy=EvaluatorPlayer(net),
                           variance_reduction=False)
    assert [(str(r.play), r.equity) for r in mine] == [(str(r.play), r.equity) for r in ref]
    cube = bg.rollout_cube(pos, games=36, seed=2, workers=1, policy=net, truncate=6)
    again = bg.rollout_cube(pos, games=36, seed=2, workers=1, policy=net, truncate=6)
    assert (cube.no_double, cube.double_take) == (again.no_double, again.double_take)


def test_duel_with_a_native_evaluator_equals_the_python_path(net):
    a = bg.duel(net, "pubeval", games=40, seed=8, workers=1)
    b = bg.duel(EvaluatorPlayer(python_path(net)), "pubeval", games=40, seed=8, workers=1)
    assert a.ppg == b.ppg and a.a_wins == b.a_wins
    assert bg.duel(net, "pubeval", games=40, seed=8, workers=1).ppg == a.ppg


def test_analysis_with_a_native_evaluator_equals_the_python_path(net, tmp_path):
    path = tmp_path / "duel.mat"
    path.write_text(bg.write_mat(bg.duel("pubeval", "random", games=2, seed=1, workers=1, record=True)))
    mine = bg.analyse(bg.read_mat(str(path)), ply=0, workers=1, evaluator=net)
    ref = bg.analyse(bg.read_mat(str(path)), ply=0, workers=1, evaluator=python_path(net))
    assert [p.error for g in mine.games for p in g.plays] == [p.error for g in ref.games for p in g.plays]
    assert len(mine.games[0].plays) > 10


def _episode_trace(make, steps=150):
    # The agent always takes its first play: the trace is the opponent's doing.
    envs = make()
    envs.reset(seed=5)
    trace = []
    for _ in range(steps):
        first = np.zeros(envs.num_envs, dtype=np.int64)
        obs, reward, terminated, _, _ = envs.step(first)
        trace.append((obs["observation"].tobytes(), reward.tolist(), terminated.tolist()))
    envs.close()
    return trace


def test_the_environments_play_against_a_native_evaluator_as_against_the_python_path(net):
    gym = pytest.importorskip("gymnasium")
    import backgammon.env  # noqa: F401  (registers the environment)
    for mode in ("vector_entry_point", "sync"):
        traces = [_episode_trace(lambda mode=mode, opponent=opponent: gym.make_vec(
                      "backgammon/Backgammon-v0", num_envs=3, vectorization_mode=mode, opponent=opponent))
                  for opponent in (net, EvaluatorPlayer(python_path(net)))]
        assert traces[0] == traces[1], mode
        assert any(any(r) for _, r, _ in traces[0])      # games ended


@pytest.mark.parametrize("call", [
    lambda bad: bg.rollout(games=2, workers=1, evaluator=bad),
    lambda bad: bg.rollout(games=2, workers=1, policy=bad),
    lambda bad: bg.duel(bad, "pubeval", games=2, workers=1),
    lambda bad: bg.hint(bg.Position.initial(), "31", evaluator=bad),
    lambda bad: bg.evaluate(bg.Position.initial(), evaluator=bad),
    lambda bad: player(bad, name="opponent"),
], ids=["rollout-evaluator", "rollout-policy", "duel", "hint", "evaluate", "player"])
def test_a_bad_native_evaluator_is_a_type_error_naming_the_parameter(call):
    with pytest.raises(TypeError, match=r"^(evaluator|policy|a|opponent): __backgammon_evaluator__\(\) must return"):
        call(BadCapsule())
