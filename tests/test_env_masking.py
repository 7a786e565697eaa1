"""Action masks for maskable learners (issue 23): ``action_masks()`` on the
single-agent and vector envs (the method sb3-contrib's MaskablePPO and
ActionMasker look for), the mask left out of the observation, and the
vectorised ``sample_legal``.  The interface tests always run; the
MaskablePPO run needs sb3-contrib (and torch) and skips without them.
Speed is measured in benchmarks/test_env_sample.py, not here."""
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import backgammon.env as bgenv  # noqa: E402
from backgammon.env import NUM_ACTIONS, sample_legal  # noqa: E402
from backgammon.env.single import BackgammonEnv  # noqa: E402
from backgammon.env.vector import BackgammonVectorEnv  # noqa: E402


def _chi2_ok(counts, k):
    """A chi-squared test of uniformity over k outcomes, far out in the
    tail (the draws are seeded, so the test is not flaky)."""
    expected = counts.sum() / k
    stat = float(((counts - expected) ** 2 / expected).sum())
    df = k - 1
    return stat < df + 6 * np.sqrt(2 * df) + 10


# -- sample_legal ---------------------------------------------------------------------

def test_sample_legal_from_numbers_of_plays_is_uniform():
    ks = np.array([1, 2, 5, 16, 44])
    reps = 20_000
    counts = np.tile(ks, reps)
    got = sample_legal(counts, np.random.default_rng(1)).reshape(reps, len(ks))
    assert got.dtype == np.int64
    for j, k in enumerate(ks):
        assert got[:, j].min() >= 0 and got[:, j].max() < k
        assert _chi2_ok(np.bincount(got[:, j], minlength=k), k)


def test_sample_legal_from_masks_is_uniform_over_any_set_entries():
    rng = np.random.default_rng(2)
    reps = 4_000
    rows = np.zeros((4, NUM_ACTIONS), dtype=bool)
    rows[0, :7] = True                                  # a prefix, as the environments give
    rows[1, [3, 10, 2999, NUM_ACTIONS - 1]] = True      # any entries
    rows[2, 0] = True                                   # the pass
    masks = np.tile(rows, (reps, 1))                    # row 3: none legal
    for m in (masks, masks.astype(np.int8)):
        got = sample_legal(m, rng).reshape(reps, 4)
        for j in range(3):
            legal = np.flatnonzero(rows[j])
            assert np.isin(got[:, j], legal).all()
            assert _chi2_ok(np.array([(got[:, j] == a).sum() for a in legal]), len(legal))
        assert (got[:, 3] == 0).all()


def test_sample_legal_shapes_seeds_and_errors():
    assert isinstance(sample_legal(5, 0), int) and 0 <= sample_legal(5, 0) < 5
    one = np.zeros(NUM_ACTIONS, dtype=np.int8)
    one[:3] = 1
    assert isinstance(sample_legal(one, 0), int) and sample_legal(one, 0) < 3
    grid = np.zeros((2, 3, 8), dtype=bool)
    grid[..., 2] = True
    assert sample_legal(grid, 0).shape == (2, 3) and (sample_legal(grid, 0) == 2).all()
    assert sample_legal([4, 4, 4], 7).tolist() == sample_legal(np.array([4, 4, 4]), 7).tolist()
    assert sample_legal(np.zeros(3, dtype=np.int64), 0).tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match="negative"):
        sample_legal(np.array([2, -1]), 0)
    with pytest.raises(TypeError, match="mask_or_num_plays"):
        sample_legal(np.array([0.5, 2.0]), 0)
    with pytest.raises(ValueError, match="axis"):
        sample_legal(np.bool_(True), 0)


def test_sample_legal_gives_only_legal_steps():
    envs = BackgammonVectorEnv(64, opponent="random", illegal_reward=None)
    obs, info = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    for k in range(60):
        source = info["num_plays"] if k % 2 else envs.action_masks()
        obs, reward, term, trunc, info = envs.step(sample_legal(source, rng))   # raises on an illegal play
        assert "illegal_action" not in info


# -- action_masks, the interface MaskablePPO uses ---------------------------------------

