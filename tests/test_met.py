"""Match equity: the Kazaross-XG2 table, gnubg's MET files and gnubg.met,
take points, and Janowski's money formulas.

gnubg (the PyPI package) is a test dependency; these tests fail, not skip,
when it is missing.
"""
import doctest
import json
import math
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import gnubg

import backgammon.met as met_module
from backgammon.met import (InvalidMetError, InvalidScoreError, MatchEquityTable, money_cash_point,
                            money_take_point)

GNUBG_XML = Path(gnubg.__file__).parent / "data" / "met" / "Kazaross-XG2.xml"


@pytest.fixture(scope="module")
def met():
    return MatchEquityTable.kazaross_xg2()


# -- the shipped table -----------------------------------------------------------------
def test_references_examples(met):
    # docs/formats.md "Match equity and cube formulas", chance of the first-named side.
    assert met.mwc(1, 2, crawford=True) == 0.67736     # RULES 8.2: the Crawford game
    assert met.mwc(3, 5) == 0.64795
    assert met.mwc(2, 1) == 0.48803                    # RULES 8.2: post-Crawford
    assert met.mwc(3, 1) == 0.32264


def test_shape_and_provenance(met):
    assert met.length == 25 and met.post_crawford_length == 25
    assert met.name == "Kazaross XG2 25 point MET"
    assert "Kazaross-XG2.xml" in met.source and "gnubg" in met.source
    assert "Copyright (C) 2011 Neil Kazaross" in met.notice    # its licence asks to keep it
    assert repr(met) == "MatchEquityTable(name='Kazaross XG2 25 point MET', length=25)"
    assert MatchEquityTable.kazaross_xg2() is met               # loaded once


def test_package_data_file():
    ref = resources.files("backgammon").joinpath("data", "kazaross_xg2.json")
    assert ref.is_file()
    data = json.loads(ref.read_text(encoding="utf-8"))
    assert "Kazaross-XG2.xml" in data["source"]
    assert len(data["pre_crawford"]) == 25 and all(len(r) == 25 for r in data["pre_crawford"])


def test_equals_gnubgs_xml_file(met):
    from_xml = MatchEquityTable.from_xml(GNUBG_XML)
    assert from_xml == met
    assert from_xml.pre_crawford == met.pre_crawford and from_xml.post_crawford == met.post_crawford
    assert MatchEquityTable.from_xml(str(GNUBG_XML)) == met
    assert MatchEquityTable.from_xml(GNUBG_XML.read_bytes()) == met
    assert MatchEquityTable.from_xml(GNUBG_XML.read_text()) == met


def test_equals_gnubg_met(met):
    # gnubg.met(n) -> [pre-Crawford n x n, post-Crawford for player 0, for player 1],
    # as float32.  Its pre-Crawford table equals the file everywhere; its
    # post-Crawford value for 25-away is 0.0011812 where the file (and we) say
    # 0.00123: gnubg replaces the last entry with its own extrapolation.  gnubg
    # also extends the table to 64-away, which we do not.
    pre, post0, post1 = gnubg.met(25)
    for i in range(25):
        for j in range(25):
            assert pre[i][j] == pytest.approx(met.pre_crawford[i][j], rel=1e-6, abs=1e-7)
    for k in range(24):
        assert post0[k] == pytest.approx(met.post_crawford[k], rel=1e-6, abs=1e-7)
        assert post1[k] == pytest.approx(met.post_crawford[k], rel=1e-6, abs=1e-7)
    assert met.post_crawford[24] == 0.00123


def test_complementary_and_even(met):
    for a in range(1, 26):
        for b in range(1, 26):
            if a == 1 and b == 1:
                continue
            crawford = (a == 1) != (b == 1)
            assert met.mwc(a, b, crawford) + met.mwc(b, a, crawford) == pytest.approx(1.0, abs=1e-12)
            if crawford:
                assert met.mwc(a, b) + met.mwc(b, a) == pytest.approx(1.0, abs=1e-12)
        assert met.mwc(a, a) == 0.5
    assert met.mwc(1, 1) == 0.5        # double match point


def test_more_points_needed_is_worse(met):
    for a in range(2, 25):
        for b in range(2, 26):
            assert met.mwc(a + 1, b) < met.mwc(a, b)


