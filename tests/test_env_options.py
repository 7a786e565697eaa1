"""The environments' options (issue 46): observation encodings, afterstate
observations padded to max_plays, reward kinds; each checked by Gymnasium's
check_env, PettingZoo's api_test and seed_test, and the vector env."""
import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import backgammon as bg  # noqa: E402
import backgammon.env as bgenv  # noqa: E402
from backgammon import _net  # noqa: E402
from backgammon.env.encodings import OBSERVATIONS, encoding, pad_afterstates  # noqa: E402
from backgammon.env.single import BackgammonEnv  # noqa: E402
from backgammon.env.vector import BackgammonVectorEnv  # noqa: E402
from backgammon.errors import IllegalPlayError  # noqa: E402
from backgammon.lockstep import VectorGames  # noqa: E402
from backgammon.pubeval import tesauro_inputs  # noqa: E402

OPTIONS = [
    {"observation": "net"},
    {"observation": "board"},
    {"observation": "raw"},
    {"afterstates": True},
    {"observation": "net", "afterstates": True, "max_plays": 256},
    {"observation": "board", "afterstates": True, "max_plays": 64},
    {"observation": "raw", "afterstates": True, "max_plays": 40, "reward": "win"},
    {"reward": "win", "max_plays": 100},
]


def _positions(n=64, steps=120, seed=3):
    """Boards and rolls of games in play (contact, races, bear-offs)."""
    vg = VectorGames(n, seed=seed)
    rng = np.random.default_rng(seed)
    boards, rolls = [], []
    for _ in range(steps):
        offsets, children = vg.candidates()
        boards.append(vg.boards.copy())
        rolls.append(vg.rolls.copy())
        counts = np.diff(offsets)
        vg.advance((rng.random(n) * counts).astype(np.int64))
    return np.concatenate(boards), np.concatenate(rolls)


