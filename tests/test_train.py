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