# -- Crawford handling (RULES 8.2) -------------------------------------------------------
def test_crawford_uses_pre_table_one_away_rows(met):
    # RULES 8.2: 1-away vs k-away before the Crawford game is the pre-Crawford
    # table's 1-away row; after it, the post-Crawford table.
    for k in range(2, 26):
        assert met.mwc(1, k, crawford=True) == met.pre_crawford[0][k - 1]
        assert met.mwc(k, 1, crawford=True) == met.pre_crawford[k - 1][0]
        assert met.mwc(k, 1) == met.post_crawford[k - 1]
        assert met.mwc(1, k) == pytest.approx(1 - met.post_crawford[k - 1], abs=1e-15)
    # the trailer does better post-Crawford, with the cube back, than in the Crawford game
    assert met.mwc(2, 1) > met.mwc(2, 1, crawford=True)


@pytest.mark.parametrize("a, b", [(2, 3), (5, 5), (1, 1)])
def test_crawford_needs_exactly_one_side_one_away(met, a, b):
    with pytest.raises(InvalidScoreError, match="RULES 8.2"):
        met.mwc(a, b, crawford=True)


@pytest.mark.parametrize("args, problem", [
    ((0, 3), "at least 1"), ((3, -1), "at least 1"), ((26, 3), "1-away to 25-away"),
    ((3, 26), "1-away to 25-away"), ((2.0, 3), "integer"), (("2", 3), "integer"),
])
def test_mwc_argument_errors(met, args, problem):
    with pytest.raises(InvalidScoreError, match=problem):
        met.mwc(*args)


def test_match_winning_chance_from_scores(met):
    assert met.match_winning_chance((0, 0), 5) == 0.5
    assert met.match_winning_chance((2, 0), 5) == met.mwc(3, 5) == 0.64795
    assert met.match_winning_chance((4, 3), 5, crawford=True) == 0.67736     # RULES 8.2
    assert met.match_winning_chance((3, 4), 5) == 0.48803                     # post-Crawford
    assert met.match_winning_chance((6, 2), 5) == 1.0                         # RULES 8.1: won
    assert met.match_winning_chance((2, 5), 5) == 0.0
    assert met.match_winning_chance((0, 0), 25) == 0.5
    for problem, args in [("both players", ((5, 7), 5)), ("negative", ((-1, 0), 5)),
                          ("at least 1 point", ((0, 0), 0)), ("pair", (3, 5)),
                          ("1-away to 25-away", ((0, 0), 26))]:
        with pytest.raises(InvalidScoreError, match=problem):
            met.match_winning_chance(*args)


# -- take points ----------------------------------------------------------------------------
def by_hand(drop, win, lose):
    risk, gain = drop - lose, win - drop
    return risk / (risk + gain)


def test_take_point_two_away_two_away(met):
    # Taking at 2-away/2-away: a win wins the match, a loss or a drop leaves
    # the taker 2-away against the Crawford game (RULES 8.2), so the take
    # point is the Crawford-game chance: the classic 32%.
    assert met.take_point((3, 3), 5) == pytest.approx(met.mwc(2, 1, crawford=True)) == pytest.approx(0.32264)


def test_take_point_five_point_match_start(met):
    drop, win, lose = met.mwc(5, 4), met.mwc(3, 5), met.mwc(5, 3)
    assert (drop, win, lose) == (0.42268, 0.64795, 0.35205)
    assert met.take_point((0, 0), 5) == pytest.approx(by_hand(drop, win, lose))
    assert met.take_point((0, 0), 5) == pytest.approx(0.238695, abs=1e-6)


def test_take_point_next_game_is_crawford(met):
    # 3-away/3-away: whoever reaches 1-away plays the Crawford game next (RULES 8.2).
    drop = met.mwc(3, 2)
    win, lose = met.mwc(1, 3, crawford=True), met.mwc(3, 1, crawford=True)
    assert met.take_point((2, 2), 5) == pytest.approx(by_hand(drop, win, lose))
    post = by_hand(drop, met.mwc(1, 3), met.mwc(3, 1))
    assert abs(post - met.take_point((2, 2), 5)) > 0.01       # the flag matters


