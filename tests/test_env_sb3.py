"""Stable-Baselines3 (issue 46): the VecEnv over the lockstep games checked
against SB3's own VecEnv contract (DummyVecEnv's autoreset and infos,
VecCheckNan, VecMonitor, the algorithms' own checks while training), the
afterstate policies with PPO and MaskablePPO, frozen copies and the league."""
import pickle

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("stable_baselines3")
torch = pytest.importorskip("torch")

from stable_baselines3 import A2C, PPO  # noqa: E402
from stable_baselines3.common.env_checker import check_env as sb3_check_env  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv, VecCheckNan, VecEnv, VecMonitor  # noqa: E402

import backgammon as bg  # noqa: E402
from backgammon.env import sample_legal  # noqa: E402
from backgammon.env._core import ENV_RESTART, Games  # noqa: E402
from backgammon.env.afterstate import NEG, AfterstateScorer  # noqa: E402
from backgammon.env.opponents import League, PolicyPlayer, frozen  # noqa: E402
from backgammon.env.sb3 import AfterstatePolicy, BackgammonVecEnv, SnapshotCallback  # noqa: E402
from backgammon.env.single import BackgammonEnv  # noqa: E402
from backgammon.players import Player, PubevalPlayer, player  # noqa: E402


def _steps(venv, n, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        masks = np.stack(venv.env_method("action_masks"))
        obs, rewards, dones, infos = venv.step(sample_legal(masks, rng))
        out.append((obs, rewards, dones, infos))
    return out


@pytest.mark.parametrize("options", [{}, {"afterstates": True, "max_plays": 64, "observation": "raw"},
                                     {"observation": "board", "reward": "win"}], ids=["flat", "afterstates", "board"])
def test_the_vecenv_keeps_sb3s_contract(options):
    venv = BackgammonVecEnv(8, opponent="pubeval", seed=3, **options)
    assert isinstance(venv, VecEnv) and venv.num_envs == 8
    single = BackgammonEnv(opponent="pubeval", **options)
    assert venv.observation_space == single.observation_space and venv.action_space == single.action_space
    sb3_check_env(single)                        # SB3's own checker on the single game
    dummy = DummyVecEnv([lambda: BackgammonEnv(opponent="pubeval", **options) for _ in range(2)])
    checked = VecMonitor(VecCheckNan(venv, raise_exception=True))
    for v in (checked, dummy):
        obs = v.reset()
        assert set(obs) == set(venv.observation_space.spaces)
        for key, space in venv.observation_space.spaces.items():
            assert obs[key].shape == (v.num_envs,) + space.shape and obs[key].dtype == space.dtype
    ended = 0
    for obs, rewards, dones, infos in _steps(checked, 300):
        assert rewards.shape == (8,) and rewards.dtype == np.float32 and dones.dtype == bool
        assert isinstance(infos, list) and len(infos) == 8
        for i in range(8):
            assert venv.observation_space.contains({k: v[i] for k, v in obs.items()})
            if dones[i]:
                ended += 1
                final = infos[i]["terminal_observation"]
                assert venv.observation_space.contains(final)
                assert infos[i]["TimeLimit.truncated"] is False and "episode" in infos[i]   # VecMonitor's record
                assert rewards[i] in ((-3, -2, -1, 1, 2, 3) if options.get("reward") != "win" else (-1, 1))
                # the new game's first position: its opening (15 checkers each, none borne off)
                assert obs["action_mask"][i].any()
            else:
                assert rewards[i] == 0 and "terminal_observation" not in infos[i]
    assert ended > 20
    # DummyVecEnv over the single env gives the same kind of step
    obs, rewards, dones, infos = _steps(dummy, 1)[0]
    assert set(obs) == set(venv.observation_space.spaces) and rewards.shape == (2,)


def test_same_step_restart_finishes_each_game_with_its_points():
    for opp in ("random", "pubeval", "net"):
        venv = BackgammonVecEnv(32, opponent=opp, seed=1)
        venv.reset()
        games = venv._games
        ended = 0
        for t in range(200):
            obs, rewards, dones, infos = _steps(venv, 1, seed=t)[0]
            assert not games.done.any()
            for i in np.flatnonzero(dones):
                last = bg.Position.from_array(games.last[i])
                result = last.result()
                assert result is not None                    # a finished game
                assert rewards[i] == (result.points if result.winner == 1 else -result.points)
                ended += 1
            for i in range(32):                               # every game on roll with its plays
                pos = bg.Position.from_array(games.boards[i])
                assert games.counts[i] == len(pos.legal_plays(tuple(int(d) for d in games.rolls[i])))
        assert ended > 50


class PythonPubeval(Player):
    """Pubeval chosen in Python (the kernel's POLICY_GIVEN path)."""

    def __init__(self):
        self._p = PubevalPlayer()
        self.spec = "pubeval-in-python"

    def choose_indices(self, boards, rolls):
        return self._p.choose_indices(boards, rolls)


@pytest.mark.parametrize("restart", [False, True])
def test_a_python_opponent_plays_the_games_the_kernel_opponent_plays(restart):
    # The opening play of a game restarted at once is chosen in Python first.
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    a = Games(48, player("pubeval"), rng_a, restart=restart)
    b = Games(48, PythonPubeval(), rng_b, restart=restart)
    start = np.full(48, ENV_RESTART, dtype=np.int64)
    for g in (a, b):
        g.step(start)
    pick = np.random.default_rng(0)
    for t in range(300):
        actions = (pick.random(48) * a.counts).astype(np.int64) if restart else \
            np.where(a.done.astype(bool), 0, (pick.random(48) * np.maximum(a.counts, 1)).astype(np.int64))
        ra, ta, _ = a.step(actions, 0.0, autoreset=not restart)
        rb, tb, _ = b.step(actions, 0.0, autoreset=not restart)
        assert np.array_equal(a.boards, b.boards) and np.array_equal(a.rolls, b.rolls)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)


