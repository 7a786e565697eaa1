"""Players, hints and duels (the strong player of docs/evaluation.md)."""
import json
import subprocess
import sys

import numpy as np
import pytest

import backgammon as bg
from backgammon import network
from backgammon.duel import duel
from backgammon.evaluation import equity, evaluate
from backgammon.hint import hint
from backgammon.players import NetPlayer, NoisyPlayer, Player, player
from backgammon.sample import random_positions

from helpers import make


@pytest.mark.parametrize("spec", ["random", "pubeval", "net", "net:0", "net:1", "net:2", "gnubg"])
def test_every_player_makes_legal_plays(spec):
    p = player(spec, seed=1)
    boards, rolls = random_positions(40 if spec != "net:2" else 6, seed=2)
    for board, roll in zip(boards, rolls):
        pos = bg.Position.from_array(board)
        play = p.choose(pos, roll.tolist())
        assert play in pos.legal_plays(roll.tolist())


def test_net_zero_ply_takes_the_best_evaluated_play():
    p = NetPlayer(0)
    boards, rolls = random_positions(300, seed=3)
    chosen = p.choose_indices(boards, rolls)
    for board, roll, k in zip(boards, rolls, chosen):
        plays = bg.Position.from_array(board).legal_plays(tuple(int(d) for d in roll))
        if len(plays) > 1:
            after = evaluate(plays.positions).probabilities
            assert k == int(np.argmin(equity(after)))       # the worst for the opponent on roll


def test_player_specs():
    assert player("net").spec == "net" and player("net:2").spec == "net:2"
    given = NetPlayer(1)
    assert player(given) is given
    with pytest.raises(ValueError, match="spec"):
        player("net:3")
    with pytest.raises(TypeError, match="spec"):
        player(3)
    assert isinstance(player("pubeval"), Player) and not player("pubeval").has_cube_decisions
    assert player("net").cube_action(bg.Position.initial()).action == "no double"


def test_noisy_player_checks_sigma():
    with pytest.raises(TypeError, match="^sigma must be a number"):
        NoisyPlayer("0.1")
    with pytest.raises(TypeError, match="^sigma"):
        NoisyPlayer(True)
    for bad in (0, -0.1, 2.5, float("nan")):
        with pytest.raises(ValueError, match="^sigma"):
            NoisyPlayer(bad)
    assert NoisyPlayer(np.float64(0.15)).spec == "noisy:0.15"



#: gnubg's 0-ply hint: 21/10 at double match point, 13/8 10/4* for money.
DMP_DIFFERS = "XGID=-ba-aBD-C-A-eD-----e-Aa---:0:0:1:65:6:6:0:7:10"


def test_noisy_player_at_a_match_score_plays_the_match_play():
    # RULES 8: at DMP gammons count nothing, so the play differs from money's;
    # the noisy player (the web game's weakest level) with tiny noise plays
    # the match play at DMP, the money play in money play; same seed, same choice.
    pos, dmp = bg.read_xgid(DMP_DIFFERS)
    for seed in (0, 1, 2):
        p = NoisyPlayer(0.0001, seed)
        assert str(p.choose_at(pos, "65", dmp)) == "21/10" == str(NetPlayer().choose_at(pos, "65", dmp))
        assert str(p.choose(pos, "65")) == "13/8 10/4*" == str(p.choose_at(pos, "65", bg.MatchState()))
        assert str(p.choose_at(pos, "65")) == "13/8 10/4*"


@pytest.mark.parametrize("state, cubeful", [(bg.MatchState(match_length=7, score=(6, 6)), False),
                                            (bg.MatchState(match_length=9, score=(3, 6), cube_value=2, cube_owner=1), False),
                                            (bg.MatchState(cube_value=2, cube_owner=1), True)])
