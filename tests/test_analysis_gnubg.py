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


def _play_match(length: int, seed: int) -> bg.Match:
    """A match of the network against pubeval, each making its own cube
    decisions: plenty of errors for an analysis to find, dances included."""
    players = [bg.player("net", seed=seed), bg.player("pubeval", seed=seed + 1)]
    match = bg.Match(length, seed=seed)
    while not match.is_over():
        g = match.new_game()
        while not g.is_over():
            if g.phase is bg.Phase.OPENING:
                g.roll()
            elif g.phase is bg.Phase.TURN:
                state = g.match_state()
                if g.can_double() and players[g.on_roll].cube_action(g.position, state).should_double:
                    g.double()
                    if players[g.turn].cube_action(g.position, state).take:
                        g.take()
                    else:
                        g.drop()
                else:
                    g.roll()
            else:
                g.play(players[g.on_roll].choose(g.position, g.dice))
    return match


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    """Six 5-point matches, each analysed by gnubg at 0-ply (its SGF and
    its statistics) and by us at 0-ply: enough errors that the share found
    says something about the evaluators, not about one match."""
    out = []
    for seed in (3, 11, 4, 5, 6, 7):
        d = tmp_path_factory.mktemp(f"gnubg{seed}")
        match = _play_match(5, seed)
        (d / "m.mat").write_text(bg.write_mat(match))
        text = _gnubg(["set analysis chequerplay evaluation plies 0", "set analysis cubedecision evaluation plies 0",
                       'import mat "m.mat"', "analyse match", 'save match "gnubg.sgf"', "show statistics match"], d)
        record = bg.read_mat((d / "m.mat").read_text())
        ours = analyse(record, ply=0, cube_ply=0, workers=1)
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
    for _, record, stats, theirs, ours in analysed:
        a, b = ours.stats
        assert [a.checker_decisions, b.checker_decisions] == stats[("Chequerplay", "Unforced moves")]
        t = _totals(theirs.analysis)
        assert [a.rolls, b.rolls] == t["rolls"]
        nodes = {(n.game, n.action): n for n in theirs.analysis}
        for g in ours.games:
            for r in g.luck:
                n = nodes[(r.game, r.action)]
                assert n.player == r.player
                ours_luck.append(r.luck)
                their_luck.append(n.luck)
            for p in g.plays:
                n = nodes[(p.game, p.action)]
                theirs_error = n.candidates[0][1] - n.candidates[n.played][1]
                if theirs_error >= 0.08:
                    errors += 1
                    found += p.error >= 0.04
        error = stats[("Chequerplay", "Error total EMG (MWC)")]
        assert (a.checker_pr < b.checker_pr) == (-error[0] < -error[2]), "the worse player differs"
    r = float(np.corrcoef(ours_luck, their_luck)[0, 1])
    assert r > 0.85, f"luck per roll correlates {r:.3f} with gnubg's"
    print(f"luck correlation {r:.3f}; {found} of gnubg's {errors} errors found")
    # Measured: 42 of 76 (55%) with the shipped networks at 0-ply on these
    # six matches, 97 of 144 (67%) on twelve others; the misses are plays
    # the two evaluators value differently (docs/guide/analysis.md).
    assert errors >= 30 and found / errors >= 0.5, f"{found} of gnubg's {errors} errors found"
