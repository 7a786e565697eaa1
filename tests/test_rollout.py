"""Evaluators, the game loop and rollouts."""
import math
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import gnubg_nn

import backgammon as bg
from backgammon import rollouts as ro
from backgammon.formats.xgid import parse_xgid
from backgammon.rollouts import VectorGames, rollout
from backgammon.sample import random_positions

from helpers import make

# The mechanics of the game loop, checked with pubeval and no variance
# reduction (the defaults, the network with it, are checked below).
PUB = dict(policy="pubeval", variance_reduction=False)


def test_pubeval_equals_gnubg_nn():
    boards, _ = random_positions(20_000, seed=8)
    ours = ro.pubeval(boards)
    theirs = np.array([gnubg_nn.pub_eval_score(b) for b in boards.tolist()])
    # gnubg-nn scores the side of row 0 (the side that just played) in float32.
    assert np.abs(ours - theirs).max() < 1e-4


def test_pubeval_prefers_a_win_and_uses_race_weights():
    won = make(me={3: 4}, opp={})                  # the side of row 0 has borne off
    assert ro.pubeval(won.array[None])[0] == np.inf
    pos = bg.Position.initial()
    contact = ro.pubeval(pos.array[None], race=[False])[0]
    race = ro.pubeval(pos.array[None], race=[True])[0]
    assert contact != race


def test_tesauro_inputs():
    x = ro.tesauro_inputs(bg.Position.initial().array[None])
    assert x.shape == (1, 198) and x.dtype == np.float32
    # Side on roll: 2 on its 24-point, 5 on 13 (1, 1, 1, (5 - 3) / 2).
    assert x[0, 4 * 23: 4 * 24].tolist() == [1, 1, 0, 0]
    assert x[0, 4 * 12: 4 * 13].tolist() == [1, 1, 1, 1.0]
    assert x[0, 96] == 0 and x[0, 97] == 0 and x[0, 196] == 1 and x[0, 197] == 0
    assert x[0, 98:196].sum() == x[0, :98].sum()   # symmetric start


def test_stratified_first_roll_is_exact():
    # Two checkers on the 6-point come off in one roll only with 3-3 .. 6-6;
    # otherwise the opponent, on its ace point, wins at once.  36 stratified
    # games see each first roll once: exactly 4 wins.
    pos = make(me={6: 2}, opp={1: 1})
    r = rollout(pos, games=36, policy="random", seed=1, workers=1, variance_reduction=False)
    assert r.win == pytest.approx(4 / 36, abs=1e-12)
    r = rollout(pos, games=36 * 50, policy="random", seed=1, workers=1, stratify=False,
                variance_reduction=False)
    assert r.win != pytest.approx(4 / 36, abs=1e-12)


def test_rollout_of_a_known_race():
    # One checker each on the 6-point: every play is forced; exactly 0.8125.
    pos = make(me={6: 1}, opp={6: 1})
    r = rollout(pos, games=20_000, seed=2, workers=1, stratify=False, **PUB)
    assert abs(r.win - 0.8125) < 3 * r.win_se
    assert r.win_gammon == 0 and r.lose_gammon == 0
    exact = bg.bearoff.two_sided().win_probability(pos)
    assert exact == pytest.approx(0.8125, abs=1e-4)


def test_truncation_uses_the_bearoff_tables():
    pos = make(me={6: 3, 5: 2}, opp={6: 2, 4: 3})
    exact = bg.bearoff.race_win_probability(pos)
    full = rollout(pos, games=20_000, seed=3, workers=1, **PUB)
    cut = rollout(pos, games=2_000, seed=3, workers=1, bearoff=True, **PUB)
    assert abs(full.win - exact) < 0.02
    # Cut at the first ply, each game averages the table over one roll.
    assert abs(cut.win - exact) < 4 * cut.win_se + 0.01 and cut.win_se < full.win_se