def test_noisy_player_adds_its_noise_to_cube_searchs_values(state, cubeful):
    # At a match score (RULES 8), and in money play inside a cubeful rollout
    # (RULES 7), the values cube_search ranks by (normalised match equity, or
    # cubeful equity per unit of the cube) plus sigma times the seeded noise.
    from backgammon.cube_search import rank_plays
    from backgammon.evaluator import as_evaluator
    rules = state.game_rules()
    boards, rolls = random_positions(3000, seed=12)
    boards, rolls = boards[1500:1800], rolls[1500:1800]          # middle games, not openings
    p = NoisyPlayer(0.2, seed=4)
    got = p.choose_indices_at(boards, rolls, state, cubeful=cubeful)
    assert np.array_equal(got, NoisyPlayer(0.2, seed=4).choose_indices_at(boards, rolls, state, cubeful=cubeful))
    assert not np.array_equal(got, NoisyPlayer(0.2, seed=5).choose_indices_at(boards, rolls, state, cubeful=cubeful))
    tiny = NoisyPlayer(1e-7, seed=4)
    sharp = tiny.choose_indices_at(boards, rolls, state, cubeful=cubeful)
    best = NetPlayer().choose_indices_at(boards, rolls, state, cubeful=cubeful)
    for i in range(0, len(boards), 5):
        children = bg.Position.from_array(boards[i]).legal_plays(tuple(int(d) for d in rolls[i])).positions
        if len(children) < 2:
            continue
        values = rank_plays(as_evaluator(None), children, 0, state, rules)[2]
        assert got[i] == int(np.argmax(values + 0.2 * p.noise(children)))
        assert values[sharp[i]] == pytest.approx(values[best[i]], abs=1e-6)
    if cubeful:
        # Money play outside a cubeful rollout: cubeless, as ever.
        assert np.array_equal(p.choose_indices_at(boards, rolls, state), p.choose_indices(boards, rolls))
        # Money's cubeful and cubeless plays differ seldom: in 1 of this middle game's 21 rolls
        # (tests/test_rollout_match_play.py's MONEY_SENSITIVE).
        from backgammon.dice import ROLLS
        rolls = np.array(ROLLS, dtype=np.uint8)
        boards = np.repeat(bg.Position.from_id("kmfwATDgc/ABMA").array[None], len(rolls), axis=0)
        sharp = tiny.choose_indices_at(boards, rolls, state, cubeful=True)
    # Not the cubeless money ranking: somewhere the two noiseless choices differ.
    assert (sharp != tiny.choose_indices(boards, rolls)).any()


def test_random_player_is_seeded():
    boards, rolls = random_positions(200, seed=3)
    a = player("random", seed=9).choose_indices(boards, rolls)
    b = player("random", seed=9).choose_indices(boards, rolls)
    assert np.array_equal(a, b) and not np.array_equal(a, player("random", seed=10).choose_indices(boards, rolls))


# -- hints ------------------------------------------------------------------------------

def test_hint_ranks_every_play():
    pos = bg.Position.initial()
    ranked = hint(pos, "62", ply=1)
    assert len(ranked) == len(pos.legal_plays("62"))
    assert ranked[0].difference == 0.0 and all(r.difference <= 0 for r in ranked)
    depths = [r.ply for r in ranked]
    assert depths == sorted(depths, reverse=True) and depths[0] == 1
    for a, b in zip(ranked, ranked[1:]):
        if a.ply == b.ply:
            assert a.equity >= b.equity
    assert str(hint(pos, "31")[0].play) == "8/5 6/5"
    assert hint(pos, "31")[0].play == player("net").choose(pos, "31")


def test_hint_agrees_with_rollouts_on_a_clear_choice():
    # 3-1 at the opening: making the 5-point beats splitting and running
    # (rolled out with the same dice for each play).
    from backgammon.rollouts import rollout_plays
    pos = bg.Position.initial()
    ranked = {str(r.play): r for r in hint(pos, "31")}
    rolled = {str(r.play): r.equity for r in rollout_plays(pos, "31", ["8/5 6/5", "24/20", "13/9"], games=1296,
                                                           seed=1, workers=2, truncate=12)}
    assert max(rolled, key=rolled.get) == "8/5 6/5" == str(hint(pos, "31")[0].play)
    assert rolled["8/5 6/5"] - max(rolled["24/20"], rolled["13/9"]) > 0.05
    assert set(rolled) <= set(ranked)


def test_cube_hint_without_a_roll():
    d = hint(bg.Position.initial())
    assert d.action == "no double"


