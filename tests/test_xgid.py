"""XGIDs: the docs/formats.md examples, orientation, gnubg as the oracle,
round trips, and every field's errors.

gnubg (the PyPI package) is a test dependency: these tests fail, not skip,
when it is missing.  gnubg cannot write XGIDs (it only imports them with
``set xgid`` / ``setgnubgid``), so the oracle runs one way: our XGID string,
imported by gnubg, must give our Position ID and Match ID.  Never call
``gnubg.hint()`` here: it can hang.
"""
import dataclasses
import doctest
import os
import random
import re
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gnubg
from gnubg import _gnubg

import backgammon.formats.xgid as xgid_module
from backgammon import InvalidIdError, MatchState, Position
from backgammon.matchid import GameState
from backgammon.sample import random_positions
from backgammon.xgid import InvalidXgidError, Xgid, parse_xgid, read_xgid, write_xgid
from helpers import make

OPENING = "-b----E-C---eE---c-e----B-"


# -- a generator of states, shared with test_fibs.py --------------------------------
def random_state(rng: random.Random, on_roll=None, max_length: int = 25) -> MatchState:
    """A random MatchState of a game in play that passes MatchState's checks:
    money or a match, scores below the length, the Crawford game (cube
    untouched, RULES 8.2) or not, any cube value and owner, a double offered
    by a side that may double (RULES 7.1, 7.2: before rolling), dice or not."""
    on_roll = rng.randrange(2) if on_roll is None else on_roll
    crawford = False
    if rng.random() < 0.3:
        length, score = 0, (rng.randrange(30), rng.randrange(30))
    else:
        length = rng.randrange(1, max_length + 1)
        score = [rng.randrange(length), rng.randrange(length)]
        if length > 1 and rng.random() < 0.3:
            lead = rng.randrange(2)
            score[lead], score[1 - lead] = length - 1, rng.randrange(length - 1)
            crawford = rng.random() < 0.5
        score = tuple(score)
    cube, owner, doubled = 1, None, False
    if not crawford:
        cube = 1 << rng.randrange(7)
        if cube > 1 or rng.random() < 0.2:
            owner = rng.choice([None, 0, 1])
        doubled = rng.random() < 0.2 and owner in (None, on_roll)
    dice = (0, 0) if doubled or rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6))
    return MatchState(cube_value=cube, cube_owner=owner, on_roll=on_roll, crawford=crawford,
                      turn=1 - on_roll if doubled else on_roll, double_offered=doubled, dice=dice,
                      match_length=length, score=score, jacoby=length == 0 and rng.random() < 0.5)


def corpus(n: int, seed: int):
    """n random-play positions (skipping the openings the corpus starts with)
    with a random state each."""
    boards, _ = random_positions(n + 512, seed=seed)
    rng = random.Random(seed)
    return [(Position.from_array(b), random_state(rng)) for b in boards[512:]]