def test_single_env_action_masks_through_wrappers():
    # sb3-contrib calls env.get_wrapper_attr("action_masks")() on a gymnasium
    # env, and env_method("action_masks") on each env of a VecEnv.
    env = gymnasium.make(bgenv.ENV_ID, opponent="pubeval", mask_in_observation=False)
    with pytest.raises(RuntimeError, match="reset"):
        env.get_wrapper_attr("action_masks")()
    obs, info = env.reset(seed=0)
    assert env.has_wrapper_attr("action_masks")    # what is_masking_supported asks through a VecEnv
    assert set(obs) == {"observation"} and obs["observation"].shape == (bgenv.OBS_SIZE,)
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = env.get_wrapper_attr("action_masks")()
        assert mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,)
        plays = env.unwrapped.position.legal_plays(info["roll"])
        assert mask[:len(plays)].all() and not mask[len(plays):].any() and info["num_plays"] == len(plays)
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        # a masked categorical, as MaskablePPO's: logits of illegal actions to -inf
        logits = rng.normal(size=NUM_ACTIONS)
        logits[~mask] = -np.inf
        p = np.exp(logits - logits.max())
        action = int(rng.choice(NUM_ACTIONS, p=p / p.sum()))
        obs, reward, term, trunc, info = env.step(action)
        assert "illegal_action" not in info
        if term:
            assert not env.get_wrapper_attr("action_masks")().any()
            obs, info = env.reset()


def test_vector_env_action_masks():
    for copy in (True, False):
        envs = BackgammonVectorEnv(8, copy=copy, mask_in_observation=False)
        with pytest.raises(RuntimeError, match="reset"):
            envs.action_masks()
        obs, info = envs.reset(seed=1)
        assert set(obs) == {"observation"}
        for _ in range(30):
            m = envs.action_masks()
            assert m.shape == (8, NUM_ACTIONS) and m.dtype == np.bool_
            assert np.array_equal(m.sum(axis=1), info["num_plays"])
            assert np.array_equal(m, info["action_mask"].astype(bool))
            obs, reward, term, trunc, info = envs.step(sample_legal(m, 0))


def test_mask_in_observation_is_checked_and_the_default_keeps_it():
    assert set(BackgammonEnv().observation_space.spaces) == {"observation", "action_mask"}
    for bad in (0, "no", None):
        with pytest.raises(TypeError, match="mask_in_observation"):
            BackgammonEnv(mask_in_observation=bad)
        with pytest.raises(TypeError, match="mask_in_observation"):
            BackgammonVectorEnv(2, mask_in_observation=bad)


def test_action_masker_style_wrapper_interface():
    # What sb3-contrib's ActionMasker does, without sb3-contrib: a wrapper
    # whose action_masks() calls a function of the env; and what its
    # is_masking_supported / get_action_masks ask of a plain gymnasium env.
    class ActionMasker(gymnasium.Wrapper):
        def __init__(self, env, fn):
            super().__init__(env)
            self.fn = fn

        def action_masks(self):
            return self.fn(self.env)

    env = ActionMasker(gymnasium.make(bgenv.ENV_ID), lambda e: e.unwrapped.action_masks())
    obs, info = env.reset(seed=2)
    assert callable(env.get_wrapper_attr("action_masks"))
    assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
    sync = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(bgenv.ENV_ID) for _ in range(3)])
    obs, info = sync.reset(seed=0)
    stacked = np.stack(sync.call("action_masks"))
    assert np.array_equal(stacked, info["action_mask"].astype(bool))
    sync.close()


# -- MaskablePPO -----------------------------------------------------------------------

def test_maskable_ppo_learns_on_the_single_env():
    # The recipe of docs/environments.md, a few thousand steps: it runs,
    # only legal actions are taken, and the trained policy predicts legal
    # plays with the masks.  (examples/maskable_ppo.py trains for longer.)
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    from stable_baselines3.common.env_util import make_vec_env
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    torch.set_num_threads(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # a callable: make_vec_env would otherwise ask for render_mode="rgb_array", which the env has not
        venv = make_vec_env(lambda: gymnasium.make(bgenv.ENV_ID, opponent="random", mask_in_observation=False),
                            n_envs=4, seed=0)
        assert is_masking_supported(venv)
        model = sb3_contrib.MaskablePPO("MultiInputPolicy", venv, n_steps=256, batch_size=256, n_epochs=2,
                                        seed=0, device="cpu", policy_kwargs={"net_arch": [64]})
        model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    env = gymnasium.make(bgenv.ENV_ID, opponent="random", mask_in_observation=False)
    obs, info = env.reset(seed=1)
    for _ in range(100):
        action, _ = model.predict(obs, action_masks=get_action_masks(env), deterministic=True)
        assert 0 <= int(action) < info["num_plays"]
        obs, reward, term, trunc, info = env.step(int(action))
        assert "illegal_action" not in info
        if term:
            obs, info = env.reset()
    venv.close()
