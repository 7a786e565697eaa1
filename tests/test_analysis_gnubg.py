"""Match analysis against GNU Backgammon itself (issue 21): matches played
here are analysed by gnubg's command-line program (Debian's ``gnubg``, which
.ci/run installs; these tests fail without it, they do not skip), and

- the analysis gnubg writes into its SGF reads back (``read_sgf``) to the
  totals gnubg prints for the same match;
- the analysis we write into an SGF loads in gnubg, and gnubg's statistics
  of it are ours;
- our own analysis agrees with gnubg's where the rules decide (which plays
  are decisions, which rolls have luck) and, measured, where the two
  evaluators judge (luck of each roll, who played worse, the errors found).
"""
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg
from backgammon.analysis import analyse
from backgammon.formats.sgf import read_sgf

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"
# gnubg 1.07 marks doubtful, bad and very bad from 0.03, 0.06 and 0.12 unless
# told, and so does our analysis by default (issue 40 item 5).  Issue 21's
# measure (test_gnubgs_blunders_are_our_errors) names the marks 0.04, 0.08
# and 0.16: both sides are told those here.  (At both sides' defaults the
# same 20 matches give 154 of gnubg's 194 blunders marked as errors, 79%.)
ISSUE21_MARKS = (0.04, 0.08, 0.16)
TOLD = [f"set analysis threshold {name} {m}" for name, m in zip(("doubtful", "bad", "verybad"), ISSUE21_MARKS)]


