"""Bear-off databases against GNU Backgammon's files, exact small cases,
consistency, lookups and the cache."""
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import gnubg
import gnubg_nn

import backgammon as bg
from backgammon import bearoff
from backgammon.bearoff import (BearoffFileError, OneSidedDatabase, OutsideDatabaseError,
                                TwoSidedDatabase)

from helpers import make

GNUBG_DATA = Path(gnubg.__file__).parent / "data"


@pytest.fixture(scope="module")
def os_db():
    return bearoff.one_sided()


@pytest.fixture(scope="module")
def ts_db():
    return bearoff.two_sided()


# -- equal to GNU Backgammon -------------------------------------------------------

def test_one_sided_equals_gnubg_file(os_db):
    theirs = OneSidedDatabase.load(GNUBG_DATA / "gnubg_os0.bd")
    assert len(theirs) == len(os_db) == 54_264
    # Every entry of both distributions of every position, within 1/65535.
    assert np.abs(theirs.table.astype(int) - os_db.table).max() <= 1
    assert np.abs(theirs.gammon_table.astype(int) - os_db.gammon_table).max() <= 1
    # In fact identical, and so is the compressed file, byte for byte.
    assert os_db.to_bytes(compressed=True) == (GNUBG_DATA / "gnubg_os0.bd").read_bytes()


def test_two_sided_equals_gnubg_file(ts_db):
    theirs = TwoSidedDatabase.load(GNUBG_DATA / "gnubg_ts0.bd")
    assert ts_db.records.shape == (924 * 924, 4)
    assert np.abs(theirs.records.astype(int) - ts_db.records).max() <= 2
    assert ts_db.to_bytes() == (GNUBG_DATA / "gnubg_ts0.bd").read_bytes()


def test_index_equals_gnubg():
    for i in range(1, 54_264):
        points = gnubg_nn.bearoff_id_2_pos(i)
        assert bearoff.position_index(points) == i
        assert bearoff._bearoff.position_of(i) == tuple(points)


def test_distributions_equal_gnubg_nn(os_db):
    rng = np.random.default_rng(4)
    for i in rng.integers(1, 54_264, 2000):
        points = gnubg_nn.bearoff_id_2_pos(int(i))
        theirs = np.array(gnubg_nn.bearoff_probabilities(points))
        ours = os_db.distribution(points)
        assert np.abs(ours[1:1 + len(theirs)] - theirs).max() <= 1 / 65535


# -- exact small cases ---------------------------------------------------------------

def one_checker_exact(point: int) -> list:
    """Exact distribution of rolls to bear off one checker from ``point``: it
    moves as far as the dice allow each roll (RULES 5.2, 5.3)."""
    dist = [Fraction(0)] * 32
    if point == 0:
        dist[0] = Fraction(1)
        return dist
    for a in range(1, 7):
        for b in range(1, 7):
            pips = 4 * a if a == b else a + b
            rest = max(point - pips, 0)
            for i, p in enumerate(one_checker_exact(rest)[:-1]):
                dist[i + 1] += p / 36
    return dist


@pytest.mark.parametrize("point", range(1, 7))
def test_one_checker_matches_exact_enumeration(os_db, point):
    counts = [0] * 6
    counts[point - 1] = 1
    exact = one_checker_exact(point)
    assert np.abs(os_db.distribution(counts) - np.array([float(p) for p in exact])).max() <= 1 / 65535


def test_hand_worked_cases(os_db):
    assert os_db.distribution((1, 0, 0, 0, 0, 0))[:3].tolist() == [0.0, 1.0, 0.0]
    assert os_db.distribution((0, 0, 0, 0, 0, 1))[1] == pytest.approx(27 / 36, abs=1 / 65535)
    assert os_db.expected_rolls((0,) * 6) == 0.0
    assert os_db.expected_rolls((2, 0, 0, 0, 0, 0)) == 1.0       # any roll takes both off
    assert os_db.expected_gammon_rolls((0, 0, 0, 0, 0, 15)) == pytest.approx(
        float(np.dot(np.arange(32), os_db.gammon_distribution((0, 0, 0, 0, 0, 15)))))
    # A side with a checker already off has its first checker off: 0 rolls.
    assert os_db.gammon_distribution((0, 0, 0, 0, 0, 14))[0] == 1.0