def test_gammon_chances_from_the_tables():
    # Win, win gammon and lose gammon of the side on roll from the one-sided
    # distributions: I win when I need no more rolls (I roll first); I win a
    # gammon when all mine are off before its first; it wins a gammon when
    # all its checkers are off before my first.
    db = bg.bearoff.one_sided()
    for me, opp in [({6: 15}, {1: 2}), ({1: 3}, {6: 15}), ({5: 8, 2: 7}, {6: 9, 3: 6})]:
        pos = make(me=me, opp=opp)
        est = bg._bearoff.race_estimates(np.ascontiguousarray(pos.array[None]), db.table, db.gammon_table)[0]
        dm, do = db.distribution(pos, bg.ON_ROLL), db.distribution(pos, bg.OPPONENT)
        gm, go = db.gammon_distribution(pos, bg.ON_ROLL), db.gammon_distribution(pos, bg.OPPONENT)
        win = sum(dm[i] * do[i:].sum() for i in range(32))
        wg = sum(dm[i] * go[i:].sum() for i in range(32)) if sum(opp.values()) == 15 else 0.0
        lg = sum(do[j] * gm[j + 1:].sum() for j in range(32)) if sum(me.values()) == 15 else 0.0
        assert est == pytest.approx([win, wg, lg], abs=1e-9)
    assert est[0] > 0 and 0 < bg._bearoff.race_estimates(
        np.ascontiguousarray(make(me={6: 15}, opp={1: 2}).array[None]), db.table, db.gammon_table)[0, 2] < 1
    # In a rollout cut at the first ply: the opponent on its ace point wins
    # for sure, a gammon whenever no checker of mine came off.
    r = rollout(make(me={6: 15}, opp={1: 2}), games=1296, seed=4, workers=1, bearoff=True, **PUB)
    assert r.win == 0.0 and 0 < r.lose_gammon < 1 and r.lose_backgammon == 0


def test_same_seed_same_result_whatever_the_workers():
    pos = bg.Position.initial()
    one = rollout(pos, games=5000, seed=11, workers=1, **PUB)
    two = rollout(pos, games=5000, seed=11, workers=2, **PUB)
    with ThreadPoolExecutor(3) as pool:
        threads = rollout(pos, games=5000, seed=11, executor=pool, **PUB)
    with ProcessPoolExecutor(2) as pool:
        procs = rollout(pos, games=5000, seed=11, executor=pool, **PUB)
    for r in (two, threads, procs):
        assert r.win == one.win and r.equity == one.equity and r.equity_se == one.equity_se
    other = rollout(pos, games=5000, seed=12, workers=1, **PUB)
    assert other.equity != one.equity


def test_dask_local_cluster_equals_local():
    distributed = pytest.importorskip("dask.distributed")   # the test extra installs it
    pos = bg.Position.initial()
    local = rollout(pos, games=3000, seed=5, workers=1, **PUB)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        remote = rollout(pos, games=3000, seed=5, executor=client.get_executor(), **PUB)
    assert remote.win == local.win and remote.equity == local.equity


def test_pubeval_beats_random():
    r = rollout(bg.Position.initial(), games=2000, policy=("pubeval", "random"), seed=6, workers=1,
                variance_reduction=False)
    assert r.win >= 0.85


@pytest.mark.parametrize("kwargs, message", [
    (dict(games=0), "games must be >= 1"), (dict(games=-3), "games"), (dict(policy="nobody"), "policy must be one of"),
    (dict(policy=("pubeval", "net:7")), "policy"), (dict(truncate=-1), "truncate"), (dict(workers=0), "workers"),
    (dict(truncate=2 ** 70), "truncate"), (dict(seed=-1), "seed"), (dict(chunk_size=0), "chunk_size"),
])
def test_bad_values(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rollout(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(games=2.5), "games must be an int, not float"), (dict(games=True), "games must be an int, not bool"),
    (dict(seed="abc"), "seed must be an int"), (dict(chunk_size=True), "chunk_size must be an int"),
    (dict(workers=1.0), "workers"), (dict(policy=("pubeval",)), "policy"), (dict(policy=3), "policy"),
    (dict(stratify=1), "stratify must be True or False"), (dict(executor="pool"), "executor"),
    (dict(evaluator=3), "evaluator must be callable"),
])
def test_bad_types(kwargs, message):
    # README, "Errors": a wrong type is a TypeError naming the parameter.
    with pytest.raises(TypeError, match=message):
        rollout(**kwargs)


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        rollout(bg.Position.initial(), 100)


def test_bad_positions():
    with pytest.raises(TypeError):
        rollout("4HPwATDgc/ABMA")
    with pytest.raises(ValueError, match="game is over"):
        rollout(make(me={}, opp={1: 1}))


