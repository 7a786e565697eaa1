"""Training the networks by self-play: reproducible, resumable, from the command line."""
import subprocess
import sys

import numpy as np
import pytest

import backgammon as bg
from backgammon import _net, network, train


def _same(a, b):
    return all(np.array_equal(a[k], b[k]) for k in a)


def test_same_seed_same_weights(tmp_path):
    train.train(60, seed=3, out=tmp_path / "a.npz", progress=False, chunk=20)
    train.train(60, seed=3, out=tmp_path / "b.npz", progress=False, chunk=20)
    train.train(60, seed=4, out=tmp_path / "c.npz", progress=False, chunk=20)
    a, meta = network.read(tmp_path / "a.npz")
    b, _ = network.read(tmp_path / "b.npz")
    c, _ = network.read(tmp_path / "c.npz")
    assert _same(a, b) and not _same(a, c)
    assert meta["games"] == 60 and meta["seed"] == 3 and meta["command"].startswith("backgammon train")
    fresh = network.new_arrays(seed=3)
    assert not _same(a, fresh)       # it learned something


def test_the_recorded_command_names_every_network_size(tmp_path):
    # The meta record is the recipe: a run with other hidden sizes must say so.
    train.train(20, seed=3, out=tmp_path / "a.npz", progress=False, chunk=20, contact_hidden=32,
                race_hidden=16, crashed_hidden=48, prune_games=0)
    arrays, meta = network.read(tmp_path / "a.npz")
    assert "--contact-hidden 32 --race-hidden 16 --crashed-hidden 48" in meta["command"]
    assert arrays["contact_w1"].shape[1] == 32 and arrays["race_w1"].shape[1] == 16
    assert arrays["crashed_w1"].shape[1] == 48


def test_an_interrupted_run_resumes_to_the_same_weights(tmp_path, monkeypatch):
    train.train(60, seed=5, out=tmp_path / "whole.npz", progress=False, chunk=20)
    real = _net.selfplay_train
    calls = []

    def stop_on_the_second_chunk(*args):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(_net, "selfplay_train", stop_on_the_second_chunk)
    with pytest.raises(KeyboardInterrupt):
        train.train(60, seed=5, out=tmp_path / "part.npz", progress=False, chunk=20)
    assert (tmp_path / "part.npz.ckpt").exists()
    assert network.read(tmp_path / "part.npz.ckpt")[1]["games"] == 20
    monkeypatch.setattr(_net, "selfplay_train", real)
    train.train(60, seed=5, out=tmp_path / "part.npz", progress=False, chunk=20)
    assert not (tmp_path / "part.npz.ckpt").exists()
    assert _same(network.read(tmp_path / "whole.npz")[0], network.read(tmp_path / "part.npz")[0])
    with pytest.raises(ValueError, match="settings"):
        network.save(tmp_path / "x.npz.ckpt", network.new_arrays(1), {"seed": 99, "games": 1, "seconds": 0})
        train.train(60, seed=5, out=tmp_path / "x.npz", progress=False, chunk=20)


def test_train_arguments(tmp_path):
    with pytest.raises(TypeError, match="games"):
        train.train(1.5, out=tmp_path / "w.npz")
    with pytest.raises(ValueError, match="seed"):
        train.train(10, seed=-1, out=tmp_path / "w.npz")