def gnubg_output(command: str) -> str:
    """What a gnubg command prints on the C stdout."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        try:
            _gnubg.command(command)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        return f.read().decode(errors="replace")


@pytest.fixture(scope="module", autouse=True)
def gnubg_left_as_found():
    """Importing an XGID starts a game in gnubg and sets its beaver count;
    other test modules expect gnubg with no game and its beaver setting."""
    found = re.search(r"(\d+) beavers", gnubg_output("show beavers"))
    yield
    gnubg_output("set matchid MAAAAAAAAAAA")      # money, no game started: gnubg's state at start
    gnubg_output(f"set beavers {found.group(1) if found else 0}")


def gnubg_ids(xgid: str) -> tuple[str, str]:
    gnubg.setgnubgid(xgid)
    pid, mid = gnubg.gnubgid().split(":")
    return pid, mid


def what_gnubg_keeps(s: MatchState) -> MatchState:
    """The state gnubg holds after importing an XGID of ``s``: it cannot set
    up a double offered (it "steps back to the offering of the cube" by
    putting the turn field's player on roll, with no double: the player
    XG's XGID says must answer the double) and keeps no score in money play."""
    if s.double_offered:
        s = s.replace(double_offered=False, on_roll=s.turn, turn=s.turn)
    if s.match_length == 0:
        s = s.replace(score=(0, 0))
    return s


def what_gnubg_shows(pos: Position, s: MatchState) -> Position:
    """The position gnubg holds (its side on roll in row 1), see what_gnubg_keeps."""
    return pos.swapped() if s.double_offered else pos


# -- docs/formats.md examples -----------------------------------------------------
def test_reference_opening_with_31():
    text = f"XGID={OPENING}:0:0:1:31:0:0:0:0:10"
    pos, state = read_xgid(text)
    assert pos == Position.initial()
    assert state == MatchState(on_roll=1, dice=(3, 1))
    # docs/formats.md: gnubg gives 4HPwATDgc/ABMA:cIkFAAAAAAAE for this XGID.
    assert (pos.to_id(), state.to_match_id()) == ("4HPwATDgc/ABMA", "cIkFAAAAAAAE")
    assert gnubg_ids(text) == ("4HPwATDgc/ABMA", "cIkFAAAAAAAE")
    assert write_xgid(pos, state) == text


def test_reference_eleven_point_match_bottom_has_one_point():
    text = f"XGID={OPENING}:0:0:1:41:1:0:0:11:10"
    pos, state = read_xgid(text)
    assert state.match_length == 11 and state.on_roll == 1 and state.dice == (4, 1)
    assert state.score == (0, 1)          # the bottom player (player 1) has 1 point
    assert not state.crawford
    assert (pos.to_id(), state.to_match_id()) == gnubg_ids(text)
    assert write_xgid(pos, state) == text


def test_reference_money_jacoby_cube_two_owned_by_top():
    text = f"XGID={OPENING}:1:-1:1:66:0:0:1:0:10"
    pos, state = read_xgid(text)
    assert state.match_length == 0 and state.jacoby               # RULES 7.5
    assert state.cube_value == 2 and state.cube_owner == 0        # top = player 0
    assert state.dice == (6, 6) and state.on_roll == 1
    assert (pos.to_id(), state.to_match_id()) == gnubg_ids(text)
    assert write_xgid(pos, state) == text


def test_module_doctests():
    result = doctest.testmod(xgid_module)
    assert result.failed == 0 and result.attempted > 0


# -- orientation ------------------------------------------------------------------
def test_bottom_player_is_upper_case_and_counts_points_from_its_side():
    # bottom: 12 on its 6-point, 2 on its 18-point, 1 on the bar;
    # top: 13 on its 1-point (bottom's 24), 2 on its 20-point (bottom's 5), none on the bar.
    chars = ["-"] * 26
    chars[6], chars[18], chars[25] = "L", "B", "A"
    chars[24], chars[5] = "m", "b"
    text = "".join(chars) + ":0:0:1:00:0:0:0:0:10"
    pos, state = read_xgid(text)
    assert state.on_roll == 1
    assert pos == make(me={6: 12, 18: 2}, me_bar=1, opp={1: 13, 20: 2})
    # the same board with the top player on roll: rows swap (row 1 = on roll)
    pos_top, state_top = read_xgid(text.replace(":1:00:", ":-1:00:"))
    assert state_top.on_roll == 0
    assert pos_top == pos.swapped()
    assert write_xgid(pos_top, state_top) == "XGID=" + text.replace(":1:00:", ":-1:00:")


def test_top_player_bar_is_char_0():
    text = "a-----E-C---eE---c-e----A-:0:0:-1:52:0:0:0:0:10"
    pos, state = read_xgid(text)
    # top (player 0) on roll: row 1 is the top player, one checker on its bar,
    # one on its 24-point (char 1) gone: 'a' on char 0 and nothing on char 1
    assert state.on_roll == 0 and state.dice == (5, 2)
    assert pos.array[1, 24] == 1 and pos.array[1, 23] == 0
    assert pos.array[0, 23] == 1 and pos.array[0, 24] == 0   # bottom: 1 on its 24-point
    assert (pos.to_id(), state.to_match_id()) == gnubg_ids(text)


def test_players_map_to_gnubg_players():
    # Bottom = gnubg player 1: turn, cube owner and scores all follow it.
    text = f"{OPENING}:2:1:-1:00:3:5:0:9:10"
    pos, state = read_xgid(text)
    assert state.on_roll == 0 and state.cube_owner == 1 and state.score == (5, 3)
    g = MatchState.from_match_id(gnubg_ids(text)[1])
    assert (g.on_roll, g.cube_owner, g.score, g.cube_value) == (0, 1, (5, 3), 4)


def test_dice_are_one_roll_in_either_order():
    # RULES 2.1: 1-3 and 3-1 are one roll, stored higher die first; the
    # state keeps the order written, and the XGID is written back as it was.
    pos, state = read_xgid(f"{OPENING}:0:0:1:13:0:0:0:0:10")
    assert state.dice == (3, 1) and state.dice_order == (1, 3)
    assert state == read_xgid(f"{OPENING}:0:0:1:31:0:0:0:0:10")[1]
    assert write_xgid(pos, state).split(":")[4] == "13"
    assert write_xgid(pos, state.replace(dice_order=None)).split(":")[4] == "31"


def test_prefix_and_blanks_are_optional():
    canonical = f"XGID={OPENING}:0:0:1:31:0:0:0:0:10"
    for text in (canonical, canonical[5:], f"  {canonical}\n", "\t" + canonical[5:] + " ", "xgid=" + canonical[5:]):
        assert read_xgid(text) == read_xgid(canonical)


def test_double_offered_turn_is_the_doubled_player():
    # 'D': the turn field's player must take or pass; the other doubled and
    # is on roll (RULES 7.2-7.3), as XG writes it: here the top player owns
    # the cube at 2 and redoubles, and the bottom player (turn 1) answers.
    pos, state = read_xgid(f"{OPENING}:1:-1:1:D:0:0:0:0:10")
    assert state.double_offered and state.on_roll == 0 and state.turn == 1
    assert state.cube_value == 2 and state.cube_owner == 0 and state.dice == (0, 0)
    assert pos == Position.initial()          # drawn from the doubler's side (row 1 on roll)
    assert write_xgid(pos, state) == f"XGID={OPENING}:1:-1:1:D:0:0:0:0:10"
    # As XG's analyses publish a redouble: the bottom player owns the cube
    # and doubles; the top player (turn -1) must answer.
    x = parse_xgid("XGID=a---cCD-B----D-bA-adbb-A--:1:1:-1:D:0:3:0:7:10")
    assert (x.state.on_roll, x.state.turn, x.state.cube_owner) == (1, 0, 1)
    assert str(x) == "XGID=a---cCD-B----D-bA-adbb-A--:1:1:-1:D:0:3:0:7:10"


# XGIDs as published (written here, in the shapes real files have): dice as
# rolled, other cube limits, a redouble by the cube's owner, no prefix.
PUBLISHED = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:46:0:0:0:0:10",
    "XGID=--BBBBBAA---Ac-bbccbA--A--:1:1:-1:36:4:3:0:5:8",
    "XGID=a---cCD-B----D-bA-adbb-A--:1:1:-1:D:0:3:0:7:10",
    "XGID=-a-BBB-BA--BdB----AbbcbaA-:0:0:1:D:0:1:0:5:10",
    "-b----E-C---eE---c-e----B-:2:-1:1:D:0:0:3:0:6",
    "XGID=-BBBBBC---------------ccb-:1:-1:-1:12:0:0:1:0:10",
]


