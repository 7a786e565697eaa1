"""Gymnasium's own vector environments over the single-agent env
(``SyncVectorEnv``, ``AsyncVectorEnv``, ``make_vec`` in each mode), with
Gymnasium's wrappers, and ``max_episode_steps`` through the vector entry
point (issue 23)."""
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv  # noqa: E402
from gymnasium.wrappers import RecordEpisodeStatistics, TimeLimit  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics as VectorRecordEpisodeStatistics  # noqa: E402

import backgammon as bg  # noqa: E402
import backgammon.env as bgenv  # noqa: E402
from backgammon.env import Afterstates, sample_legal  # noqa: E402
from backgammon.env.single import BackgammonEnv  # noqa: E402
from backgammon.env.vector import BackgammonVectorEnv  # noqa: E402

MODES = ["sync", "async", "vector_entry_point"]
POINTS = [-3, -2, -1, 1, 2, 3]


def _make(mode, n, **kwargs):
    return gymnasium.make_vec(bgenv.ENV_ID, num_envs=n, vectorization_mode=mode, **kwargs)


def _afterstates_of(info, i):
    """Game i's afterstates in either layout: an object array of
    Afterstates (Gymnasium's stacking) or CSR (the lockstep env)."""
    if "afterstate_offsets" in info:
        off = info["afterstate_offsets"]
        return info["afterstates"][off[i]:off[i + 1]]
    return np.asarray(info["afterstates"][i])


@pytest.mark.parametrize("mode", MODES)
def test_make_vec_steps_with_wrappers_in_every_mode(mode):
    # TimeLimit (max_episode_steps) and RecordEpisodeStatistics in each mode:
    # games end or are cut at 12 agent steps, and the statistics see both.
    n, limit = 3, 12
    envs = VectorRecordEpisodeStatistics(_make(mode, n, opponent="pubeval", max_episode_steps=limit))
    try:
        obs, info = envs.reset(seed=4)
        assert obs in envs.observation_space
        rng = np.random.default_rng(4)
        length = np.zeros(n, dtype=int)
        ended = truncations = 0
        for _ in range(150):
            counts = np.asarray(info["num_plays"], dtype=np.int64)
            assert counts.shape == (n,)
            assert np.array_equal(np.asarray(info["action_mask"]).sum(axis=1), counts)
            for i in range(n):
                assert len(_afterstates_of(info, i)) == counts[i]
            obs, reward, term, trunc, info = envs.step(sample_legal(counts, rng))
            assert obs in envs.observation_space
            length += 1
            assert np.all(np.isin(reward[term], POINTS)) and np.all(reward[~term] == 0)
            # TimeLimit's rule: the limit cuts a game that has not ended by then.
            assert np.array_equal(trunc, length >= limit)
            if "episode" in info:
                done = info["_episode"]
                assert np.array_equal(done, term | trunc)
                assert np.array_equal(info["episode"]["l"][done], length[done])
                assert np.array_equal(info["episode"]["r"][done], reward[done])
                ended += int(done.sum())
            truncations += int(trunc.sum())
            length[term | trunc] = -1     # the next step is the autoreset step (NEXT_STEP)
        assert ended > 10 and truncations > 5
    finally:
        envs.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_per_game_wrappers_in_sync_and_async(mode):
    # Wrappers on each single env (make_vec's ``wrappers``); every info
    # entry of a game stacks, the afterstates as an object array.
    envs = _make(mode, 2, wrappers=[RecordEpisodeStatistics], max_episode_steps=200)
    try:
        obs, info = envs.reset(seed=0)
        assert info["afterstates"].dtype == object and info["afterstates"].shape == (2,)
        assert all(isinstance(a, Afterstates) for a in info["afterstates"])
        assert info["roll"].shape == (2,) and info["num_plays"].dtype.kind == "i"
        positions = envs.get_attr("position")
        for i in range(2):
            plays = positions[i].legal_plays(info["roll"][i])
            assert np.array_equal(info["afterstates"][i], plays.positions)
        rng = np.random.default_rng(1)
        episodes = 0
        for _ in range(400):
            obs, reward, term, trunc, info = envs.step(sample_legal(info["action_mask"], rng))
            if "episode" in info:
                episodes += int(info["_episode"].sum())
                assert np.all(np.isin(info["episode"]["r"][info["_episode"]], POINTS))
        assert episodes >= 2
    finally:
        envs.close()


def test_sync_and_async_are_the_same_games():
    def trace(mode):
        envs = _make(mode, 3, opponent="net")
        try:
            obs, info = envs.reset(seed=9)
            seen = []
            for k in range(60):
                obs, reward, term, trunc, info = envs.step((info["num_plays"] * 0.37).astype(np.int64))
                seen.append((obs["observation"].copy(), reward.copy(), term.copy(), info["num_plays"].copy()))
            return seen
        finally:
            envs.close()
    a, b = trace("sync"), trace("async")
    assert all(all(np.array_equal(x, y) for x, y in zip(s, t)) for s, t in zip(a, b))


