"""The cube and match play in the environments (issue 46): decision steps
for the doubling cube (RULES 7) and match play (RULES 8), rewards in points,
win/loss or match winning chances; the games replay through Game.apply to
the same scores, and an agent that decides as a player does plays exactly
the match ``play_match`` plays."""
import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import backgammon as bg  # noqa: E402
import backgammon.env as bgenv  # noqa: E402
from backgammon.dice import seed_sequence  # noqa: E402
from backgammon.env._match import CUBE_ACTIONS  # noqa: E402
from backgammon.env.single import BackgammonEnv  # noqa: E402
from backgammon.errors import IllegalPlayError  # noqa: E402
from backgammon.game import Game  # noqa: E402
from backgammon.match import Match  # noqa: E402
from backgammon.met import MatchEquityTable  # noqa: E402
from backgammon.players import player  # noqa: E402

K = 3072
ROLL, DOUBLE, TAKE, PASS, BEAVER = (K + i for i in range(5))


def _agent_plays(env, a_spec, seed, episodes=1):
    """Drive ``env`` (the agent is player 0) with the decisions player A
    makes in play_match (seeded as play_match seeds player 0)."""
    s0, _, _ = seed_sequence(seed).spawn(3)
    a = player(a_spec, seed=s0)
    obs, info = env.reset(seed=seed)
    core = env.unwrapped._core
    rewards = []
    for episode in range(episodes):
        if episode:
            obs, info = env.reset()
        done = False
        while not done:
            g = core.g
            d = info["decision"]
            assert obs["action_mask"][K:].any() == (d != "play")
            if d == "play":
                action = g.legal_plays().find(a.choose_in(g).position)     # at the score, as play_match
            elif d == "cube":
                action = DOUBLE if a.cube_action(g.position, g.match_state(), g.rules).should_double else ROLL
            else:
                take = a.cube_action(g.position, core.doubler_state, g.rules).take
                action = PASS if take == "pass" else TAKE
            assert obs["action_mask"][action] == 1
            obs, r, done, trunc, info = env.step(action)
            rewards.append(r)
    return env.unwrapped.match, rewards


def _events(match):
    return [[(e.kind, e.player, e.value) for e in g.history] for g in match.games]


@pytest.mark.parametrize("a, b, length, seed", [("net", "net", 5, 1), ("net", "pubeval", 7, 2),
                                                ("random", "net", 3, 3), ("net", "net", 1, 4)])
def test_the_agent_deciding_as_a_player_plays_the_match_play_match_plays(a, b, length, seed):
    env = BackgammonEnv(opponent=b, cube=True, match_length=length)
    mine, rewards = _agent_plays(env, a, seed)
    theirs = bg.play_match([a, b], length, seed=seed)
    assert _events(mine) == _events(theirs)
    assert mine.score == theirs.score and mine.is_over()
    assert sum(rewards) == mine.score[0] - mine.score[1]          # points: each game's, as they end
    # every game replays through Game.apply, in a match of its own, to the same score
    replay = Match(length)
    for game in mine.games:
        g = replay.new_game()
        for event in game.history:
            g.apply(event)
        assert g.outcome == game.outcome
    assert replay.score == mine.score


def test_a_money_session_plays_as_play_match_one_game_an_episode():
    env = BackgammonEnv(opponent="net", cube=True)
    mine, rewards = _agent_plays(env, "net", 9, episodes=6)
    theirs = bg.play_match(["net", "net"], 0, seed=9, games=6)
    assert _events(mine) == _events(theirs) and mine.score == theirs.score
    assert sum(rewards) == mine.score[0] - mine.score[1]
    assert any(e[0] == "double" for g in _events(mine) for e in g)


