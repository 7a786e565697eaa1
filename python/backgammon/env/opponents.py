"""Opponents for self-play: a policy as a player, frozen copies of a
learner, and a league that draws an opponent for every game.

Every environment takes any :class:`~backgammon.players.Player` as its
opponent, so these plug into the single-agent, the lockstep vector and the
Stable-Baselines3 vector environments alike (and into ``duel`` and
``rollout``, to measure them).

- :class:`PolicyPlayer`: a callable that maps a batch of observations (as
  an environment with the same ``observation``/``afterstates``/
  ``max_plays`` options would give them, the side to play in the agent's
  seat) to actions.
- :func:`frozen`: a frozen copy of a Stable-Baselines3 model (or a path to
  its saved ``.zip``, or a torch module) as a ``PolicyPlayer``; training
  the model further does not change the copy.
- :class:`League`: a pool of opponents (specs, players, frozen copies),
  one drawn for each game by weight, with ``latest`` the chance of the
  newest member; ``add`` snapshots as training goes.

>>> import numpy as np
>>> first = PolicyPlayer(lambda obs: np.zeros(len(obs["observation"]), dtype=np.int64))
>>> league = League(["random", first], seed=0)
>>> from backgammon.env.vector import BackgammonVectorEnv
>>> envs = BackgammonVectorEnv(8, opponent=league)
>>> obs, info = envs.reset(seed=0)
>>> sorted(set(league.assigned.values())) == [0, 1]
True
"""
from __future__ import annotations

import copy
from typing import Any, Callable

import numpy as np

from .._validate import number
from ..batch import legal_positions
from ..dice import generator
from ..players import Player, player
from ._options import Options

__all__ = ["PolicyPlayer", "frozen", "League"]


class PolicyPlayer(Player):
    """A policy as a :class:`~backgammon.players.Player`.

    ``policy(obs)`` gets a dict of batched arrays, as an environment with
    ``observation``, ``afterstates`` and ``max_plays`` gives them to the
    agent whose turn it is (``"observation"``, ``"afterstates"`` with the
    option, ``"action_mask"``), and returns one action (a play index) per
    row.  An action that is not a legal play raises ValueError.  Cubeless:
    it never doubles and always takes (``cube_action``).

    >>> import backgammon as bg
    >>> # the first legal play
    >>> p = PolicyPlayer(lambda obs: obs["action_mask"].argmax(axis=1))
    >>> str(p.choose(bg.Position.initial(), "31"))
    '24/23 24/21'
    """

    def __init__(self, policy: Callable[[dict], Any], observation: str = "tesauro", afterstates: bool = False,
                 max_plays: int | None = None, name: str = "policy"):
        if not callable(policy):
            raise TypeError(f"policy must be callable, not {type(policy).__name__}")
        self.policy = policy
        self.options = Options.of(observation, afterstates, max_plays)
        self.spec = name

    def choose_indices(self, boards, rolls):
        boards = np.ascontiguousarray(boards, dtype=np.uint8)
        rolls = np.ascontiguousarray(rolls, dtype=np.uint8)
        offsets, children = legal_positions(boards, rolls, validate=False, threads=1)
        counts = np.minimum(np.diff(offsets), self.options.max_plays)
        mask = (np.arange(self.options.max_plays)[None, :] < counts[:, None]).astype(np.int8)
        obs, _ = self.options.observe(boards, rolls, children, offsets, mask)
        actions = np.asarray(self.policy(obs)).reshape(-1).astype(np.int64)
        if actions.shape != (len(boards),) or ((actions < 0) | (actions >= counts)).any():
            raise ValueError(f"the policy {self.spec!r} chose actions that are not legal plays")
        return actions