def test_train_command(tmp_path):
    out = tmp_path / "nets.npz"
    result = subprocess.run([sys.executable, "-m", "backgammon", "train", "--games", "40", "--seed", "1",
                             "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "trained 40 games" in result.stdout
    nets = network.load(out)
    assert 0 <= bg.evaluate(bg.Position.initial(), networks=nets).win <= 1


def test_refinement_rounds_resume_and_ignore_the_thread_count(tmp_path, monkeypatch):
    kw = dict(seed=2, progress=False, chunk=20, refine_rounds=2, refine_games=6)
    train.train(40, out=tmp_path / "one.npz", threads=1, **kw)
    train.train(40, out=tmp_path / "two.npz", threads=2, **kw)
    one, meta = network.read(tmp_path / "one.npz")
    assert _same(one, network.read(tmp_path / "two.npz")[0])
    assert meta["refine_rounds"] == 2 and "--refine-rounds 2" in meta["command"]
    plain, _ = network.read(train.train(40, out=tmp_path / "plain.npz", seed=2, progress=False, chunk=20).out)
    assert not _same(one, plain)          # the rounds changed the weights
    real = train.refine_round
    calls = []

    def stop_in_the_second_round(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(train, "refine_round", stop_in_the_second_round)
    with pytest.raises(KeyboardInterrupt):
        train.train(40, out=tmp_path / "cut.npz", **kw)
    assert network.read(tmp_path / "cut.npz.ckpt")[1]["refine_rounds"] == 1
    monkeypatch.setattr(train, "refine_round", real)
    train.train(40, out=tmp_path / "cut.npz", **kw)
    assert _same(one, network.read(tmp_path / "cut.npz")[0])


# -- rollout-supervised rounds (issue: a stronger network) ----------------------------------

ROUNDS = dict(seed=6, progress=False, chunk=20, rounds=2, positions=24, label_games=36, label_truncate=3)


def test_rounds_label_with_truncated_rollouts_and_learn_them(tmp_path):
    result = train.train(40, out=tmp_path / "r.npz", workers=1, **ROUNDS)
    assert result.rounds == 2 and result.labels == 48
    with np.load(tmp_path / "r.npz.labels.npz") as d:
        boards, targets, rounds = d["boards"], d["targets"], d["round"]
    assert boards.shape == (48, 2, 25) and sorted(set(rounds.tolist())) == [0, 1]
    assert ((0 <= targets) & (targets <= 1)).all() and (targets[:, 1] <= targets[:, 0] + 1e-6).all()
    # The labels are what label_positions gives for those positions.
    first = network.read(tmp_path / "r.npz")[1]
    assert first["rounds"] == 2 and "--rounds 2" in first["command"]
    plain, _ = network.read(train.train(40, out=tmp_path / "p.npz", seed=6, progress=False, chunk=20).out)
    assert not _same(network.read(tmp_path / "r.npz")[0], plain)


def test_rounds_are_the_same_on_any_executor_and_resume_after_an_interrupt(tmp_path, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")   # the test extra installs it
    one = network.read(train.train(40, out=tmp_path / "one.npz", workers=1, **ROUNDS).out)[0]
    two = network.read(train.train(40, out=tmp_path / "two.npz", workers=2, **ROUNDS).out)[0]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        dask = network.read(train.train(40, out=tmp_path / "dask.npz", executor=client.get_executor(),
                                        **ROUNDS).out)[0]
    assert _same(one, two) and _same(one, dask)
    # Ctrl-C in the second round's labelling: the checkpoint holds one round,
    # and the resumed run ends with the same weights.
    real = train.label_positions
    calls = []

    def stop_in_the_second_round(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(train, "label_positions", stop_in_the_second_round)
    with pytest.raises(KeyboardInterrupt):
        train.train(40, out=tmp_path / "cut.npz", workers=1, **ROUNDS)
    assert network.read(tmp_path / "cut.npz.ckpt")[1]["rounds"] == 1
    monkeypatch.setattr(train, "label_positions", real)
    train.train(40, out=tmp_path / "cut.npz", workers=1, **ROUNDS)
    assert _same(one, network.read(tmp_path / "cut.npz")[0])


def test_a_round_cut_short_resumes_its_labelling_where_it_stopped(tmp_path, monkeypatch):
    # Labels saved every block: a round stopped in its second block keeps
    # the first, labels only the rest when resumed, and ends with the
    # weights of a run that never stopped, whatever the block size.
    whole = network.read(train.train(40, out=tmp_path / "whole.npz", workers=1, **ROUNDS).out)[0]
    real = train.label_positions
    sizes = []

    def stop_in_the_second_rounds_second_block(nets, boards, **kwargs):
        sizes.append(len(boards))
        if len(sizes) == 5:
            raise KeyboardInterrupt
        return real(nets, boards, **kwargs)

    monkeypatch.setattr(train, "label_positions", stop_in_the_second_rounds_second_block)
    with pytest.raises(KeyboardInterrupt):
        train.train(40, out=tmp_path / "cut.npz", workers=1, label_block=10, **ROUNDS)
    assert sizes == [10, 10, 4, 10, 10]
    assert network.read(tmp_path / "cut.npz.ckpt")[1]["rounds"] == 1
    with np.load(tmp_path / "cut.npz.round.npz") as d:
        assert d["targets"].shape == (10, 5) and set(d["round"].tolist()) == {1}
    sizes.clear()
    train.train(40, out=tmp_path / "cut.npz", workers=1, label_block=10, **ROUNDS)
    assert sizes == [10, 4]                      # the second round's last two blocks only
    assert not (tmp_path / "cut.npz.round.npz").exists()
    assert _same(whole, network.read(tmp_path / "cut.npz")[0])
    # Labelling in parts numbers the positions as one call does.
    boards = np.load(tmp_path / "cut.npz.labels.npz")["boards"][:6]
    seed = np.random.SeedSequence(3)
    one = real(network.default(), boards, games=36, truncate=2, seed=seed, workers=1)
    parts = [real(network.default(), boards[a:a + 3], games=36, truncate=2, seed=seed, first=a, workers=1)
             for a in (0, 3)]
    assert np.array_equal(one, np.concatenate(parts))
    with pytest.raises(ValueError, match="first"):
        real(network.default(), boards, games=36, first=-1)


def test_label_positions_agrees_with_a_rollout_and_the_tables():
    # A race in the bear-off tables: the label is the exact chance within
    # the rollout's noise (every game stops there at once).
    from backgammon import bearoff
    a = np.zeros((2, 25), np.uint8)
    a[1][[0, 1, 2]] = [2, 2, 1]
    a[0][[3, 4, 5]] = [2, 2, 2]
    pos = bg.Position.from_array(a)
    label = train.label_positions(network.default(), a[None], games=36, truncate=5, workers=1)
    assert abs(label[0, 0] - bearoff.race_win_probability(pos)) < 1e-5
    with pytest.raises(ValueError, match="shape"):
        train.label_positions(network.default(), a, games=36)
    with pytest.raises(ValueError, match="games"):
        train.label_positions(network.default(), a[None], games=0)


def test_round_arguments(tmp_path):
    with pytest.raises(ValueError, match="positions"):
        train.train(10, out=tmp_path / "w.npz", rounds=1, positions=1)
    with pytest.raises(ValueError, match="layout"):
        train.train(10, out=tmp_path / "w.npz", layout=3)
    with pytest.raises(TypeError, match="round_alpha"):
        train.train(10, out=tmp_path / "w.npz", round_alpha="big")


def _shipped_copy():
    return network.networks({k: v.copy() for k, v in network.default().arrays.items() if not k.startswith("prune_")})


def test_exploring_self_play_plays_near_the_best_and_is_reproducible():
    def plies_per_game(explore, within, seed=1, games=60):
        played, _, _, plies = _net.selfplay_train(_shipped_copy(), games, np.random.default_rng(seed), 0.0, 0.0,
                                                  explore, within)
        return plies / played
    greedy = plies_per_game(0.0, 0.0)
    # Every decision exploring, but only among plays as good as the best: greedy games, other dice.
    assert abs(plies_per_game(1.0, 0.0) / greedy - 1) < 0.15
    # Every decision exploring among all plays: random play, far longer games.
    assert plies_per_game(1.0, 100.0) > 1.4 * greedy
    # Same seed, same weights; and exploring changes what is learnt.
    a, b, c = _shipped_copy(), _shipped_copy(), _shipped_copy()
    for nets, explore in ((a, 0.3), (b, 0.3), (c, 0.0)):
        _net.selfplay_train(nets, 20, np.random.default_rng(7), 0.05, 0.05, explore, 0.1)
    assert _same(a.arrays, b.arrays) and not _same(a.arrays, c.arrays)
    # Without exploring the width is not used: the greedy run's weights.
    d = _shipped_copy()
    _net.selfplay_train(d, 20, np.random.default_rng(7), 0.05, 0.05, 0.0, 0.5)
    assert _same(c.arrays, d.arrays)


def test_exploring_runs_are_recorded_and_resume_only_as_themselves(tmp_path):
    kw = dict(seed=2, progress=False, chunk=20)
    out = train.train(40, out=tmp_path / "e.npz", explore=0.2, explore_within=0.05, **kw).out
    arrays, meta = network.read(out)
    assert meta["explore"] == 0.2 and meta["explore_within"] == 0.05
    assert "--explore 0.2 --explore-within 0.05" in meta["command"]
    plain, meta = network.read(train.train(40, out=tmp_path / "p.npz", **kw).out)
    assert "explore" not in meta and not _same(arrays, plain)
    # A checkpoint of a greedy run is not continued by an exploring one, nor the other way.
    network.save(tmp_path / "g.npz.ckpt", plain, {**meta, "games": 20})
    with pytest.raises(ValueError, match="settings"):
        train.train(40, out=tmp_path / "g.npz", explore=0.2, **kw)
    network.save(tmp_path / "x.npz.ckpt", arrays, {**network.read(out)[1], "games": 20})
    with pytest.raises(ValueError, match="settings"):
        train.train(40, out=tmp_path / "x.npz", **kw)


def test_explore_arguments(tmp_path):
    with pytest.raises(ValueError, match="explore"):
        train.train(10, out=tmp_path / "w.npz", explore=1.5)
    with pytest.raises(TypeError, match="explore"):
        train.train(10, out=tmp_path / "w.npz", explore="often")
    with pytest.raises(ValueError, match="explore_within"):
        train.train(10, out=tmp_path / "w.npz", explore=0.1, explore_within=-1.0)
    with pytest.raises(ValueError, match="explore"):
        _net.selfplay_train(_shipped_copy(), 1, np.random.default_rng(1), 0.1, 0.1, -0.1, 0.1)
    with pytest.raises(ValueError, match="within"):
        _net.selfplay_train(_shipped_copy(), 1, np.random.default_rng(1), 0.1, 0.1, 0.1, -0.1)
    result = subprocess.run([sys.executable, "-m", "backgammon", "train", "--games", "10", "--explore", "2",
                             "--out", str(tmp_path / "w.npz")], capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "explore" in result.stderr


def _flipped(p):
    # Chances seen from the other side: win and loss swap, gammons and backgammons too.
    return np.array([1 - p[0], p[3], p[4], p[1], p[2]])


def test_td_lambda_returns_mix_each_bootstrap_with_the_next_return():
    rng = np.random.default_rng(3)
    boot = rng.uniform(0, 1, size=(7, 5)).astype(np.float32)
    cut = np.array([0, 0, 1, 0, 0, 0, 1], np.uint8)
    for lam in (0.0, 0.4, 1.0):
        want = boot.astype(np.float64).copy()
        for t in range(len(boot) - 2, -1, -1):
            if not cut[t]:
                want[t] = (1 - lam) * boot[t] + lam * _flipped(want[t + 1])
        np.testing.assert_allclose(_net.td_returns(boot, cut, lam), want, rtol=1e-5, atol=1e-6)
    # lambda 0: the bootstraps; lambda 1 without cuts: the last target, flipped every other position.
    assert np.array_equal(_net.td_returns(boot, cut, 0.0), boot)
    whole = _net.td_returns(boot, np.zeros(7, np.uint8), 1.0)
    np.testing.assert_allclose(whole[5], _flipped(boot[6]), atol=1e-6)
    np.testing.assert_allclose(whole[4], boot[6], atol=1e-6)
    with pytest.raises(ValueError, match="cut"):
        _net.td_returns(boot, cut[:3], 0.5)


def test_td_lambda_self_play_learns_returns_and_is_reproducible(tmp_path):
    def mean_error(lam):
        _, err, updates, plies = _net.selfplay_train(_shipped_copy(), 60, np.random.default_rng(2), 0.0, 0.0,
                                                     0.0, 0.0, lam)
        assert updates == plies            # every position after a play, the last included, learns once
        return err / updates
    # Without steps the dice and plays are TD(0)'s; the targets move from the
    # next position's value (near the network's) to the game's result.
    e0, e5, e1 = mean_error(0.0), mean_error(0.5), mean_error(1.0)
    assert e0 < e5 < e1 and e1 > 5 * e0
    a, b, c = _shipped_copy(), _shipped_copy(), _shipped_copy()
    for nets, lam in ((a, 0.7), (b, 0.7), (c, 0.0)):
        _net.selfplay_train(nets, 20, np.random.default_rng(5), 0.05, 0.05, 0.1, 0.1, lam)
    assert _same(a.arrays, b.arrays) and not _same(a.arrays, c.arrays)
    out = train.train(40, out=tmp_path / "l.npz", seed=2, progress=False, chunk=20, td_lambda=0.7).out
    meta = network.read(out)[1]
    assert meta["td_lambda"] == 0.7 and "--td-lambda 0.7" in meta["command"]
    with pytest.raises(ValueError, match="td_lambda"):
        train.train(10, out=tmp_path / "w.npz", td_lambda=2.0)
    with pytest.raises(ValueError, match="lam"):
        _net.selfplay_train(_shipped_copy(), 1, np.random.default_rng(1), 0.1, 0.1, 0.0, 0.0, -0.5)
