"""training/late_contact.py: the late-contact positions the networks learn
from their own rollouts (issues 40, 41)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from backgammon import Position, _net, network
from backgammon.formats.xgid import parse_xgid

ROOT = Path(__file__).resolve().parents[1]
OLM = "XGID=aCBBBBA-----A---A-----cfA-:1:1:1:00:2:1:0:11:10"
SHOTS = "XGID=---BBBBBA----B---a-aBbcce-:0:0:1:00:0:0:3:0:10"


@pytest.fixture(scope="module")
def lc():
    sys.path.insert(0, str(ROOT / "training"))
    spec = importlib.util.spec_from_file_location("late_contact", ROOT / "training" / "late_contact.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_random_starts_are_legal_late_contact_boards(lc):
    rng = np.random.default_rng(1)
    boards = np.stack([lc.random_start(rng) for _ in range(200)])
    for b in boards:
        Position.from_array(b)                    # raises on an illegal board (RULES 1: 15 checkers a side)
    assert (boards.astype(int).sum(axis=2) <= 15).all()
    closeout = lc.closeout_decisions(2, 50)
    for b in closeout:
        Position.from_array(b)
        assert b[0, 24] >= 1 and (b[1, :5] >= 2).sum() >= 3   # the other side on the bar, 3-5 low points made
    assert lc.decisions(closeout).mean() > 0.9


def test_the_published_positions_are_of_the_kind_and_held_out(lc):
    olm, shots = (parse_xgid(x).position.array for x in (OLM, SHOTS))
    assert lc.late_contact(np.stack([olm, shots])).all()
    assert lc.decisions(np.stack([olm, shots])).all()       # closing (olm) and holding (shots)
    held = lc._held_out()
    assert np.ascontiguousarray(olm, np.uint8).tobytes() in held
    assert not lc.late_contact(Position.initial().array[None]).any()


def test_gather_and_siblings_are_distinct_and_reproducible(lc):
    nets = network.default()
    a, kinds = lc.gather(nets, 3, 40, 100, plies=4)
    b, _ = lc.gather(nets, 3, 40, 100, plies=4)
    assert np.array_equal(a, b) and len(a) == len(kinds) and 0 < len(a) <= 100
    assert lc.late_contact(a).all()
    assert len(np.unique(a.reshape(len(a), -1), axis=0)) == len(a)
    sib, owner = lc.siblings(nets, lc.closeout_decisions(4, 20), 4, 20, top=3)
    assert len(np.unique(sib.reshape(len(sib), -1), axis=0)) == len(sib)
    assert np.bincount(owner).max() <= 3 and (_net.position_classes(sib) >= 2).all()
