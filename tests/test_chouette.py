"""Chouette (RULES 9): ranking, box and team, each member's cube answers,
the rotation and a ledger that always sums to zero."""
import pytest

import backgammon as bg
from backgammon.chouette import BOX, TEAM
from backgammon.errors import RulesError
from backgammon.game import Phase


def team_on_turn(g):
    g.roll((1, 3))          # the box (player 0) loses the opening: the team moves
    g.play("8/5 6/5")
    g.roll((2, 1))
    g.play("13/11 24/23")   # the box's turn is done; the team is on turn
    assert g.on_roll == TEAM and g.phase is Phase.TURN


def box_on_turn(g):
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.roll((2, 1))
    g.play("13/11 24/23")
    assert g.on_roll == BOX and g.phase is Phase.TURN


def test_opening_ranking_by_one_die():
    # RULES 9.1: highest die is the box, next the captain, the rest in order.
    c = bg.Chouette(["A", "B", "C", "D", "E"], seed=0)
    rolls = c.opening_rolls
    assert sorted(c.order) == ["A", "B", "C", "D", "E"]
    # Higher first die first; ties settled by the re-rolls that follow.
    dice = [rolls[p] for p in c.order]
    assert dice == sorted(dice, reverse=True)
    assert any(len(r) > 1 for r in rolls.values())     # this seed has a tie
    assert c.box == c.order[0] and c.captain == c.order[1] and c.team == c.order[1:]
    assert bg.Chouette(["A", "B", "C", "D", "E"], seed=0).order == c.order   # seeded
    with pytest.raises(RulesError, match="three or more"):
        bg.Chouette(["A", "B"])


def test_session_rotations_and_ledger():
    c = bg.Chouette(["A", "B", "C", "D"], stake=2, seed=4)
    box, captain, second, third = c.order

    # 1. The team loses a single: the box stays, the captain goes to the end.
    g = c.new_game()
    team_on_turn(g)
    g.resign(1)
    g.accept_resignation()
    paid = c.settle()
    assert paid == {box: 6, captain: -2, second: -2, third: -2}
    assert c.order == [box, second, third, captain]
    assert sum(c.ledger.values()) == 0

    # 2. The box doubles: `second` (captain now) and `third` take, `captain` drops
    #    and pays the stake at the cube before the double; then the team wins.
    g = c.new_game()
    box_on_turn(g)
    g.double()
    c.answer_box_double(takers=[second, third])
    assert c.in_game == [second, third] and g.cube_value == 2 and g.cube_owner == TEAM
    assert c.ledger[captain] == -2 - 2
    g.roll((2, 1)); g.play("13/11 24/23")     # the box plays on
    g.roll((2, 1)); g.play("13/11 24/23")     # the team's turn ends
    g.resign(1)                                # the box resigns a single at cube 2
    g.accept_resignation()
    paid = c.settle()
    # Every payment of the game, the captain's pass included (sums to zero).
    assert paid == {box: -6, captain: -2, second: 4, third: 4}
    # The team won: the captain becomes the box, the old box goes to the end.
    assert c.order == [second, third, captain, box]
    assert sum(c.ledger.values()) == 0

    # 3. The team doubles only when all agree; the box passes and pays everyone.
    box, captain, second, third = c.order
    g = c.new_game()
    team_on_turn(g)
    with pytest.raises(RulesError, match="every member agrees"):
        c.team_doubles([captain, second])
    assert g.phase is Phase.TURN
    c.team_doubles([captain, second, third])
    c.answer_team_double(take=False)
    assert g.is_over() and g.outcome.winner == TEAM and g.outcome.points == 1
    paid = c.settle()     # the box pays each member the value before the double
    assert paid == {box: -6, captain: 2, second: 2, third: 2}
    assert c.order == [captain, second, third, box]
    assert sum(c.ledger.values()) == 0
    with pytest.raises(RulesError, match="settled already"):
        c.settle()

    # 3b. The same pass made on the game itself is paid the same way.
    box, captain, second, third = c.order
    g = c.new_game()
    team_on_turn(g)
    c.team_doubles(c.in_game)
    g.drop()
    assert c.settle() == {box: -6, captain: 2, second: 2, third: 2}
    assert c.order == [captain, second, third, box]

    # 3c. The captain passes the box's double: the next member still in
    #     takes over and wins the box; the old captain goes to the end.
    box, captain, second, third = c.order
    g = c.new_game()
    box_on_turn(g)
    g.double()
    start = dict(c.ledger)
    c.answer_box_double(takers=[second, third])
    assert c.ledger[captain] == start[captain] - 2 and c.ledger[box] == start[box] + 2
    assert c.captain == second and c.order == [box, second, third, captain]
    g.roll((2, 1)); g.play("13/11 24/23")
    g.roll((2, 1)); g.play("13/11 24/23")
    g.resign(1)
    g.accept_resignation()
    before = dict(c.ledger)
    paid = c.settle()                 # the captain paid 2 when it passed
    assert paid == {box: -6, captain: -2, second: 4, third: 4}
    assert before[captain] - c.ledger[captain] == 0
    assert c.order == [second, third, captain, box]
    assert sum(c.ledger.values()) == 0

    # 4. The box doubles and every member passes: the box wins the game.
    box, captain, second, third = c.order
    g = c.new_game()
    box_on_turn(g)
    g.double()
    c.answer_box_double(takers=[])
    assert g.is_over() and g.outcome.winner == BOX
    c.settle()
    assert c.order == [box, second, third, captain]
    assert sum(c.ledger.values()) == 0

    # 5. The team doubles, the box takes, and the team loses at cube 2.
    box, captain, second, third = c.order
    g = c.new_game()
    team_on_turn(g)
    c.team_doubles(c.in_game)
    c.answer_team_double(take=True)
    assert g.cube_owner == BOX and g.cube_value == 2
    g.roll((2, 1)); g.play("13/11 24/23")
    g.roll((2, 1)); g.play("13/11 24/23")
    g.resign(2)                                 # the team resigns a gammon
    g.accept_resignation()
    paid = c.settle()
    assert paid == {box: 24, captain: -8, second: -8, third: -8}
    assert c.order == [box, second, third, captain]
    assert sum(c.ledger.values()) == 0


