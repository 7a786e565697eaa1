"""Games: opening, turns, the cube, resignations, scoring (RULES 2, 6, 7)."""
import numpy as np
import pytest

import backgammon as bg
from backgammon.errors import IllegalMoveError, IllegalPlayError, RulesError
from backgammon.game import Ending, Event, Game, Outcome, Phase
from backgammon.matchid import GameState, MatchState
from backgammon.rules import Rules

from helpers import make


def opened(rules=None, dice=(3, 1)):
    """A game after the opening roll won by player 0 with ``dice``."""
    g = Game(rules=rules)
    g.roll(dice)
    return g


def start_turn(g, play="8/5 6/5"):
    """Player 0 plays the opening; player 1 is on roll, before rolling."""
    g.play(play)
    assert g.phase is Phase.TURN and g.on_roll == 1
    return g


# -- opening (RULES 2.2) ---------------------------------------------------------------

def test_opening_roll_decides_who_starts():
    g = Game()
    g.roll((2, 5))
    assert g.on_roll == 1 and g.dice == (5, 2) and g.phase is Phase.PLAY
    assert g.history == [Event("opening", -1, (2, 5))]


def test_opening_ties_are_rolled_again():
    g = Game()
    g.roll((4, 4))
    assert g.phase is Phase.OPENING and g.cube_value == 1   # no automatic doubles
    g.roll((1, 6))
    assert g.on_roll == 1 and g.dice == (6, 1)


def test_seeded_games_repeat():
    a, b = Game(seed=9), Game(seed=9)
    for g in (a, b):
        g.roll()
    assert a.dice == b.dice and a.on_roll == b.on_roll
    assert a.dice[0] != a.dice[1]           # the opening is never a double


def test_automatic_doubles_stay_centred_and_count_to_the_limit():
    # RULES 7.5: each opening tie doubles the cube, centred, up to the count.
    g = Game(rules=Rules(automatic_doubles=2, cube_limit=64))
    for _ in range(3):
        g.roll((5, 5))
    assert g.cube_value == 4 and g.cube_owner is None
    g.roll((5, 2))
    g.play("13/8 13/11")
    assert g.cube_value == 4 and g.can_double()  # centred: the other side may double
    limited = Game(rules=Rules(automatic_doubles=5, cube_limit=2))
    for _ in range(3):
        limited.roll((1, 1))
    assert limited.cube_value == 2


def test_opening_reroll_option():
    # RULES 2.2 option: the winner may roll both dice afresh, once.
    g = Game(rules=Rules(opening_reroll=True))
    g.roll((6, 1))
    g.roll((4, 4))
    assert g.dice == (4, 4) and g.on_roll == 0
    with pytest.raises(RulesError):
        g.roll((2, 1))
    plain = opened()
    with pytest.raises(RulesError, match="once per turn"):
        plain.roll((2, 1))


# -- turns and plays (RULES 2.3, 3) --------------------------------------------------------

def test_turns_alternate_and_positions_turn_round():
    g = opened()
    before = g.position
    g.play("8/5 6/5")
    assert g.on_roll == 1 and g.position == before.play("8/5 6/5", (3, 1))
    g.roll((6, 6))
    assert g.dice == (6, 6)
    g.play("24/18(2) 13/7(2)")
    assert g.on_roll == 0


def test_illegal_play_is_a_rules_error_and_changes_nothing():
    g = opened()
    history = list(g.history)
    with pytest.raises(RulesError, match="both dice"):
        g.play("24/21")
    with pytest.raises(IllegalMoveError):
        g.play("24/21")
    assert g.history == history and g.phase is Phase.PLAY and g.dice == (3, 1)