def test_results_are_consistent():
    r = rollout(games=2592, seed=7, workers=1, **PUB)
    assert 0 <= r.win_backgammon <= r.win_gammon <= r.win <= 1
    assert 0 <= r.lose_backgammon <= r.lose_gammon <= r.lose
    eq = 2 * r.win - 1 + r.win_gammon - r.lose_gammon + r.win_backgammon - r.lose_backgammon
    assert r.equity == pytest.approx(eq)
    assert r.games_per_second > 0 and r.to_dict()["games"] == 2592


# -- lockstep games -----------------------------------------------------------------------

def race_evaluator(calls):
    """A small numpy evaluator: fewer pips for the side that played is better."""
    points = np.arange(1, 26)

    def evaluate(boards):
        calls.append(len(boards))
        return -(boards[:, 0] * points).sum(axis=1).astype(float)
    return evaluate


def test_rollout_with_an_evaluator():
    calls = []
    r = rollout(games=600, seed=9, scorer=race_evaluator(calls), variance_reduction=False)
    assert r.games == 600 and 0.3 < r.win < 0.7
    assert len(calls) > 50 and all(n > 0 for n in calls)   # once per ply for all games
    again = rollout(games=600, seed=9, scorer=race_evaluator([]), variance_reduction=False)
    assert again.equity == r.equity
    # Scores given as evaluator= still play the same games, with a DeprecationWarning.
    with pytest.warns(DeprecationWarning, match="scorer="):
        old = rollout(games=600, seed=9, evaluator=race_evaluator([]), variance_reduction=False)
    assert old.equity == r.equity
    # pubeval through the lockstep machinery plays like the built-in policy.
    lockstep = rollout(games=1296, seed=9, scorer=ro.pubeval, variance_reduction=False)
    builtin = rollout(games=1296 * 4, seed=9, workers=1, **PUB)
    assert abs(lockstep.equity - builtin.equity) < 4 * (lockstep.equity_se + builtin.equity_se)


def test_vector_games_api():
    vg = VectorGames(8, seed=1)
    offsets, children, inputs = vg.candidates(encode=True)
    assert offsets.shape == (9,) and children.shape == (offsets[-1], 2, 25)
    assert inputs.shape == (len(children), 198)
    with pytest.raises(ValueError, match="candidates"):
        vg.advance(np.full(8, 10_000))
    with pytest.raises(ValueError, match="choices"):
        vg.advance(np.zeros(7, dtype=int))
    with pytest.raises(TypeError, match="choices must be an array of ints"):
        vg.advance(np.full(8, 0.5))
    with pytest.raises(ValueError, match="choices"):
        vg.advance([2 ** 70] + [0] * 7)
    plies, finished = 0, []
    while len(finished) < 20:
        offsets, children = vg.candidates()
        ended, results = vg.advance(np.zeros(8, dtype=int))
        finished.extend(results)
        plies += 1
        assert plies < 10_000
    for win, wg, wbg, lg, lbg in finished:
        assert win in (0, 1) and wbg <= wg <= win        # gammons include backgammons
        assert lbg <= lg <= 1 - win                      # losses only for the other side
    # Truncated lockstep games end at bear-off races with the tables' chances.
    vg = VectorGames(4, seed=2, position=make(me={6: 3, 5: 2}, opp={6: 2, 4: 3}), truncate=0)
    vg.candidates()
    ended, results = vg.advance(np.zeros(4, dtype=int))
    assert ended.tolist() == [0, 1, 2, 3] and ((results[:, 0] > 0) & (results[:, 0] < 1)).any()
    with pytest.raises(ValueError, match="candidates"):
        vg.advance(np.zeros(8, dtype=int))
    with pytest.raises(ValueError, match="n must be >= 1"):
        VectorGames(0)
    with pytest.raises(TypeError, match="n must be an int"):
        VectorGames(True)


def test_race_chances_evaluator():
    boards = np.stack([make(me={6: 1}, opp={6: 1}).array, make(me={6: 15}, opp={1: 2}).array])
    chances = ro.race_chances(boards)
    assert chances.shape == (2, 3)
    assert chances[0].tolist() == pytest.approx([0.8125, 0, 0], abs=1e-4)
    assert chances[1, 0] < 0.5 and chances[1, 2] > 0
    with pytest.raises(bg.bearoff.OutsideDatabaseError, match="outside the home board"):
        ro.race_chances(bg.Position.initial().array[None])


