"""Fixed-seed figures of duels, rollouts (cubeless and cubeful), cube
decisions, scoring and match analysis, printed to the last digit.

    python benchmarks/fixed_figures.py > before.txt     (on one commit)
    python benchmarks/fixed_figures.py > after.txt      (on another)
    diff before.txt after.txt                           (a refactor: no difference)

Floats are printed with ``repr`` (exact round trips); timings are left out.
The output of the commit that last changed these figures on purpose is
``benchmarks/fixed_figures.txt``.
"""
from __future__ import annotations

import math
import sys

import numpy as np

import backgammon as bg


def show(label: str, value) -> None:
    print(f"{label}: {_text(value)}")


def _text(v):
    if isinstance(v, float):
        return "nan" if math.isnan(v) else repr(v)
    if isinstance(v, (np.floating, np.integer)):
        return _text(v.item())
    if isinstance(v, np.ndarray):
        return "[" + ", ".join(_text(x) for x in v.ravel().tolist()) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_text(x)}" for k, x in v.items() if k not in _SKIP) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    return repr(v)


_SKIP = {"seconds", "games_per_second"}


def attempt(label: str, fn) -> None:
    """``show`` what ``fn()`` gives, or the error it raises (a figure too:
    a state and rules that disagree are refused since issue 40)."""
    try:
        value = fn()
    except Exception as e:      # noqa: BLE001
        value = f"{type(e).__name__}: {e}"
    show(label, value)


def duels() -> None:
    for a, b, games, seed in (("pubeval", "random", 400, 1), ("net", "pubeval", 200, 2), ("net:1", "net", 20, 3)):
        r = bg.duel(a, b, games=games, seed=seed, workers=1, record=True)
        show(f"duel {a} {b} {games} {seed}", r.to_dict())
        show(f"duel {a} {b} records", [(g.first, g.winner, g.points, len(g.rolls), g.plays[-1]) for g in r.records[:6]])
    from backgammon.evaluator import PubevalEvaluator
    from backgammon.players import EvaluatorPlayer
    r = bg.duel(EvaluatorPlayer(PubevalEvaluator()), "random", games=40, seed=4)
    show("duel evaluator-player random", r.to_dict())
    m = bg.play_match(["pubeval", "net"], 5, seed=3)
    show("play_match pubeval net 5", [(g.outcome.winner, g.outcome.points, g.outcome.ending.value, len(g.history))
                                      for g in m.games])
    m = bg.play_match(["net", "net"], 0, seed=5, games=6, rules=bg.Rules(jacoby=True, beavers=1))
    show("play_match money jacoby", [(g.outcome.winner, g.outcome.points, g.outcome.ending.value, len(g.history))
                                     for g in m.games])