class _SB3Act:
    # A frozen copy of an SB3 model's policy, called on batches (a class,
    # not a closure, so that environments holding it pickle).
    def __init__(self, model, deterministic: bool):
        source = model.policy if hasattr(model, "policy") else model
        # A new policy with the same weights (a deepcopy would also copy the
        # distribution of the last forward pass, tensors in a graph).
        self.policy = type(source)(**source._get_constructor_parameters())
        self.policy.load_state_dict(source.state_dict())
        self.policy.set_training_mode(False)
        self.deterministic = deterministic
        self.maskable = "action_masks" in self.policy.predict.__code__.co_varnames

    def __call__(self, obs):
        import torch
        with torch.no_grad():
            if self.maskable:
                return self.policy.predict(obs, deterministic=self.deterministic, action_masks=obs["action_mask"])[0]
            return self.policy.predict(obs, deterministic=self.deterministic)[0]


class _ModuleAct:
    # A frozen copy of a torch module mapping observations to logits.
    def __init__(self, module, deterministic: bool, seed):
        import torch
        self.net = copy.deepcopy(module).eval()
        self.deterministic = deterministic
        self.generator = torch.Generator().manual_seed(int(generator(seed).integers(2 ** 62)))

    def __call__(self, obs):
        import torch
        with torch.no_grad():
            out = self.net({k: torch.as_tensor(v) for k, v in obs.items()})
            logits = out[0] if isinstance(out, tuple) else out
            if self.deterministic:
                return logits.argmax(dim=1).numpy()
            return torch.multinomial(torch.softmax(logits, dim=1), 1, generator=self.generator)[:, 0].numpy()

    def __getstate__(self):
        state = self.__dict__.copy()
        state["generator"] = self.generator.get_state()
        return state

    def __setstate__(self, state):
        import torch
        self.__dict__.update(state)
        self.generator = torch.Generator()
        self.generator.set_state(state["generator"])


def frozen(source, *, observation: str | None = None, afterstates: bool | None = None, max_plays: int | None = None,
           deterministic: bool = True, algorithm=None, seed=None, name: str = "frozen") -> PolicyPlayer:
    """A frozen copy of a policy as a :class:`PolicyPlayer`.

    ``source``: a Stable-Baselines3 model (PPO, MaskablePPO, ...: its
    policy is copied), the path of one saved with ``model.save`` (loaded
    with ``algorithm``, default ``sb3_contrib.MaskablePPO`` then
    ``stable_baselines3.PPO``), a torch module mapping a dict of observation
    tensors to logits (or to ``(logits, values)``, as
    ``AfterstateScorer``), or any callable on batches (used as it is).  The
    options say how the policy observes; for an SB3 model they default to
    its environment's (read from its observation space).  Greedy unless
    ``deterministic`` is False (then sampled, seeded by ``seed`` for a torch
    module).
    """
    model = source
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        model = _load(source, algorithm)
    options: dict = {}
    space = getattr(model, "observation_space", None)
    if space is not None and hasattr(space, "spaces") and "observation" in space.spaces:
        options = _options_of_space(space)
    for key, value in (("observation", observation), ("afterstates", afterstates), ("max_plays", max_plays)):
        if value is not None:
            options[key] = value
    act: Callable[[dict], Any]
    if hasattr(model, "policy") or type(model).__name__.endswith("Policy"):
        act = _SB3Act(model, deterministic)
    elif _is_module(model):
        act = _ModuleAct(model, deterministic, seed)
    elif callable(model):
        act = model
    else:
        raise TypeError(f"source must be an SB3 model or its path, a torch module or a callable, "
                        f"not {type(source).__name__}")
    return PolicyPlayer(act, name=name, **options)


def _is_module(x) -> bool:
    try:
        import torch
    except ImportError:
        return False
    return isinstance(x, torch.nn.Module)


def _load(path, algorithm):
    if algorithm is not None:
        return algorithm.load(path, device="cpu")
    errors = []
    try:
        from sb3_contrib import MaskablePPO
        return MaskablePPO.load(path, device="cpu")
    except Exception as e:        # noqa: BLE001 -- try the next algorithm
        errors.append(str(e))
    from stable_baselines3 import PPO
    return PPO.load(path, device="cpu")


