"""FIBS board lines: the FIBS documentation's example, both colours and
directions, gnubg's board lines as an oracle, round trips and errors.

gnubg prints a board line for its current position with ``show board``
after ``set output rawboard on`` (from the view of its player 1, colour 1,
direction -1).  It writes to the C stdout, which these tests read through
the file descriptor.  Never call ``gnubg.hint()`` here: it can hang.
"""
import dataclasses
import doctest
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gnubg

import backgammon.formats.fibs as fibs_module
from backgammon import InvalidIdError, MatchState, Position
from backgammon.fibs import FibsBoard, InvalidFibsBoardError, read_fibs_board, write_fibs_board
from backgammon.matchid import GameState
from helpers import make
from test_xgid import corpus, gnubg_left_as_found, gnubg_output  # noqa: F401 (an autouse fixture)

# The FIBS documentation's example (docs/formats.md, "FIBS board line").
DOC = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
       "1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
BOARD = slice(6, 32)            # the 26 board numbers among the 53 fields
TURN, COLOUR, DIRECTION, HOME, BAR = 32, 41, 42, 43, 44


def redrawn(line: str, colour: int, direction: int) -> str:
    """The same line drawn for the other colour and/or direction, built from
    the documented rules alone: O's checkers are positive and X's negative,
    so a new colour flips every sign and the turn; direction -1 moves from
    index 24 to 1 (home 0, bar 25) and direction 1 the mirror image."""
    f = line.split(":")
    board = [int(v) for v in f[BOARD]]
    if direction != int(f[DIRECTION]):
        board = board[::-1]
    if colour != int(f[COLOUR]):
        board = [-v for v in board]
        f[TURN] = str(-int(f[TURN]))
    f[BOARD] = [str(v) for v in board]
    f[COLOUR], f[DIRECTION] = str(colour), str(direction)
    f[HOME], f[BAR] = ("0", "25") if direction == -1 else ("25", "0")
    return ":".join(f)


# -- the documentation's example -----------------------------------------------------
def test_fibs_documentation_example():
    fb = read_fibs_board(DOC)
    assert (fb.player, fb.opponent, fb.match_length, fb.score) == ("You", "someplayer", 3, (0, 0))
    assert fb.position == Position.initial() == fb.player_position     # RULES 1.2
    assert fb.turn == 1 and fb.colour == 1 and fb.player_on_roll
    assert fb.dice == (6, 2) and fb.opponent_dice == (0, 0)
    assert fb.cube == 1 and fb.may_double == (True, True) and fb.was_doubled == 0
    assert (fb.direction, fb.home, fb.bar) == (-1, 0, 25)
    assert fb.on_home == (0, 0) and fb.on_bar == (0, 0)
    assert (fb.can_move, fb.forced_move, fb.did_crawford, fb.redoubles) == (2, 0, 0, 0)
    assert fb.match_state() == MatchState(on_roll=1, dice=(6, 2), match_length=3)
    assert fb.match_state(player=0) == MatchState(on_roll=0, dice=(6, 2), match_length=3)
    assert str(fb) == DOC
    assert write_fibs_board(Position.initial(), MatchState(on_roll=1, dice=(6, 2), match_length=3)) == DOC
    assert write_fibs_board(Position.initial(), MatchState(on_roll=0, dice=(6, 2), match_length=3), player=0) == DOC


@pytest.mark.parametrize("colour, direction", [(-1, 1), (1, 1), (-1, -1), (1, -1)])
def test_every_colour_and_direction(colour, direction):
    line = redrawn(DOC, colour, direction)
    fb = read_fibs_board(line)
    assert (fb.colour, fb.direction, fb.home, fb.bar) == (colour, direction, 25 if direction == 1 else 0,
                                                          0 if direction == 1 else 25)
    assert fb.position == Position.initial() and fb.player_on_roll
    assert fb.match_state() == read_fibs_board(DOC).match_state()
    assert write_fibs_board(Position.initial(), fb.match_state(), colour=colour, direction=direction) == line
    assert str(fb) == line


def test_other_colour_is_x_with_negative_checkers():
    # colour -1 (X), direction 1 (home 25, bar 0): the player's 6-point is index 19, negative.
    line = redrawn(DOC, -1, 1)
    f = line.split(":")
    board = [int(v) for v in f[BOARD]]
    assert board[19] == -5 and board[17] == -3 and board[12] == -5 and board[1] == -2
    assert board[6] == 5 and board[24] == 2                         # O: the opponent
    assert (f[TURN], f[COLOUR], f[DIRECTION], f[HOME], f[BAR]) == ("-1", "-1", "1", "25", "0")


