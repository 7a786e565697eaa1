"""Checker play inside cubeful rollouts at a match score (issue 40, item
2): each game's play is chosen by the player's match-equity ranking at that
game's own cube and score (``Player.choose_indices_at``, the ranking of
``Player.choose_at`` and ``hint`` with a state: ``cube_search.rank_batch``),
one batch per cube state, as gnubg chooses plays in a cubeful rollout with
each game's cube (RULES 8).  Money cubeful rollouts likewise choose by
cubeful money equity at each game's cube (``choose_indices_at(...,
cubeful=True)``), as gnubg's rollout.c does; cubeless rollouts play as
before."""
import numpy as np
import pytest

import backgammon as bg
from backgammon import _rollout
from backgammon.dice import ROLLS
from backgammon.evaluator import as_evaluator, chances
from backgammon.players import NetPlayer
from backgammon.rollouts import rollout, rollout_plays
from backgammon.rollouts.loop import Games, Start, Task, _key, run_chunk
from backgammon.sample import random_positions
from backgammon.scoring import flip

DMP = bg.MatchState(match_length=7, score=(6, 6))
SCORES = [DMP, bg.MatchState(match_length=7, score=(5, 3)), bg.MatchState(match_length=7, score=(3, 5), cube_value=2,
                                                                         cube_owner=1)]
#: A middle-game position (of a seeded random game) where four of the 21
#: rolls' best 0-ply plays at DMP differ from the cubeless ones (three with
#: the networks shipped before issue 41's).
SENSITIVE = "4HPwATDgc/ABMA"
#: A middle-game position (of the same seeded sample) where, in money play,
#: the best 0-ply play by cubeful equity differs from the cubeless one in 1
#: of the 21 rolls under Jacoby with the cube centred (4 with the networks
#: shipped before issue 41's), and in 1 with the cube centred (no Jacoby),
#: owned by either side.
MONEY_SENSITIVE = "kmfwATDgc/ABMA"
MONEY = {"centred": (bg.MatchState(), 1), "jacoby": (bg.MatchState(jacoby=True), 1),
         "owned": (bg.MatchState(cube_value=2, cube_owner=0), 1),
         "theirs": (bg.MatchState(cube_value=2, cube_owner=1), 1)}


def _all_rolls(pos):
    rolls = np.array([(r.die1, r.die2) for r in ROLLS], dtype=np.uint8)
    return np.repeat(pos.array[None], len(rolls), axis=0), rolls


def test_batched_choice_is_each_positions_choice_at():
    # The batch (many positions and rolls, one search) chooses, row by row,
    # what hint's ranking at the score puts first, at 0 and 1 ply.
    boards, rolls = random_positions(260, seed=41)
    keep = [i for i in range(200, 260) if not bg.Position.from_array(boards[i]).is_game_over()][:24]
    boards, rolls = boards[keep], rolls[keep]
    for ply in (0, 1):
        p = NetPlayer(ply=ply)
        for state in SCORES:
            got = p.choose_indices_at(boards, rolls, state)
            for b, r, i in zip(boards, rolls, got):
                pos, roll = bg.Position.from_array(b), (int(r[0]), int(r[1]))
                best = bg.hint(pos, roll, state=state, ply=ply)[0].play
                assert pos.legal_plays(roll)[int(i)].position == best.position, (pos.to_id(), roll, ply)


def test_money_and_no_state_choose_cubeless():
    boards, rolls = _all_rolls(bg.Position.from_id(SENSITIVE))
    p = NetPlayer()
    want = p.choose_indices(boards, rolls)
    assert (p.choose_indices_at(boards, rolls) == want).all()
    assert (p.choose_indices_at(boards, rolls, bg.MatchState()) == want).all()
    assert (p.choose_indices_at(boards, rolls, bg.MatchState(jacoby=True)) == want).all()


def test_the_position_plays_differently_at_dmp():
    boards, rolls = _all_rolls(bg.Position.from_id(SENSITIVE))
    p = NetPlayer()
    assert (p.choose_indices(boards, rolls) != p.choose_indices_at(boards, rolls, DMP)).sum() == 4


