"""Matches: scores, the Crawford rule, the dead cube, money sessions (RULES 8)."""
import numpy as np
import pytest

import backgammon as bg
from backgammon.errors import RulesError
from backgammon.game import Ending, Phase
from backgammon.matchid import GameState, MatchState
from backgammon.rules import Rules

from helpers import make
from test_game import act, check_invariants


def to_turn_of(g, player):
    """Play the opening so that ``player`` is on roll before rolling."""
    g.roll((3, 1) if player == 1 else (1, 3))
    g.play("8/5 6/5")
    assert g.on_roll == player and g.phase is Phase.TURN


def resign_to(g, winner, level=1):
    """The loser (on turn) resigns ``level``; the winner accepts."""
    assert g.on_roll == 1 - winner and g.phase is Phase.TURN
    g.resign(level)
    g.accept_resignation()


def test_five_point_match_game_by_game():
    # RULES 8.1-8.3, 8.5: 1:0, 1:2, 3:2, 4:2, the Crawford game, 4:3, then the
    # leader at 4 may not double (dead cube) but the trailer may; 5:3.
    m = bg.Match(5)
    g = m.new_game()                         # game 1: player 0 wins a single
    to_turn_of(g, 1)
    resign_to(g, 0)
    assert m.score == (1, 0)

    g = m.new_game()                         # game 2: player 1 wins a gammon
    to_turn_of(g, 0)
    resign_to(g, 1, level=2)
    assert m.score == (1, 2)

    g = m.new_game()                         # game 3: doubled, taken, won by player 0
    to_turn_of(g, 1)
    g.double()
    g.take()
    g.roll((2, 1)); g.play("13/11 24/23")
    g.roll((2, 1)); g.play("13/11 24/23")
    resign_to(g, 0)
    assert g.outcome.points == 2 and m.score == (3, 2)

    g = m.new_game()                         # game 4: player 0 reaches 4 = N - 1
    to_turn_of(g, 1)
    resign_to(g, 0)
    assert m.score == (4, 2) and not m.is_post_crawford

    g = m.new_game()                         # game 5: the Crawford game
    assert m.is_crawford_game and g.crawford
    to_turn_of(g, 0)
    for _ in range(2):                       # neither side may double
        verdict = g.can_double()
        assert not verdict and "Crawford" in verdict.reason
        with pytest.raises(RulesError, match="Crawford"):
            g.double()
        g.roll((2, 1)); g.play("13/11 24/23")
    resign_to(g, 1)
    assert m.score == (4, 3)

    g = m.new_game()                         # game 6: post-Crawford
    assert m.is_post_crawford and not m.is_crawford_game and not g.crawford
    to_turn_of(g, 0)
    verdict = g.can_double()                 # the leader's double is dead
    assert not verdict and "dead cube" in verdict.reason
    g.roll((2, 1)); g.play("13/11 24/23")
    assert g.on_roll == 1 and g.can_double()  # the trailer may double, and does not
    g.roll((2, 1)); g.play("13/11 24/23")
    assert not g.can_double()                # the leader still may not
    g.roll((2, 1)); g.play("13/11 24/23")
    resign_to(g, 0)
    assert m.score == (5, 3)
    assert m.winner == 0 and m.is_over()
    with pytest.raises(RulesError, match="match is over"):
        m.new_game()


def test_crawford_only_once():
    # RULES 8.2: only the first time a side reaches N - 1.
    m = bg.Match(3)
    for winner in (0, 1):                    # 1:0, 1:1
        g = m.new_game(); to_turn_of(g, 1 - winner); resign_to(g, winner)
    g = m.new_game(); to_turn_of(g, 0); resign_to(g, 1)     # 1:2 -> Crawford next
    assert m.is_crawford_game
    g = m.new_game(); to_turn_of(g, 1); resign_to(g, 0)     # Crawford game: 2:2
    assert not m.is_crawford_game and m.is_post_crawford
    g = m.new_game()
    assert not g.crawford


def test_money_options_refused_in_matches():
    # RULES 8.4
    for rules in (Rules(jacoby=True), Rules(beavers=1), Rules(automatic_doubles=1)):
        with pytest.raises(RulesError, match="money play"):
            bg.Match(7, rules=rules)
    bg.Match(0, rules=Rules(jacoby=True, beavers=1))        # a money session is fine


