"""Match analysis (issue 21): every decision graded, luck measured, a
performance rating per player; as text, JSON and from the command line."""
import json
import subprocess
import sys

import numpy as np
import pytest

import backgammon as bg
from backgammon.analysis import SKILLS, THRESHOLDS, analyse, skill_of
from backgammon.hint import hint


def _play_game(match, worst_for=1, seed=0, cube=None):
    """A game of ``match`` where one side always plays the best play of a
    0-ply hint and the other (``worst_for``) the worst; returns the game."""
    g = match.new_game()
    while g.phase is bg.Phase.OPENING:
        g.roll()
    turns = 0
    while not g.is_over() and turns < 400:
        if g.phase is bg.Phase.TURN:
            if cube is not None and cube(g):
                g.double()
                g.take()
                continue
            g.roll()
            continue
        ranked = hint(g.position, g.dice)
        choice = ranked[-1] if g.on_roll == worst_for else ranked[0]
        g.play(choice.play)
        turns += 1
    return g


def test_a_bad_player_rates_worse_and_forced_plays_are_not_decisions():
    match = bg.Match(0, seed=5)
    g = _play_game(match)
    a = analyse(match, ply=0, workers=1)
    good, bad = a.stats
    assert bad.pr > 10 * max(good.pr, 1.0) and bad.blunders > 0
    plays = a.games[0].plays
    assert plays and all(p.plays > 1 for p in plays)          # forced plays and dances are not decisions
    replay, unforced = bg.Match(0).new_game(), 0
    for e in g.history:
        if e.kind == "play" and replay.phase is bg.Phase.PLAY and len(replay.legal_plays()) > 1:
            unforced += 1
        replay.apply(e)
    assert good.checker_decisions + bad.checker_decisions == unforced == len(plays)
    # The side that plays the hint's best loses nothing by the 0-ply hint's
    # lights, save where the cube changes the order (cubeless hint, cubeful grading).
    assert all(p.error < THRESHOLDS[0] for p in plays if p.player == 0)
    for p in plays:
        assert p.error == pytest.approx(max(0.0, p.best_equity - p.played_equity))
        assert p.skill == skill_of(p.error) and p.skill in SKILLS
        assert p.error_mwc is None                           # money play
        assert (p.played, p.played_equity) in [c[:2] for c in p.candidates]
        assert all(len(c[2]) == 5 for c in p.candidates)


def test_workers_and_json_give_the_same_analysis():
    match = bg.Match(5, seed=8)
    while not match.is_over() and len(match.games) < 3:
        _play_game(match, worst_for=len(match.games) % 2)
    # 1-ply: the plays' cubeful search runs in the workers too, at a twentieth of 2-ply's cost.
    one = analyse(match, ply=1, workers=1)
    two = analyse(match, ply=1, workers=2)
    assert one.to_dict()["games"] == two.to_dict()["games"]
    d = json.loads(one.to_json())
    assert d["length"] == 5 and len(d["games"]) == len(match.games)
    assert all(p["error_mwc"] is not None for g in d["games"] for p in g["plays"])   # match play: MWC too
    text = one.report()
    assert "Performance rating" in text and "Player 0" in text


def test_the_luck_of_a_roll():
    # The luck of a roll is its value minus the mean over the rolls that
    # could have come.  The opening: over all 30 throws, where either side
    # may move first, the mean is 0 by symmetry, so the luck of an opening
    # roll is the value of its best play (gnubg's definition).
    for a, b in ((3, 1), (6, 5), (5, 4), (2, 1)):
        match = bg.Match(0, seed=1)
        g = match.new_game()
        g.roll((a, b))
        mover = g.on_roll
        best = hint(g.position, g.dice)[0]
        g.play(best.play)
        game = analyse(match, ply=0, workers=1).games[0]      # luck is 0-ply, as gnubg's
        r = game.luck
        assert len(r) == 1 and r[0].player == mover and r[0].roll == (max(a, b), min(a, b))
        assert r[0].luck == pytest.approx(game.plays[0].best_equity, abs=1e-6)   # float32 chances by two paths
    # A later roll: over the 21 rolls weighted by their chances the luck
    # averages exactly 0.
    base = bg.Match(0, seed=3)
    g = base.new_game()
    g.roll((3, 1))
    g.play("8/5 6/5")
    lucks, weights = [], []
    for roll in bg.ROLLS:
        match = bg.Match(0, seed=3)
        h = match.new_game()
        for e in g.history:
            h.apply(e)
        h.roll((roll.die1, roll.die2))
        h.play(hint(h.position, h.dice)[0].play)
        lucks.append(analyse(match, workers=1).games[0].luck[-1].luck)
        weights.append(roll.probability)
    assert abs(float(np.dot(lucks, weights))) < 1e-9
    assert max(lucks) > 0.2 and min(lucks) < -0.1


