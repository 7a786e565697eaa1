"""Reinforcement-learning environments (PettingZoo and Gymnasium).

``pip install 'backgammon[rl]'`` brings PettingZoo and Gymnasium; the core
package never needs them.

- ``env()`` / ``raw_env()``: the PettingZoo AEC environment, two agents
  (``player_0``, ``player_1``), one whole turn per step.
- ``gymnasium.make("backgammon/Backgammon-v0", opponent="pubeval")``: one
  agent against an opponent (``random``, ``pubeval``, ``net``, ``net:1``, ...);
  ``gymnasium.make_vec(..., num_envs=N, vectorization_mode="vector_entry_point")``
  gives N games in lockstep.  Importing ``backgammon.env`` registers the id.
  Gymnasium's own ``SyncVectorEnv`` and ``AsyncVectorEnv``
  (``vectorization_mode="sync"`` or ``"async"``) work over the
  single-agent environment too.
- ``sample_legal``: a uniformly random legal action per game, vectorised;
  ``action_masks()`` on the Gymnasium environments, for sb3-contrib's
  ``MaskablePPO``.

See docs/environments.md for the action and observation design.

>>> import gymnasium, backgammon.env
>>> envs = gymnasium.make_vec(ENV_ID, num_envs=4, vectorization_mode="sync")
>>> obs, info = envs.reset(seed=0)
>>> obs["observation"].shape, info["num_plays"].shape, len(info["afterstates"][0]) == info["num_plays"][0]
((4, 210), (4,), np.True_)
>>> obs, reward, terminated, truncated, info = envs.step(sample_legal(info["num_plays"], rng=0))
>>> envs.close()
"""
from __future__ import annotations

from ._core import NUM_ACTIONS, OBS_SIZE, Afterstates, encode, final_points, sample_legal

__all__ = ["env", "raw_env", "ENV_ID", "NUM_ACTIONS", "OBS_SIZE", "encode", "register", "sample_legal",
           "Afterstates", "final_points"]

ENV_ID = "backgammon/Backgammon-v0"
"""The Gymnasium id of the single-agent (and vector) environment.

>>> import gymnasium
>>> ENV_ID in gymnasium.registry
True
"""


def raw_env(render_mode: str | None = None, **options):
    """The PettingZoo AEC environment without wrappers (see ``aec.BackgammonAEC``);
    ``options`` are its keywords (``observation``, ``afterstates``,
    ``max_plays``, ``cube``, ``match_length``, ``reward``, ``rules``).

    >>> e = raw_env()
    >>> e.reset(seed=0)
    >>> e.agent_selection in e.possible_agents, e.observe(e.agent_selection)["action_mask"].shape
    (True, (3072,))
    """
    from .aec import BackgammonAEC
    return BackgammonAEC(render_mode=render_mode, **options)


def env(render_mode: str | None = None, illegal_reward: float | None = None, **options):
    """The PettingZoo AEC environment with PettingZoo's order enforcing
    and our own check of each action in place of its out-of-bounds
    assertion (``aec.ActionsChecked``): one that is not an int is a
    TypeError, one outside the action space an ``IllegalPlayError`` (never
    PettingZoo's bare AssertionError).  An illegal action raises
    ``IllegalPlayError``; with ``illegal_reward`` (a finite number, say -1) it ends the game
    instead, giving that reward to the agent that made it (PettingZoo's
    ``TerminateIllegalWrapper``, as its chess environment does).
    ``options`` as for ``raw_env``.

    >>> e = env()
    >>> e.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = e.last()
    >>> e.step(int(obs["action_mask"].argmax()))   # the first legal play
    >>> sum(e.rewards.values())
    0
    """
    from pettingzoo.utils import wrappers
    from .._validate import number
    from .aec import ActionsChecked
    if illegal_reward is not None:
        illegal_reward = number("illegal_reward", illegal_reward)
    e = raw_env(render_mode=render_mode, **options)
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    return ActionsChecked(e)


def register() -> None:
    """Register ``backgammon/Backgammon-v0`` with Gymnasium (done on import
    when Gymnasium is installed; calling it again does nothing).

    >>> register()
    >>> import gymnasium
    >>> gymnasium.spec(ENV_ID).vector_entry_point
    'backgammon.env.vector:BackgammonVectorEnv'
    """
    import gymnasium
    if ENV_ID in gymnasium.registry:
        return
    gymnasium.register(
        id=ENV_ID,
        entry_point="backgammon.env.single:BackgammonEnv",
        vector_entry_point="backgammon.env.vector:BackgammonVectorEnv",
        kwargs={"opponent": "random"},
        disable_env_checker=False,
    )


try:
    import gymnasium  # noqa: F401
except ImportError:   # the environments need the rl extra; the rest of the package does not
    pass
else:
    register()
