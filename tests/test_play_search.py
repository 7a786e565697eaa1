"""Plays valued as gnubg values them at a cube and score (issue 40, human
matches): searched 1 or 2 plies deep with the cube live at every ply
(``cube_search.play_values``), not the cube model applied to searched
chances, and filtered as gnubg's 1- and 2-ply move filters filter (the 8
best within 0.16 at 0-ply go straight to the searched ply).  gnubg's
command-line program is the oracle (Debian's ``gnubg``, which .ci/run
installs; these tests fail without it, they do not skip).  RULES 7, 8.
"""
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg
from backgammon.cube_search import ANALYSIS_FILTER, HINT_FILTER, play_values, rank_plays
from backgammon.evaluator import KEEP, as_evaluator, chances
from backgammon.janowski import values_after_play
from backgammon.matchid import MatchState
from backgammon.scoring import flip

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"

# match10030560 (benchmarks/data/human_gnubg2), game 1: 0-0 in a 5-point match, the cube centred,
# 6-6 to play.  gnubg 1.07 at 2-ply rates 21/9 20/14(2) 0.002 behind 13/1*(2) (its analysis in
# that file, and its hint); the cube model on our 2-ply chances put it 0.10 behind, a bad play.
BLITZ = "jLfBBSDM5uCABQ"
BLITZ_MATCH = "cAm7AAAAAAAE"
BLITZ_MONEY = "cAkbAAAAAAAA"          # the same turn in money play (Jacoby on, gnubg's default)