def test_cube_errors():
    # Doubling at the opening is a clear error (no double is right) and the
    # take right; a pass of that double is a blunder.
    for answer, doubler_error, taker_error in (("take", True, False), ("drop", True, True)):
        match = bg.Match(0, seed=3)
        g = match.new_game()
        g.roll((3, 1))
        g.play(hint(g.position, g.dice)[0].play)
        g.double()
        getattr(g, answer)()
        a = analyse(match, workers=1)
        cubes = a.games[0].cubes
        doubled = [c for c in cubes if c.kind == "double" and c.action == "double"]
        answered = [c for c in cubes if c.kind == "take"]
        assert len(doubled) == 1 and len(answered) == 1
        assert (doubled[0].error > 0.04) == doubler_error and doubled[0].proper == "no double"
        assert (answered[0].error > 0.16) == taker_error
        assert answered[0].action == ("take" if answer == "take" else "pass") and answered[0].proper == "take"


def test_no_double_turns_are_cube_decisions_when_doubling_is_allowed():
    match = bg.Match(0, seed=2)
    _play_game(match, worst_for=1)
    a = analyse(match, workers=1)
    cubes = a.games[0].cubes
    assert cubes and all(c.kind == "double" for c in cubes)
    assert all(c.action == "no double" for c in cubes)
    # The bad player falls far behind: the good one should have doubled at
    # some point (its no double turns cost something), the bad one never.
    assert any(c.error > 0 and c.player == 0 for c in cubes)


def test_records_from_files_are_analysed(tmp_path):
    match = bg.Match(3, seed=4)
    while not match.is_over():
        _play_game(match, worst_for=1)
    text = bg.write_mat(match)
    record = bg.read_mat(text)
    a = analyse(record, ply=1, workers=1)          # the file and the command line agree at any ply
    assert a.players == tuple(record.players) and a.length == 3
    assert a.stats[1].pr > a.stats[0].pr
    path = tmp_path / "m.mat"
    path.write_text(text)
    r = subprocess.run([sys.executable, "-m", "backgammon", "analyse", str(path), "--ply", "1", "--workers", "1",
                        "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["stats"][1]["pr"] == pytest.approx(a.stats[1].pr)
    r = subprocess.run([sys.executable, "-m", "backgammon", "analyse", str(path), "--ply", "1", "--workers", "1"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "Performance rating" in r.stdout and "Position ID" in r.stdout


def test_bad_arguments():
    with pytest.raises(TypeError, match="source"):
        analyse("match.mat")
    with pytest.raises(ValueError, match="ply"):
        analyse(bg.Match(1), ply=3)
    with pytest.raises(TypeError, match="ply"):
        analyse(bg.Match(1), ply=1.5)
    r = subprocess.run([sys.executable, "-m", "backgammon", "analyse", "nothing.txt2"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and "format" in r.stderr


def test_the_default_marks_are_gnubgs_show_analysis():
    """Issue 40 item 5: the analysis marks errors by gnubg 1.07's own
    defaults, as its command-line program prints them (``show analysis``):
    analyse, errors(), report(), the rollout check and the CLI's
    --threshold all default to them, and the marks have one home."""
    import inspect
    import re
    import shutil

    from backgammon.analysis import MatchAnalysis
    from backgammon.cli import build_parser
    from backgammon.statistics import GNUBG_MARKS
    gnubg = shutil.which("gnubg") or "/usr/games/gnubg"
    shown = subprocess.run([gnubg, "-t", "-q"], input="show analysis\n", capture_output=True, text=True,
                           timeout=120).stdout
    found = tuple(float(x) for x in re.findall(r"-(\d\.\d+) (?:doubtful|bad|very bad)", shown))
    assert len(found) == 3, shown
    assert THRESHOLDS is GNUBG_MARKS and THRESHOLDS == found
    params = inspect.signature(analyse).parameters
    assert params["thresholds"].default == found and params["threshold"].default == found[1]
    assert inspect.signature(MatchAnalysis.errors).parameters["threshold"].default == found[0]
    assert inspect.signature(MatchAnalysis.report).parameters["threshold"].default == found[0]
    analyse_cli = build_parser()._subparsers._group_actions[0].choices["analyse"]
    assert analyse_cli.get_default("threshold") == found[0]
    helptext = " ".join(analyse_cli.format_help().split())
    assert f"default {found[0]}" in helptext and f"errors of {found[1]} or more" in helptext
    # the marks of an analysis are those: a decision is doubtful, an error, a blunder beyond them
    m = bg.Match(0, seed=2)
    g = m.new_game()
    g.roll((4, 2))
    g.play("24/20 24/22")
    play = analyse(m, workers=1).games[0].plays[0]
    expected = "blunder" if play.error > found[2] else "error" if play.error > found[1] else "doubtful"
    assert play.error > found[0] and play.skill == expected
    # one rule with gnubg's statistics: marked beyond a mark, not at it
    from backgammon.statistics import mark
    names = {"": "", "doubtful": "doubtful", "bad": "error", "very bad": "blunder"}
    for m in found:
        for e in (m - 1e-9, m, m + 1e-9):
            assert skill_of(e) == names[mark(e)], e
    assert skill_of(found[0]) == "" and skill_of(found[2] + 1e-9) == "blunder"