def test_seeds_and_bad_evaluators():
    for seed in (5, np.random.SeedSequence(5), np.random.default_rng(5)):
        assert rollout(games=36, seed=seed, workers=1, **PUB).games == 36
    assert rollout(games=36, seed=5, workers=1, **PUB).equity == rollout(games=36, seed=5, workers=1, **PUB).equity
    assert rollout(games=36, seed=5, workers=1, truncate=np.int64(3), **PUB).games == 36
    with pytest.raises(ValueError, match="NaN"):
        rollout(games=10, seed=1, scorer=lambda b: np.full(len(b), np.nan))
    with pytest.raises(ValueError, match="shape"):
        rollout(games=10, seed=1, scorer=lambda b: np.zeros(3))
    with pytest.raises(TypeError):
        VectorGames(2, position="x")
    with pytest.raises(ValueError, match="game is over"):
        VectorGames(2, position=make(me={}, opp={1: 1}))


# -- what analysts ask of a rollout ---------------------------------------------------------------

def test_variance_reduction_is_unbiased_and_far_less_noisy():
    # The same games with and without the luck subtracted: the means agree
    # within their errors, and the error falls (gnubg's variance reduction).
    for pos in (bg.Position.initial(), make(me={6: 3, 5: 3, 4: 3, 3: 2, 13: 2, 24: 2}, opp={6: 4, 8: 3, 13: 5, 24: 3})):
        r = rollout(pos, games=1296, seed=1, workers=2, truncate=16)
        assert r.variance_reduction and r.equity_se < r.raw_equity_se / 2.5, r
        assert abs(r.equity - r.raw_equity) < 3 * r.raw_equity_se      # the same games: luck has mean zero
        plain = rollout(pos, games=1296, seed=1, workers=2, truncate=16, variance_reduction=False)
        assert plain.equity == r.raw_equity and plain.equity_se == r.raw_equity_se


def test_a_truncated_rollout_of_a_race_equals_the_table():
    pos = make(me={6: 3, 5: 2, 4: 1}, opp={6: 2, 4: 2, 2: 2})
    exact = bg.bearoff.race_win_probability(pos)
    r = rollout(pos, games=1296, seed=2, workers=1, truncate=2, policy="net")
    assert r.truncate == 2 and abs(r.win - exact) < 3 * r.win_se + 1e-4     # the tables are float32


def test_cubeful_race_rollouts_equal_the_exact_cubeful_equities():
    # Races held in the two-sided table: its cubeful money equities are
    # exact (gnubg's table: no double with the cube centred, and with the
    # opponent owning the cube after a take); the side on roll's value is
    # that of its proper action.
    ts = bg.bearoff.two_sided()
    for me, opp in (({6: 2, 5: 2, 3: 1}, {6: 2, 5: 1, 4: 2}), ({4: 2, 3: 2}, {6: 3, 5: 2}),
                    ({6: 3, 5: 2, 4: 1}, {6: 3, 5: 3})):
        pos = make(me=me, opp=opp)
        e = ts.equities(pos)
        exact = max(e.centred, min(2 * e.opponent_owns, 1.0))
        r = rollout(pos, games=1296, seed=3, workers=2, cube=True)
        assert r.cubeful and abs(r.cubeful_equity - exact) < 2 * r.cubeful_equity_se + 0.01, (exact, r)


def test_match_rollouts_give_winning_chances():
    state = bg.MatchState(match_length=5, score=(2, 3), cube_value=1)
    r = rollout(make(me={6: 2, 5: 2, 3: 1}, opp={6: 2, 5: 1, 4: 2}), games=648, seed=4, workers=1, cube=True,
                state=state)
    assert r.mwc is not None and 0 < r.mwc < 1 and -1 <= r.cubeful_equity <= 1.5


def test_rollout_plays_name_the_known_best_opening_moves():
    # Published rollouts: the best opening play of each of these rolls leads
    # the second by more than 0.03.
    best = {"31": "8/5 6/5", "42": "8/4 6/4", "53": "8/3 6/3", "61": "13/7 8/7", "65": "24/13"}
    for roll, play in best.items():
        ranked = ro.rollout_plays(bg.Position.initial(), roll, top=2, games=648, seed=5, workers=2, truncate=8)
        assert str(ranked[0].play) == play, (roll, [(str(r.play), r.equity, r.difference_se) for r in ranked])
        assert ranked[1].difference < 0 and ranked[1].difference_se > 0