def test_two_sided_small_cases(ts_db):
    # One checker each on the 6-point: 27/36 + (9/36)^2 = 0.8125 to win.
    pos = make(me={6: 1}, opp={6: 1})
    assert ts_db.win_probability(pos) == pytest.approx(0.8125, abs=1 / 65535)
    eq = ts_db.equities(pos)
    assert (eq.cubeless, eq.owned, eq.centred, eq.opponent_owns) == pytest.approx((0.625, 0.625, 0.5, 0.5), abs=1e-4)
    # One on the ace each: the side on roll is off at once.
    assert ts_db.equities(make(me={1: 1}, opp={1: 1})) == pytest.approx((1, 1, 1, 1), abs=1e-4)


# -- consistency -----------------------------------------------------------------------

def test_distributions_sum_to_one(os_db):
    assert (os_db.table.astype(np.int64).sum(axis=1) == 65535).all()
    assert (os_db.gammon_table.astype(np.int64).sum(axis=1) == 65535).all()


def test_more_checkers_never_need_fewer_rolls(os_db):
    n = len(os_db)
    points = np.array([bearoff._bearoff.position_of(i) for i in range(n)], dtype=np.uint8)
    means = os_db.means
    room = points.sum(axis=1) < 15
    for p in range(6):
        more = points[room].copy()
        more[:, p] += 1
        assert (os_db.expected_rolls(more) >= means[room] - 1e-12).all()


def test_race_win_probability(ts_db, os_db):
    small = make(me={6: 1}, opp={6: 1})
    assert bearoff.race_win_probability(small) == ts_db.win_probability(small)
    big = make(me={6: 4, 5: 4, 1: 4}, opp={6: 5, 3: 5})
    p = bearoff.race_win_probability(big)
    mine, theirs = os_db.distribution(big, bg.ON_ROLL), os_db.distribution(big, bg.OPPONENT)
    assert p == pytest.approx(sum(mine[i] * theirs[i:].sum() for i in range(32)))
    assert 0 < p < 1
    # Where both fit, the two ways agree closely.
    mid = make(me={6: 2, 4: 2, 2: 2}, opp={5: 3, 3: 3})
    one = os_db.distribution(mid, bg.ON_ROLL), os_db.distribution(mid, bg.OPPONENT)
    approx = sum(one[0][i] * one[1][i:].sum() for i in range(32))
    assert bearoff.race_win_probability(mid) == pytest.approx(approx, abs=0.02)
    with pytest.raises(OutsideDatabaseError, match="outside the home board"):
        bearoff.race_win_probability(bg.Position.initial())


# -- lookups ------------------------------------------------------------------------------

def test_lookup_forms_agree(os_db):
    pos = make(me={6: 3, 2: 1}, opp={5: 2, 1: 1})
    by_tuple = os_db.distribution((0, 1, 0, 0, 0, 3))
    assert np.array_equal(os_db.distribution(pos), by_tuple)
    assert np.array_equal(os_db.distribution(pos, bg.OPPONENT), os_db.distribution((1, 0, 0, 0, 2, 0)))
    batch = os_db.distribution(np.stack([pos.array, pos.swapped().array]))
    assert batch.shape == (2, 32) and np.array_equal(batch[0], by_tuple)
    counts = np.array([[0, 1, 0, 0, 0, 3], [1, 0, 0, 0, 2, 0]])
    assert np.allclose(os_db.expected_rolls(counts), [os_db.expected_rolls(c) for c in counts])
    assert os_db.index(pos) == bearoff.position_index((0, 1, 0, 0, 0, 3))
    assert os_db.rolls_std((0, 0, 0, 0, 0, 1)) == pytest.approx(np.sqrt(0.75 * 0.25), abs=1e-4)


def test_two_sided_batch(ts_db):
    boards = np.stack([make(me={6: 1}, opp={6: 1}).array, make(me={1: 1}, opp={6: 2}).array])
    eq = ts_db.equities(boards)
    assert eq.shape == (2, 4) and eq[1, 0] == pytest.approx(1.0)
    assert ts_db.win_probability(boards).tolist() == pytest.approx([0.8125, 1.0], abs=1e-4)