def test_bad_lengths():
    # RULES 8.1: a whole number of points (0 for money) that a Match ID holds;
    # a wrong type is a TypeError naming the parameter, a bool is no length.
    for bad in (-1, 2 ** 15):
        with pytest.raises(RulesError, match=r"RULES 8\.1"):
            bg.Match(bad)
    for bad in (1.5, "7", True, None):
        with pytest.raises(TypeError, match="length"):
            bg.Match(bad)
    assert bg.Match(np.int64(3)).length == 3
    with pytest.raises(TypeError, match="rules.*backgammon.Rules"):
        bg.Match(3, rules={"jacoby": False})


def test_match_seeds():
    # An int, a SeedSequence or a Generator seeds the games' dice.
    for seed in (3, np.random.SeedSequence(3), np.random.default_rng(3)):
        m = bg.Match(3, seed=seed)
        g = m.new_game()
        while g.phase is Phase.OPENING:     # ties are rolled again
            g.roll()
        assert g.dice is not None
    a, b = bg.Match(3, seed=4).new_game(), bg.Match(3, seed=4).new_game()
    for g in (a, b):
        for _ in range(5):
            g.roll()
            if g.phase is not Phase.OPENING:
                break
    assert a.history == b.history


def test_match_seeds_are_checked():
    # Seeds go through backgammon.dice: a wrong type is a TypeError naming
    # ``seed``, a negative int a ValueError, before any game starts.
    import backgammon.dice
    import backgammon.match
    for bad in ("abc", 1.5, True):
        with pytest.raises(TypeError, match=r"\bseed\b"):
            bg.Match(3, seed=bad)
    with pytest.raises(ValueError, match=r"\bseed\b"):
        bg.Match(3, seed=-1)
    m = bg.Match(3, seed=np.random.SeedSequence(4))
    g = m.new_game()
    with pytest.raises(TypeError, match=r"\bseed\b"):
        bg.Game(match=m, seed="abc")          # refused before the match counts it
    assert m.games == [g]


def test_one_game_at_a_time():
    m = bg.Match(5)
    m.new_game()
    with pytest.raises(RulesError, match="not over"):
        m.new_game()


def test_money_session_tallies():
    m = bg.Match(0, rules=Rules(jacoby=True))
    for winner in (0, 0, 1):
        g = m.new_game(); to_turn_of(g, 1 - winner); resign_to(g, winner, level=2)
    # Resignations score the level offered (RULES 6.5), Jacoby or not.
    assert m.score == (4, 2)
    assert m.winner is None and not m.is_crawford_game


@pytest.mark.parametrize("length", [1, 3, 5, 7])
def test_random_matches_keep_the_invariants(length):
    rng = np.random.default_rng(length)
    for seed in range(60 if length < 7 else 25):
        m = bg.Match(length, seed=seed)
        crawford_games = 0
        crawford_due = False        # a side reached length - 1 with the match going on
        while not m.is_over():
            before = m.score
            g = m.new_game()
            crawford_games += g.crawford
            assert g.crawford == (crawford_due and crawford_games == 1 and g is m.games[-1]
                                  and not any(x.crawford for x in m.games[:-1]))
            while not g.is_over():
                act(g, rng)
                check_invariants(g)
                if g.crawford:
                    assert not g.can_double()
                if g.phase is Phase.TURN and g.can_double():
                    assert m.score[g.on_roll] + g.cube_value < length
            after = m.score
            assert after[0] >= before[0] and after[1] >= before[1]     # scores only grow
            assert sum(after) - sum(before) == g.outcome.points
            reached = [s for s in (0, 1) if after[s] == length - 1 and before[s] < length - 1]
            if reached and not m.is_over() and crawford_games == 0 and not crawford_due:
                crawford_due = True
            elif crawford_due and g.crawford:
                crawford_due = False
        # RULES 8.2: exactly one Crawford game when a side first reached N - 1
        # and the match went on; none otherwise.
        ever = any(x.crawford for x in m.games)
        assert crawford_games == int(ever) and not crawford_due
        assert max(m.score) >= length and m.winner == int(np.argmax(m.score))