def _gnubg(commands: list[str], cwd: Path) -> str:
    assert Path(GNUBG).exists(), "GNU Backgammon's command-line program is needed: apt-get install gnubg"
    script = "\n".join(["set confirm new off", *commands, ""])
    done = subprocess.run([GNUBG, "-t", "-q", "-r"], input=script, capture_output=True, text=True, cwd=cwd,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _statistics(text: str) -> dict:
    """gnubg's ``show statistics match``: {(section, label): [numbers]}."""
    out, section = {}, ""
    for line in text.splitlines():
        if line.strip().endswith("statistics") and not re.search(r"\d", line):
            section = line.strip().split()[0]
            continue
        m = re.match(r"(\S.*?)\s{2,}(\S.*)$", line)
        if m and section:
            numbers = [float(x) for x in re.findall(r"[-+]?\d+\.?\d*", m.group(2))]
            if numbers:
                out[(section, m.group(1).strip())] = numbers
    return out


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    """Twenty 5-point matches, each analysed by gnubg at 0-ply (its SGF and
    its statistics) and by us at 0-ply: enough errors that the share found
    says something about the evaluators, not about one game (the misses
    come in runs: a back game the two networks value differently)."""
    out = []
    for seed in range(100, 120):
        d = tmp_path_factory.mktemp(f"gnubg{seed}")
        # The network against pubeval, each with its own cube decisions:
        # plenty of errors for an analysis to find, dances included.
        match = bg.play_match(["net", "pubeval"], 5, seed=seed)
        (d / "m.mat").write_text(bg.write_mat(match))
        text = _gnubg([*TOLD, "set analysis chequerplay evaluation plies 0",
                       "set analysis cubedecision evaluation plies 0",
                       'import mat "m.mat"', "analyse match", 'save match "gnubg.sgf"', "show statistics match"], d)
        record = bg.read_mat((d / "m.mat").read_text())
        ours = analyse(record, ply=0, cube_ply=0, workers=1, thresholds=ISSUE21_MARKS)
        out.append((d, record, _statistics(text), read_sgf((d / "gnubg.sgf").read_text()), ours))
    return out


def _totals(nodes) -> dict:
    t: dict = {k: [0, 0] for k in ("unforced", "error", "luck", "rolls", "doubles", "takes", "passes")}
    for n in nodes:
        if n.kind == "play" and n.candidates and n.played is not None:
            if len(n.candidates) > 1:
                t["unforced"][n.player] += 1
            t["error"][n.player] += n.candidates[0][1] - n.candidates[n.played][1]
        if n.kind == "play" and n.luck is not None:
            t["luck"][n.player] += n.luck
            t["rolls"][n.player] += 1
        if n.kind == "double":
            t["doubles"][n.player] += 1
        if n.kind in ("take", "drop"):
            t["takes" if n.kind == "take" else "passes"][n.player] += 1
    return t


def test_gnubgs_analysis_reads_back_to_its_statistics(analysed):
    for _, record, stats, theirs, _ in analysed:
        t = _totals(theirs.analysis)
        assert t["unforced"] == stats[("Chequerplay", "Unforced moves")]
        error = stats[("Chequerplay", "Error total EMG (MWC)")]
        assert t["error"] == pytest.approx([-error[0], -error[2]], abs=2e-3)
        luck = stats[("Luck", "Luck total EMG (MWC)")]
        assert t["luck"] == pytest.approx([luck[0], luck[2]], abs=2e-3)
        rolls = [sum(stats[("Luck", f"Rolls {k}")][i] for k in ("marked very lucky", "marked lucky", "unmarked",
                                                                 "marked unlucky", "marked very unlucky"))
                 for i in (0, 1)]
        assert t["rolls"] == rolls
        assert t["doubles"] == stats[("Cube", "Doubles")] and t["takes"] == stats[("Cube", "Takes")]
        assert t["passes"] == stats[("Cube", "Passes")]
        # the candidates as gnubg lists them: the played one among them, best first
        plays = [n for n in theirs.analysis if n.kind == "play" and n.candidates and len(n.candidates) > 1]
        assert plays and all(n.candidates[0][1] >= n.candidates[-1][1] for n in plays)
        assert all(len(c[2]) == 5 and 0 <= c[2][0] <= 1 for n in plays for c in n.candidates)


def test_gnubg_reads_our_analysis_to_our_figures(analysed):
    for d, record, _, _, ours in analysed:
        (d / "ours.sgf").write_text(bg.write_sgf(record, analysis=ours))
        stats = _statistics(_gnubg(['load match "ours.sgf"', "show statistics match"], d))
        a, b = ours.stats
        assert stats[("Chequerplay", "Unforced moves")] == [a.checker_decisions, b.checker_decisions]
        error = stats[("Chequerplay", "Error total EMG (MWC)")]
        assert [-error[0], -error[2]] == pytest.approx([a.checker_error, b.checker_error], abs=2e-3)
        luck = stats[("Luck", "Luck total EMG (MWC)")]
        assert [luck[0], luck[2]] == pytest.approx([a.luck, b.luck], abs=2e-3)
        close = stats[("Cube", "Close or actual cube decisions")]
        assert close == [a.cube_decisions, b.cube_decisions]


def test_our_analysis_agrees_with_gnubgs(analysed):
    """What the rules decide is exact: the same plays are decisions and
    the same rolls carry luck.  What the evaluators judge is measured:
    the luck of each roll correlates, the worse player is the same, and
    most of the plays gnubg calls errors we call errors too."""
    ours_luck, their_luck, found, errors = [], [], 0, 0
    same_sign = totals = 0
    for _, record, stats, theirs, ours in analysed:
        a, b = ours.stats
        assert [a.checker_decisions, b.checker_decisions] == stats[("Chequerplay", "Unforced moves")]
        t = _totals(theirs.analysis)
        assert [a.rolls, b.rolls] == t["rolls"]
        nodes = {(n.game, n.action): n for n in theirs.analysis}
        for g in ours.games:
            mine, gnubgs = [0.0, 0.0], [0.0, 0.0]
            for r in g.luck:
                n = nodes[(r.game, r.action)]
                assert n.player == r.player
                ours_luck.append(r.luck)
                their_luck.append(n.luck)
                mine[r.player] += r.luck
                gnubgs[r.player] += n.luck
            for k in (0, 1):
                if abs(gnubgs[k]) > 1e-9:
                    totals += 1
                    same_sign += (mine[k] > 0) == (gnubgs[k] > 0)
            for p in g.plays:
                n = nodes[(p.game, p.action)]
                theirs_error = n.candidates[0][1] - n.candidates[n.played][1]
                if theirs_error >= 0.08:
                    errors += 1
                    found += p.error >= 0.04
        error = stats[("Chequerplay", "Error total EMG (MWC)")]
        assert (a.checker_pr < b.checker_pr) == (-error[0] < -error[2]), "the worse player differs"
        rates = stats[("Overall", "Error rate mEMG (MWC)")]
        assert (a.pr < b.pr) == (-rates[0] < -rates[2]), "the performance ratings rank the players unlike gnubg's"
    r = float(np.corrcoef(ours_luck, their_luck)[0, 1])
    assert r > 0.9, f"luck per roll correlates {r:.3f} with gnubg's"
    print(f"luck correlation {r:.3f}; {found} of gnubg's {errors} errors found; "
          f"luck sign of {same_sign} of {totals} (game, player) totals as gnubg's")
    # Issue 21: the luck ratings have gnubg's sign in at least 90% of games.
    assert same_sign >= 0.9 * totals, f"{same_sign} of {totals} luck totals with gnubg's sign"
    # Measured: 150 of 203 (74%) with the shipped networks at 0-ply; the misses
    # are plays the two networks value differently (docs/guide/analysis.md).
    assert errors >= 100 and found / errors >= 0.65, f"{found} of gnubg's {errors} errors found"



def _valued_unlike_gnubg(theirs, ours):
    """Each candidate play gnubg valued (its 0-ply cubeful equity) against
    our cube model applied to gnubg's own cubeless chances for it:
    (candidates checked, those differing by more than 0.001 with a checker
    outside the home boards, those differing in a bear-off)."""
    from backgammon.cube import cube_values
    checked, off, home_off = 0, [], 0
    plays = {(p.game, p.action): p for g in ours.games for p in g.plays}
    rules = theirs.rules
    for n in theirs.analysis:
        p = plays.get((n.game, n.action))
        if n.kind != "play" or p is None or len(n.candidates) < 2:
            continue
        pos = bg.Position.from_id(p.position_id)
        state = bg.MatchState.from_match_id(p.match_id).with_rules(rules)   # a Match ID holds no beavers
        opp = 1 - state.on_roll
        after = state.replace(on_roll=opp, turn=opp, dice=(0, 0))
        for notation, equity, chances, _ in n.candidates:
            child = pos.play(notation, p.roll)
            if child.is_game_over():
                continue
            w, wg, wb, lg, lb = chances          # the mover's; the opponent is on roll
            value, _ = cube_values(np.array([[1 - w, lg, lb, wg, wb]]), child.array[None], after, rules)
            checked += 1
            if abs(-float(value[0]) - equity) > 1e-3:
                if not child.array[:, 6:].any():
                    home_off += 1
                else:
                    off.append((p.match_id, child.to_id(), notation, equity, -float(value[0])))
    return checked, off, home_off


def test_cube_model_gives_gnubgs_cubeful_equities(analysed):
    """gnubg's 0-ply cubeful equity of every candidate play is its cube
    model applied to its own cubeless chances: from the same chances ours
    gives the same equities (RULES 7, 8), gammonish positions, owned cubes
    and every score of these matches included.  The one place it differs
    is small bear-offs in a match, where gnubg looks up its two-sided
    database."""
    checked = home_off = 0
    for _, _, _, theirs, ours in analysed:
        n, off, h = _valued_unlike_gnubg(theirs, ours)
        assert not off, f"{len(off)} of {n} candidates valued unlike gnubg, e.g. {off[:3]}"
        checked, home_off = checked + n, home_off + h
    assert checked > 5000
    assert home_off <= checked // 200, f"{home_off} of {checked} bear-off candidates valued unlike gnubg"


@pytest.mark.parametrize("jacoby", [False, True])
def test_money_cube_model_gives_gnubgs_cubeful_equities(tmp_path, jacoby):
    """Money play, with and without Jacoby (RULES 7.5): every candidate's
    cubeful equity is gnubg's from gnubg's chances, bear-offs included
    (both look up the two-sided database's cubeful equities)."""
    rules = bg.Rules(jacoby=jacoby)
    session = bg.play_match(["net", "pubeval"], 0, seed=300 + jacoby, games=8, rules=rules)
    (tmp_path / "s.mat").write_text(bg.write_mat(session))
    _gnubg([f"set jacoby {'on' if jacoby else 'off'}", "set analysis chequerplay evaluation plies 0",
            'import mat "s.mat"', "analyse match", 'save match "gnubg.sgf"'], tmp_path)
    theirs = read_sgf((tmp_path / "gnubg.sgf").read_text())
    assert theirs.rules.jacoby is jacoby
    ours = analyse(theirs, ply=0, workers=1)
    checked, off, home_off = _valued_unlike_gnubg(theirs, ours)
    assert checked > 2000
    assert not off and not home_off, f"{len(off) + home_off} of {checked} candidates valued unlike gnubg: {off[:3]}"


def test_gnubgs_blunders_are_our_errors(analysed):
    """Issue 21's measure: of the checker plays and cube decisions gnubg
    marks as blunders (0.16 or more), ours marks at least 80% as an error
    or worse (0.08), both at 0-ply; a missed double is marked on the roll
    after it in gnubg's file, on the cube decision in ours."""
    marked = found = 0
    for _, _, _, theirs, ours in analysed:
        plays = {(g.number, p.action): p.skill for g in ours.games for p in g.plays}
        cubes = {}
        for g in ours.games:
            for c in g.cubes:
                missed = c.kind == "double" and c.action == "no double"
                cubes[(g.number, c.action_index + missed, missed)] = c.skill
        for n in theirs.analysis:
            ours_marks = []
            if n.kind == "play" and n.skill == "blunder":
                ours_marks.append(plays.get((n.game, n.action)))
            if n.kind in ("double", "take", "drop") and n.skill == "blunder":
                ours_marks.append(cubes.get((n.game, n.action, False)))
            if n.kind == "play" and n.cube_skill == "blunder":
                ours_marks.append(cubes.get((n.game, n.action, True)))
            marked += len(ours_marks)
            found += sum(m in ("error", "blunder") for m in ours_marks)
    print(f"{found} of gnubg's {marked} blunders marked as errors or worse")
    assert marked >= 25 and found >= 0.8 * marked, f"{found} of gnubg's {marked} blunders marked as errors"
