"""The evaluator (docs/evaluation.md): chances, classes, search, determinism."""
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg
from backgammon import _net, bearoff, network
from backgammon.evaluation import equity, evaluate
from backgammon.sample import random_positions

from helpers import make


@pytest.fixture(scope="module")
def corpus():
    boards, rolls = random_positions(6000, seed=31)
    return boards, rolls


def test_chances_are_consistent(corpus):
    boards, _ = corpus
    ev = evaluate(boards)
    p = ev.probabilities
    assert p.shape == (len(boards), 5) and np.isfinite(p).all()
    assert (p >= 0).all() and (p <= 1).all()
    w, wg, wb, lg, lb = p.T
    assert (wg <= w).all() and (wb <= wg).all()            # gammons include backgammons
    assert (lg <= 1 - w + 1e-7).all() and (lb <= lg).all()
    assert np.allclose(ev.equity, 2 * w - 1 + wg - lg + wb - lb)


def test_evaluation_is_deterministic(corpus):
    boards, _ = corpus
    a = evaluate(boards[:2000]).probabilities
    b = evaluate(boards[:2000]).probabilities
    assert np.array_equal(a, b)
    single = evaluate(bg.Position.from_array(boards[17]))
    assert single.probabilities == pytest.approx(tuple(a[17]), abs=0)
    assert single.equity == pytest.approx(float(equity(a[17])))


def test_both_instruction_sets_agree(corpus):
    boards, _ = corpus
    wide = _net.set_instruction_set(True)
    try:
        a = evaluate(boards[:3000]).probabilities
        _net.set_instruction_set(False)
        b = evaluate(boards[:3000]).probabilities
    finally:
        _net.set_instruction_set(True)
    assert np.abs(a - b).max() < 2e-5
    assert wide in (True, False)


def test_races_with_every_checker_home_take_the_tables():
    # Both sides home: the bear-off tables answer, exactly.
    positions = [make(me={6: 1}, opp={6: 1}), make(me={6: 3, 5: 2}, opp={6: 2, 4: 3}),
                 make(me={6: 15}, opp={1: 2}), make(me={3: 5, 2: 5, 1: 5}, opp={6: 8, 5: 7})]
    boards = np.stack([p.array for p in positions])
    ev = evaluate(boards).probabilities
    exact = bearoff.race_chances(boards)
    assert np.allclose(ev[:, 0], exact[:, 0], atol=1e-6)
    assert np.allclose(ev[:, 1], exact[:, 1], atol=1e-6) and np.allclose(ev[:, 3], exact[:, 2], atol=1e-6)
    assert (ev[:, 2] == 0).all() and (ev[:, 4] == 0).all()
    assert evaluate(positions[0]).win == pytest.approx(0.8125, abs=1e-4)


def test_finished_positions_are_exact():
    # RULES 6.2-6.4 from the side on roll's view: the other side is off.
    lost_single = make(me={5: 3}, opp={}, opp_bar=0)
    e = evaluate(lost_single)
    assert e.probabilities == (0.0, 0.0, 0.0, 0.0, 0.0) and e.equity == -1.0
    lost_backgammon = make(me={20: 15}, opp={})
    e = evaluate(lost_backgammon)
    assert e.probabilities == (0.0, 0.0, 0.0, 1.0, 1.0) and e.equity == -3.0


def test_the_opening_is_about_even():
    e = evaluate(bg.Position.initial())
    assert 0.45 < e.win < 0.6 and 0.05 < e.win_gammon < 0.25 and abs(e.equity) < 0.25


def test_one_ply_is_the_average_over_the_rolls():
    # ply 1: for each of the 21 rolls, the best play at 0-ply; the
    # opponent's 0-ply chances after it, flipped, weighted by the roll.
    pos = bg.Position.from_array(random_positions(50, seed=4)[0][41])
    want = np.zeros(5)
    for roll, weight in zip(bg.ROLLS, bg.ROLL_PROBABILITIES):
        plays = pos.legal_plays(roll)
        after = evaluate(plays.positions).probabilities.astype(np.float64)
        best = int(np.argmin(equity(after)))            # lowest for the opponent
        w, wg, wb, lg, lb = after[best]
        want += weight * np.array([1 - w, lg, lb, wg, wb])
    got = np.array(evaluate(pos, ply=1).probabilities)
    assert np.allclose(got, want, atol=1e-5)


def test_two_ply_differs_and_stays_consistent():
    pos = bg.Position.from_array(random_positions(50, seed=4)[0][33])
    e0, e2 = evaluate(pos, 0), evaluate(pos, 2)
    assert e0 != e2 and 0 <= e2.win_backgammon <= e2.win_gammon <= e2.win <= 1


def test_the_shots_feature_counts_hitting_rolls(corpus):
    # docs/evaluation.md, contact feature 1 of the opponent: rolls with which
    # the side on roll can hit, equal to enumerating its legal plays.
    boards, _ = corpus
    for layout, per in ((1, 8), (2, 23)):
        x, classes = _net.encode_boards(boards[:1500], layout)
        checked = 0
        for i in np.flatnonzero(classes >= 3)[:300]:
            pos = bg.Position.from_array(boards[i])
            hitting = sum((1 if r.is_double else 2) for r in bg.ROLLS if any(p.hits for p in pos.legal_plays(r)))
            assert round(float(x[i, 202 + per + 1]) * 36) == hitting
            checked += 1
        assert checked == 300


@pytest.mark.parametrize("ply, error", [(4, ValueError), (-1, ValueError), (True, TypeError), (1.0, TypeError)])
def test_bad_ply(ply, error):
    with pytest.raises(error, match="ply"):
        evaluate(bg.Position.initial(), ply)


