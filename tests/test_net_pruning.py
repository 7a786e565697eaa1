"""The pruning network (docs/evaluation.md, "Pruning"): the choices of a
play inside searches and rollouts rank every play leading to contact by a
small raw-input network and evaluate only its best few in full."""
import pickle

import numpy as np
import pytest

import backgammon as bg
from backgammon import _net, network, train
from backgammon.batch import legal_positions
from backgammon.evaluation import equity
from backgammon.sample import random_positions

CONTACT = 3
KEEP, WITHIN = 5, 0.2


@pytest.fixture(scope="module")
def sets():
    """Positions of the networks' own self-play, one roll each, and their plays."""
    boards = _net.sample_positions(network.default(), 300, np.random.default_rng(8))
    rolls = np.random.default_rng(9).integers(1, 7, size=(len(boards), 2)).astype(np.uint8)
    offsets, children = legal_positions(boards, rolls)
    return boards, rolls, offsets, children


def _pruned_pick(nets, kids):
    # The rule, written out: plays leading to contact ranked by the pruning
    # network's equity (stable), its best KEEP within WITHIN of its best
    # evaluated in full with every other play; the lowest equity for the
    # next mover wins, the first of equals.
    cls = _net.position_classes(kids)
    full = equity(_net.evaluate(nets, kids, 0).astype(np.float64))
    contact = np.flatnonzero(cls >= CONTACT)
    candidates = np.flatnonzero(cls < CONTACT)
    if len(kids) > KEEP and len(contact):
        score = equity(_net.prune_chances(nets, kids).astype(np.float64))[contact]
        order = contact[np.argsort(score, kind="stable")][:KEEP]
        top = np.sort(score, kind="stable")[:KEEP]
        candidates = np.concatenate([candidates, order[top <= top[0] + WITHIN + 1e-6]])
    else:
        candidates = np.arange(len(kids))
    return candidates, full


def test_the_shipped_weights_have_a_pruning_network():
    nets = network.default()
    assert nets.pruning == KEEP
    assert nets.arrays["prune_w1"].shape == (network.PRUNE_INPUTS, 32)
    meta = network.meta()
    assert meta["prune_games"] > 0 and meta["command"].startswith(("backgammon train", "python training/fit_"))


def test_one_ply_replies_follow_the_pruning_rule(sets):
    # 1-ply: each roll's reply is the pruned choice; its value is the
    # full 0-ply chances of that reply, averaged over the 21 rolls.
    nets = network.default()
    boards = random_positions(40, seed=12)[0]
    for board in boards[:12]:
        pos = bg.Position.from_array(board)
        if pos.is_game_over():
            continue
        want = np.zeros(5)
        for roll, weight in zip(bg.ROLLS, bg.ROLL_PROBABILITIES):
            kids = np.ascontiguousarray(pos.legal_plays(roll).positions, dtype=np.uint8)
            candidates, full = _pruned_pick(nets, kids)
            best = candidates[np.argmin(full[candidates])] if len(kids) > 1 else 0
            w, wg, wb, lg, lb = _net.evaluate(nets, kids[best:best + 1], 0)[0].astype(np.float64)
            want += weight * np.array([1 - w, lg, lb, wg, wb])
        got = _net.evaluate(nets, np.ascontiguousarray(board[None]), 1)[0]
        assert np.allclose(got, want, atol=2e-5), pos.to_id()


def test_without_pruning_one_ply_takes_every_plays_best(sets):
    arrays, _ = network.read(network._shipped())
    nets = network.networks(arrays)
    nets.pruning = 0
    pos = bg.Position.from_array(random_positions(50, seed=4)[0][41])
    want = np.zeros(5)
    for roll, weight in zip(bg.ROLLS, bg.ROLL_PROBABILITIES):
        after = _net.evaluate(nets, np.ascontiguousarray(pos.legal_plays(roll).positions, dtype=np.uint8), 0)
        w, wg, wb, lg, lb = after[int(np.argmin(equity(after.astype(np.float64))))].astype(np.float64)
        want += weight * np.array([1 - w, lg, lb, wg, wb])
    got = _net.evaluate(nets, np.ascontiguousarray(np.asarray(pos.array)[None], dtype=np.uint8), 1)[0]
    assert np.allclose(got, want, atol=1e-5)