@pytest.mark.parametrize("text", PUBLISHED)
def test_published_xgids_round_trip_and_match_gnubg(text):
    x = parse_xgid(text)
    assert str(x) == write_xgid(x) == ("" if text.startswith("XGID=") else "XGID=") + text
    pid, mid = gnubg_ids(str(x))
    assert pid == what_gnubg_shows(x.position, x.state).to_id()
    assert mid == what_gnubg_keeps(x.state).to_match_id()


def test_impossible_xgids_say_what_is_impossible():
    for text, words in [
        ("XGID=-aBCBBDCB----d----c-c-A--A:0:0:1:53:0:0:0:7:10", "the bottom (upper-case) player has 20 checkers"),
        ("XGID=-BBBBBA-------------aaabba:0:0:1:64:0:0:0:7:10", "a checker in the other side's bar slot"),
        ("XGID=-b----E-C---eE---c-e----B-:2:1:-1:00:2:0:0:6:0", "the cube 4 is above the max cube 1"),
        ("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:0:0:0:0:10", "owns the cube"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:7:0:0:7:10", "already reached the match length"),
    ]:
        with pytest.raises(InvalidXgidError, match=re.escape(words)):
            parse_xgid(text)


def test_dice_order_and_max_cube_round_trip():
    # XG writes the dice as rolled and any cube limit: parse_xgid keeps both.
    for text in (f"XGID={OPENING}:0:0:1:46:0:0:0:0:10", f"XGID={OPENING}:1:1:-1:13:2:0:0:5:8",
                 f"XGID={OPENING}:0:0:-1:00:0:0:3:0:6"):
        x = parse_xgid(text)
        assert str(x) == write_xgid(x) == text
        assert parse_xgid(text[5:]) == x
    x = parse_xgid(f"{OPENING}:0:0:1:46:0:0:0:0:8")
    assert x.state.dice == (6, 4) and x.dice_order == (4, 6) and x.max_cube == 256
    assert parse_xgid(f"{OPENING}:0:0:1:64:0:0:0:0:8").dice_order is None
    assert write_xgid(x.position, x.state, max_cube=256, dice_order=(4, 6)) == str(x)
    with pytest.raises(InvalidXgidError, match="dice_order"):
        Xgid(x.position, x.state, dice_order=(5, 6))


def test_rules_field_in_money_and_match():
    x = parse_xgid(f"{OPENING}:0:0:1:00:0:0:2:0:10")
    assert x.beavers and not x.state.jacoby                       # RULES 7.5
    x = parse_xgid(f"{OPENING}:0:0:1:00:0:0:0:0:10")
    assert not x.beavers and not x.state.jacoby
    x = parse_xgid(f"{OPENING}:0:0:1:00:4:2:1:5:10")
    assert x.state.crawford and not x.state.jacoby and not x.beavers  # RULES 8.2
    x = parse_xgid(f"{OPENING}:0:0:1:00:4:2:0:5:10")
    assert not x.state.crawford                                   # post-Crawford


def test_max_cube_field():
    x = parse_xgid(f"{OPENING}:3:1:1:00:0:0:0:0:6")
    assert x.max_cube == 64 and x.state.cube_value == 8
    assert str(x) == f"XGID={OPENING}:3:1:1:00:0:0:0:0:6"
    assert write_xgid(x.position, x.state, max_cube=64) == str(x)
    assert parse_xgid(f"{OPENING}:0:0:1:00:0:0:0:0:0").max_cube == 1   # XG's "cubeless"
    # by default the limit is XG's 2**10, raised to a larger cube
    assert write_xgid(Position.initial()).endswith(":10")
    assert write_xgid(Position.initial(), MatchState(cube_value=2 ** 12, cube_owner=0)).endswith(":12:-1:-1:00:0:0:0:0:12")


def test_jacoby_is_not_written_in_a_match():
    # gnubg stores Jacoby even in matches, where it has no effect (RULES 8.4);
    # in a match the rules field is the Crawford flag.
    state = MatchState(match_length=5, jacoby=True)
    text = write_xgid(Position.initial(), state)
    assert text.split(":")[7] == "0"
    assert read_xgid(text)[1] == state.replace(jacoby=False)


# -- gnubg ------------------------------------------------------------------------
def test_gnubg_imports_our_xgids_to_the_same_ids():
    """3,000 random positions and states: gnubg's Position ID and Match ID
    after importing our XGID equal ours, apart from what gnubg drops."""
    mismatches = []
    for pos, state in corpus(3000, seed=11):
        text = write_xgid(pos, state)
        pid, mid = gnubg_ids(text)
        if pid != what_gnubg_shows(pos, state).to_id() or mid != what_gnubg_keeps(state).to_match_id():
            mismatches.append((text, pid, mid))
    assert mismatches == []


def test_gnubg_carries_the_fields_it_can():
    """Each field gnubg keeps changes its Match ID exactly as ours."""
    base = MatchState(cube_value=4, cube_owner=1, on_roll=0, dice=(5, 3), match_length=9, score=(2, 7))
    variants = [base, base.replace(cube_owner=0), base.replace(cube_owner=None), base.replace(on_roll=1, turn=1),
                base.replace(dice=(0, 0)), base.replace(score=(7, 2)), base.replace(match_length=15),
                MatchState(on_roll=1, crawford=True, match_length=9, score=(8, 3)),
                MatchState(jacoby=True), MatchState(jacoby=False), MatchState(cube_value=2 ** 12, cube_owner=0)]
    pos = Position.initial().play("8/5 6/5", "31")   # not symmetric: the sides differ
    for s in variants:
        assert gnubg_ids(write_xgid(pos, s)) == (pos.to_id(), s.to_match_id()), s


def test_gnubg_drops_a_double_offered_and_the_money_score():
    # Player 1 (bottom) owns the cube and doubles; the XGID's turn field is
    # player 0 (top), who must answer: gnubg puts player 0 on roll.
    s = MatchState(cube_value=2, cube_owner=1, on_roll=1, turn=0, double_offered=True, score=(3, 4))
    text = write_xgid(Position.initial(), s)
    assert text.split(":")[3:5] == ["-1", "D"]
    pid, mid = gnubg_ids(text)
    assert MatchState.from_match_id(mid) == MatchState(cube_value=2, cube_owner=1, on_roll=0)


# -- round trips ------------------------------------------------------------------
def test_round_trip_random_states():
    for pos, state in corpus(2000, seed=12):
        text = write_xgid(pos, state)
        assert read_xgid(text) == (pos, state)
        assert write_xgid(*read_xgid(text)) == text


def test_round_trip_every_field_value():
    rng = random.Random(3)
    positions = [p for p, _ in corpus(300, seed=13)]
    for pos in positions:
        for beavers in (False, True):
            state = random_state(rng)
            if state.match_length:
                beavers = False
            max_cube = max(state.cube_value, 1 << rng.randrange(16))
            x = Xgid(pos, state, beavers=beavers, max_cube=max_cube)
            assert parse_xgid(str(x)) == x
            assert write_xgid(pos, state, beavers=beavers, max_cube=max_cube) == str(x)


def test_round_trip_edge_values():
    cases = [
        # a side with no checkers left (game over on the board), 15 on the bar
        (make(me={1: 1}), MatchState()),
        (make(me_bar=15, opp={1: 15}), MatchState(on_roll=1, dice=(6, 6))),
        (make(me={24: 15}, opp_bar=15), MatchState(cube_value=2 ** 15, cube_owner=0)),
        (Position.initial(), MatchState(match_length=2 ** 15 - 1, score=(2 ** 15 - 2, 0), on_roll=1)),
        (Position.initial(), MatchState(score=(2 ** 15 - 1, 2 ** 15 - 1))),
    ]
    for pos, state in cases:
        x = Xgid(pos, state, max_cube=2 ** 15)
        assert parse_xgid(str(x)) == x


# -- errors -------------------------------------------------------------------------
def _with(k: int, value: str, base: str = f"{OPENING}:0:0:1:31:0:0:0:0:10") -> str:
    fields = base.split(":")
    fields[k] = value
    return ":".join(fields)


BAD = [
    # (text, a word the message must hold)
    (f"{OPENING}:0:0:1:31:0:0:0", "10 fields"),                        # truncated
    (f"{OPENING}:0:0:1:31:0:0:0:0:10:0", "10 fields"),
    ("", "10 fields"),
    ("XGID=", "10 fields"),
    (f"XGID={OPENING}", "10 fields"),
    (_with(0, OPENING[:-1]), "position"),
    (_with(0, OPENING + "-"), "position"),
    (_with(0, OPENING.replace("E", "#", 1)), "position"),
    (_with(0, OPENING.replace("E", "Q", 1)), "position"),             # 17: not a count letter
    (_with(0, OPENING.replace("E", "F", 1)), "16 checkers"),          # bottom: 16 checkers
    (_with(0, OPENING.replace("e", "f", 1)), "16 checkers"),          # top: 16
    (_with(0, "A" + OPENING[1:]), "position"),                        # bottom checker on top's bar
    (_with(0, OPENING[:-1] + "a"), "position"),                       # top checker on bottom's bar
    (_with(0, "-" * 26), "position"),                                  # neither side has a checker
    (_with(1, "x"), "cube"),
    (_with(1, "-1"), "cube"),
    (_with(1, "16"), "cube"),
    (_with(1, ""), "cube"),
    (_with(1, "1.0"), "cube"),
    (_with(2, "2"), "cube owner"),
    (_with(2, "+1"), "cube owner"),
    (_with(3, "0"), "turn"),
    (_with(3, "2"), "turn"),
    (_with(3, "+1"), "turn"),
    (_with(4, "71"), "dice"),
    (_with(4, "30"), "dice"),
    (_with(4, "3"), "dice"),
    (_with(4, "311"), "dice"),
    (_with(4, "d"), "dice"),
    (_with(4, "b"), "dice"),
    (_with(4, "B"), "dice"),                                           # a beaver needs the beaver bit (RULES 7.5)
    (_with(4, "R"), "dice"),
    (f"{OPENING}:1:-1:1:B:0:0:2:5:10", "rules"),                       # beaver bit in a match (RULES 8.4)
    (f"{OPENING}:1:1:1:B:0:0:2:0:10", "cube owner"),                   # B: the beaverer (not the turn) owns it
    (f"{OPENING}:1:0:1:B:0:0:2:0:10", "cube owner"),
    (f"{OPENING}:0:-1:1:B:0:0:2:0:10", "cube"),                        # B: a refusal leaves at least 2
    (f"{OPENING}:2:-1:1:R:0:0:2:0:10", "cube owner"),                  # R: the beaverer (the turn) owns it
    (f"{OPENING}:1:1:1:R:0:0:2:0:10", "cube"),                         # R: a refusal leaves at least 4
    (_with(5, "-1"), "bottom score"),
    (_with(5, "a"), "bottom score"),
    (_with(6, "32768"), "top score"),
    (_with(7, "4"), "rules"),
    (_with(7, "-1"), "rules"),
    (_with(8, "-1"), "match length"),
    (_with(8, "32768"), "match length"),
    (_with(9, "16"), "max cube"),
    (_with(9, ""), "max cube"),
    (_with(9, "3", f"{OPENING}:4:1:1:00:0:0:0:0:10"), "cube"),         # cube 16 above max 8
    (f"{OPENING}:0:0:1:00:0:0:2:5:10", "rules"),                       # beavers bit in a match (RULES 8.4)
    (f"{OPENING}:0:0:1:00:5:0:0:5:10", "bottom score"),                # RULES 8.1: match already won
    (f"{OPENING}:0:0:1:00:0:7:0:5:10", "top score"),
    (f"{OPENING}:0:0:1:00:2:2:1:5:10", "rules"),                       # Crawford at 2-2 (RULES 8.2)
    (f"{OPENING}:0:0:1:00:4:4:1:5:10", "rules"),                       # Crawford at 4-4
    (f"{OPENING}:1:1:1:00:4:2:1:5:10", "cube"),                        # Crawford with the cube turned
    (f"{OPENING}:0:0:1:D:4:2:1:5:10", "cube"),                         # Crawford with a double
    (f"{OPENING}:1:1:1:D:0:0:0:0:10", "cube owner"),                   # RULES 7.1: the doubled side owns it
    (f"{OPENING}:1:-1:-1:D:0:0:0:0:10", "cube owner"),
]


@pytest.mark.parametrize("text, word", BAD)
def test_bad_xgids_name_the_field(text, word):
    with pytest.raises(InvalidXgidError, match=word) as info:
        parse_xgid(text)
    assert isinstance(info.value, InvalidIdError) and isinstance(info.value, ValueError)


def test_wrong_types():
    with pytest.raises(TypeError, match="text"):
        read_xgid(None)
    with pytest.raises(TypeError, match="text"):
        read_xgid(b"XGID=" + OPENING.encode())
    with pytest.raises(TypeError, match="position"):
        write_xgid(Position.initial().array)
    with pytest.raises(TypeError, match="state"):
        write_xgid(Position.initial(), "cIkFAAAAAAAE")
    with pytest.raises(TypeError, match="beavers"):
        write_xgid(Position.initial(), beavers=1)
    with pytest.raises(TypeError, match="max_cube"):
        write_xgid(Position.initial(), max_cube=True)
    with pytest.raises(TypeError, match="max_cube"):
        write_xgid(Position.initial(), max_cube=64.0)


WRITER_REFUSES = [
    (MatchState(game_state=GameState.OVER, score=(1, 0)), "game"),
    (MatchState(game_state=GameState.NONE), "game"),
    (MatchState(resignation=2, turn=1), "resignation"),
    (MatchState(on_roll=1, turn=0), "turn"),                            # a decision without a double
    (MatchState(double_offered=True), "turn"),                           # the doubler cannot answer itself
    (MatchState(double_offered=True, turn=1, dice=(3, 1)), "dice"),      # RULES 7.2: before rolling
    (MatchState(cube_value=2, cube_owner=1, double_offered=True, turn=1), "RULES 7.1"),
]


@pytest.mark.parametrize("state, word", WRITER_REFUSES)
def test_writer_refuses_what_xgid_cannot_hold(state, word):
    with pytest.raises(InvalidXgidError, match=word):
        write_xgid(Position.initial(), state)


def test_writer_option_values():
    with pytest.raises(InvalidXgidError, match="max_cube"):
        write_xgid(Position.initial(), max_cube=48)
    with pytest.raises(InvalidXgidError, match="max_cube"):
        write_xgid(Position.initial(), max_cube=2 ** 16)
    with pytest.raises(InvalidXgidError, match="max_cube"):
        write_xgid(Position.initial(), max_cube=0)
    with pytest.raises(InvalidXgidError, match="above max_cube"):
        write_xgid(Position.initial(), MatchState(cube_value=16), max_cube=8)
    with pytest.raises(InvalidXgidError, match="RULES 8.4"):
        write_xgid(Position.initial(), MatchState(match_length=5), beavers=True)


def test_xgid_is_frozen():
    x = parse_xgid(f"{OPENING}:0:0:1:31:0:0:0:0:10")
    with pytest.raises(dataclasses.FrozenInstanceError):
        x.max_cube = 2


# -- fuzzing --------------------------------------------------------------------------
_ALPHABET = "-:ABEPQabepq0123456789DBR=X "


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mangled_xgids_parse_or_raise_invalid_xgid(data):
    base = f"XGID={OPENING}:1:1:-1:D:3:2:0:7:10"
    chars = list(base)
    for _ in range(data.draw(st.integers(1, 4))):
        k = data.draw(st.integers(0, len(chars) - 1))
        op = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        c = data.draw(st.sampled_from(_ALPHABET))
        if op == "replace":
            chars[k] = c
        elif op == "delete":
            del chars[k]
        else:
            chars.insert(k, c)
    text = "".join(chars)
    try:
        x = parse_xgid(text)
    except InvalidXgidError:
        return
    # whatever parses writes back to an XGID that reads the same
    assert parse_xgid(str(x)) == x


# -- every field as written (issue 40): read_xgid keeps all, write_xgid gives it back --------
_BOARDS = [write_xgid(p, s).split(":")[0][5:] for p, s in corpus(60, seed=40)]


@st.composite
def xgid_texts(draw):
    """Valid XGIDs in every shape XG writes: any dice order, any max cube,
    Jacoby and beaver bits, doubles offered, match and money, and the
    9-field form of books (no max cube)."""
    board = draw(st.sampled_from(_BOARDS))
    length = draw(st.sampled_from([0, 0, 1, 3, 5, 7, 11, 25]))
    crawford = False
    if length:
        a, b = draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1))
        crawford = length > 1 and draw(st.booleans()) and (a == length - 1) != (b == length - 1)
        rules = int(crawford)
    else:
        a, b = draw(st.integers(0, 40)), draw(st.integers(0, 40))
        rules = draw(st.integers(0, 3))
    short = draw(st.integers(0, 5)) == 0
    max_log = 10 if short else draw(st.sampled_from([10, 10, 0, 1, 3, 6, 8, 12, 15]))
    cube_log, owner, turn = 0, 0, draw(st.sampled_from([1, -1]))
    dice = draw(st.sampled_from(["00", "D"] + [f"{i}{j}" for i in range(1, 7) for j in range(1, 7)]))
    if not crawford:
        cube_log = draw(st.integers(0, min(max_log, 6)))
        owner = draw(st.sampled_from([0, 1, -1])) if cube_log else draw(st.sampled_from([0, 0, 0, 1, -1]))
    if dice == "D" and (crawford or owner == turn):
        dice = "00"     # the doubled player cannot own the cube; no cube in the Crawford game
    fields = [board, cube_log, owner, turn, dice, a, b, rules, length] + ([] if short else [max_log])
    return "XGID=" + ":".join(map(str, fields))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(xgid_texts())