def test_take_point_post_crawford_leader(met):
    # Post-Crawford the trailer 4-away doubles the leader 1-away.
    drop, win, lose = met.mwc(1, 3), 1.0, met.mwc(1, 2)
    assert met.take_point((4, 1), 5) == pytest.approx(by_hand(drop, win, lose))
    assert met.take_point((4, 1), 5) == pytest.approx((0.48803 - 0.32264) / 0.48803)


def test_take_point_with_a_bigger_cube(met):
    # 7-point match at 0-0, cube on 2 turned to 4: the game is worth 2 or 4 points.
    tp = met.take_point((0, 0), 7, cube=2)
    assert tp == pytest.approx(by_hand(met.mwc(7, 5), met.mwc(3, 7), met.mwc(7, 3)))
    assert tp != pytest.approx(met.take_point((0, 0), 7))


def test_take_points_are_probabilities(met):
    count = 0
    for n in range(1, 26):
        for s0 in range(n):
            for s1 in range(n):
                for cube in (1, 2, 4, 8, 16):
                    if cube >= n - s1 or (n - s0 == 1 and n - s1 == 1):
                        continue   # dead cube (RULES 8.3)
                    assert 0.0 <= met.take_point((s0, s1), n, cube) <= 1.0
                    count += 1
    assert count > 5000


@pytest.mark.parametrize("args, kwargs, problem", [
    (((4, 2), 5), dict(crawford=True), "Crawford game"),          # RULES 8.2
    (((0, 3), 5), dict(cube=2), "dead cube"),                     # RULES 8.3
    (((3, 4), 5), {}, "dead cube"),                               # the leader at 1-away
    (((0, 0), 5), dict(cube=3), "power of two"),                  # RULES 7.4
    (((0, 0), 5), dict(cube=0), "power of two"),
    (((5, 0), 5), {}, "over"),
    (((0, 0), 30), {}, "1-away to 25-away"),
])
def test_take_point_errors(met, args, kwargs, problem):
    with pytest.raises(InvalidScoreError, match=problem):
        met.take_point(*args, **kwargs)


# -- money play (Janowski, docs/formats.md) ------------------------------------------------------
def test_money_points():
    assert money_take_point(1, 1) == pytest.approx(0.2)
    assert money_cash_point(1, 1) == pytest.approx(0.8)
    assert money_take_point(1.3, 1.2) == pytest.approx(0.7 / 3.0)
    assert money_cash_point(1.3, 1.2) == pytest.approx(2.2 / 3.0)
    # more gammon losses raise the take point; more gammon wins lower it
    assert money_take_point(1, 1.5) > money_take_point(1, 1) > money_take_point(1.5, 1)
    assert money_take_point(2, 2) < money_cash_point(2, 2)


@pytest.mark.parametrize("w, l", [(0.9, 1), (1, 0.5), (0, 0), (-1, 2), (math.nan, 1), (1, math.inf)])
def test_money_points_reject_bad_values(w, l):
    for f in (money_take_point, money_cash_point):
        with pytest.raises(ValueError, match="W and L"):
            f(w, l)


@pytest.mark.parametrize("w, l, name", [("x", 1, "win"), (None, 1, "win"), (1, "1.5", "loss"), (True, 1, "win")])
def test_money_points_reject_non_numbers_by_name(w, l, name):
    for f in (money_take_point, money_cash_point):
        with pytest.raises(TypeError, match=f"^{name} must be a number"):
            f(w, l)
    # numpy's scalars are numbers
    assert money_take_point(np.float32(1), np.int64(1)) == pytest.approx(0.2)


# -- reading MET files -----------------------------------------------------------------------
def xml(pre_rows, post_row, pre_type="explicit", extra_post="", length=None):
    rows = "".join("<row>" + "".join(f"<me>{x}</me>" for x in r) + "</row>" for r in pre_rows)
    post = "<row>" + "".join(f"<me>{x}</me>" for x in post_row) + "</row>"
    info = f"<info><name>t</name><description>d</description>{'' if length is None else f'<length>{length}</length>'}</info>"
    return (f'<?xml version="1.0"?><met>{info}<pre-crawford-table type="{pre_type}">{rows}</pre-crawford-table>'
            f'<post-crawford-table type="explicit" player="both">{post}</post-crawford-table>{extra_post}</met>')


SMALL = ([[0.5, 0.7], [0.3, 0.5]], [0.5, 0.48])


