"""The reinforcement-learning environments (backgammon.env): PettingZoo AEC,
Gymnasium single-agent and vector.  Needs the rl extra (pettingzoo, gymnasium)."""
import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import backgammon as bg  # noqa: E402
import backgammon.env as bgenv  # noqa: E402
from backgammon.env.aec import BackgammonAEC  # noqa: E402
from backgammon.env.single import BackgammonEnv  # noqa: E402
from backgammon.env.vector import BackgammonVectorEnv  # noqa: E402
from backgammon.errors import IllegalPlayError  # noqa: E402
from backgammon.pubeval import tesauro_inputs  # noqa: E402


def _pos(me, opp, me_bar=0, opp_bar=0):
    """A position from {point: checkers} of the side on roll and of its
    opponent, each from its own view."""
    a = np.zeros((2, 25), dtype=np.uint8)
    for p, n in me.items():
        a[1, p - 1] = n
    for p, n in opp.items():
        a[0, p - 1] = n
    a[1, 24], a[0, 24] = me_bar, opp_bar
    return bg.Position.from_array(a)


# One checker left on the ace point for the side on roll: any roll ends the game.
SINGLE = _pos({1: 1}, {6: 5})                        # the loser has borne off 10
GAMMON = _pos({1: 1}, {13: 15})                      # none off, none in the winner's home
BACKGAMMON = _pos({1: 1}, {13: 14, 23: 1})           # one in the winner's home board
BACKGAMMON_BAR = _pos({1: 1}, {13: 14}, opp_bar=1)   # one on the bar


# -- PettingZoo ------------------------------------------------------------------

def test_pettingzoo_api_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # dict observations warn, as in PettingZoo's chess
        api_test(bgenv.env(), num_cycles=300)
        api_test(bgenv.raw_env(), num_cycles=100)


def test_pettingzoo_seed_test():
    seed_test(bgenv.env, num_cycles=300)


def test_aec_actions_are_the_legal_plays_in_order():
    e = bgenv.raw_env()
    rng = np.random.default_rng(3)
    checked = 0
    for game in range(6):
        e.reset(seed=game)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            pos, roll = e.position, e.roll
            plays = pos.legal_plays(roll)
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (bgenv.NUM_ACTIONS,)
            assert mask[:len(plays)].all() and not mask[len(plays):].any()
            assert np.array_equal(info["afterstates"], plays.positions)
            other = e.observe("player_1" if agent == "player_0" else "player_0")
            assert not other["action_mask"].any()
            # the observation: Tesauro's inputs from the mover's view, then the dice
            o = obs["observation"]
            assert np.array_equal(o[:198], tesauro_inputs(pos.array[None])[0])
            hi, lo = max(roll), min(roll)
            assert o[197 + hi] == 1 and o[203 + lo] == 1 and o[198:].sum() == 2
            action = int(rng.integers(len(plays)))
            e.step(action)
            if not e.terminations[agent]:
                assert e.position == plays[action].position
            checked += 1
    assert checked > 100


def test_aec_illegal_actions():
    e = bgenv.raw_env()
    e.reset(seed=0)
    n = int(e.observe(e.agent_selection)["action_mask"].sum())
    with pytest.raises(IllegalPlayError, match=f"not a legal play.*{n} distinct legal plays"):
        e.step(n)
    with pytest.raises(TypeError, match="action must be an int"):
        e.step("8/5 6/5")
    # refused per PettingZoo's convention: the game ends, the offender gets the reward
    w = bgenv.env(illegal_reward=-1)
    w.reset(seed=0)
    agent = w.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w.step(bgenv.NUM_ACTIONS - 1)
    assert all(w.terminations.values())
    assert w.rewards[agent] == -1


