"""The blind-spot labelling run and benchmark (issue 41): self-play from
given positions, a labelling cut short and resumed giving the labels of
one run, the fit keeping its weight format, and the benchmark's table."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from backgammon import _net, network
from backgammon.position_types import NETWORK_TYPES, TYPES, position_types
from helpers import load_script

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def labelling():
    return load_script(ROOT / "training" / "blind_spots.py")


@pytest.fixture(scope="module")
def bench():
    return load_script(ROOT / "benchmarks" / "blind_spots.py")


@pytest.fixture(scope="module")
def starts():
    boards = _net.sample_positions(network.default(), 20, np.random.default_rng(3), 0.1)
    kinds = position_types(boards)
    return np.ascontiguousarray(boards[kinds == TYPES.index("prime")][:30])


def test_games_continued_from_positions_are_legal_and_seeded(labelling, starts):
    nets = network.default()
    a = labelling.continue_games(nets, starts, np.random.default_rng(1), plies=6)
    b = labelling.continue_games(nets, starts, np.random.default_rng(1), plies=6)
    assert len(a) > len(starts) and (a == b).all()
    assert (_net.position_classes(a) >= 2).all()          # nothing finished or exact
    from backgammon import Position
    for board in a[::17]:
        Position.from_array(board)                          # each a valid position


def test_labelling_resumes_to_the_labels_of_one_run(labelling, starts, tmp_path):
    positions = tmp_path / "p.npz"
    kinds = position_types(starts[:6])
    np.savez_compressed(positions, boards=starts[:6], types=kinds, source=np.zeros(6, np.int8))
    common = ["label", "--positions", str(positions), "--games", "4", "--block", "2"]
    whole, parts = tmp_path / "whole.npz", tmp_path / "parts.npz"
    assert labelling.main(common + ["--labels", str(whole)]) == 0
    assert labelling.main(common + ["--labels", str(parts), "--limit", "3"]) == 0
    assert len(np.load(parts)["targets"]) == 3               # blocks of 2, cut at the limit
    assert labelling.main(common + ["--labels", str(parts)]) == 0
    a, b = np.load(whole), np.load(parts)
    assert a["targets"].shape == (6, 5)
    assert np.array_equal(a["targets"], b["targets"]) and np.array_equal(a["boards"], starts[:6])
    assert ((a["targets"] >= 0) & (a["targets"] <= 1)).all()
    with pytest.raises(SystemExit):                          # other settings: refused, not mixed
        labelling.main(["label", "--positions", str(positions), "--games", "8", "--labels", str(parts)])


def test_labelling_by_other_networks_is_theirs_and_resumes_only_with_them(labelling, starts, tmp_path):
    """The second round's labels (``--nets FILE``): rolled out by that
    file's players, so other than the shipped networks' labels, and a
    checkpoint goes on only with the networks that began it."""
    positions, nets = tmp_path / "p.npz", tmp_path / "nets.npz"
    np.savez_compressed(positions, boards=starts[:4], types=position_types(starts[:4]), source=np.zeros(4, np.int8))
    arrays = {k: v.copy() for k, v in network.default().arrays.items()}
    arrays["contact_b2"] = arrays["contact_b2"] + np.float32(0.5)      # another player
    network.save(nets, arrays, {"format": 2})
    common = ["label", "--positions", str(positions), "--games", "4", "--block", "2"]
    shipped, other = tmp_path / "shipped.npz", tmp_path / "other.npz"
    assert labelling.main(common + ["--labels", str(shipped)]) == 0
    assert labelling.main(common + ["--labels", str(other), "--nets", str(nets), "--limit", "2"]) == 0
    assert labelling.main(common + ["--labels", str(other), "--nets", str(nets)]) == 0
    a, b = np.load(shipped), np.load(other)
    assert str(a["nets"]) == "shipped" and str(b["nets"]).startswith("sha256:")
    assert b["targets"].shape == (4, 5) and not np.array_equal(a["targets"], b["targets"])
    with pytest.raises(SystemExit):                          # the shipped networks' checkpoint, other networks
        labelling.main(common + ["--labels", str(shipped), "--nets", str(nets)])
    with pytest.raises(SystemExit):
        labelling.main(common + ["--labels", str(other)])


def test_searching_labels_of_a_subset_resume_to_one_run(labelling, starts, tmp_path):
    """``--ply 1 --types``: only the positions of those types, in the set's
    order, labelled by the 1-ply player; cut short and resumed, the labels
    of one run; each position's dice keyed by its number in the whole set."""
    boards = np.ascontiguousarray(starts[:5])
    kinds = position_types(boards)
    kinds[[1, 3]] = TYPES.index("blitz")                     # types as the set says, not as recomputed
    positions = tmp_path / "p.npz"
    np.savez_compressed(positions, boards=boards, types=kinds, source=np.zeros(5, np.int8))
    common = ["label", "--positions", str(positions), "--games", "2", "--block", "1", "--ply", "1",
              "--types", "prime"]
    whole, parts = tmp_path / "whole.npz", tmp_path / "parts.npz"
    assert labelling.main(common + ["--labels", str(whole)]) == 0
    assert labelling.main(common + ["--labels", str(parts), "--limit", "2"]) == 0
    assert labelling.main(common + ["--labels", str(parts)]) == 0
    a, b = np.load(whole), np.load(parts)
    assert list(a["index"]) == [0, 2, 4] and int(a["ply"]) == 1
    assert np.array_equal(a["boards"], boards[[0, 2, 4]]) and np.array_equal(a["targets"], b["targets"])
    assert ((a["targets"] >= 0) & (a["targets"] <= 1)).all()
    alone = labelling.label_searching(network.default(), boards[[4]], np.array([4]), games=2, seed=4141, ply=1)
    assert np.array_equal(alone[0], a["targets"][2])
    with pytest.raises(SystemExit):                          # a 0-ply checkpoint is not continued at 1-ply
        labelling.main(common[:-4] + ["--types", "prime", "--labels", str(parts)])


