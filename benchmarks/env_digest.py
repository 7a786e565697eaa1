"""A digest (sha256) of what the environments give: observations, infos,
rewards of 3,000 AEC turns and 3,000 single-env steps in several option
settings, random legal actions, fixed seeds.  Run under two builds, the
same digest says a speed change moved no observation.

    PYTHONPATH=TREE python benchmarks/env_digest.py
"""
import hashlib, numpy as np, gymnasium, backgammon.env as bgenv
h = hashlib.sha256()
def add(x):
    if isinstance(x, dict):
        for k in x: h.update(k.encode()); add(x[k])
    elif isinstance(x, np.ndarray): h.update(str(x.dtype).encode()); h.update(x.tobytes())
    elif hasattr(x, "array"): add(np.asarray(x.array))
    else: h.update(repr((type(x).__name__, x)).encode())
for entry, kw in [("raw_env", {}), ("env", {}), ("raw_env", {"max_plays": 8}), ("raw_env", {"afterstates": True}), ("raw_env", {"reward": "win"})]:
    e = getattr(bgenv, entry)(**kw); rng = np.random.default_rng(0); e.reset(seed=0); done = 0
    while done < 600:
        obs, r, term, trunc, info = e.last(); add(obs); add(r); add(info); add(e.infos); add(e.observe("player_0")); add(e.observe("player_1"))
        if term or trunc: e.reset(); continue
        e.step(int(rng.random() * len(info["afterstates"]))); done += 1
for kw in [{}, {"max_plays": 8}, {"reward": "win"}, {"mask_in_observation": False}, {"afterstates": True}]:
    e = gymnasium.make("backgammon/Backgammon-v0", opponent="random", **kw).unwrapped; rng = np.random.default_rng(0)
    obs, info = e.reset(seed=0); add(obs); add(info)
    for _ in range(600):
        obs, r, term, trunc, info = e.step(int(rng.random() * max(info["num_plays"], 1))); add(obs); add(r); add(term); add(info)
        if term: obs, info = e.reset(); add(obs); add(info)
print(h.hexdigest())