@pytest.mark.parametrize("illegal_reward", [None, -1])
@pytest.mark.parametrize("action, error, words", [
    (-1, IllegalPlayError, "outside the action space: actions are 0 to 3071"),
    (bgenv.NUM_ACTIONS, IllegalPlayError, "outside the action space"),
    (10 ** 30, IllegalPlayError, "outside the action space"),
    ("8/5 6/5", TypeError, "action must be an int"),
    (1.5, TypeError, "action must be an int"),
    (None, TypeError, "action must be an int"),
    (True, TypeError, "action must be an int"),             # the illegal-move wrapper indexed its mask with it
    ([1], TypeError, "action must be an int"),
])
def test_wrapped_aec_refuses_bad_actions_with_our_errors(illegal_reward, action, error, words):
    # env()'s AssertOutOfBoundsWrapper raised a bare AssertionError ("action
    # is not in action space") before the environment's own check.
    w = bgenv.env(illegal_reward=illegal_reward)
    w.reset(seed=0)
    with pytest.raises(error, match=words):
        w.step(action)
    assert not any(w.terminations.values())
    w.step(np.array(0))                                      # a 0-d integer array is an int
    assert w.agent_selection == "player_1" or w.agent_selection == "player_0"


@pytest.mark.parametrize("value, error", [("x", TypeError), ([1], TypeError), (float("nan"), ValueError),
                                          (float("inf"), ValueError), (True, TypeError)])
def test_env_illegal_reward_is_a_finite_number(value, error):
    # Taken as given: an illegal move then "rewarded" 'x' or nan.
    with pytest.raises(error, match="illegal_reward"):
        bgenv.env(illegal_reward=value)


@pytest.mark.parametrize("pos, points", [(SINGLE, 1), (GAMMON, 2), (BACKGAMMON, 3), (BACKGAMMON_BAR, 3)])
def test_aec_race_to_the_end_scores_points(pos, points):
    e = bgenv.env()
    e.reset(seed=1, options={"position": pos, "agent": "player_1"})
    assert e.agent_selection == "player_1"
    e.step(0)
    assert all(e.terminations.values())
    assert e.rewards == {"player_1": points, "player_0": -points}
    obs, reward, term, trunc, info = e.last()
    assert term and reward == -points    # the loser is next; its cumulative reward
    e.step(None)
    assert e.last()[1] == points


def test_aec_seeding_and_render():
    def run(seed):
        e = bgenv.raw_env(render_mode="ansi")
        e.reset(seed=seed)
        out = []
        for _ in range(40):
            out.append((e.agent_selection, e.roll, e.position.to_id()))
            e.step(0)
            if e.terminations[e.agent_selection]:
                break
        return out, e.render()
    a, text = run(7)
    assert a == run(7)[0] and a != run(8)[0]
    assert "Position ID" in text
    first = a[0][1]
    assert first[0] != first[1]   # the opening roll is never a double


# -- Gymnasium, one agent -------------------------------------------------------------