def _gnubg_hint(position_id: str, match_id: str, ply: int) -> dict:
    """gnubg's hint: {play: cubeful equity} at ``ply``."""
    assert Path(GNUBG).exists(), "GNU Backgammon's command-line program is needed: apt-get install gnubg"
    new = "new session" if MatchState.from_match_id(match_id).match_length == 0 else "new match 5"
    script = "\n".join([new, f"set matchid {match_id}", f"set board {position_id}",
                        f"set evaluation chequerplay evaluation plies {ply}", "hint 8", ""])
    done = subprocess.run([GNUBG, "-t", "-q"], input=script, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = {}
    for m in re.finditer(rf"\d+\. Cubeful {ply}-ply\s+(.+?)\s+Eq\.: ([-+]\d\.\d+)", done.stdout):
        out[m.group(1).strip()] = float(m.group(2))
    assert out, done.stdout
    return out


def _ours(position_id: str, match_id: str, ply: int) -> dict:
    state = MatchState.from_match_id(match_id)
    h = bg.hint(bg.Position.from_id(position_id), state.dice, ply=ply, state=state, top=60)
    return {str(m.play): (m.equity, m.ply) for m in h}


def _gnubg_name(play: str) -> str:
    # gnubg writes 13/1* 13/1 as 13/1*(2)
    return {"13/1* 13/1": "13/1*(2)"}.get(play, play)


@pytest.mark.parametrize("match_id, ply", [(BLITZ_MATCH, 1), (BLITZ_MATCH, 2), (BLITZ_MONEY, 1)])
def test_a_blitz_against_a_safe_play_is_gnubgs_close_call(match_id, ply):
    """The blitz 13/1*(2) against the safe 21/9 20/14(2): gnubg finds them
    within 0.03 of each other (no mark) at 1 and 2 plies, in the match and
    for money; with the cube live at every ply so do we, within 0.03 of
    gnubg's gap (the cube model on searched chances made the blitz 0.10
    better at 2-ply: the gammons it wins come after the opponent could
    have doubled, or cashed).  The rest is the networks': 0.026 at 1-ply in
    the match with the networks shipped since issue 41, under 0.025 before."""
    theirs = _gnubg_hint(BLITZ, match_id, ply)
    ours = _ours(BLITZ, match_id, ply)
    blitz, safe = "13/1* 13/1", "21/9 20/14(2)"
    assert ours[blitz][1] == ours[safe][1] == ply
    gap_theirs = theirs[_gnubg_name(blitz)] - theirs[safe]
    gap_ours = ours[blitz][0] - ours[safe][0]
    assert abs(gap_theirs) < 0.03
    assert abs(gap_ours) < 0.03, (gap_ours, gap_theirs)
    assert abs(gap_ours - gap_theirs) < 0.03, (gap_ours, gap_theirs)


def test_play_values_at_0_ply_are_the_cube_model():
    """At 0-ply a play's value is the cube model on the chances after it
    (what gnubg's 0-ply cubeful equity is, test_analysis_gnubg)."""
    state = MatchState.from_match_id(BLITZ_MATCH)
    rules = state.game_rules(None)
    ev = as_evaluator()
    children = np.ascontiguousarray(bg.Position.from_id(BLITZ).legal_plays((6, 6)).positions)
    probs, values, mwc = play_values(ev, children, 0, state, rules)
    v, m = values_after_play(children, chances(ev, children, 0), state, rules, state.on_roll)
    np.testing.assert_allclose(values, v)
    np.testing.assert_allclose(mwc, m)
    np.testing.assert_allclose(probs, flip(chances(ev, children, 0)))


def test_a_play_that_wins_keeps_its_score():
    """A play that bears off the last checker is not searched: it scores
    what it wins (here the match, at 4-4: MWC 1)."""
    a = np.zeros((2, 25), dtype=np.uint8)
    a[1, 0] = 1                          # the side on roll: one checker left, on its 1-point
    a[0, 5], a[0, 12] = 5, 10            # the opponent: its 6- and 13-points
    pos = bg.Position.from_array(a)
    state = bg.MatchState(match_length=5, score=(4, 4), on_roll=0, turn=0, dice=(6, 1))
    children = np.ascontiguousarray(pos.legal_plays((6, 1)).positions)
    _, values, mwc = play_values(as_evaluator(), children, 2, state, state.game_rules(None))
    assert np.all(mwc == 1.0) and np.all(values == 1.0)


@pytest.mark.parametrize("ply", [1, 2])
@pytest.mark.parametrize("keep", [HINT_FILTER, ANALYSIS_FILTER])
def test_gnubgs_filter_takes_the_best_straight_to_the_ply(ply, keep):
    """gnubg's move filter for a 1- or 2-ply search (its hint at 2-ply, and
    the 6-6 above: the four within 0.16 at 0-ply at 2-ply, the rest at 0-ply,
    none at 1-ply): every play within 0.16 of the best at 0-ply, the 8 best
    at most, is searched ``ply`` deep; no other play is searched.  gnubg's
    analysis (``show analysis`` in gnubg 1.07) keeps the 16 best within
    0.32 instead."""
    pos, state = bg.Position.from_id(BLITZ), MatchState.from_match_id(BLITZ_MATCH)
    rules = state.game_rules(None)
    children = np.ascontiguousarray(pos.legal_plays((6, 6)).positions)
    _, _, zero, _ = rank_plays(as_evaluator(), children, 0, state, rules)
    most, within = keep
    order = np.argsort(-zero, kind="stable")
    expected = {int(i) for i in order[:most] if zero[i] >= zero[order[0]] - within}
    _, depth, _, _ = rank_plays(as_evaluator(), children, ply, state, rules, keep=keep)
    assert set(np.flatnonzero(depth == ply).tolist()) == expected
    assert set(np.unique(depth).tolist()) <= {0, ply}
    assert len(expected) > 2            # more than the 2 the 2-ply step of a 3-ply filter keeps
    assert HINT_FILTER == KEEP[0]


def test_the_search_values_the_plays_gnubgs_pruning_keeps():
    """Inside the cubeful search each roll's play is chosen among the
    plays gnubg's pruning keeps (eval.c FindBestMoveInEval): every play of
    a roll with at most 10, or where one leads out of contact; else the 10
    the pruning network ranks best, each valued by the full networks
    (their chances exactly the 0-ply evaluation's)."""
    from backgammon import _net, network
    from backgammon.batch import legal_positions
    from backgammon.cube_search import PRUNE_MOVES
    from backgammon.dice import ROLL_ARRAY
    nets = network.default()
    boards = np.stack([bg.Position.from_id(BLITZ).array, bg.Position.initial().array])
    offsets, kids = legal_positions(np.repeat(boards, 21, axis=0), np.tile(ROLL_ARRAY.astype(np.uint8), (2, 1)),
                                    validate=False)
    every = _net.candidates(nets, boards, 0)
    assert (every[0] == offsets).all() and (every[1] == kids).all()
    assert np.allclose(every[2], _net.evaluate(nets, np.ascontiguousarray(kids), 0), atol=1e-6)
    assert (every[3] == _net.position_classes(np.ascontiguousarray(kids))).all()
    o, c, p, _ = _net.candidates(nets, boards, PRUNE_MOVES)
    pruned = 0
    for r in range(42):
        mine = {k.tobytes() for k in c[o[r]:o[r + 1]]}
        plays = kids[offsets[r]:offsets[r + 1]]
        assert mine <= {k.tobytes() for k in plays}
        contact = (_net.position_classes(np.ascontiguousarray(plays)) >= 3).all()
        if len(plays) > PRUNE_MOVES and contact:
            assert len(mine) == PRUNE_MOVES
            # the pruning network's favourite (the lowest equity for the side then on roll) is kept
            score = _net.prune_chances(nets, np.ascontiguousarray(plays)).astype(np.float64)
            equity = 2 * score[:, 0] - 1 + score[:, 1] - score[:, 3] + score[:, 2] - score[:, 4]
            assert plays[int(np.argmin(equity))].tobytes() in mine
            pruned += 1
        else:
            assert len(mine) == len(plays)
    assert pruned > 10
