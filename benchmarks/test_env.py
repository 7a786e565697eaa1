"""Environment steps per second (pytest-benchmark): the PettingZoo AEC env
against OpenSpiel's backgammon driven from Python, and the vector env.

A step is one whole turn (a roll and its play).  ``items`` is the steps of
a round; the ratio ours / OpenSpiel is in the PettingZoo benchmarks'
extra_info when OpenSpiel ran in the same session.

    pytest benchmarks/test_env.py --benchmark-min-rounds=3
"""
import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import backgammon.env as bgenv  # noqa: E402
from backgammon.env.vector import BackgammonVectorEnv  # noqa: E402

TURNS = 5_000
_rates = {}


def _aec_turns(e, n, seed):
    """Random legal play for ``n`` turns, observing each as an agent does."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    done = 0
    while done < n:
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.reset()
            continue
        e.step(int(rng.random() * len(info["afterstates"])))
        done += 1


def _openspiel_turns(game, n, seed):
    """The same with OpenSpiel: a turn is a chance node (the roll) and the
    mover's actions after it; the mover observes before each action."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    done = 0
    while done < n:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(outcomes[int(rng.random() * len(outcomes))])  # 21 outcomes; uniform is enough
            done += 1
            continue
        state.observation_tensor(state.current_player())
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.random() * len(actions))])


def _record(benchmark, name, n):
    benchmark.extra_info["items"] = n
    stats = benchmark.stats.stats
    _rates[name] = n / stats.min
    if name != "open_spiel" and "open_spiel" in _rates:
        benchmark.extra_info["ratio_to_open_spiel"] = round(_rates[name] / _rates["open_spiel"], 2)


@pytest.mark.benchmark(group="env")
def test_open_spiel_turns(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("backgammon")
    benchmark.pedantic(_openspiel_turns, args=(game, TURNS, 0), rounds=3, iterations=1)
    _record(benchmark, "open_spiel", TURNS)


@pytest.mark.benchmark(group="env")
@pytest.mark.parametrize("entry", ["raw_env", "env"])
def test_pettingzoo_turns(benchmark, entry):
    e = getattr(bgenv, entry)()
    benchmark.pedantic(_aec_turns, args=(e, TURNS, 0), rounds=3, iterations=1)
    _record(benchmark, entry, TURNS)


@pytest.mark.benchmark(group="env")
def test_gymnasium_single_turns(benchmark):
    import gymnasium
    e = gymnasium.make("backgammon/Backgammon-v0", opponent="random").unwrapped
    rng = np.random.default_rng(0)

    def run():
        obs, info = e.reset(seed=0)
        for _ in range(TURNS):
            obs, reward, term, trunc, info = e.step(int(rng.random() * len(info["afterstates"])))
            if term:
                obs, info = e.reset()

    benchmark.pedantic(run, rounds=3, iterations=1)
    _record(benchmark, "gymnasium_single", TURNS)


@pytest.mark.benchmark(group="env-vector")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("opponent", ["random", "pubeval"])
@pytest.mark.parametrize("copy", [False, True], ids=["nocopy", "copy"])
def test_vector_env_steps(benchmark, copy, opponent, threads):
    # Steps of N = 1,024 games: each is the agent's turn and the opponent's.
    n, steps = 1024, 50
    envs = BackgammonVectorEnv(n, opponent=opponent, copy=copy, threads=threads)
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=0)
    state = {"info": info}

    def run():
        info = state["info"]
        for _ in range(steps):
            actions = (rng.random(n) * info["num_plays"]).astype(np.int64)
            obs, reward, term, trunc, info = envs.step(actions)
        state["info"] = info

    run()   # warm up: past the openings, games of every length
    benchmark.pedantic(run, rounds=5, iterations=1)
    benchmark.extra_info["items"] = n * steps
    benchmark.extra_info["num_envs"] = n
    benchmark.extra_info["threads"] = threads


# -- Stable-Baselines3: the VecEnv over the lockstep games against SB3's DummyVecEnv over
# the Gymnasium environment (gymnasium.make's wrappers and SB3's Monitor, as make_vec_env
# builds it), N games each, random legal actions from the masks as MaskablePPO reads them.
SB3_STEPS = 6_000


def _sb3_steps(venv, n, steps):
    rng = np.random.default_rng(0)
    for _ in range(steps):
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(bgenv.sample_legal(masks, rng))


@pytest.mark.benchmark(group="env-sb3")
@pytest.mark.parametrize("n", [16, 64, 256])
@pytest.mark.parametrize("kind", ["dummy_vec_env", "lockstep"])
def test_sb3_vec_env_steps(benchmark, kind, n):
    pytest.importorskip("stable_baselines3")
    import gymnasium
    from stable_baselines3.common.env_util import make_vec_env
    from backgammon.env.sb3 import BackgammonVecEnv
    if kind == "lockstep":
        venv = BackgammonVecEnv(n, opponent="random", seed=0)
        steps = max(SB3_STEPS * 4 // n, 20)
    else:
        venv = make_vec_env(lambda: gymnasium.make("backgammon/Backgammon-v0", opponent="random"), n_envs=n, seed=0)
        steps = max(SB3_STEPS // n, 5)
    venv.reset()
    _sb3_steps(venv, n, 5)
    benchmark.pedantic(_sb3_steps, args=(venv, n, steps), rounds=3, iterations=1)
    benchmark.extra_info["items"] = n * steps
    benchmark.extra_info["num_envs"] = n
    _rates[(kind, n)] = n * steps / benchmark.stats.stats.min
    other = ("dummy_vec_env", n)
    if kind == "lockstep" and other in _rates:
        benchmark.extra_info["ratio_to_dummy_vec_env"] = round(_rates[(kind, n)] / _rates[other], 1)


@pytest.mark.benchmark(group="env-options")
@pytest.mark.parametrize("options", [{"observation": "net"}, {"observation": "board"},
                                     {"afterstates": True, "observation": "raw", "max_plays": 512}],
                         ids=["net", "board", "afterstates-raw-512"])
def test_vector_env_steps_with_options(benchmark, options):
    # N = 256 games, one thread: what each option costs over the default encoding.
    n, steps = 256, 20
    envs = BackgammonVectorEnv(n, opponent="random", copy=True, threads=1, **options)
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=0)
    state = {"info": info}

    def run():
        info = state["info"]
        for _ in range(steps):
            obs, reward, term, trunc, info = envs.step((rng.random(n) * info["num_plays"]).astype(np.int64))
        state["info"] = info

    run()
    benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["items"] = n * steps