def test_hint_command():
    out = subprocess.run([sys.executable, "-m", "backgammon", "hint", "4HPwATDgc/ABMA", "31", "--ply", "1"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0
    first = [line for line in out.stdout.splitlines() if line.strip().startswith("1.")][0]
    assert "8/5 6/5" in first and "1-ply" in first
    match_id = bg.MatchState(match_length=5, score=(1, 2)).to_match_id()
    cube = subprocess.run([sys.executable, "-m", "backgammon", "hint", "4HPwATDgc/ABMA", "--match", match_id],
                          capture_output=True, text=True, timeout=120)
    assert cube.returncode == 0 and "Proper cube action" in cube.stdout and "match" in cube.stdout


# -- duels --------------------------------------------------------------------------------

def test_duels_are_reproducible_across_worker_counts():
    one = duel("pubeval", "random", games=1200, seed=4, workers=1)
    two = duel("pubeval", "random", games=1200, seed=4, workers=2)
    assert one.ppg == two.ppg and one.ppg_se == two.ppg_se and one.a_gammons == two.a_gammons
    assert one.ppg > 1.0 and one.a_wins > 0.95
    assert duel("pubeval", "random", games=1200, seed=5, workers=1).ppg != one.ppg


def test_duplicate_dice_cancel_luck():
    # A deterministic player against itself: each pair replays one game with
    # the sides swapped, so every pair sums to zero.
    r = duel("pubeval", "pubeval", games=200, seed=1, workers=1)
    assert r.ppg == 0.0 and r.ppg_se == 0.0 and r.a_wins == 0.5


def test_the_network_beats_pubeval():
    r = duel("net", "pubeval", games=1000, seed=2, workers=1)
    assert r.ppg > 0.25 and r.ppg > 5 * r.ppg_se


def test_duel_records_replay_as_games():
    r = duel("net", "random", games=4, seed=3, workers=1, record=True)
    assert len(r.records) == 4
    for rec in r.records:
        g = bg.Game(seed=0)
        first, second = rec.rolls[0]
        g.roll((first, second) if rec.first == 0 else (second, first))
        for k, (roll, text) in enumerate(zip(rec.rolls, rec.plays)):
            if k:
                if g.phase is bg.Phase.TURN:
                    g.roll(roll)
            if g.phase is bg.Phase.PLAY:
                g.play(text)
        assert g.is_over() and g.outcome.points == rec.points


def test_duel_arguments():
    with pytest.raises(ValueError, match="even"):
        duel("net", "pubeval", games=3)
    with pytest.raises(ValueError, match="b must be one of"):     # the parameter is named
        duel("net", "nobody", games=2)
    with pytest.raises(TypeError, match="games"):
        duel("net", "pubeval", games=2.0)
    with pytest.raises(TypeError, match="a must be"):
        duel(None, "pubeval", games=2)


def test_duel_command_json():
    out = subprocess.run([sys.executable, "-m", "backgammon", "duel", "net", "pubeval", "--games", "200",
                          "--seed", "1", "--workers", "1", "--json"], capture_output=True, text=True, timeout=120)
    data = json.loads(out.stdout)
    assert data["games"] == 200 and data["a"] == "net" and data["ppg"] > 0 and data["ppg_se"] > 0


def test_rollout_with_the_network_policy():
    a = bg.rollout(games=1296, policy="net", seed=3, workers=1, variance_reduction=False)
    b = bg.rollout(games=1296, policy="net", seed=3, workers=2, variance_reduction=False)
    assert a.equity == b.equity and 0.4 < a.win < 0.65
    mixed = bg.rollout(games=1296, policy=("net", "pubeval"), seed=3, workers=1, variance_reduction=False)
    assert mixed.equity > a.equity


def test_net_search_choices_are_the_same_on_any_number_of_threads():
    # net:1 shares a batch of choices among threads; the choices do not change.
    from backgammon.players import NetPlayer
    from backgammon.sample import random_positions
    boards, rolls = random_positions(60, seed=9)
    one = NetPlayer(1, threads=1).choose_indices(boards, rolls)
    assert np.array_equal(NetPlayer(1, threads=2).choose_indices(boards, rolls), one)
    assert np.array_equal(NetPlayer(1).choose_indices(boards, rolls), one)
    assert len(NetPlayer(1).choose_indices(boards[:0], rolls[:0])) == 0
    with pytest.raises(ValueError, match="threads"):
        NetPlayer(1, threads=0)