@pytest.mark.parametrize("bad, message", [
    ((1, 2, 3), "6 checker counts"), ((0, 0, 0, 0, 0, 16), "at most 15"),
    ((0, 0, -1, 0, 0, 1), "negative"), ("abc", "6 checker counts"),
])
def test_lookup_errors(os_db, bad, message):
    with pytest.raises(OutsideDatabaseError, match=message):
        os_db.distribution(bad)


def test_two_sided_refuses_big_sides(ts_db):
    with pytest.raises(OutsideDatabaseError, match="more than 6 checkers"):
        ts_db.equities(make(me={6: 7}, opp={1: 1}))
    with pytest.raises(OutsideDatabaseError, match="outside the home board"):
        ts_db.equities(make(me={7: 1}, opp={1: 1}))
    with pytest.raises(ValueError):
        bearoff.two_sided(40)


# -- files and cache ------------------------------------------------------------------------

def test_file_round_trips(tmp_path, os_db):
    for compressed in (True, False):
        path = bearoff.build(tmp_path / f"os{compressed}.bd", compressed=compressed)
        back = OneSidedDatabase.load(path)
        assert np.array_equal(back.table, os_db.table) and np.array_equal(back.gammon_table, os_db.gammon_table)
    assert (tmp_path / "osFalse.bd").read_bytes()[:20] == b"gnubg-OS-06-15-1-0-0"
    ts_path = bearoff.build(tmp_path / "ts4.bd", "two-sided", checkers=4)
    ts4 = TwoSidedDatabase.load(ts_path)
    assert ts4.checkers == 4 and ts4.records.shape == (210 * 210, 4)
    # The 4-checker table is the 6-checker one restricted to small sides.
    big = bearoff.two_sided()
    small = np.arange(210)
    assert np.array_equal(ts4.records.reshape(210, 210, 4), big.records.reshape(924, 924, 4)[np.ix_(small, small)])


@pytest.mark.parametrize("raw, message", [
    (b"", "not a GNU Backgammon"), (b"hello" * 20, "not a GNU Backgammon"),
    (b"gnubg-OS-06-15-1-1-0".ljust(39, b"x") + b"\n" + b"\0" * 100, "truncated"),
    (b"gnubg-TS-06-06-1".ljust(39, b"x") + b"\n" + b"\0" * 100, "bytes after the header"),
    (b"gnubg-OS-0x-15-1-1-0".ljust(39, b"x") + b"\n", "unreadable"),
])
def test_bad_files(raw, message):
    reader = TwoSidedDatabase if raw.startswith(b"gnubg-TS") else OneSidedDatabase
    with pytest.raises(BearoffFileError, match=message):
        reader.from_bytes(raw)


def test_cache_rebuilds_bad_files(tmp_path, monkeypatch, os_db):
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(bearoff.cache, "_memo", {})
    first = bearoff.one_sided()
    path = tmp_path / "gnubg_os_6_15.bd"
    assert path.exists() and path.with_name(path.name + ".sha256").exists()
    good = path.read_bytes()
    damage = {
        "truncated": lambda: path.write_bytes(good[: len(good) // 2]),
        "flipped byte": lambda: path.write_bytes(good[:5000] + bytes([good[5000] ^ 1]) + good[5001:]),
        "missing": lambda: path.unlink(),
        "missing checksum": lambda: path.with_name(path.name + ".sha256").unlink(),
        "garbage": lambda: path.write_bytes(b"\xff" * 100),
    }
    for name, spoil in damage.items():
        spoil()
        monkeypatch.setattr(bearoff.cache, "_memo", {})
        again = bearoff.one_sided()
        assert np.array_equal(again.table, first.table), name
        assert path.read_bytes() == good, name
    assert np.array_equal(first.table, os_db.table)


def test_unwritable_cache_still_works(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(blocker / "sub"))
    monkeypatch.setattr(bearoff.cache, "_memo", {})
    assert len(bearoff.one_sided()) == 54_264