def test_game_match_ids_equal_gnubg():
    # game.match_id() for states met in random matches equals gnubg's own
    # encoding of the same cube and position information.
    import gnubg
    from backgammon.matchid import MatchState
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(12):
        m = bg.Match(5, seed=seed)
        while not m.is_over() and checked < 400:
            g = m.new_game()
            while not g.is_over():
                act(g, rng)
                if g.phase in (Phase.TURN, Phase.PLAY, Phase.DOUBLED):
                    owner = -1 if g.cube_owner is None else g.cube_owner
                    ci = gnubg.cubeinfo(g.cube_value, owner, g.on_roll, 5, tuple(g.score), int(g.crawford), 0)
                    dice = g.dice if g.phase is Phase.PLAY else (0, 0)
                    pi = gnubg.posinfo(g.on_roll, 0, int(g.phase is Phase.DOUBLED), 1, dice)
                    if g.phase is Phase.DOUBLED:
                        pi["turn"] = 1 - g.on_roll
                    theirs = gnubg.matchid(ci, pi)
                    assert g.match_id() == theirs, (g, theirs)
                    assert MatchState.from_match_id(theirs).to_match_id() == theirs
                    checked += 1
    assert checked >= 300


# -- Match IDs of finished games, as gnubg writes them (docs/formats.md) ---------------

def test_finished_game_match_id_reported_example():
    # gnubg: a 5-point match; player 1 opens 3-1 with 8/5 6/5; player 0
    # resigns a single and player 1 accepts.  The ID shows the game over by
    # resignation (RULES 6.5), the score after it, 0-1 (RULES 8.5), the
    # level, and player 1 (who accepted) on turn.
    m = bg.Match(5)
    g = m.new_game()
    to_turn_of(g, 0)
    g.resign(1)
    g.accept_resignation()
    assert g.match_id() == "MCugAAAACAAE"
    assert g.position.to_id() == "sGfwATDgc/ABMA"


def test_finished_game_ids_carry_the_next_games_crawford_flag():
    # RULES 8.2 as gnubg records it: the finished game's ID in which a side
    # reaches N - 1 already has the Crawford flag; the Crawford game's own
    # finished ID has it cleared; a dead-cube drop post-Crawford (RULES 8.3).
    m = bg.Match(5)
    g = m.new_game()                          # 2:0
    to_turn_of(g, 1)
    resign_to(g, 0, level=2)
    assert g.match_state() == MatchState(on_roll=1, turn=0, game_state=GameState.RESIGNED, resignation=2,
                                         match_length=5, score=(2, 0))
    g = m.new_game()                          # 4:0, player 0 reaches N - 1
    to_turn_of(g, 1)
    resign_to(g, 0, level=2)
    assert g.match_state() == MatchState(on_roll=1, turn=0, crawford=True, game_state=GameState.RESIGNED,
                                         resignation=2, match_length=5, score=(4, 0))
    assert not g.crawford and m.is_crawford_game
    g = m.new_game()                          # the Crawford game: 4:1
    to_turn_of(g, 0)
    assert MatchState.from_match_id(g.match_id()).crawford
    g.roll((2, 1))
    after_roll = g.match_state()
    assert after_roll.crawford and after_roll.dice == (2, 1)
    g.resign(1)
    g.accept_resignation()
    assert g.match_state() == MatchState(on_roll=0, turn=1, crawford=False, game_state=GameState.RESIGNED,
                                         resignation=1, dice=(2, 1), match_length=5, score=(4, 1))
    g = m.new_game()                          # post-Crawford: player 1 doubles, player 0 drops: 4:2
    to_turn_of(g, 1)
    g.double()
    assert g.match_state() == MatchState(on_roll=1, turn=0, double_offered=True, match_length=5, score=(4, 1))
    g.drop()
    assert g.match_state() == MatchState(on_roll=1, turn=0, game_state=GameState.DROPPED, match_length=5,
                                         score=(4, 2))
    g = m.new_game()                          # player 0 wins the match: 5:2, no flag
    to_turn_of(g, 1)
    resign_to(g, 0)
    assert m.is_over()
    assert g.match_state() == MatchState(on_roll=1, turn=0, game_state=GameState.RESIGNED, resignation=1,
                                         match_length=5, score=(5, 2))
    # Earlier games keep their own final IDs.
    assert MatchState.from_match_id(m.games[1].match_id()).score == (4, 0)
    assert [MatchState.from_match_id(x.match_id()).crawford for x in m.games] == [False, True, False, False, False]


def test_bear_off_ends_with_the_loser_on_roll_and_the_score_after():
    # RULES 6.1-6.3, 8.5: a gammon at cube 2 in a 3-point match wins it.
    m = bg.Match(3)
    g = m.new_game()
    to_turn_of(g, 1)
    g.double()
    g.take()
    g._position = make(me={2: 1}, opp={20: 15})  # player 1 bears off its last checker; no player 0 checker off
    g.roll((6, 5))
    g.play("2/off")
    assert g.outcome.ending is Ending.BACKGAMMON and m.score == (0, 6) and m.winner == 1
    assert g.match_state() == MatchState(cube_value=2, cube_owner=0, on_roll=0, turn=0, game_state=GameState.OVER,
                                         match_length=3, score=(0, 6))


