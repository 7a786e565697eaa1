"""Who may double (RULES 7, 8): one rule (python/backgammon/doubling.py)
asked by the game, the cube decisions, the rollouts' loop and the players,
and the cap on a player's cube search where the decision is made."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import backgammon as bg
from backgammon import doubling
from backgammon.players import NetPlayer, Player, player


def _states():
    for length in (0, 5):
        for score in ((0, 0), (3, 1), (2, 4)) if length else ((0, 0),):
            for crawford in (False, True) if length else (False,):
                if crawford and max(score) != length - 1:
                    continue
                for cube, owner in ((1, None), (2, 0), (2, 1), (4, 0), (4, 1)):
                    if crawford and cube != 1:
                        continue
                    for on_roll in (0, 1):
                        yield bg.MatchState(match_length=length, score=score, crawford=crawford, cube_value=cube,
                                            cube_owner=owner, on_roll=on_roll, turn=on_roll)


RULES = [bg.Rules(), bg.Rules(cube_limit=2), bg.Rules(cube_limit=4)]


def test_the_vectorised_twin_answers_as_the_rule():
    seen = set()
    for state in _states():
        for rules in RULES:
            verdict = doubling.may_double(state, rules)
            seen.add(verdict.reason.split(" (")[0][:20])
            # The lanes: every (side, cube, owner) at this score in one call.
            combos = list(itertools.product((0, 1), (1, 2, 4, 8), (-1, 0, 1)))
            side, cube, owner = (np.array(c) for c in zip(*combos))
            lanes = doubling.may_double_lanes(side, cube, owner, state, rules)
            for k, (s, c, o) in enumerate(combos):
                if state.crawford and (c != 1 or o >= 0):
                    continue                    # not a state of the Crawford game
                one = state.replace(on_roll=s, turn=s, cube_value=c, cube_owner=None if o < 0 else o)
                assert bool(lanes[k]) == doubling.may_double(one, rules).allowed, (one, rules)
    assert len(seen) == 5          # allowed, Crawford, owner, dead cube, limit


def test_game_cube_decision_and_rollout_ask_the_same_rule():
    rules = bg.Rules(cube_limit=2)
    match = bg.Match(3, rules=rules, seed=2)
    g = match.new_game()
    g.roll((3, 1)); g.play("8/5 6/5")
    for _ in range(2):
        verdict = g.can_double()
        state = g.match_state()
        assert verdict == doubling.may_double(state, rules)
        d = bg.cube_decision(g.position, state, rules)
        assert d.can_double == verdict.allowed and d.reason == verdict.reason
        if verdict:
            g.double(); g.take()
            g.roll((6, 5)); g.play(g.legal_plays()[0])
    assert not g.can_double() and "limit" in g.can_double().reason        # RULES 7.4
    from backgammon.rollouts import rollout_cube
    with pytest.raises(ValueError, match="state: the cube is at its limit of 2"):
        rollout_cube(g.position, g.match_state(), rules=rules, games=2)


@pytest.mark.parametrize("ply", [1, 2])
def test_cube_search_in_the_crawford_game(ply):
    # RULES 8.2: no double in the Crawford game; the searched decision says
    # so rather than failing to build a doubled state.
    pos = bg.Position.from_id("ZrvFIACbewcAAA")
    state = bg.MatchState(match_length=5, score=(4, 2), crawford=True)
    d = bg.cube_decision(pos, state, ply=1 if ply == 1 else 2)
    assert not d.can_double and "Crawford" in d.reason and d.action == "no double"
    assert d.mwc is not None and 0 <= d.mwc[0] <= 1
    assert d.no_double != bg.cube_decision(pos, state, ply=0).no_double      # searched


def test_beavers_and_raccoons():
    money = bg.Rules(beavers=1)
    assert doubling.beavers_allowed(True, money) and not doubling.beavers_allowed(False, money)
    assert not doubling.beavers_allowed(True, bg.Rules())
    assert doubling.may_redouble("beaver", True, 0, 1, 4, money) == ""
    assert "1 beaver " in doubling.may_redouble("raccoon", True, 1, 4, 2, money)
    assert "limit of 2" in doubling.may_redouble("beaver", True, 0, 1, 4, bg.Rules(beavers=1, cube_limit=2))
    assert "money-play" in doubling.may_redouble("beaver", False, 0, 1, 4, money)


def test_the_cube_search_depth_is_decided_where_the_decision_is_made():
    # cube.py decides how deep a cube decision searches, once: as asked up
    # to MAX_PLY (analysis, hints), at most PLAY_PLY in play (every
    # Player.cube_action); callers pass their own depth and never cap it.
    from backgammon import cube
    assert (cube.MAX_PLY, cube.PLAY_PLY) == (2, 1)
    assert not hasattr(Player, "MAX_CUBE_PLY") and not hasattr(Player, "cube_ply")
    pos = bg.Position.from_id("sPPIAyCGn4kDIA")
    asked = {ply: bg.cube_decision(pos, ply=ply) for ply in (0, 1, 2)}
    assert [asked[k].ply for k in (0, 1, 2)] == [0, 1, 2]
    assert asked[2].no_double != asked[1].no_double           # 2-ply is searched, not capped
    with pytest.raises(ValueError, match="ply"):
        bg.cube_decision(pos, ply=3)
    for spec, ply in (("net", 0), ("net:1", 1), ("net:2", 2), ("pubeval", 0), ("random", 0)):
        assert player(spec).ply == ply
    for ply in (0, 1, 2, 3):
        assert cube.cube_action(pos, ply=ply) == asked[min(ply, 1)]
    assert NetPlayer(2).cube_action(pos) == asked[1] and NetPlayer(2).cube_action(pos).ply == 1
    assert NetPlayer(0).cube_action(pos) == asked[0]
    assert player("pubeval").cube_action(pos) == bg.CubeDecision.never()
    with pytest.raises(ValueError, match="ply"):
        cube.cube_action(pos, ply=-1)


# The web's two copies go with the web engineer's change of this session
# (issue 42): drop them from here once it is merged.
_WEB_COPIES: set[str] = set()


def test_no_caller_caps_the_cube_search_depth():
    # The cap lives in cube.py (PLAY_PLY, MAX_PLY); a caller passes its own
    # depth: no min(ply, 1), no MAX_CUBE_PLY (nor Player.cube_ply, above).
    import re
    from pathlib import Path
    root = Path(bg.__file__).parent
    capped = re.compile(r"min\(\s*[\w.]*ply\s*,\s*1\s*\)|MAX_CUBE_PLY")
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == "cube.py" or rel in _WEB_COPIES:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if capped.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "cube search depth capped outside cube.py:\n" + "\n".join(found)
    assert capped.search("ply=min(ply, 1)") and capped.search("self.MAX_CUBE_PLY")   # the pattern bites
