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