def test_seeding_is_reproducible():
    def run(seed):
        venv = BackgammonVecEnv(6, opponent="random")
        venv.seed(seed)
        venv.reset()
        return [o["observation"].copy() for o, *_ in _steps(venv, 40)]
    assert all(np.array_equal(x, y) for x, y in zip(run(1), run(1)))
    assert not all(np.array_equal(x, y) for x, y in zip(run(1), run(2)))


def test_ppo_and_a2c_train_with_the_afterstate_policy_and_play_legal_plays():
    venv = BackgammonVecEnv(16, opponent="pubeval", afterstates=True, max_plays=96, observation="raw", seed=0)
    for algo in (PPO, A2C):
        kwargs = {"n_steps": 16, "seed": 0}
        if algo is PPO:
            kwargs.update(batch_size=64, n_epochs=2)
        model = algo(AfterstatePolicy, venv, policy_kwargs={"hidden": (32,)}, **kwargs)
        model.learn(1024)
        obs = venv.reset()
        for _ in range(30):
            actions, _ = model.predict(obs, deterministic=False)
            assert (actions < venv.num_plays).all()
            obs, *_ = venv.step(actions)


def test_maskable_ppo_with_the_afterstate_policy_and_the_flat_one():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from backgammon.env.sb3 import MaskableAfterstatePolicy
    venv = BackgammonVecEnv(8, opponent="random", afterstates=True, max_plays=64, seed=0)
    model = sb3_contrib.MaskablePPO(MaskableAfterstatePolicy, venv, n_steps=16, batch_size=64, n_epochs=1, seed=0,
                                    policy_kwargs={"tied": True})
    model.learn(256)
    flat = BackgammonVecEnv(8, opponent="random", mask_in_observation=False, seed=0)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", flat, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    obs = flat.reset()
    actions, _ = model.predict(obs, action_masks=flat.action_masks())
    assert (actions < flat.num_plays).all()