@pytest.mark.parametrize("reward", ["points", "win", "match"])
def test_rewards_add_up_over_a_match(reward):
    met = MatchEquityTable.kazaross_xg2()
    for seed in range(3):
        env = BackgammonEnv(opponent="net", cube=True, match_length=5, reward=reward)
        match, rewards = _agent_plays(env, "pubeval", seed)
        won = match.winner == 0
        if reward == "points":
            assert sum(rewards) == match.score[0] - match.score[1]
        elif reward == "win":
            assert rewards[-1] == (1.0 if won else -1.0) and not any(rewards[:-1])
        else:
            assert sum(rewards) == pytest.approx(1.0 if won else -1.0)
            # each game's reward is twice the change of the agent's chances by the table
            assert met.match_winning_chance((0, 0), 5) == 0.5
            nonzero = [r for r in rewards if r]
            assert len(nonzero) <= len(match.games)


def test_aec_cube_and_match_replay_to_the_same_scores_and_rewards_are_zero_sum():
    for seed, length in ((1, 5), (2, 0), (3, 3)):
        e = bgenv.raw_env(cube=True, match_length=length, max_plays=512)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = {"player_0": 0.0, "player_1": 0.0}
        decisions = set()
        for agent in e.agent_iter(max_iter=20000):
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            decisions.add(info["decision"])
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(rng.choice(legal)))
            for a in total:
                total[a] += e.rewards[a]
        match = e.unwrapped.match
        assert match.games[-1].is_over()
        assert total["player_0"] == -total["player_1"] == match.score[0] - match.score[1]
        assert {"cube", "take", "play"} <= decisions
        replay = Match(length)
        for game in match.games:
            g = replay.new_game()
            for event in game.history:
                g.apply(event)
            assert g.final_score == game.final_score
        assert replay.score == match.score


def test_no_cube_decision_in_the_crawford_game_or_with_a_dead_cube():
    e = bgenv.raw_env(cube=True, match_length=3, max_plays=256)
    for seed in range(4):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter(max_iter=20000):
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            g = e.unwrapped._core.g
            if info["decision"] == "cube":
                assert not g.crawford                                   # RULES 8.2
                assert g.score[g.on_roll] + g.cube_value < 3            # RULES 8.3
                assert obs["cube"][10] == 0
            if g.crawford:
                assert obs["cube"][10] == 1
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_beavers_and_raccoons_where_the_rules_allow_them():
    rules = bg.Rules(beavers=2)
    e = bgenv.raw_env(cube=True, rules=rules, max_plays=256)
    seen = set()
    for seed in range(40):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter(max_iter=5000):
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"]
            d = info["decision"]
            core = e.unwrapped._core
            if d in ("take", "beaver") and mask[256 + 4]:
                cube = core.g.cube_value
                e.step(256 + 4)                     # beaver (or raccoon)
                seen.add(d)
                assert core.g.cube_value == cube * (4 if d == "take" else 2)
                continue
            if d == "cube":
                e.step(256 + 1)                     # always double
                continue
            if d in ("take", "beaver"):
                e.step(256 + 2)
                continue
            e.step(int(rng.choice(np.flatnonzero(mask[:256]))))
        if seen == {"take", "beaver"}:
            break
    assert seen == {"take", "beaver"}
    # no beavers in a match (RULES 8.4), nor in money play without the option
    for opts in ({"match_length": 5}, {}):
        e = bgenv.raw_env(cube=True, max_plays=256, **opts)
        e.reset(seed=0)
        for agent in e.agent_iter(max_iter=3000):
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            assert not obs["action_mask"][256 + 4]
            d = info["decision"]
            e.step(256 + 1 if d == "cube" else 256 + 2 if d == "take" else 0)


def test_illegal_actions_forfeit_the_game_or_raise():
    e = BackgammonEnv(opponent="pubeval", cube=True)
    obs, info = e.reset(seed=0)
    seed = 0
    while info["decision"] != "play":      # the agent opens: a play first
        seed += 1
        obs, info = e.reset(seed=seed)
    obs, r, done, trunc, info = e.step(ROLL)        # not a play
    assert info["illegal_action"] and done and r == -3          # a backgammon resigned at cube 1
    assert e.match.games[-1].outcome.ending.name == "RESIGNATION"
    strict = BackgammonEnv(opponent="pubeval", cube=True, illegal_reward=None)
    obs, info = strict.reset(seed=0)
    with pytest.raises(IllegalPlayError, match="not allowed|not a legal play"):
        strict.step(DOUBLE if info["decision"] == "play" else 0)
    with pytest.raises(TypeError, match="action"):
        strict.step("double")
    assert CUBE_ACTIONS == ("roll", "double", "take", "pass", "beaver")


