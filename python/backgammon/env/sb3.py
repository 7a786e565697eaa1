"""Stable-Baselines3: a ``VecEnv`` over the lockstep games, and policies
that score afterstates.

- :class:`BackgammonVecEnv`: N cubeless games of the agent against an
  opponent in lockstep, stepped by the environments' kernels with no
  Python loop over games, as an SB3 ``VecEnv`` (same-step autoreset with
  ``info["terminal_observation"]``, ``action_masks()`` for MaskablePPO).
  It takes the environments' options (``observation``, ``afterstates``,
  ``max_plays``, ``reward``).
- :class:`AfterstateExtractor`, :class:`AfterstatePolicy`,
  :class:`MaskableAfterstatePolicy`: with ``afterstates=True``, a shared
  network scores every afterstate (``afterstate.AfterstateScorer``) and
  the scores are the logits; the state's value is the afterstates'
  values weighted by the policy.  ``AfterstatePolicy`` works with stock
  PPO and A2C (padding is masked inside the policy),
  ``MaskableAfterstatePolicy`` with sb3-contrib's MaskablePPO.
- :class:`SnapshotCallback`: puts a frozen copy of the learner into a
  :class:`~backgammon.env.opponents.League` every ``every`` steps
  (self-play against past selves).

Needs stable-baselines3 (and torch).

>>> from stable_baselines3 import PPO
>>> venv = BackgammonVecEnv(16, opponent="pubeval", afterstates=True, max_plays=64, seed=0)
>>> model = PPO(AfterstatePolicy, venv, n_steps=16, batch_size=64, n_epochs=1, seed=0)
>>> _ = model.learn(256)
>>> obs = venv.reset()
>>> actions, _ = model.predict(obs, deterministic=True)
>>> bool((actions < venv.num_plays).all())
True
"""
from __future__ import annotations

from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.policies import ActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import VecEnv
from torch import nn

from .._parallel import cores
from .._validate import integer, number
from ..dice import generator, seed_sequence
from ._core import ENV_RESTART, NUM_ACTIONS, Games, opponent_player
from ._options import Options
from .afterstate import AfterstateScorer, masked_softmax_value
from .opponents import League, frozen

__all__ = ["BackgammonVecEnv", "AfterstateExtractor", "AfterstatePolicy", "MaskableAfterstatePolicy",
           "SnapshotCallback"]