def test_every_valid_xgid_round_trips_byte_for_byte(text):
    x = parse_xgid(text)
    assert str(x) == write_xgid(x) == text
    pos, state = read_xgid(text)
    assert (pos, state) == (x.position, x.state)
    # issue 40: the state alone keeps the shape, 9 fields included
    assert write_xgid(pos, state) == write_xgid(read_xgid(text)) == text
    # what the text says is in the state
    rules = int(text.split(":")[7])
    assert state.jacoby == (not state.match_length and bool(rules & 1))
    assert state.beavers == (not state.match_length and bool(rules & 2))
    assert state.crawford == (bool(state.match_length) and rules == 1)
    dice = text.split(":")[4]
    if dice not in ("00", "D"):
        assert (state.dice_order or state.dice) == (int(dice[0]), int(dice[1]))
    max_log = int(text.split(":")[9]) if x.fields == 10 else 10
    assert x.max_cube == 1 << max_log
    assert state.cube_limit == (None if max_log == 10 else 1 << max_log)


MAX_FIELD = 2 ** 15 - 1


@st.composite
def any_valid_xgid(draw):
    """Every field anywhere in its valid range (docs/formats.md, "XGID"):
    any board of at most 15 checkers a side (on the bar too, a side with
    none left), money scores and match lengths up to 32767, the Crawford
    game, any max cube 2^0..2^15 (or none: 9 fields), any cube up to it and
    owner, the turn, and every dice value XG writes: 00, D, B, R and two
    dice in either order."""
    bottom, top = [0] * 26, [0] * 26
    for k in draw(st.lists(st.integers(1, 25), max_size=15)):
        bottom[k] += 1
    for k in draw(st.lists(st.integers(0, 24), max_size=15)):
        top[0 if bottom[k] else k] += 1          # a point holds one side's checkers
    if not any(bottom) and not any(top):
        bottom[draw(st.integers(1, 25))] = 1
    board = "".join(chr(64 + bottom[k]) if bottom[k] else chr(96 + top[k]) if top[k] else "-" for k in range(26))
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, MAX_FIELD)))
    crawford = False
    if length:
        a = draw(st.one_of(st.integers(0, length - 1), st.just(length - 1)))
        b = draw(st.one_of(st.integers(0, length - 1), st.just(length - 1)))
        crawford = draw(st.booleans()) and (a == length - 1) != (b == length - 1)
        rules = int(crawford)                    # RULES 8.2, 8.4
    else:
        a, b = draw(st.integers(0, MAX_FIELD)), draw(st.integers(0, MAX_FIELD))
        rules = draw(st.integers(0, 3))
    short = draw(st.booleans())
    max_log = 15 if short else draw(st.integers(0, 15))
    turn = draw(st.sampled_from([1, -1]))
    cube_log, owner = 0, 0
    if not crawford:                             # RULES 8.2: no cube in the Crawford game
        cube_log = draw(st.integers(0, max_log))
        owner = draw(st.sampled_from([0, 1, -1]))
    dice = draw(st.sampled_from(["00", "D", "B", "R", "roll"]))
    if dice == "roll":
        dice = f"{draw(st.integers(1, 6))}{draw(st.integers(1, 6))}"
    if dice in ("B", "R"):                       # RULES 7.5: the beaverer owns the cube
        if length or not rules & 2 or cube_log < (1 if dice == "B" else 2):
            dice = "00"
        else:
            owner = -turn if dice == "B" else turn
    if dice == "D" and (crawford or owner == turn):
        dice = "00"                              # RULES 7.1: the doubled side cannot own the cube
    fields = [board, cube_log, owner, turn, dice, a, b, rules, length] + ([] if short else [max_log])
    return "XGID=" + ":".join(map(str, fields))


@settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(any_valid_xgid())
def test_any_valid_xgid_round_trips_through_the_state(text):
    # issue 40: write_xgid(read_xgid(x)) == x for every valid XGID
    assert write_xgid(read_xgid(text)) == text
    pos, state = read_xgid(text)
    assert write_xgid(pos, state) == str(parse_xgid(text)) == text
    assert read_xgid(write_xgid(pos, state)) == (pos, state)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(any_valid_xgid())
def test_any_valid_xgid_decodes_as_gnubg_decodes_it(text):
    # gnubg as the oracle where it can answer ("No valid IDs found" else):
    # not B or R, matches up to its 64 points, cubes up to its 4096, a
    # checker left on each side, 10 fields.
    pos, state = read_xgid(text)
    if (text.split(":")[4] in ("B", "R") or state.match_length > 64 or state.cube_value > 4096
            or not (pos.array[0].any() and pos.array[1].any())):
        return
    if state.xgid_fields == 9:
        text += f":{max(10, state.cube_value.bit_length() - 1)}"
    assert gnubg_ids(text) == (what_gnubg_shows(pos, state).to_id(), what_gnubg_keeps(state).to_match_id())


def test_nine_field_xgids_read_with_no_limit_and_come_back_as_nine():
    # Books and older sites print XGIDs without the max-cube field; gnubg
    # refuses them ("No valid IDs found"), so the 10-field form is the oracle.
    for nine in (f"XGID={OPENING}:0:0:1:52:1:0:0:11", f"{OPENING}:1:1:-1:D:0:0:3:0",
                 "XGID=-BBBBBC---------------ccb-:1:-1:-1:12:0:0:1:0"):
        pos, state = read_xgid(nine)
        assert (pos, state) == read_xgid(nine + ":10")
        assert state.cube_limit is None and state.xgid_fields == 9
        x = parse_xgid(nine)
        full = ("" if nine.startswith("XGID=") else "XGID=") + nine
        assert x.fields == 9 and str(x) == write_xgid(pos, state) == write_xgid(read_xgid(nine)) == full
        assert write_xgid(pos, state.replace(xgid_fields=10)) == full + ":10"
        assert gnubg_ids(full + ":10") == (what_gnubg_shows(pos, state).to_id(),
                                           what_gnubg_keeps(state).to_match_id())