def test_one_game_is_the_same_in_every_mode():
    # One game: Gymnasium's sync vector env over TimeLimit(single env) and
    # the lockstep env with max_episode_steps play the same draws.
    limit = 30

    def trace(envs):
        obs, info = envs.reset(seed=21)
        seen = []
        for _ in range(300):
            actions = (np.asarray(info["num_plays"]) // 2).astype(np.int64)
            obs, reward, term, trunc, info = envs.step(actions)
            seen.append((obs["observation"][0].copy(), float(reward[0]), bool(term[0]), bool(trunc[0])))
        return seen
    sync = SyncVectorEnv([lambda: TimeLimit(BackgammonEnv(opponent="pubeval"), limit)])
    lockstep = BackgammonVectorEnv(1, opponent="pubeval", max_episode_steps=limit)
    a, b = trace(sync), trace(lockstep)
    assert [x[1:] for x in a] == [x[1:] for x in b]
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b))
    assert any(x[3] for x in a) and any(x[2] for x in a)


def test_async_vector_env_directly():
    envs = AsyncVectorEnv([lambda: BackgammonEnv(opponent="random") for _ in range(2)])
    try:
        obs, info = envs.reset(seed=[1, 2])
        assert obs["observation"].shape == (2, bgenv.OBS_SIZE)
        obs, reward, term, trunc, info = envs.step(sample_legal(info["num_plays"], 0))
        masks = envs.call("action_masks")
        assert len(masks) == 2 and all(m.dtype == np.bool_ for m in masks)
        assert [int(m.sum()) for m in masks] == info["num_plays"].tolist()
    finally:
        envs.close()


def test_max_episode_steps_through_the_vector_entry_point():
    envs = _make("vector_entry_point", 4, max_episode_steps=3)
    assert isinstance(envs, BackgammonVectorEnv) and envs.max_episode_steps == 3
    obs, info = envs.reset(seed=0)
    truncs = []
    for _ in range(8):
        obs, reward, term, trunc, info = envs.step(sample_legal(info["num_plays"], 1))
        truncs.append(trunc.copy())
    assert [t.all() for t in truncs] == [False, False, True, False, False, False, True, False]
    # a reset of some games restarts their count
    envs.reset(options={"reset_mask": np.array([True, True, False, False])})
    obs, reward, term, trunc, info = envs.step(np.zeros(4, dtype=np.int64))
    assert not trunc.any()
    for bad in (0, -1):
        with pytest.raises(ValueError, match="max_episode_steps"):
            BackgammonVectorEnv(2, max_episode_steps=bad)
    with pytest.raises(TypeError, match="max_episode_steps"):
        BackgammonVectorEnv(2, max_episode_steps=2.5)


def test_a_truncated_game_is_restarted_whatever_the_action():
    envs = BackgammonVectorEnv(2, max_episode_steps=1, illegal_reward=None)
    obs, info = envs.reset(seed=3)
    obs, reward, term, trunc, info = envs.step(np.zeros(2, dtype=np.int64))
    assert trunc.all()
    # the next step restarts both games: an out-of-range action is ignored, not refused
    obs, reward, term, trunc, info = envs.step(np.full(2, bgenv.NUM_ACTIONS - 1))
    assert not trunc.any() and not term.any() and (reward == 0).all()
    assert (info["num_plays"] > 0).all()


def test_mask_out_of_the_observation_in_every_mode():
    for mode in MODES:
        envs = _make(mode, 2, mask_in_observation=False)
        try:
            obs, info = envs.reset(seed=0)
            assert set(obs) == {"observation"} and set(envs.single_observation_space.spaces) == {"observation"}
            assert np.asarray(info["action_mask"]).shape == (2, bgenv.NUM_ACTIONS)
            obs, *_ = envs.step(sample_legal(info["num_plays"], 0))
            assert obs in envs.observation_space
        finally:
            envs.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from gymnasium.utils.env_checker import check_env
        check_env(BackgammonEnv(mask_in_observation=False))


def test_afterstates_behave_as_the_array():
    e = BackgammonEnv(opponent="pubeval")
    obs, info = e.reset(seed=5)
    a = info["afterstates"]
    plays = e.position.legal_plays(info["roll"])
    assert isinstance(a, Afterstates) and not isinstance(a, np.ndarray)
    assert len(a) == len(plays) == a.shape[0] and a.dtype == np.uint8 and a.ndim == 3
    assert np.asarray(a) is a.array and np.array_equal(a[0], plays[0].position.array)
    assert np.array_equal(np.stack(list(a)), plays.positions)
    assert np.array_equal(bg.evaluate(a).equity, bg.evaluate(plays.positions).equity)
    assert np.asarray(a, dtype=np.int64).dtype == np.int64
    assert np.array(a, copy=True) is not a.array
    assert repr(a) == f"Afterstates({len(plays)} positions)"
    assert a == Afterstates(plays.positions.copy())