def test_small_file_reads():
    t = MatchEquityTable.from_xml(xml(*SMALL, length=2))
    assert (t.name, t.description, t.length) == ("t", "d", 2)
    assert t.mwc(1, 2, crawford=True) == 0.7 and t.mwc(2, 1) == 0.48 and t.mwc(2, 2) == 0.5


def test_shorter_post_crawford_row():
    # gnubg's mec26.xml has 25 pre-Crawford rows but 24 post-Crawford entries.
    t = MatchEquityTable.from_xml(xml([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]], [0.5, 0.48]))
    assert (t.length, t.post_crawford_length) == (3, 2)
    assert t.mwc(3, 1, crawford=True) == 0.2
    with pytest.raises(InvalidScoreError, match="post-Crawford table covers the trailer up to 2-away"):
        t.mwc(3, 1)


def test_per_player_post_tables():
    same = xml(*SMALL).replace('player="both"', 'player="0"').replace(
        "</met>", '<post-crawford-table type="explicit" player="1"><row><me>0.5</me><me>0.48</me></row>'
                  "</post-crawford-table></met>")
    assert MatchEquityTable.from_xml(same).post_crawford == (0.5, 0.48)
    with pytest.raises(InvalidMetError, match="differ by player"):
        MatchEquityTable.from_xml(same.replace("<me>0.48</me></row></post-crawford-table></met>",
                                               "<me>0.47</me></row></post-crawford-table></met>"))


@pytest.mark.parametrize("text, problem", [
    ("<met><oops></met>", "not well-formed XML"),
    ("<table/>", "root element is <table>"),
    ("<met/>", "no <pre-crawford-table>"),
    (xml(*SMALL).replace("post-crawford-table", "postcrawford"), "no <post-crawford-table>"),
    (xml(*SMALL, pre_type="zadeh"), "type 'zadeh'"),
    (xml([[0.5, 0.7], [0.3]], SMALL[1]), "square: row 2 of 2 has 1"),
    (xml([], SMALL[1]), "no rows"),
    (xml([[0.5, "abc"], [0.3, 0.5]], SMALL[1]), "row 1, entry 2: 'abc' is not a number"),
    (xml([[0.5, 1.5], [0.3, 0.5]], SMALL[1]), "not a probability"),
    (xml([[0.5, "nan"], [0.3, 0.5]], SMALL[1]), "not a probability"),
    (xml(SMALL[0], []), "post-Crawford table is empty"),
    (xml(*SMALL, length=3), "<length> says 3"),
    (xml(*SMALL).replace('player="both"', 'player="2"'), "player='2'"),
    (xml(*SMALL).replace("</row></post", "</row><row><me>0.5</me></row></post"), "one <row>, found 2"),
])
def test_bad_files_name_the_problem(text, problem):
    with pytest.raises(InvalidMetError, match=problem) as info:
        MatchEquityTable.from_xml(text)
    assert isinstance(info.value, ValueError)


def test_bad_file_on_disk_names_the_path(tmp_path):
    path = tmp_path / "broken.xml"
    path.write_text("<met>")
    with pytest.raises(InvalidMetError, match="broken.xml"):
        MatchEquityTable.from_xml(path)
    with pytest.raises(OSError):
        MatchEquityTable.from_xml(tmp_path / "missing.xml")


def test_json_round_trip(met):
    again = MatchEquityTable.from_json(met.to_json())
    assert again == met and again.source == met.source and again.notice == met.notice
    with pytest.raises(InvalidMetError, match="not JSON"):
        MatchEquityTable.from_json("{")
    with pytest.raises(InvalidMetError, match="pre_crawford"):
        MatchEquityTable.from_json("[]")


def test_constructor_validates_and_freezes():
    t = MatchEquityTable([[0.5]], [0.5])
    assert t.pre_crawford == ((0.5,),) and hash(t) == hash(MatchEquityTable(((0.5,),), (0.5,)))
    with pytest.raises(AttributeError):
        t.name = "x"
    with pytest.raises(InvalidMetError, match="square"):
        MatchEquityTable([[0.5, 0.5]], [0.5])
    with pytest.raises(InvalidMetError, match="list of rows"):
        MatchEquityTable(5, [0.5])


def test_docstring_examples():
    result = doctest.testmod(met_module)
    assert result.failed == 0 and result.attempted >= 10