def test_bad_boards():
    with pytest.raises(bg.InvalidPositionError):
        evaluate(np.full((2, 2, 25), 3))
    with pytest.raises(TypeError, match="networks"):
        evaluate(bg.Position.initial(), networks="nets.npz")


def test_weight_files_round_trip(tmp_path):
    arrays = network.new_arrays(seed=3)
    network.save(tmp_path / "w.npz", arrays, {"games": 0})
    back, meta = network.read(tmp_path / "w.npz")
    assert meta == {"games": 0} and all(np.array_equal(arrays[k], back[k]) for k in arrays)
    nets = network.load(tmp_path / "w.npz")
    other = evaluate(bg.Position.initial(), networks=nets)
    assert other != evaluate(bg.Position.initial())
    (tmp_path / "bad.npz").write_bytes(b"not a weight file")
    with pytest.raises(ValueError):
        network.load(tmp_path / "bad.npz")
    np.savez(tmp_path / "partial.npz", contact_w1=arrays["contact_w1"])
    with pytest.raises(ValueError, match="missing"):
        network.load(tmp_path / "partial.npz")


def test_the_shipped_weights_say_how_they_were_made():
    # Since issue 41: the distilled networks of `backgammon train`, kept in
    # training/, fitted to the project's own rollouts; the record names the fit and its base.
    meta = network.meta()
    assert meta["command"].startswith("python training/fit_blind_spots.py") and meta["labels"] > 0
    assert "seed" in meta and meta["base"]["command"].startswith("python training/fit_blind_spots.py")
    first = network.meta(Path(__file__).resolve().parent.parent / "training" / "nets.distilled.npz")
    assert first["command"].startswith("backgammon train") and first["games"] > 0 and "seed" in first


def test_threads_give_the_same_chances(corpus):
    boards, _ = corpus
    one = evaluate(boards, threads=1).probabilities
    assert np.array_equal(one, evaluate(boards, threads=2).probabilities)
    assert np.array_equal(one, evaluate(boards, threads=None).probabilities)
    with pytest.raises(ValueError, match="threads"):
        evaluate(boards, threads=0)


# -- the second input layout and the crashed network ---------------------------------------

def _escapes_by_definition(i, blocked):
    # docs/evaluation.md: rolls that carry a checker on index i past every
    # point the other side holds among the 12 ahead, landings open, not
    # past the edge when fewer than 12 points are left.
    def open_at(d):
        return d > 12 or not (i - d >= 0 and (blocked >> (i - d)) & 1)
    far = max([d for d in range(1, 13) if not open_at(d)], default=0)
    if far == 0:
        return 36
    edge = min(i, 12)
    ok = lambda d: d > far and (edge == 12 or d <= edge)   # noqa: E731
    total = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if a == b:
                steps = [k * a for k in range(1, 5)]
                reached = []
                for d in steps:
                    if not open_at(d):
                        break
                    reached.append(d)
                total += any(ok(d) for d in reached)
            else:
                landings = [d for d in (a, b) if open_at(d)]
                if landings and open_at(a + b):
                    landings.append(a + b)
                total += any(ok(d) for d in landings)
    return total


def test_the_escape_counts_follow_their_definition():
    rng = np.random.default_rng(8)
    for _ in range(3000):
        i = int(rng.integers(0, 25))
        blocked = int(rng.integers(0, 1 << 24)) & int(rng.integers(0, 1 << 24))
        assert _net.escapes(i, blocked) == _escapes_by_definition(i, blocked), (i, bin(blocked))
    with pytest.raises(ValueError):
        _net.escapes(25, 0)


def test_the_second_layout_extends_the_first(corpus):
    boards, _ = corpus
    x1, c1 = _net.encode_boards(boards[:3000], 1)
    x2, c2 = _net.encode_boards(boards[:3000], 2)
    assert x1.shape[1] == 218 and x2.shape[1] == 248 and (c1 == c2).all()
    contact = c1 >= 3
    # the raw units and the first eight features of each side are the same
    assert np.array_equal(x1[contact][:, :210], x2[contact][:, :210])
    assert np.array_equal(x1[contact][:, 210:218], x2[contact][:, 225:233])
    race = c1 == 2
    assert np.array_equal(x1[race][:, :202], x2[race][:, :202])
    assert np.allclose(x2[race][:, 202] * 167, bg.batch.pip_counts(boards[:3000][race])[:, 1]) if hasattr(
        bg.batch, "pip_counts") else True
    with pytest.raises(ValueError, match="layout"):
        _net.encode_boards(boards[:3], 3)


def test_crashed_positions_have_their_own_network():
    a = np.zeros((2, 25), np.uint8)
    a[1][[0, 1, 3, 12]] = [7, 4, 1, 3]           # eleven checkers piled on the 1- and 2-points
    a[0][[5, 7, 12, 18]] = [5, 3, 5, 2]
    x, c = _net.encode_boards(a[None].copy(), 2)
    assert c[0] == 4
    opening = bg.Position.initial().array[None].copy()
    assert _net.encode_boards(opening, 2)[1][0] == 3
    from backgammon import network
    arrays = network.new_arrays(1, 32, 16, 32)
    with_crashed = network.networks(arrays)
    without = network.networks({k: v for k, v in arrays.items() if not k.startswith("crashed")})
    both = np.concatenate([a[None], opening])
    p, q = _net.evaluate(with_crashed, both), _net.evaluate(without, both)
    assert not np.array_equal(p[0], q[0]) and np.array_equal(p[1], q[1])
    bad = dict(arrays, crashed_w1=np.zeros((218, 32), np.float32))
    with pytest.raises(ValueError, match="crashed"):
        network.networks(bad)
    with pytest.raises(ValueError, match="contact"):
        network.networks(dict(arrays, contact_w1=np.zeros((230, 32), np.float32)))
