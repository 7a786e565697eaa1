"""Afterstate scoring in PyTorch: one shared network scores every legal
play's afterstate, and the scores are the policy's logits over the plays.

With ``afterstates=True`` an environment's observation holds the
encodings of the positions the plays lead to, padded to ``max_plays``,
and its mask says which rows are plays.  :class:`AfterstateScorer` gives,
for each row, a logit and a value (the agent's expected reward after that
play), evaluating only the real rows; the cube actions, when the cube is
on, get theirs from a head on the state and the ``"cube"`` units.  The
Stable-Baselines3 policies in ``backgammon.env.sb3`` and the CleanRL-style
script in ``examples/`` are built on it.  Needs torch.

>>> import torch, numpy as np
>>> from backgammon.env.single import BackgammonEnv
>>> env = BackgammonEnv(afterstates=True, max_plays=64)
>>> obs, info = env.reset(seed=0)
>>> scorer = AfterstateScorer.for_space(env.observation_space)
>>> batch = {k: torch.as_tensor(v[None]) for k, v in obs.items()}
>>> logits, values = scorer(batch)
>>> logits.shape, bool((logits[0, info["num_plays"]:] < -1e7).all())
(torch.Size([1, 64]), True)
"""
from __future__ import annotations

import math

import torch
from torch import nn

__all__ = ["AfterstateScorer", "RawUnits", "masked_softmax_value", "NEG"]

#: The logit of an action that is not legal.
NEG = -1e8


def _mlp(inputs: int, hidden, outputs: int) -> nn.Sequential:
    layers: list[nn.Module] = []
    for h in hidden:
        layers += [nn.Linear(inputs, h), nn.ReLU()]
        inputs = h
    last = nn.Linear(inputs, outputs)
    nn.init.uniform_(last.weight, -0.01, 0.01)     # near-uniform play and zero values to start
    nn.init.zeros_(last.bias)
    layers.append(last)
    return nn.Sequential(*layers)


class RawUnits(nn.Module):
    """The ``"raw"`` encoding's checker counts (the first 50 units) turned
    into four units a slot as the networks' raw inputs are (exactly one,
    exactly two, three or more, (n - 3) / 2), plus the rest of the row as it
    is: (..., 51) to (..., 201).  Lets a policy keep observations small
    (51 floats an afterstate) and expand them only for the real rows."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        c = x[..., :50]
        units = torch.stack([(c == 1).to(x.dtype), (c == 2).to(x.dtype), (c >= 3).to(x.dtype),
                             torch.clamp(c - 3, min=0) / 2], dim=-1).flatten(-2)
        return torch.cat([units, x[..., 50:]], dim=-1)


class AfterstateScorer(nn.Module):
    """Logits and values of every action from an afterstate observation.

    ``afterstate_shape`` is one afterstate's encoding (``encoding(name).
    afterstate_shape``), ``max_plays`` the padded width, ``hidden`` the
    hidden layers of the shared network; ``state_shape`` and ``cube``
    (with the cube on) add the head that scores the five cube actions from
    the state's encoding and the ``"cube"`` units.

    ``forward(obs)`` takes a dict of tensors with ``"afterstates"`` (B,
    max_plays, *afterstate_shape) and ``"action_mask"`` (B, actions) (or,
    without a mask, a row is a play when its encoding is not all zeros:
    every afterstate's has its on-roll unit set) and returns logits (B,
    actions), illegal ones at ``NEG``, and values (B, actions).
    """

    def __init__(self, afterstate_shape, max_plays: int, hidden=(64,), state_shape=None, cube: bool = False,
                 cube_units: int = 14, tied: bool = False):
        super().__init__()
        # tied: each play's logit is its value times a learnt inverse
        # temperature (a softmax over the afterstates' values), so that the
        # critic's targets train the very scores the policy plays by.
        self.tied = bool(tied)
        self.log_beta = nn.Parameter(torch.tensor(math.log(10.0))) if self.tied else None
        self.afterstate_shape = tuple(afterstate_shape)
        self.max_plays = int(max_plays)
        width = math.prod(self.afterstate_shape)
        # The raw encoding's counts are expanded here, row by row, for the real rows only.
        self.expand = RawUnits() if self.afterstate_shape == (51,) else nn.Identity()
        self.net = _mlp(201 if self.afterstate_shape == (51,) else width, hidden, 2)
        self.cube = bool(cube)
        if self.cube:
            if state_shape is None:
                raise ValueError("state_shape: the cube head scores the cube actions from the state")
            self.cube_net = _mlp(math.prod(tuple(state_shape)) + cube_units, hidden, 10)

    @classmethod
    def for_space(cls, observation_space, action_space=None, hidden=(64,), tied: bool = False) -> "AfterstateScorer":
        """The scorer for an environment's observation space (and action
        space: more actions than plays means the cube is on)."""
        spaces = observation_space.spaces
        after = spaces["afterstates"].shape
        if action_space is not None:
            cube = int(action_space.n) > after[0]
        else:
            cube = "action_mask" in spaces and spaces["action_mask"].shape[0] > after[0]
        return cls(after[1:], after[0], hidden, spaces["observation"].shape, cube,
                   spaces["cube"].shape[0] if "cube" in spaces else 14, tied)

    def forward(self, obs: dict) -> tuple[torch.Tensor, torch.Tensor]:
        x = obs["afterstates"]
        b, k = x.shape[0], x.shape[1]
        flat = x.reshape(b, k, -1)
        mask = obs.get("action_mask")
        plays = flat.abs().sum(-1) > 0 if mask is None else mask[:, :k] > 0.5
        rows = plays.nonzero(as_tuple=True)
        out = self.net(self.expand(flat[rows]))
        logits = flat.new_full((b, k), NEG)
        values = flat.new_zeros((b, k))
        score = out[:, 1] * torch.exp(self.log_beta) if self.log_beta is not None else out[:, 0]
        logits[rows] = score.to(logits.dtype)
        values[rows] = out[:, 1].to(values.dtype)
        if self.cube:
            state = torch.cat([obs["observation"].reshape(b, -1), obs["cube"].reshape(b, -1)], dim=1)
            c = self.cube_net(state)
            legal = mask[:, k:k + 5] > 0.5 if mask is not None else torch.ones_like(c[:, :5], dtype=torch.bool)
            logits = torch.cat([logits, torch.where(legal, c[:, :5], torch.full_like(c[:, :5], NEG))], dim=1)
            values = torch.cat([values, c[:, 5:]], dim=1)
        return logits, values


def masked_softmax_value(logits: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """The state's value under the policy: the values of its actions
    weighted by the policy's probabilities (illegal logits are ``NEG``), (B, 1)."""
    return (torch.softmax(logits, dim=1) * values).sum(dim=1, keepdim=True)