def test_rollout_plays_share_their_dice():
    ranked = ro.rollout_plays(bg.Position.initial(), "31", ["8/5 6/5", "6/5 8/5", "24/20"], games=72, seed=6,
                              workers=1, variance_reduction=False)
    same = [r for r in ranked if str(r.play) == "8/5 6/5"]
    assert len(same) == 2 and same[0].equity == same[1].equity
    with pytest.raises(bg.IllegalMoveError):
        ro.rollout_plays(bg.Position.initial(), "31", ["24/18"], games=10)


def test_rollout_cube_names_textbook_actions():
    # A race the side on roll cannot lose: double, pass when no gammon is
    # left; too good to double when a gammon is; the opening: no double.
    cash = make(me={1: 2}, opp={6: 5, 5: 5})
    d = ro.rollout_cube(cash, games=108, seed=7, workers=1)
    assert d.action == "double, pass" and d.take == "pass" and d.no_double == pytest.approx(1.0)
    gammon = make(me={1: 2}, opp={6: 5, 5: 5, 4: 5})
    assert ro.rollout_cube(gammon, games=108, seed=7, workers=1).action == "too good to double"
    assert ro.rollout_cube(bg.Position.initial(), games=108, seed=7, workers=1, truncate=6).action == "no double"
    with pytest.raises(ValueError, match="owns the cube"):
        ro.rollout_cube(bg.Position.initial(), bg.MatchState(cube_value=2, cube_owner=1, on_roll=0), games=10)


def test_any_player_rolls_out_and_a_different_cube_player():
    r = rollout(games=40, policy="net:1", seed=8, workers=1, variance_reduction=False)
    assert r.games == 40
    r = rollout(make(me={6: 2, 5: 2, 3: 1}, opp={6: 2, 5: 1, 4: 2}), games=60, policy="pubeval",
                cube_policy="net", cube=True, seed=8, workers=1)
    assert r.cubeful


# -- cubeful rollouts that value the cube (issue 40) ----------------------------------------------

# A one-roll shot with 23 shots (bgonline.org, XG rollout: no double +0.261,
# double/take +0.463) and a race redouble in a 9-point match (XG: winning
# chances 72.31%, the two-sided table's), both from published rollouts.
SHOT = "XGID=---BBBBBA----B--a-a-Bbcce-:0:0:1:00:0:0:3:0:10"
RACE = "XGID=---ABBA------------bbaa---:1:1:1:00:4:3:0:9:10"


def test_a_turned_cube_counts_gammons_under_jacoby():
    # RULES 7.5: Jacoby drops gammons only while the cube is centred. Once a
    # double is taken (the double/take start, an owned cube) the same dice
    # give the same values with and without Jacoby; the no-double start,
    # centred, differs (issue 40, C1: the turned cube's gammons were counted single).
    pos = parse_xgid(SHOT).position
    kw = dict(games=36, seed=1, workers=1, policy="pubeval", cube_policy="net")
    jacoby = ro.rollout_cube(pos, rules=bg.Rules(jacoby=True), **kw)
    plain = ro.rollout_cube(pos, rules=bg.Rules(), **kw)
    assert jacoby.double_take == plain.double_take and jacoby.double_take_se == plain.double_take_se
    assert jacoby.no_double < plain.no_double
    # The state carries the game's rules (issue 40 item 1): Jacoby in it, not beside it.
    a = rollout(pos, cube=True, state=bg.MatchState(cube_value=2, cube_owner=1, jacoby=True), **kw)
    b = rollout(pos, cube=True, state=bg.MatchState(cube_value=2, cube_owner=1), **kw)
    assert a.cubeful_equity == b.cubeful_equity