def rollouts() -> None:
    from backgammon.rollouts import rollout_cube, rollout_plays
    from backgammon.evaluator import PubevalEvaluator
    from backgammon.players import EvaluatorPlayer
    pos = bg.Position.from_id("sPPIAyCGn4kDIA")
    race = bg.Position.from_id("ZrvFIACbewcAAA")
    cases = {
        "kernel pubeval": dict(games=1296, policy="pubeval", seed=1, variance_reduction=False),
        "kernel net vr": dict(games=324, seed=1),
        "kernel net truncated vr": dict(games=648, seed=2, truncate=7),
        "kernel random vs pubeval": dict(games=1296, policy=("random", "pubeval"), seed=3, variance_reduction=False),
        "kernel bearoff": dict(position=race, games=648, seed=4, bearoff=True, variance_reduction=False),
        "lockstep player": dict(games=324, policy=EvaluatorPlayer(PubevalEvaluator()), seed=5),
        "lockstep evaluator": dict(games=200, evaluator=PubevalEvaluator(), seed=6, variance_reduction=False),
        "lockstep scorer": dict(games=200, evaluator=lambda b: -bg.evaluate(b).equity, seed=7,
                                variance_reduction=False),
        "cubeful money": dict(games=432, cube=True, seed=8, variance_reduction=False),
        "cubeful money vr": dict(games=216, cube=True, seed=9),
        "cubeful jacoby beavers": dict(position=pos, games=324, cube=True, seed=10,
                                       rules=bg.Rules(jacoby=True, beavers=1)),
        "cubeful owned": dict(position=pos, games=324, cube=True, seed=11,
                              state=bg.MatchState(cube_value=2, cube_owner=1, on_roll=1, turn=1)),
        "cubeful match": dict(position=pos, games=324, cube=True, seed=12,
                              state=bg.MatchState(match_length=5, score=(1, 3))),
        "cubeful match crawford": dict(games=216, cube=True, seed=13,
                                       state=bg.MatchState(match_length=5, score=(4, 2), crawford=True)),
        "cubeful truncated": dict(position=pos, games=216, cube=True, seed=14, truncate=6),
        "cubeful match truncated": dict(position=pos, games=216, cube=True, seed=15, truncate=6,
                                        state=bg.MatchState(match_length=7, score=(2, 5), cube_value=2, cube_owner=0)),
        "cubeful net:1 cube": dict(games=36, cube=True, seed=16, cube_policy="net:1", variance_reduction=False),
        "cubeful limit": dict(games=216, cube=True, seed=17, rules=bg.Rules(cube_limit=2)),
    }
    for name, kw in cases.items():
        r = bg.rollout(workers=1, **kw)
        show(f"rollout {name}", r.to_dict())
    for name, kw in {"plays": dict(), "plays cubeful": dict(cube=True),
                     "plays match": dict(cube=True, state=bg.MatchState(match_length=3, score=(0, 1)))}.items():
        ranked = rollout_plays(pos, "43", ["24/21 10/6", "13/10 6/2", "13/6"], games=216, seed=18,
                               workers=1, **kw)
        show(f"rollout_{name}", [r.to_dict() for r in ranked])
    ranked = rollout_plays(bg.Position.initial(), "21", top=3, games=144, seed=19, workers=1)
    show("rollout_plays top", [r.to_dict() for r in ranked])
    for name, kw in {"money": dict(), "money beavers": dict(rules=bg.Rules(beavers=1)),
                     "match": dict(state=bg.MatchState(match_length=5, score=(2, 1))),
                     "match owned": dict(state=bg.MatchState(match_length=7, score=(1, 1), cube_value=2,
                                                             cube_owner=0))}.items():
        d = rollout_cube(pos, games=216, seed=20, workers=1, **kw)
        show(f"rollout_cube {name}", d.to_dict())