BOARDS, ROLLS = _positions()


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_check_env_and_api_test_for_each_option(options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(BackgammonEnv(opponent="pubeval", **options), skip_render_check=False)
        api_test(bgenv.env(**options), num_cycles=200)
        seed_test(lambda: bgenv.env(**options), num_cycles=100)


@pytest.mark.parametrize("name", OBSERVATIONS)
def test_encodings_shapes_bounds_and_the_dice(name):
    enc = encoding(name)
    states = enc.states(BOARDS, ROLLS)
    after = enc.afterstates(BOARDS)
    assert states.shape == (len(BOARDS),) + enc.state_shape and states.dtype == np.float32
    assert after.shape == (len(BOARDS),) + enc.afterstate_shape
    assert states.min() >= 0 and states.max() <= enc.high
    # a state's encoding is its afterstate-style encoding plus the dice
    if name == "board":
        assert np.array_equal(states[:, :9], after)
        dice = states[:, 9:, 0]
        assert np.array_equal(dice, states[:, 9:, 25])            # constant planes
        for d in range(1, 7):
            assert np.array_equal(dice[:, d - 1], (ROLLS == d).sum(axis=1))
    else:
        assert np.array_equal(states[:, :-12], after)
        hi, lo = ROLLS.max(axis=1), ROLLS.min(axis=1)
        assert np.array_equal(states[:, -12:].argmax(axis=1), hi - 1)
        assert np.array_equal(states[:, -6:].argmax(axis=1), lo - 1)
        assert (states[:, -12:].sum(axis=1) == 2).all()
    # no dice: the dice units are zero; not on roll: the turn unit says so
    quiet = enc.states(BOARDS[:5], None, on_turn=False)
    assert not quiet.reshape(5, -1)[:, -12:].any() if name != "board" else not quiet[:, 9:].any()


def test_tesauro_encoding_is_the_td_gammon_inputs():
    enc = encoding("tesauro")
    assert np.array_equal(enc.afterstates(BOARDS), tesauro_inputs(BOARDS))
    assert np.array_equal(enc.states(BOARDS, ROLLS), bgenv.encode(BOARDS, ROLLS))


def test_net_encoding_is_the_networks_inputs_and_class():
    enc = encoding("net")
    x = enc.afterstates(BOARDS)
    inputs, classes = _net.encode_boards(BOARDS)
    played = classes >= 2                     # the network evaluates these
    assert played.any() and (~played).any()   # and the bear-off tables the rest: both are here
    assert np.array_equal(x[played, :248], inputs[played])
    assert np.array_equal(x[:, 248:253].argmax(axis=1), classes)
    assert (x[:, 253] == 1).all()             # the next mover is on roll
    # a position the tables answer has the networks' raw units, features zero
    raw = x[~played]
    for b, row in zip(BOARDS[~played], raw):
        for side in range(2):
            counts = b[1 - side]
            units = row[101 * side:101 * side + 100].reshape(25, 4)
            assert np.array_equal(units[:, 0], counts == 1)
            assert np.array_equal(units[:, 1], counts == 2)
            assert np.array_equal(units[:, 2], counts >= 3)
            assert np.allclose(units[:, 3], np.maximum(counts.astype(int) - 3, 0) / 2)
            assert row[101 * side + 100] == pytest.approx((15 - counts.sum()) / 15)
        assert not row[202:248].any()


def test_board_tensor_places():
    enc = encoding("board")
    pos = bg.Position.initial()
    x = enc.states(pos.array[None], np.array([[6, 6]], dtype=np.uint8))[0]
    mine, theirs = x[0:4], x[4:8]
    # the side on roll: 2 on its 24-point, 5 on 13, 3 on 8, 5 on 6
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        assert mine[0, point] == 1 and mine[1, point] == (n >= 2) and mine[2, point] == (n >= 3)
        assert mine[3, point] == max(n - 3, 0) / 2
    assert mine[0].sum() == 4
    # the opponent's points q are places 25 - q: its 24-point faces our 1-point
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        assert theirs[0, 25 - point] == 1 and theirs[3, 25 - point] == max(n - 3, 0) / 2
    assert (x[8] == 1).all()                           # on roll
    assert (x[9 + 5] == 2).all() and x[9:].sum() == 2 * 26   # 6-6: two sixes
    # bars and trays: ours at 25 and 0, theirs at 0 and 25
    a = np.zeros((2, 25), dtype=np.uint8)
    a[1, 24], a[1, 0] = 1, 4                           # one on our bar, four on our ace; ten off
    a[0, 24], a[0, 5] = 2, 13                          # two on their bar, thirteen on their 6
    x = enc.afterstates(a[None])[0]
    assert x[0, 25] == 1 and x[0, 1] == 1 and x[3, 0] == (10 - 3) / 2
    assert x[4, 0] == 1 and x[5, 0] == 1 and x[4, 19] == 1 and x[4, 25] == 0


def test_pad_afterstates_and_cut():
    enc = np.arange(10, dtype=np.float32)[:, None]
    x, m = pad_afterstates(enc, np.array([0, 7, 7, 10]), 4)
    assert x[..., 0].tolist() == [[0, 1, 2, 3], [0, 0, 0, 0], [7, 8, 9, 0]]
    assert m.tolist() == [[1, 1, 1, 1], [0, 0, 0, 0], [1, 1, 1, 0]]


@pytest.mark.parametrize("name", OBSERVATIONS)
def test_single_env_afterstates_are_the_legal_plays_encoded(name):
    e = BackgammonEnv(opponent="random", observation=name, afterstates=True, max_plays=3072, illegal_reward=None)
    enc = encoding(name)
    rng = np.random.default_rng(1)
    obs, info = e.reset(seed=4)
    for _ in range(60):
        pos, roll = e.position, info["roll"]
        plays = pos.legal_plays(roll)
        k = len(plays)
        assert obs["afterstates"].shape == (3072,) + enc.afterstate_shape
        assert np.array_equal(obs["afterstates"][:k], enc.afterstates(plays.positions))
        assert not obs["afterstates"][k:].any()
        assert obs["action_mask"][:k].all() and not obs["action_mask"][k:].any()
        assert np.array_equal(obs["observation"], enc.states(pos.array[None], np.array([roll]))[0])
        obs, reward, term, trunc, info = e.step(int(rng.integers(k)))
        if term:
            obs, info = e.reset()


def test_max_plays_cuts_the_plays_beyond_it():
    # 1-1 with checkers spread out: many plays
    pos = bg.Position.from_id("IIAAGimllFIKAA")
    plays = pos.legal_plays((1, 1))
    assert len(plays) > 2000              # a legal position with more than 2,000 plays of 1-1
    e = BackgammonEnv(afterstates=True, max_plays=100, observation="raw", illegal_reward=None)
    e.reset(seed=0, options={"position": pos})
    # the opening roll of a given position is random: find a 1-1 by seeds
    for seed in range(2000):
        obs, info = e.reset(seed=seed, options={"position": pos})
        if info["roll"] == (1, 1):
            break
    else:
        pytest.skip("no 1-1 in 2,000 seeds")
    assert info["num_plays"] == 100 and info["plays_cut"] == len(plays) - 100
    assert obs["action_mask"].all()
    assert len(info["afterstates"]) == 100
    with pytest.raises(IllegalPlayError):
        e.step(100)


def test_reward_win_is_the_sign_of_the_points():
    e = BackgammonEnv(opponent="pubeval", reward="win")
    rewards = []
    for game in range(20):
        obs, info = e.reset(seed=game)
        done = False
        while not done:
            obs, r, done, _, info = e.step(0)
            if not done:
                assert r == 0
        rewards.append(r)
    assert set(rewards) <= {-1.0, 1.0} and -1.0 in rewards


@pytest.mark.parametrize("options", [{"observation": "board", "afterstates": True, "max_plays": 64},
                                     {"observation": "net", "reward": "win"},
                                     {"observation": "raw", "afterstates": True, "max_plays": 16}])
def test_vector_env_with_options_replays_the_single_env(options):
    single = BackgammonEnv(opponent="pubeval", **options)
    vec = BackgammonVectorEnv(1, opponent="pubeval", **options)
    o1, i1 = single.reset(seed=5)
    o2, i2 = vec.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(150):
        for key in o1:
            assert np.array_equal(o1[key], o2[key][0]), key
        assert vec.observation_space.contains(o2)
        a = int(rng.integers(max(i1["num_plays"], 1)))
        o1, r1, t1, _, i1 = single.step(a)
        o2, r2, t2, _, i2 = vec.step(np.array([a]))
        assert r1 == r2[0] and t1 == t2[0]
        if t1:
            o1, i1 = single.reset()
            o2, r2, t2, _, i2 = vec.step(np.array([0]))     # the autoreset step


def test_vector_env_cuts_plays_and_refuses_the_cube():
    vec = BackgammonVectorEnv(64, afterstates=True, observation="raw", max_plays=8)
    obs, info = vec.reset(seed=2)
    cut = 0
    for t in range(40):
        assert obs["afterstates"].shape == (64, 8, 51)
        assert (info["num_plays"] <= 8).all()
        assert np.array_equal(obs["action_mask"].sum(axis=1), info["num_plays"])
        cut += int(np.sum(info.get("plays_cut", 0)))
        obs, r, te, tr, info = vec.step(bgenv.sample_legal(info["num_plays"], rng=t))
        assert not info.get("illegal_action", np.zeros(1, bool)).any()
    assert cut > 0
    with pytest.raises(ValueError, match="cube, match_length"):
        BackgammonVectorEnv(2, cube=True)


@pytest.mark.parametrize("bad, error", [
    ({"observation": "pixels"}, ValueError), ({"observation": 3}, TypeError),
    ({"afterstates": "yes"}, TypeError), ({"max_plays": 0}, ValueError), ({"max_plays": 4000}, ValueError),
    ({"max_plays": 2.5}, TypeError), ({"reward": "elo"}, ValueError), ({"reward": "match"}, ValueError),
    ({"match_length": -1}, ValueError), ({"cube": 1.0}, TypeError), ({"rules": "jacoby"}, TypeError),
])
def test_options_are_checked(bad, error):
    name = next(iter(bad))
    with pytest.raises(error, match=name):
        BackgammonEnv(**bad)
    with pytest.raises(error, match=name):
        bgenv.raw_env(**bad)


# -- fuzzing the new entry points ----------------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from backgammon import _env  # noqa: E402
from backgammon.sample import random_positions  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), d1=st.integers(0, 7), d2=st.integers(0, 7))
def test_encodings_of_any_position_and_any_dice_stay_in_bounds(seed, d1, d2):
    boards, _ = random_positions(20, seed=seed)
    rolls = np.tile(np.array([[d1, d2]], dtype=np.uint8), (len(boards), 1))
    for name in OBSERVATIONS:
        enc = encoding(name)
        for on_turn in (True, False):
            x = enc.states(boards, rolls, on_turn)
            assert np.isfinite(x).all() and x.min() >= 0 and x.max() <= enc.high
        a = enc.afterstates(boards)
        assert a.min() >= 0 and a.max() <= enc.high
        # dice outside 1-6 are no dice
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            assert np.array_equal(x, enc.states(boards, None, False))