def test_fit_keeps_the_weight_format(starts, tmp_path):
    fit = load_script(ROOT / "training" / "fit_blind_spots.py")
    base = {k: v for k, v in network.default().arrays.items() if not k.startswith("prune_")}
    raw = fit.raw_chances(base, starts)
    shipped = _net.evaluate(network.default(), starts, 0)
    assert np.abs(raw - shipped).max() < 0.05
    targets = np.clip(shipped + 0.05, 0, 1).astype(np.float32)
    out = fit.fit(base, starts, targets, np.ones(len(starts)), epochs=10, lr=1e-3, seed=1, progress=False)
    assert set(out) == set(base) and all(out[k].shape == base[k].shape and out[k].dtype == np.float32 for k in out)
    assert not np.array_equal(out["contact_w1"], base["contact_w1"])
    assert np.array_equal(out["race_w1"], base["race_w1"])   # no race board: the race network unchanged
    moved = _net.evaluate(network.networks(out), starts, 0)
    assert np.abs(moved - targets).mean() < np.abs(shipped - targets).mean()
    kept = fit.fit(base, starts, targets, np.ones(len(starts)), epochs=2, lr=1e-3, seed=1, progress=False,
                   networks=("race",))                       # contact not among those fitted: kept
    assert all(np.array_equal(kept[k], base[k]) for k in base)


def test_over_labels_replace_the_labels_of_the_boards_they_share(starts, tmp_path):
    fit = load_script(ROOT / "training" / "fit_blind_spots.py")
    boards = np.ascontiguousarray(starts[:4])
    targets = np.full((4, 5), 0.25, np.float32)
    later = tmp_path / "later.npz"
    np.savez_compressed(later, boards=boards[[2, 0]], targets=np.array([[0.9] * 5, [0.1] * 5], np.float32))
    out, n = fit.over_labels(boards, targets, later)
    assert n == 2 and out[0, 0] == pytest.approx(0.1) and out[2, 0] == pytest.approx(0.9)
    assert np.array_equal(out[[1, 3]], targets[[1, 3]]) and targets[0, 0] == pytest.approx(0.25)   # a copy
    first, n = fit.over_labels(boards, targets, later, 1)                                   # its first label only
    assert n == 1 and first[2, 0] == pytest.approx(0.9) and first[0, 0] == pytest.approx(0.25)


def test_type_weights_share_the_weight_between_types():
    fit = load_script(ROOT / "training" / "fit_blind_spots.py")
    kinds = np.array([0] * 9 + [1] * 1)
    for power, share in ((0.0, 0.5), (0.5, 0.25), (1.0, 0.1)):
        w = fit.type_weights(kinds, power)
        assert w.mean() == pytest.approx(1.0)
        assert w[kinds == 1].sum() / w.sum() == pytest.approx(share)     # the rare type's share
    assert len(fit.type_weights(np.zeros(0, np.int64), 0.0)) == 0


def test_benchmark_table_and_rollouts(bench, starts):
    nets = network.default()
    mean, se = bench.rollouts(nets, starts[:3], 8, progress=False)
    again, _ = bench.rollouts(nets, starts[:3], 8, progress=False)
    assert mean.shape == (3, 5) and (se > 0).all() and np.array_equal(mean, again)
    ours = np.array([[0.5, 0.1, 0.0, 0.1, 0.0], [0.6, 0.2, 0.0, 0.1, 0.0]])
    other = ours + np.array([0.1, 0, 0, 0, 0])
    kinds = np.array([TYPES.index("blitz"), TYPES.index("race")])
    rows = bench.table(ours, other, np.array([0.01, 0.02]), ours, other, kinds)
    assert [r[0] for r in rows] == ["blitz", "race", "all"]
    blitz = rows[0]
    assert blitz[1] == 1 and blitz[2] == pytest.approx(0.1) and blitz[4] == pytest.approx(0.2)   # win, equity
    assert blitz[6] == pytest.approx(0.1) and blitz[10] == pytest.approx(0.2)                   # to gnubg 2-ply; g0-g2
    assert set(NETWORK_TYPES) >= {r[0] for r in rows[:-1]}
    full, short = bench.show(rows, False), bench.show(rows, False, rollouts=False, digits=4)
    assert "noise" in full and "noise" not in short and "ro-g2" not in short
    assert short.splitlines()[2].split() == ["blitz", "1", "0.1000", "0.0000", "0.2000", "0.2000"]
    assert bench.show(rows, True, rollouts=False).splitlines()[0].count("|") == 7
    data = np.load(bench.DATA)
    assert len(data["boards"]) == len(data["gnubg2"]) == len(data["types"])
    assert (position_types(data["boards"]) == data["types"]).all()