def _options_of_space(space) -> dict:
    from .encodings import OBSERVATIONS, encoding
    shape = space.spaces["observation"].shape
    for name in OBSERVATIONS:
        if encoding(name).state_shape == shape:
            break
    else:
        raise ValueError(f"the model observes {shape}, not one of the environments' encodings")
    out: dict = {"observation": name}
    if "afterstates" in space.spaces:
        out["afterstates"] = True
        out["max_plays"] = space.spaces["afterstates"].shape[0]
    elif "action_mask" in space.spaces:
        out["max_plays"] = space.spaces["action_mask"].shape[0]
    return out


class League(Player):
    """Opponents drawn per game from a pool.

    ``members``: player specs, Players (a :func:`frozen` copy, say) or both;
    ``weights`` their chances (default equal); ``latest`` (0 to 1): the
    chance that a game draws the newest member whatever the weights (the
    usual mix of the latest snapshot and older ones).  A lockstep
    environment tells the league which games start (``new_games``) and
    asks for the choices of each game's member (``choose_rows``); one game
    (the single-agent environment) draws at every reset.  ``assigned`` maps
    each game to its member's index; ``add`` puts a new member in.
    """

    def __init__(self, members=(), weights=None, latest: float = 0.0, seed=None):
        self.members: list[Player] = []
        self.weights: list[float] = []
        self.latest = number("latest", latest, low=0.0, high=1.0)
        self._rng = generator(seed)
        self.assigned: dict[int, int] = {}
        self.spec = "league"
        members = list(members)
        if weights is not None and len(list(weights)) != len(members):
            raise ValueError("weights: one for each member")
        for i, m in enumerate(members):
            self.add(m, 1.0 if weights is None else list(weights)[i])

    def add(self, member, weight: float = 1.0) -> None:
        """Put ``member`` (a spec or a Player) in the pool with ``weight``."""
        self.members.append(player(member, seed=self._rng, name="member"))
        self.weights.append(number("weight", weight, low=0.0))

    def _draw(self, k: int) -> np.ndarray:
        if not self.members:
            raise ValueError("the league has no members: add one first")
        w = np.asarray(self.weights, dtype=float)
        if w.sum() <= 0:
            w = np.ones(len(w))
        picks = self._rng.choice(len(w), size=k, p=w / w.sum())
        if self.latest:
            picks = np.where(self._rng.random(k) < self.latest, len(w) - 1, picks)
        return picks

    def new_games(self, rows) -> None:
        """Draw a member for each game in ``rows`` (they are starting)."""
        rows = np.asarray(rows, dtype=np.int64)
        for r, m in zip(rows.tolist(), self._draw(len(rows)).tolist()):
            self.assigned[r] = m

    def choose_rows(self, rows, boards, rolls) -> np.ndarray:
        """The choices in games ``rows``, each by its member."""
        rows = np.asarray(rows, dtype=np.int64)
        missing = [r for r in rows.tolist() if r not in self.assigned]
        if missing:
            self.new_games(np.array(missing))
        who = np.array([self.assigned[r] for r in rows.tolist()], dtype=np.int64)
        out = np.zeros(len(rows), dtype=np.int64)
        for m in np.unique(who):
            sel = np.flatnonzero(who == m)
            out[sel] = self.members[int(m)].choose_indices(boards[sel], rolls[sel])
        return out

    def choose_indices(self, boards, rolls):
        # Outside a lockstep environment the positions are the games 0, 1, ...
        return self.choose_rows(np.arange(len(boards)), boards, rolls)

    def cube_action(self, position, state=None, rules=None):
        return self.members[self.assigned.get(0, len(self.members) - 1)].cube_action(position, state, rules)

    def close(self) -> None:
        for m in self.members:
            m.close()