def test_bars_and_points_of_an_asymmetric_position():
    # The player (on roll): 2 on the bar, 13 on its 3-point; opponent: 1 on the bar,
    # 10 on its 3-point (the player's 22), 4 on its 20-point (the player's 5).
    pos = make(me={3: 13}, me_bar=2, opp={3: 10, 20: 4}, opp_bar=1)
    state = MatchState(on_roll=1, dice=(3, 3), match_length=7, score=(2, 5))
    f = write_fibs_board(pos, state).split(":")
    board = [int(v) for v in f[BOARD]]
    assert board == [-1, 0, 0, 13, 0, -4] + [0] * 16 + [-10, 0, 0, 2]   # direction -1: point p at index p
    assert f[3:6] == ["7", "5", "2"]                                   # the player (MatchState 1) first
    assert f[45:49] == ["0", "0", "2", "1"]                            # on home, on bar
    assert f[33:37] == ["3", "3", "0", "0"]
    assert f[49] == "0"      # can move: the opponent's 3-point is closed to the bar checkers (RULES 4.2, 4.3)
    assert write_fibs_board(pos, state.replace(dice=(4, 4))).split(":")[49] == "4"
    g = write_fibs_board(pos, state, colour=-1, direction=1).split(":")
    assert [int(v) for v in g[BOARD]] == [-2, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, -13, 0, 0, 1]
    for line in (":".join(f), ":".join(g)):
        fb = read_fibs_board(line)
        assert fb.position == pos and fb.match_state() == state


def test_opponent_on_roll_swaps_the_position():
    pos = Position.initial().play("8/5 6/5", "31")        # the opponent of the mover is on roll
    state = MatchState(on_roll=0, dice=(5, 2), match_length=5)
    fb = read_fibs_board(write_fibs_board(pos, state))     # seen by player 1, not on roll
    assert fb.player_on_roll is False and fb.turn == -fb.colour
    assert fb.position == pos and fb.player_position == pos.swapped()
    assert fb.dice == (0, 0) and fb.opponent_dice == (5, 2) and fb.can_move == 0
    assert fb.on_home == (0, 0)


