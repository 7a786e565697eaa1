"""Legal plays (RULES 3, 4, 5) and notation (RULES 10.1)."""
import pytest

import backgammon as bg
from backgammon import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Position

from helpers import make, rows


def texts(plays):
    return sorted(str(p) for p in plays)


# -- RULES 3: moving -----------------------------------------------------------

@pytest.mark.parametrize("roll, count", [((3, 1), 16), ((6, 6), 11), ((1, 1), 42), ((2, 1), 15), ((6, 5), 7)])
def test_opening_counts(initial, roll, count):
    # RULES 3.5: each distinct resulting position once (counts: docs/formats.md).
    plays = initial.legal_plays(roll)
    assert len(plays) == count
    assert len({p.position for p in plays}) == count


def test_checkers_move_forward_by_each_die(initial):
    # RULES 3.1: each die moves one checker that many pips toward home.
    for play in initial.legal_plays((4, 2)):
        assert all(frm > to for frm, to in play.moves)
        assert sorted(frm - to for frm, to in play.moves) == [2, 4]
        assert play.position.pip_counts()[1] == 167 - 6


def test_doubles_move_four_times(initial):
    # RULES 3.1
    for play in initial.legal_plays((3, 3)):
        assert len(play.moves) == 4 and all(frm - to == 3 for frm, to in play.moves)


def test_intermediate_point_must_be_open():
    # RULES 3.2: 24/13 with 6-5 needs 18 or 19 open; both closed here.
    pos = make(me={24: 1, 1: 14}, opp={7: 2, 6: 2, 12: 11})  # opponent's 7, 6 = my 18, 19
    assert not any(p.moves and p.moves[0][0] == 24 and p.position.array[0][12] for p in pos.legal_plays((6, 5)))
    assert texts(pos.legal_plays((6, 5))) == [""]  # nothing can move at all (no bear-off: 24 is out)


def test_passing_over_closed_points_is_fine():
    # RULES 3.2: points jumped over do not matter.
    pos = make(me={24: 1, 1: 14}, opp={4: 2, 3: 2, 2: 2, 10: 9})  # my 21, 22, 23 closed
    assert "24/13" in texts(pos.legal_plays((6, 5)))


def test_hit_sends_blot_to_bar_and_is_optional():
    # RULES 3.3: landing on a lone opposing checker hits it; not compulsory.
    pos = make(me={13: 2, 6: 13}, opp={15: 1, 1: 14})  # opponent's 15 = my 10
    plays = pos.legal_plays((3, 1))
    hitting = [p for p in plays if p.hits]
    assert hitting and any(not p.hits for p in plays)
    for p in hitting:
        assert p.hits == (10,)
        assert p.position.array[1][24] == 1      # the opponent (now on roll) is on the bar
        assert p.position.array[1][14] == 0
    assert {"13/10* 6/5", "13/10*/9", "13/12 6/3"} <= set(texts(plays))


def test_larger_die_when_only_one_can_be_played():
    # RULES 3.4: either die alone is playable, not both: play the larger.
    # My checker on 20 can go 20/14 or 20/15 but never on to my 9 (closed);
    # the rest sit on my ace point and may not bear off.
    pos = make(me={20: 1, 1: 14}, opp={16: 2, 1: 13})
    plays = pos.legal_plays((6, 5))
    assert texts(plays) == ["20/14"]
    assert plays.dice_used == 1
    with pytest.raises(IllegalMoveError, match="larger"):
        pos.parse_play("20/15", (6, 5))


def test_smaller_die_when_the_larger_cannot_move():
    # RULES 3.4: if only the smaller can be played, it is played.
    pos = make(me={20: 1, 1: 14}, opp={11: 2, 16: 2, 1: 11})  # my 14 and 9 closed
    assert texts(pos.legal_plays((6, 5))) == ["20/15"]