def test_beaver_and_raccoon_dice_are_the_games_pending_redoubles():
    # XG's dice field B (a beaver waits for the doubler's answer) and R (a
    # raccoon waits for the beaverer's) read as Game.match_state has them
    # (RULES 7.5): the cube a refusal leaves, owned by the beaverer.
    from backgammon import Game, Rules
    g = Game(rules=Rules(beavers=2))
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.double()                                   # player 1 (bottom) doubles the centred cube
    assert write_xgid(g.position, g.match_state()).split(":")[1:5] == ["0", "0", "-1", "D"]
    g.beaver()                                   # player 0 (top) beavers: the doubler answers
    beavered = write_xgid(g.position, g.match_state())
    assert beavered.split(":")[1:9] == ["1", "-1", "1", "B", "0", "0", "2", "0"]
    assert read_xgid(beavered) == (g.position, g.match_state())
    g.raccoon()                                  # player 1 raccoons: the beaverer answers
    raccooned = write_xgid(g.position, g.match_state())
    assert raccooned.split(":")[1:9] == ["2", "-1", "-1", "R", "0", "0", "2", "0"]
    assert read_xgid(raccooned) == (g.position, g.match_state())
    for text in (beavered, raccooned):
        assert write_xgid(read_xgid(text)) == text
        # gnubg refuses B and R ("Not a valid XGID"); with the doubler to
        # roll instead it reads the same board, the doubler on roll.
        pos, state = read_xgid(text)
        fields = text.split(":")
        fields[3:5] = ["1" if state.on_roll == 1 else "-1", "00"]
        assert gnubg_ids(":".join(fields))[0] == pos.to_id()