def test_encoding_kernels_refuse_wrong_shapes():
    boards = np.repeat(bg.Position.initial().array[None], 3, axis=0)
    with pytest.raises(ValueError, match="out"):
        _env.board_tensors(boards, np.zeros((3, 2), np.uint8), np.zeros((3, 10, 26), np.float32))
    with pytest.raises(ValueError, match="rolls"):
        _env.board_tensors(boards, np.zeros((2, 2), np.uint8), np.zeros((3, 15, 26), np.float32))
    with pytest.raises(ValueError, match="out"):
        _env.net_raw_units(boards, np.zeros((3, 100), np.float32))
    with pytest.raises(ValueError, match="boards"):
        _env.net_raw_units(np.zeros((3, 2, 24), np.uint8), np.zeros((3, 202), np.float32))
    assert _env.opening_throws(np.array([0.0, 0.5, 0.999999])).tolist() == \
        _env.opening_throws(np.array([0.0, 0.5, 0.999999])).tolist()
    throws = _env.opening_throws(np.linspace(0, 1, 3000, endpoint=False))
    assert (throws[:, 0] != throws[:, 1]).all() and len({tuple(t) for t in throws.tolist()}) == 30


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), actions=st.lists(st.integers(-5, 3100), min_size=1, max_size=80))
def test_the_cube_env_takes_any_action_sequence(seed, actions):
    e = BackgammonEnv(opponent="random", cube=True, match_length=3, max_plays=3072)
    obs, info = e.reset(seed=seed)
    for a in actions:
        obs, r, done, trunc, info = e.step(a)
        assert e.observation_space.contains(obs)
        if done:
            assert e.match.is_over()
            obs, info = e.reset()