def test_the_pruned_choice_is_nearly_always_the_full_one(sets):
    # Measured quality: on the networks' own positions the pruned choice is
    # the full 0-ply choice in at least 95% of the rolls with more than
    # KEEP plays, and costs under 0.001 equity a decision on average.
    _, _, offsets, children = sets
    nets = network.default()
    same = loss = n = 0
    for i in range(len(offsets) - 1):
        kids = np.ascontiguousarray(children[offsets[i]:offsets[i + 1]])
        if len(kids) <= KEEP:
            continue
        candidates, full = _pruned_pick(nets, kids)
        pick = candidates[np.argmin(full[candidates])]
        same += full[pick] == full.min()
        loss += full[pick] - full.min()
        n += 1
    assert n > 2000
    assert same / n >= 0.95 and loss / n < 0.001, (same / n, loss / n)


def test_players_evaluate_every_play(sets):
    # NetPlayer's 0-ply choice (_net.choose) is the full networks' best.
    boards, rolls, offsets, children = sets
    nets = network.default()
    picks = _net.choose(nets, boards[:400], rolls[:400], 0)
    for i in range(400):
        kids = children[offsets[i]:offsets[i + 1]]
        full = equity(_net.evaluate(nets, np.ascontiguousarray(kids), 0).astype(np.float64))
        assert full[picks[i]] == full.min()


def test_rollouts_prune_and_stay_seeded():
    a = bg.rollout(games=72, seed=5, variance_reduction=False)
    again = bg.rollout(games=72, seed=5, variance_reduction=False)
    assert (a.equity, a.win, a.win_gammon) == (again.equity, again.win, again.win_gammon)
    arrays, _ = network.read(network._shipped())
    full = network.networks(arrays)
    full.pruning = 0
    b = bg.rollout(games=72, seed=5, variance_reduction=False, policy=bg.players.NetPlayer(0, networks=full))
    assert abs(a.equity - b.equity) < 4 * np.hypot(a.equity_se, b.equity_se)


def test_the_setting_is_checked_and_travels():
    arrays, _ = network.read(network._shipped())
    nets = network.networks(arrays)
    for bad in (-1, 17):
        with pytest.raises(ValueError, match="pruning"):
            nets.pruning = bad
    nets.pruning = 3
    back = pickle.loads(pickle.dumps(nets))
    assert back.pruning == 3 and back is not network.default()
    assert pickle.loads(pickle.dumps(network.default())) is network.default()
    bare = network.networks({k: v for k, v in arrays.items() if not k.startswith("prune_")})
    assert bare.pruning == 0
    with pytest.raises(ValueError, match="pruning network"):
        bare.pruning = 5
    with pytest.raises(ValueError, match="pruning network"):
        _net.prune_chances(bare, np.zeros((1, 2, 25), np.uint8))


def test_training_is_not_pruned():
    # Self-play training moves the weights under the pruning network: it
    # plays unpruned, so a pruning network changes nothing it learns.
    arrays = network.new_arrays(seed=2)
    with_pruner = train.fit_pruner(arrays, seed=1, games=5, epochs=1)
    a = network.networks({k: v.copy() for k, v in arrays.items()})
    b = network.networks({k: v.copy() for k, v in with_pruner.items()})
    assert b.pruning == KEEP
    _net.selfplay_train(a, 30, np.random.default_rng(4), 0.1, 0.1)
    _net.selfplay_train(b, 30, np.random.default_rng(4), 0.1, 0.1)
    assert all(np.array_equal(a.arrays[k], b.arrays[k]) for k in a.arrays)


def test_fit_pruner_is_seeded_and_leaves_its_input():
    arrays, _ = network.read(network._shipped())
    before = {k: v.copy() for k, v in arrays.items()}
    one = train.fit_pruner(arrays, seed=3, games=8, epochs=2)
    two = train.fit_pruner(arrays, seed=3, games=8, epochs=2)
    assert all(np.array_equal(one[k], two[k]) for k in one)
    assert all(np.array_equal(before[k], arrays[k]) for k in arrays)
    assert not np.array_equal(one["prune_w1"], arrays["prune_w1"])
    with pytest.raises(ValueError, match="hidden"):
        train.fit_pruner(arrays, hidden=24)
    with pytest.raises(ValueError, match="games"):
        train.fit_pruner(arrays, games=0)


def test_train_fits_the_pruning_network(tmp_path):
    out = tmp_path / "nets.npz"
    train.train(games=20, seed=1, out=out, progress=False, chunk=10)
    arrays, meta = network.read(out)
    assert "prune_w1" in arrays and meta["prune_games"] == 20
    train.train(games=20, seed=1, out=tmp_path / "bare.npz", progress=False, chunk=10, prune_games=0)
    assert "prune_w1" not in network.read(tmp_path / "bare.npz")[0]