class BackgammonVecEnv(VecEnv):
    """``num_envs`` cubeless money games of the agent against ``opponent``
    (a player spec, a Player, a frozen policy or a League), as a
    Stable-Baselines3 ``VecEnv``.

    A step plays every game's action, the opponent's answers and the next
    rolls in two kernel calls, with no Python loop over games.  A game that
    ends starts again in the same step (SB3's autoreset): its row of the
    returned observation is the new game's, ``dones[i]`` is True and
    ``infos[i]["terminal_observation"]`` the final one (and
    ``"TimeLimit.truncated"`` False: games are never cut).  Observations
    are the single-agent environment's dicts (``observation``,
    ``afterstates``, ``max_plays``, ``mask_in_observation``; ``reward``
    ``"points"`` or ``"win"``).  ``action_masks()`` (N, actions) bools is
    what MaskablePPO asks for.  An action outside a game's plays ends it
    with ``illegal_reward`` (default -3) and ``infos[i]["illegal_action"]``.
    ``seed``: the games' seed (or ``venv.seed(s)`` before ``reset()``, as
    SB3 does it); ``threads`` share each step (default 1).
    """

    def __init__(self, num_envs: int = 8, opponent="random", *, observation: str = "tesauro",
                 afterstates: bool = False, max_plays: int | None = None, reward: str = "points",
                 mask_in_observation: bool = True, illegal_reward: float = -3.0, threads: int | None = 1,
                 seed=None):
        self.options = Options.of(observation, afterstates, max_plays, False, 0, reward, None, mask_in_observation)
        self.illegal_reward = number("illegal_reward", illegal_reward)
        self.threads = cores() if threads is None else integer("threads", threads, low=1)
        self.opponent = opponent_player(opponent)
        self.render_mode = None
        self._seed = seed
        self._games: Games | None = None
        self._actions: np.ndarray | None = None
        super().__init__(integer("num_envs", num_envs, low=1), self.options.observation_space(),
                         self.options.action_space())

    # -- the VecEnv interface ---------------------------------------------------------------
    def seed(self, seed: int | None = None):
        """Seed the next ``reset()`` (SB3 calls it with the model's seed)."""
        self._seed = seed
        return [seed] * self.num_envs

    def reset(self):
        seed = self._seed if self._seed is not None else (self._seeds[0] if self._seeds[0] is not None else None)
        self._seed = None
        self._reset_seeds()
        if seed is not None or self._games is None:
            rng = generator(seed_sequence(seed))
        else:
            rng = self._games.rng     # an unseeded reset goes on with the same dice stream
        self._games = Games(self.num_envs, self.opponent, rng, self.threads, fresh=True, restart=True)
        self._games.step(np.full(self.num_envs, ENV_RESTART, dtype=np.int64))
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._observe()[0]

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self):
        g = self._games
        if g is None:
            raise RuntimeError("call reset() before step()")
        actions = self._actions
        if actions is None or actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},)")
        if actions.dtype == np.bool_ or not np.issubdtype(actions.dtype, np.integer):
            actions = actions.astype(np.int64)      # SB3 hands discrete actions over as ints already
        actions = np.array(actions, dtype=np.int64, order="C")
        bad = (actions < 0) | (actions >= self.options.max_plays)
        if bad.any():
            actions[bad] = NUM_ACTIONS          # not a play: the kernel ends the game as illegal
        reward, terminated, illegal = g.step(actions, self.illegal_reward)
        obs, _ = self._observe()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        ended = np.flatnonzero(terminated)
        if len(ended):
            assert g.last is not None
            final, _ = self.options.observe(g.last[ended], None, np.zeros((0, 2, 25), dtype=np.uint8),
                                            np.zeros(len(ended) + 1, dtype=np.int64),
                                            np.zeros((len(ended), self.options.max_plays), dtype=np.int8))
            for j, i in enumerate(ended.tolist()):
                infos[i]["terminal_observation"] = {k: v[j] for k, v in final.items()}
                infos[i]["TimeLimit.truncated"] = False
        if illegal.any():
            for i in np.flatnonzero(illegal).tolist():
                infos[i]["illegal_action"] = True
        self._actions = None
        return obs, self.options.win_reward(reward), terminated, infos

    def _observe(self):
        g = self._games
        assert g is not None
        return self.options.observe(g.boards, g.rolls, g.children, g.offsets, g.mask, g.obs)

    @property
    def num_plays(self) -> np.ndarray:
        """Each game's number of legal plays (within ``max_plays``)."""
        assert self._games is not None
        return np.minimum(np.maximum(self._games.counts, 0), self.options.max_plays)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game, (num_envs, actions) bools."""
        g = self._games
        if g is None:
            raise RuntimeError("call reset() before action_masks()")
        return np.ascontiguousarray(g.mask[:, :self.options.max_plays]).view(np.bool_)

    def close(self) -> None:
        pass

    def get_images(self):
        return [None] * self.num_envs

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        rows = list(self._get_indices(indices))
        if attr_name == "action_masks":
            return [lambda i=i: self.action_masks()[i] for i in rows]
        value = getattr(self, attr_name)
        return [value for _ in rows]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


class _Split(nn.Module):
    # The extractor's features are (logits, values): the actor reads the
    # logits, the critic both.
    def __init__(self, actions: int):
        super().__init__()
        self.latent_dim_pi = actions
        self.latent_dim_vf = 2 * actions

    def forward(self, features):
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features):
        return features[:, :self.latent_dim_pi]

    def forward_critic(self, features):
        return features


class _PolicyValue(nn.Module):
    # The state's value: the actions' values weighted by the policy.
    def __init__(self, actions: int):
        super().__init__()
        self.actions = actions

    def forward(self, latent):
        return masked_softmax_value(latent[:, :self.actions], latent[:, self.actions:])


def _shape(space) -> tuple[int, ...]:
    return tuple(int(d) for d in space.shape)


class AfterstateExtractor(BaseFeaturesExtractor):
    """The features of an afterstate observation: every action's logit
    and value from :class:`~backgammon.env.afterstate.AfterstateScorer`
    (a shared network over each afterstate's encoding, only the real rows
    evaluated; the cube actions from a head on the state), (B, 2 x
    actions).  ``hidden``: the shared network's hidden layers; ``tied``:
    logits are the values times a learnt inverse temperature.

    >>> from backgammon.env.single import BackgammonEnv
    >>> space = BackgammonEnv(afterstates=True, max_plays=32).observation_space
    >>> AfterstateExtractor(space).features_dim
    64
    """

    def __init__(self, observation_space: spaces.Dict, actions: int | None = None, hidden=(64,), tied: bool = False):
        spaces_ = observation_space.spaces
        after = _shape(spaces_["afterstates"])
        actions = after[0] if actions is None else actions
        super().__init__(observation_space, 2 * actions)
        self.actions = actions
        self.scorer = AfterstateScorer(after[1:], after[0], tuple(hidden), _shape(spaces_["observation"]),
                                       actions > after[0], _shape(spaces_["cube"])[0] if "cube" in spaces_ else 14,
                                       tied)

    def forward(self, observations) -> torch.Tensor:
        logits, values = self.scorer(observations)
        return torch.cat([logits, values], dim=1)


def _afterstate_kwargs(observation_space, action_space, kwargs: dict, hidden, tied: bool) -> dict:
    # The policy around AfterstateExtractor: the logits are the scores (no
    # action layer), the value the policy-weighted values (no value layer).
    if "afterstates" not in observation_space.spaces:
        raise ValueError("observation_space: an afterstate policy needs afterstates=True")
    kwargs.setdefault("features_extractor_class", AfterstateExtractor)
    extra = dict(kwargs.pop("features_extractor_kwargs", None) or {})
    extra.setdefault("actions", int(action_space.n))
    extra.setdefault("hidden", tuple(hidden))
    extra.setdefault("tied", tied)
    kwargs["features_extractor_kwargs"] = extra
    kwargs["net_arch"] = []
    kwargs.setdefault("ortho_init", False)
    kwargs["share_features_extractor"] = True
    return kwargs


def _afterstate_heads(policy: Any, lr_schedule) -> None:
    # After SB3 built its heads: the logits pass through, the value is
    # computed from the features, and the optimizer sees what is left.
    actions = int(policy.action_space.n)
    setattr(policy, "action_net", nn.Identity())
    setattr(policy, "value_net", _PolicyValue(actions))
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=lr_schedule(1), **policy.optimizer_kwargs)


class AfterstatePolicy(ActorCriticPolicy):
    """An SB3 actor-critic policy over afterstates (PPO, A2C): each legal
    play's logit is a shared network's score of its afterstate
    (:class:`AfterstateExtractor`), padding and illegal actions get
    ``-1e8``, and the value is the afterstates' values weighted by the
    policy.  ``hidden``: the shared network's hidden layers; ``tied``: each
    logit is the play's value times a learnt inverse temperature (the
    critic's targets then train the scores the policy plays by).  Needs an
    environment with ``afterstates=True``.

    >>> from stable_baselines3 import PPO
    >>> venv = BackgammonVecEnv(4, afterstates=True, max_plays=32, seed=0)
    >>> policy = PPO(AfterstatePolicy, venv, n_steps=8, batch_size=32).policy
    >>> type(policy.action_net).__name__, sum(p.numel() for p in policy.parameters())
    ('Identity', 12866)
    """

    def __init__(self, observation_space, action_space, lr_schedule, hidden=(64,), tied: bool = False, **kwargs):
        super().__init__(observation_space, action_space, lr_schedule,
                         **_afterstate_kwargs(observation_space, action_space, kwargs, hidden, tied))

    def _build_mlp_extractor(self) -> None:
        setattr(self, "mlp_extractor", _Split(int(getattr(self.action_space, "n"))))

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        _afterstate_heads(self, lr_schedule)


MaskableAfterstatePolicy: Any
try:
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy as _Maskable
except ImportError:      # sb3-contrib is optional
    MaskableAfterstatePolicy = None
else:
    class _MaskableAfterstatePolicy(_Maskable):
        """:class:`AfterstatePolicy` for sb3-contrib's MaskablePPO (which also
        masks the logits with the environment's ``action_masks()``).

        >>> from sb3_contrib import MaskablePPO
        >>> venv = BackgammonVecEnv(4, afterstates=True, max_plays=32, seed=0)
        >>> type(MaskablePPO(MaskableAfterstatePolicy, venv, n_steps=8, batch_size=32).policy).__name__
        'MaskableAfterstatePolicy'
        """

        def __init__(self, observation_space, action_space, lr_schedule, hidden=(64,), tied: bool = False,
                     **kwargs):
            super().__init__(observation_space, action_space, lr_schedule,
                             **_afterstate_kwargs(observation_space, action_space, kwargs, hidden, tied))

        def _build_mlp_extractor(self) -> None:
            setattr(self, "mlp_extractor", _Split(int(getattr(self.action_space, "n"))))

        def _build(self, lr_schedule) -> None:
            super()._build(lr_schedule)
            _afterstate_heads(self, lr_schedule)

    # Its public name, so that saved models find it again.
    _MaskableAfterstatePolicy.__name__ = _MaskableAfterstatePolicy.__qualname__ = "MaskableAfterstatePolicy"
    MaskableAfterstatePolicy = _MaskableAfterstatePolicy


class SnapshotCallback(BaseCallback):
    """Every ``every`` environment steps, a frozen copy of the learner goes
    into ``league`` (self-play against past selves; see ``opponents.League``)."""

    def __init__(self, league: League, every: int = 50_000, deterministic: bool = True, verbose: int = 0):
        super().__init__(verbose)
        self.league = league
        self.every = integer("every", every, low=1)
        self.deterministic = deterministic
        self._next = self.every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next += self.every
            self.league.add(frozen(self.model, deterministic=self.deterministic,
                                   name=f"snapshot@{self.num_timesteps}"))
            if self.verbose:
                print(f"league: snapshot at {self.num_timesteps} steps, {len(self.league.members)} members")
        return True