@pytest.mark.parametrize("opponent", ["random", "pubeval", "net"])
def test_gymnasium_make_and_check_env(opponent):
    e = gymnasium.make("backgammon/Backgammon-v0", opponent=opponent)
    assert isinstance(e.unwrapped, BackgammonEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(e.unwrapped, skip_render_check=False)


def test_gymnasium_plays_and_points():
    e = BackgammonEnv(opponent="pubeval", illegal_reward=None)
    rng = np.random.default_rng(0)
    for game in range(3):
        obs, info = e.reset(seed=game)
        while True:
            pos, roll = e.position, info["roll"]
            plays = pos.legal_plays(roll)
            assert np.array_equal(info["afterstates"], plays.positions)
            assert obs["action_mask"].sum() == len(plays) and info["action_mask"] is obs["action_mask"]
            with pytest.raises(IllegalPlayError):
                e.step(len(plays))
            obs, reward, term, trunc, info = e.step(int(rng.integers(len(plays))))
            assert not trunc
            if term:
                assert reward in (-3, -2, -1, 1, 2, 3)
                assert not obs["action_mask"].any()
                break
            assert reward == 0
    for pos, points in ((SINGLE, 1), (GAMMON, 2), (BACKGAMMON, 3)):
        e.reset(seed=0, options={"position": pos})
        assert e.step(0)[1:3] == (points, True)
    e.reset(seed=0, options={"position": GAMMON.swapped()})
    # the opponent's last checker: whatever the agent plays, the opponent bears off
    obs, reward, term, trunc, info = e.step(0)
    assert (reward, term) == (-2, True)


def test_gymnasium_illegal_action_default_penalty():
    e = gymnasium.make("backgammon/Backgammon-v0")
    obs, info = e.reset(seed=0)
    obs, reward, term, trunc, info = e.step(bgenv.NUM_ACTIONS - 1)
    assert (reward, term, info["illegal_action"]) == (-3.0, True, True)


def test_gymnasium_seeding():
    def run(seed):
        e = BackgammonEnv(opponent="random")
        obs, info = e.reset(seed=seed)
        trace = [obs["observation"]]
        for _ in range(30):
            obs, reward, term, _, info = e.step(0)
            trace.append(obs["observation"])
            if term:
                obs, info = e.reset()
        return np.array(trace)
    assert np.array_equal(run(5), run(5))
    assert not np.array_equal(run(5), run(6))


# -- Gymnasium, vector ---------------------------------------------------------------------

def test_make_vec_gives_the_lockstep_env():
    envs = gymnasium.make_vec("backgammon/Backgammon-v0", num_envs=3, vectorization_mode="vector_entry_point",
                              opponent="pubeval")
    assert isinstance(envs, BackgammonVectorEnv) and envs.num_envs == 3
    obs, info = envs.reset(seed=0)
    assert obs in envs.observation_space
    assert obs["observation"].shape == (3, bgenv.OBS_SIZE) and obs["action_mask"].shape == (3, bgenv.NUM_ACTIONS)


class _FirstPlay(bg.players.Player):
    """A player the kernel does not know: its choices come from Python."""
    spec = "first"

    def choose_indices(self, boards, rolls):
        return np.zeros(len(boards), dtype=np.int64)


@pytest.mark.parametrize("opponent", ["random", "pubeval", "net", "first"])
def test_vector_env_matches_the_single_env(opponent):
    # The same draws, used the same way: one vector game (the kernel) is
    # the single game (Python over Position), for each kind of opponent.
    opp = _FirstPlay() if opponent == "first" else opponent
    single = BackgammonEnv(opponent=opp)
    vec = BackgammonVectorEnv(1, opponent=opp)
    o1, i1 = single.reset(seed=11)
    o2, i2 = vec.reset(seed=11)
    for _ in range(150):
        assert np.array_equal(o1["observation"], o2["observation"][0])
        a = int(i1["action_mask"].sum()) // 2
        o1, r1, t1, _, i1 = single.step(a)
        o2, r2, t2, _, i2 = vec.step(np.array([a]))
        assert r1 == r2[0] and t1 == t2[0]
        if t1:
            o1, i1 = single.reset()
            o2, r2, t2, _, i2 = vec.step(np.array([0]))   # the autoreset step
            assert r2[0] == 0 and not t2[0]


def test_vector_env_afterstates_autoreset_and_illegal():
    n = 16
    envs = BackgammonVectorEnv(n, opponent="random", illegal_reward=None)
    obs, info = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    resets = 0
    for step in range(400):
        counts = info["num_plays"]
        off, kids = info["afterstate_offsets"], info["afterstates"]
        assert np.array_equal(obs["action_mask"].sum(axis=1), counts)
        for i in (0, n - 1):
            if counts[i]:
                pos = bg.Position(envs._games.boards[i])
                plays = pos.legal_plays(tuple(info["roll"][i]))
                assert np.array_equal(kids[off[i]:off[i + 1]], plays.positions)
        finished = counts == 0
        actions = (rng.random(n) * counts).astype(np.int64)
        actions[finished] = bgenv.NUM_ACTIONS - 1    # ignored: the game restarts
        if step == 5:
            bad = actions.copy()
            bad[~finished] = counts[~finished]
            with pytest.raises(IllegalPlayError, match="is not a legal play"):
                envs.step(bad)
        obs, reward, term, trunc, info = envs.step(actions)
        assert not trunc.any()
        assert np.all(reward[finished] == 0) and not term[finished].any()
        assert np.all(info["num_plays"][finished] > 0)
        resets += int(finished.sum())
        assert np.all(np.isin(reward[term], [-3, -2, -1, 1, 2, 3])) and np.all(reward[~term] == 0)
        assert np.all(info["num_plays"][term] == 0) and not obs["action_mask"][term].any()
    assert resets > 10


def _trace(envs, steps, seed):
    """Everything a vector env shows over ``steps`` random legal steps."""
    n = envs.num_envs
    obs, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        actions = (rng.random(n) * info["num_plays"]).astype(np.int64)
        obs, reward, term, trunc, info = envs.step(actions)
        seen.append((obs["observation"].copy(), obs["action_mask"].copy(), reward, term, info["num_plays"],
                     info["afterstate_offsets"].copy(), info["afterstates"].copy(), info["roll"]))
    return seen


@pytest.mark.parametrize("opponent", ["random", "pubeval", "net"])
def test_vector_env_is_the_same_on_any_number_of_threads(opponent):
    # Threads share each step; the games, observations, masks and
    # afterstates are the same for any number of them (and both copy modes).
    n = 600
    want = _trace(BackgammonVectorEnv(n, opponent=opponent, threads=1), 30, 7)
    for threads, copy in ((2, True), (3, False), (None, True)):
        got = _trace(BackgammonVectorEnv(n, opponent=opponent, threads=threads, copy=copy), 30, 7)
        for a, b in zip(want, got):
            assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert sum(int(t[3].sum()) for t in want) > 0


def test_vector_env_with_too_little_room_for_plays_runs_the_answer_again():
    # The kernel's output for the plays overflows: the answer is run again
    # with more room and gives the same games.
    n = 256
    want = _trace(BackgammonVectorEnv(n, threads=2), 12, 3)
    tight = BackgammonVectorEnv(n, threads=2)
    obs, info = tight.reset(seed=3)
    tight._games._capacity = bg.batch.MAX_PLAYS + 10      # room for a few games only
    rng = np.random.default_rng(3)
    for k in range(12):
        actions = (rng.random(n) * info["num_plays"]).astype(np.int64)
        obs, reward, term, trunc, info = tight.step(actions)
        assert np.array_equal(obs["observation"], want[k][0]) and np.array_equal(info["afterstates"], want[k][6])
        assert np.array_equal(reward, want[k][2])
    assert tight._games._capacity > bg.batch.MAX_PLAYS + 10


def test_vector_env_copies_are_not_overwritten():
    # copy=True: what a step returned stays as it was; copy=False: the
    # environment's own arrays, overwritten by the next step.
    for copy in (True, False):
        envs = BackgammonVectorEnv(8, copy=copy)
        obs, info = envs.reset(seed=1)
        kept = obs["observation"].copy(), obs["action_mask"].copy()
        for _ in range(3):
            later, _, _, _, info = envs.step(np.zeros(8, dtype=np.int64))
        same = np.array_equal(obs["observation"], kept[0]) and np.array_equal(obs["action_mask"], kept[1])
        assert same == copy
        assert (later["observation"] is obs["observation"]) == (not copy)


def test_vector_env_illegal_penalty_reset_mask_and_position():
    envs = BackgammonVectorEnv(4)
    obs, info = envs.reset(seed=0, options={"position": GAMMON})
    obs, reward, term, _, info = envs.step(np.array([0, 0, 0, bgenv.NUM_ACTIONS - 1]))
    assert reward.tolist() == [2, 2, 2, -3] and term.all()
    assert info["illegal_action"].tolist() == [False, False, False, True]
    before = envs._games.boards.copy()
    obs, info = envs.reset(options={"reset_mask": np.array([True, False, False, False])})
    assert info["num_plays"][0] > 0 and (info["num_plays"][1:] == 0).all()
    assert np.array_equal(envs._games.boards[1:], before[1:])


def test_vector_env_1024_random_steps():
    n = 1024
    envs = gymnasium.make_vec("backgammon/Backgammon-v0", num_envs=n, vectorization_mode="vector_entry_point",
                              copy=False)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    total = 0
    for _ in range(25):
        actions = (rng.random(n) * info["num_plays"]).astype(np.int64)
        obs, reward, term, trunc, info = envs.step(actions)
        assert np.array_equal(obs["action_mask"].sum(axis=1), info["num_plays"])
        total += int(term.sum())
    assert total > 0


def test_readme_example():
    # The README's example, as written there.
    import gymnasium as gym
    import backgammon.env  # noqa: F401  (registers backgammon/Backgammon-v0)
    from backgammon.pubeval import pubeval

    env = gym.make("backgammon/Backgammon-v0", opponent="random")
    points = 0.0
    for game in range(10):
        obs, info = env.reset(seed=game)
        done = False
        while not done:
            action = int(pubeval(info["afterstates"]).argmax())   # greedy on afterstates
            obs, reward, done, truncated, info = env.step(action)
        points += reward
    assert points > 0   # pubeval beats random play


# -- fuzzing the environments' entry points -----------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

ENV_FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
garbage = st.one_of(
    st.integers(-2**70, 2**70), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
    st.none(), st.booleans(), st.lists(st.integers(-5, 5000), max_size=5),
    hnp.arrays(st.sampled_from([np.int64, np.int8, np.uint16, np.float32, np.bool_]),
               st.sampled_from([(), (3,), (4,), (2, 2), (0,)])),
)


@ENV_FUZZ
@given(st.lists(garbage, min_size=1, max_size=6), st.integers(0, 2**32))
def test_vector_env_steps_take_only_good_actions(actions, seed):
    # Anything as actions: a legal step, or TypeError / ValueError (the
    # illegal-play error is one), and the environment is still usable.
    envs = BackgammonVectorEnv(3, threads=2, illegal_reward=None)
    envs.reset(seed=seed)
    for a in actions:
        try:
            obs, reward, term, trunc, info = envs.step(a)
        except (TypeError, ValueError):
            pass
        else:
            assert obs in envs.observation_space
    obs, info = envs.reset()
    obs, reward, term, trunc, info = envs.step(np.zeros(3, dtype=np.int64))
    assert np.array_equal(obs["action_mask"].sum(axis=1), info["num_plays"])


@ENV_FUZZ
@given(st.lists(garbage, min_size=1, max_size=6), st.integers(0, 2**32))
def test_single_and_aec_envs_take_only_good_actions(actions, seed):
    single = BackgammonEnv(illegal_reward=None)
    single.reset(seed=seed)
    aec = BackgammonAEC()
    aec.reset(seed=seed)
    for a in actions:
        for step in (single.step, aec.step):
            try:
                step(a)
            except (TypeError, ValueError, RuntimeError):   # RuntimeError: stepping a finished game
                pass
    single.reset()
    aec.reset()
    assert single.step(0)[0] in single.observation_space


@ENV_FUZZ
@given(garbage, garbage)
def test_env_constructors_and_resets_check_their_arguments(x, y):
    # A huge number of games is only a large allocation: kept small here.
    n = min(x, 64) if isinstance(x, int) and not isinstance(x, bool) else x
    for make in (lambda: BackgammonVectorEnv(n), lambda: BackgammonVectorEnv(2, threads=x),
                 lambda: BackgammonVectorEnv(2, copy=x), lambda: BackgammonVectorEnv(2, illegal_reward=x),
                 lambda: BackgammonEnv(opponent=x), lambda: BackgammonVectorEnv(2).reset(seed=0, options=x),
                 lambda: BackgammonVectorEnv(2).reset(seed=0, options={"reset_mask": x}),
                 lambda: BackgammonEnv().reset(seed=0, options={"position": y})):
        try:
            make()
        except (TypeError, ValueError):
            pass


def test_render_modes(capsys):
    # "ansi" returns the board, "human" prints it on every reset and step
    # (PettingZoo's render_test checks both).
    from pettingzoo.test import render_test
    render_test(lambda render_mode=None: bgenv.env(render_mode=render_mode))
    capsys.readouterr()
    e = BackgammonEnv(render_mode="human")
    e.reset(seed=1)
    e.step(0)
    assert e.render() is None
    printed = capsys.readouterr().out
    assert printed.count("agent (X) to play") + printed.count("game over") == 3
    assert isinstance(BackgammonEnv(render_mode="ansi").render(), str)