@pytest.mark.parametrize("options", [{"cube": True}, {"cube": True, "match_length": 5, "reward": "match"},
                                     {"match_length": 3, "reward": "win"},
                                     {"cube": True, "afterstates": True, "max_plays": 64, "observation": "board"}],
                         ids=["cube", "cube-match", "match", "cube-afterstates"])
def test_check_env_and_api_test_with_the_cube(options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(BackgammonEnv(opponent="pubeval", **options), skip_render_check=False)
        api_test(bgenv.env(**options), num_cycles=300)
        seed_test(lambda: bgenv.env(**options), num_cycles=200)


def test_cube_units_say_the_cube_the_decision_and_the_score():
    e = BackgammonEnv(opponent="pubeval", cube=True, match_length=7)
    obs, info = e.reset(seed=3)
    core = e.unwrapped._core
    for _ in range(400):
        u = obs["cube"]
        g = core.g
        assert u[0] == pytest.approx(np.log2(g.cube_value) / 6)
        assert u[1:4].sum() == 1 and u[7] == 1
        assert u[8] == pytest.approx((7 - g.score[0]) / 7) and u[9] == pytest.approx((7 - g.score[1]) / 7)
        d = info["decision"]
        assert u[4:7].tolist() == [d == "cube", d == "take", d == "beaver"]
        if d == "play":
            assert obs["observation"][198:].sum() == 2             # the dice
        else:
            assert not obs["observation"][198:].any()
        legal = np.flatnonzero(obs["action_mask"])
        obs, r, done, _, info = e.step(int(legal[-1]))             # double when it may
        if done:
            break


def test_cube_envs_pickle_and_copy_mid_game_and_go_on_alike():
    import copy
    import pickle
    for make in (lambda: BackgammonEnv(opponent="net", cube=True, match_length=5, afterstates=True, max_plays=64),
                 lambda: BackgammonEnv(opponent="random", cube=True)):
        e = make()
        obs, info = e.reset(seed=2)
        rng = np.random.default_rng(0)
        for _ in range(15):
            obs, r, done, _, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if done:
                obs, info = e.reset()
        copies = [pickle.loads(pickle.dumps(e)), copy.deepcopy(e)]
        runs = []
        for env in [e] + copies:
            local = np.random.default_rng(1)
            o, trace = obs, []
            for _ in range(40):
                a = int(local.choice(np.flatnonzero(o["action_mask"])))
                o, r, done, _, i = env.step(a)
                trace.append((a, r, i["decision"], i["score"]))
                if done:
                    break
            runs.append(trace)
        assert runs[0] == runs[1] == runs[2]


def test_gymnasiums_sync_and_async_vector_envs_over_the_cube_env():
    import gymnasium
    kwargs = dict(opponent="pubeval", cube=True, match_length=3, max_plays=128)
    sync = gymnasium.make_vec(bgenv.ENV_ID, num_envs=2, vectorization_mode="sync", **kwargs)
    asyn = gymnasium.make_vec(bgenv.ENV_ID, num_envs=2, vectorization_mode="async", **kwargs)
    try:
        o1, i1 = sync.reset(seed=3)
        o2, i2 = asyn.reset(seed=3)
        rng = np.random.default_rng(0)
        for _ in range(60):
            assert all(np.array_equal(o1[k], o2[k]) for k in o1)
            a = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in o1["action_mask"]])
            o1, r1, t1, _, _ = sync.step(a)
            o2, r2, t2, _, _ = asyn.step(a)
            assert np.array_equal(r1, r2) and np.array_equal(t1, t2)
    finally:
        sync.close()
        asyn.close()
