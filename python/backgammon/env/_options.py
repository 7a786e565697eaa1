"""The constructor options every environment shares (``observation``,
``afterstates``, ``max_plays``, ``cube``, ``match_length``, ``reward``,
``rules``, ``mask_in_observation``), checked once, and the spaces and
observations they make.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._validate import flag, instance, integer, one_of
from ..batch import MAX_PLAYS
from ..rules import Rules
from ._match import CUBE_ACTIONS, CUBE_UNITS, REWARDS
from .encodings import Encoding, encoding, pad_afterstates


@dataclass(frozen=True)
class Options:
    """An environment's options (see docs/environments.md)."""

    observation: str = "tesauro"
    afterstates: bool = False
    max_plays: int = MAX_PLAYS
    cube: bool = False
    match_length: int = 0
    reward: str = "points"
    rules: Rules | None = None
    mask_in_observation: bool = True

    @classmethod
    def of(cls, observation="tesauro", afterstates=False, max_plays=None, cube=False, match_length=0,
           reward="points", rules=None, mask_in_observation=True) -> "Options":
        """The options, each checked (a wrong value raises ValueError, a
        wrong type TypeError, naming the parameter)."""
        encoding(observation)
        afterstates = flag("afterstates", afterstates)
        max_plays = MAX_PLAYS if max_plays is None else integer("max_plays", max_plays, low=1, high=MAX_PLAYS)
        cube = flag("cube", cube)
        match_length = integer("match_length", match_length, low=0, high=64)
        reward = one_of("reward", reward, REWARDS)
        if reward == "match" and not match_length:
            raise ValueError("reward: 'match' (match winning chances) needs match play: give match_length")
        if rules is not None:
            instance("rules", rules, Rules, "backgammon.Rules")
            if match_length:
                rules.check_match_play()
        return cls(observation, afterstates, max_plays, cube, match_length, reward, rules,
                   flag("mask_in_observation", mask_in_observation))

    @property
    def encoding(self) -> Encoding:
        return encoding(self.observation)

    # The two below are read on every step: worked out once (the options
    # are frozen), kept in the instance's __dict__.
    @cached_property
    def played(self) -> bool:
        """Whether games go through ``Game`` and ``Match`` (the cube or match
        play), rather than the step kernels."""
        return self.cube or self.match_length > 0

    @cached_property
    def plain(self) -> bool:
        """Whether the step kernels' own observation (Tesauro's) and mask
        are the observation as it is: cubeless money play, no afterstates,
        every play (``max_plays`` the most there can be)."""
        return not self.played and self.observation == "tesauro" and not self.afterstates \
            and self.max_plays == MAX_PLAYS

    @property
    def num_actions(self) -> int:
        """Plays (``max_plays``), then the cube actions when the cube is on."""
        return self.max_plays + (len(CUBE_ACTIONS) if self.cube else 0)

    def observation_space(self):
        """The observation space: a ``Dict`` of ``"observation"``, with
        ``"afterstates"`` (max_plays, *afterstate shape) when ``afterstates``,
        ``"cube"`` (14,) with the cube or match play, and ``"action_mask"``
        (num_actions,) int8 unless ``mask_in_observation`` is False."""
        from gymnasium import spaces
        enc = self.encoding
        parts: dict = {"observation": spaces.Box(0.0, enc.high, enc.state_shape, np.float32)}
        if self.afterstates:
            parts["afterstates"] = spaces.Box(0.0, enc.high, (self.max_plays,) + enc.afterstate_shape, np.float32)
        if self.played:
            parts["cube"] = spaces.Box(0.0, 4.0, (CUBE_UNITS,), np.float32)
        if self.mask_in_observation:
            parts["action_mask"] = spaces.Box(0, 1, (self.num_actions,), np.int8)
        return spaces.Dict(parts)

    def action_space(self):
        from gymnasium import spaces
        return spaces.Discrete(self.num_actions)

    def win_reward(self, points):
        """Rewards of the cubeless kernels' points in this option's unit."""
        return np.sign(points).astype(np.float32) if self.reward == "win" else points

    def observe(self, boards, rolls, children, offsets, mask, tesauro=None, on_turn=True,
                cube=None) -> tuple[dict, np.ndarray]:
        """The observations (n, ...) of n games: boards (n, 2, 25) seen by
        the observer in row 1, its dice, its plays' afterstates in CSR
        layout, its action mask (n, >= max_plays) (the plays' part; the cube
        actions' appended from ``cube``'s masks when given as (masks (n, 5),
        units (n, 14))); ``tesauro``: the step kernels' observations, used as
        they are for the Tesauro encoding."""
        enc = self.encoding
        if enc.name == "tesauro" and tesauro is not None:
            states = tesauro
        else:
            states = enc.states(boards, rolls, on_turn)
        obs = {"observation": states}
        if self.afterstates:
            k = self.max_plays
            encoded = enc.afterstates(children) if len(children) else \
                np.zeros((0,) + enc.afterstate_shape, dtype=np.float32)
            obs["afterstates"], _ = pad_afterstates(encoded, offsets, k)
        m = mask[:, :self.max_plays]
        if cube is not None:
            obs["cube"] = cube[1]
            if self.cube:
                m = np.concatenate([m, cube[0].astype(np.int8)], axis=1)
        elif not m.flags.c_contiguous:
            m = np.ascontiguousarray(m)
        if self.mask_in_observation:
            obs["action_mask"] = m
        return obs, m
