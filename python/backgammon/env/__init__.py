"""Reinforcement-learning environments (PettingZoo and Gymnasium).

``pip install 'backgammon[rl]'`` brings PettingZoo and Gymnasium; the core
package never needs them.

- ``env()`` / ``raw_env()``: the PettingZoo AEC environment, two agents
  (``player_0``, ``player_1``), one whole turn per step.
- ``gymnasium.make("backgammon/Backgammon-v0", opponent="pubeval")``: one
  agent against an opponent (``random``, ``pubeval``, ``net``, ``net:1``, ...);
  ``gymnasium.make_vec(..., num_envs=N, vectorization_mode="vector_entry_point")``
  gives N games in lockstep.  Importing ``backgammon.env`` registers the id.

See docs/environments.md for the action and observation design.
"""
from __future__ import annotations

from ._core import NUM_ACTIONS, OBS_SIZE, encode

__all__ = ["env", "raw_env", "ENV_ID", "NUM_ACTIONS", "OBS_SIZE", "encode", "register"]

#: The Gymnasium id of the single-agent (and vector) environment.
ENV_ID = "backgammon/Backgammon-v0"


def raw_env(render_mode: str | None = None):
    """The PettingZoo AEC environment without wrappers (see ``aec.BackgammonAEC``)."""
    from .aec import BackgammonAEC
    return BackgammonAEC(render_mode=render_mode)


def env(render_mode: str | None = None, illegal_reward: float | None = None):
    """The PettingZoo AEC environment with PettingZoo's usual wrappers
    (out-of-bounds assertion, order enforcing).  An illegal action raises
    ``IllegalPlayError``; with ``illegal_reward`` (say -1) it ends the game
    instead, giving that reward to the agent that made it (PettingZoo's
    ``TerminateIllegalWrapper``, as its chess environment does)."""
    from pettingzoo.utils import wrappers
    e = raw_env(render_mode=render_mode)
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def register() -> None:
    """Register ``backgammon/Backgammon-v0`` with Gymnasium (done on import
    when Gymnasium is installed; calling it again does nothing)."""
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
