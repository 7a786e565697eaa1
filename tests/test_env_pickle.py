"""Every environment pickles and deep-copies with its game and its opponent
(issue 23): the copy goes on exactly as the original would, a network
opponent travels by value (the networks pickle through copyreg), players
that hold a process or a module are built again from their spec, and
AsyncVectorEnv workers started by ``spawn`` get the opponent by pickle."""
import copy
import pickle
import sys
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import backgammon as bg  # noqa: E402
import backgammon.env as bgenv  # noqa: E402
from backgammon import network  # noqa: E402
from backgammon.env import sample_legal  # noqa: E402
from backgammon.env.single import BackgammonEnv  # noqa: E402
from backgammon.env.vector import BackgammonVectorEnv  # noqa: E402
from backgammon.players import NetPlayer  # noqa: E402


class LastPlay(bg.Player):
    """A player the kernel does not know (chooses in Python), importable
    by the pickle of a spawned worker."""
    spec = "last"

    def choose_indices(self, boards, rolls):
        offsets, _ = bg.batch.legal_positions(boards, rolls)
        return np.diff(offsets) - 1


def _own_net():
    """A NetPlayer over networks that are not the shipped ones."""
    return NetPlayer(networks=network.networks(network.new_arrays(seed=5)))


OPPONENTS = {
    "random": lambda: "random",
    "pubeval": lambda: "pubeval",
    "net": lambda: "net",
    "net:1": lambda: "net:1",
    "own net": _own_net,
    "python player": LastPlay,
    "gnubg": lambda: "gnubg",
}


def _copies(env):
    return [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]


def _single_trace(env, steps=40):
    out = []
    for k in range(steps):
        count = env.unwrapped.action_masks().sum()
        obs, reward, term, trunc, info = env.step(int(count * 0.61))
        out.append((obs["observation"].copy(), reward, term))
        if term:
            obs, info = env.reset()
            out.append(obs["observation"].copy())
    return out


def _same(a, b):
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    return np.array_equal(a, b)


@pytest.mark.parametrize("name", list(OPPONENTS))
def test_single_env_pickles_and_copies_mid_game(name):
    if name == "gnubg":
        pytest.importorskip("gnubg_nn")
    env = gymnasium.make(bgenv.ENV_ID, opponent=OPPONENTS[name]())
    for _ in _copies(env):          # before reset too
        pass
    env.reset(seed=3)
    for _ in range(5):
        env.step(0)
    copies = _copies(env)
    want = _single_trace(env)
    for c in copies:
        assert all(_same(x, y) for x, y in zip(_single_trace(c), want))
        assert c.unwrapped.opponent is not env.unwrapped.opponent


@pytest.mark.parametrize("name", ["random", "net", "own net", "python player", "gnubg"])
def test_vector_env_pickles_and_copies_mid_game(name):
    if name == "gnubg":
        pytest.importorskip("gnubg_nn")
    for keep in (True, False):
        envs = BackgammonVectorEnv(5, opponent=OPPONENTS[name](), copy=keep, max_episode_steps=25)
        obs, info = envs.reset(seed=8)
        for _ in range(4):
            obs, reward, term, trunc, info = envs.step(sample_legal(info["num_plays"], 0))
        copies = _copies(envs)

        def trace(e):
            seen = []
            for k in range(40):
                o, r, t, tr, i = e.step((e.unwrapped._games.counts.clip(0) * 0.3).astype(np.int64))
                seen.append((o["observation"].copy(), o["action_mask"].copy(), r, t, tr, i["afterstates"].copy()))
            return seen
        want = trace(envs)
        for c in copies:
            assert all(_same(x, y) for x, y in zip(trace(c), want))


def test_aec_env_pickles_and_copies_mid_game():
    for make in (bgenv.env, bgenv.raw_env):
        e = make()
        e.reset(seed=4)
        for _ in range(6):
            e.step(int(e.observe(e.agent_selection)["action_mask"].sum()) - 1)

        def trace(x):
            seen = []
            for _ in range(30):
                agent = x.agent_selection
                if x.terminations[agent]:
                    break
                obs = x.observe(agent)
                seen.append((agent, obs["observation"].copy()))
                x.step(int(obs["action_mask"].sum()) // 3)
            return seen
        copies = _copies(e)
        want = trace(e)
        for c in copies:
            got = trace(c)
            assert [a for a, _ in got] == [a for a, _ in want] and len(want) > 10
            assert all(np.array_equal(x, y) for (_, x), (_, y) in zip(got, want))


def test_networks_travel_by_value_and_the_shipped_ones_by_name():
    own = BackgammonEnv(opponent=_own_net())
    own.reset(seed=0)
    shipped = BackgammonEnv(opponent="net")
    shipped.reset(seed=0)
    a = pickle.loads(pickle.dumps(own))
    mine, theirs = own.opponent.networks, a.opponent.networks
    assert mine is not theirs and mine is not network.default()
    assert all(np.array_equal(mine.arrays[k], theirs.arrays[k]) for k in mine.arrays)
    # the kernel's networks of the copied game are the copied player's
    assert a._games._g.nets is theirs
    b = copy.deepcopy(shipped)
    assert b.opponent.networks is network.default() and b._games._g.nets is network.default()


def test_a_player_that_holds_a_process_is_started_again_from_its_spec():
    engine = f"ubgi:{sys.executable} -m backgammon ubgi --player pubeval"
    env = BackgammonEnv(opponent=engine)
    try:
        env.reset(seed=1)
        env.step(0)
        c = pickle.loads(pickle.dumps(env))
        try:
            assert c.opponent is not env.opponent and c.opponent.spec == engine
            assert c._games._g.opponent is c.opponent      # one engine for the copy, not two
            assert _same(tuple(x[0] for x in _single_trace(c, 6)), tuple(x[0] for x in _single_trace(env, 6)))
        finally:
            c.opponent.close()
    finally:
        env.opponent.close()


def test_async_workers_get_the_opponent_by_pickle():
    # spawn: the env functions, and with them the opponent object (own
    # networks, a Python player), reach the workers by pickle.
    for opponent in (_own_net(), LastPlay()):
        fns = [lambda opponent=opponent: BackgammonEnv(opponent=opponent) for _ in range(2)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            spawned = gymnasium.vector.AsyncVectorEnv(fns, context="spawn")
        local = gymnasium.vector.SyncVectorEnv(fns)
        try:
            got, want = [], []
            for envs, seen in ((spawned, got), (local, want)):
                obs, info = envs.reset(seed=17)
                for _ in range(25):
                    obs, reward, term, trunc, info = envs.step((info["num_plays"] * 0.5).astype(np.int64))
                    seen.append((obs["observation"].copy(), reward.copy()))
            assert all(_same(x, y) for x, y in zip(got, want))
        finally:
            spawned.close()
            local.close()