def test_a_passed_double_keeps_the_chances_of_playing_on():
    # A pass settles a game's cubeful value, but its chances are those of
    # playing on. Here the owner redoubles and the other side passes in many
    # games; the chances must still be the race's (the two-sided table:
    # 72.3%), where counting passes as wins gave 81.5% (issue 40, C2).
    x = parse_xgid(RACE)
    exact = bg.bearoff.race_win_probability(x.position)
    r = ro.rollout_cube(x.position, x.state, games=216, seed=2, workers=1)
    nd = r.no_double_rollout
    assert abs(nd.win - exact) < 3 * nd.win_se + 0.005, (exact, nd)
    assert nd.passes > 0
    assert nd.to_dict()["passes"] == nd.passes and "passes" not in rollout(games=36, seed=1, workers=1).to_dict()
    # The cube's decisions change the value, never the chances: with the
    # same dice and checker players whose plays do not depend on the cube
    # (pubeval's; the networks choose by each game's cube), the chances
    # equal those of a rollout whose cube players never double (pubeval has
    # no cube judgement).
    pos = parse_xgid(SHOT).position
    cubed = rollout(pos, cube=True, policy="pubeval", cube_policy="net", games=72, seed=3, workers=1)
    dead = rollout(pos, cube=True, policy="pubeval", cube_policy="pubeval", games=72, seed=3, workers=1)
    assert cubed.passes > 0 and dead.passes == 0 and cubed.cubeful_equity != dead.cubeful_equity
    for name in ("win", "win_gammon", "lose_gammon", "equity", "equity_se", "raw_equity"):
        assert getattr(cubed, name) == getattr(dead, name), name
    # A cash: every game is passed at once; the value is the pass's point.
    cash = make(me={5: 1, 4: 1}, opp={6: 3, 5: 3})
    r = rollout(cash, cube=True, games=36, seed=3, workers=1, variance_reduction=False)
    assert r.passes == 36 and r.cubeful_equity == 1.0


def test_the_bearoff_horizon_keeps_the_cube_alive():
    # With bearoff=True a game stops as soon as both sides are in the bear-off
    # tables; it must be worth the live cube there (the two-sided table's
    # exact cubeful equities), not the cubeless chances at a dead cube
    # (issue 40, C3: a race's +0.72 came out as its cubeless +0.45).
    ts = bg.bearoff.two_sided()
    for me, opp in (({6: 2, 5: 2, 3: 1}, {6: 2, 5: 1, 4: 2}), ({6: 3, 5: 2, 4: 1}, {6: 3, 5: 3})):
        pos = make(me=me, opp=opp)
        e = ts.equities(pos)
        exact = max(e.centred, min(2 * e.opponent_owns, 1.0))
        r = rollout(pos, games=216, seed=3, workers=1, cube=True, bearoff=True)
        assert abs(r.cubeful_equity - exact) < 2 * r.cubeful_equity_se + 0.01, (exact, r)
        assert abs(r.cubeful_equity - r.equity) > 0.05            # the cube is worth something here
    # A longer race with an owned cube, in money (gnubg's table: double/take
    # 0.790 per starting cube): the horizon gives it, and the game played to
    # its end agrees (1,296 games: the second roll too is stratified in full).
    x = parse_xgid(RACE)
    owned = bg.MatchState(cube_value=2, cube_owner=0)
    exact = 2 * ts.equities(x.position).opponent_owns
    short = rollout(x.position, games=1296, seed=4, workers=1, cube=True, state=owned, bearoff=True)
    full = rollout(x.position, games=1296, seed=4, workers=1, cube=True, state=owned)
    assert abs(short.cubeful_equity - exact) < 0.005 < abs(short.equity - exact), (exact, short)
    # The cube's own luck (C4) values each roll by the same exact table, so
    # what is left is hardly noise (a standard error of 0.00005) but the
    # players' own errors against the table's perfect play (0.0003).
    assert full.cubeful_equity_se < 0.001
    assert abs(full.cubeful_equity - exact) < 3 * full.cubeful_equity_se + 0.001, (exact, full)


def test_difference_errors_are_the_paired_errors_the_docs_describe():
    # The difference's standard error is that of the per-game differences
    # over the same dice: without variance reduction far below the unpaired
    # sqrt(se_a^2 + se_b^2); with it, about the same (the luck terms already
    # remove most of what the shared dice share), as the docs say (issue 40, C5).
    pos = parse_xgid(SHOT).position
    kw = dict(games=144, seed=5, workers=1, policy="pubeval", cube_policy="net")
    raw = ro.rollout_cube(pos, variance_reduction=False, **kw)
    assert raw.difference_se < 0.8 * math.hypot(raw.no_double_se, raw.double_take_se), raw
    vr = ro.rollout_cube(pos, **kw)
    assert 0.5 < vr.difference_se / math.hypot(vr.no_double_se, vr.double_take_se) < 1.2, vr