def test_published_rollout_xgids_round_trip():
    # The XGIDs of benchmarks/data/published_rollouts.json, as their sources print them.
    import json
    from pathlib import Path
    data = json.loads((Path(__file__).parents[1] / "benchmarks" / "data" / "published_rollouts.json").read_text())
    texts = {e["xgid"] for e in data["positions"]}
    assert len(texts) > 40
    for text in texts:
        pos, state = read_xgid(text)
        assert write_xgid(pos, state) == write_xgid(read_xgid(text)) == str(parse_xgid(text)) == text
        assert gnubg_ids(text) == (what_gnubg_shows(pos, state).to_id(), what_gnubg_keeps(state).to_match_id())
    # a money XGID's Jacoby and beaver bits reach the state (rules field 3)
    _, state = read_xgid("XGID=---BBBBBA----B--a-a-Bbcce-:0:0:1:00:0:0:3:0:10")
    assert state.jacoby and state.beavers and state.cube_limit is None
    # a cube limit of 2 (max-cube field 1), as one published XGID has it
    _, state = read_xgid("XGID=----b-E-C---aE--be-eB-----:0:0:1:13:0:0:0:0:1")
    assert state.cube_limit == 2


def test_match_state_refuses_what_the_new_fields_cannot_be():
    with pytest.raises(ValueError, match="beavers"):
        MatchState(match_length=5, beavers=True)                  # RULES 8.4
    with pytest.raises(ValueError, match="cube limit"):
        MatchState(cube_value=8, cube_owner=0, cube_limit=4)      # RULES 7.4
    with pytest.raises(ValueError, match="power of two"):
        MatchState(cube_limit=6)
    with pytest.raises(ValueError, match="dice_order"):
        MatchState(dice=(3, 1), dice_order=(2, 1))
    assert MatchState(dice=(1, 3)).replace(dice=(5, 2)).dice_order is None