def _first_ply(state, cube, seed=3, games=36, pid=SENSITIVE):
    """Games of one chunk cut after their first play (no variance
    reduction): each game's result is the next side's 0-ply chances after
    the play the rollout chose, for the side on roll at the start."""
    pos = bg.Position.from_id(pid)
    seq = np.random.SeedSequence(seed)
    task = Task((Start(pos.to_bytes(), True, state if cube else None),), 0, games, seq,
                ((None, "net"), (None, "net")), ((None, "net"), (None, "net")) if cube else None,
                Games(state.game_rules(None), True, 1, False, False))
    out = run_chunk(task)[0]
    dice = _rollout.lockstep_rolls(np.arange(games, dtype=np.int64), np.zeros(games, dtype=np.int64), True,
                                   _key(seq))
    return pos, dice, out["results"]


def _after(pos, dice, index):
    kids = np.array([pos.legal_plays((int(d[0]), int(d[1])))[int(i)].position.array for d, i in zip(dice, index)])
    return flip(chances(as_evaluator(None), np.ascontiguousarray(kids), 0))


def test_rollout_at_dmp_plays_the_match_equity_play():
    # RULES 8: at DMP the rollout's first play in every game is the match
    # equity's best play for the roll thrown (the 36 stratified first rolls
    # cover all 21), not the cubeless one where the two differ.
    pos, dice, results = _first_ply(DMP, cube=True)
    boards = np.repeat(pos.array[None], len(dice), axis=0)
    p = NetPlayer()
    at_dmp, cubeless = p.choose_indices_at(boards, dice, DMP), p.choose_indices(boards, dice)
    differ = at_dmp != cubeless
    assert differ.sum() >= 3
    np.testing.assert_allclose(results, _after(pos, dice, at_dmp), atol=1e-6)
    assert not np.allclose(results[differ], _after(pos, dice[differ], cubeless[differ]), atol=1e-3)
    # Same seed, same games.
    np.testing.assert_array_equal(_first_ply(DMP, cube=True)[2], results)


def test_cubeless_rollout_plays_cubeless():
    pos, dice, results = _first_ply(DMP, cube=False)
    boards = np.repeat(pos.array[None], len(dice), axis=0)
    np.testing.assert_allclose(results, _after(pos, dice, NetPlayer().choose_indices(boards, dice)), atol=1e-6)


@pytest.mark.parametrize("name", sorted(MONEY))
def test_money_cubeful_choice_is_hints_first_at_the_cube(name):
    # RULES 7.5, 8: with ``cubeful`` a money state's plays go by cubeful
    # money equity at its cube (hint with that state ranks them so), and
    # at this position that is not the cubeless play for some rolls.
    state, differ = MONEY[name]
    pos = bg.Position.from_id(MONEY_SENSITIVE)
    boards, rolls = _all_rolls(pos)
    p = NetPlayer()
    got = p.choose_indices_at(boards, rolls, state, cubeful=True)
    for r, i in zip(rolls, got):
        roll = (int(r[0]), int(r[1]))
        assert pos.legal_plays(roll)[int(i)].position == bg.hint(pos, roll, state=state, ply=0)[0].play.position
    assert (got != p.choose_indices(boards, rolls)).sum() == differ


@pytest.mark.parametrize("name", ["jacoby", "owned"])
def test_money_cubeful_rollout_plays_the_cubeful_play(name):
    # gnubg's rollout.c: a cubeful money rollout chooses each game's play
    # by cubeful equity at that game's cube (Jacoby while it is centred):
    # the first play of every game is that choice for the roll thrown, not
    # the cubeless one where the two differ; a cubeless rollout of the same
    # seed plays cubeless.
    state, _ = MONEY[name]
    pos, dice, results = _first_ply(state, cube=True, pid=MONEY_SENSITIVE)
    boards = np.repeat(pos.array[None], len(dice), axis=0)
    p = NetPlayer()
    cubeful, cubeless = p.choose_indices_at(boards, dice, state, cubeful=True), p.choose_indices(boards, dice)
    differ = cubeful != cubeless
    assert differ.any()
    np.testing.assert_allclose(results, _after(pos, dice, cubeful), atol=1e-6)
    assert not np.allclose(results[differ], _after(pos, dice[differ], cubeless[differ]), atol=1e-3)
    plain = _first_ply(state, cube=False, pid=MONEY_SENSITIVE)[2]
    np.testing.assert_allclose(plain, _after(pos, dice, cubeless), atol=1e-6)


def test_rollout_api_at_dmp_is_reproducible():
    pos = bg.Position.from_id(SENSITIVE)
    a = rollout(pos, state=DMP, games=36, seed=9, workers=1, truncate=6)
    b = rollout(pos, state=DMP, games=36, seed=9, workers=1, truncate=6)
    assert a.cubeful and a.mwc == b.mwc and a.win == b.win