def test_the_scorer_evaluates_only_the_plays():
    env = BackgammonEnv(afterstates=True, max_plays=32, cube=True)
    obs, info = env.reset(seed=1)
    scorer = AfterstateScorer.for_space(env.observation_space, env.action_space)
    batch = {k: torch.as_tensor(v[None]) for k, v in obs.items()}
    logits, values = scorer(batch)
    mask = obs["action_mask"].astype(bool)
    assert logits.shape == (1, 37)
    assert (logits[0, ~torch.as_tensor(mask)] == NEG).all() and (logits[0, torch.as_tensor(mask)] > NEG).all()
    # the same afterstate gets the same score wherever it sits
    twice = {k: v.clone() for k, v in batch.items()}
    twice["afterstates"][0, 1] = twice["afterstates"][0, 0]
    twice["action_mask"][0, :2] = 1
    l2, _ = scorer(twice)
    assert l2[0, 0] == l2[0, 1]


def test_frozen_copies_do_not_change_as_training_goes_on(tmp_path):
    venv = BackgammonVecEnv(8, opponent="random", afterstates=True, max_plays=64, seed=0)
    model = PPO(AfterstatePolicy, venv, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    snapshot = frozen(model)
    boards = np.repeat(bg.Position.initial().array[None], 15, axis=0)
    rolls = np.array([(a, b) for a in range(1, 7) for b in range(1, 7) if a < b], dtype=np.uint8)
    before = snapshot.choose_indices(boards, rolls)
    weights = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(512)
    assert any(not torch.equal(w, p) for w, p in zip(weights, model.policy.parameters()))
    assert np.array_equal(snapshot.choose_indices(boards, rolls), before)
    # from a checkpoint, the same choices as the model
    path = tmp_path / "model.zip"
    model.save(path)
    again = frozen(str(path), algorithm=PPO)
    assert np.array_equal(again.choose_indices(boards, rolls), frozen(model).choose_indices(boards, rolls))
    # a frozen copy is a Player: it plays duels and is an environment's opponent
    r = bg.duel(snapshot, "random", games=20, seed=1, workers=1)
    assert r.games == 20
    e = BackgammonEnv(opponent=snapshot, afterstates=True, max_plays=64)
    e.reset(seed=0)
    assert pickle.loads(pickle.dumps(e)).opponent.spec == "frozen"


def test_policy_player_refuses_illegal_choices():
    bad = PolicyPlayer(lambda obs: np.full(len(obs["observation"]), 3071))
    with pytest.raises(ValueError, match="not legal plays"):
        bad.choose(bg.Position.initial(), "31")
    with pytest.raises(TypeError, match="policy"):
        PolicyPlayer(3)


def test_league_draws_an_opponent_per_game_and_keeps_it_for_the_game():
    calls = []

    class Tagged(Player):
        def __init__(self, tag):
            self.tag, self.spec = tag, f"tag{tag}"

        def choose_indices(self, boards, rolls):
            calls.append((self.tag, len(boards)))
            return np.zeros(len(boards), dtype=np.int64)

    league = League([Tagged(0), Tagged(1), Tagged(2)], weights=[1, 1, 2], seed=0)
    venv = BackgammonVecEnv(64, opponent=league, seed=0)
    venv.reset()
    first = dict(league.assigned)
    assert set(first) == set(range(64)) and set(first.values()) == {0, 1, 2}
    seen_ends = 0
    for t in range(60):
        obs, rewards, dones, infos = _steps(venv, 1, seed=t)[0]
        for i in range(64):
            if not dones[i] and first.get(i) is not None:
                assert league.assigned[i] == first[i]      # one member for the whole game
        for i in np.flatnonzero(dones):
            seen_ends += 1
            first[i] = league.assigned[i]                  # drawn again for the new game
    assert seen_ends > 0 and {t for t, _ in calls} == {0, 1, 2}
    # latest=1: always the newest member
    league = League(["random"], latest=1.0, seed=0)
    league.add(Tagged(9))
    league.new_games(np.arange(10))
    assert set(league.assigned.values()) == {1}
    with pytest.raises(ValueError, match="no members"):
        League().new_games([0])


def test_snapshot_callback_fills_a_league_for_self_play():
    league = League(["pubeval"], latest=0.5, seed=0)
    venv = BackgammonVecEnv(8, opponent=league, afterstates=True, max_plays=64, seed=0)
    model = PPO(AfterstatePolicy, venv, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(640, callback=SnapshotCallback(league, every=256))
    assert len(league.members) == 3 and league.members[-1].spec.startswith("snapshot@")