def decisions() -> None:
    ids = ["sPPIAyCGn4kDIA", "2+yABUBmu4TBAA", "ZrvFIACbewcAAA", "4PM4BwCw2xjABg", "2czEEDC2OcKAAw",
           "bXcPAACtu5MAAA", "2+yAAWC3bwAAAA", "HLfBgGC7AwAAAA"]
    states = {
        "money": (bg.MatchState(), bg.Rules()),
        "jacoby": (bg.MatchState(jacoby=True), bg.Rules(jacoby=True)),
        "beavers": (bg.MatchState(beavers=True), bg.Rules(beavers=1)),
        "owned": (bg.MatchState(cube_value=2, cube_owner=0), bg.Rules()),
        "other owns": (bg.MatchState(cube_value=2, cube_owner=1), bg.Rules()),
        "match": (bg.MatchState(match_length=7, score=(2, 4)), bg.Rules()),
        "match cube 2": (bg.MatchState(match_length=7, score=(3, 1), cube_value=2, cube_owner=0), bg.Rules()),
        "crawford": (bg.MatchState(match_length=5, score=(4, 2), crawford=True), bg.Rules()),
        "post crawford": (bg.MatchState(match_length=5, score=(2, 4)), bg.Rules()),
        "dead": (bg.MatchState(match_length=5, score=(3, 1), cube_value=2, cube_owner=0), bg.Rules()),
        "limit": (bg.MatchState(cube_value=2, cube_owner=0, cube_limit=2), bg.Rules(cube_limit=2)),
    }
    for pid in ids:
        pos = bg.Position.from_id(pid)
        for name, (state, rules) in states.items():
            for ply in (0, 1) if pid in ids[:3] else (0,):
                try:
                    d = bg.cube_decision(pos, state, rules, ply=ply)
                except Exception as e:      # noqa: BLE001 -- a figure too
                    show(f"cube {pid} {name} {ply}", f"{type(e).__name__}: {e}")
                    continue
                show(f"cube {pid} {name} {ply}", (d.action, d.take, d.no_double, d.double_take, d.double_pass,
                                                  d.can_double, d.reason, d.mwc, d.exact))
    d = bg.cube_decision(bg.Position.from_id(ids[0]), bg.MatchState(match_length=5, score=(1, 2)), ply=2)
    show("cube 2-ply match", (d.action, d.no_double, d.double_take, d.double_pass, d.mwc))
    from backgammon.cube import cube_values
    boards = np.stack([bg.Position.from_id(p).array for p in ids])
    p = bg.evaluate(boards).probabilities
    for name, (state, rules) in states.items():
        attempt(f"cube_values {name}", lambda: cube_values(p, boards, state, rules))
    from backgammon import resignation
    for pid in ids:
        pos = bg.Position.from_id(pid)
        for name in ("money", "jacoby", "match", "crawford"):
            state, rules = states[name]
            attempt(f"resign {pid} {name}", lambda: (resignation.value_of_playing_on(pos, state, rules),
                                                     [resignation.accepts(pos, k, state, rules) for k in (1, 2, 3)],
                                                     resignation.offer(pos, state, rules)))
    from backgammon.evaluator import flip
    show("flip", flip(p))
    show("evaluate 1-ply", bg.evaluate(boards, 1).probabilities)
    ranked = bg.hint(bg.Position.from_id(ids[1]), "62", 2)
    show("hint 2-ply", [(str(r.play), r.equity, r.ply) for r in ranked[:6]])


def scoring() -> None:
    """Points of games ended every way under every rules setting."""
    out = []
    for jacoby in (False, True):
        for bg_as_g in (False, True):
            rules = bg.Rules(jacoby=jacoby, backgammon_counts_as_gammon=bg_as_g)
            for double in (False, True):
                for level in (1, 2, 3):
                    g = bg.Game(rules=rules, seed=level)
                    g.roll((3, 1))
                    g.play("8/5 6/5")
                    if double:
                        g.double()
                        g.take()
                    g.resign(level)
                    g.accept_resignation()
                    out.append((jacoby, bg_as_g, double, level, g.outcome.points, g.match_id()))
    show("resigned games", out)
    out = []
    for seed in range(12):
        m = bg.play_match(["pubeval", "random"], 0, seed=seed, games=1,
                          rules=bg.Rules(jacoby=bool(seed % 2), backgammon_counts_as_gammon=bool(seed % 3 == 0)))
        g = m.games[0]
        out.append((g.outcome.winner, g.outcome.points, g.outcome.multiplier, g.outcome.ending.value))
    show("played games", out)


def analysis() -> None:
    m = bg.play_match(["pubeval", "net"], 3, seed=11)
    a = bg.analyse(m, ply=0, cube_ply=1, workers=1)
    show("analysis match 0/1", a.to_dict())
    m = bg.play_match(["net", "pubeval"], 0, seed=12, games=2, rules=bg.Rules(jacoby=True, beavers=1))
    a = bg.analyse(m, ply=1, cube_ply=0, workers=1)
    show("analysis money 1/0", a.to_dict())
    g = bg.play_match(["random", "net"], 1, seed=13).games[0]
    a = bg.analyse(g, ply=2, cube_ply=2, workers=1)
    show("analysis game 2/2", a.to_dict())
    from backgammon.rollouts import RolloutSettings
    m = bg.play_match(["random", "pubeval"], 2, seed=14)
    a = bg.analyse(m, ply=0, workers=1, threshold=0.3,
                   rollout=RolloutSettings(games=36, seed=1, workers=1, truncate=4))
    show("analysis by rollout", a.to_dict())


def main() -> int:
    np.set_printoptions(precision=17)
    for part in (duels, rollouts, decisions, scoring, analysis):
        print(f"# {part.__name__}")
        part()
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