def test_new_game_needs_settling():
    c = bg.Chouette(["A", "B", "C"], seed=2)
    g = c.new_game()
    box_on_turn(g)
    g.double()
    c.answer_box_double([])          # everyone passes: the game is over
    with pytest.raises(RulesError, match="settle"):
        c.new_game()
    box = c.box
    c.settle()
    assert c.box == box and c.new_game()


def test_chouette_order_of_actions():
    c = bg.Chouette(["A", "B", "C"], seed=2)
    g = c.new_game()
    with pytest.raises(RulesError, match="not over"):
        c.new_game()
    with pytest.raises(RulesError, match="not over"):
        c.settle()
    with pytest.raises(RulesError, match="has not doubled"):
        c.answer_box_double([])
    box_on_turn(g)
    with pytest.raises(RulesError, match="team doubles on its own turn"):
        c.team_doubles(c.in_game)
    g.double()
    with pytest.raises(RulesError, match="not in this game"):
        c.answer_box_double(["nobody"])
    with pytest.raises(RulesError, match="team has not doubled"):
        c.answer_team_double(take=True)
    assert g.phase is Phase.DOUBLED and sum(c.ledger.values()) == 0


def test_settle_reports_the_payments_of_members_who_passed():
    # RULES 9.3, 9.4: all three members pass the box's double; each pays the
    # stake at the cube before the double, and settle() returns exactly the
    # ledger's change for the game.
    c = bg.Chouette(["A", "B", "C", "D"], stake=2, seed=4)
    box, captain, second, third = c.order
    g = c.new_game()
    box_on_turn(g)
    g.double()
    start = dict(c.ledger)
    c.answer_box_double(takers=[])
    assert g.is_over() and g.outcome.winner == bg.chouette.BOX
    paid = c.settle()
    assert paid == {box: 6, captain: -2, second: -2, third: -2}
    assert paid == {p: c.ledger[p] - start[p] for p in c.ledger}
    assert sum(paid.values()) == 0


def test_chouette_stake_must_be_an_int():
    with pytest.raises(TypeError, match="stake"):
        bg.Chouette(["A", "B", "C"], stake=True)
    with pytest.raises(RulesError, match="stake"):
        bg.Chouette(["A", "B", "C"], stake=0)
    with pytest.raises(TypeError, match="seed"):
        bg.Chouette(["A", "B", "C"], seed="abc")
