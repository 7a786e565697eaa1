"""The statistics-agreement benchmark on gnubg-nn's network (issue 40):
``--evaluator gnubg-nn`` hands our analysis gnubg-nn's 0-ply network the
right way round (searched by us at 1 and 2 plies it gives gnubg-nn's own
1- and 2-ply chances), our analysis on it reproduces gnubg's 0-ply
analysis of a real match, and ``--resume`` never mixes settings in one
file.  gnubg's command-line program and gnubg-nn are the oracles (these
tests fail without them, they do not skip).  RULES 7, 8.
"""
from __future__ import annotations

import json
from pathlib import Path

import gnubg_nn
import numpy as np
import pytest

import backgammon as bg
from backgammon.evaluator import as_evaluator, chances
from helpers import load_script

ROOT = Path(__file__).resolve().parent.parent
HUMAN = ROOT / "benchmarks" / "data" / "human_gnubg2"
SAVED = ROOT / "benchmarks" / "results" / "statistics_agreement_galaxy15_0ply_gnubgnn.json"
# Positions on roll from match10090396: plays 6, 71 and 101 (contact) and 36 (a bear-off).
POSITIONS = ["4HPwMQDgc+IAWA", "zHcbAAjYtgOAGQ", "/3cAAEBttw0IAA", "2wEAAHb3DgAAAA"]


@pytest.fixture(scope="module")
def bench():
    return load_script(ROOT / "benchmarks" / "statistics_agreement.py")


@pytest.mark.parametrize("ply", [0, 1, 2])
def test_gnubg_nn_searched_by_us_gives_gnubg_nns_plies(bench, ply):
    # The side on roll in row 1 for both; our ply k is gnubg's ply k (the 21 rolls of the
    # side on roll, each roll's best play by 0-ply equity, k - 1 below it).
    ev = as_evaluator(bench.EVALUATORS["gnubg-nn"])
    boards = np.stack([bg.Position.from_id(p).array for p in POSITIONS])
    ours = chances(ev, boards, ply)
    theirs = np.array([gnubg_nn.probabilities(b.tolist(), ply) for b in boards])
    assert np.abs(ours - theirs).max() < 1e-5


def test_ours_on_gnubg_nn_reproduces_gnubgs_0ply_analysis(bench):
    # gnubg 1.07 analyses the match at 0-ply here (its own marks); ours runs on gnubg-nn's network.
    r = bench.compare(HUMAN / "match1004950.mat", 0, as_evaluator(bench.EVALUATORS["gnubg-nn"]))
    assert r["gnubg_blunders"] == 7 and r["gnubg_blunders_we_mark_error"] == 7
    for p in r["players"]:
        assert abs(p["ours"]["overall"] - p["gnubg"]["overall"]) < 0.5          # mEMG
        assert p["ours"]["ratings"] == p["gnubg"]["ratings"]
        for k in ("doubles", "takes", "passes", "unforced"):
            assert p["ours"][k] == p["gnubg"][k]


@pytest.mark.parametrize("option", [["--evaluator", "ours"], ["--ply", "2", "--evaluator", "gnubg-nn"]])
def test_resume_refuses_a_file_of_other_settings(bench, tmp_path, capsys, option):
    out = tmp_path / "r.json"
    out.write_text(SAVED.read_text())                    # ply 0, gnubg-nn
    with pytest.raises(SystemExit) as e:
        bench.main([str(HUMAN / "match1004950.mat"), "--ply", "0", "--resume", "--out", str(out), *option])
    assert e.value.code == 2
    assert "other settings" in capsys.readouterr().err
    assert out.read_text() == SAVED.read_text()


def test_resume_of_a_finished_file_analyses_nothing(bench, tmp_path, capsys):
    saved = json.loads(SAVED.read_text())
    out = tmp_path / "r.json"
    out.write_text(SAVED.read_text())
    mats = [str(HUMAN / r["match"]) for r in saved["results"]]
    assert bench.main([*mats, "--ply", "0", "--evaluator", "gnubg-nn", "--resume", "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out) == saved["summary"]
    assert out.read_text() == SAVED.read_text()


def test_resume_needs_out(bench, capsys):
    with pytest.raises(SystemExit) as e:
        bench.main([str(HUMAN / "match1004950.mat"), "--resume"])
    assert e.value.code == 2
    assert "--resume needs --out" in capsys.readouterr().err