def _spread_positions(n, seed):
    # Positions of every stage of random games, not only their openings.
    boards, rolls = random_positions(3000, seed=seed)
    return [(bg.Position.from_array(boards[k]), (int(rolls[k][0]), int(rolls[k][1])))
            for k in np.linspace(300, 2999, n).astype(int)]


@pytest.mark.parametrize("name", ["jacoby", "owned", "theirs"])
def test_rollout_plays_at_a_money_state_is_cubeful_and_ranks_as_hint(name):
    # RULES 7.1, 7.5: a money state (cube centred under Jacoby, or owned by
    # either side) makes rollout_plays cubeful by default, as gnubg's
    # rollouts are: stopped at once (truncate=0, each game worth the cube
    # model of the side to roll), its equities are hint's at that state,
    # per unit of the cube, in hint's order; cube=False is cubeless.
    state, _ = MONEY[name]
    for pos, dice in _spread_positions(5, seed=21):
        want = bg.hint(pos, dice, state=state)[:4]
        kw = dict(games=36, seed=1, workers=1, truncate=0, variance_reduction=False)
        got = rollout_plays(pos, dice, [r.play for r in want], state=state, **kw)
        assert all(r.cubeful and r.result.cubeful and r.mwc is None for r in got)
        by_play = {str(r.play): r for r in got}
        np.testing.assert_allclose([by_play[str(r.play)].equity for r in want], [r.equity for r in want],
                                   atol=1e-9)
        assert [str(r.play) for r in got] == [str(r.play) for r in want]
        plain = rollout_plays(pos, dice, [r.play for r in want], state=state, cube=False, **kw)
        assert not any(r.cubeful for r in plain)
        np.testing.assert_allclose(sorted(r.equity for r in plain), sorted(r.evaluation.equity for r in want),
                                   atol=1e-6)
    # The default candidates are hint's at the state.
    pos, dice = _spread_positions(1, seed=22)[0]
    got = rollout_plays(pos, dice, top=3, state=state, games=36, seed=2, workers=1, truncate=2)
    assert sorted(str(r.play) for r in got) == sorted(str(r.play) for r in bg.hint(pos, dice, state=state)[:3])
    assert all(r.cubeful for r in got)


def test_rollout_default_is_cubeful_at_any_state():
    few = dict(games=36, seed=3, workers=1, truncate=2)
    for state in (bg.MatchState(), MONEY["owned"][0], DMP):
        assert rollout(state=state, **few).cubeful
        assert not rollout(state=state, cube=False, **few).cubeful
    assert not rollout(**few).cubeful
    assert rollout(cube=True, **few).cubeful


def test_a_player_with_its_own_choose_at_is_asked_position_by_position():
    class LastAtScore(bg.Player):
        def choose(self, position, roll):
            return position.legal_plays(roll)[0]

        def choose_at(self, position, roll, state=None, rules=None):
            plays = position.legal_plays(roll)
            return plays[len(plays) - 1] if state is not None and state.match_length else plays[0]

    boards, rolls = _all_rolls(bg.Position.from_id(SENSITIVE))
    p = LastAtScore()
    counts = [len(bg.Position.from_array(b).legal_plays((int(r[0]), int(r[1])))) for b, r in zip(boards, rolls)]
    assert p.choose_indices_at(boards, rolls, DMP).tolist() == [c - 1 for c in counts]
    assert p.choose_indices_at(boards, rolls).tolist() == [0] * len(counts)


def test_plays_the_cube_makes_equal_go_by_cubeless_equity():
    # Two plays of the same cubeful value (each leaves a pass, say): the one
    # with the higher cubeless equity first, then the move generator's order.
    from backgammon.cube_search import best_plays, play_order
    probs = np.array([[0.5, 0.1, 0, 0.1, 0], [0.6, 0.1, 0, 0.1, 0], [0.6, 0.1, 0, 0.1, 0], [0.9, 0, 0, 0, 0]])
    values = np.array([0.3, 0.3, 0.3, 0.2])
    depth = np.zeros(4, dtype=np.int64)
    assert play_order(depth, values, probs).tolist() == [1, 2, 0, 3]
    assert best_plays(np.array([0, 1, 4]), depth, values, probs).tolist() == [0, 0]
    assert best_plays(np.array([0, 3, 4]), depth, values, probs).tolist() == [1, 0]