def test_a_match_resumed_at_a_score():
    # A record of a match's later games: the match starts at that score; the
    # first game at length - 1 is the Crawford game unless said otherwise (RULES 8.2).
    m = bg.Match(5, score=(4, 2), seed=1)
    assert m.score == (4, 2) and m.new_game().crawford
    m = bg.Match(5, score=(4, 2), crawford=False, seed=1)
    assert not m.new_game().crawford
    with pytest.raises(bg.RulesError, match="8.1"):
        bg.Match(5, score=(5, 0))
    with pytest.raises(bg.RulesError, match="8.2"):
        bg.Match(5, score=(2, 2), crawford=True)
    with pytest.raises(TypeError, match="score"):
        bg.Match(5, score=4)


def test_play_match_between_two_players():
    """Two players play a match out, cube decisions theirs (RULES 7, 8): the
    match ends at its length, the same seed plays the same match, and a
    money session plays the games asked."""
    a = bg.play_match(["net", "pubeval"], 3, seed=7)
    assert a.is_over() and max(a.score) >= 3
    assert bg.write_mat(a) == bg.write_mat(bg.play_match(["net", "pubeval"], 3, seed=7))
    assert bg.write_mat(a) != bg.write_mat(bg.play_match(["net", "pubeval"], 3, seed=8))
    money = bg.play_match(["pubeval", "random"], 0, seed=1, games=4, rules=bg.Rules(jacoby=True))
    assert len(money.games) == 4 and money.rules.jacoby
    with pytest.raises(ValueError, match="games"):
        bg.play_match(["net", "pubeval"], 0, seed=1)
    with pytest.raises(ValueError, match="length"):
        bg.play_match(["net", "pubeval"], -1, seed=1)
    with pytest.raises(TypeError, match="players"):
        bg.play_match("net", 3, seed=1)


class _CubeStub(bg.Player):
    """Plays the first legal play; doubles whenever it may, and answers
    every double with ``answer``."""

    has_cube_decisions = True

    def __init__(self, answer):
        self.answer = answer

    def choose_indices(self, boards, rolls):
        return np.zeros(len(boards), dtype=np.int64)

    def cube_action(self, position, state=None, rules=None):
        from types import SimpleNamespace
        return SimpleNamespace(should_double=True, take=self.answer)


def test_play_match_plays_the_beavers_its_rules_allow():
    """Issue 40: play_match reads the beaver option from the game's rules
    (RULES 7.5): a player that beavers, where the rules allow it, beavers
    (the cube goes from 1 to 4, the beaverer owning it), and the doubler
    accepts; with beavers off, or in a match (RULES 8.4), the same answer
    is a take."""
    def first_cube_events(m):
        return [e.kind for e in m.games[0].history if e.kind in ("double", "take", "drop", "beaver", "raccoon")][:3]

    m = bg.play_match([_CubeStub("beaver"), _CubeStub("beaver")], 0, seed=5, games=1, rules=Rules(beavers=1))
    assert first_cube_events(m) == ["double", "beaver", "take"]
    g = m.games[0]
    beaver = next(e for e in g.history if e.kind == "beaver")
    assert g.cube_value >= 4 and beaver.player != next(e for e in g.history if e.kind == "double").player
    for rules, length in ((Rules(), 0), (None, 3)):
        m = bg.play_match([_CubeStub("beaver"), _CubeStub("beaver")], length, seed=5, games=1, rules=rules)
        assert first_cube_events(m)[:2] == ["double", "take"]


def test_a_game_of_a_match_has_the_match_s_rules():
    """Issue 40: one game, one set of rules (RULES 7.5): a Game of a Match is
    played by the match's rules, which its records and match states carry; other
    rules given with the match are refused, naming the parameter."""
    assert bg.Game(match=bg.Match(0, rules=Rules(jacoby=True))).rules == Rules(jacoby=True)
    assert bg.Game(Rules(jacoby=True), match=bg.Match(0, rules=Rules(jacoby=True))).rules == Rules(jacoby=True)
    with pytest.raises(RulesError, match="rules: a game of a match is played by the match's rules") as e:
        bg.Game(Rules(jacoby=True, beavers=2), match=bg.Match(0))
    assert e.value.params["parameter"] == "rules"
    with pytest.raises(RulesError, match="rules"):
        bg.Game(Rules(cube_limit=64), match=bg.Match(5))
