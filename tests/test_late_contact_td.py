"""training/late_contact_td.py: TD self-play from late-contact starts (issue 40)."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from backgammon import Position, _net, network

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def td():
    sys.path.insert(0, str(ROOT / "training"))
    return importlib.import_module("late_contact_td")


def test_shot_starts_are_legal_boards_of_the_kind(td):
    rng = np.random.default_rng(1)
    boards = np.stack([td.shots_start(rng) for _ in range(200)])
    legal = []
    for b in boards:
        try:
            Position.from_array(b)               # RULES 1: 15 checkers a side, no shared point
            legal.append(True)
        except ValueError:
            legal.append(False)
    assert np.mean(legal) > 0.9                  # draw() draws the rest again
    drawn = td.draw(td.shots_start, np.random.default_rng(2), 50)
    assert td.late_contact(drawn).mean() > 0.8
    # the anchor holder: two checkers on the other side's 3- to 5-point
    holder = np.where((drawn[:, 1, 19:22] == 2).any(axis=1), 1, 0)
    assert (drawn[np.arange(len(drawn)), holder, 19:22] == 2).any(axis=1).all()


def test_flip_is_the_other_sides_view(td):
    p = np.array([[0.7, 0.2, 0.05, 0.1, 0.01]], np.float32)
    assert np.allclose(td.flip(td.flip(p)), p)
    assert np.allclose(td.equity(td.flip(p)), -td.equity(p))


def test_a_stage_changes_only_the_chosen_network_and_is_reproducible(td):
    base = {k: v.copy() for k, v in network.default().arrays.items() if not k.startswith("prune_")}

    def run():
        arrays = {k: v.copy() for k, v in base.items()}
        nets = network.networks(arrays)
        a = np.ascontiguousarray(td.draw(td.closeout_start, np.random.default_rng(3), 20))
        a = a[_net.position_classes(a) == 4]
        rng = np.random.default_rng(5)
        learner = td.Learner(nets, [4], a, _net.evaluate(nets, a, 0), 1.0, 0.01, rng)
        info = td.play_stage(nets, learner, rng, 40, 16, 0.3, 4, 0.05, 0.9, 0.5, set(), 0.2)
        return arrays, info, learner.learnt

    arrays, info, learnt = run()
    again, info2, _ = run()
    assert info == info2 and info["games"] == 40 and info["explored"] > 0 and learnt > 0
    assert all(np.array_equal(arrays[k], again[k]) for k in arrays)
    assert not np.array_equal(arrays["crashed_w1"], base["crashed_w1"])
    for k in base:
        if not k.startswith("crashed_"):
            assert np.array_equal(arrays[k], base[k]), k


def test_ordinary_starts_are_crashed_positions_of_ordinary_self_play(td):
    nets = network.default()
    a = td.ordinary_crashed(nets, np.random.default_rng(7), 60, games=50)
    assert a.shape == (60, 2, 25) and np.array_equal(a, td.ordinary_crashed(nets, np.random.default_rng(7), 60, games=50))
    assert (_net.position_classes(a) == 4).all()
    assert len({x.tobytes() for x in a}) > 1
    for board in a[:20]:
        Position.from_array(board)               # RULES 1: legal boards
    # positions the base networks' 0-ply self-play meets (the same 50 games replayed)
    seen = {x.tobytes() for x in _net.sample_positions(nets, 50, np.random.default_rng(7), 0.0)}
    assert all(x.tobytes() in seen for x in a)
    # as the whole share of the starts: those positions, in a random order, less the held-out ones
    pool = td.ordinary_crashed(nets, np.random.default_rng(8), 40)
    held = {pool[0].tobytes()}
    s = td.starts(np.random.default_rng(8), 40, 0.0, held, 0.0, 1.0, nets)
    assert sorted(x.tobytes() for x in s) == sorted(x.tobytes() for x in pool if x.tobytes() not in held)
    mixed = td.starts(np.random.default_rng(9), 40, 0.25, set(), 0.0, 0.5, nets)
    assert len(mixed) == 40 and (_net.position_classes(mixed) >= 3).all()
    with pytest.raises(ValueError, match="ordinary_share"):
        td.starts(np.random.default_rng(9), 40, 0.5, set(), 0.2, 0.5, nets)


def test_polyak_average_moves_its_share_of_the_way_after_each_block(td):
    base = {k: v.copy() for k, v in network.default().arrays.items() if not k.startswith("prune_")}
    arrays = {k: v.copy() for k, v in base.items()}
    nets = network.networks(arrays)
    average = {k: (arrays[k], base[k].copy()) for k in arrays if k.startswith("crashed_")}
    a = np.ascontiguousarray(td.draw(td.closeout_start, np.random.default_rng(3), 40))
    a = a[_net.position_classes(a) == 4]
    learner = td.Learner(nets, [4], a, _net.evaluate(nets, a, 0), 0.0, 0.05, np.random.default_rng(4), average, 0.25)
    targets = np.tile(np.array([[0.9, 0.3, 0.01, 0.05, 0.0]], np.float32), (len(a), 1))
    learner.add(a, targets)
    learner.flush()
    for k, (live, avg) in average.items():
        assert not np.array_equal(live, base[k])
        assert np.allclose(avg, base[k] + 0.25 * (live - base[k]), atol=1e-6), k
    first = {k: avg.copy() for k, (_, avg) in average.items()}
    learner.add(a, targets)
    learner.flush()
    for k, (live, avg) in average.items():
        assert np.allclose(avg, first[k] + 0.25 * (live - first[k]), atol=1e-6), k
    assert np.array_equal(arrays["contact_w1"], base["contact_w1"])


def _board(them: dict, me: dict) -> np.ndarray:
    # Row 0 the side not on roll, row 1 the side on roll, each its own
    # points 1-24 at indices 0-23 and its bar at 24.
    b = np.zeros((2, 25), np.uint8)
    for row, spots in ((0, them), (1, me)):
        for point, n in spots.items():
            b[row, point - 1] = n
    return b


def test_bearing_vs_back_is_the_bearing_side_on_roll_against_a_few_back(td):
    # The side on roll all home but one checker on its 8-point (not back);
    # the other side crashed (its other 13 checkers on its 1- and 2-points)
    # with two checkers on its 24-point, the side on roll's 1-point (issue
    # 40's run OB keeps these as anchors).
    them = {24: 2, 2: 6, 1: 7}
    me = {8: 1, 6: 3, 5: 3, 4: 3, 3: 3, 2: 2}
    bearing = _board(them, me)
    cases = {
        "bearing": bearing,
        # none back: a race, not this kind
        "no checker back": _board({2: 7, 1: 8}, me),
        # four back is more than "a few"
        "four back": _board({24: 4, 2: 5, 1: 6}, me),
        # the side on roll still has a checker back itself (on the other
        # side's 3-point)
        "own checker back": _board(them, {22: 1, 6: 4, 5: 3, 4: 3, 3: 2, 2: 2}),
        # only 8 home: not bearing in yet
        "eight home": _board(them, {9: 4, 8: 3, 6: 2, 5: 2, 4: 2, 3: 1, 2: 1}),
    }
    boards = np.stack(list(cases.values()))
    for b in boards:
        Position.from_array(b)                   # RULES 1: legal boards
    got = dict(zip(cases, td.bearing_vs_back(boards).tolist()))
    assert got == {"bearing": True, "no checker back": False, "four back": False, "own checker back": False,
                   "eight home": False}
    assert _net.position_classes(bearing[None])[0] == td.CLASSES["crashed"]
    # the anchors keep them only when asked; they are of the late-contact kind
    sys.path.insert(0, str(ROOT / "training"))
    from late_contact import late_contact
    assert bool(late_contact(bearing[None])[0])


def test_prime_held_is_a_prime_holding_a_checker_off_the_bar(td):
    # The side on roll primes its 3- to 7-points; the other side, crashed
    # (14 checkers on its 1- to 5-points), has one checker behind the prime,
    # on its 23-point (the side on roll's 2-point): issue 40's prime drift
    # came from boards of this kind, which the anchors left out.
    me = {7: 2, 6: 2, 5: 2, 4: 2, 3: 2, 1: 5}
    them = {23: 1, 5: 2, 4: 3, 3: 3, 2: 3, 1: 3}
    held = _board(them, me)
    cases = {
        "held": held,
        # the same checker on the bar (one of the others borne off, so not a
        # blitz): a closeout, the kind the loop learns (olm's)
        "on the bar": _board({25: 1, 5: 2, 4: 3, 3: 3, 2: 3, 1: 2}, me),
        # the prime the other way round: the side on roll's checker held on
        # the other side's 2-point (its 23-point) behind the other's prime
        "side on roll held": _board(me, them),
        # a four-point block is no prime
        "four points": _board(them, {7: 2, 6: 2, 5: 2, 4: 2, 3: 1, 1: 6}),
        # nothing behind the prime: the checker has escaped to the 12-point
        "escaped": _board({12: 1, 5: 2, 4: 3, 3: 3, 2: 3, 1: 3}, me),
    }
    boards = np.stack(list(cases.values()))
    for b in boards:
        Position.from_array(b)                   # RULES 1: legal boards
    got = dict(zip(cases, td.prime_held(boards).tolist()))
    assert got == {"held": True, "on the bar": False, "side on roll held": True, "four points": False,
                   "escaped": False}
    from backgammon.position_types import names, position_types
    assert names(position_types(boards[:3])) == ["prime"] * 3
    assert bool(td.prime_held(Position.initial().array[None])[0]) is False


def test_prime_anchors_add_prime_held_boards_of_the_late_contact_kind(td):
    nets = network.default()
    base = {k: v for k, v in nets.arrays.items() if not k.startswith("prune_")}
    sys.path.insert(0, str(ROOT / "training"))
    from late_contact import late_contact
    without, t0 = td.anchors(nets, base, 3, [4], games=40, bearing=True)
    with_, t1 = td.anchors(nets, base, 3, [4], games=40, bearing=True, prime=True)
    old = {b.tobytes() for b in without}
    added = np.array([b for b in with_ if b.tobytes() not in old])
    assert len(added) > 0 and len(with_) == len(without) + len(added)
    assert td.prime_held(added).all() and late_contact(added).all()
    assert (_net.position_classes(added) == 4).all()
    # the targets are the base networks' own raw outputs (their win chances
    # are evaluate's; evaluate also zeroes the gammons that cannot happen)
    assert t1.shape == (len(with_), 5)
    assert np.allclose(t1[:, 0], _net.evaluate(nets, with_, 0)[:, 0], atol=1e-5)


def test_anchor_weights_draw_only_where_they_are_positive(td, monkeypatch):
    nets = network.networks({k: v.copy() for k, v in network.default().arrays.items() if not k.startswith("prune_")})
    a = np.ascontiguousarray(td.draw(td.closeout_start, np.random.default_rng(3), 40))
    a = a[_net.position_classes(a) == 4]
    p = np.zeros(len(a))
    p[[1, 4]] = 0.5
    seen = []
    monkeypatch.setattr(td._net, "train_supervised", lambda nets, b, t, order, lr1, lr2: seen.append(b) or 0.0)
    learner = td.Learner(nets, [4], a, _net.evaluate(nets, a, 0), 2.0, 0.01, np.random.default_rng(4), anchor_p=p)
    learner.add(a[:5], np.zeros((5, 5), np.float32))
    learner.flush()
    drawn = seen[0][5:]
    assert len(drawn) == 10
    assert {x.tobytes() for x in drawn} <= {a[1].tobytes(), a[4].tobytes()}
    with pytest.raises(ValueError, match="--prime-weight"):
        td.main(["--out", "/nonexistent/x.npz", "--prime-weight", "0"])


def test_prime_not_learnt_leaves_prime_held_positions_to_the_anchors(td, monkeypatch):
    nets = network.networks({k: v.copy() for k, v in network.default().arrays.items() if not k.startswith("prune_")})
    a = np.ascontiguousarray(td.draw(td.closeout_start, np.random.default_rng(3), 60))
    a = a[(_net.position_classes(a) == 4) & ~td.prime_held(a)][:6]
    # a prime-held board of the crashed class: the other side's 14 checkers
    # on its 1- and 2-points, one behind the side on roll's 3- to 7-point prime
    held = _board({23: 1, 2: 6, 1: 8}, {7: 2, 6: 2, 5: 2, 4: 2, 3: 2, 1: 5})
    assert _net.position_classes(held[None])[0] == 4 and td.prime_held(held[None])[0]
    games = np.ascontiguousarray(np.concatenate([a, held[None], held[None]]))
    seen = []
    monkeypatch.setattr(td._net, "train_supervised", lambda nets, b, t, order, lr1, lr2: seen.append(b) or 0.0)
    for skip, learnt in ((None, len(games)), (td.prime_held, len(a))):
        seen.clear()
        learner = td.Learner(nets, [4], held[None], np.zeros((1, 5), np.float32), 0.0, 0.01,
                             np.random.default_rng(4), skip=skip)
        learner.add(games, np.zeros((len(games), 5), np.float32))
        learner.flush()
        assert learner.learnt == learnt and len(seen[0]) == learnt
        assert (held.tobytes() in {x.tobytes() for x in seen[0]}) == (skip is None)