def test_can_move_counts_the_dice_that_can_be_played():
    # RULES 3.1: a double is four moves; RULES 4.4: a closed board shuts out the bar.
    assert read_fibs_board(write_fibs_board(Position.initial(), MatchState(on_roll=1, dice=(6, 6)))).can_move == 4
    shut_out = make(me={6: 14}, me_bar=1, opp={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert read_fibs_board(write_fibs_board(shut_out, MatchState(on_roll=1, dice=(6, 5)))).can_move == 0
    # RULES 3.4: only one die can be used
    one_die = make(me={24: 1}, opp={13: 2})     # 24/18, then the opponent's 13 (our 12) is closed
    assert one_die.legal_plays((6, 6)).dice_used == 1
    assert read_fibs_board(write_fibs_board(one_die, MatchState(on_roll=1, dice=(6, 6)))).can_move == 1
    assert write_fibs_board(Position.initial(), MatchState(on_roll=1, dice=(6, 6)), can_move=1).split(":")[49] == "1"


def test_money_is_an_unlimited_match():
    line = write_fibs_board(Position.initial(), MatchState(on_roll=1, score=(3, 8)))
    fb = read_fibs_board(line)
    assert fb.match_length == 9999 and fb.is_money and fb.score == (8, 3)
    assert fb.match_state() == MatchState(on_roll=1, score=(3, 8))
    gnubg_style = line.replace(":9999:", ":0:", 1)          # gnubg writes 0 for money play
    assert read_fibs_board(gnubg_style).match_state() == fb.match_state()


def test_cube_ownership_and_may_double():
    for owner, flags in ((None, (True, True)), (1, (True, False)), (0, (False, True))):
        s = MatchState(cube_value=4, cube_owner=owner, on_roll=1, match_length=9)
        fb = read_fibs_board(write_fibs_board(Position.initial(), s))
        assert fb.may_double == flags and fb.cube == 4 and fb.match_state() == s
    both_off = DOC.replace(":1:1:1:0:1:-1:", ":1:0:0:0:1:-1:")
    assert read_fibs_board(both_off).match_state().cube_owner is None


def test_double_offered_either_way():
    # RULES 7.2-7.3: the doubler is on roll; the doubled side decides.
    doubled_me = MatchState(cube_value=2, cube_owner=0, on_roll=0, turn=1, double_offered=True, match_length=7)
    fb = read_fibs_board(write_fibs_board(Position.initial(), doubled_me))
    assert fb.was_doubled == 1 and fb.turn == fb.colour and fb.player_on_roll is False
    assert fb.match_state() == doubled_me
    i_doubled = MatchState(on_roll=1, turn=0, double_offered=True, match_length=7)
    fb = read_fibs_board(write_fibs_board(Position.initial(), i_doubled))
    assert fb.was_doubled == -1 and fb.turn == -fb.colour and fb.player_on_roll is True
    assert fb.match_state() == i_doubled


def test_crawford_and_post_crawford():
    crawford = MatchState(on_roll=1, crawford=True, match_length=5, score=(2, 4))      # RULES 8.2
    fb = read_fibs_board(write_fibs_board(Position.initial(), crawford))
    assert fb.did_crawford == 0 and fb.match_state() == crawford
    post = crawford.replace(crawford=False)
    fb = read_fibs_board(write_fibs_board(Position.initial(), post))
    assert fb.did_crawford == 1 and fb.match_state() == post
    # the cube turned proves the Crawford game is over, whatever the flags say
    line = write_fibs_board(Position.initial(), post.replace(cube_value=2, cube_owner=0))
    f = line.split(":")
    f[51] = "0"
    assert read_fibs_board(":".join(f)).match_state().crawford is False
    # gnubg's post-Crawford flag in the last field
    f = write_fibs_board(Position.initial(), post).split(":")
    f[51], f[52] = "0", "1"
    assert read_fibs_board(":".join(f)).match_state() == post


def test_game_over_is_turn_zero():
    pos = make(me={1: 3}, opp={})                            # the opponent has borne off all 15
    over = MatchState(on_roll=1, game_state=GameState.OVER, match_length=5, score=(3, 2))
    fb = read_fibs_board(write_fibs_board(pos, over))
    assert fb.turn == 0 and fb.player_on_roll is None and fb.on_home == (12, 15)
    assert fb.position == pos
    assert fb.match_state().game_state == GameState.OVER and fb.match_state().score == (3, 2)


def test_blanks_around_numbers_are_read_and_kept():
    # A line reads back to itself byte for byte: blanks and zeros as written
    # (clients write "0:05", ": 0"); a field given a new value is written plainly.
    spaced = DOC.replace(":", ": ").replace("board: You: someplayer", "board:You:someplayer")
    assert read_fibs_board("  " + spaced + "\r\n") == read_fibs_board(DOC)
    assert str(read_fibs_board(spaced)) == write_fibs_board(read_fibs_board(spaced)) == spaced
    padded = DOC[:-1] + "05"
    fb = read_fibs_board(padded)
    assert fb.redoubles == 5 and str(fb) == padded and fb == read_fibs_board(DOC[:-1] + "5")
    assert str(dataclasses.replace(fb, redoubles=6)) == DOC[:-1] + "6"
    assert str(dataclasses.replace(read_fibs_board(spaced), cube=2)).count(": ") == len(spaced.split(": ")) - 2


def test_on_home_and_on_bar_are_kept_as_written():
    # gnubg writes 0:0 on bar whatever the board holds, and fixtures leave
    # checkers off the board with 0 borne off: the board numbers are the
    # checkers, the counts are kept, and mismatches names them.
    fb = read_fibs_board(_set(45, "1"))
    assert fb.on_home == (1, 0) and str(fb) == _set(45, "1") and fb.position == read_fibs_board(DOC).position
    assert fb.mismatches == ("on home: the player has 15 checkers on the board, so 0 borne off, not 1",)
    assert read_fibs_board(_set(47, "1")).mismatches == ("on bar: the player has 0 checkers on the bar, not 1",)
    assert read_fibs_board(DOC).mismatches == ()


def test_module_doctests():
    result = doctest.testmod(fibs_module)
    assert result.failed == 0 and result.attempted > 0


# -- round trips ------------------------------------------------------------------------
def test_round_trip_random_states_both_players_and_drawings():
    rng = random.Random(21)
    for k, (pos, state) in enumerate(corpus(1200, seed=22)):
        state = state.replace(jacoby=False)              # a board line has no Jacoby field
        player = k % 2
        colour, direction = rng.choice([-1, 1]), rng.choice([-1, 1])
        line = write_fibs_board(pos, state, names=("alice", "bob"), player=player,
                                colour=colour, direction=direction)
        fb = read_fibs_board(line)
        assert fb.position == pos and fb.match_state(player) == state
        assert fb.player_on_roll == (state.on_roll == player)
        assert str(fb) == line
        assert FibsBoard.from_state(pos, state, ("alice", "bob"), player=player, colour=colour,
                                    direction=direction) == fb


def test_round_trip_of_every_field_as_written():
    fb = read_fibs_board(DOC)
    changed = dataclasses.replace(fb, player="p1", opponent="x_y", forced_move=3, did_crawford=3, redoubles=7,
                                  can_move=4, opponent_dice=(1, 1))
    assert read_fibs_board(str(changed)) == changed


# -- gnubg ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rawboard():
    gnubg_output("set output rawboard on")
    yield
    gnubg_output("set output rawboard off")


def gnubg_board_line(pos: Position, state: MatchState) -> str:
    gnubg.setgnubgid(f"{pos.to_id()}:{state.to_match_id()}")
    lines = [x for x in gnubg_output("show board").splitlines() if x.startswith("board:")]
    assert len(lines) == 1
    return lines[0]


def test_gnubg_board_lines_agree(rawboard):
    """1,500 random states set in gnubg: its board line reads to our position
    and state, and ours matches it field by field except where gnubg departs
    from FIBS: money as length 0, the dice repeated in the other side's slot,
    on-bar counts always 0, can-move 0, and its own use of the last field."""
    checked = 0
    for pos, state in corpus(1500, seed=23):
        if state.double_offered:    # gnubg cannot set up a pending double from an ID
            continue
        state = state.replace(jacoby=False, score=state.score if state.match_length else (0, 0))
        g = gnubg_board_line(pos, state).split(":")
        assert g[47:49] == ["0", "0"]
        g[47], g[48] = str(abs(int(g[31]))), str(abs(int(g[6])))   # the bar counts the board shows
        fb = read_fibs_board(":".join(g))
        assert fb.position == pos and fb.match_state(1) == state
        mine = write_fibs_board(pos, state, names=(g[1], g[2]), can_move=0).split(":")
        if state.match_length == 0:
            assert (mine[3], g[3]) == ("9999", "0")
            mine[3] = "0"
        on_roll_slot = slice(33, 35) if state.on_roll == 1 else slice(35, 37)
        assert mine[on_roll_slot] == g[on_roll_slot] == [str(d) for d in state.dice]
        mine[33:37] = g[33:37]
        assert mine[:52] == g[:52]
        checked += 1
    assert checked > 1000


# -- errors ---------------------------------------------------------------------------------
def _set(k: int, value: str, line: str = DOC) -> str:
    f = line.split(":")
    f[k] = value
    return ":".join(f)


BAD = [
    (DOC.rsplit(":", 1)[0], "53 fields"),                          # truncated
    (DOC + ":0", "53 fields"),
    ("", "board:"),
    ("boards:" + DOC[6:], "board:"),
    (DOC[6:], "board:"),
    (_set(3, "x"), "match length"),
    (_set(3, "-1"), "match length"),
    (_set(4, "1.5"), "score"),
    (_set(5, "-2"), "score"),
    (_set(4, "3"), "score"),                                       # RULES 8.1: already won
    (_set(5, "4", _set(4, "3", _set(32, "0"))), "score"),            # both have won
    (_set(8, "x"), "board"),
    (_set(8, ""), "board"),
    (_set(8, "16"), "board"),
    (_set(12, "6"), "board"),                                      # the player: 16 checkers
    (_set(7, "-3"), "board"),                                      # the opponent: 16 checkers
    (_set(6, "1"), "board"),                                       # the player's checker on the opponent's bar
    (_set(31, "-1"), "board"),                                     # the opponent's checker on the player's bar
    (_set(32, "2"), "turn"),
    (_set(32, "one"), "turn"),
    (_set(33, "7"), "dice"),
    (_set(34, "0"), "dice"),                                       # 6-0
    (_set(35, "3"), "opponent dice"),                              # 3-0
    (_set(37, "3"), "cube"),                                       # not a power of two (RULES 7.4)
    (_set(37, "0"), "cube"),
    (_set(38, "2"), "may double"),
    (_set(40, "2"), "was doubled"),
    (_set(40, "1", _set(32, "0")), "was doubled"),                 # a double after the game
    (_set(41, "0"), "colour"),
    (_set(41, "2"), "colour"),
    (_set(42, "0"), "direction"),
    (_set(43, "25"), "home"),
    (_set(44, "0"), "bar"),
    (_set(46, "x"), "on home"),
    (_set(46, "16"), "on home"),
    (_set(48, "-1"), "on bar"),
    (_set(49, "5"), "can move"),
    (_set(50, "-1"), "forced move"),
    (_set(51, "-1"), "did crawford"),
    (_set(52, "?"), "redoubles"),
    (_set(1, ""), "player"),
]


@pytest.mark.parametrize("text, word", BAD)
def test_bad_lines_name_the_field(text, word):
    with pytest.raises(InvalidFibsBoardError, match=word) as info:
        read_fibs_board(text)
    assert isinstance(info.value, InvalidIdError) and isinstance(info.value, ValueError)


def test_a_turned_cube_is_not_the_crawford_game():
    # 3-point match at 2-0, cube 2 owned by the player: post-Crawford, not an error.
    fb = read_fibs_board(_set(37, "2", _set(39, "0", _set(4, "2"))))
    assert fb.match_state().crawford is False and fb.match_state().cube_owner == 1


def test_both_sides_without_checkers_is_impossible():
    f = DOC.split(":")
    f[BOARD] = ["0"] * 26
    f[45:47] = ["15", "15"]
    with pytest.raises(InvalidFibsBoardError, match="board"):
        read_fibs_board(":".join(f))


def test_wrong_types():
    with pytest.raises(TypeError, match="text"):
        read_fibs_board(None)
    with pytest.raises(TypeError, match="position"):
        write_fibs_board(Position.initial().array)
    with pytest.raises(TypeError, match="state"):
        write_fibs_board(Position.initial(), "cIkFAAAAAAAE")
    with pytest.raises(TypeError, match="player"):
        write_fibs_board(Position.initial(), player=True)
    with pytest.raises(TypeError, match="colour"):
        write_fibs_board(Position.initial(), colour=True)
    with pytest.raises(TypeError, match="direction"):
        write_fibs_board(Position.initial(), direction=-1.0)
    with pytest.raises(TypeError, match="names"):
        write_fibs_board(Position.initial(), names="You")
    with pytest.raises(TypeError, match="opponent"):
        write_fibs_board(Position.initial(), names=("You", 7))
    with pytest.raises(TypeError, match="can move"):
        write_fibs_board(Position.initial(), can_move=False)


WRITER_REFUSES = [
    (dict(state=MatchState(game_state=GameState.NONE)), "not started"),
    (dict(state=MatchState(resignation=1, turn=1)), "resignation"),
    (dict(state=MatchState(match_length=9999)), "9999"),
    (dict(state=MatchState(on_roll=1, turn=0)), "turn"),
    (dict(state=MatchState(double_offered=True)), "was doubled"),
    (dict(player=2), "player"),
    (dict(colour=0), "colour"),
    (dict(direction=2), "direction"),
    (dict(names=("You", "some:player")), "opponent"),
    (dict(names=("", "x")), "player"),
    (dict(names=("a", "b", "c")), "names"),
    (dict(can_move=5), "can move"),
    (dict(redoubles=-1), "redoubles"),
]


@pytest.mark.parametrize("kwargs, word", WRITER_REFUSES)
def test_writer_refuses(kwargs, word):
    with pytest.raises(InvalidFibsBoardError, match=word):
        write_fibs_board(Position.initial(), **kwargs)


def test_fibs_board_is_frozen():
    fb = read_fibs_board(DOC)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fb.cube = 2


# -- fuzzing ----------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mangled_lines_read_or_raise_invalid_fibs_board(data):
    f = DOC.split(":")
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(f) - 1))
        f[k] = data.draw(st.sampled_from(["0", "1", "-1", "2", "5", "-5", "15", "25", "9999", "", "x", "1:0"]))
    text = ":".join(f)
    try:
        fb = read_fibs_board(text)
    except InvalidFibsBoardError:
        return
    assert read_fibs_board(str(fb)) == fb