def test_blocked_turn_passes_by_itself():
    # RULES 3.4, 4.4: player 1 on the bar against a closed board.
    g = opened()
    g.play("8/5 6/5")
    g._position = make(me={6: 14}, me_bar=1, opp={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    g.roll((6, 5))
    assert g.on_roll == 0 and g.phase is Phase.TURN
    assert g.history[-1] == Event("play", 1, "")


def test_partial_moves_undo_and_commit():
    g = opened(dice=(6, 1))
    g.move(13, 7)
    assert g.partial_position.array[1][6] == 1
    g.undo()
    g.move(13, 7)
    g.move(8, 7)
    g.commit()
    assert g.history[-1] == Event("play", 0, "13/7 8/7") and g.on_roll == 1
    g.roll((2, 1))
    g.move(13, 11)
    with pytest.raises(RulesError, match="not a legal step"):
        g.move(6, 1)
    with pytest.raises(RulesError, match="commit"):
        g.play("13/11 6/5")
    g.move(24, 23)
    g.commit()
    assert g.on_roll == 0


def test_commit_refuses_an_incomplete_play():
    g = opened(dice=(6, 1))
    g.move(13, 7)
    with pytest.raises(RulesError, match="both dice"):
        g.commit()
    assert g.phase is Phase.PLAY


def test_out_of_turn_actions():
    g = Game()
    for action in (g.double, g.take, g.drop, g.beaver, g.raccoon, g.accept_resignation, g.commit):
        with pytest.raises(RulesError):
            action()
    with pytest.raises(RulesError):
        g.play("8/5 6/5")
    g.roll((3, 1))
    with pytest.raises(RulesError, match="already rolled"):
        g.double()
    with pytest.raises(RulesError):
        g.resign(4)


# -- the cube (RULES 7) --------------------------------------------------------------

def test_taken_double_gives_the_cube_to_the_taker():
    # RULES 7.1, 7.3
    g = start_turn(opened())
    g.double()
    assert g.phase is Phase.DOUBLED and g.turn == 0
    g.take()
    assert g.cube_value == 2 and g.cube_owner == 0 and g.on_roll == 1
    g.roll((2, 1))
    g.play("13/11 24/23")
    assert g.can_double()            # the owner may redouble
    g.double()
    g.take()
    assert g.cube_value == 4 and g.cube_owner == 1
    g.roll((3, 1))
    g.play("8/5 6/5")                # player 0 (who doubled) moves
    assert g.on_roll == 1 and g.can_double()
    g.roll((3, 1))
    g.play("8/5 6/5")
    verdict = g.can_double()         # player 0 no longer owns it
    assert g.on_roll == 0 and not verdict and "owns the cube" in verdict.reason
    with pytest.raises(RulesError, match="owns the cube"):
        g.double()


def test_dropped_double_scores_the_value_before():
    # RULES 7.3, 8.5
    g = start_turn(opened())
    g.double()
    g.take()
    g.roll((2, 1))
    g.play("13/11 24/23")
    g.double()
    g.drop()
    o = g.outcome
    assert o.winner == 0 and o.ending is Ending.DROP and o.points == 2 and o.cube_value == 2


def test_shut_out_player_may_still_double():
    # RULES 7.2
    g = start_turn(opened())
    g._position = make(me={6: 14}, me_bar=1, opp={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    assert g.can_double()
    g.double()
    assert g.phase is Phase.DOUBLED


def test_cube_limit():
    # RULES 7.4
    g = start_turn(opened(Rules(cube_limit=2)))
    g.double()
    g.take()
    g.roll((2, 1))
    g.play("13/11 24/23")
    verdict = g.can_double()
    assert not verdict and "limit of 2" in verdict.reason


def test_beaver_and_raccoon():
    # RULES 7.5: a beaver takes and redoubles keeping the cube; a raccoon
    # redoubles back; each counts against the allowance.
    g = start_turn(opened(Rules(beavers=2)))
    g.double()                       # player 1 doubles
    g.beaver()                       # player 0 beavers: cube 4, player 0 owns
    assert g.cube_value == 4 and g.cube_owner == 0 and g.phase is Phase.BEAVERED and g.turn == 1
    g.raccoon()                      # player 1 raccoons: cube 8 for player 0 to answer
    # Whoever accepts the last redouble owns the cube: player 0, the beaverer (as gnubg).
    assert g.cube_value == 8 and g.cube_owner == 0 and g.turn == 0
    with pytest.raises(RulesError, match="allow 2"):
        g.beaver()
    g.take()
    assert g.phase is Phase.TURN and g.on_roll == 1 and g.cube_value == 8
    one = start_turn(opened(Rules(beavers=1)))
    one.double()
    one.beaver()
    with pytest.raises(RulesError, match="allow 1"):
        one.raccoon()
    none = start_turn(opened())
    none.double()
    with pytest.raises(RulesError, match="allow 0"):
        none.beaver()


def test_after_a_beaver_the_doubler_rolls():
    # RULES 7.2: one double per turn; a beaver or raccoon happens in the
    # doubler's turn, so once it is answered the doubler rolls (RULES 7.5).
    # Before, three rounds of double, beaver, raccoon, take reached 512.
    g = start_turn(opened(Rules(beavers=2)))
    g.double()
    g.beaver()
    g.raccoon()
    g.take()
    assert g.phase is Phase.TURN and g.on_roll == 1 and g.cube_value == 8 and g.cube_owner == 0
    verdict = g.can_double()
    assert not verdict and "RULES 7.2" in verdict.reason
    with pytest.raises(RulesError, match=r"RULES 7\.2"):
        g.double()
    assert g.cube_value == 8 and g.phase is Phase.TURN and g.history[-1] == Event("take", 0)
    g.roll((2, 1))                       # the doubler rolls and plays
    g.play("13/11 24/23")
    assert g.on_roll == 0 and g.can_double()   # the beaverer owns the cube and may redouble
    g.roll((2, 1))
    g.play("13/11 24/23")
    assert g.on_roll == 1 and not g.can_double()
    beaver_only = start_turn(opened(Rules(beavers=1)))
    beaver_only.double()
    beaver_only.beaver()
    beaver_only.take()
    verdict = beaver_only.can_double()
    assert not verdict and "RULES 7.2" in verdict.reason and beaver_only.phase is Phase.TURN


def test_beaver_and_raccoon_can_be_refused():
    # RULES 7.3, 7.5: the doubler may pass a beaver like any double and pays
    # the value before the beaver; the beaverer may pass a raccoon and pays
    # the value before the raccoon.
    g = start_turn(opened(Rules(beavers=2)))     # player 1 on roll
    g.double()
    g.beaver()                                   # cube 1 -> 4, player 0 owns
    g.drop()                                     # player 1 refuses
    assert g.is_over() and g.history[-1] == Event("drop", 1)
    assert g.outcome == Outcome(winner=0, ending=Ending.DROP, cube_value=2, multiplier=1, points=2)
    assert (g.cube_value, g.cube_owner) == (2, 0)
    again = Game.replay(g.history, rules=Rules(beavers=2))
    assert again.outcome == g.outcome
    r = start_turn(opened(Rules(beavers=2)))
    r.double()
    r.beaver()
    r.raccoon()                                  # cube 8, player 1's
    r.drop()                                     # player 0, the beaverer, refuses
    assert r.outcome == Outcome(winner=1, ending=Ending.DROP, cube_value=4, multiplier=1, points=4)
    assert (r.cube_value, r.cube_owner) == (4, 0)
    jacoby = start_turn(opened(Rules(beavers=1, jacoby=True)))
    jacoby.double()
    jacoby.beaver()
    jacoby.drop()                                # a drop scores single under any rule
    assert jacoby.outcome.points == 2


def test_refused_beavers_in_a_money_session_and_a_chouette():
    # RULES 7.5, 8.5 (a money session tallies), 9.3-9.4 (the chouette pays
    # each member in the game at the game's value).
    m = bg.Match(0, rules=Rules(beavers=2))
    g = m.new_game()
    start_turn(opened_in(g))                     # player 1 doubles, player 0 beavers, player 1 passes
    g.double(); g.beaver(); g.drop()
    assert m.score == (2, 0)
    g = m.new_game()
    start_turn(opened_in(g))                     # ... player 1 raccoons, player 0 passes
    g.double(); g.beaver(); g.raccoon(); g.drop()
    assert m.score == (2, 4)
    c = bg.Chouette(["A", "B", "C"], stake=3, rules=Rules(beavers=1), seed=2)
    box, captain, other = c.order
    g = c.new_game()
    g.roll((3, 1))                               # the box (player 0) opens
    g.play("8/5 6/5")
    g.roll((2, 1))
    g.play("13/11 24/23")
    g.double()                                   # the box doubles, the team beavers, the box passes
    g.beaver()
    g.drop()
    assert g.outcome.winner == 1 and g.outcome.points == 2
    assert c.settle() == {box: -12, captain: 6, other: 6}


def opened_in(g, dice=(3, 1)):
    g.roll(dice)
    return g


def test_beaver_not_in_a_match():
    m = bg.Match(5)
    g = m.new_game()
    g.roll((3, 1))
    start_turn(g)
    g.double()
    with pytest.raises(RulesError, match="money"):
        g.beaver()


# -- scoring (RULES 6) -------------------------------------------------------------------

def finished(position, rules=None, cube=1, turned=False):
    """Player 0 (on roll, 1-1) bears off the last checker from ``position``."""
    g = Game(rules=rules)
    g.roll((2, 1))
    g.play("13/11 24/23")
    g.roll((2, 1))
    g.play("13/11 24/23")
    g._position = position
    g.cube_value = cube
    g._cube_turned = turned
    g.roll((1, 1))
    g.play(str(position.legal_plays((1, 1))[0]))
    return g.outcome


def test_single_gammon_backgammon():
    # RULES 6.2-6.4, from the final position.
    assert finished(make(me={1: 1}, opp={6: 3})).points == 1
    assert finished(make(me={1: 1}, opp={12: 15})).ending is Ending.GAMMON
    o = finished(make(me={1: 1}, opp={20: 15}))     # the loser still in the winner's home board
    assert o.ending is Ending.BACKGAMMON and o.points == 3
    assert finished(make(me={1: 1}, opp={20: 15}), cube=4).points == 12


def test_backgammon_counts_as_gammon_option():
    # RULES 6.4 option
    o = finished(make(me={1: 1}, opp={20: 15}), rules=Rules(backgammon_counts_as_gammon=True))
    assert o.ending is Ending.BACKGAMMON and o.multiplier == 2 and o.points == 2


def test_jacoby():
    # RULES 7.5: gammons count single unless a double was taken.
    jacoby = Rules(jacoby=True)
    assert finished(make(me={1: 1}, opp={12: 15}), rules=jacoby).points == 1
    assert finished(make(me={1: 1}, opp={12: 15}), rules=jacoby, cube=2, turned=True).points == 4
    # Automatic doubles do not turn the cube.
    assert finished(make(me={1: 1}, opp={12: 15}), rules=jacoby, cube=2, turned=False).points == 2


def test_resignation_scoring():
    # RULES 6.5: level x cube, after the options.
    g = start_turn(opened())
    g.double()
    g.take()
    g.resign(2)
    assert g.resignation == 2 and g.turn == 0      # player 1 resigns; player 0 answers
    g.reject_resignation()
    assert g.phase is Phase.TURN
    g.resign(3)
    g.accept_resignation()
    assert g.outcome.winner == 0 and g.outcome.points == 6 and g.outcome.ending is Ending.RESIGNATION
    g = start_turn(opened(Rules(backgammon_counts_as_gammon=True)))
    g.resign(3)
    g.accept_resignation()
    assert g.outcome.points == 2


def test_finished_game_match_ids_as_gnubg_writes_them():
    # docs/formats.md "GNU Match ID"; RULES 6.5, 7.3, 8.5.  Once a game is
    # over gnubg shows the score after it; after a drop or an accepted
    # resignation the side that answered stays on turn, and the resignation
    # level and any dice rolled before resigning stay.  (Checked against
    # gnubg itself, state by state, in test_gnubg_lockstep.py.)
    g = opened()                                  # player 0 to play 3-1
    g.resign(2)
    assert MatchState.from_match_id(g.match_id()) == MatchState(turn=1, resignation=2, dice=(3, 1))
    g.accept_resignation()
    assert g.final_score == (0, 2) and g.score == (0, 0)
    assert MatchState.from_match_id(g.match_id()) == MatchState(
        on_roll=0, turn=1, game_state=GameState.RESIGNED, resignation=2, dice=(3, 1), score=(0, 2))
    d = start_turn(opened())                      # player 1 doubles, player 0 drops
    d.double()
    d.drop()
    assert d.match_state() == MatchState(on_roll=1, turn=0, game_state=GameState.DROPPED, score=(0, 1))
    b = start_turn(opened(Rules(beavers=1)))      # a beaver shows as a double offered on cube 2
    b.double()
    b.beaver()
    assert b.match_state() == MatchState(cube_value=2, cube_owner=0, on_roll=1, turn=1, double_offered=True,
                                         beavers=True)   # the game's rules ride in its state
    b.drop()
    assert b.match_state() == MatchState(cube_value=2, cube_owner=0, on_roll=1, turn=1,
                                         game_state=GameState.DROPPED, score=(2, 0), beavers=True)
    w = start_turn(opened())                      # player 1 bears off its last checker
    w._position = make(me={1: 1}, opp={6: 3})
    w.roll((1, 1))
    w.play("1/off")
    assert w.outcome.winner == 1 and w.on_roll == 0
    assert w.match_state() == MatchState(on_roll=0, turn=0, game_state=GameState.OVER, score=(0, 1))
    assert w.position.array[0].sum() == 0         # the position from the loser's side, as gnubg's


def test_replay_rebuilds_the_game():
    rng = np.random.default_rng(5)
    g = Game(rules=Rules(beavers=1), seed=5)
    while not g.is_over():
        act(g, rng)
    again = Game.replay(g.history, rules=Rules(beavers=1))
    assert again.history == g.history and again.outcome == g.outcome and again.position == g.position


def act(g, rng, cube=True):
    """One random legal action; returns its name."""
    if g.phase is Phase.OPENING:
        g.roll(); return "roll"
    if g.phase is Phase.TURN:
        if cube and g.can_double() and rng.random() < 0.05:
            g.double(); return "double"
        if rng.random() < 0.002:
            g.resign(int(rng.integers(1, 4))); return "resign"
        g.roll(); return "roll"
    if g.phase is Phase.DOUBLED:
        r = rng.random()
        if r < 0.2:
            g.drop(); return "drop"
        if r < 0.3 and g.money and g._redoubles < g.rules.beavers and g.cube_value * 4 <= g.rules.cube_limit:
            g.beaver(); return "beaver"
        g.take(); return "take"
    if g.phase is Phase.BEAVERED:
        if g.turn == g._doubler and g._redoubles < g.rules.beavers and g.cube_value * 2 <= g.rules.cube_limit and rng.random() < 0.5:
            g.raccoon(); return "raccoon"
        g.take(); return "take"
    if g.phase is Phase.RESIGNED:
        if rng.random() < 0.5:
            g.accept_resignation(); return "accept"
        g.reject_resignation(); return "reject"
    plays = g.legal_plays()
    g.play(plays[int(rng.integers(len(plays)))]); return "play"


def check_invariants(g):
    a = g.position.array
    assert a[0].sum() <= 15 and a[1].sum() <= 15
    assert g.cube_value & (g.cube_value - 1) == 0 and g.cube_value <= g.rules.cube_limit
    assert g.cube_owner in (None, 0, 1)
    if g.is_over():
        o = g.outcome
        assert o.points == o.multiplier * o.cube_value and 1 <= o.multiplier <= 3
        if o.ending in (Ending.SINGLE, Ending.GAMMON, Ending.BACKGAMMON):
            result = g.position.result()
            assert result is not None and o.ending.value == result.kind.name.lower()
            # The winner has borne off everything.
            assert g.position.borne_off()[1] == 15


@pytest.mark.parametrize("rules", [Rules(), Rules(beavers=3, jacoby=True, automatic_doubles=2, cube_limit=64),
                                   Rules(backgammon_counts_as_gammon=True, cube_limit=8)])
def test_thousands_of_random_money_games(rules):
    rng = np.random.default_rng(11)
    endings = set()
    for seed in range(700):
        g = Game(rules=rules, seed=seed)
        steps = 0
        while not g.is_over():
            act(g, rng)
            check_invariants(g)
            steps += 1
            assert steps < 5000
        endings.add(g.outcome.ending)
    assert {Ending.SINGLE, Ending.DROP} <= endings


def test_partial_moves_end_with_the_game():
    g = opened(dice=(6, 1))
    g.move(13, 7)
    g.resign(1)
    g.accept_resignation()
    assert g.partial_position == g.position


def test_resignation_levels_are_whole_numbers():
    # RULES 6.5: a single, a gammon or a backgammon.  A wrong type is a
    # TypeError naming the parameter; a bool is not a level.
    g = opened()
    for bad in (True, 1.0, "1", None):
        with pytest.raises(TypeError, match="level"):
            g.resign(bad)
    for bad in (0, 4, -1):
        with pytest.raises(RulesError, match="resign"):
            g.resign(bad)
    assert g.phase is Phase.PLAY and g.history == [Event("opening", -1, (3, 1))]
    g.resign(np.int64(2))
    assert g.resignation == 2


def test_argument_types_name_the_parameter():
    # A wrong type raises TypeError naming the parameter; a value of the
    # right type against the rules stays a RulesError (a ValueError).
    g = opened(dice=(6, 1))
    for frm, to, name in (("13", 7, "frm"), (13.0, 7, "frm"), (True, 0, "frm"), (13, "7", "to"), (13, False, "to")):
        with pytest.raises(TypeError, match=name):
            g.move(frm, to)
    with pytest.raises(RulesError, match=r"RULES 3\.1"):
        g.move(7, 13)                    # backwards (RULES 3.1)
    assert g.partial_position == g.position
    g.move(np.int64(13), np.int8(7))     # numpy integers are integers
    assert g.partial_position != g.position
    with pytest.raises(TypeError, match="rules.*backgammon.Rules"):
        Game(rules="standard")
    with pytest.raises(TypeError, match=r"\bseed\b"):
        Game(seed="abc")
    with pytest.raises(TypeError, match=r"\bseed\b"):
        Game(seed=True)
    with pytest.raises(ValueError, match=r"\bseed\b"):
        Game(seed=-1)
    seeded = Game(seed=np.random.SeedSequence(9))
    seeded.roll()
    plain = Game(seed=9)
    plain.roll()
    assert seeded.history == plain.history      # an int and its SeedSequence roll alike


def test_replay_checks_its_events():
    # A record that is not a list of Events is a TypeError naming ``events``;
    # an event of an unknown kind stays a RulesError.
    with pytest.raises(TypeError, match=r"events.*backgammon\.Event"):
        Game.replay([1, 2, 3])
    with pytest.raises(TypeError, match=r"events\[1\].*tuple"):
        Game.replay([Event("opening", -1, (3, 1)), ("play", 0, "8/5 6/5")])
    with pytest.raises(TypeError, match="events"):
        Game.replay(5)
    with pytest.raises(RulesError, match="unknown event 'castle'"):
        Game.replay([Event("opening", -1, (3, 1)), Event("castle", 0)])
    g = Game.replay(iter([Event("opening", -1, (3, 1)), Event("play", 0, "8/5 6/5")]))
    assert g.on_roll == 1 and g.phase is Phase.TURN


def test_commit_compares_positions_not_notation(monkeypatch):
    # RULES 3.5: a play is the position it reaches.  commit() finds the
    # legal play whose result is the position the steps reached, and never
    # writes the steps out as text to parse them again.
    import backgammon.play

    def no_parsing(*args, **kwargs):
        raise AssertionError("commit() parsed notation")

    monkeypatch.setattr(backgammon.play, "parse_play", no_parsing)
    monkeypatch.setattr(bg.Position, "parse_play", no_parsing)
    g = opened(dice=(6, 1))
    plays = g.legal_plays()
    g.move(13, 7)
    g.move(8, 7)
    g.commit()
    assert g.history[-1] == Event("play", 0, "13/7 8/7") and g.on_roll == 1
    assert g.position in plays
    g.roll((6, 4))                       # player 1 hits twice on the way: 24/18*/14*
    g._position = make(me={24: 2, 13: 5, 8: 3, 6: 5}, opp={7: 1, 11: 1, 13: 4, 6: 5, 8: 4})
    g.move(24, 18)
    g.move(18, 14)
    g.commit()
    assert g.history[-1] == Event("play", 1, "24/18*/14*")
    assert g.position.array[1][24] == 2          # two of player 0's checkers on the bar
    g.roll((2, 1))                       # entering step by step
    g.move(25, 23)
    g.move(25, 24)
    g.commit()
    assert g.history[-1] == Event("play", 0, "bar/24 bar/23") and g.on_roll == 1


def test_commit_refuses_legal_steps_that_are_not_a_legal_play():
    # RULES 3.4: each step was legal, but the steps are not a whole play.
    g = opened(dice=(6, 1))
    g.move(13, 7)
    with pytest.raises(IllegalPlayError, match=r"both dice must be used.*RULES 3\.4"):
        g.commit()
    g.undo()
    with pytest.raises(IllegalPlayError, match=r"must be played.*RULES 3\.4"):
        g.commit()                       # no step at all
    g.move(13, 7); g.move(8, 7); g.commit()
    g.roll((3, 1)); g.play("8/5 6/5")
    # Either die alone, not both: the larger must be played (RULES 3.4).
    g._position = make(me={13: 1, 6: 14}, opp={24: 2, 23: 2, 11: 11})
    g.roll((6, 5))
    assert [str(p) for p in g.legal_plays()] == ["13/7"]
    g.move(13, 8)                        # the 5 is a legal step on its own
    with pytest.raises(IllegalPlayError, match=r"must be the larger, 6 \(RULES 3\.4\)"):
        g.commit()
    assert g.phase is Phase.PLAY and g.on_roll == 0 and g.history[-1].kind == "roll"
    g.undo()
    g.move(13, 7)
    g.commit()
    assert g.history[-1] == Event("play", 0, "13/7") and g.on_roll == 1
    doubles = opened(dice=(6, 1))
    doubles.play("13/7 8/7")
    doubles.roll((2, 2))
    doubles.move(13, 11)
    doubles.move(11, 9)
    with pytest.raises(IllegalPlayError, match=r"4 of the four 2s.*RULES 3\.4"):
        doubles.commit()


def test_partial_moves_follow_the_move_generator():
    # Every legal play of random positions, made step by step, commits to
    # the same position; a step the rules forbid on its own is refused.
    from backgammon.sample import random_positions
    boards, rolls = random_positions(300, seed=12)
    for board, roll in zip(boards, rolls):
        pos = bg.Position.from_array(board)
        for play in pos.legal_plays(tuple(int(d) for d in roll))[:5]:
            if not play.moves:
                continue
            g = Game()
            g.roll((3, 1)); g.play("8/5 6/5"); g.roll((3, 1)); g.play("8/5 6/5")
            g._position = pos
            g.roll(tuple(int(d) for d in roll))
            if g.phase is not Phase.PLAY:
                continue
            for frm, to in play.moves:
                g.move(frm, to)
            assert g.partial_position == play.position.swapped()
            g.commit()
            assert g.position == play.position


def test_partial_move_refusals():
    # A closed point (RULES 3.2) and the bar first (RULES 4.1).
    g = opened(dice=(6, 1))
    g.play("13/7 8/7")
    g.roll((6, 5))
    with pytest.raises(RulesError, match="not a legal step"):
        g.move(24, 18)                        # the opponent holds its 7-point = my 18
    g._position = make(me={13: 5, 6: 9}, me_bar=1, opp={24: 2, 13: 13})
    g._partial = None
    with pytest.raises(RulesError, match="not a legal step"):
        g.move(13, 7)
    g.move(25, 20)
    assert g.partial_position.array[1][24] == 0


def test_an_accepted_resignation_scores_the_level_offered_even_under_jacoby():
    # RULES 6.5: the opponent scores the level offered times the cube; the
    # Jacoby rule (7.5) concerns games played out (gnubg scores it so too).
    g = start_turn(opened(Rules(jacoby=True)))
    g.resign(2)
    g.accept_resignation()
    assert g.outcome.points == 2 and g.outcome.ending is bg.game.Ending.RESIGNATION


def test_either_side_may_offer_to_resign():
    # RULES 6.5: "a side may offer to resign" -- also the side that has just
    # moved, while its opponent is on roll (FIBS allows it; match files record it).
    g = start_turn(opened())
    mover = g.turn
    g.resign(1, player=1 - mover)
    assert g.phase is Phase.RESIGNED and g.history[-1] == Event("resign", 1 - mover, 1)
    g.accept_resignation()
    assert g.outcome.winner == mover and g.outcome.ending is Ending.RESIGNATION
    h = Game(seed=4)
    for e in g.history:
        h.apply(e)
    assert h.outcome == g.outcome
    g = start_turn(opened())
    with pytest.raises(ValueError, match="player"):
        g.resign(1, player=2)
    g.double()
    with pytest.raises(RulesError, match="6.5"):
        g.resign(1, player=g.turn)


def test_a_side_may_resign_before_the_opening_roll():
    # RULES 6.5 sets no time: before the opening roll the resigner is named.
    g = Game()
    with pytest.raises(RulesError, match="name the player"):
        g.resign(1)
    g.resign(2, player=1)
    g.reject_resignation()
    assert g.phase is Phase.OPENING
    g.resign(1, player=1)
    g.accept_resignation()
    assert (g.outcome.winner, g.outcome.points, g.outcome.ending) == (0, 1, Ending.RESIGNATION)
    again = Game.replay(g.history)
    assert again.outcome == g.outcome and again.history == g.history


# -- set boards: a recorded play the rules refuse, kept as the board it leaves ------------------

def test_play_as_written_keeps_an_illegal_play_as_a_set_board():
    # RULES 3.1: 13/9 8/7 moves 5 pips for a 3-1.
    g = Game(seed=1)
    g.roll((3, 1))
    before = g.position
    g.play_as_written("13/9 8/7")
    event = g.history[-1]
    assert (event.kind, event.player) == ("setboard", 0)
    assert isinstance(event.value, bg.SetBoard)
    assert (event.value.play, event.value.rule) == ("13/9 8/7", "3.1")
    assert event.value.position == bg.play.written_position(before, "13/9 8/7")
    assert (g.phase, g.on_roll) == (Phase.TURN, 1)            # the turn passes as after a play
    assert g.position == event.value.position
    assert g.position.pip_counts() == (167, 162)
    # replayed from the history, event by event
    again = Game.replay(g.history)
    assert again.position == g.position and again.history == g.history
    # a legal play is simply played
    g.roll((3, 1)); g.play_as_written("8/5 6/5")
    assert g.history[-1].kind == "play"


def test_written_position_hits_and_refuses_what_no_board_can_hold():
    start = bg.Position.initial()
    after = bg.play.written_position(start, "24/20 6/2")     # 8 pips, as written
    assert after.pip_counts() == (167, 167 - 8)
    # a lone opposing checker on a point written is hit (RULES 3.3): the opponent's 24/23, then our 13/2
    blot = bg.play.written_position(start, "24/23")                # the opponent on roll now
    hit = bg.play.written_position(blot, "13/2")
    assert hit.array[1, 24] == 1 and hit.pip_counts()[0] == 167 - 1 + 2
    # RULES 1.4: two colours never share a point -- the opponent holds our 19 (its 6-point)
    with pytest.raises(IllegalMoveError, match="RULES 1.4"):
        bg.play.written_position(start, "24/19")
    with pytest.raises(IllegalMoveError, match="no checker of the mover on point 20"):
        bg.play.written_position(start, "20/16")
    g = Game(seed=1)
    g.roll((3, 1))
    with pytest.raises(IllegalPlayError, match="RULES 1.4") as e:
        g.play_as_written("24/19 8/7")              # illegal, and no board follows from it
    assert e.value.code == "play_illegal" and g.phase is Phase.PLAY and len(g.history) == 1
    with pytest.raises(IllegalPlayError) as e:
        g.play_as_written("x/y")
    assert e.value.code == "notation_unreadable"


def test_a_set_board_that_bears_off_the_last_checker_ends_the_game():
    # RULES 6.1-6.3: the board set leaves the mover with none on the board: a gammon (the loser has none off).
    g = Game(seed=1)
    g.roll((3, 1))
    # row 0 the mover (all off), row 1 the opponent, on roll next: 15 on its own 6-point
    off = bg.Position.from_array(np.array([[0] * 25, [0] * 5 + [15] + [0] * 19], dtype=np.uint8))
    g.set_board(off, "6/off 5/off", "made up")
    assert g.is_over() and g.outcome.winner == 0 and g.outcome.points == 2


def test_set_board_needs_a_roll_and_a_position():
    g = Game(seed=1)
    with pytest.raises(RulesError) as e:
        g.set_board(bg.Position.initial())
    assert e.value.code == "roll_first"
    g.roll((3, 1))
    with pytest.raises(TypeError, match="position"):
        g.set_board("4HPwATDgc/ABMA")
    with pytest.raises(TypeError, match="event.value"):
        g.apply(Event("setboard", 0, "13/9 8/7"))
    with pytest.raises(RulesError, match="record gives this setboard to player 1"):
        g.apply(Event("setboard", 1, bg.SetBoard(bg.Position.initial())))