def test_both_dice_must_be_used():
    # RULES 3.4: 10/4 is blocked, so the 6-1 must be played 10/9/3.
    pos = make(me={10: 1, 1: 14}, opp={21: 2, 12: 13})  # opponent's 21 = my 4
    plays = pos.legal_plays((6, 1))
    assert texts(plays) == ["10/3"]
    assert plays.dice_used == 2
    with pytest.raises(IllegalMoveError, match="both dice"):
        pos.parse_play("10/9", (6, 1))


def test_no_legal_move_forfeits_the_turn():
    # RULES 3.4: no die can be used; the single "play" leaves the board alone.
    pos = make(me={1: 14}, me_bar=1, opp={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    plays = pos.legal_plays((4, 2))
    assert len(plays) == 1 and plays[0].moves == () and str(plays[0]) == ""
    assert plays[0].position == pos.swapped()
    assert plays.dice_used == 0
    assert pos.play("", (4, 2)) == pos.swapped()


def test_doubles_with_fewer_than_four_moves():
    # RULES 3.4: as many of the four as can be played.
    # Two checkers on 24; my 18 is open, my 12 closed: each can move once.
    pos = make(me={24: 2, 1: 13}, opp={13: 2, 12: 13})  # opponent's 13 = my 12
    plays = pos.legal_plays((6, 6))
    assert texts(plays) == ["24/18(2)"]
    assert plays.dice_used == 2
    with pytest.raises(IllegalMoveError, match="2 of the four"):
        pos.parse_play("24/18", (6, 6))


def test_identical_results_are_one_play(initial):
    # RULES 3.5: 8/5 6/5 and 6/5 8/5 are one play; 13/10 10/9 = 13/9.
    plays = initial.legal_plays((3, 1))
    assert texts(plays).count("8/5 6/5") == 1
    assert len(plays) == len({p.position for p in plays})


# -- RULES 4: the bar ----------------------------------------------------------

def test_bar_enters_first():
    # RULES 4.1: with a checker on the bar every play starts by entering.
    pos = make(me={13: 5, 6: 9}, me_bar=1, opp={24: 2, 13: 13})
    for p in pos.legal_plays((5, 3)):
        assert p.moves[0][0] == 25
    with pytest.raises(IllegalMoveError, match="bar must enter first"):
        pos.parse_play("13/8 13/10", (5, 3))


def test_entering_with_some_points_closed():
    # RULES 4.2: die n enters on my (25 - n)-point if open, hitting a blot there.
    # Opponent holds its 2..6 (my 19..23) and has a blot on its ace (my 24).
    pos = make(me={6: 14}, me_bar=1, opp={1: 1, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 4})
    assert texts(pos.legal_plays((6, 5))) == [""]           # 19 and 20 closed
    plays = pos.legal_plays((6, 1))
    assert all(p.moves[0] == (25, 24) for p in plays)
    assert all(p.hits[:1] == (24,) for p in plays)
    assert "bar/24*/18" in texts(plays)


def test_dice_that_cannot_enter_are_lost():
    # RULES 4.3: two on the bar, only the 1 enters: the 6 is lost.
    pos = make(me={6: 13}, me_bar=2, opp={2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 5})
    plays = pos.legal_plays((6, 1))
    assert texts(plays) == ["bar/24"]
    assert plays[0].position.array[0][24] == 1


def test_closed_board_shuts_out():
    # RULES 4.4: all six home points closed: nothing enters, for every roll.
    pos = make(me={6: 14}, me_bar=1, opp={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    for roll in bg.ROLLS:
        plays = pos.legal_plays(roll)
        assert len(plays) == 1 and plays[0].moves == ()


def test_after_entering_the_rest_plays_normally():
    # RULES 4.3: once all are in, remaining dice move any checker.
    pos = make(me={13: 2, 6: 12}, me_bar=1, opp={13: 15})
    moved = {frm for p in pos.legal_plays((4, 3)) for frm, _ in p.moves[1:]}
    assert {13, 6} <= moved and moved & {21, 22}


# -- RULES 5: bearing off ------------------------------------------------------

def test_no_bear_off_with_a_checker_outside():
    # RULES 5.1
    pos = make(me={10: 1, 1: 14}, opp={12: 15})
    assert texts(pos.legal_plays((2, 1))) == ["10/7"]
    with pytest.raises(IllegalMoveError, match="home board"):
        pos.parse_play("1/off 10/8", (2, 1))


def test_bear_off_exact():
    # RULES 5.2
    pos = make(me={6: 1, 3: 1}, opp={12: 15})
    assert "6/off 3/off" in texts(pos.legal_plays((6, 3)))


def test_bear_off_from_highest_point_with_larger_die():
    # RULES 5.3: 6-5 with checkers only on 3 and 2 takes both off.
    pos = make(me={3: 1, 2: 1}, opp={12: 15})
    plays = pos.legal_plays((6, 5))
    assert texts(plays) == ["3/off 2/off"]
    assert plays[0].position.result() == bg.GameResult(bg.OPPONENT, bg.WinKind.GAMMON)


def test_must_move_inside_when_a_higher_point_is_occupied():
    # RULES 5.3: with a checker on 6 the 5 may not bear off the checker on 2.
    pos = make(me={6: 1, 2: 1}, opp={12: 15})
    plays = pos.legal_plays((5, 1))
    assert rows(plays) == {((2, 1),), ((1, 2),)}
    assert all((2, 0) not in p.moves for p in plays)


def test_moving_inside_instead_of_bearing_off():
    # RULES 5.4: 6/5 5/1 keeps both checkers on the board.
    pos = make(me={6: 1, 5: 1}, opp={12: 15})
    plays = pos.legal_plays((5, 1))
    assert rows(plays) == {((5, 1),), ((1, 1), (4, 1))}
    assert "6/1 5/4" in texts(plays)


def test_hit_during_bear_off_must_come_home_first():
    # RULES 5.5: the checker on the bar enters and bearing off waits for it.
    pos = make(me={6: 4, 5: 4, 4: 4, 1: 2}, me_bar=1, opp={1: 2, 12: 13})
    plays = pos.legal_plays((6, 5))
    assert plays and all(p.moves[0][0] == 25 for p in plays)
    assert all(to != 0 for p in plays for _, to in p.moves)


def test_hitting_while_bearing_off():
    # RULES 3.3 in the home board, with bearing off allowed.
    pos = make(me={6: 2, 4: 2}, opp={22: 1, 12: 14})  # opponent's 22 = my 3
    assert "6/3* 4/off" in texts(pos.legal_plays((3, 4))) or "6/3*/off" in texts(pos.legal_plays((3, 4)))
    assert any(p.hits == (3,) for p in pos.legal_plays((3, 4)))


# -- RULES 10: notation --------------------------------------------------------

@pytest.mark.parametrize("roll, notation", [
    ((3, 1), "8/5 6/5"), ((6, 1), "13/7 8/7"), ((6, 6), "24/18(2) 13/7(2)"),
    ((2, 2), "6/4(4)"), ((6, 5), "24/13"), ((4, 1), "24/23 13/9"), ((5, 2), "13/11 13/8"),
])
def test_opening_notation(initial, roll, notation):
    # RULES 10.1
    assert notation in texts(initial.legal_plays(roll))


def test_hit_marks_and_chains():
    # RULES 10.1: a hit is * after the landing point, shown mid-way too.
    pos = make(me={13: 2, 6: 13}, opp={18: 1, 1: 14})  # opponent's 18 = my 7
    plays = texts(pos.legal_plays((6, 2)))
    assert "13/7*/5" in plays
    assert "13/11/5" not in plays and "13/5" in plays   # the quiet path, other play


def test_bar_and_off_in_notation():
    pos = make(me={6: 1, 1: 13}, me_bar=1, opp={12: 15})
    assert any(t.startswith("bar/") for t in texts(pos.legal_plays((3, 1))))
    assert "6/off 1/off" in texts(make(me={6: 1, 1: 1}, opp={12: 15}).legal_plays((6, 1)))


@pytest.mark.parametrize("text", ["8/5 6/5", "6/5 8/5", "8/5, 6/5", " 8/5   6/5 ", "8/5 6/5"])
def test_parse_any_order(initial, text):
    assert str(initial.parse_play(text, (3, 1))) == "8/5 6/5"


@pytest.mark.parametrize("text, roll, expected", [
    ("13/5", (5, 3), "13/5"), ("13/8/5", (5, 3), "13/5"), ("6/4(4)", (2, 2), "6/4(4)"),
    ("6/4 6/4 6/4 6/4", (2, 2), "6/4(4)"), ("6/2(2)", (2, 2), "6/2(2)"), ("24/18(2) 13/7(2)", "66", "24/18(2) 13/7(2)"),
    ("24/23 13/9", "4-1", "24/23 13/9"), ("25/22 6/5", None, None), ("BAR/22 6/5", None, None),
])
def test_parse_forms(initial, text, roll, expected):
    if roll is None:
        pos = make(me={6: 14}, me_bar=1, opp={12: 15})
        assert str(pos.parse_play(text, (3, 1))).startswith("bar/22")
        return
    assert str(initial.parse_play(text, roll)) == expected


def test_parse_off_forms():
    pos = make(me={6: 1, 1: 1}, opp={12: 15})
    assert pos.parse_play("6/off 1/off", (6, 1)) == pos.parse_play("6/0 1/0", (6, 1))


def test_parse_hit_forms():
    pos = make(me={13: 2, 6: 13}, opp={18: 1, 1: 14})
    hit = pos.parse_play("13/7*/5", (6, 2))
    assert hit.hits == (7,)
    quiet = pos.parse_play("13/5", (6, 2))
    assert quiet.hits == () and quiet.position != hit.position
    assert pos.parse_play("13/7* 7/5", (6, 2)) == hit


def test_ambiguous_text():
    # Blots on my 7 and my 11: "13/5" without stars fits two hitting plays.
    pos = make(me={13: 2, 6: 13}, opp={18: 1, 14: 1, 1: 13})
    with pytest.raises(AmbiguousMoveError, match="2 plays"):
        pos.parse_play("13/5", (6, 2))
    assert pos.parse_play("13/11*/5", (6, 2)).hits == (11,)


@pytest.mark.parametrize("text, message", [
    ("8/5 6/5 1/0 x", "cannot read"), ("5/8", "backward"), ("30/20", "no point"),
    ("off/2", "backward"), ("8/5(9)", "at most 4"), ("8/5(0)", "at most 4"),
])
def test_unreadable_text(initial, text, message):
    with pytest.raises(InvalidMoveError, match=message):
        initial.parse_play(text, (3, 1))


@pytest.mark.parametrize("text, message", [
    ("7/4 6/5", "no checker of yours on point 7"),
    ("24/21", "both dice"),
    ("13/10 13/9", "moves 7 pips"),
    ("bar/22 8/7", "no checker of yours on the bar"),
])
def test_illegal_text_says_why(initial, text, message):
    with pytest.raises(IllegalMoveError, match=message):
        initial.parse_play(text, (3, 1))


def test_blocked_point_message():
    pos = make(me={13: 2, 6: 13}, opp={15: 2, 1: 13})  # opponent's 15 = my 10
    with pytest.raises(IllegalMoveError, match="point 10 is blocked"):
        pos.parse_play("13/10 6/5", (3, 1))


def test_play_accepts_play_objects(initial):
    play = initial.legal_plays((3, 1))[0]
    assert initial.play(play, (3, 1)) == play.position
    with pytest.raises(IllegalMoveError):
        initial.play(play, (6, 5))


def test_plays_sequence_protocol(initial):
    plays = initial.legal_plays("31")
    assert len(plays[2:5]) == 3 and plays[-1] == plays[len(plays) - 1]
    assert plays[0] in plays and plays[0].position in plays and "x" not in plays
    assert plays.positions.shape == (16, 2, 25)
    assert not plays.positions.flags.writeable
    with pytest.raises(IndexError):
        plays[16]
    assert "16 plays" in repr(plays)


def test_game_over_has_no_plays():
    pos = make(me={}, opp={1: 3})
    assert len(pos.legal_plays((3, 1))) == 0


def test_roll_forms_agree(initial):
    a = texts(initial.legal_plays((3, 1)))
    assert a == texts(initial.legal_plays("31")) == texts(initial.legal_plays(bg.Roll(1, 3)))
    assert a == texts(initial.legal_plays([1, 3]))


# -- notation must match the dice (RULES 3.1, 3.2, 10.1) ----------------------------

@pytest.mark.parametrize("text, roll, message", [
    ("24/22/20", "31", "24/22 moves 2 pips"),          # ends where 24/20 does, with a 2 that was not rolled
    ("8/6 6/5(2)", "31", "8/6 moves 2 pips"),          # ends where 8/5 6/5 does
    ("13/8 8/7 8/7", "61", "13/8 moves 5 pips"),       # ends where 13/7 8/7 does
    ("24/23 24/23", "31", "cannot be played with the dice left"),     # the 1 twice
])
def test_written_moves_must_be_dice(initial, text, roll, message):
    # RULES 3.1, 10.1: every written move is one die or a chain of dice
    # through unwritten points; the end position alone does not decide.
    with pytest.raises(IllegalMoveError, match=message):
        initial.parse_play(text, roll)


def test_chain_through_a_blocked_point_needs_the_other_order():
    # RULES 3.2: 13/7 with 4-2 may go 13/9/7 or 13/11/7; with 11 closed only
    # the first is open, with both 9 and 11 closed the move is refused.
    pos = make(me={13: 2, 6: 13}, opp={14: 2, 1: 13})          # opponent's 14 = my 11
    assert str(pos.parse_play("13/7", (4, 2))) == "13/7"
    assert str(pos.parse_play("13/9/7", (4, 2))) == "13/7"
    with pytest.raises(IllegalMoveError, match="point 11 is blocked"):
        pos.parse_play("13/11/7", (4, 2))
    both = make(me={13: 2, 6: 13}, opp={14: 2, 16: 2, 1: 11})   # my 11 and my 9
    with pytest.raises(IllegalMoveError, match="blocked"):
        both.parse_play("13/7", (4, 2))


def _single_steps(play):
    return [f"{'bar' if f == 25 else f}/{'off' if t == 0 else t}{'*' if h else ''}" for f, t, h in play._steps]


def test_every_play_reads_back_in_every_written_form():
    # RULES 10.1: the standard text, the step-by-step text in any order,
    # and each play's own steps all give the same play.
    import numpy as np
    from backgammon.sample import random_positions
    boards, rolls = random_positions(400, seed=11)
    rng = np.random.default_rng(5)
    checked = 0
    for board, roll in zip(boards, rolls):
        pos = Position.from_array(board)
        for play in pos.legal_plays(tuple(int(d) for d in roll)):
            assert pos.parse_play(str(play), roll.tolist()).position == play.position
            steps = _single_steps(play)
            rng.shuffle(steps)
            assert pos.parse_play(" ".join(steps), roll.tolist()).position == play.position
            checked += 1
    assert checked > 5000


def test_a_step_of_a_die_not_rolled_is_refused():
    # RULES 3.1: change one single-die step of a legal play to a distance
    # no die or chain of the roll makes: always refused.
    import numpy as np
    from backgammon.sample import random_positions
    boards, rolls = random_positions(300, seed=12)
    refused = 0
    for board, roll in zip(boards, rolls):
        pos = Position.from_array(board)
        d1, d2 = (int(d) for d in roll)
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
        sums = {sum(dice[:k]) for k in range(1, len(dice) + 1)} | set(dice)
        for play in pos.legal_plays((d1, d2))[:5]:
            steps = list(play._steps)
            if not steps or steps[0][1] == 0:
                continue
            f, t, _ = steps[0]
            for new_to in range(t - 1, 0, -1):
                if f - new_to not in sums and new_to not in (0,):
                    break
            else:
                continue
            text = " ".join([f"{'bar' if f == 25 else f}/{new_to}"] + _single_steps(play)[1:])
            with pytest.raises(IllegalMoveError):
                pos.parse_play(text, (d1, d2))
            refused += 1
    assert refused > 200
